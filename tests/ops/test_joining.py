"""Joining, tiling, flipping and triangular ops against PyTorch: promotion across inputs, the
error messages' types, PyTorch's legacy empty-tensor rule in ``cat``, result layouts (``flip``
keeps the input's order, ``meshgrid`` returns expanded views), ``out=``."""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz

torch = pytest.importorskip("torch")

LAYOUTS = ("contig", "t", "step", "offset", "expand")  # see conftest.py
SOME_DTYPES = ("bool", "uint8", "int8", "int32", "int64", "float16", "float32", "float64",
               "complex64")


def _layout(i):
    return LAYOUTS[i % len(LAYOUTS)]


def _same_strides(tvdiff, f, *args):
    """Run ``f`` on both libraries; the results' strides must match PyTorch's."""
    (r_tv, e_tv, _), (r_pt, e_pt, _) = tvdiff.run(f, *args)
    assert e_tv is None and e_pt is None, (e_tv, e_pt)
    pairs = zip(r_tv, r_pt) if isinstance(r_pt, tuple) else [(r_tv, r_pt)]
    for a, b in pairs:
        assert tuple(a.shape) == tuple(b.shape) and a.stride() == b.stride(), \
            (a.shape, a.stride(), b.stride())


# ---------------------------------------------------------------- cat / stack
@pytest.mark.parametrize("da", SOME_DTYPES)
@pytest.mark.parametrize("db", ["bool", "uint8", "int8", "int64", "float32", "float64",
                                "complex64"])
def test_cat_promotes(tvdiff, da, db):
    a = tvdiff.make((2, 3), da, "t", seed=1)
    b = tvdiff.make((4, 3), db, "step", seed=2)
    tvdiff.check(lambda lib, a, b: lib.cat([a, b]), a, b, fresh=True)
    tvdiff.check(lambda lib, a, b: lib.cat((b, a, a), dim=-2), a, b)


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
def test_cat_shapes_and_errors(tvdiff, dtype):
    x = tvdiff.make((2, 3), dtype, "t")
    cases = [
        lambda lib, x: lib.cat([x, x], 1), lambda lib, x: lib.cat([x, x], -1),
        lambda lib, x: lib.cat([x]), lambda lib, x: lib.cat([x, lib.zeros(0, 3, dtype=x.dtype)]),
        lambda lib, x: lib.cat([x, lib.tensor([])]),                     # legacy 1-D empty
        lambda lib, x: lib.cat([x, lib.tensor([], dtype=lib.complex64)]),
        lambda lib, x: lib.cat([lib.tensor([]), lib.zeros(2, 3, 4)], 2),
        lambda lib, x: lib.cat([lib.zeros(0), lib.zeros(0)], 1),
        lambda lib, x: lib.cat([x, lib.zeros(0, 2)]), lambda lib, x: lib.cat([x, x[:, :2]]),
        lambda lib, x: lib.cat([x, x[None]]), lambda lib, x: lib.cat([x, x, lib.zeros(3, 4)], 1),
        lambda lib, x: lib.cat([]), lambda lib, x: lib.cat([x], 2),
        lambda lib, x: lib.cat([x, lib.tensor(1.0)]), lambda lib, x: lib.cat(x),
        lambda lib, x: lib.cat([x, 1]), lambda lib, x: lib.concat([x, x]),
        lambda lib, x: lib.concatenate([x, x], axis=1), lambda lib, x: lib.concatenate((x,), 0),
        lambda lib, x: lib.cat([lib.zeros(0, 2), lib.zeros(3, 2)], 1),
    ]
    for f in cases:
        tvdiff.check(f, x)
    _same_strides(tvdiff, lambda lib, x: lib.cat([x, x], 1), x)
    _same_strides(tvdiff, lambda lib, x: lib.stack([x, x]), x)


def test_cat_and_stack_out(tvdiff):
    x = tvdiff.make((2, 3), "float32", "t")
    cases = [
        lambda lib, x: lib.cat([x, x], out=lib.empty(4, 3, dtype=lib.float64)),
        lambda lib, x: lib.cat([x, x], out=lib.empty(4, 3, dtype=lib.int64)),
        lambda lib, x: lib.cat([x.int(), x.int()], out=lib.empty(0)),
        lambda lib, x: lib.stack([x, x], out=lib.empty(0)),
        lambda lib, x: lib.stack([x, x], 2, out=lib.empty(2, 3, 2)),
    ]
    for f in cases:
        tvdiff.check(f, x)
    y = tensorviz.arange(6.0).reshape(2, 3)
    with pytest.raises(RuntimeError):
        tensorviz.cat([y, y], out=y)
    out = tensorviz.empty(4, 3)
    ptr = out.data_ptr()
    assert tensorviz.cat([y, y], out=out) is out and out.data_ptr() == ptr


