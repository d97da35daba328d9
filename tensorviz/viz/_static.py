"""Static renderings for places with no live kernel: an HTML snapshot and a text summary.

The HTML goes into the widget's mimebundle next to the widget view, so nbconvert, nbviewer
and GitHub show the storage strip, footprints and grids without JavaScript.  Every string is
passed through :func:`html.escape`.
"""
from __future__ import annotations

import html
import itertools
from typing import Any, Sequence

import numpy as np

__all__ = ["snapshot_html", "summary_text", "format_value", "tuple_text"]

# The snapshot is saved in the notebook with every output, so it draws a smaller window than
# the live widget: at most this many storage slots per strip and cells per grid.
STATIC_SLOTS = 32
STATIC_ROWS = 8
STATIC_COLS = 8
STATIC_BLOCKS = 4

_COLORS = ["#2f7fd0", "#e0663a", "#1a9e77", "#c466a8", "#d49a1a", "#3aa6c9", "#8a6fd1",
           "#7a9a2a"]


def tuple_text(values: Sequence[int]) -> str:
    """``(3, 4)``, ``(4,)``, ``()``: Python's own tuple spelling."""
    values = list(values)
    return "(" + ", ".join(map(str, values)) + ("," if len(values) == 1 else "") + ")"


def _bytes(n: Any) -> str:
    return f"{n} byte{'' if n == 1 else 's'}"


def format_value(v: Any) -> str:
    """A short cell text in PyTorch's print style: ``3.``, ``0.5000``, ``True``, ``1+2j``."""
    if isinstance(v, (bool, np.bool_)):
        return "True" if v else "False"
    if isinstance(v, (np.integer, int)):
        return str(int(v))
    if isinstance(v, (np.complexfloating, complex)):
        re, im = format_value(float(v.real)), format_value(abs(float(v.imag)))
        return f"{re}{'-' if v.imag < 0 else '+'}{im}j"
    f = float(v)
    if f != f:
        return "nan"
    if f in (float("inf"), float("-inf")):
        return "inf" if f > 0 else "-inf"
    if f == int(f) and abs(f) < 1e6:
        return f"{int(f)}."
    if 1e-3 <= abs(f) < 1e5:
        return f"{f:.4g}"
    return f"{f:.2e}"


def _gone(state: dict) -> str:
    """'' while alive; a temporary (freed in the cell that drew it) is a snapshot, else freed."""
    if state.get("alive", True):
        return ""
    return " (snapshot)" if state.get("temporary") else " (freed)"


def summary_text(name: str, tensors: list[dict], status: str) -> str:
    parts = []
    for t in tensors:
        if "shape" not in t:
            parts.append(f"{t.get('label', '?')}: freed")
            continue
        parts.append(f"{t['label']}: shape {tuple_text(t['shape'])}, stride "
                     f"{tuple_text(t['stride'])}, offset {t['offset']}, {t['dtype']}, "
                     f"{t['device']}{_gone(t)}")
    text = f"{name}(" + "; ".join(parts) + ")"
    return text + (f"\n{status}" if status else "")


_STYLE = """<style>
.tv-static{font-family:var(--jp-ui-font-family,system-ui,sans-serif);font-size:12px;
color:var(--jp-ui-font-color1,#222)}
.tv-static table{border-collapse:collapse;margin:4px 0 10px 0}
.tv-static td,.tv-static th{border:1px solid var(--jp-border-color2,#ccc);padding:2px 5px;
text-align:center;font-family:var(--jp-code-font-family,monospace)}
.tv-static th{font-weight:normal;color:var(--jp-ui-font-color2,#666)}
.tv-static .tv-s-dim{opacity:.45}
.tv-static .tv-s-tensor{display:inline-block;vertical-align:top;margin:0 20px 8px 0;max-width:32em}
.tv-static .tv-s-block{display:inline-block;vertical-align:top;margin-right:12px}
.tv-static .tv-s-meta{color:var(--jp-ui-font-color2,#555)}.tv-static .tv-s-addr{font-size:9px;
color:var(--jp-ui-font-color2,#777)}
</style>"""


def _cell(value_text: str, addr: int | None = None, dim: bool = False, color: str = "") -> str:
    style = f' style="box-shadow:inset 0 -3px 0 {color}"' if color else ""
    cls = ' class="tv-s-dim"' if dim else ""
    addr_html = f'<div class="tv-s-addr">@{addr}</div>' if addr is not None else ""
    return f"<td{cls}{style}>{html.escape(value_text)}{addr_html}</td>"


