"""Differential tests of the special functions (lgamma, digamma, polygamma, erfinv, i0,
mvlgamma and the ``tensorviz.special`` namespace) and of dist, renorm, gradient,
cholesky_solve and triangular_solve."""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz
import tensorviz.special  # noqa: F401 - the submodule, imported as a user would

from .conftest import FLOAT_DTYPES, LAYOUTS, REAL_DTYPES

POLES = [0.0, -0.0, -1.0, -2.0, -3.0, -2.5, -0.5, 0.5, 1.0, 2.0, 1.5, 10.0, 11.0, 1e-30,
         1e-8, 30.5, 171.5, 1e10, 1e30, -1e10, -1e20, float("inf"), float("-inf"),
         float("nan"), 5e-324, 1e-300, 1e300, -1e300, 3.4e38, -7.25, 90.0, 700.0]
UNIT = [-1.0, 1.0, -0.999999, 0.999999, 0.5, -0.5, 0.7, -0.7, 0.71, 1e-20, -1e-300, 0.0, -0.0,
        1.5, -1.01, float("nan"), float("inf"), 0.9999999999, 1 - 2 ** -52, -(1 - 2 ** -53)]

UNARY = {
    "lgamma": lambda lib, x: lib.lgamma(x),
    "digamma": lambda lib, x: lib.digamma(x),
    "polygamma1": lambda lib, x: lib.polygamma(1, x),
    "polygamma2": lambda lib, x: lib.polygamma(2, x),
    "polygamma3": lambda lib, x: lib.polygamma(3, x),
    "polygamma0": lambda lib, x: lib.polygamma(0, x),
    "erfinv": lambda lib, x: lib.erfinv(x),
    "i0": lambda lib, x: lib.i0(x),
    "mvlgamma1": lambda lib, x: lib.mvlgamma(x, 1),
    "mvlgamma3": lambda lib, x: lib.mvlgamma(x, 3),
}
METHOD = {
    "lgamma": lambda x: x.lgamma(), "digamma": lambda x: x.digamma(),
    "polygamma1": lambda x: x.polygamma(1), "polygamma2": lambda x: x.polygamma(2),
    "polygamma3": lambda x: x.polygamma(3), "polygamma0": lambda x: x.polygamma(0),
    "erfinv": lambda x: x.erfinv(), "i0": lambda x: x.i0(),
    "mvlgamma1": lambda x: x.mvlgamma(1), "mvlgamma3": lambda x: x.mvlgamma(p=3),
}
INPLACE = {
    "lgamma": lambda x: x.lgamma_(), "digamma": lambda x: x.digamma_(),
    "polygamma1": lambda x: x.polygamma_(1), "polygamma2": lambda x: x.polygamma_(2),
    "polygamma3": lambda x: x.polygamma_(3), "polygamma0": lambda x: x.polygamma_(0),
    "erfinv": lambda x: x.erfinv_(), "i0": lambda x: x.i0_(),
    "mvlgamma1": lambda x: x.mvlgamma_(1), "mvlgamma3": lambda x: x.mvlgamma_(3),
}


def _range(op):
    return (-1.2, 1.2) if op == "erfinv" else (-6.0, 8.0)


def test_names_exist_where_pytorch_has_them(tvdiff):
    torch = tvdiff.torch
    for name in ("lgamma", "digamma", "polygamma", "erfinv", "i0", "i0_", "mvlgamma", "dist",
                 "renorm", "gradient", "cholesky_solve", "triangular_solve"):
        assert hasattr(torch, name) and hasattr(tensorviz, name), name
    for name in ("lgamma", "digamma", "polygamma", "erfinv", "i0", "mvlgamma", "lgamma_",
                 "digamma_", "polygamma_", "erfinv_", "i0_", "mvlgamma_", "dist", "renorm",
                 "renorm_", "cholesky_solve", "triangular_solve"):
        assert hasattr(torch.Tensor, name) and hasattr(tensorviz.Tensor, name), name
    for name in tensorviz.special.__all__:
        assert hasattr(torch.special, name), name


