"""``nn.utils``: gradient clipping and parameters as one vector."""
from __future__ import annotations

from .clip_grad import clip_grad_norm, clip_grad_norm_, clip_grad_value_, get_total_norm
from .convert_parameters import parameters_to_vector, vector_to_parameters

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "get_total_norm",
           "parameters_to_vector", "vector_to_parameters"]
