"""Real ``torch.Tensor`` graphs for the graph widget, read through PyTorch's own interface.

A learner can point ``tensorviz.show_graph`` at a real PyTorch model's loss: the nodes are
PyTorch's (``grad_fn``, ``next_functions``, ``name()``), what each saved comes from its
``_saved_*`` attributes (PyTorch checks the version there: reading a stale one raises the
error backward would raise, which gives both versions), and the replay of backward runs
``torch.autograd.grad(..., retain_graph=True)`` with node pre-hooks and hooks.

torch is never imported here: a tensor is recognised by its type's module, and torch is
reached through the tensor's own methods and ``sys.modules``.

>>> import torch
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> kind(root_node((x * x).sum()))
'function'
"""
from __future__ import annotations

import re
import sys
from typing import Any, Sequence

__all__ = ["is_torch_tensor", "is_torch_node", "root_node", "kind", "saved_of", "taps_of",
           "replay"]

_STALE = re.compile(r"is at version (\d+); expected version (\d+) instead")
STRIP_SLOTS = 12


def is_torch_tensor(t: Any) -> bool:
    """True for a ``torch.Tensor`` (or subclass, e.g. ``nn.Parameter``), without importing
    torch."""
    return any(c.__module__.startswith("torch") and c.__name__ == "Tensor"
               for c in type(t).__mro__)


def is_torch_node(node: Any) -> bool:
    """True for a node of a real PyTorch graph (tensorviz's nodes live in tensorviz)."""
    return node is not None and not type(node).__module__.startswith("tensorviz")


def root_node(t):
    """``t.grad_fn``, or for a leaf that requires grad its ``AccumulateGrad`` node."""
    if t.grad_fn is not None:
        return t.grad_fn
    if not t.requires_grad:
        return None
    torch = sys.modules["torch"]
    with torch.enable_grad():  # (the leaf's AccumulateGrad: the input of a throwaway view)
        return t.view_as(t).grad_fn.next_functions[0][0]


def kind(node) -> str:
    name = node.name()
    if name == "torch::autograd::AccumulateGrad":
        return "leaf"
    if name == "CopySlices":
        return "copyslices"
    return "function"


def _fmt(v: Any) -> str:
    from ._graph import _fmt as fmt
    return fmt(v)


