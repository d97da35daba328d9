"""``RMSprop``: divide the gradient by a running root-mean-square of recent gradients.

Per parameter with a gradient (PyTorch's order of operations)::

    v = alpha * v + (1 - alpha) * g * g
    avg = sqrt(v - ga * ga) if centered (ga = lerp(ga, g, 1 - alpha)) else sqrt(v);  avg += eps
    buf = momentum * buf + g / avg;  p -= lr * buf     # momentum > 0
    p -= lr * g / avg                                  # otherwise
"""
from __future__ import annotations

from typing import Any, Callable

from .._tensor import Tensor, preserve_format
from .. import _creation
from .adam import _step_counter
from . import _arrays
from .optimizer import Optimizer, _check_lr, _scalar_lr, _use_grad_for_differentiable

__all__ = ["RMSprop", "rmsprop"]


class RMSprop(Optimizer):
    """RMSprop (Hinton), optionally centered and with momentum. State: ``step``,
    ``square_avg``, ``momentum_buffer`` (momentum > 0), ``grad_avg`` (centered).

    >>> opt = tensorviz.optim.RMSprop(params, lr=1e-2, alpha=0.99, centered=True)
    """

    _group_defaults = {"momentum": 0, "centered": False, "foreach": None, "maximize": False,
                       "differentiable": False, "capturable": False}
    _tensor_state = ("step",)

    def __init__(self, params: Any, lr: float | Tensor = 1e-2, alpha: float = 0.99,
                 eps: float = 1e-8, weight_decay: float = 0, momentum: float = 0,
                 centered: bool = False, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        _check_lr(lr)
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps,
                    "centered": centered, "weight_decay": weight_decay,
                    "capturable": capturable, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    @_use_grad_for_differentiable
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One RMSprop update of every parameter that has a gradient.

        >>> opt.step()
        """
        loss = None
        if closure is not None:
            from .._grad_mode import enable_grad
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            params, grads, square_avgs, grad_avgs, bufs, steps = [], [], [], [], [], []
            for p in group["params"]:
                if p.grad is None:
                    continue
                params.append(p)
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_counter()
                    state["square_avg"] = _creation.zeros_like(p, memory_format=preserve_format)
                    if group["momentum"] > 0:
                        state["momentum_buffer"] = _creation.zeros_like(
                            p, memory_format=preserve_format)
                    if group["centered"]:
                        state["grad_avg"] = _creation.zeros_like(
                            p, memory_format=preserve_format)
                square_avgs.append(state["square_avg"])
                steps.append(state["step"])
                if group["momentum"] > 0:
                    bufs.append(state["momentum_buffer"])
                if group["centered"]:
                    grad_avgs.append(state["grad_avg"])
            rmsprop(params, grads, square_avgs, grad_avgs, bufs, steps, lr=group["lr"],
                    alpha=group["alpha"], eps=group["eps"],
                    weight_decay=group["weight_decay"], momentum=group["momentum"],
                    centered=group["centered"], maximize=group["maximize"],
                    differentiable=group["differentiable"])
        return loss


def rmsprop(params: list, grads: list, square_avgs: list, grad_avgs: list,
            momentum_buffer_list: list, state_steps: list, *, lr: float, alpha: float,
            eps: float, weight_decay: float, momentum: float, centered: bool,
            maximize: bool = False, differentiable: bool = False,
            **_ignored: Any) -> None:
    """The RMSprop update on lists of tensors.

    >>> rmsprop([w], [w.grad], [v], [], [], [step], lr=1e-2, alpha=0.99, eps=1e-8,
    ...         weight_decay=0, momentum=0, centered=False)
    """
    lr = _scalar_lr(lr)
    if not isinstance(lr, Tensor) and _arrays.usable((params, grads), differentiable):
        _array_rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list,
                       state_steps, lr, alpha, eps, weight_decay, momentum, centered, maximize)
        return
    for i, param in enumerate(params):
        step = state_steps[i]
        grad = grads[i]
        grad = grad if not maximize else -grad
        square_avg = square_avgs[i]
        step += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
        if centered:
            grad_avg = grad_avgs[i]
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add(eps) if differentiable else avg.add_(eps)
        if momentum > 0:
            buf = momentum_buffer_list[i]
            buf.mul_(momentum).addcdiv_(grad, avg)
            param.add_(buf, alpha=-lr)
        else:
            param.addcdiv_(grad, avg, value=-lr)


@_arrays.silent
def _array_rmsprop(params, grads, square_avgs, grad_avgs, bufs, state_steps, lr, alpha, eps,
                   weight_decay, momentum, centered, maximize) -> None:
    """``rmsprop`` on the arrays (see ``_arrays``): the same formulas, no tensor dispatch."""
    import numpy as np
    for i, param in enumerate(params):
        _arrays.bump_step(state_steps[i])
        p = _arrays.arr(param)
        g = _arrays.arr(grads[i])
        if maximize:
            g = -g
        if weight_decay != 0:
            g = _arrays.muladd(g, p, weight_decay)
        sq = _arrays.arr(square_avgs[i])
        sq *= alpha
        _arrays.muladd_(sq, _arrays.scaled(g, 1 - alpha), g)
        _arrays.bump(square_avgs[i], 2)
        if centered:
            ga = _arrays.arr(grad_avgs[i])
            _arrays.lerp_(ga, g, 1 - alpha)
            _arrays.bump(grad_avgs[i])
            avg = np.sqrt(_arrays.muladd(sq, -ga, ga))
        else:
            avg = np.sqrt(sq)
        avg += eps
        if momentum > 0:
            b = _arrays.arr(bufs[i])
            b *= momentum
            b += g / avg
            _arrays.bump(bufs[i], 2)
            _arrays.muladd_(p, b, -lr)
        else:
            p += ((-lr) * g) / avg
        _arrays.bump(param)
