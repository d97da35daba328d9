"""Storages: shared by views, typed and untyped access, repr, the version counter, listeners.

Where PyTorch answers the same question it is asked too (``torch = importorskip``).
"""
from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

import tensorviz as tv
from tv_core_conftest import same

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.usefixtures("quiet_typed_storage")


def both(data, **kw):
    return tv.tensor(data, **kw), torch.tensor(data, **{k: getattr(torch, v.name)
                                                          for k, v in kw.items()})


# ---------------------------------------------------------------- sharing
def test_views_share_one_storage_object(devices):
    a = tv.arange(12.0, device=devices).reshape(3, 4)
    assert a.storage() is a.t().storage() is a[1:, ::2].storage()
    assert a.untyped_storage() is a.view(tv.int32).untyped_storage()
    assert a.untyped_storage() is a.view(tv.uint8).untyped_storage()
    assert a.view(tv.int32).storage() is not a.storage()
    assert a.view(tv.int32).storage().untyped() is a.untyped_storage()
    assert a.clone().untyped_storage() is not a.untyped_storage()
    assert a.storage().data_ptr() == a.untyped_storage().data_ptr() == a.data_ptr()
    assert a[1].data_ptr() == a.data_ptr() + 4 * 4


def test_storage_of_a_dtype_view_counts_its_elements():
    a, p = both([[1.0, 2.0], [3.0, 4.0]])
    for dt in ("int32", "int16", "uint8", "float64", "complex64"):
        s, q = a.view(getattr(tv, dt)).storage(), p.view(getattr(torch, dt)).storage()
        assert len(s) == len(q) and s.size() == q.size() and s.nbytes() == q.nbytes()
        assert s.element_size() == q.element_size()
        assert np.array_equal(np.array(s.tolist()), np.array(q.tolist()))


# ---------------------------------------------------------------- typed storage API
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64", "float16", "float32",
                                   "float64", "complex128"])
def test_typed_storage_matches_pytorch(dtype):
    data = [[1, 0, 3], [4, 5, 6]]
    a, p = both(data, dtype=getattr(tv, dtype))
    s, q = a.t().storage(), p.t().storage()
    assert len(s) == len(q) == 6
    assert s.size() == q.size() and s.nbytes() == q.nbytes()
    assert s.element_size() == q.element_size()
    assert s.tolist() == q.tolist() and list(s) == list(q)
    assert [s[i] for i in range(-6, 6)] == [q[i] for i in range(-6, 6)]
    assert type(s[0]) is type(q[0])
    assert repr(s) == repr(q).replace("torch.", "tensorviz.")
    assert str(s) == str(q).replace("torch.", "tensorviz.")
    assert s.type() == q.type().replace("torch.", "tensorviz.")
    assert s.dtype.name == dtype and s.device == tv.device("cpu")
    assert not s.is_cuda


def test_untyped_storage_matches_pytorch():
    a, p = both([[1.5, -2.0], [3.0, 4.25]])
    u, v = a.untyped_storage(), p.untyped_storage()
    assert len(u) == len(v) == u.nbytes() == v.nbytes() == u.size() == 16
    assert u.element_size() == v.element_size() == 1
    assert u.tolist() == v.tolist() and list(u) == list(v)
    assert u[3] == v[3] and u[-1] == v[-1]
    assert u[4:8].tolist() == v[4:8].tolist()
    assert repr(u) == repr(v).replace("torch.", "tensorviz.")
    assert repr(tv.UntypedStorage(0)) == repr(torch.UntypedStorage(0)).replace("torch.",
                                                                                 "tensorviz.")
    assert tv.UntypedStorage([1, 2, 255]).tolist() == [1, 2, 255]
    assert tv.UntypedStorage(5).nbytes() == 5
    assert tv.storage.UntypedStorage is tv.UntypedStorage
    assert tv.is_storage(u) and tv.is_storage(a.storage()) and not tv.is_storage(a)


def test_storage_slices_share_memory():
    a = tv.zeros(4, dtype=tv.uint8)
    part = a.untyped_storage()[1:3]
    part[0] = 9
    assert a.tolist() == [0, 9, 0, 0]


def test_storage_writes_are_seen_through_every_view(devices):
    a = tv.zeros(2, 3, device=devices)
    views = [a, a.t(), a[1], a.view(6), a.unsqueeze(0).expand(2, 2, 3)]
    a.storage()[4] = 7
    for v in views:
        assert 7.0 in v.flatten().tolist()
    assert a.t()[1, 1].item() == 7.0
    a.storage().fill_(1.5)
    assert a.view(6).tolist() == [1.5] * 6
    a.storage().copy_(tv.arange(6.0).storage())
    assert a.t().tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    c = a.storage().clone()
    c[0] = 100
    assert a[0, 0].item() == 0.0 and c.dtype is tv.float32


