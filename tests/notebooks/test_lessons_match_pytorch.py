"""What the lessons show is what PyTorch does: every lesson's code, run with ``torch`` bound to
tensorviz and then to PyTorch, prints the same thing cell by cell.

A lesson that claims a stride, a dtype, an error or a file size teaches it by printing it; this
test makes sure the same program gives PyTorch's answer (up to the module name in reprs).  The
cells run in-process, in order, in one namespace per library; widget calls (``torch.show``,
``torch.playground``) are no-ops under PyTorch.  A few cells differ by nature and are listed in
``NOT_COMPARED`` with the reason (they still run under both).  Skips where PyTorch is missing.
"""
from __future__ import annotations

import ast
import contextlib
import importlib
import io
import json
import os
import re
import sys
import types
import warnings
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytestmark = pytest.mark.notebooks

NOTEBOOKS_DIR = Path(__file__).resolve().parents[2] / "notebooks"
LESSONS = sorted(p for p in NOTEBOOKS_DIR.glob("*.ipynb") if p.name[:2].isdigit())

# (lesson number, a piece of the cell's source): why its output differs from PyTorch's.
NOT_COMPARED = {
    ("01", "torch.manual_seed(0)"): "tensorviz's random generator is not PyTorch's",
    ("07", "torch.manual_seed(0)"): "tensorviz's random generator is not PyTorch's",
    ("07", "torch.Generator().manual_seed(42)"): "tensorviz's random generator is not "
                                                 "PyTorch's",
    ("02", "id(x.t()) == id(x.t())"): "object ids depend on the allocator ('usually True')",
    ("05", "tempfile.mkdtemp"): "a fresh temporary folder's name",
    ("05", "class Model"): "the refusal is worded by each library",
    ("06", "t.cuda()"): "PyTorch built without CUDA raises AssertionError (the lesson says so)",
    ("09", "torch.manual_seed(0)"): "tensorviz's random generator is not PyTorch's",
    ("11", "torch.manual_seed(0)"): "tensorviz's random generator is not PyTorch's",
}
WIDGET_CALLS = ("torch.show_broadcast(", "torch.show_graph(", "torch.show(", "torch.playground(",
                "torch.show_training(", "torch.show_batches(")
# Widgets that draw PyTorch's own objects too: under PyTorch the lesson runs tensorviz's widget
# on PyTorch's model, optimizer or DataLoader (so the loop around it runs unchanged).
DUCK_WIDGETS = {"torch.show_training(": "_tensorviz_viz.show_training(",
                "torch.show_batches(": "_tensorviz_viz.show_batches("}


def _code_cells(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def _normalise(text: str) -> str:
    """PyTorch's spelling of names: tensorviz.int64 -> torch.int64, tensorviz._tensor.Tensor ->
    torch.Tensor, tensorviz.return_types.sort -> torch.return_types.sort."""
    return re.sub(r"\btensorviz(?:\._\w+)*\.", "torch.", text)


def _no_widget(*args, **kwargs):
    return None


def run_lesson(cells: list[str], library: str, name: str) -> list[str]:
    """Each cell's stdout and the repr of its last expression (or its exception)."""
    module = types.ModuleType(f"_lesson_{name}_{library}")  # so pickle finds its classes
    sys.modules[module.__name__] = module
    scope = module.__dict__
    scope["_no_widget"] = _no_widget
    scope["_tensorviz_viz"] = importlib.import_module("tensorviz.viz")
    results = []
    cwd = os.getcwd()
    try:
        for source in cells:
            if library == "torch":
                source = source.replace("import tensorviz as torch", "import torch")
                for call, ours in DUCK_WIDGETS.items():
                    source = source.replace(call, ours)
                for call in WIDGET_CALLS:
                    source = source.replace(call, "_no_widget(")
            out = io.StringIO()
            try:
                tree = ast.parse(source)
                last = None
                if tree.body and isinstance(tree.body[-1], ast.Expr):
                    last = ast.Expression(tree.body.pop().value)
                with contextlib.redirect_stdout(out), warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # PyTorch's own deprecations: not ours
                    exec(compile(tree, name, "exec"), scope)
                    value = eval(compile(last, name, "eval"), scope) if last else None
                shown = "" if value is None else repr(value)
            except Exception as exc:  # the lessons catch what they mean to show
                shown = f"raised {type(exc).__name__}: {exc}"
            results.append(_normalise(out.getvalue() + shown))
    finally:
        os.chdir(cwd)
        sys.modules.pop(module.__name__, None)
        plt = sys.modules.get("matplotlib.pyplot")
        if plt is not None:
            plt.close("all")
    return results


def _reason(lesson: str, source: str) -> str | None:
    if any(call in source for call in WIDGET_CALLS) or "exercise(" in source:
        return "widget"
    for (number, piece), why in NOT_COMPARED.items():
        if number == lesson and piece in source:
            return why
    return None


@pytest.fixture(autouse=True)
def _isolated(monkeypatch):
    """No window for matplotlib; both libraries' global random state as it was before."""
    import tensorviz
    import torch

    monkeypatch.setenv("MPLBACKEND", "Agg")
    states = tensorviz.get_rng_state(), torch.get_rng_state()
    yield
    tensorviz.set_rng_state(states[0])
    torch.set_rng_state(states[1])


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_prints_what_pytorch_prints(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cells = _code_cells(path)
    mine = run_lesson(cells, "tensorviz", path.stem)
    theirs = run_lesson(cells, "torch", path.stem)
    lesson = path.name[:2]
    differences = []
    for source, a, b in zip(cells, mine, theirs):
        if a.startswith("raised ") and _reason(lesson, source) is None:
            differences.append(f"--- raised in tensorviz:\n{source}\n{a}")
        elif a != b and _reason(lesson, source) is None:
            differences.append(f"--- cell:\n{source}\n+++ tensorviz:\n{a}\n+++ PyTorch:\n{b}")
    assert not differences, "\n".join(differences)


def test_not_compared_entries_name_real_cells():
    """A stale entry would silently stop nothing; each one must still match a cell."""
    sources = {p.name[:2]: "\n".join(_code_cells(p)) for p in LESSONS}
    stale = [key for key in NOT_COMPARED if key[1] not in sources.get(key[0], "")]
    assert stale == []
