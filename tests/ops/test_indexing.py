"""Indexing against PyTorch: advanced ``t[key]``/``t[key] = v``, gather/scatter, the index_*
ops, masks, take/put, ``where`` and ``nonzero`` — over dtypes and non-contiguous layouts, with
PyTorch's errors and warnings, in-place version bumps and ``out=`` memory reuse."""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz

torch = pytest.importorskip("torch")

LAYOUTS = ("contig", "t", "step", "offset", "expand")  # see conftest.py
SOME_DTYPES = ("bool", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64")


def _layout(i):
    return LAYOUTS[i % len(LAYOUTS)]


def _idx(lib, data, dtype="int64"):
    return lib.tensor(data, dtype=getattr(lib, dtype))


# ---------------------------------------------------------------- t[key]
GET_KEYS = [
    lambda lib: [0, 2], lambda lib: _idx(lib, [0, 2]), lambda lib: (slice(None), [1, 3]),
    lambda lib: ([0, 1], [1, 2]), lambda lib: ([0, 1], slice(None), [1, 2]),
    lambda lib: (slice(None), [0, 1], [1, 2]),
    lambda lib: (_idx(lib, [[0], [1]]), _idx(lib, [0, 1, 2])),
    lambda lib: (None, [0, 1]), lambda lib: (Ellipsis, [0, 1]),
    lambda lib: ([0, 1], Ellipsis, [0, 1]), lambda lib: ([0, 1], None, [1, 2]),
    lambda lib: (0, [1, 2]), lambda lib: (slice(1, None), [1, 2], slice(2, None)),
    lambda lib: [True, False, True], lambda lib: (_idx(lib, [True, False, True], "bool"), 1),
    lambda lib: ([0, 1], slice(1, 3), [2]), lambda lib: (_idx(lib, 1), [0, 1]),
    lambda lib: ([0], [1], [2]), lambda lib: True, lambda lib: False, lambda lib: [],
    lambda lib: _idx(lib, [], "int64"), lambda lib: [5], lambda lib: [-1], lambda lib: [-4],
    lambda lib: _idx(lib, [0.0], "float32"), lambda lib: _idx(lib, [True, True], "bool"),
    lambda lib: _idx(lib, True, "bool"), lambda lib: _idx(lib, False, "bool"),
    lambda lib: (Ellipsis, None, [0, 2]), lambda lib: (slice(None, None, 2), [0, 1]),
    lambda lib: _idx(lib, [0, 1], "int32"), lambda lib: _idx(lib, [0, 1], "int16"),
    lambda lib: ([1, 2], [[0], [1]], slice(None)), lambda lib: (slice(None), slice(None),
                                                                [[0, 1], [2, 3]]),
    lambda lib: ([[0]], slice(None), [[1, 2]]), lambda lib: ([0, 1], 0, 0, 0),
    lambda lib: 1.5, lambda lib: [1.5], lambda lib: (slice(None), [0, 1], slice(None), 0),
]


@pytest.mark.parametrize("k", range(len(GET_KEYS)))
def test_advanced_getitem(tvdiff, k):
    for i, dtype in enumerate(("float32", "int64", "bool")):
        x = tvdiff.make((3, 4, 5), dtype, _layout(k + i), seed=k)
        tvdiff.check(lambda lib, t: t[GET_KEYS[k](lib)], x, fresh=True)


def test_masks_of_other_shapes_and_uint8(tvdiff):
    x = tvdiff.make((3, 4, 5), "float32", "t")
    m = tvdiff.make((3, 4), "bool", seed=1)
    tvdiff.check(lambda lib, t, m: t[m], x, m)
    tvdiff.check(lambda lib, t, m: t[:, m[0]], x, m)
    tvdiff.check(lambda lib, t, m: t[:, m], x, m)            # wrong shape: IndexError
    tvdiff.check(lambda lib, t: t[t > 0], x)
    tvdiff.check(lambda lib, t: t[lib.tensor([1, 0, 1], dtype=lib.uint8)], x)  # warns
    tvdiff.check(lambda lib, t: t[[[0, 1], [1, 2]]], x)       # list of lists: a tuple, warns
    tvdiff.check(lambda lib, t: t[[0, slice(None)]], x)


SET_CASES = [
    ("x[[0,2]] = 1", None), ("x[[0,2]] = v", ()), ("x[:, [1,3]] = v", (2, 5)),
    ("x[x > 0] = 0", None), ("x[x > 30] = v", (1,)), ("x[[0,0]] = v", (2, 4, 5)),
    ("x[[0,1],[1,2]] = v", (2, 1)), ("x[[0,1],[1,2]] = v", (3,)), ("x[[0,1],[1,2]] = 1.5", None),
    ("x[[True, False, True]] = -1", None), ("x[[0,1], ..., [0,1]] = v", (2, 1)),
    ("x[[5]] = 1", None), ("x[0, [0,1]] = v", (2, 5)), ("x[1:, [0,1]] = v", (2, 2, 5)),
    ("x[:, [0,1]] = v", (1, 3, 2, 5)), ("x[:, [0,1]] = v", (3, 1, 1, 2, 5)),
    ("x[[1,2], [[0],[1]], :] = 3", None), ("x[:, 0][[0, 2]] = 9", None),
    ("x[::2][[0,1]] = v", (4, 5)), ("x[0] = [1., 2., 3., 4., 5.]", None),
    ("x[[0]] = (1.,)", None),
]


@pytest.mark.parametrize("case", range(len(SET_CASES)))
@pytest.mark.parametrize("vdtype", ["float32", "float64", "int64"])
def test_advanced_setitem(tvdiff, case, vdtype):
    code, vshape = SET_CASES[case]
    x = tvdiff.make((3, 4, 5), "float32", _layout(case) if _layout(case) != "expand"
                    else "contig", seed=case)
    v = tvdiff.make(vshape or (), vdtype, seed=case + 1)

    def f(lib, x, v):
        exec(code, {"x": x, "v": v, "torch": lib})
        return x
    tvdiff.check(f, x, v)


def test_setitem_scalars_are_checked(tvdiff):
    y = tvdiff.make((3,), "int8")
    for code in ("y[0] = 1000", "y[[0]] = -129", "y[[0]] = 1e10", "y[0] = 100.7",
                 "y[[0]] = 1 + 2j", "y[:] = 2 ** 70", "y[0] = True", "y[[0, 1]] = -3"):
        def f(lib, y):
            y = y.clone()
            exec(code, {"y": y})
            return y
        tvdiff.check(f, y)
    u = tvdiff.make((3,), "uint8")
    tvdiff.check(lambda lib, u: u.clone().fill_(-1) if False else u, u)


def test_setitem_writes_through_views_and_bumps_version():
    base = tensorviz.zeros(4, 5)
    view = base.t()
    v0 = base._version
    view[[0, 2]] = tensorviz.ones(2, 4)
    assert base._version > v0
    assert base[:, 0].tolist() == [1.0] * 4 and base[:, 1].tolist() == [0.0] * 4
    ptr = base.data_ptr()
    base[base > 0] = 7.0
    assert base.data_ptr() == ptr and base.sum().item() == 7.0 * 8


# ---------------------------------------------------------------- index_select / gather
@pytest.mark.parametrize("dtype", SOME_DTYPES)
def test_index_select(tvdiff, dtype):
    for i, (shape, dim) in enumerate([((3, 4), 0), ((3, 4), 1), ((2, 3, 4), -1), ((5,), 0),
                                      ((), 0), ((3, 0), 0)]):
        x = tvdiff.make(shape, dtype, _layout(i), seed=i)
        size = (shape or (1,))[dim]
        for idata, idt in (([0, size - 1, 0], "int64"), ([size - 1], "int32"), ([], "int64"),
                           (0, "int64"), ([size], "int64"), ([-1], "int64"), ([0], "int16"),
                           ([[0]], "int64"), ([0.0], "float32")):
            if size == 0 and idata not in ([], [size]):
                continue
            tvdiff.check(lambda lib, t: lib.index_select(t, dim, _idx(lib, idata, idt)), x,
                         fresh=True)
        tvdiff.check(lambda lib, t: t.index_select(dim, _idx(lib, [0])) if size else t, x)


def test_index_select_out_reuses_memory(tvdiff):
    x = tvdiff.make((4, 3), "float32", "t")
    out = tvdiff.make((2, 3), "float32")
    r = tvdiff.check(lambda lib, t, o: lib.index_select(t, 0, _idx(lib, [1, 3]), out=o), x, out)
    assert r is out.tv
    tvdiff.check(lambda lib, t: (lib.index_select(t, 1, _idx(lib, [0, 1]), out=lib.empty(0))),
                 x)


def _rand_index(rng, shape, high):
    return rng.integers(0, max(high, 1), size=shape)


@pytest.mark.parametrize("dtype", SOME_DTYPES)
def test_gather(tvdiff, dtype):
    rng = np.random.default_rng(0)
    for i, (shape, dim, ishape) in enumerate([
            ((3, 4), 0, (2, 4)), ((3, 4), 1, (3, 6)), ((2, 3, 4), 1, (2, 2, 3)),
            ((2, 3, 4), -1, (1, 3, 2)), ((5,), 0, (7,)), ((), 0, ()), ((3, 4), 1, (3, 0)),
            ((3, 4), 1, (4, 2)), ((3, 4), 1, (2,))]):
        x = tvdiff.make(shape, dtype, _layout(i), seed=i)
        size = (shape or (1,))[dim]
        idx = _rand_index(rng, ishape, size)
        tvdiff.check(lambda lib, t: lib.gather(t, dim, lib.tensor(idx)), x, fresh=True)
        tvdiff.check(lambda lib, t: t.gather(dim, lib.tensor(idx, dtype=lib.int32)), x)
    x = tvdiff.make((3, 4), dtype, "t")
    for bad in ([[0, 5]], [[0, -1]]):
        tvdiff.check(lambda lib, t: lib.gather(t, 1, lib.tensor(bad)), x)
    tvdiff.check(lambda lib, t: lib.gather(t, 1, lib.tensor([[0]], dtype=lib.int16)), x)


def test_take_along_dim(tvdiff):
    x = tvdiff.make((3, 4), "float32", "t")
    for idx, dim in (([[0], [2], [1]], 1), ([[0, 1, 1, 2]], 0), ([[0, 1, 1]], None),
                     ([0, 4, 11], None), ([0, 4], 1), ([[[0]]], 1), ([[7], [-4], [300]], 1),
                     ([[1, 2]], 1)):
        tvdiff.check(lambda lib, t: lib.take_along_dim(t, lib.tensor(idx), dim), x)
    tvdiff.check(lambda lib, t: lib.take_along_dim(t, lib.tensor([[1]], dtype=lib.int32), 1), x)


def test_take_and_put(tvdiff):
    x = tvdiff.make((3, 4), "float32", "t")
    for idx in ([[0, 5], [-1, 2]], [11], [12], [-13], 3, []):
        tvdiff.check(lambda lib, t: lib.take(t, lib.tensor(idx, dtype=lib.int64)), x)
    tvdiff.check(lambda lib, t: lib.take(t, lib.tensor([1], dtype=lib.int32)), x)
    src = tvdiff.make((2,), "float32", seed=3)
    for idx, acc in (([0, 5], False), ([0, 0], True), ([0, -1], False), ([0, 12], False),
                     ([1, 1], False)):
        tvdiff.check(lambda lib, t, s: t.clone().put_(lib.tensor(idx), s, accumulate=acc),
                     x, src)
        tvdiff.check(lambda lib, t, s: lib.put(t, lib.tensor(idx), s, acc), x, src)
    base = tvdiff.make((4, 3), "float32", seed=4)
    tvdiff.check(lambda lib, b, s: (b.t().put_(lib.tensor([1, 7]), s), b)[1], base, src)
    tvdiff.check(lambda lib, t, s: t.clone().put_(lib.tensor([0, 1]), s.double()), x, src)
    tvdiff.check(lambda lib, t, s: t.clone().put_(lib.tensor([0, 1, 2]), s), x, src)


# ---------------------------------------------------------------- scatter family
def _scatter_case(rng, shape, dim, ishape, unique=False):
    size = shape[dim]
    if unique:  # one write per target: a permutation along dim
        idx = np.argsort(rng.random(shape), axis=dim)
        sl = tuple(slice(0, s) for s in ishape)
        return idx[sl]
    return _rand_index(rng, ishape, size)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "bool",
                                   "complex64", "uint8"])
