"""The autograd-graph widget in a real JupyterLab page: it renders the graph, steps through
backward (buttons and keyboard), turns a saved tensor's stamp red after an in-place write, and
grows when a later cell computes more from the shown tensor."""
from __future__ import annotations

SEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"


def _text(locator) -> str:
    return " ".join(locator.inner_text().split())


def test_graph_renders_steps_and_marks_stale_saved_tensors(open_notebook, artifacts):
    nb = open_notebook("graph.ipynb", [
        "import tensorviz as torch\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "w = torch.tensor([3., 4.], requires_grad=True)\n"
        "y = (x * w).sigmoid()\n"
        "loss = y.sum()\n"
        "g = torch.show_graph(loss)",
        "y.mul_(2)",
        "z = loss * 3",
    ])
    page = nb.page
    nb.run_cell(0)
    out = nb.output(0)
    out.locator(".tvg-root").wait_for()
    names = [_text(n) for n in out.locator(".tvg-node .tvg-name").all()]
    assert names == ["SumBackward0", "SigmoidBackward0", "MulBackward0", "AccumulateGrad",
                     "AccumulateGrad"]
    assert sorted(_text(n) for n in out.locator(".tvg-leafname").all()) == ["w (2,)", "x (2,)"]
    page.wait_for_function(f"() => document.querySelectorAll('{SEL} .tvg-edge').length === 4")
    labels = [t.text_content() for t in out.locator(".tvg-edge-label").all()]
    assert labels == ["input_nr 0"] * 4
    saved = out.locator('.tvg-node[data-name="SigmoidBackward0"] .tvg-saved')
    assert "v0 at save · v0 now" in _text(saved)
    assert saved.locator(".tvg-slot.tvg-on").count() == 2
    assert out.locator(".tvg-stale").count() == 0
    out.screenshot(path=str(artifacts / "graph-idle.png"))

    # step through backward: the seed, then SumBackward0, Sigmoid, Mul, the two leaves
    step = out.locator(".tvg-step")
    step.click()
    page.wait_for_function(f"() => document.querySelector('{SEL} .tvg-counter')"
                           ".textContent.startsWith('step 0 / 5')")
    assert "backward() starts from 1.0" in _text(out.locator(".tvg-explain"))
    assert "seed 1.0" in _text(out.locator(".tvg-seeded"))
    out.screenshot(path=str(artifacts / "graph-seed.png"))
    step.click()
    page.wait_for_function(f"() => document.querySelector('{SEL} .tvg-active')?.dataset.name"
                           " === 'SumBackward0'")
    assert "SumBackward0 receives 1.0 and sends input 0 → SigmoidBackward0: [1.0, 1.0]" in \
        _text(out.locator(".tvg-explain"))
    page.wait_for_function(f"() => document.querySelectorAll('{SEL} .tvg-edge.tvg-flow')"
                           ".length === 1")
    out.screenshot(path=str(artifacts / "graph-step1.png"))
    for _ in range(3):
        step.click()
    page.wait_for_function(f"() => document.querySelector('{SEL} .tvg-counter')"
                           ".textContent.startsWith('step 4 / 5')")
    acc = out.locator(".tvg-acc")
    assert acc.count() == 1
    assert _text(acc).startswith(".grad None += [") and "→ [" in _text(acc)
    out.screenshot(path=str(artifacts / "graph-step4.png"))
    first_leaf = out.locator(".tvg-active").get_attribute("data-node")
    step.click()
    page.wait_for_function(f"() => document.querySelectorAll('{SEL} .tvg-acc').length === 2")
    assert step.is_disabled()
    page.wait_for_function(f"() => document.querySelectorAll('{SEL} .tvg-edge.tvg-flow')"
                           ".length === 4")
    page.wait_for_function(f"() => document.querySelector('{SEL} .tvg-active').dataset.node"
                           f" !== '{first_leaf}'")
    assert "5/5 · AccumulateGrad of " in _text(out.locator(".tvg-explain"))
    out.screenshot(path=str(artifacts / "graph-done.png"))
    # the keyboard: Home resets, → steps (and the notebook's active cell stays put)
    active = page.evaluate("window.jupyterapp.shell.currentWidget.content.activeCellIndex")
    out.locator(".tvg-root").focus()
    page.keyboard.press("Home")
    page.wait_for_function(f"() => document.querySelector('{SEL} .tvg-counter')"
                           ".textContent.includes('not started')")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => document.querySelector('{SEL} .tvg-counter')"
                           ".textContent.startsWith('step 0 / 5')")
    assert page.evaluate("window.jupyterapp.shell.currentWidget.content.activeCellIndex") \
        == active
    # .grad was left alone by the replay
    assert out.locator(".tvg-node.tvg-leaf .tvg-grad").first.inner_text().strip() == \
        ".grad = None"

    # an in-place write to a saved tensor: the stamp turns red, backward would raise
    nb.run_cell(1)
    page.wait_for_function(f"() => document.querySelectorAll('{SEL} .tvg-stamp.tvg-stale')"
                           ".length === 1")
    stamp = out.locator(".tvg-stamp.tvg-stale")
    assert _text(stamp) == "v0 at save · v1 now"
    colour = stamp.evaluate("e => getComputedStyle(e).backgroundColor")
    r, gr, b = [int(c) for c in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3]]
    assert r > 150 and gr < 100 and b < 100, colour
    page.wait_for_function(f"() => !document.querySelector('{SEL} .tvg-error').hidden")
    assert "modified by an inplace operation" in _text(out.locator(".tvg-error"))
    out.screenshot(path=str(artifacts / "graph-stale.png"))

    # y.mul_(2) made y the output of a new MulBackward0 (its grad_fn moved on): drawn as a
    # new root; a later cell computing more from the shown tensor grows the graph too
    assert "loss, y" in _text(out.locator(".tvg-title"))
    assert out.locator(".tvg-banner").is_hidden()
    assert out.locator(".tvg-stub").count() == 1  # y * 2: the 2 needs no gradient
    nb.run_cell(2)
    page.wait_for_function(f"() => document.querySelectorAll('{SEL} .tvg-node').length === 7")
    assert "loss, y, z" in _text(out.locator(".tvg-title"))
    out.screenshot(path=str(artifacts / "graph-grown.png"))
    assert nb.errors == []


