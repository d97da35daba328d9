"""``tensorviz.accelerator``: PyTorch's device-agnostic accelerator queries.

Tutorials open with ``device = torch.accelerator.current_accelerator().type if
torch.accelerator.is_available() else "cpu"``; here the only accelerator is CUDA (through
CuPy)::

    >>> import tensorviz as torch
    >>> torch.accelerator.is_available()     # False without a GPU and CuPy
    False
"""
from __future__ import annotations

from . import cuda as _cuda
from ._device import device as _device


def is_available() -> bool:
    """Whether an accelerator (a CUDA GPU that CuPy can use) is present."""
    return _cuda.is_available()


def current_accelerator(check_available: bool = False):
    """``device('cuda')`` when a GPU is usable, else None (PyTorch's CPU-only answer)."""
    return _device("cuda") if _cuda.is_available() else None


def device_count() -> int:
    """How many accelerator devices there are (0 without a GPU)."""
    return _cuda.device_count() if _cuda.is_available() else 0


def current_device_index() -> int:
    """The index of the current accelerator device; RuntimeError when there is none."""
    if not _cuda.is_available():
        raise RuntimeError("Cannot access accelerator device when none is available.")
    return _cuda.current_device()


def synchronize(device=None) -> None:
    """Wait for the accelerator's queued work (nothing to wait for without one)."""
    if _cuda.is_available():
        _cuda.synchronize(device)
