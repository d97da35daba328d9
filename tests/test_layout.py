"""The layout layer: pure functions on ``(shape, stride, offset)``.

Property tests build the addressed elements of a layout with NumPy's ``as_strided`` over an
``arange`` (each element's value is its storage position) and compare them with NumPy doing
the same operation on the base array; every layout a view op returns stays inside its storage;
``view_strides`` succeeds exactly when PyTorch's ``view`` does.
"""
from __future__ import annotations

import numpy as np
import pytest

from tensorviz import _layout as L
from tv_core_conftest import examples

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tv_core_conftest import draw_new_shape, shapes  # noqa: E402


def addressed(shape, stride, offset, storage_size: int) -> np.ndarray:
    """The storage positions a layout addresses, as an array of ``shape``."""
    assert L.storage_extent(shape, stride, offset) <= storage_size or L.numel(shape) == 0
    if L.numel(shape) == 0:
        return np.empty(shape, dtype=np.int64)
    base = np.arange(storage_size, dtype=np.int64)
    return np.lib.stride_tricks.as_strided(base[offset:], shape=shape,
                                           strides=[s * 8 for s in stride]).copy()


@st.composite
def layouts(draw, max_dims: int = 4):
    """A random strided layout over a storage it fits in: permuted, sliced, maybe broadcast."""
    shape = draw(shapes(0, max_dims, 5))
    size = L.numel(shape)
    # random steps, a random dim order and the odd broadcast dim
    steps = [draw(st.integers(1, 3)) for _ in shape]
    stride = [s * k for s, k in zip(L.contiguous_strides([n * k for n, k in zip(shape, steps)]),
                                    steps)]
    size = L.storage_extent(shape, stride, 0) if size else 0
    perm = draw(st.permutations(range(len(shape))))
    shape = tuple(shape[p] for p in perm)
    stride = tuple(stride[p] for p in perm)
    stride = tuple(0 if n == 1 and draw(st.integers(0, 3)) == 0 else s
                   for n, s in zip(shape, stride))
    offset = draw(st.integers(0, 3))
    return shape, stride, offset, size + offset + draw(st.integers(0, 2))


# ---------------------------------------------------------------- basic facts
def test_contiguous_strides_and_numel():
    assert L.contiguous_strides((2, 3, 4)) == (12, 4, 1)
    assert L.contiguous_strides(()) == ()
    assert L.contiguous_strides((2, 0, 3)) == (3, 3, 1)  # PyTorch: size-0 dims count as 1
    assert L.numel(()) == 1 and L.numel((2, 0)) == 0


@pytest.mark.parametrize("shape,stride,expected", [
    ((2, 3), (3, 1), True), ((2, 3), (1, 2), False), ((1, 3), (99, 1), True),
    ((3, 1), (1, 7), True), ((2, 0, 3), (5, 7, 9), True), ((), (), True),
    ((2, 2), (2, 0), False), ((4,), (2,), False), ((1,), (5,), True),
])
def test_is_contiguous_follows_pytorch(shape, stride, expected):
    assert L.is_contiguous(shape, stride) is expected


def test_contiguity_reason_says_why():
    assert L.contiguity_reason((2, 3), (3, 1)).startswith("contiguous")
    assert "stride 0" in L.contiguity_reason((2, 3), (0, 1))
    assert "needs 1" in L.contiguity_reason((3, 2), (1, 3))


@settings(max_examples=examples(300), deadline=None)
@given(layouts())
def test_address_and_unravel_agree_with_numpy(layout):
    shape, stride, offset, size = layout
    got = addressed(shape, stride, offset, size).reshape(-1)
    for flat in range(L.numel(shape)):
        assert L.address(L.unravel(flat, shape), stride, offset) == got[flat]


@settings(max_examples=examples(300), deadline=None)
@given(layouts())
def test_layout_predicates(layout):
    shape, stride, offset, size = layout
    pos = addressed(shape, stride, offset, size).reshape(-1)
    unique = len(set(pos.tolist())) == len(pos)
    if L.has_internal_overlap(shape, stride):
        assert not unique
    if L.is_non_overlapping_and_dense(shape, stride) and len(pos):
        assert unique and pos.max() - pos.min() + 1 == len(pos)
    if L.is_contiguous(shape, stride) and len(pos):
        assert (np.diff(pos) == 1).all()
    dense = L.dense_strides(shape, stride)
    assert L.is_non_overlapping_and_dense(shape, dense)


