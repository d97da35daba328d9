"""Derivative formulas: one entry per differentiable op, written in tensorviz ops.

Each formula runs when its op is recorded, with the op's own arguments: it saves what the
derivative needs (``ctx.save``, version-checked) and returns ``(node name, inputs, backward)``
where ``backward(grad)`` gives one gradient per input (None where none is needed).  Because
backward is written with tensorviz's own ops, it is itself recorded under
``create_graph=True``: higher derivatives come for free.  Gradients may keep a broadcast
shape or a wider dtype: the engine sums and casts them to each input, in one place.

Complex gradients follow PyTorch's convention (the conjugate Wirtinger derivative):
``grad_input = grad * conj(df/dz)`` for holomorphic ``f``.

Composite ops (``COMPOSITES``) are instead run through other recorded ops, which makes the
same nodes PyTorch's decompositions make (``2 / x`` is ``ReciprocalBackward0`` then
``MulBackward0``; ``matmul`` dispatches to ``mm``/``mv``/``dot``/``bmm``).
"""
from __future__ import annotations

import builtins
import math

import numpy as _np

from ._torch import T as tv

from .. import _dtypes, _layout
from .._tensor import Tensor
from ._raw import cpu, fresh, plain, quiet_run, real_float
from . import _record as _record_mod
from ._record import COMPOSITES, FORMULAS, composite, formula

__all__ = ["FORMULAS", "COMPOSITES"]

_NUM = (builtins.int, builtins.float, builtins.complex, builtins.bool)


def _c(t):
    """``conj(t)`` for complex tensors, else ``t`` (PyTorch's gradient convention)."""
    if isinstance(t, Tensor) and t._dtype.category == _dtypes._COMPLEX:
        return t.conj()
    if isinstance(t, builtins.complex):
        return t.conjugate()
    return t


def _plain_out(ctx) -> None:
    """A named-tuple result as a plain tuple, so that ``ctx.save`` recognises its items as
    the op's outputs (kept without a reference cycle, named in the in-place message)."""
    o = ctx.out
    if isinstance(o, tuple) and type(o) is not tuple:
        ctx.out = tuple(o)


def _needs(ctx, *xs):
    return tuple(ctx.needs(x) for x in xs)


# ---------------------------------------------------------------- arithmetic
@formula("add")
def _add(ctx, input, other, *, alpha=1, out=None):
    if not isinstance(input, Tensor):  # (1 + x: PyTorch computes x.add(1))
        input, other = other, input
    def backward(g):
        return g, (None if not ctx.needs(other) else (g if alpha == 1 else g * _c(alpha)))
    return "AddBackward0", (input, other), backward


@formula("sub")
def _sub(ctx, input, other, *, alpha=1, out=None):
    def backward(g):
        return (g if ctx.needs(input) else None,
                (-g if alpha == 1 else g * -_c(alpha)) if ctx.needs(other) else None)
    return "SubBackward0", (input, other), backward


@formula("rsub")
def _rsub_fn(ctx, input, other, *, alpha=1):
    if not isinstance(other, Tensor):
        def backward1(g):
            return (-g if alpha == 1 else g * -_c(alpha),)
        return "RsubBackward1", (input,), backward1
    def backward(g):
        return (-g if alpha == 1 else g * -_c(alpha)) if ctx.needs(input) else None, \
            g if ctx.needs(other) else None
    return "RsubBackward0", (input, other), backward


@formula("__rsub__")
def _rsub_op(ctx, self, other):
    def backward(g):
        return (-g,)
    return "RsubBackward1", (self,), backward


@formula("mul")
def _mul(ctx, input, other, *, out=None):
    if not isinstance(input, Tensor):
        input, other = other, input
    needs = ctx.needs
    a_needs, b_needs = needs(input), needs(other)
    so = (ctx.save(other, "other") if isinstance(other, Tensor) else ctx.keep("other", other)) \
        if a_needs else None
    si = ctx.save(input, "self") if b_needs else None

    def backward(g):
        ga = gb = None
        if a_needs:
            o = so() if isinstance(so, _SavedType) else so
            ga = g * _c(o)
        if b_needs:
            gb = g * _c(si())
        return ga, gb
    return "MulBackward0", (input, other), backward


@formula("div")
def _div(ctx, input, other, *, rounding_mode=None, out=None):
    if rounding_mode is not None:
        def zero(g):
            return (tv.zeros_like(g), None if not isinstance(other, Tensor) else
                    tv.zeros_like(g))
        return "DivBackward2" if isinstance(other, Tensor) else "DivBackward3", \
            (input, other), zero
    a_needs, b_needs = _needs(ctx, input, other)
    so = (ctx.save(other, "other") if isinstance(other, Tensor) else ctx.keep("other", other))
    si = ctx.save(input, "self") if b_needs else None

    def backward(g):
        o = so() if isinstance(so, _SavedType) else so
        ga = g / _c(o) if a_needs else None
        gb = None
        if b_needs:
            gb = -g * _c(si()) / _c(o * o)
        return ga, gb
    return "DivBackward0", (input, other), backward


@composite("__rtruediv__")
def _rtruediv(self, other):
    return self.reciprocal() * other


@composite("fill_diagonal_")
def _fill_diagonal_(self, fill_value, wrap: bool = False):
    """PyTorch's fill_diagonal_ (CompositeImplicitAutograd): its checks, then ``fill_`` of
    ``as_strided`` views of ``self`` -- so the base's node is ``CopySlices`` (twice with a
    wrapped diagonal), and a leaf is refused as "a view of a leaf" after the shape checks."""
    from ..ops._elementwise import _check_diagonal_value
    _check_diagonal_value(fill_value)
    shape = self._shape
    if len(shape) < 2:
        raise RuntimeError("dimensions must larger than 1")
    height, width = shape[0], shape[1]
    if len(shape) > 2 and any(n != height for n in shape):
        raise RuntimeError("all dimensions of input must be of equal length")
    stride = sum(self._stride)
    size = min(height, width)
    offset = self.storage_offset()
    self.as_strided((size,), (stride,), offset).fill_(fill_value)
    if wrap and len(shape) == 2 and height > width + 1:
        step = width + 1
        wrap_size = (height * width + step - 1) // step - size
        self.as_strided((wrap_size,), (stride,), offset + self._stride[0] * step).fill_(
            fill_value)
    return self


@formula("pow")
def _pow(ctx, input, exponent, *, out=None):
    if not isinstance(input, Tensor):  # number ** tensor
        base = input
        r = ctx.save(ctx.out, "result")

        def backward2(g):
            return (g * _c(r() * math.log(base)) if base != 0 else g * 0,)
        ctx.keep("self", base)
        return "PowBackward2", (exponent,), backward2
    if not isinstance(exponent, Tensor):
        si = ctx.save(input, "self")
        ctx.keep("exponent", exponent)

        def backward0(g):
            if exponent == 0:
                return (tv.zeros_like(g),)
            x = si()
            return (g * _c(exponent * x.pow(exponent - 1)),)
        return "PowBackward0", (input,), backward0
    a_needs, b_needs = _needs(ctx, input, exponent)
    si = ctx.save(input, "self")
    se = ctx.save(exponent, "exponent")
    sr = ctx.save(ctx.out, "result") if b_needs else None

    def backward1(g):
        x, e = si(), se()
        ga = g * _c(e * x.pow(e - 1)) if a_needs else None
        gb = None
        if b_needs:
            r = sr()
            logx = tv.where(x == 0, tv.zeros_like(x), x).log() if x._dtype.category != \
                _dtypes._COMPLEX else x.log()
            gb = g * _c(r * logx)
            gb = tv.where((x == 0) & (e.real >= 0 if e._dtype.category == _dtypes._COMPLEX
                                      else e >= 0), tv.zeros_like(gb), gb)
        return ga, gb
    return "PowBackward1", (input, exponent), backward1


@composite("square")
def _square(input):
    return input.pow(2)


@formula("neg")
def _neg(ctx, input, *, out=None):
    return "NegBackward0", (input,), lambda g: (-g,)


@formula("positive")
def _positive(ctx, input):
    return None


@formula("reciprocal")
def _reciprocal(ctx, input, *, out=None):
    r = ctx.save(ctx.out, "result")
    return "ReciprocalBackward0", (input,), lambda g: (-g * _c(r() * r()),)


# ---------------------------------------------------------------- unary pointwise
def _unary(name: str, node: str, derivative, save: str = "self"):
    """``grad * conj(derivative(x, result))`` for op ``name``."""
    @formula(name)
    def f(ctx, input, *args, out=None, **kwargs):
        s = ctx.save(ctx.out if save == "result" else input, save)

        def backward(g):
            v = s()
            return (g * _c(derivative(v)),)
        return node, (input,), backward
    return f


_unary("exp", "ExpBackward0", lambda r: r, "result")
_unary("exp2", "Exp2Backward0", lambda r: r * math.log(2.0), "result")
_unary("expm1", "Expm1Backward0", lambda r: r + 1, "result")
_unary("log", "LogBackward0", lambda x: x.reciprocal())
_unary("log2", "Log2Backward0", lambda x: (x * math.log(2.0)).reciprocal())
_unary("log10", "Log10Backward0", lambda x: (x * math.log(10.0)).reciprocal())
_unary("log1p", "Log1PBackward0", lambda x: (x + 1).reciprocal())
_unary("sqrt", "SqrtBackward0", lambda r: (r * 2).reciprocal(), "result")
_unary("rsqrt", "RsqrtBackward0", lambda r: r.pow(3) * -0.5, "result")
_unary("sin", "SinBackward0", lambda x: x.cos())
_unary("cos", "CosBackward0", lambda x: -x.sin())
_unary("tan", "TanBackward0", lambda r: r * r + 1, "result")
_unary("asin", "AsinBackward0", lambda x: (-(x * x) + 1).rsqrt())
_unary("acos", "AcosBackward0", lambda x: -(-(x * x) + 1).rsqrt())
_unary("atan", "AtanBackward0", lambda x: (x * x + 1).reciprocal())
_unary("sinh", "SinhBackward0", lambda x: x.cosh())
_unary("cosh", "CoshBackward0", lambda x: x.sinh())
_unary("tanh", "TanhBackward0", lambda r: -(r * r) + 1, "result")
_unary("asinh", "AsinhBackward0", lambda x: (x * x + 1).rsqrt())
_unary("acosh", "AcoshBackward0", lambda x: ((x - 1).sqrt() * (x + 1).sqrt()).reciprocal())
_unary("atanh", "AtanhBackward0", lambda x: (-(x * x) + 1).reciprocal())
_unary("sigmoid", "SigmoidBackward0", lambda r: r * (-r + 1), "result")
_unary("erf", "ErfBackward0", lambda x: (-(x * x)).exp() * (2.0 / math.sqrt(math.pi)))
_unary("erfc", "ErfcBackward0", lambda x: (-(x * x)).exp() * (-2.0 / math.sqrt(math.pi)))
# (from the input, as PyTorch's: its result may then be written in place)
_unary("erfinv", "ErfinvBackward0", lambda x: x.erfinv().pow(2).exp() * (0.5 * math.sqrt(math.pi)))
_unary("lgamma", "LgammaBackward0", lambda x: x.digamma())
_unary("digamma", "DigammaBackward0", lambda x: tv.polygamma(1, x))
def _scaling(name: str, node: str, factor: float):
    """An op whose derivative is the constant ``factor``: nothing saved, as PyTorch's."""
    @formula(name)
    def f(ctx, input, *args, out=None, **kwargs):
        return node, (input,), lambda g: (g * factor,)
    return f


_scaling("deg2rad", "Deg2RadBackward0", math.pi / 180.0)
_scaling("rad2deg", "Rad2DegBackward0", 180.0 / math.pi)
_unary("i0", "I0Backward0", lambda x: tv.special.i1(x))


@formula("relu")
def _relu(ctx, input, *args, **kwargs):
    r = ctx.save(ctx.out, "result")

    def backward(g):
        ga = cpu(g)
        if ga is not None and plain() and real_float(g):
            y = cpu(r())
            if y is not None and y.dtype is ga.dtype and y.shape == ga.shape:
                return (fresh(quiet_run(_mul_positive, ga, y), g._dtype),)
        # (PyTorch's threshold_backward: 0 where the result is <= 0, else the gradient --
        # a NaN result passes it)
        return (tv.where(r() <= 0, 0, g),)
    return "ReluBackward0", (input,), backward


_SAME_SIZE_INT = {_np.dtype(_np.float32): _np.int32, _np.dtype(_np.float64): _np.int64}


def _mul_positive(g, y):
    """``where(y <= 0, 0, g)`` (a NaN ``y`` passes ``g``) as one bitwise AND of ``g``'s bits
    with a mask of all ones or zeros: the same bits, half np.where's time."""
    if not g.ndim:
        return _np.where(y <= 0, g.dtype.type(0), g)
    it = _SAME_SIZE_INT[g.dtype]
    mask = _np.less_equal(y, 0).view(_np.uint8).astype(it)
    mask -= 1  # (0 where y <= 0, else all ones)
    return _np.bitwise_and(g.view(it), mask, out=mask).view(g.dtype)


@formula("abs")
def _abs(ctx, input, *, out=None):
    s = ctx.save(input, "self")

    def backward(g):
        x = s()
        if x._dtype.category == _dtypes._COMPLEX:
            return (g * x.sgn(),)  # (PyTorch's formula: sgn(0) is 0; complex32 has no div)
        return (g * x.sign(),)
    return "AbsBackward0", (input,), backward


def _zero_grad(name: str, node: str):
    @formula(name)
    def f(ctx, input, *args, out=None, **kwargs):
        return node, (input,), lambda g: (tv.zeros_like(g),)
    return f


for _n, _node in (("floor", "FloorBackward0"), ("ceil", "CeilBackward0"),
                  ("trunc", "TruncBackward0"), ("fix", "TruncBackward0"),
                  ("sign", "SignBackward0"), ("round", "RoundBackward0")):
    _zero_grad(_n, _node)


@formula("sgn")
def _sgn(ctx, input, *, out=None):
    return "SgnBackward0", (input,), lambda g: (tv.zeros_like(g),)


@formula("frac")
def _frac(ctx, input, *, out=None):
    return "FracBackward0", (input,), lambda g: (g,)


@formula("logit")
def _logit(ctx, input, eps=None, *, out=None):
    s = ctx.save(input, "self")

    def backward(g):
        x = s()
        d = g / (x * (-x + 1))
        if eps is None:
            return (tv.where((x < 0) | (x > 1), tv.full_like(d, float("nan")), d),)
        return (tv.where((x < eps) | (x > 1 - eps), tv.zeros_like(d), d),)
    return "LogitBackward0", (input,), backward


@formula("sinc")
def _sinc(ctx, input, *, out=None):
    s = ctx.save(input, "self")

    def backward(g):
        x = s()
        px = x * math.pi
        d = (px.cos() * px - px.sin()) / (px * x)
        return (g * _c(tv.where(x == 0, tv.zeros_like(d), d)),)
    return "SincBackward0", (input,), backward


@formula("clamp")
def _clamp(ctx, input, min=None, max=None, *, out=None):
    s = ctx.save(input, "self")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        smin = ctx.save(min, "min") if isinstance(min, Tensor) else min
        smax = ctx.save(max, "max") if isinstance(max, Tensor) else max

        def backward0(g):
            x = s()
            lo = smin() if isinstance(min, Tensor) else min
            hi = smax() if isinstance(max, Tensor) else max
            keep = tv.ones_like(x, dtype=tv.bool)
            if lo is not None:
                keep = keep & (x >= lo)
            if hi is not None:
                keep = keep & (x <= hi)
            gx = g * keep.to(g.dtype)
            gmin = gmax = None
            if isinstance(min, Tensor):
                gmin = g * (x < lo).to(g.dtype)
                if hi is not None:
                    gmin = gmin * (lo <= hi).to(g.dtype) if isinstance(hi, Tensor) else gmin
            if isinstance(max, Tensor):
                gmax = g * (x > hi).to(g.dtype)
            return gx, gmin, gmax
        return "ClampBackward0", (input, min, max), backward0

    def backward1(g):
        x = s()
        keep = tv.ones_like(x, dtype=tv.bool)
        if min is not None:
            keep = keep & (x >= min)
        if max is not None:
            keep = keep & (x <= max)
        return (g * keep.to(g.dtype),)
    ctx.keep("min", min)
    ctx.keep("max", max)
    return "ClampBackward1", (input,), backward1


FORMULAS["clip"] = FORMULAS["clamp"]


def _clamp_side(name: str, node: str, lower: bool):
    @formula(name)
    def f(ctx, input, bound, *, out=None):
        s = ctx.save(input, "self")
        if isinstance(bound, Tensor):
            sb = ctx.save(bound, "min" if lower else "max")

            def backward1(g):
                x, b = s(), sb()
                keep = (x >= b) if lower else (x <= b)
                return g * keep.to(g.dtype), g * (~keep).to(g.dtype)
            return node + "1", (input, bound), backward1
        ctx.keep("min" if lower else "max", bound)

        def backward0(g):
            x = s()
            keep = (x >= bound) if lower else (x <= bound)
            return (g * keep.to(g.dtype),)
        return node + "0", (input,), backward0
    return f


_clamp_side("clamp_min", "ClampMinBackward", True)
_clamp_side("clamp_max", "ClampMaxBackward", False)


def _binary_select(name: str, node: str, pick_first):
    """maximum/minimum/fmax/fmin: the gradient goes to the chosen operand (split on ties)."""
    @formula(name)
    def f(ctx, input, other, *, out=None):
        a = ctx.save(input, "self")
        b = ctx.save(other, "other")

        def backward(g):
            x, y = a(), b()
            first = pick_first(x, y).to(g.dtype)
            tie = (x == y).to(g.dtype)
            wa = first * (-tie + 1) + tie * 0.5
            return g * wa, g * (-wa + 1)
        return node, (input, other), backward
    return f


_binary_select("maximum", "MaximumBackward0", lambda x, y: x > y)
_binary_select("minimum", "MinimumBackward0", lambda x, y: x < y)
_binary_select("fmax", "FmaxBackward0", lambda x, y: (x > y) | y.isnan())
_binary_select("fmin", "FminBackward0", lambda x, y: (x < y) | y.isnan())


@formula("atan2")
def _atan2(ctx, input, other, *, out=None):
    a = ctx.save(input, "self")
    b = ctx.save(other, "other")

    def backward(g):
        y, x = a(), b()
        d = x * x + y * y
        return g * x / d, g * -y / d
    return "Atan2Backward0", (input, other), backward


FORMULAS["arctan2"] = FORMULAS["atan2"]


@formula("hypot")
def _hypot(ctx, input, other, *, out=None):
    a = ctx.save(input, "self")
    b = ctx.save(other, "other")
    r = ctx.save(ctx.out, "result")
    return "HypotBackward0", (input, other), lambda g: (g * a() / r(), g * b() / r())


def _xlog_formula(node: str, log_name: str, shift: int):
    """``xlogy`` (``x * log(y)``) and ``special.xlog1py`` (``x * log1p(y)``): the gradient
    wrt ``x`` is the log (0 where ``x == 0`` and ``y`` is not NaN), wrt ``y`` it is
    ``x / (y + shift)``."""
    def f(ctx, input, other, *, out=None):
        a = ctx.save(input, "self") if isinstance(input, Tensor) else input
        b = ctx.save(other, "other") if isinstance(other, Tensor) else other

        def backward(g):
            x = a() if isinstance(input, Tensor) else a
            y = b() if isinstance(other, Tensor) else b
            gx = gy = None
            if ctx.needs(input):
                ly = getattr(y, log_name)() if isinstance(y, Tensor) else \
                    getattr(math, log_name)(y)
                gx = g * ly
                if isinstance(x, Tensor):
                    gx = tv.where((x == 0) & ~(y != y) if isinstance(y, Tensor) else (x == 0),
                                  tv.zeros_like(gx), gx)
            if ctx.needs(other):
                gy = g * x / (y + shift) if shift else g * x / y
            return gx, gy
        return node, (input, other), backward
    return f


formula("xlogy")(_xlog_formula("XlogyBackward0", "log", 0))
formula("special.xlog1py")(_xlog_formula("SpecialXlog1PyBackward0", "log1p", 1))


@formula("logaddexp")
def _logaddexp(ctx, input, other, *, out=None):
    a = ctx.save(input, "self")
    b = ctx.save(other, "other")
    r = ctx.save(ctx.out, "result")
    return "LogaddexpBackward0", (input, other), \
        lambda g: (g * (a() - r()).exp(), g * (b() - r()).exp())


@formula("lerp")
def _lerp(ctx, input, end, weight, *, out=None):
    sw = ctx.save(weight, "weight") if isinstance(weight, Tensor) else ctx.keep("weight",
                                                                                  weight)
    sa = ctx.save(input, "self") if isinstance(weight, Tensor) else None
    se = ctx.save(end, "end") if isinstance(weight, Tensor) else None

    def backward(g):
        w = sw() if isinstance(weight, Tensor) else sw
        gw = None
        if isinstance(weight, Tensor) and ctx.needs(weight):
            gw = g * _c(se() - sa())
        return g * _c(1 - w), g * _c(w), gw
    if isinstance(weight, Tensor):
        return "LerpBackward1", (input, end, weight), backward
    return "LerpBackward0", (input, end), lambda g: backward(g)[:2]


@formula("addcmul")
def _addcmul(ctx, input, tensor1, tensor2, *, value=1, out=None):
    s1 = ctx.save(tensor1, "tensor1")
    s2 = ctx.save(tensor2, "tensor2")
    return "AddcmulBackward0", (input, tensor1, tensor2), \
        lambda g: (g, g * _c(s2() * value), g * _c(s1() * value))


