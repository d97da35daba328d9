"""View ops: a new layout over the same storage (O(1), nothing copied), each declared once
with ``@op`` on its body; the registry makes the ``Tensor`` method, the ``tensorviz.<name>``
function (where PyTorch has one) and the in-place form (``t_``, ``transpose_`` ...).

Every body takes the tensor first (``input``) and computes the new ``(shape, stride,
offset)`` with the pure functions of ``_layout``, then ``Tensor._view``::

    >>> a = tensorviz.arange(6).reshape(2, 3)
    >>> a.t().stride(), tensorviz.transpose(a, 0, 1).stride()
    ((1, 3), (1, 3))

The in-place view ops give ``input`` the new layout and count a write (``Tensor._bump``),
as PyTorch's version counter does.
"""
from __future__ import annotations

import builtins
import gc
from typing import Sequence

import numpy as np

from .. import _dtypes, _layout
from .._autograd_meta import AutogradMeta
from .._dispatch import inplace_of, op
from .._dtypes import dtype as _dtype_cls
from .._size import Size
from .._tensor import (Tensor, _as_shape, _dims_arg, _index_int, _kw_shape,
                       contiguous_format)


@op(function=False, view=True)
def view(input, *shape, size=None, dtype=None) -> Tensor:
    """Same storage, new shape; RuntimeError when strides make that impossible.

    ``t.view(tensorviz.int32)`` reinterprets the bytes as another dtype instead.
    """
    if size is not None or dtype is not None:
        shape = _kw_shape(shape, size if dtype is None else dtype,
                          "size" if dtype is None else "dtype", "view")
    if len(shape) == 1 and isinstance(shape[0], _dtype_cls):
        return _view_dtype(input, shape[0])
    if len(shape) == 1 and shape[0] in (builtins.float, builtins.int, builtins.bool,
                                        builtins.complex):  # (view(float): float64)
        return _view_dtype(input, _dtypes.as_dtype(shape[0]))
    new_shape = _layout.infer_size(_as_shape(shape), input.numel())
    stride = _layout.view_strides(input._shape, input._stride, new_shape)
    if stride is None:
        raise RuntimeError(_layout.VIEW_ERROR)
    return input._view(new_shape, stride, input._offset)


def _view_dtype(input, dt: _dtype_cls) -> Tensor:
    # Note: the bits shown for a NaN are the ones our kernels stored; IEEE 754 leaves a NaN
    # result's sign and payload unspecified and PyTorch's differ by loop (rsqrt of a negative
    # bfloat16 is 0x7fc0 in its scalar loop, 0xffff in its vectorized one).
    if input._cj and dt is not input._dtype:
        what = "conjugate" if input._dtype.is_complex else "negative"
        raise RuntimeError(f"torch.Tensor.view is not supported for {what} view tensors when "
                           "converting to a different dtype.")
    old, new = input._dtype.itemsize, dt.itemsize
    if old == new:
        return input._view(input._shape, input._stride, input._offset, dt)
    if not input._shape:
        raise RuntimeError(f"input.dim() cannot be 0 to view {input._dtype.cname} as "
                           f"{dt.cname} (different element sizes)")
    if input._stride[-1] != 1:
        raise RuntimeError(f"input.stride(-1) must be 1 to view {input._dtype.cname} as "
                           f"{dt.cname} (different element sizes), but got "
                           f"{input._stride[-1]}")
    shape, stride = list(input._shape), list(input._stride)
    if new > old:
        ratio = new // old
        if shape[-1] % ratio:
            raise RuntimeError(f"input.size(-1) must be divisible by {ratio} to view "
                               f"{input._dtype.cname} as {dt.cname} (different element "
                               f"sizes), but got {shape[-1]}")
        if input._offset % ratio:
            raise RuntimeError(f"input.storage_offset() must be divisible by {ratio} to view "
                               f"{input._dtype.cname} as {dt.cname} (different element "
                               f"sizes), but got {input._offset}")
        for d in range(len(shape) - 1):
            if stride[d] % ratio:
                raise RuntimeError(f"input.stride({d}) must be divisible by {ratio} to view "
                                   f"{input._dtype.cname} as {dt.cname} (different element "
                                   f"sizes), but got {stride[d]}")
            stride[d] //= ratio
        shape[-1] //= ratio
        offset = input._offset // ratio
    else:
        ratio = old // new
        stride = [s * ratio for s in stride[:-1]] + [1]
        shape[-1] *= ratio
        offset = input._offset * ratio
    return input._view(tuple(shape), tuple(stride), offset, dt)


