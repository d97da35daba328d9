"""``tensorviz.linalg``: PyTorch's ``torch.linalg`` namespace (implemented in ``ops/linalg``).

>>> A = tensorviz.tensor([[4., 1.], [1., 3.]])
>>> tensorviz.linalg.solve(A, tensorviz.tensor([1., 2.]))
tensor([0.0909, 0.6364])
"""
from __future__ import annotations

from ._dispatch import installed as _installed
from .ops.linalg import LinAlgError

# (every op declared with ``namespace="linalg"`` or ``also=("linalg.<name>",)``, as the
# registry generated its spelling: with its out= dtype check)
globals().update(_installed("linalg"))

__all__ = ["LinAlgError", "cholesky", "cholesky_ex", "cond", "cross", "det", "diagonal", "eig",
           "eigh", "eigvals", "eigvalsh", "inv", "inv_ex", "lstsq", "matmul", "matrix_exp",
           "matrix_norm", "matrix_power", "matrix_rank", "multi_dot", "norm", "pinv", "qr",
           "slogdet", "solve", "solve_ex", "solve_triangular", "svd", "svdvals", "tensorinv",
           "tensorsolve", "vander", "vecdot", "vector_norm"]
