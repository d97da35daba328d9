"""The autograd-graph widget in Jupyter Notebook 7: it renders, steps through backward (a
retain_grad tap fires on the way), turns a saved tensor's stamp red after an in-place write
under no_grad (and marks that block), and grows when a later cell computes more."""
from __future__ import annotations

import pytest

from browser_harness import Notebook

pytest.importorskip("notebook", reason="Notebook 7 is not installed (pip install 'tensorviz[test]')")

# Notebook 7's own errors while loading (see test_widgets_in_notebook7.py): not the widget's.
NOTEBOOK7_OWN_ERRORS = ("Cannot read properties of undefined (reading 'schema')",
                        "Command 'filebrowser:open-path' not registered.")
SEL = ".jp-NotebookPanel"  # (Notebook 7: one notebook per page)


def _text(locator) -> str:
    return " ".join(locator.text_content().split())


def _wait_text(page, selector: str, piece: str) -> None:
    page.wait_for_function(
        "([s, p]) => [...document.querySelectorAll(s)].some(e => e.textContent.includes(p))",
        arg=[selector, piece], timeout=60_000)


def test_graph_renders_steps_grows_and_marks_stale_in_notebook7(lab, browser, artifacts):
    lab.write_notebook("graph_nb7.ipynb", [
        "import tensorviz as torch\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "y = x.exp()\n"
        "y.retain_grad()\n"
        "loss = y.sum()\n"
        "g = torch.show_graph(loss)",
        "d, raw = y.detach(), y.data",
        "with torch.no_grad():\n"
        "    y.mul_(2)",
        "z = loss * 3",
    ])
    nb = Notebook(browser, lab, "graph_nb7.ipynb", ui="notebook")
    page = nb.page
    try:
        nb.run_cell(0)
        out = nb.output(0)
        out.locator(".tvg-root").wait_for(timeout=60_000)
        names = [_text(n) for n in out.locator(".tvg-node .tvg-name").all()]
        assert names == ["SumBackward0", "ExpBackward0", "AccumulateGrad"]
        assert _text(out.locator(".tvg-leafname")) == "x (2,)"
        page.wait_for_function(f"() => document.querySelectorAll('{SEL} .tvg-edge').length"
                               " === 2")
        exp = out.locator('.tvg-node[data-name="ExpBackward0"]')
        assert "v0 at save · v0 now" in _text(exp.locator(".tvg-saved"))
        assert _text(exp.locator(".tvg-tap")) == "retain_grad: y.grad"
        page.screenshot(path=str(artifacts / "nb7-graph-idle.png"))

        # step through backward: seed, SumBackward0, ExpBackward0 (the tap fires), the leaf
        step = out.locator(".tvg-step")
        for _ in range(3):
            step.click()
        page.wait_for_function(f"() => document.querySelector('{SEL} .tvg-active')?.dataset"
                               ".name === 'ExpBackward0'", timeout=60_000)
        assert _text(exp.locator(".tvg-tap.tvg-fired")) == "⚡ retain_grad: y.grad = [1.0, 1.0]"
        assert "Fires: retain_grad: y.grad = [1.0, 1.0]" in _text(out.locator(".tvg-explain"))
        step.click()
        page.wait_for_function(f"() => document.querySelectorAll('{SEL} .tvg-acc').length"
                               " === 1", timeout=60_000)
        assert _text(out.locator(".tvg-acc")).startswith(".grad None += [2.718")
        assert step.is_disabled()
        page.screenshot(path=str(artifacts / "nb7-graph-stepped.png"))

        # detach() joins the saved tensor's version counter, .data does not
        nb.run_cell(1)
        _wait_text(page, f"{SEL} .tvg-fam-shared", "d shares memory and the version counter")
        assert "result saved by ExpBackward0" in _text(out.locator(".tvg-fam-shared"))
        own = out.locator(".tvg-fam-own")
        assert _text(own.locator(".tvg-mode-badge")) == "own counter"
        assert "raw shares memory with result saved by ExpBackward0 but has its own version " \
            "counter (v0)" in _text(own)

        # an in-place write under no_grad: counted all the same, the stamp turns red
        nb.run_cell(2)
        page.wait_for_function(f"() => document.querySelectorAll('{SEL} .tvg-stamp.tvg-stale')"
                               ".length === 1", timeout=60_000)
        assert _text(out.locator(".tvg-stamp.tvg-stale")) == "v0 at save · v1 now"
        _wait_text(page, f"{SEL} .tvg-region-written", "y, d: v0 → v1, an in-place write")
        assert "the version counter they share" in _text(out.locator(".tvg-region-written"))
        assert _text(out.locator(".tvg-region-head")).startswith("with torch.no_grad():")
        assert "modified by an inplace operation" in _text(out.locator(".tvg-error"))
        page.screenshot(path=str(artifacts / "nb7-graph-stale.png"))

        # a later cell computing from the shown tensor grows the graph
        nb.run_cell(3)
        page.wait_for_function(f"() => document.querySelector('{SEL} .tvg-title').textContent"
                               ".includes('loss, z')", timeout=60_000)
        assert out.locator(".tvg-node").count() == 4
        page.screenshot(path=str(artifacts / "nb7-graph-grown.png"))
        assert [e for e in nb.errors if e not in NOTEBOOK7_OWN_ERRORS] == []
    finally:
        nb.close()
