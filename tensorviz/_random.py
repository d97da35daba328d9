"""Random number generation: ``Generator``, ``manual_seed`` and the basic samplers.

Samples are drawn on the host by NumPy's PCG64 and moved to the tensor's device, so a seed
gives the same numbers on every device.
# Note: reproducible under a seed, but not bit-equal to PyTorch's Mersenne Twister/Philox.
"""
from __future__ import annotations

import builtins
import json
import os
from typing import Any

import numpy as np

from . import _chalf, _dtypes
from ._creation import _check_dtype, _finish, _sizes
from ._dispatch import op
from ._device import DeviceLike, as_device
from ._size import Size
from ._tensor import Tensor, host_array

__all__ = ["Generator", "default_generator", "manual_seed", "seed", "initial_seed",
           "get_rng_state", "set_rng_state", "rand", "randn", "randint", "randperm", "normal",
           "rand_like", "randn_like", "randint_like"]

_DEFAULT_SEED = 67280421310721  # PyTorch's default CPU seed


class Generator:
    """A random number generator with its own state (``manual_seed``, ``get_state``)."""

    def __init__(self, device: DeviceLike = "cpu"):
        self.device = as_device(device)
        self._seed = _DEFAULT_SEED
        self._np_rng = None  # made from _seed on first use

    @property
    def _rng(self) -> np.random.Generator:
        """NumPy's generator, made on first use: importing numpy.random costs about 10 ms,
        a sixth of ``import tensorviz``, and many sessions never draw a random number."""
        rng = self._np_rng
        if rng is None:
            rng = self._np_rng = np.random.Generator(np.random.PCG64(self._seed))
        return rng

    @_rng.setter
    def _rng(self, rng: np.random.Generator) -> None:
        self._np_rng = rng

    def manual_seed(self, seed: int) -> "Generator":
        seed = builtins.int(seed)
        if seed < -(1 << 63) or seed >= (1 << 64):
            raise ValueError("Overflow when unpacking long long")
        self._seed = seed & 0xFFFFFFFFFFFFFFFF
        self._np_rng = None  # PCG64(seed), made on first use
        return self

    def seed(self) -> int:
        """Reseed from the operating system's entropy and return the new seed."""
        s = builtins.int.from_bytes(os.urandom(8), "little") & ((1 << 63) - 1)
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        return self._seed

    def get_state(self) -> Tensor:
        """The state as a uint8 tensor (restorable with ``set_state``)."""
        from ._creation import tensor
        blob = json.dumps({"seed": self._seed, "pcg64": self._rng.bit_generator.state},
                          default=builtins.int).encode()
        return tensor(np.frombuffer(blob, dtype=np.uint8).copy())

    def set_state(self, new_state: Tensor) -> "Generator":
        if not isinstance(new_state, Tensor) or new_state.dtype is not _dtypes.uint8:
            raise TypeError("expected a tensorviz.ByteTensor as the new state (from "
                            "get_state())")
        try:
            state = json.loads(bytes(new_state.numpy(force=True).tobytes()).decode())
            bit_gen = np.random.PCG64()
            bit_gen.state = state["pcg64"]
        except (ValueError, KeyError, TypeError) as e:
            raise RuntimeError(f"Invalid generator state: {e}") from None
        self._seed = state["seed"]
        self._rng = np.random.Generator(bit_gen)
        return self

    def __repr__(self) -> str:
        return f"<tensorviz.Generator object at {id(self):#x}>"


default_generator = Generator()


def _gen(generator: Generator | None, on: Any = ...) -> np.random.Generator:
    """The NumPy generator to draw from for samples placed ``on`` a tensor or device:
    ``generator``'s, or the default one's; on the meta device a ``MetaRandom``, which draws
    nothing and gives placeholders."""
    if generator is not None and not isinstance(generator, Generator):
        raise TypeError(f"generator must be a tensorviz.Generator, not "
                        f"{type(generator).__name__}")
    if on is not ... and (on.device if isinstance(on, Tensor) else as_device(on)).type \
            == "meta":
        from .backends._meta import MetaRandom
        return MetaRandom()
    return (default_generator if generator is None else generator)._rng


