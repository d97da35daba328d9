"""Ops recorded through PyTorch's own decomposition, against PyTorch over their options:
values, gradients and the graph below the output (``next_functions``, two levels), in
float64, from seeded random inputs."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tensorviz

from ._diff import graph_signature

torch = pytest.importorskip("torch")


def _run(lib, fn, values, seed=5, grad=True):
    leaves = [lib.tensor(v, requires_grad=True) if isinstance(v, np.ndarray) and
              v.dtype.kind in "fc" else (lib.tensor(v) if isinstance(v, np.ndarray) else v)
              for v in values]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = fn(lib, *leaves)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    outs = [o for o in outs if isinstance(o, lib.Tensor) and o.requires_grad]
    sig = [graph_signature(o.grad_fn) for o in outs]
    rng = np.random.default_rng(seed)
    seeds = [lib.tensor(rng.uniform(-1, 1, tuple(o.shape)) * (1 + 0.5j if o.is_complex()
                                                               else 1), dtype=o.dtype)
             for o in outs]
    vals = [np.asarray(o.detach().resolve_conj().numpy()) for o in outs]
    ws = [t for t in leaves if isinstance(t, lib.Tensor) and t.requires_grad]
    grads = lib.autograd.grad(outs, ws, seeds, allow_unused=True) if grad and outs else []
    return vals, [None if g is None else np.asarray(g.resolve_conj().numpy()) for g in grads], sig


def _same(fn, *values, rtol=1e-9, atol=1e-10):
    """Both libraries give the same values, gradients and graph -- or the same error."""
    te = ve = None
    try:
        tv_, tg, ts = _run(torch, fn, values)
    except Exception as e:  # noqa: BLE001
        te = e
    try:
        vv, vg, vs = _run(tensorviz, fn, values)
    except Exception as e:  # noqa: BLE001
        ve = e
    if te is not None or ve is not None:
        assert type(ve).__name__.lstrip("_") == type(te).__name__.lstrip("_"), (te, ve)
        assert str(ve).replace("tensorviz.", "torch.") == str(te)
        return
    assert vs == ts
    for a, b in zip(tv_ + tg, vv + vg):
        assert (a is None) == (b is None)
        if a is not None:
            assert a.shape == b.shape
            np.testing.assert_allclose(b, a, rtol=rtol, atol=atol)


RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 5))
X3 = RNG.standard_normal((2, 3, 4))
XN = X.copy()
XN[1, 2] = np.nan


@pytest.mark.parametrize("interp", ["linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("dim,keepdim", [(None, False), (None, True), (0, False), (1, True),
                                         (-1, False)])
@pytest.mark.parametrize("q", [0.3, [0.1, 0.5, 0.9]])
def test_quantile(q, dim, keepdim, interp):
    qq = (lambda L: L.tensor(q, dtype=L.float64)) if isinstance(q, list) else (lambda L: q)
    _same(lambda L, x: L.quantile(x, qq(L), dim, keepdim, interpolation=interp), X)
    _same(lambda L, x: L.nanquantile(x, qq(L), dim, keepdim, interpolation=interp), XN)
    _same(lambda L, x: L.quantile(x, qq(L), dim, keepdim, interpolation=interp), X3)


@pytest.mark.parametrize("edge_order", [1, 2])
@pytest.mark.parametrize("kw", [{}, {"spacing": 2.0}, {"dim": 1}, {"spacing": [0.5], "dim": 0},
                                {"spacing": (0.5, 3), "dim": (0, 1)}, "coords"])
def test_gradient(kw, edge_order):
    if kw == "coords":
        fn = lambda L, x: L.gradient(x, spacing=(L.tensor([0.0, 1.0, 3.0, 4.5]),),  # noqa
                                     dim=1, edge_order=edge_order)
        _same(fn, RNG.standard_normal((3, 4)))
        return
    _same(lambda L, x: L.gradient(x, edge_order=edge_order, **kw), X)


@pytest.mark.parametrize("r", [0, 1, 2, 3, 5])
@pytest.mark.parametrize("rep", [False, True])
def test_combinations(r, rep):
    _same(lambda L, x: L.combinations(x, r, rep), RNG.standard_normal(4))


@pytest.mark.parametrize("n", [-3, -1, 0, 1, 2, 3, 4, 5, 7])
def test_matrix_power(n):
    a = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
    _same(lambda L, x: L.linalg.matrix_power(x, n), a, rtol=1e-8)


@pytest.mark.parametrize("shapes", [((2, 3), (4, 5)), ((3,), (2, 2)), ((2, 1, 3), (3, 2))])
def test_kron(shapes):
    _same(lambda L, a, b: L.kron(a, b), *[RNG.standard_normal(s) for s in shapes])
    _same(lambda L, a, b: L.kron(a.mT, b), *[RNG.standard_normal(s[::-1]) if len(s) == 2
                                              else RNG.standard_normal(s[:-2] + s[:-3:-1])
                                              for s in shapes[:1]] +
          [RNG.standard_normal(shapes[1])])


@pytest.mark.parametrize("N", [None, 2, 5])
def test_linalg_vander(N):
    _same(lambda L, x: L.linalg.vander(x, N=N), RNG.standard_normal((2, 4)))


@pytest.mark.parametrize("fn", ["irfft", "hfft", "irfft2", "irfftn"])
@pytest.mark.parametrize("cplx", [False, True])
def test_c2r_ffts(fn, cplx):
    v = RNG.standard_normal((3, 4)) + (1j * RNG.standard_normal((3, 4)) if cplx else 0)
    _same(lambda L, x: getattr(L.fft, fn)(x), v)


def test_ndtr_corrcoef_ravel_diagflat_meshgrid():
    _same(lambda L, x: L.special.ndtr(x), X)
    _same(lambda L, x: L.corrcoef(x), X)
    _same(lambda L, x: x.mT.ravel(), X)
    _same(lambda L, x: L.diagflat(x.mT, 1), X)
    _same(lambda L, x, y: L.meshgrid(x, y, indexing="xy"), X[0], X[1, :3])


@pytest.mark.parametrize("ord", ["fro", "nuc", 2, -2, 1, -1, float("inf"), float("-inf")])
@pytest.mark.parametrize("dim,keepdim", [((-2, -1), False), ((1, 0), True), ((0, 2), False)])
def test_matrix_norm(ord, dim, keepdim):
    _same(lambda L, x: L.linalg.matrix_norm(x, ord, dim, keepdim), X3, rtol=1e-8)
    if dim == (-2, -1):
        _same(lambda L, x: L.linalg.norm(x, ord, keepdim=keepdim), X, rtol=1e-8)


@pytest.mark.parametrize("p", [None, "fro", "nuc", 1, -1, 2, -2, float("inf"), float("-inf")])
def test_cond(p):
    a = RNG.standard_normal((2, 3, 3))
    _same(lambda L, x: L.linalg.cond(x, p), a, rtol=1e-7)


MATMUL_SHAPES = [((2, 3, 4), (4, 5)), ((2, 3, 4), (4,)), ((4,), (2, 4, 5)), ((2, 3, 4), (2, 4, 5)),
                 ((2, 3, 4), (1, 4, 5)), ((1, 3, 4), (2, 4, 5)), ((3, 4), (2, 4, 5)),
                 ((2, 1, 3, 4), (5, 4, 2)), ((4,), (4, 5)), ((3, 4), (4,)), ((4,), (4,)),
                 ((2, 3, 4), (3, 2, 4, 5)), ((2, 3, 4), (1, 1, 4, 5))]


@pytest.mark.parametrize("grads", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES)
def test_matmul(sa, sb, grads):
    """PyTorch's _matmul_impl branches: fold into mm/mv (always when the smaller operand
    requires grad), squeeze a batch of one, else expand + bmm + _unsafe_view."""
    va, vb = RNG.standard_normal(sa), RNG.standard_normal(sb)

    def fn(L, x, y):
        return x.requires_grad_(grads[0]) @ y.requires_grad_(grads[1])
    _same(lambda L, x, y: fn(L, x.detach(), y.detach()), va, vb)


@pytest.mark.parametrize("expr", ["x.clone().transpose_(0, 1)", "x.clone().t_()",
                                  "x[0:1].clone().squeeze_(0)", "x.clone().squeeze_()",
                                  "x.clone().unsqueeze_(0)", "x.clone().swapaxes_(0, 1)",
                                  "x.H", "x.mT", "x[0] @ x.mT"])
def test_view_op_nodes(expr):
    _same(lambda L, x: eval(expr, {"x": x}), X)


def test_inplace_view_names_whatever_the_import_order():
    # (the in-place spellings are re-installed when tensorviz.nn is imported after the
    # recorder is armed: the node must still say what ran)
    import subprocess
    import sys
    code = ("import tensorviz as tv\n"
            "x = tv.rand(3, 4, requires_grad=True)\n"
            "import tensorviz.nn.functional as F\n"
            "print(F.linear(x[0], x).grad_fn.name(), x.clone().t_().grad_fn.name())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["SqueezeBackward4", "TBackward1"]


# ---------------------------------------------------------------- qr, eig, lstsq: the new formulas
def _mat(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        v = v + 1j * rng.standard_normal(shape)
    return v


def _grads_of(lib, fn, values, dtype, seed=3):
    """Values and gradients of ``fn``'s float outputs for random seeds, in ``dtype``."""
    dt = getattr(lib, dtype)
    leaves = [lib.tensor(v, dtype=dt, requires_grad=True) for v in values]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outs = fn(lib, *leaves)
    outs = [o for o in outs if o.requires_grad]
    rng = np.random.default_rng(seed)
    seeds = [lib.tensor(rng.standard_normal(tuple(o.shape)) + (
        1j * rng.standard_normal(tuple(o.shape)) if o.is_complex() else 0), dtype=o.dtype)
        for o in outs]
    gs = lib.autograd.grad(outs, leaves, seeds, allow_unused=True)
    return ([np.asarray(o.detach().resolve_conj().numpy()) for o in outs],
            [np.asarray(g.resolve_conj().numpy()) for g in gs],
            [o.grad_fn.name() for o in outs])


