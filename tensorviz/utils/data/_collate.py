"""``default_collate`` and ``default_convert``: how a list of samples becomes a batch.

PyTorch's rules, case by case on the first sample's type (``collate_fn_map`` first)::

    Tensor             -> stack(samples)                      (one more leading dim)
    NumPy array        -> stack of as_tensor(a)               (dtype kept: float32 stays)
    NumPy scalar       -> as_tensor(samples)
    float / int / bool -> tensor(samples, float64) / tensor(samples) (int64 / bool)
    str, bytes         -> the list unchanged
    Mapping            -> same mapping type, each key collated
    namedtuple         -> same namedtuple, each field collated
    tuple              -> list, each position collated   (a batch of (x, y) is [X, Y])
    other Sequence     -> same type, each position collated (list of lists transposed)

Inside a worker process the stacked tensor is built directly in shared memory, so it reaches
the main process without another copy (see ``_shared_memory``).
"""
from __future__ import annotations

import collections
import copy
import functools
import re
from collections.abc import Callable

import numpy as np

__all__ = ["collate", "default_collate", "default_convert", "default_collate_fn_map",
           "collate_tensor_fn"]

np_str_obj_array_pattern = re.compile(r"[SaUO]")

default_collate_err_msg_format = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
    "found {}")


def _tv():
    import tensorviz
    return tensorviz


def default_convert(data):
    """Turn every NumPy array/scalar inside ``data`` into a tensor, keeping the containers
    (what ``DataLoader`` applies when batching is off, ``batch_size=None``).

    >>> default_convert(np.array([0, 1]))
    tensor([0, 1])
    >>> default_convert((np.array([0]), 5))
    [tensor([0]), 5]
    """
    tv = _tv()
    elem_type = type(data)
    if isinstance(data, tv.Tensor):
        return data
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_"):
        if elem_type.__name__ == "ndarray" \
                and np_str_obj_array_pattern.search(data.dtype.str) is not None:
            return data
        return tv.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        try:
            if isinstance(data, collections.abc.MutableMapping):
                clone = copy.copy(data)
                clone.update({key: default_convert(data[key]) for key in data})
                return clone
            return elem_type({key: default_convert(data[key]) for key in data})
        except TypeError:  # the mapping type cannot be built from a dict
            return {key: default_convert(data[key]) for key in data}
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # namedtuple
        return elem_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]  # (a list, as PyTorch)
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        try:
            if isinstance(data, collections.abc.MutableSequence):
                clone = copy.copy(data)
                for i, d in enumerate(data):
                    clone[i] = default_convert(d)
                return clone
            return elem_type([default_convert(d) for d in data])
        except TypeError:
            return [default_convert(d) for d in data]
    return data


def collate(batch, *, collate_fn_map: dict | None = None):
    """Collate ``batch`` (a list of samples) by the first sample's type: an entry of
    ``collate_fn_map`` (exact type first, then the first ``isinstance`` match), else the
    container rules (mappings, namedtuples, sequences) applied recursively.

    Extend it for your own types::

        def collate_point(batch, *, collate_fn_map=None):
            return Point.stack(batch)
        collate(batch, collate_fn_map={**default_collate_fn_map, Point: collate_point})
    """
    elem = batch[0]
    elem_type = type(elem)
    if collate_fn_map is not None:
        if elem_type in collate_fn_map:
            return collate_fn_map[elem_type](batch, collate_fn_map=collate_fn_map)
        for collate_type in collate_fn_map:
            if isinstance(elem, collate_type):
                return collate_fn_map[collate_type](batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, collections.abc.Mapping):
        try:
            if isinstance(elem, collections.abc.MutableMapping):
                clone = copy.copy(elem)
                clone.update({key: collate([d[key] for d in batch],
                                           collate_fn_map=collate_fn_map) for key in elem})
                return clone
            return elem_type({key: collate([d[key] for d in batch],
                                           collate_fn_map=collate_fn_map) for key in elem})
        except TypeError:
            return {key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map)
                    for key in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return elem_type(*(collate(samples, collate_fn_map=collate_fn_map)
                           for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        it = iter(batch)
        elem_size = len(next(it))
        if not all(len(e) == elem_size for e in it):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch))
        if isinstance(elem, tuple):
            return [collate(samples, collate_fn_map=collate_fn_map) for samples in transposed]
        try:
            if isinstance(elem, collections.abc.MutableSequence):
                clone = copy.copy(elem)
                for i, samples in enumerate(transposed):
                    clone[i] = collate(samples, collate_fn_map=collate_fn_map)
                return clone
            return elem_type([collate(samples, collate_fn_map=collate_fn_map)
                              for samples in transposed])
        except TypeError:
            return [collate(samples, collate_fn_map=collate_fn_map) for samples in transposed]
    raise TypeError(default_collate_err_msg_format.format(elem_type))


