"""``tensorviz.autograd.grad_mode``: PyTorch's module of the grad-mode context managers
(implemented in ``tensorviz._grad_mode``; autograd itself is not implemented yet, so they only
keep the mode)."""
from __future__ import annotations

from .._grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode"]
