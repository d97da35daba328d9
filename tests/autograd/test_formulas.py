"""Every op PyTorch differentiates, against PyTorch: the gradient of a sample call (float64
and float32, the five layouts), the ``grad_fn`` name, finite-difference ``gradcheck`` in
float64 (no PyTorch needed for that part), and second derivatives where PyTorch has them.

Which ops PyTorch differentiates, and with which arguments, is asked of PyTorch itself
(``_samples.sample``); ``KNOWN_MISSING`` lists those tensorviz does not differentiate yet,
each checked to still be missing (so the list shrinks as formulas land).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tensorviz

from . import _samples as S
from ._diff import graph_signature

torch = pytest.importorskip("torch")

OPS = S.ops()
DIFF = [(ns, n) for ns, n in OPS if S.sample(ns, n) is not None]

# Ops PyTorch differentiates that tensorviz records no derivative for yet: backward through
# them raises "derivative for aten::X is not implemented" (they never silently give None).
KNOWN_MISSING: frozenset = frozenset()

# PyTorch's own backward fails on these samples (an in-place cumprod_ inside vander):
# nothing to compare the values with.
TORCH_FAILS = frozenset({"vander"})

# Decompositions whose result depends on a choice of sign/phase (eigenvectors, singular
# vectors): compared through a function of the outputs that does not.
def _gauge_free(key: str, outs: list) -> list:
    if key in ("linalg.eigh",):
        return [outs[0], outs[1] * outs[1]]
    if key == "linalg.eig":  # (each eigenvector is defined up to a phase e^{i phi})
        return [outs[0], (outs[1] * outs[1].conj()).real]
    if key in ("svd", "linalg.svd"):
        k = outs[1].shape[-1]  # (the singular vectors beyond min(m, n) are arbitrary)
        u, vh = outs[0][..., :k], outs[2][..., :k, :]
        return [u * u, outs[1], vh * vh]
    return outs


# An expanded matrix repeats its first row: rank one.  The gradients of these there depend
# on rounding-level pivots / singular values / eigenvectors of a degenerate eigenspace (the
# factors of the null space), which two LAPACKs compute differently: nothing to compare.
# (det, slogdet, logdet and the solvers are compared at singular inputs: PyTorch's adjugate
# and LU-solve answers.)
_EXPAND_NOISE = frozenset({"qr", "linalg.qr", "svd", "linalg.svd", "linalg.eig",
                           ("float32", "pinverse"), ("float32", "linalg.cond")})

_SQUARE = frozenset({"spd", "spd,spd", "det", "logdet", "slogdet", "linalg.det", "pinverse",
                     "linalg.slogdet", "triangular_solve", "linalg.solve_triangular",
                     "linalg.cholesky_ex", "linalg.solve_ex", "svd", "linalg.svd"})


def _ids(ops):
    return [S.qual(ns, n) for ns, n in ops]


def _run_both(ns, name, dtype, layout):
    key = S.qual(ns, name)
    _, pat = S.sample(ns, name)
    t_out, t_leaves = S.run(torch, ns, name, pat, dtype, layout)
    v_out, v_leaves = S.run(tensorviz, ns, name, pat, dtype, layout)
    return key, (t_out, t_leaves), (v_out, v_leaves)


def _grads(lib, out, leaves, key, seed=7):
    outs = [o for o in _gauge_free(key, S.float_outputs(out)) if o.requires_grad]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return lib.autograd.grad(outs, leaves, S.seeds(lib, outs, seed), allow_unused=True)


def _assert_close(tg, vg, dtype, key):
    tol = 1e-6 if dtype == "float64" else 2e-3
    for k, (a, b) in enumerate(zip(tg, vg)):
        assert (a is None) == (b is None), f"{key}: input {k}: torch {a} vs tensorviz {b}"
        if a is None:
            continue
        an, bn = S.to_numpy(a), S.to_numpy(b)
        assert an.shape == bn.shape, (key, an.shape, bn.shape)
        np.testing.assert_allclose(bn, an, rtol=tol, atol=tol, err_msg=f"{key} input {k}")


def _raises_same(f_torch, f_tv):
    """Both raise the same exception type and message, or neither raises: returns the
    results (None, None) when both raised."""
    te = ve = None
    try:
        tr = f_torch()
    except Exception as e:  # noqa: BLE001
        te = e
    try:
        vr = f_tv()
    except Exception as e:  # noqa: BLE001
        ve = e
    if te is not None or ve is not None:
        assert type(ve) is type(te), (te, ve)
        assert str(ve).replace("tensorviz.", "torch.") == str(te), (te, ve)
        return None, None
    return tr, vr


def test_op_table_is_broad():
    # (a guard: the sample table finds most of the library's differentiable ops)
    assert len(DIFF) > 250


def test_coverage_is_complete():
    """Every op spelling PyTorch differentiates has a derivative here (331/331 today):
    ``python -m tests.autograd.coverage`` prints the count."""
    from .coverage import coverage
    n, total, missing = coverage()
    assert total == len(DIFF)
    assert sorted(missing) == sorted(KNOWN_MISSING), missing
    assert n == total - len(KNOWN_MISSING)


def test_known_missing_are_differentiated_by_pytorch():
    keys = set(_ids(DIFF))
    assert KNOWN_MISSING <= keys, KNOWN_MISSING - keys



# Ops whose graph below the output differs from PyTorch's on purpose (values agree).
_GRAPH_DIFFERS = {
    "vander": "PyTorch copies into views of a tensor that does not require grad (two "
              "CopySlices, and its own backward fails): tensorviz concatenates",
}


@pytest.mark.parametrize("layout", ["contig", "t", "expand"])
@pytest.mark.parametrize("ns,name", DIFF, ids=_ids(DIFF))
def test_graph_structure(ns, name, layout):
    """``grad_fn`` and the nodes below it (``next_functions``, two levels, with input numbers)
    as PyTorch's, for inputs that are leaves, transposed views and expanded views."""
    key = S.qual(ns, name)
    if key in _GRAPH_DIFFERS:
        pytest.skip(_GRAPH_DIFFERS[key])
    _, pat = S.sample(ns, name)
    try:
        t_out, _ = S.run(torch, ns, name, pat, "float64", layout)
    except Exception:  # noqa: BLE001 (PyTorch refuses this layout: nothing to compare)
        pytest.skip("PyTorch refuses this layout")
    v_out, _ = S.run(tensorviz, ns, name, pat, "float64", layout)
    t_sig = [graph_signature(o.grad_fn) for o in S.float_outputs(t_out)]
    v_sig = [graph_signature(o.grad_fn) for o in S.float_outputs(v_out)]
    assert v_sig == t_sig, key