def _strip_html(k: int, strip: dict, values, tensors: list[dict]) -> str:
    esc = html.escape
    start = strip.get("start", 0)
    count = min(strip.get("count", 0), STATIC_SLOTS)
    head = (f"<div><b>storage #{k + 1}</b> · {esc(str(strip.get('dtype')))} · "
            f"{strip.get('size')} elements ({_bytes(strip.get('nbytes'))}) · "
            f"{esc(str(strip.get('device')))}")
    if count < strip.get("size", 0):
        head += f" · showing slots {start}–{start + count - 1}"
    if not strip.get("alive", True):
        head += " · snapshot" if strip.get("temporary") else " · freed"
    head += "</div>"
    rows = ["<tr><th>slot</th>" + "".join(f"<th>{start + i}</th>" for i in range(count))
            + "</tr>"]
    if values is not None:
        rows.append("<tr><th>value</th>" + "".join(
            _cell(format_value(v)) for v in values[:count]) + "</tr>")
    for ti in strip.get("tensors", []):
        t = tensors[ti]
        fp = np.frombuffer(t.get("footprint", b""), dtype="<u4")
        color = _COLORS[t.get("color", 0) % len(_COLORS)]
        cells = []
        for i in range(count):
            n = int(fp[i]) if i < fp.size else 0
            mark = ("▲" if start + i == t.get("offset") and t.get("numel") else "●") if n else ""
            if n > 1:
                mark += f"×{n}"
            cells.append(f"<td>{mark}</td>")
        rows.append(f'<tr style="color:{color}"><th>{esc(t.get("tag", ""))} '
                    f'{esc(t.get("label", ""))}</th>' + "".join(cells) + "</tr>")
    return head + "<table>" + "".join(rows) + "</table>"


def _tensor_html(t: dict, values) -> str:
    esc = html.escape
    if "shape" not in t:
        return f"<div><b>{esc(t.get('label', ''))}</b>: freed before it was drawn</div>"
    meta = (f"shape {tuple_text(t['shape'])} · stride {tuple_text(t['stride'])} · "
            f"storage_offset {t['offset']} · {t['dtype']} ({_bytes(t['itemsize'])}) · "
            f"{t['device']} · numel {t['numel']} of {t['storage_size']} in storage · "
            f"{t['reason']}")
    color = _COLORS[t.get("color", 0) % len(_COLORS)]
    out = [f'<div style="margin-top:6px"><b style="color:{color}">{esc(t.get("tag", ""))} '
           f'{esc(t["label"])}</b>{_gone(t)}</div>',
           f'<div class="tv-s-meta">{esc(meta)}</div>']
    if not t["numel"]:
        out.append("<div>empty: no elements</div>")
        return "".join(out)
    if values is None:
        out.append("<div>values unavailable</div>")
        return "".join(out)
    counts = t["counts"]
    dims = t["dims"]
    shown = dims["block"] + dims["grid"]
    starts = t["starts"]
    stride = t["stride"]
    base = t["offset"] + sum(i * stride[d] for i, d in zip(t["select"], dims["select"]))
    vals = np.asarray(values).reshape(counts) if counts else np.asarray(values).reshape(())
    n_block = len(dims["block"])
    block_counts = counts[:n_block]
    grid_counts = counts[n_block:] or []
    rows = min(grid_counts[0], STATIC_ROWS) if len(grid_counts) == 2 else 1
    cols = min(grid_counts[-1], STATIC_COLS) if grid_counts else 1
    blocks = list(itertools.islice(itertools.product(*[range(c) for c in block_counts]),
                                   STATIC_BLOCKS))
    cut = (len(blocks) < int(np.prod(block_counts)) or
           (len(grid_counts) == 2 and rows < grid_counts[0]) or
           (grid_counts and cols < grid_counts[-1]))
    for block in blocks:
        idx_prefix = [starts[k] + block[k] for k in range(n_block)]
        out.append('<div class="tv-s-block">')
        if n_block:
            label = ", ".join(map(str, t["select"] + idx_prefix)) + ", :" * len(grid_counts)
            out.append(f"<div>[{esc(label)}]</div>")
        table = ["<table>"]
        for r in range(rows):
            table.append("<tr>")
            for c in range(cols):
                local = list(block)
                if len(grid_counts) == 2:
                    local += [r, c]
                elif grid_counts:
                    local += [c]
                index = [starts[k] + local[k] for k in range(len(local))]
                addr = base + sum(i * stride[d] for i, d in zip(index, shown))
                table.append(_cell(format_value(vals[tuple(local)]), addr))
            table.append("</tr>")
        table.append("</table>")
        out.append("".join(table) + "</div>")
    if cut or any(c < t["shape"][d] for c, d in zip(counts, shown)) or \
            any(t["shape"][d] > 1 for d in dims["select"]):  # one index of each leading dim
        out.append("<div>(a window of the values; run the notebook to scroll)</div>")
    return "".join(out)


def snapshot_html(strips: list[dict], tensors: list[dict], static: dict, status: str) -> str:
    """The whole widget as static HTML, every string escaped."""
    parts = ['<div class="tv-static">', _STYLE,
             "<div><i>tensorviz snapshot (static; run the notebook for the live, "
             "interactive widget)</i></div>"]
    if status:
        parts.append(f"<div><b>{html.escape(status)}</b></div>")
    strip_values = static.get("strips", [])
    tensor_values = static.get("tensors", [])
    for k, strip in enumerate(strips):
        parts.append(_strip_html(k, strip, strip_values[k] if k < len(strip_values) else None,
                                 tensors))
    for k, t in enumerate(tensors):
        parts.append('<div class="tv-s-tensor">')
        parts.append(_tensor_html(t, tensor_values[k] if k < len(tensor_values) else None))
        parts.append("</div>")
    parts.append("</div>")
    return "".join(parts)
