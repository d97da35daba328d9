"""``out=`` dtypes against PyTorch: elementwise ops cast into a wider ``out``, while many ops
(structured kernels, indexing, linalg) refuse any ``out`` whose dtype is not the result's;
sum/prod/cumsum compute in ``out``'s dtype; ``(values, indices)`` results written into
``out=`` come back as PyTorch's ``*_out`` named tuples."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

OPS = {
    "add": lambda lib, a, b, o: lib.add(a, b, out=o),
    "exp": lambda lib, a, b, o: lib.exp(a, out=o),
    "abs": lambda lib, a, b, o: lib.abs(a, out=o),
    "neg": lambda lib, a, b, o: lib.neg(a, out=o),
    "clamp": lambda lib, a, b, o: lib.clamp(a, -0.5, 0.5, out=o),
    "argmax": lambda lib, a, b, o: lib.argmax(a, 0, out=o),
    "argmin": lambda lib, a, b, o: lib.argmin(a, 1, out=o),
    "mm": lambda lib, a, b, o: lib.mm(a, b, out=o),
    "matmul": lambda lib, a, b, o: lib.matmul(a, b, out=o),
    "addmm": lambda lib, a, b, o: lib.addmm(a, a, b, out=o),
    "addmv": lambda lib, a, b, o: lib.addmv(a[0], a, b[0], out=o),
    "addbmm": lambda lib, a, b, o: lib.addbmm(a, a[None], b[None], out=o),
    "dot": lambda lib, a, b, o: lib.dot(a[0], b[0], out=o),
    "tensordot": lambda lib, a, b, o: lib.tensordot(a, b, out=o),
    "index_select": lambda lib, a, b, o: lib.index_select(a, 0, lib.tensor([2, 0]), out=o),
    "gather": lambda lib, a, b, o: lib.gather(a, 0, lib.zeros(2, 4, dtype=lib.int64), out=o),
    "take": lambda lib, a, b, o: lib.take(a, lib.tensor([0, 5]), out=o),
    "take_along_dim": lambda lib, a, b, o: lib.take_along_dim(a, lib.zeros(1, 4,
                                                                           dtype=lib.int64), 0,
                                                              out=o),
    "masked_select": lambda lib, a, b, o: lib.masked_select(a, a > 0, out=o),
    "where": lambda lib, a, b, o: lib.where(a > 0, a, b, out=o),
    "nonzero": lambda lib, a, b, o: lib.nonzero(a > 0, out=o),
    "tril": lambda lib, a, b, o: lib.tril(a, out=o),
    "diag": lambda lib, a, b, o: lib.diag(a, out=o),
    "msort": lambda lib, a, b, o: lib.msort(a, out=o),
    "histc": lambda lib, a, b, o: lib.histc(a, 4, out=o),
    "linalg.inv": lambda lib, a, b, o: lib.linalg.inv(a + 4 * lib.eye(4), out=o),
    "linalg.solve": lambda lib, a, b, o: lib.linalg.solve(a + 4 * lib.eye(4), b, out=o),
    "linalg.vector_norm": lambda lib, a, b, o: lib.linalg.vector_norm(a, dim=0, out=o),
    "linalg.matrix_norm": lambda lib, a, b, o: lib.linalg.matrix_norm(a, out=o),
    "linalg.norm": lambda lib, a, b, o: lib.linalg.norm(a, out=o),
    "linalg.cross": lambda lib, a, b, o: lib.linalg.cross(a[:, :3], b[:, :3], out=o),
    "linalg.vecdot": lambda lib, a, b, o: lib.linalg.vecdot(a, b, out=o),
    "linalg.multi_dot": lambda lib, a, b, o: lib.linalg.multi_dot([a, b], out=o),
    "sum": lambda lib, a, b, o: lib.sum(a, 0, out=o),
    "prod": lambda lib, a, b, o: lib.prod(a, 1, out=o),
    "cumsum": lambda lib, a, b, o: lib.cumsum(a, 0, out=o),
    "cumprod": lambda lib, a, b, o: lib.cumprod(a, 1, out=o),
    "mean": lambda lib, a, b, o: lib.mean(a, 0, out=o),
    "logsumexp": lambda lib, a, b, o: lib.logsumexp(a, 0, out=o),
}


@pytest.mark.parametrize("name", sorted(OPS))
@pytest.mark.parametrize("out_dtype", ["float32", "float64", "int64", "complex64", "bool"])
def test_out_dtype_rules(tvdiff, name, out_dtype):
    a = tvdiff.make((4, 4), "float32", seed=1, low=0.2, high=3)
    b = tvdiff.make((4, 4), "float32", "t", seed=2, low=0.2, high=3)

    def f(lib, x, y):
        o = lib.zeros(0, dtype=getattr(lib, out_dtype))
        r = OPS[name](lib, x, y, o)
        assert r is o
        return o
    tvdiff.check(f, a, b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name", ["max", "min", "sort", "topk", "kthvalue", "median", "mode",
                                  "cummax", "aminmax"])
def test_out_pair_return_types(tvdiff, name):
    calls = {"max": lambda lib, t, o: lib.max(t, 0, out=o),
             "min": lambda lib, t, o: lib.min(t, 1, out=o),
             "sort": lambda lib, t, o: lib.sort(t, 0, out=o),
             "topk": lambda lib, t, o: lib.topk(t, 2, out=o),
             "kthvalue": lambda lib, t, o: lib.kthvalue(t, 2, 0, out=o),
             "median": lambda lib, t, o: lib.median(t, 0, out=o),
             "mode": lambda lib, t, o: lib.mode(t, 0, out=o),
             "cummax": lambda lib, t, o: lib.cummax(t, 0, out=o),
             "aminmax": lambda lib, t, o: lib.aminmax(t, dim=0, out=o)}
    x = tvdiff.make((3, 4), "float32", "t", seed=3)

    def f(lib, t):
        second = lib.float32 if name == "aminmax" else lib.int64
        o = (lib.zeros(0), lib.zeros(0, dtype=second))
        r = calls[name](lib, t, o)
        assert r[0] is o[0] and r[1] is o[1]
        return r
    tvdiff.check(f, x, indices=name not in ("median", "mode", "kthvalue"))


@pytest.mark.parametrize("shape", [(3,), (0,), ()])
def test_bool_scans(tvdiff, shape):
    """cumsum/cumprod have no bool kernel (a 0-dim or empty input runs none)."""
    x = tvdiff.make(shape, "float32")
    tvdiff.check(lambda lib, t: lib.cumsum(t, 0, dtype=lib.bool), x)
    tvdiff.check(lambda lib, t: lib.cumprod(t, 0, dtype=lib.bool), x)


# Errors whose message (not only type) must be PyTorch's: out= dtypes refused by the op's own
# check, the order of checks when several fail, in-place forms refusing self's dtype.
MESSAGES = {
    "quantile_out": lambda lib, x: lib.quantile(x, 0.5, dim=1, out=lib.empty(0, dtype=lib.float64)),
    "nanquantile_out": lambda lib, x: lib.nanquantile(x, 0.5, out=lib.empty(0,
                                                                            dtype=lib.float64)),
    "quantile_bad_dim_out": lambda lib, x: lib.quantile(x.double(), 0.5, dim=5, out=lib.empty(0)),
    "nanquantile_interp_first": lambda lib, x: lib.nanquantile(
        x, 0.5, interpolation="bad", out=lib.empty(0, dtype=lib.float64)),
    "nanquantile_q": lambda lib, x: lib.nanquantile(x, -1.0),
    "logcumsumexp_out": lambda lib, x: lib.logcumsumexp(x, 5, out=lib.empty(0,
                                                                           dtype=lib.float64)),
    "logcumsumexp_int_out": lambda lib, x: lib.logcumsumexp(x.long(), 1, out=lib.empty(0)),
    "narrow_copy_out": lambda lib, x: lib.narrow_copy(x, 1, 1, 9, out=lib.empty(0,
                                                                               dtype=lib.int64)),
    "histogram_hist": lambda lib, x: lib.histogram(x, 3, out=(lib.empty(0, dtype=lib.float64),
                                                              lib.empty(0))),
    "histogram_edges": lambda lib, x: lib.histogram(x.long(), 3, out=(
        lib.empty(0, dtype=lib.int64), lib.empty(0, dtype=lib.float64))),
    "multinomial_out": lambda lib, x: lib.multinomial(x, 0, out=lib.empty(0)),
    "searchsorted_out": lambda lib, x: lib.searchsorted(lib.tensor([1., 2.]), x, out_int32=True,
                                                        out=lib.empty(0, dtype=lib.int64)),
    "fft_out": lambda lib, x: lib.fft.fft(x, out=lib.empty(0)),
    "fft2_out": lambda lib, x: lib.fft.fft2(x, out=lib.empty(0)),
    "irfft_out": lambda lib, x: lib.fft.irfft(x.to(lib.complex64),
                                              out=lib.empty(0, dtype=lib.complex64)),
    "fftfreq_out": lambda lib, x: lib.fft.fftfreq(4, out=lib.empty(0, dtype=lib.int64)),
    "mvlgamma_int": lambda lib, x: x.long().expand(2, 3, 4).mvlgamma_(1),
    "mvlgamma_p": lambda lib, x: x.long().mvlgamma_(0),
    "gcd_float": lambda lib, x: x.long().gcd_(x),
    "heaviside_dtypes": lambda lib, x: x.long().heaviside_(x),
    "ldexp_int": lambda lib, x: x.long().ldexp_(x.long()),
    "lerp_end": lambda lib, x: lib.lerp(x.half(), x, 0.5),
    "lerp_weight": lambda lib, x: lib.lerp(x.long(), x.long(), x.double()),
}


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_error_messages(name):
    import tensorviz
    seen = []
    for lib in (torch, tensorviz):
        x = lib.tensor([[0.5, 1.5, 2.0, 0.25], [3.0, 0.1, 0.7, 1.0], [0.2, 0.3, 0.4, 0.6]])
        with pytest.raises(Exception) as e:
            MESSAGES[name](lib, x)
        seen.append((type(e.value), str(e.value)))
    assert seen[1] == seen[0]


@pytest.mark.parametrize("dtype", ["int64", "bool", "float64"])
def test_bernoulli_out_any_dtype(tvdiff, dtype):
    # (PyTorch fills out= itself: out.resize_(input.shape).bernoulli_(input))
    p = tvdiff.make((3, 4), "float32", low=0, high=1)
    r = tvdiff.check(lambda lib, x: lib.bernoulli(x, out=lib.empty(5, dtype=getattr(lib, dtype)))
                     .shape, p)
    assert tuple(r) == (3, 4)