@pytest.mark.parametrize("dtype", SOME_DTYPES)
def test_stack_family(tvdiff, dtype):
    for i, shape in enumerate([(2, 3), (3,), (), (2, 1, 3)]):
        a = tvdiff.make(shape, dtype, _layout(i), seed=i)
        b = tvdiff.make(shape, "float32", _layout(i + 1), seed=i + 1)
        for dim in range(-len(shape) - 1, len(shape) + 2):
            tvdiff.check(lambda lib, a, b: lib.stack([a, b, a], dim), a, b)
        for name in ("hstack", "vstack", "row_stack", "dstack", "column_stack"):
            tvdiff.check(lambda lib, a, b: getattr(lib, name)([a, b]), a, b, fresh=True)
    a = tvdiff.make((2, 3), dtype)
    for f in (lambda lib, a: lib.stack([a, a[:1]]), lambda lib, a: lib.stack([]),
              lambda lib, a: lib.hstack([]), lambda lib, a: lib.hstack(a),
              lambda lib, a: lib.column_stack([a[None], a[None]]),
              lambda lib, a: lib.hstack([a, a[0]])):
        tvdiff.check(f, a)


# ---------------------------------------------------------------- repeat / tile
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "complex64"])
def test_repeat_tile(tvdiff, dtype):
    for i, shape in enumerate([(2, 3), (3,), (), (2, 1, 3)]):
        x = tvdiff.make(shape, dtype, _layout(i), seed=i)
        for reps in ((2,) * len(shape), (1,) * len(shape), (2, 1) + (3,) * len(shape),
                     (0,) + (2,) * len(shape), (2,), ()):
            tvdiff.check(lambda lib, t: t.repeat(*reps) if reps else t.repeat(reps), x,
                         fresh=True)
            tvdiff.check(lambda lib, t: lib.tile(t, reps), x)
            tvdiff.check(lambda lib, t: t.tile(*reps) if reps else t.tile(reps), x)
        tvdiff.check(lambda lib, t: t.repeat([-1] + [2] * len(shape)), x)
        tvdiff.check(lambda lib, t: lib.tile(t, (-1,)), x)
    x = tvdiff.make((2, 3), dtype, "t")
    _same_strides(tvdiff, lambda lib, t: t.repeat(1, 1), x)
    tvdiff.check(lambda lib, t: t.repeat(lib.tensor([1, 2])), x)


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
def test_repeat_interleave(tvdiff, dtype):
    x = tvdiff.make((2, 3), dtype, "t")
    cases = [
        lambda lib, t: lib.repeat_interleave(t, 2),
        lambda lib, t: lib.repeat_interleave(t, 2, dim=1),
        lambda lib, t: t.repeat_interleave(lib.tensor([1, 2]), dim=0),
        lambda lib, t: t.repeat_interleave(lib.tensor([0, 2, 1]), dim=-1, output_size=3),
        lambda lib, t: lib.repeat_interleave(t, lib.tensor([1, 2]), dim=1),
        lambda lib, t: lib.repeat_interleave(t, lib.tensor([1, -2]), dim=0),
        lambda lib, t: lib.repeat_interleave(t, lib.tensor(2), dim=0),
        lambda lib, t: lib.repeat_interleave(t, lib.tensor([2]), dim=0),
        lambda lib, t: lib.repeat_interleave(t, lib.tensor([[1, 2]]), dim=0),
        lambda lib, t: lib.repeat_interleave(t, lib.tensor([1.0, 2.0]), dim=0),
        lambda lib, t: lib.repeat_interleave(t, -1),
        lambda lib, t: lib.repeat_interleave(t, 2, dim=5),
        lambda lib, t: lib.repeat_interleave(t, 2, output_size=3),
        lambda lib, t: lib.repeat_interleave(t[0, 0], 3),
        lambda lib, t: lib.repeat_interleave(lib.tensor([1, 0, 3])),
        lambda lib, t: lib.repeat_interleave(lib.tensor([[1, 2]])),
    ]
    for f in cases:
        tvdiff.check(f, x)


