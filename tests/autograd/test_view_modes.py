"""Views and the grad modes they were made in, written in place, against PyTorch.

A view remembers how it was made (grad mode on, ``no_grad``, ``inference_mode``, a function
returning several views) and its family's version when its ``grad_fn`` was last set: writing
it in place with grad on, or using it after its base or another view was written, gives
PyTorch's node (``AsStridedBackward0`` of the base's ``CopySlices``), its error, or its
gradient.  Seeded random programs of views of views, detach, nested modes and writes in turn,
then hand-picked cases (``.real``/``.imag`` of a complex tensor that needs no grad ...).
"""
from __future__ import annotations

import random

import pytest

from tests.autograd import _diff

torch = pytest.importorskip("torch")

_PRELUDE = _diff.view_prelude(inference=True, type_errors=False)

# view ops of a real tensor: (source on ``v``, needs ndim >= 2)
_REAL_VIEWS = [("v[1:]", 1), ("v[0]", 2), ("v.t()", 2), ("v.unsqueeze(0)", 1),
               ("v.narrow(-1, 0, 1)", 1), ("v.split(1)[0]", 1), ("v.unbind(0)[-1]", 2),
               ("v.diagonal()", 2), ("v[..., ::2]", 1), ("v.view(-1)", 1), ("v.mT", 2),
               ("v.chunk(2)[-1]", 1), ("v.select(0, 0)", 2), ("v.detach()", 1)]
# and of a complex one (its real views then take the real ops)
_COMPLEX_VIEWS = [("v.real", 0), ("v.imag", 0), ("torch.view_as_real(v)", 0), ("v.conj()", 0),
                  ("v[1:]", 1), ("v[0]", 2), ("v.t()", 2)]
_MODES = ["", "with torch.no_grad():", "with torch.no_grad():\n    with torch.enable_grad():",
          "with torch.inference_mode():", "with torch.set_grad_enabled(False):",
          "with torch.enable_grad():\n    with torch.no_grad():"]
_WRITES = ["add_(s)", "mul_(s)", "copy_(s.expand(t.shape))", "add_(1)", "mul_(2)",
           "zero_()", "sub_(s, alpha=2)"]


def _indent(mode: str, body: str) -> str:
    if not mode:
        return body
    depth = mode.count("\n") + 1
    return mode + "\n" + "    " * depth + body


def program(seed: int) -> str:
    """One random program (its source), the same text run on both libraries."""
    rng = random.Random(seed)
    lines, complex_root = _diff.view_root(rng, 0.3, _PRELUDE)
    for _ in range(rng.randint(3, 8)):
        kind = rng.random()
        j = f"views[{rng.randrange(0, 4)} % len(views)]"
        if kind < 0.45:  # a view, in a random mode
            src, need = rng.choice(_COMPLEX_VIEWS + _REAL_VIEWS if complex_root else
                                   _REAL_VIEWS)
            mode = rng.choice(_MODES)
            body = f"v = {j}\nif v.dim() >= {need} and v.numel() >= 2 and (v.is_complex() or " \
                   f"{'.real' not in src and '.imag' not in src and 'view_as_real' not in src})" \
                   f":\n    views.append({src})"
            lines.append("def make():\n" + "\n".join(
                "    " + ln for ln in _indent(mode, body.replace("\n", "\n" + "    " * (
                    mode.count("\n") + 1 if mode else 0))).split("\n")))
            lines.append("step(make)")
        elif kind < 0.8:  # an in-place write, with grad on or not
            write = rng.choice(_WRITES)
            mode = rng.choice(["", "", "with torch.no_grad():"])
            body = f"t = {j}\nt.{write}"
            lines.append("def write():\n" + "\n".join(
                "    " + ln for ln in _indent(mode, body.replace("\n", "\n" + "    " * (
                    1 if mode else 0))).split("\n")))
            lines.append("step(write)")
        else:  # what a learner would look at
            lines.append(f"obs.append(facts({j}))")
    return _diff.observe_and_backward(lines, "s.grad")


@pytest.mark.parametrize("seed", range(200))
def test_random_modes_and_writes(seed):
    _diff.same(program(seed))


