"""``tensorviz.save`` / ``tensorviz.load``: PyTorch's own file format, safe by default.

Files written here open in PyTorch (``torch.load(path, weights_only=True)``) and files written
by ``torch.save`` open here, with equal values, dtypes, shapes, strides, offsets and storage
sharing::

    torch.save({"full": points, "row": points[1]}, "points.pt")
    back = torch.load("points.pt")          # back["row"] is a view of back["full"]'s storage

The format (see PyTorch's ``torch/serialization.py``) is an uncompressed zip holding
``data.pkl`` (a protocol-2 pickle of the object, each storage replaced by a persistent id)
and one ``data/<key>`` member per storage with its raw little-endian bytes, each aligned to 64
bytes.  Loading never runs code from the file unless ``weights_only=False`` is passed.

For HDF5, tensors support NumPy's array protocol: ``h5file.create_dataset("x", data=t)``
writes a tensor and ``tensorviz.from_numpy(dset[1:])`` reads back only the rows asked for.
"""
from __future__ import annotations

import errno
import hashlib
import io
import os
import pickle
import re
import struct
import sys
import tempfile
import warnings
from typing import IO, Any, Callable, Union

import numpy as np

from . import _dtypes
from ._device import CPU, as_device, device
from ._storage import TypedStorage, UntypedStorage

__all__ = ["save", "load", "DEFAULT_PROTOCOL", "add_safe_globals", "clear_safe_globals",
           "get_safe_globals", "safe_globals", "get_unsafe_globals_in_checkpoint"]

DEFAULT_PROTOCOL = 2
FileLike = Union[str, os.PathLike, IO[bytes]]
MapLocation = Union[None, str, device, dict, Callable]

_MAX_VERSION = 10


# ====================================================================== save
def save(obj: Any, f: FileLike, pickle_module: Any = None,
         pickle_protocol: int = DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization: bool = True,
         _disable_byteorder_record: bool = False) -> None:
    """Save ``obj`` (tensors, storages and containers of them) in PyTorch's file format.

    ``f`` is a path (``str``/``pathlib``) or a writable binary file object (``io.BytesIO``
    too).  A path is written to a temporary file in the same folder and renamed at the end,
    so a failure never leaves a half-written file nor destroys the previous one.

    >>> tensorviz.save({"w": w, "row": w[1]}, "ckpt.pt")   # the view keeps sharing w's storage
    """
    if pickle_module is not None and pickle_module is not pickle:
        raise NotImplementedError("tensorviz.save writes its pickle with the standard "
                                  "library; pickle_module must be None or pickle")
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("tensorviz.save writes only the zip-based format (PyTorch "
                                  "1.6 and later); the legacy format is not supported")
    if not isinstance(pickle_protocol, int) or not 2 <= pickle_protocol <= pickle.HIGHEST_PROTOCOL:
        raise ValueError(f"pickle_protocol must be an int from 2 to "
                         f"{pickle.HIGHEST_PROTOCOL}, got {pickle_protocol!r}")
    # Everything that can fail on the object (unpicklable parts, storages viewed as two
    # dtypes) fails here, before a single byte is written anywhere.
    from ._serialization._pickling import TorchPickler
    buf = io.BytesIO()
    pickler = TorchPickler(buf, protocol=pickle_protocol)
    pickler.dump(obj)
    payload = buf.getvalue()
    storages = pickler.storages

    if isinstance(f, (str, os.PathLike)):
        _save_to_path(os.fspath(f), payload, storages, _disable_byteorder_record)
    elif isinstance(f, (bytes, bytearray)):
        raise TypeError("save() expects a path or a writable binary file object, got bytes; "
                        "use io.BytesIO() to save into memory")
    elif callable(getattr(f, "write", None)):
        if isinstance(f, io.TextIOBase):
            raise TypeError("save() needs a binary file object; open the file with 'wb'")
        _write_archive(f, "archive", payload, storages, _disable_byteorder_record)
        flush = getattr(f, "flush", None)
        if flush is not None:
            flush()
    else:
        raise TypeError(f"save() expects a path (str or os.PathLike) or a writable binary "
                        f"file object, got {type(f).__name__}")