# ---------------------------------------------------------------- flip / roll / rot90
@pytest.mark.parametrize("dtype", SOME_DTYPES)
def test_flip_roll_rot90(tvdiff, dtype):
    for i, shape in enumerate([(2, 3), (3, 4, 2), (5,), (), (3, 0)]):
        x = tvdiff.make(shape, dtype, _layout(i), seed=i)
        n = len(shape)
        for dims in ([], [0], [-1], list(range(n)), [0, 0], [n]):
            tvdiff.check(lambda lib, t: lib.flip(t, dims), x, fresh=True)
        tvdiff.check(lambda lib, t: t.flip(0), x)
        tvdiff.check(lambda lib, t: lib.flip(t, 0), x)
        tvdiff.check(lambda lib, t: lib.fliplr(t), x)
        tvdiff.check(lambda lib, t: lib.flipud(t), x)
        for shifts, dims in ((1, None), (-7, None), (1, 0), ((1, -1), (0, -1)), ((2, 3), (0, 0)),
                             ((1, -1), (0,)), (1, (0, 1)), (1, n), ([], None)):
            tvdiff.check(lambda lib, t: lib.roll(t, shifts, dims), x)
        for k in (-5, -1, 0, 1, 2, 3, 6):
            tvdiff.check(lambda lib, t: lib.rot90(t, k), x)
            tvdiff.check(lambda lib, t: t.rot90(k, [-1, 0]), x)
        for dims in ([0, 0], [0], [0, 5]):
            tvdiff.check(lambda lib, t: lib.rot90(t, 1, dims), x)
    x = tvdiff.make((3, 4), dtype, "t")
    for f in (lambda lib, t: lib.flip(t, [0]), lambda lib, t: lib.flip(t, [0, 1]),
              lambda lib, t: lib.roll(t, 1, 0), lambda lib, t: lib.rot90(t),
              lambda lib, t: lib.rot90(t, 2), lambda lib, t: lib.rot90(t, 0)):
        _same_strides(tvdiff, f, x)  # flip keeps the input's dim order, as PyTorch
    tvdiff.check(lambda lib, t: lib.roll(t, lib.tensor(1), 0), x)


# ---------------------------------------------------------------- triangles and diagonals
@pytest.mark.parametrize("dtype", SOME_DTYPES)
def test_tril_triu(tvdiff, dtype):
    for i, shape in enumerate([(3, 4), (4, 3), (2, 3, 3), (0, 3)]):
        x = tvdiff.make(shape, dtype, _layout(i), seed=i)
        for k in (-5, -1, 0, 1, 2, 10):
            for name in ("tril", "triu"):
                tvdiff.check(lambda lib, t: getattr(lib, name)(t, k), x, fresh=True)
                tvdiff.check(lambda lib, t: getattr(t.clone(), name + "_")(k), x)
                tvdiff.check(lambda lib, t: getattr(lib, name)(t, k, out=lib.empty(0,
                                                                               dtype=t.dtype)),
                             x)
    x = tvdiff.make((5,), dtype)
    tvdiff.check(lambda lib, t: lib.tril(t), x)
    tvdiff.check(lambda lib, t: t.clone().triu_(), x)
    base = tensorviz.ones(4, 3)
    view = base.t()
    v0 = base._version
    assert view.triu_() is view and base._version == v0 + 1
    assert base.tolist() == [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 1, 1]]


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "complex64"])
def test_diag_family(tvdiff, dtype):
    for i, shape in enumerate([(3,), (2, 3), (4, 4), (0,), (), (2, 2, 2)]):
        x = tvdiff.make(shape, dtype, _layout(i), seed=i)
        for k in (-2, 0, 1, 5):
            tvdiff.check(lambda lib, t: lib.diag(t, k), x, fresh=True)
            tvdiff.check(lambda lib, t: lib.diagflat(t, k), x)
            tvdiff.check(lambda lib, t: lib.diag_embed(t, k), x)
        tvdiff.check(lambda lib, t: t.diag_embed(1, 0, 2), x)
        tvdiff.check(lambda lib, t: lib.diag_embed(t, -1, -1, 0), x)
        tvdiff.check(lambda lib, t: lib.diag_embed(t, 0, 1, 1), x)
        tvdiff.check(lambda lib, t: lib.diag(t, out=lib.empty(5, dtype=t.dtype)), x)


