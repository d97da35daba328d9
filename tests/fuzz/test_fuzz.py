"""The differential fuzzer in the test suite: a short fixed-seed run, and every program it once
found disagreeing (``regressions.py``) run again on PyTorch and tensorviz."""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import tensorviz  # noqa: E402

from .differential import Finding, _same_values, compare  # noqa: E402
from .known import KNOWN  # noqa: E402
from .regressions import REGRESSIONS  # noqa: E402
from .runner import Worker, format_findings, run  # noqa: E402

# The fixed seeds of the suite's short run (about 20 s on one core).
SEED, PROGRAMS = 20261124, 400
GATED = ("silent", "leak", "hang", "crash")



class _Fake:
    """tensorviz with some of its ops replaced (set them as attributes): what a wrong answer
    looks like to a comparison rule, which must still find it."""
    __name__ = "tensorviz"

    def __getattr__(self, name):
        return getattr(tensorviz, name)

def test_short_fixed_seed_run():
    report = run(PROGRAMS, SEED, timeout=20.0, do_shrink=False, progress=None)
    assert report.programs == PROGRAMS
    new = {key: ex for key, ex in report.examples.items()
           if key[0] in GATED and key not in KNOWN}
    assert not new, format_findings(report, GATED)


@pytest.mark.parametrize("name,lines", [r for r in REGRESSIONS if not r[0].endswith("-hang")],
                         ids=[r[0] for r in REGRESSIONS if not r[0].endswith("-hang")])
def test_regression_program(name, lines):
    assert compare(lines, torch, tensorviz) is None


@pytest.mark.parametrize("name,lines", [r for r in REGRESSIONS if r[0].endswith("-hang")],
                         ids=[r[0] for r in REGRESSIONS if r[0].endswith("-hang")])
def test_regression_program_returns(name, lines):
    """Programs that once never returned: run in a worker with a time limit."""
    w = Worker()
    try:
        assert w.recv(120) == {}
        w.send({"lines": lines, "ops": [""] * len(lines)})
        res = w.recv(30.0)
    finally:
        w.kill()
    assert res not in ("hang", "crash"), res
    assert res["finding"] is None, res["finding"]


def test_compare_finds_each_kind():
    """The comparison itself: a wrong value, an aliasing change, and a leaked error."""
    fake = _Fake()  # (tensorviz with ops made wrong below)
    fake.neg = lambda t: t  # wrong values
    f = compare(["v0 = T.tensor([1., 2.])", "v1 = T.neg(v0)"], torch, fake)
    assert isinstance(f, Finding) and f.kind == "silent" and "values" in f.detail
    fake.neg = lambda t: t.view(t.shape)  # right shape/values but aliases its input
    f = compare(["v0 = T.tensor([0., 0.])", "v1 = T.neg(v0)"], torch, fake)
    assert f is not None and f.kind == "silent" and "sharing" in f.detail

    def leak(t, *args):
        return {}[t]
    fake.neg = leak
    f = compare(["v0 = T.tensor([1., 2.])", "v1 = T.neg(v0, 3)"], torch, fake)
    assert f is not None and f.kind == "leak"


def test_tie_indices_are_checked_not_ignored():
    """The comparison accepts other indices among equal values only when they pick the
    returned values out of the input (kept and reduced dims alike)."""
    import numpy as np

    from .differential import _valid_tie_indices
    x = np.array([[2, 5, 2, 0], [1, 1, 3, 3]])
    vals = np.array([[5, 2], [3, 3]])
    assert _valid_tie_indices(x, vals, np.array([[1, 0], [3, 2]]))
    assert _valid_tie_indices(x, vals, np.array([[1, 2], [2, 3]]))
    assert not _valid_tie_indices(x, vals, np.array([[1, 3], [2, 3]]))
    assert _valid_tie_indices(x, np.array([2, 1]), np.array([2, 0]))      # reduced dim
    assert not _valid_tie_indices(x, np.array([2, 1]), np.array([1, 0]))


def test_tie_indices_over_an_input_an_ulp_apart_are_checked_on_tensorvizs_own_values():
    """Where the input differs by an ulp (float32 i0(0): 0.99999994 in PyTorch, 1 in
    tensorviz) each side's ties are its own: tensorviz's kthvalue indices are accepted when
    they pick its values out of its input, and a wrong index is still found."""
    lines = ["v0 = T.tensor([[0, 0, 3], [1, 0, 0], [3, -3, 4], [2, -5, 5]], dtype=T.int32)",
             "v1 = T.i0(v0)", "v2 = T.kthvalue(v1, 1, 0)"]
    assert compare(lines, torch, tensorviz) is None

    def last(x, k, dim=-1, keepdim=False):  # the right values, a wrong index in column 2
        r = tensorviz.kthvalue(x, k, dim, keepdim)
        r.indices[2] = 3
        return r
    f = compare(lines, torch, _wrong(kthvalue=last))
    assert f is not None and f.kind == "silent" and f.line == 2 and "v2.[1]" in f.detail, f


def test_factorizations_are_checked_not_ignored():
    """Other QR/SVD factors than PyTorch's are accepted only when they are a factorization of
    the input: orthonormal columns that reproduce it."""
    import numpy as np

    from .differential import _valid_factors
    a = np.array([[1., 2.], [2., 4.], [0., 1.]])
    q, r = np.linalg.qr(a)
    assert _valid_factors("qr", "v1 = T.linalg.qr(v0)", a, [q, r], "float64")
    assert not _valid_factors("qr", "v1 = T.linalg.qr(v0)", a, [q, 2 * r], "float64")
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    assert _valid_factors("svd", "v1 = T.linalg.svd(v0)", a, [u, s, vh], "float64")
    assert _valid_factors("svd", "v1 = v0.svd()", a, [u, s, vh.T], "float64")
    assert not _valid_factors("svd", "v1 = v0.svd()", a, [u, s, vh], "float64")
    assert not _valid_factors("svd", "v1 = T.linalg.svd(v0)", a, [u, s[::-1], vh], "float64")


def test_factorizations_are_judged_matrix_by_matrix():
    """In a batch, each matrix's factors are accepted on their own; a matrix holding an
    infinity has its non-finite factor entries left uncompared, its finite ones compared."""
    import numpy as np

    from .differential import _valid_factor_mask, deliberate
    a = np.array([[[1., 2.], [2., 4.]], [[np.inf, 1.], [0., 1.]], [[3., 0.], [0., 1.]]])
    q, r = np.linalg.qr(np.where(np.isfinite(a), a, 0))
    mask = _valid_factor_mask("qr", "v1 = T.linalg.qr(v0)", a, [q, r], "float64")
    assert mask.tolist() == [True, False, True]
    line = "v1 = T.linalg.qr(v0)"

    def desc(vals):
        return ("tuple", [("tensor", {"dtype": "float64", "values": v.copy()}) for v in vals])
    q_nan, r_nan = q.copy(), r.copy()
    q_nan[1], r_nan[1] = np.nan, np.nan
    dt, dv = desc([-q, -r]), desc([q_nan, r_nan])        # (PyTorch's signs differ: valid)
    deliberate("linalg.qr", line, dt, dv, a)
    assert np.array_equal(dt[1][0][1]["values"], q_nan, equal_nan=True)
    q_off = q_nan.copy()
    q_off[0, 0, 0] += 1                                  # not a factorization: compared
    dt, dv = desc([q, r]), desc([q_off, r_nan])
    deliberate("linalg.qr", line, dt, dv, a)
    assert not np.array_equal(dt[1][0][1]["values"], q_off, equal_nan=True)
    r_fin = r.copy()
    r_fin[1] = 7.                                        # finite entries of the infinite one
    dt, dv = desc([q, r]), desc([q, r_fin])
    deliberate("linalg.qr", line, dt, dv, a)
    assert not np.array_equal(dt[1][1][1]["values"], r_fin)


def _wrong(**ops):
    """tensorviz with the given module functions replaced (a wrong op to be caught)."""
    fake = _Fake()  # (tensorviz with ops made wrong below)
    for name, fn in ops.items():
        setattr(fake, name, fn)
    return fake


def test_cov_that_zeroes_its_input_is_still_compared():
    """PyTorch's cov of one observation with one weights tensor zeroes its input: PyTorch's
    input gets its values back, and the result, the input and later statements are compared
    (a cov that zeroes its input or gives another result, a later wrong op: all found)."""
    lines = ["v0 = T.tensor([[2.0], [3.0]])", "v1 = v0[1:]", "v2 = T.cov(v0, fweights=T.tensor([2]))",
             "v3 = T.neg(v1)", "v4 = T.cov(v1.floor(), aweights=T.tensor([1.0]))"]
    assert compare(lines, torch, tensorviz) is None

    def zeroing(x, **kw):
        r = tensorviz.cov(x, **kw)
        x.zero_()
        return r
    for fake, line, what in ((_wrong(cov=zeroing), 2, "v0."),
                             (_wrong(cov=lambda x, **kw: tensorviz.ones(2, 2)), 2, "v2."),
                             (_wrong(neg=lambda t: t), 3, "v3.")):
        f = compare(lines, torch, fake)
        assert f is not None and f.kind == "silent" and f.line == line, f
        assert f.detail.startswith(what), f


def test_libm_function_of_integers_into_a_wide_out_is_compared_at_float32():
    """atan2 of integer tensors computes in float32 (the default dtype) whatever its out=:
    written into a float64 or complex128 out, it is compared at float32's tolerance (NumPy's
    float32 atan2 is an ulp from PyTorch's); a result off by more is still found."""
    lines = ["v0 = T.tensor([-2, 0, 7])", "v1 = T.tensor([3], dtype=T.uint8)",
             "v2 = T.zeros(3, dtype=T.complex128)", "v3 = T.arctan2(v0, v1, out=v2)",
             "v4 = T.zeros(3, dtype=T.float64)", "v5 = T.atan2(v0, v1, out=v4)"]
    assert compare(lines, torch, tensorviz) is None

    def off(a, b, out=None):
        r = tensorviz.atan2(a, b, out=out)
        out.mul_(1 + 1e-4)
        return out
    f = compare(lines, torch, _wrong(arctan2=off, atan2=off))
    assert f is not None and f.kind == "silent" and f.line == 3, f