def test_scatter_and_scatter_add(tvdiff, dtype):
    rng = np.random.default_rng(1)
    for i, (shape, dim, ishape) in enumerate([((4, 5), 0, (3, 5)), ((4, 5), 1, (4, 3)),
                                              ((3, 4, 5), 1, (2, 3, 4)), ((6,), 0, (4,)),
                                              ((4, 5), -1, (2, 2))]):
        x = tvdiff.make(shape, dtype, _layout(i), seed=i)
        src = tvdiff.make(ishape[:-1] + (ishape[-1] + 1,), dtype, _layout(i + 1), seed=i + 9)
        uniq = _scatter_case(rng, shape, dim % len(shape), ishape, unique=True)
        dup = _scatter_case(rng, shape, dim % len(shape), ishape)
        tvdiff.check(lambda lib, t, s: lib.scatter(t, dim, lib.tensor(uniq), s), x, src,
                     fresh=True)
        tvdiff.check(lambda lib, t, s: t.clone().scatter_(dim, lib.tensor(uniq), 2), x, src)
        tvdiff.check(lambda lib, t, s: lib.scatter(t, dim, lib.tensor(uniq), value=1), x, src)
        tvdiff.check(lambda lib, t, s: lib.scatter_add(t, dim, lib.tensor(dup), s), x, src,
                     rtol=1e-4, atol=1e-4)
        tvdiff.check(lambda lib, t, s: t.clone().scatter_add_(dim, lib.tensor(dup), s), x, src,
                     rtol=1e-4, atol=1e-4)
        if dtype not in ("bool",):
            for red in ("add", "multiply"):
                tvdiff.check(lambda lib, t, s: lib.scatter(t, dim, lib.tensor(dup), s,
                                                           reduce=red), x, src, rtol=1e-4,
                             atol=1e-4)  # (PyTorch's deprecation warning, compared too)
                tvdiff.check(lambda lib, t, s: lib.scatter(t, dim, lib.tensor(dup), 2,
                                                           reduce=red), x, src)