@op(function=False, view=True)
def view_as(input, other: Tensor) -> Tensor:
    """``t.view(other.shape)``."""
    if not isinstance(other, Tensor):
        raise TypeError(f"view_as(): argument 'other' (position 1) must be Tensor, not "
                        f"{type(other).__name__}")
    return input.view(other._shape)


@op(tensor_first="input", view=True)
def reshape(input, *sizes, shape=None) -> Tensor:
    """A view when the strides allow one (as ``view``), otherwise a contiguous copy."""
    shape = sizes if shape is None else _kw_shape(sizes, shape, "shape", "reshape")
    new_shape = _layout.infer_size(_as_shape(shape), input.numel())
    stride = _layout.view_strides(input._shape, input._stride, new_shape)
    if stride is not None:
        return input._view(new_shape, stride, input._offset)
    out = input.clone(memory_format=contiguous_format).view(new_shape)
    out._vb = None  # (a copy: no view of the temporary, as PyTorch's)
    return out


@op(function=False, view=True)
def reshape_as(input, other: Tensor) -> Tensor:
    """``t.reshape(other.shape)``."""
    if not isinstance(other, Tensor):
        raise TypeError(f"reshape_as(): argument 'other' (position 1) must be Tensor, not "
                        f"{type(other).__name__}")
    return input.reshape(other._shape)


