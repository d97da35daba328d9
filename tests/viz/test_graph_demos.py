"""The classroom demo's graph programs: each runs on tensorviz and on PyTorch, and the graph
widget draws PyTorch's nodes and edges and tells what backward would do."""
import pytest

from tensorviz.viz._graph_demos import GRAPH_DEMOS, graph_demo, run_demo
from vizhelpers import graph_nodes

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("title", list(GRAPH_DEMOS))
def test_demo_draws_pytorchs_graph_and_backward(title):
    view = graph_demo(title, live=False, grow=False)  # (the program's graph only)
    _code, roots, seed = GRAPH_DEMOS[title]
    theirs = run_demo(title, torch)
    g = view.graph
    mine = [(n["name"], [(e["dst"], e["input_nr"]) for e in sorted(
        (e for e in g["edges"] if e["src"] == n["id"]), key=lambda e: e["slot"])])
        for n in g["nodes"]]
    assert mine == graph_nodes(theirs[roots[0]])
    # the replay raises exactly when PyTorch's backward raises, with its message
    out = theirs[roots[0]]
    try:
        out.backward(theirs[seed] if seed else None)
        error = ""
    except RuntimeError as exc:
        error = f"RuntimeError: {exc}"
    assert view.trace["error"].replace("tensorviz", "torch") == error
    view.close()


def test_the_demos_show_what_they_say():
    hook = graph_demo("retain_grad and a hook fire during backward", live=False)
    (mul,) = [n for n in hook.graph["nodes"] if n["name"] == "MulBackward0"]
    assert [(t["kind"], t.get("fn"), t.get("tensor")) for t in mul["taps"]] == \
        [("tensor hook", "peek", "h"), ("retain_grad", None, "h")]
    stale = graph_demo("in-place write to a saved tensor (backward would fail)", live=False)
    assert [s["stale"] for n in stale.graph["nodes"] for s in n["saved"] if "version" in s] \
        == [True]
    layer = graph_demo("a Linear layer: parameters by name", live=False)
    assert sorted(n["label"] for n in layer.graph["nodes"] if n["kind"] == "leaf") == \
        ["bias", "weight"]
    vjp = graph_demo("non-scalar output: gradient= is the vector v of vᵀ·J", live=False)
    assert vjp.trace["seeds"][0]["values"] == ["1.0", "0.0", "0.5"]
    with pytest.raises(KeyError, match="choose one of"):
        graph_demo("no such demo")
