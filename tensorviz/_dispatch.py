"""The op registry: every op declared once, every spelling generated from its record.

An op is one Python function (its body), decorated where it is defined::

    @op(inplace=True, inplace_function=False, dunder="add", dunder_ufunc=np.add)
    def add(input, other, *, alpha=1, out=None): ...

The decorator stores an :class:`OpDef` and returns the body unchanged.  ``install`` then
generates every spelling of every op from those records: ``tensorviz.add``, ``Tensor.add``,
``Tensor.add_`` (and ``tensorviz.add_`` where PyTorch has it), ``a + b``, ``1 + a``,
``a += b``, the ``out=`` form with its dtype rule, and the names in the ``linalg``, ``fft`` and
``special`` namespaces.  Nothing else in the package lists op names.

The spellings are where autograd records the graph: ``install(recording=...)`` binds each
spelling either to the plain generated entry point (no tensor has ever required grad: no
cost at all) or to that entry wrapped by the recorder that autograd supplies
(``set_recorder``).  Kernels never see the graph.
"""
from __future__ import annotations

import builtins
import functools
import inspect
import sys
import warnings
from typing import Any, Callable, Iterable

import numpy as np

from . import _dtypes, _layout
from ._dtypes import _COMPLEX
from ._indexing import as_resized, assign, check_partial_overlap, check_writable
from ._storage import UntypedStorage
from ._tensor import Tensor, lazy_values, store
from .backends._numpy import call_quiet

__all__ = ["OpDef", "op", "inplace_of", "operator_of", "registry", "install", "set_recorder",
           "exact_out", "cast_out", "store_inplace", "write_out", "resize_out",
           "check_partial_overlap", "cast_first"]

#: What the registry needs from the layers above it, installed by them when they load:
#: ``"as_tensor"`` (a NumPy array operand of an operator, by ``_creation``), ``"binary"``
#: (the elementwise kernel behind ``dunder_ufunc``) and ``"operator"`` (``operator(ufunc)``:
#: the unrecorded ``Tensor.__add__``-style spelling over it), both by ``ops._elementwise``.
HOOKS: dict = {}

#: The op namespaces: ``torch`` is the package itself, the others its submodules.
NAMESPACES = ("torch", "linalg", "fft", "special", "nn.functional")


class OpDef:
    """The record of one op: its body and which spellings it has.

    ``name`` is PyTorch's name in ``namespace``; ``aliases`` are further names of both the
    function and the method (``absolute`` for ``abs``); ``function``/``method`` say whether
    ``tensorviz.<name>`` / ``Tensor.<name>`` exist (``method`` may be ``"property"``);
    ``inplace`` whether ``Tensor.<name>_`` exists (``inplace_body`` is its own kernel, else
    it is computed out of place and stored back); ``out`` is ``None`` when the body handles
    ``out=`` itself (or has none), ``"exact"`` when ``out=`` must have exactly the
    result's dtype (``out_message(result, out)`` says why not; an ``out=`` of another shape
    is resized to the result's own strides, or ``out_stride(result, *args, **kwargs)``) and
    ``"cast"`` when the result is written into ``out=`` with the casting rule; ``view`` marks ops whose
    result shares the input's storage.
    """

    __slots__ = ("name", "body", "namespace", "aliases", "function", "method", "setter",
                 "inplace", "inplace_body", "inplace_function", "inplace_aliases", "out",
                 "out_message", "out_stride", "view", "dunder", "dunder_ufunc", "unary_dunder",
                 "method_body", "function_body", "operators", "also", "module",
                 "inplace_check", "tensor_first", "out_overlap")

    def __init__(self, name: str, body: Callable, **fields: Any):
        self.name = name
        self.body = body
        self.module = getattr(body, "__module__", None)
        for slot in self.__slots__[2:]:
            if slot != "module":
                setattr(self, slot, fields.get(slot))

    @property
    def qualname(self) -> str:
        """``add``, ``linalg.norm``: the key of this op in the registry."""
        return self.name if self.namespace == "torch" else f"{self.namespace}.{self.name}"

    def __repr__(self) -> str:
        forms = [f for f, on in (("function", self.function), ("method", self.method),
                                 ("inplace", self.inplace), ("view", self.view)) if on]
        return f"<op {self.qualname}: {', '.join(forms)}>"


