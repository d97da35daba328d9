"""Recording the graph, in the one place every op call passes: the registry's spellings.

Until a tensor first requires grad, the registry binds every spelling to its plain entry
point (autograd costs nothing).  ``arm()`` then binds them again through ``recording``: with
grad mode on and an input that requires grad, the op runs below autograd (its kernel sees
no graph) and its derivative formula (``_formulas``) makes one node; in-place ops rebase
the written tensor (``CopySlices`` on a view's base); view results remember their base.
"""
from __future__ import annotations

import builtins
import traceback
import weakref
from typing import Any, Callable

from .. import _dispatch, _dtypes
from .._autograd_meta import AutogradMeta, meta
from .._grad_mode import _STATE
from .._tensor import Tensor
from . import _engine
from .._device import CPU as _CPU
from . import anomaly_mode as _anomaly
from .graph import _NODE_CLASSES, CopySlices, FormulaNode, SavedTensor, node_class

_FLOAT = _dtypes._FLOAT
from numpy import ndarray as _ndarray  # noqa: E402

__all__ = ["arm", "armed", "FORMULAS", "COMPOSITES", "formula", "composite", "Ctx"]

FORMULAS: dict[str, Callable] = {}
_NO_EDGE = (None, 0)
COMPOSITES: dict[str, Callable] = {}


def formula(*names: str):
    """Register the derivative formula of the ops ``names`` (see ``_formulas``)."""
    def register(fn: Callable) -> Callable:
        for n in names:
            FORMULAS[n] = fn
        return fn
    return register


def composite(*names: str):
    """Register ``fn`` as the recorded decomposition of the ops ``names``: with grad needed,
    the op runs as ``fn`` (through recorded spellings) instead of its own kernel."""
    def register(fn: Callable) -> Callable:
        for n in names:
            COMPOSITES[n] = fn
        return fn
    return register


_INFERENCE_SAVE = ("Inference tensors cannot be saved for backward. Please do not use Tensors "
                   "created in inference mode in computation tracked by autograd. To work "
                   "around this, you can make a clone to get a normal tensor and use it in "
                   "autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")


class Ctx:
    """What a formula sees at record time: ``needs(t)`` (does input ``t`` want a gradient),
    ``save(t, name)`` (keep ``t`` for backward, version-checked) and ``out`` (the result)."""

    __slots__ = ("out", "saved", "names", "outputs_saved", "outputs")

    def __init__(self, out):
        self.out = out
        self.saved = []
        self.names = None
        self.outputs_saved = None
        self.outputs = None

    @staticmethod
    def needs(t) -> bool:
        if isinstance(t, Tensor):
            ag = t._ag
            return ag is not None and (ag.requires_grad or ag.grad_fn is not None)
        return False

    def save(self, t, name: str | None = None) -> SavedTensor:
        """Keep ``t`` (an input, or the op's output) for the backward formula."""
        ag = t._ag
        if ag is not None and ag.inference:
            raise RuntimeError(_INFERENCE_SAVE)
        out = self.out
        nr = 0
        if t is out:
            is_output = True
        elif type(out) is tuple:
            is_output = builtins.any(t is o for o in out)
            if is_output:
                nr = next(i for i, o in enumerate(out) if o is t)
        else:
            is_output = False
        s = SavedTensor(t, is_output, nr)
        self.saved.append(s)
        if is_output:
            if self.outputs_saved is None:
                self.outputs_saved = []
            self.outputs_saved.append(s)
        if name is not None:
            if self.names is None:
                self.names = {}
            self.names[name] = s
        return s

    def intermediate(self, node_name: str, input, backward) -> Tensor:
        """Record a node between ``input`` and this op's own node (PyTorch's decompositions:
        a reshape that copies is ``CloneBackward0`` then ``UnsafeViewBackward0``); returns a
        stand-in for its output to list among this op's inputs."""
        node = node_class(node_name)((_engine.edge(input),),
                                     ((input._shape, input._dtype, input._storage._device),),
                                     backward, [], None)
        mid = input._alias()
        ag = meta(mid)
        ag.grad_fn = node
        return mid

    def keep(self, name: str, value) -> Any:
        """Expose a non-tensor value as ``node._saved_<name>`` (PyTorch shows these too)."""
        if self.names is None:
            self.names = {}
        self.names[name] = value
        return value


