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
from .._autograd_meta import AutogradMeta, InferenceCounter, meta
from .._autograd_meta import is_inference as _is_inference
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


#: True once an inference tensor was made (until then no saved tensor can be a view of one).
_inference_made = False

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
            return ag is not None and (ag.requires_grad or ag.grad_fn is not None or (
                ag.base is not None and requires_grad(ag.base)))
        return False

    def save(self, t, name: str | None = None) -> SavedTensor:
        """Keep ``t`` (an input, or the op's output) for the backward formula."""
        ag = t._ag  # (an inference tensor, or a view of one once any was made)
        if (ag is not None and ag.inference) or (
                _inference_made and type(t._vc) is InferenceCounter):
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
        if ag is not None:
            if ag.requires_grad or ag.grad_fn is not None:
                return True
            base = ag.base
            if base is not None:  # (a view requires grad when its base does, as PyTorch's)
                bag = base._ag
                return bag is not None and (bag.requires_grad or bag.grad_fn is not None)
        # (a view taken before its root base was armed: given a node by an in-place write,
        # or made to require grad by requires_grad_())
        if _views_rebased and x._vb is not None and _adopt_view(x):
            return requires_grad(x)
        return False
    if type(x) in (list, tuple):
        for y in x:
            if isinstance(y, Tensor):
                ag = y._ag
                if ag is not None and (ag.requires_grad or ag.grad_fn is not None):
                    return True
        if _views_rebased:
            return adopt_views((x,))
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
    # (set_ is declared in PyTorch's derivatives.yaml as not implemented, named without aten::)
    msg = f"derivative for {op} is not implemented" if op == "set_" else \
        f"derivative for aten::{op} is not implemented"

    def backward(*grads):
        raise RuntimeError(msg)
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
    for v in views:  # (an op that returned its input itself made no view: t.real of a real t)
        if isinstance(v, Tensor) and v is not base and v._storage is root._storage:
            ag = meta(v)
            ag.base = root
            vc = v._vc
            ag.view_version = vc[0] if vc is not None else 0
            made = bag.creation if bag else ""
            if made != "inference":  # (a view of an inference-mode view stays one: PyTorch)
                # (the kernels of split/unbind mark their outputs, one output or several)
                made = creation or ("multi" if multi or ag.creation == "multi" else made)
            ag.creation = made
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


def refresh_view(t: Tensor) -> None:
    """A view whose family was written in place since its ``grad_fn`` was set (its base,
    itself or another view of the base, even under ``no_grad``) takes, as PyTorch, an
    ``AsStridedBackward0`` of the base's node as its ``grad_fn`` (a view with a ``replay``
    takes the nodes of that replay on the base: ``AsStridedBackward0`` over
    ``ViewAsRealBackward0`` for ``z.real``); a view made under ``no_grad``/inference mode or
    by a function returning several views raises PyTorch's error instead."""
    ag = t._ag
    root = ag.base
    if root is None:
        return
    rag = root._ag
    if ag.grad_fn is None and (rag is None or not (rag.requires_grad or
                                                   rag.grad_fn is not None)):
        return
    vc = t._vc
    version = vc[0] if vc is not None else 0
    if version == ag.view_version:
        return
    if ag.creation:
        raise _creation_error(ag.creation, ag.grad_fn, ag.output_nr, indirect=True)
    ag.view_version = version
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
_CLARIFY = (" Given that this use case is ambiguous and error-prone, it is forbidden. You can "
            "clarify your code by moving both the view and the inplace either both inside the "
            "{} block (if you don't want the inplace to be tracked) or both outside (if you "
            "want the inplace to be tracked).")
_MULTI = (" This view is the output of a function that returns multiple views. Such functions "
          "do not allow the output views to be modified inplace. You should replace the "
          "inplace operation by an out-of-place one.")


def _creation_error(creation: str, grad_fn, output_nr: int, indirect: bool) -> RuntimeError:
    """PyTorch's refusal (``handle_view_on_rebase``) of an in-place write of a view made under
    ``no_grad`` ("no_grad"), inference mode ("inference") or by a function returning several
    views ("multi"): through the view itself, or (``indirect``) through its base or another
    view, noticed when the view is next used."""
    modified = ("its base or another view of its base has been" if indirect else "is being")
    name = None
    if grad_fn is not None:
        name = grad_fn.name()
        name = name[:-len("Backward0")] if name.endswith("Backward0") else name
    if creation != "multi" or grad_fn is None:
        prefix = (f"Output {output_nr} of {name} is a view of a view which was created in"
                  if grad_fn is not None else "A view was created in")
        if creation == "inference":
            msg = f"{prefix} inference mode and {modified} modified inplace in normal mode."
        else:
            msg = f"{prefix} no_grad mode and {modified} modified inplace with grad mode enabled."
    else:
        msg = f"Output {output_nr} of {name} is a view and {modified} modified inplace."
    if creation == "multi":
        msg += _MULTI
    else:
        msg += _CLARIFY.format("inference_mode" if creation == "inference" else "no_grad")
    return RuntimeError(msg)


