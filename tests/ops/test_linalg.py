"""Linear algebra against PyTorch: products over dtypes, layouts and batch broadcasting with
PyTorch's shape/dtype errors; ``tensorviz.linalg`` factorizations (compared up to the signs
LAPACK leaves free), norms, ``LinAlgError`` on singular input, result layouts, and matmul's
speed against NumPy."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import tensorviz

torch = pytest.importorskip("torch")

LAYOUTS = ("contig", "t", "step", "offset", "expand")  # see conftest.py
PRODUCT_DTYPES = ("int32", "int64", "uint8", "float16", "float32", "float64", "complex64",
                  "complex128", "bool")
FLOATS = ("float32", "float64", "complex64", "complex128")


def _layout(i):
    return LAYOUTS[i % len(LAYOUTS)]


def _tol(dtype):
    return {"float16": dict(rtol=2e-2, atol=2e-2), "float32": dict(rtol=1e-4, atol=1e-4),
            "complex64": dict(rtol=1e-4, atol=1e-4)}.get(dtype, {})


def _same_strides(tvdiff, f, *args):
    (r_tv, e_tv, _), (r_pt, e_pt, _) = tvdiff.run(f, *args)
    assert e_tv is None and e_pt is None, (e_tv, e_pt)
    pairs = zip(r_tv, r_pt) if isinstance(r_pt, tuple) else [(r_tv, r_pt)]
    for a, b in pairs:
        assert tuple(a.shape) == tuple(b.shape)
        if b.numel() > 1:  # (the stride of a size-1 dim means nothing)
            big = [d for d in range(b.dim()) if b.shape[d] > 1]
            assert [a.stride(d) for d in big] == [b.stride(d) for d in big], \
                (a.shape, a.stride(), b.stride())


# ---------------------------------------------------------------- products
@pytest.mark.parametrize("dtype", PRODUCT_DTYPES)
def test_vector_products(tvdiff, dtype):
    a = tvdiff.make((5,), dtype, "step", seed=1, low=-3, high=4)
    b = tvdiff.make((5,), dtype, "offset", seed=2, low=-3, high=4)
    m = tvdiff.make((3, 5), dtype, "t", seed=3, low=-3, high=4)
    for f in (lambda lib, a, b, m: lib.dot(a, b), lambda lib, a, b, m: a.vdot(b),
              lambda lib, a, b, m: lib.inner(a, b) if a.dtype != lib.bool else a,
              lambda lib, a, b, m: lib.inner(m, m),
              lambda lib, a, b, m: lib.inner(m[0, 0], m), lambda lib, a, b, m: lib.outer(a, b),
              lambda lib, a, b, m: lib.ger(a, b[:3]), lambda lib, a, b, m: lib.mv(m, a),
              lambda lib, a, b, m: a @ b, lambda lib, a, b, m: m @ a):
        tvdiff.check(f, a, b, m, **_tol(dtype))


def test_vector_product_errors(tvdiff):
    a = tvdiff.make((3,), "float32")
    for f in (lambda lib, a: lib.dot(a, a.double()), lambda lib, a: lib.dot(a.int(), a.long()),
              lambda lib, a: lib.dot(a, lib.ones(4)), lambda lib, a: lib.dot(a[None], a[None]),
              lambda lib, a: lib.dot(a, lib.tensor(1.0)), lambda lib, a: lib.vdot(a, a.double()),
              lambda lib, a: lib.inner(a, a.long()), lambda lib, a: lib.inner(a, 2),
              lambda lib, a: lib.inner(a[None], lib.ones(4)), lambda lib, a: lib.outer(a, a[None]),
              lambda lib, a: lib.outer(a, a.long()), lambda lib, a: lib.mv(a, a),
              lambda lib, a: lib.mv(a[None], a.double()), lambda lib, a: lib.mv(a[None], a[:2]),
              lambda lib, a: lib.mv(lib.ones(2, 3, dtype=lib.bool), a.bool())):
        tvdiff.check(f, a)


@pytest.mark.parametrize("dtype", PRODUCT_DTYPES)
def test_mm_bmm(tvdiff, dtype):
    for i in range(3):
        a = tvdiff.make((4, 3), dtype, _layout(i), seed=i, low=-3, high=4)
        b = tvdiff.make((3, 5), dtype, _layout(i + 1), seed=i + 7, low=-3, high=4)
        tvdiff.check(lambda lib, a, b: lib.mm(a, b), a, b, fresh=True, **_tol(dtype))
        tvdiff.check(lambda lib, a, b: a.mm(b), a, b, **_tol(dtype))
        ba = tvdiff.make((2, 4, 3), dtype, _layout(i + 2), seed=i + 1, low=-3, high=4)
        bb = tvdiff.make((2, 3, 5), dtype, _layout(i + 3), seed=i + 2, low=-3, high=4)
        tvdiff.check(lambda lib, a, b: lib.bmm(a, b), ba, bb, **_tol(dtype))
    if dtype != "bool":
        _same_strides(tvdiff, lambda lib, a, b: lib.mm(a, b), a, b)


def test_mm_bmm_errors(tvdiff):
    a = tvdiff.make((2, 3), "float32", "t")
    for f in (lambda lib, a: lib.mm(a, a), lambda lib, a: lib.mm(a, a.t().long()),
              lambda lib, a: lib.mm(a, a.t().double()), lambda lib, a: lib.mm(a, a[0]),
              lambda lib, a: lib.mm(a[0], a), lambda lib, a: lib.bmm(a, a),
              lambda lib, a: lib.bmm(a[None], a[None]),
              lambda lib, a: lib.bmm(a[None].expand(2, 2, 3), a.t()[None]),
              lambda lib, a: lib.bmm(a[None], a.t()[None].double()),
              lambda lib, a: lib.bmm(a[None].bool(), a.t()[None].bool()),
              lambda lib, a: lib.mm(a.bool(), a.t().bool()),
              lambda lib, a: lib.mm(a, a.t(), out=lib.empty(0)),
              lambda lib, a: lib.mm(a, a.t(), out=lib.empty(2, 2, dtype=lib.float64))):
        tvdiff.check(f, a)


MATMUL_SHAPES = [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)),
                 ((5, 2, 3), (3,)), ((3,), (5, 3, 4)), ((5, 2, 3), (3, 4)),
                 ((2, 3), (5, 3, 4)), ((4, 1, 2, 3), (5, 3, 2)), ((1, 2, 3), (6, 3, 1)),
                 ((0, 3), (3, 2)), ((2, 0), (0, 3)), ((2, 2, 3), (2, 3, 4)),
                 # errors
                 ((3,), (4,)), ((2, 3), (2, 3)), ((3,), (4, 2)), ((2, 4), (3,)),
                 ((5, 2, 4), (3,)), ((3,), (5, 4, 2)), ((4, 2, 3), (5, 3, 2)), ((), (3,))]


@pytest.mark.parametrize("case", range(len(MATMUL_SHAPES)))
@pytest.mark.parametrize("dtype", ["float32", "int64", "complex128"])
def test_matmul_broadcasting(tvdiff, case, dtype):
    sa, sb = MATMUL_SHAPES[case]
    a = tvdiff.make(sa, dtype, _layout(case), seed=case, low=-3, high=4)
    b = tvdiff.make(sb, dtype, _layout(case + 1), seed=case + 1, low=-3, high=4)
    tvdiff.check(lambda lib, a, b: lib.matmul(a, b), a, b, fresh=True, **_tol(dtype))
    tvdiff.check(lambda lib, a, b: a @ b, a, b, **_tol(dtype))
    tvdiff.check(lambda lib, a, b: lib.linalg.matmul(a, b), a, b, **_tol(dtype))


def test_matmul_dtypes_and_operators(tvdiff):
    a = tvdiff.make((2, 3), "float32", "t")
    for f in (lambda lib, a: lib.matmul(a, a.t().long()), lambda lib, a: a @ a.t().double(),
              lambda lib, a: a.cfloat() @ a.t(), lambda lib, a: a @ 2,
              lambda lib, a: lib.matmul(a.bool(), a.t().bool()),
              lambda lib, a: lib.matmul(a, a.t(), out=lib.empty(0)),
              lambda lib, a: a.t().matmul(a), lambda lib, a: a.int() @ a.t().int()):
        tvdiff.check(f, a)
    sq = tvdiff.make((3, 3), "float32", "step")

    def imatmul(lib, s):
        s = s.clone()
        s @= s
        return s
    tvdiff.check(imatmul, sq)
    for f in (lambda lib, a: lib.matmul(a.t(), a), lambda lib, a: lib.matmul(a[None], a.t()),
              lambda lib, a: lib.matmul(a.t()[None].expand(4, 3, 2), a)):
        _same_strides(tvdiff, f, a)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "complex64"])
def test_addmm_family(tvdiff, dtype):
    m1 = tvdiff.make((2, 3), dtype, "t", seed=1, low=-3, high=4)
    m2 = tvdiff.make((3, 4), dtype, "step", seed=2, low=-3, high=4)
    inp = tvdiff.make((2, 4), dtype, "offset", seed=3, low=-3, high=4)
    row = tvdiff.make((4,), dtype, seed=4, low=-3, high=4)
    v = tvdiff.make((3,), dtype, seed=5, low=-3, high=4)
    b1 = tvdiff.make((5, 2, 3), dtype, "t", seed=6, low=-3, high=4)
    b2 = tvdiff.make((5, 3, 4), dtype, seed=7, low=-3, high=4)
    tol = _tol(dtype)
    for alpha, beta in ((1, 1), (2, 0.5) if dtype[0] != "i" else (2, 3), (1, 0), (0, 1)):
        tvdiff.check(lambda lib, i, a, b: lib.addmm(i, a, b, beta=beta, alpha=alpha), inp, m1,
                     m2, **tol)
        tvdiff.check(lambda lib, i, a, b: lib.addmm(i, a, b, beta=beta, alpha=alpha), row, m1,
                     m2, **tol)
        tvdiff.check(lambda lib, i, a, x: lib.addmv(i[:, 0], a, x, beta=beta, alpha=alpha),
                     inp, m1, v, **tol)
        tvdiff.check(lambda lib, i, a, b: lib.baddbmm(i, a, b, beta=beta, alpha=alpha), inp,
                     b1, b2, **tol)
        tvdiff.check(lambda lib, i, a, b: lib.addbmm(i, a, b, beta=beta, alpha=alpha), inp,
                     b1, b2, **tol)
        tvdiff.check(lambda lib, i, a, x: lib.addr(i[:, :3], a[:, 0], x, beta=beta,
                                                   alpha=alpha), inp, m1, v, **tol)
    tvdiff.check(lambda lib, i, a, b: i.clone().addmm_(a, b), inp, m1, m2, **tol)
    tvdiff.check(lambda lib, i, a, b: i.clone().baddbmm_(a, b, alpha=2)
                 if False else i.clone().addbmm_(a, b), inp, b1, b2, **tol)
    nan = tvdiff.make((2, 4), dtype, special=True, seed=9)
    tvdiff.check(lambda lib, i, a, b: lib.addmm(i, a, b, beta=0), nan, m1, m2, **tol)


def test_addmm_errors(tvdiff):
    m = tvdiff.make((2, 3), "float32", "t")
    for f in (lambda lib, m: lib.addmm(lib.ones(2, 2).long(), m, m.t()),
              lambda lib, m: lib.addmm(lib.ones(2, 2).double(), m, m.t()),
              lambda lib, m: lib.addmm(lib.ones(3), m, m.t()),
              lambda lib, m: lib.addmv(lib.ones(2).long(), m, m[0]),
              lambda lib, m: lib.addmv(lib.ones(2), m, m[0].double()),
              lambda lib, m: lib.baddbmm(lib.ones(2, 2).long(), m[None], m.t()[None]),
              lambda lib, m: lib.addbmm(lib.ones(2, 2), m[None], m.t()[None].double()),
              lambda lib, m: lib.addr(lib.ones(3, 3), m[0].long(), m[0].long()),
              lambda lib, m: lib.addr(lib.ones(3, 3).long(), m[0], m[0]),
              lambda lib, m: lib.addr(lib.ones(3, 3).bool(), m[0].bool(), m[0].bool())):
        tvdiff.check(f, m)


EINSUM = [("ij,jk->ik", [(2, 3), (3, 4)]), ("ij,jk", [(2, 3), (3, 4)]),
          ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("ii", [(3, 3)]), ("ii->i", [(3, 3)]),
          ("...ij->...ji", [(2, 3, 4)]), ("i,i", [(4,)]), ("ij->", [(2, 3)]),
          ("ij->j", [(2, 3)]), ("i,j->ij", [(3,), (4,)]), ("ij,ij->ij", [(2, 3), (2, 3)]),
          ("i j , j k -> i k", [(2, 3), (3, 4)]), ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
          ("...j,j", [(2, 3, 4), (4,)]), ("ij,jk->ik", [(2, 3), (2, 4)]),
          ("ij,jk->ik", [(2, 3)]), ("ij->k", [(2, 3)]), ("ij", [(2, 3, 4)])]


@pytest.mark.parametrize("case", range(len(EINSUM)))
@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
def test_einsum(tvdiff, case, dtype):
    eq, shapes = EINSUM[case]
    ops = [tvdiff.make(s, dtype, _layout(case + k), seed=k, low=-3, high=4)
           for k, s in enumerate(shapes)]
    tvdiff.check(lambda lib, *ts: lib.einsum(eq, *ts), *ops, **_tol(dtype))
    tvdiff.check(lambda lib, *ts: lib.einsum(eq, list(ts)), *ops, **_tol(dtype))


def test_einsum_sublists_and_dtypes(tvdiff):
    a = tvdiff.make((2, 3), "float32", "t")
    b = tvdiff.make((3, 4), "int64", seed=1)
    tvdiff.check(lambda lib, a, b: lib.einsum(a, [0, 1], a, [2, 1], [0, 2]), a, b)
    tvdiff.check(lambda lib, a, b: lib.einsum("ij,jk->ik", a, b), a, b)
    tvdiff.check(lambda lib, a, b: lib.einsum("ij,jk->ik", a.half(), a.t().half()), a, b,
                 rtol=1e-2, atol=1e-2)


def test_tensordot_broadcasts_size_one_and_keeps_inf_times_zero(tvdiff):
    """A contracted dim of size 1 on one side broadcasts against the other (PyTorch sums the
    other side's dim first); an infinity times a zero is NaN, also in an outer product."""
    inf = float("inf")
    for f in (lambda lib: lib.tensordot(lib.tensor([[1e30], [-inf], [0.5]]), lib.tensor(0.0),
                                        dims=0),
              lambda lib: lib.tensordot(lib.tensor([[1e30], [-inf], [0.5]]), lib.tensor([0.0]),
                                        dims=1),
              lambda lib: lib.tensordot(lib.tensor([[[2.5], [inf]]]), lib.tensor([0.0]), dims=1),
              lambda lib: lib.tensordot(lib.ones(3, 2), lib.ones(1, 2), dims=1),
              lambda lib: lib.tensordot(lib.ones(0), lib.ones(1, 2), dims=1),
              lambda lib: lib.tensordot(lib.arange(6.).reshape(2, 1, 3), lib.ones(4, 3, 2),
                                        dims=([0, 1], [2, 0]))):
        tvdiff.check(f)


def test_tensordot_kron_cross_trace(tvdiff):
    a = tvdiff.make((2, 3), "float32", "t", seed=1)
    b = tvdiff.make((2, 3), "int64", "step", seed=2)
    c = tvdiff.make((3, 4, 2), "float32", "offset", seed=3)
    for f in (lambda lib, a, b, c: lib.tensordot(a, a, dims=([1], [1])),
              lambda lib, a, b, c: lib.tensordot(a, a.t(), dims=1),
              lambda lib, a, b, c: lib.tensordot(a, a, dims=2),
              lambda lib, a, b, c: lib.tensordot(a, a, dims=0),
              lambda lib, a, b, c: lib.tensordot(a, c, dims=([1], [0])),
              lambda lib, a, b, c: lib.tensordot(c, c, dims=[[0, 2], [0, 2]]),
              lambda lib, a, b, c: lib.tensordot(a, a, dims=lib.tensor([[1], [1]])),
              lambda lib, a, b, c: lib.tensordot(a, b, dims=2),
              lambda lib, a, b, c: lib.tensordot(a, a, dims=3),
              lambda lib, a, b, c: lib.tensordot(a, a, dims=([1], [0])),
              lambda lib, a, b, c: lib.kron(a.contiguous(), b.contiguous()),
              lambda lib, a, b, c: lib.kron(a[0].contiguous(), a.contiguous()),
              lambda lib, a, b, c: lib.kron(lib.tensor(2.0), a.contiguous()),
              lambda lib, a, b, c: lib.kron(a.bool().contiguous(), a.bool().contiguous()),
              lambda lib, a, b, c: lib.cross(a, a.flip([1]), dim=1),
              lambda lib, a, b, c: lib.cross(c[:, 0, :1].expand(3, 3), c[:, 1:, 0], dim=0),
              lambda lib, a, b, c: lib.linalg.cross(a, a * 2),
              lambda lib, a, b, c: lib.linalg.cross(a.t(), a.t() + 1, dim=0),
              lambda lib, a, b, c: lib.cross(a, b, dim=1),
              lambda lib, a, b, c: lib.cross(a, a[0], dim=1),
              lambda lib, a, b, c: lib.linalg.cross(a[:, :2], a[:, 1:]),
              lambda lib, a, b, c: lib.cross(a[:, :2], a[:, :2], dim=1),
              lambda lib, a, b, c: lib.trace(a), lambda lib, a, b, c: b.trace(),
              lambda lib, a, b, c: lib.trace(b.int()), lambda lib, a, b, c: lib.trace(b.byte()),
              lambda lib, a, b, c: lib.trace(b.bool()), lambda lib, a, b, c: lib.trace(c)):
        tvdiff.check(f, a, b, c, rtol=1e-5, atol=1e-5)


def test_cross_without_dim_warns_once(monkeypatch):
    from tensorviz.ops import indexing
    monkeypatch.setattr(indexing, "_WARNED", set())
    a = tensorviz.tensor([[1.0, 0, 0], [0, 1, 0]])
    b = tensorviz.tensor([[0.0, 1, 0], [0, 0, 1]])
    with pytest.warns(UserWarning, match="without specifying the dim"):
        r = tensorviz.cross(a, b)
    assert r.tolist() == [[0, 0, 1], [1, 0, 0]]


# ---------------------------------------------------------------- factorizations
def _well_conditioned(shape, dtype, layout, seed, spd=False):
    rng = np.random.default_rng(seed)
    n = shape[-1]
    a = rng.uniform(-1, 1, size=shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.uniform(-1, 1, size=shape)
    if spd:
        a = a @ np.conj(np.swapaxes(a, -1, -2))
    a = a + n * np.eye(n)
    a = a.astype(dtype)
    if layout == "t":
        return np.ascontiguousarray(np.swapaxes(a, -1, -2)), "mT"
    return a, None


def _matrix(tvdiff, shape, dtype, layout="contig", seed=0, spd=False):
    """A well-conditioned (or Hermitian positive-definite) matrix twin, possibly transposed."""
    data, view = _well_conditioned(shape, dtype, layout, seed, spd)
    base_layout = layout if layout in ("step", "offset") else "contig"
    if base_layout != "contig":
        big = np.zeros(tuple(s * 2 if base_layout == "step" and i == len(shape) - 1 else
                             s + 2 if base_layout == "offset" and i == 0 else s
                             for i, s in enumerate(shape)), dtype=data.dtype)
        if base_layout == "step":
            big[..., ::2] = data
        else:
            big[1:shape[0] + 1] = data
        twin = tvdiff.make(shape, dtype, base_layout, data=big)
    else:
        twin = tvdiff.make(shape, dtype, data=data)
    if view == "mT":
        twin.tv, twin.pt = twin.tv.mT, twin.pt.mT
    return twin


MATRIX_CASES = [((3, 3), "float32", "contig"), ((4, 4), "float64", "t"),
                ((2, 3, 3), "float64", "step"), ((3, 3), "complex128", "offset"),
                ((2, 2, 4, 4), "float32", "t"), ((1, 1), "complex64", "contig")]


@pytest.mark.parametrize("case", range(len(MATRIX_CASES)))
def test_inv_det_slogdet_solve(tvdiff, case):
    shape, dtype, layout = MATRIX_CASES[case]
    A = _matrix(tvdiff, shape, dtype, layout, seed=case)
    n = shape[-1]
    B = tvdiff.make(shape[:-1] + (2,), dtype, seed=case + 1)
    v = tvdiff.make((n,), dtype, seed=case + 2)
    tol = dict(rtol=1e-4, atol=1e-4)
    for f in (lambda lib, A, B, v: lib.linalg.inv(A), lambda lib, A, B, v: lib.inverse(A),
              lambda lib, A, B, v: lib.linalg.det(A), lambda lib, A, B, v: A.det(),
              lambda lib, A, B, v: lib.linalg.slogdet(A), lambda lib, A, B, v: lib.slogdet(A),
              lambda lib, A, B, v: lib.logdet(A),
              lambda lib, A, B, v: lib.linalg.solve(A, B),
              lambda lib, A, B, v: lib.linalg.solve(A, v),
              lambda lib, A, B, v: lib.linalg.solve(A, B.mT, left=False),
              lambda lib, A, B, v: lib.linalg.solve(A, B[..., 0]),
              lambda lib, A, B, v: lib.linalg.matrix_power(A, 3),
              lambda lib, A, B, v: lib.linalg.matrix_power(A, 0),
              lambda lib, A, B, v: lib.linalg.matrix_power(A, -2),
              lambda lib, A, B, v: A.matrix_power(1),
              lambda lib, A, B, v: lib.linalg.inv_ex(A), lambda lib, A, B, v: lib.linalg.cond(A)):
        tvdiff.check(f, A, B, v, **tol)
    for f in (lambda lib, A, B, v: lib.linalg.inv(A), lambda lib, A, B, v: lib.linalg.solve(A, B),
              lambda lib, A, B, v: lib.linalg.matrix_power(A, 2)):
        _same_strides(tvdiff, f, A, B, v)


def _linalg_error_as_runtime(f):
    """``f`` with each library's LinAlgError (two distinct classes) re-raised as one type."""
    class BothLinAlgError(RuntimeError):
        pass

    def g(lib, *args):
        try:
            return f(lib, *args)
        except (tensorviz.linalg.LinAlgError, torch.linalg.LinAlgError) as e:
            raise BothLinAlgError(str(e)) from None
    return g


def test_linalg_errors(tvdiff):
    x = tvdiff.make((2, 2), "float32")
    L = [
        lambda lib, x: lib.linalg.inv(lib.ones(2, 2)), lambda lib, x: lib.linalg.inv(x.long()),
        lambda lib, x: lib.linalg.inv(lib.ones(2, 3)), lambda lib, x: lib.linalg.inv(x[0]),
        lambda lib, x: lib.linalg.inv(x.half()),
        lambda lib, x: lib.linalg.inv(lib.stack([lib.eye(2), lib.ones(2, 2)])),
        lambda lib, x: lib.linalg.det(x.int()), lambda lib, x: lib.linalg.det(lib.ones(2, 3)),
        lambda lib, x: lib.linalg.det(lib.ones(2, 2)), lambda lib, x: lib.linalg.det(x.half()),
        lambda lib, x: lib.linalg.slogdet(lib.ones(2, 2)), lambda lib, x: lib.det(x.long()),
        lambda lib, x: lib.linalg.solve(lib.ones(2, 2), lib.ones(2)),
        lambda lib, x: lib.linalg.solve(lib.eye(2), lib.ones(2).double()),
        lambda lib, x: lib.linalg.solve(lib.eye(3), lib.ones(2)),
        lambda lib, x: lib.linalg.solve(lib.eye(3), lib.ones(3, 2), left=False),
        lambda lib, x: lib.linalg.solve(x.long(), x.long()),
        lambda lib, x: lib.linalg.cholesky(-lib.eye(2)),
        lambda lib, x: lib.linalg.cholesky(x.long()),
        lambda lib, x: lib.linalg.cholesky_ex(-lib.eye(2)).info,
        lambda lib, x: lib.linalg.qr(x.long()), lambda lib, x: lib.linalg.qr(x, mode="foo"),
        lambda lib, x: lib.linalg.svd(x.long()), lambda lib, x: lib.linalg.svdvals(x.long()),
        lambda lib, x: lib.linalg.eigh(x.long()), lambda lib, x: lib.linalg.eigh(lib.ones(2, 3)),
        lambda lib, x: lib.linalg.eigh(x, UPLO="X"), lambda lib, x: lib.linalg.eig(x.long()),
        lambda lib, x: lib.linalg.eigvalsh(x.half()),
        lambda lib, x: lib.linalg.matrix_rank(x.long()), lambda lib, x: lib.linalg.pinv(x.long()),
        lambda lib, x: lib.linalg.matrix_power(x, 2.5),
        lambda lib, x: lib.linalg.matrix_power(lib.ones(2, 3), 2),
        lambda lib, x: lib.linalg.matrix_power(x.long(), -1),
        lambda lib, x: lib.linalg.lstsq(x.long(), x.long()),
        lambda lib, x: lib.linalg.lstsq(lib.ones(4, 2), lib.ones(4, 1), driver="foo"),
        lambda lib, x: lib.linalg.lstsq(lib.ones(4, 2), lib.ones(3, 1)),
        lambda lib, x: lib.linalg.lstsq(lib.ones(4, 2), lib.ones(4, 1).double()),
        lambda lib, x: lib.linalg.multi_dot([x]),
        lambda lib, x: lib.linalg.multi_dot([x, x.long()]),
        lambda lib, x: lib.linalg.multi_dot([x, lib.ones(3, 3)]),
    ]
    for f in L:
        tvdiff.check(_linalg_error_as_runtime(f), x)
    with pytest.raises(tensorviz.linalg.LinAlgError, match="singular"):
        tensorviz.linalg.inv(tensorviz.ones(2, 2))
    assert issubclass(tensorviz.linalg.LinAlgError, RuntimeError)


def _canonical_columns(m: np.ndarray) -> np.ndarray:
    """Columns scaled to a unit phase at their largest entry (SVD/eig vectors are defined up
    to a sign or phase per column)."""
    idx = np.argmax(np.abs(m), axis=-2)
    pivot = np.take_along_axis(m, idx[..., None, :], axis=-2)
    return m * (np.abs(pivot) / np.where(pivot == 0, 1, pivot))


def _host(t):
    if isinstance(t, tensorviz.Tensor):
        return np.array(t.numpy(force=True))
    return t.detach().resolve_conj().numpy()


@pytest.mark.parametrize("case", range(len(MATRIX_CASES)))
def test_factorizations(tvdiff, case):
    shape, dtype, layout = MATRIX_CASES[case]
    A = _matrix(tvdiff, shape, dtype, layout, seed=case)
    H = _matrix(tvdiff, shape, dtype, layout, seed=case + 9, spd=True)
    W = tvdiff.make(shape[:-2] + (shape[-1] + 2, shape[-1]), dtype, seed=case + 3)
    tol = dict(rtol=2e-4, atol=2e-4)
    for f in (lambda lib, A, H, W: lib.linalg.cholesky(H),
              lambda lib, A, H, W: lib.linalg.cholesky(H, upper=True),
              lambda lib, A, H, W: lib.linalg.eigvalsh(H),
              lambda lib, A, H, W: lib.linalg.eigvalsh(H, UPLO="U"),
              lambda lib, A, H, W: lib.linalg.svdvals(W),
              lambda lib, A, H, W: lib.linalg.svdvals(A),
              lambda lib, A, H, W: lib.linalg.matrix_rank(A),
              lambda lib, A, H, W: lib.linalg.matrix_rank(W, hermitian=False, atol=1.0),
              lambda lib, A, H, W: lib.linalg.matrix_rank(H, hermitian=True),
              lambda lib, A, H, W: lib.linalg.pinv(W), lambda lib, A, H, W: lib.linalg.pinv(
                  H, hermitian=True),
              lambda lib, A, H, W: lib.linalg.lstsq(W, W[..., :1]).solution,
              lambda lib, A, H, W: lib.linalg.lstsq(W, W[..., :1], driver="gelsd").residuals):
        tvdiff.check(f, A, H, W, **tol)
    for f in (lambda lib, A, H, W: lib.linalg.cholesky(H), lambda lib, A, H, W: lib.linalg.qr(W),
              lambda lib, A, H, W: lib.linalg.eigh(H)[1], lambda lib, A, H, W: lib.linalg.svd(W)):
        _same_strides(tvdiff, f, A, H, W)
    # QR / SVD / eigh / eig: compared up to the per-column sign or phase LAPACK leaves free
    (r_tv, e1, _), (r_pt, e2, _) = tvdiff.run(lambda lib, A, H, W: (
        lib.linalg.qr(W), lib.linalg.qr(W, mode="complete"), lib.linalg.svd(W),
        lib.linalg.svd(W, full_matrices=False), lib.linalg.eigh(H), lib.linalg.eig(A)),
        A, H, W)
    assert e1 is None and e2 is None, (e1, e2)
    w = _host(W.tv)
    for (q, r), (qp, rp) in ((r_tv[0], r_pt[0]), (r_tv[1], r_pt[1])):
        assert tuple(q.shape) == tuple(qp.shape) and tuple(r.shape) == tuple(rp.shape)
        np.testing.assert_allclose(_host(q) @ _host(r), w, **tol)
        np.testing.assert_allclose(np.abs(_host(r)), np.abs(_host(rp)), **tol)
    for (u, s, vh), (up, sp, vhp) in ((r_tv[2], r_pt[2]), (r_tv[3], r_pt[3])):
        assert u.dtype.name == str(up.dtype).split(".")[-1] and s.dtype.name == \
            str(sp.dtype).split(".")[-1]
        np.testing.assert_allclose(_host(s), _host(sp), **tol)
        k = s.shape[-1]
        uk = _canonical_columns(_host(u)[..., :k])
        np.testing.assert_allclose(uk, _canonical_columns(_host(up)[..., :k]), **tol)
    (wv, v), (wp, vp) = r_tv[4], r_pt[4]
    np.testing.assert_allclose(_host(wv), _host(wp), **tol)
    np.testing.assert_allclose(_canonical_columns(_host(v)), _canonical_columns(_host(vp)), **tol)
    (ev, evec), (evp, _) = r_tv[5], r_pt[5]
    assert ev.dtype.name == str(evp.dtype).split(".")[-1]
    a = _host(A.tv)
    np.testing.assert_allclose(a @ _host(evec), _host(evec) * _host(ev)[..., None, :], **tol)
    key = lambda z: np.sort_complex(np.round(z, 3))  # noqa: E731
    np.testing.assert_allclose(key(_host(ev)), key(_host(evp)), **tol)


def test_rank_deficient_and_empty(tvdiff):
    x = tvdiff.make((1,), "float32")
    for f in (lambda lib, x: lib.linalg.matrix_rank(lib.ones(3, 3)),
              lambda lib, x: lib.linalg.matrix_rank(lib.ones(3, 3), tol=0.5),
              lambda lib, x: lib.linalg.matrix_rank(lib.ones(3, 3), atol=4.0),
              lambda lib, x: lib.linalg.matrix_rank(lib.zeros(0, 3)),
              lambda lib, x: lib.linalg.pinv(lib.ones(2, 3)),
              lambda lib, x: lib.linalg.pinv(lib.zeros(0, 3)),
              lambda lib, x: lib.linalg.lstsq(lib.ones(4, 2), lib.ones(4)).solution,
              lambda lib, x: lib.linalg.inv(lib.zeros(0, 0)),
              lambda lib, x: lib.linalg.det(lib.zeros(0, 0)),
              lambda lib, x: lib.linalg.svdvals(lib.zeros(2, 0)),
              lambda lib, x: lib.linalg.eigvals(lib.tensor([[0.0, -1], [1, 0]]))):
        tvdiff.check(f, x, rtol=1e-4, atol=1e-4)


# ---------------------------------------------------------------- norms
VECTOR_ORDS = [2, 1, 0, 3, 0.5, -1, -2, float("inf"), float("-inf")]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "float16"])
def test_vector_norm(tvdiff, dtype):
    for i, (shape, dim) in enumerate([((3, 4), None), ((3, 4), 0), ((2, 3, 4), (0, 2)),
                                      ((5,), -1), ((), None), ((3, 0), 0), ((3, 4), [])]):
        x = tvdiff.make(shape, dtype, _layout(i), seed=i)
        for ord in VECTOR_ORDS:
            if ord == 0 and shape == () and dtype == "complex64":
                continue  # (PyTorch warns about a complex-to-real cast here)
            for keepdim in (False, True):
                tvdiff.check(lambda lib, t: lib.linalg.vector_norm(t, ord, dim, keepdim), x,
                             rtol=2e-3 if dtype == "float16" else 1e-5,
                             atol=2e-3 if dtype == "float16" else 1e-5)
    x = tvdiff.make((3, 4), dtype, "t")
    for f in (lambda lib, t: lib.linalg.vector_norm(t.long()),
              lambda lib, t: lib.linalg.vector_norm(t, "fro"),
              lambda lib, t: lib.linalg.vector_norm(t, dtype=lib.float64),
              lambda lib, t: lib.linalg.vector_norm(t, dtype=lib.long),
              lambda lib, t: lib.linalg.vector_norm(lib.zeros(0), float("inf")),
              lambda lib, t: lib.linalg.vector_norm(lib.ones(2, 0), float("inf"), dim=1),
              lambda lib, t: lib.linalg.vector_norm(lib.ones(2, 0), float("-inf"), dim=0)):
        tvdiff.check(f, x, rtol=2e-3, atol=2e-3)


