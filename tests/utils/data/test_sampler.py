"""Samplers, DistributedSampler and random_split against PyTorch's.

Orders drawn from a generator are tensorviz's own numbers (not PyTorch's), so shuffles are
checked for their structure: a permutation, reproducible under a seed, new each epoch; the
deterministic samplers and every error are compared with PyTorch's directly."""
from __future__ import annotations

import collections

import pytest
from hypothesis import given, settings, strategies as st

import tensorviz as tv
from tensorviz.utils import data as tvdata

from ._helpers import assert_same_outcome, outcome

torch = pytest.importorskip("torch")
import torch.utils.data as tdata  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 40), st.integers(-1, 9), st.booleans() | st.integers(0, 1))
def test_batch_sampler_matches_pytorch(n, batch_size, drop_last):
    ours = lambda: (list(tvdata.BatchSampler(tvdata.SequentialSampler(range(n)),  # noqa: E731
                                             batch_size, drop_last)),
                    len(tvdata.BatchSampler(range(n), batch_size, drop_last)))
    theirs = lambda: (list(tdata.BatchSampler(tdata.SequentialSampler(range(n)),  # noqa: E731
                                              batch_size, drop_last)),
                      len(tdata.BatchSampler(range(n), batch_size, drop_last)))
    assert outcome(ours) == outcome(theirs)


@pytest.mark.parametrize("kwargs", [
    dict(replacement=1), dict(num_samples=0), dict(num_samples=-3), dict(num_samples=2.5),
    dict(num_samples=7), dict(replacement=True, num_samples=70), dict()])
def test_random_sampler_arguments_and_length(kwargs):
    assert outcome(lambda: len(tvdata.RandomSampler(range(10), **kwargs))) == \
        outcome(lambda: len(tdata.RandomSampler(range(10), **kwargs)))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 30), st.integers(1, 80), st.booleans(), st.integers(0, 2**32))
def test_random_sampler_structure(n, num_samples, replacement, seed):
    s = tvdata.RandomSampler(range(n), replacement=replacement, num_samples=num_samples,
                             generator=tv.Generator().manual_seed(seed))
    drawn = list(s)
    assert len(drawn) == num_samples == len(s)
    assert all(type(i) is int and 0 <= i < n for i in drawn)
    if not replacement:  # whole permutations one after another, then part of one
        for start in range(0, num_samples, n):
            chunk = drawn[start:start + n]
            assert len(set(chunk)) == len(chunk)
    again = tvdata.RandomSampler(range(n), replacement=replacement, num_samples=num_samples,
                                 generator=tv.Generator().manual_seed(seed))
    assert list(again) == drawn  # reproducible under a seed


def test_random_sampler_new_order_each_epoch_and_manual_seed():
    s = tvdata.RandomSampler(range(50))
    tv.manual_seed(3)
    first, second = list(s), list(s)
    assert sorted(first) == sorted(second) == list(range(50))
    assert first != second
    tv.manual_seed(3)
    assert list(s) == first
    g = tv.Generator().manual_seed(1)
    s = tvdata.RandomSampler(range(50), generator=g)
    assert list(s) != list(s)


def test_subset_random_sampler():
    idx = [3, 9, 27, 81]
    s = tvdata.SubsetRandomSampler(idx, generator=tv.Generator().manual_seed(0))
    assert sorted(s) == idx and len(s) == 4
    assert len(tdata.SubsetRandomSampler(idx)) == len(s)


@pytest.mark.parametrize("args", [
    ([0.1, 0.9], 0), ([0.1, 0.9], True), ([0.1, 0.9], 3.0), ([0.1, 0.9], 2, 1),
    ([[0.1, 0.9]], 2), ([0.1, 0.9, 0.4], 5), ([0.5], 1, False)])
def test_weighted_sampler_arguments(args):
    assert outcome(lambda: len(tvdata.WeightedRandomSampler(*args))) == \
        outcome(lambda: len(tdata.WeightedRandomSampler(*args)))


def test_weighted_sampler_draws():
    g = tv.Generator().manual_seed(0)
    s = tvdata.WeightedRandomSampler([0.0, 3.0, 0.0, 1.0], 400, generator=g)
    counts = collections.Counter(s)
    assert set(counts) == {1, 3}
    assert counts[1] > 2 * counts[3]  # weight 3 against 1, 400 draws (seeded)
    no_repeat = list(tvdata.WeightedRandomSampler([1.0, 2.0, 3.0, 4.0], 4, replacement=False,
                                                  generator=g))
    assert sorted(no_repeat) == [0, 1, 2, 3]


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 30), st.integers(1, 6), st.data(), st.booleans())
def test_distributed_sampler_without_shuffle_matches_pytorch(n, replicas, data, drop_last):
    rank = data.draw(st.integers(-1, replicas))
    ours = lambda: list(tvdata.DistributedSampler(  # noqa: E731
        range(n), replicas, rank, shuffle=False, drop_last=drop_last))
    theirs = lambda: list(tdata.DistributedSampler(  # noqa: E731
        range(n), replicas, rank, shuffle=False, drop_last=drop_last))
    assert outcome(ours) == outcome(theirs)


def test_distributed_sampler_shuffle_shares_one_permutation():
    n, replicas = 23, 4
    samplers = [tvdata.DistributedSampler(range(n), replicas, r, seed=5) for r in
                range(replicas)]
    parts = [list(s) for s in samplers]
    lengths = [len(tdata.DistributedSampler(range(n), replicas, r)) for r in range(replicas)]
    assert [len(p) for p in parts] == lengths
    assert set().union(*map(set, parts)) == set(range(n))
    assert [list(s) for s in samplers] == parts  # same epoch, same order
    for s in samplers:
        s.set_epoch(1)
    assert [list(s) for s in samplers] != parts
    with pytest.raises(RuntimeError, match="num_replicas= and rank="):
        tvdata.DistributedSampler(range(4))


@pytest.mark.parametrize("lengths", [[3, 7], [0.3, 0.7], [0.5, 0.5, 0.0], [1 / 3] * 3,
                                     [4, 4], [0.5, 0.6], [1.2, -0.2], [10]])
def test_random_split_matches_pytorch_lengths(lengths):
    import warnings

    def split(mod, gen):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            parts = mod.random_split(range(10), lengths, generator=gen)
        return [len(p) for p in parts], [str(x.message) for x in w], parts
    ours = outcome(lambda: split(tvdata, tv.Generator().manual_seed(0)))
    theirs = outcome(lambda: split(tdata, torch.Generator().manual_seed(0)))
    assert ours[:1] == theirs[:1]
    if ours[0] == "ok":
        assert ours[1][:2] == theirs[1][:2]
        parts = ours[1][2]
        assert all(isinstance(p, tvdata.Subset) for p in parts)
        assert sorted(i for p in parts for i in p.indices) == list(range(10))
        again = split(tvdata, tv.Generator().manual_seed(0))[2]
        assert [p.indices for p in again] == [p.indices for p in parts]
    else:
        assert ours == theirs


def test_random_split_uses_the_default_generator():
    tv.manual_seed(11)
    a = [p.indices for p in tvdata.random_split(range(20), [10, 10])]
    tv.manual_seed(11)
    assert [p.indices for p in tvdata.random_split(range(20), [10, 10])] == a


def test_sampler_base_class():
    assert outcome(lambda: iter(tvdata.Sampler())) == outcome(lambda: iter(tdata.Sampler()))
    assert_same_outcome(lambda: list(tvdata.SequentialSampler("abcd")),
                        lambda: list(tdata.SequentialSampler("abcd")), torch)
