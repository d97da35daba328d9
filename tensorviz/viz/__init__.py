"""Live views of tensors in memory: storage, strides, offsets and views, drawn and linked.

>>> import tensorviz
>>> a = tensorviz.arange(12).reshape(3, 4)
>>> tensorviz.show(a, a.t(), a[1:, ::2])   # one storage strip, three views over it
>>> tensorviz.show_broadcast(a[:, :1], a[0])  # how a + b broadcasts (stride 0, no copy)
>>> tensorviz.playground(a)                 # apply view ops step by step
>>> tensorviz.plot(a.t())                   # the same picture with matplotlib (static)
>>> tensorviz.show_graph(loss)              # the autograd graph, step through backward
>>> view = tensorviz.show_training(model, opt)  # live curves of a training loop
>>> tensorviz.show_batches(loader)          # indices -> samples -> collate -> batch

``show`` and ``playground`` return anywidget widgets (``TensorView``, ``Playground``);
anywidget and matplotlib are imported only when these are first used.
"""
from __future__ import annotations

from typing import Any, Sequence

__all__ = ["show", "show_broadcast", "show_graph", "show_training", "show_batches",
           "graph_demo", "GRAPH_DEMOS", "playground", "plot", "TensorView", "Playground",
           "GraphView", "TrainingView", "BatchView"]

from ._graph_demos import GRAPH_DEMOS  # noqa: E402  (a dict of short programs: light)


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


def show_graph(tensor_or_tensors: Any, params: Any = None, *, gradient: Any = None,
               labels: Sequence[str] | None = None, **kwargs: Any):
    """The autograd graph behind a tensor, live, with a step-through replay of backward.

    Nodes are named as PyTorch names them (``MulBackward0``), edges carry their ``input_nr``,
    leaves their ``AccumulateGrad`` and name (``params=``: a module, for its
    ``named_parameters``, or a dict of name -> tensor), inputs that need no gradient show as
    ``None`` stubs.  Each node shows what it saved for backward: a strip of the saved tensor's
    storage and its version at save time beside the live one, red once an in-place write
    has made backward impossible.  play / step / reset replay PyTorch's engine order on the
    same graph (``retain_graph=True``; ``.grad`` is left alone), showing the gradient along
    each edge and the ``+=`` into each leaf's ``.grad``; ``gradient=`` is the seed ``v`` of
    the vector-Jacobian product, as in ``y.backward(gradient=v)``.

    >>> x = tensorviz.tensor([1., 2.], requires_grad=True)
    >>> loss = (x * x).sum()
    >>> w = tensorviz.show_graph(loss)
    >>> w.step_forward(); w.refresh()     # also: w.play(), w.reset()

    Displayed where it is called, like :func:`show`; it grows when later cells compute more
    from the shown tensors (their variables become new roots).  tensorviz tensors only.
    """
    from ._graph_view import GraphView
    from ._labels import call_labels

    tensors = tuple(tensor_or_tensors) if isinstance(tensor_or_tensors, (list, tuple)) \
        else (tensor_or_tensors,)
    if labels is None:
        labels = call_labels(tensors, ("show_graph",)) if len(tensors) == 1 else \
            call_labels(tensors, ("__no_call__",))
    names = _caller_names()
    widget = GraphView(*tensors, labels=list(labels), params=params, gradient=gradient,
                       names=names, **kwargs)
    widget._display_here()
    return widget


def show_training(model: Any, optimizer: Any = None, *, epochs: int | None = None,
                  loader: Any = None, **kwargs: Any):
    """A live view of a training loop: progress, loss and accuracy curves, gradient norms per
    parameter, one ``optimizer.step()`` on a watched parameter (before/after and the
    optimizer's state), and what ``zero_grad()`` left in ``.grad``.

    Call ``view.step(loss, output=out, target=yb)`` once per batch; the view updates in place
    (at most every ``update_every`` seconds, default 0.25, and once more when the cell ends),
    so a long loop draws one widget, not thousands of lines.

    >>> view = tensorviz.show_training(model, optimizer, epochs=3, loader=loader)
    >>> for epoch in range(3):                           # doctest: +SKIP
    ...     for xb, yb in loader:
    ...         optimizer.zero_grad()
    ...         out = model(xb)
    ...         loss = loss_fn(out, yb)
    ...         loss.backward()
    ...         optimizer.step()
    ...         view.step(loss, output=out, target=yb)

    ``loader=`` (or ``batches=``) gives the batches per epoch for the progress bar; ``watch=``
    names the parameter whose step is shown (default: the first).  Works with PyTorch models
    and optimizers too.  Displayed where it is called, like :func:`show`.
    """
    from ._training import TrainingView

    widget = TrainingView(model, optimizer, epochs=epochs, loader=loader, **kwargs)
    widget._display_here()
    return widget


def show_batches(loader: Any, batches: int = 4, **kwargs: Any):
    """How a DataLoader builds its batches: the sampler's indices, the samples the dataset
    returns for them, ``collate_fn`` stacking them, and which worker process did it.

    >>> loader = DataLoader(ds, batch_size=8, shuffle=True, num_workers=2)
    >>> view = tensorviz.show_batches(loader, batches=4)   # draws the first 4 batches
    >>> for xb, yb in view: ...                           # or train on it: every batch drawn

    Runs the loader's own sampler, collate_fn and worker processes on a traced copy of it
    (its dataset wrapped so each sample carries its index, its collate_fn so each batch
    carries the id that ``get_worker_info()`` gives inside the worker).  Map-style datasets
    with a ``batch_size``; tensorviz and PyTorch DataLoaders.  Displayed where it is called.
    """
    from ._batches import BatchView

    widget = BatchView(loader, batches=batches, **kwargs)
    widget._display_here()
    return widget


def _caller_names() -> dict:
    """id -> name of the tensors in the calling code's namespace (leaf labels)."""
    import inspect
    import sys

    from ._graph_view import _tensors_in

    frame = sys._getframe(2)
    try:
        names = _tensors_in(frame.f_globals)
        if not frame.f_code.co_flags & inspect.CO_OPTIMIZED:
            # module level only: a function's f_locals would cache a snapshot on its frame
            # (Python < 3.13) that keeps the learner's tensors alive after `del`
            names.update(_tensors_in(frame.f_locals))
        return names
    finally:
        del frame


def graph_demo(title: str, **kwargs: Any):
    """The graph widget of one of the classroom demo's short autograd programs
    (``GRAPH_DEMOS``: title -> code), run fresh: what the demo's graph mode shows.

    >>> tensorviz.viz.graph_demo("x used twice: gradients add up")
    """
    from ._graph_demos import graph_demo as _demo

    return _demo(title, **kwargs)


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
    if name == "TrainingView":
        from ._training import TrainingView

        return TrainingView
    if name == "BatchView":
        from ._batches import BatchView

        return BatchView
    if name == "GraphView":
        from ._graph_view import GraphView

        return GraphView
    raise AttributeError(f"module 'tensorviz.viz' has no attribute {name!r}")
