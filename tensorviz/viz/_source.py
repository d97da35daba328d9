"""The one adapter between the widgets and anything strided: tensorviz, NumPy or PyTorch.

A :class:`Source` turns a tensor-like object into a :class:`Layout` (shape, stride and offset
in elements, dtype, device, storage size) plus bounded reads of its storage.  It holds the
object and its memory *weakly*: the widgets must never keep a learner's tensor alive.

What each kind calls its memory (the object whose lifetime is the lifetime of the bytes):

=========  =====================================  =========================================
kind       memory owner (held weakly)             element reads
=========  =====================================  =========================================
tensorviz  ``t.untyped_storage()``                ``t.storage()._window(start, stop)``
torch      ``t.untyped_storage()`` (PyTorch keeps  a flat tensor ``set_`` on that storage
           one Python object per storage)
numpy      the root ndarray of the ``.base``       a flat read-only array over the root's
           chain                                   bytes (``__array_interface__``)
=========  =====================================  =========================================

A view stays drawable after its own Python object is gone (``show(a, a.t())`` passes a
temporary): the layout is remembered and values are read through the storage, which lives as
long as any view of it does.
"""
from __future__ import annotations

import sys
import weakref
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .. import _layout

__all__ = ["Layout", "Source", "as_source", "NUMERIC_KINDS"]

NUMERIC_KINDS = "biufc"  # NumPy dtype kinds the widgets can draw


@dataclass(frozen=True)
class Layout:
    """Everything the widgets draw about one tensor, in elements (never bytes)."""

    shape: tuple[int, ...]
    stride: tuple[int, ...]
    offset: int
    dtype: str  # 'float32', 'int64', 'bool', ...
    itemsize: int
    device: str  # 'cpu', 'cuda:0', 'meta'
    kind: str  # 'tensorviz' | 'torch' | 'numpy'
    storage_size: int  # elements of this dtype in the storage
    byte_strides: tuple[int, ...] | None = None  # NumPy's own strides (bytes), else None
    note: str = ""  # anything the learner should know about how this was read

    @property
    def numel(self) -> int:
        return _layout.numel(self.shape)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def extent(self) -> tuple[int, int]:
        """``(lowest, highest + 1)`` storage element the layout addresses (``(o, o)`` if empty).

        ``_layout.storage_extent`` covers PyTorch's non-negative strides; NumPy views such as
        ``a[::-1]`` have negative strides, which reach *below* the offset.
        """
        if self.numel == 0:
            return self.offset, self.offset
        if all(st >= 0 for st in self.stride):
            return self.offset, _layout.storage_extent(self.shape, self.stride, self.offset)
        # Note: negative strides (NumPy only) - the lowest address is reached at index n-1.
        low = self.offset + sum((n - 1) * st for n, st in zip(self.shape, self.stride) if st < 0)
        high = self.offset + sum((n - 1) * st for n, st in zip(self.shape, self.stride) if st > 0)
        return low, high + 1


# How many notebook cells have ended (counted by the widgets' ``post_run_cell`` hook): a
# memory freed while the cell that drew it is still running was a temporary, e.g. the result
# of ``show(tensor(3.5))``, which nothing else could ever change.
CELLS_ENDED = [0]


def _torch_module():
    """PyTorch if the learner already imported it (the widgets never import it themselves)."""
    return sys.modules.get("torch")


def _is_tensorviz(obj: Any) -> bool:
    mod = type(obj).__module__ or ""
    return (mod == "tensorviz" or mod.startswith("tensorviz.")) and hasattr(obj, "untyped_storage")


def _is_torch(obj: Any) -> bool:
    torch = _torch_module()
    return torch is not None and isinstance(obj, torch.Tensor)


def _weak(obj: Any, callback: Callable | None = None):
    try:
        return weakref.ref(obj, callback) if callback else weakref.ref(obj)
    except TypeError:
        return None


class _FlatInterface:
    """A read-only 1-D ``__array_interface__`` over raw memory, keeping ``base`` alive."""

    def __init__(self, pointer: int, length: int, typestr: str, base: Any):
        self.__array_interface__ = {"data": (pointer, True), "shape": (length,),
                                    "typestr": typestr, "strides": None, "version": 3}
        self.base = base