def test_scatter_errors(tvdiff):
    x = tvdiff.make((3, 3), "float32", "t")
    src = tvdiff.make((2, 3), "float32")
    cases = [
        lambda lib, t, s: lib.scatter(t, 0, lib.tensor([[0, 1, 2]]), s.double()),
        lambda lib, t, s: lib.scatter(t, 0, lib.tensor([[0, 1, 5]]), s),
        lambda lib, t, s: lib.scatter(t, 0, lib.tensor([[0, 1, -1]]), s),
        lambda lib, t, s: lib.scatter(t, 0, lib.tensor([[0, 1, 2, 0]]), s),
        lambda lib, t, s: lib.scatter(t, 0, lib.tensor([0, 1]), s),
        lambda lib, t, s: lib.scatter(t, 0, lib.tensor([[0, 1]], dtype=lib.int16), s),
        lambda lib, t, s: lib.scatter(t, 0, lib.tensor([[0, 1]]), s, reduce="mean"),
        lambda lib, t, s: lib.scatter_add(t, 0, lib.tensor([[0, 0, 2]]), s[:, :2]),
        lambda lib, t, s: lib.scatter(t, 5, lib.tensor([[0]]), s),
        lambda lib, t, s: t.expand(3, 3).scatter_(0, lib.tensor([[0]]), 1.0) if False else
        lib.zeros(3)[None].expand(3, 3).scatter_(0, lib.tensor([[0]]), 1.0),
    ]
    for f in cases:
        tvdiff.check(f, x, src)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int8", "bool"])
