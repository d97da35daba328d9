"""The nn ops PyTorch records as one node of their own, with their derivative formulas.

Each kernel is written with tensorviz's tensor ops (run with grad mode off when recorded);
each backward too, so it is itself differentiable.  ``nn.functional`` calls them through the
registry's spellings (``_dispatch.installed("nn.functional")``), where autograd records them.
"""
from __future__ import annotations

import builtins
import math

import numpy as _np

from ..autograd._torch import T as tv

from .. import _dispatch, _dtypes
from .._dispatch import op
from .._tensor import Tensor
from ..autograd._raw import cpu, fresh, plain, quiet_run, real_float
from ..autograd._record import formula
from . import _fast

__all__: list = []

_F = "nn.functional"


def _reg(name: str):
    return op(name, namespace=_F, method=False)


# ---------------------------------------------------------------- activations
def _phi(x):
    return (x * x * -0.5).exp() * (1.0 / math.sqrt(2 * math.pi))


def _gelu_grad(x, approximate):
    if approximate == "tanh":
        k = math.sqrt(2.0 / math.pi)
        inner = (x + x.pow(3) * 0.044715) * k
        t = inner.tanh()
        return (t + 1) * 0.5 + x * 0.5 * (-(t * t) + 1) * (x * x * (3 * 0.044715) + 1) * k
    return ((x * (1.0 / math.sqrt(2.0))).erf() + 1) * 0.5 + x * _phi(x)


def _celu_scale(alpha) -> float:
    """celu's input scale in PyTorch's backward: ``1 / alpha`` of alpha rounded to float32
    (1 / 0.7 is 1.428571453..., not ...429; its forward divides by alpha itself)."""
    return 1.0 / float(_np.float32(alpha))


#: Each activation's out-of-place formula, by kernel name (their in-place forms reuse them).
_FORMULA_OF: dict = {}


def _activation_formula(name: str, node: str, grad):
    """Record activation ``name`` as PyTorch's ``node``, saving its input only (as PyTorch:
    its result may then be written in place, ``y = F.gelu(h); y += skip``); the gradient is
    ``g * grad(x, *args)``."""
    @formula(f"{_F}.{name}")
    def f(ctx, input, *args, **kwargs):
        s = ctx.save(input, "self")
        return node, (input,), lambda g: (g * grad(s(), *args, **kwargs),)
    _FORMULA_OF[name] = f
    return f


_activation_formula("_gelu", "GeluBackward0",
                    lambda x, approximate="none": _gelu_grad(x, approximate))
_activation_formula("_silu", "SiluBackward0",
                    lambda x: x.sigmoid() * (x * (-x.sigmoid() + 1) + 1))
# (PyTorch's elu_backward of the input: scale, or alpha * scale * exp(x) from x <= 0 on;
# celu's is elu's with scale 1 and input_scale 1 / alpha: exp(x / alpha))
_activation_formula("_elu", "EluBackward0",
                    lambda x, alpha=1.0, scale=1.0:
                    tv.where(x > 0, tv.full_like(x, scale), x.exp() * (alpha * scale)))
_activation_formula("_celu", "CeluBackward0",
                    lambda x, alpha=1.0: tv.where(
                        x > 0, tv.ones_like(x),
                        (x * _celu_scale(alpha)).exp() * (_celu_scale(alpha) * alpha)))
# Note: PyTorch's CPU kernel multiplies by the float literal 1.0f / 6.0f in every dtype, so
# float64 gradients carry float32's rounding of 1/6; we follow it.
_ONE_SIXTH_F32 = 0.1666666716337204
_activation_formula("_hardsigmoid", "HardsigmoidBackward0",
                    lambda x: ((x > -3) & (x < 3)).to(x.dtype) * _ONE_SIXTH_F32)
# (PyTorch's hardswish_backward: 0 up to -3 included, x / 3 + 1/2 strictly inside, 1 from 3)
_activation_formula("_hardswish", "HardswishBackward0",
                    lambda x: tv.where(x <= -3, tv.zeros_like(x),
                                       tv.where(x < 3, x / 3 + 0.5, tv.ones_like(x))))
_activation_formula("_logsigmoid", "LogSigmoidBackward0", lambda x: (-x).sigmoid())
_activation_formula("_softshrink", "SoftshrinkBackward0",
                    lambda x, lambd=0.5: (x.abs() > lambd).to(x.dtype))
_activation_formula("_hardshrink", "HardshrinkBackward0",
                    lambda x, lambd=0.5: (x.abs() > lambd).to(x.dtype))
_activation_formula("_threshold", "ThresholdBackward0",
                    lambda x, threshold=0.0, value=0.0: (x > threshold).to(x.dtype))


def _mish_grad(x):
    t = _softplus_plain(x).tanh()
    return t + x * x.sigmoid() * (-(t * t) + 1)


_activation_formula("_mish", "MishBackward0", _mish_grad)
_activation_formula("_leaky_relu", "LeakyReluBackward0",
                    lambda x, negative_slope=0.01:
                    tv.where(x > 0, tv.ones_like(x), tv.full_like(x, negative_slope)))
_activation_formula("_softplus", "SoftplusBackward0",
                    lambda x, beta=1.0, threshold=20.0:
                    tv.where(x * beta > threshold, tv.ones_like(x), (x * beta).sigmoid()))
_activation_formula("_hardtanh", "HardtanhBackward0",
                    lambda x, min_val=-1.0, max_val=1.0:
                    ((x > min_val) & (x < max_val)).to(x.dtype))


@_reg("_trilinear")
def _trilinear(x1: Tensor, weight: Tensor, x2: Tensor) -> Tensor:
    """``out[b, o] = sum_ij x1[b, i] W[o, i, j] x2[b, j]``: the kernel of
    ``nn.functional.bilinear`` for flattened inputs (PyTorch's ``_trilinear``)."""
    k, i, j = weight.shape
    t = (x1 @ weight.permute(1, 0, 2).reshape(i, k * j)).reshape(-1, k, j)
    return (t * x2.unsqueeze(1)).sum(-1)


