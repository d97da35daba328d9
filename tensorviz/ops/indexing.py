"""Indexing ops: select, gather and scatter along a dim, masks, ``where`` and ``nonzero``.

Every op computes on the backend's strided array views (NumPy or CuPy) with whole-array
indexing; a scatter is one fancy-index assignment or one ``ufunc.at``::

    gather:   out[i][j][k] = input[i][index[i][j][k]][k]          (dim = 1)
    scatter:  self[i][index[i][j][k]][k] = src[i][j][k]

Out-of-place forms clone ``input`` and run the in-place form; the copy is row-major or keeps
``input``'s layout, op by op as PyTorch allocates it.
Indices are bounds-checked before the backend sees them (CuPy would wrap them silently).
"""
from __future__ import annotations

import builtins
import os
import warnings

import numpy as np

from .. import _dtypes, _layout
from .._dtypes import _FLOAT
from .._indexing import (INDEX_PUT_EXPANDED, MASKED_FILL_EXPANDED, _advanced_key, as_resized,
                         _check_index_put, check_writable, checked_scalar, read_apart)
from .._scalars import check_half
from .._tensor import Tensor, contiguous_format, wrap_array, tensor_xp
from .._tensor import host_array as _host_array
from ..backends import runs_numpy
from ..backends._numpy import call_quiet
from .._dispatch import op
from ._elementwise import (check_half, check_partial_overlap, device_of, finish, operand, promote,
                           operand_layout, run)

__all__ = ["index_select", "gather", "scatter", "scatter_add", "scatter_reduce", "index_add",
           "index_fill", "index_copy", "index_put", "index_reduce", "masked_fill",
           "masked_select", "masked_scatter", "take", "take_along_dim", "put", "where",
           "nonzero", "argwhere"]

_LONG = (_dtypes.int64,)
_INTS = (_dtypes.int32, _dtypes.int64)


# ---------------------------------------------------------------- shared helpers
def _xp(t: Tensor):
    return tensor_xp(t)


def _c(xp, arr):
    """``arr`` in C order (copied only when needed); unlike ``ascontiguousarray``, a 0-dim
    array stays 0-dim."""
    if arr.flags.c_contiguous:
        return arr
    if isinstance(arr, np.ndarray):  # (a copy: a meta placeholder answers with a placeholder)
        return arr.copy(order="C")
    return xp.ascontiguousarray(arr).reshape(arr.shape)


_WARNED: set = set()


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _user_stacklevel() -> int:
    """The ``stacklevel`` of the first frame outside the tensorviz package, counted from
    ``warn_once``'s caller: a warning is shown at the user's line whatever the path through
    the library (recorded or not)."""
    import sys
    level, frame = 2, sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    return level


def warn_once(message: str, stacklevel: int | None = 3) -> None:
    """A UserWarning given once per process, as PyTorch's ``TORCH_WARN_ONCE``
    (``stacklevel=None``: at the first line outside tensorviz)."""
    if message not in _WARNED:
        _WARNED.add(message)
        warnings.warn(message, UserWarning,
                      stacklevel=_user_stacklevel() if stacklevel is None else stacklevel)


def _tensor_arg(x, fn: str, name: str, pos: int) -> Tensor:
    """``x`` when it is a Tensor, else PyTorch's TypeError for the argument."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{fn}(): argument '{name}' (position {pos}) must be Tensor, not "
                        f"{type(x).__name__}")
    return x


def _same_device(fn: str, *tensors: Tensor) -> None:
    dev = tensors[0]._storage._device
    for t in tensors[1:]:
        if t._storage._device != dev:
            raise RuntimeError(f"Expected all tensors to be on the same device, but found at "
                               f"least two devices, {dev} and {t.device}! (when checking "
                               f"argument for {fn})")


def _index_array(index: Tensor, like: Tensor):
    """The index's array on ``like``'s device (index tensors must live there, as in PyTorch)."""
    if index._storage._device != like._storage._device:
        raise RuntimeError(f"Expected all tensors to be on the same device, but found at least "
                           f"two devices, {like.device} and {index.device}!")
    return index._arr


def _extent(arr, xp):
    """(min, max) of an integer array as Python ints (one device sync on GPU)."""
    if arr.size == 0:
        return 0, -1
    return builtins.int(arr.min()), builtins.int(arr.max())


def _first_bad(arr, size: int, allow_negative: bool):
    """The first out-of-range value of ``arr`` in row-major order, or None."""
    lo, hi = _extent(arr, None)
    low = -size if allow_negative else 0
    if lo >= low and hi < size:
        return None
    bad = (arr < low) | (arr >= size)
    flat = bad.reshape(-1)
    pos = builtins.int(flat.argmax())
    return builtins.int(arr.reshape(-1)[pos])


def _value_of(value, dt: "_dtypes.dtype", fn: str):
    """A fill value (number or 0-dim tensor) converted to ``dt`` with PyTorch's checks."""
    if isinstance(value, Tensor):
        if value._shape:
            raise RuntimeError(f"{fn} only supports a 0-dimensional value tensor, but got "
                               f"tensor with {len(value._shape)} dimension(s).")
        value = value.item()
    if dt is _dtypes.float16:  # (PyTorch's fill kernels check float16's range as well)
        check_half(value)
    return checked_scalar(value, dt)


def _as_1d(t: Tensor) -> Tensor:
    return t.reshape(1) if not t._shape else t


def _axis_key(ndim: int, dim: int, idx) -> tuple:
    """The key selecting ``idx`` along ``dim`` and everything along the other dims."""
    return (slice(None),) * dim + (idx,)


def _grid_key(xp, index_arr, dim: int) -> tuple:
    """The fancy-index key of a scatter: ``index`` along ``dim``, broadcast aranges elsewhere."""
    shape = index_arr.shape
    n = len(shape)
    key = []
    for d, size in enumerate(shape):
        if d == dim:
            key.append(index_arr)
        else:
            key.append(xp.arange(size).reshape(tuple(size if i == d else 1 for i in range(n))))
    return tuple(key)


