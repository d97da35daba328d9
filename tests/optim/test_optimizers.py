"""Every optimizer step for step against PyTorch: same start, same gradients, many steps."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import tensorviz as tv

from ._twins import assert_close, assert_same_state, make_params, set_grads

torch = pytest.importorskip("torch")

SHAPES = [(3, 4), (5,), ()]


def _grid(**options):
    keys = list(options)
    return [dict(zip(keys, vals)) for vals in itertools.product(*options.values())]


def _sgd_cases():
    out = []
    for kw in _grid(lr=[0.05], momentum=[0.0, 0.9], dampening=[0.0, 0.3],
                    nesterov=[False, True], weight_decay=[0.0, 0.01], maximize=[False, True]):
        if kw["nesterov"] and (kw["momentum"] <= 0 or kw["dampening"] != 0):
            continue
        out.append(kw)
    return out


CASES = (
    [("SGD", kw) for kw in _sgd_cases()]
    + [("Adam", kw) for kw in _grid(lr=[1e-2], amsgrad=[False, True], maximize=[False, True],
                                    weight_decay=[0.0, 0.1], betas=[(0.9, 0.999), (0.8, 0.9)])]
    + [("AdamW", kw) for kw in _grid(lr=[1e-2], amsgrad=[False, True], maximize=[False, True],
                                     weight_decay=[0.01, 0.3])]
    + [("RMSprop", kw) for kw in _grid(lr=[1e-2], centered=[False, True],
                                       momentum=[0.0, 0.5], weight_decay=[0.0, 0.1],
                                       maximize=[False, True], alpha=[0.99, 0.9])]
    + [("Adagrad", kw) for kw in _grid(lr=[0.1], lr_decay=[0.0, 0.05],
                                       initial_accumulator_value=[0.0, 0.1],
                                       weight_decay=[0.0, 0.1], maximize=[False, True])]
    + [("Adadelta", kw) for kw in _grid(lr=[1.0, 0.5], rho=[0.9, 0.5],
                                        weight_decay=[0.0, 0.1], maximize=[False, True])]
    + [("Adamax", kw) for kw in _grid(lr=[2e-2], weight_decay=[0.0, 0.1],
                                      maximize=[False, True], betas=[(0.9, 0.999), (0.5, 0.9)])]
    + [("NAdam", kw) for kw in _grid(lr=[2e-2], weight_decay=[0.0, 0.1],
                                     decoupled_weight_decay=[False, True],
                                     momentum_decay=[4e-3, 0.1], maximize=[False, True])]
    + [("RAdam", kw) for kw in _grid(lr=[1e-2], weight_decay=[0.0, 0.1],
                                     decoupled_weight_decay=[False, True],
                                     betas=[(0.9, 0.999), (0.9, 0.8)], maximize=[False, True])]
    + [("Rprop", kw) for kw in _grid(lr=[1e-2, 0.2], etas=[(0.5, 1.2), (0.3, 1.5)],
                                     step_sizes=[(1e-6, 50), (1e-3, 0.05)],
                                     maximize=[False, True])]
    + [("ASGD", kw) for kw in _grid(lr=[1e-2, 0.1], lambd=[1e-4, 0.1], t0=[1e6, 10],
                                    weight_decay=[0.0, 0.1], maximize=[False, True])]
)


def _ids(case):
    name, kw = case
    return name + "-" + ",".join(f"{k}={v}" for k, v in kw.items() if k != "lr")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_steps_match_pytorch(case, dtype):
    name, kw = case
    seed = abs(hash(_ids(case))) % 2**32
    tp, vp = make_params(torch, SHAPES, dtype, seed)
    topt = getattr(torch.optim, name)(tp, **kw)
    vopt = getattr(tv.optim, name)(vp, **kw)
    rng = np.random.default_rng(seed + 1)
    for step in range(40):
        # every fifth step one parameter has no gradient: both must skip it
        missing = (step % 3,) if step % 5 == 4 else ()
        set_grads(torch, tp, vp, rng, dtype, missing)
        topt.step()
        vopt.step()
        for a, b in zip(tp, vp):
            assert_close(a, b, dtype, f"{name} step {step}")
    assert_same_state(topt, vopt, dtype)
    assert [p._version for p in vp] == [p._version for p in tp]
    for b in vp:
        assert b.grad_fn is None and b.is_leaf


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta"])
def test_param_groups_with_own_options(name):
    dtype = "float64"
    tp, vp = make_params(torch, [(4,), (2, 3), (3,)], dtype, 7)
    groups = lambda ps: [{"params": [ps[0], ps[1]]},  # noqa: E731
                         {"params": [ps[2]], "lr": 0.3, "weight_decay": 0.05}]
    kw = {"lr": 0.02} if name != "SGD" else {"lr": 0.02, "momentum": 0.5}
    topt = getattr(torch.optim, name)(groups(tp), **kw)
    vopt = getattr(tv.optim, name)(groups(vp), **kw)
    rng = np.random.default_rng(3)
    for _ in range(25):
        set_grads(torch, tp, vp, rng, dtype)
        topt.step()
        vopt.step()
    for a, b in zip(tp, vp):
        assert_close(a, b, dtype)
    assert_same_state(topt, vopt, dtype)
    assert repr(topt) == repr(vopt)


@pytest.mark.parametrize("name", ["SGD", "Adam", "RMSprop"])
def test_gradients_from_a_loss_and_a_closure(name):
    """The gradients come from backward() of one loss; step(closure) returns its value."""
    dtype = "float32"
    tp, vp = make_params(torch, [(5, 3), (3,)], dtype, 11)
    rng = np.random.default_rng(5)
    x = rng.standard_normal((8, 5)).astype(dtype)
    y = rng.standard_normal((8, 3)).astype(dtype)
    kw = {"lr": 0.05, "momentum": 0.9} if name == "SGD" else {"lr": 0.01}

    def run(lib, ps):
        opt = getattr(lib.optim, name)(ps, **kw)
        xs, ys = lib.tensor(x), lib.tensor(y)
        losses = []

        def closure():
            opt.zero_grad()
            loss = ((xs @ ps[0] + ps[1] - ys) ** 2).mean()
            loss.backward()
            return loss

        for _ in range(30):
            losses.append(opt.step(closure).item())
        return losses

    np.testing.assert_allclose(run(tv, vp), run(torch, tp), rtol=1e-5)
    for a, b in zip(tp, vp):
        assert_close(a, b, dtype)


def test_steps_record_no_graph_and_bump_versions():
    w = tv.tensor([1.0, -2.0, 3.0], requires_grad=True)
    tw = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    for lib, p in ((tv, w), (torch, tw)):
        opt = lib.optim.Adam([p], lr=0.1)
        (p * p).sum().backward()
        before = p._version
        opt.step()
        assert p.grad_fn is None and p.is_leaf and p.requires_grad
        assert p._version > before
    assert w._version == tw._version
    assert lib.is_grad_enabled()


@pytest.mark.parametrize("set_to_none", [True, False])
def test_zero_grad(set_to_none):
    results = []
    for lib in (torch, tv):
        w = lib.tensor([1.0, 2.0], requires_grad=True)
        opt = lib.optim.SGD([w], lr=0.1, momentum=0.9)
        (w * 3).sum().backward()
        opt.zero_grad(set_to_none=set_to_none)
        results.append(None if w.grad is None else w.grad.tolist())
        # a zero gradient still takes a step through momentum; None skips it
        (w * 3).sum().backward()
        opt.step()
        opt.zero_grad(set_to_none=set_to_none)
        opt.step()
        results.append(w.tolist())
    assert results[:2] == results[2:]
    assert (results[0] is None) == set_to_none


def test_hypothesis_random_hyperparameters():
    hyp = pytest.importorskip("hypothesis")
    st = hyp.strategies

    @hyp.settings(max_examples=40, deadline=None)
    @hyp.given(name=st.sampled_from(["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta"]),
               lr=st.floats(1e-4, 0.5), wd=st.sampled_from([0.0, 1e-3, 0.2]),
               flag=st.booleans(), mom=st.floats(0.0, 0.95), seed=st.integers(0, 2**31),
               steps=st.integers(1, 25))
    def run(name, lr, wd, flag, mom, seed, steps):
        kw = {"lr": lr, "weight_decay": wd, "maximize": flag}
        if name == "SGD":
            kw.update(momentum=mom, nesterov=flag and mom > 0)
        elif name in ("Adam", "AdamW"):
            kw.update(amsgrad=not flag, betas=(mom, 0.99))
        elif name == "RMSprop":
            kw.update(momentum=mom, centered=not flag)
        elif name == "Adagrad":
            kw.update(lr_decay=mom / 10, initial_accumulator_value=mom)
        else:
            kw.update(rho=mom)
        tp, vp = make_params(torch, [(2, 3), (4,)], "float64", seed)
        topt = getattr(torch.optim, name)(tp, **kw)
        vopt = getattr(tv.optim, name)(vp, **kw)
        rng = np.random.default_rng(seed)
        for _ in range(steps):
            set_grads(torch, tp, vp, rng, "float64")
            topt.step()
            vopt.step()
        for a, b in zip(tp, vp):
            assert_close(a, b, "float64")
        assert_same_state(topt, vopt, "float64")

    run()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kw", _sgd_cases(), ids=str)
def test_sgd_is_bit_exact(kw, dtype):
    """SGD uses no square root, so following ATen's order and its fused multiply-adds gives
    PyTorch's bits exactly (the others differ where PyTorch's vectorised sqrt does)."""
    tp, vp = make_params(torch, SHAPES, dtype, 99)
    topt, vopt = torch.optim.SGD(tp, **kw), tv.optim.SGD(vp, **kw)
    rng = np.random.default_rng(98)
    for _ in range(60):
        set_grads(torch, tp, vp, rng, dtype)
        topt.step()
        vopt.step()
    for a, b in zip(tp, vp):
        np.testing.assert_array_equal(b.detach().numpy(), a.detach().numpy())


@pytest.mark.parametrize("case", CASES[::3], ids=[_ids(c) for c in CASES[::3]])
def test_tensor_op_path_matches_pytorch(case, monkeypatch):
    """The tensor-op formulas (used for differentiable=True and complex parameters) agree
    too: force them by declaring the array path unusable."""
    from tensorviz.optim import _arrays
    monkeypatch.setattr(_arrays, "usable", lambda *a, **k: False)
    name, kw = case
    dtype = "float64"
    tp, vp = make_params(torch, SHAPES, dtype, 5)
    topt = getattr(torch.optim, name)(tp, **kw)
    vopt = getattr(tv.optim, name)(vp, **kw)
    rng = np.random.default_rng(6)
    for _ in range(15):
        set_grads(torch, tp, vp, rng, dtype)
        topt.step()
        vopt.step()
    for a, b in zip(tp, vp):
        assert_close(a, b, dtype)
    assert_same_state(topt, vopt, dtype)
    assert [p._version for p in vp] == [p._version for p in tp]


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta"])
def test_non_contiguous_parameters(name):
    """A parameter that is a transposed leaf is updated in place through its strides; the
    state tensors keep the parameter's layout (preserve_format), as PyTorch's."""
    rng = np.random.default_rng(1)
    base = rng.standard_normal((4, 3))
    tp = [torch.tensor(base.copy()).t().detach().requires_grad_()]
    vp = [tv.tensor(base.copy()).t().detach().requires_grad_()]
    kw = {"lr": 0.05, "momentum": 0.9} if name == "SGD" else {"lr": 0.05}
    topt = getattr(torch.optim, name)(tp, **kw)
    vopt = getattr(tv.optim, name)(vp, **kw)
    for _ in range(10):
        set_grads(torch, tp, vp, rng, "float64")
        topt.step()
        vopt.step()
    assert vp[0].stride() == tp[0].stride() == (1, 3)
    assert_close(tp[0], vp[0], "float64")
    for key, value in topt.state[tp[0]].items():
        if key != "step" and key != "momentum_buffer":
            assert vopt.state[vp[0]][key].stride() == value.stride(), key


@pytest.mark.parametrize("name", ["SGD", "Adam", "RMSprop", "Adagrad", "Adadelta"])
def test_tensor_learning_rate(name):
    tp, vp = make_params(torch, [(3,)], "float64", 2)
    topt = getattr(torch.optim, name)(tp, lr=torch.tensor(0.03, dtype=torch.float64))
    vopt = getattr(tv.optim, name)(vp, lr=tv.tensor(0.03, dtype=tv.float64))
    rng = np.random.default_rng(3)
    for _ in range(10):
        set_grads(torch, tp, vp, rng, "float64")
        topt.step()
        vopt.step()
    assert_close(tp[0], vp[0], "float64")
    sched_t = torch.optim.lr_scheduler.ExponentialLR(topt, 0.5)
    sched_v = tv.optim.lr_scheduler.ExponentialLR(vopt, 0.5)
    topt.step()
    vopt.step()
    sched_t.step()
    sched_v.step()
    assert [x.item() for x in sched_v.get_last_lr()] == [x.item() for x in sched_t.get_last_lr()]
    assert isinstance(vopt.param_groups[0]["lr"], tv.Tensor)


@pytest.mark.parametrize("name", ["SGD", "Adam", "RMSprop", "Adagrad", "Adadelta"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_divergence_reaches_inf_and_nan_silently(name, dtype):
    """Huge gradients overflow to inf/nan without warnings, where PyTorch's do."""
    big = {"float32": 3e38, "float64": 1e308}[dtype]
    out = []
    for lib in (torch, tv):
        w = lib.tensor(np.array([1.0, -1.0, big, 0.0], dtype=dtype), requires_grad=True)
        opt = getattr(lib.optim, name)([w], lr=1e3,
                                       **({"centered": True} if name == "RMSprop" else {}))
        for g in ([big, -big, big, 0.0], [float("inf"), 1.0, -big, float("nan")]):
            w.grad = lib.tensor(np.array(g, dtype=dtype))
            opt.step()
        out.append(w.detach().numpy())
    np.testing.assert_array_equal(np.isnan(out[1]), np.isnan(out[0]))
    np.testing.assert_array_equal(np.isinf(out[1]), np.isinf(out[0]))


