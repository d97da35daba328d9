"""The adapter: one layout description for tensorviz, NumPy and PyTorch, held weakly."""
from __future__ import annotations

import gc
import warnings
import weakref

import numpy as np
import pytest

import tensorviz
from tensorviz import _layout
from tensorviz.viz._source import Source

from vizhelpers import KINDS, make


def _views(t):
    """A few views of a 3x4 matrix, spelled for each kind."""
    if isinstance(t, np.ndarray):
        return [t, t.T, t[1:, ::2], t[2], t[:, 1:3]]
    return [t, t.t(), t[1:, ::2], t[2], t.narrow(1, 1, 2)]


@pytest.mark.parametrize("kind", KINDS)
def test_layout_matches_the_tensor(kind):
    base = make(kind, np.arange(12, dtype=np.int64).reshape(3, 4))
    expected = [((3, 4), (4, 1), 0), ((4, 3), (1, 4), 0), ((2, 2), (4, 2), 4), ((4,), (1,), 8),
                ((3, 2), (4, 1), 1)]
    for view, (shape, stride, offset) in zip(_views(base), expected):
        lay = Source(view).layout()
        assert (lay.shape, lay.stride, lay.offset) == (shape, stride, offset)
        assert lay.dtype == "int64" and lay.itemsize == 8 and lay.device == "cpu"
        assert lay.storage_size == 12 and lay.kind == kind


@pytest.mark.parametrize("kind", KINDS)
def test_views_share_memory_copies_do_not(kind):
    base = make(kind, np.arange(12.0).reshape(3, 4))
    ids = {Source(v).memory_id for v in _views(base)}
    assert len(ids) == 1
    copy = base.copy() if isinstance(base, np.ndarray) else base.clone()
    assert Source(copy).memory_id not in ids


@pytest.mark.parametrize("kind", KINDS)
def test_read_and_gather_follow_the_address_formula(kind):
    base = make(kind, np.arange(24, dtype=np.float32).reshape(2, 3, 4) * 1.5)
    view = base[1, ::2, 1:] if not isinstance(base, np.ndarray) else base[1, ::2, 1:]
    src = Source(view)
    lay = src.layout()
    storage = src.read(0, lay.storage_size)
    assert storage.tolist() == (np.arange(24, dtype=np.float32) * 1.5).tolist()
    index = [(i, j) for i in range(lay.shape[0]) for j in range(lay.shape[1])]
    addresses = np.array([_layout.address(ix, lay.stride, lay.offset) for ix in index])
    np.testing.assert_array_equal(src.gather(addresses), storage[addresses])
    # reads are clamped to the storage
    assert src.read(20, 999).tolist() == storage[20:].tolist()
    assert src.read(30, 40).size == 0


def test_tensorviz_gather_merges_far_apart_addresses():
    t = tensorviz.arange(100_000)
    src = Source(t)
    addresses = np.array([99_999, 0, 5, 50_000, 6, 0])
    assert src.gather(addresses).tolist() == addresses.tolist()


def test_numpy_negative_strides_and_dtype_views():
    a = np.arange(10, dtype=np.int32)
    rev = Source(a[::-3]).layout()
    assert rev.stride == (-3,) and rev.offset == 9 and rev.extent() == (0, 10)
    as16 = Source(a.view(np.int16)).layout()
    assert as16.storage_size == 20 and as16.dtype == "int16"
    assert Source(a.view(np.int16)).memory_id == Source(a).memory_id
    assert rev.byte_strides == (-12,)


def test_numpy_record_fields_are_drawn_from_a_copy():
    rec = np.zeros(4, dtype=[("x", np.int32), ("y", np.int8)])
    rec["x"] = [1, 2, 3, 4]
    src = Source(rec["x"])
    assert src.layout().note.startswith("drawn from a copy")
    assert src.read(0, 4).tolist() == [1, 2, 3, 4]
    big = np.arange(3, dtype=">i4")
    assert Source(big).read(0, 3).tolist() == [0, 1, 2]


def test_rejects_what_it_cannot_draw():
    with pytest.raises(TypeError, match="show\\(\\) draws"):
        Source([1, 2, 3])
    with pytest.raises(TypeError, match="numeric"):
        Source(np.array(["a", "b"]))


def test_torch_bfloat16_and_meta():
    torch = pytest.importorskip("torch")
    b = torch.arange(4, dtype=torch.bfloat16)
    src = Source(b[1:])
    assert src.layout().dtype == "bfloat16" and src.layout().itemsize == 2
    assert src.read(0, 4).tolist() == [0.0, 1.0, 2.0, 3.0]
    meta = torch.empty(3, 4, device="meta")
    assert Source(meta).read(0, 3) is None and Source(meta).layout().device == "meta"


@pytest.mark.parametrize("kind", KINDS)
def test_holds_nothing_alive(kind):
    t = make(kind, np.arange(6.0))
    src = Source(t[2:] if not isinstance(t, np.ndarray) else t[2:])
    ref = weakref.ref(t)
    assert src.alive
    del t
    gc.collect()
    assert ref() is None and not src.alive
    assert src.read(0, 3) is None and src.gather(np.array([0])) is None
    assert src.layout().shape == (4,)  # the last known layout stays


def test_a_temporary_view_stays_drawable_while_its_storage_lives():
    a = tensorviz.arange(12).reshape(3, 4)
    src = Source(a.t())  # the view object dies right away
    gc.collect()
    assert not src.object_alive and src.alive
    assert src.layout().stride == (1, 4)
    assert src.gather(np.array([0, 4, 8])).tolist() == [0, 4, 8]


def test_listener_subscription_is_weak():
    a = tensorviz.zeros(3)
    calls = []

    class Sink:
        def hit(self):
            calls.append(1)

    sink = Sink()
    src = Source(a)
    assert src.subscribe(sink.hit)
    a.add_(1)
    assert calls == [1]
    del sink
    gc.collect()
    a.add_(1)  # the dead listener is skipped, no error
    assert calls == [1]
    assert not Source(np.zeros(3)).subscribe(lambda: None)


def test_torch_layouts_without_one_strided_storage_are_refused_clearly():
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError, match="strided tensors.*torch.sparse_coo.*to_dense"):
        Source(torch.eye(3).to_sparse())
    with warnings.catch_warnings():  # PyTorch's own "beta" warning for CSR, maybe once
        warnings.simplefilter("ignore")
        csr = torch.eye(3).to_sparse_csr()
    with pytest.raises(TypeError, match="strided tensors.*torch.sparse_csr"):
        Source(csr)
