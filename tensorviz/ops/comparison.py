"""Comparison and sorting: equal, isclose/allclose, elementwise maximum/minimum, sort, argsort,
topk, kthvalue, searchsorted, isin, clamp_min/clamp_max.

(``eq``/``ne``/``lt``/... and ``clamp`` live with the operators in ``_elementwise``.)

Sorting is stable on the backend's strided array view; descending order keeps equal elements
in their original order and puts NaN first, as PyTorch does::

    values[..., j] = x[..., indices[..., j]]      with values ordered along ``dim``
"""
from __future__ import annotations

import builtins

import numpy as np

from .. import _dtypes, _layout
from .._dispatch import check_partial_overlap, inplace_of, op, store_inplace
from .._dtypes import _COMPLEX, _FLOAT, result_type
from .._indexing import check_writable
from .._tensor import Tensor, wrap_array, tensor_device
from ..backends import backend_for
from ..backends._numpy import call_quiet
from .. import return_types
from ._elementwise import clamp, device_of, finish, operand, promote, result_strides
from .pointwise import _check_tensor, _not_implemented, _xp
from ._args import bool_arg, int_arg, type_name
from .reductions import _keepdim, _out2, stable_argsort


# ---------------------------------------------------------------- equality and closeness
@op()
def equal(input: Tensor, other: Tensor) -> bool:
    """True when both tensors have the same shape and equal elements (NaN never equals)."""
    _check_tensor("equal", input)
    _check_tensor("equal", other, "other", 2)
    dev = device_of(input, other)
    if dev.type == "meta":
        from ..backends._meta import no_kernel
        raise no_kernel("equal")
    if input._shape != other._shape:
        return False
    rdt = promote(input, other)
    xp = backend_for(dev).xp
    a, b = operand(input, rdt, dev), operand(other, rdt, dev)
    return builtins.bool(xp.all(a == b))


@op()
def isclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """``|input - other| <= atol + rtol * |other|`` elementwise (equal infinities are close)."""
    _check_tensor("isclose", input)
    _check_tensor("isclose", other, "other", 2)
    if input._dtype is not other._dtype:
        raise RuntimeError(f"{input._dtype.cname} did not match {other._dtype.cname}")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol}")
    dev = device_of(input, other)
    xp = backend_for(dev).xp
    dt = input._dtype
    a, b = operand(input, dt, dev), operand(other, dt, dev)

    def f():
        close = a == b
        if dt.category >= _FLOAT:
            if equal_nan:
                close = close | (xp.isnan(a) & xp.isnan(b))
            if dt is _dtypes.bfloat16 or dt is _dtypes.float16:
                # (PyTorch's 16-bit ops: each computed in float32 from the tolerances as
                # float32, rounded to the dtype: atol=10**30 is bfloat16's 1e30 there, and
                # float16's |-3 - 65504| is 65504)
                f32, bf = np.float32, dt._np
                ca, cb = a.astype(f32), b.astype(f32)
                scaled = xp.abs((f32(rtol) * cb).astype(bf).astype(f32))
                allowed = (f32(atol) + scaled).astype(bf).astype(f32)
                actual = xp.abs((ca - cb).astype(bf).astype(f32))
                return close | ((actual <= allowed) & xp.isfinite(actual))
            ca, cb = (a, b) if dt is not _dtypes.float16 else (a.astype(np.float32),
                                                                b.astype(np.float32))
            allowed = atol + xp.abs(rtol * cb)
        else:
            # (as PyTorch: integers are compared in the default float dtype, so the
            # difference of int64 extremes cannot wrap: |2**63-1 - (-1)| is 9.2e18, not -2**63)
            fdt = _dtypes._default_dtype._np
            ca, cb = a.astype(fdt), b.astype(fdt)
            allowed = atol + xp.abs(rtol * cb)
        actual = xp.abs(ca - cb)
        ok = actual <= allowed
        if dt.category >= _FLOAT:
            ok = ok & xp.isfinite(actual)
        return close | ok
    res = call_quiet(f)
    return wrap_array(res, _dtypes.bool, dev, result_strides(res.shape, input, other))


@op()
def allclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """Whether every element pair is ``isclose``."""
    return builtins.bool(isclose(input, other, rtol, atol, equal_nan)._arr.all())