@formula("addcdiv")
def _addcdiv(ctx, input, tensor1, tensor2, *, value=1, out=None):
    s1 = ctx.save(tensor1, "tensor1")
    s2 = ctx.save(tensor2, "tensor2")

    def backward(g):
        t1, t2 = s1(), s2()
        return g, g * _c(value / t2), g * _c(-value * t1 / (t2 * t2))
    return "AddcdivBackward0", (input, tensor1, tensor2), backward


@formula("where")
def _where(ctx, condition, input=None, other=None, *, out=None):
    if input is None:
        return None
    sc = ctx.save(condition, "condition")

    def backward(g):
        c = sc()
        z = tv.zeros_like(g)
        return (tv.where(c, g, z) if ctx.needs(input) else None,
                tv.where(c, z, g) if ctx.needs(other) else None)
    return "WhereBackward0", (input, other), backward


@formula("masked_fill")
def _masked_fill(ctx, input, mask, value):
    sm = ctx.save(mask, "mask")

    def backward(g):
        m = sm()
        gv = None
        if isinstance(value, Tensor) and ctx.needs(value):
            gv = tv.where(m, g, tv.zeros_like(g)).sum()
        return tv.where(m, tv.zeros_like(g), g), None, gv
    if isinstance(value, Tensor):
        return "MaskedFillBackward1", (input, mask, value), backward
    return "MaskedFillBackward0", (input,), lambda g: backward(g)[:1]


@formula("nan_to_num")
def _nan_to_num(ctx, input, nan=0.0, posinf=None, neginf=None, *, out=None):
    s = ctx.save(input, "self")
    return "NanToNumBackward0", (input,), lambda g: (g * s().isfinite().to(g.dtype),)


# ---------------------------------------------------------------- softmax family
def _dim_arg(dim, ndim):
    return _layout.normalize_dim(dim, builtins.max(ndim, 1))


@formula("softmax")
def _softmax(ctx, input, dim=None, dtype=None, **kw):
    r = ctx.save(ctx.out, "result")
    d = dim

    def backward(g):
        y = r()
        return (y * (g - (g * y).sum(d, keepdim=True)),)
    return "SoftmaxBackward0", (input,), backward


@formula("log_softmax")
def _log_softmax(ctx, input, dim=None, dtype=None, **kw):
    r = ctx.save(ctx.out, "result")
    d = dim

    def backward(g):
        y = r()
        ga = cpu(g)
        if ga is not None and plain() and real_float(g) and type(d) is int:
            ya = cpu(y)
            if ya is not None and ya.dtype is ga.dtype and ya.shape == ga.shape and ga.ndim:
                return (fresh(quiet_run(_log_softmax_grad, ga, ya, d), g._dtype),)
        return (g - y.exp() * g.sum(d, keepdim=True),)
    return "LogSoftmaxBackward0", (input,), backward


def _log_softmax_grad(g, y, d):
    return g - _np.exp(y) * _np.add.reduce(g, axis=d, keepdims=True)


# ---------------------------------------------------------------- reductions
def _dims(dim, ndim) -> tuple:
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, (list, tuple)):
        if len(dim) == 0:
            return tuple(range(ndim))
        return tuple(sorted(_layout.normalize_dim(d, builtins.max(ndim, 1)) for d in dim))
    return (_layout.normalize_dim(dim, builtins.max(ndim, 1)),)


def _unsqueeze_to(g, shape, dims, keepdim):
    """A reduction's gradient brought back to the input's rank (expanding comes later)."""
    if not keepdim and shape:
        for d in dims:
            g = g.unsqueeze(d)
    return g


@formula("sum")
def _sum(ctx, input, dim=None, keepdim=False, *, dtype=None, out=None, axis=None):
    dim = axis if dim is None and axis is not None else dim
    shape = input._shape
    dims = _dims(dim, len(shape))

    def backward(g):
        return (_unsqueeze_to(g, shape, dims, keepdim).expand(shape),)
    ctx.keep("self_sym_sizes", shape)
    if dim is None:
        return "SumBackward0", (input,), lambda g: (g.expand(shape),)
    ctx.keep("dim", dims)
    return "SumBackward1", (input,), backward


@formula("nansum")
def _nansum(ctx, input, dim=None, keepdim=False, *, dtype=None, out=None):
    s = ctx.save(input, "self")
    shape = input._shape
    dims = _dims(dim, len(shape))

    def backward(g):
        x = s()
        g = _unsqueeze_to(g, shape, dims, keepdim).expand(shape)
        return (tv.where(x.isnan(), tv.zeros_like(g), g),)
    return "NansumBackward0", (input,), backward


@formula("mean")
def _mean(ctx, input, dim=None, keepdim=False, *, dtype=None, out=None, axis=None):
    dim = axis if dim is None and axis is not None else dim
    shape = input._shape
    dims = _dims(dim, len(shape))
    n = 1
    for d in dims:
        n *= shape[d] if shape else 1

    def backward(g):
        return (_unsqueeze_to(g, shape, dims, keepdim).expand(shape) / n,)
    if dim is None:
        return "MeanBackward0", (input,), lambda g: (g.expand(shape) / builtins.max(
            _layout.numel(shape), 0) if _layout.numel(shape) else g.expand(shape),)
    return "MeanBackward1", (input,), backward


@formula("prod")
def _prod(ctx, input, dim=None, keepdim=False, *, dtype=None, out=None):
    s = ctx.save(input, "self")
    r = ctx.save(ctx.out, "result")
    shape = input._shape

    def grad_along(x, res, g, d):
        # exact also with zeros: the product of the others, by cumulative products
        if d is None:
            flat = x.reshape(-1)
            left = tv.cat([tv.ones_like(flat[:1]), flat[:-1]]).cumprod(0)
            right = tv.cat([flat[1:], tv.ones_like(flat[:1])]).flip(0).cumprod(0).flip(0)
            return (g * _c(left * right)).reshape(shape)
        n = x.shape[d]
        ones = tv.ones_like(x.narrow(d, 0, 1))
        left = tv.cat([ones, x.narrow(d, 0, n - 1)], d).cumprod(d)
        right = tv.cat([x.narrow(d, 1, n - 1), ones], d).flip(d).cumprod(d).flip(d)
        return g * _c(left * right)

    if dim is None:
        def backward0(g):
            x = s()
            if x.numel() == 0:
                return (tv.zeros_like(x),)
            return (grad_along(x, r(), g, None),)
        return "ProdBackward0", (input,), backward0
    d = _layout.normalize_dim(dim, builtins.max(len(shape), 1))

    def backward1(g):
        x = s()
        if not shape:
            return (g,)
        if x.shape[d] == 0:
            return (tv.zeros_like(x),)
        gg = g if keepdim else g.unsqueeze(d)
        return (grad_along(x, r(), gg, d),)
    return "ProdBackward1", (input,), backward1


def _scatter_at(shape, dim, keepdim, g, idx, like):
    """A gradient placed at ``idx`` along ``dim`` (max/min/median/kthvalue/mode)."""
    if not keepdim and shape:
        g = g.unsqueeze(dim)
        idx = idx.unsqueeze(dim)
    z = tv.zeros(shape, dtype=g.dtype, device=g.device)
    return z.scatter(dim, idx, g) if shape else g.reshape(shape)


def _evenly(x, value, g):
    """The gradient of a full max/min/median: shared evenly among the elements equal to it."""
    mask = (x == value).to(g.dtype)
    return mask * (g / mask.sum())


def _select_reduction(name: str, full_node: str, dim_node: str, evenly: bool = True):
    @formula(name)
    def f(ctx, input, dim=None, keepdim=False, *args, out=None, **kwargs):
        _plain_out(ctx)
        shape = input._shape
        if dim is None or isinstance(dim, Tensor) and False:
            if isinstance(dim, Tensor) or (dim is not None):
                pass
        if dim is None and not args:
            s = ctx.save(input, "self")
            r = ctx.save(ctx.out, "result")
            return full_node, (input,), lambda g: (_evenly(s(), r(), g),)
        if isinstance(dim, Tensor):  # (max(a, b): the elementwise form)
            return FORMULAS["maximum" if name == "max" else "minimum"](ctx, input, dim)
        d = _layout.normalize_dim(dim, builtins.max(len(shape), 1))
        idx = ctx.save(ctx.out[1], "indices")
        ctx.outputs = (ctx.out[0], ctx.out[1])

        def backward(g, gi=None):
            return (_scatter_at(shape, d, keepdim, g, idx(), None),)
        return dim_node, (input,), backward
    return f


_select_reduction("max", "MaxBackward1", "MaxBackward0")
_select_reduction("min", "MinBackward1", "MinBackward0")
_select_reduction("median", "MedianBackward0", "MedianBackward1")
_select_reduction("nanmedian", "NanmedianBackward0", "NanmedianBackward1")


@formula("kthvalue")
def _kthvalue(ctx, input, k, dim=-1, keepdim=False, *, out=None):
    _plain_out(ctx)
    shape = input._shape
    d = _layout.normalize_dim(dim, builtins.max(len(shape), 1))
    idx = ctx.save(ctx.out[1], "indices")
    ctx.outputs = tuple(ctx.out)
    return "KthvalueBackward0", (input,), \
        lambda g, gi=None: (_scatter_at(shape, d, keepdim, g, idx(), None),)


@formula("mode")
def _mode(ctx, input, dim=-1, keepdim=False, *, out=None):
    _plain_out(ctx)
    shape = input._shape
    d = _layout.normalize_dim(dim, builtins.max(len(shape), 1))
    idx = ctx.save(ctx.out[1], "indices")
    ctx.outputs = tuple(ctx.out)
    return "ModeBackward0", (input,), \
        lambda g, gi=None: (_scatter_at(shape, d, keepdim, g, idx(), None),)


def _amax(name, node):
    @formula(name)
    def f(ctx, input, dim=(), keepdim=False, *, out=None):
        shape = input._shape
        dims = _dims(dim if dim != () else None, len(shape))
        s = ctx.save(input, "self")
        r = ctx.save(ctx.out, "result")

        def backward(g):
            x = s()
            res = _unsqueeze_to(r(), shape, dims, keepdim)
            mask = (x == res).to(g.dtype)
            count = mask.sum(dims, keepdim=True) if shape else mask
            return (mask * _unsqueeze_to(g, shape, dims, keepdim) / count,)
        return node, (input,), backward
    return f


_amax("amax", "AmaxBackward0")
_amax("amin", "AminBackward0")


def _var_like(name: str, node: str, is_std: bool):
    @formula(name)
    def f(ctx, input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None,
          axis=None):
        dim = axis if dim is None and axis is not None else dim
        if isinstance(dim, builtins.bool) and unbiased is None:
            unbiased, dim = dim, None
        corr = correction if correction is not None else (
            0 if unbiased is False else 1)
        shape = input._shape
        dims = _dims(dim, len(shape))
        n = 1
        for d in dims:
            n *= shape[d] if shape else 1
        s = ctx.save(input, "self")
        r = ctx.save(ctx.out, "result") if is_std else None

        def backward(g):
            x = s()
            mean = x.mean(dims, keepdim=True) if shape else x
            gg = _unsqueeze_to(g, shape, dims, keepdim)
            grad = (x - mean) * (2.0 / builtins.max(n - corr, 0)) if n - corr > 0 else \
                (x - mean) * float("inf")
            if is_std:
                sd = _unsqueeze_to(r(), shape, dims, keepdim)
                return (gg * grad / (sd * 2),)
            return (gg * grad,)
        return node, (input,), backward
    return f


_var_like("var", "VarBackward0", False)
_var_like("std", "StdBackward0", True)


@formula("logsumexp")
def _logsumexp(ctx, input, dim=None, keepdim=False, *, out=None):
    shape = input._shape
    dims = _dims(dim, len(shape))
    s = ctx.save(input, "self")
    r = ctx.save(ctx.out, "result")

    def backward(g):
        res = _unsqueeze_to(r(), shape, dims, keepdim)
        return (_unsqueeze_to(g, shape, dims, keepdim) * (s() - res).exp(),)
    return "LogsumexpBackward0", (input,), backward


def _norm_backward(x, res, g, p, dims, keepdim, shape):
    res = _unsqueeze_to(res, shape, dims, keepdim)
    g = _unsqueeze_to(g, shape, dims, keepdim)
    if p == 2:
        scale = tv.where(res == 0, tv.zeros_like(res), g / res)
        return x * scale if x._dtype.category != _dtypes._COMPLEX else x * scale
    if p == 1:
        return x.sgn() * g
    if p == float("inf") or p == -float("inf"):
        mask = (x.abs() == res).to(g.dtype)
        return x.sgn() * mask * g / mask.sum(dims, keepdim=True)
    if p == 0:
        return tv.zeros_like(x)
    a = x.abs()
    out = x.sgn() * a.pow(p - 1) * g / res.pow(p - 1)
    return tv.where(res == 0, tv.zeros_like(out), out)


