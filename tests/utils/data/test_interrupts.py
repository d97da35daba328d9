"""``deferred_interrupt``: a SIGINT inside the block is raised when the block ends, never
inside it (real signals, real multiprocessing queues and fork workers)."""
from __future__ import annotations

import multiprocessing
import os
import random
import signal
import threading

import pytest

from tensorviz.utils import data as tvdata
from tensorviz.utils.data._interrupts import deferred_interrupt

from ._helpers import Squares, segments

pytestmark = pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGINT"),
    reason="signal handlers run in the main thread only")


class Counting:
    """A SIGINT handler that counts its calls and raises KeyboardInterrupt while armed."""

    def __init__(self, armed: bool = True):
        self.calls = 0
        self.armed = armed

    def __call__(self, signum, frame):
        self.calls += 1
        if self.armed:
            self.armed = False
            raise KeyboardInterrupt


@pytest.fixture
def handler():
    h = Counting()
    previous = signal.signal(signal.SIGINT, h)
    try:
        yield h
    finally:
        signal.signal(signal.SIGINT, previous)


def python_steps(n: int = 100) -> int:
    """Bytecode enough for Python to run any pending signal handler."""
    return sum(abs(i) for i in range(n))


def test_an_interrupt_inside_the_block_is_raised_when_it_ends(handler):
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with deferred_interrupt():
            signal.raise_signal(signal.SIGINT)
            python_steps()
            reached.append("end of block")
    assert reached == ["end of block"]
    assert handler.calls == 1
    assert signal.getsignal(signal.SIGINT) is handler  # (restored)


def test_no_interrupt_no_exception_and_the_handler_is_restored(handler):
    with deferred_interrupt():
        python_steps()
    assert handler.calls == 0
    assert signal.getsignal(signal.SIGINT) is handler


def test_nested_blocks_raise_once_at_the_outermost_end(handler):
    order = []
    with pytest.raises(KeyboardInterrupt):
        with deferred_interrupt():
            with deferred_interrupt():
                signal.raise_signal(signal.SIGINT)
                signal.raise_signal(signal.SIGINT)
                python_steps()
            order.append("after inner")
            python_steps()
            order.append("end of outer")
    assert order == ["after inner", "end of outer"]
    assert handler.calls == 1
    assert signal.getsignal(signal.SIGINT) is handler


def test_an_exception_in_the_block_still_restores_the_handler(handler):
    with pytest.raises(ValueError):
        with deferred_interrupt():
            raise ValueError("inside")
    assert signal.getsignal(signal.SIGINT) is handler


def test_ignored_sigint_and_other_threads_are_left_alone(handler):
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with deferred_interrupt():
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            signal.raise_signal(signal.SIGINT)
            python_steps()
    finally:
        signal.signal(signal.SIGINT, previous)
    seen = []

    def in_a_thread():
        with deferred_interrupt():
            seen.append(signal.getsignal(signal.SIGINT))
    t = threading.Thread(target=in_a_thread)
    t.start()
    t.join()
    assert seen == [handler]
    assert handler.calls == 0


def pelt_until(done: threading.Event, rng: random.Random, first: float = 0.0) -> None:
    """Send SIGINT to this process at random moments (after ``first`` seconds) until
    ``done``."""
    if done.wait(first):
        return
    while not done.is_set():
        os.kill(os.getpid(), signal.SIGINT)
        done.wait(rng.uniform(0, 0.002))


def test_interrupts_never_leave_a_queue_lock_held():
    """Python raises a KeyboardInterrupt that lands just after ``Condition.__enter__`` took
    its lock without ever releasing it (bpo-29988); ``multiprocessing.Queue.put`` is such a
    ``with``.  Inside ``deferred_interrupt`` the next put must always go through."""
    h = Counting(armed=False)
    previous = signal.signal(signal.SIGINT, h)
    q = multiprocessing.Queue()
    q.cancel_join_thread()
    done = threading.Event()
    t = threading.Thread(target=pelt_until, args=(done, random.Random(0)))
    caught = sent = got = 0
    try:
        t.start()
        while caught < 200:
            h.armed = True
            try:
                with deferred_interrupt():  # (an interrupt inside is raised at its end)
                    q.put(sent)
                    got = q.get()
                    assert got == sent
                    sent += 1
            except KeyboardInterrupt:
                caught += 1
            # (the feeder thread holds the lock only while it takes from the buffer)
            assert q._notempty._lock.acquire(timeout=60), "the queue's lock was left held"
            q._notempty._lock.release()
    finally:
        done.set()
        t.join()
        signal.signal(signal.SIGINT, previous)
        q.close()
    assert got == sent - 1  # (the last put and get both went through)


def worker_children(before: set[int]) -> list[int]:
    """This process's children started since ``before`` and still running."""
    import psutil
    found = []
    for c in psutil.Process().children():
        try:
            if c.pid in before or c.status() == psutil.STATUS_ZOMBIE:
                continue
            if "resource_tracker" in " ".join(c.cmdline()):
                continue
        except psutil.NoSuchProcess:
            continue
        found.append(c.pid)
    return found


def one_pass(loader) -> None:
    for _ in loader:
        pass


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                    reason="needs the fork start method")
# (an interrupt that lands in a finalizer -- a weakref callback run by the garbage collector --
# is printed by Python as "Exception ignored" and dropped; that round then runs to its end.
# What this test checks is what each round leaves behind, not where the interrupt landed.)
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_fork_workers_stopped_by_an_interrupt_anywhere_leave_nothing_behind():
    """Rounds of a fork-worker loop, each hit by one interrupt at a random moment (while the
    workers start, while indices are sent, while batches are awaited, while the loader
    stops): every round ends in KeyboardInterrupt or a full pass, and leaves no worker and
    no shared-memory segment, without waiting for the garbage collector."""
    psutil = pytest.importorskip("psutil")
    h = Counting(armed=False)
    previous = signal.signal(signal.SIGINT, h)
    rng = random.Random(1234)
    before = set(segments())
    outcomes = {"interrupted": 0, "finished": 0}
    try:
        for _ in range(30):
            loader = tvdata.DataLoader(Squares(64), batch_size=2, num_workers=2,
                                       multiprocessing_context="fork")
            kids = {c.pid for c in psutil.Process().children()}
            done = threading.Event()
            t = threading.Thread(target=pelt_until, args=(
                done, random.Random(rng.random()), rng.uniform(0, 0.03)))
            h.armed = True  # (the handler raises once, then disarms itself)
            try:
                t.start()
                one_pass(loader)
                h.armed = False
                outcomes["finished"] += 1
            except KeyboardInterrupt:
                outcomes["interrupted"] += 1
            done.set()
            t.join()
            assert worker_children(kids) == []
            assert set(segments()) <= before
    finally:
        signal.signal(signal.SIGINT, previous)
    assert outcomes["interrupted"] > 0, outcomes
