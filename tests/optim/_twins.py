"""Helpers for running one optimizer program on PyTorch and on tensorviz side by side."""
from __future__ import annotations

import numpy as np

import tensorviz as tv

# Float32 steps agree to rounding: our elementwise kernels (add with alpha, lerp, addcdiv)
# round a few ulps differently from ATen's fused ones, and Adam-style divisions magnify
# that where the second moment is tiny. Float64 is held to 1e-10 over 40 steps.
TOL = {"float32": dict(rtol=2e-5, atol=2e-6), "float64": dict(rtol=1e-10, atol=1e-12)}


def make_params(torch, shapes, dtype, seed):
    """The same leaf tensors (requires_grad) in both libraries, from one seed."""
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal(s).astype(dtype) for s in shapes]
    tp = [torch.tensor(a.copy(), requires_grad=True) for a in arrays]
    vp = [tv.tensor(a.copy(), requires_grad=True) for a in arrays]
    return tp, vp


def set_grads(torch, tp, vp, rng, dtype, missing=()):
    """Give each parameter the same random gradient (None for the indices in ``missing``)."""
    for i, (a, b) in enumerate(zip(tp, vp)):
        if i in missing:
            a.grad = None
            b.grad = None
            continue
        g = rng.standard_normal(tuple(a.shape)).astype(dtype)
        a.grad = torch.tensor(g.copy())
        b.grad = tv.tensor(g.copy())


def to_np(x):
    return x.detach().numpy() if hasattr(x, "detach") else np.asarray(x)


def assert_close(a, b, dtype, what=""):
    np.testing.assert_allclose(to_np(b), to_np(a), err_msg=what, **TOL[dtype])


def assert_same_state(topt, vopt, dtype, versions=True):
    """Both optimizers hold the same state entries (names, dtypes, shapes, values)."""
    tsd, vsd = topt.state_dict(), vopt.state_dict()
    assert tsd["param_groups"] == vsd["param_groups"]
    assert list(tsd["state"]) == list(vsd["state"])
    for k in tsd["state"]:
        ts, vs = tsd["state"][k], vsd["state"][k]
        assert list(ts) == list(vs), (ts.keys(), vs.keys())
        for name in ts:
            a, b = ts[name], vs[name]
            if a is None:
                assert b is None
                continue
            assert str(b.dtype).split(".")[-1] == str(a.dtype).split(".")[-1], name
            assert tuple(b.shape) == tuple(a.shape), name
            if versions:
                assert b._version == a._version, f"state[{k}][{name}] version"
            if name == "step":
                assert a.item() == b.item()
            else:
                assert_close(a, b, dtype, f"state[{k}][{name}]")
