"""Layouts of indexing results against PyTorch (``tensorviz/_indexing.py``)."""
from __future__ import annotations

import warnings

import pytest

import tensorviz

torch = pytest.importorskip("torch")

KEYS = ["T.tensor(0, dtype=T.uint8)", "T.tensor(1, dtype=T.uint8)", "T.tensor(False)",
        "T.tensor(True)", "(T.tensor(0, dtype=T.uint8), slice(3, -2))", "(T.tensor(True), 0)",
        "(Ellipsis, T.tensor(False))", "(Ellipsis, T.tensor(True))",
        "(T.tensor(True), T.tensor([0, 0]))", "(0, T.tensor(False))",
        "(T.tensor(False), T.tensor([0]))"]


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("transposed", [False, True])
def test_zero_dim_mask_result_layout(key, transposed):
    """A 0-dim bool (or deprecated uint8) index is, as in PyTorch, a new size-1 dim indexed
    by ``[0]`` (True) or ``[]`` (False): the result is laid out as PyTorch's index kernel
    lays that out, empty results included."""
    got = []
    for T in (tensorviz, torch):
        x = T.tensor([[-5, -127, 126, 4]])
        x = x.T if transposed else x
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = x[eval(key)]  # noqa: S307 - the test's own keys
        got.append((tuple(r.shape), r.stride(), r.storage_offset(), r.tolist()))
    assert got[0] == got[1]


def test_writing_an_expanded_tensor_into_itself():
    """``x.expand(3)[:] = x`` (and copy_ of the same view) is a no-op in PyTorch, not an
    overlap error; a different source still is one."""
    got = []
    for T in (tensorviz, torch):
        v0 = T.tensor([-1.0])
        v1 = v0.expand(3)
        v1[None] = v0
        v1[:] = v0
        x = T.tensor([1., 2.])
        y = x.expand(2, 2)
        y[:] = x
        y.copy_(x.expand(2, 2))
        with pytest.raises(RuntimeError):
            y[:] = T.tensor([1., 5.])
        got.append((v1.tolist(), y.tolist()))
    assert got[0] == got[1]


def test_advanced_index_after_stepped_slices_layout():
    """A contiguous source sliced with steps or offsets is no longer row-major: the result of
    the advanced index is laid out from the sliced view, as PyTorch's index kernel does."""
    got = []
    for T in (tensorviz, torch):
        v0 = T.zeros((4, 1, 1))
        v3 = T.tensor([0, -1, 0, -1]).reshape((4, 1, 1))
        w = T.arange(60.).reshape(3, 4, 5)
        i = T.tensor([[0, 2], [1, 1]])
        got.append([(tuple(r.shape), r.stride()) for r in (
            v0[::1, -1:-2:3, v3], w[:, 1:3, i], w[::2, i], w[i, ::2], w[1:, i, 2:4],
            w[:, :, i], w[i, :, i], w[None, i], w[..., i], w[0:2, ..., i])])
    assert got[0] == got[1]


@pytest.mark.parametrize("seed", range(10))
def test_advanced_index_result_strides_with_size_one_dims(seed):
    """A size-1 dim's stride orders PyTorch's index result (TensorIterator sorts dims by
    stride) though contiguity ignores it: ``ones(4, 1, 3).mT[[0, 1]]`` has stride (3, 1, 3).
    Seeded random permutations of shapes with size-1 dims, indexed by lists and None."""
    import random

    import numpy as np
    rng = random.Random(seed)
    for _ in range(20):
        shape = [rng.choice([1, 1, 2, 3]) for _ in range(3)]
        perm = rng.sample(range(3), 3)
        key = [rng.choice([[0, -1], [0], None, slice(None)]) for _ in range(rng.randint(1, 2))]
        got = []
        for lib in (torch, tensorviz):
            x = lib.arange(float(np.prod(shape))).reshape(shape).permute(perm)
            try:
                r = x[tuple(key)]
                got.append((tuple(r.shape), r.stride(), r.tolist()))
            except IndexError as e:
                got.append(type(e).__name__)
        assert got[0] == got[1], (shape, perm, key)


@pytest.mark.parametrize("seed", range(6))
def test_writes_read_a_source_that_shares_memory_first(seed):
    """A setitem or masked_scatter_ whose source is a view of its destination: where PyTorch
    refuses the overlap tensorviz raises its error; otherwise tensorviz's result is what
    PyTorch gives for a copy of the source (every value read before any is written: the
    order PyTorch's own loop reads it in is undefined)."""
    import random
    rng = random.Random(seed)
    views = {"self": lambda b: b, "shifted": lambda b: b.view(-1)[2:14].view(3, 4),
             "transposed": lambda b: b.t(), "stepped": lambda b: b[:, ::2],
             "row": lambda b: b[1], "rows": lambda b: b[::2]}
    for _ in range(60):
        op = rng.choice(["masked_scatter_", "mask", "index"])
        src, dst = rng.choice(sorted(views)), rng.choice(["self", "stepped", "transposed"])
        mask = [rng.random() < 0.5 for _ in range(16)]
        got = []
        for T, copy in ((tensorviz, False), (torch, False), (torch, True)):
            b = T.arange(16.).reshape(4, 4) * 1.5 - 3
            d, s = views[dst](b), views[src](b)
            s = s.clone() if copy else s
            try:
                if op == "masked_scatter_":
                    d.masked_scatter_(T.tensor(mask[:d.numel()]).reshape(d.shape), s)
                elif op == "mask":
                    m = T.tensor(mask[:d.numel()]).reshape(d.shape)
                    d[m] = s.reshape(-1)[:int(m.sum())]
                else:
                    d[T.tensor([i % d.shape[0] for i in range(s.shape[0])])] = s
                got.append(b.tolist())
            except RuntimeError as e:
                got.append(str(e))
        mine, real, copied = got
        assert mine == (real if isinstance(real, str) else copied), (op, src, dst)



@pytest.mark.parametrize("seed", range(8))
def test_advanced_index_with_none_and_ints_has_pytorchs_layout(seed):
    """Seeded keys mixing index tensors, None, ints, slices and an Ellipsis over a permuted
    source: the result's shape and strides are PyTorch's (a None before an int is unsqueezed
    before the int selects, so its stride comes from the selected dim), or the same error."""
    import numpy as np
    rng = np.random.default_rng(seed)
    for _ in range(150):
        perm = tuple(int(p) for p in rng.permutation(3))
        key_t, key_v, ellipsis = [], [], False
        for _ in range(int(rng.integers(1, 5))):
            item = ["T", None, 0, -1, 1, "S", "E"][int(rng.integers(7))]
            if item == "E":
                if ellipsis:
                    continue
                ellipsis = True
                key_t.append(Ellipsis)
                key_v.append(Ellipsis)
            elif item == "T":
                idx = rng.integers(-2, 2, size=int(rng.integers(1, 3))).tolist()
                key_t.append(torch.tensor(idx))
                key_v.append(tensorviz.tensor(idx))
            else:
                key_t.append(slice(None) if item == "S" else item)
                key_v.append(slice(None) if item == "S" else item)
        outcome = []
        for lib, key in ((torch, key_t), (tensorviz, key_v)):
            try:
                r = lib.zeros(4, 4, 2).permute(perm)[tuple(key)]
                outcome.append((tuple(r.shape), r.stride()))
            except Exception as e:  # noqa: BLE001 - (compared: the same exception type)
                outcome.append(type(e).__name__)
        assert outcome[0] == outcome[1], (perm, key_t, outcome)
