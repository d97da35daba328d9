"""``GraphView``: the live autograd-graph widget (``tensorviz.show_graph``).

Synced traits: ``graph`` (roots, nodes, edges: see :mod:`._graph`), ``trace`` (the replay of
backward: one event per node run, the error backward would raise now), ``step`` (how many
events the learner has stepped through; -1 before the seed), ``status``, ``revision``.

Live updates, as the tensor widgets do them:

- every storage a node saved from calls :meth:`GraphView._on_write` after an in-place write:
  the version stamps are re-read at once (cheap: no graph walk, no backward), so a stamp
  turns red the moment the write happens;
- after every cell the graph is walked again (new nodes: tensors the later cells computed from
  the shown ones, found among the notebook's variables), and the replay rerun.

Modes: while a graph widget is live, ``no_grad`` and ``inference_mode`` blocks run at a
notebook's top level are recorded (what each made and wrote in place: autograd records none of
it, the version counters count the writes), and the notebook's tensors that share memory with
the graph are listed with whether they share its version counter (``detach()``) or not
(``.data``).

Real ``torch.Tensor`` graphs are drawn too (see :mod:`._graph_torch`); their stamps are
re-read after each cell (PyTorch has no write listener).

The widget holds the shown tensors, parameters and nodes weakly.
"""
from __future__ import annotations

import asyncio
import collections
import html
import itertools
import sys
import weakref
from typing import Any, Sequence

import traitlets

from . import _graph, _graph_torch
from ._assets import asset
from ._widgets import _LIVE, DisplayedWidget, _ensure_hook, _int, _ipython

__all__ = ["GraphView"]

MAX_ROOTS = 8
FREED = ("The tensors this graph was drawn from no longer exist: it shows the last known "
         "state. (A widget never keeps a tensor alive: keep it in a variable.)")


def _param_names(params: Any) -> dict:
    """id(tensor) -> (name, weak ref) from a Module's named_parameters or a dict."""
    if params is None:
        return {}
    if hasattr(params, "named_parameters"):
        items = list(params.named_parameters())
    elif isinstance(params, dict):
        items = list(params.items())
    else:
        raise TypeError("params= takes an nn.Module or a dict of name -> tensor, got "
                        f"{type(params).__name__}")
    out = {}
    for name, p in items:
        out[id(p)] = (str(name), weakref.ref(p))
    return out


def _is_tensor(value: Any) -> bool:
    from .._tensor import Tensor

    return isinstance(value, Tensor) or _graph_torch.is_torch_tensor(value)


def _tensors_in(namespace: dict) -> dict:
    """id -> name for the tensors (tensorviz or torch) bound to public names in ``namespace``."""
    out = {}
    for name, value in list(namespace.items()):
        if not name.startswith("_") and _is_tensor(value):
            out.setdefault(id(value), name)
    return out


def _output_names(namespace: dict) -> dict:
    """(id(node), output_nr) -> name, for the tensors in ``namespace`` made by a node."""
    out = {}
    for name, value in list(namespace.items()):
        if name.startswith("_") or not _is_tensor(value):
            continue
        fn = value.grad_fn
        if fn is not None:
            out.setdefault((id(fn), int(getattr(value, "output_nr", 0) or 0)), name)
    return out


def _output_tensors(namespace: dict) -> dict:
    """(id(node), output_nr) -> (name, tensor), for the torch tensors in ``namespace`` made by
    a node (their hooks and retain_grad taps)."""
    out = {}
    for name, value in list(namespace.items()):
        if name.startswith("_") or not _graph_torch.is_torch_tensor(value):
            continue
        fn = value.grad_fn
        if fn is not None:
            out.setdefault((id(fn), int(value.output_nr)), (name, value))
    return out


# ---------------------------------------------------------------- no_grad / inference_mode
MAX_REGIONS = 4
_REGIONS: "collections.deque[dict]" = collections.deque(maxlen=MAX_REGIONS)
_OPEN: list = []
_REGION_COUNT = itertools.count(1)
_LISTENING = False
_SHELL = None  # the notebook's shell, once a graph widget was made in one


def _version_of(t: Any):
    try:
        return int(t._version)
    except RuntimeError:  # an inference tensor has no version counter
        return None


