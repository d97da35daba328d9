"""Reductions and scans against PyTorch: dims as int/tuple/None, keepdim, dtype=, every dtype,
non-contiguous layouts, empty tensors, NaN, the (values, indices) named tuples and ``out=``."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import tensorviz

torch = pytest.importorskip("torch")

LAYOUTS = ("contig", "t", "step", "offset", "expand")  # see conftest.py
ALL_DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
              "float64", "complex64", "complex128")
SOME_DTYPES = ("bool", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64")

# (shape, dims) cases: every dim form PyTorch accepts
DIM_CASES = [((2, 3, 4), None), ((2, 3, 4), 0), ((2, 3, 4), -1), ((2, 3, 4), (0, 2)),
             ((2, 3, 4), [2, -3]), ((2, 3, 4), ()), ((5,), 0), ((), 0), ((), None),
             ((3, 0, 2), 1), ((3, 0, 2), None), ((3, 0, 2), 0), ((2, 3), 2), ((2, 3), (0, 0))]

# float32 sums are compared with a tolerance that scales with the number of terms
SUM_TOL = {"rtol": 1e-4, "atol": 1e-4}


def _layout(i):
    return LAYOUTS[i % len(LAYOUTS)]


def _call(name, dims, keepdim, **kw):
    def f(lib, t):
        fn = getattr(lib, name)
        if dims is None:
            return fn(t, **kw) if not keepdim else fn(t, keepdim=True, **kw)
        return fn(t, dims, keepdim, **kw)
    return f


@pytest.mark.parametrize("name", ["sum", "nansum", "mean", "nanmean", "amax", "amin", "all",
                                  "any", "logsumexp", "count_nonzero", "std", "var"])
@pytest.mark.parametrize("dtype", SOME_DTYPES)
def test_dim_reductions(tvdiff, name, dtype):
    tol = {} if dtype == "float16" else SUM_TOL  # (half sums: an ulp apart at times)
    for i, (shape, dims) in enumerate(DIM_CASES):
        x = tvdiff.make(shape, dtype, _layout(i), seed=i,
                        special=i % 3 == 0 and dtype != "complex64")
        for keepdim in (False, True):
            if name == "count_nonzero":
                if keepdim:
                    continue
                f = (lambda lib, t: lib.count_nonzero(t)) if dims is None else \
                    (lambda lib, t: lib.count_nonzero(t, dims))
            elif name == "logsumexp" and dims is None:
                f = lambda lib, t: lib.logsumexp(t, dim=tuple(range(t.dim())))  # noqa: E731
            else:
                f = _call(name, dims, keepdim)
            tvdiff.check(f, x, **tol)
        if name not in ("count_nonzero", "logsumexp", "std", "var") and dims is not None:
            tvdiff.check(lambda lib, t: getattr(t, name)(dims), x, **tol)


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "nansum", "cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", ["int32", "float16", "float32", "float64", "complex64",
                                   "int8", "bool", "uint8"])
@pytest.mark.parametrize("out_dtype", [None, "float64", "int64", "float16", "complex128",
                                       "int16"])
def test_dtype_argument(tvdiff, name, dtype, out_dtype):
    x = tvdiff.make((3, 4), dtype, "t", low=-3, high=4)
    dim = 1 if name in ("cumsum", "cumprod", "prod") else (0, 1)

    def f(lib, t):
        kw = {} if out_dtype is None else {"dtype": getattr(lib, out_dtype)}
        return getattr(lib, name)(t, dim, **kw)
    # (PyTorch warns about discarded imaginary parts once per process: not compared)
    tvdiff.check(f, x, rtol=1e-3, atol=1e-3, warns=False)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_prod(tvdiff, dtype):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make((3, 4), dtype, layout, seed=i, low=-2, high=3)
        tol = None if dtype == "float16" else 1e-4
        tvdiff.check(lambda lib, t: t.prod(), x, rtol=tol)
        for d in (0, 1, -1):
            tvdiff.check(lambda lib, t: lib.prod(t, d, keepdim=True), x, rtol=tol)
    tvdiff.check(lambda lib, t: t.prod((0, 1)), x)
    tvdiff.check(lambda lib, t: t.prod(), tvdiff.make((0, 3), dtype))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128",
                                   "int64"])
@pytest.mark.parametrize("call", ["std", "var", "std_mean", "var_mean"])
def test_std_var(tvdiff, dtype, call):
    cases = [dict(), dict(dim=1), dict(dim=(0, 1), keepdim=True), dict(dim=0, correction=0),
             dict(dim=1, correction=2), dict(unbiased=False), dict(dim=-1, unbiased=True),
             dict(correction=5), dict(dim=0, correction=0.5)]
    for i, kw in enumerate(cases):
        x = tvdiff.make((3, 4), dtype, _layout(i), seed=i, special=i == 3 and "complex" not in
                        dtype)
        tvdiff.check(lambda lib, t: getattr(lib, call)(t, **kw), x, rtol=1e-4, atol=1e-5)
    x = tvdiff.make((3, 4), dtype, "step")
    tvdiff.check(lambda lib, t: getattr(lib, call)(t, 1, False, True), x, rtol=1e-4)
    tvdiff.check(lambda lib, t: getattr(lib, call)(t, False), x, rtol=1e-4)
    # degrees of freedom <= 0: NaN/inf and PyTorch's UserWarning
    tvdiff.check(lambda lib, t: getattr(lib, call)(t[:1, :1]), x)
    tvdiff.check(lambda lib, t: getattr(lib, call)(t[:0]), x)
    if call in ("std", "var"):
        tvdiff.check(lambda lib, t: getattr(t, call)(0), x, rtol=1e-4)


@pytest.mark.parametrize("p", [2, 1, 3, 0.5, 0, math.inf, -math.inf, "fro", "nuc", -1, None])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "float16", "int64"])
def test_norm(tvdiff, p, dtype):
    for i, dim in enumerate([None, 0, 1, (0, 1), -1, (1, 0)]):
        x = tvdiff.make((3, 4), dtype, _layout(i), seed=i)
        for keepdim in (False, True):
            tvdiff.check(lambda lib, t: lib.norm(t, p, dim, keepdim), x, rtol=2e-3, atol=1e-3)
        tvdiff.check(lambda lib, t: t.norm(p=p, dim=dim), x, rtol=2e-3, atol=1e-3)
    x3 = tvdiff.make((2, 3, 4), dtype, "t")
    tvdiff.check(lambda lib, t: lib.norm(t, p), x3, rtol=2e-3, atol=1e-3)
    tvdiff.check(lambda lib, t: lib.norm(t, p, dim=(0, 2)), x3, rtol=2e-3, atol=1e-3)
    tvdiff.check(lambda lib, t: lib.norm(t, p, dtype=lib.float64), x3, rtol=2e-3, atol=1e-3)
    tvdiff.check(lambda lib, t: lib.norm(t, p), tvdiff.make((0, 3), dtype))


@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize("dtype", SOME_DTYPES + ("int8", "complex128"))
def test_max_min(tvdiff, name, dtype):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make((3, 4, 2), dtype, layout, seed=i, special=i == 1 and "complex" not in
                        dtype, low=-3, high=3)
        tvdiff.check(lambda lib, t: getattr(lib, name)(t), x)
        tvdiff.check(lambda lib, t: getattr(t, name)(), x)
        for d in (0, 1, -1, 3):
            tvdiff.check(lambda lib, t: getattr(lib, name)(t, d), x)
            tvdiff.check(lambda lib, t: getattr(t, name)(d, True), x)
            tvdiff.check(lambda lib, t: getattr(t, name)(dim=d, keepdim=False), x)
        y = tvdiff.make((4, 2), dtype, seed=9)
        tvdiff.check(lambda lib, t, u: getattr(lib, name)(t, u), x, y)
        tvdiff.check(lambda lib, t, u: getattr(t, name)(u), x, y)
    tvdiff.check(lambda lib, t: getattr(t, name)((0, 1)), x)
    tvdiff.check(lambda lib, t: getattr(lib, name)(t, 0), tvdiff.make((), dtype))
    tvdiff.check(lambda lib, t: getattr(lib, name)(t), tvdiff.make((), dtype))
    empty = tvdiff.make((0, 3), dtype)
    tvdiff.check(lambda lib, t: getattr(lib, name)(t), empty)
    tvdiff.check(lambda lib, t: getattr(lib, name)(t, 0), empty)
    tvdiff.check(lambda lib, t: getattr(lib, name)(t, 1), empty)
    for fn in ("amax", "amin", "argmax", "argmin", "aminmax"):
        tvdiff.check(lambda lib, t: getattr(lib, fn)(t), empty)
        tvdiff.check(lambda lib, t: getattr(lib, fn)(t, dim=0), empty)
        tvdiff.check(lambda lib, t: getattr(lib, fn)(t, dim=1), empty)


def test_max_returns_named_tuple():
    x = tensorviz.tensor([[1, 5], [3, 2]])
    r = x.max(1)
    assert isinstance(r, tuple) and isinstance(r, tensorviz.return_types.max)
    values, indices = r
    assert values.tolist() == [5, 3] and r.indices.tolist() == [1, 0]
    assert repr(r) == ("tensorviz.return_types.max(\nvalues=tensor([5, 3]),\n"
                       "indices=tensor([1, 0]))")
    assert repr(torch.tensor([[1, 5], [3, 2]]).max(1)).replace("torch", "tensorviz") == repr(r)
    import tensorviz.return_types as rt
    assert rt.min is tensorviz.return_types.min
    assert x.min(0).values.tolist() == [1, 2] and x.aminmax().max.item() == 5


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", SOME_DTYPES)
def test_argmax(tvdiff, name, dtype):
    for i, layout in enumerate(LAYOUTS):
        # few distinct values: ties everywhere, the first index wins
        x = tvdiff.make((3, 4, 2), dtype, layout, seed=i, low=-2, high=2,
                        special=i == 2 and "complex" not in dtype)
        tvdiff.check(lambda lib, t: getattr(lib, name)(t), x)
        tvdiff.check(lambda lib, t: getattr(lib, name)(t, keepdim=True), x)
        for d in (0, 1, -1):
            tvdiff.check(lambda lib, t: getattr(t, name)(d), x)
            tvdiff.check(lambda lib, t: getattr(lib, name)(t, dim=d, keepdim=True), x)


@pytest.mark.parametrize("dtype", SOME_DTYPES)
def test_aminmax(tvdiff, dtype):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make((3, 4), dtype, layout, seed=i, special=i == 1)
        tvdiff.check(lambda lib, t: lib.aminmax(t), x)
        tvdiff.check(lambda lib, t: t.aminmax(dim=1, keepdim=True), x)
        tvdiff.check(lambda lib, t: lib.aminmax(t, dim=-2), x)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_all_any_dtypes(tvdiff, dtype):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make((3, 4), dtype, layout, seed=i, low=0, high=2, special=i == 2)
        for name in ("all", "any"):
            tvdiff.check(lambda lib, t: getattr(t, name)(), x)
            tvdiff.check(lambda lib, t: getattr(lib, name)(t, 1), x)
            tvdiff.check(lambda lib, t: getattr(lib, name)(t, dim=(0, 1), keepdim=True), x)
    tvdiff.check(lambda lib, t: (t.all(), t.any()), tvdiff.make((0,), dtype))


@pytest.mark.parametrize("name", ["median", "nanmedian"])
@pytest.mark.parametrize("dtype", SOME_DTYPES)
def test_median(tvdiff, name, dtype):
    for i, layout in enumerate(LAYOUTS):
        special = i in (1, 3) and "complex" not in dtype
        x = tvdiff.make((3, 5, 2) if i % 2 else (4, 6), dtype, layout, seed=i, special=special,
                        low=-20, high=20)
        tvdiff.check(lambda lib, t: getattr(lib, name)(t), x)
        for d in (0, 1, -1):
            # Note: PyTorch 2.13's median along a stride-0 dim of an integer tensor returns
            # values from other columns (a PyTorch bug): compare with its contiguous answer
            def f(lib, t, kw):
                src = t.contiguous() if lib is torch and layout == "expand" else t
                return getattr(src, name)(d, **kw)
            r = tvdiff.check(lambda lib, t: f(lib, t, {}), x, indices=False)
            if r is not None:
                _consistent(x.tv, d, r)
            tvdiff.check(lambda lib, t: f(lib, t, {"keepdim": True}), x, indices=False)
    tvdiff.check(lambda lib, t: getattr(lib, name)(t), tvdiff.make((0,), dtype))
    tvdiff.check(lambda lib, t: getattr(lib, name)(t, 0), tvdiff.make((0, 2), dtype))
    tvdiff.check(lambda lib, t: getattr(lib, name)(t, 0), tvdiff.make((), dtype))


def test_median_nan_rows(tvdiff):
    data = np.array([[1.0, np.nan, 2.0, np.nan], [np.nan, np.nan, np.nan, np.nan],
                     [3.0, 1.0, 2.0, 0.0]], dtype="float32")
    x = tvdiff.make(data.shape, "float32", data=data)
    for name in ("median", "nanmedian"):
        r = tvdiff.check(lambda lib, t: getattr(t, name)(1), x, indices=False)
        _consistent(x.tv, 1, r)
        assert r.indices.tolist()[0] == (1 if name == "median" else 0)  # first NaN / lower
        tvdiff.check(lambda lib, t: getattr(t, name)(), x)


def _consistent(x, d, r):
    """indices point at the values: x.gather(d, indices) == values (NaN too)."""
    values, indices = r
    got = np.take_along_axis(x.numpy(), np.expand_dims(indices.numpy(), d), d).squeeze(d)
    np.testing.assert_array_equal(got, values.numpy())


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int64", "float16", "float32",
                                   "float64", "complex64"])
def test_mode(tvdiff, dtype):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make((4, 7), dtype, layout, seed=i, low=-2, high=3)
        for d in (0, 1, -1):
            tvdiff.check(lambda lib, t: t.mode(d), x)
            tvdiff.check(lambda lib, t: lib.mode(t, d, True), x)
        tvdiff.check(lambda lib, t: lib.mode(t), x)
    tvdiff.check(lambda lib, t: lib.mode(t), tvdiff.make((), dtype))
    tvdiff.check(lambda lib, t: lib.mode(t, 0), tvdiff.make((0, 2), dtype))


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "float16", "complex64", "bool"])
def test_logsumexp_extremes(tvdiff, dtype):
    x = tvdiff.make((3, 4), dtype, "t", low=-100, high=100)
    tvdiff.check(lambda lib, t: lib.logsumexp(t, 1), x, rtol=1e-4)
    tvdiff.check(lambda lib, t: t.logsumexp((0, 1), keepdim=True), x, rtol=1e-4)
    if dtype.startswith("float"):
        data = np.array([[-np.inf, -np.inf], [np.inf, 1.0], [np.nan, 1.0], [np.inf, np.inf]],
                        dtype=dtype)
        y = tvdiff.make(data.shape, dtype, data=data)
        tvdiff.check(lambda lib, t: lib.logsumexp(t, 1), y)
    tvdiff.check(lambda lib, t: lib.logsumexp(t, 0), tvdiff.make((0, 2), dtype))


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_cumulative(tvdiff, name, dtype):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make((3, 4, 2), dtype, layout, seed=i, low=-2, high=3)
        for d in (0, 1, -1):
            tvdiff.check(lambda lib, t: getattr(lib, name)(t, d), x, rtol=1e-3)
            tvdiff.check(lambda lib, t: getattr(t, name)(dim=d), x, rtol=1e-3)
    tvdiff.check(lambda lib, t: getattr(lib, name)(t, 0), tvdiff.make((), dtype))
    tvdiff.check(lambda lib, t: getattr(lib, name)(t, 0), tvdiff.make((0, 3), dtype))
    tvdiff.check(lambda lib, t: getattr(lib, name)(t, 3), x)

    def inplace(lib, t):
        assert getattr(t, name + "_")(1) is t
        return t
    tvdiff.check(inplace, tvdiff.make((3, 4), dtype, "t", low=-2, high=3), rtol=1e-3)


@pytest.mark.parametrize("name", ["cummax", "cummin"])
@pytest.mark.parametrize("dtype", SOME_DTYPES)
def test_cummax(tvdiff, name, dtype):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make((3, 6), dtype, layout, seed=i, low=-2, high=3,
                        special=i == 1 and "complex" not in dtype)
        for d in (0, 1, -1):
            tvdiff.check(lambda lib, t: getattr(lib, name)(t, d), x)
    tvdiff.check(lambda lib, t: getattr(lib, name)(t, 0), tvdiff.make((), dtype))
    tvdiff.check(lambda lib, t: getattr(lib, name)(t, 0), tvdiff.make((0, 3), dtype))


@pytest.mark.parametrize("dtype", SOME_DTYPES)
def test_unique(tvdiff, dtype):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make((4, 5), dtype, layout, seed=i, low=-3, high=3)
        for inv in (False, True):
            for cnt in (False, True):
                tvdiff.check(lambda lib, t: lib.unique(t, return_inverse=inv,
                                                       return_counts=cnt), x)
                tvdiff.check(lambda lib, t: t.unique(sorted=True, return_inverse=inv,
                                                     return_counts=cnt, dim=None), x)
                tvdiff.check(lambda lib, t: lib.unique_consecutive(t, return_inverse=inv,
                                                                   return_counts=cnt), x)
                for d in (0, 1):
                    tvdiff.check(lambda lib, t: lib.unique_consecutive(
                        t, return_inverse=inv, return_counts=cnt, dim=d), x)
    y = tvdiff.make((6, 2), dtype, seed=3, low=0, high=2)
    for d in (0, 1, -1):
        tvdiff.check(lambda lib, t: lib.unique(t, dim=d, return_inverse=True,
                                               return_counts=True), y)
    tvdiff.check(lambda lib, t: lib.unique(t), tvdiff.make((0,), dtype))
    for d in (0, 1):
        tvdiff.check(lambda lib, t: lib.unique(t, dim=d, return_inverse=True,
                                               return_counts=True), tvdiff.make((0, 2), dtype))
    tvdiff.check(lambda lib, t: lib.unique(t, return_inverse=True), tvdiff.make((), dtype))


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int32", "int64", "float32", "bool"])
@pytest.mark.parametrize("weights", [None, "float32", "float64", "int64", "float16"])
@pytest.mark.parametrize("minlength", [0, 3, 20])
def test_bincount(tvdiff, dtype, weights, minlength):
    x = tvdiff.make((9,), dtype, "step", low=0, high=8)
    w = None if weights is None else tvdiff.make((9,), weights, "offset", low=0, high=3)
    tvdiff.check(lambda lib, t, u: lib.bincount(t, u, minlength), x, w)
    tvdiff.check(lambda lib, t, u: t.bincount(weights=u, minlength=minlength), x, w)
    tvdiff.check(lambda lib, t: lib.bincount(t - 4 if t.dtype != lib.bool else t), x)
    tvdiff.check(lambda lib, t: lib.bincount(t.reshape(1, -1)), tvdiff.make((8,), dtype, low=0))
    tvdiff.check(lambda lib, t: lib.bincount(t[:0], minlength=minlength), x)


@pytest.mark.parametrize("seed", range(6))
def test_bincount_float32_weights_add_in_order_in_float32(seed):
    """PyTorch adds float32 weights one by one into a float32 result: with cancelling
    weights of mixed magnitudes the rounded sums differ from a float64 sum rounded once."""
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, 4, 64)
    w = (rng.standard_normal(64) * 10.0 ** rng.integers(-4, 9, 64)).astype(np.float32)
    for wdt in ("float32", "float64", "float16"):
        want = torch.bincount(torch.tensor(idx), torch.tensor(w).to(getattr(torch, wdt)))
        got = tensorviz.bincount(tensorviz.tensor(idx),
                                 tensorviz.tensor(w).to(getattr(tensorviz, wdt)))
        assert str(got.dtype).split(".")[1] == str(want.dtype).split(".")[1]
        np.testing.assert_array_equal(got.numpy(), want.numpy())


_HUGE_BINCOUNT = """
import resource, sys
import tensorviz as T
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    r = T.bincount(T.tensor([2147483647, 2], dtype=T.int32), minlength=5)
except RuntimeError as e:  # a machine that cannot reserve 16 GB: PyTorch's allocator error
    assert str(e).startswith("DefaultCPUAllocator: can't allocate memory: you tried to "
                             "allocate 17179869184 bytes"), e
    sys.exit(0)
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
assert r.shape == (2**31,) and r.dtype == T.int64 and r.stride() == (1,), r
assert (r[-1].item(), r[2].item(), r[:2].sum().item(), r[3:7].sum().item()) == (1, 1, 0, 0)
assert grown < 1 << 20, f"{grown} KiB touched: the zeros were written or copied"
"""


def test_bincount_of_a_huge_value_answers_without_filling_memory():
    """bincount([2**31 - 1]) is 2**31 int64 bins (16 GB): PyTorch's answer. The result is
    allocated zero-filled and written only where counted, so it costs what it counts (or
    PyTorch's allocator error where the memory cannot be reserved), never 16 GB of writes."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(tensorviz.__file__)), os.environ.get("PYTHONPATH", "")]))
    res = subprocess.run([sys.executable, "-c", _HUGE_BINCOUNT], env=env, capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 0, res.stderr


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "bool"])
@pytest.mark.parametrize("kwargs", [{}, {"bins": 7}, {"bins": 4, "min": -1, "max": 1},
                                    {"bins": 5, "min": 2, "max": 2}, {"bins": 3, "min": 3,
                                                                      "max": -3}])
