"""The autograd methods of ``Tensor``: ``backward``, ``register_hook``, ``retain_grad``,
``register_post_accumulate_grad_hook``, ``_base``, ``_is_view``, ``is_inference`` and the
view-aware ``grad_fn`` -- installed on the class from here, above the tensor layer."""
from __future__ import annotations

from typing import Callable

from .._autograd_meta import InferenceCounter, meta
from .._autograd_meta import is_inference as _ag_is_inference
from .._grad_mode import _STATE
from .._tensor import Tensor
from . import _engine, _record
from .graph import RemovableHandle, _HookDict

__all__: list = []


def backward(self, gradient=None, retain_graph=None, create_graph: bool = False,
             inputs=None) -> None:
    """Accumulate the gradient of this tensor into the leaves' ``.grad``.

    ``gradient`` is the vector of the vector-Jacobian product (implicit ``1`` for a scalar);
    see ``tensorviz.autograd.backward`` for the other arguments.

    >>> x = tensorviz.tensor([1., 2.], requires_grad=True)
    >>> (x ** 2).sum().backward()
    >>> x.grad
    tensor([2., 4.])
    """
    from ._backward import backward as _backward
    _backward(self, gradient, retain_graph, create_graph, inputs=inputs)


def register_hook(self, hook: Callable) -> RemovableHandle:
    """Run ``hook(grad)`` whenever a gradient for this tensor is computed; a tensor it
    returns replaces the gradient. Returns a handle whose ``remove()`` takes it away.

    >>> h = x.register_hook(lambda g: g * 2)    # doubles x's gradient
    >>> h.remove()
    """
    if not self.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    ag = meta(self)
    if ag.base is not None:
        _record.refresh_view(self)
    if ag.grad_fn is not None:
        return ag.grad_fn._register_tensor_prehook(ag.output_nr, hook)
    if ag.hooks is None:
        ag.hooks = _HookDict()
    handle = RemovableHandle(ag.hooks)
    ag.hooks[handle.id] = hook
    return handle


def register_post_accumulate_grad_hook(self, hook: Callable) -> RemovableHandle:
    """Run ``hook(tensor)`` after a gradient was accumulated into this leaf's ``.grad``."""
    if not self.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    ag = meta(self)
    if ag.grad_fn is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
    if ag.post_acc_hooks is None:
        ag.post_acc_hooks = _HookDict()
    handle = RemovableHandle(ag.post_acc_hooks)
    ag.post_acc_hooks[handle.id] = hook
    return handle


def retain_grad(self) -> None:
    """Keep this non-leaf tensor's gradient in ``.grad`` during backward (leaves always do).

    >>> y = x * 2; y.retain_grad(); y.sum().backward(); y.grad
    tensor([1., 1.])
    """
    if not self.requires_grad:
        raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    ag = meta(self)
    if ag.grad_fn is None or ag.retains_grad:
        return
    ag.retains_grad = True
    ref = _weak(self)
    node = ag.grad_fn
    nr = ag.output_nr

    def tap(g):
        t = ref()
        if t is None:
            return
        tag = t._ag
        if tag.grad is None:
            tag.grad = g.detach().clone() if not _STATE.grad else g.clone()
        else:
            tag.grad = tag.grad + g
    if node._retain_hooks is None:
        node._retain_hooks = {}
    node._retain_hooks[nr] = tap


def _weak(t):
    import weakref
    return weakref.ref(t)


def _retains_grad(self) -> bool:
    """True once ``retain_grad()`` was called on this non-leaf tensor."""
    ag = self._ag
    return ag is not None and ag.retains_grad and ag.grad_fn is not None


def _grad_fn(self):
    """The graph node that made this tensor (``<MulBackward0 ...>``), None for a leaf."""
    ag = self._ag
    if ag is None or ag.base is None:
        if _record._views_rebased and self._vb is not None and (
                ag is None or ag.grad_fn is None) and _record._adopt_view(self):
            _record.refresh_view(self)
            return self._ag.grad_fn
        return None if ag is None else ag.grad_fn
    _record.refresh_view(self)
    return ag.grad_fn


def view_aware_flags() -> None:
    """Install ``requires_grad`` and ``is_leaf`` that see a view taken before an in-place
    write gave its base a node (``_record._adopt_view``): from the first such write on,
    until then the tensor layer's plain properties serve."""
    if "requires_grad" in _flags_installed:
        return
    plain_rg = Tensor.__dict__["requires_grad"]
    plain_leaf = Tensor.__dict__["is_leaf"]
    _flags_installed["requires_grad"] = plain_rg

    def requires_grad(self) -> bool:
        ag = self._ag
        if ag is not None and (ag.requires_grad or ag.grad_fn is not None):
            return True
        return _record.requires_grad(self)

    def is_leaf(self) -> bool:
        ag = self._ag
        if ag is not None and ag.grad_fn is not None:
            return False
        return _grad_fn(self) is None
    requires_grad.__doc__ = plain_rg.__doc__
    is_leaf.__doc__ = plain_leaf.__doc__
    Tensor.requires_grad = property(requires_grad, plain_rg.fset, None, plain_rg.__doc__)
    Tensor.is_leaf = property(is_leaf, None, None, plain_leaf.__doc__)


_flags_installed: dict = {}
_record.on_first_rebase = view_aware_flags


def _base(self):
    """For a view (made by a view op, recorded or not): the root tensor it views, else None
    (None for an inference tensor's views too: PyTorch does not track them as views).

    >>> a = tensorviz.zeros(4); a[1:][1:]._base is a      # True: the root, never a view
    """
    if type(self._vc) is InferenceCounter:
        return None
    ag = self._ag
    if ag is not None and ag.base is not None:
        return ag.base
    return _record.view_root(self)


def _is_view(self) -> bool:
    """True for a tensor made by a view op (it shares its base's memory).

    >>> tensorviz.zeros(4)[1:]._is_view(), tensorviz.zeros(4).detach()._is_view()  # (True, False)
    """
    return _base(self) is not None


def is_inference(self) -> bool:
    """True for a tensor made under ``inference_mode``, or a view of one (it never joins a
    graph).

    >>> with tensorviz.inference_mode(): a = tensorviz.zeros(2)
    >>> a.is_inference(), a.t().is_inference(), tensorviz.zeros(2).is_inference()
    (True, True, False)
    """
    return _ag_is_inference(self)


def _numpy_guard(numpy):
    def numpy_(self, *, force: bool = False):
        if not force and self.requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        if force:
            self = self.detach()
        return numpy(self, force=force)
    numpy_.__doc__ = numpy.__doc__
    numpy_.__wrapped__ = numpy
    return numpy_


Tensor.backward = backward
Tensor.register_hook = register_hook
Tensor.register_post_accumulate_grad_hook = register_post_accumulate_grad_hook
Tensor.retain_grad = retain_grad
Tensor.retains_grad = property(_retains_grad)
Tensor.grad_fn = property(_grad_fn)
Tensor._base = property(_base)
Tensor._is_view = _is_view
Tensor.is_inference = is_inference
Tensor.numpy = _numpy_guard(Tensor.numpy)