@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
def test_scatter_reduce(tvdiff, dtype, reduce):
    rng = np.random.default_rng(2)
    for i, (shape, dim, ishape) in enumerate([((5,), 0, (7,)), ((4, 5), 1, (4, 6)),
                                              ((3, 4), 0, (5, 2))]):
        x = tvdiff.make(shape, dtype, _layout(i), seed=i, low=-5, high=6)
        src = tvdiff.make(ishape, dtype, _layout(i + 2), seed=i + 3, low=-5, high=6)
        idx = _rand_index(rng, ishape, shape[dim])
        for include_self in (True, False):
            tvdiff.check(lambda lib, t, s: lib.scatter_reduce(t, dim, lib.tensor(idx), s, reduce,
                                                              include_self=include_self),
                         x, src, rtol=1e-4, atol=1e-4)
        tvdiff.check(lambda lib, t, s: t.clone().scatter_reduce_(dim, lib.tensor(idx), s,
                                                                 reduce), x, src, rtol=1e-4,
                     atol=1e-4)
    tvdiff.check(lambda lib, t: lib.scatter_reduce(t, 0, lib.tensor([0]), t, "foo"), x)


# ---------------------------------------------------------------- index_* ops
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "complex128", "float16"])
def test_index_add_fill_copy(tvdiff, dtype):
    for i, (shape, dim) in enumerate([((4, 3), 0), ((4, 3), 1), ((2, 3, 4), 2), ((5,), 0)]):
        x = tvdiff.make(shape, dtype, _layout(i), seed=i)
        n = 3
        sshape = tuple(n if d == dim else s for d, s in enumerate(shape))
        src = tvdiff.make(sshape, dtype, _layout(i + 1), seed=i + 5)
        size = shape[dim]
        dup = [0, size - 1, 0]
        uniq = [size - 1, 0, 1] if size > 2 else [1, 0, 0]
        for idt in ("int64", "int32"):
            tvdiff.check(lambda lib, t, s: lib.index_add(t, dim, _idx(lib, dup, idt), s), x,
                         src, rtol=1e-3, atol=1e-3)
        if dtype not in ("bool",):
            tvdiff.check(lambda lib, t, s: t.index_add(dim, _idx(lib, dup), s, alpha=2), x,
                         src, rtol=1e-3, atol=1e-3)
        tvdiff.check(lambda lib, t, s: t.clone().index_add_(dim, _idx(lib, [size], "int64"), s),
                     x, src)
        tvdiff.check(lambda lib, t, s: lib.index_copy(t, dim, _idx(lib, uniq), s), x, src)
        tvdiff.check(lambda lib, t, s: t.clone().index_copy_(dim, _idx(lib, uniq, "int32"), s),
                     x, src)
        tvdiff.check(lambda lib, t, s: lib.index_fill(t, dim, _idx(lib, [0, -1]), 1), x, src)
        tvdiff.check(lambda lib, t, s: t.index_fill(dim, _idx(lib, [0]), lib.tensor(0)), x, src)
        tvdiff.check(lambda lib, t, s: t.index_fill(dim, _idx(lib, [size]), 1), x, src)
        tvdiff.check(lambda lib, t, s: t.index_fill(dim, _idx(lib, [0], "int32"), 1), x, src)
        tvdiff.check(lambda lib, t, s: t.index_fill(dim, _idx(lib, [0]), lib.tensor([1])), x,
                     src)
    x = tvdiff.make((4, 3), dtype)
    for bad in (lambda lib, t: t.index_add(0, _idx(lib, [0]), lib.ones(1, 2, dtype=t.dtype)),
                lambda lib, t: t.index_add(0, _idx(lib, [0, 1]), lib.ones(1, 3, dtype=t.dtype)),
                lambda lib, t: t.index_add(0, _idx(lib, [[0]]), lib.ones(1, 3, dtype=t.dtype)),
                lambda lib, t: t.index_add(0, _idx(lib, [0]), lib.ones(1, 3, dtype=lib.int16)),
                lambda lib, t: t.index_copy(0, _idx(lib, [0, 0]), lib.ones(1, 3,
                                                                           dtype=t.dtype)),
                lambda lib, t: t.index_copy(0, _idx(lib, [0]), lib.ones(1, 3, dtype=lib.int16))):
        tvdiff.check(bad, x)


def test_index_reduce(tvdiff):
    x = tvdiff.make((4, 3), "float32", "t", seed=1)
    src = tvdiff.make((5, 3), "float32", seed=2)
    for reduce in ("prod", "mean", "amax", "amin"):
        for include_self in (True, False):
            # (warns=False: the beta warning is given once per process by both libraries, so
            # whether this call gives it depends on which tests ran first; see below)
            tvdiff.check(lambda lib, t, s: t.index_reduce(0, _idx(lib, [0, 1, 0, 3, 1]), s,
                                                          reduce, include_self=include_self),
                         x, src, rtol=1e-4, atol=1e-4, warns=False)


