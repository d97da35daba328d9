"""Differential tests of corner cases against PyTorch: float16 fills, the sign of a zero
remainder, integer pow overflow and layouts, out= and index_put_ overlap, tensor_split."""
from __future__ import annotations

import pytest

from .conftest import FLOAT_DTYPES, INT_DTYPES


# ---------------------------------------------------------------- float16 fills
@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("value", [1e6, -1e6, 65519.0, 65504.0, 100000, float("inf"),
                                   float("nan"), True, 1e6 + 0j])
def test_half_fill_overflow(tvdiff, n, value):
    tvdiff.check(lambda lib: lib.zeros(n, dtype=lib.float16).fill_(value))
    tvdiff.check(lambda lib: lib.zeros((), dtype=lib.float16).fill_(value))


@pytest.mark.parametrize("case", ["view", "view1", "expand", "tensor", "setitem", "setitem1",
                                  "setitem_adv", "masked_fill", "masked_fill1", "index_fill",
                                  "clamp", "clamp1", "scatter", "add", "f32", "i8_1"])
def test_half_fill_overflow_paths(tvdiff, case):
    def f(lib):
        h = lib.float16
        if case == "view":
            return lib.zeros(4, dtype=h)[::2].fill_(1e6)
        if case == "view1":
            return lib.zeros(4, dtype=h)[::4].fill_(1e6)
        if case == "expand":
            return lib.zeros(1, dtype=h).expand(3).fill_(1e6)
        if case == "tensor":
            return lib.zeros(2, dtype=h).fill_(lib.tensor(1e6))
        if case in ("setitem", "setitem1"):
            t = lib.zeros(2 if case == "setitem" else 1, dtype=h)
            t[:] = 1e6
            return t
        if case == "setitem_adv":
            t = lib.zeros(3, dtype=h)
            t[lib.tensor([0, 1])] = 1e6
            return t
        if case in ("masked_fill", "masked_fill1"):
            n = 2 if case == "masked_fill" else 1
            return lib.zeros(n, dtype=h).masked_fill(lib.ones(n, dtype=lib.bool), 1e6)
        if case == "index_fill":
            return lib.zeros(2, dtype=h).index_fill(0, lib.tensor([0]), 1e6)
        if case in ("clamp", "clamp1"):
            return lib.zeros(2 if case == "clamp" else 1, dtype=h).clamp(min=1e6)
        if case == "scatter":
            return lib.zeros(2, dtype=h).scatter(0, lib.tensor([0]), 1e6)
        if case == "add":
            return lib.zeros(2, dtype=h).add(1e6)
        if case == "f32":
            return lib.zeros(1, dtype=lib.float32).fill_(1e300)
        return lib.zeros(1, dtype=lib.int8).fill_(1000)
    tvdiff.check(f)


# ---------------------------------------------------------------- remainder / fmod zeros
_A = [1., -1., 0., -0., 2., -2., 3., -3., 5.5, -5.5]
_B = [-1., 1., -1., 1., 1., -1., 1.5, -1.5, float("inf"), float("inf")]


def _signs(lib, t):
    """Values and the sign bit of each (0.0 and -0.0 compare equal)."""
    return t, lib.signbit(t)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("op", ["remainder", "fmod", "mod_scalar", "mod_neg_scalar",
                                "rmod", "remainder_", "fmod_scalar", "zero_dim"])
def test_zero_remainder_sign(tvdiff, dtype, op):
    def f(lib):
        dt = getattr(lib, dtype)
        a, b = lib.tensor(_A, dtype=dt), lib.tensor(_B, dtype=dt)
        if op == "remainder":
            r = lib.remainder(a, b)
        elif op == "fmod":
            r = lib.fmod(a, b)
        elif op == "mod_scalar":
            r = a % 1
        elif op == "mod_neg_scalar":
            r = a % -1
        elif op == "rmod":
            r = 1 % b
        elif op == "remainder_":
            r = a.clone().remainder_(-1)
        elif op == "fmod_scalar":
            r = lib.fmod(a, -1)
        else:
            r = lib.tensor(1., dtype=dt) % -1
        return _signs(lib, r)
    tvdiff.check(f)


# ---------------------------------------------------------------- pow
@pytest.mark.parametrize("dtype", INT_DTYPES + ("float16", "float32", "bool"))
@pytest.mark.parametrize("exp", [1000, 256, 127, 300, 40000, -1, -1000, 2 ** 62, 2 ** 63,
                                 2 ** 70, True, 2.0, 1e300, 1e6, 70000.0])
def test_pow_scalar_exponent_conversion(tvdiff, dtype, exp):
    t = tvdiff.make((3,), dtype, low=0, high=3)
    tvdiff.check(lambda lib, x: x ** exp, t)
    tvdiff.check(lambda lib, x: lib.pow(x, exp), t)
    tvdiff.check(lambda lib, x: x.clone().pow_(exp), t)


