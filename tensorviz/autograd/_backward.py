"""``backward`` and ``grad``: run the engine from outputs back to leaves (re-exported by
``tensorviz.autograd``)."""
from __future__ import annotations

import warnings

from .._tensor import Tensor
from . import _record
from ._engine import run_backward

__all__ = ["backward", "grad"]


def _as_tuple(x) -> tuple:
    if x is None:
        return ()
    if isinstance(x, Tensor):
        return (x,)
    return tuple(x)


def _seeds(outputs: tuple, grads) -> tuple:
    if grads is None:
        return (None,) * len(outputs)
    grads = (grads,) if isinstance(grads, Tensor) else tuple(grads)
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(grads)} tensors and {len(outputs)} gradients")
    return grads


def backward(tensors, grad_tensors=None, retain_graph: bool | None = None,
             create_graph: bool = False, grad_variables=None, inputs=None) -> None:
    """Accumulate into the leaves' ``.grad`` the gradient of ``tensors`` (seeded with
    ``grad_tensors``; implicit ``1`` only for scalars).

    The graph's saved tensors are freed afterwards unless ``retain_graph=True``;
    ``create_graph=True`` records the backward pass itself (for higher derivatives);
    ``inputs`` limits accumulation to those tensors.

    >>> x = tensorviz.ones(2, requires_grad=True)
    >>> tensorviz.autograd.backward((x * 3).sum())
    >>> x.grad
    tensor([3., 3.])
    """
    if grad_variables is not None:
        grad_tensors = grad_variables
    outputs = _as_tuple(tensors)
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between the "
            "parameter and its gradient which can cause a memory leak. We recommend using "
            "autograd.grad when creating the graph to avoid this. If you have to use this "
            "function, make sure to reset the .grad fields of your parameters to None after use "
            "to break the cycle and avoid the leak.", UserWarning, stacklevel=2)
    if inputs is not None:
        inputs = _as_tuple(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    if _record._views_rebased:  # (views taken before their base was written in place)
        _record.adopt_views(outputs + (inputs or ()))
    run_backward(outputs, _seeds(outputs, grad_tensors), retain_graph=retain_graph,
                 create_graph=create_graph, inputs=inputs)


def grad(outputs, inputs, grad_outputs=None, retain_graph: bool | None = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: bool | None = None,
         is_grads_batched: bool = False, materialize_grads: bool = False) -> tuple:
    """The gradients of ``outputs`` with respect to ``inputs``, returned (``.grad`` is left
    alone).

    ``allow_unused=True`` gives None for an input the outputs do not depend on
    (``materialize_grads=True``: zeros instead).

    >>> x = tensorviz.tensor(2., requires_grad=True)
    >>> (g,) = tensorviz.autograd.grad(x ** 3, x, create_graph=True)   # 3x^2 = 12
    >>> tensorviz.autograd.grad(g, x)                                    # 6x = (12.,)
    """
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads"
                         "=True, but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    outs = _as_tuple(outputs)
    ins = _as_tuple(inputs)
    if retain_graph is None:
        retain_graph = create_graph
    if _record._views_rebased:
        _record.adopt_views(outs + ins)
    res = run_backward(outs, _seeds(outs, grad_outputs), retain_graph=retain_graph,
                       create_graph=create_graph, inputs=ins, capture=True,
                       allow_unused=allow_unused)
    if materialize_grads:
        from ._torch import T
        zeros_like = T.zeros_like
        res = tuple(zeros_like(x) if g is None else g for g, x in zip(res, ins))
    return res
