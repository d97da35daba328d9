"""The training view's state: what it shows of an optimizer step, gradient norms, zero_grad and
the curves is what PyTorch computes for the same loop; updates are throttled and bounded; the
model is held weakly; text is escaped; bad input says what to do."""
from __future__ import annotations

import gc
import json
import math
import weakref

import numpy as np
import pytest

pytest.importorskip("anywidget", reason="the widget tests need anywidget")

import tensorviz
from tensorviz.viz import _training
from tensorviz.viz._training import MAX_POINTS, FREED, TrainingView

from vizhelpers import front_end_sets

torch = pytest.importorskip("torch")

OPTIMIZERS = {
    "sgd": lambda L, ps: L.optim.SGD(ps, lr=0.1),
    "sgd-momentum": lambda L, ps: L.optim.SGD(ps, lr=0.1, momentum=0.9),
    "adam": lambda L, ps: L.optim.Adam(ps, lr=0.01),
    "adamw": lambda L, ps: L.optim.AdamW(ps, lr=0.01, weight_decay=0.1),
}


def _data(seed: int, batches: int = 3, n: int = 8):
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal((n, 5)).astype(np.float32), rng.integers(0, 3, n))
            for _ in range(batches)]


def _model(L, seed: int):
    rng = np.random.default_rng(seed + 100)
    model = L.nn.Sequential(L.nn.Linear(5, 4), L.nn.Tanh(), L.nn.Linear(4, 3))
    with L.no_grad():
        for p in model.parameters():
            p.copy_(L.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32)))
    return model


def _train(L, opt_name: str, seed: int, watch: str | None = None):
    model = _model(L, seed)
    opt = OPTIMIZERS[opt_name](L, model.parameters())
    view = TrainingView(model, opt, epochs=1, batches=3, watch=watch, update_every=0)
    loss_fn = L.nn.CrossEntropyLoss()
    for x, y in _data(seed):
        xb, yb = L.from_numpy(x), L.from_numpy(y)
        opt.zero_grad()
        out = model(xb)
        loss = loss_fn(out, yb)
        loss.backward()
        norms = {n: p.grad.norm().item() for n, p in model.named_parameters()}
        opt.step()
        view.step(loss, output=out, target=yb)
    return view, model, opt, norms


