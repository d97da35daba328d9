"""Layout arithmetic: pure functions on ``(shape, stride, offset)``, no data.

A strided tensor addresses storage element ``offset + sum(i[d] * stride[d])`` for the logical
index ``i``.  Every view op is a function from one layout to another; the engine applies them to
a tensor (same storage, new layout) and the widgets call the same functions to explain *why* a
layout is what it is.  All sizes, strides and offsets count elements, never bytes.

    for i, j in ndindex(shape):  value[i, j] = storage[offset + i * stride[0] + j * stride[1]]
"""
from __future__ import annotations

from typing import Iterable, Sequence

Shape = tuple[int, ...]
Strides = tuple[int, ...]
Layout = tuple[Shape, Strides, int]  # (shape, stride, offset)


# ---------------------------------------------------------------- basic facts
def numel(shape: Sequence[int]) -> int:
    """Number of elements: the product of the sizes (1 for a 0-dim tensor)."""
    n = 1
    for s in shape:
        n *= s
    return n


def contiguous_strides(shape: Sequence[int]) -> Strides:
    """Row-major strides: ``stride[d] = prod(shape[d+1:])`` (size-0/1 dims count as 1)."""
    stride = [1] * len(shape)
    acc = 1
    for d in range(len(shape) - 1, -1, -1):
        stride[d] = acc
        acc *= max(shape[d], 1)
    return tuple(stride)


def is_contiguous(shape: Sequence[int], stride: Sequence[int]) -> bool:
    """PyTorch's definition: row-major, ignoring size-1 dims; empty tensors are contiguous.

    The offset does not matter: ``t[1]`` of a contiguous matrix is contiguous.
    """
    if 0 in shape:
        return True
    expected = 1
    for d in range(len(shape) - 1, -1, -1):
        size = shape[d]
        if size != 1:
            if stride[d] != expected:
                return False
            expected *= size
    return True


def contiguity_reason(shape: Sequence[int], stride: Sequence[int]) -> str:
    """A sentence saying why a layout is, or is not, contiguous (for teaching).

    Every claim in it holds for this very layout (tested on random layouts, size-0, size-1
    and 0-dim included): a size-1 dim never steps, so its stride is not claimed to be anything::

        contiguity_reason((1, 3), (1, 1))
        -> "contiguous: dim 1 (size > 1) has stride 1, the product of the sizes after it;
            size-1 dim 0 never steps, so its stride does not matter"
    """
    if len(shape) == 0:
        return "contiguous: a 0-dim tensor is one element, at storage_offset"
    if 0 in shape:
        return (f"contiguous: it has no elements (dim {list(shape).index(0)} has size 0), "
                "so no stride is ever used")
    if is_contiguous(shape, stride):
        ones = [d for d, n in enumerate(shape) if n == 1]
        if len(ones) == len(shape):
            return "contiguous: it has one element, so no stride is ever used"
        if all(st == e for st, e in zip(stride, contiguous_strides(shape))):
            return "contiguous: each dim's stride is the product of the sizes after it"
        big = [d for d in range(len(shape)) if shape[d] != 1]
        which = (f"dim {big[0]} (size > 1) has stride {stride[big[0]]}, the product of the "
                 "sizes after it" if len(big) == 1 else
                 f"dims {_join(big)} (size > 1) each have stride = the product of the sizes "
                 "after them")
        if len(ones) == 1:
            return (f"contiguous: {which}; size-1 dim {ones[0]} never steps, so its stride "
                    "does not matter")
        return (f"contiguous: {which}; size-1 dims {_join(ones)} never step, so their strides "
                "do not matter")
    expected = 1
    for d in range(len(shape) - 1, -1, -1):
        size = shape[d]
        if size != 1:
            if stride[d] != expected:
                if stride[d] == 0:
                    return (f"not contiguous: dim {d} is broadcast (stride 0), so its {size} "
                            "indices read one storage slot")
                return (f"not contiguous: dim {d} has stride {stride[d]}, but row-major order "
                        f"needs {expected} (the product of the sizes after it)")
            expected *= size
    raise AssertionError("unreachable: is_contiguous said no")  # pragma: no cover


def _join(dims: Sequence[int]) -> str:
    return ", ".join(str(d) for d in dims[:-1]) + f" and {dims[-1]}"