MATRIX_ORDS = ["fro", "nuc", float("inf"), float("-inf"), 1, -1, 2, -2]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_matrix_norm_and_norm(tvdiff, dtype):
    x = tvdiff.make((2, 3, 4), dtype, "t", seed=1)
    m = tvdiff.make((3, 4), dtype, "step", seed=2)
    v = tvdiff.make((5,), dtype, seed=3)
    tol = dict(rtol=1e-4, atol=1e-4)
    for ord in MATRIX_ORDS:
        for dim in ((-2, -1), (-1, 0), (2, 1)):
            for keepdim in (False, True):
                tvdiff.check(lambda lib, t: lib.linalg.matrix_norm(t, ord, dim, keepdim), x,
                             **tol)
        tvdiff.check(lambda lib, t: lib.linalg.norm(t, ord), m, **tol)
        tvdiff.check(lambda lib, t: lib.linalg.norm(t, ord, (0, 2)), x, **tol)
        tvdiff.check(lambda lib, t: lib.linalg.matrix_norm(lib.zeros(0, 3, dtype=t.dtype), ord),
                     m, **tol)
    for ord in VECTOR_ORDS + [None]:
        tvdiff.check(lambda lib, t: lib.linalg.norm(t, ord), v, **tol)
        tvdiff.check(lambda lib, t: lib.linalg.norm(t, ord, dim=1, keepdim=True), m, **tol)
    for f in (lambda lib, t: lib.linalg.norm(t), lambda lib, t: lib.linalg.norm(t, dim=(0, 1)),
              lambda lib, t: lib.linalg.norm(t, "fro"), lambda lib, t: lib.linalg.norm(t, 2),
              lambda lib, t: lib.linalg.norm(t, dim=[]),
              lambda lib, t: lib.linalg.norm(t, 3, (0, 1)),
              lambda lib, t: lib.linalg.norm(t, "fro", dim=1),
              lambda lib, t: lib.linalg.norm(t, dim=(0, 1, 2)),
              lambda lib, t: lib.linalg.norm(t, dtype=lib.complex128),
              lambda lib, t: lib.linalg.matrix_norm(t, 3),
              lambda lib, t: lib.linalg.matrix_norm(t[0, 0]),
              lambda lib, t: lib.linalg.matrix_norm(t, dim=(0, 0)),
              lambda lib, t: lib.linalg.matrix_norm(t.real.long() if t.is_complex() else t.long())):
        tvdiff.check(f, x, **tol)


