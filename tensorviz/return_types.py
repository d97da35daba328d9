"""Named-tuple result types of the ops that return several tensors, as ``torch.return_types``.

``t.max(0)`` returns ``return_types.max(values=..., indices=...)``; the ``*_out`` types are
what the ``out=(a, b)`` calls return.  Each prints as PyTorch's does::

    >>> tensorviz.tensor([[1., 5.], [7., 2.]]).max(1)
    tensorviz.return_types.max(
    values=tensor([5., 7.]),
    indices=tensor([1, 0]))

This module holds data only (no tensor code), so any layer may import it.
"""
from __future__ import annotations

import collections

__all__: list[str] = []


def _return_type(name: str, fields: tuple[str, ...]) -> type:
    """Define ``return_types.<name>`` (and ``<name>_out``): a named tuple of ``fields``."""
    for n in (name, name + "_out"):
        cls = collections.namedtuple(n, fields)
        cls.__module__ = __name__
        cls.__qualname__ = n
        cls.__repr__ = cls.__str__ = _repr
        globals()[n] = cls
        __all__.append(n)
    return globals()[name]


def _repr(self) -> str:
    body = ",\n".join(f"{f}={v!r}" for f, v in zip(self._fields, self))
    return f"tensorviz.return_types.{type(self).__name__}(\n{body})"


for _n in ("max", "min", "median", "nanmedian", "mode", "kthvalue", "sort", "topk", "cummax",
           "cummin"):
    _return_type(_n, ("values", "indices"))
_return_type("aminmax", ("min", "max"))
_return_type("histogram", ("hist", "bin_edges"))
_return_type("histogram_out", ("hist", "bin_edges"))  # (what ``out=`` calls return)
_return_type("frexp", ("mantissa", "exponent"))
_return_type("slogdet", ("sign", "logabsdet"))
_return_type("linalg_slogdet", ("sign", "logabsdet"))
_return_type("qr", ("Q", "R"))
_return_type("linalg_qr", ("Q", "R"))
_return_type("svd", ("U", "S", "V"))
_return_type("linalg_svd", ("U", "S", "Vh"))
_return_type("linalg_eig", ("eigenvalues", "eigenvectors"))
_return_type("linalg_eigh", ("eigenvalues", "eigenvectors"))
_return_type("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
_return_type("linalg_inv_ex", ("inverse", "info"))
_return_type("linalg_cholesky_ex", ("L", "info"))
_return_type("linalg_solve_ex", ("result", "info"))
_return_type("triangular_solve", ("solution", "cloned_coefficient"))
del _n
