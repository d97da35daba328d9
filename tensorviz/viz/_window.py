"""Bounded windows onto a layout: which logical cells and storage slots get drawn.

However large the tensor, the widgets draw a fixed budget of cells: a window of the logical
view (a few blocks of a grid for 3-D/4-D, index selectors above 4-D) and a window of storage
slots, each with the *footprint* of every tensor on it (how many logical elements map to each
slot).  Everything here costs O(window), never O(numel).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _layout

__all__ = ["DisplayDims", "display_dims", "window_counts", "logical_addresses", "footprint",
           "encode", "STRIP_SLOTS", "CELL_BUDGET"]

STRIP_SLOTS = 128  # storage slots drawn per strip
CELL_BUDGET = 4096  # logical cells drawn, shared by all tensors of one widget
MAX_CELLS = 512  # logical cells drawn for one tensor
GRID_MAX = 16  # rows/cols of one grid
ROW_MAX = 32  # cells of a 1-D row
BLOCK_MAX = 4  # blocks along each block dim (3-D / 4-D)
FOOTPRINT_WORK = 1 << 21  # enumeration cap for heavily overlapping layouts


@dataclass(frozen=True)
class DisplayDims:
    """How an n-D tensor is laid out on screen.

    ``select``: dims fixed by an index selector (above 4-D); ``block``: dims drawn as a grid of
    grids (3-D and 4-D, e.g. N and C of NCHW); ``grid``: the last one or two dims, a grid.
    """

    select: tuple[int, ...]
    block: tuple[int, ...]
    grid: tuple[int, ...]

    @property
    def shown(self) -> tuple[int, ...]:
        return self.block + self.grid


def display_dims(ndim: int) -> DisplayDims:
    if ndim <= 2:
        return DisplayDims((), (), tuple(range(ndim)))
    n_select = max(ndim - 4, 0)
    return DisplayDims(tuple(range(n_select)), tuple(range(n_select, ndim - 2)),
                       (ndim - 2, ndim - 1))


def window_counts(shape: tuple[int, ...], dims: DisplayDims, budget: int = MAX_CELLS) -> list[int]:
    """How many indices of each shown dim are drawn: capped per dim, then to ``budget`` cells."""
    counts = []
    for d in dims.block:
        counts.append(min(shape[d], BLOCK_MAX))
    if len(dims.grid) == 1:
        counts.append(min(shape[dims.grid[0]], ROW_MAX))
    else:
        counts.extend(min(shape[d], GRID_MAX) for d in dims.grid)
    while _layout.numel(counts) > budget:
        big = max(range(len(counts)), key=lambda k: counts[k])
        counts[big] = max(counts[big] // 2, 1)
    return counts


def clamp_starts(shape: tuple[int, ...], dims: DisplayDims, starts, counts) -> list[int]:
    out = []
    for k, d in enumerate(dims.shown):
        s = int(starts[k]) if starts is not None and k < len(starts) else 0
        out.append(min(max(s, 0), max(shape[d] - counts[k], 0)))
    return out


def clamp_select(shape: tuple[int, ...], dims: DisplayDims, select) -> list[int]:
    out = []
    for k, d in enumerate(dims.select):
        s = int(select[k]) if select is not None and k < len(select) else 0
        out.append(min(max(s, 0), max(shape[d] - 1, 0)))
    return out


def logical_addresses(shape, stride, offset, dims: DisplayDims, select, starts,
                      counts) -> np.ndarray:
    """Storage addresses of the drawn cells, row-major over the shown dims.

    The vectorised form of ``_layout.address`` over the window:
    ``addr[c] = offset + sum(index[c][d] * stride[d])``.
    """
    base = _layout.address([0] * len(shape), stride, offset)
    base += sum(i * stride[d] for i, d in zip(select, dims.select))
    addr = np.full(counts, base, dtype=np.int64) if counts else np.array(base, np.int64)
    for k, d in enumerate(dims.shown):
        view = [1] * len(counts)
        view[k] = counts[k]
        idx = np.arange(starts[k], starts[k] + counts[k], dtype=np.int64)
        addr = addr + (idx * stride[d]).reshape(view)
    return addr.ravel()


def footprint(shape, stride, offset, start: int, stop: int) -> np.ndarray | None:
    """For each storage slot in ``[start, stop)``: how many logical elements live there.

    0 means the slot is outside the tensor, 1 is the usual case, more than 1 means broadcasting
    (a stride-0 dim) or overlapping windows.  Cost grows with the window, not the tensor:
    dims are walked from the largest stride down, keeping only the partial addresses that can
    still reach the window.  Returns None when an overlapping layout needs too much work.
    """
    counts = np.zeros(max(stop - start, 0), dtype=np.int64)
    if _layout.numel(shape) == 0 or stop <= start:
        return counts
    multiplicity = 1
    base = offset
    dims = []
    for n, st in zip(shape, stride):
        if n == 1:
            continue
        if st == 0:  # broadcast: every slot reached n times
            multiplicity *= n
            continue
        if st < 0:  # Note: NumPy only; the same set of addresses, walked upward
            base += (n - 1) * st
            st = -st
        dims.append((n, st))
    dims.sort(key=lambda d: -d[1])
    reach_after = [0] * (len(dims) + 1)
    for k in range(len(dims) - 1, -1, -1):
        n, st = dims[k]
        reach_after[k] = reach_after[k + 1] + (n - 1) * st
    bases = np.array([base], dtype=np.int64)
    for k, (n, st) in enumerate(dims):
        rest = reach_after[k + 1]
        # keep i with  bases + i*st + [0, rest]  meeting  [start, stop)
        lo = np.maximum(-((bases + rest - start) // st), 0)  # ceil((start - rest - b) / st)
        hi = np.minimum((stop - 1 - bases) // st, n - 1)
        per = np.maximum(hi - lo + 1, 0)
        total = int(per.sum())
        if total > FOOTPRINT_WORK:
            return None
        if total == 0:
            return counts
        first = np.repeat(np.cumsum(per) - per, per)
        i = np.arange(total, dtype=np.int64) - first + np.repeat(lo, per)
        bases = np.repeat(bases, per) + i * st
    bases = bases[(bases >= start) & (bases < stop)]  # only needed when no dim filtered them
    counts += np.bincount(bases - start, minlength=stop - start)[: stop - start]
    return counts * multiplicity


# ------------------------------------------------------------------ wire encoding
_WIRE = {"b": "b1", "i1": "i1", "i2": "i2", "i4": "i4", "i8": "i8", "u1": "u1", "u2": "u2",
         "u4": "u4", "u8": "u8", "f2": "f4", "f4": "f4", "f8": "f8", "c8": "c8", "c16": "c16"}


def encode(values: np.ndarray) -> tuple[bytes, str]:
    """Little-endian bytes for the front end and the wire type that decodes them.

    float16 and bfloat16 travel as float32 (exact; not every browser has Float16Array, none
    has a bfloat16 array); bool as uint8.
    """
    dt = values.dtype
    if dt.name == "bfloat16":  # (ml_dtypes' bfloat16: NumPy kind "V")
        values, dt = values.astype(np.float32), np.dtype(np.float32)
    key = "b" if dt.kind == "b" else f"{dt.kind}{dt.itemsize}"
    wire = _WIRE.get(key)
    if wire is None:
        raise TypeError(f"cannot draw values of dtype {dt}")
    if wire == "f4" and dt.itemsize == 2:
        values = values.astype(np.float32)
    target = {"b1": np.uint8}.get(wire)
    if target is not None:
        values = values.astype(target)
    values = np.ascontiguousarray(values, dtype=values.dtype.newbyteorder("<"))
    return values.tobytes(), wire