def _snapshot(ns: dict) -> dict:
    """name -> (id, version, the version counter's identity: shared by a view family)."""
    return {name: (id(v), _version_of(v), id(getattr(v, "_vc", None) or v))
            for name, v in list(ns.items()) if not name.startswith("_") and _is_tensor(v)}


def _describe_made(name: str, t: Any) -> str:
    if t.is_inference():
        return (f"{name}: an inference tensor (no version counter, no grad_fn; it can never "
                "be saved for backward)")
    if t.requires_grad:
        return f"{name}: requires_grad=True (a leaf asked for explicitly)"
    return f"{name}: requires_grad=False, no grad_fn (not recorded: in no graph)"


def _on_mode(mode: str, entering: bool) -> None:
    """``no_grad`` / ``inference_mode`` listener: record blocks run in the notebook's code
    (cheap for the others, e.g. every ``optimizer.step``: one frame lookup)."""
    shell = _SHELL
    if shell is None:
        return
    ns = shell.user_ns
    frame = sys._getframe(3)  # (the learner's code: <- __enter__/__exit__ <- _tell <- here)
    try:
        if frame.f_globals is not ns:
            return
    finally:
        del frame
    if entering:
        _OPEN.append((mode, _snapshot(ns)))
        return
    if not _OPEN:
        return
    opened, before = _OPEN.pop()
    made: list = []
    moved: dict = {}  # version counter -> (names, from, to): one entry per view family
    for name, (ident, version, counter) in _snapshot(ns).items():
        old = before.get(name)
        t = ns.get(name)
        if old is None or old[0] != ident:
            if len(made) < 6:
                made.append({"name": name, "text": _describe_made(name, t)})
        elif version is not None and old[1] is not None and version != old[1]:
            moved.setdefault(counter, ([], old[1], version))[0].append(name)
    written = []
    for names, a, b in list(moved.values())[:6]:
        whose = "the version counter they share" if len(names) > 1 else "its version counter"
        written.append({"name": names[0], "names": names, "from": a, "to": b,
                        "text": f"{', '.join(names)}: v{a} → v{b}, an in-place write (not "
                                f"recorded by autograd, but counted by {whose})"})
    if made or written:
        _REGIONS.append({"seq": next(_REGION_COUNT), "mode": opened, "made": made,
                         "written": written})


def _listen_to_modes() -> None:
    """Record no_grad / inference_mode blocks from now on (in a notebook: in a script there
    are no cells to mark)."""
    global _LISTENING, _SHELL
    shell = _ipython()
    if shell is None:
        return
    _SHELL = shell
    if not _LISTENING:
        from .. import _grad_mode
        _grad_mode.mode_listeners.append(_on_mode)
        _LISTENING = True


