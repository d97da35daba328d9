"""Live behaviour: every kind of write refreshes, tensors are held weakly, cells are polled."""
from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

pytest.importorskip("anywidget", reason="the widget tests need anywidget (pip install "
                    "'tensorviz[widgets]')")

import tensorviz
from tensorviz.viz import Playground, show
from tensorviz.viz import _widgets

from vizhelpers import make


@pytest.fixture(autouse=True)
def only_this_tests_widgets():
    """Each test polls its own widgets: widgets left live by earlier tests (the whole suite
    in one process) would share the after-cell poll's time budget and, on a busy machine,
    push this test's widget out of a poll round."""
    for w in _widgets.live_widgets():
        w.close()
    yield


def strip_values(w, k: int = 0) -> list:
    s = w.strips[k]
    return np.frombuffer(s["values"], dtype="<" + s["wire"]).tolist()


def cell_values(w, k: int) -> list:
    t = w.tensors[k]
    return np.frombuffer(t["values"], dtype="<" + t["wire"]).tolist()


WRITES = {
    "setitem through a view": lambda a: a.t().__setitem__((0, 1), 100),
    "in-place op": lambda a: a.add_(100),
    "fill_ on a view": lambda a: a[0].fill_(100),
    "zero_": lambda a: a.zero_(),
    "copy_": lambda a: a[1].copy_(tensorviz.full((4,), 100)),
    "typed storage item": lambda a: a.storage().__setitem__(4, 100),
    "untyped storage item": lambda a: a.untyped_storage().__setitem__(32, 100),
    "mul_ on a strided view": lambda a: a[:, ::2].mul_(-1),
}


@pytest.mark.parametrize("write", list(WRITES), ids=list(WRITES))
def test_every_in_place_write_refreshes_within_the_cell(write):
    a = tensorviz.arange(12).reshape(3, 4)
    w = show(a, a.t(), a[1:, ::2])
    before = strip_values(w), w.revision
    WRITES[write](a)
    expected = a.flatten().tolist() if hasattr(a, "flatten") else None
    assert w.revision > before[1], "no refresh"
    assert strip_values(w) == expected != before[0]
    # every view of the storage sees the write
    assert cell_values(w, 1) == a.t().contiguous().flatten().tolist()


def test_writes_to_another_storage_do_not_refresh():
    a, b = tensorviz.arange(4), tensorviz.arange(4)
    w = show(a)
    rev = w.revision
    b.add_(1)
    assert w.revision == rev


def test_numpy_alias_writes_are_picked_up_by_polling():
    a = tensorviz.arange(12).reshape(3, 4)
    w = show(a.t())
    alias = a.numpy()
    alias[0, 1] = -7  # no version bump: NumPy does not tell anyone
    assert strip_values(w)[1] == 1
    _widgets.poll_all()
    assert strip_values(w)[1] == -7
    assert cell_values(w, 0)[3] == -7  # a.t()[1, 0] is a[0, 1]


@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_numpy_and_torch_writes_are_picked_up_by_polling(kind):
    t = make(kind, np.zeros(6))
    w = show(t)
    t[2] = 5
    w.poll()
    assert strip_values(w)[2] == 5


def test_the_widget_does_not_keep_the_tensor_alive():
    t = tensorviz.arange(10)
    w = show(t, t[::2])
    ref = weakref.ref(t)
    storage_ref = weakref.ref(t.untyped_storage())
    del t
    gc.collect()
    assert ref() is None and storage_ref() is None
    w.poll()
    assert not any(x["alive"] for x in w.tensors)
    assert "no longer exists" in w.status
    # the last known state is still drawn
    assert cell_values(w, 1) == [0, 2, 4, 6, 8]
    assert strip_values(w) == list(range(10))
    assert "freed" in repr(w)


def test_temporaries_stay_drawn_while_their_storage_lives():
    a = tensorviz.arange(6)
    w = show(a, a[::2])  # the slice object is gone as soon as show returns
    gc.collect()
    w.poll()
    assert all(x["alive"] for x in w.tensors)
    a.add_(10)
    assert cell_values(w, 1) == [10, 12, 14]


def test_one_of_several_freed():
    a, b = tensorviz.zeros(2), tensorviz.ones(2)
    w = show(a, b)
    del b
    gc.collect()
    w.refresh()
    assert [x["alive"] for x in w.tensors] == [True, False]
    assert "Some of these tensors" in w.status


def test_closing_stops_updates_and_listening():
    a = tensorviz.zeros(3)
    w = show(a)
    storage = a.untyped_storage()
    w.close()
    rev = w.revision
    a.add_(1)
    assert w.revision == rev
    assert w not in _widgets.live_widgets()
    assert not [r for r in (storage._listeners or []) if r() is not None]