def check_inplace(self: Tensor, checked: bool, requires: bool = False) -> None:
    """PyTorch's refusals of an in-place write to ``self`` (``check_inplace``), when
    ``checked`` (grad mode on and an input requires grad): of a view made under no_grad /
    inference mode or by a function returning several views, of a view of a leaf, and of a
    leaf -- in that order, before the kernel looks at the arguments (a write of the wrong
    shape through a view of a leaf gets the view's message, as in PyTorch).  ``requires``:
    ``self`` requires grad whatever its record says (``t[0] = y``'s select of a ``t`` that
    does, which records no node of its own).

    >>> a = tensorviz.zeros(4); v = a[1:]; a.requires_grad_()
    >>> check_inplace(v, True)   # RuntimeError: a view of a leaf Variable that requires grad ...
    """
    ag = self._ag
    # (an inference tensor, or a view of one, written outside inference mode: refused by its
    # family's counter when the write is counted, after the kernel, as in PyTorch)
    if ag is None or not checked:
        return
    base = ag.base
    if base is not None:
        if ag.creation:
            raise _creation_error(ag.creation, ag.grad_fn, ag.output_nr, indirect=False)
        if requires or ag.requires_grad or ag.grad_fn is not None or requires_grad(base):
            bag = base._ag
            if bag is None or bag.grad_fn is None:
                raise RuntimeError(_VIEW_OF_LEAF)
            # (a view taken before its base was written through another view counts as a
            # leaf here until its grad_fn is remade, as in PyTorch, whose check reads it
            # unrefreshed)
            if ag.grad_fn is None:
                vc = self._vc
                if ag.view_version != (vc[0] if vc is not None else 0):
                    raise RuntimeError(_LEAF)
    elif ag.grad_fn is None and ag.requires_grad:
        raise RuntimeError(_LEAF)


def record_inplace(name: str, fn: Callable, args: tuple, kwargs: dict):
    """Run the in-place op ``fn`` on ``args[0]`` and rebase it onto the op's node."""
    self = args[0]
    viewed = self._vc is not None  # (viewed or written before: views of it may exist)
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
    # (``self`` as it was before the write: its clone, or, for an op with no formula, itself,
    # whose edge must not be read again now that the write made it stale)
    was = pre if pre is not None else self
    next_functions = tuple((old_fn, old_nr) if t is was else _engine.edge(t) for t in inputs)
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
        if old_fn is None and viewed:
            _note_rebased(self, ag)
        ag.grad_fn = node
        ag.output_nr = 0
        ag.requires_grad = False
        return out
    # an in-place write through a view: the base's node becomes CopySlices
    rag = meta(root)
    base_edge = _engine.edge(root)
    if base_edge[0] is None:  # (a base that needed no grad: its earlier views learn of it)
        _note_rebased(root, rag)
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


# ------------------------------------------------- views of a base that needed no grad
# A view of a tensor that needs no grad has no record (``_ag`` None: views cost nothing for
# autograd), only its link ``_vb`` to the tensor it views -- or a record saying only how it
# was made (``creation``: under no_grad or inference mode, or by split/unbind).  It becomes
# autograd's view of its root base, as every view is in PyTorch, when that matters: written
# in place with a value that requires grad (``_adopt_base``), made to require grad itself
# (``note_requires_grad``), or used after an in-place write gave its root a node or
# ``requires_grad_()`` made the root require grad (``adopt_views``: ``_views_rebased``
# counts those roots while alive).

_views_rebased = 0
#: Called on the first such write: installs ``requires_grad``/``is_leaf`` that see these views
#: (``_tensor_api.view_aware_flags``, which sets this hook when it loads).
on_first_rebase = None


def _note_rebased(root: Tensor, rag) -> None:
    """``root``, which needed no grad, was just given a node by an in-place write (or made to
    require grad): its views taken before (no record) become its autograd views when next
    used (``_adopt_view``)."""
    global _views_rebased
    if rag.rebased:
        return
    rag.rebased = True
    if _views_rebased == 0 and on_first_rebase is not None:
        on_first_rebase()
    _views_rebased += 1
    weakref.finalize(root, _forget_rebased)


