"""A whole small training loop (autograd, an optimizer, a scheduler) run on both libraries
from the same start: the loss curves agree to float32 rounding."""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz as tv

torch = pytest.importorskip("torch")


def _train(lib, w1, b1, w2, b2, x, y, optimizer, kw, scheduler, epochs=40):
    params = [lib.tensor(a.copy(), requires_grad=True) for a in (w1, b1, w2, b2)]
    opt = getattr(lib.optim, optimizer)(params, **kw)
    sched = scheduler(lib.optim.lr_scheduler, opt)
    xs, ys = lib.tensor(x), lib.tensor(y)
    losses = []
    for epoch in range(epochs):
        for batch in range(0, len(x), 16):
            xb, yb = xs[batch:batch + 16], ys[batch:batch + 16]
            hidden = (xb @ params[0] + params[1]).relu()
            loss = ((hidden @ params[2] + params[3] - yb) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        if isinstance(sched, lib.optim.lr_scheduler.ReduceLROnPlateau):
            sched.step(losses[-1])
        else:
            sched.step()
    return np.array(losses), [p.detach().numpy() for p in params]


@pytest.mark.parametrize("optimizer,kw,scheduler", [
    ("SGD", {"lr": 0.05, "momentum": 0.9, "nesterov": True},
     lambda m, o: m.StepLR(o, step_size=10, gamma=0.5)),
    ("Adam", {"lr": 1e-2, "amsgrad": True}, lambda m, o: m.CosineAnnealingLR(o, T_max=40)),
    ("AdamW", {"lr": 1e-2}, lambda m, o: m.OneCycleLR(o, max_lr=0.02, total_steps=41)),
    ("RMSprop", {"lr": 1e-3, "centered": True},
     lambda m, o: m.ReduceLROnPlateau(o, patience=2)),
], ids=["SGD-StepLR", "Adam-Cosine", "AdamW-OneCycle", "RMSprop-Plateau"])
def test_loss_curves_agree(optimizer, kw, scheduler):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 6)).astype("float32")
    y = np.sin(x[:, :2] * 2).astype("float32")
    w1 = (rng.standard_normal((6, 16)) * 0.4).astype("float32")
    b1 = np.zeros(16, "float32")
    w2 = (rng.standard_normal((16, 2)) * 0.25).astype("float32")
    b2 = np.zeros(2, "float32")
    want, want_p = _train(torch, w1, b1, w2, b2, x, y, optimizer, kw, scheduler)
    got, got_p = _train(tv, w1, b1, w2, b2, x, y, optimizer, kw, scheduler)
    assert want[-1] < want[0] * 0.8  # the run trains at all
    np.testing.assert_allclose(got, want, rtol=2e-4, atol=1e-6)
    for a, b in zip(want_p, got_p):
        np.testing.assert_allclose(b, a, rtol=2e-4, atol=2e-5)
