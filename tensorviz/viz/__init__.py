"""Live views of tensors in memory: storage, strides, offsets and views, drawn and linked.

>>> import tensorviz
>>> a = tensorviz.arange(12).reshape(3, 4)
>>> tensorviz.show(a, a.t(), a[1:, ::2])   # one storage strip, three views over it
>>> tensorviz.show_broadcast(a[:, :1], a[0])  # how a + b broadcasts (stride 0, no copy)
>>> tensorviz.playground(a)                 # apply view ops step by step
>>> tensorviz.plot(a.t())                   # the same picture with matplotlib (static)

``show`` and ``playground`` return anywidget widgets (``TensorView``, ``Playground``);
anywidget and matplotlib are imported only when these are first used.
"""
from __future__ import annotations

from typing import Any, Sequence

__all__ = ["show", "show_broadcast", "playground", "plot", "TensorView", "Playground"]


def show(*tensors: Any, labels: Sequence[str] | None = None, **kwargs: Any):
    """Draw tensors (tensorviz, NumPy or PyTorch) with their storage, strides and offsets.

    Tensors that share a storage draw over one strip, each with its own colour and letter; a
    copy gets a strip of its own.  The widget updates live after in-place writes.

    In a notebook the widget is displayed where ``show`` is called, like ``print``: in a loop,
    before a ``print``, or assigned (``w = show(x)``).  The widget is returned as a handle
    (``w.refresh()``, ``w.scroll_storage(...)``); when ``show(...)`` is also the cell's last
    expression it is not drawn twice.

    >>> a = tensorviz.arange(12).reshape(3, 4)
    >>> for v in (a, a.t()):
    ...     tensorviz.show(v)        # two widgets, one per view

    Parameters: ``labels`` (default: the expressions you passed, e.g. ``a.t()``),
    ``strip_slots`` (storage slots per window, default 128), ``live`` (default True).
    """
    from ._labels import call_labels
    from ._widgets import TensorView

    if labels is None:
        labels = call_labels(tensors, ("show",))
    widget = TensorView(*tensors, labels=list(labels), **kwargs)
    widget._display_here()
    return widget


def show_broadcast(*tensors: Any, labels: Sequence[str] | None = None, **kwargs: Any):
    """How ``a + b`` broadcasts: the operands' shapes aligned from the right, and each operand
    expanded to the result's shape, its stride-0 dims drawn over its own storage (no copy).

    >>> a = tensorviz.arange(3).reshape(3, 1); b = tensorviz.arange(4)
    >>> tensorviz.show_broadcast(a, b)    # a, b, a.expand(3, 4) (stride (1, 0)), b.expand(3, 4)

    Works for tensorviz tensors, NumPy arrays and PyTorch tensors (each broadcast by its own
    library); shapes that do not broadcast raise that library's error.  Displayed where it is
    called, like :func:`show`.
    """
    from ._broadcast import broadcast_view
    from ._labels import call_labels

    if labels is None:
        labels = call_labels(tensors, ("show_broadcast",))
    widget = broadcast_view(tensors, list(labels), **kwargs)
    widget._display_here()
    return widget


def playground(tensor: Any, **kwargs: Any):
    """An interactive chain of view/copy ops on ``tensor`` (transpose, slicing, view, ...)."""
    from ._widgets import Playground

    return Playground(tensor, **kwargs)


def plot(*tensors: Any, **kwargs: Any):
    """A matplotlib figure of storage strip, logical grid and the mapping between them."""
    from ._plot import plot as _plot
    from ._labels import call_labels

    if "labels" not in kwargs:
        kwargs["labels"] = call_labels(tensors, ("plot",))
    return _plot(*tensors, **kwargs)


def __getattr__(name: str):
    if name in ("TensorView", "Playground"):
        from . import _widgets

        return getattr(_widgets, name)
    raise AttributeError(f"module 'tensorviz.viz' has no attribute {name!r}")
