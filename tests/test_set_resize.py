"""``Tensor.set_``, ``resize_`` and ``resize_as_`` against PyTorch: the layout (shape, strides,
offset), the storage's size, the values, storage sharing, the version counter and the
exception types, for every overload.

One deliberate difference is tested on tensorviz alone: ``set_`` past the end of a storage
is refused (PyTorch grows the storage).  ``resize_`` (and an ``out=``) that must grow grows
the same storage object in place, as PyTorch's: every view of it sees what is written next.
"""
from __future__ import annotations


import numpy as np
import pytest

import tensorviz as tv
from tv_core_conftest import same

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.usefixtures("quiet_typed_storage")


def layout(t, version: bool = True):
    """What a differential case compares: layout, storage bytes, values (and the version)."""
    out = (tuple(t.shape), t.stride(), t.storage_offset(), t.untyped_storage().nbytes(),
           t.tolist())
    return out + (t._version,) if version else out


def _storage(lib):
    return lib.arange(10.0).storage()


# ---------------------------------------------------------------- set_
SET_ARGS = {
    "none": lambda lib: (),
    "tensor": lambda lib: (lib.arange(12.0).reshape(3, 4)[1:, ::2],),
    "tensor_0dim": lambda lib: (lib.arange(12.0)[5],),
    "tensor_offset_size": lambda lib: (lib.arange(10.0), 1, (2,)),
    "tensor_offset_size_stride": lambda lib: (lib.arange(10.0), 1, (2,), (3,)),
    "typed": lambda lib: (_storage(lib),),
    "typed_offset_size": lambda lib: (_storage(lib), 2, (2, 3)),
    "typed_offset_size_stride": lambda lib: (_storage(lib), 2, (2, 3), (1, 2)),
    "typed_size_list": lambda lib: (_storage(lib), 0, [2, 2], [1, 2]),
    "typed_size_Size": lambda lib: (_storage(lib), 0, lib.Size([3])),
    "typed_stride_none": lambda lib: (_storage(lib), 0, (2,), None),
    "typed_empty_far": lambda lib: (_storage(lib), 10, (0,)),
    "typed_0dim": lambda lib: (_storage(lib), 3, ()),
    "typed_to_the_end": lambda lib: (_storage(lib), 7, (3,)),
    "untyped": lambda lib: (_storage(lib).untyped(),),
    "untyped_offset_size": lambda lib: (_storage(lib).untyped(), 1, (3,)),
    "untyped_odd_bytes": lambda lib: (lib.UntypedStorage([0, 0, 128, 63, 9, 9, 9]),),
    "untyped_other_dtype": lambda lib: (lib.arange(4, dtype=lib.int16).untyped_storage(),),
    # errors
    "negative_size": lambda lib: (_storage(lib), 0, (-1,)),
    "negative_offset": lambda lib: (_storage(lib), -1, (2,)),
    "negative_stride": lambda lib: (_storage(lib), 0, (2, 3), (-1, 1)),
    "stride_length": lambda lib: (_storage(lib), 0, (2, 3), (1,)),
    "tensor_dtype": lambda lib: (lib.arange(3),),
    "typed_dtype": lambda lib: (lib.arange(3).storage(),),
    "typed_dtype_offset": lambda lib: (lib.arange(3).storage(), 0, (1,)),
    "no_size": lambda lib: (_storage(lib), 0),
    "int": lambda lib: (3,),
    "list": lambda lib: ([1, 2],),
    "size_int": lambda lib: (_storage(lib), 0, 3),
    "offset_float": lambda lib: (_storage(lib), 1.0, (2,)),
    "none_source": lambda lib: (None, 0, (2,)),
}


@pytest.mark.parametrize("args", list(SET_ARGS))
@pytest.mark.parametrize("target", ["fresh", "view", "int_view"])
def test_set_matches_pytorch(args, target):
    def program(lib):
        a = {"fresh": lambda: lib.arange(6.0),
             "view": lambda: lib.arange(8.0)[2:],
             "int_view": lambda: lib.arange(8.0).view(lib.int32)[1:].view(lib.float32)}[target]()
        call_args = SET_ARGS[args](lib)
        r = a.set_(*call_args)
        assert r is a
        src = call_args[0] if call_args else None
        if isinstance(src, lib.Tensor):
            shares = a.untyped_storage().data_ptr() == src.untyped_storage().data_ptr()
        elif src is not None:
            st = src if isinstance(src, lib.UntypedStorage) else src.untyped()
            shares = a.untyped_storage().data_ptr() == st.data_ptr()
        else:
            shares = None
        return layout(a, version=False) + (shares,)
    same(program)


def test_set_keywords_match_pytorch():
    same(lambda lib: layout(lib.arange(6.0).set_(
        source=_storage(lib).untyped(), storage_offset=1, size=(3,), stride=(2,)), False))
    same(lambda lib: layout(lib.arange(6.0).set_(source=lib.arange(3.0)), False))


