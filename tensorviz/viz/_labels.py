"""Labels for the drawn tensors, taken from the learner's own code where possible.

``tensorviz.show(a, a.t(), a[1:, ::2])`` labels its tensors ``a``, ``a.t()`` and
``a[1:, ::2]``: the argument expressions of the calling line, found through the call's source
position (Python 3.11+) and ``ast``.  Failing that, a variable name bound to the object, and
failing that ``tensor 0``, ``tensor 1``...  Labels are only ever rendered as text.
"""
from __future__ import annotations

import ast
import inspect
import linecache
import sys
import textwrap
from types import FrameType
from typing import Any, Sequence

__all__ = ["call_labels"]

_MAX_LABEL = 60


def _user_frame() -> FrameType | None:
    """The innermost frame outside the tensorviz package: the learner's call."""
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if not (name == "tensorviz" or name.startswith("tensorviz.")):
            return frame
        frame = frame.f_back
    return None


def _call_source(frame: FrameType) -> str | None:
    """The source text of the call the frame is executing (None if unknown)."""
    code = frame.f_code
    lines = linecache.getlines(code.co_filename, frame.f_globals)
    if not lines:
        return None
    positions = getattr(code, "co_positions", None)
    if positions is not None:
        try:
            pos = list(positions())[frame.f_lasti // 2]
        except (IndexError, ValueError):
            pos = None
        if pos and None not in pos:
            start, end, col, end_col = pos
            chunk = lines[start - 1:end]
            if not chunk:
                return None
            if len(chunk) == 1:
                return chunk[0][col:end_col]
            chunk = [chunk[0][col:]] + chunk[1:-1] + [chunk[-1][:end_col]]
            return "".join(chunk)
    line = lines[frame.f_lineno - 1] if frame.f_lineno <= len(lines) else ""
    return line.strip()


def _find_call(tree: ast.AST, func_names: Sequence[str]) -> ast.Call | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if name in func_names:
                return node
    return None


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _MAX_LABEL else text[:_MAX_LABEL - 1] + "…"


def call_labels(objects: Sequence[Any], func_names: Sequence[str] = ("show",)) -> list[str]:
    """Labels for ``objects`` as the learner wrote them in the call to ``func_names``.

    ``show(a, a.t())`` gives the argument expressions; the method form ``a.t().show()``
    (no arguments) gives its receiver.
    """
    labels: list[str | None] = [None] * len(objects)
    frame = _user_frame()
    try:
        if frame is not None:
            source = _call_source(frame)
            if source:
                try:
                    tree = ast.parse(textwrap.dedent(source).strip(), mode="eval")
                except SyntaxError:
                    tree = None
                call = _find_call(tree, func_names) if tree is not None else None
                if call is not None:
                    if not call.args and isinstance(call.func, ast.Attribute) \
                            and len(objects) == 1:
                        labels[0] = ast.unparse(call.func.value)
                    elif len(call.args) == len(objects) and not any(
                            isinstance(a, ast.Starred) for a in call.args):
                        labels = [ast.unparse(a) for a in call.args]
            names = dict(frame.f_globals)
            if not frame.f_code.co_flags & inspect.CO_OPTIMIZED:
                # module level (a notebook cell): f_locals is the namespace itself.  In a
                # function, reading f_locals would cache a snapshot on the frame (Python <
                # 3.13) that keeps the learner's tensors alive after `del`.
                names.update(frame.f_locals)
            for k, obj in enumerate(objects):
                if labels[k] is None:
                    labels[k] = next((n for n, v in names.items()
                                      if v is obj and not n.startswith("_")), None)
    finally:
        del frame
    return [_shorten(lab) if lab else f"tensor {k}" for k, lab in enumerate(labels)]
