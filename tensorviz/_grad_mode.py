"""Grad mode: ``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``inference_mode`` and the
``is_grad_enabled`` / ``is_inference_mode_enabled`` queries, with PyTorch's semantics.

The state is thread-local, as PyTorch's: each thread starts with grad mode on and inference
mode off, and a block changes only its own thread.  Every class works as a context manager
and as a decorator (generator functions included: the mode is set each time the generator
runs and restored each time it yields, as PyTorch does); ``no_grad``/``enable_grad`` decorate
with or without parentheses, and ``set_grad_enabled(mode)`` also takes effect at once when
called as a plain function.

Entering ``inference_mode(m)`` sets grad mode to ``not m`` and inference mode to ``m``;
leaving it restores both, as PyTorch's ``c10::InferenceMode`` guard does.

Autograd itself is not implemented in tensorviz yet, so these only keep the mode: no
gradients are computed anywhere and no op reads the mode.  Factories given
``requires_grad=True`` set the flag whatever the mode, as PyTorch's leaf factories do.
"""
from __future__ import annotations

import functools
import inspect
import sys
import threading
import warnings
from typing import Any, Callable

# Note: autograd is not implemented yet: this module only keeps the thread's grad / inference
# mode (no op reads it and no gradients are computed anywhere).

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled"]

_MODULE = "tensorviz.autograd.grad_mode"  # (where PyTorch's classes live: torch.autograd...)


class _State(threading.local):
    """Per-thread mode; the class attributes are each new thread's starting values.

    ``user_grad`` is the grad mode the learner's code set (these classes); ``grad`` is that
    too, except while autograd itself turns it off around an op's kernel or a backward pass:
    a view made there is no "view made under no_grad".
    """

    grad = True
    inference = False
    user_grad = True


_STATE = _State()

#: Called on entering inference mode: autograd installs its recording spellings then, which
#: mark the tensors made inside as inference tensors.
on_inference_mode = None

#: Called as ``fn(mode, entering)`` when a ``no_grad`` or ``inference_mode`` block is entered
#: or left (``mode``: "no_grad" / "inference_mode"): the graph widget marks these regions.
mode_listeners: list = []


def _tell(mode: str, entering: bool) -> None:
    for fn in list(mode_listeners):
        try:
            fn(mode, entering)
        except Exception:  # a listener never breaks the learner's block
            pass


def is_grad_enabled() -> bool:
    """True if grad mode is currently enabled (in this thread)."""
    return _STATE.grad


def is_inference_mode_enabled() -> bool:
    """True if inference mode is currently enabled (in this thread)."""
    return _STATE.inference


def _set_grad_enabled(mode) -> None:
    if type(mode) is not bool:
        kind = type(mode)
        name = kind.__name__ if kind.__module__ in ("builtins", "tensorviz", "tensorviz._tensor") else \
            f"{kind.__module__}.{kind.__name__}"
        raise TypeError(f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, "
                        f"not {name}")
    _STATE.grad = _STATE.user_grad = mode


# ---------------------------------------------------------------- decorator machinery
def _wrap_generator(ctx_factory: Callable, func: Callable) -> Callable:
    """A generator function whose every resumption runs inside a fresh context."""

    @functools.wraps(func)
    def generator_context(*args, **kwargs):
        gen = func(*args, **kwargs)
        try:
            with ctx_factory():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with ctx_factory():
                        gen.close()
                    raise
                except BaseException:
                    with ctx_factory():
                        response = gen.throw(*sys.exc_info())
                else:
                    with ctx_factory():
                        response = gen.send(request)
        except StopIteration as e:
            return e.value

    return generator_context


def _context_decorator(ctx_factory: Callable, func: Callable) -> Callable:
    if inspect.isclass(func):
        raise RuntimeError(
            "Cannot decorate classes; it is ambiguous whether or not only the constructor or "
            "all methods should have the context manager applied; additionally, decorating a "
            "class at definition-site will prevent use of the identifier as a conventional "
            "type.  To specify which methods to decorate, decorate each of them individually.")
    if inspect.isgeneratorfunction(func):
        return _wrap_generator(ctx_factory, func)

    @functools.wraps(func)
    def decorate_context(*args, **kwargs):
        with ctx_factory():
            return func(*args, **kwargs)

    return decorate_context


