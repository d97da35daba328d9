"""dtypes and type promotion, against PyTorch over every pair of the 11 dtypes.

``promote_types``, ``can_cast`` and ``result_type`` (tensor / 0-dim tensor / Python scalar
operands, both orders, default dtype float32 and float64) equal PyTorch's; so do the result
dtype, values, strides and error types of the arithmetic, comparison and bitwise operators.
"""
from __future__ import annotations

import itertools
import operator
import warnings

import numpy as np
import pytest

import tensorviz
from tv_core_conftest import DTYPE_NAMES, host, same

torch = pytest.importorskip("torch")
tv = tensorviz

SCALARS = [True, False, 2, -3, 0, 2.5, -0.5, 1 + 2j]
KINDS = ["tensor", "0-dim"]


def _name(d) -> str:
    return str(d).split(".")[-1]


#: The dtypes swept here: the shared list and complex32 (PyTorch's ComplexHalf).
ALL_NAMES = DTYPE_NAMES + ["complex32"]


def _expected(torch_dtype) -> str:
    return _name(torch_dtype)


# ---------------------------------------------------------------- dtype objects
@pytest.mark.parametrize("name", ALL_NAMES)
def test_dtype_attributes_match_pytorch(name):
    d, p = getattr(tv, name), getattr(torch, name)
    assert d.itemsize == p.itemsize
    assert d.is_floating_point == p.is_floating_point
    assert d.is_complex == p.is_complex
    assert d.is_signed == p.is_signed
    assert repr(d) == repr(p).replace("torch.", "tensorviz.")
    assert tv.empty(0, dtype=d).element_size() == torch.empty(0, dtype=p).element_size()
    assert d is getattr(tv, name)  # compared by identity; pickles to the same object
    import pickle
    assert pickle.loads(pickle.dumps(d)) is d


def test_dtype_aliases():
    assert tv.half is tv.float16 and tv.float is tv.float32 and tv.double is tv.float64
    assert tv.short is tv.int16 and tv.int is tv.int32 and tv.long is tv.int64
    assert tv.cfloat is tv.complex64 and tv.cdouble is tv.complex128
    assert tv.chalf is tv.complex32
    for d in ("float16", "bfloat16", "float32", "float64", "complex32", "complex64"):
        assert getattr(tv, d).to_complex().name == _name(getattr(torch, d).to_complex())
        assert getattr(tv, d).to_real().name == _name(getattr(torch, d).to_real())


@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
def test_finfo_matches_pytorch(name):
    f, g = tv.finfo(getattr(tv, name)), torch.finfo(getattr(torch, name))
    for attr in ("bits", "eps", "max", "min", "tiny", "resolution", "smallest_normal"):
        assert getattr(f, attr) == getattr(g, attr), attr
    assert f.dtype == g.dtype


@pytest.mark.parametrize("name", ["uint8", "int8", "int16", "int32", "int64"])
def test_iinfo_matches_pytorch(name):
    f, g = tv.iinfo(getattr(tv, name)), torch.iinfo(getattr(torch, name))
    assert (f.bits, f.min, f.max, f.dtype) == (g.bits, g.min, g.max, g.dtype)


def test_finfo_iinfo_refuse_the_wrong_kind():
    with pytest.raises(TypeError):
        tv.finfo(tv.int32)
    with pytest.raises(TypeError):
        tv.iinfo(tv.float32)
    assert tv.finfo().dtype == "float32"


