"""``Adagrad``: per-coordinate steps shrinking with the sum of all squared gradients seen.

Per parameter with a gradient (PyTorch's order of operations)::

    step += 1;  g = g + wd * p
    clr = lr / (1 + (step - 1) * lr_decay)
    sum += g * g;  p -= clr * g / (sqrt(sum) + eps)
"""
from __future__ import annotations

from typing import Any, Callable

from .._tensor import Tensor, preserve_format
from .. import _creation
from .adam import _step_counter
from . import _arrays
from .optimizer import (Optimizer, _check_lr, _get_value, _scalar_lr,
                        _use_grad_for_differentiable)

__all__ = ["Adagrad", "adagrad"]


class Adagrad(Optimizer):
    """Adagrad (Duchi et al.). Its state (``step``, ``sum`` filled with
    ``initial_accumulator_value``) exists from construction, as PyTorch's.

    >>> opt = tensorviz.optim.Adagrad(params, lr=1e-2, lr_decay=1e-4)
    """

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False, "fused": None}
    _tensor_state = ("step",)

    def __init__(self, params: Any, lr: float | Tensor = 1e-2, lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0,
                 eps: float = 1e-10, foreach: bool | None = None, *,
                 maximize: bool = False, differentiable: bool = False,
                 fused: bool | None = None) -> None:
        _check_lr(lr)
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: "
                             f"{initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value,
                    "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = _step_counter()
                state["sum"] = _creation.full_like(p, initial_accumulator_value,
                                                   memory_format=preserve_format)

    @_use_grad_for_differentiable
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One Adagrad update of every parameter that has a gradient.

        >>> opt.step()
        """
        loss = None
        if closure is not None:
            from .._grad_mode import enable_grad
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            params, grads, sums, steps = [], [], [], []
            for p in group["params"]:
                if p.grad is None:
                    continue
                params.append(p)
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_counter()
                    state["sum"] = _creation.full_like(
                        p, self.defaults["initial_accumulator_value"],
                        memory_format=preserve_format)
                sums.append(state["sum"])
                steps.append(state["step"])
            adagrad(params, grads, sums, steps, lr=group["lr"],
                    weight_decay=group["weight_decay"], lr_decay=group["lr_decay"],
                    eps=group["eps"], maximize=group["maximize"],
                    differentiable=group["differentiable"])
        return loss


def adagrad(params: list, grads: list, state_sums: list, state_steps: list, *, lr: float,
            weight_decay: float, lr_decay: float, eps: float, maximize: bool = False,
            differentiable: bool = False, **_ignored: Any) -> None:
    """The Adagrad update on lists of tensors.

    >>> adagrad([w], [w.grad], [s], [step], lr=1e-2, weight_decay=0, lr_decay=0, eps=1e-10)
    """
    lr = _scalar_lr(lr)
    if not isinstance(lr, Tensor) and _arrays.usable((params, grads), differentiable):
        _array_adagrad(params, grads, state_sums, state_steps, lr, weight_decay, lr_decay,
                       eps, maximize)
        return
    for param, grad, state_sum, step_t in zip(params, grads, state_sums, state_steps):
        step_t += 1
        step = _get_value(step_t)
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        clr = lr / (1 + (step - 1) * lr_decay)
        state_sum.addcmul_(grad, grad, value=1)
        std = state_sum.sqrt() + eps if differentiable else state_sum.sqrt().add_(eps)
        param.addcdiv_(grad, std, value=-clr)


@_arrays.silent
def _array_adagrad(params, grads, state_sums, state_steps, lr, weight_decay, lr_decay, eps,
                   maximize) -> None:
    """``adagrad`` on the arrays (see ``_arrays``): the same formulas, no tensor dispatch."""
    import numpy as np
    for param, grad, state_sum, step_t in zip(params, grads, state_sums, state_steps):
        step = _arrays.bump_step(step_t)
        p = _arrays.arr(param)
        g = _arrays.arr(grad)
        if maximize:
            g = -g
        if weight_decay != 0:
            g = _arrays.muladd(g, p, weight_decay)
        clr = lr / (1 + (step - 1) * lr_decay)
        s = _arrays.arr(state_sum)
        _arrays.muladd_(s, g, g)
        _arrays.bump(state_sum)
        std = np.sqrt(s)
        std += eps
        p += ((-clr) * g) / std
        _arrays.bump(param)