@op(tensor_first="input", view=True)
def flatten(input, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Dims ``start_dim..end_dim`` merged into one (a view when the strides allow):
    ``zeros(2, 3, 4).flatten(1).shape == (2, 12)``."""
    if not input._shape:
        # (PyTorch checks the dims' types and range even here: 0 or -1)
        _layout.normalize_dim(start_dim, 0), _layout.normalize_dim(end_dim, 0)
        return input.reshape(1)
    n = len(input._shape)
    s, e = _layout.normalize_dim(start_dim, n), _layout.normalize_dim(end_dim, n)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    merged = _layout.numel(input._shape[s:e + 1])
    return input.reshape(input._shape[:s] + (merged,) + input._shape[e + 1:])


@op(tensor_first="input", view=True)
def ravel(input) -> Tensor:
    """All elements in one dim: ``contiguous().view(-1)``."""
    # (PyTorch: contiguous().view(-1): a view of a contiguous tensor, else a copy, even
    # where reshape could have viewed a stepped 1-D tensor)
    return input.contiguous().view(-1)


@op(tensor_first="input", view=True)
def unflatten(input, dim: int, sizes: Sequence[int]) -> Tensor:
    """Dim ``dim`` split into ``sizes`` (a view): ``zeros(2, 12).unflatten(1, (3, 4))``."""
    n = len(input._shape)
    d = _layout.normalize_dim(dim, n)
    sizes = tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if not n:
        raise RuntimeError("unflatten got an unexpected error:\nDimension specified as 0 "
                           "but tensor has no dimensions")
    sizes = _as_shape((sizes,))
    if -1 not in sizes and _layout.numel(sizes) != input._shape[d]:
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to "
                           f"the size of dim {d} ({input._shape[d]}) in the input tensor")
    inner = _layout.infer_size(sizes, input._shape[d])
    return input.view(input._shape[:d] + inner + input._shape[d + 1:])


@op(tensor_first="input", view=True)
def select(input, dim: int, index: int) -> Tensor:
    """The slice at ``index`` along ``dim``, that dim removed: ``t.select(0, 1)`` is ``t[1]``."""
    return input._view(*_layout.select(input._shape, input._stride, input._offset, dim,
                                      _index_int(index)))


@op(tensor_first="input", view=True)
def narrow(input, dim: int, start: int, length: int) -> Tensor:
    """``length`` elements from ``start`` along ``dim``: ``t.narrow(1, 1, 2)`` is ``t[:, 1:3]``."""
    if isinstance(start, Tensor) and (start._shape or start._dtype.category != _dtypes._INT or
                                      start._dtype.name == "bool"):
        raise RuntimeError("start must be an 0-dim integral Tensor.")
    return input._view(*_layout.narrow(input._shape, input._stride, input._offset, dim,
                                      _index_int(start), _index_int(length)))


@op(aliases=("swapdims",), tensor_first="input", view=True)
def transpose(input, dim0: int, dim1: int) -> Tensor:
    """Dims ``dim0`` and ``dim1`` swapped (sizes and strides): ``t.transpose(0, 1)``."""
    return input._view(*_layout.transpose(input._shape, input._stride, input._offset, dim0,
                                         dim1))


@op(tensor_first="input", view=True)
def swapaxes(input, axis0: int, axis1: int) -> Tensor:
    """``transpose`` with NumPy's argument names."""
    return input.transpose(axis0, axis1)


@op(tensor_first="input", view=True)
def t(input) -> Tensor:
    """A matrix transposed (of a 1-D or 0-D tensor: a view with its layout, as PyTorch's):
    ``a.t().stride() == (1, 3)`` for a row-major 2x3 ``a``."""
    shape = input._shape
    if len(shape) == 2:  # transpose(0, 1), computed directly: swap sizes and strides
        st = input._stride
        return input._view((shape[1], shape[0]), (st[1], st[0]), input._offset)
    if len(shape) > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{len(shape)}D")
    return input._view(shape, input._stride, input._offset)


def _warn_once(message: str, user_line: bool = False) -> None:
    """PyTorch's TORCH_WARN_ONCE: once per process (``indexing.warn_once``), attributed to
    the op's caller (``user_line``: to the first line outside tensorviz)."""
    from .indexing import warn_once
    warn_once(message, stacklevel=None if user_line else 4)


@op(method="property", function=False, view=True)
def T(input) -> Tensor:
    """All dims reversed (PyTorch warns unless the tensor is 2-D)."""
    n = len(input._shape)
    if n == 0:
        _warn_once("Tensor.T is deprecated on 0-D tensors. This function is the identity "
                   "in these cases.")
    elif n != 2:
        _warn_once("The use of `x.T` on tensors of dimension other than 2 to reverse "
                   "their shape is deprecated and it will throw an error in a future "
                   "release. Consider `x.mT` to transpose batches of matrices or "
                   "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the "
                   "dimensions of a tensor.")
    return input.permute(*range(n - 1, -1, -1))


@op(method="property", function=False, view=True)
def mT(input) -> Tensor:
    """The last two dims swapped: a batch of matrices transposed."""
    if not input._shape:
        _warn_once("Tensor.mT is deprecated on 0-D tensors. This function is the "
                   "identity in these cases.")
        return input._view(input._shape, input._stride, input._offset)
    if len(input._shape) < 2:
        raise RuntimeError(f"tensor.mT is only supported on matrices or batches of "
                           f"matrices. Got {len(input._shape)}-D tensor.")
    return input.transpose(-2, -1)


def _conj_transpose(input: Tensor, name: str, matrices_only: bool) -> Tensor:
    """PyTorch's ``numpy_H``/``matrix_H``/``adjoint``: the last two dims swapped and
    conjugated; a 0-D tensor conjugated (deprecated, warned once); a 1-D one (and, for
    ``H``, more than 2 dims) refused."""
    n = len(input._shape)
    if n == 0:
        _warn_once(f"{'Tensor.' + name if name != 'adjoint' else 'adjoint()'} is deprecated "
                   "on 0-D tensors. Consider using x.conj().", user_line=True)
        return input.conj()
    if matrices_only and n != 2:
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {n}-D "
                           "tensor." + (" For batches of matrices, consider using tensor.mH"
                                        if n > 2 else ""))
    if n == 1:
        shown = "adjoint()" if name == "adjoint" else name
        raise RuntimeError(f"tensor.{shown} is only supported on matrices or batches of "
                           "matrices. Got 1-D tensor.")
    v = input.transpose(-2, -1)
    return v.conj() if input.is_complex() else v


