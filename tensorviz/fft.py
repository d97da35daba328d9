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