# ---------------------------------------------------------------- elementwise extremes
def _extreme(name: str, fn: str):
    def body(input, other, *, out=None) -> Tensor:
        _check_tensor(name, input)
        _check_tensor(name, other, "other", 2)
        rdt = promote(input, other)
        if rdt.category == _COMPLEX:
            raise RuntimeError(f"{name} not implemented for complex tensors.")
        dev = device_of(input, other)
        xp = backend_for(dev).xp
        a, b = operand(input, rdt, dev), operand(other, rdt, dev)
        res = call_quiet(getattr(xp, fn), a, b)
        return finish(res, rdt, dev, out,
                      result_strides(res.shape, input, other),
                      (input, other))
    body.__name__ = body.__qualname__ = name
    body.__doc__ = f"Elementwise ``{name}`` with broadcasting and promotion."
    return body


maximum = op()(_extreme("maximum", "maximum"))
minimum = op()(_extreme("minimum", "minimum"))
fmax = op()(_extreme("fmax", "fmax"))
fmin = op()(_extreme("fmin", "fmin"))
maximum.__doc__ = "Elementwise maximum; NaN propagates."
minimum.__doc__ = "Elementwise minimum; NaN propagates."
fmax.__doc__ = "Elementwise maximum ignoring NaN (NaN only where both are NaN)."
fmin.__doc__ = "Elementwise minimum ignoring NaN (NaN only where both are NaN)."


def _check_clamp(input: Tensor, bound, maxi: bool) -> None:
    _check_tensor("clamp_min" if maxi else "clamp_max", input)
    if isinstance(bound, Tensor):
        rdt = promote(input, bound)
        if rdt.category == _COMPLEX:
            raise _not_implemented("maximum_cpu" if maxi else "minimum_cpu", rdt)
    elif input._dtype.category == _COMPLEX or isinstance(bound, complex):
        raise NotImplementedError("clamp is not supported for complex types")


@op(inplace_function=True)
def clamp_min(input: Tensor, min) -> Tensor:
    """``max(input, min)`` elementwise (``clamp(input, min=min)``)."""
    _check_clamp(input, min, True)
    return clamp(input, min=min)


@op(inplace_function=True)
def clamp_max(input: Tensor, max) -> Tensor:
    """``min(input, max)`` elementwise (``clamp(input, max=max)``)."""
    _check_clamp(input, max, False)
    return clamp(input, max=max)


@inplace_of(clamp_min)
def clamp_min_(self: Tensor, min) -> Tensor:
    """In-place ``clamp_min``."""
    _check_tensor("clamp_min_", self)
    if not isinstance(min, Tensor):  # (PyTorch's scalar overload checks the dtype first)
        _check_clamp(self, min, True)
    check_writable(self)
    _check_clamp(self, min, True)
    return store_inplace(self, clamp(self, min=min))


@inplace_of(clamp_max)
def clamp_max_(self: Tensor, max) -> Tensor:
    """In-place ``clamp_max``."""
    _check_tensor("clamp_max_", self)
    if not isinstance(max, Tensor):  # (PyTorch's scalar overload checks the dtype first)
        _check_clamp(self, max, False)
    check_writable(self)
    _check_clamp(self, max, False)
    return store_inplace(self, clamp(self, max=max))


# ---------------------------------------------------------------- sorting
def _sort_check(input: Tensor, what: str = "Sort") -> None:
    if input._dtype.category == _COMPLEX:
        raise RuntimeError(f"{what} does not support complex dtypes on CPU")


def _argsort(xp, a, axis: int, descending: bool):
    """Stable argsort along ``axis``; descending keeps ties in order and puts NaN first."""
    if not descending:
        return stable_argsort(xp, a, axis)
    n = a.shape[axis]
    flip = [slice(None)] * a.ndim
    flip[axis] = slice(None, None, -1)
    flip = tuple(flip)
    order = stable_argsort(xp, a[flip], axis)[flip]
    return (n - 1) - order


def _like(input: Tensor) -> tuple:
    """The strides of sort's results: PyTorch allocates them like ``input`` (``empty_like``,
    so a transposed input gives transposed results)."""
    return _layout.preserve_strides(input._shape, input._stride)


