"""Random ops: reproducible under ``manual_seed`` and ``generator=``, the right distributions
(moments checked on large samples), PyTorch's dtypes, shapes and errors (compared on outcomes,
since the random streams differ from PyTorch's), in-place fills through any layout, and the
generator state round trip."""
from __future__ import annotations

import math

import numpy as np
import pytest

import tensorviz

torch = pytest.importorskip("torch")


def _same_outcome(f, *make_args):
    """``f(lib)`` on both libraries: the same exception type, or the same dtype and shape."""
    out = []
    for lib in (tensorviz, torch):
        try:
            r = f(lib)
            out.append(("ok", str(r.dtype).split(".")[-1], tuple(r.shape)))
        except Exception as e:  # noqa: BLE001 - compared below
            out.append(("error", type(e).__name__))
    assert out[0] == out[1], out


INPLACE = [
    ("uniform_", ()), ("uniform_", (-2.0, 3.0)), ("uniform_", (2.0, 1.0)),
    ("uniform_", (0, float("inf"))), ("normal_", ()), ("normal_", (2.0, 0.5)),
    ("normal_", (0.0, -1.0)), ("random_", ()), ("random_", (5,)), ("random_", (2, 5)),
    ("random_", (5, 2)), ("random_", (-5, 5)), ("random_", (300,)), ("random_", (-500, 5)),
    ("exponential_", ()), ("exponential_", (0.5,)), ("exponential_", (-1.0,)),
    ("exponential_", (0,)), ("geometric_", (0.5,)), ("geometric_", (1.5,)),
    ("geometric_", (0,)), ("log_normal_", ()), ("log_normal_", (1.0, -2.0)),
    ("cauchy_", ()), ("cauchy_", (0.0, -1.0)), ("bernoulli_", ()), ("bernoulli_", (0.3,)),
    ("bernoulli_", (1.5,)),
]


@pytest.mark.parametrize("case", range(len(INPLACE)))
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "int8", "uint8",
                                   "bool", "complex64"])
def test_inplace_samplers_outcomes(case, dtype):
    name, args = INPLACE[case]
    if dtype == "float16" and name == "random_" and args == (2, 5):
        pass

    def f(lib):
        t = lib.zeros(3, 4, dtype=getattr(lib, dtype)).t()
        r = getattr(t, name)(*args)
        assert r is t
        return r
    _same_outcome(f)


@pytest.mark.parametrize("name,args", [("uniform_", ()), ("normal_", (1.0, 2.0)),
                                       ("random_", (0, 10)), ("exponential_", (2.0,)),
                                       ("geometric_", (0.3,)), ("log_normal_", (0.0, 0.5)),
                                       ("cauchy_", ()), ("bernoulli_", (0.25,))])
def test_inplace_reproducible_and_through_views(name, args):
    base = tensorviz.zeros(40, 30)
    view = base.t()[::2]
    v0 = base._version
    tensorviz.manual_seed(123)
    getattr(view, name)(*args)
    first = view.clone()
    assert base._version == v0 + 1
    assert (base[:, 1::2] == 0).all().item()  # only the view's elements were written
    tensorviz.manual_seed(123)
    getattr(view, name)(*args)
    assert view.tolist() == first.tolist()
    g = tensorviz.Generator().manual_seed(7)
    a = getattr(tensorviz.empty(5), name)(*args, generator=g)
    g.manual_seed(7)
    b = getattr(tensorviz.empty(5), name)(*args, generator=g)
    assert a.tolist() == b.tolist()


N = 200_000