def test_index_reduce_beta_warning_once_per_process():
    import subprocess
    import sys
    prog = ("import warnings, sys\n"
            "L = __import__(sys.argv[1])\n"
            "x, i = L.zeros(3), L.tensor([0, 2])\n"
            "seen = []\n"
            "for _ in range(2):\n"
            "    with warnings.catch_warnings(record=True) as w:\n"
            "        warnings.simplefilter('always')\n"
            "        x.index_reduce(0, i, L.ones(2), 'amax')\n"
            "    seen.append([(c.category.__name__, str(c.message).split(' (Triggered')[0])\n"
            "                 for c in w])\n"
            "print(seen)\n")
    libs = ["tensorviz"] + (["torch"] if _has_torch() else [])
    outs = [subprocess.run([sys.executable, "-c", prog, lib], capture_output=True, text=True,
                           check=True).stdout for lib in libs]
    assert "index_reduce() is in beta and the API may change at any time." in outs[0]
    assert eval(outs[0])[1] == []
    assert all(o == outs[0] for o in outs)


def _has_torch() -> bool:
    import importlib.util
    return importlib.util.find_spec("torch") is not None


def test_index_put(tvdiff):
    x = tvdiff.make((4, 3), "float32", "t")
    v = tvdiff.make((2,), "float32", seed=1)
    cases = [
        lambda lib, t, v: t.index_put((_idx(lib, [0, 2]), _idx(lib, [1, 1])), v),
        lambda lib, t, v: t.index_put((_idx(lib, [0, 0]), _idx(lib, [1, 1])), v,
                                      accumulate=True),
        lambda lib, t, v: lib.index_put(t, [_idx(lib, [0, 0])], lib.tensor(4.0), True),
        lambda lib, t, v: t.index_put((_idx(lib, [True, False, True, False], "bool"),),
                                      lib.tensor(1.0, dtype=lib.float64)),
        lambda lib, t, v: t.index_put((_idx(lib, [True, False, True, False], "bool"),),
                                      lib.tensor(1.0, dtype=lib.float64), accumulate=True),
        lambda lib, t, v: t.index_put((_idx(lib, [0, 2]),), v.long()),
        lambda lib, t, v: t.index_put((_idx(lib, [9]),), lib.tensor(1.0)),
        lambda lib, t, v: t.index_put((_idx(lib, [0]), None), lib.tensor(1.0)),
        lambda lib, t, v: t.index_put(([0, 0],), lib.tensor(1.0)),
        lambda lib, t, v: t.clone().index_put_((_idx(lib, [1, 3]),), v[:, None]),
    ]
    for f in cases:
        tvdiff.check(f, x, v)


# ---------------------------------------------------------------- masks
@pytest.mark.parametrize("dtype", SOME_DTYPES)
def test_masked_fill_select_scatter(tvdiff, dtype):
    for i, (shape, mshape) in enumerate([((3, 4), (3, 4)), ((3, 4), (4,)), ((4,), (3, 4)),
                                         ((2, 3, 4), (3, 1)), ((), ()), ((3, 0), (3, 0))]):
        x = tvdiff.make(shape, dtype, _layout(i), seed=i)
        m = tvdiff.make(mshape, "bool", _layout(i + 1), seed=i + 1)
        tvdiff.check(lambda lib, t, m: lib.masked_fill(t, m, 1), x, m, fresh=True)
        tvdiff.check(lambda lib, t, m: t.masked_fill(m, lib.tensor(0.5)), x, m)
        tvdiff.check(lambda lib, t, m: t.clone().masked_fill_(m, True), x, m)
        tvdiff.check(lambda lib, t, m: lib.masked_select(t, m), x, m, fresh=True)
        n = max(int(np.prod(np.broadcast_shapes(shape, mshape))), 1)
        src = tvdiff.make((n + 1,), dtype, seed=i + 7)
        tvdiff.check(lambda lib, t, m, s: lib.masked_scatter(t, m, s), x, m, src)
        tvdiff.check(lambda lib, t, m, s: t.clone().masked_scatter_(m, s), x, m, src)
    x = tvdiff.make((3, 4), dtype, "t")
    for bad in (lambda lib, t: t.masked_fill(lib.tensor([1, 0, 1, 0]), 1),
                lambda lib, t: t.masked_fill(lib.tensor([1, 0, 1, 0], dtype=lib.uint8), 1),
                lambda lib, t: t.masked_fill(t.abs() > 1 if t.dtype != lib.bool else t,
                                             lib.tensor([1.0])),
                lambda lib, t: t.masked_fill(lib.ones(2, 3, 4, dtype=lib.bool)[0, :1, :], 1),
                lambda lib, t: lib.masked_select(t, lib.tensor([1, 0, 1, 0])),
                lambda lib, t: t.masked_scatter(lib.ones(4, dtype=lib.bool),
                                                lib.zeros(3, dtype=t.dtype)),
                lambda lib, t: t.masked_scatter(lib.ones(4, dtype=lib.bool),
                                                lib.zeros(30, dtype=lib.int16)),
                lambda lib, t: t.clone().masked_fill_(lib.ones(2, 3, 4, dtype=lib.bool), 1)):
        tvdiff.check(bad, x)


def test_masked_fill_value_conversion(tvdiff):
    x = tvdiff.make((3,), "int64")
    m = tvdiff.make((3,), "bool", seed=2)
    for value in (2.5, True, 1000, -7):
        tvdiff.check(lambda lib, t, m: t.masked_fill(m, value), x, m)
    xf = tvdiff.make((3,), "float32")
    tvdiff.check(lambda lib, t, m: t.masked_fill(m, 1 + 2j), xf, m)
    x8 = tvdiff.make((3,), "int8")
    tvdiff.check(lambda lib, t, m: t.masked_fill(m, 1000), x8, m)