def is_non_overlapping_and_dense(shape: Sequence[int], stride: Sequence[int]) -> bool:
    """Whether the elements fill a block of storage exactly once in some dim order."""
    if is_contiguous(shape, stride):  # (PyTorch: also every tensor without elements)
        return True
    if len(shape) == 1:
        return shape[0] < 2 or stride[0] == 1
    # PyTorch's rule: dims by increasing stride, size-0/1 dims last (and ending the check)
    perm = sorted(range(len(shape)), key=lambda d: (shape[d] < 2, stride[d]))
    expected = 1
    for d in perm:
        if shape[d] < 2:
            return True
        if stride[d] != expected:
            return False
        expected *= shape[d]
    return True


def dense_strides(shape: Sequence[int], stride: Sequence[int]) -> Strides:
    """Dense strides keeping the dim order of ``stride`` (PyTorch's ``infer_dense_strides``).

    Dims are ordered fastest-first by stride (ties: the smaller size first); a stride-0 dim
    does not move, so broadcast dims keep their row-major place::

        (2, 3) with stride (1, 2)  ->  (1, 2)      (3, 4) with stride (1, 0)  ->  (4, 1)
    """
    n = len(shape)
    if n < 2:
        return (1,) * n
    perm = list(range(n - 1, -1, -1))  # fastest first, as for a contiguous tensor
    for i in range(1, n):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            a, b = perm[d0], perm[d1]
            s0, s1 = stride[a], stride[b]
            if s0 == 0 or s1 == 0:
                continue
            if s0 < s1:
                break
            if s0 > s1 or shape[a] > shape[b]:
                perm[d0], perm[d1] = b, a
                d1 = d0
    out = [0] * n
    acc = 1
    for d in perm:
        out[d] = acc
        if shape[d] > 1:
            acc *= shape[d]
    return tuple(out)


def preserve_strides(shape: Sequence[int], stride: Sequence[int]) -> Strides:
    """The strides of a copy made with ``preserve_format`` (``clone()``, ``to(dtype)``,
    ``zeros_like``): a dense layout keeps its strides, any other its dim order."""
    if is_non_overlapping_and_dense(shape, stride):
        return tuple(stride)
    return dense_strides(shape, stride)


def cast_strides(shape: Sequence[int], stride: Sequence[int]) -> Strides:
    """The strides of ``x.to(dtype)`` (``_to_copy`` with ``preserve_format``): the copy
    PyTorch's CPU TensorIterator makes of an input whose dtype is not the one the op computes
    in, before it lays out the result.  As ``preserve_strides``: a dense layout keeps its
    strides, any other its dim order::

        (1, 2) with stride (4, 2)  ->  (2, 1)
    """
    return preserve_strides(shape, stride)


# ---------------------------------------------------------------- memory formats
# The dims of an NCHW (NCDHW) layout from fastest to slowest in channels-last order: C, W, H, N.
_CHANNELS_LAST_ORDER = {4: (1, 3, 2, 0), 5: (1, 4, 3, 2, 0)}
_FORMAT_RANK = {"channels_last": 4, "channels_last_3d": 5}


def channels_last_strides(shape: Sequence[int]) -> Strides:
    """NHWC (NDHWC) strides of a 4-D (5-D) shape: C is fastest, then W, H (D), N::

        (1, 3, 4, 5)  ->  (60, 1, 15, 3)

    As PyTorch's ``get_channels_last_strides_2d``, a size-0 dim makes the strides after it 0.
    """
    order = _CHANNELS_LAST_ORDER.get(len(shape))
    if order is None:
        raise ValueError(f"channels-last strides need a 4-D or 5-D shape, got {len(shape)}-D")
    out = [0] * len(shape)
    acc = 1
    for d in order:
        out[d] = acc
        acc *= shape[d]
    return tuple(out)


def is_channels_last_contiguous(shape: Sequence[int], stride: Sequence[int]) -> bool:
    """PyTorch's ``is_contiguous(memory_format=channels_last[_3d])`` for a 4-D (5-D) layout:
    dense in channels-last order, size-1 dims ignored (no shortcut for empty tensors).
    Other ranks are never channels-last contiguous."""
    order = _CHANNELS_LAST_ORDER.get(len(shape))
    if order is None:
        return False
    expected = 1
    for d in order:
        size = shape[d]
        if size != 1:
            if stride[d] != expected:
                return False
            expected *= size
    return True


