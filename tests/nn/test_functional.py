"""nn.functional against PyTorch where the layer tests do not reach: attention (masks, causal,
key padding, weights), one_hot, pad modes, interpolate, normalize, cosine_similarity, dropout's
semantics, embedding max_norm, conv/pool functional options and their errors."""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz
from nn_harness import assert_close, same_error, to_pt, to_tv

torch = pytest.importorskip("torch")
TF = torch.nn.functional
VF = tensorviz.nn.functional


def both(fn_name, arrays, grads=None, dtype="float64", check_grad_fn=True, **kw):
    """Run ``F.<fn_name>(*arrays, **kw)`` in both libraries; compare outputs and gradients."""
    grads = grads if grads is not None else [a.dtype.kind == "f" for a in arrays]
    pins = [to_pt(a, g) for a, g in zip(arrays, grads)]
    tins = [to_tv(a, g) for a, g in zip(arrays, grads)]
    p = getattr(TF, fn_name)(*pins, **kw)
    t = getattr(VF, fn_name)(*tins, **kw)
    ps = p if isinstance(p, tuple) else (p,)
    ts = t if isinstance(t, tuple) else (t,)
    rng = np.random.default_rng(7)
    lp = lt = 0
    for a, b in zip(ps, ts):
        if a is None:
            assert b is None
            continue
        assert_close(b, a, dtype, fn_name)
        if a.requires_grad:
            if check_grad_fn:
                assert type(b.grad_fn).__name__ == type(a.grad_fn).__name__
            w = rng.standard_normal(tuple(a.shape))
            lp = lp + (a * torch.tensor(w, dtype=a.dtype)).sum()
            lt = lt + (b * tensorviz.tensor(w, dtype=b.dtype)).sum()
    if not isinstance(lp, int):
        lp.backward()
        lt.backward()
        for i, (a, b) in enumerate(zip(pins, tins)):
            if a.requires_grad:
                assert_close(b.grad, a.grad, dtype, f"{fn_name} grad {i}")
    return p, t


R = np.random.default_rng(11)


def rn(*shape, dtype="float64"):
    return R.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("mask", ["none", "bool", "float", "causal"])
@pytest.mark.parametrize("shape", [(2, 3, 5, 4), (5, 4), (2, 5, 4)])
def test_scaled_dot_product_attention(dtype, mask, shape):
    q = rn(*shape, dtype=dtype)
    k = rn(*shape[:-2], 6 if mask != "causal" else shape[-2], shape[-1], dtype=dtype)
    v = rn(*k.shape[:-1], 3, dtype=dtype)
    kw = {}
    if mask == "bool":
        m = R.random((shape[-2], k.shape[-2])) < 0.7
        m[:, 0] = True
        kw["attn_mask"] = None
        arrays = [q, k, v]
        p, t = None, None
        pm, tm = torch.tensor(m), tensorviz.tensor(m)
        pins = [to_pt(a, True) for a in arrays]
        tins = [to_tv(a, True) for a in arrays]
        p = TF.scaled_dot_product_attention(*pins, attn_mask=pm)
        t = VF.scaled_dot_product_attention(*tins, attn_mask=tm)
        assert_close(t, p, dtype)
        p.sum().backward()
        t.sum().backward()
        for a, b in zip(pins, tins):
            assert_close(b.grad, a.grad, dtype)
        return
    if mask == "float":
        kw["attn_mask"] = None
        fm = rn(shape[-2], k.shape[-2], dtype=dtype)
        both("scaled_dot_product_attention", [q, k, v, fm], [True, True, True, True],
             dtype=dtype, check_grad_fn=False)
        return
    if mask == "causal":
        kw["is_causal"] = True
    both("scaled_dot_product_attention", [q, k, v], dtype=dtype, check_grad_fn=False,
         scale=0.3 if mask == "none" else None, **kw)


