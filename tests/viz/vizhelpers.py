"""Helpers for the widget tests: payload measurement, front-end messages, three input kinds."""
from __future__ import annotations

import json

import numpy as np
import pytest

import tensorviz


def payload_bytes(widget, code: bool = False) -> int:
    """Bytes a widget's state sends to the front end: JSON plus binary buffers.

    ``code=False`` leaves out the ES module and CSS (``_esm``/``_css``: the same ~50 KB for
    every widget, whatever it draws); ``code=True`` counts everything sent at display.
    """
    from ipywidgets.widgets.widget import _remove_buffers

    state = widget.get_state()
    if not code:
        state = {k: v for k, v in state.items() if k not in ("_esm", "_css")}
    state, _paths, buffers = _remove_buffers(state)
    return len(json.dumps(state)) + sum(memoryview(b).nbytes for b in buffers)


def make(kind: str, data: np.ndarray):
    """``data`` as a tensorviz tensor, a NumPy array or a torch tensor (skip if no torch)."""
    if kind == "tensorviz":
        return tensorviz.from_numpy(data.copy())
    if kind == "numpy":
        return data.copy()
    torch = pytest.importorskip("torch")
    return torch.from_numpy(data.copy())


KINDS = ["tensorviz", "numpy", "torch"]


def from_front_end(widget, content) -> None:
    """Deliver ``content`` as the front end's ``model.send(content)`` does (a comm message)."""
    widget._handle_msg({"content": {"data": {"method": "custom", "content": content}},
                        "buffers": []})


def front_end_sets(widget, **state) -> None:
    """Deliver a state change as the front end's ``model.set(...); save_changes()`` does."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state,
                                             "buffer_paths": []}}, "buffers": []})


def graph_nodes(root):
    """(name, [(child index or None, input_nr)]) per node of ``root``'s graph, breadth first,
    as the graph widget walks it (works on tensorviz and PyTorch tensors)."""
    order, seen, queue = [], {}, [root.grad_fn]
    while queue:
        n = queue.pop(0)
        if n in seen:
            continue
        seen[n] = len(order)
        order.append(n)
        queue += [m for m, _ in n.next_functions if m is not None and m not in seen]
    index = {n: k for k, n in enumerate(order)}
    return [(n.name(), [(None if m is None else index[m], nr) for m, nr in n.next_functions])
            for n in order]