def _save_to_path(path: str, payload: bytes, storages: list, no_byteorder: bool) -> None:
    if os.path.isdir(path):
        raise IsADirectoryError(f"save(): {path!r} is a directory; give a file name")
    target = os.path.realpath(path) if os.path.islink(path) else path  # write through links
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(folder):
        raise RuntimeError(f"Parent directory {os.path.dirname(path) or folder} does not "
                           "exist.")
    # PyTorch names the archive's top folder after the file: 'my.model.pt' -> 'my.model/'
    # (everything before the last dot; 'archive' when that is empty or not ASCII).
    archive_name = os.path.basename(path).rpartition(".")
    archive_name = archive_name[0] if archive_name[1] else archive_name[2]
    if not archive_name or not archive_name.isascii():
        archive_name = "archive"
    if os.path.isfile(target) and not os.access(target, os.W_OK):
        # Renaming over a read-only file would succeed (the folder is writable); PyTorch's
        # open(path, 'wb') refuses, and so does tensorviz: read-only files stay protected.
        raise PermissionError(errno.EACCES, f"save(): {path!r} is read-only; make it "
                              "writable or save under another name", path)
    if os.path.exists(target) and not os.path.isfile(target):
        # A device or a pipe (/dev/null, a FIFO): write into it, never replace it.
        with open(target, "wb") as out:
            _write_archive(out, archive_name, payload, storages, no_byteorder)
        return
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(target)}.",
                                   suffix=".tmp")
    except PermissionError as e:
        raise PermissionError(f"save(): can't write {path!r}: saving writes a temporary file "
                              f"in {folder!r} and renames it over the target, and that "
                              f"folder is not writable ({e.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as out:
            _write_archive(out, archive_name, payload, storages, no_byteorder)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, _mode_for(target))
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _mode_for(target: str) -> int:
    """The permissions the saved file gets: those of the file it replaces, else 0o666 - umask."""
    try:
        return os.stat(target).st_mode & 0o7777
    except OSError:
        pass
    umask = None
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("Umask:"):
                    umask = int(line.split()[1], 8)
                    break
    except (OSError, ValueError):
        pass
    if umask is None:
        umask = 0o022
    return 0o666 & ~umask


def _write_archive(out, folder: str, payload: bytes, storages: list,
                   no_byteorder: bool, force_zip64: bool = False) -> None:
    from ._serialization._zipformat import ZipWriter
    writer = ZipWriter(out, folder, force_zip64=force_zip64)
    writer.add("data.pkl", payload)
    writer.add(".format_version", b"1")
    writer.add(".storage_alignment", b"64")
    if not no_byteorder:
        writer.add("byteorder", b"little")
    digest = hashlib.blake2b(payload, digest_size=20)
    for key, untyped, nbytes, dt in storages:
        data = _storage_bytes(untyped, nbytes, dt)
        writer.add(f"data/{key}", data)
        digest.update(f"{key}:{nbytes}:".encode())
        digest.update(data[:4096].tobytes())
    writer.add("version", b"3\n")
    # 40 decimal digits, as PyTorch writes; derived from the content, so saves are reproducible.
    sid = int.from_bytes(digest.digest(), "little") % 10 ** 40
    writer.add(".data/serialization_id", f"{sid:040d}".encode())
    writer.close()


def _storage_bytes(untyped: UntypedStorage, nbytes: int, dt) -> np.ndarray:
    """The storage's first ``nbytes`` bytes on the host, little-endian, C-contiguous."""
    host = untyped._bytes_host()[:nbytes]
    if sys.byteorder == "big" and dt.itemsize > 1:  # pragma: no cover - little-endian hosts
        host = host.view(dt._np).byteswap().view(np.uint8)
    return np.ascontiguousarray(host)


