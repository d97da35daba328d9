"""Regenerate ``docs/screenshot.png``: the real widget in JupyterLab, hovered; and with
``--graph``, ``docs/screenshot-graph.png``: the autograd-graph widget stepped through backward;
with ``--training``, ``docs/screenshot-training.png``: the training view after a digits run.

    python tests/browser/make_screenshot.py [output.png]
    python tests/browser/make_screenshot.py --graph [output.png]
    python tests/browser/make_screenshot.py --training [output.png]

Shows ``tensorviz.show(a, a.t(), a[1:, ::2])`` with the pointer on ``a.t()[2, 1]``: the
storage slot it lives in, the same slot in the other views, the stride arrows and the
address formula.
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_harness import REPO, Lab, Notebook, chromium, missing_requirements  # noqa: E402

CODE = ("import tensorviz as torch\n"
        "a = torch.arange(12).reshape(3, 4)\n"
        "torch.show(a, a.t(), a[1:, ::2])")


GRAPH_CODE = ("import tensorviz as torch\n"
              "torch.manual_seed(0)\n"
              "model = torch.nn.Linear(3, 2)\n"
              "x = torch.tensor([[1., -2., 0.5]])\n"
              "h = model(x)\n"
              "h.retain_grad()\n"
              "y = h.tanh()\n"
              "loss = y.sum()\n"
              "d, raw = y.detach(), y.data\n"
              "torch.show_graph(loss, params=model)")


TRAINING_CODE = (
    "import tensorviz as torch\n"
    "from sklearn.datasets import load_digits\n"
    "torch.manual_seed(0)\n"
    "X, y = load_digits(return_X_y=True)\n"
    "X, y = torch.tensor(X / 16, dtype=torch.float32), torch.tensor(y)\n"
    "ds = torch.utils.data.TensorDataset(X[:1500], y[:1500])\n"
    "loader = torch.utils.data.DataLoader(ds, batch_size=64, shuffle=True)\n"
    "model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(),\n"
    "                            torch.nn.Linear(64, 10))\n"
    "optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)\n"
    "view = torch.show_training(model, optimizer, epochs=3, loader=loader, title='MLP')\n"
    "for epoch in range(3):\n"
    "    for xb, yb in loader:\n"
    "        optimizer.zero_grad()\n"
    "        out = model(xb)\n"
    "        loss = torch.nn.functional.cross_entropy(out, yb)\n"
    "        loss.backward()\n"
    "        optimizer.step()\n"
    "        view.step(loss, output=out, target=yb)\n"
    "    with torch.no_grad():\n"
    "        out = model(X[1500:])\n"
    "        view.validate(torch.nn.functional.cross_entropy(out, y[1500:]), output=out,\n"
    "                      target=y[1500:])")


def _shrink(out: Path) -> None:
    try:  # 256 colours lose nothing visible on a UI and halve the file
        from PIL import Image

        Image.open(out).convert("RGB").quantize(
            colors=256, method=Image.Quantize.MEDIANCUT,
            dither=Image.Dither.NONE).save(out, optimize=True)
    except ImportError:
        pass
    print(f"wrote {out}")


def _shoot(out: Path, code: str, viewport: tuple, frame: str, ready) -> None:
    """Run ``code`` as one cell in JupyterLab (side bar closed), wait for ``ready(nb,
    cell)``, and save the screenshot of the cell's ``frame`` ("cell" or "output")."""
    reason = missing_requirements()
    if reason:
        raise SystemExit(reason)
    lab = Lab(Path(tempfile.mkdtemp(prefix="tv-shot-")))
    try:
        lab.write_notebook("screenshot.ipynb", [code])
        with chromium() as browser:
            nb = Notebook(browser, lab, "screenshot.ipynb", viewport=viewport, scale=2)
            nb.command("application:toggle-left-area")
            nb.run_cell(0)
            cell = nb.panel.locator(".jp-Cell").first
            ready(nb, cell)
            time.sleep(0.4)  # (the hover/animation settles before the picture)
            target = cell if frame == "cell" else cell.locator(".jp-OutputArea")
            target.screenshot(path=str(out))
            if nb.errors:
                raise SystemExit(f"page errors: {nb.errors}")
            nb.close()
    finally:
        lab.stop()
    _shrink(out)


def graph(out: Path) -> None:
    """The graph of a Linear layer's loss, stepped to the end of backward."""
    def ready(nb, cell):
        root = cell.locator(".jp-OutputArea .tvg-root")
        root.wait_for()
        nb.page.mouse.click(5, 5)
        root.focus()
        nb.page.keyboard.press("End")
        nb.page.wait_for_function("() => document.querySelectorAll("
                                  "'.jp-NotebookPanel:not(.lm-mod-hidden) .tvg-acc')"
                                  ".length === 2")
    _shoot(out, GRAPH_CODE, (1100, 1300), "output", ready)


def training(out: Path) -> None:
    """The training view at the end of three epochs of the digits MLP."""
    def ready(nb, cell):
        cell.locator(".jp-OutputArea .tvt-root").wait_for()
        nb.page.mouse.click(5, 5)
        nb.page.wait_for_function(  # 3 epochs of 24 batches: the last step drawn
            "() => { const w = document.querySelector("
            "'.jp-NotebookPanel:not(.lm-mod-hidden) .tvt-where');"
            " return w && w.dataset.step === '72'; }", timeout=120_000)
    _shoot(out, TRAINING_CODE, (1280, 1100), "output", ready)


def main(out: Path) -> None:
    """The tensor widget with the pointer on ``a.t()[2, 1]``; 1440 px wide: the full layout
    (below 1380 px the compact one)."""
    def ready(nb, cell):
        cell.locator(".tv-root").wait_for()
        nb.page.mouse.click(5, 5)  # leave the editor so no cursor blinks in the shot
        cell.locator('.tv-card[data-t="1"] .tv-cell[data-index="2,1"]').hover()
    _shoot(out, CODE, (1440, 1100), "cell", ready)


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--training"]:
        training(Path(args[1]) if len(args) > 1 else REPO / "docs" / "screenshot-training.png")
    elif args[:1] == ["--graph"]:
        graph(Path(args[1]) if len(args) > 1 else REPO / "docs" / "screenshot-graph.png")
    else:
        main(Path(args[0]) if args else REPO / "docs" / "screenshot.png")
