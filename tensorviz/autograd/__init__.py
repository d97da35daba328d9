"""``tensorviz.autograd``: reverse-mode automatic differentiation, as PyTorch's.

Ops on tensors that require grad record a graph of nodes; ``backward()`` walks it from a
result back to the leaves and accumulates gradients into their ``.grad``::

    x = tensorviz.tensor([1., 2., 3.], requires_grad=True)
    y = (x * x).sum()          # y.grad_fn: <SumBackward0>, then MulBackward0, AccumulateGrad
    y.backward()
    x.grad                     # tensor([2., 4., 6.])

``grad(outputs, inputs)`` returns gradients instead of accumulating them;
``Function`` defines a new differentiable op; ``gradcheck`` compares a gradient with finite
differences; ``graph`` holds the node classes and the saved-tensor hooks.
"""
from __future__ import annotations

import warnings
from typing import Any, Sequence

from .. import _autograd_meta
from .. import _grad_mode as _grad_mode_state
from .._tensor import Tensor
from . import grad_mode, graph
from ._backward import backward, grad
from ._record import arm, on_grad_block
from .grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled

__all__ = ["backward", "grad", "Function", "gradcheck", "gradgradcheck",
           "set_detect_anomaly", "detect_anomaly", "enable_grad", "grad_mode", "graph",
           "inference_mode", "no_grad", "set_grad_enabled", "functional", "Variable",
           "set_multithreading_enabled"]


def _set_multithreading(enabled: bool) -> None:
    pass


class set_multithreading_enabled:
    """Accepted for PyTorch compatibility: tensorviz's backward runs in the calling thread."""

    def __init__(self, mode: bool):
        self.mode = mode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


def Variable(data, requires_grad: bool = False, volatile: bool = False):  # noqa: N802
    """The pre-0.4 wrapper, as PyTorch keeps it: returns ``data`` itself (a Tensor), with
    ``requires_grad`` set."""
    if requires_grad:
        data.requires_grad_(True)
    return data


from . import _formulas  # noqa: E402,F401  (fills the derivative table)
from . import _tensor_api  # noqa: E402,F401  (Tensor.backward, register_hook, ...)
from .anomaly_mode import detect_anomaly, set_detect_anomaly  # noqa: E402
from .function import Function  # noqa: E402
from .gradcheck import gradcheck, gradgradcheck  # noqa: E402
# Note: as in PyTorch, GradcheckError lives in tensorviz.autograd.gradcheck only (the
# function ``gradcheck`` shadows that module's name here).
from . import functional  # noqa: E402

_autograd_meta.on_first_requires_grad = arm
_autograd_meta.on_requires_grad_of_viewed = _record.note_requires_grad
_grad_mode_state.on_inference_mode = arm
_grad_mode_state.mode_listeners.append(on_grad_block)  # (until armed: see there)
