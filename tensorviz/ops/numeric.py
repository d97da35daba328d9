"""Numerical helpers PyTorch users reach for: quantiles, log-cumsum-exp, gcd/lcm, heaviside,
ldexp, nextafter, sinc, cov/corrcoef, histogram, bucketize, cumulative_trapezoid, vander,
cdist and narrow_copy.

Each computes on the backend's array module (NumPy or CuPy) with PyTorch's result dtypes,
argument checks and error types; none needs SciPy.
"""
from __future__ import annotations

import builtins
import math
import warnings

import numpy as np

from .. import _dtypes, _layout
from .._dispatch import cast_first, inplace_of, op, store_inplace, warn_resized, write_out
from .._dtypes import _COMPLEX, _FLOAT, _INT, result_type
from .._indexing import check_writable
from .._tensor import Tensor, contiguous_format
from ..backends import backend_for
from ..backends._numpy import call_quiet, quietly as _quietly
from ._elementwise import device_of, finish, operand, promote, result_strides
from .. import return_types
from .pointwise import _check_tensor, _compute2, _not_implemented, _opmath, _xp
from ._args import spacing_overload
from .reductions import _int_trapezoid_terms, chalf_rounded, chalf_samples, sample_spacing, \
    wrap_array


def _elementwise2(name: str, f, a: Tensor, b: Tensor, rdt, out, cdt=None,
                  stride=None) -> Tensor:
    dev = device_of(a, b)
    _layout.broadcast_shapes(a._shape, b._shape)  # (PyTorch's error before NumPy's)
    return _compute2(f, a, b, rdt if cdt is None else cdt, rdt, dev, out, stride=stride)


# ---------------------------------------------------------------- integer / float pointwise
def _gcd(xp, a, b):
    """PyTorch's gcd: Euclid on ``abs`` of each operand in the integer dtype, with C's
    remainder; it differs from NumPy's only where ``abs`` overflows (the dtype's minimum,
    whose gcd with 6 is -2 there)."""
    r = xp.gcd(a, b)
    if a.dtype.kind != "i":
        return r
    low = np.iinfo(a.dtype).min
    a, b = xp.broadcast_arrays(a, b)
    odd = (a == low) | (b == low)
    if not xp.any(odd):
        return r
    x, y = xp.abs(a[odd]), xp.abs(b[odd])  # (abs(min) is min, as in C++)
    while xp.any(x != 0):
        nz = x != 0
        c = x.copy()
        x = xp.where(nz, xp.fmod(y, xp.where(nz, x, 1)), 0).astype(c.dtype)
        y = xp.where(nz, c, y)
    r = xp.broadcast_to(r, odd.shape).copy()
    r[odd] = y
    return r