def test_multi_dot_vecdot_vander(tvdiff):
    a = tvdiff.make((3, 4), "float64", "t", seed=1)
    b = tvdiff.make((4, 2), "float64", seed=2)
    v = tvdiff.make((3,), "float64", seed=3)
    for f in (lambda lib, a, b, v: lib.linalg.multi_dot([a, b]),
              lambda lib, a, b, v: lib.linalg.multi_dot([v, a, b, b.t()]),
              lambda lib, a, b, v: lib.linalg.multi_dot([v, a, b[:, 0]]),
              lambda lib, a, b, v: lib.linalg.multi_dot((a.t(), v)),
              lambda lib, a, b, v: lib.chain_matmul(a, b, b.t()),
              lambda lib, a, b, v: lib.linalg.vecdot(a, a), lambda lib, a, b, v: lib.linalg.vecdot(
                  a.cfloat(), a.cfloat() * 1j, dim=0),
              lambda lib, a, b, v: lib.linalg.vander(v), lambda lib, a, b, v: lib.linalg.vander(
                  v, N=5), lambda lib, a, b, v: lib.linalg.diagonal(a)):
        # (chain_matmul's deprecation warning is once per process in both libraries: whether
        # PyTorch's was already given depends on which tests ran before)
        once = "chain_matmul" in f.__code__.co_names
        tvdiff.check(f, a, b, v, rtol=1e-5, atol=1e-5, warns=not once)