@pytest.mark.parametrize("opt_name", list(OPTIMIZERS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_optimizer_step_shown_is_pytorchs(opt_name, seed):
    mine, model, opt, norms = _train(tensorviz, opt_name, seed)
    theirs, t_model, t_opt, t_norms = _train(torch, opt_name, seed)
    a, b = mine.optim, theirs.optim
    assert a["param"] == b["param"] == "0.weight"
    assert a["optimizer"] == b["optimizer"] == type(t_opt).__name__
    for key in ("before", "grad", "after"):
        np.testing.assert_allclose(a[key], b[key], rtol=1e-4, atol=1e-6)
    # after is the parameter as it is now; state is the optimizer's own state for it
    p = dict(model.named_parameters())["0.weight"]
    assert a["index"] == b["index"] and len(a["index"]) == 6
    at = [tuple(i) for i in a["index"]]
    np.testing.assert_allclose(a["after"], [p[i].item() for i in at], rtol=1e-5)
    t_state = t_opt.state[dict(t_model.named_parameters())["0.weight"]]
    assert sorted(a["state"]) == sorted(b["state"]) == sorted(t_state)
    for key, value in t_state.items():
        want = [value[i].item() for i in at] if value.dim() else [value.item()]
        got = a["state"][key] if isinstance(a["state"][key], list) else [a["state"][key]]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-7)
    assert a["hyper"]["lr"] == t_opt.param_groups[0]["lr"]
    # gradient norms: read as step() starts, the ones backward just made
    assert mine.grads["names"] == [n for n, _ in model.named_parameters()]
    np.testing.assert_allclose(mine.grads["norms"], [norms[n] for n in mine.grads["names"]],
                               rtol=1e-5)
    np.testing.assert_allclose(mine.grads["norms"], theirs.grads["norms"], rtol=1e-4)


def test_curves_and_accuracy_are_the_loops_own():
    view, model, _, _ = _train(tensorviz, "sgd", 3)
    losses = [v for _, v in view.curves["loss"]]
    assert [s for s, _ in view.curves["loss"]] == [1, 2, 3]
    # accuracy of the last batch, computed the usual way
    x, y = _data(3)[-1]
    # (the model has stepped since: recompute from the recorded curve instead)
    assert all(0 <= v <= 1 for _, v in view.curves["accuracy"])
    rows = view.curves["epochs"]
    assert len(rows) == 1 and rows[0]["epoch"] == 1
    assert rows[0]["loss"] == pytest.approx(sum(losses) / 3, rel=1e-5)
    assert x.shape[0] == 8 and len(y) == 8


def test_accuracy_is_argmax_match():
    model = tensorviz.nn.Linear(2, 3)
    view = TrainingView(model, update_every=0)
    out = tensorviz.tensor([[0., 1., 2.], [5., 1., 0.], [0., 9., 1.], [1., 0., 0.]])
    target = tensorviz.tensor([2, 0, 0, 1])
    view.step(tensorviz.tensor(1.5), output=out, target=target)
    assert view.curves["accuracy"] == [[1, 0.5]]
    assert view.curves["loss"] == [[1, 1.5]]


def test_progress_counts_epochs_and_batches():
    model = tensorviz.nn.Linear(2, 2)
    view = TrainingView(model, epochs=2, batches=3, update_every=0)
    seen = []
    for _ in range(6):
        view.step(0.5)
        p = view.progress
        seen.append((p["epoch"], p["batch"]))
    assert seen == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3)]
    assert view.progress["fraction"] == 1.0
    assert [r["epoch"] for r in view.curves["epochs"]] == [1, 2]


def test_loader_gives_batches_per_epoch():
    ds = tensorviz.utils.data.TensorDataset(tensorviz.zeros(10, 2))
    loader = tensorviz.utils.data.DataLoader(ds, batch_size=4)
    view = TrainingView(tensorviz.nn.Linear(2, 2), loader=loader, epochs=3)
    assert view.progress["batches"] == 3 and view.progress["epochs"] == 3


@pytest.mark.parametrize("library", ["tensorviz", "torch"])
def test_zero_grad_seen_as_none_and_forgetting_it_seen_as_stale(library):
    L = tensorviz if library == "tensorviz" else torch
    model = _model(L, 0)
    opt = L.optim.SGD(model.parameters(), lr=0.1)
    view = TrainingView(model, opt, update_every=0)
    x = L.from_numpy(_data(0)[0][0])
    for k in range(2):
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()
        view.step(1.0)
    z = view.zero_grad
    assert (z["none"], z["stale_count"], z["total"]) == (4, 0, 4)
    assert all(p.grad is not None for p in model.parameters())  # backward made them again
    model(x).sum().backward()  # no zero_grad: the next forward sees last batch's grads
    view.step(1.0)
    z = view.zero_grad
    assert z["stale_count"] == 4 and z["none"] == 0
    opt.zero_grad(set_to_none=False)
    model(x)
    view.step(1.0)
    assert view.zero_grad["zeros"] == 4


def test_updates_are_throttled_and_flushed():
    model = tensorviz.nn.Linear(2, 2)
    view = TrainingView(model, update_every=1e9)
    rev = view.revision
    for k in range(50):
        view.step(float(k))
    assert view.revision == rev, "each step sent an update"
    assert view.curves["loss"] == []
    view.poll()  # what the end of the cell does
    assert view.revision == rev + 1
    assert len(view.curves["loss"]) == 50
    view.poll()
    assert view.revision == rev + 1  # nothing pending: nothing sent


