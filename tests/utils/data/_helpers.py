"""Helpers for the tests of tensorviz.utils.data: comparing outputs with PyTorch's, datasets
that worker processes import by name, and checks that nothing is left behind."""
from __future__ import annotations

import glob
import os
import threading

import numpy as np

import tensorviz as tv
from tensorviz.utils import data as tvdata


def dtype_name(dt) -> str:
    return str(dt).rsplit(".", 1)[-1]


def assert_same(ours, theirs, torch) -> None:
    """``ours`` (tensorviz) mirrors ``theirs`` (PyTorch): containers of the same types in the
    same shape, tensors of the same dtype, shape and values, other leaves equal."""
    if isinstance(theirs, torch.Tensor):
        assert isinstance(ours, tv.Tensor), (type(ours), theirs)
        assert dtype_name(ours.dtype) == dtype_name(theirs.dtype)
        assert tuple(ours.shape) == tuple(theirs.shape)
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
        return
    assert type(ours) is type(theirs), (type(ours), type(theirs))
    if isinstance(theirs, dict):
        assert list(ours) == list(theirs)
        for k in theirs:
            assert_same(ours[k], theirs[k], torch)
    elif isinstance(theirs, (list, tuple)):
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            assert_same(a, b, torch)
    elif isinstance(theirs, np.ndarray):
        np.testing.assert_array_equal(ours, theirs)
    else:
        assert ours == theirs


def outcome(fn):
    """``("ok", value)`` or ``("raise", type name, message)`` of ``fn()``."""
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001 - the outcome is what we compare
        return ("raise", type(e).__name__, str(e).replace("torch.", "tensorviz."))


def assert_same_outcome(ours_fn, theirs_fn, torch) -> None:
    a, b = outcome(ours_fn), outcome(theirs_fn)
    if b[0] == "raise" or a[0] == "raise":
        assert a == b
    else:
        assert_same(a[1], b[1], torch)


# ---------------------------------------------------------------- datasets for workers
class Squares(tvdata.Dataset):
    """``i -> (tensor([i, i*i]) float32, i)``."""

    def __init__(self, n: int):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return tv.tensor([float(i), float(i * i)]), i


class Failing(tvdata.Dataset):
    """Raises ``ValueError`` at index ``bad``."""

    def __init__(self, n: int, bad: int):
        self.n, self.bad = n, bad

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.bad:
            raise ValueError(f"sample {i} is broken")
        return i


class Dying(tvdata.Dataset):
    """The worker process exits (no exception, no cleanup) at index ``bad``."""

    def __init__(self, n: int, bad: int):
        self.n, self.bad = n, bad

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.bad:
            os._exit(7)
        return i


class Blocking(tvdata.Dataset):
    """Index ``bad`` sets ``started`` (a multiprocessing Event) then blocks forever."""

    def __init__(self, n: int, bad: int, started):
        self.n, self.bad, self.started = n, bad, started

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.bad:
            self.started.set()
            threading.Event().wait()
        return tv.full((3,), float(i))


class Seeds(tvdata.Dataset):
    """Each sample reports the worker's id and seed and one draw of each generator."""

    def __len__(self):
        return 4

    def __getitem__(self, i):
        import random
        info = tvdata.get_worker_info()
        return (info.id, info.seed, random.random(), float(np.random.rand()),
                tv.rand(1).item(), info.num_workers)


class Pid(tvdata.Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return os.getpid()


class Stream(tvdata.IterableDataset):
    """``0 .. n-1``; sharded across workers when ``shard`` (every num_workers-th from id)."""

    def __init__(self, n: int, shard: bool):
        self.n, self.shard = n, shard

    def __iter__(self):
        info = tvdata.get_worker_info()
        if not self.shard or info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))

    def __len__(self):
        return self.n


class TorchStream:
    """The same stream for PyTorch (made with its own IterableDataset and get_worker_info)."""

    def __new__(cls, torch, n, shard):
        from torch.utils.data import IterableDataset, get_worker_info

        class _S(IterableDataset):
            def __iter__(self):
                info = get_worker_info()
                if not shard or info is None:
                    return iter(range(n))
                return iter(range(info.id, n, info.num_workers))

            def __len__(self):
                return n
        return _S()


# ---------------------------------------------------------------- leftovers
def segments(token: str | None = None) -> list[str]:
    """tensorviz's shared-memory segments in /dev/shm: one iterator's (its ``token``), or
    all of this process's iterators' (tokens start with the pid: another test run on the
    same machine has segments of its own)."""
    pattern = f"tvz{token}_*" if token else f"tvz{os.getpid()}_*"
    return sorted(glob.glob(os.path.join("/dev/shm", pattern)))


def still_running(pids) -> list[int]:
    """The pids among ``pids`` that still exist (a clean shutdown has joined them already)."""
    import psutil
    return [p for p in pids if psutil.pid_exists(p)]
