"""Differential helpers for ``tensorviz.nn`` against PyTorch.

``twin_modules(name, *args, **kw)`` builds the same layer in both libraries and copies
PyTorch's weights into tensorviz's (state_dict -> numpy -> load_state_dict), so both start
equal; ``run_both(pt_mod, tv_mod, inputs)`` runs the same inputs forward and backward and
``assert_close`` compares tensors (float32/float64 tolerances).
"""
from __future__ import annotations

from collections import OrderedDict

import numpy as np

import tensorviz
from tests.autograd._diff import graph_signature

TOL = {"float32": (2e-4, 2e-5), "float64": (1e-9, 1e-11)}


def np_of(t):
    """A tensor of either library as a NumPy array (detached)."""
    if hasattr(t, "detach"):
        t = t.detach()
    if hasattr(t, "numpy"):
        return np.asarray(t.numpy())
    return np.asarray(t)


def to_tv(a, requires_grad=False):
    """A NumPy array or torch tensor as a tensorviz tensor (a copy)."""
    a = np.array(np_of(a), copy=True)
    t = tensorviz.tensor(a)
    if requires_grad:
        t.requires_grad_(True)
    return t


def to_pt(a, requires_grad=False):
    import torch
    t = torch.tensor(np.array(np_of(a), copy=True))
    if requires_grad:
        t.requires_grad_(True)
    return t


def copy_state(pt_mod, tv_mod):
    """Load ``pt_mod``'s state_dict into ``tv_mod`` (through NumPy)."""
    sd = OrderedDict((k, tensorviz.tensor(np.array(v.detach().numpy(), copy=True)))
                     for k, v in pt_mod.state_dict().items())
    res = tv_mod.load_state_dict(sd)
    assert not res.missing_keys and not res.unexpected_keys, res


def twin_modules(name, *args, dtype="float64", **kw):
    """The layer ``name`` built in both libraries with tensorviz's weights copied from torch."""
    import torch
    torch.manual_seed(0)
    pt = getattr(torch.nn, name)(*args, **kw)
    tv = getattr(tensorviz.nn, name)(*args, **kw)
    if dtype == "float64":
        pt = pt.double()
        tv = tv.double()
    copy_state(pt, tv)
    return pt, tv


def assert_close(a, b, dtype="float64", what=""):
    a, b = np_of(a), np_of(b)
    assert a.shape == b.shape, f"{what}: shape {a.shape} != {b.shape}"
    if a.dtype.kind in "fc":
        rtol, atol = TOL[str(b.dtype)] if str(b.dtype) in TOL else TOL[dtype]
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=what)
    else:
        np.testing.assert_array_equal(a, b, err_msg=what)
    assert str(a.dtype) == str(b.dtype), f"{what}: dtype {a.dtype} != {b.dtype}"


def flat(out):
    """A forward result flattened into a list of tensors (tuples of (h, c) included)."""
    if isinstance(out, (tuple, list)):
        res = []
        for o in out:
            res.extend(flat(o))
        return res
    if out is None:
        return []
    return [out]



def run_both(pt_mod, tv_mod, inputs, dtype="float64", grad_inputs=None, check_grad_fn=True,
             seed=0):
    """Forward both modules on the same ``inputs`` (NumPy arrays), backward a random weighted sum
    of every float output, and compare outputs, input gradients and parameter gradients."""
    rng = np.random.default_rng(seed)
    if grad_inputs is None:
        grad_inputs = [np.asarray(x).dtype.kind == "f" for x in inputs]
    pt_in = [to_pt(x, g) if x is not None else None for x, g in zip(inputs, grad_inputs)]
    tv_in = [to_tv(x, g) if x is not None else None for x, g in zip(inputs, grad_inputs)]
    pt_out = flat(pt_mod(*pt_in))
    tv_out = flat(tv_mod(*tv_in))
    assert len(pt_out) == len(tv_out)
    import torch
    pt_loss = 0
    tv_loss = 0
    for i, (p, t) in enumerate(zip(pt_out, tv_out)):
        assert_close(t, p, dtype, f"output {i}")
        assert tuple(t.shape) == tuple(p.shape)
        if p.requires_grad:
            assert t.requires_grad, f"output {i} should require grad"
            # PyTorch's float32 LSTM on CPU records its oneDNN kernel's node
            if check_grad_fn and not type(p.grad_fn).__name__.startswith("Mkldnn"):
                assert type(t.grad_fn).__name__ == type(p.grad_fn).__name__, (
                    f"output {i}: grad_fn {type(t.grad_fn).__name__} != "
                    f"{type(p.grad_fn).__name__}")
                pt_sig = graph_signature(p.grad_fn, 1)
                # (PyTorch's float32 LSTM on CPU runs oneDNN's fused kernel: its own nodes)
                assert "Mkldnn" in str(pt_sig) or graph_signature(t.grad_fn, 1) == pt_sig, (
                    f"output {i}: graph {graph_signature(t.grad_fn, 1)} != "
                    f"{graph_signature(p.grad_fn, 1)}")
            w = rng.standard_normal(tuple(p.shape)).astype(np_of(p).dtype)
            pt_loss = pt_loss + (p * torch.tensor(w)).sum()
            tv_loss = tv_loss + (t * tensorviz.tensor(w)).sum()
    if isinstance(pt_loss, int):
        return pt_out, tv_out
    pt_loss.backward()
    tv_loss.backward()
    for i, (p, t) in enumerate(zip(pt_in, tv_in)):
        if p is not None and p.requires_grad:
            if p.grad is None:
                assert t.grad is None
            else:
                assert_close(t.grad, p.grad, dtype, f"grad of input {i}")
    tv_params = dict(tv_mod.named_parameters())
    for name, p in pt_mod.named_parameters():
        t = tv_params[name]
        if p.grad is None:
            assert t.grad is None, f"grad of {name} should be None"
        else:
            assert t.grad is not None, f"grad of {name} missing"
            assert_close(t.grad, p.grad, dtype, f"grad of {name}")
    return pt_out, tv_out


def outcome(fn):
    """``("ok", result)`` or ``("err", type name, message)`` of ``fn()``, warnings recorded."""
    import warnings as _w
    with _w.catch_warnings(record=True) as caught:
        _w.simplefilter("always")
        try:
            res = fn()
        except Exception as e:  # noqa: BLE001 - we compare whatever is raised
            return ("err", type(e).__name__, str(e).replace("torch.", "tensorviz.")), \
                [str(w.message).replace("torch.", "tensorviz.") for w in caught]
    return ("ok", res), [str(w.message).replace("torch.", "tensorviz.") for w in caught]


def same_error(pt_fn, tv_fn):
    """Both raise the same exception type with the same message (modulo the package name)."""
    p, _ = outcome(pt_fn)
    t, _ = outcome(tv_fn)
    assert p[0] == "err", f"PyTorch did not raise: {p}"
    assert t[:3] == p[:3], f"\ntensorviz: {t}\nPyTorch:   {p}"


def same_warnings(pt_fn, tv_fn):
    """Both emit the same warning messages (modulo the package name)."""
    _, pw = outcome(pt_fn)
    _, tw = outcome(tv_fn)
    assert tw == pw, f"\ntensorviz: {tw}\nPyTorch:   {pw}"
