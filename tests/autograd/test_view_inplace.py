"""In-place writes through views -- ``.real`` / ``.imag`` of complex tensors above all --
against PyTorch.

PyTorch takes these views again from their base with a ``view_func`` (``view_as_real``,
``_conj`` and ``_neg_view`` change more than the layout), so the base becomes
``CopySlices``, the view's ``grad_fn`` becomes ``AsStridedBackward0`` over
``ViewAsRealBackward0`` (and ``NegViewBackward0``/``ConjBackward0`` for a conjugate view), and
the gradient flows through the real or imaginary part only.  Seeded random programs: a
base (a leaf, a computed tensor, a conjugate view or a slice of one), a chain of
``.real``/``.imag`` and indexing, an in-place op, then the graph (names,
``next_functions``), versions, values, gradients -- or the error -- must be PyTorch's.
"""
from __future__ import annotations

import random

import pytest

from tests.autograd import _diff

torch = pytest.importorskip("torch")

_WALK = _diff.WALK_SOURCE


def _vals(rng: random.Random, n: int, cplx: bool) -> str:
    if cplx:
        return "[" + ", ".join(f"complex({rng.randint(-4, 4)}, {rng.randint(-4, 4)})"
                               for _ in range(n)) + "]"
    return "[" + ", ".join(str(rng.randint(-4, 4) + 0.5) for _ in range(n)) + "]"


def program(seed: int) -> str:
    """One random program (its source), the same text run on both libraries."""
    rng = random.Random(seed)
    cdt = rng.choice(["complex128", "complex64"])
    rdt = "float64" if cdt == "complex128" else "float32"
    shape = rng.choice([(4,), (2, 3)])
    n = shape[0] * (shape[1] if len(shape) > 1 else 1)
    lines = [_WALK]
    # Note: a base that needs no grad written through ``.real``/``.imag`` with a value that
    # does is left out: such a view's dtype differs from its base's, and a view made while
    # nothing recorded keeps only its link to the base, not how to take it again, so that
    # base does not become CopySlices as PyTorch's does (slices of real tensors do: see
    # test_view_base.py).
    base = rng.choice(["from_real", "computed", "leaf"])
    if base == "from_real":
        lines.append(f"a = torch.tensor({_vals(rng, n, False)}, dtype=torch.{rdt}, "
                     f"requires_grad=True)")
        lines.append(f"z = (a * 1).to(torch.{cdt}).reshape{shape}")
    elif base == "computed":
        lines.append(f"a = torch.tensor({_vals(rng, n, True)}, dtype=torch.{cdt}, "
                     f"requires_grad=True)")
        lines.append(f"z = (a * (1 - 1j)).reshape{shape}")
    else:
        lines.append(f"a = torch.tensor({_vals(rng, n, True)}, dtype=torch.{cdt}).reshape"
                     f"{shape}.requires_grad_()")
        lines.append("z = a")
    lines.append("w = z")
    if rng.random() < 0.4:
        lines.append("w = w.conj()")
    if rng.random() < 0.3:
        lines.append("w = w[1:]")
    part = rng.choice(["real", "imag"])
    lines.append(f"v = w.{part}")
    index = rng.choice(["", "[0]", "[1:]", "[..., ::2]"])
    if index:
        lines.append(f"v = v{index}")
    lines.append(f"y = torch.tensor({_vals(rng, 1, False)}[0], dtype=torch.{rdt}, "
                 f"requires_grad=True)")
    lines.append("y2 = y * torch.ones_like(v)")
    write = rng.choice(["v.mul_(2)", "v.add_(y2)", "v.copy_(y2)", "v.zero_()", "v[0] = y",
                        "v.mul_(y2)", "v.neg_()", "v.sub_(y2, alpha=3)", "v += 1"])
    lines.append(f"u = z.{rng.choice(['real', 'imag'])}")  # (another view, taken before)
    lines.append("view_fn_before = v.grad_fn")
    lines.append(write)
    lines.append("facts = (walk(z.grad_fn), walk(w.grad_fn), walk(v.grad_fn), z._version, "
                 "v._version, z.detach().clone(), v.detach().clone(), v.is_neg(), "
                 "w.is_conj())")
    weights = _vals(rng, n, True)
    lines.append(f"k = torch.tensor({weights}, dtype=torch.{cdt}).reshape{shape}")
    # (S sums in float64: float32 sums in another order may round the last digit apart)
    lines.append("S = lambda t: t.double().sum()")
    loss = rng.choice(["S((z * k).abs())", "S((z * k).real) + S(v) * 2",
                       "S((w * k[:w.shape[0]]).imag) + S(v * v)",
                       "S(u * u) + S(z.abs())"])
    lines.append(f"loss = {loss}")
    lines.append("loss.backward()")
    lines.append("result = (facts, round(loss.item(), 3), a.grad, y.grad)")
    return "\n".join(lines)