def is_channels_last_strides(shape: Sequence[int], stride: Sequence[int]) -> bool:
    """Whether strides *look like* channels last (PyTorch's ``is_channels_last_strides_2d/3d``),
    the guess behind ``suggest_memory_format``.  Walking C, W, H (D), N, each stride must be
    at least the previous one times its size; ambiguous layouts count as row-major::

        (2, 3, 4, 5) stride (60, 1, 15, 3)  ->  True      a stride-0 C dim  ->  False
        (2, 1, 1, 1) stride (1, 1, 1, 1)    ->  False     (N111: row-major by default)
    """
    order = _CHANNELS_LAST_ORDER.get(len(shape))
    if order is None or stride[1] == 0:
        return False
    low = 0
    for d in order:
        if shape[d] == 0 or stride[d] < low:
            return False
        if d == 0 and low == stride[1]:
            return False
        low = stride[d]
        if shape[d] > 1:
            low *= shape[d]
    return True


def suggest_memory_format(shape: Sequence[int], stride: Sequence[int]) -> str:
    """PyTorch's ``suggest_memory_format``: ``'channels_last'`` for a 4-D layout whose strides
    look channels-last, ``'channels_last_3d'`` likewise for 5-D, else ``'contiguous_format'``."""
    if is_channels_last_strides(shape, stride):
        return "channels_last" if len(shape) == 4 else "channels_last_3d"
    return "contiguous_format"


def check_format_rank(ndim: int, fmt: str) -> None:
    """PyTorch's RuntimeError when ``fmt`` does not fit a tensor of ``ndim`` dims."""
    rank = _FORMAT_RANK.get(fmt)
    if rank is not None and ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {fmt} format")


def format_strides(shape: Sequence[int], fmt: str) -> Strides:
    """The strides of a new tensor of ``shape`` in memory format ``fmt`` (its name)."""
    if fmt == "contiguous_format":
        return contiguous_strides(shape)
    if fmt == "preserve_format":
        raise RuntimeError("unsupported memory format Preserve")
    check_format_rank(len(shape), fmt)
    return channels_last_strides(shape)


def is_contiguous_as(shape: Sequence[int], stride: Sequence[int], fmt: str) -> bool:
    """``is_contiguous(memory_format=fmt)``: channels-last formats ask for their own order;
    ``contiguous_format`` and ``preserve_format`` for row-major (as PyTorch answers)."""
    rank = _FORMAT_RANK.get(fmt)
    if rank is None:
        return is_contiguous(shape, stride)
    return len(shape) == rank and is_channels_last_contiguous(shape, stride)


def copy_strides(shape: Sequence[int], stride: Sequence[int], fmt: str) -> Strides:
    """The strides of a copy made with memory format ``fmt`` (``clone``, ``to``, ``*_like``):
    ``preserve_format`` keeps a dense layout (any other: its dim order), the rest as
    ``format_strides``."""
    if fmt == "preserve_format":
        return preserve_strides(shape, stride)
    return format_strides(shape, fmt)


