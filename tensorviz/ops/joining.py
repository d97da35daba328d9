"""Joining, tiling, flipping and triangular ops: ``cat``, ``stack``, ``repeat``, ``flip``,
``roll``, ``tril``, ``diag``, ``meshgrid`` ...

Results are fresh contiguous tensors unless PyTorch keeps the input's layout (``flip``), or
hands back views (``meshgrid``: expanded views, stride 0 along the broadcast dims).
"""
from __future__ import annotations

import builtins
import itertools
import math

import numpy as np

from .. import _dtypes, _layout
from .._dtypes import PROMOTION_TABLE
from .._indexing import check_partial_overlap, check_writable
from .._tensor import Tensor, wrap_array
from ..backends import backend_for, runs_numpy
from .._dispatch import inplace_of, op
from ._elementwise import device_of, finish, operand
from ..backends._numpy import call_quiet
from ._args import int_arg, int_tuple_arg
from .indexing import _c, _tensor_arg, _xp, warn_once

__all__ = ["cat", "concatenate", "stack", "hstack", "vstack", "dstack",
           "column_stack", "tile", "repeat_interleave", "flip", "fliplr", "flipud", "roll",
           "rot90", "tril", "triu", "diag", "diag_embed", "diagflat", "block_diag", "meshgrid",
           "cartesian_prod", "combinations", "tril_indices", "triu_indices"]


def _tensor_list(tensors, fn: str, what: str = "tensors") -> list:
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{fn}(): argument '{what}' (position 1) must be tuple of Tensors, not "
                        f"{type(tensors).__name__}")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(t).__name__}")
    return list(tensors)


def _common_dtype(tensors) -> "_dtypes.dtype":
    dt = tensors[0]._dtype
    for t in tensors[1:]:
        dt = PROMOTION_TABLE[(dt, t._dtype)]
    return dt


def _arrays(tensors, dt, dev) -> list:
    return [operand(t, dt, dev) for t in tensors]


def _check_out(out, inputs, rdt, fn: str) -> None:
    if out is None:
        return
    if not isinstance(out, Tensor):
        raise TypeError(f"{fn}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if not _dtypes.can_cast(rdt, out._dtype):
        raise TypeError(f"torch.{fn}(): input types can't be cast to the desired output type "
                        f"{out._dtype.cname}")
    for t in inputs:  # (PyTorch's assert_no_overlap: layouts it cannot tell pass)
        check_partial_overlap(out, t, full_ok=False)


# ---------------------------------------------------------------- cat / stack
@op(aliases=("concat",), method=False)
def cat(tensors, dim: int = 0, *, out=None) -> Tensor:
    """Join tensors along an existing ``dim`` (PyTorch's promotion across the inputs).

    1-D empty tensors are skipped, whatever their shape elsewhere (PyTorch's legacy rule).
    """
    tensors = _tensor_list(tensors, "cat")
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if not t._shape:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               "concatenated")
    rdt = _common_dtype(tensors)
    dev = device_of(*tensors)
    kept = [(i, t) for i, t in enumerate(tensors) if not (t._shape == (0,))]
    if not kept:
        res = backend_for(dev).xp.empty((0,), dtype=rdt._np)
        _check_out(out, tensors, rdt, "cat")
        return finish(res, rdt, dev, out)
    ref = kept[0][1]
    n = len(ref._shape)
    d = _layout.normalize_dim(dim, n)
    for i, t in kept[1:]:
        if len(t._shape) != n:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {n} and "
                               f"{len(t._shape)}")
        for k in range(n):
            if k != d and t._shape[k] != ref._shape[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. "
                                   f"Expected size {ref._shape[k]} but got size {t._shape[k]} "
                                   f"for tensor number {i} in the list.")
    _check_out(out, tensors, rdt, "cat")
    xp = backend_for(dev).xp
    arrays = _arrays([t for _, t in kept], rdt, dev)
    shape = list(ref._shape)
    shape[d] = builtins.sum(a.shape[d] for a in arrays)
    # C order, whatever the inputs' layouts (``empty_like``: a placeholder on the meta device)
    res = xp.empty_like(arrays[0], shape=tuple(shape), dtype=rdt._np, order="C")
    xp.concatenate(arrays, axis=d, out=res)
    return finish(res, rdt, dev, out)


