"""The Module system against PyTorch: registration and its errors, the named_* orders and
sharing, train/eval, zero_grad, apply, dtype moves, hooks, reprs, state_dict and
load_state_dict, Parameter, and the containers."""
from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest

import tensorviz
from nn_harness import assert_close, copy_state, same_error

torch = pytest.importorskip("torch")


def build(lib):
    """A nested model with a shared parameter, a buffer, a non-persistent buffer and None."""
    nn = lib.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)
            self.bn = nn.BatchNorm1d(4)
            self.register_buffer("scale", lib.ones(4))
            self.register_buffer("tmp", lib.zeros(2), persistent=False)
            self.register_parameter("gain", nn.Parameter(lib.ones(1)))
            self.register_parameter("nothing", None)

        def forward(self, x):
            return self.bn(self.fc(x)) * self.scale * self.gain

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = Block()
            self.act = nn.ReLU()
            self.seq = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))
            self.tied = self.seq[0]  # the same module under two names
            self.head = nn.ModuleList([nn.Linear(2, 2), nn.Identity()])
            self.d = nn.ModuleDict({"b": nn.Linear(2, 1), "a": nn.Dropout(0.25)})
            self.w = nn.Parameter(lib.zeros(3, 2))

        def forward(self, x):
            x = self.seq(self.act(self.a(x)))
            for m in self.head:
                x = m(x)
            return self.d["b"](self.d["a"](x)) + (self.w.sum())
    return Net()


@pytest.fixture
def nets():
    return build(torch), build(tensorviz)


def test_named_orders_and_sharing(nets):
    pt, tv = nets
    assert [n for n, _ in tv.named_parameters()] == [n for n, _ in pt.named_parameters()]
    assert [n for n, _ in tv.named_parameters(remove_duplicate=False)] == \
        [n for n, _ in pt.named_parameters(remove_duplicate=False)]
    assert [n for n, _ in tv.named_buffers()] == [n for n, _ in pt.named_buffers()]
    assert [n for n, _ in tv.named_modules()] == [n for n, _ in pt.named_modules()]
    assert [n for n, _ in tv.named_children()] == [n for n, _ in pt.named_children()]
    assert [type(m).__name__ for m in tv.modules()] == [type(m).__name__ for m in pt.modules()]
    assert [n for n, _ in tv.named_parameters(prefix="p", recurse=False)] == \
        [n for n, _ in pt.named_parameters(prefix="p", recurse=False)]
    assert len(list(tv.parameters())) == len(list(pt.parameters()))
    assert tv.get_submodule("a.fc") is tv.a.fc
    same_error(lambda: pt.get_submodule("a.nope"), lambda: tv.get_submodule("a.nope"))
    same_error(lambda: pt.get_submodule("a.scale"), lambda: tv.get_submodule("a.scale"))
    assert tv.get_parameter("a.fc.weight") is tv.a.fc.weight


def test_state_dict_keys_metadata_values(nets):
    pt, tv = nets
    copy_state(pt, tv)
    psd, tsd = pt.state_dict(), tv.state_dict()
    assert isinstance(tsd, OrderedDict)
    assert list(tsd) == list(psd)
    assert dict(tsd._metadata) == dict(psd._metadata)
    for k in psd:
        assert_close(tsd[k], psd[k], str(psd[k].dtype).split(".")[-1], k)
        assert not tsd[k].requires_grad
    # values share storage with the parameters (detached views)
    tsd["a.fc.weight"][0, 0] = 42.0
    assert float(tv.a.fc.weight[0, 0]) == 42.0
    kv = tv.state_dict(keep_vars=True)
    assert kv["a.fc.weight"] is tv.a.fc.weight
    assert list(tv.state_dict(prefix="m.")) == list(pt.state_dict(prefix="m."))


