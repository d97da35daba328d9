"""Pointwise ops against PyTorch: every dtype, non-contiguous layouts, special values,
in-place forms, ``out=``, and the complex-part views."""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz

torch = pytest.importorskip("torch")

LAYOUTS = ("contig", "t", "step", "offset", "expand")  # see conftest.py
ALL_DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
              "float64", "complex64", "complex128")
INT_DTYPES = ("uint8", "int8", "int16", "int32", "int64")
FLOAT_DTYPES = ("float16", "float32", "float64")

UNARY = ["sign", "sgn", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt",
         "square", "sin", "cos", "tan", "asin", "arcsin", "acos", "arccos", "atan", "arctan",
         "sinh", "cosh", "tanh", "asinh", "arcsinh", "acosh", "arccosh", "atanh", "arctanh",
         "sigmoid", "relu", "erf", "erfc", "floor", "ceil", "round", "trunc", "frac", "fix",
         "reciprocal", "nan_to_num", "isnan", "isinf", "isposinf", "isneginf", "isfinite",
         "isreal", "signbit", "angle", "conj_physical", "logical_not", "deg2rad", "rad2deg",
         "logit", "abs", "neg"]

# complex ops that PyTorch computes with its own branch cuts/approximations: compared with a
# looser tolerance near singular points
LOOSE = {"tan": 1e-3, "tanh": 1e-4, "sigmoid": 1e-4, "rsqrt": 1e-4, "reciprocal": 1e-4,
         "atanh": 1e-4, "arctanh": 1e-4, "acosh": 1e-4, "arccosh": 1e-4, "logit": 1e-4}

SHAPES = [(), (5,), (3, 4), (2, 3, 4)]


