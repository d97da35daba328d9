"""Gradients at singular and rank-deficient matrices, against PyTorch.

PyTorch differentiates ``det``, ``slogdet`` and the solvers through the LU factors of their
forward: at a singular matrix the first derivative is 0 (``det``) or inf/nan (``slogdet``,
``solve_ex``) rather than an error, and with ``create_graph=True`` ``det`` switches to an
SVD-based formula (the adjugate) for singular inputs.  Seeded random matrices of given rank,
single and batched (singular and regular ones mixed), float64 and float32.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tensorviz

torch = pytest.importorskip("torch")


def _rank_deficient(seed: int, n: int, rank: int, batch=()) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(batch + (n, rank))
    b = rng.standard_normal(batch + (rank, n))
    return a @ b


def _dup_rows(seed: int, n: int, batch=()) -> np.ndarray:
    """Exactly singular: the last row repeats the first (LU meets an exact zero pivot)."""
    a = np.random.default_rng(seed).standard_normal(batch + (n, n))
    a[..., -1, :] = a[..., 0, :]
    return a


def _np(t):
    return t.detach().cpu().numpy()


def _grad(lib, fn, value, dtype, create_graph=False, seed=3):
    x = lib.tensor(value, dtype=getattr(lib, dtype), requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = fn(lib, x)
        outs = [o for o in (out if isinstance(out, tuple) else (out,))
                if o.requires_grad and o.is_floating_point()]
        rng = np.random.default_rng(seed)
        seeds = [lib.tensor(rng.uniform(-1, 1, tuple(o.shape)), dtype=o.dtype) for o in outs]
        (g,) = lib.autograd.grad(outs, [x], seeds, create_graph=create_graph)
        if not create_graph:
            return _np(g), None
        gg = lib.autograd.grad(g, x, lib.tensor(rng.uniform(-1, 1, tuple(g.shape)),
                                                dtype=g.dtype), allow_unused=True)[0]
        return _np(g), (None if gg is None else _np(gg))


def _close(a, b, dtype, scale=1.0):
    tol = (1e-7 if dtype == "float64" else 1e-3) * scale
    assert a.shape == b.shape
    # (which of inf and nan a zero pivot makes depends on the order of the substitution)
    np.testing.assert_array_equal(np.isfinite(a), np.isfinite(b))
    fin = np.isfinite(a)
    np.testing.assert_allclose(b[fin], a[fin], rtol=tol, atol=tol * max(1.0, np.abs(a[fin]).max(
        initial=0)))


def _same_zero_dets(v, dtype) -> bool:
    dets = [_np(lib.linalg.det(lib.tensor(v, dtype=getattr(lib, dtype))))
            for lib in (torch, tensorviz)]
    return bool(np.array_equal(dets[0] == 0, dets[1] == 0))


OPS = {
    "det": lambda L, x: L.linalg.det(x),
    "torch.det": lambda L, x: L.det(x),
    "slogdet": lambda L, x: L.linalg.slogdet(x),
    "logdet": lambda L, x: L.logdet(x),
    "solve_ex": lambda L, x: L.linalg.solve_ex(x, L.ones(x.shape[-1], 2, dtype=x.dtype))[0],
    "solve_ex_right": lambda L, x: L.linalg.solve_ex(x, L.ones(2, x.shape[-1], dtype=x.dtype),
                                                      left=False)[0],
    "pinv": lambda L, x: L.linalg.pinv(x),
    "matrix_norm_nuc": lambda L, x: L.linalg.matrix_norm(x, "nuc"),
    "svdvals": lambda L, x: L.linalg.svdvals(x),
    "eigvalsh": lambda L, x: L.linalg.eigvalsh(x + x.mT),
}

def _same_rows(seed: int, n: int, batch=()) -> np.ndarray:
    """Rank one, every row the same: both libraries' LU meet exact zero pivots."""
    row = np.random.default_rng(seed).standard_normal(batch + (1, n))
    return np.repeat(row, n, axis=-2)


def _mixed(seed: int) -> np.ndarray:
    """A batch: regular, rank one, zero."""
    rng = np.random.default_rng(seed)
    return np.stack([rng.standard_normal((3, 3)), np.zeros((3, 3)), rng.standard_normal((3, 3)),
                     _zero_line(seed, 3, 0)])


def _zero_line(seed: int, n: int, axis: int) -> np.ndarray:
    """Exactly singular: one zero row (axis 0) or column (axis 1); the LU of A and of A^T
    meet an exact zero pivot in any LAPACK."""
    a = np.random.default_rng(seed).standard_normal((n, n))
    if axis == 0:
        a[1] = 0
    else:
        a[:, 1] = 0
    return a