def test_histc(tvdiff, dtype, kwargs):
    for i, layout in enumerate(LAYOUTS[:4]):
        x = tvdiff.make((4, 6), dtype, layout, seed=i, low=-3, high=3)
        tvdiff.check(lambda lib, t: lib.histc(t, **kwargs), x)
        tvdiff.check(lambda lib, t: t.histc(**kwargs), x)
    data = np.array([1.0, 2.0, 1.0, np.inf, -np.inf, np.nan, 3.0, 0.0], dtype="float32")
    tvdiff.check(lambda lib, t: lib.histc(t, bins=4, min=0, max=3),
                 tvdiff.make(data.shape, "float32", data=data))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_histc_of_a_single_value_far_from_one(tvdiff, dtype):
    """A range from data holding one value is widened by 1 each side, and for float32/float64
    out to at least the value's neighbours (1e30 - 1 is 1e30: the value falls in the middle
    bin; 2**24 + 1 is no float32: it falls a third of the way); 16-bit ends that round away
    or overflow raise PyTorch's errors."""
    rng = np.random.default_rng(7)
    values = [0.0, 1.0, -2.5, 1e30, -1e30, 2.0 ** 24, 2.0 ** 25 + 4, 2.0 ** 53, 2048.0, 4096.0,
              65504.0, 3.4028234663852886e38, -3.3e38, 5e-324, 1e300]
    values += list(rng.standard_normal(6) * 10.0 ** rng.integers(-5, 40, 6))
    for v in values:
        x = tvdiff.make((2,), "float64", data=np.array([v, v]))
        for bins in (1, 7, 100):
            tvdiff.check(lambda lib, t: lib.histc(t.to(getattr(lib, dtype)), bins=bins)
                         .double(), x)
            tvdiff.check(lambda lib, t: lib.histc(t[0].to(getattr(lib, dtype)), bins=bins,
                                                  min=v, max=v).double(), x)
    x = tvdiff.make((2,), "float64", data=np.array([1.0, 2.0]))
    for lo, hi in ((0, 70000), (0, 3.39e38), (-3.5e38, 0), (0, 65519)):
        tvdiff.check(lambda lib, t: lib.histc(t.to(getattr(lib, dtype)), bins=3, min=lo,
                                              max=hi).double(), x)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "float32", "complex64"])
