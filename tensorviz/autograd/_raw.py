"""Raw-array helpers for the fast paths of the hottest formulas and nn kernels.

A derivative formula is written in tensorviz ops so that it is itself recorded under
``create_graph=True``.  In the common case -- a plain backward (grad mode off while it runs)
on CPU tensors of one real floating dtype -- the same arithmetic can run on the NumPy arrays
directly, without the op layer's dispatch, promotion and result bookkeeping around each
step.  These helpers say when that case holds and wrap the results::

    a = cpu(g)                       # g's ndarray, or None (CUDA, a subclass ...)
    if a is not None and plain():    # not recording the backward itself
        return (fresh(a * 2, g._dtype),)

The fast paths compute exactly what their general path computes (the same NumPy calls in
the same order, in the same dtype), with NumPy's floating-point warnings off as everywhere.
"""
from __future__ import annotations

from numpy import ndarray as _nd

from .. import _dtypes
from .._grad_mode import _STATE
from .._tensor import Tensor, _contig, _fresh, wrap_array
from ..backends._numpy import quiet_run

__all__ = ["cpu", "plain", "fresh", "quiet_run", "real_float"]

def cpu(t) -> _nd | None:
    """``t``'s strided NumPy array when ``t`` is a CPU tensor (or Parameter); else None."""
    if not isinstance(t, Tensor):
        return None
    a = t._a
    if a is None:
        a = t._arr
    return a if type(a) is _nd else None


_FAST_DTYPES = (_dtypes.float32, _dtypes.float64)


def real_float(t) -> bool:
    """A float32 or float64 tensor (the dtypes whose NumPy kernels the op layer calls as
    they are: half precision goes through its own rounding steps)."""
    return t._dtype in _FAST_DTYPES


def plain() -> bool:
    """True while nothing records: a backward without ``create_graph``, or no_grad."""
    return not _STATE.grad


def fresh(a: _nd, dt) -> Tensor:
    """A tensor over ``a``, a freshly computed array no one else holds, of dtype ``dt``."""
    if a.dtype is dt._np and a.flags.c_contiguous:
        return _fresh(dt, a.shape, _contig(a.shape), a)
    return wrap_array(a, dt)
