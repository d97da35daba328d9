"""Optimizer checkpoints: PyTorch's state_dict layout, and files that cross between
tensorviz and PyTorch (tensorviz.save -> torch.load -> torch optimizer, and back)."""
from __future__ import annotations

import copy
import io

import numpy as np
import pytest

import tensorviz as tv

from ._twins import assert_close, assert_same_state, make_params, set_grads

torch = pytest.importorskip("torch")

OPTIMIZERS = [
    ("SGD", {"lr": 0.05, "momentum": 0.9, "nesterov": True}),
    ("Adam", {"lr": 1e-2, "amsgrad": True}),
    ("AdamW", {"lr": 1e-2, "weight_decay": 0.1}),
    ("RMSprop", {"lr": 1e-2, "momentum": 0.3, "centered": True}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.01, "initial_accumulator_value": 0.1}),
    ("Adadelta", {"lr": 1.0, "weight_decay": 0.01}),
    ("Adamax", {"lr": 2e-2}),
    ("NAdam", {"lr": 2e-2, "decoupled_weight_decay": True, "weight_decay": 0.1}),
    ("RAdam", {"lr": 1e-2, "betas": (0.9, 0.8)}),
    ("Rprop", {"lr": 0.05}),
    ("ASGD", {"lr": 0.05, "t0": 3}),
]
IDS = [o[0] for o in OPTIMIZERS]
SHAPES = [(3, 2), (4,)]


def _groups(ps):
    return [{"params": [ps[0]]}, {"params": [ps[1]], "lr": 0.02}]


def _run(torch_opt, tv_opt, tp, vp, rng, steps, dtype="float32"):
    for _ in range(steps):
        set_grads(torch, tp, vp, rng, dtype)
        torch_opt.step()
        tv_opt.step()


@pytest.mark.parametrize("name,kw", OPTIMIZERS, ids=IDS)
def test_state_dict_layout_matches_pytorch(name, kw):
    tp, vp = make_params(torch, SHAPES, "float32", 1)
    topt = getattr(torch.optim, name)(_groups(tp), **kw)
    vopt = getattr(tv.optim, name)(_groups(vp), **kw)
    _run(topt, vopt, tp, vp, np.random.default_rng(2), 3)
    tsd, vsd = topt.state_dict(), vopt.state_dict()
    assert list(vsd) == ["state", "param_groups"]
    assert vsd["param_groups"] == tsd["param_groups"]
    assert [list(g) for g in vsd["param_groups"]] == [list(g) for g in tsd["param_groups"]]
    assert_same_state(topt, vopt, "float32")
    if "step" in vsd["state"][0]:
        step = vsd["state"][0]["step"]
        assert isinstance(step, tv.Tensor) and step.dtype == tv.float32 and step.dim() == 0
    # the state dict holds the live state tensors, as PyTorch's does
    key = next(iter(vsd["state"][0]))
    assert vsd["state"][0][key] is vopt.state[vp[0]][key]


@pytest.mark.parametrize("name,kw", OPTIMIZERS, ids=IDS)
def test_tensorviz_checkpoint_continues_in_pytorch(name, kw, tmp_path):
    """Train 5 steps here, save with tensorviz.save, resume in real PyTorch: the next 10
    steps match a run that stayed in PyTorch throughout."""
    tp, vp = make_params(torch, SHAPES, "float32", 3)
    topt = getattr(torch.optim, name)(_groups(tp), **kw)
    vopt = getattr(tv.optim, name)(_groups(vp), **kw)
    rng = np.random.default_rng(4)
    _run(topt, vopt, tp, vp, rng, 5)

    path = tmp_path / "opt.pt"
    tv.save({"params": [p.detach() for p in vp], "optim": vopt.state_dict()}, path)
    ckpt = torch.load(path, weights_only=True)
    resumed = [torch.tensor(a.numpy(), requires_grad=True) for a in ckpt["params"]]
    ropt = getattr(torch.optim, name)(_groups(resumed), **kw)
    ropt.load_state_dict(ckpt["optim"])
    assert ropt.state_dict()["param_groups"] == topt.state_dict()["param_groups"]

    for _ in range(10):
        g = [rng.standard_normal(s).astype("float32") for s in SHAPES]
        for p, q, gi in zip(tp, resumed, g):
            p.grad = torch.tensor(gi)
            q.grad = torch.tensor(gi)
        topt.step()
        ropt.step()
    for a, b in zip(tp, resumed):
        assert_close(a, b, "float32")


@pytest.mark.parametrize("name,kw", OPTIMIZERS, ids=IDS)
def test_pytorch_checkpoint_continues_in_tensorviz(name, kw):
    tp, vp = make_params(torch, SHAPES, "float64", 5)
    topt = getattr(torch.optim, name)(_groups(tp), **kw)
    rng = np.random.default_rng(6)
    for _ in range(4):
        for p in tp:
            p.grad = torch.tensor(rng.standard_normal(tuple(p.shape)))
        topt.step()
    for a, b in zip(tp, vp):
        b.data.copy_(tv.tensor(a.detach().numpy()))

    buf = io.BytesIO()
    torch.save(topt.state_dict(), buf)
    buf.seek(0)
    vopt = getattr(tv.optim, name)(_groups(vp), **kw)
    vopt.load_state_dict(tv.load(buf))
    # PyTorch resumes from the same file too (loading casts state such as NAdam's
    # mu_product to the parameters' dtype, on both sides)
    buf.seek(0)
    topt.load_state_dict(torch.load(buf, weights_only=True))
    assert_same_state(topt, vopt, "float64", versions=False)
    if "step" in vopt.state[vp[0]]:
        assert vopt.state[vp[0]]["step"].dtype == tv.float32
    _run(topt, vopt, tp, vp, rng, 10, "float64")
    for a, b in zip(tp, vp):
        assert_close(a, b, "float64")


