"""Pointwise math: exponentials, logarithms, trigonometry, rounding, special functions,
complex parts, logical ops and softmax, with PyTorch's dtype rules.

Each op maps its input elementwise on the backend's strided array view (NumPy or CuPy)::

    rdt = result dtype (ints/bools -> default float for float functions)
    out[i] = f(x[i] as compute dtype)        # half computes in float32, as PyTorch does

``t.real`` / ``t.imag`` are views of a complex tensor's storage (element stride doubled).
"""
from __future__ import annotations

import builtins
import math

import numpy as np

from .. import _dtypes, _layout
from .._dispatch import found_message, inplace_of, op, store_inplace
from .._dtypes import _COMPLEX, _FLOAT, _INT, result_type
from .._indexing import assign, scalar_to
from .._tensor import Tensor, _contig, _fresh, tensor_xp, tensor_device, wrap_array
from ..backends import backend_for, runs_numpy
from ..backends._numpy import call_quiet, fma
from ._elementwise import (_c_mul_plain, _check_int_zero_division, _check_shapes,
                           _complex_pow, _complex_pow_number, device_of, finish, operand,
                           promote, result_strides)


# ---------------------------------------------------------------- helpers
def _xp(t: Tensor):
    return tensor_xp(t)


def _opmath(dt: "_dtypes.dtype") -> "_dtypes.dtype":
    """The dtype PyTorch computes in: half arithmetic runs in float32, complex32's in
    complex64 (each result part then rounded to float16)."""
    if dt is _dtypes.complex32:
        return _dtypes.complex64
    return _dtypes.float32 if dt in _dtypes.HALVES else dt


def _check_tensor(fname: str, x, arg: str = "input", pos: int = 1) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"{fname}(): argument '{arg}' (position {pos}) must be Tensor, not "
                        f"{type(x).__name__}")


def _not_implemented(kernel: str, dt: "_dtypes.dtype") -> NotImplementedError:
    return NotImplementedError(f"\"{kernel}\" not implemented for '{dt.cname}'")


def _float_result(dt: "_dtypes.dtype") -> "_dtypes.dtype":
    """Integers and bools give the default float dtype; float/complex keep theirs."""
    return dt if dt.category >= _FLOAT else _dtypes._default_dtype


def _as(arr, src_dt, cdt):
    """``arr`` (of dtype ``src_dt``) converted to the compute dtype ``cdt``."""
    if src_dt is cdt:
        return arr
    if src_dt.category == _COMPLEX and cdt.category != _COMPLEX:
        arr = arr.real
    return arr.astype(cdt._np)


_MAP_FAST = (_dtypes.float32, _dtypes.float64)


def _map(x: Tensor, rdt, f, out=None, cdt=None, preserve: bool = False,
         contiguous: bool = False, out_with_number: bool = False) -> Tensor:
    """``out[i] = f(xp, x[i] as cdt)`` wrapped as a fresh tensor of dtype ``rdt`` (or into out).

    ``preserve``: laid out as ``empty_like(x)`` (the ops PyTorch writes into one: a dense
    input keeps its strides exactly, size-1 and empty dims included), not as TensorIterator
    lays out an elementwise result; ``contiguous``: row-major (the ops PyTorch computes into
    an empty ``out=`` of its own). An integer input of a float op is converted first, as
    PyTorch's TensorIterator converts it (see ``result_strides``).  An ``out=`` of another
    shape is resized as TensorIterator lays out the result (``out_with_number``: of x and a
    number, as ``mul_out(out, x, number)``), whatever the functional form's layout.
    """
    if out is None and cdt is None and x._dtype is rdt and rdt in _MAP_FAST:
        # (fast path: a row-major CPU float32/float64 input computed in its own dtype -- the
        # general path below would give this result the same row-major layout)
        src = x._a
        if type(src) is np.ndarray and x._stride == _contig(x._shape):
            res = call_quiet(f, np, src)
            if type(res) is not np.ndarray and isinstance(res, np.generic):
                res = np.asarray(res)  # (a 0-d input's result)
            if type(res) is np.ndarray and res.base is None and res.dtype is rdt._np and \
                    res.flags.c_contiguous and res.shape == x._shape:  # (a new array)
                return _fresh(rdt, x._shape, x._stride, res)
    xp = _xp(x)
    cdt = _opmath(rdt) if cdt is None else cdt
    src = x._arr
    arr = _as(src, x._dtype, cdt)
    res = call_quiet(f, xp, arr)
    if res is src:
        res = res.copy()
    # (laid out as PyTorch's TensorIterator lays out an elementwise result, not as NumPy's
    # casts order a broadcast input)
    if contiguous:
        stride = _layout.contiguous_strides(res.shape)
    elif preserve and out is None:
        stride = _layout.preserve_strides(x._shape, x._stride)
    else:
        # (an input of a lower category is converted first: int to float, bool to int64)
        common = rdt if x._dtype.category < rdt.category else None
        stride = result_strides(res.shape, x, *((1.0,) if out_with_number else ()),
                                common=common)
    return finish(res, rdt, tensor_device(x), out, stride, (x,))


# (``reductions`` imports this name for cumsum_/cumprod_ until it moves to the registry)
_store = store_inplace


# ---------------------------------------------------------------- erf / erfc
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _erf_parts(xp, x):
    """``(erf(|x|), erfc(|x|))`` in float64: a power series below 1.5, a continued fraction
    above (both accurate to a few ulps), each computed on its own elements only, the
    fraction with as many terms as its smallest argument needs.

    series:  erf(x)  = 2/sqrt(pi) exp(-x^2) sum_n 2^n x^(2n+1) / (2n+1)!!   (all terms > 0)
    fraction: erfc(x) = exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))
    """
    ax = xp.abs(x)
    small = ax < 1.5
    erf_abs = xp.empty_like(ax)
    erfc_abs = xp.empty_like(ax)
    if small.any():
        xs = ax[small]
        term = xs.copy()
        total = xs.copy()
        two_x2 = 2.0 * xs * xs
        for n in range(1, 32):
            term = term * two_x2 / (2 * n + 1)
            total = total + term
        e = _TWO_OVER_SQRT_PI * xp.exp(-xs * xs) * total
        erf_abs[small] = e
        erfc_abs[small] = 1.0 - e
    large = ~small
    if large.any():
        xl = ax[large]
        xl = xp.where(xp.isfinite(xl), xl, 1e300)  # (inf and NaN: callers mark NaN)
        lo = float(xl.min())
        # (the fraction converges faster the larger x is: 120 terms at 1.5, 40 from 3)
        terms = 120 if lo < 3 else 40 if lo < 6 else 16
        frac = xl.copy()
        for k in range(terms, 0, -1):
            frac = xl + (k / 2.0) / frac
        c = xp.exp(-xl * xl) / (math.sqrt(math.pi) * frac)
        erf_abs[large] = 1.0 - c
        erfc_abs[large] = c
    return erf_abs, erfc_abs


# Abramowitz and Stegun 7.1.26 (absolute error 1.5e-7), the constants of PyTorch's
# Vectorized<float>::erf: t = 1 / (1 + p|x|), erf(|x|) = 1 - t (p1 + t (p2 + ... p5 t)) e^(-x^2)
_ERF_AS = (0.3275911, 1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)


