"""What runs inside a DataLoader worker process, and ``get_worker_info``.

A worker is seeded (``base_seed + worker_id`` for tensorviz's default generator and Python's
``random``, a mix of both for NumPy's legacy global generator, as PyTorch), runs
``worker_init_fn``, then loops: take ``(task, indices)`` from its index queue, fetch and
collate the batch (built in shared memory), send it back through its own pipe.  An exception
is sent back instead of a batch, with the worker's traceback in its text.
"""
from __future__ import annotations

import os
import queue
import random
import sys
import traceback
from dataclasses import dataclass
from typing import Any

__all__ = ["WorkerInfo", "get_worker_info"]

STATUS_CHECK_INTERVAL = 1.0  # seconds between a waiting worker's checks that its parent lives


@dataclass(frozen=True)
class WorkerInfo:
    """Inside a worker process: which worker this is (``id`` of ``num_workers``), its
    ``seed`` and its copy of the ``dataset`` (see ``get_worker_info``)."""

    __slots__ = ("id", "num_workers", "seed", "dataset", "rng", "worker_method")
    id: int
    num_workers: int
    seed: int
    dataset: Any
    rng: Any
    worker_method: str

    def __init__(self, id: int, num_workers: int, seed: int, dataset: Any,
                 rng: Any = None, worker_method: str = "multiprocessing"):
        for k, v in (("id", id), ("num_workers", num_workers), ("seed", seed),
                     ("dataset", dataset), ("rng", rng), ("worker_method", worker_method)):
            object.__setattr__(self, k, v)


_worker_info: WorkerInfo | None = None
_arena = None  # the worker's shared-memory arena (None in the main process)


def get_worker_info() -> WorkerInfo | None:
    """In a DataLoader worker process, its ``WorkerInfo``; ``None`` in the main process.

    Use it to give each worker its own share of an ``IterableDataset``::

        info = get_worker_info()
        rows = range(n) if info is None else range(info.id, n, info.num_workers)
    """
    return _worker_info


def current_arena():
    """The shared-memory arena batches are built in, inside a worker (else ``None``)."""
    return _arena


class KeyErrorMessage(str):
    """A KeyError's message printed as text, not as the repr of a string."""

    def __repr__(self):
        return self


class ExceptionWrapper:
    """An exception caught in a worker, carried to the main process and raised there with
    the worker's traceback in its message (as PyTorch's)."""

    def __init__(self, exc_info=None, where: str = "in background"):
        if exc_info is None:
            exc_info = sys.exc_info()
        self.exc_type = exc_info[0]
        self.exc_msg = "".join(traceback.format_exception(*exc_info))
        self.where = where

    def reraise(self):
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = KeyErrorMessage(msg)
        elif getattr(self.exc_type, "message", None):
            raise self.exc_type(message=msg)
        try:
            exception = self.exc_type(msg)
        except Exception:  # an exception type that cannot be built from one message
            raise RuntimeError(msg) from None
        raise exception


@dataclass(frozen=True)
class _IterableDatasetStopIteration:
    """A worker's IterableDataset copy is exhausted."""
    worker_id: int


@dataclass(frozen=True)
class _ResumeIteration:
    """Persistent workers: start the next epoch."""
    seed: int | None = None


def _generate_state(base_seed: int, worker_id: int) -> list[int]:
    """NumPy's seed for a worker: PyTorch's hash of ``(worker_id, base_seed)`` into four
    32-bit words (after NumPy's SeedSequence), so workers do not share NumPy streams."""
    INIT_A, MULT_A = 0x43B0D7E5, 0x931E8875
    INIT_B, MULT_B = 0x8B51F9DD, 0x58F38DED
    MIX_MULT_L, MIX_MULT_R = 0xCA01F9DD, 0x4973F715
    XSHIFT, MASK32 = 16, 0xFFFFFFFF
    entropy = [worker_id, base_seed & MASK32, base_seed >> 32, 0]
    pool = [0] * 4
    hash_const_a = INIT_A

    def hash_(value):
        nonlocal hash_const_a
        value = (value ^ hash_const_a) & MASK32
        hash_const_a = (hash_const_a * MULT_A) & MASK32
        value = (value * hash_const_a) & MASK32
        return (value ^ (value >> XSHIFT)) & MASK32

    def mix(x, y):
        result = ((MIX_MULT_L * x) & MASK32) - ((MIX_MULT_R * y) & MASK32) & MASK32
        return (result ^ (result >> XSHIFT)) & MASK32

    for i in range(4):
        pool[i] = hash_(entropy[i])
    for i_src in range(4):
        for i_dst in range(4):
            if i_src != i_dst:
                pool[i_dst] = mix(pool[i_dst], hash_(pool[i_src]))
    hash_const_b = INIT_B
    state = []
    for i_dst in range(4):
        v = (pool[i_dst] ^ hash_const_b) & MASK32
        hash_const_b = (hash_const_b * MULT_B) & MASK32
        v = (v * hash_const_b) & MASK32
        state.append((v ^ (v >> XSHIFT)) & MASK32)
    return state


# ---------------------------------------------------------------- fetchers
class _MapDatasetFetcher:
    """Reads one batch of a map-style dataset: ``dataset.__getitems__(indices)`` where it
    exists, else ``[dataset[i] for i in indices]``; then ``collate_fn``."""

    def __init__(self, dataset, auto_collation: bool, collate_fn, drop_last: bool):
        from ._collate import default_collate
        from .dataset import TensorDataset
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        # A TensorDataset batched by default_collate is ``[t[indices] for t in tensors]``:
        # one gather per tensor instead of a tensor per sample and a stack.
        self.gather = (auto_collation and type(dataset) is TensorDataset
                       and collate_fn is default_collate)

    def fetch(self, index):
        if self.gather and all(type(i) is int for i in index):
            from ._collate import gather_rows
            return [gather_rows(t, index) for t in self.dataset.tensors]
        if self.auto_collation:
            getitems = getattr(self.dataset, "__getitems__", None)
            if getitems:
                data = getitems(index)
            else:
                data = [self.dataset[i] for i in index]
        else:
            data = self.dataset[index]
        return self.collate_fn(data)