@formula(f"{_F}._trilinear")
def _trilinear_f(ctx, x1, weight, x2):
    s1 = ctx.save(x1, "i1")
    sw = ctx.save(weight, "i2")
    s2 = ctx.save(x2, "i3")

    def backward(g):
        a, w, b = s1(), sw(), s2()
        k, i, j = w.shape
        gw_flat = g @ w.reshape(k, i * j)                      # (B, i*j)
        g1 = (gw_flat.reshape(-1, i, j) * b.unsqueeze(1)).sum(-1) if ctx.needs(x1) else None
        g3 = (gw_flat.reshape(-1, i, j) * a.unsqueeze(2)).sum(1) if ctx.needs(x2) else None
        g2 = None
        if ctx.needs(weight):
            outer = (a.unsqueeze(2) * b.unsqueeze(1)).reshape(-1, i * j)
            g2 = (g.t() @ outer).reshape(k, i, j)
        return g1, g2, g3
    return "TrilinearBackward0", (x1, weight, x2), backward


@_reg("_rrelu_with_noise")
def _rrelu_with_noise(input: Tensor, noise, lower: float, upper: float,
                      training: bool) -> Tensor:
    """The kernel of ``nn.functional.rrelu``: ``x * noise`` when training (``noise`` the
    random slope of each element, 1 where ``x > 0``), a leaky ReLU with the mean slope else."""
    if training:
        return input * noise
    slope = (lower + upper) / 2
    return tv.where(input > 0, input, input * slope)


@formula(f"{_F}._rrelu_with_noise")
def _rrelu_with_noise_f(ctx, input, noise, lower, upper, training):  # noqa: D401
    # (PyTorch's RreluWithNoiseBackward0: the noise when training, else leaky_relu_backward;
    # one edge -- the noise is not differentiated)
    if training:
        sn = ctx.save(noise, "noise")
        return "RreluWithNoiseBackward0", (input,), lambda g: (g * sn(),)
    s = ctx.save(input, "self")
    slope = (lower + upper) / 2
    return "RreluWithNoiseBackward0", (input,), \
        lambda g: (tv.where(s() > 0, g, g * slope),)


def _softplus_plain(x):
    return tv.where(x > 20, x, x.exp().log1p())


#: The activation kernels as declared (not the recording spellings), by name.
_KERNELS: dict = {}


def _act_kernel(name: str, fwd):
    def kernel(input: Tensor, *args, **kwargs) -> Tensor:
        return fwd(input, *args, **kwargs)
    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = f"The kernel of ``nn.functional.{name[1:]}`` (recorded as one node)."
    _KERNELS[name] = kernel
    return _reg(name)(kernel)


def _gelu(x, approximate: str = "none"):
    if approximate == "tanh":
        return x * 0.5 * (((x + x.pow(3) * 0.044715) * math.sqrt(2.0 / math.pi)).tanh() + 1)
    return x * 0.5 * ((x * (1.0 / math.sqrt(2.0))).erf() + 1)


_act_kernel("_gelu", _gelu)
_act_kernel("_silu", lambda x: x * x.sigmoid())
_act_kernel("_elu", lambda x, alpha=1.0, scale=1.0:
            tv.where(x > 0, x, (x.exp() - 1) * alpha) * scale)
_act_kernel("_celu", lambda x, alpha=1.0: tv.where(x > 0, x, ((x / alpha).exp() - 1) * alpha))
_act_kernel("_hardsigmoid", lambda x: (x / 6 + 0.5).clamp(0, 1))
_act_kernel("_hardswish", lambda x: x * (x / 6 + 0.5).clamp(0, 1))
_act_kernel("_logsigmoid", lambda x: x.clamp(max=0) - (-x.abs()).exp().log1p())
_act_kernel("_softshrink", lambda x, lambd=0.5: tv.where(
    x > lambd, x - lambd, tv.where(x < -lambd, x + lambd, tv.zeros_like(x))))
_act_kernel("_hardshrink", lambda x, lambd=0.5: tv.where(x.abs() > lambd, x, tv.zeros_like(x)))
_act_kernel("_threshold", lambda x, threshold=0.0, value=0.0:
            tv.where(x > threshold, x, tv.full_like(x, value)))
_act_kernel("_mish", lambda x: x * _softplus_plain(x).tanh())


@_reg("_glu")
def _glu(input: Tensor, dim: int = -1) -> Tensor:
    """The kernel of ``nn.functional.glu`` (recorded as one node)."""
    a, b = input.chunk(2, dim)
    return a * b.sigmoid()


@formula(f"{_F}._glu")
def _glu_f(ctx, input, dim=-1):
    s = ctx.save(input, "self")

    def backward(g):
        a, b = s().chunk(2, dim)
        sb = b.sigmoid()
        return (tv.cat([g * sb, g * a * sb * (-sb + 1)], dim),)
    return "GluBackward0", (input,), backward


def _prelu_shape(input, weight):
    if weight.numel() != 1 and input.dim() >= 2:
        return (1, -1) + (1,) * (input.dim() - 2)
    return None


@_reg("_prelu")
def _prelu(input: Tensor, weight: Tensor) -> Tensor:
    """The kernel of ``nn.functional.prelu`` (recorded as one node)."""
    shape = _prelu_shape(input, weight)
    w = weight.reshape(shape) if shape else weight.reshape(())
    return tv.where(input > 0, input, input * w)


@formula(f"{_F}._prelu")
def _prelu_f(ctx, input, weight):
    s = ctx.save(input, "self")
    sw = ctx.save(weight, "weight")

    def backward(g):
        x, w = s(), sw()
        shape = _prelu_shape(x, w)
        wb = w.reshape(shape) if shape else w.reshape(())
        gi = tv.where(x > 0, g, g * wb)
        gw = tv.where(x > 0, tv.zeros_like(x), g * x)
        if shape:
            dims = [d for d in range(x.dim()) if d != 1]
            gw = gw.sum(dims) if dims else gw
        else:
            gw = gw.sum()
        return gi, gw.reshape(w.shape)
    return "PreluKernelBackward0", (input, weight), backward
_act_kernel("_leaky_relu", lambda x, negative_slope=0.01: tv.where(x > 0, x, x * negative_slope))
_act_kernel("_softplus", lambda x, beta=1.0, threshold=20.0:
            tv.where(x * beta > threshold, x, (x * beta).exp().log1p() / beta))
_act_kernel("_hardtanh", lambda x, min_val=-1.0, max_val=1.0: x.clamp(min_val, max_val))


# ---------------------------------------------------------------- in-place activations
# ``F.leaky_relu(x, inplace=True)`` and the like are ops of their own in PyTorch, recorded as
# one node on ``x`` (rebased onto it): those that can recover their gradient from the result
# save it (LeakyReluBackward1, EluBackward1 ...); the others save ``x`` as it was before the
# write (HardtanhBackward0, ThresholdBackward1 ...), the recorder's copy of it.
_NEGATIVE_SLOPE = ("In-place {} backward calculation is triggered with a negative slope which "
                   "is not supported. This is caused by calling in-place forward function with "
                   "a negative slope, please call out-of-place version instead.")


