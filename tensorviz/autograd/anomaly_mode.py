"""Anomaly detection: ``detect_anomaly()`` / ``set_detect_anomaly(True)`` make backward check
every node's gradients for NaN (``RuntimeError: Function 'SqrtBackward0' returned nan values
in its 0th output.``) and, when a node fails, warn with the traceback of the forward call that
made it::

    with tensorviz.autograd.detect_anomaly():
        y = x.sqrt()            # recorded with its forward traceback
        y.sum().backward()
"""
from __future__ import annotations

import warnings

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled",
           "is_anomaly_check_nan_enabled"]

_enabled = False
_check_nan = True

_WARNING = ("Anomaly Detection has been enabled. This mode will increase the runtime and should "
            "only be enabled for debugging.")


def is_anomaly_enabled() -> bool:
    """True while anomaly detection is on."""
    return _enabled


def is_anomaly_check_nan_enabled() -> bool:
    """True while anomaly detection also checks gradients for NaN."""
    return _check_nan


def _set(mode: bool, check_nan: bool) -> None:
    global _enabled, _check_nan
    _enabled, _check_nan = bool(mode), bool(check_nan)


class detect_anomaly:
    """Context manager (and decorator) turning anomaly detection on for its block."""

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = check_nan
        self.prev = _enabled
        self.prev_check_nan = _check_nan
        warnings.warn(_WARNING, UserWarning, stacklevel=2)

    def __enter__(self) -> None:
        self.prev, self.prev_check_nan = _enabled, _check_nan
        _set(True, self.check_nan)

    def __exit__(self, *exc) -> None:
        _set(self.prev, self.prev_check_nan)

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with self.__class__(self.check_nan):
                return fn(*args, **kwargs)
        return wrapped


class set_detect_anomaly:
    """Turn anomaly detection on or off (at once; as a context manager, for its block)."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = _enabled, _check_nan
        _set(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        _set(self.prev, self.prev_check_nan)