@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_diff(tvdiff, dtype, n):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make((3, 5), dtype, layout, seed=i, low=-5, high=5)
        for d in (0, 1, -1):
            tvdiff.check(lambda lib, t: lib.diff(t, n, d), x)
            tvdiff.check(lambda lib, t: t.diff(n=n, dim=d), x)
    p = tvdiff.make((3, 2), dtype, seed=5)
    tvdiff.check(lambda lib, t, u: lib.diff(t, n, 1, prepend=u, append=u), x, p)
    tvdiff.check(lambda lib, t: lib.diff(t), tvdiff.make((), dtype))


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "bool", "complex64"])
def test_trapezoid(tvdiff, dtype):
    x = tvdiff.make((3, 5), dtype, "t", low=-5, high=5)
    xs = tvdiff.make((5,), "float64", seed=3)
    tvdiff.check(lambda lib, t: lib.trapezoid(t), x, rtol=1e-4)
    tvdiff.check(lambda lib, t: lib.trapezoid(t, dim=0), x, rtol=1e-4)
    tvdiff.check(lambda lib, t: lib.trapezoid(t, dx=0.5), x, rtol=1e-4)
    tvdiff.check(lambda lib, t, u: lib.trapezoid(t, u), x, xs, rtol=1e-4)
    tvdiff.check(lambda lib, t, u: lib.trapz(t, u), x, xs, rtol=1e-4)


def test_mean_of_integers_raises(tvdiff):
    x = tvdiff.make((3,), "int64")
    tvdiff.check(lambda lib, t: t.mean(), x)
    tvdiff.check(lambda lib, t: t.mean(dtype=lib.int32), x)
    tvdiff.check(lambda lib, t: t.mean(dtype=lib.float64), x)
    with pytest.raises(RuntimeError, match="mean\\(\\): could not infer output dtype. Input "
                                           "dtype must be either a floating point or complex "
                                           "dtype. Got: Long"):
        x.tv.mean()


def test_axis_and_keepdims_aliases(tvdiff):
    x = tvdiff.make((2, 3), "float32", "t")
    tvdiff.check(lambda lib, t: t.sum(axis=1), x)
    tvdiff.check(lambda lib, t: t.sum(1, keepdims=True), x)
    tvdiff.check(lambda lib, t: lib.mean(t, axis=0, keepdims=True), x)


@pytest.mark.parametrize("name", ["sum", "mean", "prod", "amax", "logsumexp", "cumsum", "std",
                                  "all", "argmax", "nansum"])
def test_out(tvdiff, name):
    x = tvdiff.make((3, 4), "float32", "t")
    for out_shape in [(3,), (0,), (2, 2)]:
        def f(lib, t):
            out = lib.zeros(out_shape, dtype=lib.int64 if name == "argmax" else
                            lib.bool if name == "all" else lib.float64)
            args = (t, 1) if name != "prod" else (t, 1)
            assert getattr(lib, name)(*args, out=out) is out
            return out
        tvdiff.check(f, x, rtol=1e-6)


def test_out_values_indices(tvdiff):
    x = tvdiff.make((3, 4), "float32", "t")

    def f(lib, t, name):
        v, i = lib.zeros(0), lib.zeros(0, dtype=lib.int64)
        r = getattr(lib, name)(t, 1, out=(v, i))
        assert r[0] is v and r[1] is i
        return v, i
    for name in ("max", "min", "median", "mode", "cummax"):
        tvdiff.check(lambda lib, t: f(lib, t, name), x)


def test_inplace_reduction_result_is_fresh():
    x = tensorviz.arange(6.0).reshape(2, 3)
    for r in (x.sum(0), x.amax(1), x.cumsum(0), x.max(0).values, x.median(1).values,
              x.unique(), x.diff(n=0), x.mean(0)):
        assert r.untyped_storage() is not x.untyped_storage()


def test_version_and_seed_snippet_values():
    x = tensorviz.tensor([1.0, 2.0, 3.0])
    assert abs(tensorviz.norm(x).item() - 14 ** 0.5) < 1e-6
    assert tensorviz.cumsum(x, 0).tolist() == [1.0, 3.0, 6.0]
    assert x.mean().item() == 2.0 and x.sum().item() == 6.0
    assert tensorviz.randint(0, 3, (100,)).max().item() < 3


# ---------------------------------------------------------------- random shapes and layouts
hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies


@st.composite
def strided_cases(draw):
    """A random shape, then a layout: every dim strided by 1-2 and the dims permuted."""
    shape = tuple(draw(st.lists(st.integers(0, 4), max_size=4)))
    steps = tuple(draw(st.lists(st.integers(1, 2), min_size=len(shape), max_size=len(shape))))
    perm = tuple(draw(st.permutations(range(len(shape)))))
    dtype = draw(st.sampled_from(["bool", "int16", "int64", "float32", "float64"]))
    n = max(len(shape), 1)
    dim = draw(st.one_of(st.none(), st.integers(-n, n - 1),
                         st.lists(st.integers(0, n - 1), max_size=n, unique=True).map(tuple)))
    return shape, steps, perm, dtype, dim, draw(st.integers(0, 2 ** 16))


def _build(lib, data, steps, perm):
    t = lib.from_numpy(data.copy())
    t = t[tuple(slice(None, None, s) for s in steps)] if steps else t
    return t.permute(*perm) if perm else t


@hypothesis.given(strided_cases())
@hypothesis.settings(max_examples=80, deadline=None)
def test_random_layouts(tvdiff, case):
    shape, steps, perm, dtype, dim, seed = case
    rng = np.random.default_rng(seed)
    base = tuple(s * k for s, k in zip(shape, steps))
    if dtype == "bool":
        data = np.asarray(rng.random(base) < 0.5)
    elif dtype.startswith("int"):
        data = np.asarray(rng.integers(-5, 6, size=base)).astype(dtype)
    else:
        data = np.asarray(rng.normal(size=base)).astype(dtype)
    pair = tvdiff.make((), "float32")  # a Twin, to carry the two tensors
    pair.tv, pair.pt = _build(tensorviz, data, steps, perm), _build(torch, data, steps, perm)
    int_dim = dim if isinstance(dim, int) else None
    for f in (lambda lib, t: t.sum(dim) if dim is not None else t.sum(),
              lambda lib, t: lib.amax(t, dim if dim is not None else ()),
              lambda lib, t: lib.any(t, dim),
              lambda lib, t: t.float().mean(dim) if dim is not None else t.float().mean(),
              lambda lib, t: t.double().std(dim),
              lambda lib, t: lib.count_nonzero(t, dim),
              lambda lib, t: t.argmax(int_dim) if t.dtype != lib.bool else t.int().argmax(),
              lambda lib, t: t.max(int_dim) if int_dim is not None else t.max(),
              lambda lib, t: t.cumsum(int_dim if int_dim is not None else 0),
              lambda lib, t: t.sort(dim=int_dim if int_dim is not None else -1, stable=True),
              lambda lib, t: t.unique(return_inverse=True, return_counts=True),
              lambda lib, t: lib.exp(t), lambda lib, t: lib.logical_not(t)):
        tvdiff.check(f, pair, rtol=1e-5, atol=1e-6)


def _strides_match(tv_res, pt_res):
    tv_list = tv_res if isinstance(tv_res, tuple) else (tv_res,)
    pt_list = pt_res if isinstance(pt_res, tuple) else (pt_res,)
    for a, b in zip(tv_list, pt_list):
        assert a.stride() == b.stride(), f"strides {a.stride()} != {b.stride()}"


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("op", [
    lambda lib, t: t.sum(0), lambda lib, t: t.mean((0, 2)), lambda lib, t: t.std(1),
    lambda lib, t: lib.var_mean(t, 0), lambda lib, t: t.amax(0), lambda lib, t: t.any(2),
    lambda lib, t: t.prod(0, dtype=lib.float64), lambda lib, t: lib.logsumexp(t, 0),
    lambda lib, t: t.max(0), lambda lib, t: t.median(1), lambda lib, t: t.cumsum(1),
    lambda lib, t: t.cummax(0), lambda lib, t: lib.norm(t, dim=0),
    lambda lib, t: t.sort(1), lambda lib, t: t.argsort(0), lambda lib, t: lib.msort(t)])
def test_result_strides(tvdiff, layout, op):
    """Reductions and scans allocate row-major results whatever the input's layout; sorts
    allocate them like the input (a transposed input gives transposed values and indices)."""
    x = tvdiff.make((2, 3, 4), "float32", layout, seed=3)
    tvdiff.check(op, x, rtol=1e-5, atol=1e-6)
    r_tv, r_pt = op(tensorviz, x.tv), op(torch, x.pt)
    _strides_match(r_tv, r_pt)
    # a result PyTorch lays out row-major can be viewed flat, as in PyTorch
    r_tv, r_pt = (r_tv[0], r_pt[0]) if isinstance(r_pt, tuple) else (r_tv, r_pt)
    if r_pt.is_contiguous():
        assert tuple(r_tv.view(-1).shape) == tuple(r_pt.view(-1).shape)


@pytest.mark.parametrize("name", ["sum", "nansum", "mean", "nanmean", "cumsum"])
def test_dtype_arg_rounds_input_first(tvdiff, name):
    """``dtype=float16`` converts the input to half before accumulating (in float32), so the
    result is PyTorch's to the bit, not one rounding of the exact sum."""
    x = tvdiff.make((7, 5), "float32", "t", seed=0)
    tvdiff.check(lambda lib, t: getattr(lib, name)(t, 0, dtype=lib.float16), x, rtol=0,
                 atol=0)


@pytest.mark.parametrize("name", ["sum", "nansum", "prod", "cumsum", "cumprod"])
def test_dtype_int_from_nonfinite_is_quiet(tvdiff, name):
    """NaN/inf converted to an integer ``dtype=`` gives no NumPy warning (pytest turns warnings
    into errors); nansum drops NaN before converting."""
    x = tvdiff.make((3, 4), "float16", "t", seed=1, special=True)
    f = lambda lib, t: getattr(lib, name)(t, 0, dtype=lib.int64)  # noqa: E731
    if name == "nansum":
        tvdiff.check(f, x)
    else:
        f(tensorviz, x.tv)


@pytest.mark.parametrize("name", ["std", "var", "std_mean", "var_mean"])
@pytest.mark.parametrize("keepdim", [False, True])
def test_var_empty_dim_tuple_keepdim(tvdiff, name, keepdim):
    """``dim=()`` reduces every dim; with keepdim=True each stays as size 1."""
    for shape in [(3, 4), (5,), (2, 0)]:
        x = tvdiff.make(shape, "float32", "contig", seed=2)
        tvdiff.check(lambda lib, t: getattr(lib, name)(t, (), keepdim=keepdim), x, warns=False)


def test_reduction_edge_errors_and_dtypes(tvdiff):
    f32 = tvdiff.make((3, 4), "float32")
    tvdiff.check(lambda lib, t: lib.nanmean(t, 0, dtype=lib.int64), f32)
    tvdiff.check(lambda lib, t: lib.nanmean(t, 5, dtype=lib.int64), f32)
    tvdiff.check(lambda lib, t: lib.nanmean(t, 0, dtype=lib.complex64), f32)
    tvdiff.check(lambda lib, t: lib.mode(t, 0, True), tvdiff.make((), "float32"))
    tvdiff.check(lambda lib, t: lib.mode(t, -1, False), tvdiff.make((), "int64"))
    for shape, dim in [((0, 3), 0), ((4, 0), -1)]:
        e = tvdiff.make(shape, "float32")
        tvdiff.check(lambda lib, t: lib.kthvalue(t, 1, dim), e)
        tvdiff.check(lambda lib, t: t.kthvalue(1, dim, True), e)
    for dt in ("uint8", "int8", "int64", "bool"):
        x = tvdiff.make((5,), dt)
        for lo, hi in [(-1, 1), (0, 300), (0, 1)]:
            tvdiff.check(lambda lib, t: lib.histc(t, 4, lo, hi), x)
    for dt in ("int64", "int32", "uint8"):
        for wdt in ("float32", "float64", "int64"):
            e, w = tvdiff.make((0,), dt), tvdiff.make((0,), wdt)
            tvdiff.check(lambda lib, t, u: lib.bincount(t, u), e, w)
            tvdiff.check(lambda lib, t, u: lib.bincount(t, u, minlength=3), e, w)


def test_bad_argument_types(tvdiff):
    x = tvdiff.make((3, 4), "float32")
    tvdiff.check(lambda lib, t: lib.sum(t, "a"), x)
    tvdiff.check(lambda lib, t: lib.mean(t, b"ab"), x)
    tvdiff.check(lambda lib, t: lib.sum(t, 0, dtype=lib.int64, out=lib.zeros(4)), x)
    tvdiff.check(lambda lib, t: lib.cumsum(t, 0, dtype=lib.int64, out=lib.zeros(3, 4)), x)
    tvdiff.check(lambda lib, t: lib.prod(t, 0, dtype=lib.float64, out=lib.zeros(4)), x)


def test_nuclear_norm_checks(tvdiff):
    x = tvdiff.make((3, 4), "float32")
    h = tvdiff.make((3, 4), "float16")
    tvdiff.check(lambda lib, t: lib.norm(t, "nuc", ()), x)
    tvdiff.check(lambda lib, t: lib.norm(t, "nuc", 2), h)
    tvdiff.check(lambda lib, t: lib.norm(t, "nuc", 2), x)
    tvdiff.check(lambda lib, t: lib.norm(t, "nuc", 0), x)
    tvdiff.check(lambda lib, t: lib.norm(t, "nuc", (0, 1, 1)), x)
    tvdiff.check(lambda lib, t: lib.norm(t, "nuc", (0, 1)), x, rtol=1e-4, atol=1e-4)
    tvdiff.check(lambda lib, t: lib.norm(t, "fro", ()), x, rtol=1e-4, atol=1e-4)


