"""View ops against PyTorch: random chains of views on random shapes.

After every step the shape, stride, storage offset, contiguity, dtype, values, and whether the
result shares storage with its base all equal PyTorch's, and when PyTorch raises, tensorviz
raises the same exception type.  Writes through the last view must land in the base exactly
where PyTorch's land.
"""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz
from tv_core_conftest import (apply_step, assert_same_tensor, draw_step, examples, host, outcome,
                      same, same_values, twins)

torch = pytest.importorskip("torch")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tv_core_conftest import view_chains  # noqa: E402

tv = tensorviz


def _base_data(dtype: str, shape: tuple) -> np.ndarray:
    n = int(np.prod(shape)) if shape else 1
    return (np.arange(n) + 1).astype(dtype).reshape(shape)


def _shares(pt_r, pt_base) -> bool | None:
    """Whether PyTorch's result shares its base's storage (None: cannot tell, no memory)."""
    p = pt_base.untyped_storage().data_ptr()
    if p == 0:
        return None
    return pt_r.untyped_storage().data_ptr() == p


def _run_both(step, tv_t, pt_t):
    """Apply a step to both; returns (tv result, pt result) or raises AssertionError."""
    try:
        pt_r = apply_step(torch, pt_t, step)
    except Exception as e:  # PyTorch refused: so must we, with the same exception type
        try:
            apply_step(tv, tv_t, step)
        except Exception as mine:
            assert type(mine) is type(e), (step, repr(mine), repr(e))
            return None, None
        raise AssertionError(f"{step}: PyTorch raised {e!r}, tensorviz did not")
    tv_r = apply_step(tv, tv_t, step)
    return tv_r, pt_r


@settings(max_examples=examples(400), deadline=None)
@given(view_chains(), st.data())
def test_random_view_chains_match_pytorch(chain, data):
    dtype, shape = chain
    base = _base_data(dtype, shape)
    tv_base, pt_base = twins(torch, base)
    tv_t, pt_t = tv_base, pt_base
    for _ in range(data.draw(st.integers(1, 6), label="steps")):
        numel = pt_t.untyped_storage().nbytes() // pt_t.element_size()
        step = data.draw(st.composite(lambda d: draw_step(d, tuple(pt_t.shape), numel))(),
                         label="step")
        tv_r, pt_r = _run_both(step, tv_t, pt_t)
        if pt_r is None:
            continue
        assert_same_tensor(tv_r, pt_r)
        shares = _shares(pt_r, pt_base)
        if shares is not None:
            assert (tv_r.untyped_storage() is tv_base.untyped_storage()) == shares, step
            if tv_base.untyped_storage().nbytes():
                assert (tv_r.untyped_storage().data_ptr()
                        == tv_base.untyped_storage().data_ptr()) == shares, step
        assert (tv_r.data_ptr() == tv_base.data_ptr()) == (pt_r.data_ptr() == pt_base.data_ptr()) \
            or shares is None
        tv_t, pt_t = tv_r, pt_r
    # Writing through the final view changes the same elements of the base as in PyTorch
    # (or fails with the same exception, leaving the base alone).
    write = data.draw(st.sampled_from(WRITES), label="write")
    if write in READ_WRITES and _overlaps(tv_t):
        # Note: PyTorch updates overlapping elements one after another (undefined behaviour
        # by its docs, e.g. x.as_strided((2, 2), (1, 1)).add_(1) adds twice to shared ones);
        # tensorviz computes from the values before the write.
        write = WRITES[0]
    value = data.draw(st.integers(-3, 3), label="value")
    before = host(tv_base)
    mine, theirs = (outcome(lambda L, t=t: write(L, t, value), lib)
                    for lib, t in ((tv, tv_t), (torch, pt_t)))
    if isinstance(theirs, Exception) or isinstance(mine, Exception):
        assert type(mine) is type(theirs), (mine, theirs)
        assert same_values(host(tv_base), before)
    else:
        assert same_values(host(tv_base), host(pt_base))
        assert same_values(host(tv_t), host(pt_t))
        assert tv_t.data_ptr() == tv_t.data_ptr()
    assert tv_base._version == pt_base._version


def _overlaps(t) -> bool:
    """Whether two elements of ``t`` share a storage slot (any layout, not only stride 0)."""
    if t.numel() < 2:
        return False
    n = t.untyped_storage().nbytes() // t.element_size()
    pos = np.lib.stride_tricks.as_strided(np.arange(n)[t.storage_offset():], t.shape,
                                          [8 * s for s in t.stride()])
    return len(np.unique(pos)) < t.numel()


