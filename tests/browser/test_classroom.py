"""What a teacher's first demo does, in a real JupyterLab page: show() where it is called,
temporaries without alarms, the playground's canonical "view fails -> contiguous()" demo.
"""
from __future__ import annotations


def _text(locator) -> str:
    return " ".join(locator.inner_text().split())


def test_show_displays_where_it_is_called(open_notebook, artifacts):
    nb = open_notebook("show_here.ipynb", [
        "import tensorviz as torch\na = torch.arange(6).reshape(2, 3)\nw = torch.show(a)",
        "torch.show(a.t())\nprint('after the widget')",
        "for v in (a, a.t()):\n    torch.show(v)",
        "torch.show(a)",
        "w2 = torch.show(a[1])\nw2",
    ])
    for k in range(5):
        nb.run_cell(k)
    counts = []
    for k in range(5):
        out = nb.output(k)
        out.locator(".tv-root").first.wait_for()
        counts.append(out.locator(".tv-root").count())
    assert counts == [1, 1, 2, 1, 1]
    assert "after the widget" in nb.output(1).text_content()
    assert [_text(c) for c in nb.output(2).locator(".tv-card .tv-chip .tv-label").all()] == \
        ["v", "v"]
    nb.output(2).screenshot(path=str(artifacts / "show-in-loop.png"))
    assert nb.errors == []


def test_temporaries_are_calm_and_a_playground_owns_its_tensor(open_notebook, artifacts):
    nb = open_notebook("temporaries.ipynb", [
        "import numpy as np, tensorviz as torch\ntorch.show(torch.tensor(3.5))",
        "torch.show(np.arange(12).reshape(3, 4)[:, ::2])",
        "torch.playground(torch.arange(24).reshape(2, 3, 4))",
        "b = torch.zeros(3)\ntorch.show(b)",
        "del b\nimport gc\n_ = gc.collect()",
    ])
    page = nb.page
    for k in range(5):
        nb.run_cell(k)
    for k in (0, 1):
        out = nb.output(k)
        out.locator(".tv-badge-snapshot").first.wait_for()
        assert out.locator(".tv-banner").count() == 0
        assert out.locator(".tv-badge-freed").count() == 0
        assert out.locator(".tv-cell").count() == (1 if k == 0 else 6)
    nb.output(0).screenshot(path=str(artifacts / "temporary-0d.png"))
    nb.output(1).screenshot(path=str(artifacts / "temporary-numpy.png"))
    # a variable deleted later still says it stopped updating
    nb.output(3).locator(".tv-banner").wait_for()
    assert "no longer exists" in _text(nb.output(3).locator(".tv-banner"))

    pg = nb.output(2)
    pg.locator('.tv-op[data-op="transpose"]').click()
    pg.locator(".tv-pg-input").fill("0, 2")
    pg.locator(".tv-pg-input").press("Enter")
    page.wait_for_function(
        "() => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
        ".tv-pg-step').length === 2")
    assert pg.locator(".tv-pg-error:not([hidden])").count() == 0
    assert "shape (4, 3, 2) stride (1, 4, 12)" in _text(pg.locator(".tv-pg-step").nth(1))
    assert pg.locator(".tv-banner").count() == 0
    pg.screenshot(path=str(artifacts / "playground-on-temporary.png"))
    assert nb.errors == []


