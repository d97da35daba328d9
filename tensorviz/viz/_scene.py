"""What one widget draws: tensors grouped by the storage they share, each with a window.

A :class:`Scene` owns the weak :class:`~tensorviz.viz._source.Source` handles and the window
positions, and :meth:`Scene.build` turns them into the synced state: one *strip* per storage
(tensors that share memory draw over the same strip, a copy gets its own) and one entry per
tensor with its layout, a window of logical values and its footprint on the strip.

The state is small JSON plus binary buffers (``bytes``), bounded whatever the tensor size::

    strips  = [{"size": 12, "start": 0, "count": 12, "values": b"...", "wire": "i8", ...}]
    tensors = [{"label": "a.t()", "shape": [4, 3], "stride": [1, 4], "offset": 0,
                "strip": 0, "values": b"...", "footprint": b"...", ...}]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from .. import _layout
from ._source import Layout, Source
from ._window import (CELL_BUDGET, MAX_CELLS, STRIP_SLOTS, clamp_select, clamp_starts,
                      display_dims, encode, footprint, logical_addresses, window_counts)

__all__ = ["Scene", "MAX_TENSORS", "TAGS"]

MAX_TENSORS = 16
TAGS = "ABCDEFGHIJKLMNOP"
_UINT32_MAX = np.iinfo(np.uint32).max


@dataclass
class Entry:
    source: Source
    label: str
    select: list[int] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    strip_key: Any = None
    last: dict | None = None  # last built tensor state (kept when the memory is freed)
    last_values: np.ndarray | None = None


class Scene:
    """The tensors of one widget, their storage strips and where each window stands."""

    def __init__(self, objects: Sequence[Any], labels: Sequence[str],
                 on_freed: Callable[[], None] | None = None, strip_slots: int = STRIP_SLOTS,
                 born: int | None = None):
        if len(objects) > MAX_TENSORS:
            raise ValueError(f"show() draws at most {MAX_TENSORS} tensors at once, got "
                             f"{len(objects)}")
        self._on_freed = on_freed
        self.born = born  # the cell count when the widget was made (None: not in a notebook)
        self.strip_slots = int(strip_slots)
        self.entries: list[Entry] = []
        self.strip_starts: dict[Any, int] = {}
        self._dead_strips: dict[Any, dict] = {}
        self._dead_static: dict[Any, Any] = {}
        self._strip_keys: list = []  # strip order of the last build
        self.static: dict = {}  # decoded values of the last build, for the HTML snapshot
        for obj, label in zip(objects, labels):
            self.add(obj, label)
        self.last = self.build()  # while the caller still holds every object (temporaries too)

    def add(self, obj: Any, label: str) -> Entry:
        if len(self.entries) >= MAX_TENSORS:
            raise ValueError(f"a widget draws at most {MAX_TENSORS} tensors")
        entry = Entry(Source(obj, self._on_freed), str(label))
        self.entries.append(entry)
        return entry

    def pop(self) -> None:
        entry = self.entries.pop()
        entry.source.unsubscribe()

    def temporary(self, index: int) -> bool:
        """Whether tensor ``index`` was a temporary: freed in the cell that drew it.

        Nothing else referred to its memory, so nothing could ever change it: its last
        picture is simply its value (no warning needed), unlike a variable deleted later.
        """
        freed = self.entries[index].source.freed_in
        return self.born is not None and freed is not None and freed == self.born

    def read_windows(self) -> list[tuple[str, int, int, Any]]:
        """``(strip key text, start, count, values)`` of every live strip's drawn window, read
        now (bounded by the window size): what a write changed, before the next redraw."""
        out = []
        for key in self._strip_keys:
            if key[0] == "freed" or key not in self.strip_starts:
                continue
            entry = next((e for e in self.entries if e.strip_key == key and e.source.alive),
                         None)
            if entry is None:
                continue
            size = entry.source.layout().storage_size
            start, count = self.strip_starts[key], min(size, self.strip_slots)
            out.append((_key_text(key), start, count, entry.source.read(start, start + count)))
        return out

    # ------------------------------------------------------------------ paging
    def page_strip(self, strip: int, start: int) -> bool:
        if not 0 <= strip < len(self._strip_keys):
            return False
        self.strip_starts[self._strip_keys[strip]] = max(int(start), 0)
        return True

    def page_tensor(self, index: int, starts: Sequence[int] | None = None,
                    select: Sequence[int] | None = None) -> bool:
        if not 0 <= index < len(self.entries):
            return False
        entry = self.entries[index]
        if starts is not None:
            entry.starts = [int(s) for s in starts]
        if select is not None:
            entry.select = [int(s) for s in select]
        return True

    # ------------------------------------------------------------------ build
    def build(self) -> tuple[list[dict], list[dict]]:
        """The synced ``(strips, tensors)`` for the current layouts, values and windows."""
        n = max(len(self.entries), 1)
        budget = min(MAX_CELLS, max(16, CELL_BUDGET // n))
        layouts: list[Layout | None] = []
        groups: dict[Any, list[int]] = {}
        for k, entry in enumerate(self.entries):
            src = entry.source
            if src.alive:
                lay = src.layout()
                entry.strip_key = (src.kind, src.memory_id, lay.dtype)
                layouts.append(lay)
            else:
                layouts.append(None)
                # a freed memory's id may be reused by a new tensor: never share its key
                if entry.strip_key is None:
                    entry.strip_key = ("freed", "never drawn", k)
                elif entry.strip_key[0] != "freed":
                    entry.strip_key = ("freed",) + entry.strip_key
        # The same bytes read the same way draw on one strip, whoever owns them: a tensor and
        # its zero-copy NumPy alias (t.numpy(), from_numpy) are views of one memory, not copies.
        same: dict[Any, Any] = {}
        ranges: dict[Any, tuple] = {}
        for k, entry in enumerate(self.entries):
            rng = entry.source.byte_range() if layouts[k] is not None else None
            if rng is not None:
                entry.strip_key = same.setdefault(rng + (layouts[k].dtype,), entry.strip_key)
                ranges.setdefault(entry.strip_key, rng)
        for k, entry in enumerate(self.entries):
            groups.setdefault(entry.strip_key, []).append(k)

        strips: list[dict] = []
        strip_of: dict[Any, int] = {}
        static_strips = []
        for key, members in groups.items():
            strip_of[key] = len(strips)
            live = [layouts[m] for m in members if layouts[m] is not None]
            if not live:
                old = self._dead_strips.get(key[1:])
                strip = dict(old) if old else {"size": 0, "start": 0, "count": 0,
                                               "values": b"", "wire": "f8", "dtype": "?",
                                               "itemsize": 0, "device": "?", "kind": "?",
                                               "nbytes": 0}
                strip.update(key=_key_text(key), tensors=members, alive=False, alias_of=[],
                             temporary=all(self.temporary(m) for m in members))
                strips.append(strip)
                static_strips.append(self._dead_static.get(key[1:]))
                continue
            strip, values = self._build_strip(key, live, members)
            strips.append(strip)
            static_strips.append(values)
            self._dead_strips[key] = strip  # what to draw once the memory is freed
            self._dead_static[key] = values

        # strips that are other readings of (part of) the same memory: another dtype, or an
        # overlapping range owned by another object (a NumPy alias of a slice)
        keys = list(groups)
        for i, key in enumerate(keys):
            if key[0] == "freed":
                continue
            rng = ranges.get(key)
            strips[i]["alias_of"] = [
                j for j, other in enumerate(keys) if j != i and other[0] != "freed" and (
                    other[1] == key[1] or (rng is not None and other in ranges and
                                           _overlap(rng, ranges[other])))]

        tensors = []
        static_tensors = []
        for k, entry in enumerate(self.entries):
            lay = layouts[k]
            strip_index = strip_of[entry.strip_key]
            if lay is None:
                state = dict(entry.last) if entry.last else {"label": entry.label}
                state.update(alive=False, strip=strip_index, tag=TAGS[k], color=k,
                             temporary=self.temporary(k))
                tensors.append(state)
                static_tensors.append(entry.last_values)
                continue
            strip = strips[strip_index]
            state, values = self._build_tensor(entry, lay, budget, strip)
            state.update(tag=TAGS[k], color=k, strip=strip_index)
            entry.last, entry.last_values = state, values
            tensors.append(state)
            static_tensors.append(values)
        self.static = {"strips": static_strips, "tensors": static_tensors}
        self._strip_keys = list(groups)
        return strips, tensors

    def _build_strip(self, key, live: list[Layout], members: list[int]) -> tuple[dict, Any]:
        lay = live[0]
        size = lay.storage_size
        count = min(size, self.strip_slots)
        if key in self.strip_starts:
            start = self.strip_starts[key]
        else:
            low = min((lo.extent()[0] for lo in live if lo.numel), default=0)
            start = low - 2 if low > 2 else 0
        start = min(max(start, 0), max(size - count, 0))
        self.strip_starts[key] = start
        src = self.entries[members[0]].source
        values = src.read(start, start + count)
        payload, wire = (b"", "f8") if values is None else encode(values)
        return ({"key": _key_text(key), "kind": lay.kind, "dtype": lay.dtype,
                 "itemsize": lay.itemsize, "device": lay.device, "size": size,
                 "nbytes": size * lay.itemsize, "start": start, "count": count,
                 "values": payload, "wire": wire, "has_values": values is not None,
                 "tensors": members, "alive": True, "alias_of": []}, values)

    def _build_tensor(self, entry: Entry, lay: Layout, budget: int,
                      strip: dict) -> tuple[dict, Any]:
        dims = display_dims(lay.ndim)
        counts = window_counts(lay.shape, dims, budget)
        select = clamp_select(lay.shape, dims, entry.select)
        starts = clamp_starts(lay.shape, dims, entry.starts, counts)
        entry.select, entry.starts = select, starts
        values = None
        if lay.numel:
            addresses = logical_addresses(lay.shape, lay.stride, lay.offset, dims, select,
                                          starts, counts)
            values = entry.source.gather(addresses)
        payload, wire = (b"", "f8") if values is None else encode(values)
        fp = footprint(lay.shape, lay.stride, lay.offset, strip["start"],
                       strip["start"] + strip["count"])
        fp_bytes = b"" if fp is None else np.minimum(fp, _UINT32_MAX).astype("<u4").tobytes()
        lo, hi = lay.extent()
        contiguous = _layout.is_contiguous(lay.shape, lay.stride)
        state = {
            "label": entry.label, "kind": lay.kind, "alive": True,
            "shape": list(lay.shape), "stride": list(lay.stride), "offset": lay.offset,
            "dtype": lay.dtype, "itemsize": lay.itemsize, "device": lay.device,
            "numel": lay.numel, "storage_size": lay.storage_size,
            "contiguous": contiguous,
            "reason": _reason(lay, contiguous),
            "extent": [lo, hi],
            "byte_strides": list(lay.byte_strides) if lay.byte_strides is not None else None,
            "note": lay.note,
            "version": entry.source.version(),
            "dims": {"select": list(dims.select), "block": list(dims.block),
                     "grid": list(dims.grid)},
            "select": select, "starts": starts, "counts": counts,
            "values": payload, "wire": wire, "has_values": values is not None or not lay.numel,
            "footprint": fp_bytes, "footprint_ok": fp is not None,
        }
        return state, values


def _reason(lay: Layout, contiguous: bool) -> str:
    backwards = [d for d, (n, st) in enumerate(zip(lay.shape, lay.stride)) if st < 0 and n > 1]
    if backwards:  # Note: NumPy only; PyTorch strides are never negative
        d = backwards[0]
        return (f"not contiguous: dim {d} has a negative stride ({lay.stride[d]}), so it walks "
                "storage backwards (NumPy allows this, PyTorch does not)")
    return _layout.contiguity_reason(lay.shape, lay.stride)


def _overlap(a: tuple, b: tuple) -> bool:
    """Whether two ``(device, start, stop)`` byte ranges share a byte."""
    return a[0] == b[0] and a[1] < b[2] and b[1] < a[2]


def _key_text(key) -> str:
    return "/".join(str(k) for k in key)
