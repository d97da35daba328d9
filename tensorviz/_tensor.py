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

from . import _chalf, _dtypes, _layout
from ._device import CPU, DeviceLike, device
from ._dtypes import dtype as _dtype_cls
from . import _autograd_meta as _ag_meta
from ._grad_mode import _STATE
from ._size import Size
from ._printing import tensor_repr
from ._storage import TENSOR_HOOKS as _STORAGE_HOOKS
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
    t._ag = None
    t._vc = None
    t._cj = False
    t._vb = None
    return t


_NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information.")

_new = object.__new__
_FIRST_STORAGE = threading.Lock()  # guards making a fresh result's storage (see _fresh)


def _inference_alias(d: "Tensor") -> None:
    """``d``, the ``detach()`` or ``.data`` of an inference tensor, is one too; outside
    inference mode, as in PyTorch, with a version counter of its own that counts writes
    (inside, its family's, which refuses them later)."""
    if _STATE.inference:
        d._vc = _ag_meta.InferenceCounter((0,))
    else:
        d._vc = [0]
        _ag_meta.meta(d).inference = True


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
    t._ag = None
    t._vc = None
    t._cj = False
    t._vb = None
    return t


def tensor_device(t: "Tensor") -> device:
    """``t``'s device, without making a fresh CPU result's storage (see ``_fresh``): a
    tensor whose array is a NumPy array is on the CPU."""
    a = t._a
    if a is not None and type(a) is np.ndarray:
        return CPU
    return t._storage._device


def tensor_xp(t: "Tensor"):
    """The array module of ``t``'s data (NumPy or CuPy), as ``tensor_device`` finds it."""
    a = t._a
    if a is not None and type(a) is np.ndarray:
        return np
    return t._storage._backend.xp