WRITES = [
    lambda L, t, v: t.fill_(v),
    lambda L, t, v: t.zero_(),
    lambda L, t, v: t.add_(v),
    lambda L, t, v: t.mul_(v),
    lambda L, t, v: t.__setitem__(Ellipsis, v),
    lambda L, t, v: t.__setitem__(0, v),
    lambda L, t, v: t.__setitem__((slice(None, None, 2),), v),
    lambda L, t, v: t.copy_(L.full((t.shape[-1],) if t.dim() else (), v).to(t.dtype)),
    lambda L, t, v: t.__setitem__(Ellipsis, L.full((t.shape[-1],) if t.dim() else (), v)
                                  .to(t.dtype)),
    lambda L, t, v: t.__iadd__(L.ones(t.shape[-1:] if t.dim() else ()).to(t.dtype)),
    lambda L, t, v: t.clamp_(-1, v),
]


# ---------------------------------------------------------------- named cases
CASES = [
    ((3, 4), [("t", ())]),
    ((3, 4), [("index", ((slice(1, None), 1),))]),
    ((3, 4), [("index", ((Ellipsis, None, slice(None, None, 2)),))]),
    ((2, 3, 4), [("permute", ((2, 0, 1),)), ("reshape", ((4, 6),))]),
    ((2, 3, 4), [("transpose", (0, 2)), ("view", ((-1,),))]),
    ((2, 3, 4), [("index", ((slice(None), slice(None, 2)),)), ("view", ((4, 4),))]),
    ((2, 3, 4), [("index", ((slice(None), slice(None, 2)),)), ("view", ((2, 8),))]),
    ((2, 1, 4), [("expand", ((3, 2, 5, 4),))]),
    ((4,), [("expand", ((3, -1),)), ("view", ((12,),))]),
    ((4,), [("expand", ((3, -1),)), ("reshape", ((12,),))]),
    ((10,), [("unfold", (0, 3, 2))]),
    ((3, 4), [("unfold", (1, 2, 1)), ("unfold", (0, 2, 2))]),
    ((4, 5), [("diagonal", (1, 0, 1))]),
    ((4, 5), [("diagonal", (-2, 1, 0))]),
    ((4, 5), [("diagonal", (9, 0, 1))]),
    ((2, 3, 4), [("diagonal", (0, -1, 0))]),
    ((5, 4), [("chunk", (3, 0, 2))]),
    ((5, 4), [("split", ([1, 4], 0, 1))]),
    ((5, 4), [("tensor_split", ([1, -1], 0, 1))]),
    ((5, 4), [("tensor_split", ([3, 1], 0, 1))]),
    ((5, 4), [("unbind", (1, 3))]),
    ((3, 4), [("view_dtype", ("int8",))]),
    ((3, 4), [("view_dtype", ("complex128",))]),
    ((3, 4), [("t", ()), ("view_dtype", ("int8",))]),
    ((3, 4), [("index", ((slice(None), 1),)), ("view_dtype", ("int16",))]),
    ((0, 3), [("view", ((3, 0, 2),))]),
    ((0, 3), [("view", ((-1, 3),))]),
    ((), [("view", ((1, 1),)), ("expand", ((2, 3),))]),
    ((), [("unsqueeze", (0,)), ("squeeze", ())]),
    ((), [("unfold", (0, 1, 1))]),
    ((), [("flatten", (0, -1))]),
    ((3, 1, 2), [("squeeze", ((0, 1),))]),
    ((2, 3), [("movedim", ((0, 1), (1, 0)))]),
    ((2, 3, 4), [("movedim", (0, -1))]),
    ((2, 3, 4), [("unflatten", (1, (3, 1)))]),
    ((2, 12), [("unflatten", (1, (-1, 4)))]),
    ((3, 4), [("as_strided", ((2, 2), (1, 2), 1))]),
    ((3, 4), [("as_strided", ((4, 4), (4, 1), None))]),
    ((3, 4), [("as_strided", ((2,), (-1,), None))]),
    ((3, 4), [("index", ((slice(None, None, -1),),))]),
    ((3, 4), [("index", ((slice(None, None, 0),),))]),
    ((3, 4), [("index", ((1, 2, 3),))]),
    ((3, 4), [("index", ((5,),))]),
    ((3, 4), [("select", (2, 0))]),
    ((3, 4), [("narrow", (1, 3, 2))]),
    ((3, 4), [("narrow", (1, -5, 1))]),
    ((3, 4), [("narrow", (0, 0, -1))]),
    ((3, 4), [("t", ()), ("contiguous", ())]),
    ((3, 4), [("contiguous", ())]),
    ((3, 4), [("t", ()), ("clone", ())]),
    ((3, 4), [("index", ((slice(None, None, 2),),)), ("clone", ())]),
    ((2, 3, 4), [("transpose", (0, 2)), ("clone", ())]),
    ((2, 3, 4), [("T", ())]),
    ((2, 3, 4), [("mT", ())]),
    ((5,), [("mT", ())]),
    ((3, 1), [("expand", ((3, 4),)), ("clone", ())]),
    ((3, 4), [("index", ((slice(None, None, 2), slice(None, None, 2)),)), ("contiguous", ())]),
]