@op(method="property", function=False, view=True)
def H(input) -> Tensor:
    """The conjugate transpose of a matrix (2-D only, as PyTorch's; ``mH`` for batches).

    >>> tensorviz.tensor([[1 + 2j, 3j]]).H
    tensor([[1.-2.j],
            [0.-3.j]])
    """
    return _conj_transpose(input, "H", True)


@op(method="property", function=False, view=True)
def mH(input) -> Tensor:
    """The conjugate transpose of a matrix or a batch of them (the last two dims).

    >>> tensorviz.ones(5, 2, 3).mH.shape
    tensorviz.Size([5, 3, 2])
    """
    return _conj_transpose(input, "mH", False)


@op(tensor_first="input", view=True)
def adjoint(input) -> Tensor:
    """``mH``: the conjugate transpose of the last two dims.

    >>> tensorviz.adjoint(tensorviz.tensor([[1j, 2]]))
    tensor([[0.-1.j],
            [2.+0.j]])
    """
    return _conj_transpose(input, "adjoint", False)


@op(tensor_first="input", view=True)
def permute(input, *args, dims=None) -> Tensor:
    """The dims reordered: ``zeros(2, 3, 4).permute(2, 0, 1).shape == (4, 2, 3)``."""
    dims = args if dims is None else _kw_shape(args, dims, "dims", "permute")
    return input._view(*_layout.permute(input._shape, input._stride, input._offset,
                                       _as_shape(dims, "dims")))


@op(aliases=("moveaxis",), tensor_first="input", view=True)
def movedim(input, source, destination) -> Tensor:
    """Dims ``source`` moved to positions ``destination``, the rest keeping their order."""
    src, dst = _dims_arg(source), _dims_arg(destination)
    return input._view(*_layout.movedim(input._shape, input._stride, input._offset, src, dst))


@op(tensor_first="input", view=True)
def unsqueeze(input, dim: int) -> Tensor:
    """A size-1 dim inserted at ``dim``: ``zeros(3).unsqueeze(0).shape == (1, 3)``."""
    return input._view(*_layout.unsqueeze(input._shape, input._stride, input._offset, dim))


class _AllDims:
    """``squeeze``'s default: every size-1 dim (an explicit ``dim=None`` is PyTorch's
    TypeError: no overload takes it)."""

    def __repr__(self) -> str:
        return "None"


_ALL_DIMS = _AllDims()


@op(tensor_first="input", view=True)
def squeeze(input, dim=_ALL_DIMS) -> Tensor:
    """Size-1 dims removed (all, or those among ``dim``)."""
    if dim is _ALL_DIMS:
        dim = None
    elif type(dim) is not int:
        if dim is None:
            raise TypeError("squeeze() received an invalid combination of arguments - got "
                            "(NoneType), but expected one of: (Tensor input), (Tensor input, "
                            "int dim), (Tensor input, tuple of ints dim)")
        dim = _dims_arg(dim)
    return input._view(*_layout.squeeze(input._shape, input._stride, input._offset, dim))


@op(function=False, view=True)
def expand(input, *sizes, size=None) -> Tensor:
    """Size-1 dims repeated to ``sizes`` with stride 0 (no copy); ``-1`` keeps a dim."""
    if size is not None:
        sizes = _kw_shape(sizes, size, "size", "expand")
    return input._view(*_layout.expand(input._shape, input._stride, input._offset,
                                      _as_shape(sizes)))


@op(function=False, view=True)
def expand_as(input, other: Tensor) -> Tensor:
    """``t.expand(other.shape)``."""
    if not isinstance(other, Tensor):
        raise TypeError(f"expand_as(): argument 'other' (position 1) must be Tensor, not "
                        f"{type(other).__name__}")
    return input.expand(other._shape)


