"""The backward pass: from the seeds, run each node once all its gradients have arrived,
most recently created first (PyTorch's order), and accumulate into the leaves' ``.grad``.

For every node: gradients arriving on the same output are summed; tensor hooks and
``retain_grad`` taps see them first; the node's derivative formula turns them into one
gradient per input; each is reduced to that input's shape (broadcasting summed away) and
cast to its dtype here, in one place, so no formula has to.
"""
from __future__ import annotations

import heapq
import itertools
import warnings
from weakref import ref as _weakref
from typing import Any, Sequence

from .. import _dtypes
from .._grad_mode import _STATE
from .._tensor import Tensor, _contig
from .._device import CPU as _CPU
from .._tensor import contiguous_format as _CONTIGUOUS, preserve_format as _PRESERVE
from ._raw import cpu, fresh, plain, quiet_run, real_float
from .graph import AccumulateGrad, Node
import numpy as _np
from numpy import ndarray as _nd


def _device(t):
    """``t``'s device without making a fresh CPU result's storage (see ``_tensor._fresh``)."""
    a = t._a
    if a is not None and type(a) is _nd:
        return _CPU
    return t._storage._device

__all__ = ["run_backward", "sum_to", "accumulator"]


def accumulator(t: Tensor) -> AccumulateGrad:
    """The one ``AccumulateGrad`` node of the leaf ``t``, as PyTorch keeps it: the graph
    holds the node and the node holds its leaf (``acc.variable is t``, even for a leaf no one
    else holds); the leaf refers to its node weakly, so the two make no reference cycle."""
    ag = t._ag
    ref = ag.accumulator
    acc = None if ref is None else ref()
    if acc is None:
        acc = AccumulateGrad(t)
        ag.accumulator = _weakref(acc)
    return acc


def edge(t) -> tuple:
    """``(node, output_nr)`` for an op input: where its gradient goes."""
    if isinstance(t, Tensor):
        ag = t._ag
        if ag is not None:
            if ag.base is not None:  # (a view whose base was written in place since)
                from ._record import refresh_view
                refresh_view(t)
            fn = ag.grad_fn
            if fn is not None:
                return (fn, ag.output_nr)
            if ag.requires_grad:
                return (accumulator(t), 0)
    return (None, 0)


def sum_to(g: Tensor, shape: tuple) -> Tensor:
    """``g`` summed over the dims that broadcasting added to reach it from ``shape``."""
    gshape = g._shape
    if gshape == shape:
        return g
    key = (gshape, shape)
    dims = _SUM_DIMS.get(key)
    if dims is None:
        lead = len(gshape) - len(shape)
        dims = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape)
                                          if s == 1 and gshape[i + lead] != 1)
        if len(_SUM_DIMS) < 1024:
            _SUM_DIMS[key] = dims
    if dims and not _STATE.grad and g._dtype in _FAST_DTYPES:  # (the same reduction, on
        a = g._a                                                # the array)
        if a is None:
            a = cpu(g)
        if type(a) is _nd:
            return fresh(quiet_run(_sum_to, a, dims, shape), g._dtype)
    lead = len(gshape) - len(shape)
    if dims:
        g = g.sum(dims, keepdim=True)
    if lead:
        g = g.reshape(shape)
    elif g._shape != shape:
        g = g.reshape(shape)
    return g


_SUM_DIMS: dict = {}  # (gradient shape, input shape) -> the dims broadcasting added
_FAST_DTYPES = (_dtypes.float32, _dtypes.float64)


def _sum_to(a, dims, shape):
    r = _np.add.reduce(a, axis=dims, keepdims=True).reshape(shape)  # (a.sum's reduction)
    return r if r.flags.c_contiguous else r.copy()


def _fit(g, meta):
    """A gradient fitted to its input: shape (broadcasting undone), dtype (and a real input
    takes the real part of a complex gradient), device."""
    if g is None or meta is None:
        return g
    shape, dt, dev = meta
    if g._shape != shape:
        g = sum_to(g, shape)
    if g._dtype is not dt:
        if g._dtype.category == _dtypes._COMPLEX and dt.category != _dtypes._COMPLEX:
            g = g.real
        g = g.to(dt)
    if _device(g) != dev:
        g = g.to(dev)
    return g