def _ufunc_at(t: Tensor, name: str, target, key, vals) -> None:
    """``xp.<name>.at(target, key, vals)``: unbuffered in-place accumulation.

    CuPy's ``ufunc.at`` covers only the dtypes CUDA has atomics for; anything else goes
    through the host once (correct, slower).
    """
    xp = _xp(t)
    ufunc = getattr(xp, name)
    if runs_numpy(xp):
        call_quiet(ufunc.at, target, key, vals)
        return
    try:
        ufunc.at(target, key, vals)
        return
    except Exception:  # noqa: BLE001 - CuPy raises several types for unsupported dtypes
        pass
    be = t._storage._backend
    host = np.array(be.to_host(target))
    hkey = tuple(be.to_host(k) if hasattr(k, "dtype") else k for k in key) \
        if isinstance(key, tuple) else be.to_host(key)
    hvals = be.to_host(vals) if hasattr(vals, "dtype") else vals
    call_quiet(getattr(np, name).at, host, hkey, hvals)
    target[...] = be.from_host(host, t.device)


INDEX_FILL_EXPANDED = (
    "Use of index_fill_ on expanded tensors is deprecated. Please clone() the tensor before "
    "performing this operation. This also applies to advanced indexing e.g. tensor[mask] = "
    "scalar")


def _inplace_result(self: Tensor):
    check_writable(self)
    return self._arr


def _clone(t: Tensor) -> Tensor:
    """The copy behind an out-of-place form that PyTorch lays out like its input
    (``index_fill``, ``put``, ``index_put``)."""
    return t.clone()


def _clone_c(t: Tensor) -> Tensor:
    """The copy behind the out-of-place forms that PyTorch allocates row-major whatever the
    input's layout (``scatter*``, ``index_add/copy/reduce``, ``masked_fill/scatter``)."""
    return t.clone(memory_format=contiguous_format)




# ---------------------------------------------------------------- index_select / gather
@op(out_overlap="any-first", out="exact", out_message=lambda r, o: "index_select(): self and "
    "result must have the same scalar type")
def index_select(input, dim: int, index, *, out=None) -> Tensor:
    """Pick whole slices along ``dim``: ``out[..., i, ...] = input[..., index[i], ...]``."""
    input = _tensor_arg(input, "index_select", "input", 1)
    index = _tensor_arg(index, "index_select", "index", 3)
    if index._dtype not in _INTS:
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if len(index._shape) > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    d = _layout.normalize_dim(dim, len(input._shape))
    x = _as_1d(input)
    idx = _index_array(index, input).reshape(-1)
    if not input._shape and idx.size != 1:
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                           f"{idx.size} value(s)")
    size = x._shape[d]
    if size == 0 and idx.size:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    bad = _first_bad(idx, size, False)
    if bad is not None:
        if len(input._shape) >= 2 and (d == 1 or input.numel() == 0):  # (PyTorch's words)
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} "
                               f"axis_dim={size}")
        raise IndexError("index out of range in self")
    xp = _xp(input)
    res = xp.take(x._arr, idx, axis=d)
    if not input._shape:
        res = res.reshape(())
    return finish(res, input._dtype, input.device, out)


def _check_index_dtype(index: Tensor, fn: str) -> None:
    if index._dtype not in _INTS:
        raise RuntimeError(f"{fn}(): Expected dtype int32/int64 for index")


@op(out_overlap="any", out="exact")
def gather(input, dim: int, index, *, sparse_grad: bool = False, out=None) -> Tensor:
    """Values along ``dim`` picked by ``index``: ``out[i][j] = input[i][index[i][j]]`` (dim=1)."""
    input = _tensor_arg(input, "gather", "input", 1)
    index = _tensor_arg(index, "gather", "index", 3)
    _check_index_dtype(index, "gather")
    n = max(len(input._shape), 1)
    d = _layout.normalize_dim(dim, len(input._shape))
    if max(len(index._shape), 1) != n:
        raise RuntimeError("Index tensor must have the same number of dimensions as input "
                           "tensor")
    x = _as_1d(input)
    ishape = index._shape or (1,)
    for k in range(n if index.numel() else 0):
        if k != d and ishape[k] > x._shape[k]:
            raise RuntimeError(f"Size does not match at dimension {k} expected index "
                               f"{list(ishape)} to be no larger than self {list(x._shape)} "
                               f"apart from dimension {d}")
    idx = _index_array(index, input).reshape(ishape)
    bad = _first_bad(idx, x._shape[d], False)
    if bad is not None:
        raise RuntimeError(f"index {bad} is out of bounds for dimension {d} with size "
                           f"{x._shape[d]}")
    xp = _xp(input)
    src = x._arr[tuple(slice(None) if k == d else slice(0, ishape[k]) for k in range(n))]
    if idx.size == 0:
        res = xp.empty(ishape, dtype=src.dtype)
    else:
        res = xp.take_along_axis(src, idx, axis=d)
    res = _c(xp, res).reshape(index._shape)
    return finish(res, input._dtype, input.device, out)