def _exc_type(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - the type is what is compared
            return type(e)
    return None


@pytest.mark.parametrize("call", [
    lambda lib: lib.iinfo(lib.bool), lambda lib: lib.iinfo(1), lambda lib: lib.finfo(1),
    lambda lib: lib.can_cast(1, lib.float32), lambda lib: lib.can_cast(lib.float32, None),
    lambda lib: lib.int8.to_complex(), lambda lib: lib.bool.to_complex(),
    lambda lib: hash(lib.finfo()), lambda lib: hash(lib.iinfo(lib.int8)),
], ids=["iinfo-bool", "iinfo-int", "finfo-int", "can_cast-from", "can_cast-to",
        "to_complex-int8", "to_complex-bool", "hash-finfo", "hash-iinfo"])
def test_dtype_helpers_raise_like_pytorch(call):
    expected = _exc_type(lambda: call(torch))
    assert expected is not None and _exc_type(lambda: call(tv)) is expected


def test_finfo_iinfo_compare_by_dtype_like_pytorch():
    for lib in (tv, torch):
        assert lib.finfo(lib.float32) == lib.finfo(lib.float)
        assert lib.finfo(lib.float32) != lib.finfo(lib.float64)
        assert lib.finfo(lib.complex64) == lib.finfo(lib.float32)
        assert lib.iinfo(lib.int8) == lib.iinfo(lib.int8) != lib.iinfo(lib.uint8)


@pytest.mark.parametrize("py", [float, int, bool, complex])
def test_python_types_stand_for_dtypes_like_pytorch(py):
    for make in (lambda lib: lib.zeros(2, dtype=py), lambda lib: lib.tensor([1, 0], dtype=py),
                 lambda lib: lib.ones(2).to(py),
                 lambda lib: lib.ones(2).to(dtype=py), lambda lib: lib.ones(2).to("cpu", py),
                 lambda lib: lib.full((2,), 1, dtype=py),
                 lambda lib: lib.zeros_like(lib.ones(2), dtype=py)):
        assert _name(make(tv).dtype) == _name(make(torch).dtype)
    with pytest.raises(TypeError):
        tv.ones(2).to(tv.float32, tv.int64)  # two dtypes: PyTorch refuses too


# Note: float32/float64 tensors with a Python int past 64 bits give a value here where PyTorch
# raises OverflowError (their scalar conversion is on every op's fast path, so unchecked).
@pytest.mark.parametrize("name,value", [("float16", v) for v in (
    1e10, -1e39, 10 ** 39, -(10 ** 39), float("nan"), 2 ** 64, 70000)] + [
    ("float64", v) for v in (1e300, -1e300, float("inf"))])
@pytest.mark.parametrize("op", [operator.add, operator.sub, operator.mul, operator.lt,
                                operator.eq])
def test_out_of_range_scalars_overflow_to_inf_quietly(name, value, op):
    """An out-of-range Python number in an op on a narrow float tensor gives inf, or PyTorch's
    error, and no NumPy RuntimeWarning (pytest turns warnings into errors)."""
    same(lambda lib: op(lib.ones(2, dtype=getattr(lib, name)), value))
    same(lambda lib: op(value, lib.ones(2, dtype=getattr(lib, name))))
    same(lambda lib: lib.ones(2, dtype=getattr(lib, name)).add_(value))


# ---------------------------------------------------------------- the promotion table
@pytest.mark.parametrize("a", ALL_NAMES)
def test_promote_types_and_can_cast_over_all_pairs(a):
    for b in ALL_NAMES:
        got = tv.promote_types(getattr(tv, a), getattr(tv, b))
        assert got.name == _name(torch.promote_types(getattr(torch, a), getattr(torch, b))), b
        assert tv.can_cast(getattr(tv, a), getattr(tv, b)) == \
            torch.can_cast(getattr(torch, a), getattr(torch, b)), b


def test_promote_types_refuses_non_dtypes():
    with pytest.raises(TypeError):
        tv.promote_types(tv.int32, "float32")


def _operand(lib, spec, kind: str):
    if kind == "scalar":
        return spec
    data = [3, 0, 5, 1] if spec != "bool" else [True, False, True, True]
    t = lib.tensor(data, dtype=getattr(lib, spec))
    return t if kind == "tensor" else t[0]


OPERANDS = [(d, k) for d in ALL_NAMES for k in KINDS] + [(s, "scalar") for s in SCALARS]


@pytest.mark.parametrize("default", ["float32", "float64"])
@pytest.mark.parametrize("a", ALL_NAMES)
def test_result_type_matches_pytorch(a, default, request):
    if default == "float64":
        request.getfixturevalue("default_float64")
    for ka in KINDS:
        for b, kb in OPERANDS:
            for (s1, k1), (s2, k2) in (((a, ka), (b, kb)), ((b, kb), (a, ka))):
                got = tv.result_type(_operand(tv, s1, k1), _operand(tv, s2, k2))
                want = torch.result_type(_operand(torch, s1, k1), _operand(torch, s2, k2))
                assert got.name == _expected(want), (s1, k1, s2, k2)


@pytest.mark.parametrize("default", ["float32", "float64"])
def test_result_type_of_two_scalars(default, request):
    if default == "float64":
        request.getfixturevalue("default_float64")
    for x, y in itertools.product(SCALARS, SCALARS):
        assert tv.result_type(x, y).name == _name(torch.result_type(x, y))


def test_default_dtype_changes_inference_and_promotion(default_float64):
    assert tv.get_default_dtype() is tv.float64
    assert tv.tensor([1.5]).dtype is tv.float64
    assert tv.tensor([1j]).dtype is tv.complex128
    assert (tv.tensor([1, 2]) / 2).dtype is tv.float64
    assert (tv.tensor([1, 2]) * 1.5).dtype is tv.float64
    assert tv.zeros(2).dtype is tv.float64 and tv.arange(0.5, 2).dtype is tv.float64
    assert (tv.ones(2, dtype=tv.float32) * 2.5).dtype is tv.float32  # same category: kept


def test_default_dtype_is_reset_after_the_fixture():
    assert tv.get_default_dtype() is tv.float32
    assert torch.get_default_dtype() is torch.float32


def test_set_default_dtype_refuses_non_floats():
    with pytest.raises(TypeError):
        tv.set_default_dtype(tv.int64)
    assert tv.get_default_dtype() is tv.float32


# ---------------------------------------------------------------- promotion through the ops
BINARY_OPS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow,
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
    "&": operator.and_, "|": operator.or_, "^": operator.xor,
    "<<": operator.lshift, ">>": operator.rshift,
}


