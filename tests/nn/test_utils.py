"""nn.utils against PyTorch: clip_grad_norm_ (every norm type, foreach, nonfinite errors),
clip_grad_value_, get_total_norm, parameters_to_vector / vector_to_parameters round trip."""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz
from nn_harness import assert_close, copy_state, same_error

torch = pytest.importorskip("torch")


def _models(seed=0):
    rng = np.random.default_rng(seed)
    pt = torch.nn.Sequential(torch.nn.Linear(4, 5), torch.nn.ReLU(), torch.nn.Linear(5, 3))
    tv = tensorviz.nn.Sequential(tensorviz.nn.Linear(4, 5), tensorviz.nn.ReLU(),
                                 tensorviz.nn.Linear(5, 3))
    copy_state(pt, tv)
    for p, t in zip(pt.parameters(), tv.parameters()):
        g = (rng.standard_normal(tuple(p.shape)) * 3).astype("float32")
        p.grad = torch.tensor(g)
        t.grad = tensorviz.tensor(g)
    return pt, tv


@pytest.mark.parametrize("norm_type", [2.0, 1, 3.5, float("inf"), "inf"])
@pytest.mark.parametrize("max_norm", [0.5, 1e6])
def test_clip_grad_norm(norm_type, max_norm):
    pt, tv = _models()
    pn = torch.nn.utils.clip_grad_norm_(pt.parameters(), max_norm, norm_type)
    tn = tensorviz.nn.utils.clip_grad_norm_(tv.parameters(), max_norm, norm_type)
    assert_close(tn, pn, "float32", "total norm")
    for p, t in zip(pt.parameters(), tv.parameters()):
        assert_close(t.grad, p.grad, "float32", "clipped grad")


def test_clip_grad_norm_edge_cases():
    pt, tv = _models(1)
    # a single tensor, and parameters without grads are skipped
    pt[0].bias.grad = None
    tv[0].bias.grad = None
    assert_close(tensorviz.nn.utils.clip_grad_norm_(tv[0].weight, 1.0),
                 torch.nn.utils.clip_grad_norm_(pt[0].weight, 1.0), "float32")
    assert_close(tensorviz.nn.utils.clip_grad_norm_(list(tv.parameters()), 1.0),
                 torch.nn.utils.clip_grad_norm_(list(pt.parameters()), 1.0), "float32")
    empty_t = tensorviz.nn.utils.clip_grad_norm_([], 1.0)
    empty_p = torch.nn.utils.clip_grad_norm_([], 1.0)
    assert_close(empty_t, empty_p, "float32")
    # non-finite total norm
    pt[2].weight.grad[0, 0] = float("nan")
    tv[2].weight.grad[0, 0] = float("nan")
    same_error(lambda: torch.nn.utils.clip_grad_norm_(pt.parameters(), 1.0,
                                                      error_if_nonfinite=True),
               lambda: tensorviz.nn.utils.clip_grad_norm_(tv.parameters(), 1.0,
                                                          error_if_nonfinite=True))
    pn = torch.nn.utils.clip_grad_norm_(pt.parameters(), 1.0)
    tn = tensorviz.nn.utils.clip_grad_norm_(tv.parameters(), 1.0)
    assert np.isnan(tn.item()) and np.isnan(pn.item())


def test_get_total_norm():
    pt, tv = _models(2)
    for nt in (2.0, 1.0, float("inf")):
        assert_close(tensorviz.nn.utils.get_total_norm([t.grad for t in tv.parameters()], nt),
                     torch.nn.utils.get_total_norm([p.grad for p in pt.parameters()], nt),
                     "float32")


@pytest.mark.parametrize("clip", [0.5, 2.0, 100.0])
def test_clip_grad_value(clip):
    pt, tv = _models(3)
    torch.nn.utils.clip_grad_value_(pt.parameters(), clip)
    tensorviz.nn.utils.clip_grad_value_(tv.parameters(), clip)
    for p, t in zip(pt.parameters(), tv.parameters()):
        assert_close(t.grad, p.grad, "float32")
        assert t.grad.abs().max().item() <= clip


def test_parameters_to_vector_round_trip():
    pt, tv = _models(4)
    pv = torch.nn.utils.parameters_to_vector(pt.parameters())
    tvec = tensorviz.nn.utils.parameters_to_vector(tv.parameters())
    assert_close(tvec, pv, "float32")
    assert tvec.shape == (sum(p.numel() for p in tv.parameters()),)
    new = np.arange(tvec.numel(), dtype="float32")
    torch.nn.utils.vector_to_parameters(torch.tensor(new), pt.parameters())
    tensorviz.nn.utils.vector_to_parameters(tensorviz.tensor(new), tv.parameters())
    for p, t in zip(pt.parameters(), tv.parameters()):
        assert_close(t, p, "float32")
        assert isinstance(t, tensorviz.nn.Parameter)
    back = tensorviz.nn.utils.parameters_to_vector(tv.parameters())
    np.testing.assert_array_equal(back.detach().numpy(), new)
    same_error(lambda: torch.nn.utils.vector_to_parameters([1.0], pt.parameters()),
               lambda: tensorviz.nn.utils.vector_to_parameters([1.0], tv.parameters()))
