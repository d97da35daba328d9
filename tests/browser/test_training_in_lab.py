"""The training and batch views in a real JupyterLab page at 1280 × 800: the training view
updates while the loop is still running (one output, not one per batch), ends on the kernel's
last step, shows gradient norms per layer and per parameter, a validation curve, the
optimizer's state and zero_grad; the batch view draws indices → samples → collate → batch
with real worker ids and moves between batches with the keyboard.  Screenshots (light and dark) go to test-artifacts/browser/."""
from __future__ import annotations

from browser_harness import Notebook

SEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"

SETUP = """\
import os
import tensorviz as torch
from sklearn.datasets import load_digits
digits = load_digits()
X = torch.tensor(digits.data, dtype=torch.float32) / 16
y = torch.tensor(digits.target)
dataset = torch.utils.data.TensorDataset(X, y)
loader = torch.utils.data.DataLoader(dataset, batch_size=64, shuffle=True)
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.ReLU(), torch.nn.Linear(32, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_fn = torch.nn.CrossEntropyLoss()"""

# runs until the test (having seen the view update live) drops the flag file
LOOP = """\
view = torch.show_training(model, opt, epochs=50, loader=loader)
steps = 0
for epoch in range(50):
    for xb, yb in loader:
        opt.zero_grad()
        out = model(xb)
        loss = loss_fn(out, yb)
        loss.backward()
        opt.step()
        view.step(loss, output=out, target=yb)
        steps += 1
        if steps % 4 == 0:
            with torch.no_grad():
                vo = model(X[:256])
                view.validate(loss_fn(vo, y[:256]), output=vo, target=y[:256])
        if os.path.exists("stop.flag"):
            break
    if os.path.exists("stop.flag"):
        break"""

REPORT = "print('kernel steps', steps)"

BATCHES = """\
shuffled = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X.view(-1, 8, 8), y),
                                       batch_size=6, shuffle=True, num_workers=2)
batches = torch.show_batches(shuffled, batches=4)"""


def _step(page) -> int:
    return int(page.evaluate(f"document.querySelector('{SEL} .tvt-where').dataset.step"))


def _running(page, index: int) -> bool:
    return page.evaluate(
        "(i) => window.jupyterapp.shell.currentWidget.content.widgets[i].node"
        ".querySelector('.jp-InputArea-prompt').textContent.includes('*')", index)


