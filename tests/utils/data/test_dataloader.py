"""DataLoader in the main process (num_workers=0) against PyTorch's: the same batches for the
same sampler indices, len, argument validation and its errors, reshuffling."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorviz as tv
from tensorviz.utils import data as tvdata

from ._helpers import assert_same, assert_same_outcome, outcome

torch = pytest.importorskip("torch")
import torch.utils.data as tdata  # noqa: E402


def table(lib, n=13):
    x = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
    return lib.from_numpy(x), lib.from_numpy(np.arange(n) % 4)


class DictData:
    """A plain map-style dataset (not a Dataset subclass) of dicts with mixed leaves."""

    def __init__(self, lib, n=11):
        self.lib, self.n = lib, n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": self.lib.full((2,), float(i)), "label": i % 3, "w": 0.5 * i,
                "name": f"s{i}", "arr": np.full(2, i, dtype=np.int16)}


def loaders(make_dataset, **kwargs):
    return (tvdata.DataLoader(make_dataset(tv), **kwargs),
            tdata.DataLoader(make_dataset(torch), **kwargs))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 13), st.data(), st.booleans())
def test_same_batches_for_the_same_indices(n_batches, data, as_dicts):
    n = 11 if as_dicts else 13
    indices = [data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=6))
               for _ in range(n_batches)]
    make = (lambda lib: DictData(lib)) if as_dicts else \
        (lambda lib: (tvdata if lib is tv else tdata).TensorDataset(*table(lib)))
    ours, theirs = loaders(make, batch_sampler=indices)
    assert len(ours) == len(theirs)
    assert_same(list(ours), list(theirs), torch)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 12), max_size=20), st.integers(1, 5), st.booleans())
def test_sampler_with_batch_size_and_drop_last(order, batch_size, drop_last):
    make = lambda lib: (tvdata if lib is tv else tdata).TensorDataset(*table(lib))  # noqa
    ours, theirs = loaders(make, sampler=order, batch_size=batch_size, drop_last=drop_last)
    assert len(ours) == len(theirs)
    assert_same(list(ours), list(theirs), torch)


def test_defaults_and_no_batching():
    make = lambda lib: (tvdata if lib is tv else tdata).TensorDataset(*table(lib, 3))  # noqa
    for kwargs in [{}, {"batch_size": None}, {"batch_size": 2},
                   {"batch_size": 2, "drop_last": True}]:
        ours, theirs = loaders(make, **kwargs)
        assert (ours.batch_size, len(ours)) == (theirs.batch_size, len(theirs))
        assert_same(list(ours), list(theirs), torch)
    ours, theirs = loaders(lambda lib: [np.arange(2), np.arange(2.0)], batch_size=None)
    assert_same(list(ours), list(theirs), torch)


def test_custom_collate_fn_gets_the_samples():
    seen = []

    def collate(batch):
        seen.append(batch)
        return len(batch)
    ds = tvdata.TensorDataset(*table(tv, 5))
    assert list(tvdata.DataLoader(ds, batch_size=2, collate_fn=collate)) == [2, 2, 1]
    assert all(isinstance(b, list) and isinstance(b[0], tuple) for b in seen)


BAD_ARGUMENTS = [
    dict(num_workers=-1), dict(timeout=-1), dict(prefetch_factor=2),
    dict(num_workers=1, prefetch_factor=-1), dict(persistent_workers=True),
    dict(sampler=[0, 1], shuffle=True), dict(batch_sampler=[[0]], batch_size=2),
    dict(batch_sampler=[[0]], shuffle=True), dict(batch_sampler=[[0]], sampler=[0]),
    dict(batch_sampler=[[0]], drop_last=True), dict(batch_size=None, drop_last=True),
    dict(batch_size=0), dict(batch_size=-2), dict(drop_last=1),
    dict(multiprocessing_context="spawn"), dict(num_workers=1, multiprocessing_context="no"),
    dict(num_workers=1, multiprocessing_context=3),
]


@pytest.mark.parametrize("kwargs", BAD_ARGUMENTS)
def test_argument_errors_match_pytorch(kwargs):
    ours = outcome(lambda: tvdata.DataLoader(list(range(4)), **kwargs))
    theirs = outcome(lambda: tdata.DataLoader(list(range(4)), **kwargs))
    assert ours[0] == theirs[0] == "raise"
    assert ours == theirs


@pytest.mark.parametrize("kwargs", [dict(shuffle=True), dict(sampler=[0]),
                                    dict(batch_sampler=[[0]])])
def test_iterable_dataset_argument_errors(kwargs):
    from ._helpers import Stream, TorchStream
    ours = outcome(lambda: tvdata.DataLoader(Stream(4, False), **kwargs))
    theirs = outcome(lambda: tdata.DataLoader(TorchStream(torch, 4, False), **kwargs))
    assert ours[:2] == theirs[:2] and ours[0] == "raise"
    assert ours[2].split(", but got")[0] == theirs[2].split(", but got")[0]


def test_attributes_cannot_change_after_init():
    for name in ["batch_size", "sampler", "dataset", "drop_last", "batch_sampler",
                 "persistent_workers"]:
        ours = outcome(lambda: setattr(tvdata.DataLoader([1]), name, None))
        theirs = outcome(lambda: setattr(tdata.DataLoader([1]), name, None))
        assert ours == theirs
    loader = tvdata.DataLoader([1])
    loader.num_workers = 0  # (others may change)


def test_iterable_dataset_len_and_overrun_warning():
    from ._helpers import Stream, TorchStream

    class Liar(Stream):
        def __len__(self):
            return 2
    for kwargs in [{}, {"batch_size": 2}, {"batch_size": 2, "drop_last": True}]:
        assert len(tvdata.DataLoader(Stream(5, False), **kwargs)) == \
            len(tdata.DataLoader(TorchStream(torch, 5, False), **kwargs))
    loader = tvdata.DataLoader(Liar(4, False))
    assert len(loader) == 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert len(list(loader)) == 4
    messages = [str(w.message) for w in caught]
    assert len(messages) == 2
    assert "was reported to be 2(when accessing len(dataloader)), but 3 samples" in messages[0]


def test_shuffle_reshuffles_each_epoch_reproducibly():
    ds = tvdata.TensorDataset(tv.arange(40))
    loader = tvdata.DataLoader(ds, batch_size=8, shuffle=True)
    tv.manual_seed(0)
    e1 = [b[0].tolist() for b in loader]
    e2 = [b[0].tolist() for b in loader]
    assert sorted(sum(e1, [])) == sorted(sum(e2, [])) == list(range(40))
    assert e1 != e2
    tv.manual_seed(0)
    assert [b[0].tolist() for b in loader] == e1
    g = tv.Generator().manual_seed(7)
    a = [b[0].tolist() for b in tvdata.DataLoader(ds, batch_size=8, shuffle=True,
                                                  generator=g)]
    g.manual_seed(7)
    assert [b[0].tolist() for b in tvdata.DataLoader(ds, batch_size=8, shuffle=True,
                                                     generator=g)] == a


def test_pin_memory_warns_without_an_accelerator():
    if tv.cuda.is_available():
        pytest.skip("a GPU is here")
    with warnings.catch_warnings(record=True) as ours:
        warnings.simplefilter("always")
        list(tvdata.DataLoader([1, 2], pin_memory=True))
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        list(tdata.DataLoader([1, 2], pin_memory=True))
    assert [str(w.message) for w in ours] == [str(w.message) for w in theirs]


def test_worker_number_warning_matches_pytorch(monkeypatch):
    import os
    n = len(os.sched_getaffinity(0)) + 1 if hasattr(os, "sched_getaffinity") else 64
    with warnings.catch_warnings(record=True) as ours:
        warnings.simplefilter("always")
        tvdata.DataLoader([1], num_workers=n)
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        tdata.DataLoader([1], num_workers=n)
    assert [str(w.message) for w in ours] == [str(w.message) for w in theirs]


def test_tensorviz_utils_data_is_reachable():
    import subprocess
    import sys
    code = ("import sys, tensorviz as torch; assert 'sklearn' not in sys.modules; "
            "assert 'tensorviz.utils' not in sys.modules; "
            "print(torch.utils.data.DataLoader.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "DataLoader"
    import tensorviz.utils.data as mod
    assert mod.TensorDataset is tv.utils.data.TensorDataset
    assert_same_outcome(lambda: tvdata.get_worker_info(), lambda: tdata.get_worker_info(),
                        torch)


def test_timeout_without_workers_fails_as_in_pytorch():
    ours = outcome(lambda: iter(tvdata.DataLoader([1, 2], timeout=1)))
    theirs = outcome(lambda: iter(tdata.DataLoader([1, 2], timeout=1)))
    assert ours == theirs and ours[0] == "raise"
