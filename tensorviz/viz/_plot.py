"""``tensorviz.plot``: the widget's picture as a static matplotlib figure.

Top: one storage strip per storage (slot index, value, and a row of marks per tensor that
reads it).  Bottom: each tensor's logical grid, every cell labelled with its value and the
storage slot it lives in, with lines from the cells to their slots when there are few enough.
Works anywhere matplotlib does (PDF export, nbviewer, scripts).
"""
from __future__ import annotations

import itertools
from typing import Any, Sequence

import numpy as np

from ._scene import Scene
from ._static import _COLORS, format_value, tuple_text

__all__ = ["plot"]

_MAX_LINES = 48  # mapping lines per tensor; more would hide the picture
_CELL_IN = 0.42  # inches per logical cell


_BLOCK_GAP = 1.6  # rows between block rows: room for a block's label


def _grid_shape(t: dict) -> tuple[int, int, int, int]:
    """``(block_rows, block_cols, rows, cols)``: a grid of grids, as the widget draws it."""
    nb = len(t["dims"]["block"])
    counts = t["counts"]
    grid_counts = counts[nb:]
    rows = grid_counts[0] if len(grid_counts) == 2 else 1
    cols = grid_counts[-1] if grid_counts else 1
    if nb == 2:
        return counts[0], counts[1], rows, cols
    return 1, (counts[0] if nb == 1 else 1), rows, cols


def _grid_size(t: dict) -> tuple[float, float]:
    """Width and height of a tensor's drawing, in cells."""
    if "counts" not in t:
        return 4.0, 3.0
    block_rows, block_cols, rows, cols = _grid_shape(t)
    return (block_cols * (cols + 1) - 1.0,
            block_rows * (rows + _BLOCK_GAP) - _BLOCK_GAP + (1.0 if t["dims"]["block"] else 0))


def _grid_cells(t: dict) -> list[tuple[tuple[int, ...], int, float, float, int]]:
    """``(index, flat, x, y, block)`` for every drawn cell.

    3-D: blocks side by side; 4-D: block rows down the first block dim (N of NCHW), blocks
    across the second (C); rows of each grid down, columns across.
    """
    dims = t["dims"]
    shown = dims["block"] + dims["grid"]
    counts, starts = t["counts"], t["starts"]
    nb = len(dims["block"])
    grid_counts = counts[nb:]
    _block_rows, _block_cols, rows, cols = _grid_shape(t)
    top = 1.0 if nb else 0.0  # the first block's label sits above its grid
    out = []
    flat = 0
    for b, block in enumerate(itertools.product(*[range(c) for c in counts[:nb]])):
        brow, bcol = (block[0], block[1]) if nb == 2 else (0, block[0]) if nb == 1 else (0, 0)
        x0 = bcol * (cols + 1)
        y0 = top + brow * (rows + _BLOCK_GAP)
        for r in range(rows):
            for c in range(cols):
                local = list(block) + ([r, c] if len(grid_counts) == 2 else [c] if grid_counts
                                       else [])
                index = [0] * len(t["shape"])
                for i, d in zip(t["select"], dims["select"]):
                    index[d] = i
                for k, d in enumerate(shown):
                    index[d] = starts[k] + local[k]
                out.append((tuple(index), flat, x0 + c, y0 + r, b))
                flat += 1
    return out


def plot(*tensors: Any, labels: Sequence[str] | None = None, strip_slots: int = 32,
         mapping: bool = True, figsize: tuple[float, float] | None = None):
    """Draw storage strip(s), logical grid(s) and the cell-to-slot mapping; returns a Figure.

    >>> fig = tensorviz.plot(a, a.t())          # one strip shared by both, two grids
    """
    import matplotlib.pyplot as plt

    if not tensors:
        raise TypeError("plot() needs at least one tensor, e.g. tensorviz.plot(t)")
    labels = list(labels) if labels is not None else [f"tensor {k}" for k in range(len(tensors))]
    scene = Scene(tensors, labels, strip_slots=strip_slots)
    strips, states = scene.last
    return draw(strips, states, scene.static, mapping=mapping, figsize=figsize,
                new_figure=plt.figure)


