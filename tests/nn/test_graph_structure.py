"""The autograd graph of ``nn.functional`` calls and common tensor expressions against
PyTorch: node names and ``next_functions`` (with input numbers) three levels below the
output, plus values and gradients, for the same seeded inputs."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tensorviz
from nn_harness import graph_signature

torch = pytest.importorskip("torch")

EXPRS = [
    "x + 2", "x - 2", "2 - x", "x * 2", "x / 2", "2 / x", "x ** 2", "2 ** x", "x.add(y, alpha=2)",
    "x.norm(2, -1)", "x.norm()", "torch.norm(x, dim=1)", "x.norm(p='nuc')",
    "x.clone().transpose_(0, 1)", "x.clone().t_()", "x[0:1].clone().squeeze_(0)",
    "x.clone().unsqueeze_(0)", "x.clone().add_(2)", "x @ y.T", "x.H", "x.mT",
    "torch.where(x > 0.5, x, 0.)", "x.masked_fill(x > 0.5, 0.)", "x.T.reshape(-1)",
    "x.T.flatten()", "x.expand(2, 3, 4)", "x.unbind(0)[1]", "x.split(2, 1)[1]",
    "x.max(1)[0]", "x.sort(1)[0]", "x.topk(2)[0]", "x.std()", "x.var(1)", "x.logsumexp(1)",
    "torch.dist(x, y)", "torch.linalg.norm(x, ord=2)", "torch.kron(x, y)",
    "F.relu(x)", "F.gelu(x)", "F.linear(x, y)", "F.linear(x[0], y)",
    "F.linear(x[0], y, y[0, :3].clone())", "F.normalize(x)", "F.mse_loss(x, y)",
    "F.l1_loss(x, y)", "F.cosine_similarity(x, y)", "F.cosine_similarity(x, y[:1])",
    "F.pairwise_distance(x, y)", "F.softplus(x)", "F.leaky_relu(x)", "F.elu(x)",
    "F.layer_norm(x, (4,))", "F.group_norm(x.reshape(1, 3, 4), 3)",
    "F.embedding(torch.tensor([0, 2]), x)", "F.embedding_bag(torch.tensor([[0, 2]]), x)",
    "F.cross_entropy(x, torch.tensor([0, 1, 3]))", "F.nll_loss(x, torch.tensor([0, 1, 3]))",
    "F.nll_loss(x.reshape(3, 2, 2), torch.tensor([[0, 1], [1, 1], [0, 0]]))",
    "F.binary_cross_entropy(x.sigmoid(), y.sigmoid())",
    "F.binary_cross_entropy(x.sigmoid(), y.detach().sigmoid(), y[0].detach())",
    "F.binary_cross_entropy_with_logits(x, y.sigmoid())",
    "F.binary_cross_entropy_with_logits(x, y.sigmoid(), pos_weight=y[0].detach())",
    "F.kl_div(x, y, reduction='batchmean')", "F.smooth_l1_loss(x, y)", "F.huber_loss(x, y)",
    "F.pad(x, (1, 1))", "F.scaled_dot_product_attention(x[None], y[None], y[None])",
    "F.max_pool1d(x[None], 2)", "F.avg_pool1d(x[None], 2)", "F.interpolate(x[None], scale_factor=2)",
    "F.conv1d(x[None], y[:2, :, None].expand(2, 4, 3).reshape(2, 3, 4)[..., :2])",
    "F.conv_transpose1d(x[None], y[:, None, :2])",
    "F.unfold(x[None, None], 2)", "F.glu(x)", "F.logsigmoid(x)", "F.softmin(x, 1)",
    "F.prelu(x, y[0, :1].clone())", "F.hardswish(x)", "F.mish(x)", "F.selu(x)",
    "F.rrelu(x, training=False)", "F.rrelu(x, 0.2, 0.2, training=True)",
    "F.local_response_norm(x.reshape(1, 3, 4), 2)",
    "F.local_response_norm(x.reshape(1, 3, 2, 2), 2)",
    "F.local_response_norm(x.reshape(1, 3, 2, 2, 1), 3)",
    "F.cosine_embedding_loss(x, y, torch.tensor([1, -1, 1]))",
    "F.margin_ranking_loss(x[0], y[0], torch.tensor([1., -1, 1, 1]))",
    "F.triplet_margin_loss(x, y, x.flip(0))", "F.triplet_margin_loss(x, y, x.flip(0), swap=True)",
    "F.soft_margin_loss(x, y.detach())", "F.multilabel_soft_margin_loss(x, y)",
    "F.hinge_embedding_loss(x, y)", "F.hinge_embedding_loss(x, torch.tensor([1., -1, 1, 1]))",
    "F.multi_margin_loss(x, torch.tensor([0, 1, 3]))",
    "F.multi_margin_loss(x, torch.tensor([0, 1, 3]), weight=y[0].detach())",
    "F.rms_norm(x, (4,))", "F.pixel_shuffle(x.reshape(1, 4, 3, 1), 2)",
    "F.instance_norm(x.reshape(1, 3, 4))", "F.batch_norm(x, None, None, training=True)",
    "F.bilinear(x, y, y.reshape(3, 2, 2).repeat(1, 2, 2))",
    "F.bilinear(x, y, torch.ones(2, 4, 4, dtype=torch.float64), y[0, :2].clone())",
]

# calls PyTorch refuses: an input its formula does not differentiate requires grad
ERRORS = [
    "F.binary_cross_entropy(x.sigmoid(), y.sigmoid().detach(), y[0])",
    "F.binary_cross_entropy_with_logits(x, y, y[0])",
    "F.binary_cross_entropy_with_logits(x, y, pos_weight=y[0])",
    "F.multi_margin_loss(x, torch.tensor([0, 1, 3]), weight=y[0])",
    "F.nll_loss(x, torch.tensor([0, 1, 3]), weight=y[0])",
    "F.cross_entropy(x, torch.tensor([0, 1, 3]), weight=y[0])",
    "F.soft_margin_loss(x, y)",
]


def _sig(fn, depth=3):
    return graph_signature(fn, depth)


def _eval(lib, expr, xv, yv):
    x = lib.tensor(xv, requires_grad=True)
    y = lib.tensor(yv, requires_grad=True)
    env = {"torch": lib, "F": lib.nn.functional, "x": x, "y": y}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lib.manual_seed(0)
        out = eval(expr, env)  # noqa: S307 (the expressions above)
    return out, (x, y)


@pytest.mark.parametrize("expr", EXPRS)
def test_graph_matches_pytorch(expr):
    rng = np.random.default_rng(0)
    xv, yv = rng.uniform(0.2, 0.9, (3, 4)), rng.uniform(0.2, 0.9, (3, 4))
    t_out, t_in = _eval(torch, expr, xv, yv)
    v_out, v_in = _eval(tensorviz, expr, xv, yv)
    assert _sig(v_out.grad_fn) == _sig(t_out.grad_fn)
    if "rrelu" in expr and "training=True" in expr:
        return  # (the random slopes come from each library's own generator)
    np.testing.assert_allclose(v_out.detach().numpy(), t_out.detach().numpy(), rtol=1e-9,
                               atol=1e-12)
    seed = np.random.default_rng(1).uniform(-1, 1, tuple(t_out.shape))
    tg = torch.autograd.grad(t_out, t_in, torch.tensor(seed), allow_unused=True)
    vg = tensorviz.autograd.grad(v_out, v_in, tensorviz.tensor(seed), allow_unused=True)
    for a, b in zip(tg, vg):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("expr", ERRORS)
def test_not_differentiable_arguments_raise_as_pytorch(expr):
    rng = np.random.default_rng(0)
    xv, yv = rng.uniform(0.2, 0.9, (3, 4)), rng.uniform(0.2, 0.9, (3, 4))
    with pytest.raises(RuntimeError) as t_err:
        _eval(torch, expr, xv, yv)
    with pytest.raises(RuntimeError) as v_err:
        _eval(tensorviz, expr, xv, yv)
    assert str(v_err.value) == str(t_err.value)


@pytest.mark.parametrize("shape,size", [((1, 3, 2, 2), 2), ((1, 4, 3), 3), ((1, 3, 2, 2, 1), 3),
                                        ((1, 6, 1, 2), 5)])
def test_local_response_norm_whole_graph(shape, size):
    """Down to the leaf: 3-D inputs pool with ``AvgPool2DBackward0``, larger ones with
    ``AvgPool3DBackward0`` (PyTorch's Python composition)."""
    xv = np.random.default_rng(0).uniform(0.2, 0.9, (3, 4))
    sigs = []
    for lib in (torch, tensorviz):
        x = lib.tensor(xv, requires_grad=True)
        sigs.append(_sig(lib.nn.functional.local_response_norm(x.reshape(shape), size).grad_fn,
                         12))
    assert sigs[1] == sigs[0]
