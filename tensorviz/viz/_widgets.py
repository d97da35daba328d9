"""The live widgets: :class:`TensorView` and :class:`Playground` (anywidget).

Synced traits, grouped by purpose:

- what is drawn: ``strips`` (one per storage) and ``tensors`` (layout, a window of values as
  binary buffers, footprint on the strip), both built by :class:`~tensorviz.viz._scene.Scene`;
- what the learner toggled: ``byte_strides``;
- what happened: ``status`` (e.g. the tensors were freed), ``revision`` (bumped per change sent).

The front end asks for other windows with messages (``{"type": "page_strip", ...}``); Python
validates them and rebuilds.  Updates are live:

- tensorviz storages call :meth:`TensorView._on_write` after every in-place write (they hold
  the bound method weakly); refreshes are throttled so a loop of writes stays cheap, and the
  last one is flushed when the cell ends;
- after every cell (IPython ``post_run_cell``) each live widget re-reads its windows, which
  catches writes made through a NumPy alias (``t.numpy()``), PyTorch and NumPy writes, and
  tensors that were freed.  The cost is bounded by the windows drawn.
"""
from __future__ import annotations

import asyncio
import time
import weakref
from typing import Any, Sequence

import anywidget
import numpy as np
import traitlets

from ._assets import asset
from ._scene import Scene
from ._source import CELLS_ENDED
from ._static import snapshot_html, summary_text
from ._window import encode

__all__ = ["TensorView", "Playground", "live_widgets", "poll_all"]

_LIVE: "weakref.WeakSet[TensorView]" = weakref.WeakSet()
_HOOKED: list = []  # the IPython shell our post_run_cell hook is registered with
HISTORY_VERSIONS = 16  # versions of each drawn storage window kept for stepping back
HISTORY_BYTES = 32 * 1024  # and at most this many bytes of them per strip
_MAX_DISPLAYS = 8  # the saved pictures updated per widget (its latest displays)
POLL_BUDGET_S = 0.1  # the most time the after-cell poll may take; the rest waits a cell
_poll_order: list = []  # weak refs, round-robin, so every widget gets its turn

FREED = ("This tensor no longer exists: nothing in the kernel refers to its memory any more, "
         "so the widget shows its last known state and stops updating. (A widget never keeps "
         "a tensor alive: to keep one, keep it in a variable.)")
SOME_FREED = ("Some of these tensors no longer exist (marked 'freed'): nothing in the kernel "
              "refers to their memory any more (e.g. deleted with del). They show their last "
              "known state.")


def _ipython():
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - anywidget depends on IPython
        return None
    return get_ipython()


def _ensure_hook() -> bool:
    """Register the one ``post_run_cell`` hook that polls every live widget."""
    shell = _ipython()
    if shell is None:
        return False
    if not any(s is shell for s in _HOOKED):
        shell.events.register("post_run_cell", _post_run_cell)
        _HOOKED.append(shell)
    return True


def _post_run_cell(*_args: Any) -> None:
    poll_all()
    CELLS_ENDED[0] += 1
    for w in live_widgets():
        try:
            w._update_snapshots()
        except Exception as exc:  # never break the learner's cell
            w.status = f"could not refresh: {type(exc).__name__}: {exc}"


def live_widgets() -> list["TensorView"]:
    """Every widget that still updates (not closed)."""
    return [w for w in list(_LIVE) if not w._closed]


def poll_all(budget_s: float | None = None) -> int:
    """Re-read live widgets, as the ``post_run_cell`` hook does; returns how many were polled.

    Widgets with a pending write come first, then the others round-robin until ``budget_s``
    (default :data:`POLL_BUDGET_S`) is spent, so a notebook with many widgets keeps cells fast.
    Each poll costs one bounded rebuild (about a millisecond).
    """
    budget = POLL_BUDGET_S if budget_s is None else budget_s
    live = {id(w): w for w in list(_LIVE)}
    order = [r() for r in _poll_order]
    order = [w for w in order if w is not None and id(w) in live]
    known = {id(w) for w in order}
    order += [w for k, w in live.items() if k not in known]
    order.sort(key=lambda w: not w._dirty)  # stable: pending writes first
    start = time.monotonic()
    done = 0
    for w in order:
        if done and time.monotonic() - start > budget:
            break
        try:
            w.poll()
        except Exception as exc:  # a broken widget must never break the learner's cell
            w.status = f"could not refresh: {type(exc).__name__}: {exc}"
        done += 1
    order = order[done:] + order[:done]
    _poll_order[:] = [weakref.ref(w) for w in order]
    return done


