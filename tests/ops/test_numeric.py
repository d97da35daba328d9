"""Differential tests of quantile, logcumsumexp, gcd/lcm, heaviside, ldexp, nextafter, sinc,
cov/corrcoef, histogram, bucketize, cumulative_trapezoid, vander, cdist and narrow_copy."""
from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import tensorviz

from .conftest import ALL_DTYPES, FLOAT_DTYPES, INT_DTYPES, LAYOUTS

NEW_OPS = ["quantile", "nanquantile", "logcumsumexp", "gcd", "lcm", "heaviside", "ldexp",
           "nextafter", "sinc", "cov", "corrcoef", "histogram", "bucketize",
           "cumulative_trapezoid", "vander", "cdist", "narrow_copy", "gcd_", "lcm_", "ldexp_",
           "sinc_"]
NEW_METHODS = ["quantile", "nanquantile", "logcumsumexp", "gcd", "lcm", "heaviside", "ldexp",
               "nextafter", "sinc", "cov", "corrcoef", "histogram", "narrow_copy", "gcd_",
               "lcm_", "ldexp_", "nextafter_", "heaviside_", "sinc_"]


def test_names_exist_where_pytorch_has_them(tvdiff):
    torch = tvdiff.torch
    for name in NEW_OPS:
        assert hasattr(torch, name) and hasattr(tensorviz, name), name
    for name in NEW_METHODS:
        assert hasattr(torch.Tensor, name) and hasattr(tensorviz.Tensor, name), name
    for name in ("bucketize", "cumulative_trapezoid", "vander", "cdist"):
        assert hasattr(tensorviz.Tensor, name) == hasattr(torch.Tensor, name), name


# ---------------------------------------------------------------- quantile
@pytest.mark.parametrize("interp", ["linear", "lower", "higher", "midpoint", "nearest"])
@pytest.mark.parametrize("dim,keepdim", [(None, False), (None, True), (0, False), (1, True),
                                         (-1, False)])
@pytest.mark.parametrize("q", [0.0, 0.3, 0.5, 1.0, "t1", "t0", "tmany"])
@pytest.mark.parametrize("op", ["quantile", "nanquantile"])
def test_quantile(tvdiff, interp, dim, keepdim, q, op):
    for dtype, special, layout in (("float32", False, "t"), ("float64", True, "contig")):
        t = tvdiff.make((4, 5), dtype, layout, special=special)

        def f(lib, x):
            qq = q
            if q == "t1":
                qq = lib.tensor([0.25, 0.5, 0.9], dtype=x.dtype)
            elif q == "t0":
                qq = lib.tensor(0.75, dtype=x.dtype)
            elif q == "tmany":
                qq = lib.linspace(0, 1, 7, dtype=x.dtype)
            r = getattr(lib, op)(x, qq, dim=dim, keepdim=keepdim, interpolation=interp)
            m = getattr(x, op)(qq, dim, keepdim, interpolation=interp)
            return r, m, r.stride()
        tvdiff.check(f, t)


@pytest.mark.parametrize("case", ["int", "half", "empty", "q_big", "q_neg_tensor", "q_dtype",
                                  "interp", "q_2d", "zero_dim", "zero_dim_dim", "all_nan",
                                  "q_int", "out", "one"])
def test_quantile_errors_and_edges(tvdiff, case):
    def f(lib):
        x = lib.tensor([[1.5, 0., 3.], [2., float("nan"), -1.]])
        if case == "int":
            return lib.quantile(lib.tensor([1, 2]), 0.5)
        if case == "half":
            return lib.quantile(x.half(), 0.5)
        if case == "empty":
            return lib.quantile(lib.tensor([]), 0.5)
        if case == "q_big":
            return lib.quantile(x, 1.5)
        if case == "q_neg_tensor":
            return lib.quantile(x, lib.tensor([-0.5]))
        if case == "q_dtype":
            return lib.quantile(x, lib.tensor([0.5], dtype=lib.float64))
        if case == "interp":
            return lib.quantile(x, 0.5, interpolation="foo")
        if case == "q_2d":
            return lib.quantile(x, lib.tensor([[0.5]]))
        if case == "zero_dim":
            return lib.quantile(lib.tensor(3.), 0.5)
        if case == "zero_dim_dim":
            return lib.nanquantile(lib.tensor(3.), 0.5, dim=0, keepdim=True)
        if case == "all_nan":
            return lib.nanquantile(lib.full((2, 3), float("nan")), 0.4, dim=1)
        if case == "q_int":
            return lib.quantile(x, 1)
        if case == "out":
            o = lib.empty(0)
            lib.nanquantile(x, 0.5, dim=1, out=o)
            return o
        return lib.nanquantile(x, lib.tensor([0.1, 0.9]), dim=0)
    tvdiff.check(f)


# ---------------------------------------------------------------- logcumsumexp
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("layout", ["contig", "t", "step"])
def test_logcumsumexp(tvdiff, dtype, layout):
    t = tvdiff.make((3, 4), dtype, layout, special=dtype in FLOAT_DTYPES)
    for dim in (0, 1, -1):
        tvdiff.check(lambda lib, x: lib.logcumsumexp(x, dim), t, rtol=1e-2 if dtype ==
                     "float16" else None)
        tvdiff.check(lambda lib, x: x.logcumsumexp(dim), t, rtol=1e-2 if dtype ==
                     "float16" else None)


