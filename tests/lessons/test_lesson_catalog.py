"""Every lesson exercise's stated answer is what the code really gives.

Each catalog entry's setup + solution is run with ``torch`` bound to tensorviz, and (where it
is installed) to PyTorch; the result must pass the exercise's own check.
"""
import importlib

import numpy as np
import pytest

from tensorviz.lessons import CATALOG, exercise

LIBRARIES = ["tensorviz", "torch"]


def _library(name):
    if name == "torch":
        return pytest.importorskip("torch")
    return importlib.import_module(name)


@pytest.mark.parametrize("library", LIBRARIES)
@pytest.mark.parametrize("key", list(CATALOG))
def test_solution_gives_the_stated_answer(key, library):
    torch = _library(library)
    spec = CATALOG[key]
    if spec.get("requires") == "cuda" and not torch.cuda.is_available():
        pytest.skip("needs a CUDA device")
    namespace = {"torch": torch, "np": np}
    exec(compile(spec.get("setup", "") + "\n" + spec["solution"], key, "exec"), namespace)
    feedback = exercise(key).check(namespace["answer"])
    assert feedback.ok is True, feedback.message


@pytest.mark.parametrize("key", list(CATALOG))
def test_entry_is_complete(key):
    ex = exercise(key)
    assert ex.prompt and ex.explanation and ex.solution_code, key
    assert ex._hint, f"{key} has no hint"
    assert "answer" in ex.solution_code
    for wrong, _ in ex.mistakes:  # a "mistake" must not be the right answer
        assert not ex.check(wrong), f"{key}: listed mistake {wrong!r} is accepted"