def _validate_seed(out: Tensor, g, i: int) -> Tensor:
    if g is None:
        if out._shape:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        if out._dtype.category != _dtypes._FLOAT:
            raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but "
                               f"got {out._dtype!r}".replace("tensorviz.", "torch."))
        if real_float(out) and cpu(out) is not None:
            return fresh(_np.ones(out._shape, out._dtype._np), out._dtype)
        from ._torch import T
        return T.ones_like(out, memory_format=_PRESERVE)
    if not isinstance(g, Tensor):
        raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    if g._shape != out._shape:
        raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                           f"{_size(g._shape)} and output[{i}] has a shape of "
                           f"{_size(out._shape)}.")
    if (g._dtype.category == _dtypes._COMPLEX) != (out._dtype.category == _dtypes._COMPLEX):
        raise RuntimeError(f"For complex Tensors, both grad_output and output are required to "
                           f"have the same dtype. Mismatch in dtype: grad_output[{i}] has a dtype "
                           f"of {g._dtype!r} and output[{i}] has a dtype of {out._dtype!r}.")
    return g


def _size(shape: tuple) -> str:
    return f"tensorviz.Size({list(shape)})"


def run_backward(outputs: Sequence[Tensor], seeds: Sequence[Any], *, retain_graph: bool,
                 create_graph: bool, inputs: Sequence[Tensor] | None = None,
                 capture: bool = False, allow_unused: bool = False) -> tuple | None:
    """Run backward from ``outputs`` seeded with ``seeds``.

    ``capture`` (``autograd.grad``): return the gradients of ``inputs`` and leave ``.grad``
    alone.  Otherwise accumulate into leaves' ``.grad`` (only those in ``inputs`` when given).
    """
    roots = []
    for i, (out, g) in enumerate(zip(outputs, seeds)):
        if not isinstance(out, Tensor):
            raise TypeError(f"outputs must be Tensors, got {type(out).__name__}")
        node, nr = edge(out)
        if node is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have "
                               "a grad_fn")
        roots.append((node, nr, _validate_seed(out, g, i)))

    # what to capture: a leaf's AccumulateGrad, or a non-leaf's (grad_fn, output_nr)
    targets: dict = {}
    if inputs is not None:
        for k, t in enumerate(inputs):
            if not isinstance(t, Tensor):
                raise TypeError(f"inputs must be Tensors, got {type(t).__name__}")
            node, nr = edge(t)
            if node is None:
                if capture:
                    raise RuntimeError("One of the differentiated Tensors does not require grad")
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            targets.setdefault((node, nr), []).append(k)

    # the graph reachable from the roots (and, with targets, only what leads to them)
    deps: dict = {}
    order: list = []
    seen = set()
    stack = [r[0] for r in roots]
    pop, push, mark, visit, count = stack.pop, stack.append, seen.add, order.append, deps.get
    while stack:
        n = pop()
        if n in seen:
            continue
        mark(n)
        visit(n)
        for nxt, _ in n.next_functions:
            if nxt is not None:
                deps[nxt] = count(nxt, 0) + 1
                if nxt not in seen:
                    push(nxt)
    needed = None
    if targets:
        target_nodes = {n for n, _ in targets}
        needed = set()
        # reverse topological sweep: a node is needed if it is a target or leads to one
        memo: dict = {}

        def leads(n) -> bool:
            todo = [(n, False)]
            while todo:
                m, done = todo.pop()
                if m in memo:
                    continue
                if done:
                    memo[m] = m in target_nodes or any(
                        memo.get(x, False) for x, _ in m.next_functions if x is not None)
                    continue
                todo.append((m, True))
                for x, _ in m.next_functions:
                    if x is not None and x not in memo:
                        todo.append((x, False))
            return memo[n]
        for n in order:
            if leads(n):
                needed.add(n)

    buffers: dict = {}
    for node, nr, g in roots:
        buf = buffers.get(node)
        if buf is None:
            buf = buffers[node] = [None] * max(node._n_outputs, nr + 1)
        buf[nr] = g if buf[nr] is None else buf[nr] + g
    ready = []
    # (nodes of equal rank -- the leaves' AccumulateGrad -- run in the order they became
    # ready, as PyTorch's queue runs them)
    order_nr = itertools.count()
    for node in {r[0] for r in roots}:
        if deps.get(node, 0) == 0:
            heapq.heappush(ready, (-node._seq, next(order_nr), node))

    captured: list = [None] * (len(inputs) if inputs is not None else 0)
    prev = _STATE.grad
    _STATE.grad = create_graph
    from . import anomaly_mode
    check_nan = anomaly_mode._enabled and anomaly_mode._check_nan
    heappop, heappush = heapq.heappop, heapq.heappush
    try:
        while ready:
            node = heappop(ready)[2]
            grads = buffers.pop(node, None)
            outs = ()
            if grads is not None and (needed is None or node in needed) and \
                    (grads[0] is not None if len(grads) == 1 else
                     not all(g is None for g in grads)):
                if type(node) is AccumulateGrad and not targets and not capture:
                    # (the common case, inlined: a leaf without hooks takes its gradient)
                    var = node.variable
                    vag = None if var is None else var._ag
                    if vag is not None and not vag.hooks and not node._tensor_prehooks and \
                            not node._retain_hooks and not node._prehooks:
                        if vag.grad_fn is not None:
                            raise RuntimeError("leaf variable has been moved into the graph "
                                               "interior")
                        if vag.requires_grad:
                            _accumulate(var, grads[0], create_graph)
                        continue
                if isinstance(node, AccumulateGrad):
                    # a leaf's tensor hooks run first (their result is what is captured or
                    # accumulated); autograd.grad captures a leaf's gradient without running
                    # its AccumulateGrad node, so that node's pre-hooks run in backward only
                    grads = _leaf_hooks(node.variable, grads)
                    if not capture and (node._tensor_prehooks or node._retain_hooks or
                                        node._prehooks):
                        grads = _pre_hooks(node, grads)
                elif node._tensor_prehooks or node._retain_hooks or node._prehooks:
                    grads = _pre_hooks(node, grads)
                if targets:
                    for nr, g in enumerate(grads):
                        for k in targets.get((node, nr), ()):
                            captured[k] = g
                if type(node) is AccumulateGrad:
                    var = node.variable
                    vag = None if var is None else var._ag
                    if vag is not None and vag.grad_fn is not None:
                        raise RuntimeError("leaf variable has been moved into the graph "
                                           "interior")
                    if vag is None or not vag.requires_grad:
                        pass  # (requires_grad_(False) since it was used: nothing to keep)
                    elif not capture and (not targets or (node, 0) in targets):
                        _accumulate(var, grads[0], create_graph)
                else:
                    if check_nan or node._hooks or node._anomaly is not None:
                        outs = _apply(node, grads, check_nan)
                    else:
                        outs = node.apply(*grads)
                        if type(outs) is not tuple:
                            outs = (outs,)
                    if not retain_graph:
                        node._release()
            metas = node._input_meta
            n_outs, n_metas = len(outs), len(metas)
            i = -1
            for nxt, nr in node.next_functions:
                i += 1
                if nxt is None:
                    continue
                g = outs[i] if i < n_outs else None
                if g is not None:
                    meta = metas[i] if i < n_metas else None
                    if meta is not None and (g._shape != meta[0] or g._dtype is not meta[1]
                                             or meta[2] is not _CPU):
                        g = _fit(g, meta)
                    buf = buffers.get(nxt)
                    if buf is None:
                        n = nxt._n_outputs
                        if n == 1 and nr == 0:
                            buffers[nxt] = [g]
                        else:
                            buf = buffers[nxt] = [None] * (n if n > nr else nr + 1)
                            buf[nr] = g
                    else:
                        buf[nr] = g if buf[nr] is None else buf[nr] + g
                d = deps[nxt] - 1
                deps[nxt] = d
                if d == 0:
                    heappush(ready, (-nxt._seq, next(order_nr), nxt))
    finally:
        _STATE.grad = prev
    if inputs is not None and capture:
        if not allow_unused:
            for k, g in enumerate(captured):
                if g is None:
                    raise RuntimeError(
                        f"The differentiated Tensor at index {k} appears to not have been used in "
                        "the graph. Set allow_unused=True if this is the desired behavior.")
        return tuple(captured)
    return None


