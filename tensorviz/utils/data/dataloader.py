"""``DataLoader``: batches of a dataset, read in the main process or in worker processes.

The main process decides *which* indices form each batch (the sampler); with
``num_workers=0`` it also reads and collates them, with ``num_workers=N`` it hands each batch's
indices to one of N worker processes round-robin and yields the results back in order, so the
batches are the same either way::

    loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True, num_workers=2)
    for xb, yb in loader:          # xb: (64, 64) float32, yb: (64,) int64
        ...

Workers send batches through shared memory (``_shared_memory``): the tensor a worker stacks
is the tensor the loop receives, never copied on the way.  A worker's exception is raised in
the main process with the worker's traceback; a worker that dies, a ``timeout``, breaking out
of the loop, deleting the loader or interrupting the kernel all stop the workers and remove
their shared-memory segments.
"""
from __future__ import annotations

import itertools
import math
import multiprocessing
import multiprocessing.connection
import os
import pickle
import time
import warnings
import weakref
from collections.abc import Callable, Iterable
from typing import Any

from . import _shared_memory
from ._interrupts import deferred_interrupt
from ._collate import default_collate, default_convert
from ._worker import (ITERABLE, MAP, ExceptionWrapper, _IterableDatasetStopIteration,
                      _ResumeIteration, create_fetcher, get_worker_info, worker_loop)
from .dataset import Dataset, IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "get_worker_info", "default_collate", "default_convert"]

_SHUTDOWN_GRACE = 1.0  # seconds a busy worker gets to finish its batch when stopped


class _InfiniteConstantSampler(Sampler):
    """An IterableDataset's "sampler": ``None`` forever (the dataset decides when to end)."""

    def __iter__(self):
        while True:
            yield None


def _cpu_count() -> int | None:
    if hasattr(os, "sched_getaffinity"):
        try:
            return len(os.sched_getaffinity(0))
        except Exception:  # pragma: no cover
            pass
    return os.cpu_count()