def _inplace_activation(name: str, kernel, node: str, from_result=None, check=None):
    """Declare ``name_``, the in-place form of the activation kernel ``name``, recorded as
    PyTorch's ``node``: its gradient ``from_result(y, *args)`` from the result saved, or
    (None) the out-of-place formula's own from the input as it was."""
    def inplace_kernel(input: Tensor, *args, **kwargs) -> Tensor:
        out = kernel(input, *args, **kwargs)
        return input.copy_(out)
    inplace_kernel.__name__ = inplace_kernel.__qualname__ = name + "_"
    inplace_kernel.__doc__ = (f"The in-place kernel of ``nn.functional.{name[1:]}`` (recorded "
                              f"as {node}).")
    _reg(name + "_")(inplace_kernel)
    plain = _FORMULA_OF.get(name)

    @formula(f"{_F}.{name}_")
    def f(ctx, input, *args, **kwargs):
        if from_result is None:
            _, inputs, backward = plain(ctx, input, *args, **kwargs)
            return node, inputs, backward
        r = ctx.save(ctx.out, "result")

        def backward(g):
            if check is not None:
                check(*args, **kwargs)
            return (g * from_result(r(), *args, **kwargs),)
        return node, (input,), backward
    return f


def _nonnegative(what: str, key: str, default: float, pos: int = 0):
    def check(*args, **kwargs):
        v = args[pos] if len(args) > pos else kwargs.get(key, default)
        if v < 0:
            message = _NEGATIVE_SLOPE.format(what)
            if what == "leakyReLu":
                message += (" File an issue at https://github.com/pytorch/pytorch if you do "
                            "require supporting in-place leakRelu backward calculation with "
                            "negative slope")
            raise RuntimeError(message)
    return check


_inplace_activation("_leaky_relu", _KERNELS["_leaky_relu"], "LeakyReluBackward1",
                    lambda y, negative_slope=0.01: tv.where(
                        y > 0, tv.ones_like(y), tv.full_like(y, negative_slope)),
                    _nonnegative("leakyReLu", "negative_slope", 0.01))
_inplace_activation("_elu", _KERNELS["_elu"], "EluBackward1",
                    lambda y, alpha=1.0, scale=1.0:
                    tv.where(y > 0, tv.full_like(y, scale), y + alpha * scale),
                    _nonnegative("elu", "alpha", 1.0))
_inplace_activation("_celu", _KERNELS["_celu"], "CeluBackward1",
                    lambda y, alpha=1.0: tv.where(y > 0, tv.ones_like(y),
                                                  (y + alpha) * _celu_scale(alpha)),
                    _nonnegative("elu", "alpha", 1.0))
_inplace_activation("_threshold", _KERNELS["_threshold"], "ThresholdBackward1")
_inplace_activation("_hardtanh", _KERNELS["_hardtanh"], "HardtanhBackward0")
_inplace_activation("_silu", _KERNELS["_silu"], "SiluBackward0")
_inplace_activation("_hardsigmoid", _KERNELS["_hardsigmoid"], "HardsigmoidBackward0")
_inplace_activation("_hardswish", _KERNELS["_hardswish"], "HardswishBackward0")
_inplace_activation("_mish", _KERNELS["_mish"], "MishBackward0")


def _rrelu_from_result(y, noise, lower, upper, training):
    return noise if training else tv.where(y > 0, tv.ones_like(y),
                                           tv.full_like(y, (lower + upper) / 2))


_inplace_activation("_rrelu_with_noise", _rrelu_with_noise,
                    "RreluWithNoiseBackward1", _rrelu_from_result)


# ---------------------------------------------------------------- losses
def _reduced(loss, reduction):
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


@_reg("_mse_loss")
def _mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """``(input - target)^2``, reduced."""
    return _reduced((input - target).pow(2), reduction)


@formula(f"{_F}._mse_loss")
def _mse_loss_f(ctx, input, target, reduction="mean"):
    a = ctx.save(input, "self")
    b = ctx.save(target, "target")

    def backward(g):
        d = a() - b()
        n = builtins.max(d.numel(), 1) if reduction == "mean" else 1
        gd = d * 2 * g / n if reduction != "none" else d * 2 * g
        return gd, (-gd if ctx.needs(target) else None)
    ctx.keep("reduction", {"none": 0, "mean": 1, "sum": 2}[reduction])
    return "MseLossBackward0", (input, target), backward


def _nll_flat(input, target):
    """(N, C, d...) -> (N*d, C) rows and (N*d,) targets (a 1-D input is one sample)."""
    if input.dim() == 1:
        return input.unsqueeze(0), target.reshape(1)
    if input.dim() == 2:
        return input, target
    c = input.shape[1]
    return input.movedim(1, -1).reshape(-1, c), target.reshape(-1)


@_reg("_nll_loss")
def _nll_loss(input: Tensor, target: Tensor, weight, reduction: str, ignore_index: int):
    """The negative log likelihood of ``target`` under log-probabilities ``input``."""
    x, t = _nll_flat(input, target)
    c = x.shape[1]
    t = t.long()
    valid = t != ignore_index
    if t.numel() and not t.is_meta:  # (a meta target has no values to check)
        bad = (t < 0) | (t >= c)
        bad = bad & valid
        if bool(bad.any()):
            first = int(t[bad][0])
            raise IndexError(f"Target {first} is out of bounds.")
    safe = tv.where(valid, t, tv.zeros_like(t))
    picked = -x.gather(1, safe.unsqueeze(1)).squeeze(1)
    w = tv.ones(c, dtype=x.dtype, device=x.device) if weight is None else weight
    wt = w[safe] * valid.to(x.dtype)
    loss = picked * wt
    if reduction == "none":
        if input.dim() == 1:
            return loss.reshape(())
        return loss.reshape(target.shape)
    if reduction == "sum":
        return loss.sum()
    return loss.sum() / wt.sum()