# ---------------------------------------------------------------- speed and devices
def test_matmul_of_strided_operands_matches_numpy():
    """``@`` runs the backend's matmul on the strided views, a transposed operand included
    (its speed against NumPy's is measured in benchmarks/, not asserted here)."""
    rng = np.random.default_rng(0)
    a_np = rng.random((384, 384), dtype=np.float32)
    b_np = rng.random((384, 384), dtype=np.float32)
    bt_np = np.ascontiguousarray(b_np.T)
    a, b = tensorviz.from_numpy(a_np), tensorviz.from_numpy(b_np)
    bt = tensorviz.from_numpy(bt_np).t()
    np.testing.assert_allclose((a @ b).numpy(), a_np @ b_np, rtol=1e-4)
    np.testing.assert_allclose(tensorviz.matmul(a, bt).numpy(), a_np @ b_np, rtol=1e-4)


@pytest.mark.parametrize("op", ["matmul", "inv", "solve", "svdvals", "eigvalsh", "qr", "norm",
                                "eig", "lstsq"])
def test_on_cuda_matches_cpu(devices, op):
    if devices == "cpu":
        pytest.skip("compares cuda with cpu")
    a = tensorviz.tensor([[4.0, 1, 0], [1, 3, 1], [0, 1, 2]], dtype=tensorviz.float64)
    b = tensorviz.tensor([1.0, 2.0, 3.0], dtype=tensorviz.float64)
    calls = {"matmul": lambda a, b: a @ b, "inv": lambda a, b: tensorviz.linalg.inv(a),
             "solve": lambda a, b: tensorviz.linalg.solve(a, b),
             "svdvals": lambda a, b: tensorviz.linalg.svdvals(a),
             "eigvalsh": lambda a, b: tensorviz.linalg.eigvalsh(a),
             "qr": lambda a, b: tensorviz.linalg.qr(a).R.abs(),
             "norm": lambda a, b: tensorviz.linalg.norm(a, "nuc"),
             "eig": lambda a, b: tensorviz.linalg.eigvals(a),
             "lstsq": lambda a, b: tensorviz.linalg.lstsq(a, b[:, None]).solution}
    cpu = calls[op](a, b)
    try:
        gpu = calls[op](a.cuda(), b.cuda())
    except NotImplementedError as e:  # CuPy lacks linalg.eig: a clear error
        assert op == "eig" and "CuPy" in str(e)
        return
    np.testing.assert_allclose(gpu.cpu().numpy(), cpu.numpy(), rtol=1e-6, atol=1e-8)
    with pytest.raises(tensorviz.linalg.LinAlgError):
        tensorviz.linalg.inv(tensorviz.ones(2, 2).cuda())


# ---------------------------------------------------------------- random shapes (hypothesis)
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@st.composite
def _matmul_cases(draw):
    n, k, m = (draw(st.integers(0, 4)) for _ in range(3))
    batch = draw(st.lists(st.integers(1, 3), max_size=2))
    ba = [b if draw(st.booleans()) else 1 for b in batch][draw(st.integers(0, len(batch))):]
    bb = [b if draw(st.booleans()) else 1 for b in batch][draw(st.integers(0, len(batch))):]
    sa = tuple(ba) + ((n, k) if draw(st.integers(0, 3)) else (k,))
    sb = tuple(bb) + ((k, m) if draw(st.integers(0, 3)) else (k,))
    if draw(st.integers(0, 9)) == 0:
        sb = sb[:-2] + (sb[-2] + 1,) + sb[-1:] if len(sb) >= 2 else (k + 1,)  # mismatch
    return (sa, sb, draw(st.sampled_from(LAYOUTS)), draw(st.sampled_from(LAYOUTS)),
            draw(st.sampled_from(["float32", "float64", "int64", "complex64"])))


@settings(max_examples=50, deadline=None)
@given(_matmul_cases())
def test_random_matmul(tvdiff, case):
    sa, sb, la, lb, dtype = case
    a = tvdiff.make(sa, dtype, la, seed=1, low=-3, high=4)
    b = tvdiff.make(sb, dtype, lb, seed=2, low=-3, high=4)
    tvdiff.check(lambda lib, a, b: lib.matmul(a, b), a, b, rtol=1e-4, atol=1e-4)


def test_error_messages_are_pytorchs():
    """The messages the brief quotes (and their neighbours) word for word."""
    f32, f64 = tensorviz.ones(3), tensorviz.ones(3, dtype=tensorviz.float64)
    m = tensorviz.ones(2, 3)
    cases = [
        (lambda lib: lib.mm(lib.ones(2, 3), lib.ones(2, 3)),
         "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"),
        (lambda lib: lib.ones(2, 3) @ lib.ones(2, 3),
         "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"),
        (lambda lib: lib.linalg.inv(lib.ones(2, 2, dtype=lib.long)),
         "linalg.inv: Expected a floating point or complex tensor as input. Got Long"),
        (lambda lib: lib.dot(lib.ones(3), lib.ones(3, dtype=lib.float64)),
         "dot : expected both vectors to have same dtype, but found Float and Double"),
        (lambda lib: lib.cat([lib.ones(2, 3), lib.ones(2, 4)]),
         "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 "
         "for tensor number 1 in the list."),
        (lambda lib: lib.cat([lib.ones(2, 3), lib.ones(2, 2, 3)]),
         "Tensors must have same number of dimensions: got 2 and 3"),
        (lambda lib: lib.matmul(lib.ones(2, 3), lib.ones(3, 2, dtype=lib.float64)),
         "expected m1 and m2 to have the same dtype, but got: float != double"),
        (lambda lib: lib.stack([lib.ones(2, 3), lib.ones(1, 3)]),
         "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [1, 3] at "
         "entry 1"),
        (lambda lib: lib.linalg.solve(lib.eye(3), lib.ones(2)),
         "linalg.solve: Incompatible shapes of A and B for the equation AX = B (3x3 and 2x1)"),
    ]
    for f, msg in cases:
        for lib in (tensorviz, torch):
            with pytest.raises(RuntimeError) as e:
                f(lib)
            assert str(e.value).split(" (Triggered internally")[0] == msg, (lib, str(e.value))
    assert f32.dtype is not f64.dtype and m.shape == (2, 3)


def test_triangular_exp_and_tensor_solvers(tvdiff):
    up = _matrix(tvdiff, (2, 3, 3), "float64", "t", seed=4)
    b = tvdiff.make((2, 3, 2), "float64", "step", seed=5)
    tol = dict(rtol=1e-6, atol=1e-6)
    for f in (lambda lib, A, B: lib.linalg.solve_triangular(A, B, upper=True),
              lambda lib, A, B: lib.linalg.solve_triangular(A, B, upper=False),
              lambda lib, A, B: lib.linalg.solve_triangular(A, B, upper=True, unitriangular=True),
              lambda lib, A, B: lib.linalg.solve_triangular(A, B.mT, upper=True, left=False),
              lambda lib, A, B: lib.linalg.solve_triangular(A[0], B, upper=False),
              lambda lib, A, B: lib.linalg.solve_triangular(lib.zeros(2, 2, dtype=A.dtype),
                                                            B[0, :2], upper=True),
              lambda lib, A, B: lib.linalg.solve_triangular(A, B[..., 0], upper=True),
              lambda lib, A, B: lib.linalg.solve_triangular(A.long(), B.long(), upper=True),
              lambda lib, A, B: lib.linalg.matrix_exp(A / 4),
              lambda lib, A, B: (A * 3).matrix_exp(),
              lambda lib, A, B: lib.matrix_exp(A.mT.cfloat() / 3),
              lambda lib, A, B: lib.linalg.matrix_exp(A.long()),
              lambda lib, A, B: lib.linalg.tensorinv(lib.eye(6, dtype=A.dtype).reshape(6, 2, 3) * 2,
                                                     ind=1),
              lambda lib, A, B: lib.linalg.tensorinv(A.reshape(3, 2, 3)[:2], ind=1),
              lambda lib, A, B: lib.linalg.tensorsolve(lib.eye(6, dtype=A.dtype).reshape(2, 3, 6),
                                                       B[0].mT.reshape(2, 3)),
              lambda lib, A, B: lib.linalg.tensorinv(lib.ones(2, 3), ind=1)):
        tvdiff.check(f, up, b, **tol)
    _same_strides(tvdiff, lambda lib, A, B: lib.linalg.solve_triangular(A, B, upper=True), up, b)


# ---------------------------------------------------------------- failures per batch element
def _singular_batch(lib, dtype):
    return lib.stack([lib.eye(3), lib.tensor([[1., 2, 3], [2, 4, 6], [1, 1, 1]]),
                      lib.tensor([[0., 0, 0], [0, 1, 0], [0, 0, 1]])]).to(getattr(lib, dtype))


def _not_pd_batch(lib, dtype):
    return lib.stack([lib.eye(3), lib.tensor([[1., 2, 0], [2, 1, 0], [0, 0, 1]]),
                      -lib.eye(3)]).to(getattr(lib, dtype))


@pytest.mark.parametrize("dtype", FLOATS)
def test_ex_info_per_batch_element(tvdiff, dtype):
    """inv_ex/solve_ex give each matrix LAPACK's getrf info (the first zero pivot, 1-based),
    cholesky_ex potrf's (the first leading minor that is not positive-definite); the
    matrices that do not fail get their own result."""
    A = tvdiff.make((3, 3, 3), dtype, data=_singular_batch(torch, dtype).numpy())
    P = tvdiff.make((3, 3, 3), dtype, data=_not_pd_batch(torch, dtype).numpy())
    tvdiff.check(lambda lib, a: lib.linalg.inv_ex(a).info, A)
    tvdiff.check(lambda lib, a: lib.linalg.inv_ex(a).inverse[0], A)
    tvdiff.check(lambda lib, a: lib.linalg.inv_ex(a[1]).info, A)
    tvdiff.check(lambda lib, a: lib.linalg.solve_ex(a, lib.ones(3, 3, 2, dtype=a.dtype)).info, A)
    tvdiff.check(lambda lib, a: lib.linalg.solve_ex(a, lib.ones(3, 3, 2, dtype=a.dtype))
                 .result[0], A)
    tvdiff.check(lambda lib, a: lib.linalg.solve_ex(a, lib.ones(3, 3, dtype=a.dtype)).result[0],
                 A)
    tvdiff.check(lambda lib, a: lib.linalg.cholesky_ex(a).info, P)
    tvdiff.check(lambda lib, a: lib.linalg.cholesky_ex(a).L[0], P)
    tvdiff.check(lambda lib, a: lib.linalg.cholesky_ex(a[1]).info, P)


@pytest.mark.parametrize("batched", [False, True])
def test_singular_error_messages(batched):
    """The message names the failing batch element and pivot/minor, as PyTorch's does."""
    calls = [lambda lib, a, p: lib.linalg.inv(a), lambda lib, a, p: lib.inverse(a),
             lambda lib, a, p: lib.linalg.solve(a, lib.ones(a.shape[:-1], dtype=a.dtype)),
             lambda lib, a, p: lib.linalg.cholesky(p),
             lambda lib, a, p: lib.linalg.inv_ex(a, check_errors=True),
             lambda lib, a, p: lib.linalg.cholesky_ex(p, check_errors=True),
             lambda lib, a, p: lib.linalg.solve_ex(a, lib.ones(a.shape, dtype=a.dtype),
                                                   check_errors=True)]
    for f in calls:
        msgs = []
        for lib in (tensorviz, torch):
            a, p = _singular_batch(lib, "float64"), _not_pd_batch(lib, "float64")
            if not batched:
                a, p = a[1], p[1]
            with pytest.raises(lib.linalg.LinAlgError) as info:
                f(lib, a, p)
            msgs.append(str(info.value))
        assert msgs[0] == msgs[1]