@pytest.mark.parametrize("shape,steps", CASES, ids=[f"{s}-{'-'.join(n for n, _ in st_)}"
                                                     for s, st_ in CASES])
def test_named_view_cases(shape, steps):
    base = _base_data("float32", shape)
    tv_base, pt_base = twins(torch, base)
    tv_t, pt_t = tv_base, pt_base
    for step in steps:
        tv_r, pt_r = _run_both(step, tv_t, pt_t)
        if pt_r is None:
            return
        assert_same_tensor(tv_r, pt_r)
        shares = _shares(pt_r, pt_base)
        assert (tv_r.untyped_storage() is tv_base.untyped_storage()) == shares
        tv_t, pt_t = tv_r, pt_r


# ---------------------------------------------------------------- invariants
def test_views_are_o1_and_share_one_storage_object():
    a = tv.arange(24).reshape(2, 3, 4)
    views = [a.t() if a.dim() == 2 else a.transpose(0, 1), a[1], a[:, 1:], a.permute(2, 0, 1),
             a.view(6, 4), a.unsqueeze(0), a.expand(3, 2, 3, 4), a.diagonal(0, 1, 2),
             a.unfold(2, 2, 1), a.narrow(1, 1, 2), a.view(tv.int32), a.flatten(),
             *a.chunk(2, 1), *a.unbind(2), a.as_strided((2, 2), (1, 1), 3)]
    for v in views:
        assert v.untyped_storage() is a.untyped_storage()
        assert v.storage() is a.storage() or v.dtype is not a.dtype


def test_copies_make_new_storage():
    a = tv.arange(12).reshape(3, 4)
    for c in (a.clone(), a.t().contiguous(), a.t().reshape(-1), a[[0, 2]], a[a > 3]):
        assert c.untyped_storage() is not a.untyped_storage()
    assert a.contiguous() is a


def test_views_write_through_to_base():
    a = tv.zeros(3, 4)
    a.t()[1, 2] = 7
    a[:, 0].fill_(1)
    a.view(12)[11] = 5
    a.unfold(1, 2, 2)[0, 1, 0] = 3
    a.diagonal()[1] = 9
    assert a.tolist() == [[1, 0, 3, 0], [1, 9, 0, 0], [1, 7, 0, 5]]


def test_clone_keeps_dense_dim_order_like_pytorch():
    for perm in [(0, 1, 2), (2, 0, 1), (1, 2, 0), (2, 1, 0)]:
        tv_t = tv.zeros(2, 3, 4).permute(*perm).clone()
        pt_t = torch.zeros(2, 3, 4).permute(*perm).clone()
        assert tv_t.stride() == pt_t.stride()
        tv_t = tv.zeros(2, 3, 4).permute(*perm).clone(memory_format=tv.contiguous_format)
        assert tv_t.is_contiguous()


def test_view_error_is_runtime_error_with_pytorchs_advice():
    with pytest.raises(RuntimeError, match=r"Use \.reshape\(\.\.\.\) instead"):
        tv.zeros(3, 4).t().view(12)


@pytest.mark.parametrize("fn", ["transpose", "swapaxes", "swapdims", "t", "permute", "movedim",
                                "moveaxis", "reshape", "flatten", "unflatten", "squeeze",
                                "unsqueeze", "narrow", "select", "broadcast_to", "chunk",
                                "split", "unbind", "tensor_split", "diagonal", "as_strided",
                                "hsplit", "vsplit"])
