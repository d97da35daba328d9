"""Every loss against PyTorch: values, input (and target) gradients, grad_fn names, every
reduction and option, and PyTorch's warnings and errors."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tensorviz
from nn_harness import assert_close, same_error, same_warnings, to_pt, to_tv

torch = pytest.importorskip("torch")

REDUCTIONS = ["mean", "sum", "none"]


def _data(rng, dtype):
    """Named inputs the loss cases draw from."""
    x = rng.standard_normal((6, 4)).astype(dtype)
    return {
        "x": x, "y": rng.standard_normal((6, 4)).astype(dtype),
        "p": rng.uniform(0.05, 0.95, (6, 4)).astype(dtype),
        "t01": (rng.random((6, 4)) < 0.5).astype(dtype),
        "cls": rng.integers(0, 4, (6,)), "probs": _softmax(rng.standard_normal((6, 4))).astype(dtype),
        "x3": rng.standard_normal((3, 4, 5)).astype(dtype), "cls3": rng.integers(0, 4, (3, 5)),
        "v": rng.standard_normal(6).astype(dtype), "w": rng.standard_normal(6).astype(dtype),
        "sign": np.where(rng.random(6) < 0.5, -1, 1).astype(dtype),
        "cw": rng.uniform(0.5, 2.0, 4).astype(dtype),
        "pw": rng.uniform(0.5, 3.0, 4).astype(dtype),
        "logp": np.log(_softmax(rng.standard_normal((6, 4)))).astype(dtype),
        "var": rng.uniform(0.1, 2.0, (6, 4)).astype(dtype),
        "rate": rng.uniform(0.0, 4.0, (6, 4)).round().astype(dtype),
        "a": rng.standard_normal((6, 5)).astype(dtype), "b": rng.standard_normal((6, 5)).astype(dtype),
        "c": rng.standard_normal((6, 5)).astype(dtype),
        "x1d": rng.standard_normal(4).astype(dtype), "cls0": np.array(2),
    }


def _softmax(a):
    e = np.exp(a - a.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


# (loss class, constructor kwargs (besides reduction), input names, which inputs get grads,
# names of constructor tensors)
CASES = [
    ("MSELoss", {}, ["x", "y"], [True, True], {}),
    ("L1Loss", {}, ["x", "y"], [True, True], {}),
    ("SmoothL1Loss", {}, ["x", "y"], [True, True], {}),
    ("SmoothL1Loss", {"beta": 0.3}, ["x", "y"], [True, True], {}),
    ("SmoothL1Loss", {"beta": 0.0}, ["x", "y"], [True, False], {}),
    ("HuberLoss", {}, ["x", "y"], [True, True], {}),
    ("HuberLoss", {"delta": 0.4}, ["x", "y"], [True, True], {}),
    ("CrossEntropyLoss", {}, ["x", "cls"], [True, False], {}),
    ("CrossEntropyLoss", {"ignore_index": 2}, ["x", "cls"], [True, False], {}),
    ("CrossEntropyLoss", {"label_smoothing": 0.2}, ["x", "cls"], [True, False], {}),
    ("CrossEntropyLoss", {"label_smoothing": 0.1, "ignore_index": 1}, ["x", "cls"],
     [True, False], {"weight": "cw"}),
    ("CrossEntropyLoss", {}, ["x", "cls"], [True, False], {"weight": "cw"}),
    ("CrossEntropyLoss", {}, ["x", "probs"], [True, True], {}),
    ("CrossEntropyLoss", {"label_smoothing": 0.3}, ["x", "probs"], [True, True], {"weight": "cw"}),
    ("CrossEntropyLoss", {}, ["x3", "cls3"], [True, False], {"weight": "cw"}),
    ("CrossEntropyLoss", {}, ["x1d", "cls0"], [True, False], {}),
    ("NLLLoss", {}, ["logp", "cls"], [True, False], {}),
    ("NLLLoss", {"ignore_index": 0}, ["logp", "cls"], [True, False], {"weight": "cw"}),
    ("NLLLoss", {}, ["x3", "cls3"], [True, False], {}),
    ("BCELoss", {}, ["p", "t01"], [True, False], {}),
    ("BCELoss", {}, ["p", "p"], [True, True], {"weight": "cw"}),
    ("BCEWithLogitsLoss", {}, ["x", "t01"], [True, True], {}),
    ("BCEWithLogitsLoss", {}, ["x", "p"], [True, True], {"pos_weight": "pw"}),
    ("BCEWithLogitsLoss", {}, ["x", "p"], [True, True], {"pos_weight": "pw", "weight": "cw"}),
    ("KLDivLoss", {}, ["logp", "probs"], [True, True], {}),
    ("KLDivLoss", {"log_target": True}, ["logp", "logp"], [True, True], {}),
    ("CosineEmbeddingLoss", {}, ["a", "b", "sign"], [True, True, False], {}),
    ("CosineEmbeddingLoss", {"margin": 0.2}, ["a", "b", "sign"], [True, True, False], {}),
    ("MarginRankingLoss", {}, ["v", "w", "sign"], [True, True, False], {}),
    ("MarginRankingLoss", {"margin": 0.5}, ["v", "w", "sign"], [True, True, False], {}),
    ("HingeEmbeddingLoss", {}, ["x", "sign4"], [True, False], {}),
    ("SoftMarginLoss", {}, ["x", "sign4"], [True, False], {}),
    ("PoissonNLLLoss", {}, ["x", "rate"], [True, False], {}),
    ("PoissonNLLLoss", {"log_input": False, "full": True}, ["var", "rate"], [True, False], {}),
    ("GaussianNLLLoss", {}, ["x", "y", "var"], [True, True, True], {}),
    ("GaussianNLLLoss", {"full": True, "eps": 1e-3}, ["x", "y", "var"], [True, False, True], {}),
    ("TripletMarginLoss", {}, ["a", "b", "c"], [True, True, True], {}),
    ("TripletMarginLoss", {"margin": 0.5, "p": 1.0, "swap": True}, ["a", "b", "c"],
     [True, True, True], {}),
    ("MultiMarginLoss", {}, ["x", "cls"], [True, False], {}),
    ("MultiMarginLoss", {"p": 2, "margin": 0.5}, ["x", "cls"], [True, False], {"weight": "cw"}),
    ("MultiLabelSoftMarginLoss", {}, ["x", "t01"], [True, False], {"weight": "cw"}),
]


def _id(c):
    return f"{c[0]}{c[1]}{c[2]}{sorted(c[4])}".replace(" ", "")


PARAMS = [(c, r) for c in CASES
          for r in REDUCTIONS + (["batchmean"] if c[0] == "KLDivLoss" else [])]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case,reduction", PARAMS, ids=[f"{_id(c)}-{r}" for c, r in PARAMS])
def test_loss_matches_torch(case, dtype, reduction):
    name, kw, names, grads, tensors = case
    rng = np.random.default_rng(3)
    data = _data(rng, dtype)
    data["sign4"] = np.where(rng.random((6, 4)) < 0.5, -1, 1).astype(dtype)
    ctor_pt = {k: torch.tensor(data[v]) for k, v in tensors.items()}
    ctor_tv = {k: tensorviz.tensor(data[v]) for k, v in tensors.items()}
    pt_loss = getattr(torch.nn, name)(reduction=reduction, **kw, **ctor_pt)
    tv_loss = getattr(tensorviz.nn, name)(reduction=reduction, **kw, **ctor_tv)
    assert repr(tv_loss) == repr(pt_loss)
    pins = [to_pt(data[n], g) for n, g in zip(names, grads)]
    tins = [to_tv(data[n], g) for n, g in zip(names, grads)]
    with warnings.catch_warnings(record=True) as pw:
        warnings.simplefilter("always")
        p = pt_loss(*pins)
    with warnings.catch_warnings(record=True) as tw:
        warnings.simplefilter("always")
        t = tv_loss(*tins)
    assert [str(w.message) for w in tw] == [str(w.message) for w in pw]
    assert_close(t, p, dtype, "loss")
    expect = type(p.grad_fn).__name__
    if name == "CrossEntropyLoss" and names[1] == "probs" and reduction == "mean":
        expect = "DivBackward0"  # PyTorch divides by a C++ Scalar (DivBackward1), see the Note
    assert type(t.grad_fn).__name__ == expect
    w = rng.standard_normal(tuple(p.shape)).astype(dtype)
    (p * torch.tensor(w)).sum().backward()
    (t * tensorviz.tensor(w)).sum().backward()
    for i, (a, b) in enumerate(zip(pins, tins)):
        if a.requires_grad:
            assert_close(b.grad, a.grad, dtype, f"grad of input {i}")


def test_cross_entropy_target_dtypes_and_errors():
    x = np.random.default_rng(0).standard_normal((3, 4)).astype("float32")
    for dt in ("int64", "uint8"):
        y = np.array([0, 3, 1], dtype=dt)
        assert_close(tensorviz.nn.functional.cross_entropy(to_tv(x), to_tv(y)),
                     torch.nn.functional.cross_entropy(to_pt(x), to_pt(y)), "float32")
    for bad in ([0, 4, 1], [0, -2, 1]):
        same_error(lambda: torch.nn.functional.cross_entropy(to_pt(x), torch.tensor(bad)),
                   lambda: tensorviz.nn.functional.cross_entropy(to_tv(x), tensorviz.tensor(bad)))
        same_error(lambda: torch.nn.functional.nll_loss(to_pt(x), torch.tensor(bad)),
                   lambda: tensorviz.nn.functional.nll_loss(to_tv(x), tensorviz.tensor(bad)))
    for tgt in ([0, 1], [[0, 1, 2]], [0.5, 1.0, 2.0]):
        same_error(lambda: torch.nn.functional.cross_entropy(to_pt(x), torch.tensor(tgt)),
                   lambda: tensorviz.nn.functional.cross_entropy(to_tv(x), tensorviz.tensor(tgt)))
    same_error(lambda: torch.nn.functional.cross_entropy(to_pt(x), torch.zeros(3, 5)),
               lambda: tensorviz.nn.functional.cross_entropy(to_tv(x), tensorviz.zeros(3, 5)))
    same_error(lambda: torch.nn.functional.cross_entropy(to_pt(x), torch.tensor([0, 1, 2]),
                                                         label_smoothing=1.5),
               lambda: tensorviz.nn.functional.cross_entropy(to_tv(x), tensorviz.tensor([0, 1, 2]),
                                                             label_smoothing=1.5))
    same_error(lambda: torch.nn.functional.mse_loss(to_pt(x), torch.tensor([0, 1, 2])),
               lambda: tensorviz.nn.functional.mse_loss(to_tv(x), tensorviz.tensor([0, 1, 2])))
    same_error(lambda: torch.nn.MSELoss(reduction="avg")(to_pt(x), to_pt(x)),
               lambda: tensorviz.nn.MSELoss(reduction="avg")(to_tv(x), to_tv(x)))
    same_error(lambda: torch.nn.functional.binary_cross_entropy(to_pt(x), to_pt(x)),
               lambda: tensorviz.nn.functional.binary_cross_entropy(to_tv(x), to_tv(x)))
    same_error(lambda: torch.nn.functional.binary_cross_entropy(to_pt(x[0]), to_pt(x)),
               lambda: tensorviz.nn.functional.binary_cross_entropy(to_tv(x[0]), to_tv(x)))
    same_error(lambda: torch.nn.functional.binary_cross_entropy_with_logits(to_pt(x[0]), to_pt(x)),
               lambda: tensorviz.nn.functional.binary_cross_entropy_with_logits(to_tv(x[0]),
                                                                                to_tv(x)))


def test_target_size_warnings():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 1)).astype("float32")
    y = rng.standard_normal(3).astype("float32")
    for name in ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"):
        same_warnings(lambda: getattr(torch.nn.functional, name)(to_pt(x), to_pt(y)),
                      lambda: getattr(tensorviz.nn.functional, name)(to_tv(x), to_tv(y)))
    same_warnings(lambda: torch.nn.functional.kl_div(to_pt(x), to_pt(x)),
                  lambda: tensorviz.nn.functional.kl_div(to_tv(x), to_tv(x)))
    same_error(lambda: torch.nn.functional.mse_loss(to_pt(x), to_pt(np.zeros((2, 2), "float32"))),
               lambda: tensorviz.nn.functional.mse_loss(to_tv(x),
                                                        to_tv(np.zeros((2, 2), "float32"))))


def test_cross_entropy_gradient_is_softmax_minus_onehot():
    rng = np.random.default_rng(5)
    x = tensorviz.tensor(rng.standard_normal((4, 3)), requires_grad=True)
    y = tensorviz.tensor([0, 2, 1, 1])
    tensorviz.nn.functional.cross_entropy(x, y).backward()
    expect = (_softmax(x.detach().numpy()) - np.eye(3)[[0, 2, 1, 1]]) / 4
    np.testing.assert_allclose(x.grad.numpy(), expect, rtol=1e-12)
