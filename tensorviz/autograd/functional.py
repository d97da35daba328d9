"""``tensorviz.autograd.functional``: whole Jacobians and Hessians from backward passes.

    f = lambda x: (x ** 3).sum()
    hessian(f, tensorviz.tensor([1., 2.]))      # tensor([[ 6.,  0.], [ 0., 12.]])
"""
from __future__ import annotations

from typing import Callable

from .._tensor import Tensor

__all__ = ["jacobian", "hessian", "vjp", "jvp", "hvp", "vhp"]


def _tuple(x):
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _prepare(inputs, create_graph):
    return tuple(x.detach().requires_grad_(True) if not create_graph or not x.requires_grad
                 else x.view_as(x) for x in inputs)


def vjp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), v^T J)``: the output and the vector-Jacobian product."""
    from ._backward import grad
    single = isinstance(inputs, Tensor)
    ins = _prepare(_tuple(inputs), create_graph)
    out = func(*ins)
    outs = _tuple(out)
    gs = grad(outs, ins, v, create_graph=create_graph, allow_unused=True)
    from ._torch import T
    zeros_like = T.zeros_like
    gs = tuple(zeros_like(x) if g is None else g for g, x in zip(gs, ins))
    res = out if create_graph else (out.detach() if isinstance(out, Tensor) else
                                    tuple(o.detach() for o in outs))
    return res, (gs[0] if single else gs)


def jacobian(func: Callable, inputs, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: shape ``out.shape + in.shape`` (tuples of
    them for several inputs/outputs), one backward pass per output element."""
    from ._backward import grad
    from ._torch import T
    stack = T.stack
    zeros = T.zeros
    single_in = isinstance(inputs, Tensor)
    ins = _prepare(_tuple(inputs), create_graph)
    out = func(*ins)
    single_out = isinstance(out, Tensor)
    outs = _tuple(out)
    result = []
    for o in outs:
        rows = []
        flat = o.reshape(-1)
        for e in range(flat.numel()):
            if o.requires_grad:
                gs = grad(flat[e], ins, retain_graph=True, create_graph=create_graph,
                          allow_unused=True)
            else:
                gs = (None,) * len(ins)
            rows.append(tuple(zeros(x.shape, dtype=x.dtype, device=x.device) if g is None
                              else g for g, x in zip(gs, ins)))
        per_input = []
        for j, x in enumerate(ins):
            if rows:
                j_mat = stack([r[j] for r in rows]).reshape(tuple(o.shape) + tuple(x.shape))
            else:
                j_mat = zeros(tuple(o.shape) + tuple(x.shape), dtype=x.dtype, device=x.device)
            per_input.append(j_mat if create_graph else j_mat.detach())
        result.append(per_input[0] if single_in else tuple(per_input))
    return result[0] if single_out else tuple(result)


def hessian(func: Callable, inputs, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode"):
    """The Hessian of a scalar function ``func`` at ``inputs``."""
    from ._backward import grad
    single = isinstance(inputs, Tensor)

    def gradient(*xs):
        out = func(*xs)
        gs = grad(out, xs, create_graph=True, allow_unused=True)
        from ._torch import T
        zeros_like = T.zeros_like
        gs = tuple(zeros_like(x) if g is None else g for g, x in zip(gs, xs))
        return gs[0] if single else gs
    return jacobian(gradient, inputs, create_graph=create_graph)


def jvp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), J v)`` by the double-backward trick."""
    from ._backward import grad
    from ._torch import T
    zeros_like = T.zeros_like
    single = isinstance(inputs, Tensor)
    ins = _prepare(_tuple(inputs), True)
    out = func(*ins)
    outs = _tuple(out)
    us = tuple(zeros_like(o).requires_grad_(True) for o in outs)
    gs = grad(outs, ins, us, create_graph=True, allow_unused=True)
    vs = _tuple(v) if v is not None else tuple(zeros_like(x) + 1 for x in ins)
    pairs = [(g, w) for g, w in zip(gs, vs) if g is not None]
    jv = grad([g for g, _ in pairs], us, [w for _, w in pairs], create_graph=create_graph,
              allow_unused=True)
    jv = tuple(zeros_like(o) if g is None else g for g, o in zip(jv, outs))
    res = tuple(o.detach() for o in outs)
    return (res[0] if isinstance(out, Tensor) else res), (jv[0] if isinstance(out, Tensor)
                                                          else jv)


def vhp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), v^T H)`` for a scalar function."""
    from ._backward import grad
    single = isinstance(inputs, Tensor)
    ins = _prepare(_tuple(inputs), True)
    out = func(*ins)
    gs = grad(out, ins, create_graph=True)
    res = grad(gs, ins, _tuple(v), create_graph=create_graph, allow_unused=True)
    from ._torch import T
    zeros_like = T.zeros_like
    res = tuple(zeros_like(x) if r is None else r for r, x in zip(res, ins))
    return out.detach(), (res[0] if single else res)


hvp = vhp  # (the Hessian is symmetric)
