"""Creation ops: ``tensor``, ``zeros``, ``ones``, ``arange``, ``linspace``, ``eye`` ...

Every function takes ``dtype=`` and ``device=`` keywords as in PyTorch; results are contiguous
tensors in fresh storages (``from_numpy``/``as_tensor`` share memory where PyTorch does).
"""
from __future__ import annotations

import builtins
import math
import warnings
from typing import Any, Sequence

import numpy as np

from . import _autograd_meta as _ag_meta, _chalf, _dtypes, _layout
from ._device import DeviceLike, as_device
from ._dispatch import HOOKS as _DISPATCH_HOOKS
from ._dispatch import op
from ._dtypes import dtype as _dtype_cls
from ._size import Size
from ._storage import UntypedStorage
from ._scalars import fill_value as _checked
from ._storage import TENSOR_HOOKS as _STORAGE_HOOKS
from ._tensor import _HOOKS as _TENSOR_HOOKS
from ._tensor import Tensor, _as_shape, _kw_shape, from_numpy, wrap_array
from .backends import backend_for

__all__ = ["tensor", "as_tensor", "asarray", "from_numpy", "frombuffer", "polar",
           "zeros", "ones", "empty", "full",
           "zeros_like", "ones_like", "empty_like", "full_like", "arange", "range", "linspace",
           "logspace", "eye", "empty_strided", "scalar_tensor", "numel", "is_tensor",
           "is_storage", "is_floating_point", "is_complex", "is_nonzero"]


def _check_dtype(dtype) -> _dtype_cls | None:
    """``dtype=`` checked: a dtype, None, or a Python type (``float`` is float64)."""
    if dtype is None or isinstance(dtype, _dtype_cls):
        return dtype
    return _dtypes.as_dtype(dtype)


def _finish(host: np.ndarray, dt: _dtype_cls, device: DeviceLike, requires_grad: bool) -> Tensor:
    dev = as_device(device)
    if dev.type != "cpu":  # (a meta placeholder goes as it is: only its shape travels)
        host = backend_for(dev).from_host(
            host if dev.type == "meta" else np.ascontiguousarray(host), dev)
    t = wrap_array(host, dt, dev)
    if requires_grad:
        _ag_meta.set_requires_grad(t, True, _ag_meta.FACTORY)
    return t


def _meta_result(shape: tuple, dt: _dtype_cls, device: DeviceLike,
                 requires_grad: bool) -> Tensor | None:
    """A factory's result on the meta device, which keeps no values: the layout only, made
    before any value is computed (``arange(10**12, device='meta')`` costs nothing). None on
    every other device.

    >>> _meta_result((2, 3), _dtypes.float32, 'meta', False).shape
    tensorviz.Size([2, 3])
    """
    if as_device(device).type != "meta":
        return None
    from .backends._meta import meta_array
    return _finish(meta_array(shape, dt._np), dt, device, requires_grad)


_PY_NUMBERS = (builtins.bool, builtins.int, builtins.float, builtins.complex)


def _scan(data) -> int:
    """What the leaves of nested lists/tuples are: 0 only Python numbers; bits 1 tensors,
    2 NumPy scalars/arrays, 4 anything else (other sequences, None, strings ...)."""
    flags = 0
    stack = [data]
    while stack:
        for x in stack.pop():
            t = type(x)
            if t is float or t is int or t is bool or t is complex:
                continue
            if t is list or t is tuple:
                stack.append(x)
            elif isinstance(x, Tensor):
                flags |= 1
            elif isinstance(x, (np.ndarray, np.generic)):
                flags |= 2
            else:
                flags |= 4
    return flags


def _is_sequence(obj) -> bool:
    """Python's sequence protocol as PyTorch reads data (a tensor is not one: it is a scalar
    that must hold one element; dicts, sets and generators are not sequences)."""
    if isinstance(obj, (list, tuple, builtins.range, np.ndarray)):
        return True
    if isinstance(obj, (str, bytes, dict, set, frozenset, Tensor)) or obj is None:
        return False
    return hasattr(obj, "__len__") and hasattr(obj, "__getitem__")


def _infer_scalar_type(obj) -> _dtype_cls:
    """PyTorch's ``infer_scalar_type``: a number's dtype (floats: the default dtype), a tensor's
    or NumPy object's own dtype, and for a sequence the promotion of its items'."""
    if isinstance(obj, Tensor):
        return obj._dtype
    if isinstance(obj, (np.ndarray, np.generic)):
        return _dtypes.from_numpy_dtype(obj.dtype)
    if isinstance(obj, builtins.bool):
        return _dtypes.bool
    if isinstance(obj, builtins.int):
        return _dtypes.int64
    if isinstance(obj, builtins.float):
        return _dtypes.get_default_dtype()
    if isinstance(obj, builtins.complex):
        return _dtypes.default_complex_dtype()
    if _is_sequence(obj):
        if len(obj) == 0:
            return _dtypes.get_default_dtype()
        dt = None
        for item in obj:
            d = _infer_scalar_type(item)
            dt = d if dt is None else _dtypes.promote_types(dt, d)
            if dt is _dtypes.complex128:
                break
        return dt
    if isinstance(obj, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(obj).__name__}'")
    raise RuntimeError(f"Could not infer dtype of {type(obj).__name__}")


def _sizes_of(data) -> list:
    """PyTorch's ``compute_sizes``: the lengths along the first items."""
    sizes = []
    seq = data
    while _is_sequence(seq):
        sizes.append(len(seq))
        if len(seq) == 0:
            break
        seq = seq[0]
    return sizes


def _check_str_leaf(data) -> None:
    """PyTorch measures sizes along the first items, and a string is a sequence there: a
    string first leaf is ValueError "too many dimensions" (other strings: TypeError)."""
    seq = data
    while _is_sequence(seq) and len(seq):
        seq = seq[0]
    if isinstance(seq, str):
        raise ValueError("too many dimensions 'str'")


