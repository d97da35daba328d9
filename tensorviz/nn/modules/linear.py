"""``Identity``, ``Linear``, ``Bilinear``, ``Flatten``, ``Unflatten``."""
from __future__ import annotations

import math

import tensorviz as tv

from ..._tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Identity", "Linear", "LazyLinear", "Bilinear", "Flatten", "Unflatten"]


class Identity(Module):
    """Returns its input unchanged (arguments are accepted and ignored)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class Linear(Module):
    """``y = x W^T + b`` with ``W`` of shape (out_features, in_features), initialised
    U(-1/sqrt(in), 1/sqrt(in)) like ``b``, as PyTorch.

    >>> fc = tensorviz.nn.Linear(4, 3)
    >>> fc(tensorviz.ones(2, 4)).shape
    tensorviz.Size([2, 3])
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(tv.empty((out_features, in_features), device=device,
                                         dtype=dtype))
        if bias:
            self.bias = Parameter(tv.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's default initialisation (kaiming-uniform with a = sqrt(5))."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.in_features
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, " \
               f"bias={self.bias is not None}"


class LazyLinear(Linear):
    """A ``Linear`` whose ``in_features`` is read from its first input: until then its weight
    is empty (``in_features=0``); the first forward creates and initialises the parameters
    and the module becomes a plain ``Linear``, as in PyTorch.

    >>> fc = tensorviz.nn.LazyLinear(3)
    >>> fc(tensorviz.ones(2, 5)).shape
    tensorviz.Size([2, 3])
    >>> fc
    Linear(in_features=5, out_features=3, bias=True)
    """

    # Note: PyTorch keeps an UninitializedParameter (no shape) until the first forward; the
    # placeholder here is an empty (out_features, 0) Parameter.

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(0, out_features, bias, device, dtype)

    def reset_parameters(self) -> None:
        if self.in_features:
            super().reset_parameters()

    def forward(self, input: Tensor) -> Tensor:
        with tv.no_grad():
            self.in_features = input.shape[-1]
            self.weight = Parameter(tv.empty((self.out_features, self.in_features),
                                             device=self.weight.device,
                                             dtype=self.weight.dtype))
            if self.bias is not None:
                self.bias = Parameter(tv.empty(self.out_features, device=self.bias.device,
                                               dtype=self.bias.dtype))
            Linear.reset_parameters(self)
        self.__class__ = Linear
        return Linear.forward(self, input)


class NonDynamicallyQuantizableLinear(Linear):
    """A ``Linear`` under PyTorch's name for MultiheadAttention's ``out_proj`` (so reprs and
    pickles agree); it behaves exactly as ``Linear``."""


class Bilinear(Module):
    """``y_k = x1^T A_k x2 + b_k``."""

    def __init__(self, in1_features: int, in2_features: int, out_features: int,
                 bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        self.in1_features, self.in2_features = in1_features, in2_features
        self.out_features = out_features
        self.weight = Parameter(tv.empty((out_features, in1_features, in2_features),
                                         device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(tv.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in1_features={self.in1_features}, in2_features={self.in2_features}, " \
               f"out_features={self.out_features}, bias={self.bias is not None}"


class Flatten(Module):
    """Flatten dims ``start_dim..end_dim`` (default: all but the batch dim)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dim ``dim`` into ``unflattened_size``."""

    def __init__(self, dim, unflattened_size) -> None:
        super().__init__()
        self.dim, self.unflattened_size = dim, tuple(unflattened_size)

    def forward(self, input: Tensor) -> Tensor:
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
