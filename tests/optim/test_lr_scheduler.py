"""Every learning-rate scheduler's sequence against PyTorch's over many epochs, with two
parameter groups, plus state_dict round trips and the call-order warnings."""
from __future__ import annotations

import copy
import math
import warnings

import numpy as np
import pytest

import tensorviz as tv

torch = pytest.importorskip("torch")

EPOCHS = 60


def _opt(lib, optimizer="SGD", **kw):
    a = lib.zeros(2, requires_grad=True)
    b = lib.zeros(1, requires_grad=True)
    kw.setdefault("lr", 0.1)
    if optimizer == "SGD":
        kw.setdefault("momentum", 0.9)
    return getattr(lib.optim, optimizer)([{"params": [a]}, {"params": [b], "lr": 0.03}], **kw)


def _lam(epoch):
    return 0.95 ** epoch


def _lam2(epoch):
    return 1.0 / (1 + epoch)


SCHEDULERS = {
    "StepLR": lambda m, o: m.StepLR(o, step_size=7, gamma=0.3),
    "StepLR-default": lambda m, o: m.StepLR(o, 2),
    "MultiStepLR": lambda m, o: m.MultiStepLR(o, milestones=[3, 10, 10, 25], gamma=0.5),
    "ExponentialLR": lambda m, o: m.ExponentialLR(o, gamma=0.93),
    "CosineAnnealingLR": lambda m, o: m.CosineAnnealingLR(o, T_max=13, eta_min=1e-3),
    "CosineAnnealingLR-T4": lambda m, o: m.CosineAnnealingLR(o, T_max=4),
    "LambdaLR": lambda m, o: m.LambdaLR(o, lr_lambda=_lam),
    "LambdaLR-list": lambda m, o: m.LambdaLR(o, lr_lambda=[_lam, _lam2]),
    "MultiplicativeLR": lambda m, o: m.MultiplicativeLR(o, lr_lambda=lambda e: 0.97),
    "LinearLR": lambda m, o: m.LinearLR(o, start_factor=0.2, end_factor=0.9, total_iters=17),
    "LinearLR-default": lambda m, o: m.LinearLR(o),
    "ConstantLR": lambda m, o: m.ConstantLR(o, factor=0.25, total_iters=9),
    "PolynomialLR": lambda m, o: m.PolynomialLR(o, total_iters=30, power=2.0),
    "OneCycleLR-cos": lambda m, o: m.OneCycleLR(o, max_lr=[1.0, 0.5], total_steps=EPOCHS + 1),
    "OneCycleLR-linear-3phase": lambda m, o: m.OneCycleLR(
        o, max_lr=0.8, epochs=4, steps_per_epoch=16, anneal_strategy="linear",
        three_phase=True, pct_start=0.2),
    "OneCycleLR-nomomentum": lambda m, o: m.OneCycleLR(o, max_lr=0.3, total_steps=80,
                                                       cycle_momentum=False),
    "CyclicLR-triangular": lambda m, o: m.CyclicLR(o, base_lr=0.01, max_lr=0.2,
                                                   step_size_up=5),
    "CyclicLR-triangular2": lambda m, o: m.CyclicLR(o, base_lr=[0.01, 0.02], max_lr=0.2,
                                                    step_size_up=4, step_size_down=7,
                                                    mode="triangular2"),
    "CyclicLR-exp_range": lambda m, o: m.CyclicLR(o, base_lr=0.01, max_lr=0.3, step_size_up=6,
                                                  mode="exp_range", gamma=0.97),
    "CosineAnnealingWarmRestarts": lambda m, o: m.CosineAnnealingWarmRestarts(
        o, T_0=5, T_mult=2, eta_min=1e-4),
    "CosineAnnealingWarmRestarts-1": lambda m, o: m.CosineAnnealingWarmRestarts(o, T_0=7),
    "SequentialLR": lambda m, o: m.SequentialLR(
        o, schedulers=[m.LinearLR(o, start_factor=0.1, total_iters=5),
                       m.CosineAnnealingLR(o, T_max=20)], milestones=[5]),
    "SequentialLR-3": lambda m, o: m.SequentialLR(
        o, schedulers=[m.ConstantLR(o, factor=0.5, total_iters=3),
                       m.ExponentialLR(o, gamma=0.9), m.StepLR(o, 4)], milestones=[4, 20]),
    "ChainedScheduler": lambda m, o: m.ChainedScheduler(
        [m.ConstantLR(o, factor=0.1, total_iters=4), m.ExponentialLR(o, gamma=0.9)]),
}