class _IterableDatasetFetcher:
    """Reads the next batch (``len(index)`` samples) from an iterable dataset's iterator."""

    def __init__(self, dataset, auto_collation: bool, collate_fn, drop_last: bool):
        self.dataset_iter = iter(dataset)
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.ended = False

    def fetch(self, index):
        if self.ended:
            raise StopIteration
        if self.auto_collation:
            data = []
            for _ in index:
                try:
                    data.append(next(self.dataset_iter))
                except StopIteration:
                    self.ended = True
                    break
            if len(data) == 0 or (self.drop_last and len(data) < len(index)):
                raise StopIteration
        else:
            data = next(self.dataset_iter)
        return self.collate_fn(data)


MAP, ITERABLE = 0, 1


def create_fetcher(kind: int, dataset, auto_collation: bool, collate_fn, drop_last: bool):
    cls = _MapDatasetFetcher if kind == MAP else _IterableDatasetFetcher
    return cls(dataset, auto_collation, collate_fn, drop_last)


# ---------------------------------------------------------------- the worker process
def _parent_alive(parent_pid: int) -> bool:
    try:
        os.kill(parent_pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - the pid was reused by another user
        return False
    return True


def _seed_everything(base_seed: int, worker_id: int) -> int:
    import numpy as np

    from ... import _random
    seed = base_seed + worker_id
    random.seed(seed)
    _random.manual_seed(seed)
    np.random.seed(_generate_state(base_seed, worker_id))
    return seed


def worker_loop(payload, index_queue, result_conn, done_event, base_seed: int,
                worker_id: int, num_workers: int, parent_pid: int, token: str,
                start_method: str) -> None:
    """The body of worker process ``worker_id`` (see the module docstring)."""
    import signal
    # A notebook's interrupt reaches the whole process group; the main process handles it
    # (it stops the workers), so a worker never dies half-way through writing a batch.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    first_ppid = os.getppid()  # (changes when the parent dies, even before it is reaped)
    global _worker_info, _arena
    from . import _pickling, _shared_memory
    where = f"in DataLoader worker process {worker_id}"
    init_exception = None
    seed = _seed_everything(base_seed, worker_id)
    try:
        if isinstance(payload, _pickling.Packed):
            payload = payload.load()
    except Exception:
        init_exception = ExceptionWrapper(where=where)
        payload = {"dataset": None, "kind": MAP, "auto_collation": False,
                   "collate_fn": None, "drop_last": False, "worker_init_fn": None}
    dataset = payload["dataset"]
    _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed,
                              dataset=dataset)
    arena = _shared_memory.WorkerArena(token, worker_id) if _shared_memory.AVAILABLE else None
    _arena = arena
    pickler_class = _shared_memory.batch_pickler_class(
        _pickling.result_pickler_base(start_method))

    def make_fetcher():
        return create_fetcher(payload["kind"], dataset, payload["auto_collation"],
                              payload["collate_fn"], payload["drop_last"])

    fetcher = None
    if init_exception is None:
        try:
            # Note: PyTorch limits each worker to one intra-op thread; tensorviz's limit goes
            # through threadpoolctl, whose scan of the loaded libraries would delay every
            # worker's first batch by tens of milliseconds, so workers keep NumPy's pools.
            if payload["worker_init_fn"] is not None:
                payload["worker_init_fn"](worker_id)
            fetcher = make_fetcher()
        except Exception:
            init_exception = ExceptionWrapper(where=where)
    iteration_end = False
    while True:
        try:
            r = index_queue.get(timeout=STATUS_CHECK_INTERVAL)
        except queue.Empty:
            if os.getppid() != first_ppid or not _parent_alive(parent_pid):
                # the main process is gone (a killed kernel): do not linger, and remove the
                # batches it will never take
                _shared_memory.sweep(token, [])
                break
            continue
        if isinstance(r, _ResumeIteration):
            result_conn.send(([], r))
            iteration_end = False
            if init_exception is None:
                try:
                    fetcher = make_fetcher()
                except Exception:
                    init_exception = ExceptionWrapper(where=where)
            continue
        if r is None:
            break
        if done_event.is_set() or iteration_end:
            continue
        idx, index = r
        if arena is not None:
            arena.begin(idx)
        if init_exception is not None:
            data, init_exception = init_exception, None
        else:
            try:
                data = fetcher.fetch(index)
            except StopIteration:
                if payload["kind"] != ITERABLE:
                    data = ExceptionWrapper(where=where)
                else:
                    data = _IterableDatasetStopIteration(worker_id)
                    iteration_end = True
            except Exception:
                data = ExceptionWrapper(where=where)
        try:
            blob = _shared_memory.dumps_batch((idx, data), pickler_class, arena)
        except Exception:  # a sample that cannot be sent back (a generator, an open file)
            data = ExceptionWrapper(where=f"{where} while sending the batch to the main "
                                    "process (everything a batch holds must be picklable)")
            try:
                blob = _shared_memory.dumps_batch((idx, data), pickler_class, arena)
            except Exception:  # its exception type itself cannot be sent
                data.exc_type = RuntimeError
                blob = _shared_memory.dumps_batch((idx, data), pickler_class, arena)
        names = arena.names if arena is not None else []
        del data
        if arena is not None:
            arena.end()
        result_conn.send((names, blob))
    _worker_info = None
