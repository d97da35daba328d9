"""Storage: the 1-D typed buffer that tensors are views of.

Every view of the same memory shares ONE ``UntypedStorage`` object (also views of another
dtype, ``t.view(tensorviz.int32)``), so ``a.untyped_storage() is a.t().untyped_storage()``.
``t.storage()`` gives the ``TypedStorage`` of the tensor's dtype, cached on the untyped one, so
``a.storage() is a.t().storage()`` holds too.

Each storage carries a version counter bumped by every in-place write through any view, and
weakly held listeners called after each bump: the widgets subscribe there and never keep a
storage (or its tensors) alive.
"""
from __future__ import annotations

import builtins
import warnings
import weakref
from typing import Any, Callable, Iterator

import numpy as np

from . import _chalf, _dtypes
from ._device import CPU, DeviceLike, as_device, device
from ._scalars import fill_value
from .backends import backend_for

#: The tensor layer's entry points, installed by it when it loads (a layer above this one):
#: ``"make"`` (``Tensor._make``, by ``_tensor``) and ``"tensor"`` (``tensorviz.tensor``, by
#: ``_creation``).  A typed storage built from data or cast to a dtype goes through a tensor.
TENSOR_HOOKS: dict = {}

__all__ = ["UntypedStorage", "TypedStorage"]