def test_var_mean_and_std_mean_keep_an_infinite_mean():
    """Note: PyTorch's var_mean/std_mean give a NaN mean once an infinite element is followed
    by another (Welford's inf - inf); tensorviz's mean is mean()'s, the infinity."""
    x = tensorviz.tensor([[0.25, 0.0], [-float("inf"), -1.0]])
    for f in (tensorviz.var_mean, tensorviz.std_mean):
        spread, mean = f(x)
        assert math.isnan(spread.item()) and mean.item() == x.mean().item() == -math.inf
        spread, mean = f(x, dim=1)
        assert mean.tolist() == x.mean(dim=1).tolist()


def test_unique_consecutive_positional_return_inverse():
    """Note: PyTorch's torch.unique_consecutive(x, True) returns an empty inverse; tensorviz
    gives the inverse, as return_inverse=True and the method do (both as PyTorch's)."""
    for lib in (tensorviz, torch):
        x = lib.tensor([[-2.5, -1.0], [-1.0, 3.0]])
        out, inv = lib.unique_consecutive(x, return_inverse=True)
        assert inv.tolist() == [[0, 1], [1, 2]]
    out, inv = tensorviz.unique_consecutive(tensorviz.tensor([[-2.5, -1.0], [-1.0, 3.0]]), True)
    assert inv.tolist() == [[0, 1], [1, 2]] and out.tolist() == [-2.5, -1.0, 3.0]


@pytest.mark.parametrize("dtype", [int, float, complex, "int64", "float16", "bool", "same"])
def test_cumsum_inplace_dtype_must_match(dtype):
    """cumsum_/cumprod_ with a dtype (Python types too) other than self's: PyTorch's
    RuntimeError naming both C++ types, never an internal error."""
    for name in ("cumsum_", "cumprod_"):
        got = []
        for lib in (tensorviz, torch):
            x = lib.tensor([5, 2], dtype=lib.int8)
            dt = x.dtype if dtype == "same" else getattr(lib, dtype) if isinstance(dtype, str) \
                else dtype
            try:
                got.append(getattr(x, name)(0, dtype=dt).tolist())
            except RuntimeError as e:
                got.append(str(e))
        assert got[0] == got[1], (name, dtype)


def test_trapezoid_of_integers_wraps_as_pytorch():
    """trapezoid/cumulative_trapezoid of integer y and x: diff(x) * (y[1:] + y[:-1]) wraps in
    the integer dtypes, the sum is int64, then halved in floats (PyTorch's composite)."""
    progs = [
        lambda T: T.trapezoid(T.tensor([2**30, 0, 2**30], dtype=T.int32),
                              T.tensor([0, 2, 4], dtype=T.int32)),
        lambda T: T.cumulative_trapezoid(T.tensor([2**30, 0, 2**30], dtype=T.int32),
                                         T.tensor([0, 2, 4], dtype=T.int32)),
        lambda T: T.trapz(T.tensor([0, 0, -5, -2**31], dtype=T.int32),
                          T.tensor([0, 0, -5, -2**31], dtype=T.int32)),
        lambda T: T.trapezoid(T.tensor([[[5, 3]]]),
                              T.tensor([[[-6, 2, -2147483647, 6], [0, 6, 3, 6], [-1, 2, 4, 0]]])),
        lambda T: T.trapezoid(T.tensor([2**30, 0, 2**30], dtype=T.int32), dx=2),
    ]
    for f in progs:
        assert f(tensorviz).tolist() == f(torch).tolist()


@pytest.mark.parametrize("op", ["var", "std", "var_mean", "std_mean"])
@pytest.mark.parametrize("correction", [2, 3, 2**40])
def test_complex_var_without_degrees_of_freedom(tvdiff, op, correction):
    """A complex variance is the real part's plus the imaginary part's: with no degrees of
    freedom a constant imaginary part gives NaN (0/0) beside an infinite real one."""
    x = tvdiff.make((3, 2), "complex64", data=np.array(
        [[0.25 - 2j, 0.5 - 2j], [0.5, np.inf - 2j], [1.15e18, 4 - 2j]], dtype=np.complex64))
    # (the mean of var_mean/std_mean differs on purpose where an element is infinite)
    tvdiff.check(lambda lib, t: getattr(lib, op)(t, 1, correction=correction)[0]
                 if op.endswith("mean") else getattr(lib, op)(t, 1, correction=correction),
                 x, warns=False)


@pytest.mark.parametrize("op", ["var", "std"])
@pytest.mark.parametrize("correction", [-3, -1, 0, 2])
@pytest.mark.parametrize("dtype", ["float32", "complex64", "float16"])
def test_var_of_nothing_is_nan_whatever_the_correction(tvdiff, op, correction, dtype):
    """Over no elements the variance is NaN, even where a negative correction leaves degrees
    of freedom (0 / 3 would be 0)."""
    x = tvdiff.make((0, 3), dtype)
    tvdiff.check(lambda lib, t: getattr(lib, op)(t, 0, correction=correction), x, warns=False)
    tvdiff.check(lambda lib, t: getattr(lib, op)(t[:, 0], correction=correction), x, warns=False)


def test_std_of_complex_rounds_the_variance_first():
    """PyTorch's std of a complex tensor takes the square root of the variance rounded to
    the real dtype (inf past float32's range), of a real one in double."""
    progs = [lambda T: T.std(T.tensor([1e30, -1e30])), lambda T: T.std(T.tensor([1e30 + 0j, -1e30])),
             lambda T: T.std(T.tensor([1e20 + 1e20j, -1e20]), dim=0),
             lambda T: T.std_mean(T.tensor([1e30 + 0j, -1e30]))[0],
             lambda T: T.std(T.tensor([1 + 2j, 3 - 1j], dtype=T.complex128))]
    for f in progs:
        a, b = f(tensorviz), f(torch)
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def test_min_max_take_a_0dim_tensor_dim_when_keepdim_is_given():
    """``x.min(tensor(0), keepdim=True)`` is the (dim, keepdim) overload in PyTorch; without
    keepdim a tensor is the elementwise ``other``; other tensors as dim are a TypeError."""
    progs = [lambda T, x: x.min(T.tensor(0), keepdim=True), lambda T, x: x.max(T.tensor(1), True),
             lambda T, x: x.min(T.tensor(0)), lambda T, x: T.max(x, T.tensor(1), False),
             lambda T, x: x.max(T.tensor(1.), True), lambda T, x: x.min(T.tensor([0, 1]), True)]
    for f in progs:
        got = []
        for T in (tensorviz, torch):
            x = T.tensor([[1., 5.], [3., 2.]])
            try:
                r = f(T, x)
                got.append([t.tolist() for t in r] if isinstance(r, tuple) else r.tolist())
            except TypeError as e:
                got.append(str(e))
        assert got[0] == got[1]


def test_block_diag_promotes_as_result_type():
    """block_diag's dtype is PyTorch's result_type of its inputs (a 0-dim one is weaker)."""
    for make in (lambda T: (T.tensor(0), T.tensor([[1, 2]], dtype=T.int8)),
                 lambda T: (T.tensor(0.5), T.tensor([[1, 2]], dtype=T.int8)),
                 lambda T: (T.tensor([True]), T.tensor(2.5))):
        a, b = tensorviz.block_diag(*make(tensorviz)), torch.block_diag(*make(torch))
        assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1]
        assert a.tolist() == b.tolist()


