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


def _assert_same_error(program) -> None:
    """``program(lib)`` raises in PyTorch, and in tensorviz the same type and message."""
    outcomes = []
    for lib in (torch, tv):
        try:
            program(lib)
            outcomes.append(("ok", ""))
        except Exception as exc:  # noqa: BLE001 - compared below
            outcomes.append((type(exc).__name__, str(exc)))
    assert outcomes[0][0] != "ok"
    assert outcomes[1] == outcomes[0]


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
    _assert_same_error(program)


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


# --- Seeded random settings, step for step --------------------------------------------------
#
# Each drawer takes a seeded generator and returns ``(make, optimizer, epochs)``: ``make`` builds
# the same scheduler in either library. Every draw is compared float for float with PyTorch.

def _f(rng, lo, hi):
    return float(rng.uniform(lo, hi))


def _draw_simple(rng):
    """One of the single-optimizer chainable schedulers with random settings."""
    kind = rng.integers(8)
    gamma = _f(rng, 0.05, 1.0)
    n = int(rng.integers(1, 25))
    if kind == 0:
        return lambda m, o: m.StepLR(o, step_size=n, gamma=gamma)
    if kind == 1:
        ms = [int(x) for x in rng.integers(1, 40, size=int(rng.integers(1, 5)))]
        return lambda m, o: m.MultiStepLR(o, milestones=ms, gamma=gamma)
    if kind == 2:
        return lambda m, o: m.ConstantLR(o, factor=gamma, total_iters=n)
    if kind == 3:
        start, end = _f(rng, 0.01, 1.0), _f(rng, 0.0, 1.0)
        return lambda m, o: m.LinearLR(o, start_factor=start, end_factor=end, total_iters=n)
    if kind == 4:
        return lambda m, o: m.ExponentialLR(o, gamma=gamma)
    if kind == 5:
        power = _f(rng, 0.1, 3.0)
        return lambda m, o: m.PolynomialLR(o, total_iters=n, power=power)
    if kind == 6:
        eta = _f(rng, 0.0, 0.01)
        return lambda m, o: m.CosineAnnealingLR(o, T_max=n, eta_min=eta)
    a = _f(rng, 0.8, 1.0)
    return lambda m, o: m.LambdaLR(o, lr_lambda=lambda e: a ** e)


def _draw_cyclic(rng):
    mode = ["triangular", "triangular2", "exp_range"][rng.integers(3)]
    base = [_f(rng, 1e-3, 0.05), _f(rng, 1e-3, 0.05)] if rng.random() < 0.5 else _f(rng, 1e-3,
                                                                                       0.05)
    top = [_f(rng, 0.1, 1.0), _f(rng, 0.1, 1.0)] if rng.random() < 0.5 else _f(rng, 0.1, 1.0)
    up = int(rng.integers(1, 12))
    down = None if rng.random() < 0.3 else int(rng.integers(1, 12))
    gamma = _f(rng, 0.9, 1.0)
    kw = dict(base_lr=base, max_lr=top, step_size_up=up, step_size_down=down, mode=mode,
              gamma=gamma, cycle_momentum=bool(rng.random() < 0.7),
              base_momentum=_f(rng, 0.7, 0.85), max_momentum=_f(rng, 0.86, 0.99))
    if rng.random() < 0.3:
        c = _f(rng, 0.5, 1.0)
        kw["scale_fn"] = lambda x: c ** x
        kw["scale_mode"] = ["cycle", "iterations"][rng.integers(2)]
    return lambda m, o: m.CyclicLR(o, **kw)


def _draw_onecycle(rng):
    total = int(rng.integers(40, 150))
    kw = dict(max_lr=[_f(rng, 0.1, 1.0), _f(rng, 0.1, 1.0)] if rng.random() < 0.5
              else _f(rng, 0.1, 1.0),
              pct_start=_f(rng, 0.1, 0.45), anneal_strategy=["cos", "linear"][rng.integers(2)],
              cycle_momentum=bool(rng.random() < 0.7), base_momentum=_f(rng, 0.7, 0.85),
              max_momentum=_f(rng, 0.86, 0.99), div_factor=_f(rng, 2.0, 50.0),
              final_div_factor=_f(rng, 10.0, 1e4), three_phase=bool(rng.random() < 0.5))
    if rng.random() < 0.5:
        kw["total_steps"] = total
    else:
        kw["epochs"], kw["steps_per_epoch"] = int(rng.integers(4, 10)), int(rng.integers(8, 20))
    return lambda m, o: m.OneCycleLR(o, **kw)