def _erf_half(xp, a):
    """erf of float16/bfloat16 as PyTorch's CPU kernel gives it: A&S 7.1.26 in float32 with
    fused multiply-adds (``a``: the values in float32; the caller rounds to the dtype).

    Note: PyTorch computes half and bfloat16 erf by this approximation (float32 and float64
    are accurate), so tiny inputs lose everything: erf(-1e-30) in bfloat16 is -0.0 there, not
    -1.13e-30; tensorviz gives PyTorch's values (checked against every float16 and bfloat16
    value), as code that bins or compares them (histc, sign) sees them.
    """
    x = a
    p, p5, p4, p3, p2, p1 = (np.float32(c) for c in _ERF_AS)
    t = np.float32(1) / fma(xp.abs(x), p, np.float32(1))
    r = fma(t, p5, p4)
    for c in (p3, p2, p1):
        r = fma(r, t, c)
    e = xp.exp(-(x * x).astype(np.float64)).astype(np.float32)  # (correctly rounded, as Sleef's)
    return xp.copysign(fma(-e * t, r, np.float32(1)), x)


def _erf(xp, a):
    x = a.astype(np.float64)
    e, _ = _erf_parts(xp, x)
    r = xp.copysign(e, x)  # (odd: erf(-0.0) is -0.0, so 1 / erf(-0.0) is -inf)
    return xp.where(xp.isnan(x), x, r).astype(a.dtype)


def _erfc(xp, a):
    x = a.astype(np.float64)
    _, c = _erf_parts(xp, x)
    r = xp.where(x < 0, 2.0 - c, c)
    return xp.where(xp.isnan(x), x, r).astype(a.dtype)


# ---------------------------------------------------------------- unary float functions
def _float_unary(name: str, f, *, complex_ok: bool = True, kernel: str | None = None,
                 complex_error=None, preserve: bool = False, half=None):
    """A function that gives floats (ints and bools promote to the default float dtype);
    ``half``: the function for a float16/bfloat16 result, where PyTorch's kernel differs;
    ``preserve``: laid out as ``empty_like(input)`` (see ``_map``), its ``out=`` form
    PyTorch's ``mul_out(out, input, number)``."""
    def body(input, *, out=None) -> Tensor:
        _check_tensor(name, input)
        dt = input._dtype
        if dt.category == _COMPLEX and not complex_ok:
            if complex_error is not None:
                raise complex_error
            raise _not_implemented(kernel or f"{name}_cpu", dt)
        rdt = _float_result(dt)
        fn = half if half is not None and rdt in _dtypes.HALVES else f
        return _map(input, rdt, fn, out, preserve=preserve,
                    out_with_number=preserve)
    body.__name__ = body.__qualname__ = name
    body.__doc__ = (f"``{name}`` elementwise; integer and bool inputs give the default float "
                  "dtype.")
    return body


def _rsqrt(xp, a):
    return 1 / xp.sqrt(a)


def _sigmoid(xp, a):
    return 1 / (1 + xp.exp(-a))


def _exp2(xp, a):
    if a.dtype.kind == "c":
        # (as PyTorch: exp(ln 2 * z) with ln 2 scaling each part; a complex product would
        # turn -inf-inf j into nan, which exp keeps)
        scaled = xp.empty_like(a)
        scaled.real = a.real * a.real.dtype.type(math.log(2.0))
        scaled.imag = a.imag * a.real.dtype.type(math.log(2.0))
        return xp.exp(scaled)
    return xp.exp2(a)


def _deg2rad(xp, a):
    return a * a.dtype.type(math.pi / 180.0)


def _rad2deg(xp, a):
    return a * a.dtype.type(180.0 / math.pi)


# (every one has ``Tensor.<name>_`` and ``tensorviz.<name>_``)
# Note: float32 results are NumPy's float32 functions, within an ulp or two of PyTorch's
# (whose own vectorized and one-by-one loops differ from each other too); computing them in
# float64 and rounding would match more often but costs 5 to 25 times the time.
_unary_op = op(inplace=True, inplace_function=True)
exp = _unary_op(_float_unary("exp", lambda xp, a: xp.exp(a)))
exp2 = op(inplace=True, inplace_function=True, also=("special.exp2",))(
    _float_unary("exp2", _exp2))
expm1 = op(inplace=True, inplace_function=True, also=("special.expm1",))(
    _float_unary("expm1", lambda xp, a: xp.expm1(a)))
log = _unary_op(_float_unary("log", lambda xp, a: xp.log(a)))
log2 = _unary_op(_float_unary("log2", lambda xp, a: xp.log2(a)))
log10 = _unary_op(_float_unary("log10", lambda xp, a: xp.log10(a)))
log1p = op(inplace=True, inplace_function=True, also=("special.log1p",))(
    _float_unary("log1p", lambda xp, a: _clog1p(xp, a) if a.dtype.kind == "c" else xp.log1p(a)))
sqrt = _unary_op(_float_unary("sqrt", lambda xp, a: xp.sqrt(a)))
rsqrt = _unary_op(_float_unary("rsqrt", _rsqrt))
sin = _unary_op(_float_unary("sin", lambda xp, a: xp.sin(a)))
cos = _unary_op(_float_unary("cos", lambda xp, a: xp.cos(a)))
tan = _unary_op(_float_unary("tan", lambda xp, a: xp.tan(a)))
asin = op(aliases=("arcsin",), inplace=True, inplace_function=True)(
    _float_unary("asin", lambda xp, a: xp.arcsin(a)))
# Note: complex acos(x + 0j) with |x| <= 1 is acos(x) - 0j, as C99 (Annex G) and NumPy define it
# and PyTorch's complex64 gives; PyTorch's complex128 gives + 0j (the other side of a later
# branch cut).
acos = op(aliases=("arccos",), inplace=True, inplace_function=True)(
    _float_unary("acos", lambda xp, a: xp.arccos(a)))
atan = op(aliases=("arctan",), inplace=True, inplace_function=True)(
    _float_unary("atan", lambda xp, a: xp.arctan(a)))
sinh = _unary_op(_float_unary("sinh", lambda xp, a: xp.sinh(a)))
cosh = _unary_op(_float_unary("cosh", lambda xp, a: xp.cosh(a)))
tanh = _unary_op(_float_unary("tanh", lambda xp, a: xp.tanh(a)))
asinh = op(aliases=("arcsinh",), inplace=True, inplace_function=True)(
    _float_unary("asinh", lambda xp, a: xp.arcsinh(a)))
acosh = op(aliases=("arccosh",), inplace=True, inplace_function=True)(
    _float_unary("acosh", lambda xp, a: xp.arccosh(a)))
atanh = op(aliases=("arctanh",), inplace=True, inplace_function=True)(
    _float_unary("atanh", lambda xp, a: xp.arctanh(a)))
sigmoid = op(inplace=True, inplace_function=True, also=("special.expit",))(
    _float_unary("sigmoid", _sigmoid))
reciprocal = _unary_op(_float_unary("reciprocal", lambda xp, a: 1 / a))
erf = op(inplace=True, inplace_function=True, also=("special.erf",))(
    _float_unary("erf", _erf, complex_ok=False, kernel="erf_vml_cpu", half=_erf_half))
erfc = op(inplace=True, inplace_function=True, also=("special.erfc",))(
    _float_unary("erfc", _erfc, complex_ok=False, kernel="erfc_vml_cpu"))
deg2rad = _unary_op(_float_unary("deg2rad", _deg2rad, complex_ok=False, preserve=True,
                                 complex_error=RuntimeError(
                                     "deg2rad is not supported for complex tensors.")))
rad2deg = _unary_op(_float_unary("rad2deg", _rad2deg, complex_ok=False, preserve=True,
                                 complex_error=RuntimeError(
                                     "rad2deg is not supported for complex tensors.")))