def requires_grad(x) -> bool:
    """True for a tensor that requires grad (a list/tuple of tensors: any of them)."""
    if isinstance(x, Tensor):
        ag = x._ag
        return ag is not None and (ag.requires_grad or ag.grad_fn is not None)
    if type(x) in (list, tuple):
        for y in x:
            if isinstance(y, Tensor):
                ag = y._ag
                if ag is not None and (ag.requires_grad or ag.grad_fn is not None):
                    return True
    return False


def _any_requires_grad(args, kwargs) -> bool:
    for a in args:
        if requires_grad(a):
            return True
    if kwargs:
        for k, v in kwargs.items():
            if k != "out" and requires_grad(v):
                return True
    return False


def _differentiable(t) -> bool:
    return isinstance(t, Tensor) and t._dtype.category >= _dtypes._FLOAT


def _outputs(out) -> tuple:
    if isinstance(out, Tensor):
        return (out,)
    if isinstance(out, tuple):
        return tuple(out)
    if isinstance(out, list):
        return tuple(out)
    return ()


def _device(t):
    """``t``'s device without making a fresh CPU result's storage (see ``_tensor._fresh``)."""
    a = t._a
    if a is not None and type(a) is _ndarray:
        return _CPU
    return t._storage._device


def record(name: str, args: tuple, kwargs: dict, out, *, view: bool = False,
           form: str = "function"):
    """Make the node of op ``name`` for a call ``args, kwargs -> out`` (forward done)."""
    if type(out) is Tensor:  # (the common case: one result)
        if out._dtype.category < _FLOAT:
            return out  # (integer/bool results never require grad)
        outs = (out,)
    else:
        outs = _outputs(out)
        if not builtins.any(_differentiable(o) for o in outs):
            return out
    for o in outs:
        for a in args:
            if o is a:  # (an op that returns its input itself: resolve_conj, float() of float)
                return out
    f = FORMULAS.get(name)
    ctx = Ctx(out)
    if f is None:
        inputs = tuple(a for a in args if isinstance(a, Tensor)) + tuple(
            v for k, v in (kwargs or {}).items() if isinstance(v, Tensor) and k != "out")
        node_name, backward = _not_implemented(name)
    else:
        res = f(ctx, *args, **kwargs) if kwargs else f(ctx, *args)
        if res is None:
            return out
        node_name, inputs, backward = res
    nf = []
    im = []
    for t in inputs:  # (_engine.edge and _device, inlined: every recorded op passes here)
        if isinstance(t, Tensor):
            ag = t._ag
            if ag is None:
                nf.append(_NO_EDGE)
            else:
                if ag.base is not None:  # (a view whose base was since written in place
                    refresh_view(t)      # through another view takes the new node first)
                fn = ag.grad_fn
                if fn is not None:
                    nf.append((fn, ag.output_nr))
                elif ag.requires_grad:
                    ref = ag.accumulator
                    acc = None if ref is None else ref()
                    nf.append(((acc if acc is not None else _engine.accumulator(t)), 0))
                else:
                    nf.append(_NO_EDGE)
            a = t._a
            im.append((t._shape, t._dtype,
                       _CPU if a is not None and type(a) is _ndarray else t._storage._device))
        else:
            nf.append(_NO_EDGE)
            im.append(None)
    next_functions = tuple(nf)
    input_meta = tuple(im)
    targets = ctx.outputs if ctx.outputs is not None else outs
    cls = _NODE_CLASSES.get(node_name) or node_class(node_name)
    node = cls(next_functions, input_meta, backward, ctx.saved, ctx.names, len(targets) or 1)
    if _anomaly._enabled:
        node._anomaly = "".join(traceback.format_stack()[:-3])
    if ctx.outputs_saved:
        ref = weakref.ref(node)
        for s in ctx.outputs_saved:
            s._node = ref
    nr = 0
    for o in targets:
        if isinstance(o, Tensor) and o._dtype.category >= _FLOAT:
            ag = o._ag
            if ag is None:
                ag = o._ag = AutogradMeta()
            ag.grad_fn = node
            ag.output_nr = nr
        nr += 1
    ctx.out = ctx.outputs = None  # (a formula's closure may keep ctx: no cycle through it)
    if view:
        _mark_view(args[0], targets, multi=len(targets) > 1, name=name)
    return out


