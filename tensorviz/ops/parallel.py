"""Thread settings: ``set_num_threads``/``get_num_threads`` (the BLAS/OpenMP pools that NumPy's
matrix products run on) and ``set_num_interop_threads``/``get_num_interop_threads``.

The intra-op pools are set through ``threadpoolctl`` (imported on first use).  Without it the
value is recorded and returned, and a warning says it could not be applied.  tensorviz runs no
inter-op thread pool: that setting is recorded with PyTorch's rules (positive, set once).
"""
from __future__ import annotations

import builtins
import os
import warnings

from .._dispatch import op


_intra: int | None = None
_interop: int | None = None
_limiter = None  # the live threadpoolctl limiter (keeps the pools limited)


def _default_threads() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _threadpoolctl():
    try:
        import threadpoolctl
    except ImportError:
        return None
    return threadpoolctl


def _positive(n, fn: str) -> int:
    if isinstance(n, builtins.bool) or not hasattr(n, "__index__"):
        raise RuntimeError(f"{fn} expects an int, but got {type(n).__name__}")
    n = n.__index__()
    if not -(1 << 31) <= n < (1 << 31):  # (PyTorch takes a C int)
        raise ValueError("Overflow when unpacking long")
    if n <= 0:
        raise RuntimeError(f"{fn} expects a positive integer")
    return n


@op(method=False)
def set_num_threads(int) -> None:  # noqa: A002 - PyTorch's parameter name
    """Use ``int`` threads for intra-op parallelism (BLAS/OpenMP pools of the CPU backend)."""
    global _intra, _limiter
    n = _positive(int, "set_num_threads")
    _intra = n
    tpc = _threadpoolctl()
    if tpc is None:
        warnings.warn("set_num_threads: threadpoolctl is not installed, so the BLAS thread "
                      "pool keeps its own size (pip install threadpoolctl); the value is only "
                      "recorded.", UserWarning, stacklevel=2)
        return
    _limiter = tpc.threadpool_limits(limits=n)


@op(method=False)
def get_num_threads() -> int:
    """The number of threads used for intra-op parallelism."""
    if _intra is not None:
        return _intra
    tpc = _threadpoolctl()
    if tpc is not None:
        counts = [p.get("num_threads", 0) for p in tpc.threadpool_info()
                  if p.get("user_api") == "blas"]
        if counts:
            return max(counts)
    return _default_threads()


@op(method=False)
def set_num_interop_threads(int) -> None:  # noqa: A002 - PyTorch's parameter name
    """Record the inter-op thread count (once, before any parallel work, as in PyTorch)."""
    global _interop
    n = _positive(int, "set_num_interop_threads")
    if _interop is not None:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work "
                           "has started or set_num_interop_threads called")
    _interop = n


@op(method=False)
def get_num_interop_threads() -> int:
    """The inter-op thread count (the number of cores unless set)."""
    return _default_threads() if _interop is None else _interop
