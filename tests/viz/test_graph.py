"""The autograd-graph widget's state: nodes and edges as PyTorch has them, saved-tensor stamps,
the replay of backward (PyTorch's order and gradients, .grad untouched), weak references,
escaping, bounded payloads."""
import gc
import json
import weakref

import numpy as np
import pytest

import tensorviz
from tensorviz.viz._graph_view import GraphView

torch = pytest.importorskip("torch")

PROGRAMS = {
    "mul-sigmoid-sum": lambda L, x, w: (x * w).sigmoid().sum(),
    "matmul-relu-mean": lambda L, x, w: (x.reshape(2, 1) @ w.reshape(1, 2)).relu().mean(),
    "reuse": lambda L, x, w: (x * x + x.exp() * w).sum(),
    "constant-input": lambda L, x, w: (x * L.tensor([2.0, 3.0])).pow(2).sum(),
    "view-inplace": lambda L, x, w: _view_inplace(L, x, w),
}


def _view_inplace(L, x, w):
    y = x * 1.0
    y[0:1].mul_(w[0:1])
    return y.sum()


def _torch_graph(root):
    """(name, [(child index or None, input_nr)]) per node, breadth first, as _graph walks."""
    order, seen, queue = [], {}, [root.grad_fn]
    while queue:
        n = queue.pop(0)
        if n in seen:
            continue
        seen[n] = len(order)
        order.append(n)
        queue += [m for m, _ in n.next_functions if m is not None and m not in seen]
    index = {n: k for k, n in enumerate(order)}
    return [(n.name(), [(None if m is None else index[m], nr) for m, nr in n.next_functions])
            for n in order]


def _make(lib, program):
    x = lib.tensor([0.5, -1.5], requires_grad=True)
    w = lib.tensor([2.0, 0.25], requires_grad=True)
    return x, w, PROGRAMS[program](lib, x, w)


def _widget_graph(w):
    g = w.graph
    out = []
    for n in g["nodes"]:
        edges = [e for e in g["edges"] if e["src"] == n["id"]]
        out.append((n["name"], [(e["dst"], e["input_nr"]) for e in sorted(edges, key=lambda e:
                                                                             e["slot"])]))
    return out


@pytest.mark.parametrize("program", list(PROGRAMS))
def test_nodes_and_edges_are_pytorchs(program):
    *_, tv_root = _make(tensorviz, program)
    *_, pt_root = _make(torch, program)
    w = GraphView(tv_root, labels=["loss"], live=False)
    assert _widget_graph(w) == _torch_graph(pt_root)


@pytest.mark.parametrize("program", list(PROGRAMS))
def test_replay_follows_pytorchs_order_and_gradients_and_leaves_grad_alone(program):
    x, wt, root = _make(tensorviz, program)
    px, pw, proot = _make(torch, program)
    view = GraphView(root, labels=["loss"], live=False, names={id(x): "x", id(wt): "w"})
    # PyTorch's own order: a prehook on every node of its graph
    ran, handles = [], []
    order, seen, queue = [], set(), [proot.grad_fn]
    while queue:
        n = queue.pop(0)
        if n in seen:
            continue
        seen.add(n)
        order.append(n)
        queue += [m for m, _ in n.next_functions if m is not None]
    for k, n in enumerate(order):
        handles.append(n.register_prehook(lambda g, k=k: ran.append(k)))
    proot.backward()  # the order backward() runs the nodes in (AccumulateGrad included)
    want = (px.grad, pw.grad)
    events = view.trace["events"]
    assert [e["node"] for e in events] == ran
    assert view.trace["error"] == ""
    leaves = {n["label"]: n["id"] for n in view.graph["nodes"] if n["kind"] == "leaf"}
    for name, g in zip("xw", want):
        evs = [e for e in events if e["node"] == leaves.get(name)]
        if g is None:
            assert evs == []
            continue
        got = [float(v) for v in evs[0]["grad_after"]["values"]]
        np.testing.assert_allclose(got, g.numpy(), rtol=1e-3)
    assert x.grad is None and wt.grad is None  # the replay never touches .grad


