"""The CPU backend: NumPy arrays."""
from __future__ import annotations

import contextvars
from typing import Sequence

import sys

import numpy as np

try:  # NumPy >= 2 keeps its floating-point error state in a context variable
    from numpy._core._multiarray_umath import _extobj_contextvar as _FP_STATE

    with np.errstate(all="ignore"):
        _FP_IGNORE = _FP_STATE.get()
except ImportError:  # pragma: no cover - older NumPy
    _FP_STATE = _FP_IGNORE = None


#: Arrays from this many bytes on are allocated without NumPy's transparent-huge-page advice
#: (``huge_empty``).
HUGE_BYTES = 1 << 30


def huge_empty(n: int, dtype) -> np.ndarray:
    """``np.empty(n, dtype)`` for a result of a gigabyte or more, allocated without NumPy's
    ``madvise(MADV_HUGEPAGE)``: where the kernel compacts memory for huge pages on demand
    (a common default), faulting in 8 GB so took 8-12 s of system time, against PyTorch's
    3-4 s with ordinary pages (``range(1, 2**31)``). Smaller arrays are NumPy's own.

    >>> huge_empty(3, np.float32).shape
    (3,)
    """
    dt = np.dtype(dtype)
    core = getattr(np, "_core", None) or getattr(np, "core", None)
    toggle = getattr(getattr(core, "multiarray", None), "_set_madvise_hugepage", None)
    if toggle is None or n * dt.itemsize < HUGE_BYTES:
        return np.empty(n, dtype=dt)
    was = toggle(False)
    try:
        return np.empty(n, dtype=dt)
    finally:
        toggle(was)


def out_of_memory(nbytes: int) -> RuntimeError:
    """PyTorch's error for an allocation the machine cannot hold (NumPy raises MemoryError)."""
    return RuntimeError(f"DefaultCPUAllocator: can't allocate memory: you tried to allocate "
                        f"{nbytes} bytes. Make the tensor smaller (check its sizes).")


def _too_big(error: ValueError) -> bool:
    """NumPy's ValueError for a shape past the address space ("array is too big",
    "Maximum allowed size exceeded")."""
    text = str(error)
    return "too big" in text or "Maximum allowed" in text


def _allocate(fn, n: int, np_dtype) -> np.ndarray:
    try:
        return fn(n, dtype=np_dtype)
    except MemoryError:
        raise out_of_memory(n * np.dtype(np_dtype).itemsize) from None
    except ValueError as e:  # "array is too big; ..." beyond the address space
        if "too big" in str(e):
            raise RuntimeError(f"Storage size calculation overflowed with sizes=[{n}]") from None
        raise


class NumpyBackend:
    """Computes on NumPy; buffers are 1-D NumPy arrays in host memory."""

    name = "cpu"
    xp = np
    #: Whether the array module's ufuncs have ``accumulate`` (``np.logaddexp.accumulate``).
    ufunc_accumulate = True

    def empty(self, n: int, np_dtype, device=None) -> np.ndarray:
        return _allocate(np.empty, n, np_dtype)

    def zeros(self, n: int, np_dtype, device=None) -> np.ndarray:
        return _allocate(np.zeros, n, np_dtype)

    def strided(self, buf: np.ndarray, offset: int, shape: Sequence[int],
                stride: Sequence[int]) -> np.ndarray:
        """A zero-copy view of ``buf`` (1-D) with element strides; bounds already checked."""
        item = buf.itemsize
        for s in shape:
            if s == 0:  # nothing addressed: NumPy refuses offsets at the very end of a buffer
                return buf[:0].reshape(shape)
        return np.ndarray(shape, buf.dtype, buffer=buf, offset=offset * item,
                          strides=[s * item for s in stride])

    def to_host(self, arr) -> np.ndarray:
        return arr

    def from_host(self, arr: np.ndarray, device=None) -> np.ndarray:
        return arr

    def asarray(self, obj, np_dtype=None, device=None) -> np.ndarray:
        return np.asarray(obj, dtype=np_dtype)

    def data_ptr(self, buf: np.ndarray) -> int:
        return buf.__array_interface__["data"][0]

    def is_array(self, obj) -> bool:
        return isinstance(obj, np.ndarray)

    def synchronize(self) -> None:
        pass

    def quiet(self):
        """Context in which floating-point errors give inf/nan silently, as in PyTorch."""
        return np.errstate(all="ignore")