@formula(f"{_F}._nll_loss")
def _nll_loss_f(ctx, input, target, weight, reduction, ignore_index):
    _no_grad_arg(ctx, weight, "nll_loss2d_forward" if input.dim() == 4 else "nll_loss_forward",
                 "weight")
    st = ctx.save(target, "target")
    sw = ctx.save(weight, "weight") if weight is not None else None
    shape = input._shape
    ctx.keep("ignore_index", ignore_index)

    def backward(g):
        x_shape = shape
        if sw is None and len(x_shape) == 2 and reduction != "none" and plain() and \
                real_float(g):
            ga, ta = cpu(g), cpu(st())
            if ga is not None and ta is not None and ta.ndim == 1:
                return (fresh(quiet_run(_nll_grad, ga, ta, x_shape, ignore_index,
                                        reduction == "mean"), g._dtype),)
        t = st().long()
        c = x_shape[1] if len(x_shape) >= 2 else x_shape[0]
        tf = t.reshape(-1)
        valid = tf != ignore_index
        safe = tv.where(valid, tf, tv.zeros_like(tf))
        w = tv.ones(c, dtype=g.dtype, device=g.device) if sw is None else sw()
        wt = w[safe] * valid.to(g.dtype)
        if reduction == "mean":
            coef = -wt * (g / wt.sum())
        elif reduction == "sum":
            coef = -wt * g
        else:
            coef = -wt * g.reshape(-1)
        rows = tf.shape[0]
        grad = tv.zeros(rows, c, dtype=g.dtype, device=g.device).scatter(
            1, safe.unsqueeze(1), coef.unsqueeze(1))
        if len(x_shape) == 1:
            return (grad.reshape(x_shape),)
        if len(x_shape) == 2:
            return (grad,)
        moved = (x_shape[0],) + tuple(x_shape[2:]) + (c,)
        return (grad.reshape(moved).movedim(-1, 1),)
    # (as PyTorch's, the node's one edge is the input's: the target and weight get none)
    return ("NllLoss2DBackward0" if len(shape) == 4 else "NllLossBackward0"), (input,), backward


def _nll_grad(g, t, shape, ignore_index, mean):
    """``nll_loss``'s gradient for (N, C) log-probabilities without class weights, on the
    arrays: the general path's steps, in its order and dtype."""
    t = t.astype(_np.int64, copy=False)
    n, c = shape
    if n and mean and not 0 <= ignore_index < c and _np.minimum.reduce(t) >= 0:
        # (no target ignored -- the forward checked the others are classes -- : the weights
        # are all 1 and sum to n exactly)
        grad = _np.zeros(shape, g.dtype)
        grad[_fast.rows(n), t] = -(g / g.dtype.type(n))
        return grad
    valid = t != ignore_index
    safe = _np.where(valid, t, 0)
    wt = valid.astype(g.dtype)
    coef = -wt * (g / wt.sum()) if mean else -wt * g
    grad = _np.zeros(shape, g.dtype)
    grad[_np.arange(shape[0]), safe] = coef
    return grad


# Losses PyTorch computes elementwise in one kernel: (forward of d = input - target or of
# (input, target), derivative w.r.t. input), the reduction applied inside the node.
def _no_grad_arg(ctx, t, fn: str, arg: str) -> None:
    """PyTorch's error for an input its derivative formula does not differentiate (the
    loss weights; soft margin's target): no edge in the graph, and no requires_grad."""
    if t is not None and ctx.needs(t):
        raise RuntimeError(f"The function '{fn}' is not differentiable with respect to "
                           f"argument '{arg}'. This input cannot have requires_grad True.")


def _pointwise_loss(name: str, node: str, fwd, dinput, target_grad: bool):
    def kernel(input: Tensor, target: Tensor, reduction: str = "mean", *args) -> Tensor:
        return _reduced(fwd(input, target, *args), reduction)
    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = f"The kernel of ``nn.functional.{name[1:]}`` (recorded as one node)."
    _reg(name)(kernel)

    @formula(f"{_F}.{name}")
    def f(ctx, input, target, reduction="mean", *args):
        if not target_grad:
            _no_grad_arg(ctx, target, name[1:], "target")
        a = ctx.save(input, "self")
        b = ctx.save(target, "target")

        def backward(g):
            x, t = a(), b()
            n = builtins.max(x.numel(), 1) if reduction == "mean" else 1
            d = dinput(x, t, *args) * (g / n)
            if not target_grad:
                return (d,)
            return d, (-d if ctx.needs(target) else None)
        return node, ((input, target) if target_grad else (input,)), backward
    return f


_pointwise_loss(
    "_smooth_l1_loss", "SmoothL1LossBackward0",
    lambda x, t, beta: tv.where((x - t).abs() < beta, (x - t).pow(2) * (0.5 / beta),
                                (x - t).abs() - 0.5 * beta),
    lambda x, t, beta: ((x - t) / beta).clamp(-1, 1), True)
_pointwise_loss(
    "_huber_loss", "HuberLossBackward0",
    lambda x, t, delta: tv.where((x - t).abs() < delta, (x - t).pow(2) * 0.5,
                                 ((x - t).abs() - 0.5 * delta) * delta),
    lambda x, t, delta: (x - t).clamp(-delta, delta), True)
_pointwise_loss(
    "_soft_margin_loss", "SoftMarginLossBackward0",
    lambda x, t: (-t * x).exp().log1p(),
    lambda x, t: -t * (-t * x).sigmoid(), False)


def _multi_margin_terms(x, t, p, margin, weight):
    """(N, C) hinge terms (the target's own column zeroed) and their mask."""
    picked = x.gather(1, t.unsqueeze(1))
    z = margin - picked + x
    mask = (z > 0).to(x.dtype).scatter(1, t.unsqueeze(1), 0.0)
    return z, mask


@_reg("_multi_margin_loss")
def _multi_margin_loss(input: Tensor, target: Tensor, p: int, margin: float, weight,
                       reduction: str) -> Tensor:
    """The kernel of ``nn.functional.multi_margin_loss`` (recorded as one node)."""
    x = input if input.dim() == 2 else input.unsqueeze(0)
    t = target.reshape(-1).long()
    z, mask = _multi_margin_terms(x, t, p, margin, weight)
    loss = z.clamp(min=0).pow(p) * mask
    if weight is not None:
        loss = loss * weight[t].unsqueeze(1)
    loss = loss.sum(1) / x.shape[1]
    if input.dim() != 2:
        loss = loss.reshape(target.shape)
    return _reduced(loss, reduction)


