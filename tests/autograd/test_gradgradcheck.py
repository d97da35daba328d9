"""gradgradcheck checks second derivatives: it passes for correct double-backward formulas and
fails for a backward that detaches what it differentiates."""
from __future__ import annotations

import tensorviz
from tensorviz.autograd import Function, gradgradcheck


class _Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x.detach() ** 2  # wrong second derivative on purpose


def test_gradgradcheck_passes_and_fails():
    tensorviz.manual_seed(0)
    x = tensorviz.randn(4, dtype=tensorviz.float64, requires_grad=True)
    assert gradgradcheck(lambda t: t.tanh(), [x])
    assert gradgradcheck(lambda t: (t * t).sin().sum(0, keepdim=True), [x])
    assert not gradgradcheck(lambda t: _Cube.apply(t), [x], raise_exception=False)