def test_block_diag(tvdiff):
    a = tvdiff.make((2, 3), "float32", "t")
    b = tvdiff.make((2,), "int64", seed=1)
    c = tvdiff.make((), "int8", seed=2)
    d = tvdiff.make((1, 1), "bool", seed=3)
    tvdiff.check(lambda lib, a, b, c, d: lib.block_diag(a, b, c, d), a, b, c, d)
    tvdiff.check(lambda lib, a, b, c, d: lib.block_diag(c, d), a, b, c, d)
    tvdiff.check(lambda lib, a, b, c, d: lib.block_diag(), a, b, c, d)
    tvdiff.check(lambda lib, a, b, c, d: lib.block_diag(lib.zeros(0, 2), lib.ones(2, 0)),
                 a, b, c, d)
    tvdiff.check(lambda lib, a, b, c, d: lib.block_diag(a[None]), a, b, c, d)


# ---------------------------------------------------------------- grids and combinations
def test_meshgrid(tvdiff):
    a = tvdiff.make((2,), "int64", seed=1)
    b = tvdiff.make((3,), "int64", "step", seed=2)
    c = tvdiff.make((), "int64", seed=3)
    f32 = tvdiff.make((3,), "float32", seed=4)
    for indexing in ("ij", "xy"):
        for args in ((0, 1), (0, 1, 2), (0,), (2, 1)):
            tvdiff.check(lambda lib, *ts: lib.meshgrid(*[ts[k] for k in args],
                                                       indexing=indexing), a, b, c)
            _same_strides(tvdiff, lambda lib, *ts: lib.meshgrid(*[ts[k] for k in args],
                                                                indexing=indexing), a, b, c)
        tvdiff.check(lambda lib, a, b: lib.meshgrid([a, b], indexing=indexing), a, b)
    for f in (lambda lib, a, f: lib.meshgrid(a, f, indexing="ij"),
              lambda lib, a, f: lib.meshgrid(a, a, indexing="foo"),
              lambda lib, a, f: lib.meshgrid(indexing="ij"),
              lambda lib, a, f: lib.meshgrid(a[None], a, indexing="ij")):
        tvdiff.check(f, a, f32)
    grids = tensorviz.meshgrid(tensorviz.arange(2), tensorviz.arange(3), indexing="ij")
    assert grids[0].untyped_storage() is not None and grids[0].stride() == (1, 0)


def test_meshgrid_warns_once_without_indexing(monkeypatch):
    from tensorviz.ops import indexing
    monkeypatch.setattr(indexing, "_WARNED", set())
    with pytest.warns(UserWarning, match="indexing argument"):
        tensorviz.meshgrid(tensorviz.arange(2), tensorviz.arange(3))
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tensorviz.meshgrid(tensorviz.arange(2), tensorviz.arange(3))  # once per process


def test_cartesian_prod_combinations(tvdiff):
    a = tvdiff.make((3,), "int64", "step", seed=1)
    b = tvdiff.make((2,), "int64", seed=2)
    f = tvdiff.make((2,), "float32", seed=3)
    tvdiff.check(lambda lib, a, b, f: lib.cartesian_prod(a, b), a, b, f)
    tvdiff.check(lambda lib, a, b, f: lib.cartesian_prod(a, b, a), a, b, f)
    tvdiff.check(lambda lib, a, b, f: lib.cartesian_prod(a), a, b, f)
    tvdiff.check(lambda lib, a, b, f: lib.cartesian_prod(a, f), a, b, f)
    tvdiff.check(lambda lib, a, b, f: lib.cartesian_prod(a[None]), a, b, f)
    x = tvdiff.make((4,), "float32", "step", seed=4)
    for r in (0, 1, 2, 3, 4, 5):
        for rep in (False, True):
            tvdiff.check(lambda lib, t: lib.combinations(t, r, rep), x)
    tvdiff.check(lambda lib, t: lib.combinations(t[None]), x)