@pytest.mark.parametrize("dtype", ["int8", "int64", "float32", "float16"])
@pytest.mark.parametrize("base", [2, 2.0, 1, 1000, 1e6])
@pytest.mark.parametrize("layout", ["contig", "t", "step", "expand"])
def test_scalar_base_pow_is_row_major(tvdiff, dtype, base, layout):
    t = tvdiff.make((2, 3), dtype, layout, low=0, high=4)

    def f(lib, x):
        r = base ** x
        return r, r.stride()
    tvdiff.check(f, t)
    tvdiff.check(lambda lib, x: lib.pow(base, x).stride(), t)
    tvdiff.check(lambda lib, x: (x ** 2).stride(), t)


@pytest.mark.parametrize("base", [1j, 1 + 1j, 0j, -2j])
def test_complex_scalar_base_pow(tvdiff, base):
    # PyTorch computes exp(b * log(a)): within complex64's tolerance of the exact powers
    t = tvdiff.make((6,), "float32", data=__import__("numpy").array(
        [0., 1., 2., 3., 0.5, -1.], dtype="float32"))
    tvdiff.check(lambda lib, x: base ** x, t)


@pytest.mark.parametrize("base", [1, 1.0, True, 1 + 0j, complex(1, -0.0), 2, -1])
@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float64"])
def test_scalar_base_one_pow_fills_ones(tvdiff, base, dtype):
    """PyTorch's pow of the number 1 fills ones whatever the exponent (inf, NaN parts
    included; True is not 1 there): tensorviz gives the same values."""
    np = __import__("numpy")
    inf, nan = float("inf"), float("nan")
    vals = [complex(inf, 0), complex(nan, 0), complex(-inf, -2), complex(2, 2), complex(0, 0),
            complex(1e30, 0)]
    data = np.array(vals if dtype.startswith("complex") else [v.real for v in vals])
    t = tvdiff.make((6,), dtype, data=data.astype(dtype))
    tvdiff.check(lambda lib, x: base ** x, t)
    tvdiff.check(lambda lib, x: lib.pow(base, x[::2]), t)


# ---------------------------------------------------------------- out= overlap
_OUT_CASES = ["add_shifted", "add_same_len", "add_full", "mul_two", "other_source", "interleaved",
              "transposed", "neg", "rsub", "exp", "same_view", "eq_fresh", "pow", "clamp",
              "resize", "atan2", "logical_and", "lerp", "addcmul", "where_unrelated"]


@pytest.mark.parametrize("case", _OUT_CASES)
def test_out_partial_overlap(tvdiff, case):
    def f(lib):
        x = lib.arange(6.)
        if case == "add_shifted":
            lib.add(x, 1, out=x[1:])
        elif case == "add_same_len":
            lib.add(x[:5], 1, out=x[1:])
        elif case == "add_full":
            lib.add(x, 1, out=x)
        elif case == "mul_two":
            lib.mul(x[1:], x[:5], out=x[:5])
        elif case == "other_source":
            lib.add(lib.ones(5), 1, out=x[1:])
        elif case == "interleaved":
            lib.add(x[::2], 1, out=x[1::2])
        elif case == "transposed":
            y = x[:4].view(2, 2)
            lib.add(y.t(), 1, out=y)
        elif case == "neg":
            lib.neg(x[:5], out=x[1:])
        elif case == "rsub":
            lib.sub(1, x[:5], out=x[1:])
        elif case == "exp":
            lib.exp(x[:5], out=x[1:])
        elif case == "same_view":
            lib.add(x[:5], 1, out=x[:5])
        elif case == "eq_fresh":
            lib.eq(x[:5], 1, out=lib.zeros(5, dtype=lib.bool))
        elif case == "pow":
            lib.pow(x[:5], 2, out=x[1:])
        elif case == "clamp":
            lib.clamp(x[:5], 1, 2, out=x[1:])
        elif case == "resize":
            lib.add(x[:2], 1, out=x[:3])
        elif case == "atan2":
            lib.atan2(x[:5], x[:5], out=x[1:])
        elif case == "logical_and":
            b = lib.ones(6, dtype=lib.bool)
            lib.logical_and(b[:5], b[:5], out=b[1:])
            return b
        elif case == "lerp":
            lib.lerp(x[:5], x[:5] + 1, 0.5, out=x[1:])
        elif case == "addcmul":
            lib.addcmul(x[:5], x[:5], x[:5], out=x[1:])
        else:
            lib.add(lib.ones(3), 1, out=x[3:])
        return x
    tvdiff.check(f)


# ---------------------------------------------------------------- index_put_ overlap
_PUT_CASES = ["slice_src", "far_src", "list_idx", "mask_two", "mask_one", "mask_one_1d",
              "index_put_", "clone_src", "elem_src", "row_src", "sliced_self", "whole_src",
              "disjoint_row"]