def _only_target(node, targets) -> bool:
    """A non-leaf target whose own node need not run (nothing needed lies beyond it)."""
    return False


def _pre_hooks(node: Node, grads: list) -> list:
    th = node._tensor_prehooks
    if th:
        grads = list(grads)
        for nr, table in th.items():
            for fn in list(table.values()):
                if grads[nr] is None:
                    continue
                r = fn(grads[nr])
                if r is not None:
                    grads[nr] = r
    rh = node._retain_hooks
    if rh:
        for nr, fn in list(rh.items()):
            if nr < len(grads) and grads[nr] is not None:
                fn(grads[nr])
    if node._prehooks:
        for fn in list(node._prehooks.values()):
            r = fn(tuple(grads))
            if r is not None:
                grads = list(r)
    return grads


def _apply(node: Node, grads: list, check_nan: bool) -> tuple:
    try:
        outs = node.apply(*grads)
    except Exception:
        if node._anomaly is not None:
            warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that "
                          f"caused the error:\n{node._anomaly}", UserWarning, stacklevel=2)
        raise
    if not isinstance(outs, tuple):
        outs = (outs,)
    if check_nan:
        for i, g in enumerate(outs):
            if g is not None and bool(g.isnan().any()):
                if node._anomaly is not None:
                    warnings.warn(f"Error detected in {node.name()}. Traceback of forward call "
                                  f"that caused the error:\n{node._anomaly}", UserWarning,
                                  stacklevel=2)
                raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th "
                                   "output.")
    if node._hooks:
        for fn in list(node._hooks.values()):
            r = fn(outs, tuple(grads))
            if r is not None:
                outs = tuple(r)
    return outs


