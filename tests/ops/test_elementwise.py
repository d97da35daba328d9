"""The elementwise machinery (``tensorviz/ops/_elementwise.py``) against PyTorch: the
operators' inlined fast path, and how a Python number meets a 16-bit float tensor."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tensorviz
from tensorviz._tensor import Tensor, _fresh

torch = pytest.importorskip("torch")

DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
          "float32", "float64", "complex64", "complex128")
SHAPES = ((), (0, 3), (1,), (5,), (3, 4), (2, 3, 4))
# (``_vv``, the family's version when a view was made, is set by ``Tensor._view`` alone: only
# a tensor with a ``_vb`` has one)
SLOTS = [s for s in Tensor.__slots__ if s not in ("__weakref__", "_vv")]


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


# ---------------------------------------------------------------- numbers and 16-bit floats
HALF_DTYPES = ("float16", "bfloat16")
SIZES = (31, 64 * 6)  # (all in PyTorch's scalar loop; all in its vectorized loop)
#: add/sub's alpha: PyTorch's vectorized loop rounds once, its scalar loop (a tensor under 32
#: elements, the last numel % 32 of others) rounds the product first; tensorviz does the
#: latter (see _elementwise._alpha_times): compared on the small size only.
SCALAR_LOOP_ONLY = {"add(t, u, alpha=s)", "sub(t, u, alpha=s)", "t.add_(u, alpha=s)",
                    "add(t, 1.5, alpha=s)"}

# (name, program): ``t``, ``u`` 16-bit tensors of ``SIZES`` elements, ``s`` a Python float, ``L`` the
# library.  PyTorch 2.13's CPU rules: mul/div and floor division take a right ``s`` as
# float32 and round once (also the in-place forms and a 0-dim tensor on the right); add/sub/comparisons/clamp/pow/fmod round it
# to the 16-bit type first; add's alpha is rounded, so is its product; lerp's weight and
# addcmul/addcdiv's value are float32 (lerp and addcmul with fused multiply-adds).
PROGRAMS = {
    "t * s": lambda L, t, u, s: t * s,
    "s * t": lambda L, t, u, s: s * t,
    "mul(t, s)": lambda L, t, u, s: L.mul(t, s),
    "t.mul_(s)": lambda L, t, u, s: t.clone().mul_(s),
    "t *= s": lambda L, t, u, s: t.clone().__imul__(s),
    "t / s": lambda L, t, u, s: t / s,
    "true_divide(t, s)": lambda L, t, u, s: L.true_divide(t, s),
    "t.div_(s)": lambda L, t, u, s: t.clone().div_(s),
    "t.true_divide_(s)": lambda L, t, u, s: t.clone().true_divide_(s),
    "s / t": lambda L, t, u, s: s / t,
    "t * tensor(s)": lambda L, t, u, s: t * L.tensor(s),
    "t * tensor(s, float64)": lambda L, t, u, s: t * L.tensor(s, dtype=L.float64),
    "tensor(s) * t": lambda L, t, u, s: L.tensor(s) * t,
    "t / tensor(s)": lambda L, t, u, s: t / L.tensor(s),
    "t.mul_(tensor(s))": lambda L, t, u, s: t.clone().mul_(L.tensor(s)),
    "t + s": lambda L, t, u, s: t + s,
    "t - s": lambda L, t, u, s: t - s,
    "s - t": lambda L, t, u, s: s - t,
    "t.add_(s)": lambda L, t, u, s: t.clone().add_(s),
    "t < s": lambda L, t, u, s: t < s,
    "t == s": lambda L, t, u, s: t == s,
    "add(t, u, alpha=s)": lambda L, t, u, s: L.add(t, u, alpha=s),
    "sub(t, u, alpha=s)": lambda L, t, u, s: L.sub(t, u, alpha=s),
    "t.add_(u, alpha=s)": lambda L, t, u, s: t.clone().add_(u, alpha=s),
    "add(t, 1.5, alpha=s)": lambda L, t, u, s: L.add(t, 1.5, alpha=s),
    "addcmul(value=s)": lambda L, t, u, s: L.addcmul(t, u, t, value=s),
    "addcmul_(value=s)": lambda L, t, u, s: t.clone().addcmul_(u, t, value=s),
    "addcdiv(value=s)": lambda L, t, u, s: L.addcdiv(t, u, t, value=s),
    "lerp(t, u, s)": lambda L, t, u, s: L.lerp(t, u, s),
    "t.lerp_(u, s)": lambda L, t, u, s: t.clone().lerp_(u, s),
    "clamp(t, s, s + 1)": lambda L, t, u, s: L.clamp(t, min=s, max=s + 1),
    "t.clamp_min(s)": lambda L, t, u, s: t.clamp_min(s),
    "masked_fill(s)": lambda L, t, u, s: t.masked_fill(t > 0, s),
    "fmod(t, s)": lambda L, t, u, s: L.fmod(t, s),
    "t // s": lambda L, t, u, s: t // s,
    "t.floor_divide_(s)": lambda L, t, u, s: t.clone().floor_divide_(s),
    "t // tensor(s)": lambda L, t, u, s: t // L.tensor(s),
    "t ** |s|": lambda L, t, u, s: t.abs() ** builtins_abs(s),
    "|s| ** t": lambda L, t, u, s: builtins_abs(s) ** t,
}
#: Transcendental ops: PyTorch's vectorized pow (SLEEF) and NumPy's may round the float32
#: result 1 ulp apart, then round to 16 bits apart: compared to 1 ulp of the 16-bit type.
ULP = {"t ** |s|", "|s| ** t"}


def builtins_abs(s: float) -> float:
    return abs(s) % 4


def _numbers(dtype: str, seed: int) -> list[float]:
    """Random numbers, and numbers at and around the rounding boundaries of ``dtype`` (the
    midpoint of two neighbours, just above and below it, and its float32 neighbours: where
    rounding the number first, or through float32, shows)."""
    rng = np.random.default_rng(seed)
    pt = getattr(torch, dtype)
    out = [float(x) for x in rng.standard_normal(12) * 3]
    for v in rng.standard_normal(12) * 3:
        lo = torch.tensor([v], dtype=pt)
        hi = (lo.view(torch.int16) + 1).view(pt)  # (the next 16-bit value away from zero)
        mid = (float(lo.float()) + float(hi.float())) / 2
        f = np.float32(mid)
        out += [mid, mid * (1 + 1e-12), mid * (1 - 1e-12),
                float(np.nextafter(f, np.float32(np.inf))),
                float(np.nextafter(f, np.float32(-np.inf)))]
    return out + [0.0, -0.0, 1.0, 70000.0, -1e6, 3.4e38, float("inf")]


def _values(r) -> np.ndarray:
    return (r.float() if r.dtype.is_floating_point else r).numpy()


@pytest.mark.parametrize("dtype", HALF_DTYPES)
@pytest.mark.parametrize("name,size", [(n, z) for n in PROGRAMS for z in SIZES
                                       if z < 32 or n not in SCALAR_LOOP_ONLY])
def test_a_number_meets_a_16bit_tensor_as_pytorch(name, size, dtype):
    """Seeded differential test of the one rule for float16 and bfloat16 (bitwise, NaNs
    alike), over random tensors with specials and numbers near the rounding boundaries."""
    program = PROGRAMS[name]
    rng = np.random.default_rng(len(name) * 7 + len(dtype) + size)
    data = (rng.standard_normal((2, size)) * 4).astype(np.float32)
    data[0, :4] = [0.0, -0.0, 65504.0, -1e-7]
    pt_t, pt_u = (torch.from_numpy(x).to(getattr(torch, dtype)) for x in data)
    tv_t, tv_u = (tensorviz.from_numpy(x.copy()).to(getattr(tensorviz, dtype)) for x in data)
    for s in _numbers(dtype, seed=len(name)):
        if name in ULP and not np.isfinite(s):
            continue
        outcomes = []
        for L, t, u in ((torch, pt_t, pt_u), (tensorviz, tv_t, tv_u)):
            try:
                outcomes.append(program(L, t, u, s))
            except Exception as e:  # noqa: BLE001 - compared below
                outcomes.append(e)
        expected, got = outcomes
        if isinstance(expected, Exception) or isinstance(got, Exception):
            assert type(got) is type(expected), (s, got, expected)
            continue
        assert got.dtype.name == str(expected.dtype).split(".")[-1], s
        e, g = _values(expected), _values(got)
        if name in ULP:
            with np.errstate(all="ignore"):  # (the spacing of inf is NaN)
                ulp = np.spacing(e.astype(np.float16 if dtype == "float16" else np.float32))
                ulp = np.abs(ulp.astype(np.float32)) * (2 ** 16 if dtype == "bfloat16" else 1)
                close = (e == g) | (np.isnan(e) & np.isnan(g)) | (np.abs(e - g) <= ulp)
            assert close.all(), (s, np.nonzero(~close)[0][:5])
        else:
            np.testing.assert_array_equal(g, e, err_msg=f"{name} with s={s!r}")


# ---------------------------------------------------------------- result layouts
# Where PyTorch's TensorIterator puts a result: layouts drawn at random (dims in any order,
# stepped, size-1 dims with any stride, broadcast and expanded dims, offsets), operands of
# mixed dtypes (each converted to the common dtype first), Python numbers, and out= tensors
# that are resized (0-dim, empty, another shape) or that fit.
_UNARY = ("asinh", "sin", "exp", "abs", "neg", "isnan", "sqrt", "sign", "frac", "logical_not",
          "bitwise_not", "sigmoid", "angle", "isinf", "isfinite", "signbit", "round", "trunc",
          "reciprocal", "square", "positive", "deg2rad", "rad2deg", "nan_to_num", "sgn",
          "conj_physical", "isreal", "floor", "log1p", "isposinf", "erfc", "sinc", "i0")
_BINARY = ("add", "sub", "mul", "div", "minimum", "maximum", "fmin", "fmax", "nextafter",
           "atan2", "fmod", "remainder", "bitwise_or", "logical_xor", "eq", "lt", "ne",
           "float_power", "pow", "hypot", "copysign", "logaddexp", "xlogy", "gcd",
           "floor_divide", "bitwise_left_shift", "ldexp")
_TERNARY = ("where", "lerp", "addcmul", "addcdiv", "clamp")


def _random_layout(rng, shape=None, expand=True):
    """A random ``(shape, stride, offset)``: up to 4-D, dims dense in a random order or
    stepped, size-1 dims with any stride, some dims expanded (stride 0)."""
    if shape is None:
        sizes = [0, 1, 1, 2, 3, 2, 3] if rng.random() < 0.1 else [1, 1, 2, 3, 2, 3]
        shape = tuple(int(rng.choice(sizes)) for _ in range(rng.choice([0, 1, 2, 2, 3, 3, 4, 4])))
    stride, acc = [0] * len(shape), 1
    for d in rng.permutation(len(shape)):
        step = int(rng.choice([1, 1, 1, 2]))
        stride[d] = acc * step
        acc *= step * max(shape[d], 1)
    for d, n in enumerate(shape):
        if n == 1 and rng.random() < 0.5:
            stride[d] = int(rng.choice([1, 2, 3, 5, 7, 12]))
        if expand and n > 1 and rng.random() < 0.15:
            stride[d] = 0
    return tuple(shape), tuple(stride), int(rng.choice([0, 0, 1]))


def _strided(lib, layout, dtype, seed, conj=False):
    shape, stride, offset = layout
    n = offset + 1 + sum((s - 1) * st for s, st in zip(shape, stride) if s)
    data = np.random.default_rng(seed).integers(-3, 4, size=n).astype(np.float64)
    x = lib.tensor(data).to(getattr(lib, dtype)).as_strided(shape, stride, offset)
    return x.conj() if conj and x.is_complex() else x  # (a lazy conjugate view)


def _broadcastable(rng, shape):
    s = [1 if rng.random() < 0.3 else n for n in shape]
    return tuple(s[rng.integers(0, len(s) + 1):] if rng.random() < 0.3 else s)


def _layout_case(rng, alpha=False):
    """One random call: (name, operand specs, a Python number or None, out spec or None,
    keyword arguments); ``alpha``: add or sub with an alpha."""
    kind = "binary" if alpha else rng.choice(["unary", "binary", "binary", "ternary"])
    name = str(rng.choice(("add", "sub") if alpha else
                          {"unary": _UNARY, "binary": _BINARY, "ternary": _TERNARY}[kind]))
    first = _random_layout(rng)
    specs = [[first, str(rng.choice(DTYPES)), rng.random() < 0.3]]
    for _ in range({"unary": 0, "binary": 1, "ternary": 2}[kind]):
        lay = _random_layout(rng, () if rng.random() < 0.3 else _broadcastable(rng, first[0]))
        if rng.random() < 0.5:  # (the broadcast operand first, as often)
            lay, specs[0][0] = specs[0][0], lay
        specs.append([lay, specs[0][1] if rng.random() < 0.6 else str(rng.choice(DTYPES)),
                      rng.random() < 0.3])
    if name == "where":
        specs[0][1] = "bool" if rng.random() < 0.8 else "uint8"
    number = None
    if kind == "binary" and rng.random() < 0.2:
        number, specs = [2, 1.5, True][rng.integers(0, 3)], specs[:1]
    out = None
    if rng.random() < 0.3:
        shape = [(), (0,), first[0], (2,)][rng.integers(0, 4)]
        out = (_random_layout(rng, shape, expand=False),
               None if rng.random() < 0.5 else str(rng.choice(DTYPES)))
    kwargs = {"alpha": 2} if alpha else {}
    return name, specs, number, out, kwargs


def _layout_outcome(lib, name, specs, number, out, kwargs, seed):
    args = [_strided(lib, lay, dt, seed + j, c) for j, (lay, dt, c) in enumerate(specs)]
    if number is not None:
        args.append(number)
    kwargs = dict(kwargs)
    if out is not None:
        lay, dt = out
        kwargs["out"] = _strided(lib, lay, dt or specs[0][1], seed + 7)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = getattr(lib, name)(*args, **kwargs)
    except Exception as e:  # (errors are compared elsewhere: the layout is the point here)
        return type(e).__name__
    if out is not None:
        assert r is kwargs["out"]
    dt = str(r.dtype).split(".")[-1]
    return tuple(r.shape), tuple(r.stride()), r.storage_offset(), dt


@pytest.mark.parametrize("seed", range(7))
def test_result_layouts_follow_tensoriterator_on_random_layouts(seed):
    """Every elementwise result (and every resized out=) is laid out as PyTorch lays it out:
    contiguous, channels-last or equally dense operands keep that layout, otherwise the dims
    are ordered by the operands' strides, each operand of another dtype taken as its
    converted copy, a lazy conjugate view as its resolved copy (seed 6: add/sub with an
    alpha, laid out from their operands, not from ``alpha * other``)."""
    rng = np.random.default_rng(1410 + seed)
    wrong = []
    for i in range(300):
        case = _layout_case(rng, alpha=seed == 6)
        want = _layout_outcome(torch, *case, seed=1000 * i)
        got = _layout_outcome(tensorviz, *case, seed=1000 * i)
        if isinstance(want, tuple) and isinstance(got, tuple) and want != got:
            wrong.append((case, want, got))
    assert not wrong, f"{len(wrong)} of 300 differ, e.g. {wrong[0]}"


@pytest.mark.parametrize("expr", ["a > a", "a + a", "a.float() * 2", "a.eq(a)"])
def test_a_result_no_memory_holds_is_pytorchs_allocator_error(expr):
    """An elementwise result of 2**42 elements (an expanded operand: 4 TiB and more) is
    PyTorch's RuntimeError from its allocator, never NumPy's MemoryError."""
    a = tensorviz.tensor([6], dtype=tensorviz.int32).expand(2**42)
    with pytest.raises(RuntimeError, match="can't allocate memory"):
        eval(expr)  # noqa: S307


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_alpha_is_one_fused_multiply_add_bit_for_bit(dtype, seed):
    """PyTorch's float add/sub/rsub with alpha is ``fma(alpha, other, input)`` in its vector
    and scalar loops alike: ``alpha * other`` is not rounded on its own (add(1, 1.1,
    alpha=7) is 8.6999998 in float32, not 8.7000008); same bits at every size, with
    broadcasting, in place and for an integer operand promoted.

    # Note: with a Python number for ``other`` PyTorch's vector loop fuses ``alpha *
    # other`` and its scalar loop mixes the two roundings by element; tensorviz rounds the
    # product first there (as before), within an ulp."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(seed)
    n = [5, 40, 1000, 33][seed]
    x, y = rng.normal(size=(2, n)).astype(dtype)
    alpha = [0.3, 7.0, -1e-3, 3][seed]
    got = []
    for lib in (tensorviz, torch):
        a, b = lib.from_numpy(x.copy()), lib.from_numpy(y.copy())
        i = lib.arange(n)
        got.append([r.numpy().view(f"u{x.itemsize}") for r in (
            lib.add(a, b, alpha=alpha), lib.sub(a, b, alpha=alpha), lib.rsub(a, 1.1, alpha=alpha),
            a.clone().add_(b.flip(0), alpha=alpha), a.clone().sub_(b, alpha=alpha),
            lib.add(a[:1], b, alpha=alpha), lib.add(i, b, alpha=alpha))])
    for k, (mine, theirs) in enumerate(zip(*got)):
        np.testing.assert_array_equal(mine, theirs, err_msg=f"case {k}")
