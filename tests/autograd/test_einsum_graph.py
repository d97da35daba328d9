"""``einsum`` with operands that require grad, against PyTorch: the whole graph (at::einsum's
permute / unsqueeze / diagonal, then ``bmm`` per pair of operands, views around it),
values and gradients, or the error.  Seeded random equations: one to three operands,
repeated labels (diagonals), labels of size 1 (broadcast), ``...``, implicit and explicit
outputs, upper- and lower-case labels, transposed operands; and the common equations.
"""
from __future__ import annotations

import random

import pytest

from tests.autograd import _diff

torch = pytest.importorskip("torch")

_WALK = _diff.WALK_SOURCE

COMMON = ["ij,jk->ik", "bij,bjk->bik", "ii->i", "i,i->", "ij->ji", "ij->", "ii->", "i,j->ij",
          "ij,j->i", "ij,ij->ij", "ij,ij->", "bij->bji", "ij->j", "ijk,ikl->ijl", "i,i->i",
          "ij,kj->ik", "...ij,...jk->...ik", "ij,jk,kl->il", "bhqd,bhkd->bhqk", "ij,jk"]


def _shapes(eq: str, sizes: dict, ell: tuple) -> list:
    lhs = eq.split("->")[0].split(",")
    out = []
    for sp in lhs:
        shape = []
        for part in sp.split("..."):
            if shape or sp.startswith("..."):
                pass
            shape.extend(sizes[c] for c in part)
        if "..." in sp:
            pre, post = sp.split("...")
            shape = [sizes[c] for c in pre] + list(ell) + [sizes[c] for c in post]
        out.append(tuple(shape))
    return out


def program(eq: str, seed: int, transpose: bool = False) -> str:
    rng = random.Random(seed)
    labels = set(eq.replace("->", "").replace(",", "").replace(".", ""))
    sizes = {c: rng.choice([1, 2, 3]) if rng.random() < 0.25 else rng.choice([2, 3, 4])
             for c in sorted(labels)}
    ell = tuple(rng.choice([1, 2, 3]) for _ in range(rng.choice([0, 1, 2])))
    shapes = _shapes(eq, sizes, ell)
    lines = [_WALK, "def vals(shape, k):",
             "    n = 1",
             "    for s in shape:",
             "        n *= s",
             "    return (torch.arange(n, dtype=torch.float64) * 0.37 + k).sin().reshape(shape)",
             "ops = []", "leaves = []"]
    for k, s in enumerate(shapes):
        if transpose and len(s) >= 2:
            t = s[::-1]
            lines.append(f"t = vals({t}, {k}).requires_grad_()")
            lines.append("leaves.append(t)")
            lines.append(f"t = t.permute({tuple(range(len(s) - 1, -1, -1))})")
        else:
            lines.append(f"t = vals({s}, {k}).requires_grad_()")
            lines.append("leaves.append(t)")
        lines.append("ops.append(t)")
    lines.append(f"out = torch.einsum({eq!r}, *ops)")
    lines.append("w = vals(tuple(out.shape), 9)")
    lines.append("(out * w).sum().backward()")
    lines.append("result = (walk(out.grad_fn), out, [t.grad for t in leaves])")
    return "\n".join(lines)


def random_equation(seed: int) -> str:
    rng = random.Random(seed)
    pool = "ijklmnIJ"
    n_ops = rng.choice([1, 2, 2, 2, 3])
    use_ell = rng.random() < 0.2
    specs = []
    for _ in range(n_ops):
        k = rng.randint(1, 3)
        sp = "".join(rng.choice(pool[:5] if rng.random() < 0.8 else pool) for _ in range(k))
        if use_ell:
            sp = "..." + sp if rng.random() < 0.5 else sp + "..."
        specs.append(sp)
    letters = sorted(set("".join(specs).replace(".", "")))
    if rng.random() < 0.25:
        return ",".join(specs)  # (implicit output)
    out = [c for c in letters if rng.random() < 0.5]
    rng.shuffle(out)
    rhs = "".join(out)
    if use_ell and rng.random() < 0.7:
        rhs = "..." + rhs
    return ",".join(specs) + "->" + rhs


@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("eq", COMMON)
def test_common_equations(eq, transpose):
    _diff.same(program(eq, 7, transpose))


@pytest.mark.parametrize("seed", range(150))
def test_random_equations(seed):
    _diff.same(program(random_equation(seed), seed, transpose=seed % 3 == 0))


@pytest.mark.parametrize("src", [
    "a = torch.ones(2, 3, requires_grad=True)\nresult = torch.einsum('ij,jk->ik', a, a)",
    "a = torch.ones(2, 3, requires_grad=True)\nresult = torch.einsum('ij,jk->iz', a, a.t())",
    "a = torch.ones(2, 3, requires_grad=True)\nresult = torch.einsum('ij,jk->ik', a)",
    "a = torch.ones(2, 3, requires_grad=True)\n"
    "result = torch.einsum('ij,jk->ik', a, a.t().double())",
    "a = torch.ones(2, 2, requires_grad=True)\nresult = torch.einsum(a, [0, 1], a, [1, 2], [0, 2])",
    "a = torch.ones(2, 3, requires_grad=True)\nresult = torch.einsum('ij,jk->ik', a, a)",
    "a = torch.ones(2, 3, requires_grad=True)\nresult = torch.einsum('ii->i', a)",
    "a = torch.ones(2, 2, requires_grad=True)\nresult = torch.einsum('ij->ii', a)",
    "a = torch.ones(2, 2, requires_grad=True)\nresult = torch.einsum('i1->i', a)",
    "a = torch.ones(2, 2, requires_grad=True)\nresult = torch.einsum('ijk->i', a)",
    "a = torch.ones(2, 3, 2, requires_grad=True)\nb = torch.ones(4, 2, 2, requires_grad=True)\n"
    "result = torch.einsum('...ij,...jk->...ik', a, b)",
    "a = torch.ones(2, 3, requires_grad=True)\nb = torch.ones(1, 3, requires_grad=True)\n"
    "r = torch.einsum('ij,ij->i', a, b)\nr.sum().backward()\nresult = (r, a.grad, b.grad)",
    "a = torch.zeros(2, 0, requires_grad=True)\nb = torch.zeros(0, 3, requires_grad=True)\n"
    "r = torch.einsum('ij,jk->ik', a, b)\nr.sum().backward()\nresult = (r, a.grad, b.grad)",
])
def test_errors_and_edges(src):
    _diff.same(src)
