"""``Tensor``: a strided view ``(storage, offset, shape, stride)`` of a typed storage.

View ops compute a new layout with the pure functions of ``_layout`` and share the storage
(O(1), nothing copied).  Data is reached through a cached strided array view of the storage
made by the device's backend; ops compute on it and wrap their results in fresh storages.
"""
from __future__ import annotations

import builtins
import threading
import warnings
from typing import Any, Iterator, Sequence

import numpy as np

from . import _dtypes, _layout
from ._device import CPU, DeviceLike, as_device, device
from ._dtypes import dtype as _dtype_cls
from ._size import Size
from ._storage import TypedStorage, UntypedStorage
from .backends import CPU_BACKEND, backend_for
from .backends._numpy import call_quiet

__all__ = ["Tensor", "strided", "wrap_array", "from_numpy", "layout"]


class layout:
    """The memory layout kind; tensorviz has only ``tensorviz.strided``."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"tensorviz.{self.name}"


strided = layout("strided")

_CONTIG: dict[tuple, tuple] = {}


def _contig(shape: tuple) -> tuple:
    s = _CONTIG.get(shape)
    if s is None:
        s = _layout.contiguous_strides(shape)
        if len(_CONTIG) < 4096:
            _CONTIG[shape] = s
    return s


def _make(cls, storage: UntypedStorage, dt: _dtype_cls, offset: int, shape: tuple,
          stride: tuple, arr=None) -> "Tensor":
    """The internal fast constructor: no checks, no copies."""
    t = object.__new__(cls)
    t._storage = storage
    t._dtype = dt
    t._offset = offset
    t._shape = shape
    t._stride = stride
    t._a = arr
    t.requires_grad = False
    return t


_FIRST_STORAGE = threading.Lock()  # guards making a fresh result's storage (see _fresh)


def _fresh(dt: _dtype_cls, shape: tuple, stride: tuple, arr: np.ndarray) -> "Tensor":
    """A tensor over ``arr``, a freshly computed row-major NumPy array no one else holds.

    Its storage, a flat view of ``arr``, is made on first use (``Tensor.__getattr__``): most
    intermediate results are never asked for theirs, and building it is a good part of a
    small op's cost.
    """
    t = object.__new__(Tensor)
    t._dtype = dt
    t._offset = 0
    t._shape = shape
    t._stride = stride
    t._a = arr
    t.requires_grad = False
    return t


def wrap_array(arr, dt: _dtype_cls | None = None, dev: device = CPU,
               stride: tuple | None = None) -> "Tensor":
    """Adopt a freshly computed array (NumPy or CuPy) as a tensor's storage, zero-copy.

    The array must not alias any other tensor's memory (ops hand over new results).
    Dense results keep their dim order (as PyTorch keeps a transposed input's order);
    anything else is made contiguous first.  ``stride`` (dense) asks for that layout: the
    array is adopted when it has it, copied into it otherwise.
    """
    if type(arr) is np.ndarray and dev is CPU and dt is not None and arr.dtype is dt._np \
            and arr.flags.c_contiguous:  # the common case: a row-major result, as wanted
        shape = arr.shape
        contig = _contig(shape)
        if stride is None or stride == contig:
            return _fresh(dt, shape, contig, arr)
    be = backend_for(dev)
    xp = be.xp
    if not isinstance(arr, xp.ndarray):
        arr = xp.asarray(arr)
    if dt is None:
        dt = _dtypes.from_numpy_dtype(arr.dtype)
    elif arr.dtype != dt._np:
        arr = call_quiet(arr.astype, dt._np)  # (past the dtype's range: inf, silently)
    shape = arr.shape
    c_contiguous = arr.flags.c_contiguous
    if stride is not None:
        if stride == _contig(shape):
            if not c_contiguous:
                arr = xp.ascontiguousarray(arr)
                c_contiguous = True
        elif tuple(s // arr.itemsize for s in arr.strides) != stride:
            buf = be.empty(_layout.numel(shape), dt._np, dev)
            out = be.strided(buf, 0, shape, stride)
            out[...] = arr
            return _make(Tensor, UntypedStorage._wrap(buf, dev, be), dt, 0, shape, stride, out)
    if c_contiguous:  # (a requested layout that differs only in size-1 dims' strides: kept)
        return _make(Tensor, UntypedStorage._wrap(arr.reshape(-1), dev, be), dt, 0, shape,
                     _contig(shape) if stride is None else stride, arr)
    item = arr.itemsize
    stride = tuple(s // item for s in arr.strides)
    if (all(s >= 0 and s % item == 0 for s in arr.strides)
            and _layout.is_non_overlapping_and_dense(shape, stride)):
        order = sorted(range(arr.ndim), key=lambda d: -stride[d])
        flat = arr.transpose(order).reshape(-1)  # a view: the dims sorted are C-contiguous
        return _make(Tensor, UntypedStorage._wrap(flat, dev, be), dt, 0, shape, stride, arr)
    arr = xp.ascontiguousarray(arr)
    return _make(Tensor, UntypedStorage._wrap(arr.reshape(-1), dev, be), dt, 0, shape,
                 _contig(shape), arr)


def host_array(t: "Tensor") -> np.ndarray:
    """``t``'s values as a NumPy array for tensorviz's own use (a view on the CPU, a copy from
    a GPU); unlike ``t.numpy()`` it leaves the storage resizable."""
    if t._storage._device.type == "cpu":
        return t._arr
    return np.asarray(t._storage._backend.to_host(t._arr))


def from_numpy(ndarray: np.ndarray) -> "Tensor":
    """A tensor sharing memory with a NumPy array (any positive strides), keeping its dtype.

    >>> a = np.arange(6.0).reshape(2, 3); t = from_numpy(a.T); t.stride()
    (1, 3)
    """
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {_type_name(type(ndarray))})")
    if not ndarray.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte "
                         "order. Conversion between byte orders is currently not supported.")
    dt = _dtypes.from_numpy_dtype(ndarray.dtype)
    item = ndarray.itemsize
    if any(s < 0 for s in ndarray.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with "
            "negative strides are not currently supported. (You can probably work around this "
            "by making a copy of your array  with array.copy().) ")
    if any(s % item for s in ndarray.strides):
        raise ValueError("given numpy array strides not a multiple of the element byte size. "
                         "Copy the numpy array to reallocate the memory.")
    if not ndarray.flags.writeable:
        warnings.warn("The given NumPy array is not writable, and PyTorch does not support "
                      "non-writable tensors. This means writing to this tensor will result in "
                      "undefined behavior. You may want to copy the array to protect its data "
                      "or make it writable before converting it to a tensor. This type of "
                      "warning will be suppressed for the rest of this program.", UserWarning,
                      stacklevel=2)
    shape = ndarray.shape
    stride = tuple(s // item for s in ndarray.strides)
    if ndarray.size == 0:
        flat = np.empty(0, ndarray.dtype)
    else:
        extent = _layout.storage_extent(shape, stride, 0)
        flat = np.lib.stride_tricks.as_strided(ndarray, shape=(extent,), strides=(item,))
    st = UntypedStorage._wrap(flat, CPU)
    st._fixed = True
    return _make(Tensor, st, dt, 0, shape, stride, ndarray)


def _type_name(kind: type) -> str:
    """A type's name as PyTorch's C++ errors print it (CPython's ``tp_name``): a class defined
    in Python or a builtin by its bare name, another extension type with its module
    (``numpy.float64``)."""
    if kind.__flags__ & (1 << 9) or kind.__module__ == "builtins":  # (Py_TPFLAGS_HEAPTYPE)
        return kind.__name__
    return f"{kind.__module__}.{kind.__name__}"


def _kw_shape(args: tuple, value: Any, name: str, fn: str) -> tuple:
    """Positional sizes, or the one keyword form (``view(size=(2, 3))``) as PyTorch allows."""
    if value is None:
        return args
    if args:
        raise TypeError(f"{fn}() got multiple values for argument '{name}'")
    return (value,)


def _as_shape(args: Sequence[Any], what: str = "size") -> tuple[int, ...]:
    """Accept ``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])`` or ``f(Size)`` as a shape."""
    if len(args) == 1 and not isinstance(args[0], (builtins.int, np.integer)):
        a = args[0]
        if isinstance(a, Tensor):  # a 0-dim integer tensor is a size; others are not
            if a._shape:
                raise TypeError(f"{what} must be a tuple of ints, not Tensor")
            a = (a,)
        elif not hasattr(a, "__iter__"):
            raise TypeError(f"{what} must be a tuple of ints, not {type(a).__name__}")
        args = a
    try:
        return tuple(int(s.__index__()) if type(s) is not builtins.int else s for s in args)
    except (AttributeError, TypeError):
        raise TypeError(f"{what} must be a tuple of ints, but got "
                        f"{[type(s).__name__ for s in args]}") from None


class memory_format:
    """A memory format: the dim order a new tensor's strides follow (``contiguous_format``
    row-major, ``channels_last`` NHWC, ``channels_last_3d`` NDHWC) or ``preserve_format``
    (the input's own layout)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"tensorviz.{self.name}"


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")

_FORMATS = {f.name: f for f in (contiguous_format, preserve_format, channels_last,
                                channels_last_3d)}



def _format_name(fmt, fn: str, default: str = "preserve_format") -> str:
    """The name of a ``memory_format=`` argument (None: ``default``); TypeError otherwise."""
    if fmt is None:
        return default
    if type(fmt) is not memory_format:
        raise TypeError(f"{fn}(): argument 'memory_format' must be tensorviz.memory_format, not "
                        f"{type(fmt).__name__}")
    return fmt.name


class Tensor:
    """A multi-dimensional view of a typed storage, with PyTorch's API."""

    __slots__ = ("_storage", "_dtype", "_offset", "_shape", "_stride", "_a", "requires_grad",
                 "__weakref__")
    __array_priority__ = 1000  # NumPy defers to our reflected operators

    # ------------------------------------------------------------ construction
    def __new__(cls, *args, device: DeviceLike = None, dtype=None):
        """``Tensor(*sizes)`` (uninitialised float32) or ``Tensor(data)`` (float32 copy)."""
        from ._creation import tensor as _tensor_fn, empty
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
            return _tensor_fn(data, dtype=dt, device=device)
        return empty(*_as_shape(args), dtype=dt, device=device)

    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, name: str):
        # Only reached for slots never set: the storage of a fresh result (see ``_fresh``).
        if name == "_storage":
            with _FIRST_STORAGE:  # two threads asking at once must get one storage
                try:
                    return object.__getattribute__(self, "_storage")
                except AttributeError:
                    pass
                st = self._storage = UntypedStorage._wrap(self._a.reshape(-1), CPU,
                                                          CPU_BACKEND)
            return st
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    _make = classmethod(_make)

    @property
    def _arr(self):
        """The backend's strided array view of this tensor (cached; zero-copy)."""
        a = self._a
        if a is None:
            st = self._storage
            a = self._a = st._backend.strided(st._as(self._dtype._np), self._offset,
                                              self._shape, self._stride)
        return a

    def _view(self, shape: tuple, stride: tuple, offset: int) -> "Tensor":
        """A new tensor over the same storage with another layout (a view, O(1))."""
        return _make(Tensor, self._storage, self._dtype, offset, shape, stride)

    def _set_layout(self, storage: UntypedStorage, offset: int, shape: tuple,
                    stride: tuple) -> None:
        """Point this tensor at a new storage/layout (``out=`` resizing, ``set_``)."""
        self._storage, self._offset, self._shape, self._stride = storage, offset, shape, stride
        self._a = None

    # ------------------------------------------------------------ metadata
    @property
    def shape(self) -> Size:
        return tuple.__new__(Size, self._shape)

    def size(self, dim: int | None = None):
        if dim is None:
            return tuple.__new__(Size, self._shape)
        return self._shape[_dim_of(self, dim)]

    def stride(self, dim: int | None = None):
        if dim is None:
            return self._stride
        return self._stride[_dim_of(self, dim)]

    def storage_offset(self) -> int:
        return self._offset

    def dim(self) -> int:
        return len(self._shape)

    ndimension = dim

    @property
    def ndim(self) -> int:
        return len(self._shape)

    def numel(self) -> int:
        return _layout.numel(self._shape)

    nelement = numel

    @property
    def dtype(self) -> _dtype_cls:
        return self._dtype

    @property
    def device(self) -> device:
        return self._storage._device

    @property
    def is_cuda(self) -> bool:
        return self._storage._device.type == "cuda"

    @property
    def is_cpu(self) -> bool:
        return self._storage._device.type == "cpu"

    def get_device(self) -> int:
        dev = self._storage._device
        return -1 if dev.type == "cpu" else dev.index

    @property
    def layout(self) -> layout:
        return strided

    @property
    def is_leaf(self) -> bool:
        return True

    @property
    def grad(self):
        return None

    def element_size(self) -> int:
        return self._dtype.itemsize

    @property
    def itemsize(self) -> int:
        return self._dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.numel() * self._dtype.itemsize

    def is_floating_point(self) -> bool:
        return self._dtype.category == _dtypes._FLOAT

    def is_complex(self) -> bool:
        return self._dtype.category == _dtypes._COMPLEX

    def is_signed(self) -> bool:
        return self._dtype.is_signed

    def is_contiguous(self, memory_format=None) -> bool:
        if memory_format is None:
            return _layout.is_contiguous(self._shape, self._stride)
        return _layout.is_contiguous_as(self._shape, self._stride,
                                        _format_name(memory_format, "is_contiguous"))

    def is_non_overlapping_and_dense(self) -> bool:
        return _layout.is_non_overlapping_and_dense(self._shape, self._stride)

    def storage(self) -> TypedStorage:
        # Note: PyTorch warns that TypedStorage is deprecated; the lessons rely on it, so no.
        return self._storage._typed_storage(self._dtype)

    def untyped_storage(self) -> UntypedStorage:
        return self._storage

    def data_ptr(self) -> int:
        # Note: as in PyTorch, a tensor without elements has no data: its pointer is 0.
        if 0 in self._shape:
            return 0
        return self._storage.data_ptr() + self._offset * self._dtype.itemsize

    @property
    def _version(self) -> int:
        return self._storage._version

    @property
    def data(self) -> "Tensor":
        # Note: PyTorch's ``t.data`` gets its own version counter (writes through it do not
        # move ``t._version``); here it is ``t`` itself, so widgets see those writes too.
        return self

    def detach(self) -> "Tensor":
        return self._view(self._shape, self._stride, self._offset)

    def detach_(self) -> "Tensor":
        return self

    def requires_grad_(self, requires_grad: bool = True) -> "Tensor":
        if requires_grad and self._dtype.category < _dtypes._FLOAT:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = requires_grad
        return self

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self, *, tensor_contents=None) -> str:
        from ._printing import tensor_repr
        be = self._storage._backend
        return tensor_repr(self._arr, self._dtype, str(self.device), to_host=be.to_host,
                           requires_grad=self.requires_grad)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        if not self._shape:
            return format(self.item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return str(self)

    # ------------------------------------------------------------ views
    def view(self, *shape, size=None, dtype=None) -> "Tensor":
        """Same storage, new shape; RuntimeError when strides make that impossible.

        ``t.view(tensorviz.int32)`` reinterprets the bytes as another dtype instead.
        """
        if size is not None or dtype is not None:
            shape = _kw_shape(shape, size if dtype is None else dtype,
                              "size" if dtype is None else "dtype", "view")
        if len(shape) == 1 and isinstance(shape[0], _dtype_cls):
            return self._view_dtype(shape[0])
        if len(shape) == 1 and shape[0] in (builtins.float, builtins.int, builtins.bool,
                                            builtins.complex):  # (view(float): float64)
            return self._view_dtype(_dtypes.as_dtype(shape[0]))
        new_shape = _layout.infer_size(_as_shape(shape), self.numel())
        stride = _layout.view_strides(self._shape, self._stride, new_shape)
        if stride is None:
            raise RuntimeError(_layout.VIEW_ERROR)
        return self._view(new_shape, stride, self._offset)

    def _view_dtype(self, dt: _dtype_cls) -> "Tensor":
        old, new = self._dtype.itemsize, dt.itemsize
        if old == new:
            return _make(Tensor, self._storage, dt, self._offset, self._shape, self._stride)
        if not self._shape:
            raise RuntimeError(f"self.dim() cannot be 0 to view {self._dtype.cname} as "
                               f"{dt.cname} (different element sizes)")
        if self._stride[-1] != 1:
            raise RuntimeError(f"self.stride(-1) must be 1 to view {self._dtype.cname} as "
                               f"{dt.cname} (different element sizes), but got "
                               f"{self._stride[-1]}")
        shape, stride = list(self._shape), list(self._stride)
        if new > old:
            ratio = new // old
            if shape[-1] % ratio:
                raise RuntimeError(f"self.size(-1) must be divisible by {ratio} to view "
                                   f"{self._dtype.cname} as {dt.cname} (different element "
                                   f"sizes), but got {shape[-1]}")
            if self._offset % ratio:
                raise RuntimeError(f"self.storage_offset() must be divisible by {ratio} to view "
                                   f"{self._dtype.cname} as {dt.cname} (different element "
                                   f"sizes), but got {self._offset}")
            for d in range(len(shape) - 1):
                if stride[d] % ratio:
                    raise RuntimeError(f"self.stride({d}) must be divisible by {ratio} to view "
                                       f"{self._dtype.cname} as {dt.cname} (different element "
                                       f"sizes), but got {stride[d]}")
                stride[d] //= ratio
            shape[-1] //= ratio
            offset = self._offset // ratio
        else:
            ratio = old // new
            stride = [s * ratio for s in stride[:-1]] + [1]
            shape[-1] *= ratio
            offset = self._offset * ratio
        return _make(Tensor, self._storage, dt, offset, tuple(shape), tuple(stride))

    def view_as(self, other: "Tensor") -> "Tensor":
        if not isinstance(other, Tensor):
            raise TypeError(f"view_as(): argument 'other' (position 1) must be Tensor, not "
                            f"{type(other).__name__}")
        return self.view(other._shape)

    def reshape(self, *sizes, shape=None) -> "Tensor":
        """A view when the strides allow one (as ``view``), otherwise a contiguous copy."""
        shape = sizes if shape is None else _kw_shape(sizes, shape, "shape", "reshape")
        new_shape = _layout.infer_size(_as_shape(shape), self.numel())
        stride = _layout.view_strides(self._shape, self._stride, new_shape)
        if stride is not None:
            return self._view(new_shape, stride, self._offset)
        return self.clone(memory_format=contiguous_format).view(new_shape)

    def reshape_as(self, other: "Tensor") -> "Tensor":
        if not isinstance(other, Tensor):
            raise TypeError(f"reshape_as(): argument 'other' (position 1) must be Tensor, not "
                            f"{type(other).__name__}")
        return self.reshape(other._shape)

    def flatten(self, start_dim: int = 0, end_dim: int = -1) -> "Tensor":
        if not self._shape:
            return self.reshape(1)
        n = len(self._shape)
        s, e = _layout.normalize_dim(start_dim, n), _layout.normalize_dim(end_dim, n)
        if s > e:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        if s == e:
            return self
        merged = _layout.numel(self._shape[s:e + 1])
        return self.reshape(self._shape[:s] + (merged,) + self._shape[e + 1:])

    def ravel(self) -> "Tensor":
        # (PyTorch: contiguous().view(-1): a view of a contiguous tensor, else a copy, even
        # where reshape could have viewed a stepped 1-D tensor)
        return self.contiguous().view(-1)

    def unflatten(self, dim: int, sizes: Sequence[int]) -> "Tensor":
        n = len(self._shape)
        d = _layout.normalize_dim(dim, n)
        sizes = tuple(sizes)
        if not sizes:
            raise RuntimeError("unflatten: sizes must be non-empty")
        if not n:
            raise RuntimeError("unflatten got an unexpected error:\nDimension specified as 0 "
                               "but tensor has no dimensions")
        sizes = _as_shape((sizes,))
        if -1 not in sizes and _layout.numel(sizes) != self._shape[d]:
            raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to "
                               f"the size of dim {d} ({self._shape[d]}) in the input tensor")
        inner = _layout.infer_size(sizes, self._shape[d])
        return self.view(self._shape[:d] + inner + self._shape[d + 1:])

    def select(self, dim: int, index: int) -> "Tensor":
        return self._view(*_layout.select(self._shape, self._stride, self._offset, dim,
                                          _index_int(index)))

    def narrow(self, dim: int, start: int, length: int) -> "Tensor":
        return self._view(*_layout.narrow(self._shape, self._stride, self._offset, dim,
                                          _index_int(start), _index_int(length)))

    def transpose(self, dim0: int, dim1: int) -> "Tensor":
        return self._view(*_layout.transpose(self._shape, self._stride, self._offset, dim0,
                                             dim1))

    swapdims = transpose

    def swapaxes(self, axis0: int, axis1: int) -> "Tensor":
        return self.transpose(axis0, axis1)

    def t(self) -> "Tensor":
        shape = self._shape
        if len(shape) == 2:  # transpose(0, 1), computed directly: swap sizes and strides
            st = self._stride
            return _make(Tensor, self._storage, self._dtype, self._offset, (shape[1], shape[0]),
                         (st[1], st[0]))
        if len(shape) > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                               f"{len(shape)}D")
        return self

    @property
    def T(self) -> "Tensor":
        n = len(self._shape)
        if n == 0:
            warnings.warn("Tensor.T is deprecated on 0-D tensors. This function is the identity "
                          "in these cases.", UserWarning, stacklevel=2)
        elif n != 2:
            warnings.warn("The use of `x.T` on tensors of dimension other than 2 to reverse "
                          "their shape is deprecated and it will throw an error in a future "
                          "release. Consider `x.mT` to transpose batches of matrices or "
                          "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the "
                          "dimensions of a tensor.", UserWarning, stacklevel=2)
        return self.permute(*range(n - 1, -1, -1))

    @property
    def mT(self) -> "Tensor":
        if not self._shape:
            warnings.warn("Tensor.mT is deprecated on 0-D tensors. This function is the "
                          "identity in these cases.", UserWarning, stacklevel=2)
            return self._view(self._shape, self._stride, self._offset)
        if len(self._shape) < 2:
            raise RuntimeError(f"tensor.mT is only supported on matrices or batches of "
                               f"matrices. Got {len(self._shape)}-D tensor.")
        return self.transpose(-2, -1)

    @property
    def H(self) -> "Tensor":
        return self.T.conj() if self.is_complex() else self.T

    @property
    def mH(self) -> "Tensor":
        return self.mT.conj() if self.is_complex() else self.mT

    def adjoint(self) -> "Tensor":
        return self.mH

    def permute(self, *args, dims=None) -> "Tensor":
        dims = args if dims is None else _kw_shape(args, dims, "dims", "permute")
        return self._view(*_layout.permute(self._shape, self._stride, self._offset,
                                           _as_shape(dims, "dims")))

    def movedim(self, source, destination) -> "Tensor":
        src, dst = _dims_arg(source), _dims_arg(destination)
        return self._view(*_layout.movedim(self._shape, self._stride, self._offset, src, dst))

    moveaxis = movedim

    def unsqueeze(self, dim: int) -> "Tensor":
        return self._view(*_layout.unsqueeze(self._shape, self._stride, self._offset, dim))

    def squeeze(self, dim=None) -> "Tensor":
        if dim is not None and type(dim) is not builtins.int:
            dim = _dims_arg(dim)
        return self._view(*_layout.squeeze(self._shape, self._stride, self._offset, dim))

    def expand(self, *sizes, size=None) -> "Tensor":
        if size is not None:
            sizes = _kw_shape(sizes, size, "size", "expand")
        return self._view(*_layout.expand(self._shape, self._stride, self._offset,
                                          _as_shape(sizes)))

    def expand_as(self, other: "Tensor") -> "Tensor":
        if not isinstance(other, Tensor):
            raise TypeError(f"expand_as(): argument 'other' (position 1) must be Tensor, not "
                            f"{type(other).__name__}")
        return self.expand(other._shape)

    def broadcast_to(self, size) -> "Tensor":
        return self.expand(_as_shape((size,)) if not isinstance(size, builtins.int)
                           else (size,))

    def unfold(self, dimension: int, size: int, step: int) -> "Tensor":
        return self._view(*_layout.unfold(self._shape, self._stride, self._offset, dimension,
                                          size, step))

    def diagonal(self, offset: int = 0, dim1: int = 0, dim2: int = 1) -> "Tensor":
        return self._view(*_layout.diagonal(self._shape, self._stride, self._offset, offset,
                                            dim1, dim2))

    def as_strided(self, size, stride, storage_offset: int | None = None) -> "Tensor":
        """A view with any layout, bounds-checked so it never reads outside the storage."""
        size, stride = _as_shape((size,)), _as_shape((stride,), "stride")
        offset = self._offset if storage_offset is None else _index_int(storage_offset)
        n = self._storage.nbytes() // self._dtype.itemsize
        _layout.check_as_strided(size, stride, offset, n, self._dtype.itemsize)
        return self._view(size, stride, offset)

    # In-place view ops: this tensor takes the new layout (same storage); like every in-place
    # op they count as a write in the version counter, as in PyTorch.
    def _relayout_(self, view: "Tensor") -> "Tensor":
        self._set_layout(self._storage, view._offset, view._shape, view._stride)
        self._storage._bump()
        return self

    def t_(self) -> "Tensor":
        return self._relayout_(self.t())

    def transpose_(self, dim0: int, dim1: int) -> "Tensor":
        return self._relayout_(self.transpose(dim0, dim1))

    def swapaxes_(self, axis0: builtins.int, axis1: builtins.int) -> "Tensor":
        """``transpose_`` under NumPy's parameter names (``axis0``, ``axis1``)."""
        return self.transpose_(axis0, axis1)

    def swapdims_(self, dim0: builtins.int, dim1: builtins.int) -> "Tensor":
        """``transpose_`` by another name."""
        return self.transpose_(dim0, dim1)

    def squeeze_(self, dim=None) -> "Tensor":
        return self._relayout_(self.squeeze(dim))

    def unsqueeze_(self, dim: int) -> "Tensor":
        return self._relayout_(self.unsqueeze(dim))

    def as_strided_(self, size, stride, storage_offset: int | None = None) -> "Tensor":
        return self._relayout_(self.as_strided(size, stride, storage_offset))

    # ------------------------------------------------------------ storage swaps
    def set_(self, source=None, storage_offset=None, size=None, stride=None) -> "Tensor":
        """Point this tensor at another storage (shared, never copied), in place.

        ``set_()``: a new empty storage, shape (0,); ``set_(tensor)``: the tensor's storage and
        layout; ``set_(storage)``: all of a storage (typed or untyped) as a 1-D tensor;
        ``set_(source, storage_offset, size, stride=None)``: that layout over the source's
        storage (row-major when ``stride`` is None), bounds-checked.

        Note: PyTorch grows a storage too small for the layout; here that is a RuntimeError
        (a storage never changes size, and nothing is read outside it).
        Note: versions count per storage here: the old storage counts the write (its other
        views move, as in PyTorch), and this tensor then shows its new storage's version.
        """
        if source is None:
            if storage_offset is not None or size is not None or stride is not None:
                raise TypeError("set_() received an invalid combination of arguments - "
                                "expected (), (source) or (source, storage_offset, size, "
                                "stride=None)")
            st = self._storage
            new = UntypedStorage._wrap(st._backend.empty(0, self._dtype._np, st._device),
                                       st._device, st._backend)
            return self._swap_storage(new, 0, (0,), (1,), fresh=True)
        storage, numel = _set_source(self, source)
        if storage_offset is None and size is None and stride is None:
            if isinstance(source, Tensor):
                return self._swap_storage(storage, source._offset, source._shape,
                                          source._stride)
            return self._swap_storage(storage, 0, (numel,), (1,))
        if type(storage_offset) is not builtins.int and not isinstance(storage_offset,
                                                                           np.integer):
            raise TypeError(f"set_(): argument 'storage_offset' must be int, not "
                            f"{type(storage_offset).__name__}")
        if not isinstance(size, (tuple, list)):
            raise TypeError(f"set_(): argument 'size' must be tuple of ints, not "
                            f"{type(size).__name__}")
        shape = _as_shape((size,))
        strides = _contig(shape) if stride is None else _as_shape((stride,), "stride")
        if len(strides) != len(shape):
            raise RuntimeError(f"unequal size length ({len(shape)}) and stride length "
                               f"({len(strides)})")
        offset = builtins.int(storage_offset)
        _layout.check_as_strided(shape, strides, offset, numel, self._dtype.itemsize)
        return self._swap_storage(storage, offset, shape, strides)

    def _swap_storage(self, storage: UntypedStorage, offset: builtins.int, shape: tuple,
                      stride: tuple, fresh: builtins.bool = False) -> "Tensor":
        """Take ``storage`` and a layout; the old storage counts a write.  A ``fresh``
        storage (made for this tensor alone) carries the version on."""
        old = self._storage
        if storage is not old:
            old._bump()
            if fresh:
                storage._version = old._version
        else:
            storage._bump()
        self._set_layout(storage, offset, tuple(shape), tuple(stride))
        return self

    def resize_(self, *sizes, size=None, memory_format=None) -> "Tensor":
        """Give this tensor a new shape in place, row-major (or ``memory_format``), keeping its
        storage offset and as much of the data as fits.

        The same shape leaves it untouched.  A storage too small for the new shape is
        replaced by a larger one holding a copy of the old bytes (the rest uninitialised).
        Note: PyTorch grows the same storage object in place, so other views of it see the
        larger storage; here they keep the old one and stop sharing memory with this tensor.
        """
        shape = _kw_shape(sizes, size, "size", "resize_")
        if not shape:
            raise TypeError('resize_() missing 1 required positional arguments: "size"')
        shape = _as_shape(shape)
        for s in shape:
            if s < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                                   f"{list(shape)}")
        if self.requires_grad:
            raise RuntimeError("cannot resize variables that require grad")
        if memory_format is None:
            if shape == self._shape:
                return self
            stride = _contig(shape)
        else:
            fmt = _format_name(memory_format, "resize_")
            if fmt == "preserve_format":
                raise RuntimeError("Unsupported memory formatPreserve")
            stride = _layout.format_strides(shape, fmt)
            if shape == self._shape:  # (PyTorch restrides without counting a write)
                self._set_layout(self._storage, self._offset, shape, stride)
                return self
        st = self._storage
        item = self._dtype.itemsize
        need = (self._offset + _layout.numel(shape)) * item if _layout.numel(shape) else 0
        if need <= st.nbytes():
            return self._swap_storage(st, self._offset, shape, stride)
        if getattr(st, "_fixed", False):
            raise RuntimeError("Trying to resize storage that is not resizable")
        buf = st._backend.empty(-(-need // item), self._dtype._np, st._device)
        buf.view(np.uint8)[:st.nbytes()] = st._as(np.uint8)
        return self._swap_storage(UntypedStorage._wrap(buf, st._device, st._backend),
                                  self._offset, shape, stride, fresh=True)

    def resize_as_(self, the_template: "Tensor", *, memory_format=None) -> "Tensor":
        """``resize_`` to the shape of ``the_template``: row-major, or ``memory_format``
        (``preserve_format``: the one the template's strides suggest)."""
        if not isinstance(the_template, Tensor):
            raise TypeError(f"resize_as_(): argument 'the_template' (position 1) must be "
                            f"Tensor, not {type(the_template).__name__}")
        if memory_format is preserve_format:
            memory_format = _FORMATS[_layout.suggest_memory_format(the_template._shape,
                                                                   the_template._stride)]
        return self.resize_(the_template._shape, memory_format=memory_format)

    def split(self, split_size, dim: int = 0) -> tuple["Tensor", ...]:
        d = _layout.normalize_dim(dim, len(self._shape))
        if not self._shape:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        size = self._shape[d]
        if isinstance(split_size, Tensor) and split_size.numel() == 1 and \
                split_size._dtype.category <= _dtypes._INT:
            split_size = split_size.item()  # (a one-element integer tensor is an int here)
        if isinstance(split_size, (builtins.int, np.integer)):
            sizes = _layout.split_sizes(size, int(split_size))
        else:
            sizes = [int(s) for s in split_size]
            if sum(sizes) != size or any(s < 0 for s in sizes):
                raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to "
                                   f"{size} (input tensor's size at dimension {d}), but got "
                                   f"split_sizes={sizes}")
        return self._pieces(d, sizes)

    def split_with_sizes(self, split_sizes, dim: int = 0):
        return self.split(list(split_sizes), dim)

    def _pieces(self, d: int, sizes: Sequence[int]) -> tuple["Tensor", ...]:
        out, start = [], 0
        for s in sizes:
            out.append(self.narrow(d, start, s))
            start += s
        return tuple(out)

    def chunk(self, chunks: int, dim: int = 0) -> tuple["Tensor", ...]:
        if not self._shape:
            raise RuntimeError("chunk expects at least a 1-dimensional tensor")
        if chunks <= 0:  # (checked before the dim, as PyTorch does)
            raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
        d = _layout.normalize_dim(dim, len(self._shape))
        return self._pieces(d, _layout.chunk_sizes(self._shape[d], chunks))

    def hsplit(self, sections=None, *, indices=None) -> tuple["Tensor", ...]:
        """``tensor_split`` along dim 1 (dim 0 of a 1-D tensor); equal sections only."""
        return self._np_split("hsplit", 1, 0 if len(self._shape) == 1 else 1, sections, indices)

    def vsplit(self, sections=None, *, indices=None) -> tuple["Tensor", ...]:
        return self._np_split("vsplit", 2, 0, sections, indices)

    def dsplit(self, sections=None, *, indices=None) -> tuple["Tensor", ...]:
        return self._np_split("dsplit", 3, 2, sections, indices)

    def _np_split(self, name: str, min_dims: builtins.int, d: builtins.int, sections,
                  indices) -> tuple["Tensor", ...]:
        """NumPy-style splits: ``sections`` must divide the dim; ``indices`` cut it."""
        n = len(self._shape)
        if n < min_dims:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {min_dims} "
                               f"dimension, but got a tensor with {n} dimensions!")
        arg = indices if sections is None else sections
        if isinstance(arg, Tensor) and not arg._shape:
            arg = _index_int(arg)
        if isinstance(arg, (builtins.int, np.integer)) and not isinstance(arg, builtins.bool):
            if not -2**63 <= arg < 2**63:
                raise ValueError("Overflow when unpacking long long")
            size = self._shape[d]
            if arg == 0 or size % arg:
                raise RuntimeError(f"torch.{name} attempted to split along dimension {d}, but "
                                   f"the size of the dimension {size} is not divisible by the "
                                   f"split_size {arg}!")
            return self.tensor_split(builtins.int(arg), d)
        if not isinstance(arg, (list, tuple)):
            raise TypeError(f"{name}() received an invalid combination of arguments - got "
                            f"({type(arg).__name__}), but expected (int sections) or (tuple of "
                            f"ints indices)")
        return self.tensor_split([_index_int(i) for i in arg], d)

    def tensor_split(self, indices_or_sections, dim: int = 0) -> tuple["Tensor", ...]:
        if not self._shape:
            raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got "
                               "a tensor with 0 dims")
        d = _layout.normalize_dim(dim, len(self._shape))
        if isinstance(indices_or_sections, Tensor):
            indices_or_sections = indices_or_sections.tolist()
        bounds = _layout.tensor_split_bounds(self._shape[d], indices_or_sections)
        # (views made directly, not through narrow's checks: a million sections take a
        # second, as in PyTorch; the bounds are in range by construction)
        shape, stride, base, step = list(self._shape), self._stride, self._offset, \
            self._stride[d]
        out = []
        for a, b in bounds:
            shape[d] = b - a
            out.append(self._view(tuple(shape), stride, base + a * step))
        return tuple(out)

    def unbind(self, dim: int = 0) -> tuple["Tensor", ...]:
        if not self._shape:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        d = _layout.normalize_dim(dim, len(self._shape))
        return tuple(self.select(d, i) for i in range(self._shape[d]))

    # ------------------------------------------------------------ copies
    def contiguous(self, memory_format=contiguous_format) -> "Tensor":
        """``self`` when already contiguous in ``memory_format`` (row-major by default),
        else a copy in that format in a new storage."""
        if memory_format is contiguous_format:
            if _layout.is_contiguous(self._shape, self._stride):
                return self
            return self.clone(memory_format=contiguous_format)
        if memory_format is None:
            raise TypeError("contiguous(): argument 'memory_format' must be "
                            "tensorviz.memory_format, not NoneType")
        fmt = _format_name(memory_format, "contiguous")
        if _layout.is_contiguous_as(self._shape, self._stride, fmt):
            return self
        if fmt == "preserve_format":
            raise RuntimeError("preserve memory format is unsupported by the contiguous "
                               "operator")
        return self.clone(memory_format=memory_format)

    def clone(self, *, memory_format=None) -> "Tensor":
        """A copy in a new storage; ``preserve_format`` (the default) keeps a dense tensor's
        strides and any other tensor's dim order, as PyTorch does; ``contiguous_format`` and
        ``channels_last[_3d]`` lay the copy out in that order."""
        return self._copy(self._dtype, memory_format)

    def _copy(self, dt: _dtype_cls, memory_format=None, dev: device | None = None) -> "Tensor":
        """A copy as ``dt`` in a new storage on ``dev``, laid out as ``memory_format`` says."""
        shape = self._shape
        contig = _contig(shape)
        src = self._a
        if src is None:
            src = self._arr
        if memory_format is not None and memory_format is not contiguous_format \
                and memory_format is not preserve_format:
            return self._copy_strided(dt, _layout.copy_strides(
                shape, self._stride, _format_name(memory_format, "clone")), dev)
        if self._stride == contig and type(src) is np.ndarray and (dev is None or dev is CPU) \
                and self._dtype.category != _dtypes._COMPLEX and 0 not in shape:
            # Fast path: a row-major CPU tensor stays row-major in every memory format, and
            # astype makes that copy (the same cast as below, warnings silenced alike).
            if dt is _dtypes.bool and self._dtype is _dtypes.bool:
                arr = np.asarray(src.view(np.uint8) != 0)  # (a bool view of other data: 0/1)
            elif dt is self._dtype or (self._dtype.category < _dtypes._FLOAT
                                       and dt is not _dtypes.float16):
                arr = src.astype(dt._np)
            else:
                arr = call_quiet(src.astype, dt._np)  # float -> int is silent, as in PyTorch
            return _fresh(dt, shape, contig, arr)
        if memory_format is contiguous_format:
            stride = _contig(shape)
        else:
            stride = _layout.preserve_strides(shape, self._stride)
        return self._copy_strided(dt, stride, dev)

    def _copy_strided(self, dt: _dtype_cls, stride: tuple, dev: device | None) -> "Tensor":
        """A copy as ``dt`` on ``dev`` in a new storage, with the (dense) strides ``stride``."""
        shape = self._shape
        src = self._arr
        st = self._storage
        if dev is not None and dev != st._device:
            from .backends import copy_between
            src = copy_between(src, st._device, dev)
            be = backend_for(dev)
        else:
            dev, be = st._device, st._backend
        if self._dtype.category == _dtypes._COMPLEX and dt is _dtypes.bool:
            src = src != 0  # (complex -> bool: nonzero real OR imaginary part, no warning)
        elif self._dtype.category == _dtypes._COMPLEX and dt.category != _dtypes._COMPLEX:
            warnings.warn("Casting complex values to real discards the imaginary part",
                          UserWarning, stacklevel=5)
            src = src.real
        if dt is _dtypes.bool and self._dtype is _dtypes.bool:
            src = src.view(np.uint8) != 0  # (a bool view of other data: PyTorch stores 0/1)
        buf = be.empty(_layout.numel(shape), dt._np, dev)
        out = be.strided(buf, 0, shape, stride)
        if dt is self._dtype or (self._dtype.category < _dtypes._FLOAT
                                 and dt is not _dtypes.float16):
            out[...] = src
        else:  # (and integers past float16's range: inf, silently, as PyTorch)
            call_quiet(out.__setitem__, Ellipsis, src)  # float -> int: silent, as in PyTorch
        return _make(Tensor, UntypedStorage._wrap(buf, dev, be), dt, 0, shape, stride, out)

    # ------------------------------------------------------------ new_* (same dtype/device)
    def _new_opts(self, dtype, device) -> tuple:
        from ._creation import _check_dtype
        return (_check_dtype(dtype) or self._dtype,
                self._storage._device if device is None else as_device(device))

    def new(self, *args, device: DeviceLike = None) -> "Tensor":
        """Legacy ``t.new(*sizes)`` / ``t.new(data)``: ``Tensor(...)`` with this dtype."""
        return Tensor.__new__(Tensor, *args, dtype=self._dtype,
                              device=self._storage._device if device is None else device)

    def new_tensor(self, data, *, dtype=None, device=None, requires_grad: builtins.bool = False
                   ) -> "Tensor":
        """``tensorviz.tensor(data)`` with this tensor's dtype and device by default."""
        from ._creation import tensor as _tensor_fn
        dt, dev = self._new_opts(dtype, device)
        return _tensor_fn(data, dtype=dt, device=dev, requires_grad=requires_grad)

    def new_empty(self, *sizes, size=None, dtype=None, device=None,
                  requires_grad: builtins.bool = False) -> "Tensor":
        from ._creation import empty
        dt, dev = self._new_opts(dtype, device)
        return empty(*_kw_shape(sizes, size, "size", "new_empty"), dtype=dt, device=dev,
                     requires_grad=requires_grad)

    def new_zeros(self, *sizes, size=None, dtype=None, device=None,
                  requires_grad: builtins.bool = False) -> "Tensor":
        from ._creation import zeros
        dt, dev = self._new_opts(dtype, device)
        return zeros(*_kw_shape(sizes, size, "size", "new_zeros"), dtype=dt, device=dev,
                     requires_grad=requires_grad)

    def new_ones(self, *sizes, size=None, dtype=None, device=None,
                 requires_grad: builtins.bool = False) -> "Tensor":
        from ._creation import ones
        dt, dev = self._new_opts(dtype, device)
        return ones(*_kw_shape(sizes, size, "size", "new_ones"), dtype=dt, device=dev,
                    requires_grad=requires_grad)

    def new_full(self, size, fill_value, *, dtype=None, device=None,
                 requires_grad: builtins.bool = False) -> "Tensor":
        from ._creation import full
        dt, dev = self._new_opts(dtype, device)
        return full(size, fill_value, dtype=dt, device=dev, requires_grad=requires_grad)

    def new_empty_strided(self, size, stride, *, dtype=None, device=None,
                          requires_grad: builtins.bool = False) -> "Tensor":
        from ._creation import empty_strided
        dt, dev = self._new_opts(dtype, device)
        return empty_strided(size, stride, dtype=dt, device=dev, requires_grad=requires_grad)

    # ------------------------------------------------------------ conversion
    def to(self, *args, **kwargs) -> "Tensor":
        """``to(dtype)``, ``to(device)``, ``to(device, dtype)``, ``to(other)``; ``copy=``.

        Returns ``self`` when nothing changes (unless ``copy=True``).
        """
        if not kwargs and len(args) == 1 and type(args[0]) is _dtype_cls:  # t.to(dtype)
            dt = args[0]
            return self if dt is self._dtype else self._copy(dt, None, None)
        kwargs_format = kwargs.get("memory_format")
        if args and isinstance(args[0], (builtins.bool, builtins.float, builtins.complex)):
            # (PyTorch reads such a number as to(other) with other = tensor(number): float64
            # for a float, bool for a bool; an int is a device index)
            args = (_dtypes.as_dtype(builtins.type(args[0])),) + args[1:]
        dev, dt, copy = _parse_to(self, args, kwargs)
        cur_dev = self._storage._device
        if (dev is None or dev == cur_dev) and (dt is None or dt is self._dtype):
            if not copy and (kwargs_format is None or kwargs_format is preserve_format
                             or _layout.suggest_memory_format(self._shape, self._stride)
                             == _format_name(kwargs_format, "to")):
                return self  # (PyTorch aliases when the suggested format is the one asked)
            return self._copy(self._dtype, kwargs_format)
        return self._copy(self._dtype if dt is None else dt, kwargs_format, dev)

    def type(self, dtype=None, non_blocking: bool = False, **kwargs):
        if dtype is None:
            name = _TYPE_NAMES[self._dtype]
            if self._storage._device.type == "cuda":  # (PyTorch: torch.cuda.FloatTensor)
                return name.replace("tensorviz.", "tensorviz.cuda.", 1)
            return name
        if isinstance(dtype, _LegacyTensorType):
            dtype = dtype.dtype
        elif isinstance(dtype, builtins.type):  # (to(float) is float64; type(float) is not)
            raise ValueError(f"invalid type: '{dtype.__name__}'")
        if isinstance(dtype, str):
            dt = _TYPE_BY_NAME.get(dtype)
            if dt is None:
                raise ValueError(f"invalid type: '{dtype}'")
            dtype = dt
        return self.to(dtype)

    def is_same_size(self, other: "Tensor") -> builtins.bool:
        if not isinstance(other, Tensor):
            raise TypeError(f"is_same_size(): argument 'other' (position 1) must be Tensor, "
                            f"not {builtins.type(other).__name__}")
        return self._shape == other._shape

    def frexp(self, *, out=None):
        return frexp(self, out=out)

    def type_as(self, other: "Tensor") -> "Tensor":
        return self.to(other._dtype)

    def double(self): return self.to(_dtypes.float64)
    def float(self): return self.to(_dtypes.float32)
    def half(self): return self.to(_dtypes.float16)
    def int(self): return self.to(_dtypes.int32)
    def long(self): return self.to(_dtypes.int64)
    def short(self): return self.to(_dtypes.int16)
    def char(self): return self.to(_dtypes.int8)
    def byte(self): return self.to(_dtypes.uint8)
    def bool(self): return self.to(_dtypes.bool)
    def cfloat(self): return self.to(_dtypes.complex64)
    def cdouble(self): return self.to(_dtypes.complex128)

    def cpu(self) -> "Tensor":
        return self.to(CPU)

    def cuda(self, device: DeviceLike = None, non_blocking: bool = False) -> "Tensor":
        from . import cuda as _cuda
        if device is None:
            idx = _cuda.current_device()
        else:
            dev = as_device(device if not isinstance(device, builtins.int) else f"cuda:{device}")
            if dev.type != "cuda":
                raise RuntimeError("Invalid device, must be cuda device")
            idx = _cuda.current_device() if dev.index is None else dev.index
        return self.to(as_device(f"cuda:{idx}"))

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """A NumPy array sharing this tensor's memory (``force=True``: a host copy if needed)."""
        if self._storage._device.type != "cpu":
            if not force:
                raise TypeError(f"can't convert {self.device} device type tensor to numpy. Use "
                                "Tensor.cpu() to copy the tensor to host memory first.")
            return np.asarray(self._storage._backend.to_host(self._arr))
        # (PyTorch: once NumPy shares the memory, the storage can no longer grow, so a later
        # resize_ cannot silently leave the array holding the old buffer)
        self._storage._fixed = True
        return self._arr.view()

    def __array__(self, dtype=None, copy=None):
        arr = self.numpy(force=self._storage._device.type != "cpu")
        if dtype is not None and np.dtype(dtype) != arr.dtype:
            return arr.astype(dtype)
        if copy:
            return arr.copy(order="K")  # (keeps the dim order, as NumPy's own copy of a view)
        return arr

    def __array_wrap__(self, array, context=None, return_scalar: builtins.bool = False):
        """A NumPy ufunc's result on tensors comes back as a tensor (``np.sin(t)``).

        Note: PyTorch's own workaround turns bool results into uint8; so does this."""
        if array.dtype == np.bool_:
            array = array.astype(np.uint8)
        return from_numpy(array)

    def tolist(self):
        return self.numpy(force=True).tolist()

    def item(self):
        n = self.numel()
        if n != 1:
            raise RuntimeError(f"a Tensor with {n} elements cannot be converted to Scalar")
        arr = self._arr
        if self._storage._device.type != "cpu":
            arr = self._storage._backend.to_host(arr)
        return arr.reshape(()).item() if arr.ndim else arr.item()

    def _scalar(self, kind: str):
        if self.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __int__(self) -> builtins.int:
        return builtins.int(_real_scalar(self._scalar("int"), "int64_t"))

    def __float__(self) -> builtins.float:
        return builtins.float(_real_scalar(self._scalar("float"), "double"))

    def __complex__(self) -> builtins.complex:
        return builtins.complex(self._scalar("complex"))

    def __index__(self) -> builtins.int:
        if self._dtype.category > _dtypes._INT or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        return builtins.int(self.item())

    def __bool__(self) -> builtins.bool:
        n = self.numel()
        if n != 1:
            if n == 0:
                raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return builtins.bool(self.item())

    def __len__(self) -> builtins.int:
        if not self._shape:
            raise TypeError("len() of a 0-d tensor")
        return self._shape[0]

    def __iter__(self) -> Iterator["Tensor"]:
        if not self._shape:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __contains__(self, element) -> builtins.bool:
        if not isinstance(element, (Tensor, builtins.bool, builtins.int, builtins.float,
                                    builtins.complex, np.generic)):
            raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you "
                               f"passed in a {type(element)}.")
        return builtins.bool((element == self).any())  # (operand order as in PyTorch)

    def __reduce_ex__(self, protocol):
        # As PyTorch: a copy of the whole storage and the layout (strides and offset kept;
        # like PyTorch's, tensors pickled together do not share memory after loading).
        st = self._storage
        return (_rebuild_tensor, (st.__reduce__()[1], self._dtype, self._offset, self._shape,
                                  self._stride, self.requires_grad))

    def __copy__(self) -> "Tensor":
        return self._view(self._shape, self._stride, self._offset)  # (shares the storage)

    def __deepcopy__(self, memo):
        """A copy of the storage (one per storage in ``memo``: views stay views of one
        another) with this tensor's layout."""
        st = memo.get(id(self._storage))
        if st is None:
            st = memo[id(self._storage)] = self._storage.clone()
        r = _make(Tensor, st, self._dtype, self._offset, self._shape, self._stride)
        r.requires_grad = self.requires_grad
        memo[id(self)] = r
        return r

    # ------------------------------------------------------------ indexing
    def __getitem__(self, key) -> "Tensor":
        tk = type(key)
        if tk is builtins.int:  # the hottest path: t[i]
            return self._view(*_layout.select(self._shape, self._stride, self._offset, 0, key)) \
                if self._shape and -self._shape[0] <= key < self._shape[0] \
                else self._view(*_layout.index(self._shape, self._stride, self._offset, key))
        if tk is slice:
            return self._view(*_layout.index(self._shape, self._stride, self._offset, key))
        if tk is tuple:  # t[i, j]: one int per dim is a 0-dim view at a computed position
            pos = _element_position(self._shape, self._stride, self._offset, key)
            if pos is not None:
                return _make(Tensor, self._storage, self._dtype, pos, (), ())
        return _indexing.getitem(self, key)

    def __setitem__(self, key, value) -> None:
        tk = type(key)
        if tk is builtins.int or tk is slice:  # t[i] = v, t[a:b] = v: a view, then assign
            _indexing.assign(self._view(*_layout.index(self._shape, self._stride, self._offset,
                                                       key)), value)
            return
        if tk is tuple and type(value) in _PY_SCALARS:  # t[i, j] = 1.5: one element
            pos = _element_position(self._shape, self._stride, self._offset, key)
            if pos is not None:
                _indexing.set_element(self, pos, value)
                return
        _indexing.setitem(self, key, value)

    # ------------------------------------------------------------ widgets
    def show(self, **kwargs):
        """Draw this tensor's storage, strides and logical layout as a live widget."""
        from .viz import show
        return show(self, **kwargs)