def test_load_state_dict_errors_and_results(nets):
    pt, tv = nets
    sd_pt = pt.state_dict()
    sd_tv = tv.state_dict()

    def drop_add(sd, lib):
        sd = OrderedDict(sd)
        del sd["a.fc.bias"]
        sd["extra.key"] = lib.zeros(1)
        return sd
    same_error(lambda: pt.load_state_dict(drop_add(sd_pt, torch)),
               lambda: tv.load_state_dict(drop_add(sd_tv, tensorviz)))
    r_pt = pt.load_state_dict(drop_add(sd_pt, torch), strict=False)
    r_tv = tv.load_state_dict(drop_add(sd_tv, tensorviz), strict=False)
    assert repr(r_tv) == repr(r_pt)
    assert r_tv.missing_keys == r_pt.missing_keys
    assert r_tv.unexpected_keys == r_pt.unexpected_keys
    assert repr(tv.load_state_dict(sd_tv)) == repr(pt.load_state_dict(sd_pt)) == \
        "<All keys matched successfully>"

    def bad_size(sd, lib):
        sd = OrderedDict(sd)
        sd["a.fc.weight"] = lib.zeros(5, 4)
        return sd
    for strict in (True, False):
        same_error(lambda: pt.load_state_dict(bad_size(sd_pt, torch), strict=strict),
                   lambda: tv.load_state_dict(bad_size(sd_tv, tensorviz), strict=strict))
    same_error(lambda: pt.load_state_dict([1]), lambda: tv.load_state_dict([1]))


def test_load_state_dict_copies_or_assigns():
    for lib in (torch, tensorviz):
        m = lib.nn.Linear(2, 2)
        w = lib.ones(2, 2)
        old = m.weight
        m.load_state_dict({"weight": w, "bias": lib.zeros(2)})
        assert m.weight is old and m.weight.detach().sum().item() == 4.0
        w[0, 0] = 5.0
        assert m.weight.detach()[0, 0].item() == 1.0
        m.load_state_dict({"weight": w, "bias": lib.zeros(2)}, assign=True)
        assert m.weight is not old and isinstance(m.weight, lib.nn.Parameter)
        assert m.weight.requires_grad
        w[0, 1] = 7.0
        assert m.weight.detach()[0, 1].item() == 7.0  # assign keeps the given storage


def test_train_eval_zero_grad_requires_grad(nets):
    pt, tv = nets
    for m in (pt, tv):
        assert m.eval() is m
        assert not m.training and not m.a.bn.training and not m.d["a"].training
        assert m.train() is m and m.seq[1].training
        m.train(False)
        assert not m.head[0].training
    copy_state(pt, tv)
    x = np.random.default_rng(0).standard_normal((5, 4)).astype("float32")
    pt(torch.tensor(x)).sum().backward()
    tv(tensorviz.tensor(x)).sum().backward()
    for (n, p), (_, t) in zip(pt.named_parameters(), tv.named_parameters()):
        assert_close(t.grad, p.grad, "float32", n)
    pt.zero_grad()
    tv.zero_grad()
    assert all(p.grad is None for p in tv.parameters())
    assert tv.requires_grad_(False) is tv
    assert not any(p.requires_grad for p in tv.parameters())


def test_apply_and_dtype_moves(nets):
    pt, tv = nets
    seen_pt, seen_tv = [], []
    assert pt.apply(lambda m: seen_pt.append(type(m).__name__)) is pt
    assert tv.apply(lambda m: seen_tv.append(type(m).__name__)) is tv
    assert seen_tv == seen_pt
    for m, lib in ((pt, torch), (tv, tensorviz)):
        assert m.double() is m
        assert all(p.dtype == lib.float64 for p in m.parameters())
        assert all(b.dtype == lib.float64 for b in m.buffers() if b.is_floating_point())
        assert m.a.bn.num_batches_tracked.dtype == lib.int64
        m.float()
        assert m.a.fc.weight.dtype == lib.float32
        p = m.a.fc.weight
        m.to(lib.float64)
        assert isinstance(m.a.fc.weight, lib.nn.Parameter) and m.a.fc.weight.requires_grad
        assert m.a.fc.weight is p  # to() changes .data in place, as PyTorch
        assert m.to("cpu") is m and m.cpu() is m
        m.half()
        assert m.a.fc.weight.dtype == lib.float16