def _plain_cpu_tensors(batch) -> bool:
    tensor_type = _tv().Tensor
    for t in batch:
        if type(t) is not tensor_type or t.device.type != "cpu" or t.requires_grad:
            return False
    return True


def collate_tensor_fn(batch, *, collate_fn_map: dict | None = None):
    """``stack(batch, 0)``; in a worker process, stacked straight into shared memory."""
    from ._worker import current_arena
    tv = _tv()
    arena = current_arena()
    if arena is not None and _plain_cpu_tensors(batch):
        elem = batch[0]
        shape = elem._shape
        for i, t in enumerate(batch):
            if t._shape != shape:
                raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                                   f"{list(shape)} at entry 0 and {list(t._shape)} at entry "
                                   f"{i}")
        dt = functools.reduce(tv.promote_types, (t.dtype for t in batch))
        out = arena.empty((len(batch), *shape), dt)
        if out.numel():
            np.stack([t._arr for t in batch], axis=0, out=out._arr, casting="unsafe")
        return out
    return tv.stack(batch, 0)


def gather_rows(tensor, indices: list):
    """``stack([tensor[i] for i in indices])`` in one gather (``TensorDataset``'s batches);
    in a worker process, gathered straight into shared memory."""
    from ._worker import current_arena
    arena = current_arena()
    if arena is not None and _plain_cpu_tensors((tensor,)):
        out = arena.empty((len(indices), *tensor._shape[1:]), tensor.dtype)
        if out.numel():
            src = tensor._arr
            n = src.shape[0]
            for i in indices:  # (IndexError as PyTorch words it, before np.take's own)
                if not -n <= i < n:
                    raise IndexError(f"index {i} is out of bounds for dimension 0 with size "
                                     f"{n}")
            np.take(src, indices, axis=0, out=out._arr)
        return out
    return tensor[indices]


def collate_numpy_array_fn(batch, *, collate_fn_map: dict | None = None):
    elem = batch[0]
    if np_str_obj_array_pattern.search(elem.dtype.str) is not None:
        raise TypeError(default_collate_err_msg_format.format(elem.dtype))
    return collate([_tv().as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch, *, collate_fn_map: dict | None = None):
    return _tv().as_tensor(batch)


def collate_float_fn(batch, *, collate_fn_map: dict | None = None):
    tv = _tv()
    return tv.tensor(batch, dtype=tv.float64)


def collate_int_fn(batch, *, collate_fn_map: dict | None = None):
    return _tv().tensor(batch)


def collate_str_fn(batch, *, collate_fn_map: dict | None = None):
    return batch


def _default_map() -> dict:
    from ..._tensor import Tensor
    return {Tensor: collate_tensor_fn, np.ndarray: collate_numpy_array_fn,
            (np.bool_, np.number, np.object_): collate_numpy_scalar_fn,
            float: collate_float_fn, int: collate_int_fn, str: collate_str_fn,
            bytes: collate_str_fn}


default_collate_fn_map: dict[type | tuple[type, ...], Callable] = _default_map()


def default_collate(batch):
    """Put a list of samples together into a batch, by PyTorch's rules (see the module):

    >>> default_collate([0, 1, 2, 3])
    tensor([0, 1, 2, 3])
    >>> default_collate([(1, "a"), (2, "b")])
    [tensor([1, 2]), ('a', 'b')]
    >>> default_collate([{"x": 0.5}, {"x": 1.5}])
    {'x': tensor([0.5000, 1.5000], dtype=tensorviz.float64)}
    """
    return collate(batch, collate_fn_map=default_collate_fn_map)