def _strip(t) -> dict | None:
    """The first slots of ``t``'s storage from its offset, and which of them ``t`` reads."""
    try:
        torch = sys.modules["torch"]
        d = t.detach()
        size = int(d.untyped_storage().nbytes() // d.element_size())
        start = int(d.storage_offset())
        count = max(min(STRIP_SLOTS, size - start), 0)
        values = torch.as_strided(d, (count,), (1,), start).tolist() if count else []
        on = [False] * count
        if 0 < d.numel() <= 4096:
            idx = torch.arange(size)  # (which storage slots the tensor reads)
            seen = torch.as_strided(idx, tuple(d.shape), d.stride(), start).reshape(-1)
            for a in seen.unique().tolist():
                if 0 <= a - start < count:
                    on[a - start] = True
        return {"start": start, "size": size, "values": [_fmt(v) for v in values], "on": on}
    except Exception:
        return None


def saved_of(node) -> list[dict]:
    """What ``node`` saved, from its ``_saved_*`` attributes: tensors with their version at
    save time and now (read from the error PyTorch raises for a stale one), and freed slots."""
    items: list[dict] = []
    for attr in dir(node):
        if not attr.startswith("_saved_") or len(items) >= 8:
            continue
        name = attr[len("_saved_"):]
        try:
            value = getattr(node, attr)
        except RuntimeError as exc:
            text = str(exc)
            m = _STALE.search(text)
            if m:
                live, version = int(m.group(1)), int(m.group(2))
                items.append({"name": name, "version": version, "live": live, "stale": True,
                              "released": False, "shape": [], "dtype": "", "strip": None})
            elif "freed" in text:
                items.append({"name": name, "version": 0, "live": 0, "stale": False,
                              "released": True, "shape": [], "dtype": "", "strip": None})
            continue
        except Exception:
            continue
        if is_torch_tensor(value):
            try:
                version = int(value._version)
            except RuntimeError:  # an inference tensor has no counter
                version = 0
            items.append({"name": name, "version": version, "live": version, "stale": False,
                          "released": False, "shape": list(value.shape),
                          "dtype": str(value.dtype), "strip": _strip(value)})
        elif value is not None:
            from ._graph import _other_saved
            items.append(_other_saved(name, value))
    return items


def _hook_names(hooks: Any) -> list[str]:
    from ._graph import _fn_name
    return [_fn_name(fn) for fn in (hooks or {}).values()]


def taps_of(node, outputs: dict) -> list[dict]:
    """The learner's tensor hooks and ``retain_grad`` taps at ``node`` (a torch node), read
    from the tensors it made (``outputs``: (id(node), output_nr) -> (name, tensor), from the
    notebook's variables) or, at a leaf, from the leaf itself.  (PyTorch keeps no readable
    list of node hooks: those are not shown.)"""
    taps: list[dict] = []
    if kind(node) == "leaf":
        v = node.variable
        for fn in _hook_names(getattr(v, "_backward_hooks", None)):
            taps.append({"kind": "tensor hook", "fn": fn, "output": 0})
        for fn in _hook_names(getattr(v, "_post_accumulate_grad_hooks", None)):
            taps.append({"kind": "post-accumulate hook", "fn": fn})
        return taps[:8]
    for (ident, nr), (name, t) in sorted(outputs.items(), key=lambda kv: kv[0][1]):
        if ident != id(node):
            continue
        for fn in _hook_names(getattr(t, "_backward_hooks", None)):
            taps.append({"kind": "tensor hook", "fn": fn, "output": int(nr), "tensor": name})
        if getattr(t, "retains_grad", False):
            taps.append({"kind": "retain_grad", "output": int(nr), "tensor": name})
    return taps[:8]


def replay(roots: Sequence[Any], seeds: Sequence[Any], order: list,
           tensors: Sequence[Any] = ()) -> dict:
    """Backward on a torch graph through ``torch.autograd.grad(retain_graph=True)``: the
    engine's order, each node's incoming and outgoing gradients, the ``+=`` at each leaf.

    The tensor hooks of the leaves and of ``tensors`` (the graph's tensors the notebook
    holds) sit out the replay: their ``_backward_hooks`` dicts, which PyTorch reads when
    backward runs, are emptied and refilled.  ``autograd.grad`` fills the ``.grad`` of tensors
    that ``retain_grad()``: those of ``tensors`` are put back as they were.

    # Note: PyTorch keeps no Python list of node hooks (``grad_fn.register_hook``) or of the
    # tensors that retain their grad, so node hooks run during a torch graph's replay, and a
    # retained ``.grad`` of a tensor the notebook does not hold in a variable is filled.
    """
    from ._graph import ReplayEvents, summary

    torch = sys.modules["torch"]
    index = {id(n): k for k, n in enumerate(order)}
    events: list[dict] = []
    outputs = [t for t in roots if t is not None and t.grad_fn is not None]
    if not outputs:
        return {"events": [], "error": "", "seeds": []}
    seed_list = [s for s, t in zip(seeds, roots) if t is not None and t.grad_fn is not None]
    seed_list = [None if s is None else _as_torch(s, torch) for s in seed_list]
    leaves = [n.variable for n in order if kind(n) == "leaf"]
    handles = []

    pre, at_leaf, post = ReplayEvents(events).hooks()

    error = ""
    quiet: list = []  # (hook dict, its entries): emptied for the replay, refilled after
    seen: set = set()
    for t in list(leaves) + list(tensors):
        hooks = getattr(t, "_backward_hooks", None)
        if hooks and id(hooks) not in seen:
            seen.add(id(hooks))
            quiet.append((hooks, list(hooks.items())))
    retained = []  # (tensor, its .grad object, a copy of its values)
    for t in tensors:
        if getattr(t, "retains_grad", False):
            g = t.grad
            retained.append((t, g, None if g is None else g.detach().clone()))
    try:
        for hooks, _ in quiet:
            hooks.clear()
        for n in order:
            k = index[id(n)]
            if kind(n) == "leaf":
                handles.append(n.variable.register_hook(at_leaf(k, n.variable)))
            else:
                handles.append(n.register_prehook(pre(k)))
                handles.append(n.register_hook(post(k)))
        try:
            torch.autograd.grad(outputs, leaves or outputs, grad_outputs=seed_list,
                                retain_graph=True, allow_unused=True)
        except Exception as exc:  # the error backward would raise now: shown, not raised
            error = f"{type(exc).__name__}: {exc}"
    finally:
        for h in handles:
            h.remove()
        for hooks, items in quiet:
            hooks.update(items)
        with torch.no_grad():
            for t, g, values in retained:
                if g is not None:
                    g.copy_(values)
                t.grad = g
    return {"events": events, "error": error,
            "seeds": [summary(s) if s is not None else None for s in seed_list]}


def _as_torch(seed, torch):
    if is_torch_tensor(seed):
        return seed
    return torch.as_tensor(seed.numpy() if hasattr(seed, "numpy") else seed)