def iterator_order(shape: Sequence[int], aligned: Sequence[Sequence[int]]) -> list[int]:
    """The dims fastest first, as PyTorch's TensorIterator orders them (``reorder_dimensions``,
    an insertion sort): ``aligned`` holds each operand's strides for ``shape``'s dims (0 where
    broadcast); the first operand that tells two dims apart decides, a stride 0 never does,
    and on equal strides the larger dim goes outside."""
    n = len(shape)

    def should_swap(d0: int, d1: int) -> int:
        for b in aligned:
            s0, s1 = b[d0], b[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 < s1:
                return -1
            if s0 > s1 or shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(range(n - 1, -1, -1))  # fastest first
    for i in range(1, n):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    return perm


def elementwise_strides(shape: Sequence[int],
                        operands: Sequence[tuple[Sequence[int], Sequence[int]]]) -> Strides:
    """Strides of the result of an elementwise op, as PyTorch's TensorIterator lays it out.

    ``operands`` holds each input's ``(shape, stride)`` (a Python scalar is ``((), ())``).
    Inputs of the result's shape that are all contiguous give a contiguous result, all
    channels-last contiguous (4-D) a channels-last one, all dense with equal strides those
    strides (TensorIterator's ``fast_set_up``, in that order: size-1 dims make some layouts
    both); otherwise dims are ordered fastest-first by the inputs' strides (the first input
    that tells two dims apart decides, broadcast dims never move) and the result is dense in
    that order::

        t (3, 2) stride (1, 3):  t + 1  ->  stride (1, 3)       (the order of t is kept)
        (1, 2, 3, 1) stride (2, 1, 2, 6):  t.sin()  ->  (6, 1, 2, 2)    (channels-last)
    """
    n = len(shape)
    shape = tuple(shape)
    if all(tuple(sh) == shape for sh, _ in operands):
        if all(is_contiguous(sh, st) for sh, st in operands):
            return contiguous_strides(shape)
        if n == 4 and all(is_channels_last_contiguous(sh, st) for sh, st in operands):
            return channels_last_strides(shape)
        last = tuple(operands[-1][1])
        if all(tuple(st) == last and is_non_overlapping_and_dense(sh, st)
               for sh, st in operands):
            return last
    if n <= 1:
        return contiguous_strides(shape)
    aligned = []
    for sh, st in operands:
        off = n - len(sh)
        aligned.append([0] * off + [0 if s == 1 and shape[off + i] != 1 else st[i]
                                    for i, s in enumerate(sh)])

    perm = iterator_order(shape, aligned)
    if perm == list(range(n - 1, -1, -1)):
        return contiguous_strides(shape)
    out = [0] * n
    acc = 1
    for d in perm:
        out[d] = acc
        acc *= shape[d]
    return tuple(out)


def has_internal_overlap(shape: Sequence[int], stride: Sequence[int]) -> bool:
    """True when two logical elements surely share a storage slot (a stride-0 dim of size > 1)."""
    for s, st in zip(shape, stride):
        if st == 0 and s > 1:
            return True
    return False


def storage_extent(shape: Sequence[int], stride: Sequence[int], offset: int) -> int:
    """The storage size (in elements) a layout needs: one past its last addressed element."""
    if numel(shape) == 0:
        return offset
    return offset + sum((s - 1) * st for s, st in zip(shape, stride)) + 1


def address(index: Sequence[int], stride: Sequence[int], offset: int) -> int:
    """The storage position of a logical index: ``offset + sum(index[d] * stride[d])``."""
    return offset + sum(i * st for i, st in zip(index, stride))


def unravel(flat: int, shape: Sequence[int]) -> tuple[int, ...]:
    """The logical index of the ``flat``-th element in row-major order."""
    idx = []
    for s in reversed(shape):
        flat, r = divmod(flat, s) if s else (flat, 0)
        idx.append(r)
    return tuple(reversed(idx))


# ---------------------------------------------------------------- dims
def _dim_range_error(dim: int, ndim: int) -> IndexError:
    lo, hi = (-ndim, ndim - 1) if ndim > 0 else (-1, 0)
    return IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], but "
                      f"got {dim})")


def normalize_dim(dim: int, ndim: int) -> int:
    """Wrap a negative dim; IndexError outside ``[-ndim, ndim)`` (0-dim tensors take 0 or -1)."""
    n = ndim if ndim > 0 else 1
    if not isinstance(dim, int) or isinstance(dim, bool):
        dim = _dim_index(dim)
    if dim < -n or dim >= n:
        raise _dim_range_error(dim, ndim)
    return dim + n if dim < 0 else dim


def normalize_dims(dims: Iterable[int], ndim: int) -> tuple[int, ...]:
    """Normalize several dims; RuntimeError when one repeats."""
    out = tuple(normalize_dim(d, ndim) for d in dims)
    if len(set(out)) != len(out):
        for d in out:
            if out.count(d) > 1:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return out


def _dim_index(value) -> int:
    """A dim given as another integer type (``np.int64``); PyTorch's parser refuses a bool
    (``argmax(True)``, a NumPy bool too), None and a float with its TypeError."""
    if isinstance(value, bool) or type(value).__name__ in ("bool", "bool_") or (
            type(value).__name__ == "Tensor" and str(value.dtype).endswith(".bool")):
        raise TypeError(f"argument 'dim' must be int, not {_parser_type(value)}")
    try:
        return value.__index__()
    except (AttributeError, TypeError):
        raise TypeError(f"argument 'dim' must be int, not {_parser_type(value)}") from None


def _parser_type(value) -> str:
    cls = type(value)
    if cls.__module__ == "builtins":
        return cls.__name__
    if cls.__name__ in ("Tensor", "dtype") and cls.__module__.startswith("tensorviz"):
        return "Tensor" if cls.__name__ == "Tensor" else "torch.dtype"
    return f"{cls.__module__.split('.')[0]}.{cls.__name__}"


def _as_index(value, what: str) -> int:
    try:
        return value.__index__()
    except (AttributeError, TypeError):
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}") from None


# ---------------------------------------------------------------- view ops
def select(shape: Shape, stride: Strides, offset: int, dim: int, index: int) -> Layout:
    """``t.select(dim, index)``: drop ``dim``, advance the offset by ``index * stride[dim]``."""
    if not shape:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = normalize_dim(dim, len(shape))
    size = shape[dim]
    if index < -size or index >= size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{_fmt_size(shape)} at dimension {dim}")
    if index < 0:
        index += size
    return (shape[:dim] + shape[dim + 1:], stride[:dim] + stride[dim + 1:],
            offset + index * stride[dim])