# ---------------------------------------------------------------- dtype and order of checks
CHECK_CASES = {
    "addr-int-beta": lambda lib, i, h, b: lib.addr(i, i[0], i[0], beta=0.5),
    "addr-int-alpha": lambda lib, i, h, b: lib.addr(i, i[0], i[0], alpha=2.0),
    "cross-bool": lambda lib, i, h, b: lib.cross(b, b, dim=0),
    "linalg.cross-bool": lambda lib, i, h, b: lib.linalg.cross(b, b),
    "trace-bool-1d": lambda lib, i, h, b: lib.trace(b),
    "cholesky-int": lambda lib, i, h, b: lib.cholesky(i),
    "cholesky-half": lambda lib, i, h, b: lib.cholesky(h),
    "vecdot-int": lambda lib, i, h, b: lib.linalg.vecdot(i, i),
    "vecdot-bool": lambda lib, i, h, b: lib.linalg.vecdot(b, b),
    "solve-half-shapes": lambda lib, i, h, b: lib.linalg.solve(h, lib.ones(5, 3,
                                                                          dtype=h.dtype)),
    "eigh-half-rect": lambda lib, i, h, b: lib.linalg.eigh(h[:, :2]),
    "eigh-int-rect": lambda lib, i, h, b: lib.linalg.eigh(i[:, :2]),
    "eigvals-half-rect": lambda lib, i, h, b: lib.linalg.eigvals(h[:2]),
    "matrix_rank-half": lambda lib, i, h, b: lib.linalg.matrix_rank(h),
    "matrix_rank-half-rtol": lambda lib, i, h, b: lib.linalg.matrix_rank(h, atol=1.0, rtol=0.0),
    "matrix_rank-int-rtol": lambda lib, i, h, b: lib.linalg.matrix_rank(i, rtol=0.1),
    "matrix_rank-int-tol": lambda lib, i, h, b: lib.linalg.matrix_rank(i, tol=0.1),
}


@pytest.mark.parametrize("name", sorted(CHECK_CASES))
def test_dtype_checks_in_pytorch_order(tvdiff, name):
    i = tvdiff.make((3, 3), "int64", seed=1)
    h = tvdiff.make((3, 3), "float16", seed=2, low=-1, high=1)
    b = tvdiff.make((3,), "bool", seed=3)
    tvdiff.check(CHECK_CASES[name], i, h, b, warns=False)


@pytest.mark.parametrize("some", [True, False])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
def test_torch_qr(tvdiff, some, shape):
    """``torch.qr`` / ``Tensor.qr``: ``(Q, R)`` as ``return_types.qr`` (reduced when
    ``some``), with LAPACK's signs as ``linalg.qr``."""
    x = tvdiff.make(shape, "float64", "t", seed=4)
    tvdiff.check(lambda lib, t: lib.qr(t, some), x, warns=False)
    tvdiff.check(lambda lib, t: t.qr(some=some), x, warns=False)
    r = tensorviz.qr(x.tv, some)
    assert type(r).__name__ == "qr" and r._fields == ("Q", "R")


@pytest.mark.parametrize("eq,shapes", [("...,...->", [(3, 4), (4,)]), ("...j,j->", [(3, 4), (4,)]),
                                       ("i...->i", [(2, 1, 4)]), ("...->", [(2, 3)]),
                                       ("b...,b...->b", [(3, 4), (3, 4)]),
                                       ("...ij->j", [(2, 3, 4)])])
def test_einsum_sums_ellipsis_left_out_of_output(tvdiff, eq, shapes):
    """An explicit output without '...' sums the ellipsis dims (NumPy's einsum refuses)."""
    ops = [tvdiff.make(s, "float64", seed=i) for i, s in enumerate(shapes)]
    tvdiff.check(lambda lib, *t: lib.einsum(eq, *t), *ops)


def test_solve_right_side_and_svd_without_uv_layouts():
    """PyTorch's linalg.solve(left=False) of complex input is a lazy conjugate view (.mH of
    the solution of the adjoint system); torch.svd(compute_uv=False) gives zeros of the full
    sizes with V an .mH view (column-major strides)."""
    for lib in (tensorviz, torch):
        A = lib.tensor([[2 + 1j, 1], [0.5j, 3]])
        B = lib.tensor([[1 + 1j, 2], [3, 4j], [1, 1]])
        X = lib.linalg.solve(A, B, left=False)
        M = lib.tensor([[1., 2., 3., 4.], [0., 1., 5., 2.], [2., 2., 0., 1.]]).t()
        U, S, V = lib.svd(M, some=True, compute_uv=False)
        got = (X.is_conj(), X.stride(), U.shape, U.stride(), V.shape, V.stride(),
               np.round(X.resolve_conj().numpy(), 6).tolist())
        if lib is torch:
            assert got == want
        want = got


def _square(layout: str, n: int):
    """An ``n x n`` matrix of a ``(2n, 2n)`` tensor in ``layout``: a row-major copy, a
    transposed view, one row expanded, or every other row and column."""
    return {"contiguous": lambda x: x[:n, :n].contiguous(), "transposed": lambda x: x[:n, :n].t(),
            "expanded": lambda x: x[:1, :n].expand(n, n), "stepped": lambda x: x[::2, ::2]}[layout]


def _check_dets(tvdiff, t, pick) -> None:
    """slogdet, det and logdet of ``pick(t)`` against PyTorch."""
    tvdiff.check(lambda lib, x: lib.linalg.slogdet(pick(x)), t)
    tvdiff.check(lambda lib, x: lib.det(pick(x)), t)
    tvdiff.check(lambda lib, x: lib.logdet(pick(x)), t)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "expanded", "stepped"])
def test_det_with_a_pivot_whose_reciprocal_overflows(tvdiff, seed, dtype, layout):
    """PyTorch's LU (MKL) multiplies by the pivot's reciprocal, inf for a pivot of 1e-310:
    det and logabsdet are NaN there, and which LU it is (of A, or of A.mT for a C-contiguous
    A) decides whether the pivot is met, so an expanded [1e-310, 1, 0.5] row has logabsdet
    NaN and its contiguous copy -inf."""
    rng = np.random.default_rng(seed)
    tiny = np.finfo(dtype).tiny / 64
    vals = np.array([tiny, -tiny, 1.0, -2.0, 0.5, 0.0, 3.0], dtype)
    n = 3
    base = rng.choice(vals, (2 * n, 2 * n)).astype(dtype)
    base[0, 0] = tiny
    _check_dets(tvdiff, tvdiff.make((2 * n, 2 * n), dtype, data=base), _square(layout, n))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "stepped"])
def test_det_of_a_matrix_holding_infinities_follows_pytorchs_lu(tvdiff, seed, dtype, layout):
    """A matrix holding an infinity: PyTorch's det is its LU's (MKL's rounding, fused
    updates; of A.mT for a C-contiguous A), so [[-2.5, 4, -inf], [0.25, 1.5, 0], [-1, 0, 2]]
    has sign -1 and logabsdet inf, its column-major copy -0 and NaN."""
    rng = np.random.default_rng(seed)
    n = 3 + seed % 3
    vals = np.array([0.0, 1.0, -2.5, 0.25, 4.0, -1.0, 1.5, 2.0], dtype)
    base = rng.choice(vals, (n, 2 * n)).astype(dtype)
    for _ in range(1 + seed % 2):
        base[rng.integers(n), rng.integers(2 * n)] = rng.choice([np.inf, -np.inf])
    base[0, 2] = -np.inf
    t = tvdiff.make((n, 2 * n), dtype, data=base)
    pick = {"contiguous": lambda x: x[:, :n].contiguous(), "transposed": lambda x: x[:, :n].t(),
            "stepped": lambda x: x[:, ::2]}[layout]
    tvdiff.check(lambda lib, x: lib.linalg.slogdet(pick(x)), t)
    tvdiff.check(lambda lib, x: lib.det(pick(x)), t)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "stepped"])
def test_det_of_a_singular_matrix_is_pytorchs_lu_residue(tvdiff, seed, dtype, layout):
    """A singular matrix whose LU pivots round: one LU order meets an exact zero pivot, the
    other leaves rounding residue. PyTorch's det is its own LU's (of A.mT for a C-contiguous
    A), so outer([4, 2], [-2.5, -0.75]) has det -6e-7 in float32 and logdet NaN, not -inf."""
    rng = np.random.default_rng(seed)
    n = 2 + seed % 4
    vals = np.array([4.0, 2.0, -2.5, -0.75, 0.3, 1.5, -3.0, 0.1], dtype)
    rank = rng.integers(1, n)
    base = (rng.choice(vals, (2 * n, rank)) @ rng.choice(vals, (rank, 2 * n))).astype(dtype)
    _check_dets(tvdiff, tvdiff.make((2 * n, 2 * n), dtype, data=base), _square(layout, n))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("shape", ["triangular", "column", "permuted"])
def test_complex_det_with_a_subnormal_pivot(tvdiff, seed, dtype, shape):
    """A complex pivot below 1 / the largest value (a subnormal): PyTorch's LU multiplies by
    its reciprocal, infinite there (NaN multipliers and determinant), and its slogdet sign
    d * (1 / |d|) of a subnormal diagonal entry is NaN; a pivot of 1e-170 is an ordinary one."""
    rng = np.random.default_rng(seed)
    n = 2 + seed % 3
    sub = np.finfo(dtype).tiny / 8
    a = (rng.normal(size=(n, n)) + 1j * rng.normal(size=(n, n))).astype(dtype)
    if shape == "triangular":  # (a subnormal on the diagonal: no elimination meets it)
        a = np.triu(a)
        a[seed % n, seed % n] = sub * (1 + 1j * (seed % 2))
    elif shape == "column":  # (the first column subnormal: its pivot's reciprocal overflows)
        a[:, 0] = sub * rng.integers(1, 4, n)
    else:
        a[:, 0] = sub * rng.integers(1, 4, n)
        a = a[rng.permutation(n)]
        a[0, 0] = 1e-170 if dtype == "complex128" else 1e-20
    _check_dets(tvdiff, tvdiff.make((n, n), dtype, data=a), lambda x: x)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr_of_a_column_led_by_negative_zero(tvdiff, seed, dtype, mode):
    """A Householder reflector whose leading entry is -0.0: PyTorch's LAPACK takes its sign
    as positive (R's row negative), NumPy's as negative; R and Q follow PyTorch's."""
    rng = np.random.default_rng(seed)
    m, n = [(3, 3), (4, 3), (3, 4), (2, 2), (5, 2), (3, 3)][seed]
    vals = np.array([-0.0, 0.0, 1.0, -1.0, 0.5, -2.5, 1.5], np.float64)
    base = rng.choice(vals, (2, m, n))
    base[:, 0, 0] = -0.0
    if dtype.startswith("complex"):
        base = base + 1j * rng.choice(vals, (2, m, n))
        base[:, 0, 0] = complex(-0.0, -0.0)
    t = tvdiff.make((2, m, n), dtype, data=base.astype(dtype))
    tvdiff.check(lambda lib, x: lib.linalg.qr(x, mode=mode), t)
    tvdiff.check(lambda lib, x: lib.linalg.qr(x.mT, mode=mode), t)


@pytest.mark.parametrize("full", [True, False])
@pytest.mark.parametrize("shape", [(2, 3), (4, 3), (3, 3)])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_svd_of_a_complex_matrix_whose_largest_modulus_overflows(tvdiff, dtype, shape, full):
    """LAPACK's gesdd scales by the largest modulus, which overflows for 3.4e38+3.4e38j in
    complex64: PyTorch's factors are then the zero matrix's and its singular values NaN; a
    batch's other matrices are computed as usual."""
    big = 3.4e38 if dtype == "complex64" else 1.5e308
    rng = np.random.default_rng(len(shape) + shape[0] + full)
    z = np.zeros((2,) + shape, dtype)
    z.real, z.imag = rng.normal(size=z.shape), rng.normal(size=z.shape)
    z[0, 0, 1] = complex(big, -big)
    t = tvdiff.make(z.shape, dtype, data=z)
    tvdiff.check(lambda lib, x: lib.linalg.svd(x[:1], full_matrices=full), t)
    tvdiff.check(lambda lib, x: lib.svd(x[:1].conj(), some=not full), t)
    tvdiff.check(lambda lib, x: lib.linalg.svdvals(x), t, rtol=1e-4)
    tvdiff.check(lambda lib, x: lib.linalg.matrix_norm(x, 2), t, rtol=1e-4)


