"""The autograd graph as the graph widget draws it: nodes, edges, saved tensors, and a replay
of backward step by step.

:func:`build` walks ``grad_fn`` / ``next_functions`` from the shown tensors (the roots) and
returns small JSON: one entry per node, named as PyTorch names it (``node.name()``), one
per edge labelled with its ``input_nr`` (the second element of a ``next_functions`` pair:
which output of the producer feeds it), ``None`` inputs as stubs, leaves with their
``AccumulateGrad`` and a name (a parameter's, from ``params``, or the variable's).  Each node
lists what it saved with the version stamped at save time and the live version: they differ
once an in-place write made backward impossible.

:func:`replay` runs PyTorch's engine order on the same graph through
``tensorviz.autograd.grad(..., retain_graph=True)`` with node pre-hooks and hooks, recording
each node's incoming and outgoing gradients; nothing the learner owns changes (``.grad``,
saved tensors, hooks: the learner's own hooks are set aside during the replay and put back).

Real ``torch.Tensor`` graphs are drawn through PyTorch's own interface (``grad_fn``,
``next_functions``, the ``_saved_*`` attributes, node hooks): see :mod:`._graph_torch`;
``import tensorviz`` never imports torch.

>>> x = tensorviz.tensor([1., 2.], requires_grad=True)
>>> y = (x * x).sum()
>>> state = build([y], ["y"])
>>> [n["name"] for n in state["nodes"]]
['SumBackward0', 'MulBackward0', 'torch::autograd::AccumulateGrad']
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from . import _graph_torch

__all__ = ["build", "replay", "summary", "family", "MAX_NODES", "MAX_EVENTS", "MAX_VALUES"]

MAX_NODES = 64     # nodes drawn per widget (the rest is counted, not drawn)
MAX_EVENTS = 160   # replay steps kept
MAX_VALUES = 8     # values shown per gradient or saved tensor
STRIP_SLOTS = 12   # storage slots drawn per saved tensor


def _fmt(v: Any) -> str:
    if isinstance(v, complex):
        return f"{v:.4g}"
    if isinstance(v, (bool, np.bool_)):
        return "True" if v else "False"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    f = float(v)
    if math.isnan(f) or math.isinf(f):
        return str(f)
    if f == int(f) and abs(f) < 1e6:
        return f"{f:.1f}"
    return f"{f:.4g}"


def summary(t) -> dict | None:
    """A bounded picture of a gradient: shape, dtype and its first values as text."""
    if t is None:
        return None
    try:
        shape = list(t.shape)
        dtype = str(t.dtype).replace("tensorviz.", "torch.")
        flat = t.detach().reshape(-1)
        n = int(flat.numel())
        vals = flat[:MAX_VALUES].tolist() if n else []
    except Exception:
        return {"shape": [], "dtype": "", "values": [], "more": 0, "text": "?"}
    values = [_fmt(v) for v in vals]
    text = values[0] if not shape and values else \
        "[" + ", ".join(values) + (", …" if n > len(values) else "") + "]"
    return {"shape": shape, "dtype": dtype, "values": values, "more": max(n - len(values), 0),
            "text": text}


def _saved_tensor_state(name: str, saved) -> dict:
    """One saved slot: version at save time, live version, freed, and a strip of its storage."""
    out = {"name": name, "version": int(saved._version), "live": int(saved._vc[0]),
           "released": bool(saved._released), "shape": [], "dtype": "", "strip": None}
    out["stale"] = out["live"] != out["version"]
    data = None if saved._released else saved._data
    from .._tensor import Tensor
    if isinstance(data, Tensor):
        out["shape"] = list(data.shape)
        out["dtype"] = str(data.dtype).replace("tensorviz.", "torch.")
        out["strip"] = _strip(data)
    return out


def _strip(t) -> dict | None:
    """The first slots of ``t``'s storage from its offset, and which of them ``t`` reads."""
    try:
        storage_size = int(t.untyped_storage().nbytes() // t.element_size())
        start = int(t.storage_offset())
        count = max(min(STRIP_SLOTS, storage_size - start), 0)
        from ._source import as_source
        values = as_source(t).read(start, start + count)
        if values is None:
            return None
        on = [False] * count
        n = int(t.numel())
        if n and n <= 4096:
            idx = np.indices(tuple(t.shape)).reshape(len(t.shape), -1) if t.dim() else \
                np.zeros((0, 1), np.int64)
            addr = start + (np.asarray(t.stride(), np.int64)[:, None] * idx).sum(0) \
                if t.dim() else np.array([start])
            for a in np.unique(addr):
                if 0 <= a - start < count:
                    on[int(a - start)] = True
        return {"start": start, "size": storage_size, "values": [_fmt(v) for v in values],
                "on": on}
    except Exception:
        return None


def _other_saved(name: str, value: Any) -> dict:
    text = repr(value)
    if len(text) > 40:
        text = text[:39] + "…"
    return {"name": name, "text": text}


def _saved_of(node) -> list[dict]:
    if _graph_torch.is_torch_node(node):
        return _graph_torch.saved_of(node)
    from ..autograd.graph import CopySlices, SavedTensor
    inner = node.fn if isinstance(node, CopySlices) else node
    names = getattr(inner, "_saved_names", None)
    items = []
    if names:
        for key, value in list(names.items())[:8]:
            if isinstance(value, SavedTensor):
                items.append(_saved_tensor_state(key, value))
            else:
                items.append(_other_saved(key, value))
    elif getattr(inner, "_saved", None):
        for k, value in enumerate(list(inner._saved)[:8]):
            if isinstance(value, SavedTensor):
                items.append(_saved_tensor_state(f"saved[{k}]", value))
    return items


def _kind(node) -> str:
    if _graph_torch.is_torch_node(node):
        return _graph_torch.kind(node)
    from ..autograd.graph import AccumulateGrad, CopySlices
    if isinstance(node, AccumulateGrad):
        return "leaf"
    if isinstance(node, CopySlices):
        return "copyslices"
    return "function"


def walk(roots: Sequence[Any], limit: int = MAX_NODES) -> tuple[list, int]:
    """The nodes reachable from ``roots`` (nodes), breadth first, at most ``limit``; and how
    many more there were."""
    seen: dict[int, Any] = {}
    order: list = []
    queue = [r for r in roots if r is not None]
    more = 0
    while queue:
        n = queue.pop(0)
        if id(n) in seen:
            continue
        if len(order) >= limit:
            more += 1
            seen[id(n)] = n
            continue
        seen[id(n)] = n
        order.append(n)
        for nxt, _ in n.next_functions:
            if nxt is not None and id(nxt) not in seen:
                queue.append(nxt)
    return order, more


def _fn_name(fn: Any) -> str:
    """A hook's name as a learner wrote it: ``print_grad``, ``<lambda>``."""
    name = str(getattr(fn, "__name__", None) or type(fn).__name__)
    return name if len(name) <= 40 else name[:39] + "…"


def _taps(node, out_names: dict) -> list[dict]:
    """The learner's hooks and ``retain_grad`` taps on ``node`` (a tensorviz node), in the
    order backward fires them: tensor hooks and retain_grad taps on its outputs and node
    pre-hooks before it runs, node hooks after; at a leaf, the tensor's hooks, then the
    ``+=``, then post-accumulate hooks."""
    from ..autograd.graph import AccumulateGrad

    taps: list[dict] = []
    if isinstance(node, AccumulateGrad):
        v = node.variable
        ag = None if v is None else v._ag
        for fn in ((ag.hooks or {}).values() if ag is not None else ()):
            taps.append({"kind": "tensor hook", "fn": _fn_name(fn), "output": 0})
        for fn in (node._prehooks or {}).values():
            taps.append({"kind": "pre-hook", "fn": _fn_name(fn)})
        for fn in ((ag.post_acc_hooks or {}).values() if ag is not None and
                   isinstance(ag.post_acc_hooks, dict) else ()):
            taps.append({"kind": "post-accumulate hook", "fn": _fn_name(fn)})
        return taps[:8]
    for nr, table in sorted((node._tensor_prehooks or {}).items()):
        for fn in table.values():
            taps.append({"kind": "tensor hook", "fn": _fn_name(fn), "output": int(nr),
                         "tensor": out_names.get((id(node), int(nr)), "")})
    for nr in sorted(node._retain_hooks or {}):
        taps.append({"kind": "retain_grad", "output": int(nr),
                     "tensor": out_names.get((id(node), int(nr)), "")})
    for fn in (node._prehooks or {}).values():
        taps.append({"kind": "pre-hook", "fn": _fn_name(fn)})
    for fn in (node._hooks or {}).values():
        taps.append({"kind": "hook", "fn": _fn_name(fn)})
    return taps[:8]


def root_node(t):
    """The node backward starts from for ``t``: its ``grad_fn``, or a leaf's AccumulateGrad."""
    if _graph_torch.is_torch_tensor(t):
        return _graph_torch.root_node(t)
    ag = t._ag
    node = None if ag is None else ag.grad_fn
    if node is None and ag is not None and ag.requires_grad:
        from ..autograd._engine import accumulator
        node = accumulator(t)
    return node


def build(roots: Sequence[Any], labels: Sequence[str], params: dict | None = None,
          names: dict | None = None, out_names: dict | None = None,
          outputs: dict | None = None) -> dict:
    """The graph's state: ``roots`` (tensors), ``nodes``, ``edges``, ``more`` (not drawn).

    ``params``: id(tensor) -> parameter name; ``names``: id(tensor) -> a variable's name;
    ``out_names``: (id(node), output_nr) -> the name of the tensor that node made (for the
    ``retain_grad`` taps); ``outputs``: the same keys -> (name, tensor), for a torch graph's
    taps.  ``roots`` are all tensorviz tensors or all ``torch.Tensor``.
    """
    params = params or {}
    names = names or {}
    out_names = out_names or {}
    root_nodes, root_info = [], []
    for t, label in zip(roots, labels):
        if t is None:
            continue
        node = root_node(t)
        root_nodes.append(node)
        root_info.append({"label": label, "shape": list(t.shape),
                          "output_nr": int(getattr(t, "output_nr", 0) or 0),
                          "requires_grad": bool(t.requires_grad)})
    order, more = walk(root_nodes)
    index = {id(n): k for k, n in enumerate(order)}
    for info, node in zip(root_info, root_nodes):
        info["node"] = index.get(id(node)) if node is not None else None
    # depth: longest path from a root, so every edge points down
    depth = {id(n): 0 for n in root_nodes if n is not None}
    for _ in range(len(order)):
        changed = False
        for n in order:
            d = depth.get(id(n), 0)
            for nxt, _ in n.next_functions:
                if nxt is not None and id(nxt) in index and depth.get(id(nxt), -1) < d + 1:
                    depth[id(nxt)] = d + 1
                    changed = True
        if not changed:
            break
    nodes, edges = [], []
    stubs = 0
    torch_graph = bool(order) and _graph_torch.is_torch_node(order[0])
    for k, n in enumerate(order):
        kind = _kind(n)
        entry = {"id": k, "name": n.name(), "kind": kind, "depth": depth.get(id(n), 0),
                 "saved": [] if kind == "leaf" else _saved_of(n), "label": "",
                 "taps": _graph_torch.taps_of(n, outputs or {}) if torch_graph
                 else _taps(n, out_names),
                 "released": bool(getattr(n, "_released", False))}
        if not torch_graph:
            entry["released"] = entry["released"] or any(s.get("released")
                                                         for s in entry["saved"])
        entry["hooks"] = any(t["kind"] != "retain_grad" for t in entry["taps"])
        entry["retains"] = [t["output"] for t in entry["taps"] if t["kind"] == "retain_grad"]
        if kind == "leaf":
            v = n.variable
            if v is None:  # (a leaf no one holds any more: the graph does not keep it)
                entry.update(label="(freed leaf)", param=False, shape=[], grad=None)
            else:
                entry["label"] = params.get(id(v)) or names.get(id(v)) or ""
                entry["param"] = id(v) in params
                entry["shape"] = list(v.shape)
                entry["grad"] = summary(v.grad)
        nodes.append(entry)
        for i, (nxt, nr) in enumerate(n.next_functions):
            if nxt is None:
                edges.append({"src": k, "dst": None, "slot": i, "input_nr": int(nr),
                              "stub": stubs})
                stubs += 1
            elif id(nxt) in index:
                edges.append({"src": k, "dst": index[id(nxt)], "slot": i, "input_nr": int(nr)})
    return {"roots": root_info, "nodes": nodes, "edges": edges, "more": more,
            "torch": torch_graph, "_order": order}


MAX_FAMILY = 8  # tensors listed beside the graph


def family(order: list, roots: Sequence[Any], labels: Sequence[str],
           namespace: Sequence[tuple]) -> list[dict]:
    """The notebook's tensors that share memory with this graph's tensors (its leaves, what
    its nodes saved, its roots) without being them, and whether they share the version
    counter: ``detach()`` and views do (autograd sees a write through them: the stamp turns
    red), ``.data`` does not (the write goes unseen); inference tensors are marked.

    ``namespace``: (name, tensor) pairs.  At most :data:`MAX_FAMILY` entries.
    """
    from .._tensor import Tensor
    from ..autograd.graph import AccumulateGrad, CopySlices, SavedTensor

    known: dict[int, tuple] = {}   # id(storage) -> (what, version counter list or None)
    mine: set[int] = set()

    def note(t, what: str, vc) -> None:
        if isinstance(t, Tensor):
            mine.add(id(t))
            known.setdefault(id(t._storage), (what, vc))

    for t, label in zip(roots, labels):
        if isinstance(t, Tensor):
            note(t, label, t._vc)
    for n in order:
        if isinstance(n, AccumulateGrad):
            v = n.variable
            if v is not None:
                note(v, "a leaf", v._vc)
            continue
        inner = n.fn if isinstance(n, CopySlices) else n
        for key, value in list((getattr(inner, "_saved_names", None) or {}).items()):
            if isinstance(value, SavedTensor) and isinstance(value._data, Tensor):
                note(value._data, f"{key} saved by {n.name()}", value._vc)
    out: list[dict] = []
    for name, t in namespace:
        if len(out) >= MAX_FAMILY:
            break
        if not isinstance(t, Tensor) or id(t) in mine:
            continue
        ag = t._ag
        if ag is not None and ag.inference:
            out.append({"name": name, "kind": "inference",
                        "text": f"{name} is an inference tensor (made under inference_mode): "
                                "no version counter, never saved for backward"})
            continue
        hit = known.get(id(t._storage))
        if hit is None or t.requires_grad:  # (in the graph: drawn there)
            continue
        what, vc = hit
        version = t._vc[0] if t._vc is not None else 0
        if vc is not None and t._vc is vc:
            out.append({"name": name, "kind": "shared", "of": what, "version": int(version),
                        "text": f"{name} shares memory and the version counter (v{version}) "
                                f"with {what}: autograd sees writes through {name} "
                                "(detach() and views join the family's counter)"})
        else:
            out.append({"name": name, "kind": "own", "of": what, "version": int(version),
                        "text": f"{name} shares memory with {what} but has its own version "
                                f"counter (v{version}): autograd does not see writes through "
                                f"{name} (.data)"})
    return out


class ReplayEvents:
    """The hooks a replay of backward puts on each node (the same for tensorviz's engine and
    PyTorch's): ``pre(k)`` logs the gradient node ``k`` receives, ``post(k)`` the ones it
    sends along its edges, ``at_leaf(k, leaf)`` the ``.grad += g`` of a leaf.  Appends at most
    ``MAX_EVENTS`` dicts to ``events``.

    >>> pre, at_leaf, post = ReplayEvents(events := []).hooks()
    """

    def __init__(self, events: list):
        self.events = events

    def hooks(self):
        """The three hook factories: ``(pre, at_leaf, post)``."""
        return self.pre, self.at_leaf, self.post

    def pre(self, k: int):
        events = self.events

        def hook(grad_outputs):
            if len(events) < MAX_EVENTS:
                events.append({"node": k, "grads_in": [summary(g) for g in grad_outputs[:4]],
                               "grads_out": []})
        return hook

    def at_leaf(self, k: int, leaf: Any):
        # autograd.grad captures a leaf's gradient through the leaf's tensor hooks (its
        # AccumulateGrad node does not run), at the moment backward would accumulate it
        events = self.events

        def hook(g):
            if len(events) < MAX_EVENTS:
                before = leaf.grad  # `.grad += g`: the same object, accumulating
                events.append({"node": k, "grads_in": [summary(g)], "grads_out": [],
                               "grad_before": summary(before),
                               "grad_after": summary(g if before is None
                                                     else before.detach() + g)})
        return hook

    def post(self, k: int):
        events = self.events

        def hook(grad_inputs, grad_outputs):
            for e in reversed(events):
                if e["node"] == k:
                    e["grads_out"] = [summary(g) for g in grad_inputs[:16]]
                    break
        return hook


def replay(roots: Sequence[Any], seeds: Sequence[Any], order: list,
           tensors: Sequence[Any] = ()) -> dict:
    """Run backward on the graph without touching ``.grad``: the engine's order of nodes, the
    gradient each receives and each sends along its edges, and the accumulation at leaves.

    Returns ``{"events": [...], "error": "" or "RuntimeError: ..."}``.
    """
    if order and _graph_torch.is_torch_node(order[0]):
        return _graph_torch.replay(roots, seeds, order, tensors)
    from .. import autograd
    from ..autograd.graph import AccumulateGrad

    index = {id(n): k for k, n in enumerate(order)}
    events: list[dict] = []
    leaves = [n.variable for n in order if isinstance(n, AccumulateGrad)]
    outputs = [t for t in roots if t is not None and t.grad_fn is not None]
    if not outputs:
        return {"events": [], "error": "", "seeds": []}
    seed_list = [None if s is None else s for s, t in zip(seeds, roots)
                 if t is not None and t.grad_fn is not None]
    stashed = []
    leaf_hooks = []
    handles = []

    pre, at_leaf, post = ReplayEvents(events).hooks()

    try:
        for n in order:  # the learner's hooks and retain_grad taps sit out the replay
            stashed.append((n, n._hooks, n._prehooks, n._tensor_prehooks, n._retain_hooks))
            n._hooks = n._prehooks = n._tensor_prehooks = n._retain_hooks = None
            if isinstance(n, AccumulateGrad):
                leaf_hooks.append((n.variable._ag, n.variable._ag.hooks))
                n.variable._ag.hooks = None
        for n in order:
            k = index[id(n)]
            if isinstance(n, AccumulateGrad):
                handles.append(n.variable.register_hook(at_leaf(k, n.variable)))
            else:
                handles.append(n.register_prehook(pre(k)))
                handles.append(n.register_hook(post(k)))
        error = ""
        try:
            autograd.grad(outputs, leaves or outputs, grad_outputs=seed_list,
                          retain_graph=True, allow_unused=True)
        except Exception as exc:  # the error backward would raise now: shown, not raised
            error = f"{type(exc).__name__}: {exc}"
    finally:
        for h in handles:
            h.remove()
        for n, hooks, prehooks, tensor_pre, retain in stashed:
            n._hooks, n._prehooks, n._tensor_prehooks, n._retain_hooks = \
                hooks, prehooks, tensor_pre, retain
        for ag, hooks in leaf_hooks:
            ag.hooks = hooks
    return {"events": events, "error": error,
            "seeds": [summary(s) if s is not None else None for s in seed_list]}
