"""Creation ops against PyTorch: tensor/Tensor/as_tensor/asarray/from_numpy, zeros/ones/
empty/full and their _like forms, arange, range, linspace, logspace, eye, empty_strided."""
from __future__ import annotations

import contextlib

import warnings

import numpy as np
import pytest

import tensorviz as tv
from tv_core_conftest import examples, same

torch = pytest.importorskip("torch")


# ---------------------------------------------------------------- tensor(data)
TENSOR_DATA = [
    [[1, 2], [3]], [[1, 2], 3], [1, [2, 3]], [[1, 2], [3, 4, 5]], [[[1], [2]], [[3], [4, 5]]],
    [[1], []], [], [[]], [[], []], (), [[[]]], [1, 2.5], [1, True], [True, 2.5j], [True, False],
    5, 2.5, True, 1j, [2 ** 62], 2 ** 63, [2 ** 63], -2 ** 63, 2 ** 64, [1.0, 2 ** 70], 1e400,
    "abc", None, [None], [1, "a"], ["a"], [["a"]], [[1, 2], ["a", "b"]], [[1, 2], (3, 4)], ((1, 2), (3, 4)), range(4),
    [range(2), range(2)], {1: 2}, {1, 2},
    "tensors:1d", "tensors:0d", "tensors:one-element", "tensors:mixed", "tensors:float64",
    "tensors:int8", "tensors:nested", "numpy:scalars", "numpy:int8", "numpy:float64",
    "numpy:bool", "numpy:arrays", "numpy:int8-array-and-list", "numpy:array", "numpy:array-T",
    "numpy:negative-strides", "numpy:big-endian", "numpy:0d", "numpy:float32-scalar",
    "size",
]


def _data(L, spec):
    if not isinstance(spec, str) or ":" not in spec and spec != "size":
        return spec
    kind = spec
    return {
        "tensors:1d": lambda: [L.tensor([1.0, 2]), L.tensor([3.0, 4])],
        "tensors:0d": lambda: [L.tensor(1), L.tensor(2)],
        "tensors:one-element": lambda: [L.tensor([1.0]), L.tensor([[2.0]])],
        "tensors:mixed": lambda: [L.tensor([1, 2]), [3, 4]],
        "tensors:float64": lambda: [L.tensor(1.5, dtype=L.float64), 2],
        "tensors:int8": lambda: [L.tensor(1, dtype=L.int8), 2],
        "tensors:nested": lambda: [[L.tensor(1.0)], [L.tensor(2.0)]],
        "numpy:scalars": lambda: [np.float32(1.5), np.int16(2)],
        "numpy:int8": lambda: [np.int8(2)],
        "numpy:float64": lambda: [np.float64(2.5)],
        "numpy:bool": lambda: [np.bool_(True), False],
        "numpy:arrays": lambda: [np.array([1, 2]), np.array([3, 4])],
        "numpy:int8-array-and-list": lambda: [np.array([1, 2], dtype=np.int8), [3, 4]],
        "numpy:array": lambda: np.arange(6.0).reshape(2, 3),
        "numpy:array-T": lambda: np.arange(6.0).reshape(2, 3).T,
        "numpy:negative-strides": lambda: np.arange(6.0)[::-1],
        "numpy:big-endian": lambda: np.arange(6, dtype=">i4"),
        "numpy:0d": lambda: np.array(2.5),
        "numpy:float32-scalar": lambda: np.float32(2.5),
        "size": lambda: L.Size([2, 3]),
    }[kind]()


@pytest.mark.parametrize("spec", TENSOR_DATA, ids=[repr(s)[:30] for s in TENSOR_DATA])
@pytest.mark.parametrize("default", ["float32", "float64"])
def test_tensor_infers_like_pytorch(spec, default, request):
    if default == "float64":
        request.getfixturevalue("default_float64")
    same(lambda L: L.tensor(_data(L, spec)))


EXPLICIT = [
    (3, "uint8"), (300, "uint8"), ([300], "uint8"), (-1, "uint8"), (-255, "uint8"),
    (-300, "uint8"), (-0.5, "uint8"), (-1.5, "uint8"), (1.5, "int32"), (1e10, "int32"),
    (float("nan"), "int32"), (float("inf"), "int64"), (128, "int8"), (1 + 2j, "float32"),
    ([1, 2 + 0j], "float32"), ([1, 2], "float16"), (True, "float32"), (2, "bool"),
    (0.0, "bool"), (1e300, "float32"), (1e6, "float16"), ([1, 2 ** 70], "float32"),
    ([2 ** 63 - 1], "float64"), ("numpy:array", "int8"), ("numpy:array", "complex64"),
    ([[1, 2], [3, 4]], "complex128"), ("tensors:1d", "float64"),
]


@pytest.mark.parametrize("spec,dtype", EXPLICIT, ids=[f"{s!r}-{d}" for s, d in EXPLICIT])
def test_tensor_with_an_explicit_dtype_matches_pytorch(spec, dtype):
    same(lambda L: L.tensor(_data(L, spec), dtype=getattr(L, dtype)))


def test_tensor_copies_and_warns_when_given_a_tensor():
    a = tv.arange(3.0)
    with pytest.warns(UserWarning, match="recommended to use sourceTensor.detach"):
        b = tv.tensor(a)
    assert b.untyped_storage() is not a.untyped_storage() and b.tolist() == a.tolist()


def test_tensor_options():
    t = tv.tensor([1.0, 2.0], dtype=tv.float64, device="cpu", requires_grad=True)
    assert t.dtype is tv.float64 and t.device == tv.device("cpu") and t.requires_grad
    same(lambda L: L.tensor([1, 2], requires_grad=True))
    same(lambda L: L.tensor([1, 2], dtype="float32"))


