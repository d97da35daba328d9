"""``DistributedSampler``: each of ``num_replicas`` processes reads its own share of a dataset.

tensorviz has no process groups yet, so ``num_replicas`` and ``rank`` are given explicitly::

    s = DistributedSampler(range(10), num_replicas=3, rank=1, shuffle=False)
    list(s)    # [1, 4, 7, 0]: every third index from 1, padded so each rank gets 4
"""
from __future__ import annotations

import math
from collections.abc import Iterator

from .sampler import Sampler

__all__ = ["DistributedSampler"]


class DistributedSampler(Sampler[int]):
    """Rank ``rank``'s share (every ``num_replicas``-th index from ``rank``) of one
    permutation shared by all ranks (seeded by ``seed + epoch``: call ``set_epoch(e)`` at the
    start of each epoch so the shuffle changes).  Without ``drop_last`` the index list is
    padded by repeating its start, so all ranks get ``ceil(len / num_replicas)`` samples.
    """

    def __init__(self, dataset, num_replicas: int | None = None, rank: int | None = None,
                 shuffle: bool = True, seed: int = 0, drop_last: bool = False) -> None:
        if num_replicas is None or rank is None:
            # Note: PyTorch asks torch.distributed's default group; tensorviz has none yet.
            raise RuntimeError("Requires distributed package to be available: tensorviz has "
                               "no process groups yet, so give num_replicas= and rank= "
                               "explicitly")
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, "
                             f"{num_replicas - 1}]")
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        if self.drop_last and len(self.dataset) % self.num_replicas != 0:
            self.num_samples = math.ceil((len(self.dataset) - self.num_replicas)
                                         / self.num_replicas)
        else:
            self.num_samples = math.ceil(len(self.dataset) / self.num_replicas)
        self.total_size = self.num_samples * self.num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self) -> Iterator[int]:
        if self.shuffle:
            from ... import _random
            g = _random.Generator()
            g.manual_seed(self.seed + self.epoch)
            indices = _random.randperm(len(self.dataset), generator=g).tolist()
        else:
            indices = list(range(len(self.dataset)))
        if not self.drop_last:
            padding_size = self.total_size - len(indices)
            if padding_size <= len(indices):
                indices += indices[:padding_size]
            else:
                indices += (indices * math.ceil(padding_size / len(indices)))[:padding_size]
        else:
            indices = indices[:self.total_size]
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """Make the next ``__iter__`` use the shuffle of ``epoch`` (the same on every rank)."""
        self.epoch = epoch