_PY_SCALARS = frozenset((builtins.bool, builtins.int, builtins.float, builtins.complex))


def _element_position(shape: tuple, stride: tuple, offset: int, key: tuple):
    """The storage position of ``t[i, j, ...]`` when ``key`` holds one plain int per dim, each
    in range; None otherwise (the general path then indexes, or raises PyTorch's error)."""
    if len(key) != len(shape):
        return None
    for k, n, st in zip(key, shape, stride):
        if type(k) is not builtins.int or not -n <= k < n:
            return None
        offset += (k + n if k < 0 else k) * st
    return offset


def _set_source(t: Tensor, source) -> tuple:
    """The untyped storage behind a ``set_`` source, and its size in ``t``'s elements."""
    if isinstance(source, Tensor):
        if source._dtype is not t._dtype:
            from ._indexing import _C_NAMES
            raise RuntimeError(f"Could not set tensor of type {_C_NAMES[source._dtype.name]} "
                               f"to a tensor of type {_C_NAMES[t._dtype.name]}")
        st = source._storage
    elif isinstance(source, TypedStorage):
        if source.dtype is not t._dtype:
            from ._indexing import _C_NAMES
            raise RuntimeError(f"Expected a Storage of type {_C_NAMES[t._dtype.name]} or an "
                               f"UntypedStorage, but got type {source.dtype.cname} for "
                               f"argument 1 'storage'")
        st = source._untyped
    elif isinstance(source, UntypedStorage):
        st = source
    else:
        raise TypeError(f"set_() received an invalid combination of arguments - got "
                        f"({type(source).__name__}), but expected a Tensor or a Storage")
    if st._device != t._storage._device:
        raise RuntimeError(f'Attempted to set the storage of a tensor on device '
                           f'"{t._storage._device}" to a storage on different device '
                           f'"{st._device}".  This is no longer allowed; the devices must '
                           f'match.')
    return st, st.nbytes() // t._dtype.itemsize