@pytest.mark.parametrize("dtype", REAL_DTYPES + ("complex64",))
@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_dtypes(tvdiff, op, dtype):
    lo, hi = _range(op)
    for layout in LAYOUTS:
        t = tvdiff.make((3, 4), dtype, layout, special=dtype in FLOAT_DTYPES, low=lo, high=hi)
        tvdiff.check(UNARY[op], t, fresh=True)
    t = tvdiff.make((3, 4), dtype, "t", low=lo, high=hi)
    tvdiff.check(lambda lib, x: METHOD[op](x), t)
    tvdiff.check(lambda lib, x: METHOD[op](x).stride(), t)
    tvdiff.check(lambda lib, x: INPLACE[op](x.clone()), t)
    tvdiff.check(lambda lib, x: INPLACE[op](x[:, ::2]), t)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_special_values(tvdiff, op, dtype):
    data = np.array(UNIT if op == "erfinv" else POLES)
    with np.errstate(all="ignore"):
        t = tvdiff.make(data.shape, dtype, data=np.asarray(data).astype(dtype))
    tvdiff.check(UNARY[op], t)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_dense_sweep(tvdiff, op, dtype):
    rng = np.random.default_rng(7)
    if op == "erfinv":
        data = np.concatenate([rng.uniform(-1, 1, 3000), 1 - 10 ** rng.uniform(-16, -1, 500),
                               10 ** rng.uniform(-30, 0, 500)])
    else:
        data = np.concatenate([rng.uniform(-40, 40, 3000), 10 ** rng.uniform(-20, 2.3, 1000),
                               -(10 ** rng.uniform(-20, 2.3, 1000))])
    t = tvdiff.make(data.shape, dtype, data=data.astype(dtype))
    tvdiff.check(UNARY[op], t)


@pytest.mark.parametrize("case", ["out", "out_int", "out_resize", "poly_neg", "poly_float_n",
                                  "mv_p0", "mv_float_p", "not_tensor", "poly_big_n",
                                  "mv_small", "int_scalar", "zero_dim", "empty"])
def test_errors_and_edges(tvdiff, case):
    def f(lib):
        x = lib.tensor([0.5, 1.5, -2.5, 3.0])
        if case == "out":
            o = lib.empty(4, dtype=lib.float64)
            return lib.lgamma(x.double(), out=o), lib.polygamma(2, x, out=lib.empty(4)), \
                lib.erfinv(x / 4, out=lib.empty(4)), lib.i0(x, out=lib.empty(4)), \
                lib.digamma(x, out=lib.empty(4)), lib.mvlgamma(x + 2, 2, out=lib.empty(4)), o
        if case == "out_int":
            return lib.lgamma(x, out=lib.empty(4, dtype=lib.int64))
        if case == "out_resize":
            return lib.digamma(x, out=lib.empty(2))
        if case == "poly_neg":
            return lib.polygamma(-1, x)
        if case == "poly_float_n":
            return lib.polygamma(1.0, x)
        if case == "mv_p0":
            return lib.mvlgamma(x, 0)
        if case == "mv_float_p":
            return lib.mvlgamma(x, 2.0)
        if case == "not_tensor":
            return lib.lgamma([1.0])
        if case == "poly_big_n":
            return lib.polygamma(40, lib.tensor([0.5, 3.0, 100.0], dtype=lib.float64)), \
                lib.polygamma(12, lib.tensor([0.5, 3.0, 100.0]))
        if case == "mv_small":
            return lib.mvlgamma(lib.tensor([0.2, 5.0]), 3)
        if case == "int_scalar":
            return lib.lgamma(lib.tensor(3)), lib.i0(lib.tensor(True)), \
                lib.polygamma(1, lib.tensor([1, 2], dtype=lib.uint8))
        if case == "zero_dim":
            return lib.digamma(lib.tensor(-0.0)), lib.erfinv(lib.tensor(-1.0))
        return lib.lgamma(lib.empty(0, 3)), lib.polygamma(3, lib.empty(0))
    tvdiff.check(f)


# ---------------------------------------------------------------- torch.special
SPECIAL_UNARY = ["erf", "erfc", "erfcx", "erfinv", "expit", "gammaln", "digamma", "psi", "i0",
                 "i0e", "i1", "i1e", "sinc", "round", "log1p", "expm1", "exp2", "entr",
                 "ndtr", "ndtri", "log_ndtr"]


@pytest.mark.parametrize("dtype", REAL_DTYPES + ("complex64",))
@pytest.mark.parametrize("name", SPECIAL_UNARY)
def test_special_unary(tvdiff, name, dtype):
    lo, hi = {"ndtri": (-0.1, 1.1), "erfinv": (-1.1, 1.1)}.get(name, (-8.0, 8.0))
    for layout in ("contig", "step"):
        t = tvdiff.make((3, 4), dtype, layout, special=dtype in FLOAT_DTYPES, low=lo, high=hi)
        tvdiff.check(lambda lib, x: getattr(lib.special, name)(x), t)
    if dtype not in ("float16", "complex64"):  # (out= of the result's own precision)
        t = tvdiff.make((4,), dtype, low=lo, high=hi)
        tvdiff.check(lambda lib, x: getattr(lib.special, name)(x, out=lib.empty(4)), t)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["erfcx", "i0e", "i1", "i1e", "ndtr", "ndtri", "log_ndtr",
                                  "entr"])