@op(inplace=True, inplace_function=True, also=("special.logit",))
def logit(input: Tensor, eps: float | None = None, *, out=None) -> Tensor:
    """``log(x / (1 - x))``, with ``x`` first clamped to ``[eps, 1 - eps]`` when eps is given."""
    _check_tensor("logit", input)
    if input._dtype.category == _COMPLEX:
        raise _not_implemented("logit_cpu", input._dtype)

    # (PyTorch computes a 16-bit float's logit in its own dtype, each step rounded: eps, 1 - eps
    # (a bfloat16 logit(1.5, 1e-3) clamps to 1 and is inf), 1 - x and x / (1 - x); a negative
    # eps clamps nothing)
    st = input._dtype._np.type if input._dtype.category == _FLOAT else None
    half = input._dtype in _dtypes.HALVES

    def f(xp, a):
        if eps is not None and eps >= 0:
            e = (st or a.dtype.type)(eps)
            lo, hi = a.dtype.type(e), a.dtype.type(e.dtype.type(1) - e)
            a = xp.where(a < lo, lo, xp.where(a > hi, hi, a))
        if half:
            d = (1 - a).astype(st).astype(a.dtype)
            return xp.log((a / d).astype(st).astype(a.dtype))
        return xp.log(a / (1 - a))
    return _map(input, _float_result(input._dtype), f, out)


# ---------------------------------------------------------------- dtype-keeping functions
@op(inplace=True, out="exact", out_message=found_message)
def sign(input: Tensor, *, out=None) -> Tensor:
    """-1, 0 or +1 by sign (NaN gives 0, as in PyTorch); bools stay bools."""
    _check_tensor("sign", input)
    dt = input._dtype
    if dt.category == _COMPLEX:
        raise NotImplementedError("Unlike NumPy, torch.sign is not intended to support complex "
                                  "numbers. Please use torch.sgn instead.")
    if dt is _dtypes.bool:
        return _map(input, dt, lambda xp, a: a.copy(), out)

    def f(xp, a):
        # Note: (0 < x) - (x < 0), so NaN gives 0 where NumPy's sign gives NaN.
        return (a > 0).astype(a.dtype) - (a < 0).astype(a.dtype)
    return _map(input, dt, f, out)


@op(inplace=True, out="exact", out_message=found_message)
def sgn(input: Tensor, *, out=None) -> Tensor:
    """``x / |x|`` for complex (0 at 0); ``sign`` otherwise."""
    _check_tensor("sgn", input)
    if input._dtype.category != _COMPLEX:
        return sign(input, out=out)

    def f(xp, a):
        # Note: each part divided by |x|, as PyTorch's vector loop (its one-by-one loop, which
        # takes the last elements of a tensor, divides by |x| as a complex number: 1 / |x|
        # overflows for a subnormal x, giving inf+nan j)
        m = xp.abs(a)
        m1 = xp.where(m == 0, m.dtype.type(1), m)
        r = xp.empty_like(a)
        r.real = xp.where(m == 0, 0, a.real / m1)
        r.imag = xp.where(m == 0, 0, a.imag / m1)
        return r
    return _map(input, input._dtype, f, out)


@op(inplace=True, inplace_function=True)
def square(input: Tensor, *, out=None) -> Tensor:
    """``x * x``; bools give int64."""
    _check_tensor("square", input)
    dt = _dtypes.int64 if input._dtype is _dtypes.bool else input._dtype
    if dt.category == _COMPLEX:
        # Note: x * x with each product rounded, as PyTorch's vector loop (its one-by-one
        # loop, which takes the last elements, fuses ac - bd: (3.4e38+3.4e38j) ** 2 has the
        # real part -5.6e60 there, exactly 0 here)
        return _map(input, dt, lambda xp, a: _c_mul_plain(xp, a, a), out)
    return _map(input, dt, lambda xp, a: a * a, out)


@op(inplace=True, inplace_function=True)
def relu(input: Tensor) -> Tensor:
    """``max(x, 0)`` keeping the dtype."""
    _check_tensor("relu", input)
    dt = input._dtype
    if dt is _dtypes.bool:
        raise RuntimeError("Boolean inputs not supported for relu")
    if dt.category == _COMPLEX:
        raise NotImplementedError("clamp is not supported for complex types")

    def f(xp, a):
        if a.dtype.kind != "f":
            return xp.where(a > 0, a, a.dtype.type(0))
        return relu_values(xp, a)
    return _map(input, dt, f)


_TIES: dict = {}  # (array module, dtype) -> does maximum(0, x) give x on a tie?


def relu_values(xp, a):
    """``relu`` of a float array as PyTorch computes it: ``std::max(x, 0)``, which keeps ``x``
    on a tie (``relu(-0.0)`` is -0.0) and keeps NaN.

    >>> relu_values(np, np.array([-0.0, -1.0, np.nan, 2.0]))   # [-0., 0., nan, 2.]
    """
    r = xp.maximum(a.dtype.type(0), a)  # (NaN kept)
    key = (xp, a.dtype)
    ties = _TIES.get(key)
    if ties is None:  # (NumPy's SIMD maximum gives its second operand on a tie: x itself;
        # other loops and other array modules may give the first)
        z = xp.full(17, -0.0, a.dtype)
        ties = _TIES[key] = builtins.bool(xp.signbit(xp.maximum(a.dtype.type(0), z)).all())
    return r if ties else xp.where(a == 0, a, r)


def _rounding(name: str, fn_name: str, kernel: str, complex_msg: str | None):
    def body(input, *, out=None) -> Tensor:
        _check_tensor(name, input)
        dt = input._dtype
        if dt is _dtypes.bool:
            raise _not_implemented(kernel, dt)
        if dt.category == _COMPLEX:
            if complex_msg:
                raise NotImplementedError(complex_msg)
            raise _not_implemented(kernel, dt)
        if dt.category == _INT:
            return _map(input, dt, lambda xp, a: a.copy(), out)
        return _map(input, dt, lambda xp, a: getattr(xp, fn_name)(a), out)
    body.__name__ = body.__qualname__ = name
    body.__doc__ = f"``{name}`` elementwise; integer tensors are returned unchanged (a copy)."
    return body


_rounding_op = op(inplace=True, inplace_function=True, out="exact", out_message=found_message)
floor = _rounding_op(_rounding("floor", "floor", "floor_vml_cpu",
                               "floor is not supported for complex inputs"))
ceil = _rounding_op(_rounding("ceil", "ceil", "ceil_vml_cpu",
                              "ceil is not supported for complex inputs"))
trunc = op(aliases=("fix",), inplace=True, inplace_function=True, out="exact",
           out_message=found_message)(_rounding(
    "trunc", "trunc", "trunc_vml_cpu", "trunc is not supported for complex inputs"))
_round0 = _rounding("round", "rint", "round_vml_cpu", None)


@op(inplace=True, inplace_function=True, out="exact", out_message=found_message)
def round(input: Tensor, *, decimals: int | None = None, out=None) -> Tensor:
    """Round half to even; ``decimals`` rounds to that many decimal places (negative: tens)."""
    if decimals is None:
        return _round0(input, out=out)
    if not isinstance(decimals, (builtins.int, np.integer)) or isinstance(decimals, builtins.bool):
        raise TypeError(f"round(): argument 'decimals' must be int, not "
                        f"{type(decimals).__name__}")
    if not -2**63 <= decimals < 2**63:
        raise ValueError("Overflow when unpacking long long")
    _check_tensor("round", input)
    dt = input._dtype
    if dt.category != _FLOAT:
        # Note: PyTorch refuses integer input as soon as `decimals` is given, even 0
        raise _not_implemented("round_vml_cpu" if decimals == 0 or dt.category == _COMPLEX
                               else "round_cpu", dt)
    if decimals == 0:
        return _round0(input, out=out)
    neg = decimals < 0
    ten_pow = 10.0 ** builtins.abs(decimals)

    def f(xp, a):
        p = a.dtype.type(ten_pow)
        return xp.rint(a / p) * p if neg else xp.rint(a * p) / p
    return _map(input, dt, f, out)