def _trajectory(lib, make, optimizer="SGD", epochs=EPOCHS):
    opt = _opt(lib, optimizer)
    sched = make(lib.optim.lr_scheduler, opt)
    lrs = [sched.get_last_lr()]
    groups = [[g["lr"] for g in opt.param_groups]]
    momenta = [[g.get("momentum", g.get("betas")) for g in opt.param_groups]]
    for _ in range(epochs):
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr())
        groups.append([g["lr"] for g in opt.param_groups])
        momenta.append([g.get("momentum", g.get("betas")) for g in opt.param_groups])
    return lrs, groups, momenta, sched


@pytest.mark.parametrize("name", SCHEDULERS)
def test_lr_sequence_matches_pytorch(name):
    t = _trajectory(torch, SCHEDULERS[name])
    v = _trajectory(tv, SCHEDULERS[name])
    assert v[0] == t[0]  # the same floats, not merely close
    assert v[1] == t[1]
    assert v[2] == t[2]
    assert getattr(v[3], "last_epoch", None) == getattr(t[3], "last_epoch", None)


@pytest.mark.parametrize("name", ["OneCycleLR-cos", "CyclicLR-exp_range"])
def test_momentum_cycling_with_adam_betas(name):
    t = _trajectory(torch, SCHEDULERS[name], "Adam", 40)
    v = _trajectory(tv, SCHEDULERS[name], "Adam", 40)
    assert v[:3] == t[:3]


def test_values_quoted_in_the_issue():
    lrs = _trajectory(tv, lambda m, o: m.StepLR(o, 2, 0.1), epochs=4)[0]
    assert [round(x[0], 12) for x in lrs] == [0.1, 0.1, 0.01, 0.01, 0.001]
    opt = tv.optim.SGD([tv.zeros(1, requires_grad=True)], lr=1.0)
    sched = tv.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)
    seq = []
    for _ in range(5):
        opt.step()
        sched.step()
        seq.append(round(sched.get_last_lr()[0], 4))
    assert seq == [0.8536, 0.5, 0.1464, 0.0, 0.1464]


def _plateau_run(lib, kw, metrics):
    opt = _opt(lib)
    sched = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, **kw)
    out = []
    for m in metrics:
        opt.step()
        sched.step(m)
        out.append(([g["lr"] for g in opt.param_groups], sched.get_last_lr(),
                    sched.num_bad_epochs, sched.cooldown_counter, sched.best))
    return out


@pytest.mark.parametrize("kw", [
    {},
    {"mode": "max", "factor": 0.5, "patience": 2},
    {"threshold_mode": "abs", "threshold": 0.05, "patience": 1, "cooldown": 2},
    {"mode": "max", "threshold_mode": "abs", "min_lr": [0.01, 0.001], "patience": 0},
    {"factor": 0.3, "patience": 3, "min_lr": 0.004, "eps": 1e-3},
], ids=str)
def test_reduce_lr_on_plateau_matches_pytorch(kw):
    rng = np.random.default_rng(len(str(kw)))
    metrics = list(np.cumsum(rng.standard_normal(80)) * 0.1 + 5.0)
    metrics = [float(m) for m in metrics]
    assert _plateau_run(tv, kw, metrics) == _plateau_run(torch, kw, metrics)


