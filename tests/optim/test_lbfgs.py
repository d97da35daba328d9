"""LBFGS against PyTorch's: the iterates, the evaluation counts, the errors."""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz as tv

torch = pytest.importorskip("torch")


def _rosenbrock_run(lib, dtype, kw, start, steps=3):
    x = lib.tensor(start, dtype=getattr(lib, dtype), requires_grad=True)
    opt = lib.optim.LBFGS([x], **kw)
    losses = []

    def closure():
        opt.zero_grad()
        loss = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2 + (x[2:] ** 2).sum()
        loss.backward()
        return loss

    for _ in range(steps):
        losses.append(float(opt.step(closure)))
    st = opt.state[opt._params[0]]
    return x.tolist(), losses, st["func_evals"], st["n_iter"], repr(opt)


@pytest.mark.filterwarnings("ignore:Converting a tensor with requires_grad=True to a scalar")
@pytest.mark.parametrize("kw", [
    {"lr": 1, "line_search_fn": "strong_wolfe"},
    {"lr": 0.5},
    {"lr": 1, "history_size": 3, "max_iter": 7, "line_search_fn": "strong_wolfe"},
    {"lr": 0.1, "max_eval": 10, "tolerance_change": 1e-5},
], ids=str)
@pytest.mark.parametrize("dtype", ["float64"])
def test_lbfgs_matches_pytorch(kw, dtype):
    start = [-1.5, 2.0, 0.3, -0.7]
    want = _rosenbrock_run(torch, dtype, kw, start)
    got = _rosenbrock_run(tv, dtype, kw, start)
    assert got[2:] == want[2:]  # evaluation and iteration counts, repr
    # Rosenbrock's valley amplifies last-bit differences of the elementwise kernels over
    # the line searches; the counts and the path agree, the values to these tolerances.
    rtol = 1e-4 if dtype == "float64" else 2e-2
    np.testing.assert_allclose(got[0], want[0], rtol=rtol, atol=rtol)
    np.testing.assert_allclose(got[1], want[1], rtol=rtol, atol=rtol)


def test_lbfgs_refuses_parameter_groups_and_unknown_line_search():
    messages = []
    for lib in (torch, tv):
        a = lib.zeros(2, requires_grad=True)
        b = lib.zeros(2, requires_grad=True)
        with pytest.raises(ValueError) as info:
            lib.optim.LBFGS([{"params": [a]}, {"params": [b]}])
        messages.append(str(info.value))
        opt = lib.optim.LBFGS([a], line_search_fn="armijo")
        a.grad = lib.ones(2)
        with pytest.raises(RuntimeError) as info:
            opt.step(lambda: (a * a).sum())
        messages.append(str(info.value))
    assert messages[:2] == messages[2:]


# --- Every iterate and the whole state, on several deterministic problems ----------------------