def test_registration_errors():
    same_error(lambda: _no_super(torch, "p"), lambda: _no_super(tensorviz, "p"))
    same_error(lambda: _no_super(torch, "m"), lambda: _no_super(tensorviz, "m"))
    same_error(lambda: _no_super(torch, "b"), lambda: _no_super(tensorviz, "b"))
    same_error(lambda: _nofwd(torch), lambda: _nofwd(tensorviz))
    for attempt in (_plain_to_param, _buffer_clash, _bad_names, _bad_module,
                    _bad_param_type, _bad_buffer_type, _param_over_module, _dot_name,
                    _empty_name, _module_name_dot, _attr_clash):
        same_error(lambda: attempt(torch), lambda: attempt(tensorviz))


def _no_super(lib, what):
    class M(lib.nn.Module):
        def __init__(self):
            if what == "p":
                self.w = lib.nn.Parameter(lib.ones(1))
            elif what == "m":
                self.fc = lib.nn.Linear(1, 1)
            else:
                self.register_buffer("b", lib.ones(1))
    return M()


def _nofwd(lib):
    class NoFwd(lib.nn.Module):
        pass
    return NoFwd()(lib.ones(1))


def _plain_to_param(lib):
    m = lib.nn.Linear(2, 2)
    m.weight = lib.ones(2, 2)


def _buffer_clash(lib):
    m = lib.nn.Linear(2, 2)
    m.register_buffer("weight", lib.ones(1))


def _bad_names(lib):
    lib.nn.Linear(2, 2).register_buffer("a.b", lib.ones(1))


def _dot_name(lib):
    lib.nn.Linear(2, 2).register_parameter("a.b", None)


def _empty_name(lib):
    lib.nn.Linear(2, 2).register_parameter("", None)


def _module_name_dot(lib):
    lib.nn.Linear(2, 2).add_module("a.b", lib.nn.ReLU())


def _bad_module(lib):
    lib.nn.Linear(2, 2).add_module("x", 3)


def _bad_param_type(lib):
    lib.nn.Linear(2, 2).register_parameter("x", lib.ones(1))


def _bad_buffer_type(lib):
    lib.nn.Linear(2, 2).register_buffer("x", 3)


def _param_over_module(lib):
    m = lib.nn.Sequential(lib.nn.ReLU())
    m.register_parameter("0", lib.nn.Parameter(lib.ones(1)))


def _attr_clash(lib):
    m = lib.nn.Linear(2, 2)
    m.register_buffer("forward", lib.ones(1))


def test_setattr_moves_between_kinds():
    for lib in (torch, tensorviz):
        m = lib.nn.Linear(2, 2)
        m.bias = None
        assert "bias" in m._parameters and m._parameters["bias"] is None
        m.extra = lib.nn.Parameter(lib.ones(1))
        assert "extra" in m._parameters
        m.sub = lib.nn.ReLU()
        assert "sub" in m._modules
        del m.sub
        assert "sub" not in m._modules
        m.register_buffer("buf", lib.ones(1))
        m.buf = lib.zeros(1)
        assert float(m._buffers["buf"]) == 0.0
        m.buf = None
        assert m._buffers["buf"] is None
        assert [n for n, _ in m.named_parameters()] == ["weight", "extra"]
        assert sorted(dir(m)).count("weight") == 1


def test_hooks_forward_pre_post():
    logs = {}
    for lib in (torch, tensorviz):
        log = logs[lib.__name__] = []
        m = lib.nn.Linear(3, 2)
        h1 = m.register_forward_pre_hook(lambda mod, args: log.append(("pre", len(args))))
        h2 = m.register_forward_pre_hook(lambda mod, args: (args[0] * 2,))
        h3 = m.register_forward_hook(lambda mod, args, out: log.append(("post", tuple(out.shape))))
        h4 = m.register_forward_hook(lambda mod, args, out: out + 1)
        h5 = m.register_forward_pre_hook(
            lambda mod, args, kwargs: log.append(("kw", sorted(kwargs))) or None,
            with_kwargs=True, prepend=True)
        m.weight.data.fill_(1.0)
        m.bias.data.fill_(0.0)
        out = m(lib.ones(1, 3))
        log.append(("out", out.tolist()))
        for h in (h1, h2, h3, h4, h5):
            h.remove()
        log.append(("after", m(lib.ones(1, 3)).tolist()))
        h = m.register_forward_hook(lambda mod, args, kwargs, out: log.append(("wk", len(args))),
                                    with_kwargs=True, always_call=True)
        m(lib.ones(1, 3))
        h.remove()
        g = lib.nn.modules.module.register_module_forward_hook(
            lambda mod, args, out: log.append(("global", type(mod).__name__)))
        m(lib.ones(1, 3))
        g.remove()
        m(lib.ones(1, 3))
    assert logs["tensorviz"] == logs["torch"]