def _not_implemented(name: str):
    op = name.rpartition(".")[2]

    def backward(*grads):
        raise RuntimeError(f"derivative for aten::{op} is not implemented")
    return "NotImplemented", backward


def _anomaly_enabled() -> bool:
    from . import anomaly_mode
    return anomaly_mode._enabled


# ---------------------------------------------------------------- views
def _mark_view(base: Tensor, views: tuple, multi: bool = False, creation: str = "",
               name: str = "") -> None:
    """Remember, on each view result, the base it shares memory with (the base's own base
    when it is itself a view), for in-place ops through the view later; ``name`` is the view
    op (those that change more than the layout make the view's ``replay``)."""
    if not isinstance(base, Tensor):
        return
    bag = base._ag
    root = base if bag is None or bag.base is None else bag.base
    step = _METADATA_VIEWS.get(name.rpartition(".")[2]) if name else None
    parent = None if bag is None or bag.base is None else bag.replay
    for v in views:
        if isinstance(v, Tensor) and v._storage is root._storage:
            ag = meta(v)
            ag.base = root
            ag.view_fn = _root_fn(root)
            ag.creation = creation or ("multi" if multi else (bag.creation if bag else ""))
            if step is not None or parent is not None:
                ag.replay = _chain_replay(root, base, v, parent, step)


def _neg_view(t: Tensor) -> Tensor:
    """PyTorch's ``_neg_view``: ``t`` read negated (the negative bit flipped), a view
    recorded as ``NegViewBackward0`` (the imaginary part of a conjugate view is one)."""
    v = t._view(t._shape, t._stride, t._offset)
    v._cj = not t._cj
    if _STATE.grad and not _STATE.inference and requires_grad(t):
        return record("_neg_view", (t,), {}, v, view=True)
    return v


def _metadata_step(name: str):
    def step(t: Tensor) -> Tensor:
        from ._torch import T
        return getattr(T, name)(t)
    return step


# The view ops whose result as_strided cannot make from the base (another dtype, the
# conjugate or negative bit): PyTorch's VIEW_FUNCTIONS_WITH_METADATA_CHANGE.
_METADATA_VIEWS: dict = {n: _metadata_step(n) for n in ("view_as_real", "view_as_complex",
                                                        "conj")}
_METADATA_VIEWS["_neg_view"] = _neg_view


def _chain_replay(root: Tensor, parent_t: Tensor, view: Tensor, parent, step):
    """How to take ``view`` again from a tensor laid out as ``root`` (PyTorch's chained
    ``view_func``): the parent's replay (or its as_strided geometry) then this view op
    (``step``) when it changes metadata, else the view's own as_strided geometry."""
    if step is not None:
        if parent is not None:
            return lambda b: step(parent(b))
        if parent_t is root:
            return step
        prev = _as_strided_step(root, parent_t)
        return lambda b: step(prev(b, b))
    last = _as_strided_step(root, view)
    return lambda b: last(b, parent(b))


