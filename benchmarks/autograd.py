"""The autograd cases of ``benchmarks/run.py`` (section ``autograd``, run last: the first
tensor that requires grad installs the recording spellings for the rest of the process).

- a tiny op that records a node: ``x * y`` on 3x3 float32 with ``x`` requiring grad
  (target: at most 1.0x PyTorch);
- forward + backward of a 64 -> 64 -> 10 MLP (matmul + bias + relu, then a log_softmax /
  nll-style loss written with tensor ops) on a batch of 64 (target: at most 0.7x PyTorch);
- the no-grad tiny ops again, now that recording is installed (what every op costs in a
  session that once asked for a gradient): compare with the "Tiny ops" table of the run.
"""
from __future__ import annotations

import numpy as np


def _arrays(seed: int) -> dict:
    """The numbers of every case as NumPy arrays (the same for each library)."""
    rng = np.random.default_rng(seed)
    f32 = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    arrays = {k: f32(3, 3) for k in ("x", "y", "a", "b")}
    arrays.update(w1=f32(64, 64) * 0.1, b1=np.zeros(64, np.float32),
                  w2=f32(10, 64) * 0.1, b2=np.zeros(10, np.float32), xb=f32(64, 64))
    arrays["onehot"] = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 64)]
    return arrays


def envs(lib, seed: int = 0) -> dict:
    """The tensors of the autograd cases for ``lib`` (tensorviz or torch), the same numbers."""
    grad = ("x", "w1", "b1", "w2", "b2")
    env = {k: lib.tensor(v, requires_grad=k in grad) for k, v in _arrays(seed).items()}
    env["lib"] = lib
    env["step"] = mlp_step(env)
    return env


def mlp_step(env: dict):
    """One forward + backward of the MLP (gradients accumulate into the parameters)."""
    w1, b1, w2, b2, xb, onehot = (env[k] for k in ("w1", "b1", "w2", "b2", "xb", "onehot"))

    def step():
        h = (xb @ w1.t() + b1).relu()
        logits = h @ w2.t() + b2
        loss = -(logits.log_softmax(1) * onehot).sum(1).mean()
        loss.backward()
        return loss
    return step


def numpy_env(seed: int = 0) -> dict:
    """The same numbers as plain NumPy arrays, with ``step``: the MLP's forward and backward
    written out by hand in NumPy (the gradients the graph computes, no framework at all).
    It is the numpy column of the autograd cases: the kernels' own time, the floor any
    NumPy-backed autograd pays before its bookkeeping."""
    arrays = _arrays(seed)
    w1, b1, w2, b2, xb, onehot = (arrays[k] for k in ("w1", "b1", "w2", "b2", "xb", "onehot"))
    grads = [np.zeros_like(p) for p in (w1, b1, w2, b2)]

    def step():
        h0 = xb @ w1.T + b1
        h = np.maximum(h0, 0)
        logits = h @ w2.T + b2
        z = logits - logits.max(1, keepdims=True)
        ls = z - np.log(np.exp(z).sum(1, keepdims=True))
        loss = -(ls * onehot).sum(1).mean()
        g_ls = onehot * np.float32(-1.0 / len(xb))  # d loss / d log_softmax
        g_logits = g_ls - np.exp(ls) * g_ls.sum(1, keepdims=True)
        g_h = np.where(h0 > 0, g_logits @ w2, np.float32(0))
        for acc, g in zip(grads, (g_h.T @ xb, g_h.sum(0), g_logits.T @ h, g_logits.sum(0))):
            acc += g
        return loss
    return dict(arrays, step=step)


# (name, statement, limit against torch, timed as a whole step: wall time, torch apart)
CASES = [
    ("record  x * y (x requires grad)", "x * y", 1.0, False),
    ("MLP 64-64-10, batch 64: forward + backward", "step()", 0.7, True),
    ("mul  a * b, no grad (recording installed)", "a * b", 1.1, False),
    ("add  a + b, no grad (recording installed)", "a + b", 1.1, False),
    ("sum  a.sum(), no grad (recording installed)", "a.sum()", 1.1, False),
    ("matmul  a @ b, no grad (recording installed)", "a @ b", 1.1, False),
]