def _compare(fn, values, dtype):
    """Same values, gradients and node names as PyTorch -- or the same error."""
    tol = 1e-8 if dtype in ("float64", "complex128") else 2e-3
    res = []
    for lib in (torch, tensorviz):
        try:
            res.append(_grads_of(lib, fn, values, dtype))
        except Exception as e:  # noqa: BLE001
            res.append(e)
    if isinstance(res[0], Exception) or isinstance(res[1], Exception):
        assert type(res[1]).__name__.lstrip("_") == type(res[0]).__name__.lstrip("_"), res
        assert str(res[1]) == str(res[0])
        return
    (tv_, tg, tn), (vv, vg, vn) = res
    assert vn == tn
    for a, b in zip(tv_ + tg, vv + vg):
        assert a.shape == b.shape
        np.testing.assert_allclose(b, a, rtol=tol, atol=tol * max(1.0, np.abs(a).max(
            initial=0)))


DTYPES = ["float64", "float32", "complex128"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (3, 3), (2, 4, 2)])
def test_qr(shape, mode, dtype):
    _compare(lambda L, a: tuple(L.linalg.qr(a, mode=mode)), [_mat(shape, dtype)], dtype)


@pytest.mark.parametrize("some", [True, False])
def test_legacy_qr(some):
    _compare(lambda L, a: tuple(L.qr(a, some)), [_mat((3, 4), "float64")], "float64")


