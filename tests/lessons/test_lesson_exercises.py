"""The exercise helpers: reading answers, verdicts, hints, the widget form, the text fallback."""
import math
import subprocess
import sys

import numpy as np
import pytest

import tensorviz
from tensorviz.lessons import Exercise, Feedback, exercise, exercises
from tensorviz.lessons._answers import DType, describe, normalize, parse, same


# ---------------------------------------------------------------------------- answers
@pytest.mark.parametrize("text, want", [
    ("(12, 4, 1)", (12, 4, 1)), ("12, 4, 1", (12, 4, 1)), ("[12, 4, 1]", (12, 4, 1)),
    ("torch.Size([12, 4, 1])", (12, 4, 1)), ("tensorviz.Size([3])", (3,)), ("()", ()),
    ("torch.Size([])", ()), ("  7 ", 7), ("2048.0", 2048.0), ("inf", math.inf),
    ("-inf", -math.inf),
])
def test_parse_numbers_and_tuples(text, want):
    assert parse(text, expected=(0,)) == want


@pytest.mark.parametrize("text", ["torch.float32", "float32", "torch.float", "tensorviz.float",
                                  "float", " torch.float32 "])
def test_parse_dtype_aliases(text):
    got = parse(text, expected=tensorviz.float32)
    assert isinstance(got, DType) and got == "float32"


@pytest.mark.parametrize("text, want", [("True", True), ("yes", True), ("false", False),
                                        ("No.", False)])
def test_parse_bool_words(text, want):
    assert parse(text, expected=True) is want


def test_parse_never_evaluates_code():
    assert parse("__import__('os').system('echo hi')", expected=1) == \
        "__import__('os').system('echo hi')"
    with pytest.raises(ValueError):
        parse("1," * 1000, expected=(1,))


def test_normalize_tensors_sizes_and_dtypes():
    t = tensorviz.arange(6).reshape(2, 3)
    assert normalize(t.shape) == (2, 3)
    assert normalize(t.stride()) == (3, 1)
    assert normalize(t[0, 0]) == 0
    assert normalize(np.int64(4)) == 4
    assert normalize(tensorviz.float16) == DType("float16")
    assert repr(DType("float16")) == "torch.float16"


def test_same_is_strict_about_kinds():
    assert not same(1, True) and not same(True, 1)
    assert not same((1, 2), (1, 2, 3)) and not same(4, (4,))
    assert same(math.nan, math.nan) and not same(1.0, math.nan)
    assert same(0.1001, 0.1, tolerance=1e-2) and not same(0.1001, 0.1)
    assert same("X.T().contiguous()", "x.t().contiguous()")


def test_describe():
    assert describe((3,)) == "(3,)"
    assert describe((1, 12, 4)) == "(1, 12, 4)"
    assert describe(2048.0) == "2048.0"
    assert describe(tensorviz.float32) == "torch.float32"


# ---------------------------------------------------------------------------- verdicts
def make():
    return Exercise("What is `torch.zeros(2, 3).stride()`?", answer=(3, 1),
                    mistakes={(1, 2): "That is column-major order."},
                    hint="Rows are 3 apart.", explanation="Row-major.",
                    solution="answer = torch.zeros(2, 3).stride()")


def test_right_wrong_and_targeted_feedback():
    ex = make()
    nothing = ex.check(None)
    assert nothing.ok is None and not nothing and ex.attempts == 0
    wrong = ex.check("(3, 2)")
    assert wrong.ok is False and "(3, 2)" in wrong.message and ex.attempts == 1
    targeted = ex.check((1, 2))
    assert targeted.ok is False and "column-major" in targeted.message
    assert "hint" in ex.check("(9, 9)").message.lower()  # after a miss, point at the hint
    right = ex.check(tensorviz.zeros(2, 3).stride())
    assert right and right.ok is True and "Row-major" in right.message and ex.solved


def test_an_unreadable_answer_says_how_to_write_it_and_is_not_an_attempt():
    from tensorviz.lessons import exercise

    cases = [("01/stride-3d", "12 4 1", "(…, …, …)", "(12, 4, 1)"),
             ("00/read-index", "seven", "a number in digits", "7"),
             ("06/to-same-device", "maybe", "True or False", "yes"),
             ("01/zero-dim", "nothing", "a tuple in parentheses", "()")]
    for key, bad, how, good in cases:
        ex = exercise(key)
        fb = ex.check(bad)
        assert fb.ok is None and ex.attempts == 0, (key, fb)
        assert fb.message.startswith(f"Couldn't read {bad!r}: write it as ") and how in \
            fb.message, (key, fb)
        assert "not it" not in fb.message
        if not isinstance(ex.answer, bool):  # no answer given away as the "example"
            assert str(ex.answer) not in fb.message.replace(repr(bad), "")
        assert ex.check(good).ok is True, key  # written as it says, it is read
    ex = exercise("01/stride-3d")
    assert ex.check("(12, 4)").ok is False  # readable but wrong: an attempt, "not it"
    assert "not it" in ex.check("(12, 4)").message and ex.attempts == 2


