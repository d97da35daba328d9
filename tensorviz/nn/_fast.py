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
from ..ops.pointwise import relu_values

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
    wt = weight._view((weight._shape[1], weight._shape[0]), (st[1], st[0]), weight._offset,
                      None, None if weight._cj else w.T)
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
    return relu_values(np, a)  # (the general path's kernel: -0.0 and NaN kept, as PyTorch)


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


# ---------------------------------------------------------------- convolution and pooling
# The kernels of ``_formulas`` (``_convolution``, ``_max_pool``) and their backward call these
# on the arrays for the common case: 2-D, batched, CPU float32/64, one group.  The window
# view is the same strided view the general path takes (``functional._windows``); the
# products are one matrix product over the whole batch instead of one per sample (the same
# sums, in BLAS's order), and the input gradient is scattered back window position by window
# position (each position is a strided slice of the padded input).
from numpy.lib.stride_tricks import as_strided as _as_strided  # noqa: E402


def conv_arrays(input, weight, bias):
    """``(x, w, b)`` arrays when the convolution can run on the arrays, else None."""
    if not isinstance(input, Tensor) or not isinstance(weight, Tensor):
        return None
    dt = input._dtype
    if dt not in _FAST or weight._dtype is not dt or len(input._shape) != 4 or \
            len(weight._shape) != 4:
        return None
    x, w = cpu(input), cpu(weight)
    if x is None or w is None:
        return None
    b = None
    if bias is not None:
        b = cpu(bias) if isinstance(bias, Tensor) else None
        if b is None or bias._dtype is not dt or b.shape != (w.shape[0],):
            return None
    return x, w, b


def _pad(x, padding, value):
    (pt, pb), (pl, pr) = padding
    if not (pt or pb or pl or pr):
        return np.ascontiguousarray(x)
    n, c, h, w = x.shape
    out = np.full((n, c, h + pt + pb, w + pl + pr), value, x.dtype)
    out[:, :, pt:pt + h, pl:pl + w] = x
    return out