def _as_strided_step(root: Tensor, view: Tensor):
    """``t.as_strided`` to ``view``'s geometry, its offset taken relative to ``b`` (the
    tensor laid out as ``root`` that the replay started from)."""
    isz = view._dtype.itemsize
    rel = view._offset - root._offset * root._dtype.itemsize // isz
    shape, stride = view._shape, view._stride

    def f(b: Tensor, t: Tensor) -> Tensor:
        return t.as_strided(shape, stride, b._offset * b._dtype.itemsize // isz + rel)
    return f


def _root_fn(root: Tensor):
    ag = root._ag
    return None if ag is None else ag.grad_fn


def refresh_view(t: Tensor) -> None:
    """A view whose base was rebased by an in-place op (through another view) takes, as
    PyTorch, an ``AsStridedBackward0`` of the base's new node as its ``grad_fn`` (a view
    with a ``replay`` takes the nodes of that replay on the base: ``AsStridedBackward0``
    over ``ViewAsRealBackward0`` for ``z.real``)."""
    ag = t._ag
    root = ag.base
    if root is None or root._ag is None:
        return
    fn = root._ag.grad_fn
    if fn is None or fn is ag.view_fn:
        return
    ag.view_fn = fn
    if ag.replay is not None:
        prev = _STATE.grad
        _STATE.grad = True  # (as PyTorch: the replay records even inside backward)
        try:
            again = ag.replay(root)
        finally:
            _STATE.grad = prev
        ag.grad_fn = again._ag.grad_fn if again._ag is not None else None
        ag.output_nr = again._ag.output_nr if again._ag is not None else 0
        return
    ag.grad_fn = _as_strided_node(root, t)
    ag.output_nr = 0


def _as_strided_node(root: Tensor, view: Tensor):
    from ._torch import T
    zeros = T.zeros
    shape, stride, offset = view._shape, view._stride, view._offset - root._offset
    base_shape, base_stride = root._shape, root._stride
    dt, dev = root._dtype, root._storage._device

    def backward(g):
        from ._torch import T
        empty_strided = T.empty_strided
        z = empty_strided(base_shape, base_stride, dtype=g.dtype, device=dev)
        z.zero_()
        z.as_strided(shape, stride, offset).copy_(g)
        return (z,)
    node = node_class("AsStridedBackward0")((_engine.edge(root),),
                                             ((base_shape, dt, dev),), backward, [], None)
    return node


# ---------------------------------------------------------------- in-place
_LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
_VIEW_OF_LEAF = "a view of a leaf Variable that requires grad is being used in an in-place operation."
_INFERENCE_INPLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed."
                      "You can make a clone to get a normal tensor before doing inplace update."
                      "See https://github.com/pytorch/rfcs/pull/17 for more details.")


def check_inplace(self: Tensor, grad_on: bool) -> None:
    """PyTorch's refusals of an in-place write to ``self``."""
    ag = self._ag
    if ag is None:
        return
    if ag.inference and not _STATE.inference:
        raise RuntimeError(_INFERENCE_INPLACE)
    if not grad_on:
        return
    if ag.grad_fn is None and ag.requires_grad and ag.base is None:
        raise RuntimeError(_LEAF)
    base = ag.base
    if base is not None:
        if ag.creation == "multi":
            if ag.base is not None:
                refresh_view(self)
            name = ag.grad_fn.name() if ag.grad_fn is not None else "a function"
            op = name[:-len("Backward0")] if name.endswith("Backward0") else name
            raise RuntimeError(
                f"Output {ag.output_nr} of {op} is a view and is being modified inplace. This "
                "view is the output of a function that returns multiple views. Such functions do "
                "not allow the output views to be modified inplace. You should replace the "
                "inplace operation by an out-of-place one.")
        bag = base._ag
        if bag is not None and bag.grad_fn is None and bag.requires_grad:
            raise RuntimeError(_VIEW_OF_LEAF)
        if ag.creation == "no_grad" and (requires_grad(self) or requires_grad(base)):
            raise RuntimeError(
                "A view was created in no_grad mode and is being modified inplace with grad "
                "mode enabled. Given that this use case is ambiguous and error-prone, it is "
                "forbidden. You can clarify your code by moving both the view and the inplace "
                "either both inside the no_grad block (if you don't want the inplace to be "
                "tracked) or both outside (if you want the inplace to be tracked).")


