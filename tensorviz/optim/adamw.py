"""``AdamW``: Adam with decoupled weight decay (``p *= 1 - lr * weight_decay`` before the
Adam update, instead of adding ``weight_decay * p`` to the gradient)."""
from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from .adam import Adam

__all__ = ["AdamW"]


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter); default ``weight_decay=1e-2``.

    >>> opt = tensorviz.optim.AdamW(params, lr=1e-3, weight_decay=0.01)
    """

    def __init__(self, params: Any, lr: float | Tensor = 1e-3, betas: tuple = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False, *,
                 maximize: bool = False, foreach: bool | None = None,
                 capturable: bool = False, differentiable: bool = False,
                 fused: bool | None = None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def __setstate__(self, state: dict) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