@op(tensor_first="input", view=True)
def broadcast_to(input, size) -> Tensor:
    """``t.expand(size)``: the view broadcasting would make."""
    return input.expand(_as_shape((size,)) if not isinstance(size, int)
                       else (size,))


@op(function=False, view=True)
def unfold(input, dimension: int, size: int, step: int) -> Tensor:
    """Windows of ``size`` every ``step`` along ``dimension``, as a new last dim."""
    return input._view(*_layout.unfold(input._shape, input._stride, input._offset, dimension,
                                      size, step))


@op(tensor_first="input", view=True)
def diagonal(input, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The diagonal ``offset`` of the ``dim1``/``dim2`` plane, as a new last dim."""
    return input._view(*_layout.diagonal(input._shape, input._stride, input._offset, offset,
                                        dim1, dim2))


@op(tensor_first="input", view=True)
def as_strided(input, size, stride, storage_offset: int | None = None) -> Tensor:
    """A view with any layout, bounds-checked so it never reads outside the storage."""
    size, stride = _as_shape((size,)), _as_shape((stride,), "stride")
    offset = input._offset if storage_offset is None else _index_int(storage_offset)
    n = input._storage.nbytes() // input._dtype.itemsize
    _layout.check_as_strided(size, stride, offset, n, input._dtype.itemsize)
    return input._view(size, stride, offset)


# In-place view ops: this tensor takes the new layout (same storage); like every in-place
# op they count as a write in the version counter, as in PyTorch.
def _relayout_(input: Tensor, new: Tensor) -> Tensor:
    input._set_layout(input._storage, new._offset, new._shape, new._stride)
    input._bump()
    return input


@inplace_of(t)
def t_(input) -> Tensor:
    """In place: ``t`` takes the layout of ``t.t()``."""
    return _relayout_(input, input.t())


@inplace_of(transpose)
def transpose_(input, dim0: int, dim1: int) -> Tensor:
    """In place: ``t`` takes the layout of ``t.transpose(dim0, dim1)``."""
    return _relayout_(input, input.transpose(dim0, dim1))


@inplace_of(swapaxes)
def swapaxes_(input: Tensor, axis0: int, axis1: int) -> Tensor:
    """In place: ``t`` takes the layout of ``t.swapaxes(axis0, axis1)``."""
    return transpose_(input, axis0, axis1)


@inplace_of(squeeze)
def squeeze_(input, dim=_ALL_DIMS) -> Tensor:
    """In place: ``t`` takes the layout of ``t.squeeze(dim)``."""
    return _relayout_(input, input.squeeze(dim))


@inplace_of(unsqueeze)
def unsqueeze_(input, dim: int) -> Tensor:
    """In place: ``t`` takes the layout of ``t.unsqueeze(dim)``."""
    return _relayout_(input, input.unsqueeze(dim))


@inplace_of(as_strided)
def as_strided_(input, size, stride, storage_offset: int | None = None) -> Tensor:
    """In place: ``t`` takes the layout ``(size, stride, storage_offset)``."""
    return _relayout_(input, input.as_strided(size, stride, storage_offset))


def _split_function(tensor: Tensor, split_size_or_sections, dim: int = 0
                    ) -> tuple[Tensor, ...]:
    """``tensorviz.split(t, 2)`` is ``t.split(2)`` (PyTorch's keyword names)."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"split(): argument 'tensor' must be Tensor, not "
                        f"{type(tensor).__name__}")
    return split(tensor, split_size_or_sections, dim)


@op(function=_split_function, view=True)
def split(input, split_size, dim: int = 0) -> tuple[Tensor, ...]:
    """Views of ``split_size`` elements along ``dim`` (the last may be shorter), or of the
    given sizes: ``arange(5).split(2)`` has sizes 2, 2, 1."""
    d = _layout.normalize_dim(dim, len(input._shape))
    if not input._shape:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    size = input._shape[d]
    if isinstance(split_size, Tensor) and split_size.numel() == 1 and \
            split_size._dtype.category <= _dtypes._INT:
        split_size = split_size.item()  # (a one-element integer tensor is an int here)
    if isinstance(split_size, (int, np.integer)):
        sizes = _layout.split_sizes(size, int(split_size))
    else:
        sizes = [int(s) for s in split_size]
        if sum(sizes) != size or any(s < 0 for s in sizes):
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to "
                               f"{size} (input tensor's size at dimension {d}), but got "
                               f"split_sizes={sizes}")
    return _pieces(input, d, sizes)


