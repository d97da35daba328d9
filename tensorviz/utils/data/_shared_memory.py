"""Shared-memory segments that carry a worker's batch to the main process without a copy.

A worker builds each batch tensor directly inside a POSIX shared-memory segment (the collate
function stacks the samples into it).  Only the segment's name and the tensor's layout
(dtype, offset, shape, stride) travel through the pipe; the main process maps the same
memory and adopts it as a tensor's storage, so the bytes are written once, by the worker::

    worker:  segment "/tvz3fa9c1_0_7_0"  <- stack(samples)        (the only copy)
    pipe:    ("/tvz3fa9c1_0_7_0", float32, shape (64, 64), stride (64, 1))
    main:    mmap(segment) -> UntypedStorage -> Tensor             (no copy)

The main process unlinks each name as soon as it has mapped it: from then on the memory lives
exactly as long as the tensors that use it.  Names carry a token per DataLoader iterator, so
whatever a stopped or killed worker left behind is found by name and unlinked too.
"""
from __future__ import annotations

import glob
import mmap
import os
import pickle
import weakref

import numpy as np

try:  # POSIX shared memory (Linux, macOS); elsewhere batches travel as pickled bytes
    import _posixshmem
except ImportError:  # pragma: no cover - Windows
    _posixshmem = None

AVAILABLE = _posixshmem is not None
PREFIX = "tvz"
_DEV_SHM = "/dev/shm"

# The segment each received storage was mapped from (kept for the widgets' storage story).
SEGMENT_OF: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def new_token() -> str:
    """A prefix for one iterator's segments: the main process's pid and a random part."""
    import secrets
    return f"{os.getpid()}_{secrets.token_hex(3)}"


def segment_name(token: str, worker_id: int, task: int, k: int) -> str:
    """The name of the ``k``-th segment of task ``task`` (short: macOS allows 31 chars)."""
    return f"/{PREFIX}{token}_{worker_id}_{task}_{k}"