INPUTS = {
    "same_rows": lambda s: _same_rows(s, 4),
    "zero_row": lambda s: _zero_line(s, 4, 0),
    "zero_col": lambda s: _zero_line(s, 4, 1),
    "mixed_batch": _mixed,
    "dup_rows": lambda s: _dup_rows(s, 4),
    "dup_rows_batch": lambda s: _dup_rows(s, 3, (2,)),
    "rank2of4": lambda s: _rank_deficient(s, 4, 2),
    "rank3of4": lambda s: _rank_deficient(s, 4, 3),
    "zeros": lambda s: np.zeros((3, 3)),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("inp", sorted(INPUTS))
@pytest.mark.parametrize("op", sorted(OPS))
def test_first_derivative_at_singular_matches_pytorch(op, inp, dtype):
    if op in ("pinv", "matrix_norm_nuc", "svdvals") and inp not in ("zeros",):
        # (the singular vectors of a zero singular value are rounding noise in both libraries
        # -- two LAPACKs --: only the zero matrix is comparable)
        pytest.skip("singular subspace is rounding noise")
    if op in ("slogdet", "logdet", "solve_ex", "solve_ex_right", "eigvalsh") and inp not in (
            "zero_row", "zero_col", "zeros", "mixed_batch"):
        # (inf/nan from an exact zero pivot, or 1/rounding from a tiny one, depending on the
        # LAPACK's rounding: only inputs whose LU meets exact zeros in both are comparable;
        # eigvalsh: the eigenvectors of a repeated eigenvalue are any basis of its space)
        pytest.skip("the gradient is 1/rounding noise here")
    for seed in range(3):
        v = INPUTS[inp](seed)
        if op in ("det", "torch.det") and not _same_zero_dets(v, dtype):
            continue  # (one LU met an exact zero pivot, the other a rounding-level one)
        exp, _ = _grad(torch, OPS[op], v, dtype)
        got, _ = _grad(tensorviz, OPS[op], v, dtype)
        # (near-singular inputs divide by rounding-level pivots: compare to their scale)
        scale = 1e3 if inp.startswith("rank") else 1.0
        _close(exp, got, dtype, scale)


def test_det_regular_and_singular_batch_first_and_second_derivative():
    v = np.stack([_zero_line(0, 3, 1), np.random.default_rng(1).standard_normal((3, 3)),
                  _rank_deficient(2, 3, 1), np.zeros((3, 3))])
    for create_graph in (False, True):
        e1, e2 = _grad(torch, OPS["det"], v, "float64", create_graph)
        g1, g2 = _grad(tensorviz, OPS["det"], v, "float64", create_graph)
        _close(e1, g1, "float64")
        if create_graph:
            _close(e2, g2, "float64", 1e2)


@pytest.mark.parametrize("inp", ["dup_rows", "rank3of4", "rank2of4", "zeros"])
def test_det_second_derivative_uses_the_adjugate_at_singular(inp):
    # (PyTorch's SVD-based formula: the gradient is the adjugate, finite at rank n-1)
    for seed in range(3):
        v = INPUTS[inp](seed)
        e1, e2 = _grad(torch, OPS["det"], v, "float64", create_graph=True)
        g1, g2 = _grad(tensorviz, OPS["det"], v, "float64", create_graph=True)
        _close(e1, g1, "float64", 1e2)
        _close(e2, g2, "float64", 1e4)


@pytest.mark.parametrize("op", ["slogdet", "solve_ex"])
def test_create_graph_at_singular_raises_as_pytorch(op):
    v = _zero_line(0, 3, 0)
    errs = []
    for lib in (torch, tensorviz):
        with pytest.raises(Exception) as info:
            _grad(lib, OPS[op], v, "float64", create_graph=True)
        errs.append(info.value)
    assert type(errs[1]).__name__.lstrip("_") == type(errs[0]).__name__.lstrip("_")
    assert str(errs[1]).replace("tensorviz.", "torch.") == str(errs[0])


@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_cholesky_ex_of_a_matrix_that_is_not_positive_definite(upper, dtype):
    """LAPACK's partial factor and info, as PyTorch returns them, and the gradient through
    that factor."""
    rng = np.random.default_rng(0)
    for n in (3, 5, 12):
        m = rng.standard_normal((2, n, n)) + (1j * rng.standard_normal((2, n, n)) * 0.1
                                             if dtype == "complex128" else 0)
        m = m @ np.conj(np.swapaxes(m, -1, -2)) - np.array([0, n / 2])[:, None, None] * np.eye(n)
        res = []
        for lib in (torch, tensorviz):
            x = lib.tensor(m, requires_grad=True)
            L, info = lib.linalg.cholesky_ex(x, upper=upper)
            seed = lib.tensor(np.tril(np.ones((n, n))) if not upper else np.triu(np.ones((n, n))),
                              dtype=L.dtype)
            (g,) = lib.autograd.grad(L, x, seed.expand(L.shape))
            res.append((_np(L), info.tolist(), _np(g.resolve_conj())))
        assert res[1][1] == res[0][1]
        np.testing.assert_allclose(res[1][0], res[0][0], rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(res[1][2], res[0][2], rtol=1e-6, atol=1e-6)