@pytest.mark.parametrize("seed", range(20))
def test_mode_and_sorts_of_rows_with_nan_as_pytorch(seed):
    """PyTorch's mode sorts each row with C++'s std::sort and ``<``, which a NaN leaves
    unsorted (``mode([-inf, inf, nan, inf])`` is -inf); bfloat16 rows with NaN sort (topk,
    median, argsort) as float32 does, NaN largest. Seeded random rows of up to 16."""
    import random
    rng = random.Random(seed)
    for _ in range(25):
        n, m = rng.randint(1, 16), rng.randint(1, 3)
        vals = [[rng.choice([float("nan"), float("inf"), -float("inf"), 0.0, 1.0, 2.0, -1.0])
                 for _ in range(n)] for _ in range(m)]
        dt = rng.choice(["float32", "bfloat16", "float16", "float64"])
        got = []
        for lib in (torch, tensorviz):
            x = lib.tensor(vals, dtype=getattr(lib, dt))
            v, i = lib.mode(x)
            assert np.array_equal(x.float()[lib.arange(m), i].numpy(), v.float().numpy(),
                                  equal_nan=True)  # (the index of one of the mode's copies)
            got.append([v.float().numpy(), lib.median(x, -1)[0].float().numpy(),
                        lib.topk(x, (n + 1) // 2)[0].float().numpy(),
                        lib.sort(x)[0].float().numpy()])
        for a, b in zip(*got):
            np.testing.assert_array_equal(b, a)


@pytest.mark.parametrize("name", ["prod", "sum"])
def test_complex_reduced_as_bool_counts_either_part(name):
    """``dtype=bool`` converts a complex input first, True where either part is nonzero (C++'s
    cast), not its real part: ``prod(tensor([1j, 2j]), dtype=bool)`` is True."""
    for dims in ((), (0,), (1,)):
        got = []
        for lib in (torch, tensorviz):
            x = lib.tensor([[0.1j, 1 + 0j, 1e-310 - 2j], [0j, 2.0, 1j]])
            r = getattr(lib, name)(x, *dims, dtype=lib.bool)
            got.append(r.tolist())
        assert got[0] == got[1], dims


@pytest.mark.parametrize("dim", [0, -1, 1])
@pytest.mark.parametrize("call", ["trapezoid", "trapz", "trapezoid-x", "cumulative_trapezoid"])
def test_trapezoid_of_a_0d_tensor_raises_pytorchs_index_error(call, dim):
    torch = pytest.importorskip("torch")
    outcomes = []
    for lib in (tensorviz, torch):
        name, _, with_x = call.partition("-")
        args = (lib.tensor(1.0),) + ((lib.tensor(2.0),) if with_x else ())
        with pytest.raises(IndexError) as e:
            getattr(lib, name)(*args, dim=dim)
        outcomes.append(str(e.value))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("seed", range(4))
def test_sum_mean_over_one_dim_direct_path_is_the_general_path(seed):
    """``x.sum(d)``, ``x.mean(d)`` and ``x.mean()`` of row-major float tensors take a direct
    path: the same bits, shape, strides and dtype as the general path (reached here through
    ``dim=(d,)`` / ``dim=None``), and PyTorch's shapes and values."""
    rng = np.random.default_rng(seed)
    for _ in range(150):
        nd = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(0, 6, nd))
        dt = [np.float32, np.float64][int(rng.integers(0, 2))]
        a = (rng.standard_normal(shape) * rng.choice([1.0, 1e30, 1e-30])).astype(dt)
        if a.size and rng.random() < 0.3:
            a.reshape(-1)[rng.integers(0, a.size)] = rng.choice([np.nan, np.inf, -np.inf])
        d, k = int(rng.integers(-nd, nd)), bool(rng.integers(0, 2))
        x, t = tensorviz.tensor(a), torch.tensor(a)
        for fast, general, ref in [(x.sum(d, keepdim=k), x.sum((d,), keepdim=k), t.sum(d, k)),
                                   (x.mean(d, k), x.mean((d,), k), t.mean(d, k)),
                                   (tensorviz.mean(x, d), tensorviz.mean(x, (d,)), t.mean(d)),
                                   (x.mean(), x.mean(dim=None), t.mean())]:
            assert fast.shape == general.shape and fast.stride() == general.stride()
            assert fast.dtype == general.dtype
            assert fast.numpy().tobytes() == general.numpy().tobytes()
            assert tuple(fast.shape) == tuple(ref.shape) and fast.stride() == ref.stride()
            np.testing.assert_allclose(fast.numpy(), ref.numpy(), rtol=2e-5, atol=0)


def _diff_layout(rng, shape=None):
    """A random ``(shape, stride, offset)``: dims in any order, stepped, size-1 dims with any
    stride, some dims expanded."""
    if shape is None:
        shape = tuple(int(rng.choice([0, 1, 2, 3, 3, 4])) for _ in range(rng.integers(1, 5)))
    stride, acc = [0] * len(shape), 1
    for d in rng.permutation(len(shape)):
        step = int(rng.choice([1, 1, 2]))
        stride[d], acc = acc * step, acc * step * max(shape[d], 1)
    stride = [int(rng.choice([1, 5, 7])) if n == 1 and rng.random() < 0.5 else
              0 if n > 1 and rng.random() < 0.15 else st for n, st in zip(shape, stride)]
    return tuple(shape), tuple(stride), int(rng.integers(0, 2))


@pytest.mark.parametrize("seed", range(4))
def test_diff_of_random_layouts(seed):
    """diff as PyTorch composes it: each order a ``narrow - narrow`` laid out by
    TensorIterator from the previous result, prepend/append joined by ``cat`` (promoted
    quietly: an int64 extreme into float16 is inf, no NumPy warning), and an input with
    nothing along the dim returned itself."""
    rng = np.random.default_rng(seed)
    dtypes = ("bool", "uint8", "int16", "int64", "float16", "bfloat16", "float32", "complex64")
    for i in range(120):
        shape, stride, offset = _diff_layout(rng)
        dt, n = str(rng.choice(dtypes)), int(rng.choice([1, 1, 2, 3]))
        dim = int(rng.integers(-len(shape), len(shape)))
        extras = {}
        for name in ("prepend", "append"):
            if rng.random() < 0.3:
                sh = list(shape)
                sh[dim] = int(rng.integers(1, 3))
                extras[name] = (_diff_layout(rng, tuple(sh)), str(rng.choice(dtypes)))

        def run(lib):
            def make(layout, dtype, k):
                sh, st, off = layout
                size = off + 1 + sum((s - 1) * t for s, t in zip(sh, st) if s)
                data = np.random.default_rng(1000 * i + k).integers(-3, 4, size)
                if k == 2:  # (the int64 extremes the promotion to a half turns into inf)
                    data = data * (2 ** 62)
                base = lib.tensor(data).to(getattr(lib, dtype))
                return base.as_strided(sh, st, off)
            x = make((shape, stride, offset), dt, 0)
            kw = {k: make(lay, d, j + 1) for j, (k, (lay, d)) in enumerate(extras.items())}
            try:
                r = lib.diff(x, n, dim, **kw)
            except RuntimeError as e:
                return type(e).__name__
            return (tuple(r.shape), r.stride(), str(r.dtype).split(".")[-1], r is x,
                    np.asarray(r.to(lib.complex128).tolist(), dtype=complex))
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # (no NumPy warning may reach the user)
            got, want = run(tensorviz), run(torch)
        if isinstance(want, str) or isinstance(got, str):
            assert got == want, (shape, stride, dt, n, dim, extras)
            continue
        assert got[:4] == want[:4], (shape, stride, offset, dt, n, dim, extras)
        np.testing.assert_allclose(got[4], want[4], rtol=1e-2)


def _extreme(tvdiff, shape, dtype, seed, layout="contig", nan=True, inf=True, top=None):
    """Seeded values near the ends of ``dtype``'s range: its largest values, their
    reciprocals, subnormals, repeats, ±inf and NaN (``nan``) among small numbers, as a twin
    in ``layout``. What accumulation type and order decide."""
    rng = np.random.default_rng(seed)
    real = np.dtype("float32" if dtype == "complex64" else "float64" if dtype == "complex128"
                    else "float32" if dtype == "bfloat16" else dtype)
    info = np.finfo(real)
    big = float(info.max) if top is None else top  # (the largest magnitude drawn)
    pool = [big, -big, big / 3, 1 / big * 4,
            float(info.smallest_subnormal) * 3, -0.0, 0.0, 1.5, -2.0, 3.0, 0.25, 1e30, 1e-30,
            ] + ([np.inf, -np.inf] if inf else []) + ([np.nan] if nan else [])
    from tests.inventory import base_shape
    data = rng.choice(np.array(pool), size=base_shape(shape, layout))
    if dtype.startswith("complex"):
        z = np.empty(data.shape, dtype=np.complex128)
        z.real, z.imag = data, rng.choice(np.array(pool), size=data.shape)
        data = z
    with np.errstate(over="ignore"):
        data = data.astype(dtype)
    if not inf:  # (nor values that overflowed to one)
        data[np.isinf(data.real) | np.isinf(data.imag)] = 2.0
    return tvdiff.make(shape, dtype, layout, data=data)


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64"])
def test_cumulative_accumulates_in_pytorch_acc_type(tvdiff, name, dtype):
    """PyTorch's CPU scans run in at::acc_type (float32 in double, complex64 in complex128,
    half in float32), each step rounded to the result: a running product that leaves float32's
    range comes back (cumprod([1e30, 1e30, 1e-30]) is [1e30, inf, 1e30]), to the bit."""
    for seed in range(12):
        layout = LAYOUTS[seed % len(LAYOUTS)]
        # (complex64: finite values; a product past the range is compared by its class in
        # tests/fuzz: PyTorch's fused multiply-adds and NumPy's products reach different
        # representatives of an infinity. complex128 products, in their own dtype, differ
        # by those fused multiply-adds' last bits alone: not here)
        real = not dtype.startswith("complex")
        x = _extreme(tvdiff, (4, 6), dtype, seed, layout, nan=real and seed % 2 == 0, inf=real)
        atol = 0
        for d in (0, 1):
            tvdiff.check(lambda lib, t: getattr(lib, name)(t, d), x, rtol=1e-6, atol=atol)
        # (PyTorch warns once per process when a cast drops an imaginary part)
        tvdiff.check(lambda lib, t: getattr(lib, name)(t, 1, dtype=lib.float32), x, rtol=1e-6,
                     atol=atol, warns=False)
    x = tvdiff.make((3,), "float32", data=np.array([1e30, 1e30, 1e-30], dtype=np.float32))
    for f in (lambda lib, t: t.cumprod(0), lambda lib, t: t.clone().cumprod_(0),
              lambda lib, t: lib.cumprod(t, 0, out=lib.empty(3))):
        tvdiff.check(f, x, rtol=0, atol=0)


