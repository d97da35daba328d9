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
                        f"{type_name(value)}")
    value = builtins.int(value)
    if not -2**63 <= value < 2**63:
        raise ValueError("Overflow when unpacking long long")
    return value


def int_tuple_arg(value, fn: str, arg: str, pos: int | None = None) -> tuple:
    """An int or a sequence of ints (``shifts``, ``dims``) as a tuple of ints."""
    if isinstance(value, (list, tuple)):
        return tuple(int_arg(v, fn, arg, pos, "tuple of ints") for v in value)
    return (int_arg(value, fn, arg, pos, "tuple of ints"),)


def type_name(value) -> str:
    """The type of ``value`` as PyTorch's argument parser names it in its TypeErrors
    (``bool``, ``Tensor``, ``torch.dtype``, ``numpy.bool``)."""
    if isinstance(value, Tensor):
        return "Tensor"
    cls = type(value)
    mod = cls.__module__
    if mod == "builtins":
        return cls.__name__
    if mod.startswith("tensorviz") and cls.__name__ == "dtype":
        return "torch.dtype"
    return f"{mod.split('.')[0]}.{cls.__name__}"


def bool_arg(value, fn: str, arg: str, pos: int | None = None) -> bool:
    """``value`` where PyTorch takes a bool: only True or False (an int, None, a NumPy bool
    or a bool tensor is its TypeError), so a learner's ``sort(0, 1)`` fails as in PyTorch.

    >>> bool_arg(1, "sort", "descending")
    TypeError: sort(): argument 'descending' must be bool, not int
    """
    if value is True or value is False:
        return value
    where = f" (position {pos})" if pos is not None else ""
    raise TypeError(f"{fn}(): argument '{arg}'{where} must be bool, not {type_name(value)}")


def dim_type_error(value, fn: str | None = None, arg: str = "dim",
                   what: str = "int") -> TypeError:
    """PyTorch's TypeError for a dim that is not an int (a bool, None, a float)."""
    head = f"{fn}(): argument" if fn else "argument"
    return TypeError(f"{head} '{arg}' must be {what}, not {type_name(value)}")


def spacing_overload(fn: str, x, dx, dx_type: str = "Number") -> None:
    """PyTorch's two overloads of ``trapezoid``/``cumulative_trapezoid``/``trapz``: samples
    ``x`` (a Tensor) or a spacing ``dx``, never both, and ``x`` never a number: its
    TypeError otherwise.

    >>> spacing_overload("trapezoid", tensorviz.arange(3.), 2)
    TypeError: trapezoid() received an invalid combination of arguments - got (Tensor,
    Tensor, dx=int), ...
    """
    if x is None or (isinstance(x, Tensor) and dx is None):
        return
    got = ["Tensor", type_name(x)] + ([f"dx={type_name(dx)}"] if dx is not None else [])
    raise TypeError(f"{fn}() received an invalid combination of arguments - got "
                    f"({', '.join(got)}), but expected one of:\n * (Tensor y, Tensor x, *, int "
                    f"dim = -1)\n * (Tensor y, *, {dx_type} dx = 1, int dim = -1)\n")