@pytest.mark.parametrize("shape", [(1, 4), (4, 1), (1, 1), (2, 1, 3), (2, 3, 1)])
def test_column_major_results_of_thin_matrices(shape):
    """LAPACK's column-major results keep PyTorch's strides when a dim has size 1 (a (1, 4)
    matrix: (1, 1), where NumPy would call it row-major); lstsq's solution has the strides
    of the max(m, n)-row buffer it is solved in."""
    got = []
    for lib in (tensorviz, torch):
        A = lib.arange(1., 1 + int(np.prod(shape))).reshape(shape) + 0.5
        rs = list(lib.linalg.svd(A, full_matrices=False)) + list(lib.svd(A)) + \
            list(lib.linalg.qr(A)) + [lib.linalg.lstsq(A, A)[0], lib.linalg.pinv(A)]
        got.append([r.stride() for r in rs])
    assert got[0] == got[1]


@pytest.mark.parametrize("layout", ["contiguous", "expanded", "permuted", "nonzero"])
def test_matrix_exp_of_empty_input_keeps_its_strides(layout):
    """An empty input's exponential is ``empty_like(A)``, as PyTorch's: its strides are the
    input's (``nonzero`` of a 0-dim zero is (0, 0) with strides (1, 0))."""
    got = []
    for lib in (tensorviz, torch):
        A = {"contiguous": lambda: lib.zeros(2, 0, 0),
             "expanded": lambda: lib.zeros(1, 0, 0).expand(3, 0, 0),
             "permuted": lambda: lib.zeros(0, 3, 3).permute(1, 0, 2)[:, :0, :0].mT,
             "nonzero": lambda: lib.nonzero(lib.tensor(0)).double()}[layout]()
        got.append([(r.shape, r.stride(), r.dtype is lib.float64)
                    for r in (lib.matrix_exp(A), lib.linalg.matrix_exp(A.mT))])
    assert got[0] == got[1]


def test_matrix_exp_overflows_for_huge_entries():
    """Note: exp of a matrix with entries near the float range overflows (inf); PyTorch's
    scaling and squaring underflows there and returns the identity."""
    A = tensorviz.tensor([[2.0, 0.5, 3e38], [0.0, -1.0, 1.0], [2.0, 0.0, 3e38]])
    assert not tensorviz.isfinite(tensorviz.linalg.matrix_exp(A)).any()
    small = tensorviz.tensor([[0.0, 1.0], [-1.0, 0.0]])  # a rotation by 1 radian
    np.testing.assert_allclose(tensorviz.linalg.matrix_exp(small).numpy(),
                               [[math.cos(1), math.sin(1)], [-math.sin(1), math.cos(1)]],
                               rtol=1e-6)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
def test_matrix_exp_of_badly_scaled_and_non_finite_matrices(tvdiff, seed, dtype):
    """Entries of very different sizes ([[0.5, 0.25], [1e18, -0.75]] overflows everywhere;
    the tiny entries of a scaled matrix decide it), infinities and NaN (all NaN), batches
    mixing them with ordinary matrices (each scaled on its own), as PyTorch's."""
    rng = np.random.default_rng(seed)
    vals = np.array([0.5, 0.25, -0.75, 2.0, -3.0, 0.0, 1e-3])
    a = rng.choice(vals, size=(4, 3, 3))
    a[1] = [[0.5, 0.25, 0.0], [1.152921504606847e18, -0.75, 0.0], [0.0, 0.0, 1.0]]
    a[2, seed % 3, 1] = [np.inf, np.nan, -np.inf][seed % 3]
    a[3] = rng.standard_normal((3, 3))
    t = tvdiff.make((4, 3, 3), dtype, data=a.astype(dtype))
    tvdiff.check(lambda lib, x: lib.matrix_exp(x), t)
    tvdiff.check(lambda lib, x: lib.linalg.matrix_exp(x[1:2].mT), t)


@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_matrix_exp_of_far_from_normal_matrix_is_the_double_precision_one(dtype):
    """Note: PyTorch computes a float32 exponential in float32, whose rounding its squarings
    magnify in a far from normal matrix (1e33 and inf where the exact exponential is
    [[0.14, 1.2e9], [-8e-10, 0.14]]); tensorviz's is PyTorch's own float64 exponential
    rounded to the dtype (and close to the exact one)."""
    a = np.array([[-1e-30, 1.152921504606847e18], [-0.75, -0.75]], dtype="float32") * \
        np.float32(1e-3)
    a = a.astype(dtype)
    got = tensorviz.matrix_exp(tensorviz.tensor(a)).numpy()
    wide_dtype = np.complex128 if dtype == "complex64" else np.float64
    wide = torch.linalg.matrix_exp(torch.from_numpy(a.astype(wide_dtype)))
    np.testing.assert_allclose(got, wide.numpy().astype(dtype), rtol=1e-5)
    exact = [[0.14018636, 1227137437.98], [-7.9827901e-10, 0.14018636]]  # (mpmath, 60 digits)
    np.testing.assert_allclose(got.real, exact, rtol=1e-2)


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float32"])
def test_inplace_products_whose_self_is_a_factor(tvdiff, dtype):
    """Note: ``x.addmm_(x, x)`` is PyTorch's out-of-place ``x.addmm(x, x)`` stored into x
    (PyTorch's own in-place kernels read entries they have overwritten there)."""
    torch = tvdiff.torch
    rng = np.random.default_rng(7)
    a = rng.standard_normal((4, 4)) + (1j * rng.standard_normal((4, 4))
                                       if dtype.startswith("complex") else 0)
    a = a.astype(dtype)
    for f, g in ((lambda x: x.addmm_(x, x), lambda x: x.addmm(x, x)),
                 (lambda x: x.addmm_(x.clone(), x.t(), beta=2), lambda x: x.addmm(x, x.t(), beta=2)),
                 (lambda x: x[0].addmv_(x, x[0]), lambda x: x[0].addmv(x, x[0])),
                 (lambda x: x[None].baddbmm_(x[None], x[None]),
                  lambda x: x[None].baddbmm(x[None], x[None]))):
        x = tensorviz.tensor(a)
        got = f(x)
        want = g(torch.tensor(a))
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_products_that_overflow(tvdiff, seed, dtype):
    """Complex matrix products with infinities, NaN and entries whose products overflow give
    PyTorch's values (``3.4e38+1j`` times ``2-2j`` is ``inf-inf j``, not NumPy BLAS's NaN)."""
    rng = np.random.default_rng(seed)
    vals = np.array([0.5, -3.0, 2.0, 1e30, 3.4e38, np.inf, -np.inf, np.nan, 0.0, -0.75])
    if dtype == "complex128":
        vals = np.where(np.abs(vals) > 1e29, vals * 1e269, vals)

    def pick(shape):
        z = np.zeros(shape, dtype)
        z.real = rng.choice(vals, shape)
        z.imag = np.where(rng.random(shape) < 0.6, rng.choice(vals, shape), 0.0)
        return z
    a, b, c = pick((3, 4)), pick((4, 2)), pick((3, 2))
    torch = tvdiff.torch

    def kind(z):  # C99 Annex G: an infinite part makes an infinity, else a NaN part a NaN
        inf = np.isinf(z.real) | np.isinf(z.imag)
        return np.where(inf, 2, np.where(np.isnan(z.real) | np.isnan(z.imag), 1, 0))
    for f in (lambda lib, x, y, z: x @ y, lambda lib, x, y, z: lib.mm(x[:1].expand(3, 4), y),
              lambda lib, x, y, z: lib.addmm(z, x, y), lambda lib, x, y, z: lib.inner(x, y.mT),
              lambda lib, x, y, z: lib.mv(x, y[:, 0]), lambda lib, x, y, z: lib.dot(x[0], y[:, 1]),
              lambda lib, x, y, z: lib.bmm(x[None], y[None]),
              lambda lib, x, y, z: lib.vdot(x[0], y[:, 1]), lambda lib, x, y, z: lib.vdot(x[1], x[1])):
        got = f(tensorviz, *(tensorviz.tensor(v) for v in (a, b, c))).numpy()
        want = f(torch, *(torch.tensor(v) for v in (a, b, c))).numpy()
        # (where PyTorch's kernel reaches NaN by inf - inf, tensorviz may keep the infinity:
        # one point at infinity in C99's terms, as the fuzzer compares them)
        kg, kw = kind(got), kind(want)
        assert np.array_equal(kg, kw) or np.all((kg == kw) | ((kw == 1) & (kg == 2))), \
            (got, want)
        fin = kind(want) == 0
        np.testing.assert_allclose(got[fin], want[fin], rtol=1e-5)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_matrix_power_of_overflowing_and_infinite_matrices(tvdiff, seed, dtype):
    """matrix_power multiplies in PyTorch's order ((A @ A) @ A for n = 3) with matmul's
    complex products, so a batch holding infinities keeps PyTorch's finite entries and
    infinities (it gave NaN everywhere: NumPy's BLAS for the complex products)."""
    rng = np.random.default_rng(seed)
    # (no finite product overflows: where one does, a fused multiply-add keeps it finite,
    # so the kernel decides; see the fuzzer's rule for products)
    vals = np.array([0.5, -1.0, 2.0, 3.0, np.inf, -np.inf, 0.0, -2.5, 1e-30])
    z = np.zeros((3, 4, 4), dtype)
    z.real = rng.choice(vals, z.shape)
    z.imag = np.where(rng.random(z.shape) < 0.5, rng.choice(vals[[0, 1, 2, 6, 7]], z.shape), 0)
    z[:, 0, 0] = np.where(np.isfinite(z[:, 0, 0]), np.inf, z[:, 0, 0])  # (one in each)
    torch = tvdiff.torch

    def kind(x):  # C99 Annex G: an infinite part makes an infinity, else a NaN part a NaN
        inf = np.isinf(x.real) | np.isinf(x.imag)
        return np.where(inf, 2, np.where(np.isnan(x.real) | np.isnan(x.imag), 1, 0))
    for n in (2, 3, 5):
        got = tensorviz.linalg.matrix_power(tensorviz.tensor(z), n).numpy()
        want = torch.linalg.matrix_power(torch.tensor(z), n).numpy()
        kg, kw = kind(got), kind(want)
        assert np.all((kg == kw) | ((kw == 1) & (kg == 2))), (n, got, want)
        fin = kw == 0
        np.testing.assert_allclose(got[fin], want[fin], rtol=1e-5)


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("transpose", [True, False])
@pytest.mark.parametrize("unit", [True, False])
@pytest.mark.parametrize("case", ["inf_in_a", "inf_in_b", "badly_scaled", "subnormal_pivot"])
def test_triangular_solves_substitute_row_by_row(tvdiff, upper, transpose, unit, case):
    """As LAPACK's trsm: an infinity spoils only the rows solved after it (an LU solve spread
    NaN everywhere), a lower triangle is not pivoted (a first column of 1e30 below ones solves
    exactly), and a subnormal pivot is divided by (0 / 1e-40 is 0, not 0 * inf)."""
    A = np.array([[1.5, -0.75, 0.0, 2.0], [-3.0, -1.0, 1.0, 1.0], [3.0, -2.5, -1.0, 1.5],
                  [-0.75, 1.5, 0.5, 4.0]], dtype=np.float32)
    B = np.array([[1.0, 2.0], [-1.0, 0.5], [0.25, 3.0], [2.0, -2.0]], dtype=np.float32)
    if case == "inf_in_a":
        A[0, 3] = A[3, 0] = np.inf
    elif case == "inf_in_b":
        B[1, 0] = -np.inf
    elif case == "subnormal_pivot":  # (float64: LAPACK's float32 solve divides there)
        A, B = A.astype(np.float64), B.astype(np.float64)
        A[0, 0] = A[3, 3] = 1e-310
        B[0, 1] = B[3, 1] = 0.0
        B[0, 0] = B[3, 0] = 1e-310
    else:
        A[:] = 1.0
        A[1:, 0] = A[0, 1:] = 1e30
        B[:, 0] = [1.0, 1e30, 1e30, 1e30]
    a, b = tvdiff.make(A.shape, A.dtype.name, data=A), tvdiff.make(B.shape, B.dtype.name, data=B)
    tvdiff.check(lambda lib, x, y: lib.triangular_solve(y, x, upper=upper, transpose=transpose,
                                                        unitriangular=unit)[0], a, b, warns=False)
    tvdiff.check(lambda lib, x, y: lib.linalg.solve_triangular(
        x.mT if transpose else x, y, upper=upper != transpose, unitriangular=unit), a, b)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_logdet_of_singular_matrices(tvdiff, dtype):
    """log(det) of an exactly singular complex matrix is -inf+nan j, as PyTorch's."""
    for a in ([[1 + 1j, 1 + 1j], [1 + 1j, 1 + 1j]], [[0j, 0j], [0j, 0j]],
              [[2j, 0j, 1], [0j, 0j, 0j], [1, 1j, 3]], [[1 + 1j, 2], [3, 4j]]):
        t = tvdiff.make((len(a), len(a)), dtype, data=np.array(a, dtype=dtype))
        tvdiff.check(lambda lib, x: lib.logdet(x), t)
        tvdiff.check(lambda lib, x: lib.logdet(x[None].expand(2, -1, -1)), t)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cross_rounds_as_pytorch_fused_multiply_add(tvdiff, seed, dtype):
    """PyTorch's cross is fma(a_j, b_k, -(a_k * b_j)) per component: a x a is the rounding
    error of a_k * b_j (-1e31 beside 3.4e38), not 0; bit for bit on random inputs too."""
    torch = tvdiff.torch
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal((5, 3)) * 10.0 ** rng.integers(-5, 30, (5, 3))).astype(dtype)
    b = (rng.standard_normal((5, 3)) * 10.0 ** rng.integers(-5, 30, (5, 3))).astype(dtype)
    a[0] = [0.0, 1.0, 3.4e38]
    a[1, 0] = np.inf
    for x, y in ((a, b), (a, a), (a.T.copy(), b.T.copy())):
        dim = 0 if x.shape[0] == 3 else 1
        got = tensorviz.linalg.cross(tensorviz.tensor(x), tensorviz.tensor(y), dim=dim)
        want = torch.linalg.cross(torch.tensor(x), torch.tensor(y), dim=dim)
        np.testing.assert_array_equal(got.numpy(), want.numpy())
    tvdiff.check(lambda lib, x: lib.cross(x, x.flip(0)), tvdiff.make((3, 5), dtype, data=a.T))