def _forget_rebased() -> None:
    global _views_rebased
    _views_rebased -= 1


def note_requires_grad(t: Tensor) -> None:
    """``requires_grad_()`` (or the attribute) just armed ``t``, a view or a tensor that may
    have views (``_autograd_meta.on_requires_grad_of_viewed``).  In PyTorch every view is
    its root's view whether or not anything recorded when it was made: a view ``t`` becomes
    autograd's view of its root now (an in-place write of it is then refused as a view of a
    leaf, or as made under no_grad ...), and the views taken of a root ``t`` before become
    views of a leaf that requires grad when next used (``requires_grad`` True, ``grad_fn``
    None, or ``AsStridedBackward0`` of ``t`` if the family was written since they were made).

    >>> a = tensorviz.zeros(4); v = a[1:]; a.requires_grad_(); v.requires_grad  # True
    """
    ag = t._ag
    if t._vb is not None:
        if ag.base is None:
            links = _chain(t)
            root = links[0]
            rag = root._ag
            if rag is not None and rag.base is not None:
                root = rag.base
            _adopt(t, links, root, _chain_creation(links))
    elif ag.base is None:
        _note_rebased(t, ag)


def _chain(t: Tensor) -> list:
    """``t``'s view links, from the root base down to ``t``."""
    links = [t]
    b = t._vb
    while b is not None:
        links.append(b)
        b = b._vb
    links.reverse()
    return links


def _chain_creation(links: list) -> str:
    """How the last view of ``links`` counts as made (PyTorch's propagated creation meta): the
    nearest link made otherwise than normally, inference mode sticking once met."""
    creation = ""
    for link in links[1:]:
        ag = link._ag
        new = ag.creation if ag is not None else ""
        if new and creation != "inference":
            creation = new
    return creation


_UNKNOWN = object()


def _plain_replay(root: Tensor, links: list):
    """The ``replay`` of the last view of ``links`` (None: as_strided from the root does),
    built from the links' dtypes and conjugate/negative bits as ``_mark_view`` builds it op by
    op: ``z.real`` is view_as_real then a select, the conjugate's imaginary part view_as_real
    of the conjugate, negated.  ``_UNKNOWN`` for a dtype change no view op of autograd makes."""
    replay = None
    for p, c in zip(links, links[1:]):
        pdt, cdt = p._dtype, c._dtype
        steps = []
        pure = True
        if pdt is cdt:
            if c._cj != p._cj:
                steps.append(_METADATA_VIEWS["conj" if pdt.category == _dtypes._COMPLEX
                                             else "_neg_view"])
        elif pdt.category == _dtypes._COMPLEX and cdt is pdt.to_real():
            if p._cj:
                steps.append(_METADATA_VIEWS["conj"])
            steps.append(_METADATA_VIEWS["view_as_real"])
            if c._cj:
                steps.append(_METADATA_VIEWS["_neg_view"])
            pure = (c._shape == p._shape + (2,) and c._offset == 2 * p._offset
                    and c._stride == tuple(2 * s for s in p._stride) + (1,))
        elif cdt.category == _dtypes._COMPLEX and pdt is cdt.to_real():
            steps.append(_METADATA_VIEWS["view_as_complex"])
        else:
            return _UNKNOWN
        for step in steps:
            replay = _chain_replay(root, p, c, replay, step)
        if replay is not None and not (steps and pure):
            replay = _chain_replay(root, p, c, replay, None)
    return replay


def _adopt(t: Tensor, links: list, root: Tensor, creation: str):
    """Make ``t`` autograd's view of ``root`` (its record, made if needed, is returned), as
    of the family's version when ``t`` was made (``_vv``, PyTorch's ``attr_version``): if
    the family was written since, its ``grad_fn`` is remade when next read."""
    replay = _plain_replay(root, links)
    if replay is _UNKNOWN or root._storage is not t._storage:
        return None
    ag = meta(t)
    ag.base = root
    ag.creation = creation
    ag.replay = replay
    ag.view_version = t._vv
    return ag