class DisplayedWidget(anywidget.AnyWidget):
    """What every tensorviz widget shares about being displayed: ``show`` draws it where it is
    called (like ``print``), each display carries a static HTML picture (its ``to_html()``) for
    nbconvert, GitHub and reopened notebooks, and those pictures are re-sent when a cell ends
    so that they show the latest state.  Subclasses keep ``revision`` (bumped on each change),
    ``_display_ids``, ``_snapshot_revision`` and ``_closed``, and define ``to_html``.
    """

    def _display_here(self) -> None:
        """Display now, in the running cell (what ``show`` does, like ``print``).

        The cell's last expression is then not drawn again: the display hook of this same
        cell skips it once (see :meth:`_ipython_display_`).
        """
        shell = _ipython()
        if shell is None or not hasattr(shell, "display_pub"):
            return
        from IPython.display import display

        display(self)
        self._shown_in_cell = _cell_id(shell)

    def _ipython_display_(self, **kwargs: Any) -> None:
        """Display the widget, except right after ``show`` displayed it in this same cell.

        # Note: so ``w = show(x); w`` and ``show(x)`` as a cell's last expression draw one
        # widget, not two; ``display(w)`` in a later cell draws another view of it.
        """
        shell = _ipython()
        if shell is not None and getattr(self, "_shown_in_cell", None) == _cell_id(shell):
            self._shown_in_cell = None
            return
        bundle = self._repr_mimebundle_(**kwargs)
        if bundle is None:
            return
        from IPython.display import display

        data, metadata = bundle
        handle = display(data, metadata=metadata, raw=True, display_id=True)
        if handle is not None:
            self._display_ids = self._display_ids[-(_MAX_DISPLAYS - 1):] + [handle.display_id]
            self._snapshot_revision = self.revision

    def _update_snapshots(self) -> None:
        """Re-send the saved picture (the HTML snapshot) of every display of this widget.

        A saved notebook keeps each output as it was last sent; without this its static
        picture (nbviewer, GitHub, a reopened notebook) would be the state at first display.
        Called when a cell ends, and only when something changed since the last snapshot.
        """
        if not self._display_ids or self.revision == self._snapshot_revision or self._closed:
            return
        from IPython.display import update_display

        bundle = self._repr_mimebundle_()
        if bundle is None:
            return
        data, metadata = bundle
        for display_id in self._display_ids:
            update_display(data, metadata=metadata, raw=True, display_id=display_id)
        self._snapshot_revision = self.revision

    def _repr_mimebundle_(self, **kwargs: Any):
        """The widget's bundle, with its static picture as ``text/html``."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data, metadata = bundle
        data = dict(data)
        data["text/plain"] = repr(self)
        data["text/html"] = self.to_html()
        return data, metadata


class TensorView(DisplayedWidget):
    """Storage, strides, offsets and views of one or more tensors, drawn live.

    >>> a = tensorviz.arange(12).reshape(3, 4)
    >>> TensorView(a, a.t(), a[1:, ::2])      # one storage strip, three footprints
    """

    _esm = asset("tensorviz.js")
    _css = asset("tensorviz.css")

    kind = traitlets.Unicode("view").tag(sync=True)
    # broadcasting: the operands' shapes aligned from the right (tensorviz.show_broadcast)
    broadcast = traitlets.Dict().tag(sync=True)
    # what is drawn
    strips = traitlets.List(traitlets.Dict()).tag(sync=True)
    tensors = traitlets.List(traitlets.Dict()).tag(sync=True)
    # what the learner toggled
    byte_strides = traitlets.Bool(False).tag(sync=True)
    # a tensor with a grad_fn: how to see the autograd graph that made it
    graph_hint = traitlets.Unicode("").tag(sync=True)
    # what happened
    status = traitlets.Unicode("").tag(sync=True)
    revision = traitlets.Int(0).tag(sync=True)

    def __init__(self, *tensors: Any, labels: Sequence[str] | None = None,
                 strip_slots: int = 128, live: bool = True, **kwargs: Any):
        if not tensors and not isinstance(self, Playground):
            raise TypeError("show() needs at least one tensor, e.g. tensorviz.show(t)")
        if labels is None:
            labels = [f"tensor {k}" for k in range(len(tensors))]
        elif len(labels) != len(tensors):
            raise ValueError(f"got {len(labels)} labels for {len(tensors)} tensors")
        self._closed = False
        self._shown_in_cell: Any = None  # the cell show() displayed this widget in
        self._display_ids: list[str] = []  # one per display, for updating its saved picture
        # strip key -> versions of its drawn window, oldest first (each write adds one)
        self._history: dict[str, list[dict]] = {}
        self._snapshot_revision = -1
        self._live = bool(live)
        self._dirty = False
        self._flush_scheduled = False
        self._last_refresh = 0.0
        self._throttle_s = 0.05 if _ipython() is not None else 0.0
        # memory id -> weak ref to that memory: an id alone may be reused by new memory
        self._subscribed: dict[int, Any] = {}
        selfref = weakref.ref(self)

        def on_freed(selfref=selfref):  # called from garbage collection: just note it
            w = selfref()
            if w is not None:
                w._dirty = True
                try:
                    w._schedule_flush()
                except Exception:  # e.g. at interpreter shutdown; post_run_cell will see it
                    pass

        strip_slots = min(max(int(strip_slots), 8), 512)  # keeps the payload bounded
        born = CELLS_ENDED[0] if _ipython() is not None else None
        self._scene = Scene(tensors, labels, on_freed, strip_slots=strip_slots, born=born)
        super().__init__(**kwargs)
        self._apply(*self._scene.last)
        self._offer_graph(tensors, labels)
        self._subscribe()
        self.on_msg(self._on_front_end_msg)
        if self._live:
            _LIVE.add(self)
            _ensure_hook()

    # ------------------------------------------------------------------ public API
    def refresh(self) -> None:
        """Re-read layouts, values and liveness now and send whatever changed."""
        self._dirty = False
        self._last_refresh = time.monotonic()
        self._apply(*self._scene.build())
        self._subscribe()

    def poll(self) -> None:
        """Cheap check after a cell: refresh (sending only changes) while anything is alive."""
        if self._closed:
            return
        if self._dirty or any(e.source.alive for e in self._scene.entries) \
                or any(t.get("alive") for t in self.tensors):
            self.refresh()

    def graph(self, **kwargs: Any):
        """The autograd graph of the shown tensors that have a ``grad_fn`` (what the widget's
        hint offers): ``w = show(loss); w.graph()`` is ``tensorviz.show_graph(loss)``."""
        from ._graph_view import GraphView

        refs = list(zip(getattr(self, "_autograd", ()), getattr(self, "_autograd_labels", ())))
        found = [(r(), lab) for r, lab in refs if r() is not None]
        if not found:
            raise ValueError("none of the shown tensors has a grad_fn (nothing was recorded "
                             "by autograd): compute one from a tensor with requires_grad=True")
        widget = GraphView(*[t for t, _ in found], labels=[lab for _, lab in found], **kwargs)
        widget._display_here()
        return widget

    def _offer_graph(self, tensors: Sequence[Any], labels: Sequence[str]) -> None:
        """Tensors with a grad_fn: keep them weakly and say how to draw their graph."""
        from .._tensor import Tensor
        from ._graph_torch import is_torch_tensor

        found = [(t, lab) for t, lab in zip(tensors, labels)
                 if (isinstance(t, Tensor) and t._ag is not None and t._ag.grad_fn is not None)
                 or (is_torch_tensor(t) and t.grad_fn is not None)]
        # (one library's graph at a time: that of the first tensor with a grad_fn)
        found = [(t, lab) for t, lab in found
                 if is_torch_tensor(t) == is_torch_tensor(found[0][0])]
        self._autograd = [weakref.ref(t) for t, _ in found]
        self._autograd_labels = [lab for _, lab in found]
        if found:
            t, lab = found[0]
            self.graph_hint = (f"{lab} has a grad_fn ({t.grad_fn.name()}): "
                               f"tensorviz.show_graph({lab}) draws the autograd graph that made "
                               "it, with a step-through backward (or w.graph() on this widget).")

    def scroll_storage(self, start: int, strip: int = 0) -> None:
        """Move the window of storage strip ``strip`` to start at element ``start``."""
        if self._scene.page_strip(strip, start):
            self.refresh()

    def scroll(self, tensor: int = 0, starts: Sequence[int] | None = None,
               select: Sequence[int] | None = None) -> None:
        """Move tensor ``tensor``'s window: ``starts`` per shown dim, ``select`` per high dim."""
        if self._scene.page_tensor(tensor, starts, select):
            self.refresh()

    def close(self) -> None:
        self._closed = True
        _LIVE.discard(self)
        scene = getattr(self, "_scene", None)  # absent when __init__ failed early
        for e in scene.entries if scene is not None else ():
            e.source.unsubscribe()
        super().close()

    # ------------------------------------------------------------------ internals
    def _remember(self, key: str, start: int, count: int, payload: bytes, wire: str) -> None:
        """Add a version of one strip's window unless it is the same as the last one."""
        hist = self._history.setdefault(key, [])
        if hist and (hist[-1]["start"], hist[-1]["count"]) != (start, count):
            hist.clear()  # another window of the storage: older versions do not line up
        if hist and hist[-1]["values"] == payload and hist[-1]["wire"] == wire:
            return
        hist.append({"start": start, "count": count, "values": payload, "wire": wire})
        while len(hist) > HISTORY_VERSIONS or (
                len(hist) > 2 and sum(len(v["values"]) for v in hist) > HISTORY_BYTES):
            hist.pop(0)

    def _record_versions(self) -> None:
        """After a write: keep each drawn window as it is now, even when the redraw waits
        (``Z[:] = ...; Z += X`` in one cell are two versions, not only the last)."""
        for key, start, count, values in self._scene.read_windows():
            if values is not None:
                self._remember(key, start, count, *encode(values))

    def _with_history(self, strips: list[dict]) -> list[dict]:
        """The strips with their versions attached (only where a write made more than one)."""
        out = []
        for s in strips:
            if s.get("alive") and s.get("has_values", True) and s.get("count"):
                self._remember(s["key"], s["start"], s["count"], s["values"], s["wire"])
            hist = self._history.get(s.get("key"), [])
            usable = hist and (hist[-1]["start"], hist[-1]["count"]) == \
                (s.get("start"), s.get("count"))
            if usable and len(hist) > 1:
                s = dict(s, history=[{"values": v["values"], "wire": v["wire"]} for v in hist])
            out.append(s)
        return out

    def export(self, path: str | None = None, format: str | None = None) -> bytes:
        """The widget's current picture (the windows drawn now) as SVG or PNG, for slides.

        >>> w.export("slide.svg")            # also returns the bytes
        >>> png = w.export(format="png")

        ``format`` defaults to the file's extension (else ``svg``).  Drawn with matplotlib
        (as :func:`tensorviz.plot`), so it needs matplotlib.
        """
        from ._plot import draw

        fmt = (format or (path.rsplit(".", 1)[-1] if path and "." in path else "svg")).lower()
        if fmt not in ("svg", "png"):
            raise ValueError(f"export() writes svg or png, not {fmt!r}")
        import io

        fig = draw(self.strips, self.tensors, self._scene.static)
        buf = io.BytesIO()
        fig.savefig(buf, format=fmt, dpi=150, bbox_inches="tight")
        data = buf.getvalue()
        if path is not None:
            with open(path, "wb") as f:
                f.write(data)
        return data

    def history(self, strip: int = 0) -> list[list]:
        """The versions of strip ``strip``'s drawn window, oldest first, as lists of values.

        >>> z = tensorviz.zeros(2); w = show(z); z += 1; z *= 3
        >>> w.history()      # [[0.0, 0.0], [1.0, 1.0], [3.0, 3.0]]
        """
        s = self.strips[strip]
        versions = s.get("history") or [{"values": s["values"], "wire": s["wire"]}]
        return [np.frombuffer(v["values"], dtype="<" + v["wire"]).tolist() for v in versions]

    def _apply(self, strips: list[dict], tensors: list[dict]) -> None:
        # a temporary (freed in the cell that drew it) needs no warning: nothing could change it
        alive = [t.get("alive", False) or t.get("temporary", False) for t in tensors]
        if alive and not any(alive):
            status = FREED
        elif not all(alive):
            status = SOME_FREED
        else:
            status = ""
        strips = self._with_history(strips)
        if strips == self.strips and tensors == self.tensors and status == self.status:
            return  # nothing to send: the front end redraws only on real changes
        with self.hold_sync():
            self.strips = strips
            self.tensors = tensors
            self.status = status
            self.revision += 1

    def _subscribe(self) -> None:
        if not self._live:
            return
        for entry in self._scene.entries:
            src = entry.source
            mem = src._memory()
            if mem is None:
                continue
            known = self._subscribed.get(src.memory_id)
            if (known is None or known() is not mem) and src.subscribe(self._on_write):
                self._subscribed[src.memory_id] = src._memory

    def _on_write(self) -> None:
        """Storage listener: called after every in-place write through any view."""
        try:
            if self._closed:
                return
            self._record_versions()
            now = time.monotonic()
            if now - self._last_refresh >= self._throttle_s:
                self.refresh()
            else:
                self._dirty = True
                self._schedule_flush()
        except Exception as exc:  # never break the learner's write
            self.status = f"could not refresh: {type(exc).__name__}: {exc}"

    def _schedule_flush(self) -> None:
        if self._flush_scheduled:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop: post_run_cell or the next write flushes
        self._flush_scheduled = True
        loop.call_later(self._throttle_s or 0.01, self._flush)

    def _flush(self) -> None:
        self._flush_scheduled = False
        if self._dirty and not self._closed:
            try:
                self.refresh()
            except Exception as exc:
                self.status = f"could not refresh: {type(exc).__name__}: {exc}"

    def _on_front_end_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """Requests from the front end, validated: never trust their types or ranges."""
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        try:
            if kind == "page_strip":
                self.scroll_storage(_int(content.get("start")), _int(content.get("strip")))
            elif kind == "page_tensor":
                self.scroll(_int(content.get("tensor")), _ints(content.get("starts")),
                            _ints(content.get("select")))
            elif kind == "refresh":
                self.refresh()
            elif kind == "export" and content.get("format") in ("svg", "png"):
                fmt = content["format"]
                try:
                    data = self.export(format=fmt)
                except ImportError:
                    self.send({"type": "export_error", "message":
                               "export needs matplotlib: pip install matplotlib"})
                    return
                self.send({"type": "export", "format": fmt, "name": f"tensorviz.{fmt}"},
                          buffers=[data])
            else:
                self._handle_other(kind, content)
        except (TypeError, ValueError, OverflowError):
            return

    def _handle_other(self, kind: Any, content: dict) -> None:
        return

    # ------------------------------------------------------------------ static fallback
    def to_html(self) -> str:
        """A static HTML snapshot (no JavaScript): what nbconvert and GitHub show."""
        return snapshot_html(self.strips, self.tensors, self._scene.static, self.status)

    def __repr__(self) -> str:
        return summary_text(type(self).__name__, self.tensors, self.status)


def _cell_id(shell: Any) -> Any:
    """Which cell is running: its execution count (the same for every call in one cell)."""
    return getattr(shell, "execution_count", None)


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("expected an integer")
    if value != value or abs(value) > 2 ** 62:
        raise ValueError("integer out of range")
    return int(value)


def _ints(value: Any) -> list[int] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > 64:
        raise TypeError("expected a list of integers")
    return [_int(v) for v in value]


from ._playground import Playground  # noqa: E402  (subclass of TensorView)
