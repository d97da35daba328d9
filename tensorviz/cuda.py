"""``tensorviz.cuda``: GPU queries and controls, answered through CuPy.

Nothing here imports CuPy until asked; on a machine without CuPy or a GPU, ``is_available()``
is False and the rest raises a RuntimeError that says why.
"""
from __future__ import annotations

from dataclasses import dataclass

from ._device import device as _device_cls

__all__ = ["is_available", "device_count", "current_device", "set_device", "get_device_name",
           "get_device_properties", "synchronize", "manual_seed", "manual_seed_all",
           "memory_allocated", "max_memory_allocated", "reset_peak_memory_stats",
           "empty_cache", "device", "is_initialized"]

_stack: list[int] = []
_selected = 0


def _backend():
    from .backends import cuda_backend
    return cuda_backend()


def is_available() -> bool:
    """Whether a GPU can be used (CuPy installed and at least one device visible)."""
    try:
        _backend()
    except RuntimeError:
        return False
    return True


def is_initialized() -> bool:
    from . import backends
    return backends._cuda_backend is not None


def device_count() -> int:
    try:
        return _backend().cupy.cuda.runtime.getDeviceCount()
    except RuntimeError:
        return 0


def current_device() -> int:
    """The index of the selected GPU (``set_device`` / ``with tensorviz.cuda.device(i)``)."""
    _backend()
    return _stack[-1] if _stack else _selected


def _check_index(index) -> int:
    if isinstance(index, _device_cls):
        if index.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {index}")
        index = 0 if index.index is None else index.index
    elif isinstance(index, str):
        return _check_index(_device_cls(index))
    n = device_count()
    if not 0 <= index < max(n, 1) or n == 0:
        if n == 0:
            _backend()
        raise RuntimeError(f"CUDA error: invalid device ordinal {index} (this machine has {n} "
                           "GPU(s))")
    return index


def set_device(device) -> None:
    global _selected
    _selected = _check_index(device)
    _backend().cupy.cuda.Device(_selected).use()


def _push_device(index: int) -> None:
    _stack.append(_check_index(index))


def _pop_device() -> None:
    _stack.pop()


class device:
    """``with tensorviz.cuda.device(1):`` makes GPU 1 the current device inside the block."""

    def __init__(self, device):
        self.idx = _check_index(device)

    def __enter__(self):
        _stack.append(self.idx)
        return self

    def __exit__(self, *exc):
        _stack.pop()
        return False


@dataclass(frozen=True)
class _CudaDeviceProperties:
    name: str
    major: int
    minor: int
    total_memory: int
    multi_processor_count: int

    def __repr__(self) -> str:
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, minor="
                f"{self.minor}, total_memory={self.total_memory // (1 << 20)}MB, "
                f"multi_processor_count={self.multi_processor_count})")


def get_device_properties(device=None) -> _CudaDeviceProperties:
    idx = current_device() if device is None else _check_index(device)
    props = _backend().cupy.cuda.runtime.getDeviceProperties(idx)
    name = props["name"]
    return _CudaDeviceProperties(
        name=name.decode() if isinstance(name, bytes) else str(name),
        major=int(props["major"]), minor=int(props["minor"]),
        total_memory=int(props["totalGlobalMem"]),
        multi_processor_count=int(props["multiProcessorCount"]))


def get_device_name(device=None) -> str:
    return get_device_properties(device).name


def synchronize(device=None) -> None:
    """Wait for all work queued on the GPU to finish (for honest timings)."""
    be = _backend()
    idx = current_device() if device is None else _check_index(device)
    with be.cupy.cuda.Device(idx):
        be.synchronize()


def manual_seed(seed: int) -> None:
    """Seed the generator that cuda tensors draw from (shared with the CPU's here)."""
    from ._random import manual_seed as _seed
    _seed(seed)


manual_seed_all = manual_seed


def memory_allocated(device=None) -> int:
    """Bytes held by live tensors on the GPU (CuPy's memory pool, in use)."""
    if not is_initialized():
        return 0
    be = _backend()
    be._track()
    return int(be.cupy.get_default_memory_pool().used_bytes())


def max_memory_allocated(device=None) -> int:
    if not is_initialized():
        return 0
    be = _backend()
    be._track()
    return int(be.peak_bytes)


def reset_peak_memory_stats(device=None) -> None:
    if is_initialized():
        be = _backend()
        be.peak_bytes = int(be.cupy.get_default_memory_pool().used_bytes())


def empty_cache() -> None:
    """Give cached, unused GPU memory back to the driver."""
    if is_initialized():
        _backend().cupy.get_default_memory_pool().free_all_blocks()