class DataLoader:
    """Iterate over ``dataset`` in batches.

    ``batch_size`` samples per batch (``None``: no batching, samples one by one through
    ``default_convert``), in order or ``shuffle``d (a new order every epoch; reproducible
    under ``manual_seed`` or ``generator=``), or in the order of your ``sampler`` /
    ``batch_sampler``; ``collate_fn`` puts a list of samples together (``default_collate``);
    ``drop_last`` drops a short final batch.  ``num_workers > 0`` reads in that many worker
    processes (``prefetch_factor`` batches ahead each, ``persistent_workers`` kept between
    epochs, ``worker_init_fn(worker_id)`` run in each, ``timeout`` seconds at most per batch,
    ``in_order=False`` to take batches as they come).

    >>> loader = DataLoader(TensorDataset(torch.arange(10)), batch_size=4)
    >>> [b[0].tolist() for b in loader]
    [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    >>> len(loader)
    3

    # Note: a Dataset class defined in a notebook cell works with workers under every start
    # method (PyTorch's fails under spawn and forkserver): see ``_pickling``.
    """

    dataset: Dataset
    batch_size: int | None
    num_workers: int
    pin_memory: bool
    drop_last: bool
    timeout: float
    sampler: Sampler | Iterable
    prefetch_factor: int | None
    __initialized = False

    def __init__(self, dataset: Dataset, batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler: Sampler | Iterable | None = None,
                 batch_sampler: Sampler | Iterable | None = None, num_workers: int = 0,
                 collate_fn: Callable[[list], Any] | None = None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0,
                 worker_init_fn: Callable[[int], None] | None = None,
                 multiprocessing_context=None, generator=None, *,
                 prefetch_factor: int | None = None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in "
                             "multiprocessing.let num_workers > 0 to enable multiprocessing, "
                             "otherwise set prefetch_factor to None.")
        elif num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order
        if isinstance(dataset, IterableDataset):
            self._dataset_kind = ITERABLE
            if shuffle not in {False, None}:
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle "
                                 f"option, but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler "
                                 f"option, but got sampler={sampler}")
            elif batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified "
                                 f"batch_sampler option, but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = MAP
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if sampler is None:
            if self._dataset_kind == ITERABLE:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self.__initialized = True
        self._IterableDataset_len_called = None
        self._iterator = None
        self.check_worker_number_rationality()

    def _get_iterator(self) -> "_BaseDataLoaderIter":
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        self.check_worker_number_rationality()
        return _MultiProcessingDataLoaderIter(self)

    @property
    def multiprocessing_context(self):
        """The ``multiprocessing`` context workers start in (``None``: the default start
        method); settable as a start-method name: ``"fork"``, ``"spawn"``, ``"forkserver"``."""
        return self.__multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, multiprocessing_context) -> None:
        if multiprocessing_context is not None:
            if self.num_workers > 0:
                if isinstance(multiprocessing_context, str):
                    valid_start_methods = multiprocessing.get_all_start_methods()
                    if multiprocessing_context not in valid_start_methods:
                        raise ValueError("multiprocessing_context option should specify a "
                                         "valid start method in "
                                         f"{valid_start_methods!r}, but got "
                                         f"multiprocessing_context={multiprocessing_context!r}")
                    multiprocessing_context = multiprocessing.get_context(
                        multiprocessing_context)
                if not isinstance(multiprocessing_context,
                                  multiprocessing.context.BaseContext):
                    raise TypeError("multiprocessing_context option should be a valid context "
                                    "object or a string specifying the start method, but got "
                                    f"multiprocessing_context={multiprocessing_context}")
            else:
                raise ValueError("multiprocessing_context can only be used with multi-process "
                                 "loading (num_workers > 0), but got num_workers="
                                 f"{self.num_workers}")
        self.__multiprocessing_context = multiprocessing_context

    def __setattr__(self, attr, val) -> None:
        if self.__initialized and attr in ("batch_size", "batch_sampler", "sampler",
                                           "drop_last", "dataset", "persistent_workers"):
            raise ValueError(f"{attr} attribute should not be set after "
                             f"{self.__class__.__name__} is initialized")
        super().__setattr__(attr, val)

    def __iter__(self) -> "_BaseDataLoaderIter":
        """A new pass over the data (an epoch).  Persistent workers are reused."""
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None or self._iterator._shutdown:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __len__(self) -> int:
        """The number of batches: ``ceil(len(dataset) / batch_size)``, rounded down with
        ``drop_last`` (for an IterableDataset, from its ``__len__``)."""
        if self._dataset_kind == ITERABLE:
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                if self.drop_last:
                    length = length // self.batch_size
                else:
                    length = math.ceil(length / self.batch_size)
            return length
        return len(self._index_sampler)

    def check_worker_number_rationality(self) -> None:
        """Warn (as PyTorch) when asking for more workers than the cores this process may
        use."""
        if not self.num_workers:
            return
        suggest = _cpu_count()
        cpuset_checked = hasattr(os, "sched_getaffinity")
        if suggest is None or self.num_workers > suggest:
            if suggest is not None:
                cpuset = "" if cpuset_checked else " (`cpuset` is not taken into account)"
                suggested = ("Our suggested max number of worker in current system is "
                             f"{suggest}{cpuset}, which is smaller than what this DataLoader "
                             "is going to create.")
            else:
                suggested = ("DataLoader is not able to compute a suggested max number of "
                             "worker in current system.")
            warnings.warn(f"This DataLoader will create {self.num_workers} worker processes in "
                          f"total. {suggested} Please be aware that excessive worker creation "
                          "might get DataLoader running slow or even freeze, lower the worker "
                          "number to avoid potential slowness/freeze if necessary.",
                          stacklevel=2)