def _shape(i):
    return SHAPES[i % len(SHAPES)]


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_unary(tvdiff, name, dtype):
    for i, layout in enumerate(LAYOUTS):
        shape = _shape(i + len(name))
        # (complex infinities and NaNs follow each library's own C99 rules: reals only)
        special = i % 2 == 0 and "complex" not in dtype
        x = tvdiff.make(shape, dtype, layout, seed=i, special=special)
        rtol = LOOSE.get(name) if dtype in ("float16", "complex64", "complex128") else None
        if dtype == "float16":
            rtol = 4e-3
        # (PyTorch's conj_physical of a real tensor is the input itself)
        fresh = not (name == "conj_physical" and "complex" not in dtype)
        r = tvdiff.check(lambda lib, t: getattr(lib, name)(t), x, rtol=rtol, atol=rtol,
                         fresh=fresh)
        if not fresh:
            assert r is x.tv
        if hasattr(torch.Tensor, name):
            tvdiff.check(lambda lib, t: getattr(t, name)(), x, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("name", [n for n in UNARY if hasattr(torch.Tensor, n + "_")])
@pytest.mark.parametrize("dtype", ["bool", "int32", "float32", "float64", "complex64"])
def test_unary_inplace(tvdiff, name, dtype):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make(_shape(i), dtype, layout, seed=i, special="complex" not in dtype)

        def f(lib, t):
            before = t._version if lib is tensorviz else None
            r = getattr(t, name + "_")()
            assert r is t
            if lib is tensorviz and not (name == "nan_to_num" and dtype in ("bool", "int32")):
                assert t._version > before
            return t
        tvdiff.check(f, x, rtol=LOOSE.get(name), atol=LOOSE.get(name))


@pytest.mark.parametrize("name", ["exp", "sin", "floor", "sqrt", "isnan", "nan_to_num",
                                  "logical_not", "angle", "round", "sign", "frac", "signbit",
                                  "isposinf", "conj_physical", "sigmoid"])
@pytest.mark.parametrize("out_dtype", ["float32", "float64", "float16", "int64", "bool"])
def test_unary_out(tvdiff, name, out_dtype):
    x = tvdiff.make((3, 4), "float32", "t", special=True)
    for out_shape in [(3, 4), (0,)]:
        def f(lib, t):
            out = lib.zeros(out_shape, dtype=getattr(lib, out_dtype))
            r = getattr(lib, name)(t, out=out)
            assert r is out
            return out
        # computed in float32 (one ulp apart from PyTorch's) whatever the out dtype
        tvdiff.check(f, x, rtol=1e-6)


def test_unary_out_resize_warns(tvdiff):
    x = tvdiff.make((3, 4), "float32", "step")
    tvdiff.check(lambda lib, t: lib.exp(t, out=lib.zeros(2)), x)


BINARY = ["atan2", "arctan2", "hypot", "logaddexp", "logaddexp2", "copysign", "fmod",
          "float_power", "xlogy", "logical_and", "logical_or", "logical_xor", "remainder",
          "pow", "maximum", "minimum", "fmax", "fmin"]
PAIRS = [("float32", "float32"), ("float64", "float32"), ("int32", "int64"), ("uint8", "int8"),
         ("bool", "bool"), ("int64", "float16"), ("float16", "float16"), ("complex64", "float32"),
         ("complex128", "complex64"), ("bool", "float64"), ("int16", "bool")]


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("pair", PAIRS)
def test_binary(tvdiff, name, pair):
    for i, layout in enumerate(LAYOUTS):
        shape = _shape(i + 1)
        # (complex powers of infinities differ by implementation: not compared)
        special = not ("complex" in pair[0] + pair[1] and "pow" in name)
        a = tvdiff.make(shape, pair[0], layout, seed=i, special=special)
        b = tvdiff.make(shape, pair[1], LAYOUTS[(i + 2) % 5], seed=i + 7, special=special,
                        low=1 if name in ("fmod", "remainder") else None)
        loose = 1e-4 if "complex" in pair[0] + pair[1] else None
        tvdiff.check(lambda lib, x, y: getattr(lib, name)(x, y), a, b, rtol=loose, atol=loose)
        if hasattr(torch.Tensor, name):
            tvdiff.check(lambda lib, x, y: getattr(x, name)(y), a, b, rtol=loose, atol=loose)
    # broadcasting a row against a column
    a = tvdiff.make((3, 1), pair[0], seed=1)
    b = tvdiff.make((4,), pair[1], "step", seed=2, low=1)
    tvdiff.check(lambda lib, x, y: getattr(lib, name)(x, y), a, b)


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("scalar", [2, 2.5, True, -3])
@pytest.mark.parametrize("dtype", ["int32", "float16", "float32", "bool"])
def test_binary_scalar(tvdiff, name, scalar, dtype):
    a = tvdiff.make((2, 3), dtype, "t", special=True)
    tvdiff.check(lambda lib, x: getattr(lib, name)(x, scalar), a)
    tvdiff.check(lambda lib, x: getattr(lib, name)(scalar, x), a)


@pytest.mark.parametrize("name", [n for n in BINARY if hasattr(torch.Tensor, n + "_")])
@pytest.mark.parametrize("pair", [("float32", "float32"), ("float32", "float64"),
                                  ("int64", "int32"), ("float64", "int64"), ("bool", "bool")])
def test_binary_inplace(tvdiff, name, pair):
    for i, layout in enumerate(("contig", "t", "step", "expand")):
        if layout == "expand" and name in ("pow", "remainder") and pair[0] == "bool":
            continue  # (core ops: which of two errors comes first is the core's to test)
        a = tvdiff.make((3, 4), pair[0], layout, seed=i, special=True)
        b = tvdiff.make((4,), pair[1], seed=i + 3, low=1)

        def f(lib, x, y):
            assert getattr(x, name + "_")(y) is x
            return x
        tvdiff.check(f, a, b)
    # the broadcast shape must be self's
    if name in ("pow", "remainder") and pair[0] == "bool":
        return  # (as above: the core's error order)
    a = tvdiff.make((4,), pair[0])
    b = tvdiff.make((3, 4), pair[1], low=1)
    tvdiff.check(lambda lib, x, y: getattr(x, name + "_")(y), a, b)


@pytest.mark.parametrize("dtypes", [("float32",) * 3, ("float64", "float32", "float32"),
                                    ("int64", "int32", "int64"), ("bool",) * 3,
                                    ("complex64", "float32", "complex64"),
                                    ("float16", "float16", "float16")])
@pytest.mark.parametrize("value", [1, 0.5, 2])
def test_addcmul_addcdiv(tvdiff, dtypes, value):
    for i, layout in enumerate(LAYOUTS):
        a = tvdiff.make((3, 4), dtypes[0], layout, seed=i)
        b = tvdiff.make((3, 4), dtypes[1], LAYOUTS[(i + 1) % 5], seed=i + 1, low=1)
        c = tvdiff.make((4,), dtypes[2], seed=i + 2, low=1)
        for name in ("addcmul", "addcdiv"):
            tvdiff.check(lambda lib, x, y, z: getattr(lib, name)(x, y, z, value=value), a, b, c,
                         rtol=1e-4 if "complex" in dtypes[0] else None)
            tvdiff.check(lambda lib, x, y, z: getattr(x, name + "_")(y, z, value=value), a, b,
                         c)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_addcmul_is_one_fused_multiply_add_bit_for_bit(dtype, seed):
    """PyTorch's addcmul kernel is compiled with contraction: ``(value * t1) * t2 + input``
    rounds once at the end (``addcmul(3, -0.9731, 3)`` is 0.08069998 in float32, not
    0.08069992), the same bits at every size (vectorized loop and tail)."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(seed)
    n = [3, 33, 1000, 7][seed]
    x, y, z = (rng.normal(size=n).astype(dtype) for _ in range(3))
    value = [1, 0.3, -2.0, 1e-3][seed]
    got = []
    for lib in (tensorviz, torch):
        a, b, c = (lib.from_numpy(v.copy()) for v in (x, y, z))
        got.append([lib.addcmul(a, b, c, value=value).numpy().view(f"u{x.itemsize}"),
                    a.clone().addcmul_(b.flip(0), c).numpy().view(f"u{x.itemsize}")])
    for mine, theirs in zip(*got):
        np.testing.assert_array_equal(mine, theirs)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "complex64", "int64"])
@pytest.mark.parametrize("weight", [0.25, 0.75, -1.5, "tensor", "scalar_tensor"])
def test_lerp(tvdiff, dtype, weight):
    for i, layout in enumerate(LAYOUTS):
        a = tvdiff.make((3, 4), dtype, layout, seed=i)
        b = tvdiff.make((3, 4), dtype, "t", seed=i + 1)
        if weight == "tensor":
            w = tvdiff.make((4,), dtype, seed=3, low=-1, high=2)
        elif weight == "scalar_tensor":
            w = tvdiff.make((), "float64", seed=3)
        else:
            w = weight
        tvdiff.check(lambda lib, x, y, z: lib.lerp(x, y, z), a, b, w, rtol=1e-3, atol=1e-3)
        tvdiff.check(lambda lib, x, y, z: x.lerp_(y, z), a, b, w, rtol=1e-3, atol=1e-3)
    other = tvdiff.make((3, 4), "float64" if dtype != "float64" else "float32")
    tvdiff.check(lambda lib, x, y: lib.lerp(x, y, 0.5), a, other)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + ("uint8", "int64", "bool"))
@pytest.mark.parametrize("decimals", [0, 1, 2, -1, -2])
def test_round_decimals(tvdiff, dtype, decimals):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make((4, 5), dtype, layout, seed=i, low=-200, high=200)
        tvdiff.check(lambda lib, t: lib.round(t, decimals=decimals), x)
        tvdiff.check(lambda lib, t: t.round(decimals=decimals), x)
    # exact halves round to even
    data = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 0.25, 0.35, 1250.0, 1350.0], dtype="float64")
    x = tvdiff.make(data.shape, "float64", data=data)
    tvdiff.check(lambda lib, t: lib.round(t, decimals=decimals), x)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "int32"])
@pytest.mark.parametrize("kwargs", [{}, {"nan": 1.5}, {"posinf": 7.0, "neginf": -8.0},
                                    {"nan": -1.0, "posinf": 1e30}])
def test_nan_to_num(tvdiff, dtype, kwargs):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make((3, 4), dtype, layout, seed=i, special=True)
        tvdiff.check(lambda lib, t: lib.nan_to_num(t, **kwargs), x)
        tvdiff.check(lambda lib, t: t.nan_to_num_(**kwargs), x)


@pytest.mark.parametrize("eps", [None, 1e-6, 0.1, 0.6])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_logit(tvdiff, eps, dtype):
    x = tvdiff.make((4, 6), dtype, "t", low=-0.2, high=1.2, special=True)
    tvdiff.check(lambda lib, t: lib.logit(t, eps), x, rtol=1e-4)
    tvdiff.check(lambda lib, t: t.logit(eps=eps), x, rtol=1e-4)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int64", "bool"])
@pytest.mark.parametrize("dim", [0, 1, -1, 2, -3])
def test_softmax(tvdiff, name, dtype, dim):
    for i, layout in enumerate(LAYOUTS):
        x = tvdiff.make((3, 4), dtype, layout, seed=i, low=-30, high=30)
        # Note: PyTorch's half kernels round some intermediates to half: an ulp of slack
        rtol, atol = (2e-3, 2e-3) if dtype == "float16" else (1e-4, 1e-5)
        tvdiff.check(lambda lib, t: getattr(lib, name)(t, dim), x, rtol=rtol, atol=atol)
        tvdiff.check(lambda lib, t: getattr(t, name)(dim), x, rtol=rtol, atol=atol)
        tvdiff.check(lambda lib, t: getattr(t, name)(dim, dtype=lib.float64), x)
    s = tvdiff.make((), "float32")
    tvdiff.check(lambda lib, t: getattr(lib, name)(t, 0), s)
    e = tvdiff.make((0, 3), "float32")
    tvdiff.check(lambda lib, t: getattr(lib, name)(t, 1), e)
    inf = tvdiff.make((2, 2), "float32", data=np.array([[-np.inf, -np.inf], [np.inf, 1.0]],
                                                       dtype="float32"))
    tvdiff.check(lambda lib, t: getattr(lib, name)(t, 1), inf)


def test_softmax_needs_dim(tvdiff):
    x = tvdiff.make((3,), "float32")
    tvdiff.check(lambda lib, t: lib.softmax(t), x)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_erf_accuracy(tvdiff, dtype):
    data = np.concatenate([np.linspace(-7, 7, 2001), [1.4999, 1.5, 1.5001, 27.0, -27.0, 0.0,
                                                      -0.0, np.inf, -np.inf, np.nan, 1e-30]])
    x = tvdiff.make(data.shape, dtype, data=data.astype(dtype))
    for name in ("erf", "erfc"):
        tvdiff.check(lambda lib, t: getattr(lib, name)(t), x, rtol=1e-12 if dtype == "float64"
                     else None, atol=1e-300 if dtype == "float64" else None)


# ---------------------------------------------------------------- complex parts
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_real_imag_are_views(tvdiff, dtype, layout):
    x = tvdiff.make((3, 4), dtype, layout)
    for part in ("real", "imag"):
        r = tvdiff.check(lambda lib, t: getattr(t, part), x)
        assert r.untyped_storage() is x.tv.untyped_storage()
        assert r.stride() == getattr(x.pt, part).stride()
        assert r.storage_offset() == getattr(x.pt, part).storage_offset()
        tvdiff.check(lambda lib, t: getattr(lib, part)(t), x)
    if layout != "expand":
        def write(lib, t):
            t.real[0] = 5
            t.imag[..., 1] = -2
            return t
        tvdiff.check(write, x)

        def setter(lib, t):
            t.real = lib.ones(t.shape, dtype=t.real.dtype) * 3
            return t
        tvdiff.check(setter, x)


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
def test_real_imag_of_real(tvdiff, dtype):
    x = tvdiff.make((2, 3), dtype)
    assert tensorviz.real(x.tv) is x.tv and x.tv.real is x.tv
    tvdiff.check(lambda lib, t: t.imag, x)
    tvdiff.check(lambda lib, t: lib.imag(t), x)


def test_view_as_real_complex(tvdiff):
    x = tvdiff.make((3, 4), "complex64", "t")
    r = tvdiff.check(lambda lib, t: lib.view_as_real(t), x)
    assert r.stride() == torch.view_as_real(x.pt).stride()
    y = tvdiff.make((3, 2), "float32")
    tvdiff.check(lambda lib, t: lib.view_as_complex(t), y)
    tvdiff.check(lambda lib, t: lib.view_as_complex(t), tvdiff.make((3, 4), "float32", "step"))
    tvdiff.check(lambda lib, t: lib.view_as_real(t), tvdiff.make((3,), "float32"))


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float32", "int32"])
def test_conj(tvdiff, dtype):
    x = tvdiff.make((3, 4), dtype, "t")
    tvdiff.check(lambda lib, t: lib.conj(t), x)
    tvdiff.check(lambda lib, t: t.conj().resolve_conj(), x)
    tvdiff.check(lambda lib, t: t.conj_physical(), x)
    if dtype in ("float32", "int32"):
        assert x.tv.conj() is x.tv
    assert x.tv.resolve_conj() is x.tv


# ---------------------------------------------------------------- errors and signatures
def test_errors(tvdiff):
    x = tvdiff.make((3,), "float32")
    c = tvdiff.make((3,), "complex64")
    i = tvdiff.make((3,), "int64")
    for f in [lambda lib, t: lib.exp(t.tolist()),
              lambda lib, t: lib.atan2(t, 2.0),
              lambda lib, t: lib.hypot(t, 2),
              lambda lib, t: lib.logical_and(t, True),
              lambda lib, t: t.exp_() if t.dtype == lib.int64 else t.add(1).long().exp_(),
              lambda lib, t: t.float_power_(2),
              lambda lib, t: lib.float_power(t, 2).float_power_(0.5)]:
        tvdiff.check(f, x)
        tvdiff.check(f, i)
        tvdiff.check(f, c)
    tvdiff.check(lambda lib, t: lib.fmod(t, 0), i)
    tvdiff.check(lambda lib, t: lib.fmod(t, lib.zeros(3, dtype=lib.int64)), i)
    tvdiff.check(lambda lib, t: lib.xlogy(t, t), c)
    tvdiff.check(lambda lib, t: lib.addcdiv(t, t, t), i)


def test_sign_special(tvdiff):
    data = np.array([np.nan, -0.0, 0.0, -np.inf, np.inf, -2.0, 3.0], dtype="float32")
    x = tvdiff.make(data.shape, "float32", data=data)
    for name in ("sign", "sgn", "signbit", "angle", "relu", "frac", "trunc", "isposinf"):
        tvdiff.check(lambda lib, t: getattr(lib, name)(t), x)


def test_sgn_complex_zero(tvdiff):
    data = np.array([3 + 4j, 0j, -2j, 1e-30 + 0j], dtype="complex64")
    x = tvdiff.make(data.shape, "complex64", data=data)
    tvdiff.check(lambda lib, t: lib.sgn(t), x)


def test_int_inputs_give_default_float(tvdiff, default_float64):
    x = tvdiff.make((4,), "int64", low=1)
    for name in ("sqrt", "exp", "sigmoid", "atan", "erf", "reciprocal", "angle"):
        tvdiff.check(lambda lib, t: getattr(lib, name)(t), x)
    tvdiff.check(lambda lib, t: lib.atan2(t, t), x)


def test_inplace_on_overlapping_view_raises(tvdiff):
    x = tvdiff.make((3, 4), "float32", "expand")
    tvdiff.check(lambda lib, t: t.exp_(), x)
    tvdiff.check(lambda lib, t: t.clamp_min_(0.5), x)


def test_inplace_bumps_version_and_writes_through(tvdiff):
    base = tvdiff.make((4, 4), "float32")
    v = base.tv.t()[1:3]
    before = base.tv._version
    v.sin_()
    assert base.tv._version > before
    base.pt.t()[1:3].sin_()
    tvdiff.same(base.tv, base.pt)


@pytest.mark.parametrize("base_dtype", ["bool", "uint8", "float32", "complex64"])
def test_float_power_complex_zero_base(tvdiff, base_dtype):
    """A zero base to a complex power follows PyTorch's complex pow: 0 ** (negative real
    part) is inf, 0 ** 0 (a tensor exponent) NaN, while a number exponent 0 gives ones."""
    data = np.array([0, 0, 0, 1, 2, 0], dtype=base_dtype)
    base = tvdiff.make((6,), base_dtype, data=data)
    exp = tvdiff.make((6,), "complex128",
                      data=np.array([-1 - 2j, -3, 0, 2j, 0.5, 1 - 2j], dtype="complex128"))
    tvdiff.check(lambda lib, b, e: lib.float_power(b, e), base, exp)
    tvdiff.check(lambda lib, b, e: b.float_power(e), base, exp)
    for e in (-1 - 2j, -3 + 0j, 0j, 0, -1, 2j):
        tvdiff.check(lambda lib, b: lib.float_power(b, e), base)


def test_nan_to_num_out_of_range_replacement_is_quiet(tvdiff):
    """A replacement beyond float16's range becomes inf, without a NumPy overflow warning."""
    x = tvdiff.make((3, 4), "float16", "t", special=True)
    tvdiff.check(lambda lib, t: lib.nan_to_num(t, posinf=1e30, neginf=-1e30), x)
    tvdiff.check(lambda lib, t: t.nan_to_num(nan=1e6), x)