def test_set_shares_the_storage_object():
    a, b = tv.arange(6.0), tv.arange(12.0).reshape(3, 4)
    a.set_(b)
    assert a.storage() is b.storage() and a.untyped_storage() is b.untyped_storage()
    a[0, 0] = 100.0  # a write through one is seen through the other
    assert b[0, 0].item() == 100.0
    s = tv.arange(10.0).storage()
    a.set_(s, 2, (2, 2))
    assert a.storage() is s and a.untyped_storage() is s.untyped()
    u = tv.arange(4.0).untyped_storage()
    a.set_(u)
    assert a.untyped_storage() is u and a.tolist() == [0.0, 1.0, 2.0, 3.0]
    old = a.untyped_storage()
    a.set_()
    assert a.untyped_storage() is not old and a.untyped_storage().nbytes() == 0


def test_set_versions():
    """The old storage's views count the write, and so does this tensor, whose counter stays
    its own (not the new storage's), as PyTorch keeps a counter per view family."""
    seen = []
    for lib in (tv, torch):
        a = lib.arange(6.0)
        v = a[1:]
        b = lib.arange(3.0)
        a.set_(b)
        assert v._version == 1 and b._version == 0
        c = lib.arange(6.0)
        c.add_(1)
        c.set_()
        assert c._version == 2  # a fresh storage carries the count on
        seen.append(a._version)
    assert seen[0] == seen[1]


def test_set_past_the_end_of_a_storage_is_refused():
    """Note: PyTorch grows the storage to fit; tensorviz never changes a storage's size."""
    s = tv.arange(10.0).storage()
    a = tv.arange(6.0)
    with pytest.raises(RuntimeError, match="out of bounds for storage of size 40"):
        a.set_(s, 8, (3,))
    with pytest.raises(RuntimeError, match="out of bounds"):
        a.set_(tv.UntypedStorage(8), 3, (1,))
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] and s.size() == 10  # untouched


# ---------------------------------------------------------------- resize_
def _resize_steps(lib):
    a = lib.arange(6.0)
    out = [layout(a.resize_(6)), layout(a.resize_(2, 3)), layout(a.resize_(2))]
    b = lib.arange(12.0).reshape(3, 4).t()
    out += [layout(b.resize_(4, 3)), layout(b.resize_(3, 4))]
    c = lib.arange(12.0)[2:]
    out.append(layout(c.resize_(12))[:4] + (c[:10].tolist(),))
    d = lib.arange(6.0)
    v = d[1:]
    d.resize_(3)
    out.append((d._version, v._version))
    d.resize_(20)
    out.append((d._version, v._version, d[:6].tolist(), v.tolist()))
    e = lib.arange(6.0)
    e.resize_(10)
    out.append(layout(e)[:4] + (e[:6].tolist(),))
    return out


def test_resize_steps_match_pytorch():
    same(_resize_steps)


RESIZE_CALLS = [
    lambda lib: lib.arange(6.0).resize_(size=(2, 2)),
    lambda lib: lib.arange(6.0).resize_((2, 2)),
    lambda lib: lib.arange(6.0).resize_([3]),
    lambda lib: lib.arange(6.0).resize_(lib.Size([1, 3])),
    lambda lib: lib.arange(6.0).resize_(0, 3),
    lambda lib: lib.arange(6.0).resize_(()),
    lambda lib: lib.zeros(2, dtype=lib.int16).resize_(3, 3),
    lambda lib: lib.zeros(0).resize_(0),
    lambda lib: lib.zeros(5)[3:].resize_(0),
    lambda lib: lib.zeros(1).expand(3).resize_(2),
    lambda lib: lib.arange(120.0).resize_(2, 3, 4, 5, memory_format=lib.channels_last),
    lambda lib: lib.arange(24.0).resize_(2, 3, 4, 1, memory_format=lib.channels_last),
    lambda lib: lib.arange(24.0).reshape(2, 3, 4, 1).resize_(
        2, 3, 4, 1, memory_format=lib.channels_last),
    lambda lib: lib.arange(720.0).resize_(1, 2, 3, 4, 5, memory_format=lib.channels_last_3d),
    lambda lib: lib.arange(120.0).resize_(2, 3, 4, 5, memory_format=lib.contiguous_format),
    lambda lib: lib.from_numpy(np.arange(6.0)).resize_(3),
    lambda lib: lib.zeros(2).resize_as_(lib.zeros(2, 3)),
    lambda lib: lib.zeros(6).resize_as_(lib.zeros(2, 3).t()),
    lambda lib: lib.zeros(6).resize_as_(lib.zeros(2, 3, dtype=lib.int64)),
    lambda lib: lib.zeros(120).resize_as_(lib.zeros(2, 3, 4, 5),
                                          memory_format=lib.channels_last),
    lambda lib: lib.zeros(6).resize_as_(lib.zeros(2, 3), memory_format=lib.preserve_format),
    # errors
    lambda lib: lib.arange(6.0).resize_(-1),
    lambda lib: lib.arange(6.0).resize_(2, -3),
    lambda lib: lib.from_numpy(np.arange(6.0)).resize_(10),
    lambda lib: lib.zeros(3, requires_grad=True).resize_(2),
    lambda lib: lib.arange(120.0).resize_(2, 3, 4, memory_format=lib.channels_last),
    lambda lib: lib.arange(6.0).resize_(2, memory_format=lib.preserve_format),
    lambda lib: lib.arange(6.0).resize_(),
    lambda lib: lib.arange(6.0).resize_(2.0),
    lambda lib: lib.arange(6.0).resize_((2, 3), 4),
    lambda lib: lib.zeros(2).resize_as_(5),
]


