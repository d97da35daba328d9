"""LBFGS against PyTorch's: the iterates, the evaluation counts, the errors."""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz as tv

torch = pytest.importorskip("torch")


def _rosenbrock_run(lib, dtype, kw, start, steps=3):
    x = lib.tensor(start, dtype=getattr(lib, dtype), requires_grad=True)
    opt = lib.optim.LBFGS([x], **kw)
    losses = []

    def closure():
        opt.zero_grad()
        loss = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2 + (x[2:] ** 2).sum()
        loss.backward()
        return loss

    for _ in range(steps):
        losses.append(float(opt.step(closure)))
    st = opt.state[opt._params[0]]
    return x.tolist(), losses, st["func_evals"], st["n_iter"], repr(opt)


@pytest.mark.filterwarnings("ignore:Converting a tensor with requires_grad=True to a scalar")
@pytest.mark.parametrize("kw", [
    {"lr": 1, "line_search_fn": "strong_wolfe"},
    {"lr": 0.5},
    {"lr": 1, "history_size": 3, "max_iter": 7, "line_search_fn": "strong_wolfe"},
    {"lr": 0.1, "max_eval": 10, "tolerance_change": 1e-5},
], ids=str)
@pytest.mark.parametrize("dtype", ["float64"])
def test_lbfgs_matches_pytorch(kw, dtype):
    start = [-1.5, 2.0, 0.3, -0.7]
    want = _rosenbrock_run(torch, dtype, kw, start)
    got = _rosenbrock_run(tv, dtype, kw, start)
    assert got[2:] == want[2:]  # evaluation and iteration counts, repr
    # Rosenbrock's valley amplifies last-bit differences of the elementwise kernels over
    # the line searches; the counts and the path agree, the values to these tolerances.
    rtol = 1e-4 if dtype == "float64" else 2e-2
    np.testing.assert_allclose(got[0], want[0], rtol=rtol, atol=rtol)
    np.testing.assert_allclose(got[1], want[1], rtol=rtol, atol=rtol)


def test_lbfgs_refuses_parameter_groups_and_unknown_line_search():
    messages = []
    for lib in (torch, tv):
        a = lib.zeros(2, requires_grad=True)
        b = lib.zeros(2, requires_grad=True)
        with pytest.raises(ValueError) as info:
            lib.optim.LBFGS([{"params": [a]}, {"params": [b]}])
        messages.append(str(info.value))
        opt = lib.optim.LBFGS([a], line_search_fn="armijo")
        a.grad = lib.ones(2)
        with pytest.raises(RuntimeError) as info:
            opt.step(lambda: (a * a).sum())
        messages.append(str(info.value))
    assert messages[:2] == messages[2:]