def test_tensor_from_numpy_copies():
    a = np.arange(6.0).reshape(2, 3)
    t = tv.tensor(a)
    a[0, 0] = 100
    assert t[0, 0].item() == 0.0 and t.dtype is tv.float64


# ---------------------------------------------------------------- Tensor(...) / as_tensor ...
LEGACY = [
    lambda L: L.Tensor(), lambda L: L.Tensor(2, 3).shape, lambda L: L.Tensor((2, 3)),
    lambda L: L.Tensor([1, 2]), lambda L: L.Tensor([[1, 2], [3, 4]]), lambda L: L.Tensor(3.5),
    lambda L: L.Tensor(L.Size([2, 2])).shape, lambda L: L.Tensor(np.arange(3)),
    lambda L: L.Tensor([True, False]), lambda L: L.Tensor("ab"),
    lambda L: L.as_tensor([1, 2]), lambda L: L.as_tensor(np.arange(3.0)),
    lambda L: L.as_tensor(np.arange(3.0)[::-1]), lambda L: L.as_tensor(np.arange(3.0), dtype=L.int32),
    lambda L: L.as_tensor(L.zeros(2, 3).t(), dtype=L.float64),
    lambda L: L.asarray(np.arange(3.0)[::-1]), lambda L: L.asarray([1, 2], dtype=L.float64),
    lambda L: L.asarray(L.zeros(2, 3).t()), lambda L: L.asarray(3.5),
    lambda L: L.scalar_tensor(3), lambda L: L.scalar_tensor(3, dtype=L.int32),
]


@pytest.mark.parametrize("fn", LEGACY, ids=[f"legacy{i}" for i in range(len(LEGACY))])
def test_tensor_constructors_match_pytorch(fn):
    same(fn, values=False)  # (Tensor(*sizes) is uninitialised)


TYPED = [
    lambda L: L.FloatTensor([1, 2]), lambda L: L.LongTensor([1.7, -2]),
    lambda L: L.DoubleTensor([[1], [2]]), lambda L: L.IntTensor(2, 3).shape,
    lambda L: L.BoolTensor([2, 0]), lambda L: L.ByteTensor([1, 255]),
    lambda L: L.CharTensor([-1]), lambda L: L.ShortTensor(()), lambda L: L.HalfTensor([0.5]),
    lambda L: L.FloatTensor(), lambda L: L.FloatTensor(L.Size([2])).shape,
    lambda L: L.FloatTensor(2.5), lambda L: L.FloatTensor(-1), lambda L: L.ByteTensor([300]),
    lambda L: L.LongTensor(L.arange(3.0)), lambda L: L.FloatTensor(L.arange(3.0)),
    lambda L: L.Tensor(L.arange(3)), lambda L: L.zeros(2).type(L.LongTensor),
    lambda L: isinstance(L.zeros(2), L.FloatTensor),
    lambda L: isinstance(L.zeros(2, dtype=L.int64), L.FloatTensor),
    lambda L: isinstance(L.zeros(2, dtype=L.int64), L.LongTensor),
    lambda L: isinstance(1, L.FloatTensor),
]


@pytest.mark.parametrize("fn", TYPED, ids=[f"typed{i}" for i in range(len(TYPED))])
def test_legacy_typed_constructors_match_pytorch(fn):
    same(fn)


def test_Tensor_of_a_tensor_is_an_alias():
    for make in (lambda L: L.arange(6.0).reshape(2, 3).t(), lambda L: L.arange(3)):
        t, pt = make(tv), make(torch)
        a, pa = tv.Tensor(t), torch.Tensor(pt)
        assert (a is t) == (pa is pt) and (a.data_ptr() == t.data_ptr()) == \
            (pa.data_ptr() == pt.data_ptr())
        assert a.dtype.name == str(pa.dtype).split(".")[-1] and a.stride() == pa.stride()


NEW = [
    lambda t: t.new_zeros(2, 3), lambda t: t.new_zeros((2, 3)), lambda t: t.new_ones([2]),
    lambda t: t.new_zeros(2, dtype=None), lambda t: t.new_ones(2, dtype=t.real.dtype),
    lambda t: t.new_ones(2, 1).stride(), lambda t: t.t().new_zeros(2, 3),
    lambda t: t.new_full((2,), 2.7), lambda t: t.new_full(2, 1), lambda t: t.new_full((2,), True),
    lambda t: t.new_full((2,), 1e20), lambda t: t.new_tensor([1.5, 2]), lambda t: t.new_tensor(5),
    lambda t: t.new_empty((2, 3)).shape, lambda t: t.new_empty(2).dtype,
    lambda t: t.new_empty_strided((2, 3), (1, 2)).stride(), lambda t: t.new_zeros(),
    lambda t: t.new_zeros(-1), lambda t: t.new_ones(2, dtype=float),
    lambda t: t.new_zeros(2, requires_grad=True), lambda t: t.new_zeros(2, device="cpu"),
    lambda t: t.new(), lambda t: t.new(2, 3).shape, lambda t: t.new([1.5, 2]),
    lambda t: t.new((1, 2)), lambda t: t.new(2.5), lambda t: t.new(t.real.t()),
]


@pytest.mark.parametrize("dtype", ["int32", "float64", "bool", "complex64"])
@pytest.mark.parametrize("fn", NEW, ids=[f"new{i}" for i in range(len(NEW))])
def test_new_methods_match_pytorch(fn, dtype):
    same(lambda L: fn(L.arange(6).reshape(2, 3).to(getattr(L, dtype))))