def sweep_stale() -> int:
    """Unlink segments whose main process is gone (a kernel killed while its workers had
    batches in flight); called when workers start.  Linux lists segments in /dev/shm."""
    if not AVAILABLE or not os.path.isdir(_DEV_SHM):
        return 0
    removed = 0
    for path in glob.glob(os.path.join(_DEV_SHM, f"{PREFIX}*_*")):
        pid = os.path.basename(path)[len(PREFIX):].split("_", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            removed += unlink("/" + os.path.basename(path))
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def create(name: str, nbytes: int) -> mmap.mmap:
    """A new segment of ``nbytes`` (fails if the name exists), mapped read-write."""
    fd = _posixshmem.shm_open(name, os.O_CREAT | os.O_EXCL | os.O_RDWR, mode=0o600)
    try:
        os.ftruncate(fd, nbytes)
        return mmap.mmap(fd, nbytes)
    finally:
        os.close(fd)


def attach_and_unlink(name: str, nbytes: int) -> mmap.mmap:
    """Map an existing segment and remove its name (the mapping keeps the memory alive)."""
    fd = _posixshmem.shm_open(name, os.O_RDWR, mode=0o600)
    try:
        return mmap.mmap(fd, nbytes)
    finally:
        os.close(fd)
        unlink(name)


def unlink(name: str) -> bool:
    """Remove a segment's name; False if there was none."""
    try:
        _posixshmem.shm_unlink(name)
        return True
    except FileNotFoundError:
        return False


def sweep(token: str, outstanding: list[tuple[int, int]]) -> int:
    """Unlink every segment left under ``token`` (workers must have exited first).

    Where ``/dev/shm`` lists segments (Linux) they are found by prefix; elsewhere by walking
    each outstanding ``(worker_id, task)``'s names ``k = 0, 1, ...`` (a worker creates them in
    that order and never removes one itself)."""
    if not AVAILABLE:
        return 0
    removed = 0
    if os.path.isdir(_DEV_SHM):
        for path in glob.glob(os.path.join(_DEV_SHM, f"{PREFIX}{token}_*")):
            removed += unlink("/" + os.path.basename(path))
        return removed
    for worker_id, task in outstanding:  # pragma: no cover - macOS
        k = 0
        while unlink(segment_name(token, worker_id, task, k)):
            removed += 1
            k += 1
    return removed


# ---------------------------------------------------------------- worker side
class WorkerArena:
    """A worker's segments for the task it is working on.

    ``empty`` gives a tensor whose storage is a new segment (what the collate function fills);
    ``share`` names the segment of a storage, copying it into a new one if it is not in shared
    memory yet (a tensor a custom ``collate_fn`` made)."""

    def __init__(self, token: str, worker_id: int):
        self.token = token
        self.worker_id = worker_id
        self.task = -1
        self.names: list[str] = []
        self._by_storage: dict[int, tuple[str, object]] = {}

    def begin(self, task: int) -> None:
        self.task = task
        self.names = []
        self._by_storage = {}

    def end(self) -> None:
        self._by_storage = {}  # (our references to this task's storages)

    def _new_segment(self, nbytes: int) -> tuple[str, mmap.mmap]:
        name = segment_name(self.token, self.worker_id, self.task, len(self.names))
        self.names.append(name)  # before creating: the main process must learn of it
        return name, create(name, nbytes)

    def empty(self, shape: tuple, dt) -> "object":
        """An uninitialised contiguous CPU tensor of ``shape``/``dt`` in a new segment."""
        from ..._storage import UntypedStorage
        from ..._device import CPU
        from ..._tensor import Tensor
        numel = 1
        for s in shape:
            numel *= s
        nbytes = numel * dt.itemsize
        if nbytes == 0:
            from ..._creation import empty
            return empty(shape, dtype=dt)
        name, mm = self._new_segment(nbytes)
        st = UntypedStorage._wrap(np.frombuffer(mm, dtype=dt._np, count=numel), CPU)
        self._by_storage[id(st)] = (name, st)
        stride, acc = [], 1
        for s in reversed(shape):
            stride.append(acc)
            acc *= max(s, 1)
        return Tensor._make(st, dt, 0, tuple(shape), tuple(reversed(stride)))

    def share(self, storage) -> str:
        """The segment holding ``storage``'s bytes (a new one, filled by a copy, if needed)."""
        hit = self._by_storage.get(id(storage))
        if hit is not None:
            return hit[0]
        data = storage._data
        name, mm = self._new_segment(data.nbytes)
        np.frombuffer(mm, dtype=data.dtype, count=data.size)[...] = data
        self._by_storage[id(storage)] = (name, storage)
        return name


def _rebuild_tensor(storage, dt, offset: int, shape: tuple, stride: tuple,
                    requires_grad: bool):
    from ..._tensor import Tensor
    t = Tensor._make(storage, dt, offset, shape, stride)
    if requires_grad:
        t.requires_grad = True
    return t


def _attach_storage(name: str, np_dtype: str, size: int):
    """The main process's side: map the segment and adopt it as a storage (no copy)."""
    from ..._storage import UntypedStorage
    from ..._device import CPU
    dtype = np.dtype(np_dtype)
    mm = attach_and_unlink(name, size * dtype.itemsize)
    st = UntypedStorage._wrap(np.frombuffer(mm, dtype=dtype, count=size), CPU)
    SEGMENT_OF[st] = name
    return st


def batch_pickler_class(base: type) -> type:
    """A pickler (subclass of ``base``: ``pickle.Pickler`` or cloudpickle's) that sends CPU
    tensors by segment name and layout instead of by value."""
    from ..._storage import UntypedStorage
    from ..._tensor import Tensor
    parent_override = getattr(base, "reducer_override", None)

    class BatchPickler(base):
        arena: WorkerArena | None = None

        def reducer_override(self, obj):
            kind = type(obj)
            if self.arena is None:  # (no shared memory here: tensors go by value)
                pass
            elif kind is Tensor and obj.device.type == "cpu":
                return (_rebuild_tensor, (obj.untyped_storage(), obj.dtype, obj.storage_offset(),
                                          tuple(obj.shape), obj.stride(), obj.requires_grad))
            if kind is UntypedStorage and obj.device.type == "cpu" and obj.nbytes():
                data = obj._data
                return (_attach_storage, (self.arena.share(obj), data.dtype.str, data.size))
            if parent_override is not None:
                return parent_override(self, obj)
            return NotImplemented

    return BatchPickler


def dumps_batch(obj, pickler_class: type, arena: WorkerArena) -> bytes:
    """Pickle a worker's result, its tensors' bytes left in (or moved to) shared memory."""
    import io
    buf = io.BytesIO()
    p = pickler_class(buf, protocol=pickle.HIGHEST_PROTOCOL)
    p.arena = arena
    p.dump(obj)
    return buf.getvalue()
