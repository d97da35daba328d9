"""Views of a tensor that is armed later (``requires_grad_()``), against PyTorch.

In PyTorch every view is its root's view whether or not anything recorded when it was made:
``a = zeros(4); v = a[1:]; a.requires_grad_()`` leaves ``v`` requiring grad, a leaf whose
``grad_fn`` is None (or ``AsStridedBackward0`` of ``a`` once the family was written since
``v`` was made), whose in-place writes are refused as a view of a leaf -- or as a view made
under no_grad / inference mode / by ``unbind`` -- and whose uses pass no gradient to ``a``.
A view armed itself (``a[0].requires_grad_()``) is still its root's view.  Then: which error
comes first when an in-place write is refused by autograd and by the kernel too; ``set_``,
``fill_diagonal_`` and ``detach_()`` on views; and seeded random programs of all of it.
"""
from __future__ import annotations

import random

import pytest

from tests.autograd import _diff

torch = pytest.importorskip("torch")

_FACTS = _diff.view_prelude(inference=False, type_errors=True)

# (name, root source, view source on ``root``): every kind of view op PyTorch records
_VIEWS = [
    ("slice", "torch.arange(12.).reshape(3, 4)", "root[1:, ::2]"),
    ("select", "torch.arange(12.).reshape(3, 4)", "root[1]"),
    ("view", "torch.arange(12.).reshape(3, 4).clone()", "root.view(2, 6)"),
    ("reshape", "torch.arange(12.).reshape(3, 4).clone()", "root.reshape(-1)"),
    ("transpose", "torch.arange(12.).reshape(3, 4)", "root.t()"),
    ("unbind", "torch.arange(12.).reshape(3, 4)", "root.unbind(1)[2]"),
    ("split", "torch.arange(12.).reshape(3, 4)", "root.split(2)[0]"),
    ("chunk", "torch.arange(12.).reshape(3, 4)", "root.chunk(2, 1)[1]"),
    ("diagonal", "torch.arange(12.).reshape(3, 4)", "root.diagonal()"),
    ("expand", "torch.arange(4.).reshape(1, 4)", "root.expand(3, 4)"),
    ("as_strided", "torch.arange(12.).reshape(3, 4)", "root.as_strided((2, 2), (4, 1), 1)"),
    ("real", "torch.arange(6.).reshape(2, 3).to(torch.complex64)", "root.real"),
    ("imag", "torch.arange(6.).reshape(2, 3).to(torch.complex64)", "root.imag"),
    ("view_as_real", "torch.arange(6.).reshape(2, 3).to(torch.complex64)",
     "torch.view_as_real(root)"),
    ("view_of_view", "torch.arange(12.).reshape(3, 4)", "root[1:].t()[::2]"),
]
# how the view is made, and when its root (or the view itself) is armed
_SCENARIOS = {
    "armed_after": "v = {view}\nroot.requires_grad_()",
    "attribute": "v = {view}\nroot.requires_grad = True",
    "written_then_armed": "v = {view}\nroot.mul_(2)\nroot.requires_grad_()",
    "armed_then_written": "v = {view}\nroot.requires_grad_()\nwith torch.no_grad():\n"
                          "    root.mul_(2)",
    "no_grad_view": "with torch.no_grad():\n    v = {view}\nroot.requires_grad_()",
    "set_grad_enabled": "torch.set_grad_enabled(False)\nv = {view}\n"
                        "torch.set_grad_enabled(True)\nroot.requires_grad_()",
    "inference_view": "with torch.inference_mode():\n    v = {view}\nroot.requires_grad_()",
    "no_grad_view_written": "with torch.no_grad():\n    v = {view}\nroot.requires_grad_()\n"
                            "with torch.no_grad():\n    root.mul_(2)",
    "disarmed": "v = {view}\nroot.requires_grad_()\nroot.requires_grad_(False)",
    "view_armed": "v = {view}\nv.requires_grad_()",
    "no_grad_view_armed": "with torch.no_grad():\n    v = {view}\nv.requires_grad_()",
}
# what is then done with the view
_USES = {
    "facts": "result = (facts(v), facts(root))",
    "child": "w = v[..., :1]\nresult = (facts(w), w._base is root)",
    "no_grad_child": "with torch.no_grad():\n    w = v[..., :1]\nresult = (facts(w),)\n"
                     "w.mul_(2)",
    "use_backward": "out = (v * 2).sum()\nresult = (walk(out.grad_fn),)\nout.backward()\n"
                    "result = result + (root.grad, v.grad if v.is_leaf else None)",
    "inplace": "v.mul_(2)\nresult = (facts(v), facts(root))",
    "inplace_grad_value": "x = torch.tensor(1.5, requires_grad=True)\nv.mul_(x)\n"
                          "result = (facts(v), facts(root))",
    "inplace_no_grad": "with torch.no_grad():\n    v.add_(1)\nresult = (facts(v), facts(root))",
    "setitem": "v[..., 0] = 7.\nresult = (facts(v),)",
    "inplace_bad_shape": "v.add_(torch.ones(5))",
}