def test_logcumsumexp_edges(tvdiff):
    tvdiff.check(lambda lib: lib.logcumsumexp(lib.tensor(1.), 0))
    tvdiff.check(lambda lib: lib.logcumsumexp(lib.zeros(0, 3), 0))
    tvdiff.check(lambda lib: lib.logcumsumexp(lib.tensor([-float("inf"), 1., -float("inf")]), 0))
    tvdiff.check(lambda lib: lib.logcumsumexp(lib.zeros(2, 3), 2))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_logcumsumexp_ties_and_first_element(tvdiff, seed, dtype):
    """PyTorch's complex scan starts from -inf+0j and takes the new element as the max on a
    tie of real parts, which decides the imaginary part's branch (1.6084j, not 7.8916j, for
    [7.5j, 2j]) and what a first -inf or -0.0 real part gives."""
    rng = np.random.default_rng(seed)
    parts = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1.0, -1.0, 2.0, 7.5, -3.0, 1e-310])
    data = np.empty((40, 5), dtype=dtype)
    data.real, data.imag = rng.choice(parts, (40, 5)), rng.choice(parts, (40, 5))
    t = tvdiff.make((40, 5), np.dtype(dtype).name, data=data)
    tvdiff.check(lambda lib, x: lib.logcumsumexp(x, 1), t)
    tvdiff.check(lambda lib, x: lib.logcumsumexp(x, 0), t)


# ---------------------------------------------------------------- pointwise
@pytest.mark.parametrize("op", ["gcd", "lcm", "nextafter", "heaviside", "ldexp"])
@pytest.mark.parametrize("da,db", [(d, d) for d in ALL_DTYPES] + [
    ("int8", "int64"), ("uint8", "int16"), ("float32", "float64"), ("int64", "float32"),
    ("float16", "int32")])
def test_binary_numeric(tvdiff, op, da, db):
    a = tvdiff.make((3, 4), da, "t", seed=1, special=da in FLOAT_DTYPES)
    b = tvdiff.make((4,), db, seed=2, low=-3, high=5)
    if op == "ldexp" and (db in FLOAT_DTYPES or db.startswith("complex")):
        b = tvdiff.make((4,), db, seed=2, low=-3, high=5)
    tvdiff.check(lambda lib, x, y: getattr(lib, op)(x, y), a, b)
    tvdiff.check(lambda lib, x, y: getattr(x, op)(y), a, b)
    tvdiff.check(lambda lib, x, y: getattr(x.clone(), op + "_")(y), a, b)
    tvdiff.check(lambda lib, x, y: getattr(lib, op)(x, 2), a, b)


@pytest.mark.parametrize("case", ["gcd_zero", "lcm_zero", "lcm_neg", "heaviside_nan",
                                  "nextafter_inf", "gcd_out", "heaviside_0d"])
def test_binary_numeric_edges(tvdiff, case):
    def f(lib):
        i = lib.tensor([0, -4, 6, 0, 7])
        j = lib.tensor([0, 6, -4, 5, -7])
        if case == "gcd_zero":
            return lib.gcd(i, j)
        if case == "lcm_zero":
            return lib.lcm(i, j)
        if case == "lcm_neg":
            return lib.lcm(-i, j)
        if case == "heaviside_nan":
            return lib.heaviside(lib.tensor([float("nan"), -0., 0., -1., 2.]), lib.tensor([0.5]))
        if case == "nextafter_inf":
            x = lib.tensor([0., 1., float("inf"), -float("inf"), float("nan")])
            return lib.nextafter(x, lib.tensor(float("inf")))
        if case == "gcd_out":
            o = lib.empty(5, dtype=lib.int64)
            return lib.gcd(i, j, out=o)
        return lib.heaviside(lib.tensor([0., 1.]), lib.tensor(0.5))
    tvdiff.check(f)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_sinc(tvdiff, dtype, layout):
    t = tvdiff.make((3, 4), dtype, layout, special=dtype in FLOAT_DTYPES)
    tvdiff.check(lambda lib, x: lib.sinc(x), t)
    tvdiff.check(lambda lib, x: x.sinc().stride(), t)
    if layout != "expand":
        tvdiff.check(lambda lib, x: x.clone().sinc_(), t)
    tvdiff.check(lambda lib: lib.sinc(lib.tensor([0., 1., -0.5, 1e-20, 3.5])))


# ---------------------------------------------------------------- cov / corrcoef
@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex64"])
@pytest.mark.parametrize("shape", [(5,), (3, 6), (1, 4), (2, 1), ()])
@pytest.mark.parametrize("correction", [0, 1, 2])
def test_cov_corrcoef(tvdiff, dtype, shape, correction):
    t = tvdiff.make(shape, dtype, seed=3)
    tvdiff.check(lambda lib, x: lib.cov(x, correction=correction), t)
    tvdiff.check(lambda lib, x: x.cov(correction=correction), t)
    tvdiff.check(lambda lib, x: lib.corrcoef(x), t)
    tvdiff.check(lambda lib, x: x.corrcoef(), t)


@pytest.mark.parametrize("case", ["fweights", "aweights", "both", "both_c0", "neg", "bad_len",
                                  "float_fw", "bool", "3d"])
