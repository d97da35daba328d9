"""``torch``-style access to the installed spellings, for code above the ops (autograd's
formulas, gradcheck): ``T.where(...)`` is whatever ``tensorviz.where`` is bound to right now
-- the recording spelling once autograd is armed, so formulas run under
``create_graph=True`` are recorded themselves -- without importing the package from below.
"""
from __future__ import annotations

from .. import _dispatch, _dtypes, _grad_mode

__all__ = ["T"]


class _Namespace:
    """Attribute access to one op namespace (``torch``, ``linalg``, ``special`` ...)."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr: str):
        fns = _dispatch.installed(self._name)
        fn = fns.get(attr)
        if fn is not None:
            return fn
        if self._name == "torch":
            if attr in ("linalg", "special", "fft"):
                return _Namespace(attr)
            for module in (_dtypes, _grad_mode):
                if hasattr(module, attr):
                    return getattr(module, attr)
        raise AttributeError(f"no op {attr!r} in namespace {self._name!r}")


T = _Namespace("torch")
