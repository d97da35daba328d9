"""``benchmarks/data_loader.py --quick`` runs end to end (no timing is asserted)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "data_loader.py"


def test_quick_run_prints_both_tables():
    pytest.importorskip("sklearn")
    proc = subprocess.run([sys.executable, str(SCRIPT), "--quick"], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    for heading in ("per-batch overhead", "DataLoader workers", "Targets met:"):
        assert heading in proc.stdout, proc.stdout