def test_cov_weights(tvdiff, case):
    def f(lib):
        x = lib.tensor([[1., 2., 4., 7.], [0., -1., 3., 3.]])
        fw = lib.tensor([1, 2, 1, 3])
        aw = lib.tensor([0.5, 1., 2., 1.])
        if case == "fweights":
            return lib.cov(x, fweights=fw)
        if case == "aweights":
            return lib.cov(x, aweights=aw)
        if case == "both":
            return lib.cov(x, fweights=fw, aweights=aw)
        if case == "both_c0":
            return lib.cov(x, correction=0, fweights=fw, aweights=aw)
        if case == "neg":
            return lib.cov(x, fweights=-fw)
        if case == "bad_len":
            return lib.cov(x, aweights=aw[:3])
        if case == "float_fw":
            return lib.cov(x, fweights=aw)
        if case == "bool":
            return lib.cov(x > 1)
        return lib.cov(lib.zeros(2, 2, 2))
    tvdiff.check(f)


@pytest.mark.parametrize("wdtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("xdtype", ["bfloat16", "float16", "float32"])
def test_cov_of_a_0_dim_input_promotes_it_as_a_matrix(tvdiff, xdtype, wdtype):
    """cov makes its input a matrix first: a 0-dim bfloat16 input with a 0-dim float64
    weight stays bfloat16 (the weight takes part as a 0-dim tensor), a 1-D one is promoted
    by its 1-D weights."""
    def f(lib):
        x = lib.tensor(3.0, dtype=getattr(lib, xdtype))
        w = lib.tensor(2, dtype=getattr(lib, wdtype))
        k = "aweights" if wdtype != "int64" else "fweights"
        rs = [lib.cov(x, **{k: w}), lib.cov(x.expand(2) + lib.tensor([0.0, 1.0]).to(x.dtype),
                                             **{k: w.expand(2)})]
        return [str(r.dtype).rpartition(".")[2] for r in rs] + [r.float() for r in rs]
    tvdiff.check(f)


@pytest.mark.filterwarnings("ignore:.*degrees of freedom")
@pytest.mark.parametrize("weights", ["none", "fweights", "aweights", "both", "subnormal"])
@pytest.mark.parametrize("n", [0, 3])
@pytest.mark.parametrize("correction", [-2, 0, 1])
@pytest.mark.parametrize("dtype", ["float16", "float64", "complex64", "int64"])
def test_cov_of_no_observation_or_weights_summing_to_zero(tvdiff, dtype, correction, n,
                                                          weights):
    """No observation: the product of the empty deviations is 0, divided by the degrees of
    freedom (0 for correction=-2, NaN where there are none); weights that sum to zero (all
    0, or a float32 1e-46) are PyTorch's RuntimeError."""
    def f(lib):
        x = lib.ones((2, n), dtype=getattr(lib, dtype))
        fw, aw = lib.tensor([1, 0, 0][:n]), lib.tensor([0.0, 1.0, 1.0][:n])
        kw = {"none": {}, "fweights": {"fweights": lib.zeros(n, dtype=lib.int64)},
              "aweights": {"aweights": lib.zeros(n)}, "both": {"fweights": fw, "aweights": aw},
              "subnormal": {"aweights": lib.tensor([0.0, 1e-46, 0.0][:n])}}[weights]
        return lib.cov(x, correction=correction, **kw)
    tvdiff.check(f)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8"])
def test_cov_corrcoef_of_integer_extremes(tvdiff, seed, dtype):
    """An integer input's mean is its integer sum (wrapping, as PyTorch's) over the count."""
    rng = np.random.default_rng(seed)
    info = np.iinfo(dtype)
    vals = np.array([info.min, info.max, 5, 0, 3, info.max // 2], dtype=dtype)
    t = tvdiff.make((3, 4), dtype, data=rng.choice(vals, (3, 4)))
    fw = tvdiff.make((4,), "int64", data=np.array([1, 2, 0, 3]))
    tvdiff.check(lambda lib, x: lib.cov(x), t)
    tvdiff.check(lambda lib, x: lib.cov(x[0], correction=0), t)
    tvdiff.check(lambda lib, x, w: lib.cov(x, fweights=w), t, fw)
    tvdiff.check(lambda lib, x: lib.corrcoef(x), t)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_cov_corrcoef_of_complex_values_past_the_range(dtype):
    """A complex variance past the range is PyTorch's inf+nanj (the product recomputed from
    the parts; BLAS gave nan+nanj), so corrcoef divides the other entries by an infinite
    deviation (0, not NaN); corrcoef clips the real and imaginary parts apart (a NaN
    imaginary part leaves the real one alone)."""
    torch = pytest.importorskip("torch")
    big = 1e30 if dtype == "complex64" else 1e300
    rows = [[1 + 1j, 0, 0.5, 2 + 1j], [-2.5 + 1j, 0, 65504, 0.5 + 0.5j],
            [1.152921504606847e18 + 0.5j, 2, -0.75 + 1j, big]]
    got = []
    for T in (tensorviz, torch):
        x = T.tensor(rows, dtype=getattr(T, dtype)).t()
        got.append([np.asarray(f(x).tolist()) for f in (T.cov, T.corrcoef)])
    for a, b in zip(*got):  # (which parts are inf or NaN exactly; finite ones to rounding)
        for part in (np.real, np.imag):
            pa, pb = part(a), part(b)
            assert np.array_equal(np.isnan(pa), np.isnan(pb))
            assert np.array_equal(np.isinf(pa), np.isinf(pb))
            np.testing.assert_allclose(pa[np.isfinite(pa)], pb[np.isfinite(pb)], rtol=1e-5,
                                       atol=1e-6)


@pytest.mark.parametrize("wdtype", ["uint8", "int16", "int32", "int64"])
@pytest.mark.parametrize("xdtype", ["int8", "uint8", "int32", "int64"])
def test_cov_integer_input_times_fweights_wraps_in_their_dtype(tvdiff, xdtype, wdtype):
    """PyTorch's weighted mean is ``(input * fweights).sum() / fweights.sum()``: the product
    in the two integer dtypes' promoted dtype wraps (int32 -2**31 * 3 is -2**31) before the
    int64 sum, and the int64 quotient is taken in float32."""
    rng = np.random.default_rng(11)
    info = np.iinfo(xdtype)
    vals = np.array([info.min, info.max, -6 if info.min else 6, 0, 3], dtype=xdtype)
    for seed in range(4):
        x = tvdiff.make((3,), xdtype, data=rng.choice(vals, 3))
        w = tvdiff.make((3,), wdtype, data=rng.integers(1, 4, 3).astype(wdtype))
        tvdiff.check(lambda lib, a, b: lib.cov(a, fweights=b), x, w)
        tvdiff.check(lambda lib, a, b: lib.cov(a, fweights=b[:1].expand(3)), x, w)


@pytest.mark.parametrize("wdtype", ["uint8", "int8", "int16", "int32", "int64"])
@pytest.mark.parametrize("xdtype", ["uint8", "int64", "float32", "float64"])
def test_cov_integer_fweights_sum_to_int64(tvdiff, wdtype, xdtype):
    """Integer fweights sum as int64, as PyTorch's sum: a uint8 total minus a larger
    correction is no degrees of freedom (NaN or inf), not a wrapped unsigned count.
    Seeded weights (0 included) and corrections past and below the total."""
    rng = np.random.default_rng(7)
    for seed in range(6):
        n = 1 + seed % 4
        x = tvdiff.make((2, n), xdtype, seed=seed, low=0, high=9)
        w = tvdiff.make((n,), wdtype, data=rng.integers(0, 4, n).astype(wdtype))
        # (each call on a copy: PyTorch's cov of one observation with fweights alone zeroes
        # its input, see test_cov_of_one_observation_keeps_its_input)
        for correction in (0, 1, 3, 7, 40):
            tvdiff.check(lambda lib, a, b: lib.cov(a.clone(), correction=correction,
                                                   fweights=b), x, w, warns=False)
            tvdiff.check(lambda lib, a, b: lib.cov(a[0].clone(), correction=correction,
                                                   fweights=b), x, w, warns=False)
            tvdiff.check(lambda lib, a, b: lib.cov(a.clone(), correction=correction, fweights=b,
                                                   aweights=b.double() + 0.5), x, w, warns=False)


@pytest.mark.parametrize("weights", ["fweights", "aweights"])
@pytest.mark.parametrize("shape", [(), (1,), (3, 1)])
def test_cov_of_one_observation_keeps_its_input(tvdiff, weights, shape):
    """PyTorch's result, without PyTorch's zeroing of the input (see ops.numeric.cov)."""
    def f(lib):
        x = lib.full(shape, -3.5) if shape else lib.tensor(-3.5)
        w = lib.tensor([2] if weights == "fweights" else [0.5]).reshape(shape[-1:])
        return lib.cov(x, **{weights: w})
    tvdiff.check(f)
    x = tensorviz.full(shape, -3.5)
    w = tensorviz.tensor([2] if weights == "fweights" else [0.5]).reshape(shape[-1:])
    with warnings.catch_warnings():  # (aweights: "degrees of freedom is <= 0")
        warnings.simplefilter("ignore", UserWarning)
        tensorviz.cov(x, **{weights: w})
    assert (x == -3.5).all()


# ---------------------------------------------------------------- histogram / bucketize
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize("bins", [1, 4, 10, "edges"])
@pytest.mark.parametrize("opts", [{}, {"range": (-2.0, 3.0)}, {"density": True}, {"weight": 1},
                                  {"range": (0.0, 0.0)}])
def test_histogram(tvdiff, dtype, bins, opts):
    t = tvdiff.make((20,), dtype, seed=5, low=-3, high=3)

    def f(lib, x):
        b = bins if bins != "edges" else lib.tensor([-2., -0.5, 0., 2.5], dtype=x.dtype)
        kw = dict(opts)
        if "weight" in kw:
            kw["weight"] = lib.linspace(0, 1, 20, dtype=x.dtype)
        if bins == "edges":
            kw.pop("range", None)
        return lib.histogram(x, b, **kw), x.histogram(b, **kw)
    tvdiff.check(f, t)


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("out_int32", [False, True])
@pytest.mark.parametrize("dtype", ["int64", "float32"])
def test_bucketize(tvdiff, right, out_int32, dtype):
    t = tvdiff.make((3, 5), dtype, "t", seed=7)
    bnd = tvdiff.make((4,), dtype, data=np.array([-3, 0, 2, 5], dtype=dtype))
    # (warns=False: PyTorch's once-per-process hint about a non-contiguous input)
    tvdiff.check(lambda lib, x, b: lib.bucketize(x, b, right=right, out_int32=out_int32), t,
                 bnd, warns=False)
    tvdiff.check(lambda lib, b: lib.bucketize(2, b, right=right), bnd)
    tvdiff.check(lambda lib, x: lib.bucketize(x, x), t, warns=False)


# ---------------------------------------------------------------- trapezoid / vander / cdist
@pytest.mark.parametrize("dtype", ["int64", "float16", "float32", "float64", "bool"])
@pytest.mark.parametrize("dim", [0, -1])
def test_cumulative_trapezoid(tvdiff, dtype, dim):
    y = tvdiff.make((4, 5), dtype, "t", seed=8)
    x1 = tvdiff.make((5,), "float32", seed=9)
    x2 = tvdiff.make((4, 5), "float64", seed=10)
    tvdiff.check(lambda lib, a: lib.cumulative_trapezoid(a, dim=dim), y)
    tvdiff.check(lambda lib, a: lib.cumulative_trapezoid(a, dx=0.5, dim=dim), y)
    if dim == -1:
        tvdiff.check(lambda lib, a, x: lib.cumulative_trapezoid(a, x), y, x1)
    tvdiff.check(lambda lib, a, x: lib.cumulative_trapezoid(a, x, dim=dim), y, x2)
    tvdiff.check(lambda lib: lib.cumulative_trapezoid(lib.tensor([])))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_cumulative_trapezoid_halves_the_running_sum(tvdiff, dtype):
    """With samples x, PyTorch's composite is (dx * (y[1:] + y[:-1])).cumsum(dim) / 2: the
    running sum of doubled terms overflows before the halving (float32: 1e38 + 2e38 + 2e38
    is inf), where a spacing dx halves first."""
    big = {"float16": 30000.0, "float32": 1e38, "float64": 1e308}[dtype]
    y = tvdiff.make((2, 4), dtype, data=np.array([[big, big, big, -big], [1.5, big, 0.25,
                                                                          big]], dtype=dtype))
    x = tvdiff.make((4,), dtype, data=np.array([0.0, 1.0, 2.0, 2.5], dtype=dtype))
    tvdiff.check(lambda lib, a, s: lib.cumulative_trapezoid(a, s), y, x)
    tvdiff.check(lambda lib, a: lib.cumulative_trapezoid(a, dx=1.0), y)


@pytest.mark.parametrize("dtype", ["int64", "float16", "float32", "float64", "bool"])
@pytest.mark.parametrize("dim", [0, -1])
def test_trapezoid_rounds_as_pytorch(tvdiff, dtype, dim):
    # (PyTorch's composite computes each step in its operands' dtypes: a float32 y with
    # float64 samples differs from computing all in float64 by more than float64's tolerance)
    y = tvdiff.make((4, 5), dtype, "t", seed=8)
    x1 = tvdiff.make((5,), "float32", seed=9)
    x2 = tvdiff.make((4, 5), "float64", seed=10)
    for fn in ("trapezoid", "trapz"):
        tvdiff.check(lambda lib, a: getattr(lib, fn)(a, dim=dim), y)
        tvdiff.check(lambda lib, a: getattr(lib, fn)(a, dx=0.3, dim=dim), y)
        tvdiff.check(lambda lib, a, x: getattr(lib, fn)(a, x), y, x1)
        tvdiff.check(lambda lib, a, x: getattr(lib, fn)(a, x, dim=dim), y, x2)
    tvdiff.check(lambda lib, a: lib.trapezoid(a, lib.tensor([1., 2.])), y)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("N", [None, 0, 1, 4])
@pytest.mark.parametrize("increasing", [False, True])
def test_vander(tvdiff, dtype, N, increasing):
    t = tvdiff.make((3,), dtype, "step", seed=11, low=-2, high=3)
    tvdiff.check(lambda lib, x: lib.vander(x, N, increasing), t)
    tvdiff.check(lambda lib, x: lib.vander(x, N=N, increasing=increasing).stride(), t)


def test_vander_errors(tvdiff):
    tvdiff.check(lambda lib: lib.vander(lib.zeros(2, 2)))
    tvdiff.check(lambda lib: lib.vander(lib.tensor(2)))
    tvdiff.check(lambda lib: lib.vander(lib.tensor([1, 2]), -1))


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.0, 0.5, float("inf")])
@pytest.mark.parametrize("shapes", [((4, 3), (5, 3)), ((2, 4, 3), (5, 3)),
                                    ((2, 1, 4, 3), (3, 5, 3)), ((0, 3), (2, 3))])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cdist(tvdiff, p, shapes, dtype):
    a = tvdiff.make(shapes[0], dtype, "t", seed=12)
    b = tvdiff.make(shapes[1], dtype, seed=13)
    tvdiff.check(lambda lib, x, y: lib.cdist(x, y, p=p), a, b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("case", ["int", "1d", "neg_p", "cols", "mixed", "half"])
def test_cdist_errors(tvdiff, case):
    def f(lib):
        x = lib.zeros(2, 1)
        if case == "int":
            return lib.cdist(x.long(), x.long())
        if case == "1d":
            return lib.cdist(lib.zeros(2), lib.zeros(2))
        if case == "neg_p":
            return lib.cdist(x, x, p=-1)
        if case == "cols":
            return lib.cdist(x, lib.zeros(2, 2))
        if case == "mixed":
            return lib.cdist(x, x.double())
        return lib.cdist(x.half(), x.half())
    tvdiff.check(f)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ["int64", "float32"])
def test_narrow_copy(tvdiff, layout, dtype):
    t = tvdiff.make((4, 5), dtype, layout)

    def f(lib, x):
        r = lib.narrow_copy(x, 1, 1, 3)
        m = x.narrow_copy(0, -3, 2)
        return r, r.stride(), m, m.stride(), r.untyped_storage() is x.untyped_storage()
    tvdiff.check(f, t)
    tvdiff.check(lambda lib, x: lib.narrow_copy(x, 0, 3, 5), t)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_gcd_refuses_floats(tvdiff, dtype):
    a = tvdiff.make((3,), dtype)
    f = tvdiff.make((3,), "float32")
    tvdiff.check(lambda lib, x, y: lib.gcd(x, y), a, f)
    tvdiff.check(lambda lib, x, y: lib.lcm(y, x), a, f)


_MORE = {
    "narrow_copy_out": lambda lib, x: lib.narrow_copy(x, 1, 1, 2, out=lib.empty(0)),
    "narrow_copy_out_dtype": lambda lib, x: lib.narrow_copy(x, 1, 1, 2,
                                                            out=lib.empty(0, dtype=lib.float64)),
    "logcumsumexp_kw": lambda lib, x: lib.logcumsumexp(x, dim=1),
    "logcumsumexp_out": lambda lib, x: lib.logcumsumexp(x, 1, out=lib.empty(0)),
    "logcumsumexp_out_dtype": lambda lib, x: lib.logcumsumexp(
        x, 1, out=lib.empty(0, dtype=lib.float64)),
    "quantile_out_dtype": lambda lib, x: lib.quantile(x, 0.5, out=lib.empty(0, dtype=lib.float64)),
    "quantile_bad_dim": lambda lib, x: lib.quantile(x, 0.5, dim=2),
    "quantile_nan": lambda lib, x: lib.quantile(lib.tensor([1., float("nan"), 2.]), 0.5),
    "gcd_out_dtype": lambda lib, x: lib.gcd(lib.tensor([4]), lib.tensor([6]),
                                            out=lib.empty(1, dtype=lib.int8)),
    "sinc_out": lambda lib, x: lib.sinc(lib.tensor([1, 2]), out=lib.empty(2, dtype=lib.float64)),
    "sinc_int_inplace": lambda lib, x: lib.tensor([1, 2]).sinc_(),
    "heaviside_inplace": lambda lib, x: lib.tensor([0., 2.]).heaviside_(lib.tensor([5.])),
    "histogram_range": lambda lib, x: lib.histogram(x, 3, range=(0, 4)),
    "histogram_float_bins": lambda lib, x: lib.histogram(x, 3.0),
    "histogram_out": lambda lib, x: lib.histogram(x, 2, out=(lib.empty(0), lib.empty(0))),
    "histogram_nan": lambda lib, x: lib.histogram(lib.tensor([1., float("nan")]), 2),
    "bucketize_0d": lambda lib, x: lib.bucketize(lib.tensor(1.), lib.tensor([0., 2.])),
    "bucketize_out": lambda lib, x: lib.bucketize(lib.tensor([1.]), lib.tensor([0., 2.]),
                                                  out=lib.empty(1, dtype=lib.int64)),
    "cov_no_observations": lambda lib, x: lib.cov(lib.zeros(2, 0)),
    "corrcoef_one_observation": lambda lib, x: lib.corrcoef(lib.tensor([[1.], [2.]])),
    "vander_empty": lambda lib, x: lib.vander(lib.tensor([])),
    "cdist_batch_mismatch": lambda lib, x: lib.cdist(lib.zeros(2, 3, 4), lib.zeros(3, 3, 4)),
    "cdist_mode": lambda lib, x: lib.cdist(lib.zeros(2, 4), lib.zeros(3, 4),
                                           compute_mode="use_mm_for_euclid_dist"),
    "cdist_bad_mode": lambda lib, x: lib.cdist(lib.zeros(2, 4), lib.zeros(3, 4),
                                               compute_mode="foo"),
    "cumulative_trapezoid_short_x": lambda lib, x: lib.cumulative_trapezoid(
        x, lib.tensor([1., 2.])),
    "ldexp_overflow": lambda lib, x: lib.ldexp(lib.tensor([1.]), lib.tensor([200])),
    "ldexp_float64": lambda lib, x: lib.ldexp(lib.tensor([1.], dtype=lib.float64),
                                              lib.tensor([200])),
    "nextafter_0d_other": lambda lib, x: lib.nextafter(lib.tensor([1.]),
                                                       lib.tensor(2., dtype=lib.float64)),
    "lcm_int8_wraps": lambda lib, x: lib.lcm(lib.tensor([100], dtype=lib.int8),
                                             lib.tensor([3], dtype=lib.int8)),
}


@pytest.mark.parametrize("case", sorted(_MORE))
def test_more_edges(tvdiff, case):
    x = tvdiff.make((2, 4), "float32", data=np.array([[3., 1., 2., 5.], [0., -1., 4., 4.]],
                                                     dtype="float32"))
    tvdiff.check(_MORE[case], x)


def test_ldexp_power_in_the_exponents_dtype():
    """PyTorch computes ldexp as input * pow(2., other): the power is rounded to other's
    dtype (complex64, float16) before the product in the wider result dtype."""
    pairs = [("complex128", "complex64"), ("float32", "float16"), ("float64", "float32"),
             ("float32", "complex64"), ("int64", "float16"), ("float16", "float64")]
    torch = pytest.importorskip("torch")
    for a, b in pairs:
        res = []
        for lib in (tensorviz, torch):
            x = lib.tensor([0.7, -1.3, 2.5]).to(getattr(lib, a))
            y = lib.tensor([0.5, 1.5, -0.3]).to(getattr(lib, b))
            r = lib.ldexp(x, y)
            res.append((str(r.dtype).split(".")[-1], r.tolist()))
        assert res[0] == res[1], (a, b)


@pytest.mark.parametrize("a", ["complex128", "complex64", "float64", "float32", "float16"])
@pytest.mark.parametrize("b", ["complex64", "complex128", "float32", "float16", "int32",
                               "float64"])
@pytest.mark.parametrize("form", ["dims", "zero-dim-other", "inplace-zero-dim", "inplace"])
def test_ldexp_power_dtype_follows_pow(a, b, form):
    """ldexp is input * pow(2, other) with the 2 a 0-dim tensor of input's dtype (float64,
    halves, complex): a 0-dim other's power is taken in the promoted dtype, a complex power
    by cpow (2 ** 3 is 7.999999999999998); values, dtype and errors as PyTorch's."""
    torch = pytest.importorskip("torch")
    res = []
    for lib in (tensorviz, torch):
        x = lib.tensor([0.5, -2.0, 3.0]).to(getattr(lib, a))
        if a.startswith("complex"):
            x = x * lib.tensor(1 - 2j).to(x.dtype)
        y = lib.tensor([-0.75, 3, -2]).to(getattr(lib, b))
        try:
            if form == "dims":
                r = lib.ldexp(x, y)
            elif form == "zero-dim-other":
                r = lib.ldexp(x, y[0])
            elif form == "inplace-zero-dim":
                r = x.clone().ldexp_(y[1])
            else:
                r = lib.ldexp_(x.clone(), other=y)
            res.append((str(r.dtype).split(".")[-1], repr(r.tolist())))
        except (RuntimeError, TypeError, NotImplementedError) as e:
            res.append((type(e).__name__,))
    assert res[0] == res[1]


def test_gcd_lcm_at_the_integer_limits():
    """gcd/lcm as PyTorch's kernels compute them: Euclid on abs with C's remainder (abs of the
    minimum stays negative), and lcm's product in C++'s promoted int for int8/int16 (abs
    before the wrap) but wrapping in int32/int64."""
    torch = pytest.importorskip("torch")
    cases = [("int64", [6, 6, 0, -4, -2**63], [-2**63, 6, -2**63, 0, 9]),
             ("int8", [126, -4, 5, -128, -128, 0], [0, 127, 1, 3, -1, 0]),
             ("int16", [32767, 3, -4, 5], [4, 2, 5, -5]),
             ("int32", [2**31 - 1, -2**31, 6], [3, 6, -2**31]),
             ("uint8", [7, 6, 255], [200, 4, 3])]
    for dt, a, b in cases:
        res = []
        for lib in (tensorviz, torch):
            x, y = (lib.tensor(v, dtype=getattr(lib, dt)) for v in (a, b))
            res.append((lib.gcd(x, y).tolist(), lib.lcm(x, y).tolist(), x.clone().lcm_(y).tolist()))
        assert res[0] == res[1], dt


def test_composites_raise_no_numpy_warnings():
    """quantile, cov, cumulative_trapezoid and dist of infinities and float16 overflows give
    PyTorch's inf/NaN answers without NumPy's RuntimeWarnings (warnings are errors here)."""
    inf = float("inf")
    T = tensorviz
    T.nanquantile(T.tensor([[3.0, -inf, -2.5, -2.5]]), 0.5)
    T.quantile(T.tensor([[3.0, -inf, -2.5, -2.5]]), 0.3, dim=1)
    v1 = T.tensor([[65504.0, -1e-30], [2.0, 4.0]], dtype=T.float16)
    T.cumulative_trapezoid(v1, v1)
    T.dist(T.tensor([[[1.0]], [[3.0]]], dtype=T.float16), T.tensor([65504.0], dtype=T.float16))
    T.cov(T.tensor([-2.5, inf]), aweights=T.tensor([inf, 0.25]))
    x = T.tensor([-2**63, 5])
    x.div_(-1, rounding_mode="floor")
    assert x.tolist() == [-2**63, -5]
    m = T.tensor([[inf, 0.], [0., 1.]])
    T.mv(m, T.tensor([0., 1.]))
    T.addmm(T.zeros(2, 2), m, m)
    T.linalg.multi_dot([m, m, m])


@pytest.mark.parametrize("seed", range(40))
def test_histogram_of_values_on_its_edges(seed):
    """Values on (or an ulp from) the float32 edges of even bins land in PyTorch's bins (its
    bin is the formula's, searched near it); a bfloat16 input without a range is refused as
    PyTorch's. (Edges exact in float32, which both linspaces then give.)"""
    from tests.conftest import same
    rng = np.random.default_rng(seed)
    bins = int(rng.integers(1, 12))
    lo = float(rng.integers(-5, 6))
    hi = lo + bins * float(rng.choice([0.125, 0.5, 1.0, 2.0]))
    edges = np.linspace(lo, hi, bins + 1).astype(np.float32)
    x = np.concatenate([edges, np.nextafter(edges, np.float32(np.inf)),
                        np.nextafter(edges, np.float32(-np.inf))]).astype(np.float32)
    rng.shuffle(x)
    inner = x[(x >= lo) & (x <= hi)]  # (its own min and max: the same exact edges)
    same(lambda T: T.histogram(T.tensor(x.tolist()), bins, range=(lo, hi)))
    same(lambda T: T.histogram(T.tensor(inner.tolist()), bins))
    same(lambda T: T.histogram(T.tensor(x.tolist(), dtype=T.bfloat16), bins))
    same(lambda T: T.histogram(T.tensor([1.0]), 3, range=(0.0, 1e39)))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("opts", [{}, {"range": (2.0, 2.0)}, {"density": True}, {"weight": 0}])
def test_histogram_of_no_values(dtype, opts):
    """No values and no range: edges over [0, 1] (NumPy's convention, PyTorch's too)."""
    from tests.conftest import same

    def run(T):
        kw = dict(opts)
        if "weight" in kw:
            kw["weight"] = T.zeros(0, dtype=getattr(T, dtype))
        return T.histogram(T.zeros(0, dtype=getattr(T, dtype)), 3, **kw)
    same(run)


def test_histogram_with_more_bins_than_memory_is_pytorchs_allocation_error():
    """2**40 bins: PyTorch's RuntimeError naming the bytes, not NumPy's MemoryError."""
    torch = pytest.importorskip("torch")
    for lib in (tensorviz, torch):
        with pytest.raises(RuntimeError, match="can't allocate memory: you tried to allocate "
                                               "4398046511108 bytes"):
            lib.histogram(lib.tensor([1.0, 2.0]), 2**40)


_TRAPEZOID_SHAPES = [(2,), (3,), (1,), (4, 4), (3, 1), (1, 3, 1), (2, 3), (4, 1, 1), (0,), (2, 0)]


@pytest.mark.parametrize("fn", ["trapezoid", "cumulative_trapezoid"])
@pytest.mark.parametrize("ys", _TRAPEZOID_SHAPES, ids=str)
def test_trapezoid_samples_of_any_shape_as_pytorch(fn, ys):
    """Sample points ``x`` of another rank than ``y``: PyTorch differences ``x`` along ``y``'s
    dim number counted from the left (``x`` of fewer dims gets leading 1s), then broadcasts;
    an empty ``y`` is computed through, not short-cut; shapes, strides, values and errors."""
    torch = pytest.importorskip("torch")
    for xs in _TRAPEZOID_SHAPES:
        for dim in (-1, 0, 1):
            got = []
            for lib in (torch, tensorviz):
                y = lib.arange(float(np.prod(ys))).reshape(ys) ** 2
                x = lib.arange(float(np.prod(xs))).reshape(xs) ** 1.5
                try:
                    r = getattr(lib, fn)(y, x, dim=dim)
                    got.append((tuple(r.shape), r.stride(), r.numpy()))
                except (RuntimeError, IndexError) as e:
                    got.append((type(e).__name__, str(e).split("\n")[0]))
            if isinstance(got[0][0], str):
                assert got[0] == got[1], (xs, dim)
                continue
            assert got[0][:2] == got[1][:2], (xs, dim, got[0][:2], got[1][:2])
            np.testing.assert_allclose(got[1][2], got[0][2], rtol=1e-5)


_TRAPEZOID_DTYPES = ["int8", "int64", "float16", "bfloat16", "float32", "float64", "complex64",
                     "complex128"]


@pytest.mark.parametrize("fn", ["trapezoid", "cumulative_trapezoid", "trapz"])
@pytest.mark.parametrize("ydtype", _TRAPEZOID_DTYPES)
def test_trapezoid_sample_points_promote_as_dimensioned_tensors(fn, ydtype):
    """PyTorch views sample points ``x`` with ``y``'s dims before differencing them, so a
    0-dim ``x`` promotes with ``y`` as a dimensioned tensor (a 0-dim float64 ``x`` makes a
    complex64 ``y``'s integral complex128, an int64 one an int8 ``y``'s terms int64):
    every dtype pair, 0-dim and lower-rank ``x``, seeded values."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(len(fn) + len(ydtype))
    for xdtype, ys in itertools.product(_TRAPEZOID_DTYPES, [(4, 3), (4, 1), (1,), (2,)]):
        for xs in [(), (1,), (1, 3), (4, 1)]:
            yv = rng.integers(-4, 5, ys)
            xv = rng.integers(-3, 4, xs)
            got = []
            for lib in (torch, tensorviz):
                y = lib.tensor(yv).to(getattr(lib, ydtype))
                x = lib.tensor(xv).to(getattr(lib, xdtype))
                try:
                    r = getattr(lib, fn)(y, x, dim=-1)
                    got.append((str(r.dtype).split(".")[1], tuple(r.shape), r.stride(),
                                r.to(lib.complex128).numpy()))
                except (RuntimeError, IndexError) as e:
                    got.append((type(e).__name__, str(e).split("\n")[0]))
            assert got[1][:-1] == got[0][:-1], (xdtype, ys, xs, got[0][:3], got[1][:3])
            assert len(got[0]) == 4 or got[1] == got[0], (xdtype, ys, xs, got)
            if not isinstance(got[0][0], str) and len(got[0]) == 4:
                np.testing.assert_allclose(got[1][3], got[0][3], rtol=1e-2, atol=1e-2)