def test_special_sweep(tvdiff, name, dtype):
    rng = np.random.default_rng(11)
    if name == "ndtri":
        data = np.concatenate([rng.uniform(0, 1, 2000), 10 ** rng.uniform(-300, 0, 500),
                               1 - 10 ** rng.uniform(-16, 0, 500), [0, 1, -0.5, 2, np.nan]])
    else:
        data = np.concatenate([rng.uniform(-40, 40, 2000), 10 ** rng.uniform(-30, 30, 500),
                               -(10 ** rng.uniform(-30, 30, 500)),
                               [0, -0.0, np.inf, -np.inf, np.nan, 700, 710, -30, -27, 26]])
    with np.errstate(all="ignore"):
        t = tvdiff.make(data.shape, dtype, data=data.astype(dtype))
    tvdiff.check(lambda lib, x: getattr(lib.special, name)(x), t)


@pytest.mark.parametrize("case", ["logit", "logit_eps", "xlogy", "xlog1py", "xlog1py_scalar",
                                  "zeta", "zeta_scalar", "zeta_half", "polygamma",
                                  "multigammaln", "softmax", "log_softmax", "softmax_dtype",
                                  "logsumexp", "round_decimals", "xlog1py_int"])
def test_special_others(tvdiff, case):
    def f(lib):
        x = lib.tensor([[0.0, 0.25, -1.0], [2.0, float("nan"), 0.9]])
        y = lib.tensor([[-1.0, 0.5, float("nan")], [-0.5, 3.0, 1e-20]])
        s = lib.special
        if case == "logit":
            return s.logit(x)
        if case == "logit_eps":
            return s.logit(x, eps=1e-3)
        if case == "xlogy":
            return s.xlogy(x, y)
        if case == "xlog1py":
            return s.xlog1py(x, y), s.xlog1py(x, y, out=lib.empty(2, 3, dtype=lib.float64))
        if case == "xlog1py_scalar":
            return s.xlog1py(2, y), s.xlog1py(x, 0.5)
        if case == "xlog1py_int":
            return s.xlog1py(lib.tensor([0, 1, 2]), lib.tensor([-1, 0, 3]))
        if case == "zeta":
            q = lib.tensor([1.0, 0.5, -1.0, -1.5, 10.0, float("inf"), 0.0, 1e-5])
            xs = lib.tensor([2.0, 3.0, 1.0, 0.5, 4.5, 2.0, 2.0, 7.0])
            return s.zeta(xs, q), s.zeta(xs.double(), q.double())
        if case == "zeta_scalar":
            return s.zeta(2.0, lib.tensor([1.0, 2.0, 3.5])), \
                s.zeta(lib.tensor([2, 3]), 1)
        if case == "zeta_half":
            return s.zeta(x.half(), y.half())
        if case == "polygamma":
            return s.polygamma(2, x), s.polygamma(1, y)
        if case == "multigammaln":
            return s.multigammaln(x + 3, 2)
        if case == "softmax":
            return s.softmax(x, 1), s.softmax(y, dim=0)
        if case == "log_softmax":
            return s.log_softmax(y, 1)
        if case == "softmax_dtype":
            return s.softmax(x, 0, dtype=lib.float64), s.log_softmax(x, 1, dtype=lib.float64)
        if case == "logsumexp":
            return s.logsumexp(y, 1), s.logsumexp(y, (0, 1), keepdim=True)
        return s.round(x * 10.3, decimals=1)
    tvdiff.check(f)


def test_special_module_import():
    from tensorviz import special
    assert special is tensorviz.special
    assert special.gammaln is tensorviz.lgamma and special.psi is tensorviz.digamma


# ---------------------------------------------------------------- dist / renorm / gradient
@pytest.mark.parametrize("p", [2, 1, 0, 3.5, float("inf"), float("-inf"), 0.5])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64"])
def test_dist(tvdiff, p, dtype):
    a = tvdiff.make((3, 4), dtype, "t", seed=1)
    b = tvdiff.make((4,), dtype, seed=2)
    tvdiff.check(lambda lib, x, y: lib.dist(x, y, p), a, b)
    tvdiff.check(lambda lib, x, y: x.dist(y, p=p), a, b)