@op(method=False)
def concatenate(tensors, axis: int = 0, *, dim=None, out=None) -> Tensor:
    return cat(tensors, axis if dim is None else dim, out=out)


@op(method=False)
def stack(tensors, dim: int = 0, *, out=None) -> Tensor:
    """Join equal-shaped tensors along a new ``dim``."""
    tensors = _tensor_list(tensors, "stack")
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    ref = tensors[0]
    for i, t in enumerate(tensors[1:], 1):
        if t._shape != ref._shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"{list(ref._shape)} at entry 0 and {list(t._shape)} at entry {i}")
    d = _layout.normalize_dim(dim, len(ref._shape) + 1)
    rdt = _common_dtype(tensors)
    dev = device_of(*tensors)
    _check_out(out, tensors, rdt, "stack")
    xp = backend_for(dev).xp
    shape = list(ref._shape)
    shape.insert(d, len(tensors))
    res = xp.empty(tuple(shape), dtype=rdt._np)
    xp.stack(_arrays(tensors, rdt, dev), axis=d, out=res)
    return finish(res, rdt, dev, out)


def _nonempty(tensors, fn: str) -> list:
    tensors = _tensor_list(tensors, fn)
    if not tensors:
        raise RuntimeError(f"{fn} expects a non-empty TensorList")
    return tensors


@op(method=False)
def hstack(tensors, *, out=None) -> Tensor:
    """Concatenate horizontally: along dim 0 for 1-D inputs, else dim 1."""
    from .views import atleast_1d
    ts = [atleast_1d(t) for t in _nonempty(tensors, "hstack")]
    return cat(ts, 0 if ts[0].dim() == 1 else 1, out=out)


@op(aliases=("row_stack",), method=False)
def vstack(tensors, *, out=None) -> Tensor:
    """Concatenate vertically (dim 0) after making every input at least 2-D."""
    from .views import atleast_2d
    ts = [atleast_2d(t) for t in _nonempty(tensors, "vstack")]
    return cat(ts, 0, out=out)


@op(method=False)
def dstack(tensors, *, out=None) -> Tensor:
    """Concatenate depth-wise (dim 2) after making every input at least 3-D."""
    from .views import atleast_3d
    ts = [atleast_3d(t) for t in _nonempty(tensors, "dstack")]
    return cat(ts, 2, out=out)


@op(method=False)
def column_stack(tensors, *, out=None) -> Tensor:
    """Columns side by side: 0-D/1-D inputs become ``(n, 1)`` columns, then ``cat(dim=1)``."""
    ts = [t.reshape(t.numel(), 1) if t.dim() <= 1 else t
          for t in _nonempty(tensors, "column_stack")]
    return cat(ts, 1, out=out)


# ---------------------------------------------------------------- repeat / tile
def _int_tuple(args, fn: str, what: str, pos: int = 1) -> tuple:
    """``args`` (ints, or one list/tuple of ints: ``x.repeat(2, 3)``, ``x.repeat((2, 3))``)
    as a tuple of ints, with PyTorch's argument parser's TypeErrors (``pos``: the argument's
    position, 1 for a method's, 2 for ``tile(input, dims)``'s)."""
    single = len(args) == 1 and not isinstance(args[0], (list, tuple))
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    out = []
    for k, a in enumerate(args, 1):
        if isinstance(a, Tensor) and (a._shape or a._dtype.category != _dtypes._INT):
            raise TypeError(f"{fn}(): argument '{what}' (position {pos}) must be tuple of ints, "
                            "not Tensor")
        try:
            out.append(a.__index__())
        except (AttributeError, TypeError):
            if single:
                raise TypeError(f"{fn}(): argument '{what}' (position {pos}) must be tuple of "
                                f"ints, not {type(a).__name__}") from None
            raise TypeError(f"{fn}(): argument '{what}' failed to unpack the object at pos {k} "
                            f"with error \"type must be tuple of ints,but got "
                            f"{type(a).__name__}\"") from None
        if not -2**63 <= out[-1] < 2**63:
            raise TypeError(f"{fn}(): argument '{what}' failed to unpack the object at pos "
                            f"{len(out)} with error \"Overflow when unpacking long long\"")
    return tuple(out)


