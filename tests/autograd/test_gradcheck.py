"""``gradcheck`` / ``gradgradcheck`` against PyTorch's: results, warnings and errors."""
from __future__ import annotations

import pytest

from ._diff import same

pytest.importorskip("torch")

CASES = {
    "not_exported": "result = hasattr(torch.autograd, 'GradcheckError')",
    "passes_float64": "x = torch.tensor([0.3, 1.2], dtype=torch.float64, requires_grad=True); result = torch.autograd.gradcheck(lambda t: t.sin() * t, (x,))",
    "float32_warns_and_fails": "x = torch.tensor([0.3, 1.2, 2.5], requires_grad=True); result = torch.autograd.gradcheck(lambda t: t.exp() * 100, (x,), raise_exception=False)",
    "float32_error_type": "x = torch.tensor([0.3, 1.2, 2.5], requires_grad=True)\ntry:\n    torch.autograd.gradcheck(lambda t: t.exp() * 100, (x,))\nexcept __import__(torch.__name__ + '.autograd.gradcheck', fromlist=['x']).GradcheckError as e:\n    result = (type(e).__name__, str(e).split(chr(10))[0], isinstance(e, RuntimeError))",
    "raise_false": "class Wrong(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 3\nx = torch.ones(2, dtype=torch.float64, requires_grad=True); result = torch.autograd.gradcheck(Wrong.apply, (x,), raise_exception=False)",
    "wrong_message": "class Wrong(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 3\nx = torch.ones(2, dtype=torch.float64, requires_grad=True)\ntry:\n    torch.autograd.gradcheck(Wrong.apply, (x,))\nexcept __import__(torch.__name__ + '.autograd.gradcheck', fromlist=['x']).GradcheckError as e:\n    result = str(e).split(chr(10))[0]",
    "gradgradcheck": "x = torch.tensor([0.3, 1.2], dtype=torch.float64, requires_grad=True); result = torch.autograd.gradgradcheck(lambda t: (t ** 3).sin(), (x,))",
    "none_requires_grad": "x = torch.tensor([0.3], dtype=torch.float64); torch.autograd.gradcheck(torch.sin, (x,))",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_gradcheck_as_pytorch(src):
    same(src)
