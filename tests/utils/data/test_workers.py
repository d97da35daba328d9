"""DataLoader with real worker processes: the same batches as in the main process, errors
(a worker's exception, a dead worker, a timeout), stopping early, persistent workers,
IterableDataset sharding, seeding, and that nothing is left behind: no process, no
shared-memory segment."""
from __future__ import annotations

import gc
import mmap
import multiprocessing
import multiprocessing.connection
import os
import re
import signal
import threading

import numpy as np
import pytest

import tensorviz as tv
from tensorviz.utils import data as tvdata
from tensorviz.utils.data import _shared_memory

from ._helpers import (Blocking, Dying, Failing, Pid, Seeds, Squares, Stream, TorchStream,
                       assert_same, segments, still_running)

pytestmark = pytest.mark.skipif(not _shared_memory.AVAILABLE or not os.path.isdir("/dev/shm"),
                                reason="needs POSIX shared memory listed in /dev/shm")

METHODS = [m for m in ("fork", "spawn", "forkserver")
           if m in multiprocessing.get_all_start_methods()]


def batches(loader):
    return [[t.tolist() if isinstance(t, tv.Tensor) else t for t in b] for b in loader]


def pool_of(it):
    return it._pool.token, [w.pid for w in it._workers]


def assert_clean(token, pids):
    assert still_running(pids) == []
    assert segments(token) == []


@pytest.fixture(autouse=True)
def no_leftover_segments():
    before = set(segments())
    yield
    gc.collect()
    assert set(segments()) <= before


@pytest.mark.parametrize("method", METHODS)
def test_same_batches_as_in_the_main_process(method):
    ds = Squares(23)
    g = tv.Generator()
    expected = batches(tvdata.DataLoader(ds, batch_size=4, shuffle=True,
                                         generator=g.manual_seed(5)))
    loader = tvdata.DataLoader(ds, batch_size=4, shuffle=True, generator=g.manual_seed(5),
                               num_workers=2, multiprocessing_context=method)
    it = iter(loader)
    token, pids = pool_of(it)
    assert batches(it) == expected
    assert_clean(token, pids)


def test_tensor_dataset_batches_come_through_shared_memory():
    x = tv.arange(60, dtype=tv.float32).reshape(20, 3)
    y = tv.arange(20)
    loader = tvdata.DataLoader(tvdata.TensorDataset(x, y), batch_size=8, num_workers=2)
    got = list(loader)
    assert [b[1].tolist() for b in got] == [list(range(0, 8)), list(range(8, 16)),
                                            list(range(16, 20))]
    for xb, yb in got:
        assert xb.dtype is tv.float32 and yb.dtype is tv.int64
        assert xb.is_contiguous() and xb.stride() == (3, 1)
        # adopted in place: the storage is the worker's segment, mapped here
        assert _shared_memory.SEGMENT_OF[xb.untyped_storage()].startswith("/tvz")
        assert isinstance(xb.untyped_storage()._data.base.obj, mmap.mmap)  # the mapping
    np.testing.assert_array_equal(got[2][0].numpy(), x.numpy()[16:])
    got[0][0][0, 0] = 100.0  # writable, and private to this batch
    assert x[0, 0].item() == 0.0


def test_custom_collate_results_and_views_share_one_segment():
    def collate(batch):
        t = tv.stack([b[0] for b in batch])
        return {"all": t, "first_col": t[:, 0], "n": len(batch), "names": ["a"] * len(batch)}
    got = list(tvdata.DataLoader(Squares(5), batch_size=5, num_workers=1, collate_fn=collate))
    (b,) = got
    assert b["n"] == 5 and b["names"] == ["a"] * 5
    assert b["first_col"].untyped_storage() is b["all"].untyped_storage()
    assert b["first_col"].stride() == (2,) and b["first_col"].tolist() == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_worker_exception_carries_the_worker_traceback(method):
    loader = tvdata.DataLoader(Failing(8, bad=5), batch_size=2, num_workers=2,
                               multiprocessing_context=method)
    it = iter(loader)
    token, pids = pool_of(it)
    assert next(it).tolist() == [0, 1]
    assert next(it).tolist() == [2, 3]
    with pytest.raises(ValueError) as info:
        next(it)
    text = str(info.value)
    assert text.startswith("Caught ValueError in DataLoader worker process 0.\n"
                           "Original Traceback (most recent call last):\n")
    assert "in __getitem__" in text and "ValueError: sample 5 is broken" in text
    assert next(it).tolist() == [6, 7]  # (as PyTorch: the next batches still come)
    with pytest.raises(StopIteration):
        next(it)
    assert_clean(token, pids)


