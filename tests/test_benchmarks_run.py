"""``benchmarks/run.py --quick`` and ``benchmarks/train_digits.py --quick`` run end to end, so
the benchmark scripts cannot rot.

No timing is asserted: only that every section runs and the table comes out.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "run.py"


def test_quick_run_prints_every_section(tmp_path):
    out_json = tmp_path / "results.json"
    proc = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--json", str(out_json)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    text = proc.stdout
    for heading in ("Tiny ops", "Large ops", "Matrix multiply", "contiguous()", "View ops",
                    "Import time", "Widget state", "CUDA", "Autograd", "Targets met:"):
        assert heading in text, f"{heading!r} missing from:\n{text}"
    data = json.loads(out_json.read_text())
    sections = {r["section"] for r in data["results"]}
    assert {"tiny", "large", "matmul", "contiguous", "views", "import"} <= sections
    assert data["quick"] is True and data["machine"]["numpy"]
    # views never copy, whatever the timing noise
    for r in data["results"]:
        if r["section"] == "views" and r["ok"] is not None:
            assert r["extra"]["shares_storage"] and r["extra"]["bytes_allocated"] == 0, r


TRAIN = SCRIPT.parent / "train_digits.py"


def test_train_digits_quick_run(tmp_path):
    """``benchmarks/train_digits.py --quick`` trains every model for 2 epochs in each library
    from one state and batch order: the table comes out, and tensorviz ends at PyTorch's test
    accuracy (the same training, to float32 rounding). No timing is asserted."""
    pytest.importorskip("sklearn")
    out_json = tmp_path / "train.json"
    proc = subprocess.run([sys.executable, str(TRAIN), "--quick", "--json", str(out_json)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "seconds per epoch" in proc.stdout
    data = json.loads(out_json.read_text())
    assert data["quick"] is True
    assert [r["model"] for r in data["results"]] == ["mlp_sgd", "mlp_adam", "cnn"]
    for r in data["results"]:
        assert r["epochs"] == 2 and r["batches_per_epoch"] == 23
        acc = r["accuracy"]
        assert 0.0 < acc["tensorviz"] <= 1.0
        if "torch_1t" in acc:  # (PyTorch installed: the same training)
            assert abs(acc["tensorviz"] - acc["torch_1t"]) <= 0.02, r
            assert abs(r["final_loss"]["tensorviz"] - r["final_loss"]["torch_1t"]) <= \
                1e-3 * max(1.0, abs(r["final_loss"]["torch_1t"])), r


def test_numpy_reference_step_computes_the_graphs_gradients():
    """The autograd benchmark's numpy column is the MLP step written out in NumPy: it must
    do the work tensorviz's graph does (the same loss and parameter gradients, to float32
    rounding), or its floor would be a floor of something else."""
    import numpy as np

    import tensorviz
    from benchmarks import autograd as ag
    e, n = ag.envs(tensorviz), ag.numpy_env()
    for _ in range(2):  # (the gradients accumulate over the two steps on both sides)
        loss, ref = e["step"](), n["step"]()
        assert np.isclose(float(loss), float(ref), rtol=1e-6)
    grads = next(c.cell_contents for c in n["step"].__closure__
                 if isinstance(c.cell_contents, list))
    for name, g in zip(("w1", "b1", "w2", "b2"), grads):
        np.testing.assert_allclose(e[name].grad.numpy(), g, rtol=1e-5, atol=1e-6)
