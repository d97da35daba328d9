"""Datasets against PyTorch's: items, lengths, indexing and errors."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorviz as tv
from tensorviz.utils import data as tvdata

from ._helpers import Stream, assert_same_outcome, outcome

torch = pytest.importorskip("torch")
import torch.utils.data as tdata  # noqa: E402


def tensors(lib, *shapes):
    return [lib.from_numpy(np.arange(int(np.prod(s)), dtype=np.float32).reshape(s))
            for s in shapes]


@pytest.mark.parametrize("shapes", [[(5, 2), (5,)], [(4,)], [(3, 2), (4,)], [(0, 2), (0,)]])
@pytest.mark.parametrize("index", [0, -1, 2, slice(1, 3), [0, 2]])
def test_tensor_dataset(shapes, index):
    if shapes[0][0] == 0 and isinstance(index, list):
        pytest.skip("an empty tensor indexed by a list: the engine's message differs "
                    "(indexing, not the dataset)")
    def run(mod, lib):
        ds = mod.TensorDataset(*tensors(lib, *shapes))
        return len(ds), ds[index]
    assert_same_outcome(lambda: run(tvdata, tv), lambda: run(tdata, torch), torch)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=4), st.integers(-25, 25))
def test_concat_dataset_indexing(sizes, index):
    def run(mod):
        ds = mod.ConcatDataset([list(range(100 * k, 100 * k + n)) for k, n in
                                enumerate(sizes)])
        return len(ds), ds.cumulative_sizes, ds[index]
    assert outcome(lambda: run(tvdata)) == outcome(lambda: run(tdata))


def test_concat_and_chain_errors_and_plus():
    assert outcome(lambda: tvdata.ConcatDataset([])) == outcome(lambda: tdata.ConcatDataset([]))
    assert outcome(lambda: tvdata.ConcatDataset([Stream(3, False)]))[:2] == \
        ("raise", "AssertionError")
    a, b = tvdata.TensorDataset(tv.arange(3)), tvdata.TensorDataset(tv.arange(2))
    both = a + b
    assert isinstance(both, tvdata.ConcatDataset) and len(both) == 5
    chain = Stream(2, False) + Stream(3, False)
    assert isinstance(chain, tvdata.ChainDataset)
    assert list(chain) == [0, 1, 0, 1, 2] and len(chain) == 5
    bad = tvdata.ChainDataset([Stream(1, False), [1, 2]])
    with pytest.raises(AssertionError, match="ChainDataset only supports IterableDataset"):
        list(bad)


def test_subset_and_stack_dataset():
    data = list(range(10, 20))
    assert_same_outcome(lambda: (tvdata.Subset(data, [4, 0])[1], len(tvdata.Subset(data, [1]))),
                        lambda: (tdata.Subset(data, [4, 0])[1], len(tdata.Subset(data, [1]))),
                        torch)
    assert tvdata.Subset(data, [4, 0, 2]).__getitems__([0, 2]) == [14, 12]
    for args, kwargs in [(([1, 2], [3, 4]), {}), ((), {"x": [1, 2], "y": [3, 4]}),
                         (([1, 2], [3]), {}), ((), {}), (([1],), {"y": [2]})]:
        def run(mod):
            ds = mod.StackDataset(*args, **kwargs)
            return len(ds), ds[1], ds.__getitems__([1, 0])
        assert outcome(lambda: run(tvdata)) == outcome(lambda: run(tdata))

    class Custom(tvdata.Subset):
        def __getitem__(self, i):
            return 0
    assert outcome(lambda: Custom(data, [1]))[:2] == ("raise", "NotImplementedError")


def test_base_classes():
    assert outcome(lambda: tvdata.Dataset()[0]) == outcome(lambda: tdata.Dataset()[0])
    assert isinstance(Stream(1, False), tvdata.Dataset)
