"""Write ``data.pkl``: a protocol-2 pickle that names PyTorch's globals, not tensorviz's.

A tensor pickles as PyTorch pickles one::

    torch._utils._rebuild_tensor_v2(<storage>, offset, size, stride, requires_grad, OrderedDict())

where ``<storage>`` is a persistent id ``('storage', torch.FloatStorage, '0', 'cpu', numel)``
whose bytes go to ``data/0`` in the zip.  The standard library's C pickler insists on importing
the module of every global it writes (``torch._utils`` here, which tensorviz must not import),
so this pickler builds on the pure-Python ``pickle._Pickler`` and writes those few globals
itself; everything else (containers, numbers, strings, other objects) is pickled as usual.
"""
from __future__ import annotations

import collections
import pickle
from typing import Any

from .. import _dtypes
from .._device import device
from .._size import Size
from .._storage import TypedStorage, UntypedStorage
from .._tensor import Tensor, layout

__all__ = ["TorchPickler", "STORAGE_CLASS_NAMES"]

# The legacy storage class PyTorch names in the persistent id of each dtype's storage.
STORAGE_CLASS_NAMES = {
    "float64": "DoubleStorage", "float32": "FloatStorage", "float16": "HalfStorage",
    "int64": "LongStorage", "int32": "IntStorage", "int16": "ShortStorage",
    "int8": "CharStorage", "uint8": "ByteStorage", "bool": "BoolStorage",
    "complex128": "ComplexDoubleStorage", "complex64": "ComplexFloatStorage",
    "bfloat16": "BFloat16Storage", "complex32": "ComplexHalfStorage",
}


class _Global:
    """A stand-in written as ``GLOBAL module name`` (the real object is never imported)."""

    __slots__ = ("module", "name")

    def __init__(self, module: str, name: str):
        self.module, self.name = module, name

    def __call__(self, *args):  # pickle's save_reduce wants a callable
        raise TypeError(f"{self.module}.{self.name} is only a name written into files")

    def __repr__(self) -> str:
        return f"<global {self.module}.{self.name}>"


_REBUILD_TENSOR_V2 = _Global("torch._utils", "_rebuild_tensor_v2")
_REBUILD_TENSOR_V3 = _Global("torch._utils", "_rebuild_tensor_v3")
_REBUILD_PARAMETER = _Global("torch._utils", "_rebuild_parameter")
_REBUILD_META = _Global("torch._utils", "_rebuild_meta_tensor_no_storage")
_SIZE = _Global("torch", "Size")
_DEVICE = _Global("torch", "device")
_GET_LAYOUT = _Global("torch.serialization", "_get_layout")
_UNTYPED_STORAGE = _Global("torch.storage", "UntypedStorage")
_CODECS_ENCODE = _Global("_codecs", "encode")
_STORAGE_CLASSES = {getattr(_dtypes, n): _Global("torch", c)
                    for n, c in STORAGE_CLASS_NAMES.items()}
_DTYPE_GLOBALS = {d: _Global("torch", d.name) for d in _dtypes.ALL_DTYPES}


def _write_global(pickler: "TorchPickler", obj: _Global) -> None:
    pickler.write(pickle.GLOBAL + obj.module.encode("ascii") + b"\n" +
                  obj.name.encode("ascii") + b"\n")
    pickler.memoize(obj)


def _write_dtype(pickler: "TorchPickler", obj: "_dtypes.dtype") -> None:
    pickler.save(_DTYPE_GLOBALS[obj])