@op(inplace=True, inplace_function=True, out="exact", out_message=found_message)
def frac(input: Tensor, *, out=None) -> Tensor:
    """``x - trunc(x)``: the fractional part, with the sign of x (floats only)."""
    _check_tensor("frac", input)
    if input._dtype.category != _FLOAT:
        raise _not_implemented("frac_cpu", input._dtype)
    return _map(input, input._dtype, lambda xp, a: a - xp.trunc(a), out)


def _nan_to_num_message(res, out) -> str:
    return (f"nan_to_num: dtype of out: {out._dtype.cname} should be same as input: "
            f"{res._dtype.cname}")


def _ti_out_strides(res, input, *args, **kwargs) -> tuple:
    """The strides of an ``out=`` resized by PyTorch's TensorIterator over ``input`` alone
    (the out= form of the ops whose functional form computes into ``empty_like(input)``)."""
    return result_strides(res._shape, input)


def _nan_to_num_out_strides(res, input, *args, **kwargs) -> tuple | None:
    # (an integer input is copied into an out= resized row-major: PyTorch's resize_output)
    return None if input._dtype.category < _FLOAT else _ti_out_strides(res, input)


@op(inplace_function=True, out="exact", out_message=_nan_to_num_message,
    out_stride=_nan_to_num_out_strides)
def nan_to_num(input: Tensor, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None, *, out=None) -> Tensor:
    """Replace NaN by ``nan`` and infinities by ``posinf``/``neginf`` (default: dtype limits)."""
    _check_tensor("nan_to_num", input)
    for arg, v in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        if v is not None and not isinstance(v, (builtins.int, builtins.float, np.number)):
            raise TypeError(f"nan_to_num(): argument '{arg}' must be float, not "
                            f"{type(v).__name__}")
    dt = input._dtype
    if dt.category < _FLOAT:  # (as PyTorch: into empty_like(input), see _map)
        return _map(input, dt, lambda xp, a: a.copy(), out, preserve=True)
    real = dt.to_real()
    info = _dtypes.np_finfo(real._np)
    # (Python ints past the float range of NumPy's conversion: as floats, as PyTorch reads them)
    nan, posinf, neginf = (builtins.float(v) if isinstance(v, builtins.int) else v
                           for v in (nan, posinf, neginf))
    vals = [call_quiet(scalar_to, v, real) for v in (nan, info.max if posinf is None else posinf,
                                         info.min if neginf is None else neginf)]

    def fix_real(xp, a):  # (masks from the input: a replacement may itself be inf)
        nan_, pos, neg_ = xp.isnan(a), a == np.inf, a == -np.inf
        a = xp.where(nan_, vals[0], a)
        a = xp.where(pos, vals[1], a)
        return xp.where(neg_, vals[2], a)

    def f(xp, a):
        if a.dtype.kind == "c":  # (part by part: re + 1j * im would turn an imaginary -0 to +0)
            r = xp.empty_like(a)
            r.real, r.imag = fix_real(xp, a.real), fix_real(xp, a.imag)
            return r
        return fix_real(xp, a)
    # Note: computed in the tensor's own dtype (not float32 for half) so limits stay exact.
    return _map(input, dt, f, out, cdt=dt, preserve=True)


@inplace_of(nan_to_num)
def nan_to_num_(self: Tensor, nan: float = 0.0, posinf=None, neginf=None) -> Tensor:
    """In-place ``nan_to_num``; integer and bool tensors are left untouched (no checks)."""
    _check_tensor("nan_to_num_", self)
    if self._dtype.category < _FLOAT:
        return self
    return store_inplace(self, nan_to_num(self, nan, posinf, neginf))


# ---------------------------------------------------------------- predicates (bool results)
def _predicate(name: str, f, *, complex_error=None, complex_f=None, nonfloat=None,
               with_out: bool = False, like_input: bool = False, parts=None,
               float_vs_scalar: bool = False):
    """``like_input``: where ``nonfloat`` answers (no element looked at), the result is laid
    out as ``ones_like(input)``, as PyTorch makes it (see ``_map``). ``parts``: the operands
    PyTorch's complex form computes from (``isreal``: ``imag(x) == 0``), each ``"part"`` (a
    real/imag view, strides doubled) or ``"scalar"``, for the layout of the result."""
    def body(input, **kwargs) -> Tensor:
        _check_tensor(name, input)
        out = kwargs.pop("out", None) if with_out else None
        if kwargs:
            raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if out is not None and isinstance(out, Tensor) and out._dtype is not _dtypes.bool:
            raise RuntimeError(f"{name} does not support non-boolean outputs.")
        dt = input._dtype
        if dt.category == _COMPLEX:
            if complex_error is not None:
                raise complex_error
            g = complex_f or f
        elif dt.category < _FLOAT and nonfloat is not None:
            g = nonfloat
        else:
            g = f
        if parts and dt.category == _COMPLEX and out is None:
            res = _map(input, _dtypes.bool, g, None, cdt=dt)
            stride = _layout.elementwise_strides(input._shape, [
                (input._shape, tuple(2 * s for s in input._stride)) if p == "part" else
                ((), ()) for p in parts])
            if float_vs_scalar:  # (isinf of the real part: abs(part) == inf, two steps)
                sh = input._shape
                stride = _layout.elementwise_strides(sh, [(sh, stride), ((), ())])
            return res if res._stride == stride else \
                wrap_array(res._arr, _dtypes.bool, res.device, stride)
        res = _map(input, _dtypes.bool, g, out, cdt=dt, preserve=like_input and g is nonfloat)
        if name == "isfinite" and out is None and g is not nonfloat:
            stride = _finite_strides(input._shape, input._stride, dt.category == _COMPLEX)
            if res._stride != stride:
                res = wrap_array(res._arr, _dtypes.bool, res.device, stride)
            return res
        if float_vs_scalar and g is f and out is None and dt.category == _FLOAT:
            # PyTorch computes it as ``abs(x) == inf``: laid out as a comparison of x's
            # elementwise result with a scalar (they differ for empty results)
            sh = input._shape
            unary = _layout.elementwise_strides(sh, [(sh, input._stride)])
            stride = _layout.elementwise_strides(sh, [(sh, unary), ((), ())])
            if res._stride != stride:
                res = wrap_array(res._arr, _dtypes.bool, res.device, stride)
        return res
    body.__name__ = body.__qualname__ = name
    body.__doc__ = f"Elementwise ``{name}``; returns a bool tensor."
    return body


def _finite_strides(sh: tuple, st: tuple, is_complex: bool) -> tuple:
    """The strides of PyTorch's composite ``isfinite``: ``(x == x) * (x.abs() != inf)``, for
    a complex ``x`` that of its real part (a view with doubled strides), ``&=`` the imaginary
    part's.  (They differ from a plain elementwise result at size-1 dims.)"""
    if is_complex:
        st = tuple(2 * s for s in st)
    ew = _layout.elementwise_strides
    same = ew(sh, [(sh, st), (sh, st)])
    finite = ew(sh, [(sh, ew(sh, [(sh, st)])), ((), ())])
    return ew(sh, [(sh, same), (sh, finite)])


def _all_false(xp, a):
    return xp.zeros(a.shape, dtype=bool)


def _all_true(xp, a):
    return xp.ones(a.shape, dtype=bool)


