"""The playground: typed input parsed into a fixed set of ops, never evaluated."""
from __future__ import annotations

import gc

import numpy as np
import pytest

pytest.importorskip("anywidget", reason="the widget tests need anywidget (pip install "
                    "'tensorviz[widgets]')")

import tensorviz
from tensorviz.viz import Playground, playground
from tensorviz.viz._playground import OPS, PlaygroundInputError, op_code, parse_args

from vizhelpers import from_front_end


@pytest.mark.parametrize("op,text,args,kwargs", [
    ("transpose", "0, 1", (0, 1), {}),
    ("transpose", " -1 ,0 ", (-1, 0), {}),
    ("permute", "(2, 0, 1)", (2, 0, 1), {}),
    ("permute", "[1, 0]", (1, 0), {}),
    ("view", "2, -1", (2, -1), {}),
    ("reshape", "-1", (-1,), {}),
    ("expand", "3, -1, 4", (3, -1, 4), {}),
    ("flatten", "start_dim=1", (), {"start_dim": 1}),
    ("flatten", "0, end_dim=1", (0,), {"end_dim": 1}),
    ("squeeze", "", (), {}),
    ("narrow", "1, 1, 2", (1, 1, 2), {}),
    ("contiguous", "", (), {}),
    ("index", "1:, ::2", ((slice(1, None), slice(None, None, 2)),), {}),
    ("index", "[0, ..., None]", ((0, Ellipsis, None),), {}),
    ("index", "-1", ((-1,),), {}),
    ("index", "1:3:1", ((slice(1, 3, 1),),), {}),
])
def test_parse_args(op, text, args, kwargs):
    assert parse_args(op, text) == (args, kwargs)


@pytest.mark.parametrize("op,text,message", [
    ("transpose", "0", "needs dim0, dim1"),
    ("transpose", "0, 1, 2", "at most 2"),
    ("transpose", "__import__('os').system('echo hi')", "cannot read"),
    ("view", "2.5", "cannot read"),
    ("view", "2 3", "separate the numbers"),
    ("view", "2,", "trailing comma"),
    ("view", ", 2", "missing a number"),
    ("flatten", "dims=1", "no argument named 'dims'"),
    ("flatten", "start_dim=1, 2", "positional argument after a keyword"),
    ("index", "", "type an index"),
    ("index", "1::2::3", "at most two colons"),
    ("index", "1 2", "two numbers in a row"),
    ("index", "a", "cannot read"),
    ("index", "0,,1", "empty item"),
    ("nope", "", "unknown operation"),
    ("view", "9" * 30, "does not fit"),
    ("view", "1," * 150, "too long"),
])
def test_bad_input_is_rejected_before_anything_runs(op, text, message):
    with pytest.raises(PlaygroundInputError, match=message):
        parse_args(op, text)


def test_op_code_is_rebuilt_from_parsed_values():
    assert op_code("index", ((slice(1, None), slice(None, None, 2)),), {}) == "[1:, ::2]"
    assert op_code("index", ((0, Ellipsis, None),), {}) == "[0, ..., None]"
    assert op_code("flatten", (), {"start_dim": 1}) == ".flatten(start_dim=1)"
    assert op_code("t", (), {}) == ".t()"