def _draw_warm_restarts(rng):
    t0, mult, eta = int(rng.integers(1, 10)), int(rng.integers(1, 4)), _f(rng, 0.0, 0.01)
    return lambda m, o: m.CosineAnnealingWarmRestarts(o, T_0=t0, T_mult=mult, eta_min=eta)


def _draw_multiplicative(rng):
    c, d = _f(rng, 0.85, 1.0), _f(rng, 0.0, 0.01)
    return lambda m, o: m.MultiplicativeLR(o, lr_lambda=[lambda e: c, lambda e: c - d * (e % 3)])


def _draw_sequential(rng):
    parts = [_draw_simple(rng) for _ in range(int(rng.integers(2, 4)))]
    miles = sorted(int(x) for x in rng.choice(np.arange(1, 30), len(parts) - 1, replace=False))
    return lambda m, o: m.SequentialLR(o, schedulers=[p(m, o) for p in parts], milestones=miles)


def _draw_chained(rng):
    parts = [_draw_simple(rng) for _ in range(int(rng.integers(2, 4)))]
    return lambda m, o: m.ChainedScheduler([p(m, o) for p in parts])


DRAWERS = {"simple": _draw_simple, "CyclicLR": _draw_cyclic, "OneCycleLR": _draw_onecycle,
           "CosineAnnealingWarmRestarts": _draw_warm_restarts,
           "MultiplicativeLR": _draw_multiplicative, "SequentialLR": _draw_sequential,
           "ChainedScheduler": _draw_chained}


def _run(lib, make, optimizer, epochs, opt=None, sched=None):
    """Step ``epochs`` times; record the lrs, the groups' lr and momentum, the last_epoch."""
    if opt is None:
        opt = _opt(lib, optimizer)
        sched = make(lib.optim.lr_scheduler, opt)
    seen = []
    for _ in range(epochs):
        opt.step()
        sched.step()
        seen.append((sched.get_last_lr(), [g["lr"] for g in opt.param_groups],
                     [g.get("momentum", g.get("betas")) for g in opt.param_groups],
                     getattr(sched, "last_epoch", None)))
    return seen, opt, sched


def _groups_of(opt):
    """The hyperparameters of each param_group (the scheduler-facing part of an optimizer
    checkpoint), copied."""
    return [{k: copy.copy(v) for k, v in g.items() if k != "params"} for g in opt.param_groups]


def _copy_groups(groups, dst):
    for a, b in zip(groups, dst.param_groups):
        b.update(a)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("kind", DRAWERS)
def test_random_settings_match_pytorch_step_for_step(kind, seed):
    rng = np.random.default_rng([seed, len(kind)])
    make = DRAWERS[kind](rng)
    optimizer = "Adam" if rng.random() < 0.3 else "SGD"
    epochs = int(rng.integers(1, 90))
    if kind == "OneCycleLR":
        epochs = min(epochs, _opt_total_steps(make))
    split = int(rng.integers(0, epochs + 1))
    t_first, topt, tsched = _run(torch, make, optimizer, split)
    v_first, vopt, vsched = _run(tv, make, optimizer, split)
    assert v_first == t_first
    tsd, vsd = tsched.state_dict(), vsched.state_dict()
    assert vsd == tsd
    assert set(vsd) == set(tsd)
    rest = epochs - split
    t_groups, v_groups = _groups_of(topt), _groups_of(vopt)
    t_last = tsched.get_last_lr()
    t_rest = _run(torch, make, optimizer, rest, topt, tsched)[0]
    # Resume both ways: each library's checkpoint loaded into the other's scheduler.
    for lib, sd, groups in ((tv, tsd, t_groups), (torch, vsd, v_groups)):
        opt = _opt(lib, optimizer)
        sched = make(lib.optim.lr_scheduler, opt)
        _copy_groups(groups, opt)
        sched.load_state_dict(copy.deepcopy(sd))
        assert sched.get_last_lr() == t_last
        assert _run(lib, make, optimizer, rest, opt, sched)[0] == t_rest
    assert _run(tv, make, optimizer, rest, vopt, vsched)[0] == t_rest
    assert vsched.state_dict() == tsched.state_dict()


def _opt_total_steps(make):
    opt = _opt(tv)
    return make(tv.optim.lr_scheduler, opt).total_steps


