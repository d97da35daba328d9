"""The optimizers' fast path: PyTorch's update formulas on the tensors' own arrays.

Each update is a handful of elementwise in-place ops per parameter; run as tensor ops they
would pay dispatch, type promotion and autograd bookkeeping each time, many times per
training batch. Here they run as NumPy ufuncs (CuPy arrays dispatch through the same
ufuncs) writing straight into the parameters' and state's storage, in PyTorch's order,
with every tensor's version counter bumped once per in-place op PyTorch would run, so
autograd's saved-tensor checks and the widgets see the writes as they would PyTorch's.
The tensor-op path stays for ``differentiable=True`` (a step that records a graph) and
for complex parameters.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from .._tensor import Tensor, wrap_array
from ..backends._numpy import call_quiet, fma_parts


def silent(kernel):
    """Run ``kernel`` with NumPy's floating-point warnings off: a diverging run reaches inf
    and nan silently, as PyTorch's does (no RuntimeWarning from an overflow or a sqrt)."""
    import functools

    @functools.wraps(kernel)
    def run(*args, **kwargs):
        # (in a ready context whose FP state ignores everything: a fraction of the cost of
        # np.errstate's enter and exit, which showed in every step of a small model)
        return call_quiet(kernel, *args, **kwargs)

    return run


def usable(tensor_lists: Iterable[list], differentiable: bool = False) -> bool:
    """True when every tensor is a real floating tensor the array path can update."""
    if differentiable:
        return False
    for tensors in tensor_lists:
        for t in tensors:
            if t is None:
                continue
            if not t.is_floating_point():
                return False
    return True


def arr(t: Tensor):
    """The writable strided array view of ``t`` (NumPy or CuPy)."""
    return t._arr


def bump(t: Tensor, times: int = 1) -> None:
    """Count ``times`` in-place writes on ``t`` (what PyTorch's ops would count)."""
    for _ in range(times):
        t._bump()


def new_tensor(a, like: Tensor) -> Tensor:
    """A fresh tensor owning the array ``a`` (dtype and device of ``like``)."""
    return wrap_array(a, like.dtype, like.device)


def scalar(x):
    """A hyperparameter as a Python number (0-d tensors read once)."""
    return x.item() if isinstance(x, Tensor) else x


def lerp_(a, end, weight: float) -> None:
    """``a += weight * (end - a)`` in place, as ATen's lerp: from ``end``'s side when the
    weight is 0.5 or more (keeps the result exact at weight 1)."""
    diff = end - a
    if abs(weight) < 0.5:
        muladd_(a, weight, diff)
    else:
        if _single_rounding(a):
            weight = np.float32(weight)
        elif isinstance(a, np.ndarray):
            weight = np.float64(weight)
        a[...] = muladd(end, weight - 1, diff)


def bump_step(step_t: Tensor) -> float:
    """``step_t += 1`` on a 0-d step counter; its new value as a Python float."""
    s = step_t._arr
    s += 1
    step_t._bump()
    return float(s)


def _single_rounding(x) -> bool:
    # float32 NumPy data: a product of two float32 is exact in float64, so float64 arithmetic
    # rounded once to float32 reproduces a fused multiply-add (bar double-rounding ties).
    return getattr(x, "dtype", None) == np.float32 and isinstance(x, (np.ndarray, np.generic))


def _fma64(c, a, b):
    """``c + a * b`` in float64 with the product and the sum kept exact (Dekker's product
    and Knuth's sum), rounded once at the end; non-finite results fall back to ``c + a*b``."""
    r, p, _ = fma_parts(a, b, c)
    ok = np.isfinite(r)
    if np.all(ok):
        return r
    # Non-finite: IEEE's fma. A product that overflowed is exact in a real fma, so an
    # infinite c wins over it (c + a*b would give inf - inf = nan).
    naive = np.where(np.isinf(p) & np.isfinite(a) & np.isfinite(b) & np.isfinite(c),
                     p, np.where(np.isinf(p) & np.isfinite(a) & np.isfinite(b), c, c + a * b))
    return np.where(ok, r, naive)


def _f32(x):
    return x if hasattr(x, "dtype") else np.float32(x)


def muladd(c, a, b):
    """``c + a * b`` as ATen's vectorised kernels compute it: one fused multiply-add, one
    rounding (``add(alpha=)``, ``addcmul``, ``lerp``). Scalars are rounded to the
    tensor's dtype first, as ATen casts them. CuPy data: ``c + a * b``."""
    dt = getattr(c, "dtype", None)
    if dt == np.float32 and isinstance(c, (np.ndarray, np.generic)):
        wide = np.multiply(_f32(a), _f32(b), dtype=np.float64)
        wide += c
        return wide.astype(np.float32) if type(wide) is np.ndarray else np.float32(wide)
    if dt == np.float64 and isinstance(c, (np.ndarray, np.generic)):
        return _fma64(c, a, b)
    return c + a * b


def muladd_(c, a, b) -> None:
    """``c = c + a * b`` in place (``c`` an array), with ``muladd``'s rounding."""
    if type(c) is np.ndarray:
        dt = c.dtype
        if type(b) in (int, float) and b == 1 and type(a) is np.ndarray and a.dtype == dt \
                and dt in (np.float32, np.float64):
            # (a * 1 is exact, and one rounding of the sum to float32 is what the float64
            # sum rounded to float32 gives: 53 >= 2 * 24 + 2 bits)
            c += a
            return
        if dt == np.float32:
            wide = np.multiply(_f32(a), _f32(b), dtype=np.float64)
            wide += c
            np.copyto(c, wide, casting="unsafe")   # the one rounding to float32
            return
        if dt == np.float64:
            np.copyto(c, _fma64(c, a, b))
            return
    c += a * b


def scaled(x, value: float):
    """``value * x`` in ``x``'s dtype (``addcmul``'s ``value * tensor1``)."""
    return x * value
