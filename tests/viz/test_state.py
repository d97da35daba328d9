"""The synced state of TensorView for representative layouts, and its size."""
from __future__ import annotations


import numpy as np
import pytest

pytest.importorskip("anywidget", reason="the widget tests need anywidget (pip install "
                    "'tensorviz[widgets]')")

import tensorviz
from tensorviz.viz import TensorView, show

from vizhelpers import KINDS, make, payload_bytes


def values(t: dict) -> list:
    wire = {"b1": "u1"}.get(t["wire"], t["wire"])
    return np.frombuffer(t["values"], dtype="<" + wire).tolist()


def fp(t: dict) -> list:
    return np.frombuffer(t["footprint"], dtype="<u4").tolist()


def strip_values(s: dict) -> list:
    return np.frombuffer(s["values"], dtype="<" + s["wire"]).tolist()


def test_views_share_one_strip_and_a_copy_gets_its_own():
    a = tensorviz.arange(12).reshape(3, 4)
    w = show(a, a.t(), a[1:, ::2], a.t().contiguous())
    assert [t["label"] for t in w.tensors] == ["a", "a.t()", "a[1:, ::2]",
                                               "a.t().contiguous()"]
    assert len(w.strips) == 2
    assert w.strips[0]["tensors"] == [0, 1, 2] and w.strips[1]["tensors"] == [3]
    assert [t["strip"] for t in w.tensors] == [0, 0, 0, 1]
    assert [t["tag"] for t in w.tensors] == ["A", "B", "C", "D"]
    assert strip_values(w.strips[0]) == list(range(12))
    assert strip_values(w.strips[1]) == [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]


def test_transpose():
    a = tensorviz.arange(12).reshape(3, 4)
    t = show(a.t()).tensors[0]
    assert (t["shape"], t["stride"], t["offset"]) == ([4, 3], [1, 4], 0)
    assert not t["contiguous"] and "dim 1 has stride 4" in t["reason"]
    assert values(t) == [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]
    assert fp(t) == [1] * 12
    assert t["dims"] == {"select": [], "block": [], "grid": [0, 1]}
    assert t["counts"] == [4, 3] and t["starts"] == [0, 0]


def test_slice_with_steps_and_offset():
    a = tensorviz.arange(12).reshape(3, 4)
    t = show(a[1:, ::2]).tensors[0]
    assert (t["shape"], t["stride"], t["offset"]) == ([2, 2], [4, 2], 4)
    assert values(t) == [4, 6, 8, 10]
    assert fp(t) == [0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0]
    assert t["extent"] == [4, 11]
    assert t["numel"] == 4 and t["storage_size"] == 12


def test_expand_is_stride_zero_with_multiplicity():
    row = tensorviz.arange(4)
    t = show(row.expand(3, 4)).tensors[0]
    assert t["stride"] == [0, 1]
    assert fp(t) == [3, 3, 3, 3]
    assert "broadcast" in t["reason"]
    assert values(t) == [0, 1, 2, 3] * 3


def test_zero_dim_and_empty():
    a = tensorviz.arange(6)
    w = show(a[4], a[2:2], tensorviz.zeros(0, 3))
    scalar, empty, empty2 = w.tensors
    assert scalar["shape"] == [] and scalar["offset"] == 4 and values(scalar) == [4]
    assert fp(scalar) == [0, 0, 0, 0, 1, 0]
    assert scalar["counts"] == [] and scalar["dims"]["grid"] == []
    assert empty["numel"] == 0 and values(empty) == [] and fp(empty) == [0] * 6
    assert empty["contiguous"] and empty["has_values"]
    assert empty2["storage_size"] == 0 and w.strips[1]["count"] == 0