def test_the_chain_marks_views_and_copies():
    a = tensorviz.arange(12).reshape(3, 4)
    p = playground(a)
    assert p.tensors[0]["label"] == "a"
    assert p.apply("transpose", "0, 1") is not None
    assert p.apply("index", "1:, ::2") is not None
    assert p.apply("contiguous") is not None
    assert p.apply("view", "-1") is not None
    assert p.error == ""
    assert [s["copied"] for s in p.steps] == [False, False, True, False]
    assert [t["strip"] for t in p.tensors] == [0, 0, 0, 1, 1]
    assert p.steps[1]["expression"] == "a.transpose(0, 1)[1:, ::2]"
    assert p.tensors[4]["label"] == "a.transpose(0, 1)[1:, ::2].contiguous().view(-1)"
    assert p.code.splitlines() == [
        "x0 = a",
        "x1 = x0.transpose(0, 1)           # view: same storage",
        "x2 = x1[1:, ::2]                  # view: same storage",
        "x3 = x2.contiguous()              # copy: new storage",
        "x4 = x3.view(-1)                  # view: same storage",
    ]
    last = np.frombuffer(p.tensors[4]["values"], dtype="<i8").tolist()
    assert last == a.t()[1:, ::2].contiguous().view(-1).tolist()
    # a write to `a` shows in the views, not in the copy
    a.add_(100)
    assert np.frombuffer(p.tensors[2]["values"], dtype="<i8").tolist()[0] == 101
    assert np.frombuffer(p.tensors[3]["values"], dtype="<i8").tolist()[0] == 1


def test_engine_errors_are_shown_verbatim():
    a = tensorviz.arange(12).reshape(3, 4)
    p = Playground(a, label="a")
    p.apply("transpose", "0, 1")
    assert p.apply("view", "12") is None
    try:
        a.t().view(12)
    except RuntimeError as exc:
        expected = f"RuntimeError: {exc}"
    assert p.error == expected and "reshape" in p.error
    assert len(p.steps) == 1  # nothing was added
    assert p.apply("transpose", "0, 5") is None
    assert p.error.startswith("IndexError: Dimension out of range")
    assert p.apply("transpose", "0 5") is None and "separate" in p.error
    p.apply("reshape", "12")  # reshape of a transpose: a copy
    assert p.error == "" and p.steps[-1]["copied"]


def test_undo_reset_and_the_message_protocol():
    a = tensorviz.arange(6).reshape(2, 3)
    p = Playground(a, label="a")
    from_front_end(p, {"type": "apply", "op": "t", "args": ""})
    from_front_end(p, {"type": "apply", "op": "unsqueeze", "args": "0"})
    assert [s["op"] for s in p.steps] == ["t", "unsqueeze"] and len(p.tensors) == 3
    from_front_end(p, {"type": "undo"})
    assert [s["op"] for s in p.steps] == ["t"] and len(p.tensors) == 2
    from_front_end(p, {"type": "apply", "op": 5, "args": None})  # ignored
    from_front_end(p, {"type": "reset"})
    assert p.steps == [] and len(p.tensors) == 1 and p.code == "x0 = a"
    assert {op["name"] for op in p.ops} == set(OPS)


def test_step_limit():
    z = tensorviz.zeros(2)
    p = Playground(z, label="z")
    for _ in range(15):
        assert p.apply("unsqueeze", "0") is not None
    assert p.apply("unsqueeze", "0") is None and "keeps 15 steps" in p.error


def test_the_playground_owns_the_tensor_it_was_given():
    p = Playground(tensorviz.arange(24).reshape(2, 3, 4), label="x")  # a temporary
    gc.collect()
    p.refresh()
    assert p.tensors[0]["alive"] and p.status == ""
    assert p.apply("transpose", "0, 2") is not None and p.error == ""
    assert p.tensors[1]["shape"] == [4, 3, 2]


def test_torch_tensors_and_numpy_arrays():
    torch = pytest.importorskip("torch")
    t = torch.arange(6.0).reshape(2, 3)
    p = Playground(t, label="t")
    p.apply("flip", "0")
    assert p.steps[-1]["copied"]  # PyTorch has no negative strides: flip copies
    with pytest.raises(TypeError, match="from_numpy"):
        Playground(np.arange(3))


def test_the_html_snapshot_shows_the_steps_as_code():
    x = tensorviz.arange(12).reshape(3, 4)
    p = Playground(x, label="<x>")
    assert "<pre" not in p.to_html()
    p.apply("t")
    p.apply("contiguous")
    html = p.to_html()
    assert "x1 = x0.t()" in html and "x2 = x1.contiguous()" in html and "# copy: new storage" in html
    assert "x0 = &lt;x&gt;" in html and "<x>" not in html