def _adopt_base(t: Tensor, ag):
    """A view made while nothing recorded (its base needed no grad) written in place with a
    tensor that requires grad: it takes its root base (``_vb``) as autograd's view base, so
    the base is rebased as ``CopySlices`` like any view's (refused as PyTorch when made under
    no_grad or inference mode, or by a function returning several views).  Returns ``t``'s
    record (or None).  (A view of an inference tensor is none: PyTorch does not track it.)"""
    if t._vb is None or type(t._vc) is InferenceCounter:
        return ag
    links = _chain(t)
    creation = _chain_creation(links)
    if creation:
        raise _creation_error(creation, None, 0, indirect=False)
    root = links[0]
    rag = root._ag
    if rag is not None and rag.base is not None:  # (an alias of a recorded view)
        root = rag.base
    new = _adopt(t, links, root, "")
    if new is None:
        return ag
    refresh_view(t)  # (its root rebased since it was made: AsStridedBackward0 of that node)
    return new


def _adopt_view(t: Tensor) -> bool:
    """``t`` (no autograd view record) is a view taken before its root base was given a node
    by an in-place write: it becomes the root's view, whose ``grad_fn`` is remade when next
    read (``refresh_view``: an ``AsStridedBackward0`` of that node as in PyTorch, or its
    error for a view made under no_grad ...).  False when ``t`` is no such view."""
    if t._vb is None:
        return False
    links = _chain(t)
    root = links[0]
    rag = root._ag
    if rag is not None and rag.base is not None:
        root = rag.base
        rag = root._ag
    if rag is None or not rag.rebased:
        return False
    return _adopt(t, links, root, _chain_creation(links)) is not None


def adopt_views(args) -> bool:
    """``_adopt_view`` for each tensor in ``args`` (lists and tuples of tensors too) that has
    no view record, its ``grad_fn`` remade at once (an op about to record reads it first: a
    view made under no_grad raises PyTorch's error before the op runs); True if one became a
    view that requires grad."""
    found = False
    for a in args:
        for t in (a if type(a) in (list, tuple) else (a,)):
            if isinstance(t, Tensor):
                ag = t._ag
                if (ag is None or ag.base is None) and t._vb is not None and _adopt_view(t):
                    refresh_view(t)
                    found = found or requires_grad(t)
    return found


class _NoGradViewMeta(AutogradMeta):
    """A record that says only "a view made under no_grad" (a class attribute)."""
    creation = "no_grad"


class _InferenceViewMeta(AutogradMeta):
    """A record that says only "a view of a normal tensor made in inference mode"."""
    creation = "inference"


def _mark_created(base, out, cls) -> None:
    """Mark the views among ``out`` (of ``base``, a tensor that needs no grad) as made under
    no_grad / inference mode (``cls``), for PyTorch's refusal of writing them in place."""
    for o in _outputs(out):
        if isinstance(o, Tensor) and o is not base and o._vb is not None:
            ag = o._ag
            if ag is None:  # (its version needs no keeping: its base is written later, if
                o._ag = cls()  # ever, or it would be marked as that base's view)
            elif ag.creation != "inference":
                ag.creation = cls.creation


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
    # (a composite registered for one spelling -- "tile:function" -- wins over the op's)
    decomposed = COMPOSITES.get(f"{name}:{form}", COMPOSITES.get(name))
    if form == "inplace" or (rec.name.endswith("_") and form in ("function", "method")):
        # (an in-place op of its own recorded as a composite -- fill_diagonal_ -- not the
        # in-place spelling of an op whose out-of-place form is one: square_)
        decomposed = decomposed if rec.name.endswith("_") else None

        def inplace(*args, **kwargs):
            self = args[0] if args else None
            if not isinstance(self, Tensor):
                return fn(*args, **kwargs)
            grad_on = _STATE.grad and not _STATE.inference
            if decomposed is not None and grad_on:  # (a composite in-place op, as PyTorch's:
                return decomposed(*args, **kwargs)  # the in-place ops inside check, record)
            if grad_on and _views_rebased and self._vb is not None:
                ag = self._ag  # (a view taken before its base was rebased: PyTorch's
                if ag is None or ag.base is None:  # check sees it as its base's view)
                    _adopt_view(self)
            if not grad_on:
                return fn(*args, **kwargs)
            checked = _any_requires_grad(args, kwargs)
            if self._ag is not None:
                check_inplace(self, checked)
            if not checked:
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
            elif view and args and not state.user_grad:  # (not autograd's own grad-off)
                a0 = args[0]
                if requires_grad(a0):
                    _mark_view(a0, _outputs(out), creation="no_grad")
                elif type(out) is Tensor and out._ag is None:  # (_mark_created, inlined)
                    if out is not a0 and out._vb is not None:
                        out._ag = _NoGradViewMeta()
                else:
                    _mark_created(a0, out, _NoGradViewMeta)
            return out
        for a in args:  # (inlined _any_requires_grad: this is every op's path)
            if isinstance(a, Tensor):
                ag = a._ag
                if ag is not None and (ag.requires_grad or ag.grad_fn is not None or (
                        ag.base is not None and requires_grad(ag.base))):
                    break
            elif type(a) in (list, tuple) and requires_grad(a):
                break
        else:
            if (not kwargs or not _any_requires_grad((), kwargs)) and \
                    not (_views_rebased and adopt_views(args)):
                return fn(*args, **kwargs)
        if _views_rebased:  # (views taken before an in-place write gave their base a node)
            adopt_views(args)
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
    if form == "operator":
        # ``a * b``, ``a + b`` (the hottest spellings; ``fn`` takes any operand itself):
        # where neither operand has an autograd record and grad mode is plainly on, nothing
        # is recorded or marked -- straight to the operator, as before recording was
        # installed; otherwise an array operand becomes a tensor first, then records
        # (a composite or a view op records nothing either when no operand has a record)
        array_operand, operands = _dispatch._array_operand, _dispatch._OPERAND

        def operator(self, other):
            if type(other) is not Tensor and not isinstance(other, operands):
                other = array_operand(other)
                if other is NotImplemented:
                    return NotImplemented
            state = _STATE
            if state.grad and not state.inference and not _views_rebased and \
                    self._ag is None and (type(other) is not Tensor or other._ag is None):
                return fn(self, other)
            return op(self, other)
        _copy_names(operator, fn)
        return operator
    return op