# ====================================================================== load
def load(f: FileLike, map_location: MapLocation = None, pickle_module: Any = None, *,
         weights_only: bool | None = True, mmap: bool | None = None,
         **pickle_load_args: Any) -> Any:
    """Load an object saved with ``tensorviz.save`` or ``torch.save``.

    ``weights_only=True`` (the default) allows only tensors, storages, dtypes, devices, sizes
    and plain containers of numbers and strings: nothing in the file can run code, and any
    other object raises ``pickle.UnpicklingError`` naming it.  Pass ``weights_only=False``
    only for files from a trusted source.

    ``map_location`` moves storages as they load, as in PyTorch: ``'cpu'``, ``'cuda:0'``, a
    ``tensorviz.device``, a dict mapping saved locations to new ones (``{'cuda:1':
    'cuda:0'}``) or a callable ``fn(storage, location)`` returning a storage (or None for the
    default).  ``mmap=True`` maps a file's storages copy-on-write instead of reading them.
    """
    if weights_only is None:
        weights_only = True
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is "
                           "specified")
    if weights_only and pickle_load_args:
        warnings.warn("pickle_load_args only works if `weights_only=False`.", stacklevel=2)
    restore = _restore_location(map_location)
    mmap = bool(mmap)
    path = os.fspath(f) if isinstance(f, (str, os.PathLike)) else None
    if mmap and path is None:
        raise ValueError("f must be a file path in order to use the mmap argument")
    if path is not None:
        if os.path.isdir(path):
            raise IsADirectoryError(f"load(): {path!r} is a directory, not a saved file")
        with open(path, "rb") as fileobj:
            return _load_file(fileobj, repr(path), path if mmap else None, restore,
                              weights_only, pickle_module, pickle_load_args)
    if isinstance(f, (bytes, bytearray, memoryview)):
        raise TypeError("load() expects a path or a readable binary file object, got "
                        f"{type(f).__name__}; wrap bytes in io.BytesIO(data)")
    if not callable(getattr(f, "read", None)):
        raise TypeError(f"load() expects a path (str or os.PathLike) or a readable binary "
                        f"file object, got {type(f).__name__}")
    if isinstance(f, io.TextIOBase):
        raise TypeError("load() needs a binary file object; open the file with 'rb'")
    fileobj = f
    seekable = getattr(f, "seekable", None)
    if seekable is None or not seekable():
        fileobj = io.BytesIO(f.read())  # zip needs random access: read a stream whole
    name = getattr(f, "name", None)
    desc = repr(name) if isinstance(name, str) else "the file object"
    return _load_file(fileobj, desc, None, restore, weights_only, pickle_module,
                      pickle_load_args)


def _load_file(fileobj, desc: str, mmap_path: str | None, restore, weights_only: bool,
               pickle_module, pickle_load_args: dict) -> Any:
    from ._serialization._zipformat import ZipReader
    start = fileobj.tell()
    head = fileobj.read(512)
    if not isinstance(head, bytes):
        raise TypeError("load() needs a binary file object; open the file with 'rb'")
    fileobj.seek(start)
    from ._serialization._legacy import LEGACY_MAGIC, load_legacy
    if head.startswith(LEGACY_MAGIC):
        if mmap_path is not None:
            raise RuntimeError("mmap can only be used with files saved with "
                               f"`torch.save({mmap_path}, _use_new_zipfile_serialization=True), "
                               "please torch.save your checkpoint with this option in order to "
                               "use mmap.")
        from ._serialization._unpickling import PassThrough
        try:
            return load_legacy(fileobj, desc, restore, weights_only, pickle_module,
                               pickle_load_args)
        except PassThrough as e:
            raise e.error from None
        except (KeyError, IndexError, EOFError, struct.error, UnicodeDecodeError,
                AttributeError, ValueError, OverflowError, TypeError) as e:
            if not weights_only:
                raise
            raise pickle.UnpicklingError(
                f"{desc} is corrupt: its pickle can't be read ({type(e).__name__}: {e})"
            ) from None
    _check_kind(head, desc)
    if start:  # an archive in the middle of a stream: read from there on
        fileobj = io.BytesIO(fileobj.read())
        mmap_path = None
    reader = ZipReader(fileobj, desc)
    try:
        _check_records(reader)
        loader = _StorageLoader(reader, restore, mmap_path)
        data = io.BytesIO(reader.read("data.pkl"))
        from ._serialization import _unpickling
        if not weights_only:
            kwargs = dict(pickle_load_args)
            kwargs.setdefault("encoding", "utf-8")
            cls = _unpickling.trusted_unpickler_class((pickle_module or pickle).Unpickler)
            return cls(data, loader, **kwargs).load()
        try:
            return _unpickling.SafeUnpickler(data, loader).load()
        except _unpickling.PassThrough as e:
            raise e.error from None
        except (KeyError, IndexError, EOFError, struct.error, UnicodeDecodeError,
                AttributeError, ValueError, OverflowError, TypeError) as e:
            raise pickle.UnpicklingError(
                f"{desc} is corrupt: its data.pkl can't be read ({type(e).__name__}: {e})"
            ) from None
    finally:
        reader.close()