_predicate_op = op()
isnan = _predicate_op(_predicate("isnan", lambda xp, a: xp.isnan(a), nonfloat=_all_false))
isinf = _predicate_op(_predicate("isinf", lambda xp, a: xp.isinf(a), nonfloat=_all_false,
                                 like_input=True, parts=("part",), float_vs_scalar=True))
isfinite = _predicate_op(_predicate("isfinite", lambda xp, a: xp.isfinite(a),
                                    nonfloat=_all_true, like_input=True))
isposinf = _predicate_op(_predicate(
    "isposinf", lambda xp, a: a == np.inf, nonfloat=_all_false, with_out=True,
    complex_error=RuntimeError("isposinf does not support complex inputs.")))
isneginf = _predicate_op(_predicate(
    "isneginf", lambda xp, a: a == -np.inf, nonfloat=_all_false, with_out=True,
    complex_error=RuntimeError("isneginf does not support complex inputs.")))
isreal = _predicate_op(_predicate("isreal", _all_true, complex_f=lambda xp, a: a.imag == 0,
                                  nonfloat=_all_true, like_input=True,
                                  parts=("part", "scalar")))
signbit = _predicate_op(_predicate(
    "signbit", lambda xp, a: xp.signbit(a), nonfloat=lambda xp, a: a < 0, with_out=True,
    complex_error=NotImplementedError("signbit is not implemented for complex tensors.")))


@op(inplace=True)
def logical_not(input: Tensor, *, out=None) -> Tensor:
    """``not x`` elementwise (nonzero is true); a bool tensor."""
    _check_tensor("logical_not", input)
    return _map(input, _dtypes.bool, lambda xp, a: xp.logical_not(a), out, cdt=input._dtype)


# ---------------------------------------------------------------- complex numbers
def _real_view(t: Tensor, part: int) -> Tensor:
    rdt = t._dtype.to_real()
    v = t._view(t._shape, tuple(s * 2 for s in t._stride), t._offset * 2 + part, rdt)
    v._cj = t._cj and part == 1  # (a conjugate view's imaginary part is a negative view)
    return v


def real(input: Tensor) -> Tensor:
    """The real part: a VIEW of a complex tensor (writes go through); real tensors: itself."""
    _check_tensor("real", input)
    if input._dtype.category != _COMPLEX:
        return input
    return _real_view(input, 0)


def imag(input: Tensor) -> Tensor:
    """The imaginary part: a VIEW of a complex tensor (RuntimeError for real tensors)."""
    _check_tensor("imag", input)
    if input._dtype.category != _COMPLEX:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return _real_view(input, 1)


def _set_real(self: Tensor, value) -> None:
    assign(real(self), value)


def _set_imag(self: Tensor, value) -> None:
    assign(imag(self), value)


op(method="property", setter=_set_real, view=True)(real)
op(method="property", setter=_set_imag, view=True)(imag)


@op(method=False, view=True)
def view_as_real(input: Tensor) -> Tensor:
    """A complex tensor seen as real pairs: shape ``(*shape, 2)``, a view."""
    _check_tensor("view_as_real", input)
    if input._dtype.category != _COMPLEX:
        raise RuntimeError("view_as_real is only supported for complex tensors")
    if input._cj:
        raise RuntimeError("view_as_real doesn't work on unresolved conjugated tensors.  To "
                           "resolve the conjugate tensor so you can view it as real, use "
                           "self.resolve_conj(); however, be warned that the resulting tensor "
                           "will NOT alias the original.")
    return input._view(input._shape + (2,), tuple(s * 2 for s in input._stride) + (1,),
                       input._offset * 2, input._dtype.to_real())


