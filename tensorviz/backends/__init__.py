"""Backends: one small object per device kind that owns an array module.

Everything above this layer (storage, tensor, ops) is written once against this interface::

    be = backend_for(device)
    buf = be.empty(n, np_dtype, device)          # 1-D buffer of n elements
    arr = be.strided(buf, offset, shape, stride)  # zero-copy strided view, strides in elements
    host = be.to_host(arr)                        # NumPy array (a copy on GPU)

The NumPy backend is always there; the CuPy backend is imported only when a cuda tensor is
first made.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ._flags import cuda, cudnn, mps  # noqa: F401  (torch.backends.* idioms)
from ._numpy import NumpyBackend

if TYPE_CHECKING:
    from .._device import device

__all__ = ["NumpyBackend", "backend_for", "CPU_BACKEND", "runs_numpy"]

CPU_BACKEND = NumpyBackend()
_cuda_backend = None
_meta_backend = None


def runs_numpy(xp) -> bool:
    """Whether the array module ``xp`` is NumPy's (NumPy itself, or the meta device's
    ``MetaNumpy``) rather than CuPy: the code paths to take.

    >>> import numpy; runs_numpy(numpy)
    True
    """
    return xp is np or getattr(xp, "runs_numpy", False) is True


def backend_for(dev: "device"):
    """The backend that computes on ``dev``."""
    if dev.type == "cpu":
        return CPU_BACKEND
    if dev.type == "meta":
        return meta_backend()
    return cuda_backend()


def meta_backend():
    """The backend of the ``meta`` device (placeholders, no memory)."""
    global _meta_backend
    if _meta_backend is None:
        from ._meta import MetaBackend
        _meta_backend = MetaBackend()
    return _meta_backend


def cuda_backend():
    """The CuPy backend; RuntimeError saying why when CUDA cannot be used here."""
    global _cuda_backend
    if _cuda_backend is None:
        from ._cupy import CupyBackend
        _cuda_backend = CupyBackend()
    return _cuda_backend


def copy_between(arr, src: "device", dst: "device"):
    """A copy of ``arr`` (on ``src``) placed on ``dst``: host<->GPU or GPU<->GPU."""
    if src.type == "cpu" and dst.type == "cpu":
        return arr.copy()
    if dst.type == "meta":  # (the layout travels, the values do not)
        return meta_backend().from_host(arr)
    if src.type == "meta":
        return meta_backend().to_host(arr)  # (NotImplementedError: no data to copy)
    if dst.type == "cpu":
        return backend_for(src).to_host(arr)
    return cuda_backend().from_host(arr, dst)