class _DecoratorContextManager:
    """A context manager that is also a decorator (a fresh copy per call of the function)."""

    def __call__(self, orig_func: Callable) -> Callable:
        if inspect.isclass(orig_func):
            warnings.warn(
                "Decorating classes is deprecated and will be disabled in future versions. "
                "You should only decorate functions or methods. To preserve the current "
                "behavior of class decoration, you can directly decorate the `__init__` "
                "method and nothing else.", FutureWarning, stacklevel=2)
            func = lambda *args, **kwargs: orig_func(*args, **kwargs)  # noqa: E731
        else:
            func = orig_func
        return _context_decorator(self.clone, func)

    def __enter__(self) -> None:
        raise NotImplementedError

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        raise NotImplementedError

    def clone(self):
        return self.__class__()


class _NoParamDecoratorContextManager(_DecoratorContextManager):
    """Also a decorator without parentheses: ``@no_grad`` as well as ``@no_grad()``."""

    def __new__(cls, orig_func: Callable | None = None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


# ---------------------------------------------------------------- the modes
class no_grad(_NoParamDecoratorContextManager):
    """Context manager (and decorator) that disables grad mode in this thread.

    # Note: autograd is not implemented yet, so this only keeps the mode (``is_grad_enabled()``
    # is False inside); no gradients are computed anywhere.  As in PyTorch, factories given
    # ``requires_grad=True`` inside the block still return tensors that require grad.
    """

    def __init__(self) -> None:
        self.prev = False

    def __enter__(self) -> None:
        self.prev = _STATE.grad
        self.prev_user = _STATE.user_grad
        _STATE.grad = _STATE.user_grad = False
        if mode_listeners:
            _tell("no_grad", True)

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        _STATE.grad = self.prev
        _STATE.user_grad = self.prev_user
        if mode_listeners:
            _tell("no_grad", False)


class enable_grad(_NoParamDecoratorContextManager):
    """Context manager (and decorator) that enables grad mode in this thread.

    # Note: autograd is not implemented yet, so this only keeps the mode.
    """

    def __enter__(self) -> None:
        self.prev = _STATE.grad
        self.prev_user = _STATE.user_grad
        _STATE.grad = _STATE.user_grad = True

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        _STATE.grad = self.prev
        _STATE.user_grad = self.prev_user


class set_grad_enabled(_DecoratorContextManager):
    """Set grad mode on or off: at once when called (``set_grad_enabled(False)``), for a block
    (``with set_grad_enabled(is_train):``), or for a function (as a decorator).

    # Note: autograd is not implemented yet, so this only keeps the mode.
    """

    def __init__(self, mode: bool) -> None:
        self.prev = _STATE.grad
        self.prev_user = _STATE.user_grad
        self.mode = mode
        _set_grad_enabled(mode)

    def __call__(self, orig_func: Callable) -> Callable:
        # (as a decorator it must not change the mode now)
        _STATE.grad, _STATE.user_grad = self.prev, self.prev_user
        return super().__call__(orig_func)

    def __enter__(self) -> None:
        _STATE.grad = _STATE.user_grad = self.mode

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        _STATE.grad = self.prev
        _STATE.user_grad = self.prev_user

    def __str__(self) -> str:
        return f"{_MODULE}.set_grad_enabled(mode={self.mode})"

    def __repr__(self) -> str:
        return str(self)

    def clone(self) -> "set_grad_enabled":
        return self.__class__(self.mode)


class inference_mode(_DecoratorContextManager):
    """Context manager (and decorator) for inference mode: ``inference_mode()`` /
    ``inference_mode(True)`` turns inference mode on and grad mode off; ``inference_mode(False)``
    turns inference mode off and grad mode on; leaving the block restores both.

    # Note: autograd is not implemented yet, so this only keeps the mode; tensors made inside
    # are ordinary tensors (PyTorch's "inference tensors" are not modelled).
    """

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)  # (``@inference_mode`` without parentheses)

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def __enter__(self) -> None:
        # a stack: the same object may be entered again (re-entrant use) before it is left
        self.__dict__.setdefault("_prev", []).append((_STATE.grad, _STATE.inference,
                                                       _STATE.user_grad))
        _STATE.grad = _STATE.user_grad = not self.mode
        _STATE.inference = bool(self.mode)
        if self.mode and on_inference_mode is not None:
            on_inference_mode()
        if self.mode and mode_listeners:
            _tell("inference_mode", True)

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        _STATE.grad, _STATE.inference, _STATE.user_grad = self._prev.pop()
        if self.mode and mode_listeners:
            _tell("inference_mode", False)

    def clone(self) -> "inference_mode":
        return self.__class__(self.mode)


for _cls in (no_grad, enable_grad, set_grad_enabled, inference_mode):
    _cls.__module__ = _MODULE
del _cls