def test_four_d_is_a_grid_of_grids():
    x = tensorviz.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
    t = show(x.permute(0, 2, 3, 1)).tensors[0]  # NHWC view of NCHW memory
    assert t["shape"] == [2, 4, 5, 3] and t["stride"] == [60, 5, 1, 20]
    assert t["dims"] == {"select": [], "block": [0, 1], "grid": [2, 3]}
    assert t["counts"] == [2, 4, 5, 3]
    got = values(t)
    expected = np.arange(120).reshape(2, 3, 4, 5).transpose(0, 2, 3, 1).ravel().tolist()
    assert got == expected


def test_more_than_four_dims_use_selectors():
    x = tensorviz.arange(2 * 3 * 2 * 2 * 2 * 2).reshape(2, 3, 2, 2, 2, 2)
    w = show(x)
    t = w.tensors[0]
    assert t["dims"]["select"] == [0, 1] and t["select"] == [0, 0]
    w.scroll(0, select=[1, 2])
    t = w.tensors[0]
    assert t["select"] == [1, 2]
    assert values(t) == np.arange(96).reshape(2, 3, 16)[1, 2].tolist()
    w.scroll(0, select=[99, -5])  # clamped, never an error
    assert w.tensors[0]["select"] == [1, 0]


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_draws_the_same(kind):
    base = make(kind, np.arange(12, dtype=np.float32).reshape(3, 4))
    view = base.T if isinstance(base, np.ndarray) else base.t()
    w = TensorView(base, view, labels=["x", "x.T"])
    assert len(w.strips) == 1 and w.strips[0]["dtype"] == "float32"
    assert values(w.tensors[1]) == np.arange(12).reshape(3, 4).T.ravel().tolist()
    assert w.tensors[1]["kind"] == kind
    assert (w.tensors[0]["byte_strides"] == [16, 4]) == (kind == "numpy")


def test_dtype_views_are_separate_strips_of_the_same_memory():
    a = tensorviz.zeros(4, dtype=tensorviz.float32)
    w = show(a, a.view(tensorviz.int32))
    assert len(w.strips) == 2
    assert w.strips[0]["alias_of"] == [1] and w.strips[1]["alias_of"] == [0]


def test_big_storage_windows_and_paging():
    big = tensorviz.arange(10**6)
    w = show(big[500_000:500_010])
    s = w.strips[0]
    assert s["size"] == 10**6 and s["count"] == 128 and s["start"] == 499_998
    assert strip_values(s)[2] == 500_000
    w.scroll_storage(10**9)  # clamped to the end
    assert w.strips[0]["start"] == 10**6 - 128
    assert strip_values(w.strips[0])[-1] == 10**6 - 1
    n1000 = tensorviz.arange(1000)  # held: a widget never keeps its tensor alive
    long = show(n1000)
    t = long.tensors[0]
    assert t["counts"] == [32] and values(t) == list(range(32))
    long.scroll(0, starts=[500])
    assert values(long.tensors[0]) == list(range(500, 532))


@pytest.mark.parametrize("n", [10**2, 10**3, 10**4, 10**5, 10**6, 10**7])
def test_payload_is_bounded(n):
    x = tensorviz.arange(n, dtype=tensorviz.float64)
    side = int(n ** 0.5)
    m = x[: side * side].view(side, side)
    w = show(m, m.t(), m[1:, ::2])
    assert payload_bytes(w) < 64 * 1024
    assert payload_bytes(w, code=True) < 100 * 1024  # with the ES module and CSS


def test_everything_sent_at_display_stays_under_100_kb():
    """Widget state, ES module, CSS and the HTML snapshot of the mimebundle, all together.

    The snapshot is also saved in the notebook with the output, so it draws a smaller window.
    """
    x = tensorviz.arange(10**7, dtype=tensorviz.float64)
    m = x.view(1000, 10000)
    for tensors in [(x,), (m, m.t(), m[1:, ::2])]:
        w = show(*tensors)
        data, _meta = w._repr_mimebundle_()
        html = len(data["text/html"].encode())
        assert payload_bytes(w, code=True) + html < 100 * 1024
        assert html < 24 * 1024
    views = [m[k:, k:] for k in range(16)]
    w = TensorView(*views, labels=[f"v{k}" for k in range(16)])
    assert len(w.to_html().encode()) < 96 * 1024