def slice_dim(shape: Shape, stride: Strides, offset: int, dim: int,
              start: int | None, stop: int | None, step: int | None) -> Layout:
    """``t[..., start:stop:step]`` along ``dim``: clamp like Python, stride times ``step``."""
    step = 1 if step is None else step
    if step <= 0:
        raise ValueError("step must be greater than zero")
    start, length = _slice_span(shape[dim], start, stop, step)
    return (shape[:dim] + (length,) + shape[dim + 1:],
            stride[:dim] + (stride[dim] * step,) + stride[dim + 1:],
            offset + start * stride[dim])


def _slice_span(size: int, start: int | None, stop: int | None, step: int) -> tuple[int, int]:
    """``(first index, length)`` of ``start:stop:step`` (step > 0) over a dim of ``size``,
    clamped as Python clamps slices."""
    start = 0 if start is None else start
    stop = size if stop is None else stop
    if start < 0:
        start += size
    if stop < 0:
        stop += size
    start = min(max(start, 0), size)
    stop = min(max(stop, start), size)
    return start, (stop - start + step - 1) // step


def narrow(shape: Shape, stride: Strides, offset: int, dim: int, start: int,
           length: int) -> Layout:
    """``t.narrow(dim, start, length)``: a slice with step 1 that must fit exactly."""
    if not shape:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    dim = normalize_dim(dim, len(shape))
    size = shape[dim]
    if start < -size or start > size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    if start < 0:
        start += size
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    return slice_dim(shape, stride, offset, dim, start, start + length, 1)


def transpose(shape: Shape, stride: Strides, offset: int, dim0: int, dim1: int) -> Layout:
    """Swap two dims: no data moves, only their sizes and strides trade places."""
    n = len(shape)
    d0, d1 = normalize_dim(dim0, n), normalize_dim(dim1, n)
    if d0 == d1 or n < 2:
        return shape, stride, offset
    sh, st = list(shape), list(stride)
    sh[d0], sh[d1] = sh[d1], sh[d0]
    st[d0], st[d1] = st[d1], st[d0]
    return tuple(sh), tuple(st), offset


def permute(shape: Shape, stride: Strides, offset: int, dims: Sequence[int]) -> Layout:
    """Reorder dims: ``new.shape[i] = shape[dims[i]]``, same for strides."""
    n = len(shape)
    if len(dims) != n:
        raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does "
                           "not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {n} is not equal to len(dims) = {len(dims)}")
    nd = tuple(normalize_dim(d, n) for d in dims)
    if len(set(nd)) != n:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return tuple(shape[d] for d in nd), tuple(stride[d] for d in nd), offset


def movedim(shape: Shape, stride: Strides, offset: int, source: Sequence[int],
            destination: Sequence[int]) -> Layout:
    """Move dims ``source`` to positions ``destination``, keeping the others in order."""
    n = len(shape)
    if len(source) != len(destination):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(source)}"
                           f" dims) should contain the same number of dims as destination "
                           f"({list(destination)} dims)")
    src = normalize_dims(source, n)
    dst = normalize_dims(destination, n)
    if not n:
        return shape, stride, offset
    order = [-1] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(n) if d not in src)
    order = [next(rest) if o == -1 else o for o in order]
    return permute(shape, stride, offset, order)


def unsqueeze(shape: Shape, stride: Strides, offset: int, dim: int) -> Layout:
    """Insert a size-1 dim at ``dim`` (its stride is what a step over it would skip)."""
    dim = normalize_dim(dim, len(shape) + 1)
    new_stride = shape[dim] * stride[dim] if dim < len(shape) else 1
    return shape[:dim] + (1,) + shape[dim:], stride[:dim] + (new_stride,) + stride[dim:], offset


def squeeze(shape: Shape, stride: Strides, offset: int,
            dim: int | Sequence[int] | None = None) -> Layout:
    """Drop size-1 dims (all, or only those named in ``dim``; others are left alone)."""
    n = len(shape)
    if dim is None:
        keep = [d for d in range(n) if shape[d] != 1]
    else:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        drop = set(normalize_dims(dims, n))
        keep = [d for d in range(n) if not (d in drop and shape[d] == 1)]
    return tuple(shape[d] for d in keep), tuple(stride[d] for d in keep), offset