@pytest.mark.parametrize("src", [
    # .real / .imag / view_as_real / conj of a complex tensor that needs no grad, written with
    # a value that requires grad: the base's node is CopySlices, the view's the replay on it
    *[f"z = torch.zeros(3, dtype=torch.{dt})\nw = torch.ones(3, requires_grad=True, "
      f"dtype=torch.{'float32' if dt == 'complex64' else 'float64'})\nr = {view}\nr.{w}\n"
      "result = (walk(z.grad_fn), walk(r.grad_fn), z._version, r.requires_grad)\n"
      "(z * torch.tensor([1+2j, 3-1j, 2j], dtype=z.dtype)).real.sum().backward()\n"
      "result = result + (w.grad,)"
      for dt in ("complex64", "complex128")
      for view in ("z.real", "z.imag", "z[1:].real", "z.conj().imag", "z.conj()",
                   "torch.view_as_real(z)[:, 1]", "z.conj().real[1:]")
      for w in ("mul_(2).add_(w[:r.shape[0]])", "copy_(w[:r.shape[0]] * 2)")],
    # a view taken before another view wrote its base: used, read, written in turn
    "x = torch.tensor([2., 3.], requires_grad=True)\nout = torch.ones(4)\nu = out[1:3]\n"
    "w = out[2:]\nout[:2].mul_(x)\nresult = (u.requires_grad, u.is_leaf, walk(u.grad_fn))\n"
    "w.mul_(x)\n(u * out).sum().backward()\nresult = result + (walk(out.grad_fn), x.grad)",
    "x = torch.tensor([2., 3.], requires_grad=True)\nout = torch.ones(4)\nrows = [out[i] for "
    "i in range(4)]\nrows[0].copy_(x[0])\nresult = (walk(torch.stack(rows).grad_fn),)\n"
    "rows[3].copy_(x[1] * 3)\ntorch.stack(rows).pow(2).sum().backward()\n"
    "result = result + (x.grad,)",
    "x = torch.tensor([2., 3.], requires_grad=True)\nout = torch.ones(2, 2)\nc = out[:, 1]\n"
    "out[0].mul_(x)\nresult = (c[0].grad_fn, c.t().grad_fn, walk(c.grad_fn))",
    *["x = torch.tensor([2., 3.], requires_grad=True)\nout = torch.ones(4)\nu = out[1:3]\n"
      f"out[:2].mul_(x)\n{use}\nresult = (x.grad, out._version)" for use in (
          "u.backward(torch.ones(2))", "result = torch.autograd.grad(u.sum(), x)",
          "torch.add(torch.zeros(2), other=u).sum().backward()",
          "z = torch.zeros(3)\nz[:2] = u\nz.sum().backward()",
          "u.retain_grad()\n(u * 1).sum().backward()\nresult = (u.grad,)",
          "torch.cat([u, out]).pow(2).sum().backward()", "u[0].backward()",
          "u.add_(1)", "u[0] = 5.", "u.mul_(x)", "u.grad_fn\nu.mul_(x)\nout.sum().backward()",
          "with torch.no_grad():\n    u.add_(1)\nresult = (walk(u.grad_fn),)")],
    # the base written itself (no view), with grad or under no_grad: the views' node is remade
    "x = torch.ones(3, requires_grad=True)\nout = torch.zeros(3)\nv = out[1:]\nout.add_(x)\n"
    "result = (walk(v.grad_fn), v._version)",
    "x = torch.ones(3, requires_grad=True)\na = x.clone()\nv = a[1:]\n"
    "with torch.no_grad():\n    a.mul_(2)\nresult = (walk(v.grad_fn), a._version)",
    "x = torch.ones(3, requires_grad=True)\na = x.clone()\nv = a[1:]\nv.detach().mul_(2)\n"
    "result = (walk(v.grad_fn),)",
    # views made under no_grad / inference mode, written with grad on: refused
    "x = torch.ones(3, requires_grad=True)\nout = torch.zeros(4)\n"
    "with torch.no_grad():\n    v = out[1:]\nw = v[1:]\nw.add_(x[1:])",
    "x = torch.ones(3, requires_grad=True)\nout = torch.zeros(4)\n"
    "with torch.no_grad():\n    v = out[1:]\nv.add_(1)\nresult = (out.grad_fn, v.grad_fn)",
    "x = torch.ones(3, requires_grad=True)\nout = torch.zeros(4)\n"
    "with torch.inference_mode():\n    v = out[1:]\nv.add_(x)",
    "x = torch.ones(2, requires_grad=True)\nout = torch.zeros(4)\n"
    "with torch.no_grad():\n    v = out.split(2)[1]\nv.add_(x)",
    "x = torch.ones(2, requires_grad=True)\nout = torch.zeros(4)\nv = out.split(2)[1]\n"
    "with torch.no_grad():\n    w = v[:]\nw.add_(x)",
    "x = torch.ones(1, requires_grad=True)\nout = torch.zeros(4)\n"
    "with torch.no_grad():\n    v = out[1:]\nw = v.split(1)[1]\nw.add_(x)",
    # ... or after their base was written through another view: refused when used
    "x = torch.ones(2, requires_grad=True)\nout = torch.zeros(4)\n"
    "with torch.no_grad():\n    v = out[1:]\nout[:2].add_(x)\nresult = (out.grad_fn,)\nv * 2",
    "x = torch.ones(2, requires_grad=True)\nout = torch.zeros(4)\na, b = out.split(2)\n"
    "out[1:3].mul_(x)\nb.grad_fn",
    "x = torch.ones(2, requires_grad=True)\ny = x.repeat(2).clone()\na, b = y.split(2)\n"
    "y.mul_(2)\nb.grad_fn",
    "x = torch.ones(4, requires_grad=True)\ny = x.clone()\n"
    "with torch.no_grad():\n    v = y[1:]\ny.mul_(2)\nv.grad_fn",
    "x = torch.ones(4, requires_grad=True)\nout = torch.zeros(4)\n"
    "with torch.inference_mode():\n    v = out[1:]\nout.add_(x)\nv.grad_fn",
    # an op that returns its input itself under no_grad (.real of a real tensor) makes no view
    "x = torch.ones(3, requires_grad=True)\ny = x.clone()\nwith torch.no_grad():\n"
    "    r = y.real\n    c = y.conj()\ny.zero_()\nresult = (walk(y.grad_fn), y._base is None, r is y, "
    "c is y, y._is_view())",
    # results whose kernels make views while autograd has grad mode off are no no_grad views
    *["M = torch.linspace(-1, 1, 12).reshape(3, 4).requires_grad_()\n"
      "B = torch.linspace(-2, 2, 24).reshape(2, 3, 4).requires_grad_()\n"
      f"y = {op}\nw = y[1:]\nw.add_(1)\n(y * y).sum().backward()\n"
      "result = (y.grad_fn, w.grad_fn, M.grad, B.grad)" for op in (
          "torch.rot90(M)", "M.roll(1)", "torch.matmul(B, M.t())", "torch.kron(M, M)",
          "torch.nn.functional.conv1d(B, M[:2, :3, None].expand(2, 3, 2))",
          "torch.einsum('bij,kj->bik', B, M)", "torch.tensordot(B, M, ([2], [1]))")],
    # no_grad views stay fine where nothing records
    "x = torch.ones(3, requires_grad=True)\nout = torch.zeros(4)\n"
    "with torch.no_grad():\n    v = out[1:]\n    v.add_(x)\nresult = (out, out.grad_fn, v._version)",
    "out = torch.zeros(4)\nwith torch.no_grad():\n    v = out[1:]\nv.add_(torch.ones(3))\n"
    "result = (out, v.requires_grad)",
])
def test_handpicked(src):
    _diff.same(_diff.WALK_SOURCE + src)