def test_reduce_lr_on_plateau_accepts_a_zero_dim_tensor():
    opt = _opt(tv)
    sched = tv.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0)
    opt.step()
    sched.step(tv.tensor(1.0))
    opt.step()
    sched.step(tv.tensor(2.0))
    assert sched.get_last_lr() == [0.1 * 0.1, 0.03 * 0.1]


@pytest.mark.parametrize("name", SCHEDULERS)
def test_state_dict_round_trip_resumes_the_same_sequence(name):
    make = SCHEDULERS[name]
    full = _trajectory(tv, make, epochs=30)[0]
    opt = _opt(tv)
    sched = make(tv.optim.lr_scheduler, opt)
    for _ in range(12):
        opt.step()
        sched.step()
    state = copy.deepcopy(sched.state_dict())
    opt_state = opt.state_dict()

    opt2 = _opt(tv)
    sched2 = make(tv.optim.lr_scheduler, opt2)
    sched2.load_state_dict(state)
    opt2.load_state_dict(opt_state)
    lrs = [sched2.get_last_lr()]
    for _ in range(18):
        opt2.step()
        sched2.step()
        lrs.append(sched2.get_last_lr())
    assert lrs == full[12:]


@pytest.mark.parametrize("name", ["StepLR", "CosineAnnealingLR", "LinearLR", "OneCycleLR-cos",
                                  "MultiStepLR", "CyclicLR-triangular2"])
def test_state_dict_matches_pytorch(name):
    t = _trajectory(torch, SCHEDULERS[name], epochs=9)[3].state_dict()
    v = _trajectory(tv, SCHEDULERS[name], epochs=9)[3].state_dict()
    for d in (t, v):
        d.pop("_scale_fn_ref", None)
        d.pop("_scale_fn_custom", None)
    assert v == t


def _warnings_of(lib, program):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        program(lib)
    return [(w.category.__name__, str(w.message)) for w in record]


def test_scheduler_before_optimizer_warns_as_pytorch():
    def program(lib):
        opt = _opt(lib)
        sched = lib.optim.lr_scheduler.StepLR(opt, 3)
        sched.step()
        opt.step()

    t, v = _warnings_of(torch, program), _warnings_of(tv, program)
    assert v == t and len(v) == 1
    assert v[0][1].startswith("Detected call of `lr_scheduler.step()` before "
                              "`optimizer.step()`.")


def test_overridden_optimizer_step_and_epoch_argument_warn_as_pytorch():
    def overridden(lib):
        opt = _opt(lib)
        sched = lib.optim.lr_scheduler.ExponentialLR(opt, 0.9)
        opt.step = lambda closure=None: None
        opt.step()
        sched.step()

    def with_epoch(lib):
        opt = _opt(lib)
        sched = lib.optim.lr_scheduler.StepLR(opt, 3)
        opt.step()
        sched.step(5)
        return sched.get_last_lr()

    def get_lr_outside(lib):
        opt = _opt(lib)
        lib.optim.lr_scheduler.StepLR(opt, 3).get_lr()

    for program in (overridden, with_epoch, get_lr_outside):
        t, v = _warnings_of(torch, program), _warnings_of(tv, program)
        assert v == t and v


