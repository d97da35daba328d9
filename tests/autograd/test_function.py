"""``autograd.Function`` against PyTorch: both styles, saved tensors, needs_input_grad,
mark_dirty, mark_non_differentiable, set_materialize_grads, and the errors for a wrong
number or shape of returned gradients."""
from __future__ import annotations

import pytest

from ._diff import same

pytest.importorskip("torch")

HEAD = """
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        ctx.flags = (torch.is_grad_enabled(),)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y
"""

CASES = {
    "basic": HEAD + "x = torch.tensor([0., 1.], requires_grad=True); y = Exp.apply(x); y.sum().backward(); result = (y, x.grad, type(y.grad_fn).__name__, y.grad_fn.name())",
    "no_grad_inside": HEAD + "x = torch.ones(2, requires_grad=True)\nclass F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.seen = torch.is_grad_enabled()\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\ny = F.apply(x); result = (y.grad_fn._fn_seen if False else None, y)",
    "setup_context": "class Mul(torch.autograd.Function):\n    @staticmethod\n    def forward(x, k):\n        return x * k\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        ctx.k = inputs[1]\n    @staticmethod\n    def backward(ctx, g):\n        return g * ctx.k, None\nx = torch.ones(2, requires_grad=True); y = Mul.apply(x, 3.); y.sum().backward(); result = (y, x.grad)",
    "needs_input_grad": "seen = []\nclass F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, a, b):\n        return a * b\n    @staticmethod\n    def backward(ctx, g):\n        seen.append(ctx.needs_input_grad)\n        return g, g\na = torch.ones(2, requires_grad=True); b = torch.ones(2); F.apply(a, b).sum().backward(); result = (seen, a.grad, b.grad)",
    "wrong_count": "class Bad(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, a, b):\n        return a * b\n    @staticmethod\n    def backward(ctx, g):\n        return g\na = torch.ones(2, requires_grad=True); Bad.apply(a, a).sum().backward()",
    "wrong_shape": "class BadShape(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, a):\n        return a * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g.sum()\na = torch.ones(2, requires_grad=True); BadShape.apply(a).sum().backward()",
    "mark_dirty": "class AddOne(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        x.add_(1)\n        ctx.mark_dirty(x)\n        return x\n    @staticmethod\n    def backward(ctx, g):\n        return g\na = torch.ones(2, requires_grad=True); b = a * 1; c = AddOne.apply(b); c.sum().backward(); result = (c is b, c, a.grad, b._version)",
    "mark_non_differentiable": "class Sort(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        v, i = x.sort()\n        ctx.mark_non_differentiable(i)\n        ctx.save_for_backward(i)\n        return v, i\n    @staticmethod\n    def backward(ctx, gv, gi):\n        (i,) = ctx.saved_tensors\n        return torch.zeros_like(gv).scatter(0, i, gv)\nx = torch.tensor([3., 1., 2.], requires_grad=True); v, i = Sort.apply(x); (v * torch.arange(3.)).sum().backward(); result = (v.requires_grad, i.requires_grad, x.grad)",
    "materialize_false": "seen = []\nclass Two(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.set_materialize_grads(False)\n        return x * 2, x * 3\n    @staticmethod\n    def backward(ctx, g1, g2):\n        seen.append((g1 is None, g2 is None))\n        return g1 * 2\nx = torch.ones(2, requires_grad=True); a, b = Two.apply(x); a.sum().backward(); result = (seen, x.grad)",
    "materialize_true": "seen = []\nclass Two(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2, x * 3\n    @staticmethod\n    def backward(ctx, g1, g2):\n        seen.append(g2)\n        return g1 * 2 + g2 * 3\nx = torch.ones(2, requires_grad=True); a, b = Two.apply(x); a.sum().backward(); result = (seen, x.grad)",
    "no_grad_input": HEAD + "x = torch.ones(2); y = Exp.apply(x); result = (y.requires_grad, y.grad_fn)",
    "double_backward": "class Cube(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n        return x ** 3\n    @staticmethod\n    def backward(ctx, g):\n        (x,) = ctx.saved_tensors\n        return g * 3 * x ** 2\nx = torch.tensor(2., requires_grad=True); (g,) = torch.autograd.grad(Cube.apply(x), x, create_graph=True); (h,) = torch.autograd.grad(g, x); result = (g, h)",
    "saved_freed": HEAD + "x = torch.ones(2, requires_grad=True); y = Exp.apply(x); y.sum().backward(); y.sum().backward()",
    "saved_version": HEAD + "x = torch.ones(2, requires_grad=True); y = Exp.apply(x); y.add_(1); y.sum().backward()",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_function_as_pytorch(src):
    same(src)
