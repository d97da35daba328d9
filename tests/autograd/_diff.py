"""Run one program on PyTorch and on tensorviz and compare what a learner would see.

A program is Python source run with ``torch`` bound to the library under test; it leaves
what to compare in ``result`` (tensors, nodes, numbers, nested tuples).  ``same(src)``
asserts the same outcome: the same exception type and message (modulo ``torch.`` ->
``tensorviz.`` in type names), the same warnings, and equal observations -- values,
shapes, dtypes, ``requires_grad``, ``is_leaf``, ``grad_fn`` names.
"""
from __future__ import annotations

import warnings

import numpy as np

import tensorviz

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None


def observe(x, lib):
    """A comparable form of ``x`` (a tensor becomes its facts, a node its name)."""
    if isinstance(x, (tuple, list)):
        return tuple(observe(y, lib) for y in x)
    if isinstance(x, dict):
        return {k: observe(v, lib) for k, v in x.items()}
    if isinstance(x, lib.Tensor):
        fn = x.grad_fn
        arr = x.detach().cpu().resolve_conj().numpy()
        if arr.dtype.kind in "fc":
            digits = 4 if arr.dtype in (np.float32, np.complex64, np.float16) else 6
            arr = np.round(np.nan_to_num(arr.astype(np.complex128 if arr.dtype.kind == "c" else
                                                    np.float64), nan=1e300), digits)  # (nan == nan)
        return ("tensor", tuple(x.shape), str(x.dtype).split(".")[-1], arr.tolist(),
                x.requires_grad, x.is_leaf, fn.name() if fn is not None else None)
    if hasattr(x, "next_functions") and hasattr(x, "name"):
        return ("node", x.name())
    if isinstance(x, type) and issubclass(x, BaseException):
        return ("exc", x.__name__.lstrip("_"))
    if isinstance(x, float):
        return round(x, 6)
    if isinstance(x, str):
        return x.replace("tensorviz.", "torch.")
    return x


def run(src: str, lib):
    ns = {"torch": lib, "np": np}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(src, ns)  # noqa: S102 (the test's own program text)
            err = None
        except Exception as e:  # noqa: BLE001
            err = (type(e).__name__.lstrip("_"), str(e).replace("tensorviz.", "torch."))
    warned = [(w.category.__name__, str(w.message).split("\n")[0].split(
        " (Triggered internally at")[0].replace("tensorviz.", "torch."))
              for w in caught if issubclass(w.category, UserWarning)]
    return err, warned, observe(ns.get("result"), lib)


def same(src: str, *, warnings_too: bool = True) -> None:
    """Assert PyTorch and tensorviz give the same outcome for program ``src``."""
    t = run(src, torch)
    v = run(src, tensorviz)
    assert v[0] == t[0], f"errors differ:\n torch:     {t[0]}\n tensorviz: {v[0]}\n{src}"
    if warnings_too:
        assert v[1] == t[1], f"warnings differ:\n torch:     {t[1]}\n tensorviz: {v[1]}\n{src}"
    assert v[2] == t[2], f"results differ:\n torch:     {t[2]}\n tensorviz: {v[2]}\n{src}"


#: ``walk(root)`` as source text, for the programs ``same`` runs in each library: the graph
#: under node ``root``, breadth first, as ``(name, ((child index, input_nr) or None per
#: edge))`` rows; shared nodes are listed once (their index is reused); None for no node.
WALK_SOURCE = '''
def walk(root):
    if root is None:
        return None
    order, index, rows = [root], {id(root): 0}, []
    i = 0
    while i < len(order):
        n = order[i]
        edges = []
        for nxt, nr in n.next_functions:
            if nxt is None:
                edges.append(None)
                continue
            if id(nxt) not in index:
                index[id(nxt)] = len(order)
                order.append(nxt)
            edges.append((index[id(nxt)], nr))
        rows.append((n.name(), tuple(edges)))
        i += 1
    return rows
'''
_WALK_NS: dict = {}
exec(WALK_SOURCE, _WALK_NS)  # noqa: S102 - (the one definition, shared with the programs)


def walk(root, lib=None) -> list:
    """``WALK_SOURCE``'s rows for node ``root`` ([] for no node), in this process."""
    return _WALK_NS["walk"](root) or []


def graph_signature(fn, depth: int = 2):
    """The node names of a graph from ``fn`` down ``depth`` levels, with each edge's input
    number: ``(name, ((input_nr, child), ...))`` (None for an edge to no node)."""
    if fn is None:
        return None
    name = fn.name().replace("torch::autograd::", "")
    if depth == 0:
        return name
    return (name, tuple((nr, graph_signature(f, depth - 1)) for f, nr in fn.next_functions))


def observe_and_backward(lines: list, grads: str = "s.grad") -> str:
    """The end of a random view program (``lines``): every view's facts, then backward
    through the views that require grad and ``grads`` observed, as ``result``."""
    lines.append("obs.extend(facts(v) for v in views)")
    lines.append("def back():\n    out = [v for v in views if v.requires_grad]\n"
                 "    if out:\n        sum((v * v).abs().sum() for v in out).backward()\n"
                 f"    obs.append({grads})")
    lines.append("step(back)")
    lines.append("result = obs")
    return "\n".join(lines)


def view_root(rng, complex_share: float, prelude: str) -> tuple:
    """``(lines, complex_root)``: the opening lines of a random view program -- ``prelude``,
    a root tensor (complex64 in ``complex_share`` of programs, else float32 or float64) of a
    random shape, a leaf ``s`` that requires grad, ``views = [root]`` -- and whether the root
    is complex (the draws from ``rng`` in that order)."""
    complex_root = rng.random() < complex_share
    shape = rng.choice([(4,), (3, 4), (2, 3, 4)])
    dt = "complex64" if complex_root else rng.choice(["float32", "float64"])
    real_dt = "float32" if complex_root else dt
    n = 1
    for d in shape:
        n *= d
    return [prelude, f"root = torch.arange({n}, dtype=torch.{dt}).reshape{shape}.clone()",
            f"s = torch.tensor(1.5, dtype=torch.{real_dt}, requires_grad=True)",
            "views = [root]"], complex_root


def view_prelude(inference: bool = False, type_errors: bool = False) -> str:
    """The start of a random view program: ``facts(t)`` (what a learner would look at:
    requires_grad, is_leaf, the graph, the version, the base; ``is_inference`` too) and
    ``step(f)``, which records "ok" or the error's class and message in ``obs``."""
    extra = ", t.is_inference()" if inference else ""
    errors = "RuntimeError, IndexError, ValueError" + (", TypeError" if type_errors else "")
    return WALK_SOURCE + f'''
def facts(t):
    try:
        fn = t.grad_fn
        return (t.requires_grad, t.is_leaf, walk(fn), t._version, t._base is root,
                t._is_view(){extra})
    except RuntimeError as e:
        return ("error", str(e))

obs = []
def step(f):
    try:
        f()
        obs.append("ok")
    except ({errors}) as e:
        obs.append((type(e).__name__, str(e)))
'''