def test_sdpa_errors():
    q = rn(2, 3, 4)
    same_error(lambda: TF.scaled_dot_product_attention(to_pt(q), to_pt(q), to_pt(q),
                                                       attn_mask=torch.ones(3, 3, dtype=torch.bool),
                                                       is_causal=True),
               lambda: VF.scaled_dot_product_attention(to_tv(q), to_tv(q), to_tv(q),
                                                       attn_mask=tensorviz.ones(3, 3,
                                                                                dtype=tensorviz.bool),
                                                       is_causal=True))


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("masks", ["kpm", "attn_bool", "attn_float", "both", "causal3d"])
@pytest.mark.parametrize("need_weights,average", [(True, True), (True, False), (False, True)])
def test_multihead_attention_masks(batch_first, masks, need_weights, average):
    torch.manual_seed(0)
    pt = torch.nn.MultiheadAttention(8, 2, batch_first=batch_first).double()
    tv = tensorviz.nn.MultiheadAttention(8, 2, batch_first=batch_first).double()
    sd = {k: tensorviz.tensor(v.numpy()) for k, v in pt.state_dict().items()}
    tv.load_state_dict(sd)
    L, S, N = 4, 5, 2
    shp = (N, L, 8) if batch_first else (L, N, 8)
    shk = (N, S, 8) if batch_first else (S, N, 8)
    q, k, v = rn(*shp), rn(*shk), rn(*shk)
    kwp, kwt = {}, {}
    if masks in ("kpm", "both"):
        m = np.zeros((N, S), bool)
        m[0, -2:] = True
        kwp["key_padding_mask"], kwt["key_padding_mask"] = torch.tensor(m), tensorviz.tensor(m)
    if masks in ("attn_bool", "both"):
        m = np.triu(np.ones((L, S), bool), 2)
        kwp["attn_mask"], kwt["attn_mask"] = torch.tensor(m), tensorviz.tensor(m)
    if masks == "attn_float":
        m = rn(L, S)
        kwp["attn_mask"], kwt["attn_mask"] = torch.tensor(m), tensorviz.tensor(m)
    if masks == "causal3d":
        m = np.triu(np.full((N * 2, L, S), -np.inf), 1)
        kwp["attn_mask"], kwt["attn_mask"] = torch.tensor(m), tensorviz.tensor(m)
    pq, pk, pv = (to_pt(a, True) for a in (q, k, v))
    tq, tk, tvv = (to_tv(a, True) for a in (q, k, v))
    po, pw = pt(pq, pk, pv, need_weights=need_weights, average_attn_weights=average, **kwp)
    to, tw = tv(tq, tk, tvv, need_weights=need_weights, average_attn_weights=average, **kwt)
    assert_close(to, po)
    if pw is None:
        assert tw is None
    else:
        assert_close(tw, pw)
    (po.sum() + (pw.sum() if pw is not None else 0)).backward()
    (to.sum() + (tw.sum() if tw is not None else 0)).backward()
    for a, b in ((pq, tq), (pk, tk), (pv, tvv)):
        assert_close(b.grad, a.grad)
    for (n, a), (_, b) in zip(pt.named_parameters(), tv.named_parameters()):
        assert_close(b.grad, a.grad, "float64", n)


def test_one_hot():
    for data, nc in (([0, 2, 1], -1), ([[1, 0], [3, 3]], 5), ([], 3)):
        p = TF.one_hot(torch.tensor(data, dtype=torch.long), nc)
        t = VF.one_hot(tensorviz.tensor(data, dtype=tensorviz.long), nc)
        assert_close(t, p)
    same_error(lambda: TF.one_hot(torch.tensor([0, 3]), 3),
               lambda: VF.one_hot(tensorviz.tensor([0, 3]), 3))
    same_error(lambda: TF.one_hot(torch.tensor([0.0, 1.0]), 3),
               lambda: VF.one_hot(tensorviz.tensor([0.0, 1.0]), 3))
    same_error(lambda: TF.one_hot(torch.tensor([0, -1]), 3),
               lambda: VF.one_hot(tensorviz.tensor([0, -1]), 3))


@pytest.mark.parametrize("mode,pad,shape", [
    ("constant", (1, 2), (2, 3)), ("constant", (1, 0, 2, 1), (2, 3, 4)),
    ("constant", (-1, 2), (2, 5)), ("constant", (1, 1, 1, 1, 1, 1), (1, 2, 3, 4)),
    ("reflect", (2, 1), (2, 3, 5)), ("reflect", (1, 2, 2, 0), (1, 2, 4, 5)),
    ("replicate", (2, 3), (2, 3, 4)), ("replicate", (1, 2, 0, 3), (2, 4, 3)),
    ("circular", (1, 2), (2, 3, 4)), ("circular", (2, 1, 1, 2), (1, 2, 3, 4)),
])
def test_pad(mode, pad, shape):
    kw = {"value": 1.5} if mode == "constant" else {}
    both("pad", [rn(*shape)], mode=mode, pad=pad, check_grad_fn=False, **kw)


