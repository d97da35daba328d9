"""The direct paths of ``nn/_fast.py`` (linear, relu, log_softmax, nll_loss / cross_entropy on
2-D CPU float tensors) and the array backward of their formulas, against PyTorch: values,
gradients, ``grad_fn`` names, ``next_functions`` and saved versions, on seeded random cases
with NaN/inf/-0.0, ignored targets and every reduction."""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz as tv

torch = pytest.importorskip("torch")

DTYPES = [(np.float32, tv.float32, torch.float32), (np.float64, tv.float64, torch.float64)]


def _pair(a, requires_grad=True):
    return (tv.tensor(a, requires_grad=requires_grad),
            torch.tensor(a, requires_grad=requires_grad))


def _same(t, r, exact=False):
    assert tuple(t.shape) == tuple(r.shape) and tuple(t.stride()) == tuple(r.stride())
    a, b = t.detach().numpy(), r.detach().numpy()
    assert a.dtype == b.dtype
    if exact:
        np.testing.assert_array_equal(a, b)
    else:
        np.testing.assert_allclose(a, b, rtol=1e-5 if a.dtype == np.float32 else 1e-12,
                                   atol=1e-6 if a.dtype == np.float32 else 1e-12)


def _names(fn):
    """The graph below ``fn`` as nested (name, children) tuples."""
    if fn is None:
        return None
    return (fn.name().split("::")[-1],
            tuple((_names(n), nr) for n, nr in fn.next_functions))


def _special(rng, shape, dt):
    a = rng.standard_normal(shape).astype(dt)
    k = rng.integers(0, 4)
    flat = a.reshape(-1)
    flat[rng.integers(0, flat.size, k)] = rng.choice([np.nan, np.inf, -np.inf, -0.0, 0.0], k)
    return a


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("np_dt,tv_dt,th_dt", DTYPES)
def test_mlp_step_matches_torch(seed, np_dt, tv_dt, th_dt):
    rng = np.random.default_rng(seed)
    n, i, h, c = rng.integers(1, 9), rng.integers(1, 7), rng.integers(1, 7), rng.integers(2, 6)
    bias = bool(rng.integers(0, 2))
    x = rng.standard_normal((n, i)).astype(np_dt)
    w1, b1 = rng.standard_normal((h, i)).astype(np_dt), rng.standard_normal(h).astype(np_dt)
    w2, b2 = rng.standard_normal((c, h)).astype(np_dt), rng.standard_normal(c).astype(np_dt)
    target = rng.integers(0, c, n)
    ignore = int(rng.choice([-100, 0, c - 1, 7]))
    if rng.integers(0, 2):
        target[rng.integers(0, n)] = -100 if ignore == -100 else ignore
    reduction = str(rng.choice(["mean", "sum", "none"]))
    outs = []
    for lib in (tv, torch):
        F = lib.nn.functional
        ps = [lib.tensor(a, requires_grad=True) for a in (w1, b1, w2, b2)]
        xt = lib.tensor(x, requires_grad=bool(seed % 2))
        hid = F.relu(F.linear(xt, ps[0], ps[1] if bias else None))
        logits = F.linear(hid, ps[2], ps[3])
        loss = F.cross_entropy(logits, lib.tensor(target), ignore_index=ignore,
                               reduction=reduction)
        names = _names(loss.grad_fn)
        (loss.sum() if reduction == "none" else loss).backward()
        outs.append((loss, names, ps, xt, hid))
    (l1, n1, p1, x1, h1), (l2, n2, p2, x2, h2) = outs
    _same(l1, l2)
    assert n1 == n2
    _same(h1, h2, exact=False)
    for a, b in zip(p1 if bias else p1[:1] + p1[2:], p2 if bias else p2[:1] + p2[2:]):
        _same(a.grad, b.grad)
    if x2.grad is not None:
        _same(x1.grad, x2.grad)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("np_dt,tv_dt,th_dt", DTYPES)