def test_new_tensor_copies_with_the_source_dtype():
    t = tv.arange(3, dtype=tv.int32)
    with pytest.warns(UserWarning, match="copy construct"):
        c = t.new_tensor(tv.tensor([1.5]))
    assert c.dtype is tv.int32 and c.tolist() == [1]
    c = t.new_tensor(np.arange(2.0), dtype=tv.float64)
    assert c.dtype is tv.float64


def test_tensor_vs_Tensor():
    assert tv.tensor([1, 2]).dtype is tv.int64
    assert tv.Tensor([1, 2]).dtype is tv.float32
    t = tv.Tensor(2, 3)
    assert t.shape == (2, 3) and t.dtype is tv.float32


def test_as_tensor_and_from_numpy_share_memory():
    a = np.arange(6.0)
    for t in (tv.as_tensor(a), tv.from_numpy(a), tv.asarray(a)):
        t[0] = 42
        assert a[0] == 42
        a[0] = 0
        assert t[0].item() == 0
    assert tv.as_tensor(a, dtype=tv.float32).untyped_storage().data_ptr() != \
        tv.from_numpy(a).untyped_storage().data_ptr()
    t = tv.arange(3)
    assert tv.as_tensor(t) is t and tv.asarray(t) is t
    c = tv.asarray(t, copy=True)
    assert c is not t and c.untyped_storage() is not t.untyped_storage()
    with pytest.raises(ValueError):
        tv.asarray(np.arange(3), dtype=tv.float32, copy=False)
    assert tv.asarray(a, copy=False).untyped_storage().data_ptr() == a.ctypes.data


# ---------------------------------------------------------------- filled tensors
FILLED = [
    lambda L: L.zeros(2, 3), lambda L: L.zeros((2, 3)), lambda L: L.zeros([2, 3]),
    lambda L: L.zeros(L.Size([2, 3])), lambda L: L.zeros(2, -3), lambda L: L.zeros(2.5),
    lambda L: L.zeros((2, 2.5)), lambda L: L.zeros(), lambda L: L.zeros(()), lambda L: L.zeros(0),
    lambda L: L.zeros(L.tensor(3)), lambda L: L.zeros(L.tensor([2, 3])),
    lambda L: L.ones(2, L.tensor(3)), lambda L: L.zeros(2, dtype=L.int32),
    lambda L: L.zeros(2, 3, dtype=L.int32, device="cpu"), lambda L: L.ones(2, dtype=L.bool),
    lambda L: L.ones(2, 3, dtype=L.complex64), lambda L: L.ones(), lambda L: L.empty(2, 3).shape,
    lambda L: L.empty((2, 3), dtype=L.int8).dtype, lambda L: L.empty(), lambda L: L.empty(0, 3),
    lambda L: L.full((2, 3), 7), lambda L: L.full((2, 3), 7.0), lambda L: L.full((2, 3), True),
    lambda L: L.full((2, 3), 1j), lambda L: L.full((2, 3), 7, dtype=L.float16),
    lambda L: L.full(2, 7), lambda L: L.full([], 7), lambda L: L.full((2,), L.tensor(3)),
    lambda L: L.full((2,), 300, dtype=L.uint8), lambda L: L.full((2,), -0.5, dtype=L.uint8),
    lambda L: L.full((1,), 1e300, dtype=L.float32), lambda L: L.full((1,), 1e6, dtype=L.float16),
    lambda L: L.full((2,), 1e6, dtype=L.float16), lambda L: L.full((0,), 1e6, dtype=L.float16),
    lambda L: L.full_like(L.zeros(3, dtype=L.float16), -1e6),
    lambda L: L.zeros(2, dtype=L.float16).new_full((2,), 1e6),
    lambda L: L.full((2,), float("inf"), dtype=L.float16),
    lambda L: L.zeros(2, dtype=L.float64, requires_grad=True).requires_grad,
    lambda L: L.zeros(2, dtype=L.int64, requires_grad=True),
]


@pytest.mark.parametrize("fn", FILLED, ids=[f"filled{i}" for i in range(len(FILLED))])
def test_filled_tensors_match_pytorch(fn):
    same(fn)


LIKE = [
    lambda L, x: L.zeros_like(x), lambda L, x: L.ones_like(x, dtype=L.int8),
    lambda L, x: L.full_like(x, 7), lambda L, x: L.full_like(x, 7.9, dtype=L.int32),
    lambda L, x: L.empty_like(x).shape, lambda L, x: L.zeros_like(x, memory_format=L.contiguous_format),
    lambda L, x: L.empty_like(x).stride(), lambda L, x: L.ones_like(x, dtype=L.bool),
    lambda L, x: L.full_like(x, 300, dtype=L.uint8), lambda L, x: L.zeros_like([1, 2]),
]
LIKE_INPUTS = [
    lambda L: L.zeros(2, 3), lambda L: L.zeros(2, 3).t(), lambda L: L.zeros(2, 6)[:, ::2],
    lambda L: L.zeros(3, 1).expand(3, 4), lambda L: L.zeros(2, 3, 4).permute(2, 0, 1),
    lambda L: L.zeros(0, 3).t(), lambda L: L.tensor(1.5),
]


@pytest.mark.parametrize("fn", LIKE, ids=[f"like{i}" for i in range(len(LIKE))])
@pytest.mark.parametrize("make", LIKE_INPUTS, ids=[f"in{i}" for i in range(len(LIKE_INPUTS))])
def test_like_functions_keep_pytorchs_layout(fn, make):
    same(lambda L: fn(L, make(L)))


