"""Shape and distance layers: ``Upsample``, ``PixelShuffle``, ``Fold``/``Unfold``,
``ZeroPad2d``/``ConstantPad``, ``CosineSimilarity``, ``PairwiseDistance``."""
from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["Upsample", "PixelShuffle", "PixelUnshuffle", "Fold", "Unfold", "ZeroPad1d",
           "ZeroPad2d", "ConstantPad1d", "ConstantPad2d", "ReflectionPad1d", "ReflectionPad2d",
           "ReplicationPad1d", "ReplicationPad2d", "CosineSimilarity", "PairwiseDistance"]


class Upsample(Module):
    """Resize by ``size`` or ``scale_factor`` (``nearest``, ``linear``, ``bilinear``)."""

    def __init__(self, size=None, scale_factor=None, mode: str = "nearest",
                 align_corners=None, recompute_scale_factor=None) -> None:
        super().__init__()
        self.size = size
        self.scale_factor = float(scale_factor) if isinstance(scale_factor, (int, float)) \
            else scale_factor
        self.mode, self.align_corners = mode, align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             self.recompute_scale_factor)

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            info = f"scale_factor={self.scale_factor!r}"
        else:
            info = f"size={self.size!r}"
        return info + f", mode={self.mode!r}"


class PixelShuffle(Module):
    """(N, C*r*r, H, W) -> (N, C, H*r, W*r)."""

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """(N, C, H*r, W*r) -> (N, C*r*r, H, W)."""

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


class Unfold(Module):
    """im2col: sliding windows laid out as columns."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.kernel_size, self.dilation = kernel_size, dilation
        self.padding, self.stride = padding, stride

    def forward(self, input: Tensor) -> Tensor:
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Fold(Module):
    """col2im: columns summed back into an image."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input: Tensor) -> Tensor:
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                      self.stride)

    def extra_repr(self) -> str:
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
                f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}")


class _PadNd(Module):
    mode = "constant"
    n = 2

    def __init__(self, padding, value: float = 0.0) -> None:
        super().__init__()
        self.padding = tuple(padding) if isinstance(padding, (list, tuple)) else \
            (padding,) * (2 * self.n)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self.mode,
                     self.value if self.mode == "constant" else None)

    def extra_repr(self) -> str:
        if self.mode == "constant" and type(self).__name__.startswith("Constant"):
            return f"padding={self.padding}, value={self.value}"
        return f"{self.padding}"


class ZeroPad1d(_PadNd):
    n = 1

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)


class ZeroPad2d(_PadNd):
    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)


class ConstantPad1d(_PadNd):
    n = 1


class ConstantPad2d(_PadNd):
    pass


class ReflectionPad1d(_PadNd):
    mode, n = "reflect", 1


class ReflectionPad2d(_PadNd):
    mode = "reflect"


class ReplicationPad1d(_PadNd):
    mode, n = "replicate", 1


class ReplicationPad2d(_PadNd):
    mode = "replicate"


class CosineSimilarity(Module):
    """Cosine similarity along ``dim``."""

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    """p-norm distance of ``x1 - x2`` along the last dim."""

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)
