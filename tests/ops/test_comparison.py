"""Comparison and sorting against PyTorch: equal/isclose/allclose, elementwise extremes,
clamp_min/max, sort/argsort/msort/topk/kthvalue (stable order, NaN, ties), searchsorted, isin."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import tensorviz

torch = pytest.importorskip("torch")

LAYOUTS = ("contig", "t", "step", "offset", "expand")  # see conftest.py
SOME_DTYPES = ("bool", "uint8", "int8", "int32", "int64", "float16", "float32", "float64",
               "complex64")


def _gathered(x, d, r):
    """``indices`` address ``values`` in ``x`` (for ops whose tie order PyTorch leaves open)."""
    values, indices = r
    xs = x.numpy()
    if xs.ndim == 0:
        assert indices.item() == 0
        return
    got = np.take_along_axis(xs, indices.numpy().reshape(
        indices.shape if indices.dim() == xs.ndim else np.expand_dims(indices.numpy(), d).shape),
        d)
    np.testing.assert_array_equal(got.reshape(values.shape), values.numpy())


# ---------------------------------------------------------------- closeness
@pytest.mark.parametrize("dtype", SOME_DTYPES + ("float64",))
def test_equal(tvdiff, dtype):
    a = tvdiff.make((3, 4), dtype, "t", seed=1)
    b = tvdiff.make((3, 4), dtype, "step", seed=1)
    c = tvdiff.make((3, 4), dtype, "contig", seed=2)
    for x, y in [(a, a), (a, b), (a, c), (a, tvdiff.make((4, 3), dtype))]:
        tvdiff.check(lambda lib, u, v: lib.equal(u, v), x, y)
        tvdiff.check(lambda lib, u, v: u.equal(v), x, y)
    other = tvdiff.make((3, 4), "float64", "t", seed=1)
    tvdiff.check(lambda lib, u, v: lib.equal(u, v), a, other)
    nan = tvdiff.make((2,), "float32", data=np.array([np.nan, 1.0], dtype="float32"))
    tvdiff.check(lambda lib, u: lib.equal(u, u), nan)


@pytest.mark.parametrize("dtype", ["bool", "int32", "int64", "float16", "float32", "float64",
                                   "complex64"])
@pytest.mark.parametrize("kwargs", [{}, {"rtol": 0.1}, {"atol": 0.5}, {"equal_nan": True},
                                    {"rtol": 0, "atol": 0}, {"rtol": -1}, {"atol": 1.5,
                                                                           "rtol": 0.2}])
def test_isclose_allclose(tvdiff, dtype, kwargs):
    for i, layout in enumerate(LAYOUTS):
        a = tvdiff.make((3, 4), dtype, layout, seed=i, special=i == 1 and "complex" not in dtype)
        noise = np.random.default_rng(i).uniform(-1, 1, (3, 4))
        data = a.tv.numpy() + (noise if dtype not in ("bool",) else 0).astype(a.tv.numpy().dtype) \
            if dtype != "bool" else a.tv.numpy()
        b = tvdiff.make((3, 4), dtype, data=np.ascontiguousarray(data))
        tvdiff.check(lambda lib, u, v: lib.isclose(u, v, **kwargs), a, b)
        tvdiff.check(lambda lib, u, v: u.isclose(v, **kwargs), a, a)
        tvdiff.check(lambda lib, u, v: lib.allclose(u, v, **kwargs), a, b)
        tvdiff.check(lambda lib, u, v: u.allclose(u, **kwargs), a, b)
    other = tvdiff.make((3, 4), "float64" if dtype != "float64" else "float32")
    tvdiff.check(lambda lib, u, v: lib.isclose(u, v), a, other)
    tvdiff.check(lambda lib, u, v: lib.isclose(u, v), a, tvdiff.make((4,), dtype))


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("seed", range(3))
def test_isclose_of_16_bit_floats_rounds_each_step_as_pytorch(seed, dtype):
    """16-bit isclose computes each of atol + |rtol * other| and |self - other| in float32
    and rounds it to the dtype, as PyTorch's ops: 1e30 is close to -3 with atol=10**30
    (bfloat16's 1e30 is 1.0001e30), float16's |-3 - 65504| is 65504, and a difference that
    rounds to inf is not close; integer atols past int64 included."""
    torch = pytest.importorskip("torch")
    atols = [0, 1e-8, 10**30, 1e30, 59999, 1.0, 1e40]
    got = []
    for T in (tensorviz, torch):
        rng = np.random.default_rng(seed)
        rows = []
        for k in range(100):
            va = rng.choice([1e30, 3.0, 60000., -2.5, 0.1, np.inf, np.nan, 1e-30, 3.3e38, 257.0,
                             65504.0, 2049.0], 6)
            vb = rng.choice([1e30, 3.0, -3.0, 2.0, 1.0, np.inf, 1e-30, 3.3e38, 256., 258.0,
                             -65504.0], 6)
            rtol, atol = float(rng.choice([0, 1e-5, 0.5, 1, 2.0])), atols[rng.integers(7)]
            a, b = T.tensor(va, dtype=getattr(T, dtype)), T.tensor(vb, dtype=getattr(T, dtype))
            rows.append(T.isclose(a, b, rtol, atol, equal_nan=bool(k % 2)).tolist())
        got.append(rows)
    assert got[0] == got[1]


def test_isclose_infinities(tvdiff):
    x = tvdiff.make((4,), "float32", data=np.array([np.inf, -np.inf, np.nan, 1.0], "float32"))
    y = tvdiff.make((4,), "float32", data=np.array([np.inf, np.inf, np.nan, np.inf], "float32"))
    for kw in ({}, {"equal_nan": True}, {"atol": math.inf}):
        tvdiff.check(lambda lib, u, v: lib.isclose(u, v, **kw), x, y)


# ---------------------------------------------------------------- elementwise extremes
@pytest.mark.parametrize("name", ["maximum", "minimum", "fmax", "fmin"])
@pytest.mark.parametrize("pair", [("float32", "float32"), ("int32", "int64"), ("bool", "bool"),
                                  ("uint8", "int8"), ("float16", "float64"), ("int64", "float32"),
                                  ("complex64", "complex64"), ("bool", "int16")])
def test_extremes(tvdiff, name, pair):
    for i, layout in enumerate(LAYOUTS):
        a = tvdiff.make((3, 4), pair[0], layout, seed=i, special=True)
        b = tvdiff.make((4,), pair[1], seed=i + 1, special=True)
        tvdiff.check(lambda lib, u, v: getattr(lib, name)(u, v), a, b)
        tvdiff.check(lambda lib, u, v: getattr(u, name)(v), a, b)
        tvdiff.check(lambda lib, u, v: getattr(lib, name)(u, v, out=lib.empty(0, dtype=u.dtype)),
                     a, b)
    tvdiff.check(lambda lib, u: getattr(lib, name)(u, 1), a)


@pytest.mark.parametrize("name", ["clamp_min", "clamp_max"])
@pytest.mark.parametrize("dtype", ["bool", "int32", "float16", "float32", "complex64"])
@pytest.mark.parametrize("bound", [0, 1.5, -2, "tensor"])
def test_clamp_min_max(tvdiff, name, dtype, bound):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make((3, 4), dtype, layout, seed=i, special="complex" not in dtype)
        b = tvdiff.make((4,), "float32", seed=3) if bound == "tensor" else bound
        tvdiff.check(lambda lib, t, v: getattr(lib, name)(t, v), x, b)
        tvdiff.check(lambda lib, t, v: getattr(t, name)(v), x, b)

        def inplace(lib, t, v):
            assert getattr(t, name + "_")(v) is t
            return t
        tvdiff.check(inplace, x, b)


# ---------------------------------------------------------------- sorting
@pytest.mark.parametrize("dtype", SOME_DTYPES)
@pytest.mark.parametrize("descending", [False, True])
def test_sort(tvdiff, dtype, descending):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make((4, 6, 2) if i % 2 else (5, 7), dtype, layout, seed=i, low=-3, high=3,
                        special=i in (1, 2) and "complex" not in dtype)
        for d in (0, 1, -1):
            # stable: the order of equal elements is defined, so the indices must match
            tvdiff.check(lambda lib, t: lib.sort(t, dim=d, descending=descending, stable=True),
                         x)
            tvdiff.check(lambda lib, t: t.sort(stable=True, dim=d, descending=descending), x)
            tvdiff.check(lambda lib, t: t.argsort(dim=d, descending=descending, stable=True), x)
            tvdiff.check(lambda lib, t: t.argsort(d, descending, stable=True), x)  # TypeError
            r = tvdiff.check(lambda lib, t: t.sort(d, descending), x, indices=False)
            if r is not None:
                _gathered(x.tv, d, r)
        tvdiff.check(lambda lib, t: t.msort(), x)
        tvdiff.check(lambda lib, t: lib.msort(t), x)
    tvdiff.check(lambda lib, t: lib.sort(t, 0), tvdiff.make((), dtype))
    tvdiff.check(lambda lib, t: lib.sort(t), tvdiff.make((0, 3), dtype))
    tvdiff.check(lambda lib, t: lib.sort(t, 2), tvdiff.make((2, 3), dtype))


def test_sort_named_tuple_and_out(tvdiff):
    x = tvdiff.make((3, 5), "float32", "t", special=True)
    r = tvdiff.check(lambda lib, t: t.sort(descending=True, stable=True), x)
    assert isinstance(r, tensorviz.return_types.sort) and repr(r).startswith(
        "tensorviz.return_types.sort(\nvalues=tensor(")

    def f(lib, t):
        v, i = lib.zeros(2), lib.zeros(2, dtype=lib.int64)
        res = lib.sort(t, dim=0, stable=True, out=(v, i))
        assert res[0] is v
        return v, i
    tvdiff.check(f, x)  # (both warn that out was resized)


@pytest.mark.parametrize("dtype", SOME_DTYPES)
@pytest.mark.parametrize("largest", [True, False])
def test_topk(tvdiff, dtype, largest):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make((4, 7), dtype, layout, seed=i, low=-3, high=3,
                        special=i == 1 and "complex" not in dtype)
        for d in (0, 1, -1):
            for k in (0, 1, 3, 4):
                r = tvdiff.check(lambda lib, t: lib.topk(t, k, d, largest), x, indices=False)
                if r is not None:
                    _gathered(x.tv, d, r)
                tvdiff.check(lambda lib, t: t.topk(k, dim=d, largest=largest, sorted=True), x,
                             indices=False)
    tvdiff.check(lambda lib, t: t.topk(8), x)
    tvdiff.check(lambda lib, t: t.topk(-1), x)
    tvdiff.check(lambda lib, t: t.topk(1, 2), x)
    tvdiff.check(lambda lib, t: t.topk(1), tvdiff.make((), dtype))
    tvdiff.check(lambda lib, t: t.topk(0), tvdiff.make((), dtype))


@pytest.mark.parametrize("dtype", SOME_DTYPES)
def test_kthvalue(tvdiff, dtype):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make((5, 6), dtype, layout, seed=i, low=-20, high=20,
                        special=i == 1 and "complex" not in dtype)
        for d in (0, 1, -1):
            for k in (1, 3, 5):
                for keepdim in (False, True):
                    r = tvdiff.check(lambda lib, t: lib.kthvalue(t, k, d, keepdim), x,
                                     indices=False)
                    if r is not None and not keepdim:
                        _gathered(x.tv, d, r)
    tvdiff.check(lambda lib, t: t.kthvalue(7, 0), x)
    tvdiff.check(lambda lib, t: t.kthvalue(0), x)
    tvdiff.check(lambda lib, t: t.kthvalue(1, 0), tvdiff.make((), dtype))


# ---------------------------------------------------------------- searching
@pytest.mark.parametrize("dtype", ["int64", "int32", "float32", "float64", "uint8", "bool",
                                   "float16"])
@pytest.mark.parametrize("side", [dict(), dict(right=True), dict(side="right"),
                                  dict(side="left"), dict(right=True, side="left"),
                                  dict(out_int32=True)])
def test_searchsorted(tvdiff, dtype, side):
    rng = np.random.default_rng(0)
    seq = np.sort(rng.integers(0, 10, (3, 6)), axis=-1).astype(dtype)
    s1 = tvdiff.make((6,), dtype, data=seq[0])
    s2 = tvdiff.make((3, 6), dtype, data=seq)
    for i, layout in enumerate(LAYOUTS):
        v = tvdiff.make((3, 4), dtype, layout, seed=i, low=-1, high=11)
        # (PyTorch warns once per process about non-contiguous inputs: not compared)
        tvdiff.check(lambda lib, s, t: lib.searchsorted(s, t, **side), s1, v, warns=False)
        tvdiff.check(lambda lib, s, t: lib.searchsorted(s, t, **side), s2, v, warns=False)
    tvdiff.check(lambda lib, s: lib.searchsorted(s, 5, **side), s1)
    tvdiff.check(lambda lib, s, t: lib.searchsorted(s, t, **side), s2, tvdiff.make((4,), dtype))
    tvdiff.check(lambda lib, s, t: lib.searchsorted(s, t, **side), s1,
                 tvdiff.make((2, 2), "float64", low=0, high=10), warns=False)
    # the sorter permutes an unsorted sequence
    raw = rng.permutation(np.arange(6)).astype(dtype if dtype != "bool" else "int64")
    u = tvdiff.make((6,), raw.dtype.name, data=raw)
    order = tvdiff.make((6,), "int64", data=np.argsort(raw, kind="stable"))
    v = tvdiff.make((5,), raw.dtype.name, seed=4, low=-1, high=7)
    tvdiff.check(lambda lib, s, t, o: lib.searchsorted(s, t, sorter=o, **side), u, v, order,
                 warns=False)


def test_searchsorted_batched_matches_rowwise(tvdiff):
    rng = np.random.default_rng(5)
    seq = np.sort(rng.normal(size=(2, 3, 50)), axis=-1)
    seq[..., 10:14] = seq[..., 10:11]  # runs of equal boundaries
    vals = np.concatenate([rng.normal(size=(2, 3, 30)), seq[..., ::7]], axis=-1)
    s = tvdiff.make(seq.shape, "float64", data=seq)
    v = tvdiff.make(vals.shape, "float64", data=vals)
    for right in (False, True):
        tvdiff.check(lambda lib, a, b: lib.searchsorted(a, b, right=right), s, v, warns=False)


@pytest.mark.parametrize("pair", [("int64", "int64"), ("int32", "int64"), ("float32", "float32"),
                                  ("float64", "int32"), ("uint8", "float16"), ("bool", "bool"),
                                  ("complex64", "complex64")])
@pytest.mark.parametrize("invert", [False, True])
def test_isin(tvdiff, pair, invert):
    for i, layout in enumerate(LAYOUTS):
        e = tvdiff.make((3, 4), pair[0], layout, seed=i, low=0, high=8)
        t = tvdiff.make((5,), pair[1], "step", seed=i + 1, low=0, high=8)
        tvdiff.check(lambda lib, a, b: lib.isin(a, b, invert=invert), e, t)
        tvdiff.check(lambda lib, a, b: lib.isin(a, b, assume_unique=False, invert=invert), e,
                     tvdiff.make((), pair[1], seed=2, low=0, high=8))
    tvdiff.check(lambda lib, a: lib.isin(a, 3, invert=invert), e)
    tvdiff.check(lambda lib, b: lib.isin(3, b, invert=invert), t)


def test_max_binary_is_maximum(tvdiff):
    a = tvdiff.make((3, 4), "float32", "t", special=True)
    b = tvdiff.make((3, 4), "float32", "offset", seed=2, special=True)
    tvdiff.check(lambda lib, u, v: lib.max(u, v), a, b)
    tvdiff.check(lambda lib, u, v: u.min(v), a, b)
    tvdiff.check(lambda lib, u, v: lib.max(u, v.double()), a, b)


@pytest.mark.parametrize("name", ["eq", "ne", "lt", "le", "gt", "ge", "greater", "less_equal"])
def test_compare_number_first_is_refused(tvdiff, name):
    """PyTorch's comparison functions have no (Number, Tensor) overload: TypeError."""
    x = tvdiff.make((3,), "float32")
    tvdiff.check(lambda lib, t: getattr(lib, name)(1, t), x)
    tvdiff.check(lambda lib, t: getattr(lib, name)(t, 1), x)
    tvdiff.check(lambda lib, t: 1 < t if name == "lt" else 1 == t, x)


@pytest.mark.parametrize("layout", ["contig", "t", "step", "expand"])
def test_isclose_result_strides(tvdiff, layout):
    a, b = tvdiff.make((3, 4), "float32", layout), tvdiff.make((3, 4), "float32", layout, seed=1)
    r = tvdiff.check(lambda lib, x, y: lib.isclose(x, y, atol=1.0), a, b)
    assert r.stride() == torch.isclose(a.pt, b.pt, atol=1.0).stride()


def test_searchsorted_follows_pytorchs_binary_search():
    """searchsorted is PyTorch's binary search step for step, so unsorted boundaries, NaNs,
    int64 extremes and sorter= give PyTorch's indices (NumPy's answer differs there)."""
    nan = float("nan")
    progs = [
        lambda T: T.searchsorted(T.tensor([[2, 2**63 - 1, 6, -3], [5, -5, 0, -2]]),
                                 T.tensor([[1, 5, 0, 0], [-4, 4, 1, -1]])),
        lambda T: T.searchsorted(T.tensor([1., nan, 3., 2., 5.]), T.tensor([[0., 2.5, nan, 6.]])),
        lambda T: T.searchsorted(T.tensor([1., nan, 3., 2., 5.]), T.tensor([[0., 2.5, nan, 6.]]),
                                 side="right"),
        lambda T: T.searchsorted(T.tensor([[1., 2.], [3., 4.]]), T.tensor([[1.5, 9], [0, 3.5]]),
                                 sorter=T.tensor([[1, 0], [0, 1]])),
        lambda T: T.bucketize(T.tensor([[1.5, 9], [0, 3.5]]), T.tensor([3., 1., 2.])),
        lambda T: T.searchsorted(T.tensor([], dtype=T.float32), T.tensor([1.])),
    ]
    for f in progs:
        assert f(tensorviz).tolist() == f(torch).tolist()


@pytest.mark.parametrize("seed", range(10))
def test_isin_assume_unique_nan_and_bfloat16_as_pytorch(seed):
    """isin with many test elements is PyTorch's sorting algorithm, which trusts
    ``assume_unique`` (repeated values then count as found); bfloat16 with NaN sorts as
    float32. Seeded random sets with repeats, NaN, -0.0 and inf, both kinds of ``invert``."""
    import random
    rng = random.Random(seed)
    for _ in range(60):
        ne, nt = rng.randint(0, 12), rng.randint(0, 40)
        dt = rng.choice(["float32", "bfloat16", "int64", "float16"])
        pool = [0, 1, 2, 3, -1, 5] if dt == "int64" else \
            [float("nan"), 0.0, -0.0, 1.0, 2.0, 3.0, -1.0, float("inf")]
        ev, tv_ = [rng.choice(pool) for _ in range(ne)], [rng.choice(pool) for _ in range(nt)]
        kw = {"assume_unique": rng.random() < 0.5, "invert": rng.random() < 0.3}
        got = [lib.isin(lib.tensor(ev, dtype=getattr(lib, dt)),
                        lib.tensor(tv_, dtype=getattr(lib, dt)), **kw).tolist()
               for lib in (torch, tensorviz)]
        assert got[0] == got[1], (dt, ev, tv_, kw)


def test_sort_out_of_another_shape_is_laid_out_like_input():
    """sort/msort resize an ``out=`` of another shape like ``empty_like(input)`` (a transposed
    input gives transposed results); one of the right shape keeps its strides."""
    got = []
    for lib in (torch, tensorviz):
        src = lib.tensor([[1.0, 5], [3, 2], [0, 9]]).t()
        row = []
        for make in (lambda: lib.zeros(2, 3), lambda: lib.zeros(3, 2).t(), lambda: lib.zeros(0),
                     lambda: lib.zeros(7)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # (resizing one with elements)
                o, i = make(), lib.zeros(0, dtype=lib.int64)
                lib.sort(src, 1, out=(o, i))
                m = make()
                lib.msort(src, out=m)
            row.append((o.stride(), i.stride(), o.tolist(), m.stride(), m.tolist()))
        got.append(row)
    assert got[0] == got[1]