@pytest.mark.parametrize("case", _PUT_CASES)
def test_setitem_value_overlaps_destination(tvdiff, case):
    def f(lib):
        t = lib.arange(5.)
        i = lib.tensor([0, 1])
        if case == "slice_src":
            t[i] = t[1:3]
        elif case == "far_src":
            t[lib.tensor([3, 4])] = t[1:3]
        elif case == "list_idx":
            t[[0, 1]] = t[0:2]
        elif case == "mask_two":
            t[lib.tensor([True, True, False, False, False])] = t[1:3]
        elif case == "mask_one":
            t[lib.tensor([True, False, False, False, False])] = t[1]
        elif case == "mask_one_1d":
            t[lib.tensor([True, True, False, False, False])] = t[1:2]
        elif case == "index_put_":
            t.index_put_((i,), t[1:3])
        elif case == "clone_src":
            t[i] = t[1:3].clone()
        elif case == "elem_src":
            t[i] = t[1]
        elif case == "row_src":
            t = lib.arange(6.).reshape(2, 3)
            t[i] = t[0]
        elif case == "sliced_self":
            t = lib.arange(6.).reshape(2, 3)
            t[:, i] = t[:, 1:3]
        elif case == "whole_src":
            t[i] = t
        else:
            t = lib.arange(6.).reshape(2, 3)
            t[0, i] = t[1, :2]
        return t
    tvdiff.check(f)


@pytest.mark.parametrize("case", ["index_put_", "setitem", "accumulate", "mask_scalar",
                                  "value_1d", "masked_fill_", "basic", "value_view"])
def test_index_put_on_expanded_warns(tvdiff, case):
    def f(lib):
        t = lib.zeros(1).expand(3)
        if case == "index_put_":
            t.index_put_((lib.tensor([0]),), lib.tensor(1.))
        elif case == "setitem":
            t[lib.tensor([0])] = 1.
        elif case == "accumulate":
            t.index_put_((lib.tensor([0]),), lib.tensor(1.), accumulate=True)
        elif case == "mask_scalar":
            t[lib.tensor([True, False, False])] = 1.
        elif case == "value_1d":
            t.index_put_((lib.tensor([0]),), lib.tensor([1.]))
        elif case == "masked_fill_":
            t.masked_fill_(lib.tensor([True, False, False]), 2.)
        elif case == "basic":
            t[1] = 1.
        else:
            t.index_put_((lib.tensor([0]),), t[0])
        return t
    tvdiff.check(f)


# ---------------------------------------------------------------- tensor_split
_SPLIT_CASES = {
    "sections": lambda lib, t: lib.tensor_split(t, sections=3),
    "indices": lambda lib, t: lib.tensor_split(t, indices=[1, 4]),
    "indices_dim": lambda lib, t: lib.tensor_split(t, indices=(1, 4), dim=0),
    "method_sections": lambda lib, t: t.tensor_split(sections=3),
    "method_indices": lambda lib, t: t.tensor_split(indices=[2]),
    "method_dim": lambda lib, t: t.tensor_split(2, 0),
    "float_1d": lambda lib, t: lib.tensor_split(t, lib.tensor([1.5])),
    "float_0d": lambda lib, t: lib.tensor_split(t, lib.tensor(2.)),
    "int_0d": lambda lib, t: lib.tensor_split(t, lib.tensor(2)),
    "int_1d": lambda lib, t: lib.tensor_split(t, lib.tensor([2, 5])),
    "int32_1d": lambda lib, t: lib.tensor_split(t, lib.tensor([2, 5], dtype=lib.int32)),
    "bool": lambda lib, t: lib.tensor_split(t, lib.tensor([True])),
    "two_dim": lambda lib, t: lib.tensor_split(t, lib.tensor([[1]])),
    "float_sections": lambda lib, t: lib.tensor_split(t, 2.0),
    "both": lambda lib, t: lib.tensor_split(t, 2, sections=2),
    "tensor_kw": lambda lib, t: lib.tensor_split(t, tensor_indices_or_sections=lib.tensor(2)),
    "tensor_kw_1d": lambda lib, t: t.tensor_split(tensor_indices_or_sections=lib.tensor([3])),
    "old_kw": lambda lib, t: lib.tensor_split(t, indices_or_sections=2),
    "zero_sections": lambda lib, t: lib.tensor_split(t, sections=0),
    "indices_tensor_kw": lambda lib, t: lib.tensor_split(t, indices=lib.tensor([1])),
    "positional": lambda lib, t: lib.tensor_split(t, [1, 3], 0),
    "neg_dim": lambda lib, t: lib.tensor_split(t, 2, dim=-1),
}


@pytest.mark.parametrize("case", sorted(_SPLIT_CASES))
def test_tensor_split_keywords(tvdiff, case):
    t = tvdiff.make((7,), "int64")
    tvdiff.check(_SPLIT_CASES[case], t)