def _run(f, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's one-time warnings are not the point here
        try:
            return f(*args)
        except Exception as e:  # noqa: BLE001 - the exception type is compared
            return e


def assert_same_outcome(mine, theirs, where=None):
    """Same exception type, or same dtype, shape, strides and values (floats within a
    dtype-sized tolerance, NaNs equal)."""
    if isinstance(theirs, Exception) or isinstance(mine, Exception):
        assert type(mine) is type(theirs), (where, mine, theirs)
        if "ComplexHalf" in str(theirs):  # (complex32's refusals: PyTorch's words exactly)
            assert str(mine) == str(theirs), (where, mine, theirs)
        return
    if _name(theirs.dtype) == "complex32":  # (compared as complex64: NumPy has no complex32)
        assert mine.dtype is tv.complex32, (where, mine.dtype)
        mine, theirs = mine.to(tv.complex64), theirs.to(torch.complex64)
    assert mine.dtype.name == _name(theirs.dtype), (where, mine.dtype, theirs.dtype)
    assert tuple(mine.shape) == tuple(theirs.shape), where
    assert mine.stride() == theirs.stride(), (where, mine.stride(), theirs.stride())
    a, b = host(mine), host(theirs)
    if a.dtype.kind in "fc":
        tol = 2e-3 if a.dtype in (np.float16, np.complex64) and mine.dtype is not \
            tv.complex128 else 1e-6
        assert np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True), (where, a, b)
    else:
        assert np.array_equal(a, b), (where, a, b)


@pytest.mark.parametrize("a", ALL_NAMES)
@pytest.mark.parametrize("op", list(BINARY_OPS))
def test_binary_operators_match_pytorch(op, a):
    """Result dtype, values and errors of ``x <op> y`` over every dtype / kind pairing."""
    f = BINARY_OPS[op]
    for ka in KINDS:
        for b, kb in OPERANDS:
            x, y = _operand(tv, a, ka), _operand(tv, b, kb)
            px, py = _operand(torch, a, ka), _operand(torch, b, kb)
            assert_same_outcome(_run(f, x, y), _run(f, px, py), (a, ka, op, b, kb))
            assert_same_outcome(_run(f, y, x), _run(f, py, px), (b, kb, op, a, ka))


UNARY_OPS = {"-": operator.neg, "+": operator.pos, "abs": operator.abs, "~": operator.invert}