@op(out_overlap="any", out="exact")
def take_along_dim(input, indices, dim=None, *, out=None) -> Tensor:
    """``gather`` after broadcasting ``input`` and ``indices`` over the other dims (NumPy's
    ``take_along_axis``); without ``dim``, both are flattened."""
    input = _tensor_arg(input, "take_along_dim", "input", 1)
    indices = _tensor_arg(indices, "take_along_dim", "indices", 2)
    if indices._dtype is not _dtypes.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{indices._dtype.cname}")
    _same_device("take_along_dim", input, indices)
    xp = _xp(input)
    if dim is None:  # PyTorch views both as 1-D (an error for non-viewable layouts)
        x = input.view(-1)._arr
        idx = indices.view(-1)._arr
        d = 0
    else:
        if len(input._shape) != len(indices._shape):
            raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same "
                               f"number of dimensions, but got {len(input._shape)} dimensions "
                               f"for input, and {len(indices._shape)} dimensions for indices")
        d = _layout.normalize_dim(dim, len(input._shape))
        if not input._shape:
            x, idx, d = input._arr.reshape(1), indices._arr.reshape(1), 0
        else:
            s_shape = list(input._shape)
            s_shape[d] = indices._shape[d]
            ishape = _layout.broadcast_shapes(tuple(s_shape), indices._shape)
            i_shape = list(indices._shape)
            i_shape[d] = input._shape[d]
            xshape = _layout.broadcast_shapes(tuple(i_shape), input._shape)
            x = xp.broadcast_to(input._arr, xshape)
            idx = xp.broadcast_to(indices._arr, ishape)
    size = x.shape[d]
    if idx.size and size == 0:
        raise RuntimeError(f"index {builtins.int(idx.reshape(-1)[0])} is out of bounds for "
                           f"dimension {d} with size 0")
    if idx.size and dim is None:  # (PyTorch's flattened path is gather's: bounds checked)
        bad = _first_bad(idx, size, False)
        if bad is not None:
            raise RuntimeError(f"index {bad} is out of bounds for dimension 0 with size {size}")
    if idx.size:
        # Note: PyTorch reads indices modulo the dim's size along a dim (no bounds error).
        lo, hi = _extent(idx, xp)
        if lo < 0 or hi >= size:
            idx = idx % size
        res = xp.take_along_axis(x, idx, axis=d)
    else:
        res = xp.empty(idx.shape, dtype=x.dtype)
    if dim is not None and not input._shape:
        res = res.reshape(())
    return finish(_c(xp, res), input._dtype, input.device, out)


@op(out_overlap="any-first", out="exact", out_message=lambda r, o: "take(): self and out "
    f"expected to have the same dtype, but got self.dtype = {r._dtype.cname} and out.dtype = "
    f"{o._dtype.cname}",
    out_stride=lambda r, input, index: _layout.elementwise_strides(
        index._shape, [(index._shape, index._stride)]))  # (out= laid out from the index)
def take(input, index) -> Tensor:
    """Elements at flat (row-major) positions ``index`` of ``input``; shaped like ``index``."""
    input = _tensor_arg(input, "take", "input", 1)
    index = _tensor_arg(index, "take", "index", 2)
    if index._dtype is not _dtypes.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got "
                           f"{index._dtype.cname}")
    _same_device("take", input, index)
    n = input.numel()
    idx = index._arr
    bad = _first_bad(idx, n, True)
    if bad is not None:
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} "
                         "elements.")
    xp = _xp(input)
    flat = input._arr.reshape(-1)
    res = flat[idx] if idx.size else xp.empty(index._shape, dtype=flat.dtype)
    return wrap_array(_c(xp, res), input._dtype, input.device)


# ---------------------------------------------------------------- scatter family
def _scatter_checks(self: Tensor, d: int, index: Tensor, src: Tensor | None, fn: str) -> None:
    n = max(len(self._shape), 1)
    ishape = index._shape or (1,)
    if max(len(index._shape), 1) != n:
        raise RuntimeError("Index tensor must have the same number of dimensions as self "
                           "tensor")
    if index.numel() == 0:  # nothing is written: PyTorch checks no sizes
        return
    sshape = self._shape or (1,)
    too_big = any(ishape[k] > sshape[k] for k in range(n) if k != d)
    if src is not None:
        srcshape = src._shape or (1,)
        if max(len(src._shape), 1) != n:
            raise RuntimeError("Index tensor must have the same number of dimensions as src "
                               "tensor")
        if too_big or any(ishape[k] > srcshape[k] for k in range(n)):
            raise RuntimeError(f"Expected index {list(ishape)} to be no larger than self "
                               f"{list(sshape)} apart from dimension {d} and to be no larger "
                               f"size than src {list(srcshape)}")
    elif too_big:
        raise RuntimeError(f"Expected index {list(ishape)} to be no larger than self "
                           f"{list(sshape)} apart from dimension {d}")


def _scatter_prepare(self: Tensor, dim, index, src, fn: str):
    """Validate a scatter; return (target array, key, values array or scalar)."""
    index = _tensor_arg(index, fn, "index", 2)
    if index._dtype not in _INTS:
        raise RuntimeError(f"{fn}(): Expected dtype int32/int64 for index")
    d = _layout.normalize_dim(dim, len(self._shape))
    src_t = src if isinstance(src, Tensor) else None
    if src_t is not None and src_t._dtype is not self._dtype:
        raise RuntimeError(f"{fn}(): Expected self.dtype to be equal to src.dtype")
    _scatter_checks(self, d, index, src_t, fn)
    ishape = index._shape or (1,)
    idx = _index_array(index, self).reshape(ishape)
    size = (self._shape or (1,))[d]
    bad = _first_bad(idx, size, False)
    if bad is not None:
        raise RuntimeError(f"index {bad} is out of bounds for dimension {d} with size {size}")
    check_writable(self)
    check_partial_overlap(self, src_t, full_ok=False)
    target = self._arr if self._shape else self._arr.reshape(1)
    xp = _xp(self)
    key = _grid_key(xp, idx, d)
    if src_t is not None:
        _same_device(fn, self, src_t)
        sarr = src_t._arr if src_t._shape else src_t._arr.reshape(1)
        vals = sarr[tuple(slice(0, s) for s in ishape)]
    else:
        vals = _value_of(src, self._dtype, fn)
    return target, key, vals, idx.size == 0


_SCATTER_REDUCE_WARNING = (
    "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in "
    "a future PyTorch release. Use torch.scatter_reduce instead for more reduction options.")


