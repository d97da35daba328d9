"""Self-checking exercises: a question, an answer box with a Check button, hints and a solution.

>>> ex = Exercise("What is `torch.arange(12).reshape(3, 4).stride()`?", answer=(4, 1),
...               mistakes={(1, 4): "That is the transpose's stride."},
...               hint="Stepping one row skips a whole row of 4 elements.")
>>> ex.check((4, 1))
✔ Right: (4, 1).

In Jupyter the exercise draws as an ipywidgets form (answer box or choices, Check, Hint,
Show solution).  Without a widget frontend, or without ipywidgets, it prints as text, and every
action is also a method: ``ex.check(answer)``, ``ex.hint()``, ``ex.solution()``.
"""
from __future__ import annotations

import html
import re
from typing import Any, Callable, Mapping, Sequence

from ._answers import MAX_TEXT, DType, describe, normalize, parse, same

__all__ = ["Exercise", "Feedback", "Reveal"]

Checker = Callable[[Any], "str | None"]


class Feedback:
    """The verdict on one answer: ``ok`` is True, False, or None (nothing answered yet)."""

    __slots__ = ("ok", "message")

    def __init__(self, ok: bool | None, message: str):
        self.ok = ok
        self.message = message

    def __bool__(self) -> bool:
        return self.ok is True

    @property
    def mark(self) -> str:
        return {True: "✔", False: "✘", None: "…"}[self.ok]

    def __repr__(self) -> str:
        return f"{self.mark} {self.message}"

    def _repr_html_(self) -> str:
        # theme colours first (JupyterLab's light and dark themes), plain ones elsewhere
        colour = {True: "var(--jp-success-color1, #1a7f37)",
                  False: "var(--jp-error-color1, #b3261e)",
                  None: "var(--jp-ui-font-color2, #555)"}[self.ok]
        return (f'<div class="tv-feedback" style="color:{colour}">'
                f"<b>{self.mark}</b> {_inline(self.message)}</div>")


class Reveal:
    """A hint or a solution: shown as Markdown-ish text (and a code block) on display."""

    __slots__ = ("title", "text", "code")

    def __init__(self, title: str, text: str, code: str = ""):
        self.title, self.text, self.code = title, text, code

    def __repr__(self) -> str:
        parts = [f"{self.title}: {self.text}".rstrip(": ")]
        if self.code:
            parts.append(_indent(self.code))
        return "\n".join(parts)

    def _repr_html_(self) -> str:
        out = f"<div class='tv-reveal'><b>{html.escape(self.title)}.</b> {_inline(self.text)}"
        if self.code:
            out += _code_block(self.code)
        return out + "</div>"


