"""``tensorviz.special``: PyTorch's ``torch.special`` namespace, for what tensorviz computes.

Its functions are the spellings the op registry generates for ops declared with
``@op(namespace="special")`` or ``also=("special.<name>",)`` (in ``ops/special_functions``,
``ops/pointwise`` and ``ops/numeric``).

>>> tensorviz.special.ndtr(tensorviz.tensor([0., 1.]))
tensor([0.5000, 0.8413])
"""
from __future__ import annotations

from . import ops as _ops
from ._dispatch import installed as _installed

globals().update(_installed("special"))
if "logsumexp" not in globals():  # (until ops/reductions declares it with also=)
    logsumexp = _ops.FUNCTIONS["logsumexp"]

__all__ = ["digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1",
           "gammaln", "i0", "i0e", "i1", "i1e", "log1p", "log_ndtr", "log_softmax", "logit",
           "logsumexp", "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round", "sinc",
           "softmax", "xlog1py", "xlogy", "zeta"]
