"""Python and NumPy numbers converted to a dtype as PyTorch converts them: wrapping
(``scalar_to``: what an op does with a scalar operand) or checked (``checked_scalar``,
``fill_value``: what storing does, RuntimeError when the value does not fit)::

    >>> scalar_to(300, tensorviz.uint8), checked_scalar(3.5, tensorviz.float16)
    (np.uint8(44), np.float16(3.5))

Next to the dtypes and below every tensor module: it needs no tensor (a tensor given as a
value is read with ``.item()``, recognised through ``_dtypes.TENSOR_TYPES``).
"""
from __future__ import annotations

import builtins

import numpy as np

from . import _dtypes
from .backends._numpy import call_quiet, context_busy, quiet_run

__all__ = ["scalar_to", "checked_scalar", "fill_value", "check_half"]


def scalar_to(value, dt: "_dtypes.dtype"):
    """A Python/NumPy scalar converted to ``dt`` as PyTorch does (ints wrap around)."""
    if isinstance(value, builtins.complex) and dt.category != _dtypes._COMPLEX:
        value = value != 0 if dt is _dtypes.bool else value.real  # (bool: either part)
    try:
        if dt is not _dtypes.float32:
            return dt._scalar(value)
        # float32 converts with NumPy's own type (see _dtypes._scalar_converter), quietly: a
        # number past its range is inf, as in PyTorch (NumPy warns).
        if isinstance(value, builtins.int) and not -(1 << 63) <= value < (1 << 64):
            raise OverflowError
        try:
            return quiet_run(np.float32, value)
        except RuntimeError as e:
            if not context_busy(e):
                raise
            return call_quiet(np.float32, value)
    except OverflowError:
        if isinstance(value, builtins.int) and not isinstance(value, builtins.bool):
            if not -(1 << 63) <= value < (1 << 64):  # no 64-bit int holds it: PyTorch's error
                raise OverflowError("int too big to convert") from None
            if dt.category == _dtypes._INT:
                return np.array(value & 0xFFFFFFFFFFFFFFFF, dtype=np.uint64).astype(dt._np)
        raise RuntimeError(f"value cannot be converted to type {dt.name} without overflow")\
            from None


# PyTorch's C type names, used by its "value cannot be converted" message.
_C_NAMES = {"bool": "bool", "uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t",
            "int32": "int", "int64": "int64_t", "float16": "c10::Half", "float32": "float",
            "float64": "double", "bfloat16": "c10::BFloat16",
            "complex32": "c10::complex<c10::Half>", "complex64": "c10::complex<float>",
            "complex128": "c10::complex<double>"}


_LIMITS: dict = {}


def _limits(dt: "_dtypes.dtype") -> tuple:
    """``(lowest accepted, largest)`` value of an integer or floating dtype, cached (NumPy's
    ``iinfo``/``finfo`` cost more than the check itself).  uint8 accepts -255..-1, wrapping."""
    lim = _LIMITS.get(dt)
    if lim is None:
        if dt.category == _dtypes._INT:
            info = np.iinfo(dt._np)
            lo = -builtins.int(info.max) if dt is _dtypes.uint8 else builtins.int(info.min)
            lim = (lo, builtins.int(info.max))
        else:  # (Python floats: comparing with NumPy's float16/32 maxima would warn)
            info = _dtypes.np_finfo(dt._np)
            lim = (-builtins.float(info.max), builtins.float(info.max))
        lim = _LIMITS[dt] = lim
    return lim