@pytest.mark.parametrize("alpha", [0, -0.0, 0.0])
@pytest.mark.parametrize("beta", [1, 0, 2.0])
@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_zero_alpha_ignores_the_product_as_pytorch(tvdiff, alpha, beta, dtype):
    """addmm/addbmm (and real addmv) with alpha=0 ignore the product (an infinity in it gives
    no NaN); baddbmm, addr and complex addmv compute it (0 * inf = NaN), as PyTorch's."""
    x = tvdiff.make((2, 2), dtype, data=np.array([[-0.0, np.inf], [2.0, 3.0]], dtype=dtype))
    for f in (lambda lib, b: lib.addmm(b, b, b, alpha=alpha, beta=beta),
              lambda lib, b: lib.addmm(b[0], b, b.mT, alpha=alpha, beta=beta),
              lambda lib, b: lib.addmv(b[0].real, b.real, b[1].real, alpha=alpha, beta=beta),
              lambda lib, b: lib.addbmm(b, b[None], b[None], alpha=alpha, beta=beta),
              lambda lib, b: lib.baddbmm(b[None].real, b[None].real, b[None].real, alpha=alpha,
                                         beta=beta),
              lambda lib, b: lib.addr(b.real, b[0].real, b[1].real, alpha=alpha, beta=beta),
              lambda lib, b: b.clone().addmm_(b, b, alpha=alpha, beta=beta)):
        tvdiff.check(f, x)


@pytest.mark.parametrize("shape", [(0, 3, 3), (2, 3, 3), (3, 3), (0, 1, 1), (2, 1, 1)])
def test_triangular_solve_coefficient_is_column_major(tvdiff, shape):
    """The cloned coefficient has PyTorch's column-major strides, empty batches too."""
    a = tvdiff.make(shape, "float64")
    tvdiff.check(lambda lib, A: [t.stride() for t in lib.triangular_solve(
        lib.ones(A.shape[:-1] + (2,), dtype=A.dtype), A + 4 * lib.eye(A.shape[-1]))], a,
        warns=False)


def test_dot_vdot_of_conjugate_views_are_lazy_as_pytorch():
    """PyTorch computes dot/vdot on the memory of conjugate views and conjugates the 0-dim
    result lazily for dot(conj, conj) and vdot(plain, conj): is_conj() and values agree."""
    got = []
    for T in (tensorviz, torch):
        a = T.tensor([2 - 2j, -1 - 2j, 0.25 + 1j])
        b = T.tensor([3 + 3j, 0.5 - 2j, 0.25 + 0j])
        row = []
        for x in (a, a.conj()):
            for y in (b, b.conj()):
                for r in (T.vdot(x, y), T.dot(x, y)):
                    row.append((r.is_conj(), complex(r)))
        got.append(row)
    assert got[0] == got[1]


def test_kron_layout_and_the_inputs_pytorch_cannot_view():
    """kron is laid out as PyTorch's (input viewed as (a0, 1, a1, 1 ...) times other as
    (1, b0, 1, b1 ...)); Note: where PyTorch's views refuse a transposed input, tensorviz
    copies it and gives the Kronecker product."""
    cases = [lambda T, v: (v.permute(2, 1, 0), v.permute(2, 1, 0)), lambda T, v: (v, v),
             lambda T, v: (v[0], v[1:]), lambda T, v: (T.tensor(3.), v[0]),
             lambda T, v: (T.tensor([True, False]), T.tensor([[True], [True]])),
             lambda T, v: (T.tensor([1, 2], dtype=T.int8), T.tensor([1.5]))]
    for case in cases:
        got = []
        for T in (tensorviz, torch):
            v = T.arange(24.).reshape(3, 2, 4)
            r = T.kron(*case(T, v))
            got.append((tuple(r.shape), r.stride(), str(r.dtype).split(".")[-1], r.tolist()))
        assert got[0] == got[1]
    a, b = tensorviz.tensor([[1., 2.], [3., 4.]]).t(), tensorviz.tensor([[0., 1.], [1., 0.]])
    np.testing.assert_array_equal(tensorviz.kron(a, b).numpy(), np.kron(a.numpy(), b.numpy()))


def test_integer_addmm_refuses_non_finite_or_overflowing_scalars():
    """beta/alpha for integer matrices are converted to the int dtype with PyTorch's check:
    inf, NaN and values past the range are its RuntimeError, never Python's OverflowError."""
    for beta, alpha in ((float("inf"), 1), (1, float("inf")), (float("nan"), 1), (1e30, 1)):
        msgs = []
        for T in (tensorviz, torch):
            v0 = T.tensor([[-3]], dtype=T.int32)
            with pytest.raises(RuntimeError) as e:
                v0.addmm(v0, T.tensor([[0]], dtype=T.int32), beta=beta, alpha=alpha)
            msgs.append(str(e.value))
        assert msgs[0] == msgs[1]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_matrix_exp_of_one_by_one_matrices_is_exp(tvdiff, dtype):
    """A 1x1 matrix's exponential is its entry's exp, as PyTorch computes it (exp(1e30+0j) is
    inf+0j, -inf gives 0, NaN stays NaN), in a batch, transposed or not."""
    a = np.array([1e30, -np.inf, np.nan, 0.5, -1e30, 3.0]).reshape(6, 1, 1)
    if dtype.startswith("complex"):
        a = a + 1j * np.array([0, 0, 1, 0.5, 0, 2.0]).reshape(6, 1, 1)
    t = tvdiff.make((6, 1, 1), dtype, data=a.astype(dtype))
    tvdiff.check(lambda lib, x: lib.matrix_exp(x), t)
    tvdiff.check(lambda lib, x: lib.linalg.matrix_exp(x.mT[::2]), t)


def _product_layout(rng, shape):
    """Random strides for ``shape``: dims in any order, stepped, size-1 dims with any
    stride, some dims expanded (stride 0)."""
    stride, acc = [0] * len(shape), 1
    for d in rng.permutation(len(shape)):
        step = int(rng.choice([1, 1, 2]))
        stride[d], acc = acc * step, acc * step * shape[d]
    return tuple(int(rng.choice([1, 5, 7])) if n == 1 and rng.random() < 0.5 else
                 0 if n > 1 and rng.random() < 0.15 else st for n, st in zip(shape, stride))


@pytest.mark.parametrize("seed", range(3))
def test_product_layouts_and_lazy_conjugates_of_random_inputs(seed):
    """addmm/addmv/baddbmm/addbmm are row-major (alpha=0 too: not beta * input's layout),
    addr is laid out by TensorIterator (input expanded, vec1 as a column, vec2), and
    tensordot/inner of two conjugate views giving one number conjugate lazily, as dot."""
    rng = np.random.default_rng(seed)
    m, k, n, b = 3, 2, 2, 2
    shapes = {"addmm": [(m, n), (m, k), (k, n)], "addmv": [(m,), (m, k), (k,)],
              "baddbmm": [(b, m, n), (b, m, k), (b, k, n)], "addbmm": [(m, n), (b, m, k),
                                                                     (b, k, n)],
              "addr": [(m, n), (m,), (n,)], "mm": [(m, k), (k, n)], "inner": [(1, k), (1, k)],
              "tensordot": [(1, k), (k, 1)], "dot": [(k,), (k,)]}
    for i in range(200):
        name = str(rng.choice(list(shapes)))
        sh = [tuple(1 if rng.random() < 0.3 else s for s in x) if j == 0 and
              name.startswith("add") else x for j, x in enumerate(shapes[name])]
        if name in ("inner", "tensordot", "dot"):  # (contracted sizes of 1 sum first)
            c = int(rng.choice([1, 2, 3]))
            sh = [tuple(c if s == k else s for s in x) for x in sh]
        lays = [(s, _product_layout(rng, s)) for s in sh]
        dt = str(rng.choice(["float32", "int64", "complex64"]))
        conj = [dt == "complex64" and rng.random() < 0.5 for _ in lays]
        kw = {"beta": int(rng.choice([0, 2])), "alpha": int(rng.choice([0, 3]))} \
            if name.startswith("add") and rng.random() < 0.5 else {}

        def run(lib):
            args = []
            for j, ((s, st), c) in enumerate(zip(lays, conj)):
                x = lib.arange(1, 200).to(getattr(lib, dt)).as_strided(s, st, j)
                args.append(x.conj() if c else x)
            r = (lib.tensordot(*args, dims=1) if name == "tensordot" else
                 getattr(lib, name)(*args, **kw))
            return tuple(r.shape), r.stride(), r.is_conj(), r.resolve_conj().tolist()
        assert run(tensorviz) == run(torch), (name, lays, dt, conj, kw)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int32"])
def test_einsum_of_integers_promotes_where_pytorch_sums_first(dtype):
    """Two bool/integer operands: a summed label only one of them holds (size above 1) is
    summed first by PyTorch (int64), then they multiply, or meet in bmm (which refuses two
    dtypes, and bool): dtype, values and errors against PyTorch on random sizes."""
    rng = np.random.default_rng(len(dtype))
    eqs = ["ij,jk->ik", "ij,jk->k", "ij,jk->i", "ij,jk->", "bij,bjk->bik", "ij,ij->i",
           "i,i->", "i,i->i", "ij,jk", "ij,kj->ik", "ii,ij->j"]
    for _ in range(150):
        eq = str(rng.choice(eqs))
        size = {c: int(rng.choice([1, 2, 3])) for c in "bijk"}
        shapes = [tuple(size[c] if rng.random() < 0.75 else 1 for c in sub)
                  for sub in eq.split("->")[0].split(",")]

        def run(lib):
            ops = [(lib.arange(1, 1 + int(np.prod(s))).reshape(s) * 37).to(getattr(lib, dtype))
                   for s in shapes]
            try:
                r = lib.einsum(eq, *ops)
            except (RuntimeError, NotImplementedError) as e:
                return type(e).__name__, str(e)
            return str(r.dtype).split(".")[-1], r.tolist()
        assert run(tensorviz) == run(torch), (eq, shapes)