def test_curves_stay_bounded_and_keep_the_mean():
    model = tensorviz.nn.Linear(2, 2)
    view = TrainingView(model, update_every=1e9)
    rng = np.random.default_rng(0)
    values = rng.random(5000)
    for v in values:
        view.step(float(v))
    view.flush()
    points = view._series["loss"].points
    assert len(view.curves["loss"]) <= MAX_POINTS
    assert sum(v * n for _, v, n in points) / 5000 == pytest.approx(values.mean(), rel=1e-9)
    assert sum(n for *_, n in points) == 5000
    assert view.curves["loss"][-1][0] == 5000
    assert len(json.dumps(view.get_state(["curves"]))) < 40_000


def test_nan_loss_is_a_gap_not_a_crash():
    view = TrainingView(tensorviz.nn.Linear(2, 2), update_every=0)
    view.step(float("nan"))
    view.step(1.0)
    assert view.curves["loss"] == [[1, None], [2, 1.0]]
    json.dumps(view.get_state(["curves"]), allow_nan=False)


def test_model_is_held_weakly_and_hooks_are_removed():
    model = _model(tensorviz, 0)
    opt = tensorviz.optim.SGD(model.parameters(), lr=0.1)
    view = TrainingView(model, opt)
    ref = weakref.ref(model)
    assert len(model._forward_pre_hooks) == 1 and len(opt._optimizer_step_pre_hooks) == 1
    view.close()
    assert len(model._forward_pre_hooks) == 0 and len(opt._optimizer_step_pre_hooks) == 0
    view2 = TrainingView(model, opt)
    del model, opt
    gc.collect()
    assert ref() is None, "the view kept the model alive"
    view2.poll()
    assert view2.status == FREED


def test_hooks_hold_the_view_weakly():
    model = tensorviz.nn.Linear(2, 2)
    opt = tensorviz.optim.SGD(model.parameters(), lr=0.1)
    view = TrainingView(model, opt)
    hooks = [*model._forward_pre_hooks.values(), *opt._optimizer_step_pre_hooks.values(),
             *opt._optimizer_step_post_hooks.values()]
    assert len(hooks) == 3
    for hook in hooks:
        held = [c.cell_contents for c in hook.__closure__ or ()]
        assert any(isinstance(h, weakref.ref) and h() is view for h in held), held
        assert not any(isinstance(h, TrainingView) for h in held), held
    view.close()
    model(tensorviz.zeros(1, 2))  # no hook left behind


def test_watch_from_the_front_end_switches_parameter():
    view, model, opt, _ = _train(tensorviz, "sgd-momentum", 0)
    front_end_sets(view, watch="2.bias")
    assert view.optim == {} and view._index is None
    x, y = _data(0)[0]
    opt.zero_grad()
    loss = tensorviz.nn.functional.cross_entropy(model(tensorviz.from_numpy(x)),
                                                  tensorviz.from_numpy(y))
    loss.backward()
    opt.step()
    view.step(loss)
    assert view.optim["param"] == "2.bias" and view.optim["shape"] == [3]
    buf = opt.state[model[2].bias]["momentum_buffer"]
    np.testing.assert_allclose(view.optim["state"]["momentum_buffer"], buf.tolist(), rtol=1e-5)
    front_end_sets(view, watch="<not a param>")
    assert view.watch == "<not a param>" and view.optim["param"] == "2.bias"


def test_text_is_escaped_in_the_static_picture():
    view = TrainingView(tensorviz.nn.Linear(2, 2), title="<script>x</script>", update_every=0)
    view.step(1.0)
    page = view.to_html()
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_bad_input_says_what_to_do():
    with pytest.raises(TypeError, match="nn.Module"):
        TrainingView(object())
    with pytest.raises(TypeError, match="optimizer"):
        TrainingView(tensorviz.nn.Linear(2, 2), object())
    with pytest.raises(ValueError, match="not a parameter of this model.*weight"):
        TrainingView(tensorviz.nn.Linear(2, 2), watch="fc.weight")
    with pytest.raises(ValueError, match="epochs must be a positive int"):
        TrainingView(tensorviz.nn.Linear(2, 2), epochs=0)
    view = TrainingView(tensorviz.nn.Linear(2, 2))
    with pytest.raises(ValueError, match=r"logits of shape \(batch, classes\)"):
        view.step(1.0, output=tensorviz.zeros(4, 3), target=tensorviz.zeros(5).long())