def test_pad_errors():
    x = rn(2, 3)
    same_error(lambda: TF.pad(to_pt(x), (1,)), lambda: VF.pad(to_tv(x), (1,)))
    same_error(lambda: TF.pad(to_pt(x), (3, 3), mode="reflect"),
               lambda: VF.pad(to_tv(x), (3, 3), mode="reflect"))
    same_error(lambda: TF.pad(to_pt(x), (1, 1), mode="nope"),
               lambda: VF.pad(to_tv(x), (1, 1), mode="nope"))


@pytest.mark.parametrize("kw,shape", [
    ({"scale_factor": 2, "mode": "nearest"}, (1, 2, 3)),
    ({"size": 7, "mode": "nearest"}, (1, 2, 3)),
    ({"size": (5, 3), "mode": "nearest"}, (1, 2, 3, 4)),
    ({"scale_factor": 1.7, "mode": "nearest"}, (2, 1, 3, 4)),
    ({"size": 7, "mode": "linear"}, (1, 2, 3)),
    ({"size": 7, "mode": "linear", "align_corners": True}, (1, 2, 3)),
    ({"scale_factor": 2, "mode": "bilinear"}, (1, 2, 3, 4)),
    ({"size": (2, 3), "mode": "bilinear"}, (1, 2, 5, 7)),
    ({"size": (6, 5), "mode": "bilinear", "align_corners": True}, (2, 1, 3, 4)),
    ({"scale_factor": (0.5, 1.5), "mode": "bilinear"}, (1, 1, 4, 4)),
    ({"size": (2, 3), "mode": "area"}, (1, 2, 4, 6)),
    ({"scale_factor": 2, "mode": "nearest-exact"}, (1, 2, 3, 3)),
    ({"size": (5, 5), "mode": "bicubic"}, (1, 1, 3, 4)),
])
def test_interpolate(kw, shape):
    both("interpolate", [rn(*shape)], check_grad_fn=False, **kw)


def test_interpolate_errors_and_warnings():
    x = rn(1, 2, 3)
    same_error(lambda: TF.interpolate(to_pt(x)), lambda: VF.interpolate(to_tv(x)))
    same_error(lambda: TF.interpolate(to_pt(x), size=2, scale_factor=2),
               lambda: VF.interpolate(to_tv(x), size=2, scale_factor=2))
    same_error(lambda: TF.interpolate(to_pt(x), size=4, mode="bilinear"),
               lambda: VF.interpolate(to_tv(x), size=4, mode="bilinear"))
    same_error(lambda: TF.interpolate(to_pt(x), size=4, mode="nearest", align_corners=True),
               lambda: VF.interpolate(to_tv(x), size=4, mode="nearest", align_corners=True))


@pytest.mark.parametrize("fn,kw,shapes", [
    ("normalize", {}, [(3, 4)]), ("normalize", {"p": 1.0, "dim": 0}, [(3, 4)]),
    ("normalize", {"p": 3.0, "dim": -1, "eps": 1e-3}, [(2, 3, 4)]),
    ("cosine_similarity", {}, [(3, 4), (3, 4)]),
    ("cosine_similarity", {"dim": 0}, [(3, 4), (1, 4)]),
    ("cosine_similarity", {"dim": -1, "eps": 0.5}, [(2, 3, 4), (3, 4)]),
    ("pairwise_distance", {}, [(3, 4), (3, 4)]), ("pairwise_distance", {"p": 1.0}, [(3, 4), (4,)]),
    ("pairwise_distance", {"keepdim": True, "p": 3.0}, [(3, 4), (3, 4)]),
    ("softmax", {"dim": 0}, [(3, 4)]), ("log_softmax", {"dim": -1}, [(2, 3, 4)]),
    ("softmin", {"dim": 1}, [(3, 4)]),
    ("glu", {"dim": 0}, [(4, 3)]), ("logsigmoid", {}, [(3, 4)]),
    ("rms_norm", {"normalized_shape": (4,)}, [(3, 4)]),
    ("local_response_norm", {"size": 3}, [(2, 5, 4)]),
    ("linear", {}, [(3, 4), (2, 4), (2,)]), ("bilinear", {}, [(3, 4), (3, 2), (5, 4, 2)]),
    ("layer_norm", {"normalized_shape": (4,)}, [(3, 4)]),
    ("group_norm", {"num_groups": 2}, [(3, 4, 5)]),
    ("prelu", {}, [(3, 4), (4,)]), ("prelu", {}, [(3, 4, 2), (1,)]),
])
def test_functional_values_and_gradients(fn, kw, shapes):
    both(fn, [rn(*s) for s in shapes], check_grad_fn=False, **kw)