def scatter_(self: Tensor, dim: int, index, src=None, value=None, *, reduce=None) -> Tensor:
    """In place: ``self[i][index[i][j]] = src[i][j]`` (dim=1); ``src`` may be a number.

    ``reduce='add'|'multiply'`` accumulates instead of overwriting.
    """
    if src is None:
        if value is None:
            raise TypeError("scatter_() missing 1 required positional argument: 'src' or "
                            "'value'")
        src = value
    if reduce is not None:
        if reduce not in ("add", "multiply"):
            raise RuntimeError("reduce argument must be either add or multiply.")
        if isinstance(src, Tensor):
            warn_once(_SCATTER_REDUCE_WARNING)
    target, key, vals, empty = _scatter_prepare(self, dim, index, src, "scatter")
    if not empty:
        if reduce is None:
            target[key] = vals
        else:
            if self._dtype is _dtypes.bool:
                name = "logical_or" if reduce == "add" else "logical_and"
            else:
                name = "add" if reduce == "add" else "multiply"
            _ufunc_at(self, name, target, key, _broadcast_vals(self, vals, key))
    self._bump()
    return self


def _broadcast_vals(self: Tensor, vals, key):
    if hasattr(vals, "dtype") and hasattr(vals, "shape"):
        return vals
    xp = _xp(self)
    shape = np.broadcast_shapes(*(tuple(k.shape) for k in key))
    return xp.full(shape, vals, dtype=self._dtype._np)


@op(inplace=scatter_)
def scatter(input, dim: int, index, src=None, value=None, *, reduce=None, out=None) -> Tensor:
    """Out-of-place ``scatter_``: a copy of ``input`` with ``src`` written at ``index``."""
    input = _tensor_arg(input, "scatter", "input", 1)
    _out_of(out, input, index, src)
    res = scatter_(_clone_c(input), dim, index, src, value, reduce=reduce)
    return _to_out(res, out)


def _out_of(out, input: Tensor, index, source) -> None:
    """PyTorch's checks of an out-of-place index op's ``out=`` (its structured kernel, before
    anything else): ``out``, resized to ``input``'s shape, gets a copy of ``input`` unless it
    is ``input`` (copy_'s partial-overlap check), then ``source`` is written into it at
    ``index`` (either refused when it shares any of out's memory)."""
    if isinstance(out, Tensor):
        target = as_resized(out, input._shape)
        if out is not input:
            check_partial_overlap(target, input, lazy_read=False)
        check_partial_overlap(target, index, full_ok=False)
        check_partial_overlap(target, source, full_ok=False)


def _to_out(res: Tensor, out):
    if out is None:
        return res
    return finish(res._arr, res._dtype, res.device, out)


def scatter_add_(self: Tensor, dim: int, index, src) -> Tensor:
    """In place: ``self[i][index[i][j]] += src[i][j]`` (dim=1), duplicates accumulating."""
    src = _tensor_arg(src, "scatter_add", "src", 3)
    target, key, vals, empty = _scatter_prepare(self, dim, index, src, "scatter_add")
    if not empty:
        _ufunc_at(self, "logical_or" if self._dtype is _dtypes.bool else "add", target, key,
                  vals)
    self._bump()
    return self


@op(inplace=scatter_add_)
def scatter_add(input, dim: int, index, src, *, out=None) -> Tensor:
    input = _tensor_arg(input, "scatter_add", "input", 1)
    _out_of(out, input, index, src)
    return _to_out(scatter_add_(_clone_c(input), dim, index, src), out)


_REDUCES = ("sum", "prod", "mean", "amax", "amin")


def _identity(dt: "_dtypes.dtype", reduce: str):
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dt.category >= _FLOAT:
        return -np.inf if reduce == "amax" else np.inf
    if dt is _dtypes.bool:
        return reduce == "amin"
    info = np.iinfo(dt._np)
    return info.min if reduce == "amax" else info.max


def _reduce_into(self: Tensor, target, key, vals, reduce: str, include_self: bool) -> None:
    """Accumulate ``vals`` into ``target[key]`` with ``reduce`` (PyTorch's scatter_reduce)."""
    xp = _xp(self)
    dt = self._dtype
    if reduce == "mean" and dt is _dtypes.bool:
        raise NotImplementedError('"scatter_gather_tensor_cpu_reduce_mean" not implemented '
                                  "for 'Bool'")
    if reduce in ("amax", "amin") and dt.category == _dtypes._COMPLEX:
        raise NotImplementedError(f'"scatter_gather_tensor_cpu_reduce_{reduce}" not implemented '
                                  f"for '{dt.cname}'")
    if not include_self:
        target[key] = _identity(dt, reduce)
    if dt is _dtypes.bool:
        name = {"sum": "logical_or", "prod": "logical_and", "amax": "logical_or",
                "amin": "logical_and"}[reduce]
    else:
        name = {"sum": "add", "mean": "add", "prod": "multiply", "amax": "maximum",
                "amin": "minimum"}[reduce]
    _ufunc_at(self, name, target, key, vals)
    if reduce == "mean":
        counts = xp.zeros(target.shape, dtype=np.int64)
        if include_self:
            counts[key] = 1
        _ufunc_at(self, "add", counts, key, xp.ones(vals.shape, dtype=np.int64))
        counts = counts[key]
        sums = target[key]
        if dt.category >= _FLOAT:
            target[key] = call_quiet(xp.true_divide, sums, xp.maximum(counts, 1)).astype(
                sums.dtype)
        else:
            target[key] = xp.floor_divide(sums, xp.maximum(counts, 1).astype(sums.dtype))


def scatter_reduce_(self: Tensor, dim: int, index, src, reduce: str, *,
                    include_self: bool = True) -> Tensor:
    """In place: reduce ``src`` into ``self`` at ``index`` along ``dim`` with
    ``'sum'|'prod'|'mean'|'amax'|'amin'`` (``include_self=False`` ignores self's values there).
    """
    src = _tensor_arg(src, "scatter_reduce", "src", 3)
    if reduce not in _REDUCES:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    target, key, vals, empty = _scatter_prepare(self, dim, index, src, "scatter")
    if not empty:
        _reduce_into(self, target, key, vals, reduce, include_self)
    self._bump()
    return self


