"""The broadcasting view: ``a + b`` explained as shapes aligned from the right and operands
expanded (stride 0, no copy) to the result's shape.

Each operand is broadcast by its own library (``tensorviz.broadcast_tensors``,
``np.broadcast_arrays``, ``torch.broadcast_tensors``), so the drawn strides are that library's
own, and a mismatch raises its own error::

    alignment((3, 1), (4,))  ->  result (3, 4); a: [3, 1 -> 4]; b: [(1) -> 3, 4]
"""
from __future__ import annotations

import sys
from typing import Any, Sequence

import numpy as np

from .._layout import broadcast_shapes

__all__ = ["alignment", "broadcast_view"]


def alignment(shapes: Sequence[Sequence[int]], labels: Sequence[str]) -> dict:
    """The shapes aligned from the right, dim by dim, with what broadcasting does to each."""
    result = tuple(broadcast_shapes(*shapes))
    n = len(result)
    rows = []
    for shape, label in zip(shapes, labels):
        padded: list[dict] = []
        lead = n - len(shape)
        for d in range(n):
            size = None if d < lead else int(shape[d - lead])
            grows = size is None or (size == 1 and result[d] != 1)
            padded.append({"size": size, "to": result[d], "broadcast": grows})
        rows.append({"label": label, "shape": [int(s) for s in shape], "dims": padded})
    return {"result": list(result), "operands": rows}


def _expand_all(tensors: Sequence[Any]) -> list[Any]:
    """Each operand expanded to the common shape by its own library (views, stride 0)."""
    if all(isinstance(t, np.ndarray) for t in tensors):
        return list(np.broadcast_arrays(*tensors))
    torch = sys.modules.get("torch")
    if torch is not None and all(isinstance(t, torch.Tensor) for t in tensors):
        return list(torch.broadcast_tensors(*tensors))
    from .._tensor import Tensor
    from ..ops.views import broadcast_tensors

    if all(isinstance(t, Tensor) for t in tensors):
        return list(broadcast_tensors(*tensors))
    raise TypeError(f"show_broadcast() takes tensors of one library (tensorviz, NumPy or PyTorch), "
                    f"got {', '.join(type(t).__name__ for t in tensors)}; convert first, e.g. "
                    f"tensorviz.from_numpy(array)")


def broadcast_view(tensors: Sequence[Any], labels: list[str], **kwargs: Any):
    """A :class:`TensorView` of the operands and their expansions, with the alignment."""
    from ._scene import MAX_TENSORS
    from ._widgets import TensorView

    if len(tensors) < 2:
        raise TypeError("show_broadcast() needs at least two tensors, e.g. "
                        "tensorviz.show_broadcast(a, b)")
    if 2 * len(tensors) > MAX_TENSORS:
        raise ValueError(f"show_broadcast() draws at most {MAX_TENSORS // 2} operands")
    if len(labels) != len(tensors):
        raise ValueError(f"got {len(labels)} labels for {len(tensors)} tensors")
    expanded = _expand_all(tensors)
    shape = tuple(int(s) for s in expanded[0].shape)
    size = ", ".join(str(s) for s in shape)
    names = [f"{label}.expand({size})" for label in labels]
    widget = TensorView(*tensors, *expanded, labels=list(labels) + names, **kwargs)
    widget.broadcast = alignment([tuple(t.shape) for t in tensors], labels)
    widget._keep = expanded  # the expanded views are temporaries: drawn while the widget lives
    return widget