# ---------------------------------------------------------------- where / nonzero
SCALARS = [1, 0.5, True, -3, 1j]


@pytest.mark.parametrize("a", ["int8", "int64", "float32", "float64", "bool", 1, 0.5, True])
@pytest.mark.parametrize("b", ["uint8", "int32", "float16", "complex64", 2, 2.5, False, 1j,
                               "float64-0d"])
def test_where_promotion(tvdiff, a, b):
    c = tvdiff.make((3, 4), "bool", "t", seed=1)

    def operand(spec, seed):
        if not isinstance(spec, str):
            return spec
        if spec.endswith("-0d"):
            return tvdiff.make((), spec[:-3], seed=seed)
        return tvdiff.make((4,), spec, "step", seed=seed)

    x, y = operand(a, 2), operand(b, 3)
    tvdiff.check(lambda lib, c, x, y: lib.where(c, x, y), c, x, y)
    if not isinstance(a, str):
        return
    tvdiff.check(lambda lib, c, x, y: x.where(c, y), c, x, y)


def test_where_errors_and_forms(tvdiff):
    c = tvdiff.make((3,), "bool")
    x8 = tvdiff.make((3,), "int8")
    tvdiff.check(lambda lib, c, x: lib.where(c, x, 1000), c, x8)
    tvdiff.check(lambda lib, c, x: lib.where(c.long(), 1.0, 0.0), c, x8)
    tvdiff.check(lambda lib, c, x: lib.where(c.byte(), 1.0, 0.0), c, x8)
    tvdiff.check(lambda lib, c, x: lib.where(c, lib.ones(2, 1), 0.0), c, x8)
    tvdiff.check(lambda lib, c, x: lib.where(c, lib.ones(2), 0.0), c, x8)
    tvdiff.check(lambda lib, c, x: lib.where(c), c, x8)
    tvdiff.check(lambda lib, c, x: lib.where(lib.tensor(True), 1.0, 0), c, x8)
    out = tvdiff.make((3,), "float32")
    tvdiff.check(lambda lib, c, x, o: lib.where(c, x.float(), 2.0, out=o), c, x8, out)


@pytest.mark.parametrize("dtype", ["bool", "int64", "float32", "complex64"])
def test_nonzero_argwhere(tvdiff, dtype):
    for i, shape in enumerate([(3, 4), (2, 3, 4), (5,), (), (3, 0)]):
        x = tvdiff.make(shape, dtype, _layout(i), seed=i, low=-1, high=2)
        tvdiff.check(lambda lib, t: lib.nonzero(t), x)
        tvdiff.check(lambda lib, t: t.nonzero(as_tuple=True), x)
        tvdiff.check(lambda lib, t: lib.argwhere(t), x)
        tvdiff.check(lambda lib, t: lib.where(t != 0) if t.dim() else t, x)
        (r_tv, _, _), (r_pt, _, _) = tvdiff.run(lambda lib, t: lib.nonzero(t), x)
        if r_pt.numel() and r_pt.shape[1]:
            assert r_tv.stride() == r_pt.stride()  # column-major, as PyTorch fills it


# ---------------------------------------------------------------- out= and memory reuse
def test_out_keeps_storage_when_shape_fits():
    x = tensorviz.arange(6.0).reshape(2, 3)
    y = tensorviz.ones(2, 3)
    ptr, storage = y.data_ptr(), y.untyped_storage()
    r = tensorviz.add(x, y, out=y)
    assert r is y and y.data_ptr() == ptr and y.untyped_storage() is storage
    assert y.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    y[:] = x + y
    assert y.data_ptr() == ptr and y.tolist()[1] == [7.0, 9.0, 11.0]
    idx = tensorviz.tensor([1, 0])
    out = tensorviz.empty(2, 3)
    optr = out.data_ptr()
    tensorviz.index_select(x, 0, idx, out=out)
    assert out.data_ptr() == optr and out.tolist() == [[3.0, 4.0, 5.0], [0.0, 1.0, 2.0]]
    w = tensorviz.empty(3)
    wptr = w.data_ptr()
    tensorviz.where(tensorviz.tensor([True, False, True]), tensorviz.ones(3), tensorviz.zeros(3),
                    out=w)
    assert w.data_ptr() == wptr and w.tolist() == [1.0, 0.0, 1.0]


def test_inplace_ops_bump_the_version():
    t = tensorviz.zeros(3, 4)
    ops = [lambda t: t.index_fill_(0, tensorviz.tensor([0]), 1.0),
           lambda t: t.index_add_(1, tensorviz.tensor([0]), tensorviz.ones(3, 1)),
           lambda t: t.index_copy_(1, tensorviz.tensor([2]), tensorviz.ones(3, 1)),
           lambda t: t.scatter_(0, tensorviz.tensor([[0, 1]]), 5.0),
           lambda t: t.scatter_add_(0, tensorviz.tensor([[0]]), tensorviz.ones(1, 1)),
           lambda t: t.scatter_reduce_(0, tensorviz.tensor([[0]]), tensorviz.ones(1, 1),
                                       "amax"),
           lambda t: t.masked_fill_(t > 0, 2.0),
           lambda t: t.masked_scatter_(t > 1, tensorviz.zeros(12)),
           lambda t: t.put_(tensorviz.tensor([3]), tensorviz.ones(1)),
           lambda t: t.index_put_((tensorviz.tensor([1]),), tensorviz.tensor(3.0))]
    for op in ops:
        v = t._version
        assert op(t) is t
        assert t._version == v + 1


