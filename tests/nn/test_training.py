"""One training run in both libraries: the same 64->64->ReLU->10 MLP from one state_dict, on
scikit-learn's bundled digits (no download), the same batch order, plain SGD (momentum
written out) under no_grad; the loss curves and final weights agree to float32 rounding."""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz
from nn_harness import copy_state

torch = pytest.importorskip("torch")


def _digits():
    datasets = pytest.importorskip("sklearn.datasets")
    d = datasets.load_digits()
    return (d.data / 16.0).astype("float32"), d.target.astype("int64")


def _mlp(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))


def _train(lib, model, X, y, order, lr=0.1, momentum=0.9, batch=64):
    """Losses per step, and test accuracy, of a hand-written SGD-with-momentum loop."""
    loss_fn = lib.nn.CrossEntropyLoss()
    bufs = [None] * len(list(model.parameters()))
    losses = []
    model.train()
    for epoch_order in order:
        for i in range(0, len(epoch_order), batch):
            idx = epoch_order[i:i + batch]
            xb, yb = lib.tensor(X[idx]), lib.tensor(y[idx])
            loss = loss_fn(model(xb), yb)
            model.zero_grad()
            loss.backward()
            with lib.no_grad():
                for k, p in enumerate(model.parameters()):
                    g = p.grad
                    bufs[k] = g.clone() if bufs[k] is None else bufs[k].mul_(momentum).add_(g)
                    p.add_(bufs[k], alpha=-lr)
            losses.append(loss.item())
    return np.array(losses)


def test_mlp_training_curves_agree():
    X, y = _digits()
    rng = np.random.default_rng(0)
    perm = rng.permutation(len(X))
    train, test = perm[:1500], perm[1500:]
    order = [train[rng.permutation(len(train))] for _ in range(4)]
    torch.manual_seed(0)
    pt = _mlp(torch)
    tv = _mlp(tensorviz)
    copy_state(pt, tv)
    lp = _train(torch, pt, X, y, order)
    lt = _train(tensorviz, tv, X, y, order)
    assert len(lp) == len(lt) == 4 * 24
    # the curve descends (a real run), and both libraries trace the same one
    assert lp[-10:].mean() < 0.5 * lp[:10].mean()
    np.testing.assert_allclose(lt, lp, rtol=2e-4, atol=2e-5)
    for (n, a), (_, b) in zip(pt.state_dict().items(), tv.state_dict().items()):
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-3, atol=1e-4, err_msg=n)
    pt.eval(), tv.eval()
    with torch.no_grad():
        acc_p = (pt(torch.tensor(X[test])).argmax(1).numpy() == y[test]).mean()
    with tensorviz.no_grad():
        acc_t = (tv(tensorviz.tensor(X[test])).argmax(1).numpy() == y[test]).mean()
    assert acc_t == acc_p and acc_t > 0.9
