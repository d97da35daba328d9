"""The autograd graph: nodes (``MulBackward0``, ``AccumulateGrad``, ...), their edges and what
they saved, as PyTorch's ``torch.autograd.graph`` shows them.

Every op that autograd records makes one node. ``node.next_functions`` lists, for each input,
``(node that made it, which output of that node)`` -- ``(AccumulateGrad, 0)`` for a leaf that
requires grad, ``(None, 0)`` for an input that needs no gradient::

    x = tensorviz.ones(2, requires_grad=True)
    y = (x * 2).sum()
    y.grad_fn                    # <SumBackward0 object at 0x...>
    y.grad_fn.next_functions     # ((<MulBackward0 ...>, 0),)

A node keeps the tensors its derivative needs (``_saved_self``, ``_saved_result`` ...)
until backward frees them (unless ``retain_graph=True``); each saved tensor remembers the
version it had, and backward refuses one that was modified in place since.
"""
from __future__ import annotations

import itertools
import weakref
from typing import Any, Callable

from .._grad_mode import _STATE

__all__ = ["Node", "AccumulateGrad", "saved_tensors_hooks", "save_on_cpu",
           "disable_saved_tensors_hooks", "register_multi_grad_hook", "increment_version"]

_SEQ = itertools.count()
_INF = float("inf")

FREED = ("Trying to backward through the graph a second time (or directly access saved tensors "
         "after they have already been freed). Saved intermediate values of the graph are freed "
         "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
         "backward through the graph a second time or if you need to access saved tensors after "
         "calling backward.")


class RemovableHandle:
    """Returned by ``register_hook`` and friends: ``handle.remove()`` takes the hook away."""

    _ids = itertools.count()

    def __init__(self, table: dict):
        self.id = next(RemovableHandle._ids)
        self._table = weakref.ref(table) if _weakrefable(table) else (lambda: table)

    def remove(self) -> None:
        """Remove the hook (again is harmless)."""
        table = self._table()
        if table is not None:
            table.pop(self.id, None)

    def __enter__(self) -> "RemovableHandle":
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


class _HookDict(dict):
    """A dict that weak references can point at (for ``RemovableHandle``)."""

    __slots__ = ("__weakref__",)


def _weakrefable(obj) -> bool:
    try:
        weakref.ref(obj)
        return True
    except TypeError:
        return False


def _hook(table_owner, attr: str, fn: Callable) -> RemovableHandle:
    table = getattr(table_owner, attr)
    if table is None:
        table = _HookDict()
        setattr(table_owner, attr, table)
    handle = RemovableHandle(table)
    table[handle.id] = fn
    return handle