def test_key_error_message_reads_as_text():
    class Missing(tvdata.Dataset):
        def __len__(self):
            return 2

        def __getitem__(self, i):
            return {}["nope"]
    with pytest.raises(KeyError) as info:
        list(tvdata.DataLoader(Missing(), num_workers=1))
    assert str(info.value).startswith("Caught KeyError in DataLoader worker process 0.")


def test_a_dead_worker_is_reported_and_cleaned_up():
    loader = tvdata.DataLoader(Dying(12, bad=6), batch_size=2, num_workers=2)
    it = iter(loader)
    token, pids = pool_of(it)
    with pytest.raises(RuntimeError) as info:
        list(it)
    m = re.fullmatch(r"DataLoader worker \(pid\(s\) (\d+)\) exited unexpectedly",
                     str(info.value))
    assert m and int(m.group(1)) == pids[1]  # batch [6, 7] is worker 1's
    assert "exited with code 7" in "\n".join(getattr(info.value, "__notes__", ["code 7"]))
    assert_clean(token, pids)
    with pytest.raises(RuntimeError, match="iterator was stopped"):
        next(it)


def test_timeout_is_enforced():
    started = multiprocessing.get_context("fork").Event()
    loader = tvdata.DataLoader(Blocking(6, bad=2, started=started), batch_size=2,
                               num_workers=2, timeout=0.5)
    it = iter(loader)
    token, pids = pool_of(it)
    assert next(it).tolist()[0] == [0.0] * 3
    with pytest.raises(RuntimeError, match=r"^DataLoader timed out after 0.5 seconds$"):
        next(it)
    assert started.is_set()
    assert_clean(token, pids)


@pytest.mark.parametrize("how", ["break", "del loader", "del iterator"])
def test_stopping_early_leaves_nothing_behind(how):
    loader = tvdata.DataLoader(Squares(400), batch_size=4, num_workers=2, prefetch_factor=3)
    it = iter(loader)
    token, pids = pool_of(it)
    first = next(it)
    assert first[1].tolist() == [0, 1, 2, 3]
    # wait until a worker has sent a batch ahead: it waits in shared memory, not yet taken
    assert multiprocessing.connection.wait(it._pool.result_conns)
    assert segments(token)
    if how == "del loader":
        del loader
    del it
    gc.collect()
    assert_clean(token, pids)
    assert first[0].sum().item() == sum(i + i * i for i in range(4))  # still valid


def test_keyboard_interrupt_inside_next_stops_the_workers():
    """An interrupt while the loop waits (here raised by the sampler, which the main
    process runs inside ``next``): workers and segments go at once, although the iterator
    is still referenced (as a notebook's traceback keeps it)."""
    def batch_sampler():
        for k in range(100):
            if k == 4:  # (0 to 3 are sent ahead when the iterator starts)
                raise KeyboardInterrupt
            yield [k]
    loader = tvdata.DataLoader(Squares(100), batch_sampler=batch_sampler(), num_workers=2)
    it = iter(loader)
    token, pids = pool_of(it)
    with pytest.raises(KeyboardInterrupt):
        next(it)
    assert_clean(token, pids)
    with pytest.raises(RuntimeError, match="iterator was stopped"):
        next(it)


def test_sigint_while_a_worker_is_busy_leaves_nothing_behind():
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    started = multiprocessing.get_context("fork").Event()
    loader = tvdata.DataLoader(Blocking(6, bad=0, started=started), batch_size=2,
                               num_workers=2)
    before = set(segments())

    # A SIGINT that lands while Python runs a finalizer (gc of an earlier test's garbage) is
    # printed as "Exception ignored" and dropped, as at a real Ctrl-C: press it again.  So
    # resend until the loop has stopped (every 10 s: well past the 1 s the stopping loader
    # gives its workers, so a resend never cuts that short); late ones are ignored.
    stopped = threading.Event()

    def on_sigint(signum, frame):
        if not stopped.is_set():
            raise KeyboardInterrupt

    def interrupt_until_stopped():
        started.wait()
        while True:
            os.kill(os.getpid(), signal.SIGINT)
            if stopped.wait(10.0):
                return
    previous = signal.signal(signal.SIGINT, on_sigint)
    t = threading.Thread(target=interrupt_until_stopped)
    t.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            try:
                for _ in loader:  # (wherever the signal lands, the iterator is stopped)
                    pass
            finally:
                stopped.set()
    finally:
        stopped.set()
        t.join()
        signal.signal(signal.SIGINT, previous)
    import psutil
    children = [c.pid for c in psutil.Process().children() if c.name() != "resource_tracker"]
    gc.collect()
    assert set(segments()) <= before
    assert not [p for p in still_running(children)
                if "worker_loop" in " ".join(psutil.Process(p).cmdline())]