@pytest.mark.parametrize("name", ["std", "var", "std_mean", "var_mean"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
def test_std_var_follow_pytorch_paths_at_the_range_ends(tvdiff, name, dtype):
    """var/std down to one element take the mean in the input's dtype (a float32 sum past
    the range: an infinite std, as PyTorch's std_var_all_cpu), along a dim Welford's in
    double (finite); a complex variance adds its parts' rounded variances, its mean is the
    parts' means (inf+nan j stays so). Seeded values at the ends of each dtype's range."""
    for seed in range(10):
        layout = LAYOUTS[seed % len(LAYOUTS)]
        # (the *_mean ops: no infinities, whose Welford mean is NaN in PyTorch: see var_mean;
        # double values whose squares stay in range: see _var_parts's Note)
        x = _extreme(tvdiff, (3, 4), dtype, seed, layout, nan=seed % 3 == 0,
                     inf=name in ("std", "var"),
                     top=1e150 if dtype in ("float64", "complex128") else None)
        # (a mean's rounding depends on the order of its sum, within n * eps * max|x|)
        mag = np.abs(x.tv.numpy().astype(np.complex128))
        finite = mag[np.isfinite(mag)]
        eps = float(np.finfo(np.dtype(dtype).type(0).real.dtype).eps)
        atol = 16 * eps * float(finite.max(initial=1.0)) if name.endswith("_mean") else None
        for dim in (None, 0, 1, (0, 1)):
            for keepdim in (False, True):
                tvdiff.check(lambda lib, t: getattr(lib, name)(t, dim, keepdim=keepdim), x,
                             rtol=1e-5 if dtype in ("float32", "complex64") else None,
                             atol=atol, warns=False)
        row = _extreme(tvdiff, (1, 5), dtype, seed, nan=False, inf=False,
                       top=1e150 if dtype in ("float64", "complex128") else None)
        finite = np.abs(row.tv.numpy().astype(np.complex128))
        atol = 16 * eps * float(finite.max()) if name.endswith("_mean") else None
        tvdiff.check(lambda lib, t: getattr(lib, name)(t, 1, correction=0), row, atol=atol,
                     warns=False)
    big = tvdiff.make((3,), "float32", data=np.array([3.4e38, 3.4e38, 1.0], dtype=np.float32))
    for f in (lambda lib, t: t.std(), lambda lib, t: t[None].var(1),
              lambda lib, t: lib.std(t.expand(2, 3), 1), lambda lib, t: lib.std_mean(t)):
        tvdiff.check(f, big)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_nansum_to_an_integer_dtype_converts_as_pytorch(tvdiff, dtype):
    """nansum(dtype=<integer>) drops NaN, then converts each element as PyTorch's kernel
    does: a float16 infinity as +-65504 (its largest half), float32/float64 ones as .to()
    does (INT_MIN); overflowing sums wrap. Seeded values at the ends of the range."""
    for seed in range(8):
        x = _extreme(tvdiff, (3, 4), dtype, seed, LAYOUTS[seed % len(LAYOUTS)])
        for out in ("int8", "uint8", "int16", "int32", "int64", "bool", "float32"):
            for dim in (None, 0, 1):
                tvdiff.check(lambda lib, t: lib.nansum(t, dim, dtype=getattr(lib, out)), x)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
def test_norm_of_one_element_and_of_a_0dim_tensor_along_a_dim(tvdiff, dtype):
    """PyTorch's norm of one element is its |x| (no overflow, whatever p), but a 0-dim
    tensor's along an explicit dim takes the general path: |1e30| ** 2 overflows there, and
    p = nan gives NaN. Every p, dim form and shape of one element, on values at the range
    ends."""
    ps = [math.nan, 0, 0.5, 1, 2, 3, math.inf, -math.inf, -1, 1.5]
    for seed in range(4):
        x = _extreme(tvdiff, (), dtype, seed, nan=seed == 3)
        for shape in ((), (1,), (1, 1)):
            for p in ps:
                for dim in (None, 0, -1, [0], ()):
                    for keepdim in (False, True):
                        f = lambda lib, t: lib.norm(t.reshape(shape), p, dim, keepdim)  # noqa: E731
                        tvdiff.check(f, x, warns=False)
                        g = lambda lib, t: lib.linalg.vector_norm(  # noqa: E731
                            t.reshape(shape), p, dim, keepdim)
                        tvdiff.check(g, x, warns=False)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_unique_with_nan_follows_pytorchs_unstable_sort(tvdiff, dtype):
    """PyTorch's unique sorts with std::sort: with dim, slices compared element by element
    with ``<`` (a NaN orders neither way), so slices holding NaN are not sorted and never
    merge; without dim, each NaN is its own value, its inverse by where std::sort leaves it.
    Seeded inputs of NaN, +-inf, -0.0/0.0, subnormals and repeats, up to 40 slices."""
    rng = np.random.default_rng(11)
    pool = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0, 1e-310])
    for seed in range(40):
        shape = tuple(int(s) for s in rng.integers(1, 40 if seed % 4 == 0 else 6,
                                                    1 + seed % 2))
        x = tvdiff.make(shape, dtype, data=rng.choice(pool, shape).astype(dtype))
        for dim in (None,) + tuple(range(len(shape))):
            for srt in (True, False):
                tvdiff.check(lambda lib, t: lib.unique(t, sorted=srt, return_inverse=True,
                                                       return_counts=True, dim=dim), x)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_mode_of_rows_holding_nan_past_16(tvdiff, dtype):
    """PyTorch's mode sorts each row with std::sort and ``<`` (an introsort past 16
    elements), which a NaN leaves unsorted: its runs are counted as they lie."""
    rng = np.random.default_rng(3)
    for seed in range(6):
        n = int(rng.integers(17, 120))
        data = np.where(rng.random((3, n)) < 0.2, np.nan, rng.integers(0, 4, (3, n)))
        x = tvdiff.make((3, n), dtype, data=data.astype(dtype))
        tvdiff.check(lambda lib, t: lib.mode(t, 1), x)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_logsumexp_of_16bit_floats_rounds_each_step_as_pytorch(dtype):
    """PyTorch computes a 16-bit logsumexp op by op in its dtype (x - max, exp, sum, log,
    + max each rounded): bfloat16 logsumexp([0.25, 1.0]) is 1.3828, not float32's 1.3869
    rounded once (1.3906), and tan of it 5.25, not 5.5. Bit for bit on seeded tensors."""
    import numpy as np
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    for trial in range(120):
        shape = tuple(rng.integers(1, 6, rng.integers(1, 4)))
        x = (rng.standard_normal(shape) * rng.choice([0.5, 3, 30])).astype(np.float32)
        if trial % 10 == 0:
            x.flat[0] = rng.choice([np.inf, -np.inf, np.nan, 65504.0])
        d = int(rng.integers(0, len(shape)))
        e = torch.logsumexp(torch.from_numpy(x).to(getattr(torch, dtype)), d).float().numpy()
        r = tensorviz.logsumexp(tensorviz.from_numpy(x).to(getattr(tensorviz, dtype)), d)
        np.testing.assert_array_equal(r.float().numpy(), e)


@pytest.mark.parametrize("name", ["trapezoid", "cumulative_trapezoid"])
@pytest.mark.parametrize("ydtype", ["float16", "float32", "int64"])
def test_trapezoid_steps_round_to_the_result_dtype(tvdiff, name, ydtype):
    """PyTorch's trapezoid composites round each step to the result's dtype: diff(x) and
    y[1:] + y[:-1] meet there (an int64 sum of -2**63 is -inf as float16, times a zero
    spacing NaN), dx * (...) overflows there, and the running sum is in at::acc_type.
    Seeded samples and spacings at the ends of the range."""
    rng = np.random.default_rng(5)
    for seed in range(8):
        if ydtype == "int64":
            vals = np.array([-2**63, 2**63 - 1, 0, 3, -5, 6, 1])
            y = tvdiff.make((4, 3), ydtype, data=rng.choice(vals, (4, 3)))
        else:
            y = _extreme(tvdiff, (4, 3), ydtype, seed, nan=seed % 2 == 0)
        for xdtype in ("int64", "float16", "float32"):
            xs = np.array([0, 2, -3, 65504, 1, -1]) if xdtype == "int64" else \
                np.array([0.0, 2.0, -2.5, 65504.0, 1.0, 1e30])
            with np.errstate(over="ignore"):  # (1e30 as float16: inf)
                xv = rng.choice(xs, (4, 3)).astype(xdtype)
            x = tvdiff.make((4, 3), xdtype, data=xv)
            for dim in (0, -1):
                tvdiff.check(lambda lib, a, b: getattr(lib, name)(a, b, dim=dim), y, x,
                             rtol=1e-3)
        for dx in (1, 2.0, 70000.0):
            tvdiff.check(lambda lib, a: getattr(lib, name)(a, dx=dx, dim=0), y, rtol=1e-3)


@pytest.mark.parametrize("xdtype", ["float16", "float32", "float64", "int32", "uint8"])
@pytest.mark.parametrize("ydtype", ["float16", "bfloat16", "float32", "int64"])
def test_trapezoid_of_0_dim_samples_promotes_them_as_dimensioned(tvdiff, ydtype, xdtype):
    """PyTorch views samples x with y's number of dims before taking their differences, so a
    0-dim x takes part in the result's dtype as a dimensioned tensor would (float16 y with a
    float32 0-dim x integrates to float32, not float16)."""
    torch = pytest.importorskip("torch")
    got = []
    for T in (tensorviz, torch):
        y = T.tensor([[1.0, 2.0]]).to(getattr(T, ydtype))  # (x's one difference: none)
        x = T.tensor(1.5).to(getattr(T, xdtype))
        got.append([(str(r.dtype).rpartition(".")[2], r.tolist())
                    for r in (T.trapz(y, x), T.trapezoid(y, x, dim=0), T.trapz(y[0, :1], x))])
    assert got[0] == got[1]


@pytest.mark.parametrize("fn", ["unique", "unique_consecutive"])
@pytest.mark.parametrize("shape", [(4, 0), (0, 4), (2, 0, 3), (0,), (2, 3), (0, 0), (0, 0, 2),
                                   (2, 0, 0)])