# ---------------------------------------------------------------- view ops vs NumPy
@st.composite
def basic_keys(draw, shape):
    """A basic key for ``shape``: an int or slice per dim, a run of dims left to an Ellipsis
    (or trailing dims left out), and None inserted anywhere."""
    items = []
    for size in shape:
        if size and draw(st.booleans()):
            items.append(draw(st.integers(-size, size - 1)))
        else:
            b = st.one_of(st.none(), st.integers(-size - 2, size + 2))
            items.append(slice(draw(b), draw(b), draw(st.one_of(st.none(), st.integers(1, 3)))))
    a = draw(st.integers(0, len(items)))
    b = draw(st.integers(a, len(items)))
    if draw(st.booleans()):
        items = items[:a] + [Ellipsis] + items[b:]
    else:
        items = items[:a]
    for _ in range(draw(st.integers(0, 2))):
        items.insert(draw(st.integers(0, len(items))), None)
    return tuple(items)


@settings(max_examples=examples(400), deadline=None)
@given(layouts(), st.data())
def test_view_ops_address_what_numpy_selects(layout, data):
    """Each view op's layout addresses exactly the elements NumPy's equivalent picks."""
    shape, stride, offset, size = layout
    base = addressed(shape, stride, offset, size)
    n = len(shape)
    op = data.draw(st.sampled_from(["index", "select", "narrow", "transpose", "permute",
                                    "movedim", "unsqueeze", "squeeze", "expand", "unfold",
                                    "diagonal", "view", "as_strided"]), label="op")
    if op == "index":
        key = data.draw(basic_keys(shape), label="key")
        new = L.index(shape, stride, offset, key)
        want = base[key]
    elif op == "select":
        assume(n and shape[0])
        d = data.draw(st.integers(-n, n - 1))
        assume(shape[d])
        i = data.draw(st.integers(-shape[d], shape[d] - 1))
        new = L.select(shape, stride, offset, d, i)
        want = np.take(base, i, axis=d)
    elif op == "narrow":
        assume(n)
        d = data.draw(st.integers(0, n - 1))
        start = data.draw(st.integers(0, shape[d]))
        length = data.draw(st.integers(0, shape[d] - start))
        new = L.narrow(shape, stride, offset, d, start, length)
        want = base[(slice(None),) * d + (slice(start, start + length),)]
    elif op == "transpose":
        assume(n)
        a, b = data.draw(st.integers(-n, n - 1)), data.draw(st.integers(-n, n - 1))
        new = L.transpose(shape, stride, offset, a, b)
        want = np.swapaxes(base, a, b)
    elif op == "permute":
        perm = data.draw(st.permutations(range(n)))
        new = L.permute(shape, stride, offset, perm)
        want = np.transpose(base, perm)
    elif op == "movedim":
        k = data.draw(st.integers(0, n))
        src = data.draw(st.permutations(range(n)))[:k]
        dst = data.draw(st.permutations(range(n)))[:k]
        new = L.movedim(shape, stride, offset, src, dst)
        want = np.moveaxis(base, src, dst)
    elif op == "unsqueeze":
        d = data.draw(st.integers(-n - 1, n))
        new = L.unsqueeze(shape, stride, offset, d)
        want = np.expand_dims(base, d)
    elif op == "squeeze":
        new = L.squeeze(shape, stride, offset)
        want = base.reshape([s for s in shape if s != 1])
    elif op == "expand":
        lead = data.draw(st.lists(st.integers(0, 3), max_size=2))
        sizes = tuple(lead) + tuple(data.draw(st.integers(0, 3)) if s == 1 else s
                                    for s in shape)
        new = L.expand(shape, stride, offset, sizes)
        want = np.broadcast_to(base, sizes)
    elif op == "unfold":
        assume(n)
        d = data.draw(st.integers(0, n - 1))
        win = data.draw(st.integers(0, shape[d]))
        step = data.draw(st.integers(1, 3))
        new = L.unfold(shape, stride, offset, d, win, step)
        w = np.lib.stride_tricks.sliding_window_view(base, win, axis=d)
        want = w[(slice(None),) * d + (slice(None, None, step),)]
    elif op == "diagonal":
        assume(n >= 2)
        d1, d2 = data.draw(st.permutations(range(n)))[:2]
        k = data.draw(st.integers(-4, 4))
        new = L.diagonal(shape, stride, offset, k, d1, d2)
        want = np.diagonal(base, k, d1, d2)
    elif op == "view":
        new_shape = data.draw(st.composite(lambda d: draw_new_shape(d, L.numel(shape)))())
        assume(-1 not in new_shape and L.numel(new_shape) == L.numel(shape))
        new_stride = L.view_strides(shape, stride, new_shape)
        assume(new_stride is not None)
        new = (tuple(new_shape), new_stride, offset)
        want = base.reshape(new_shape)
    else:  # as_strided on the whole storage: the checked layout addresses what NumPy does
        k = data.draw(st.integers(0, 3))
        sh = tuple(data.draw(st.lists(st.integers(0, 3), min_size=k, max_size=k)))
        sd = tuple(data.draw(st.lists(st.integers(0, 3), min_size=k, max_size=k)))
        off = data.draw(st.integers(0, size))
        try:
            L.check_as_strided(sh, sd, off, size, 8)
        except RuntimeError:
            assert L.numel(sh) and L.storage_extent(sh, sd, off) > size
            return
        new = (sh, sd, off)
        want = addressed(sh, sd, off, size)
    new_shape, new_stride, new_offset = new
    assert L.numel(new_shape) == 0 or L.storage_extent(new_shape, new_stride,
                                                       new_offset) <= size
    got = addressed(new_shape, new_stride, new_offset, size)
    assert got.shape == want.shape
    assert np.array_equal(got, want)


