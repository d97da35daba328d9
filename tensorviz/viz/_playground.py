"""The playground: apply view and copy ops step by step and watch the layouts change.

What the learner types is *parsed* into one of a fixed set of operations with integer
arguments (never ``eval``'d), then the tensor's own method is called, so errors are the
engine's (PyTorch's) errors, shown in the widget::

    parse_args("transpose", "0, 1")          -> ((0, 1), {})
    parse_args("index", "1:, ::2")           -> ((slice(1, None), slice(None, None, 2)), {})
    parse_args("flatten", "start_dim=1")     -> ((), {"start_dim": 1})
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import traitlets

from ._labels import call_labels
from ._scene import MAX_TENSORS
from ._widgets import TensorView

__all__ = ["Playground", "OPS", "parse_args", "op_code", "PlaygroundInputError"]

_MAX_INPUT = 200
_MAX_INT = 2 ** 63 - 1


class PlaygroundInputError(ValueError):
    """The typed arguments could not be read (before the tensor is ever touched)."""


@dataclass(frozen=True)
class Op:
    name: str
    hint: str  # placeholder text: what to type
    params: tuple[str, ...] = ()  # named parameters, in order
    variadic: bool = False  # takes any number of ints (or one tuple of them)
    required: int = 0  # how many params must be given
    description: str = ""


OPS: dict[str, Op] = {op.name: op for op in [
    Op("transpose", "dim0, dim1   e.g. 0, 1", ("dim0", "dim1"), required=2,
       description="swap two dims: only their sizes and strides trade places"),
    Op("t", "", description="transpose a matrix (2-D): swap dims 0 and 1"),
    Op("permute", "dims   e.g. 2, 0, 1", ("dims",), variadic=True, required=1,
       description="reorder all dims"),
    Op("index", "a key   e.g. 1:, ::2   or   0, ..., None", description=(
        "basic indexing: ints select, slices (with steps) narrow and stride, None inserts a dim")),
    Op("select", "dim, index   e.g. 0, 1", ("dim", "index"), required=2,
       description="pick one index of a dim and drop the dim"),
    Op("narrow", "dim, start, length   e.g. 1, 1, 2", ("dim", "start", "length"), required=3,
       description="keep `length` indices of a dim from `start`"),
    Op("expand", "sizes   e.g. 3, -1, 4", ("sizes",), variadic=True, required=1,
       description="broadcast size-1 dims with stride 0 (no copy)"),
    Op("unsqueeze", "dim   e.g. 0", ("dim",), required=1, description="insert a size-1 dim"),
    Op("squeeze", "dim (optional)", ("dim",), required=0, description="drop size-1 dims"),
    Op("view", "shape   e.g. 2, -1", ("shape",), variadic=True, required=1,
       description="same storage, new shape: fails when strides cannot express it"),
    Op("reshape", "shape   e.g. 2, -1", ("shape",), variadic=True, required=1,
       description="a view when possible, else a copy"),
    Op("flatten", "start_dim, end_dim (optional)", ("start_dim", "end_dim"), required=0,
       description="merge dims into one: a view when possible, else a copy"),
    Op("contiguous", "", description="row-major copy, unless already contiguous"),
    Op("clone", "", description="always a copy with its own storage"),
    Op("flip", "dims   e.g. 0", ("dims",), variadic=True, required=1,
       description="reverse dims: PyTorch has no negative strides, so this copies"),
]}

_TOKEN = re.compile(r"\s*(?:(?P<int>[-+]?\d+)|(?P<ellipsis>\.\.\.)|(?P<none>None)\b|"
                    r"(?P<kw>[A-Za-z_]\w*)\s*=(?!=)|(?P<punct>[:,()\[\]]))")


def _tokens(text: str) -> list[tuple[str, Any]]:
    if len(text) > _MAX_INPUT:
        raise PlaygroundInputError(f"input is too long ({len(text)} characters; at most "
                                   f"{_MAX_INPUT})")
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            bad = text[pos:].strip()[:20]
            raise PlaygroundInputError(
                f"cannot read {bad!r}: type integers, slices like 1:3 or ::2, None or ...")
        kind = m.lastgroup
        value: Any = m.group(kind)
        if kind == "int":
            value = int(value)
            if abs(value) > _MAX_INT:
                raise PlaygroundInputError(f"{value} does not fit in int64")
        out.append((kind, value))
        pos = m.end()
    return out


def _parse_key(tokens: list[tuple[str, Any]]) -> tuple:
    """An indexing key: items separated by commas, each an int, a slice, None or ``...``."""
    if tokens and tokens[0] == ("punct", "[") and tokens[-1] == ("punct", "]"):
        tokens = tokens[1:-1]
    items: list[list[tuple[str, Any]]] = [[]]
    for tok in tokens:
        if tok == ("punct", ","):
            items.append([])
        else:
            items[-1].append(tok)
    if items == [[]]:
        raise PlaygroundInputError("type an index, e.g. 1:, ::2")
    key = []
    for item in items:
        if not item:
            raise PlaygroundInputError("empty item between commas")
        kinds = [k for k, _ in item]
        if item == [("ellipsis", "...")]:
            key.append(Ellipsis)
        elif item == [("none", "None")]:
            key.append(None)
        elif kinds == ["int"]:
            key.append(item[0][1])
        elif all(k == "int" or tok == ("punct", ":") for tok, k in zip(item, kinds)):
            parts: list[Any] = [None]
            colons = 0
            for k, v in item:
                if k == "punct":
                    colons += 1
                    parts.append(None)
                elif parts[-1] is not None:
                    raise PlaygroundInputError("two numbers in a row: separate them with : or ,")
                else:
                    parts[-1] = v
            if colons > 2:
                raise PlaygroundInputError("a slice has at most two colons: start:stop:step")
            key.append(slice(*(parts + [None] * (3 - len(parts)))))
        else:
            raise PlaygroundInputError(
                "an index item is an int, a slice like 1:3 or ::2, None or ...")
    return tuple(key)


def parse_args(op_name: str, text: str) -> tuple[tuple, dict]:
    """Read the typed arguments of ``op_name`` into ``(args, kwargs)`` of plain ints.

    Raises :class:`PlaygroundInputError` for anything that is not one of the shapes above.
    """
    op = OPS.get(op_name)
    if op is None:
        raise PlaygroundInputError(f"unknown operation {op_name!r}; choose one of "
                                   f"{', '.join(OPS)}")
    tokens = _tokens(text or "")
    if op.name == "index":
        return (_parse_key(tokens),), {}
    # strip one pair of enclosing brackets: "(1, 0)" / "[1, 0]" read like "1, 0"
    if len(tokens) >= 2 and tokens[0] in (("punct", "("), ("punct", "[")) and \
            tokens[-1] == ("punct", {"(": ")", "[": "]"}[tokens[0][1]]):
        tokens = tokens[1:-1]
    args: list[int] = []
    kwargs: dict[str, int] = {}
    expect_value = True
    pending_kw = None
    for kind, value in tokens:
        if kind == "punct" and value == ",":
            if expect_value:
                raise PlaygroundInputError("missing a number before ','")
            expect_value = True
            continue
        if not expect_value:
            raise PlaygroundInputError("separate the numbers with commas")
        if kind == "kw":
            if pending_kw is not None:
                raise PlaygroundInputError(f"missing a value for {pending_kw}=")
            if value not in op.params or op.variadic:
                raise PlaygroundInputError(f"{op.name}() has no argument named {value!r}")
            pending_kw = value
            continue
        if kind != "int":
            raise PlaygroundInputError(f"{op.name}() takes integers, got {value!r}")
        if pending_kw is not None:
            kwargs[pending_kw] = value
            pending_kw = None
        elif kwargs:
            raise PlaygroundInputError("positional argument after a keyword argument")
        else:
            args.append(value)
        expect_value = False
    if pending_kw is not None:
        raise PlaygroundInputError(f"missing a value for {pending_kw}=")
    if tokens and expect_value:
        raise PlaygroundInputError("a trailing comma needs a number after it")
    given = len(args) + len(kwargs)
    if not op.variadic and given > len(op.params):
        raise PlaygroundInputError(f"{op.name}() takes at most {len(op.params)} arguments "
                                   f"({', '.join(op.params) or 'none'}), got {given}")
    if given < op.required:
        raise PlaygroundInputError(f"{op.name}() needs {op.hint.split('  ')[0].strip()}")
    return tuple(args), kwargs


def _key_text(key: tuple) -> str:
    parts = []
    for k in key:
        if k is Ellipsis:
            parts.append("...")
        elif k is None:
            parts.append("None")
        elif isinstance(k, slice):
            s = ("" if k.start is None else str(k.start)) + ":" + \
                ("" if k.stop is None else str(k.stop))
            if k.step is not None:
                s += f":{k.step}"
            parts.append(s)
        else:
            parts.append(str(k))
    return "[" + ", ".join(parts) + "]"


def op_code(op_name: str, args: tuple, kwargs: dict) -> str:
    """The Python for one step, rebuilt from the parsed values: ``.transpose(0, 1)``."""
    if op_name == "index":
        return _key_text(args[0])
    inner = ", ".join([str(a) for a in args] + [f"{k}={v}" for k, v in kwargs.items()])
    return f".{op_name}({inner})"


def _call(tensor: Any, op_name: str, args: tuple, kwargs: dict) -> Any:
    if op_name == "index":
        return tensor[args[0]]
    return getattr(tensor, op_name)(*args, **kwargs)


@dataclass
class _Step:
    op: str
    args: tuple
    kwargs: dict
    code: str
    copied: bool


class Playground(TensorView):
    """Apply transpose, slicing, view, reshape... to a tensor and see every layout in the chain.

    >>> p = Playground(a)
    >>> p.apply("transpose", "0, 1"); p.apply("index", "1:, ::2"); p.apply("contiguous")
    """

    kind = traitlets.Unicode("playground").tag(sync=True)
    ops = traitlets.List(traitlets.Dict()).tag(sync=True)
    steps = traitlets.List(traitlets.Dict()).tag(sync=True)
    code = traitlets.Unicode("").tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)

    def __init__(self, tensor: Any, label: str | None = None, **kwargs: Any):
        if isinstance(tensor, np.ndarray):
            raise TypeError("playground() applies PyTorch's view ops; pass a tensor, e.g. "
                            "tensorviz.from_numpy(array)")
        self._root_label = label or call_labels([tensor], ("playground", "Playground"))[0]
        self._steps: list[_Step] = []
        self._owned: dict[int, Any] = {}  # copies the playground made: their storage is ours
        # Note: unlike show(), a playground owns the tensor it was given (it applies ops to
        # it), so playground(arange(24).reshape(2, 3, 4)) works on a temporary too.
        self._root_tensor = tensor
        super().__init__(tensor, labels=[self._root_label], **kwargs)
        self.ops = [{"name": op.name, "hint": op.hint, "takes_args": bool(op.params) or
                     op.name == "index", "description": op.description} for op in OPS.values()]
        self._sync_steps()

    # ------------------------------------------------------------------ public API
    def apply(self, op: str, args: str = "") -> Any:
        """Parse ``args`` for ``op`` and apply it to the last result; errors go to ``error``.

        Returns the new tensor, or None when the input or the op failed.
        """
        self.error = ""
        try:
            parsed, kw = parse_args(op, args)
        except PlaygroundInputError as exc:
            self.error = f"{exc}"
            return None
        if len(self._steps) + 1 >= MAX_TENSORS:
            self.error = (f"the playground keeps {MAX_TENSORS - 1} steps; undo or reset to "
                          "go on")
            return None
        current = self._tensor_at(len(self._steps))
        try:
            result = _call(current, op, parsed, kw)
        except Exception as exc:  # the engine's own message, shown to the learner
            self.error = f"{type(exc).__name__}: {exc}"
            return None
        copied = _memory(result) is not _memory(current)
        code = op_code(op, parsed, kw)
        self._steps.append(_Step(op, parsed, kw, code, copied))
        if copied:
            self._owned[len(self._steps)] = result  # a copy the playground made
        self._scene.add(result, self._expression(len(self._steps)))
        self.refresh()
        self._sync_steps()
        return result

    def undo(self) -> None:
        """Drop the last step."""
        if self._steps:
            self._owned.pop(len(self._steps), None)
            self._steps.pop()
            self._scene.pop()
            self.error = ""
            self.refresh()
            self._sync_steps()

    def reset(self) -> None:
        """Back to the original tensor."""
        while self._steps:
            self._owned.pop(len(self._steps), None)
            self._steps.pop()
            self._scene.pop()
        self.error = ""
        self.refresh()
        self._sync_steps()

    # ------------------------------------------------------------------ internals
    def _tensor_at(self, i: int) -> Any:
        """The tensor after ``i`` steps: owned copies directly, views replayed (O(1) each)."""
        if i == 0:
            return self._root_tensor
        if i in self._owned:
            return self._owned[i]
        prev = self._tensor_at(i - 1)
        if prev is None:
            return None
        step = self._steps[i - 1]
        return _call(prev, step.op, step.args, step.kwargs)

    def _expression(self, i: int) -> str:
        return self._root_label + "".join(s.code for s in self._steps[:i])

    def to_html(self) -> str:
        """The static snapshot, with the chain of steps as Python (what nbconvert shows)."""
        code = (f'<pre style="margin:4px 0">{html.escape(self.code)}</pre>'
                if self._steps else "")
        return code + super().to_html()

    def _sync_steps(self) -> None:
        steps = []
        lines = [f"x0 = {self._root_label}"]
        for k, step in enumerate(self._steps, start=1):
            note = "copy: new storage" if step.copied else "view: same storage"
            steps.append({"op": step.op, "code": step.code, "copied": step.copied,
                          "expression": self._expression(k)})
            lines.append(f"x{k} = x{k - 1}{step.code}".ljust(32) + f"  # {note}")
        self.steps = steps
        self.code = "\n".join(lines)

    def _handle_other(self, kind: Any, content: dict) -> None:
        if kind == "apply":
            op, args = content.get("op"), content.get("args", "")
            if isinstance(op, str) and isinstance(args, str):
                self.apply(op, args)
        elif kind == "undo":
            self.undo()
        elif kind == "reset":
            self.reset()


def _memory(t: Any) -> Any:
    return t.untyped_storage() if hasattr(t, "untyped_storage") else t