def _check_kind(head: bytes, desc: str) -> None:
    """Say clearly what the file is when it is not a PyTorch zip archive."""
    from ._serialization._zipformat import FormatError
    if head.startswith(b"PK\x03\x04"):
        return
    if not head:
        raise EOFError(f"{desc} is empty (0 bytes): nothing was saved in it, or the save "
                       "did not complete")
    if head.startswith(b"PK\x05\x06"):
        raise FormatError(f"{desc} is an empty zip archive, not a file written by "
                          "torch.save / tensorviz.save")
    if len(head) >= 262 and head[257:262] == b"ustar":
        raise FormatError(f"{desc} is a tar archive: PyTorch's format from before 0.4, which "
                          "tensorviz does not read; load it in PyTorch and save it again")
    kinds = [(b"\x89HDF\r\n\x1a\n", "an HDF5 file: open it with h5py.File"),
             (b"\x93NUMPY", "a NumPy .npy file: read it with numpy.load and "
                            "tensorviz.from_numpy"),
             (b"\x1f\x8b", "gzip-compressed: decompress it first"),
             (b"PK", "a damaged zip archive")]
    for magic, what in kinds:
        if head.startswith(magic):
            raise FormatError(f"{desc} is not a file written by torch.save / tensorviz.save: "
                              f"it is {what}")
    if len(head) >= 10 and head[8:10] in (b'{"', b"{'"):
        raise FormatError(f"{desc} is not a file written by torch.save / tensorviz.save: it "
                          "looks like a safetensors file (use the safetensors package)")
    if head[:1] == b"\x80":
        raise FormatError(f"{desc} is a plain pickle, not a file written by torch.save / "
                          "tensorviz.save (which are zip archives); if you trust it, read "
                          "it with pickle.load")
    raise FormatError(f"{desc} is not a file written by torch.save / tensorviz.save: those "
                      f"are zip archives starting with b'PK\\x03\\x04', this one starts with "
                      f"{head[:16]!r}")


def _check_records(reader) -> None:
    from ._serialization._zipformat import FormatError
    desc = reader.desc
    if reader.has("constants.pkl"):
        raise FormatError(f"{desc} is a TorchScript archive (torch.jit.save), which holds "
                          "code; tensorviz loads only files written by torch.save")
    if not reader.has("data.pkl"):
        raise FormatError(f"{desc} is not a file written by torch.save / tensorviz.save: the "
                          f"zip archive has no {reader.folder}/data.pkl")
    for name in ("version", ".data/version"):
        if reader.has(name):
            text = reader.read(name).strip()
            if not text.isdigit() or not 1 <= int(text) <= _MAX_VERSION:
                raise FormatError(f"{desc} has file format version {text[:20]!r}; tensorviz "
                                  f"reads versions 1 to {_MAX_VERSION}")
            break
    if reader.has("byteorder"):
        order = reader.read("byteorder")
        if order not in (b"little", b"big"):
            raise ValueError(f"Unknown endianness type: {order[:20].decode('latin1')}")
        reader.byteorder = order.decode()
    else:
        reader.byteorder = "little"


