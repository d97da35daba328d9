"""Gradient clipping, in place on the parameters' ``.grad`` (no graph recorded).

    loss.backward()
    tensorviz.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    optimizer.step()
"""
from __future__ import annotations

import warnings
from typing import Iterable

import tensorviz as tv

from ..._grad_mode import no_grad
from ..._tensor import Tensor

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "get_total_norm"]


def _params(parameters) -> list:
    if isinstance(parameters, Tensor):
        return [parameters]
    return list(parameters)


def get_total_norm(tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                   foreach=None) -> Tensor:
    """The ``norm_type`` norm of all ``tensors`` taken together."""
    tensors = [t for t in _params(tensors) if t is not None]
    norm_type = float(norm_type)
    if not tensors:
        return tv.tensor(0.0)
    with no_grad():
        norms = tv.stack([t.norm(norm_type) for t in tensors])
        total = norms.amax() if norm_type == float("inf") else norms.norm(norm_type)
    if error_if_nonfinite and (bool(total.isnan()) or bool(total.isinf())):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from "
                           "`parameters` is non-finite, so it cannot be clipped. To disable "
                           "this error and scale the gradients by the non-finite norm anyway, "
                           "set `error_if_nonfinite=False`")
    return total


def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach=None) -> Tensor:
    """Scale all gradients together so their total ``norm_type`` norm is at most
    ``max_norm``; returns the total norm before clipping."""
    grads = [p.grad for p in _params(parameters) if p.grad is not None]
    max_norm = float(max_norm)
    if not grads:
        return tv.tensor(0.0)
    total = get_total_norm(grads, norm_type, error_if_nonfinite)
    with no_grad():
        coef = max_norm / (float(total) + 1e-6)
        if coef < 1:
            for g in grads:
                g.mul_(coef)
    return total


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False,
                   foreach=None) -> Tensor:
    """Deprecated name of ``clip_grad_norm_``."""
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`torch.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite)


def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    """Clamp every gradient element to ``[-clip_value, clip_value]`` in place."""
    clip_value = float(clip_value)
    with no_grad():
        for p in _params(parameters):
            if p.grad is not None:
                p.grad.clamp_(-clip_value, clip_value)