def _lcm(xp, a, b):
    """PyTorch's lcm: ``abs(a / gcd(a, b) * b)`` with C++'s integer promotion (int8 and int16
    compute in int32, so the product's abs is taken before it wraps into the dtype; int32
    and int64 wrap first), 0 when the gcd is 0."""
    g = _gcd(xp, a, b)
    wide = np.int32 if a.dtype.itemsize < 4 else a.dtype
    with np.errstate(all="ignore"):
        q = (a // xp.where(g == 0, 1, g)).astype(wide)  # (exact: g divides a)
        r = xp.abs(q * b.astype(wide))
        return xp.where(g == 0, 0, r).astype(a.dtype)


@op(inplace=True, inplace_function=True, inplace_check=cast_first)
def gcd(input, other, *, out=None) -> Tensor:
    """Greatest common divisor of integer tensors (non-negative; ``gcd(0, 0) = 0``)."""
    _check_tensor("gcd", input, "input", 1)
    _check_tensor("gcd", other, "other", 2)
    rdt = promote(input, other)
    if rdt.category != _INT:
        raise _not_implemented("gcd_cpu", rdt)
    return _elementwise2("gcd", _gcd, input, other, rdt, out)


@op(inplace=True, inplace_function=True, inplace_check=cast_first)
def lcm(input, other, *, out=None) -> Tensor:
    """Least common multiple of integer tensors (non-negative; 0 when either is 0)."""
    _check_tensor("lcm", input, "input", 1)
    _check_tensor("lcm", other, "other", 2)
    rdt = promote(input, other)
    if rdt.category != _INT:
        raise _not_implemented("lcm_cpu", rdt)

    return _elementwise2("lcm", _lcm, input, other, rdt, out)


def _heaviside_check(input, values) -> None:
    """heaviside's dtype checks: PyTorch makes them first, in-place form included."""
    _check_tensor("heaviside", input, "input", 1)
    _check_tensor("heaviside", values, "values", 2)
    if input._dtype.category == _COMPLEX or values._dtype.category == _COMPLEX:
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if input._dtype is not values._dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")


@op(inplace=True, inplace_check=_heaviside_check)
def heaviside(input, values, *, out=None) -> Tensor:
    """The step function: 0 below zero, 1 above, ``values`` at zero (NaN counts as below)."""
    _heaviside_check(input, values)
    rdt = input._dtype

    def f(xp, a, b):
        return xp.where(a == 0, b, (a > 0).astype(a.dtype))
    return _elementwise2("heaviside", f, input, values, rdt, out)


def _ldexp_dtype(input: Tensor, other: Tensor):
    rdt = promote(input, other)
    return rdt if rdt.category >= _FLOAT else _dtypes._default_dtype


def _ldexp_cast(self, other) -> None:
    """``ldexp_``'s own check (its message), before the generic in-place ones."""
    _check_tensor("ldexp_", other, "other", 2)
    if not _dtypes.can_cast(_ldexp_dtype(self, other), self._dtype):
        raise RuntimeError(f"ldexp can't be cast to the desired output type "
                           f"{self._dtype.cname}")


def _ldexp(xp, a, b):
    return a * (xp.exp2(b) if b.dtype.kind != "c" else xp.power(b.dtype.type(2), b))


@op(inplace=True, inplace_function=True, inplace_check=_ldexp_cast)
def ldexp(input, other, *, out=None) -> Tensor:
    """``input * 2 ** other`` in the promoted dtype (integers give the default float)."""
    _check_tensor("ldexp", input, "input", 1)
    _check_tensor("ldexp", other, "other", 2)
    od = other._dtype
    if od.category <= _INT and input._dtype.category == _FLOAT and (
            not isinstance(out, Tensor) or out._dtype is input._dtype):
        # PyTorch's own kernel for a float input and an integer exponent: C's ldexp in
        # float64, the exponent converted to a C int (wrapping), the result in input's dtype;
        # no dtype promotion, so no input is converted before the result is laid out
        _layout.broadcast_shapes(input._shape, other._shape)  # (before the dtype check)
        if od is _dtypes.bool:
            raise NotImplementedError('"ldexp_cpu_exp" not implemented for \'Bool\'')
        rdt = input._dtype

        def exact(xp, a, b):
            return xp.ldexp(a, b.astype(xp.int64).astype(xp.int32))
        dev = device_of(input, other)
        xp = backend_for(dev).xp
        res = call_quiet(exact, xp, operand(input, _dtypes.float64, dev), operand(other, od, dev))
        # (computed into empty_like(input), which keeps its layout unless resized: then with
        # PyTorch's warning when input has elements)
        stride = None if out is not None else _layout.preserve_strides(
            input._shape, input._stride) if res.shape == input._shape else result_strides(
            res.shape, input, other)
        if out is None and res.shape != input._shape and _layout.numel(input._shape):
            warn_resized(input._shape, res.shape, 2)
        return finish(xp.asarray(res), rdt, dev, out, stride, (input, other))
    rdt = _ldexp_dtype(input, other)
    # PyTorch computes input * pow(2., other) (for a float64, half or complex input the 2 is
    # a 0-dim tensor of input's dtype): the result is laid out from input and the power (each
    # input of another dtype converted first), pow(2., other) row-major, the tensor power
    # from other
    pdt = od if od.category >= _FLOAT else _dtypes._default_dtype
    if input._dtype.category <= _INT or input._dtype is _dtypes.float32:
        p_stride = _layout.contiguous_strides(other._shape)
    else:
        from .._creation import zeros
        pdt = promote(zeros((), dtype=input._dtype), other)
        p_stride = result_strides(other._shape, 2.0, other, common=pdt)
    shape = _layout.broadcast_shapes(input._shape, other._shape)
    stride = _layout.elementwise_strides(shape, [
        (x_shape, _layout.cast_strides(x_shape, x_stride) if x_dt is not rdt else x_stride)
        for x_shape, x_stride, x_dt in ((input._shape, input._stride, input._dtype),
                                        (other._shape, p_stride, pdt))])
    if pdt is not rdt or rdt.category == _COMPLEX:
        # PyTorch computes input * pow(2., other): the power in its own dtype (other's, or
        # with a 0-dim other the promotion of input's and other's), by pow's own kernel
        # (complex: cpow, whose 2 ** 3 is 7.999999999999998)
        from ._elementwise import pow as _pow
        if input._dtype.category <= _INT or input._dtype is _dtypes.float32:
            p = _pow(2.0, other)
        else:
            from .._creation import full
            p = _pow(full((), 2, dtype=input._dtype, device=other.device), other)
        if rdt is _dtypes.complex32:  # (a float16 input, a complex 0-dim other: PyTorch's
            # complex32 mul, in complex64 rounded part by part)
            from ._elementwise import binary
            res = binary(np.multiply, input, p)
        else:
            res = _elementwise2("ldexp", lambda xp, a, b: a * b, input, p, rdt, None,
                                _opmath(rdt), stride)
    else:
        res = _elementwise2("ldexp", _ldexp, input, other, rdt, None, _opmath(rdt), stride)
    if out is None:
        return res
    # (PyTorch's out= is mul_out(out, input, pow(2, other)): out checked against input only)
    return finish(res._arr, rdt, res._storage._device, out, res._stride, (input,))


@inplace_of(ldexp)
def ldexp_(self, other) -> Tensor:
    """In place: ``self * 2 ** other`` written into ``self`` (returns ``self``).

    Note: as PyTorch's ``ldexp_`` (``self.mul_(pow(2, other))``: the power is a new tensor),
    an ``other`` sharing self's memory is read first, not refused as the in-place forms of
    the elementwise ops refuse it. Example: ``x = tensorviz.ones(2, 2); x.ldexp_(x.t())``.
    """
    _ldexp_cast(self, other)
    check_writable(self)
    shape = _layout.broadcast_shapes(self._shape, other._shape)
    if shape != self._shape:
        raise RuntimeError(f"output with shape {list(self._shape)} doesn't match the "
                           f"broadcast shape {list(shape)}")
    return store_inplace(self, ldexp(self, other))


@op(inplace=True, inplace_check=cast_first)
def nextafter(input, other, *, out=None) -> Tensor:
    """The next representable float after ``input`` towards ``other``."""
    _check_tensor("nextafter", input, "input", 1)
    _check_tensor("nextafter", other, "other", 2)
    rdt = promote(input, other)
    if rdt.category != _FLOAT:
        raise _not_implemented("nextafter_cpu", rdt)
    return _elementwise2("nextafter", lambda xp, a, b: xp.nextafter(a, b), input, other, rdt,
                         out)


@op(inplace=True, inplace_function=True, also=("special.sinc",))
def sinc(input, *, out=None) -> Tensor:
    """The normalized sinc ``sin(pi x) / (pi x)`` (1 at 0); integers give the default float."""
    _check_tensor("sinc", input)
    rdt = input._dtype if input._dtype.category >= _FLOAT else _dtypes._default_dtype
    cdt = _opmath(rdt)
    xp = _xp(input)
    x = operand(input, cdt, input._storage._device)

    def f():
        px = x * cdt._np.type(math.pi)
        safe = xp.where(x == 0, cdt._np.type(1), px)
        return xp.where(x == 0, cdt._np.type(1), xp.sin(safe) / safe)
    res = call_quiet(f)
    return finish(res, rdt, input._storage._device, out,
                  result_strides(res.shape, input, common=rdt), (input,))


# ---------------------------------------------------------------- scans and statistics
@op()
def logcumsumexp(input, dim, *, out=None) -> Tensor:
    """``log(cumsum(exp(input)))`` along ``dim``, computed stably."""
    _check_tensor("logcumsumexp", input)
    dt = input._dtype
    if isinstance(out, Tensor) and out._dtype is not dt:
        raise RuntimeError(f"expected scalar_type {dt.cname} but found {out._dtype.cname}")
    if dt.category < _FLOAT:
        raise _not_implemented("logcumsumexp_out_cpu", dt)
    d = _layout.normalize_dim(dim, builtins.max(len(input._shape), 1))
    cdt = _opmath(dt)
    xp = _xp(input)
    x = operand(input, cdt, input._storage._device)
    if x.ndim == 0:
        res = x.copy()
    elif x.shape[d] == 0:
        res = x.copy()
    elif dt.category == _COMPLEX:
        res = call_quiet(_complex_logcumsumexp, xp, x, d)
    elif input._storage._backend.ufunc_accumulate:
        res = call_quiet(xp.logaddexp.accumulate, x, axis=d)
    else:  # (a backend whose ufuncs lack accumulate: the same pairwise scan, stepwise)
        res = call_quiet(_real_logcumsumexp, xp, x, d)
    return finish(xp.asarray(res), dt, input._storage._device, out,
                  None if out is not None else _layout.contiguous_strides(x.shape))


def _real_logcumsumexp(xp, x, d: int):
    x = xp.moveaxis(x, d, 0)
    out = xp.empty_like(x)
    out[0] = x[0]
    for k in range(1, x.shape[0]):
        out[k] = xp.logaddexp(out[k - 1], x[k])
    return xp.moveaxis(out, 0, d)


def _complex_logcumsumexp(xp, x, d: int):
    """PyTorch's complex scan: ``acc = max + log1p(exp(min - max))`` pair by pair (ordered by
    real part, a tie taking the new element as the max), so the imaginary part accumulates
    without being wrapped into (-pi, pi].  The scan starts from ``-inf+0j``, which the first
    element is combined with too (``-inf+1j`` gives ``-inf+0j``, ``-0.0+1j`` gives ``1j``).
    One vectorised step per position along ``d``.

    >>> _complex_logcumsumexp(np, np.array([7.5j, 2j]), 0)[1].imag  # (2 + arg(1 + e^5.5j))
    1.6084...
    """
    x = xp.moveaxis(x, d, 0)
    out = xp.empty_like(x)
    acc = xp.full(x.shape[1:], complex(-np.inf, 0.0), dtype=x.dtype)
    nan_c = xp.asarray(complex(np.nan, np.nan), dtype=x.dtype)
    for k in range(x.shape[0]):
        y = x[k]
        swap = y.real >= acc.real
        mx = xp.where(swap, y, acc)
        mn = xp.where(swap, acc, y)
        general = xp.log1p(xp.exp(mn - mx)) + mx
        inf_same = ~xp.isfinite(mn.real) & (mn.real == mx.real)
        both_inf = xp.where(mn.real < 0, mn, xp.log(xp.exp(mn) + xp.exp(mx)))
        acc = xp.where(inf_same, both_inf, general)
        acc = xp.where(xp.isnan(mn) | xp.isnan(mx), nan_c, acc)
        out[k] = acc
    return xp.moveaxis(out, 0, d)


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


@_quietly
def _quantile(name: str, input, q, dim, keepdim, interpolation, out, ignore_nan) -> Tensor:
    _check_tensor(name, input)
    # Note: PyTorch's checks say "quantile()" for nanquantile too
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(f"quantile() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest, but got {interpolation}")
    dt = input._dtype
    if dt not in (_dtypes.float32, _dtypes.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if input.numel() == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    xp = _xp(input)
    dev = input._storage._device
    if isinstance(q, Tensor):
        if len(q._shape) > 1:
            raise RuntimeError("quantile() q must be a scalar or 1D tensor")
        if q._dtype is not dt:
            raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
        qa = operand(q, dt, dev)
        if q.numel() and builtins.bool(xp.any((qa < 0) | (qa > 1))):
            raise RuntimeError("quantile() q values must be in the range [0, 1]")
        q_shape = q._shape
        qa = qa.reshape(-1)
    else:
        if isinstance(q, builtins.bool):  # (PyTorch's parser reads a bool as a float here)
            q = builtins.float(q)
        if not isinstance(q, (builtins.int, builtins.float)) or isinstance(q, builtins.bool):
            raise TypeError(f"{name}() received an invalid combination of arguments - got "
                            f"(Tensor, {type(q).__name__}), but expected one of: (Tensor "
                            f"input, Tensor q, ...), (Tensor input, float q, ...)")
        if not 0 <= q <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q:g}")
        q_shape = ()
        qa = xp.asarray([q], dtype=dt._np)
    if isinstance(out, Tensor) and out._dtype is not dt:
        raise RuntimeError("quantile() out tensor must be same dtype as the input tensor")
    x = input._arr
    ndim = len(input._shape)
    if dim is None:
        sorted_ = xp.sort(x.reshape(-1))[None, :]  # (one row)
        out_shape = (1,) * ndim if keepdim else ()
    else:
        d = _layout.normalize_dim(dim, builtins.max(ndim, 1))
        xx = x.reshape(1) if ndim == 0 else x
        sorted_ = xp.sort(xp.moveaxis(xx, d, -1), axis=-1)
        kept = list(input._shape)
        if ndim:
            if keepdim:
                kept[d] = 1
            else:
                del kept[d]
        out_shape = tuple(kept)
        sorted_ = sorted_.reshape(-1, sorted_.shape[-1])
    n = sorted_.shape[-1]
    nan = xp.isnan(sorted_)
    if ignore_nan:
        count = (n - nan.sum(axis=-1, keepdims=True)).astype(dt._np)
        ranks = qa[None, :] * (count - 1)
        ranks = xp.where(ranks < 0, 0, ranks)
    else:
        ranks = qa[None, :] * dt._np.type(n - 1)
        ranks = xp.where(nan.any(axis=-1, keepdims=True), dt._np.type(n - 1), ranks)
    if interpolation == "lower":
        ranks = xp.floor(ranks)
    elif interpolation == "higher":
        ranks = xp.ceil(ranks)
    elif interpolation == "nearest":
        ranks = xp.round(ranks)
    below = ranks.astype(np.int64)
    vals = xp.take_along_axis(sorted_, below, axis=-1)
    if interpolation in ("linear", "midpoint"):
        w = xp.full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below
        above = xp.take_along_axis(sorted_, xp.ceil(ranks).astype(np.int64), axis=-1)
        diff = above - vals
        vals = call_quiet(lambda: xp.where(w < 0.5, vals + w * diff, above - diff * (1 - w)))
    # (rows, len(q)): PyTorch computes q's dim last and moves it to the front (a strided
    # result, q's dim fastest in memory)
    res = xp.ascontiguousarray(vals).reshape(out_shape + (vals.shape[-1],))
    if not q_shape:
        return finish(res.reshape(out_shape), dt, dev, out)
    if out is not None:
        return finish(xp.moveaxis(res, -1, 0), dt, dev, out)
    return wrap_array(res, dt, dev).movedim(-1, 0)


@op()
def quantile(input, q, dim=None, keepdim: bool = False, *, interpolation: str = "linear",
             out=None) -> Tensor:
    """The ``q``-th quantiles of ``input`` (flattened, or along ``dim``); NaN when a slice
    holds a NaN.  A 1-D ``q`` puts its dim first."""
    return _quantile("quantile", input, q, dim, keepdim, interpolation, out, False)


@op()
def nanquantile(input, q, dim=None, keepdim: bool = False, *, interpolation: str = "linear",
                out=None) -> Tensor:
    """``quantile`` ignoring NaNs (NaN only where a slice holds nothing else)."""
    return _quantile("nanquantile", input, q, dim, keepdim, interpolation, out, True)


_DOF_WARNING = ("cov(): degrees of freedom is <= 0. Correction should be strictly less than the "
                "number of observations.")


@op()
@_quietly
def cov(input, *, correction: int = 1, fweights=None, aweights=None) -> Tensor:
    """Covariance of the variables in ``input``'s rows (observations in its columns).

    Example: ``cov(tensor([[0., 2.], [1., 3.]]))`` is ``tensor([[2., 2.], [2., 2.]])``."""
    # Note: PyTorch's cov of one observation with one weights tensor (fweights or aweights
    # alone) overwrites its input with zeros; tensorviz never writes into its input.
    _check_tensor("cov", input)
    if len(input._shape) > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {len(input._shape)} dimensions")
    if input._dtype is _dtypes.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    xp = _xp(input)
    dev = input._storage._device
    rdt = input._dtype if input._dtype.category >= _FLOAT else _dtypes._default_dtype
    x = operand(input, rdt, dev)
    x = x.reshape(1, -1) if x.ndim < 2 else x
    n_obs = x.shape[1]
    w = None
    for name, wt in (("fweights", fweights), ("aweights", aweights)):
        if wt is None:
            continue
        _check_tensor("cov", wt, name, 0)
        if len(wt._shape) > 1:
            raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got "
                               f"{name} with {len(wt._shape)} dimensions")
        if wt.numel() != n_obs:
            raise RuntimeError(f"cov(): expected {name} to have the same numel as there are "
                               f"observations in the input but got {wt.numel()} != {n_obs}")
        if name == "fweights" and wt._dtype.category != _INT:
            raise RuntimeError("cov(): expected fweights to have integral dtype but got "
                               f"fweights with {wt._dtype.cname} dtype")
        if name == "aweights" and wt._dtype.category != _FLOAT:
            raise RuntimeError("cov(): expected aweights to have floating point dtype but got "
                               f"aweights with {wt._dtype.cname} dtype")
        arr = wt._arr.reshape(-1)
        if builtins.bool(xp.any(arr < 0)):
            raise RuntimeError(f"cov(): {name} cannot be negative")
        w = arr if w is None else w * arr
    if w is not None:
        wdt = result_type(*[t for t in (fweights, aweights) if t is not None])
        # (the input as the 2-D matrix PyTorch makes of it: a 0-dim input is dimensioned,
        # so a 0-dim float64 weight does not promote a bfloat16 input)
        rdt = result_type(input if input._shape else input.reshape(1),
                          *[t for t in (fweights, aweights) if t is not None])
        if rdt.category < _FLOAT:
            rdt = _dtypes._default_dtype
        x = operand(input, rdt, dev).reshape(x.shape)
        w = w.astype(wdt._np)

    # An integer input's (weighted) sum is an integer sum, wrapping as PyTorch's does
    # before its division (int64 extremes), with integer fweights too.
    int_sum = input._dtype.category < _FLOAT and aweights is None and n_obs
    # (integer weights sum to int64, as PyTorch's sum: a uint8 sum minus the correction is
    # negative, no degrees of freedom, not a wrapped huge count)
    w_total = None if w is None else (w.sum(dtype=np.int64) if w.dtype.kind in "iub"
                                      else w.sum())
    if w is not None and not builtins.bool(w_total != 0):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")

    def f():
        if int_sum:
            xi = input._arr.reshape(x.shape)
            if w is not None:  # (input * fweights in their promoted integer dtype, wrapping
                # as PyTorch's product does before its int64 sum: int32 -2**31 * 3 is -2**31)
                pdt = result_type(input, fweights)._np
                with np.errstate(over="ignore"):
                    xi = np.multiply(xi.astype(pdt), w.astype(pdt))
            tot = xi.astype(np.int64).sum(axis=1, keepdims=True)
            # (PyTorch's true_divide of two int64 tensors: each converted to the float
            # dtype, then divided in it)
            avg = tot.astype(x.dtype) / x.dtype.type(n_obs if w is None else w_total)
            return avg, (n_obs - correction if w is None else
                         (w_total if correction == 0 else w_total - correction))
        if w is None:
            avg = xp.mean(x, axis=1, keepdims=True) if n_obs else xp.full(
                (x.shape[0], 1), xp.nan, dtype=x.dtype)
            norm = n_obs - correction
        else:
            w_sum = w_total
            avg = (x * w).sum(axis=1, keepdims=True) / w_sum
            if correction == 0:
                norm = w_sum
            elif aweights is None:
                norm = w_sum - correction
            else:
                norm = w_sum - correction * (w * aweights._arr.reshape(-1)).sum() / w_sum
        return avg, norm
    avg, norm = call_quiet(f)
    if builtins.float(norm) <= 0:
        warnings.warn(_DOF_WARNING, UserWarning, stacklevel=2)
        norm = 0
    if n_obs == 1 and (w is None or w_total != 0):
        # (one observation is its own mean: a deviation of exactly 0, where x * w / w_sum
        # may round an ulp away from x; inf - inf is still NaN)
        xm = call_quiet(lambda: x - x)
    else:
        xm = call_quiet(lambda: x - avg.astype(x.dtype))  # (inf - inf: nan, quietly)
    xw = xm if w is None else call_quiet(lambda: xm * w.astype(x.dtype))
    # Note: the cross products are one BLAS matrix product, summed in OpenBLAS's order here
    # and MKL's in PyTorch: an entry that cancels (exactly 0 beside a 3.4e38 one) keeps a
    # different rounding error, within n * eps * sum_k |d_ik| |d_jk| of either.
    # (a complex product that is not finite is recomputed from the parts, as PyTorch's:
    # a variance past the range is inf+nanj there, where BLAS gives nan+nanj)
    from .linalg import _cprod
    # (no observation: PyTorch's product of the empty deviations is 0, then divided by the
    # degrees of freedom: 0 for correction=-2, NaN where there are none)
    c = call_quiet(lambda: (_cprod(xp, xp.matmul, xm, xw.conj().T) if n_obs else
                            xp.zeros((x.shape[0], x.shape[0]), dtype=x.dtype))
                   / x.dtype.type(norm))
    c = xp.asarray(c).astype(rdt._np)
    if c.shape == (1, 1):
        c = c.reshape(())
    return wrap_array(c if c.flags.c_contiguous else xp.ascontiguousarray(c), rdt, dev)


