"""The engine's layers (docs/engine.md): each core module imports, at module level, only the
layers above it in the table, and the function-level imports do not tie modules into a knot.

Each module is imported in a fresh interpreter with the ``tensorviz`` package itself
replaced by an empty one, so only that module's own imports run (``import tensorviz`` would
load everything first and hide an upward import).
"""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# docs/engine.md's layer table, top to bottom: a module may import its own layer and those
# above it.  (A package's __init__ belongs to the layer of its modules.)
LAYERS = [
    ("_chalf",),
    ("_dtypes", "_layout", "_size", "_device", "_grad_mode", "return_types"),
    ("backends", "backends._flags", "backends._numpy", "backends._cupy", "backends._meta",
     "_scalars",
     "_printing",
     "_autograd_meta"),
    ("_storage",),
    ("_tensor",),
    ("_indexing",),
    ("_dispatch",),
    ("_creation", "_random"),
    ("ops", "ops._elementwise", "ops.views", "ops.conversion", "ops.pointwise",
     "ops.numeric", "ops.comparison", "ops.reductions", "ops.indexing", "ops.joining",
     "ops.linalg", "ops.spectral", "ops.random", "ops.parallel", "ops.special_functions",
     "ops._args", "ops._keywords", "ops._stdsort"),
    ("cuda", "serialization", "accelerator", "testing"),
]
LAYER_OF = {f"tensorviz.{m}": i for i, layer in enumerate(LAYERS) for m in layer}
# The namespaces take the spellings that ``import tensorviz`` installs: below everything.
NAMESPACES = ("tensorviz.linalg", "tensorviz.fft", "tensorviz.special")

_PROBE = """
import importlib, json, sys, types
pkg = types.ModuleType("tensorviz")
pkg.__path__ = [sys.argv[1]]
sys.modules["tensorviz"] = pkg
importlib.import_module(sys.argv[2])
print(json.dumps(sorted(m for m in sys.modules if m.startswith("tensorviz."))))
"""


def _graph():
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "tools" /
                                                  "import_graph.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_core_module_has_a_layer():
    core = {m for m in _graph().modules() if m.count(".") == 1 or m.startswith(
        ("tensorviz.ops.", "tensorviz.backends."))}
    # (the packages above the engine: autograd, nn, optim, utils.data, widgets, lessons)
    core -= {"tensorviz.viz", "tensorviz.lessons", "tensorviz.autograd", "tensorviz.nn",
             "tensorviz.optim", "tensorviz.utils", "tensorviz._serialization"}
    assert sorted(core - set(LAYER_OF) - set(NAMESPACES)) == []


@pytest.mark.parametrize("name", sorted(LAYER_OF, key=LAYER_OF.get))
def test_module_imports_only_layers_above(name):
    run = subprocess.run([sys.executable, "-c", _PROBE, str(ROOT / "tensorviz"), name],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, f"importing {name} alone fails:\n{run.stderr}"
    loaded = json.loads(run.stdout.strip().splitlines()[-1])
    below = [m for m in loaded if LAYER_OF.get(m, len(LAYERS)) > LAYER_OF[name]]
    assert below == [], f"{name} imports modules of lower layers at module level: {below}"


def test_no_module_level_cycle_among_core_modules():
    graph = _graph()
    knots = [k for k in graph.knots(("module",)) if set(k) & set(LAYER_OF)]
    assert knots == []


def test_function_level_imports_make_no_knot_larger_than_three():
    knots = _graph().knots(("module", "function"))
    assert [len(k) for k in knots if len(k) > 3] == [], knots