def _leaf(obj, dt: _dtype_cls):
    """One element for ``tensor(data)``: a number, or a one-element tensor's value."""
    if isinstance(obj, Tensor):
        if obj.numel() != 1:  # PyTorch converts it as a number of dt: its error says so
            if dt.category <= _dtypes._INT:
                raise TypeError("only integer tensors of a single element can be converted to "
                                "an index")
            raise ValueError("only one element tensors can be converted to Python scalars")
        return obj.item()
    if _is_sequence(obj):
        if dt.category <= _dtypes._INT:
            raise TypeError(f"'{type(obj).__name__}' object cannot be interpreted as an integer")
        raise TypeError(f"must be real number, not {type(obj).__name__}")
    if isinstance(obj, str):
        raise TypeError("new(): invalid data type 'str'")
    if obj is None or not isinstance(obj, (*_PY_NUMBERS, np.generic)):
        raise TypeError(f"must be real number, not {type(obj).__name__}")
    if type(obj) is builtins.int and not -(1 << 63) <= obj < (1 << 63):
        if dt.category <= _dtypes._INT:
            raise ValueError("Overflow when unpacking long long")
        return builtins.float(obj)
    return obj


def _store(obj, sizes: list, dim: int, dt: _dtype_cls):
    """PyTorch's ``recursive_store`` walk: checks every level's length, returns nested lists
    of numbers (ValueError/TypeError in PyTorch's words for ragged data)."""
    if dim == len(sizes):
        return _leaf(obj, dt)
    if not _is_sequence(obj):
        raise TypeError("not a sequence")
    n = sizes[dim]
    if len(obj) != n:
        raise ValueError(f"expected sequence of length {n} at dim {dim} (got {len(obj)})")
    return [_store(item, sizes, dim + 1, dt) for item in obj]


def _numbers_to_array(data, dt: _dtype_cls | None) -> tuple:
    """Numbers or nested sequences as a NumPy array, and the dtype PyTorch would give them."""
    if isinstance(data, _PY_NUMBERS):
        flags = 0
    else:
        flags = _scan(data) if isinstance(data, (list, tuple)) else 4
    arr = None
    if flags == 0:  # only Python numbers: NumPy's inference is PyTorch's, and fast
        try:
            arr = np.array(data)
        except (ValueError, OverflowError):
            arr = None  # ragged (or huge ints): the walk below raises PyTorch's error
        if arr is not None and arr.dtype.kind in "uO":
            arr = None  # ints beyond int64: the walk decides (an error unless floats join)
    if arr is None:
        inferred = _infer_scalar_type(data)
        values = _store(data, _sizes_of(data), 0, dt or inferred)
        try:
            arr = np.array(values)
        except OverflowError:
            raise ValueError("Overflow when unpacking long long") from None
        if arr.dtype.kind in "uO":
            raise ValueError("Overflow when unpacking long long")
        if dt is None:
            return arr, inferred
    if dt is None:
        kind = arr.dtype.kind
        dt = (_dtypes.bool if kind == "b" else _dtypes.int64 if kind == "i"
              else _dtypes.get_default_dtype() if kind == "f"
              else _dtypes.default_complex_dtype())
    return arr, dt


def _checked_cast(arr: np.ndarray, dt: _dtype_cls) -> np.ndarray:
    """``arr`` as ``dt`` with PyTorch's checks for an explicit dtype: integers must fit (uint8
    takes -255..255, wrapping), floats into integers must be finite and fit, complex values
    do not go into real dtypes."""
    kind = arr.dtype.kind
    if kind == "c" and dt.category != _dtypes._COMPLEX:
        raise TypeError("must be real number, not complex")
    if dt.category == _dtypes._INT and arr.size and kind in "iuf":
        info = np.iinfo(dt._np)
        # (integers may wrap into uint8 from -255; floats may not go below its 0)
        lo = -builtins.int(info.max) if dt is _dtypes.uint8 and kind != "f" else \
            builtins.int(info.min)
        if kind == "f":
            bad = not np.isfinite(arr).all() or arr.min() < lo or arr.max() > info.max
        else:
            bad = builtins.int(arr.min()) < lo or builtins.int(arr.max()) > info.max
        if bad:
            raise RuntimeError(f"value cannot be converted to type {dt.name} without overflow")
    if dt is _dtypes.complex32:
        return _chalf.narrow(arr)
    with np.errstate(all="ignore"):
        if dt is _dtypes.uint8 and kind in "if":
            return arr.astype(np.int64).astype(np.uint8)  # negatives wrap, as in PyTorch
        return arr.astype(dt._np)


def _check_numpy(arr: np.ndarray) -> _dtype_cls:
    """The checks of ``from_numpy`` (byte order, dtype, negative strides); the dtype."""
    if not arr.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte "
                         "order. Conversion between byte orders is currently not supported.")
    dt = _dtypes.from_numpy_dtype(arr.dtype)
    if any(s < 0 for s in arr.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with "
            "negative strides are not currently supported. (You can probably work around this "
            "by making a copy of your array  with array.copy().) ")
    return dt