@pytest.mark.parametrize("ns,name", DIFF, ids=_ids(DIFF))
def test_grad_fn_name(ns, name):
    key, (t_out, _), (v_out, _) = _run_both(ns, name, "float64", "contig")
    t_names = [o.grad_fn.name() if o.grad_fn is not None else None
               for o in S.float_outputs(t_out)]
    v_names = [o.grad_fn.name() if o.grad_fn is not None else None
               for o in S.float_outputs(v_out)]
    if key in KNOWN_MISSING:
        assert all(n in (None, "torch::autograd::NotImplemented") for n in v_names), v_names
        return
    assert v_names == t_names


@pytest.mark.parametrize("layout", S.LAYOUTS)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("ns,name", DIFF, ids=_ids(DIFF))
def test_gradient_matches_pytorch(ns, name, dtype, layout):
    key = S.qual(ns, name)
    if key in KNOWN_MISSING or key in TORCH_FAILS:
        pytest.skip("no derivative in tensorviz yet" if key in KNOWN_MISSING else
                    "PyTorch's own backward fails")
    if layout == "expand" and (key in _EXPAND_NOISE or (dtype, key) in _EXPAND_NOISE):
        pytest.skip("an expanded matrix is rank-deficient: this gradient is rounding noise "
                    "(tests/autograd/test_singular.py compares what is well defined)")
    try:
        key, (t_out, t_leaves), (v_out, v_leaves) = _run_both(ns, name, dtype, layout)
    except Exception as e:  # noqa: BLE001
        if layout != "contig" or dtype != "float64":
            try:
                S.run(torch, ns, name, S.sample(ns, name)[1], dtype, layout)
            except Exception as te:  # noqa: BLE001
                e = te
            else:
                raise
            # (the op refuses this dtype or layout in PyTorch: tensorviz must refuse too)
            # (the call is refused in this dtype or layout -- an expanded matrix is
            # singular -- by PyTorch: tensorviz refuses it with the same kind of error)
            _, pat = S.sample(ns, name)
            with pytest.raises(Exception) as info:
                S.run(tensorviz, ns, name, pat, dtype, layout)
            assert type(info.value).__name__.lstrip("_") == type(e).__name__.lstrip("_")
            return
        raise
    tg, vg = _raises_same(lambda: _grads(torch, t_out, t_leaves, key),
                          lambda: _grads(tensorviz, v_out, v_leaves, key))
    if tg is not None:
        _assert_close(tg, vg, dtype, key)