_REGISTRY: dict[str, OpDef] = {}


def registry() -> dict[str, OpDef]:
    """Every declared op by qualified name (``add``, ``linalg.norm``), in declaration order."""
    return _REGISTRY


def op(name: str | None = None, *, namespace: str = "torch", aliases: Iterable[str] = (),
       function: bool | Callable = True, method: bool | str | Callable = True,
       setter: Callable | None = None, inplace: bool | Callable = False,
       inplace_function: bool | tuple = False, inplace_aliases: Iterable[str] | None = None,
       out: str | None = None, out_message: Callable | None = None,
       out_stride: Callable | None = None, view: bool = False,
       dunder: str | None = None, dunder_ufunc: Callable | None = None,
       unary_dunder: str | None = None, also: Iterable[str] = (),
       inplace_check: Callable | None = None, tensor_first: str | None = None,
       out_overlap: str | None = "partial") -> Callable:
    """Declare the decorated function as an op (see the module docstring); returns it as is.

    ``function``/``method`` may be a callable: that spelling then uses it instead of the body
    (``torch.transpose(t, 0, 1)`` calls the method).  ``dunder="add"`` makes ``__add__``,
    ``__radd__`` (numbers only; ``operator_of`` replaces it where that does not fit) and
    ``__iadd__`` (when the op has an in-place form); ``dunder_ufunc`` lets ``__add__`` call
    the elementwise kernel directly.  ``also`` names the op in further namespaces
    (``"linalg.matmul"``).  ``tensor_first="input"``: the function spelling refuses a
    first argument that is not a Tensor with PyTorch's TypeError naming that argument (for
    Tensor methods whose body does not check it; the method spelling pays nothing).
    ``inplace`` may be the in-place kernel itself (as ``@inplace_of``, for a kernel defined
    before the op).  ``inplace_function`` makes ``tensorviz.<name>_`` too (True: for every
    name; a tuple: for those names).  ``inplace_check(self, *args, **kwargs)`` runs first in
    the generated in-place form (checks PyTorch makes before its own, e.g. ``cast_first``).
    ``out_overlap`` is what an ``"exact"`` ``out=`` that shares memory with an input meets,
    as PyTorch's kernel checks it: ``"partial"`` (TensorIterator's: refused unless it is the
    input element for element), ``"any"`` (the index ops': even the same memory is refused),
    ``"first"`` (only against the first input, which the kernel copies into out: ``addmm``),
    each against ``out`` as resized to the result; ``"any-first"``: ``"any"`` before the
    resize (``index_select``); None: not checked (``mm``: PyTorch's kernel reads what it
    writes; tensorviz reads its inputs first).
    Example::

        @op(aliases=("absolute",), inplace=True, inplace_function=True, unary_dunder="abs")
        def abs(input, *, out=None): ...
    """
    if namespace not in NAMESPACES:
        raise ValueError(f"unknown op namespace {namespace!r}")

    def declare(body: Callable) -> Callable:
        opname = name or body.__name__
        rec = OpDef(opname, body, namespace=namespace, aliases=tuple(aliases),
                    function=builtins.bool(function), method=method, setter=setter,
                    inplace=builtins.bool(inplace), inplace_function=inplace_function,
                    inplace_body=inplace if callable(inplace) else None,
                    inplace_aliases=tuple(aliases if inplace_aliases is None
                                          else inplace_aliases),
                    out=out, out_message=out_message, out_stride=out_stride, view=view,
                    dunder=dunder,
                    dunder_ufunc=dunder_ufunc, unary_dunder=unary_dunder, also=tuple(also),
                    tensor_first=tensor_first,
                    function_body=function if callable(function) else None,
                    method_body=method if callable(method) else None,
                    inplace_check=inplace_check, out_overlap=out_overlap)
        key = rec.qualname
        if key in _REGISTRY:
            raise ValueError(f"op {key!r} is declared twice ({_REGISTRY[key].module} and "
                             f"{rec.module})")
        _REGISTRY[key] = rec
        body.op = rec
        return body
    return declare


