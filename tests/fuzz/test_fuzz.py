"""The differential fuzzer in the test suite: a short fixed-seed run, and every program it once
found disagreeing (``regressions.py``) run again on PyTorch and tensorviz."""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import tensorviz  # noqa: E402

from .differential import Finding, compare  # noqa: E402
from .known import KNOWN  # noqa: E402
from .regressions import REGRESSIONS  # noqa: E402
from .runner import Worker, format_findings, run  # noqa: E402

# The fixed seeds of the suite's short run (about 20 s on one core).
SEED, PROGRAMS = 20261124, 400
GATED = ("silent", "leak", "hang", "crash")


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
    class Fake:  # tensorviz with one op made wrong
        def __getattr__(self, name):
            return getattr(tensorviz, name)

    fake = Fake()
    fake.__name__ = "tensorviz"
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


def test_widening_conversions_compare_at_the_source_tolerance():
    """double()/tolist()/item() of a float32 tensor, and a float64 result computed from it,
    are compared at float32's tolerance (an ulp of NumPy's float32 tan is accepted), a wrong
    value still is not; PyTorch's complex32 compares at float16's tolerance."""
    class Fake:  # tensorviz with float32 tan off by an ulp, or by much more
        def __getattr__(self, name):
            return getattr(tensorviz, name)

    fake = Fake()
    fake.__name__ = "tensorviz"
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
    assert compare(["v0 = T.tensor([-1.333], dtype=T.float16)", "v1 = v0 - T.tensor(1+0.5j)"],
                   torch, tensorviz) is None


def test_complex_negation_of_zero_parts_ends_the_comparison():
    """PyTorch's complex neg gives +0 or -0 parts by the element's position in its vector
    loop: after negating a complex tensor with a zero part the program is not compared
    further (without a zero part it is, and a wrong negation is still found)."""
    from .differential import _negates_complex_zero
    z = tensorviz.tensor([3 + 0j, 1 + 1j])
    assert _negates_complex_zero("v1 = -v0", {"v0": z})
    assert _negates_complex_zero("v1 = v0.negative_()", {"v0": z})
    assert _negates_complex_zero("v1 = T.neg(v0)", {"v0": z})
    assert not _negates_complex_zero("v1 = v0.neg()", {"v0": tensorviz.tensor([1 + 1j])})
    assert not _negates_complex_zero("v1 = v0.neg()", {"v0": tensorviz.tensor([0.0, 1.0])})
    assert not _negates_complex_zero("v1 = v0 - v0", {"v0": z})
    lines = ["v0 = T.tensor([complex(0.5, 0.0)] * 12)", "v1 = v0.negative_()", "v2 = v0.arccos()"]
    assert compare(lines, torch, tensorviz) is None

    class Fake:
        def __getattr__(self, name):
            return getattr(tensorviz, name)
    fake = Fake()
    fake.__name__ = "tensorviz"
    fake.neg = lambda t: t
    f = compare(["v0 = T.tensor([complex(0.5, 0.0)] * 12)", "v1 = T.neg(v0)"], torch, fake)
    assert f is not None and f.kind == "silent"


def test_integer_steps_accept_one_apart_only_for_agreeing_inputs():
    """floor/byte of float inputs that agree within tolerance may be one apart (PyTorch's
    float32 i0(0) is 0.99999994): accepted there; an integer off by one from equal inputs,
    or off by two, is still found."""
    prog = ["v0 = T.tensor([6, 0, -1], dtype=T.int16)", "v1 = T.i0(v0)", "v2 = T.floor(v1)",
            "v3 = v1.byte()"]
    assert compare(prog, torch, tensorviz) is None

    class Fake:
        def __getattr__(self, name):
            return getattr(tensorviz, name)
    fake = Fake()
    fake.__name__ = "tensorviz"
    for wrong in (lambda t: tensorviz.floor(t) + 1, lambda t: tensorviz.floor(t) - 2):
        fake.floor = wrong
        f = compare(["v0 = T.tensor([2.5, 3.0])", "v2 = T.floor(v0)"], torch, fake)
        assert f is not None and f.kind == "silent"


def test_out_grown_past_its_storage_ends_the_comparison():
    """An out= grown past its storage: PyTorch's other views see the grown storage,
    tensorviz's keep the old one (Tensor.resize_'s Note): not compared further; an out=
    that fits its storage still is."""
    import warnings
    from .differential import _shares
    t = tensorviz.zeros(3)
    env = {"v0": t, "v1": t[1:], "v2": tensorviz.zeros(3)}
    assert _shares(env, "v0", t._storage) and not _shares(env, "v2", env["v2"]._storage)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert compare(["v0 = T.tensor([-3.0], dtype=T.bfloat16)", "v1 = v0.expand((2,))",
                        "v2 = T.log2(v1, out=v0)"], torch, tensorviz) is None

        class Fake:
            def __getattr__(self, name):
                return getattr(tensorviz, name)
        fake = Fake()
        fake.__name__ = "tensorviz"
        fake.log2 = lambda x, out: tensorviz.log2(x + 1, out=out)
        f = compare(["v0 = T.tensor([2.0, 4.0])", "v1 = T.tensor([1.0, 8.0])", "v3 = v0[:1]",
                     "v2 = T.log2(v1, out=v0)"], torch, fake)
        assert f is not None and f.kind == "silent"
