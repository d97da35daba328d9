"""The README's first example gives the answers its comments state, in tensorviz AND PyTorch.

Each line whose comment starts with a Python literal (``# True: ...``, ``# ((1, 3), False)``)
is evaluated and compared with that literal, once with ``torch`` bound to tensorviz and once
to PyTorch (lines that draw widgets are run only for tensorviz).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def _first_example() -> list[str]:
    text = README.read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    return block.splitlines()


def _claims(lines):
    for line in lines:
        code, _, comment = line.partition("#")
        literal = re.match(r"\s*(\(.*?\)|True|False|-?\d+)(?=[:\s]|$)", comment)
        yield code.strip(), literal.group(1) if literal else None


def _run(lib, widgets: bool) -> list[tuple[str, object, object]]:
    ns: dict = {"torch": lib}
    checked = []
    for code, literal in _claims(_first_example()):
        if not code or code.startswith("import "):
            continue
        if not widgets and (".show(" in code):
            continue
        if literal is None:
            exec(code, ns)
            continue
        got = eval(code, ns)
        checked.append((code, got, ast.literal_eval(literal)))
    return checked


def test_readme_example_claims_hold_in_tensorviz():
    pytest.importorskip("anywidget")
    import tensorviz

    checked = _run(tensorviz, widgets=True)
    assert len(checked) >= 2
    for code, got, want in checked:
        assert got == want, code


def test_readme_example_claims_hold_in_pytorch():
    torch = pytest.importorskip("torch")
    for code, got, want in _run(torch, widgets=False):
        assert got == want, code