def test_writes_are_throttled_but_the_last_one_is_flushed(monkeypatch):
    a = tensorviz.zeros(4)
    w = show(a)
    w._throttle_s = 10.0  # as in a notebook: at most one refresh per throttle period
    w._last_refresh = 0.0
    for _ in range(50):
        a.add_(1)
    assert strip_values(w) == [1, 1, 1, 1]  # the first write refreshed at once
    assert w._dirty
    _widgets.poll_all()  # what post_run_cell does when the cell ends
    assert strip_values(w) == [50, 50, 50, 50] and not w._dirty


def test_post_run_cell_hook_in_a_real_ipython_shell():
    pytest.importorskip("IPython")
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        shell.run_cell("import tensorviz\n"
                       "a = tensorviz.arange(12).reshape(3, 4)\n"
                       "w = tensorviz.show(a, a.t(), a[1:, ::2])", store_history=False)
        w = shell.user_ns["w"]
        assert [t["label"] for t in w.tensors] == ["a", "a.t()", "a[1:, ::2]"]
        assert any(s is shell for s in _widgets._HOOKED)
        shell.run_cell("a.numpy()[2, 3] = -1", store_history=False)
        assert strip_values(w)[11] == -1
        shell.run_cell("a.t()[0, 1] = 100", store_history=False)
        assert strip_values(w)[4] == 100
        shell.run_cell("v = a.t().show()", store_history=False)
        assert shell.user_ns["v"].tensors[0]["label"] == "a.t()"
        shell.run_cell("vs = [a]\nu = tensorviz.show(*vs)", store_history=False)
        assert shell.user_ns["u"].tensors[0]["label"] == "a"  # a cell's names are searched
        shell.run_cell("del a, w, vs\nimport gc\n_ = gc.collect()", store_history=False)
        assert "no longer exists" in w.status
    finally:
        shell.run_cell("w = v = u = vs = None", store_history=False)
        InteractiveShell.clear_instance()


def test_the_after_cell_poll_has_a_time_budget():
    for w in _widgets.live_widgets():  # only this test's widgets take part
        w.close()
    keep = [tensorviz.arange(4) for _ in range(6)]
    widgets = [show(t) for t in keep]
    for t in keep:
        t.numpy()[0] = 9  # alias writes: only a poll finds them
    assert _widgets.poll_all(budget_s=0.0) == 1  # at least one widget per cell
    polled = 1
    while polled < 6:
        polled += _widgets.poll_all(budget_s=0.0)
    # round-robin: after six polls of one widget each, every widget has been refreshed
    assert all(strip_values(w)[0] == 9 for w in widgets)
    assert _widgets.poll_all() >= 6


def test_a_freed_strip_keeps_its_last_values_and_never_merges_with_new_memory():
    keep = tensorviz.arange(3)
    copy = keep.clone()
    p = show(keep, copy)
    del keep
    gc.collect()
    p.refresh()
    strips = p.strips
    assert [s["alive"] for s in strips] == [False, True]
    assert strip_values(p, 0) == [0, 1, 2]  # the last known values stay drawn
    assert "0" in p.to_html() and "freed" in p.to_html()


def test_polling_without_changes_sends_nothing():
    a = tensorviz.arange(6)
    w = show(a, a[::2])
    rev = w.revision
    for _ in range(3):
        _widgets.poll_all()
    assert w.revision == rev  # no message, so no redraw in the page
    a.numpy()[1] = 7
    _widgets.poll_all()
    assert w.revision == rev + 1


def test_a_failed_refresh_is_reported_then_cleared_by_the_next_good_one(monkeypatch):
    a = tensorviz.arange(4)
    w = show(a)
    build = w._scene.build

    def broken():
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(w._scene, "build", broken)
    w._dirty = True
    _widgets.poll_all()
    assert w.status == "could not refresh: RuntimeError: disk on fire"
    monkeypatch.setattr(w._scene, "build", build)
    a.add_(1)
    assert w.status == "" and strip_values(w) == [1, 2, 3, 4]


def test_new_memory_at_a_freed_memory_s_address_is_listened_to():
    """CPython reuses addresses: a copy made after another was dropped may get its id."""
    x = tensorviz.arange(4)
    p = Playground(x, label="x")
    seen = set()
    for _ in range(200):
        copy = p.apply("clone")
        if id(copy.untyped_storage()) in seen:
            break  # the case this test is about
        seen.add(id(copy.untyped_storage()))
        del copy
        p.undo()
        gc.collect()
    else:
        pytest.skip("no freed address was reused")
    rev = p.revision
    copy.add_(1)
    assert p.revision > rev
    assert strip_values(p, 1) == [1, 2, 3, 4]
    assert len(p.strips) == 2


def test_every_widget_showing_a_storage_refreshes_on_one_write():
    a = tensorviz.arange(12).reshape(3, 4)
    w1, w2, w3 = show(a), show(a.t()[::2]), show(a.clone())
    rev3 = w3.revision
    a.t()[0, 1] = 100
    assert strip_values(w1)[4] == 100 and strip_values(w2)[4] == 100
    assert cell_values(w2, 0)[1] == 100  # a.t()[::2][0, 1] is a[1, 0]
    assert w3.revision == rev3  # a copy does not share the write