class _StorageLoader:
    """Turns each storage persistent id into a ``TypedStorage``, loading each key once."""

    def __init__(self, reader, restore, mmap_path: str | None):
        self._reader = reader
        self._restore = restore
        self._mmap_path = mmap_path
        self._loaded: dict[str, UntypedStorage] = {}

    def __call__(self, pid) -> TypedStorage:
        from ._serialization._unpickling import StorageClass
        desc = self._reader.desc
        if type(pid) is not tuple or len(pid) != 5:
            raise pickle.UnpicklingError(f"{desc}: only storages may be persistent ids in "
                                         f"data.pkl, got {pid!r:.80}")
        kind, storage_cls, key, location, numel = pid
        kind, location = _ascii(kind), _ascii(location)
        if kind != "storage" or not isinstance(storage_cls, StorageClass) or \
                type(key) is not str or type(location) is not str or type(numel) is not int \
                or numel < 0:
            raise pickle.UnpicklingError(f"{desc}: malformed storage id in data.pkl: "
                                         f"{pid!r:.120}")
        dt = storage_cls.dtype or _dtypes.uint8
        nbytes = numel * dt.itemsize
        untyped = self._loaded.get(key)
        if untyped is None:
            untyped = self._loaded[key] = self._load(key, location, nbytes, dt)
        elif untyped.nbytes() != nbytes and nbytes:
            raise pickle.UnpicklingError(f"{desc} is corrupt: storage {key} is given "
                                         f"{untyped.nbytes()} and {nbytes} bytes")
        return untyped._typed_storage(dt)

    def _load(self, key: str, location: str, nbytes: int, dt) -> UntypedStorage:
        from ._serialization._zipformat import FormatError
        reader, name = self._reader, f"data/{key}"
        if not reader.has(name):
            raise FormatError(f"{reader.desc} is truncated or corrupt: member "
                              f"{reader.folder}/{name} is missing")
        if reader.size(name) != nbytes:
            raise FormatError(f"{reader.desc} is corrupt: member {reader.folder}/{name} has "
                              f"{reader.size(name)} bytes but its storage needs {nbytes}")
        numel = nbytes // dt.itemsize
        # The member must lie inside the file (its size is the zip directory's word):
        # checked before anything is allocated for it.
        offset = reader.payload_offset(name)
        if self._mmap_path is not None and nbytes:
            # Copy-on-write: writable, and writes never reach the file.
            host = np.memmap(self._mmap_path, dtype=dt._np, mode="c",
                             offset=offset, shape=(numel,)
                             ).view(np.ndarray)
        else:
            host = np.empty(numel, dt._np)
            reader.read_into(name, host)
        if reader.byteorder != sys.byteorder and dt.itemsize > 1:
            host = host.byteswap()
        return self._restore(UntypedStorage._wrap(host, CPU), location)


def _ascii(value):
    return value.decode("ascii") if isinstance(value, bytes) else value


# ---------------------------------------------------------------------- map_location
def _restore_location(map_location: MapLocation) -> Callable[[UntypedStorage, str],
                                                             UntypedStorage]:
    """``restore(cpu_storage, saved_location)`` -> the storage where it should live."""
    if map_location is None:
        return _default_restore
    if isinstance(map_location, dict):
        def restore(storage, location):
            target = map_location.get(location, location)
            return _default_restore(storage, _location_string(target))
        return restore
    if isinstance(map_location, (str, device)):
        target = _location_string(map_location)
        return lambda storage, location: _default_restore(storage, target)
    if callable(map_location):
        def restore(storage, location):
            result = map_location(storage, location)
            if result is None:
                return _default_restore(storage, location)
            if isinstance(result, TypedStorage):
                return result.untyped()
            if isinstance(result, UntypedStorage):
                return result
            raise TypeError(f"map_location returned {type(result).__name__}; it must return "
                            "a storage or None")
        return restore
    raise TypeError(f"map_location must be None, a str, a tensorviz.device, a dict or a "
                    f"callable, got {type(map_location).__name__}")