def test_sixteen_tensors_stay_under_the_payload_budget():
    x = tensorviz.arange(10**6, dtype=tensorviz.float64).view(1000, 1000)
    views = [x[k:, k:] for k in range(16)]
    w = TensorView(*views, labels=[f"v{k}" for k in range(16)])
    assert payload_bytes(w) < 64 * 1024
    with pytest.raises(ValueError, match="at most 16"):
        TensorView(*(views + [x]), labels=[str(k) for k in range(17)])


def test_devices(devices):
    """On a GPU the storage stays there: only the drawn windows are copied to the host."""
    a = tensorviz.arange(12, device=devices).reshape(3, 4)
    w = show(a, a.t()[1:, ::2])
    assert w.strips[0]["device"] == str(a.device)
    assert strip_values(w.strips[0]) == list(range(12))
    assert values(w.tensors[1]) == a.t()[1:, ::2].cpu().flatten().tolist()
    a.add_(1)
    assert strip_values(w.strips[0]) == list(range(1, 13))


def test_zero_copy_numpy_aliases_share_the_strip_of_their_tensor():
    """t.numpy() and from_numpy() are views of one memory: one strip, not a copy's strip."""
    a = tensorviz.arange(6)
    w = TensorView(a, a.numpy(), a[2:].numpy(), a.clone(), labels=["a", "n", "n2", "c"])
    assert [s["tensors"] for s in w.strips] == [[0, 1, 2], [3]]
    assert [t["offset"] for t in w.tensors] == [0, 0, 2, 0]
    assert fp(w.tensors[2]) == [0, 0, 1, 1, 1, 1]
    n = np.arange(6)
    w = TensorView(n, tensorviz.from_numpy(n), n.view(np.int32), labels=["n", "t", "i32"])
    assert [s["tensors"] for s in w.strips] == [[0, 1], [2]]
    assert w.strips[0]["alias_of"] == [1] and w.strips[1]["alias_of"] == [0]


def test_torch_numpy_alias_of_a_slice_is_marked_as_shared_memory():
    torch = pytest.importorskip("torch")
    t = torch.arange(6)
    w = TensorView(t, t.numpy(), t[2:].numpy(), labels=["t", "t.numpy()", "t[2:].numpy()"])
    # the slice's array starts at element 2 of t's storage: another range of the same bytes
    assert [s["tensors"] for s in w.strips] == [[0, 1], [2]]
    assert w.strips[0]["alias_of"] == [1] and w.strips[1]["alias_of"] == [0]


@pytest.mark.parametrize("key,dim,step", [((slice(None, None, -1),), 0, -4),
                                          ((slice(None), slice(None, None, -2)), 1, -2),
                                          ((slice(None, None, -1), slice(None, None, -1)), 0, -4)])
def test_a_negative_stride_reason_names_its_dim_and_stride(key, dim, step):
    a = np.arange(12).reshape(3, 4)
    view = a[key]
    w = TensorView(view, labels=["v"])
    reason = w.tensors[0]["reason"]
    assert reason.startswith(f"not contiguous: dim {dim} has a negative stride ({step})")
    assert view.strides[dim] // view.itemsize == step


def test_each_card_states_a_true_contiguity_reason():
    """The sentence on each card is the layout's own (size-1 dims make no false claim)."""
    a = tensorviz.arange(3).reshape(1, 3)
    one = a.as_strided((1, 3), (1, 1))
    w = TensorView(a, one, tensorviz.tensor(2.0), a[:0], labels=["a", "one", "s", "e"])
    reasons = [t["reason"] for t in w.tensors]
    assert reasons[0] == "contiguous: each dim's stride is the product of the sizes after it"
    assert "size-1 dim 0 never steps" in reasons[1] and "each dim's" not in reasons[1]
    assert "0-dim" in reasons[2] and "no elements" in reasons[3]