@op(function=False)
def repeat(self: Tensor, *sizes) -> Tensor:
    """The tensor tiled ``sizes[i]`` times along each dim (``len(sizes) >= self.dim()``)."""
    reps = _int_tuple(sizes, "repeat", "repeats")
    n = len(self._shape)
    if len(reps) < n:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    shape = (1,) * (len(reps) - n) + self._shape
    target = tuple(s * r for s, r in zip(shape, reps))
    for s in target:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"[{', '.join(map(str, target))}]")
    xp = _xp(self)
    arr = self._arr.reshape(shape) if shape != self._shape else self._arr
    res = call_quiet(xp.tile, arr, reps) if reps else arr.copy()  # (MemoryError: PyTorch's)
    return wrap_array(_c(xp, res), self._dtype, self.device)


def check_tile_dims(dims) -> None:
    """``tile(input, dims)`` takes one sequence (``t.tile(2)``, the method, takes ints)."""
    if not isinstance(dims, (list, tuple, Tensor)):
        raise TypeError(f"tile(): argument 'dims' (position 2) must be tuple of ints, not "
                        f"{type(dims).__name__}")


def _tile_method(self: Tensor, *dims, **kwargs) -> Tensor:
    dims = _dims_kw("tile", dims, kwargs)
    return tile(self, _int_tuple(dims, "tile", "dims"))


@op(method=_tile_method)
def tile(input, dims) -> Tensor:
    """``repeat`` with ``dims`` padded by leading 1s to the input's rank."""
    input = _tensor_arg(input, "tile", "input", 1)
    check_tile_dims(dims)
    reps = _int_tuple((dims,), "tile", "dims", 2)
    n = len(input._shape)
    if len(reps) < n:
        reps = (1,) * (n - len(reps)) + reps
    return repeat(input, reps)


def _dims_kw(fn: str, dims: tuple, kwargs: dict) -> tuple:
    """``t.flip(dims=...)`` / ``t.tile(dims=...)``: the keyword form takes one sequence."""
    if not kwargs:
        return dims
    if set(kwargs) != {"dims"}:
        raise TypeError(f"{fn}() got an unexpected keyword argument "
                        f"'{next(k for k in kwargs if k != 'dims')}'")
    if dims:
        raise TypeError(f"{fn}() got multiple values for argument 'dims'")
    value = kwargs["dims"]
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"{fn}(): argument 'dims' must be tuple of ints, not "
                        f"{type(value).__name__}")
    return (tuple(value),)