def test_distributions_have_the_right_moments():
    tensorviz.manual_seed(0)
    t = tensorviz.empty(N, dtype=tensorviz.float64)
    checks = [
        ("uniform_", (-2.0, 4.0), 1.0, 36 / 12),
        ("normal_", (1.5, 2.0), 1.5, 4.0),
        ("exponential_", (4.0,), 0.25, 1 / 16),
        ("geometric_", (0.25,), 4.0, 0.75 / 0.0625),
        ("log_normal_", (0.0, 0.5), math.exp(0.125), (math.exp(0.25) - 1) * math.exp(0.25)),
        ("bernoulli_", (0.3,), 0.3, 0.21),
        ("random_", (0, 10), 4.5, 8.25),
    ]
    for name, args, mean, var in checks:
        x = getattr(t, name)(*args).numpy()
        assert abs(x.mean() - mean) < 5 * math.sqrt(var / N), (name, x.mean(), mean)
        assert abs(x.var() - var) < 0.05 * var, (name, x.var(), var)
    c = t.cauchy_(1.0, 2.0).numpy()
    assert abs(np.median(c) - 1.0) < 0.05 and abs(np.percentile(c, 75) - 3.0) < 0.1
    r = tensorviz.empty(N).random_().numpy()
    assert r.min() >= 0 and r.max() <= 2 ** 24 and r.mean() > 2 ** 22
    ints = tensorviz.empty(N, dtype=tensorviz.int8).random_().numpy()
    assert ints.min() >= 0 and ints.max() == 127
    flags = tensorviz.empty(1000, dtype=tensorviz.bool).random_().numpy()
    assert 0 < flags.sum() < 1000


def test_bernoulli_poisson_multinomial_outcomes():
    p = [0.1, 0.5, 0.9]
    cases = [
        lambda lib: lib.bernoulli(lib.tensor(p)), lambda lib: lib.bernoulli(lib.tensor(p).double()),
        lambda lib: lib.bernoulli(lib.tensor(p), 0.5),
        lambda lib: lib.bernoulli(lib.tensor([1, 0])),
        lambda lib: lib.bernoulli(lib.tensor([1.5, 0.0])),
        lambda lib: lib.bernoulli(lib.tensor([True, False])),
        lambda lib: lib.bernoulli(lib.tensor(p).half()),
        lambda lib: lib.tensor(p).bernoulli(), lambda lib: lib.zeros(3).bernoulli_(lib.tensor(p)),
        lambda lib: lib.zeros(3).bernoulli_(lib.tensor([0.5, 2.0, 0.1])),
        lambda lib: lib.zeros(3, dtype=lib.long).bernoulli_(0.5),
        lambda lib: lib.multinomial(lib.tensor([1.0, 2, 3]), 2),
        lambda lib: lib.multinomial(lib.tensor([1.0, 2, 3]), 4),
        lambda lib: lib.multinomial(lib.tensor([1.0, 2, 3]), 4, True),
        lambda lib: lib.multinomial(lib.tensor([1, 2, 3]), 2),
        lambda lib: lib.multinomial(lib.tensor([1.0, 2, 3]).double(), 2),
        lambda lib: lib.multinomial(lib.ones(3, 3).t(), 2),
        lambda lib: lib.multinomial(lib.tensor([1.0, -1.0]), 1),
        lambda lib: lib.multinomial(lib.tensor([0.0, 0.0]), 1),
        lambda lib: lib.multinomial(lib.tensor([1.0, float("inf")]), 1),
        lambda lib: lib.multinomial(lib.tensor([1.0, float("nan")]), 1),
        lambda lib: lib.multinomial(lib.ones(2, 2, 2), 1),
        lambda lib: lib.multinomial(lib.tensor(1.0), 1),
        lambda lib: lib.multinomial(lib.tensor([1.0, 2, 3]), 0),
        lambda lib: lib.tensor([1.0, 2, 3]).multinomial(3),
        lambda lib: lib.poisson(lib.tensor([1.0, 2, 3])),
        lambda lib: lib.poisson(lib.tensor([1, 2, 3])),
        lambda lib: lib.poisson(lib.tensor([-1.0])),
        lambda lib: lib.poisson(lib.tensor([1.0, 2.0]).double()),
    ]
    for f in cases:
        _same_outcome(f)


def test_multinomial_values():
    tensorviz.manual_seed(1)
    w = tensorviz.tensor([[1.0, 0.0, 3.0, 0.0], [0.0, 2.0, 0.0, 2.0]])
    draws = tensorviz.multinomial(w, 20000, replacement=True).numpy()
    assert set(np.unique(draws[0])) == {0, 2} and set(np.unique(draws[1])) == {1, 3}
    assert abs((draws[0] == 2).mean() - 0.75) < 0.02
    assert abs((draws[1] == 1).mean() - 0.5) < 0.02
    no_rep = tensorviz.multinomial(tensorviz.ones(100, 6), 6).numpy()
    assert (np.sort(no_rep, axis=1) == np.arange(6)).all()  # a permutation per row
    zeros_last = tensorviz.multinomial(tensorviz.tensor([1.0, 0.0, 0.0]), 2).tolist()
    assert zeros_last[0] == 0
    first = tensorviz.multinomial(tensorviz.tensor([0.0, 0.0, 5.0, 1.0]), 1000, True).numpy()
    assert set(np.unique(first)) <= {2, 3}
    g = tensorviz.Generator().manual_seed(5)
    a = tensorviz.multinomial(w, 5, True, generator=g)
    g.manual_seed(5)
    assert tensorviz.multinomial(w, 5, True, generator=g).tolist() == a.tolist()