def _case(view: str, scenario: str, use: str) -> str:
    root_src, view_src = view
    use_src = _USES[use]
    if "real" in view_src and "mul_(x)" in use_src:
        use_src = use_src.replace("1.5", "1.5, dtype=torch.float32")
    return (_FACTS + f"root = {root_src}\n" + _SCENARIOS[scenario].format(view=view_src)
            + "\n" + use_src)


@pytest.mark.parametrize("use", sorted(_USES))
@pytest.mark.parametrize("scenario", sorted(_SCENARIOS))
@pytest.mark.parametrize("view", _VIEWS, ids=[v[0] for v in _VIEWS])
def test_view_then_armed(view, scenario, use):
    try:
        _diff.same(_case(view[1:], scenario, use))
    finally:
        torch.set_grad_enabled(True)
        import tensorviz
        tensorviz.set_grad_enabled(True)


# --------------------------------------------------------------- which error comes first
_SETUPS = {
    "leaf": "x = torch.zeros(4, requires_grad=True)\nv = x",
    "view_of_leaf": "x = torch.zeros(4, requires_grad=True)\nv = x[:]",
    "multi": "x = torch.zeros(4, requires_grad=True)\nv = (x * 1).split(4)[0]",
    "no_grad_view": "x = torch.zeros(4, requires_grad=True)\nb = x * 1\n"
                    "with torch.no_grad():\n    v = b[:]",
    "inference_view": "x = torch.zeros(4, requires_grad=True)\nb = x * 1\n"
                      "with torch.inference_mode():\n    v = b[:]",
    "armed_after": "x = torch.zeros(4)\nv = x[:]\nx.requires_grad_()",
    "no_grad_armed_after": "x = torch.zeros(4)\nwith torch.no_grad():\n    v = x[:]\n"
                           "x.requires_grad_()",
    "multi_armed_after": "x = torch.zeros(4)\nv = x.unbind()[0].unsqueeze(0).expand(4)\n"
                         "x.requires_grad_()",
    "view_armed": "x = torch.zeros(4)\nv = x[:]\nv.requires_grad_()",
    "plain_no_grad_view": "x = torch.zeros(4)\nwith torch.no_grad():\n    v = x[:]",
    "expand_of_leaf": "x = torch.zeros(1, requires_grad=True)\nv = x.expand(4)",
}
# writes that the kernel refuses too (shape, dtype cast, overlap, bounds, arguments)
_BAD_WRITES = [
    "v.add_(torch.ones(3))", "v.mul_(torch.ones(2, 4))", "v.copy_(torch.ones(5))",
    "v.add_(torch.ones(4, dtype=torch.complex64))",
    "v.copy_(torch.ones(4, dtype=torch.complex64))", "v.add_(torch.ones(4).long().float())",
    "v.clamp_(min=torch.ones(3))", "v.index_add_(0, torch.tensor([7]), torch.ones(1))",
    "v.unsqueeze_(5)", "v.t_()", "v.fill_(torch.ones(2))", "v[torch.tensor([9])] = 1.",
    "v[5] = 1.", "v.copy_(v.flip(0))", "v.addcmul_(torch.ones(3), torch.ones(3))",
    "v.masked_fill_(torch.ones(3, dtype=torch.bool), 1.)", "v.resize_(5)",
    "v.lerp_(torch.ones(3), 0.5)", "v.pow_(torch.ones(3))", "v.uniform_(2, 1)",
    "v.normal_(0, -1)", "v.squeeze_(3)", "v.transpose_(0, 3)", "v.set_(torch.ones(3))",
    "v.fill_diagonal_(1.)", "v += torch.ones(3)", "v *= torch.ones(2, 4)",
    "v.addmv_(torch.ones(4, 3), torch.ones(4))", "v.add_(torch.ones(4, requires_grad=True))",
    "v.add_(torch.ones(3, requires_grad=True))",
    "v.copy_(torch.ones(4, requires_grad=True, dtype=torch.complex64))",
    "v.add_(1)", "v.zero_()", "v.set_(torch.ones(4, requires_grad=True))",
]
# Note: PyTorch's argument parser refuses some calls (``exp_(1)``, ``clamp_(min=1,
# max=tensor)``, ``nan_to_num_(1j)``) before autograd looks; here autograd's check comes
# first for those, and the kernels' own order of overlap and bounds checks differs in places
# (an expanded non-leaf: PyTorch's internal-overlap check comes first for scatter_, put_ ...).