def _cols(xp, kernel, stride, dilation):
    """(C*kh*kw, N*oh*ow) columns of the padded input ``xp`` (a copy of the window view)."""
    n, c, h, w = xp.shape
    kh, kw = kernel
    oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (w - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    sn, sc, sh, sw = xp.strides
    win = _as_strided(xp, (c, kh, kw, n, oh, ow),
                      (sc, sh * dilation[0], sw * dilation[1], sn, sh * stride[0],
                       sw * stride[1]), writeable=False)
    return win.reshape(c * kh * kw, n * oh * ow), oh, ow


def _conv_forward(x, w, b, stride, padding, dilation):
    n = x.shape[0]
    o = w.shape[0]
    cols, oh, ow = _cols(_pad(x, padding, 0), w.shape[2:], stride, dilation)
    prod = np.matmul(w.reshape(o, -1), cols).reshape(o, n, oh, ow).transpose(1, 0, 2, 3)
    if b is None:
        return np.ascontiguousarray(prod)
    out = np.empty((n, o, oh, ow), x.dtype)
    np.add(prod, b.reshape(1, o, 1, 1), out=out)
    return out


def conv_forward(input, weight, bias, stride, padding, dilation, groups):
    """The convolution kernel on the arrays (None: take the general path)."""
    if groups != 1 or len(stride) != 2:
        return None
    arrays = conv_arrays(input, weight, bias)
    if arrays is None or 0 in input._shape or 0 in weight._shape:
        return None
    x, w, b = arrays
    return fresh(quiet_run(_conv_forward, x, w, b, stride, padding, dilation), input._dtype)


def _conv_backward(g, x, w, stride, padding, dilation, need_x, need_w, need_b):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    oh, ow = g.shape[2:]
    g2 = g.transpose(1, 0, 2, 3).reshape(o, n * oh * ow)
    gw = gx = gb = None
    if need_w:
        cols, _, _ = _cols(_pad(x, padding, 0), (kh, kw), stride, dilation)
        gw = np.matmul(g2, cols.T).reshape(w.shape)
    if need_x:
        (pt, pb), (pl, pr) = padding
        gcols = np.matmul(w.reshape(o, -1).T, g2).reshape(c, kh, kw, n, oh, ow)
        gxp = np.zeros((n, c, h + pt + pb, wd + pl + pr), g.dtype)
        s0, s1 = stride
        d0, d1 = dilation
        for i in range(kh):
            for j in range(kw):
                gxp[:, :, i * d0:i * d0 + s0 * (oh - 1) + 1:s0,
                    j * d1:j * d1 + s1 * (ow - 1) + 1:s1] += gcols[:, i, j].transpose(1, 0, 2, 3)
        gx = np.ascontiguousarray(gxp[:, :, pt:pt + h, pl:pl + wd])
    if need_b:
        gb = np.add.reduce(g, axis=(0, 2, 3))
    return gx, gw, gb


def conv_backward(g, input, weight, stride, padding, dilation, groups, need_x, need_w,
                  need_b):
    """The convolution's gradients on the arrays (None: take the general path)."""
    if groups != 1 or len(stride) != 2 or g._dtype is not input._dtype:
        return None
    ga = cpu(g)
    arrays = conv_arrays(input, weight, None)
    if ga is None or arrays is None or 0 in g._shape or 0 in input._shape:
        return None
    x, w, _ = arrays
    dt = g._dtype
    gx, gw, gb = quiet_run(_conv_backward, ga, x, w, stride, padding, dilation, need_x, need_w,
                           need_b)
    return tuple(None if a is None else fresh(a, dt) for a in (gx, gw, gb))


def _max_pool_forward(x, kernel, stride, pads, dilation):
    """Running maximum over the kernel positions, each a strided slice of the padded input:
    what ``argmax`` over each window gives (the first maximum; the first NaN, if any)."""
    n, c, h, w = x.shape
    xp = _pad(x, pads, -np.inf)
    (kh, kw), (s0, s1), (d0, d1) = kernel, stride, dilation
    oh = (xp.shape[2] - d0 * (kh - 1) - 1) // s0 + 1
    ow = (xp.shape[3] - d1 * (kw - 1) - 1) // s1 + 1
    best = off = None
    for i in range(kh):
        for j in range(kw):
            v = xp[:, :, i * d0:i * d0 + s0 * (oh - 1) + 1:s0,
                   j * d1:j * d1 + s1 * (ow - 1) + 1:s1]
            o = i * d0 * w + j * d1  # (where this position lies from the window's corner)
            if best is None:
                best = v
                off = np.full(v.shape, o, np.int64)
                continue
            take = ~(v <= best)   # (greater, or NaN)
            take &= best == best  # (not once a NaN is held)
            best = np.where(take, v, best)
            off += take * (o - off)
    corner = ((np.arange(oh) * s0 - pads[0][0]) * w).reshape(oh, 1) + \
        (np.arange(ow) * s1 - pads[1][0])
    off += corner
    return (best.copy() if best.base is not None else best), off


def max_pool_forward(input, kernel, stride, pads, dilation):
    """``(values, indices)`` of 2-D max pooling on the arrays (None: the general path);
    ``pads`` are the (low, high) paddings with the ceil-mode extra already added."""
    if not isinstance(input, Tensor) or input._dtype not in _FAST or len(input._shape) != 4 \
            or len(kernel) != 2 or 0 in input._shape:
        return None
    x = cpu(input)
    if x is None:
        return None
    values, idx = quiet_run(_max_pool_forward, x, kernel, stride, pads, dilation)
    return fresh(values, input._dtype), fresh(idx, _dtypes.int64)


def max_pool_backward(g, idx, shape, kernel, stride, dilation):
    """The gradient of 2-D max pooling when no two windows overlap (each input position is
    picked at most once: the scatter-add is a scatter); None otherwise."""
    if len(kernel) != 2 or len(shape) != 4 or g._dtype not in _FAST or 0 in shape:
        return None
    for k, s, d in zip(kernel, stride, dilation):
        if s < d * (k - 1) + 1:
            return None
    ga, ia = cpu(g), cpu(idx)
    n, c, h, w = shape
    if ga is None or ia is None or ia.shape != ga.shape or \
            np.minimum.reduce(ia, axis=None) < 0 or np.maximum.reduce(ia, axis=None) >= h * w:
        return None  # (an index in the padding: the general path says what is wrong)
    return fresh(quiet_run(_scatter_planes, ga, ia, shape), g._dtype)


def _scatter_planes(g, idx, shape):
    n, c, h, w = shape
    z = np.zeros(n * c * h * w, g.dtype)
    at = idx.reshape(n * c, -1) + (np.arange(n * c) * (h * w)).reshape(-1, 1)
    # (+ 0.0: the general path adds into zeros, which makes a -0.0 gradient +0.0)
    z[at.reshape(-1)] = g.reshape(-1) + 0.0
    return z.reshape(shape)
