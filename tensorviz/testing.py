"""``tensorviz.testing.assert_close``: PyTorch's closeness assertion, for exercises and tests.

    >>> import tensorviz as torch
    >>> torch.testing.assert_close(torch.tensor([1., 2.]), torch.tensor([1., 2.000001]))
    >>> torch.testing.assert_close(torch.tensor([1., 2.]), torch.tensor([1., 3.]))
    AssertionError: Tensor-likes are not close! ...

Tolerances default by dtype as PyTorch's (float32: ``rtol=1.3e-6, atol=1e-5``; integers and
bools: exact); shapes and dtypes must match; NaNs compare equal only with ``equal_nan=True``.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["assert_close", "assert_allclose"]

# (rtol, atol) by dtype name, as torch.testing's defaults.
_TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7),
               "complex64": (1.3e-6, 1e-5), "complex128": (1e-7, 1e-7)}


def _fail(msg, default: str, where: str) -> None:
    if msg is not None:
        raise AssertionError(msg if isinstance(msg, str) else msg(default))
    raise AssertionError(default + (f"\n\nThe failure occurred for item {where}" if where
                                    else ""))


def _compare_tensors(actual, expected, rtol, atol, equal_nan, check_dtype, msg, where):
    from ._tensor import Tensor
    if not isinstance(expected, Tensor):
        raise TypeError(f"No comparison pair was able to handle inputs of type {type(actual)} "
                        f"and {type(expected)}.")
    if actual.shape != expected.shape:
        _fail(msg, f"The values for attribute 'shape' do not match: {actual.shape} != "
              f"{expected.shape}.", where)
    if check_dtype and actual.dtype != expected.dtype:
        _fail(msg, f"The values for attribute 'dtype' do not match: {actual.dtype} != "
              f"{expected.dtype}.", where)
    if rtol is None:
        r1, a1 = _TOLERANCES.get(actual.dtype.name, (0.0, 0.0))
        r2, a2 = _TOLERANCES.get(expected.dtype.name, (0.0, 0.0))
        rtol, atol = max(r1, r2), max(a1, a2)
    from ._tensor import host_array
    a, e = host_array(actual), host_array(expected)
    exact = rtol == 0 and atol == 0
    if a.dtype == np.bool_ or e.dtype == np.bool_:
        a, e = a.astype(np.int64), e.astype(np.int64)
    with np.errstate(all="ignore"):
        if exact and a.dtype.kind in "iub" and e.dtype.kind in "iub":
            ok = a == e
        else:
            ok = np.isclose(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if ok.all():
        return
    ct = np.result_type(a, e)
    if ct.kind not in "fc":
        ct = np.dtype(np.float32)  # (integers: differences in the default float dtype)
    with np.errstate(all="ignore"):
        diff = np.abs(a.astype(ct) - e.astype(ct))
        rel = diff / np.abs(e.astype(ct))
    if not a.shape:  # 0-dim tensors read as scalars, as PyTorch words it
        _fail(msg, f"Scalars are not close!\n\nExpected {e.item()} but got {a.item()}.\n"
              f"Absolute difference: {diff.item()} (up to {atol} allowed)\n"
              f"Relative difference: {rel.item()} (up to {rtol} allowed)", where)
    diff = np.where(ok, 0, diff)
    rel = np.where(ok, 0, rel)
    mism = int((~ok).sum())
    total = ok.size

    def worst(arr):
        arr = np.abs(arr).astype(np.float64)
        flat = int(np.nanargmax(arr)) if not np.isnan(arr).all() else 0
        nan_at = np.flatnonzero(np.isnan(arr))
        if len(nan_at):
            flat = int(nan_at[0])
        idx = tuple(int(i) for i in np.unravel_index(flat, arr.shape)) if arr.shape else ()
        return arr.reshape(-1)[flat] if arr.size else 0.0, idx

    d, di = worst(diff)
    r, ri = worst(rel)
    is_int = exact and a.dtype.kind in "iu"
    dtext = f"{int(d)}" if is_int and math.isfinite(d) else f"{d}"
    word = "equal" if exact else "close"
    lines = [f"Tensor-likes are not {word}!", "",
             f"Mismatched elements: {mism} / {total} ({100 * mism / total:.1f}%)"]
    if exact:
        lines += [f"Greatest absolute difference: {dtext} at index {di}",
                  f"Greatest relative difference: {r} at index {ri}"]
    else:
        lines += [f"Greatest absolute difference: {dtext} at index {di} (up to {atol} allowed)",
                  f"Greatest relative difference: {r} at index {ri} (up to {rtol} allowed)"]
    _fail(msg, "\n".join(lines), where)


def _compare(actual, expected, rtol, atol, equal_nan, check_dtype, msg, where):
    from ._tensor import Tensor
    if isinstance(actual, Tensor):
        return _compare_tensors(actual, expected, rtol, atol, equal_nan, check_dtype, msg,
                                where)
    if isinstance(actual, (list, tuple)) and isinstance(expected, (list, tuple)):
        if len(actual) != len(expected):
            _fail(msg, f"The length of the sequences mismatch: {len(actual)} != "
                  f"{len(expected)}", where)
        for i, (x, y) in enumerate(zip(actual, expected)):
            _compare(x, y, rtol, atol, equal_nan, check_dtype, msg, f"{where}[{i}]")
        return
    if isinstance(actual, dict) and isinstance(expected, dict):
        if set(actual) != set(expected):
            _fail(msg, "The keys of the mappings do not match", where)
        for k in actual:
            _compare(actual[k], expected[k], rtol, atol, equal_nan, check_dtype, msg,
                     f"{where}[{k!r}]")
        return
    if isinstance(actual, (bool, int, float, complex)) and \
            isinstance(expected, (bool, int, float, complex)):
        if check_dtype and type(actual) is not type(expected):
            _fail(msg, f"The values for attribute 'dtype' do not match: {type(actual)} != "
                  f"{type(expected)}.", where)
        if rtol is None:
            rtol, atol = ((0.0, 0.0) if isinstance(actual, (bool, int)) else (1.3e-6, 1e-5)) \
                if not isinstance(actual, float) else (1e-7, 1e-7)
        if actual == expected or (equal_nan and actual != actual and expected != expected):
            return
        d = abs(actual - expected)
        if isinstance(d, float) and d <= atol + rtol * abs(expected):
            return
        rel = d / abs(expected) if expected else math.inf
        _fail(msg, f"Scalars are not close!\n\nExpected {expected} but got {actual}.\n"
              f"Absolute difference: {d} (up to {atol} allowed)\n"
              f"Relative difference: {rel} (up to {rtol} allowed)", where)
        return
    raise TypeError(f"No comparison pair was able to handle inputs of type {type(actual)} and "
                    f"{type(expected)}.")


def assert_close(actual: Any, expected: Any, *, allow_subclasses: bool = True,
                 rtol: float | None = None, atol: float | None = None,
                 equal_nan: bool = False, check_device: bool = True, check_dtype: bool = True,
                 check_layout: bool = True, check_stride: bool = False, msg=None) -> None:
    """Raise AssertionError (saying where and by how much) unless ``actual`` and ``expected``
    are close: ``|actual - expected| <= atol + rtol * |expected|`` elementwise, same shape
    and dtype. Tensors, numbers, and lists/tuples/dicts of them.

    Example: ``assert_close(torch.tensor([1., 2.]), torch.tensor([1., 2.]))`` passes.
    """
    if (rtol is None) != (atol is None):
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, but got "
                         f"no {'rtol' if rtol is None else 'atol'}.")
    if check_stride:
        from ._tensor import Tensor
        if isinstance(actual, Tensor) and isinstance(expected, Tensor) and \
                actual.stride() != expected.stride():
            _fail(msg, f"The values for attribute 'stride()' do not match: {actual.stride()} "
                  f"!= {expected.stride()}.", "")
    _compare(actual, expected, rtol, atol, equal_nan, check_dtype, msg, "")


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg="") -> None:
    """The deprecated form of ``assert_close`` (dtypes not checked, NaNs equal)."""
    from ._tensor import Tensor
    from ._creation import tensor
    if not isinstance(actual, Tensor):
        actual = tensor(actual)
    if not isinstance(expected, Tensor):
        expected = tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        rtol, atol = _TOLERANCES.get(actual.dtype.name, (0.0, 0.0))
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan,
                 check_dtype=False, msg=msg or None)