def test_persistent_workers_are_reused_across_epochs():
    loader = tvdata.DataLoader(Pid(), batch_size=2, num_workers=2, persistent_workers=True)
    first = [b.tolist() for b in loader]
    it = loader._iterator
    token, pids = pool_of(it)
    assert {p for b in first for p in b} == set(pids)
    partial = iter(loader)
    next(partial)  # stop the second epoch early: leftovers are dropped at the next one
    third = [b.tolist() for b in loader]
    assert loader._iterator is it and {p for b in third for p in b} == set(pids)
    assert len(third) == 4
    del loader, it, partial
    gc.collect()
    assert_clean(token, pids)


@pytest.mark.parametrize("shard", [False, True])
@pytest.mark.parametrize("batch_size,drop_last", [(None, False), (3, False), (3, True)])
def test_iterable_dataset_matches_pytorch(shard, batch_size, drop_last):
    torch = pytest.importorskip("torch")
    from torch.utils.data import DataLoader as TorchLoader
    kwargs = dict(batch_size=batch_size, drop_last=drop_last, num_workers=2)
    ours = tvdata.DataLoader(Stream(10, shard), **kwargs)
    theirs = TorchLoader(TorchStream(torch, 10, shard), **kwargs)
    import warnings
    with warnings.catch_warnings():  # (an unsharded stream overruns its len: both warn)
        warnings.simplefilter("ignore", UserWarning)
        assert_same(list(ours), list(theirs), torch)


def test_iterable_dataset_with_persistent_workers():
    loader = tvdata.DataLoader(Stream(7, True), batch_size=2, num_workers=2,
                               persistent_workers=True)
    for _ in range(2):
        got = sorted(v for b in loader for v in b.tolist())
        assert got == list(range(7))
    token, pids = pool_of(loader._iterator)
    del loader
    gc.collect()
    assert_clean(token, pids)


def test_workers_are_seeded_per_worker_and_per_epoch():
    from tensorviz.utils.data._worker import _generate_state
    g = tv.Generator().manual_seed(1)
    loader = tvdata.DataLoader(Seeds(), batch_size=None, num_workers=2, generator=g)
    epoch1 = list(loader)
    epoch2 = list(loader)
    by_worker = {s[0]: s for s in epoch1[:2]}
    assert by_worker[1][1] == by_worker[0][1] + 1  # seed = base_seed + worker_id
    for a, b in zip(by_worker[0][2:5], by_worker[1][2:5]):
        assert a != b  # random, NumPy and tensorviz streams differ between workers
    assert epoch1[0][1] != epoch2[0][1]  # a new base seed each epoch
    g.manual_seed(1)
    assert list(loader) == epoch1  # reproducible from the loader's generator
    base = by_worker[0][1]
    import random
    random.seed(base)
    tv.manual_seed(base)
    np.random.seed(_generate_state(base, 0))
    assert tuple(by_worker[0][2:5]) == (random.random(), float(np.random.rand()),
                                 tv.rand(1).item())


def test_numpy_seed_state_matches_pytorch():
    pytest.importorskip("torch")
    from torch.utils.data._utils.worker import _generate_state as theirs

    from tensorviz.utils.data._worker import _generate_state as ours
    rng = np.random.default_rng(0)
    for _ in range(200):
        base, wid = int(rng.integers(0, 2**63)), int(rng.integers(0, 64))
        assert ours(base, wid) == theirs(base, wid)


def test_worker_info_and_init_fn():
    def init(worker_id):
        info = tvdata.get_worker_info()
        info.dataset.tag = f"w{worker_id}/{info.num_workers}"
        with pytest.raises(AttributeError):
            info.id = 5

    class Tagged(tvdata.Dataset):
        tag = "main"

        def __len__(self):
            return 4

        def __getitem__(self, i):
            return self.tag
    got = list(tvdata.DataLoader(Tagged(), batch_size=None, num_workers=2,
                                 worker_init_fn=init))
    assert got == ["w0/2", "w1/2", "w0/2", "w1/2"]
    assert tvdata.get_worker_info() is None


def test_worker_init_fn_failure_is_raised():
    def init(worker_id):
        raise OSError("no such file")
    with pytest.raises(OSError, match="Caught OSError in DataLoader worker process 0"):
        list(tvdata.DataLoader(Squares(4), num_workers=1, worker_init_fn=init))


def test_out_of_order_delivery():
    got = list(tvdata.DataLoader(Squares(20), batch_size=3, num_workers=2, in_order=False))
    assert sorted(v for b in got for v in b[1].tolist()) == list(range(20))