@op()
def repeat_interleave(input, repeats=None, dim=None, *, output_size=None) -> Tensor:
    """Each element (or slice along ``dim``) repeated ``repeats`` times, in place order:
    ``[a, b]`` with 2 -> ``[a, a, b, b]``; ``repeat_interleave(counts)`` gives indices."""
    input = _tensor_arg(input, "repeat_interleave", "input", 1)
    if repeats is None:  # repeat_interleave(repeats): 0, 1, ... each repeats[i] times
        if len(input._shape) != 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        if input._dtype not in (_dtypes.int32, _dtypes.int64):
            raise NotImplementedError(f'"repeat_interleave_cpu" not implemented for '
                                      f"'{input._dtype.cname}'")
        xp = _xp(input)
        counts = input._arr
        if input.is_meta:
            return _counted_on_meta(input, counts, 0, output_size)
        if counts.size and builtins.int(counts.min()) < 0:
            raise RuntimeError("repeats can not be negative")
        res = call_quiet(xp.repeat, xp.arange(counts.size, dtype=input._dtype._np),
                         _host_list(xp, counts))
        return wrap_array(res, input._dtype, input.device)
    xp = _xp(input)
    if dim is None:
        arr = input._arr.reshape(-1)
        d = 0
    else:
        d = _layout.normalize_dim(dim, len(input._shape))
        arr = input._arr if input._shape else input._arr.reshape(1)
    size = arr.shape[d]
    if isinstance(repeats, Tensor):
        if len(repeats._shape) > 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        if repeats._dtype.category != _dtypes._INT:
            raise NotImplementedError(f'"repeat_interleave_cpu" not implemented for '
                                      f"'{repeats._dtype.cname}'")
        reps = repeats._arr.reshape(-1)
        if reps.size not in (1, size):
            raise RuntimeError(f"repeats must have the same size as input along dim, but got "
                               f"repeats.size(0) = {reps.size} and input.size({d}) = {size}")
        if repeats.is_meta or input.is_meta:
            return _counted_on_meta(input, arr, d, output_size)
        if reps.size == 1:
            reps = builtins.int(reps[0])
        elif reps.size and builtins.int(reps.min()) < 0:
            raise RuntimeError("repeats can not be negative")
    else:
        if isinstance(repeats, builtins.float):
            raise TypeError("repeat_interleave() received an invalid combination of arguments - "
                            "got (Tensor, float), but expected one of: (Tensor input, Tensor "
                            "repeats, int dim), (Tensor input, int repeats, int dim)")
        reps = int_arg(repeats, "repeat_interleave", "repeats", 2)
    if isinstance(reps, builtins.int):
        if reps < 0:
            raise RuntimeError("Repeats must be non-negative")
        total = reps * size
    else:
        total = builtins.int(reps.sum())
    if output_size is not None and output_size != total:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected {total} but got "
                           f"{output_size}")
    res = call_quiet(xp.repeat, arr,
                     reps if isinstance(reps, builtins.int) else _host_list(xp, reps), axis=d)
    return wrap_array(_c(xp, res), input._dtype, input.device)


def _counted_on_meta(input: Tensor, arr, d: int, output_size) -> Tensor:
    """``repeat_interleave`` by a meta tensor of counts: the result's length is their sum,
    which only ``output_size`` can tell (PyTorch's error without it)."""
    if output_size is None:
        raise RuntimeError("cannot repeat_interleave a meta tensor without output_size")
    shape = arr.shape[:d] + (builtins.int(output_size),) + arr.shape[d + 1:]
    return wrap_array(_xp(input).empty_like(arr, shape=shape, order="C"), input._dtype,
                      input.device)


def _host_list(xp, arr):
    """Per-element repeat counts as NumPy wants them, or as a list for CuPy (which takes no
    device array there)."""
    return arr if runs_numpy(xp) else arr.tolist()


# ---------------------------------------------------------------- flip / roll / rot90
def _flip_method(self: Tensor, *dims, **kwargs) -> Tensor:
    dims = _dims_kw("flip", dims, kwargs)
    if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
        dims = tuple(dims[0])
    return flip(self, tuple(dims))


@op(method=_flip_method)
def flip(input, dims) -> Tensor:
    """A copy with the order of elements reversed along ``dims`` (PyTorch never makes
    negative strides: the copy keeps the input's dim order)."""
    input = _tensor_arg(input, "flip", "input", 1)
    if not isinstance(dims, (list, tuple)):
        raise TypeError(f"flip(): argument 'dims' (position 2) must be tuple of ints, not "
                        f"{type(dims).__name__}")
    ds = _layout.normalize_dims(dims, len(input._shape))
    xp = _xp(input)
    arr = input._arr
    if _layout.is_non_overlapping_and_dense(input._shape, input._stride):
        out = xp.empty_like(arr, order="K")
    else:
        out = xp.empty(arr.shape, dtype=arr.dtype)
    out[...] = xp.flip(arr, axis=ds) if ds and input._shape else arr
    # (as clone(preserve_format): size-1 dims keep their strides too, as in PyTorch)
    return wrap_array(out, input._dtype, input.device,
                      _layout.preserve_strides(input._shape, input._stride))


