"""Read PyTorch's legacy (pre-1.6, non-zip) files; tensorviz never writes them.

A legacy file is five pickles in a row, then the raw storages::

    magic 0x1950a86a20f9469cfc6c | protocol 1001 | sys info dict
    | the object (storages as ('storage', cls, root_key, location, numel, view_metadata))
    | the storage keys in order
    then for each key: numel as int64 (little-endian), then numel * itemsize bytes

The storages exist before their bytes are read (the object refers to them first), so they
are made empty, the object is unpickled, and then each is filled in file order.
"""
from __future__ import annotations

import io
import pickle
import sys
from typing import Any

import numpy as np

from .. import _dtypes
from .._device import CPU
from .._storage import UntypedStorage
from ._unpickling import SafeUnpickler, StorageClass, trusted_unpickler_class, \
    weights_only_message
from ._zipformat import FormatError

__all__ = ["load_legacy", "LEGACY_MAGIC"]

LEGACY_MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
LEGACY_MAGIC = b"\x80\x02\x8a\x0al\xfc\x9cF\xf9 j\xa8P\x19"  # its pickle, as files start
_PROTOCOL_VERSION = 1001


def _no_persistent_ids(pid):
    raise pickle.UnpicklingError("unexpected persistent id in a legacy file's header")


def load_legacy(fileobj, desc: str, restore, weights_only: bool, pickle_module,
                pickle_load_args: dict) -> Any:
    data = io.BytesIO(fileobj.read())
    file_size = len(data.getbuffer())

    def plain():  # the small header pickles hold only numbers, strings, lists, dicts
        try:
            return SafeUnpickler(data, _no_persistent_ids).load()
        except (EOFError, IndexError, KeyError, ValueError) as e:
            raise FormatError(f"{desc} is truncated or corrupt (a legacy PyTorch file whose "
                              f"header can't be read: {type(e).__name__}: {e})") from None

    if plain() != LEGACY_MAGIC_NUMBER:
        raise FormatError(f"{desc}: Invalid magic number; corrupt file?")
    protocol = plain()
    if protocol != _PROTOCOL_VERSION:
        raise FormatError(f"{desc}: Invalid protocol version: {protocol!r:.40}")
    sys_info = plain()
    little_endian = not isinstance(sys_info, dict) or sys_info.get("little_endian", True)

    roots: dict[str, tuple] = {}  # root key -> (host array, cpu storage, placed storage)
    views: dict[str, UntypedStorage] = {}

    def persistent_load(pid):
        if type(pid) is tuple and pid and pid[0] in ("module", b"module"):
            raise pickle.UnpicklingError(weights_only_message(
                "the file holds a whole torch.nn.Module (its class and source code), which "
                "needs PyTorch itself; load it in PyTorch and save its state_dict()")
                if weights_only else
                "the file holds a whole torch.nn.Module, which needs PyTorch itself; load it "
                "in PyTorch and save its state_dict()")
        if type(pid) is not tuple or len(pid) != 6 or pid[0] not in ("storage", b"storage"):
            raise pickle.UnpicklingError(f"{desc}: only storages may be persistent ids, got "
                                         f"{pid!r:.80}")
        _, cls, root_key, location, numel, view = pid
        if isinstance(location, bytes):
            location = location.decode("ascii")
        if not isinstance(cls, StorageClass) or type(root_key) is not str or \
                type(location) is not str or type(numel) is not int or numel < 0:
            raise pickle.UnpicklingError(f"{desc}: malformed storage id {pid!r:.120}")
        dt = cls.dtype or _dtypes.uint8
        if root_key not in roots:
            if numel * dt.itemsize > file_size:  # checked before allocating anything
                raise FormatError(f"{desc} is truncated or corrupt: storage {root_key!r:.40} "
                                  f"needs {numel * dt.itemsize} bytes, more than the whole "
                                  f"file ({file_size} bytes)")
            host = np.zeros(numel, dt._np)
            cpu = UntypedStorage._wrap(host, CPU)
            roots[root_key] = (host, cpu, restore(cpu, location))
        placed = roots[root_key][2]
        if view is None:
            return placed._typed_storage(dt)
        if type(view) is not tuple or len(view) != 3 or type(view[0]) is not str or \
                type(view[1]) is not int or type(view[2]) is not int:
            raise pickle.UnpicklingError(f"{desc}: malformed storage view {view!r:.80}")
        view_key, offset, size = view
        start, stop = offset * dt.itemsize, (offset + size) * dt.itemsize
        if offset < 0 or size < 0 or stop > placed.nbytes():
            raise pickle.UnpicklingError(f"{desc}: a storage view lies outside its storage")
        if view_key not in views:
            views[view_key] = placed[start:stop]
        return views[view_key]._typed_storage(dt)

    if weights_only:
        obj = SafeUnpickler(data, persistent_load).load()
    else:
        kwargs = dict(pickle_load_args)
        kwargs.setdefault("encoding", "utf-8")
        cls = trusted_unpickler_class((pickle_module or pickle).Unpickler)
        obj = cls(data, persistent_load, **kwargs).load()
    keys = plain()
    if type(keys) is not list:
        raise FormatError(f"{desc} is corrupt: the list of storage keys is missing")
    for key in keys:
        if key not in roots:
            raise FormatError(f"{desc} is corrupt: storage {key!r:.40} is not used")
        host, cpu, placed = roots[key]
        head = data.read(8)
        if len(head) < 8:
            raise FormatError(f"{desc} is truncated: storage {key} is missing")
        numel = int.from_bytes(head, "little", signed=True)
        if numel * host.itemsize != host.nbytes:
            raise FormatError(f"{desc} is corrupt: storage {key} has {numel} elements, "
                              f"expected {host.size}")
        raw = memoryview(host.view(np.uint8))
        if data.readinto(raw) < len(raw):
            raise FormatError(f"{desc} is truncated: storage {key} ends early")
        if little_endian != (sys.byteorder == "little") and host.itemsize > 1:
            host.byteswap(inplace=True)
        if placed is not cpu:
            placed.copy_(cpu)
    return obj