@formula("linalg.vector_norm")
def _vector_norm(ctx, x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    shape = x._shape
    dims = _dims(dim, len(shape))
    s = ctx.save(x, "self")
    r = ctx.save(ctx.out, "result")
    return "LinalgVectorNormBackward0", (x,), \
        lambda g: (_norm_backward(s(), r(), g, ord, dims, keepdim, shape),)


@formula("norm")
def _norm(ctx, input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    if p == "fro" or p is None:
        p = 2
    if isinstance(p, str):
        return None
    return _vector_norm(ctx, input, p, dim, keepdim)


@composite("norm")
def _norm_c(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    # (the nuclear norm is PyTorch's nuclear_norm -> linalg.matrix_norm: singular values)
    if p == "nuc":
        with tv.no_grad():  # (the op's own argument checks and errors)
            tv.norm(input.detach(), p, dim, keepdim, dtype=dtype)
        return tv.linalg.matrix_norm(input, "nuc", (-2, -1) if dim is None else dim, keepdim)
    return _recorded("norm", tv.norm.__wrapped__, input, p, dim, keepdim, dtype=dtype)


@formula("dist")
def _dist(ctx, input, other, p=2):
    a = ctx.save(input, "self")
    b = ctx.save(other, "other")
    r = ctx.save(ctx.out, "result")

    def backward(g):
        diff = a() - b()
        gd = _norm_backward(diff, r(), g, p, tuple(range(diff.dim())), False, diff.shape)
        return gd, -gd
    return "DistBackward0", (input, other), backward


@formula("cumsum")
def _cumsum(ctx, input, dim, *, dtype=None, out=None, axis=None):
    d = _layout.normalize_dim(dim, builtins.max(len(input._shape), 1))
    return "CumsumBackward0", (input,), \
        lambda g: (g.flip(d).cumsum(d).flip(d) if input._shape else g,)


@formula("cumprod")
def _cumprod(ctx, input, dim, *, dtype=None, out=None):
    d = _layout.normalize_dim(dim, builtins.max(len(input._shape), 1))
    s = ctx.save(input, "self")
    r = ctx.save(ctx.out, "result")

    def backward(g):
        x, y = s(), r()
        if not x.shape:
            return (g,)
        # exact with zeros: d y_j / d x_i = prod_{k<=j, k != i} x_k
        n = x.shape[d]
        out = tv.zeros_like(x)
        for i in range(n):
            xi_removed = x.clone()
            xi_removed.narrow(d, i, 1).fill_(1)
            cp = xi_removed.cumprod(d)
            mask = (tv.arange(n, device=x.device) >= i)
            shape = [1] * x.dim()
            shape[d] = n
            contrib = (g * cp * mask.reshape(shape).to(g.dtype)).sum(d, keepdim=True)
            out = out + contrib * _onehot(n, i, d, x)
        return (out,) if (x == 0).any() else ((g * y).flip(d).cumsum(d).flip(d) / x,)
    return "CumprodBackward0", (input,), backward


def _onehot(n, i, d, like):
    shape = [1] * like.dim()
    shape[d] = n
    v = tv.zeros(n, dtype=like.dtype, device=like.device)
    v[i] = 1
    return v.reshape(shape)


def _cum_ext(name, node):
    @formula(name)
    def f(ctx, input, dim, *, out=None):
        _plain_out(ctx)
        shape = input._shape
        d = _layout.normalize_dim(dim, builtins.max(len(shape), 1))
        idx = ctx.save(ctx.out[1], "indices")
        ctx.outputs = tuple(ctx.out)

        def backward(g, gi=None):
            if not shape:
                return (g,)
            z = tv.zeros(shape, dtype=g.dtype, device=g.device)
            return (z.scatter_add(d, idx(), g),)
        return node, (input,), backward
    return f


_cum_ext("cummax", "CummaxBackward0")
_cum_ext("cummin", "CumminBackward0")


@formula("logcumsumexp")
def _logcumsumexp(ctx, input, dim, *, out=None):
    d = _layout.normalize_dim(dim, builtins.max(len(input._shape), 1))
    s = ctx.save(input, "self")
    r = ctx.save(ctx.out, "result")

    def backward(g):
        x, y = s(), r()
        if not x.shape:
            return (g,)
        # grad_i = sum_{j>=i} g_j exp(x_i - y_j)
        w = (g.log() - y) if False else None
        scaled = g * (-y).exp()
        return ((scaled.flip(d).cumsum(d).flip(d)) * x.exp(),)
    return "LogcumsumexpBackward0", (input,), backward


@formula("sort")
def _sort(ctx, input, dim=-1, descending=False, stable=False, *, out=None):
    _plain_out(ctx)
    shape = input._shape
    d = _layout.normalize_dim(dim, builtins.max(len(shape), 1))
    idx = ctx.save(ctx.out[1], "indices")
    ctx.outputs = tuple(ctx.out)

    def backward(g, gi=None):
        if not shape:
            return (g,)
        return (tv.zeros(shape, dtype=g.dtype, device=g.device).scatter(d, idx(), g),)
    return "SortBackward0", (input,), backward


@formula("topk")
def _topk(ctx, input, k, dim=-1, largest=True, sorted=True, *, out=None):
    _plain_out(ctx)
    shape = input._shape
    d = _layout.normalize_dim(dim, builtins.max(len(shape), 1))
    idx = ctx.save(ctx.out[1], "indices")
    ctx.outputs = tuple(ctx.out)

    def backward(g, gi=None):
        if not shape:
            return (g,)
        return (tv.zeros(shape, dtype=g.dtype, device=g.device).scatter(d, idx(), g),)
    return "TopkBackward0", (input,), backward


# ---------------------------------------------------------------- views and copies
def _view_like(name: str, node: str):
    @formula(name)
    def f(ctx, input, *args, **kwargs):
        shape = input._shape
        return node, (input,), lambda g: (g.reshape(shape),)
    return f


def _is_view_of(out, input) -> bool:
    return isinstance(out, Tensor) and out._storage is input._storage


@formula("view")
def _view(ctx, input, *args, **kwargs):
    shape = input._shape
    if ctx.out._dtype is not input._dtype:  # view(dtype): PyTorch has no derivative
        return None
    return "ViewBackward0", (input,), lambda g: (g.reshape(shape),)


_view_like("view_as", "ViewBackward0")
_view_like("unflatten", "ViewBackward0")


@formula("reshape", "reshape_as", "flatten")
def _reshape(ctx, input, *args, **kwargs):
    shape = input._shape
    if _is_view_of(ctx.out, input):
        # (PyTorch views a non-contiguous input through _reshape_alias)
        node = "ViewBackward0" if input.is_contiguous() else "ReshapeAliasBackward0"
        return node, (input,), lambda g: (g.reshape(shape),)
    mid = ctx.intermediate("CloneBackward0", input, lambda g: (g,))
    return "UnsafeViewBackward0", (mid,), lambda g: (g.reshape(shape),)


@composite("ravel")
def _ravel(input):
    # (PyTorch: contiguous().view(-1) -- a copy is CloneBackward0 then ViewBackward0)
    return input.contiguous().view(-1)


def _inplace_view(ctx, input) -> bool:
    """True when a view op runs in place (``t_``, ``squeeze_`` ...): the recorder then hands
    the formula a copy of the tensor as it was, whose storage the result does not share."""
    return ctx.out._storage is not input._storage


@formula("t")
def _t(ctx, input):
    def backward(g):
        if plain() and type(g) is Tensor and len(g._shape) == 2:  # (t()'s view, made directly)
            (m, n), (sm, sn) = g._shape, g._stride
            a = g._a
            return (g._view((n, m), (sn, sm), g._offset, None,
                            None if a is None or g._cj else a.T),)
        return (g.t(),)
    return ("TBackward1" if _inplace_view(ctx, input) else "TBackward0"), (input,), \
        backward


@formula("transpose", "swapaxes", "swapdims")
def _transpose(ctx, input, dim0, dim1):
    return "TransposeBackward1" if _inplace_view(ctx, input) else "TransposeBackward0", \
        (input,), lambda g: (g.transpose(dim0, dim1),)


# In-place view ops rebase their tensor onto a node of their own name (PyTorch's
# TransposeBackward1, TBackward1, SqueezeBackward4/5, UnsqueezeBackward1).
@formula("transpose_", "swapaxes_", "swapdims_")
def _transpose_(ctx, input, dim0, dim1):
    return "TransposeBackward1", (input,), lambda g: (g.transpose(dim0, dim1),)


@formula("t_")
def _t_(ctx, input):
    return "TBackward1", (input,), lambda g: (g.t(),)


@formula("squeeze_")
def _squeeze_(ctx, input, dim=None):
    shape = input._shape
    name = "SqueezeBackward3" if dim is None else (
        "SqueezeBackward5" if isinstance(dim, (list, tuple)) else "SqueezeBackward4")
    return name, (input,), lambda g: (g.reshape(shape),)


@formula("unsqueeze_")
def _unsqueeze_(ctx, input, dim):
    d = _layout.normalize_dim(dim, len(input._shape) + 1)
    return "UnsqueezeBackward1", (input,), lambda g: (g.squeeze(d),)


@formula("permute")
def _permute(ctx, input, *dims, **kw):
    dims = kw.get("dims", dims)
    if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
        dims = tuple(dims[0])
    n = len(input._shape)
    dims = [_layout.normalize_dim(d, builtins.max(n, 1)) for d in dims]
    inv = [0] * n
    for i, d in enumerate(dims):
        inv[d] = i
    return "PermuteBackward0", (input,), lambda g: (g.permute(*inv),)


@formula("movedim", "moveaxis")
def _movedim(ctx, input, source, destination):
    out_shape = ctx.out._shape
    return "PermuteBackward0", (input,), lambda g: (g.movedim(destination, source),)


@formula("T")
def _T(ctx, input):
    n = len(input._shape)
    return "PermuteBackward0", (input,), lambda g: (g.permute(*reversed(range(n))),)


@formula("mT")
def _mT(ctx, input):
    return "TransposeBackward0", (input,), lambda g: (g.transpose(-2, -1),)


def _conj_transposed(name: str):
    # PyTorch's graph: TransposeBackward0, then ConjBackward0 for a complex input; a 0-D
    # input only conjugated (views._conj_transpose runs the recorded transpose and conj)
    def run(input):
        from ..ops.views import _conj_transpose
        return _conj_transpose(input, name, name == "H")
    return run


for _name in ("H", "mH", "adjoint"):
    composite(_name)(_conj_transposed(_name))


@formula("squeeze")
def _squeeze(ctx, input, dim=None):
    shape = input._shape
    name = "SqueezeBackward0" if dim is None else (
        "SqueezeBackward2" if isinstance(dim, (list, tuple)) else "SqueezeBackward1")
    if _inplace_view(ctx, input):
        name = name[:-1] + str(int(name[-1]) + 3)
    return name, (input,), lambda g: (g.reshape(shape),)


@formula("unsqueeze")
def _unsqueeze(ctx, input, dim):
    d = _layout.normalize_dim(dim, len(input._shape) + 1)
    return "UnsqueezeBackward1" if _inplace_view(ctx, input) else "UnsqueezeBackward0", \
        (input,), lambda g: (g.squeeze(d),)


@formula("expand", "expand_as", "broadcast_to")
def _expand(ctx, input, *args, **kwargs):
    shape = input._shape
    return "ExpandBackward0", (input,), lambda g: (g,)  # (the engine sums the broadcast)


def _only_self(f):
    """``x.expand_as(other)``, ``view_as``, ``reshape_as``: ``other`` only gives a shape, so
    nothing is recorded unless ``x`` itself takes part (PyTorch: ``x.expand(other.shape)``)."""
    def g(ctx, input, *args, **kwargs):
        return f(ctx, input, *args, **kwargs) if ctx.needs(input) else None
    return g


for _n in ("expand_as", "view_as", "reshape_as"):
    FORMULAS[_n] = _only_self(FORMULAS[_n])


@formula("select")
def _select(ctx, input, dim, index):
    shape = input._shape
    d = _layout.normalize_dim(dim, len(shape))
    i = index.__index__() if not isinstance(index, Tensor) else builtins.int(index.item())
    i = i + shape[d] if i < 0 else i

    def backward(g):
        z = tv.zeros(shape, dtype=g.dtype, device=g.device)
        return (z.select_scatter(g, d, i) if hasattr(z, "select_scatter") else
                _place(z, g, d, slice(i, i + 1), squeeze=True),)
    return "SelectBackward0", (input,), backward


def _place(z, g, d, sl, squeeze=False):
    """``z`` with ``g`` written into the slice ``sl`` of dim ``d`` (recorded when building
    a graph: out of place)."""
    key = (slice(None),) * d + (sl,)
    if squeeze:
        g = g.unsqueeze(d)
    if tv.is_grad_enabled() and g.requires_grad:
        idx = tv.arange(z.shape[d], device=z.device)[sl]
        return z.index_add(d, idx, g)
    z = z.clone()
    z[key] = g
    return z


@formula("_slice")
def _slice_f(ctx, input, dim, start, stop, step):
    shape = input._shape
    return "SliceBackward0", (input,), \
        lambda g: (_place(tv.zeros(shape, dtype=g.dtype, device=g.device), g, dim,
                          slice(start, stop, step)),)


def _narrowing(node: str):
    """``narrow`` (a view: ``SliceBackward0``) and ``narrow_copy``: the gradient is placed
    back into the narrowed range of zeros."""
    def f(ctx, input, dim, start, length):
        shape = input._shape
        d = _layout.normalize_dim(dim, len(shape))
        st = start.__index__() if not isinstance(start, Tensor) else builtins.int(start.item())
        st = st + shape[d] if st < 0 else st
        return node, (input,), \
            lambda g: (_place(tv.zeros(shape, dtype=g.dtype, device=g.device), g, d,
                              slice(st, st + length)),)
    return f


formula("narrow")(_narrowing("SliceBackward0"))
formula("narrow_copy")(_narrowing("NarrowCopyBackward0"))


@formula("alias")
def _alias(ctx, input):
    return "AliasBackward0", (input,), lambda g: (g,)


@formula("diagonal")
def _diagonal(ctx, input, offset=0, dim1=0, dim2=1):
    shape = input._shape

    def backward(g):
        z = tv.zeros(shape, dtype=g.dtype, device=g.device)
        return (tv.diagonal_scatter(z, g, offset, dim1, dim2) if hasattr(tv, "diagonal_scatter")
                else _diag_place(z, g, offset, dim1, dim2),)
    return "DiagonalBackward0", (input,), backward


def _diag_place(z, g, offset, dim1, dim2):
    pos = tv.arange(z.numel(), device=z.device).reshape(z.shape)
    idx = pos.diagonal(offset, dim1, dim2).reshape(-1)
    return z.reshape(-1).index_add(0, idx, g.reshape(-1)).reshape(z.shape)


@formula("as_strided")
def _as_strided(ctx, input, size, stride, storage_offset=None):
    shape, istride, ioff = input._shape, input._stride, input._offset
    n = input._storage.nbytes() // input._dtype.itemsize
    off = ioff if storage_offset is None else storage_offset
    ctx.keep("size", ctx.out._shape)
    ctx.keep("stride", ctx.out._stride)
    ctx.keep("storage_offset", None if storage_offset is None else ctx.out._offset)

    def backward(g):
        # every storage slot the view read gets the sum of its gradients
        pos = tv.arange(n, device=g.device).as_strided(tuple(size), tuple(stride), off)
        flat = tv.zeros(n, dtype=g.dtype, device=g.device).index_add(
            0, pos.reshape(-1), g.reshape(-1))
        return (flat.as_strided(shape, istride, ioff).clone(),)
    return "AsStridedBackward0", (input,), backward


@formula("unfold")
def _unfold(ctx, input, dimension, size, step):
    shape = input._shape
    n = _layout.numel(shape)
    d = _layout.normalize_dim(dimension, builtins.max(len(shape), 1))

    def backward(g):
        pos = tv.arange(n, device=g.device).reshape(shape).unfold(d, size, step)
        flat = tv.zeros(n, dtype=g.dtype, device=g.device).index_add(
            0, pos.reshape(-1), g.reshape(-1))
        return (flat.reshape(shape),)
    return "UnfoldBackward0", (input,), backward


def _split_like(name: str, node: str):
    @formula(name)
    def f(ctx, input, *args, **kwargs):
        outs = tuple(ctx.out)
        ctx.outputs = outs
        shape = input._shape
        geo = [(o._shape, o._offset - input._offset) for o in outs]
        d = _split_dim(name, input, args, kwargs, outs)

        def backward(*grads):
            parts = [g if g is not None else tv.zeros(s, dtype=_first(grads).dtype,
                                                      device=_first(grads).device)
                     for g, (s, _) in zip(grads, geo)]
            if name == "unbind":
                return (tv.stack(parts, d),)
            return (tv.cat(parts, d),)
        return node, (input,), backward
    return f


def _first(grads):
    return next(g for g in grads if g is not None)


def _split_dim(name, input, args, kwargs, outs):
    if name == "unbind":
        dim = args[0] if args else kwargs.get("dim", 0)
    elif name in ("hsplit",):
        return 1 if len(input._shape) > 1 else 0
    elif name == "vsplit":
        return 0
    elif name == "dsplit":
        return 2
    else:
        dim = args[1] if len(args) > 1 else kwargs.get("dim", 0)
    return _layout.normalize_dim(dim, builtins.max(len(input._shape), 1))


_split_like("split", "SplitBackward0")
_split_like("chunk", "SplitBackward0")
_split_like("split_with_sizes", "SplitWithSizesBackward0")
_split_like("unbind", "UnbindBackward0")
_split_like("tensor_split", "SplitBackward0")
_split_like("hsplit", "SplitBackward0")
_split_like("vsplit", "SplitBackward0")
_split_like("dsplit", "SplitBackward0")


@formula("clone")
def _clone(ctx, input, *, memory_format=None):
    return "CloneBackward0", (input,), lambda g: (g,)


@formula("contiguous")
def _contiguous(ctx, input, memory_format=None):
    if ctx.out is input:
        return None
    return "CloneBackward0", (input,), lambda g: (g,)


def _to_copy(name):
    @formula(name)
    def f(ctx, input, *args, **kwargs):
        if ctx.out is input:
            return None
        dt, dev = input._dtype, input._storage._device
        return "ToCopyBackward0", (input,), lambda g: (g,)  # (the engine casts back)
    return f


for _n in ("to", "type", "double", "float", "half", "cfloat", "cdouble", "cpu", "cuda",
           "type_as"):
    _to_copy(_n)


@formula("real")
def _real(ctx, input):
    if ctx.out is input or input._dtype.category != _dtypes._COMPLEX:
        return None
    return "RealBackward0", (input,), lambda g: (g.to(input._dtype),)


@formula("imag")
def _imag(ctx, input):
    return "ImagBackward0", (input,), lambda g: (g.to(input._dtype) * 1j,)


def _real_imag(part: int):
    def f(input):
        # PyTorch's at::real / at::imag of a complex tensor: a view of view_as_real, the last
        # dim selected (SelectBackward0 over ViewAsRealBackward0); of a conjugate view,
        # view_as_real of its conjugate (ConjBackward0), negated for the imaginary part
        # (NegViewBackward0)
        if not isinstance(input, Tensor) or input._dtype.category != _dtypes._COMPLEX:
            return _recorded("real" if part == 0 else "imag",
                             (tv.real if part == 0 else tv.imag).__wrapped__, input)
        if input.is_conj():
            pairs = tv.view_as_real(tv.conj(input))
            if part == 1:
                pairs = _record_mod._neg_view(pairs)
            return pairs.select(-1, part)
        return tv.view_as_real(input).select(-1, part)
    return f


@formula("_neg_view")
def _neg_view_f(ctx, input):
    return "NegViewBackward0", (input,), lambda g: (g.neg(),)


COMPOSITES["real"] = _real_imag(0)
COMPOSITES["imag"] = _real_imag(1)


@formula("conj")
def _conj(ctx, input, *, out=None):
    if ctx.out is input:
        return None
    return "ConjBackward0", (input,), lambda g: (g.conj(),)


@formula("flip")
def _flip(ctx, input, *dims, **kw):
    dims = kw.get("dims", dims)
    if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
        dims = tuple(dims[0])
    return "FlipBackward0", (input,), lambda g: (g.flip(dims),)


@formula("roll")
def _roll(ctx, input, shifts, dims=None):
    if isinstance(shifts, (list, tuple)):
        neg = tuple(-s for s in shifts)
    else:
        neg = -shifts
    shape = input._shape

    def backward(g):
        if dims is None:
            return (g.reshape(-1).roll(neg).reshape(shape),)
        return (g.roll(neg, dims),)
    return "RollBackward0", (input,), backward


@formula("repeat")
def _repeat(ctx, input, *sizes, **kw):
    sizes = kw.get("repeats", sizes)
    if len(sizes) == 1 and isinstance(sizes[0], (list, tuple)):
        sizes = tuple(sizes[0])
    shape = input._shape

    def backward(g):
        lead = len(sizes) - len(shape)
        g = g.reshape(tuple(sizes[:lead]) + tuple(v for pair in zip(sizes[lead:], shape)
                                                   for v in pair))
        axes = tuple(range(lead)) + tuple(lead + 2 * i for i in range(len(shape)))
        return (g.sum(axes) if axes else g,)
    return "RepeatBackward0", (input,), backward


@composite("tile")
def _tile(input, *dims, **kwargs):
    # (every spelling's arguments: tile(x, (2, 1)), x.tile(2, 1), x.tile(2), dims=...)
    from ..ops.joining import _dims_kw, _int_tuple
    dims = _int_tuple(_dims_kw("tile", dims, kwargs), "tile", "dims")
    if len(dims) < input.dim():
        dims = (1,) * (input.dim() - len(dims)) + dims
    return input.repeat(*dims)


@composite("tile:function")
def _tile_function(input, dims=None, **kwargs):
    # (the function takes one sequence: tile(x, 2) is refused, as the plain op refuses it)
    from ..ops.joining import check_tile_dims
    if dims is not None:
        check_tile_dims(dims)
        return _tile(input, dims, **kwargs)
    return _tile(input, **kwargs)


@formula("tril")
def _tril(ctx, input, diagonal=0, *, out=None):
    return "TrilBackward0", (input,), lambda g: (g.tril(diagonal),)


@formula("triu")
def _triu(ctx, input, diagonal=0, *, out=None):
    return "TriuBackward0", (input,), lambda g: (g.triu(diagonal),)


@formula("diag")
def _diag(ctx, input, diagonal=0, *, out=None):
    shape = input._shape
    if len(shape) == 1:
        return "DiagEmbedBackward0", (input,), lambda g: (g.diagonal(diagonal),)
    return "DiagonalBackward0_copy", (input,), \
        lambda g: (_diag_place(tv.zeros(shape, dtype=g.dtype, device=g.device), g,
                               diagonal, 0, 1),)


@formula("trace")
def _trace(ctx, input):
    shape = input._shape
    return "TraceBackward0", (input,), \
        lambda g: (tv.eye(shape[0], shape[1], dtype=g.dtype, device=g.device) * g,)


# ---------------------------------------------------------------- joining and indexing
@formula("cat", "concat", "concatenate")
def _cat(ctx, tensors, dim=0, *, out=None, axis=None):
    tensors = tuple(tensors)
    dim = axis if axis is not None else dim
    ref = next(t for t in tensors if t._shape != (0,) or len(tensors) == 1)
    d = _layout.normalize_dim(dim, builtins.max(len(ref._shape), 1))
    sizes = [(t._shape[d] if t._shape != (0,) or len(ref._shape) == 1 else 0) for t in tensors]
    skip = [t._shape == (0,) and len(ref._shape) != 1 for t in tensors]

    def backward(g):
        out, pos = [], 0
        for n, sk, t in zip(sizes, skip, tensors):
            if sk:
                out.append(None)
                continue
            out.append(g.narrow(d, pos, n))
            pos += n
        return tuple(out)
    return "CatBackward0", tensors, backward


@formula("stack")
def _stack(ctx, tensors, dim=0, *, out=None):
    tensors = tuple(tensors)
    d = _layout.normalize_dim(dim, len(tensors[0]._shape) + 1)
    return "StackBackward0", tensors, lambda g: tuple(g.unbind(d))


@formula("hstack", "vstack", "dstack", "column_stack", "row_stack")
def _hstack(ctx, tensors, *, out=None):
    return None


def _index_grad(shape, key, g):
    """Gradient of ``x[key]`` (advanced): summed back to every position read."""
    n = _layout.numel(shape)
    pos = tv.arange(n, device=g.device).reshape(shape)[key]
    return tv.zeros(n, dtype=g.dtype, device=g.device).index_add(
        0, pos.reshape(-1), g.reshape(-1)).reshape(shape)


@formula("index")
def _index(ctx, input, key):
    shape = input._shape
    return "IndexBackward0", (input,), lambda g: (_index_grad(shape, key, g),)


@formula("index_put_", "index_put")
def _index_put(ctx, input, key, value, accumulate=False):
    shape = input._shape
    vshape = value._shape if isinstance(value, Tensor) else None

    def backward(g):
        gi = g.clone()
        if not accumulate:
            gi[key] = 0.0
        gv = None
        if isinstance(value, Tensor) and ctx.needs(value):
            gv = g[key]
        return gi, gv
    return "IndexPutBackward0", (input, value), backward  # (indices: no edge)


@formula("copy_")
def _copy(ctx, input, src, non_blocking=False):
    def backward(g):
        return tv.zeros_like(g), (g if isinstance(src, Tensor) else None)
    return "CopyBackwards", (input, src), backward


@formula("fill_")
def _fill(ctx, input, value):
    def backward(g):
        gv = g.sum() if isinstance(value, Tensor) else None
        return tv.zeros_like(g), gv
    if isinstance(value, Tensor):
        return "FillBackward1", (input, value), backward
    return "FillBackward0", (input,), lambda g: (tv.zeros_like(g),)


@formula("zero_")
def _zero(ctx, input):
    return "ZeroBackward0", (input,), lambda g: (tv.zeros_like(g),)


@formula("gather")
def _gather(ctx, input, dim, index, *, sparse_grad=False, out=None):
    shape = input._shape
    si = ctx.save(index, "index")
    d = _layout.normalize_dim(dim, builtins.max(len(shape), 1))
    return "GatherBackward0", (input,), \
        lambda g: (tv.zeros(shape, dtype=g.dtype, device=g.device).scatter_add(d, si(), g),)


@formula("take_along_dim")
def _take_along_dim(ctx, input, indices, dim=None, *, out=None):
    shape = input._shape
    si = ctx.save(indices, "indices")

    def backward(g):
        if dim is None:
            return (tv.zeros(_layout.numel(shape), dtype=g.dtype, device=g.device)
                    .scatter_add(0, si().reshape(-1), g.reshape(-1)).reshape(shape),)
        d = _layout.normalize_dim(dim, len(shape))
        idx = si().expand(g.shape) if si().shape != g.shape else si()
        return (tv.zeros(shape, dtype=g.dtype, device=g.device).scatter_add(d, idx, g),)
    return "TakeAlongDimBackward0", (input,), backward


@formula("index_select")
def _index_select(ctx, input, dim, index, *, out=None):
    shape = input._shape
    si = ctx.save(index, "index")
    d = _layout.normalize_dim(dim, builtins.max(len(shape), 1))
    return "IndexSelectBackward0", (input,), \
        lambda g: (tv.zeros(shape, dtype=g.dtype, device=g.device).index_add(
            d, si().reshape(-1), g),)


@formula("take")
def _take(ctx, input, index, *, out=None):
    shape = input._shape
    si = ctx.save(index, "index")
    return "TakeBackward0", (input,), \
        lambda g: (tv.zeros(_layout.numel(shape), dtype=g.dtype, device=g.device).index_add(
            0, si().reshape(-1), g.reshape(-1)).reshape(shape),)


@formula("masked_select")
def _masked_select(ctx, input, mask, *, out=None):
    shape = input._shape
    sm = ctx.save(mask, "mask")

    def backward(g):
        m = sm().expand(tv.broadcast_shapes(shape, sm().shape)) if sm().shape != shape else sm()
        z = tv.zeros(m.shape, dtype=g.dtype, device=g.device)
        return (z.masked_scatter(m, g),)
    return "MaskedSelectBackward0", (input,), backward


@formula("scatter")
def _scatter(ctx, input, dim, index, src=None, *, value=None, reduce=None, out=None):
    if reduce is not None:
        return None
    si = ctx.save(index, "index")
    d = dim

    def backward(g):
        gi = g.scatter(d, si(), 0.0)
        gs = g.gather(d, si()) if isinstance(src, Tensor) else None
        return gi, gs
    if isinstance(src, Tensor):
        return "ScatterBackward0", (input, src), backward
    return "ScatterBackward1", (input,), lambda g: backward(g)[:1]


@formula("scatter_add")
def _scatter_add(ctx, input, dim, index, src, *, out=None):
    si = ctx.save(index, "index")
    return "ScatterAddBackward0", (input, src), lambda g: (g, g.gather(dim, si()))


@formula("index_add")
def _index_add(ctx, input, dim, index, source, *, alpha=1, out=None):
    si = ctx.save(index, "index")
    return "IndexAddBackward0", (input, source), \
        lambda g: (g, g.index_select(dim, si()) * alpha if source.dim() else
                   g.index_select(dim, si()).reshape(source.shape) * alpha)


@formula("index_fill")
def _index_fill(ctx, input, dim, index, value):
    si = ctx.save(index, "index")
    return "IndexFillBackward0", (input,), lambda g: (g.index_fill(dim, si(), 0),)


# ---------------------------------------------------------------- linear algebra
@formula("mm")
def _mm(ctx, input, mat2, *, out=None):
    a_needs, b_needs = ctx.needs(input), ctx.needs(mat2)
    sb = ctx.save(mat2, "mat2") if a_needs else None
    sa = ctx.save(input, "self") if b_needs else None

    def backward(g):
        ga = cpu(g)
        if ga is not None and plain() and real_float(g):  # (the same products, on the arrays)
            b = cpu(sb()) if a_needs else None
            a = cpu(sa()) if b_needs else None
            if (b is None or b.dtype is ga.dtype) and (a is None or a.dtype is ga.dtype) and \
                    (b is not None or not a_needs) and (a is not None or not b_needs):
                dt = g._dtype
                return (fresh(ga.dot(b.T), dt) if a_needs else None,
                        fresh(a.T.dot(ga), dt) if b_needs else None)
        return (g.mm(_c(sb()).t()) if a_needs else None,
                _c(sa()).t().mm(g) if b_needs else None)
    return "MmBackward0", (input, mat2), backward


@formula("bmm")
def _bmm(ctx, input, mat2, *, out=None):
    a_needs, b_needs = _needs(ctx, input, mat2)
    sb = ctx.save(mat2, "mat2") if a_needs else None
    sa = ctx.save(input, "self") if b_needs else None
    return "BmmBackward0", (input, mat2), \
        lambda g: (g.bmm(_c(sb()).transpose(1, 2)) if a_needs else None,
                   _c(sa()).transpose(1, 2).bmm(g) if b_needs else None)


@formula("mv")
def _mv(ctx, input, vec, *, out=None):
    a_needs, b_needs = _needs(ctx, input, vec)
    sv = ctx.save(vec, "vec") if a_needs else None
    sa = ctx.save(input, "self") if b_needs else None
    return "MvBackward0", (input, vec), \
        lambda g: (g.unsqueeze(1) * _c(sv()).unsqueeze(0) if a_needs else None,
                   _c(sa()).t().mv(g) if b_needs else None)


@formula("dot", "inner_1d")
def _dot(ctx, input, other, *, out=None):
    a_needs, b_needs = _needs(ctx, input, other)
    so = ctx.save(other, "tensor") if a_needs else None
    si = ctx.save(input, "self") if b_needs else None
    return "DotBackward0", (input, other), \
        lambda g: (g * _c(so()) if a_needs else None, g * _c(si()) if b_needs else None)


@formula("vdot")
def _vdot(ctx, input, other, *, out=None):
    so = ctx.save(other, "other")
    si = ctx.save(input, "self")
    return "VdotBackward0", (input, other), \
        lambda g: (_c(g) * so() if ctx.needs(input) else None,
                   g * si() if ctx.needs(other) else None)


@formula("addmm")
def _addmm(ctx, input, mat1, mat2, *, beta=1, alpha=1, out=None):
    a_needs, b_needs = ctx.needs(mat1), ctx.needs(mat2)
    s2 = ctx.save(mat2, "mat2") if a_needs else None
    s1 = ctx.save(mat1, "mat1") if b_needs else None

    def backward(g):
        ga = cpu(g)
        if ga is not None and alpha == 1 and beta == 1 and plain() and real_float(g):
            b = cpu(s2()) if a_needs else None
            a = cpu(s1()) if b_needs else None
            if (b is None or b.dtype is ga.dtype) and (a is None or a.dtype is ga.dtype) and \
                    (b is not None or not a_needs) and (a is not None or not b_needs):
                dt = g._dtype
                return (g if ctx.needs(input) else None,
                        fresh(ga.dot(b.T), dt) if a_needs else None,
                        fresh(a.T.dot(ga), dt) if b_needs else None)
        gi = (g if beta == 1 else g * _c(beta)) if ctx.needs(input) else None
        g1 = g.mm(_c(s2()).t()) if a_needs else None
        g2 = _c(s1()).t().mm(g) if b_needs else None
        if alpha != 1:
            g1 = g1 * _c(alpha) if g1 is not None else None
            g2 = g2 * _c(alpha) if g2 is not None else None
        return gi, g1, g2
    return "AddmmBackward0", (input, mat1, mat2), backward


@formula("addmv")
def _addmv(ctx, input, mat, vec, *, beta=1, alpha=1, out=None):
    sm = ctx.save(mat, "mat")
    sv = ctx.save(vec, "vec")
    return "AddmvBackward0", (input, mat, vec), \
        lambda g: (g * beta, g.unsqueeze(1) * _c(sv()).unsqueeze(0) * alpha,
                   _c(sm()).t().mv(g) * alpha)


@formula("baddbmm")
def _baddbmm(ctx, input, batch1, batch2, *, beta=1, alpha=1, out=None):
    s1 = ctx.save(batch1, "batch1")
    s2 = ctx.save(batch2, "batch2")
    return "BaddbmmBackward0", (input, batch1, batch2), \
        lambda g: (g * beta, g.bmm(_c(s2()).transpose(1, 2)) * alpha,
                   _c(s1()).transpose(1, 2).bmm(g) * alpha)


def _uview(t, shape):
    """``at::_unsafe_view``: a reshape recorded as ``UnsafeViewBackward0``."""
    return _recorded("_unsafe_view", lambda x, sh: x.reshape(sh), t, tuple(shape))


def _should_fold(t1_, t2_) -> bool:
    """PyTorch's should_fold: the larger operand (>= 3-D, the other <= 2-D) folds its batch
    into the rows of one mm/mv -- always when the smaller one requires grad, else when the
    fold needs no copy."""
    larger = t1_.dim() >= t2_.dim()
    t1 = t1_ if larger else t2_.mT
    d2 = t2_.dim() if larger else t1_.dim()
    if not (t1.dim() >= 3 and d2 <= 2):
        return False
    if (t2_ if larger else t1_).requires_grad:
        return True
    if t1_.dim() == 2:
        return False
    if t1.numel() == 0:
        return True
    sh, st = t1.shape, t1.stride()
    return all(st[i] == st[i + 1] * sh[i + 1] for i in range(t1.dim() - 2))


@composite("matmul")
def _matmul(input, other, *, out=None):
    # PyTorch's _matmul_impl, branch for branch (its graph: dot/mv/mm, the folded mm/mv with
    # _unsafe_view, or expand + reshape + bmm + _unsafe_view)
    if type(input) is Tensor and type(other) is Tensor and len(input._shape) == 2 and \
            len(other._shape) == 2:
        return input.mm(other)  # (two matrices: the common case, first)
    a, b = input.dim(), other.dim()
    if a == 0 or b == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{a}D and {b}D")
    if a == 1 and b == 1:
        return input.dot(other)
    if a == 2 and b == 1:
        return input.mv(other)
    if a == 1 and b == 2:
        return input.unsqueeze(0).mm(other).squeeze_(0)
    if a == 2 and b == 2:
        return input.mm(other)
    if _should_fold(input, other):
        transpose = b > a
        t1 = other.mT if transpose else input
        t2 = (input.t() if a == 2 else input) if transpose else other
        out_shape = list(t1.shape[:-1])
        folded = math.prod(out_shape)
        if t2.dim() == 2:
            out_shape.append(t2.shape[1])
        t1f = t1.reshape(folded, t1.shape[-1])
        if t2.dim() == 2:
            res = _uview(t1f.mm(t2), out_shape)
            return res.mT.contiguous() if transpose else res
        return _uview(t1f.mv(t2), out_shape)
    n = input.shape[-2] if a > 1 else 1
    m1 = input.shape[-1]
    batch1 = tuple(input.shape[:builtins.max(a - 2, 0)])
    m2 = other.shape[-2] if b > 1 else other.shape[0]
    p = other.shape[-1] if b > 1 else 1
    batch2 = tuple(other.shape[:builtins.max(b - 2, 0)])
    if a == 3 and b == 3 and batch1[0] != batch2[0]:
        if batch1[0] == 1 and input.requires_grad:
            return _matmul(input.squeeze(0), other)
        if batch2[0] == 1 and other.requires_grad:
            return _matmul(input, other.squeeze(0))
    out_shape = list(tv.broadcast_shapes(batch1, batch2))
    nb = math.prod(out_shape)
    x = input.expand(*out_shape, n, m1).reshape(nb, n, m1)
    y = other.expand(*out_shape, m2) if b == 1 else other.expand(*out_shape, m2, p)
    y = y.reshape(nb, m2).unsqueeze(2) if b == 1 else y.reshape(nb, m2, p)
    if a > 1:
        out_shape.append(n)
    if b > 1:
        out_shape.append(p)
    res = x.bmm(y)
    return _uview(res.squeeze(-1) if b == 1 else res, out_shape)


@composite("__rmatmul__")
def _rmatmul(self, other):
    return _matmul(other, self)


@composite("outer", "ger")
def _outer(input, vec2, *, out=None):
    return input.reshape(-1, 1) * vec2


@composite("inner")
def _inner(input, other, *, out=None):
    if input.dim() == 0 or other.dim() == 0:
        return input * other
    return tv.tensordot(input, other, ([-1], [-1]))


@composite("tensordot")
def _tensordot(a, b, dims=2, out=None):
    if isinstance(dims, builtins.int):
        da, db = list(range(a.dim() - dims, a.dim())), list(range(dims))
    else:
        da, db = [list(x) if isinstance(x, (list, tuple)) else [x] for x in dims]
    da = [d % a.dim() for d in da]
    db = [d % b.dim() for d in db]
    keep_a = [d for d in range(a.dim()) if d not in da]
    keep_b = [d for d in range(b.dim()) if d not in db]
    k = 1
    for d in da:
        k *= a.shape[d]
    am = a.permute(*keep_a, *da).reshape(-1, k)
    bm = b.permute(*db, *keep_b).reshape(k, -1)
    return am.mm(bm).reshape(*[a.shape[d] for d in keep_a], *[b.shape[d] for d in keep_b])


@composite("kron")
def _kron(input, other, *, out=None):
    n = builtins.max(input.dim(), other.dim())
    a = input.reshape((1,) * (n - input.dim()) + tuple(input.shape))
    b = other.reshape((1,) * (n - other.dim()) + tuple(other.shape))
    sa = [v for s in a.shape for v in (s, 1)]
    sb = [v for s in b.shape for v in (1, s)]
    res = a.reshape(sa) * b.reshape(sb)
    return res.reshape(tuple(x * y for x, y in zip(a.shape, b.shape)))


# ---------------------------------------------------------------- singular matrices
# PyTorch differentiates slogdet and the solvers through the LU factors of their forward (of
# A^T when A is contiguous and real): without create_graph the gradient is an LU solve, which
# gives inf/nan at a singular matrix instead of an error.  det's gradient at a singular matrix
# (|det| < 100 eps) is the adjugate, from an SVD; where the LU met an exact zero pivot (det
# exactly 0) it is 0 without create_graph.
# Note: PyTorch's first-order det gradient is an LU solve with zero pivots nudged by eps: at
# a singular matrix whose LU meets rounding-level (not exactly zero) pivots that is the
# adjugate up to rounding, which is what tensorviz computes there, exactly.
def _lu_host(a):
    """LAPACK getf2's partial-pivoting LU of each matrix of host array ``a``: ``(LU, perm)``
    with ``LU`` holding unit-lower ``L`` below and ``U`` on/above the diagonal, and row ``i`` of
    ``P^T a`` being row ``perm[i]`` of ``a``."""
    import numpy as np
    n = a.shape[-1]
    work = np.array(a.reshape((-1, n, n)))
    perm = np.tile(np.arange(n), (work.shape[0], 1))
    rows = np.arange(work.shape[0])
    with np.errstate(all="ignore"):
        for j in range(n):
            col = work[:, j:, j]
            mag = np.abs(col.real) + np.abs(col.imag) if work.dtype.kind == "c" else np.abs(col)
            p = np.argmax(mag, axis=1) + j
            top, ptop = work[rows, j].copy(), perm[rows, j].copy()
            work[rows, j], perm[rows, j] = work[rows, p], perm[rows, p]
            work[rows, p], perm[rows, p] = top, ptop
            piv = work[:, j, j]
            nz = piv != 0
            work[:, j + 1:, j] = np.where(nz[:, None], work[:, j + 1:, j] /
                                          np.where(nz, piv, 1)[:, None], work[:, j + 1:, j])
            work[:, j + 1:, j + 1:] -= work[:, j + 1:, j, None] * work[:, j, None, j + 1:]
    return work.reshape(a.shape), perm.reshape(a.shape[:-1])


def _lu_solve_adjoint(A, B, *, left: bool = True):
    """``X`` with ``A^H X = B`` (``X A^H = B`` when not ``left``) through the LU factors
    PyTorch's forward keeps, as its ``lu_solve`` computes it (no graph, no error: a zero pivot
    gives inf/nan)."""
    import numpy as np
    with tv.no_grad():
        A, B = A.detach(), B.detach()
        if not left:  # X A^H = B  <=>  A X^H = B^H
            return _mH(_lu_solve_adjoint(_mH(A), _mH(B)))
        use_t = A.is_contiguous() and not A.is_complex()
        host = A.resolve_conj().cpu().numpy()
        lu, perm = _lu_host(np.swapaxes(host, -1, -2) if use_t else host)
        LU = tv.tensor(lu, device=A.device)
        P = tv.tensor(perm, device=A.device).unsqueeze(-1)
        shape = tuple(tv.broadcast_shapes(tuple(LU.shape[:-2]), tuple(B.shape[:-2])))
        B = B.expand(*shape, *B.shape[-2:])
        LU = LU.expand(*shape, *LU.shape[-2:])
        P = P.expand(*shape, P.shape[-2], 1)
        if use_t:  # (A^T = P L U, and A^H X = A^T X = B for real A)
            y = tv.take_along_dim(B, P.expand(*shape, P.shape[-2], B.shape[-1]), -2)
            y = tv.linalg.solve_triangular(LU, y, upper=False, unitriangular=True)
            return tv.linalg.solve_triangular(LU, y, upper=True)
        # A = P L U: A^H = U^H L^H P^T
        y = tv.linalg.solve_triangular(_mH(LU), B, upper=False)
        z = tv.linalg.solve_triangular(_mH(LU), y, upper=True, unitriangular=True)
        inv = tv.argsort(P, dim=-2)
        return tv.take_along_dim(z, inv.expand(*shape, P.shape[-2], B.shape[-1]), -2)


def _prod_safe_zeros_backward(grad, inp, dim):
    if inp.numel() == 0:
        return grad.expand_as(inp)
    ones = tv.ones_like(inp.narrow(dim, 0, 1))
    n = inp.shape[dim]
    normal = tv.cat([ones, inp.narrow(dim, 0, n - 1)], dim).cumprod(dim)
    rev = tv.cat([ones, inp.narrow(dim, 1, n - 1).flip(dim)], dim).cumprod(dim).flip(dim)
    return grad * _c(normal * rev)


def _masked_fmap(mask, f1, f2, *ts):
    """``f1`` on the matrices where ``mask`` holds, ``f2`` on the others (PyTorch's
    masked_fmap: each formula sees only its own matrices)."""
    k = builtins.int(mask.sum())
    if k == mask.numel():
        return f1(*ts)
    if k == 0:
        return f2(*ts)
    out = tv.zeros_like(ts[0])
    out = out.index_put((mask,), f1(*(t[mask] for t in ts)))
    return out.index_put((~mask,), f2(*(t[~mask] for t in ts)))


def _det_backward(g, det, A):
    if A.numel() == 0:
        return None
    dd = g * _c(det)
    n = A.shape[-1]
    D = tv.diag_embed(dd.unsqueeze(-1).expand(*dd.shape, n))
    if not tv.is_grad_enabled() and builtins.bool((det == 0).any()):
        # (PyTorch's LU solve of ``A^H X = det^* g I`` with zero pivots nudged: 0 where the
        # forward's LU met an exact zero pivot, i.e. where det is exactly 0)
        zero = (det == 0).unsqueeze(-1).unsqueeze(-1)
        safe = tv.where(zero, tv.eye(n, dtype=A.dtype, device=A.device), A)
        return tv.where(zero, tv.zeros_like(A), _det_backward(g, tv.where(
            det == 0, tv.ones_like(det), det), safe))
    eps = tv.finfo(det.abs().dtype).eps

    def non_singular(a, d, gr):
        return tv.linalg.solve(_mH(a), d)

    def singular(a, d, gr):
        U, S, Vh = tv.linalg.svd(a)
        alpha = _c(tv.linalg.det(U) * tv.linalg.det(Vh)) * gr
        Dg = _prod_safe_zeros_backward(alpha.unsqueeze(-1), S, S.dim() - 1)
        return (U * Dg.unsqueeze(-2).to(U.dtype)) @ Vh
    if A.dim() == 2:
        return (singular if builtins.bool(det.abs() < 100 * eps) else non_singular)(A, D, g)
    return _masked_fmap(det.abs() < 100 * eps, singular, non_singular, A, D,
                        g.expand(det.shape))


@formula("inverse", "linalg.inv")
def _inverse(ctx, input, *, out=None):
    r = ctx.save(ctx.out, "result")

    def backward(g):
        inv = _c(r()).transpose(-2, -1)
        return (-(inv @ g @ inv),)
    return "LinalgInvExBackward0", (input,), backward


@formula("det", "linalg.det")
def _det(ctx, input, *, out=None):
    s = ctx.save(input, "A")
    r = ctx.save(ctx.out, "result")

    return "LinalgDetBackward0", (input,), lambda g: (_det_backward(g, r(), s()),)


def _solve_backward(g, a, x, left, vec, a_needs):
    """PyTorch's linalg_solve_backward: ``gB = A^{-H} gX`` (``gX A^{-H}`` when not left),
    through the forward's LU factors unless a graph of the gradient is wanted."""
    gx = g.unsqueeze(-1) if vec else g
    if not tv.is_grad_enabled():
        gb = _lu_solve_adjoint(a, gx, left=left)
    else:
        gb = tv.linalg.solve(_mH(a), gx, left=left)
    ga = None
    if a_needs:
        xm = x.unsqueeze(-1) if vec else x
        ga = -(gb @ _mH(xm)) if left else -(_mH(xm) @ gb)
    return ga, (gb.squeeze(-1) if vec else gb)


@formula("linalg.solve")
def _solve(ctx, A, B, *, left=True, out=None):
    sa = ctx.save(A, "A")
    r = ctx.save(ctx.out, "result")
    vec = B.dim() == 1 or (B.dim() == A.dim() - 1 and B.shape == A.shape[:-1])

    return "LinalgSolveExBackward0", (A, B), \
        lambda g: _solve_backward(g, sa(), r(), left, vec, ctx.needs(A))


@formula("cross", "linalg.cross")
def _cross(ctx, input, other, dim=None, *, out=None):
    a = ctx.save(input, "self")
    b = ctx.save(other, "other")
    d = -1 if dim is None else dim
    return "LinalgCrossBackward0", (input, other), \
        lambda g: (tv.linalg.cross(_c(b()), g, dim=d), tv.linalg.cross(g, _c(a()), dim=d))


# ---------------------------------------------------------------- composites by decomposition
@composite("std_mean")
def _std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    kw = {} if correction is None else {"correction": correction}
    if unbiased is not None:
        kw["unbiased"] = unbiased
    return input.std(dim, keepdim=keepdim, **kw), input.mean(dim, keepdim=keepdim)


@composite("var_mean")
def _var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    kw = {} if correction is None else {"correction": correction}
    if unbiased is not None:
        kw["unbiased"] = unbiased
    return input.var(dim, keepdim=keepdim, **kw), input.mean(dim, keepdim=keepdim)


# integer-valued or piecewise-constant results PyTorch does not differentiate
for _n in ("argmax", "argmin", "argsort", "eq", "ne", "lt", "le", "gt", "ge", "isnan", "isinf",
           "isfinite", "sign_bit", "signbit", "bucketize", "searchsorted", "histc", "bincount",
           "count_nonzero", "nonzero", "argwhere",
           "fmod_int", "logical_and", "logical_or", "logical_xor", "logical_not",
           "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "all", "any", "isclose",
           "equal", "allclose", "randint_like", "rand_like", "randn_like", "bernoulli",
           "multinomial", "poisson", "normal", "heaviside",
           # (creation ops: their results are new leaves whatever their arguments)
           "zeros_like", "ones_like", "empty_like", "full_like", "new_zeros", "new_ones",
           "new_empty", "new_full", "new_tensor", "new_empty_strided", "new", "zeros", "ones",
           "empty", "full", "arange", "linspace", "logspace", "eye", "tensor", "as_tensor",
           "asarray", "empty_strided", "scalar_tensor", "rand", "randn", "randint",
           "randperm", "is_same_size", "result_type", "can_cast", "promote_types",
           "is_nonzero", "is_floating_point", "is_complex", "numel", "frexp"):
    FORMULAS.setdefault(_n, lambda ctx, *a, **k: None)


@formula("fmod")
def _fmod(ctx, input, other, *, out=None):
    if isinstance(other, Tensor):
        a = ctx.save(input, "self")
        b = ctx.save(other, "other")
        return "FmodBackward1", (input, other), \
            lambda g: (g, -g * (a() / b()).trunc())
    return "FmodBackward0", (input,), lambda g: (g,)


@formula("remainder")
def _remainder(ctx, input, other, *, out=None):
    if isinstance(other, Tensor) and isinstance(input, Tensor):
        a = ctx.save(input, "self")
        b = ctx.save(other, "other")
        return "RemainderBackward1", (input, other), \
            lambda g: (g, -g * (a() / b()).floor())
    if isinstance(input, Tensor):
        return "RemainderBackward0", (input,), lambda g: (g,)
    return None


# ================================================================ more ops
# (added in one block: aliases, decompositions that make PyTorch's nodes, and formulas)
from ._record import record as _record_op  # noqa: E402


def _recorded(name: str, fn, *args, **kwargs):
    """Run ``fn`` below autograd and record it as formula ``name`` (for decompositions that
    need a node PyTorch makes internally, e.g. ``MulBackward1`` of a scalar product)."""
    from .._grad_mode import _STATE
    from ._record import _any_requires_grad
    prev = _STATE.grad
    _STATE.grad = False
    try:
        out = fn(*args, **kwargs)
    finally:
        _STATE.grad = prev
    if prev and _any_requires_grad(args, kwargs):
        return _record_op(name, args, kwargs, out)
    return out


@formula("_mul_scalar")
def _mul_scalar_f(ctx, input, other):
    ctx.keep("other", other)
    return "MulBackward1", (input,), lambda g: (g * _c(other),)


@formula("_add_scalar")
def _add_scalar_f(ctx, input, other):
    return "AddBackward1", (input,), lambda g: (g,)


def _smul(t, s):
    return _recorded("_mul_scalar", lambda a, b: a * b, t, s)


def _sadd(t, s):
    return _recorded("_add_scalar", lambda a, b: a + b, t, s)


@formula("_sub_scalar")
def _sub_scalar_f(ctx, input, other):
    return "SubBackward1", (input,), lambda g: (g,)


def _ssub(t, s):
    """``t - s`` for a Python number ``s``, as C++ code subtracts: one ``SubBackward1``."""
    return _recorded("_sub_scalar", lambda a, b: a - b, t, s)


def _rsub_cpp(s, t):
    """``s - t`` as ATen's ``operator-(Scalar, Tensor)`` computes it (a filled tensor minus
    ``t`` in place: ``SubBackward0`` with no edge for the filled side)."""
    return tv.empty_like(t).fill_(s).sub_(t)


@formula("_norm_scalaropt_dim")
def _norm_sod_f(ctx, x, p, dim, keepdim):
    shape = x._shape
    dims = _dims(dim, len(shape))
    s = ctx.save(x, "self")
    r = ctx.save(ctx.out, "result")
    return "NormBackward1", (x,), \
        lambda g: (_norm_backward(s(), r(), g, p, dims, keepdim, shape),)


def _snorm(t, p, dim, keepdim=False):
    """``at::norm(t, p, dim, keepdim)`` as C++ code calls it: one ``NormBackward1`` node."""
    return _recorded("_norm_scalaropt_dim",
                     lambda a, q, d, k: tv.linalg.vector_norm(a, q, d, k), t, p, dim, keepdim)


_ALIASES = {
    "arccos": "acos", "arcsin": "asin", "arctan": "atan", "arccosh": "acosh",
    "arcsinh": "asinh", "arctanh": "atanh",
    "special.digamma": "digamma", "special.psi": "digamma", "special.erf": "erf",
    "special.erfc": "erfc", "special.erfinv": "erfinv", "special.exp2": "exp2",
    "special.expit": "sigmoid", "special.expm1": "expm1", "special.gammaln": "lgamma",
    "special.i0": "i0", "special.log1p": "log1p", "special.log_softmax": "log_softmax",
    "special.softmax": "softmax", "special.logit": "logit", "special.logsumexp": "logsumexp",
    "special.sinc": "sinc", "special.xlogy": "xlogy",
}


@composite("fliplr")
def _fliplr(input):
    return input.flip(1)


@composite("flipud")
def _flipud(input):
    return input.flip(0)


@composite("msort")
def _msort(input, *, out=None):
    return input.sort(0)[0]


@composite("float_power")
def _float_power(input, exponent, *, out=None):
    wide = tv.complex128 if (
        (isinstance(input, Tensor) and input.is_complex()) or
        (isinstance(exponent, Tensor) and exponent.is_complex()) or
        isinstance(input, builtins.complex) or isinstance(exponent, builtins.complex)) \
        else tv.float64
    a = input.to(wide) if isinstance(input, Tensor) else input
    b = exponent.to(wide) if isinstance(exponent, Tensor) else exponent
    return tv.pow(a, b)


def _atleast(t, n):
    while t.dim() < n:
        t = t.unsqueeze(0) if (n < 3 or t.dim() == 0) else (
            t.unsqueeze(-1) if t.dim() == 2 else t.unsqueeze(0))
    return t


def _atleast_3d(t):
    if t.dim() == 0:
        return t.reshape(1, 1, 1)
    if t.dim() == 1:
        return t.unsqueeze(0).unsqueeze(-1)
    if t.dim() == 2:
        return t.unsqueeze(-1)
    return t


@composite("hstack")
def _hstack_c(tensors, *, out=None):
    ts = [t.reshape(1) if t.dim() == 0 else t for t in tensors]
    return tv.cat(ts, 0 if ts[0].dim() == 1 else 1)


@composite("vstack", "row_stack")
def _vstack_c(tensors, *, out=None):
    ts = [t.reshape(1, 1) if t.dim() == 0 else (t.unsqueeze(0) if t.dim() == 1 else t)
          for t in tensors]
    return tv.cat(ts, 0)


@composite("dstack")
def _dstack_c(tensors, *, out=None):
    return tv.cat([_atleast_3d(t) for t in tensors], 2)


@composite("column_stack")
def _column_stack_c(tensors, *, out=None):
    ts = [t.reshape(t.numel(), 1) if t.dim() <= 1 else t for t in tensors]
    return tv.cat(ts, 1)


@composite("cartesian_prod")
def _cartesian_prod(*tensors):
    if len(tensors) == 1:
        return tensors[0]
    sizes = [t.shape[0] for t in tensors]
    cols = []
    for i, t in enumerate(tensors):
        shape = [1] * len(tensors)
        shape[i] = sizes[i]
        cols.append(t.view(shape).expand(sizes).reshape(-1))
    return tv.stack(cols, 1)


@composite("combinations")
def _combinations(input, r=2, with_replacement=False):
    # PyTorch's: an r-fold meshgrid of the input, each grid masked to i < j < ... (<= with
    # replacement) by masked_select, stacked as columns
    with tv.no_grad():  # (the op's own argument checks and errors)
        tv.combinations(input.detach(), r, with_replacement)
    if r == 0:
        return tv.empty(0, dtype=input.dtype, device=input.device)
    n = input.numel()
    grids = tv.meshgrid(*([input] * r), indexing="ij")
    with tv.no_grad():
        idx = tv.meshgrid(*([tv.arange(n, device=input.device)] * r), indexing="ij")
        mask = tv.ones(tuple(idx[0].shape), dtype=tv.bool, device=input.device)
        for a, b in zip(idx[:-1], idx[1:]):
            mask = mask & ((a <= b) if with_replacement else (a < b))
    return tv.stack([g.masked_select(mask) for g in grids], 1)


@composite("diff")
def _diff_c(input, n=1, dim=-1, prepend=None, append=None):
    d = _layout.normalize_dim(dim, builtins.max(input.dim(), 1))
    x = input
    if prepend is not None or append is not None:
        parts = ([prepend] if prepend is not None else []) + [x] + (
            [append] if append is not None else [])
        x = tv.cat(parts, d)
    for _ in range(n):
        m = x.shape[d]
        if m == 0:
            break
        x = x.narrow(d, 1, m - 1) - x.narrow(d, 0, m - 1)
    return x


@composite("cumulative_trapezoid")
def _cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    d = _layout.normalize_dim(dim, builtins.max(y.dim(), 1))
    n = y.shape[d]
    s = y.narrow(d, 1, n - 1) + y.narrow(d, 0, n - 1)
    if isinstance(x, Tensor):
        return (_diff_c(x, dim=dim) * s / 2.0).cumsum(d)
    step = 1.0 if dx is None else dx
    return _smul(s, step / 2.0).cumsum(d)


@composite("trapezoid", "trapz")
def _trapezoid(y, x=None, *, dx=None, dim=-1):
    d = _layout.normalize_dim(dim, builtins.max(y.dim(), 1))
    if isinstance(x, Tensor):
        n = y.shape[d]
        s = y.narrow(d, 1, n - 1) + y.narrow(d, 0, n - 1)
        return (_diff_c(x, dim=dim) * s).sum(d) / 2.0
    if isinstance(x, (builtins.int, builtins.float)) and dx is None:
        dx = x
    step = 1.0 if dx is None else dx
    n = y.shape[d]
    if n == 0:
        return _smul(y.sum(d), 0.0)
    ends = y.select(d, 0) + y.select(d, -1)
    return _smul(y.sum(d) - _smul(ends, 0.5), step)


@composite("nanmean")
def _nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    cnt = (~input.isnan()).sum(dim, keepdim=keepdim) if dim is not None else \
        (~input.isnan()).sum()
    s = input.nansum(dim, keepdim=keepdim) if dim is not None else input.nansum()
    return s / cnt


@composite("matrix_power", "linalg.matrix_power")
def _matrix_power(A, n, *, out=None):
    if n == 0:  # (PyTorch: a clone overwritten with the identity: a zero gradient)
        e = tv.eye(A.shape[-1], dtype=A.dtype, device=A.device)
        from .._tensor import contiguous_format
        return A.clone(memory_format=contiguous_format).copy_(e.expand_as(A))
    inverted = n < 0
    if inverted:
        A = tv.linalg.inv(A)
        n = -n
    if n == 1:
        return A if inverted else A.clone()
    if n == 2:
        return A @ A
    if n == 3:  # (PyTorch's order of products: its graph)
        return (A @ A) @ A
    result = None
    z = A
    while True:
        if n & 1:
            result = z if result is None else result @ z
        n >>= 1
        if not n:
            return result
        z = z @ z


@composite("chain_matmul")
def _chain_matmul(*matrices, out=None):
    from ..ops.indexing import warn_once
    warn_once("torch.chain_matmul is deprecated and will be removed in a future PyTorch "
              "release. Use torch.linalg.multi_dot instead, which accepts a list of two or "
              "more tensors rather than multiple parameters.")
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = tuple(matrices[0])
    return _multi_dot(matrices)


@composite("linalg.multi_dot")
def _multi_dot(tensors, *, out=None):
    ts = list(tensors)
    first_1d, last_1d = ts[0].dim() == 1, ts[-1].dim() == 1
    if first_1d:
        ts[0] = ts[0].unsqueeze(0)
    if last_1d:
        ts[-1] = ts[-1].unsqueeze(-1)
    res = ts[0]
    for t in ts[1:]:
        res = res.mm(t)
    shape = list(res.shape)
    if first_1d:
        shape = shape[1:]
    if last_1d:
        shape = shape[:-1]
    return res.view(shape)


# PyTorch's label order (at::einsum's label_to_subscript): upper case first.
_EINSUM_LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


@composite("einsum")
def _einsum(*args):
    """at::einsum's own decomposition, so the graph is PyTorch's: each operand's repeated
    labels taken as diagonals (``DiagonalBackward0``, ``PermuteBackward0``), missing labels
    unsqueezed, the dims permuted to one order (output labels, then the summed ones
    alphabetically); operands contracted left to right in pairs, each pair permuted,
    reshaped and multiplied with ``bmm`` (or ``mul`` when nothing is summed); a summed dim
    found in one operand only is summed there first; the summed dims viewed away at the end
    (one operand: summed)."""
    from ..ops.linalg import _parse_sublists
    plain = tv.einsum.__wrapped__
    if args and isinstance(args[0], str):
        equation, operands = args[0], tuple(args[1:])
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = tuple(operands[0])
    else:
        equation, operands = _parse_sublists(args)
    eq = equation.replace(" ", "") if isinstance(equation, str) else ""
    lhs, arrow, rhs = eq.partition("->")
    specs = [sp.replace("...", ".") for sp in lhs.split(",")]
    if not _einsum_well_formed(specs, rhs.replace("...", "."), operands):
        # (PyTorch's checks and messages: the plain op's, which raises here)
        from .._grad_mode import no_grad
        with no_grad():
            plain(*args)
    ell_num = builtins.max([o.dim() - (len(sp) - 1) if "." in sp else 0
                            for sp, o in zip(specs, operands)] + [0])
    counts = {}
    for sp in specs:
        for ch in sp:
            if ch != ".":
                counts[ch] = counts.get(ch, 0) + 1
    perm_of = {}
    index = 0
    ell_index = 0
    has_ellipsis = False
    if not arrow:
        index = ell_num
        has_ellipsis = True
        for ch in _EINSUM_LABELS:
            if counts.get(ch) == 1:
                perm_of[ch] = index
                index += 1
    else:
        for ch in rhs.replace("...", "."):
            if ch == ".":
                ell_index = index
                index += ell_num
                has_ellipsis = True
            else:
                perm_of[ch] = index
                index += 1
    out_size = index
    if not has_ellipsis:
        ell_index = index
        index += ell_num
    for ch in _EINSUM_LABELS:
        if ch in counts and ch not in perm_of:
            perm_of[ch] = index
            index += 1
    total = index
    dim_counts = [0] * total
    ops = []
    for sp, op in zip(specs, operands):
        permutation = [-1] * total
        dim = 0
        nd = op.dim() - (len(sp) - 1)  # (the dims '...' covers)
        for ch in sp:
            if ch == ".":
                for j in range(ell_num - nd, ell_num):
                    if op.shape[dim] != 1:
                        dim_counts[ell_index + j] += 1
                    permutation[ell_index + j] = dim
                    dim += 1
            elif permutation[perm_of[ch]] == -1:
                if op.shape[dim] != 1:
                    dim_counts[perm_of[ch]] += 1
                permutation[perm_of[ch]] = dim
                dim += 1
            else:  # a repeated label: its diagonal
                prev = permutation[perm_of[ch]]
                op = op.diagonal(0, prev, dim).movedim(-1, prev)
        for k in range(total):
            if permutation[k] == -1:
                op = op.unsqueeze(dim)
                permutation[k] = dim
                dim += 1
        ops.append(op.permute(permutation))
    while len(ops) > 1:
        a, b = ops.pop(0), ops.pop(0)
        sum_dims, a_sum, b_sum = [], [], []
        for d in range(out_size, total):
            if a.shape[d] != 1 and b.shape[d] != 1:
                dim_counts[d] -= 1
                if dim_counts[d] == 1:
                    sum_dims.append(d)
                    dim_counts[d] = 0
            elif dim_counts[d] == 1:
                if a.shape[d] != 1:
                    a_sum.append(d)
                    dim_counts[d] = 0
                elif b.shape[d] != 1:
                    b_sum.append(d)
                    dim_counts[d] = 0
        if a_sum:
            a = a.sum(a_sum, True)
        if b_sum:
            b = b.sum(b_sum, True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))
    res = ops[0]
    if total > out_size:
        if len(operands) > 1:
            return res.view(list(res.shape)[:out_size])
        return res.sum(list(range(out_size, total)))
    return res


def _einsum_well_formed(specs: list, rhs: str, operands) -> bool:
    """Cheap checks that the decomposition below meets no error the plain op would report
    in its own words: one subscript per operand, valid labels, their sizes agreeing (or 1),
    output labels found in the inputs, once each, all operands on one device, one dtype."""
    if not operands or len(specs) != len(operands) or \
            not all(isinstance(o, Tensor) for o in operands):
        return False
    if len({str(o.device) for o in operands}) > 1 or len({o.dtype for o in operands}) > 1:
        return False
    sizes: dict = {}
    ell = None
    for sp, o in zip(specs, operands):
        if not all(c == "." or c in _EINSUM_LABELS for c in sp) or sp.count(".") > 1:
            return False
        labels = sp.replace(".", "")
        if len(labels) != o.dim() if "." not in sp else len(labels) > o.dim():
            return False
        shape = list(o.shape)
        if "." in sp:
            i = sp.index(".")
            n_ell = o.dim() - len(labels)
            e = shape[i:i + n_ell]
            shape = shape[:i] + shape[i + n_ell:]
            if ell is not None and len(e) and any(a != b and 1 not in (a, b) for a, b in zip(
                    e[::-1], ell[::-1])):
                return False
            ell = e if ell is None or len(e) > len(ell) else ell
        own: dict = {}
        for c, n in zip(labels, shape):
            if c in own and own[c] != n:  # (a repeated label: a diagonal of equal sizes)
                return False
            own[c] = n
            if sizes.get(c, 1) != n and n != 1:
                if c in sizes and sizes[c] != 1:
                    return False
                sizes[c] = n
            sizes.setdefault(c, n)
    outs = rhs.replace(".", "")
    if not all(c in sizes for c in outs) or len(set(outs)) != len(outs) or rhs.count(".") > 1:
        return False
    return True


def _sumproduct_pair(left, right, sum_dims: list):
    """at::sumproduct_pair (keepdim): ``(left * right).sum(sum_dims, keepdim=True)`` as a
    permute, a reshape, ``bmm``, a view and a permute back."""
    if not sum_dims:
        return left.mul(right)
    for swap in (False, True):
        if swap:  # (PyTorch multiplies the other way round when all of the right operand's
            # own output dims come before the left's: as observed, e.g. 'jk,ij->ik')
            left, right = right, left
        lro, lo, ro = [], [], []
        lro_size = lo_size = ro_size = sum_size = 1
        for i in range(left.dim()):
            sl, sr = left.shape[i] != 1, right.shape[i] != 1
            if i in sum_dims:
                sum_size *= left.shape[i]
            elif sl and sr:
                lro.append(i)
                lro_size *= left.shape[i]
            elif sl:
                lo.append(i)
                lo_size *= left.shape[i]
            else:
                ro.append(i)
                ro_size *= right.shape[i]
        if swap or not (lo and ro and ro[-1] < lo[0]):
            break
    out_shape = ([left.shape[d] for d in lro] + [left.shape[d] for d in lo] +
                 [1] * len(sum_dims) + [right.shape[d] for d in ro])
    lperm = lro + lo + sum_dims + ro
    rperm = lro + sum_dims + ro + lo
    operm = [-1] * len(out_shape)
    for i, d in enumerate(lro + lo + sum_dims + ro):
        operm[d] = i
    left = left.permute(lperm).reshape(lro_size, lo_size, sum_size)
    right = right.permute(rperm).reshape(lro_size, sum_size, ro_size)
    return tv.bmm(left, right).view(out_shape).permute(operm)


@composite("repeat_interleave")
def _repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    if isinstance(repeats, Tensor) and repeats.numel() != 1:
        x = input.reshape(-1) if dim is None else input
        d = 0 if dim is None else _layout.normalize_dim(dim, builtins.max(x.dim(), 1))
        idx = tv.repeat_interleave(tv.arange(x.shape[d]), repeats)
        return x.index_select(d, idx)
    r = builtins.int(repeats.item()) if isinstance(repeats, Tensor) else repeats
    x = input.reshape(-1) if dim is None else input
    d = 0 if dim is None else _layout.normalize_dim(dim, builtins.max(x.dim(), 1))
    shape = list(x.shape)
    e = x.unsqueeze(d + 1).expand(*shape[:d + 1], r, *shape[d + 1:])
    shape[d] *= r
    return e.contiguous().view(shape)


@formula("rot90")
def _rot90(ctx, input, k=1, dims=(0, 1)):
    dims = list(dims)
    return "Rot90Backward0", (input,), lambda g: (g.rot90(-k, dims),)


@formula("block_diag")
def _block_diag(ctx, *tensors):
    def backward(g):
        out, r, c = [], 0, 0
        for t in tensors:
            shp = t._shape
            if len(shp) == 0:
                out.append(g[r, c].reshape(()))
                r, c = r + 1, c + 1
            elif len(shp) == 1:
                out.append(g[r, c:c + shp[0]])
                r, c = r + 1, c + shp[0]
            else:
                out.append(g[r:r + shp[0], c:c + shp[1]])
                r, c = r + shp[0], c + shp[1]
        return tuple(out)
    return "BlockDiagBackward0", tensors, backward


@formula("cdist")
def _cdist(ctx, x1, x2, p=2.0, compute_mode=None):
    a = ctx.save(x1, "x1")
    b = ctx.save(x2, "x2")
    r = ctx.save(ctx.out, "result")

    def backward(g):
        u, v, d = a(), b(), r()
        diff = u.unsqueeze(-2) - v.unsqueeze(-3)
        dd = d.unsqueeze(-1)
        gg = g.unsqueeze(-1)
        if p == 0:
            w = tv.zeros_like(diff)
        elif p == 1:
            w = diff.sign() * gg
        elif p == 2:
            w = tv.where(dd == 0, tv.zeros_like(diff), diff / dd) * gg
        elif p == float("inf"):
            m = (diff.abs() == dd).to(diff.dtype)
            w = diff.sign() * m / m.sum(-1, keepdim=True) * gg
        else:
            w = tv.where(dd == 0, tv.zeros_like(diff),
                         diff.sign() * diff.abs().pow(p - 1) / dd.pow(p - 1)) * gg
        return w.sum(-2), -w.sum(-3)
    return "CdistBackward0", (x1, x2), backward


@formula("diag_embed")
def _diag_embed(ctx, input, offset=0, dim1=-2, dim2=-1):
    return "DiagEmbedBackward0", (input,), lambda g: (g.diagonal(offset, dim1, dim2),)


@composite("diagflat")
def _diagflat(input, offset=0):
    return tv.diag_embed(input.contiguous().view(-1), offset)


def _clamp_side(name, node, keep):
    @formula(name)
    def f(ctx, input, bound, *, out=None):
        s = ctx.save(input, "self")
        if isinstance(bound, Tensor):
            sb = ctx.save(bound, name.split("_")[1])

            def backward1(g):
                x, m = s(), sb()
                k = keep(x, m)
                return tv.where(k, g, tv.zeros_like(g)), tv.where(k, tv.zeros_like(g), g)
            return node[:-1] + "1", (input, bound), backward1
        ctx.keep(name.split("_")[1], bound)
        return node, (input,), lambda g: (tv.where(keep(s(), bound), g, tv.zeros_like(g)),)
    return f


_clamp_side("clamp_min", "ClampMinBackward0", lambda x, m: x >= m)
_clamp_side("clamp_max", "ClampMaxBackward0", lambda x, m: x <= m)


@formula("copysign")
def _copysign(ctx, input, other, *, out=None):
    s = ctx.save(input, "self")
    r = ctx.save(ctx.out, "result")

    def backward(g):
        x, y = s(), r()
        ratio = tv.where(x == 0, tv.zeros_like(x), y / tv.where(x == 0, tv.ones_like(x), x))
        return (g * ratio,) + ((tv.zeros_like(g),) if isinstance(other, Tensor) else ())
    if isinstance(other, Tensor):
        return "CopysignBackward0", (input, other), backward
    return "CopysignBackward1", (input,), backward


@formula("complex")
def _complex(ctx, real, imag, *, out=None):
    return "ComplexBackward0", (real, imag), lambda g: (g.real, g.imag)


@formula("polar")
def _polar(ctx, abs, angle, *, out=None):
    r = ctx.save(ctx.out, "result")
    sa = ctx.save(abs, "abs")

    def backward(g):
        z = r()
        unit = tv.polar(tv.ones_like(sa()), angle_of(z))
        return (g * unit.conj()).real, (g * (z * 1j).conj()).real
    return "PolarBackward0", (abs, angle), backward


def angle_of(z):
    return z.angle()


@formula("angle")
def _angle(ctx, input, *, out=None):
    s = ctx.save(input, "self")

    def backward(g):
        z = s()
        if not z.is_complex():
            return (tv.zeros_like(z),)
        a2 = z.real * z.real + z.imag * z.imag
        res = g * (z * 1j) / a2
        return (tv.where(a2 == 0, tv.zeros_like(res), res),)
    return "AngleBackward0", (input,), backward


@composite("cov")
def _cov(input, *, correction=1, fweights=None, aweights=None):
    # PyTorch's at::cov, step for step (its graph: the mean as sum / the weight total, a
    # tensor; the product with the transposed conjugate; a true division)
    import warnings
    with tv.no_grad(), warnings.catch_warnings():  # (the op's own argument checks and errors)
        warnings.simplefilter("ignore")
        tv.cov(input.detach(), correction=correction, fweights=fweights, aweights=aweights)
    x = input.view(1, -1) if input.dim() < 2 else input
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = fweights
    if aweights is not None:
        w = aweights if w is None else w * aweights
    w_sum = w.sum() if w is not None else tv.scalar_tensor(n, dtype=tv.int64,
                                                           device=x.device)
    avg = (x * w if w is not None else x).sum(1) / w_sum
    if w is not None and aweights is not None and correction != 0:
        norm = w_sum - correction * (w * aweights).sum() / w_sum
    else:
        norm = w_sum - correction
    if builtins.bool(norm <= 0):
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the number of observations.", UserWarning, stacklevel=3)
        norm = tv.zeros_like(norm)
    x = x - avg.unsqueeze(1)
    c = x.mm((x * w if w is not None else x).t().conj())
    return tv.true_divide(c, norm).squeeze()


@composite("corrcoef")
def _corrcoef(input):
    c = _cov(input)
    if c.dim() == 0:
        return c / c
    d = c.diagonal()
    sd = (d.real if d.is_complex() else d).sqrt()
    c = c / sd.view(-1, 1)
    c = c / sd.view(1, -1)
    return c.clip(-1, 1)


@formula("frexp")
def _frexp(ctx, input, *, out=None):
    _plain_out(ctx)
    e = ctx.save(ctx.out[1], "exponent")
    ctx.outputs = tuple(ctx.out)
    return "FrexpBackward0", (input,), lambda g, ge=None: (g / tv.pow(2.0, e()).to(g.dtype),)


@formula("ldexp")
def _ldexp(ctx, input, other, *, out=None):
    so = ctx.save(other, "other")

    def backward(g):
        return g * tv.pow(2.0, so()).to(g.dtype), None
    return "LdexpBackward0", (input, other), backward


@formula("logaddexp2")
def _logaddexp2(ctx, input, other, *, out=None):
    a = ctx.save(input, "self")
    b = ctx.save(other, "other")
    r = ctx.save(ctx.out, "result")
    return "Logaddexp2Backward0", (input, other), \
        lambda g: (g * tv.pow(2.0, a() - r()), g * tv.pow(2.0, b() - r()))


@formula("mvlgamma", "special.multigammaln")
def _mvlgamma(ctx, input, p):
    s = ctx.save(input, "self")
    ctx.keep("p", p)

    def backward(g):
        x = s()
        acc = None
        for j in range(p):
            term = (x - j / 2.0).digamma()
            acc = term if acc is None else acc + term
        return (g * acc,)
    return "MvlgammaBackward0", (input,), backward


@formula("polygamma", "special.polygamma")
def _polygamma(ctx, n, input, *, out=None):
    s = ctx.save(input, "self")
    ctx.keep("n", n)
    return "PolygammaBackward0", (input,), lambda g: (g * tv.polygamma(n + 1, s()),)




@formula("view_as_complex")
def _view_as_complex(ctx, input):
    return "ViewAsComplexBackward0", (input,), lambda g: (tv.view_as_real(g.resolve_conj()),)


@formula("view_as_real")
def _view_as_real(ctx, input):
    return "ViewAsRealBackward0", (input,), lambda g: (tv.view_as_complex(g.contiguous()),)


def _not_differentiable(name: str, node: str, op: str):
    @formula(name)
    def f(ctx, input, *args, **kwargs):
        inputs = (input,) + tuple(a for a in args if isinstance(a, Tensor))

        def backward(*grads):
            raise RuntimeError(f"derivative for aten::{op} is not implemented")
        return node, inputs, backward
    return f


for _n, _op in (("floor_divide", "floor_divide"), ("heaviside", "heaviside"),
                ("histogram", "histogram")):
    _not_differentiable(_n, "NotImplemented", _op)


def _unique_like(name, node, op):
    @formula(name)
    def f(ctx, input, *args, **kwargs):
        outs = tuple(ctx.out) if isinstance(ctx.out, tuple) else (ctx.out,)
        ctx.outputs = outs

        def backward(*grads):
            raise NotImplementedError(f"the derivative for '{op}' is not implemented.")
        return node, (input,), backward
    return f


_unique_like("unique", "Unique2Backward0", "_unique2")
_unique_like("unique_consecutive", "UniqueConsecutiveBackward0", "unique_consecutive")


@formula("nextafter")
def _nextafter(ctx, input, other, *, out=None):
    return "NextafterBackward0", (input, other), lambda g: (g, tv.zeros_like(g))


@formula("renorm")
def _renorm(ctx, input, p, dim, maxnorm, *, out=None):
    s = ctx.save(input, "self")
    d = _layout.normalize_dim(dim, builtins.max(len(input._shape), 1))

    def backward(g):
        x = s()
        red = [i for i in range(x.dim()) if i != d]
        n = tv.linalg.vector_norm(x, p, red, keepdim=True)
        over = n > maxnorm
        f = tv.where(over, maxnorm / (n + 1e-7), tv.ones_like(n))
        fp = tv.where(over, -maxnorm / ((n + 1e-7) * (n + 1e-7)), tv.zeros_like(n))
        dn = _norm_backward(x, n, tv.ones_like(n), p, tuple(red), True, x.shape)
        return (g * f + (g * x).sum(red, keepdim=True) * fp * dn,)
    return "RenormBackward0", (input,), backward


def _std_var_mean(name, node, is_std):
    @formula(name)
    def f(ctx, input, dim=None, unbiased=None, keepdim=False, *, correction=None):
        _plain_out(ctx)
        if isinstance(dim, builtins.bool) and unbiased is None:
            unbiased, dim = dim, None
        corr = correction if correction is not None else (0 if unbiased is False else 1)
        shape = input._shape
        dims = _dims(dim, len(shape))
        n = 1
        for dd in dims:
            n *= shape[dd] if shape else 1
        s = ctx.save(input, "self")
        r = ctx.save(ctx.out[0], "result0") if is_std else None
        ctx.outputs = tuple(ctx.out)

        def backward(g0, g1=None):
            x = s()
            out = None
            if g0 is not None:
                mean = x.mean(dims, keepdim=True) if shape else x
                gg = _unsqueeze_to(g0, shape, dims, keepdim)
                grad = (x - mean) * (2.0 / (n - corr)) if n - corr > 0 else \
                    (x - mean) * float("inf")
                if is_std:
                    sd = _unsqueeze_to(r(), shape, dims, keepdim)
                    out = gg * grad / (sd * 2)
                else:
                    out = gg * grad
            if g1 is not None:
                gm = _unsqueeze_to(g1, shape, dims, keepdim).expand(shape) / n
                out = gm if out is None else out + gm
            return (out,)
        return node, (input,), backward
    return f


COMPOSITES.pop("std_mean", None)
COMPOSITES.pop("var_mean", None)
_std_var_mean("std_mean", "StdMeanBackward0", True)
_std_var_mean("var_mean", "VarMeanBackward0", False)


@formula("aminmax")
def _aminmax(ctx, input, *, dim=None, keepdim=False, out=None):
    _plain_out(ctx)
    shape = input._shape
    dims = _dims(dim, len(shape))
    s = ctx.save(input, "self")
    lo = ctx.save(ctx.out[0], "min")
    hi = ctx.save(ctx.out[1], "max")
    ctx.outputs = tuple(ctx.out)

    def part(x, res, g):
        res = _unsqueeze_to(res, shape, dims, keepdim)
        mask = (x == res).to(g.dtype)
        count = mask.sum(dims, keepdim=True) if shape else mask
        return mask * _unsqueeze_to(g, shape, dims, keepdim) / count

    def backward(gmin, gmax):
        x = s()
        out = None
        if gmin is not None:
            out = part(x, lo(), gmin)
        if gmax is not None:
            p = part(x, hi(), gmax)
            out = p if out is None else out + p
        return (out,)
    return "AminmaxBackward0", (input,), backward


def _sdiv(t, s):
    """``t / s`` for a Python number ``s``, as C++ code divides: one ``DivBackward1`` node."""
    return _recorded("_div_scalar", lambda a, b: a / b, t, s)


@formula("_div_scalar")
def _div_scalar_f(ctx, input, other):
    ctx.keep("other", other)
    return "DivBackward1", (input,), lambda g: (g / _c(other),)


@composite("gradient")
def _gradient(input, *, spacing=1, dim=None, edge_order=1):
    # PyTorch's gradient_helper(_float): central differences in the interior, one-sided
    # (edge_order 1) or second-order (2) ones at the two ends, concatenated
    with tv.no_grad():  # (the op's own argument checks and errors)
        tv.gradient(input.detach(), spacing=spacing, dim=dim, edge_order=edge_order)
    if dim is None:
        dims = list(range(input.dim()))
    elif isinstance(dim, builtins.int):
        dims = [dim]
    else:
        dims = list(dim)
    if isinstance(spacing, (builtins.int, builtins.float, Tensor)) and not (
            isinstance(spacing, Tensor) and spacing.dim() > 0):
        steps = [spacing] * len(dims)
    else:
        steps = list(spacing)
        if len(steps) == 1 and len(dims) > 1:
            steps = steps * len(dims)
    steps = [h.item() if isinstance(h, Tensor) and h.dim() == 0 else h for h in steps]
    def sl(d, a, b=None):  # (at::slice(input, d, a, b))
        n = input.shape[d]
        a = a + n if a < 0 else a
        b = n if b is None else (b + n if b < 0 else b)
        return input.narrow(d, a, b - a)
    res = []
    for d, h in zip(dims, steps):
        d = _layout.normalize_dim(d, input.dim())
        if isinstance(h, Tensor):  # coordinates along dim d
            shape = [1] * input.dim()
            shape[d] = -1
            dx = h.diff(1, 0)
            dx1, dx2 = dx.narrow(0, 0, dx.shape[0] - 1), dx.narrow(0, 1, dx.shape[0] - 1)
            a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
            b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
            c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
            center = a * sl(d, 0, -2) + b * sl(d, 1, -1) + c * sl(d, 2)
            if edge_order == 1:
                pre = (sl(d, 1, 2) - sl(d, 0, 1)) / dx[0]
                app = (sl(d, -1) - sl(d, -2, -1)) / dx[-1]
            else:
                a = -(2.0 * dx[0] + dx[1]) / (dx[0] * (dx[0] + dx[1]))
                b = (dx[0] + dx[1]) / (dx[0] * dx[1])
                c = -dx[0] / (dx[1] * (dx[0] + dx[1]))
                pre = a * sl(d, 0, 1) + b * sl(d, 1, 2) + c * sl(d, 2, 3)
                a = dx[-1] / (dx[-2] * (dx[-1] + dx[-2]))
                b = -(dx[-1] + dx[-2]) / (dx[-1] * dx[-2])
                c = (2 * dx[-1] + dx[-2]) / (dx[-1] * (dx[-1] + dx[-2]))
                app = a * sl(d, -3, -2) + b * sl(d, -2, -1) + c * sl(d, -1)
            res.append(tv.cat([pre, center, app], d))
            continue
        center = _sdiv(sl(d, 2) - sl(d, 0, -2), h)
        if edge_order == 1:
            pre = _sdiv(sl(d, 1, 2) - sl(d, 0, 1), h)
            app = _sdiv(sl(d, -1) - sl(d, -2, -1), h)
        else:
            pre = _sdiv(_smul(sl(d, 0, 1), -1.5) + _smul(sl(d, 1, 2), 2) - _smul(
                sl(d, 2, 3), 0.5), h)
            app = _sdiv(_smul(sl(d, -3, -2), 0.5) - _smul(sl(d, -2, -1), 2) + _smul(
                sl(d, -1), 1.5), h)
        res.append(tv.cat([pre, _sdiv(center, 2), app], d))
    return tuple(res)


@composite("vander")
def _vander(x, N=None, increasing=False):
    # Note: PyTorch copies the input and then its cumulative product into a view of a ones
    # tensor (two CopySlices; its own backward then fails); tensorviz concatenates instead.
    n = x.shape[0] if N is None else N
    ones = tv.ones(x.shape[0], 1, dtype=x.dtype, device=x.device)
    if n == 0:
        return x.new_empty((x.shape[0], 0))
    if n == 1:
        res = ones.expand(x.shape[0], 1).clone() if not x.requires_grad else ones + 0 * x.unsqueeze(1)
    else:
        res = tv.cat([ones, x.unsqueeze(1).repeat(1, n - 1).cumprod(1)], 1)
    return res if increasing else res.flip(1)


@composite("linalg.vander")
def _linalg_vander(x, *, N=None):
    # (PyTorch's: the cumulative product of the expanded input, after a column of ones)
    with tv.no_grad():  # (the op's own argument checks and errors)
        tv.linalg.vander(x.detach(), N=N)
    n = x.shape[-1] if N is None else N
    res = x.unsqueeze(-1).expand(*x.shape, n - 1).cumprod(-1)
    return tv.cat([res.new_ones((*x.shape, 1)), res], -1)


@formula("index_copy")
def _index_copy(ctx, input, dim, index, source, *, out=None):
    si = ctx.save(index, "index")

    def backward(g):
        return g.index_fill(dim, si(), 0), (g.index_select(dim, si()) if source.dim() else
                                            g.index_select(dim, si()).reshape(source.shape))
    return "IndexCopyBackward0", (input, source), backward


@formula("masked_scatter")
def _masked_scatter(ctx, input, mask, source):
    sm = ctx.save(mask, "mask")
    sshape = source._shape

    def backward(g):
        m = sm()
        picked = g.masked_select(m)
        n = _layout.numel(sshape)
        pad = tv.zeros(n - picked.numel(), dtype=g.dtype, device=g.device)
        return g.masked_fill(m, 0), tv.cat([picked, pad]).reshape(sshape)
    return "MaskedScatterBackward0", (input, source), backward


@formula("put")
def _put(ctx, input, index, source, accumulate=False):
    si = ctx.save(index, "index")

    def backward(g):
        gi = g if accumulate else g.put(si(), tv.zeros(si().shape, dtype=g.dtype,
                                                       device=g.device))
        return gi, g.take(si()).reshape(source.shape)
    return "PutBackward0", (input, source), backward


@formula("scatter_reduce")
def _scatter_reduce(ctx, input, dim, index, src, reduce, *, include_self=True, out=None):
    si = ctx.save(index, "index")
    sx = ctx.save(input, "self")
    ss = ctx.save(src, "src")
    r = ctx.save(ctx.out, "result")
    d = dim

    def backward(g):
        idx = si()
        if reduce == "sum":
            gi = g if include_self else g.scatter(d, idx, 0.0)
            return gi, g.gather(d, idx)
        if reduce == "mean":
            ones = tv.ones_like(ss())
            cnt = (tv.ones_like(g) if include_self else tv.zeros_like(g)).scatter_add(d, idx, ones)
            cnt = tv.where(cnt == 0, tv.ones_like(cnt), cnt)
            gi = g / cnt
            if not include_self:
                gi = gi.scatter(d, idx, 0.0)
            return gi, (g / cnt).gather(d, idx)
        if reduce in ("amax", "amin"):
            res = r()
            x, s = sx(), ss()
            sel_self = (x == res).to(g.dtype) if include_self else tv.zeros_like(g)
            sel_src = (s == res.gather(d, idx)).to(g.dtype)
            cnt = sel_self.scatter_add(d, idx, sel_src)
            share = g / tv.where(cnt == 0, tv.ones_like(cnt), cnt)
            return share * sel_self, share.gather(d, idx) * sel_src
        if reduce == "prod":
            res = r()
            x, s = sx(), ss()
            gi = tv.where(x == 0, tv.zeros_like(g), g * res / tv.where(
                x == 0, tv.ones_like(x), x)) if include_self else g.scatter(d, idx, 0.0)
            gs = tv.where(s == 0, tv.zeros_like(s), (g * res).gather(d, idx) / tv.where(
                s == 0, tv.ones_like(s), s))
            return gi, gs
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, "
                           f"got {reduce}")
    return "ScatterReduceBackward0", (input, src), backward


# ---------------------------------------------------------------- special functions
def _special_unary(name, node, derivative, save="self"):
    _unary(name, node, derivative, save)


_special_unary("special.entr", "SpecialEntrBackward0", lambda x: -(x.log() + 1))
_special_unary("special.erfcx", "SpecialErfcxBackward0",
               lambda x: x * tv.special.erfcx(x) * 2 - 2.0 / math.sqrt(math.pi))
_special_unary("special.i0e", "SpecialI0EBackward0",
               lambda x: tv.special.i1e(x) - x.sgn() * tv.special.i0e(x))
_special_unary("special.i1", "SpecialI1Backward0",
               lambda x: tv.where(x == 0, tv.full_like(x, 0.5),
                                  x.i0() - tv.special.i1(x) / tv.where(x == 0, tv.ones_like(x),
                                                                       x)))
_special_unary("special.i1e", "SpecialI1EBackward0",
               lambda x: tv.where(x == 0, tv.full_like(x, 0.5),
                                  tv.special.i0e(x) - tv.special.i1e(x) * (
                                      x.sgn() + 1 / tv.where(x == 0, tv.ones_like(x), x))))
_special_unary("special.ndtri", "SpecialNdtriBackward0",
               lambda r: (r * r / 2).exp() * math.sqrt(2 * math.pi), "result")


@formula("special.log_ndtr")
def _log_ndtr(ctx, input, *, out=None):
    s = ctx.save(input, "self")
    r = ctx.save(ctx.out, "result")
    return "SpecialLogNdtrBackward0", (input,), \
        lambda g: (g * (-(s() * s()) / 2 - r()).exp() / math.sqrt(2 * math.pi),)


@composite("special.ndtr")
def _ndtr(input, *, out=None):
    # (PyTorch's decomposition: (1 + erf(x / sqrt(2))) / 2)
    return _smul(_sadd(_smul(input, math.sqrt(0.5)).erf(), 1), 0.5)


@formula("special.zeta")
def _zeta(ctx, input, other, *, out=None):
    a = ctx.save(input, "self") if isinstance(input, Tensor) else input
    b = ctx.save(other, "other") if isinstance(other, Tensor) else other

    def backward(g):
        if ctx.needs(input):
            raise NotImplementedError("the derivative for 'zeta' is not implemented.")
        x = a() if isinstance(input, Tensor) else a
        return None, g * -x * tv.special.zeta(x + 1.0, b())
    if not isinstance(input, Tensor):
        return "SpecialZetaBackward1", (other,), lambda g: backward(g)[1:]
    if not isinstance(other, Tensor):
        def backward2(g):
            raise NotImplementedError("the derivative for 'zeta' is not implemented.")
        return "SpecialZetaBackward2", (input,), backward2
    return "SpecialZetaBackward0", (input, other), backward


@formula("special.round")
def _special_round(ctx, input, *, decimals=None, out=None):
    return "RoundBackward1", (input,), \
        lambda g: (tv.zeros_like(g),)


# ---------------------------------------------------------------- more linear algebra
def _mH(t):
    return t.transpose(-2, -1).conj() if t.is_complex() else t.transpose(-2, -1)


def _tri_solve(A, B, upper, left=True):
    """``A X = B`` (or ``X A = B``) for triangular ``A``, in recorded ops."""
    if left:
        return tv.linalg.solve(A, B)
    return _mH(tv.linalg.solve(_mH(A), _mH(B)))


@formula("addbmm")
def _addbmm(ctx, input, batch1, batch2, *, beta=1, alpha=1, out=None):
    s1 = ctx.save(batch1, "batch1")
    s2 = ctx.save(batch2, "batch2")

    def backward(g):
        b1, b2 = s1(), s2()
        ge = g.unsqueeze(0).expand(b1.shape[0], *g.shape)
        return (g * _c(beta) if beta != 1 else g,
                ge.bmm(_mH(b2)) * _c(alpha), _mH(b1).bmm(ge) * _c(alpha))
    return "AddbmmBackward0", (input, batch1, batch2), backward


@formula("addr")
def _addr(ctx, input, vec1, vec2, *, beta=1, alpha=1, out=None):
    s1 = ctx.save(vec1, "vec1")
    s2 = ctx.save(vec2, "vec2")
    return "AddrBackward0", (input, vec1, vec2), \
        lambda g: (g * _c(beta) if beta != 1 else g, g.mv(_c(s2())) * _c(alpha),
                   g.t().mv(_c(s1())) * _c(alpha))


def _cholesky_backward(gL, L, upper):
    if upper:
        L = _mH(L)
        gL = _mH(gL)
    gA = (_mH(L) @ gL).tril()
    gA = (gA + _mH(gA.tril(-1))) * 0.5
    gA = _tri_solve(_mH(L), gA, True, left=True)
    gA = _tri_solve(L, gA, False, left=False)
    return gA


@formula("linalg.cholesky")
def _linalg_cholesky(ctx, A, *, upper=False, out=None):
    r = ctx.save(ctx.out, "L")
    return "LinalgCholeskyExBackward0", (A,), lambda g: (_cholesky_backward(g, r(), upper),)


@formula("cholesky")
def _old_cholesky(ctx, input, upper=False, *, out=None):
    r = ctx.save(ctx.out, "result")
    return "CholeskyBackward0", (input,), lambda g: (_cholesky_backward(g, r(), upper),)


@formula("linalg.cholesky_ex")
def _cholesky_ex(ctx, A, *, upper=False, check_errors=False, out=None):
    _plain_out(ctx)
    r = ctx.save(ctx.out[0], "L")
    ctx.outputs = tuple(ctx.out)
    return "LinalgCholeskyExBackward0", (A,), \
        lambda g, gi=None: (_cholesky_backward(g, r(), upper),)


@formula("cholesky_solve")
def _cholesky_solve(ctx, input, input2, upper=False, *, out=None):
    s2 = ctx.save(input2, "input2")
    r = ctx.save(ctx.out, "result")

    def backward(g):
        L = s2()
        gb = tv.cholesky_solve(g, L, upper)
        common = gb @ _mH(r())
        common = common + _mH(common)
        gl = -(L @ common) if upper else -(common @ L)
        return gb, gl
    return "CholeskySolveBackward0", (input, input2), backward


@formula("triangular_solve")
def _triangular_solve(ctx, input, A, upper=True, transpose=False, unitriangular=False, *,
                      out=None):
    _plain_out(ctx)
    sa = ctx.save(A, "A")
    r = ctx.save(ctx.out[0], "solution")
    ctx.outputs = tuple(ctx.out)

    def backward(gx, gm=None):
        a, x = sa(), r()
        a = a.triu() if upper else a.tril()
        if unitriangular:
            a = a.tril(-1) + tv.eye(a.shape[-1], dtype=a.dtype, device=a.device) if not upper \
                else a.triu(1) + tv.eye(a.shape[-1], dtype=a.dtype, device=a.device)
        gb = ga = None
        if gx is not None:
            op_a = _mH(a) if transpose else a
            gb = tv.linalg.solve(_mH(op_a), gx)
            ga = -(gb @ _mH(x)) if not transpose else -(x @ _mH(gb))
            ga = ga.triu(1 if unitriangular else 0) if upper else ga.tril(
                -1 if unitriangular else 0)
        if gm is not None:
            ga = gm if ga is None else ga + gm
        return gb, ga
    return "TriangularSolveBackward0", (input, A), backward


@formula("linalg.solve_triangular")
def _solve_triangular(ctx, A, B, *, upper, left=True, unitriangular=False, out=None):
    sa = ctx.save(A, "self")
    r = ctx.save(ctx.out, "result")

    def backward(g):
        a, x = sa(), r()
        a = a.triu() if upper else a.tril()
        if unitriangular:
            a = a.tril(-1) + tv.eye(a.shape[-1], dtype=a.dtype, device=a.device) if not upper \
                else a.triu(1) + tv.eye(a.shape[-1], dtype=a.dtype, device=a.device)
        if left:
            gb = tv.linalg.solve(_mH(a), g)
            ga = -(gb @ _mH(x))
        else:
            gb = _mH(tv.linalg.solve(a, _mH(g)))
            ga = -(_mH(x) @ gb)
        ga = ga.triu(1 if unitriangular else 0) if upper else ga.tril(-1 if unitriangular
                                                                        else 0)
        return ga, gb
    return "LinalgSolveTriangularBackward0", (A, B), backward


@formula("linalg.inv_ex")
def _inv_ex(ctx, A, *, check_errors=False, out=None):
    _plain_out(ctx)
    r = ctx.save(ctx.out[0], "inverse")
    ctx.outputs = tuple(ctx.out)

    def backward(g, gi=None):
        inv = _mH(r())
        return (-(inv @ g @ inv),)
    return "LinalgInvExBackward0", (A,), backward


@formula("linalg.solve_ex")
def _solve_ex(ctx, A, B, *, left=True, check_errors=False, out=None):
    _plain_out(ctx)
    sa = ctx.save(A, "A")
    r = ctx.save(ctx.out[0], "result")
    ctx.outputs = tuple(ctx.out)
    vec = B.dim() == 1 or (B.dim() == A.dim() - 1 and B.shape == A.shape[:-1])

    return "LinalgSolveExBackward0", (A, B), \
        lambda g, gi=None: _solve_backward(g, sa(), r(), left, vec, ctx.needs(A))


def _slogdet_backward(g_sign, g_abs, A, sign):
    """PyTorch's slogdet_backward: ``(g_abs - i Im(conj(g_sign) sign)) A^{-H}``."""
    if not A.is_complex():
        if g_abs is None:
            return None
        g = g_abs
    else:
        if g_sign is None and g_abs is None:
            return None
        g = None if g_abs is None else g_abs.to(A.dtype)
        if g_sign is not None:
            t = (g_sign.conj() * sign).imag.to(A.dtype) * -1j
            g = t if g is None else g + t
    n = A.shape[-1]
    D = tv.diag_embed(g.unsqueeze(-1).expand(*g.shape, n))
    if not tv.is_grad_enabled():
        return _lu_solve_adjoint(A, D)
    return tv.linalg.solve(_mH(A), D)


def _slogdet_f(node):
    def f(ctx, A, *, out=None):
        _plain_out(ctx)
        sa = ctx.save(A, "A")
        ss = ctx.save(ctx.out[0], "sign")
        ctx.outputs = tuple(ctx.out)
        return node, (A,), lambda gs, gl=None: (_slogdet_backward(gs, gl, sa(), ss()),)
    return f


formula("slogdet", "linalg.slogdet")(_slogdet_f("LinalgSlogdetBackward0"))


@composite("logdet")
def _logdet(input):
    sign, labs = tv.linalg.slogdet(input)
    nan = tv.full_like(labs, float("nan"))
    return tv.where(sign == -1, nan, labs)


@formula("matrix_exp", "linalg.matrix_exp")
def _matrix_exp(ctx, A):
    sa = ctx.save(A, "self")

    def backward(g):
        a = _mH(sa())
        n = a.shape[-1]
        z = tv.zeros_like(a)
        top = tv.cat([a, g], -1)
        bot = tv.cat([z, a], -1)
        big = tv.cat([top, bot], -2)
        return (tv.linalg.matrix_exp(big).narrow(-2, 0, n).narrow(-1, n, n),)
    return "LinalgMatrixExpBackward0", (A,), backward


def _pinv_backward(g, P, A):
    m, n = A.shape[-2], A.shape[-1]
    Ph, gh = _mH(P), _mH(g)
    if m <= n:
        K = gh @ P
        KPh = K @ Ph
        return -_mH(P @ K) + KPh - (A @ P) @ KPh + (Ph @ P) @ (gh - K @ A)
    K = P @ gh
    PhK = Ph @ K
    return -_mH(K @ P) + (gh - A @ K) @ P @ Ph + PhK - PhK @ P @ A


@formula("pinverse", "linalg.pinv")
def _pinv(ctx, input, *args, **kwargs):
    sa = ctx.save(input, "self")
    r = ctx.save(ctx.out, "result")
    return "LinalgPinvBackward0", (input,), lambda g: (_pinv_backward(g, r(), sa()),)


def _eigh_backward(gL, gV, L, V):
    n = L.shape[-1]
    res = None
    if gV is not None:
        VhgV = _mH(V) @ gV
        VhgV = (VhgV - _mH(VhgV)) * 0.5
        E = L.unsqueeze(-2) - L.unsqueeze(-1)
        eye = tv.eye(n, dtype=tv.bool, device=L.device)
        E = tv.where(eye, tv.ones_like(E), E)
        res = tv.where(eye, tv.zeros_like(VhgV), VhgV / E)
    if gL is not None:
        dg = tv.diag_embed(gL.to(V.dtype) if V.is_complex() else gL)
        res = dg if res is None else res + dg
    return V @ res @ _mH(V)


@formula("linalg.eigh")
def _eigh(ctx, A, UPLO="L", *, out=None):
    _plain_out(ctx)
    sl = ctx.save(ctx.out[0], "eigenvalues")
    sv = ctx.save(ctx.out[1], "eigenvectors")
    ctx.outputs = tuple(ctx.out)
    return "LinalgEighBackward0", (A,), \
        lambda gl, gv=None: (_eigh_backward(gl, gv, sl(), sv()),)


@composite("linalg.eigvalsh")
def _eigvalsh(A, UPLO="L", *, out=None):
    return tv.linalg.eigh(A, UPLO)[0]


@composite("linalg.svdvals")
def _svdvals(A, *, driver=None, out=None):
    return tv.linalg.svd(A, full_matrices=False)[1]


def _svd_backward(gU, gS, gVh, U, S, Vh, full):
    """PyTorch's svd_backward (reduced SVD), written in tensorviz ops."""
    m, n = U.shape[-2], Vh.shape[-1]
    k = S.shape[-1]
    if full:
        U = U.narrow(-1, 0, k)
        Vh = Vh.narrow(-2, 0, k)
        gU = gU.narrow(-1, 0, k) if gU is not None else None
        gVh = gVh.narrow(-2, 0, k) if gVh is not None else None
    if gU is None and gVh is None:
        return (U * gS.unsqueeze(-2).to(U.dtype)) @ Vh
    V = _mH(Vh)
    gV = _mH(gVh) if gVh is not None else None
    eye = tv.eye(k, dtype=tv.bool, device=S.device)
    UhgU = _mH(U) @ gU if gU is not None else None
    VhgV = Vh @ gV if gV is not None else None
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1)
    E = tv.where(eye, tv.ones_like(E), E)
    Sd = S.unsqueeze(-1)
    gA = None
    if gU is not None:
        skew = UhgU - _mH(UhgU)
        term = tv.where(eye, tv.zeros_like(skew), skew * S.unsqueeze(-2) / E)
        gA = term
    if gV is not None:
        skew = VhgV - _mH(VhgV)
        term = tv.where(eye, tv.zeros_like(skew), Sd * skew / E)
        gA = term if gA is None else gA + term
    if gS is not None:
        dg = tv.diag_embed(gS.to(U.dtype) if U.is_complex() else gS)
        gA = dg if gA is None else gA + dg
    gA = U @ gA @ Vh
    if gU is not None and m > k:
        gA = gA + ((gU - U @ UhgU) / S.unsqueeze(-2)) @ Vh
    if gV is not None and n > k:
        gA = gA + U @ _mH((gV - V @ VhgV) / S.unsqueeze(-2))
    return gA