@pytest.mark.parametrize("layout", ["t", "expand", "step"])
@pytest.mark.parametrize("dtype", ["bool", "int32", "float16", "complex64"])
def test_elementwise_result_strides(tvdiff, layout, dtype):
    """Results that change dtype (bool/int to float, half through float32) are laid out as
    PyTorch's TensorIterator lays them out, not in the order NumPy's casts leave."""
    x = tvdiff.make((3, 4), dtype, layout, seed=1)
    y = tvdiff.make((3, 4), dtype, "contig", seed=2)
    calls = [lambda lib, t, u: lib.exp(t), lambda lib, t, u: lib.sin(t),
             lambda lib, t, u: lib.sign(t), lambda lib, t, u: lib.nan_to_num(t),
             lambda lib, t, u: lib.atan2(t.real if t.is_complex() else t,
                                         u.real if u.is_complex() else u),
             lambda lib, t, u: lib.logical_and(t, u),
             lambda lib, t, u: lib.lerp(t.float(), u.float(), 0.3),
             lambda lib, t, u: lib.addcmul(t.double(), t.double(), u.double())]
    for f in calls:
        r = tvdiff.check(f, x, y, rtol=4e-3, atol=4e-3, warns=False)
        if r is not None:
            assert r.stride() == f(torch, x.pt, y.pt).stride()


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "fmod", "div-floor"])
def test_integer_division_by_zero_on_empty_result(tvdiff, name):
    """Integer division by zero raises only when something is divided: an empty broadcast
    result computes nothing."""
    a = tvdiff.make((0, 2), "int16")
    b = tvdiff.make((2,), "int16", data=np.array([0, 3], dtype="int16"))
    f = (lambda lib, x, y: lib.div(x, y, rounding_mode="floor")) if name == "div-floor" else \
        (lambda lib, x, y: getattr(lib, name)(x, y))
    tvdiff.check(f, a, b)
    tvdiff.check(lambda lib, x, y: f(lib, y, x), a, b)
    tvdiff.check(lambda lib, x: f(lib, x, 0), a)
    tvdiff.check(lambda lib, x, y: f(lib, y, y), a, b)  # (non-empty: the error)


@pytest.mark.parametrize("name", ["fmod", "xlogy", "atan2", "hypot", "copysign"])
@pytest.mark.parametrize("self_dtype", ["int64", "float16", "float32"])
def test_inplace_complex_operand_refused_as_cast(tvdiff, name, self_dtype):
    """A complex operand to a real in-place op: PyTorch's cast error comes before the
    kernel's own refusal of complex."""
    x = tvdiff.make((3,), self_dtype)
    c = tvdiff.make((3,), "complex64")
    tvdiff.check(lambda lib, t, u: getattr(t.clone(), name + "_")(u), x, c)


