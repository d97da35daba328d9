"""Random numbers: seeds and Generators make results reproducible; shapes, dtypes and errors
are PyTorch's.

# Note: the numbers themselves come from NumPy's PCG64, not PyTorch's Mersenne Twister, so
# they are not equal to PyTorch's for the same seed (only their distribution is the same).
"""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz as tv
from tv_core_conftest import same

torch = pytest.importorskip("torch")

SAMPLERS = {
    "rand": lambda L, **kw: L.rand(3, 4, **kw),
    "randn": lambda L, **kw: L.randn(3, 4, **kw),
    "randint": lambda L, **kw: L.randint(0, 10, (3, 4), **kw),
    "randperm": lambda L, **kw: L.randperm(12, **kw),
    "normal": lambda L, **kw: L.normal(2.0, 3.0, (3, 4), **kw),
    "normal-tensors": lambda L, **kw: L.normal(L.zeros(3, 1), L.ones(4), **kw),
}


@pytest.mark.parametrize("name", list(SAMPLERS))
def test_manual_seed_makes_results_reproducible(name, devices):
    f = SAMPLERS[name]
    kw = {} if name == "normal-tensors" else {"device": devices}
    tv.manual_seed(1234)
    a = f(tv, **kw)
    b = f(tv, **kw)
    tv.manual_seed(1234)
    c = f(tv, **kw)
    assert a.tolist() == c.tolist() and a.tolist() != b.tolist()
    tv.manual_seed(4321)
    assert f(tv, **kw).tolist() != a.tolist()


@pytest.mark.parametrize("name", list(SAMPLERS))
def test_generators_are_independent_streams(name):
    f = SAMPLERS[name]
    g1, g2 = tv.Generator().manual_seed(7), tv.Generator().manual_seed(7)
    tv.manual_seed(0)
    a = f(tv, generator=g1)
    tv.rand(5)  # the default generator moves on; g2 does not care
    b = f(tv, generator=g2)
    assert a.tolist() == b.tolist()
    assert f(tv, generator=g1).tolist() != a.tolist()


def test_generator_state_round_trip():
    g = tv.Generator().manual_seed(99)
    state = g.get_state()
    assert state.dtype is tv.uint8 and state.dim() == 1
    a = tv.rand(5, generator=g)
    g.set_state(state)
    assert tv.rand(5, generator=g).tolist() == a.tolist()
    s = tv.get_rng_state()
    x = tv.randn(3)
    tv.set_rng_state(s)
    assert tv.randn(3).tolist() == x.tolist()
    with pytest.raises(TypeError):
        g.set_state(tv.zeros(3))


def test_seeds_like_pytorch():
    g, p = tv.Generator(), torch.Generator()
    assert g.initial_seed() == p.initial_seed() == 67280421310721
    assert g.manual_seed(5) is g and g.initial_seed() == 5
    assert tv.manual_seed(-1).initial_seed() == torch.manual_seed(-1).initial_seed()
    assert tv.initial_seed() == torch.initial_seed()
    s = tv.seed()
    assert tv.initial_seed() == s
    same(lambda L: L.manual_seed(2 ** 64))
    assert g.device == tv.device("cpu")
    tv.manual_seed(0)
    torch.manual_seed(0)


SHAPES_AND_ERRORS = [
    lambda L: L.rand(2, 3), lambda L: L.rand((2, 3)), lambda L: L.rand(2, 3, dtype=L.float64),
    lambda L: L.rand(2, dtype=L.int64), lambda L: L.rand(2, dtype=L.float16),
    lambda L: L.rand(2, dtype=L.complex64), lambda L: L.rand(2, dtype=L.bool), lambda L: L.rand(-1),
    lambda L: L.rand(), lambda L: L.rand(0, 3), lambda L: L.randn(2, 3),
    lambda L: L.randn(2, dtype=L.int32), lambda L: L.randn(2, dtype=L.complex128),
    lambda L: L.randn(2, dtype=L.bool), lambda L: L.randn(),
    lambda L: L.randint(10, (3,)), lambda L: L.randint(3, 10, (3,)),
    lambda L: L.randint(3, 10, (3,), dtype=L.float32), lambda L: L.randint(10, (3,), dtype=L.bool),
    lambda L: L.randint(0, 2, (3,), dtype=L.bool), lambda L: L.randint(-1, 1, (3,), dtype=L.bool),
    lambda L: L.randint(10, 3, (3,)), lambda L: L.randint(10, 10, (3,)),
    lambda L: L.randint(0, 300, (3,), dtype=L.uint8), lambda L: L.randint(-1, 3, (3,), dtype=L.uint8),
    lambda L: L.randint(-129, 1, (3,), dtype=L.int8), lambda L: L.randint(0, 129, (3,), dtype=L.int8),
    lambda L: L.randint(0, 2 ** 15 + 1, (3,), dtype=L.int16),
    lambda L: L.randint(0, 2 ** 31 + 1, (3,), dtype=L.int32),
    lambda L: L.randint(0, 5, (3,), dtype=L.complex64), lambda L: L.randint(10),
    lambda L: L.randint(10, 3), lambda L: L.randint(2.5, (3,)), lambda L: L.randint(0, 2 ** 63, (3,)),
    lambda L: L.randint(low=2, high=5, size=(2,)), lambda L: L.randint(high=5, size=(2,)),
    lambda L: L.randint(5, size=(2,)), lambda L: L.randperm(5), lambda L: L.randperm(0),
    lambda L: L.randperm(5, dtype=L.float32), lambda L: L.randperm(5, dtype=L.int8),
    lambda L: L.randperm(128, dtype=L.int8), lambda L: L.randperm(129, dtype=L.int8),
    lambda L: L.randperm(5, dtype=L.bool), lambda L: L.randperm(5, dtype=L.complex64),
    lambda L: L.randperm(2 ** 24 + 2, dtype=L.float32), lambda L: L.randperm(-1),
    lambda L: L.normal(0, 1, (2, 3)), lambda L: L.normal(0, 1, size=(2, 3)),
    lambda L: L.normal(L.zeros(3), 1), lambda L: L.normal(L.zeros(3), L.ones(2, 3)),
    lambda L: L.normal(L.zeros(3, dtype=L.float64), 1), lambda L: L.normal(L.zeros(3, dtype=L.int64), 1),
    lambda L: L.normal(0, L.ones(3)), lambda L: L.normal(0, -1, (3,)), lambda L: L.normal(L.zeros(3), -1),
    lambda L: L.normal(0, 1), lambda L: L.normal(L.zeros(3), L.ones(4)),
    lambda L: L.normal(0, 1, (2,), dtype=L.float64), lambda L: L.normal(2.0, L.ones(3, dtype=L.float64)),
    lambda L: L.rand_like(L.zeros(2, 3).t()), lambda L: L.randn_like(L.zeros(2, 3, dtype=L.int32)),
    lambda L: L.randn_like(L.zeros(2, 6)[:, ::2]), lambda L: L.randint_like(L.zeros(2, 3), 10),
    lambda L: L.randint_like(L.zeros(2, 3).t(), 3, 10), lambda L: L.rand(2, generator=5),
    lambda L: L.rand(2, 3, out=L.empty(6)), lambda L: L.rand(2, requires_grad=True).requires_grad,
]


