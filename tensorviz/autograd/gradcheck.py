"""``gradcheck`` / ``gradgradcheck``: compare autograd's Jacobian with central finite
differences, as PyTorch's checks do (use float64 inputs: float32 differences are too coarse).

    x = tensorviz.randn(3, dtype=tensorviz.float64, requires_grad=True)
    tensorviz.autograd.gradcheck(lambda t: t.sin() * t, (x,))     # True
"""
from __future__ import annotations

import warnings
from typing import Callable, Sequence

from .. import _dtypes
from .._grad_mode import _STATE
from .._tensor import Tensor

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError", "get_numerical_jacobian",
           "get_analytical_jacobian"]


class GradcheckError(RuntimeError):
    """The analytical and numerical Jacobians differ (raised by ``gradcheck``)."""


def _as_tuple(x) -> tuple:
    return (x,) if isinstance(x, Tensor) or not isinstance(x, (tuple, list)) else tuple(x)


def _diff_inputs(inputs: tuple) -> list:
    return [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]


def _outputs(fn, inputs) -> tuple:
    return tuple(o for o in _as_tuple(fn(*inputs)) if isinstance(o, Tensor))


def get_numerical_jacobian(fn: Callable, inputs, eps: float = 1e-6) -> list:
    """``[[J(output k wrt input j) as (numel_in, numel_out)] per input] `` by central
    differences (computed with grad mode off)."""
    from ._torch import T
    zeros = T.zeros
    inputs = _as_tuple(inputs)
    # (grad mode stays as it is: gradgradcheck's function itself calls autograd.grad)
    try:
        outs = _outputs(fn, inputs)
        jac = []
        for j in _diff_inputs(inputs):
            x = inputs[j]
            flat = x.data.reshape(-1) if x.is_contiguous() else None
            cols = [zeros((x.numel(), o.numel()), dtype=_real(o), device=o.device) for o in outs]
            work = x.data
            for i in range(x.numel()):
                idx = _unravel(i, x.shape)
                orig = work[idx].item()
                work[idx] = orig - eps
                lo = [o.detach().clone() for o in _outputs(fn, inputs)]
                work[idx] = orig + eps
                hi = [o.detach().clone() for o in _outputs(fn, inputs)]
                work[idx] = orig
                for k, (a, b) in enumerate(zip(lo, hi)):
                    d = (b - a) / (2 * eps)
                    cols[k][i] = d.reshape(-1).real if d.is_complex() else d.reshape(-1)
            jac.append(cols)
        return jac
    finally:
        pass


def _real(o):
    return o.dtype.to_real() if o.dtype.category == _dtypes._COMPLEX else o.dtype


def _unravel(i: int, shape) -> tuple:
    idx = []
    for s in reversed(tuple(shape)):
        idx.append(i % s)
        i //= s
    return tuple(reversed(idx))


def get_analytical_jacobian(fn: Callable, inputs) -> list:
    """The same Jacobians from backward: one vector-Jacobian product per output element."""
    from ._torch import T
    zeros = T.zeros
    from ._backward import grad as _grad
    inputs = _as_tuple(inputs)
    outs = _outputs(fn, inputs)
    diff = _diff_inputs(inputs)
    jac = [[zeros((inputs[j].numel(), o.numel()), dtype=_real(o), device=o.device)
            for o in outs] for j in diff]
    for k, o in enumerate(outs):
        for e in range(o.numel()):
            seed = zeros(o.shape, dtype=o.dtype, device=o.device)
            seed.reshape(-1)[e] = 1
            gs = _grad(o, [inputs[j] for j in diff], seed, retain_graph=True,
                       allow_unused=True) if o.requires_grad else (None,) * len(diff)
            for col, g in enumerate(gs):
                if g is not None:
                    g = g.reshape(-1)
                    jac[col][k][:, e] = g.real if g.is_complex() else g
    return jac


def gradcheck(func: Callable, inputs, *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
              check_batched_grad: bool = False, check_batched_forward_grad: bool = False,
              check_forward_ad: bool = False, check_backward_ad: bool = True,
              fast_mode: bool = False, masked=None) -> bool:
    """True when ``func``'s gradients at ``inputs`` match central finite differences within
    ``atol + rtol * |numerical|``; otherwise ``GradcheckError`` with both Jacobians (or
    False with ``raise_exception=False``).

    >>> x = tensorviz.tensor([0.5, 1.5], dtype=tensorviz.float64, requires_grad=True)
    >>> tensorviz.autograd.gradcheck(tensorviz.exp, (x,))
    True
    """
    inputs = _as_tuple(inputs)
    diff = _diff_inputs(inputs)
    if not diff:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but "
                         "none of them have requires_grad=True.")
    for j in diff:
        x = inputs[j]
        if x.dtype not in (_dtypes.float64, _dtypes.complex128):
            warnings.warn(f"Input #{j} requires gradient and is not a double precision floating "
                          "point or complex. This check will likely fail if all the inputs are "
                          "not of double precision floating point or complex. ", UserWarning,
                          stacklevel=2)
    numerical = get_numerical_jacobian(func, inputs, eps)
    analytical = get_analytical_jacobian(func, inputs)
    for col, j in enumerate(diff):
        for k, (n, a) in enumerate(zip(numerical[col], analytical[col])):
            if not bool(((a - n).abs() <= atol + rtol * n.abs()).all()):
                if not raise_exception:
                    return False
                raise GradcheckError(f"Jacobian mismatch for output {k} with respect to input "
                                     f"{j},\nnumerical:{n}\nanalytical:{a}\n")
    return True


def gradgradcheck(func: Callable, inputs, grad_outputs=None, *, eps: float = 1e-6,
                  atol: float = 1e-5, rtol: float = 1e-3, gen_non_contig_grad_outputs=False,
                  raise_exception: bool = True, **kwargs) -> bool:
    """``gradcheck`` of the gradient itself: checks second derivatives (the backward
    formulas recorded under ``create_graph=True``)."""
    from ._torch import T
    randn = T.randn
    from ._backward import grad as _grad
    inputs = _as_tuple(inputs)
    outs = _outputs(func, inputs)
    if grad_outputs is None:
        grad_outputs = tuple(randn(o.shape, dtype=o.dtype, device=o.device,
                                   requires_grad=True) for o in outs)
    grad_outputs = _as_tuple(grad_outputs)
    diff = _diff_inputs(inputs)
    n_in = len(inputs)

    def first_grads(*args):
        ins, gos = args[:n_in], args[n_in:]
        # the numerical pass runs with grad mode off; the first derivative needs it on
        prev = _STATE.grad
        _STATE.grad = True
        try:
            o = _outputs(func, ins)
            gs = _grad(o, [ins[j] for j in diff], gos, create_graph=True, allow_unused=True)
        finally:
            _STATE.grad = prev
        return tuple(g for g in gs if g is not None)
    return gradcheck(first_grads, inputs + tuple(grad_outputs), eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
