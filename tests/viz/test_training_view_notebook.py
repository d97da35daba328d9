"""The training and batch views in a kernel (nbclient): one output per view, whose saved HTML
picture is the state at the end of the cells that updated it (what a reopened notebook shows)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("anywidget", reason="the widget tests need anywidget")
nbclient = pytest.importorskip("nbclient", reason="needs nbclient to run a kernel")
nbformat = pytest.importorskip("nbformat")

REPO = Path(__file__).resolve().parents[2]
WIDGET = "application/vnd.jupyter.widget-view+json"

CELLS = [
    "import tensorviz as torch\n"
    "ds = torch.utils.data.TensorDataset(torch.randn(40, 4), torch.arange(40) % 3)\n"
    "loader = torch.utils.data.DataLoader(ds, batch_size=8, shuffle=True)\n"
    "model = torch.nn.Linear(4, 3)\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)\n"
    "view = torch.show_training(model, opt, epochs=3, loader=loader)\n"
    "for epoch in range(3):\n"
    "    for xb, yb in loader:\n"
    "        opt.zero_grad()\n"
    "        out = model(xb)\n"
    "        loss = torch.nn.functional.cross_entropy(out, yb)\n"
    "        loss.backward()\n"
    "        opt.step()\n"
    "        view.step(loss, output=out, target=yb)",
    "batches = torch.show_batches(loader, batches=2)",
    "for xb, yb in batches:\n    pass",
]


def test_views_keep_one_output_with_the_final_static_picture(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    (out,) = nb.cells[0].outputs  # 15 batches, one output
    data = out["data"]
    assert WIDGET in data
    assert data["text/plain"].startswith("TrainingView(epoch 3, batch 5, 15 steps, loss ")
    assert "epoch 3/3 · batch 5/5 · 15 steps" in data["text/html"]
    assert "momentum_buffer" in data["text/html"] and "<svg" in data["text/html"]
    (out,) = nb.cells[1].outputs
    html = out["data"]["text/html"]
    # the later cell iterated the view: the saved picture has that epoch's 5 batches too
    assert "batch 6:" in html and "batch 7:" not in html
    assert "RandomSampler" in html
    assert nb.cells[2].outputs == []
