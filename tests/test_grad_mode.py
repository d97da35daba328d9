"""Grad mode against PyTorch: no_grad, enable_grad, set_grad_enabled, inference_mode,
is_grad_enabled, is_inference_mode_enabled (as context managers, decorators, on generators,
nested, with exceptions, per thread) and factories' requires_grad inside them.

Autograd is not implemented yet, so only the mode itself (and the flags factories set) is
compared; each scenario records what the queries answer at each step."""
from __future__ import annotations

import threading
import warnings

import numpy as np
import pytest

import tensorviz as tv
from tv_core_conftest import same

torch = pytest.importorskip("torch")


@pytest.fixture(autouse=True)
def _fresh_mode():
    """Every test starts, and leaves both libraries, with grad mode on."""
    tv.set_grad_enabled(True)
    torch.set_grad_enabled(True)
    yield
    tv.set_grad_enabled(True)
    torch.set_grad_enabled(True)
    assert not tv.is_inference_mode_enabled() and not torch.is_inference_mode_enabled()


def _state(L) -> tuple:
    return (L.is_grad_enabled(), L.is_inference_mode_enabled())


def _same_trace(fn):
    """``fn(L, log)`` appends states to ``log``; both libraries must log the same."""
    mine, theirs = [], []
    fn(tv, mine)
    fn(torch, theirs)
    tv.set_grad_enabled(True)
    torch.set_grad_enabled(True)
    assert mine == theirs, (mine, theirs)
    return mine


# ---------------------------------------------------------------- scenarios
def _nested(L, log):
    log.append(_state(L))
    with L.no_grad():
        log.append(_state(L))
        with L.enable_grad():
            log.append(_state(L))
            with L.no_grad():
                log.append(_state(L))
            log.append(_state(L))
        log.append(_state(L))
    log.append(_state(L))


def _set_as_function(L, log):
    r = L.set_grad_enabled(False)
    log.append((_state(L), type(r).__name__))
    L.set_grad_enabled(False)
    log.append(_state(L))
    L.set_grad_enabled(True)
    log.append(_state(L))


def _set_as_context(L, log):
    for mode in (False, True):
        with L.set_grad_enabled(mode):
            log.append(_state(L))
        log.append(_state(L))
    L.set_grad_enabled(False)
    with L.set_grad_enabled(True):
        log.append(_state(L))
    log.append(_state(L))


def _set_as_decorator(L, log):
    @L.set_grad_enabled(False)
    def f():
        return _state(L)

    log.append(_state(L))  # decorating does not change the mode
    log.append(f())
    log.append(_state(L))
    log.append(f())


def _decorators(L, log):
    @L.no_grad
    def bare(x):
        """doc"""
        return _state(L), x

    @L.no_grad()
    def called():
        return _state(L)

    @L.enable_grad
    def on():
        return _state(L)

    @L.inference_mode
    def inf_bare():
        return _state(L)

    @L.inference_mode()
    def inf_called():
        return _state(L)

    @L.inference_mode(False)
    def inf_off():
        return _state(L)

    log.append(bare(3))
    log.append((bare.__name__, bare.__doc__))
    log.append(called())
    with L.no_grad():
        log.append(on())
        log.append(_state(L))
    log.append(inf_bare())
    log.append(inf_called())
    with L.inference_mode():
        log.append(inf_off())
        log.append(_state(L))
    log.append(_state(L))


def _exceptions(L, log):
    for make in (L.no_grad, lambda: L.set_grad_enabled(False), L.inference_mode,
                 L.enable_grad):
        try:
            with make():
                log.append(_state(L))
                raise KeyError("x")
        except KeyError:
            log.append(_state(L))

    @L.no_grad()
    def boom():
        raise ValueError("y")

    try:
        boom()
    except ValueError:
        log.append(_state(L))
    L.set_grad_enabled(False)
    try:
        with L.enable_grad():
            raise KeyError("z")
    except KeyError:
        log.append(_state(L))


