"""``Adamax``: Adam with the infinity norm in place of the second moment.

Per parameter with a gradient (PyTorch's order)::

    m = lerp(m, g, 1 - beta1);  u = max(beta2 * u, |g| + eps)
    p -= lr / (1 - beta1**step) * m / u
"""
from __future__ import annotations

from typing import Any, Callable

from .. import _creation
from .._tensor import Tensor, preserve_format
from ._moments import check_adam_args, run_closure
from .adam import _step_counter
from .optimizer import Optimizer, _get_value, _scalar_lr, _use_grad_for_differentiable

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Adamax (Kingma & Ba, section 7). State: ``step``, ``exp_avg``, ``exp_inf``.

    >>> opt = tensorviz.optim.Adamax(params, lr=2e-3)
    """

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False, "capturable":
                       False}
    _tensor_state = ("step",)

    def __init__(self, params: Any, lr: float | Tensor = 2e-3, betas: tuple = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, foreach: bool | None = None, *,
                 maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        check_adam_args(lr, betas, eps, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    @_use_grad_for_differentiable
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One Adamax update of every parameter that has a gradient.

        >>> opt.step()
        """
        from .. import maximum
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
                    state["exp_inf"] = _creation.zeros_like(p, memory_format=preserve_format)
                grad = p.grad if not group["maximize"] else -p.grad
                exp_avg, exp_inf, step_t = state["exp_avg"], state["exp_inf"], state["step"]
                step_t += 1
                if weight_decay != 0:
                    grad = grad.add(p, alpha=weight_decay)
                exp_avg.lerp_(grad, 1 - beta1)
                maximum(exp_inf.mul_(beta2), grad.abs().add_(eps), out=exp_inf)
                clr = lr / (1 - beta1 ** _get_value(step_t))
                p.addcdiv_(exp_avg, exp_inf, value=-clr)
        return loss