# ---------------------------------------------------------------- ranges
ARANGE = [
    (5,), (5.0,), (1, 5), (1, 5, 2), (0, 1, 0.25), (0, 1, 0.1), (5, 0, -1), (5, 0, -1.5),
    (0, 5, -1), (0, 5, 0), (0.0, 5.0, 0.0), (0, float("inf")), (0, float("nan")), (1, 1),
    (-1.0, 1.0, 0.5), (10, 0, -3), (0, 2 ** 60, 2 ** 58), (0, 1e20, 1e19), (True,),
    (-3.7, 2.2, 1.1), (0.5, 3.5), (5.5,), (1, 2.5, 0.5),
]
ARANGE_DTYPES = [None, "int64", "int32", "int16", "uint8", "float16", "float64", "bool",
                 "complex64"]


@pytest.mark.parametrize("args", ARANGE, ids=[repr(a) for a in ARANGE])
@pytest.mark.parametrize("dtype", ARANGE_DTYPES)
def test_arange_matches_pytorch(args, dtype):
    """Integer results are exact; float ones within an ulp (PyTorch's vectorised kernel
    computes some elements from the start of their vector chunk)."""
    def run(L):
        kw = {} if dtype is None else {"dtype": getattr(L, dtype)}
        return L.arange(*args, **kw)
    mine, theirs = same(run, values=False)
    if isinstance(theirs, BaseException):
        return
    a, b = mine.numpy(), theirs.numpy()
    if a.dtype.kind in "fc" and not np.array_equal(a, b, equal_nan=True):
        mag = min(max(abs(float(v)) for v in args) or 1.0, float(np.finfo(a.dtype).max))
        with np.errstate(over="ignore"):
            tol = 2 * float(np.spacing(np.asarray(mag, a.dtype)))
        assert np.isclose(a.astype(np.float64), b.astype(np.float64), rtol=0, atol=tol).all()
    else:
        assert np.array_equal(a, b)


def test_arange_keywords_and_tensor_bounds():
    same(lambda L: L.arange(start=1, end=4))
    same(lambda L: L.arange(end=4))
    same(lambda L: L.arange(L.tensor(5)))
    same(lambda L: L.arange(L.tensor(5.0)))
    same(lambda L: L.arange(0, 5, out=L.empty(5, dtype=L.int64)))


@pytest.mark.parametrize("args", [(0, 4), (0, 4, 0.5), (4, 0, -1), (0, 4, 0), (1, 2.5, 0.3)])
@pytest.mark.parametrize("dtype", [None, "int64", "float64"])
def test_range_matches_pytorch_and_warns(args, dtype):
    if len(args) == 3 and (args[2] == 0 or dtype == "int64" and abs(args[2]) < 1):
        # PyTorch itself dies (SIGFPE) when the step is 0 in its accumulation type
        with pytest.raises(RuntimeError), pytest.warns(UserWarning):
            tv.range(*args, dtype=getattr(tv, dtype or "float32"))
        return

    def run(L):
        kw = {} if dtype is None else {"dtype": getattr(L, dtype)}
        return L.range(*args, **kw)
    same(run)
    with pytest.warns(UserWarning, match="deprecated"):
        tv.range(0, 2)


def test_range_needs_both_bounds_as_pytorch():
    """PyTorch's parser refuses ``range(end)`` (TypeError, before the deprecation warning);
    tensorviz once read it as ``range(0, end)`` and tried to fill 2**31 floats."""
    import warnings
    for L in (torch, tv):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(TypeError, match='missing 1 required positional arguments: "end"'):
                L.range(L.tensor(2147483646))


@pytest.mark.parametrize("args,dtype", [
    ((1, 70000), "uint8"), ((-5, 200000, 3), "int8"), ((7, 140000, 1), "int16"),
    ((3, -150000, -7), "uint8"), ((0.5, 3000, 1.25), "float16"), ((0.5, 2 ** 24, 1.25), "float16"),
    ((1, 3 << 20, 3), "int32"), ((0.1, 1.5e6, 0.7), "float32"),
])
def test_long_ranges_wrap_and_round_as_pytorch(args, dtype):
    """Long ranges are filled block by block (an 8/16-bit dtype: one period, repeated), so
    they need only the result's memory; values wrap into narrow integers and a half range's
    length is computed in float32, as PyTorch's accumulation type."""
    for name in ("range", "arange"):
        def run(L):
            with pytest.warns(UserWarning) if name == "range" else contextlib.nullcontext():
                return getattr(L, name)(*args, dtype=getattr(L, dtype))
        mine, theirs = run(tv), run(torch)
        assert mine.shape == theirs.shape
        a, b = mine.numpy(), theirs.numpy()
        if a.dtype.kind == "f" and name == "arange":  # (see test_arange_matches_pytorch)
            assert np.allclose(a, b, rtol=1e-6, equal_nan=True)
        else:
            assert np.array_equal(a, b, equal_nan=True)