def test_show_training_is_exported_lazily():
    assert tensorviz.show_training is tensorviz.viz.show_training
    assert not math.isnan(_training._num(1.0))


def test_watched_elements_are_those_with_the_largest_first_gradient():
    model = tensorviz.nn.Linear(4, 1, bias=False)
    opt = tensorviz.optim.SGD(model.parameters(), lr=1.0)
    view = TrainingView(model, opt, update_every=0)
    # only inputs 1 and 3 are non-zero: the gradient of weight[0, 0] and [0, 2] is 0
    x = tensorviz.tensor([[0., 2., 0., -1.]])
    model(x).sum().backward()
    opt.step()
    view.step(0.0)
    assert view.optim["index"] == [[0, 0], [0, 1], [0, 2], [0, 3]]  # all 4 (< 6 elements)
    big = tensorviz.nn.Linear(10, 1, bias=False)
    opt = tensorviz.optim.SGD(big.parameters(), lr=1.0)
    view = TrainingView(big, opt, update_every=0)
    x = tensorviz.zeros(1, 10)
    x[0, [9, 2, 7]] = tensorviz.tensor([3., -5., 1.])
    x[0, [0, 4, 5]] = tensorviz.tensor([0.5, 0.25, 2.])
    big(x).sum().backward()
    opt.step()
    view.step(0.0)
    assert view.optim["index"] == [[0, 0], [0, 2], [0, 4], [0, 5], [0, 7], [0, 9]]
    assert view.optim["grad"] == [0.5, -5.0, 0.25, 2.0, 1.0, 3.0]


@pytest.mark.parametrize("library", ["tensorviz", "torch"])
def test_an_evaluation_under_no_grad_is_not_a_forgotten_zero_grad(library):
    L = tensorviz if library == "tensorviz" else torch
    model = _model(L, 1)
    opt = L.optim.SGD(model.parameters(), lr=0.1)
    view = TrainingView(model, opt, update_every=0)
    x = L.from_numpy(_data(1)[0][0])
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()
    view.step(1.0)
    seen = dict(view.zero_grad)
    with L.no_grad():
        model(x)  # evaluating: the grads of the last batch are still there, and that is fine
    view.step(1.0)
    assert view.zero_grad == seen and seen["none"] == 4


class _Scaled(object):
    """A model with nested layers, a parameter of its own and a tied weight (built per
    library): the layers of the gradient panel are the modules owning parameters."""

    @staticmethod
    def build(L, seed: int):
        rng = np.random.default_rng(seed)

        class Net(L.nn.Module):
            def __init__(self):
                super().__init__()
                self.scale = L.nn.Parameter(L.ones(1))
                self.body = L.nn.Sequential(L.nn.Linear(5, 4), L.nn.ReLU(), L.nn.LayerNorm(4))
                self.head = L.nn.Linear(4, 3)
                self.tied = L.nn.Linear(4, 3)
                self.tied.weight = self.head.weight

            def forward(self, x):
                h = self.body(x) * self.scale
                return self.head(h) + self.tied(h)

        model = Net()
        with L.no_grad():
            for p in model.parameters():
                p.copy_(L.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32)))
        return model