class Node:
    """A step of the backward pass (PyTorch's ``torch.autograd.graph.Node``).

    ``name()`` is PyTorch's name (``MulBackward0``); ``next_functions`` the edges to the
    nodes that made this node's inputs; ``metadata`` a dict free for the user (the graph
    widget keeps its labels there); ``register_hook(fn(grad_inputs, grad_outputs))`` runs
    after the node, ``register_prehook(fn(grad_outputs))`` before it (either may return
    replacement gradients).
    """

    __slots__ = ("next_functions", "_seq", "_input_meta", "_n_outputs", "__dict__",
                 "__weakref__")

    # (rarely set: class-level defaults keep making a node cheap; set ones live in __dict__)
    _hooks = None
    _prehooks = None
    _tensor_prehooks = None  # {output_nr: {id: fn}}: Tensor.register_hook on outputs
    _retain_hooks = None     # {output_nr: fn}: retain_grad() taps
    _metadata = None
    _anomaly = None          # the forward traceback, under detect_anomaly

    def __init__(self, next_functions: tuple = (), input_meta: tuple = (), n_outputs: int = 1):
        self.next_functions = next_functions
        self._seq = next(_SEQ)
        self._input_meta = input_meta  # per input: (shape, dtype, device) or None
        self._n_outputs = n_outputs

    def name(self) -> str:
        """PyTorch's name of this node, e.g. ``'MulBackward0'``."""
        return type(self).__name__

    @property
    def metadata(self) -> dict:
        """A dict for the user's own notes about this node (empty at first)."""
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def register_hook(self, fn: Callable) -> RemovableHandle:
        """Run ``fn(grad_inputs, grad_outputs)`` after this node computed its gradients; a
        non-None return value replaces ``grad_inputs``."""
        return _hook(self, "_hooks", fn)

    def register_prehook(self, fn: Callable) -> RemovableHandle:
        """Run ``fn(grad_outputs)`` before this node runs; a non-None return value replaces
        ``grad_outputs``."""
        return _hook(self, "_prehooks", fn)

    def _register_tensor_prehook(self, output_nr: int, fn: Callable) -> RemovableHandle:
        if self._tensor_prehooks is None:
            self._tensor_prehooks = {}
        table = self._tensor_prehooks.get(output_nr)
        if table is None:
            table = self._tensor_prehooks[output_nr] = _HookDict()
        handle = RemovableHandle(table)
        table[handle.id] = fn
        return handle

    def apply(self, *grads):  # pragma: no cover - every node class defines its own
        raise NotImplementedError

    def __call__(self, *grads):
        """Run this node's backward on ``grads`` (one per output): a tuple per input."""
        return self.apply(*grads)

    def _release(self) -> None:
        """Free what this node saved (after a backward without retain_graph)."""

    @property
    def _sequence_nr(self) -> int:
        return self._seq

    @property
    def requires_grad(self) -> bool:
        return True

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"


class SavedTensor:
    """A tensor a node keeps for its derivative, with the version it had when saved.

    An op's own output is kept as an alias without its ``grad_fn`` (no reference cycle) and
    gets it back on unpacking; ``saved_tensors_hooks`` may pack it into anything.
    """

    __slots__ = ("_data", "_version", "_vc", "_is_output", "_node", "_output_nr", "_ref",
                 "_unpack", "_released", "_grad_fn_name")

    def __init__(self, t, is_output: bool = False, output_nr: int = 0):
        vc = t._vc
        if vc is None:
            vc = t._vc = [0]
        self._version = vc[0]
        self._vc = vc
        self._is_output = is_output
        ag = t._ag
        if ag is None:
            self._output_nr = output_nr if is_output else 0
            self._grad_fn_name = None
        else:
            self._output_nr = output_nr if is_output else ag.output_nr
            gf = ag.grad_fn
            self._grad_fn_name = None if gf is None else gf.name()
        self._node = None  # (an output's node: set by the recorder once the node exists)
        self._ref = None
        self._released = False
        stack = _HooksState.stack
        hooks = stack[-1] if stack else None
        if is_output:  # (an alias without grad_fn: no reference cycle; same counter and
            # the same storage, whose listeners -- the graph widget -- see writes to either)
            t = t._alias()
        if hooks is not None:
            pack, unpack = hooks
            self._data = pack(t)
            self._unpack = unpack
        else:
            self._data = t
            self._unpack = None

    def __call__(self):
        return self.unpack()

    def unpack(self, node=None):
        """The saved tensor, checked: RuntimeError if freed or modified in place since."""
        if self._released:
            raise RuntimeError(FREED)
        data = self._data
        t = data if self._unpack is None else self._unpack(data)
        if self._vc[0] != self._version:
            raise RuntimeError(self._stale_message(t))
        if self._is_output and self._node is not None:
            node = self._node()
            if node is not None and _grad_enabled():
                from .._autograd_meta import AutogradMeta
                alias = t._alias()
                alias._ag = AutogradMeta()
                alias._ag.grad_fn = node
                alias._ag.output_nr = self._output_nr
                return alias
        return t

    def _stale_message(self, t) -> str:
        from .._tensor import Tensor
        name = self._grad_fn_name
        if self._is_output and self._node is not None:
            node = self._node()
            name = None if node is None else node.name()
        which = ""
        if name is not None:
            op = name.split("::")[-1]
            for suffix in ("Backward0", "Backward1", "Backward2", "Backward"):
                if op.endswith(suffix):
                    op = op[:-len(suffix)]
                    break
            which = f", which is output {self._output_nr} of {op},"
        kind = Tensor.type(t) if isinstance(t, Tensor) else type(t).__name__
        shape = list(t.shape) if isinstance(t, Tensor) else []
        dims = "".join(f", {d}" for d in shape[1:])
        shape_s = f"[{shape[0]}{dims}]" if shape else "[]"
        return (f"one of the variables needed for gradient computation has been modified by an "
                f"inplace operation: [{kind} {shape_s}]{which} is at version {self._vc[0]}; "
                f"expected version {self._version} instead. Hint: enable anomaly detection to "
                "find the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False).".replace(
                    "torch.autograd", "tensorviz.autograd"))

    def release(self) -> None:
        self._data = None
        self._released = True