DIFFERENTIABLE = [("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True}),
                  ("Adam", {"lr": 0.1}), ("Adam", {"lr": 0.1, "amsgrad": True}),
                  ("AdamW", {"lr": 0.1}), ("RMSprop", {"lr": 0.1}),
                  ("RMSprop", {"lr": 0.1, "centered": True, "momentum": 0.5}),
                  ("Adagrad", {"lr": 0.1, "weight_decay": 0.1}), ("Adadelta", {})]


@pytest.mark.filterwarnings("ignore:The .grad attribute of a Tensor that is not a leaf")
@pytest.mark.parametrize("name,kw", DIFFERENTIABLE, ids=[str(c) for c in DIFFERENTIABLE])
def test_differentiable_steps_record_the_same_graph(name, kw):
    """differentiable=True: two steps on a non-leaf parameter are recorded, and gradients
    flow back to the parameter's source and to the gradient itself, as in PyTorch (or fail
    with the same saved-tensor error where PyTorch's in-place writes make them fail)."""
    out = []
    for lib in (torch, tv):
        leaf = lib.tensor([1.0, -2.0, 3.0], dtype=lib.float64, requires_grad=True)
        g = lib.tensor([0.5, 0.25, -1.0], dtype=lib.float64, requires_grad=True)
        w = leaf.clone()
        w.grad = g * 1.0
        opt = getattr(lib.optim, name)([w], differentiable=True, **kw)
        opt.step()
        w.grad = g * 2.0
        opt.step()
        try:
            (w * w).sum().backward()
        except RuntimeError as exc:
            out.append(("error", str(exc).split(":")[0]))
            continue
        out.append((w.tolist(), leaf.grad.tolist(), g.grad.tolist()))
    if out[0][0] == "error":
        assert out[1] == out[0]
    else:
        for a, b in zip(out[0], out[1]):
            np.testing.assert_allclose(b, a, rtol=1e-10, atol=1e-12)
