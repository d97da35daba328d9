"""``TrainingView``: a live picture of a training loop (``tensorviz.show_training``).

One widget, displayed once, updated in place while the loop runs (throttled: at most one
update per ``update_every`` seconds, and the last one when the cell ends), so a loop of
thousands of batches neither floods the notebook nor slows down.

What it shows, and where each part comes from (all read, never changed):

- progress: epoch and batch, counted by :meth:`TrainingView.step`;
- curves: the loss and accuracy passed to ``step`` (bounded: old points are merged in pairs
  once a curve has :data:`MAX_POINTS` of them), and the validation loss and accuracy passed
  to ``validate`` (one point per validation pass, drawn over the training curves);
- gradient norms per layer (the modules that own parameters; a layer's norm is that of all
  its parameters' gradients together) and per parameter, read in the optimizer's step
  pre-hook (the moment the gradients of this batch exist and are about to be used);
- the optimizer step on one watched parameter: a few of its elements (those with the largest
  gradient when first seen) before and after
  ``optimizer.step()``, the gradient used, and the optimizer's state for it
  (``momentum_buffer``, Adam's ``exp_avg``/``exp_avg_sq``), from its pre- and post-hooks;
- ``zero_grad``: the parameters' ``.grad`` as the model's forward pass starts (a forward
  pre-hook): ``None`` after ``optimizer.zero_grad()``, or a stale gradient that backward
  would add to.

The model and optimizer are held weakly; hooks go away with :meth:`TrainingView.close`.
Works with tensorviz and with PyTorch models and optimizers (it only reads
``named_parameters``, ``.grad``, ``optimizer.state`` and ``param_groups``).
"""
from __future__ import annotations

import html
import math
import sys
import time
import weakref
from typing import Any

import traitlets

from ._assets import asset
from ._widgets import _LIVE, DisplayedWidget, _ensure_hook

__all__ = ["TrainingView", "MAX_POINTS", "MAX_PARAMS", "WATCH_ELEMENTS"]

MAX_POINTS = 512  # per curve sent to the front end
MAX_PARAMS = 24  # gradient-norm bars drawn (layers, and parameters)
WATCH_ELEMENTS = 6  # elements of the watched parameter shown before/after a step
MAX_STATE = 6  # optimizer-state entries shown
FREED = ("The model or optimizer this view watched no longer exists: it shows the last known "
         "state. (A widget never keeps a model alive: keep it in a variable.)")

FORMULAS = {
    "SGD": "p ← p − lr·g",
    "SGD+momentum": "buf ← momentum·buf + g;  p ← p − lr·buf",
    "Adam": "m ← β₁·m + (1−β₁)·g;  v ← β₂·v + (1−β₂)·g²;  p ← p − lr·m̂ / (√v̂ + ε)",
    "AdamW": "p ← p − lr·λ·p;  m ← β₁·m + (1−β₁)·g;  v ← β₂·v + (1−β₂)·g²;  "
             "p ← p − lr·m̂ / (√v̂ + ε)",
}


class _Series:
    """A curve of (step, value) with a bounded number of points: once it holds ``limit``
    points, neighbours are merged in pairs (their mean), so old history gets coarser."""

    def __init__(self, limit: int = MAX_POINTS):
        self.limit = limit
        self.points: list[list[float]] = []  # [step, value, how many merged]

    def add(self, step: int, value: float) -> None:
        if not math.isfinite(value):
            value = float("nan")
        self.points.append([step, value, 1])
        if len(self.points) > self.limit:
            merged = []
            for k in range(0, len(self.points) - 1, 2):
                (s0, v0, n0), (s1, v1, n1) = self.points[k], self.points[k + 1]
                merged.append([s1, (v0 * n0 + v1 * n1) / (n0 + n1), n0 + n1])
            if len(self.points) % 2:
                merged.append(self.points[-1])
            self.points = merged

    def payload(self) -> list[list[float]]:
        return [[int(s), _num(v)] for s, v, _ in self.points]