def test_bad_argument_types(tvdiff):
    x = tvdiff.make((3, 4), "float32")
    tvdiff.check(lambda lib, t: lib.round(t, decimals=1.5), x)
    tvdiff.check(lambda lib, t: t.round(decimals=True), x)
    tvdiff.check(lambda lib, t: lib.nan_to_num(t, "a"), x)
    tvdiff.check(lambda lib, t: t.nan_to_num(posinf="a"), x)


@pytest.mark.parametrize("name,args", [("abs_", ()), ("neg_", ()), ("negative_", ()),
                                       ("clamp_", (-0.5, 0.5)), ("clip_", (None, 0.2))])
def test_inplace_function_forms(tvdiff, name, args):
    """``torch.abs_(t)`` and friends: the function spelling of the in-place methods."""
    x = tvdiff.make((3, 4), "float32", "t")

    def f(lib, t):
        t = t.clone()
        r = getattr(lib, name)(t, *args)
        assert r is t
        return t
    tvdiff.check(f, x)


def test_trunc_division_of_int64_min_by_minus_one_wraps():
    """# Note: PyTorch 2.13 dies with SIGFPE on tensor([-2**63]).div(-1, rounding_mode='trunc')
    (the CPU's integer division traps); tensorviz gives the two's-complement wrap that
    PyTorch's own floor division of the same numbers gives (-2**63)."""
    x = tensorviz.tensor([-2**63, 7, -7])
    got = x.div(-1, rounding_mode="trunc")
    expect = torch.tensor([-2**63, 7, -7]) // -1  # (floor == trunc for a divisor of -1)
    assert got.tolist() == expect.tolist()
    assert got.dtype == tensorviz.int64


# ---------------------------------------------------------------- lazy conjugate views
def _run_both(lines):
    """Run the statements on both libraries; each library's namespace after the last."""
    envs = []
    for lib in (tensorviz, torch):
        env = {"T": lib}
        for line in lines:
            exec(line, env)  # noqa: S102 - the test's own statements
        envs.append(env)
    return envs


def _same_tensors(env_tv, env_pt, names):
    """Values, lazy bits, layout and which of ``names`` share memory agree."""
    for n in names:
        a, b = env_tv[n], env_pt[n]
        assert (a.is_conj(), a.is_neg()) == (b.is_conj(), b.is_neg()), n
        assert a.stride() == b.stride() and a.storage_offset() == b.storage_offset(), n
        x = a.resolve_conj().resolve_neg().numpy()
        y = b.resolve_conj().resolve_neg().numpy()
        np.testing.assert_array_equal(x, y, err_msg=n)
    for i, m in enumerate(names):
        for n in names[i + 1:]:
            shared_tv = env_tv[m].untyped_storage() is env_tv[n].untyped_storage()
            shared_pt = env_pt[m].untyped_storage().data_ptr() == \
                env_pt[n].untyped_storage().data_ptr()
            assert shared_tv == shared_pt, (m, n)


CONJ_PROGRAMS = [
    # views of the same memory, the conjugate bit carried by further views
    ["x = T.tensor([[1+2j, 3-1j], [0.5j, -2+0j]])", "c = x.conj()", "d = c[1:]", "e = c.t()",
     "f = c.conj()", "g = x.H", "h = x.mH", "k = x.adjoint()", "m = c.unsqueeze(0)"],
    # writes through the view conjugate; writes to the base show in the view
    ["x = T.tensor([1+2j, 3-1j, 5+0j])", "c = x.conj()", "c.add_(1)", "c[0] = 10+10j",
     "c[T.tensor([2])] = 7j", "c.mul_(2j)", "x[1] = 4+4j", "c.fill_(1-1j)", "d = c.clone()"],
    ["x = T.tensor([1+2j, 3-1j, 5+0j])", "c = x.conj()", "c.copy_(T.tensor([1j, 2j, 3j]))",
     "T.add(x, 1, out=c)", "c.zero_()", "r = c.resolve_conj()"],
    # the imaginary part of a conjugate view is a lazy negative view
    ["x = T.tensor([1+2j, 3-1j])", "c = x.conj()", "i = c.imag", "r = c.real", "i.add_(1)",
     "n = i.resolve_neg()", "j = i.neg()"],
    # a real tensor: conj() is the tensor itself
    ["x = T.tensor([1., 2.])", "c = x.conj()"],
]


@pytest.mark.parametrize("lines", CONJ_PROGRAMS, ids=range(len(CONJ_PROGRAMS)))
def test_conj_is_a_lazy_view(lines):
    env_tv, env_pt = _run_both(lines)
    names = [n for n in env_pt if isinstance(env_pt[n], torch.Tensor)]
    _same_tensors(env_tv, env_pt, names)


@pytest.mark.parametrize("stmt", ["c.numpy()", "c.view(T.float32)", "T.view_as_real(c)",
                                  "c.imag.numpy()"])
def test_conj_view_refusals(stmt):
    for lib in (tensorviz, torch):
        c = lib.tensor([1 + 2j, 3 - 1j]).conj()
        with pytest.raises(RuntimeError) as e:
            eval(stmt, {"c": c, "T": lib})  # noqa: S307 - the test's own expression
        if lib is torch:
            assert str(e.value) == msg
        msg = str(e.value)


# ---------------------------------------------------------------- result layouts
def _layout_inputs(lib, dt):
    """A transposed (1, 2), a stepped (1, 1), an empty permuted and a permuted tensor: the
    layouts whose size-1 and empty dims PyTorch's empty_like keeps and TensorIterator does not."""
    a = (lib.zeros((2, 1), dtype=dt) + 1).t()
    b = (lib.zeros((1, 2), dtype=dt) + 1)[..., ::2]
    c = lib.zeros((3, 0, 2), dtype=dt).permute(2, 1, 0)
    d = (lib.zeros((1, 2, 3), dtype=dt) + 1).permute(2, 0, 1)
    return [a, b, c, d]


@pytest.mark.parametrize("name", ["abs", "absolute", "conj_physical", "deg2rad", "rad2deg",
                                  "isfinite", "isinf", "isreal", "isnan", "nan_to_num",
                                  "isposinf", "signbit", "exp", "neg"])