def test_poisson_and_bernoulli_values():
    tensorviz.manual_seed(2)
    rates = tensorviz.full((N,), 3.0)
    x = tensorviz.poisson(rates).numpy()
    assert abs(x.mean() - 3) < 0.03 and abs(x.var() - 3) < 0.1 and x.dtype == np.float32
    b = tensorviz.bernoulli(tensorviz.tensor([0.0, 1.0, 0.0, 1.0]))
    assert b.tolist() == [0.0, 1.0, 0.0, 1.0]
    half = tensorviz.bernoulli(tensorviz.full((N,), 0.5)).numpy()
    assert abs(half.mean() - 0.5) < 0.01


def test_generator_state_round_trip():
    g = tensorviz.Generator()
    g.manual_seed(42)
    state = g.get_state()
    assert state.dtype is tensorviz.uint8 and state.dim() == 1
    a = tensorviz.rand(5, generator=g)
    b = tensorviz.empty(4).normal_(generator=g)
    g.set_state(state)
    assert tensorviz.rand(5, generator=g).tolist() == a.tolist()
    assert tensorviz.empty(4).normal_(generator=g).tolist() == b.tolist()
    assert g.initial_seed() == 42
    tensorviz.manual_seed(3)
    s = tensorviz.get_rng_state()
    c = tensorviz.multinomial(tensorviz.ones(10), 10)
    tensorviz.set_rng_state(s)
    assert tensorviz.multinomial(tensorviz.ones(10), 10).tolist() == c.tolist()
    with pytest.raises(TypeError):
        g.set_state(tensorviz.zeros(3))


def test_on_cuda_is_reproducible(devices):
    if devices == "cpu":
        pytest.skip("compares cuda with cpu")
    tensorviz.manual_seed(9)
    cpu = tensorviz.empty(6).normal_()
    tensorviz.manual_seed(9)
    gpu = tensorviz.empty(6, device="cuda").normal_()
    assert gpu.device.type == "cuda" and gpu.cpu().tolist() == cpu.tolist()
    m = tensorviz.multinomial(tensorviz.ones(4, device="cuda"), 4)
    assert m.device.type == "cuda" and sorted(m.cpu().tolist()) == [0, 1, 2, 3]


@pytest.mark.parametrize("dtype", ["int64", "uint8", "bool", "float16", "float32"])
def test_bernoulli_probability_dtypes(dtype):
    """A number p samples into any dtype (the input only gives shape and dtype); a tensor of
    probabilities must be floating (PyTorch has no integer kernel for it)."""
    def x(lib):
        return lib.zeros(3, 4, dtype=getattr(lib, dtype))
    _same_outcome(lambda lib: lib.bernoulli(x(lib), 0.5))
    _same_outcome(lambda lib: x(lib).bernoulli(0.25))
    _same_outcome(lambda lib: lib.bernoulli(x(lib)))
    _same_outcome(lambda lib: lib.zeros(3, 4).bernoulli_(x(lib)))
    _same_outcome(lambda lib: x(lib).bernoulli_(lib.full((3, 4), 0.5)))


def test_normal_complex_std_and_float_random_bounds_refused():
    _same_outcome(lambda lib: lib.normal(lib.zeros(3), lib.ones(3, dtype=lib.complex64)))
    _same_outcome(lambda lib: lib.normal(1.0, lib.ones(3, dtype=lib.complex64)))
    _same_outcome(lambda lib: lib.normal(lib.zeros(3, dtype=lib.complex64), lib.ones(3)))
    _same_outcome(lambda lib: lib.ones(3).random_(1.5))
    _same_outcome(lambda lib: lib.ones(3).random_(0, 2.5))
    _same_outcome(lambda lib: lib.ones(3).random_(0, 5))
