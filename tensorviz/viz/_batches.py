"""``BatchView``: how a DataLoader makes a batch (``tensorviz.show_batches``).

indices (from the sampler) → samples (``dataset[i]``) → ``collate_fn`` → batch, and the worker
process that did it.  Nothing is simulated: the view iterates a traced copy of the learner's
loader with the same sampler, collate_fn and worker settings, where

- the dataset is wrapped so each sample travels with the index it was fetched for (an
  iterable-style dataset: with its position in the stream of the process that iterated it,
  as each worker iterates its own copy), and
- the collate_fn is wrapped so each batch travels with ``get_worker_info().id`` and the
  process id, read inside the process that built it (``None``: the main process).

Payloads are bounded: at most :data:`MAX_BATCHES` batches kept, :data:`MAX_SAMPLES` samples
drawn per batch, :data:`MAX_VALUES` values per tensor.
"""
from __future__ import annotations

import html
import importlib
import math
import os
import sys
from typing import Any, Callable, Iterator

import traitlets

from ._assets import asset
from ._widgets import _LIVE, DisplayedWidget, _ensure_hook

__all__ = ["BatchView", "MAX_BATCHES", "MAX_SAMPLES", "MAX_VALUES"]

MAX_BATCHES = 16  # batches kept (the latest)
MAX_SAMPLES = 12  # samples drawn per batch
MAX_VALUES = 256  # values per tensor drawn (an image up to 16 x 16)
MAX_TEXT = 80


class _IndexedDataset:
    """The learner's dataset, each sample returned with its index: ``(i, dataset[i])``."""

    def __init__(self, dataset: Any):
        self.dataset = dataset

    def __len__(self) -> int:
        return len(self.dataset)

    def __getitem__(self, index: Any) -> tuple:
        return index, self.dataset[index]


def _stream_init(self: Any, dataset: Any) -> None:
    self.dataset = dataset


def _stream_iter(self: Any) -> Iterator[tuple]:
    return enumerate(self.dataset)


_STREAM_CLASSES: dict[str, type] = {}


def _stream_class(library: str) -> type:
    """The learner's iterable dataset, each sample returned with its position in the stream:
    ``(k, sample)``. A subclass of the loader's own library's ``IterableDataset`` (so its
    DataLoader treats it as one), made once per library and reachable by name from this
    module (so spawned workers can unpickle it)."""
    cls = _STREAM_CLASSES.get(library)
    if cls is None:
        base = importlib.import_module(library + ".utils.data").IterableDataset
        name = f"_IndexedStream_{library}"
        cls = type(name, (base,), {"__init__": _stream_init, "__iter__": _stream_iter,
                                   "__module__": __name__, "__qualname__": name})
        _STREAM_CLASSES[library] = cls
    return cls


def __getattr__(name: str) -> Any:
    if name.startswith("_IndexedStream_"):
        return _stream_class(name[len("_IndexedStream_"):])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _TracedCollate:
    """The learner's collate_fn, its batch returned with where and from what it was made."""

    def __init__(self, collate_fn: Callable, worker_info: Callable, stream: bool = False):
        self.collate_fn = collate_fn
        self.worker_info = worker_info
        self.stream = stream  # (the "indices" are positions in a process's stream)

    def __call__(self, items: list) -> tuple:
        indices = [_plain(i) for i, _ in items]
        samples = [s for _, s in items]
        info = self.worker_info()  # inside the process that runs this: a worker, or main
        trace = {"indices": indices[:256], "count": len(indices),
                 "worker": None if info is None else int(info.id),
                 "num_workers": 0 if info is None else int(info.num_workers),
                 "pid": os.getpid(), "stream": self.stream,
                 "samples": [_describe(s) for s in samples[:MAX_SAMPLES]]}
        return self.collate_fn(samples), trace


def _plain(value: Any) -> Any:
    return int(value) if hasattr(value, "__index__") else str(value)[:MAX_TEXT]


def _describe(obj: Any, depth: int = 0) -> dict:
    """A bounded description of a sample or a batch: tensors with shape, dtype and values."""
    if hasattr(obj, "shape") and hasattr(obj, "dtype") and hasattr(obj, "reshape"):
        shape = [int(n) for n in obj.shape]
        numel = math.prod(shape)
        flat = obj.detach().reshape(-1)[:MAX_VALUES] if hasattr(obj, "detach") else \
            obj.reshape(-1)[:MAX_VALUES]
        values = [v if isinstance(v, float) else int(v) if isinstance(v, int) else str(v)
                  for v in flat.tolist()]  # (a complex number as text)
        out = {"kind": "tensor", "shape": shape, "dtype": str(obj.dtype).replace("tensorviz.",
                                                                                 "torch."),
               "values": values, "numel": numel}
        side = math.isqrt(numel) if 0 < numel <= MAX_VALUES else 0
        if side >= 4 and side * side == numel:
            out["image"] = side
        return out
    if depth < 2 and isinstance(obj, (tuple, list)):
        return {"kind": type(obj).__name__, "items": [_describe(o, depth + 1)
                                                      for o in list(obj)[:8]]}
    if depth < 2 and isinstance(obj, dict):
        return {"kind": "dict", "keys": [str(k)[:MAX_TEXT] for k in list(obj)[:8]],
                "items": [_describe(v, depth + 1) for v in list(obj.values())[:8]]}
    return {"kind": "value", "text": repr(obj)[:MAX_TEXT]}