def test_softmax_dtype_and_implicit_dim_warning():
    x = rn(3, 4).astype("float32")
    p = TF.softmax(to_pt(x), dim=1, dtype=torch.float64)
    t = VF.softmax(to_tv(x), dim=1, dtype=tensorviz.float64)
    assert_close(t, p)
    import warnings
    with warnings.catch_warnings(record=True) as pw:
        warnings.simplefilter("always")
        TF.softmax(to_pt(x))
    with warnings.catch_warnings(record=True) as tw:
        warnings.simplefilter("always")
        VF.softmax(to_tv(x))
    assert [str(w.message) for w in tw] == [str(w.message) for w in pw]


def test_dropout_semantics():
    x = tensorviz.ones(1000, 10)
    y = VF.dropout(x, 0.3, training=True)
    vals = np.unique(y.numpy())
    np.testing.assert_allclose(sorted(vals), [0.0, 1 / 0.7], rtol=1e-6)
    frac = float((y == 0).float().mean())
    assert 0.27 < frac < 0.33
    m = tensorviz.nn.Dropout(0.3).eval()
    assert m(x) is x
    assert VF.dropout(x, 0.3, training=False) is x
    assert float(VF.dropout(x, 1.0).sum()) == 0.0
    assert VF.dropout(x, 0.0) is not None and bool((VF.dropout(x, 0.0) == x).all())
    same_error(lambda: TF.dropout(torch.ones(2), 1.5), lambda: VF.dropout(tensorviz.ones(2), 1.5))
    same_error(lambda: torch.nn.Dropout(-0.1), lambda: tensorviz.nn.Dropout(-0.1))
    # dropout2d zeroes whole channels, scaled survivors
    z = VF.dropout2d(tensorviz.ones(8, 16, 3, 3), 0.5, training=True).numpy()
    per_channel = z.reshape(8, 16, 9)
    assert np.all((per_channel == 0).all(-1) | (per_channel == 2.0).all(-1))
    # the gradient flows through the same mask, scaled
    xg = tensorviz.ones(50, 4, requires_grad=True)
    out = VF.dropout(xg, 0.5)
    out.sum().backward()
    np.testing.assert_array_equal(xg.grad.numpy(), out.detach().numpy())
    assert type(out.grad_fn).__name__ == type(TF.dropout(torch.ones(2, requires_grad=True),
                                                          0.5).grad_fn).__name__


def test_embedding_max_norm_padding_and_errors():
    rng = np.random.default_rng(0)
    w = rng.standard_normal((10, 3)) * 3
    idx = np.array([[1, 2, 2], [0, 9, 1]])
    pw, tw = to_pt(w), to_tv(w)
    po = TF.embedding(torch.tensor(idx), pw, max_norm=1.5)
    to = VF.embedding(tensorviz.tensor(idx), tw, max_norm=1.5)
    assert_close(to, po)
    assert_close(tw, pw)  # renormalised in place
    pw2, tw2 = to_pt(w, True), to_tv(w, True)
    TF.embedding(torch.tensor(idx), pw2, padding_idx=2).sum().backward()
    VF.embedding(tensorviz.tensor(idx), tw2, padding_idx=2).sum().backward()
    assert_close(tw2.grad, pw2.grad)
    pw3, tw3 = to_pt(w, True), to_tv(w, True)
    TF.embedding(torch.tensor(idx), pw3, scale_grad_by_freq=True).sum().backward()
    VF.embedding(tensorviz.tensor(idx), tw3, scale_grad_by_freq=True).sum().backward()
    assert_close(tw3.grad, pw3.grad)
    same_error(lambda: TF.embedding(torch.tensor([10]), pw),
               lambda: VF.embedding(tensorviz.tensor([10]), tw))
    same_error(lambda: TF.embedding(torch.tensor([1.0]), pw),
               lambda: VF.embedding(tensorviz.tensor([1.0]), tw))
    same_error(lambda: torch.nn.Embedding(5, 2, padding_idx=7),
               lambda: tensorviz.nn.Embedding(5, 2, padding_idx=7))