@op(method=False)
def tensor(data: Any, *, dtype: _dtype_cls | None = None, device: DeviceLike = None,
           requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """A new tensor holding a copy of ``data`` (nested lists, scalars, arrays, tensors).

    The dtype is inferred like PyTorch: bools -> bool, ints -> int64, floats -> the default
    float dtype, complex -> the default complex dtype, NumPy scalars and arrays and tensors
    inside lists keep theirs, and mixed items promote::

        tensor([1, 2.5]).dtype -> float32      tensor([np.int8(1)]).dtype -> int8
    """
    dtype = _check_dtype(dtype)
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "tensor(sourceTensor).", UserWarning, stacklevel=2)
        t = data.to(device=device if device is not None else data.device,
                    dtype=dtype or data.dtype, copy=True)
        if requires_grad:
            _ag_meta.set_requires_grad(t, True, _ag_meta.FACTORY)
        return t
    if isinstance(data, np.ndarray):  # as from_numpy(data).to(dtype): checked, cast freely
        dt = _check_numpy(data)
        # (PyTorch's copy keeps a dense array's dim order, e.g. a transpose's, and makes
        # anything else, a broadcast (stride-0) array included, row-major)
        strides = tuple(s // data.itemsize if data.itemsize else 0 for s in data.strides)
        dense = all(s > 0 and s % data.itemsize == 0 for s in data.strides) and \
            _layout.is_non_overlapping_and_dense(data.shape, strides)
        copy = np.array(data, copy=True, order="K" if dense else "C")
        if dtype is None or dtype is dt:
            return _finish(copy, dt, device, requires_grad)
        t = from_numpy(copy).to(dtype=dtype, device=device)
        if requires_grad:
            _ag_meta.set_requires_grad(t, True, _ag_meta.FACTORY)
        return t
    if isinstance(data, np.generic):
        dt = dtype or _dtypes.from_numpy_dtype(data.dtype)
        return _finish(_checked_cast(np.array(data), dt), dt, device, requires_grad)
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    if isinstance(data, _PY_NUMBERS) or _is_sequence(data):
        try:
            arr, dt = _numbers_to_array(data, dtype)
        except TypeError:
            _check_str_leaf(data)
            raise
    elif hasattr(data, "__array__") or hasattr(data, "__array_interface__"):
        return tensor(np.asarray(data), dtype=dtype, device=device,
                      requires_grad=requires_grad)
    else:
        raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")
    if dtype is not None:
        host = _checked_cast(arr, dt)
    else:
        with np.errstate(all="ignore"):
            host = arr.astype(dt._np)
    return _finish(host, dt, device, requires_grad)


@op(method=False)
def as_tensor(data: Any, dtype: _dtype_cls | None = None, device: DeviceLike = None) -> Tensor:
    """Like ``tensor`` but shares memory with a tensor or NumPy array when nothing changes
    (a NumPy array goes through ``from_numpy``, with its checks)."""
    dtype = _check_dtype(dtype)
    if isinstance(data, Tensor):
        return data.to(device=device if device is not None else data.device,
                       dtype=dtype or data.dtype)
    if isinstance(data, np.ndarray):
        t = from_numpy(data)
        return t.to(device=as_device(device), dtype=dtype or t.dtype)
    return tensor(data, dtype=dtype, device=device)


@op(method=False)
def asarray(obj: Any, *, dtype: _dtype_cls | None = None, device: DeviceLike = None,
            copy: bool | None = None, requires_grad: bool = False) -> Tensor:
    """``as_tensor`` with ``copy=`` control (True always copies, False refuses to)."""
    t = as_tensor(obj, dtype=dtype, device=device)
    shared = isinstance(obj, (Tensor, np.ndarray)) and (
        t is obj or (isinstance(obj, np.ndarray) and np.shares_memory(t._arr, obj)
                     if t.device.type == "cpu" else False)
        or (isinstance(obj, Tensor) and t.untyped_storage() is obj.untyped_storage()))
    if copy and shared:
        t = t.clone()
    elif copy is False and not shared:
        raise ValueError("can't alias the given object without a copy (copy=False)")
    if requires_grad:
        _ag_meta.set_requires_grad(t, True, _ag_meta.FACTORY)
    return t


def _sizes(size: Sequence[Any], fn: str = "") -> tuple[int, ...]:
    if fn and not size:
        raise TypeError(f'{fn}() missing 1 required positional arguments: "size"')
    shape = _as_shape(size)
    for s in shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"[{', '.join(map(str, shape))}]")
    return shape


def _plain_zero(value) -> bool:
    """A zero without a negative sign anywhere (``-0.0`` and ``complex(0, -0.0)`` are filled
    as given, not taken from ``zeros``)."""
    if isinstance(value, complex) or getattr(value, "imag", 0) != 0 or \
            type(value).__name__.startswith("complex"):
        return math.copysign(1.0, value.real) > 0 and math.copysign(1.0, value.imag) > 0
    try:
        return math.copysign(1.0, float(value)) > 0
    except (TypeError, ValueError, OverflowError):
        return True


def _fill(shape, value, dt: _dtype_cls, device: DeviceLike, requires_grad: bool,
          stride: tuple | None = None) -> Tensor:
    """A new tensor of ``shape`` holding ``value`` (None: uninitialised); row-major unless
    ``stride`` (dense) says otherwise."""
    dev = as_device(device)
    be = backend_for(dev)
    n = math.prod(shape)
    if value is None:
        buf = be.empty(n, dt._np, dev)
    elif dt is _dtypes.complex32:
        buf = _chalf.narrow(value, (n,))
    elif value == 0 and _plain_zero(value):
        buf = be.zeros(n, dt._np, dev)
    else:
        buf = be.empty(n, dt._np, dev)
        buf[...] = value
    if stride is None or stride == _layout.contiguous_strides(shape):
        t = wrap_array(buf.reshape(shape), dt, dev)
    else:
        t = Tensor._make(UntypedStorage._wrap(buf, dev, be), dt, 0, tuple(shape), stride,
                         be.strided(buf, 0, shape, stride))
    if requires_grad:
        _ag_meta.set_requires_grad(t, True, _ag_meta.FACTORY)
    return t


@op(method=False, out="cast")
def zeros(*sizes, size=None, dtype: _dtype_cls | None = None, device: DeviceLike = None,
          requires_grad: bool = False) -> Tensor:
    """A tensor of zeros (default float dtype unless ``dtype`` says otherwise)."""
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    shape = _sizes(_kw_shape(sizes, size, "size", "zeros"), "zeros")
    return _fill(shape, 0, dt, device, requires_grad)


