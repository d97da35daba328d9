"""The op library: each module holds one family of ops, each op declared once with
``@op`` (``tensorviz._dispatch``) on its one body.

``install`` imports every family and has the registry generate every spelling
(``tensorviz.<name>``, ``Tensor.<name>``, the in-place and ``out=`` forms, the operators and
the ``linalg``/``fft``/``special`` names).  Modules not yet moved to the registry still list
theirs in ``FUNCTIONS``/``METHODS``/``OPERATORS`` tables, bound here first.
"""
from __future__ import annotations

import importlib

from .. import _dispatch
from .._tensor import Tensor
from . import _keywords

# (every install, autograd's recording one included, binds spellings that take axis=/keepdims=
# and 0-dim tensors as dim=, p= ...)
_dispatch.HOOKS["keywords"] = _keywords.install_wrapper

# Order matters only for names defined twice (a later module wins).
_MODULES = ["_elementwise", "views", "conversion"]
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
    FUNCTIONS.update(_dispatch.install()["torch"])
    return FUNCTIONS