def _name(obj: Any) -> str:
    return getattr(obj, "__qualname__", None) or type(obj).__name__


class BatchView(DisplayedWidget):
    """The batches of a DataLoader, each traced from sampler indices to the collated batch.

    >>> ds = tensorviz.utils.data.TensorDataset(tensorviz.arange(20.).reshape(10, 2))
    >>> loader = tensorviz.utils.data.DataLoader(ds, batch_size=4)
    >>> view = BatchView(loader, batches=2)     # or tensorviz.show_batches(loader)
    >>> view.traces[0]["indices"]
    [0, 1, 2, 3]
    """

    _esm = asset("batches.js")
    _css = asset("training.css")

    kind = traitlets.Unicode("batches").tag(sync=True)
    loader = traitlets.Dict().tag(sync=True)
    batches = traitlets.List(traitlets.Dict()).tag(sync=True)
    selected = traitlets.Int(0).tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    revision = traitlets.Int(0).tag(sync=True)

    def __init__(self, loader: Any, batches: int = 4, **kwargs: Any):
        if not hasattr(loader, "dataset") or not hasattr(loader, "collate_fn"):
            raise TypeError("show_batches() takes a DataLoader, got "
                            f"{type(loader).__name__}")
        if getattr(loader, "batch_sampler", None) is None:
            raise ValueError("show_batches() traces loaders that collate samples into batches: "
                             "give the DataLoader a batch_size (with batch_size=None each "
                             "sample is passed on as it is)")
        if not isinstance(batches, int) or isinstance(batches, bool) or batches < 0:
            raise ValueError(f"batches must be an int >= 0, got {batches!r}")
        self._closed = False
        self._shown_in_cell: Any = None
        self._display_ids: list[str] = []
        self._snapshot_revision = -1
        self._source = loader
        self._count = 0
        super().__init__(**kwargs)
        self.loader = self._describe_loader(loader)
        _LIVE.add(self)  # (so its saved picture follows the batches later cells record)
        _ensure_hook()
        if batches:
            it = iter(self)
            for _ in range(batches):
                if next(it, None) is None:
                    break
            del it  # its worker processes stop now

    # ------------------------------------------------------------------ public API
    @property
    def traces(self) -> list[dict]:
        """The recorded batches: indices, worker, pid, samples and the batch described."""
        return list(self.batches)

    def __iter__(self) -> Iterator[Any]:
        """The loader's batches, each recorded on its way (at most the last 16 kept)."""
        for batch, trace in self._traced_loader():
            self._record(batch, trace)
            yield batch

    def __len__(self) -> int:
        return len(self._source)

    # ------------------------------------------------------------------ tracing
    def _traced_loader(self) -> Any:
        src = self._source
        # the get_worker_info of the loader's own library (tensorviz's or PyTorch's), found
        # next to its DataLoader class (a subclass defined elsewhere: next to its base)
        worker_info = None
        for cls in type(src).__mro__:
            worker_info = getattr(sys.modules.get(cls.__module__), "get_worker_info", None)
            if worker_info is not None:
                break
        if worker_info is None:
            raise TypeError(f"show_batches() takes a DataLoader, got {type(src).__name__}")
        library = worker_info.__module__.split(".")[0]
        stream = _is_stream(src.dataset)
        kwargs: dict[str, Any] = dict(
            num_workers=src.num_workers,
            collate_fn=_TracedCollate(src.collate_fn, worker_info, stream),
            worker_init_fn=src.worker_init_fn, timeout=src.timeout,
            multiprocessing_context=src.multiprocessing_context, generator=src.generator)
        if stream:  # (an iterable dataset takes no sampler: batch_size and drop_last)
            kwargs.update(batch_size=src.batch_size, drop_last=src.drop_last)
        else:
            kwargs["batch_sampler"] = src.batch_sampler
        if src.num_workers:
            kwargs.update(prefetch_factor=src.prefetch_factor,
                          persistent_workers=src.persistent_workers)
        if hasattr(src, "in_order"):
            kwargs["in_order"] = src.in_order
        wrapped = _stream_class(library)(src.dataset) if stream else \
            _IndexedDataset(src.dataset)
        return type(src)(wrapped, **kwargs)

    def _record(self, batch: Any, trace: dict) -> None:
        trace = dict(trace, number=self._count, batch=_describe(batch))
        self._count += 1
        with self.hold_sync():
            self.batches = (list(self.batches) + [trace])[-MAX_BATCHES:]
            self.selected = len(self.batches) - 1 if len(self.batches) > 1 and \
                self.selected == len(self.batches) - 2 else self.selected
            self.revision += 1

    @staticmethod
    def _describe_loader(loader: Any) -> dict:
        ds = loader.dataset
        try:
            size = len(ds)
        except TypeError:
            size = None
        sampler = getattr(loader, "sampler", None)
        stream = _is_stream(ds)
        if stream:
            sampler = None  # (PyTorch's placeholder sampler of an iterable dataset)
        return {"dataset": _name(type(ds)), "size": size, "stream": stream,
                "batch_size": loader.batch_size, "drop_last": bool(loader.drop_last),
                "sampler": _name(type(sampler)) if sampler is not None else "",
                "num_workers": int(loader.num_workers),
                "collate_fn": _name(loader.collate_fn), "batches": _len(loader),
                "parent_pid": os.getpid()}

    # ------------------------------------------------------------------ live (as the others)
    _dirty = False

    def poll(self) -> None:
        return

    def close(self) -> None:
        self._closed = True
        _LIVE.discard(self)
        super().close()

    # ------------------------------------------------------------------ display
    def to_html(self) -> str:
        """A static HTML picture (no JavaScript): what nbconvert and GitHub show."""
        return static_html(self.loader, self.batches)

    def __repr__(self) -> str:
        workers = sorted({b["worker"] for b in self.batches}, key=lambda w: (w is None, w))
        return (f"BatchView({self.loader.get('dataset')}, batch_size="
                f"{self.loader.get('batch_size')}: {len(self.batches)} batches traced, "
                f"workers {workers})")


