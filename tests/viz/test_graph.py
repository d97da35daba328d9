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
from vizhelpers import graph_nodes

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
    assert _widget_graph(w) == graph_nodes(pt_root)


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


def test_hooks_and_retain_grad_taps_are_listed_where_backward_fires_them():
    x = tensorviz.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()

    def double(g):
        return g * 2

    y.register_hook(double)
    loss = y.sum()
    loss.grad_fn.register_hook(lambda gi, go: None)
    x.register_post_accumulate_grad_hook(lambda t: None)
    w = GraphView(loss, labels=["loss"], live=False, names={id(x): "x"})
    from tensorviz.viz._graph_view import _output_names
    by_name = {n["name"]: n for n in w.graph["nodes"]}
    mul = by_name["MulBackward0"]
    assert [t["kind"] for t in mul["taps"]] == ["tensor hook", "retain_grad"]
    assert mul["taps"][0]["fn"] == "double"
    assert [t["kind"] for t in by_name["SumBackward0"]["taps"]] == ["hook"]
    leaf = by_name["torch::autograd::AccumulateGrad"]
    assert [t["kind"] for t in leaf["taps"]] == ["post-accumulate hook"]
    # the tap's name comes from the notebook's variables
    names = _output_names({"y": y, "loss": loss})
    state = tensorviz.viz._graph.build([loss], ["loss"], out_names=names)
    (mul,) = [n for n in state["nodes"] if n["name"] == "MulBackward0"]
    assert [t.get("tensor") for t in mul["taps"]] == ["y", "y"]
    # the gradient the taps see is PyTorch's (before the hook doubles it)
    px = torch.tensor([1.0, 2.0], requires_grad=True)
    py = px * 3
    py.retain_grad()
    seen = []
    py.register_hook(lambda g: seen.append(g.clone()))
    py.sum().backward()
    ev = [e for e in w.trace["events"] if e["node"] == mul["id"]][0]
    assert [float(v) for v in ev["grads_in"][0]["values"]] == seen[0].tolist()
    assert "⚡" in w.to_html() and "retain_grad" in w.to_html()


def test_saved_slots_stay_after_backward_with_retain_graph():
    x = tensorviz.tensor([1.0, 2.0], requires_grad=True)
    loss = x.exp().sum()
    w = GraphView(loss, labels=["loss"], live=False)
    loss.backward(retain_graph=True)
    w.refresh()
    (saved,) = [s for n in w.graph["nodes"] for s in n["saved"] if "version" in s]
    assert saved["released"] is False and w.trace["error"] == ""
    loss.backward()
    w.refresh()
    (saved,) = [s for n in w.graph["nodes"] for s in n["saved"] if "version" in s]
    assert saved["released"] is True and "second time" in w.trace["error"]


def test_family_detach_shares_the_version_counter_and_data_does_not():
    from tensorviz.viz._graph import family

    def program(L):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = x.sigmoid()
        return x, y, y.sum()

    x, y, loss = program(tensorviz)
    d, raw = y.detach(), y.data
    w = GraphView(loss, labels=["loss"], live=False)
    order = tensorviz.viz._graph.walk([loss.grad_fn])[0]
    fam = {f["name"]: f for f in family(order, [loss], ["loss"],
                                        [("d", d), ("raw", raw), ("y", y)])}
    assert set(fam) == {"d", "raw"}  # y itself is in the graph
    assert fam["d"]["kind"] == "shared" and fam["raw"]["kind"] == "own"
    assert "result saved by SigmoidBackward0" in fam["d"]["of"]
    # what PyTorch does with the same writes: through detach() backward raises, .data not
    for name, expect_error in (("d", True), ("raw", False)):
        px, py, ploss = program(torch)
        alias = py.detach() if name == "d" else py.data
        alias.mul_(2)
        raised = False
        try:
            ploss.backward()
        except RuntimeError as exc:
            raised = "modified by an inplace operation" in str(exc)
        assert raised is expect_error, name
        x, y, loss = program(tensorviz)
        alias = y.detach() if name == "d" else y.data
        w = GraphView(loss, labels=["loss"], live=False)
        alias.mul_(2)
        w.refresh()
        stale = [s["stale"] for n in w.graph["nodes"] for s in n["saved"] if "version" in s]
        assert stale == [expect_error]
        assert ("modified by an inplace operation" in w.trace["error"]) is expect_error
    with tensorviz.inference_mode():
        inf = tensorviz.ones(2)
    fam = family(order, [loss], ["loss"], [("inf", inf)])
    assert fam[0]["kind"] == "inference" and torch.ones(1).is_inference() is False