@formula("linalg.svd")
def _linalg_svd(ctx, A, full_matrices=True, *, driver=None, out=None):
    _plain_out(ctx)
    su = ctx.save(ctx.out[0], "U")
    ss = ctx.save(ctx.out[1], "S")
    sv = ctx.save(ctx.out[2], "Vh")
    ctx.outputs = tuple(ctx.out)
    return "LinalgSvdBackward0", (A,), \
        lambda gu, gs=None, gv=None: (_svd_backward(gu, gs, gv, su(), ss(), sv(),
                                                    full_matrices),)


@composite("svd")
def _old_svd(input, some=True, compute_uv=True, *, out=None):
    from ..return_types import svd as svd_result
    U, S, Vh = tv.linalg.svd(input, full_matrices=not some)
    if not compute_uv:
        return svd_result(tv.zeros_like(U.detach()), S, tv.zeros_like(Vh.detach().mT))
    return svd_result(U, S, Vh.mH)


@composite("linalg.matrix_norm")
def _matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    # PyTorch's decomposition: 'fro' a vector norm; 'nuc' and +-2 the singular values of A
    # with the two dims moved last (sum / amax / amin); +-1 and +-inf a 1-norm along one dim
    # then amax / amin along the other.
    with tv.no_grad():  # (the op's own argument checks and errors)
        tv.linalg.matrix_norm(A.detach(), ord, dim, keepdim, dtype=dtype)
    if ord == "fro":
        return tv.linalg.vector_norm(A, 2, dim, keepdim, dtype=dtype)
    A = A.to(dtype) if dtype is not None else A
    d0, d1 = (d % A.dim() for d in dim)
    if ord == "nuc" or ord in (2, -2):
        perm = [d for d in range(A.dim()) if d not in (d0, d1)] + [d0, d1]
        s = tv.linalg.svdvals(A.permute(perm))
        if ord == "nuc":
            res = s.sum(-1, keepdim)
        else:
            res = s.amax(-1, keepdim) if ord > 0 else s.amin(-1, keepdim)
        if keepdim:
            rev = [perm.index(d) for d in range(A.dim())]
            res = res.unsqueeze(-1).permute(rev)
        return res
    if ord in (float("inf"), float("-inf")):
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    v = tv.linalg.vector_norm(A, 1.0, (d0,), keepdim)
    return v.amax(d1, keepdim) if ord > 0 else v.amin(d1, keepdim)


