"""``tensorviz.utils.data``: datasets, samplers and the ``DataLoader``, as ``torch.utils.data``.

    from tensorviz.utils.data import DataLoader, TensorDataset, random_split
    train, val = random_split(TensorDataset(X, y), [0.8, 0.2])
    for xb, yb in DataLoader(train, batch_size=64, shuffle=True, num_workers=2):
        ...

See docs/data.md for how workers and shared memory fit together.
"""
from ._collate import collate, default_collate, default_collate_fn_map, default_convert
from ._worker import WorkerInfo, get_worker_info
from .dataloader import DataLoader
from .dataset import (ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset,
                      Subset, TensorDataset, random_split)
from .distributed import DistributedSampler
from .sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler,
                      SubsetRandomSampler, WeightedRandomSampler)

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset",
           "DistributedSampler", "IterableDataset", "RandomSampler", "Sampler",
           "SequentialSampler", "StackDataset", "Subset", "SubsetRandomSampler",
           "TensorDataset", "WeightedRandomSampler", "WorkerInfo", "collate",
           "default_collate", "default_collate_fn_map", "default_convert", "get_worker_info",
           "random_split"]
