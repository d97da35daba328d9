"""Read ``data.pkl``: PyTorch's globals mapped onto tensorviz, and nothing else allowed.

``SafeUnpickler`` (``weights_only=True``, the default) is the standard library's pure-Python
unpickler with a reduced opcode table: every ``GLOBAL`` resolves through an allowlist of local
stand-ins (nothing is imported), ``REDUCE``/``NEWOBJ`` call only those stand-ins, ``BUILD``
applies only to ``OrderedDict`` metadata, and the only persistent ids are storages.  Anything
else raises ``pickle.UnpicklingError`` naming what the file asked for, so a hostile file
(``os.system`` in a ``REDUCE``, say) runs nothing.

``trusted_unpickler_class`` (``weights_only=False``) maps the same PyTorch names and lets
every other global import normally: for files from a trusted source only.
"""
from __future__ import annotations

import _compat_pickle
import collections
import pickle
from typing import Any, Callable

from .. import _dtypes, _layout
from .._device import device
from .._size import Size
from .._storage import TypedStorage
from .._tensor import Tensor, strided
from ._pickling import STORAGE_CLASS_NAMES

__all__ = ["SafeUnpickler", "trusted_unpickler_class", "weights_only_message"]


class StorageClass:
    """What a storage class name in the file (``torch.FloatStorage``) stands for."""

    __slots__ = ("name", "dtype")

    def __init__(self, name: str, dtype: "_dtypes.dtype | None"):
        self.name, self.dtype = name, dtype  # dtype None: torch.UntypedStorage (bytes)

    def __repr__(self) -> str:
        return f"<storage class torch.{self.name}>"