def test_tri_indices(tvdiff):
    x = tvdiff.make((1,), "int64")
    for args in ((3, 3), (3, 4, 1), (4, 3, -1), (0, 3), (3, 3, 10), (3, 3, -10)):
        for name in ("tril_indices", "triu_indices"):
            tvdiff.check(lambda lib, t: getattr(lib, name)(*args), x)
            tvdiff.check(lambda lib, t: getattr(lib, name)(*args, dtype=lib.int32), x)
    for dt in ("uint8", "int8", "int16", "bool", "float32", "float16"):  # (int32/int64 only)
        for name in ("tril_indices", "triu_indices"):
            tvdiff.check(lambda lib, t: getattr(lib, name)(3, 3, dtype=getattr(lib, dt)), x)


@pytest.mark.parametrize("op", ["cat", "stack", "flip", "roll", "tril", "repeat", "diag"])
def test_on_cuda_matches_cpu(devices, op):
    if devices == "cpu":
        pytest.skip("compares cuda with cpu")
    x = tensorviz.arange(12.0).reshape(3, 4).t()
    calls = {"cat": lambda t: tensorviz.cat([t, t.int()], 1),
             "stack": lambda t: tensorviz.stack([t, t], -1),
             "flip": lambda t: tensorviz.flip(t, [0]), "roll": lambda t: t.roll((1, 2), (0, 1)),
             "tril": lambda t: t.tril(-1), "repeat": lambda t: t.repeat(2, 1, 3),
             "diag": lambda t: tensorviz.diag(t[0], 1)}
    cpu, gpu = calls[op](x), calls[op](x.cuda())
    assert gpu.device.type == "cuda" and gpu.cpu().tolist() == cpu.tolist()
    assert gpu.stride() == cpu.stride() and gpu.dtype is cpu.dtype


def test_results_are_numpy_free_of_aliasing():
    x = tensorviz.arange(6.0).reshape(2, 3)
    for r in (tensorviz.cat([x]), tensorviz.flip(x, []), tensorviz.roll(x, 0),
              tensorviz.rot90(x, 0), x.repeat(1, 1), tensorviz.tile(x, (1, 1)),
              tensorviz.diag(tensorviz.diag(x))):
        assert r.untyped_storage() is not x.untyped_storage()
        assert not np.shares_memory(r.numpy(), x.numpy())


# ---------------------------------------------------------------- random shapes (hypothesis)
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@st.composite
def _cat_cases(draw):
    ndim = draw(st.integers(1, 4))
    shape = draw(st.lists(st.integers(0, 4), min_size=ndim, max_size=ndim))
    dim = draw(st.integers(-ndim, ndim - 1))
    shapes = []
    for _ in range(draw(st.integers(1, 4))):
        s = list(shape)
        s[dim] = draw(st.integers(0, 3))
        if draw(st.integers(0, 9)) == 0:  # sometimes a mismatch elsewhere: an error
            k = draw(st.integers(0, ndim - 1))
            s[k] += 1
        shapes.append(tuple(s))
    dtypes = draw(st.lists(st.sampled_from(["bool", "uint8", "int16", "int64", "float32",
                                            "float64", "complex64"]), min_size=len(shapes),
                           max_size=len(shapes)))
    layouts = draw(st.lists(st.sampled_from(LAYOUTS), min_size=len(shapes),
                            max_size=len(shapes)))
    return shapes, dtypes, layouts, dim


@settings(max_examples=40, deadline=None)
@given(_cat_cases())
def test_random_cat_stack(tvdiff, case):
    shapes, dtypes, layouts, dim = case
    ts = [tvdiff.make(s, d, lay, seed=i) for i, (s, d, lay) in enumerate(zip(shapes, dtypes,
                                                                            layouts))]
    tvdiff.check(lambda lib, *t: lib.cat(t, dim), *ts)
    tvdiff.check(lambda lib, *t: lib.stack(t, dim), *ts)
    tvdiff.check(lambda lib, *t: lib.flip(t[0], [dim]), *ts)
    tvdiff.check(lambda lib, *t: lib.roll(t[0], 2, dim), *ts)


@pytest.mark.parametrize("call", [
    lambda lib, t: t.flip(dims=[0, 1]), lambda lib, t: t.flip(dims=(1,)),
    lambda lib, t: t.tile(dims=(2, 1)), lambda lib, t: t.tile(dims=[3]),
    lambda lib, t: t.flip(dims=0), lambda lib, t: t.tile(dims=2),
    lambda lib, t: t.flip(0, dims=(0,)), lambda lib, t: t.tile(2, dims=(2,))])
