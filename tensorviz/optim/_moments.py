"""Shared construction for the Adam family's smaller members (Adamax, NAdam, RAdam):
PyTorch's argument checks and the per-step bookkeeping of their state."""
from __future__ import annotations

from typing import Any

from .._tensor import Tensor


def check_adam_args(lr: Any, betas: tuple, eps: float, weight_decay: float) -> None:
    """PyTorch's checks, in its order, with its messages."""
    if isinstance(lr, Tensor) and lr.numel() != 1:
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


def run_closure(closure):
    """The closure's loss, evaluated with grad mode on (None without a closure)."""
    if closure is None:
        return None
    from .._grad_mode import enable_grad
    with enable_grad():
        return closure()
