"""Rewrite tests/ops/inventory_known.py from a fresh run of the inventory test.

Run from the repository root after fixing divergences (or adding ops)::

    PYTHONPATH=. python -W ignore tests/ops/inventory_known_regen.py

Every (op, spelling) that differs from PyTorch gets a line: what differs first, by kind, with
one sample each, and the "dtype/layout" cases where it differs.  ``NOTES`` adds what a reader
should know beyond the generated text (for instance where PyTorch, not tensorviz, is wrong).
"""
from __future__ import annotations

import os
import re
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

#: Remarks appended to generated reasons, by (op, spelling); "*" matches every spelling.
NOTES = {
    ("median", "*"): "the expand-layout values are PyTorch's bug: torch.median(torch.tensor("
                     "[[3., 1, 2, 5]]).expand(3, 4), 0) gives [2, 2, 5, 5]; tensorviz gives "
                     "the right [3, 1, 2, 5]",
    ("nanmedian", "*"): "the expand-layout values are PyTorch's bug (see median)",
}


def _short(s: str, n: int) -> str:
    s = s.replace("\n", " ").strip()
    return s if len(s) <= n else s[:n - 3] + "..."


def describe(line: str) -> tuple[str, str]:
    """(kind, text) of one failure line of ``test_inventory.failures``."""
    body = line.split(">", 1)[1]
    m = re.match(r"^ out=(\w+)", body)
    prefix = f"out= ({m.group(1)} out): " if m and m.group(1) in ("cast", "empty") else ""
    body = re.sub(r"^ out=\w+", "", body)[2:]
    for kind, pattern, text in (
            ("message", r"messages differ: tensorviz (.*), PyTorch (.*)$",
             "message differs: tensorviz {0} vs PyTorch {1}"),
            ("class", r"tensorviz raised (.*), PyTorch (.*)$",
             "tensorviz raises {0} where PyTorch raises {1}"),
            ("tv-raises", r"PyTorch succeeded but tensorviz raised (.*)$",
             "tensorviz refuses with {0}; PyTorch accepts"),
            ("tv-succeeds", r"tensorviz succeeded but PyTorch raised (.*)$",
             "PyTorch refuses with {0}; tensorviz accepts")):
        mm = re.match(pattern, body, re.S)
        if mm:
            return kind, prefix + text.format(*(_short(g, 100) for g in mm.groups()))
    if re.search("Not equal|not equal|location mismatch", body):
        where = [x for x in body.split("\n") if x.startswith(("result", "input"))]
        return "values", prefix + f"values differ ({where[0] if where else 'result'})"
    return "other", prefix + _short(body, 140)


def main() -> None:
    from tests.ops import test_inventory as T
    entries = {}
    for p in T.PARAMS:
        name, spelling = p.values
        _, found = T.failures(name, spelling)
        if not found:
            continue
        kinds: dict = {}
        for _, line in found:
            kind, text = describe(line)
            sample = re.search(r"<sample ([^>]*)>", line).group(1)
            kinds.setdefault(kind, f"{text} [{sample}]")
        reason = "; ".join(kinds.values())
        note = NOTES.get((name, spelling)) or NOTES.get((name, "*"))
        if note:
            reason += f" (Note: {note})"
        entries[(name, spelling)] = (reason, sorted({where for where, _ in found}))
    out = [__doc_known__, "from __future__ import annotations", "",
           "KNOWN: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = {"]
    for (name, spelling), (reason, cases) in entries.items():
        out.append(f"    ({name!r}, {spelling!r}): (")
        chunks = textwrap.wrap(reason, 84, drop_whitespace=False, break_on_hyphens=False)
        out += [f"        {c!r}" for c in chunks[:-1]] + [f"        {chunks[-1]!r},"]
        line = "        (" + ", ".join(repr(c) for c in cases) + ",)),"
        if len(line) <= 99:
            out.append(line)
        else:
            out.append("        (")
            out += ["          " + w.strip() for w in textwrap.wrap(
                " ".join(repr(c) + "," for c in cases), 88)]
            out.append("        )),")
    out.append("}")
    path = os.path.join(ROOT, "tests", "ops", "inventory_known.py")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"{len(entries)} known divergences written to {path}")


__doc_known__ = '''"""Known divergences of tensorviz from PyTorch found by tests/ops/test_inventory.py.

``KNOWN[(op, spelling)] = (reason, cases)``: the item is marked ``xfail(strict=True)`` and
must fail in exactly these ``"dtype/layout"`` cases (``fnmatch`` patterns), in no others.
Each reason says what differs first, by kind, with a sample (``op#index dtype layout``:
rebuild it with ``tests.inventory.samples(op, dtype, layout)``).  When a fix lands, the
item passes, its strict xfail fails, and its line here goes: rewrite this file with
``PYTHONPATH=. python -W ignore tests/ops/inventory_known_regen.py``.
"""'''

if __name__ == "__main__":
    main()
