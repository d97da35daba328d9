"""``RAdam``: Adam with the variance of its adaptive step rectified (Liu et al.); plain
momentum SGD for the first steps, while that variance is undefined (rho_t <= 5).

Per parameter with a gradient (PyTorch's order)::

    m = lerp(m, g, 1 - beta1);  v = beta2 * v + (1 - beta2) * g * g
    rho_t = rho_inf - 2 * step * beta2**step / (1 - beta2**step)
    p -= lr * m / (1 - beta1**step) * (adaptive * rect if rho_t > 5 else 1)
"""
from __future__ import annotations

from typing import Any, Callable

from .. import _creation
from .._tensor import Tensor, preserve_format
from ._moments import check_adam_args, run_closure
from .adam import _step_counter
from .optimizer import Optimizer, _get_value, _scalar_lr, _use_grad_for_differentiable

__all__ = ["RAdam"]


class RAdam(Optimizer):
    """RAdam. State: ``step``, ``exp_avg``, ``exp_avg_sq``; ``decoupled_weight_decay=True``
    decays the weights as AdamW does.

    >>> opt = tensorviz.optim.RAdam(params, lr=1e-3)
    """

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "decoupled_weight_decay": False, "capturable": False}
    _tensor_state = ("step",)

    def __init__(self, params: Any, lr: float | Tensor = 1e-3, betas: tuple = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        check_adam_args(lr, betas, eps, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    @_use_grad_for_differentiable
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One RAdam update of every parameter that has a gradient.

        >>> opt.step()
        """
        loss = run_closure(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr = _scalar_lr(group["lr"])
            eps, weight_decay = group["eps"], group["weight_decay"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_counter()
                    state["exp_avg"] = _creation.zeros_like(p, memory_format=preserve_format)
                    state["exp_avg_sq"] = _creation.zeros_like(
                        p, memory_format=preserve_format)
                grad = p.grad if not group["maximize"] else -p.grad
                exp_avg, exp_avg_sq, step_t = (state["exp_avg"], state["exp_avg_sq"],
                                               state["step"])
                step_t += 1
                step = _get_value(step_t)
                if weight_decay != 0:
                    if group["decoupled_weight_decay"]:
                        p.mul_(1 - lr * weight_decay)
                    else:
                        grad = grad.add(p, alpha=weight_decay)
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                bias_correction1 = 1 - beta1 ** step
                bias_correction2 = 1 - beta2 ** step
                bias_corrected_exp_avg = exp_avg / bias_correction1
                rho_inf = 2 / (1 - beta2) - 1
                rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
                if rho_t > 5.0:
                    rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                            / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
                    exp_avg_sq_sqrt = exp_avg_sq.sqrt()
                    exp_avg_sq_sqrt = (exp_avg_sq_sqrt.add(eps) if group["differentiable"]
                                       else exp_avg_sq_sqrt.add_(eps))
                    adaptive_lr = (bias_correction2 ** 0.5) / exp_avg_sq_sqrt
                    p.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
                else:
                    p.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
        return loss
