"""Self-checking exercises for the guided lessons in ``notebooks/``.

>>> from tensorviz.lessons import exercise
>>> ex_offset = exercise("01/offset")   # a lesson's exercise, by key, in a name of its own
>>> ex_offset                          # in Jupyter: answer box, Check, Hint, Show solution
>>> ex_offset.check(4)                 # the same check, in code (works without widgets)
✔ Right: 4. ...

Teachers can write their own with :class:`Exercise`::

    Exercise("What is `torch.zeros(2, 3).stride()`?", answer=(3, 1),
             hint="Rows are 3 elements apart.")

This package is not imported by ``import tensorviz``; ipywidgets is imported only when an
exercise is displayed, and a plain-text form is shown where it is missing.
"""
from __future__ import annotations

from ._exercise import Exercise, Feedback, Reveal
from .catalog import CATALOG, exercise, exercises, handle

__all__ = ["Exercise", "Feedback", "Reveal", "exercise", "exercises", "handle", "CATALOG"]
