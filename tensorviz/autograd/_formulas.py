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

from ._torch import T as tv

from .. import _dtypes, _layout
from .._tensor import Tensor
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
    a_needs, b_needs = _needs(ctx, input, other)
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
_unary("erfinv", "ErfinvBackward0",
       lambda r: (r * r).exp() * (math.sqrt(math.pi) / 2.0), "result")
_unary("lgamma", "LgammaBackward0", lambda x: x.digamma())
_unary("digamma", "DigammaBackward0", lambda x: tv.polygamma(1, x))
_unary("deg2rad", "Deg2RadBackward0", lambda x: tv.full_like(x, math.pi / 180.0))
_unary("rad2deg", "Rad2DegBackward0", lambda x: tv.full_like(x, 180.0 / math.pi))
_unary("i0", "I0Backward0", lambda x: tv.special.i1(x))


@formula("relu")
def _relu(ctx, input, *args, **kwargs):
    r = ctx.save(ctx.out, "result")
    return "ReluBackward0", (input,), lambda g: (g * (r() > 0).to(g.dtype),)


@formula("abs")
def _abs(ctx, input, *, out=None):
    s = ctx.save(input, "self")

    def backward(g):
        x = s()
        if x._dtype.category == _dtypes._COMPLEX:
            a = x.abs()
            return (tv.where(a == 0, tv.zeros_like(x), g * x / a),)
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


@formula("xlogy")
def _xlogy(ctx, input, other, *, out=None):
    a = ctx.save(input, "self") if isinstance(input, Tensor) else input
    b = ctx.save(other, "other") if isinstance(other, Tensor) else other

    def backward(g):
        x = a() if isinstance(input, Tensor) else a
        y = b() if isinstance(other, Tensor) else b
        gx = gy = None
        if ctx.needs(input):
            ly = y.log() if isinstance(y, Tensor) else math.log(y)
            gx = g * ly
            gx = tv.where((x == 0) & ~(y != y) if isinstance(y, Tensor) else (x == 0),
                          tv.zeros_like(gx), gx) if isinstance(x, Tensor) else gx
        if ctx.needs(other):
            gy = g * x / y
        return gx, gy
    return "XlogyBackward0", (input, other), backward


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
        return (None, tv.where(c, g, z) if ctx.needs(input) else None,
                tv.where(c, z, g) if ctx.needs(other) else None)
    return "WhereBackward0", (condition, input, other), \
        lambda g: backward(g)


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
        return (g - y.exp() * g.sum(d, keepdim=True),)
    return "LogSoftmaxBackward0", (input,), backward


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
    shape = input._shape
    d = _layout.normalize_dim(dim, builtins.max(len(shape), 1))
    idx = ctx.save(ctx.out[1], "indices")
    ctx.outputs = tuple(ctx.out)
    return "KthvalueBackward0", (input,), \
        lambda g, gi=None: (_scatter_at(shape, d, keepdim, g, idx(), None),)


@formula("mode")
def _mode(ctx, input, dim=-1, keepdim=False, *, out=None):
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


@formula("reshape", "reshape_as", "flatten", "ravel")
def _reshape(ctx, input, *args, **kwargs):
    shape = input._shape
    if _is_view_of(ctx.out, input):
        if ctx.out._shape == shape and ctx.out._stride == input._stride and \
                ctx.out._offset == input._offset and kwargs.get("_alias", True) and False:
            return None
        return "ViewBackward0", (input,), lambda g: (g.reshape(shape),)
    mid = ctx.intermediate("CloneBackward0", input, lambda g: (g,))
    return "UnsafeViewBackward0", (mid,), lambda g: (g.reshape(shape),)


@formula("t")
def _t(ctx, input):
    return "TBackward0", (input,), lambda g: (g.t(),)


@formula("transpose", "swapaxes", "swapdims")
def _transpose(ctx, input, dim0, dim1):
    return "TransposeBackward0", (input,), lambda g: (g.transpose(dim0, dim1),)


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


@formula("adjoint", "mH")
def _mH(ctx, input):
    return "TransposeBackward0", (input,), lambda g: (g.transpose(-2, -1).conj(),)


@formula("squeeze")
def _squeeze(ctx, input, dim=None):
    shape = input._shape
    name = "SqueezeBackward0" if dim is None else (
        "SqueezeBackward2" if isinstance(dim, (list, tuple)) else "SqueezeBackward1")
    return name, (input,), lambda g: (g.reshape(shape),)