def test_ordered_write_rule_needs_shared_memory_or_an_index_write():
    """A write is compared against PyTorch's result on copies of its operands only where its
    destination shares memory with what it reads, or it is an index write that may hit a
    position twice without accumulating; otherwise PyTorch's own result is compared."""
    from .differential import _ordered_write
    a, b = torch.ones(2, 2), torch.ones(2, 2)
    env = {"v0": a, "v1": a.t(), "v2": b, "v3": torch.tensor([0, 0]), "v4": a[:, ::2]}
    for line in ("v5 = v0.addmm_(v1, v2)", "v5 = v2.baddbmm_(v0, mat2=v2)", "v0 += v4",
                 "v5 = v0.sub_(v4)", "v5 = T.lerp_(v0, v4, 0.5)", "v0[v3] = v1",
                 "v5 = T.any(v0, out=v0)", "v5 = v4.sum(0, out=v0)",
                 "v5 = T.msort(v4, out=v0)",
                 "v5 = v2.put_(v3, v2[0])", "v5 = v2.index_put_((v3,), v2[0], False)",
                 "v2[v3, 0] = v2[1]", "v2[[0, 0]] = v0", "v5 = v2.scatter_(0, v3[None], v0)",
                 "v5 = v0.masked_scatter_(v0 > 0, v1)", "v5 = T.put(v2, v3, v0[0])",
                 "v5 = v2.index_copy(0, v3, v0)", "v5 = T.scatter(v2, 0, v3[None], v0)"):
        assert _ordered_write(line, env) is not None, line
    for line in ("v5 = v0.addmm_(v2, v2)", "v5 = v0.addmm(v0, v0)", "v0 += v2", "v5 = v0.neg_()",
                 "v5 = T.cos_(v0)", "v5 = T.add(v2, 1, out=v0)", "v0[0] = v2[1]", "v0[v3] = 1.0",
                 "v5 = v2.put_(v3, v0[0], True)", "v5 = T.put(v2, v3, v0[0], True)",
                 "v5 = v2.index_put_((v3,), v0[0], accumulate=True)",
                 "v5 = v2.index_put((v3,), v0[0], accumulate=True)",
                 "v5 = v2.scatter_(0, v3[None], v0, reduce='add')", "v5 = v0.index_add_(0, v3, v2)",
                 "v5 = T.scatter(v2, 0, v3[None], v0, reduce='add')",
                 "v5 = T.gather(v2, 0, v3[None])"):
        assert _ordered_write(line, env) is None, line
    dests, apart = _ordered_write("v5 = T.msort(v4, out=v0)", env)
    assert dests == ["v0"] and apart == "v5 = T.msort(_f4, out=v0)"
    assert _ordered_write("v2[v3, 0] = v2[1]", env)[1] == "v2[_f3, 0] = _f2[1]"
    assert _ordered_write("v5 = T.sort(v4, out=(v0, v3))", env) == (
        ["v0", "v3"], "v5 = T.sort(_f4, out=(v0, v3))")


def test_writes_through_shared_memory_are_compared_against_copies(monkeypatch):
    """Where PyTorch's result depends on its loop order over memory that its inputs share
    (or on which of two writes to one position comes last), PyTorch's destination is given
    what PyTorch computes on copies of the operands: tensorviz's values there, the rest of
    the statement and every later statement are still compared (a wrong op after them, an
    in-place op that reads what it overwrote, a scatter whose first write wins: all found)."""
    lines = ["v0 = T.tensor([[-3.0, -0.75], [0.0, 0.25], [2.0, 5.0]])", "v1 = v0[..., ::2]",
             "v2 = v0.sub_(v1)", "v3 = T.tensor([[3, 4], [3, 2]], dtype=T.uint8)",
             "v4 = v3[..., ::2]", "v3 += v4", "v5 = T.tensor([[False, True], [True, False]])",
             "v6 = T.any(v5, out=v5)", "v7 = T.tensor([[1, -4, 5, 0], [-4, 6, -4, -3]])",
             "v8 = T.msort(v7[..., ::2], out=v7[1])", "v9 = T.tensor([1, 0, 0, 2])",
             "v10 = T.tensor([[5, 7], [1, 2]]).t()", "v11 = T.zeros(3, dtype=T.int64)",
             "v12 = v11.put_(v9, v10)", "v13 = T.neg(v0)"]
    assert compare(lines, torch, tensorviz) is None
    f = compare(lines, torch, _wrong(neg=lambda t: t))
    assert f is not None and f.kind == "silent" and f.line == 14, f

    def reading_overwritten(self, other, *, alpha=1):  # column by column, reading self
        for j in range(self.shape[-1]):
            self[..., j] = self[..., j] - alpha * other[..., min(j, other.shape[-1] - 1)]
        return self
    monkeypatch.setattr(tensorviz.Tensor, "sub_", reading_overwritten)
    f = compare(lines, torch, tensorviz)
    assert f is not None and f.kind == "silent" and f.line == 2 and "v0." in f.detail, f
    monkeypatch.undo()

    def first_wins(self, index, source, accumulate=False):
        for i, s in reversed(list(zip(index.tolist(), source.reshape(-1).tolist()))):
            self.view(-1)[i] = s
        return self
    monkeypatch.setattr(tensorviz.Tensor, "put_", first_wins)
    f = compare(lines, torch, tensorviz)
    assert f is not None and f.kind == "silent" and f.line == 13 and "v11." in f.detail, f


def test_inplace_product_sharing_memory_is_compared_against_the_product_first(monkeypatch):
    """PyTorch's in-place products whose self is a factor read overwritten entries (complex
    addmm_, baddbmm_): PyTorch's self is given the product of copies of its operands, so
    tensorviz's result and every later statement are still compared; an in-place product
    that reads what it overwrote is found, and so is a later wrong op."""
    c = "[[complex(4.0, 0.0), complex(0.25, -2.0)], [complex(1.0, 1.0), complex(0.0, 0.0)]]"
    lines = [f"v0 = T.tensor({c})", "v1 = v0.t()", "v2 = v0.addmm_(v1, v0)", "v3 = T.neg(v1)",
             "v4 = T.tensor([[[1.0, 2.0], [3.0, 4.0]]])", "v5 = v4.baddbmm_(v4, v4)",
             "v6 = T.tensor([1.0, -2.0])", "v7 = v6.addmv_(T.ones(2, 2), v6)"]
    assert compare(lines, torch, tensorviz) is None
    f = compare(lines, torch, _wrong(neg=lambda t: t))
    assert f is not None and f.kind == "silent" and f.line == 3, f

    def overwriting(self, mat1, mat2, *, beta=1, alpha=1):  # row by row, reading self
        for i in range(self.shape[0]):
            self[i] = beta * self[i] + alpha * (mat1[i] @ mat2)
        return self
    monkeypatch.setattr(tensorviz.Tensor, "addmm_", overwriting)
    f = compare(lines, torch, tensorviz)
    assert f is not None and f.kind == "silent" and f.line == 2 and "v0." in f.detail, f


def test_pinverse_rule_keeps_finite_matrices_compared():
    """Only the NaN entries tensorviz gives for a matrix holding an infinity are accepted."""
    import numpy as np

    from .differential import deliberate
    x = np.array([[[np.inf, 1.], [2., 3.]], [[1., 2.], [3., 4.]]])

    def desc(v):
        return ("tensor", {"values": v.copy()})
    dt, dv = desc(np.zeros((2, 2, 2))), desc(np.full((2, 2, 2), np.nan))
    deliberate("pinverse", "v1 = v0.pinverse()", dt, dv, x)
    assert np.isnan(dt[1]["values"][0]).all() and not np.isnan(dt[1]["values"][1]).any()


def test_widening_conversions_compare_at_the_source_tolerance():
    """double()/tolist()/item() of a float32 tensor, and a float64 result computed from it,
    are compared at float32's tolerance (an ulp of NumPy's float32 tan is accepted), a wrong
    value still is not; complex32 compares at float16's tolerance."""
    fake = _Fake()  # (tensorviz with ops made wrong below)
    prog = ["v0 = T.tensor([3.0, -3.0])", "v1 = T.tan(v0)", "v2 = v1.double()",
            "v3 = v1.tolist()", "v4 = v1.sum(0)", "v5 = v4.item()",
            "v6 = T.tensor([0.5, 1.0], dtype=T.float64)", "v7 = v1 * v6"]
    for ulps, ok in ((1, True), (2000, False)):
        fake.tan = lambda t, k=ulps: tensorviz.from_numpy(
            np.nextafter(np.tan(t.numpy()), np.float32(np.inf) * np.ones(1, np.float32))
            if k == 1 else np.tan(t.numpy()) * np.float32(1 + 2000 * 2 ** -23))
        for n in (3, 4, 6, 8):
            f = compare(prog[:n], torch, fake)
            assert (f is None) == ok, (n, ulps, f)
    half = ["v0 = T.tensor([-1.333, 0.5, 3.0], dtype=T.float16)", "v1 = T.sub(v0, T.tensor(1+0.5j))"]
    assert compare(half, torch, tensorviz) is None
    f = compare(half, torch, _wrong(sub=lambda a, b: tensorviz.sub(a, b) * 1.01))  # 1% off
    assert f is not None and f.kind == "silent" and f.line == 1, f
    # complex32 parts past float16's range are infinities in both libraries; a finite part
    # where PyTorch's is infinite is a finding
    big = ["v0 = T.tensor(complex(1.152921504606847e+18, 1.0), dtype=T.complex64)",
           "v1 = T.tensor([-2.5, 3.0], dtype=T.float16)", "v2 = T.add(v0, v1)"]
    assert compare(big, torch, tensorviz) is None
    f = compare(big, torch, _wrong(add=lambda a, b: tensorviz.add(a, b) * 1e-20))
    assert f is not None and f.kind == "silent" and f.line == 2, f


def test_widened_values_are_adopted_for_what_follows(monkeypatch):
    """A widened float32 value accepted at float32's tolerance is PyTorch's no more: views and
    float64 ops of it (and tensors built from tolist()/item()) compare their own work, not
    the conversion's ulp again (``cdouble()`` then ``[None]`` was a finding); a later wrong op
    is still found, and the rule is load-bearing."""
    from . import differential
    lines = ["v0 = T.tensor([2147483647, -1])", "v2 = T.real(v0)", "v3 = T.exp(v2)",
             "v4 = v3.cdouble()", "v5 = v4[None]", "v6 = T.neg(v4)", "v7 = v3.tolist()",
             "v8 = T.tensor(v7, dtype=T.float64)", "v9 = v3[1:].sum(0)", "v10 = v9.item()",
             "v11 = T.tensor(v10, dtype=T.float64) + 0"]
    exact = np.exp(np.float32(-1)) == np.float32(torch.exp(torch.tensor(-1.0)).item())
    assert compare(lines, torch, tensorviz) is None
    f = compare(lines, torch, _wrong(neg=lambda t: t))
    assert f is not None and f.kind == "silent" and f.line == 5, f
    monkeypatch.setattr(differential, "_adopt_widened", lambda *a: None)
    f = compare(lines, torch, tensorviz)
    assert exact or (f is not None and f.line == 4), f  # (where NumPy's exp(-1) is an ulp off)


def test_signbit_of_bfloat16_is_compared_where_not_nan():
    """signbit of a NaN is not compared (its sign is unspecified), every other bfloat16 entry
    is: a signbit wrong there is found, one that differs only at the NaN is not."""
    lines = ["v0 = T.tensor([0.25, -3.0, float('nan'), -0.0], dtype=T.bfloat16)",
             "v1 = T.signbit(v0)"]
    assert compare(lines, torch, tensorviz) is None

    def flipped(at_nan):
        def signbit(t):
            r = tensorviz.signbit(t)
            nan = tensorviz.isnan(t)
            return r ^ nan if at_nan else r ^ ~nan
        return signbit
    assert compare(lines, torch, _wrong(signbit=flipped(True))) is None
    f = compare(lines, torch, _wrong(signbit=flipped(False)))
    assert f is not None and f.kind == "silent" and f.line == 1, f