class Exercise:
    """One self-checking exercise.

    Give either ``answer`` (a value to predict: int, tuple, bool, float, dtype, or one of
    ``choices``) or ``checker`` (a function that inspects what the learner built and returns
    None when it is right, or a sentence saying what is wrong).

    ``mistakes`` maps likely wrong answers to targeted feedback; ``tolerance`` compares floats
    relatively; ``solution`` is code that computes the answer (``torch`` is the library) and
    ``explanation`` says why.
    """

    def __init__(self, prompt: str, answer: Any = None, *, checker: Checker | None = None,
                 setup: str = "", choices: Sequence[str] | None = None, hint: str = "",
                 explanation: str = "", solution: str = "",
                 mistakes: Mapping[Any, str] | None = None, tolerance: float | None = None,
                 placeholder: str = "", key: str = "", title: str = "Exercise",
                 name: str = "ex"):
        if (answer is None) == (checker is None):
            raise TypeError("an Exercise needs exactly one of answer= or checker=")
        if choices is not None:
            choices = [str(c) for c in choices]
            if answer not in choices:
                raise ValueError(f"answer {answer!r} is not one of the choices {choices}")
        self.key = key
        self.name = name  # the variable the lesson keeps it in: what the help text calls
        self.title = title
        self.prompt = prompt
        self.setup = setup.strip("\n")
        self.answer = answer
        self.checker = checker
        self.choices = choices
        self._hint = hint
        self.explanation = explanation
        self.solution_code = solution.strip("\n")
        self.mistakes = [(normalize(k), v) for k, v in (mistakes or {}).items()]
        self.tolerance = tolerance
        self.placeholder = placeholder or _placeholder(answer, choices, checker)
        self.attempts = 0
        self.solved = False
        self._ui: Any = None  # the ipywidgets form, built on first display

    # ------------------------------------------------------------------ checking
    def check(self, value: Any = None) -> Feedback:
        """Check an answer (a value, or text as typed in the box) and say why it is (not) right."""
        feedback = self._judge(value)
        if feedback.ok is not None:
            self.attempts += 1
            self.solved = self.solved or feedback.ok
        if self._ui is not None:
            self._ui.show_feedback(feedback)
        return feedback

    def _judge(self, value: Any) -> Feedback:
        if value is None or (isinstance(value, str) and not value.strip()) or value is ...:
            return Feedback(None, "Nothing to check yet: give your answer first.")
        if self.checker is not None:
            return self._run_checker(value)
        try:
            given = parse(value, self.answer) if isinstance(value, str) else normalize(value)
        except ValueError as exc:
            return Feedback(False, str(exc))
        unreadable = self._unreadable(value, given)
        if unreadable:
            return Feedback(None, unreadable)
        if self.choices is not None:
            if given not in self.choices:
                return Feedback(False, "Pick one of: " + "; ".join(self.choices))
        if same(given, normalize(self.answer), self.tolerance):
            return Feedback(True, self._praise())
        for wrong, message in self.mistakes:
            if same(given, wrong, self.tolerance):
                return Feedback(False, f"Not quite. {message}")
        message = f"Not quite: {describe(given)} is not it."
        if self.attempts >= 1 and self._hint:
            message += " Try the hint."
        return Feedback(False, message)

    def _unreadable(self, value: Any, given: Any) -> str:
        """Why typed text could not be read as the kind of answer expected ('' if it could).

        "12 4 1" or "seven" for a tuple or a number is a format problem, not a wrong answer:
        say how to write it, and do not count it as an attempt.
        """
        want = normalize(self.answer)
        if not isinstance(value, str) or self.choices is not None or isinstance(want, str):
            return ""
        readable = (isinstance(given, tuple) if isinstance(want, tuple) else
                    isinstance(given, bool) if isinstance(want, bool) else
                    isinstance(given, (int, float)) and not isinstance(given, bool)
                    if isinstance(want, (int, float)) else True)
        if readable:
            return ""
        return (f"Couldn't read {value.strip()[:40]!r}: write it as {_format_example(want)}.")

    def _run_checker(self, value: Any) -> Feedback:
        try:
            problem = self.checker(value)  # type: ignore[misc]
        except Exception as exc:  # the learner's object may be anything: never crash
            return Feedback(False, f"Could not check that ({type(exc).__name__}: {exc}).")
        if problem:
            return Feedback(False, f"Not yet: {problem}")
        return Feedback(True, self._praise())

    def _praise(self) -> str:
        head = "Right." if self.checker is not None else f"Right: {describe(self.answer)}."
        return f"{head} {self.explanation}".strip()

    # ------------------------------------------------------------------ help
    def hint(self) -> Reveal:
        """A nudge in the right direction (does not give the answer away)."""
        return Reveal("Hint", self._hint or "No hint for this one: try it in a code cell.")

    def solution(self) -> Reveal:
        """The answer, why, and code that computes it."""
        text = "" if self.checker is not None else f"{describe(self.answer)}. "
        return Reveal("Solution", text + self.explanation, self.solution_code)

    # ------------------------------------------------------------------ display
    def text(self) -> str:
        """The plain-text form, for consoles and frontends without widgets."""
        lines = [f"{self.title}" + (f" [{self.key}]" if self.key else ""), "", self.prompt]
        if self.setup:
            lines += ["", _indent(self.setup)]
        if self.choices is not None:
            lines += [""] + [f"  - {c}" for c in self.choices]
        if self.checker is not None:
            lines += ["", f"Check your result with  {self.name}.check(result)"]
        else:
            lines += ["", f"Answer in code with  {self.name}.check(your_answer)"]
        lines += [f"Stuck?  {self.name}.hint()  ·  {self.name}.solution()"]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()

    def question_html(self) -> str:
        out = (f"<div class='tv-exercise-q'><b>{html.escape(self.title)}.</b> "
               f"{_paragraphs(self.prompt)}")
        if self.setup:
            out += _code_block(self.setup)
        return out + "</div>"

    def _repr_html_(self) -> str:
        out = self.question_html()
        ex = html.escape(self.name)
        how = (f"check your result with <code>{ex}.check(result)</code>" if self.checker
               else f"answer with <code>{ex}.check(...)</code>")
        return out + ("<p style='color:var(--jp-ui-font-color2, #555)'>No widget frontend "
                      f"here: {how}; <code>{ex}.hint()</code>, <code>{ex}.solution()</code>.</p>")

    def widget(self) -> Any:
        """The ipywidgets form (built once); needs ipywidgets."""
        if self._ui is None:
            from ._widget import ExerciseForm

            self._ui = ExerciseForm(self)
        return self._ui.box

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict:
        try:
            box = self.widget()
        except ImportError:
            return {"text/plain": self.text(), "text/html": self._repr_html_()}
        data = box._repr_mimebundle_(include=include, exclude=exclude) or {}
        data = dict(data)
        data["text/plain"] = self.text()
        return data


