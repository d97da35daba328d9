"""The CUDA backend: CuPy arrays on NVIDIA GPUs (imported on first cuda use only)."""
from __future__ import annotations

from typing import Sequence

from .._device import current_cuda_index


def _load_cupy():
    """Import CuPy and check a GPU is visible; RuntimeError that says what is missing."""
    try:
        import cupy
    except Exception as e:
        if isinstance(e, ImportError) and e.name == "cupy":
            raise RuntimeError(
                "CUDA is not available: CuPy is not installed (tensorviz computes on the GPU "
                "through CuPy). On a machine with an NVIDIA GPU, install it with `pip install "
                f"'tensorviz[gpu]'`. ({e})") from None
        # A broken install: missing CUDA libraries, a wheel for another CUDA version...
        raise RuntimeError(
            f"CUDA is not available: CuPy is installed but failed to import ({type(e).__name__}: "
            f"{e}). Install the CuPy wheel that matches this machine's CUDA version, or use "
            "device='cpu'.") from None
    try:
        n = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:  # CuPy raises its own CUDARuntimeError without a driver
        raise RuntimeError(f"CUDA is not available: CuPy found no usable GPU driver ({e}). "
                           "Use device='cpu', or run on a machine with an NVIDIA GPU.") from None
    if n == 0:
        raise RuntimeError("CUDA is not available: no GPU was found. Use device='cpu'.")
    return cupy


def _check_dtype(np_dtype) -> None:
    """RuntimeError for a dtype CuPy cannot hold (bfloat16: NumPy's through ml_dtypes).

    Note: PyTorch computes bfloat16 on CUDA; tensorviz keeps it on the CPU, where NumPy has it
    through ml_dtypes, because CuPy has no bfloat16 arrays to compute on."""
    if getattr(np_dtype, "name", None) == "bfloat16" or str(np_dtype) == "bfloat16":
        raise RuntimeError(
            "bfloat16 tensors cannot live on a GPU in tensorviz: CuPy, which computes on the "
            "GPU, has no bfloat16 arrays. Keep bfloat16 tensors on the CPU, or convert first: "
            "t.float().cuda() (float32 holds every bfloat16 value exactly) or t.half().cuda().")


class CupyBackend:
    """Computes on CuPy; buffers are 1-D CuPy arrays in GPU memory."""

    name = "cuda"
    #: Whether the array module's ufuncs have ``accumulate``: CuPy's lack it for most.
    ufunc_accumulate = False

    def __init__(self):
        self.xp = self.cupy = _load_cupy()
        self.peak_bytes = 0

    def _track(self) -> None:
        used = self.cupy.get_default_memory_pool().used_bytes()
        if used > self.peak_bytes:
            self.peak_bytes = used

    def empty(self, n: int, np_dtype, device=None):
        _check_dtype(np_dtype)
        with self.cupy.cuda.Device(_index(device)):
            buf = self.cupy.empty(n, dtype=np_dtype)
        self._track()
        return buf

    def zeros(self, n: int, np_dtype, device=None):
        _check_dtype(np_dtype)
        with self.cupy.cuda.Device(_index(device)):
            buf = self.cupy.zeros(n, dtype=np_dtype)
        self._track()
        return buf

    def strided(self, buf, offset: int, shape: Sequence[int], stride: Sequence[int]):
        """A zero-copy view of ``buf`` (1-D) with element strides; bounds already checked."""
        item = buf.itemsize
        for s in shape:
            if s == 0:
                return buf[:0].reshape(shape)
        return self.cupy.ndarray(tuple(shape), buf.dtype, memptr=buf.data + offset * item,
                                 strides=tuple(s * item for s in stride))

    def to_host(self, arr):
        return self.cupy.asnumpy(arr)

    def from_host(self, arr, device=None):
        """A copy of ``arr`` (host NumPy or a CuPy array on any GPU) on ``device``."""
        _check_dtype(getattr(arr, "dtype", None))
        with self.cupy.cuda.Device(_index(device)):
            out = self.cupy.array(arr, copy=True)
        self._track()
        return out

    def asarray(self, obj, np_dtype=None, device=None):
        _check_dtype(np_dtype if np_dtype is not None else getattr(obj, "dtype", None))
        with self.cupy.cuda.Device(_index(device)):
            return self.cupy.asarray(obj, dtype=np_dtype)

    def data_ptr(self, buf) -> int:
        return int(buf.data.ptr)

    def is_array(self, obj) -> bool:
        return isinstance(obj, self.cupy.ndarray)

    def synchronize(self) -> None:
        self.cupy.cuda.Device().synchronize()


def _index(device) -> int:
    if device is None or device.index is None:
        return current_cuda_index()
    return device.index