def test_function_forms_equal_methods(fn):
    args = {"transpose": (0, 1), "swapaxes": (0, 1), "swapdims": (0, 1), "t": (),
            "permute": ((1, 0),), "movedim": (0, 1), "moveaxis": (0, 1), "reshape": ((4, 3),),
            "flatten": (), "unflatten": (1, (2, 2)), "squeeze": (), "unsqueeze": (1,),
            "narrow": (1, 1, 2), "select": (0, 2), "broadcast_to": ((2, 3, 4),),
            "chunk": (2,), "split": (2,), "unbind": (), "tensor_split": (2,),
            "diagonal": (), "as_strided": ((2, 2), (1, 2)), "hsplit": (2,),
            "vsplit": ([1],)}[fn]
    a = tv.arange(12.0).reshape(3, 4)
    p = torch.arange(12.0).reshape(3, 4)
    r, q = getattr(tv, fn)(a, *args), getattr(torch, fn)(p, *args)
    if isinstance(q, tuple):
        assert len(r) == len(q)
        for x, y in zip(r, q):
            assert_same_tensor(x, y)
    else:
        assert_same_tensor(r, q)


NP_SPLITS = [
    lambda L: L.zeros(6).hsplit(2), lambda L: L.zeros(2, 6).hsplit(3),
    lambda L: L.zeros(6).hsplit([1, 4]), lambda L: L.zeros(6).hsplit(L.tensor(2)),
    lambda L: L.zeros(6).hsplit(indices=[2]), lambda L: L.zeros(6).hsplit(sections=3),
    lambda L: L.hsplit(L.arange(6.0), 2), lambda L: L.zeros(6, 4).vsplit(3),
    lambda L: L.vsplit(L.zeros(6, 2), (1,)), lambda L: L.zeros(2, 6, 4).dsplit([1, 3]),
    lambda L: L.dsplit(L.arange(24).reshape(2, 3, 4), 2),
    lambda L: L.tensor(1).hsplit(2), lambda L: L.zeros(6).hsplit(4), lambda L: L.zeros(6).hsplit(0),
    lambda L: L.zeros(0).hsplit(0), lambda L: L.zeros(6).vsplit(2),
    lambda L: L.zeros(6, 2).dsplit(2), lambda L: L.zeros(2, 6, 4).dsplit(3),
    lambda L: L.zeros(6).hsplit(2.0),
    lambda L: L.zeros(6).split(L.tensor(2)), lambda L: L.zeros(6).split(L.tensor([2])),
    lambda L: L.tensor(1).chunk(0), lambda L: L.arange(24).reshape(2, 3, 4).chunk(0, 3),
    lambda L: L.arange(24).reshape(2, 3, 4).chunk(-1, 5),
]


@pytest.mark.parametrize("fn", NP_SPLITS, ids=[f"npsplit{i}" for i in range(len(NP_SPLITS))])
def test_numpy_style_splits_and_split_errors_match_pytorch(fn):
    same(fn)


KEYWORDS = [
    lambda L, a: a.permute(dims=(1, 0, 2)), lambda L, a: L.permute(a, dims=(2, 0, 1)),
    lambda L, a: a.view(size=(6, 4)), lambda L, a: a.view(dtype=L.int32),
    lambda L, a: a.reshape(shape=(6, 4)), lambda L, a: L.reshape(a, shape=(4, 6)),
    lambda L, a: a.expand(size=(2, 2, 3, 4)), lambda L, a: a.swapaxes(axis0=0, axis1=1),
    lambda L, a: a.swapdims(dim0=0, dim1=2), lambda L, a: a.transpose(dim0=0, dim1=1),
    lambda L, a: L.split(a, split_size_or_sections=2, dim=2), lambda L, a: a.split(2, dim=1),
    lambda L, a: a.new_zeros(size=(2,)), lambda L, a: a.new_ones(size=(2, 1)),
    lambda L, a: a.new_empty(size=(2,)).shape, lambda L, a: L.zeros(size=(2, 3)),
    lambda L, a: L.ones(size=(2,)), lambda L, a: L.empty(size=(2,)).shape,
    lambda L, a: L.zeros(2, size=(2,)), lambda L, a: a.view(2, size=(2,)),
    lambda L, a: a.permute(0, dims=(0,)), lambda L, a: a.unflatten(dim=2, sizes=(2, 2)),
    lambda L, a: a.narrow(dim=2, start=1, length=2), lambda L, a: a.select(dim=1, index=0),
    lambda L, a: a.movedim(source=0, destination=2), lambda L, a: a.squeeze(dim=0),
    lambda L, a: a.unfold(dimension=2, size=2, step=2), lambda L, a: a.chunk(chunks=2, dim=2),
    lambda L, a: a.diagonal(offset=1, dim1=1, dim2=2), lambda L, a: a.unbind(dim=1),
    lambda L, a: a.as_strided(size=(2, 2), stride=(1, 2), storage_offset=1),
]