def checked_scalar(value, dt: "_dtypes.dtype"):
    """A scalar converted to ``dt`` for storing (fill, setitem, full): RuntimeError when it does
    not fit, as PyTorch's checked conversion (uint8 accepts -255..-1, wrapping)."""
    if type(value) is builtins.float and dt.category == _dtypes._FLOAT:
        lim = _LIMITS.get(dt)  # (filled by the general path below on first use)
        if lim is not None and lim[0] <= value <= lim[1]:  # in range: stored as is
            if dt.itemsize == 2:  # (float16/bfloat16: double to float, then 16 bits, as c10)
                value = np.float32(value)
            return dt._np.type(value)
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, builtins.int) and not isinstance(value, builtins.bool) and not \
            -(1 << 63) <= value < (1 << 64):  # (PyTorch takes up to uint64's largest)
        _int_overflow(value)
    if dt is _dtypes.bool:
        return np.bool_(value)
    if dt is _dtypes.complex32:  # (each part must fit a float16, as in PyTorch)
        c = builtins.complex(value)
        if any(v != float("inf") and v > 65504.0 and v == v
               for v in (builtins.abs(c.real), builtins.abs(c.imag))):
            raise RuntimeError("value cannot be converted to type c10::complex<c10::Half> "
                               "without overflow")
        return scalar_to(value, dt)
    bad = False
    if isinstance(value, builtins.complex):
        if dt.category != _dtypes._COMPLEX:
            bad = value.imag != 0
            value = value.real
    if not bad and not isinstance(value, builtins.complex):
        if dt.category == _dtypes._INT:
            lo, hi = _limits(dt)
            if isinstance(value, builtins.float):
                # a float must be a number within the type's own range (uint8: 0..255)
                bad = value != value or value < (0 if dt is _dtypes.uint8 else lo) or \
                    value > hi
            else:
                bad = value < lo or value > hi
        elif dt.category >= _dtypes._FLOAT and dt is not _dtypes.float16:
            # (PyTorch stores an out-of-range number into float16 as inf, without an error)
            v = builtins.abs(value)
            bad = v != float("inf") and v > _limits(dt)[1] and v == v
    elif not bad and dt is _dtypes.complex64:  # (each part must fit a float32, as in PyTorch)
        hi = _limits(_dtypes.float32)[1]
        bad = any(v != float("inf") and v > hi and v == v
                  for v in (builtins.abs(value.real), builtins.abs(value.imag)))
    if bad:
        raise RuntimeError(f"value cannot be converted to type {_C_NAMES[dt.name]} without "
                           "overflow")
    return scalar_to(value, dt)


def fill_value(value, dt, numel=None):
    """A number converted for ``fill_``/``full``: PyTorch's checked conversion (RuntimeError
    when it does not fit).  PyTorch's one-element fill stores an out-of-range number into
    float16 as inf; any other count (``numel``, when given: 0 too) is checked as for the other
    dtypes.  Without ``numel`` float16 takes out-of-range values as inf."""
    if dt in _dtypes.HALVES:  # (bfloat16 as float16, with its own range)
        if numel is not None and numel != 1:
            if dt is _dtypes.float16:
                check_half(value)
            else:
                call_quiet(checked_scalar, value, dt)
        elif isinstance(value, (builtins.int, builtins.float, np.integer, np.floating,
                                builtins.complex)):
            # (in the storage's own type, so that storing it casts nothing: NumPy would warn
            # when a number past float16's range becomes inf)
            return call_quiet(_half_scalar, value, dt)
    if dt is _dtypes.complex32 and numel is not None and numel != 1 and isinstance(
            value, (builtins.int, builtins.float, builtins.complex, np.number)):
        # (complex32 the other way round: PyTorch checks a one-element fill, and its fill of
        # more elements stores a part past float16's range as inf)
        if isinstance(value, builtins.int) and not -(1 << 63) <= value < (1 << 64):
            _int_overflow(value)
        return scalar_to(value, dt)
    return call_quiet(checked_scalar, value, dt)


def _half_scalar(value, dt):
    if isinstance(value, builtins.int) and value < -(1 << 63):
        _int_overflow(value)
    if isinstance(value, builtins.complex):  # (PyTorch goes through double: its words)
        if value.imag != 0:
            raise RuntimeError("value cannot be converted to type double without overflow")
        value = value.real
    return dt._np.type(scalar_to(value, dt))  # (its range check may cast: keep it quiet)


_HALF_MAX = 65504.0


def _int_overflow(value: int):
    """PyTorch's error for a Python int that no 64-bit type holds (it tries int64, then
    uint64, whose words it reports for a negative one)."""
    raise OverflowError("can't convert negative int to unsigned" if value < 0 else
                        "int too big to convert")


def check_half(value) -> None:
    """PyTorch's checked conversion of a number to float16 (``c10::overflows``): a finite
    number past float16's largest magnitude is a RuntimeError (inf and NaN pass)."""
    if isinstance(value, _dtypes.TENSOR_TYPES):
        value = value.item()
    if isinstance(value, (builtins.complex, np.complexfloating)):
        if value.imag != 0:  # (c10::overflows: a real type holds no imaginary part)
            raise RuntimeError("value cannot be converted to type c10::Half without overflow")
        value = value.real
    if isinstance(value, (builtins.bool, np.bool_)) or not isinstance(
            value, (builtins.int, builtins.float, np.integer, np.floating)):
        return
    if isinstance(value, (builtins.int, np.integer)):
        if not -(1 << 63) <= builtins.int(value) < (1 << 64):  # (PyTorch's own error first)
            _int_overflow(builtins.int(value))
        bad = builtins.abs(builtins.int(value)) > _HALF_MAX
    else:
        v = builtins.abs(builtins.float(value))
        bad = v > _HALF_MAX and v != float("inf")
    if bad:
        raise RuntimeError("value cannot be converted to type c10::Half without overflow")