LINSPACE_ERRORS = [
    lambda L: L.linspace(0, 1), lambda L: L.linspace(0, 1, 5.0), lambda L: L.linspace(0, 1, -1),
    lambda L: L.linspace(0, 1, 0), lambda L: L.linspace(0, 1, 1), lambda L: L.linspace(1, 0, 4),
    lambda L: L.linspace(L.tensor(0), L.tensor(1), 3), lambda L: L.linspace(0, 1j, 3),
    lambda L: L.linspace(-0.5, 3, 4, dtype=L.uint8), lambda L: L.linspace(-0.5, 3, 1, dtype=L.uint8),
    lambda L: L.linspace(0, -62.5, 1, dtype=L.uint8), lambda L: L.linspace(-5, 0.9, 6, dtype=L.int32),
    lambda L: L.linspace(0, 10, 21, dtype=L.int64), lambda L: L.logspace(0, 2, 3),
    lambda L: L.logspace(0, 2, 3, base=2), lambda L: L.logspace(0, 3, 4, dtype=L.int64),
    lambda L: L.logspace(0, 2, 3, base=2.5, dtype=L.int64), lambda L: L.logspace(0, 2, 1),
    lambda L: L.linspace(0, 1, 5, dtype=L.bool), lambda L: L.linspace(0, 1, 1, dtype=L.bool),
    lambda L: L.linspace(0, 1, 0, dtype=L.bool), lambda L: L.logspace(0, 1, 2, dtype=L.bool),
    lambda L: L.logspace(0, 1, 1, dtype=L.bool),
]


@pytest.mark.parametrize("fn", LINSPACE_ERRORS, ids=[f"lin{i}" for i in range(len(LINSPACE_ERRORS))])
def test_linspace_cases_match_pytorch(fn):
    same(fn)


hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_BOUND = st.one_of(st.floats(-100, 100, allow_nan=False), st.integers(-50, 50))


@settings(max_examples=examples(300), deadline=None)
@given(st.floats(-1e4, 1e4, allow_nan=False), st.floats(-1e4, 1e4, allow_nan=False),
       st.integers(0, 300), st.sampled_from(["float32", "float16", "bfloat16"]))
def test_linspace_of_floats_is_pytorchs_bit_for_bit(start, end, steps, dtype):
    """float32 linspace is PyTorch's exactly (its compiler fuses start + step * i into one
    rounding: -0.1 in linspace(-0.5, 0.5, 6) is -0.099999994 there), as float16 and
    bfloat16 (each step rounded) are; a histogram's edges are these values."""
    mine, theirs = same(lambda L: L.linspace(start, end, steps, dtype=getattr(L, dtype)),
                        values=False)
    if not isinstance(theirs, BaseException):
        np.testing.assert_array_equal(mine.float().numpy(), theirs.float().numpy())


@settings(max_examples=examples(300), deadline=None)
@given(_BOUND, _BOUND, st.integers(0, 70),
       st.sampled_from(["float16", "float32", "float64", "complex64", "int64", "int32",
                        "int8"]))
def test_linspace_values_within_an_ulp_of_pytorch(start, end, steps, dtype):
    """PyTorch's kernel is vectorised (values depend on the CPU's vector width in the last
    ulp); within one ulp of the range's magnitude, or one unit for integer dtypes."""
    def run(L):
        return L.linspace(start, end, steps, dtype=getattr(L, dtype))
    mine, theirs = same(run, values=False)
    if isinstance(theirs, BaseException):
        return
    a, b = mine.numpy(), theirs.numpy()
    if a.dtype.kind in "iu":
        assert np.abs(a.astype(np.int64) - b.astype(np.int64)).max(initial=0) <= 1
    else:
        ulp = np.spacing(np.asarray(max(abs(start), abs(end), 1e-30), dtype=a.real.dtype))
        diff = np.abs(a.astype(np.complex128) - b.astype(np.complex128))
        assert diff.max(initial=0) <= 2 * float(ulp), (diff.max(), ulp)
    if steps:
        assert a[0] == b[0] and (steps == 1 or a[-1] == b[-1])  # both ends exact


@settings(max_examples=examples(150), deadline=None)
@given(st.floats(-3, 3), st.floats(-3, 3), st.integers(0, 40), st.sampled_from([2.0, 10.0, 3.5]),
       st.sampled_from(["float32", "float64", "int64"]))
def test_logspace_close_to_pytorch(start, end, steps, base, dtype):
    def run(L):
        return L.logspace(start, end, steps, base=base, dtype=getattr(L, dtype))
    mine, theirs = same(run, values=False)
    if isinstance(theirs, BaseException):
        return
    a, b = mine.numpy().astype(np.float64), theirs.numpy().astype(np.float64)
    tol = 1e-5 if dtype == "float32" else 1e-12
    assert np.allclose(a, b, rtol=tol, atol=1 if dtype == "int64" else 0)


EYE = [
    lambda L: L.eye(3), lambda L: L.eye(2, 3), lambda L: L.eye(3, 2, dtype=L.int32),
    lambda L: L.eye(-1), lambda L: L.eye(3, -1), lambda L: L.eye(0), lambda L: L.eye(2.5),
    lambda L: L.eye(3, dtype=L.bool), lambda L: L.eye(2, dtype=L.complex64),
    lambda L: L.empty_strided((2, 3), (1, 2)).stride(),
    lambda L: L.empty_strided((2, 3), (1, 2)).untyped_storage().nbytes(),
    lambda L: L.empty_strided((2, 3), (0, 1)).untyped_storage().nbytes(),
    lambda L: L.empty_strided((2, 0), (1, 2)).untyped_storage().nbytes(),
    lambda L: L.empty_strided((2, 3), (-1, 2)), lambda L: L.empty_strided((2, 3), (1,)),
    lambda L: L.empty_strided((2, 3), (3, 1), dtype=L.int8).dtype,
]


@pytest.mark.parametrize("fn", EYE, ids=[f"eye{i}" for i in range(len(EYE))])
def test_eye_and_empty_strided_match_pytorch(fn):
    same(fn)


