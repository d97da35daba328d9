"""Optimizer construction, param groups, reprs, errors, warnings and step hooks against
PyTorch: the same exception types and messages, the same printed text."""
from __future__ import annotations

import warnings

import pytest

import tensorviz as tv

torch = pytest.importorskip("torch")

NAMES = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam",
         "Rprop", "ASGD"]


def _both(program):
    """Run ``program(lib)`` on PyTorch and tensorviz; return both (result or exception)."""
    out = []
    for lib in (torch, tv):
        try:
            out.append(("ok", program(lib)))
        except Exception as exc:  # noqa: BLE001 - compared below
            msg = str(exc).replace("tensorviz.", "torch.")
            out.append((type(exc).__name__, msg))
    return out


def _leaf(lib, *values):
    return lib.tensor(list(values) or [1.0, 2.0], requires_grad=True)


BAD_CONSTRUCTIONS = {
    "non-leaf": lambda lib: lib.optim.SGD([_leaf(lib) * 2], lr=0.1),
    "empty": lambda lib: lib.optim.SGD([], lr=0.1),
    "bare tensor": lambda lib: lib.optim.SGD(_leaf(lib), lr=0.1),
    "not a tensor": lambda lib: lib.optim.SGD([1.0], lr=0.1),
    "a set": lambda lib: lib.optim.SGD([{"params": {_leaf(lib)}}], lr=0.1),
    "lr -1": lambda lib: lib.optim.SGD([_leaf(lib)], lr=-1),
    "momentum": lambda lib: lib.optim.SGD([_leaf(lib)], lr=0.1, momentum=-0.5),
    "weight decay": lambda lib: lib.optim.SGD([_leaf(lib)], lr=0.1, weight_decay=-1e-3),
    "nesterov": lambda lib: lib.optim.SGD([_leaf(lib)], lr=0.1, nesterov=True),
    "nesterov dampening": lambda lib: lib.optim.SGD([_leaf(lib)], lr=0.1, momentum=0.9,
                                                   dampening=0.1, nesterov=True),
    "adam beta0": lambda lib: lib.optim.Adam([_leaf(lib)], betas=(1.0, 0.999)),
    "adam beta1": lambda lib: lib.optim.Adam([_leaf(lib)], betas=(0.9, -0.1)),
    "adam eps": lambda lib: lib.optim.Adam([_leaf(lib)], eps=-1.0),
    "adam lr": lambda lib: lib.optim.AdamW([_leaf(lib)], lr=-0.5),
    "adam int betas": lambda lib: lib.optim.Adam([_leaf(lib)], betas=(0, 0.9)),
    "rmsprop alpha": lambda lib: lib.optim.RMSprop([_leaf(lib)], alpha=-0.1),
    "rmsprop momentum": lambda lib: lib.optim.RMSprop([_leaf(lib)], momentum=-0.1),
    "adagrad lr_decay": lambda lib: lib.optim.Adagrad([_leaf(lib)], lr_decay=-1),
    "adagrad init": lambda lib: lib.optim.Adagrad([_leaf(lib)], initial_accumulator_value=-1),
    "adadelta rho": lambda lib: lib.optim.Adadelta([_leaf(lib)], rho=1.5),
    "adamax beta": lambda lib: lib.optim.Adamax([_leaf(lib)], betas=(0.9, 1.0)),
    "nadam momentum_decay": lambda lib: lib.optim.NAdam([_leaf(lib)], momentum_decay=-1),
    "radam eps": lambda lib: lib.optim.RAdam([_leaf(lib)], eps=-1e-8),
    "rprop etas": lambda lib: lib.optim.Rprop([_leaf(lib)], etas=(1.2, 0.5)),
    "asgd weight decay": lambda lib: lib.optim.ASGD([_leaf(lib)], weight_decay=-1),
    "duplicate groups": lambda lib: (lambda w: lib.optim.SGD(
        [{"params": [w]}, {"params": [w]}], lr=0.1))(_leaf(lib)),
    "group not a dict": lambda lib: lib.optim.SGD([_leaf(lib)], lr=0.1).add_param_group(
        [_leaf(lib)]),
    "mixed names": lambda lib: lib.optim.SGD([("a", _leaf(lib)), _leaf(lib)], lr=0.1),
    "named + unnamed groups": lambda lib: lib.optim.SGD(
        [("a", _leaf(lib))], lr=0.1).add_param_group({"params": [_leaf(lib)]}),
    "tensor lr shape": lambda lib: lib.optim.SGD([_leaf(lib)], lr=lib.tensor([0.1, 0.2])),
}