@formula(f"{_F}._multi_margin_loss")
def _multi_margin_loss_f(ctx, input, target, p, margin, weight, reduction):
    _no_grad_arg(ctx, weight, "multi_margin_loss", "weight")
    a = ctx.save(input, "self")
    b = ctx.save(target, "target")
    w = ctx.save(weight, "weight") if weight is not None else None

    def backward(g):
        xin = a()
        x = xin if xin.dim() == 2 else xin.unsqueeze(0)
        t = b().reshape(-1).long()
        z, mask = _multi_margin_terms(x, t, p, margin, weight)
        h = mask if p == 1 else z * 2 * mask
        if w is not None:
            h = h * w()[t].unsqueeze(1)
        if reduction == "none":
            gs = g.reshape(-1, 1)
        elif reduction == "mean":
            gs = g / x.shape[0]
        else:
            gs = g
        gz = h * gs / x.shape[1]
        grad = gz.scatter(1, t.unsqueeze(1), -gz.sum(1, keepdim=True))
        return (grad.reshape(xin.shape),)
    return "MultiMarginLossBackward0", (input,), backward


@_reg("_binary_cross_entropy")
def _bce(input: Tensor, target: Tensor, weight, reduction: str) -> Tensor:
    """``-(t log x + (1 - t) log(1 - x))`` with the logs clamped at -100, as PyTorch."""
    loss = -(target * input.log().clamp(min=-100) + (1 - target) * (-input).log1p().clamp(
        min=-100))
    if weight is not None:
        loss = loss * weight
    return _reduced(loss, reduction)


@formula(f"{_F}._binary_cross_entropy")
def _bce_f(ctx, input, target, weight, reduction):
    _no_grad_arg(ctx, weight, "binary_cross_entropy", "weight")
    a = ctx.save(input, "self")
    b = ctx.save(target, "target")
    w = ctx.save(weight, "weight") if weight is not None else None

    def backward(g):
        x, t = a(), b()
        n = x.numel() if reduction == "mean" else 1
        grad = (x - t) / (x * (-x + 1)).clamp(min=1e-12) * g / n
        if w is not None:
            grad = grad * w()
        gt = None
        if ctx.needs(target):
            gt = ((-x + 1).log().clamp(min=-100) - x.log().clamp(min=-100)) * g / n
            if w is not None:
                gt = gt * w()
        return grad, gt
    return "BinaryCrossEntropyBackward0", (input, target), backward


@_reg("_binary_cross_entropy_with_logits")
def _bce_logits(input: Tensor, target: Tensor, weight, pos_weight, reduction: str) -> Tensor:
    """``binary_cross_entropy(sigmoid(x), t)`` from logits, stably."""
    log_sig = -(-input).clamp(min=0) - (-input.abs()).exp().log1p()      # log sigmoid(x)
    log_one_minus = -input.clamp(min=0) - (-input.abs()).exp().log1p()   # log(1 - sigmoid(x))
    if pos_weight is not None:
        loss = -(pos_weight * target * log_sig + (1 - target) * log_one_minus)
    else:
        loss = -(target * log_sig + (1 - target) * log_one_minus)
    if weight is not None:
        loss = loss * weight
    return _reduced(loss, reduction)


@formula(f"{_F}._binary_cross_entropy_with_logits")
def _bce_logits_f(ctx, input, target, weight, pos_weight, reduction):
    _no_grad_arg(ctx, weight, "binary_cross_entropy_with_logits", "weight")
    _no_grad_arg(ctx, pos_weight, "binary_cross_entropy_with_logits", "pos_weight")
    a = ctx.save(input, "self")
    b = ctx.save(target, "target")
    w = ctx.save(weight, "weight") if weight is not None else None
    pw = ctx.save(pos_weight, "pos_weight") if pos_weight is not None else None

    def backward(g):
        x, t = a(), b()
        s = x.sigmoid()
        n = x.numel() if reduction == "mean" else 1
        if pw is not None:
            p = pw()
            grad = s * (p * t + 1 - t) - p * t
        else:
            grad = s - t
        grad = grad * g / n
        if w is not None:
            grad = grad * w()
        gt = None
        if ctx.needs(target):
            gt = -x * g / n if pw is None else \
                (-(pw() * (-(-x).clamp(min=0) - (-x.abs()).exp().log1p())) +
                 (-x.clamp(min=0) - (-x.abs()).exp().log1p())) * g / n
            if w is not None:
                gt = gt * w()
        return grad, gt
    return "BinaryCrossEntropyWithLogitsBackward0", (input, target), backward


# ---------------------------------------------------------------- normalization
@_reg("_batch_norm")
def _batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """Batch normalization over every dim but 1; running statistics updated in training."""
    dims = (0,) + tuple(range(2, input.dim()))
    shape = (1, input.shape[1]) + (1,) * (input.dim() - 2)
    if training:
        mean = input.mean(dims, keepdim=True)
        var = input.var(dims, unbiased=False, keepdim=True)
        if running_mean is not None:
            n = input.numel() // input.shape[1]
            with tv.no_grad():
                running_mean.mul_(1 - momentum).add_(mean.reshape(-1) * momentum)
                running_var.mul_(1 - momentum).add_(var.reshape(-1) * (momentum * n / (n - 1)))
    else:
        mean = running_mean.reshape(shape)
        var = running_var.reshape(shape)
    y = (input - mean) * (var + eps).rsqrt()
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y


@formula(f"{_F}._batch_norm")
def _batch_norm_f(ctx, input, weight, bias, running_mean, running_var, training, momentum, eps):
    sx = ctx.save(input, "input")
    sw = ctx.save(weight, "weight") if weight is not None else None
    dims = (0,) + tuple(range(2, input.dim()))
    shape = (1, input.shape[1]) + (1,) * (input.dim() - 2)
    if training:
        with tv.no_grad():
            mean_t = input.mean(dims, keepdim=True)
            invstd_t = (input.var(dims, unbiased=False, keepdim=True) + eps).rsqrt()
    else:
        mean_t = running_mean.reshape(shape).clone()
        invstd_t = (running_var.reshape(shape) + eps).rsqrt()
    sm = ctx.save(mean_t, "save_mean")
    si = ctx.save(invstd_t, "save_invstd")

    def backward(g):
        x, mean, invstd = sx(), sm(), si()
        w = sw().reshape(shape) if sw is not None else None
        xhat = (x - mean) * invstd
        gw = (g * xhat).sum(dims) if sw is not None else None
        gb = g.sum(dims) if bias is not None else None
        gx_hat = g * w if w is not None else g
        if training:
            n = x.numel() // x.shape[1]
            gx = (gx_hat * n - gx_hat.sum(dims, keepdim=True) -
                  xhat * (gx_hat * xhat).sum(dims, keepdim=True)) * (invstd / n)
        else:
            gx = gx_hat * invstd
        return gx, gw, gb
    return "NativeBatchNormBackward0", (input, weight, bias), backward