def test_playground_view_fails_then_contiguous_demo(open_notebook, artifacts):
    """The canonical demo: t, view(12) fails, contiguous(), view(12) works; clone and t too."""
    nb = open_notebook("view_demo.ipynb", [
        "import tensorviz as torch\nx = torch.arange(12).reshape(3, 4)\np = torch.playground(x)\np",
        "print(p.code)",
    ])
    page = nb.page
    nb.run_cell(0)
    pg = nb.output(0)
    pg.locator(".tv-pg").wait_for()

    def steps(n: int) -> None:
        page.wait_for_function(
            "(n) => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
            ".tv-pg-step').length === n", arg=n)

    def typed(op: str, args: str) -> None:
        pg.locator(f'.tv-op[data-op="{op}"]').click()
        pg.locator(".tv-pg-input").fill(args)
        pg.locator(".tv-pg-input").press("Enter")

    pg.locator('.tv-op[data-op="t"]').click()
    steps(2)
    typed("view", "12")
    pg.locator(".tv-pg-error:not([hidden])").wait_for()
    assert "view size is not compatible" in _text(pg.locator(".tv-pg-error"))
    pg.screenshot(path=str(artifacts / "playground-view-fails.png"))
    pg.locator('.tv-op[data-op="contiguous"]').click()
    steps(3)
    assert pg.locator(".tv-pg-error:not([hidden])").count() == 0
    assert "COPY → new storage #2" in _text(pg.locator(".tv-pg-step").nth(2))
    typed("view", "12")
    steps(4)
    pg.locator('.tv-op[data-op="clone"]').click()
    steps(5)
    typed("index", "::2")
    steps(6)
    pg.locator('.tv-op[data-op="t"]').click()  # t() of a 1-D tensor: itself, no arguments
    steps(7)
    assert pg.locator(".tv-pg-error:not([hidden])").count() == 0
    pg.screenshot(path=str(artifacts / "playground-view-contiguous.png"))
    nb.run_cell(1)
    text = nb.output(1).text_content()
    for line in ("x1 = x0.t()", "x2 = x1.contiguous()", "x3 = x2.view(12)", "x4 = x3.clone()",
                 "x5 = x4[::2]", "x6 = x5.t()"):
        assert line in text
    assert nb.errors == []


def test_a_reopened_notebook_draws_the_latest_picture(lab, browser, artifacts):
    """Saved, closed (kernel shut down) and opened again: every widget draws its last state,
    and the saved static picture (nbviewer, GitHub) is the latest state too."""
    import json

    from browser_harness import Notebook

    lab.write_notebook("reopen.ipynb", [
        "import tensorviz as torch\na = torch.arange(6)\ntorch.show(a, a[::2])",
        "a[0] = 100",
    ])
    nb = Notebook(browser, lab, "reopen.ipynb")
    try:
        nb.run_cell(0)
        nb.run_cell(1)
        out = nb.output(0)
        nb.page.wait_for_function(
            "() => document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) "
            ".tv-slot[data-k=\"0\"]').textContent === '100'")
        assert out.locator(".tv-root").count() == 1  # the saved picture was updated in place
        out.locator('.tv-card[data-t="1"] .tv-cell[data-index="0"]').hover()
        assert "storage[0]" in _text(out.locator(".tv-readout"))
        nb.command("docmanager:save")
        nb.page.wait_for_function(
            "() => !window.jupyterapp.shell.currentWidget.context.model.dirty")
    finally:
        nb.close()
    saved = json.loads((lab.root / "reopen.ipynb").read_text())
    (output,) = saved["cells"][0]["outputs"]
    snapshot = "".join(output["data"]["text/html"])
    assert ">100<" in snapshot, "the saved picture is the state at first display"
    assert "application/vnd.jupyter.widget-state+json" in saved["metadata"].get("widgets", {})

    again = Notebook(browser, lab, "reopen.ipynb")
    try:
        out = again.output(0)
        out.locator(".tv-root").wait_for()
        assert _text(out.locator('.tv-slot[data-k="0"]')) == "100"
        assert out.locator(".tv-card").count() == 2
        assert "model not found" not in out.text_content()
        out.screenshot(path=str(artifacts / "reopened.png"))
        assert again.errors == []
    finally:
        again.close()