def wrap_array(arr, dt: _dtype_cls | None = None, dev: device = CPU,
               stride: tuple | None = None) -> "Tensor":
    """Adopt a freshly computed array (NumPy or CuPy) as a tensor's storage, zero-copy.

    The array must not alias any other tensor's memory (ops hand over new results).
    Dense results keep their dim order (as PyTorch keeps a transposed input's order);
    anything else is made contiguous first.  ``stride`` (dense) asks for that layout: the
    array is adopted when it has it, copied into it otherwise.
    """
    if type(arr) is not np.ndarray and dev is CPU and isinstance(arr, np.generic):
        arr = np.asarray(arr)  # (a ufunc's 0-d result comes back as a NumPy scalar)
    if type(arr) is np.ndarray and dev is CPU and dt is not None and arr.dtype is dt._np \
            and arr.flags.c_contiguous:  # the common case: a row-major result, as wanted
        shape = arr.shape
        contig = _contig(shape)
        if stride is None or stride == contig:
            return _fresh(dt, shape, contig, arr)
    if dev.type == "meta":
        return _wrap_meta(arr, dt, dev, stride)
    be = backend_for(dev)
    xp = be.xp
    if not isinstance(arr, xp.ndarray):
        arr = xp.asarray(arr)
    if dt is None:
        dt = _dtypes.complex32 if arr.dtype == _chalf.NP else \
            _dtypes.from_numpy_dtype(arr.dtype)
    elif arr.dtype != dt._np:
        if dt is _dtypes.complex32:  # (computed in complex64: each part rounded to float16)
            if dev.type != "cpu":
                arr = be.to_host(arr)
            arr = _chalf.narrow(arr)
        elif arr.dtype == _chalf.NP:
            arr = _chalf.widen(arr)
            if dt.category != _dtypes._COMPLEX:
                arr = arr.real
            arr = call_quiet(arr.astype, dt._np)
        else:
            arr = call_quiet(arr.astype, dt._np)  # (past the dtype's range: inf, silently)
    shape = arr.shape
    c_contiguous = arr.flags.c_contiguous
    if stride is not None:
        if stride == _contig(shape):
            if not c_contiguous:
                arr = xp.ascontiguousarray(arr)
                c_contiguous = True
        elif tuple(s // arr.itemsize for s in arr.strides) != stride:
            buf = be.empty(builtins.max(_layout.numel(shape),  # (a non-dense layout: its span)
                                        _layout.storage_extent(shape, stride, 0)), dt._np, dev)
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


def _wrap_meta(arr, dt, dev: device, stride: tuple | None) -> "Tensor":
    """An op's result on the meta device: a new storage of its size without memory, row-major
    unless the op asked for ``stride`` (its values are never read: see backends._meta)."""
    be = backend_for(dev)
    shape = tuple(arr.shape)
    if dt is None:
        dt = _dtypes.from_numpy_dtype(arr.dtype)
    if stride is None:
        stride = _contig(shape)
    buf = be.empty(_layout.numel(shape), dt._np, dev)
    return _make(Tensor, UntypedStorage._wrap(buf, dev, be), dt, 0, shape, stride,
                 be.strided(buf, 0, shape, stride))


def lazy_values(a):
    """The values of a lazy view over the stored array ``a`` (and what to store for given
    values: the map is its own inverse): the conjugate of complex, the negation of real
    elements; a new read-only array, so that no write can land in it by mistake."""
    kind = a.dtype.kind
    r = a.conj() if kind == "c" else _chalf.conj(a) if kind == "V" else -a
    if type(r) is np.ndarray:
        r.flags.writeable = False
    return r


def store(t: "Tensor", values) -> None:
    """``t[...] = values`` (an array or scalar broadcastable to ``t``, already of ``t``'s
    dtype or castable quietly), through a lazy conjugate/negative view as well."""
    if t._dtype is _dtypes.complex32:
        if getattr(values, "dtype", None) != _chalf.NP:
            values = _chalf.narrow(values)
        if t._cj:
            t._raw[...] = lazy_values(values)
        else:
            t._arr[...] = values
    elif t._cj:
        raw = t._raw
        if not hasattr(values, "dtype") or values.dtype != raw.dtype:
            values = raw.dtype.type(values) if not hasattr(values, "shape") else \
                values.astype(raw.dtype)
        raw[...] = lazy_values(values)
    else:
        t._arr[...] = values


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


#: What ``Tensor`` needs from the layers above it, installed by them when they load:
#: ``"new"`` (``Tensor(...)``, by ``_creation``) and ``"getitem"``, ``"setitem"``,
#: ``"assign"``, ``"set_element"`` (indexing beyond the fast paths below, by ``_indexing``).
_HOOKS: dict = {}


def _grow_storage(st: UntypedStorage, buf) -> None:
    """Give ``st`` the larger buffer ``buf`` (holding its bytes) in place, as PyTorch's
    resize grows its StorageImpl: every tensor over ``st`` drops its cached array view of
    the old buffer, so each reads the new one from then on.

    Growing is rare (an ``out=`` or ``resize_`` past the storage's end), so the tensors are
    found by the garbage collector's referrer scan rather than a registry every view would
    pay for."""
    import gc
    st._data = buf
    for ref in gc.get_referrers(st):
        if isinstance(ref, Tensor):
            ref._a = None


class Tensor:
    """A multi-dimensional view of a typed storage, with PyTorch's API."""

    # _ag: autograd's record of this tensor (None for the many tensors that take no part in
    # autograd); _vc: the version counter, a one-element list shared by a view family (None
    # until the tensor is first viewed or written: version 0); _cj: a lazy view whose values
    # are the conjugate (complex dtypes: PyTorch's conj bit) or the negation (real dtypes:
    # the neg bit) of what its storage holds, see ``lazy_values``.
    __slots__ = ("_storage", "_dtype", "_offset", "_shape", "_stride", "_a", "_ag", "_vc",
                 "_cj", "_vb", "_vv", "__weakref__")
    __array_priority__ = 1000  # NumPy defers to our reflected operators

    # ------------------------------------------------------------ construction
    def __new__(cls, *args, device: DeviceLike = None, dtype=None):
        """``Tensor(*sizes)`` (uninitialised float32) or ``Tensor(data)`` (float32 copy)."""
        return _HOOKS["new"](args, device, dtype)

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
            a = st._backend.strided(st._as(self._dtype._np), self._offset, self._shape,
                                    self._stride)
            if self._cj:  # a lazy conjugate/negative view: its values, computed (read-only)
                return lazy_values(a)
            self._a = a
        return a

    @property
    def _raw(self):
        """The storage's elements under this tensor's layout, as stored: ``_arr`` except for
        a lazy conjugate/negative view, whose writes store ``lazy_values(value)`` here."""
        st = self._storage
        return st._backend.strided(st._as(self._dtype._np), self._offset, self._shape,
                                   self._stride)

    def _view(self, shape: tuple, stride: tuple, offset: int, dtype=None,
              arr=None) -> "Tensor":
        """A new tensor over the same storage with another layout (a view, O(1)), read as
        ``dtype`` when given (``arr``: the view's strided array, when the caller has it for
        free -- ``a.T`` -- instead of its being rebuilt from the storage); it shares this tensor's version counter, as PyTorch's views,
        and remembers the tensor it views (``_vb``; ``t._base``, the root, follows these links
        whether or not autograd records) and the family's version then (``_vv``: autograd
        needs it if the base later requires grad).  Callers making an alias that is no view
        (``detach``) clear ``_vb``.

        # Note: PyTorch keeps only the root alive; a chain of views here keeps each link
        # (a few hundred bytes each): storing the parent costs nothing, finding the root at
        # every view would cost each view op about 10%.
        """
        vc = self._vc
        if vc is None:
            vc = self._vc = [0]
        v = _new(Tensor)  # (_make inlined: views are the hottest constructor)
        v._storage = self._storage
        v._dtype = dtype or self._dtype
        v._offset = offset
        v._shape = shape
        v._stride = stride
        v._a = arr
        v._ag = None
        v._vc = vc
        v._cj = self._cj
        v._vb = self  # (the tensor viewed; ``_base`` walks these up to the root)
        v._vv = vc[0]  # (the family's version when the view was made: see _record._adopt)
        return v

    def _alias(self) -> "Tensor":
        """Another tensor object for this one's elements: same storage, layout, version
        counter and array, but no view (``_base`` None) and no autograd record -- what a
        node keeps of its own output (see ``SavedTensor``)."""
        v = self._view(self._shape, self._stride, self._offset, None, self._a)
        v._vb = None
        return v

    def _bump(self) -> None:
        """Count an in-place write: this view family's version, and the storage's listeners
        (widgets).  Every write into a tensor's elements or layout ends here."""
        vc = self._vc
        if vc is None:
            self._vc = [1]
        else:
            vc[0] += 1
        self._storage._bump()

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
        return tensor_device(self)

    @property
    def is_cuda(self) -> bool:
        return self._storage._device.type == "cuda"

    @property
    def is_cpu(self) -> bool:
        return self._storage._device.type == "cpu"

    @property
    def is_meta(self) -> bool:
        """Whether this tensor is on the ``meta`` device (a layout without memory)."""
        return self._storage._device.type == "meta"

    def get_device(self) -> int:
        dev = self._storage._device
        return dev.index if dev.type == "cuda" else -1

    @property
    def layout(self) -> layout:
        return strided

    # ------------------------------------------------------------ autograd facts
    @property
    def requires_grad(self) -> bool:
        """Whether autograd records ops on this tensor (a leaf's flag, or: has a grad_fn, or:
        is a view of a tensor that requires grad).

        >>> tensorviz.ones(2, requires_grad=True).requires_grad
        True
        """
        ag = self._ag
        if ag is None:
            return False
        if ag.requires_grad or ag.grad_fn is not None:
            return True
        base = ag.base  # (a view requires grad when its base does, as in PyTorch)
        return base is not None and base.requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        _ag_meta.set_requires_grad(self, flag, _ag_meta.ATTRIBUTE)

    def requires_grad_(self, requires_grad: bool = True) -> "Tensor":
        """Set ``requires_grad`` in place (leaves only) and return this tensor.

        >>> w = tensorviz.zeros(3).requires_grad_()
        """
        _ag_meta.set_requires_grad(self, requires_grad, _ag_meta.METHOD)
        return self

    @property
    def is_leaf(self) -> bool:
        """True for tensors no recorded op made (user-made tensors, parameters, results of
        ops on tensors that need no grad); gradients accumulate into leaves' ``.grad``."""
        ag = self._ag
        return ag is None or ag.grad_fn is None

    @property
    def grad(self) -> "Tensor | None":
        """The gradient accumulated into this leaf by ``backward()`` (None until then).

        A non-leaf's ``.grad`` stays None (with PyTorch's warning) unless ``retain_grad()``
        was called on it.
        """
        ag = self._ag
        if ag is None:
            return None
        if ag.grad_fn is not None and not ag.retains_grad:
            warnings.warn(_NON_LEAF_GRAD, UserWarning, stacklevel=2)
        return ag.grad

    @grad.setter
    def grad(self, value: "Tensor | None") -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad "
                                f"of type {type(value).__name__}")
            if value._shape != self._shape:
                raise RuntimeError(f"attempting to assign a gradient of size "
                                   f"'{list(value._shape)}' to a tensor of size "
                                   f"'{list(self._shape)}'. Please ensure that the gradient and "
                                   "the tensor are the same size")
            if value._dtype is not self._dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{value._dtype.cxx_name}' to a "
                    f"tensor with grad_dtype '{self._dtype.cname}'. The gradient must match the "
                    "tensor's grad_dtype (defaults to the tensor's dtype). You can set the "
                    "tensor's grad_dtype attribute with a specific dtype, or None to allow any "
                    "dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its "
                    "gradient may break downstream systems that assume they match.")
            if value._storage._device != self._storage._device:
                raise RuntimeError("attempting to assign a gradient located on device with "
                                   f"index '{value.get_device()}' to a tensor located on device "
                                   f"with index '{self.get_device()}'. Please ensure that the "
                                   "gradient and the tensor are on the same device")
            _ag_meta.meta(self).grad = value
        elif self._ag is not None:
            self._ag.grad = None

    @property
    def grad_fn(self):
        """The graph node that made this tensor (``<MulBackward0 ...>``), None for a leaf."""
        ag = self._ag
        return None if ag is None else ag.grad_fn

    @property
    def data(self) -> "Tensor":
        """A new tensor over the same memory that autograd does not track, with a version
        counter of its own: writes through it go unnoticed by autograd (prefer ``detach``).

        >>> w.data.zero_()     # an in-place write autograd will not see
        """
        d = _make(Tensor, self._storage, self._dtype, self._offset, self._shape,
                  self._stride, self._a)
        d._cj = self._cj
        if type(self._vc) is _ag_meta.InferenceCounter:
            _inference_alias(d)
        return d

    @data.setter
    def data(self, other: "Tensor") -> None:
        if not isinstance(other, Tensor):
            raise TypeError(f"Tensor.data must be a Tensor, not {type(other).__name__}")
        self._set_layout(other._storage, other._offset, other._shape, other._stride)
        self._dtype = other._dtype

    def detach(self) -> "Tensor":
        """A view of the same memory, out of the graph (``requires_grad=False``); it shares
        this tensor's version counter, so autograd still sees writes made through it.

        >>> y = (x * 2).detach()
        """
        d = self._view(self._shape, self._stride, self._offset)
        d._vb = None  # (not a view in PyTorch: no ``_base``)
        if type(d._vc) is _ag_meta.InferenceCounter:
            _inference_alias(d)
        return d

    def detach_(self) -> "Tensor":
        """Take this tensor out of the graph in place: it becomes a leaf that needs no grad.
        Refused for a view (``a[1:].detach_()``), whether or not autograd records, as in
        PyTorch (outside inference mode): use ``detach()``.

        >>> y = x * 2; y.detach_(); y.requires_grad      # False
        """
        ag = self._ag
        if (self._vb is not None or (ag is not None and ag.base is not None)) and \
                not _STATE.inference and type(self._vc) is not _ag_meta.InferenceCounter:
            raise RuntimeError("Can't detach views in-place. Use detach() instead. If you "
                               "are using DistributedDataParallel (DDP) for training, and "
                               "gradient_as_bucket_view is set as True, gradients are views "
                               "of DDP buckets, and hence detach_() cannot be called on these "
                               "gradients. To fix this error, please refer to the "
                               "Optimizer.zero_grad() function in torch/optim/optimizer.py "
                               "as the solution.")
        if ag is not None:
            ag.grad_fn = None
            ag.requires_grad = False
        return self

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
        """How many in-place writes this tensor's view family has seen (PyTorch's counter)."""
        vc = self._vc
        if type(vc) is _ag_meta.InferenceCounter:
            raise RuntimeError("Inference tensors do not track version counter.")
        return 0 if vc is None else vc[0]

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self, *, tensor_contents=None) -> str:
        be = self._storage._backend
        fn = self.grad_fn
        if be.name == "meta":
            return _meta_repr(self, fn)
        return tensor_repr(self._arr, self._dtype, str(self.device), to_host=be.to_host,
                           requires_grad=self.requires_grad,
                           grad_fn=None if fn is None else type(fn).__name__)

    def __format__(self, spec: str) -> str:
        # As PyTorch: a plain 0-d tensor formats its number; anything else (a Parameter
        # too) formats as str() and takes no format spec.
        if not self._shape and type(self) is Tensor and self._storage._backend.name != "meta":
            return format(self.item(), spec)
        return object.__format__(self, spec)

    # ------------------------------------------------------------ storage swaps
    def set_(self, source=None, storage_offset=None, size=None, stride=None) -> "Tensor":
        """Point this tensor at another storage (shared, never copied), in place.

        ``set_()``: a new empty storage, shape (0,); ``set_(tensor)``: the tensor's storage and
        layout; ``set_(storage)``: all of a storage (typed or untyped) as a 1-D tensor;
        ``set_(source, storage_offset, size, stride=None)``: that layout over the source's
        storage (row-major when ``stride`` is None), bounds-checked.

        Note: PyTorch grows a storage too small for the layout; here that is a RuntimeError
        (a storage never changes size, and nothing is read outside it).
        As PyTorch, this tensor keeps its version counter and counts the write; other
        tensors of either storage keep theirs.
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
        """Take ``storage`` and a layout, counting a write (the old storage's widgets hear of
        it too).  A ``fresh`` storage (made for this tensor alone) starts at its version."""
        old = self._storage
        if storage is not old:
            old._bump()
            if fresh:
                storage._version = old._version
        self._set_layout(storage, offset, tuple(shape), tuple(stride))
        self._bump()
        return self

    def resize_(self, *sizes, size=None, memory_format=None) -> "Tensor":
        """Give this tensor a new shape in place, row-major (or ``memory_format``), keeping its
        storage offset and as much of the data as fits.

        The same shape leaves it untouched.  A storage too small for the new shape grows in
        place, as PyTorch's: the same storage object gets a larger buffer holding the old
        bytes (the rest uninitialised), so every other view of it reads what is written next.

        >>> v = tensorviz.tensor(2.0); w = v.view(1)
        >>> _ = v.resize_(3).fill_(7.0)
        >>> w
        tensor([7.])
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
        _grow_storage(st, buf)
        return self._swap_storage(st, self._offset, shape, stride)

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

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """A NumPy array sharing this tensor's memory (``force=True``: a host copy if needed)."""
        if self._dtype is _dtypes.bfloat16:
            # Note: as PyTorch, though NumPy holds bfloat16 here (through ml_dtypes): call
            # ``t.float().numpy()``, exact, since float32 holds every bfloat16 value.
            raise TypeError("Got unsupported ScalarType BFloat16")
        if self._dtype is _dtypes.complex32:  # (NumPy has no complex32: ``t.cfloat().numpy()``)
            raise TypeError("Got unsupported ScalarType ComplexHalf")
        if self._storage._device.type != "cpu":
            if not force:
                raise TypeError(f"can't convert {self.device} device type tensor to numpy. Use "
                                "Tensor.cpu() to copy the tensor to host memory first.")
            return np.asarray(self._storage._backend.to_host(self._arr))
        if self._cj:  # (its memory holds other values than it shows)
            what = "conjugate" if self._dtype.is_complex else "negative"
            fix = "resolve_conj" if self._dtype.is_complex else "resolve_neg"
            raise RuntimeError(f"Can't call numpy() on Tensor that has {what} bit set. Use "
                               f"tensor.{fix}().numpy() instead.")
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
        if self._dtype is _dtypes.complex32:
            return _chalf.widen(host_array(self)).astype(complex).tolist()
        return host_array(self).tolist()

    def item(self):
        n = self.numel()
        if n != 1:
            raise RuntimeError(f"a Tensor with {n} elements cannot be converted to Scalar")
        if self._storage._device.type == "meta":
            raise RuntimeError("Tensor.item() cannot be called on meta tensors")
        arr = self._arr
        if self._storage._device.type != "cpu":
            arr = self._storage._backend.to_host(arr)
        if self._dtype is _dtypes.complex32:
            arr = _chalf.widen(arr).astype(complex)
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
        c = self._view(self._shape, self._stride, self._offset)  # (shares the storage)
        c._vb = None
        return c

    def __deepcopy__(self, memo):
        """A copy of the storage (one per storage in ``memo``: views stay views of one
        another) with this tensor's layout."""
        st = memo.get(id(self._storage))
        if st is None:
            st = memo[id(self._storage)] = self._storage.clone()
        r = _make(Tensor, st, self._dtype, self._offset, self._shape, self._stride)
        r._cj = self._cj
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
                return self._view((), (), pos)
        return _HOOKS["getitem"](self, key)

    def __setitem__(self, key, value) -> None:
        tk = type(key)
        if tk is builtins.int or tk is slice:  # t[i] = v, t[a:b] = v: a view, then assign
            _HOOKS["assign"](self._view(*_layout.index(self._shape, self._stride, self._offset,
                                                       key)), value)
            return
        if tk is tuple and type(value) in _PY_SCALARS:  # t[i, j] = 1.5: one element
            pos = _element_position(self._shape, self._stride, self._offset, key)
            if pos is not None:
                _HOOKS["set_element"](self, pos, value)
                return
        _HOOKS["setitem"](self, key, value)


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
            from ._scalars import _C_NAMES
            raise RuntimeError(f"Could not set tensor of type {_C_NAMES[source._dtype.name]} "
                               f"to a tensor of type {_C_NAMES[t._dtype.name]}")
        st = source._storage
    elif isinstance(source, TypedStorage):
        if source.dtype is not t._dtype:
            from ._scalars import _C_NAMES
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
    if isinstance(v, (builtins.bool, np.bool_)):  # (PyTorch's parser takes no bool for an int)
        raise TypeError("argument must be int, not " +
                        ("bool" if type(v) is builtins.bool else "numpy.bool"))
    try:
        return v.__index__()
    except (AttributeError, TypeError):
        raise TypeError(f"argument must be int, not {_layout._parser_type(v)}") from None


def _rebuild_tensor(storage_args: tuple, dt: _dtype_cls, offset: builtins.int,
                    shape: tuple, stride: tuple, requires_grad: builtins.bool) -> Tensor:
    from ._storage import _rebuild_untyped
    t = _make(Tensor, _rebuild_untyped(*storage_args), dt, offset, tuple(shape), tuple(stride))
    t.requires_grad = requires_grad
    return t


def _meta_repr(t: "Tensor", fn) -> str:
    """PyTorch's text for a meta tensor: its size and dtype, no values (it has none)."""
    parts = [f"size={tuple(t._shape)}"]
    if t._dtype is not _dtypes.get_default_dtype():
        parts.append(f"dtype=tensorviz.{t._dtype.name}")
    if fn is not None:
        parts.append(f"grad_fn=<{type(fn).__name__}>")
    elif t.requires_grad:
        parts.append("requires_grad=True")
    return f"tensor(..., device='meta', {', '.join(parts)})"


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
    _dtypes.complex32: "tensorviz.ComplexHalfTensor",
    _dtypes.bfloat16: "tensorviz.BFloat16Tensor",
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


_dtypes.register_tensor_type(Tensor)
_STORAGE_HOOKS["make"] = Tensor._make