class UntypedStorage:
    """A 1-D buffer of bytes on one device (kept in the dtype it was made with)."""

    # ``_fixed`` is set (True) only on storages over memory tensorviz does not own
    # (``from_numpy``): ``resize_`` may not replace those (PyTorch: not resizable).  Left unset
    # elsewhere, so the fast constructors do not pay for it: read it with getattr.
    __slots__ = ("_data", "_device", "_backend", "_version", "_listeners", "_typed", "_fixed",
                 "__weakref__")

    def __init__(self, size_or_data: Any = 0, *, device: DeviceLike = None):
        dev = as_device(device)
        be = backend_for(dev)
        if isinstance(size_or_data, str) or size_or_data is None or isinstance(
                size_or_data, float):
            raise RuntimeError(f"{type(self).__name__}(): Expected a sequence type, but got "
                               f"{type(size_or_data).__name__}")
        if isinstance(size_or_data, (bytes, bytearray, list, tuple)):
            host = np.frombuffer(_as_bytes(size_or_data, type(self).__name__),
                                 dtype=np.uint8).copy()
            data = be.from_host(host, dev)
        else:
            data = be.zeros(_as_size(size_or_data), np.uint8, dev)
        self._init(data, dev, be)

    @classmethod
    def _wrap(cls, data, dev: device, backend=None) -> "UntypedStorage":
        """Adopt a 1-D array as a storage without copying (internal fast path)."""
        self = object.__new__(cls)
        self._data = data  # as _init, inlined: every op result passes here
        self._device = dev
        self._backend = backend or backend_for(dev)
        self._version = 0
        self._listeners = None
        self._typed = None
        return self

    def _init(self, data, dev, backend) -> None:
        self._data = data
        self._device = dev
        self._backend = backend
        self._version = 0
        self._listeners: list | None = None
        self._typed: dict | None = None

    # ------------------------------------------------------------ typed access
    def _as(self, np_dtype) -> Any:
        """The whole buffer as a 1-D array of ``np_dtype`` (zero-copy)."""
        data = self._data
        if data.dtype == np_dtype:
            return data
        return data.view(np.uint8)[: data.nbytes - data.nbytes % np.dtype(np_dtype).itemsize] \
            .view(np_dtype)

    def _typed_storage(self, dt: "_dtypes.dtype") -> "TypedStorage":
        """The cached ``TypedStorage`` of ``dt`` (one object while anyone holds it).

        The cache holds it weakly: it holds this storage, and a strong reference back would
        make a cycle keeping the memory alive until the next garbage collection."""
        cache = self._typed
        if cache is None:
            cache = self._typed = {}
        ref = cache.get(dt)
        ts = None if ref is None else ref()
        if ts is None:
            ts = TypedStorage._make(self, dt)
            cache[dt] = weakref.ref(ts)
        return ts

    # ------------------------------------------------------------ versions and listeners
    def _bump(self) -> None:
        """Record an in-place write and tell the listeners (widgets).

        One counter per storage, shared by every view of it (PyTorch shares one per view
        family too, so ``t._version`` moves as in PyTorch after in-place ops and setitem).
        """
        self._version += 1
        if self._listeners:
            for ref in list(self._listeners):
                cb = ref()
                if cb is None:
                    self._listeners.remove(ref)
                    continue
                try:
                    cb()
                except Exception as e:  # a broken observer must never undo the learner's write
                    warnings.warn(f"a storage listener failed and was ignored: {e!r}",
                                  RuntimeWarning, stacklevel=3)

    def _add_listener(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every in-place write; held weakly (bound methods too)."""
        if self._listeners is None:
            self._listeners = []
        ref = (weakref.WeakMethod(callback) if hasattr(callback, "__self__")
               else weakref.ref(callback))
        self._listeners.append(ref)

    def _remove_listener(self, callback: Callable[[], None]) -> None:
        if self._listeners:
            self._listeners[:] = [r for r in self._listeners
                                  if r() is not None and r() != callback]

    # ------------------------------------------------------------ public API
    @property
    def device(self) -> device:
        return self._device

    @property
    def is_cuda(self) -> bool:
        return self._device.type == "cuda"

    def nbytes(self) -> int:
        return int(self._data.nbytes)

    def size(self) -> int:
        return self.nbytes()

    def __len__(self) -> int:
        return self.nbytes()

    def element_size(self) -> int:
        return 1

    def data_ptr(self) -> int:
        # PyTorch gives 0 for a storage without bytes (nothing was allocated).
        return self._backend.data_ptr(self._data) if self._data.nbytes else 0

    def _bytes_host(self) -> np.ndarray:
        return np.asarray(self._backend.to_host(self._as(np.uint8)))

    def tolist(self) -> list[int]:
        return self._bytes_host().tolist()

    def __iter__(self) -> Iterator[int]:
        return iter(self.tolist())

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            start, stop, step = idx.indices(self.nbytes())
            if step != 1:
                raise RuntimeError(f"Trying to slice with a step of {step}, but only a step of "
                                   "1 is supported")
            view = self._as(np.uint8)[start:max(start, stop)]
            return UntypedStorage._wrap(view, self._device, self._backend)
        i = _check_index(idx, self.nbytes(), "tensorviz.UntypedStorage")
        return int(self._bytes_host()[i])

    def __setitem__(self, idx, value) -> None:
        if not isinstance(value, int):
            raise RuntimeError(f"can only set storage content with a int types, but got "
                               f"{type(value).__name__} instead")
        raw = self._as(np.uint8)
        value = value & 0xFF  # a byte: PyTorch wraps (300 stores 44, -1 stores 255)
        if isinstance(idx, slice):
            raw[idx] = value
        else:
            i = _check_index(idx, self.nbytes(), "tensorviz.UntypedStorage")
            raw[i] = value
        # Note: PyTorch does not bump the version counter on storage item assignment; we do,
        # so that widgets showing any tensor on this storage redraw.
        self._bump()

    def fill_(self, value: int) -> "UntypedStorage":
        self._as(np.uint8)[...] = value & 0xFF
        self._bump()  # Note: a storage-level write; PyTorch does not bump here (see above)
        return self

    def copy_(self, src: "UntypedStorage") -> "UntypedStorage":
        if src.nbytes() != self.nbytes():
            raise RuntimeError(f"size does not match, self was {self.nbytes()} bytes but src "
                               f"was {src.nbytes()} bytes")
        from .backends import copy_between
        self._as(np.uint8)[...] = copy_between(src._as(np.uint8), src._device, self._device)
        self._bump()
        return self

    def clone(self) -> "UntypedStorage":
        return UntypedStorage._wrap(self._data.copy(), self._device, self._backend)

    def is_shared(self) -> bool:
        return False

    def is_pinned(self, device=None) -> bool:
        return False

    def __reduce__(self):
        # (the bytes as a host copy in the buffer's own dtype, and the device)
        return (_rebuild_untyped, (np.array(self._backend.to_host(self._data), copy=True),
                                   str(self._device)))

    def __deepcopy__(self, memo) -> "UntypedStorage":
        r = memo.get(id(self))
        if r is None:
            r = memo[id(self)] = self.clone()
        return r

    def cpu(self) -> "UntypedStorage":
        return self.to(device=CPU)

    def cuda(self, device: DeviceLike = None) -> "UntypedStorage":
        return self.to(device=as_device("cuda" if device is None else device))

    def to(self, *, device: DeviceLike = None) -> "UntypedStorage":
        dev = as_device(device)
        if dev == self._device:
            return self
        from .backends import copy_between
        return UntypedStorage._wrap(copy_between(self._data, self._device, dev), dev)

    def __repr__(self) -> str:
        body = "\n".join(f" {v}" for v in self.tolist()) or " "
        return f"{body}\n[tensorviz.storage.UntypedStorage(device={self._device}) of size " \
               f"{self.nbytes()}]"

    __str__ = __repr__


class TypedStorage:
    """The storage seen as elements of one dtype: what ``t.storage()`` returns."""

    __slots__ = ("_untyped", "dtype", "_np", "__weakref__")

    def __new__(cls, *args, dtype=None, device: DeviceLike = None, wrap_storage=None):
        """PyTorch's legacy forms: ``TypedStorage()``, ``TypedStorage(size)``,
        ``TypedStorage(sequence)`` (``dtype=`` default float), or ``TypedStorage(wrap_storage=
        untyped, dtype=...)``: that storage's bytes seen as ``dtype`` (shared).

        Note: PyTorch warns that TypedStorage is deprecated; as ``t.storage()``, this does not.
        """
        dt = _dtypes.as_dtype(dtype)
        if wrap_storage is not None:
            if args or dt is None or not isinstance(wrap_storage, UntypedStorage):
                raise RuntimeError("TypedStorage(wrap_storage=...) takes an UntypedStorage and "
                                   "a dtype, and no other arguments")
            return wrap_storage._typed_storage(dt)
        dt = dt or _dtypes.get_default_dtype()
        if len(args) > 1 or (args and isinstance(args[0], (float, bool, complex) +
                                                 _dtypes.TENSOR_TYPES)):
            raise TypeError("TypedStorage.__init__ received an invalid combination of "
                            "arguments: expected (), (int size) or (sequence data)")
        if not args or isinstance(args[0], (int, np.integer)):
            n = int(args[0]) if args else 0
            if n < 0:
                raise RuntimeError(f"Storage size must be non-negative, got {n}")
            return UntypedStorage(n * dt.itemsize, device=device)._typed_storage(dt)
        return TENSOR_HOOKS["tensor"](args[0], dtype=dt, device=device).reshape(-1).storage()

    def __init__(self, *args, **kwargs):
        pass

    @classmethod
    def _make(cls, untyped: UntypedStorage, dt: "_dtypes.dtype") -> "TypedStorage":
        self = object.__new__(cls)
        self._untyped = untyped
        self.dtype = dt
        self._np = dt._np
        return self

    @property
    def device(self) -> device:
        return self._untyped._device

    @property
    def is_cuda(self) -> bool:
        return self._untyped.is_cuda

    @property
    def _version(self) -> int:
        return self._untyped._version

    def _array(self):
        return self._untyped._as(self._np)

    def untyped(self) -> UntypedStorage:
        return self._untyped

    def size(self) -> int:
        return self._untyped.nbytes() // self.dtype.itemsize

    __len__ = size

    def element_size(self) -> int:
        return self.dtype.itemsize

    def nbytes(self) -> int:
        return self.size() * self.dtype.itemsize

    def data_ptr(self) -> int:
        return self._untyped.data_ptr()

    def _window(self, start: int, stop: int) -> np.ndarray:
        """Host NumPy COPY of elements ``[start, stop)``: a bounded read for big storages."""
        n = self.size()
        start, stop = max(0, min(start, n)), max(0, min(stop, n))
        part = self._array()[start:max(start, stop)]
        if self.dtype is _dtypes.complex32:  # (its values: NumPy has no complex32)
            return _chalf.widen(np.asarray(self._untyped._backend.to_host(part)))
        return np.array(self._untyped._backend.to_host(part), copy=True)

    def tolist(self) -> list:
        return self._window(0, self.size()).tolist()

    def __iter__(self) -> Iterator:
        return iter(self.tolist())

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            raise RuntimeError("slices are only supported in UntypedStorage.__getitem__")
        if not hasattr(idx, "__index__"):
            raise RuntimeError(f"can't index a <class 'tensorviz.storage.TypedStorage'> with "
                               f"{type(idx)}")
        i = _check_index(idx, self.size())
        return self._window(i, i + 1)[0].item()

    def __setitem__(self, idx, value) -> None:
        arr = self._array()
        v = _scalar_for(value, self.dtype)
        if isinstance(idx, slice):
            arr[idx] = v
        else:
            n = self.size()
            try:
                i = _check_index(idx, n)
            except IndexError:
                raise IndexError(f"index {idx} is out of bounds for dimension 0 with size "
                                 f"{n}") from None
            arr[i] = v
        # Note: PyTorch does not bump the version counter on storage item assignment; we do,
        # so that widgets showing any tensor on this storage redraw.
        self._untyped._bump()

    def fill_(self, value) -> "TypedStorage":
        self._array()[...] = _scalar_for(value, self.dtype)
        self._untyped._bump()  # Note: a storage-level write; PyTorch does not bump here
        return self

    def copy_(self, src: "TypedStorage") -> "TypedStorage":
        if src.nbytes() != self.nbytes():
            raise RuntimeError(f"size does not match, self was {self.nbytes()} bytes but src "
                               f"was {src.nbytes()} bytes")
        from .backends import copy_between
        data = copy_between(src._array(), src.device, self.device)
        from .backends._numpy import call_quiet
        call_quiet(self._array().__setitem__, Ellipsis, data)
        self._untyped._bump()
        return self

    def clone(self) -> "TypedStorage":
        """A copy of the elements in a new storage of the same dtype."""
        return self._untyped.clone()._typed_storage(self.dtype)

    def _cast(self, dt: "_dtypes.dtype") -> "TypedStorage":
        """The elements converted to ``dt`` in a new storage (``self`` when already ``dt``)."""
        if dt is self.dtype:
            return self
        t = TENSOR_HOOKS["make"](self._untyped, self.dtype, 0, (self.size(),), (1,))
        return t.to(dt).storage()

    def double(self): return self._cast(_dtypes.float64)
    def float(self): return self._cast(_dtypes.float32)
    def half(self): return self._cast(_dtypes.float16)
    def bfloat16(self): return self._cast(_dtypes.bfloat16)
    def int(self): return self._cast(_dtypes.int32)
    def long(self): return self._cast(_dtypes.int64)
    def short(self): return self._cast(_dtypes.int16)
    def char(self): return self._cast(_dtypes.int8)
    def byte(self): return self._cast(_dtypes.uint8)
    def bool(self): return self._cast(_dtypes.bool)
    def complex_float(self): return self._cast(_dtypes.complex64)
    def complex_double(self): return self._cast(_dtypes.complex128)

    def is_shared(self) -> "builtins.bool":
        return False

    def is_pinned(self, device=None) -> "builtins.bool":
        return False

    def share_memory_(self) -> "TypedStorage":
        return self

    def type(self) -> str:
        """The legacy storage class name, e.g. ``'tensorviz.FloatStorage'``."""
        return f"tensorviz.{self.dtype.cname}Storage"

    def cpu(self) -> "TypedStorage":
        return self._untyped.cpu()._typed_storage(self.dtype)

    def __repr__(self) -> str:
        body = "\n".join(f" {v}" for v in self.tolist()) or " "
        return (f"{body}\n[tensorviz.storage.TypedStorage(dtype={self.dtype!r}, device="
                f"{self.device}) of size {self.size()}]")

    __str__ = __repr__


def _rebuild_untyped(data: np.ndarray, dev: str) -> UntypedStorage:
    d = as_device(dev)
    be = backend_for(d)
    return UntypedStorage._wrap(data if d.type == "cpu" else be.from_host(data, d), d, be)


def _scalar_for(value, dt):
    """A value stored into a typed storage: PyTorch's checked conversion to ``dt``."""
    if isinstance(value, _dtypes.TENSOR_TYPES):
        value = value.item()
    if type(value) is int and not -(1 << 63) <= value < (1 << 63):
        # (a storage unpacks a Python int as a C long long, before any dtype's own check)
        raise ValueError("Overflow when unpacking long long")
    try:
        return fill_value(value, dt)
    except OverflowError:  # (PyTorch's words for an int no 64-bit type holds)
        raise ValueError("Overflow when unpacking long long") from None


def _as_bytes(data, what: str) -> bytes:
    """The bytes of ``UntypedStorage(data)``: each int kept modulo 256, as PyTorch does."""
    if isinstance(data, (bytes, bytearray)):
        return bytes(data)
    for v in data:
        if not isinstance(v, int):
            raise RuntimeError(f"torch.{what}(): tried to construct a storage from a sequence "
                               f"({type(data).__name__}), but one of the items was of type "
                               f"{type(v).__name__} instead of int")
    return bytes(v & 0xFF for v in data)


def _as_size(n) -> int:
    try:
        n = int(n.__index__())
    except (AttributeError, TypeError):
        raise TypeError(f"UntypedStorage(): expected a size (int) or bytes, got "
                        f"{type(n).__name__}") from None
    if n < 0:
        raise RuntimeError(f"Storage size must be non-negative, got {n}")
    return n


def _check_index(idx, size: int, what: str = "storage") -> int:
    try:
        i = idx.__index__()
    except (AttributeError, TypeError):
        raise TypeError(f"can't index a {what} with {type(idx).__name__}") from None
    if i < -size or i >= size:
        raise IndexError(f"index {i} out of range for storage of size {size}")
    return i + size if i < 0 else i