@composite("linalg.norm")
def _linalg_norm(A, ord=None, dim=None, keepdim=False, *, dtype=None, out=None):
    if ord is None or (ord == "fro" and (dim is None or len(dim) == 2)):
        return tv.linalg.vector_norm(A, 2, dim if dim is not None else None, keepdim)
    if isinstance(ord, (builtins.int, builtins.float)) and (
            dim is None and A.dim() == 1 or isinstance(dim, builtins.int) or
            (isinstance(dim, (tuple, list)) and len(dim) == 1)):
        return tv.linalg.vector_norm(A, ord, dim, keepdim)
    if ord is not None and dim is None and A.dim() == 1:
        return tv.linalg.vector_norm(A, ord, None, keepdim, dtype=dtype)
    return tv.linalg.matrix_norm(A, ord, (-2, -1) if dim is None else dim, keepdim,
                                 dtype=dtype)


@composite("linalg.vecdot")
def _vecdot(x, y, *, dim=-1, out=None):
    return (x.conj() * y).sum(dim) if x.is_complex() else (x * y).sum(dim)


@composite("linalg.tensorsolve")
def _tensorsolve(A, B, dims=None, *, out=None):
    if dims is not None:
        return tv.linalg.tensorsolve.__wrapped__(A, B, dims)
    n = B.numel()
    res_shape = A.shape[B.dim():]
    return tv.linalg.solve(A.reshape(n, -1), B.reshape(n)).view(res_shape)


