"""``benchmarks/run.py --quick`` runs end to end, so the benchmark script cannot rot.

No timing is asserted: only that every section runs and the table comes out.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
