"""``tensorviz.nn``: modules, layers, losses and their functional forms, as PyTorch's.

    import tensorviz as torch
    model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(),
                                torch.nn.Linear(64, 10))
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()               # gradients in each parameter's .grad

Convolution and pooling read their input through strided window views (``as_strided``), so
the storage slots each kernel position reads can be shown with the tensor widgets.
"""
from __future__ import annotations

from . import functional, init, utils  # noqa: F401
from .modules import *  # noqa: F401,F403
from .modules import Module
from .modules.module import (register_module_forward_hook,  # noqa: F401
                             register_module_forward_pre_hook)
from .parameter import Buffer, Parameter

__all__ = [n for n in dir() if not n.startswith("_") and n not in ("annotations",)]
