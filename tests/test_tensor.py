"""The Tensor class against PyTorch: metadata, conversion, NumPy interop, operators, in-place
ops and setitem through views, and the Python protocol methods.

Most checks run the same program on ``tensorviz`` and on ``torch`` (``both``) and compare the
outcome: the same exception type, or the same type, dtype, shape, strides and values.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tensorviz as tv
from tv_core_conftest import DTYPE_NAMES, assert_same_tensor, outcome, same

torch = pytest.importorskip("torch")


# ---------------------------------------------------------------- metadata
META = [
    lambda L: L.zeros(3, 4).shape, lambda L: L.zeros(3, 4).size(), lambda L: L.zeros(3, 4).size(1),
    lambda L: L.zeros(3, 4).size(-2), lambda L: L.zeros(3, 4).size(2), lambda L: L.tensor(1).size(0),
    lambda L: L.zeros(3, 4).stride(), lambda L: L.zeros(3, 4).t().stride(0),
    lambda L: L.tensor(1).stride(0), lambda L: L.zeros(3, 4)[1:, 2:].storage_offset(),
    lambda L: L.zeros(3, 4).dim(), lambda L: L.zeros(3, 4).ndim, lambda L: L.zeros(3, 4).ndimension(),
    lambda L: L.zeros(3, 4).numel(), lambda L: L.zeros(3, 0).nelement(), lambda L: L.numel(L.zeros(5)),
    lambda L: L.zeros(3, 4).dtype, lambda L: L.zeros(3, 4).device, lambda L: L.zeros(2).is_cuda,
    lambda L: L.zeros(2).is_cpu, lambda L: L.zeros(2).get_device(), lambda L: L.zeros(2).is_leaf,
    lambda L: L.zeros(2).grad, lambda L: L.zeros(2).requires_grad,
    lambda L: L.zeros(2, dtype=L.int16).element_size(), lambda L: L.zeros(2, dtype=L.cdouble).itemsize,
    lambda L: L.zeros(3, 4, dtype=L.float64).nbytes, lambda L: L.zeros(2).is_floating_point(),
    lambda L: L.zeros(2, dtype=L.cfloat).is_complex(), lambda L: L.zeros(2, dtype=L.uint8).is_signed(),
    lambda L: L.zeros(2, dtype=L.bool).is_signed(), lambda L: L.zeros(2, dtype=L.int8).is_signed(),
    lambda L: L.zeros(3, 4).t().is_contiguous(), lambda L: L.zeros(3, 1).expand(3, 4).is_contiguous(),
    lambda L: L.zeros(3, 4)[:, :1].is_contiguous(), lambda L: str(L.zeros(2).layout).split(".")[1],
    lambda L: L.is_tensor(L.zeros(1)), lambda L: L.is_tensor([1]), lambda L: L.is_floating_point(L.zeros(1)),
    lambda L: L.zeros(2, dtype=L.int64).requires_grad_(), lambda L: L.zeros(2).requires_grad_().requires_grad,
    lambda L: L.Size([2, 3]), lambda L: L.Size([2, 3])[1:], lambda L: L.Size([2, 3]) + (4,),
    lambda L: L.Size([2, 3]).numel(), lambda L: L.Size([2.5]), lambda L: L.Size([L.tensor(2), 3]),
    lambda L: L.zeros(2, 3).shape == (2, 3), lambda L: L.is_nonzero(L.tensor([1])),
    lambda L: L.is_nonzero(L.tensor([1, 2])), lambda L: L.is_nonzero(L.tensor([])),
]


@pytest.mark.parametrize("fn", META, ids=[f"meta{i}" for i in range(len(META))])
def test_metadata_matches_pytorch(fn):
    same(fn)


def test_size_prints_like_pytorch():
    assert repr(tv.zeros(2, 3).shape) == "tensorviz.Size([2, 3])"
    assert str(tv.Size([])) == "tensorviz.Size([])"
    assert isinstance(tv.zeros(2, 3).shape[1:], tv.Size)


SIZE_OPS = [
    lambda L: L.Size([2, 3]) * 2, lambda L: 2 * L.Size([2, 3]), lambda L: L.Size([2]) * 0,
    lambda L: L.Size([2, 3]) + (1,), lambda L: (1,) + L.Size([2, 3]),
    lambda L: L.Size([1]) + L.Size([2]), lambda L: L.Size([2, 3]) + [1],
    lambda L: type(L.Size([2]) * 2).__name__, lambda L: type((1,) + L.Size([2])).__name__,
]


@pytest.mark.parametrize("fn", SIZE_OPS, ids=[f"size{i}" for i in range(len(SIZE_OPS))])
def test_size_arithmetic_stays_a_size_like_pytorch(fn):
    same(fn)


def test_data_ptr_counts_the_offset_in_bytes():
    a = tv.zeros(3, 4, dtype=tv.float64)
    p = torch.zeros(3, 4, dtype=torch.float64)
    assert a[1, 2:].data_ptr() - a.data_ptr() == p[1, 2:].data_ptr() - p.data_ptr() == 48
    assert a[3:].data_ptr() == p[3:].data_ptr() == 0  # no elements, no data


# ---------------------------------------------------------------- conversion
CONVERSIONS = [
    lambda L: L.zeros(2, 3).to(L.float32), lambda L: L.zeros(2, 3).t().to(L.int32),
    lambda L: L.zeros(2, 6)[:, ::2].to(L.int32), lambda L: L.zeros(2, 3).to("cpu"),
    lambda L: L.zeros(2, 3).to("cpu", L.int8), lambda L: L.zeros(2, 3).to(L.zeros(1, dtype=L.int16)),
    lambda L: L.zeros(2, 3).to(dtype=L.float64, copy=True), lambda L: L.zeros(2, 3).to(L.device("cpu")),
    lambda L: L.zeros(2, 3).to(device="cpu", dtype=L.float64), lambda L: L.zeros(2, 3).to("foo"),
    lambda L: L.zeros(2, 3).to(dtype="float32"), lambda L: L.zeros(2, 3).to(L.float32, foo=1),
    lambda L: L.zeros(2, 3).type().split(".")[1], lambda L: L.zeros(2, 3).type(L.int32),
    lambda L: L.zeros(2, 3).type(L.__name__ + ".IntTensor"), lambda L: L.zeros(2, 3).type("foo"),
    lambda L: L.zeros(2, 3).double(), lambda L: L.zeros(2, 3).t().half(), lambda L: L.zeros(2, 3).int(),
    lambda L: L.zeros(2, 3).cfloat(), lambda L: L.zeros(2, 3).cdouble(), lambda L: L.zeros(2, 3).bool(),
    lambda L: L.zeros(2, 3).byte(), lambda L: L.zeros(2, 3).char(), lambda L: L.zeros(2, 3).short(),
    lambda L: L.zeros(2, 3).long(), lambda L: L.zeros(2, 3, dtype=L.int8).float(),
    lambda L: L.zeros(2, 3).type_as(L.zeros(1, dtype=L.int8)),
    lambda L: L.tensor([1.7, -1.7, 0.5]).int(), lambda L: L.tensor([300, -1, 256]).to(L.uint8),
    lambda L: L.tensor([-3, 200]).to(L.int8), lambda L: L.tensor([0.5, 0, 2, -0.0]).bool(),
    lambda L: L.tensor([float("nan"), float("inf")]).bool(), lambda L: L.tensor([1 + 2j]).float(),
    lambda L: L.tensor([1 + 2j, 3j]).to(L.int64), lambda L: L.tensor([True, False]).cfloat(),
    lambda L: L.tensor([65504.0, 1e5, -1e5]).half(), lambda L: L.tensor([1e40]).float(),
    lambda L: L.zeros(2, 1, 3).permute(2, 0, 1).double(),
    lambda L: L.zeros(4, 1).expand(4, 3).to(L.float64),
    lambda L: L.zeros(2, 3).t().to(L.float64, memory_format=L.contiguous_format),
    lambda L: L.zeros(2, 3).t().clone(memory_format=L.contiguous_format),
    lambda L: L.zeros(2, 3).t().contiguous(), lambda L: L.zeros(2, 3)[:, ::2].clone(),
]


@pytest.mark.parametrize("fn", CONVERSIONS, ids=[f"conv{i}" for i in range(len(CONVERSIONS))])
def test_conversions_match_pytorch(fn):
    same(fn)


@pytest.mark.parametrize("arg", ["float", "int", "LongTensor", "DoubleTensor", "bad-name",
                                 "torch.LongTensor"])
def test_type_takes_legacy_names_and_classes_like_pytorch(arg):
    def call(L):
        a = {"float": float, "int": int, "bad-name": "torch.FooTensor",
             "torch.LongTensor": "torch.LongTensor"}.get(arg) or getattr(L, arg)
        return L.arange(3.0).type(a)
    same(call)


def test_to_returns_self_when_nothing_changes():
    a = tv.zeros(2, 3).t()
    assert a.to(a.dtype) is a and a.to("cpu") is a and a.to(a) is a and a.cpu() is a
    assert a.to(tv.float32, copy=False) is a and a.double().double() is not a
    assert a.type(tv.float32) is a
    c = a.to(a.dtype, copy=True)
    assert c is not a and c.untyped_storage() is not a.untyped_storage()
    assert c.stride() == a.stride()  # preserve_format
    # Tensor(t) is an alias, as in PyTorch: a new tensor on the same storage, any dtype
    b = tv.Tensor(a)
    assert b is not a and b.untyped_storage() is a.untyped_storage()
    assert b.stride() == a.stride() and b.data_ptr() == a.data_ptr()
    i = tv.arange(3)
    assert tv.Tensor(i).dtype is tv.int64 and tv.Tensor(i).data_ptr() == i.data_ptr()


def test_complex_to_real_warns_like_pytorch():
    with pytest.warns(UserWarning, match="imaginary part"):
        tv.tensor([1 + 2j]).float()


@pytest.mark.parametrize("src", DTYPE_NAMES)
def test_casts_between_every_dtype_pair(src):
    data = np.array([0, 1, 2, 100, 127, 3], dtype=np.int64)
    for dst in DTYPE_NAMES:
        def cast(L, dst=dst):
            return L.tensor(data.tolist()).to(getattr(L, src)).t().to(getattr(L, dst))
        same(cast)


# ---------------------------------------------------------------- NumPy interop
def test_numpy_shares_memory_both_ways(devices):
    if devices != "cpu":
        pytest.skip("numpy() is for CPU tensors")
    a = np.arange(12.0).reshape(3, 4)
    t = tv.from_numpy(a)
    assert t.numpy() is not a and np.shares_memory(t.numpy(), a)
    a[0, 0] = 100
    assert t[0, 0].item() == 100
    t[1, 1] = -5
    assert a[1, 1] == -5
    v = t.t()[1:]
    assert np.shares_memory(v.numpy(), a) and v.numpy().strides == (8, 32)
    assert t._version == 1


@pytest.mark.parametrize("make", [
    lambda a: a.T, lambda a: a[::2], lambda a: a[:, 1::2], lambda a: a[1:, :3].T,
    lambda a: np.lib.stride_tricks.as_strided(a, (3, 3), (8, 8)),
    lambda a: np.broadcast_to(a[0], (2, 4)), lambda a: a[0], lambda a: a[:0],
])
def test_from_numpy_keeps_positive_strides(make):
    a = np.arange(12.0).reshape(3, 4)
    view = make(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # broadcast_to is read-only: both warn
        t, p = tv.from_numpy(view), torch.from_numpy(view)
    assert_same_tensor(t, p)
    assert t.storage_offset() == p.storage_offset() == 0
    if view.size:
        assert np.shares_memory(t.numpy(), a)


@pytest.mark.parametrize("bad", [
    lambda: np.arange(6.0)[::-1], lambda: np.arange(6.0).reshape(2, 3)[:, ::-1],
    lambda: np.arange(6, dtype=">i4"), lambda: np.array(["a"]), lambda: np.arange(3).astype("O"),
    lambda: [1, 2], lambda: np.float64(2.0), lambda: 3,
])
def test_from_numpy_errors_match_pytorch(bad):
    same(lambda L: L.from_numpy(bad()))


def test_from_numpy_of_read_only_array_warns():
    a = np.arange(3.0)
    a.flags.writeable = False
    with pytest.warns(UserWarning, match="not writable"):
        tv.from_numpy(a)


def test_unsupported_numpy_dtype_is_a_type_error():
    # Note: PyTorch 2.x also holds uint16/32/64; tensorviz has the 11 classic dtypes only.
    with pytest.raises(TypeError, match="uint16"):
        tv.from_numpy(np.arange(3, dtype=np.uint16))


@pytest.mark.filterwarnings("ignore:__array__ implementation doesn't accept a copy")
def test_numpy_array_protocol():
    a, p = tv.zeros(2, 3).t(), torch.zeros(2, 3).t()
    assert np.asarray(a).strides == np.asarray(p).strides
    assert np.array(a).strides == np.array(p).strides  # a copy keeps the dim order
    assert np.array(a, dtype=np.float64).dtype == np.float64
    assert np.shares_memory(np.asarray(a), a.numpy())
    assert not np.shares_memory(np.array(a), a.numpy())
    assert a.numpy(force=True).shape == (3, 2)
    assert tv.zeros(2, dtype=tv.bool).numpy().dtype == np.bool_


UFUNCS = [
    lambda L: np.sin(L.arange(3.0)), lambda L: np.sin(L.tensor(1.0)),
    lambda L: np.add(L.arange(3.0), L.arange(3.0)), lambda L: np.maximum(L.arange(3.0), 1),
    lambda L: np.sqrt(L.arange(3)), lambda L: np.divmod(L.arange(3.0), 2),
    lambda L: np.sin(L.arange(6.0).reshape(2, 3).t()),
    lambda L: np.sin(L.arange(6.0).reshape(2, 3)[:, ::2]),
    lambda L: np.greater(L.arange(3.0), 1), lambda L: np.isnan(L.tensor([float("nan"), 1])),
    lambda L: np.exp(L.ones(2, dtype=L.complex64)), lambda L: np.add(L.arange(3.0), 1, out=None),
]


@pytest.mark.parametrize("fn", UFUNCS, ids=[f"ufunc{i}" for i in range(len(UFUNCS))])
def test_numpy_ufuncs_give_tensors_like_pytorch(fn):
    """``np.sin(t)`` is a tensor (bool results come back as uint8, PyTorch's workaround)."""
    same(fn)


def test_numpy_operands_become_tensors_like_pytorch():
    for f in (lambda L: L.ones(3) + np.ones(3), lambda L: np.ones(3) + L.ones(3),
              lambda L: L.ones(3) * np.ones(3, dtype=np.float32),
              lambda L: L.ones(3) * np.float64(2.0), lambda L: np.float32(2.0) * L.ones(3),
              lambda L: L.ones(3, dtype=L.int32) * np.int64(2),
              lambda L: L.ones(3, dtype=L.int32) < np.int64(2)):
        same(f)


TOLIST = [
    lambda L: L.tensor(5).tolist(), lambda L: L.tensor([[1, 2]], dtype=L.uint8).tolist(),
    lambda L: L.tensor([1.5], dtype=L.float16).tolist(), lambda L: L.tensor([True]).tolist(),
    lambda L: L.tensor([1j]).tolist(), lambda L: L.zeros(2, 3).t().tolist(),
    lambda L: L.tensor(2.5).item(), lambda L: L.tensor([[2]]).item(), lambda L: L.tensor([1, 2]).item(),
    lambda L: L.tensor([]).item(), lambda L: type(L.tensor(2).item()),
    lambda L: type(L.tensor(True).item()), lambda L: type(L.tensor(1j).item()),
    lambda L: L.tensor(1.1, dtype=L.float16).item(), lambda L: L.tensor(1.1).item(),
]


@pytest.mark.parametrize("fn", TOLIST, ids=[f"tolist{i}" for i in range(len(TOLIST))])
def test_tolist_and_item_match_pytorch(fn):
    same(fn)


# ---------------------------------------------------------------- Python protocol methods
PROTOCOL = [
    lambda L: int(L.tensor(2.7)), lambda L: int(L.tensor([2.7])), lambda L: int(L.tensor([2.7, 1])),
    lambda L: int(L.tensor(2 + 3j)), lambda L: int(L.tensor(2 + 0j)), lambda L: float(L.tensor(2)),
    lambda L: float(L.tensor(2 + 3j)), lambda L: float(L.tensor([])), lambda L: complex(L.tensor(2)),
    lambda L: L.tensor(2).__index__(), lambda L: L.tensor([2]).__index__(),
    lambda L: L.tensor(2.0).__index__(), lambda L: L.tensor(True).__index__(),
    lambda L: L.tensor([1, 2]).__index__(), lambda L: bool(L.tensor(0)), lambda L: bool(L.tensor([0.5])),
    lambda L: bool(L.tensor([1, 2])), lambda L: bool(L.tensor([])), lambda L: len(L.tensor(1)),
    lambda L: len(L.zeros(3, 4)), lambda L: len(L.zeros(0, 4)), lambda L: list(L.tensor(1)),
    lambda L: [r.tolist() for r in L.zeros(2, 3).t()],
    lambda L: [[x.item() for x in r] for r in L.zeros(2, 2)],
    lambda L: 3 in L.tensor([1, 2, 3]), lambda L: L.tensor([1, 2]) in L.tensor([1, 2, 3]),
    lambda L: L.tensor(3) in L.tensor([1, 2, 3]), lambda L: "a" in L.tensor([1, 2]),
    lambda L: [1, 2] in L.tensor([1, 2]), lambda L: format(L.tensor(2.5), ".2f"),
    lambda L: format(L.tensor([2.5]), ".2f"), lambda L: "{:d}".format(L.tensor(3)),
    lambda L: range(10)[L.tensor(2)], lambda L: [1, 2, 3][L.tensor(1)],
]


@pytest.mark.parametrize("fn", PROTOCOL, ids=[f"proto{i}" for i in range(len(PROTOCOL))])
def test_python_protocol_matches_pytorch(fn):
    same(fn)


def test_iteration_yields_views():
    a = tv.arange(6).reshape(2, 3)
    rows = list(a)
    assert all(r.untyped_storage() is a.untyped_storage() for r in rows)
    assert [r.storage_offset() for r in rows] == [0, 3]


def test_deepcopy_and_pickle_round_trip():
    import copy
    import pickle
    a = tv.arange(6.0).reshape(2, 3).t()
    b = copy.deepcopy(a)
    assert b.tolist() == a.tolist() and b.untyped_storage() is not a.untyped_storage()
    c = pickle.loads(pickle.dumps(a))
    assert c.tolist() == a.tolist() and c.dtype is a.dtype


def _pickled(L, x):
    import pickle
    return pickle.loads(pickle.dumps(x))


def _deepcopied(L, x):
    import copy
    return copy.deepcopy(x)


COPIES = [
    lambda L: _pickled(L, L.arange(6.0).reshape(2, 3).t()),
    lambda L: _pickled(L, L.arange(6.0)[2:]).storage_offset(),
    lambda L: _pickled(L, L.arange(6.0)[2:]).untyped_storage().nbytes(),
    lambda L: _pickled(L, L.arange(3).expand(2, 3)),
    lambda L: _deepcopied(L, L.arange(6.0).reshape(2, 3).t()),
    lambda L: _deepcopied(L, L.arange(3).expand(2, 3)),
    lambda L: _deepcopied(L, L.arange(6.0)[1::2]).untyped_storage().nbytes(),
]


@pytest.mark.parametrize("fn", COPIES, ids=[f"copy{i}" for i in range(len(COPIES))])
def test_pickle_and_deepcopy_keep_the_layout_like_pytorch(fn):
    same(fn)


@pytest.mark.parametrize("how", ["pickle", "deepcopy", "copy"])
def test_copies_of_views_share_memory_as_in_pytorch(how):
    """deepcopy keeps views of one storage views of one copy; pickle copies each tensor's
    storage apart; copy.copy is an alias."""
    import copy
    import pickle
    fn = {"pickle": lambda x: pickle.loads(pickle.dumps(x)), "deepcopy": copy.deepcopy,
          "copy": copy.copy}[how]
    out = []
    for L in (tv, torch):
        a = L.arange(6.0)
        b, c = fn((a, a[1:]))
        c[0] = 100
        out.append((b.tolist(), a.tolist()))
    assert out[0] == out[1]


# ---------------------------------------------------------------- operators
OPERATORS = [
    lambda L: L.tensor([1, 2]) + 1, lambda L: 1 + L.tensor([1, 2]), lambda L: 2.5 - L.tensor([1, 2]),
    lambda L: L.tensor([1, 2]) - True, lambda L: True - L.tensor([1, 2]),
    lambda L: 3 * L.tensor([[1], [2]]), lambda L: 7 / L.tensor([2, 4]), lambda L: 7 // L.tensor([2, -4]),
    lambda L: -7 % L.tensor([2, 4]), lambda L: 2 ** L.tensor([2, -1, 0]),
    lambda L: 2.0 ** L.tensor([2, -1]), lambda L: L.tensor([2, 3]) ** 2,
    lambda L: L.tensor([2, 3]) ** -1, lambda L: L.tensor([2.0, 3]) ** -1,
    lambda L: L.tensor([2, 3]) ** 0.5, lambda L: L.tensor([4, 9]) ** L.tensor(-1),
    lambda L: -L.tensor([1, -2]), lambda L: -L.tensor([True]), lambda L: +L.tensor([True]),
    lambda L: abs(L.tensor([-1.5, 2])), lambda L: abs(L.tensor([3 + 4j])), lambda L: ~L.tensor([1, 0]),
    lambda L: ~L.tensor([True, False]), lambda L: ~L.tensor([1.5]), lambda L: 5 & L.tensor([3, 6]),
    lambda L: 5 | L.tensor([3, 6]), lambda L: 5 ^ L.tensor([3, 6]), lambda L: 1 << L.tensor([3, 6]),
    lambda L: 64 >> L.tensor([3, 6]), lambda L: L.tensor([1, 2]) == L.tensor([[1], [2]]),
    lambda L: 2 < L.tensor([1, 2, 3]), lambda L: L.tensor([1, 2]) != 2.0, lambda L: L.zeros(2) + L.zeros(3),
    lambda L: L.zeros(2, 3) * L.zeros(3, 2), lambda L: L.zeros(2) < L.zeros(3),
    lambda L: L.zeros(2) & L.zeros(3), lambda L: L.zeros(3) + "a", lambda L: L.zeros(3) + None,
    lambda L: L.zeros(3) + [1, 2, 3], lambda L: L.tensor([1, 2]).add(L.tensor([3, 4]), alpha=2),
    lambda L: L.tensor([1, 2]).add(1, alpha=2.5), lambda L: L.tensor([1.0, 2]).sub(1, alpha=2),
    lambda L: L.tensor([True]).add(True, alpha=False), lambda L: L.tensor([5, -5]).div(2, rounding_mode="floor"),
    lambda L: L.tensor([5, -5]).div(2, rounding_mode="trunc"), lambda L: L.tensor([5, -5]).div(2, rounding_mode="x"),
    lambda L: L.tensor([5, -5]) // 0, lambda L: L.tensor([5.0, -5]) // 0, lambda L: L.tensor([5, -5]) % 0,
    lambda L: L.tensor([5.0, -5]) % 0, lambda L: L.tensor([5.0, -5]) / 0, lambda L: L.tensor([0.0]) / 0,
    lambda L: L.tensor([5, 6]).clamp(0, 5), lambda L: L.tensor([5, 6]).clamp(max=5.5),
    lambda L: L.tensor([5, 6]).clamp(), lambda L: L.tensor([1j]).clamp(0),
    lambda L: L.tensor([5, 6], dtype=L.uint8).clamp(max=300),
    lambda L: L.clamp(L.tensor([1.0, 9]), L.tensor([2.0, 2]), L.tensor(5.0)),
]


@pytest.mark.parametrize("fn", OPERATORS, ids=[f"op{i}" for i in range(len(OPERATORS))])
def test_operators_match_pytorch(fn):
    same(fn)


# ---------------------------------------------------------------- in-place ops and setitem
def _views(L):
    base = L.arange(24.0).reshape(4, 6)
    return base, [base, base.t(), base[1:3, ::2], base[:, 2], base.diagonal(),
                  base.view(2, 12)[1], base.unfold(1, 2, 2)[:, :, 0], base[None, 1:, 1:]]


INPLACE = [
    ("add_", (1,)), ("add_", (0.5,)), ("sub_", (2,)), ("mul_", (-1,)), ("div_", (2,)),
    ("zero_", ()), ("fill_", (7,)), ("fill_", (2.5,)), ("clamp_", (3, 9)), ("clamp_", (None, 4)),
    ("add_", ("row",)), ("mul_", ("col",)), ("copy_", ("row",)), ("copy_", ("full",)),
    ("add_", ("full",)), ("fill_", ("zero-dim",)), ("pow_", (2,)), ("neg_", ()),
    ("abs_", ()), ("floor_divide_", (2,)), ("remainder_", (3,)), ("add_", (1,), {"alpha": 3}),
    ("sub_", ("row",), {"alpha": 0.5}),
]


def _arg(L, a, view):
    if a == "row":
        return L.arange(float(view.shape[-1])) if view.dim() else L.tensor(3.0)
    if a == "col":
        return L.ones(*view.shape[:-1], 1) * 2 if view.dim() >= 2 else L.tensor(2.0)
    if a == "full":
        return L.ones(view.shape) * 3
    if a == "zero-dim":
        return L.tensor(5.0)
    return a


@pytest.mark.parametrize("case", INPLACE, ids=[f"{c[0]}{c[1]}{c[2] if len(c) > 2 else ''}"
                                                for c in INPLACE])
@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8"])
def test_inplace_ops_through_views_match_pytorch(case, dtype):
    name, args, kw = (case + ({},))[:3]
    for i in range(8):
        def run(L, i=i):
            base, views = _views(L)
            base = base.to(getattr(L, dtype))
            view = [base, base.t(), base[1:3, ::2], base[:, 2], base.diagonal(),
                    base.view(2, 12)[1], base.unfold(1, 2, 2)[:, :, 0], base[None, 1:, 1:]][i]
            ptr = view.data_ptr()
            res = getattr(view, name)(*[_arg(L, a, view) for a in args], **kw)
            assert res is view and view.data_ptr() == ptr
            return base, base._version
        mine, theirs = outcome(run, tv), outcome(run, torch)
        if isinstance(theirs, BaseException) or isinstance(mine, BaseException):
            assert type(mine) is type(theirs), (case, i, mine, theirs)
            continue
        assert_same_tensor(mine[0], theirs[0])
        assert mine[1] == theirs[1]


SETITEM = [
    ((0,), 1.5), ((slice(None),), 2), ((slice(1, 3), 1), -1), ((Ellipsis, 0), 9),
    ((None, 1), 4), ((slice(None, None, 2),), "row"), ((0,), "row"), ((slice(None),), "col"),
    ((slice(None), 0), "zero-dim"), ((1, 2), "zero-dim"), ((slice(None),), "bad-shape"),
    ((slice(None),), "leading-ones"), ((0,), [1, 2]), ((0,), "a"), ((0,), None),
    ((0,), 1e300), ((0,), 2 ** 70), ((slice(None),), "int-tensor"), ((slice(None),), "complex"),
    ((slice(None, None, -1),), 1), ((slice(None, None, 0),), 1), ((9,), 1), ((0, 0, 0, 0), 1),
]


def _value(L, v, dest_shape):
    if v == "row":
        return L.arange(float(dest_shape[-1])) if dest_shape else L.tensor(1.0)
    if v == "col":
        return L.ones(*dest_shape[:-1], 1) * 4 if len(dest_shape) >= 2 else L.tensor(4.0)
    if v == "zero-dim":
        return L.tensor(6.0)
    if v == "bad-shape":
        return L.ones(7)
    if v == "leading-ones":
        return L.ones(1, 1, *dest_shape)
    if v == "int-tensor":
        return L.ones(dest_shape, dtype=L.int64) * 3
    if v == "complex":
        return L.ones(dest_shape, dtype=L.cfloat) * (1 + 2j)
    return v


@pytest.mark.parametrize("key,value", SETITEM, ids=[f"set{i}" for i in range(len(SETITEM))])
@pytest.mark.parametrize("view", range(8))
def test_setitem_through_views_matches_pytorch(key, value, view):
    def run(L):
        base, views = _views(L)
        v = views[view]
        ptr = v.data_ptr()
        dest_shape = tuple(v[key].shape)
        v[key] = _value(L, value, dest_shape)
        assert v.data_ptr() == ptr
        return base, base._version
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mine, theirs = outcome(run, tv), outcome(run, torch)
    if isinstance(theirs, BaseException) or isinstance(mine, BaseException):
        assert type(mine) is type(theirs), (mine, theirs)
        return
    assert_same_tensor(mine[0], theirs[0])
    assert mine[1] == theirs[1]


ADVANCED_KEYS = [
    ([0, 1],), (slice(None), [1, 3]), (slice(None), [1, 3], 0), (Ellipsis, [0, 4]),
    (0, Ellipsis, [1, 2]), (0, slice(None), [1, 2]), ([0, 2], Ellipsis, [1, 3]),
    ([0, 1], 1, [1, 3]), (slice(None), [[1], [2]]), (1, [[0], [2]], slice(1, None)),
    ([0, 1], slice(None), [1, 0]), (slice(None, None, 2), [0, 1]), ("mask",),
    (slice(None), "mask0"), ([[0, 1], [2, 0]],), (-1, [0, -1], slice(None, None, 2)),
]
SOURCES = {
    "contiguous": lambda L: L.arange(60).reshape(3, 4, 5),
    "transposed": lambda L: L.arange(60).reshape(5, 4, 3).transpose(0, 2),
    "permuted": lambda L: L.arange(60).reshape(4, 5, 3).permute(2, 0, 1),
    "sliced": lambda L: L.arange(120).reshape(3, 8, 5)[:, ::2],
}


def _adv_key(L, x, key):
    return tuple(x > 30 if k == "mask" else x[0] > 5 if k == "mask0" else k for k in key)


@pytest.mark.parametrize("source", list(SOURCES))
@pytest.mark.parametrize("key", ADVANCED_KEYS, ids=[f"key{i}" for i in range(len(ADVANCED_KEYS))])
def test_advanced_indexing_layout_and_int_selects_match_pytorch(key, source):
    """Ints are selects before advanced indexing (``x[0, :, [1, 2]]`` has shape (4, 2), not
    NumPy's (2, 4)), and the result's strides follow PyTorch's index kernel."""
    make = SOURCES[source]
    same(lambda L: make(L)[_adv_key(L, make(L), key)])

    def write(L):
        x = make(L)
        x[_adv_key(L, x, key)] = -1
        return x
    same(write)


UINT8_MASK_WRITES = [
    lambda L, m: (m,), lambda L, m: (m, slice(None)), lambda L, m: (m, Ellipsis),
    lambda L, m: (m, slice(1, None)), lambda L, m: (None, m), lambda L, m: (m, [0, 1]),
    lambda L, m: (1, L.tensor([1, 0, 1, 1], dtype=L.uint8)),
]


@pytest.mark.parametrize("value", [-1, "tensor", "full"])
@pytest.mark.parametrize("key", UINT8_MASK_WRITES, ids=[f"u8key{i}" for i in
                                                         range(len(UINT8_MASK_WRITES))])
def test_uint8_mask_fill_refused_like_pytorch(key, value):
    """``t[uint8_mask] = scalar`` is PyTorch's masked_fill_, which takes only bool masks."""
    def write(L):
        x = L.arange(60).reshape(3, 4, 5)
        k = key(L, L.tensor([1, 0, 1], dtype=L.uint8))
        v = L.tensor(-1) if value == "tensor" else value
        if value == "full":
            v = L.zeros_like(x[k])
        x[k] = v
        return x
    same(write)


def test_assigning_an_expression_keeps_the_destination():
    x, y = tv.arange(4.0), tv.ones(4)
    ptr, storage = y.data_ptr(), y.untyped_storage()
    y[:] = x + y
    assert y.data_ptr() == ptr and y.untyped_storage() is storage
    assert y.tolist() == [1.0, 2.0, 3.0, 4.0]
    y += x
    assert y.data_ptr() == ptr and y.tolist() == [1.0, 3.0, 5.0, 7.0]
    z = y
    y = y + x  # rebinding makes a new tensor, as in Python
    assert z.data_ptr() == ptr and y.data_ptr() != ptr


@pytest.mark.parametrize("fn", [
    lambda L: L.zeros(3, dtype=L.int64).add_(0.5),
    lambda L: L.zeros(3, dtype=L.int64).mul_(1.5),
    lambda L: L.zeros(3, dtype=L.int32).div_(2),
    lambda L: L.zeros(3).add_(1j),
    lambda L: L.zeros(3, dtype=L.bool).add_(1),
    lambda L: L.zeros(3, dtype=L.uint8).sub_(L.ones(3, dtype=L.int8)),
    lambda L: L.zeros(1).expand(3).add_(1),
    lambda L: L.zeros(1).expand(3).copy_(L.ones(3)),
    lambda L: L.zeros(1).expand(3).__setitem__(Ellipsis, 1),
    lambda L: L.zeros(1).expand(3).fill_(2),
    lambda L: L.zeros(1).expand(3).zero_(),
    lambda L: L.zeros(2, 3).add_(L.ones(3, 3)),
    lambda L: L.zeros(3).add_(L.ones(2, 3)),
    lambda L: L.zeros(3).copy_(L.ones(2, 3)),
    lambda L: L.zeros(2).fill_(L.ones(2)),
    lambda L: L.zeros(2).copy_([1, 2]),
    lambda L: L.zeros(3, dtype=L.int64).clamp_(0.5),
    lambda L: L.zeros(3, dtype=L.uint8).fill_(300),
    lambda L: L.zeros(3, dtype=L.uint8).fill_(-1),
    lambda L: L.zeros(3, dtype=L.int8).fill_(2.5),
    lambda L: L.zeros(3, dtype=L.int8).__iadd__(1000),
    lambda L: L.zeros(3, dtype=L.float16).__iadd__(1e6),
    lambda L: L.zeros(3, 4, dtype=L.int64).__setitem__([0, 3], L.tensor(-7.9)),
    lambda L: L.zeros(3, 4, dtype=L.int64).__setitem__(([0, 1], [0, 1, 2]), L.tensor(-7.9)),
    lambda L: L.zeros(3, 4, dtype=L.int64).__setitem__([0, 3], L.tensor(7)),
])
def test_inplace_casting_and_overlap_errors_match_pytorch(fn):
    same(fn)


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_fill_and_zero_every_dtype(dtype, devices):
    t = tv.ones(2, 3, dtype=getattr(tv, dtype), device=devices).t()
    t.fill_(1)
    t.zero_()
    assert t.tolist() == [[0, 0], [0, 0], [0, 0]] and t._version == 2


def test_inplace_view_ops_relayout_and_count_as_writes():
    for lib in (tv, torch):
        a = lib.zeros(2, 3)
        assert a.t_() is a and a.shape == (3, 2) and a.stride() == (1, 3)
        a.unsqueeze_(0).squeeze_(0).transpose_(0, 1)
        assert a.stride() == (3, 1) and a._version == 4


def test_bool_copies_store_zero_or_one():
    raw = np.array([1, 2, 0, 255], dtype=np.uint8)
    for lib in (tv, torch):
        t = lib.from_numpy(raw.copy()).view(lib.bool)
        assert t.clone().view(lib.uint8).tolist() == [1, 1, 0, 1]
        assert t[::2].clone().view(lib.uint8).tolist() == [1, 0]
        s = lib.tensor(True).clone()
        s[...] = False  # a 0-dim copy is still a writable tensor
        assert not s.item()


# ---------------------------------------------------------------- typename / is_same_size
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_typename_of_a_tensor_is_its_legacy_type_name(name):
    mine = tv.typename(tv.zeros(2, dtype=getattr(tv, name)))
    theirs = torch.typename(torch.zeros(2, dtype=getattr(torch, name)))
    assert mine == theirs.replace("torch.", "tensorviz.")
    assert mine == tv.zeros(2, dtype=getattr(tv, name)).type()


class _Local:
    class Inner:
        pass


TYPENAME_OBJECTS = [3, 2.5, "s", None, int, float, [1], _Local, _Local.Inner, _Local(),
                    _Local.Inner(), np.float32(1), np.ndarray, warnings.warn, len]


@pytest.mark.parametrize("k", range(len(TYPENAME_OBJECTS)))
def test_typename_of_other_objects_matches_pytorch(k):
    obj = TYPENAME_OBJECTS[k]
    assert tv.typename(obj) == torch.typename(obj)


IS_SAME_SIZE = [
    lambda L: L.is_same_size(L.ones(2), L.ones(2)),
    lambda L: L.is_same_size(L.ones(2), L.ones(3)),
    lambda L: L.is_same_size(L.ones(2), L.ones(2, 1)),
    lambda L: L.is_same_size(L.ones(()), L.ones(())),
    lambda L: L.is_same_size(L.ones(0, 2), L.ones(0, 2, dtype=L.int8)),
    lambda L: L.is_same_size(L.ones(2, 3).t(), L.ones(3, 2)),
    lambda L: L.ones(2).is_same_size(L.ones(2, 1)),
    lambda L: L.ones(2).is_same_size(L.zeros(2, dtype=L.bool)),
    lambda L: L.is_same_size(L.ones(2), [1, 2]),
    lambda L: L.is_same_size([1, 2], L.ones(2)),
    lambda L: L.ones(2).is_same_size(3),
    lambda L: L.is_same_size(L.ones(2)),
]


@pytest.mark.parametrize("k", range(len(IS_SAME_SIZE)))
def test_is_same_size_matches_pytorch(k):
    same(IS_SAME_SIZE[k])


# ---------------------------------------------------------------- frexp
_FREXP_VALUES = [8.0, 0.5, 0.0, -0.0, -3.0, 1.0, 0.75, float("inf"), float("-inf"),
                 float("nan"), 1e-40, 1e-310, 65504.0, 6e-8, 1e-5, 3.4e38, 1.7e308, 2.0 ** -1074]


@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
def test_frexp_matches_pytorch(name):
    import math
    vals = [v for v in _FREXP_VALUES if not math.isfinite(v) or v == 0
            or (1e-320 < abs(v) and (name == "float64" or abs(v) < 1e38))]
    same(lambda L: L.frexp(L.tensor(vals, dtype=getattr(L, name))))
    same(lambda L: L.tensor(vals, dtype=getattr(L, name)).frexp())
    mine = tv.frexp(tv.tensor(vals, dtype=getattr(tv, name)))
    assert type(mine).__name__ == "frexp" and mine._fields == ("mantissa", "exponent")
    assert repr(mine).startswith("tensorviz.return_types.frexp(\nmantissa=tensor(")


FREXP_CASES = [
    lambda L: L.frexp(L.arange(12.0).reshape(3, 4).t()),
    lambda L: L.frexp(L.arange(12.0).reshape(3, 4)[:, ::2]),
    lambda L: L.frexp(L.tensor(3.0)),
    lambda L: L.frexp(L.ones(0, 3)),
    lambda L: L.frexp(L.ones(2, 3).expand(4, 2, 3)),
    lambda L: L.frexp(L.ones(2, dtype=L.int64)),
    lambda L: L.frexp(L.ones(2, dtype=L.int8)),
    lambda L: L.frexp(L.ones(2, dtype=L.bool)),
    lambda L: L.frexp(L.ones(2, dtype=L.complex64)),
    lambda L: L.ones(2, dtype=L.int32).frexp(),
    lambda L: L.frexp([1.0]),
    lambda L: L.frexp(L.tensor([3.0, 5.0]), out=(L.empty(2), L.empty(2, dtype=L.int32))),
    lambda L: L.frexp(L.tensor([3.0, 5.0]), out=(L.empty(0), L.empty(0, dtype=L.int32))),
    lambda L: L.frexp(L.tensor([3.0]), out=(L.empty(1), L.empty(1, dtype=L.int64))),
    lambda L: L.frexp(L.tensor([3.0]), out=(L.empty(1, dtype=L.float64),
                                            L.empty(1, dtype=L.int32))),
    lambda L: L.frexp(L.tensor([3.0], dtype=L.float64), out=(L.empty(1),
                                                             L.empty(1, dtype=L.int32))),
    lambda L: type(L.frexp(L.tensor([3.0]), out=(L.empty(1),
                                                 L.empty(1, dtype=L.int32)))).__name__,
]


@pytest.mark.parametrize("k", range(len(FREXP_CASES)))
def test_frexp_layouts_out_and_errors_match_pytorch(k):
    same(FREXP_CASES[k])


def _frexp_layout(rng, shape=None, expand=True):
    if shape is None:
        shape = tuple(int(rng.choice([1, 1, 2, 3])) for _ in range(rng.integers(0, 5)))
    stride, acc = [0] * len(shape), 1
    for d in rng.permutation(len(shape)):
        stride[d], acc = acc * int(rng.choice([1, 2])), acc * 2 * shape[d]
    stride = [int(rng.choice([1, 5, 7])) if n == 1 and rng.random() < 0.5 else
              0 if expand and n > 1 and rng.random() < 0.2 else st
              for n, st in zip(shape, stride)]
    return tuple(shape), tuple(stride)


@pytest.mark.parametrize("seed", range(3))
def test_frexp_layouts_of_random_inputs_and_outs(seed):
    """The results are laid out as ``empty_like(input)`` (a dense input's strides kept, size-1
    dims included), an out= of another shape as TensorIterator resizes it (from the input
    and an out= that keeps its layout)."""
    rng = np.random.default_rng(seed)
    for i in range(150):
        shape, stride = _frexp_layout(rng)
        outs = None if rng.random() < 0.4 else [
            _frexp_layout(rng, [(), (0,), shape][rng.integers(0, 3)], expand=False)
            for _ in range(2)]

        def run(L):
            base = L.arange(2000.0, dtype=L.float32)
            x = base.as_strided(shape, stride, 1)
            if outs is None:
                return L.frexp(x)
            o = (L.empty(2000).as_strided(*outs[0]),
                 L.empty(2000, dtype=L.int32).as_strided(*outs[1]))
            return L.frexp(x, out=o)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # (a resized out= that held elements)
            got, want = run(tv), run(torch)
        assert [(tuple(t.shape), t.stride()) for t in got] == \
            [(tuple(t.shape), t.stride()) for t in want], (shape, stride, outs)


def test_frexp_out_writes_into_the_given_tensors():
    m, e = tv.empty(2), tv.empty(2, dtype=tv.int32)
    r = tv.frexp(tv.tensor([3.0, 5.0]), out=(m, e))
    assert r.mantissa is m and r.exponent is e
    assert m.tolist() == [0.75, 0.625] and e.tolist() == [2, 3]


@pytest.mark.parametrize("name", ["Tensor", "Size", "dtype", "device", "finfo", "iinfo",
                                  "FloatTensor", "LongTensor", "layout", "memory_format"])
def test_public_class_names_read_like_pytorch(name):
    """type(x) shows <class 'tensorviz.Tensor'> where PyTorch shows <class 'torch.Tensor'>."""
    ours, theirs = getattr(tv, name), getattr(torch, name)
    assert repr(ours).replace("tensorviz", "torch") == repr(theirs)
    assert ours.__qualname__ == theirs.__qualname__


def test_type_of_tensor_and_constants_like_pytorch():
    assert str(type(tv.ones(2))).replace("tensorviz", "torch") == str(type(torch.ones(2)))
    for name in ("pi", "e", "inf"):
        assert getattr(tv, name) == getattr(torch, name)
    assert tv.nan != tv.nan and torch.nan != torch.nan
    assert tv.newaxis is torch.newaxis is None
    assert tv.ones(2)[tv.newaxis].shape == torch.ones(2)[torch.newaxis].shape


def test_out_resize_reuses_the_storage():
    """An ``out=`` of the wrong shape is resized as PyTorch's resize_ does: the same storage
    from the same offset, row-major, so other views of that memory see the result; an
    empty result keeps the offset (it needs no memory)."""
    import warnings
    torch = pytest.importorskip("torch")
    got = []
    for lib in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v0 = lib.tensor([1, 3, 2, 6, 1, 0])
            v1 = v0[..., ::2]
            lib.square(v0, out=v1)
            e = lib.zeros((3, 0), dtype=lib.int64).t()
            o = e[::2, 2]
            lib.square(e, out=o)
        got.append((v0.tolist(), v1.stride(), v1.storage_offset(), tuple(o.shape), o.stride(),
                    o.storage_offset()))
    assert got[0] == got[1]
