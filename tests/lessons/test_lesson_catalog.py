"""Every lesson exercise's stated answer is what the code really gives.

Each catalog entry's setup + solution is run with ``torch`` bound to tensorviz, and (where it
is installed) to PyTorch; the result must pass the exercise's own check.
"""
import importlib

import numpy as np
import pytest

from tensorviz.lessons import CATALOG, exercise

LIBRARIES = ["tensorviz", "torch"]


def _library(name):
    if name == "torch":
        return pytest.importorskip("torch")
    return importlib.import_module(name)


@pytest.mark.parametrize("library", LIBRARIES)
@pytest.mark.parametrize("key", list(CATALOG))
def test_solution_gives_the_stated_answer(key, library):
    torch = _library(library)
    spec = CATALOG[key]
    if spec.get("requires") == "cuda" and not torch.cuda.is_available():
        pytest.skip("needs a CUDA device")
    namespace = {"torch": torch, "np": np}
    exec(compile(spec.get("setup", "") + "\n" + spec["solution"], key, "exec"), namespace)
    feedback = exercise(key).check(namespace["answer"])
    assert feedback.ok is True, feedback.message


@pytest.mark.parametrize("key", list(CATALOG))
def test_entry_is_complete(key):
    ex = exercise(key)
    assert ex.prompt and ex.explanation and ex.solution_code, key
    assert ex._hint, f"{key} has no hint"
    assert "answer" in ex.solution_code
    for wrong, _ in ex.mistakes:  # a "mistake" must not be the right answer
        assert not ex.check(wrong), f"{key}: listed mistake {wrong!r} is accepted"