@op(inplace=scatter_reduce_)
def scatter_reduce(input, dim: int, index, src, reduce: str, *, include_self: bool = True,
                   out=None) -> Tensor:
    input = _tensor_arg(input, "scatter_reduce", "input", 1)
    _out_of(out, input, index, src)
    res = scatter_reduce_(_clone_c(input), dim, index, src, reduce, include_self=include_self)
    return _to_out(res, out)


# ---------------------------------------------------------------- index_* along one dim
def _vector_index(index, self: Tensor, fn: str, dtypes=_INTS):
    index = _tensor_arg(index, fn, "index", 2)
    if index._dtype not in dtypes:
        if fn == "index_fill_":
            raise IndexError("index_fill_(): Expected dtype int64 for index.")
        if fn == "index_copy_":
            raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got "
                               f"{index._dtype.cname}")
        raise RuntimeError(f"{fn}(): Expected dtype int32/int64 for index")
    if len(index._shape) > 1:
        if fn == "index_fill_":
            raise RuntimeError("Index has to be a vector/scalar")
        if fn == "index_copy_":
            raise IndexError("index_copy_(): Index should have dimension 1 or 0 (got "
                             f"{len(index._shape)})")
        raise IndexError(f"{fn}(): Index is supposed to be a vector, but got dim: "
                         f"{len(index._shape)} with type: {index._dtype.cname} and size: "
                         f"{list(index._shape)}")
    return index, _index_array(index, self).reshape(-1)


def _source_checks(self: Tensor, d: int, idx, source: Tensor, fn: str) -> None:
    if fn == "index_copy_" and source._shape and self._shape and \
            len(source._shape) != len(self._shape):
        raise IndexError(f"index_copy_(): When source and destination are not scalars, their "
                         f"dimensionality must match. Source dimensionality "
                         f"({len(source._shape)}), destination dimensionality "
                         f"({len(self._shape)})")
    n = idx.shape[0]
    sshape = source._shape or (1,)
    if n != (sshape[d] if len(sshape) > d else 1):
        if fn == "index_copy_":
            raise IndexError(f"index_copy_(): Number of indices ({n}) should be equal to "
                             f"source.size(dim) ({sshape[d] if len(sshape) > d else 1})")
        raise RuntimeError(f"{fn}(): Number of indices ({n}) should be equal to "
                           f"source.size(dim): ({sshape[d] if len(sshape) > d else 1}), for "
                           f"dim: {d}")
    selfshape = self._shape or (1,)
    if len(sshape) != len(selfshape) or any(
            a != b for k, (a, b) in enumerate(zip(selfshape, sshape)) if k != d):
        if fn == "index_copy_":
            for k in range(max(len(selfshape), len(sshape))):
                if k == d:
                    continue
                a = selfshape[k] if k < len(selfshape) else 1
                b = sshape[k] if k < len(sshape) else 1
                if a != b:
                    raise RuntimeError(
                        f"index_copy_(): Source/destination tensor must have same slice shapes. "
                        f"Destination slice shape: {a} at dimension {k} and source slice shape: "
                        f"{b} at dimension {k}.")
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = {list(self._shape)} "
                           f"source.shape = {list(source._shape)}")


def index_add_(self: Tensor, dim: int, index, source, *, alpha=1) -> Tensor:
    """In place: ``self[..., index[i], ...] += alpha * source[..., i, ...]`` along ``dim``."""
    source = _tensor_arg(source, "index_add_", "source", 3)
    d = _layout.normalize_dim(dim, len(self._shape))
    index, idx = _vector_index(index, self, "index_add_")
    if source._dtype is not self._dtype:
        raise RuntimeError(f"index_add_(): self ({self._dtype.cname}) and source "
                           f"({source._dtype.cname}) must have the same scalar type")
    _same_device("index_add_", self, source)
    _source_checks(self, d, idx, source, "index_add_")
    check_partial_overlap(self, source, full_ok=False)  # (after the shapes, as PyTorch)
    if _first_bad(idx, (self._shape or (1,))[d], False) is not None:
        raise IndexError("index out of range in self")
    target = _inplace_result(self)
    if not self._shape:
        target = target.reshape(1)
    vals = source._arr if source._shape else source._arr.reshape(1)
    if alpha != 1:
        if not isinstance(alpha, Tensor):  # (converted to self's dtype with PyTorch's check:
            # int32 takes no 1e10 or inf, uint8 no 300; a float is truncated, bool takes all)
            if self._dtype is _dtypes.float16:
                check_half(alpha)  # (float16's own check: a finite 1e10 is refused, inf not)
            else:
                alpha = checked_scalar(alpha, self._dtype)
        vals = run(_xp(self).multiply, self._dtype, vals,
                   operand(alpha, self._dtype, self.device))
    if idx.size:
        name = "logical_or" if self._dtype is _dtypes.bool else "add"
        _ufunc_at(self, name, target, _axis_key(target.ndim, d, idx), vals)
    self._bump()
    return self


@op(inplace=index_add_)
def index_add(input, dim: int, index, source, *, alpha=1, out=None) -> Tensor:
    input = _tensor_arg(input, "index_add", "input", 1)
    _out_of(out, input, index, source)
    return _to_out(index_add_(_clone_c(input), dim, index, source, alpha=alpha), out)