@pytest.mark.parametrize("dtypes", [("float16", "complex128"), ("float16", "complex64"),
                                    ("bfloat16", "complex64"), ("complex64", "float16")])
@pytest.mark.parametrize("other_dims", [0, 1])
def test_dist_of_a_half_and_a_complex_tensor(tvdiff, dtypes, other_dims):
    """A float16 tensor and a complex 0-dim tensor differ in complex32, whose norm is
    float16; a bfloat16 one, or a complex tensor with dims, gives float32."""
    a = tvdiff.make((3,), "float32" if dtypes[0] == "bfloat16" else dtypes[0], seed=1)
    b = tvdiff.make((3,) if other_dims else (), dtypes[1], seed=2)
    for p in (2, 1, float("inf")):  # (no warning: PyTorch's says its complex32 is experimental)
        tvdiff.check(lambda lib, x, y: lib.dist(x.to(getattr(lib, dtypes[0])), y, p), a, b,
                     rtol=4e-3, atol=4e-3, warns=False)


@pytest.mark.parametrize("case", ["int", "mixed", "bad_shape", "tensor_p", "special"])
def test_dist_edges(tvdiff, case):
    def f(lib):
        if case == "int":
            return lib.dist(lib.tensor([1, 2]), lib.tensor([3, 5]))
        if case == "mixed":
            return lib.dist(lib.tensor([1.0, 2.0]), lib.tensor([3, 5]), 0)
        if case == "bad_shape":
            return lib.dist(lib.ones(3), lib.ones(2))
        if case == "tensor_p":
            return lib.dist(lib.ones(3), lib.zeros(3), lib.tensor(3.0))
        return lib.dist(lib.tensor([float("inf"), 1.0]), lib.tensor([float("nan"), 0.0]))
    tvdiff.check(f)


@pytest.mark.parametrize("p", [1, 2, 3.0, float("inf")])
@pytest.mark.parametrize("dim", [0, 1, -1, 2])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_renorm(tvdiff, p, dim, dtype):
    t = tvdiff.make((3, 4, 2), dtype, "t", seed=4)
    tvdiff.check(lambda lib, x: lib.renorm(x, p, dim, 2.5), t)
    tvdiff.check(lambda lib, x: x.renorm(p, dim, 0.5), t)
    tvdiff.check(lambda lib, x: x.clone().renorm_(p, dim, 1.0), t)


@pytest.mark.parametrize("p", [2, 3, -128, 0.5, 0, 2**63 - 1, float("inf")])
@pytest.mark.parametrize("dtype", ["float16", "float32", "complex64"])
def test_norms_of_one_element_are_its_abs(tvdiff, p, dtype):
    """A norm over one element is ``|x|``, as PyTorch's: ``|1e30| ** 2`` must not overflow
    (dist, norm, vector_norm, renorm over slices of one element)."""
    big = 6e4 if dtype == "float16" else 1e30

    def f(lib, op):
        x = lib.tensor([[big], [-3.0], [float("nan")], [0.0]], dtype=getattr(lib, dtype))
        if op == "dist":
            return lib.dist(x[0], lib.zeros((), dtype=x.dtype), p)
        if op == "norm":
            return lib.norm(x, p=p, dim=1), lib.norm(x[1, 0], p=p)
        if op == "vector_norm":
            return lib.linalg.vector_norm(x, p, dim=(1,), keepdim=True)
        if dtype.startswith("complex") or p == 0:
            return lib.tensor(0)
        return lib.renorm(x, p, 0, 0.5), x.clone().renorm_(p, -1, 0.5)
    for op in ("dist", "norm", "vector_norm", "renorm"):
        # (PyTorch's complex p=0 norm at times warns of a complex-to-real cast: not compared)
        tvdiff.check(lambda lib: f(lib, op), warns=not (dtype == "complex64" and p == 0))


@pytest.mark.parametrize("case", ["int", "p0", "neg_max", "one_dim", "out", "zero_max",
                                  "complex"])