def expand(shape: Shape, stride: Strides, offset: int, sizes: Sequence[int]) -> Layout:
    """Broadcast size-1 dims to ``sizes`` with stride 0 (-1 keeps a size); PyTorch's geometry."""
    n = len(sizes)
    if n < len(shape):
        raise RuntimeError(f"expand({_fmt_size(shape)}, size=[{', '.join(map(str, sizes))}]): "
                           "the number of sizes provided (" + str(n) + ") must be greater or "
                           f"equal to the number of dimensions in the tensor ({len(shape)})")
    if not shape:  # PyTorch: a 0-dim tensor expands with stride 0 everywhere
        for s in sizes:
            if s < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                                   f"{_fmt_size(sizes)}")
        return tuple(sizes), (0,) * n, offset
    new_shape = [0] * n
    new_stride = [0] * n
    for i in range(n - 1, -1, -1):
        k = len(shape) - n + i
        size = shape[k] if k >= 0 else 1
        st = stride[k] if k >= 0 else (new_shape[i + 1] * new_stride[i + 1] if i + 1 < n else 1)
        target = sizes[i]
        if target == -1:
            if k < 0:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a "
                                   f"leading, non-existing dimension {i}")
            target = size
        elif target < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {target}: "
                               f"[{', '.join(map(str, sizes))}]")
        if size != target:
            if size != 1:
                raise RuntimeError(
                    f"The expanded size of the tensor ({target}) must match the existing size "
                    f"({size}) at non-singleton dimension {i}.  Target sizes: "
                    f"[{', '.join(map(str, sizes))}].  Tensor sizes: [{', '.join(map(str, shape))}]")
            st = 0
        new_shape[i] = target
        new_stride[i] = st
    return tuple(new_shape), tuple(new_stride), offset


def broadcast_shapes(*shapes: Sequence[int]) -> Shape:
    """The common shape of broadcasting operands (NumPy/PyTorch rules).

    Shapes are aligned at their last dims; each dim's sizes must be equal or 1::

        (3, 1) and (4,)  ->  (3, 4)
    """
    out: tuple = ()
    for s in shapes:
        out = _broadcast_pair(out, tuple(s))
    return out


def _broadcast_pair(a: Shape, b: Shape) -> Shape:
    """PyTorch's ``infer_size``: compared from the last dim, erring on the last mismatch."""
    if a == b:
        return a
    tuples = type(a) is tuple and type(b) is tuple
    if tuples:
        known = _PAIRS.get((a, b))
        if known is not None:
            return known
    n = max(len(a), len(b))
    out = [0] * n
    for i in range(n - 1, -1, -1):
        da, db = len(a) - n + i, len(b) - n + i
        sa = a[da] if da >= 0 else 1
        sb = b[db] if db >= 0 else 1
        if sa != sb and sa != 1 and sb != 1:
            raise RuntimeError(f"The size of tensor a ({sa}) must match the size of tensor b "
                               f"({sb}) at non-singleton dimension {i}")
        out[i] = sb if sa == 1 else sa
    out = tuple(out)
    if tuples and len(_PAIRS) < 4096:  # (a model broadcasts the same few pairs every step)
        _PAIRS[(a, b)] = out
    return out


_PAIRS: dict = {}  # (shape, shape) -> their broadcast shape, for pairs that broadcast


def _fmt_size(shape: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def infer_size(sizes: Sequence[int], total: int) -> Shape:
    """Resolve one -1 in a view/reshape shape so it holds ``total`` elements."""
    infer = None
    known = 1
    for i, s in enumerate(sizes):
        if s == -1:
            if infer is not None:
                raise RuntimeError("only one dimension can be inferred")
            infer = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s}")
        else:
            known *= s
    if infer is not None:
        if known == 0 or total % known != 0:
            if known == 0:
                raise RuntimeError(f"cannot reshape tensor of {total} elements into shape "
                                   f"{_fmt_size(sizes)} because the unspecified dimension size "
                                   "-1 can be any value and is ambiguous")
            raise RuntimeError(f"shape '{_fmt_size(sizes)}' is invalid for input of size {total}")
        out = list(sizes)
        out[infer] = total // known
        return tuple(out)
    if known != total:
        raise RuntimeError(f"shape '{_fmt_size(sizes)}' is invalid for input of size {total}")
    return tuple(sizes)