@pytest.mark.parametrize("program", [
    lambda lib: lib.optim.lr_scheduler.StepLR("not an optimizer", 3),
    lambda lib: lib.optim.lr_scheduler.StepLR(_opt(lib), 3, last_epoch=4),
    lambda lib: lib.optim.lr_scheduler.LinearLR(_opt(lib), start_factor=0),
    lambda lib: lib.optim.lr_scheduler.LambdaLR(_opt(lib), [_lam]),
    lambda lib: lib.optim.lr_scheduler.ReduceLROnPlateau(_opt(lib), factor=1.0),
    lambda lib: lib.optim.lr_scheduler.ReduceLROnPlateau(_opt(lib), mode="median"),
    lambda lib: lib.optim.lr_scheduler.OneCycleLR(_opt(lib), max_lr=1.0),
    lambda lib: lib.optim.lr_scheduler.OneCycleLR(_opt(lib), max_lr=1.0, total_steps=5,
                                                  anneal_strategy="quadratic"),
    lambda lib: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(_opt(lib), T_0=0),
    lambda lib: lib.optim.lr_scheduler.SequentialLR(
        _opt(lib), [lib.optim.lr_scheduler.StepLR(_opt(lib), 2)], milestones=[]),
    lambda lib: lib.optim.lr_scheduler.CyclicLR(_opt(lib, "Adagrad"), 0.01, 0.1),
], ids=lambda p: "case")
def test_scheduler_errors_match_pytorch(program):
    outcomes = []
    for lib in (torch, tv):
        try:
            program(lib)
            outcomes.append(("ok", ""))
        except Exception as exc:  # noqa: BLE001 - compared below
            outcomes.append((type(exc).__name__, str(exc)))
    assert outcomes[0][0] != "ok"
    assert outcomes[1] == outcomes[0]


def test_onecycle_past_the_end_raises_as_pytorch():
    outcomes = []
    for lib in (torch, tv):
        opt = _opt(lib)
        sched = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=3)
        with pytest.raises(ValueError) as info:
            for _ in range(5):
                opt.step()
                sched.step()
        outcomes.append(str(info.value))
    assert outcomes[0] == outcomes[1]


def test_hypothesis_random_step_and_cosine_schedules():
    hyp = pytest.importorskip("hypothesis")
    st = hyp.strategies

    @hyp.settings(max_examples=30, deadline=None)
    @hyp.given(step=st.integers(1, 9), gamma=st.floats(0.05, 1.0), t_max=st.integers(1, 20),
               eta=st.floats(0, 0.05), lr=st.floats(1e-4, 2.0), epochs=st.integers(1, 40))
    def run(step, gamma, t_max, eta, lr, epochs):
        def seq(lib):
            out = []
            for make in (lambda o: lib.optim.lr_scheduler.StepLR(o, step, gamma),
                         lambda o: lib.optim.lr_scheduler.CosineAnnealingLR(o, t_max, eta),
                         lambda o: lib.optim.lr_scheduler.ExponentialLR(o, gamma)):
                opt = lib.optim.SGD([lib.zeros(1, requires_grad=True)], lr=lr)
                s = make(opt)
                for _ in range(epochs):
                    opt.step()
                    s.step()
                    out.append(s.get_last_lr()[0])
            return out

        got, want = seq(tv), seq(torch)
        assert got == want
        assert all(math.isfinite(x) for x in got)

    run()


@pytest.mark.parametrize("name", ["StepLR", "MultiStepLR", "CosineAnnealingLR", "LinearLR",
                                  "OneCycleLR-cos", "SequentialLR", "ConstantLR"])
def test_checkpoint_saved_here_resumes_in_pytorch(name, tmp_path):
    """Optimizer and scheduler saved with tensorviz.save, loaded by torch.load
    (weights_only) into PyTorch's classes: PyTorch continues the same sequence."""
    make = SCHEDULERS[name]
    want = _trajectory(torch, make, epochs=25)[0]
    opt = _opt(tv)
    sched = make(tv.optim.lr_scheduler, opt)
    for _ in range(10):
        opt.step()
        sched.step()
    path = tmp_path / "ckpt.pt"
    tv.save({"optim": opt.state_dict(), "sched": sched.state_dict()}, path)
    ckpt = torch.load(path, weights_only=True)
    topt = _opt(torch)
    tsched = make(torch.optim.lr_scheduler, topt)
    tsched.load_state_dict(ckpt["sched"])
    topt.load_state_dict(ckpt["optim"])
    got = [tsched.get_last_lr()]
    for _ in range(15):
        topt.step()
        tsched.step()
        got.append(tsched.get_last_lr())
    assert got == want[10:]