@op()
def fliplr(input) -> Tensor:
    input = _tensor_arg(input, "fliplr", "input", 1)
    if input.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(input, (1,))


@op()
def flipud(input) -> Tensor:
    input = _tensor_arg(input, "flipud", "input", 1)
    if input.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(input, (0,))


def _as_int_list(x) -> list:
    if isinstance(x, Tensor):
        return [builtins.int(v) for v in np.atleast_1d(x.numpy(force=True))]
    if isinstance(x, (list, tuple)):
        return [builtins.int(v.__index__()) for v in x]
    return [x.__index__()]


@op()
def roll(input, shifts, dims=None) -> Tensor:
    """Elements shifted cyclically along ``dims`` (flattened first when ``dims`` is None)."""
    input = _tensor_arg(input, "roll", "input", 1)
    sh = _as_int_list(shifts) if isinstance(shifts, Tensor) else \
        list(int_tuple_arg(shifts, "roll", "shifts", 2))
    if not sh:
        raise RuntimeError("`shifts` required")
    xp = _xp(input)
    if dims is None or (isinstance(dims, (list, tuple)) and not dims):
        if len(sh) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(sh)}, dims:0")
        flat = roll(input.reshape(-1), sh, (0,))
        return flat.view(input._shape)
    ds = _as_int_list(dims) if isinstance(dims, Tensor) else \
        list(int_tuple_arg(dims, "roll", "dims", 3))
    if len(sh) != len(ds):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(sh)}, dims:"
                           f"{len(ds)}")
    n = len(input._shape)
    if input.numel() == 0:
        return input.clone()
    if not n:
        raise IndexError(f"Dimension specified as {ds[0]} but tensor has no dimensions")
    total: dict = {}
    for s, d in zip(sh, ds):
        d = _layout.normalize_dim(d, n)
        total[d] = total.get(d, 0) + s
    arr = input._arr if input._shape else input._arr.reshape(1)
    out = xp.empty(arr.shape, dtype=arr.dtype)
    per_dim = []
    for d, s in total.items():
        size = arr.shape[d]
        s = s % size if size else 0
        if s == 0:
            continue
        per_dim.append([(d, slice(None, size - s), slice(s, None)),
                        (d, slice(size - s, None), slice(None, s))])
    if not per_dim or out.size == 0:
        out[...] = arr
    for combo in itertools.product(*per_dim):
        src = [slice(None)] * arr.ndim
        dst = [slice(None)] * arr.ndim
        for d, a, b in combo:
            src[d], dst[d] = a, b
        out[tuple(dst)] = arr[tuple(src)]
    return wrap_array(out.reshape(input._shape), input._dtype, input.device)


@op()
def rot90(input, k: int = 1, dims=(0, 1)) -> Tensor:
    """Rotate by 90 degrees ``k`` times in the plane of ``dims`` (from the first towards the
    second): a flip and a transposed view, as PyTorch builds it."""
    input = _tensor_arg(input, "rot90", "input", 1)
    k = int_arg(k, "rot90", "k", 2)
    dims = list(int_tuple_arg(dims, "rot90", "dims", 3))
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    n = len(input._shape)
    if n < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {n}")
    d0, d1 = (_layout.normalize_dim(d, n) for d in dims)
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and "
                           f"dim1 = {d1}")
    k = k % 4
    if k == 1:
        return flip(input, (d1,)).transpose(d0, d1)
    if k == 2:
        return flip(input, (d0, d1))
    if k == 3:
        return flip(input, (d0,)).transpose(d0, d1)
    return input.clone(memory_format=_contiguous())


def _contiguous():
    from .._tensor import contiguous_format
    return contiguous_format


