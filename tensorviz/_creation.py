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

from . import _dtypes, _layout
from ._device import DeviceLike, as_device
from ._dtypes import dtype as _dtype_cls
from ._storage import UntypedStorage
from ._tensor import Tensor, _as_shape, from_numpy, wrap_array
from .backends import backend_for

__all__ = ["tensor", "as_tensor", "asarray", "from_numpy", "zeros", "ones", "empty", "full",
           "zeros_like", "ones_like", "empty_like", "full_like", "arange", "range", "linspace",
           "logspace", "eye", "empty_strided", "scalar_tensor", "numel", "is_tensor",
           "is_storage", "is_floating_point", "is_complex", "is_nonzero"]


def _check_dtype(dtype) -> _dtype_cls | None:
    if dtype is None or isinstance(dtype, _dtype_cls):
        return dtype
    raise TypeError(f"dtype must be a tensorviz.dtype (e.g. tensorviz.float32), not "
                    f"{type(dtype).__name__}")


def _finish(host: np.ndarray, dt: _dtype_cls, device: DeviceLike, requires_grad: bool) -> Tensor:
    dev = as_device(device)
    if dev.type != "cpu":
        host = backend_for(dev).from_host(np.ascontiguousarray(host), dev)
    t = wrap_array(host, dt, dev)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _infer_dtype(arr: np.ndarray) -> _dtype_cls:
    kind = arr.dtype.kind
    if kind == "b":
        return _dtypes.bool
    if kind in "iu":
        return _dtypes.int64
    if kind == "f":
        return _dtypes.get_default_dtype()
    if kind == "c":
        return _dtypes.default_complex_dtype()
    raise TypeError(f"new(): invalid data type '{arr.dtype.name}'")


def _contains_tensor(data) -> bool:
    if isinstance(data, Tensor):
        return True
    if isinstance(data, (list, tuple)):
        return any(_contains_tensor(d) for d in data[:1]) or any(isinstance(d, Tensor)
                                                                for d in data)
    return False


def _to_host_nested(data):
    if isinstance(data, Tensor):
        return data.numpy(force=True)
    if isinstance(data, (list, tuple)):
        return [_to_host_nested(d) for d in data]
    return data


def _check_sequence(data, dim: int = 0) -> None:
    """ValueError in PyTorch's words for ragged nested lists."""
    if not isinstance(data, (list, tuple)) or not data:
        return
    first = data[0]
    if isinstance(first, (list, tuple)):
        n = len(first)
        for item in data:
            if not isinstance(item, (list, tuple, Tensor, np.ndarray)):
                raise TypeError(f"expected a sequence at dim {dim + 1} (got "
                                f"{type(item).__name__})")
            if len(item) != n:
                raise ValueError(f"expected sequence of length {n} at dim {dim + 1} (got "
                                 f"{len(item)})")
            _check_sequence(item, dim + 1)
    else:
        for item in data:
            if isinstance(item, (list, tuple)):
                raise ValueError(f"expected sequence of length {len(data)} at dim {dim} (got "
                                 f"{len(item)})")