def test_relu_and_log_softmax_special_values(seed, np_dt, tv_dt, th_dt):
    rng = np.random.default_rng(100 + seed)
    a = _special(rng, (int(rng.integers(1, 6)), int(rng.integers(1, 6))), np_dt)
    dim = int(rng.choice([0, 1, -1, -2]))
    t, r = _pair(a)
    for f in (lambda lib, x: lib.nn.functional.relu(x),
              lambda lib, x: lib.nn.functional.log_softmax(x, dim)):
        yt, yr = f(tv, t), f(torch, r)
        _same(yt, yr, exact=f is not None and yt.grad_fn.name() == "ReluBackward0")
        if yt.grad_fn.name() == "ReluBackward0":  # (bit for bit: relu(-0.0) is -0.0)
            assert yt.detach().numpy().tobytes() == yr.detach().numpy().tobytes()
        assert yt.grad_fn.name() == yr.grad_fn.name()
        relu = yt.grad_fn.name() == "ReluBackward0"
        # (ReluBackward0 on the arrays is bitwise: special gradients must pass bit for bit)
        g = _special(rng, a.shape, np_dt) if relu else rng.standard_normal(a.shape).astype(np_dt)
        (gt,), (gr,) = tv.autograd.grad(yt, t, tv.tensor(g)), torch.autograd.grad(
            yr, r, torch.tensor(g))
        _same(gt, gr, exact=relu)
        if relu:
            assert gt.numpy().tobytes() == gr.numpy().tobytes()


def test_saved_result_version_is_checked():
    for lib in (tv, torch):
        x = lib.randn(3, 4, requires_grad=True)
        y = lib.nn.functional.log_softmax(x, 1)
        y.mul_(2)
        with pytest.raises(RuntimeError, match="is at version 1; expected version 0"):
            y.sum().backward()


def test_bad_target_message_is_the_general_paths():
    for lib in (tv, torch):
        x = lib.randn(3, 4, requires_grad=True)
        with pytest.raises(IndexError, match="Target 4 is out of bounds."):
            lib.nn.functional.cross_entropy(x, lib.tensor([0, 4, 1]))


def test_linear_no_grad_and_mixed_requires_grad():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((5, 3)).astype(np.float32)
    w = rng.standard_normal((2, 3)).astype(np.float32)
    for wr in (False, True):
        t = tv.nn.functional.linear(tv.tensor(x, requires_grad=True), tv.tensor(w,
                                    requires_grad=wr))
        r = torch.nn.functional.linear(torch.tensor(x, requires_grad=True),
                                       torch.tensor(w, requires_grad=wr))
        assert _names(t.grad_fn) == _names(r.grad_fn)
        _same(t, r)
    with tv.no_grad():
        t = tv.nn.functional.linear(tv.tensor(x), tv.tensor(w, requires_grad=True))
    assert t.grad_fn is None and not t.requires_grad


@pytest.mark.parametrize("seed", range(16))
def test_conv_pool_step_matches_torch(seed):
    """conv2d -> relu -> max_pool2d (ties from a few distinct values, -inf, strides,
    padding, dilation, ceil mode) -> linear, values and every gradient."""
    rng = np.random.default_rng(300 + seed)
    np_dt = np.float32 if seed % 2 else np.float64
    n, c, o = int(rng.integers(1, 4)), int(rng.integers(1, 3)), int(rng.integers(1, 4))
    h, w = int(rng.integers(4, 9)), int(rng.integers(4, 9))
    k = int(rng.integers(1, 4))
    cpad, cstride = int(rng.integers(0, 2)), int(rng.integers(1, 3))
    pk = int(rng.integers(1, 3))
    pstride, ppad = int(rng.integers(1, 3)), int(rng.integers(0, pk // 2 + 1))
    pdil, ceil = int(rng.integers(1, 3)), bool(rng.integers(0, 2))
    x = rng.integers(-2, 3, (n, c, h, w)).astype(np_dt)
    if rng.integers(0, 2):
        x[0, 0, 0, 0] = -np.inf
    wt = rng.integers(-1, 2, (o, c, k, k)).astype(np_dt)
    b = rng.standard_normal(o).astype(np_dt)
    res = []
    for lib in (tv, torch):
        F = lib.nn.functional
        xt, wl, bl = (lib.tensor(a, requires_grad=True) for a in (x, wt, b))
        y = F.relu(F.conv2d(xt, wl, bl, stride=cstride, padding=cpad))
        try:
            p, idx = F.max_pool2d(y, pk, pstride, ppad, pdil, ceil, return_indices=True)
        except RuntimeError as e:
            res.append(("error", str(e)))
            continue
        g = lib.tensor(np.random.default_rng(seed).standard_normal(tuple(p.shape)).astype(
            np_dt))
        (p * g).sum().backward()
        res.append((p, idx, xt.grad, wl.grad, bl.grad, _names(p.grad_fn)))
    if res[0][0] == "error" or res[1][0] == "error":
        assert res[0] == res[1]
        return
    (p1, i1, *g1, n1), (p2, i2, *g2, n2) = res
    _same(p1, p2)
    np.testing.assert_array_equal(i1.numpy(), i2.numpy())
    assert n1 == n2
    for a, r in zip(g1, g2):
        _same(a, r)