@pytest.mark.parametrize("call", [
    lambda s: s[6],
    lambda s: s[-7],
    lambda s: s.__setitem__(6, 1.0),
    lambda s: s[1.0],
    lambda s: s[0:2],
    lambda s: s.__setitem__(0, 1e300),
    lambda s: s.__setitem__(0, 1 + 2j),
])
def test_typed_storage_errors_match_pytorch(call):
    s, q = tv.zeros(2, 3).storage(), torch.zeros(2, 3).storage()
    with pytest.raises(Exception) as theirs:
        call(q)
    with pytest.raises(theirs.type):
        call(s)


@pytest.mark.parametrize("value", [2 ** 70, -(2 ** 64), 2 ** 63])
def test_typed_storage_int_overflow_matches_pytorch(value):
    s, q = tv.arange(3).storage(), torch.arange(3).storage()
    with pytest.raises(Exception) as theirs:
        q[0] = value
    with pytest.raises(theirs.type):
        s[0] = value


@pytest.mark.parametrize("data", [[300, -1, 256, 2 ** 40], (1, 2), [True, 3], b"ab",
                                  bytearray(b"\x00\xff"), [1.5], ["a"]])
def test_untyped_storage_from_a_sequence_like_pytorch(data):
    try:
        expected = torch.UntypedStorage(data).tolist()
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        with pytest.raises(type(e)):
            tv.UntypedStorage(data)
    else:
        assert tv.UntypedStorage(data).tolist() == expected


def test_typed_storage_copy_errors_against_pytorch():
    with pytest.raises(RuntimeError, match="size does not match"):
        tv.zeros(3).storage().copy_(tv.zeros(4).storage())
    with pytest.raises(RuntimeError):
        torch.zeros(3).storage().copy_(torch.zeros(4).storage())


@pytest.mark.parametrize("call", [
    lambda s: s[16],
    lambda s: s[1.0],
    lambda s: s[0:8:2],
    lambda s: s.__setitem__(0, 1.5),
])
def test_untyped_storage_errors_match_pytorch(call):
    u, v = tv.zeros(4).untyped_storage(), torch.zeros(4).untyped_storage()
    with pytest.raises(Exception) as theirs:
        call(v)
    with pytest.raises(theirs.type):
        call(u)


def test_untyped_storage_item_assignment_wraps_bytes_like_pytorch():
    u, v = tv.zeros(2).untyped_storage(), torch.zeros(2).untyped_storage()
    for i, value in enumerate([300, -1, 7]):
        u[i] = value
        v[i] = value
    assert u.tolist() == v.tolist()


def test_storage_constructor_errors():
    for bad in ("abc", 1.5, None):
        with pytest.raises(RuntimeError):
            tv.UntypedStorage(bad)
        with pytest.raises(RuntimeError):
            torch.UntypedStorage(bad)
    with pytest.raises(RuntimeError):
        tv.UntypedStorage(-1)


TYPED_NEW = [
    lambda L: L.TypedStorage().size(), lambda L: L.TypedStorage(3).size(),
    lambda L: L.TypedStorage([1, 2, 3]).tolist(), lambda L: L.TypedStorage([1.5, 2]).dtype,
    lambda L: L.TypedStorage([1, 2], dtype=L.int32).tolist(),
    lambda L: L.TypedStorage([1.5], dtype=L.int64).tolist(),
    lambda L: L.TypedStorage([[1, 2], [3, 4]]).tolist(), lambda L: L.TypedStorage([]).size(),
    lambda L: L.TypedStorage(3, dtype=L.int8).nbytes(), lambda L: L.TypedStorage(2.5),
    lambda L: L.TypedStorage(-1), lambda L: L.TypedStorage("ab"),
    lambda L: L.TypedStorage(L.arange(3)), lambda L: L.TypedStorage([300], dtype=L.uint8),
    lambda L: L.TypedStorage(wrap_storage=L.arange(3).untyped_storage(), dtype=L.int32).tolist(),
    lambda L: L.TypedStorage(wrap_storage=L.arange(3).untyped_storage()),
    lambda L: repr(L.TypedStorage([1, 2])).replace("torch.", "").replace("tensorviz.", ""),
]


@pytest.mark.parametrize("fn", TYPED_NEW, ids=[f"typednew{i}" for i in range(len(TYPED_NEW))])
def test_typed_storage_constructor_matches_pytorch(fn):
    same(fn)


@pytest.mark.parametrize("conv", ["double", "float", "half", "int", "long", "short", "char",
                                  "byte", "bool", "complex_float", "complex_double"])
def test_typed_storage_conversions_match_pytorch(conv):
    same(lambda L: getattr(L.tensor([0, 1.5, -2.0]).storage(), conv)().tolist())
    same(lambda L: getattr(L.tensor([0, 1.5, -2.0]).storage(), conv)().dtype)
    for lib in (tv, torch):
        s = lib.arange(3).storage()
        assert not s.is_shared() and not s.is_pinned() and s.share_memory_() is s
        assert not lib.arange(3).untyped_storage().is_shared()


def test_typed_storage_wrapping_shares_memory():
    a = tv.arange(3)
    s = tv.TypedStorage(wrap_storage=a.untyped_storage(), dtype=tv.int32)
    s[2] = 7
    assert a.tolist() == [0, 7, 2] and s.untyped() is a.untyped_storage()


