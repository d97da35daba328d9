"""Programs the fuzzer once found disagreeing, each kept after its fix (shrunk, one per line
group). ``test_fuzz.py`` runs every one on both libraries and expects no disagreement.

Each entry: (name, lines). A name ending in ``-hang`` runs in a worker subprocess with a time
limit, so a regression fails instead of stopping the suite.
"""
from __future__ import annotations

REGRESSIONS = [
    ("masked_fill-broadcast-keeps-input", [
        "v0 = T.tensor([1., 2., 3.])",
        "v1 = T.masked_fill(v0, T.tensor([[True, False, True]]), 0.)",
    ]),
    ("masked_scatter-broadcast-keeps-input", [
        "v0 = T.tensor([1., 2., 3.])",
        "v1 = T.masked_scatter(v0, T.tensor([[True, False, True]]), T.tensor([9., 8., 7.]))",
    ]),
]
REGRESSIONS += [
    ("conj_physical-real-returns-input", [
        "v0 = T.tensor([[True, False], [False, True]])",
        "v1 = v0.t()",
        "v2 = T.conj_physical(v1)",
        "v3 = T.tensor([1., 2.]).conj_physical()",
    ]),
]