@pytest.mark.parametrize("write", _BAD_WRITES)
@pytest.mark.parametrize("setup", sorted(_SETUPS))
def test_error_order(setup, write):
    # (warnings not compared: PyTorch warns of a complex-to-real copy_ once per process)
    _diff.same(_SETUPS[setup] + "\n" + write + "\nresult = (v._version, x.requires_grad)",
               warnings_too=False)


@pytest.mark.parametrize("src", [
    # set_ is an in-place write for autograd (NotImplemented node, CopySlices through a view)
    "x = torch.zeros(3, 3, requires_grad=True)\nb = x * 1\nv = b[0]\nv.set_(torch.ones(3))\n"
    "result = (walk(v.grad_fn), walk(b.grad_fn), v._version, b._version, v._base is b)",
    "x = torch.zeros(3, requires_grad=True)\ny = torch.ones(3, requires_grad=True)\nb = x * 1\n"
    "b.set_(y)\nresult = (walk(b.grad_fn), b.requires_grad)\nb.sum().backward()",
    "y = torch.ones(3, requires_grad=True)\nb = torch.zeros(3)\nb.set_(y)\n"
    "result = (walk(b.grad_fn), b.requires_grad, b._base)",
    "y = torch.ones(3, requires_grad=True)\nb = torch.zeros(3)\nwith torch.no_grad():\n"
    "    b.set_(y)\nresult = (walk(b.grad_fn), b.requires_grad, b._version)",
    "x = torch.zeros(3, requires_grad=True)\nb = x * 1\nb.set_(b)\nresult = (walk(b.grad_fn),)",
    # fill_diagonal_ is PyTorch's composite: fill_ of as_strided views (CopySlices twice)
    "x = torch.zeros(5, 2, requires_grad=True)\nb = x * 1\nb.fill_diagonal_(1., wrap=True)\n"
    "result = (walk(b.grad_fn), b._version)\nb.sum().backward()\nresult = result + (x.grad,)",
    "x = torch.zeros(3, 3, 3, requires_grad=True)\nb = x * 1\nb.fill_diagonal_(1.)\n"
    "result = (walk(b.grad_fn), b._version, b)",
    "x = torch.zeros(3, 3, requires_grad=True)\nb = x * 1\nwith torch.no_grad():\n"
    "    v = b[:]\nv.fill_diagonal_(1.)",
    "x = torch.zeros(3, 3, requires_grad=True)\nb = x * 1\n"
    "v = b.unbind(1)[0].unsqueeze(1).expand(3, 3)\nv.fill_diagonal_(1.)",
    "x = torch.zeros(3, 3)\nx.fill_diagonal_(torch.tensor(2., requires_grad=True))",
    "x = torch.zeros(3, 3)\nx.fill_diagonal_(torch.tensor([2.]))",
    "x = torch.zeros(3, 3)\nx.fill_diagonal_(torch.tensor(2.))\nresult = x",
    "with torch.inference_mode():\n    x = torch.zeros(3, 3)\nx.fill_diagonal_(3.)",
    "x = torch.zeros(3, 3)\nwith torch.no_grad():\n    x.fill_diagonal_(2.)\n"
    "x.fill_diagonal_(3.)\nresult = (x, x._version)",
    # detach_() of any view is refused (recorded or not, integer too), but not in inference
    # mode; .data and detach() of a view are no views
    *[f"{make}\nresult = (v._is_view(),)\nv.detach_()" for make in (
        "a = torch.zeros(4)\nv = a[1:]", "a = torch.zeros(4)\nwith torch.no_grad():\n"
        "    v = a[1:]", "a = torch.arange(4)\nv = a[1:]", "a = torch.zeros(4)\n"
        "v = a.reshape(2, 2)", "a = torch.zeros(4, requires_grad=True)\nv = a[1:]",
        "a = torch.zeros(4)\nv = a.detach()", "a = torch.zeros(4)\nv = a[1:].data",
        "a = torch.zeros(4)\nwith torch.inference_mode():\n    v = a[1:]\n    v.detach_()")],
    "a = torch.zeros(4, requires_grad=True)\nv = a[1:]\nd = v.data\nd.add_(1)\n"
    "result = (d._is_view(), d._base is None, d._version, v._version, a._version)",
    # the view of a leaf that was disarmed after the view was made: still refused
    "a = torch.zeros(4)\na.requires_grad_()\nv = a[1:]\na.requires_grad_(False)\n"
    "result = (v.requires_grad, v.is_leaf, walk(v.grad_fn))\nv.add_(1)",
    # a view armed, then its root written with a value that requires grad
    "a = torch.zeros(4)\nv = a[1:]\nv.requires_grad_()\nx = torch.ones(3, requires_grad=True)\n"
    "a[1:].add_(x)\nresult = (v.requires_grad, v.is_leaf, walk(v.grad_fn), walk(a.grad_fn))\n"
    "(v * 2).sum().backward()\nresult = result + (x.grad, v.grad)",
    # a parameter made from a view (reshape of a factory result) then trained
    "w = torch.linspace(-1, 1, 6).reshape(2, 3).requires_grad_()\n"
    "result = (w._is_view(), w.is_leaf)\n(w * w).sum().backward()\n"
    "with torch.no_grad():\n    w.sub_(0.1 * w.grad)\n(w * w).sum().backward()\n"
    "result = result + (w.grad, w.is_leaf, w.grad_fn)\nw.add_(1)",
])
def test_handpicked(src):
    _diff.same(_diff.WALK_SOURCE + src)