def test_full_backward_hooks():
    logs = {}
    for lib in (torch, tensorviz):
        log = logs[lib.__name__] = []
        lib.manual_seed(0)
        m = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.Tanh())
        m[0].weight.data.copy_(lib.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]]))
        m[0].bias.data.zero_()

        def bhook(mod, gin, gout):
            log.append(("b", type(mod).__name__, [None if g is None else
                                                  np.round(g.detach().numpy(), 6).tolist()
                                                  for g in gin],
                        [np.round(g.detach().numpy(), 6).tolist() for g in gout]))

        def bpre(mod, gout):
            log.append(("bpre", type(mod).__name__))
            return (gout[0] * 2,)
        h1 = m[0].register_full_backward_hook(bhook)
        h2 = m[1].register_full_backward_pre_hook(bpre)
        h3 = m.register_full_backward_hook(bhook)
        x = lib.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
        m(x).sum().backward()
        log.append(("xgrad", np.round(x.grad.numpy(), 6).tolist()))
        for h in (h1, h2, h3):
            h.remove()
    assert logs["tensorviz"] == logs["torch"]


LAYERS = [
    ("Linear", (4, 3), {}), ("Linear", (4, 3), {"bias": False}), ("Bilinear", (2, 3, 4), {}),
    ("Identity", (), {}), ("Flatten", (), {}), ("Flatten", (0, 2), {}), ("Unflatten", (1, (2, 2)), {}),
    ("ReLU", (), {}), ("ReLU", (True,), {}), ("ReLU6", (), {}), ("LeakyReLU", (), {}),
    ("LeakyReLU", (0.2, True), {}), ("PReLU", (3,), {}), ("ELU", (), {}), ("ELU", (0.5,), {}),
    ("SELU", (), {}), ("CELU", (), {}), ("GELU", (), {}), ("GELU", (), {"approximate": "tanh"}),
    ("SiLU", (), {}), ("Mish", (), {}), ("Sigmoid", (), {}), ("Tanh", (), {}),
    ("Softplus", (), {}), ("Softplus", (2, 10), {}), ("Softmax", (), {}), ("Softmax", (1,), {}),
    ("LogSoftmax", (-1,), {}), ("Softmin", (0,), {}), ("Hardtanh", (), {}),
    ("Hardtanh", (-2, 2), {}), ("Hardsigmoid", (), {}), ("Hardswish", (), {}),
    ("LogSigmoid", (), {}), ("Softsign", (), {}), ("Tanhshrink", (), {}), ("Softshrink", (), {}),
    ("Hardshrink", (0.3,), {}), ("Threshold", (0.1, 2.0), {}), ("GLU", (), {}), ("RReLU", (), {}),
    ("Dropout", (), {}), ("Dropout", (0.2, True), {}), ("Dropout1d", (), {}), ("Dropout2d", (0.1,), {}),
    ("AlphaDropout", (), {}), ("FeatureAlphaDropout", (), {}),
    ("BatchNorm1d", (3,), {}), ("BatchNorm2d", (3,), {"affine": False, "momentum": None}),
    ("BatchNorm2d", (3,), {"track_running_stats": False}), ("LayerNorm", (4,), {}),
    ("LayerNorm", ((2, 3),), {"elementwise_affine": False}), ("LayerNorm", (4,), {"bias": False}),
    ("GroupNorm", (2, 4), {}), ("GroupNorm", (2, 4), {"affine": False}),
    ("InstanceNorm1d", (3,), {}), ("InstanceNorm2d", (3,), {"affine": True}),
    ("RMSNorm", (4,), {}), ("RMSNorm", ((2, 3),), {"eps": 1e-5}), ("LocalResponseNorm", (2,), {}),
    ("Embedding", (10, 3), {}), ("Embedding", (10, 3), {"padding_idx": 0}),
    ("Embedding", (10, 3), {"max_norm": 1.0, "scale_grad_by_freq": True, "sparse": True}),
    ("EmbeddingBag", (10, 3), {}), ("EmbeddingBag", (10, 3), {"mode": "sum", "padding_idx": 1}),
    ("Conv1d", (2, 4, 3), {}), ("Conv2d", (1, 8, 3), {}),
    ("Conv2d", (2, 4, (3, 2)), {"stride": 2, "padding": 1, "dilation": 2, "groups": 2, "bias": False}),
    ("Conv2d", (2, 4, 3), {"padding": "same", "padding_mode": "reflect"}),
    ("Conv3d", (1, 2, 2), {}), ("ConvTranspose1d", (2, 3, 3), {"stride": 2}),
    ("ConvTranspose2d", (2, 4, 3), {"stride": 2, "padding": 1, "output_padding": 1}),
    ("MaxPool1d", (2,), {}), ("MaxPool2d", (2,), {}),
    ("MaxPool2d", (3, 2, 1), {"dilation": 2, "return_indices": True, "ceil_mode": True}),
    ("AvgPool1d", (3,), {}), ("AvgPool2d", (2,), {}),
    ("AvgPool2d", (3, 2, 1), {"ceil_mode": True, "count_include_pad": False, "divisor_override": 2}),
    ("AdaptiveAvgPool1d", (3,), {}), ("AdaptiveAvgPool2d", ((2, 3),), {}),
    ("AdaptiveMaxPool2d", (2,), {}), ("AdaptiveMaxPool1d", (2, True), {}), ("LPPool2d", (2, 3), {}),
    ("Upsample", (), {"scale_factor": 2}), ("Upsample", (), {"size": (4, 5), "mode": "bilinear"}),
    ("Upsample", (), {"scale_factor": 2.0, "mode": "bilinear", "align_corners": True}),
    ("PixelShuffle", (2,), {}), ("PixelUnshuffle", (2,), {}), ("Unfold", (2,), {}),
    ("Unfold", ((2, 3),), {"dilation": 2, "padding": 1, "stride": 2}), ("Fold", ((4, 5), 2), {}),
    ("ZeroPad2d", (1,), {}), ("ZeroPad1d", ((1, 2),), {}), ("ConstantPad1d", (2, 3.5), {}),
    ("ConstantPad2d", ((1, 0, 2, 1), 1.0), {}), ("ReflectionPad1d", (2,), {}),
    ("ReflectionPad2d", (1,), {}), ("ReplicationPad1d", (2,), {}), ("ReplicationPad2d", (1,), {}),
    ("CosineSimilarity", (), {}), ("CosineSimilarity", (0, 1e-6), {}), ("PairwiseDistance", (), {}),
    ("PairwiseDistance", (1.0, 1e-3, True), {}),
    ("RNN", (3, 4), {}), ("RNN", (3, 4, 2), {"nonlinearity": "relu", "bias": False, "batch_first": True, "dropout": 0.5, "bidirectional": True}),
    ("LSTM", (3, 4), {"proj_size": 2}), ("GRU", (3, 4), {"num_layers": 2}),
    ("RNNCell", (3, 4), {}), ("RNNCell", (3, 4), {"nonlinearity": "relu", "bias": False}),
    ("LSTMCell", (3, 4), {}), ("GRUCell", (3, 4), {}),
    ("MultiheadAttention", (8, 2), {}), ("MultiheadAttention", (8, 2), {"kdim": 4, "vdim": 6, "batch_first": True}),
    ("TransformerEncoderLayer", (8, 2), {"dim_feedforward": 16}),
    ("MSELoss", (), {}), ("L1Loss", (), {"reduction": "sum"}), ("SmoothL1Loss", (), {"beta": 0.5}),
    ("HuberLoss", (), {"delta": 2.0}), ("CrossEntropyLoss", (), {"label_smoothing": 0.1}),
    ("NLLLoss", (), {"ignore_index": 1}), ("BCELoss", (), {}), ("BCEWithLogitsLoss", (), {}),
    ("KLDivLoss", (), {"reduction": "batchmean", "log_target": True}),
    ("CosineEmbeddingLoss", (), {"margin": 0.5}), ("MarginRankingLoss", (), {}),
    ("HingeEmbeddingLoss", (), {}), ("SoftMarginLoss", (), {}), ("PoissonNLLLoss", (), {}),
    ("GaussianNLLLoss", (), {}), ("TripletMarginLoss", (), {}), ("MultiMarginLoss", (), {}),
    ("MultiLabelSoftMarginLoss", (), {}),
]