@composite("linalg.tensorinv")
def _tensorinv(A, ind=2, *, out=None):
    lead = A.shape[:ind]
    rest = A.shape[ind:]
    n = 1
    for s in lead:
        n *= s
    return tv.linalg.inv(A.reshape(n, -1)).reshape(*rest, *lead)


# ---------------------------------------------------------------- QR, eig, lstsq, cond
def _real_diag_scaled(X, scale):
    """``X`` with the real part of its diagonal multiplied by ``scale`` (out of place)."""
    d = X.diagonal(0, -2, -1)
    d = d.real if X.is_complex() else d
    return X + tv.diag_embed(d * (scale - 1)).to(X.dtype)


def _qr_backward(gQ, gR, Q, R, mode):
    """PyTorch's linalg_qr_backward, written in tensorviz ops."""
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed "
                           "when mode='r'. Please use linalg.qr(A, mode='reduced') if you are "
                           "going to differentiate through linalg.qr.")
    m, n = Q.shape[-2], R.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' "
                           "and nrows > ncols.")
    if gQ is None and gR is None:
        return None
    if gQ is not None:
        gA = gR @ _mH(R) - _mH(Q) @ gQ if gR is not None else -(_mH(Q) @ gQ)
    else:
        gA = gR @ _mH(R)
    if m >= n:
        gA = Q @ _real_diag_scaled(gA.triu() + _mH(gA.triu()), 0.5)
        if gQ is not None:
            gA = gA + gQ
        return tv.linalg.solve_triangular(_mH(R), gA, upper=False, left=False)
    X = -gA
    ret = (X - _mH(X)).tril()
    if ret.is_complex():  # (the imaginary part of the diagonal is halved)
        ret = ret - tv.diag_embed(ret.diagonal(0, -2, -1).imag * 0.5) * 1j
    gA = Q @ ret
    gA = tv.linalg.solve_triangular(_mH(R.narrow(-1, 0, m)), gA, upper=False, left=False)
    gA = tv.cat([gA, gA.new_zeros(tuple(R.shape[:-1]) + (n - m,))], -1)
    if gR is not None:
        gA = gA + Q @ gR
    return gA