class GraphView(DisplayedWidget):
    """The autograd graph of one or more tensors, drawn live, with a step-through backward.

    >>> x = tensorviz.tensor([1., 2.], requires_grad=True)
    >>> loss = (x * x).sum()
    >>> w = GraphView(loss)        # or tensorviz.show_graph(loss)
    >>> w.step_forward()           # the seed reaches SumBackward0
    """

    _esm = asset("graph.js")
    _css = asset("graph.css")

    kind = traitlets.Unicode("graph").tag(sync=True)
    graph = traitlets.Dict().tag(sync=True)
    trace = traitlets.Dict().tag(sync=True)
    step = traitlets.Int(-1).tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    revision = traitlets.Int(0).tag(sync=True)

    def __init__(self, *tensors: Any, labels: Sequence[str] | None = None, params: Any = None,
                 gradient: Any = None, live: bool = True, grow: bool = True,
                 names: dict | None = None, namespace: dict | None = None, **kwargs: Any):
        from .._tensor import Tensor

        self._subscribed: dict[int, Any] = {}  # (first: close() runs even if we raise below)
        if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
            tensors = tuple(tensors[0])
        if not tensors:
            raise TypeError("show_graph() needs a tensor, e.g. tensorviz.show_graph(loss)")
        torch_roots = [_graph_torch.is_torch_tensor(t) for t in tensors]
        for t, is_torch in zip(tensors, torch_roots):
            if not isinstance(t, Tensor) and not is_torch:
                raise TypeError("show_graph() draws tensorviz or torch tensors, got "
                                f"{type(t).__name__}")
        if any(torch_roots) and not all(torch_roots):
            raise TypeError("show_graph() draws one library's graph at a time: got tensorviz "
                            "and torch tensors together")
        self._torch = all(torch_roots)
        if labels is None:
            labels = [f"tensor {k}" for k in range(len(tensors))]
        if len(labels) != len(tensors):
            raise ValueError(f"got {len(labels)} labels for {len(tensors)} tensors")
        grads = gradient if isinstance(gradient, (list, tuple)) else [gradient] * len(tensors)
        if len(grads) != len(tensors):
            raise ValueError(f"got {len(grads)} gradients for {len(tensors)} tensors")
        self._closed = False
        self._dirty = False
        self._flush_scheduled = False
        self._live = bool(live)
        self._grow = bool(grow)
        self._shown_in_cell: Any = None
        self._display_ids: list[str] = []
        self._snapshot_revision = -1
        self._roots = [weakref.ref(t) for t in tensors]
        self._labels = list(labels)
        # the seed (``gradient=``): our own copy, never the learner's tensor
        self._seeds = [None if g is None else g.detach().clone() for g in grads]
        self._params = _param_names(params)
        self._names = dict(names or {})
        # Note: a namespace given here (the classroom demo's program) is held strongly: the
        # widget owns those variables; otherwise the notebook's own variables are read.
        self._namespace = namespace
        self._stamps: list[tuple] = []  # (node, slot, version counter list, version at save)
        self._region_from = _REGIONS[-1]["seq"] if _REGIONS else 0
        super().__init__(**kwargs)
        self.refresh()
        self.on_msg(self._on_front_end_msg)
        if self._live:
            _LIVE.add(self)
            _ensure_hook()
            _listen_to_modes()

    # ------------------------------------------------------------------ public API
    def refresh(self) -> None:
        """Walk the graph again (new nodes, freed saved tensors, versions) and rerun the
        replay of backward; sends only what changed."""
        self._dirty = False
        roots = [r() for r in self._roots]
        alive = [t for t in roots if t is not None]
        if not alive:
            if self.graph:
                self.status = FREED
            return
        if self._grow:
            self._find_new_roots()
            roots = [r() for r in self._roots]
            alive = [t for t in roots if t is not None]
        labels = self._labels
        params = {k: name for k, (name, ref) in self._params.items() if ref() is not None}
        names = dict(self._names)
        ns = self._user_ns()
        names.update(_tensors_in(ns))
        outputs = _output_tensors(ns) if self._torch else None
        state = _graph.build(roots, labels, params, names, _output_names(ns), outputs)
        order = state.pop("_order")
        pairs = [(name, v) for name, v in list(ns.items())
                 if not name.startswith("_") and _is_tensor(v)]
        state["family"] = [] if self._torch else _graph.family(order, roots, labels, pairs)
        state["regions"] = [r for r in _REGIONS if r["seq"] > self._region_from]
        # backward is replayed from the tensors shown (the grown roots are drawn, not seeded)
        shown = roots[:len(self._seeds)]
        if state["more"]:  # a replay is a whole backward: only for graphs drawn in full
            trace = {"events": [], "error": "", "seeds": [], "note":
                     f"The graph has more than {_graph.MAX_NODES} nodes: only the first are "
                     "drawn, and backward is not replayed."}
        else:
            trace = _graph.replay(shown, self._seeds, order,
                                  [t for _, t in (outputs or {}).values()])
        self._stamps = [] if self._torch else \
            [(k, j, _saved_vc(order[k], s["name"]), s["version"])
                        for k, n in enumerate(state["nodes"])
                        for j, s in enumerate(n["saved"]) if "version" in s]
        self._subscribe(order)
        del order
        status = "" if len(alive) == len(roots) else FREED
        if state == self.graph and trace == self.trace and status == self.status:
            return
        with self.hold_sync():
            if trace != self.trace:
                self.step = -1
            self.graph = state
            self.trace = trace
            self.status = status
            self.revision += 1

    def poll(self) -> None:
        """After a cell: refresh while the graph's tensors are alive."""
        if not self._closed and any(r() is not None for r in self._roots):
            self.refresh()

    def step_forward(self) -> int:
        """One step of backward (the seed first, then one node per step); returns the step."""
        self.step = min(self.step + 1, len(self.trace.get("events", [])))
        return self.step

    def step_back(self) -> int:
        self.step = max(self.step - 1, -1)
        return self.step

    def reset(self) -> None:
        """Back to before the seed."""
        self.step = -1

    def play(self) -> None:
        """Every step at once (the front end's ▶ plays them one by one)."""
        self.step = len(self.trace.get("events", []))

    def close(self) -> None:
        self._closed = True
        _LIVE.discard(self)
        for ref in self._subscribed.values():
            st = ref()
            if st is not None:
                st._remove_listener(self._on_write)
        super().close()

    # ------------------------------------------------------------------ live updates
    def _user_ns(self) -> dict:
        """The variables the graph's names come from: the notebook's (or the given ones)."""
        if self._namespace is not None:
            return self._namespace
        shell = _ipython()
        return shell.user_ns if shell is not None else {}

    def _find_new_roots(self) -> None:
        """Tensors in the notebook's namespace computed from this graph become roots too."""
        ns = self._user_ns()
        if not ns or len(self._roots) >= MAX_ROOTS:
            return
        mine = {id(t) for t in (r() for r in self._roots) if t is not None}
        nodes, _ = _graph.walk([t.grad_fn for t in (r() for r in self._roots) if t is not None])
        # computed from this graph: reaching one of its ops (a shared leaf is not enough:
        # every later use of `x` reaches x's AccumulateGrad)
        known = {id(n) for n in nodes if _graph._kind(n) != "leaf"}
        for name, value in list(ns.items()):
            if len(self._roots) >= MAX_ROOTS:
                break
            if name.startswith("_") or id(value) in mine or not _is_tensor(value) or \
                    _graph_torch.is_torch_tensor(value) != self._torch:
                continue
            fn = value.grad_fn
            if fn is None or id(fn) in known:
                continue
            theirs, _ = _graph.walk([fn], limit=_graph.MAX_NODES)
            if any(id(n) in known for n in theirs):
                self._roots.append(weakref.ref(value))
                self._labels.append(name)
                mine.add(id(value))
                known.update(id(n) for n in theirs if _graph._kind(n) != "leaf")

    def _subscribe(self, order: list) -> None:
        if not self._live or self._torch:
            return
        from ..autograd.graph import CopySlices, SavedTensor
        from .._tensor import Tensor

        for n in order:
            inner = n.fn if isinstance(n, CopySlices) else n
            for s in (getattr(inner, "_saved", None) or ()):
                data = s._data if isinstance(s, SavedTensor) else None
                if not isinstance(data, Tensor):
                    continue
                st = data._storage
                known = self._subscribed.get(id(st))
                if known is None or known() is not st:
                    st._add_listener(self._on_write)
                    self._subscribed[id(st)] = weakref.ref(st)

    def _on_write(self) -> None:
        """Storage listener: an in-place write. Re-read the version stamps now (the walk and
        the replay wait for the cell's end: an op may still be running)."""
        try:
            if self._closed:
                return
            self._dirty = True
            changed = False
            nodes = [dict(n) for n in self.graph.get("nodes", [])]
            for k, j, vc, version in self._stamps:
                if k >= len(nodes) or vc is None:
                    continue
                saved = nodes[k]["saved"] = list(nodes[k]["saved"])
                s = dict(saved[j])
                if s.get("live") != vc[0]:
                    s["live"] = int(vc[0])
                    s["stale"] = s["live"] != version
                    saved[j] = s
                    changed = True
            if changed:
                with self.hold_sync():
                    self.graph = dict(self.graph, nodes=nodes)
                    self.revision += 1
            self._schedule_flush()
        except Exception as exc:  # never break the learner's write
            self.status = f"could not refresh: {type(exc).__name__}: {exc}"

    def _schedule_flush(self) -> None:
        """The full refresh (walk and replay) once the running cell lets the loop run."""
        if self._flush_scheduled:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop: post_run_cell or refresh() does it
        self._flush_scheduled = True
        loop.call_later(0.05, self._flush)

    def _flush(self) -> None:
        self._flush_scheduled = False
        if self._dirty and not self._closed:
            try:
                self.refresh()
            except Exception as exc:
                self.status = f"could not refresh: {type(exc).__name__}: {exc}"

    def _on_front_end_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        try:
            if content.get("type") == "refresh":
                self.refresh()
            elif content.get("type") == "step":
                n = len(self.trace.get("events", []))
                self.step = min(max(_int(content.get("step")), -1), n)
        except (TypeError, ValueError, OverflowError):
            return

    # ------------------------------------------------------------------ display
    def to_html(self) -> str:
        """A static HTML picture (no JavaScript): what nbconvert and GitHub show."""
        return static_html(self.graph, self.trace, self.status)

    def __repr__(self) -> str:
        g = self.graph
        roots = ", ".join(r["label"] for r in g.get("roots", []))
        return (f"GraphView({roots}: {len(g.get('nodes', []))} nodes, "
                f"{len(g.get('edges', []))} edges)")


