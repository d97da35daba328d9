"""``Adam``: adaptive moments with bias correction (and AdamW's decoupled weight decay).

Per parameter with a gradient (PyTorch's order of operations)::

    step += 1
    p *= 1 - lr * wd  (decoupled)   or   g = g + wd * p  (L2)
    m = lerp(m, g, 1 - beta1);  v = beta2 * v + (1 - beta2) * g * g
    vmax = max(vmax, v)                                 # amsgrad
    p -= lr / (1 - beta1**step) * m / (sqrt(v) / sqrt(1 - beta2**step) + eps)
"""
from __future__ import annotations

from typing import Any, Callable

from .. import _creation
from .._tensor import Tensor, preserve_format
from . import _arrays
from .optimizer import (Optimizer, _get_value, _scalar_lr, _step_counter, _to_scalar,
                        _use_grad_for_differentiable)

__all__ = ["Adam", "adam"]


class Adam(Optimizer):
    """Adam (Kingma & Ba). State per parameter: ``step`` (float32 0-d tensor), ``exp_avg``,
    ``exp_avg_sq`` and, with ``amsgrad``, ``max_exp_avg_sq``.

    >>> opt = tensorviz.optim.Adam(params, lr=1e-3, betas=(0.9, 0.999))
    """

    _group_defaults = {"amsgrad": False, "maximize": False, "foreach": None, "capturable": False,
                       "differentiable": False, "decoupled_weight_decay": False, "fused": None}
    _tensor_state = ("step",)

    def __init__(self, params: Any, lr: float | Tensor = 1e-3,
                 betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False,
                 fused: bool | None = None, decoupled_weight_decay: bool = False) -> None:
        if isinstance(lr, Tensor):
            if foreach and not capturable:
                raise ValueError("lr as a Tensor is not supported for capturable=False and "
                                 "foreach=True")
            if lr.numel() != 1:
                raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not ((isinstance(betas[0], float) and isinstance(betas[1], float))
                or (isinstance(betas[0], Tensor) and isinstance(betas[1], Tensor))):
            raise ValueError("betas must be either both floats or both Tensors")
        for i in (0, 1):
            if isinstance(betas[i], Tensor):
                if not capturable and foreach:
                    raise ValueError(f"betas[{i}] as a Tensor is not supported for "
                                     "capturable=False and foreach=True")
                if betas[i].numel() != 1:
                    raise ValueError(f"Tensor betas[{i}] must be 1-element")
        betas = tuple(map(_to_scalar, betas))
        # Note: foreach, fused and capturable are recorded (repr, state_dict) but every
        # step runs PyTorch's single-tensor algorithm.
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
                    "capturable": capturable, "differentiable": differentiable,
                    "fused": fused, "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_avg_sqs,
                    max_exp_avg_sqs, state_steps) -> None:
        for p in group["params"]:
            if p.grad is None:
                continue
            params_with_grad.append(p)
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _step_counter()
                state["exp_avg"] = _creation.zeros_like(p, memory_format=preserve_format)
                state["exp_avg_sq"] = _creation.zeros_like(p, memory_format=preserve_format)
                if group["amsgrad"]:
                    state["max_exp_avg_sq"] = _creation.zeros_like(
                        p, memory_format=preserve_format)
            exp_avgs.append(state["exp_avg"])
            exp_avg_sqs.append(state["exp_avg_sq"])
            if group["amsgrad"]:
                max_exp_avg_sqs.append(state["max_exp_avg_sq"])
            state_steps.append(state["step"])

    @_use_grad_for_differentiable
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One Adam update of every parameter that has a gradient; returns the closure's loss.

        >>> opt.step()
        """
        loss = None
        if closure is not None:
            from .._grad_mode import enable_grad
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            params_with_grad: list = []
            grads: list = []
            exp_avgs: list = []
            exp_avg_sqs: list = []
            max_exp_avg_sqs: list = []
            state_steps: list = []
            beta1, beta2 = group["betas"]
            self._init_group(group, params_with_grad, grads, exp_avgs, exp_avg_sqs,
                             max_exp_avg_sqs, state_steps)
            adam(params_with_grad, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps,
                 amsgrad=group["amsgrad"], beta1=beta1, beta2=beta2, lr=group["lr"],
                 weight_decay=group["weight_decay"], eps=group["eps"],
                 maximize=group["maximize"],
                 decoupled_weight_decay=group["decoupled_weight_decay"],
                 differentiable=group["differentiable"])
        return loss


def adam(params: list, grads: list, exp_avgs: list, exp_avg_sqs: list, max_exp_avg_sqs: list,
         state_steps: list, *, amsgrad: bool, beta1: float, beta2: float, lr: float,
         weight_decay: float, eps: float, maximize: bool,
         decoupled_weight_decay: bool = False, differentiable: bool = False,
         **_ignored: Any) -> None:
    """The Adam update on lists of tensors (``state_steps`` are 0-d tensors, bumped here).

    >>> adam([w], [w.grad], [m], [v], [], [step], amsgrad=False, beta1=0.9, beta2=0.999,
    ...      lr=1e-3, weight_decay=0, eps=1e-8, maximize=False)
    """
    lr = _scalar_lr(lr)
    beta1 = _get_value(_to_scalar(beta1))
    beta2 = _get_value(_to_scalar(beta2))
    if not isinstance(lr, Tensor) and _arrays.usable((params, grads), differentiable):
        _array_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps,
                    amsgrad, beta1, beta2, lr, weight_decay, eps, maximize,
                    decoupled_weight_decay)
        return
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]
        step_t += 1
        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)

        if differentiable:
            # PyTorch's differentiable branch: tensor bias corrections, and clones where
            # the graph must keep a state tensor's value from before the next step's write.
            from .. import maximum
            bias_correction1 = 1 - beta1 ** step_t
            bias_correction2 = 1 - beta2 ** step_t
            step_size_neg = (lr / bias_correction1).neg()
            bias_correction2_sqrt = bias_correction2.sqrt()
            v = exp_avg_sq
            if amsgrad:
                max_exp_avg_sqs[i].copy_(maximum(max_exp_avg_sqs[i].clone(), exp_avg_sq))
                v = max_exp_avg_sqs[i]
            denom = (v.sqrt() / (bias_correction2_sqrt * step_size_neg)).add_(
                eps / step_size_neg)
            param.addcdiv_(exp_avg.clone(), denom)
            continue
        step = _get_value(step_t)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2 ** 0.5
        if amsgrad:
            from .. import maximum
            maximum(max_exp_avg_sqs[i], exp_avg_sq, out=max_exp_avg_sqs[i])
            denom = (max_exp_avg_sqs[i].sqrt() / bias_correction2_sqrt).add_(eps)
        else:
            denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        param.addcdiv_(exp_avg, denom, value=-step_size)


@_arrays.silent
def _array_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, amsgrad,
                beta1, beta2, lr, weight_decay, eps, maximize, decoupled) -> None:
    """``adam`` on the arrays (see ``_arrays``): the same formulas, no tensor dispatch."""
    import numpy as np
    for i, param in enumerate(params):
        step = _arrays.bump_step(state_steps[i])
        p = _arrays.arr(param)
        g = _arrays.arr(grads[i])
        if maximize:
            g = -g
        if weight_decay != 0:
            if decoupled:
                p *= 1 - lr * weight_decay
                _arrays.bump(param)
            else:
                g = _arrays.muladd(g, p, weight_decay)
        m = _arrays.arr(exp_avgs[i])
        _arrays.lerp_(m, g, 1 - beta1)
        _arrays.bump(exp_avgs[i])
        v = _arrays.arr(exp_avg_sqs[i])
        v *= beta2
        _arrays.muladd_(v, _arrays.scaled(g, 1 - beta2), g)
        _arrays.bump(exp_avg_sqs[i], 2)

        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2 ** 0.5
        if amsgrad:
            vmax = _arrays.arr(max_exp_avg_sqs[i])
            np.maximum(vmax, v, out=vmax)
            _arrays.bump(max_exp_avg_sqs[i])
            v = vmax
        denom = np.sqrt(v) / bias_correction2_sqrt
        denom += eps
        p += ((-step_size) * m) / denom
        _arrays.bump(param)