@pytest.mark.parametrize("seed", range(2))
def test_einsum_of_two_operands_is_laid_out_as_pytorch(seed):
    """Two operands: the product's or the bmm's layout PyTorch's einsum leaves (its
    operands swapped where every right-only dim comes first), for output labels in any
    order, size-1 (broadcast) dims and operands of any layout."""
    rng = np.random.default_rng(seed)
    eqs = ["ij,jk->ik", "ij,jk->k", "ij,jk->i", "ij,jk->", "bij,bjk->bik", "ij,ij->i",
           "i,i->i", "ij,jk", "ij,kj->ik", "ij,jk->ki", "bij,bjk->kib", "i,j->ij", "ij,j->i",
           "ij,kl->ijkl", "abc,cd->dba", "ij,Bj->iB"]
    for _ in range(150):
        eq = str(rng.choice(eqs))
        size = {c: int(rng.choice([1, 2, 3])) for c in "abcdijklB"}
        lays = [(tuple(size[c] if rng.random() < 0.8 else 1 for c in sub),)
                for sub in eq.split("->")[0].split(",")]
        lays = [(sh, _product_layout(rng, sh)) for (sh,) in lays]
        dt = str(rng.choice(["float32", "int8", "complex64"]))

        def run(lib):
            ops = [lib.arange(1, 400).to(getattr(lib, dt)).as_strided(sh, st, k)
                   for k, (sh, st) in enumerate(lays)]
            try:
                r = lib.einsum(eq, *ops)
            except RuntimeError as e:  # (bmm of an int64 sum and an int8 operand)
                return str(e)
            return tuple(r.shape), r.stride(), str(r.dtype).split(".")[-1]
        assert run(tensorviz) == run(torch), (eq, lays, dt)


def test_outer_of_empty_expanded_vector_and_complex_addr_steps(tvdiff):
    """outer is ``input.reshape(n, 1) * vec2`` (an empty expanded input gives PyTorch's
    strides); complex addr multiplies by alpha and beta even where they are 1 ((1+0j) times an
    infinity has a NaN part), and a 0-dim input promotes as the expanded tensor it becomes."""
    inf = float("inf")
    for f in (lambda lib: lib.ger(lib.tensor([-2.5], dtype=lib.float16).expand(0),
                                  lib.tensor([1.0], dtype=lib.float16)),
              lambda lib: lib.outer(lib.ones(1).expand(0), lib.ones(3)),
              lambda lib: lib.addr(lib.tensor(4 + 0j, dtype=lib.complex128),
                                   lib.tensor([2.0, -3.0, -inf]), lib.tensor([2.0, -3.0, -inf]),
                                   beta=2**63 - 1, alpha=0.5),
              lambda lib: lib.addr(lib.tensor([complex(inf, 0), complex(1, inf)]),
                                   lib.tensor([2.0, -inf]), lib.tensor([2.0, -inf])),
              lambda lib: lib.addr(lib.tensor([1 + 0j, 2j]), lib.tensor([2.0, -inf]),
                                   lib.tensor([2.0, -inf]), beta=0),
              lambda lib: lib.addr(lib.tensor(1.0, dtype=lib.float64),
                                   lib.tensor([2.0, -inf]), lib.tensor([2.0, -inf]))):
        tvdiff.check(f)


def test_matmul_of_two_conjugate_vectors_is_dots_conjugate_view(tvdiff):
    """``a @ b`` of two vectors is PyTorch's ``dot``: of two conjugate views, a conjugate
    view (lazy), and a plain tensor where only one is, or for a matrix operand."""
    def vecs(lib):
        return (lib.tensor([2 + 0.5j, -1 + 1j]).conj(), lib.tensor([0.5 + 0j, 65504 + 1j]).conj())
    for f in (lambda lib: vecs(lib)[0] @ vecs(lib)[1],
              lambda lib: lib.matmul(vecs(lib)[0], vecs(lib)[1].conj()),
              lambda lib: lib.matmul(vecs(lib)[0][None], vecs(lib)[1])):
        (r_tv, e_tv, _), (r_pt, e_pt, _) = tvdiff.run(f)
        assert e_tv is None and e_pt is None, (e_tv, e_pt)
        assert r_tv.is_conj() == r_pt.is_conj(), (r_tv.is_conj(), r_pt.is_conj())
        tvdiff.check(f)


def test_legacy_cholesky_of_empty_input_is_empty_like(tvdiff):
    """The deprecated ``torch.cholesky`` returns a row-major ``empty_like`` of an empty input
    before checking its dtype or shape (``linalg.cholesky`` keeps its column-major layout
    and checks)."""
    for f in (lambda lib: lib.zeros((0, 3, 3), dtype=lib.complex64).conj().cholesky(False),
              lambda lib: lib.zeros(0, 3, 3).cholesky(True),
              lambda lib: lib.linalg.cholesky(lib.zeros(0, 3, 3)),
              lambda lib: lib.zeros(0, 3).cholesky(), lambda lib: lib.zeros(3, 0, 2).cholesky(),
              lambda lib: lib.zeros(0, dtype=lib.int64).cholesky(),
              lambda lib: lib.zeros(0, 2, dtype=lib.float16).cholesky(),
              lambda lib: lib.cholesky(lib.zeros(0, 3), out=lib.zeros(2, 2)),
              lambda lib: lib.linalg.cholesky(lib.zeros(0, 3))):
        tvdiff.check(f)


def test_det_slogdet_of_non_finite_matrices_from_the_lu_diagonal(tvdiff):
    """A matrix holding an infinity or NaN: PyTorch's det and slogdet come from the LU's
    diagonal (``log(inf) + log(0)`` is NaN), not NumPy's ``0`` / ``(0, -inf)`` for a zero
    pivot; finite matrices keep NumPy's LAPACK result.  Seeded random complex matrices of
    0, +-inf, NaN and small numbers, and real cases of each kind."""
    inf, nan = float("inf"), float("nan")
    real = ([[inf, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]], [[0.0, 0.0], [inf, 1.0]],
            [[1.0, 0.0], [0.0, nan]], [[-1.0, 0.0], [0.0, nan]], [[0.0, 1.0], [1.0, 0.0]],
            [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [inf, 0.0, 0.0]], [[2.0, 1.0], [4.0, 2.0]])
    for m in real:
        tvdiff.check(lambda lib, m=m: lib.linalg.slogdet(lib.tensor(m)))
        tvdiff.check(lambda lib, m=m: lib.linalg.det(lib.tensor(m)))
    rng = np.random.default_rng(1520)
    vals = np.array([0, 0, 0, 1, -2, 0.5, np.inf, -np.inf, np.nan])
    for _ in range(40):
        n = int(rng.integers(1, 5))
        a = np.empty((n, n), dtype=np.complex64)
        a.real = rng.choice(vals, (n, n))
        a.imag = np.where(rng.random((n, n)) < .3, rng.choice(vals, (n, n)), 0)
        a = a.tolist()
        tvdiff.check(lambda lib, a=a: lib.slogdet(lib.tensor(a, dtype=lib.complex64)))
        tvdiff.check(lambda lib, a=a: lib.linalg.det(lib.tensor(a, dtype=lib.complex64)))
    tvdiff.check(lambda lib: lib.linalg.slogdet(lib.stack([lib.eye(2), lib.tensor(real[1])])))


def test_complex_triangular_solves_by_infinite_or_zero_pivots(tvdiff):
    """A complex solve by an infinite or zero pivot is NaN in PyTorch (MKL's trsm multiplies
    by the scaled reciprocal of the pivot), not NumPy's Smith quotient (0, inf+inf j); large
    and tiny finite pivots still give the exact quotient."""
    inf = float("inf")
    cases = [([[complex(-inf, 1.0)]], [[0.5 - 2j]]), ([[0j]], [[2 + 1j]]),
             ([[complex(1e30, 1e30)]], [[complex(1e30, -2.0)]]),
             ([[complex(1e-30, 1e-30)]], [[complex(1e-30, -2.0)]]),
             ([[1 + 0j, 0j], [complex(inf, 0), 2 + 0j]], [[2 + 1j], [1 + 0j]])]
    for a, b in cases:
        tvdiff.check(lambda lib, a=a, b=b: lib.linalg.solve_triangular(
            lib.tensor(a, dtype=lib.complex64), lib.tensor(b, dtype=lib.complex64), upper=False))
    for a, b in (([[0.5 - 2j]], [[complex(-inf, 1.0)]]), ([[2 + 1j]], [[complex(2, inf)]]),
                 ([[2 + 1j]], [[0j]]), ([[1 + 0j], [2 + 0j]], [[complex(inf, 0), 0], [1, 2]])):
        for upper in (False, True):
            tvdiff.check(lambda lib, a=a, b=b, upper=upper: lib.cholesky_solve(
                lib.tensor(a, dtype=lib.complex64), lib.tensor(b, dtype=lib.complex64), upper))


@pytest.mark.parametrize("shapes", [[(3,)], [(2, 2), (2,)], [(2, 2, 2)], [(2, 3), (3, 2)], []])
def test_chain_matmul_takes_matrices_only(shapes):
    # each operand 2-D (PyTorch: "Tensor dimension is 1, expected 2 instead."), one at least
    outcomes = []
    for lib in (torch, tensorviz):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # (deprecated: once per process)
            try:
                outcomes.append(lib.chain_matmul(*[lib.ones(s) for s in shapes]).tolist())
            except RuntimeError as e:
                outcomes.append(str(e))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("p", [float("nan"), 2, 0, float("inf"), -float("inf"), 1.5, -1, -0.5])
def test_norms_of_empty_tensors_as_pytorch(p):
    """A p-norm over no element: the sum's identity 0 (a NaN p too), PyTorch's refusal for
    the norms without an identity (inf, and every negative p: its message names p as
    PyTorch prints it), through vector_norm, dist and Tensor.norm alike."""
    torch = pytest.importorskip("torch")
    got = []
    for T in (tensorviz, torch):
        e, f, g = T.zeros((1, 0), dtype=T.complex128), T.zeros(0), T.zeros(2, 0)
        row = []
        for fn in (lambda: T.dist(e, T.zeros(0, dtype=T.int8), p),
                   lambda: T.linalg.vector_norm(f, p), lambda: f.norm(p),
                   lambda: T.dist(f, f, p), lambda: T.linalg.vector_norm(g, p, dim=1),
                   lambda: T.linalg.vector_norm(g, p, dim=0), lambda: g.norm(p, dim=1)):
            try:
                row.append(repr(fn().tolist()))
            except RuntimeError as ex:
                row.append(str(ex))
        got.append(row)
    assert got[0] == got[1]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("upper", [True, False])
def test_cholesky_reads_only_its_own_triangle(tvdiff, dtype, upper):
    """LAPACK's Cholesky reads one triangle of A: the upper one for upper=True (a lower
    triangle of 100 does not make [[4, 2], [100, 5]] indefinite there), the lower one else;
    the legacy torch.cholesky names itself in its error."""
    rng = np.random.default_rng(3)
    for k in range(4):
        a = rng.normal(size=(3, 3)) + (1j * rng.normal(size=(3, 3)) if "complex" in dtype else 0)
        spd = a @ np.conj(a.T) + 3 * np.eye(3)
        other = np.tril(rng.normal(size=(3, 3)) * 50, -1) if upper else \
            np.triu(rng.normal(size=(3, 3)) * 50, 1)
        m = (np.triu(spd) + other if upper else np.tril(spd) + other).astype(dtype)
        t = tvdiff.make((3, 3), dtype, data=m)
        tvdiff.check(lambda lib, x: lib.linalg.cholesky(x, upper=upper), t)
        tvdiff.check(lambda lib, x: lib.cholesky(x, upper=upper), t)
        tvdiff.check(lambda lib, x: lib.linalg.cholesky_ex(x, upper=upper), t)
    bad = tvdiff.make((2, 2), dtype, data=np.array([[1, 0], [3, 2]], dtype).T.copy()
                      if upper else np.array([[1, 0], [3, 2]], dtype))
    tvdiff.check(lambda lib, x: lib.cholesky(x, upper=not upper), bad)
