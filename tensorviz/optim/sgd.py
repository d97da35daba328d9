"""``SGD``: stochastic gradient descent with momentum, dampening, Nesterov, weight decay.

Per parameter with a gradient (PyTorch's order of operations)::

    g = -grad if maximize else grad
    g = g + weight_decay * p                      # when weight_decay != 0
    buf = g (first step) or momentum * buf + (1 - dampening) * g
    g = g + momentum * buf if nesterov else buf   # when momentum != 0
    p -= lr * g
"""
from __future__ import annotations

from typing import Any, Callable

from .._tensor import Tensor
from . import _arrays
from .optimizer import Optimizer, _scalar_lr, _use_grad_for_differentiable

__all__ = ["SGD", "sgd"]


class SGD(Optimizer):
    """Stochastic gradient descent (optionally with momentum).

    >>> opt = tensorviz.optim.SGD([w], lr=0.1, momentum=0.9, nesterov=True)
    >>> loss.backward(); opt.step()
    """

    _group_defaults = {"nesterov": False, "maximize": False, "foreach": None, "differentiable":
                       False, "fused": False}

    def __init__(self, params: Any, lr: float | Tensor = 1e-3, momentum: float = 0,
                 dampening: float = 0, weight_decay: float | Tensor = 0,
                 nesterov: bool = False, *, maximize: bool = False,
                 foreach: bool | None = None, differentiable: bool = False,
                 fused: bool | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        # Note: foreach and fused are accepted and recorded (they show in repr and
        # state_dict, as PyTorch's); every step runs PyTorch's single-tensor algorithm.
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening,
                    "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
                    "foreach": foreach, "differentiable": differentiable, "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")

    def _init_group(self, group, params, grads, momentum_buffer_list) -> None:
        for p in group["params"]:
            if p.grad is not None:
                params.append(p)
                grads.append(p.grad)
                if group["momentum"] != 0:
                    momentum_buffer_list.append(self.state[p].get("momentum_buffer"))

    @_use_grad_for_differentiable
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One SGD update of every parameter that has a gradient; returns the closure's loss.

        >>> opt.step()
        """
        loss = None
        if closure is not None:
            from .._grad_mode import enable_grad
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            params: list = []
            grads: list = []
            momentum_buffer_list: list = []
            self._init_group(group, params, grads, momentum_buffer_list)
            sgd(params, grads, momentum_buffer_list, weight_decay=group["weight_decay"],
                momentum=group["momentum"], lr=group["lr"], dampening=group["dampening"],
                nesterov=group["nesterov"], maximize=group["maximize"],
                differentiable=group["differentiable"])
            if group["momentum"] != 0:
                for p, buf in zip(params, momentum_buffer_list):
                    self.state[p]["momentum_buffer"] = buf
        return loss


def sgd(params: list, grads: list, momentum_buffer_list: list, *, weight_decay: float,
        momentum: float, lr: float, dampening: float, nesterov: bool,
        maximize: bool = False, differentiable: bool = False, **_ignored: Any) -> None:
    """The SGD update on lists of tensors (``momentum_buffer_list`` filled in where None).

    >>> sgd([w], [w.grad], [None], weight_decay=0, momentum=0.9, lr=0.1, dampening=0,
    ...     nesterov=False)
    """
    lr = _scalar_lr(lr)
    if not isinstance(lr, Tensor) and _arrays.usable((params, grads), differentiable):
        _array_sgd(params, grads, momentum_buffer_list, _arrays.scalar(weight_decay),
                   momentum, lr, dampening, nesterov, maximize)
        return
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        if weight_decay != 0:
            grad = grad.add(param, alpha=_scalar_lr(weight_decay))
        if momentum != 0:
            buf = momentum_buffer_list[i]
            if buf is None:
                buf = grad.detach().clone()
                momentum_buffer_list[i] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - dampening)
            grad = grad.add(buf, alpha=momentum) if nesterov else buf
        if isinstance(lr, Tensor):
            param.addcmul_(grad, lr, value=-1)
        else:
            param.add_(grad, alpha=-lr)


@_arrays.silent
def _array_sgd(params, grads, bufs, weight_decay, momentum, lr, dampening, nesterov,
               maximize) -> None:
    """``sgd`` on the arrays (see ``_arrays``): the same formulas, no tensor dispatch."""
    for i, param in enumerate(params):
        p = _arrays.arr(param)
        g = _arrays.arr(grads[i])
        if maximize:
            g = -g
        if weight_decay != 0:
            g = _arrays.muladd(g, p, weight_decay)
        if momentum != 0:
            buf = bufs[i]
            if buf is None:
                bufs[i] = _arrays.new_tensor(g.copy(), grads[i])
                b = _arrays.arr(bufs[i])
            else:
                b = _arrays.arr(buf)
                b *= momentum
                _arrays.muladd_(b, g, 1 - dampening)
                _arrays.bump(buf, 2)
            g = _arrays.muladd(g, b, momentum) if nesterov else b
        _arrays.muladd_(p, g, -lr)
        _arrays.bump(param)