@settings(max_examples=examples(300), deadline=None)
@given(layouts(), st.data())
def test_splits_cover_the_dim_in_order(layout, data):
    shape, stride, offset, size = layout
    assume(shape)
    d = data.draw(st.integers(0, len(shape) - 1))
    base = addressed(shape, stride, offset, size)
    for sizes in (L.split_sizes(shape[d], data.draw(st.integers(1, 4))),
                  L.chunk_sizes(shape[d], data.draw(st.integers(1, 4)))):
        assert sum(sizes) == shape[d]
        pieces, start = [], 0
        for s in sizes:
            new = L.narrow(shape, stride, offset, d, start, s)
            pieces.append(addressed(*new, size))
            start += s
        assert np.array_equal(np.concatenate(pieces, axis=d), base)
    bounds = L.tensor_split_bounds(shape[d], data.draw(st.integers(1, 5)))
    want = np.array_split(base, len(bounds), axis=d)
    for (a, b), w in zip(bounds, want):
        assert np.array_equal(addressed(*L.narrow(shape, stride, offset, d, a, b - a), size), w)


# ---------------------------------------------------------------- view_strides vs PyTorch
@settings(max_examples=examples(250), deadline=None)
@given(layouts(), st.data())
def test_view_strides_agrees_with_pytorch(layout, data):
    torch = pytest.importorskip("torch")
    shape, stride, offset, size = layout
    new_shape = data.draw(st.composite(lambda d: draw_new_shape(d, L.numel(shape)))())
    assume(-1 not in new_shape and L.numel(new_shape) == L.numel(shape))
    t = torch.arange(max(size, 1)).as_strided(shape, stride, offset)
    try:
        v = t.view(new_shape)
    except RuntimeError:
        assert L.view_strides(shape, stride, new_shape) is None
    else:
        assert L.view_strides(shape, stride, new_shape) == v.stride()


@settings(max_examples=examples(200), deadline=None)
@given(layouts())
def test_dense_and_preserve_strides_match_pytorch(layout):
    torch = pytest.importorskip("torch")
    shape, stride, offset, size = layout
    t = torch.arange(max(size, 1)).as_strided(shape, stride, offset)
    assert L.preserve_strides(shape, stride) == t.clone().stride()
    assert L.is_contiguous(shape, stride) == t.is_contiguous()


