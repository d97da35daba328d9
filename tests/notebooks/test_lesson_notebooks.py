"""Every notebook in notebooks/ runs top to bottom in a fresh kernel: no errors, no warnings,
no stderr, in under 30 s; and each is stored without outputs.

The kernel is this test's own Python (a throwaway kernelspec points at ``sys.executable``), so
the notebooks see the tensorviz under test.  Python's warnings are all shown in the kernel
(``PYTHONWARNINGS=default``), so a deprecation inside a library call fails the test too.
Skips cleanly where nbclient, nbformat or ipykernel are not installed.
"""
from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

pytestmark = pytest.mark.notebooks

NOTEBOOKS_DIR = Path(__file__).resolve().parents[2] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("*.ipynb"))
LESSONS = [nb for nb in NOTEBOOKS if nb.name[:2].isdigit()]
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


def _ids(paths):
    return [p.stem for p in paths]


@pytest.fixture(scope="module")
def jupyter_path(tmp_path_factory):
    """A data dir whose ``kernels/python3`` runs this interpreter, for JUPYTER_PATH."""
    from ipykernel.kernelspec import write_kernel_spec

    root = tmp_path_factory.mktemp("jupyter")
    spec_dir = Path(write_kernel_spec(str(root / "kernels" / "python3")))
    spec = json.loads((spec_dir / "kernel.json").read_text())
    spec["argv"][0] = sys.executable
    # this checkout's tensorviz, whatever the kernel's working directory (an installed copy
    # elsewhere must not be the one tested)
    spec["env"] = {"PYTHONWARNINGS": "default", "PYTHONPATH": str(NOTEBOOKS_DIR.parent)}
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    return root


def execute(path: Path, workdir: Path):
    """Run a notebook in a fresh kernel (nbclient starts it and shuts it down)."""
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(workdir)}})
    start = time.perf_counter()
    client.execute()
    return nb, time.perf_counter() - start


def problems(nb) -> list[str]:
    """Error outputs, stderr and anything that looks like a warning, per cell."""
    found = []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            kind = out.get("output_type")
            if kind == "error":
                found.append(f"cell {i}: {out.get('ename')}: {out.get('evalue')}")
            elif kind == "stream" and out.get("name") == "stderr":
                found.append(f"cell {i}: stderr: {out.get('text', '')[:500]}")
            else:
                text = out.get("text") or out.get("data", {}).get("text/plain", "")
                text = "".join(text) if isinstance(text, list) else text
                if "Warning:" in text or "warnings.warn" in text:
                    found.append(f"cell {i}: warning in output: {text[:500]}")
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_runs_clean(path, jupyter_path, tmp_path, monkeypatch, record_property):
    monkeypatch.setenv("JUPYTER_PATH", str(jupyter_path))
    nb, seconds = execute(path, tmp_path)
    record_property("seconds", round(seconds, 2))
    print(f"{path.name}: {seconds:.1f} s")
    assert problems(nb) == []
    shown = [o for c in nb.cells for o in c.get("outputs", [])
             if WIDGET_MIME in o.get("data", {})]
    assert shown, f"{path.name} displays no live widget"
    # A widget's status says when its tensors were freed (say a copy passed straight to
    # show()) or could not be refreshed: a lesson must end with every widget healthy.
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
    unhealthy = [m["state"]["status"] for m in state.get("state", {}).values()
                 if m.get("state", {}).get("status")]
    assert unhealthy == [], f"{path.name}: {unhealthy}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_is_stored_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"cell {i} of {path.name} has stored outputs"
            assert cell.execution_count is None, f"cell {i} of {path.name} has a count"
    assert "widgets" not in nb.metadata, f"{path.name} stores widget state"