def _grad_enabled() -> bool:
    return _STATE.grad


class FormulaNode(Node):
    """A node whose backward is a derivative formula from the table (``_formulas``)."""

    __slots__ = ("_backward", "_saved", "_saved_names", "_released")

    def __init__(self, next_functions, input_meta, backward, saved, saved_names, n_outputs=1):
        self.next_functions = next_functions
        self._seq = next(_SEQ)
        self._input_meta = input_meta
        self._n_outputs = n_outputs
        self._backward = backward
        self._saved = saved
        self._saved_names = saved_names
        self._released = False

    def apply(self, *grads):
        if self._released and self._saved:
            raise RuntimeError(FREED)
        return self._backward(*grads)

    def _release(self) -> None:
        if self._saved:
            for s in self._saved:
                s.release()
            self._released = True

    def __getattr__(self, name: str):
        # _saved_self, _saved_other, _saved_result ...: what this node keeps, as PyTorch names it
        if name.startswith("_saved_") or name.startswith("_raw_saved_"):
            raw = name.startswith("_raw_saved_")
            key = name[len("_raw_saved_"):] if raw else name[len("_saved_"):]
            names = object.__getattribute__(self, "_saved_names")
            if names and key in names:
                value = names[key]
                if isinstance(value, SavedTensor):
                    if raw:
                        return value
                    return value.unpack()
                return value
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


_NODE_CLASSES: dict = {}


def node_class(name: str, base: type = FormulaNode) -> type:
    """The node class called ``name`` (``MulBackward0``), made once."""
    cls = _NODE_CLASSES.get(name)
    if cls is None:
        cls = _NODE_CLASSES[name] = type(name, (base,), {"__slots__": ()})
        cls.__module__ = "tensorviz.autograd.graph"
    return cls


class _NotImplementedNode(FormulaNode):
    """The node of an op PyTorch has no derivative for: backward through it raises."""

    __slots__ = ()

    def name(self) -> str:
        return "torch::autograd::NotImplemented"


_NotImplementedNode.__name__ = _NotImplementedNode.__qualname__ = "NotImplemented"
_NODE_CLASSES["NotImplemented"] = _NotImplementedNode


class _CopyBackwards(FormulaNode):
    """The node of ``copy_`` (PyTorch names it in its C++ namespace)."""

    __slots__ = ()

    def name(self) -> str:
        return "torch::autograd::CopyBackwards"


_CopyBackwards.__name__ = _CopyBackwards.__qualname__ = "CopyBackwards"
_NODE_CLASSES["CopyBackwards"] = _CopyBackwards


class AccumulateGrad(Node):
    """The node at a leaf that requires grad: adds the incoming gradient into ``.grad``.

    One per leaf, reused by every use of it; ``variable`` is the leaf.
    """

    __slots__ = ("variable",)

    def __init__(self, variable):
        self.next_functions = ()
        next(_SEQ)  # (numbers the nodes as Node.__init__ does)
        self._seq = _INF  # (runs as soon as it is ready, as PyTorch's)
        self._input_meta = ()
        self._n_outputs = 1
        self.variable = variable  # (the leaf refers to this node weakly: no cycle)

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def apply(self, *grads):  # (the engine accumulates: see _engine.accumulate)
        return ()


