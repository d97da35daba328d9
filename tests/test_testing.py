"""``tensorviz.testing.assert_close`` against ``torch.testing.assert_close``: the same pass or
fail, and the same message (library names aside)."""
from __future__ import annotations

import pytest

import tensorviz as tv

torch = pytest.importorskip("torch")

CASES = [
    lambda T: (T.tensor([1., 2.]), T.tensor([1., 3.]), {}),
    lambda T: (T.tensor([1., 2.]), T.tensor([1., 2.000001]), {}),
    lambda T: (T.tensor([1., 2.]), T.tensor([1., 2., 3.]), {}),
    lambda T: (T.tensor([1., 2.]), T.tensor([1., 2.], dtype=T.float64), {}),
    lambda T: (T.tensor([1., 2.]), T.tensor([1., 2.], dtype=T.float64), {"check_dtype": False}),
    lambda T: (1.0, 1.5, {}), lambda T: (1, 1, {}),
    lambda T: (T.tensor([1, 2]), T.tensor([1, 3]), {}),
    lambda T: (T.tensor([float("nan")]), T.tensor([float("nan")]), {}),
    lambda T: (T.tensor([float("nan")]), T.tensor([float("nan")]), {"equal_nan": True}),
    lambda T: (T.tensor([1.]), 1.0, {}),
    lambda T: ([T.tensor(1.)], [T.tensor(2.)], {}),
    lambda T: ((T.tensor(1.), T.tensor([1, 2])), (T.tensor(1.), T.tensor([1, 2])), {}),
    lambda T: (T.tensor([[1., 2], [3, 4]]), T.tensor([[1., 2], [3, 5]]), {"msg": "custom"}),
    lambda T: (T.tensor([1., 2.]), T.tensor([1.1, 2.]), {"rtol": 0.2, "atol": 0.0}),
    lambda T: (T.tensor([1., 2.]), T.tensor([1.1, 2.]), {"rtol": 0.2}),
    lambda T: (T.tensor([True, False]), T.tensor([True, True]), {}),
    lambda T: (T.tensor([1 + 1j]), T.tensor([1 + 1.5j]), {}),
]


def _outcome(T, case):
    a, b, kw = case(T)
    try:
        T.testing.assert_close(a, b, **kw)
        return "ok"
    except (AssertionError, TypeError, ValueError) as e:
        return type(e).__name__, str(e).replace("tensorviz.", "").replace("torch.", "")


@pytest.mark.parametrize("case", CASES)
def test_assert_close_like_pytorch(case):
    assert _outcome(tv, case) == _outcome(torch, case)
