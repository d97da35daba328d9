"""``tensorviz.cuda``: GPU queries and controls, answered through CuPy.

Nothing here imports CuPy until asked; on a machine without CuPy or a GPU, ``is_available()``
is False and the rest raises a RuntimeError that says why.
"""
from __future__ import annotations

from dataclasses import dataclass

from ._device import HOOKS as _DEVICE_HOOKS
from ._device import device as _device_cls

__all__ = ["is_available", "device_count", "current_device", "set_device", "get_device_name",
           "get_device_properties", "synchronize", "manual_seed", "manual_seed_all",
           "memory_allocated", "max_memory_allocated", "reset_peak_memory_stats",
           "empty_cache", "device", "device_of", "is_initialized", "init",
           "get_device_capability", "memory_reserved"]

_selected = 0  # the current GPU (set_device / `with tensorviz.cuda.device(i)`)


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
    return _selected


_DEVICE_HOOKS["current_cuda_index"] = current_device


def _device_index(device) -> int:
    """The GPU index named by an int, a string or a device (``-1``: none named), as PyTorch's
    ``_get_device_index(optional=True)``; nothing is checked against the machine yet."""
    if device is None:
        return -1
    if isinstance(device, str):
        device = _device_cls(device)
    if isinstance(device, _device_cls):
        if device.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {device}")
        return -1 if device.index is None else device.index
    if isinstance(device, int):
        return int(device)
    raise TypeError(f"expected a cuda device, an int or None, got {type(device).__name__}")


def _check_index(index) -> int:
    """``index`` (int, str or device) checked against this machine's GPUs."""
    if not isinstance(index, int) or isinstance(index, bool):
        index = _device_index(index)
        if index < 0:
            return current_device()
    n = device_count()
    if n == 0:
        _backend()  # raises, saying why CUDA is not available
    if not 0 <= index < n:
        raise RuntimeError(f"CUDA error: invalid device ordinal {index} (this machine has {n} "
                           "GPU(s))")
    return index


def _use(index: int) -> None:
    """Make ``index`` CuPy's current device too, so results computed by CuPy land there."""
    _backend().cupy.cuda.Device(index).use()


def set_device(device) -> None:
    """Select the GPU that ``'cuda'`` means (a negative index or None: no change)."""
    global _selected
    if _device_index(device) < 0 and not isinstance(device, _device_cls):
        return
    _selected = _check_index(device)
    _use(_selected)


class device:
    """``with tensorviz.cuda.device(1):`` makes GPU 1 the current device inside the block.

    A negative index or None is a no-op, as in PyTorch; the GPU is checked on entering.
    """

    def __init__(self, device):
        self.idx = _device_index(device)
        self._previous: list[int | None] = []

    def __enter__(self):
        # As PyTorch: entering selects the GPU, leaving selects the one current before, so a
        # set_device() inside the block lasts until the block ends.
        global _selected
        if self.idx < 0:
            self._previous.append(None)
            return self
        idx = _check_index(self.idx)
        self._previous.append(_selected)
        _selected = idx
        _use(idx)
        return self

    def __exit__(self, *exc):
        global _selected
        previous = self._previous.pop()
        if previous is not None:
            _selected = previous
            _use(previous)
        return False


class device_of(device):
    """``with tensorviz.cuda.device_of(t):`` selects ``t``'s GPU; a no-op for a CPU tensor."""

    def __init__(self, obj):
        dev = obj.device
        super().__init__(dev.index if dev.type == "cuda" else -1)


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


def get_device_capability(device=None) -> tuple[int, int]:
    """The GPU's CUDA compute capability, ``(major, minor)``."""
    props = get_device_properties(device)
    return props.major, props.minor


def init() -> None:
    """Initialise CUDA now (it is otherwise done on first use); RuntimeError saying why when
    it cannot be used."""
    _backend()


def get_device_name(device=None) -> str:
    return get_device_properties(device).name


def synchronize(device=None) -> None:
    """Wait for all work queued on the GPU to finish (for honest timings)."""
    be = _backend()
    idx = current_device() if device is None else _check_index(device)
    with be.cupy.cuda.Device(idx):
        be.synchronize()


def manual_seed(seed: int) -> None:
    """Seed the generator that cuda tensors draw from.

    Without a usable GPU this does nothing (as in PyTorch, where it is silently ignored), so
    the CPU's random numbers never change.  With a GPU, cuda tensors draw from the same
    host generator as the CPU's (a seed gives the same numbers on every device), so this
    reseeds that generator.
    """
    seed = int(seed)
    if not is_available():
        return
    from ._random import manual_seed as _seed
    _seed(seed)


def manual_seed_all(seed: int) -> None:
    """``manual_seed`` for every GPU (they share one generator here)."""
    manual_seed(seed)


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


def memory_reserved(device=None) -> int:
    """Bytes CuPy's memory pool holds from the driver (in use or cached for reuse)."""
    if not is_initialized():
        return 0
    return int(_backend().cupy.get_default_memory_pool().total_bytes())


def reset_peak_memory_stats(device=None) -> None:
    if is_initialized():
        be = _backend()
        be.peak_bytes = int(be.cupy.get_default_memory_pool().used_bytes())


def empty_cache() -> None:
    """Give cached, unused GPU memory back to the driver."""
    if is_initialized():
        _backend().cupy.get_default_memory_pool().free_all_blocks()
