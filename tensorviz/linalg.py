"""``tensorviz.linalg``: PyTorch's ``torch.linalg`` namespace (implemented in ``ops/linalg``).

>>> A = tensorviz.tensor([[4., 1.], [1., 3.]])
>>> tensorviz.linalg.solve(A, tensorviz.tensor([1., 2.]))
tensor([0.0909, 0.6364])
"""
from __future__ import annotations

from .ops.linalg import LINALG as _LINALG
from ._tensor import Tensor as _Tensor
from .ops import _keywords as _kw

# (the functions as ``ops.linalg.LINALG`` lists them: with their out= dtype checks)
globals().update(_LINALG)
_kw.apply(globals(), _Tensor, methods=False)  # (axis=, 0-dim tensors as dim=)

__all__ = ["LinAlgError", "cholesky", "cholesky_ex", "cond", "cross", "det", "diagonal", "eig",
           "eigh", "eigvals", "eigvalsh", "inv", "inv_ex", "lstsq", "matmul", "matrix_exp",
           "matrix_norm", "matrix_power", "matrix_rank", "multi_dot", "norm", "pinv", "qr",
           "slogdet", "solve", "solve_ex", "solve_triangular", "svd", "svdvals", "tensorinv",
           "tensorsolve", "vander", "vecdot", "vector_norm"]