class Source:
    """A weak handle on one tensor-like object: its layout and bounded reads of its storage.

    >>> s = as_source(np.arange(12).reshape(3, 4).T)
    >>> s.layout().stride, s.read(0, 4).tolist()
    ((1, 4), [0, 1, 2, 3])
    """

    def __init__(self, obj: Any, on_freed: Callable[[], None] | None = None):
        if _is_tensorviz(obj):
            self.kind = "tensorviz"
        elif _is_torch(obj):
            self.kind = "torch"
        elif isinstance(obj, np.ndarray):
            self.kind = "numpy"
        else:
            raise TypeError(
                f"show() draws tensorviz tensors, NumPy arrays and torch tensors, not "
                f"{type(obj).__name__}; wrap it first, e.g. tensorviz.tensor(x)")
        self._on_freed = on_freed
        self.freed_in: int | None = None  # the CELLS_ENDED count when the memory was freed
        self._copy = None  # NumPy arrays whose strides are not whole elements: a private copy
        self._obj = _weak(obj)
        owner = self._memory_owner(obj)
        selfref = weakref.ref(self)

        def freed(_ref, selfref=selfref):  # runs at garbage collection: only set a flag
            src = selfref()
            if src is not None:
                src.freed_in = CELLS_ENDED[0]
            if src is not None and src._on_freed is not None:
                src._on_freed()
        self._memory = _weak(owner, freed if on_freed is not None else None)
        if self._memory is None:
            raise TypeError(f"cannot hold a weak reference to the memory of {type(obj).__name__}")
        self._memory_id = id(owner)
        # tensorviz: reads go through the (weakly held) untyped storage and the dtype, so they
        # keep working after a temporary view object is gone.  Never ``obj.storage()``: the
        # storage caches that TypedStorage, which refers back to it, and the cycle would keep
        # the memory alive until the next cyclic garbage collection instead of the last ``del``.
        self._tv_dtype = obj.dtype if self.kind == "tensorviz" else None
        self._layout = self._read_layout(obj)
        self._listener: Any = None  # weak reference to the subscribed callback

    # ------------------------------------------------------------------ identity
    def _memory_owner(self, obj: Any) -> Any:
        if self.kind == "torch" and (getattr(obj, "is_nested", False)
                                     or obj.layout is not _torch_module().strided):
            kind = "nested" if getattr(obj, "is_nested", False) else str(obj.layout)
            raise TypeError(f"show() draws strided tensors (one storage, shape, stride, "
                            f"offset); this one is {kind}: try t.to_dense() or "
                            f"t.to_padded_tensor(0)")
        if self.kind in ("tensorviz", "torch"):
            return obj.untyped_storage()
        root = obj
        while isinstance(root.base, np.ndarray):
            root = root.base
        if obj.dtype.kind not in NUMERIC_KINDS:
            raise TypeError(f"show() draws numeric arrays, not dtype {obj.dtype}")
        if any(st % obj.itemsize for st in obj.strides) or obj.dtype.byteorder == ">":
            # Note: strides that are not whole elements (record fields) or big-endian data do
            # not fit "storage of elements"; draw a private little-endian copy and say so.
            self._copy = np.ascontiguousarray(obj, dtype=obj.dtype.newbyteorder("<"))
            return self._copy
        return root

    @property
    def memory_id(self) -> int:
        """``id`` of the memory owner: equal for every view of the same memory."""
        return self._memory_id

    def byte_range(self) -> tuple[str, int, int] | None:
        """``(device, address of storage element 0, address past the last element)``.

        Different objects can own the same bytes: ``t.numpy()`` and ``tensorviz.from_numpy(a)``
        share memory with no copy, and so do ``torch.from_numpy(a)`` and ``t.numpy()`` in
        PyTorch.  None when the memory is gone, has no address (empty, meta) or is a copy the
        widget made itself.
        """
        mem = self._memory()
        if mem is None or self._copy is not None:
            return None
        lay = self._layout
        if self.kind == "numpy":
            start = int(self._np_base)
        else:
            try:
                start = int(mem.data_ptr())
            except Exception:  # e.g. a storage without data
                return None
        if not start or not lay.storage_size:
            return None
        return lay.device, start, start + lay.storage_size * lay.itemsize

    @property
    def alive(self) -> bool:
        """Whether the memory still exists (some view of it is still referenced)."""
        return self._memory() is not None

    @property
    def object_alive(self) -> bool:
        """Whether the very object passed to ``show`` still exists."""
        return self._obj is not None and self._obj() is not None

    # ------------------------------------------------------------------ layout
    def layout(self) -> Layout:
        """The current layout: re-read while the object lives (``t.t_()`` changes it)."""
        obj = self._obj() if self._obj is not None else None
        if obj is not None and self._memory() is not None and self._copy is None:
            try:
                if self._memory_owner(obj) is self._memory():
                    self._layout = self._read_layout(obj)
            except Exception:  # a half-torn-down object: keep the last known layout
                pass
        return self._layout

    def _read_layout(self, obj: Any) -> Layout:
        if self.kind == "tensorviz":
            itemsize = int(obj.dtype.itemsize)
            return Layout(tuple(int(s) for s in obj.shape), tuple(int(s) for s in obj.stride()),
                          int(obj.storage_offset()), obj.dtype.name, itemsize,
                          str(obj.device), "tensorviz",
                          int(obj.untyped_storage().nbytes()) // itemsize)
        if self.kind == "torch":
            itemsize = int(obj.element_size())
            name = str(obj.dtype).rsplit(".", 1)[-1]
            return Layout(tuple(int(s) for s in obj.shape), tuple(int(s) for s in obj.stride()),
                          int(obj.storage_offset()), name, itemsize, str(obj.device), "torch",
                          int(obj.untyped_storage().nbytes()) // itemsize)
        arr = self._copy if self._copy is not None else obj
        itemsize = arr.itemsize
        bounds = getattr(np.lib, "array_utils", np).byte_bounds
        lo, hi = bounds(self._memory())
        pointer = arr.__array_interface__["data"][0]
        self._np_base = lo + (pointer - lo) % itemsize  # address of storage element 0
        note = ""
        if self._copy is not None:
            note = ("drawn from a copy: this array's strides are not whole elements "
                    "or its bytes are big-endian")
        return Layout(tuple(arr.shape), tuple(st // itemsize for st in arr.strides),
                      (pointer - self._np_base) // itemsize, arr.dtype.name, itemsize, "cpu",
                      "numpy", (hi - self._np_base) // itemsize, tuple(obj.strides), note)

    # ------------------------------------------------------------------ values
    def _flat(self):
        """The whole storage as a flat array/tensor of this dtype (no copy), or None."""
        mem = self._memory()
        if mem is None:
            return None
        lay = self._layout
        if self.kind == "numpy":
            typestr = np.dtype(lay.dtype).newbyteorder("<").str
            return np.asarray(_FlatInterface(self._np_base, lay.storage_size, typestr, mem))
        if self.kind == "torch":
            torch = _torch_module()
            if mem.device.type == "meta":
                return None
            obj = self._obj() if self._obj is not None else None
            dt = obj.dtype if obj is not None else getattr(torch, lay.dtype)
            flat = torch.empty(0, dtype=dt, device=mem.device)
            flat.set_(mem, 0, (lay.storage_size,), (1,))
            return flat
        return None

    def _typed_storage(self):
        """An uncached typed view of the memory (None once it is gone); see ``__init__``."""
        mem = self._memory()
        if mem is None:
            return None
        from .._storage import TypedStorage

        return TypedStorage._make(mem, self._tv_dtype)

    def read(self, start: int, stop: int) -> np.ndarray | None:
        """Storage elements ``[start, stop)`` as a NumPy copy (None once the memory is gone)."""
        start, stop = max(int(start), 0), min(int(stop), self._layout.storage_size)
        if stop <= start:
            return np.zeros(0, _numpy_dtype(self._layout.dtype))
        if self.kind == "tensorviz":
            typed = self._typed_storage()
            if typed is None or self._layout.device == "meta":  # (meta: no values at all)
                return None
            return np.asarray(typed._window(start, stop))
        flat = self._flat()
        if flat is None:
            return None
        if self.kind == "numpy":
            return np.array(flat[start:stop])
        return _torch_to_numpy(flat[start:stop])

    def gather(self, addresses: np.ndarray) -> np.ndarray | None:
        """``storage[addresses]`` for a bounded array of addresses (None once gone)."""
        addresses = np.asarray(addresses, dtype=np.int64)
        if addresses.size == 0:
            return np.zeros(addresses.shape, _numpy_dtype(self._layout.dtype))
        if self.kind == "numpy":
            flat = self._flat()
            return None if flat is None else flat[addresses]
        if self.kind == "torch":
            flat = self._flat()
            if flat is None:
                return None
            torch = _torch_module()
            index = torch.from_numpy(addresses.ravel()).to(flat.device)
            return _torch_to_numpy(flat[index]).reshape(addresses.shape)
        if self._layout.device == "meta":
            return None
        return self._gather_windows(addresses)

    def _gather_windows(self, addresses: np.ndarray) -> np.ndarray | None:
        """Gather through ``_window`` reads, merging nearby addresses into few short runs."""
        flat_addr = addresses.ravel()
        order = np.unique(flat_addr)
        # split where the gap to the next needed address exceeds GAP: runs stay short
        gap = 64
        cuts = np.nonzero(np.diff(order) > gap)[0] + 1
        starts = np.concatenate(([0], cuts))
        stops = np.concatenate((cuts, [order.size]))
        out = None
        pos = np.searchsorted(order, flat_addr)
        values = None
        for a, b in zip(starts, stops):
            lo, hi = int(order[a]), int(order[b - 1]) + 1
            chunk = self.read(lo, hi)
            if chunk is None:
                return None
            if values is None:
                values = np.empty(order.size, chunk.dtype)
            values[a:b] = chunk[order[a:b] - lo]
        out = values[pos]
        return out.reshape(addresses.shape)

    # ------------------------------------------------------------------ liveness
    def version(self) -> int | None:
        """The storage's write counter, where the kind has one (NumPy has none)."""
        if self.kind == "tensorviz":
            mem = self._memory()
            return None if mem is None else int(mem._version)
        if self.kind == "torch":
            obj = self._obj() if self._obj is not None else None
            return None if obj is None else int(obj._version)
        return None

    def subscribe(self, callback: Callable[[], None]) -> bool:
        """Ask the storage to call ``callback()`` after every in-place write (weakly held).

        Only tensorviz storages can; NumPy and PyTorch changes are found by polling.
        """
        if self.kind != "tensorviz":
            return False
        mem = self._memory()
        if mem is None or not hasattr(mem, "_add_listener"):
            return False
        mem._add_listener(callback)
        self._listener = (weakref.WeakMethod(callback) if hasattr(callback, "__self__")
                          else weakref.ref(callback))  # unsubscribe only: never keep it alive
        return True

    def unsubscribe(self) -> None:
        mem = self._memory()
        callback = self._listener() if self._listener is not None else None
        if mem is not None and callback is not None and hasattr(mem, "_remove_listener"):
            try:
                mem._remove_listener(callback)
            except (KeyError, ValueError):
                pass
        self._listener = None


def _numpy_dtype(name: str) -> np.dtype:
    try:
        return np.dtype(name)
    except TypeError:  # bfloat16 and friends: read as float32
        return np.dtype(np.float32)


def _torch_to_numpy(t) -> np.ndarray:
    torch = _torch_module()
    t = t.detach()
    if t.dtype == torch.bfloat16 or str(t.dtype).startswith("torch.float8"):
        t = t.float()  # Note: NumPy has no bfloat16; float32 holds it exactly
    elif t.dtype in (torch.complex32,):
        t = t.to(torch.complex64)
    return t.cpu().numpy().copy()


def as_source(obj: Any, on_freed: Callable[[], None] | None = None) -> Source:
    """Wrap a tensorviz tensor, NumPy array or torch tensor (anything else: TypeError)."""
    return Source(obj, on_freed)