@pytest.mark.parametrize("seed", range(200))
def test_write_through_real_imag(seed):
    _diff.same(program(seed))


@pytest.mark.parametrize("src", [
    # the brief's three programs, as written
    "a = torch.tensor([1., -2., 3.], dtype=torch.float64, requires_grad=True)\n"
    "z = (a * 1).to(torch.complex128)\nz.real.mul_(2)\nz.abs().sum().backward()\n"
    "result = (z.grad_fn, z.grad_fn.next_functions[0][0], a.grad, z._version)",
    "a = torch.tensor([1., -2., 3.], dtype=torch.float64, requires_grad=True)\n"
    "x = torch.tensor(5., dtype=torch.float64, requires_grad=True)\n"
    "z = (a * 1).to(torch.complex128)\nz.imag[1] = x\nz.abs().sum().backward()\n"
    "result = (z, a.grad, x.grad, z._version)",
    "a = torch.tensor([1., -2., 3.], dtype=torch.float64, requires_grad=True)\n"
    "y = torch.tensor([0.5, 1., 2.], dtype=torch.float64, requires_grad=True)\n"
    "z = (a * 1).to(torch.complex128)\nz.imag.add_(y)\nz.abs().sum().backward()\n"
    "result = (z, a.grad, y.grad, z._version)",
    # the view's own graph after the write, and a backward through the view alone
    "a = torch.tensor([1., -2., 3.], dtype=torch.float64, requires_grad=True)\n"
    "z = (a * 1).to(torch.complex128)\nr = z.imag\nr.mul_(2)\n"
    "n = r.grad_fn\n"
    "result = (n, n.next_functions[0][0], n._saved_size, n._saved_stride,\n"
    "          n._saved_storage_offset)\n"
    "(r * torch.tensor([1., 2., 3.], dtype=torch.float64)).sum().backward()\n"
    "result = result + (a.grad,)",
    # the imaginary part of a conjugate view: a negative view
    "a = torch.tensor([1+1j, -2+0.5j], dtype=torch.complex128, requires_grad=True)\n"
    "z = (a * 1).conj()\ni = z.imag\n"
    "result = (i.grad_fn, i.grad_fn.next_functions[0][0], i._base is z._base, i.is_neg())\n"
    "i.mul_(2)\nz.abs().sum().backward()\n"
    "result = result + (z.grad_fn, z.grad_fn.next_functions[0][0], a.grad, i.grad_fn)",
    # create_graph through CopySlices of a real part
    "a = torch.tensor([1., -2., 3.], dtype=torch.float64, requires_grad=True)\n"
    "z = (a * a).to(torch.complex128)\nz.real.mul_(a)\n"
    "g, = torch.autograd.grad(z.abs().sum(), a, create_graph=True)\n"
    "g.sum().backward()\nresult = (g, a.grad)",
    # a view taken before its base was written through another view, used without reading
    # its grad_fn first: its gradient goes through the base's CopySlices
    "a = torch.tensor([1., 2., 3., 4.], requires_grad=True)\nb = a * 1\n"
    "v = b[:2]\nw = b[1:]\nv.mul_(10)\n(w * w).sum().backward()\nresult = (a.grad, w.grad_fn)",
    "a = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64, requires_grad=True)\n"
    "b = a.exp()\nc = b.t()\nb[0].zero_()\nloss = (c * c).sum()\nloss.backward()\n"
    "result = (a.grad, c.grad_fn, loss)",
])
def test_handpicked(src):
    _diff.same(src)