@op(method=False, view=True)
def view_as_complex(input: Tensor) -> Tensor:
    """Real pairs (last dim of size 2, stride 1) seen as a complex tensor, a view."""
    _check_tensor("view_as_complex", input)
    dt = input._dtype
    if dt not in (_dtypes.float16, _dtypes.float32, _dtypes.float64):
        raise RuntimeError("view_as_complex is only supported for half, float and double "
                           "tensors, but "
                           f"got a tensor of scalar type: {dt.cname}")
    if not input._shape or input._shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if input._stride[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in input._stride[:-1]) or input._offset % 2:
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    return input._view(input._shape[:-1], tuple(s // 2 for s in input._stride[:-1]),
                       input._offset // 2, dt.to_complex())


@op()
def angle(input: Tensor, *, out=None) -> Tensor:
    """The argument of complex numbers; for reals 0 (x >= 0) or pi (x < 0), NaN kept."""
    _check_tensor("angle", input)
    dt = input._dtype
    if dt.category == _COMPLEX:
        # (PyTorch computes into an empty out= tensor of its own, then resizes a real out=:
        # row-major; a complex out= is TensorIterator's)
        return _map(input, dt.to_real(), lambda xp, a: xp.angle(a), out, cdt=dt,
                    contiguous=not (isinstance(out, Tensor) and out._dtype.category == _COMPLEX))

    def f(xp, a):
        r = xp.where(a < 0, a.dtype.type(math.pi), a.dtype.type(0))
        return xp.where(xp.isnan(a), a, r)
    return _map(input, _float_result(dt), f, out)


@op(inplace=True, inplace_function=True, out="exact", out_message=found_message,
    out_stride=_ti_out_strides)
def conj_physical(input: Tensor, *, out=None) -> Tensor:
    """The complex conjugate, computed into a new tensor (a real tensor without ``out=`` is
    returned itself, as PyTorch does)."""
    _check_tensor("conj_physical", input)
    if input._dtype.category != _COMPLEX:
        if out is None:
            return input
        return _map(input, input._dtype, lambda xp, a: a.copy(), out, cdt=input._dtype)
    return _map(input, input._dtype, lambda xp, a: xp.conj(a), out, preserve=True)


@op(view=True)
def conj(input: Tensor) -> Tensor:
    """The complex conjugate as a lazy VIEW, as in PyTorch: it shares ``input``'s memory and
    only flips the conjugate bit (``is_conj()``), so writes to either show in both; a real
    tensor is returned itself. ``resolve_conj()`` (or ``conj_physical``) computes a copy.

    >>> z = tensor([1+2j]); c = z.conj(); c.is_conj(), c      # (True, tensor([1.-2.j]))
    """
    _check_tensor("conj", input)
    if input._dtype.category != _COMPLEX:
        return input
    v = input._view(input._shape, input._stride, input._offset)
    v._cj = not input._cj
    return v


@op()
def is_conj(input: Tensor) -> bool:
    """Whether ``input`` is a lazy conjugate view (``conj()``, ``.H``, ``.mH``, ``adjoint()``)
    whose memory holds the conjugates of its values.

    >>> tensor([1j]).conj().is_conj()       # True
    """
    return input._cj and input._dtype.category == _COMPLEX


@op()
def resolve_conj(input: Tensor) -> Tensor:
    """A lazy conjugate view's values computed into a new tensor (``is_conj()`` False,
    same strides when dense); any other tensor is returned itself.

    >>> z.conj().resolve_conj()             # a new tensor holding the conjugates
    """
    if not is_conj(input):
        return input
    return _materialize(input)


@op()
def resolve_neg(input: Tensor) -> Tensor:
    """A lazy negative view's values (``z.conj().imag``) computed into a new tensor; any
    other tensor is returned itself.

    >>> tensor([1+2j]).conj().imag.resolve_neg()     # tensor([-2.]), is_neg() False
    """
    if not is_neg(input):
        return input
    return _materialize(input)


@op()
def is_neg(input: Tensor) -> bool:
    """Whether ``input`` is a lazy negative view (the imaginary part of a conjugate view),
    whose memory holds the negations of its values.

    >>> tensor([1+2j]).conj().imag.is_neg()          # True
    """
    return input._cj and input._dtype.category != _COMPLEX


def _materialize(input: Tensor) -> Tensor:
    stride = _layout.preserve_strides(input._shape, input._stride)
    return wrap_array(input._arr.copy(), input._dtype, input._storage._device, stride)


# ---------------------------------------------------------------- binary functions
def _binary_prep(fname: str, a, b, *, tensors_only: bool = True):
    """Check argument kinds and return ``(promoted dtype, device)``."""
    if tensors_only:
        _check_tensor(fname, a)
        _check_tensor(fname, b, "other", 2)
    elif not isinstance(a, Tensor):  # (Tensor input, Number other) only
        raise TypeError(f"{fname}() received an invalid combination of arguments - got "
                        f"({type(a).__name__}, {type(b).__name__}), but expected one of: "
                        "(Tensor input, Tensor other), (Tensor input, Number other)")
    return promote(a, b), device_of(a, b)


def _half_operand(x, rdt, cdt, dev):
    """``operand(x, cdt, dev)``, but for a half result (computed in float32) ``x`` first as
    the half it becomes, as PyTorch's TensorIterator casts every operand to the common dtype:
    an int32 2147483646 or a number 2**63 - 1 is inf in float16 (xlogy, hypot, addcmul).

    >>> _half_operand(2**63 - 1, _dtypes.float16, _dtypes.float32, None)
    np.float32(inf)
    """
    if rdt not in _dtypes.HALVES or cdt is rdt:
        return operand(x, cdt, dev)
    if isinstance(x, Tensor):
        if x._dtype is rdt:
            return operand(x, cdt, dev)
        return call_quiet(operand(x, rdt, dev).astype, cdt._np)
    if isinstance(x, (builtins.bool, builtins.int, builtins.float, np.number)) and \
            not isinstance(x, (builtins.complex, np.complexfloating)):
        # (a number: to float32, then to the half, as c10 converts it)
        return cdt._np.type(_dtypes.half_rounded(x, rdt))
    return operand(x, cdt, dev)


def _compute2(f, a, b, cdt, rdt, dev, out, common=None, stride=None):
    """``f(xp, a, b)`` on both operands as ``cdt`` (quietly), stored as ``rdt`` with the
    elementwise strides (or into ``out``): the body of every two-operand op built on a
    custom array function.  ``common``: the dtype PyTorch computes in, its inputs of another
    dtype converted first (see ``result_strides``; by default ``rdt``); ``stride``: the
    result's strides, where the op's own composition decides them."""
    xp = backend_for(dev).xp
    _check_shapes(a, b)  # (PyTorch's RuntimeError, not NumPy's broadcast error)
    # (a half result: each operand first as the half it becomes, numbers included)
    xa, xb = _half_operand(a, rdt, cdt, dev), _half_operand(b, rdt, cdt, dev)
    res = call_quiet(f, xp, xa, xb)
    if not isinstance(res, xp.ndarray):  # (0-dim operands can give a scalar)
        res = xp.asarray(res)
    if stride is None:
        stride = result_strides(res.shape, a, b, common=rdt if common is None else common)
    return finish(res, rdt, dev, out, stride, (a, b))


def _float_binary(name: str, f, *, allow_int: bool = True, complex_ok: bool = False,
                  tensors_only: bool = True, kernel: str | None = None):
    """A binary function of floats: ints promote to the default float (or are refused)."""
    def body(input, other, *, out=None) -> Tensor:
        rdt, dev = _binary_prep(name, input, other, tensors_only=tensors_only)
        _check_shapes(input, other)  # (PyTorch's broadcast error, before NumPy's)
        if rdt.category == _COMPLEX and not complex_ok:
            raise _not_implemented(kernel or f"{name}_cpu", rdt)
        if rdt.category < _FLOAT:
            if not allow_int:
                raise _not_implemented(kernel or f"{name}_cpu", rdt)
            rdt = _dtypes._default_dtype
        return _compute2(f, input, other, _opmath(rdt), rdt, dev, out, common=rdt)
    body.__name__ = body.__qualname__ = name
    body.__doc__ = f"``{name}(input, other)`` elementwise with broadcasting and promotion."
    return body


def _logaddexp(xp, a, b):
    """``log(exp(a) + exp(b))``; complex as PyTorch: ``max + log1p(exp(min - max))`` (min and
    max by real part), a NaN part anywhere gives nan+nan j, two equal infinite real parts
    give min (-inf) or ``log(exp(min) + exp(max))`` (+inf)."""
    if a.dtype.kind != "c":
        return xp.logaddexp(a, b)
    a, b = xp.broadcast_arrays(a, b)
    nan_a = xp.isnan(a.real) | xp.isnan(a.imag)
    nan_b = xp.isnan(b.real) | xp.isnan(b.imag)
    b_first = b.real > a.real  # (ties: min is b, as PyTorch's x < y test)
    hi = xp.where(b_first, b, a)
    lo = xp.where(b_first, a, b)
    r = hi + _clog1p(xp, xp.exp(lo - hi))
    both_inf = ~xp.isfinite(lo.real) & (lo.real == hi.real)
    if xp.any(both_inf):
        r = xp.where(both_inf, xp.where(lo.real < 0, lo, xp.log(xp.exp(lo) + xp.exp(hi))), r)
    nan = nan_a | nan_b
    if xp.any(nan):
        r = xp.where(nan, r.dtype.type(complex(math.nan, math.nan)), r)
    return r


def _clog1p(xp, z):
    """Complex ``log(1 + z)`` as PyTorch's (c10) log1p: ``0.5 log1p(x (2 + x) + y**2)`` for
    ``|z| < 0.5`` (exact for small z, where NumPy's log1p rounds 1 + z first: its
    log1p(1.66e-12-2.7e-08j) has real part 0), else the real part of the complex
    ``log(1 + z)`` (no overflow of |1 + z|: log1p(3.4e38+3.4e38j) is 89.07+0.785j in
    complex64); the angle is ``atan2(y, x + 1)``.

    >>> _clog1p(np, np.array([3.4e38+3.4e38j], np.complex64))
    array([89.06858+0.7853982j], dtype=complex64)

    # Note: PyTorch's x86 CPU kernel is Kahan's ``log(u) * (z / (u - 1))``, ``u = 1 + z``
    # (this formula is its CUDA and macOS one); where 1 + x rounds to 1 and y is below
    # 1 / the dtype's largest value, its quotient overflows and log1p(1e-30+1e-310j) is
    # nan+nan j there; tensorviz gives z (the value to working precision).
    """
    x, y = z.real, z.imag
    with np.errstate(all="ignore"):  # (x (2 + x) overflows where |z| is large: not used)
        r = x * (2 + x) + y * y
        small = xp.abs(z) < 0.5
        out = xp.empty_like(z)
        out.real = xp.where(small, xp.where(r == 0, x, 0.5 * xp.log1p(r)), xp.log(z + 1).real)
    out.imag = xp.arctan2(y, x + 1)
    return out


def _copysign(xp, a, b):
    return xp.copysign(a, b)


atan2 = op(aliases=("arctan2",), inplace=True)(
    _float_binary("atan2", lambda xp, a, b: xp.arctan2(a, b)))
hypot = op(inplace=True)(
    _float_binary("hypot", lambda xp, a, b: xp.hypot(a, b), allow_int=False))
logaddexp = op()(_float_binary("logaddexp", _logaddexp, allow_int=False, complex_ok=True))
def _logaddexp2(xp, a, b):
    """PyTorch's CPU formula: ``max(a, b) + log1p(exp2(-|a - b|)) / ln 2``, its last
    multiply-add fused as its vector loop fuses it (logaddexp2(-1, -1) is -1.06e-8 in
    float32, not 0), and ``a`` where both are the same infinity."""
    with np.errstate(all="ignore"):
        m = xp.maximum(a, b)
        t = xp.log1p(xp.exp2(-xp.abs(a - b)))
        inv = a.dtype.type(1.0 / math.log(2.0)) if hasattr(a, "dtype") else 1.0 / math.log(2.0)
        if getattr(a, "dtype", None) in (np.float32, np.float64):
            t, m = xp.broadcast_arrays(t, m)
            r = fma(t, xp.full(t.shape, inv), m)
        else:
            r = (t.astype(np.float64) * np.float64(inv) + m).astype(t.dtype)
        return xp.where(xp.isinf(a) & (a == b), a, r)


logaddexp2 = op()(_float_binary("logaddexp2", _logaddexp2, allow_int=False))
copysign = op(inplace=True)(_float_binary("copysign", _copysign, tensors_only=False))
copysign.__doc__ = "``|input|`` with the sign of ``other`` (a tensor or a number)."


@op(inplace=True)
def fmod(input: Tensor, other, *, out=None) -> Tensor:
    """C's ``fmod``: the remainder takes the dividend's sign (ints stay ints).

    >>> tensorviz.fmod(tensorviz.tensor([-3.0, 3.0]), 2)
    tensor([-1.,  1.])
    """
    # Note: C's fmod is exact, and so is this one everywhere; PyTorch's vector loop uses
    # SLEEF's fmod, NaN where |input / other| overflows the dtype (fmod(65504, 1e-310) in
    # float64, fmod(1e30, 1e-30) in float32), while its scalar loop (a tensor's last
    # elements, strided operands) gives C's value, as here (remainder likewise).
    rdt, dev = _binary_prep("fmod", input, other, tensors_only=False)
    if rdt is _dtypes.bool or rdt.category == _COMPLEX:
        raise _not_implemented("fmod_cpu", rdt)
    _check_int_zero_division(input, other)
    return _compute2(lambda xp, a, b: xp.fmod(a, b), input, other, _opmath(rdt), rdt, dev, out)


@inplace_of(conj_physical)
def conj_physical_(self: Tensor) -> Tensor:
    """In-place ``conj_physical``: a real tensor keeps its values (no overlap check; its
    version still counts a write, as PyTorch's)."""
    _check_tensor("conj_physical_", self)
    if self._dtype.category != _COMPLEX:
        self._bump()
        return self
    return store_inplace(self, conj_physical(self))


@op()
def float_power(input, exponent, *, out=None) -> Tensor:
    """``input ** exponent`` computed in double precision (float64, or complex128)."""
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise TypeError("float_power(): expected at least one Tensor argument")
    is_c = builtins.any(
        (x._dtype.category == _COMPLEX) if isinstance(x, Tensor) else isinstance(x, complex)
        for x in (input, exponent))
    rdt = _dtypes.complex128 if is_c else _dtypes.float64
    dev = device_of(input, exponent)
    _check_shapes(input, exponent)  # (PyTorch's broadcast error, before NumPy's)
    if is_c:
        # (PyTorch's complex pow: cpow for a tensor exponent or a number base, its shortcuts
        # for a number exponent, see _complex_pow_number)
        fn = _complex_pow if isinstance(exponent, Tensor) or not isinstance(input, Tensor) \
            else _complex_pow_number(exponent)
    else:
        fn = None
    # (PyTorch's pow(input.to(rdt), exponent.to(rdt)): a tensor ** number is a unary op, the
    # number takes no part in the layout; number ** tensor is row-major, out= included)
    stride = None
    if not isinstance(exponent, Tensor):
        stride = result_strides(input._shape, input, common=rdt)
    elif not isinstance(input, Tensor):
        stride = _layout.contiguous_strides(exponent._shape)
    if fn is not None:
        return _compute2(lambda xp, a, b: fn(a, b), input, exponent, rdt, rdt, dev, out,
                         stride=stride)
    return _compute2(lambda xp, a, b: xp.power(a, b), input, exponent, rdt, rdt, dev, out,
                     stride=stride)


@inplace_of(float_power)
def float_power_(self: Tensor, exponent) -> Tensor:
    """In-place ``float_power``: ``self`` must already be float64 (or complex128)."""
    res = float_power(self, exponent)
    if res._dtype is not self._dtype:
        raise RuntimeError(f"the base given to float_power_ has dtype {self._dtype.cname} but "
                           f"the operation's result requires dtype {res._dtype.cname}")
    return store_inplace(self, res)


@op(inplace=True, inplace_function=True, also=("special.xlogy",))
def xlogy(input, other, *, out=None) -> Tensor:
    """``x * log(y)``, defined as 0 where x is 0 (unless y is NaN)."""
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError("xlogy() received an invalid combination of arguments - got "
                        f"({type(input).__name__}, {type(other).__name__})")
    rdt, dev = promote(input, other), device_of(input, other)
    _check_shapes(input, other)  # (PyTorch's broadcast error, before NumPy's)
    if rdt.category == _COMPLEX:
        raise _not_implemented("xlogy_cpu", rdt)
    rdt = _float_result(rdt)

    def f(xp, x, y):
        r = x * xp.log(y)
        return xp.where((x == 0) & ~xp.isnan(y), r.dtype.type(0), r)
    return _compute2(f, input, other, _opmath(rdt), rdt, dev, out)


def _logical(name: str, ufunc_name: str):
    def body(input, other, *, out=None) -> Tensor:
        _check_tensor(name, input)
        _check_tensor(name, other, "other", 2)
        dev = device_of(input, other)
        xp = backend_for(dev).xp
        res = getattr(xp, ufunc_name)(operand(input, input._dtype, dev),
                                      operand(other, other._dtype, dev))
        return finish(res, _dtypes.bool, dev, out, result_strides(res.shape, input, other),
                      (input, other))
    body.__name__ = body.__qualname__ = name
    body.__doc__ = f"Elementwise ``{name}`` of truth values (nonzero is true); a bool tensor."
    return body


logical_and = op(inplace=True)(_logical("logical_and", "logical_and"))
logical_or = op(inplace=True)(_logical("logical_or", "logical_or"))
logical_xor = op(inplace=True)(_logical("logical_xor", "logical_xor"))


# ---------------------------------------------------------------- ternary functions
@op(inplace=True)
def lerp(input: Tensor, end: Tensor, weight, *, out=None) -> Tensor:
    """``input + weight * (end - input)`` (float/complex; ``end`` must share input's dtype)."""
    _check_tensor("lerp", input)
    _check_tensor("lerp", end, "end", 2)
    dt = input._dtype
    if end._dtype is not dt:
        raise RuntimeError(f"expected dtype {dt.cxx_name} for `end` but got dtype "
                           f"{end._dtype.cxx_name}")
    rdt = dt
    if isinstance(weight, Tensor):
        if weight._dtype is not dt and weight._shape:
            raise RuntimeError(f"expected dtype {dt.cxx_name} for `weight` but got dtype "
                               f"{weight._dtype.cxx_name}")
        if not weight._shape:  # a 0-dim weight promotes like an operand (PyTorch's composite)
            rdt = result_type(input, end, weight)
    if rdt.category < _FLOAT:
        raise _not_implemented("lerp_kernel_scalar" if not isinstance(weight, Tensor)
                               else "lerp_kernel_tensor", rdt)
    dt = rdt
    dev = device_of(input, end, weight)
    cdt = _opmath(dt)
    xp = backend_for(dev).xp
    a, b = operand(input, cdt, dev), operand(end, cdt, dev)
    w = operand(weight, cdt, dev)

    def f():
        diff = b - a
        absw = xp.abs(w)
        # PyTorch's formula: exact at both ends
        if a.dtype.kind == "f":
            # (PyTorch's vectorized kernel, 16-bit dtypes in float32 too: one fused
            # multiply-add, fma(w - 1, diff, end) past a weight of 0.5, so 0.5 + (3.4e38 -
            # 0.5) * 2 less the end is -3.4e38, not -inf)
            small = absw < 0.5
            coeff = xp.where(small, w, w - 1)
            base = xp.where(small, a, b)
            coeff, diff, base = xp.broadcast_arrays(coeff, diff, base)
            return fma(coeff, diff, base)
        return xp.where(absw < 0.5, a + w * diff, b - diff * (1 - w))
    res = call_quiet(f)
    # (a number weight is no operand of PyTorch's TensorIterator: lerp.Scalar is binary)
    return finish(res, dt, dev, out, result_strides(
        res.shape, input, end, *([weight] if isinstance(weight, Tensor) else [])),
        (input, end, weight))


def _addc(name: str, input, tensor1, tensor2, value, out, divide: bool) -> Tensor:
    _check_tensor(name, input)
    _check_tensor(name, tensor1, "tensor1", 2)
    _check_tensor(name, tensor2, "tensor2", 3)
    rdt = result_type(input, tensor1, tensor2)
    if divide and rdt.category < _FLOAT:
        raise RuntimeError("Integer division with addcdiv is no longer supported, and in a future "
                           "release addcdiv will perform a true division of tensor1 and tensor2. "
                           "The historic addcdiv behavior can be implemented as "
                           "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
                           "integer inputs and as (input + value * tensor1 / tensor2) for float "
                           "inputs. The future addcdiv behavior is just the latter implementation: "
                           "(input + value * tensor1 / tensor2), for all dtypes.")
    if rdt is _dtypes.bool or (divide and rdt is _dtypes.complex32):
        raise _not_implemented(f"{name}_cpu_out", rdt)
    dev = device_of(input, tensor1, tensor2)
    cdt = _opmath(rdt)
    xp = backend_for(dev).xp
    a, t1, t2 = (_half_operand(x, rdt, cdt, dev) for x in (input, tensor1, tensor2))
    v = scalar_to(value, cdt)
    # (left to right, as PyTorch's kernel: (value * t1) * t2; value * (t1 * t2) would make
    # 1 * (inf + inf j) a NaN)
    if rdt.category == _FLOAT and not divide:
        # (PyTorch's kernel, compiled with contraction: (value * t1) * t2 + input is one
        # fused multiply-add, in 16-bit's float32 and in float32/float64 themselves)
        res = call_quiet(lambda: fma(v * t1, t2, a))
    else:
        res = call_quiet(lambda: a + (v * t1 / t2 if divide else v * t1 * t2))
    if not isinstance(res, xp.ndarray):
        res = xp.asarray(res)
    return finish(res, rdt, dev, out, result_strides(res.shape, input, tensor1, tensor2),
                  (input, tensor1, tensor2))


@op(inplace=True)
def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1, out=None) -> Tensor:
    """``input + value * tensor1 * tensor2`` with broadcasting."""
    return _addc("addcmul", input, tensor1, tensor2, value, out, False)


@op(inplace=True)
def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1, out=None) -> Tensor:
    """``input + value * tensor1 / tensor2`` (floating point only)."""
    return _addc("addcdiv", input, tensor1, tensor2, value, out, True)