def _qr_f(mode, ctx, A):
    _plain_out(ctx)
    sq = ctx.save(ctx.out[0], "Q")
    sr = ctx.save(ctx.out[1], "R")
    ctx.keep("mode", mode)
    ctx.outputs = tuple(ctx.out)
    return "LinalgQrBackward0", (A,), \
        lambda gq, gr=None: (_qr_backward(gq, gr, sq(), sr(), mode),)


@formula("linalg.qr")
def _linalg_qr(ctx, A, mode="reduced", *, out=None):
    return _qr_f(mode, ctx, A)


@formula("qr")
def _old_qr(ctx, input, some=True, *, out=None):
    return _qr_f("reduced" if some else "complete", ctx, input)


_EIG_GAUGE = ("linalg_eig_backward: The eigenvectors in the complex case are specified up to "
              "multiplication by e^{i phi}. The specified loss function depends on this "
              "quantity, so it is ill-defined.")


def _eig_backward(gL, gV, L, V, real_input):
    """PyTorch's linalg_eig_backward (general, non-Hermitian case) in tensorviz ops; the
    gradient of a real input is the real part (PyTorch's handle_r_to_c)."""
    if gL is None and gV is None:
        return None
    Vh = _mH(V)
    if gV is None:
        gA = tv.linalg.solve(Vh, gL.unsqueeze(-1) * Vh)
    else:
        VhgV = Vh @ gV
        diag = VhgV.diagonal(0, -2, -1)
        imdiag = diag.imag.detach()
        if not tv.allclose(imdiag, tv.zeros_like(imdiag), rtol=1e-2, atol=1e-2):
            raise RuntimeError(_EIG_GAUGE)
        VhgV = VhgV - Vh @ (V * diag.real.unsqueeze(-2).to(V.dtype))
        Lc = L.conj()
        E = Lc.unsqueeze(-2) - Lc.unsqueeze(-1)
        eye = tv.eye(L.shape[-1], dtype=tv.bool, device=L.device)
        E = tv.where(eye, tv.ones_like(E), E)
        ret = VhgV / E
        if gL is not None:
            ret = tv.where(eye, tv.diag_embed(gL), ret)
        gA = tv.linalg.solve(Vh, ret @ Vh)
    return gA.real if real_input else gA


@formula("linalg.eig")
def _linalg_eig(ctx, A, *, out=None):
    _plain_out(ctx)
    sl = ctx.save(ctx.out[0], "eigenvalues")
    sv = ctx.save(ctx.out[1], "eigenvectors")
    ctx.outputs = tuple(ctx.out)
    real = not A.is_complex()
    return "LinalgEigBackward0", (A,), \
        lambda gl, gv=None: (_eig_backward(gl, gv, sl(), sv(), real),)


@formula("linalg.eigvals")
def _linalg_eigvals(ctx, A, *, out=None):
    # (PyTorch computes the eigenvectors too when a gradient is needed: one LinalgEig node)
    # (PyTorch computes the eigenvectors too when a gradient is needed: one LinalgEig node,
    # the eigenvectors its hidden second output, so second derivatives flow through them)
    with tv.no_grad():
        V = tv.linalg.eig(A.detach())[1]
    ctx.out = (ctx.out, V)
    ctx.outputs = ctx.out
    sl = ctx.save(ctx.out[0], "eigenvalues")
    sv = ctx.save(V, "eigenvectors")
    real = not A.is_complex()
    return "LinalgEigBackward0", (A,), \
        lambda gl, gv=None: (_eig_backward(gl, gv, sl(), sv(), real),)