def test_conv_and_pool_errors():
    x = rn(1, 2, 5, 5)
    w = rn(3, 2, 3, 3)
    cases = [
        (lambda F, t, wt: F.conv2d(t, wt, padding="same", stride=2)),
        (lambda F, t, wt: F.conv2d(t, wt, padding="valid2")),
        (lambda F, t, wt: F.conv2d(t[:, :1], wt)),
        (lambda F, t, wt: F.conv2d(t, wt, groups=2)),
        (lambda F, t, wt: F.conv2d(t[0, 0], wt)),
        (lambda F, t, wt: F.max_pool2d(t, 2, padding=2)),
        (lambda F, t, wt: F.avg_pool2d(t, 7)),
        (lambda F, t, wt: F.conv2d(t, wt[:, :, :1, :1].expand(3, 2, 6, 6))),
    ]
    for c in cases:
        same_error(lambda: c(TF, to_pt(x), to_pt(w)), lambda: c(VF, to_tv(x), to_tv(w)))
    same_error(lambda: torch.nn.Conv2d(2, 3, 3, groups=2), lambda: tensorviz.nn.Conv2d(2, 3, 3, groups=2))
    same_error(lambda: torch.nn.Conv2d(2, 4, 3, padding="same", stride=2),
               lambda: tensorviz.nn.Conv2d(2, 4, 3, padding="same", stride=2))
    # (PyTorch prints the allowed modes as a set, in a per-process hash order)
    with pytest.raises(ValueError, match="padding_mode must be one of .*, but got "
                                         "padding_mode='mirror'"):
        tensorviz.nn.Conv2d(2, 4, 3, padding_mode="mirror")


def test_batchnorm_errors_and_running_stats():
    same_error(lambda: torch.nn.BatchNorm1d(3)(torch.ones(1, 3)),
               lambda: tensorviz.nn.BatchNorm1d(3)(tensorviz.ones(1, 3)))
    same_error(lambda: torch.nn.BatchNorm2d(3)(torch.ones(2, 3)),
               lambda: tensorviz.nn.BatchNorm2d(3)(tensorviz.ones(2, 3)))
    x = rn(6, 3)
    for momentum in (0.1, None):
        pt = torch.nn.BatchNorm1d(3, momentum=momentum).double()
        tv = tensorviz.nn.BatchNorm1d(3, momentum=momentum).double()
        for _ in range(3):
            assert_close(tv(to_tv(x)), pt(to_pt(x)))
        for k, v in pt.state_dict().items():
            assert_close(tv.state_dict()[k], v, "float64", k)
        pt.eval(), tv.eval()
        assert_close(tv(to_tv(x)), pt(to_pt(x)))


_INPLACE_ACTIVATIONS = {
    "leaky_relu": lambda F, y: F.leaky_relu(y, 0.1, True),
    "leaky_relu_": lambda F, y: F.leaky_relu_(y, 0.1),
    "elu": lambda F, y: F.elu(y, 1.0, True), "elu_": lambda F, y: F.elu_(y),
    "hardtanh": lambda F, y: F.hardtanh(y, -0.5, 0.5, True),
    "hardtanh_": lambda F, y: F.hardtanh_(y), "relu6": lambda F, y: F.relu6(y, True),
    "threshold": lambda F, y: F.threshold(y, 0.6, 9.0, True),
    "threshold_": lambda F, y: F.threshold_(y, 0.6, 9.0), "relu": lambda F, y: F.relu(y, True),
    "selu": lambda F, y: F.selu(y, True), "celu": lambda F, y: F.celu(y, 1.0, True),
    "rrelu": lambda F, y: F.rrelu(y, training=False, inplace=True),
    "silu": lambda F, y: F.silu(y, True), "hardsigmoid": lambda F, y: F.hardsigmoid(y, True),
    "hardswish": lambda F, y: F.hardswish(y, True), "mish": lambda F, y: F.mish(y, True),
}


