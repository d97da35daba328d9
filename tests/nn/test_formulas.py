"""The nn ops recorded as one node (tensorviz/nn/_formulas.py): their derivative formulas pass
gradcheck and gradgradcheck (double backward) in float64, and the node names are PyTorch's."""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz
from tensorviz.autograd import gradcheck, gradgradcheck

torch = pytest.importorskip("torch")
F = tensorviz.nn.functional

R = np.random.default_rng(3)


def rn(*shape, low=None):
    a = R.standard_normal(shape)
    if low is not None:
        a = np.abs(a) + low
    return tensorviz.tensor(a, requires_grad=True)


def _away(x, points, gap=0.05):
    """Move values off the kinks at ``points`` (finite differences straddle them otherwise)."""
    a = x.detach().numpy().copy()
    for p in points:
        near = np.abs(a - p) < gap
        a[near] = p + gap * np.sign(a[near] - p + 1e-12) * 2
    return tensorviz.tensor(a, requires_grad=True)


CASES = [
    ("hardsigmoid", lambda x: F.hardsigmoid(x), [(-3, 3)], False),
    ("hardswish", lambda x: F.hardswish(x), [(-3, 3)], True),
    ("logsigmoid", lambda x: F.logsigmoid(x), [()], True),
    ("softshrink", lambda x: F.softshrink(x, 0.5), [(-0.5, 0.5)], False),
    ("hardshrink", lambda x: F.hardshrink(x, 0.5), [(-0.5, 0.5)], False),
    ("threshold", lambda x: F.threshold(x, 0.1, 2.0), [(0.1,)], False),
    ("mish", lambda x: F.mish(x), [()], True),
    ("celu", lambda x: F.celu(x, 0.7), [(0,)], True),
    ("selu", lambda x: F.selu(x), [(0,)], True),
    ("glu", lambda x: F.glu(x, 0), [()], True),
    ("prelu", lambda x, w: F.prelu(x, w), [(0,), ()], True),
    ("smooth_l1", lambda x, t: F.smooth_l1_loss(x, t, beta=0.5), [(), ()], False),
    ("huber", lambda x, t: F.huber_loss(x, t, delta=0.8, reduction="sum"), [(), ()], False),
    ("soft_margin", lambda x: F.soft_margin_loss(x, tensorviz.tensor([[1.0, -1.0, 1.0, -1.0]] * 4)),
     [()], True),
    ("multi_margin", lambda x: F.multi_margin_loss(x, tensorviz.tensor([0, 3, 1, 2]), p=2),
     [()], False),
    ("group_norm", lambda x, w, b: F.group_norm(x, 2, w, b), [(), (), ()], True),
    ("avg_pool2d", lambda x: F.avg_pool2d(x, 2, 1, 1, count_include_pad=False), [()], True),
    ("adaptive_avg_pool2d", lambda x: F.adaptive_avg_pool2d(x, (3, 2)), [()], True),
    ("pad_reflect", lambda x: F.pad(x, (1, 2, 2, 1), mode="reflect"), [()], True),
    ("pad_constant", lambda x: F.pad(x, (1, -1, 0, 2), value=0.5), [()], True),
    ("upsample_bilinear", lambda x: F.interpolate(x, scale_factor=1.5, mode="bilinear"),
     [()], True),
    ("upsample_bicubic", lambda x: F.interpolate(x, size=(5, 3), mode="bicubic"), [()], True),
    ("unfold", lambda x: F.unfold(x, 2, padding=1), [()], True),
    ("pixel_shuffle", lambda x: F.pixel_shuffle(x.reshape(1, 4, 2, 4), 2), [()], True),
    ("embedding_bag", lambda w: F.embedding_bag(tensorviz.tensor([[0, 2], [1, 1]]), w,
                                                mode="sum"), [()], True),
]
SHAPES = {"prelu": [(3, 4), (4,)], "group_norm": [(2, 4, 3), (4,), (4,)],
          "smooth_l1": [(4, 4), (4, 4)], "huber": [(4, 4), (4, 4)],
          "avg_pool2d": [(1, 2, 4, 4)], "adaptive_avg_pool2d": [(1, 2, 5, 4)],
          "pad_reflect": [(1, 1, 4, 4)], "pad_constant": [(1, 2, 3, 4)],
          "upsample_bilinear": [(1, 1, 3, 4)], "upsample_bicubic": [(1, 1, 3, 4)],
          "unfold": [(1, 2, 3, 3)], "pixel_shuffle": [(32,)], "embedding_bag": [(3, 2)],
          "glu": [(4, 3)]}


@pytest.mark.parametrize("name,fn,kinks,double", CASES, ids=[c[0] for c in CASES])
def test_gradcheck(name, fn, kinks, double):
    shapes = SHAPES.get(name, [(4, 4)] * len(kinks))
    args = [_away(rn(*s), k) for s, k in zip(shapes, kinks)]
    assert gradcheck(fn, args, eps=1e-6, atol=1e-5)
    if double:
        assert gradgradcheck(fn, args, eps=1e-6, atol=1e-4)


def test_ops_never_turn_their_input_into_a_non_leaf():
    """A composite that returns its input or a view of it (zero padding, a pixel shuffle of
    a contiguous input, a stride-1 transposed convolution without padding) still records a
    new tensor: the input stays a leaf with its own gradient."""
    for fn, shape in ((lambda x: F.pad(x, (0, 0)), (2, 3)),
                      (lambda x: F.pad(x, (0, -1)), (2, 3)),
                      (lambda x: F.pixel_shuffle(x, 1), (1, 2, 2, 2)),
                      (lambda x: F.conv_transpose1d(x, tensorviz.ones(4, 2, 2, dtype=x.dtype),
                                                    padding=1, groups=2), (2, 4, 5))):
        x = rn(*shape)
        y = fn(x)
        assert x.is_leaf and y is not x and y.grad_fn is not None
        y.sum().backward()
        assert x.grad is not None and tuple(x.grad.shape) == shape