@op(method=False, out="cast")
def ones(*sizes, size=None, dtype: _dtype_cls | None = None, device: DeviceLike = None,
         requires_grad: bool = False) -> Tensor:
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    shape = _sizes(_kw_shape(sizes, size, "size", "ones"), "ones")
    return _fill(shape, 1, dt, device, requires_grad)


@op(method=False, out="cast")
def empty(*sizes, size=None, dtype: _dtype_cls | None = None, device: DeviceLike = None,
          requires_grad: bool = False, memory_format=None) -> Tensor:
    """An uninitialised tensor: its values are whatever the memory held (as in PyTorch)."""
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    shape = _sizes(_kw_shape(sizes, size, "size", "empty"), "empty")
    stride = None
    if memory_format is not None:
        from ._tensor import _format_name
        stride = _layout.format_strides(shape, _format_name(memory_format, "empty"))
    return _fill(shape, None, dt, device, requires_grad, stride)


def _scalar_dtype(value) -> _dtype_cls:
    if isinstance(value, Tensor):
        return value.dtype
    return _dtypes.scalar_dtype(value)


@op(method=False, out="cast")
def full(size, fill_value, *, dtype: _dtype_cls | None = None, device: DeviceLike = None,
         requires_grad: bool = False) -> Tensor:
    """A tensor filled with ``fill_value``; the dtype follows the value's type like PyTorch."""
    if not isinstance(size, (tuple, list, Size)):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not "
                        f"{type(size).__name__}")
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    dt = _check_dtype(dtype) or _scalar_dtype(fill_value)
    shape = _sizes((size,))
    return _fill(shape, _checked(fill_value, dt, _layout.numel(shape)), dt, device,
                 requires_grad)


def like_strides(input: Tensor, memory_format) -> tuple:
    """Strides of a ``*_like`` result in ``memory_format`` (``preserve_format`` by default:
    a dense input's strides, any other input's dim order, as in PyTorch)."""
    from ._tensor import _format_name
    return _layout.copy_strides(input._shape, input._stride,
                                _format_name(memory_format, "empty_like"))


