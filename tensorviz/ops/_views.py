"""Module-level forms of the view ops (``tensorviz.transpose(t, 0, 1)`` ...) and broadcasting.

Each is the Tensor method of the same name: one implementation, two spellings, as in PyTorch.
"""
from __future__ import annotations

from typing import Sequence

from .. import _layout
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