@pytest.mark.parametrize("program", BAD_CONSTRUCTIONS.values(), ids=BAD_CONSTRUCTIONS.keys())
def test_bad_construction_raises_as_pytorch(program):
    (tk, tmsg), (vk, vmsg) = _both(program)
    assert tk != "ok"
    assert (vk, vmsg) == (tk, tmsg)


def test_messages_quoted_in_the_issue():
    assert _both(BAD_CONSTRUCTIONS["lr -1"])[1] == ("ValueError", "Invalid learning rate: -1")
    assert _both(BAD_CONSTRUCTIONS["non-leaf"])[1] == ("ValueError",
                                                       "can't optimize a non-leaf Tensor")
    assert _both(BAD_CONSTRUCTIONS["bare tensor"])[1] == (
        "TypeError", "params argument given to the optimizer should be an iterable of "
        "Tensors or dicts, but got torch.FloatTensor")


def test_required_option_missing_from_a_group():
    from tensorviz.optim.optimizer import Optimizer, required

    class Custom(Optimizer):
        def __init__(self, params, lr=required):
            super().__init__(params, {"lr": lr})

    with pytest.raises(ValueError, match="parameter group didn't specify a value of required "
                                         "optimization parameter lr"):
        Custom([_leaf(tv)])


def test_duplicate_parameters_warn_as_pytorch():
    messages = []
    for lib in (torch, tv):
        w = _leaf(lib)
        with pytest.warns(UserWarning) as record:
            lib.optim.SGD([w, w], lr=0.1)
        messages.append(str(record[0].message))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("name", NAMES)
def test_repr_and_defaults_match_pytorch(name):
    def program(lib):
        w, b = _leaf(lib), _leaf(lib, 3.0)
        opt = getattr(lib.optim, name)([{"params": [w]}, {"params": [b], "lr": 0.5}])
        return repr(opt), opt.defaults, [sorted(g) for g in opt.param_groups]

    (_, t), (vk, v) = _both(program)
    assert vk == "ok"
    assert v == t


def test_repr_with_tensor_lr_and_groups_added_later():
    def program(lib):
        opt = lib.optim.SGD([_leaf(lib)], lr=0.25, momentum=0.5)
        opt.add_param_group({"params": _leaf(lib), "nesterov": True, "lr": 1e-4})
        return repr(opt)

    (_, t), (_, v) = _both(program)
    assert v == t


def test_param_groups_accept_generators_and_tuples():
    ws = [_leaf(tv) for _ in range(3)]
    opt = tv.optim.SGD((w for w in ws), lr=0.1)
    assert opt.param_groups[0]["params"] == ws or all(
        a is b for a, b in zip(opt.param_groups[0]["params"], ws))
    opt2 = tv.optim.Adam([{"params": (ws[0], ws[1])}, {"params": ws[2], "lr": 1.0}])
    assert [len(g["params"]) for g in opt2.param_groups] == [2, 1]
    assert opt2.param_groups[1]["betas"] == (0.9, 0.999)


def test_state_is_a_defaultdict_keyed_by_parameter():
    w = _leaf(tv)
    opt = tv.optim.Adam([w])
    assert len(opt.state) == 0
    assert opt.state[_leaf(tv)] == {}  # a defaultdict(dict), as PyTorch's
    w.grad = tv.ones(2)
    opt.step()
    assert set(opt.state[w]) == {"step", "exp_avg", "exp_avg_sq"}
    assert opt.state[w]["step"].item() == 1.0