# ---------------------------------------------------------------- error types
@pytest.mark.parametrize("call,exc", [
    (lambda: L.normalize_dim(2, 2), IndexError),
    (lambda: L.normalize_dim(-3, 2), IndexError),
    (lambda: L.normalize_dim(1, 0), IndexError),
    (lambda: L.normalize_dim(1.0, 2), TypeError),
    (lambda: L.normalize_dims((0, -2), 2), RuntimeError),
    (lambda: L.select((), (), 0, 0, 0), IndexError),
    (lambda: L.select((3,), (1,), 0, 0, 3), IndexError),
    (lambda: L.slice_dim((3,), (1,), 0, 0, None, None, -1), ValueError),
    (lambda: L.narrow((3,), (1,), 0, 0, 2, 2), RuntimeError),
    (lambda: L.narrow((3,), (1,), 0, 0, 4, 0), IndexError),
    (lambda: L.permute((2, 3), (3, 1), 0, (0,)), RuntimeError),
    (lambda: L.permute((2, 3), (3, 1), 0, (0, 0)), RuntimeError),
    (lambda: L.movedim((2, 3), (3, 1), 0, (0,), (0, 1)), RuntimeError),
    (lambda: L.expand((2,), (1,), 0, (3,)), RuntimeError),
    (lambda: L.expand((2,), (1,), 0, ()), RuntimeError),
    (lambda: L.expand((2,), (1,), 0, (-1, 2)), RuntimeError),
    (lambda: L.infer_size((-1, -1), 4), RuntimeError),
    (lambda: L.infer_size((3,), 4), RuntimeError),
    (lambda: L.infer_size((-1, 0), 0), RuntimeError),
    (lambda: L.unfold((3,), (1,), 0, 0, 4, 1), RuntimeError),
    (lambda: L.unfold((3,), (1,), 0, 0, 2, 0), RuntimeError),
    (lambda: L.diagonal((3, 3), (3, 1), 0, 0, 1, 1), RuntimeError),
    (lambda: L.check_as_strided((2, 2), (2, 1), 0, 3, 4), RuntimeError),
    (lambda: L.check_as_strided((2,), (-1,), 1, 3, 4), RuntimeError),
    (lambda: L.check_as_strided((2,), (1,), -1, 3, 4), RuntimeError),
    (lambda: L.check_as_strided((2,), (1, 1), 0, 3, 4), RuntimeError),
    (lambda: L.split_sizes(3, 0), RuntimeError),
    (lambda: L.chunk_sizes(3, 0), RuntimeError),
    (lambda: L.tensor_split_bounds(3, 0), RuntimeError),
    (lambda: L.broadcast_shapes((2,), (3,)), RuntimeError),
    (lambda: L.index((3,), (1,), 0, (0, 0)), IndexError),
    (lambda: L.index((3,), (1,), 0, (slice(None, None, 0),)), ValueError),
    (lambda: L.index((3,), (1,), 0, (slice(0, 1.5),)), TypeError),
])
def test_layout_errors_have_pytorchs_types(call, exc):
    with pytest.raises(exc):
        call()


def test_as_strided_bounds_message_counts_bytes():
    with pytest.raises(RuntimeError, match="requiring a storage size of 16 are out of bounds "
                                           "for storage of size 12"):
        L.check_as_strided((2, 2), (2, 1), 0, 3, 4)
    L.check_as_strided((0, 5), (100, 100), 50, 3, 4)  # nothing addressed: always fine


def test_empty_view_strides():
    assert L.view_strides((0, 3), (3, 1), (3, 0)) == (1, 1)  # PyTorch: size 0 counts as 1
    assert L.view_strides((3, 0), (1, 3), (3, 0)) == (1, 3)  # same shape: strides kept
    assert L.view_strides((), (), (1, 1)) == (1, 1)


# ---------------------------------------------------------------- memory formats
@st.composite
def format_shapes(draw, max_side: int = 4):
    """A 4-D or 5-D shape; size-0 and size-1 dims turn up often."""
    nd = draw(st.sampled_from([4, 5]))
    return tuple(draw(st.lists(st.sampled_from([0, 1, 1, 2, 3, max_side]), min_size=nd,
                               max_size=nd)))


@st.composite
def format_layouts(draw):
    """A 4-D/5-D layout that is dense in a random dim order, or nearly: size-1 dims get any
    stride, some dims are stretched or broadcast (the ambiguous cases PyTorch resolves)."""
    shape = draw(format_shapes())
    order = draw(st.permutations(range(len(shape))))
    stride = [0] * len(shape)
    acc = 1
    for d in reversed(order):
        stride[d] = acc
        acc *= max(shape[d], 1) + draw(st.sampled_from([0, 0, 0, 1]))
    for d, n in enumerate(shape):
        if n == 1 and draw(st.booleans()):
            stride[d] = draw(st.sampled_from([0, 1, 2, 7, acc]))
        elif draw(st.integers(0, 20)) == 0:
            stride[d] = 0
    return shape, tuple(stride)


def _nchw_of_nhwc(shape):
    """Storage positions of an NCHW (NCDHW) tensor laid out channels-last, made by NumPy."""
    nd = len(shape)
    last = (0,) + tuple(range(2, nd)) + (1,)  # N, H, W, C (N, D, H, W, C)
    return np.arange(L.numel(shape)).reshape([shape[d] for d in last]).transpose(
        np.argsort(last))