@pytest.mark.parametrize("call", RESIZE_CALLS, ids=[f"resize{i}" for i in
                                                     range(len(RESIZE_CALLS))])
def test_resize_calls_match_pytorch(call):
    def program(lib):
        t = call(lib)
        n = t.numel()
        return layout(t)[:4] + (t._version, t.untyped_storage().nbytes() >= n * t.itemsize)
    same(program)


def _grow_steps(lib):
    a = lib.arange(6.0)
    v = a.view(2, 3)
    w = a[4:]
    st = a.untyped_storage()
    a.resize_(2, 2)
    out = [(a.untyped_storage() is st, a.untyped_storage().data_ptr() == v.data_ptr())]
    a.resize_(5, 5)  # grows the storage every view shares
    out.append((a.untyped_storage() is st, v.untyped_storage() is st, st.nbytes()))
    out.append(a.view(-1)[:6].tolist())
    a.fill_(-1.0)
    out += [layout(v), layout(w), v.data_ptr() == a.data_ptr()]
    b = lib.arange(4, dtype=lib.int16).view(lib.uint8)[1:]  # a byte view at an odd offset
    c = b.view(lib.int8)
    b.resize_(10)
    b[:] = 7
    out += [b.untyped_storage().nbytes(), b[:7].tolist(), layout(c)]
    return out


def test_resize_that_grows_grows_the_shared_storage_as_pytorch():
    same(_grow_steps)


@pytest.mark.parametrize("op", [
    lambda lib, o: lib.arctan(lib.tensor([1.5, -2.5, 0.0, -0.75]), out=o),
    lambda lib, o: lib.add(lib.ones(2, 3), 2.0, out=o),
    lambda lib, o: lib.mm(lib.ones(3, 2), lib.full((2, 4), 0.5), out=o),
    lambda lib, o: lib.sum(lib.ones(5, 3), 0, out=o),
    lambda lib, o: lib.cat([lib.ones(2), lib.zeros(3)], out=o),
    lambda lib, o: lib.cumsum(lib.arange(6.0), 0, out=o),
])
@pytest.mark.parametrize("view", [
    lambda lib, t: lib.atleast_1d(t),
    lambda lib, t: t.view(lib.int32),
    lambda lib, t: t.expand(2, 2),
    lambda lib, t: t.detach(),
])
def test_out_grown_past_its_storage_is_seen_by_its_views(op, view):
    """An ``out=`` too small for the result grows its storage in place: a view taken before
    (another layout, dtype, or a detached alias) reads the result's first element."""
    import warnings

    def program(lib):
        o = lib.tensor(-2.5)
        v = view(lib, o)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = op(lib, o)
        return [layout(o, False), layout(v, False), r is o,
                v.untyped_storage().nbytes() == o.untyped_storage().nbytes()]
    same(program)


def test_resize_of_a_numpy_tensor_never_detaches_it_silently():
    arr = np.arange(6.0)
    t = tv.from_numpy(arr)
    with pytest.raises(RuntimeError, match="not resizable"):
        t.resize_(7)
    t.resize_(2, 3)
    t[0, 0] = 9.0
    assert arr[0] == 9.0


@pytest.mark.parametrize("template", [
    lambda lib: lib.zeros(2, 3, 4, 5),
    lambda lib: lib.zeros(2, 3, 4, 5).contiguous(memory_format=lib.channels_last),
    lambda lib: lib.zeros(2, 3, 4, 5, 6).contiguous(memory_format=lib.channels_last_3d),
    lambda lib: lib.zeros(2, 3).t(),
])
def test_resize_as_preserve_format_follows_the_template(template):
    same(lambda lib: layout(lib.zeros(1).resize_as_(
        template(lib), memory_format=lib.preserve_format), False)[:4])


def test_storage_shared_with_numpy_cannot_grow_like_pytorch():
    """After t.numpy(), PyTorch refuses to grow the storage (the array would silently keep
    the old buffer); shrinking and other tensors' storages stay as they were."""
    import pytest
    torch = pytest.importorskip("torch")
    for lib in (tv, torch):
        t = lib.zeros(3)
        a = t.numpy()
        with pytest.raises(RuntimeError, match="not resizable"):
            t.resize_(10)
        assert tuple(t.resize_(2).shape) == (2,)
        assert a.shape == (3,)
        u = lib.zeros(3)
        u[lib.tensor([True, False, True])] = 1.0  # (internal host copies do not count)
        assert tuple(u.resize_(10).shape) == (10,)