@pytest.mark.parametrize("name,args,kw", LAYERS,
                         ids=[f"{n}{a}{k}".replace(" ", "") for n, a, k in LAYERS])
def test_layer_repr_state_dict_and_default_init(name, args, kw):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pt = getattr(torch.nn, name)(*args, **kw)
        tv = getattr(tensorviz.nn, name)(*args, **kw)
    assert repr(tv) == repr(pt)
    psd, tsd = pt.state_dict(), tv.state_dict()
    assert list(tsd) == list(psd)
    assert dict(tsd._metadata) == dict(psd._metadata)
    for k in psd:
        assert tuple(tsd[k].shape) == tuple(psd[k].shape), k
        assert str(tsd[k].dtype).split(".")[-1] == str(psd[k].dtype).split(".")[-1], k
    assert [n for n, _ in tv.named_parameters()] == [n for n, _ in pt.named_parameters()]
    assert [n for n, _ in tv.named_buffers()] == [n for n, _ in pt.named_buffers()]
    # default initialisation: the same bounds (values are drawn differently on purpose)
    for (n, p), (_, t) in zip(pt.named_parameters(), tv.named_parameters()):
        a, b = p.detach().numpy(), t.detach().numpy()
        if a.size == 0:
            continue
        if np.ptp(a) == 0:  # a constant init (ones, zeros, 0.25 for PReLU ...)
            np.testing.assert_array_equal(b, a, err_msg=n)
        else:
            assert np.abs(a).max() <= _init_bound(pt, n, p) + 1e-7, n  # the bound is right
            assert np.abs(b).max() <= _init_bound(pt, n, p) + 1e-7, n
            assert np.ptp(b) > 0, n


