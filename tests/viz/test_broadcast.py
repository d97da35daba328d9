"""tensorviz.show_broadcast: operands aligned from the right and expanded with stride 0, as each
library broadcasts them (strides compared with PyTorch's)."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("anywidget", reason="the widget tests need anywidget")

import tensorviz
from tensorviz.viz._broadcast import alignment

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402


def test_alignment_of_a_column_and_a_row():
    a = tensorviz.arange(3).reshape(3, 1)
    b = tensorviz.arange(4)
    w = tensorviz.show_broadcast(a, b)
    assert [t["label"] for t in w.tensors] == ["a", "b", "a.expand(3, 4)", "b.expand(3, 4)"]
    assert [t["stride"] for t in w.tensors[2:]] == [[1, 0], [0, 1]]
    # each expansion draws over its operand's own storage: no copy
    assert [t["strip"] for t in w.tensors] == [0, 1, 0, 1]
    assert w.broadcast["result"] == [3, 4]
    a_dims, b_dims = (op["dims"] for op in w.broadcast["operands"])
    assert [(d["size"], d["broadcast"]) for d in a_dims] == [(3, False), (1, True)]
    assert [(d["size"], d["broadcast"]) for d in b_dims] == [(None, True), (4, False)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=0, max_size=3), st.data())
def test_expanded_strides_match_pytorch(shape, data):
    torch = pytest.importorskip("torch")
    # the other operand: same ndim or fewer, each dim either the same size or 1
    k = data.draw(st.integers(0, len(shape)))
    other = [data.draw(st.sampled_from([n, 1])) for n in shape[len(shape) - k:]]
    a, b = tensorviz.ones(tuple(shape)), tensorviz.ones(tuple(other))
    w = tensorviz.show_broadcast(a, b, labels=["a", "b"])
    ta, tb = torch.broadcast_tensors(torch.ones(tuple(shape)), torch.ones(tuple(other)))
    assert [tuple(t["stride"]) for t in w.tensors[2:]] == [ta.stride(), tb.stride()]
    assert w.broadcast["result"] == list(ta.shape)


def test_numpy_and_torch_operands_and_errors():
    torch = pytest.importorskip("torch")
    w = tensorviz.show_broadcast(np.arange(3).reshape(3, 1), np.arange(2), labels=["x", "y"])
    assert w.tensors[2]["stride"] == [1, 0] and w.tensors[3]["stride"] == [0, 1]
    w = tensorviz.show_broadcast(torch.ones(2, 1), torch.ones(3), labels=["p", "q"])
    assert w.tensors[3]["shape"] == [2, 3] and w.tensors[3]["kind"] == "torch"
    with pytest.raises(RuntimeError) as mine:
        tensorviz.show_broadcast(tensorviz.ones(2), tensorviz.ones(3))
    with pytest.raises(RuntimeError) as theirs:
        torch.broadcast_tensors(torch.ones(2), torch.ones(3))
    assert str(mine.value) == str(theirs.value)
    with pytest.raises(TypeError, match="one library"):
        tensorviz.show_broadcast(tensorviz.ones(2), np.ones(2))
    with pytest.raises(TypeError, match="at least two"):
        tensorviz.show_broadcast(tensorviz.ones(2))


def test_alignment_marks_missing_and_size_1_dims():
    info = alignment([(2, 1, 4), (3, 1)], ["a", "b"])
    assert info["result"] == [2, 3, 4]
    assert [d["broadcast"] for d in info["operands"][0]["dims"]] == [False, True, False]
    assert [d["size"] for d in info["operands"][1]["dims"]] == [None, 3, 1]
    assert [d["broadcast"] for d in info["operands"][1]["dims"]] == [True, False, True]