# ---------------------------------------------------------------- triangles and diagonals
def _tri_mask(xp, shape, k: int, lower: bool):
    rows, cols = shape[-2], shape[-1]
    if lower:
        return xp.tri(rows, cols, k, dtype=bool)
    return ~xp.tri(rows, cols, k - 1, dtype=bool)


def _triangle(input, diagonal, out, lower: bool) -> Tensor:
    name = "tril" if lower else "triu"
    input = _tensor_arg(input, name, "input", 1)
    diagonal = int_arg(diagonal, name, "diagonal", 2)
    if len(input._shape) < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    xp = _xp(input)
    res = xp.empty(input._shape, dtype=input._dtype._np)
    if res.size:
        mask = _tri_mask(xp, input._shape, diagonal, lower)
        res[...] = xp.where(mask, input._arr, xp.zeros((), dtype=res.dtype))
    return finish(res, input._dtype, input.device, out)


@op(out_overlap=None, out="exact")
def tril(input, diagonal: int = 0, *, out=None) -> Tensor:
    """The lower triangle (``j <= i + diagonal``) of the last two dims; the rest zero."""
    return _triangle(input, diagonal, out, True)


@op(out_overlap=None, out="exact")
def triu(input, diagonal: int = 0, *, out=None) -> Tensor:
    """The upper triangle (``j >= i + diagonal``) of the last two dims; the rest zero."""
    return _triangle(input, diagonal, out, False)


def _triangle_(self: Tensor, diagonal: int, lower: bool) -> Tensor:
    name = "tril" if lower else "triu"
    diagonal = int_arg(diagonal, name + "_", "diagonal", 1)
    if len(self._shape) < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    if self.numel():
        xp = _xp(self)
        arr = self._arr
        mask = _tri_mask(xp, self._shape, diagonal, lower)
        if _layout.has_internal_overlap(self._shape, self._stride):
            # (an expanded self, which PyTorch allows: as its kernel, zeros written where
            # the triangle ends, the elements kept not written back)
            arr[xp.broadcast_to(~mask, arr.shape)] = 0
        else:
            arr[...] = xp.where(mask, arr, xp.zeros((), dtype=arr.dtype))
    self._bump()
    return self


@inplace_of(tril)
def tril_(self: Tensor, diagonal: int = 0) -> Tensor:
    return _triangle_(self, diagonal, True)


@inplace_of(triu)
def triu_(self: Tensor, diagonal: int = 0) -> Tensor:
    return _triangle_(self, diagonal, False)


@op(out_overlap=None, out="exact")
def diag(input, diagonal: int = 0, *, out=None) -> Tensor:
    """1-D input: a square matrix with it on the ``diagonal``; 2-D: a copy of that diagonal."""
    input = _tensor_arg(input, "diag", "input", 1)
    n = len(input._shape)
    if n not in (1, 2):
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {n}D")
    xp = _xp(input)
    if n == 1:
        size = input._shape[0] + builtins.abs(diagonal)
        res = call_quiet(xp.zeros, (size, size), dtype=input._dtype._np)  # (MemoryError)
        if input._shape[0]:
            res_t = wrap_array(res, input._dtype, input.device)
            res_t.diagonal(diagonal)._arr[...] = input._arr
            res = res_t._arr
    else:
        res = _c(xp, input.diagonal(diagonal)._arr)
        if xp.may_share_memory(res, input._arr):
            res = res.copy()
    return finish(res, input._dtype, input.device, out)