def _init_bound(module, name, p):
    """The largest magnitude PyTorch's default init can draw for parameter ``name``."""
    import math
    cls = type(module).__name__
    t = p.detach()
    if cls == "Embedding":
        return float("inf") if t.numel() < 10 else 6.5  # N(0, 1): a loose bound
    if cls == "EmbeddingBag":
        return 6.5
    if cls.startswith(("RNN", "LSTM", "GRU")):
        return 1 / math.sqrt(module.hidden_size)
    if cls == "MultiheadAttention" or cls == "TransformerEncoderLayer":
        return 1.0
    if name.endswith("bias") or name.startswith("bias"):
        w = getattr(module, "weight", None)
        fan_in = w.shape[1] * (w[0][0].numel() if w.dim() > 2 else 1) if w is not None else 1
        if cls.startswith("ConvTranspose"):
            fan_in = w.shape[1] * w[0][0].numel()
        if cls == "Bilinear":
            fan_in = w.shape[1]
        return 1 / math.sqrt(fan_in)
    if cls == "Bilinear":
        return 1 / math.sqrt(t.shape[1])
    fan_in = t.shape[1] * (t[0][0].numel() if t.dim() > 2 else 1)
    return 1 / math.sqrt(fan_in)


def test_nested_repr_and_extra_repr(nets):
    pt, tv = nets
    assert repr(tv) == repr(pt)
    pe = torch.nn.Sequential(torch.nn.Linear(1, 1))
    te = tensorviz.nn.Sequential(tensorviz.nn.Linear(1, 1))
    pe.add_module("e", _extra(torch))
    te.add_module("e", _extra(tensorviz))
    assert repr(te) == repr(pe)
    assert repr(tensorviz.nn.Sequential()) == repr(torch.nn.Sequential())
    assert repr(tensorviz.nn.ModuleList()) == repr(torch.nn.ModuleList())
    pl = torch.nn.ModuleList([torch.nn.Linear(2, 2) for _ in range(3)] + [torch.nn.ReLU()])
    tl = tensorviz.nn.ModuleList([tensorviz.nn.Linear(2, 2) for _ in range(3)] +
                                 [tensorviz.nn.ReLU()])
    assert repr(tl) == repr(pl)  # repeated blocks are folded: (0-2): 3 x Linear(...)