def test_accumulation_shows_before_and_after():
    x = tensorviz.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    loss = (x * x).sum()
    w = GraphView(loss, labels=["loss"], names={id(x): "x"}, live=False)
    (leaf,) = [n for n in w.graph["nodes"] if n["kind"] == "leaf"]
    assert leaf["label"] == "x" and leaf["grad"]["values"] == ["3.0", "3.0"]
    ev = [e for e in w.trace["events"] if e["node"] == leaf["id"]][0]
    assert ev["grad_before"]["values"] == ["3.0", "3.0"]
    assert ev["grad_after"]["values"] == ["5.0", "7.0"]  # 3 + 2x
    assert x.grad.tolist() == [3.0, 3.0]


def test_stamp_turns_red_on_an_inplace_write_and_backward_would_raise():
    x = tensorviz.tensor([1.0, 2.0], requires_grad=True)
    y = x.sigmoid()
    loss = y.sum()
    w = GraphView(loss, labels=["loss"], live=True)
    (saved,) = [s for n in w.graph["nodes"] for s in n["saved"] if s["name"] == "result"]
    assert (saved["version"], saved["live"], saved["stale"]) == (0, 0, False)
    rev = w.revision
    y.mul_(2)  # the storage listener re-reads the stamps at once
    (saved,) = [s for n in w.graph["nodes"] for s in n["saved"] if s["name"] == "result"]
    assert (saved["version"], saved["live"], saved["stale"]) == (0, 1, True)
    assert w.revision > rev
    w.refresh()
    py = torch.tensor([1.0, 2.0], requires_grad=True).sigmoid()
    pl = py.sum()
    py.mul_(2)
    with pytest.raises(RuntimeError) as err:
        pl.backward()
    assert w.trace["error"].startswith("RuntimeError: ")
    assert "modified by an inplace operation" in w.trace["error"] and \
        "modified by an inplace operation" in str(err.value)
    w.close()


def test_saved_strip_and_freed_after_backward():
    x = tensorviz.arange(6.0).reshape(2, 3).requires_grad_()
    y = x.t().exp()
    loss = y.sum()
    w = GraphView(loss, labels=["loss"], live=False)
    (saved,) = [s for n in w.graph["nodes"] for s in n["saved"] if "version" in s]
    assert saved["shape"] == [3, 2] and saved["strip"]["on"] == [True] * 6
    loss.backward()
    w.refresh()
    (saved,) = [s for n in w.graph["nodes"] for s in n["saved"] if "version" in s]
    assert saved["released"] is True
    # backward twice: the replay says what PyTorch says
    pl = torch.arange(6.0).reshape(2, 3).requires_grad_().t().exp().sum()
    pl.backward()
    with pytest.raises(RuntimeError) as err:
        pl.backward()
    assert w.trace["error"] == f"RuntimeError: {err.value}"


def test_non_scalar_needs_gradient_and_gradient_is_the_seed():
    x = tensorviz.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    w = GraphView(y, labels=["y"], live=False)
    with pytest.raises(RuntimeError) as err:
        (torch.tensor([1.0, 2.0], requires_grad=True) ** 2).backward()
    assert w.trace["error"] == f"RuntimeError: {err.value}"
    v = tensorviz.tensor([1.0, 0.5])
    w = GraphView(y, labels=["y"], gradient=v, live=False)
    assert w.trace["error"] == "" and w.trace["seeds"][0]["values"] == ["1.0", "0.5"]
    leaf = [e for e in w.trace["events"] if "grad_after" in e][0]
    assert leaf["grad_after"]["values"] == ["2.0", "2.0"]  # v * 2x


