"""Reading and comparing answers: what the learner typed or passed, against what is expected.

Answers are *normalised* before they are compared, so the same value written different ways
matches::

    normalize(torch.Size([3, 1]))  == normalize([3, 1]) == normalize((3, 1))   -> (3, 1)
    normalize(torch.float32)       == parse("torch.float", expected=...)       -> DType("float32")
    normalize(tensor(4))           -> 4

Typed text is read with :func:`ast.literal_eval` (never ``eval``), guided by the kind of the
expected answer: ``"1, 3"`` is the tuple ``(1, 3)``, ``"yes"`` is ``True`` where a bool is
expected, ``"inf"`` is a float.
"""
from __future__ import annotations

import ast
import math
from typing import Any

__all__ = ["DType", "normalize", "parse", "same", "describe"]

_DTYPE_ALIASES = {
    "float": "float32", "double": "float64", "half": "float16", "short": "int16",
    "int": "int32", "long": "int64", "cfloat": "complex64", "cdouble": "complex128",
    "byte": "uint8", "char": "int8",
}
_TRUE = {"true", "yes", "y"}
_FALSE = {"false", "no", "n"}
_SPECIAL_FLOATS = {"inf": math.inf, "+inf": math.inf, "-inf": -math.inf, "nan": math.nan,
                   "infinity": math.inf, "-infinity": -math.inf}
MAX_TEXT = 500  # longer input is refused before it is parsed


class DType(str):
    """A dtype by its canonical name (``"float32"``), whichever library it came from."""

    __slots__ = ()

    def __new__(cls, name: str) -> "DType":
        name = name.strip()
        for prefix in ("torch.", "tensorviz.", "np.", "numpy."):
            if name.startswith(prefix):
                name = name[len(prefix):]
        return str.__new__(cls, _DTYPE_ALIASES.get(name, name))

    def __repr__(self) -> str:
        return f"torch.{str(self)}"


def _is_dtype(value: Any) -> bool:
    cls = type(value)
    return cls.__name__ == "dtype" and cls.__module__.split(".")[0] in ("tensorviz", "torch")


def normalize(value: Any) -> Any:
    """A plain, comparable form: tuples for shapes/strides/lists, numbers, ``DType``, str."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if _is_dtype(value):
        return DType(str(value))
    if isinstance(value, (int, float, complex)):
        return value
    if isinstance(value, (list, tuple)):  # includes Size
        return tuple(normalize(v) for v in value)
    if hasattr(value, "tolist"):  # tensors, NumPy arrays and scalars
        return normalize(value.tolist())
    return value


def parse(text: str, expected: Any = None) -> Any:
    """Read typed text as a value of the same kind as ``expected`` (normalised)."""
    if not isinstance(text, str):
        return normalize(text)
    text = text.strip()
    if len(text) > MAX_TEXT:
        raise ValueError(f"that answer is too long ({len(text)} characters)")
    want = normalize(expected)
    if isinstance(want, DType):
        return DType(text)
    low = text.lower().rstrip(".")
    if isinstance(want, bool):
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
    if isinstance(want, str):
        return text
    if low in _SPECIAL_FLOATS:
        return _SPECIAL_FLOATS[low]
    for prefix in ("torch.size", "tensorviz.size", "size"):
        if low.startswith(prefix + "("):  # torch.Size([3, 1]) as printed
            text = text[len(prefix):]
            break
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text
    return normalize(value)


def same(given: Any, expected: Any, tolerance: float | None = None) -> bool:
    """Whether two normalised answers are equal (floats within ``tolerance``, relative)."""
    if isinstance(expected, bool) or isinstance(given, bool):
        return isinstance(given, bool) and isinstance(expected, bool) and given == expected
    if isinstance(expected, DType) or isinstance(given, DType):
        return isinstance(given, str) and isinstance(expected, str) and \
            DType(given) == DType(expected)
    if isinstance(expected, tuple):
        return isinstance(given, tuple) and len(given) == len(expected) and \
            all(same(g, e, tolerance) for g, e in zip(given, expected))
    if isinstance(expected, (int, float)) and isinstance(given, (int, float)):
        if math.isnan(expected) or math.isnan(given):
            return math.isnan(expected) and math.isnan(given)
        if tolerance is None or math.isinf(expected):
            return given == expected
        return math.isclose(given, expected, rel_tol=tolerance, abs_tol=tolerance)
    if isinstance(expected, str) and isinstance(given, str):
        return given.strip().lower() == expected.strip().lower()
    return bool(given == expected) if type(given) is type(expected) else False


def describe(value: Any) -> str:
    """How an answer is written back to the learner: ``(1, 3)``, ``torch.float32``, ``True``."""
    value = normalize(value)
    if isinstance(value, DType):
        return repr(value)
    if isinstance(value, tuple) and len(value) == 1:
        return f"({describe(value[0])},)"
    if isinstance(value, tuple):
        return "(" + ", ".join(describe(v) for v in value) + ")"
    if isinstance(value, float) and value.is_integer():
        return f"{value:.1f}"
    return str(value) if isinstance(value, str) else repr(value)