@pytest.mark.parametrize("method", [m for m in METHODS if m != "fork"])
def test_unpicklable_dataset_names_the_attribute(method):
    class WithLock(tvdata.Dataset):
        def __init__(self):
            self.cache = {"lock": threading.Lock()}

        def __len__(self):
            return 2

        def __getitem__(self, i):
            return i
    with pytest.raises(TypeError) as info:
        iter(tvdata.DataLoader(WithLock(), num_workers=1, multiprocessing_context=method))
    text = str(info.value)
    assert "dataset.cache['lock'] (a lock)" in text and method in text
    assert "worker_init_fn" in text and "num_workers=0" in text


def test_unpicklable_sample_is_reported():
    class Gen(tvdata.Dataset):
        def __len__(self):
            return 1

        def __getitem__(self, i):
            return (x for x in range(3))
    with pytest.raises(TypeError, match="while sending the batch to the main process"):
        list(tvdata.DataLoader(Gen(), batch_size=None, num_workers=1))


KILLED_MAIN = r'''
import multiprocessing.connection, os, signal, sys
sys.path.insert(0, {tests!r})
from utils.data._helpers import Squares
from tensorviz.utils import data as tvdata
it = iter(tvdata.DataLoader(Squares(400), batch_size=4, num_workers=2))
next(it)
multiprocessing.connection.wait(it._pool.result_conns)  # a batch waits in shared memory
print(it._pool.token, *[w.pid for w in it._workers], flush=True)
os.kill(os.getpid(), signal.SIGKILL)
'''


def test_workers_of_a_killed_main_process_exit_and_remove_its_segments():
    """A kernel killed outright cannot clean up: its workers notice, remove the batches
    in flight and exit."""
    import subprocess
    import sys

    import psutil
    tests = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=os.path.dirname(tests))
    # (the workers inherit its stdout: read the one line, do not wait for the pipe's end)
    proc = subprocess.Popen([sys.executable, "-c", KILLED_MAIN.format(tests=tests)],
                            stdout=subprocess.PIPE, text=True, env=env)
    with proc.stdout:
        token, *pids = proc.stdout.readline().split()
    assert proc.wait() == -signal.SIGKILL
    workers = [psutil.Process(int(p)) for p in pids if psutil.pid_exists(int(p))]
    gone, alive = psutil.wait_procs(workers, timeout=60)  # (they poll for their parent)
    assert alive == []
    assert segments(token) == []


def test_segments_of_dead_processes_are_removed_when_workers_start():
    from tensorviz.utils.data._shared_memory import create, segment_name
    import subprocess
    import sys
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    name = segment_name(f"{dead}_abcdef", 0, 0, 0)
    create(name, 16).close()
    assert segments(f"{dead}_abcdef")
    list(tvdata.DataLoader(Squares(2), num_workers=1))
    assert segments(f"{dead}_abcdef") == []


def test_worker_batches_match_pytorch_workers_for_the_same_indices():
    torch = pytest.importorskip("torch")
    import torch.utils.data as tdata
    rng = np.random.default_rng(0)
    order = [rng.integers(0, 30, size=int(rng.integers(1, 7))).tolist() for _ in range(9)]
    x = rng.normal(size=(30, 2, 3)).astype(np.float32)
    y = rng.integers(0, 5, size=30)
    ours = tvdata.DataLoader(tvdata.TensorDataset(tv.from_numpy(x), tv.from_numpy(y)),
                             batch_sampler=order, num_workers=2)
    theirs = tdata.DataLoader(tdata.TensorDataset(torch.from_numpy(x), torch.from_numpy(y)),
                              batch_sampler=order, num_workers=2)
    assert_same(list(ours), list(theirs), torch)
    # and a dataset of dicts and numbers, collated in the workers by the general rules
    ours = tvdata.DataLoader(Seeds(), batch_size=3, num_workers=2)
    assert [len(b) for b in ours] == [6, 6]


CELL = '''
class CellDataset(Dataset):   # as if typed into a notebook cell: its module is __main__
    def __len__(self):
        return 5
    def __getitem__(self, i):
        return i * 10
'''


@pytest.mark.parametrize("method", [m for m in METHODS if m != "fork"])
def test_a_class_from_main_is_sent_by_value(method):
    """A class whose module is ``__main__`` but which ``__main__`` does not hold (a notebook
    cell's): plain pickle, and so PyTorch's workers, cannot send it; tensorviz's can."""
    import pickle
    ns = {"Dataset": tvdata.Dataset, "__name__": "__main__"}
    exec(CELL, ns)
    with pytest.raises((pickle.PicklingError, AttributeError)):
        pickle.dumps(ns["CellDataset"]())
    got = list(tvdata.DataLoader(ns["CellDataset"](), batch_size=2, num_workers=2,
                                 multiprocessing_context=method))
    assert [b.tolist() for b in got] == [[0, 10], [20, 30], [40]]