def index_reduce_(self: Tensor, dim: int, index, source, reduce: str, *,
                  include_self: bool = True) -> Tensor:
    """In place: reduce ``source``'s slices into ``self[..., index[i], ...]`` with
    ``'prod'|'mean'|'amax'|'amin'``."""
    source = _tensor_arg(source, "index_reduce_", "source", 3)
    check_partial_overlap(self, source, full_ok=False)
    warn_once("index_reduce() is in beta and the API may change at any time.")
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    d = _layout.normalize_dim(dim, len(self._shape))
    index, idx = _vector_index(index, self, "index_reduce_")
    if source._dtype is not self._dtype:
        raise RuntimeError(f"index_reduce_(): self ({self._dtype.cname}) and source "
                           f"({source._dtype.cname}) must have the same scalar type")
    _same_device("index_reduce_", self, source)
    _source_checks(self, d, idx, source, "index_reduce_")
    if self._dtype.category == _dtypes._COMPLEX:
        raise NotImplementedError(f'"index_func_" not implemented for \'{self._dtype.cname}\'')
    if _first_bad(idx, (self._shape or (1,))[d], False) is not None:
        raise IndexError("index out of range in self")
    target = _inplace_result(self)
    if not self._shape:
        target = target.reshape(1)
    vals = source._arr if source._shape else source._arr.reshape(1)
    if idx.size:
        _reduce_into(self, target, _axis_key(target.ndim, d, idx), vals, reduce, include_self)
    self._bump()
    return self


@op(inplace=index_reduce_)
def index_reduce(input, dim: int, index, source, reduce: str, *, include_self: bool = True,
                 out=None) -> Tensor:
    input = _tensor_arg(input, "index_reduce", "input", 1)
    _out_of(out, input, index, source)
    res = index_reduce_(_clone_c(input), dim, index, source, reduce, include_self=include_self)
    return _to_out(res, out)


def index_fill_(self: Tensor, dim: int, index, value) -> Tensor:
    """In place: every slice ``self[..., index[i], ...]`` along ``dim`` set to ``value``."""
    d = _layout.normalize_dim(dim, len(self._shape))
    index, idx = _vector_index(index, self, "index_fill_", _LONG)
    v = _value_of(value, self._dtype, "index_fill_")
    if _layout.has_internal_overlap(self._shape, self._stride) and self.numel():
        # (PyTorch warns and writes: every element of a memory location gets the same value)
        warnings.warn(INDEX_FILL_EXPANDED, UserWarning, stacklevel=2)
    size = (self._shape or (1,))[d]
    bad = _first_bad(idx, size, True)
    if bad is not None:
        raise IndexError(f"index {bad} is out of bounds for dimension {d} with size {size}")
    target = self._arr
    if not self._shape:
        target = target.reshape(1)
    if idx.size:
        target[_axis_key(target.ndim, d, idx)] = v
    self._bump()
    return self


@op(inplace=index_fill_)
def index_fill(input, dim: int, index, value) -> Tensor:
    input = _tensor_arg(input, "index_fill", "input", 1)
    return index_fill_(_clone(input), dim, index, value)


def index_copy_(self: Tensor, dim: int, index, source) -> Tensor:
    """In place: ``self[..., index[i], ...] = source[..., i, ...]`` along ``dim``."""
    source = _tensor_arg(source, "index_copy_", "source", 3)
    check_partial_overlap(self, source, full_ok=False)
    d = _layout.normalize_dim(dim, len(self._shape))
    index, idx = _vector_index(index, self, "index_copy_", _LONG)
    if source._dtype is not self._dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, "
                           f"but got (self) {self._dtype.cname} and (source) "
                           f"{source._dtype.cname}")
    _same_device("index_copy_", self, source)
    _source_checks(self, d, idx, source, "index_copy_")
    size = (self._shape or (1,))[d]
    bad = _first_bad(idx, size, False)
    if bad is not None:
        raise IndexError(f"index_copy_(): index {bad} is out of bounds for dimension {d} with "
                         f"size {size}")
    target = _inplace_result(self)
    if not self._shape:
        target = target.reshape(1)
    vals = source._arr if source._shape else source._arr.reshape(1)
    if idx.size:
        target[_axis_key(target.ndim, d, idx)] = vals
    self._bump()
    return self


@op(inplace=index_copy_)
def index_copy(input, dim: int, index, source, *, out=None) -> Tensor:
    input = _tensor_arg(input, "index_copy", "input", 1)
    _out_of(out, input, index, source)
    return _to_out(index_copy_(_clone_c(input), dim, index, source), out)


def index_put_(self: Tensor, indices, values, accumulate: bool = False) -> Tensor:
    """In place: ``self[indices] = values`` (``+=`` with ``accumulate``, duplicates adding);
    ``indices`` is a tuple of index tensors, one per leading dim."""
    values = _tensor_arg(values, "index_put_", "values", 2)
    if _layout.has_internal_overlap(self._shape, self._stride) and 0 not in self._shape:
        warnings.warn(INDEX_PUT_EXPANDED, UserWarning, stacklevel=2)  # (PyTorch writes anyway)
    check_partial_overlap(self, values, full_ok=False)
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"index_put_(): argument 'indices' (position 1) must be tuple of "
                        f"Tensors, not {type(indices).__name__}")
    for i, k in enumerate(indices):
        if not isinstance(k, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(k).__name__}")
    if values._dtype is not self._dtype and (accumulate or not (
            len(indices) == 1 and indices[0]._dtype in (_dtypes.bool, _dtypes.uint8)
            and values.numel() == 1)):
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{self._dtype.cname} for the destination and {values._dtype.cname} "
                           "for the source.")
    key = _advanced_key(self, tuple(indices))
    arr = self._arr
    _check_index_put(self, arr, key, values)
    src = values._arr
    if values._dtype is not self._dtype:
        src = operand(values, self._dtype, self.device)
    try:
        if accumulate:
            shape = arr[key].shape
            name = "logical_or" if self._dtype is _dtypes.bool else "add"
            _ufunc_at(self, name, arr, key, _xp(self).broadcast_to(src, shape))
        else:
            arr[key] = src
    except IndexError as e:
        raise IndexError(str(e).replace("axis", "dimension")) from None
    self._bump()
    return self


@op(inplace=index_put_, inplace_function=True)
def index_put(input, indices, values, accumulate: bool = False) -> Tensor:
    input = _tensor_arg(input, "index_put", "input", 1)
    return index_put_(_clone(input), indices, values, accumulate)