def _problem(lib, name, seed):
    """Parameters and a loss function of them, the same in both libraries."""
    rng = np.random.default_rng(seed)
    f64 = lib.float64
    if name == "rosenbrock":
        x = lib.tensor([-1.5, 2.0, 0.3, -0.7], dtype=f64, requires_grad=True)
        return [x], lambda: (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2 + (x[2:] ** 2).sum()
    if name == "quadratic":
        m = rng.standard_normal((6, 6))
        a = lib.tensor(m @ m.T + 0.5 * np.eye(6), dtype=f64)
        b = lib.tensor(rng.standard_normal(6), dtype=f64)
        x = lib.tensor(rng.standard_normal(6), dtype=f64, requires_grad=True)
        return [x], lambda: 0.5 * (x @ (a @ x)) - (b * x).sum()
    if name == "nonconvex":
        # Wells of a cosine inside a quartic bowl: line searches meet cubics without a minimum.
        x = lib.tensor(rng.uniform(-2, 2, 5), dtype=f64, requires_grad=True)
        return [x], lambda: (lib.cos(3 * x) + 0.05 * x ** 4 + 0.3 * x).sum()
    # A small least-squares model with two parameters (weight matrix and bias).
    xs = lib.tensor(rng.standard_normal((20, 3)), dtype=f64)
    ys = lib.tensor(rng.standard_normal((20, 2)), dtype=f64)
    w = lib.tensor(rng.standard_normal((3, 2)), dtype=f64, requires_grad=True)
    c = lib.zeros(2, dtype=f64, requires_grad=True)
    return [w, c], lambda: ((xs @ w + c - ys) ** 2).mean()


def _flatten_state(value, numbers):
    """The state's structure (types, dtypes, shapes), its numbers appended to ``numbers``."""
    if isinstance(value, (list, tuple)):
        return [_flatten_state(v, numbers) for v in value]
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return ("int", value)  # counts (func_evals, n_iter) and the first H_diag: exact
    if isinstance(value, float):
        numbers.append(value)
        return "float"
    numbers.extend(np.asarray(value.detach().numpy(), dtype=np.float64).ravel().tolist())
    return ("tensor", str(value.dtype).split(".")[-1], tuple(value.shape))


STATE_KEYS = ["func_evals", "n_iter", "d", "t", "old_dirs", "old_stps", "ro", "H_diag",
              "prev_flat_grad", "prev_loss", "al"]


def _lbfgs_path(lib, name, kw, steps, seed=0):
    params, loss_fn = _problem(lib, name, seed)
    opt = lib.optim.LBFGS(params, **kw)

    def closure():
        opt.zero_grad()
        loss = loss_fn()
        loss.backward()
        return loss

    path = []
    for _ in range(steps):
        loss = opt.step(closure)
        st = opt.state[params[0]]
        numbers = []
        shape = [(k, _flatten_state(st[k], numbers)) for k in STATE_KEYS if k in st]
        iterate = [float(loss)] + [v for p in params for v in p.detach().numpy().ravel()]
        path.append((sorted(st), shape, numbers, iterate))
    return path, opt


LBFGS_SETTINGS = [
    {},
    {"line_search_fn": "strong_wolfe"},
    {"lr": 0.3, "history_size": 3},
    {"lr": 0.8, "history_size": 2, "max_iter": 9, "line_search_fn": "strong_wolfe"},
    {"max_iter": 5, "max_eval": 6, "tolerance_change": 1e-6},
    {"max_iter": 30, "max_eval": 12, "line_search_fn": "strong_wolfe"},
    {"tolerance_grad": 1e-3, "max_iter": 50, "line_search_fn": "strong_wolfe"},
    {"lr": 0.05, "max_iter": 3},
    # Line searches starting far too short (extrapolation), far too long (zoom), and cut
    # short by max_eval.
    {"lr": 0.01, "line_search_fn": "strong_wolfe"},
    {"lr": 30.0, "line_search_fn": "strong_wolfe", "history_size": 4},
    {"lr": 1e-3, "max_eval": 4, "line_search_fn": "strong_wolfe"},
    {"lr": 5.0, "max_iter": 8, "max_eval": 9, "line_search_fn": "strong_wolfe"},
    {"lr": 300.0, "line_search_fn": "strong_wolfe", "tolerance_change": 1e-4},
]


# Runs whose later iterations are driven by rounding: converged to ~1e-8 within the first
# step (ro = 1/(y.s) ~ 1e9), or through the cosine wells, where a last-bit difference of an
# elementwise kernel picks a different path. They are left out rather than loosened.
# (quadratic with history 2 and lr 0.8: its third step's ro = 1/(y.s) is 4.7e8, whose
# rounding, 1e-13 at the first step, reaches 3e-5 of the state by the fourth.)
_CHAOTIC = {("least_squares", str(LBFGS_SETTINGS[8])), ("nonconvex", str(LBFGS_SETTINGS[2])),
            ("nonconvex", str(LBFGS_SETTINGS[11])), ("quadratic", str(LBFGS_SETTINGS[3]))}
_LBFGS_CASES = [(name, kw) for name in ["quadratic", "least_squares", "nonconvex", "rosenbrock"]
                for kw in LBFGS_SETTINGS if (name, str(kw)) not in _CHAOTIC]


@pytest.mark.filterwarnings("ignore:Converting a tensor with requires_grad=True to a scalar")
@pytest.mark.parametrize("name,kw", _LBFGS_CASES, ids=str)
def test_lbfgs_every_iterate_and_state_match_pytorch(name, kw):
    steps = 3 if name == "rosenbrock" else 5
    want, topt = _lbfgs_path(torch, name, kw, steps)
    got, vopt = _lbfgs_path(tv, name, kw, steps)
    # The counts and the layout agree exactly. Values to a tolerance: Rosenbrock's valley
    # amplifies last-bit differences of the elementwise kernels over the line searches, and
    # near a minimum ro = 1/(y.s) magnifies the rounding of tiny differences.
    state_tol, iterate_tol = (1e-2, 1e-4) if name == "rosenbrock" else (1e-7, 1e-9)
    for step, (g, w) in enumerate(zip(got, want)):
        assert g[:2] == w[:2], f"state layout after step {step}"
        np.testing.assert_allclose(g[2], w[2], rtol=state_tol, atol=state_tol,
                                   err_msg=f"state after step {step}")
        np.testing.assert_allclose(g[3], w[3], rtol=iterate_tol, atol=iterate_tol,
                                   err_msg=f"loss and parameters after step {step}")
    assert repr(vopt) == repr(topt)
    assert vopt.state_dict()["param_groups"] == topt.state_dict()["param_groups"]


@pytest.mark.filterwarnings("ignore:Converting a tensor with requires_grad=True to a scalar")
def test_lbfgs_returns_at_once_from_a_stationary_point_as_pytorch():
    def run(lib):
        x = lib.zeros(3, dtype=lib.float64, requires_grad=True)
        opt = lib.optim.LBFGS([x])
        calls = []

        def closure():
            calls.append(1)
            opt.zero_grad()
            loss = (x ** 2).sum()
            loss.backward()
            return loss

        loss = opt.step(closure)
        return float(loss), len(calls), sorted(opt.state[x]), x.tolist()

    assert run(tv) == run(torch)


def _torch_lbfgs():
    import importlib
    return importlib.import_module("torch.optim.lbfgs")


def _wiggly(rng):
    """A random smooth 1-D function (cosine wells in a bowl) and its derivative, in floats."""
    a, b, c, e = rng.uniform(0.1, 2), rng.uniform(0.5, 6), rng.uniform(0, 1), rng.uniform(0, .1)

    def f(x):
        return a * np.cos(b * x) + c * x ** 2 + e * x ** 4

    def df(x):
        return -a * b * np.sin(b * x) + 2 * c * x + 4 * e * x ** 3

    return f, df


def _line_search(lib, seed):
    """One strong-Wolfe search on a random 1-D function, evaluated in NumPy so that both
    libraries see the same numbers."""
    from tensorviz.optim import lbfgs as ours
    rng = np.random.default_rng([seed, 5])
    f, df = _wiggly(rng)
    x0 = rng.uniform(-3, 3)
    scale = 10 ** rng.uniform(-1, 1)
    d = lib.tensor([-np.sign(df(x0)) * scale], dtype=lib.float64)
    g = lib.tensor([df(x0)], dtype=lib.float64)
    gtd = g.dot(d)
    t = float(10 ** rng.uniform(-3, 2))
    kw = dict(tolerance_change=float(10 ** rng.uniform(-9, 0)),
              max_ls=int(rng.integers(1, 25)))

    def at(step):
        x = x0 + float(step) * float(d[0])
        return float(f(x)), lib.tensor([df(x)], dtype=lib.float64)

    if lib is torch:
        out = _torch_lbfgs()._strong_wolfe(lambda x, s, dd: at(s), None, t, d, float(f(x0)),
                                              g, gtd, **kw)
    else:
        out = ours._strong_wolfe(at, t, d, float(f(x0)), g, gtd, **kw)
    loss, grad, step, evals = out
    return loss, grad.tolist(), type(step).__name__, float(step), evals


@pytest.mark.parametrize("seed", range(300))
def test_strong_wolfe_search_matches_pytorch(seed):
    got, want = _line_search(tv, seed), _line_search(torch, seed)
    assert (got[2], got[4]) == (want[2], want[4])  # the step's type, the evaluations
    # A few searches end a last bit apart: 0-d tensor arithmetic (the cubic's d1 ** 2 - g1 g2
    # and its square root) rounds differently here in rare cases.
    np.testing.assert_allclose([got[0], *got[1], got[3]], [want[0], *want[1], want[3]],
                               rtol=1e-13, atol=0)


def test_cubic_interpolation_matches_pytorch_exactly():
    from tensorviz.optim import lbfgs as ours
    rng = np.random.default_rng(9)
    for _ in range(500):
        x1, x2 = rng.uniform(-3, 3, 2)
        f1, f2, g1, g2 = rng.standard_normal(4) * 3
        bounds = None if rng.random() < 0.5 else tuple(sorted(rng.uniform(-5, 5, 2)))
        want = _torch_lbfgs()._cubic_interpolate(
            float(x1), float(f1), torch.tensor(g1), float(x2), float(f2), torch.tensor(g2),
            bounds)
        got = ours._cubic_minimum(float(x1), float(f1), tv.tensor(g1), float(x2), float(f2),
                                  tv.tensor(g2), bounds)
        assert (type(got).__name__, float(got)) == (type(want).__name__, float(want))