def _saved_vc(node, name: str):
    from ..autograd.graph import CopySlices, SavedTensor

    inner = node.fn if isinstance(node, CopySlices) else node
    names = getattr(inner, "_saved_names", None) or {}
    s = names.get(name)
    if s is None and name.startswith("saved["):
        saved = getattr(inner, "_saved", None) or ()
        k = int(name[6:-1])
        s = saved[k] if k < len(saved) else None
    return s._vc if isinstance(s, SavedTensor) else None


def _tap_text(tap: dict) -> str:
    """A learner's hook or retain_grad tap, as one line."""
    if tap["kind"] == "retain_grad":
        return f"retain_grad: {tap.get('tensor') or 'output ' + str(tap['output'])}.grad"
    on = f" on {tap['tensor']}" if tap.get("tensor") else ""
    return f"{tap['kind']}{on}: {tap.get('fn', '')}"


def static_html(graph: dict, trace: dict, status: str) -> str:
    """The graph as rows of node cards, roots first (escaped text, inline styles)."""
    e = html.escape
    nodes = graph.get("nodes", [])
    rows: dict[int, list] = {}
    for n in nodes:
        rows.setdefault(n["depth"], []).append(n)
    into: dict[int, list] = {}
    for edge in graph.get("edges", []):
        into.setdefault(edge["src"], []).append(edge)
    parts = ['<div class="tvg-static" style="font:12px monospace">']
    if status:
        parts.append(f'<div style="color:#b3261e">{e(status)}</div>')
    roots = ", ".join(f'{e(r["label"])} (shape {tuple(r["shape"])})' for r in graph.get("roots", []))
    parts.append(f"<div><b>autograd graph of {roots}</b></div>")
    for d in sorted(rows):
        parts.append('<div style="display:flex;gap:8px;margin:6px 0;flex-wrap:wrap">')
        for n in rows[d]:
            label = f' <i>{e(n["label"])}</i>' if n.get("label") else ""
            body = [f'<b>{e(n["name"])}</b>{label}']
            for s in n.get("saved", []):
                if "version" in s:
                    colour = "#b3261e" if s["stale"] else "inherit"
                    freed = " (freed)" if s["released"] else ""
                    body.append(f'<span style="color:{colour}">saved {e(s["name"])}: '
                                f'v{s["version"]} at save, v{s["live"]} now{freed}</span>')
                else:
                    body.append(f'saved {e(s["name"])} = {e(s["text"])}')
            for tap in n.get("taps", []):
                body.append(f'<span style="color:#8a5a00">⚡ {e(_tap_text(tap))}</span>')
            for edge in into.get(n["id"], []):
                dst = "None" if edge["dst"] is None else nodes[edge["dst"]]["name"]
                body.append(f'→ {e(dst)} (input_nr {edge["input_nr"]})')
            parts.append('<div style="border:1px solid #888;border-radius:4px;padding:4px">'
                         + "<br>".join(body) + "</div>")
        parts.append("</div>")
    if trace.get("error"):
        parts.append(f'<div style="color:#b3261e">backward would raise: {e(trace["error"])}</div>')
    for item in graph.get("family", []):
        parts.append(f'<div>↔ {e(item["text"])}</div>')
    for region in graph.get("regions", []):
        lines = [x["text"] for x in region["made"] + region["written"]]
        parts.append(f'<div>with torch.{e(region["mode"])}(): '
                     + e("; ".join(lines)) + "</div>")
    parts.append("</div>")
    return "".join(parts)