@pytest.mark.parametrize("ns,name", DIFF, ids=_ids(DIFF))
def test_missing_derivative_raises(ns, name):
    key = S.qual(ns, name)
    if key not in KNOWN_MISSING:
        pytest.skip("has a derivative")
    _, pat = S.sample(ns, name)
    out, leaves = S.run(tensorviz, ns, name, pat, "float64", "contig")
    outs = [o for o in S.float_outputs(out) if o.requires_grad]
    if not outs:
        pytest.fail(f"{key}: results silently do not require grad")
    with pytest.raises(RuntimeError, match="is not implemented"):
        tensorviz.autograd.grad(outs, leaves, S.seeds(tensorviz, outs), allow_unused=True)


# finite differences in float64, in tensorviz alone (no PyTorch in the loop)
_NO_GRADCHECK = KNOWN_MISSING | {
    "floor_divide", "heaviside", "histogram", "unique", "unique_consecutive", "nextafter",
    "special.zeta",
}


_SYM = lambda t: (t + t.mT) / 2  # noqa: E731
_SYMMETRIC = {
    "cholesky": lambda ls: (_SYM(ls[0]),), "linalg.cholesky": lambda ls: (_SYM(ls[0]),),
    "linalg.cholesky_ex": lambda ls: (_SYM(ls[0]),), "linalg.eigh": lambda ls: (_SYM(ls[0]),),
    "linalg.eigvalsh": lambda ls: (_SYM(ls[0]),),
    "cholesky_solve": lambda ls: (ls[0], ls[1].tril()),
}


def _fn_of_leaves(ns, name, pat, key):
    """The op as a function of its leaves (contiguous float64 leaves are the op's inputs)."""
    def build(*leaves):
        if key in _SYMMETRIC:  # (the op reads one triangle: differentiate a symmetric input)
            leaves = _SYMMETRIC[key](leaves)
        it = iter(leaves)
        make = lambda v: next(it)  # noqa: E731
        args = pat(tensorviz, make, S._index(tensorviz))
        out = S.call(S.resolve(tensorviz, ns, name), args)
        outs = _gauge_free(key, S.float_outputs(out))
        return tuple(o for o in outs if o.requires_grad)
    return build


def _leaves(ns, name, pat):
    _, leaves = S.run(tensorviz, ns, name, pat, "float64", "contig")
    return leaves


@pytest.mark.parametrize("ns,name", DIFF, ids=_ids(DIFF))
def test_gradcheck(ns, name):
    key = S.qual(ns, name)
    if key in _NO_GRADCHECK:
        pytest.skip("no derivative to check")
    _, pat = S.sample(ns, name)
    leaves = _leaves(ns, name, pat)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert tensorviz.autograd.gradcheck(_fn_of_leaves(ns, name, pat, key), tuple(leaves),
                                            atol=1e-5, rtol=1e-3)


def _torch_double_backward(ns, name, pat, key):
    """PyTorch's second derivatives of the sample (None where it has none)."""
    out, leaves = S.run(torch, ns, name, pat, "float64", "contig")
    outs = [o for o in _gauge_free(key, S.float_outputs(out)) if o.requires_grad]
    try:
        gs = torch.autograd.grad(outs, leaves, S.seeds(torch, outs), create_graph=True,
                                 allow_unused=True)
        live = [(g, leaf) for g, leaf in zip(gs, leaves) if g is not None and g.requires_grad]
        if not live:
            return None
        return torch.autograd.grad([g for g, _ in live], leaves,
                                   S.seeds(torch, [g for g, _ in live], 11), allow_unused=True)
    except RuntimeError:
        return None