def test_training_view_updates_during_the_loop(lab, browser, artifacts):
    lab.write_notebook("training.ipynb", [SETUP, LOOP, REPORT, BATCHES])
    (lab.root / "stop.flag").unlink(missing_ok=True)
    nb = Notebook(browser, lab, "training.ipynb", viewport=(1280, 800))
    try:
        page = nb.page
        nb.run_cell(0)
        # start the loop without waiting for it to end
        nb.panel.locator(".jp-Cell").nth(1).locator(".cm-content").click()
        page.keyboard.press("Control+Enter")
        out = nb.output(1)
        out.locator(".tvt-root").wait_for()
        running_at = (f"(n) => {{ const w = document.querySelector('{SEL} .tvt-where');"
                      " const p = window.jupyterapp.shell.currentWidget.content.widgets[1].node"
                      ".querySelector('.jp-InputArea-prompt');"
                      " return w && +w.dataset.step >= n && p.textContent.includes('*'); }")
        page.wait_for_function(running_at, arg=5, timeout=60_000)
        first = _step(page)
        # a later update arrives while the same cell is still running: live, not at the end
        page.wait_for_function(running_at, arg=first + 1, timeout=60_000)
        second = _step(page)
        assert second > first and _running(page, 1)
        assert out.locator(".tvt-svg polyline").count() >= 2
        out.screenshot(path=str(artifacts / "training-running.png"))
        (lab.root / "stop.flag").write_text("stop")
        page.wait_for_function(
            "() => { const c = window.jupyterapp.shell.currentWidget.content.widgets[1];"
            " return c.model.executionCount && !c.node.querySelector('.jp-InputArea-prompt')"
            ".textContent.includes('*'); }", timeout=60_000)
        nb.wait_idle()
        nb.run_cell(2)
        kernel_steps = int(nb.output(2).inner_text().split()[-1])
        # the last update is flushed when the cell ends: the page shows the kernel's count
        page.wait_for_function(f"(n) => +document.querySelector('{SEL} .tvt-where')"
                               ".dataset.step === n", arg=kernel_steps)
        # one output for the whole loop: no flood of prints or widgets
        assert out.locator(".jp-OutputArea-child").count() == 1
        assert out.locator(".tvt-gradrow").count() == 4
        assert [r.get_attribute("data-param") for r in out.locator(".tvt-gradrow").all()] == \
            ["0.weight", "0.bias", "2.weight", "2.bias"]
        # per layer: the two Linear layers, each followed by its weight and bias
        assert [r.get_attribute("data-layer") for r in out.locator(".tvt-layerrow").all()] \
            == ["0", "2"]
        assert "0 Linear" in out.locator(".tvt-layerrow").first.inner_text()
        # validation: a dashed curve on both charts, its last value in the caption
        if kernel_steps >= 4:
            assert out.locator(".tvt-svg polyline.tvt-val").count() == 2
            assert int(out.locator('.tvt-chart[data-chart="loss"]')
                       .get_attribute("data-validation")) == kernel_steps // 4
            assert "validation" in out.locator('.tvt-chart[data-chart="loss"] .tvt-value')\
                .inner_text()
        assert out.locator('.tvt-zero[data-zero="none"]').count() == 1
        assert "is None for all 4 parameters" in out.locator(".tvt-zero").inner_text()
        rows = [r.get_attribute("data-row") for r in out.locator(".tvt-table tr[data-row]").all()]
        assert rows == ["before", ".grad", "state[momentum_buffer]", "after",
                        "after − before"]
        where = out.locator(".tvt-where").inner_text()
        assert "/50" in where and f"step {kernel_steps}" in where
        # the watched parameter, chosen with the keyboard
        select = out.locator("select.tvt-watch")
        select.focus()
        select.select_option("2.bias")
        page.wait_for_function(f"() => document.querySelector('{SEL} .tvt-optim')"
                               ".textContent.includes('watching 2.bias: the next')")
        box = out.bounding_box()
        assert box and box["width"] <= 1280
        out.screenshot(path=str(artifacts / "training-light.png"))
        nb.command("apputils:change-theme", {"theme": "JupyterLab Dark"})
        page.wait_for_function("document.body.dataset.jpThemeLight === 'false' && "
                               "!document.querySelector('#jupyterlab-splash')")
        out.screenshot(path=str(artifacts / "training-dark.png"))

        # the batch view: four batches from two worker processes
        nb.run_cell(3)
        bout = nb.output(3)
        bout.locator(".tvb-root").wait_for()
        tabs = bout.locator(".tvb-tab")
        assert tabs.count() == 4
        workers = [t.locator(".tvb-worker").get_attribute("data-worker") for t in tabs.all()]
        assert workers == ["0", "1", "0", "1"]
        assert bout.locator(".tvb-sample").count() == 6
        assert bout.locator(".tvb-sample .tvb-img").count() == 6
        assert "tensor(6, 8, 8) torch.float32" in bout.locator(".tvb-batch").last.inner_text()
        assert bout.locator(".tvb-sample .tvb-part").first.get_attribute("title") == \
            "tensor(8, 8) torch.float32"
        bout.screenshot(path=str(artifacts / "batches-dark.png"))
        nb.command("apputils:change-theme", {"theme": "JupyterLab Light"})
        page.wait_for_function("document.body.dataset.jpThemeLight === 'true' && "
                               "!document.querySelector('#jupyterlab-splash')")
        selected = bout.locator('.tvb-tab[aria-selected="true"]').get_attribute("data-batch")
        assert selected == "3"
        bout.locator('.tvb-tab[aria-selected="true"]').focus()
        page.keyboard.press("ArrowRight")  # wraps around to batch 0
        page.wait_for_function(f"() => document.querySelector('{SEL} .tvb-body')"
                               ".dataset.batch === '0'")
        assert bout.locator(".tvb-body").get_attribute("data-batch") == "0"
        bout.screenshot(path=str(artifacts / "batches-light.png"))
        assert nb.errors == []
    finally:
        nb.close()


def _lesson_cells(name: str) -> list[str]:
    import json

    from browser_harness import REPO

    nb = json.loads((REPO / "notebooks" / name).read_text())
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def _run_all(lab, browser, name: str):
    """Open notebook ``name`` at 1280x800, Run All, and wait until every code cell has run."""
    nb = Notebook(browser, lab, name, viewport=(1280, 800))
    try:
        nb.command("notebook:run-all-cells")
        nb.wait_idle(90_000)
        nb.page.wait_for_function(
            "() => window.jupyterapp.shell.currentWidget.content.widgets.every("
            "c => c.model.type !== 'code' || c.model.executionCount)", timeout=90_000)
    except BaseException:
        nb.close()
        raise
    return nb