@op(function=False, view=True)
def split_with_sizes(input, split_sizes, dim: int = 0):
    """``split`` with a list of sizes."""
    return input.split(list(split_sizes), dim)


def _pieces(input, d: int, sizes: Sequence[int]) -> tuple[Tensor, ...]:
    bounds, start = [], 0
    for s in sizes:
        s = builtins.int(s)  # (a size computed from a one-element tensor argument)
        bounds.append((start, start + s))
        start += s
    return _multi(_views_along(input, d, bounds))


class _MultiViewMeta(AutogradMeta):
    """A record that says only "made by a function returning several views" (a class
    attribute: making one sets nothing)."""
    creation = "multi"


def _multi(views: tuple) -> tuple:
    """Mark ``views`` as outputs of one function returning several views (split, chunk,
    unbind): PyTorch refuses in-place writes through them that autograd would record."""
    for v in views:
        if v._ag is None:
            v._ag = _MultiViewMeta()
        elif not v._ag.creation:  # (made under no_grad: that creation wins, as PyTorch's)
            v._ag.creation = "multi"
    return views


def _views_along(input, d: int, bounds) -> tuple[Tensor, ...]:
    """One view of ``input`` per ``(start, stop)`` along dim ``d`` (in range by construction).

    Made directly, not through narrow's checks, and with the cyclic garbage collector paused:
    a million pieces are a million new objects, and the collector's passes over them (none
    of which can be in a cycle) would triple the time.  A million sections take half a
    second, as ``torch.tensor_split(t, 10**6)`` does."""
    shape, stride, base, step = list(input._shape), input._stride, input._offset, \
        input._stride[d]
    view = input._view
    out = []
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        for a, b in bounds:
            shape[d] = b - a
            out.append(view(tuple(shape), stride, base + a * step))
    finally:
        if paused:
            gc.enable()
    return tuple(out)


@op(tensor_first="input", view=True)
def chunk(input, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """``chunks`` views along ``dim``, each ``ceil(size / chunks)`` long (the last shorter)."""
    if not input._shape:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:  # (checked before the dim, as PyTorch does)
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = _layout.normalize_dim(dim, len(input._shape))
    return _pieces(input, d, _layout.chunk_sizes(input._shape[d], chunks))


@op(tensor_first="input", view=True)
def hsplit(input, sections=None, *, indices=None) -> tuple[Tensor, ...]:
    """``tensor_split`` along dim 1 (dim 0 of a 1-D tensor); equal sections only."""
    return _np_split(input, "hsplit", 1, 0 if len(input._shape) == 1 else 1, sections, indices)


@op(tensor_first="input", view=True)
def vsplit(input, sections=None, *, indices=None) -> tuple[Tensor, ...]:
    """``tensor_split`` along dim 0; equal sections only."""
    return _np_split(input, "vsplit", 2, 0, sections, indices)


@op(tensor_first="input", view=True)
def dsplit(input, sections=None, *, indices=None) -> tuple[Tensor, ...]:
    """``tensor_split`` along dim 2; equal sections only."""
    return _np_split(input, "dsplit", 3, 2, sections, indices)


def _np_split(input, name: str, min_dims: int, d: int, sections,
              indices) -> tuple[Tensor, ...]:
    """NumPy-style splits: ``sections`` must divide the dim; ``indices`` cut it."""
    n = len(input._shape)
    if n < min_dims:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {min_dims} "
                           f"dimension, but got a tensor with {n} dimensions!")
    arg = indices if sections is None else sections
    if isinstance(arg, Tensor) and not arg._shape:
        arg = _index_int(arg)
    if isinstance(arg, (int, np.integer)) and not isinstance(arg, bool):
        if not -2**63 <= arg < 2**63:
            raise ValueError("Overflow when unpacking long long")
        size = input._shape[d]
        if arg == 0 or size % arg:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {d}, but "
                               f"the size of the dimension {size} is not divisible by the "
                               f"split_size {arg}!")
        return _tensor_split(input, int(arg), d)
    if not isinstance(arg, (list, tuple)):
        raise TypeError(f"{name}() received an invalid combination of arguments - got "
                        f"({type(arg).__name__}), but expected (int sections) or (tuple of "
                        f"ints indices)")
    return _tensor_split(input, [_index_int(i) for i in arg], d)