def test_out_arguments():
    out = tv.empty(3, dtype=tv.int64)
    r = tv.arange(3, out=out)
    assert r is out and out.tolist() == [0, 1, 2]
    out = tv.empty(0)
    tv.zeros(2, 2, out=out)
    assert out.shape == (2, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tv.linspace(0, 1, 4, out=tv.empty(4))


# ---------------------------------------------------------------- frombuffer
def _buf(n=16):
    return bytearray(range(n))


FROMBUFFER = [
    lambda L: L.frombuffer(_buf(), dtype=L.int32),
    lambda L: L.frombuffer(_buf(), dtype=L.uint8),
    lambda L: L.frombuffer(_buf(), dtype=L.float64),
    lambda L: L.frombuffer(_buf(), dtype=L.complex64),
    lambda L: L.frombuffer(_buf(), dtype=L.bool),
    lambda L: L.frombuffer(_buf(), dtype=L.float16, count=3),
    lambda L: L.frombuffer(_buf(), dtype=L.int16, offset=2, count=3),
    lambda L: L.frombuffer(_buf(), dtype=L.int16, offset=3),
    lambda L: L.frombuffer(_buf(), dtype=L.int32, offset=1),
    lambda L: L.frombuffer(_buf(), dtype=L.int32, offset=4),
    lambda L: L.frombuffer(_buf(), dtype=L.int32, count=5),
    lambda L: L.frombuffer(_buf(), dtype=L.int32, count=3, offset=5),
    lambda L: L.frombuffer(_buf(), dtype=L.int32, count=3, offset=4),
    lambda L: L.frombuffer(_buf(), dtype=L.int32, offset=-1),
    lambda L: L.frombuffer(_buf(), dtype=L.int32, offset=16),
    lambda L: L.frombuffer(_buf(), dtype=L.int32, offset=17),
    lambda L: L.frombuffer(bytearray(), dtype=L.int32),
    lambda L: L.frombuffer(_buf(), dtype=L.int32, count=0),
    lambda L: L.frombuffer(_buf(), dtype=L.int32, count=-2),
    lambda L: L.frombuffer(_buf()),
    lambda L: L.frombuffer([1, 2], dtype=L.int32),
    lambda L: L.frombuffer(_buf(), dtype="float32"),
    lambda L: L.frombuffer(_buf(), dtype=float),
    lambda L: L.frombuffer(_buf(), dtype=L.int32, offset=1.0),
    lambda L: L.frombuffer(_buf(), dtype=L.int32, count=1.0),
    lambda L: L.frombuffer(b"abcd", dtype=L.uint8),
    lambda L: L.frombuffer(np.arange(4.0), dtype=L.float64),
    lambda L: L.frombuffer(np.arange(4.0), dtype=L.float32),
    lambda L: L.frombuffer(np.arange(6.0).reshape(2, 3).T, dtype=L.float64),
    lambda L: L.frombuffer(memoryview(_buf())[::2], dtype=L.uint8),
    lambda L: L.frombuffer(memoryview(_buf())[4:], dtype=L.uint8),
    lambda L: L.frombuffer(_buf(8), dtype=L.float32, requires_grad=True).requires_grad,
    lambda L: L.frombuffer(_buf(8), dtype=L.int32, requires_grad=True),
    lambda L: L.frombuffer(_buf(), dtype=L.uint8, offset=4).untyped_storage().nbytes(),
    lambda L: L.frombuffer(_buf(), dtype=L.int16, count=2).untyped_storage().nbytes(),
]


@pytest.mark.parametrize("k", range(len(FROMBUFFER)))
def test_frombuffer_matches_pytorch(k):
    same(FROMBUFFER[k])


def test_frombuffer_shares_memory_with_the_buffer():
    import array
    for L in (tv, torch):
        b = bytearray(8)
        t = L.frombuffer(b, dtype=L.int16, offset=2)
        t[0] = 258
        b[7] = 1
        assert b[2:4] == bytes([2, 1]) and t.tolist() == [258, 0, 256]
        t.add_(1)
        assert b[2] == 3
        a = array.array("f", [1.0, 2.0])
        u = L.frombuffer(a, dtype=L.float32)
        u.mul_(2)
        assert list(a) == [2.0, 4.0]
    v = tv.frombuffer(bytearray(4), dtype=tv.uint8)
    ver = v._version
    v.fill_(7)
    assert v._version > ver  # (widgets see writes through the tensor)


def test_frombuffer_warns_once_on_a_read_only_buffer():
    from tensorviz import _creation
    _creation._WARNED_NOT_WRITABLE = False
    with pytest.warns(UserWarning, match="The given buffer is not writable"):
        t = tv.frombuffer(b"\x01\x02", dtype=tv.uint8)
    assert t.tolist() == [1, 2]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tv.frombuffer(b"\x01\x02", dtype=tv.uint8)  # once per process, as in PyTorch
        tv.frombuffer(bytearray(2), dtype=tv.uint8)
    with pytest.raises(ValueError):  # (read-only here: writes never change the bytes)
        t[0] = 5


# ---------------------------------------------------------------- complex / polar
def _pair(L, da, db, sa=(2,), sb=(2,)):
    a = L.tensor(np.array([1.5, -2.0, 0.0, float("inf"), float("nan"), 3.0][:int(np.prod(sa))])
                 .reshape(sa), dtype=getattr(L, da))
    b = L.tensor(np.array([0.5, 4.0, float("-inf"), 0.0, 1.0, -0.0][:int(np.prod(sb))])
                 .reshape(sb), dtype=getattr(L, db))
    return a, b


COMPLEX_CASES = [
    lambda f, L: f(*_pair(L, "float32", "float32", (6,), (6,))),
    lambda f, L: f(*_pair(L, "float64", "float64", (6,), (6,))),
    lambda f, L: f(*_pair(L, "float32", "float64")),
    lambda f, L: f(*_pair(L, "float64", "float32")),
    lambda f, L: f(*_pair(L, "int64", "int64")),
    lambda f, L: f(*_pair(L, "int64", "float32")),
    lambda f, L: f(*_pair(L, "float32", "int32")),
    lambda f, L: f(*_pair(L, "bool", "bool")),
    lambda f, L: f(*_pair(L, "complex64", "complex64")),
    lambda f, L: f(_pair(L, "float32", "float32")[0], 1.0),
    lambda f, L: f([1.0], _pair(L, "float32", "float32")[0]),
    lambda f, L: f(*_pair(L, "float32", "float32", (2, 1), (3,))),
    lambda f, L: f(*_pair(L, "float32", "float32", (2,), (3,))),
    lambda f, L: f(*_pair(L, "float64", "float64", (), (3,))),
    lambda f, L: f(*_pair(L, "float32", "float32", (0,), (1,))),
    lambda f, L: f(L.ones(2, 3).t(), L.ones(3, 2)),
    lambda f, L: f(L.ones(2, 3).t(), L.ones(3, 2).t()),
    lambda f, L: f(*_pair(L, "float32", "float32"), out=L.empty(2, dtype=L.complex64)),
    lambda f, L: f(*_pair(L, "float32", "float32"), out=L.empty(0, dtype=L.complex64)),
    lambda f, L: f(*_pair(L, "float32", "float32"), out=L.empty(2, dtype=L.complex128)),
    lambda f, L: f(*_pair(L, "float32", "float32"), out=L.empty(2)),
    lambda f, L: f(*_pair(L, "float64", "float64"), out=L.empty(2, dtype=L.complex64)),
    lambda f, L: f(*_pair(L, "float32", "float32"), out=[1]),
]


@pytest.mark.parametrize("op", ["complex", "polar"])
@pytest.mark.parametrize("k", range(len(COMPLEX_CASES)))
def test_complex_and_polar_match_pytorch(op, k):
    # complex: bitwise; polar: layout exactly, values to 1 ulp (sin/cos differ in the last bit)
    mine, theirs = same(lambda L: COMPLEX_CASES[k](getattr(L, op), L), values=op == "complex")
    if op == "polar" and isinstance(mine, tv.Tensor):
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-6, atol=1e-7)


