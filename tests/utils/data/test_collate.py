"""default_collate / default_convert against PyTorch's: random nested samples (hypothesis),
every rule of the table, and the errors."""
from __future__ import annotations

import collections

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorviz as tv
from tensorviz.utils.data import default_collate, default_convert

from ._helpers import assert_same_outcome

torch = pytest.importorskip("torch")
from torch.utils.data import default_collate as t_collate  # noqa: E402
from torch.utils.data import default_convert as t_convert  # noqa: E402

Point = collections.namedtuple("Point", "x y")

NP_DTYPES = ["float32", "float64", "int16", "int64", "uint8", "bool", "float16"]
TV_TORCH_DTYPES = ["float32", "float64", "int32", "int64", "uint8", "bool"]


@st.composite
def trees(draw, depth: int = 3):
    """One sample description: a nested structure of leaves, as a recipe that builds the
    same value for each library (``build(recipe, lib)``)."""
    kinds = ["int", "float", "bool", "str", "bytes", "np_array", "np_scalar", "tensor"]
    if depth > 0:
        kinds += ["dict", "tuple", "list", "namedtuple"]
    kind = draw(st.sampled_from(kinds))
    if kind in ("dict", "tuple", "list"):
        n = draw(st.integers(1, 3))
        return (kind, [draw(trees(depth - 1)) for _ in range(n)])
    if kind == "namedtuple":
        return (kind, [draw(trees(depth - 1)), draw(trees(depth - 1))])
    if kind in ("np_array", "tensor"):
        dtype = draw(st.sampled_from(NP_DTYPES if kind == "np_array" else TV_TORCH_DTYPES))
        shape = tuple(draw(st.lists(st.integers(0, 3), max_size=2)))
        return (kind, (dtype, shape))
    if kind == "np_scalar":
        return (kind, draw(st.sampled_from(["float32", "int64", "bool", "float64"])))
    return (kind, None)


def values(rng, shape, dtype):
    if np.dtype(dtype).kind == "f":
        return (rng.normal(size=shape) * 4).astype(dtype)
    return rng.integers(0, 5, size=shape).astype(dtype)


def build(recipe, lib, rng):
    kind, arg = recipe
    if kind == "int":
        return int(rng.integers(-5, 5))
    if kind == "float":
        return float(rng.normal())
    if kind == "bool":
        return bool(rng.integers(2))
    if kind == "str":
        return "s" + str(rng.integers(9))
    if kind == "bytes":
        return b"b" + bytes([int(rng.integers(48, 57))])
    if kind == "np_array":
        dtype, shape = arg
        return values(rng, shape, dtype)
    if kind == "np_scalar":
        return np.dtype(arg).type(values(rng, (), arg))
    if kind == "tensor":
        dtype, shape = arg
        a = np.asarray(values(rng, shape, dtype))
        return lib.from_numpy(a)
    parts = [build(r, lib, rng) for r in arg]
    if kind == "dict":
        return {f"k{i}": p for i, p in enumerate(parts)}
    if kind == "tuple":
        return tuple(parts)
    if kind == "list":
        return parts
    return Point(*parts)


def batch_of(recipe, n, seed):
    """The same batch of ``n`` samples for tensorviz and for PyTorch."""
    ours = [build(recipe, tv, np.random.default_rng(seed + i)) for i in range(n)]
    theirs = [build(recipe, torch, np.random.default_rng(seed + i)) for i in range(n)]
    return ours, theirs


@settings(max_examples=150, deadline=None)
@given(trees(), st.integers(1, 4), st.integers(0, 2**16))
def test_default_collate_matches_pytorch(recipe, n, seed):
    ours, theirs = batch_of(recipe, n, seed)
    assert_same_outcome(lambda: default_collate(ours), lambda: t_collate(theirs), torch)


@settings(max_examples=100, deadline=None)
@given(trees(), st.integers(0, 2**16))
def test_default_convert_matches_pytorch(recipe, seed):
    ours, theirs = batch_of(recipe, 1, seed)
    assert_same_outcome(lambda: default_convert(ours[0]), lambda: t_convert(theirs[0]),
                        torch)


def both(make):
    return make(tv), make(torch)


@pytest.mark.parametrize("make", [
    lambda lib: [1, 2, 3],                                   # ints -> int64
    lambda lib: [1.5, 2.0],                                  # floats -> float64
    lambda lib: [True, False],                               # bools -> bool
    lambda lib: [np.float32(1), np.float32(2)],              # NumPy scalars keep their dtype
    lambda lib: [np.zeros(2, np.float32), np.ones(2, np.float32)],  # arrays keep float32
    lambda lib: ["a", "b"],                                  # strings stay a list
    lambda lib: [{"x": 1, "y": "a"}, {"x": 2, "y": "b"}],    # dicts stay dicts
    lambda lib: [Point(1, 2.0), Point(3, 4.0)],              # namedtuples kept
    lambda lib: [[1, 2, 3], [4, 5, 6]],                      # list of lists transposed
    lambda lib: [(lib.ones(2), 0), (lib.zeros(2), 1)],       # (x, y) pairs -> [X, Y]
    lambda lib: [lib.ones(2, 3), lib.zeros(2, 3)],
    lambda lib: [collections.OrderedDict(a=1), collections.OrderedDict(a=2)],
])
def test_collate_rules(make):
    ours, theirs = both(make)
    assert_same_outcome(lambda: default_collate(ours), lambda: t_collate(theirs), torch)


@pytest.mark.parametrize("make", [
    lambda lib: [lib.ones(3), lib.ones(2)],                  # unequal shapes
    lambda lib: [[1, 2], [3]],                               # sequences of unequal length
    lambda lib: [object(), object()],                        # not collatable
    lambda lib: [np.array(["a"]), np.array(["b"])],          # NumPy strings
    lambda lib: [np.array([object()]), np.array([object()])],
    lambda lib: [{"a": 1}, {"b": 2}],                        # missing key
    lambda lib: [lib.ones(2, dtype=lib.float32), lib.ones(2, dtype=lib.int64)],
])
def test_collate_errors(make):
    ours, theirs = both(make)
    assert_same_outcome(lambda: default_collate(ours), lambda: t_collate(theirs), torch)


def test_collate_object_type_error_names_the_type():
    class Opaque:
        pass
    batch = [Opaque(), Opaque()]
    with pytest.raises(TypeError) as ours:
        default_collate(batch)
    with pytest.raises(TypeError) as theirs:
        t_collate(batch)
    assert str(ours.value) == str(theirs.value)


def test_convert_leaves_strings_and_numpy_string_arrays():
    for value in ["text", np.array(["a", "b"]), np.str_("x"), (np.arange(2), "s")]:
        assert_same_outcome(lambda: default_convert(value), lambda: t_convert(value), torch)
