"""A graph is freed by reference counting alone, as PyTorch's is: when the last tensor that
reaches it goes, its nodes and saved arrays go at once -- not at the cyclic collector's next
pass, which would keep each training step's activations alive into the next steps."""
from __future__ import annotations

import gc
import weakref

import pytest

import tensorviz as tv
import tensorviz.nn as nn
import tensorviz.nn.functional as F


@pytest.fixture
def no_cyclic_gc():
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _programs():
    def mlp_step():
        tv.manual_seed(0)
        model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 3))
        x, y = tv.randn(5, 8), tv.tensor([0, 1, 2, 1, 0])
        loss = F.cross_entropy(model(x), y)
        return loss, [loss.grad_fn]

    def generic_ops():
        a = tv.randn(4, 3, requires_grad=True)
        b = (a * 2).exp().sum(1).log_softmax(0)
        c = b[1:].sin() + a.t()[0, :3]
        return c, [b.grad_fn, c.grad_fn]

    def views_and_inplace():
        a = tv.randn(6, requires_grad=True)
        b = a * 1
        b[2:].mul_(3)
        return b.view(2, 3).tanh(), [b.grad_fn]

    def conv_and_pool():
        tv.manual_seed(1)
        net = nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        out = net(tv.randn(2, 1, 4, 4))
        return out, [out.grad_fn]
    return {"mlp_step": mlp_step, "generic_ops": generic_ops,
            "views_and_inplace": views_and_inplace, "conv_and_pool": conv_and_pool}


def _walk(nodes) -> list:
    """Every node reachable from ``nodes``."""
    seen, todo = {}, list(nodes)
    while todo:
        n = todo.pop()
        if n is not None and id(n) not in seen:
            seen[id(n)] = n
            todo.extend(m for m, _ in n.next_functions)
    return list(seen.values())


@pytest.mark.parametrize("name", list(_programs()))
def test_graph_freed_without_the_cycle_collector(name, no_cyclic_gc):
    out, nodes = _programs()[name]()
    refs = [weakref.ref(n) for n in _walk(nodes)]
    del nodes
    assert all(r() is not None for r in refs)
    del out
    alive = [r() for r in refs if r() is not None]
    assert alive == [], f"nodes kept alive by a reference cycle: {alive}"


def test_backward_then_release_leaves_no_garbage(no_cyclic_gc):
    tv.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 3))
    opt = tv.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x, y = tv.randn(5, 8), tv.tensor([0, 1, 2, 1, 0])
    for _ in range(3):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        found = gc.collect()
        kinds = sorted({type(o).__name__ for o in gc.garbage})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert found == 0, f"cyclic garbage left by training steps: {kinds}"