def _real_scalar(v, cname: str):
    """``int(t)``/``float(t)`` of a complex value: PyTorch refuses a non-zero imaginary part."""
    if isinstance(v, builtins.complex):
        if v.imag:
            raise RuntimeError(f"value cannot be converted to type {cname} without overflow")
        return v.real
    return v


def _dim_of(t: Tensor, dim) -> builtins.int:
    """``dim`` wrapped for ``t.size(dim)``/``t.stride(dim)`` (a 0-dim tensor has none)."""
    if not t._shape:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return _layout.normalize_dim(dim, len(t._shape))


def _dims_arg(dims) -> tuple:
    """One dim or a sequence of dims (NumPy ints and 0-dim integer tensors count as ints)."""
    if isinstance(dims, (list, tuple)):
        return tuple(dims)
    return (_index_int(dims),)


def _index_int(v) -> builtins.int:
    if type(v) is builtins.int:
        return v
    try:
        return v.__index__()
    except (AttributeError, TypeError):
        raise TypeError(f"expected an integer, got {type(v).__name__}") from None


def _rebuild_tensor(storage_args: tuple, dt: _dtype_cls, offset: builtins.int,
                    shape: tuple, stride: tuple, requires_grad: builtins.bool) -> Tensor:
    from ._storage import _rebuild_untyped
    t = _make(Tensor, _rebuild_untyped(*storage_args), dt, offset, tuple(shape), tuple(stride))
    t.requires_grad = requires_grad
    return t