# ---------------------------------------------------------------------- helpers
def _format_example(want: Any) -> str:
    """How to write an answer of this kind: ``(…, …, …)``, ``True or False``, a number."""
    if isinstance(want, bool):
        return "True or False"
    if isinstance(want, tuple):
        if not want:
            return "a tuple in parentheses, e.g. (2, 3)"
        return "(" + ", ".join("…" for _ in want) + ("," if len(want) == 1 else "") + \
            "), numbers in parentheses separated by commas"
    if isinstance(want, DType):
        return "a dtype, e.g. torch.int64"
    # an example that is never the answer itself
    if isinstance(want, float):
        return f"a number in digits, e.g. {0.25 if want != 0.25 else 0.75}"
    return f"a number in digits, e.g. {42 if want != 42 else 41}"


def _placeholder(answer: Any, choices: Any, checker: Any) -> str:
    if checker is not None or choices is not None:
        return ""
    value = normalize(answer)
    if isinstance(value, bool):
        return "True or False"
    if isinstance(value, tuple):
        return "e.g. (" + ", ".join("…" for _ in value) + ")"
    if isinstance(value, DType):
        return "e.g. torch.int64"
    return "your answer"


_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")


def _inline(text: str) -> str:
    """Escape, then render `code` and **bold** (the only Markdown the prompts use)."""
    out = html.escape(text[:4 * MAX_TEXT])
    out = _CODE.sub(r"<code style='background:var(--jp-layout-color2, #f0f2f4);"
                    r"color:var(--jp-content-font-color1, #1a1a1a);padding:0 3px;"
                    r"border-radius:3px'>\1</code>", out)
    return _BOLD.sub(r"<b>\1</b>", out)


def _paragraphs(text: str) -> str:
    parts = [p.strip() for p in text.strip().split("\n\n") if p.strip()]
    if len(parts) == 1:
        return _inline(parts[0])
    return _inline(parts[0]) + "".join(f"<p>{_inline(p)}</p>" for p in parts[1:])


def _code_block(code: str) -> str:
    return ("<pre style='background:var(--jp-layout-color2, #f6f8fa);"
            "color:var(--jp-content-font-color1, #1a1a1a);padding:6px 8px;border-radius:4px;"
            "margin:6px 0'>"
            f"<code>{html.escape(code)}</code></pre>")


def _indent(code: str) -> str:
    return "\n".join("    " + line for line in code.splitlines())