def test_dims_keyword_on_methods(tvdiff, call):
    """``t.flip(dims=...)`` and ``t.tile(dims=...)`` as PyTorch: one sequence by keyword."""
    tvdiff.check(call, tvdiff.make((2, 3), "float32", "t"))


def test_combinations_of_a_huge_r_is_the_allocators_error():
    """PyTorch builds the n ** r grid of index tuples first: a huge r is its allocator's
    RuntimeError at once, never a MemoryError or a search that does not end."""
    x = tensorviz.tensor([-0.75, 0.0, -2.5, 0.5])
    for r, rep in ((1099511627776, False), (1000000, True), (20, False)):
        with pytest.raises(RuntimeError, match="can't allocate memory"):
            tensorviz.combinations(x, r=r, with_replacement=rep)
    assert tuple(tensorviz.combinations(x, r=5).shape) == (0, 5)


@pytest.mark.parametrize("r", ["10**30", "-(10**30)", "1.5", "T.tensor(1)", "True"])
def test_combinations_parses_r_as_pytorch(r):
    """``r`` past int64 is the parser's ValueError (not Python's OverflowError from
    itertools), a float or bool a TypeError, a 0-dim integer tensor an int."""
    def run(T):
        try:
            return T.combinations(T.tensor([1.0]), eval(r, {"T": T})).tolist()
        except Exception as e:
            return type(e).__name__, str(e)
    assert run(tensorviz) == run(torch)


_TILE_CALLS = ["x.tile(2)", "x.tile(2, 1)", "x.tile((2, 1))", "x.tile([2])", "L.tile(x, (2, 1))",
               "L.tile(x, 2)", "x.tile(dims=(2, 2))", "x.tile(())", "x.tile(2.5)", "x.tile(dims=2)",
               "x.tile(2, 2.5)", "x.tile((2, 2.5))", "L.tile(x, (2, 2.5))", "L.tile(x, 2.5)",
               "x.tile('a')", "L.tile(x, [2, 'a'])", "x.repeat(2.5)", "x.repeat(2, 2.5)",
               "x.repeat(2, 1)", "x.repeat((3,))"]


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("call", _TILE_CALLS)
def test_tile_and_repeat_spellings_as_pytorch(call, requires_grad):
    """Every spelling of tile/repeat: PyTorch's shapes, graph and gradient, or its TypeError
    word for word (with grad on, tile runs as its recorded decomposition into repeat)."""
    torch = pytest.importorskip("torch")
    outs = []
    for L in (torch, tensorviz):
        x = L.tensor([1.0, 2.0, 3.0], requires_grad=requires_grad)
        try:
            y = eval(call, {"L": L, "x": x})
        except TypeError as e:
            outs.append(("TypeError", str(e)))
            continue
        got = [list(y.shape), y.grad_fn.name() if y.grad_fn is not None else None]
        if requires_grad:
            (y * L.arange(y.numel(), dtype=L.float32).reshape(y.shape)).sum().backward()
            got.append(x.grad.tolist())
        outs.append(got)
    assert outs[1] == outs[0]


def test_transpose_property_warnings_once_per_process():
    """``x.T`` of a non-matrix and ``.T``/``.mT`` of a 0-d tensor warn once per process, as
    PyTorch's TORCH_WARN_ONCE (each message once), in fresh interpreters of both libraries."""
    import subprocess
    import sys
    prog = ("import sys, warnings\n"
            "L = __import__(sys.argv[1])\n"
            "seen = []\n"
            "for _ in range(3):\n"
            "    with warnings.catch_warnings(record=True) as w:\n"
            "        warnings.simplefilter('always')\n"
            "        L.ones(3).T, L.tensor(1.0).T, L.tensor(2.0).mT, L.ones(2, 2).T\n"
            "    seen.append([str(c.message).split(' (Triggered')[0] for c in w])\n"
            "print(seen)\n")
    outs = [subprocess.run([sys.executable, "-c", prog, lib], capture_output=True, text=True,
                           check=True).stdout for lib in ("torch", "tensorviz")]
    assert outs[1] == outs[0]
    assert eval(outs[1])[1:] == [[], []] and len(eval(outs[1])[0]) == 3