def test_what_changed_and_stepping_through_versions(open_notebook, artifacts):
    """`Z[:] = X + Y; Z += X; torch.add(X, Y, out=Z)` in one cell: three versions, not only the
    last; the slots and cells the last write changed are marked; back and forward step."""
    nb = open_notebook("history.ipynb", [
        "import tensorviz as torch\nX = torch.arange(3)\nY = torch.ones(3, dtype=torch.int64)\n"
        "Z = torch.zeros(3, dtype=torch.int64)\ntorch.show(Z, Z[1:])",
        "Z[:] = X + Y\nZ += X\ntorch.add(X, Y, out=Z)",
    ])
    page = nb.page
    nb.run_cell(0)
    out = nb.output(0)
    out.locator(".tv-root").wait_for()
    assert out.locator(".tv-history").count() == 0  # nothing written yet: no history bar
    nb.run_cell(1)
    text = out.locator(".tv-history-text")
    text.wait_for()

    def slots() -> list[str]:
        return [_text(s) for s in out.locator(".tv-slot").all()]

    def changed(selector: str) -> list[str]:
        return [e.get_attribute("data-k") or e.get_attribute("data-index")
                for e in out.locator(f"{selector}.tv-changed").all()]

    assert _text(text) == "version 4 of 4 (now)"
    assert slots() == ["1", "2", "3"]
    assert changed(".tv-slot") == ["1", "2"]  # 3 -> 2 and 5 -> 3 by out=Z
    assert changed('.tv-card[data-t="0"] .tv-cell') == ["1", "2"]
    assert changed('.tv-card[data-t="1"] .tv-cell') == ["0", "1"]  # Z[1:] reads them too
    out.screenshot(path=str(artifacts / "history-latest.png"))

    out.locator('[data-action="hist-back"]').click()
    page.wait_for_function("(e) => e.textContent.startsWith('version 3 of 4')",
                           arg=out.locator(".tv-history-text").element_handle())
    assert slots() == ["1", "3", "5"]  # after Z += X
    assert [_text(c.locator(".tv-v")) for c in
            out.locator('.tv-card[data-t="0"] .tv-cell').all()] == ["1", "3", "5"]
    assert "earlier state" in _text(out.locator(".tv-history-text"))
    out.locator('[data-action="hist-back"]').click()
    page.wait_for_function("(e) => e.textContent.startsWith('version 2 of 4')",
                           arg=out.locator(".tv-history-text").element_handle())
    assert slots() == ["1", "2", "3"] and changed(".tv-slot") == ["0", "1", "2"]
    out.screenshot(path=str(artifacts / "history-back.png"))
    out.locator('[data-action="hist-back"]').click()
    page.wait_for_function("(e) => e.textContent.startsWith('version 1 of 4')",
                           arg=out.locator(".tv-history-text").element_handle())
    assert slots() == ["0", "0", "0"]
    assert out.locator('[data-action="hist-back"]').is_disabled()
    for _ in range(3):
        out.locator('[data-action="hist-forward"]').click()
    page.wait_for_function("(e) => e.textContent === 'version 4 of 4 (now)'",
                           arg=out.locator(".tv-history-text").element_handle())
    assert out.locator('[data-action="hist-forward"]').is_disabled()
    assert nb.errors == []


def test_broadcasting_view(open_notebook, artifacts):
    nb = open_notebook("bcast.ipynb", [
        "import tensorviz as torch\na = torch.arange(3).reshape(3, 1)\nb = torch.arange(4)\n"
        "torch.show_broadcast(a, b)",
    ])
    nb.run_cell(0)
    out = nb.output(0)
    out.locator(".tv-bcast").wait_for()
    assert out.locator(".tv-root").count() == 1
    assert [_text(c) for c in out.locator(".tv-bcast-grow").all()] == ["1 → 4", "– → 3"]
    assert [_text(c) for c in out.locator(".tv-bcast-result").all()] == ["3", "4"]
    assert out.locator(".tv-strip").count() == 2  # the expansions copy nothing
    card = out.locator('.tv-card[data-t="3"]')
    assert _text(card.locator(".tv-label").first) == "b.expand(3, 4)"
    assert "(0, 1) elements" in _text(card.locator(".tv-meta"))
    out.locator('.tv-slot[data-strip="1"][data-k="2"]').hover()
    assert "3 elements here: b.expand(3, 4)[0, 2], b.expand(3, 4)[1, 2], b.expand(3, 4)[2, 2]" \
        in _text(out.locator(".tv-readout"))
    out.screenshot(path=str(artifacts / "broadcast-view.png"))
    assert nb.errors == []


def test_export_the_current_picture(open_notebook, artifacts):
    nb = open_notebook("export.ipynb", [
        "import tensorviz as torch\na = torch.arange(6).reshape(2, 3)\nw = torch.show(a, a.t())",
        "a[0, 0] = 77",
    ])
    nb.run_cell(0)
    nb.run_cell(1)
    out = nb.output(0)
    nb.page.wait_for_function(
        "() => document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) "
        ".tv-slot[data-k=\"0\"]').textContent === '77'")
    for fmt, magic in (("svg", b"<?xml"), ("png", b"\x89PNG")):
        with nb.page.expect_download() as info:
            out.locator(f'[data-action="export-{fmt}"]').click()
        path = artifacts / f"export.{fmt}"
        info.value.save_as(str(path))
        data = path.read_bytes()
        assert data.startswith(magic) and info.value.suggested_filename == f"tensorviz.{fmt}"
        if fmt == "svg":
            text = data.decode()
            # matplotlib keeps each text as a comment: the current values, not the first ones
            assert "<!-- 77 -->" in text and "<!-- B a.t() -->" in text
    assert nb.errors == []
