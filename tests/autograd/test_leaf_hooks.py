"""A leaf's hooks as PyTorch runs them: its tensor hooks before its AccumulateGrad's
pre-hooks (their result is what is accumulated or captured), and ``autograd.grad`` captures a
leaf's gradient without running the AccumulateGrad node (so its pre-hooks do not fire)."""
import pytest

import tensorviz

torch = pytest.importorskip("torch")


def _program(lib, hook_returns: bool, call: str) -> list:
    log = []
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, -1.0], requires_grad=True)
    y = (x * w + x).sum()

    def tensor_hook(g):
        log.append(("tensor", g.tolist()))
        return g * 10 if hook_returns else None

    x.register_hook(tensor_hook)
    acc = [f for f, _ in y.grad_fn.next_functions[0][0].next_functions
           if f is not None and f.name().endswith("AccumulateGrad")][0]
    acc.register_prehook(lambda grads: log.append(("pre", grads[0].tolist())))
    if call == "grad":
        log.append(("result", [g.tolist() for g in lib.autograd.grad(y, (x, w))]))
    elif call == "grad-w-only":
        log.append(("result", [g.tolist() for g in lib.autograd.grad(y, (w,))]))
    else:
        y.backward()
        log.append(("result", [x.grad.tolist(), w.grad.tolist()]))
    return log


@pytest.mark.parametrize("call", ["grad", "grad-w-only", "backward"])
@pytest.mark.parametrize("hook_returns", [False, True])
def test_leaf_hooks_order_and_capture_match_pytorch(call, hook_returns):
    assert _program(tensorviz, hook_returns, call) == _program(torch, hook_returns, call)