class CopySlices(Node):
    """The node of a base tensor after an in-place op wrote through one of its views: the
    base's gradient passes through unchanged except in the view's region, where the op's
    own node (``fn``) transforms it."""

    __slots__ = ("fn", "_view_geometry", "_base_geometry", "_replay")

    def __init__(self, base_edge, fn: Node, view_geometry, input_meta, base_geometry=None,
                 replay=None):
        Node.__init__(self, (base_edge,) + tuple(fn.next_functions[1:]), input_meta)
        self.fn = fn
        self._view_geometry = view_geometry  # (shape, stride, offset) relative to the base
        self._base_geometry = base_geometry  # (shape, stride) of the base
        self._replay = replay  # (the view taken again from the base: z.real, z.conj().imag)

    def name(self) -> str:
        return "torch::autograd::CopySlices"

    def apply(self, grad):
        shape, stride, offset = self._view_geometry
        # (the view's geometry is relative to the base's own strides: lay the gradient out
        # the same way, as PyTorch does)
        from ._torch import T
        empty_strided = T.empty_strided
        result = empty_strided(self._base_geometry[0], self._base_geometry[1],
                               dtype=grad.dtype, device=grad.device)
        result.copy_(grad)
        if self._replay is not None:  # (PyTorch's view_fn: another dtype, a conjugate ...)
            region = self._replay(result)
        else:
            region = result.as_strided(shape, stride, offset)
        res = self.fn.apply(region.clone())
        if res[0] is None:
            region.zero_()
        else:
            region.copy_(res[0])
        return (result,) + tuple(res[1:])

    def _release(self) -> None:
        self.fn._release()


def _contiguous():
    from .._tensor import contiguous_format
    return contiguous_format


# ---------------------------------------------------------------- saved-tensor hooks
class _HooksState:
    stack: list = []
    disabled: str | None = None


def _current_saved_hooks():
    if _HooksState.stack:
        return _HooksState.stack[-1]
    return None


class saved_tensors_hooks:
    """Context manager: ``pack_hook(tensor)`` runs on every tensor a node saves inside the
    block, ``unpack_hook(packed)`` when backward needs it back::

        with tensorviz.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
            y = x.exp()
    """

    def __init__(self, pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> "saved_tensors_hooks":
        if _HooksState.disabled is not None:
            raise RuntimeError(_HooksState.disabled)
        _HooksState.stack.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc) -> None:
        _HooksState.stack.pop()


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors are moved to the CPU when saved and back to their device in backward."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda"):
        def pack(t):
            return (t.device, t.cpu())

        def unpack(packed):
            dev, t = packed
            return t.to(dev)
        super().__init__(pack, unpack)


class disable_saved_tensors_hooks:
    """Inside the block, using ``saved_tensors_hooks`` raises RuntimeError(``error_message``)."""

    def __init__(self, error_message: str):
        self.error_message = error_message

    def __enter__(self) -> None:
        self._prev = _HooksState.disabled
        _HooksState.disabled = self.error_message

    def __exit__(self, *exc) -> None:
        _HooksState.disabled = self._prev


def register_multi_grad_hook(tensors, fn: Callable, *, mode: str = "all"):
    """Run ``fn(grads)`` once the gradients of all ``tensors`` (mode "all", a list with None
    for those not computed) or of the first of them (mode "any", one gradient) are known."""
    from .._tensor import Tensor
    tensors = tuple(tensors)
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    grads: list = [None] * len(tensors)
    handles = []
    fired = [False]

    def make(i):
        def hook(g):
            if mode == "any":
                if not fired[0]:
                    fired[0] = True
                    fn(g)
                return None
            grads[i] = g
            if all(x is not None for x in grads):
                fn(tuple(grads))
            return None
        return hook
    for i, t in enumerate(tensors):
        if isinstance(t, Tensor) and t.requires_grad:
            handles.append(t.register_hook(make(i)))

    class _Multi:
        def remove(self):
            for h in handles:
                h.remove()
    return _Multi()


def increment_version(tensor) -> None:
    """Count an in-place write that autograd could not see (e.g. through ``.data``)."""
    tensor._bump()