def test_lessons_09_and_11_draw_their_views(lab, browser, artifacts):
    """Lessons 09 and 11, Run All in JupyterLab: both training views end on the last batch
    (5 epochs of 24), the batch views show worker processes, the windows share a strip."""
    cells = _lesson_cells("09_nn_training.ipynb")
    lab.write_notebook("lesson09.ipynb", cells)
    nb = _run_all(lab, browser, "lesson09.ipynb")
    try:
        page = nb.page
        for index in [i for i, c in enumerate(cells) if "torch.show_training(" in c]:
            nb.panel.locator(".jp-Cell").nth(index).scroll_into_view_if_needed()
            out = nb.output(index)
            out.locator(".tvt-root").wait_for()
            page.wait_for_function(
                "(i) => { const c = window.jupyterapp.shell.currentWidget.content.widgets[i];"
                " const w = c.node.querySelector('.tvt-where');"
                " return w && w.dataset.step === '120'; }", arg=index)
            assert "epoch 5/5 · batch 24/24" in out.locator(".tvt-where").text_content()
            assert out.locator(".tvt-table tr[data-row^='state[']").count() >= 1
            out.screenshot(path=str(artifacts / f"lesson09-training-{index}.png"))
        cnn = nb.output(next(i for i, c in enumerate(cells) if 'watch="conv.weight"' in c))
        rows = [r.get_attribute("data-row") for r in cnn.locator(".tvt-table tr").all()][1:]
        assert rows == ["before", ".grad", "state[exp_avg]", "state[exp_avg_sq]", "after",
                        "after − before"]
        at = next(i for i, c in enumerate(cells) if "torch.show(img, top_left" in c)
        nb.panel.locator(".jp-Cell").nth(at).scroll_into_view_if_needed()
        windows = nb.output(at)
        windows.locator(".tv-root").wait_for()
        assert windows.locator(".tv-strip").count() == 1  # three views, one storage
        windows.screenshot(path=str(artifacts / "lesson09-windows.png"))
        assert nb.errors == []
    finally:
        nb.close()

    cells = _lesson_cells("11_data.ipynb")
    lab.write_notebook("lesson11.ipynb", cells)
    nb = _run_all(lab, browser, "lesson11.ipynb")
    try:
        page = nb.page
        index = next(i for i, c in enumerate(cells) if "batch_view = torch.show_batches" in c)
        nb.panel.locator(".jp-Cell").nth(index).scroll_into_view_if_needed()
        out = nb.output(index)
        out.locator(".tvb-root").wait_for()
        # the later cell trained on the view: its tabs now end with the epoch's last batch
        page.wait_for_function(
            "(i) => { const c = window.jupyterapp.shell.currentWidget.content.widgets[i];"
            " const t = c.node.querySelectorAll('.tvb-tab');"
            " return t.length === 16 && t[15].dataset.batch === '33'; }", arg=index)
        workers = {t.get_attribute("data-worker") for t in out.locator(".tvb-tab .tvb-worker").all()}
        assert workers == {"0", "1"}
        out.screenshot(path=str(artifacts / "lesson11-workers.png"))
        assert nb.errors == []
    finally:
        nb.close()


def test_training_view_updates_during_the_loop_in_notebook7(lab, browser, artifacts):
    import pytest

    pytest.importorskip("notebook", reason="Notebook 7 is not installed")
    from test_widgets_in_notebook7 import NOTEBOOK7_OWN_ERRORS

    lab.write_notebook("training7.ipynb", [SETUP, LOOP, REPORT])
    (lab.root / "stop.flag").unlink(missing_ok=True)
    nb = Notebook(browser, lab, "training7.ipynb", ui="notebook", viewport=(1280, 800))
    try:
        page = nb.page
        nb.run_cell(0)
        nb.panel.locator(".jp-Cell").nth(1).locator(".cm-content").click()
        page.keyboard.press("Control+Enter")
        out = nb.output(1)
        out.locator(".tvt-root").wait_for(timeout=60_000)
        running_at = ("(n) => { const w = document.querySelector('.tvt-where');"
                      " const p = window.jupyterapp.shell.currentWidget.content.widgets[1].node"
                      ".querySelector('.jp-InputArea-prompt');"
                      " return w && +w.dataset.step >= n && p.textContent.includes('*'); }")
        page.wait_for_function(running_at, arg=3, timeout=60_000)
        first = _step_anywhere(page)
        page.wait_for_function(running_at, arg=first + 1, timeout=60_000)
        (lab.root / "stop.flag").write_text("stop")
        page.wait_for_function(
            "() => { const c = window.jupyterapp.shell.currentWidget.content.widgets[1];"
            " return c.model.executionCount && !c.node.querySelector('.jp-InputArea-prompt')"
            ".textContent.includes('*'); }", timeout=60_000)
        nb.wait_idle()
        nb.run_cell(2)
        kernel_steps = int(nb.output(2).inner_text().split()[-1])
        page.wait_for_function("(n) => +document.querySelector('.tvt-where').dataset.step === n",
                               arg=kernel_steps)
        assert out.locator(".jp-OutputArea-child").count() == 1
        page.screenshot(path=str(artifacts / "training-notebook7.png"))
        assert [e for e in nb.errors if e not in NOTEBOOK7_OWN_ERRORS] == []
    finally:
        (lab.root / "stop.flag").unlink(missing_ok=True)
        nb.close()


def _step_anywhere(page) -> int:
    return int(page.evaluate("document.querySelector('.tvt-where').dataset.step"))