def test_adagrad_state_exists_from_construction():
    for lib in (torch, tv):
        w = _leaf(lib)
        opt = lib.optim.Adagrad([w], initial_accumulator_value=0.5)
        assert opt.state[w]["sum"].tolist() == [0.5, 0.5]
        assert opt.state[w]["step"].item() == 0.0


def test_step_hooks_run_in_pytorch_order():
    def program(lib):
        calls = []
        w = _leaf(lib)
        w.grad = lib.ones(2)
        opt = lib.optim.SGD([w], lr=0.1)
        from importlib import import_module
        mod = import_module(lib.__name__ + ".optim.optimizer")
        g_pre = mod.register_optimizer_step_pre_hook(lambda o, a, k: calls.append("global pre"))
        g_post = mod.register_optimizer_step_post_hook(
            lambda o, a, k: calls.append("global post"))
        pre = opt.register_step_pre_hook(lambda o, a, k: calls.append(("pre", len(a), k)))
        post = opt.register_step_post_hook(lambda o, a, k: calls.append("post"))
        opt.step()
        pre.remove()
        g_pre.remove()
        opt.step()
        post.remove()
        g_post.remove()
        opt.step()
        return calls, w.tolist()

    (_, t), (vk, v) = _both(program)
    assert vk == "ok" and v == t


def test_pre_hook_may_replace_the_arguments():
    def program(lib):
        w = _leaf(lib)
        opt = lib.optim.SGD([w], lr=0.1)
        opt.register_step_pre_hook(lambda o, a, k: (a, {"closure": lambda: 42.0}))
        bad = lib.optim.SGD([_leaf(lib)], lr=0.1)
        bad.register_step_pre_hook(lambda o, a, k: "nonsense")
        try:
            bad.step()
        except RuntimeError as exc:
            return opt.step(), "must return None or a tuple of (new_args, new_kwargs), " \
                               "but got nonsense." in str(exc)

    (_, t), (_, v) = _both(program)
    assert v == t == (42.0, True)


def test_state_dict_hooks():
    w = _leaf(tv)
    opt = tv.optim.SGD([w], lr=0.1)
    seen = []
    opt.register_state_dict_pre_hook(lambda o: seen.append("pre"))
    opt.register_state_dict_post_hook(lambda o, sd: {**sd, "extra": 1})
    opt.register_load_state_dict_pre_hook(lambda o, sd: seen.append("load pre"))
    opt.register_load_state_dict_post_hook(lambda o: seen.append("load post"), prepend=True)
    sd = opt.state_dict()
    assert sd["extra"] == 1
    opt.load_state_dict(sd)
    assert seen == ["pre", "load pre", "load post"]


def test_step_restores_grad_mode_and_closure_runs_with_grad():
    w = _leaf(tv)
    opt = tv.optim.SGD([w], lr=0.1)
    modes = []

    def closure():
        modes.append(tv.is_grad_enabled())
        loss = (w * w).sum()
        loss.backward()
        return loss

    with tv.no_grad():
        opt.step(closure)
        assert not tv.is_grad_enabled()
    assert modes == [True] and tv.is_grad_enabled()


def test_optim_is_reached_lazily_from_the_top_level():
    import importlib
    import subprocess
    import sys
    code = ("import sys, tensorviz as torch; assert 'tensorviz.optim' not in sys.modules; "
            "torch.optim.SGD; print(torch.optim.lr_scheduler.StepLR.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**__import__("os").environ}, check=True)
    assert out.stdout.strip() == "StepLR"
    assert importlib.import_module("tensorviz").optim is importlib.import_module(
        "tensorviz.optim")


def test_no_warning_on_an_ordinary_loop():
    w = _leaf(tv)
    opt = tv.optim.Adam([w], lr=0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(3):
            opt.zero_grad()
            (w * w).sum().backward()
            opt.step()