def _like(input: Tensor, dtype, device, memory_format=None):
    """dtype, device and strides of a ``*_like`` result (see ``like_strides``)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"expected a Tensor as input, got {type(input).__name__}")
    return (_check_dtype(dtype) or input.dtype,
            input.device if device is None else as_device(device),
            like_strides(input, memory_format))


@op(method=False)
def zeros_like(input: Tensor, *, dtype=None, device=None, requires_grad=False,
               memory_format=None) -> Tensor:
    dt, dev, stride = _like(input, dtype, device, memory_format)
    return _fill(input._shape, 0, dt, dev, requires_grad, stride)


@op(method=False)
def ones_like(input: Tensor, *, dtype=None, device=None, requires_grad=False,
              memory_format=None) -> Tensor:
    dt, dev, stride = _like(input, dtype, device, memory_format)
    return _fill(input._shape, 1, dt, dev, requires_grad, stride)


@op(method=False)
def empty_like(input: Tensor, *, dtype=None, device=None, requires_grad=False,
               memory_format=None) -> Tensor:
    dt, dev, stride = _like(input, dtype, device, memory_format)
    return _fill(input._shape, None, dt, dev, requires_grad, stride)


@op(method=False)
def full_like(input: Tensor, fill_value, *, dtype=None, device=None, requires_grad=False,
              memory_format=None) -> Tensor:
    dt, dev, stride = _like(input, dtype, device, memory_format)
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    return _fill(input._shape, _checked(fill_value, dt, _layout.numel(input._shape)), dt, dev,
                 requires_grad, stride)


@op(method=False)
def empty_strided(size, stride, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """An uninitialised tensor with the given strides (storage sized to fit them exactly)."""
    from . import _layout
    shape, strides = _sizes((size,)), _as_shape((stride,), "stride")
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    n = _layout.storage_extent(shape, strides, 0) if math.prod(shape) else 0
    base = _fill((n,), None, dt, device, requires_grad)
    return base.as_strided(shape, strides, 0)


@op(method=False)
def scalar_tensor(s, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    return tensor(s, dtype=dt, device=device, requires_grad=requires_grad)


def _number(x, what: str, complex_ok: bool = False, fn: str | None = None):
    if isinstance(x, Tensor):
        if fn is not None and x._shape:  # (a Number argument takes a 0-dim tensor only)
            raise TypeError(f"{fn}(): argument '{what}' must be Number, not Tensor (a tensor "
                            f"of shape {list(x._shape)}: pass a 0-dim tensor or a number)")
        return x.item()
    if isinstance(x, (builtins.int, builtins.float, np.number)) and not isinstance(x, builtins.bool):
        return x
    if complex_ok and isinstance(x, builtins.complex):
        return x
    if isinstance(x, builtins.bool):
        return builtins.int(x)
    raise TypeError(f"{what} must be a number, not {type(x).__name__}")


@op(method=False, out="cast")
def arange(start=0, end=None, step=1, *, dtype: _dtype_cls | None = None,
           device: DeviceLike = None, requires_grad: bool = False) -> Tensor:
    """Values ``start, start+step, ...`` below ``end``; int64 unless a bound is a float.

    Computed as PyTorch does: for an integer dtype the bounds and step are truncated to
    integers first; the length is ``ceil((end - start) / step)``::

        arange(0, 1, 0.25).tolist() -> [0.0, 0.25, 0.5, 0.75]
    """
    if end is None:
        start, end = 0, start
    start, end, step = (_number(start, "start", fn="arange"), _number(end, "end", fn="arange"),
                        _number(step, "step", fn="arange"))
    dt = _check_dtype(dtype)
    if dt is None:
        dt = (_dtypes.get_default_dtype() if any(isinstance(v, (builtins.float, np.floating))
                                                 for v in (start, end, step))
              else _dtypes.int64)
    if dt is _dtypes.bool or dt.category == _dtypes._COMPLEX:
        raise NotImplementedError(f'"arange_cpu" not implemented for \'{dt.cname}\'')
    integral = dt.category == _dtypes._INT
    if integral:  # PyTorch converts the numbers to the (64-bit) accumulation type first
        if math.isnan(step):
            raise RuntimeError("step must be nonzero")
        if math.isinf(step):
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        xs, xe, xst = (builtins.int(v) if math.isfinite(v) else v for v in (start, end, step))
        for v in (xs, xe, xst):
            if math.isfinite(v) and not -(1 << 63) <= v < (1 << 63):
                raise RuntimeError("value cannot be converted to type int64_t without overflow")
        if dt is _dtypes.int64 and xst == 0 and step != 0:
            raise ValueError("step must be nonzero")
    else:
        xs, xe, xst = builtins.float(start), builtins.float(end), builtins.float(step)
    # (the checks see the truncated numbers for int64, the given ones otherwise)
    cs, ce, cst = (xs, xe, xst) if dt is _dtypes.int64 else (start, end, step)
    if cst == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(cs) and math.isfinite(ce)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if not ((cst > 0 and ce >= cs) or (cst < 0 and ce <= cs)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dt is _dtypes.int64:  # exact integer arithmetic, truncating like C
        num = xe - xs + xst - (1 if xst > 0 else -1)
        n = builtins.abs(num) // builtins.abs(xst)
    else:
        n = math.ceil((builtins.float(end) - builtins.float(start)) / builtins.float(step))
    n = builtins.max(builtins.int(n), 0)
    meta = _meta_result((n,), dt, device, requires_grad)
    if meta is not None:
        return meta
    from .backends._numpy import out_of_memory
    try:
        np.empty(n, dtype=dt._np)  # (PyTorch's error for a length no memory can hold)
    except (MemoryError, ValueError):
        raise out_of_memory(n * dt.itemsize) from None
    if integral:
        host = _integer_ramp(xs, xst, n, dt)
    else:
        host = _chunked(n, dt, lambda i0, i1: _vector_arange(xs, xst, n, dt, i0, i1))
    return _finish(host, dt, device, requires_grad)


_CHUNK = 1 << 16  # (a multiple of every vector block of _vector_arange; cache-sized blocks)


def _chunked(n: int, dt, values) -> np.ndarray:
    """An ``n``-element array of ``dt`` filled block by block with ``values(i0, i1)`` (wider
    numbers, rounded here): the memory a huge ``arange``/``range`` needs is the result's own,
    as in PyTorch, not several int64/float64 temporaries of its length."""
    from .backends._numpy import huge_empty
    out = huge_empty(n, dt._np)
    with np.errstate(all="ignore"):
        for i0 in builtins.range(0, n, _CHUNK):
            i1 = builtins.min(n, i0 + _CHUNK)
            out[i0:i1] = values(i0, i1)
    return out


def _integer_ramp(start: int, step: int, n: int, dt) -> np.ndarray:
    """``start + step * i`` for ``i < n`` in int64 arithmetic, wrapped into the integer ``dt``.
    A dtype of 8 or 16 bits repeats every ``2**bits`` elements: one period is computed and
    copied on (``range(1, 2**31, dtype=uint8)`` in about the time PyTorch takes)."""
    def values(i0, i1):
        return np.int64(start) + np.int64(step) * np.arange(i0, i1, dtype=np.int64)
    period = 1 << (8 * dt.itemsize)
    if dt.itemsize > 2 or n <= 2 * period:
        return _chunked(n, dt, values)
    out = np.empty(n, dtype=dt._np)
    with np.errstate(all="ignore"):
        one = values(0, period).astype(dt._np)
    full = n // period * period
    out[:full].reshape(-1, period)[:] = one  # (one broadcast store: memory speed)
    out[full:] = one[:n - full]
    return out


def _vector_arange(start: float, step: float, n: int, dt, i0: int = 0,
                   i1: int | None = None) -> np.ndarray:
    """``arange``'s values as PyTorch's CPU kernel computes them (in float64; the caller
    rounds to ``dt``): blocks of ``2 * lanes`` elements as SIMD vectors ``base + j * step``,
    ``base = start + step * i`` at each vector's first element (stored in ``dt``), the tail
    one by one as ``start + step * i``, each ``a + b * c`` fused (one rounding), in the
    accumulation type (float64; float32 for float16). So ``arange(-3, 3.1, 0.1)`` has
    ``-2.3842e-08`` (not 0) at element 30, as in PyTorch.

    # Note: the fused products are computed in long double (exact on x86-64); PyTorch splits
    # arange over threads past 32768 elements, which moves the vector blocks; tensorviz
    # keeps one block sequence (values may differ in the last bit there).
    """
    lanes = {"float64": 4, "float32": 8, "float16": 16, "bfloat16": 16}[dt.name]
    i1 = n if i1 is None else i1
    blocks = (n // (2 * lanes)) * 2 * lanes
    if dt in _dtypes.HALVES:  # (float32 accumulation: products of two float32s are exact)
        wide, acc, st, s0 = np.float64, np.float32, np.float32(step), np.float32(start)
    else:
        wide, acc, st, s0 = np.longdouble, np.float64, step, start
    out = np.empty(i1 - i0, dtype=np.float64)
    v1 = builtins.min(i1, blocks)
    if v1 > i0:  # (the vector blocks: one base per vector of ``lanes``, then its lanes)
        f0 = i0 - i0 % lanes
        firsts = np.arange(f0, v1, lanes, dtype=np.int64)
        base = (wide(s0) + wide(st) * firsts.astype(wide)).astype(acc)
        base = base.astype(dt._np).astype(wide)  # (each vector's base is a ``dt`` value)
        lane = np.arange(lanes).astype(wide) * wide(st)
        vals = (base[:, None] + lane[None, :]).astype(acc).reshape(-1)
        out[:v1 - i0] = vals[i0 - f0:v1 - f0]
    t0 = builtins.max(i0, blocks)
    if i1 > t0:  # (the tail, one by one: a base of its own, no lane)
        i = np.arange(t0, i1, dtype=np.int64)
        base = (wide(s0) + wide(st) * i.astype(wide)).astype(acc)
        out[t0 - i0:] = base.astype(dt._np).astype(wide).astype(acc)
    return out


_NO_END = object()


@op(method=False)
def range(start, end=_NO_END, step=1, *, dtype: _dtype_cls | None = None,
          device: DeviceLike = None, requires_grad: bool = False) -> Tensor:
    """Deprecated inclusive range (``end`` included), float by default, as in PyTorch:
    ``size = trunc((end - start) / step) + 1`` in the accumulation type (int64 for integer
    dtypes, whose bounds are truncated first). Unlike ``arange`` it needs both bounds::

        range(1, 4).tolist() -> [1.0, 2.0, 3.0, 4.0]
    """
    if end is _NO_END:  # (PyTorch's parser: no one-argument form, no warning first)
        raise TypeError('range() missing 1 required positional arguments: "end"')
    warnings.warn("torch.range is deprecated and will be removed in a future release because "
                  "its behavior is inconsistent with Python's range builtin. Instead, use "
                  "torch.arange, which produces values in [start, end).", UserWarning,
                  stacklevel=2)
    start, end, step = (_number(start, "start"), _number(end, "end"), _number(step, "step"))
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    if dt is _dtypes.bool or dt.category == _dtypes._COMPLEX:
        raise NotImplementedError(f'"range_cpu" not implemented for \'{dt.cname}\'')
    integral = dt.category == _dtypes._INT
    if integral and not builtins.all(math.isfinite(v) for v in (start, end, step)):
        raise RuntimeError("value cannot be converted to type int64_t without overflow")
    conv = builtins.int if integral else builtins.float
    xs, xe = (conv(v) if math.isfinite(v) else v for v in (start, end))
    xst = conv(step)
    if xst == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(xs) and math.isfinite(xe)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if not ((xst > 0 and xe >= xs) or (xst < 0 and xe <= xs)):
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    from .backends._numpy import out_of_memory
    try:
        if integral:
            n = builtins.abs(xe - xs) // builtins.abs(xst) + 1
            host = _integer_ramp(xs, xst, n, dt)
        else:
            acc = np.float32 if dt in _dtypes.HALVES else np.float64
            with np.errstate(all="ignore"):  # (the size too in the accumulation type)
                n = builtins.int((acc(xe) - acc(xs)) / acc(xst) + acc(1))
            idx = np.arange(builtins.min(n, _CHUNK), dtype=np.float64)
            buf = np.empty(idx.shape, dtype=acc)

            def ramp(i0, i1):  # (start + step * i, in one reused buffer: no temporaries)
                v = buf[:i1 - i0]
                np.add(idx[:i1 - i0], i0, out=v, casting="unsafe")
                v *= acc(xst)
                v += acc(xs)
                return v
            host = _chunked(n, dt, ramp)
    except (MemoryError, ValueError):  # (a length no memory can hold: PyTorch's error)
        raise out_of_memory(n * dt.itemsize) from None
    return _finish(host, dt, device, requires_grad)


def _spacing_ends(name: str, start, end) -> tuple:
    """linspace/logspace's ``start`` and ``end`` as numbers: tensors must be 0-dim (PyTorch's
    message names the offending ones)."""
    ts, te = isinstance(start, Tensor), isinstance(end, Tensor)
    if (ts and start._shape) or (te and end._shape):
        if ts and te:
            what = (f"start with {len(start._shape)} dimension(s) and end with "
                    f"{len(end._shape)} dimension(s)")
        elif ts:
            what = f"start with {len(start._shape)} dimension(s)"
        else:
            what = f"end with {len(end._shape)} dimension(s)"
        raise RuntimeError(f"{name} only supports 0-dimensional start and end tensors, but "
                           f"got {what}.")
    return _number(start, "start", True), _number(end, "end", True)


def _spaced_checked(start, end, steps: int, dt: _dtype_cls, parts: bool = True) -> np.ndarray:
    """``_spaced``, with PyTorch's RuntimeError for a length no memory can hold."""
    from .backends._numpy import out_of_memory
    try:
        return _spaced(start, end, steps, dt, parts)
    except MemoryError:
        raise out_of_memory(steps * dt.itemsize) from None