def _location_string(target) -> str:
    if isinstance(target, device):
        return str(target)
    if isinstance(target, str):
        return target
    raise TypeError(f"map_location values must be str or tensorviz.device, got "
                    f"{type(target).__name__}")


def _default_restore(storage: UntypedStorage, location: str) -> UntypedStorage:
    if location == "cpu":
        return storage
    if re.fullmatch(r"cuda(:\d+)?", location):
        from . import cuda
        if not cuda.is_available():
            raise RuntimeError(
                "Attempting to deserialize object on a CUDA device but "
                "torch.cuda.is_available() is False. If you are running on a CPU-only "
                "machine, please use torch.load with map_location=torch.device('cpu') to "
                "map your storages to the CPU.")
        dev = as_device(location)
        count = cuda.device_count()
        if dev.index >= count:
            raise RuntimeError(
                f"Attempting to deserialize object on CUDA device {dev.index} but "
                f"torch.cuda.device_count() is {count}. Please use torch.load with "
                "map_location to map your storages to an existing device.")
        return storage.to(device=dev)
    raise RuntimeError(f"don't know how to restore data location of "
                       f"torch.storage.UntypedStorage (tagged with {location})")


# ---------------------------------------------------------------------- the allowlist
def add_safe_globals(safe_globals: list) -> None:
    """Let ``weights_only=True`` loads use these classes/functions too (trusted code only).

    Each entry is an object, or ``(object, "module.qualified.name")`` when the file names it
    differently.  A file may then call it, create it and set its state.
    """
    from ._serialization import _unpickling
    _unpickling.add_safe_globals(list(safe_globals))


def clear_safe_globals() -> None:
    """Forget every global added with ``add_safe_globals``."""
    from ._serialization import _unpickling
    _unpickling.clear_safe_globals()


def get_safe_globals() -> list:
    """The globals added with ``add_safe_globals`` (tensorviz's own allowlist not included)."""
    from ._serialization import _unpickling
    return _unpickling.get_safe_globals()


class safe_globals:
    """``with tensorviz.serialization.safe_globals([MyClass]):`` allows them inside the block."""

    def __init__(self, safe_globals: list):
        self.safe_globals = list(safe_globals)

    def __enter__(self):
        add_safe_globals(self.safe_globals)

    def __exit__(self, *exc):
        from ._serialization import _unpickling
        _unpickling.remove_safe_globals(self.safe_globals)
        return False


def get_unsafe_globals_in_checkpoint(f: FileLike) -> list[str]:
    """The globals a saved file names that ``weights_only=True`` would refuse (nothing runs).

    The pickle is only disassembled, never executed; globals built at run time are not seen.
    """
    import pickletools
    from ._serialization import _unpickling
    from ._serialization._zipformat import ZipReader
    opened = open(os.fspath(f), "rb") if isinstance(f, (str, os.PathLike)) else None
    fileobj = opened or f
    try:
        reader = ZipReader(fileobj, "the file")
        try:
            data = reader.read("data.pkl")
        finally:
            reader.close()
    finally:
        if opened is not None:
            opened.close()
    found: list[str] = []
    strings: list = []
    for op, arg, _ in pickletools.genops(data):
        if op.name in ("SHORT_BINUNICODE", "BINUNICODE", "UNICODE", "BINUNICODE8"):
            strings.append(arg)
        if op.name == "GLOBAL":
            module, name = arg.split(" ", 1)
        elif op.name == "STACK_GLOBAL" and len(strings) >= 2:
            module, name = strings[-2], strings[-1]
        else:
            continue
        full = ".".join(_unpickling._normalize(module, name))
        if not _unpickling.allowed_global(module, name) and full not in found:
            found.append(full)
    return found