@pytest.mark.parametrize("op", ["index_select", "gather", "scatter_add", "masked_select",
                                "where", "nonzero", "take"])
def test_on_cuda_matches_cpu(devices, op):
    if devices == "cpu":
        pytest.skip("compares cuda with cpu")
    x = tensorviz.arange(12.0).reshape(3, 4)
    idx = tensorviz.tensor([[0, 2, 1, 0]])
    calls = {
        "index_select": lambda t, i: tensorviz.index_select(t, 1, i[0, :2]),
        "gather": lambda t, i: tensorviz.gather(t, 0, i),
        "scatter_add": lambda t, i: tensorviz.scatter_add(t, 0, i, t[:1]),
        "masked_select": lambda t, i: tensorviz.masked_select(t, t > 4),
        "where": lambda t, i: tensorviz.where(t > 4, t, 0.5),
        "nonzero": lambda t, i: tensorviz.nonzero(t > 4),
        "take": lambda t, i: tensorviz.take(t, i),
    }
    cpu = calls[op](x, idx)
    gpu = calls[op](x.cuda(), idx.cuda())
    assert gpu.device.type == "cuda" and gpu.cpu().tolist() == cpu.tolist()
    with pytest.raises(RuntimeError):
        tensorviz.gather(x.cuda(), 0, tensorviz.tensor([[5, 0, 0, 0]]).cuda())


# ---------------------------------------------------------------- random shapes (hypothesis)
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@st.composite
def _gather_cases(draw):
    ndim = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=ndim, max_size=ndim)))
    dim = draw(st.integers(-ndim, ndim - 1))
    ishape = tuple(draw(st.integers(0, s + 1)) if d != dim % ndim else draw(st.integers(0, 5))
                   for d, s in enumerate(shape))
    return (shape, dim, ishape, draw(st.sampled_from(LAYOUTS)),
            draw(st.sampled_from(["float32", "int64", "bool", "complex64"])),
            draw(st.integers(0, 2 ** 16)))


@settings(max_examples=40, deadline=None)
@given(_gather_cases())
def test_random_gather_scatter_index_select(tvdiff, case):
    shape, dim, ishape, layout, dtype, seed = case
    rng = np.random.default_rng(seed)
    x = tvdiff.make(shape, dtype, layout, seed=seed)
    src = tvdiff.make(tuple(s + 1 for s in ishape), dtype, "t", seed=seed + 1)
    idx = rng.integers(-1, shape[dim] + 1, size=ishape)  # some out of range
    ok = rng.integers(0, shape[dim], size=ishape)
    tvdiff.check(lambda lib, t: lib.gather(t, dim, lib.tensor(idx)), x)
    tvdiff.check(lambda lib, t: lib.gather(t, dim, lib.tensor(ok)), x)
    tvdiff.check(lambda lib, t, s: lib.scatter_add(t, dim, lib.tensor(ok), s), x, src,
                 rtol=1e-4, atol=1e-4)
    vec = rng.integers(0, shape[dim], size=ishape[0] if ishape else 0)
    tvdiff.check(lambda lib, t: lib.index_select(t, dim, lib.tensor(vec, dtype=lib.int64)), x)
    tvdiff.check(lambda lib, t: t[lib.tensor(vec)] if vec.size else t[[]], x)


# ---------------------------------------------------------------- result layouts, refusals
OUT_OF_PLACE = {
    "scatter": lambda lib, t, i: lib.scatter(t, 1, i, 1.0),
    "scatter_add": lambda lib, t, i: lib.scatter_add(t, 1, i, t[:, :2].contiguous()),
    "scatter_reduce": lambda lib, t, i: lib.scatter_reduce(t, 1, i, t[:, :2].contiguous(),
                                                           "amax"),
    "index_add": lambda lib, t, i: lib.index_add(t, 1, i[0], t[:, :2].contiguous()),
    "index_copy": lambda lib, t, i: lib.index_copy(t, 1, i[0], t[:, :2].contiguous()),
    "index_fill": lambda lib, t, i: lib.index_fill(t, 1, i[0], 2.0),
    "masked_fill": lambda lib, t, i: lib.masked_fill(t, t > 0, 2.0),
    "masked_scatter": lambda lib, t, i: lib.masked_scatter(t, t > 0, t.reshape(-1)),
    "put": lambda lib, t, i: lib.put(t, i[0], t[0, :2].contiguous()),
    "index_put": lambda lib, t, i: lib.index_put(t, (i[0],), t[0].contiguous()),
}