def _extra(lib):
    class E(lib.nn.Module):
        def extra_repr(self):
            return "a=1,\nb=2"
    return E()


def test_parameter_semantics():
    pp = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    tp = tensorviz.nn.Parameter(tensorviz.tensor([1.0, 2.0]))
    assert repr(tp) == repr(pp).replace("torch.", "tensorviz.")
    assert repr(tensorviz.nn.Parameter(tensorviz.tensor([1.0]), requires_grad=False)) == \
        repr(torch.nn.Parameter(torch.tensor([1.0]), requires_grad=False))
    assert repr(tensorviz.nn.Parameter(tensorviz.ones(2, dtype=tensorviz.float64))) == \
        repr(torch.nn.Parameter(torch.ones(2, dtype=torch.float64))).replace("torch.",
                                                                              "tensorviz.")
    for lib, p in ((torch, pp), (tensorviz, tp)):
        assert p.requires_grad and p.is_leaf and p.grad_fn is None
        q = p * 2
        assert type(q) is lib.Tensor and not isinstance(q, lib.nn.Parameter)
        assert isinstance(p, lib.Tensor)
        assert type(p.detach()) is lib.Tensor
        assert isinstance(p.data, lib.Tensor) and not isinstance(p.data, lib.nn.Parameter)
        e = lib.nn.Parameter()
        assert tuple(e.shape) == (0,) and e.requires_grad
        c = __import__("copy").deepcopy(p)
        assert isinstance(c, lib.nn.Parameter) and c.requires_grad and c is not p
        assert isinstance(lib.nn.Parameter(lib.ones(1)).clone(), lib.Tensor)
    same_error(lambda: torch.nn.Parameter(torch.tensor([1, 2])),
               lambda: tensorviz.nn.Parameter(tensorviz.tensor([1, 2])))
    assert not tensorviz.nn.Parameter(tensorviz.tensor([1, 2]), requires_grad=False).requires_grad


def test_sequential_slicing_and_ops():
    for lib in (torch, tensorviz):
        s = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.ReLU(), lib.nn.Linear(3, 1),
                              lib.nn.Sigmoid())
        sub = s[1:3]
        assert type(sub) is lib.nn.Sequential and list(sub._modules) == ["1", "2"]
        assert s[-1] is s[3] and s[::2][1] is s[2]
        assert len(s) == 4
        del s[1]
        assert list(s._modules) == ["0", "1", "2"]
        s.append(lib.nn.Tanh())
        s.insert(0, lib.nn.Identity())
        assert [type(m).__name__ for m in s] == ["Identity", "Linear", "Linear", "Sigmoid",
                                                 "Tanh"]
        s2 = s + lib.nn.Sequential(lib.nn.ReLU())
        assert len(s2) == 6
        s[0] = lib.nn.Dropout()
        assert type(s[0]).__name__ == "Dropout"
        s.extend([lib.nn.ReLU()])
        assert s.pop(1).__class__.__name__ == "Linear"
        od = lib.nn.Sequential(OrderedDict([("first", lib.nn.Linear(1, 1)),
                                            ("act", lib.nn.ReLU())]))
        assert [n for n, _ in od.named_children()] == ["first", "act"]
        assert od.first is od[0]
    ps = torch.nn.Sequential(torch.nn.ReLU(), torch.nn.Tanh())
    ts = tensorviz.nn.Sequential(tensorviz.nn.ReLU(), tensorviz.nn.Tanh())
    same_error(lambda: ps[5], lambda: ts[5])
    same_error(lambda: ps["a"], lambda: ts["a"])
    same_error(lambda: ps.append(3), lambda: ts.append(3))
    assert repr(ts[::-1]) == repr(ps[::-1])