def _resize_like(out, input: Tensor) -> None:
    """A sort ``out=`` tensor of another shape than ``input`` is resized to it laid out like
    ``input`` (PyTorch's sort restrides it as ``empty_like(input)``; one of the right shape
    keeps its strides): ``msort(t.t(), out=o)`` has ``t.t()``'s strides."""
    outs = out if isinstance(out, (tuple, list)) else (out,)
    for o in outs:
        if isinstance(o, Tensor) and o._shape != input._shape:
            from .._dispatch import resize_out
            resize_out(o, input._shape)
            o._set_layout(o._storage, o._offset, input._shape, _like(input))


def _sorted(input: Tensor, dim, descending: bool):
    d = _layout.normalize_dim(dim, len(input._shape))
    xp = _xp(input)
    arr = input._arr
    if not input._shape:
        return d, arr.copy(), xp.zeros((), dtype=np.int64)
    order = _argsort(xp, arr, d, descending)
    return d, xp.take_along_axis(arr, order, axis=d), order


def _sort_args(name: str, args, dim, descending, stable):
    """PyTorch's two overloads: ``(input, dim=-1, descending=False)`` and
    ``(input, *, stable, dim=-1, descending=False)``: with ``stable`` the rest is keyword-only."""
    if len(args) > 2:
        raise TypeError(f"{name}() takes at most 3 positional arguments ({len(args) + 1} given)")
    if args and stable is not None:
        raise TypeError(f"{name}() received an invalid combination of arguments: with "
                        "`stable`, dim and descending must be given by keyword")
    if len(args) >= 1:
        if dim is not None:
            raise TypeError(f"{name}() got multiple values for argument 'dim'")
        dim = args[0]
        if dim is None:  # (an explicit None is no int: PyTorch's parser refuses it)
            raise TypeError(f"{name}() received an invalid combination of arguments - got "
                            "(NoneType), but expected one of: (Tensor input, int dim = -1, "
                            "bool descending = False)")
    if len(args) == 2:
        if descending is not None:
            raise TypeError(f"{name}() got multiple values for argument 'descending'")
        descending = args[1]
    for arg, v in (("descending", descending), ("stable", stable)):
        if v is not None and v is not True and v is not False:  # (PyTorch's parser)
            raise TypeError(f"{name}() received an invalid combination of arguments - got "
                            f"({arg}={type_name(v)}, ), but expected one of: (Tensor input, "
                            "int dim = -1, bool descending = False), (Tensor input, *, bool "
                            "stable, int dim = -1, bool descending = False)")
    if dim is not None and (dim is True or dim is False):
        raise TypeError(f"{name}() received an invalid combination of arguments - got "
                        "(dim=bool, ), but expected one of: (Tensor input, int dim = -1, bool "
                        "descending = False)")
    return (-1 if dim is None else dim), builtins.bool(descending)


@op()
def sort(input: Tensor, *args, dim=None, descending=None, stable=None, out=None):
    """``sort(input, dim=-1, descending=False)`` or ``sort(input, *, stable, dim, descending)``:
    ``(values, indices)`` along ``dim`` (always stable here; NaN sorts as largest)."""
    _check_tensor("sort", input)
    dim, descending = _sort_args("sort", args, dim, descending, stable)
    _layout.normalize_dim(dim, len(input._shape))
    _sort_check(input)
    _, vals, order = _sorted(input, dim, descending)
    dev = tensor_device(input)
    st = _like(input)
    if out is not None:
        _resize_like(out, input)
        if isinstance(out, (tuple, list)) and out and isinstance(out[0], Tensor):
            check_partial_overlap(out[0], input)  # (PyTorch copies input into the values)
    return _out2(return_types.sort(wrap_array(vals, input._dtype, dev, st),
                                   wrap_array(order.astype(np.int64), _dtypes.int64, dev, st)),
                 out)


@op()
def argsort(input: Tensor, *args, dim=None, descending=None, stable=None) -> Tensor:
    """The indices that sort ``input`` along ``dim`` (same overloads as ``sort``)."""
    _check_tensor("argsort", input)
    dim, descending = _sort_args("argsort", args, dim, descending, stable)
    _layout.normalize_dim(dim, len(input._shape))
    _sort_check(input)
    _, _, order = _sorted(input, dim, descending)
    return wrap_array(order.astype(np.int64), _dtypes.int64, tensor_device(input),
                      _like(input))