# ---------------------------------------------------------------- masks
def _check_mask(mask, fn: str) -> Tensor:
    mask = _tensor_arg(mask, fn, "mask", 2)
    if mask._dtype is not _dtypes.bool:
        raise RuntimeError(f"{fn} only supports boolean masks, but got mask with dtype "
                           f"{mask._dtype.cxx_name}")
    return mask


def _mask_array(mask: Tensor, like: Tensor):
    if mask._storage._device != like._storage._device:
        if mask._shape or mask.device.type != "cpu":
            raise RuntimeError(f"Expected all tensors to be on the same device, but found at "
                               f"least two devices, {like.device} and {mask.device}!")
        return like._storage._backend.from_host(_host_array(mask), like.device)
    return mask._arr


def masked_fill_(self: Tensor, mask, value) -> Tensor:
    """In place: ``self[i] = value`` wherever ``mask[i]`` (mask broadcasts to self)."""
    mask = _check_mask(mask, "masked_fill_")
    v = _value_of(value, self._dtype, "masked_fill_")
    bshape = _layout.broadcast_shapes(self._shape, mask._shape)
    if bshape != self._shape:
        raise RuntimeError(f"output with shape {list(self._shape)} doesn't match the broadcast "
                           f"shape {list(bshape)}")
    if _layout.has_internal_overlap(self._shape, self._stride) and 0 not in self._shape:
        warnings.warn(MASKED_FILL_EXPANDED, UserWarning, stacklevel=2)  # (and writes anyway)
    target = self._arr
    m = _mask_array(mask, self)
    if mask._shape != self._shape:
        m = _xp(self).broadcast_to(m, self._shape)
    target[m] = v
    self._bump()
    return self


def _expanded_copy(input: Tensor, shape: tuple) -> Tensor:
    if shape == input._shape:
        return _clone_c(input)
    # (a copy always: expand() to a shape that only adds size-1 dims is already contiguous,
    # and .contiguous() would hand back a view that the fill then writes through)
    return _clone_c(input.expand(shape))


@op(inplace=masked_fill_)
def masked_fill(input, mask, value) -> Tensor:
    """A copy of ``input`` (broadcast with ``mask``) with ``value`` where ``mask`` is True."""
    input = _tensor_arg(input, "masked_fill", "input", 1)
    mask = _check_mask(mask, "masked_fill_")
    shape = _layout.broadcast_shapes(input._shape, mask._shape)
    return masked_fill_(_expanded_copy(input, shape), mask, value)


@op(out_overlap="any-first",
    out="exact", out_message=lambda r, o: "masked_select(): self and result must "
    "have the same scalar type")
def masked_select(input, mask, *, out=None) -> Tensor:
    """A 1-D tensor of ``input``'s elements where ``mask`` (broadcast) is True."""
    input = _tensor_arg(input, "masked_select", "input", 1)
    mask = _tensor_arg(mask, "masked_select", "mask", 2)
    if mask._dtype is not _dtypes.bool:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    xp = _xp(input)
    shape = _layout.broadcast_shapes(input._shape, mask._shape)
    x = xp.broadcast_to(input._arr, shape)
    m = xp.broadcast_to(_mask_array(mask, input), shape)
    res = x[m] if shape else x.reshape(1)[m.reshape(1)]
    return finish(_c(xp, res), input._dtype, input.device, out)


def masked_scatter_(self: Tensor, mask, source) -> Tensor:
    """In place: the True positions of ``mask`` (row-major) take ``source``'s first values."""
    mask = _tensor_arg(mask, "masked_scatter_", "mask", 1)
    source = _tensor_arg(source, "masked_scatter_", "source", 2)
    if mask._dtype is not _dtypes.bool:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {mask._dtype.cxx_name}")
    if source._dtype is not self._dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but "
                           f"got{self._dtype.cname} and {source._dtype.cname}")
    _same_device("masked_scatter_", self, source)
    m_t = mask.expand(self._shape) if mask._shape != self._shape else mask
    xp = _xp(self)
    m = _mask_array(m_t, self)
    count = builtins.int(xp.count_nonzero(m))
    if count > source.numel():
        raise RuntimeError("Number of elements of source < number of ones in mask")
    target = _inplace_result(self)
    if count:
        vals = read_apart(self, source, source._arr.reshape(-1)[:count])
        if self._shape:
            target[m] = vals
        else:
            target[...] = vals[0]
    self._bump()
    return self


@op(inplace=masked_scatter_)
def masked_scatter(input, mask, source) -> Tensor:
    input = _tensor_arg(input, "masked_scatter", "input", 1)
    mask = _tensor_arg(mask, "masked_scatter", "mask", 2)
    shape = _layout.broadcast_shapes(input._shape, mask._shape)
    return masked_scatter_(_expanded_copy(input, shape), mask, source)


def put_(self: Tensor, index, source, accumulate: bool = False) -> Tensor:
    """In place: ``self.flatten()[index[i]] = source.flatten()[i]`` (row-major positions,
    written through any layout); ``accumulate=True`` adds, duplicates included."""
    index = _tensor_arg(index, "put_", "index", 1)
    source = _tensor_arg(source, "put_", "source", 2)
    check_partial_overlap(self, source, full_ok=False)
    if index._dtype is not _dtypes.int64:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got "
                           f"{index._dtype.cname}")
    if source._dtype is not self._dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {self._dtype.cname} and source.dtype = "
                           f"{source._dtype.cname}")
    _same_device("put_", self, index, source)
    if index.numel() != source.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of "
                         f"elements, but got source.numel() = {source.numel()}, "
                         f"index.numel() = {index.numel()}")
    n = self.numel()
    idx = index._arr.reshape(-1)
    bad = _first_bad(idx, n, True)
    if bad is not None:
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} "
                         "elements.")
    target = _inplace_result(self)
    if idx.size:
        xp = _xp(self)
        idx = xp.where(idx < 0, idx + n, idx)
        key = xp.unravel_index(idx, self._shape) if self._shape else (idx,)
        if not self._shape:
            target = target.reshape(1)
        vals = source._arr.reshape(-1)
        if accumulate:
            name = "logical_or" if self._dtype is _dtypes.bool else "add"
            _ufunc_at(self, name, target, tuple(key), vals)
        else:
            target[tuple(key)] = vals
    self._bump()
    return self