# --------------------------------------------------------------- random programs
_R_VIEWS = [("v[1:]", 1), ("v[0]", 2), ("v.t()", 2), ("v.view(-1)", 1), ("v.reshape(-1)", 1),
            ("v.transpose(0, -1)", 1), ("v.unbind(0)[-1]", 2), ("v.split(1)[0]", 1),
            ("v.chunk(2)[-1]", 1), ("v.diagonal()", 2), ("v.unsqueeze(0).expand(2, *v.shape)", 1),
            ("v.as_strided((2,), (1,), v.storage_offset())", 1), ("v.select(0, 0)", 2),
            ("v.narrow(-1, 0, 1)", 1), ("v.detach()", 1), ("v[..., ::2]", 1)]
_R_COMPLEX_VIEWS = [("v.real", 0), ("v.imag", 0), ("torch.view_as_real(v)", 0)]
_R_MODES = ["", "", "with torch.no_grad():", "with torch.inference_mode():",
            "with torch.set_grad_enabled(False):"]
_R_WRITES = ["add_(1)", "mul_(s)", "zero_()", "copy_(s.expand(t.shape))", "add_(s)",
             "add_(torch.ones(7))", "mul_(2)", "copy_(torch.ones(t.shape, dtype=torch.complex64))"]


def _block(mode: str, body: str) -> str:
    lines = body.split("\n")
    if mode:
        lines = [mode] + ["    " + ln for ln in lines]
    return "\n".join("    " + ln for ln in lines)


def program(seed: int) -> str:
    """One random program: views in random modes, requires_grad_ on the root or a view (on
    or off), writes with grad on or off, facts, then a backward -- the same text for both."""
    rng = random.Random(seed)
    lines, complex_root = _diff.view_root(rng, 0.25, _FACTS)
    for _ in range(rng.randint(3, 9)):
        kind = rng.random()
        j = f"views[{rng.randrange(0, 5)} % len(views)]"
        if kind < 0.4:
            src, need = rng.choice(_R_VIEWS + _R_COMPLEX_VIEWS if complex_root and
                                   rng.random() < 0.4 else _R_VIEWS)
            real_only = ".real" not in src and ".imag" not in src and "view_as_real" not in src
            body = (f"v = {j}\nif v.dim() >= {need} and v.numel() >= 2 and "
                    f"(v.is_complex() or {real_only}):\n    views.append({src})")
            lines.append("def make():\n" + _block(rng.choice(_R_MODES), body))
            lines.append("step(make)")
        elif kind < 0.55:
            flag = rng.random() < 0.8
            lines.append(f"def arm():\n    {j}.requires_grad_({flag})")
            lines.append("step(arm)")
        elif kind < 0.8:
            write = rng.choice(_R_WRITES)
            body = f"t = {j}\nt.{write}"
            lines.append("def write():\n" + _block(rng.choice(["", "", "with torch.no_grad():"]),
                                                   body))
            lines.append("step(write)")
        else:
            lines.append(f"obs.append(facts({j}))")
    return _diff.observe_and_backward(lines, "(s.grad, root.grad if root.is_leaf else None)")


@pytest.mark.parametrize("seed", range(300))
def test_random_programs(seed):
    _diff.same(program(seed))