def manual_seed(seed: int) -> Generator:
    """Seed the default generator (and CUDA's, which shares it) for reproducible results."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    return default_generator.get_state()


def set_rng_state(new_state: Tensor) -> None:
    default_generator.set_state(new_state)


def _float_dtype(dtype, kernel: str = "check_uniform_bounds") -> "_dtypes.dtype":
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    if dt.category < _dtypes._FLOAT:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{dt.cname}\'')
    return dt


# C++ type names in PyTorch's randint bounds errors
_C_TYPES = {"bool": "bool", "uint8": "unsigned char", "int8": "signed char",
            "int16": "short int", "int32": "int", "int64": "long int"}


def _check_random_bounds(low: int, high: int, dt) -> None:
    """PyTorch's ``random_(from, to)`` checks: ``from < to``, and both ends fit ``dt``."""
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= "
                           f"to={high}")
    if dt.category == _dtypes._COMPLEX:
        raise RuntimeError("check_random_bounds handles only integral, floating-point and "
                           "boolean types")
    if dt.category <= _dtypes._INT:
        lo, hi = (0, 1) if dt is _dtypes.bool else (builtins.int(np.iinfo(dt._np).min),
                                                      builtins.int(np.iinfo(dt._np).max))
        name = _C_TYPES[dt.name]
        if not lo <= low <= hi:
            raise RuntimeError(f"from is out of bounds for {name}")
        if not lo <= high - 1 <= hi:
            raise RuntimeError(f"to - 1 is out of bounds for {name}")


def _complex_as(values: np.ndarray, dt) -> np.ndarray:
    """Complex samples as the complex dtype ``dt`` (complex32: each part rounded)."""
    return _chalf.narrow(values) if dt is _dtypes.complex32 else values.astype(dt._np)


def _uniform_host(rng, shape, dt) -> np.ndarray:
    if dt.category == _dtypes._COMPLEX:
        real = rng.random((*shape, 2), dtype=np.float64 if dt is _dtypes.complex128
                          else np.float32)
        return _complex_as(real[..., 0] + 1j * real[..., 1], dt)
    if dt in _dtypes.HALVES:
        return rng.random(shape, dtype=np.float32).astype(dt._np)
    return rng.random(shape, dtype=dt._np)


def _normal_host(rng, shape, dt) -> np.ndarray:
    if dt.category == _dtypes._COMPLEX:
        parts = rng.standard_normal((*shape, 2)) * np.sqrt(0.5)
        return _complex_as(parts[..., 0] + 1j * parts[..., 1], dt)
    if dt in _dtypes.HALVES:
        return rng.standard_normal(shape, dtype=np.float32).astype(dt._np)
    return rng.standard_normal(shape, dtype=dt._np)


_NO_SIZE: Any = object()  # (``size=None`` is a TypeError in PyTorch, not "no size given")


def _size_kw(size: tuple, kw, fn: str) -> tuple:
    """Positional sizes, or ``size=`` (a tuple, list or Size only), as PyTorch accepts."""
    if kw is _NO_SIZE:
        return size
    if size:
        raise TypeError(f"{fn}() received an invalid combination of arguments - got sizes "
                        f"both positionally and as size=")
    if not isinstance(kw, (tuple, list, Size)):
        raise TypeError(f"{fn}(): argument 'size' must be tuple of ints, not "
                        f"{type(kw).__name__}")
    return (kw,)