@_reg("_layer_norm")
def _layer_norm(input, normalized_shape, weight, bias, eps):
    """Layer normalization over the last ``len(normalized_shape)`` dims."""
    dims = tuple(range(input.dim() - len(normalized_shape), input.dim()))
    mean = input.mean(dims, keepdim=True)
    var = input.var(dims, unbiased=False, keepdim=True)
    y = (input - mean) * (var + eps).rsqrt()
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y


@formula(f"{_F}._layer_norm")
def _layer_norm_f(ctx, input, normalized_shape, weight, bias, eps):
    sx = ctx.save(input, "input")
    sw = ctx.save(weight, "weight") if weight is not None else None
    dims = tuple(range(input.dim() - len(normalized_shape), input.dim()))
    lead = tuple(range(0, input.dim() - len(normalized_shape)))
    n = 1
    for d in dims:
        n *= input.shape[d]

    def backward(g):
        x = sx()
        mean = x.mean(dims, keepdim=True)
        invstd = (x.var(dims, unbiased=False, keepdim=True) + eps).rsqrt()
        xhat = (x - mean) * invstd
        gw = (g * xhat).sum(lead) if sw is not None else None
        gb = g.sum(lead) if bias is not None else None
        gxh = g * sw() if sw is not None else g
        gx = (gxh * n - gxh.sum(dims, keepdim=True) -
              xhat * (gxh * xhat).sum(dims, keepdim=True)) * (invstd / n)
        return gx, gw, gb
    return "NativeLayerNormBackward0", (input, weight, bias), backward


# ---------------------------------------------------------------- embedding
@_reg("_embedding")
def _embedding(weight: Tensor, indices: Tensor, padding_idx: int,
               scale_grad_by_freq: bool = False) -> Tensor:
    """Rows of ``weight`` at ``indices``."""
    return weight.index_select(0, indices.reshape(-1)).reshape(
        tuple(indices.shape) + (weight.shape[1],))


@formula(f"{_F}._embedding")
def _embedding_f(ctx, weight, indices, padding_idx, scale_grad_by_freq=False):
    si = ctx.save(indices, "indices")
    rows = weight.shape[0]

    def backward(g):
        idx = si().reshape(-1)
        gg = g.reshape(-1, g.shape[-1])
        if padding_idx >= 0:
            keep = (idx != padding_idx).to(g.dtype).unsqueeze(1)
            gg = gg * keep
        if scale_grad_by_freq:  # each row's gradient divided by how often it was picked
            counts = tv.zeros(rows, dtype=g.dtype, device=g.device).index_add(
                0, idx, tv.ones(idx.shape[0], dtype=g.dtype, device=g.device))
            gg = gg / counts[idx].unsqueeze(1)
        return (tv.zeros(rows, g.shape[-1], dtype=g.dtype, device=g.device).index_add(
            0, idx, gg),)
    return "EmbeddingBackward0", (weight,), backward  # (indices are not differentiable)


# ---------------------------------------------------------------- convolution and pooling
def _padded(x, padding, value=0.0):
    from .functional import pad
    pads = []
    for lo, hi in reversed(padding):
        pads += [lo, hi]
    if builtins.any(pads):
        x = pad(x, pads, value=value)
    return x.contiguous()