def test_no_grad_view_write_refused_set_grad_enabled():
    # set_grad_enabled as a plain call, not a block
    _diff.same("x = torch.ones(3, requires_grad=True)\nout = torch.zeros(4)\n"
               "torch.set_grad_enabled(False)\nv = out[1:]\ntorch.set_grad_enabled(True)\n"
               "v.add_(x)")


_FRESH = '''
import sys
lib = sys.argv[1]
torch = __import__(lib)
out = torch.zeros(4)
plain_view = torch.Tensor.__dict__.get("_view")
with torch.no_grad():
    v = out[1:]
    a, b = out.split(2)
    with torch.enable_grad():
        w = out[2:]
    u = v.t()
    # (views a kernel takes with its array at hand -- F.linear's weight.t() -- pass it on)
    lin = torch.nn.functional.linear(torch.ones(2, 4), torch.ones(3, 4), torch.ones(3))
    print(list(lin.shape), lin.sum().item())
after_block = torch.Tensor.__dict__.get("_view") is plain_view
x = torch.ones(3, requires_grad=True)  # (the first tensor that requires grad)
for f in (lambda: v.add_(x), lambda: b.add_(x[:2]), lambda: u[1:].add_(x[:2]),
          lambda: w.add_(x[:2])):
    try:
        f()
        print("ok")
    except RuntimeError as e:
        print(type(e).__name__, e)
print(out.grad_fn.name(), out._version, after_block)
'''


def test_no_grad_views_made_before_anything_required_grad():
    # In a fresh interpreter, where nothing recorded yet when the no_grad block ran; the
    # marking of views lasts only for the block (after it, views cost what they did).
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    outs = [subprocess.run([sys.executable, "-c", _FRESH, lib], capture_output=True, text=True,
                           env=env, timeout=120) for lib in ("torch", "tensorviz")]
    assert outs[0].returncode == 0, outs[0].stderr
    assert outs[1].returncode == 0, outs[1].stderr
    assert outs[1].stdout == outs[0].stdout
    assert outs[1].stdout.count("no_grad mode") == 3
