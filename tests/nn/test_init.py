"""nn.init against PyTorch: in place, no graph, the right shapes and distributions
(statistics, not seeded values: tensorviz draws its own stream on purpose), calculate_gain,
fans and their errors."""
from __future__ import annotations

import math

import numpy as np
import pytest

import tensorviz
from nn_harness import same_error

torch = pytest.importorskip("torch")
init = tensorviz.nn.init


@pytest.mark.parametrize("nl,param", [
    ("linear", None), ("conv1d", None), ("conv2d", None), ("conv3d", None),
    ("conv_transpose2d", None), ("sigmoid", None), ("tanh", None), ("relu", None),
    ("leaky_relu", None), ("leaky_relu", 0.2), ("leaky_relu", 3), ("selu", None),
])
def test_calculate_gain(nl, param):
    assert init.calculate_gain(nl, param) == torch.nn.init.calculate_gain(nl, param)


def test_calculate_gain_errors():
    for nl, param in (("leaky_relu", "x"), ("leaky_relu", True), ("nope", None)):
        same_error(lambda: torch.nn.init.calculate_gain(nl, param),
                   lambda: init.calculate_gain(nl, param))


@pytest.mark.parametrize("shape", [(3, 5), (4, 2, 3, 3), (6, 3, 2), (7,), ()])
def test_fans(shape):
    if len(shape) < 2:
        same_error(lambda: torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(shape)),
                   lambda: init._calculate_fan_in_and_fan_out(tensorviz.empty(shape)))
        same_error(lambda: torch.nn.init.xavier_uniform_(torch.empty(shape)),
                   lambda: init.xavier_uniform_(tensorviz.empty(shape)))
    else:
        assert init._calculate_fan_in_and_fan_out(tensorviz.empty(shape)) == \
            torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(shape))


N = 200_000


def _stats(a):
    a = np.asarray(a, dtype=np.float64).ravel()
    return a.mean(), a.std(), a.min(), a.max()


def _close_std(got, want, rel=0.02):
    assert abs(got - want) <= rel * want, (got, want)


@pytest.mark.parametrize("case", [
    ("uniform_", {"a": -2.0, "b": 3.0}, "uniform", (-2.0, 3.0)),
    ("normal_", {"mean": 1.5, "std": 0.5}, "normal", (1.5, 0.5)),
    ("xavier_uniform_", {"gain": 2.0}, "uniform", None),
    ("xavier_normal_", {}, "normal", None),
    ("kaiming_uniform_", {"a": math.sqrt(5)}, "uniform", None),
    ("kaiming_uniform_", {"mode": "fan_out", "nonlinearity": "relu"}, "uniform", None),
    ("kaiming_normal_", {}, "normal", None),
    ("kaiming_normal_", {"a": 0.1, "mode": "fan_out", "nonlinearity": "leaky_relu"},
     "normal", None),
    ("trunc_normal_", {"mean": 0.5, "std": 1.0, "a": -1.0, "b": 1.5}, "trunc", None),
])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_distributions(case, dtype):
    name, kw, kind, _ = case
    shape = (400, 500)
    t = tensorviz.empty(shape, dtype=getattr(tensorviz, dtype), requires_grad=True)
    p = torch.empty(shape, dtype=getattr(torch, dtype))
    with tensorviz.no_grad():
        out = getattr(init, name)(t, **kw)
    getattr(torch.nn.init, name)(p, **kw)
    assert out is t and t.grad_fn is None and t.requires_grad  # in place, no graph
    assert t.dtype == getattr(tensorviz, dtype) and tuple(t.shape) == shape
    tm, ts, tmin, tmax = _stats(t.detach().numpy())
    pm, ps, pmin, pmax = _stats(p.numpy())
    _close_std(ts, ps)
    assert abs(tm - pm) < 0.02 * ps + 1e-3
    if kind in ("uniform", "trunc"):
        # the same support: PyTorch's draw fills it to within a hair of both ends
        slack = 1e-3 * (pmax - pmin)
        assert pmin - slack <= tmin and tmax <= pmax + slack
        assert tmin - pmin < 0.01 * (pmax - pmin) and pmax - tmax < 0.01 * (pmax - pmin)


def test_init_under_grad_mode_records_nothing():
    w = tensorviz.nn.Parameter(tensorviz.empty(3, 4))
    for fn in (init.uniform_, init.normal_, init.xavier_uniform_, init.kaiming_normal_,
               init.orthogonal_, init.zeros_, init.ones_, init.eye_,
               lambda t: init.constant_(t, 0.3), init.trunc_normal_):
        assert fn(w) is w
        assert w.grad_fn is None and w.is_leaf and w.requires_grad


def test_constant_ones_zeros_eye_dirac():
    for fn, args, shape in (("constant_", (0.25,), (2, 3)), ("ones_", (), (3,)),
                            ("zeros_", (), (2, 2)), ("eye_", (), (3, 5)), ("eye_", (), (4, 2)),
                            ("dirac_", (), (4, 2, 3)), ("dirac_", (), (4, 4, 3, 3)),
                            ("dirac_", (2,), (6, 3, 3, 3))):
        p = getattr(torch.nn.init, fn)(torch.empty(shape), *args)
        t = getattr(init, fn)(tensorviz.empty(shape), *args)
        np.testing.assert_array_equal(t.numpy(), p.numpy())
    same_error(lambda: torch.nn.init.eye_(torch.empty(2, 2, 2)),
               lambda: init.eye_(tensorviz.empty(2, 2, 2)))
    same_error(lambda: torch.nn.init.dirac_(torch.empty(2, 2)),
               lambda: init.dirac_(tensorviz.empty(2, 2)))


@pytest.mark.parametrize("shape,gain", [((5, 5), 1.0), ((3, 7), 2.0), ((8, 3), 0.5),
                                        ((4, 2, 3), 1.0)])
def test_orthogonal(shape, gain):
    t = init.orthogonal_(tensorviz.empty(shape, dtype=tensorviz.float64), gain=gain).numpy()
    flat = t.reshape(shape[0], -1)
    rows, cols = flat.shape
    g = flat @ flat.T if rows <= cols else flat.T @ flat
    np.testing.assert_allclose(g, gain ** 2 * np.eye(min(rows, cols)), atol=1e-10)
    same_error(lambda: torch.nn.init.orthogonal_(torch.empty(3)),
               lambda: init.orthogonal_(tensorviz.empty(3)))


def test_sparse():
    t = init.sparse_(tensorviz.empty(10, 6), sparsity=0.3, std=0.01).numpy()
    assert ((t == 0).sum(0) == 3).all()
    same_error(lambda: torch.nn.init.sparse_(torch.empty(2, 2, 2), 0.5),
               lambda: init.sparse_(tensorviz.empty(2, 2, 2), 0.5))


def test_kaiming_zero_element_warning_and_mode_error():
    import warnings
    msgs = []
    for lib, mod in ((torch, torch.nn.init), (tensorviz, init)):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            mod.kaiming_uniform_(lib.empty(0, 3))
        msgs.append([str(x.message) for x in w])
    assert msgs[1] == msgs[0]
    same_error(lambda: torch.nn.init.kaiming_uniform_(torch.empty(2, 2), mode="fan"),
               lambda: init.kaiming_uniform_(tensorviz.empty(2, 2), mode="fan"))