def _num(value: float) -> Any:
    """A float JSON can carry (NaN and inf become None: a gap in the curve)."""
    value = float(value)
    return float(f"{value:.6g}") if math.isfinite(value) else None


def _values(t: Any, index: list[int] | None = None) -> list:
    """Elements ``index`` of a flattened tensor (tensorviz or PyTorch; default the first
    :data:`WATCH_ELEMENTS`), as Python floats."""
    flat = t.detach().reshape(-1)
    if index is None:
        return [_num(float(v)) for v in flat[:WATCH_ELEMENTS].tolist()]
    return [_num(float(flat[i])) for i in index]


def _pick(p: Any) -> list[int]:
    """Which elements of the watched parameter to show: those with the largest gradient in
    the first step seen (the first elements of a weight are often pixels that are always 0,
    whose step is 0), in storage order, kept for the rest of the loop."""
    flat = p.detach().reshape(-1)
    k = min(WATCH_ELEMENTS, int(flat.shape[0]))
    if p.grad is None:
        return list(range(k))
    top = p.grad.detach().reshape(-1).abs().topk(k).indices.tolist()
    return sorted(int(i) for i in top)


def _unravel(i: int, shape: list[int]) -> list[int]:
    out = []
    for n in reversed(shape):
        out.append(i % n)
        i //= n
    return out[::-1]


def _item(t: Any) -> float:
    value = t.item() if hasattr(t, "item") else t
    return float(value)


