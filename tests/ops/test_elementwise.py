"""The elementwise machinery (``tensorviz/ops/_elementwise.py``) against PyTorch: the
operators' inlined fast path, and how a Python number meets a 16-bit float tensor."""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz
from tensorviz._tensor import Tensor, _fresh

torch = pytest.importorskip("torch")

DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
          "float32", "float64", "complex64", "complex128")
SHAPES = ((), (0, 3), (1,), (5,), (3, 4), (2, 3, 4))
SLOTS = [s for s in Tensor.__slots__ if s != "__weakref__"]


def _pair(dtype: str, shape: tuple, seed: int, layout: str):
    """The same two tensors of ``dtype`` in both libraries (``layout`` "t": transposed)."""
    rng = np.random.default_rng(seed)
    tv_dt, pt_dt = getattr(tensorviz, dtype), getattr(torch, dtype)
    out = []
    for _ in range(2):
        base = shape[::-1] if layout == "t" else shape
        data = rng.standard_normal(base) * 4
        if dtype.startswith("complex"):
            data = data + 1j * rng.standard_normal(base)
        x, y = tensorviz.tensor(data).to(tv_dt), torch.tensor(data).to(pt_dt)
        if layout == "t":
            dims = tuple(reversed(range(len(shape))))
            x, y = x.permute(dims), y.permute(dims)
        out.append((x, y))
    return out


def _same(r, e):
    assert tuple(r.shape) == tuple(e.shape) and r.stride() == e.stride()
    assert r.dtype.name == str(e.dtype).split(".")[-1]
    x = r.float().numpy() if r.dtype in (tensorviz.float16, tensorviz.bfloat16) else r.numpy()
    y = e.float().numpy() if e.dtype in (torch.float16, torch.bfloat16) else e.numpy()
    if x.dtype.kind == "c":  # (complex products: C++'s formula may round the last bit apart)
        np.testing.assert_allclose(x, y, rtol=1e-6)
    else:
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", ("contig", "t"))
def test_operators_match_pytorch(dtype, layout):
    """``a + b`` and ``a * b`` (the inlined fast path for row-major tensors of one dtype and
    shape, the general path otherwise): PyTorch's values, dtype, shape and strides."""
    for i, shape in enumerate(SHAPES):
        (a, ta), (b, tb) = _pair(dtype, shape, i, layout)
        _same(a * b, ta * tb)
        if dtype != "bool":
            _same(a + b, ta + tb)
        _same(a * b[:1] if shape and shape[0] else a * b, ta * tb[:1] if shape and shape[0]
              else ta * tb)  # (broadcasting)


def test_operator_fast_path_falls_back_for_subclasses_numbers_and_arrays():
    a = tensorviz.ones(2, 3)
    p = tensorviz.nn.Parameter(tensorviz.ones(2, 3))
    assert (p * a).tolist() == (a * a).tolist() and type(p * a) is Tensor
    assert (a * 2.5).tolist() == [[2.5] * 3] * 2
    assert (a + np.ones((2, 3), np.float32)).tolist() == [[2.0] * 3] * 2
    assert a.__mul__("x") is NotImplemented
    with pytest.raises(TypeError):
        a * "x"


@pytest.mark.parametrize("make", [lambda a, b: a + b, lambda a, b: a * b,
                                  lambda a, b: a.sum()], ids=["add", "mul", "sum"])
@pytest.mark.parametrize("dtype", ("float32", "int64", "bool", "complex64"))
def test_inlined_results_are_built_as_fresh_builds_them(make, dtype):
    """The operators' and ``t.sum()``'s fast paths build the result tensor inline: every
    slot must be what ``_fresh`` gives (a slot added to Tensor makes this fail)."""
    dt = getattr(tensorviz, dtype)
    a, b = tensorviz.ones(3, 3, dtype=dt), tensorviz.ones(3, 3, dtype=dt)
    r = make(a, b)
    ref = _fresh(r._dtype, r._shape, r._stride, r._a)
    for slot in SLOTS:
        assert hasattr(r, slot) == hasattr(ref, slot) or slot == "_storage", slot
        if slot not in ("_a", "_storage"):
            assert getattr(r, slot) == getattr(ref, slot), slot
    assert r._a is not a._a and r._a is not b._a


@pytest.mark.parametrize("call", ["a.sum(dim)", "a.sum(dim=dim)", "tv.sum(a, dim)",
                                  "tv.sum(a, dim, keepdim=True)", "a.sum(axis=dim)"])
@pytest.mark.parametrize("dim", [0, 1, -1, 5, 1.0, True, (0,), "bool", "float", "int8"])
def test_sum_dim_as_a_tensor(call, dim):
    """``t.sum()`` applies the keyword conventions itself (no wrapper): a 0-dim tensor as
    ``dim``, positional or keyword, is read as PyTorch's parser reads it."""
    outcomes = []
    for lib in (tensorviz, torch):
        a = lib.arange(6.0).reshape(2, 3)
        if isinstance(dim, str):
            d = lib.tensor(1, dtype=getattr(lib, dim))
        elif isinstance(dim, tuple):
            d = lib.tensor(dim)
        else:
            d = lib.tensor(dim)
        try:
            r = eval(call, {"a": a, "dim": d, "tv": lib})
            outcomes.append((tuple(r.shape), r.tolist()))
        except Exception as e:  # noqa: BLE001 - compared below
            outcomes.append(type(e))
    assert outcomes[0] == outcomes[1]