@pytest.mark.parametrize("dim", [0, -1, None])
def test_unique_along_a_dim_of_empty_tensors_as_pytorch(fn, shape, dim):
    """unique/unique_consecutive along a dim of an empty tensor: a row-major empty result
    (stride (1, 1) for (4, 0)), or PyTorch's refusal ("Number of zero sized dimensions is
    more than one" beside "There are 0 sized dimensions, and they aren't selected")."""
    torch = pytest.importorskip("torch")
    got = []
    for T in (tensorviz, torch):
        try:
            out = getattr(T, fn)(T.zeros(shape), dim=dim, return_inverse=True,
                                 return_counts=True)
            got.append([(tuple(t.shape), t.stride(), t.tolist()) for t in out])
        except RuntimeError as e:
            got.append(str(e))
    assert got[0] == got[1]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_16_bit_prod_rounds_every_step_in_memory_order(dtype):
    """PyTorch's float16/bfloat16 prod multiplies in the dtype itself, rounding each step
    (300 * 300 * (1 / 300) is inf in float16), over the reduced dims in memory order (a
    transposed matrix's product is its storage's); dtype= converts first. Seeded shapes
    below PyTorch's vectorized length (64 elements), against PyTorch bit for bit."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(11)
    for trial in range(150):
        shape = tuple(rng.integers(1, 7, rng.integers(1, 4)))
        if np.prod(shape) >= 64:  # (PyTorch's vector loop: lanes as wide as the machine's)
            continue
        x = (rng.standard_normal(shape) * rng.choice([0.5, 3, 30, 300])).astype(np.float32)
        if trial % 7 == 0:
            x.flat[0] = rng.choice([np.inf, np.nan, 0.0, -0.0])
        d = int(rng.integers(0, len(shape)))
        got = []
        for T in (tensorviz, torch):
            t = T.tensor(x).to(getattr(T, dtype))
            tt = t.permute(*reversed(range(t.dim())))
            got.append(repr([r.float().tolist() for r in (
                t.prod(), t.prod(d), t.double().prod(dtype=getattr(T, dtype)), tt.prod(),
                tt.prod(d))]))
        assert got[0] == got[1], (shape, d)
@pytest.mark.parametrize("name", ["trapezoid", "trapz", "cumulative_trapezoid"])
@pytest.mark.parametrize("x,dx", [("t", 2), ("t", 2.5), ("t", True), ("t", None), (2, None),
                                  (1.5, None), (None, 2), (None, None)])
def test_trapezoid_samples_or_spacing_not_both(name, x, dx):
    # PyTorch's overloads: (y, x) or (y, *, dx); both, or a number for x, is its TypeError
    outcomes = []
    for lib in (torch, tensorviz):
        y = lib.arange(6.).reshape(2, 3)
        xs = lib.tensor([0., 1., 3.]) if x == "t" else x
        kw = {} if dx is None else {"dx": dx}
        try:
            args = (y,) if x is None else (y, xs)
            outcomes.append(getattr(lib, name)(*args, **kw).tolist())
        except TypeError as e:
            outcomes.append(str(e).splitlines()[0])
        except RuntimeError as e:
            outcomes.append(type(e).__name__)
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("name", ["any", "all"])
@pytest.mark.parametrize("src", ["float32", "uint8", "bool", "complex64"])
@pytest.mark.parametrize("dst", ["bool", "uint8", "int64", "float32", "complex128"])
def test_any_all_out_dtype(name, src, dst):
    # out= must be bool or uint8 (PyTorch's RuntimeError names the dtype); its dtype wins
    outcomes = []
    for lib in (torch, tensorviz):
        data = [[0, 1, 2], [3, 0.5, 256]] if src in ("float32", "complex64") else \
            [[0, 1, 1], [1, 0, 200 if src == "uint8" else 1]]
        t = lib.tensor(data, dtype=getattr(lib, src))
        out = lib.zeros(2, dtype=getattr(lib, dst))
        with warnings.catch_warnings():
            # (a complex input into a uint8 out warns that it drops the imaginary part: once
            # per process in PyTorch, so not compared here)
            warnings.simplefilter("ignore", UserWarning)
            try:
                r = getattr(lib, name)(t, 1, out=out)
                outcomes.append((str(r.dtype).split(".")[-1], r.tolist(), r is out))
            except RuntimeError as e:
                outcomes.append(str(e))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("name", ["var", "std", "var_mean", "std_mean"])
@pytest.mark.parametrize("dim,corr", [("t0", None), ("tbool", None), ("t1d", None),
                                      (1, "t1"), (1, "t1.5"), ("t0", "t0"), (1, "t1d")])
def test_var_dim_and_correction_as_tensors(name, dim, corr):
    # PyTorch's parser reads a 0-dim tensor as the dim (a bool one as 1) or the correction
    outcomes = []
    for lib in (torch, tensorviz):
        make = {"t0": lambda: lib.tensor(0), "tbool": lambda: lib.tensor(True),
                "t1d": lambda: lib.tensor([1]), "t1": lambda: lib.tensor(1),
                "t1.5": lambda: lib.tensor(1.5)}
        x = lib.tensor([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]])
        kw = {} if corr is None else {"correction": make[corr]()}
        try:
            r = getattr(lib, name)(x, make[dim]() if isinstance(dim, str) else dim, **kw)
            outcomes.append([np.round(np.asarray(v.tolist()), 6).tolist()
                             for v in (r if isinstance(r, tuple) else (r,))])
        except TypeError:
            outcomes.append("TypeError")
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("seed", range(4))
def test_histc_past_the_dtype_range(seed):
    # positions (x - min) * bins past the dtype: bin 0 as PyTorch's kernel; a width past it:
    # no element counted (PyTorch's edges are NaN)
    rng = np.random.default_rng(seed)
    for dtype in ("float16", "float32"):
        big = 60000.0 if dtype == "float16" else 3.0e38
        vals = rng.choice([0.5, 1.5, -2.0, big, -big, big / 3, float("nan")], 7).tolist()
        for bins, lo, hi in ((4, 0, 0), (3, -1, 2), (5, 0, big)):
            outcomes = []
            for lib in (torch, tensorviz):
                try:
                    outcomes.append(lib.tensor(vals, dtype=getattr(lib, dtype)).histc(
                        bins, lo, hi).tolist())
                except RuntimeError:  # (NaN data with min == max: a range not finite)
                    outcomes.append("RuntimeError")
            assert outcomes[0] == outcomes[1], (vals, bins, lo, hi)


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float64"])
def test_mode_1d_with_nan(dtype):
    # a 1-D input holding NaN: one row, ordered as PyTorch's std::sort leaves it
    for vals in ([1.0, float("nan"), float("nan")], [-1.0, -2.5, -1.0, float("nan")],
                 [float("nan")] * 3, [2.0, float("nan"), 2.0, 1.0]):
        outcomes = []
        for lib in (torch, tensorviz):
            r = lib.tensor(vals, dtype=getattr(lib, dtype)).mode()
            outcomes.append((repr(r.values.item()), r.indices.item()))
        assert outcomes[0] == outcomes[1], vals


@pytest.mark.parametrize("call", [
    lambda lib: lib.tensor([[True, False]])[1:].softmax(1),
    lambda lib: lib.tensor([[1, 2]])[:, 2:].log_softmax(1),
    lambda lib: lib.tensor([[1, 2]])[:, 2:].softmax(0),
    lambda lib: lib.tensor([[1, 2]]).softmax(0),
    lambda lib: lib.nansum(lib.ones(0), -1, dtype=lib.complex64),
    lambda lib: lib.nansum(lib.ones(0, 2), 0, dtype=lib.complex128),
    lambda lib: lib.nansum(lib.ones(2), 0, dtype=lib.complex128),
    lambda lib: lib.quantile(lib.tensor([[1.0, 3.0, 2.0]]), True),
    lambda lib: lib.nanquantile(lib.tensor([[1.0, 3.0, 2.0]]), False, 1, True),
])
def test_empty_inputs_run_no_dtype_check_and_q_bool(call):
    # an empty input runs no kernel (softmax of bool, nansum to complex); q=True is 1.0
    outcomes = []
    for lib in (torch, tensorviz):
        try:
            r = call(lib)
            outcomes.append((str(r.dtype).split(".")[-1], tuple(r.shape), r.tolist()))
        except (RuntimeError, NotImplementedError) as e:
            outcomes.append((type(e).__name__, str(e)))
    assert outcomes[0] == outcomes[1]


@pytest.mark.filterwarnings("ignore:.*degrees of freedom")
@pytest.mark.parametrize("correction", [1, 3, 10**6])
@pytest.mark.parametrize("fn", ["var_mean", "std_mean"])
def test_welford_variance_of_a_constant_slice_is_exactly_zero(tvdiff, fn, correction):
    """PyTorch's var_mean/std_mean (Welford's updates) keep a constant slice's mean exactly
    its value and its squared deviations exactly 0: with no degrees of freedom the variance
    is 0 / 0, NaN (an expanded 3.4e38 was inf: sum(x / n) rounded off the value)."""
    data = np.array([[3.4e38, 3.4e38, 3.4e38], [0.1, 0.1, 0.1], [1.0, 2.0, 3.0]])
    t = tvdiff.make((3, 3), "float64", data=data)
    tvdiff.check(lambda lib, x: getattr(lib, fn)(x, 1, correction=correction), t)
    tvdiff.check(lambda lib, x: getattr(lib, fn)(x[0, :1].expand(3), correction=correction), t)
    tvdiff.check(lambda lib, x: getattr(lib, fn)(x[1].float(), correction=correction), t)