@op(inplace=put_)
def put(input, index, source, accumulate: bool = False) -> Tensor:
    input = _tensor_arg(input, "put", "input", 1)
    return put_(_clone(input), index, source, accumulate)


# ---------------------------------------------------------------- where / nonzero
def _where_method(self: Tensor, condition, other) -> Tensor:
    """``t.where(condition, other)`` is ``where(condition, t, other)``."""
    return where(condition, self, other)


@op(method=_where_method)
def where(condition, input=None, other=None, *, out=None):
    """``input`` where ``condition`` else ``other`` (broadcast; PyTorch's promotion, numbers
    allowed); ``where(condition)`` alone is ``nonzero(condition, as_tuple=True)``."""
    condition = _tensor_arg(condition, "where", "condition", 1)
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    if input is None or other is None:
        raise TypeError("where() missing required argument: give both 'input' and 'other', "
                        "or only 'condition'")
    if out is not None:
        for pos, (name, v) in enumerate((("input", input), ("other", other)), 2):
            if not isinstance(v, Tensor):
                raise TypeError(f"where(): argument '{name}' (position {pos}) must be Tensor, "
                                f"not {type(v).__name__}")
    if condition._dtype not in (_dtypes.bool, _dtypes.uint8):
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {condition._dtype.cname}")
    rdt = promote(input, other)
    dev = device_of(condition, input, other)
    _layout.broadcast_shapes(*(x._shape for x in (condition, input, other)
                               if isinstance(x, Tensor)))
    xp = (condition if condition._storage._device == dev else
          input if isinstance(input, Tensor) and input._storage._device == dev else
          other)._storage._backend.xp
    a = _where_operand(input, rdt, dev)
    b = _where_operand(other, rdt, dev)
    c = condition._arr if condition._storage._device == dev else \
        scalar_bool(condition)
    if condition._dtype is _dtypes.uint8:
        warn_once("where received a uint8 condition tensor. This behavior is deprecated and "
                  "will be removed in a future version of PyTorch. Use a boolean condition "
                  "instead.")
    if condition._dtype is _dtypes.uint8 and hasattr(c, "astype"):
        c = c.astype(bool)
    res = xp.where(c, a, b)
    if not isinstance(res, xp.ndarray):
        res = xp.asarray(res)
    if isinstance(out, Tensor) and out._dtype is not rdt:  # (no casting into out=)
        raise RuntimeError(f"Expected out type to be {rdt.cname} but got {out._dtype.cname}")
    # (laid out as PyTorch's TensorIterator over condition, input, other, in that order:
    # input and other converted to the result dtype first, a uint8 condition to bool)
    stride = _layout.elementwise_strides(res.shape, [
        operand_layout(condition, _dtypes.bool), operand_layout(input, rdt),
        operand_layout(other, rdt)])
    return finish(res, rdt, dev, out, stride, (condition, input, other))


def scalar_bool(t: Tensor):
    return builtins.bool(t.item())


def _where_operand(x, rdt, dev):
    if isinstance(x, Tensor):
        return operand(x, rdt, dev)
    return checked_scalar(x, rdt)


@op(out_overlap="any-first",
    out="exact", out_message=lambda r, o: "nonzero: Expected out tensor to have scalar "
    f"type Long but got scalar type{o._dtype.cname}")
def nonzero(input, *, out=None, as_tuple: bool = False):
    """Indices of the non-zero elements: an ``(n, ndim)`` int64 tensor (column-major, as
    PyTorch lays it out), or with ``as_tuple=True`` one 1-D tensor per dim."""
    input = _tensor_arg(input, "nonzero", "input", 1)
    if as_tuple and out is not None:
        raise RuntimeError("nonzero does not support the out kwarg when as_tuple is True")
    xp = _xp(input)
    arr = input._arr
    dev = input.device
    if as_tuple:
        if not input._shape:
            return (wrap_array(xp.nonzero(arr.reshape(1))[0].astype(np.int64), _dtypes.int64,
                               dev),)
        # (PyTorch: nonzero(input).unbind(1), the columns of one (n, ndim) buffer laid out
        # column-major: each a view at offset i * n)
        return nonzero(input).unbind(1)
    if not input._shape:
        n = builtins.int(xp.count_nonzero(arr))
        res = xp.zeros((n, 0), dtype=np.int64)
    else:
        idx = xp.nonzero(arr)
        # PyTorch fills an (ndim, n) buffer and returns its transpose: strides (1, n).
        res = xp.stack([i.astype(np.int64, copy=False) for i in idx])
        if out is not None:
            return finish(res.T, _dtypes.int64, dev, out)
        r = wrap_array(res, _dtypes.int64, dev).t()
        r._vb = None  # (a fresh result, as PyTorch's: no view of its buffer)
        if not r._shape[0]:  # (PyTorch's strides of the empty result: (1, n) = (1, 0))
            r = r._view(r._shape, (1, 0), 0)
            r._vb = None
        return r
    if out is not None:
        return finish(res, _dtypes.int64, dev, out)
    r = wrap_array(res, _dtypes.int64, dev)
    if not n:
        r = r._view(r._shape, (1, 0), 0)  # (PyTorch's (1, n) strides again)
        r._vb = None
    return r


@op()
def argwhere(input) -> Tensor:
    """``nonzero(input)``: an ``(n, ndim)`` tensor of the non-zero elements' indices."""
    input = _tensor_arg(input, "argwhere", "input", 1)
    return nonzero(input)
