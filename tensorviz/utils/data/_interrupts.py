"""Interrupts held back while the main process is inside multiprocessing's own code.

A KeyboardInterrupt comes from the SIGINT handler, which Python runs between two bytecodes
of the main thread, wherever that thread is.  Two places in the standard library cannot take
it there:

* a ``with`` block over a lock whose ``__enter__`` is written in Python (``threading.
  Condition``, used by ``multiprocessing.Queue.put`` and ``close``): when the interrupt lands
  just after the lock is taken, inside ``__enter__``, the block is never entered, ``__exit__``
  never runs, and the lock stays held (CPython issue bpo-29988).  The next ``put`` on that
  queue, from the same thread, then waits forever;
* the callbacks ``os.fork`` runs (``os.register_at_fork``: logging's, IPython's): an
  exception raised there is printed as "Exception ignored" and dropped.

With ``fork`` workers a worker starts on its first batch while the main process is still
filling the index queues, so an interrupt often lands in those places (a notebook's stop
button then did nothing, and the loop it finally stopped left its workers running).  Inside
``deferred_interrupt()`` a SIGINT is only noted; it is raised as soon as the block ends::

    with deferred_interrupt():
        index_queue.put((task, indices))      # never stopped half-way
"""
from __future__ import annotations

import signal
import threading

__all__ = ["deferred_interrupt"]


class deferred_interrupt:
    """Hold back SIGINT's handler for the duration of a ``with`` block, then run it (once)
    if an interrupt came.

    Only the main thread runs Python signal handlers, so elsewhere (and where the handler is
    not a Python function: ``SIG_IGN``, ``SIG_DFL``) this does nothing.  Nests."""

    __slots__ = ("_previous", "_pending")

    def __enter__(self) -> "deferred_interrupt":
        self._previous = None
        self._pending = None
        if threading.current_thread() is not threading.main_thread():
            return self
        previous = signal.getsignal(signal.SIGINT)
        if callable(previous):
            # (from here on a SIGINT only calls _note: no exception can land in the block)
            signal.signal(signal.SIGINT, self._note)
            self._previous = previous
        return self

    def _note(self, signum, frame) -> None:
        if self._pending is None:
            self._pending = (signum, frame)

    def __exit__(self, *exc) -> None:
        previous = self._previous
        if previous is None:
            return
        self._previous = None
        signal.signal(signal.SIGINT, previous)
        if self._pending is not None:
            signum, frame = self._pending
            self._pending = None
            previous(signum, frame)  # (the usual handler raises KeyboardInterrupt here)