def test_renorm_errors(tvdiff, case):
    def f(lib):
        x = lib.tensor([[1.0, 2.0], [3.0, -4.0]])
        if case == "int":
            return lib.renorm(lib.tensor([[1, 2]]), 2, 0, 1)
        if case == "p0":
            return lib.renorm(x, 0, 0, 1)
        if case == "neg_max":
            return lib.renorm(x, 2, 0, -1)
        if case == "one_dim":
            return lib.renorm(lib.ones(3), 2, 0, 1)
        if case == "out":
            o = lib.empty(2, 2)
            return lib.renorm(x, 2, 1, 1.0, out=o), o
        if case == "zero_max":
            return lib.renorm(x, 1, 0, 0)
        return lib.renorm(x * 1j, 2, 0, 1)
    tvdiff.check(f)


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "float16", "uint8"])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient(tvdiff, dtype, edge_order):
    t = tvdiff.make((4, 5), dtype, "t", seed=5)
    tvdiff.check(lambda lib, x: lib.gradient(x, edge_order=edge_order), t)
    tvdiff.check(lambda lib, x: lib.gradient(x, spacing=2.0, dim=1, edge_order=edge_order), t)
    tvdiff.check(lambda lib, x: lib.gradient(x, spacing=[0.5, 3], edge_order=edge_order), t)
    tvdiff.check(lambda lib, x: lib.gradient(x, dim=[-1], edge_order=edge_order), t)
    tvdiff.check(lambda lib, x: lib.gradient(
        x, spacing=[lib.tensor([0.0, 1.0, 1.5, 4.0, 4.5])], dim=1, edge_order=edge_order), t)


@pytest.mark.parametrize("case", ["bool", "too_short", "bad_len", "edge3", "one_d", "coords_len",
                                  "zero_dim"])
def test_gradient_errors(tvdiff, case):
    def f(lib):
        x = lib.tensor([[1.0, 4.0, 9.0], [2.0, 3.0, 5.0]])
        if case == "bool":
            return lib.gradient(lib.tensor([True, False, True]))
        if case == "too_short":
            return lib.gradient(x, edge_order=2)
        if case == "bad_len":
            return lib.gradient(x, spacing=[1.0, 2.0, 3.0])
        if case == "edge3":
            return lib.gradient(x, dim=1, edge_order=3)
        if case == "one_d":
            return lib.gradient(lib.tensor([1.0, 4.0, 5.0]), spacing=[2.0])
        if case == "coords_len":
            return lib.gradient(x, spacing=[lib.tensor([0.0, 1.0])], dim=1)
        return lib.gradient(lib.tensor(1.0))
    tvdiff.check(f)


# ---------------------------------------------------------------- cholesky_solve / triangular_solve
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_solve(tvdiff, dtype, upper):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((2, 4, 4)) + 5 * np.eye(4)
    if dtype == "complex128":
        a = a + 0.3j * rng.standard_normal((2, 4, 4))
    a = (np.triu(a) if upper else np.tril(a)).astype(dtype)
    L = tvdiff.make(a.shape, dtype, data=a)
    B = tvdiff.make((4, 3), dtype, "t", seed=9)
    tvdiff.check(lambda lib, b, l: lib.cholesky_solve(b, l, upper), B, L)
    tvdiff.check(lambda lib, b, l: b.cholesky_solve(l, upper=upper).stride(), B, L)


@pytest.mark.parametrize("case", ["int", "half", "one_d_b", "one_d_a", "dtypes", "sizes", "out"])
def test_cholesky_solve_errors(tvdiff, case):
    def f(lib):
        L = lib.tensor([[2.0, 0.0], [1.0, 3.0]])
        b = lib.tensor([[1.0], [2.0]])
        if case == "int":
            return lib.cholesky_solve(b.long(), L.long())
        if case == "half":
            return lib.cholesky_solve(b.half(), L.half())
        if case == "one_d_b":
            return lib.cholesky_solve(b[0], L)
        if case == "one_d_a":
            return lib.cholesky_solve(b, L[0])
        if case == "dtypes":
            return lib.cholesky_solve(b.double(), L)
        if case == "sizes":
            return lib.cholesky_solve(lib.ones(3, 1), L)
        o = lib.empty(2, 1)
        return lib.cholesky_solve(b, L, out=o), o
    tvdiff.check(f)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("unitriangular", [False, True])
def test_triangular_solve(tvdiff, dtype, upper, transpose, unitriangular):
    rng = np.random.default_rng(4)
    a = (rng.standard_normal((3, 4, 4)) + 4 * np.eye(4)).astype(dtype)
    A = tvdiff.make(a.shape, dtype, data=a)
    B = tvdiff.make((4, 2), dtype, "t", seed=8)

    def f(lib, b, m):
        r = lib.triangular_solve(b, m, upper, transpose, unitriangular)
        return r, r.solution.stride(), r.cloned_coefficient.stride(), \
            b.triangular_solve(m, upper=upper, transpose=transpose)
    tvdiff.check(f, B, A, warns=False)