# A targeted message says where a wrong answer comes from ("that is column-major order",
# "that is a contiguous copy"). Each such claim is computed here: (key, the wrong answer, a
# word the message must use, code that gives that wrong answer the way the message says).
MISTAKE_CLAIMS = [
    ("00/read-index", 3, "value", "wrong = points[2, 1].item()"),
    ("00/read-index", 5, "points[1, 2]", "wrong = points.stride()[0] * 1 + 2"),
    ("01/offset", 3, "row 1 starts", "wrong = points[1].storage_offset()"),
    ("01/stride-3d", (1, 2, 6), "column-major",
     "wrong = tuple(s // 8 for s in np.zeros((2, 3, 4), order='F').strides)"),
    ("01/stride-3d", (1, 4, 12), "reverse", "wrong = torch.zeros(2, 3, 4).stride()[::-1]"),
    ("02/permute-stride", (12, 4, 1), "before permuting", "wrong = torch.zeros(2, 3, 4).stride()"),
    ("02/permute-stride", (4, 1, 12), "other way round",
     "wrong = torch.zeros(2, 3, 4).permute(1, 2, 0).stride()"),
    ("02/permute-stride", (6, 3, 1), "contiguous copy",
     "wrong = torch.zeros(2, 3, 4).permute(2, 0, 1).contiguous().stride()"),
    ("03/chw-stride", (307200, 512, 1), "contiguous()",
     "wrong = torch.zeros(600, 512, 3).permute(2, 0, 1).contiguous().stride()"),
    ("03/channels-last-stride", (3072, 1024, 32, 1), "contiguous NCHW",
     "wrong = torch.zeros(8, 3, 32, 32).stride()"),
    ("03/channels-last-stride", (3072, 96, 3, 1), "NHWC tensor",
     "wrong = torch.zeros(8, 32, 32, 3).stride()"),
    ("04/numpy-strides", (8, 24), "bytes", "wrong = np.zeros((2, 3)).T.strides"),
    ("04/numpy-strides", (24, 8), "`n`'s strides", "wrong = np.zeros((2, 3)).strides"),
    ("05/layout-survives", (2, 1), "contiguous", "wrong = x.t().contiguous().stride()"),
    ("05/layout-survives", (3, 1), "`x`'s stride", "wrong = x.stride()"),
    ("07/reduce-shape", (2, 1, 4), "keepdim=True",
     "wrong = torch.zeros(2, 3, 4).sum(dim=1, keepdim=True).shape"),
    ("08/grad-fn-name", "MulBackward0", "one step further down",
     "wrong = (x * w + 1).grad_fn.next_functions[0][0].name()"),
    ("08/grad-fn-name", "torch::autograd::AccumulateGrad", "leaf",
     "wrong = (x * w).grad_fn.next_functions[0][0].name()"),
    ("08/accumulate", 4.0, "one call",
     "a = torch.tensor(2., requires_grad=True)\n(a * a).backward()\nwrong = a.grad.item()"),
    ("08/none-inputs", 2, "AccumulateGrad",
     "wrong = len((x * 2.0).grad_fn.next_functions)"),
    ("08/saved-version", 0, "even under no_grad",
     "loss = (x * w).sum()\n"
     "wrong = loss.grad_fn.next_functions[0][0]._saved_self._version"),
    ("09/param-count", 2368, "bias",
     "wrong = model.fc1.weight.numel() + model.fc2.weight.numel()"),
    ("09/param-count", 2048, "fc1.weight", "wrong = model.fc1.weight.numel()"),
    ("09/adam-first-step", 0.001, "default",
     "wrong = torch.optim.Adam(model.parameters()).defaults['lr']"),
    ("09/window-stride", (54, 9, 3, 1), "copy", "wrong = windows.contiguous().stride()"),
    ("09/window-stride", (1, 8, 1, 8), "Reversed", "wrong = windows.stride()[::-1]"),
    ("11/batch-shape", (1, 8, 8), "one sample", "wrong = ds[0][0].shape"),
    ("11/last-batch", 28, "full", "wrong = len(ds) // 64"),
    ("11/last-batch", 64, "multiple", "wrong = 64"),
    ("10/sgd-step", (-3.2, -6.0), "whole gradient",
     "p = torch.tensor([-4., 2.], requires_grad=True)\nf(p).backward()\n"
     "wrong = tuple(round(v, 4) for v in (p - p.grad).tolist())"),
    ("10/sgd-step", (-4.08, 2.8), "up",
     "p = torch.tensor([-4., 2.], requires_grad=True)\nf(p).backward()\n"
     "wrong = tuple(round(v, 4) for v in (p + 0.1 * p.grad).tolist())"),
    ("10/momentum-buffer", 1.6, "gradient alone",
     "q = torch.tensor([0.8], requires_grad=True)\n(q * q).sum().backward()\n"
     "wrong = round(q.grad.item(), 4)"),
    ("10/adam-step", (-3.92, 1.2), "SGD",
     "p = torch.tensor([-4., 2.], requires_grad=True)\nopt = torch.optim.SGD([p], lr=0.1)\n"
     "f(p).backward()\nopt.step()\nwrong = tuple(round(v, 4) for v in p.tolist())"),
    ("10/diverge", "lr=0.45", "shrinks",
     "p = torch.tensor([-4., 2.], requires_grad=True)\nopt = torch.optim.SGD([p], lr=0.45)\n"
     "for _ in range(20):\n    opt.zero_grad()\n    f(p).backward()\n    opt.step()\n"
     "wrong = 'lr=0.45' if abs(p[1].item()) < 2 else None"),
    ("10/steplr", 0.05, "three halvings",
     "opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.4)\n"
     "sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)\n"
     "for _ in range(30):\n    opt.step()\n    sched.step()\n"
     "wrong = round(sched.get_last_lr()[0], 6)"),
]


@pytest.mark.parametrize("library", LIBRARIES)
@pytest.mark.parametrize("key, wrong, word, code", MISTAKE_CLAIMS,
                         ids=[f"{c[0]}:{c[1]}" for c in MISTAKE_CLAIMS])
def test_targeted_feedback_tells_the_truth(key, wrong, word, code, library):
    torch = _library(library)
    namespace = {"torch": torch, "np": np}
    exec(CATALOG[key].get("setup", ""), namespace)
    exec(code, namespace)
    got = tuple(namespace["wrong"]) if isinstance(wrong, tuple) else namespace["wrong"]
    assert got == wrong, f"{key}: read as the message says, the wrong answer is {got}"
    feedback = exercise(key).check(wrong)
    assert feedback.ok is False and word in feedback.message, feedback.message