def _quiet_context():
    """A context whose NumPy floating-point state is "ignore everything" (None on old NumPy).

    Running a call in it (``Context.run``) costs a fraction of setting and resetting NumPy's
    context variable around the call.  # Note: only NumPy's FP state matters inside; the other
    context variables it holds are a snapshot taken at import, which NumPy's ufuncs, BLAS calls
    and array assignments never read.
    """
    if _FP_STATE is None:  # pragma: no cover - older NumPy
        return None
    token = _FP_STATE.set(_FP_IGNORE)
    try:
        return contextvars.copy_context()
    finally:
        _FP_STATE.reset(token)


_QUIET = _quiet_context()
if _QUIET is not None:
    quiet_run = _QUIET.run
else:  # pragma: no cover - older NumPy
    def quiet_run(fn, *args, **kwargs):
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)


def quietly(fn):
    """``fn`` run with NumPy's floating-point warnings off (its infinities and NaNs are the
    answers, as in PyTorch; a warning would be NumPy's internals reaching the user).

    >>> safe_log = quietly(np.log)     # safe_log(np.zeros(1)) -> array([-inf]), no warning
    """
    import functools

    @functools.wraps(fn)
    def run(*args, **kwargs):
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)
    return run


def call_quiet(fn, *args, **kwargs):
    """Call ``fn`` with NumPy's floating-point warnings off (PyTorch gives inf/nan silently).

    Runs ``fn`` in a ready context with NumPy's FP state set to ignore; where that context is
    busy (another thread is in it, or ``fn`` called back into tensorviz), sets NumPy's own
    context variable around the call instead.
    """
    try:
        return quiet_run(fn, *args, **kwargs)
    except RuntimeError as e:
        if not context_busy(e):
            raise
    except MemoryError as e:
        raise out_of_memory(getattr(e, "_total_size", 0)) from None
    except ValueError as e:
        if _too_big(e):
            raise RuntimeError("Storage size calculation overflowed: the result would have "
                               "more elements than memory can address") from None
        raise
    token = _FP_STATE.set(_FP_IGNORE)
    try:
        return fn(*args, **kwargs)
    except MemoryError as e:
        raise out_of_memory(getattr(e, "_total_size", 0)) from None
    finally:
        _FP_STATE.reset(token)


def context_busy(error: RuntimeError) -> bool:
    """Whether ``error`` says the quiet context is already entered (nothing ran yet)."""
    return bool(error.args) and str(error.args[0]).startswith("cannot enter context")


_VELTKAMP = 134217729.0  # (2**27 + 1: splits a float64 into two halves of 26 bits)


def _split(x):
    """Veltkamp's split of float64 ``x`` into halves of 26 bits, ``x == h + l``; an ``x``
    beyond 2**995 (whose product with 2**27 + 1 would overflow) is split scaled down by
    2**30 and scaled back, exactly."""
    big = 2.0 ** 995
    if isinstance(x, (int, float, np.generic)) or not getattr(x, "size", 1):
        large = abs(x) > big
    else:
        large = bool(x.max() > big) or bool(x.min() < -big)  # (reductions: no copies)
    if large:
        with np.errstate(invalid="ignore"):
            scale = np.where(abs(x) > big, 2.0 ** -30, 1.0)
        xs = x * scale
        h = xs * _VELTKAMP
        h = h - (h - xs)
        return h / scale, (xs - h) / scale
    h = x * _VELTKAMP
    h = h - (h - x)
    return h, x - h