# ---------------------------------------------------------------- softmax
def _softmax(name: str, input: Tensor, dim, dtype, log_: bool) -> Tensor:
    _check_tensor(name, input)
    if dim is None:
        raise TypeError(f"{name}() missing 1 required positional arguments: \"dim\"")
    x = input if dtype is None else input.to(dtype)
    nd = len(x._shape)
    d = _layout.normalize_dim(dim, nd)
    dt = x._dtype
    if dt.category != _FLOAT and x.numel():  # (an empty input runs no kernel: any dtype)
        kernel = "softmax_lastdim_kernel_impl" if d == builtins.max(nd - 1, 0) else \
            "softmax_kernel_impl"
        if log_:
            kernel = "log_" + kernel
        raise _not_implemented(kernel, dt)
    axis = d if nd else None

    def f(xp, a):
        if a.size == 0:
            return a.copy()
        if runs_numpy(xp):  # (the reductions np.max / np.sum call, without their wrappers)
            m = np.maximum.reduce(a, axis=axis, keepdims=True)
        else:
            m = xp.max(a, axis=axis, keepdims=True)
        z = a - m
        e = xp.exp(z)
        s = np.add.reduce(e, axis=axis, keepdims=True) if runs_numpy(xp) else \
            xp.sum(e, axis=axis, keepdims=True)
        if log_ and half:
            # PyTorch's last-dim kernel for 16-bit floats keeps the sum and its log in the
            # dtype: both round before the subtraction
            ls = xp.log(s.astype(dt._np).astype(a.dtype)).astype(dt._np).astype(a.dtype)
            return z - ls
        if not log_ and other_dim:
            # PyTorch's kernel along another dim for 16-bit floats stores exp(z) in the
            # dtype, then divides it by the float32 sum
            return e.astype(dt._np).astype(a.dtype) / s
        return z - xp.log(s) if log_ else e / s
    half = dt in _dtypes.HALVES and d == nd - 1
    other_dim = dt in _dtypes.HALVES and d != nd - 1
    res = _map(x, dt, f)
    # (PyTorch's softmax kernels write a row-major result whatever the input's layout)
    return res if res.is_contiguous() else res.contiguous()