def _inference(L, log):
    with L.inference_mode():
        log.append(_state(L))
        with L.inference_mode(False):
            log.append(_state(L))
        with L.enable_grad():
            log.append(_state(L))
        with L.no_grad():
            log.append(_state(L))
        L.set_grad_enabled(True)
        log.append(_state(L))
        log.append(_state(L))
    log.append(_state(L))
    with L.no_grad():
        with L.inference_mode(False):
            log.append(_state(L))
        log.append(_state(L))
        with L.inference_mode(True):
            log.append(_state(L))
        log.append(_state(L))
    with L.inference_mode(mode=False):
        log.append(_state(L))
    im = L.inference_mode()
    for _ in range(2):  # one object used twice in a row
        with im:
            log.append(_state(L))
        log.append(_state(L))


def _generator(L, log):
    @L.no_grad()
    def gen():
        got = yield _state(L)
        log.append(("sent", got, _state(L)))
        try:
            yield _state(L)
        except KeyError:
            log.append(("thrown", _state(L)))
            yield "after-throw"
        try:
            yield _state(L)
        finally:
            log.append(("closing", _state(L)))
        return "done"

    g = gen()
    log.append(next(g))
    log.append(_state(L))
    log.append(g.send(5))
    log.append(_state(L))
    log.append(g.throw(KeyError("k")))
    log.append(_state(L))
    log.append(next(g))
    g.close()
    log.append(_state(L))

    @L.no_grad
    def short():
        yield _state(L)
        return 7

    g2 = short()
    log.append(next(g2))
    try:
        next(g2)
    except StopIteration as e:
        log.append(("stop", e.value, _state(L)))

    @L.inference_mode()
    def inf():
        yield _state(L)
        yield _state(L)

    with L.no_grad():
        log.append(list(inf()))
        log.append(_state(L))


def _threads(L, log):
    seen = []

    def worker():
        seen.append(_state(L))
        L.set_grad_enabled(False)  # only this thread's mode
        seen.append(_state(L))

    L.set_grad_enabled(False)
    t = threading.Thread(target=worker)
    t.start()
    t.join()
    log.append(_state(L))
    L.set_grad_enabled(True)
    with L.inference_mode():
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        log.append(_state(L))
    with L.no_grad():
        t = threading.Thread(target=worker)
        t.start()
        t.join()
    log.extend(seen)


SCENARIOS = [_nested, _set_as_function, _set_as_context, _set_as_decorator, _decorators,
             _exceptions, _inference, _generator, _threads]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.__name__[1:] for s in SCENARIOS])
def test_grad_mode_matches_pytorch(scenario):
    _same_trace(scenario)


