"""Layouts of indexing results against PyTorch (``tensorviz/_indexing.py``)."""
from __future__ import annotations

import warnings

import pytest

import tensorviz

torch = pytest.importorskip("torch")

KEYS = ["T.tensor(0, dtype=T.uint8)", "T.tensor(1, dtype=T.uint8)", "T.tensor(False)",
        "T.tensor(True)", "(T.tensor(0, dtype=T.uint8), slice(3, -2))", "(T.tensor(True), 0)",
        "(Ellipsis, T.tensor(False))", "(Ellipsis, T.tensor(True))",
        "(T.tensor(True), T.tensor([0, 0]))", "(0, T.tensor(False))",
        "(T.tensor(False), T.tensor([0]))"]


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("transposed", [False, True])
def test_zero_dim_mask_result_layout(key, transposed):
    """A 0-dim bool (or deprecated uint8) index is, as in PyTorch, a new size-1 dim indexed
    by ``[0]`` (True) or ``[]`` (False): the result is laid out as PyTorch's index kernel
    lays that out, empty results included."""
    got = []
    for T in (tensorviz, torch):
        x = T.tensor([[-5, -127, 126, 4]])
        x = x.T if transposed else x
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = x[eval(key)]  # noqa: S307 - the test's own keys
        got.append((tuple(r.shape), r.stride(), r.storage_offset(), r.tolist()))
    assert got[0] == got[1]
