"""Windows, footprints and wire encoding: bounded work, same answers as brute force."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from tensorviz import _layout
from tensorviz.viz._window import (CELL_BUDGET, DisplayDims, display_dims, encode, footprint,
                                   logical_addresses, window_counts)

LAYOUTS = [
    ((3, 4), (4, 1), 0),        # contiguous
    ((4, 3), (1, 4), 0),        # transpose
    ((2, 2), (4, 2), 4),        # a[1:, ::2]
    ((2, 3, 4), (0, 4, 1), 0),  # expand: stride 0
    ((3, 4), (0, 1), 2),        # broadcast row with an offset
    ((5, 3), (1, 1), 0),        # unfold-like overlap
    ((), (), 7),                # 0-dim
    ((0, 3), (3, 1), 0),        # empty
    ((2, 1, 3, 2), (6, 6, 2, 1), 1),  # 4-D with a size-1 dim
    ((4,), (-2,), 9),           # NumPy: negative stride
    ((3, 2), (-1, 3), 2),       # mixed signs
]


def brute_force(shape, stride, offset, start, stop):
    counts = np.zeros(stop - start, dtype=np.int64)
    for index in itertools.product(*[range(n) for n in shape]):
        k = _layout.address(index, stride, offset)
        if start <= k < stop:
            counts[k - start] += 1
    return counts


@pytest.mark.parametrize("shape,stride,offset", LAYOUTS)
@pytest.mark.parametrize("start,stop", [(0, 12), (0, 4), (3, 9), (10, 30), (6, 7)])
def test_footprint_matches_brute_force(shape, stride, offset, start, stop):
    got = footprint(shape, stride, offset, start, stop)
    np.testing.assert_array_equal(got, brute_force(shape, stride, offset, start, stop))


def test_footprint_work_is_bounded_by_the_window():
    # a 10^7-element contiguous tensor: only the window is enumerated
    fp = footprint((10, 1000, 1000), (1_000_000, 1000, 1), 0, 5_000_000, 5_000_128)
    assert fp.tolist() == [1] * 128
    fp = footprint((1000, 10_000), (1, 1000), 0, 0, 128)  # transposed
    assert fp.tolist() == [1] * 128
    fp = footprint((10_000_000,), (0,), 3, 0, 8)  # broadcast of one element
    assert fp.tolist() == [0, 0, 0, 10_000_000, 0, 0, 0, 0]
    # heavily overlapping windows give up instead of hanging
    assert footprint((100_000, 100_000), (1, 1), 0, 60_000, 60_128) is None
    assert footprint((100_000, 100_000), (1, 1), 0, 0, 128).tolist() == list(range(1, 129))


def test_footprint_hypothesis_property():
    hyp = pytest.importorskip("hypothesis")
    st = hyp.strategies

    @hyp.given(st.lists(st.tuples(st.integers(0, 4), st.integers(-5, 6)), max_size=4),
               st.integers(0, 30), st.integers(0, 40), st.integers(1, 40))
    @hyp.settings(max_examples=200, deadline=None)
    def check(dims, offset, start, width):
        shape = tuple(n for n, _ in dims)
        stride = tuple(s for _, s in dims)
        low = offset + sum((n - 1) * s for n, s in dims if s < 0 and n > 0)
        if low < 0:
            offset -= low
        got = footprint(shape, stride, offset, start, start + width)
        np.testing.assert_array_equal(got, brute_force(shape, stride, offset, start,
                                                       start + width))

    check()


@pytest.mark.parametrize("ndim,expected", [
    (0, DisplayDims((), (), ())), (1, DisplayDims((), (), (0,))),
    (2, DisplayDims((), (), (0, 1))), (3, DisplayDims((), (0,), (1, 2))),
    (4, DisplayDims((), (0, 1), (2, 3))), (6, DisplayDims((0, 1), (2, 3), (4, 5))),
])
def test_display_dims(ndim, expected):
    assert display_dims(ndim) == expected


def test_window_counts_respect_the_budget():
    dims = display_dims(4)
    counts = window_counts((64, 3, 224, 224), dims, budget=512)
    assert _layout.numel(counts) <= 512 and all(c >= 1 for c in counts)
    assert window_counts((3, 4), display_dims(2)) == [3, 4]
    assert window_counts((100,), display_dims(1)) == [32]
    assert window_counts((), display_dims(0)) == []
    assert _layout.numel(window_counts((10**7,), display_dims(1), CELL_BUDGET)) <= CELL_BUDGET


@pytest.mark.parametrize("shape,stride,offset", [l for l in LAYOUTS if _layout.numel(l[0])])
def test_logical_addresses_are_the_address_formula(shape, stride, offset):
    dims = display_dims(len(shape))
    counts = window_counts(shape, dims)
    select = [min(1, shape[d] - 1) for d in dims.select]
    starts = [0] * len(dims.shown)
    got = logical_addresses(shape, stride, offset, dims, select, starts, counts)
    expected = []
    for local in itertools.product(*[range(c) for c in counts]):
        index = [0] * len(shape)
        for i, d in zip(select, dims.select):
            index[d] = i
        for i, d in zip(local, dims.shown):
            index[d] = i
        expected.append(_layout.address(index, stride, offset))
    assert got.tolist() == expected


@pytest.mark.parametrize("dtype,wire", [
    (np.bool_, "b1"), (np.uint8, "u1"), (np.int8, "i1"), (np.int16, "i2"), (np.int32, "i4"),
    (np.int64, "i8"), (np.float16, "f4"), (np.float32, "f4"), (np.float64, "f8"),
    (np.complex64, "c8"), (np.complex128, "c16"), (np.uint16, "u2"), (np.uint64, "u8"),
])
def test_encode_is_little_endian_binary(dtype, wire):
    values = np.array([0, 1, 3], dtype=dtype)
    payload, got_wire = encode(values)
    assert got_wire == wire and isinstance(payload, bytes)
    back = np.frombuffer(payload, dtype={"b1": "u1", "c8": "<c8", "c16": "<c16"}.get(
        wire, "<" + wire))
    np.testing.assert_array_equal(back.astype(values.dtype), values)
    big = encode(np.array([1, 2], dtype=">i4"))[0]
    assert big == np.array([1, 2], dtype="<i4").tobytes()