@pytest.mark.parametrize("library", [tensorviz, torch], ids=["tensorviz", "torch"])
def test_gradient_norms_per_layer_are_those_of_its_parameters_together(library):
    """A layer's norm is ‖all its own parameters' gradients, concatenated‖ (computed here by
    PyTorch on the same model), layers in named_parameters order, each parameter once."""
    model = _Scaled.build(library, 5)
    opt = library.optim.SGD(model.parameters(), lr=0.1)
    view = TrainingView(model, opt, update_every=0)
    ref = _Scaled.build(torch, 5)
    for x, y in _data(5, batches=2):
        ref.zero_grad()
        t_out = ref(torch.from_numpy(x))
        torch.nn.functional.cross_entropy(t_out, torch.from_numpy(y)).backward()
        opt.zero_grad()
        out = model(library.from_numpy(x))
        loss = library.nn.functional.cross_entropy(out, library.from_numpy(y))
        loss.backward()
        opt.step()
        view.step(loss)
        with torch.no_grad():
            for p in ref.parameters():
                p -= 0.1 * p.grad
    layers = view.grads["layers"]
    assert [(la["name"], la["kind"], la["params"]) for la in layers] == [
        ("", type(model).__name__, ["scale"]),
        ("body.0", "Linear", ["body.0.weight", "body.0.bias"]),
        ("body.2", "LayerNorm", ["body.2.weight", "body.2.bias"]),
        ("head", "Linear", ["head.weight", "head.bias"]),
        ("tied", "Linear", ["tied.bias"])]  # (the tied weight is head's, counted once)
    grads = dict(ref.named_parameters())
    for layer in layers:
        want = torch.linalg.vector_norm(torch.cat([grads[n].grad.reshape(-1)
                                                   for n in layer["params"]])).item()
        assert layer["norm"] == pytest.approx(want, rel=1e-4)
    assert "gradient norms per layer" in view.to_html()


def test_validation_points_are_the_whole_passes_mean_and_accuracy():
    """Validation batches between two training steps make one point: the loss and accuracy
    of the whole validation set (batch sizes differ), drawn beside the training curves and
    kept in each epoch's row."""
    model = _model(tensorviz, 7)
    opt = tensorviz.optim.SGD(model.parameters(), lr=0.1)
    view = TrainingView(model, opt, epochs=2, batches=2, update_every=0)
    rng = np.random.default_rng(8)
    xv = rng.standard_normal((11, 5)).astype(np.float32)
    yv = rng.integers(0, 3, 11)
    want = []
    for epoch in range(2):
        for x, y in _data(epoch, batches=2):
            opt.zero_grad()
            out = model(tensorviz.from_numpy(x))
            loss = tensorviz.nn.functional.cross_entropy(out, tensorviz.from_numpy(y))
            loss.backward()
            opt.step()
            view.step(loss, output=out, target=tensorviz.from_numpy(y))
        with tensorviz.no_grad():
            for lo, hi in ((0, 4), (4, 11)):  # two batches of different sizes
                xb, yb = tensorviz.from_numpy(xv[lo:hi]), tensorviz.from_numpy(yv[lo:hi])
                out = model(xb)
                view.validate(tensorviz.nn.functional.cross_entropy(out, yb), output=out,
                              target=yb)
        # the same model, in PyTorch, on the whole validation set at once
        t_model = _model(torch, 7)
        t_model.load_state_dict({k: torch.from_numpy(v.detach().numpy().copy())
                                 for k, v in model.state_dict().items()})
        with torch.no_grad():
            out = t_model(torch.from_numpy(xv))
            want.append((torch.nn.functional.cross_entropy(out, torch.from_numpy(yv)).item(),
                         (out.argmax(1) == torch.from_numpy(yv)).float().mean().item()))
    assert [s for s, _ in view.curves["val_loss"]] == [2, 4]
    np.testing.assert_allclose([v for _, v in view.curves["val_loss"]], [w[0] for w in want],
                               rtol=1e-5)
    np.testing.assert_allclose([v for _, v in view.curves["val_accuracy"]],
                               [w[1] for w in want], rtol=1e-5)
    rows = view.curves["epochs"]
    assert [r["epoch"] for r in rows] == [1, 2]
    np.testing.assert_allclose([r["val_loss"] for r in rows], [w[0] for w in want], rtol=1e-5)
    assert [k for k, _ in view.history.items()] == ["loss", "accuracy", "val_loss",
                                                    "val_accuracy"]
    assert "validation last" in view.to_html()
    with pytest.raises(ValueError, match="class indices"):
        view.validate(tensorviz.tensor(1.0), output=tensorviz.zeros(3, 2),
                      target=tensorviz.zeros(2, dtype=tensorviz.int64))