def test_complex_negation_is_compared_with_ieee_signs():
    """PyTorch's complex neg gives +0 or -0 parts by the element's position in its vector
    loop: its zero parts are set to IEEE -x's signs, so later branch cuts compare tensorviz's
    signs (a neg computed as 0 - x is found at the arccos after it), a wrong negation is
    found, and later statements are compared."""
    from .differential import _negates_complex_zero
    z = tensorviz.tensor([3 + 0j, 1 + 1j])
    assert _negates_complex_zero("v1 = -v0", {"v0": z})
    assert _negates_complex_zero("v1 = v0.negative_()", {"v0": z})
    assert _negates_complex_zero("v1 = T.neg(v0)", {"v0": z})
    assert not _negates_complex_zero("v1 = v0.neg()", {"v0": tensorviz.tensor([1 + 1j])})
    assert not _negates_complex_zero("v1 = v0.neg()", {"v0": tensorviz.tensor([0.0, 1.0])})
    assert not _negates_complex_zero("v1 = v0 - v0", {"v0": z})
    for dtype in ("complex64", "complex128"):  # (lengths with a vector part and a tail)
        for n in (3, 12, 21):
            lines = [f"v0 = T.tensor([complex(1.5, 0.0), complex(0.0, -2.0)] * {n}, dtype=T.{dtype})",
                     "v1 = T.neg(v0)", "v2 = v1.arccos()", "v3 = v1.log()", "v4 = v0.negative_()",
                     "v5 = T.sqrt(v0)", "v6 = -v4", "v7 = v6.asin()"]
            assert compare(lines, torch, tensorviz) is None
    f = compare(lines, torch, _wrong(neg=lambda t: 0 - t))  # +0 zero parts: acos tells
    assert f is not None and f.kind == "silent" and f.line == 2, f
    f = compare(lines, torch, _wrong(neg=lambda t: t))
    assert f is not None and f.kind == "silent" and f.line == 1, f
    f = compare(lines, torch, _wrong(sqrt=lambda t: t))
    assert f is not None and f.kind == "silent" and f.line == 5, f


def test_determinant_rounding_noise_is_accepted_only_for_singular_matrices():
    """A determinant within the LU's rounding bound (singular to working precision) stands in
    either library; any other determinant is compared."""
    import numpy as np

    from .differential import deliberate
    x = np.array([[[4 - 2j, 4 - 2j], [1.5 + 1j, 1.5 + 1j]], [[1, 2], [3, 4j]]], dtype=np.complex64)

    def desc(v):
        return ("tensor", {"values": np.array(v, dtype=np.complex64)})
    dt, dv = desc([-34.5 + 2.7j, 2.4 + 2.8j]), desc([complex(-np.inf, np.nan), 2.4 + 2.8j])
    deliberate("logdet", "v1 = v0.logdet()", dt, dv, x)
    assert np.isneginf(dt[1]["values"][0].real)
    dt, dv = desc([-34.5 + 2.7j, 2.4 + 2.8j]), desc([-34.5 + 2.7j, 1.0 + 2.8j])
    deliberate("logdet", "v1 = v0.logdet()", dt, dv, x)
    assert dt[1]["values"][1] == np.complex64(2.4 + 2.8j)


def test_pinverse_of_deficient_rank_is_not_compared_but_full_rank_is():
    """PyTorch's float32 pinverse (rcond=1e-15) inverts the rounding noise of a rank-1
    matrix's second singular value; that matrix is left uncompared, a full-rank one is not."""
    import numpy as np

    from .differential import deliberate
    x = np.array([[[-2.5, -2.5], [-2.5, -2.5]], [[1., 2.], [3., 4.]]], dtype=np.float32)

    def desc(v):
        return ("tensor", {"values": np.array(v, dtype=np.float32)})
    pt = [[[2e7, -2e7], [-2e7, 2e7]], [[-2., 1.], [1.5, -0.5]]]
    tv = [[[-0.1, -0.1], [-0.1, -0.1]], [[-2., 1.], [1.5, -0.4]]]
    dt, dv = desc(pt), desc(tv)
    deliberate("pinverse", "v1 = v0.pinverse()", dt, dv, x)
    assert np.allclose(dt[1]["values"][0], -0.1) and dt[1]["values"][1, 1, 1] == np.float32(-0.5)
    dt, dv = desc(pt), desc(tv)
    deliberate("pinverse", "v1 = v0.pinverse(rcond=0.01)", dt, dv, x)
    assert dt[1]["values"][0, 0, 0] == np.float32(2e7)


def test_integer_steps_accept_one_apart_only_for_agreeing_inputs():
    """floor/byte of float inputs that agree within tolerance may be one apart (PyTorch's
    float32 i0(0) is 0.99999994): accepted there; an integer off by one from equal inputs,
    or off by two, is still found."""
    prog = ["v0 = T.tensor([6, 0, -1], dtype=T.int16)", "v1 = T.i0(v0)", "v2 = T.floor(v1)",
            "v3 = v1.byte()"]
    assert compare(prog, torch, tensorviz) is None

    fake = _Fake()  # (tensorviz with ops made wrong below)
    for wrong in (lambda t: tensorviz.floor(t) + 1, lambda t: tensorviz.floor(t) - 2):
        fake.floor = wrong
        f = compare(["v0 = T.tensor([2.5, 3.0])", "v2 = T.floor(v0)"], torch, fake)
        assert f is not None and f.kind == "silent"