def test_threads_do_not_see_each_others_mode():
    """Two threads switching the mode at once each keep their own (tensorviz only)."""
    barrier = threading.Barrier(2)
    errors = []

    def worker(mode):
        try:
            with tv.set_grad_enabled(mode):
                for _ in range(200):
                    barrier.wait()
                    if tv.is_grad_enabled() is not mode:
                        errors.append(mode)
        except threading.BrokenBarrierError:  # pragma: no cover
            errors.append("barrier")

    ts = [threading.Thread(target=worker, args=(m,)) for m in (True, False)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors and tv.is_grad_enabled()


# ---------------------------------------------------------------- factories inside the modes
FACTORIES = [
    lambda L: L.tensor([1.0, 2.0], requires_grad=True),
    lambda L: L.ones(2, requires_grad=True),
    lambda L: L.zeros(2, 3, requires_grad=True),
    lambda L: L.empty(2, requires_grad=True),
    lambda L: L.full((2,), 1.5, requires_grad=True),
    lambda L: L.arange(3.0, requires_grad=True),
    lambda L: L.linspace(0, 1, 3, requires_grad=True),
    lambda L: L.eye(2, requires_grad=True),
    lambda L: L.zeros_like(L.ones(2), requires_grad=True),
    lambda L: L.randn(2, requires_grad=True),
    lambda L: L.ones(2).requires_grad_(),
    lambda L: L.tensor([1, 2], requires_grad=True),
]


@pytest.mark.parametrize("mode", ["no_grad", "set_grad_enabled", "inference_mode"])
@pytest.mark.parametrize("k", range(len(FACTORIES)))
def test_factories_keep_requires_grad_inside_the_modes(mode, k):
    def run(L):
        ctx = {"no_grad": L.no_grad, "set_grad_enabled": lambda: L.set_grad_enabled(False),
               "inference_mode": L.inference_mode}[mode]
        with ctx():
            t = FACTORIES[k](L)
            return (t.requires_grad, t.is_leaf, L.is_grad_enabled())
    same(run)


def test_setting_requires_grad_inside_no_grad_matches_pytorch():
    def run(L):
        x = L.ones(2)
        with L.no_grad():
            x.requires_grad = True
            y = L.ones(2).requires_grad_()
        return (x.requires_grad, y.requires_grad)
    same(run)


# ---------------------------------------------------------------- errors, names, reprs
ERRORS = [
    lambda L: L.set_grad_enabled(1),
    lambda L: L.set_grad_enabled(None),
    lambda L: L.set_grad_enabled(np.bool_(False)),
    lambda L: L.set_grad_enabled(L.tensor(False)),
    lambda L: L.set_grad_enabled(),
    lambda L: L.set_grad_enabled(mode=False).mode,
    lambda L: L.is_grad_enabled(1),
    lambda L: L.is_inference_mode_enabled(True),
    lambda L: L.no_grad(None).__class__.__name__,
    lambda L: L.enable_grad(None).__class__.__name__,
    lambda L: callable(L.inference_mode(1)),
    lambda L: callable(L.no_grad()(1)),
    lambda L: L.no_grad().__enter__(),
    lambda L: L.inference_mode(mode=False).mode,
    lambda L: L.set_grad_enabled(True).clone().mode,
    lambda L: L.inference_mode(False).clone().mode,
]


@pytest.mark.parametrize("k", range(len(ERRORS)))
def test_calls_and_errors_match_pytorch(k):
    mine, theirs = same(ERRORS[k])
    if isinstance(theirs, TypeError) and "set_grad_enabled" in str(theirs):
        assert str(mine) == str(theirs)


def test_decorating_a_class_warns_as_pytorch():
    for L in (tv, torch):
        class A:
            def __init__(self):
                self.state = L.is_grad_enabled()

        with pytest.warns(FutureWarning, match="Decorating classes is deprecated"):
            wrapped = L.no_grad()(A)
        assert wrapped().state is False


def test_names_and_reprs_are_pytorchs_with_tensorviz_for_torch():
    for name in ("no_grad", "enable_grad", "set_grad_enabled", "inference_mode"):
        mine, theirs = getattr(tv, name), getattr(torch, name)
        assert mine.__module__ == theirs.__module__.replace("torch", "tensorviz")
        assert getattr(tv.autograd, name) is mine
        assert getattr(tv.autograd.grad_mode, name) is mine
    assert repr(tv.set_grad_enabled(False)) == \
        repr(torch.set_grad_enabled(False)).replace("torch", "tensorviz")
    assert str(tv.set_grad_enabled(True)) == \
        str(torch.set_grad_enabled(True)).replace("torch", "tensorviz")
    assert tv.typename(tv.no_grad()) == torch.typename(torch.no_grad()).replace("torch",
                                                                                "tensorviz")
    assert tv.typename(tv.inference_mode) == \
        torch.typename(torch.inference_mode).replace("torch", "tensorviz")


def test_grad_mode_is_exported_like_pytorch():
    for name in ("no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
                 "is_grad_enabled", "is_inference_mode_enabled"):
        assert name in tv.__all__ and hasattr(torch, name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        import tensorviz.autograd.grad_mode as gm
    assert gm.no_grad is tv.no_grad