def operator_of(fn: Callable, dunder: str) -> Callable:
    """Attach the decorated function as the Python operator ``dunder`` of ``fn``'s op, where
    the generated one does not fit (``__rsub__``, ``__rtruediv__``, ``__invert__``)::

        @operator_of(sub, "__rsub__")
        def _rsub(self, other): ...
    """
    rec: OpDef = fn.op

    def attach(body: Callable) -> Callable:
        rec.operators = dict(rec.operators or {}, **{dunder: body})
        return body
    return attach


def inplace_of(fn: Callable) -> Callable:
    """Attach the decorated kernel as the in-place form of the op declared on ``fn``.

    For ops whose in-place form computes straight into ``self`` (faster than computing out
    of place and storing back, the form generated for the others)::

        @inplace_of(add)
        def add_(self, other, *, alpha=1): ...
    """
    rec: OpDef = fn.op

    def attach(body: Callable) -> Callable:
        rec.inplace = True
        rec.inplace_body = body
        return body
    return attach


# ---------------------------------------------------------------- shared write rules
def write_out(out: Tensor, result, rdt: "_dtypes.dtype", dev,
              stride: tuple | None = None) -> Tensor:
    """Store ``result`` (array of dtype ``rdt``) into ``out`` as PyTorch's ``out=`` does.

    ``out`` keeps its storage, and its strides, when its shape already fits; otherwise it is
    resized (with PyTorch's warning when it held elements) to ``stride`` (the strides the op
    gives its own result: an elementwise op's ``out=`` is laid out as TensorIterator lays out
    a new result), row-major when None.
    """
    if not isinstance(out, Tensor):
        raise TypeError(f"out must be a Tensor, not {type(out).__name__}")
    if not _dtypes.can_cast(rdt, out._dtype):
        raise RuntimeError(f"result type {rdt.cname} can't be cast to the desired output type "
                           f"{out._dtype.cname}")
    if out._storage._device != dev:
        raise RuntimeError(f"Expected out tensor to have device {dev}, but got {out.device} "
                           "instead")
    shape = tuple(result.shape)
    if out._shape != shape:
        resize_out(out, shape, stride)
    check_writable(out)
    if out._dtype is not rdt and rdt.category >= _dtypes._FLOAT and \
            getattr(result, "dtype", None) is not None and result.dtype != rdt._np:
        # (computed in a wider dtype, as half ops in float32: rounded to the result dtype
        # before going into an out= of another dtype, as PyTorch's copy of its result)
        result = call_quiet(result.astype, rdt._np)
    if rdt.category == _COMPLEX and out._dtype.category != _COMPLEX:
        result = result.real
    call_quiet(store, out, result)
    out._bump()
    return out



def warn_resized(old: tuple, shape: tuple, stacklevel: int = 4) -> None:
    """PyTorch's UserWarning when an output that held elements is resized to ``shape``
    (an ``out=`` tensor, or the ``empty_like(input)`` some ops compute into)."""
    warnings.warn(
        f"An output with one or more elements was resized since it had shape "
        f"{list(old)}, which does not match the required output shape {list(shape)}. "
        "This behavior is deprecated, and in a future PyTorch release outputs will not be "
        "resized unless they have zero elements. You can explicitly reuse an out tensor t "
        "by resizing it, inplace, to zero elements with t.resize_(0).", UserWarning,
        stacklevel=stacklevel + 1)