def test_showing_a_tensor_does_not_delay_freeing_its_memory():
    """``del t`` frees the memory at once, as it would without a widget (no cycle to collect)."""
    gc.collect()
    gc.disable()
    try:
        t = tensorviz.arange(10**6).reshape(1000, 1000)
        memory = weakref.ref(t.untyped_storage())
        w = show(t, t.t()[::2])
        t.add_(1)  # reads after a write
        w.scroll_storage(500)
        del t
        assert memory() is None  # no gc.collect(): reference counting alone freed it
        w.poll()
        assert "no longer exists" in w.status
    finally:
        gc.enable()


def test_a_temporary_freed_in_the_cell_that_drew_it_gets_no_warning():
    """show(tensor(3.5)) draws a value nothing can change: a snapshot, not an alarm; a variable
    deleted in a later cell still says it no longer exists."""
    pytest.importorskip("IPython")
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        shell.run_cell(
            "import gc, numpy as np, tensorviz\n"
            "ws = [tensorviz.show(tensorviz.tensor(3.5)),\n"
            "      tensorviz.show(np.arange(12).reshape(3, 4)[:, ::2]),\n"
            "      tensorviz.show(tensorviz.tensor([True, False])),\n"
            "      tensorviz.show(tensorviz.tensor([1 + 2j]))]\n"
            "b = tensorviz.zeros(3)\n"
            "mixed = tensorviz.show(b, tensorviz.ones(2))\n"
            "_ = gc.collect()", store_history=False)
        ws, mixed = shell.user_ns["ws"], shell.user_ns["mixed"]
        for w in ws:
            assert [t["alive"] for t in w.tensors] == [False]
            assert w.tensors[0]["temporary"] and w.strips[0]["temporary"]
            assert w.status == "" and "(snapshot)" in repr(w) and "freed" not in repr(w)
        assert mixed.status == "" and [t["alive"] for t in mixed.tensors] == [True, False]
        shell.run_cell("del b\n_ = gc.collect()", store_history=False)
        assert "no longer exist" in mixed.status  # a variable deleted later: it stops updating
        assert not mixed.tensors[0]["temporary"] and mixed.tensors[1]["temporary"]
    finally:
        shell.run_cell("ws = mixed = None", store_history=False)
        InteractiveShell.clear_instance()


def test_a_temporary_torch_tensor_gets_no_warning():
    pytest.importorskip("IPython")
    pytest.importorskip("torch")
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        shell.run_cell("import gc, torch, tensorviz\n"
                       "w = tensorviz.show(torch.arange(6.0).reshape(2, 3).t())\n"
                       "_ = gc.collect()", store_history=False)
        w = shell.user_ns["w"]
        assert w.status == "" and w.tensors[0]["temporary"] and not w.tensors[0]["alive"]
    finally:
        shell.run_cell("w = None", store_history=False)
        InteractiveShell.clear_instance()


def test_each_write_is_a_version_even_when_the_redraw_waits():
    X, Y = tensorviz.arange(3.0), tensorviz.ones(3)
    Z = tensorviz.zeros(3)
    w = show(Z)
    w._throttle_s = 10.0  # as in a notebook: later writes in the cell wait for one redraw
    w._last_refresh = 0.0
    Z[:] = X + Y
    Z += X
    tensorviz.add(X, Y, out=Z)
    _widgets.poll_all()
    assert w.history() == [[0.0, 0.0, 0.0], [1.0, 2.0, 3.0], [1.0, 3.0, 5.0], [1.0, 2.0, 3.0]]
    torch = pytest.importorskip("torch")  # the same program in PyTorch passes the same states
    tX, tY, tZ = torch.arange(3.0), torch.ones(3), torch.zeros(3)
    states = [tZ.tolist()]
    tZ[:] = tX + tY
    states.append(tZ.tolist())
    tZ += tX
    states.append(tZ.tolist())
    torch.add(tX, tY, out=tZ)
    states.append(tZ.tolist())
    assert w.history() == states


def test_history_is_bounded_and_follows_the_window():
    a = tensorviz.zeros(300)
    w = show(a, strip_slots=64)
    assert "history" not in w.strips[0]  # one version: nothing to step through
    for _ in range(40):
        a.add_(1)
    assert len(w.history()) == _widgets.HISTORY_VERSIONS and w.history()[-1][0] == 40.0
    a.numpy()[0] = -5  # a NumPy alias write is found by the after-cell poll
    _widgets.poll_all()
    assert w.history()[-1][0] == -5 and w.history()[-2][0] == 40.0
    w.scroll_storage(200)  # another window: the old versions do not line up with it
    assert "history" not in w.strips[0]