@settings(max_examples=examples(300), deadline=None)
@given(format_shapes())
def test_channels_last_strides_address_nhwc_order(shape):
    stride = L.channels_last_strides(shape)
    assert L.is_channels_last_contiguous(shape, stride)
    assert L.format_strides(shape, "channels_last" if len(shape) == 4
                            else "channels_last_3d") == stride
    if L.numel(shape):
        assert L.is_non_overlapping_and_dense(shape, stride)
        assert L.storage_extent(shape, stride, 0) == L.numel(shape)
        assert np.array_equal(addressed(shape, stride, 0, L.numel(shape)),
                              _nchw_of_nhwc(shape))


def test_channels_last_strides_examples():
    assert L.channels_last_strides((1, 3, 4, 5)) == (60, 1, 15, 3)
    assert L.channels_last_strides((2, 3, 4, 5, 6)) == (360, 1, 90, 18, 3)
    assert L.channels_last_strides((2, 0, 3, 4)) == (0, 1, 0, 0)  # PyTorch: no max(size, 1)
    with pytest.raises(ValueError):
        L.channels_last_strides((2, 3, 4))


@settings(max_examples=examples(300), deadline=None)
@given(format_shapes())
def test_formats_are_told_apart_when_no_dim_is_trivial(shape):
    fmt = "channels_last" if len(shape) == 4 else "channels_last_3d"
    cl, rm = L.channels_last_strides(shape), L.contiguous_strides(shape)
    assert L.suggest_memory_format(shape, rm) == "contiguous_format"
    assert L.is_contiguous_as(shape, rm, "contiguous_format")
    if min(shape) > 1:
        assert L.suggest_memory_format(shape, cl) == fmt
        assert not L.is_contiguous(shape, cl) and not L.is_contiguous_as(shape, rm, fmt)


@settings(max_examples=examples(300), deadline=None)
@given(format_layouts())
def test_format_predicates_agree_with_each_other(layout):
    shape, stride = layout
    fmt = "channels_last" if len(shape) == 4 else "channels_last_3d"
    if L.is_channels_last_contiguous(shape, stride):
        assert L.is_non_overlapping_and_dense(shape, stride) or L.numel(shape) == 0
    if L.suggest_memory_format(shape, stride) == fmt:
        assert L.is_channels_last_strides(shape, stride) and 0 not in shape
    other = 4 if len(shape) == 5 else 5  # a format of the other rank never fits
    assert not L.is_contiguous_as(shape, stride, "channels_last" if other == 4
                                  else "channels_last_3d")
    assert L.copy_strides(shape, stride, "preserve_format") == L.preserve_strides(shape, stride)


def test_format_rank_errors_are_pytorchs():
    with pytest.raises(RuntimeError, match="required rank 4 tensor to use channels_last"):
        L.format_strides((2, 3, 4), "channels_last")
    with pytest.raises(RuntimeError, match="required rank 5 tensor to use channels_last_3d"):
        L.copy_strides((2, 3, 4, 5), (60, 20, 5, 1), "channels_last_3d")
    with pytest.raises(RuntimeError, match="unsupported memory format Preserve"):
        L.format_strides((2, 3), "preserve_format")
    assert L.suggest_memory_format((2, 3, 4), (1, 2, 6)) == "contiguous_format"


@settings(max_examples=examples(400), deadline=None)
@given(format_layouts())
def test_format_predicates_match_pytorch(layout):
    """The oracle: ``is_contiguous(memory_format=)``, the suggested format (``to`` aliases a
    tensor exactly when it is the one asked for) and the strides of copies."""
    torch = pytest.importorskip("torch")
    shape, stride = layout
    fmt = "channels_last" if len(shape) == 4 else "channels_last_3d"
    t = torch.empty_strided(shape, stride)
    assert L.is_contiguous_as(shape, stride, fmt) is t.is_contiguous(
        memory_format=getattr(torch, fmt))
    assert (L.suggest_memory_format(shape, stride) == fmt) is (
        t.to(memory_format=getattr(torch, fmt)) is t)
    assert (L.suggest_memory_format(shape, stride) == "contiguous_format") is (
        t.to(memory_format=torch.contiguous_format) is t)
    assert L.copy_strides(shape, stride, "preserve_format") == t.clone().stride()
    assert L.copy_strides(shape, stride, fmt) == t.clone(
        memory_format=getattr(torch, fmt)).stride()


