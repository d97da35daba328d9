"""Direct paths for the layers every small model runs on each step: ``linear``, ``relu``,
``log_softmax`` and the class-index ``nll_loss`` on CPU float32/float64 tensors.

Each computes with the same NumPy calls as the general path and records, when autograd
wants it, the very nodes the general path records (``TBackward0`` + ``AddmmBackward0``,
``ReluBackward0``, ``LogSoftmaxBackward0``, ``NllLossBackward0``: same formulas, same saved
tensors, same version checks), through ``autograd._record.record``; it only skips the op
layer's dispatch, keyword handling and result bookkeeping between them.  Anything outside
the common case returns None and the caller takes the general path (so every error message
is the general path's)::

    out = _fast.linear(x, w, b)
    if out is None:
        out = tensorviz.addmm(b, x, w.t())
"""
from __future__ import annotations

import numpy as np

from .. import _dtypes
from .._grad_mode import _STATE
from .._tensor import Tensor
from ..autograd import anomaly_mode as _anomaly
from ..autograd._raw import cpu, fresh, quiet_run
from ..autograd._record import record, requires_grad

__all__ = ["linear", "relu", "log_softmax", "nll_loss"]

_FAST = (_dtypes.float32, _dtypes.float64)
_NLL = "nn.functional._nll_loss"


def _mode(*tensors) -> bool | None:
    """None: not a case for the direct path (inference mode, anomaly detection); else
    whether the call is recorded (grad mode on and an input that requires grad)."""
    st = _STATE
    if st.inference or _anomaly._enabled:
        return None
    if not st.grad:
        return False
    for t in tensors:
        if t is not None and requires_grad(t):
            return True
    return False


def linear(input, weight, bias):
    """``F.linear`` of a 2-D input: ``addmm(bias, input, weight.t())`` (or ``mm``)."""
    if not isinstance(input, Tensor) or not isinstance(weight, Tensor):
        return None
    dt = input._dtype
    if dt not in _FAST or weight._dtype is not dt:
        return None
    x, w = cpu(input), cpu(weight)
    if x is None or w is None or x.ndim != 2 or w.ndim != 2 or x.shape[1] != w.shape[1]:
        return None
    if bias is not None:
        b = cpu(bias) if isinstance(bias, Tensor) else None
        if b is None or bias._dtype is not dt or b.shape != (w.shape[0],):
            return None
    rec = _mode(input, weight, bias)
    if rec is None:
        return None
    st = weight._stride
    wt = weight._view((weight._shape[1], weight._shape[0]), (st[1], st[0]), weight._offset)
    if bias is None:
        out = fresh(quiet_run(np.matmul, x, w.T), dt)
        if rec:
            if requires_grad(weight):
                record("t", (weight,), None, wt, view=True)
            record("mm", (input, wt), None, out)
        return out
    out = fresh(quiet_run(np.add, np.matmul(x, w.T), b), dt)
    if rec:
        if requires_grad(weight):
            record("t", (weight,), None, wt, view=True)
        record("addmm", (bias, input, wt), None, out)
    return out


def _relu(a):
    r = np.maximum(a, 0)  # (NaN kept, as the general path's isnan test keeps it)
    r += 0.0  # (-0.0 becomes +0.0, as max(x, 0) gives)
    return r


def relu(input):
    """``input.relu()`` (not in place)."""
    if not isinstance(input, Tensor) or input._dtype not in _FAST:
        return None
    a = cpu(input)
    if a is None:
        return None
    rec = _mode(input)
    if rec is None:
        return None
    out = fresh(quiet_run(_relu, a), input._dtype)
    if rec:
        record("relu", (input,), None, out)
    return out


def _log_softmax(a, axis):
    # (np.max / np.sum are these reductions behind a Python wrapper)
    z = a - np.maximum.reduce(a, axis=axis, keepdims=True)
    return z - np.log(np.add.reduce(np.exp(z), axis=axis, keepdims=True))


def log_softmax(input, dim: int):
    """``input.log_softmax(dim)`` of a tensor with at least one dim (no dtype=)."""
    if not isinstance(input, Tensor) or input._dtype not in _FAST or type(dim) is not int:
        return None
    a = cpu(input)
    if a is None or a.ndim == 0 or a.size == 0 or not -a.ndim <= dim < a.ndim:
        return None
    rec = _mode(input)
    if rec is None:
        return None
    r = quiet_run(_log_softmax, a, dim)
    if not r.flags.c_contiguous:
        r = np.ascontiguousarray(r)
    out = fresh(r, input._dtype)
    if rec:
        record("log_softmax", (input, dim), None, out)
    return out


_ARANGE: dict = {}


def rows(n: int):
    """``np.arange(n)`` (made once per n: batch sizes repeat)."""
    r = _ARANGE.get(n)
    if r is None:
        r = np.arange(n)
        if len(_ARANGE) < 64:
            _ARANGE[n] = r
    return r


def _nll(x, t, ignore_index, reduction):
    """The kernel's steps on the arrays (``_formulas._nll_loss``): None for a bad target."""
    n, c = x.shape
    if n and not 0 <= ignore_index < c and np.minimum.reduce(t) >= 0 and \
            np.maximum.reduce(t) < c:
        # (every target valid: the weights are all 1, their sum is n, exactly)
        loss = -x[rows(n), t]
        if reduction == "none":
            return loss
        total = np.add.reduce(loss)
        return np.asarray(total if reduction == "sum" else total / x.dtype.type(n))
    valid = t != ignore_index
    if t.size and (((t < 0) | (t >= c)) & valid).any():
        return None
    safe = np.where(valid, t, 0)
    picked = -x[np.arange(x.shape[0]), safe]
    wt = valid.astype(x.dtype)
    loss = picked * wt
    if reduction == "none":
        return loss
    if reduction == "sum":
        return np.asarray(np.add.reduce(loss))
    return np.asarray(np.divide(np.add.reduce(loss), np.add.reduce(wt)))


def nll_loss(input, target, reduction: str, ignore_index: int):
    """``nll_loss`` of (N, C) log-probabilities and (N,) int64 class indices, no weight;
    None outside that case (the general path also gives the errors)."""
    if not isinstance(input, Tensor) or not isinstance(target, Tensor) or \
            input._dtype not in _FAST \
            or target._dtype is not _dtypes.int64 or type(ignore_index) is not int:
        return None
    x, t = cpu(input), cpu(target)
    if x is None or t is None or x.ndim != 2 or t.shape != (x.shape[0],):
        return None
    rec = _mode(input, target)
    if rec is None:
        return None
    r = quiet_run(_nll, x, t, ignore_index, reduction)
    if r is None:
        return None
    out = fresh(r, input._dtype)
    if rec:
        record(_NLL, (input, target, None, reduction, ignore_index), None, out)
    return out
