"""Fresh op results and the quiet floating-point context behind small ops.

A row-major CPU result gets its storage (a flat view of the computed array) on first use; it
must then behave exactly like any other storage: one object for every view, writes through any
view seen by all, the version counter bumped, widgets' listeners called.  Floating-point
overflow gives inf/nan silently, as in PyTorch, from any thread and in nested calls.
"""
from __future__ import annotations

import gc
import threading
import warnings
import weakref

import numpy as np
import pytest

import tensorviz as tv
from tensorviz.backends._numpy import call_quiet

RESULTS = {
    "a + b": lambda a, b: a + b,
    "a * 2.0": lambda a, b: a * 2.0,
    "a > b": lambda a, b: a > b,
    "a @ b": lambda a, b: a @ b,
    "a.sum()": lambda a, b: a.sum(),
    "a.exp()": lambda a, b: a.exp(),
    "a.double()": lambda a, b: a.double(),
    "a.clone()": lambda a, b: a.clone(),
}


@pytest.mark.parametrize("make", RESULTS.values(), ids=list(RESULTS))
def test_a_fresh_result_has_one_storage_shared_by_its_views(make):
    a = tv.arange(9.0).reshape(3, 3)
    b = tv.ones(3, 3)
    r = make(a, b)
    expected = r.tolist()
    view = r.reshape(-1)[:1] if r.dim() else r.view(1)
    assert view.storage() is r.storage() and r.untyped_storage() is view.untyped_storage()
    assert r.data_ptr() == r.untyped_storage().data_ptr()
    assert len(r.storage()) == r.numel() and r.storage().tolist() == r.flatten().tolist()
    assert r._version == 0
    view.fill_(1 if r.dtype == tv.bool else 7)
    assert r._version == 1 and view._version == 1
    flat = r.flatten().tolist()
    assert flat[0] == view.item() and flat[1:] == np.ravel(expected).tolist()[1:]
    assert r.storage()[0] == view.item()


def test_a_fresh_result_notifies_storage_listeners_and_shares_numpy_aliases():
    r = tv.ones(2, 2) + tv.ones(2, 2)
    calls = []

    def listener():
        calls.append(r._version)

    r.untyped_storage()._add_listener(listener)
    alias = r.numpy()
    r.t()[0, 1] = 5.0  # through a view made after the listener
    assert calls == [1] and alias[1, 0] == 5.0
    alias[1, 1] = 9.0
    assert r[1, 1].item() == 9.0 and np.shares_memory(alias, r.untyped_storage()._data)


def test_fresh_results_are_freed_with_their_tensor():
    r = tv.ones(3) * 3.0
    st = weakref.ref(r.untyped_storage())
    ref = weakref.ref(r)
    del r
    gc.collect()
    assert ref() is None and st() is None


def test_unknown_attributes_still_raise_attribute_error():
    r = tv.ones(2) + 1
    with pytest.raises(AttributeError, match="'Tensor' object has no attribute 'no_such_thing'"):
        r.no_such_thing
    assert not hasattr(r, "no_such_thing")


BIG = 3e38


@pytest.mark.parametrize("op", [
    lambda L, t: t + t, lambda L, t: t * t, lambda L, t: t.sum(), lambda L, t: t @ t,
    lambda L, t: t.exp(), lambda L, t: t - (-t), lambda L, t: (t * 0) / 0,
    lambda L, t: t.to(L.float16),
], ids=["add", "mul", "sum", "matmul", "exp", "sub", "nan", "cast"])
def test_overflow_gives_inf_silently_as_in_pytorch(op):
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = op(tv, tv.full((3, 3), BIG))
        want = op(torch, torch.full((3, 3), BIG))
    assert got.dtype.name == str(want.dtype).split(".")[1]
    if got.dtype.is_floating_point:
        np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_numpy_outside_tensorviz_still_warns():
    big = np.full(3, BIG, np.float32)
    tv.full((3,), BIG) * 2  # a quiet op first
    with pytest.warns(RuntimeWarning, match="overflow"):
        np.multiply(big, big)


def test_quiet_calls_from_many_threads_and_nested_calls():
    big = np.full(4096, BIG, np.float32)  # large enough for NumPy to drop the GIL
    errors = []

    def work():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                for _ in range(300):
                    assert np.isinf(call_quiet(np.add, big, big)).all()
                    t = tv.from_numpy(big)
                    assert np.isinf((t + t).numpy()).all()
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    # A quiet call whose function makes another quiet call (the context is already entered).
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isinf(call_quiet(lambda: call_quiet(np.add, big, big))).all()


def test_errors_inside_a_quiet_call_pass_through_unchanged():
    def boom():
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="^boom$"):
        call_quiet(boom)


# In-range Python floats are stored by a shortcut once a dtype's limits are known; values at and
# past the limits, nan and inf must still get PyTorch's answers.
EDGE_FLOATS = [0.0, -0.0, 1.5, 65504.0, 65520.0, 1e5, -1e5, 3.4028234663852886e38, 3.5e38,
               -3.5e38, 1e300, float("inf"), float("-inf"), float("nan"), 5e-324]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_setitem_of_python_floats_as_in_pytorch(dtype):
    torch = pytest.importorskip("torch")
    for lib in (tv, torch):  # warm up: the limits are cached after a first checked store
        lib.zeros(1, dtype=getattr(lib, dtype))[0] = 1e300 if dtype == "float16" else 1.0
    for value in EDGE_FLOATS:
        outcomes = []
        for lib in (tv, torch):
            t = lib.zeros(2, 2, dtype=getattr(lib, dtype))
            try:
                t[1, 0] = value
                outcomes.append(("ok", t.tolist()))
            except Exception as e:
                outcomes.append(("error", type(e).__name__))
        got, want = outcomes
        if got[0] == want[0] == "ok":
            np.testing.assert_array_equal(np.array(got[1]), np.array(want[1]), err_msg=repr(value))
        else:
            assert got == want, value


def test_threads_asking_for_a_fresh_results_storage_get_the_same_one():
    for _ in range(50):
        r = tv.ones(64) + 1.0
        barrier = threading.Barrier(4)
        seen = []

        def ask():
            barrier.wait()
            seen.append(r.untyped_storage())

        threads = [threading.Thread(target=ask) for _ in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert all(st is seen[0] for st in seen) and r.untyped_storage() is seen[0]