def resize_out(out: Tensor, shape: tuple, stride: tuple | None = None) -> None:
    """Resize an ``out=`` tensor to ``shape`` (PyTorch warns when it held elements), with
    ``stride`` (dense strides in some dim order, as PyTorch's ``as_strided_`` after its
    ``resize_output``) or row-major."""
    if out.numel() != 0:
        warn_resized(out._shape, shape)
    # As PyTorch's resize_: the same storage from the same offset (a strided or expanded
    # ``out`` too: other views of that memory see what is written), grown when too small; no
    # elements needs no memory at all, so the offset stays.  Dense strides in any dim order
    # need the same memory as row-major ones.
    n = _layout.numel(shape)
    st = out._storage
    item = out._dtype.itemsize
    if stride is None or len(stride) != len(shape) or \
            not _layout.is_non_overlapping_and_dense(shape, stride):
        stride = _layout.contiguous_strides(shape)
    if not (n == 0 or (out._offset + n) * item <= st.nbytes()):
        Tensor.resize_(out, shape)
        st = out._storage
    out._set_layout(st, out._offset, shape, tuple(stride))


def store_inplace(self, res):
    """Write an op's result ``res`` back into ``self`` as PyTorch's in-place forms check it:
    the result must have ``self``'s shape and a dtype that casts to ``self``'s."""
    if res._shape != self._shape:
        raise RuntimeError(f"output with shape {list(self._shape)} doesn't match the broadcast "
                           f"shape {list(res._shape)}")
    if not _dtypes.can_cast(res._dtype, self._dtype):
        raise RuntimeError(f"result type {res._dtype.cname} can't be cast to the desired output "
                           f"type {self._dtype.cname}")
    assign(self, res)
    return self


def cast_first(self, *args, **kwargs) -> None:
    """An ``inplace_check``: TensorIterator's refusal of a promoted dtype that cannot be cast
    to ``self``'s, made before the op's kernel checks its dtypes (``int.gcd_(float)`` names
    the cast, not gcd's missing float kernel)."""
    others = [a for a in args if isinstance(a, Tensor)]
    if isinstance(self, Tensor) and others:
        rdt = _dtypes.result_type(self, *others)
        if not _dtypes.can_cast(rdt, self._dtype):
            raise RuntimeError(f"result type {rdt.cname} can't be cast to the desired output "
                               f"type {self._dtype.cname}")


def _structured_message(res, out) -> str:
    return (f"Expected out tensor to have dtype {res._dtype.cxx_name}, but got "
            f"{out._dtype.cxx_name} instead")


def found_message(res, out) -> str:
    """The ``out=`` dtype message of PyTorch's unary ops (``abs``, ``neg``, ``clamp``)."""
    return f"Found dtype {out._dtype.cname} but expected {res._dtype.cname}"


def exact_out(fn: Callable, message: Callable | None = None,
              layout: Callable | None = None, overlap: str | None = "partial") -> Callable:
    """``fn`` for ops whose ``out=`` must have exactly the result's dtype (PyTorch's
    structured kernels and some others refuse a wider one, unlike the elementwise ops'
    cast): RuntimeError with ``message(result, out)``, else the result written into ``out``
    (an ``out`` sharing memory with an input checked as ``overlap`` says, see ``op``).

    An ``out`` of another shape is resized to the result's strides (a structured kernel lays
    out a resized ``out=`` as its own result), or to ``layout(result, *args, **kwargs)``
    where the op's ``out=`` form differs (``take``'s follows the index's layout).
    """
    message = message or _structured_message

    @functools.wraps(fn)
    def entry(*args, out=None, **kwargs):
        if out is None or not isinstance(out, Tensor):
            return fn(*args, **kwargs) if out is None else fn(*args, out=out, **kwargs)
        res = fn(*args, **kwargs)
        if not isinstance(res, Tensor):  # (a tuple result: the op itself handles out=)
            return fn(*args, out=out, **kwargs)
        if out._dtype is not res._dtype:
            raise RuntimeError(message(res, out))
        if overlap in ("partial", "any-first"):  # (checked before out is resized)
            check_writable(out)
        if overlap is not None:
            inputs = [x for x in (*args, *kwargs.values()) if isinstance(x, Tensor) and
                      x._storage is out._storage]
            # (checked on out as PyTorch's kernel sees it, resized to the result, or as given)
            target = as_resized(out, res._shape) if overlap in ("first", "any") else out
            for x in inputs:
                if overlap != "first" or (args and x is args[0]):
                    check_partial_overlap(target, x, full_ok=overlap == "partial" or
                                          overlap == "first")
        stride = res._stride if layout is None else layout(res, *args, **kwargs)
        return write_out(out, res._arr, res._dtype, res._storage._device, stride)
    entry.__wrapped__ = fn
    return entry


