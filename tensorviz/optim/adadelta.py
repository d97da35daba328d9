"""``Adadelta``: steps scaled by the ratio of running RMS of updates to that of gradients.

Per parameter with a gradient (PyTorch's order of operations)::

    v = rho * v + (1 - rho) * g * g
    delta = sqrt(u + eps) / sqrt(v + eps) * g
    u = rho * u + (1 - rho) * delta * delta;  p -= lr * delta
"""
from __future__ import annotations

from typing import Any, Callable

from .._tensor import Tensor, preserve_format
from .. import _creation
from .adam import _step_counter
from . import _arrays
from .optimizer import Optimizer, _check_lr, _scalar_lr, _use_grad_for_differentiable

__all__ = ["Adadelta", "adadelta"]


class Adadelta(Optimizer):
    """Adadelta (Zeiler). State: ``step``, ``square_avg``, ``acc_delta``.

    >>> opt = tensorviz.optim.Adadelta(params, lr=1.0, rho=0.9)
    """

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False, "capturable":
                       False}
    _tensor_state = ("step",)

    def __init__(self, params: Any, lr: float | Tensor = 1.0, rho: float = 0.9,
                 eps: float = 1e-6, weight_decay: float = 0, foreach: bool | None = None, *,
                 capturable: bool = False, maximize: bool = False,
                 differentiable: bool = False) -> None:
        _check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "capturable": capturable, "foreach": foreach,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    @_use_grad_for_differentiable
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One Adadelta update of every parameter that has a gradient.

        >>> opt.step()
        """
        loss = None
        if closure is not None:
            from .._grad_mode import enable_grad
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            params, grads, square_avgs, acc_deltas, steps = [], [], [], [], []
            for p in group["params"]:
                if p.grad is None:
                    continue
                params.append(p)
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_counter()
                    state["square_avg"] = _creation.zeros_like(p, memory_format=preserve_format)
                    state["acc_delta"] = _creation.zeros_like(p, memory_format=preserve_format)
                square_avgs.append(state["square_avg"])
                acc_deltas.append(state["acc_delta"])
                steps.append(state["step"])
            adadelta(params, grads, square_avgs, acc_deltas, steps, lr=group["lr"],
                     rho=group["rho"], eps=group["eps"], weight_decay=group["weight_decay"],
                     maximize=group["maximize"], differentiable=group["differentiable"])
        return loss


def adadelta(params: list, grads: list, square_avgs: list, acc_deltas: list,
             state_steps: list, *, lr: float, rho: float, eps: float, weight_decay: float,
             maximize: bool = False, differentiable: bool = False,
             **_ignored: Any) -> None:
    """The Adadelta update on lists of tensors.

    >>> adadelta([w], [w.grad], [v], [u], [step], lr=1.0, rho=0.9, eps=1e-6, weight_decay=0)
    """
    lr = _scalar_lr(lr)
    if not isinstance(lr, Tensor) and _arrays.usable((params, grads), differentiable):
        _array_adadelta(params, grads, square_avgs, acc_deltas, state_steps, lr, rho, eps,
                        weight_decay, maximize)
        return
    for param, grad, square_avg, acc_delta, step in zip(params, grads, square_avgs,
                                                        acc_deltas, state_steps):
        step += 1
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        if differentiable:
            delta = delta.clone()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        param.add_(delta, alpha=-lr)


@_arrays.silent
def _array_adadelta(params, grads, square_avgs, acc_deltas, state_steps, lr, rho, eps,
                    weight_decay, maximize) -> None:
    """``adadelta`` on the arrays (see ``_arrays``): the same formulas, no tensor dispatch."""
    import numpy as np
    for param, grad, square_avg, acc_delta, step_t in zip(params, grads, square_avgs,
                                                          acc_deltas, state_steps):
        _arrays.bump_step(step_t)
        p = _arrays.arr(param)
        g = _arrays.arr(grad)
        if maximize:
            g = -g
        if weight_decay != 0:
            g = _arrays.muladd(g, p, weight_decay)
        sq = _arrays.arr(square_avg)
        sq *= rho
        _arrays.muladd_(sq, _arrays.scaled(g, 1 - rho), g)
        _arrays.bump(square_avg, 2)
        std = np.sqrt(sq + eps)
        delta = np.sqrt(_arrays.arr(acc_delta) + eps)
        delta /= std
        delta *= g
        acc = _arrays.arr(acc_delta)
        acc *= rho
        _arrays.muladd_(acc, _arrays.scaled(delta, 1 - rho), delta)
        _arrays.bump(acc_delta, 2)
        _arrays.muladd_(p, delta, -lr)
        _arrays.bump(param)
