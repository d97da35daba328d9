"""Parameters as one flat vector and back."""
from __future__ import annotations

import tensorviz as tv

from ..._grad_mode import no_grad
from ..._tensor import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters) -> Tensor:
    """All parameters flattened and concatenated (recorded: gradients flow back)."""
    params = list(parameters)
    device = None
    for p in params:
        if device is not None and p.device != device:
            raise TypeError("Found two parameters on different devices, this is currently not "
                            "supported.")
        device = p.device
    return tv.cat([p.view(-1) for p in params])


def vector_to_parameters(vec: Tensor, parameters) -> None:
    """Copy consecutive slices of ``vec`` into the parameters (in place, ``.data``)."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    pointer = 0
    for p in parameters:
        n = p.numel()
        with no_grad():
            p.copy_(vec[pointer:pointer + n].view_as(p))
        pointer += n