def test_modulelist_moduledict_paramlist_paramdict():
    reprs = {}
    for lib in (torch, tensorviz):
        ml = lib.nn.ModuleList([lib.nn.ReLU(), lib.nn.Tanh()])
        ml.append(lib.nn.Sigmoid())
        ml.extend([lib.nn.Identity()])
        ml.insert(1, lib.nn.Linear(1, 1))
        assert [type(m).__name__ for m in ml[1:3]] == ["Linear", "Tanh"]
        assert type(ml[1:3]) is lib.nn.ModuleList
        del ml[0]
        md = lib.nn.ModuleDict({"z": lib.nn.ReLU(), "a": lib.nn.Linear(1, 1)})
        md["m"] = lib.nn.Tanh()
        md.update([("q", lib.nn.Identity())])
        assert list(md.keys()) == ["z", "a", "m", "q"] and "a" in md and len(md) == 4
        popped = md.pop("z")
        assert type(popped).__name__ == "ReLU"
        pl = lib.nn.ParameterList([lib.nn.Parameter(lib.ones(2)), lib.zeros(3)])
        pl.append(lib.ones(1, 2))
        assert all(isinstance(p, lib.nn.Parameter) for p in pl)
        pd = lib.nn.ParameterDict({"w": lib.nn.Parameter(lib.ones(2)), "b": lib.zeros(1)})
        pd["c"] = lib.ones(2, 2, dtype=lib.float64)
        assert isinstance(pd["b"], lib.nn.Parameter) and len(pd) == 3
        holder = lib.nn.Module()
        holder.ml, holder.md, holder.pl, holder.pd = ml, md, pl, pd
        reprs[lib.__name__] = (repr(holder), list(holder.state_dict()),
                               [n for n, _ in holder.named_parameters()])
    assert reprs["tensorviz"][1:] == reprs["torch"][1:]
    assert reprs["tensorviz"][0] == reprs["torch"][0].replace("torch.", "tensorviz.")
    same_error(lambda: torch.nn.ModuleList([torch.nn.ReLU()])[3],
               lambda: tensorviz.nn.ModuleList([tensorviz.nn.ReLU()])[3])
    same_error(lambda: torch.nn.ModuleDict({"a": torch.nn.ReLU()})["b"],
               lambda: tensorviz.nn.ModuleDict({"a": tensorviz.nn.ReLU()})["b"])
    same_error(lambda: torch.nn.ModuleList([3]), lambda: tensorviz.nn.ModuleList([3]))


def test_lazy_linear():
    pt = torch.nn.LazyLinear(3)
    tv = tensorviz.nn.LazyLinear(3)
    assert repr(tv) == repr(pt)
    assert list(tv.state_dict()) == list(pt.state_dict())
    pt(torch.ones(2, 5))
    out = tv(tensorviz.ones(2, 5))
    assert tuple(out.shape) == (2, 3)
    assert type(tv) is tensorviz.nn.Linear and repr(tv) == repr(pt)
    assert tuple(tv.weight.shape) == (3, 5) and tv.weight.requires_grad
    assert np.abs(tv.weight.detach().numpy()).max() <= 1 / np.sqrt(5)
    copy_state(pt, tv)
    x = np.random.default_rng(0).standard_normal((4, 5)).astype("float32")
    assert_close(tv(tensorviz.tensor(x)), pt(torch.tensor(x)), "float32")


@pytest.mark.parametrize("path", ["nn.Parameter", "nn.Buffer", "nn.Linear", "nn.Module",
                                  "nn.Sequential", "optim.SGD", "utils.data.DataLoader"])
def test_public_classes_print_as_pytorch_names_them(path):
    """``type(p)`` reads as PyTorch's, with ``torch`` spelled ``tensorviz``."""
    def resolve(root):
        obj = root
        for part in path.split("."):
            obj = getattr(obj, part)
        return obj
    assert repr(resolve(tensorviz)) == repr(resolve(torch)).replace("torch", "tensorviz")