def test_every_lesson_exercise_has_its_own_handle():
    from tensorviz.lessons import CATALOG, exercise, handle

    names = [handle(key) for key in CATALOG]
    assert len(set(names)) == len(names)
    assert handle("01/storage-index") == "ex_storage_index"
    for key in CATALOG:
        ex = exercise(key)
        assert ex.name == handle(key) and f"{ex.name}.check(" in ex.text()
        assert f"{ex.name}.hint()" in ex._repr_html_()
        assert "ex.check(" not in ex.prompt.replace(f"{ex.name}.check(", "")


def test_feedback_renders_escaped_html():
    fb = Feedback(False, "Not quite: <script>alert(1)</script> is not `x`.")
    out = fb._repr_html_()
    assert "<script>" not in out and "&lt;script&gt;" in out and ">x</code>" in out
    assert repr(fb).startswith("✘")


def test_hint_and_solution():
    ex = make()
    assert "3 apart" in repr(ex.hint())
    sol = ex.solution()
    assert "(3, 1)" in repr(sol) and "torch.zeros(2, 3).stride()" in sol._repr_html_()


def test_choices():
    ex = Exercise("Pick", answer="b", choices=["a", "b"], mistakes={"a": "Not a."})
    assert ex.check("b") and "Not a." in ex.check("a").message
    assert "Pick one of" in ex.check("c").message
    with pytest.raises(ValueError):
        Exercise("Pick", answer="z", choices=["a", "b"])


def test_checker_exercises_never_raise():
    def checker(value):
        if value.shape != (2,):
            return "wrong shape"
        return None
    ex = Exercise("Make a tensor of shape (2,)", checker=checker, explanation="Good.")
    assert ex.check(tensorviz.zeros(2)).ok is True
    assert ex.check(tensorviz.zeros(3)).message == "Not yet: wrong shape"
    broken = ex.check(object())  # the checker raises AttributeError: reported, not raised
    assert broken.ok is False and "AttributeError" in broken.message
    assert ex.check(None).ok is None


def test_needs_exactly_one_of_answer_or_checker():
    with pytest.raises(TypeError):
        Exercise("?")
    with pytest.raises(TypeError):
        Exercise("?", answer=1, checker=lambda v: None)


def test_text_form_says_how_to_answer():
    text = repr(exercise("01/stride-3d"))
    assert "torch.zeros(2, 3, 4).stride()" in text and "ex_stride_3d.check(" in text
    assert "ex_stride_3d.hint()" in text and "ex_stride_3d.solution()" in text


def test_catalog_lookup():
    assert [e.key for e in exercises("02")][:1] == ["02/permute-stride"]
    with pytest.raises(KeyError, match="01/offset"):
        exercise("01/nope")
    assert exercise("01/offset") is not exercise("01/offset")  # fresh state each time


# ---------------------------------------------------------------------------- the widget
def test_widget_form_checks_typed_answers():
    pytest.importorskip("ipywidgets")
    ex = make()
    bundle = ex._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "ex.check(" in bundle["text/plain"]  # what a frontend without widgets shows
    form = ex._ui
    form.input.value = "(1, 2)"  # Enter / leaving the box checks it
    assert "column-major" in form.feedback.value and ex.attempts == 1
    form.check_button.click()  # the same answer again is not a second attempt
    assert ex.attempts == 1
    form.input.value = "3, 1"
    assert "✔" in form.feedback.value and ex.solved
    ex.check((9, 9))  # checking in code updates the widget too
    assert "✘" in form.feedback.value


def test_widget_solution_asks_for_a_try_first():
    pytest.importorskip("ipywidgets")
    ex = make()
    ex.widget()
    buttons = {b.description: b for row in ex._ui.box.children
               if hasattr(row, "children") for b in row.children if hasattr(b, "on_click")}
    buttons["Hint"].click()
    assert "3 apart" in ex._ui.reveal.value
    buttons["Show solution"].click()
    assert "Have a go first" in ex._ui.reveal.value
    buttons["Show solution"].click()
    assert "torch.zeros(2, 3).stride()" in ex._ui.reveal.value


def test_widget_for_choices_and_checkers():
    pytest.importorskip("ipywidgets")
    ex = exercise("02/which-copies")
    ex.widget()
    ex._ui.input.value = "x.t().contiguous()"
    ex._ui.check_button.click()
    assert "✔" in ex._ui.feedback.value
    do = exercise("02/expand")
    do.widget()
    assert do._ui.input is None
    do.check(tensorviz.tensor([1, 2, 3]).expand(4, 3))
    assert "✔" in do._ui.feedback.value


def _run(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)


def test_plain_text_fallback_without_ipywidgets():
    code = (
        "import sys; sys.modules['ipywidgets'] = None\n"
        "from tensorviz.lessons import exercise\n"
        "ex = exercise('01/offset')\n"
        "b = ex._repr_mimebundle_()\n"
        "assert set(b) == {'text/plain', 'text/html'}, b\n"
        "assert 'ex_offset.check(' in b['text/plain']\n"
        "assert ex.check(4).ok is True\n"
        "print('ok')\n")
    out = _run(code)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_import_tensorviz_does_not_import_lessons_or_ipywidgets():
    out = _run("import sys, tensorviz\n"
               "print('tensorviz.lessons' in sys.modules, 'ipywidgets' in sys.modules)\n"
               "import tensorviz.lessons\n"
               "print('ipywidgets' in sys.modules)")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False", "False"]