def _rebuild_from_numpy(arr, dev, requires_grad):  # (pickles written by earlier versions)
    t = wrap_array(arr, None, CPU)
    if dev != "cpu":
        t = t.to(dev)
    t.requires_grad = requires_grad
    return t


_TYPE_NAMES = {
    _dtypes.float32: "tensorviz.FloatTensor", _dtypes.float64: "tensorviz.DoubleTensor",
    _dtypes.float16: "tensorviz.HalfTensor", _dtypes.uint8: "tensorviz.ByteTensor",
    _dtypes.int8: "tensorviz.CharTensor", _dtypes.int16: "tensorviz.ShortTensor",
    _dtypes.int32: "tensorviz.IntTensor", _dtypes.int64: "tensorviz.LongTensor",
    _dtypes.bool: "tensorviz.BoolTensor", _dtypes.complex64: "tensorviz.ComplexFloatTensor",
    _dtypes.complex128: "tensorviz.ComplexDoubleTensor",
}
_TYPE_BY_NAME = {v: k for k, v in _TYPE_NAMES.items()}


class _LegacyTensorType(type):
    """The type of ``tensorviz.FloatTensor`` & co: calling one builds a CPU tensor of its
    dtype (``FloatTensor(2, 3)``, ``LongTensor([1, 2])``); ``isinstance`` checks the dtype."""

    dtype: _dtype_cls

    def __call__(cls, *args, device: DeviceLike = None) -> Tensor:
        return Tensor.__new__(Tensor, *args, dtype=cls.dtype, device=device)

    def __instancecheck__(cls, obj) -> builtins.bool:
        return isinstance(obj, Tensor) and obj._dtype is cls.dtype and obj.is_cpu

    def __repr__(cls) -> str:
        return f"<class 'tensorviz.{cls.__name__}'>"