def test_out_grown_past_its_storage_is_compared_in_full():
    """An out= grown past its storage grows it in place in both libraries, so the views
    taken before it are compared after it too; a resize that gave the out= a storage of its
    own (the views keep the old values) is found."""
    import warnings
    prog = ["v0 = T.tensor(-2.5, dtype=T.bfloat16)",
            "v1 = T.tensor([1.5, -2.5, 0.0, -0.75], dtype=T.float64)",
            "v2 = T.atleast_1d(v1, v0, v1)", "v3 = T.arctan(v1, out=v0)"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert compare(prog, torch, tensorviz) is None
        assert compare(["v0 = T.tensor([-3.0], dtype=T.bfloat16)", "v1 = v0.expand((2,))",
                        "v2 = T.log2(v1, out=v0)"], torch, tensorviz) is None

        fake = _Fake()  # (tensorviz with ops made wrong below)

        def detached_arctan(x, out):  # (resized onto a storage of its own)
            out.set_(tensorviz.empty(0, dtype=out.dtype))
            return tensorviz.arctan(x, out=out)
        fake.arctan = detached_arctan
        f = compare(prog, torch, fake)
        assert f is not None and f.kind == "silent", f
        fake.log2 = lambda x, out: tensorviz.log2(x + 1, out=out)
        f = compare(["v0 = T.tensor([2.0, 4.0])", "v1 = T.tensor([1.0, 8.0])", "v3 = v0[:1]",
                     "v2 = T.log2(v1, out=v0)"], torch, fake)
        assert f is not None and f.kind == "silent"


def test_polygamma_rule_accepts_only_what_polygamma_can_be():
    """Where PyTorch's polygamma is wrong (an order past 2**31 wraps; n! * zeta is inf * 0 =
    nan), tensorviz's value is still checked: its sign, and past 2**31 an infinity, a zero
    or NaN only where x is NaN or +inf."""
    from .differential import deliberate
    x = np.array([0.25, 2.0, 1e30, np.nan, np.inf, -2.5])

    def same(n, torch_vals, tv_vals):
        line = f"v1 = T.polygamma({n}, v0)"
        dt = ("tensor", {"dtype": "float64", "values": np.array(torch_vals)})
        dv = ("tensor", {"dtype": "float64", "values": np.array(tv_vals)})
        deliberate("polygamma", line, dt, dv, x)
        return _same_values(dt[1]["values"], dv[1]["values"], "float64")
    inf, nan = np.inf, np.nan
    wrapped = [-inf] * 6                                    # PyTorch's, n = 2**40
    assert same(2 ** 40, wrapped, [-inf, -inf, -0.0, nan, nan, -inf])
    assert not same(2 ** 40, wrapped, [-inf, -inf, 0.0, nan, nan, 5.0])      # finite
    assert not same(2 ** 40, wrapped, [inf, -inf, -0.0, nan, nan, -inf])     # sign
    assert not same(2 ** 40, wrapped, [-inf, nan, -0.0, nan, nan, -inf])     # NaN
    trigamma = [17.2, 0.64, 1e-30, nan, 0.0, 9.5]           # PyTorch's, n = 2**40 + 1
    assert same(2 ** 40 + 1, trigamma, [inf, inf, 0.0, nan, nan, inf])
    assert not same(2 ** 40 + 1, trigamma, [-inf, inf, 0.0, nan, nan, inf])
    inf_times_zero = [-inf, -inf, nan, nan, nan, -inf]      # PyTorch's, n = 200
    assert same(200, inf_times_zero, [-inf, -inf, -0.0, nan, nan, -inf])
    assert not same(200, inf_times_zero, [-inf, -inf, 0.0, nan, nan, -inf])  # sign
    assert not same(200, inf_times_zero, [-inf, -inf, -0.0, nan, 1.0, -inf])  # x = inf
    f = compare(["v0 = T.tensor([0.25, 1e30])", "v1 = T.polygamma(1099511627777, v0)"],
                torch, _wrong(polygamma=lambda n, t: tensorviz.polygamma(3, t)))
    assert f is not None and f.kind == "silent", f
    # in place: judged by its input as it was, self and result alike; what follows is
    # computed from the accepted values on both sides (and still compared)
    inplace = ["v0 = T.tensor([1.5, 1e30, -2.5])", "v1 = v0.polygamma_(1099511627777)",
               "v2 = v0.polygamma_(2)", "v3 = T.neg(v1)"]
    assert compare(inplace, torch, tensorviz) is None
    f = compare(inplace, torch, _wrong(neg=lambda t: t))
    assert f is not None and f.kind == "silent" and f.line == 3, f


def test_complex_values_are_compared_at_the_scale_of_their_modulus():
    """Rounding noise in one part beside a huge other part is accepted (it is below eps * |z|);
    a difference that is large against |z| is caught, in either part, and a small tensor
    element is not hidden by a large one in another tensor."""
    def same(a, b, dtype="complex128"):
        return _same_values(np.array(a, dtype=dtype), np.array(b, dtype=dtype), dtype)

    assert same([3.9e76 + 5e18j], [3.9e76 + 0j])          # cov's noise: 1e-58 of |z|
    assert not same([3.9e76 + 1e70j], [3.9e76 + 0j])      # 1e-7 of |z|: a real difference
    assert not same([1 + 0j], [1 + 1e-3j])
    assert not same([2.0 + 1j], [2.5 + 1j])
    assert same([1 + 1e-7j], [1 + 0j], "complex64")
    assert not same([1 + 1e-3j], [1 + 0j], "complex64")
    # real tensors keep their own rule
    assert not same([1.0], [1.5], "float64")


def test_pinverse_of_an_ill_conditioned_matrix_is_compared_within_cond_times_eps():
    """PyTorch's complex64 pinverse of an ill-conditioned kron (cond 2e5) is accepted within
    n * cond * eps of its largest entry; a well-conditioned matrix's 1e-3 error is still a
    finding, and so is an ill-conditioned one's error past the bound."""
    from .differential import deliberate
    ill = np.kron(np.array([[-1, .5], [.5, 65504]]), np.array([[-1, -1], [-3, 4.]])).astype(
        np.complex64)
    well = np.array([[2, 1], [1, 3]], dtype=np.complex64)
    for x, err, accepted in ((ill, 2e-3, True), (ill, 0.2, False), (well, 1e-3, False)):
        want = torch.linalg.pinv(torch.tensor(x, dtype=torch.complex128)).numpy()
        got = want * (1 + err)
        dt = ("tensor", {"values": want.astype(np.complex64), "dtype": "complex64"})
        dv = ("tensor", {"values": got.astype(np.complex64), "dtype": "complex64"})
        deliberate("pinverse", "v1 = v0.pinverse()", dt, dv, x)
        assert _same_values(dt[1]["values"], dv[1]["values"], "complex64") is accepted


def test_slogdet_complex_sign_is_accepted_only_with_modulus_one_where_pytorch_gives_nan():
    """PyTorch's complex slogdet sign of a subnormal det is NaN: tensorviz's unit sign is
    accepted there; a sign of another modulus, or one that differs from a finite PyTorch
    sign, is still a finding."""
    from .differential import _same, deliberate
    x = np.array([[[1e-310 + 0j]], [[2 + 0j]]])

    def desc(sign, logabs):
        layout = {"shape": (2,), "stride": (1,), "offset": 0, "lazy": (False, False)}
        return ("tuple", [("tensor", {"values": np.array(sign, dtype=np.complex128),
                                      "dtype": "complex128", **layout}),
                          ("tensor", {"values": np.array(logabs), "dtype": "float64",
                                      **layout})])
    logabs = [np.log(1e-310), np.log(2.0)]
    for tv_sign, accepted in (([1 + 0j, 1 + 0j], True), ([0.5 + 0j, 1 + 0j], False),
                              ([1 + 0j, -1 + 0j], False)):
        dt, dv = desc([complex("nan+nanj"), 1 + 0j], logabs), desc(tv_sign, logabs)
        deliberate("slogdet", "v1 = T.slogdet(v0)", dt, dv, x)
        assert (_same(dt, dv) is None) is accepted


def test_accepted_values_are_adopted_for_what_follows():
    """Where a rule accepts tensorviz's values and PyTorch's differ (the sign bit of a NaN,
    a pseudo-inverse's NaN entries, integers one apart), PyTorch's new tensor is given them:
    a view or a comparison of it compares its own computation (each was a finding), while a
    wrong op after it, or a wrong comparison of it, is still found."""
    big = ("v0 = T.tensor([[[1.5, 0.25, 1e+30], [0.0, -1.0, 3.0]], [[-float('inf'), 65504.0, "
           "-1.0], [0.25, -2.5, 0.5]]], dtype=T.float64)")
    lines = [big, "v1 = T.pinverse(v0, -128)", "v2 = T.greater_equal(v1, v1)",
             "v3 = T.xlogy(v0, v0)", "v4 = T.signbit(v3)", "v5 = v4[1, ::1]",
             "v6 = T.tensor([[-2.5, float('inf'), -3.0], [3.0, 0.0, 0.25]])",
             "v7 = v6.corrcoef()", "v8 = T.tensor(v7, dtype=T.int16)", "v9 = v8 * 3",
             "v10 = T.neg(v1)"]
    assert compare(lines, torch, tensorviz) is None
    f = compare(lines, torch, _wrong(neg=lambda t: t))
    assert f is not None and f.kind == "silent" and f.line == 10, f
    f = compare(lines, torch, _wrong(greater_equal=lambda a, b: tensorviz.greater_equal(a, b)
                                     .logical_not()))
    assert f is not None and f.kind == "silent" and f.line == 2, f
    f = compare(lines, torch, _wrong(signbit=lambda t: tensorviz.signbit(t).logical_not()))
    assert f is not None and f.kind == "silent" and f.line == 4, f


def test_median_along_a_stride_zero_dim_is_compared_against_a_contiguous_copy():
    """PyTorch's median/nanmedian along an expanded dim read memory past the tensor: its result
    is replaced by the same statement's on a contiguous copy, so tensorviz's median, its
    out= tensors and what follows are compared (a wrong median or a later wrong op: found)."""
    from .differential import _median_of_stride_zero
    lines = ["v0 = T.tensor([[4.0, 2.0, -1.0]], dtype=T.bfloat16)", "v1 = v0.expand((3, 3))",
             "v2 = T.zeros(1, 3, dtype=T.bfloat16)", "v3 = T.zeros(1, 3, dtype=T.int64)",
             "v4 = T.nanmedian(v1, 0, True, out=(v2, v3))", "v5 = v1.median(dim=T.tensor(0))",
             "v6 = T.median(v1, -1)", "v7 = T.neg(v2)"]
    assert compare(lines, torch, tensorviz) is None
    env = {"T": torch, "v1": torch.ones(3, 1).expand(3, 3), "v2": torch.ones(3, 3)}
    assert _median_of_stride_zero("v4 = T.median(v1, 1)", env) == "v1"
    assert _median_of_stride_zero("v4 = v1.nanmedian(dim=-1)", env) == "v1"
    assert _median_of_stride_zero("v4 = T.median(v1, 0)", env) is None  # (stride 1 there)
    assert _median_of_stride_zero("v4 = v1.median()", env) is None  # (all elements)
    assert _median_of_stride_zero("v4 = T.median(v2, 1)", env) is None

    def off(x, dim=None, keepdim=False, *, out=None):  # one more than the median
        r = tensorviz.median(x, dim, keepdim, out=out)
        r.values.add_(1)
        return r
    for fake, line, what in ((_wrong(nanmedian=off), 4, "v2."),
                             (_wrong(median=off), 6, "v6."),
                             (_wrong(neg=lambda t: t), 7, "v7.")):
        f = compare(lines, torch, fake)
        assert f is not None and f.kind == "silent" and f.line == line, f
        assert f.detail.startswith(what), f


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_polygamma_values_accepted_in_half_are_adopted_for_what_follows(dtype):
    """A half polygamma where PyTorch's value is NaN and tensorviz's -inf (n! * zeta: inf * 0)
    is accepted, and what follows (cummax) is computed from tensorviz's values on both sides;
    a wrong cummax is still found."""
    lines = [f"v1 = T.tensor([[1.0, -2.5, 1.5], [3.0, 65504.0, 0.5], [1.5, float('nan'), -0.75]], "
             f"dtype=T.{dtype})", "v4 = v1.polygamma(1000000)", "v6 = T.cummax(v4, -2)"]
    assert compare(lines, torch, tensorviz) is None
    def zeroed(x, dim):
        r = tensorviz.cummax(x, dim)
        r.values.zero_()
        return r
    f = compare(lines, torch, _wrong(cummax=zeroed))
    assert f is not None and f.kind == "silent" and f.line == 2, f


def test_sum_of_all_elements_is_compared_within_any_orders_error_bound():
    """A full sum or mean whose terms cancel (2**63 - 2**63 beside small integers) depends
    on the order PyTorch's vector lanes add in: tensorviz's is accepted within
    n * eps * sum(|x|), and a value past that bound is still found."""
    lines = ["v0 = T.tensor([[4, -6], [-5, -2], [-9223372036854775807, 6], "
             "[9223372036854775806, -2]], dtype=T.int64)", "v3 = T.mean(v0, dtype=T.complex128)",
             "v4 = T.sum(v0, dtype=T.float64)", "v5 = T.neg(v0)"]
    assert compare(lines, torch, tensorviz) is None
    f = compare(lines, torch, _wrong(mean=lambda x, dtype=None: tensorviz.mean(x, dtype=dtype)
                                     + 1e4))
    assert f is not None and f.kind == "silent" and f.line == 1, f
    f = compare(["v0 = T.tensor([1.0, 2.0, 3.0])", "v1 = T.sum(v0)"], torch,
                _wrong(sum=lambda x: tensorviz.sum(x) + 1e-3))
    assert f is not None and f.kind == "silent" and f.line == 1, f


def _ulps_up(fn, k):
    """``fn``'s float32 values moved ``k`` ulps up."""
    def op(t, *args, out=None, **kwargs):
        a = np.asarray(getattr(tensorviz, fn)(t, *args, **kwargs).numpy())
        for _ in range(k):
            a = np.nextafter(a, np.float32(np.inf))
        r = tensorviz.from_numpy(np.array(a))
        return r if out is None else out.copy_(r)
    return op


def test_libm_results_within_two_ulps_are_adopted_for_what_follows(monkeypatch):
    """A float function's result an ulp or two from PyTorch's (NumPy's libm against SLEEF's)
    is taken as PyTorch's value too, so ops that magnify an ulp (tan near pi/2, frac and
    floor of i0(0)) compare their own work; 3 ulps are not adopted (found where magnified),
    a wrong later op is still found, and the rule is load-bearing."""
    from . import differential
    lines = ["v0 = T.tensor([0.5, 1.0, 0.25, 1.0])", "v1 = T.asin(v0)", "v2 = T.tan(v1)",
             "v3 = v1.frac()", "v4 = T.tensor([0.0, 1.0, 2.0, 3.0], dtype=T.float64)",
             "v5 = T.asin(v0, out=v4)", "v6 = v4.tan()"]
    assert compare(lines, torch, tensorviz) is None
    for k in (1, 2):
        assert compare(lines, torch, _wrong(asin=_ulps_up("asin", k))) is None, k
    f = compare(lines, torch, _wrong(asin=_ulps_up("asin", 3)))
    assert f is not None and f.kind == "silent" and f.line == 2, f
    f = compare(lines, torch, _wrong(asin=_ulps_up("asin", 1), tan=_ulps_up("tan", 5000)))
    assert f is not None and f.kind == "silent" and f.line == 2, f
    monkeypatch.setattr(differential, "_adopt_ulps", lambda *a: None)
    f = compare(lines, torch, _wrong(asin=_ulps_up("asin", 1)))
    assert f is not None and f.line == 2, f


def test_within_ulps_measures_in_the_precision_computed_in():
    from .differential import _within_ulps
    one = np.float32(1.0)
    up = [one]
    for _ in range(3):
        up.append(np.nextafter(up[-1], np.float32(2)))
    a = np.array([one] * 4, np.float32)
    assert list(_within_ulps(a, np.array(up, np.float32), "float32")) == [True] * 3 + [False]
    assert not _within_ulps(np.array([1.0]), np.array([1.0 + 2 ** -20]), "float64").any()
    assert _within_ulps(np.array([1.0]), np.array([1.0 + 2 ** -23]), "float32").all()
    z = np.array([100 + 0j], np.complex64)  # (parts in ulps of |z|)
    assert _within_ulps(z, z + np.complex64(1e-5j), "complex64").all()
    assert not _within_ulps(z, z + np.complex64(1e-3j), "complex64").any()
    assert not _within_ulps(np.array([np.inf]), np.array([np.inf]), "float32").any()


def test_fmod_nan_of_an_overflowing_quotient_is_set_to_c_fmod():
    """PyTorch's vector loop (SLEEF's fmod) gives NaN where |x / y| overflows; its scalar loop
    and tensorviz give C's exact fmod. PyTorch's NaN there becomes C's fmod (fmod, remainder,
    %, in place, scalar divisors), so a wrong value is still found, and a NaN of a zero
    divisor or an infinite dividend stays compared."""
    lines = ["v0 = T.tensor([1e30, 3e38, -1e30, 5.0, float('inf'), 2.0] * 3)",
             "v1 = T.tensor([1e-30, -1e-38, 1e-30, 3.0, 1.0, 0.0] * 3)", "v2 = T.fmod(v0, v1)",
             "v3 = T.remainder(v0, v1)", "v4 = v0 % v1", "v5 = v0.fmod(1e-30)",
             "v6 = v0.double().fmod(v1.double() * 1e-300)", "v0 %= v1"]
    assert compare(lines, torch, tensorviz) is None
    f = compare(lines, torch, _wrong(fmod=lambda a, b, **k: tensorviz.fmod(a, b, **k) + 1))
    assert f is not None and f.kind == "silent" and f.line == 2, f
    nan_too = lambda a, b, **k: tensorviz.where(tensorviz.isnan(torch_like_fmod(a, b)),  # noqa: E731
                                                 float("nan"), tensorviz.fmod(a, b))
    f = compare(lines, torch, _wrong(fmod=nan_too))
    assert f is not None and f.kind == "silent" and f.line == 2, f
    f = compare(lines[:2] + ["v2 = T.fmod(v0, v1)"], torch,
                _wrong(fmod=lambda a, b, **k: tensorviz.nan_to_num(tensorviz.fmod(a, b))))
    assert f is not None and f.kind == "silent" and f.line == 2, f  # (x % 0 and inf % 1)


def torch_like_fmod(a, b):
    """NaN where |a / b| overflows float32 (what SLEEF's fmod gives there)."""
    with np.errstate(all="ignore"):
        q = np.abs(a.numpy().astype(np.float64) / np.broadcast_to(np.float64(
            b.numpy() if hasattr(b, "numpy") else b), a.shape))
    return tensorviz.from_numpy(np.where(q > np.finfo(np.float32).max, np.nan, 0.0))


def test_complex_infinities_of_one_class_are_adopted_for_what_follows(monkeypatch):
    """PyTorch's (0.5-2j) - (-inf) is inf+nan j, tensorviz's inf-2j: one infinity (C99), so
    PyTorch's value takes tensorviz's representative and 1 / it is 0 on both sides; a wrong
    reciprocal is still found, and the rule is load-bearing."""
    from . import differential
    lines = ["v0 = T.tensor([[complex(0.5, -2.0), complex(-0.75, -2.0)]])",
             "v3 = v0.sub_(-float('inf'))", "v4 = T.reciprocal(v0)", "v5 = v0.reciprocal_()",
             "v6 = v0 + 1"]
    assert compare(lines, torch, tensorviz) is None
    f = compare(lines, torch, _wrong(reciprocal=lambda t: tensorviz.full_like(t, float("nan"))))
    assert f is not None and f.kind == "silent" and f.line == 2, f
    monkeypatch.setattr(differential, "_adopt_classes", lambda *a: None)
    f = compare(lines, torch, tensorviz)
    assert f is not None and f.kind == "silent" and f.line == 2, f


def test_complex_quotients_an_ulp_apart_are_adopted_real_ones_never(monkeypatch):
    """PyTorch's complex z / z is 1 + an ulp by its vector loop's scaled formula, NumPy's
    exactly 1: adopted (acos of it magnifies the ulp to 4e-9); a real quotient is IEEE's in
    both, so an ulp off there is never adopted (found where acos magnifies it)."""
    from . import differential
    lines = ["v0 = T.tensor([complex(1.5, -2.0)] * 9, dtype=T.complex128)", "v1 = T.log(v0)",
             "v2 = v1 / v1", "v3 = T.arccos(v2)"]
    assert compare(lines, torch, tensorviz) is None
    z = torch.log(torch.tensor([complex(1.5, -2.0)] * 9, dtype=torch.complex128))
    exact = bool(((z / z) == 1).all())
    monkeypatch.setattr(differential, "_adopt_ulps", lambda *a: None)
    f = compare(lines, torch, tensorviz)
    assert exact or (f is not None and f.line == 3), f
    monkeypatch.undo()
    real = ["v0 = T.tensor([3.0, 0.5])", "v1 = v0 / v0", "v2 = T.arccos(v1)"]
    assert compare(real, torch, tensorviz) is None

    real[1] = "v1 = T.div(v0, v0)"
    fake = _wrong(div=lambda a, b: tensorviz.from_numpy(np.nextafter(
        (a / b).numpy(), np.float32(2)).astype(np.float32)))
    f = compare(real, torch, fake)
    assert f is not None and f.kind == "silent" and f.line == 2, f


def test_linalg_rules_for_non_finite_matrices_and_branch_cut_sides():
    """logdet of a negative real complex determinant: +pi j or -pi j (the zero imaginary
    part's sign is the LU's rounding), accepted, nothing else; a solve or inverse of a
    matrix holding an infinity: PyTorch's NaN accepts tensorviz's values, finite matrices
    still compared; a complex product's entry non-finite on both sides is accepted, a
    finite one against NaN is not."""
    logdet = ["v0 = T.tensor([[[complex(-1.0, 0.0), complex(1.0, 0.5)], [complex(0.0, 0.0), complex(0.25, 0.0)]], "
              "[[complex(1.5, 0.0), complex(0.5, 0.0)], [complex(1.5, 0.0), complex(4.0, -2.0)]]], dtype=T.complex128)",
              "v1 = v0.conj()", "v2 = T.logdet(v1)", "v3 = T.logdet(v0)"]
    assert compare(logdet, torch, tensorviz) is None
    f = compare(logdet, torch, _wrong(logdet=lambda t: tensorviz.linalg.slogdet(t)[1].to(
        tensorviz.complex128) + 3.14159j))  # (a phase of pi everywhere: the second is wrong)
    assert f is not None and f.kind == "silent" and f.line == 2, f
    f = compare(logdet, torch, _wrong(logdet=lambda t: tensorviz.logdet(t) * 1.01))
    assert f is not None and f.kind == "silent" and f.line == 2, f
    solve = ["v0 = T.tensor([[complex(-3.0, 0.5), complex(4.0, 4.0), complex(3.0, 0.0)], [complex(0.0, 0.0), complex(4.0, 0.0), complex(1.5, 0.0)], "
             "[complex(4.0, 0.5), complex(-2.5, 0.5), complex(-float('inf'), 1.0)]], dtype=T.complex64)",
             "v1 = v0.conj()", "v2 = v0.triangular_solve(v1, True)", "v3 = T.tensor([[2.0, 1.0], [1.0, 3.0]])",
             "v4 = T.inverse(v3)", "v5 = T.tensor([[float('inf'), 1.0], [0.0, 2.0]])", "v6 = T.inverse(v5)"]
    assert compare(solve, torch, tensorviz) is None
    f = compare(solve, torch, _wrong(inverse=lambda t: tensorviz.inverse(t) + 1))
    assert f is not None and f.kind == "silent" and f.line == 4, f
    prod = ["v0 = T.tensor([[complex(4.0, -2.0), complex(float('inf'), 0.0), complex(-0.75, 1.0)], [complex(0.0, 0.0), complex(-2.5, 1.0), complex(0.5, 0.0)], "
            "[complex(-2.5, 0.0), complex(0.25, 0.5), complex(-0.75, 0.0)]], dtype=T.complex64)",
            "v1 = T.matrix_power(v0, 2)", "v2 = v0 @ v0", "v3 = T.matmul(v0, v0)"]
    assert compare(prod, torch, tensorviz) is None
    f = compare(prod, torch, _wrong(matmul=lambda a, b: tensorviz.where(
        tensorviz.isfinite(a @ b), float("nan"), a @ b)))  # (finite entries made NaN)
    assert f is not None and f.kind == "silent" and f.line == 3, f


def test_integer_sums_of_inputs_an_ulp_apart_accept_one_per_such_term():
    """nansum(dtype=int64) of float32 i0(0) (0.99999994 in PyTorch, 1 in tensorviz): each
    of the k terms an ulp apart whose truncations differ may convert one apart, so the sums
    may differ by k (2 here), and no more (a sum off by more, or of inputs that agree bit
    for bit, is still found)."""
    lines = ["v0 = T.tensor([[True], [False]])", "v1 = v0.expand((2, 2))", "v2 = v1.i0()",
             "v3 = T.nansum(v2, 0, dtype=T.int64)", "v4 = T.sum(v2, dtype=T.int64)"]
    assert compare(lines, torch, tensorviz) is None
    f = compare(lines, torch, _wrong(nansum=lambda x, dim, dtype: tensorviz.nansum(
        x, dim, dtype=dtype) + 2))
    assert f is not None and f.kind == "silent" and f.line == 3, f
    f = compare(["v0 = T.tensor([0.5, 1.5])", "v1 = T.nansum(v0, dtype=T.int64)"], torch,
                _wrong(nansum=lambda x, dtype: tensorviz.nansum(x, dtype=dtype) + 1))
    assert f is not None and f.kind == "silent" and f.line == 1, f


def test_inplace_rule_reaches_a_view_of_the_same_elements(monkeypatch):
    """An in-place op's deliberate difference (sgn_ of a subnormal: PyTorch's inf+nan j) is
    accepted in a conj() view's base too; a wrong value there is still a finding."""
    prog = ["v2 = T.tensor([complex(-0.75, -2.0), complex(1e-310, 0.0)], dtype=T.complex128)",
            "v3 = v2.conj()", "v6 = v3.sgn_()"]
    assert compare(prog, torch, tensorviz) is None
    right = tensorviz.Tensor.sgn_

    def wrong(self):  # its finite element off by 1%
        right(self)
        self[0] = self[0] * 1.01
        return self
    monkeypatch.setattr(tensorviz.Tensor, "sgn_", wrong)
    f = compare(prog, torch, tensorviz)
    assert f is not None and f.kind == "silent" and f.line == 2, f


def test_complex128_acos_zero_signs_follow_c99():
    """PyTorch's complex128 acos(x + 0j) is acos(x) + 0j (C99: - 0j): its zero parts are set
    to C99's signs, so a later branch cut compares tensorviz's sign; an acos that gives
    PyTorch's +0j (the wrong side of acos(1.047 +- 0j) = -+0.306j) is still a finding."""
    prog = ["v0 = T.tensor([complex(0.5, 0.0), complex(0.25, -0.0), complex(1.5, 0.0)], "
            "dtype=T.complex128)", "v2 = T.acos(v0)", "v3 = T.acos(v2)",
            "v4 = T.tensor(complex(0.5, 0.0), dtype=T.complex128)", "v5 = T.arccos_(v4)",
            "v6 = v4.arccos()"]
    assert compare(prog, torch, tensorviz) is None

    def plus_zero_acos(x, **kw):
        r = tensorviz.acos(x, **kw).numpy().copy()
        r.imag = np.where(r.imag == 0, 0.0, r.imag)
        return tensorviz.from_numpy(r)
    f = compare(prog[:3], torch, _wrong(acos=plus_zero_acos))
    assert f is not None and f.kind == "silent" and f.line == 2, f


def test_generated_numbers_are_read_as_numbers():
    """Rules that read a call's number (pinverse's rcond) read the generator's spellings,
    and nothing else."""
    from tests.fuzz.differential import _number
    assert _number("-float('inf')") == float("-inf") and _number("1e-15") == 1e-15
    assert _number("float('nan')") != _number("float('nan')")  # (NaN)
    assert _number("v1") is None and _number("__import__('os')") is None
    assert _number("True") is None and _number("2 +") is None


def test_cov_cancellation_noise_is_accepted_within_the_product_bound_only():
    """cov's entries that cancel carry BLAS's rounding error, up to about n * eps times the
    deviations' absolute products: PyTorch's 5e30 and tensorviz's -1.3e30 (exact 0) beside a
    3.4e38 entry are both accepted; an entry farther off than that bound is still found."""
    import numpy as np

    from .differential import deliberate
    x = np.array([[3.4e38, 2.0, 0.0, 3.0], [0.5, 0.25, 2.0, -0.75]], dtype=np.float32)
    line = "v1 = T.cov(v0, correction=2)"

    def desc(v):
        return ("tensor", {"dtype": "float32", "values": np.array(v, dtype=np.float32)})
    dt = desc([[np.inf, 5.0706024e30], [5.0706024e30, 1.9375]])
    dv = desc([[np.inf, -1.2676506e30], [-1.2676506e30, 1.9375]])
    deliberate("cov", line, dt, dv, x)
    assert np.array_equal(dt[1]["values"], dv[1]["values"])
    for wrong in ([[np.inf, 1e34], [1e34, 1.9375]], [[np.inf, 5.0706024e30], [5.0706024e30, 2.5]]):
        dt = desc([[np.inf, 5.0706024e30], [5.0706024e30, 1.9375]])
        deliberate("cov", line, dt, desc(wrong), x)
        assert not np.array_equal(dt[1]["values"], np.array(wrong, dtype=np.float32))


def test_bit_view_of_nan_accepts_other_nan_bits(monkeypatch):
    """A bit view (view(dtype)) of floating values accepts another NaN's bits (their sign and
    payload are unspecified: PyTorch's own loops differ), and what is computed from it later
    compares its own work; any other bit that differs is found, and the rule is load-bearing."""
    from . import differential
    lines = ["v0 = T.tensor([[-2.5, 0.25, 1.0, 4.0]], dtype=T.bfloat16)", "v1 = T.rsqrt(v0)",
             "v2 = v1.view(T.int16)", "v3 = v2 + 1", "v4 = v1[:, :2].view(T.float16)"]
    assert compare(lines, torch, tensorviz) is None
    view = tensorviz.Tensor.view

    def off_by_one(self, *a, **k):
        r = view(self, *a, **k)
        return r + 1 if r.dtype == tensorviz.int16 else r
    monkeypatch.setattr(tensorviz.Tensor, "view", off_by_one)
    f = compare(lines, torch, tensorviz)
    assert f is not None and f.kind == "silent" and f.line == 2, f
    monkeypatch.setattr(tensorviz.Tensor, "view", view)
    bits_t = torch.tensor([-2.5], dtype=torch.bfloat16).rsqrt().view(torch.int16).item()
    bits_v = tensorviz.tensor([-2.5], dtype=tensorviz.bfloat16).rsqrt().view(tensorviz.int16).item()
    monkeypatch.setattr(differential, "_nan_bits_accepted", lambda a, b, source: a["values"])
    f = compare(lines, torch, tensorviz)
    assert bits_t == bits_v or (f is not None and f.line == 2), f


def test_nan_written_in_place_through_a_view_accepts_other_nan_bits(monkeypatch):
    """An in-place op writing NaN through a floating view of other memory (a bfloat16 view
    of int64): the base reads tensorviz's NaN bits on both sides (unspecified bits); a
    non-NaN element written wrong is still found, and the rule is load-bearing."""
    from . import differential
    lines = ["v0 = T.tensor([[-3], [0]], dtype=T.int64)", "v1 = v0.view(T.bfloat16)",
             "v2 = v1.rsqrt_()", "v3 = v0 + 1"]
    assert compare(lines, torch, tensorviz) is None
    rsqrt_ = tensorviz.Tensor.rsqrt_

    def wrong(self):
        r = rsqrt_(self)
        self.view(tensorviz.int16)[-1, -1] = 5  # (an element 0 read as bfloat16: inf there)
        return r
    monkeypatch.setattr(tensorviz.Tensor, "rsqrt_", wrong)
    f = compare(lines, torch, tensorviz)
    assert f is not None and f.kind == "silent" and f.line == 2, f
    monkeypatch.setattr(tensorviz.Tensor, "rsqrt_", rsqrt_)
    bits_t = torch.tensor([[-3]]).view(torch.bfloat16).rsqrt_().view(torch.int16).tolist()
    bits_v = tensorviz.tensor([[-3]]).view(tensorviz.bfloat16).rsqrt_().view(
        tensorviz.int16).tolist()
    monkeypatch.setattr(differential, "_adopt_nan_bits", lambda t, v, torch: None)
    f = compare(lines, torch, tensorviz)
    assert bits_t == bits_v or (f is not None and f.line == 2), f


def test_sgn_of_a_subnormal_modulus_accepts_the_unit_value_through_views(monkeypatch):
    """PyTorch's scalar loop gives sgn(1e-310+0j) as z * (1/|z|) = inf+nan j; tensorviz's
    1+0j is accepted there, also in the base an in-place sgn_ writes through (the in-place
    op's accepted values are adopted before its base is compared); a wrong value of any
    other element is still found."""
    from . import differential
    lines = ["v0 = T.tensor([[complex(1e-310, 0.0), complex(4.0, -2.0)], "
             "[complex(2.0, 1.0), complex(-1.0, 0.5)]], dtype=T.complex128)",
             "v1 = v0[..., ::2]", "v2 = v1.sgn_()", "v3 = v0 * 2"]
    assert compare(lines, torch, tensorviz) is None
    sgn_ = tensorviz.Tensor.sgn_

    def wrong(self):
        sgn_(self)
        self[-1] = self[-1] * 2
        return self
    monkeypatch.setattr(tensorviz.Tensor, "sgn_", wrong)
    f = compare(lines, torch, tensorviz)
    assert f is not None and f.kind == "silent" and f.line == 2, f
    monkeypatch.setattr(tensorviz.Tensor, "sgn_", sgn_)
    monkeypatch.setattr(differential, "_adopt_accepted", lambda *a, **k: False)
    f = compare(lines, torch, tensorviz)
    assert f is not None and f.line == 2 and f.detail.startswith("v0."), f


def test_copysign_from_a_nan_accepts_either_sign_only_there():
    """copysign copies the sign bit of a NaN, which IEEE 754 leaves unspecified (PyTorch's
    sqrt of a negative is +NaN, NumPy's -NaN): the magnitude is compared there, either sign
    taken; a wrong magnitude, or a wrong sign from a number, is still found."""
    lines = ["v0 = T.tensor([[6, -3, -6, 0, 3, 126]], dtype=T.int8)", "v2 = T.sqrt(v0)",
             "v3 = v0.copysign(v2)", "v4 = T.copysign(v0.float(), -v2)"]
    assert compare(lines, torch, tensorviz) is None
    for wrong in (lambda a, b: tensorviz.copysign(a, b) * 2,
                  lambda a, b: tensorviz.copysign(a, b.abs())):
        f = compare(lines, torch, _wrong(copysign=wrong))
        assert f is not None and f.kind == "silent" and f.line == 3, f


def test_inplace_complex32_value_of_one_class_is_adopted_before_its_views(monkeypatch):
    """complex32 ``z.t().sub_(w)`` where PyTorch's ``a + (-1) * b`` gives inf+nan j and
    tensorviz C99's inf+2j (one class): PyTorch's storage takes tensorviz's value before
    the imaginary-part view of the base is compared; a wrong finite value is found."""
    from . import differential
    lines = ["v0 = T.tensor([[complex(3.0, 0.0), complex(0.0, 1.0)], [complex(1.0, 0.0), "
             "complex(0.0, 0.0)]], dtype=T.complex32)", "v1 = v0.t()", "v2 = v0.imag",
             "v3 = T.tensor([[complex(1e+30, -2.0), complex(1.0, 0.0)], [complex(1.0, 0.0), "
             "complex(1.0, 0.0)]], dtype=T.complex32)", "v5 = v1.sub_(v3)"]
    assert compare(lines, torch, tensorviz) is None
    sub_ = tensorviz.Tensor.sub_

    def wrong(self, other, **kw):
        sub_(self, other, **kw)
        self[1, 1] = 7
        return self
    monkeypatch.setattr(tensorviz.Tensor, "sub_", wrong)
    f = compare(lines, torch, tensorviz)
    assert f is not None and f.kind == "silent" and f.line == 4, f
    monkeypatch.setattr(tensorviz.Tensor, "sub_", sub_)
    monkeypatch.setattr(differential, "_adopt_classes", lambda *a: False)
    f = compare(lines, torch, tensorviz)
    assert f is not None and f.line == 4 and f.detail.startswith("v2."), f


def test_cholesky_solve_of_a_non_finite_system_accepts_nan_either_way_only_there():
    """cholesky_solve of a batch holding an infinity: MKL's substitutions and tensorviz's
    spread NaN to different entries, so NaN on either side is accepted in that batch; a
    wrong value in a finite batch, or a finite entry made wrong, is still found."""
    lines = ["v0 = T.tensor([[[2.0, 0.0], [1.0, 3.0]], [[float('inf'), 0.0], [1.0, 2.0]]], "
             "dtype=T.float64)", "v1 = T.tensor([[[1.0], [2.0]], [[1.0], [2.0]]], "
             "dtype=T.float64)", "v2 = T.cholesky_solve(v1, v0)"]
    assert compare(lines, torch, tensorviz) is None

    def all_nan(b, a, upper=False):
        r = tensorviz.cholesky_solve(b, a, upper)
        r[1] = float("nan")
        return r

    def wrong(b, a, upper=False):
        r = tensorviz.cholesky_solve(b, a, upper)
        r[0] = r[0] + 1
        return r
    assert compare(lines, torch, _wrong(cholesky_solve=all_nan)) is None
    f = compare(lines, torch, _wrong(cholesky_solve=wrong))
    assert f is not None and f.kind == "silent" and f.line == 2, f


def test_logspace_and_16_bit_mean_rules_accept_rounding_only():
    """logspace's values within four roundings of its exponent, and a 16-bit mean within the
    error bound of any summation order, are accepted; a value off by more is found."""
    lines = ["v0 = T.logspace(255, True, 100000)", "v1 = T.tensor([3.4e38, -3.4e38, 65504.0, "
             "8.0])", "v2 = v1.mean(dtype=T.bfloat16)", "v3 = T.logspace(-3, 2.5, 37)"]
    assert compare(lines, torch, tensorviz) is None

    def off(*a, **k):
        return tensorviz.logspace(*a, **k) * 1.001
    f = compare(lines, torch, _wrong(logspace=off))
    assert f is not None and f.kind == "silent" and f.line == 0, f
    mean = tensorviz.Tensor.mean
    try:
        tensorviz.Tensor.mean = lambda self, *a, **k: mean(self, *a, **k).float().add(1e35) \
            .to(k.get("dtype") or self.dtype)
        f = compare(lines, torch, tensorviz)
    finally:
        tensorviz.Tensor.mean = mean
    assert f is not None and f.kind == "silent" and f.line == 2, f


def test_histogram_bin_of_an_overflowing_index_is_accepted_only_there():
    """PyTorch's bin of a value whose (x - first) * bins overflows the dtype is undefined
    (its int64 cast of inf): tensorviz's exact bin is accepted there, and later statements
    see it; a count moved for any other value, or a changed total, is found."""
    lines = ["v0 = T.tensor([[3.4e+38], [1.0], [5e37]], dtype=T.float32)",
             "v1 = T.histogram(v0, 3, density=False)", "v2 = v1[0] + 1"]
    assert compare(lines, torch, tensorviz) is None

    def moved(k, extra=0.0):
        def histogram(x, *a, **kw):
            h = tensorviz.histogram(x, *a, **kw)
            hist = h.hist.clone()
            hist[k] -= 1
            hist[(k + 1) % hist.shape[0]] += 1 + extra
            return type(h)(hist, h.bin_edges)
        return histogram
    for fake in (moved(0), moved(2, 1.0)):  # (the value 1.0 moved; a count added)
        f = compare(lines, torch, _wrong(histogram=fake))
        assert f is not None and f.kind == "silent" and f.line == 1, f
    exact = ["v0 = T.tensor([[3.0], [1.0], [2.0]], dtype=T.float32)", "v1 = T.histogram(v0, 3)"]
    assert compare(exact, torch, tensorviz) is None
    f = compare(exact, torch, _wrong(histogram=moved(1)))
    assert f is not None and f.kind == "silent" and f.line == 1, f


def test_real_products_whose_terms_overflow_accept_nan_or_infinity_there_only():
    """inf * 3 + 3.4e38 * -2.5 in float32 is inf as one fused step and NaN as two (PyTorch's
    batched sgemm gives NaN, its 2-D product inf): such an entry accepts either non-finite
    value; an entry whose terms cannot overflow (9 + 1.15e18 * -2.5) is still compared, and a
    finite value where a term is infinite is still found."""
    import numpy as np

    from .differential import deliberate
    a = np.array([[[np.inf, 3.4e38], [3.0, 1.152921504606847e18]]], dtype=np.float32)
    b = np.array([[[3.0, 1.0], [-2.5, 0.5]]], dtype=np.float32)

    def desc(v):
        return ("tensor", {"dtype": "float32", "values": np.array(v, dtype=np.float32)})

    def judged(want, got, line="v2 = v0 @ v1", op="@", operands=(a, b)):
        dt, dv = desc(want), desc(got)
        deliberate(op, line, dt, dv, operands[0], operands=list(operands))
        return np.array_equal(dt[1]["values"], dv[1]["values"], equal_nan=True)
    want = [[[np.nan, np.inf], [-2.8823038e18, -8.6469113e17]]]
    assert judged(want, [[[np.inf, np.inf], [-2.8823038e18, -8.6469113e17]]])
    assert not judged(want, [[[5.0, np.inf], [-2.8823038e18, -8.6469113e17]]])
    assert not judged(want, [[[np.nan, np.inf], [np.nan, -8.6469113e17]]])
    # matrix_power: a square whose terms overflow; a matrix whose powers stay finite
    m = np.array([[[-1.0, 1.5e308, 2.0], [-3.0, -1.0, 1.5e308], [1.0, 0.0, 0.0]],
                  [[1.0, 2.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]])
    with np.errstate(all="ignore"):
        sq = np.matmul(m, m)  # (NumPy's order: PyTorch's may overflow elsewhere)
    other = sq.copy()
    other[0][~np.isfinite(sq[0])] = np.where(np.isnan(sq[0][~np.isfinite(sq[0])]), np.inf,
                                             np.nan)
    line = "v1 = T.matrix_power(v0, 2)"

    def judged64(want, got):
        dt = ("tensor", {"dtype": "float64", "values": want.copy()})
        dv = ("tensor", {"dtype": "float64", "values": got.copy()})
        deliberate("matrix_power", line, dt, dv, m, operands=[m])
        return np.array_equal(dt[1]["values"], dv[1]["values"], equal_nan=True)
    with np.errstate(all="ignore"):
        assert not np.isfinite(sq[0]).all()
        assert judged64(sq, other)
        wrong = sq.copy()
        wrong[1, 0, 0] = np.inf  # (the finite matrix: its powers cannot overflow)
        assert not judged64(sq, wrong)


def test_complex_dist_accepts_the_c99_norm_only_where_pytorch_gives_nan():
    """PyTorch's 1j - (-inf-inf j) is nan+nan j (a + (-1+0j) * b), so its dist is NaN where
    tensorviz's difference is an infinity and its distance inf: accepted where the C99
    difference holds an infinity and no NaN and tensorviz's value is its p-norm; a finite
    distance, or one of a difference holding a NaN, is still found."""
    import numpy as np

    from .differential import deliberate
    a = np.array([1j, 1j, 1j, 1j])
    b = np.array([complex(-np.inf, -np.inf), 2.0, -2.5, 1.5 + 0j])

    def judged(want, got, line="v2 = v0.dist(v1)", x=a, y=b):
        dt = ("tensor", {"dtype": "float64", "values": np.array(want)})
        dv = ("tensor", {"dtype": "float64", "values": np.array(got)})
        deliberate("dist", line, dt, dv, x, operands=[x, y])
        return np.array_equal(dt[1]["values"], dv[1]["values"], equal_nan=True)
    assert judged(np.nan, np.inf)
    assert not judged(np.nan, 5.0)
    assert judged(np.nan, np.sqrt(1 + 1.5 ** 2), "v2 = v0.dist(v1, -float('inf'))")
    assert not judged(np.nan, np.inf, "v2 = v0.dist(v1, -float('inf'))")
    with_nan = b.copy()
    with_nan[1] = complex(np.nan, 0.0)
    assert not judged(np.nan, np.inf, y=with_nan)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_log1p_nan_of_kahans_quotient_is_accepted_only_where_it_overflows(dtype):
    """PyTorch's CPU log1p(1e-30+1e-310j) is nan+nan j (Kahan's log(u) * z / (u - 1) with
    c10's quotient scaled by an overflowing 1 / y): tensorviz's z is accepted there; a wrong
    value there, and a NaN of PyTorch's where 1 + x does not round to 1, are still found."""
    import numpy as np

    from .differential import deliberate
    ft = np.dtype(dtype).type(0).real.dtype
    tiny = float(np.finfo(ft).tiny) / 16  # (below 1 / max: subnormal)
    x = np.array([complex(1e-30, tiny), complex(-1e-30, -tiny), complex(0.25, tiny)], dtype)

    def judged(want, got):
        dt = ("tensor", {"dtype": dtype, "values": np.array(want, dtype)})
        dv = ("tensor", {"dtype": dtype, "values": np.array(got, dtype)})
        deliberate("log1p", "v1 = v0.log1p()", dt, dv, x)
        return np.array_equal(dt[1]["values"], dv[1]["values"], equal_nan=True)
    nan = complex(np.nan, np.nan)
    ok = np.log1p(x.astype(np.complex128))  # (0.25: away from the class)
    assert judged([nan, nan, ok[2]], [x[0], x[1], ok[2]])
    assert not judged([nan, nan, ok[2]], [2 * x[0], x[1], ok[2]])
    assert not judged([nan, nan, nan], [x[0], x[1], ok[2]])


def test_complex_products_whose_terms_overflow_accept_a_finite_value_there_only():
    """-3.4e38 + (3.4e38+0.5j) * 2 is finite with a fused multiply-add, inf where PyTorch's
    batched kernel rounds 6.8e38 first: such an entry (terms past the dtype's largest value,
    none infinite) accepts a finite value against an infinity; an entry whose terms cannot
    overflow, or one with an infinite term, still needs PyTorch's class; operands sliced in
    the statement are not bounded."""
    import numpy as np

    from .differential import deliberate
    a = np.array([[[-1.0, 3.4e38 + 0.5j], [1.0, 2.0]]], dtype=np.complex64)
    b = np.array([[[3.4e38, 1.0], [2.0, 1.0]]], dtype=np.complex64)

    def judged(want, got, line="v2 = T.bmm(v0, v1)"):
        dt = ("tensor", {"dtype": "complex64", "values": np.array(want, np.complex64)})
        dv = ("tensor", {"dtype": "complex64", "values": np.array(got, np.complex64)})
        deliberate("bmm", line, dt, dv, a, operands=[a, b])
        return np.array_equal(dt[1]["values"], dv[1]["values"], equal_nan=True)
    with np.errstate(all="ignore"):
        exact = np.matmul(a.astype(np.complex128), b).astype(np.complex64)
    want = exact.copy()
    want[0, 0, 0] = complex(np.inf, 1.0)
    assert judged(want, exact)
    assert not judged(want, exact, "v2 = T.bmm(v0[:1], v1)")
    wrong = exact.copy()
    wrong[0, 1, 1] = np.inf  # (1 + 2: no overflow)
    assert not judged(exact, wrong)
    b_inf = b.copy()
    b_inf[0, 0, 0] = np.inf
    dt = ("tensor", {"dtype": "complex64", "values": want.copy()})
    dv = ("tensor", {"dtype": "complex64", "values": exact.copy()})
    deliberate("bmm", "v2 = T.bmm(v0, v1)", dt, dv, a, operands=[a, b_inf])
    assert not np.array_equal(dt[1]["values"], dv[1]["values"], equal_nan=True)


def test_product_rounding_is_accepted_within_the_dot_product_bound_only():
    """PyTorch's complex64 inner of [1e30+1j, 1e30-2j] and [3, -3] is 9j, NumPy's BLAS
    1.5e23+9j (a fused multiply-add keeps one product's rounding error): accepted within
    2 (k + 2) eps sum_k |a_k| |b_k|; an error past it, or in an entry whose terms are small,
    is still found."""
    import numpy as np

    from .differential import deliberate
    a = np.array([[1e30 + 1j, 1e30 - 2j], [1.0 + 1j, 2.0]], dtype=np.complex64)
    b = np.array([[3.0, -3.0]], dtype=np.complex64)

    def judged(want, got, line="v2 = v0.inner(v1)"):
        dt = ("tensor", {"dtype": "complex64", "values": np.array(want, np.complex64)})
        dv = ("tensor", {"dtype": "complex64", "values": np.array(got, np.complex64)})
        deliberate("inner", line, dt, dv, a, operands=[a, b])
        return np.array_equal(dt[1]["values"], dv[1]["values"])
    want = [[9j], [-3.0 + 3j]]
    assert judged(want, [[1.5111573e23 + 9j], [-3.0 + 3j]])
    assert not judged(want, [[1.5111573e25 + 9j], [-3.0 + 3j]])
    assert not judged(want, [[9j], [-3.0001 + 3j]])
    assert not judged(want, [[1.5111573e23 + 9j], [-3.0 + 3j]], "v2 = v0[:1].inner(v1)")


def test_trapezoid_cancellation_is_accepted_within_the_sum_bound_only():
    """A trapezoid integral whose trapezoids cancel (1.3e36 less 1.3e36 beside small ones)
    is PyTorch's sum in its cascade's order (0) and tensorviz's in NumPy's (0.5): accepted
    within n * eps * sum(|trapezoids|); a wrong value beside small trapezoids only (where
    the bound is tight) is still found, with samples x or a spacing dx."""
    import numpy as np

    from .differential import _samples, deliberate
    import tensorviz
    y = np.array([[-3.0, 1.152921504606847e18, 0.0, -0.75, 0.0, -1.0, 3.0, -1.0],
                  [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]], dtype=np.float32)

    def desc(v):
        return ("tensor", {"dtype": "float32", "values": np.array(v, dtype=np.float32)})
    line = "v1 = T.trapz(v0, v0)"
    xs = _samples(line, {"v0": tensorviz.tensor(y)})
    assert xs is not None and xs.shape == y.shape
    dt, dv = desc([0.0, 31.5]), desc([0.5, 31.5])
    deliberate("trapz", line, dt, dv, y, samples=xs)
    assert np.array_equal(dt[1]["values"], dv[1]["values"])
    dt, dv = desc([0.0, 31.5]), desc([0.0, 32.5])  # (the second row has nothing to cancel)
    deliberate("trapz", line, dt, dv, y, samples=xs)
    assert not np.array_equal(dt[1]["values"], dv[1]["values"])
    line = "v1 = T.trapezoid(v0, dx=2.0, dim=1)"
    assert _samples(line, {"v0": tensorviz.tensor(y)}) is None
    dt, dv = desc([1.0, 63.0]), desc([1.0, 64.0])
    deliberate("trapezoid", line, dt, dv, y, samples=None)
    assert not np.array_equal(dt[1]["values"], dv[1]["values"])
    dt, dv = desc([1.0, 63.0]), desc([2.0, 63.0])  # (within 2e18 * 8 * eps of PyTorch's)
    deliberate("trapezoid", line, dt, dv, y, samples=None)
    assert np.array_equal(dt[1]["values"], dv[1]["values"])


def test_complex_product_overflow_is_accepted_where_both_sides_are_not_finite():
    """A complex product whose terms overflow is NaN or an infinity in each part by the loop
    (PyTorch's own answer depends on the element's position): an entry not finite on both
    sides is accepted, a finite entry against a non-finite one, or finite entries that
    differ, are still found; other ops are not touched."""
    import numpy as np

    from .differential import deliberate

    def desc(v):
        return ("tensor", {"dtype": "complex64", "values": np.array(v, dtype=np.complex64)})
    inf, nan = float("inf"), float("nan")
    for op, line in (("*", "v2 = v0 * v1"), ("lerp_", "v2 = v0.lerp_(v1, weight=v1)"),
                     ("addcmul", "v3 = T.addcmul(v0, v1, v2)")):
        dt, dv = desc([complex(-inf, nan), 1 + 2j]), desc([complex(-inf, inf), 1 + 2j])
        deliberate(op, line, dt, dv)
        assert np.array_equal(dt[1]["values"], dv[1]["values"])
        for wrong in ([complex(-inf, inf), 1 + 3j], [1 + 0j, 1 + 2j]):
            dt, dv = desc([complex(-inf, nan), 1 + 2j]), desc(wrong)
            deliberate(op, line, dt, dv)
            assert not np.array_equal(dt[1]["values"], dv[1]["values"])
    dt, dv = desc([complex(-inf, nan)]), desc([complex(-inf, inf)])
    deliberate("exp", "v1 = v0.exp()", dt, dv)
    assert not np.array_equal(dt[1]["values"], dv[1]["values"])


def test_long_half_windows_accept_only_pytorchs_one_thread_values():
    """A float16/bfloat16 window past 32768 elements: PyTorch's values depend on its thread
    count (arange's split); tensorviz's are PyTorch's on one thread and are accepted, while
    another answer (the triangle rounded once, or one wrong element) is still found."""
    prog = ["v0 = T.tensor([complex(0.5, 0.5)], dtype=T.complex128)",
            "v2 = T.bartlett_window(1000000, dtype=T.bfloat16)",
            "v3 = T.hann_window(70000, False, dtype=T.float16)"]
    assert compare(prog, torch, tensorviz) is None

    fake = _Fake()  # (tensorviz with ops made wrong below)
    fake.bartlett_window = lambda n, periodic=True, dtype=None: tensorviz.bartlett_window(
        n, periodic, dtype=tensorviz.float64).to(dtype)  # (the exact triangle, rounded once)
    f = compare(prog, torch, fake)
    assert f is not None and f.kind == "silent" and f.line == 1, f

    def one_off(n, periodic=True, dtype=None):
        w = tensorviz.bartlett_window(n, periodic, dtype=dtype)
        w[n // 2] = 0.5
        return w
    fake.bartlett_window = one_off
    f = compare(prog, torch, fake)
    assert f is not None and f.kind == "silent" and f.line == 1, f


def test_complex128_of_a_half_input_is_not_compared_as_complex32():
    """A complex128 result of float16 inputs (prod(x, dtype=complex128): 65504**3 = 2.8e14)
    is compared at float16's tolerance, but its parts are its own: only PyTorch's complex32
    has them rounded to float16 (where 2.8e14 would be inf). A wrong value is still found."""
    prog = ["v0 = T.tensor([[65504.0]], dtype=T.float16)", "v1 = v0.expand((1, 3))",
            "v2 = T.prod(v1, dtype=T.complex128)"]
    assert compare(prog, torch, tensorviz) is None
    for wrong in (lambda x, dtype: tensorviz.prod(x, dtype=dtype) * 1.01,
                  lambda x, dtype: tensorviz.prod(x, dtype=dtype) * float("inf")):
        f = compare(prog, torch, _wrong(prod=wrong))
        assert f is not None and f.kind == "silent" and f.line == 2, f


def test_complex_covariance_overflow_accepts_only_the_overflowing_variables_entries():
    """A complex variable whose squared deviations overflow has a variance BLAS makes
    inf+nan j or nan+nan j by its order, and correlations 0 or NaN: in its row and column an
    entry not finite on both sides (and, for corrcoef, NaN against 0) is accepted; the other
    variables' entries, and a finite entry against a NaN, are still compared."""
    import numpy as np

    from .differential import deliberate
    x = np.array([[1 - 2j, -0.75, 0], [-1, 3.4e38, 0.25], [0.5j, 0.5, 4]], dtype=np.complex64)
    nan, inf = float("nan"), float("inf")

    def desc(v):
        return ("tensor", {"dtype": "complex64", "values": np.array(v, dtype=np.complex64)})
    ok_t = [[1, nan, -0.2 + 0.4j], [nan, nan, nan], [-0.2 - 0.4j, nan, 1]]
    ok_v = [[1, 0, -0.2 + 0.4j], [0, complex(inf, nan), 0], [-0.2 - 0.4j, 0, 1]]
    dt, dv = desc(ok_t), desc(ok_v)
    deliberate("corrcoef", "v1 = T.corrcoef(v0)", dt, dv, x)
    assert np.array_equal(dt[1]["values"], dv[1]["values"], equal_nan=True)
    for wrong in ([[1, 0.5, -0.2 + 0.4j], [0.5, nan, 0], [-0.2 - 0.4j, 0, 1]],   # finite vs NaN
                  [[1, 0, -0.3 + 0.4j], [0, nan, 0], [-0.3 - 0.4j, 0, 1]]):  # other entries
        dt, dv = desc(ok_t), desc(wrong)
        deliberate("corrcoef", "v1 = T.corrcoef(v0)", dt, dv, x)
        assert not np.array_equal(dt[1]["values"], dv[1]["values"], equal_nan=True)
    dt, dv = desc(ok_t), desc(ok_v)  # (cov: NaN against 0 is no variance's)
    deliberate("cov", "v1 = T.cov(v0)", dt, dv, x)
    assert not np.array_equal(dt[1]["values"], dv[1]["values"], equal_nan=True)
    small = np.array([[1, 2], [3, 4]], dtype=np.complex64)  # (nothing overflows: compared)
    dt, dv = desc([[1, nan], [nan, 1]]), desc([[1, 0], [0, 1]])
    deliberate("corrcoef", "v1 = T.corrcoef(v0)", dt, dv, small)
    assert not np.array_equal(dt[1]["values"], dv[1]["values"], equal_nan=True)


def test_inverse_rounding_noise_is_accepted_within_the_lu_bound_only():
    """An inverse's entries within Higham's LU rounding bound of PyTorch's stand (a badly
    scaled float32 matrix: PyTorch's -3.8e-10 where tensorviz's is -0.0, exact 3e-32), and
    are adopted, so a later reciprocal compares equal; an entry farther off, or a wrong
    reciprocal, is still found."""
    lines = ["v0 = T.tensor([[0.5, 0.0, 0.25], [1.5, 4.0, 2.0], [-3.0, 0.25, 1e+30]])",
             "v1 = T.inverse(v0)", "v2 = T.reciprocal(v1)",
             "v3 = T.tensor([[2.0, 1.0], [1.0, 3.0]], dtype=T.float64)", "v4 = T.inverse(v3)"]
    assert compare(lines, torch, tensorviz) is None

    def off(a):  # (an entry of a moderate inverse 1e-4 off: far outside the bound)
        r = tensorviz.inverse(a)
        if r.shape == (2, 2):
            r[0, 0] += 1e-4
        return r
    for fake, line in ((_wrong(inverse=lambda a: tensorviz.inverse(a) * 1.001), 1),
                       (_wrong(inverse=off), 4),
                       (_wrong(reciprocal=lambda t: 1 / (t + 1e-30)), 2)):
        f = compare(lines, torch, fake)
        assert f is not None and f.kind == "silent" and f.line == line, f


def test_matrix_exp_in_double_precision_is_accepted_only_where_pytorch_disagrees_with_itself():
    """PyTorch's float32 exponential of a far from normal matrix is 1e33/inf where its own
    float64 one (and the exact one) is [[0.14, 1.2e9], [-8e-10, 0.14]]: tensorviz's, which
    is the float64 one rounded, is accepted there; a wrong exponential of that matrix or of
    an ordinary one is still found."""
    lines = ["v0 = T.tensor([[-1e-30, 1.152921504606847e+18], [-0.75, -0.75]])",
             "v1 = v0.mul(1e-3)", "v2 = T.matrix_exp(v1)",
             "v3 = T.tensor([[0.5, 1.0], [-2.0, 0.25]])", "v4 = T.matrix_exp(v3)"]
    assert compare(lines, torch, tensorviz) is None
    for fake, line in ((_wrong(matrix_exp=lambda a: tensorviz.matrix_exp(a) * 1.001), 2),
                       (_wrong(matrix_exp=lambda a: tensorviz.matrix_exp(a * 1.001)), 2),
                       (_wrong(matrix_exp=lambda a: tensorviz.matrix_exp(a) if a[0, 0] < 0
                               else tensorviz.matrix_exp(a) * 1.001), 4)):
        f = compare(lines, torch, fake)
        assert f is not None and f.kind == "silent" and f.line == line, f