class TorchPickler(pickle._Pickler):
    """Pickle ``obj`` for ``data.pkl``; ``storages`` collects ``(key, untyped, nbytes, dtype)``.

    Storages are keyed by identity in first-seen order (``"0"``, ``"1"``, ...): every view of
    one storage repeats the same persistent id, which is how sharing survives the round trip.
    """

    dispatch = dict(pickle._Pickler.dispatch)
    dispatch[_Global] = _write_global
    dispatch[_dtypes.dtype] = _write_dtype
    dispatch[type(_dtypes.complex32)] = _write_dtype

    def __init__(self, file, protocol: int = 2):
        super().__init__(file, protocol=protocol)
        self._keys: dict[int, str] = {}
        self._dtype_of: dict[tuple, Any] = {}
        self.storages: list[tuple[str, UntypedStorage, int, Any]] = []

    # ------------------------------------------------------------ storages
    def persistent_id(self, obj: Any):
        cls = type(obj)
        if cls is TypedStorage:
            untyped, dt = obj._untyped, obj.dtype
            numel, cls_global = obj.size(), _STORAGE_CLASSES[dt]
        elif cls is UntypedStorage:
            untyped, dt = obj, _dtypes.uint8
            numel, cls_global = obj.nbytes(), _UNTYPED_STORAGE
        else:
            return None
        # Like PyTorch: one memory saved as two dtypes cannot be loaded back consistently.
        if untyped.nbytes():
            where = (untyped.device, untyped.data_ptr())
            seen = self._dtype_of.setdefault(where, dt)
            if seen is not dt:
                raise RuntimeError("Cannot save multiple tensors or storages that view the "
                                   "same data as different types")
        key = self._keys.get(id(untyped))
        if key is None:
            key = self._keys[id(untyped)] = str(len(self._keys))
            self.storages.append((key, untyped, numel * dt.itemsize, dt))
        return ("storage", cls_global, key, str(untyped.device), numel)

    # ------------------------------------------------------------ tensorviz objects
    def reducer_override(self, obj: Any):
        cls = type(obj)
        if cls is Tensor or (isinstance(obj, Tensor) and cls.__name__ != "Parameter"):
            # Note: Tensor subclasses other than Parameter are saved as plain tensors.
            if obj._storage._device.type == "meta":  # (a layout, no bytes: as PyTorch)
                return (_REBUILD_META, (obj._dtype, tuple(obj._shape), tuple(obj._stride),
                                        bool(obj.requires_grad)))
            if obj._dtype is _dtypes.complex32:
                # (as PyTorch: its storage untyped, the dtype after the backward hooks)
                args = _tensor_args(obj)
                return (_REBUILD_TENSOR_V3, (obj.untyped_storage(),) + args[1:6] +
                        (obj._dtype,) + args[6:])
            return (_REBUILD_TENSOR_V2, _tensor_args(obj))
        if isinstance(obj, Tensor):  # a Parameter: rebuilt around a plain tensor of its data
            plain = Tensor._make(obj._storage, obj._dtype, obj._offset, obj._shape,
                                 obj._stride)
            return (_REBUILD_PARAMETER, (plain, bool(obj.requires_grad),
                                         collections.OrderedDict()))
        if cls is Size:
            return (_SIZE, (tuple(obj),))
        if cls is device:
            return (_DEVICE, (obj.type,) if obj.index is None else (obj.type, obj.index))
        if cls is layout:
            return (_GET_LAYOUT, (f"torch.{obj.name}",))
        if cls is bytes:
            # Protocol 2 has no bytes opcode; PyTorch writes _codecs.encode(str, 'latin1').
            # (Also for b'', which PyTorch writes as bytes() that its own loader refuses.)
            return (_CODECS_ENCODE, (obj.decode("latin1"), "latin1"))
        if cls is complex:
            return (complex, (obj.real, obj.imag))
        return NotImplemented


def _tensor_args(t: Tensor) -> tuple:
    args = (t.storage(), t._offset, tuple(t._shape), tuple(t._stride),
            bool(getattr(t, "requires_grad", False)), collections.OrderedDict())
    if t._cj:  # a lazy conjugate/negative view: the stored data and PyTorch's metadata bit
        args += ({"conj" if t._dtype.is_complex else "neg": True},)
    return args