def test_params_name_leaves_and_none_inputs_are_stubs():
    lin = tensorviz.nn.Linear(3, 2)
    out = lin(tensorviz.ones(1, 3)).sum()
    w = GraphView(out, labels=["out"], params=lin, live=False)
    labels = sorted(n["label"] for n in w.graph["nodes"] if n["kind"] == "leaf")
    assert labels == ["bias", "weight"]
    assert all(n["param"] for n in w.graph["nodes"] if n["kind"] == "leaf")
    pl = torch.nn.Linear(3, 2)
    pout = pl(torch.ones(1, 3)).sum()
    nones = sum(m is None for n in _torch_nodes(pout) for m, _ in n.next_functions)
    assert sum(e["dst"] is None for e in w.graph["edges"]) == nones


def _torch_nodes(root):
    out, seen, queue = [], set(), [root.grad_fn]
    while queue:
        n = queue.pop(0)
        if n in seen:
            continue
        seen.add(n)
        out.append(n)
        queue += [m for m, _ in n.next_functions if m is not None]
    return out


def test_steps_are_bounded_and_validated():
    x = tensorviz.tensor([1.0], requires_grad=True)
    w = GraphView((x * 2).sum(), labels=["s"], live=False)
    n = len(w.trace["events"])
    assert w.step == -1 and w.step_forward() == 0
    w.play()
    assert w.step == n and w.step_forward() == n
    w._on_front_end_msg(w, {"type": "step", "step": 10 ** 9}, [])
    assert w.step == n
    w._on_front_end_msg(w, {"type": "step", "step": "x"}, [])
    assert w.step == n
    w.reset()
    assert w.step == -1


def test_holds_tensors_weakly_and_escapes_labels():
    x = tensorviz.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    evil = '<img src=x onerror="alert(1)">'
    w = GraphView(loss, labels=[evil], live=True)
    assert evil not in w.to_html() and "&lt;img" in w.to_html()
    ref = weakref.ref(loss)
    del loss
    gc.collect()
    assert ref() is None
    w.refresh()
    assert "no longer exist" in w.status
    w.close()


def test_payload_is_bounded():
    x = tensorviz.ones(1000, requires_grad=True)
    y = x
    for _ in range(100):
        y = y * 1.01
    w = GraphView(y.sum(), labels=["y"], live=False)
    assert len(w.graph["nodes"]) == 64 and w.graph["more"] > 0
    assert w.trace["events"] == [] and "not replayed" in w.trace["note"]
    size = len(json.dumps({"g": w.graph, "t": w.trace}))
    assert size < 100_000, size


def test_show_offers_the_graph_of_a_tensor_with_a_grad_fn():
    x = tensorviz.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    view = tensorviz.show(loss, x)
    assert view.graph_hint.startswith("loss has a grad_fn (SumBackward0): "
                                      "tensorviz.show_graph(loss)")
    g = view.graph()
    assert [n["name"] for n in g.graph["nodes"]] == [loss.grad_fn.name(), "MulBackward0",
                                                     "torch::autograd::AccumulateGrad"]
    assert g.graph["roots"][0]["label"] == "loss"
    plain = tensorviz.show(x)
    assert plain.graph_hint == ""
    with pytest.raises(ValueError, match="grad_fn"):
        plain.graph()
    for w in (view, g, plain):
        w.close()


def test_replay_sets_the_learners_hooks_aside_and_puts_them_back():
    x = tensorviz.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    loss = y.sum()
    fired = []
    x.register_hook(lambda g: fired.append("leaf"))
    loss.grad_fn.register_prehook(lambda g: fired.append("node"))
    w = GraphView(loss, labels=["loss"], live=False)
    assert fired == [] and y.grad is None and x.grad is None
    assert [n["retains"] for n in w.graph["nodes"] if n["name"] == "MulBackward0"] == [[0]]
    assert len(w.trace["events"]) == 3
    loss.backward()  # the learner's own hooks and taps still work
    assert fired == ["node", "leaf"] and y.grad.tolist() == [1.0, 1.0]
    assert x.grad.tolist() == [3.0, 3.0]


def test_complex_gradients_are_summarised():
    from tensorviz.viz._graph import summary

    s = summary(tensorviz.tensor([1 + 2j, 3 - 1j]))
    assert s["values"] == ["1+2j", "3-1j"] and s["shape"] == [2]
