"""``tensorviz.autograd.Function``: a new differentiable op with a hand-written backward.

    class Exp(tensorviz.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            (y,) = ctx.saved_tensors
            return grad * y

    Exp.apply(x)          # recorded as one node, ExpBackward, whose backward is Exp.backward

``forward`` and ``backward`` run with grad mode off (``backward`` on under
``create_graph=True``).  ``setup_context(ctx, inputs, output)`` may be defined instead of
taking ``ctx`` in ``forward``.
"""
from __future__ import annotations

import weakref
from typing import Any

from .. import _dtypes
from .._autograd_meta import meta
from .._grad_mode import _STATE
from .._tensor import Tensor
from . import _engine, _record
from .graph import Node, SavedTensor, node_class

__all__ = ["Function", "FunctionCtx", "once_differentiable"]


class FunctionCtx:
    """What ``forward`` leaves for ``backward``: saved tensors and flags."""

    def save_for_backward(self, *tensors) -> None:
        """Keep these tensors (or None) for backward; each is checked for in-place changes."""
        self.to_save = tensors

    def save_for_forward(self, *tensors) -> None:
        self.saved_for_forward = tensors

    @property
    def saved_tensors(self) -> tuple:
        """The tensors given to ``save_for_backward`` (RuntimeError after they were freed)."""
        saved = getattr(self, "_saved", None)
        if saved is None:
            return tuple(getattr(self, "to_save", ()))
        return tuple(s.unpack() if isinstance(s, SavedTensor) else s for s in saved)

    def mark_dirty(self, *tensors) -> None:
        """Declare the inputs that ``forward`` modified in place (and returns)."""
        self.dirty_tensors = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        """Declare outputs that never get gradients (indices, masks)."""
        self.non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """With False, backward receives None (not zeros) for outputs that got no gradient."""
        self.materialize_grads = value


class _FunctionMeta(type):
    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)
        node_base = globals().get("_FunctionNode")  # (None for Function itself)
        cls._backward_cls = None if node_base is None else node_class(name + "Backward",
                                                                      node_base)


class Function(FunctionCtx, metaclass=_FunctionMeta):
    """Base class of user-defined differentiable ops (see the module docstring)."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward mode "
                                  "AD.")

    vjp = backward

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` and, when an input requires grad, record one node whose backward
        is ``cls.backward``."""
        ctx = cls._backward_cls.__new__(cls._backward_cls)
        Node.__init__(ctx)
        ctx._fn_cls = cls
        ctx.needs_input_grad = tuple(_record.requires_grad(a) if isinstance(a, Tensor) else False
                                     for a in args)
        ctx.materialize_grads = True
        uses_setup = cls.setup_context is not Function.setup_context
        prev = _STATE.grad
        _STATE.grad = False
        try:
            if uses_setup:
                out = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, out)
            else:
                out = cls.forward(ctx, *args, **kwargs)
        finally:
            _STATE.grad = prev
        if not (prev and any(ctx.needs_input_grad)):
            return out
        tensors_in = [a for a in args if isinstance(a, Tensor)]
        ctx.next_functions = tuple(_engine.edge(a) for a in tensors_in)
        ctx._input_meta = tuple((a._shape, a._dtype, a._storage._device) for a in tensors_in)
        ctx._arg_is_tensor = tuple(isinstance(a, Tensor) for a in args)
        ctx._arg_meta = tuple((a._shape, a._dtype) if isinstance(a, Tensor) else None
                              for a in args)
        outs = out if isinstance(out, tuple) else (out,)
        ctx._n_outputs = len(outs)
        ctx._out_meta = tuple((o._shape, o._dtype, o._storage._device)
                              if isinstance(o, Tensor) else None for o in outs)
        non_diff = getattr(ctx, "non_differentiable", ())
        dirty = getattr(ctx, "dirty_tensors", ())
        to_save = getattr(ctx, "to_save", ())
        ctx._saved = tuple(None if t is None else SavedTensor(t, any(t is o for o in outs),
                                                              _index(outs, t))
                           for t in to_save)
        ref = weakref.ref(ctx)
        for s in ctx._saved:
            if s is not None and s._is_output:
                s._node = ref
        new_outs = []
        for nr, o in enumerate(outs):
            if not isinstance(o, Tensor):
                new_outs.append(o)
                continue
            if any(o is d for d in dirty):
                _record.check_inplace(o, True)
                o._bump()  # (PyTorch counts the declared in-place write once more)
            elif any(o is a for a in args):  # (an input returned as is: a view of it)
                o = o._view(o._shape, o._stride, o._offset)
            if any(o is n for n in non_diff) or o._dtype.category < _dtypes._FLOAT:
                new_outs.append(o)
                continue
            ag = meta(o)
            ag.grad_fn = ctx
            ag.output_nr = nr
            ag.requires_grad = False
            new_outs.append(o)
        return tuple(new_outs) if isinstance(out, tuple) else new_outs[0]


def _index(outs, t) -> int:
    for i, o in enumerate(outs):
        if o is t:
            return i
    return 0


class _FunctionNode(Node, FunctionCtx):
    """The node of one ``Function.apply`` call (also its ``ctx``)."""

    def apply(self, *grads):
        cls = self._fn_cls
        if self.materialize_grads:
            from ._torch import T
            zeros = T.zeros
            grads = tuple(zeros(m[0], dtype=m[1], device=m[2]) if g is None and m is not None
                          else g for g, m in zip(grads, self._out_meta))
        res = cls.backward(self, *grads)
        if not isinstance(res, tuple):
            res = (res,)
        expected = len(self._arg_is_tensor)
        if len(res) != expected:
            if len(res) > expected and all(r is None for r in res[expected:]):
                res = res[:expected]
            else:
                raise RuntimeError(f"function {type(self).__name__} returned an incorrect number "
                                   f"of gradients (expected {expected}, got {len(res)})")
        out = []
        for i, (g, is_t, m) in enumerate(zip(res, self._arg_is_tensor, self._arg_meta)):
            if not is_t:
                continue
            if g is not None and isinstance(g, Tensor) and m is not None:
                shape = m[0]
                if g._shape != shape:
                    try:
                        from .._layout import broadcast_shapes
                        ok = broadcast_shapes(shape, g._shape) == g._shape and \
                            len(g._shape) >= len(shape)
                    except RuntimeError:
                        ok = False
                    if not ok or _engine.sum_to(g, shape)._shape != shape:
                        raise RuntimeError(
                            f"Function {type(self).__name__} returned an invalid gradient at "
                            f"index {i} - got {list(g._shape)} but expected shape compatible "
                            f"with {list(shape)}")
            out.append(g)
        return tuple(out)

    def _release(self) -> None:
        for s in getattr(self, "_saved", ()) or ():
            if s is not None:
                s.release()

    def name(self) -> str:
        return type(self).__name__


def once_differentiable(fn):
    """Decorator for a ``backward`` that is not itself differentiable (it runs with grad off)."""
    import functools

    @functools.wraps(fn)
    def wrapped(ctx, *args):
        prev = _STATE.grad
        _STATE.grad = False
        try:
            return fn(ctx, *args)
        finally:
            _STATE.grad = prev
    return wrapped