@op(method=False, out="cast")
def rand(*sizes, size=_NO_SIZE, generator: Generator | None = None, dtype=None,
         device: DeviceLike = None, requires_grad: bool = False) -> Tensor:
    """Uniform samples in ``[0, 1)``: ``rand(2, 3)``, ``rand((2, 3))`` or ``rand(size=...)``."""
    shape = _sizes(_size_kw(sizes, size, "rand"), "rand")
    dt = _float_dtype(dtype)
    return _finish(_uniform_host(_gen(generator, device), shape, dt), dt, device,
                   requires_grad)


@op(method=False, out="cast")
def randn(*sizes, size=_NO_SIZE, generator: Generator | None = None, dtype=None,
          device: DeviceLike = None, requires_grad: bool = False) -> Tensor:
    """Standard normal samples (mean 0, variance 1)."""
    shape = _sizes(_size_kw(sizes, size, "randn"), "randn")
    dt = _float_dtype(dtype, "normal_kernel_cpu")
    return _finish(_normal_host(_gen(generator, device), shape, dt), dt, device,
                   requires_grad)


@op(method=False, out="cast")
def randint(low: int = 0, high: int | None = None, size=None, *,
            generator: Generator | None = None, dtype=None, device: DeviceLike = None,
            requires_grad: bool = False) -> Tensor:
    """Integers uniformly drawn from ``[low, high)``: ``randint(high, size)`` or
    ``randint(low, high, size)``; int64 unless ``dtype`` says otherwise."""
    if size is None:
        if high is None:
            raise TypeError("randint() missing required argument 'size'")
        low, high, size = 0, low, high
    elif high is None:
        low, high = 0, low
    if not isinstance(size, (tuple, list, Size)):
        raise TypeError(f"randint(): argument 'size' must be tuple of ints, not "
                        f"{type(size).__name__}")
    shape = _sizes((size,))
    dt = _check_dtype(dtype) or _dtypes.int64
    low, high = _int_arg(low, "low"), _int_arg(high, "high")
    _check_random_bounds(low, high, dt)
    host = _gen(generator, device).integers(low, high, size=shape, dtype=np.int64)
    return _finish(host.astype(dt._np), dt, device, requires_grad)


def _int_arg(v, name: str) -> builtins.int:
    """An integer argument: TypeError for floats, ValueError beyond int64 (as PyTorch)."""
    if isinstance(v, Tensor):
        v = v.item()
    if isinstance(v, (builtins.float, builtins.complex)) or not hasattr(v, "__index__"):
        raise TypeError(f"argument '{name}' must be int, not {type(v).__name__}")
    v = builtins.int(v.__index__())
    if not -(1 << 63) <= v < (1 << 63):
        raise ValueError("Overflow when unpacking long long")
    return v


@op(method=False, out="cast")
def randperm(n: int, *, generator: Generator | None = None, dtype=None,
             device: DeviceLike = None, requires_grad: bool = False) -> Tensor:
    """A random permutation of ``0 .. n-1``."""
    n = _int_arg(n, "n")
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    dt = _check_dtype(dtype) or _dtypes.int64
    if dt is _dtypes.bool or dt.category == _dtypes._COMPLEX:
        raise NotImplementedError(f'"randperm" not implemented for \'{dt.cname}\'')
    if dt.category == _dtypes._INT and n - 1 > np.iinfo(dt._np).max:
        from ._indexing import _C_NAMES
        raise RuntimeError(f"value cannot be converted to type {_C_NAMES[dt.name]} without "
                           "overflow")
    if dt.category == _dtypes._FLOAT:
        digits = _dtypes.np_finfo(dt._np).nmant + 1
        if n > 2 ** digits + 1:
            raise RuntimeError(f"n cannot be greater than 2^{digits}+1 for "
                               f"{dt.cname} type.")
    host = _gen(generator, device).permutation(n).astype(dt._np)
    return _finish(host, dt, device, requires_grad)