@pytest.mark.parametrize("name", sorted(_INPLACE_ACTIVATIONS))
def test_inplace_activations_backpropagate_as_pytorch(name):
    """An activation with ``inplace=True`` (or its ``_`` form) writes into a non-leaf input,
    records PyTorch's node on it (LeakyReluBackward1, EluBackward1 ... saving the result;
    HardtanhBackward0, ThresholdBackward1 ... the input as it was) and backpropagates the
    gradient PyTorch gives, at the kinks too (hardswish at -3 and 3); a leaf that requires
    grad is refused."""
    torch = pytest.importorskip("torch")
    got = []
    for T in (tensorviz, torch):
        x = T.tensor([-1.0, 0.3, 2.0, -0.2, -3.0, 3.0, 0.0, 0.6], requires_grad=True)
        y = x * 1
        r = _INPLACE_ACTIVATIONS[name](T.nn.functional, y)
        node = r.grad_fn
        r.sum().backward()
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
            _INPLACE_ACTIVATIONS[name](T.nn.functional, T.ones(2, requires_grad=True))
        got.append(((r is y, y._version, type(node).__name__,
                     [type(f).__name__ for f, _ in node.next_functions]),
                    r.detach().numpy().copy(), x.grad.numpy().copy()))
    assert got[0][0] == got[1][0]
    for mine, theirs in zip(got[0][1:], got[1][1:]):  # (selu's result - alpha * scale at -3
        np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-7)  # cancels to 1e-5)


@pytest.mark.parametrize("call", ["F.leaky_relu(y, -0.1, True)", "F.elu(y, -0.5, True)",
                                  "F.celu(y, -0.5, True)", "F.leaky_relu(y, 0.0, True)"])
def test_inplace_activation_with_a_negative_slope_refuses_backward_as_pytorch(call):
    """PyTorch's in-place leaky_relu/elu/celu save their result, from which a negative
    slope cannot recover the gradient: forward runs, backward raises its RuntimeError."""
    torch = pytest.importorskip("torch")
    got = []
    for T in (tensorviz, torch):
        x = T.tensor([-2.0, 0.5], requires_grad=True)
        r = eval(call, {"F": T.nn.functional, "y": x * 1})
        try:
            r.sum().backward()
            got.append(np.round(x.grad.numpy(), 6).tolist())
        except RuntimeError as e:
            got.append(str(e))
    assert got[0] == got[1]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_hardswish_gradient_at_its_kinks_is_pytorchs(dtype):
    """hardswish's derivative is 0 up to -3 included and 1 from 3 on (PyTorch's
    hardswish_backward), x / 3 + 1/2 strictly between."""
    torch = pytest.importorskip("torch")
    got = []
    for T in (tensorviz, torch):
        x = T.tensor([-3.5, -3.0, -2.9, 0.0, 2.9, 3.0, 3.5], dtype=getattr(T, dtype),
                     requires_grad=True)
        T.nn.functional.hardswish(x).sum().backward()
        got.append(x.grad.tolist())
    assert got[0] == got[1]


_SAVING_INPUT = {
    "leaky_relu": lambda F, x: F.leaky_relu(x, 0.1), "elu": lambda F, x: F.elu(x, 1.3),
    "gelu": lambda F, x: F.gelu(x), "gelu_tanh": lambda F, x: F.gelu(x, approximate="tanh"),
    "silu": lambda F, x: F.silu(x), "celu": lambda F, x: F.celu(x, 0.7),
    "hardsigmoid": lambda F, x: F.hardsigmoid(x), "hardswish": lambda F, x: F.hardswish(x),
    "logsigmoid": lambda F, x: F.logsigmoid(x), "softshrink": lambda F, x: F.softshrink(x),
    "hardshrink": lambda F, x: F.hardshrink(x), "mish": lambda F, x: F.mish(x),
    "threshold": lambda F, x: F.threshold(x, 0.1, 2.0), "softplus": lambda F, x: F.softplus(x),
    "hardtanh": lambda F, x: F.hardtanh(x), "selu": lambda F, x: F.selu(x),
}


@pytest.mark.parametrize("name", sorted(_SAVING_INPUT))
def test_activation_result_written_in_place_still_backpropagates(name):
    """These activations save their input only, as PyTorch's (``_saved_self``, no
    ``_saved_result``): their result may be written in place before backward (``y =
    F.gelu(h); y += skip``), where saving it too made backward refuse; the float64
    gradients are PyTorch's."""
    torch = pytest.importorskip("torch")
    got = []
    for T in (tensorviz, torch):
        x = T.tensor([-3.0, -1.0, 0.0, 0.5, 2.0, 3.0], dtype=T.float64, requires_grad=True)
        y = _SAVING_INPUT[name](T.nn.functional, x)
        saved = [hasattr(y.grad_fn, k) for k in ("_saved_self", "_saved_result")]
        y.add_(1)
        y.sum().backward()
        got.append((type(y.grad_fn).__name__, saved, x.grad.numpy().copy()))
    assert got[0][:2] == got[1][:2]
    np.testing.assert_allclose(got[0][2], got[1][2], rtol=1e-13, atol=1e-15)