def _is_stream(dataset: Any) -> bool:
    """Is ``dataset`` iterable-style (samples come from ``iter(dataset)``, no indices)?
    (tensorviz's or PyTorch's ``IterableDataset``: a loader's library is loaded already, so
    this module need not import either.)"""
    for name in ("tensorviz.utils.data", "torch.utils.data"):
        module = sys.modules.get(name)
        if module is not None and isinstance(dataset, module.IterableDataset):
            return True
    return False


def _len(loader: Any) -> Any:
    try:
        return len(loader)
    except TypeError:
        return None


def worker_text(trace: dict) -> str:
    if trace.get("worker") is None:
        return f"the main process (pid {trace.get('pid')}): num_workers=0"
    return f"worker {trace['worker']} of {trace['num_workers']} (pid {trace.get('pid')})"


def describe_text(d: dict) -> str:
    """``tensor (8, 64) torch.float32`` / ``(tensor ..., tensor ...)``: one line."""
    kind = d.get("kind")
    if kind == "tensor":
        return f"tensor {tuple(d['shape'])} {d['dtype']}"
    if kind in ("tuple", "list", "dict"):
        inner = ", ".join(describe_text(i) for i in d.get("items", []))
        if kind == "dict":
            inner = ", ".join(f"{k}: {describe_text(i)}" for k, i in zip(d["keys"], d["items"]))
            return "{" + inner + "}"
        return f"({inner})" if kind == "tuple" else f"[{inner}]"
    return str(d.get("text", ""))


def static_html(loader: dict, batches: list) -> str:
    """The traced batches as text (escaped, inline styles)."""
    e = html.escape
    parts = ['<div class="tvb-static" style="font:12px monospace">',
             f"<div><b>DataLoader</b>({e(str(loader.get('dataset')))} of "
             f"{e(str(loader.get('size')))} samples, batch_size={e(str(loader.get('batch_size')))}"
             f", sampler={e(str(loader.get('sampler')))}, num_workers="
             f"{e(str(loader.get('num_workers')))}, collate_fn="
             f"{e(str(loader.get('collate_fn')))})</div>"]
    for b in batches:
        idx = ", ".join(str(i) for i in b.get("indices", [])[:32])
        what = "stream positions" if b.get("stream") else "indices"
        parts.append(f"<div>batch {b.get('number')}: {what} [{e(idx)}] → "
                     f"{b.get('count')} samples → collate → {e(describe_text(b['batch']))}"
                     f" · made by {e(worker_text(b))}</div>")
    parts.append("</div>")
    return "".join(parts)