@op(method=False, out="cast")
def linspace(start, end, steps: int, *, dtype: _dtype_cls | None = None,
             device: DeviceLike = None, requires_grad: bool = False) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive.

    Computed like PyTorch, in the result's precision: the first half counts up from
    ``start``, the second half down from ``end``, so both ends are exact::

        value[i] = start + step * i               for i <  steps // 2
        value[i] = end - step * (steps - 1 - i)   otherwise, step = (end - start) / (steps - 1)
    """
    start, end = _spacing_ends("linspace", start, end)
    steps = _check_steps(steps)
    dt = _range_dtype(dtype, start, end)
    if dt is _dtypes.bool and steps > 1:  # (PyTorch's kernel only fills 0 or 1 values)
        raise NotImplementedError('"linspace_cpu" not implemented for \'Bool\'')
    meta = _meta_result((steps,), dt, device, requires_grad)
    if meta is not None:
        return meta
    host = _spaced_checked(start, end, steps, dt)
    with np.errstate(all="ignore"):
        host = host.astype(dt._np)
    return _finish(host, dt, device, requires_grad)


def _range_dtype(dtype, start, end) -> _dtype_cls:
    dt = _check_dtype(dtype)
    if dt is not None:
        return dt
    if isinstance(start, builtins.complex) or isinstance(end, builtins.complex):
        return _dtypes.default_complex_dtype()
    return _dtypes.get_default_dtype()


def _check_steps(steps) -> int:
    if isinstance(steps, (builtins.float, builtins.bool)):
        raise TypeError(f"linspace(): argument 'steps' must be int, not {type(steps).__name__}")
    steps = _number(steps, "steps")
    if isinstance(steps, builtins.int) and not -(1 << 63) <= steps < (1 << 63):
        raise ValueError("Overflow when unpacking long long")  # (PyTorch's int64 argument)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    return builtins.int(steps)


def _fused32(a: np.float64, p: np.ndarray) -> np.ndarray:
    """float32 ``a + p`` rounded once (``a`` a float32 value, ``p`` an exact product of a
    float32 and an integer below 2**29): the sum rounded to odd in float64 (its error by
    TwoSum), then to float32, so no tie of the double rounding goes the wrong way."""
    r = a + p
    bb = r - a
    err = (a - (r - bb)) + (p - bb)
    even = (r.view(np.int64) & 1) == 0
    r = np.where((err != 0) & even, np.nextafter(r, np.where(err > 0, np.inf, -np.inf)), r)
    return r.astype(np.float32)


def _spaced(start, end, steps: int, dt: _dtype_cls, parts: bool = True) -> np.ndarray:
    """The ``linspace`` values as PyTorch's CPU kernel computes them: ``start``/``end`` taken
    as ``dt`` first, then floats in ``dt``'s own precision, integers in double (truncated).
    Complex values: linspace (``parts``) steps each part by itself; logspace's exponents
    are complex quotients and products."""
    if steps == 0:
        return np.empty(0, dtype=dt._np)
    if steps == 1:  # PyTorch fills with start (end is never converted; float16 takes inf)
        with np.errstate(all="ignore"):
            return np.array([_checked(start, dt)], dtype=dt._np)
    # (checked, as PyTorch's Scalar.to<T>: a number past float16's range is an error here,
    # where a one-element fill stores inf)
    a, b = _checked(start, dt, steps), _checked(end, dt, steps)
    if dt.category == _dtypes._COMPLEX and parts:
        # (PyTorch's complex step and products scale each part by a real number: a complex
        # product or quotient would turn an infinite part into nan in the other)
        part = _dtypes.float32 if dt is _dtypes.complex64 else _dtypes.float64
        values = np.empty(steps, dtype=dt._np)
        values.real = _spaced(a.real, b.real, steps, part)
        values.imag = _spaced(a.imag, b.imag, steps, part)
        return values
    work = np.float64 if dt.category <= _dtypes._INT else dt._np.type
    a, b = work(a), work(b)
    with np.errstate(all="ignore"):
        step = (b - a) / work(steps - 1)
        i = np.arange(steps)
        half = steps // 2
        if dt is _dtypes.float32:  # (PyTorch's compiler fuses these: one rounding each)
            s64 = np.float64(step)
            up = _fused32(np.float64(a), s64 * i[:half])
            down = _fused32(np.float64(b), -s64 * (steps - 1 - i[half:]))
        else:
            up = a + step * i[:half].astype(work)
            down = b - step * (steps - 1 - i[half:]).astype(work)
        values = np.concatenate([up, down]).astype(work)
    if dt.category <= _dtypes._INT:
        values = np.trunc(values)
    return values


@op(method=False, out="cast")
def logspace(start, end, steps: int, base: float = 10.0, *, dtype: _dtype_cls | None = None,
             device: DeviceLike = None, requires_grad: bool = False) -> Tensor:
    """``base ** linspace(start, end, steps)``, each power taken in the result's precision
    (an integer dtype truncates ``base`` first, as PyTorch)."""
    start, end = _spacing_ends("logspace", start, end)
    steps = _check_steps(steps)
    dt = _range_dtype(dtype, start, end)
    if dt is _dtypes.bool and steps > 1:
        raise NotImplementedError('"logspace_cpu" not implemented for \'Bool\'')
    meta = _meta_result((steps,), dt, device, requires_grad)
    if meta is not None:
        return meta
    work = np.float64 if dt.category <= _dtypes._INT else dt._np.type
    exps = _spaced_checked(start, end, steps, dt, parts=False).astype(work)
    if dt.category <= _dtypes._INT:  # the powers in double, truncated after
        exps = exps.astype(np.float64)
        b = np.float64(base)
    else:
        b = work(base)
    with np.errstate(all="ignore"):
        if steps == 1:  # PyTorch fills with base ** start, in double
            exps = np.array([start], dtype=np.complex128 if isinstance(start, builtins.complex)
                            else np.float64)
            b = np.float64(base)
        elif dt.category <= _dtypes._INT:  # exponents in double, not truncated
            exps = _spaced_double(start, end, steps, dt)
        if dt.category == _dtypes._COMPLEX:  # (PyTorch's complex pow: cpow, see ops.pow)
            from .ops._elementwise import _complex_pow
            ctype = np.complex128 if steps == 1 else dt._np
            host = _complex_pow(np.asarray(b, dtype=ctype), exps.astype(ctype))
        else:
            host = np.power(b, exps)
        if dt.category <= _dtypes._INT:
            host = np.trunc(host)
        host = host.astype(dt._np)
    return _finish(host, dt, device, requires_grad)


def _spaced_double(start, end, steps: int, dt: _dtype_cls) -> np.ndarray:
    """Integer logspace exponents: ``start``/``end`` as integers, the steps in double."""
    a, b = np.float64(_checked(start, dt)), np.float64(_checked(end, dt))
    step = (b - a) / (steps - 1)
    i = np.arange(steps, dtype=np.float64)
    half = steps // 2
    return np.where(np.arange(steps) < half, a + step * i, b - step * (steps - 1 - i))


@op(method=False, out="cast")
def eye(n: int, m: int | None = None, *, dtype: _dtype_cls | None = None,
        device: DeviceLike = None, requires_grad: bool = False) -> Tensor:
    """The ``n x m`` identity matrix."""
    from .ops._args import int_arg
    n = int_arg(n, "eye", "n", 1)
    m = n if m is None else int_arg(m, "eye", "m", 2)
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    meta = _meta_result((n, m), dt, device, requires_grad)
    if meta is not None:
        return meta
    from .backends._numpy import call_quiet
    try:
        host = call_quiet(np.eye, n, m, dtype=dt._np)
    except ValueError:  # (NumPy's "Maximum allowed dimension exceeded")
        raise RuntimeError(f"Storage size calculation overflowed with sizes=[{n}, {m}]") from None
    return _finish(host, dt, device, requires_grad)


@op(method=False)
def numel(input: Tensor) -> int:
    return input.numel()


@op(method=False)
def is_tensor(obj) -> bool:
    return isinstance(obj, Tensor)


@op(method=False)
def is_storage(obj) -> bool:
    from ._storage import TypedStorage, UntypedStorage
    return isinstance(obj, (TypedStorage, UntypedStorage))


@op(method=False)
def is_floating_point(input: Tensor) -> bool:
    return input.is_floating_point()


@op(method=False)
def is_complex(input: Tensor) -> bool:
    return input.is_complex()


@op()
def is_nonzero(input: Tensor) -> bool:
    """Whether a one-element tensor's value is nonzero (``tensor([0.5]).is_nonzero()`` is
    True); more or fewer elements are ambiguous: RuntimeError, as PyTorch."""
    if input.numel() != 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous"
                           if input.numel() else
                           "Boolean value of Tensor with no values is ambiguous")
    return bool(input.item())


# ---------------------------------------------------------------- frombuffer
_WARNED_NOT_WRITABLE = False


def _int_arg(fn: str, name: str, value) -> int:
    if isinstance(value, builtins.bool) or not isinstance(value, (builtins.int, np.integer)):
        raise TypeError(f"{fn}(): argument '{name}' must be int, not {type(value).__name__}")
    return builtins.int(value)


@op(method=False)
def frombuffer(buffer, *, dtype: _dtype_cls, count: int = -1, offset: int = 0,
               requires_grad: bool = False) -> Tensor:
    """A 1-D tensor over the bytes of an object with the buffer protocol, sharing its memory
    (writes through the tensor show in the buffer and the other way round).

    ``offset`` bytes are skipped; ``count`` elements (``-1``: all that remain) are used.

    # Note: PyTorch lets a tensor write into a read-only buffer (``bytes``) after a warning;
    # here such a tensor is read-only: in-place writes raise instead of changing the bytes.
    """
    if dtype is None or not isinstance(dtype, (_dtype_cls, type)):
        raise TypeError(f"frombuffer(): argument 'dtype' must be tensorviz.dtype, not "
                        f"{type(dtype).__name__}")
    dt = _check_dtype(dtype)
    count = _int_arg("frombuffer", "count", count)
    offset = _int_arg("frombuffer", "offset", offset)
    try:
        view = memoryview(buffer)
    except TypeError:
        raise ValueError("object does not implement Python buffer protocol.") from None
    if not view.c_contiguous:
        raise RuntimeError("could not retrieve buffer from object")
    length = view.nbytes
    elsize = dt.itemsize
    if length == 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if offset < 0 or offset >= length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than "
                         f"buffer length ({length} bytes) minus 1")
    if count < 0:
        if (length - offset) % elsize:
            raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} "
                             f"bytes) must be a multiple of element size ({elsize})")
        count = (length - offset) // elsize
    elif offset + count * elsize > length:
        raise ValueError(f"requested buffer length ({count} * {elsize} bytes) after offset "
                         f"({offset} bytes) must not be greater than actual buffer length "
                         f"({length} bytes)")
    if view.readonly:
        global _WARNED_NOT_WRITABLE
        if not _WARNED_NOT_WRITABLE:  # (PyTorch warns once per process)
            _WARNED_NOT_WRITABLE = True
            warnings.warn(
                "The given buffer is not writable, and tensorviz does not support writing to "
                "it: the tensor is read-only. You may want to copy the buffer to protect its "
                "data or make it writable before converting it to a tensor. This type of "
                "warning will be suppressed for the rest of this program.", UserWarning,
                stacklevel=2)
    data = np.frombuffer(view.cast("B"), dtype=np.uint8, count=count * elsize, offset=offset)
    from ._device import CPU
    st = UntypedStorage._wrap(data, CPU)
    t = Tensor._make(st, dt, 0, (count,), (1,))
    if requires_grad:
        _ag_meta.set_requires_grad(t, True, _ag_meta.FACTORY)
    return t


# ---------------------------------------------------------------- complex / polar


def _tensor_new(args: tuple, device: DeviceLike, dtype) -> Tensor:
    """``Tensor(*sizes)`` (uninitialised, default dtype), ``Tensor(size)``, ``Tensor(data)``
    (a copy) or ``Tensor(tensor)`` (an alias): the legacy constructor behind
    ``Tensor.__new__``, ``t.new(...)`` and ``FloatTensor(...)``."""
    dt = _dtypes.get_default_dtype() if dtype is None else dtype
    if not args:
        return empty(0, dtype=dt, device=device)
    if len(args) == 1 and not isinstance(args[0], (builtins.int, np.integer)):
        data = args[0]
        if isinstance(data, Size):
            return empty(*data, dtype=dt, device=device)
        if isinstance(data, Tensor):  # an alias (a new view of the same storage)
            if dtype is not None and data._dtype is not dtype:
                raise TypeError(f"expected {dtype!r} (got {data._dtype!r})")
            return data._view(data._shape, data._stride, data._offset)
        if isinstance(data, (builtins.float, builtins.complex, builtins.bool, str)):
            raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
        return tensor(data, dtype=dt, device=device)
    return empty(*_as_shape(args), dtype=dt, device=device)


# The layers below reach tensor creation through these hooks (they cannot import this module).
_TENSOR_HOOKS["new"] = _tensor_new
_STORAGE_HOOKS["tensor"] = tensor
_DISPATCH_HOOKS["as_tensor"] = as_tensor