@op()
def diag_embed(input, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """Batched ``diag``: the last dim of ``input`` placed on the ``offset`` diagonal of the
    (``dim1``, ``dim2``) planes of a new zero tensor with one more dim."""
    input = _tensor_arg(input, "diag_embed", "input", 1)
    n = len(input._shape) + 1
    d1 = _layout.normalize_dim(dim1, n)
    d2 = _layout.normalize_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    size = input._shape[-1] + builtins.abs(offset)
    lead = list(input._shape[:-1])
    shape = []
    for k in range(n):
        shape.append(size if k in (d1, d2) else lead.pop(0))
    xp = _xp(input)
    res = wrap_array(call_quiet(xp.zeros, tuple(shape), dtype=input._dtype._np),
                     input._dtype, input.device)  # (MemoryError: PyTorch's RuntimeError)
    if input.numel():
        res.diagonal(offset, d1, d2)._arr[...] = input._arr
    return res


@op()
def diagflat(input, offset: int = 0) -> Tensor:
    """``diag`` of the flattened input: a square matrix."""
    input = _tensor_arg(input, "diagflat", "input", 1)
    return diag(input.reshape(-1), offset)


@op(method=False)
def block_diag(*tensors) -> Tensor:
    """The inputs (0-D, 1-D rows or 2-D) as blocks along the diagonal of one zero matrix."""
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(t).__name__}")
        if t.dim() > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer "
                               f"dimensions. Input {i} has {t.dim()} dimensions")
    if not tensors:
        return wrap_array(np.empty((1, 0), dtype=_dtypes.get_default_dtype()._np))
    mats = [t.reshape(1, -1) if t.dim() < 2 else t for t in tensors]
    rdt = _dtypes.result_type(*tensors)  # (PyTorch's result_type: a 0-dim input is weaker)
    dev = device_of(*mats)
    xp = backend_for(dev).xp
    rows = builtins.sum(m._shape[0] for m in mats)
    cols = builtins.sum(m._shape[1] for m in mats)
    res = xp.zeros((rows, cols), dtype=rdt._np)
    r = c = 0
    for m in mats:
        h, w = m._shape
        res[r:r + h, c:c + w] = operand(m, rdt, dev)
        r, c = r + h, c + w
    return wrap_array(res, rdt, dev)


# ---------------------------------------------------------------- grids and combinations
_MESHGRID_WARNING = ("torch.meshgrid: in an upcoming release, it will be required to pass the "
                     "indexing argument.")