def test_no_grad_and_inference_mode_blocks_are_recorded_in_a_notebook():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        shell.run_cell("import tensorviz as torch\n"
                       "x = torch.tensor([1., 2.], requires_grad=True)\n"
                       "loss = (x * x).sum()\n"
                       "g = torch.show_graph(loss)", store_history=True)
        shell.run_cell("with torch.no_grad():\n"
                       "    z = x * 2\n"
                       "    x.mul_(3)\n", store_history=True)
        shell.run_cell("with torch.inference_mode():\n"
                       "    t = torch.ones(2)\n", store_history=True)
        g = shell.user_ns["g"]
        regions = g.graph["regions"]
        assert [r["mode"] for r in regions] == ["no_grad", "inference_mode"]
        assert [m["name"] for m in regions[0]["made"]] == ["z"]
        assert "requires_grad=False" in regions[0]["made"][0]["text"]
        assert [(w["name"], w["from"], w["to"]) for w in regions[0]["written"]] == [("x", 0, 1)]
        assert "inference tensor" in regions[1]["made"][0]["text"]
        # PyTorch agrees: z is not recorded, the write under no_grad is counted, t is an
        # inference tensor
        px = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.no_grad():
            pz = px * 2
            px.mul_(3)
        with torch.inference_mode():
            pt = torch.ones(2)
        assert pz.requires_grad is False and pz.grad_fn is None and px._version == 1
        assert pt.is_inference()
        # the write made the saved x stale: the stamp is red
        stale = [s["stale"] for n in g.graph["nodes"] for s in n["saved"] if "version" in s]
        assert True in stale
        g.close()
    finally:
        InteractiveShell.clear_instance()


def test_a_real_torch_graph_is_drawn_and_replayed():
    model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Tanh())
    x = torch.tensor([[1.0, -2.0, 0.5]])
    loss = model(x).pow(2).sum()
    w = GraphView(loss, labels=["loss"], params=model, live=False)
    assert w.graph["torch"] is True
    assert _widget_graph(w) == graph_nodes(loss)
    labels = sorted(n["label"] for n in w.graph["nodes"] if n["kind"] == "leaf")
    assert labels == ["0.bias", "0.weight"]
    tanh = [n for n in w.graph["nodes"] if n["name"] == "TanhBackward0"][0]
    assert [s["name"] for s in tanh["saved"]] == ["result"] and not tanh["saved"][0]["stale"]
    # the replay's gradients are PyTorch's, and .grad is left alone
    assert w.trace["error"] == "" and all(p.grad is None for p in model.parameters())
    loss.backward(retain_graph=True)
    for n in w.graph["nodes"]:
        if n["kind"] == "leaf":
            (ev,) = [e for e in w.trace["events"] if e["node"] == n["id"]]
            p = dict(model.named_parameters())[n["label"]]
            np.testing.assert_allclose([float(v) for v in ev["grad_after"]["values"]],
                                       p.grad.reshape(-1)[:8].numpy(), rtol=1e-3)
    # an in-place write to the saved tanh output: the stamp turns red, backward would raise
    out = loss.grad_fn.next_functions[0][0]
    saved = out._saved_self
    saved.mul_(2)
    w.refresh()
    tanh = [n for n in w.graph["nodes"] if n["name"] == "TanhBackward0"][0]
    assert tanh["saved"][0]["stale"] and tanh["saved"][0]["live"] == 1
    with pytest.raises(RuntimeError) as err:
        loss.backward()
    assert w.trace["error"] == f"RuntimeError: {err.value}"