def _tensor_first(fn: Callable, name: str, arg: str) -> Callable:
    """``fn`` refusing a first argument that is not a Tensor (``tensorviz.t([1])``)."""
    @functools.wraps(fn)
    def entry(*args, **kwargs):
        x = args[0] if args else kwargs.get(arg)
        if not isinstance(x, Tensor):
            raise TypeError(f"{name}(): argument '{arg}' must be Tensor, not "
                            f"{type(x).__name__}")
        return fn(*args, **kwargs)
    return entry


def _takes_out(fn: Callable) -> bool:
    """Whether ``fn`` has an ``out`` parameter (looked up once, when the op is installed)."""
    fn = inspect.unwrap(fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        return False
    return "out" in code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]


def checked_out(fn: Callable, name: str) -> Callable:
    """``fn`` refusing an ``out=`` that is neither a tensor nor a tuple of them before anything
    else, as PyTorch's argument parser does (``bitwise_or(t, 10**30, out=2)`` is its
    TypeError, not the overflow of converting ``10**30``)."""
    @functools.wraps(fn)
    def entry(*args, **kwargs):
        out = kwargs.get("out")
        if out is not None and not isinstance(out, Tensor) and (
                not isinstance(out, (tuple, list)) or
                not builtins.all(isinstance(o, Tensor) for o in out)):
            # (a tuple or list is a multi-output op's out=, and only of tensors: out=[0, 0]
            # is refused before alpha=inf is converted, as PyTorch's parser refuses it)
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not "
                            f"{type(out).__name__}")
        return fn(*args, **kwargs)
    return entry


