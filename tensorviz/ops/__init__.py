"""The op library: each module holds one family of ops and lists what it adds.

A module exports ``FUNCTIONS`` (``tensorviz.<name>``) and may export ``METHODS``
(``Tensor.<name>``) and ``OPERATORS`` (Python dunders); ``install`` binds them all once at
import time, so every op has one implementation and both spellings.
"""
from __future__ import annotations

import importlib

from .._tensor import Tensor

# Order matters only for names defined twice (a later module wins).
_MODULES = ["_elementwise", "_views"]
_OPTIONAL = ["pointwise", "reductions", "comparison", "indexing", "joining", "linalg",
             "spectral", "random", "parallel", "numeric", "special_functions"]

FUNCTIONS: dict = {}


def install() -> dict:
    """Bind every op module's methods/operators to Tensor; return the module-level functions."""
    for name in _MODULES + _OPTIONAL:
        try:
            mod = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if name in _OPTIONAL and e.name == f"{__name__}.{name}":
                continue
            raise
        for attr, fn in getattr(mod, "METHODS", {}).items():
            setattr(Tensor, attr, fn)
        for attr, fn in getattr(mod, "OPERATORS", {}).items():
            setattr(Tensor, attr, fn)
        FUNCTIONS.update(getattr(mod, "FUNCTIONS", {}))
    return FUNCTIONS