@pytest.mark.parametrize("path", LESSONS, ids=_ids(LESSONS))
def test_lesson_has_a_self_checking_exercise(path):
    nb = nbformat.read(path, as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "import tensorviz as torch" in code
    assert "exercise(" in code, f"{path.name} has no exercise"


def test_every_catalog_exercise_is_used_in_a_lesson():
    from tensorviz.lessons import CATALOG

    code = "\n".join(c.source for nb in LESSONS for c in nbformat.read(nb, as_version=4).cells
                     if c.cell_type == "code")
    unused = [key for key in CATALOG if f'exercise("{key}")' not in code]
    assert unused == []


def test_lesson_sequence_is_complete():
    names = {p.stem for p in LESSONS}
    expected = {"00_welcome", "01_tensors_and_storage", "02_views_transpose_contiguous",
                "03_dtypes_and_precision", "04_numpy_interop", "05_saving_and_loading",
                "06_devices", "07_tensor_api_tour", "08_autograd", "09_nn_training",
                "10_optimizers", "11_data"}
    assert sorted(expected - names) == []


# What each lesson must teach (issue 7), as code it must run: a lesson that loses a topic fails.
TOPICS = {
    "00_welcome": ["torch.show(", "storage()", "stride()", 'exercise("00/'],
    "01_tensors_and_storage": ["torch.zeros(", "torch.arange(", "torch.Tensor(", "torch.tensor(",
                               "storage()", "stride()", "storage_offset()", ".item()",
                               ".dim()"],
    "02_views_transpose_contiguous": [".t()", ".permute(", "is_contiguous()", ".contiguous()",
                                      "id(", "untyped_storage() is", "data_ptr()", ".view(",
                                      ".reshape(", ".expand(", "broadcast_tensors(", "::2",
                                      "x[[0, 2]]", "x[x > 5]", "y[y > 5] = 0",
                                      "torch.show(x, picked, chosen)", "show_broadcast("],
    "03_dtypes_and_precision": [".double()", ".to(torch.", ".type(torch.", "promote_types(",
                                "torch.float16", "finfo(", "torch.uint8", "get_sample_data(",
                                ".permute(2, 0, 1)", ".permute(0, 2, 3, 1)"],
    "04_numpy_interop": [".numpy()", "torch.from_numpy(", "torch.tensor(n)", "torch.show(",
                         "float64"],
    "05_saving_and_loading": ["torch.save(", "torch.load(", "untyped_storage() is",
                              "import torch as pytorch", "pytorch.load(", "pytorch.save(",
                              "h5py.File(", "chunks="],
    "06_devices": ["torch.cuda.is_available()", "torch.device(", ".to(device)", ".cuda()"],
    "07_tensor_api_tour": ["torch.abs(", ".sum(", "torch.eq(", "torch.linalg.", "@",
                           "torch.manual_seed(", "mul_(", "Z[:] =", "out=Z"],
    "08_autograd": ["torch.show_graph(", "requires_grad=True", ".is_leaf", "grad_fn",
                    "next_functions", ".backward()", "retain_grad()", "torch.no_grad()",
                    "x.add_(1)", "retain_graph=True", "gradient=", "_saved_self"],
    "09_nn_training": ["load_digits(", "nn.Module", "named_parameters()", "state_dict()",
                       "optimizer.zero_grad()", "loss.backward()", "optimizer.step()",
                       "torch.show_training(", "view.step(", "momentum_buffer", "exp_avg",
                       "nn.Conv2d(", ".unfold(", "torch.show(img, top_left, window_2_3)", "torch.save(",
                       "load_state_dict(", "pytorch.load(path, weights_only=True)"],
    "11_data": ["torch.utils.data.Dataset", "__getitem__", "__len__", "DataLoader(",
                "default_collate(", "collate_fn=", "shuffle=True", "drop_last=True",
                "num_workers=2", "get_worker_info()", "torch.show_batches(",
                "torch.Generator().manual_seed("],
    "10_optimizers": ["torch.optim.SGD(", "momentum=", "torch.optim.Adam(", "opt.zero_grad()",
                      "opt.step()", '["momentum_buffer"]', '"exp_avg_sq"', "ax.contour(",
                      "lr_scheduler.StepLR(", "lr_scheduler.ExponentialLR(",
                      "lr_scheduler.CosineAnnealingLR(", "sched.get_last_lr()",
                      "torch.show_graph("],
}


@pytest.mark.parametrize("path", LESSONS, ids=_ids(LESSONS))
def test_lesson_covers_its_topics(path):
    nb = nbformat.read(path, as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    missing = [piece for piece in TOPICS[path.stem] if piece not in code]
    assert missing == [], f"{path.name} no longer runs {missing}"


@pytest.mark.parametrize("path", LESSONS, ids=_ids(LESSONS))
def test_lesson_has_an_answer_box_exercise(path):
    """At least one exercise with an answer to type or pick and a Check button (a checker
    exercise alone has no Check button: the learner calls ex.check in code)."""
    from tensorviz.lessons import exercise

    nb = nbformat.read(path, as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    keys = re.findall(r'exercise\("([^"]+)"\)', code)
    assert any(exercise(key).checker is None for key in keys), f"{path.name}: {keys}"


def test_links_between_notebooks_resolve():
    broken = []
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                for target in re.findall(r"\]\(([^)#]+\.ipynb)", cell.source):
                    if not (NOTEBOOKS_DIR / target).is_file():
                        broken.append(f"{path.name} -> {target}")
    assert broken == []


@pytest.mark.parametrize("path", LESSONS, ids=_ids(LESSONS))
def test_each_exercise_has_its_own_handle(path):
    """After Run All, `ex_x.check(...)` still checks exercise x: one name per exercise (a
    shared `ex` would hold only the last exercise run)."""
    from tensorviz.lessons import handle

    nb = nbformat.read(path, as_version=4)
    bound: dict[str, str] = {}
    for i, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
        for name, key in re.findall(r'^(\w+) = exercise\("([^"]+)"\)', cell.source, re.M):
            assert name == handle(key), f"{path.name}: {name} holds {key}"
            assert name not in bound, f"{path.name}: {name} bound twice"
            bound[name] = key
        for name in re.findall(r"(\w+)\.check\(", cell.source):
            assert name in bound, f"{path.name}: {name}.check before {name} is bound"
        assert not re.search(r"\bex\b", cell.source), f"{path.name}: a shared `ex`"


@pytest.mark.parametrize("path", LESSONS, ids=_ids(LESSONS))
def test_a_prediction_is_asked_before_the_lesson_reveals_it(path):
    from tensorviz.lessons import CATALOG

    nb = nbformat.read(path, as_version=4)
    cells = [c.source for c in nb.cells]
    for key, spec in CATALOG.items():
        asked = [i for i, s in enumerate(cells) if f'exercise("{key}")' in s]
        if not asked:
            continue
        for text in spec.get("revealed_by", []):
            shown = [i for i, s in enumerate(cells) if text in s]
            assert shown, f"{key}: {text!r} is not in {path.name} any more"
            assert min(shown) > asked[0], f"{path.name} shows {text!r} before asking {key}"


def test_run_all_checks_each_exercise_against_itself(jupyter_path, tmp_path, monkeypatch):
    """Lesson 01 with a correct storage_index, run top to bottom: its check (which runs after
    later exercises were created) says Right, not the 0-dim exercise's verdict."""
    from tensorviz.lessons import CATALOG

    monkeypatch.setenv("JUPYTER_PATH", str(jupyter_path))
    path = NOTEBOOKS_DIR / "01_tensors_and_storage.ipynb"
    nb = nbformat.read(path, as_version=4)
    solution = CATALOG["01/storage-index"]["solution"].replace("answer = storage_index", "")
    (cell,) = [c for c in nb.cells if "storage_index = None" in c.source]
    cell.source = cell.source.replace(cell.source.splitlines()[0], solution)
    nb.cells = nb.cells + [nbformat.v4.new_code_cell(cell.source)]  # again, after Run All
    work = tmp_path / "01.ipynb"
    nbformat.write(nb, work)
    done, _ = execute(work, tmp_path)
    for c in (done.cells[nb.cells.index(cell)], done.cells[-1]):
        text = "".join(o.get("data", {}).get("text/plain", "") for o in c.outputs)
        assert text.startswith("✔ Right."), text
