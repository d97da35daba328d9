"""What a saved notebook holds: the widget view plus a static HTML snapshot (nbconvert, GitHub)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("anywidget", reason="the widget tests need anywidget")
nbclient = pytest.importorskip("nbclient", reason="needs nbclient to run a kernel")
nbformat = pytest.importorskip("nbformat")

REPO = Path(__file__).resolve().parents[2]


def test_executed_notebook_keeps_a_static_snapshot(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "import tensorviz as torch\na = torch.arange(12).reshape(3, 4)\n"
        "torch.show(a, a.t(), a[1:, ::2])")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    (out,) = nb.cells[0].outputs
    data = out["data"]
    assert "application/vnd.jupyter.widget-view+json" in data
    html = data["text/html"]
    assert "storage #1" in html and "a[1:, ::2]" in html and "@10" in html
    assert data["text/plain"].startswith("TensorView(a: shape (3, 4)")
    # the widget state is saved with the notebook, so a later front end can draw it too
    state = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    assert any(m["state"].get("kind") == "view" for m in state.values())


def _run(cells: list[str], tmp_path) -> list:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    return [c.outputs for c in nb.cells]


def _widgets(outputs) -> list[str]:
    """The text/plain of every widget output, in order."""
    return [o["data"]["text/plain"] for o in outputs
            if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]


def test_show_displays_where_it_is_called_and_only_once(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    cells = _run([
        "import tensorviz as torch\na = torch.arange(6).reshape(2, 3)\nw = torch.show(a)",
        "torch.show(a.t())\nprint('after')",
        "for v in (a, a.t()):\n    torch.show(v)",
        "torch.show(a)",
        "w2 = torch.show(a[1])\nw2",
        "w.refresh()\nw",                     # a handle shown again in a later cell
        "type(w).__name__, w2.tensors[0]['label']",
    ], tmp_path)
    assert [len(_widgets(c)) for c in cells[:6]] == [1, 1, 2, 1, 1, 1]
    assert _widgets(cells[1])[0].startswith("TensorView(a.t(): shape (3, 2)")
    kinds = [o["output_type"] for o in cells[1]]
    assert kinds == ["display_data", "stream"]  # the widget first, then what print wrote
    assert [w.split(":")[0] for w in _widgets(cells[2])] == ["TensorView(v", "TensorView(v"]
    assert "('TensorView', 'a[1]')" in cells[6][0]["data"]["text/plain"]


def test_the_wheel_ships_jupyterlabs_save_widget_state_default():
    """Without saved widget state a reopened notebook says "model not found" for every widget;
    the wheel installs a JupyterLab settings default (overrides.d) that saves it."""
    import json

    tomllib = pytest.importorskip("tomllib")

    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    shared = project["tool"]["hatch"]["build"]["targets"]["wheel"]["shared-data"]
    (source, target), = shared.items()
    assert target == "share/jupyter/lab/settings/overrides.d/tensorviz.json"
    settings = json.loads((REPO / source).read_text())
    assert settings["@jupyter-widgets/jupyterlab-manager:plugin"]["saveState"] is True