class _TypeMarker:
    """``torch.Tensor`` / ``torch.nn.parameter.Parameter`` as arguments of a rebuild call."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"<type {self.name}>"


TENSOR_TYPE = _TypeMarker("torch.Tensor")
PARAMETER_TYPE = _TypeMarker("torch.nn.parameter.Parameter")


# ---------------------------------------------------------------- rebuilding tensors
def _ints(value, what: str) -> tuple:
    if not isinstance(value, (tuple, list)) or not all(
            type(v) is int or (isinstance(v, int) and not isinstance(v, bool)) for v in value):
        raise pickle.UnpicklingError(f"a tensor's {what} must be a tuple of ints, got "
                                     f"{value!r:.80}")
    return tuple(int(v) for v in value)


def _rebuild_tensor(storage, storage_offset, size, stride, dtype=None) -> Tensor:
    if not isinstance(storage, TypedStorage):
        raise pickle.UnpicklingError(f"a tensor must be rebuilt from a storage of the file, got "
                                     f"{type(storage).__name__}")
    dt = storage.dtype if dtype is None else dtype
    if not isinstance(dt, _dtypes.dtype):
        raise pickle.UnpicklingError(f"a tensor's dtype must be a dtype, got {dt!r:.80}")
    if type(storage_offset) is not int:
        raise pickle.UnpicklingError(f"a tensor's storage offset must be an int, got "
                                     f"{storage_offset!r:.80}")
    shape, strides = _ints(size, "size"), _ints(stride, "stride")
    untyped = storage.untyped()
    # The view must stay inside its storage: checked before any array is made from it.
    _layout.check_as_strided(shape, strides, storage_offset, untyped.nbytes() // dt.itemsize,
                             dt.itemsize)
    t = Tensor._make(untyped, dt, storage_offset, shape, strides)
    # PyTorch rebuilds a tensor with ``set_`` onto the storage, which counts as a write: a
    # loaded tensor is at version 1, each with its own counter (views are not re-linked)
    t._vc = [1]
    return t


def _finish(t: Tensor, requires_grad, metadata) -> Tensor:
    if metadata:
        if not isinstance(metadata, dict):
            raise pickle.UnpicklingError(f"tensor metadata must be a dict, got "
                                         f"{type(metadata).__name__}")
        # PyTorch marks lazy conj/neg views: their stored data is not conjugated or
        # negated, so the tensor is made the same lazy view of it.
        if metadata.get("conj") or metadata.get("neg"):
            t = t._view(t._shape, t._stride, t._offset)
            t._cj = True
            t._vb = None
    if requires_grad and t._dtype.category >= _dtypes._FLOAT:
        t.requires_grad = True
    return t


def _rebuild_tensor_v1(storage, storage_offset, size, stride) -> Tensor:
    return _rebuild_tensor(storage, storage_offset, size, stride)


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad=False,
                       backward_hooks=None, metadata=None) -> Tensor:
    return _finish(_rebuild_tensor(storage, storage_offset, size, stride), requires_grad,
                   metadata)


def _rebuild_tensor_v3(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       dtype, metadata=None) -> Tensor:
    return _finish(_rebuild_tensor(storage, storage_offset, size, stride, dtype),
                   requires_grad, metadata)


def _as_parameter(data, requires_grad=True) -> Tensor:
    if not isinstance(data, Tensor):
        raise pickle.UnpicklingError(f"a Parameter must wrap a tensor, got "
                                     f"{type(data).__name__}")
    try:  # tensorviz.nn may not exist (yet): then a plain tensor stands in
        from .. import nn  # type: ignore[attr-defined]
        parameter_cls = getattr(nn, "Parameter", None)
    except ImportError:
        parameter_cls = None
    if parameter_cls is not None:
        return parameter_cls(data, requires_grad=bool(requires_grad))
    if requires_grad and data._dtype.category >= _dtypes._FLOAT:
        data.requires_grad = True
    return data


def _set_state(obj, state) -> Any:
    if not state:
        return obj
    if not isinstance(state, dict):
        raise pickle.UnpicklingError(f"object state must be a dict, got "
                                     f"{type(state).__name__}")
    for k, v in state.items():
        if type(k) is not str or k.startswith("_"):
            raise pickle.UnpicklingError(f"can't set attribute {k!r} of a tensor from a file")
        try:
            setattr(obj, k, v)
        except AttributeError:
            raise RuntimeError(f"the file sets the Python attribute {k!r} on a tensor; "
                               "tensorviz tensors can't hold extra attributes") from None
    return obj


def _rebuild_parameter(data, requires_grad, backward_hooks) -> Tensor:
    return _as_parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state) -> Tensor:
    return _set_state(_as_parameter(data, requires_grad), state)


def _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad=False) -> Tensor:
    """A meta tensor (PyTorch saves its layout only: there are no bytes)."""
    if not isinstance(dtype, _dtypes.dtype):
        raise pickle.UnpicklingError(f"a meta tensor's dtype must be a dtype, got "
                                     f"{type(dtype).__name__}")
    size, stride = _int_tuple(size, "size"), _int_tuple(stride, "stride")
    if len(size) != len(stride) or any(s < 0 for s in size + stride):
        raise pickle.UnpicklingError(f"a meta tensor's size {size} and stride {stride} do "
                                     "not make a layout")
    from .._storage import UntypedStorage
    from ..backends import meta_backend
    be = meta_backend()
    n = 0 if 0 in size else 1 + sum((s - 1) * st for s, st in zip(size, stride))
    buf = be.empty(n, dtype._np)
    meta = device("meta")
    t = Tensor._make(UntypedStorage._wrap(buf, meta, be), dtype, 0, size, stride,
                     be.strided(buf, 0, size, stride))
    return _finish(t, requires_grad, None)


def _int_tuple(value, what: str) -> tuple:
    if not isinstance(value, (tuple, list, Size)) or \
            not all(type(v) is int for v in value):
        raise pickle.UnpicklingError(f"a meta tensor's {what} must be a tuple of ints")
    return tuple(value)


_REBUILD_FUNCTIONS = {_rebuild_tensor_v1, _rebuild_tensor_v2, _rebuild_tensor_v3,
                      _rebuild_meta_tensor_no_storage,
                      _rebuild_parameter, _rebuild_parameter_with_state}


def _rebuild_from_type_v2(func, new_type, args, state) -> Tensor:
    if func not in _REBUILD_FUNCTIONS:
        raise pickle.UnpicklingError(f"_rebuild_from_type_v2 can only call a tensor rebuild "
                                     f"function, got {func!r:.80}")
    if new_type is not TENSOR_TYPE and new_type is not PARAMETER_TYPE:
        raise pickle.UnpicklingError(f"tensors of type {new_type!r:.80} can't be loaded")
    if not isinstance(args, tuple):
        raise pickle.UnpicklingError("_rebuild_from_type_v2 needs a tuple of arguments")
    ret = func(*args)
    if new_type is PARAMETER_TYPE:
        ret = _as_parameter(ret, ret.requires_grad)
    return _set_state(ret, state)


# ---------------------------------------------------------------- other stand-ins
_TEXT_CODECS = {"latin1", "latin-1", "iso-8859-1", "iso8859-1", "utf-8", "utf8", "ascii"}


def _encode(obj, encoding="utf-8", errors="strict") -> bytes:
    """``_codecs.encode`` for the text codecs pickles use to spell bytes (latin1)."""
    if type(obj) is not str or encoding.lower() not in _TEXT_CODECS or errors != "strict":
        raise pickle.UnpicklingError(f"_codecs.encode is allowed only on a str with a text "
                                     f"codec (latin1), got {type(obj).__name__} and "
                                     f"{encoding!r:.40}")
    return obj.encode(encoding)


def _bytes(*args) -> bytes:
    if not args:
        return b""
    if len(args) == 2 or (len(args) == 1 and isinstance(args[0], (list, tuple, bytes))):
        return _encode(*args) if len(args) == 2 else bytes(args[0])
    raise pickle.UnpicklingError(f"bytes{args!r:.80} is not allowed in a file")


def _bytearray(*args) -> bytearray:
    return bytearray(_bytes(*args))


def _make_device(*args) -> device:
    return device(*args)


def _get_layout(name) -> Any:
    if name == "torch.strided":
        return strided
    raise RuntimeError(f"tensorviz has only the strided layout; the file uses {name!r:.40}")


# ---------------------------------------------------------------- the allowlist
# Every name a file may use, mapped to what tensorviz puts in its place.
GLOBALS: dict[str, Any] = {
    "torch._utils._rebuild_tensor": _rebuild_tensor_v1,
    "torch._utils._rebuild_tensor_v2": _rebuild_tensor_v2,
    "torch._utils._rebuild_tensor_v3": _rebuild_tensor_v3,
    "torch._utils._rebuild_meta_tensor_no_storage": _rebuild_meta_tensor_no_storage,
    "torch._utils._rebuild_parameter": _rebuild_parameter,
    "torch._utils._rebuild_parameter_with_state": _rebuild_parameter_with_state,
    "torch._tensor._rebuild_from_type_v2": _rebuild_from_type_v2,
    "torch.Tensor": TENSOR_TYPE,
    "torch._tensor.Tensor": TENSOR_TYPE,
    "torch.nn.parameter.Parameter": PARAMETER_TYPE,
    "torch.nn.Parameter": PARAMETER_TYPE,
    "torch.Size": Size,
    "torch.device": _make_device,
    "torch.serialization._get_layout": _get_layout,
    "torch.storage.UntypedStorage": StorageClass("UntypedStorage", None),
    "torch.UntypedStorage": StorageClass("UntypedStorage", None),
    "collections.OrderedDict": collections.OrderedDict,
    "collections.Counter": collections.Counter,
    "_codecs.encode": _encode,
    "builtins.set": set,
    "builtins.frozenset": frozenset,
    "builtins.complex": complex,
    "builtins.bytes": _bytes,
    "builtins.bytearray": _bytearray,
}
for _name, _cls in STORAGE_CLASS_NAMES.items():
    for _module in ("torch", "torch.cuda"):
        GLOBALS[f"{_module}.{_cls}"] = StorageClass(_cls, getattr(_dtypes, _name))
for _d in _dtypes.ALL_DTYPES:
    GLOBALS[f"torch.{_d.name}"] = _d
for _alias in ("half", "float", "double", "short", "int", "long", "chalf", "cfloat",
               "cdouble"):
    GLOBALS[f"torch.{_alias}"] = getattr(_dtypes, _alias)

# Callables a REDUCE may call, classes a NEWOBJ may create.
_CALLABLE = {id(v): v for v in GLOBALS.values()
             if callable(v) and not isinstance(v, (_dtypes.dtype, StorageClass, _TypeMarker))}
_NEWOBJ_CLASSES = {collections.OrderedDict, collections.Counter, set, frozenset, complex, Size}

# PyTorch names tensorviz knows but cannot hold.
_UNSUPPORTED_DTYPES = {
    "uint16", "uint32", "uint64", "float8_e4m3fn",
    "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2",
    "quint8", "qint8", "qint32", "quint4x2", "quint2x4", "bits1x8", "bits2x4", "bits4x2",
    "bits8", "bits16", "int1", "int2", "int3", "int4", "int5", "int6", "int7", "uint1", "uint2",
    "uint3", "uint4", "uint5", "uint6", "uint7"}
_STORAGE_DTYPES = {"QUInt8Storage": "quint8", "QInt8Storage": "qint8", "QInt32Storage": "qint32",
                   "QUInt4x2Storage": "quint4x2", "QUInt2x4Storage": "quint2x4"}
_UNSUPPORTED_DTYPES.update(_STORAGE_DTYPES)
_MODULE_RENAMES = {"torch.tensor": "torch._tensor"}  # as PyTorch's own loader maps them


def _normalize(module: str, name: str) -> tuple[str, str]:
    if (module, name) in _compat_pickle.NAME_MAPPING:
        module, name = _compat_pickle.NAME_MAPPING[(module, name)]
    elif module in _compat_pickle.IMPORT_MAPPING:
        module = _compat_pickle.IMPORT_MAPPING[module]
    return _MODULE_RENAMES.get(module, module), name


def _unsupported(module: str, name: str) -> Exception | None:
    if module in ("torch", "torch.cuda") and name in _UNSUPPORTED_DTYPES:
        dtype_name = _STORAGE_DTYPES.get(name, name)
        via = f" (storage class torch.{name})" if name != dtype_name else ""
        return RuntimeError(
            f"the file holds data of dtype torch.{dtype_name}{via}, which tensorviz does not "
            f"have (its dtypes are {', '.join(d.name for d in _dtypes.ALL_DTYPES)}); convert "
            "the tensor in PyTorch before saving it, e.g. with t.float()")
    return None


# ---------------------------------------------------------------- user allowlist
# Globals the user marked safe (``add_safe_globals``): full name -> object.  A file may name
# them, call them (REDUCE), create them (NEWOBJ) and set their state (BUILD).
_user_globals: dict[str, Any] = {}
_user_entries: list = []


def add_safe_globals(entries: list) -> None:
    for entry in entries:
        if isinstance(entry, tuple):
            if len(entry) != 2 or type(entry[1]) is not str:
                raise TypeError("add_safe_globals: a tuple entry must be (object, "
                                "'module.qualified.name')")
            obj, name = entry
        else:
            obj, name = entry, f"{entry.__module__}.{entry.__qualname__}"
        _user_globals[name] = obj
        if entry not in _user_entries:
            _user_entries.append(entry)


def remove_safe_globals(entries: list) -> None:
    for entry in entries:
        if entry in _user_entries:
            _user_entries.remove(entry)
    _user_globals.clear()
    add_safe_globals(list(_user_entries))


def get_safe_globals() -> list:
    return list(_user_entries)


def clear_safe_globals() -> None:
    _user_entries.clear()
    _user_globals.clear()


def _is_user_allowed(obj) -> bool:
    return any(v is obj for v in _user_globals.values())


def allowed_global(module: str, name: str) -> bool:
    """Whether ``weights_only=True`` lets a file name ``module.name``."""
    module, name = _normalize(module, name)
    full = f"{module}.{name}"
    return full in GLOBALS or full in _user_globals


def _needs_torch(module: str, name: str) -> Exception | None:
    if module == "torch" or module.startswith("torch."):
        return pickle.UnpicklingError(
            f"the file holds a {module}.{name} object, which needs PyTorch itself (tensorviz "
            "never imports it); tensorviz loads dense tensors, storages and plain Python "
            "objects: save a model's state_dict() rather than the model, and make sparse, "
            "quantized or nested tensors dense (t.to_dense()) before saving")
    return None


def weights_only_message(detail: str) -> str:
    return (f"Weights only load failed: {detail}. tensorviz.load(weights_only=True) loads only "
            "tensors, storages, dtypes, devices, sizes and plain containers (dict, "
            "OrderedDict, list, tuple, set) of numbers, strings and bytes, so no code from "
            "the file runs. If you trust the source of this file, load it with "
            "tensorviz.load(f, weights_only=False); that can run arbitrary code named in "
            "the file.")


# ---------------------------------------------------------------- the safe unpickler
class _Dispatch(dict):
    def __missing__(self, code: int):
        raise pickle.UnpicklingError(weights_only_message(
            f"the pickle uses opcode {bytes([code])!r}, which is not allowed"))


_SAFE_OPCODES = [
    "PROTO", "FRAME", "STOP", "MARK", "POP", "POP_MARK", "DUP", "NONE", "NEWTRUE", "NEWFALSE",
    "INT", "BININT", "BININT1", "BININT2", "LONG", "LONG1", "LONG4", "FLOAT", "BINFLOAT",
    "STRING", "BINSTRING", "SHORT_BINSTRING", "UNICODE", "BINUNICODE", "SHORT_BINUNICODE",
    "BINUNICODE8", "BINBYTES", "SHORT_BINBYTES", "BINBYTES8", "BYTEARRAY8", "EMPTY_TUPLE",
    "TUPLE", "TUPLE1", "TUPLE2", "TUPLE3", "EMPTY_LIST", "LIST", "EMPTY_DICT", "DICT",
    "EMPTY_SET", "FROZENSET", "GET", "BINGET", "LONG_BINGET", "PUT", "BINPUT", "LONG_BINPUT",
    "MEMOIZE", "GLOBAL", "STACK_GLOBAL"]


def _op(name: str) -> int:
    return getattr(pickle, name)[0]


class SafeUnpickler(pickle._Unpickler):
    """Unpickle ``data.pkl`` calling only the allowlisted stand-ins (``weights_only=True``).

    ``persistent_load`` is the caller's: it turns a storage id into a ``TypedStorage``.
    """

    dispatch = _Dispatch({_op(n): pickle._Unpickler.dispatch[_op(n)] for n in _SAFE_OPCODES})

    def __init__(self, file, persistent_load: Callable[[tuple], Any]):
        super().__init__(file, encoding="utf-8")
        self._persistent_load = persistent_load

    def find_class(self, module: str, name: str) -> Any:
        module, name = _normalize(module, name)
        full = f"{module}.{name}"
        value = GLOBALS.get(full)
        if value is not None:
            return value
        if full in _user_globals:
            return _user_globals[full]
        error = _unsupported(module, name) or _needs_torch(module, name)
        if error is not None:
            raise error
        raise pickle.UnpicklingError(weights_only_message(
            f"the file names the global {full}, which is not allowed (if you trust it, "
            f"allow it with tensorviz.serialization.add_safe_globals([{full}]))"))

    def load_global(self):
        module, name = self.readline(), self.readline()
        if not module.endswith(b"\n") or not name.endswith(b"\n"):
            raise EOFError("the pickle ends inside a GLOBAL opcode (truncated)")
        self.append(self.find_class(module[:-1].decode("utf-8"), name[:-1].decode("utf-8")))
    dispatch[pickle.GLOBAL[0]] = load_global

    def _refuse(self, what: str):
        raise pickle.UnpicklingError(weights_only_message(what))

    def load_reduce(self):
        stack = self.stack
        args = stack.pop()
        func = stack[-1]
        if _CALLABLE.get(id(func)) is not func and not _is_user_allowed(func):
            self._refuse(f"the pickle calls {func!r:.80}, which is not an allowed function")
        if type(args) is not tuple:
            raise pickle.UnpicklingError("REDUCE needs a tuple of arguments")
        stack[-1] = func(*args)
    dispatch[pickle.REDUCE[0]] = load_reduce

    def load_newobj(self):
        args = self.stack.pop()
        cls = self.stack.pop()
        if type(args) is not tuple:
            raise pickle.UnpicklingError("NEWOBJ needs a tuple of arguments")
        if cls is PARAMETER_TYPE:
            self.append(_as_parameter(*args))
        elif cls in _NEWOBJ_CLASSES or (isinstance(cls, type) and _is_user_allowed(cls)):
            self.append(cls.__new__(cls, *args))
        else:
            self._refuse(f"the pickle creates an object of {cls!r:.80}, which is not allowed")
    dispatch[pickle.NEWOBJ[0]] = load_newobj

    def load_build(self):
        state = self.stack.pop()
        inst = self.stack[-1]
        if type(inst) in (collections.OrderedDict, collections.Counter) and \
                type(state) is dict and \
                all(type(k) is str and not k.startswith("__") for k in state):
            inst.__dict__.update(state)  # a state_dict's _metadata (never a dunder)
        elif _is_user_allowed(type(inst)):  # as the standard unpickler does it
            setstate = getattr(inst, "__setstate__", None)
            if setstate is not None:
                setstate(state)
                return
            slotstate = None
            if isinstance(state, tuple) and len(state) == 2:
                state, slotstate = state
            if state:
                inst.__dict__.update(state)
            if slotstate:
                for k, v in slotstate.items():
                    setattr(inst, k, v)
        else:
            self._refuse(f"the pickle sets the state of a {type(inst).__name__}, which is "
                         "not allowed")
    dispatch[pickle.BUILD[0]] = load_build

    def load_append(self):
        value = self.stack.pop()
        target = self.stack[-1]
        if type(target) is not list:
            self._refuse(f"the pickle appends to a {type(target).__name__}")
        target.append(value)
    dispatch[pickle.APPEND[0]] = load_append

    def load_appends(self):
        items = self.pop_mark()
        target = self.stack[-1]
        if type(target) is not list:
            self._refuse(f"the pickle appends to a {type(target).__name__}")
        target.extend(items)
    dispatch[pickle.APPENDS[0]] = load_appends

    def _check_mapping(self, target) -> None:
        if type(target) not in (dict, collections.OrderedDict, collections.Counter):
            self._refuse(f"the pickle sets items of a {type(target).__name__}")

    def load_setitem(self):
        value = self.stack.pop()
        key = self.stack.pop()
        self._check_mapping(self.stack[-1])
        self.stack[-1][key] = value
    dispatch[pickle.SETITEM[0]] = load_setitem

    def load_setitems(self):
        items = self.pop_mark()
        target = self.stack[-1]
        self._check_mapping(target)
        for i in range(0, len(items), 2):
            target[items[i]] = items[i + 1]
    dispatch[pickle.SETITEMS[0]] = load_setitems

    def load_additems(self):
        items = self.pop_mark()
        target = self.stack[-1]
        if type(target) is not set:
            self._refuse(f"the pickle adds items to a {type(target).__name__}")
        target.update(items)
    dispatch[pickle.ADDITEMS[0]] = load_additems

    def load_binpersid(self):
        pid = self.stack.pop()
        try:
            storage = self._persistent_load(pid)
        except Exception as e:  # the loader's own errors (or map_location's) pass unchanged
            raise PassThrough(e) from None
        self.append(storage)
    dispatch[pickle.BINPERSID[0]] = load_binpersid


class PassThrough(Exception):
    """Carries an error of the storage loader out of the unpickler, to be raised as is."""

    def __init__(self, error: Exception):
        super().__init__(error)
        self.error = error


def trusted_unpickler_class(base: type) -> type:
    """An unpickler class (on ``base``, e.g. ``pickle.Unpickler``) for ``weights_only=False``.

    PyTorch's names map to tensorviz's stand-ins; other globals import as usual, except
    PyTorch's own modules, which tensorviz never imports.
    """

    class TrustedUnpickler(base):  # type: ignore[misc, valid-type]
        def __init__(self, file, persistent_load: Callable[[tuple], Any], **kwargs):
            super().__init__(file, **kwargs)
            self._tv_persistent_load = persistent_load

        def persistent_load(self, pid):
            return self._tv_persistent_load(pid)

        def find_class(self, module: str, name: str) -> Any:
            module, name = _normalize(module, name)
            value = GLOBALS.get(f"{module}.{name}")
            if value is not None:
                return value
            error = _unsupported(module, name) or _needs_torch(module, name)
            if error is not None:
                raise error
            return super().find_class(module, name)

    return TrustedUnpickler