def _with_epochs(lib, make, epochs, optimizer="SGD"):
    """Step with explicit (deprecated) epoch arguments; the warnings are part of the result."""
    opt = _opt(lib, optimizer)
    sched = make(lib.optim.lr_scheduler, opt)
    seen = []
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        for e in epochs:
            opt.step()
            if e is None:
                sched.step()
            else:
                sched.step(e)
            seen.append((sched.get_last_lr(), [g["lr"] for g in opt.param_groups],
                         [g.get("momentum", g.get("betas")) for g in opt.param_groups],
                         sched.last_epoch, getattr(sched, "T_cur", None),
                         getattr(sched, "T_i", None)))
    return seen, [(w.category.__name__, str(w.message)) for w in record]


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("kind", ["simple", "CyclicLR", "MultiplicativeLR"])
def test_epoch_argument_uses_the_closed_forms_as_pytorch(kind, seed):
    rng = np.random.default_rng([seed, 7, len(kind)])
    make = DRAWERS[kind](rng)
    epochs = [None if rng.random() < 0.3 else int(rng.integers(0, 50)) for _ in range(30)]
    assert _with_epochs(tv, make, epochs) == _with_epochs(torch, make, epochs)


@pytest.mark.parametrize("seed", range(10))
def test_warm_restarts_with_fractional_epochs_match_pytorch(seed):
    rng = np.random.default_rng([seed, 11])
    make = _draw_warm_restarts(rng)
    epochs, e = [], 0.0
    for _ in range(40):
        r = rng.random()
        if r < 0.2:
            epochs.append(None)
        elif r < 0.3:
            epochs.append(int(rng.integers(0, 60)))
        else:
            e += _f(rng, 0.0, 2.5)
            epochs.append(e)
    assert _with_epochs(tv, make, epochs) == _with_epochs(torch, make, epochs)


def test_warm_restarts_refuses_a_negative_epoch_as_pytorch():
    outcomes = []
    for lib in (torch, tv):
        opt = _opt(lib)
        sched = lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3)
        with pytest.raises(ValueError) as info, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sched.step(-1.5)
        outcomes.append(str(info.value))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("seed", range(25))
def test_reduce_lr_on_plateau_random_settings_match_pytorch(seed):
    rng = np.random.default_rng([seed, 3])
    kw = dict(mode=["min", "max"][rng.integers(2)],
              threshold_mode=["rel", "abs"][rng.integers(2)],
              threshold=float(rng.choice([0.0, 1e-4, 0.01, 0.1])),
              patience=int(rng.integers(0, 6)), cooldown=int(rng.integers(0, 5)),
              factor=_f(rng, 0.05, 0.9), eps=float(rng.choice([1e-8, 1e-3, 0.01])))
    if rng.random() < 0.5:
        kw["min_lr"] = [_f(rng, 0.0, 0.01), _f(rng, 0.0, 0.01)]
    else:
        kw["min_lr"] = _f(rng, 0.0, 0.01)
    # Rounded random walks: plateaus and exact ties exercise the threshold comparisons.
    metrics = [round(float(x), 1) for x in np.cumsum(rng.standard_normal(120)) * 0.3]
    split = int(rng.integers(0, 120))

    def run(lib, values, opt=None, sched=None):
        if opt is None:
            opt = _opt(lib)
            sched = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, **kw)
        out = []
        for m in values:
            opt.step()
            sched.step(m)
            out.append(([g["lr"] for g in opt.param_groups], sched.get_last_lr(),
                        sched.num_bad_epochs, sched.cooldown_counter, sched.best,
                        sched.last_epoch, sched.in_cooldown))
        return out, opt, sched

    t_first, topt, tsched = run(torch, metrics[:split])
    v_first, vopt, vsched = run(tv, metrics[:split])
    assert v_first == t_first
    tsd, vsd = tsched.state_dict(), vsched.state_dict()
    assert vsd == tsd
    t_groups, v_groups = _groups_of(topt), _groups_of(vopt)
    want = run(torch, metrics[split:], topt, tsched)[0]
    for lib, sd, groups in ((tv, tsd, t_groups), (torch, vsd, v_groups)):
        opt = _opt(lib)
        sched = lib.optim.lr_scheduler.ReduceLROnPlateau(opt)
        _copy_groups(groups, opt)
        sched.load_state_dict(copy.deepcopy(sd))
        assert run(lib, metrics[split:], opt, sched)[0] == want
    assert run(tv, metrics[split:], vopt, vsched)[0] == want