def _leaf_hooks(leaf: Tensor, grads: list) -> list:
    """The leaf's ``register_hook`` hooks on its incoming gradient (a non-None return
    replaces it)."""
    ag = leaf._ag
    if ag is None or not ag.hooks or not grads or grads[0] is None:
        return grads
    g = grads[0]
    for fn in list(ag.hooks.values()):
        r = fn(g)
        if r is not None:
            g = r
    return [g] + list(grads[1:])


def _accumulate(leaf: Tensor, g: Tensor, create_graph: bool) -> None:
    """``leaf.grad += g`` as PyTorch does (the leaf's hooks have run): a new ``.grad`` on the
    first call (never the caller's own tensor) and in-place adds on later ones."""
    ag = leaf._ag
    grad = ag.grad
    if not create_graph and real_float(g):
        a = cpu(g)
        if a is not None and (grad is None or _add_into(grad, a)):
            if grad is None:  # (the general path's clone below, on the array)
                ag.grad = fresh(a.copy(), g._dtype)
            if ag.post_acc_hooks:
                for fn in list(ag.post_acc_hooks.values()):
                    fn(leaf)
            return
    if ag.grad is None:
        # (a gradient may be shared -- a seed, one passed through an add to two leaves --
        # so the leaf gets its own copy, dense and row-major)
        if create_graph:  # (a recorded copy, as PyTorch: grad_fn CopyBackwards)
            from ._torch import T
            empty_like = T.empty_like
            ag.grad = empty_like(g, memory_format=_CONTIGUOUS).copy_(g)
        else:
            ag.grad = g.detach().clone(memory_format=_CONTIGUOUS)
    elif create_graph:
        ag.grad = ag.grad + g
    else:
        prev = _STATE.grad
        _STATE.grad = False
        try:
            ag.grad.add_(g)
        finally:
            _STATE.grad = prev
    if ag.post_acc_hooks:
        for fn in list(ag.post_acc_hooks.values()):
            fn(leaf)


def _add_into(grad, a) -> bool:
    """``grad.add_(a)`` for a row-major CPU ``.grad`` of ``a``'s shape and dtype (the leaf's
    own gradient, as accumulation leaves it); False, doing nothing, otherwise."""
    if type(grad) is not Tensor or grad._shape != a.shape or grad._stride != _contig(a.shape):
        return False
    ga = cpu(grad)
    if ga is None or ga.dtype is not a.dtype or (grad._ag is not None and
                                                 grad._ag.inference) \
            or _np.may_share_memory(ga, a):
        return False
    quiet_run(_iadd, ga, a)
    grad._bump()
    return True


def _iadd(x, y):
    x += y