def tensor(data: Any, *, dtype: _dtype_cls | None = None, device: DeviceLike = None,
           requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """A new tensor holding a copy of ``data`` (nested lists, scalars, arrays, tensors).

    The dtype is inferred like PyTorch: bools -> bool, ints -> int64, floats -> the default
    float dtype, complex -> the default complex dtype; a NumPy array keeps its dtype.
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
            t.requires_grad_(True)
        return t
    if isinstance(data, np.ndarray):
        dt = dtype or _dtypes.from_numpy_dtype(data.dtype)
        return _finish(np.array(data, dtype=dt._np, copy=True), dt, device, requires_grad)
    if isinstance(data, np.generic):
        dt = dtype or _dtypes.from_numpy_dtype(data.dtype)
        return _finish(np.array(data, dtype=dt._np), dt, device, requires_grad)
    if isinstance(data, (str, bytes)) or data is None:
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    if isinstance(data, (list, tuple)):
        _check_sequence(data)
        if _contains_tensor(data):
            data = _to_host_nested(data)
    elif not isinstance(data, (builtins.bool, builtins.int, builtins.float, builtins.complex)):
        if hasattr(data, "__array__") or hasattr(data, "__array_interface__"):
            return tensor(np.asarray(data), dtype=dtype, device=device,
                          requires_grad=requires_grad)
        try:
            data = list(data)
        except TypeError:
            raise TypeError(f"new(): invalid data type '{type(data).__name__}'") from None
    try:
        arr = np.array(data)
    except (ValueError, OverflowError) as e:
        if isinstance(e, OverflowError) or "too large" in str(e):
            raise RuntimeError("Overflow when unpacking long") from None
        raise ValueError(f"could not build a tensor from this data: {e}") from None
    if arr.dtype.kind == "O":
        raise RuntimeError("Could not infer dtype of the given data: use numbers (or nested "
                           "lists of numbers of equal lengths)")
    if arr.dtype.kind in "US":
        raise TypeError(f"new(): invalid data type '{type(arr.flat[0].item()).__name__}'")
    dt = dtype or _infer_dtype(arr)
    if arr.dtype.kind == "c" and dt.category != _dtypes._COMPLEX:
        arr = arr.real
    with np.errstate(all="ignore"):
        host = arr.astype(dt._np)
    return _finish(host, dt, device, requires_grad)


def as_tensor(data: Any, dtype: _dtype_cls | None = None, device: DeviceLike = None) -> Tensor:
    """Like ``tensor`` but shares memory with a tensor or NumPy array when nothing changes."""
    dtype = _check_dtype(dtype)
    if isinstance(data, Tensor):
        return data.to(device=device if device is not None else data.device,
                       dtype=dtype or data.dtype)
    if isinstance(data, np.ndarray) and data.dtype.isnative:
        try:
            t = from_numpy(data)
        except (TypeError, ValueError):
            t = None
        if t is not None:
            return t.to(device=as_device(device), dtype=dtype or t.dtype)
    return tensor(data, dtype=dtype, device=device)


def asarray(obj: Any, *, dtype: _dtype_cls | None = None, device: DeviceLike = None,
            copy: bool | None = None, requires_grad: bool = False) -> Tensor:
    """``as_tensor`` with ``copy=`` control (True always copies, False refuses to)."""
    if copy:
        return tensor(obj.numpy(force=True) if isinstance(obj, Tensor) else obj, dtype=dtype,
                      device=device, requires_grad=requires_grad)
    t = as_tensor(obj, dtype=dtype, device=device)
    if copy is False and isinstance(obj, (Tensor, np.ndarray)):
        if (t.data_ptr() != (obj.data_ptr() if isinstance(obj, Tensor)
                             else obj.__array_interface__["data"][0])):
            raise ValueError("can't alias the given object without a copy (copy=False)")
    return t


def _sizes(size: Sequence[Any]) -> tuple[int, ...]:
    shape = _as_shape(size)
    for s in shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"[{', '.join(map(str, shape))}]")
    return shape


def _fill(shape, value, dt: _dtype_cls, device: DeviceLike, requires_grad: bool,
          stride: tuple | None = None) -> Tensor:
    """A new tensor of ``shape`` holding ``value`` (None: uninitialised); row-major unless
    ``stride`` (dense) says otherwise."""
    dev = as_device(device)
    be = backend_for(dev)
    n = math.prod(shape)
    if value is None:
        buf = be.empty(n, dt._np, dev)
    elif value == 0:
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
        t.requires_grad_(True)
    return t


def zeros(*size, dtype: _dtype_cls | None = None, device: DeviceLike = None,
          requires_grad: bool = False, out: Tensor | None = None) -> Tensor:
    """A tensor of zeros (default float dtype unless ``dtype`` says otherwise)."""
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    return _with_out(_fill(_sizes(size), 0, dt, device, requires_grad), out)


def ones(*size, dtype: _dtype_cls | None = None, device: DeviceLike = None,
         requires_grad: bool = False, out: Tensor | None = None) -> Tensor:
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    return _with_out(_fill(_sizes(size), 1, dt, device, requires_grad), out)


def empty(*size, dtype: _dtype_cls | None = None, device: DeviceLike = None,
          requires_grad: bool = False, out: Tensor | None = None,
          memory_format=None) -> Tensor:
    """An uninitialised tensor: its values are whatever the memory held (as in PyTorch)."""
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    return _with_out(_fill(_sizes(size), None, dt, device, requires_grad), out)


def _scalar_dtype(value) -> _dtype_cls:
    if isinstance(value, Tensor):
        return value.dtype
    return _dtypes.scalar_dtype(value)


def full(size, fill_value, *, dtype: _dtype_cls | None = None, device: DeviceLike = None,
         requires_grad: bool = False, out: Tensor | None = None) -> Tensor:
    """A tensor filled with ``fill_value``; the dtype follows the value's type like PyTorch."""
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    dt = _check_dtype(dtype) or _scalar_dtype(fill_value)
    from .ops._elementwise import fill_value as _checked
    return _with_out(_fill(_sizes((size,)), _checked(fill_value, dt), dt, device,
                           requires_grad), out)


def _with_out(t: Tensor, out: Tensor | None) -> Tensor:
    if out is None:
        return t
    from .ops._elementwise import write_out
    return write_out(out, t._arr, t.dtype, t.device)


def _like(input: Tensor, dtype, device, memory_format=None):
    """dtype, device and strides of a ``*_like`` result (``preserve_format`` by default:
    a dense input's strides, any other input's dim order, as in PyTorch)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"expected a Tensor as input, got {type(input).__name__}")
    from ._tensor import contiguous_format
    stride = (None if memory_format is contiguous_format
              else _layout.preserve_strides(input._shape, input._stride))
    return (_check_dtype(dtype) or input.dtype,
            input.device if device is None else as_device(device), stride)


def zeros_like(input: Tensor, *, dtype=None, device=None, requires_grad=False,
               memory_format=None) -> Tensor:
    dt, dev, stride = _like(input, dtype, device, memory_format)
    return _fill(input._shape, 0, dt, dev, requires_grad, stride)


def ones_like(input: Tensor, *, dtype=None, device=None, requires_grad=False,
              memory_format=None) -> Tensor:
    dt, dev, stride = _like(input, dtype, device, memory_format)
    return _fill(input._shape, 1, dt, dev, requires_grad, stride)


def empty_like(input: Tensor, *, dtype=None, device=None, requires_grad=False,
               memory_format=None) -> Tensor:
    dt, dev, stride = _like(input, dtype, device, memory_format)
    return _fill(input._shape, None, dt, dev, requires_grad, stride)


def full_like(input: Tensor, fill_value, *, dtype=None, device=None, requires_grad=False,
              memory_format=None) -> Tensor:
    dt, dev, stride = _like(input, dtype, device, memory_format)
    from .ops._elementwise import fill_value as _checked
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    return _fill(input._shape, _checked(fill_value, dt), dt, dev, requires_grad, stride)


def empty_strided(size, stride, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """An uninitialised tensor with the given strides (storage sized to fit them exactly)."""
    from . import _layout
    shape, strides = _sizes((size,)), _as_shape((stride,), "stride")
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    n = _layout.storage_extent(shape, strides, 0) if math.prod(shape) else 0
    base = _fill((n,), None, dt, device, requires_grad)
    return base.as_strided(shape, strides, 0)


def scalar_tensor(s, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    return tensor(s, dtype=dt, device=device, requires_grad=requires_grad)


def _number(x, what: str):
    if isinstance(x, Tensor):
        return x.item()
    if isinstance(x, (builtins.int, builtins.float, np.number)) and not isinstance(x, builtins.bool):
        return x
    if isinstance(x, builtins.bool):
        return builtins.int(x)
    raise TypeError(f"{what} must be a number, not {type(x).__name__}")


def arange(start=0, end=None, step=1, *, dtype: _dtype_cls | None = None,
           device: DeviceLike = None, requires_grad: bool = False,
           out: Tensor | None = None) -> Tensor:
    """Values ``start, start+step, ...`` below ``end``; int64 unless a bound is a float.

    >>> arange(0, 1, 0.25).tolist()
    [0.0, 0.25, 0.5, 0.75]
    """
    if end is None:
        start, end = 0, start
    start, end, step = (_number(start, "start"), _number(end, "end"), _number(step, "step"))
    dt = _check_dtype(dtype)
    if dt is None:
        dt = (_dtypes.get_default_dtype() if any(isinstance(v, (builtins.float, np.floating))
                                                 for v in (start, end, step))
              else _dtypes.int64)
    for v in (start, end):
        if isinstance(v, builtins.float) and not math.isfinite(v):
            raise RuntimeError(f"unsupported range: {start} -> {end}")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0 and end != start:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    n = builtins.max(builtins.int(math.ceil((end - start) / step)), 0)
    if dt.category == _dtypes._INT and all(isinstance(v, (builtins.int, np.integer))
                                           for v in (start, end, step)):
        host = (start + step * np.arange(n, dtype=np.int64)).astype(dt._np)
    else:
        host = (start + step * np.arange(n, dtype=np.float64))
        with np.errstate(all="ignore"):
            host = host.astype(dt._np)
    return _with_out(_finish(host, dt, device, requires_grad), out)


def range(start=0, end=None, step=1, *, dtype: _dtype_cls | None = None,
          device: DeviceLike = None, requires_grad: bool = False) -> Tensor:
    """Deprecated inclusive range (``end`` included), float by default, as in PyTorch."""
    warnings.warn("torch.range is deprecated and will be removed in a future release because "
                  "its behavior is inconsistent with Python's range builtin. Instead, use "
                  "torch.arange, which produces values in [start, end).", UserWarning,
                  stacklevel=2)
    if end is None:
        start, end = 0, start
    start, end, step = (_number(start, "start"), _number(end, "end"), _number(step, "step"))
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    if step == 0:
        raise RuntimeError("step must be nonzero")
    n = builtins.max(builtins.int(math.floor((end - start) / step)) + 1, 0)
    host = start + step * np.arange(n, dtype=np.float64)
    return _finish(host.astype(dt._np), dt, device, requires_grad)


def linspace(start, end, steps: int, *, dtype: _dtype_cls | None = None,
             device: DeviceLike = None, requires_grad: bool = False,
             out: Tensor | None = None) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive.

    Computed like PyTorch: the first half counts up from ``start``, the second half down from
    ``end``, so both ends are exact.
    """
    start, end = _number(start, "start"), _number(end, "end")
    steps = _check_steps(steps)
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    host = _linspace_host(start, end, steps)
    with np.errstate(all="ignore"):
        if dt.category == _dtypes._INT:
            host = np.trunc(host)
        host = host.astype(dt._np)
    return _with_out(_finish(host, dt, device, requires_grad), out)


def _check_steps(steps) -> int:
    steps = _number(steps, "steps")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    return builtins.int(steps)


def _linspace_host(start, end, steps: int) -> np.ndarray:
    if steps == 0:
        return np.empty(0)
    if steps == 1:
        return np.array([start], dtype=np.float64)
    step = (end - start) / (steps - 1)
    i = np.arange(steps, dtype=np.float64)
    half = steps // 2
    return np.where(i < half, start + step * i, end - step * (steps - 1 - i))


def logspace(start, end, steps: int, base: float = 10.0, *, dtype: _dtype_cls | None = None,
             device: DeviceLike = None, requires_grad: bool = False) -> Tensor:
    """``base ** linspace(start, end, steps)``."""
    start, end = _number(start, "start"), _number(end, "end")
    steps = _check_steps(steps)
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    with np.errstate(all="ignore"):
        host = np.power(float(base), _linspace_host(start, end, steps))
        if dt.category == _dtypes._INT:
            host = np.trunc(host)
        host = host.astype(dt._np)
    return _finish(host, dt, device, requires_grad)


def eye(n: int, m: int | None = None, *, dtype: _dtype_cls | None = None,
        device: DeviceLike = None, requires_grad: bool = False,
        out: Tensor | None = None) -> Tensor:
    """The ``n x m`` identity matrix."""
    n = _number(n, "n")
    m = n if m is None else _number(m, "m")
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    return _with_out(_finish(np.eye(n, m, dtype=dt._np), dt, device, requires_grad), out)


def numel(input: Tensor) -> int:
    return input.numel()


def is_tensor(obj) -> bool:
    return isinstance(obj, Tensor)


def is_storage(obj) -> bool:
    from ._storage import TypedStorage, UntypedStorage
    return isinstance(obj, (TypedStorage, UntypedStorage))


def is_floating_point(input: Tensor) -> bool:
    return input.is_floating_point()


def is_complex(input: Tensor) -> bool:
    return input.is_complex()


def is_nonzero(input: Tensor) -> bool:
    if input.numel() != 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous"
                           if input.numel() else
                           "Boolean value of Tensor with no values is ambiguous")
    return bool(input.item())