def draw(strips: list[dict], states: list[dict], static: dict, mapping: bool = True,
         figsize: tuple[float, float] | None = None, new_figure: Any = None):
    """The figure of a scene's state (what a widget draws now): ``plot`` and widget export.

    ``new_figure`` makes the figure (default ``matplotlib.figure.Figure``: not shown by
    pyplot, for saving).
    """
    from matplotlib.patches import ConnectionPatch, Rectangle

    if new_figure is None:
        from matplotlib.figure import Figure as new_figure

    n_strips = len(strips)
    strip_rows = [1.1 + 0.45 * len(s["tensors"]) for s in strips]
    sizes = [_grid_size(t) for t in states]
    widths = [max(w, 4.0) + 1.0 for w, _h in sizes]
    grid_h = 1.4 + _CELL_IN * max(max(h for _w, h in sizes), 3.0)
    widest = max((s["count"] for s in strips), default=8)
    if figsize is None:
        width = max(0.55 * widest + 2.5, _CELL_IN * sum(widths) + 0.8 * len(states))
        figsize = (max(6.0, min(width, 24.0)), 1.0 * sum(strip_rows) + grid_h + 0.6)
    fig = new_figure(figsize=figsize)
    heights = strip_rows + [grid_h]
    gs = fig.add_gridspec(n_strips + 1, max(len(states), 1), height_ratios=heights,
                          width_ratios=widths, hspace=0.5, wspace=0.35)

    strip_axes = []
    for k, s in enumerate(strips):
        ax = fig.add_subplot(gs[k, :])
        strip_axes.append(ax)
        ax.set_axis_off()
        count, start = s["count"], s["start"]
        values = static["strips"][k]
        users = s["tensors"]
        title = (f"storage #{k + 1}: {s['dtype']}, {s['size']} elements "
                 f"({s['nbytes']} bytes), {s['device']}")
        if count < s["size"]:
            title += f" - slots {start}..{start + count - 1} shown"
        if not s.get("alive", True):
            title += " - freed"
        ax.set_title(title, loc="left", fontsize=10)
        used = np.zeros(count, dtype=bool)
        for ti in users:
            fp = np.frombuffer(states[ti].get("footprint", b""), dtype="<u4")
            used[:fp.size] |= fp[:count] > 0
        for i in range(count):
            ax.add_patch(Rectangle((i, 0), 0.92, 0.9, facecolor="white" if used[i] else "#eeeeee",
                                   edgecolor="#555555" if used[i] else "#bbbbbb", linewidth=1))
            if values is not None and i < len(values):
                ax.text(i + 0.46, 0.45, format_value(values[i]), ha="center", va="center",
                        fontsize=8, family="monospace",
                        color="#111111" if used[i] else "#888888")
            ax.text(i + 0.46, 1.05, str(start + i), ha="center", va="bottom", fontsize=7,
                    color="#666666")
        for row, ti in enumerate(users, start=1):
            t = states[ti]
            color = _COLORS[t.get("color", 0) % len(_COLORS)]
            fp = np.frombuffer(t.get("footprint", b""), dtype="<u4")
            y = -0.45 * row
            ax.text(-0.3, y + 0.2, f"{t.get('tag', '')} {t.get('label', '')}", ha="right",
                    va="center", fontsize=8, color=color, family="monospace")
            for i in range(min(count, fp.size)):
                if fp[i]:
                    is_offset = start + i == t.get("offset") and t.get("numel")
                    mark = ("▲" if is_offset else "●") + (f"×{fp[i]}" if fp[i] > 1 else "")
                    ax.text(i + 0.46, y + 0.2, mark, ha="center", va="center", fontsize=8,
                            color=color)
        ax.set_xlim(-0.2 - 0.12 * max(len(st.get("label", "")) for st in states) - 0.6,
                    max(widest, 1) + 0.2)  # the same slot width on every strip
        ax.set_ylim(-0.45 * len(users) - 0.1, 1.5)

    for j, t in enumerate(states):
        ax = fig.add_subplot(gs[n_strips, j])
        ax.set_axis_off()
        color = _COLORS[t.get("color", 0) % len(_COLORS)]
        if "shape" not in t:
            ax.set_title(f"{t.get('label', '')}: freed", fontsize=9)
            continue
        head = (f"{t['tag']} {t['label']}\nshape {tuple_text(t['shape'])} "
                f"stride {tuple_text(t['stride'])} offset {t['offset']}")
        ax.set_title(head, loc="left", fontsize=8, color=color, family="monospace", pad=12)
        values = static["tensors"][j]
        if not t["numel"] or values is None:
            ax.text(0.5, 0.5, "no elements" if not t["numel"] else "values unavailable",
                    ha="center", va="center", transform=ax.transAxes, fontsize=9)
            continue
        cells = _grid_cells(t)
        strip = strips[t["strip"]]
        strip_ax = strip_axes[t["strip"]]
        max_x = max(c[2] for c in cells) + 1
        max_y = max(c[3] for c in cells) + 1
        nb = len(t["dims"]["block"])
        labelled = set()
        for index, flat, x, y, b in cells:
            if nb and b not in labelled:
                labelled.add(b)
                lead = ", ".join(str(i) for i in index[:len(t["dims"]["select"]) + nb])
                ax.text(x, -y + 1.0, f"[{lead}, ...]", fontsize=7, color="#555555",
                        family="monospace", va="bottom")
            addr = t["offset"] + sum(i * st for i, st in zip(index, t["stride"]))
            ax.add_patch(Rectangle((x, -y), 0.92, 0.9, facecolor=color, alpha=0.15,
                                   edgecolor=color, linewidth=1))
            ax.text(x + 0.46, -y + 0.52, format_value(values[flat]), ha="center",
                    va="center", fontsize=8, family="monospace")
            ax.text(x + 0.88, -y + 0.1, f"@{addr}", ha="right", va="bottom", fontsize=6,
                    color="#555555")
            if mapping and len(cells) <= _MAX_LINES and \
                    strip["start"] <= addr < strip["start"] + strip["count"]:
                fig.add_artist(ConnectionPatch(
                    xyA=(x + 0.46, -y + 0.9), coordsA="data", axesA=ax,
                    xyB=(addr - strip["start"] + 0.46, 0.0), coordsB="data", axesB=strip_ax,
                    color=color, alpha=0.3, linewidth=0.8))
        ax.set_xlim(-0.2, max(max_x, 4) + 0.2)
        ax.set_ylim(-max(max_y, 3) + 0.8, 1.1)
        ax.set_aspect("equal", adjustable="box")
    return fig