class TrainingView(DisplayedWidget):
    """Live loss and accuracy curves, gradient norms, the optimizer step and ``zero_grad``.

    >>> model = tensorviz.nn.Linear(64, 10)
    >>> opt = tensorviz.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    >>> view = TrainingView(model, opt, epochs=2, batches=3)   # or tensorviz.show_training
    >>> for xb, yb in loader:                                  # doctest: +SKIP
    ...     opt.zero_grad()
    ...     out = model(xb); loss = loss_fn(out, yb)
    ...     loss.backward(); opt.step()
    ...     view.step(loss, output=out, target=yb)
    >>> with tensorviz.no_grad():                              # doctest: +SKIP
    ...     out = model(x_val); view.validate(loss_fn(out, y_val), output=out, target=y_val)
    """

    _esm = asset("training.js")
    _css = asset("training.css")

    kind = traitlets.Unicode("training").tag(sync=True)
    progress = traitlets.Dict().tag(sync=True)
    curves = traitlets.Dict().tag(sync=True)
    grads = traitlets.Dict().tag(sync=True)
    optim = traitlets.Dict().tag(sync=True)
    zero_grad = traitlets.Dict().tag(sync=True)
    watch = traitlets.Unicode("").tag(sync=True)
    params = traitlets.List(traitlets.Unicode()).tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    revision = traitlets.Int(0).tag(sync=True)

    def __init__(self, model: Any, optimizer: Any = None, *, epochs: int | None = None,
                 batches: int | None = None, loader: Any = None, watch: str | None = None,
                 update_every: float = 0.25, title: str = "training", **kwargs: Any):
        if not hasattr(model, "named_parameters"):
            raise TypeError("show_training() needs an nn.Module (something with "
                            f"named_parameters()), got {type(model).__name__}")
        if optimizer is not None and not hasattr(optimizer, "param_groups"):
            raise TypeError("optimizer= takes a torch.optim optimizer, got "
                            f"{type(optimizer).__name__}")
        if loader is not None and batches is None:
            try:
                batches = len(loader)
            except TypeError:
                batches = None  # an iterable dataset: no length, batches are just counted
        for name, value in (("epochs", epochs), ("batches", batches)):
            if value is not None and (not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        self._closed = False
        self._dirty = False
        self._shown_in_cell: Any = None
        self._display_ids: list[str] = []
        self._snapshot_revision = -1
        self._model = weakref.ref(model)
        self._optimizer = weakref.ref(optimizer) if optimizer is not None else None
        named = list(model.named_parameters())
        self._names = {id(p): n for n, p in named}
        self._layers = _layers(model, named)
        self._param_refs = [(n, weakref.ref(p)) for n, p in named]
        self._epochs = epochs
        self._batches = batches
        self._update_every = float(update_every)
        self._last_send = -math.inf
        self._title = title
        self._steps = 0
        self._epoch_loss = [0.0, 0]
        self._epoch_correct = [0, 0]
        self._series = {"loss": _Series(), "accuracy": _Series(), "val_loss": _Series(),
                        "val_accuracy": _Series()}
        self._val = _ValidationPass()
        self._epoch_rows: list[dict] = []
        self._grad_norms: dict[str, float] = {}
        self._grad_seen = False  # the optimizer's pre-hook read this batch's gradients
        self._before: dict = {}
        self._optim_state: dict = {}
        self._zero: dict = {}
        self._forwards = 0
        self._forced_epoch: int | None = None
        self._index: list[int] | None = None  # the watched parameter's elements shown
        self._handles: list = []
        if watch is None:
            watch = next((n for n, p in named if p.requires_grad), named[0][0] if named else "")
        elif watch not in self._names.values():
            raise ValueError(f"watch={watch!r} is not a parameter of this model; it has: "
                             + ", ".join(n for n, _ in named[:12]))
        super().__init__(**kwargs)
        self.params = [n for n, _ in named][:64]
        self.watch = watch
        self._hook(model, optimizer)
        self.observe(self._on_watch, names="watch")
        self._push(force=True)
        _LIVE.add(self)
        _ensure_hook()

    # ------------------------------------------------------------------ public API
    def step(self, loss: Any, output: Any = None, target: Any = None, *,
             epoch: int | None = None) -> None:
        """Record one batch: its ``loss`` (a tensor or a number) and, given ``output`` (the
        model's logits, one row per sample) and ``target`` (class indices), its accuracy.

        Call it once per batch, after ``loss.backward()`` (and ``optimizer.step()``): the
        view counts batches for the progress bar (``epoch=`` overrides the count).
        """
        if self._closed:
            return
        value = _item(loss)
        self._steps += 1
        if epoch is not None:
            self._forced_epoch = int(epoch)
        self._series["loss"].add(self._steps, value)
        self._epoch_loss[0] += value
        self._epoch_loss[1] += 1
        if output is not None and target is not None:
            correct, total = _correct(output, target)
            self._epoch_correct[0] += correct
            self._epoch_correct[1] += total
            self._series["accuracy"].add(self._steps, correct / max(total, 1))
        if not self._grad_seen:  # no optimizer (or its step not called yet): read grads now
            self._read_grads()
        self._grad_seen = False
        if self._batches and self._steps % self._batches == 0:
            self._end_epoch()
        self._dirty = True
        self._push()

    def validate(self, loss: Any, output: Any = None, target: Any = None) -> None:
        """Record a validation batch: its ``loss`` and, given ``output`` and ``target``, its
        accuracy, drawn as a second (dashed) curve over the training ones.

        Call it after a training step, once per validation batch (the batches of one pass,
        i.e. all calls between two training steps, make one point: their mean, weighted by
        batch size) — usually under ``no_grad()`` at the end of each epoch. A model that
        keeps improving on its training batches while its validation loss rises has started
        to overfit.
        """
        if self._closed:
            return
        value = _item(loss)
        n = int(target.shape[0]) if target is not None and hasattr(target, "shape") and \
            len(target.shape) else 1
        correct = None
        if output is not None and target is not None:
            correct, n = _correct(output, target)
        point = self._val.add(self._steps, value, n, correct)
        for key in ("val_loss", "val_accuracy"):
            series = self._series[key]
            if series.points and series.points[-1][0] == self._steps and \
                    series.points[-1][2] == 1:
                series.points.pop()  # (the same pass: its point is replaced by the new mean)
        self._series["val_loss"].add(self._steps, point["loss"])
        if point["accuracy"] is not None:
            self._series["val_accuracy"].add(self._steps, point["accuracy"])
        if self._epoch_rows and self._epoch_rows[-1].get("step") == self._steps:
            self._epoch_rows[-1].update(_val_fields(point))
        self._dirty = True
        self._push()

    def flush(self) -> None:
        """Send what is pending now (the view does it by itself when the cell ends)."""
        if self._dirty and not self._closed:
            self._push(force=True)

    def poll(self) -> None:
        """After a cell: send the last update of the loop, or say the model is gone."""
        if self._closed:
            return
        if self._model() is None and self.status != FREED:
            self.status = FREED
            self.revision += 1
        self.flush()

    def close(self) -> None:
        """Stop watching: remove the hooks from the model and optimizer."""
        self._closed = True
        _LIVE.discard(self)  # (also called by __del__, on a view whose __init__ raised)
        for handle in getattr(self, "_handles", []):
            handle.remove()
        self._handles = []
        super().close()

    @property
    def history(self) -> dict:
        """The recorded curves: ``{"loss": [(step, value), ...], "accuracy": [...],
        "val_loss": [...], "val_accuracy": [...]}``."""
        return {k: [(int(s), v) for s, v, _ in series.points]
                for k, series in self._series.items()}

    # ------------------------------------------------------------------ hooks
    def _hook(self, model: Any, optimizer: Any) -> None:
        me = weakref.ref(self)
        # the library of the model (tensorviz or PyTorch): its grad mode tells a training
        # forward pass from an evaluation under no_grad, which says nothing about zero_grad
        first = next(iter(model.parameters()), None)
        library = sys.modules.get(type(first).__module__.split(".")[0]) if first is not None \
            else None
        grad_enabled = getattr(library, "is_grad_enabled", None)

        def forward_pre(_module: Any, _args: Any) -> None:
            view = me()
            if view is None or view._closed:
                return
            if grad_enabled is not None and not grad_enabled():
                return
            view._on_forward()

        self._handles.append(model.register_forward_pre_hook(forward_pre))
        if optimizer is None:
            return

        def step_pre(_opt: Any, _args: Any, _kwargs: Any) -> None:
            view = me()
            if view is not None and not view._closed:
                view._on_step(before=True)

        def step_post(_opt: Any, _args: Any, _kwargs: Any) -> None:
            view = me()
            if view is not None and not view._closed:
                view._on_step(before=False)

        self._handles.append(optimizer.register_step_pre_hook(step_pre))
        self._handles.append(optimizer.register_step_post_hook(step_post))

    def _watched(self) -> Any:
        for name, ref in self._param_refs:
            if name == self.watch:
                return ref()
        return None

    def _on_forward(self) -> None:
        """The forward pass starts: after ``zero_grad()`` every ``.grad`` is None."""
        self._forwards += 1
        none, zeros, stale = [], [], []
        for name, ref in self._param_refs:
            p = ref()
            if p is None or not p.requires_grad:
                continue
            if p.grad is None:
                none.append(name)
            elif _item(p.grad.abs().sum()) == 0:
                zeros.append(name)
            else:
                stale.append(name)
        p = self._watched()
        self._zero = {"forward": self._forwards, "none": len(none), "zeros": len(zeros),
                      "stale": stale[:8], "stale_count": len(stale),
                      "total": len(none) + len(zeros) + len(stale), "watched":
                      "None" if p is None or p.grad is None else
                      ("zeros" if self.watch in zeros else "stale")}

    def _read_grads(self) -> None:
        norms = {}
        for name, ref in self._param_refs:
            p = ref()
            if p is not None and p.grad is not None:
                norms[name] = _item(p.grad.detach().norm())
        self._grad_norms = norms

    def _on_step(self, before: bool) -> None:
        p = self._watched()
        opt = self._optimizer() if self._optimizer is not None else None
        if before:
            self._read_grads()
            self._grad_seen = True
            if p is None:
                self._before = {}
                return
            if self._index is None:
                self._index = _pick(p)
            self._before = {"before": _values(p, self._index),
                            "grad": None if p.grad is None else _values(p.grad, self._index)}
            return
        if p is None or opt is None:
            return
        state = {}
        for key, value in list(opt.state.get(p, {}).items())[:MAX_STATE]:
            if hasattr(value, "dim") and value.dim() > 0:
                state[str(key)] = _values(value, self._index)
            elif hasattr(value, "item") or isinstance(value, (int, float)):
                state[str(key)] = _num(_item(value))
        group = next((g for g in opt.param_groups if any(q is p for q in g["params"])),
                     opt.param_groups[0])
        hyper = {}
        for key, value in group.items():
            if key == "params":
                continue
            if isinstance(value, bool) or value is None:
                continue
            if isinstance(value, (int, float)):
                hyper[key] = _num(float(value))
            elif isinstance(value, tuple) and all(isinstance(v, (int, float)) for v in value):
                hyper[key] = [_num(float(v)) for v in value]
        kind = type(opt).__name__
        formula = FORMULAS.get(kind + ("+momentum" if hyper.get("momentum") else ""),
                               FORMULAS.get(kind, ""))
        index = self._index or []
        self._optim_state = dict(self._before, after=_values(p, index), state=state,
                                 hyper=hyper, index=[_unravel(i, list(p.shape)) for i in index],
                                 optimizer=kind, formula=formula, param=self.watch,
                                 shape=list(p.shape), step=self._steps + 1)

    def _on_watch(self, _change: Any) -> None:
        if self.watch not in self._names.values():
            return
        self._optim_state = {}
        self._index = None
        self._push(force=True)

    # ------------------------------------------------------------------ sending
    def _end_epoch(self) -> None:
        loss_n = max(self._epoch_loss[1], 1)
        row = {"epoch": len(self._epoch_rows) + 1, "step": self._steps,
               "loss": _num(self._epoch_loss[0] / loss_n)}
        point = self._val.current(self._steps)
        if point is not None:  # (validated during this epoch, before its last batch)
            row.update(_val_fields(point))
        if self._epoch_correct[1]:
            row["accuracy"] = _num(self._epoch_correct[0] / self._epoch_correct[1])
        self._epoch_rows = (self._epoch_rows + [row])[-50:]
        self._epoch_loss = [0.0, 0]
        self._epoch_correct = [0, 0]

    def _progress(self) -> dict:
        steps, per = self._steps, self._batches
        epoch = self._forced_epoch
        if per:
            done_epochs = steps // per
            batch = steps - done_epochs * per
            if batch == 0 and steps:
                done_epochs, batch = done_epochs - 1, per
            epoch = done_epochs + 1 if epoch is None else epoch + 1
        else:
            batch = steps
            epoch = 1 if epoch is None else epoch + 1
        opt = self._optimizer() if self._optimizer is not None else None
        out = {"title": self._title, "step": steps,
               "optimizer": type(opt).__name__ if opt is not None else "", "epoch": epoch, "epochs": self._epochs,
               "batch": batch, "batches": per,
               "epoch_loss": _num(self._epoch_loss[0] / self._epoch_loss[1])
               if self._epoch_loss[1] else None,
               "epoch_accuracy": _num(self._epoch_correct[0] / self._epoch_correct[1])
               if self._epoch_correct[1] else None}
        if per and self._epochs:
            out["fraction"] = min(steps / (per * self._epochs), 1.0)
        return out

    def _push(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last_send < self._update_every:
            return
        self._last_send = now
        self._dirty = False
        names = [n for n, _ in self._param_refs]
        norms = self._grad_norms
        shown = [n for n in names if n in norms][:MAX_PARAMS]
        layers = []
        for layer, kind, params in self._layers:
            have = [n for n in params if n in norms]
            if have:
                total = math.sqrt(sum(norms[n] ** 2 for n in have)) \
                    if all(math.isfinite(norms[n]) for n in have) else float("nan")
                layers.append({"name": layer, "kind": kind, "norm": _num(total),
                               "params": have})
        with self.hold_sync():
            self.progress = self._progress()
            self.curves = {key: series.payload() for key, series in self._series.items()}
            self.curves["epochs"] = self._epoch_rows
            self.grads = {"names": shown, "norms": [_num(norms[n]) for n in shown],
                          "more": max(len([n for n in names if n in norms]) - MAX_PARAMS, 0),
                          "layers": layers[:MAX_PARAMS],
                          "more_layers": max(len(layers) - MAX_PARAMS, 0)}
            self.optim = self._optim_state
            self.zero_grad = self._zero
            self.revision += 1

    # ------------------------------------------------------------------ display
    def to_html(self) -> str:
        """A static HTML picture (no JavaScript): what nbconvert and GitHub show."""
        return static_html(self.progress, self.curves, self.grads, self.optim, self.zero_grad,
                           self.status)

    def __repr__(self) -> str:
        p = self.progress
        loss = self.curves.get("loss") or []
        last = f", loss {loss[-1][1]:.4g}" if loss and loss[-1][1] is not None else ""
        return f"TrainingView(epoch {p.get('epoch')}, batch {p.get('batch')}, " \
               f"{p.get('step')} steps{last})"


class _ValidationPass:
    """The validation batches given since the last training step: one point, their mean."""

    def __init__(self) -> None:
        self.step = -1
        self.loss = 0.0
        self.samples = 0
        self.correct = 0
        self.counted = 0  # samples whose accuracy was given

    def add(self, step: int, loss: float, n: int, correct: int | None) -> dict:
        if step != self.step:
            self.step, self.loss, self.samples, self.correct, self.counted = step, 0.0, 0, 0, 0
        self.loss += loss * n
        self.samples += n
        if correct is not None:
            self.correct += correct
            self.counted += n
        return self.current(step)

    def current(self, step: int) -> dict | None:
        if step != self.step or not self.samples:
            return None
        return {"loss": self.loss / self.samples,
                "accuracy": self.correct / self.counted if self.counted else None}


def _val_fields(point: dict) -> dict:
    out = {"val_loss": _num(point["loss"])}
    if point["accuracy"] is not None:
        out["val_accuracy"] = _num(point["accuracy"])
    return out


def _layers(model: Any, named: list) -> list[tuple[str, str, list[str]]]:
    """The model's layers for the gradient panel: each module that owns parameters itself,
    as ``(path, class name, [its parameters' names])``, in ``named_parameters`` order
    (a parameter registered on the model itself belongs to the layer ``""``)."""
    owner: dict[int, tuple[str, str]] = {}
    for path, module in model.named_modules():
        for _, p in module.named_parameters(recurse=False):
            owner.setdefault(id(p), (path, type(module).__name__))
    layers: dict[str, tuple[str, list[str]]] = {}
    for name, p in named:
        path, kind = owner.get(id(p), (name.rpartition(".")[0], ""))
        layers.setdefault(path, (kind, []))[1].append(name)
    return [(path, kind, params) for path, (kind, params) in layers.items()]


def _correct(output: Any, target: Any) -> tuple[int, int]:
    """How many rows of ``output`` have their largest logit at ``target``'s class."""
    if output.dim() != 2 or target.dim() != 1 or output.shape[0] != target.shape[0]:
        raise ValueError("step(output=, target=) takes logits of shape (batch, classes) and "
                         f"class indices of shape (batch,), got {tuple(output.shape)} and "
                         f"{tuple(target.shape)}")
    hits = (output.detach().argmax(1) == target).sum()
    return int(_item(hits)), int(target.shape[0])


# ---------------------------------------------------------------------- static HTML
def _polyline(points: list, width: int, height: int, lo: float, hi: float, last: int) -> str:
    pts = []
    for s, v in points:
        if v is None:
            continue
        x = 4 + (width - 8) * (s / max(last, 1))
        y = height - 4 - (height - 8) * ((v - lo) / (hi - lo) if hi > lo else 0.5)
        pts.append(f"{x:.1f},{y:.1f}")
    return " ".join(pts)


def static_html(progress: dict, curves: dict, grads: dict, optim: dict, zero: dict,
                status: str) -> str:
    """The view as text and two small SVG curves (escaped text, inline styles)."""
    e = html.escape
    parts = ['<div class="tvt-static" style="font:12px monospace">']
    if status:
        parts.append(f'<div style="color:#b3261e">{e(status)}</div>')
    p = progress
    epochs = f"/{p['epochs']}" if p.get("epochs") else ""
    batches = f"/{p['batches']}" if p.get("batches") else ""
    parts.append(f"<div><b>{e(str(p.get('title', 'training')))}</b> · epoch "
                 f"{p.get('epoch')}{epochs} · batch {p.get('batch')}{batches} · "
                 f"{p.get('step', 0)} steps</div>")
    for key, colour in (("loss", "#1976d2"), ("accuracy", "#2e7d32")):
        points = curves.get(key) or []
        val = [q for q in curves.get("val_" + key) or [] if q[1] is not None]
        values = [v for _, v in points if v is not None]
        if not values:
            continue
        both = values + [v for _, v in val]
        lo, hi = (0.0, 1.0) if key == "accuracy" else (min(both), max(both))
        last = max(points[-1][0], val[-1][0] if val else 0)
        line = _polyline(points, 280, 70, lo, hi, last)
        dashed = ""
        said = ""
        if val:
            dashed = (f'<polyline fill="none" stroke="#e65100" stroke-dasharray="4 3" '
                      f'points="{_polyline(val, 280, 70, lo, hi, last)}"/>')
            said = f"; validation last {val[-1][1]:.4g} (dashed)"
        parts.append(f'<div>{key}: last {values[-1]:.4g} (min {min(values):.4g}, '
                     f'max {max(values):.4g}){said}<br><svg width="280" height="70" '
                     'style="border:1px solid #888">'
                     f'<polyline fill="none" stroke="{colour}" points="{line}"/>{dashed}</svg>'
                     '</div>')
    names, norms = grads.get("names") or [], grads.get("norms") or []
    layers = grads.get("layers") or []
    if layers:
        rows = "".join(
            f"<tr><td>{e(layer['name'] or '(model)')} {e(layer['kind'])}</td><td>"
            f"{'—' if layer['norm'] is None else format(layer['norm'], '.3g')}</td></tr>"
            for layer in layers)
        parts.append(f"<div>gradient norms per layer (last batch)<table>{rows}</table></div>")
    elif names:
        rows = "".join(f"<tr><td>{e(n)}</td><td>{'—' if v is None else f'{v:.3g}'}</td></tr>"
                       for n, v in zip(names, norms))
        parts.append(f"<div>gradient norms (last batch)<table>{rows}</table></div>")
    if optim:
        parts.append(f"<div>{e(str(optim.get('optimizer', '')))} step on "
                     f"{e(str(optim.get('param', '')))}: before {e(str(optim.get('before')))}"
                     f" → after {e(str(optim.get('after')))}; grad {e(str(optim.get('grad')))}"
                     "</div>")
        for key, value in (optim.get("state") or {}).items():
            parts.append(f"<div>state[{e(key)}] = {e(str(value))}</div>")
    if zero:
        parts.append(f"<div>at forward: .grad is None for {zero.get('none')}/"
                     f"{zero.get('total')} parameters</div>")
    parts.append("</div>")
    return "".join(parts)
