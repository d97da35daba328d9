"""The optimizers' fast path: PyTorch's update formulas on the tensors' own arrays.

Each update is a handful of elementwise in-place ops per parameter; run as tensor ops they
would pay dispatch, type promotion and autograd bookkeeping each time, many times per
training batch. Here they run as NumPy ufuncs (CuPy arrays dispatch through the same
ufuncs) writing straight into the parameters' and state's storage, in PyTorch's order,
with every tensor's version counter bumped once per in-place op PyTorch would run, so
autograd's saved-tensor checks and the widgets see the writes as they would PyTorch's.
The tensor-op path stays for ``differentiable=True`` (a step that records a graph) and
for complex parameters.
"""
from __future__ import annotations

from typing import Iterable

from .._tensor import Tensor, wrap_array


def usable(tensor_lists: Iterable[list], differentiable: bool = False) -> bool:
    """True when every tensor is a real floating tensor the array path can update."""
    if differentiable:
        return False
    for tensors in tensor_lists:
        for t in tensors:
            if t is None:
                continue
            if not t.is_floating_point():
                return False
    return True


def arr(t: Tensor):
    """The writable strided array view of ``t`` (NumPy or CuPy)."""
    return t._arr


def bump(t: Tensor, times: int = 1) -> None:
    """Count ``times`` in-place writes on ``t`` (what PyTorch's ops would count)."""
    for _ in range(times):
        t._bump()


def new_tensor(a, like: Tensor) -> Tensor:
    """A fresh tensor owning the array ``a`` (dtype and device of ``like``)."""
    return wrap_array(a, like.dtype, like.device)


def scalar(x):
    """A hyperparameter as a Python number (0-d tensors read once)."""
    return x.item() if isinstance(x, Tensor) else x


def lerp_(a, end, weight: float) -> None:
    """``a += weight * (end - a)`` in place, as ATen's lerp: from ``end``'s side when the
    weight is 0.5 or more (keeps the result exact at weight 1)."""
    if abs(weight) < 0.5:
        a += weight * (end - a)
    else:
        diff = end - a
        diff *= (1 - weight)
        a[...] = end - diff


def bump_step(step_t: Tensor) -> float:
    """``step_t += 1`` on a 0-d step counter; its new value as a Python float."""
    s = step_t._arr
    s += 1
    step_t._bump()
    return float(s)