def _mark_inference(args: tuple, out) -> None:
    """Tensors made under ``inference_mode`` are inference tensors (views of normal tensors
    stay normal, as in PyTorch, marked as made in inference mode)."""
    global _inference_made
    for o in _outputs(out):
        if not isinstance(o, Tensor):
            continue
        base = next((a for a in args if isinstance(a, Tensor) and a._storage is o._storage),
                    None)
        if base is None or _is_inference(base):
            meta(o).inference = True
            if type(o._vc) is not InferenceCounter:  # (its family's counter: views share it)
                o._vc = InferenceCounter((0,))
                _inference_made = True
        elif o is not base and o._vb is not None:  # (refused if written with grad later)
            if requires_grad(base):
                _mark_view(base, (o,), creation="inference")
            else:
                _mark_created(base, (o,), _InferenceViewMeta)


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
    if _unarmed_blocks["view"] is not None:  # (the recording spellings mark them now)
        Tensor._view = _unarmed_blocks["view"]
        _unarmed_blocks["view"] = None
    from .. import _grad_mode
    if on_grad_block in _grad_mode.mode_listeners:
        _grad_mode.mode_listeners.remove(on_grad_block)
    from . import _tensor_methods
    _dispatch.set_recorder(recording)
    _dispatch.install()
    _tensor_methods.install()


# ---------------------------------------------------------------- views in no_grad blocks
# Once armed, the recording spellings (which read grad mode anyway) mark the views made with
# grad off.  Before that, nothing reads grad mode: while a no_grad block is open, Tensor._view
# is one that marks them (no view pays a grad-mode check outside such blocks).
_unarmed_blocks: dict = {"depth": 0, "view": None}


def _marking_view(plain_view: Callable) -> Callable:
    def _view(self, shape, stride, offset, dtype=None, arr=None):
        v = plain_view(self, shape, stride, offset, dtype, arr)
        if not _STATE.user_grad:
            v._ag = _NoGradViewMeta()
        return v
    _view.__doc__ = plain_view.__doc__
    _view.__wrapped__ = plain_view
    return _view


def on_grad_block(mode: str, entering: bool) -> None:
    """A ``no_grad`` block entered or left (``_grad_mode.mode_listeners``): before anything
    records, views made inside are marked as made under no_grad, as PyTorch's, by a marking
    ``Tensor._view`` installed for the blocks' duration."""
    if mode != "no_grad" or _armed:
        return
    blocks = _unarmed_blocks
    if entering:
        blocks["depth"] += 1
        if blocks["view"] is None:
            blocks["view"] = Tensor.__dict__["_view"]
            Tensor._view = _marking_view(blocks["view"])
    else:
        blocks["depth"] = max(0, blocks["depth"] - 1)
        if blocks["depth"] == 0 and blocks["view"] is not None:
            Tensor._view = blocks["view"]
            blocks["view"] = None