def _vector_rhs(A, B) -> bool:
    """PyTorch's linalg_solve_is_vector_rhs: ``B`` is a (batch of) vector(s)."""
    return B.dim() == 1 or (B.dim() == A.dim() - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


@formula("linalg.lstsq")
def _linalg_lstsq(ctx, A, B, rcond=None, *, driver=None):
    _plain_out(ctx)
    sa = ctx.save(A, "self")
    sb = ctx.save(B, "b")
    sx = ctx.save(ctx.out[0], "solution")
    ctx.outputs = (ctx.out[0], ctx.out[1])  # (rank and singular values are not differentiable)
    a_needs, b_needs = _needs(ctx, A, B)
    vec = _vector_rhs(A, B)

    def backward(gX, gL=None):
        if (gX is None and (gL is None or gL.numel() == 0)) or not (a_needs or b_needs):
            return None, None
        a, b = sa(), sb()
        b = b.unsqueeze(-1) if vec else b
        ga = gb = None
        if gX is not None:
            gx = gX.unsqueeze(-1) if vec else gX
            pinv = tv.linalg.pinv(a)
            if a_needs:
                ga = _pinv_backward(gx @ _mH(b), pinv, a)
            if b_needs:
                gb = _mH(pinv) @ gx
                gb = gb.squeeze(-1) if vec else gb
        if gL is not None and gL.numel():
            x = sx()
            x = x.unsqueeze(-1) if vec else x
            r = a @ x - b
            gl = gL.unsqueeze(-2)
            if a_needs:
                t = 2 * (gl * r) @ _mH(x)
                ga = t if ga is None else ga + t
            if b_needs:
                t = -2 * gl * r
                t = t.squeeze(-1) if vec else t
                gb = t if gb is None else gb + t
        return ga, gb
    return "LinalgLstsqBackward0", (A, B), backward


@composite("linalg.cond")
def _cond(A, p=None, *, out=None):
    # PyTorch's decomposition (what its graph shows): the ratio of extreme singular values
    # for p in (None, 2, -2), svdvals sums for 'nuc', else norm(A) * norm(inv(A)) with the
    # inverse of a singular matrix filled with inf and nan fixed to inf.
    with tv.no_grad():  # (the argument checks, and errors, of the op itself)
        tv.linalg.cond(A.detach(), p)
    if p is None or p in (2, -2):
        s = tv.linalg.svdvals(A)
        hi, lo = s.narrow(-1, 0, 1), s.narrow(-1, s.shape[-1] - 1, 1)
        return (lo / hi if p == -2 else hi / lo).squeeze(-1)
    if p == "nuc":
        s = tv.linalg.svdvals(A)
        return s.sum(-1) * s.reciprocal().sum(-1)
    inverse, info = tv.linalg.inv_ex(A)
    inverse.masked_fill_((info > 0).unsqueeze(-1).unsqueeze(-1), float("inf"))
    res = tv.linalg.matrix_norm(A, p) * tv.linalg.matrix_norm(inverse, p)
    return res.nan_to_num_(float("inf"), float("inf"), float("-inf"))


for _alias, _target in _ALIASES.items():
    if _target in FORMULAS:
        FORMULAS.setdefault(_alias, FORMULAS[_target])
    elif _target in COMPOSITES:
        COMPOSITES.setdefault(_alias, COMPOSITES[_target])




@formula("_unsafe_view")
def _unsafe_view_f(ctx, input, shape):
    ishape = input._shape
    return "UnsafeViewBackward0", (input,), lambda g: (g.reshape(ishape),)


@formula("_reshape_alias")
def _reshape_alias_f(ctx, input, shape):
    ishape = input._shape
    return "ReshapeAliasBackward0", (input,), lambda g: (g.reshape(ishape),)


def _split_views(input, bounds, d):
    return tuple(input.narrow(d, a, b - a) for a, b in bounds)


@composite("tensor_split")
def _tensor_split(input, indices_or_sections, dim=0):
    d = _layout.normalize_dim(dim, builtins.max(input.dim(), 1))
    n = input.shape[d]
    if isinstance(indices_or_sections, Tensor):
        indices_or_sections = indices_or_sections.tolist()
    if isinstance(indices_or_sections, builtins.int):
        k = indices_or_sections
        q, r = divmod(n, k)
        bounds, start = [], 0
        for i in range(k):
            size = q + (1 if i < r else 0)
            bounds.append((start, start + size))
            start += size
    else:
        cuts = [builtins.min(builtins.max(c, 0), n) for c in indices_or_sections]
        edges = [0] + cuts + [n]
        bounds = [(edges[i], builtins.max(edges[i], edges[i + 1])) for i in range(len(edges) - 1)]
    return _split_views(input, bounds, d)


@composite("hsplit")
def _hsplit(input, sections):
    return _tensor_split(input, sections, 1 if input.dim() > 1 else 0)


@composite("vsplit")
def _vsplit(input, sections):
    return _tensor_split(input, sections, 0)


@composite("dsplit")
def _dsplit(input, sections):
    return _tensor_split(input, sections, 2)


@composite("take_along_dim")
def _take_along_dim_c(input, indices, dim=None, *, out=None):
    if dim is None:
        return input.reshape(-1).gather(0, indices.reshape(-1))
    d = _layout.normalize_dim(dim, builtins.max(input.dim(), 1))
    shape = list(tv.broadcast_shapes(tuple(s for i, s in enumerate(input.shape) if i != d),
                                     tuple(s for i, s in enumerate(indices.shape) if i != d)))
    ishape = shape[:d] + [input.shape[d]] + shape[d:]
    jshape = shape[:d] + [indices.shape[d]] + shape[d:]
    return input.expand(ishape).gather(d, indices.expand(jshape))


@composite("kron")
def _kron_c(input, other, *, out=None):
    # (PyTorch's KronImpl: each factor _unsafe_view-ed with interleaved ones, one product,
    # one _unsafe_view to the result)
    n = builtins.max(input.dim(), other.dim())
    ash = (1,) * (n - input.dim()) + tuple(input.shape)
    bsh = (1,) * (n - other.dim()) + tuple(other.shape)
    sa = tuple(v for x in ash for v in (x, 1))
    sb = tuple(v for x in bsh for v in (1, x))
    uv = lambda t, shape: t.view(shape)  # noqa: E731
    res = _recorded("_unsafe_view", uv, input, sa) * _recorded("_unsafe_view", uv, other, sb)
    return _recorded("_unsafe_view", uv, res, tuple(x * y for x, y in zip(ash, bsh)))


@composite("linalg.tensorinv")
def _tensorinv_c(A, ind=2, *, out=None):
    lead = A.shape[:ind]
    rest = A.shape[ind:]
    n = 1
    for s in lead:
        n *= s
    inv = tv.linalg.inv(A.reshape(n, -1))
    return _recorded("_reshape_alias", lambda t, s: t.reshape(s), inv, (*rest, *lead))


def _quantile(input, q, dim, keepdim, interpolation, nan):
    """PyTorch's quantile_compute, step for step (its graph: sort, view, gather, an in-place
    lerp_ and squeeze_)."""
    with tv.no_grad():  # (the op's own argument checks and errors)
        (tv.nanquantile if nan else tv.quantile)(input.detach(), q, dim, keepdim,
                                                  interpolation=interpolation)
    qs = q if isinstance(q, Tensor) else tv.tensor(q, dtype=input.dtype, device=input.device)
    nd = input.dim()
    if dim is None:
        out_shape = [1] * nd if keepdim else []
        srt = input.flatten().sort()[0]
    else:
        d = _layout.normalize_dim(dim, builtins.max(nd, 1))
        out_shape = list(input.shape)
        if keepdim:
            out_shape[d] = 1
        else:
            del out_shape[d]
        if d == nd - 1:
            srt = input.sort()[0]
        else:
            srt = input.unsqueeze(-1).transpose(d, -1).sort()[0]
    out_shape.insert(0, qs.numel())
    in_shape = out_shape[1:] + [srt.shape[-1]]
    srt = srt.view(in_shape)
    with tv.no_grad():
        if nan:
            ranks = qs * ((~srt.isnan()).sum(-1, True) - 1)
            ranks = ranks.masked_fill(ranks < 0, 0)
        else:
            last = srt.shape[-1] - 1
            a, b = tv.broadcast_tensors(qs * last, srt.isnan().any(-1, True))
            ranks = a.masked_fill(b, last)
        if interpolation == "lower":
            ranks = ranks.floor()
        elif interpolation == "higher":
            ranks = ranks.ceil()
        elif interpolation == "nearest":
            ranks = ranks.round()
        below = ranks.to(tv.int64)
    values = srt.gather(-1, below)
    if interpolation in ("linear", "midpoint"):
        with tv.no_grad():
            weights = tv.full_like(ranks, 0.5) if interpolation == "midpoint" else \
                ranks - below
            above = ranks.ceil().to(tv.int64)
        values.lerp_(srt.gather(-1, above), weights)
    if qs.dim() == 0:
        return values.squeeze_(-1)
    return values.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)


@formula("_squeeze_")
def _squeeze_inplace_f(ctx, input, dim):
    shape = input._shape
    return "SqueezeBackward4", (input,), lambda g: (g.reshape(shape),)


@composite("quantile")
def _quantile_c(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    return _quantile(input, q, dim, keepdim, interpolation, False)


@composite("nanquantile")
def _nanquantile_c(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    return _quantile(input, q, dim, keepdim, interpolation, True)




@formula("index_reduce")
def _index_reduce(ctx, input, dim, index, source, reduce, *, include_self=True, out=None):
    si = ctx.save(index, "index")
    sx = ctx.save(input, "self")
    ss = ctx.save(source, "source")
    r = ctx.save(ctx.out, "result")
    d = dim

    def backward(g):
        idx = si()
        x, s, res = sx(), ss(), r()
        if reduce == "mean":
            ones = tv.ones_like(s)
            cnt = (tv.ones_like(g) if include_self else tv.zeros_like(g)).index_add(d, idx, ones)
            cnt = tv.where(cnt == 0, tv.ones_like(cnt), cnt)
            gi = g / cnt
            if not include_self:
                gi = gi.index_fill(d, idx, 0)
            return gi, (g / cnt).index_select(d, idx)
        if reduce in ("amax", "amin"):
            sel_self = (x == res).to(g.dtype) if include_self else tv.zeros_like(g)
            sel_src = (s == res.index_select(d, idx)).to(g.dtype)
            cnt = sel_self.index_add(d, idx, sel_src)
            share = g / tv.where(cnt == 0, tv.ones_like(cnt), cnt)
            return share * sel_self, share.index_select(d, idx) * sel_src
        if reduce == "prod":
            safe_x = tv.where(x == 0, tv.ones_like(x), x)
            gi = tv.where(x == 0, tv.zeros_like(g), g * res / safe_x) if include_self else \
                g.index_fill(d, idx, 0)
            safe_s = tv.where(s == 0, tv.ones_like(s), s)
            gs = tv.where(s == 0, tv.zeros_like(s), (g * res).index_select(d, idx) / safe_s)
            return gi, gs
        raise RuntimeError(f"reduce argument must be either prod, mean, amax or amin, got "
                           f"{reduce}")
    return "IndexReduceBackward0", (input, source), backward




def _missing(name: str, op: str):
    """An op PyTorch differentiates and tensorviz does not yet: its results join the graph
    through a node whose backward raises (never a silent None gradient)."""
    @formula(name)
    def f(ctx, *args, **kwargs):
        inputs = tuple(a for a in args if isinstance(a, Tensor))
        if isinstance(ctx.out, tuple):
            ctx.outputs = tuple(ctx.out)

        def backward(*grads):
            raise RuntimeError(f"derivative for aten::{op} is not implemented")
        return "NotImplemented", inputs, backward
    return f


for _n, _op in (("fft.fft", "fft_fft"),
                ("fft.fft2", "fft_fft2"), ("fft.fftn", "fft_fftn"), ("fft.hfft", "fft_hfft"),
                ("fft.ifft", "fft_ifft"), ("fft.ifft2", "fft_ifft2"),
                ("fft.ifftn", "fft_ifftn"), ("fft.ihfft", "fft_ihfft"),
                ("fft.irfft", "fft_irfft"), ("fft.irfft2", "fft_irfft2"),
                ("fft.irfftn", "fft_irfftn"), ("fft.rfft", "fft_rfft"),
                ("fft.rfft2", "fft_rfft2"), ("fft.rfftn", "fft_rfftn")):
    _missing(_n, _op)


def _fftshift(input, dim, sign):
    dims = list(range(input.dim())) if dim is None else (
        [dim] if isinstance(dim, builtins.int) else list(dim))
    shifts = [sign * (input.shape[d] // 2) if sign > 0 else -(input.shape[d] // 2)
              for d in dims]
    return input.roll(shifts, dims)


@composite("fft.fftshift")
def _fftshift_c(input, dim=None):
    return _fftshift(input, dim, 1)


@composite("fft.ifftshift")
def _ifftshift_c(input, dim=None):
    return _fftshift(input, dim, -1)




@composite("broadcast_tensors")
def _broadcast_tensors(*tensors):
    shape = tv.broadcast_shapes(*[t.shape for t in tensors])
    return tuple(t if tuple(t.shape) == tuple(shape) else t.expand(shape) for t in tensors)


@formula("_conj_physical")
def _conj_physical_f(ctx, input):
    return "ConjPhysicalBackward0", (input,), lambda g: (g.conj(),)


@composite("conj_physical")
def _conj_physical(input, *, out=None):
    if not input.is_complex():
        return input
    return _recorded("_conj_physical", lambda t: t.conj().resolve_conj(), input)




# ---------------------------------------------------------------- FFTs (complex-to-complex)
_SWAP_NORM = {None: "forward", "backward": "forward", "forward": "backward", "ortho": "ortho"}


def _fft_kernels():
    from ..ops import spectral
    return spectral.fftn, spectral.ifftn


@formula("_fft_c2c")
def _fft_c2c_f(ctx, input, dims, norm, forward, node="FftC2CBackward0"):
    fftn, ifftn = _fft_kernels()

    def backward(g):
        # (the adjoint of an unnormalised DFT is the inverse one times n: the other
        # direction with the normalisation swapped)
        adj = tv.fft.ifftn if forward else tv.fft.fftn
        return (adj(g, dim=dims, norm=_SWAP_NORM[norm]),)
    return node, (input,), backward


@formula("_fft_r2c_full")
def _fft_r2c_full_f(ctx, input, dims, norm, forward):
    return _fft_c2c_f(ctx, input, dims, norm, forward, "FftR2CBackward0")


def _fft_resize(x, sizes, dims):
    """``x`` cropped or zero-padded to ``sizes`` along ``dims`` (recorded ops)."""
    for n, d in zip(sizes, dims):
        if n is None or n == x.shape[d] or n == -1:
            continue
        if n < x.shape[d]:
            x = x.narrow(d, 0, n)
        else:
            shape = list(x.shape)
            shape[d] = n - x.shape[d]
            x = tv.cat([x, tv.zeros(shape, dtype=x.dtype, device=x.device)], d)
    return x


def _fft_dims(x, s, dim):
    if dim is None:
        if s is None:
            return list(range(x.dim()))
        return list(range(x.dim() - len(s), x.dim()))
    dims = [dim] if isinstance(dim, builtins.int) else list(dim)
    return [_layout.normalize_dim(d, builtins.max(x.dim(), 1)) for d in dims]


def _c2c(x, dims, norm, forward):
    fftn, ifftn = _fft_kernels()
    kernel = fftn if forward else ifftn
    if not x.is_complex():
        if forward and len(dims) == 1:
            return _recorded("_fft_r2c_full", lambda t, d, nm, fw: kernel(t, dim=d, norm=nm),
                             x, dims, norm, forward)
        if not forward and len(dims) == 1:
            # (PyTorch: the inverse of a real signal is the conjugate forward transform)
            y = _recorded("_fft_r2c_full", lambda t, d, nm, fw: fftn(t, dim=d, norm=nm),
                          x, dims, _SWAP_NORM[norm], True)
            return y.conj()
        x = x.to(tv.complex128 if x.dtype == tv.float64 else tv.complex64)
    return _recorded("_fft_c2c", lambda t, d, nm, fw: kernel(t, dim=d, norm=nm),
                     x, dims, norm, forward)


def _fft1(forward):
    def f(input, n=None, dim=-1, norm=None, *, out=None):
        dims = _fft_dims(input, None, dim)
        return _c2c(_fft_resize(input, [n], dims), dims, norm, forward)
    return f


def _fftn(forward, two=False):
    def f(input, s=None, dim=None, norm=None, *, out=None):
        if two and dim is None:
            dim = (-2, -1)
        dims = _fft_dims(input, s, dim)
        x = _fft_resize(input, list(s) if s is not None else [None] * len(dims), dims)
        return _c2c(x, dims, norm, forward)
    return f


COMPOSITES["fft.fft"] = _fft1(True)
COMPOSITES["fft.ifft"] = _fft1(False)
COMPOSITES["fft.fftn"] = _fftn(True)
COMPOSITES["fft.ifftn"] = _fftn(False)
COMPOSITES["fft.fft2"] = _fftn(True, True)
COMPOSITES["fft.ifft2"] = _fftn(False, True)
for _n in ("fft.fft", "fft.ifft", "fft.fftn", "fft.ifftn", "fft.fft2", "fft.ifft2"):
    FORMULAS.pop(_n, None)




# ---------------------------------------------------------------- FFTs of real signals
@formula("_fft_r2c")
def _fft_r2c_f(ctx, input, dims, norm):
    n_last = input._shape[dims[-1]]

    def backward(g):
        # (the one-sided spectrum's adjoint: zero-fill the missing half, inverse transform;
        # the engine keeps the real part for the real input)
        full = _fft_resize(g, [n_last], [dims[-1]])
        return (tv.fft.ifftn(full, dim=dims, norm=_SWAP_NORM[norm]),)
    return "FftR2CBackward0", (input,), backward


@formula("_fft_c2r")
def _fft_c2r_f(ctx, input, dims, norm, n_last):
    def backward(g):
        gi = tv.fft.rfftn(g, dim=dims, norm=_SWAP_NORM[norm])
        double = n_last - gi.shape[dims[-1]]
        if double > 0:  # (the Hermitian half counts twice, but for DC and Nyquist)
            w = tv.ones(gi.shape[dims[-1]], dtype=g.dtype, device=g.device)
            w = tv.cat([w[:1], w[1:1 + double] * 2, w[1 + double:]])
            shape = [1] * gi.dim()
            shape[dims[-1]] = w.shape[0]
            gi = gi * w.reshape(shape)
        return (gi,)
    return "FftC2RBackward0", (input,), backward


def _rfftn(two=False, one=False):
    def f(input, s=None, dim=None, norm=None, *, out=None):
        from ..ops import spectral
        if one:
            dims = _fft_dims(input, None, -1 if dim is None else dim)
            sizes = [s]
        else:
            if two and dim is None:
                dim = (-2, -1)
            dims = _fft_dims(input, s, dim)
            sizes = list(s) if s is not None else [None] * len(dims)
        x = _fft_resize(input, sizes, dims)
        return _recorded("_fft_r2c", lambda t, d, nm: spectral.rfftn(t, dim=d, norm=nm),
                         x, dims, norm)
    return f


def _irfftn(two=False, one=False):
    def f(input, s=None, dim=None, norm=None, *, out=None):
        from ..ops import spectral
        if one:
            dims = _fft_dims(input, None, -1 if dim is None else dim)
            sizes = [s]
        else:
            if two and dim is None:
                dim = (-2, -1)
            dims = _fft_dims(input, s, dim)
            sizes = list(s) if s is not None else [None] * len(dims)
        if not input.is_complex():  # (PyTorch casts a real input first: ToCopyBackward0)
            input = input.to(_dtypes.promote_types(input.dtype, tv.complex64))
        last = sizes[-1] if sizes[-1] is not None else 2 * (input.shape[dims[-1]] - 1)
        x = _fft_resize(input, sizes[:-1] + [last // 2 + 1], dims)
        out_s = [x.shape[d] for d in dims[:-1]] + [last]
        return _recorded("_fft_c2r", lambda t, d, nm, nl: spectral.irfftn(t, s=out_s, dim=d,
                                                                           norm=nm),
                         x, dims, norm, last)
    return f


COMPOSITES["fft.rfft"] = lambda input, n=None, dim=-1, norm=None, *, out=None: \
    _rfftn(one=True)(input, n, dim, norm)
COMPOSITES["fft.rfftn"] = _rfftn()
COMPOSITES["fft.rfft2"] = _rfftn(two=True)
COMPOSITES["fft.irfft"] = lambda input, n=None, dim=-1, norm=None, *, out=None: \
    _irfftn(one=True)(input, n, dim, norm)
COMPOSITES["fft.irfftn"] = _irfftn()
COMPOSITES["fft.irfft2"] = _irfftn(two=True)
for _n in ("fft.rfft", "fft.rfftn", "fft.rfft2", "fft.irfft", "fft.irfftn", "fft.irfft2"):
    FORMULAS.pop(_n, None)



def _hfft(input, n=None, dim=-1, norm=None, *, out=None):
    if not input.is_complex():  # (PyTorch casts a real input first: ToCopyBackward0)
        input = input.to(_dtypes.promote_types(input.dtype, tv.complex64))
    return COMPOSITES["fft.irfft"](input.conj(), n, dim, _SWAP_NORM[norm])


def _ihfft(input, n=None, dim=-1, norm=None, *, out=None):
    return COMPOSITES["fft.rfft"](input, n, dim, _SWAP_NORM[norm]).conj()


COMPOSITES["fft.hfft"] = _hfft
COMPOSITES["fft.ihfft"] = _ihfft
FORMULAS.pop("fft.hfft", None)
FORMULAS.pop("fft.ihfft", None)


from .graph import SavedTensor as _SavedType  # noqa: E402


# ---------------------------------------------------------------- view helpers recorded as views
def _atleast_composite(n: int):
    def atleast(*tensors):
        one = len(tensors) == 1 and isinstance(tensors[0], Tensor)
        items = tensors[0] if len(tensors) == 1 and not one else tensors
        out = []
        for t in items:
            if t.dim() == 0:
                t = t.reshape((1,) * n)
            elif n >= 2 and t.dim() == 1:
                t = t.unsqueeze(0) if n == 2 else t.unsqueeze(0).unsqueeze(-1)
            elif n == 3 and t.dim() == 2:
                t = t.unsqueeze(-1)
            out.append(t)
        return out[0] if one else tuple(out)
    return atleast


for _n in (1, 2, 3):
    composite(f"atleast_{_n}d")(_atleast_composite(_n))


@composite("meshgrid")
def _meshgrid(*tensors, indexing=None):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    xy = indexing == "xy"
    ts = list(tensors)
    if xy and len(ts) >= 2:
        ts[0], ts[1] = ts[1], ts[0]
    shape = tuple(t.numel() for t in ts)
    grids = []
    for i, t in enumerate(ts):
        view = [1] * len(ts)
        view[i] = -1
        grids.append(t.view(view).expand(*shape))
    if xy and len(grids) >= 2:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


@composite("linalg.diagonal")
def _linalg_diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return A.diagonal(offset, dim1, dim2)