def cast_out(fn: Callable) -> Callable:
    """``fn`` with ``out=``: the result written into ``out`` with ``write_out``'s casting
    rule (the creation functions: ``zeros(2, 3, out=t)``); the body itself takes no ``out``."""
    @functools.wraps(fn)
    def entry(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        res = fn(*args, **kwargs)
        return write_out(out, res._arr, res._dtype, res._storage._device)
    entry.__wrapped__ = fn
    return entry


def through_lazy(fn: Callable) -> Callable:
    """An in-place spelling that also writes through a lazy conjugate/negative view
    (``z.conj().add_(1)``): for such a ``self`` the op runs on a copy of its values, which
    is then stored back (conjugated, or negated) into the memory the view shares, as
    PyTorch's conjugate views write through to their base. Other tensors go straight on."""
    @functools.wraps(fn)
    def entry(self, *args, **kwargs):
        if not (isinstance(self, Tensor) and self._cj):
            return fn(self, *args, **kwargs)
        check_writable(self)
        tmp = self.resolve_conj().resolve_neg()
        res = fn(tmp, *args, **kwargs)
        self._raw[...] = lazy_values(tmp._arr)
        self._bump()
        return self if res is tmp else res
    return entry


def _takes_only_input(body: Callable) -> bool:
    """Whether ``body`` takes its tensor and at most ``out=`` (a unary op: ``exp``)."""
    try:
        params = list(inspect.signature(body).parameters.values())
    except (TypeError, ValueError):
        return False
    rest = [p for p in params[1:] if p.name != "out"]
    return bool(params) and not rest


def _generated_inplace(rec: OpDef) -> Callable:
    """``Tensor.<name>_`` for an op without an in-place kernel: compute, then store back.

    As PyTorch, ``self`` is checked writable and its shape against the broadcast of the
    tensor arguments before anything is computed; a complex operand into a real ``self``
    is refused first (logical ops aside, whose result is bool anyway).
    """
    body = rec.method_body or rec.body  # (``t.name_(...)`` stores ``t.name(...)``)
    name = rec.name
    refuse_complex = not name.startswith("logical_")
    precheck = rec.inplace_check
    # PyTorch's in-place methods take no out=; the unary ones take no keyword at all
    unary = _takes_only_input(body)

    def inplace(self, *args, **kwargs):
        if kwargs and (unary or "out" in kwargs):
            if unary:
                raise TypeError(f"TensorBase.{name}_() takes no keyword arguments")
            raise TypeError(f"{name}_() got an unexpected keyword argument 'out'")
        if precheck is not None:
            precheck(self, *args, **kwargs)
        if isinstance(self, Tensor):
            check_writable(self)
            for a in args:  # (TensorIterator's check, before the shapes: x.hypot_(x.t()))
                check_partial_overlap(self, a)
            for a in kwargs.values():
                check_partial_overlap(self, a)
            others = [a._shape for a in args if isinstance(a, Tensor)]
            if others:
                shape = _layout.broadcast_shapes(self._shape, *others)
                if shape != self._shape:
                    raise RuntimeError(f"output with shape {list(self._shape)} doesn't match "
                                       f"the broadcast shape {list(shape)}")
            if refuse_complex and self._dtype.category != _dtypes._COMPLEX and builtins.any(
                    isinstance(a, Tensor) and a._dtype.category == _dtypes._COMPLEX
                    for a in args):
                rdt = _dtypes.result_type(self, *[a for a in args if isinstance(a, Tensor)])
                raise RuntimeError(f"result type {rdt.cname} can't be cast to the desired "
                                   f"output type {self._dtype.cname}")
        return store_inplace(self, body(self, *args, **kwargs))
    inplace.__name__ = inplace.__qualname__ = name + "_"
    inplace.__doc__ = (f"In-place form of ``{name}``: ``t.{name}_(...)`` computes "
                       f"``t.{name}(...)`` and writes it into ``t`` (returns ``t``).")
    return inplace


# ---------------------------------------------------------------- operators
_NUMBER = (builtins.bool, builtins.int, builtins.float, builtins.complex, np.generic)
_OPERAND = (Tensor,) + _NUMBER


def _array_operand(other):
    """A NumPy array operand as PyTorch takes it: a tensor (``from_numpy``'s checks), which
    takes part in promotion like any dimensioned tensor; anything else is not an operand."""
    if isinstance(other, np.ndarray):
        return HOOKS["as_tensor"](other)
    return NotImplemented


def _forward(fn: Callable) -> Callable:
    def forward(self, other):
        if type(other) is not Tensor and not isinstance(other, _OPERAND):
            other = _array_operand(other)
            if other is NotImplemented:
                return NotImplemented
        return fn(self, other)
    return forward


def _reflect(fn: Callable) -> Callable:
    def reflected(self, other):
        if not isinstance(other, _NUMBER):  # (PyTorch's reflected operators refuse arrays too)
            return NotImplemented
        return fn(other, self)
    return reflected


# ---------------------------------------------------------------- install
_recorder: Callable | None = None
_installed: dict = {}


def set_recorder(recorder: Callable | None) -> None:
    """Autograd's hook: ``recorder(rec, form, entry)`` returns the recording spelling of
    ``entry`` (``form`` is ``"function"``, ``"method"``, ``"inplace"``, ``"out"`` …)."""
    global _recorder
    _recorder = recorder


def _entry(rec: OpDef, form: str, fn: Callable) -> Callable:
    if _recorder is None:
        return fn
    return _recorder(rec, form, fn)


def spellings(rec: OpDef) -> dict:
    """Every spelling of one op: ``{("torch"|namespace|"Tensor", name): callable}``."""
    out: dict = {}
    names = (rec.name,) + rec.aliases
    body = rec.body
    if rec.function:
        fn = rec.function_body or body
        if rec.out == "exact":
            fn = exact_out(fn, rec.out_message, rec.out_stride, rec.out_overlap)
        elif rec.out == "cast":
            fn = cast_out(fn)
        if rec.name.endswith("_") and not rec.view:  # (tensorviz.zero_(t) ...)
            fn = through_lazy(fn)
        if rec.out is None and _takes_out(rec.function_body or body):
            fn = checked_out(fn, rec.name)
        fn = _entry(rec, "function", fn)
        for n in names:
            out[(rec.namespace, n)] = (_tensor_first(fn, n, rec.tensor_first)
                                       if rec.tensor_first else fn)
        for qual in rec.also:
            ns, _, n = qual.rpartition(".")
            out[(ns, n)] = fn
    if rec.method:
        if rec.method == "property":
            out[("Tensor", rec.name)] = property(_entry(rec, "method", body), rec.setter,
                                                 doc=body.__doc__)
        else:
            meth = rec.method_body or body
            if rec.name.endswith("_") and not rec.view:  # (fill_, copy_, zero_ ...)
                meth = through_lazy(meth)
            meth = _entry(rec, "method", meth)
            for n in names:
                out[("Tensor", n)] = meth
    inplace = None
    if rec.inplace:
        inplace = rec.inplace_body or _generated_inplace(rec)
        if not rec.view:  # (t_, squeeze_ ... change the layout, not the values)
            inplace = through_lazy(inplace)
        inplace = _entry(rec, "inplace", inplace)
        for n in (rec.name,) + rec.inplace_aliases:
            out[("Tensor", n + "_")] = inplace
            if rec.inplace_function is True or (rec.inplace_function and
                                                 n in rec.inplace_function):
                out[("torch", n + "_")] = inplace
    if rec.dunder:
        d = rec.dunder
        if rec.dunder_ufunc is not None:
            if _recorder:  # (the recording operator converts an array operand itself)
                forward = _entry(rec, "operator", HOOKS["operator"](rec.dunder_ufunc))
            else:
                forward = HOOKS["operator"](rec.dunder_ufunc)  # (the hottest: a + b, a * b)
        else:
            forward = _forward(_entry(rec, "method", body))
        out[("Tensor", f"__{d}__")] = forward
        if d not in _NOT_REFLECTED:
            out[("Tensor", f"__r{d}__")] = _reflect(_entry(rec, "function", body))
        if inplace is not None:
            out[("Tensor", f"__i{d}__")] = _forward(inplace)
    if rec.unary_dunder:
        out[("Tensor", f"__{rec.unary_dunder}__")] = _entry(rec, "method", body)
    for dunder, fn in (rec.operators or {}).items():
        out[("Tensor", dunder)] = _entry(rec, dunder, fn)
    return out


_NOT_REFLECTED = frozenset(("eq", "ne", "lt", "le", "gt", "ge"))


def install(recording: bool | None = None) -> dict:
    """Bind every spelling of every registered op; return ``{namespace: {name: fn}}``.

    Called once by ``tensorviz`` at import, and again by autograd when the first tensor
    that requires grad appears (``recording=True``: every spelling then passes through the
    recorder; before that, no spelling pays for autograd at all).
    """
    if recording is not None and not recording:
        set_recorder(None)
    keywords = HOOKS.get("keywords")  # (ops._keywords: axis=/keepdims=, 0-dim tensors as dim=)
    namespaces: dict = {ns: {} for ns in NAMESPACES}
    for rec in _REGISTRY.values():
        for (where, name), fn in spellings(rec).items():
            if keywords is not None:
                fn = keywords(where, fn)
            if where == "Tensor":
                setattr(Tensor, name, fn)
            else:
                namespaces[where][name] = fn
    _installed.clear()
    _installed.update(namespaces)
    for ns, fns in namespaces.items():  # (namespace modules already imported see the new ones)
        module = sys.modules.get("tensorviz" if ns == "torch" else f"tensorviz.{ns}")
        if module is not None:
            vars(module).update(fns)
    return namespaces


def installed(namespace: str = "torch") -> dict:
    """The functions ``install`` bound in ``namespace`` (``{}`` before it ran)."""
    return _installed.get(namespace, {})
