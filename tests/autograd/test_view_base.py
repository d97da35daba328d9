"""Every view knows its root base, whether or not autograd records, against PyTorch.

``a = zeros(4); v = a[1:]`` gives ``v._base is a`` and ``v._is_view()`` in PyTorch for every
view op, the base being the root (never a view); ``detach()``, ``.data``, ``copy.copy`` and
``contiguous()`` of a contiguous tensor are no views.  An in-place write of a tensor that
requires grad through such a view rebases the base as ``CopySlices``.  Seeded random chains
of view ops on plain tensors, then facts and (for some) an in-place write and a backward.
"""
from __future__ import annotations

import random

import pytest

from tests.autograd import _diff

torch = pytest.importorskip("torch")

_WALK = _diff.WALK_SOURCE

# view ops that keep a float dtype: (source, needs ndim >= 2, writable)
_VIEWS = [
    ("v = v[1:]", 1), ("v = v[..., ::2]", 1), ("v = v[0]", 2), ("v = v.view(-1)", 1),
    ("v = v.reshape(-1)", 1), ("v = v.t()", 2), ("v = v.T", 2), ("v = v.mT", 2),
    ("v = v.permute(*reversed(range(v.dim())))", 1), ("v = v.transpose(0, -1)", 1),
    ("v = v.narrow(0, 1, v.shape[0] - 1)", 1), ("v = v.select(0, 1)", 2),
    ("v = v.unbind(0)[1]", 2), ("v = v.split(1)[-1]", 1), ("v = v.chunk(2)[0]", 1),
    ("v = v.diagonal()", 2), ("v = v.unsqueeze(0)", 1), ("v = v.squeeze()", 1),
    ("v = v.flatten()", 1), ("v = v.view_as(v)", 1), ("v = v.unfold(0, 2, 1)", 1),
    ("v = v.as_strided((2,), (1,), 1)", 1), ("v = v.movedim(0, -1)", 1),
    ("v = v[None]", 1), ("v = v.swapaxes(0, -1)", 1),
]


def program(seed: int) -> str:
    """One random program (its source), the same text run on both libraries."""
    rng = random.Random(seed)
    shape = rng.choice([(4,), (3, 4), (2, 3, 4)])
    dt = rng.choice(["float32", "float64"])
    lines = [_WALK, f"root = torch.arange({eval('*'.join(map(str, shape)))}, "
                    f"dtype=torch.{dt}).reshape{shape}.clone()",
             "v = root", "chain = []"]
    for _ in range(rng.randint(1, 4)):
        src, need = rng.choice(_VIEWS)
        lines.append(f"if v.dim() >= {need} and v.shape[0] >= 3 and v.numel() >= 3:\n"
                     f"    {src}\n    chain.append(v)")
    lines.append("result = (v.shape, v.stride(), v.storage_offset(), v._is_view(), "
                 "[c._base is root for c in chain], v._base is root or v is root, "
                 "root._base is None)")
    if rng.random() < 0.6:
        lines.append("x = torch.linspace(-1, 1, v.numel(), dtype=v.dtype)"
                     ".reshape(v.shape).requires_grad_()")
        write = rng.choice(["v.copy_(x * 2)", "v.add_(x)", "v.mul_(x)", "v.sub_(x, alpha=2)",
                            "v.addcmul_(x, x)", "v.clamp_(min=x)"])
        lines.append(f"if v is not root:\n    {write}")
        lines.append("k = torch.linspace(0.5, 2, root.numel(), dtype=root.dtype)"
                     ".reshape(root.shape)")
        lines.append("if v is not root:\n    (root * k).sum().backward()")
        lines.append("result = result + (root.requires_grad, walk(root.grad_fn), "
                     "walk(v.grad_fn), root._version, x.grad)")
    return "\n".join(lines)


@pytest.mark.parametrize("seed", range(150))
def test_random_view_chain(seed):
    _diff.same(program(seed))


@pytest.mark.parametrize("src", [
    # the plain views, and what is no view
    "import copy\na = torch.zeros(2, 3)\n"
    "result = [(f(a)._base is a, f(a)._is_view()) for f in (\n"
    "    lambda t: t[1:], lambda t: t.detach(), lambda t: t.data, copy.copy,\n"
    "    lambda t: t.contiguous(), lambda t: t.t().reshape(-1), lambda t: t.sum(0),\n"
    "    lambda t: t.expand(2, 2, 3), lambda t: t.view_as(t), lambda t: t.t()[0].detach(),\n"
    "    lambda t: t.t().contiguous(), lambda t: t.clone(), lambda t: t[[0]])]",
    "z = torch.zeros(3, dtype=torch.complex64)\n"
    "result = [(f(z)._base is z, f(z)._is_view()) for f in (\n"
    "    lambda t: t.real, lambda t: t.imag, torch.view_as_real, lambda t: t.conj(),\n"
    "    lambda t: torch.view_as_real(t)[1:], lambda t: t[1:].real)]",
    "a = torch.zeros(4)\nv = a[1:]\nw = v[1:]\ndel v\nresult = (w._base is a, a._is_view())",
    "result = (torch.nonzero(torch.tensor([[0, 1], [1, 1]]))._is_view(),)",
    # the brief's three programs
    "x = torch.ones(3, requires_grad=True)\nout = torch.zeros(4)\nout[1:].copy_(x * 2)\n"
    "result = (out.grad_fn, out.requires_grad, walk(out.grad_fn))\nout.sum().backward()\n"
    "result = result + (x.grad,)",
    "y = torch.ones(3, requires_grad=True)\nout = torch.zeros(4)\nout[1:].add_(y)\n"
    "result = (out.grad_fn, out.requires_grad, walk(out.grad_fn))\n"
    "(out * torch.arange(4.)).sum().backward()\nresult = result + (y.grad,)",
    "x = torch.tensor([2., 3.], requires_grad=True)\nout = torch.ones(4)\nv = out[:2]\n"
    "v.mul_(x)\nresult = (out.grad_fn, v.grad_fn, walk(out.grad_fn), walk(v.grad_fn))\n"
    "(out * torch.arange(4.)).sum().backward()\nresult = result + (x.grad,)",
])
def test_handpicked(src):
    _diff.same(_WALK + src)


def test_earlier_view_sees_rebased_base():
    _diff.same(_WALK + "x = torch.tensor([2., 3.], requires_grad=True)\nout = torch.ones(4)\n"
               "u = out[1:3]\nout[:2].mul_(x)\n(u * u).sum().backward()\n"
               "result = (u.grad_fn, walk(u.grad_fn), x.grad)")


@pytest.mark.parametrize("op", ["unbind(0)[1]", "split(1)[0]", "chunk(2)[1]",
                                "unbind(0)[1][1:]", "tensor_split(2)[0]", "split(2, 1)[0].t()"])
def test_write_through_multi_output_view(op):
    _diff.same("x = torch.ones(3, requires_grad=True)\nout = torch.zeros(2, 3)\n"
               f"v = out.{op}\nv.add_(x[:v.shape[-1]] if v.dim() else x[0])\n"
               "result = (out.grad_fn, v.grad_fn)")


def test_write_through_view_made_in_no_grad():
    _diff.same("x = torch.ones(3, requires_grad=True)\nout = torch.zeros(4)\n"
               "with torch.no_grad():\n    v = out[1:]\nv.add_(x)\nresult = (out.grad_fn,)")