@pytest.mark.parametrize("dtype", ["float32", "int64", "complex64", "bool"])
def test_unary_result_strides(name, dtype):
    """Ops PyTorch computes into ``empty_like(input)`` keep a dense input's strides exactly
    (size-1 and empty dims too); complex isinf/isreal are laid out from the real/imag views
    they read; the rest as TensorIterator orders them."""
    for x_tv, x_pt in zip(_layout_inputs(tensorviz, getattr(tensorviz, dtype)),
                          _layout_inputs(torch, getattr(torch, dtype))):
        try:
            want = getattr(torch, name)(x_pt).stride()
        except (RuntimeError, NotImplementedError):
            continue
        assert getattr(tensorviz, name)(x_tv).stride() == want, (name, dtype, x_pt.stride())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_add_and_sub_with_alpha_are_one_fused_multiply_add(dtype):
    """PyTorch's float32/float64 ``input + alpha * other`` rounds once (a fused multiply-add,
    in every loop and layout): bit for bit, in and out of place, with a 0-dim tensor alpha
    (optimizers pass them) and a product past the float range that the sum brings back
    (``sub(x, x, alpha=2)`` of 3.4e38 is -3.4e38, not -inf). A number or 0-dim other: fused
    in float64 (float32's depends on PyTorch's loop, see ``_fused_alpha``)."""
    rng = np.random.default_rng(11)
    big = 3.4e38 if dtype == "float32" else 1e308
    a = np.concatenate([rng.standard_normal(37) * 10.0 ** rng.integers(-8, 8, 37),
                        [big, -big, 0.0, -0.0, 1.0]]).astype(dtype)
    b = np.concatenate([rng.standard_normal(37) * 10.0 ** rng.integers(-8, 8, 37),
                        [big, 1.0, -0.0, 0.0, 3.0]]).astype(dtype)
    progs = [lambda T, x, y: T.add(x, y, alpha=0.1), lambda T, x, y: T.sub(x, y, alpha=2),
             lambda T, x, y: T.sub(x, x, alpha=2), lambda T, x, y: x.clone().sub_(x, alpha=2),
             lambda T, x, y: x.clone().add_(y, alpha=-3),
             lambda T, x, y: x[::2].clone().add_(y[::2], alpha=T.tensor(-0.37, dtype=x.dtype)),
             lambda T, x, y: T.add(x.reshape(6, 7).t(), y.reshape(7, 6), alpha=2.5)]
    if dtype == "float64":  # (float32 with a number: see _elementwise._fused_alpha's Note)
        progs += [lambda T, x, y: T.add(x, 1 / 3, alpha=3),
                  lambda T, x, y: T.subtract(x, y[0], alpha=-0.3)]
    for f in progs:
        got, want = (f(T, T.tensor(a), T.tensor(b)) for T in (tensorviz, torch))
        assert got.stride() == want.stride()
        np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_alpha_scales_in_the_result_dtype():
    """``input - alpha * other``: alpha is cast to the promoted dtype of the two tensors (it
    takes no part in the promotion) and, for complex results, multiplies as a complex number;
    addcmul multiplies left to right."""
    inf = float("inf")
    progs = [
        lambda T: T.sub(T.tensor([0. - 2j]), T.tensor([-5]), alpha=-inf),
        lambda T: T.rsub(T.tensor([4, 127]), T.tensor([4.0, -2.5], dtype=T.float16), alpha=inf),
        lambda T: T.add(T.tensor([-65504.], dtype=T.float16), T.tensor([65504.], dtype=T.float16),
                        alpha=2),
        lambda T: T.tensor([1. + 1j, 2.]).sub_(T.tensor([inf, 1.]), alpha=2),
        lambda T: T.add(T.tensor([1, 2]), 3, alpha=2),
        lambda T: T.add(T.tensor([1], dtype=T.int8), T.tensor(2.5), alpha=2),
        lambda T: T.addcmul(T.tensor([[0.5 + 0j, 65504 + 0.5j]]),
                            T.tensor([[0.25 + 0.5j], [2 + 0j]]).t(), T.tensor([[inf, -3.0]])),
        lambda T: T.addcdiv(T.tensor([1 + 0j]), T.tensor([inf + 0j]), T.tensor([2 + 0j]),
                            value=1),
    ]
    for f in progs:
        a, b = f(tensorviz), f(torch)
        assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1]
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_abs_out_of_a_complex_input():
    """abs/absolute of a complex input into ``out=``: a complex out of the input's dtype gets
    |z| + 0j, a real one any dtype the magnitude casts to, as PyTorch."""
    for name in ("abs", "absolute"):
        for dt in ("complex128", "complex64", "float32", "int64", "float64"):
            got = []
            for lib in (tensorviz, torch):
                z = lib.tensor([[3 + 4j]], dtype=lib.complex128)
                o = lib.empty(1, 1, dtype=getattr(lib, dt))
                try:
                    got.append(getattr(lib, name)(z, out=o).tolist())
                except RuntimeError as e:
                    got.append(str(e))
            assert got[0] == got[1], (name, dt)


@pytest.mark.parametrize("seed", range(3))
def test_abs_of_complex64_is_correctly_rounded(seed):
    """|z| of complex64 is PyTorch's exactly (hypot of the parts, correctly rounded; NumPy's
    own complex64 absolute is an ulp off for about a third of values), special values and
    the parts' extremes included; ``out=`` of complex64 too."""
    rng = np.random.default_rng(seed)
    scale = 10.0 ** rng.integers(-38, 38, 2000)
    z = (rng.standard_normal(2000) * scale + 1j * rng.standard_normal(2000) * scale[::-1])
    z = z.astype(np.complex64)
    z[:8] = [complex("nan+infj"), complex("inf+nanj"), complex("nan+1j"), -0.0, 65504 + 65504j,
             3e38 + 3e38j, 1e-45 + 1e-45j, complex("-inf-0j")]
    want = torch.from_numpy(z).abs().numpy()
    np.testing.assert_array_equal(tensorviz.from_numpy(z).abs().numpy(), want)
    o = tensorviz.empty(2000, dtype=tensorviz.complex64)
    tensorviz.abs(tensorviz.from_numpy(z), out=o)
    np.testing.assert_array_equal(o.numpy().real, want)


def test_float_power_and_conj_physical_inplace_layouts():
    """``t.float_power(number)`` is laid out as a unary op (the number is no operand);
    conj_physical_ of a real (even expanded) tensor leaves it as it is."""
    got = []
    for lib in (tensorviz, torch):
        v1 = lib.tensor([[-1, -6, -5]]).t()
        a = lib.tensor([[3, 1, 5]]).expand(2, 3)
        got.append((v1.float_power(float("inf")).stride(), v1.float_power(2).stride(),
                    lib.float_power(v1, v1).stride(), lib.conj_physical_(a) is a))
    assert got[0] == got[1]


def test_float16_trunc_division_divides_in_float32():
    """div(rounding_mode='trunc') of float16 truncates the float32 quotient (PyTorch's
    opmath): 65504 / 255 is 256, not the float16-rounded 257."""
    got = []
    for T in (tensorviz, torch):
        v = T.tensor([65504.0, 1000.0, -1000.0, 0.25], dtype=T.float16)
        x = v.clone()
        x.div_(255, rounding_mode="trunc")
        got.append((v.div(255, rounding_mode="trunc").tolist(), x.tolist(),
                    T.div(v, T.tensor([3.], dtype=T.float16), rounding_mode="trunc").tolist()))
    assert got[0] == got[1]


@pytest.mark.parametrize("shape", [(), (2,)])
@pytest.mark.parametrize("mode", [None, "trunc", "floor"])
@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
def test_half_division_reads_a_number_as_float32_for_0_dim_tensors_too(shape, mode, dt):
    """A 16-bit tensor divided by a number past its range (2**63 - 1) divides by the float32
    number, 0-dim or not: inf / (2**63 - 1) is inf (rounded first it would be inf / inf);
    a float32 0-dim divisor is read as float32."""
    got = []
    for T in (tensorviz, torch):
        d = getattr(T, dt)
        x = T.full(shape, float("inf"), dtype=d)
        y = T.full(shape, 1000.0, dtype=d)
        got.append((x.div_(2**63 - 1, rounding_mode=mode).tolist(),
                    y.div(T.tensor(0.3), rounding_mode=mode).tolist(),
                    y.div(0.3, rounding_mode=mode).tolist()))
    assert repr(got[0]) == repr(got[1])  # (nan, the floor of inf, compares by its repr)


@pytest.mark.parametrize("shape", [(0, 1), (1, 0), (0, 2, 1), (2, 0, 3), (1, 1, 0), (3, 1),
                                   (1, 3, 1), (2, 3)])
@pytest.mark.parametrize("op", ["isinf", "isnan", "isfinite", "isposinf", "signbit"])
def test_float_predicates_lay_out_results_as_pytorch(shape, op):
    """``isinf`` of a float tensor is PyTorch's ``abs(x) == inf``: a comparison with a
    scalar, whose layout differs from a unary op's for empty results ((0, 1): (1, 0))."""
    import itertools
    for perm in itertools.permutations(range(len(shape))):
        strides = []
        for lib in (tensorviz, torch):
            x = lib.zeros(shape, dtype=lib.float64).permute(perm)
            strides.append(getattr(x, op)().stride())
        assert strides[0] == strides[1], (perm, strides)


# ---------------------------------------------------------------- complex pow (cpow)
def _complex_grid(dtype: str, n: int, seed: int) -> np.ndarray:
    """``n`` complex values whose parts mix random numbers with zeros of both signs,
    infinities, NaN and numbers near the float32 range."""
    rng = np.random.default_rng(seed)
    special = np.array([0.0, -0.0, 0.5, -1.0, 2.0, -3.0, np.inf, -np.inf, np.nan, 1e30])
    re, im = (np.where(rng.random(n) < 0.5, rng.choice(special, n), rng.normal(0, 3, n))
              for _ in range(2))
    z = np.empty(n, dtype=dtype)
    z.real, z.imag = re, im  # (by parts: 1j * inf is nan+inf j)
    return z