@op()
def msort(input: Tensor, *, out=None) -> Tensor:
    """``sort(input, dim=0).values``."""
    _check_tensor("msort", input)
    _sort_check(input)
    _, vals, _ = _sorted(input, 0, False)
    if isinstance(out, Tensor):  # (its dtype exactly, then resized like input)
        if out._dtype is not input._dtype:
            raise RuntimeError(f"Expected out tensor to have dtype {input._dtype.cxx_name}, "
                               f"but got {out._dtype.cxx_name} instead")
        _resize_like(out, input)
        check_partial_overlap(out, input)  # (after the resize: PyTorch's copy_ into it)
    return finish(vals, input._dtype, tensor_device(input), out,
                  None if out is not None else _like(input))


@op()
def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True, *,
         out=None):
    """The ``k`` largest (or smallest) elements along ``dim`` and their indices."""
    _check_tensor("topk", input)
    k = int_arg(k, "topk", "k")
    bool_arg(largest, "topk", "largest")
    bool_arg(sorted, "topk", "sorted")
    dt = input._dtype
    d = _layout.normalize_dim(dim, len(input._shape))
    size = input._shape[d] if input._shape else 1
    if k < 0 or k > size:
        raise RuntimeError("selected index k out of range")
    if dt is _dtypes.bool:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    if dt.category == _COMPLEX:
        raise RuntimeError("topk does not support complex dtypes on CPU")
    _, vals, order = _sorted(input, d, largest)
    if input._shape:  # (a 0-dim input gives 0-dim results, for k 0 or 1 alike)
        sl = [slice(None)] * vals.ndim
        sl[d] = slice(0, k)
        vals, order = vals[tuple(sl)], order[tuple(sl)]
    dev = tensor_device(input)
    return _out2(return_types.topk(wrap_array(vals, dt, dev),
                                   wrap_array(order.astype(np.int64), _dtypes.int64, dev)), out)


@op()
def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False, *, out=None):
    """The k-th smallest element (1-based) along ``dim`` and its index."""
    _check_tensor("kthvalue", input)
    k = int_arg(k, "kthvalue", "k")
    keepdim = _keepdim("kthvalue", keepdim)
    dt = input._dtype
    d = _layout.normalize_dim(dim, len(input._shape))
    size = input._shape[d] if input._shape else 1
    if size == 0:
        raise IndexError(f"kthvalue(): Expected reduction dim {d} to have non-zero size.")
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    if (dt is _dtypes.bool or dt.category == _COMPLEX) and input._shape:
        raise _not_implemented("kthvalue_cpu", dt)
    _, vals, order = _sorted(input, d, False)
    xp = _xp(input)
    dev = tensor_device(input)
    if input._shape:
        sl = [slice(None)] * vals.ndim
        sl[d] = slice(k - 1, k)
        vals, order = vals[tuple(sl)], order[tuple(sl)]
        if not keepdim:
            vals, order = xp.squeeze(vals, d), xp.squeeze(order, d)
    return _out2(return_types.kthvalue(wrap_array(vals, dt, dev),
                                       wrap_array(order.astype(np.int64), _dtypes.int64, dev)),
                 out)


# ---------------------------------------------------------------- searching
@op(method=False)
def searchsorted(sorted_sequence: Tensor, input, *, out_int32: bool = False,
                 right: bool = False, side: str | None = None, sorter: Tensor | None = None,
                 out=None) -> Tensor:
    """Indices where ``input`` would be inserted into the (innermost-dim) sorted sequence to keep
    it sorted; ``right``/``side='right'`` places after equal elements."""
    _check_tensor("searchsorted", sorted_sequence, "sorted_sequence")
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but "
                               f"got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, "
                               "got side of left while right was True")
        right = side == "right"
    idt = _dtypes.int32 if out_int32 else _dtypes.int64
    if isinstance(out, Tensor) and out._dtype is not idt:
        raise RuntimeError("torch.searchsorted(): output tensor's dtype is wrong, it can only be "
                           "Int(int32) or Long(int64) depending on whether out_int32 flag is "
                           f"True, but we got output tensor's dtype {out._dtype.cname} and "
                           f"out_int32 flag is {builtins.bool(out_int32)}")
    seq = sorted_sequence
    scalar = not isinstance(input, Tensor)
    rdt = result_type(seq, input)
    if not scalar and len(seq._shape) > 1 and seq._shape[:-1] != input._shape[:-1]:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the "
                           "first N-1 dimensions of boundaries tensor and input value tensor "
                           f"must match, but we got boundaries tensor {list(seq._shape)} and "
                           f"input value tensor {list(input._shape)}")
    if not seq._shape:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive "
                           "dimension, but got 0 dimension")
    if rdt is _dtypes.bool or rdt.category == _COMPLEX:
        raise _not_implemented("searchsorted_out_cpu", rdt)
    dev = device_of(seq, input)
    xp = backend_for(dev).xp
    s = operand(seq, rdt, dev)
    if sorter is not None:
        if sorter._shape != seq._shape:
            raise RuntimeError("torch.searchsorted(): boundary and sorter must have the same "
                               f"size, but got boundary tensor {list(seq._shape)}and got sorter "
                               f"tensor {list(sorter._shape)}")
        order = sorter._arr.astype(np.int64)
        n = seq._shape[-1] if seq._shape else 1
        if order.size and builtins.bool(((order < 0) | (order >= n)).any()):
            raise RuntimeError("torch.searchsorted(): sorter index out of range")
        s = xp.take_along_axis(s, order, axis=-1)
    v = operand(input, rdt, dev)
    if scalar:
        v = xp.asarray(v)
    res = _binary_search(xp, s, v, right)
    return finish(xp.asarray(res).astype(idt._np), idt, dev, out)