def _cols(x, kernel, stride, dilation, groups):
    """(N, G, C/G * K, L): the window view of ``x`` copied into columns."""
    from .functional import _windows
    sp = len(kernel)
    w = _windows(x, kernel, stride, dilation)   # (N, C, *out, *kernel): a view
    n, c = w.shape[:2]
    out = tuple(w.shape[2:2 + sp])
    perm = (0, 1) + tuple(range(2 + sp, 2 + 2 * sp)) + tuple(range(2, 2 + sp))
    k = math.prod(kernel)
    L = math.prod(out)
    return w.permute(*perm).reshape(n, groups, (c // groups) * k, L), out


@_reg("_convolution")
def _convolution(input, weight, bias, stride, padding, dilation, groups):
    """Convolution as a strided window view of the padded input and one matrix product."""
    res = _fast.conv_forward(input, weight, bias, stride, padding, dilation, groups)
    if res is not None:  # (2-D CPU float32/64, one group: the same steps on the arrays)
        return res
    x = _padded(input, padding)
    kernel = tuple(weight.shape[2:])
    cols, out = _cols(x, kernel, stride, dilation, groups)
    o = weight.shape[0]
    w = weight.reshape(groups, o // groups, -1)
    res = (w.unsqueeze(0) @ cols).reshape((input.shape[0], o) + out)   # (N, G, O/G, L)
    if bias is not None:
        res = res + bias.reshape((1, o) + (1,) * len(out))
    return res


@formula(f"{_F}._convolution")
def _convolution_f(ctx, input, weight, bias, stride, padding, dilation, groups):
    sx = ctx.save(input, "input")
    sw = ctx.save(weight, "weight")
    kernel = tuple(weight.shape[2:])
    in_shape = tuple(input.shape)
    sp = len(kernel)
    ctx.keep("stride", stride)
    ctx.keep("padding", padding)
    ctx.keep("dilation", dilation)
    ctx.keep("groups", groups)

    def backward(g):
        x, w = sx(), sw()
        if plain():
            res = _fast.conv_backward(g, x, w, stride, padding, dilation, groups,
                                      ctx.needs(input), ctx.needs(weight),
                                      bias is not None and ctx.needs(bias))
            if res is not None:
                return res
        n, o = g.shape[:2]
        L = math.prod(g.shape[2:])
        gg = g.reshape(n, groups, o // groups, L)
        gx = gw = gb = None
        if ctx.needs(weight):
            cols, _ = _cols(_padded(x, padding), kernel, stride, dilation, groups)
            gw = (gg @ cols.transpose(-2, -1)).sum(0).reshape(w.shape)
        if ctx.needs(input):
            wm = w.reshape(groups, o // groups, -1)
            gcols = wm.transpose(-2, -1).unsqueeze(0) @ gg     # (N, G, C/G*K, L)
            padded_shape = (in_shape[0], in_shape[1]) + tuple(
                in_shape[2 + i] + padding[i][0] + padding[i][1] for i in range(sp))
            total = math.prod(padded_shape)
            pos = tv.arange(total, device=g.device).reshape(padded_shape)
            pcols, _ = _cols(pos, kernel, stride, dilation, groups)
            flat = tv.zeros(total, dtype=g.dtype, device=g.device).index_add(
                0, pcols.reshape(-1), gcols.reshape(-1))
            gxp = flat.reshape(padded_shape)
            key = (slice(None), slice(None)) + tuple(
                slice(padding[i][0], padding[i][0] + in_shape[2 + i]) for i in range(sp))
            gx = gxp[key]
        if bias is not None and ctx.needs(bias):
            gb = g.sum((0,) + tuple(range(2, g.dim())))
        return gx, gw, gb
    return "ConvolutionBackward0", (input, weight, bias), backward


@_reg("_convolution_transpose")
def _convolution_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation):
    """Transposed convolution of a batched input (one ``ConvolutionBackward0`` node, as
    PyTorch records it; the kernel is ``functional._conv_transpose_impl``)."""
    from . import functional as F
    return F._conv_transpose_impl(input, weight, bias, stride, padding, output_padding, groups,
                                  dilation)


@formula(f"{_F}._convolution_transpose")
def _conv_transpose_f(ctx, input, weight, bias, stride, padding, output_padding, groups,
                      dilation):
    # The backward re-runs the kernel's composite (zero insertion, pad, flipped-kernel
    # convolution) and asks autograd for its gradient: on detached copies for a first
    # derivative; on the saved inputs themselves under create_graph, so that the gradient
    # stays a function of both factors (the op is bilinear) and double backward is exact.
    args = (input, weight, bias)
    want = [t is not None and ctx.needs(t) for t in args]
    saved = [ctx.save(t, n) if t is not None else None
             for t, n in zip(args, ("input", "weight", "bias"))]
    ctx.keep("stride", stride)
    ctx.keep("padding", padding)
    ctx.keep("output_padding", output_padding)
    ctx.keep("groups", groups)
    ctx.keep("dilation", dilation)

    def backward(g):
        from . import functional as F
        from .. import _grad_mode, autograd
        create = _grad_mode.is_grad_enabled()
        vals = [s() if s is not None else None for s in saved]
        with _grad_mode.enable_grad():
            if create:
                call = vals
            else:
                call = [v.detach().requires_grad_(w) if v is not None else None
                        for v, w in zip(vals, want)]
            out = F._conv_transpose_impl(call[0], call[1], call[2], stride, padding,
                                         output_padding, groups, dilation)
            leaves = [c for c, w in zip(call, want) if w]
            grads = iter(autograd.grad(out, leaves, g, create_graph=create, allow_unused=True))
        return tuple(next(grads) if w else None for w in want)
    return "ConvolutionBackward0", args, backward


@_reg("_max_pool")
def _max_pool(input, kernel, stride, padding, dilation, ceil_mode):
    """Max pooling over a strided window view; returns (values, flat indices per plane)."""
    from .functional import _pool_out, _windows
    sp = len(kernel)
    if input.dim() == sp + 1:  # unbatched (C, *spatial): one node, as PyTorch
        values, idx = _max_pool(input.unsqueeze(0), kernel, stride, padding, dilation,
                                ceil_mode)
        return values.squeeze(0), idx.squeeze(0)
    sizes = tuple(input.shape[2:])
    outs = [_pool_out(sizes[i], kernel[i], stride[i], padding[i], dilation[i], ceil_mode)
            for i in range(sp)]
    extra = [builtins.max(0, (outs[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1 -
                          (sizes[i] + 2 * padding[i])) for i in range(sp)]
    pads = tuple((padding[i], padding[i] + extra[i]) for i in range(sp))
    res = _fast.max_pool_forward(input, kernel, stride, pads, dilation)
    if res is not None:  # (2-D CPU float32/64: the same window view and argmax, on arrays)
        return res
    x = _padded(input, pads, float("-inf"))
    win = _windows(x, kernel, stride, dilation)                  # (N, C, *out, *kernel)
    flat = win.reshape(tuple(win.shape[:2 + sp]) + (-1,))
    values, arg = flat.max(-1)
    # flat index into each unpadded input plane
    k_pos = [a for a in _unravel(arg, kernel)]
    coords = []
    for i in range(sp):
        shape = [1] * (2 + sp)
        shape[2 + i] = outs[i]
        start = tv.arange(outs[i], device=input.device).reshape(shape) * stride[i] - padding[i]
        coords.append(start + k_pos[i] * dilation[i])
    idx = coords[0]
    for i in range(1, sp):
        idx = idx * sizes[i] + coords[i]
    return values, idx


def _unravel(arg, kernel):
    out = []
    rest = arg
    for k in reversed(kernel):
        out.append(rest % k)
        rest = rest // k
    return list(reversed(out))


@formula(f"{_F}._max_pool")
def _max_pool_f(ctx, input, kernel, stride, padding, dilation, ceil_mode):
    shape = tuple(input.shape)
    sp = len(kernel)
    idx = ctx.save(ctx.out[1], "indices")
    ctx.outputs = tuple(ctx.out)

    def backward(g, gi=None):
        if plain():
            res = _fast.max_pool_backward(g, idx(), shape, kernel, stride, dilation)
            if res is not None:
                return (res,)
        n, c = shape[:2] if len(shape) == sp + 2 else (1, shape[0])
        plane = math.prod(shape[-sp:])
        z = tv.zeros(n, c, plane, dtype=g.dtype, device=g.device)
        z = z.scatter_add(2, idx().reshape(n, c, -1), g.reshape(n, c, -1))
        return (z.reshape(shape),)
    name = {1: "MaxPool1DWithIndicesBackward0", 2: "MaxPool2DWithIndicesBackward0",
            3: "MaxPool3DWithIndicesBackward0"}[sp]
    return name, (input,), backward


# ---------------------------------------------------------------- linear ops as one node
# Pooling, padding, resampling, pixel shuffles, im2col/col2im and embedding bags are linear in
# their float inputs (max pooling piecewise so), so their vector-Jacobian product is the
# composite's own: the backward re-runs the composite on detached copies and asks autograd for
# the gradient.  The graph then shows PyTorch's node (``AvgPool2DBackward0`` ...), and since the
# gradient depends on the incoming gradient only, double backward stays exact.
def _recomputed_op(name: str, node: str, impl: str):
    def kernel(*args, **kwargs):
        from . import functional as F
        out = getattr(F, impl)(*args, **kwargs)
        # an op's result is a new tensor (PyTorch's kernels allocate one): a composite that
        # returned its input, or a view of it (zero padding, a pixel shuffle's reshape), is
        # copied, so recording never turns the input itself into a non-leaf
        if any(isinstance(a, Tensor) and a._storage is out._storage for a in args):
            out = out.clone()
        return out
    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = (f"``nn.functional.{impl}`` recorded as one node (``{node}``), as "
                      "PyTorch records it.")
    _reg(name)(kernel)

    @formula(f"{_F}.{name}")
    def f(ctx, *args, **kwargs):
        want = [isinstance(a, Tensor) and a.dtype.is_floating_point and ctx.needs(a)
                for a in args]
        saved = [ctx.save(a, f"input{i}") if w else None
                 for i, (a, w) in enumerate(zip(args, want))]
        inputs = tuple(a for a, w in zip(args, want) if w)
        # (PyTorch's EmbeddingBag node has an edge for per_sample_weights, None when absent)
        extra = name == "_embedding_bag" and not (len(args) > 8 and want[8])
        if extra:
            inputs = inputs + (None,)

        def backward(g):
            from . import functional as F
            from .. import _grad_mode, autograd
            create = _grad_mode.is_grad_enabled()
            with _grad_mode.enable_grad():
                call = [s().detach().requires_grad_(True) if s is not None else a
                        for s, a in zip(saved, args)]
                out = getattr(F, impl)(*call, **kwargs)
                leaves = [c for c, w in zip(call, want) if w]
                grads = autograd.grad(out, leaves, g, create_graph=create,
                                      allow_unused=True)
            res = tuple(gr if gr is not None else tv.zeros_like(lf)
                        for gr, lf in zip(grads, leaves))
            return res + (None,) if extra else res
        return node, inputs, backward
    return f


for _name, _node, _impl in [
        ("_avg_pool2d", "AvgPool2DBackward0", "_avg_pool2d_impl"),
        ("_avg_pool3d", "AvgPool3DBackward0", "_avg_pool3d_impl"),
        ("_adaptive_avg_pool2d", "AdaptiveAvgPool2DBackward0", "_adaptive_avg_pool2d_impl"),
        ("_adaptive_max_pool2d", "AdaptiveMaxPool2DBackward0", "_adaptive_max_pool2d_impl"),
        ("_constant_pad_nd", "ConstantPadNdBackward0", "_pad_impl"),
        ("_reflection_pad1d", "ReflectionPad1DBackward0", "_pad_impl"),
        ("_reflection_pad2d", "ReflectionPad2DBackward0", "_pad_impl"),
        ("_reflection_pad3d", "ReflectionPad3DBackward0", "_pad_impl"),
        ("_replication_pad1d", "ReplicationPad1DBackward0", "_pad_impl"),
        ("_replication_pad2d", "ReplicationPad2DBackward0", "_pad_impl"),
        ("_replication_pad3d", "ReplicationPad3DBackward0", "_pad_impl"),
        ("_upsample_nearest1d", "UpsampleNearest1DBackward0", "_interpolate_impl"),
        ("_upsample_nearest2d", "UpsampleNearest2DBackward0", "_interpolate_impl"),
        ("_upsample_nearest3d", "UpsampleNearest3DBackward0", "_interpolate_impl"),
        ("_upsample_nearest_exact1d", "_UpsampleNearestExact1DBackward0", "_interpolate_impl"),
        ("_upsample_nearest_exact2d", "_UpsampleNearestExact2DBackward0", "_interpolate_impl"),
        ("_upsample_nearest_exact3d", "_UpsampleNearestExact3DBackward0", "_interpolate_impl"),
        ("_upsample_linear1d", "UpsampleLinear1DBackward0", "_interpolate_impl"),
        ("_upsample_bilinear2d", "UpsampleBilinear2DBackward0", "_interpolate_impl"),
        ("_upsample_trilinear3d", "UpsampleTrilinear3DBackward0", "_interpolate_impl"),
        ("_upsample_bicubic2d", "UpsampleBicubic2DBackward0", "_interpolate_impl"),
        ("_pixel_shuffle", "PixelShuffleBackward0", "_pixel_shuffle_impl"),
        ("_pixel_unshuffle", "PixelUnshuffleBackward0", "_pixel_unshuffle_impl"),
        ("_im2col", "Im2ColBackward0", "_unfold_impl"),
        ("_col2im", "Col2ImBackward0", "_fold_impl"),
        ("_embedding_bag", "EmbeddingBagBackward0", "_embedding_bag_impl")]:
    _recomputed_op(_name, _node, _impl)


# ---------------------------------------------------------------- group norm
@_reg("_group_norm")
def _group_norm(input: Tensor, num_groups: int, weight, bias, eps: float) -> Tensor:
    """Normalize groups of channels over (channels in the group, spatial dims)."""
    n, c = input.shape[0], input.shape[1]
    x = input.reshape(n, num_groups, -1)
    mean = x.mean(-1, keepdim=True)
    var = x.var(-1, unbiased=False, keepdim=True)
    y = ((x - mean) * (var + eps).rsqrt()).reshape(input.shape)
    shape = (1, c) + (1,) * (input.dim() - 2)
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y


@formula(f"{_F}._group_norm")
def _group_norm_f(ctx, input, num_groups, weight, bias, eps):
    sx = ctx.save(input, "input")
    sw = ctx.save(weight, "weight") if weight is not None else None

    def backward(g):
        x = sx()
        n, c = x.shape[0], x.shape[1]
        shape = (1, c) + (1,) * (x.dim() - 2)
        xr = x.reshape(n, num_groups, -1)
        m = xr.shape[-1]
        mean = xr.mean(-1, keepdim=True)
        rstd = (xr.var(-1, unbiased=False, keepdim=True) + eps).rsqrt()
        xhat = ((xr - mean) * rstd).reshape(x.shape)
        red = [0] + list(range(2, x.dim()))
        gw = (g * xhat).sum(red) if sw is not None else None
        gb = g.sum(red) if bias is not None else None
        gxh = (g * sw().reshape(shape) if sw is not None else g).reshape(n, num_groups, -1)
        xh = xhat.reshape(n, num_groups, -1)
        gx = (gxh - gxh.sum(-1, keepdim=True) / m -
              xh * (gxh * xh).sum(-1, keepdim=True) / m) * rstd
        return gx.reshape(x.shape), gw, gb
    return "NativeGroupNormBackward0", (input, weight, bias), backward