def test_reduce_lr_on_plateau_after_a_new_param_group_as_pytorch():
    outcomes = []
    for lib in (torch, tv):
        row = []
        for min_lr in (0.001, [0.001, 0.002]):
            opt = _opt(lib)
            sched = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0, min_lr=min_lr)
            opt.add_param_group({"params": [lib.zeros(3, requires_grad=True)], "lr": 0.5})
            try:
                for m in (1.0, 2.0, 3.0):
                    sched.step(m)
                row.append((sched.get_last_lr(), sched.min_lrs))
            except RuntimeError as exc:
                row.append(str(exc))
        outcomes.append(row)
    assert outcomes[1] == outcomes[0]


class _Halving:
    """A callable scale_fn with state: CyclicLR saves its ``__dict__`` in the state_dict."""

    def __init__(self):
        self.base = 0.5

    def __call__(self, x):
        return self.base ** x


@pytest.mark.parametrize("scale_mode", ["cycle", "iterations"])
def test_cyclic_callable_scale_fn_state_matches_pytorch(scale_mode):
    def run(lib):
        opt = _opt(lib)
        fn = _Halving()
        sched = lib.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.5, step_size_up=3, scale_fn=fn,
                                                scale_mode=scale_mode)
        seen = _run(lib, None, None, 10, opt, sched)[0]
        sd = sched.state_dict()
        fn2 = _Halving()
        fn2.base = 0.9
        opt2 = _opt(lib)
        sched2 = lib.optim.lr_scheduler.CyclicLR(opt2, 0.01, 0.5, step_size_up=3, scale_fn=fn2,
                                                 scale_mode=scale_mode)
        sched2.load_state_dict(copy.deepcopy(sd))
        return seen, sd, fn2.base, _run(lib, None, None, 10, opt2, sched2)[0]

    assert run(tv) == run(torch)


class _Power:
    """A callable lr_lambda with state: LambdaLR saves its ``__dict__`` in the state_dict."""

    def __init__(self, base):
        self.base = base

    def __call__(self, epoch):
        return self.base ** epoch


@pytest.mark.parametrize("cls", ["LambdaLR", "MultiplicativeLR"])
def test_callable_lr_lambda_state_matches_pytorch(cls):
    def run(lib):
        opt = _opt(lib)
        sched = getattr(lib.optim.lr_scheduler, cls)(opt, [_Power(0.9), _lam])
        seen = _run(lib, None, None, 8, opt, sched)[0]
        sd = sched.state_dict()
        fn = _Power(0.5)
        opt2 = _opt(lib)
        sched2 = getattr(lib.optim.lr_scheduler, cls)(opt2, [fn, _lam])
        sched2.load_state_dict(copy.deepcopy(sd))
        return seen, sd, fn.base, _run(lib, None, None, 8, opt2, sched2)[0]

    assert run(tv) == run(torch)


@pytest.mark.parametrize("name", ["StepLR", "ExponentialLR", "CosineAnnealingLR", "LinearLR",
                                  "OneCycleLR-nomomentum", "CyclicLR-triangular",
                                  "CosineAnnealingWarmRestarts", "SequentialLR"])
def test_tensor_learning_rates_are_filled_in_place_as_pytorch(name):
    def run(lib):
        a = lib.zeros(2, requires_grad=True)
        opt = lib.optim.SGD([a], lr=lib.tensor(0.1), momentum=0.9)
        lr_tensor = opt.param_groups[0]["lr"]
        sched = SCHEDULERS[name](lib.optim.lr_scheduler, opt)
        out = []
        for _ in range(15):
            opt.step()
            sched.step()
            last = sched.get_last_lr()[0]
            out.append((type(last).__name__, float(last), float(opt.param_groups[0]["lr"]),
                        opt.param_groups[0]["lr"] is lr_tensor, last is lr_tensor))
        return out

    assert run(tv) == run(torch)


def test_resuming_with_last_epoch_matches_pytorch():
    def run(lib):
        out = []
        for last_epoch in (-1, 4):
            opt = _opt(lib)
            for g in opt.param_groups:
                g["initial_lr"] = g["lr"] * 2
            sched = lib.optim.lr_scheduler.StepLR(opt, 3, 0.5, last_epoch=last_epoch)
            out.append((sched.base_lrs, sched.get_last_lr(), sched.last_epoch,
                        _run(lib, None, None, 6, opt, sched)[0]))
        return out

    assert run(tv) == run(torch)