@op(method=False)
def meshgrid(*tensors, indexing: str | None = None) -> tuple:
    """Coordinate grids: output ``i`` varies along dim ``i`` (``'ij'``) or, for the first two
    inputs swapped, along the ``'xy'`` (Cartesian) axes. The outputs are expanded views."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    tensors = _tensor_list(tensors, "meshgrid")
    if indexing is None:
        warn_once(_MESHGRID_WARNING)
        indexing = "ij"
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but '
                           f"received: {indexing}")
    for t in tensors[1:]:
        if t._dtype is not tensors[0]._dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
        if t.device != tensors[0].device:
            raise RuntimeError("meshgrid expects all tensors to have the same device")
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list "
                               f"but got: {t}")
    ts = list(tensors)
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = tuple(t.numel() for t in ts)
    n = len(ts)
    grids = []
    for i, t in enumerate(ts):
        view = [1] * n
        view[i] = -1
        grids.append(t.reshape(view).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


@op(method=False)
def cartesian_prod(*tensors) -> Tensor:
    """All combinations of one element from each 1-D input: an ``(N, k)`` tensor (1-D when
    there is one input)."""
    for t in tensors:
        if isinstance(t, Tensor) and t.dim() != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t._shape)}")
    if len(tensors) == 1:
        return tensors[0]  # (PyTorch hands the one input back itself)
    grids = meshgrid(*tensors, indexing="ij")
    return stack([g.reshape(-1) for g in grids], 1)


@op(method=False)
def combinations(input, r: int = 2, with_replacement: bool = False) -> Tensor:
    """Length-``r`` combinations of a 1-D tensor's elements (as ``itertools.combinations``),
    one per row."""
    input = _tensor_arg(input, "combinations", "input", 1)
    if input.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input._shape)}")
    r = int_arg(r, "combinations", "r", 2)
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    xp = _xp(input)
    if r == 0:
        return wrap_array(xp.empty((0,), dtype=input._dtype._np), input._dtype, input.device)
    n = input._shape[0]
    if n >= 2 and r * math.log2(n) > 36:
        # (PyTorch builds the n ** r grid of index tuples first and fails to allocate it;
        # counting the combinations here instead would not end)
        raise RuntimeError(f"DefaultCPUAllocator: can't allocate memory: combinations() of "
                           f"{n} elements taken r={r} at a time needs a grid of {n}**{r} "
                           "index tuples. Make r smaller.")
    if r > 2**32:  # (PyTorch first builds a vector of r index grids, and fails there)
        raise RuntimeError(f"std::bad_alloc: combinations() taken r={r} at a time needs r "
                           "index grids. Make r smaller.")
    try:
        gen = (itertools.combinations_with_replacement if with_replacement
               else itertools.combinations)(range(n), r)
        idx = np.fromiter(itertools.chain.from_iterable(gen), dtype=np.int64).reshape(-1, r)
        if not runs_numpy(xp):
            idx = xp.asarray(idx)
        res = input._arr[idx] if idx.size else xp.empty((0, r), dtype=input._dtype._np)
    except MemoryError:  # (as PyTorch's allocator refuses it)
        raise RuntimeError(f"DefaultCPUAllocator: can't allocate memory: combinations() of "
                           f"{n} elements taken r={r} at a time. Make r smaller.") from None
    return wrap_array(_c(xp, res), input._dtype, input.device)


def _tri_count(row: int, col: int, offset: int, lower: bool) -> int:
    """How many elements a ``row x col`` matrix's lower (upper) triangle holds: the sum over
    rows ``i`` of ``clip(i + a, 0, col)``, summed in closed form."""
    a = offset + 1 if lower else col - offset - row + 1
    i0 = min(row, max(0, -a))  # (rows before i0 hold none, rows from i1 on all col)
    i1 = min(row, max(0, col - a))
    return (i1 - i0) * (i0 + i1 - 1 + 2 * a) // 2 + col * (row - i1)


def _tri_indices(row: int, col: int, offset: int, dtype, device, lower: bool) -> Tensor:
    from .._creation import _check_dtype
    from .._device import as_device
    name = "tril_indices" if lower else "triu_indices"
    row, col = int_arg(row, name, "row", 1), int_arg(col, name, "col", 2)
    offset = int_arg(offset, name, "offset", 3)
    dt = _check_dtype(dtype) or _dtypes.int64
    if dt is not _dtypes.int64 and dt is not _dtypes.int32:  # (PyTorch's kernel: these two)
        raise NotImplementedError(f'"{name}" not implemented for \'{dt.cname}\'')
    if row < 0 or col < 0:
        raise RuntimeError(f"row must be non-negative, got {row}" if row < 0 else
                           f"col must be non-negative, got {col}")
    from .._creation import _meta_result
    meta = _meta_result((2, _tri_count(row, col, offset, lower)), dt, device, False)
    if meta is not None:  # (the count of the triangle's elements, without listing them)
        return meta
    fn = np.tril_indices if lower else np.triu_indices
    try:
        host = call_quiet(lambda: np.stack(fn(row, offset, col)).astype(dt._np)) \
            if row and col else np.empty((2, 0), dtype=dt._np)
    except ValueError:  # (NumPy's "Maximum allowed size exceeded")
        raise RuntimeError(f"Storage size calculation overflowed with sizes=[{row}, {col}]") \
            from None
    dev = as_device(device)
    be = backend_for(dev)
    arr = be.from_host(np.ascontiguousarray(host), dev)
    return wrap_array(arr, dt, dev)


@op(method=False)
def tril_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None,
                 layout=None) -> Tensor:
    """The ``(2, N)`` coordinates of a ``row x col`` matrix's lower triangle, row by row."""
    return _tri_indices(row, col, offset, dtype, device, True)


@op(method=False)
def triu_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None,
                 layout=None) -> Tensor:
    """The ``(2, N)`` coordinates of a ``row x col`` matrix's upper triangle, row by row."""
    return _tri_indices(row, col, offset, dtype, device, False)