# ---------------------------------------------------------------- the version counter
def _version_script(lib):
    a = lib.zeros(3, 4)
    v, w = a.t(), a[1]
    steps = [
        lambda: a.add_(1), lambda: v.mul_(2), lambda: w.fill_(3), lambda: a.__setitem__((0, 1), 5),
        lambda: v.__setitem__(slice(None), lib.ones(3)), lambda: a.__setitem__(a > 2, 0),
        lambda: a.__setitem__([0, 2], 7.0), lambda: a.zero_(), lambda: a.copy_(lib.ones(4)),
        lambda: a.clamp_(0, 0.5), lambda: w.__iadd__(1), lambda: a.__setitem__(Ellipsis, a + a),
        lambda: a.view(12).__setitem__(slice(1, 3), lib.tensor([1.0, 2.0])),
        lambda: a.div_(2), lambda: a.neg_(), lambda: a.abs_(), lambda: a.pow_(2),
        lambda: a.sub_(a), lambda: a.__setitem__(0, 1), lambda: a.clone().add_(1),
        lambda: a.detach().add_(1), lambda: a.unsqueeze_(0), lambda: a.squeeze_(0),
        lambda: a.t_(), lambda: a.transpose_(0, 1), lambda: a + 1, lambda: a.view(4, 3),
        lambda: a.contiguous(), lambda: a.to(lib.float64), lambda: a.fill_(2),
        lambda: a.add_(lib.ones(4), alpha=2), lambda: a.__setitem__(a < 0, lib.tensor(1.0)),
    ]
    versions = []
    for step in steps:
        step()
        versions.append((a._version, v._version, w._version))
    return versions


def test_version_counter_moves_like_pytorchs():
    assert _version_script(tv) == _version_script(torch)


def test_new_tensors_start_at_version_zero():
    for t in (tv.zeros(2), tv.tensor([1]), tv.from_numpy(np.zeros(2)), tv.zeros(2).clone()):
        assert t._version == 0


def test_storage_item_assignment_tells_widgets_but_not_autograd():
    # As PyTorch, t._version does not move on storage-level writes; the storage's own count
    # (what widgets listen to) does, so they redraw.
    a = tv.zeros(3)
    a.storage()[0] = 1.0
    a.untyped_storage()[0] = 1
    a.storage().fill_(0)
    assert a._version == 0 and a.storage()._version == 3
    t = torch.zeros(3)
    t.untyped_storage()[0] = 1
    assert t._version == 0


# ---------------------------------------------------------------- listeners
class _Owner:
    def __init__(self):
        self.calls = 0

    def on_write(self):
        self.calls += 1


def test_listeners_are_called_after_each_write():
    a = tv.zeros(4)
    owner = _Owner()
    a.untyped_storage()._add_listener(owner.on_write)
    a[0] = 1
    a.t().add_(1)
    a.storage()[2] = 5
    assert owner.calls == 3
    a.untyped_storage()._remove_listener(owner.on_write)
    a.zero_()
    assert owner.calls == 3


def test_listeners_are_held_weakly():
    a = tv.zeros(4)
    owner = _Owner()
    a.untyped_storage()._add_listener(owner.on_write)
    calls = []

    def plain():
        calls.append(1)

    a.untyped_storage()._add_listener(plain)
    del owner
    gc.collect()
    a.add_(1)  # the dead listener is dropped, the live one called
    assert calls == [1]
    assert len(a.untyped_storage()._listeners) == 1
    del plain
    gc.collect()
    a.add_(1)
    assert a.untyped_storage()._listeners == []


def test_a_listener_does_not_keep_its_tensor_alive():
    import weakref
    a = tv.zeros(4)
    owner = _Owner()
    owner.tensor = a
    a.untyped_storage()._add_listener(owner.on_write)
    ref = weakref.ref(a)
    owner_ref = weakref.ref(owner)
    del a, owner
    gc.collect()
    assert ref() is None and owner_ref() is None


def test_a_failing_listener_does_not_undo_the_write():
    t = tv.zeros(3)

    def broken():
        raise ValueError("observer bug")

    t.untyped_storage()._add_listener(broken)
    with pytest.warns(RuntimeWarning, match="observer bug"):
        t[0] = 5.0
    assert t.tolist() == [5.0, 0.0, 0.0] and t._version == 1


def test_typed_storages_do_not_keep_memory_alive_past_del():
    """The cached TypedStorage must not form a reference cycle with its UntypedStorage:
    the memory goes as soon as the last tensor does, without a garbage collection."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        for make in (lambda: tv.zeros(1000), lambda: tv.arange(12.0).reshape(3, 4).t(),
                     lambda: tv.from_numpy(np.zeros(5))):
            t = make()
            s = t.storage()
            assert s is t.storage() is t.t().storage()  # one object while it is held
            assert t.untyped_storage()._typed_storage(tv.uint8).untyped() is t.untyped_storage()
            del s
            ref = weakref.ref(t.untyped_storage())
            data = weakref.ref(t.storage())  # (dropped at once: only the cache saw it)
            assert data() is None
            t.storage()
            del t
            assert ref() is None
    finally:
        if enabled:
            gc.enable()