def _gauge_free_eig(L, a):
    w, v = L.linalg.eig(a)
    return w, (v * v.conj()).real  # (each eigenvector is defined up to a phase)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(3, 3), (4, 4), (2, 3, 3)])
def test_eig(shape, dtype):
    a = _mat(shape, dtype, seed=1)  # (real inputs with complex-conjugate eigenvalue pairs)
    _compare(_gauge_free_eig, [a], dtype)
    _compare(lambda L, x: (L.linalg.eigvals(x),), [a], dtype)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_eig_phase_dependent_loss_raises_as_pytorch(dtype):
    _compare(lambda L, a: (L.linalg.eig(a)[1],), [_mat((3, 3), dtype, seed=1)], dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("driver", [None, "gelsd", "gels"])
@pytest.mark.parametrize("sa,sb", [((4, 3), (4, 2)), ((3, 3), (3, 2)), ((3, 4), (3, 2)),
                                   ((4, 3), (4,)), ((2, 4, 3), (2, 4, 2)), ((2, 4, 3), (2, 4))])
def test_lstsq(sa, sb, driver, dtype):
    if driver == "gels" and sa[-2] < sa[-1]:
        pytest.skip("gels needs a full-rank tall or square matrix")
    if driver is not None and dtype == "complex128" and driver != "gelsd":
        pytest.skip("(one driver is enough for complex)")
    _compare(lambda L, a, b: tuple(L.linalg.lstsq(a, b, driver=driver)),
             [_mat(sa, dtype), _mat(sb, dtype, 2)], dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("p", [None, 2, -2, "nuc"])
def test_cond_dtypes(p, dtype):
    _compare(lambda L, a: (L.linalg.cond(a, p),), [_mat((2, 3, 3), dtype, 4)], dtype)


@pytest.mark.parametrize("key,fn,shapes", [
    ("qr", lambda x: tuple(tensorviz.linalg.qr(x)), [(4, 3)]),
    ("qr-wide", lambda x: tuple(tensorviz.linalg.qr(x)), [(3, 4)]),
    ("eigvals", lambda x: (tensorviz.linalg.eigvals(x).real,), [(3, 3)]),
    ("eig", lambda x: tuple(o.real for o in _gauge_free_eig(tensorviz, x)), [(3, 3)]),
    ("lstsq", lambda a, b: (tensorviz.linalg.lstsq(a, b)[0],), [(4, 3), (4, 2)]),
    ("lstsq-wide", lambda a, b: (tensorviz.linalg.lstsq(a, b)[0],), [(3, 4), (3, 2)]),
    ("lstsq-res", lambda a, b: tuple(tensorviz.linalg.lstsq(a, b, driver="gelsd")[:2]),
     [(4, 3), (4, 2)]),
    ("cond", lambda x: (tensorviz.linalg.cond(x),), [(3, 4)]),
])
def test_gradcheck_and_gradgradcheck(key, fn, shapes):
    """Finite differences in float64, in tensorviz alone (first and second derivatives)."""
    xs = tuple(tensorviz.tensor(_mat(s, "float64", i + 1), requires_grad=True)
               for i, s in enumerate(shapes))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert tensorviz.autograd.gradcheck(fn, xs, atol=1e-5, rtol=1e-3)
        assert tensorviz.autograd.gradgradcheck(fn, xs, atol=1e-4, rtol=1e-3)


@pytest.mark.parametrize("kw", [{}, {"correction": 0}, {"correction": 4},
                                "fweights", "aweights", "both"])
def test_cov(kw):
    if isinstance(kw, str):
        def fn(L, x):
            fw = L.tensor([1, 2, 1, 3, 1]) if kw in ("fweights", "both") else None
            aw = L.tensor([0.5, 1.0, 2.0, 1.5, 0.2], dtype=L.float64) \
                if kw in ("aweights", "both") else None
            return L.cov(x, fweights=fw, aweights=aw)
    else:
        def fn(L, x):
            return L.cov(x, **kw)
    _same(fn, X)
    _same(lambda L, x: L.cov(x[0]), X)
