"""``t[key]`` and ``t[key] = value``.

Basic keys (ints, slices with positive steps, None, Ellipsis) give views through
``_layout.index``; keys holding integer/boolean tensors, lists or arrays are advanced indexing
(PyTorch follows NumPy's rules here) and copy on read.
"""
from __future__ import annotations

import builtins

import numpy as np

from . import _dtypes, _layout
from ._tensor import Tensor, wrap_array

_BASIC_TYPES = (builtins.int, slice, type(None), type(Ellipsis))


def _normalize_basic(k):
    """An int for index-like scalars, else the key item unchanged; None when not basic."""
    t = type(k)
    if t is builtins.int or t is slice or k is None or k is Ellipsis:
        return k
    if t is builtins.bool:
        return NotImplemented
    if isinstance(k, (np.integer,)):
        return builtins.int(k)
    if isinstance(k, Tensor) and not k._shape and k._dtype.category == _dtypes._INT:
        # Note: PyTorch treats a 0-dim integer tensor index like a Python int (a view).
        return builtins.int(k.item())
    return NotImplemented


def _basic_key(key):
    if type(key) is not tuple:
        key = (key,)
    out = []
    for k in key:
        n = _normalize_basic(k)
        if n is NotImplemented:
            return None, key
        out.append(n)
    return tuple(out), key


def _advanced_key(t: Tensor, key: tuple):
    """Translate a key to one the backend's array indexing understands (same semantics)."""
    xp = t._storage._backend.xp
    out = []
    for k in key:
        if isinstance(k, slice):
            step = k.step
            if step is not None and _layout._opt_index(step) <= 0:
                raise ValueError("step must be greater than zero")
            out.append(k)
        elif isinstance(k, Tensor):
            if k._dtype.category not in (_dtypes._INT, _dtypes._BOOL):
                raise IndexError("tensors used as indices must be long, int, byte or bool "
                                 "tensors")
            if k.device != t.device and k.device.type != "cpu":
                raise RuntimeError(f"indices should be either on cpu or on the same device as "
                                   f"the indexed tensor ({t.device})")
            arr = k._arr if k.device == t.device else t._storage._backend.from_host(
                k.numpy(), t.device)
            out.append(arr)
        elif isinstance(k, (list, tuple, np.ndarray)):
            arr = np.asarray(k)
            if arr.dtype.kind not in "iub":
                if arr.size == 0:
                    arr = arr.astype(np.int64)
                else:
                    raise IndexError("tensors used as indices must be long, int, byte or bool "
                                     "tensors")
            out.append(arr if xp is np else xp.asarray(arr))
        else:
            out.append(k)
    return tuple(out)


def _translate_index_error(err: IndexError) -> IndexError:
    msg = str(err).replace("axis", "dimension")
    return IndexError(msg)


def getitem(t: Tensor, key) -> Tensor:
    basic, key = _basic_key(key)
    if basic is not None:
        return t._view(*_layout.index(t._shape, t._stride, t._offset, basic))
    if not t._shape:
        for k in key:
            if not isinstance(k, (builtins.bool, type(None), type(Ellipsis))) and not (
                    isinstance(k, Tensor) and k._dtype is _dtypes.bool):
                raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in "
                                 "Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor "
                                 "to a number")
    np_key = _advanced_key(t, key)
    try:
        res = t._arr[np_key]
    except IndexError as e:
        raise _translate_index_error(e) from None
    xp = t._storage._backend.xp
    if not isinstance(res, xp.ndarray):
        res = xp.asarray(res)
    elif xp.may_share_memory(res, t._arr):  # advanced indexing copies, whatever NumPy does
        res = res.copy()
    return wrap_array(res, t._dtype, t.device)


def setitem(t: Tensor, key, value) -> None:
    basic, key = _basic_key(key)
    if basic is not None:
        dest = t._view(*_layout.index(t._shape, t._stride, t._offset, basic))
        assign(dest, value)
        return
    np_key = _advanced_key(t, key)
    arr = t._arr
    src = _value_array(t, value)
    try:
        arr[np_key] = src
    except IndexError as e:
        raise _translate_index_error(e) from None
    except ValueError as e:
        raise RuntimeError(f"shape mismatch: {e}") from None
    t._storage._bump()


def _value_array(dest: Tensor, value):
    """``value`` as something the backend can assign into ``dest``'s dtype (PyTorch casting)."""
    if isinstance(value, Tensor):
        if value.device != dest.device and not (value.device.type == "cpu" and not value._shape):
            raise RuntimeError(f"Expected all tensors to be on the same device, but found at "
                               f"least two devices, {dest.device} and {value.device}!")
        src = value._arr
        if value.device != dest.device:
            src = dest._storage._backend.from_host(value.numpy(), dest.device)
        if value._dtype.category == _dtypes._COMPLEX and dest._dtype.category != _dtypes._COMPLEX:
            src = src.real
        return src
    if isinstance(value, (builtins.bool, builtins.int, builtins.float, builtins.complex,
                          np.generic)):
        return scalar_to(value, dest._dtype)
    if isinstance(value, (list, tuple, np.ndarray)):
        from ._creation import tensor
        return _value_array(dest, tensor(value, dtype=dest._dtype))
    raise TypeError(f"can't assign a {type(value).__name__} to a tensor; use a number or a "
                    "tensor")


def scalar_to(value, dt: "_dtypes.dtype"):
    """A Python/NumPy scalar converted to ``dt`` as PyTorch does (ints wrap around)."""
    if isinstance(value, builtins.complex) and dt.category != _dtypes._COMPLEX:
        value = value.real
    try:
        return dt._np.type(value)
    except OverflowError:
        if dt.category == _dtypes._INT and isinstance(value, builtins.int):
            if -(1 << 63) <= value < (1 << 64):
                return np.array(value & 0xFFFFFFFFFFFFFFFF, dtype=np.uint64).astype(dt._np)
        raise RuntimeError(f"value cannot be converted to type {dt.name} without overflow")\
            from None


def check_writable(dest: Tensor) -> None:
    """RuntimeError when several elements of ``dest`` share one memory location."""
    if _layout.has_internal_overlap(dest._shape, dest._stride):
        raise RuntimeError("unsupported operation: more than one element of the written-to "
                           "tensor refers to a single memory location. Please clone() the "
                           "tensor before performing the operation.")


def assign(dest: Tensor, value) -> None:
    """Write ``value`` (scalar or broadcastable tensor) into the view ``dest``, in place."""
    check_writable(dest)
    src = _value_array(dest, value)
    if isinstance(value, Tensor) and value._shape != dest._shape:
        _layout.expand(value._shape, value._stride, 0, dest._shape)  # PyTorch's error message
    from .backends._numpy import call_quiet
    call_quiet(dest._arr.__setitem__, Ellipsis, src)
    dest._storage._bump()