def test_lesson_08_draws_every_graph_and_the_stale_stamp(open_notebook, artifacts):
    """Lesson 08's code, Run All in JupyterLab: every graph widget renders, the graph whose
    saved `x` was updated in place shows the red stamp and the error backward would raise."""
    import json

    from browser_harness import REPO

    nb_json = json.loads((REPO / "notebooks" / "08_autograd.ipynb").read_text())
    cells = ["".join(c["source"]) for c in nb_json["cells"] if c["cell_type"] == "code"]
    nb = open_notebook("lesson08.ipynb", cells)
    page = nb.page
    nb.command("notebook:run-all-cells")
    shows = sum(c.count("torch.show_graph(") for c in cells)
    page.wait_for_function(f"() => document.querySelectorAll('{SEL} .tvg-root').length"
                           f" === {shows}", timeout=90_000)
    nb.wait_idle(90_000)
    index = next(i for i, c in enumerate(cells) if "stale_graph = torch.show_graph" in c)
    # (JupyterLab draws only the cells near the viewport: scroll there first)
    nb.panel.locator(".jp-Cell").nth(index).scroll_into_view_if_needed()
    out = nb.output(index)
    out.locator(".tvg-stamp.tvg-stale").wait_for()
    # (text_content: inner_text reads '' while JupyterLab is still placing the cells)
    assert out.locator(".tvg-stamp.tvg-stale").text_content() == "v0 at save · v1 now"
    assert "modified by an inplace operation" in out.locator(".tvg-error").text_content()
    out.screenshot(path=str(artifacts / "lesson08-stale.png"))
    at = next(i for i, c in enumerate(cells) if "vjp_graph" in c)
    nb.panel.locator(".jp-Cell").nth(at).scroll_into_view_if_needed()
    vjp = nb.output(at)
    vjp.locator(".tvg-step").click()
    page.wait_for_function(f"() => [...document.querySelectorAll('{SEL} .tvg-explain')]"
                           ".some(e => e.textContent.includes('gradient= [1.0, 0.0, 0.0]'))")
    vjp.screenshot(path=str(artifacts / "lesson08-vjp-seed.png"))
    assert nb.errors == []


def test_a_real_pytorch_model_graph_in_lab(open_notebook, artifacts):
    """show_graph pointed at a real torch.nn model's loss: PyTorch's nodes, parameter names,
    the saved tensors read through `_saved_*`, and the replay's accumulation."""
    import pytest

    pytest.importorskip("torch")
    nb = open_notebook("torch_graph.ipynb", [
        "import torch, tensorviz\n"
        "model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Tanh())\n"
        "loss = model(torch.ones(1, 3)).pow(2).sum()\n"
        "g = tensorviz.show_graph(loss, params=model)",
    ])
    page = nb.page
    nb.run_cell(0)
    out = nb.output(0)
    out.locator(".tvg-root").wait_for()
    assert _text(out.locator(".tvg-title")) == "PyTorch autograd graph of loss"
    leaves = sorted(_text(n) for n in out.locator(".tvg-leafname").all())
    assert leaves[0].startswith("0.bias (2,)") and leaves[1].startswith("0.weight (2, 3)")
    tanh = out.locator('.tvg-node[data-name="TanhBackward0"] .tvg-saved')
    assert _text(tanh.locator(".tvg-stamp")) == "v0 at save · v0 now"
    assert tanh.locator(".tvg-slot.tvg-on").count() == 2
    out.locator(".tvg-root").focus()
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.querySelectorAll('{SEL} .tvg-acc').length === 2")
    out.screenshot(path=str(artifacts / "graph-torch.png"))
    assert nb.errors == []