@op(method=False, out="cast")
def normal(mean: Any = 0.0, std: Any = 1.0, size=None, *, generator: Generator | None = None,
           dtype=None, device: DeviceLike = None, requires_grad: bool = False) -> Tensor:
    """Normal samples; ``mean``/``std`` may be tensors (broadcast) or numbers with ``size``."""
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        ref = mean if isinstance(mean, Tensor) else std
        rng = _gen(generator, ref.device if device is None else device)
        for t in (mean, std):
            if isinstance(t, Tensor) and t.dtype.category < _dtypes._FLOAT:
                raise NotImplementedError(f'"normal_kernel_cpu" not implemented for '
                                          f"'{t.dtype.cname}'")
        if isinstance(std, Tensor):
            if std.dtype.category == _dtypes._COMPLEX:
                raise RuntimeError("normal expects standard deviation to be non-complex")
            if builtins.bool((std._arr < 0).any()):
                raise RuntimeError("normal expects all elements of std >= 0.0")
        elif std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
        if isinstance(mean, Tensor) and isinstance(std, Tensor):
            from . import _layout
            _layout.broadcast_shapes(mean._shape, std._shape)
        m = _values(mean) if isinstance(mean, Tensor) else mean
        s = _values(std) if isinstance(std, Tensor) else std
        shape = np.broadcast_shapes(np.shape(m), np.shape(s))
        dt = ref.dtype if ref.dtype.category >= _dtypes._FLOAT else _dtypes.get_default_dtype()
        # (a complex mean gets complex noise, std^2 split over the parts, as normal_'s)
        base = _dtypes.complex128 if dt.category == _dtypes._COMPLEX else _dtypes.float64
        host = (m + s * _normal_host(rng, shape, base)).astype(dt._np)
        return _finish(host, dt, ref.device if device is None else device,
                            requires_grad)
    if size is None:
        raise TypeError("normal() received an invalid combination of arguments: with numbers "
                        "for mean and std, give a size")
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    shape = _sizes((size,))
    dt = _float_dtype(dtype)
    rng = _gen(generator, device)
    host = (mean + std * _normal_host(rng, shape, _dtypes.float64)).astype(dt._np)
    return _finish(host, dt, device, requires_grad)


def _values(t: Tensor):
    """``t``'s values on the host; a meta tensor's placeholder (samples drawn from it are
    placeholders too)."""
    return t._arr if t._storage._device.type == "meta" else host_array(t)


def _like(input: Tensor, sample, dtype, device, requires_grad: bool,
          memory_format=None) -> Tensor:
    """``sample(shape, dtype, device)`` laid out like ``input`` in ``memory_format``
    (``preserve_format`` by default)."""
    from ._creation import like_strides
    stride = like_strides(input, memory_format)
    t = sample(input._shape, dtype or input.dtype, device or input.device)
    if stride != t._stride:
        from ._creation import _fill
        r = _fill(input._shape, None, t.dtype, t.device, False, stride)
        r._arr[...] = t._arr  # a fresh tensor: no write to count
        t = r
    if requires_grad:
        t.requires_grad_(True)
    return t


@op(method=False)
def rand_like(input: Tensor, *, dtype=None, device=None, requires_grad=False,
              memory_format=None) -> Tensor:
    return _like(input, lambda sh, dt, dev: rand(*sh, dtype=dt, device=dev), dtype, device,
                 requires_grad, memory_format)


@op(method=False)
def randn_like(input: Tensor, *, dtype=None, device=None, requires_grad=False,
               memory_format=None) -> Tensor:
    return _like(input, lambda sh, dt, dev: randn(*sh, dtype=dt, device=dev), dtype, device,
                 requires_grad, memory_format)


@op(method=False)
def randint_like(input: Tensor, low: int = 0, high: int | None = None, *, dtype=None,
                 device=None, requires_grad=False, memory_format=None) -> Tensor:
    if high is None:
        low, high = 0, low
    return _like(input, lambda sh, dt, dev: randint(low, high, sh, dtype=dt, device=dev),
                 dtype, device, requires_grad, memory_format)