def _assert_same_c99(got, want, dtype: str) -> None:
    """Values agree (complex values not finite by their C99 Annex G class, as the fuzzer)."""
    from tests.fuzz.differential import _same_values
    a = want.detach().numpy() if hasattr(want, "detach") else want
    b = np.asarray(got.numpy())
    assert a.shape == b.shape and str(got.dtype).split(".")[-1] == dtype
    assert _same_values(a, b, dtype), (a, b)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_pow_is_cpow(dtype):
    """PyTorch's complex pow is C's cpow, exp(b * log(a)) with Annex G's product (a tensor
    exponent, a number base), and its kernel's shortcuts for the number exponents 0, 1,
    +-0.5, -1, 2, 3 and -2; NumPy's power differs (0 ** 0, (-3) ** 1's rounding ...)."""
    a, b = _complex_grid(dtype, 600, 1), _complex_grid(dtype, 600, 2)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    va, vb = tensorviz.from_numpy(a.copy()), tensorviz.from_numpy(b.copy())
    _assert_same_c99(va ** vb, ta ** tb, dtype)
    _assert_same_c99(va.float_power(vb), ta.float_power(tb), "complex128")
    _assert_same_c99(va.clone().pow_(vb), ta.clone().pow_(tb), dtype)
    for e in (0, 1, 2, 3, -1, -2, 0.5, -0.5, 1.5, 2 + 1j, -3j, 2 + 0j):
        _assert_same_c99(va ** e, ta ** e, dtype)
        _assert_same_c99(va.float_power(e), ta.float_power(e), "complex128")
    for base in (2, 0.5, 1 + 1j, 0, -2):
        _assert_same_c99(base ** va, base ** ta, dtype)
    ints = torch.tensor([-1, -32767, -3], dtype=torch.int16)
    one = torch.scalar_tensor(1, dtype=getattr(torch, dtype))
    _assert_same_c99(tensorviz.tensor([-1, -32767, -3], dtype=tensorviz.int16)
                     ** tensorviz.scalar_tensor(1, dtype=getattr(tensorviz, dtype)),
                     ints ** one, dtype)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_exp2_scales_each_part(dtype):
    """exp2(z) is exp(ln 2 * z) with ln 2 scaling each part (-inf-inf j gives 0, not nan)."""
    a = _complex_grid(dtype, 400, 3)
    _assert_same_c99(tensorviz.from_numpy(a.copy()).exp2(), torch.from_numpy(a).exp2(), dtype)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_linspace_logspace_specials(dtype):
    """Complex linspace steps each part by itself (an infinite start leaves the imaginary
    part 0); logspace takes cpow of complex exponents (base -0.0 ** 0 is nan)."""
    ends = [0.0, -0.0, 2.5, -1.0, np.inf, -np.inf, np.nan, 1 + 2j, complex(np.inf, 1)]
    for start in ends:
        for end in ends:
            for steps in (1, 2, 3, 5, 20):
                want = torch.linspace(start, end, steps, dtype=getattr(torch, dtype))
                got = tensorviz.linspace(start, end, steps, dtype=getattr(tensorviz, dtype))
                _assert_same_c99(got, want, dtype)
                for base in (2.0, -0.0, 0.5, -2.0):
                    want = torch.logspace(start, end, steps, base, dtype=getattr(torch, dtype))
                    got = tensorviz.logspace(start, end, steps, base,
                                             dtype=getattr(tensorviz, dtype))
                    _assert_same_c99(got, want, dtype)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_ops_take_operands_as_the_half_they_become(dtype):
    """PyTorch casts every operand of a half op to the half dtype before its float32 kernel:
    an int32 2147483646 or the number 2**63 - 1 is inf in float16 (so 0 * it is nan in
    addcmul, hypot(nan, -inf) is inf, xlogy(x, 2**63 - 1) is +-inf)."""
    rng = np.random.default_rng(5)
    base = rng.choice([0.0, -0.75, 2.0, 1e30, np.nan, -3.0, 65504.0], size=(4, 3))
    big = rng.choice([-2147483647, 2147483646, 6, -2, 0, 1 << 24 | 1], size=(4, 3)).astype("int32")
    progs = [
        lambda T, x, i: T.xlogy(x, 2 ** 63 - 1), lambda T, x, i: T.xlogy(x, i),
        lambda T, x, i: T.hypot(x, i), lambda T, x, i: T.hypot(i.to(x.dtype), x),
        lambda T, x, i: x.clone().addcmul_(x, i), lambda T, x, i: T.addcdiv(x, x, i),
        lambda T, x, i: T.fmod(x, i), lambda T, x, i: T.xlogy(2 ** 40 + 1, x),
    ]
    for prog in progs:
        outs = []
        for T in (torch, tensorviz):
            x = T.tensor(base, dtype=getattr(T, dtype))
            outs.append(prog(T, x, T.tensor(big)))
        want, got = outs
        assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
        a, b = want.float().numpy(), got.float().numpy()
        np.testing.assert_array_equal(np.isnan(a), np.isnan(b))
        np.testing.assert_allclose(b[~np.isnan(a)], a[~np.isnan(a)], rtol=2e-2)


# ---------------------------------------------------------------- result strides, mixed dtypes
_MIXED_OPS = {
    "add": lambda T, a, b: a + b, "mul": lambda T, a, b: a * b, "lt": lambda T, a, b: a < b,
    "div": lambda T, a, b: a / b, "pow": lambda T, a, b: T.pow(a.double(), b),
    "atan2": lambda T, a, b: T.atan2(a, b), "ldexp": lambda T, a, b: T.ldexp(a, b),
    "hypot": lambda T, a, b: T.hypot(a.double(), b), "exp": lambda T, a, b: T.exp(a),
    "angle": lambda T, a, b: (a + 1j).angle(), "sin": lambda T, a, b: a.sin(),
}


def _mixed_operand(lib, rng):
    """A small tensor with size-1 dims, permuted, maybe stepped, of a random dtype."""
    n = rng.randint(1, 3)
    shape = [rng.choice([1, 1, 2, 3]) for _ in range(n)]
    perm = list(range(n))
    rng.shuffle(perm)
    step = rng.choice([1, 2])
    dt = getattr(lib, rng.choice(["int64", "int32", "float32", "float64"]))
    shape[-1] *= step
    x = lib.arange(int(np.prod(shape))).reshape(shape)[..., ::step]
    return x.to(dt).permute(perm)


@pytest.mark.parametrize("seed", range(40))
def test_mixed_dtype_results_are_laid_out_as_pytorch(seed):
    """An input of another dtype than the op computes in is converted first (``x.to(dt)``),
    and the result is laid out from that copy: PyTorch's CPU TensorIterator; ldexp's integer
    exponent is not converted; complex angle is row-major (seeded random layouts)."""
    import random
    import warnings
    for k in range(10):
        rng_t, rng_v = random.Random(seed * 10 + k), random.Random(seed * 10 + k)
        name = rng_t.choice(sorted(_MIXED_OPS))
        rng_v.choice(sorted(_MIXED_OPS))
        got = []
        for lib, rng in ((torch, rng_t), (tensorviz, rng_v)):
            a, b = _mixed_operand(lib, rng), _mixed_operand(lib, rng)
            try:
                with warnings.catch_warnings():  # (ldexp's resized empty_like: tested apart)
                    warnings.simplefilter("ignore", UserWarning)
                    r = _MIXED_OPS[name](lib, a, b)
            except (RuntimeError, NotImplementedError) as e:
                got.append(type(e).__name__)
                continue
            got.append((tuple(r.shape), r.stride(), str(r.dtype).split(".")[-1],
                        r.double().numpy() if r.dtype != lib.bool else r.numpy()))
        if isinstance(got[0], str) or isinstance(got[1], str):
            assert got[0] == got[1], (name, got)
            continue
        assert got[0][:3] == got[1][:3], (seed, k, name, got[0][:3], got[1][:3])
        np.testing.assert_allclose(got[1][3], got[0][3], rtol=1e-6, equal_nan=True)