def test_base_class_and_get_lr_outside_step_as_pytorch():
    def run(lib):
        m = lib.optim.lr_scheduler
        out = [sorted(m.__all__), issubclass(m._LRScheduler, m.LRScheduler)]
        opt = _opt(lib)
        try:
            m.LRScheduler(opt)
        except NotImplementedError as exc:
            out.append(("NotImplementedError", str(exc)))
        for make in SCHEDULERS.values():
            opt = _opt(lib)
            sched = make(m, opt)
            for _ in range(3):
                opt.step()
                sched.step()
            with warnings.catch_warnings(record=True) as record:
                warnings.simplefilter("always")
                try:
                    out.append(sched.get_lr())
                except (NotImplementedError, AttributeError) as exc:
                    out.append(type(exc).__name__)
            out.append([str(w.message) for w in record])
            out.append([g["lr"] for g in opt.param_groups])
        return out

    assert run(tv) == run(torch)


@pytest.mark.parametrize("program", [
    lambda lib: lib.optim.lr_scheduler.ConstantLR(_opt(lib), factor=1.5),
    lambda lib: lib.optim.lr_scheduler.LinearLR(_opt(lib), end_factor=-0.1),
    lambda lib: lib.optim.lr_scheduler.MultiplicativeLR(_opt(lib), [0.5, 0.9]),
    lambda lib: lib.optim.lr_scheduler.MultiplicativeLR(_opt(lib), [_lam]),
    lambda lib: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(_opt(lib), T_0=2.0),
    lambda lib: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(_opt(lib), T_0=2, T_mult=0),
    lambda lib: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(_opt(lib), 2, eta_min="0"),
    lambda lib: lib.optim.lr_scheduler.OneCycleLR(_opt(lib), 1.0, total_steps=0),
    lambda lib: lib.optim.lr_scheduler.OneCycleLR(_opt(lib), 1.0, epochs=0, steps_per_epoch=2),
    lambda lib: lib.optim.lr_scheduler.OneCycleLR(_opt(lib), 1.0, epochs=2, steps_per_epoch=0),
    lambda lib: lib.optim.lr_scheduler.OneCycleLR(_opt(lib), 1.0, total_steps=9, pct_start=1),
    lambda lib: lib.optim.lr_scheduler.OneCycleLR(_opt(lib), [1.0], total_steps=9),
    lambda lib: lib.optim.lr_scheduler.OneCycleLR(_opt(lib, "Adagrad"), 1.0, total_steps=9),
    lambda lib: lib.optim.lr_scheduler.CyclicLR(_opt(lib), 0.01, 0.1, mode="sawtooth"),
    lambda lib: lib.optim.lr_scheduler.CyclicLR(_opt(lib), [0.01], 0.1),
    lambda lib: lib.optim.lr_scheduler.CyclicLR("opt", 0.01, 0.1),
    lambda lib: lib.optim.lr_scheduler.ReduceLROnPlateau(_opt(lib), threshold_mode="pct"),
    lambda lib: lib.optim.lr_scheduler.ReduceLROnPlateau(_opt(lib), min_lr=[0.1]),
    lambda lib: lib.optim.lr_scheduler.ReduceLROnPlateau("opt"),
    lambda lib: lib.optim.lr_scheduler.ChainedScheduler([]),
    lambda lib: lib.optim.lr_scheduler.SequentialLR(_opt(lib), [], milestones=[]),
    lambda lib: lib.optim.lr_scheduler.SequentialLR(
        _opt(lib), [lib.optim.lr_scheduler.ReduceLROnPlateau(_opt(lib))], milestones=[]),
    lambda lib: lib.optim.lr_scheduler.ChainedScheduler(
        [lib.optim.lr_scheduler.StepLR(_opt(lib), 2), object()]),
    lambda lib: lib.optim.lr_scheduler.ChainedScheduler(
        [lib.optim.lr_scheduler.ReduceLROnPlateau(_opt(lib))]),
    lambda lib: lib.optim.lr_scheduler.LRScheduler(_opt(lib), last_epoch=0),
], ids=lambda p: "case")
def test_more_scheduler_errors_match_pytorch(program):
    _assert_same_error(program)


def test_sequential_with_another_optimizer_errors_as_pytorch():
    outcomes = []
    for lib in (torch, tv):
        opt, other = _opt(lib), _opt(lib)
        with pytest.raises(ValueError) as info:
            lib.optim.lr_scheduler.SequentialLR(
                opt, [lib.optim.lr_scheduler.StepLR(opt, 2),
                      lib.optim.lr_scheduler.StepLR(other, 2)], milestones=[3])
        # The message quotes the optimizer's repr, which differs between the libraries.
        outcomes.append(str(info.value).split(" has ")[0])
    assert outcomes[0] == outcomes[1]