@op()
def corrcoef(input) -> Tensor:
    """Pearson correlation coefficients of the variables in ``input``'s rows."""
    _check_tensor("corrcoef", input)
    if len(input._shape) > 2:
        raise RuntimeError(f"corrcoef(): expected input to have two or fewer dimensions but "
                           f"got an input with {len(input._shape)} dimensions")
    c = cov(input)
    xp = _xp(c)
    a = c._arr

    def f():
        if a.ndim == 0:
            return a / a
        d = xp.diagonal(a)
        std = xp.sqrt(d.real if a.dtype.kind == "c" else d)
        r = a / std[:, None] / std[None, :]
        if a.dtype.kind == "c":  # (the parts clipped apart, as at::complex(real, imag):
            # 1j * a NaN imaginary part would make the real part NaN too)
            z = xp.empty(r.shape, dtype=r.dtype)
            z.real, z.imag = xp.clip(r.real, -1, 1), xp.clip(r.imag, -1, 1)
            return z
        return xp.clip(r, -1, 1)
    res = xp.asarray(call_quiet(f)).astype(c._dtype._np)
    return wrap_array(res, c._dtype, c._storage._device)


# ---------------------------------------------------------------- binning
@op()
def histogram(input, bins=100, *, range=None, weight=None, density: bool = False, out=None):
    """``(hist, bin_edges)``: counts (or weights, or a density) of ``input`` in ``bins`` equal
    bins over ``range`` (default: the input's min..max), or in the given edges."""
    _check_tensor("histogram", input)
    dt = input._dtype
    for o, what, tail in zip(out or (), ("hist", "bin_edges"), ("", " for dimension 0")):
        if isinstance(o, Tensor) and o._dtype is not dt:
            raise RuntimeError(f"torch.histogram: input tensor and {what} tensor should have the "
                               f"same dtype, but got input {dt.cxx_name} and {what} "
                               f"{o._dtype.cxx_name}{tail}")
    if dt.category != _FLOAT:
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{dt.cname}'")
    xp = _xp(input)
    dev = input._storage._device
    x = input._arr.reshape(-1)
    if isinstance(bins, Tensor):
        if len(bins._shape) != 1:
            raise RuntimeError(f"torch.histogramdd(): bins tensor should have one dimension, "
                               f"but got {len(bins._shape)} dimensions in the bins tensor for "
                               "dimension 0")
        if bins._dtype is not dt:
            raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have "
                               f"the same dtype, but got input {dt.cname.lower()} and "
                               f"bins {bins._dtype.cname.lower()}")
        edges = bins._arr.astype(dt._np)
        if edges.shape[0] < 1:
            raise RuntimeError("torch.histogramdd(): bins tensor should have at least 1 element, "
                               "but got 0 elements in the bins tensor for dimension 0")
    else:
        if isinstance(bins, builtins.bool) or not isinstance(bins, (builtins.int, np.integer)):
            raise TypeError(f"histogram(): argument 'bins' must be Tensor or int, not "
                            f"{type(bins).__name__}")
        if bins <= 0:
            raise RuntimeError("torch.histogramdd(): number of bins must be positive, but got "
                               f"{bins} for dimension 0")
        if range is not None:
            lo, hi = builtins.float(range[0]), builtins.float(range[1])
        elif x.size:
            if dt in _dtypes.HALVES:  # (PyTorch's range-finding kernel has no 16-bit floats)
                raise NotImplementedError(f"\"histogramdd\" not implemented for '{dt.cname}'")
            lo, hi = builtins.float(x.min()), builtins.float(x.max())
        else:  # (no values, no range: PyTorch's edges span [0, 1], as NumPy's)
            lo, hi = 0.0, 1.0
        if lo > hi:
            raise RuntimeError(f"torch.histogramdd(): for dimension 0, min should not exceed "
                               f"max, but got min {lo} max {hi}")
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise RuntimeError(f"torch.histogramdd(): dimension 0's range [{lo}, {hi}] is not "
                               "finite")
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        from .._creation import _spaced
        try:  # (PyTorch's linspace in the dtype: its edges, an end past the dtype its error)
            edges = xp.asarray(_spaced(lo, hi, builtins.int(bins) + 1, dt).astype(dt._np))
        except (MemoryError, ValueError):  # (more bins than memory holds: PyTorch's error)
            from ..backends._numpy import out_of_memory
            raise out_of_memory((builtins.int(bins) + 1) * dt.itemsize) from None
    nb = edges.shape[0] - 1
    linear = not isinstance(bins, Tensor)
    wts = None
    if weight is not None:
        _check_tensor("histogram", weight, "weight", 0)
        if weight._shape != input._shape:
            raise RuntimeError("torch.histogramdd(): if weight tensor is provided, it should "
                               "have the same shape as the input tensor excluding its innermost "
                               "dimension")
        if weight._dtype is not dt:
            raise RuntimeError("torch.histogramdd(): if weight tensor is provided it should "
                               "have the same dtype as the input tensor")
        wts = weight._arr.reshape(-1)

    def f():
        lo_e, hi_e = edges[0], edges[-1]
        inside = (x >= lo_e) & (x <= hi_e)
        idx = xp.searchsorted(edges, x, side="right") - 1
        if linear and nb > 0:
            idx = _linear_bins(xp, x, edges, idx)
        idx = xp.where(x == hi_e, nb - 1, idx)  # (the last bin holds its right edge)
        idx = idx[inside]
        if nb <= 0:
            return xp.zeros(0, dtype=dt._np)
        w = None if wts is None else wts[inside]
        hist = xp.bincount(idx, weights=w, minlength=nb)[:nb].astype(dt._np)
        if density:
            widths = xp.diff(edges)
            total = hist.sum()
            hist = hist / (total * widths)
        return hist.astype(dt._np)
    hist = call_quiet(f)
    h = wrap_array(hist, dt, dev)
    e = wrap_array(xp.array(edges, dtype=dt._np), dt, dev)
    if out is not None:
        write_out(out[0], h._arr, dt, dev)
        write_out(out[1], e._arr, dt, dev)
        return return_types.histogram_out(out[0], out[1])
    return return_types.histogram(h, e)