def record_inplace(name: str, fn: Callable, args: tuple, kwargs: dict):
    """Run the in-place op ``fn`` on ``args[0]`` and rebase it onto the op's node."""
    self = args[0]
    ag = self._ag
    if ag is not None and ag.base is not None:
        refresh_view(self)
    else:
        ag = _adopt_base(self, ag)
    old_fn, old_nr = _engine.edge(self)
    pre = None
    if FORMULAS.get(name) is not None:
        _STATE.grad = False
        try:
            pre = self.clone()
        finally:
            _STATE.grad = True
        if old_fn is not None:
            pag = pre._ag = AutogradMeta()
            if ag is not None and ag.grad_fn is None and ag.requires_grad:
                pag.requires_grad = True  # (unreachable: leaves are refused above)
            pag.grad_fn = old_fn
            pag.output_nr = old_nr
    _STATE.grad = False
    try:
        out = fn(*args, **kwargs)
    finally:
        _STATE.grad = True
    if not self._dtype.category >= _dtypes._FLOAT:
        return out
    stand_in = (pre if pre is not None else self,) + tuple(args[1:])
    f = FORMULAS.get(name)
    ctx = Ctx(self)
    if f is None:
        node_name, backward = _not_implemented(name)
        inputs = tuple(a for a in stand_in if isinstance(a, Tensor))
    else:
        res = f(ctx, *stand_in, **(kwargs or {}))
        if res is None:
            return out
        node_name, inputs, backward = res
    next_functions = tuple((old_fn, old_nr) if (t is pre and pre is not None) else
                           _engine.edge(t) for t in inputs)
    input_meta = tuple((t._shape, t._dtype, t._storage._device) if isinstance(t, Tensor)
                       else None for t in inputs)
    node = node_class(node_name)(next_functions, input_meta, backward, ctx.saved, ctx.names, 1)
    if ctx.outputs_saved:
        ref = weakref.ref(node)
        for s in ctx.outputs_saved:
            s._node = ref
    ag = meta(self)
    root = ag.base
    if root is None:
        ag.grad_fn = node
        ag.output_nr = 0
        ag.requires_grad = False
        return out
    # an in-place write through a view: the base's node becomes CopySlices
    rag = meta(root)
    base_edge = _engine.edge(root)
    geometry = (self._shape, self._stride, self._offset - root._offset)
    cs = CopySlices(base_edge, node, geometry,
                    ((root._shape, root._dtype, root._storage._device),) + node._input_meta[1:],
                    (root._shape, _dense_strides(root)), ag.replay)
    cs._n_outputs = 1
    rag.grad_fn = cs
    rag.output_nr = 0
    refresh_view(self)
    return out


def view_root(t: Tensor):
    """The root base of ``t`` through its view links (``_vb``, set by every view), or None.

    >>> a = tensorviz.zeros(4); view_root(a[1:].t()) is a   # True
    """
    b = getattr(t, "_vb", None)
    if b is None:
        return None
    while True:
        up = b._vb
        if up is None:
            return b
        b = up


def _adopt_base(t: Tensor, ag):
    """A view made while nothing recorded (its base needed no grad) written in place with a
    tensor that requires grad: it takes its root base (``_vb``) as autograd's view base, so
    the base is rebased as ``CopySlices`` like any view's.  Views whose dtype or conjugate
    bit differ from the root's (``view_as_real``, ``.imag``) cannot be replayed from the
    layout alone and stay unrebased.  Returns ``t``'s record (or None)."""
    link = t
    while link is not None:  # (a view of a split/unbind output: PyTorch's creation meta)
        lag = link._ag
        if lag is not None and lag.creation == "multi":
            raise RuntimeError(
                "A view was created in no_grad mode and is being modified inplace with grad "
                "mode enabled. This view is the output of a function that returns multiple "
                "views. Such functions do not allow the output views to be modified inplace. "
                "You should replace the inplace operation by an out-of-place one.")
        link = getattr(link, "_vb", None)
    root = view_root(t)
    if (root is None or root._storage is not t._storage or root._dtype is not t._dtype
            or root._cj != t._cj):
        return ag
    rag = root._ag
    if rag is not None and rag.base is not None:  # (an alias of a recorded view)
        root = rag.base
    ag = meta(t)
    ag.base = root
    ag.view_fn = _root_fn(root)
    return ag