@pytest.mark.parametrize("ns,name", DIFF, ids=_ids(DIFF))
def test_second_derivative_matches_pytorch(ns, name):
    key = S.qual(ns, name)
    if key in _NO_GRADCHECK or key in TORCH_FAILS:
        pytest.skip("no derivative")
    _, pat = S.sample(ns, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = _torch_double_backward(ns, name, pat, key)
    if expected is None:
        pytest.skip("PyTorch has no second derivative here")
    out, leaves = S.run(tensorviz, ns, name, pat, "float64", "contig")
    outs = [o for o in _gauge_free(key, S.float_outputs(out)) if o.requires_grad]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gs = tensorviz.autograd.grad(outs, leaves, S.seeds(tensorviz, outs), create_graph=True,
                                     allow_unused=True)
        live = [g for g in gs if g is not None and g.requires_grad]
        got = tensorviz.autograd.grad(live, leaves, S.seeds(tensorviz, live, 11),
                                      allow_unused=True)
    for k, (e, g) in enumerate(zip(expected, got)):
        # (an unused input: None in one library may be zeros in the other)
        en = np.zeros(tuple(leaves[k].shape)) if e is None else S.to_numpy(e)
        gn = np.zeros(tuple(leaves[k].shape)) if g is None else S.to_numpy(g)
        np.testing.assert_allclose(gn, en, rtol=1e-6, atol=1e-6, err_msg=f"{key} input {k}")


# a sample of ops through gradgradcheck itself (finite differences of the gradient)
_GRADGRAD = ["exp", "sin", "tanh", "sigmoid", "mul", "div", "pow", "matmul", "softmax",
             "log_softmax", "logsumexp", "cumprod", "prod", "norm", "linalg.det", "linalg.inv",
             "std", "var", "atan2", "cdist", "linalg.qr", "qr", "linalg.eigvals", "linalg.lstsq",
             "linalg.cond", "linalg.slogdet"]


@pytest.mark.parametrize("key", _GRADGRAD)
def test_gradgradcheck(key):
    ns, _, name = key.rpartition(".")
    ns = ns or "torch"
    _, pat = S.sample(ns, name)
    leaves = _leaves(ns, name, pat)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert tensorviz.autograd.gradgradcheck(_fn_of_leaves(ns, name, pat, key),
                                                tuple(leaves), atol=1e-4, rtol=1e-3)


# ops PyTorch does not differentiate: their results do not require grad (or the call is
# refused) in tensorviz as in PyTorch
NON_DIFF = [(ns, n) for ns, n in OPS if S.sample(ns, n) is None]


@pytest.mark.parametrize("ns,name", NON_DIFF, ids=_ids(NON_DIFF))
def test_not_differentiated_as_pytorch(ns, name):
    for pname, pat in S.PATTERNS:
        try:
            t_out, _ = S.run(torch, ns, name, pat, "float64", "contig")
        except Exception:  # noqa: BLE001
            continue
        v_out, v_leaves = S.run(tensorviz, ns, name, pat, "float64", "contig")
        t_flags = [o.requires_grad for o in S.float_outputs(t_out)]
        v_flags = [o.requires_grad for o in S.float_outputs(v_out)]
        assert v_flags == t_flags, (pname, t_flags, v_flags)
        t_names = [o.grad_fn.name() if o.grad_fn else None for o in S.float_outputs(t_out)]
        v_names = [o.grad_fn.name() if o.grad_fn else None for o in S.float_outputs(v_out)]
        assert v_names == t_names
        return


# FFTs with complex inputs, sizes (n/s: cropping and zero-padding) and normalisations
FFT_CASES = [
    ("fft", {"n": 6}, (3, 5), True), ("ifft", {"n": 6, "norm": "ortho"}, (3, 5), True),
    ("fft", {"n": 4, "norm": "forward"}, (3, 5), True), ("fft2", {"norm": "ortho"}, (3, 5), False),
    ("ifftn", {"s": (2, 6)}, (3, 5), True), ("ifft", {}, (3, 5), False),
    ("rfft", {"n": 7}, (3, 5), False), ("rfft", {"norm": "ortho"}, (3, 6), False),
    ("rfftn", {}, (3, 4), False), ("rfft2", {"s": (4, 6)}, (3, 5), False),
    ("irfft", {}, (3, 4), True), ("irfft", {"n": 9, "norm": "forward"}, (3, 4), True),
    ("irfft2", {}, (3, 4), True), ("irfftn", {"s": (3, 7)}, (3, 4), True),
    ("hfft", {}, (3, 4), True), ("hfft", {"n": 5, "norm": "ortho"}, (3, 4), False),
    ("ihfft", {}, (3, 6), False), ("ihfft", {"n": 5, "norm": "forward"}, (3, 6), False),
]


@pytest.mark.parametrize("name,kw,shape,complex_in", FFT_CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in FFT_CASES])
def test_fft_options_match_pytorch(name, kw, shape, complex_in):
    rng = np.random.default_rng(0)
    xv = rng.standard_normal(shape) + (1j * rng.standard_normal(shape) if complex_in else 0)
    res = []
    for lib in (torch, tensorviz):
        x = lib.tensor(xv, requires_grad=True)
        y = getattr(lib.fft, name)(x, **kw)
        g = np.random.default_rng(1).standard_normal(tuple(y.shape))
        g = g * (1 + 0.5j) if y.is_complex() else g
        (gx,) = lib.autograd.grad(y, x, lib.tensor(g))
        res.append((y.grad_fn.name(), S.to_numpy(gx)))
    assert res[1][0] == res[0][0]
    np.testing.assert_allclose(res[1][1], res[0][1], rtol=1e-9, atol=1e-12)
