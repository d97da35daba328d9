"""``tensorviz.fft``: PyTorch's ``torch.fft`` namespace (implemented in ``ops/spectral``).

>>> tensorviz.fft.rfft(tensorviz.tensor([1., 0., -1., 0.]))
tensor([0.+0.j, 2.+0.j, 0.+0.j])
"""
from __future__ import annotations

from .ops.spectral import (fft, fft2, fftfreq, fftn, fftshift, hfft, ifft, ifft2, ifftn,
                           ifftshift, ihfft, irfft, irfft2, irfftn, rfft, rfft2, rfftfreq, rfftn)

__all__ = ["fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "ifft", "ifft2", "ifftn",
           "ifftshift", "ihfft", "irfft", "irfft2", "irfftn", "rfft", "rfft2", "rfftfreq",
           "rfftn"]

from ._tensor import Tensor as _Tensor  # noqa: E402
from .ops import _keywords as _kw  # noqa: E402

_kw.apply(globals(), _Tensor, methods=False)  # (0-dim tensors as n=/dim=, as PyTorch reads them)