def test_ldexp_integer_exponent_warns_when_broadcast_resizes_like_pytorch():
    """PyTorch computes a float input with an integer exponent into ``empty_like(input)``:
    a broadcast result resizes it, with its deprecation warning; an input without
    elements, or the same shape, gives none."""
    import warnings

    def caught(lib):
        out = []
        for x, e in (((3, 1), (1, 2)), ((3, 1), (1,)), ((0, 1), (1, 2))):
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                lib.ldexp(lib.ones(x), lib.ones(e, dtype=lib.int32))
            out.append([str(m.message).split(" (Triggered internally")[0] for m in w])
        return out
    assert caught(tensorviz) == caught(torch)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_sgn_and_square_as_pytorch_computes_them(dtype):
    """sgn divides each part by |x| (a subnormal x gives x/|x|, not inf+nan j); square is
    x * x with each product rounded, as PyTorch's vector loop (NumPy fuses ac - bd: the real
    part of (3.4e38+3.4e38j) ** 2 is 0 in PyTorch, -5.6e60 in NumPy). 400 elements: a
    multiple of PyTorch's vector block, so no element takes its one-by-one tail."""
    z = _complex_grid(dtype, 400, 7)
    tiny = np.finfo(dtype).smallest_subnormal
    z[:4] = [tiny, complex(0, -3 * tiny), complex(3.4e38, 3.4e38), complex(1e30, -1e30)]
    for f in (lambda x: x.sgn(), lambda x: x.square(), lambda x: x ** 2,
              lambda x: x.clone().sgn_()):
        _assert_same_c99(f(tensorviz.from_numpy(z.copy())), f(torch.from_numpy(z)), dtype)


@pytest.mark.parametrize("name", ["atan", "log10", "exp", "sin", "sqrt", "sigmoid", "reciprocal"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_result_rounded_before_a_wider_out(tvdiff, name, dtype):
    """A half input's result is computed in float32 but rounded to the half dtype before it
    goes into a float32/float64 ``out=``, as PyTorch copies its result: atan(0.25) is
    0.24499512 (float16's value) in a float32 out, not float32's 0.24497867."""
    x = tvdiff.make((3, 4), "float32", "t", seed=3, low=0.1, high=4.0)
    for out_dtype in ("float32", "float64"):
        def f(lib, t):
            out = lib.zeros((3, 4), dtype=getattr(lib, out_dtype))
            getattr(lib, name)(t.to(getattr(lib, dtype)), out=out)
            return out
        tvdiff.check(f, x, rtol=1e-6, atol=0)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "int16",
                                   "bool", "uint8", "complex64"])
def test_alpha_checked_and_scaled_in_the_result_dtype(dtype):
    """add/sub/rsub's alpha: PyTorch's checks (a bool alpha only for bool results, a complex
    one only for complex, a number that the result dtype cannot hold), any integer alpha as
    a bool for bool results, and alpha * other in the result dtype (rsub(int16, 1.5,
    alpha=2**63-1) scales in float32, not wrapped to int16's -1)."""
    from tests.conftest import same
    for alpha in (2 ** 63 - 1, 1e300, 70000.0, True, False, 1j, 2, 1, 1.0, -0.5, 0):
        for k in range(4):
            def f(T, k=k, alpha=alpha):
                r = g(T, k, alpha)  # (bfloat16 compared as float32, which holds it exactly)
                return r.float() if r.dtype == T.bfloat16 else r

            def g(T, k, alpha):
                x = T.tensor([1, 0, 3]).to(getattr(T, dtype))
                if k == 0:
                    return T.add(x, T.tensor([1, 1, 0]).to(getattr(T, dtype)), alpha=alpha)
                if k == 1:
                    return T.sub(x, 3, alpha=alpha)
                if k == 2:
                    return T.rsub(x, 1.5, alpha=alpha)
                return T.rsub(x.to(T.int16) if dtype != "bool" else x, 2, alpha=alpha)
            same(f)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_logaddexp_as_pytorch(dtype):
    """Complex logaddexp is max + log1p(exp(min - max)) with c10's log1p (exact for a small
    argument, where NumPy's rounds 1 + z first), NaN parts giving nan+nan j, equal infinite
    real parts min (-inf) or log(exp(min) + exp(max)) (+inf)."""
    a, b = _complex_grid(dtype, 600, 11), _complex_grid(dtype, 600, 12)
    b[:100] = a[:100] + np.asarray(1e-7 * (1 + 1j), dtype=dtype)  # (close pairs)
    # (PyTorch's vector loop gives nan where exp(min - max) is subnormal; not compared)
    with np.errstate(all="ignore"):
        keep = ~(np.abs(np.exp((a - b).astype("complex128"))) < 1e-290)
        keep &= ~(np.abs(np.exp((b - a).astype("complex128"))) < 1e-290)
    a, b = a[keep], b[keep]
    want = torch.logaddexp(torch.from_numpy(a), torch.from_numpy(b))
    got = tensorviz.logaddexp(tensorviz.from_numpy(a.copy()), tensorviz.from_numpy(b.copy()))
    _assert_same_c99(got, want, dtype)


@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2", "hypot", "atan2", "xlogy",
                                  "copysign", "float_power"])
@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_float_binary_broadcast_error_is_pytorchs(name, dtype):
    """Operands that do not broadcast: PyTorch's RuntimeError, not NumPy's ValueError."""
    from tests.conftest import same
    same(lambda T: getattr(T, name)(T.zeros((0, 3), dtype=getattr(T, dtype)),
                                    T.zeros((3, 0))))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_erf_keeps_the_sign_of_zero(dtype):
    """erf is odd: erf(-0.0) is -0.0 (float16's -1e-30 too), so reciprocal gives -inf."""
    x = [-0.0, 0.0, -1e-30, 1e-30, -3.0, 3.0, -np.inf, np.inf]
    want = torch.erf(torch.tensor(x, dtype=getattr(torch, dtype))).reciprocal().numpy()
    got = tensorviz.erf(tensorviz.tensor(x, dtype=getattr(tensorviz, dtype))).reciprocal()
    np.testing.assert_array_equal(np.signbit(got.numpy()), np.signbit(want))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-3)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("form", ["function", "inplace", "out", "strided"])
def test_erf_of_16bit_floats_is_pytorchs_bit_for_bit(dtype, form):
    """PyTorch's half and bfloat16 erf is a float32 approximation (absolute error ~1e-7:
    erf(-1e-30) is -0.0 there), which histc or a comparison of its result sees: every one of
    the 65536 values gives PyTorch's bits (NaN: any NaN), in each form."""
    bits = np.arange(-32768, 32768).astype(np.int16)
    if form == "strided":
        bits = bits.reshape(256, 256).T.copy().T  # (column-major)

    def run(lib):
        x = lib.from_numpy(bits).view(getattr(lib, dtype))
        if form == "inplace":
            return x.clone().erf_()
        if form == "out":
            o = lib.empty(x.shape, dtype=x.dtype)
            lib.erf(x, out=o)
            return o
        return lib.erf(x)
    want, got = run(torch), run(tensorviz)
    nan = want.isnan().numpy()
    np.testing.assert_array_equal(got.isnan().numpy(), nan)
    np.testing.assert_array_equal(got.view(tensorviz.int16).numpy()[~nan],
                                  want.view(torch.int16).numpy()[~nan])
    assert got.stride() == want.stride()


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("eps", [None, 1e-3, 0.3, -1.0])
def test_logit_of_16bit_floats_computes_in_their_dtype(dtype, eps):
    """PyTorch rounds each step of a 16-bit logit to its dtype (eps, 1 - eps, 1 - x and the
    quotient): bfloat16's 1 - 1e-3 is 1, so logit(1.5, 1e-3) is inf. Bit for bit, every
    representable value in [-0.5, 1.5]."""
    x = np.linspace(-0.5, 1.5, 4001).astype(np.float32)
    e = torch.logit(torch.from_numpy(x).to(getattr(torch, dtype)), eps).float().numpy()
    r = tensorviz.logit(tensorviz.from_numpy(x).to(getattr(tensorviz, dtype)), eps).float().numpy()
    np.testing.assert_array_equal(r, e)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_clamp_by_a_number_keeps_the_input_on_a_tie_of_zeros(dtype):
    """A number bound is std::max(x, min) / std::min(x, max): x itself where it equals the
    bound, so clamp_min(0.0, -0.0) is 0.0 and rsqrt of it +inf (NaN bounds give NaN)."""
    vals = [0.0, -0.0, -3.0, 3.0, float("nan")]
    for lo, hi in ((-0.0, None), (0.0, None), (None, 0.0), (None, -0.0), (-0.0, 0.0),
                   (0.0, -0.0), (float("nan"), None)):
        got = [tensorviz.clamp(tensorviz.tensor(vals, dtype=getattr(tensorviz, dtype)), lo, hi)]
        exp = [torch.clamp(torch.tensor(vals, dtype=getattr(torch, dtype)), lo, hi)]
        if lo is not None:
            got.append(tensorviz.tensor(vals, dtype=getattr(tensorviz, dtype)).clamp_min_(lo))
            exp.append(torch.tensor(vals, dtype=getattr(torch, dtype)).clamp_min_(lo))
        for r, e in zip(got, exp):
            r, e = r.float().numpy(), e.float().numpy()
            np.testing.assert_array_equal(r, e)
            assert list(np.signbit(r)) == list(np.signbit(e)), (lo, hi, r, e)


