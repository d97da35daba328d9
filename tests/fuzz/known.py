"""Findings still open, as (kind, op) keys: the suite's short run tolerates exactly these.
Each is a known divergence left for later; remove the entry with the fix."""
from __future__ import annotations

KNOWN: set = {
    # complex asin near its branch cut: NumPy's and PyTorch's C++ std::complex differ
    ("silent", "sgn_"),
}
