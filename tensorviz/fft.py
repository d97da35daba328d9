"""``tensorviz.fft``: PyTorch's ``torch.fft`` namespace.

Its functions are the spellings the op registry generates for the ops declared with
``@op(namespace="fft")`` in ``ops/spectral``.

>>> tensorviz.fft.rfft(tensorviz.tensor([1., 0., -1., 0.]))
tensor([0.+0.j, 2.+0.j, 0.+0.j])
"""
from __future__ import annotations

from . import ops as _ops  # noqa: F401  (the op modules, registered)
from ._dispatch import installed as _installed

globals().update(_installed("fft"))

__all__ = ["fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "ifft", "ifft2", "ifftn",
           "ifftshift", "ihfft", "irfft", "irfft2", "irfftn", "rfft", "rfft2", "rfftfreq",
           "rfftn"]
