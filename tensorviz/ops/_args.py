"""Argument checks worded as PyTorch's argument parser words them.

    >>> int_arg(1.5, "roll", "shifts", 2)
    TypeError: roll(): argument 'shifts' (position 2) must be int, not float
    >>> int_arg(10**30, "repeat", "repeats")
    ValueError: Overflow when unpacking long long
"""
from __future__ import annotations

import builtins

import numpy as np

from .._dtypes import _INT
from .._tensor import Tensor


def int_arg(value, fn: str, arg: str, pos: int | None = None, what: str = "int") -> int:
    """``value`` as a Python int where PyTorch takes an int (a 0-dim integer tensor too):
    TypeError for anything else (floats, bools, lists), ValueError past int64."""
    if isinstance(value, Tensor) and not value._shape and value._dtype.name != "bool" and \
            value._dtype.category == _INT:
        value = value.item()
    if isinstance(value, (builtins.bool, np.bool_)) or not isinstance(
            value, (builtins.int, np.integer)):
        where = f" (position {pos})" if pos is not None else ""
        raise TypeError(f"{fn}(): argument '{arg}'{where} must be {what}, not "
                        f"{type(value).__name__}")
    value = builtins.int(value)
    if not -2**63 <= value < 2**63:
        raise ValueError("Overflow when unpacking long long")
    return value


def int_tuple_arg(value, fn: str, arg: str, pos: int | None = None) -> tuple:
    """An int or a sequence of ints (``shifts``, ``dims``) as a tuple of ints."""
    if isinstance(value, (list, tuple)):
        return tuple(int_arg(v, fn, arg, pos, "tuple of ints") for v in value)
    return (int_arg(value, fn, arg, pos, "tuple of ints"),)
