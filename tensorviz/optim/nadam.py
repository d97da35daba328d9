"""``NAdam``: Adam with Nesterov momentum (Dozat), its momentum warmed up by
``momentum_decay``.

Per parameter with a gradient (PyTorch's order)::

    mu_t = beta1 * (1 - 0.5 * 0.96**(step * momentum_decay));  mu_product *= mu_t
    m = lerp(m, g, 1 - beta1);  v = beta2 * v + (1 - beta2) * g * g
    denom = sqrt(v / (1 - beta2**step)) + eps
    p -= lr * (1 - mu_t) / (1 - mu_product) * g / denom
    p -= lr * mu_next / (1 - mu_product * mu_next) * m / denom
"""
from __future__ import annotations

from typing import Any, Callable

from .. import _creation
from .._dtypes import float32
from .._tensor import Tensor, preserve_format
from ._moments import check_adam_args, run_closure
from .adam import _step_counter
from .optimizer import Optimizer, _get_value, _scalar_lr, _use_grad_for_differentiable

__all__ = ["NAdam"]


class NAdam(Optimizer):
    """NAdam. State: ``step``, ``mu_product`` (float32 0-d tensors), ``exp_avg``,
    ``exp_avg_sq``; ``decoupled_weight_decay=True`` gives NAdamW.

    >>> opt = tensorviz.optim.NAdam(params, lr=2e-3, momentum_decay=4e-3)
    """

    _group_defaults = {"maximize": False, "foreach": None, "capturable": False, "differentiable":
                       False, "decoupled_weight_decay": False}
    _tensor_state = ("step", "mu_product")

    def __init__(self, params: Any, lr: float | Tensor = 2e-3, betas: tuple = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        check_adam_args(lr, betas, eps, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay,
                    "decoupled_weight_decay": decoupled_weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    @_use_grad_for_differentiable
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One NAdam update of every parameter that has a gradient.

        >>> opt.step()
        """
        loss = run_closure(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr = _scalar_lr(group["lr"])
            eps, weight_decay = group["eps"], group["weight_decay"]
            momentum_decay = group["momentum_decay"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_counter()
                    state["mu_product"] = _creation.tensor(1.0, dtype=float32)
                    state["exp_avg"] = _creation.zeros_like(p, memory_format=preserve_format)
                    state["exp_avg_sq"] = _creation.zeros_like(
                        p, memory_format=preserve_format)
                grad = p.grad if not group["maximize"] else -p.grad
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                mu_product, step_t = state["mu_product"], state["step"]
                step_t += 1
                step = _get_value(step_t)
                bias_correction2 = 1 - beta2 ** step
                if weight_decay != 0:
                    if group["decoupled_weight_decay"]:
                        p.mul_(1 - lr * weight_decay)
                    else:
                        grad = grad.add(p, alpha=weight_decay)
                mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
                mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
                mu_product *= mu
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                denom = exp_avg_sq.div(bias_correction2).sqrt()
                mu_product_next = _get_value(mu_product) * mu_next
                denom.add_(eps)
                p.addcdiv_(grad, denom,
                           value=(-lr * (1.0 - mu) / (1.0 - _get_value(mu_product))))
                p.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - mu_product_next))
        return loss
