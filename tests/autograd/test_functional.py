"""``autograd.functional.jacobian`` / ``hessian`` (and vjp/jvp/hvp) against PyTorch."""
from __future__ import annotations

import pytest

from ._diff import same

pytest.importorskip("torch")

CASES = {
    "jacobian": "x = torch.tensor([1., 2., 3.]); result = torch.autograd.functional.jacobian(lambda t: t ** 2 * t.sum(), x)",
    "jacobian_two_inputs": "a = torch.tensor([1., 2.]); b = torch.tensor([3., 4., 5.]); result = torch.autograd.functional.jacobian(lambda u, v: u.unsqueeze(1) * v, (a, b))",
    "jacobian_two_outputs": "x = torch.tensor([1., 2.]); result = torch.autograd.functional.jacobian(lambda t: (t.exp(), t.sum()), x)",
    "jacobian_create_graph": "x = torch.tensor([1., 2.], requires_grad=True); j = torch.autograd.functional.jacobian(lambda t: t ** 3, x, create_graph=True); result = (j.requires_grad,)",
    "hessian": "x = torch.tensor([1., 2.]); result = torch.autograd.functional.hessian(lambda t: (t ** 3).sum() + t[0] * t[1], x)",
    "hessian_two": "a = torch.tensor([1., 2.]); b = torch.tensor(3.); result = torch.autograd.functional.hessian(lambda u, v: (u * v ** 2).sum(), (a, b))",
    "vjp": "x = torch.tensor([1., 2.]); result = torch.autograd.functional.vjp(lambda t: t ** 2, x, torch.tensor([1., 10.]))",
    "jvp": "x = torch.tensor([1., 2.]); result = torch.autograd.functional.jvp(lambda t: t ** 2, x, torch.tensor([1., 10.]))",
    "hvp": "x = torch.tensor([1., 2.]); result = torch.autograd.functional.hvp(lambda t: (t ** 3).sum(), x, torch.tensor([1., 1.]))",
    "unused_input": "a = torch.tensor([1., 2.]); b = torch.tensor([3.]); result = torch.autograd.functional.jacobian(lambda u, v: u * 2, (a, b))",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_functional_as_pytorch(src):
    same(src)