def _linear_bins(xp, x, edges, exact):
    """The bin of each ``x`` as PyTorch's kernel finds it among ``edges`` evenly spaced: the
    index ``(x - first) * bins / (last - first)`` in the dtype's arithmetic, then the last
    edge <= x among the three edges around it (``exact``: every edge searched).

    Note: where that index is not finite (``(x - first) * bins`` overflows the dtype: 3.4e38
    in float32), PyTorch's cast to int64 is undefined (it then searches memory before the
    edges); tensorviz gives the bin of the exact search there.
    """
    nb = edges.shape[0] - 1
    lo_e, hi_e = edges[0], edges[-1]
    with np.errstate(all="ignore"):
        f = (x - lo_e) * edges.dtype.type(nb) / (hi_e - lo_e)
        ok = xp.isfinite(f) & (f >= 0) & (f < 2.0 ** 62)
        pos = xp.where(ok, f, 0).astype(np.int64)
    lo_w = xp.maximum(pos - 1, 0)
    hi_w = xp.minimum(pos + 2, nb + 1)  # (edges[lo_w:hi_w] searched)
    found = lo_w - 1
    for k in range(3):
        j = lo_w + k
        found = xp.where((j < hi_w) & (edges[xp.minimum(j, nb)] <= x), j, found)
    return xp.where(ok, found, exact)