class _BaseDataLoaderIter:
    def __init__(self, loader: DataLoader) -> None:
        from ... import _dtypes
        from ..._creation import empty
        self._dataset = loader.dataset
        self._dataset_kind = loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        if loader.pin_memory and loader.pin_memory_device:
            warnings.warn("pin_memory_device is deprecated, the current accelerator will be "
                          "used as the device,ignore pin_memory_device="
                          f"'{loader.pin_memory_device}'.", stacklevel=3)
        if loader.pin_memory:
            from ... import cuda
            if not cuda.is_available():
                warnings.warn("'pin_memory' argument is set as true but no accelerator is "
                              "found, then device pinned memory won't be used.", stacklevel=3)
            # Note: with CuPy there is no pinned host memory here; batches stay as they are.
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        # a new base seed every epoch: workers seed from it (base_seed + worker_id)
        self._base_seed = int(empty((), dtype=_dtypes.int64).random_(
            generator=loader.generator).item())
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0
        self._shutdown = False

    def __iter__(self) -> "_BaseDataLoaderIter":
        return self

    def _reset(self, loader: DataLoader, first_iter: bool = False) -> None:
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)

    def _next_data(self):
        raise NotImplementedError

    def __next__(self) -> Any:
        data = self._next_data()
        self._num_yielded += 1
        if (self._dataset_kind == ITERABLE and self._IterableDataset_len_called is not None
                and self._num_yielded > self._IterableDataset_len_called):
            msg = (f"Length of IterableDataset {self._dataset} was reported to be "
                   f"{self._IterableDataset_len_called}(when accessing len(dataloader)), but "
                   f"{self._num_yielded} samples have been fetched. ")
            if self._num_workers > 0:
                msg += ("For multiprocessing data-loading, this could be caused by not "
                        "properly configuring the IterableDataset replica at each worker. "
                        "Please see https://pytorch.org/docs/stable/data.html#torch.utils.data."
                        "IterableDataset for examples.")
            warnings.warn(msg, stacklevel=2)
        return data

    def __len__(self) -> int:
        return len(self._index_sampler)

    def __getstate__(self):
        raise NotImplementedError(f"{type(self).__name__} cannot be pickled")


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        if self._timeout != 0:  # (PyTorch's check, worded as PyTorch's)
            raise AssertionError("_SingleProcessDataLoaderIter requires timeout == 0")
        self._dataset_fetcher = create_fetcher(self._dataset_kind, self._dataset,
                                               self._auto_collation, self._collate_fn,
                                               self._drop_last)

    def _next_data(self):
        index = self._next_index()
        return self._dataset_fetcher.fetch(index)


class _WorkerPool:
    """One iterator's worker processes, their index queues and result pipes.

    ``shutdown`` runs exactly once (also from a ``weakref.finalize`` when the iterator is
    garbage collected or the interpreter exits): stop the workers, then unlink every
    shared-memory segment they made that the main process did not receive."""

    def __init__(self, ctx, num_workers: int, payload, base_seed: int) -> None:
        start_method = ctx.get_start_method()
        sent = payload
        if start_method != "fork":  # (a forked worker is a copy: nothing to send)
            from ._pickling import ByValue
            sent = ByValue(payload)
        _shared_memory.sweep_stale()
        self.token = _shared_memory.new_token()
        self.done_event = ctx.Event()
        self.workers: list = []
        self.index_queues: list = []
        self.result_conns: list = []
        self.outstanding: dict[int, int] = {}  # task -> worker, sent and not yet received
        self.closed = False
        self.owner = os.getpid()
        w = writer = None
        try:
            for i in range(num_workers):
                index_queue = ctx.Queue()
                index_queue.cancel_join_thread()
                reader, writer = ctx.Pipe(duplex=False)
                w = ctx.Process(target=worker_loop, daemon=True,
                                args=(sent, index_queue, writer, self.done_event, base_seed,
                                      i, num_workers, os.getpid(), self.token, start_method))
                self.index_queues.append(index_queue)
                self.result_conns.append(reader)
                try:
                    if start_method == "fork":  # (os.fork's callbacks drop an interrupt)
                        with deferred_interrupt():
                            w.start()
                    else:
                        w.start()
                except (TypeError, AttributeError, pickle.PicklingError) as e:
                    writer.close()
                    from ._pickling import explain_failure
                    raise explain_failure(payload, start_method, e) from e
                writer.close()  # (the worker holds it; EOF here when the worker is gone)
                self.workers.append(w)
        except BaseException:
            if w is not None and w.pid is not None and w not in self.workers:
                self.workers.append(w)  # (started, then interrupted before it was counted)
            if writer is not None:
                writer.close()
            self.shutdown()
            raise

    def send(self, worker_id: int, obj) -> None:
        """Put ``obj`` on worker ``worker_id``'s index queue, as one step an interrupt
        cannot cut in two (see ``_interrupts``)."""
        with deferred_interrupt():
            self.index_queues[worker_id].put(obj)

    def shutdown(self) -> None:
        if self.closed or os.getpid() != self.owner:
            return  # (a forked worker's copy of an old pool is not its to stop)
        # An interrupt while stopping (a second press of stop) waits until the workers are
        # gone and their segments removed: at most the grace, a terminate and a kill.
        with deferred_interrupt():
            self._shutdown()

    def _shutdown(self) -> None:
        self.closed = True
        try:
            self.done_event.set()
            for q in self.index_queues:
                try:
                    q.put(None)
                except (OSError, ValueError):
                    pass
            deadline = time.monotonic() + _SHUTDOWN_GRACE
            for w in self.workers:
                w.join(timeout=max(0.0, deadline - time.monotonic()))
            for w in self.workers:
                if w.is_alive():
                    w.terminate()
            for w in self.workers:
                w.join(timeout=_SHUTDOWN_GRACE)
                if w.is_alive():  # pragma: no cover - ignores SIGTERM
                    w.kill()
                    w.join()
        finally:
            for conn in self.result_conns:  # batches sent but never taken: free their memory
                try:
                    while conn.poll(0):
                        names, _ = conn.recv()
                        for name in names:
                            _shared_memory.unlink(name)
                except (EOFError, OSError):
                    pass
                conn.close()
            for q in self.index_queues:
                q.close()
            _shared_memory.sweep(self.token, [(w, t) for t, w in self.outstanding.items()])
            for w in self.workers:
                w.close()


