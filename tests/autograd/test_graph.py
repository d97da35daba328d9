"""The recorded graph against PyTorch's: random programs (chains of differentiable ops,
views and in-place ops on float64 inputs of random layouts) walked node by node side by side
-- names, edges and ``input_nr`` -- with every gradient compared.
"""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz

from ._diff import walk

torch = pytest.importorskip("torch")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

# each step: (name, fn(lib, current, other) -> new current); shapes stay 2-D (3, 4) or
# compatible so that any step may follow any other.  (``where`` is left out: its result's
# strides differ from PyTorch's for a transposed input -- an op-layer layout difference that
# a later reshape turns into a different node.)
STEPS = [
    ("exp", lambda L, x, y: x.clamp(-2, 2).exp()),
    ("sin", lambda L, x, y: x.sin()),
    ("tanh", lambda L, x, y: x.tanh()),
    ("sigmoid", lambda L, x, y: x.sigmoid()),
    ("relu", lambda L, x, y: x.relu()),
    ("neg", lambda L, x, y: -x),
    ("mul2", lambda L, x, y: x * 2),
    ("radd", lambda L, x, y: 1 + x),
    ("square", lambda L, x, y: x ** 2),
    ("sqrt", lambda L, x, y: (x * x + 1).sqrt()),
    ("add_y", lambda L, x, y: x + y),
    ("mul_y", lambda L, x, y: x * y),
    ("sub_y", lambda L, x, y: x - y),
    ("div_y", lambda L, x, y: x / (y * y + 1)),
    ("maximum", lambda L, x, y: L.maximum(x, y)),
    ("softmax", lambda L, x, y: x.softmax(-1)),
    ("clamp", lambda L, x, y: x.clamp(0.2, 0.8)),
    ("t2", lambda L, x, y: x.t().t()),
    ("unsq", lambda L, x, y: x.unsqueeze(0).squeeze(0)),
    ("flip", lambda L, x, y: x.flip(0)),
    ("slice_cat", lambda L, x, y: L.cat([x[:, :2], x[:, 2:]], 1)),
    ("index", lambda L, x, y: x[[2, 0, 1]]),
    ("reshape", lambda L, x, y: x.reshape(4, 3).reshape(3, 4)),
    ("t_reshape", lambda L, x, y: x.t().reshape(3, 4)),
    ("matmul", lambda L, x, y: x @ y.t() @ y),
    ("sum_keep", lambda L, x, y: x.sum(0, keepdim=True) * x),
    ("mean_keep", lambda L, x, y: x - x.mean(1, keepdim=True)),
    ("clone_add_", lambda L, x, y: x.clone().add_(y)),
    ("mul_", lambda L, x, y: (x * 1).mul_(y)),
    ("view_mul_", lambda L, x, y: _view_inplace(x)),
    ("setitem", lambda L, x, y: _setitem(x, y)),
    ("stack_sum", lambda L, x, y: L.stack([x, y]).sum(0)),
    ("expand", lambda L, x, y: x[:1].expand(3, 4) * x),
]


def _view_inplace(x):
    b = x * 1
    b[1:].mul_(3)
    return b


def _setitem(x, y):
    b = x.clone()
    b[0] = y[1]
    return b


def _leaf(lib, values, layout):
    if layout == "t":
        t = lib.tensor(np.ascontiguousarray(values.T), dtype=lib.float64, requires_grad=True)
        return t, t.t()
    if layout == "step":
        big = np.zeros((3, 8))
        big[:, ::2] = values
        t = lib.tensor(big, dtype=lib.float64, requires_grad=True)
        return t, t[:, ::2]
    if layout == "offset":
        t = lib.tensor(np.concatenate([[0.5], values.reshape(-1)]), dtype=lib.float64,
                       requires_grad=True)
        return t, t[1:].view(3, 4)
    t = lib.tensor(values, dtype=lib.float64, requires_grad=True)
    return t, t


def _program(lib, xv, yv, layouts, steps, y_grad):
    x_leaf, x = _leaf(lib, xv, layouts[0])
    y_leaf, y = _leaf(lib, yv, layouts[1])
    if not y_grad:
        y_leaf.requires_grad_(False)
    cur = x
    for i in steps:
        cur = STEPS[i][1](lib, cur, y)
    out = (cur * lib.tensor(np.arange(12.).reshape(3, 4) / 7, dtype=lib.float64)).sum()
    return out, x_leaf, y_leaf


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2 ** 31 - 1),
       steps=st.lists(st.integers(0, len(STEPS) - 1), min_size=1, max_size=6),
       layouts=st.tuples(*[st.sampled_from(["contig", "t", "step", "offset"])] * 2),
       y_grad=st.booleans())
def test_random_programs_match_pytorch(seed, steps, layouts, y_grad):
    rng = np.random.default_rng(seed)
    xv, yv = rng.uniform(-1, 1, (3, 4)), rng.uniform(-1, 1, (3, 4))
    t_out, tx, ty = _program(torch, xv, yv, layouts, steps, y_grad)
    v_out, vx, vy = _program(tensorviz, xv, yv, layouts, steps, y_grad)
    names = [STEPS[i][0] for i in steps]
    assert walk(v_out.grad_fn, tensorviz) == walk(t_out.grad_fn, torch), names
    assert v_out.requires_grad and not v_out.is_leaf
    t_out.backward()
    v_out.backward()
    for t_leaf, v_leaf in ((tx, vx), (ty, vy)):
        if t_leaf.grad is None:
            assert v_leaf.grad is None, names
            continue
        np.testing.assert_allclose(v_leaf.grad.numpy(), t_leaf.grad.numpy(), rtol=1e-9,
                                   atol=1e-12, err_msg=str(names))


PROGRAMS = {
    "mlp": "h = (x @ w.t() + b).relu(); out = h.log_softmax(1).sum()",
    "addmm": "out = torch.addmm(b, x, w.t()).sum()",
    "shared_leaf": "out = (x * x + x).sum()",
    "unused_branch": "a = x * 2; out = (x * 3).sum()",
    "multi_output": "m, i = x.max(1); out = (m * 2).sum() + x.sort(1)[0][:, 0].sum()",
    "chunks": "a, c = x.chunk(2, 1); out = (a * c).sum()",
    "inplace_chain": "y = x * 1; y.add_(1); y.mul_(2); y[0].zero_(); out = y.sum()",
    "retain_reuse": "y = x.exp(); out = (y * y.sum()).mean()",
}


@pytest.mark.parametrize("src", PROGRAMS.values(), ids=PROGRAMS.keys())
def test_program_graphs_match_pytorch(src):
    res = []
    for lib in (torch, tensorviz):
        rng = np.random.default_rng(0)
        ns = {"torch": lib,
              "x": lib.tensor(rng.uniform(-1, 1, (2, 4)), requires_grad=True),
              "w": lib.tensor(rng.uniform(-1, 1, (3, 4)), requires_grad=True),
              "b": lib.tensor(rng.uniform(-1, 1, 3), requires_grad=True)}
        exec(src, ns)  # noqa: S102
        out = ns["out"]
        graph = walk(out.grad_fn, lib)
        out.backward()
        res.append((graph, [None if ns[k].grad is None else ns[k].grad.numpy().round(9).tolist()
                            for k in "xwb"]))
    assert res[1] == res[0]