@pytest.mark.parametrize("case", ["int", "one_d", "dtypes", "sizes", "not_square", "out"])
def test_triangular_solve_errors(tvdiff, case):
    def f(lib):
        A = lib.tensor([[2.0, 0.0], [1.0, 3.0]])
        b = lib.tensor([[1.0], [2.0]])
        if case == "int":
            return lib.triangular_solve(b.long(), A.long())
        if case == "one_d":
            return lib.triangular_solve(b[0], A)
        if case == "dtypes":
            return lib.triangular_solve(b.double(), A)
        if case == "sizes":
            return lib.triangular_solve(lib.ones(3, 1), A)
        if case == "not_square":
            return lib.triangular_solve(b, lib.ones(2, 3))
        out = (lib.empty(2, 1), lib.empty(2, 2))
        return lib.triangular_solve(b, A, False, out=out), out
    tvdiff.check(f, warns=False)


def test_triangular_solve_warns_once():
    import warnings
    A = tensorviz.tensor([[2.0, 0.0], [1.0, 3.0]])
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        tensorviz.triangular_solve(A, A)  # (the first call of the process may warn)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tensorviz.triangular_solve(A, A)
    assert not caught


def test_special_is_an_attribute_loaded_on_first_use():
    import subprocess
    import sys
    code = ("import sys, tensorviz\n"
            "assert 'tensorviz.special' not in sys.modules\n"
            "print(tensorviz.special.expit(tensorviz.zeros(1)).tolist())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[0.5]"


@pytest.mark.parametrize("dtype", ["float64"])  # (float32: PyTorch's zeta overflows too)
def test_polygamma_of_huge_order_overflows_as_the_value_does(tvdiff, dtype):
    """Where n! overflows and zeta(n+1, x) underflows, PyTorch's product is inf * 0 = nan
    (and from n = 2**31 its C int n wraps); tensorviz gives the value's own overflow or
    underflow: (-1)**(n+1) n! sum (x+k)**-(n+1), decided by the x+k nearest 0. Where
    PyTorch gives a number or an infinity, tensorviz agrees."""
    torch = tvdiff.torch
    x = [-2.5, -2.3, -0.5, 1.5, 0.25, 2.0, 1e30, 40.0, float("inf"), float("nan"), -3.0]
    for n in (40, 41, 170, 171, 400, 2 ** 31 - 1):
        want = torch.polygamma(n, torch.tensor(x, dtype=getattr(torch, dtype))).numpy()
        got = tensorviz.polygamma(n, tensorviz.tensor(x, dtype=getattr(tensorviz, dtype)))
        got = got.numpy()
        known = ~np.isnan(want)
        np.testing.assert_allclose(got[known], want[known], rtol=1e-5)
        assert np.isnan(got[9])  # (a NaN input stays NaN)
    huge = tensorviz.polygamma(2 ** 40, tensorviz.tensor([-2.5, -2.3, 1.5, 2.0, 1e30])).tolist()
    # even n: -inf where the nearest term is positive (-2.5's +-0.5 ... cancel: 3.5 decides)
    assert huge[:4] == [-np.inf, np.inf, -np.inf, -np.inf] and huge[4] == 0.0
    assert tensorviz.polygamma(401, tensorviz.tensor([1.5, -2.3])).tolist() == [np.inf, np.inf]


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_i0_of_single_precision_is_pytorchs_bit_for_bit(dtype):
    """PyTorch's float32 calc_i0 (halves go through it): float32 Chebyshev series with fused
    steps and glibc's expf, so i0(0) is 0.99999994 and floor(i0(0)) is 0; i0(inf) is NaN.
    Every value compared exactly, over seeded random inputs and the special values."""
    import numpy as np
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.uniform(-100, 100, 20000), rng.uniform(-9, 9, 20000),
                        np.arange(-120, 120), [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, 8.0,
                                               88.7, 89.0, 1e-45, 3.4e38]]).astype(np.float32)
    e = torch.i0(torch.from_numpy(x).to(getattr(torch, dtype))).float().numpy()
    r = tensorviz.i0(tensorviz.from_numpy(x).to(getattr(tensorviz, dtype))).float().numpy()
    np.testing.assert_array_equal(r, e)
    assert tensorviz.i0(tensorviz.tensor([0])).floor().item() == 0.0
