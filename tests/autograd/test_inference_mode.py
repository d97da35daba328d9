"""Inference mode really governs autograd: tensors made inside are inference tensors with
PyTorch's refusals outside it (differential against PyTorch)."""
from __future__ import annotations

import pytest

import tensorviz as tv

torch = pytest.importorskip("torch")

SETUP = """
x = torch.ones(3, requires_grad=True)
with torch.inference_mode():
    i = torch.ones(3)
    j = x * 2
    k = i[:2]
n = torch.ones(3)
with torch.inference_mode():
    v = n[:2]
"""

CASES = [
    "r = (i.is_inference(), j.is_inference(), k.is_inference(), v.is_inference(), "
    "j.requires_grad, n.is_inference())",
    "r = i._version",
    "i.add_(1)",
    "k.mul_(2)",
    "r = i * x",
    "r = ((i + x).grad_fn.name(), (i + x).requires_grad)",
    "with torch.inference_mode():\n    r = (i.add_(1).tolist(), torch.is_inference_mode_enabled())",
    "with torch.inference_mode():\n    with torch.enable_grad():\n        r = (x * 2).requires_grad",
]


def _run(lib, src):
    ns = {"torch": lib}
    try:
        exec(SETUP + src, ns)
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        return type(e).__name__, str(e).replace("torch.", "tensorviz.")
    r = ns.get("r")
    return "ok", repr(r).replace("torch", "tensorviz")


@pytest.mark.parametrize("src", CASES)
def test_inference_mode_matches_pytorch(src):
    assert _run(tv, src) == _run(torch, src)
