"""``tensorviz.autograd``: for now only the grad-mode context managers, under PyTorch's names.

# Note: autograd itself (``backward``, ``grad``, ``Function``) is not implemented yet; these
# only keep the thread's grad / inference mode, and no gradients are computed anywhere.
"""
from __future__ import annotations

from . import grad_mode
from .grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled

__all__ = ["enable_grad", "grad_mode", "inference_mode", "no_grad", "set_grad_enabled"]