def _legacy_type(name: str, dt: _dtype_cls) -> _LegacyTensorType:
    return _LegacyTensorType(name, (), {"dtype": dt, "__module__": "tensorviz",
                                        "__doc__": f"Legacy constructor of {dt!r} tensors."})


LEGACY_TYPES = {name.split(".")[1]: _legacy_type(name.split(".")[1], dt)
                for dt, name in _TYPE_NAMES.items() if "Complex" not in name}
_TYPE_BY_NAME.update({v.replace("tensorviz.", "torch."): k for k, v in _TYPE_NAMES.items()})


def typename(obj: Any, /) -> str:
    """The fully qualified name of an object's type; a tensor's legacy type name
    (``'tensorviz.FloatTensor'``, as ``t.type()``)."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    if module in {"", "builtins"}:
        return qualname
    return f"{module}.{qualname}"


def is_same_size(input: Tensor, other: Tensor) -> builtins.bool:
    """True when the two tensors have the same shape (dtypes and devices may differ)."""
    for pos, (x, name) in enumerate(((input, "input"), (other, "other")), 1):
        if not isinstance(x, Tensor):
            raise TypeError(f"is_same_size(): argument '{name}' (position {pos}) must be "
                            f"Tensor, not {builtins.type(x).__name__}")
    return input._shape == other._shape


def frexp(input: Tensor, *, out=None):
    """``(mantissa, exponent)`` with ``input == mantissa * 2 ** exponent``, the mantissa in
    (-1, -0.5] or [0.5, 1) (or 0, inf, nan), of the input's dtype; the exponent int32."""
    from .ops._elementwise import result_strides, write_out
    from .ops.reductions import return_types
    if not isinstance(input, Tensor):
        raise TypeError(f"frexp(): argument 'input' (position 1) must be Tensor, not "
                        f"{builtins.type(input).__name__}")
    if input._dtype.category != _dtypes._FLOAT:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    if out is not None:
        if not isinstance(out, (tuple, list)) or len(out) != 2 or not all(
                isinstance(o, Tensor) for o in out):
            raise TypeError("frexp(): argument 'out' must be tuple of Tensors")
        if out[0]._dtype is not input._dtype:
            raise RuntimeError(f"torch.frexp() expects mantissa to have dtype "
                               f"{_CPP_NAMES[input._dtype.name]} but got "
                               f"{_CPP_NAMES[out[0]._dtype.name]}")
        if out[1]._dtype is not _dtypes.int32:
            raise RuntimeError(f"torch.frexp() expects exponent to have int dtype but got "
                               f"{_CPP_NAMES[out[1]._dtype.name]}")
    be = input._storage._backend
    mantissa, exponent = be.xp.frexp(input._arr)
    dev = input._storage._device
    if out is not None:
        write_out(out[0], mantissa, input._dtype, dev)
        write_out(out[1], exponent.astype(np.int32, copy=False), _dtypes.int32, dev)
        return return_types.frexp_out(*out)
    stride = result_strides(input._shape, input)
    return return_types.frexp(wrap_array(mantissa, input._dtype, dev, stride),
                              wrap_array(exponent.astype(np.int32, copy=False), _dtypes.int32,
                                         dev, stride))