def _tensor_split(input, indices_or_sections, dim: int = 0) -> tuple[Tensor, ...]:
    if not input._shape:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got "
                           "a tensor with 0 dims")
    d = _layout.normalize_dim(dim, len(input._shape))
    if isinstance(indices_or_sections, Tensor):
        indices_or_sections = indices_or_sections.tolist()
    bounds = _layout.tensor_split_bounds(input._shape[d], indices_or_sections)
    return _views_along(input, d, bounds)


@op(tensor_first="input", view=True)
def unbind(input, dim: int = 0) -> tuple[Tensor, ...]:
    """Every slice along ``dim``, that dim removed: ``tuple(t.select(dim, i) ...)``."""
    if not input._shape:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    d = _layout.normalize_dim(dim, len(input._shape))
    return _multi(tuple(input.select(d, i) for i in range(input._shape[d])))


_SPLIT_SIGNATURES = ("(Tensor input, Tensor tensor_indices_or_sections, int dim = 0), "
                     "(Tensor input, int sections, int dim = 0), "
                     "(Tensor input, tuple of ints indices, int dim = 0)")


@op(view=True)
def tensor_split(input: Tensor, *args, **kwargs) -> tuple[Tensor, ...]:
    """``tensor_split(input, sections | indices | tensor_indices_or_sections, dim=0)`` with
    PyTorch's three signatures (one of the three given, by position or by its keyword)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"tensor_split(): argument 'input' must be Tensor, not "
                        f"{type(input).__name__}")
    names = ("sections", "indices", "tensor_indices_or_sections")
    given = [n for n in names if n in kwargs]
    unknown = [k for k in kwargs if k not in names + ("dim",)]
    # exactly one of the three, by position (then dim may follow it) or by keyword
    n_split = len(given) + builtins.min(len(args), 1)
    n_dim = builtins.max(len(args) - 1, 0) + ("dim" in kwargs)
    if unknown or n_split != 1 or n_dim > 1 or (given and args):
        got = ", ".join(["Tensor"] + [type(a).__name__ for a in args] +
                        [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        raise TypeError(f"tensor_split() received an invalid combination of arguments - got "
                        f"({got}), but expected one of: {_SPLIT_SIGNATURES}")
    if given:
        name = given[0]
        arg = kwargs[name]
    else:
        name, arg = None, args[0]
    dim = kwargs.get("dim", args[1] if len(args) > 1 else 0)
    if isinstance(arg, Tensor):
        if name not in (None, "tensor_indices_or_sections"):
            raise TypeError(f"tensor_split() received an invalid combination of arguments - got "
                            f"(Tensor, {name}=Tensor), but expected one of: {_SPLIT_SIGNATURES}")
        if arg._dtype is not _dtypes.int64:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype "
                               f"of long, but got {_SCALAR_NAMES[arg._dtype.name]}")
        if len(arg._shape) > 1:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be a "
                               f"zero-dimensional or one-dimensional tensor, but got a tensor "
                               f"with {len(arg._shape)} dims")
        arg = builtins.int(arg.item()) if not arg._shape else [builtins.int(v) for v in
                                                                arg.tolist()]
    elif name == "tensor_indices_or_sections":
        raise TypeError(f"tensor_split(): argument 'tensor_indices_or_sections' must be "
                        f"Tensor, not {type(arg).__name__}")
    elif isinstance(arg, (builtins.int, np.integer)) and not isinstance(arg, builtins.bool):
        if name == "indices":
            raise TypeError(f"tensor_split(): argument 'indices' must be tuple of ints, not "
                            f"{type(arg).__name__}")
        arg = builtins.int(arg)
        if not -2**63 <= arg < 2**63:
            raise ValueError("Overflow when unpacking long long")
    elif isinstance(arg, (list, tuple, Size)):
        if name == "sections":
            raise TypeError(f"tensor_split(): argument 'sections' must be int, not "
                            f"{type(arg).__name__}")
        arg = [_as_index(v) for v in arg]
    else:
        raise TypeError(f"tensor_split() received an invalid combination of arguments - got "
                        f"(Tensor, {type(arg).__name__}), but expected one of: "
                        f"{_SPLIT_SIGNATURES}")
    return _tensor_split(input, arg, dim)


_SCALAR_NAMES = {"bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short",
                 "int32": "Int", "int64": "Long", "float16": "Half", "float32": "Float",
                 "float64": "Double", "complex64": "ComplexFloat",
                 "complex128": "ComplexDouble"}


def _as_index(v) -> int:
    if isinstance(v, Tensor) and not v._shape and v._dtype.category == _dtypes._INT:
        return builtins.int(v.item())
    if isinstance(v, (builtins.int, np.integer)) and not isinstance(v, builtins.bool):
        return builtins.int(v)
    raise TypeError(f"tensor_split(): argument 'indices' must be tuple of ints, but found "
                    f"element of type {type(v).__name__}")


@op(method=False)
def broadcast_shapes(*shapes) -> Size:
    """The shape that tensors of ``shapes`` broadcast to (RuntimeError if they cannot)."""
    norm = [(s,) if isinstance(s, int) else tuple(s) for s in shapes]
    return Size(_layout.broadcast_shapes(*norm))


@op(method=False)
def broadcast_tensors(*tensors: Tensor) -> tuple[Tensor, ...]:
    """Views of ``tensors`` expanded to their common shape (stride 0 on broadcast dims)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shape = _layout.broadcast_shapes(*(t._shape for t in tensors))
    # (a tensor of that shape already is returned itself, as PyTorch's expand_outplace does)
    return tuple(t if t._shape == shape else t.expand(shape) for t in tensors)