@op(method=False)
def bucketize(input, boundaries, *, out_int32: bool = False, right: bool = False,
              out=None) -> Tensor:
    """The index of the bucket of ``boundaries`` (1-D, sorted) each input value falls into."""
    _check_tensor("bucketize", boundaries, "boundaries", 2)
    if len(boundaries._shape) != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim("
                           f"{len(boundaries._shape)})")
    from .comparison import searchsorted
    if not isinstance(input, Tensor):
        if isinstance(input, (builtins.bool, builtins.int, builtins.float)):
            from .._creation import tensor
            input = tensor(input, device=boundaries.device)
        else:
            raise TypeError(f"bucketize() received an invalid combination of arguments - got "
                            f"({type(input).__name__}, Tensor), but expected one of: (Tensor "
                            "input, Tensor boundaries, ...), (Number self, Tensor boundaries, "
                            "...)")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right, out=out)


@op(method=False)
@_quietly
def cumulative_trapezoid(y, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """The running trapezoidal integral of ``y`` along ``dim`` (one element shorter)."""
    _check_tensor("cumulative_trapezoid", y)
    spacing_overload("cumulative_trapezoid", x, dx)
    if y._dtype is _dtypes.bool or (isinstance(x, Tensor) and x._dtype is _dtypes.bool):
        which = "`x` or `y`" if isinstance(x, Tensor) else "`y`"  # (PyTorch's two messages)
        raise RuntimeError(f"cumulative_trapezoid: received a bool input for {which}, but "
                           "bool is not supported")
    if not isinstance(x, Tensor) and isinstance(dx, (builtins.bool, builtins.complex, np.bool_)):
        raise RuntimeError("cumulative_trapezoid: Currently, we only support dx as a real "
                           "number.")
    if not y._shape:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    d = _layout.normalize_dim(dim, len(y._shape))
    rdt = y._dtype if y._dtype.category >= _FLOAT else _dtypes._default_dtype
    if isinstance(x, Tensor):
        if x._dtype is _dtypes.bool:
            raise RuntimeError("cumulative_trapezoid: received a bool input for `x`, but bool "
                               "is not supported")
        # (promoted as two dimensioned tensors: PyTorch views a 0-dim x with y's dims before
        # its diff, so a 0-dim float64 x makes a complex64 y's integral complex128)
        rdt = _dtypes.promote_types(y._dtype, x._dtype)
        rdt = rdt if rdt.category >= _FLOAT else _dtypes._default_dtype
    cdt = _opmath(rdt)
    half = _dtypes.complex32
    xp = _xp(y)
    a = operand(y, cdt, y._storage._device)
    if isinstance(x, Tensor) and len(x._shape) == 1 and x._shape[0] != a.shape[d]:
        raise RuntimeError("cumulative_trapezoid: There must be one `x` value for each sample "
                           "point")
    lo = [slice(None)] * a.ndim
    hi = [slice(None)] * a.ndim
    lo[d], hi[d] = slice(None, -1), slice(1, None)

    ya = chalf_samples(y)  # (PyTorch's composite: each step in its operands' own dtypes)

    def f():
        if isinstance(x, Tensor) and y._dtype.category < _FLOAT and x._dtype.category < _FLOAT:
            terms = _int_trapezoid_terms(xp, x, ya, y._dtype, a.shape, d, hi, lo)
            return xp.cumsum(terms, axis=d, dtype=np.int64).astype(cdt._np) / cdt._np.type(2)
        # PyTorch's composite, each step rounded to the result's dtype:
        # (dx * (y[:-1] + y[1:])).cumsum(dim) / 2 (the halving last: a float32 running sum
        # past its range is inf), or (dx / 2 * (y[:-1] + y[1:])).cumsum(dim), the running
        # sum in at::acc_type (float32 in double, half in float32)
        # (a complex32 y's pairs, and x's differences, are complex32's: each rounded, then
        # promoted: 65504 + 65504 is inf before a float32 dx multiplies it)
        def rnd(v):
            if rdt is half:
                return chalf_rounded(v)
            return v.astype(rdt._np).astype(cdt._np)
        acc = {_dtypes.float32: np.float64, _dtypes.complex64: np.complex128}.get(rdt, cdt._np)
        pair = ya[tuple(hi)] + ya[tuple(lo)]
        pair = rnd(chalf_rounded(pair) if y._dtype is half else pair)
        if isinstance(x, Tensor):
            dxs = rnd(sample_spacing(x, a.shape, d, cdt if rdt is half else rdt,
                                     "cumulative_trapezoid"))
            try:
                prod = rnd(dxs * pair)
            except ValueError:
                _layout.broadcast_shapes(pair.shape, dxs.shape)  # (PyTorch's message)
                raise
            if rdt is half:  # (its mul runs; its cumsum, and division, have no ComplexHalf
                # kernel: the cumsum of no element is made without one)
                raise NotImplementedError("\"cumsum_out_cpu\" not implemented for "
                                          "'ComplexHalf'" if prod.size else
                                          "\"div_cpu\" not implemented for 'ComplexHalf'")
            return rnd(rnd(xp.cumsum(prod.astype(acc), axis=d)) / cdt._np.type(2))
        step = 1 if dx is None else dx
        terms = rnd(cdt._np.type(step / 2.0) * pair)
        if rdt is half:
            if terms.size:
                raise NotImplementedError("\"cumsum_out_cpu\" not implemented for "
                                          "'ComplexHalf'")
            return terms
        return xp.cumsum(terms.astype(acc), axis=d)
    res = xp.asarray(call_quiet(f))
    stride = None
    if isinstance(x, Tensor):  # (PyTorch's cumsum(...) / 2.: laid out as an elementwise result)
        stride = _layout.elementwise_strides(res.shape, [
            (res.shape, _layout.contiguous_strides(res.shape)), ((), ())])
    if rdt is half:  # (no element: wrap_array makes the complex32 array)
        return wrap_array(res, rdt, y._storage._device, stride)
    return wrap_array(res.astype(rdt._np), rdt, y._storage._device, stride)


# ---------------------------------------------------------------- construction
@op(method=False)
def vander(x, N=None, increasing: bool = False) -> Tensor:
    """The Vandermonde matrix of 1-D ``x``: columns ``x ** (N-1) ... x ** 0`` (or increasing);
    integer and bool inputs give int64."""
    _check_tensor("vander", x)
    if len(x._shape) != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    if N is not None and (isinstance(N, (builtins.bool, builtins.float, builtins.complex)) or
                          not hasattr(N, "__index__")):
        raise TypeError(f"vander(): argument 'N' (position 2) must be int, not "
                        f"{type(N).__name__}")
    n = x._shape[0] if N is None else builtins.int(N)
    if not -(1 << 63) <= n < (1 << 63):
        raise ValueError("Overflow when unpacking long long")  # (PyTorch's parser's words)
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    rdt = x._dtype if x._dtype.category >= _FLOAT else _dtypes.int64
    xp = _xp(x)
    res = vander_columns(xp, operand(x, rdt, x._storage._device), n)
    if not increasing:
        res = res[:, ::-1]
    return wrap_array(xp.ascontiguousarray(res).astype(rdt._np), rdt, x._storage._device)


def vander_columns(xp, a, n: int):
    """``a**0, a**1, ..., a**(n-1)`` along a new last dim of the array ``a`` (any leading
    dims), as PyTorch builds ``torch.vander`` and ``torch.linalg.vander``: a column of ones
    followed by the running product of ``a``, so powers round as PyTorch's do.

    >>> vander_columns(np, np.array([2, 3]), 3)
    array([[1, 2, 4],
           [1, 3, 9]])
    """
    if n == 0:
        return xp.zeros(a.shape + (0,), dtype=a.dtype)
    try:
        cols = xp.concatenate([xp.ones(a.shape + (1,), dtype=a.dtype),
                               xp.broadcast_to(a[..., None], a.shape + (n - 1,))], axis=-1)
    except (MemoryError, ValueError):  # (more columns than memory holds: PyTorch's error)
        from ..backends._numpy import out_of_memory
        raise out_of_memory(a.size * n * a.dtype.itemsize) from None
    return call_quiet(xp.cumprod, cols, axis=-1)


@op(method=False)
def cdist(x1, x2, p: float = 2.0, compute_mode=None) -> Tensor:
    """The p-norm distances between each row of ``x1`` (``..., P, M``) and each row of ``x2``
    (``..., R, M``): a ``..., P, R`` tensor."""
    _check_tensor("cdist", x1, "x1", 1)
    _check_tensor("cdist", x2, "x2", 2)
    for t, name in ((x1, "X1"), (x2, "X2")):
        if t._dtype.category != _FLOAT:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: "
                               f"{t._dtype.cname}")
    for t, name in ((x1, "X1"), (x2, "X2")):
        if len(t._shape) < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: "
                               f"{len(t._shape)}D")
    if x1._shape[-1] != x2._shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                           f"{x1._shape[-1]} X2: {x2._shape[-1]}")
    if x1._dtype is not x2._dtype:
        raise RuntimeError(f"expected scalar type {x1._dtype.cname} but found "
                           f"{x2._dtype.cname}")
    if not p >= 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if x1._dtype in _dtypes.HALVES:
        raise NotImplementedError(f"\"cdist\" not implemented for '{x1._dtype.cname}'")
    if compute_mode not in (None, "use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                            "donot_use_mm_for_euclid_dist"):
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    batch = _layout.broadcast_shapes(x1._shape[:-2], x2._shape[:-2])
    dev = device_of(x1, x2)
    xp = _xp(x1)
    a = xp.broadcast_to(x1._arr, batch + x1._shape[-2:])
    b = xp.broadcast_to(x2._arr, batch + x2._shape[-2:])

    def f():
        diff = xp.abs(a[..., :, None, :] - b[..., None, :, :])
        if p == 0:
            return (diff != 0).sum(axis=-1).astype(a.dtype)
        if p == math.inf:
            return diff.max(axis=-1, initial=0)
        if p == 1:
            return diff.sum(axis=-1)
        if p == 2:
            return xp.sqrt((diff * diff).sum(axis=-1))
        return (diff ** p).sum(axis=-1) ** (1.0 / p)
    res = xp.asarray(call_quiet(f)).astype(x1._dtype._np)
    return wrap_array(xp.ascontiguousarray(res), x1._dtype, dev)


@op()
def narrow_copy(input, dim: int, start: int, length: int, *, out=None) -> Tensor:
    """``narrow(input, dim, start, length)`` as a new row-major tensor."""
    _check_tensor("narrow_copy", input)
    if isinstance(out, Tensor) and out._dtype is not input._dtype:
        raise RuntimeError("Expected self.dtype() == output.dtype() to be true, but got false.  "
                           "(Could this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    res = input.narrow(dim, start, length).clone(memory_format=contiguous_format)
    if out is None:
        return res
    return finish(res._arr, res._dtype, res._storage._device, out, None, (input,))
