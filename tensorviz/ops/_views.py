"""Module-level forms of the view ops (``tensorviz.transpose(t, 0, 1)`` ...) and broadcasting.

Each is the Tensor method of the same name: one implementation, two spellings, as in PyTorch.
"""
from __future__ import annotations

import builtins
from typing import Sequence

import numpy as np

from .. import _dtypes, _layout
from .._size import Size
from .._tensor import Tensor

_METHOD_FORMS = (
    "transpose", "swapaxes", "swapdims", "t", "permute", "movedim", "moveaxis", "reshape",
    "flatten", "unflatten", "squeeze", "unsqueeze", "narrow", "select", "broadcast_to",
    "chunk", "split", "unbind", "tensor_split", "diagonal", "as_strided", "clone", "ravel",
    "adjoint", "detach", "hsplit", "vsplit", "dsplit",
)


def _method_form(name: str):
    def fn(input: Tensor, *args, **kwargs):
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}(): argument 'input' must be Tensor, not "
                            f"{type(input).__name__}")
        return getattr(input, name)(*args, **kwargs)
    fn.__name__ = name
    fn.__qualname__ = name
    fn.__doc__ = f"``tensorviz.{name}(input, ...)`` is ``input.{name}(...)``."
    return fn


FUNCTIONS = {name: _method_form(name) for name in _METHOD_FORMS}


def split(tensor: Tensor, split_size_or_sections, dim: int = 0) -> tuple[Tensor, ...]:
    """``tensorviz.split(t, 2)`` is ``t.split(2)`` (PyTorch's keyword names)."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"split(): argument 'tensor' must be Tensor, not "
                        f"{type(tensor).__name__}")
    return tensor.split(split_size_or_sections, dim)


FUNCTIONS["split"] = split

_SPLIT_SIGNATURES = ("(Tensor input, Tensor tensor_indices_or_sections, int dim = 0), "
                     "(Tensor input, int sections, int dim = 0), "
                     "(Tensor input, tuple of ints indices, int dim = 0)")
_tensor_split_method = Tensor.tensor_split


def tensor_split(input: Tensor, *args, **kwargs) -> tuple[Tensor, ...]:
    """``tensor_split(input, sections | indices | tensor_indices_or_sections, dim=0)`` with
    PyTorch's three signatures (one of the three given, by position or by its keyword)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"tensor_split(): argument 'input' must be Tensor, not "
                        f"{type(input).__name__}")
    names = ("sections", "indices", "tensor_indices_or_sections")
    given = [n for n in names if n in kwargs]
    unknown = [k for k in kwargs if k not in names + ("dim",)]
    # exactly one of the three, by position (then dim may follow it) or by keyword
    n_split = len(given) + builtins.min(len(args), 1)
    n_dim = builtins.max(len(args) - 1, 0) + ("dim" in kwargs)
    if unknown or n_split != 1 or n_dim > 1 or (given and args):
        got = ", ".join(["Tensor"] + [type(a).__name__ for a in args] +
                        [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        raise TypeError(f"tensor_split() received an invalid combination of arguments - got "
                        f"({got}), but expected one of: {_SPLIT_SIGNATURES}")
    if given:
        name = given[0]
        arg = kwargs[name]
    else:
        name, arg = None, args[0]
    dim = kwargs.get("dim", args[1] if len(args) > 1 else 0)
    if isinstance(arg, Tensor):
        if name not in (None, "tensor_indices_or_sections"):
            raise TypeError(f"tensor_split() received an invalid combination of arguments - got "
                            f"(Tensor, {name}=Tensor), but expected one of: {_SPLIT_SIGNATURES}")
        if arg._dtype is not _dtypes.int64:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype "
                               f"of long, but got {_SCALAR_NAMES[arg._dtype.name]}")
        if len(arg._shape) > 1:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be a "
                               f"zero-dimensional or one-dimensional tensor, but got a tensor "
                               f"with {len(arg._shape)} dims")
        arg = builtins.int(arg.item()) if not arg._shape else [builtins.int(v) for v in
                                                                arg.tolist()]
    elif name == "tensor_indices_or_sections":
        raise TypeError(f"tensor_split(): argument 'tensor_indices_or_sections' must be "
                        f"Tensor, not {type(arg).__name__}")
    elif isinstance(arg, (builtins.int, np.integer)) and not isinstance(arg, builtins.bool):
        if name == "indices":
            raise TypeError(f"tensor_split(): argument 'indices' must be tuple of ints, not "
                            f"{type(arg).__name__}")
        arg = builtins.int(arg)
        if not -2**63 <= arg < 2**63:
            raise ValueError("Overflow when unpacking long long")
    elif isinstance(arg, (list, tuple, Size)):
        if name == "sections":
            raise TypeError(f"tensor_split(): argument 'sections' must be int, not "
                            f"{type(arg).__name__}")
        arg = [_as_index(v) for v in arg]
    else:
        raise TypeError(f"tensor_split() received an invalid combination of arguments - got "
                        f"(Tensor, {type(arg).__name__}), but expected one of: "
                        f"{_SPLIT_SIGNATURES}")
    return _tensor_split_method(input, arg, dim)


_SCALAR_NAMES = {"bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short",
                 "int32": "Int", "int64": "Long", "float16": "Half", "float32": "Float",
                 "float64": "Double", "complex64": "ComplexFloat",
                 "complex128": "ComplexDouble"}


def _as_index(v) -> int:
    if isinstance(v, Tensor) and not v._shape and v._dtype.category == _dtypes._INT:
        return builtins.int(v.item())
    if isinstance(v, (builtins.int, np.integer)) and not isinstance(v, builtins.bool):
        return builtins.int(v)
    raise TypeError(f"tensor_split(): argument 'indices' must be tuple of ints, but found "
                    f"element of type {type(v).__name__}")


FUNCTIONS["tensor_split"] = tensor_split
METHODS = {"tensor_split": tensor_split}


def broadcast_shapes(*shapes) -> Size:
    """The shape that tensors of ``shapes`` broadcast to (RuntimeError if they cannot)."""
    norm = [(s,) if isinstance(s, int) else tuple(s) for s in shapes]
    return Size(_layout.broadcast_shapes(*norm))


def broadcast_tensors(*tensors: Tensor) -> tuple[Tensor, ...]:
    """Views of ``tensors`` expanded to their common shape (stride 0 on broadcast dims)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shape = _layout.broadcast_shapes(*(t._shape for t in tensors))
    return tuple(t.expand(shape) for t in tensors)


def atleast_1d(*tensors):
    return _atleast(tensors, 1)


def atleast_2d(*tensors):
    return _atleast(tensors, 2)


def atleast_3d(*tensors):
    return _atleast(tensors, 3)


def _atleast(tensors: Sequence[Tensor], n: int):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return tuple(_atleast((t,), n) for t in tensors[0])
    out = []
    for t in tensors:
        if n == 1:
            r = t.reshape(1) if t.dim() == 0 else t
        elif n == 2:
            r = t.reshape(1, 1) if t.dim() == 0 else (t.unsqueeze(0) if t.dim() == 1 else t)
        else:
            r = (t.reshape(1, 1, 1) if t.dim() == 0 else t.reshape(1, -1, 1) if t.dim() == 1
                 else t.unsqueeze(-1) if t.dim() == 2 else t)
        out.append(r)
    return out[0] if len(out) == 1 else tuple(out)


FUNCTIONS.update({"broadcast_shapes": broadcast_shapes, "broadcast_tensors": broadcast_tensors,
                  "atleast_1d": atleast_1d, "atleast_2d": atleast_2d, "atleast_3d": atleast_3d})
