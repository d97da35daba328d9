"""clamp_min / clamp_max record PyTorch's nodes (ClampMin/ClampMaxBackward0 for a number bound,
...Backward1 for a tensor bound) with PyTorch's gradients, ties at the bound included."""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("name", ["clamp_min", "clamp_max"])
@pytest.mark.parametrize("tensor_bound", [False, True])
@pytest.mark.parametrize("spelling", ["function", "method"])
def test_clamp_side_gradients(name, tensor_bound, spelling):
    rng = np.random.default_rng(0)
    x = np.round(rng.standard_normal((3, 4)), 1)
    b = np.round(rng.standard_normal(4), 1)
    b[0] = x[0, 0]  # a tie at the bound
    res = []
    for lib in (torch, tensorviz):
        xt = lib.tensor(x, requires_grad=True)
        bt = lib.tensor(b, requires_grad=True) if tensor_bound else 0.1
        y = getattr(lib, name)(xt, bt) if spelling == "function" else getattr(xt, name)(bt)
        (y * lib.tensor(np.arange(12.0).reshape(3, 4))).sum().backward()
        res.append((type(y.grad_fn).__name__, y.detach().numpy(), xt.grad.numpy(),
                    bt.grad.numpy() if tensor_bound else None))
    assert res[1][0] == res[0][0]
    for a, c in zip(res[0][1:], res[1][1:]):
        if a is not None:
            np.testing.assert_array_equal(c, a)