@op(method=False)
def atleast_1d(*tensors):
    """Each tensor with at least one dim (a 0-dim one becomes shape ``(1,)``)."""
    return _atleast(tensors, 1)


@op(method=False)
def atleast_2d(*tensors):
    """Each tensor with at least two dims (new leading dims of size 1)."""
    return _atleast(tensors, 2)


@op(method=False)
def atleast_3d(*tensors):
    """Each tensor with at least three dims (as NumPy's ``atleast_3d``)."""
    return _atleast(tensors, 3)


def _atleast(tensors: Sequence[Tensor], n: int):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return tuple(_atleast((t,), n) for t in tensors[0])
    out = []
    for t in tensors:
        if n == 1:
            r = t.reshape(1) if t.dim() == 0 else t
        elif n == 2:
            r = t.reshape(1, 1) if t.dim() == 0 else (t.unsqueeze(0) if t.dim() == 1 else t)
        else:
            r = (t.reshape(1, 1, 1) if t.dim() == 0 else t.unsqueeze(0).unsqueeze(-1)
                 if t.dim() == 1 else t.unsqueeze(-1) if t.dim() == 2 else t)  # (as PyTorch)
        out.append(r)
    return out[0] if len(out) == 1 else tuple(out)


@op(method=False, tensor_first="input")
def detach(input: Tensor) -> Tensor:
    """``tensorviz.detach(t)`` is ``t.detach()``: a view that autograd does not track."""
    return input.detach()