@op()
def softmax(input: Tensor, dim=None, dtype=None, *, _stacklevel: int = 3) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``dim`` (max-shifted for stability)."""
    dtype = _dtypes.as_dtype(dtype)  # (dtype=float and the like: Python types)
    return _softmax("softmax", input, dim, dtype, False)


@op()
def log_softmax(input: Tensor, dim=None, dtype=None, *, _stacklevel: int = 3) -> Tensor:
    """``x - logsumexp(x)`` along ``dim``."""
    dtype = _dtypes.as_dtype(dtype)  # (dtype=float and the like: Python types)
    return _softmax("log_softmax", input, dim, dtype, True)


@op("softmax", namespace="special", method=False)
def _special_softmax(input, dim, *, dtype=None) -> Tensor:
    """``torch.special.softmax``: ``exp(x) / sum(exp(x))`` along ``dim`` (``dtype``: convert
    the input first)."""
    return softmax(input, dim, dtype)


@op("log_softmax", namespace="special", method=False)
def _special_log_softmax(input, dim, *, dtype=None) -> Tensor:
    """``torch.special.log_softmax``: ``x - logsumexp(x)`` along ``dim``."""
    return log_softmax(input, dim, dtype)


@op("round", namespace="special", method=False)
def _special_round(input, *, decimals=None, out=None) -> Tensor:
    """``torch.special.round``: ``round`` for floating-point tensors (integer and bool
    tensors are refused)."""
    _check_tensor("special_round", input)
    if out is not None and out.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {out.dtype.cname} but expected {input.dtype.cname}")
    if input.dtype.category < _FLOAT:
        raise _not_implemented("round_vml_cpu", input.dtype)
    if decimals is None:
        return round(input, out=out)
    return round(input, decimals=decimals, out=out)
