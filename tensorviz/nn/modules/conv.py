"""Convolution layers: a strided window view of the input and one matrix product each."""
from __future__ import annotations

import math

import tensorviz as tv

from ..._tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d"]


def _ntuple(v, n):
    return tuple(v) if isinstance(v, (list, tuple)) else (v,) * n


class _ConvNd(Module):
    _n = 2
    transposed = False

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 dilation=1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None, output_padding=0) -> None:
        super().__init__()
        n = self._n
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError(f"padding_mode must be one of ['zeros', 'reflect', 'replicate', "
                             f"'circular'], but got padding_mode='{padding_mode}'")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 "{'valid', 'same'}")
            if padding == "same" and any(s != 1 for s in _ntuple(stride, n)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _ntuple(kernel_size, n)
        self.stride = _ntuple(stride, n)
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, n)
        self.dilation = _ntuple(dilation, n)
        self.output_padding = _ntuple(output_padding, n)
        self.groups = groups
        self.padding_mode = padding_mode
        if self.transposed:
            shape = (in_channels, out_channels // groups) + self.kernel_size
        else:
            shape = (out_channels, in_channels // groups) + self.kernel_size
        self.weight = Parameter(tv.empty(shape, device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(tv.empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's default: kaiming-uniform (a = sqrt(5)) weight, U(+-1/sqrt(fan_in)) bias."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if isinstance(self.padding, str) or self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(in_channels=self.in_channels, out_channels=self.out_channels,
                        kernel_size=self.kernel_size, stride=self.stride,
                        padding=self.padding, dilation=self.dilation,
                        output_padding=self.output_padding, groups=self.groups,
                        padding_mode=self.padding_mode)

    def _conv_forward(self, input: Tensor, weight: Tensor, bias) -> Tensor:
        fn = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[self._n]
        if self.padding_mode != "zeros":
            pads = []
            if self.padding == "same":  # PyTorch's split: the odd element on the right
                for d, k in zip(reversed(self.dilation), reversed(self.kernel_size)):
                    total = d * (k - 1)
                    pads += [total // 2, total - total // 2]
            else:
                pad = self.padding if not isinstance(self.padding, str) else (0,) * self._n
                for p in reversed(pad):
                    pads += [p, p]
            mode = "constant" if self.padding_mode == "zeros" else self.padding_mode
            return fn(F.pad(input, pads, mode=mode), weight, bias, self.stride, 0,
                      self.dilation, self.groups)
        return fn(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, self.weight, self.bias)


class Conv1d(_ConvNd):
    """1-D convolution over (N, C, L)."""

    _n = 1


class Conv2d(_ConvNd):
    """2-D convolution over (N, C, H, W): ``Conv2d(1, 8, 3)`` has weight (8, 1, 3, 3).

    >>> tensorviz.nn.Conv2d(1, 8, 3)
    Conv2d(1, 8, kernel_size=(3, 3), stride=(1, 1))
    """

    _n = 2


class Conv3d(_ConvNd):
    """3-D convolution over (N, C, D, H, W)."""

    _n = 3


class _ConvTransposeNd(_ConvNd):
    transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 device=None, dtype=None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for '
                             f"{type(self).__name__}")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, device, dtype, output_padding)

    def forward(self, input: Tensor, output_size=None) -> Tensor:
        fn = F.conv_transpose1d if self._n == 1 else F.conv_transpose2d
        return fn(input, self.weight, self.bias, self.stride, self.padding,
                  self.output_padding, self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    """1-D transposed convolution."""

    _n = 1


class ConvTranspose2d(_ConvTransposeNd):
    """2-D transposed convolution (the gradient of a Conv2d with respect to its input)."""

    _n = 2