@pytest.mark.parametrize("name", sorted(OUT_OF_PLACE))
@pytest.mark.parametrize("layout", ["contig", "t", "step", "expand"])
def test_out_of_place_result_strides(tvdiff, name, layout):
    """scatter*, index_add/copy and masked_fill/scatter allocate a row-major result whatever
    the input's layout; index_fill, put and index_put lay it out like the input."""
    x = tvdiff.make((4, 5), "float32", layout, seed=1)
    i = tvdiff.make((4, 2), "int64", data=np.tile(np.array([[0, 3]]), (4, 1)))
    r = tvdiff.check(lambda lib, t, j: OUT_OF_PLACE[name](lib, t, j), x, i, warns=False)
    if r is not None:
        assert r.stride() == OUT_OF_PLACE[name](torch, x.pt, i.pt).stride()


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
def test_complex_reduce_refusals(tvdiff, reduce):
    x = tvdiff.make((4,), "complex64")
    i = tvdiff.make((2,), "int64", data=np.array([0, 2]))
    tvdiff.check(lambda lib, t, j: lib.scatter_reduce(t, 0, j, t[:2].clone(), reduce), x, i)
    if reduce != "sum":
        tvdiff.check(lambda lib, t, j: t.clone().index_reduce_(0, j, t[:2].clone(), reduce),
                     x, i, warns=False)


def test_nonzero_as_tuple_refuses_out(tvdiff):
    x = tvdiff.make((3, 4), "float32")
    tvdiff.check(lambda lib, t: lib.nonzero(t, as_tuple=True, out=lib.zeros(0, dtype=lib.int64)),
                 x)


def test_where_layout_follows_condition_input_other():
    """where's result is laid out as TensorIterator orders condition, input, other."""
    res = []
    for T in (tensorviz, torch):
        v0 = T.tensor([[0.5, -2.5, 2.0], [-0.75, 0.25, 3.0], [0.5, 6.0, 0.0]])
        v1, v4 = v0.t(), v0 > 0
        res.append([r.stride() for r in (T.where(T.tensor([True]), v1, v4),
                                         T.where(v4, v1, 0.), T.where(v4.t(), 1., v0),
                                         T.where(v4, v0, v1), T.where(v4.t(), 1, 2))])
    assert res[0] == res[1]


def test_index_add_and_copy_check_shapes_first():
    """index_add_/index_copy_ refuse a source of the wrong shape (index_copy_: of another
    dimensionality, IndexError) before they look at its memory, as PyTorch: a row of self as
    the source is a shape error, not an overlap error; a source of the right shape in self's
    memory is an overlap error."""
    for f in (lambda T, x: x.index_add_(0, T.tensor([0, 1, 2, 3]), x[0]),
              lambda T, x: x[:, ::2].index_copy_(0, T.tensor([0, 1, 2, 3]), x[1]),
              lambda T, x: x.index_copy_(0, T.tensor([0]), T.ones(3, 2, 4)),
              lambda T, x: x.index_add_(0, T.tensor([0, 1, 2, 3]), x),
              lambda T, x: x.index_copy_(0, T.tensor([0, 1]), x[2:])):
        got = []
        for T in (tensorviz, torch):
            x = T.arange(16.).reshape(4, 4)
            with pytest.raises(Exception) as e:
                f(T, x)
            got.append((type(e.value).__name__, str(e.value)))
        assert got[0] == got[1]


@pytest.mark.parametrize("dt", ["int32", "uint8", "int64", "bool", "float16", "bfloat16",
                                "float32", "complex64"])
def test_index_add_converts_alpha_to_selfs_dtype_with_pytorchs_check(dt):
    """index_add's alpha is converted to self's dtype with c10's checked conversion: int32
    takes no 1e10 or inf (RuntimeError, not a silent wrap), uint8 no 300 or -0.5, float16 no
    finite 70000, a real dtype no imaginary part; floats truncate into integers and bool
    takes anything. A list as out= is refused first (TypeError), as PyTorch's parser does."""
    got = []
    for T in (tensorviz, torch):
        v0 = T.tensor([-6, 2]).to(getattr(T, dt))
        src = T.tensor([1, 1]).to(getattr(T, dt))
        idx = T.tensor([0, 1])
        row = []
        for a in (float("inf"), float("nan"), 1e10, -1e10, 3e9, 2**40, -300, 300, 1.5, -0.5,
                  True, 1e300, 1 + 2j, 2 + 0j, 70000):
            try:
                row.append(repr(T.index_add(v0, 0, idx, src, alpha=a).tolist()))
            except (RuntimeError, TypeError, OverflowError) as e:
                row.append((type(e).__name__, str(e)))
        with pytest.raises(TypeError):
            T.index_add(v0, 0, idx, src, alpha=float("inf"), out=[0, 0])
        got.append(row)
    assert got[0] == got[1]


def test_take_along_dim_without_dim_checks_bounds_as_gather():
    """Without ``dim`` PyTorch's take_along_dim is ``gather`` of the flattened tensors: a
    negative or too large index is its RuntimeError naming the first one (along a dim it
    reads indices modulo the size instead)."""
    for idx in ([6], [0, 7, -1], [-7], [5, -6], [5, 0], [[-1, 2]], [-2, 1]):
        got = []
        for T in (tensorviz, torch):
            x = T.arange(6.0)
            i = T.tensor(idx)
            x = x.reshape(2, 3) if i.dim() == 2 else x
            try:
                got.append(T.take_along_dim(x, i).tolist())
            except RuntimeError as e:
                got.append(str(e))
            got.append(T.take_along_dim(x.reshape(2, 3), T.tensor([[-1, 0, 2]]), 1).tolist())
        assert got[:2] == got[2:]
