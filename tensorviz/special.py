"""``tensorviz.special``: PyTorch's ``torch.special`` namespace, for what tensorviz computes
(implemented in ``ops/special_functions``, ``ops/pointwise`` and ``ops/reductions``).

>>> tensorviz.special.ndtr(tensorviz.tensor([0., 1.]))
tensor([0.5000, 0.8413])
"""
from __future__ import annotations

from . import ops as _ops
from .ops.special_functions import SPECIAL as _SPECIAL

_F = _ops.FUNCTIONS  # (installed by ``import tensorviz``: the checked, out= aware versions)

erf = _F["erf"]
erfc = _F["erfc"]
erfinv = _F["erfinv"]
expit = _F["sigmoid"]
logit = _F["logit"]
xlogy = _F["xlogy"]
gammaln = _F["lgamma"]
digamma = psi = _F["digamma"]
polygamma = _F["polygamma"]
multigammaln = _F["mvlgamma"]
i0 = _F["i0"]
sinc = _F["sinc"]
log1p = _F["log1p"]
expm1 = _F["expm1"]
exp2 = _F["exp2"]
logsumexp = _F["logsumexp"]
erfcx = _SPECIAL["erfcx"]
xlog1py = _SPECIAL["xlog1py"]
zeta = _SPECIAL["zeta"]
i0e = _SPECIAL["i0e"]
i1 = _SPECIAL["i1"]
i1e = _SPECIAL["i1e"]
entr = _SPECIAL["entr"]
ndtr = _SPECIAL["ndtr"]
ndtri = _SPECIAL["ndtri"]
log_ndtr = _SPECIAL["log_ndtr"]


def round(input, *, decimals=None, out=None):
    """``torch.round`` for floating-point tensors (integer and bool tensors are refused)."""
    from .ops.pointwise import _check_tensor, _not_implemented
    _check_tensor("special_round", input)
    if out is not None and out.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {out.dtype.cname} but expected {input.dtype.cname}")
    if input.dtype.category < 2:
        raise _not_implemented("round_vml_cpu", input.dtype)
    if decimals is None:
        return _F["round"](input, out=out)
    return _F["round"](input, decimals=decimals, out=out)


def softmax(input, dim, *, dtype=None):
    """``exp(x) / sum(exp(x))`` along ``dim`` (``dtype``: convert the input first)."""
    return _F["softmax"](input, dim, dtype)


def log_softmax(input, dim, *, dtype=None):
    """``x - logsumexp(x)`` along ``dim`` (``dtype``: convert the input first)."""
    return _F["log_softmax"](input, dim, dtype)


__all__ = ["digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1",
           "gammaln", "i0", "i0e", "i1", "i1e", "log1p", "log_ndtr", "log_softmax", "logit",
           "logsumexp", "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round", "sinc",
           "softmax", "xlog1py", "xlogy", "zeta"]