def test_complex_and_polar_take_keywords_and_polar_refuses_half():
    same(lambda L: L.complex(real=L.ones(2), imag=L.zeros(2)))
    same(lambda L: L.polar(abs=L.ones(2), angle=L.zeros(2)))
    same(lambda L: L.polar(L.ones(2, dtype=L.float16), L.ones(2, dtype=L.float16)))
    out = tv.empty(2, dtype=tv.complex64)
    assert tv.complex(tv.ones(2), tv.ones(2), out=out) is out
    assert tv.complex.__name__ == "complex" and complex(1, 2) == 1 + 2j
    same(lambda L: L.complex(L.tensor([1.5, -2], dtype=L.float16),  # (complex32)
                             L.tensor([0.1, 3], dtype=L.float16)))


def test_polar_values_are_close_to_pytorch():
    rng = np.random.default_rng(0)
    r, th = rng.random(50) * 3, rng.standard_normal(50) * 4
    for name in ("float32", "float64"):
        mine = tv.polar(tv.tensor(r, dtype=getattr(tv, name)), tv.tensor(th, dtype=getattr(tv, name)))
        theirs = torch.polar(torch.tensor(r, dtype=getattr(torch, name)),
                             torch.tensor(th, dtype=getattr(torch, name)))
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("args", [(-3, 3.1, 0.1), (0, 1, 0.1), (1.5, -45.3, -0.3),
                                  (10.55, 5.45, -0.1), (0.1, 20.3, 1 / 3), (-2.7, 50, 0.7),
                                  (0, 2.5, 0.01), (100.25, 90, -0.05)])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_arange_float_steps_bit_for_bit_like_pytorch(args, dtype):
    """PyTorch's CPU kernel computes arange in SIMD blocks (``base + j * step``, fused), so
    e.g. arange(-3, 3.1, 0.1)[30] is -2.3842e-08, not 0: the same bits here."""
    ours = tv.arange(*args, dtype=getattr(tv, dtype))
    theirs = torch.arange(*args, dtype=getattr(torch, dtype))
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    if dtype == "float32" and args == (-3, 3.1, 0.1):
        assert str(ours).replace("tensorviz", "torch") == str(theirs)


def test_linspace_logspace_refuse_dimensioned_ends_and_huge_lengths():
    """PyTorch's RuntimeErrors: start/end tensors must be 0-dim (the message names which);
    a length no memory can hold is the allocator's error, never NumPy's MemoryError."""
    torch = pytest.importorskip("torch")
    for name in ("linspace", "logspace"):
        for make in (lambda T: (T.tensor([1.]), 2.), lambda T: (1., T.tensor([[2.]])),
                     lambda T: (T.tensor(1.), T.tensor([2., 3.]))):
            msgs = []
            for T in (tv, torch):
                with pytest.raises(RuntimeError) as e:
                    getattr(T, name)(*make(T), 3)
                msgs.append(str(e.value))
            assert msgs[0] == msgs[1]
        with pytest.raises(RuntimeError, match="can't allocate memory"):
            getattr(tv, name)(0, 1, 2**41)