def test_nan_to_num_of_complex_keeps_the_signs_of_zero_parts():
    """Each part is fixed on its own (re + 1j * im made an imaginary -0 +0): through a
    conjugate view, nan_to_num_ leaves the storage's +0 imaginary parts as PyTorch does, so
    asin/acos of it later take PyTorch's side of the branch cut."""
    vals = [complex(0.5, 0.0), complex(0.5, -0.0), complex(float("nan"), -0.0),
            complex(-0.0, float("inf")), complex(-float("inf"), float("nan"))]
    for dtype in ("complex64", "complex128"):
        got, exp = [], []
        for lib, out in ((tensorviz, got), (torch, exp)):
            v0 = lib.tensor(vals, dtype=getattr(lib, dtype))
            out.append(lib.nan_to_num(v0, 2.0).numpy())
            v0.conj().nan_to_num_(1.0, 3.0)
            out.append(v0.resolve_conj().numpy())
        for r, e in zip(got, exp):
            np.testing.assert_array_equal(r, e)
            assert list(np.signbit(r.real)) == list(np.signbit(e.real))
            assert list(np.signbit(r.imag)) == list(np.signbit(e.imag))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_log1p_of_complex_is_accurate_for_tiny_and_huge_values(dtype):
    """PyTorch's c10 log1p: 0.5 log1p(x (2 + x) + y^2) below |z| = 0.5 (NumPy's complex log1p
    rounds 1 + z first: real part 0 for 1.66e-12-2.7e-08j) and the complex log(1 + z) above
    (no overflow: 89.07+0.785j for 3.4e38+3.4e38j in complex64). Seeded values over the
    whole range, compared within a few ulps."""
    rng = np.random.default_rng(11)
    n, top = 20000, (38 if dtype == "complex64" else 307)
    z = (rng.choice([-1, 1], n) * 10 ** rng.uniform(-20, top, n)
         + 1j * rng.choice([-1, 1], n) * 10 ** rng.uniform(-20, top, n))
    z = np.concatenate([z, [3.4e38 + 3.4e38j, 1.6564247e-12 - 2.7013771e-08j, -1 + 0j,
                            -0.5 + 0.5j, 0j, 1e-30 + 1e-30j]]).astype(dtype)
    e = torch.log1p(torch.from_numpy(z)).numpy()
    r = tensorviz.log1p(tensorviz.from_numpy(z)).numpy()
    np.testing.assert_allclose(r, e, rtol=4e-6 if dtype == "complex64" else 1e-14, atol=0)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "int32"])
@pytest.mark.parametrize("layout", ["contiguous", "strided", "big"])
def test_relu_keeps_negative_zero_as_pytorch(dtype, layout):
    """PyTorch's relu is std::max(x, 0): x itself on a tie, so relu(-0.0) is -0.0 (every
    spelling; bit for bit, NaN's sign aside)."""
    torch = pytest.importorskip("torch")
    vals = [-0.0, 0.0, -1.0, 2.5, float("inf"), -float("inf"), float("nan")] * 5
    outs = []
    for L in (torch, tensorviz):
        x = L.tensor(vals).to(getattr(L, dtype)) if dtype != "int32" else \
            L.tensor([int(v) for v in vals if v == v and abs(v) != float("inf")], dtype=L.int32)
        if layout == "strided":
            x = x[::2]
        elif layout == "big":
            x = x.repeat(200)
        got = [L.relu(x), x.relu(), L.nn.functional.relu(x), x.clone().relu_()]
        outs.append([(g.float().isnan().tolist(),
                      g.float().nan_to_num(7.0).numpy().tobytes()) for g in got])
    assert outs[1] == outs[0]


@pytest.mark.parametrize("dt", ["int16", "uint8", "int64", "float32", "float16", "complex64",
                                "bool"])
@pytest.mark.parametrize("shape,expand", [((4, 1, 2), (4, 4, 2)), ((3, 1), (3, 5)),
                                          ((1, 3), (4, 3)), ((3, 2), "t"),
                                          ((2, 1, 1, 3), (2, 4, 5, 3))])
def test_number_over_tensor_is_laid_out_as_pytorchs_reciprocal_times_number(dt, shape, expand):
    """``number / t`` is PyTorch's ``t.reciprocal() * number``: the reciprocal is laid out as
    a unary op lays out an expanded or transposed t (an expanded int16 t gives row-major; the
    NumPy cast copy put the stride-0 dim last), and values and dtype follow."""
    got = []
    for T in (tensorviz, torch):
        x = T.arange(1, 1 + int(np.prod(shape))).reshape(shape).to(getattr(T, dt))
        x = x.t() if expand == "t" else x.expand(expand)
        got.append([(r.stride(), r.dtype.is_floating_point, r.tolist())
                    for r in (0 / x, 2.5 / x, True / x)])
    assert got[0] == got[1]


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_lerp_of_floats_is_one_fused_multiply_add(dt):
    """PyTorch's float lerp is ``fma(w, end - start, start)`` below a weight of 0.5 and
    ``fma(w - 1, end - start, end)`` from it: lerp(0.5, 3.4e38, -1) is -3.4e38 (unfused,
    -inf), and values round once. Seeded random and special values, tensor and number
    weights, against PyTorch bit for bit."""
    rng = np.random.default_rng(3)
    vals = np.array([0.0, -0.0, 0.5, -2.5, 3.4e38, -3.4e38, 1e-30, np.inf, -np.inf, np.nan,
                     1.152921504606847e18, 0.1, 1 / 3])
    for _ in range(20):
        n = int(rng.integers(1, 70))
        data = [rng.choice(vals, n) if rng.random() < 0.5 else rng.standard_normal(n) * 1e3
                for _ in range(3)]
        got = []
        for T in (tensorviz, torch):
            a, b, w = (T.tensor(x).to(getattr(T, dt)) for x in data)
            got.append([repr(r.tolist()) for r in (T.lerp(a, b, w), T.lerp(a, b, 0.7),
                                                    T.lerp(a, b, -1.0), a.clone().lerp_(b, w))])
        assert got[0] == got[1]


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_logaddexp2_of_equal_operands_is_pytorchs_fused_step(dt):
    """PyTorch's logaddexp2 is ``max + log1p(exp2(-|a - b|)) * (1 / ln 2)`` with the last
    multiply-add fused: for a == b it is a + 1 rounded once (logaddexp2(-1, -1) is -1.06e-8
    in float32, not 0, so its sign is -1); the same infinity gives itself."""
    vals = [-1.0, 0.25, -2.5, 0.5, 3.0, 100.0, 1e-3, 7.0, float("inf"), float("-inf")]
    got = []
    for T in (tensorviz, torch):
        a = T.tensor(vals).to(getattr(T, dt))
        r = T.logaddexp2(a, a)
        got.append((r.tolist(), r.sign().tolist()))
    assert got[0] == got[1]