_CPP_NAMES = {"bool": "bool", "uint8": "unsigned char", "int8": "signed char",
              "int16": "short int", "int32": "int", "int64": "long int", "float16": "c10::Half",
              "float32": "float", "float64": "double", "complex64": "c10::complex<float>",
              "complex128": "c10::complex<double>"}


def _parse_to(t: Tensor, args, kwargs):
    dev = dt = None
    copy = kwargs.pop("copy", False)
    kwargs.pop("non_blocking", None)
    kwargs.pop("memory_format", None)
    for a in args:
        if a is None:
            continue  # (to(None) changes nothing, as in PyTorch)
        if isinstance(a, _dtype_cls) or a in _dtypes._PY_TYPES:
            if dt is not None:
                raise TypeError("to() received an invalid combination of arguments - got "
                                "(dtype, dtype)")
            dt = _dtypes.as_dtype(a)
        elif isinstance(a, Tensor):
            dev, dt = a.device, a.dtype
        elif isinstance(a, (str, device, builtins.int)) and not isinstance(a, builtins.bool):
            dev = as_device(a if not isinstance(a, builtins.int) else f"cuda:{a}")
        elif isinstance(a, builtins.bool):
            continue  # legacy positional non_blocking / copy
        else:
            raise TypeError(f"to() received an invalid combination of arguments - got "
                            f"({type(a).__name__}); expected a dtype, a device or a tensor")
    if "dtype" in kwargs:
        dt = kwargs.pop("dtype")
        if dt is not None and not isinstance(dt, _dtype_cls):
            if dt not in _dtypes._PY_TYPES:
                raise TypeError(f"to(): dtype must be a tensorviz.dtype, got "
                                f"{type(dt).__name__}")
            dt = _dtypes.as_dtype(dt)
    if "device" in kwargs:
        d = kwargs.pop("device")
        dev = None if d is None else as_device(d)
    if kwargs:
        raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
    return dev, dt, copy


from . import _indexing  # noqa: E402  (it needs Tensor, defined above)