# ---------------------------------------------------------------- explanations
def _after(shape, d) -> int:
    return L.numel(shape[d + 1:])


def _dims(text: str) -> list[int]:
    return [int(x) for x in text.replace(" and ", ", ").split(", ")]


def check_reason(shape, stride) -> str:
    """Every claim the sentence makes, checked against the layout; returns the sentence."""
    import re

    text = L.contiguity_reason(shape, stride)
    verdict = L.is_contiguous(shape, stride)
    assert text.startswith("contiguous: " if verdict else "not contiguous: "), text
    if "0-dim" in text:
        assert shape == ()
    if m := re.search(r"no elements \(dim (\d+) has size 0\)", text):
        assert shape[int(m.group(1))] == 0
    if "it has one element" in text:
        assert L.numel(shape) == 1 and shape != ()
    if "each dim's stride is the product of the sizes after it" in text:
        assert all(stride[d] == _after(shape, d) for d in range(len(shape))), text
    if m := re.search(r"dims? ([\d, and]+) \(size > 1\) (?:has|each have) stride", text):
        big = _dims(m.group(1))
        assert big == [d for d, n in enumerate(shape) if n != 1]
        assert all(stride[d] == _after(shape, d) for d in big), text
        if m2 := re.search(r"has stride (\d+),", text):
            assert stride[big[0]] == int(m2.group(1))
    if m := re.search(r"size-1 dims? ([\d, and]+) never step", text):
        assert _dims(m.group(1)) == [d for d, n in enumerate(shape) if n == 1]
    if m := re.search(r"dim (\d+) has stride (-?\d+), but row-major order needs (\d+) \(the "
                      r"product of the sizes after it\)", text):
        d, s, e = (int(g) for g in m.groups())
        assert stride[d] == s and e == _after(shape, d) and s != e and shape[d] > 1
    if m := re.search(r"dim (\d+) is broadcast \(stride 0\), so its (\d+) indices", text):
        d, n = int(m.group(1)), int(m.group(2))
        assert stride[d] == 0 and shape[d] == n > 1
    known = ("0-dim", "no elements", "one element", "each dim's stride", "(size > 1)",
             "row-major order needs", "is broadcast")
    assert any(k in text for k in known), f"a sentence the test does not check: {text}"
    return text


@pytest.mark.parametrize("shape,stride", [
    ((1, 3), (1, 1)), ((1, 3), (3, 1)), ((), ()), ((0,), (1,)), ((2, 0, 3), (7, 1, 9)),
    ((1,), (5,)), ((1, 1), (0, 0)), ((2, 1, 3), (3, 9, 1)), ((1, 2, 1, 3), (0, 3, 5, 1)),
    ((3, 4), (1, 3)), ((3, 4), (0, 1)), ((3, 1, 4), (4, 4, 1)), ((4, 3), (3, 0)),
])
def test_contiguity_reason_is_true_for_size_1_size_0_and_0_dim(shape, stride):
    check_reason(shape, stride)


def test_contiguity_reason_does_not_claim_a_size_1_dims_stride():
    text = L.contiguity_reason((1, 3), (1, 1))
    assert "each dim's stride is the product" not in text and "dim 0 never steps" in text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=4).flatmap(
    lambda shape: st.tuples(st.just(tuple(shape)),
                            st.tuples(*[st.integers(0, 13) for _ in shape]))))
def test_contiguity_reason_claims_hold_for_random_layouts(layout):
    shape, stride = layout
    check_reason(shape, stride)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=4).flatmap(
    lambda shape: st.tuples(st.just(tuple(shape)),
                            st.tuples(*[st.integers(0, 13) for _ in shape]))))
def test_contiguity_verdict_matches_pytorch(layout):
    torch = pytest.importorskip("torch")
    shape, stride = layout
    t = torch.empty(200).as_strided(shape, stride)
    assert L.contiguity_reason(shape, stride).startswith("contiguous") == t.is_contiguous()


def test_chunk_of_an_empty_dim_into_absurdly_many_pieces():
    """An empty dim in 2**40 chunks: the allocator's RuntimeError (as PyTorch's bad_alloc),
    never a MemoryError; a modest count gives that many empty pieces."""
    assert L.chunk_sizes(0, 3) == [0, 0, 0]
    with pytest.raises(RuntimeError, match="can't allocate memory"):
        L.chunk_sizes(0, 2**40)