def test_a_torch_graph_with_a_gradient_seed_and_freed_slots():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    v = torch.tensor([1.0, 0.5])
    w = GraphView(y, labels=["y"], gradient=v, live=False)
    (leaf,) = [e for e in w.trace["events"] if "grad_after" in e]
    np.testing.assert_allclose([float(s) for s in leaf["grad_after"]["values"]],
                               (v * x.exp()).detach().numpy(), rtol=1e-3)
    y.backward(v)
    w.refresh()
    (saved,) = [s for n in w.graph["nodes"] for s in n["saved"] if "version" in s]
    assert saved["released"] is True
    with pytest.raises(TypeError, match="one library"):
        GraphView(y, tensorviz.ones(1), live=False)


def test_import_tensorviz_does_not_import_torch():
    import subprocess
    import sys

    code = ("import sys, tensorviz, tensorviz.viz._graph, tensorviz.viz._graph_torch; "
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_show_offers_the_graph_of_a_torch_tensor_too():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    view = tensorviz.show(loss)
    assert view.graph_hint.startswith("loss has a grad_fn (SumBackward0)")
    g = view.graph()
    assert g.graph["torch"] and [n["name"] for n in g.graph["nodes"]] == \
        [n for n, _ in graph_nodes(loss)]
    for w in (view, g):
        w.close()


def test_a_torch_graphs_taps_are_shown_and_its_tensor_hooks_sit_out_the_replay():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        shell.run_cell("import torch, tensorviz\n"
                       "fired = []\n"
                       "x = torch.tensor([1., 2.], requires_grad=True)\n"
                       "h = x * 3\n"
                       "h.retain_grad()\n"
                       "def peek(g):\n"
                       "    fired.append('h')\n"
                       "h.register_hook(peek)\n"
                       "x.register_hook(lambda g: fired.append('x'))\n"
                       "loss = h.pow(2).sum()\n"
                       "g = tensorviz.show_graph(loss)")
        ns = shell.user_ns
        g = ns["g"]
        assert ns["fired"] == []  # the replay ran without the learner's hooks
        by_name = {n["name"]: n for n in g.graph["nodes"]}
        assert [(t["kind"], t.get("fn"), t.get("tensor")) for t in
                by_name["MulBackward0"]["taps"]] == [("tensor hook", "peek", "h"),
                                                     ("retain_grad", None, "h")]
        assert [t["kind"] for t in by_name["torch::autograd::AccumulateGrad"]["taps"]] == \
            ["tensor hook"]
        ev = [e for e in g.trace["events"] if e["node"] == by_name["MulBackward0"]["id"]][0]
        assert ev["grads_in"][0]["values"] == ["6.0", "12.0"]
        shell.run_cell("loss.backward()")
        assert ns["fired"] == ["h", "x"]  # and put back: backward runs them
        assert ns["h"].grad.tolist() == [6.0, 12.0]
        g.close()
    finally:
        InteractiveShell.clear_instance()


def test_a_torch_replay_leaves_a_retained_grad_as_it_was():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.retain_grad()
    loss = h.pow(2).sum()
    loss.backward(retain_graph=True)
    before = h.grad
    from tensorviz.viz._graph_view import _output_tensors

    state = tensorviz.viz._graph.build([loss], ["loss"])
    order = state["_order"]
    outputs = _output_tensors({"h": h})
    trace = tensorviz.viz._graph.replay([loss], [None], order, [t for _, t in outputs.values()])
    assert trace["error"] == "" and h.grad is before and h.grad.tolist() == [6.0, 12.0]
    # (without handing h over, PyTorch's autograd.grad would have added into it)
    torch.autograd.grad(loss, [x], retain_graph=True)
    assert h.grad.tolist() == [12.0, 24.0]