INDEX_LIKE_DIMS = [
    lambda L, a: a.squeeze(np.int64(0)), lambda L, a: a.squeeze(L.tensor(0)),
    lambda L, a: a.squeeze([0]), lambda L, a: a.squeeze(1.0),
    lambda L, a: a.movedim(np.int64(0), 2), lambda L, a: a.movedim(L.tensor(0), 1),
    lambda L, a: a.movedim(0.0, 1), lambda L, a: a.transpose(np.int64(0), 2),
    lambda L, a: a.select(np.int32(1), np.int64(0)), lambda L, a: a.narrow(1, L.tensor(1), 1),
    lambda L, a: a.unsqueeze(np.int64(0)), lambda L, a: a.flatten(np.int64(1)),
]


@pytest.mark.parametrize("fn", INDEX_LIKE_DIMS, ids=[f"dimarg{i}" for i in
                                                      range(len(INDEX_LIKE_DIMS))])
def test_numpy_ints_and_0dim_tensors_as_dims_like_pytorch(fn):
    same(lambda L: fn(L, L.arange(6.0).reshape(1, 2, 3)))


@pytest.mark.parametrize("fn", KEYWORDS, ids=[f"kw{i}" for i in range(len(KEYWORDS))])
def test_keyword_arguments_match_pytorch(fn):
    same(lambda L: fn(L, L.arange(24.0).reshape(2, 3, 4)))


def test_broadcast_tensors_and_shapes():
    a, b = tv.broadcast_tensors(tv.zeros(3, 1), tv.zeros(4))
    p, q = torch.broadcast_tensors(torch.zeros(3, 1), torch.zeros(4))
    assert_same_tensor(a, p)
    assert_same_tensor(b, q)
    assert tv.broadcast_shapes((3, 1), (4,), 1) == torch.broadcast_shapes((3, 1), (4,), 1)
    with pytest.raises(RuntimeError):
        tv.broadcast_shapes((3,), (4,))
READ_WRITES = [WRITES[i] for i in (2, 3, 9, 10)]  # those reading what they write


def test_atleast_3d_of_a_vector_is_unsqueezed_twice():
    """atleast_3d of a 1-d tensor is ``unsqueeze(0).unsqueeze(-1)`` as in PyTorch (strides of
    a strided vector included)."""
    torch = pytest.importorskip("torch")
    got = []
    for T in (tensorviz, torch):
        v = T.tensor([-0.75, -0.75, 1.0, 2.0])[..., ::2]
        got.append([T.atleast_3d(x).stride() for x in (v, v[:1], T.tensor(1.), v.reshape(1, 2))])
    assert got[0] == got[1]


def test_broadcast_tensors_returns_inputs_of_the_common_shape():
    """As PyTorch, an input that already has the broadcast shape comes back itself (so an
    in-place unsqueeze_ of it shows in the result), the others as expanded views."""
    x = tensorviz.tensor([1., 2.])
    a, b = tensorviz.broadcast_tensors(x, tensorviz.zeros(2, 2))
    assert a is not x and a.shape == (2, 2)
    c, d = tensorviz.broadcast_tensors(x, tensorviz.zeros(2))
    assert c is x and d is not x


@pytest.mark.parametrize("attr", ["H", "mH", "adjoint"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 2, 3)])
@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_conjugate_transposes_as_pytorch(attr, shape, dtype):
    """``H`` is for matrices only (and 0-D, deprecated: conjugated), ``mH``/``adjoint`` for
    matrices and batches: PyTorch's errors for the rest, its once-per-process warning for 0-D
    (at the caller's line), the view's layout and conjugate bit, and its graph
    (TransposeBackward0, then ConjBackward0 for a complex input)."""
    import warnings
    got = []
    for T in (tensorviz, torch):
        x = T.ones(shape, dtype=getattr(T, dtype), requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                r = getattr(x, attr)
                r = r() if callable(r) else r
            except RuntimeError as e:
                got.append(str(e))
                continue
        fn = r.grad_fn
        names = []
        while fn is not None and fn.next_functions:
            names.append(fn.name())
            fn = fn.next_functions[0][0]
        got.append((tuple(r.shape), r.stride(), r.is_conj(), r is x, names,
                    [str(w.message).split(" (Triggered")[0] for w in caught],
                    {w.filename for w in caught} <= {__file__}))
    assert got[0] == got[1]