@pytest.mark.parametrize("call", [
    "T.range(0.5, 0.5, step=float('inf'), dtype=T.uint8)",
    "T.range(0, 5, float('inf'), dtype=T.int64)",
    "T.range(0, float('inf'), dtype=T.int64)",
    "T.range(float('nan'), 3, dtype=T.int16)",
    "T.range(0, 3, float('-inf'), dtype=T.int8)",
    "T.arange(0.5, 0.5, step=float('inf'), dtype=T.uint8)",
    "T.arange(0, 3, float('nan'), dtype=T.int64)",
    "T.arange(0, float('inf'), dtype=T.int64)",
    "T.range(0.5, 0.5, step=float('inf'))",
])
def test_integer_ranges_with_non_finite_numbers_raise_as_pytorch(call):
    """An integer range converts its numbers to int64 first: an infinite or NaN one is
    PyTorch's RuntimeError, never Python's OverflowError or an empty result."""
    def run(T):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (range's deprecation warning)
            try:
                r = eval(call)
            except Exception as e:
                return type(e).__name__, str(e)
        return r.dtype.__repr__().split(".")[-1], r.shape, np.isnan(r.float().numpy()).tolist()
    assert run(tv) == run(torch)


@pytest.mark.parametrize("steps", [10 ** 30, 2 ** 63, 2 ** 64, -2 ** 63 - 1, 2 ** 63 - 1])
@pytest.mark.parametrize("name", ["linspace", "logspace"])
def test_spacing_steps_past_int64(name, steps):
    """steps is PyTorch's int64 argument: past its range a ValueError, as PyTorch's parser."""
    same(lambda T: getattr(T, name)(255, 10 ** 30, steps=steps))


@pytest.mark.parametrize("value", [-0.0, 0.0, 0, False, complex(-0.0, 0.0), complex(0.0, -0.0),
                                   complex(-0.0, -0.0), -1.5, 2])
@pytest.mark.parametrize("dtype", [None, "float16", "float32", "float64", "complex64"])
def test_full_keeps_the_sign_of_a_zero_as_pytorch(value, dtype):
    """``full``/``full_like``/``new_full`` store the value as given: a -0.0 stays -0.0 (a fill
    that took zeros() for any value == 0 lost the sign)."""
    torch = pytest.importorskip("torch")
    if dtype is not None and dtype.startswith("float") and isinstance(value, complex):
        return  # (a complex value into a real dtype: refused by both, tested elsewhere)
    outs = []
    for L in (torch, tv):
        dt = None if dtype is None else getattr(L, dtype)
        made = [L.full((3,), value, dtype=dt), L.full_like(L.ones(2), value, dtype=dt),
                L.ones(2).new_full((2,), value, dtype=dt)]
        outs.append([(str(m.dtype).split(".")[-1],
                      m.resolve_conj().numpy().tobytes() if m.dtype != L.bfloat16 else b"")
                     for m in made])
    assert outs[1] == outs[0]


# ---------------------------------------------------------------- fill values at the edges
FILL_VALUES = [2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1, 2 ** 64, -2 ** 63, -2 ** 63 - 1, -2 ** 64,
               1e300, -1e300, 70000, 65520.0, float("inf"), float("nan"), 300, -129, True,
               3 + 0j, complex(1e300, 1.0), complex(1.0, -1e300)]
FILL_DTYPES = ["float16", "bfloat16", "float32", "float64", "complex64", "int64", "int8",
               "uint8", "bool"]
FILLERS = [
    lambda L, dt, v: L.zeros(1, dtype=dt).fill_(v), lambda L, dt, v: L.zeros(3, dtype=dt).fill_(v),
    lambda L, dt, v: L.zeros(3, dtype=dt)[-1:4].fill_(v),
    lambda L, dt, v: L.full_like(L.zeros((), dtype=dt), v), lambda L, dt, v: L.full((2,), v, dtype=dt),
    lambda L, dt, v: L.zeros(3, 1, dtype=dt).fill_diagonal_(v),
]


@pytest.mark.parametrize("value", FILL_VALUES, ids=repr)
@pytest.mark.parametrize("dtype", FILL_DTYPES)
def test_fill_value_conversion_matches_pytorch_quietly(value, dtype):
    """fill_/full/full_like/fill_diagonal_ store a Python number as PyTorch does (inf where a
    one-element half fill overflows) or raise its error (type and words); NumPy's cast
    warnings never reach the user (pytest makes them errors)."""
    def run(lib, fill):
        try:
            return repr(fill(lib, getattr(lib, dtype), value).tolist())  # (nan equals nan)
        except (RuntimeError, OverflowError, TypeError) as e:
            return type(e).__name__, str(e)
    for fill in FILLERS:
        assert run(tv, fill) == run(torch, fill)


@pytest.mark.parametrize("args", ["(t0,)", "(2, t0)", "(t1,)", "(2, t1)", "(0, 5, t1)",
                                  "(0, 6, t0 // 5)"])
def test_arange_takes_only_0dim_tensors_as_numbers(args):
    """A Number argument takes a 0-dim tensor; a 1-element 1-D tensor is a TypeError in
    PyTorch (tensorviz took its item, then tried to build arange(2, 2**31) of it)."""
    outs = []
    for L in (torch, tv):
        t0, t1 = L.tensor(5), L.tensor([5])
        try:
            outs.append(tuple(L.arange(*eval(args)).shape))
        except TypeError:
            outs.append("TypeError")
    assert outs[1] == outs[0]


def test_combinations_of_a_huge_r_is_refused_as_pytorch():
    for L in (torch, tv):
        for n in (1, 2):
            with pytest.raises(RuntimeError):
                L.combinations(L.arange(n), r=2**40)