def test_load_casts_state_to_the_parameters_dtype():
    for lib in (torch, tv):
        w = lib.zeros(3, dtype=lib.float64, requires_grad=True)
        src = lib.zeros(3, requires_grad=True)
        a = lib.optim.Adam([src])
        src.grad = lib.ones(3)
        a.step()
        b = lib.optim.Adam([w])
        b.load_state_dict(a.state_dict())
        assert b.state[w]["exp_avg"].dtype == lib.float64
        assert b.state[w]["step"].dtype == lib.float32  # step counters keep their dtype


def test_state_dict_round_trip_within_tensorviz_is_independent_of_the_dict():
    w = tv.tensor([1.0, 2.0], requires_grad=True)
    opt = tv.optim.SGD([w], lr=0.1, momentum=0.9)
    w.grad = tv.tensor([1.0, 1.0])
    opt.step()
    sd = copy.deepcopy(opt.state_dict())
    opt2 = tv.optim.SGD([w], lr=0.5)
    opt2.load_state_dict(sd)
    assert opt2.param_groups[0]["lr"] == 0.1 and opt2.param_groups[0]["params"][0] is w
    assert opt2.state[w]["momentum_buffer"].tolist() == [1.0, 1.0]
    sd["param_groups"][0]["lr"] = 9.0
    assert opt2.param_groups[0]["lr"] == 0.1


@pytest.mark.parametrize("change,message", [
    (lambda sd: sd["param_groups"].append({"params": []}),
     "loaded state dict has a different number of parameter groups"),
    (lambda sd: sd["param_groups"][0]["params"].append(7),
     "loaded state dict contains a parameter group that doesn't match the size of "
     "optimizer's group"),
])
def test_load_state_dict_errors(change, message):
    errors = []
    for lib in (torch, tv):
        w = lib.zeros(2, requires_grad=True)
        opt = lib.optim.SGD([w], lr=0.1)
        sd = opt.state_dict()
        change(sd)
        with pytest.raises(ValueError) as info:
            opt.load_state_dict(sd)
        errors.append(str(info.value))
    assert errors[0] == errors[1] == message


def test_named_parameters_keep_their_names():
    for lib in (torch, tv):
        w = lib.zeros(2, requires_grad=True)
        b = lib.zeros(1, requires_grad=True)
        opt = lib.optim.Adam([("w", w), ("b", b)])
        assert opt.state_dict()["param_groups"][0]["param_names"] == ["w", "b"]
        assert opt.state_dict()["param_groups"][0]["params"] == [0, 1]


@pytest.mark.parametrize("name,kw", OPTIMIZERS, ids=IDS)
def test_older_state_gains_defaults_and_tensor_counts_as_in_pytorch(name, kw):
    """A state_dict from an older release (group options it predates missing, step counts as
    Python numbers) loads as PyTorch loads it: the options take their defaults and the counts
    become float32 0-d tensors, and training goes on step for step."""
    tp, vp = make_params(torch, SHAPES, "float32", 1)
    topt = getattr(torch.optim, name)(_groups(tp), **kw)
    vopt = getattr(tv.optim, name)(_groups(vp), **kw)
    rng = np.random.default_rng(4)
    _run(topt, vopt, tp, vp, rng, 2)
    old = copy.deepcopy(topt.state_dict())
    for group in old["param_groups"]:
        for key in ("foreach", "maximize", "differentiable", "capturable", "fused",
                    "decoupled_weight_decay", "amsgrad", "nesterov", "centered"):
            if key in group and group[key] in (None, False):  # (left at its default)
                del group[key]
    for p_state in old["state"].values():
        for key in ("step", "eta", "mu", "mu_product"):
            if key in p_state and isinstance(p_state[key], torch.Tensor) and \
                    p_state[key].dim() == 0:
                p_state[key] = float(p_state[key])
    buf = io.BytesIO()
    torch.save(old, buf)
    buf.seek(0)
    vopt.load_state_dict(tv.load(buf))
    buf.seek(0)
    topt.load_state_dict(torch.load(buf))
    tsd, vsd = topt.state_dict(), vopt.state_dict()
    assert vsd["param_groups"] == tsd["param_groups"]
    for k, t_state in tsd["state"].items():
        for key, tval in t_state.items():
            vval = vsd["state"][k][key]
            assert isinstance(vval, tv.Tensor) == isinstance(tval, torch.Tensor), key
            if isinstance(tval, torch.Tensor):
                assert str(vval.dtype)[len("tensorviz."):] == str(tval.dtype)[len("torch."):]
    _run(topt, vopt, tp, vp, rng, 2)
    assert_same_state(topt, vopt, "float32")