def _binary_search(xp, s, v, right: bool):
    """PyTorch's searchsorted, step for step: a lower (upper) bound binary search of each
    value in its row of boundaries, moving right while ``!(mid >= value)`` (``!(mid >
    value)``). On sorted rows that is NumPy's searchsorted; on unsorted ones and with NaNs
    it gives PyTorch's answers too (NaN boundaries count as smaller than everything)."""
    n = s.shape[-1]
    shape = v.shape
    nrows = 1 if s.ndim == 1 else int(np.prod(s.shape[:-1], dtype=np.int64))
    rows = s.reshape(nrows, n)
    vals = v.reshape(nrows, (v.size // nrows) if nrows else 0)
    lo = xp.zeros(vals.shape, dtype=np.int64)
    hi = xp.full(vals.shape, n, dtype=np.int64)
    if n:
        with np.errstate(invalid="ignore"):
            while True:
                active = lo < hi
                if not builtins.bool(active.any()):
                    break
                mid = lo + ((hi - lo) >> 1)
                midv = xp.take_along_axis(rows, xp.minimum(mid, n - 1), axis=1)
                go = ~(midv > vals) if right else ~(midv >= vals)
                lo = xp.where(active & go, mid + 1, lo)
                hi = xp.where(active & ~go, mid, hi)
    return lo.reshape(shape)


@op(method=False)
def isin(elements, test_elements, *, assume_unique: bool = False,
         invert: bool = False) -> Tensor:
    """Whether each of ``elements`` occurs in ``test_elements`` (either may be a scalar)."""
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise TypeError("isin() received an invalid combination of arguments - got "
                        f"({type(elements).__name__}, {type(test_elements).__name__})")
    rdt = result_type(elements, test_elements)
    for x in (elements, test_elements):
        dt = x._dtype if isinstance(x, Tensor) else rdt
        if dt is _dtypes.bool or dt.category == _COMPLEX:
            raise RuntimeError(f"Unsupported input type encountered for isin(): {dt}")
    dev = device_of(elements, test_elements)
    xp = backend_for(dev).xp
    e = xp.asarray(operand(elements, rdt, dev))
    t = xp.asarray(operand(test_elements, rdt, dev))
    if rdt is _dtypes.bfloat16:  # (NumPy's sort of bfloat16 with a NaN: see stable_argsort)
        e, t = e.astype(np.float32), t.astype(np.float32)
    if assume_unique and e.size and t.size >= builtins.int(10.0 * e.size ** 0.145):
        # PyTorch's sorting algorithm (its choice for many test elements), which trusts
        # assume_unique: equal neighbours after a stable sort of both sets, so repeated
        # values count as found (as PyTorch's; NumPy's differs there)
        both = xp.concatenate([e.reshape(-1), t.reshape(-1)])
        order = stable_argsort(xp, both, 0)
        srt = both[order]
        near = (srt[1:] != srt[:-1]) if invert else (srt[1:] == srt[:-1])
        mask = xp.empty(both.shape, dtype=bool)
        mask[order] = xp.concatenate([near, xp.asarray([invert])])
        return wrap_array(mask[:e.size].reshape(e.shape), _dtypes.bool, dev)
    res = xp.isin(e, t, invert=invert)
    return wrap_array(res, _dtypes.bool, dev)