@pytest.mark.parametrize("fn", SHAPES_AND_ERRORS, ids=[f"r{i}" for i in range(len(SHAPES_AND_ERRORS))])
def test_shapes_dtypes_and_errors_match_pytorch(fn):
    same(fn, values=False)


def test_samples_lie_where_they_should():
    tv.manual_seed(3)
    u = tv.rand(10000, dtype=tv.float64).numpy()
    assert u.min() >= 0 and u.max() < 1 and abs(u.mean() - 0.5) < 0.02
    n = tv.randn(20000).numpy()
    assert abs(n.mean()) < 0.05 and abs(n.std() - 1) < 0.05
    k = tv.randint(-3, 4, (10000,)).numpy()
    assert set(np.unique(k).tolist()) == set(range(-3, 4))
    p = tv.randperm(50).numpy()
    assert sorted(p.tolist()) == list(range(50))
    m = tv.normal(tv.tensor([0.0, 100.0]).expand(5000, 2), tv.tensor([1.0, 0.1])).numpy()
    assert abs(m[:, 0].mean()) < 0.1 and abs(m[:, 1].mean() - 100) < 0.01
    c = tv.randn(20000, dtype=tv.complex64).numpy()
    assert abs(np.var(c) - 1) < 0.05  # PyTorch: real and imaginary parts each of variance 1/2
    h = tv.rand(1000, dtype=tv.float16).numpy()
    assert h.dtype == np.float16 and h.min() >= 0 and h.max() < 1


@pytest.mark.parametrize("name", ["rand", "randn"])
def test_size_keyword(name):
    """``rand(size=(2, 3))`` as PyTorch; an int size or sizes given twice are TypeErrors."""
    f = getattr(tv, name)
    assert tuple(f(size=(2, 3)).shape) == tuple(getattr(torch, name)(size=(2, 3)).shape)
    assert tuple(f(size=[4]).shape) == (4,)
    for bad in (lambda lib: getattr(lib, name)(size=3),
                lambda lib: getattr(lib, name)(2, size=(3,))):
        with pytest.raises(TypeError):
            bad(torch)
        with pytest.raises(TypeError):
            bad(tv)


@pytest.mark.parametrize("call", [
    lambda L: L.rand(size=(2, 3)).shape, lambda L: L.randn(size=[2]).shape,
    lambda L: L.rand(size=L.Size([2, 1])).shape, lambda L: L.randn(size=(), dtype=L.float64),
    lambda L: L.rand(size=(2, 3), dtype=L.float64).dtype,
    lambda L: L.randint(5, size=(2, 3)).shape, lambda L: L.randint(low=1, high=5, size=(2,)).shape,
    lambda L: L.randint(high=5, size=(2,)).shape, lambda L: L.randperm(n=3).shape,
    lambda L: L.normal(0.0, 1.0, size=(2, 2)).shape,
    lambda L: L.rand(2, size=(2, 3)), lambda L: L.rand(size=3), lambda L: L.randn(size=None),
    lambda L: L.randn(2, size=[2]), lambda L: L.randn(2, 3, size=None),
    lambda L: L.full(size=(2, 3), fill_value=1.0).shape, lambda L: L.rand([2, 3]).shape,
])
def test_size_keyword_is_taken_as_pytorch(call):
    same(call, values=False)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_normal_of_a_complex_mean_draws_complex_noise_as_pytorch(dtype):
    """normal(complex mean, std) adds complex noise, std^2 split over the two parts (each
    part's spread std / sqrt(2)), as PyTorch; not real noise on the real part only."""
    spreads = []
    for T in (tv, torch):
        T.manual_seed(0)
        mean = T.full((20000,), 1 + 2j, dtype=getattr(T, dtype))
        x = T.normal(mean, 2.0) - mean
        spreads.append((str(x.dtype).rpartition(".")[2], round(float(x.real.std()), 1),
                        round(float(x.imag.std()), 1)))
    assert spreads[0] == spreads[1] == (dtype, 1.4, 1.4)