@pytest.mark.parametrize("op", list(UNARY_OPS))
def test_unary_operators_match_pytorch(op):
    f = UNARY_OPS[op]
    for a in DTYPE_NAMES:
        for ka in KINDS:
            assert_same_outcome(_run(f, _operand(tv, a, ka)), _run(f, _operand(torch, a, ka)),
                                (op, a, ka))


@pytest.mark.parametrize("default", ["float32", "float64"])
def test_division_of_integers_gives_the_default_float(default, request):
    if default == "float64":
        request.getfixturevalue("default_float64")
    for a in ["bool", "uint8", "int8", "int16", "int32", "int64"]:
        x, px = _operand(tv, a, "tensor"), _operand(torch, a, "tensor")
        for y in (2, 0, True, 1.5):
            assert_same_outcome(_run(operator.truediv, x, y), _run(operator.truediv, px, y))


INPLACE_OPS = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
    "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow,
    "&=": operator.iand, "|=": operator.ior, "^=": operator.ixor,
    "<<=": operator.ilshift, ">>=": operator.irshift,
}


@pytest.mark.parametrize("op", list(INPLACE_OPS))
def test_inplace_operators_cast_or_refuse_like_pytorch(op):
    """``x op= y`` keeps x's dtype, storage and strides, or raises PyTorch's exception."""
    f = INPLACE_OPS[op]
    for a, b_kind in itertools.product(DTYPE_NAMES, OPERANDS):
        b, kb = b_kind
        x, px = _operand(tv, a, "tensor"), _operand(torch, a, "tensor")
        y, py = _operand(tv, b, kb), _operand(torch, b, kb)
        storage = x.untyped_storage()
        mine, theirs = _run(f, x, y), _run(f, px, py)
        assert_same_outcome(mine, theirs, (a, op, b, kb))
        assert x._version == px._version, (a, op, b, kb)
        if not isinstance(theirs, Exception):
            assert mine is x and x.untyped_storage() is storage
            assert same_data(x, px), (a, op, b, kb)
        else:  # Note: PyTorch may have written part of x before failing; we write nothing
            assert same_data(x, _operand(torch, a, "tensor"))


def same_data(x, px) -> bool:
    a, b = host(x), host(px)
    return np.allclose(a, b, rtol=2e-3, atol=2e-3, equal_nan=True) if a.dtype.kind in "fc" \
        else np.array_equal(a, b)


@pytest.mark.parametrize("dtype", ["uint8", "int16", "int64", "float32", "complex64"])
def test_mixed_operand_strides_follow_pytorch(dtype):
    """The result's layout follows the inputs (TensorIterator's rule), not NumPy's."""
    a = np.arange(48).astype(dtype).reshape(2, 3, 8)
    x, px = tv.from_numpy(a.copy()), torch.from_numpy(a.copy())
    views3 = [lambda t: t[..., :4], lambda t: t[..., ::2],
              lambda t: t[..., :4].permute(2, 0, 1).contiguous().permute(1, 2, 0),
              lambda t: t[..., :4].transpose(0, 1).contiguous().transpose(0, 1),
              lambda t: t[:, :1, :4], lambda t: t[:1, :, :4].expand(2, 3, 4)]
    views2 = [lambda t: t[..., :4], lambda t: t[..., :4].t().contiguous().t(),
              lambda t: t[:1, :4], lambda t: t[:, :1], lambda t: t[:1, ::2].expand(3, 4)]
    for v, w in itertools.product(views3, views2):
        for f in (operator.add, operator.mul, operator.eq):
            assert_same_outcome(_run(f, v(x), w(x[0])), _run(f, v(px), w(px[0])))
            assert_same_outcome(_run(f, w(x[0]), v(x)), _run(f, w(px[0]), v(px)))
    for v, y, py in [(v, x, px) for v in views3] + [(v, x[0], px[0]) for v in views2]:
        for f in (operator.neg, lambda t: t * 2, lambda t: t ** 1, lambda t: t.clamp(1, 5)):
            assert_same_outcome(_run(f, v(y)), _run(f, v(py)))
