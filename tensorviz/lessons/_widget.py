"""The ipywidgets form of an :class:`~tensorviz.lessons.Exercise` (imported only on display).

::

    ┌ Exercise. What is `p.t().stride()`? ─────────────────────────┐
    │ [ e.g. (…, …)      ]  [Check]                                │
    │ ✘ Not quite: (3, 1) is p's own stride; t() swaps them.       │
    │ [Hint]  [Show solution]                                      │
    └──────────────────────────────────────────────────────────────┘
"""
from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import ipywidgets as W

if TYPE_CHECKING:
    from ._exercise import Exercise, Feedback

__all__ = ["ExerciseForm"]


class ExerciseForm:
    """Answer box (or choices), Check, Hint and Show solution, wired to one exercise."""

    def __init__(self, exercise: "Exercise"):
        self.exercise = exercise
        self._last_text: str | None = None
        self._asked_for_solution = False
        self.question = W.HTML(exercise.question_html())
        self.feedback = W.HTML("")
        self.reveal = W.HTML("")
        self.input: Any = None
        row: list[Any] = []
        if exercise.choices is not None:
            self.input = W.RadioButtons(options=exercise.choices, index=None,
                                        layout=W.Layout(width="auto"))
            row = [self.input]
        elif exercise.checker is None:
            self.input = W.Text(placeholder=exercise.placeholder, continuous_update=False,
                                layout=W.Layout(width="18em"))
            self.input.observe(self._on_submit, names="value")  # Enter or leaving the box
            row = [self.input]
        else:
            row = [W.HTML("Run your code in a cell, then check it there with "
                          f"<code>{html.escape(exercise.name)}.check(result)</code>; the "
                          "verdict shows up here too.")]
        self.check_button = W.Button(description="Check", button_style="primary",
                                     icon="check", layout=W.Layout(width="auto"))
        self.check_button.on_click(self._on_check)
        if exercise.checker is None:
            row.append(self.check_button)
        hint = W.Button(description="Hint", icon="lightbulb-o", layout=W.Layout(width="auto"))
        hint.on_click(self._on_hint)
        solution = W.Button(description="Show solution", icon="eye",
                            layout=W.Layout(width="auto"))
        solution.on_click(self._on_solution)
        self.box = W.VBox(
            [self.question, W.HBox(row, layout=W.Layout(align_items="center")), self.feedback,
             W.HBox([hint, solution]), self.reveal],
            layout=W.Layout(border="1px solid var(--jp-border-color1, #d0d7de)",
                            padding="6px 12px", margin="8px 0"))
        self.box.add_class("tv-exercise")

    # ------------------------------------------------------------------ events
    def _answer_text(self) -> Any:
        return self.input.value if self.input is not None else None

    def _submit(self, text: Any) -> None:
        if text is not None and text == self._last_text:
            return  # the same answer again (Enter, then a click on Check): one attempt
        self._last_text = text
        self.exercise.check(text)

    def _on_submit(self, change: dict) -> None:
        self._submit(change["new"])

    def _on_check(self, _button: Any) -> None:
        self._submit(self._answer_text())

    def _on_hint(self, _button: Any) -> None:
        self.reveal.value = self.exercise.hint()._repr_html_()

    def _on_solution(self, _button: Any) -> None:
        if self.exercise.attempts == 0 and not self._asked_for_solution:
            self._asked_for_solution = True
            self.reveal.value = ("<i>Have a go first: a wrong guess teaches more than a read "
                                 "answer. Click again to see the solution.</i>")
            return
        self.reveal.value = self.exercise.solution()._repr_html_()

    # ------------------------------------------------------------------ from the exercise
    def show_feedback(self, feedback: "Feedback") -> None:
        self.feedback.value = feedback._repr_html_()