def _dense_strides(t: Tensor) -> tuple:
    """``t``'s strides if they lay it out densely (what the view geometry refers to), else
    row-major ones."""
    from .. import _layout
    if _layout.is_non_overlapping_and_dense(t._shape, t._stride):
        return t._stride
    return _layout.contiguous_strides(t._shape)


# ---------------------------------------------------------------- the spellings
def recording(rec, form: str, fn: Callable) -> Callable:
    """The recording spelling of ``fn`` (one of op ``rec``'s spellings)."""
    name = rec.qualname if form in ("function", "method", "inplace", "operator") else form
    if form.startswith("__") and form not in FORMULAS and form not in COMPOSITES:
        name = rec.qualname
    view = builtins.bool(rec.view)
    decomposed = COMPOSITES.get(name)
    if form == "inplace" or (rec.name.endswith("_") and form in ("function", "method")):
        def inplace(*args, **kwargs):
            self = args[0] if args else None
            if not isinstance(self, Tensor):
                return fn(*args, **kwargs)
            grad_on = _STATE.grad and not _STATE.inference
            check_inplace(self, grad_on)
            if not grad_on or not (_any_requires_grad(args, kwargs)):
                return fn(*args, **kwargs)
            return record_inplace(name, fn, args, kwargs)
        _copy_names(inplace, fn)
        return inplace

    def op(*args, **kwargs):
        state = _STATE
        if not state.grad or state.inference:  # (inference mode never records)
            out = fn(*args, **kwargs)
            if _STATE.inference:
                _mark_inference(args, out)
            elif view and args and requires_grad(args[0]):
                _mark_view(args[0], _outputs(out), creation="no_grad")
            return out
        for a in args:  # (inlined _any_requires_grad: this is every op's path)
            if isinstance(a, Tensor):
                ag = a._ag
                if ag is not None and (ag.requires_grad or ag.grad_fn is not None):
                    break
            elif type(a) in (list, tuple) and requires_grad(a):
                break
        else:
            if not kwargs or not _any_requires_grad((), kwargs):
                return fn(*args, **kwargs)
        if kwargs and kwargs.get("out") is not None:
            raise RuntimeError(f"{rec.name}(): functions with out=... arguments don't support "
                               "automatic differentiation, but one of the arguments requires "
                               "grad.")
        if decomposed is not None:
            return decomposed(*args, **kwargs)
        state.grad = False
        try:
            out = fn(*args, **kwargs)
        finally:
            state.grad = True
        return record(name, args, kwargs, out, view=view, form=form)
    _copy_names(op, fn)
    return op


def _mark_inference(args: tuple, out) -> None:
    """Tensors made under ``inference_mode`` are inference tensors (views of normal tensors
    stay normal, as in PyTorch)."""
    for o in _outputs(out):
        if not isinstance(o, Tensor):
            continue
        base = next((a for a in args if isinstance(a, Tensor) and a._storage is o._storage),
                    None)
        if base is None or (base._ag is not None and base._ag.inference):
            meta(o).inference = True


def _copy_names(wrapper: Callable, fn: Callable) -> None:
    for attr in ("__name__", "__qualname__", "__doc__", "__module__"):
        try:
            setattr(wrapper, attr, getattr(fn, attr))
        except (AttributeError, TypeError):
            pass
    wrapper.__wrapped__ = fn


_armed = False


def armed() -> bool:
    """True once recording spellings are installed."""
    return _armed


def arm() -> None:
    """Install the recording spellings (first tensor that requires grad, or inference mode)."""
    global _armed
    if _armed:
        return
    _armed = True
    from . import _tensor_methods
    _dispatch.set_recorder(recording)
    _dispatch.install()
    _tensor_methods.install()
