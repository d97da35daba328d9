"""``ASGD``: averaged stochastic gradient descent (Polyak & Juditsky); ``ax`` keeps the
running average of the iterates from step ``t0`` on.

Per parameter with a gradient (PyTorch's order)::

    p *= 1 - lambd * eta;  p -= eta * g
    ax = p (mu == 1) or ax + mu * (p - ax)
    eta = lr / (1 + lambd * lr * step)**alpha;  mu = 1 / max(1, step - t0)
"""
from __future__ import annotations

from typing import Any, Callable

from .. import _creation
from .._dtypes import float32
from .._tensor import Tensor, preserve_format
from ._moments import run_closure
from .adam import _step_counter
from .optimizer import (Optimizer, _check_lr, _get_value, _to_scalar,
                        _use_grad_for_differentiable)

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """ASGD. State: ``step``, ``eta``, ``mu`` (float32 0-d tensors) and ``ax``.

    >>> opt = tensorviz.optim.ASGD(params, lr=1e-2, t0=100)
    """

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "capturable": False}
    _tensor_state = ("step", "eta", "mu")

    def __init__(self, params: Any, lr: float | Tensor = 1e-2, lambd: float = 1e-4,
                 alpha: float = 0.75, t0: float = 1e6, weight_decay: float = 0,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None:
        _check_lr(lr)
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0,
                    "weight_decay": weight_decay, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    @_use_grad_for_differentiable
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One ASGD update of every parameter that has a gradient.

        >>> opt.step()
        """
        loss = run_closure(closure)
        for group in self.param_groups:
            lr = _get_value(_to_scalar(group["lr"]))
            lambd, alpha, t0 = group["lambd"], group["alpha"], group["t0"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_counter()
                    state["eta"] = _creation.tensor(lr, dtype=float32)
                    state["mu"] = _creation.tensor(1.0, dtype=float32)
                    state["ax"] = _creation.zeros_like(p, memory_format=preserve_format)
                grad = p.grad if not group["maximize"] else -p.grad
                mu, ax, eta, step_t = state["mu"], state["ax"], state["eta"], state["step"]
                step_t += 1
                if group["weight_decay"] != 0:
                    grad = grad.add(p, alpha=group["weight_decay"])
                eta_value = _get_value(eta)
                p.mul_(1 - lambd * eta_value)
                p.add_(grad, alpha=-eta_value)
                if mu.item() != 1:
                    ax.add_(p.sub(ax).mul_(mu))
                else:
                    ax.copy_(p)
                step = _get_value(step_t)
                eta.copy_(_creation.as_tensor(lr / ((1 + lambd * lr * step) ** alpha)))
                mu.copy_(_creation.as_tensor(1 / max(1, step - t0)))
        return loss