class _WorkerFailure(Exception):
    """Internal: the iterator cannot go on (it shuts down before this reaches the user)."""


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        self._prefetch_factor = loader.prefetch_factor
        self._in_order = loader.in_order
        ctx = loader.multiprocessing_context or multiprocessing.get_context()
        payload = {"dataset": self._dataset, "kind": self._dataset_kind,
                   "auto_collation": self._auto_collation, "collate_fn": self._collate_fn,
                   "drop_last": self._drop_last, "worker_init_fn": loader.worker_init_fn}
        self._pool = _WorkerPool(ctx, self._num_workers, payload, self._base_seed)
        self._workers = self._pool.workers
        self._finalizer = weakref.finalize(self, self._pool.shutdown)
        self._conn_open = [True] * self._num_workers
        self._exhausted = False
        try:
            self._reset(loader, first_iter=True)
        except BaseException:  # (an interrupt, a sampler's error): stop the workers now
            self._shutdown_workers()
            raise

    # -------------------------------------------------------- bookkeeping, as PyTorch's
    def _reset(self, loader: DataLoader, first_iter: bool = False) -> None:
        super()._reset(loader, first_iter)
        self._send_idx = 0
        self._rcvd_idx = 0
        self._task_info: dict[int, tuple] = {}
        self._tasks_outstanding = 0
        self._workers_status = [True] * self._num_workers
        self._workers_num_tasks = [0] * self._num_workers
        self._worker_queue_idx_cycle = itertools.cycle(range(self._num_workers))
        if not first_iter:  # persistent workers: tell each to start over, wait for all
            self._guard(self._resume_workers)
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _resume_workers(self) -> None:
        for i in range(self._num_workers):
            self._pool.send(i, _ResumeIteration())
        pending = self._num_workers
        while pending > 0:
            names, payload = self._recv()
            if isinstance(payload, _ResumeIteration):
                pending -= 1
            else:  # a batch left over from an epoch stopped early
                for name in names:
                    _shared_memory.unlink(name)
        self._pool.outstanding.clear()

    def _try_put_index(self) -> None:
        max_tasks = self._prefetch_factor * self._num_workers
        try:
            index = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):
            worker_queue_idx = next(self._worker_queue_idx_cycle)
            if self._workers_status[worker_queue_idx]:
                if self._in_order:
                    break
                if self._workers_num_tasks[worker_queue_idx] < \
                        max_tasks // sum(self._workers_status):
                    break
        else:
            return  # no worker left
        with deferred_interrupt():  # (the task is sent and recorded, or neither)
            self._pool.index_queues[worker_queue_idx].put((self._send_idx, index))
            self._task_info[self._send_idx] = (worker_queue_idx,)
            self._pool.outstanding[self._send_idx] = worker_queue_idx
            self._workers_num_tasks[worker_queue_idx] += 1
            self._tasks_outstanding += 1
            self._send_idx += 1

    def _mark_worker_as_unavailable(self, worker_id: int) -> None:
        self._pool.send(worker_id, None)
        self._workers_status[worker_id] = False

    # -------------------------------------------------------- receiving
    def _recv(self) -> tuple[list, Any]:
        """The next message from any worker: ``(segment names, pickled batch)``; raises on
        a dead worker or a ``timeout``.  Waits on the pipes and on the processes themselves
        (their sentinels), so a worker's death is noticed at once."""
        deadline = time.monotonic() + self._timeout if self._timeout > 0 else None
        while True:
            conns = [c for c, open_ in zip(self._pool.result_conns, self._conn_open) if open_]
            sentinels = [w.sentinel for w, up in zip(self._workers, self._workers_status)
                         if up]
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready = multiprocessing.connection.wait(conns + sentinels, remaining)
            if not ready:
                raise _WorkerFailure(f"DataLoader timed out after {self._timeout} seconds")
            for conn in conns:
                if conn in ready:
                    try:
                        return conn.recv()
                    except EOFError:  # its worker is gone and the pipe is empty
                        self._conn_open[self._pool.result_conns.index(conn)] = False
            failed = [w for i, w in enumerate(self._workers)
                      if self._workers_status[i] and not w.is_alive()
                      and not (self._conn_open[i] and self._pool.result_conns[i].poll(0))]
            if failed:
                for w in failed:
                    self._workers_status[self._workers.index(w)] = False
                pids = ", ".join(str(w.pid) for w in failed)
                err = _WorkerFailure(f"DataLoader worker (pid(s) {pids}) exited unexpectedly")
                codes = "; ".join(f"worker pid {w.pid} {_describe_exit(w.exitcode)}"
                                  for w in failed)
                err.details = (f"({codes}.) Rerunning with num_workers=0 shows the error in "
                               "this process, if there is one.")
                raise err

    def _get_data(self) -> tuple[int, Any]:
        names, blob = self._recv()
        if isinstance(blob, _ResumeIteration):  # (not expected outside _reset)
            return -1, None
        try:
            return pickle.loads(blob)
        finally:
            for name in names:  # (those mapped were unlinked already)
                _shared_memory.unlink(name)

    def _next_data(self):
        while True:
            while self._rcvd_idx < self._send_idx:
                info = self._task_info.get(self._rcvd_idx)
                if info:
                    worker_id = info[0]
                    if len(info) == 2 or self._workers_status[worker_id]:
                        break
                    del self._task_info[self._rcvd_idx]
                self._rcvd_idx += 1
            else:
                if not self._persistent_workers:
                    self._exhausted = True
                    self._shutdown_workers()
                raise StopIteration
            if len(self._task_info[self._rcvd_idx]) == 2:
                worker_id, data = self._task_info.pop(self._rcvd_idx)
                self._rcvd_idx += 1
                return self._process_data(data, worker_id)
            idx, data = self._get_data()
            self._pool.outstanding.pop(idx, None)
            self._tasks_outstanding -= 1
            if self._dataset_kind == ITERABLE and isinstance(data, _IterableDatasetStopIteration):
                if self._persistent_workers:
                    self._workers_status[data.worker_id] = False
                else:
                    self._mark_worker_as_unavailable(data.worker_id)
                self._try_put_index()
                continue
            if idx != self._rcvd_idx:
                if not self._in_order:
                    worker_id = self._task_info.pop(idx)[0]
                    return self._process_data(data, worker_id)
                self._task_info[idx] += (data,)
            else:
                worker_id = self._task_info.pop(idx)[0]
                self._rcvd_idx += 1
                return self._process_data(data, worker_id)

    def _process_data(self, data, worker_idx: int):
        self._workers_num_tasks[worker_idx] -= 1
        self._try_put_index()
        if isinstance(data, ExceptionWrapper):
            data.reraise()  # (the iterator stays usable: the next batch can still come)
        return data

    def _guard(self, step):
        """Run ``step``; on anything but a worker's own exception (a dead worker, a timeout,
        a KeyboardInterrupt), stop the workers and free their memory first."""
        try:
            return step()
        except _WorkerFailure as e:
            self._shutdown_workers()
            err = RuntimeError(str(e))
            if hasattr(err, "add_note") and getattr(e, "details", None):
                err.add_note(e.details)
            raise err from None
        except BaseException as e:
            with deferred_interrupt():  # (a second interrupt comes once the workers are gone)
                if self._fatal(e):
                    self._shutdown_workers()
            raise

    def _fatal(self, e: BaseException) -> bool:
        # A worker's exception re-raised (from ExceptionWrapper.reraise) is not fatal.
        tb = e.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code is ExceptionWrapper.reraise.__code__:
                return False
            tb = tb.tb_next
        return not isinstance(e, StopIteration)

    def __next__(self) -> Any:
        if self._shutdown:
            if self._exhausted:
                raise StopIteration
            raise RuntimeError("this DataLoader iterator was stopped (after an error or an "
                               "interrupt); start a new pass with iter(loader)")
        return self._guard(super().__next__)

    def _shutdown_workers(self) -> None:
        with deferred_interrupt():  # (the finalizer runs once: an interrupt must not cut it)
            if not self._shutdown:
                self._shutdown = True
                self._finalizer()


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "did not report an exit code"
    if code < 0:
        import signal
        try:
            return f"was killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"