@formula("unsqueeze")
def _unsqueeze(ctx, input, dim):
    d = _layout.normalize_dim(dim, len(input._shape) + 1)
    return "UnsqueezeBackward0", (input,), lambda g: (g.squeeze(d),)


@formula("expand", "expand_as", "broadcast_to")
def _expand(ctx, input, *args, **kwargs):
    shape = input._shape
    return "ExpandBackward0", (input,), lambda g: (g,)  # (the engine sums the broadcast)


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


@formula("narrow")
def _narrow(ctx, input, dim, start, length):
    shape = input._shape
    d = _layout.normalize_dim(dim, len(shape))
    st = start.__index__() if not isinstance(start, Tensor) else builtins.int(start.item())
    st = st + shape[d] if st < 0 else st
    return "SliceBackward0", (input,), \
        lambda g: (_place(tv.zeros(shape, dtype=g.dtype, device=g.device), g, d,
                          slice(st, st + length)),)


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


@formula("conj", "conj_physical")
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
def _tile(input, dims):
    dims = tuple(dims)
    if len(dims) < input.dim():
        dims = (1,) * (input.dim() - len(dims)) + dims
    return input.repeat(*dims)


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
        return gi, None, gv
    return "IndexPutBackward0", (input, None, value), backward


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
    a_needs, b_needs = _needs(ctx, input, mat2)
    sb = ctx.save(mat2, "mat2") if a_needs else None
    sa = ctx.save(input, "self") if b_needs else None
    return "MmBackward0", (input, mat2), \
        lambda g: (g.mm(_c(sb()).t()) if a_needs else None,
                   _c(sa()).t().mm(g) if b_needs else None)


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
    a_needs, b_needs = _needs(ctx, mat1, mat2)
    s2 = ctx.save(mat2, "mat2") if a_needs else None
    s1 = ctx.save(mat1, "mat1") if b_needs else None

    def backward(g):
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


@composite("matmul")
def _matmul(input, other, *, out=None):
    a, b = input.dim(), other.dim()
    if a == 1 and b == 1:
        return input.dot(other)
    if a == 2 and b == 1:
        return input.mv(other)
    if a == 1 and b == 2:
        return input.unsqueeze(0).mm(other).squeeze(0)
    if a == 2 and b == 2:
        return input.mm(other)
    if a >= 3 and b <= 2:  # fold the batch into the rows
        other2 = other if b == 2 else other.unsqueeze(1)
        folded = input.reshape(-1, input.shape[-1])
        res = folded.mm(other2).view(*input.shape[:-1], other2.shape[-1])
        return res if b == 2 else res.squeeze(-1)
    # batched: broadcast the batch dims, then bmm
    x = input if a > 1 else input.unsqueeze(0)
    y = other if b > 1 else other.unsqueeze(-1)
    batch = tv.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    xe = x.expand(*batch, *x.shape[-2:]).reshape(-1, *x.shape[-2:])
    ye = y.expand(*batch, *y.shape[-2:]).reshape(-1, *y.shape[-2:])
    res = xe.bmm(ye).view(*batch, x.shape[-2], y.shape[-1])
    if a == 1:
        res = res.squeeze(-2)
    if b == 1:
        res = res.squeeze(-1)
    return res


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

    def backward(g):
        a, d = s(), r()
        inv_t = _c(tv.linalg.inv(a)).transpose(-2, -1)
        return ((_c(d) * g).unsqueeze(-1).unsqueeze(-1) * inv_t,)
    return "LinalgDetBackward0", (input,), backward


@formula("linalg.solve")
def _solve(ctx, A, B, *, left=True, out=None):
    sa = ctx.save(A, "A")
    r = ctx.save(ctx.out, "result")
    vec = B.dim() == 1 or (B.dim() == A.dim() - 1 and B.shape == A.shape[:-1])

    def backward(g):
        a, x = sa(), r()
        gb = tv.linalg.solve(_c(a).transpose(-2, -1), g)
        if vec:
            ga = -gb.unsqueeze(-1) * _c(x).unsqueeze(-2)
        else:
            ga = -gb @ _c(x).transpose(-2, -1)
        return ga, gb
    return "LinalgSolveExBackward0", (A, B), backward


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
           "count_nonzero", "nonzero", "argwhere", "unique", "unique_consecutive", "floor_divide",
           "remainder", "fmod_int", "logical_and", "logical_or", "logical_xor", "logical_not",
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


from .graph import SavedTensor as _SavedType  # noqa: E402
