"""``tensorviz.backends.mps`` / ``.cuda`` / ``.cudnn``: the availability and flag idioms of
``torch.backends`` that tutorials start with::

    >>> import tensorviz as torch
    >>> torch.backends.mps.is_available()    # no Apple GPU backend in tensorviz
    False
    >>> torch.backends.cudnn.benchmark = True  # accepted, nothing to tune

# Note: tensorviz computes on CuPy, never through cuDNN or MPS; the flags are kept so code
# that sets them runs, and change nothing.
"""
from __future__ import annotations


class _Mps:
    """``torch.backends.mps``: Apple's Metal backend (never present in tensorviz)."""

    def is_available(self) -> bool:
        """False: tensorviz has no MPS backend."""
        return False

    def is_built(self) -> bool:
        """False: tensorviz has no MPS backend."""
        return False


class _CudaBackend:
    """``torch.backends.cuda``: whether CUDA can be used (through CuPy)."""

    def is_built(self) -> bool:
        """Whether CUDA computing is available to tensorviz (CuPy sees a GPU)."""
        import importlib  # (tensorviz.cuda is a namespace below this layer: found at call time)
        return importlib.import_module("tensorviz.cuda").is_available()


class _Cudnn:
    """``torch.backends.cudnn``: flags kept for compatibility (tensorviz does not use cuDNN)."""

    def __init__(self):
        self.enabled = True
        self.benchmark = False
        self.deterministic = False
        self.allow_tf32 = True

    def is_available(self) -> bool:
        """False: tensorviz never calls cuDNN."""
        return False

    def version(self):
        """None, as PyTorch answers where cuDNN is absent."""
        return None


mps = _Mps()
cuda = _CudaBackend()
cudnn = _Cudnn()