def view_strides(shape: Shape, stride: Strides, new_shape: Shape) -> Strides | None:
    """Strides that let ``new_shape`` view the same elements, or None when no view exists.

    PyTorch's computeStride: dims can be merged or split only inside chunks of memory that
    are contiguous among themselves; a reshape across two such chunks must copy.
    """
    if not shape:
        return (1,) * len(new_shape)
    if numel(shape) == 0:
        if tuple(shape) == tuple(new_shape):
            return tuple(stride)
        return contiguous_strides(new_shape)
    new_stride = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = stride[-1]
    tensor_numel = 1
    view_numel = 1
    for tensor_d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[tensor_d]
        if tensor_d == 0 or (shape[tensor_d - 1] != 1
                             and stride[tensor_d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_stride[view_d] = view_numel * chunk_base_stride
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = stride[tensor_d - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return tuple(new_stride)


VIEW_ERROR = ("view size is not compatible with input tensor's size and stride (at least one "
              "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")


def unfold(shape: Shape, stride: Strides, offset: int, dim: int, size: int,
           step: int) -> Layout:
    """Sliding windows of ``size`` every ``step`` along ``dim``; the window is a new last dim."""
    n = len(shape)
    dim = normalize_dim(dim, n)
    dim_size = shape[dim] if n else 1
    if size > dim_size:
        raise RuntimeError(f"maximum size for tensor at dimension {dim} is {dim_size} but size "
                           f"is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if n == 0:
        return (size,), (1,), offset
    dim_stride = stride[dim]
    new_shape = list(shape)
    new_stride = list(stride)
    new_shape[dim] = (dim_size - size) // step + 1
    new_stride[dim] = step * dim_stride
    return tuple(new_shape) + (size,), tuple(new_stride) + (dim_stride,), offset


def diagonal(shape: Shape, stride: Strides, offset: int, diag_offset: int = 0,
             dim1: int = 0, dim2: int = 1) -> Layout:
    """The diagonal of dims ``dim1``/``dim2`` as a new last dim with stride ``s1 + s2``."""
    n = len(shape)
    d1, d2 = normalize_dim(dim1, n), normalize_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    if diag_offset >= 0:
        length = max(min(shape[d1], shape[d2] - diag_offset), 0)
    else:
        length = max(min(shape[d1] + diag_offset, shape[d2]), 0)
    if length > 0:
        offset += diag_offset * stride[d2] if diag_offset >= 0 else -diag_offset * stride[d1]
    keep = [d for d in range(n) if d not in (d1, d2)]
    return (tuple(shape[d] for d in keep) + (length,),
            tuple(stride[d] for d in keep) + (stride[d1] + stride[d2],), offset)


def check_as_strided(shape: Sequence[int], stride: Sequence[int], offset: int,
                     storage_numel: int, itemsize: int) -> None:
    """RuntimeError unless the layout stays inside a storage of ``storage_numel`` elements."""
    if len(shape) != len(stride):
        raise RuntimeError(f"mismatch in length of strides and shape: shape has {len(shape)} "
                           f"dims but stride has {len(stride)}")
    for s in shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"{_fmt_size(shape)}")
    if any(st < 0 for st in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got "
                           f"strides: {_fmt_size(stride)}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    need = storage_extent(shape, stride, offset) if numel(shape) else 0
    if need > storage_numel:
        raise RuntimeError(
            f"setStorage: sizes {_fmt_size(shape)}, strides {_fmt_size(stride)}, storage offset "
            f"{offset}, and itemsize {itemsize} requiring a storage size of {need * itemsize} are "
            f"out of bounds for storage of size {storage_numel * itemsize}")


# ---------------------------------------------------------------- splitting
def split_sizes(dim_size: int, split_size: int) -> list[int]:
    """Sizes of ``t.split(split_size, dim)``: equal pieces and a smaller last one."""
    if split_size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size="
                           f"{split_size}")
    if split_size == 0:
        if dim_size != 0:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got "
                               f"dimension size of {dim_size}")
        return [0]
    n = max((dim_size + split_size - 1) // split_size, 1)
    return [min(split_size, dim_size - i * split_size) for i in range(n)]


def chunk_sizes(dim_size: int, chunks: int) -> list[int]:
    """Sizes of ``t.chunk(chunks, dim)``: ceil-sized pieces, possibly fewer than ``chunks``."""
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    size = (dim_size + chunks - 1) // chunks
    if size == 0 and dim_size == 0:
        if chunks > 1 << 32:  # (PyTorch fails to allocate that many empty pieces too)
            raise RuntimeError(f"can't allocate memory: chunk() of an empty dim into {chunks} "
                               "empty pieces. Use fewer chunks.")
        return [0] * chunks
    return split_sizes(dim_size, size)


def tensor_split_bounds(dim_size: int, sections_or_indices: int | Sequence[int]) -> list[tuple[int, int]]:
    """``(start, stop)`` pairs of ``tensor_split``: n near-equal sections or cut indices."""
    if isinstance(sections_or_indices, int):
        n = sections_or_indices
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        if n > 2**31:  # (PyTorch runs out of memory making the list: std::bad_alloc)
            raise RuntimeError(f"cannot split into {n} sections: out of memory (std::bad_alloc);"
                               f" ask for fewer sections")
        base, extra = divmod(dim_size, n)
        bounds, start = [], 0
        for i in range(n):
            stop = start + base + (1 if i < extra else 0)
            bounds.append((start, stop))
            start = stop
        return bounds
    cuts = [0] + [min(max(c + dim_size if c < 0 else c, 0), dim_size)
                  for c in sections_or_indices] + [dim_size]
    return [(cuts[i], max(cuts[i], cuts[i + 1])) for i in range(len(cuts) - 1)]


# ---------------------------------------------------------------- basic indexing
def index(shape: Shape, stride: Strides, offset: int, key) -> Layout:
    """The layout of ``t[key]`` for basic keys: ints, slices (positive step), None, Ellipsis.

    ``key`` is a tuple of those, or one of them alone (``t[k]``; PyTorch words some errors
    on 0-dim tensors differently then).  Walks the key as PyTorch does: each int removes a dim
    (select), each slice narrows and strides one, None inserts a size-1 dim, and each
    Ellipsis skips the dims the key does not name (``ndim - named``; several are allowed)::

        t[1:, None, ..., 0]  ->  slice dim 0, insert a dim, skip the middle, select the last
    """
    n = len(shape)
    if type(key) is not tuple:
        if not n:
            _check_single_index_0d(key)
        key = (key,)
    named = 0
    for k in key:
        if k is not None and k is not Ellipsis:
            named += 1
    if named > n:
        raise IndexError(f"too many indices for tensor of dimension {n}")
    sh, st = list(shape), list(stride)
    d = 0  # the dim of the result that the next key item applies to
    for i, k in enumerate(key):
        if k is None:
            if d > len(sh):
                raise _dim_range_error(d, len(sh) + 1)
            new_stride = sh[d] * st[d] if d < len(sh) else 1
            sh.insert(d, 1)
            st.insert(d, new_stride)
            d += 1
        elif k is Ellipsis:
            d += n - named
        elif isinstance(k, slice):
            step = _slice_step(k)
            if d >= len(sh):
                # PyTorch skips a slice from 0 with step 1 (its "whole dim" shortcut, seeing a
                # size of 0 there) without checking the dim, so a key with several ellipses
                # may run past the last dim with `:` or `:2` but not with `1:` or `:-1`
                stop = _opt_index(k.stop)
                if _opt_index(k.start) in (None, 0) and step == 1 and (stop is None
                                                                      or stop >= 0):
                    d += 1
                    continue
                raise _dim_range_error(d, len(sh))
            # slice_dim, applied to dim d of the lists in place
            first, sh[d] = _slice_span(sh[d], _opt_index(k.start), _opt_index(k.stop), step)
            offset += first * st[d]
            st[d] *= step
            d += 1
        else:
            size = sh[d] if d < len(sh) else 0
            if k < -size or k >= size:
                # PyTorch names the position in the key, not the dim of the tensor
                raise IndexError(f"index {k} is out of bounds for dimension {i} with size "
                                 f"{size}")
            offset += (k + size if k < 0 else k) * st[d]
            del sh[d]
            del st[d]
    return tuple(sh), tuple(st), offset


def _check_single_index_0d(k) -> None:
    """PyTorch's errors for ``t[k]`` (one int or slice, not in a tuple) on a 0-dim tensor."""
    if isinstance(k, slice):
        _slice_step(k)
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if k is not None and k is not Ellipsis:
        if k == 0:
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        raise IndexError(f"index {k} is out of bounds for dimension 0 with size 0")


def _slice_step(k: slice) -> int:
    """A slice's step as PyTorch reads it: ValueError for 0 (Python's) and negatives."""
    step = 1 if k.step is None else _opt_index(k.step)
    if step == 0:
        raise ValueError("slice step cannot be zero")
    if step < 0:
        raise ValueError("step must be greater than zero")
    return step


def _opt_index(v):
    if v is None or type(v) is int:
        return v
    try:
        return v.__index__()
    except (AttributeError, TypeError):
        raise TypeError("slice indices must be integers or None or have an __index__ "
                        "method") from None
