"""``Rprop``: resilient backpropagation; each coordinate's step size grows while its
gradient keeps its sign and shrinks when the sign flips, and only the sign of the gradient
is used.

Per parameter with a gradient (PyTorch's order)::

    s = sign(g * prev) -> etaplus (> 0), etaminus (< 0), 1 (== 0)
    step_size = clamp(step_size * s, *step_sizes);  g[s == etaminus] = 0
    p -= sign(g) * step_size;  prev = g
"""
from __future__ import annotations

from typing import Any, Callable

from .. import _creation
from .._tensor import Tensor, preserve_format
from ._moments import run_closure
from .adam import _step_counter
from .optimizer import Optimizer, _check_lr, _to_scalar, _use_grad_for_differentiable

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Rprop. State: ``step``, ``prev`` (the last gradient used), ``step_size``.

    >>> opt = tensorviz.optim.Rprop(params, lr=1e-2, etas=(0.5, 1.2))
    """

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False, "capturable":
                       False}
    _tensor_state = ("step",)

    def __init__(self, params: Any, lr: float | Tensor = 1e-2, etas: tuple = (0.5, 1.2),
                 step_sizes: tuple = (1e-6, 50), *, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        _check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    @_use_grad_for_differentiable
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One Rprop update of every parameter that has a gradient.

        >>> opt.step()
        """
        loss = run_closure(closure)
        for group in self.param_groups:
            etaminus, etaplus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = _step_counter()
                    state["prev"] = _creation.zeros_like(p, memory_format=preserve_format)
                    state["step_size"] = _creation.full_like(p.grad, _to_scalar(group["lr"]))
                grad = p.grad if not group["maximize"] else -p.grad
                prev, step_size = state["prev"], state["step_size"]
                state["step"] += 1
                sign = grad.mul(prev.clone() if group["differentiable"] else prev).sign()
                sign[sign.gt(0)] = etaplus
                sign[sign.lt(0)] = etaminus
                sign[sign.eq(0)] = 1
                step_size.mul_(sign).clamp_(step_size_min, step_size_max)
                grad = grad.clone(memory_format=preserve_format)
                grad[sign.eq(etaminus)] = 0
                p.addcmul_(grad.sign(), step_size, value=-1)
                prev.copy_(grad)
        return loss