def fma_parts(a, b, c):
    """``a * b + c`` for float64 arrays with the product and the sum kept exact (Veltkamp's
    split, Dekker's product, Knuth's sum): ``(r, p, s)`` -- ``r`` rounded once, as a fused
    multiply-add gives it wherever the terms are finite; ``p = a * b`` and ``s = p + c`` as
    rounded, for a caller's own non-finite rule.

    >>> fma_parts(np.array([0.1]), np.array([10.0]), np.array([-1.0]))[0]   # 5.55e-17, not 0
    """
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl      # a*b == p + e exactly
    s = p + c
    bb = s - p
    t = (p - (s - bb)) + (c - bb)                          # p + c == s + t exactly
    return s + (t + e), p, s


def fma(a, b, c):
    """``a * b + c`` rounded once, as a fused multiply-add: float32 through float64 (which
    holds the product of two float32 exactly), float64 by ``fma_parts`` (an exact zero with
    IEEE's sign; an infinite or NaN term gives ``a * b + c``'s own). The one helper of the
    kernels PyTorch fuses: lerp, addcmul, logaddexp2, half erf, MKL's LU updates.

    >>> fma(np.float32(0.1), np.float32(10), np.float32(-1))   # 1.49e-08, not 0
    np.float32(1.4901161e-08)
    """
    if c.dtype == np.float32:
        # The product is exact in float64, the sum rounded there first: where the exact
        # a * b + c lies just off a float32 tie the float64 sum may land on the tie and round
        # the wrong way (3 * -1.6215094e33 - 0.00134). Such sums (the low 29 bits of the
        # float64 a float32 tie's) are moved one float64 step toward the exact one (Knuth's
        # two-sum gives the remainder), breaking the tie as the exact sum does.
        s = np.multiply(a, b, dtype=np.float64)
        if isinstance(s, np.ndarray) and (s.shape == getattr(c, "shape", None) or not
                                          getattr(c, "ndim", 0)):
            np.add(s, c, out=s)
        else:
            s = s + c
        scalar = isinstance(s, np.generic)  # (numbers and 0-d arrays: a number back)
        if scalar:
            s = np.array(s)
        low = s.reshape(-1).view(np.uint32)[0 if sys.byteorder == "little" else 1::2]
        tie = ((low & 0x1FFFFFFF) == 0x10000000).reshape(s.shape)
        if bool(tie.any()):
            pt = np.multiply(np.broadcast_to(a, s.shape)[tie], np.broadcast_to(b, s.shape)[tie],
                             dtype=np.float64)
            ct, st = np.broadcast_to(c, s.shape)[tie], s[tie]
            bb = st - pt
            with np.errstate(invalid="ignore"):
                t = (pt - (st - bb)) + (ct - bb)
                s[tie] = np.where((t != 0) & np.isfinite(t),
                                  np.nextafter(st, np.where(t > 0, np.inf, -np.inf)), st)
        r = s.astype(np.float32)
        return r[()] if scalar else r
    r, p, s = fma_parts(a, b, c)
    # (an exact zero takes IEEE's sign, as a + b rounded gives it: -0 * 1 + -0 is -0; the
    # split's own arithmetic makes it +0)
    r = np.where(r == 0, s, r)
    if bool(np.isfinite(r).all()):
        return r
    with np.errstate(invalid="ignore", over="ignore"):
        terms = np.isfinite(a) & np.isfinite(b)
        over = terms & np.isfinite(c) & ~np.isfinite(p)
        if bool(np.any(over)):  # (a product past the float range: its exact sum may not
            # be, 2 * 1e308 - 1e308; computed scaled down by 2**64, exactly, then back)
            k = 2.0 ** 64
            r = np.where(over, fma_parts(a / k, b, c / k)[0] * k, r)
        # (an infinite c beside a finite exact product is the result: the product is never
        # rounded, so -1e300 * 1e31 + inf is inf, not inf - inf)
        s = np.where(terms & np.isinf(c), c, s)
    # (an infinite or NaN term: a * b + c's own value, inf or nan)
    return np.where(np.isfinite(r), r, s)
