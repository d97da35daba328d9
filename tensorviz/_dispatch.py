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
import operator
import inspect
import sys
import warnings
import weakref
from typing import Any, Callable, Iterable

import numpy as np

from . import _chalf, _dtypes, _layout, _scalars
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
    if rdt is _dtypes.complex32 and out._dtype is not rdt:
        result = _chalf.widen(result)  # (exact; the real part for a real out=)
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
    if _chalf._active:
        fn = _gate(rec, form, fn)
    elif rec.qualname in _chalf.DTYPE_REFUSED and form == "function":
        fn = _refuse_dtype(fn, _chalf.DTYPE_REFUSED[rec.qualname],
                           _chalf.DTYPE_TRIVIAL.get(rec.qualname))
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
            elif _chalf._active:
                forward = _forward(_gate(rec, "operator", HOOKS["operator"](rec.dunder_ufunc)))
            else:
                forward = HOOKS["operator"](rec.dunder_ufunc)  # (the hottest: a + b, a * b)
        elif _recorder:  # (the recording operator converts an array operand itself)
            forward = _entry(rec, "operator", body)
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


# ---------------------------------------------------------------- the complex32 gate
# PyTorch runs only some ops on complex32 (ComplexHalf) tensors; tensorviz stores them as
# pairs of float16 (``_chalf``), on which NumPy computes nothing.  Once the first complex32
# array is made (``_chalf.HOOKS["activate"]``), ``install`` wraps every spelling in ``_gate``:
# a call with a complex32 tensor among its arguments then runs the op as PyTorch would, or
# raises PyTorch's error; calls without one pass through (before that, no spelling pays).
_C32 = _dtypes.complex32
_NATIVE_OK = (RuntimeError, NotImplementedError, TypeError, ValueError, IndexError)


def _has_chalf(args, kwargs) -> builtins.bool:
    """Whether a complex32 tensor is among the operands (an ``out=`` is not one: a result
    is written into a complex32 ``out=`` as into any other)."""
    for a in args:  # (on every call once the gate is on: kept lean)
        t = type(a)
        if t is Tensor or isinstance(a, Tensor):
            if a._dtype is _C32:
                return True
        elif t is list or t is tuple:
            for b in a:
                if isinstance(b, Tensor) and b._dtype is _C32:
                    return True
    if kwargs:
        if kwargs.get("dtype") is _C32:  # (a result asked for as complex32)
            return True
        for k, a in kwargs.items():
            if k != "out" and isinstance(a, Tensor) and a._dtype is _C32:
                return True
    return False


def _tensors(args, kwargs) -> list:
    out = []
    for a in (*args, *[v for k, v in kwargs.items() if k != "out"]):
        if isinstance(a, Tensor):
            out.append(a)
        elif isinstance(a, (list, tuple)):
            out.extend(b for b in a if isinstance(b, Tensor))
    return out


def _small_index(x, most: int) -> builtins.bool:
    """Whether ``x`` is an integer (or a one-element integer tensor: PyTorch's ``__index__``)
    of at most ``most``, or no integer at all (the factory's own argument error first)."""
    if isinstance(x, builtins.bool):
        return True
    try:
        return operator.index(x) <= most
    except (TypeError, RuntimeError, ValueError):
        return True


def _refuse_dtype(fn: Callable, refusal: tuple, trivial: int | None = None) -> Callable:
    """A factory refusing ``dtype=complex32`` with PyTorch's error (``arange``, ``eye``),
    but for a first argument of at most ``trivial`` (a window of one element)."""
    @functools.wraps(fn)
    def entry(*args, **kwargs):
        if kwargs.get("dtype") is _C32 and not (
                trivial is not None and args and _small_index(args[0], trivial)):
            raise refusal[0](refusal[1])
        return fn(*args, **kwargs)
    return entry


def _widen_tensor(t: Tensor) -> Tensor:
    """A complex32 tensor's values as a new complex64 tensor of its layout (exact)."""
    if t._storage._device.type != "cpu":
        raise RuntimeError(f"complex32 tensors are supported on the CPU only, got one on "
                           f"{t.device}: use t.cpu(), or t.cfloat() on {t.device}")
    from ._tensor import wrap_array
    stride = t._stride
    if builtins.any(s == 0 and n > 1 for n, s in zip(t._shape, stride)):
        # (expanded: its one copy widened, then expanded again, as PyTorch sees it)
        one = tuple(1 if s == 0 else n for n, s in zip(t._shape, stride))
        base = t._view(one, stride, t._offset)
        base._vb = None
        w = _widen_tensor(base)
        return w._view(t._shape, tuple(0 if s == 0 else ws for s, ws in zip(stride, w._stride)),
                       w._offset)
    dense = _layout.is_non_overlapping_and_dense(t._shape, stride)
    if not dense and t.numel():
        # (strided: the span of storage it reads widened, then viewed with its own strides,
        # so that the op lays its result out from them as PyTorch's kernel, which reads the
        # complex32 operand in place; a sparse view, x[::100], is copied dense instead)
        span = _layout.storage_extent(t._shape, stride, 0)
        if span <= builtins.max(4 * t.numel(), 4096):
            whole = t._view((span,), (1,), t._offset)
            whole._vb = None
            w = _widen_tensor(whole)
            return w._view(t._shape, stride, w._offset)
    return wrap_array(_chalf.widen(t._arr), _dtypes.complex64, t._storage._device,
                      stride if dense else None)  # (its strides: size-1 dims' too)


#: Arithmetic whose tensor operands TensorIterator converts to the complex32 result dtype
#: before computing (an index, a mask or a weight of another op is not converted): the
#: products kron, outer and ger are PyTorch's mul, and eq / ne compare in the common dtype
#: (an int32 70000 is inf there: 0 * it is NaN, inf == it).
_CASTING_ARITHMETIC = frozenset(("add", "sub", "subtract", "mul", "multiply", "rsub",
                                 "addcmul", "kron", "outer", "ger", "eq", "ne",
                                 "not_equal"))


def _as_chalf(x):
    """A tensor operand of complex32 arithmetic converted to complex32 (its values rounded
    to float16 parts, as PyTorch's cast of it), other values as they are."""
    if isinstance(x, Tensor) and x._dtype is not _C32 and x._dtype is not _dtypes.bool:
        return x.to(_C32)  # (bool: exact anyway, and sub refuses it; a 0-dim complex128 too)
    return x


#: complex32 operands widened to complex64 for an op computing in another dtype, whose
#: layout is that of PyTorch's ``x.to(dtype)`` copy (see ``_widened``); weak: each lives as
#: long as the call that made it (keyed by id: a tensor's ``==`` is elementwise).
CAST_LAYOUT: "weakref.WeakValueDictionary" = weakref.WeakValueDictionary()


def _widened(x, cast: builtins.bool = False):
    """``x`` with its complex32 tensors as complex64 copies.  ``cast``: the op computes in
    another dtype than complex32, so PyTorch's TensorIterator first copies the operand with
    ``x.to(dtype)``, and an expanded one takes part in the result's layout as that dense copy
    (kept in ``CAST_LAYOUT`` for ``_elementwise.operand_layout``; its values stay expanded):
    ``logical_xor(t, z.expand(1, 2))``, ``t`` (1, 2) of strides (1, 1), is laid out (2, 1)."""
    if isinstance(x, Tensor):
        if x._dtype is not _C32:
            return x
        w = _widen_tensor(x)
        if cast or x._cj:  # (PyTorch's x.to(dtype) copy, or the copy its conjugate
            CAST_LAYOUT[id(w)] = w  # fallback resolves a conjugate view into)
        return w
    if isinstance(x, (list, tuple)) and builtins.any(
            isinstance(b, Tensor) and b._dtype is _C32 for b in x):
        return type(x)(_widened(b, cast) for b in x)
    return x


def _narrowed(r):
    """An op's result computed in complex64 (float32) as complex32 (float16), each part
    rounded as PyTorch's ComplexHalf kernels round their complex<float> results."""
    if isinstance(r, Tensor):
        from ._tensor import wrap_array
        if r._dtype is _dtypes.complex64 and r._cj:  # (a lazy conjugate stays one: svd's V)
            return _narrowed(r.conj()).conj()
        if r._dtype is _dtypes.complex64 or r._dtype is _dtypes.float32:
            dense = _layout.is_non_overlapping_and_dense(r._shape, r._stride)
            arr = _chalf.narrow(r._arr) if r._dtype is _dtypes.complex64 else \
                call_quiet(r._arr.astype, np.float16)
            return wrap_array(arr, _C32 if r._dtype is _dtypes.complex64 else _dtypes.float16,
                              r._storage._device, r._stride if dense else None)
        return r
    if isinstance(r, tuple):
        items = [_narrowed(x) for x in r]
        if type(r) is tuple:
            return tuple(items)
        try:
            return type(r)(*items)  # (a named tuple: return_types.var_mean ...)
        except TypeError:
            return type(r)(items)
    if isinstance(r, list):
        return [_narrowed(x) for x in r]
    return r


def _renamed(e: Exception, args, kwargs) -> Exception:
    """An error of the op computed in complex64 as PyTorch words it for complex32."""
    if builtins.any(t._dtype is _dtypes.complex64 for t in _tensors(args, kwargs)):
        return e
    msg = str(e)
    new = msg.replace("ComplexFloat", "ComplexHalf").replace(
        "c10::complex<float>", "c10::complex<c10::Half>")
    if new == msg:
        return e
    try:
        return type(e)(new)
    except Exception:  # (an exception type that needs other arguments: as it was)
        return e


def _chalf_names(rec: OpDef) -> tuple:
    ns = "" if rec.namespace == "torch" else rec.namespace + "."
    return (rec.qualname,) + tuple(ns + a for a in rec.aliases) + rec.also


def _gate(rec: OpDef, form: str, fn: Callable) -> Callable:
    """``fn`` (one spelling of ``rec``) taking complex32 tensors as PyTorch does."""
    names = _chalf_names(rec)
    if rec.view or builtins.any(n in _chalf.NATIVE or n in _chalf.OWN for n in names):
        return fn
    refused = next((_chalf.REFUSED[n] for n in names if n in _chalf.REFUSED), None)
    condition = next((_chalf.CONDITIONS[n] for n in names if n in _chalf.CONDITIONS), None)
    computed = builtins.any(n in _chalf.COMPUTED for n in names)
    rounds_numbers = builtins.any(n in _chalf.NUMBERS_ROUNDED for n in names)
    dim_at = 1 if rec.qualname == "index_fill" else -1
    comparison = builtins.any(n in _chalf.COMPARISONS for n in names)
    dtype_refused = _chalf.DTYPE_REFUSED.get(rec.qualname)
    if dtype_refused is not None and form == "function" and \
            rec.qualname not in ("randint_like", "random_"):
        # (a factory: its dtype= is all it has of complex32)
        return _refuse_dtype(fn, dtype_refused, _chalf.DTYPE_TRIVIAL.get(rec.qualname))
    no_promotion = refused is not None and "MKL FFT" in refused[1]  # (fft: no complex64 run)
    if dtype_refused is not None and form == "function":
        fn = _refuse_dtype(fn, dtype_refused, _chalf.DTYPE_TRIVIAL.get(rec.qualname))
    inplace = form == "inplace" or form.startswith("__i") or (
        rec.name.endswith("_") and form in ("method", "function"))
    if form == "inplace" and rec.qualname + "_" in _chalf.CONDITIONS:
        condition = _chalf.CONDITIONS[rec.qualname + "_"]

    casts_operands = builtins.any(n in _CASTING_ARITHMETIC for n in names)
    # (their inputs are made at least 1-D first, kron's reshaped to one rank: promoted so)
    dimensioned = rec.qualname in ("hstack", "vstack", "dstack", "column_stack", "row_stack",
                                   "kron")

    def run(args, kwargs, narrow: builtins.bool):
        """The op on complex64 copies of the complex32 operands; its result rounded."""
        if narrow and scaled_at is not None:
            n_args = len(args)
            args, kwargs = _prescaled(rec.qualname, scaled_at, args, kwargs)
            if len(args) < n_args:  # (addcmul: input plus the rounded product)
                if inplace:
                    return args[0].add_(args[1])
                return installed()["add"](*args[:2], **{k: v for k, v in kwargs.items()
                                                        if k == "out"})
        if narrow and rounds_numbers:  # (index_fill's dim is an int, not a value)
            args = tuple(a if i == dim_at else _chalf.rounded(a) for i, a in enumerate(args))
        if kwargs.get("dtype") is _C32:  # (computed as complex64, then rounded)
            kwargs = dict(kwargs, dtype=_dtypes.complex64)
            narrow = True
        if narrow and inplace and casts_operands and args and isinstance(args[0], Tensor) and \
                args[0]._dtype is _C32:  # (promoted past complex32: computed in that dtype)
            args = args[:1] + tuple(_as_chalf(a) for a in args[1:])
        if inplace and args and isinstance(args[0], Tensor) and args[0]._dtype is _C32:
            self = args[0]
            if not builtins.any(st == 0 and n > 1 for n, st in zip(self._shape, self._stride)):
                check_writable(self)  # (an expanded self stays expanded in its complex64
                # copy: the op's own overlap rule, as for other dtypes: triu_ runs)
            tmp = _widen_tensor(self)
            res = fn(tmp, *[_widened(a) for a in args[1:]],
                     **{k: _widened(v) for k, v in kwargs.items()})
            store(self, tmp._arr)
            self._bump()
            return self if res is tmp else res
        if narrow and casts_operands:  # (TensorIterator converts each operand to complex32
            # first: an int32 2147483646 is inf there, and -0.0 * it NaN)
            if inplace and comparison and args and isinstance(args[0], Tensor):
                # (``int_tensor.eq_(z)``: compared as complex32, the result written to self)
                self = args[0]
                check_writable(self)
                tmp = _widen_tensor(self.to(_C32))
                fn(tmp, *[_widened(_as_chalf(a)) for a in args[1:]],
                   **{k: _widened(v) for k, v in kwargs.items()})
                return self.copy_(tmp.real)
            args = tuple(_as_chalf(a) for a in args)
        out = kwargs.pop("out", None) if not inplace else None
        res = fn(*[_widened(a, not narrow) for a in args],
                 **{k: _widened(v, not narrow) for k, v in kwargs.items()})
        if narrow and not inplace:
            res = _narrowed(res)
        if out is not None:
            if not isinstance(res, Tensor):
                raise TypeError(f"{rec.name}(): out= of complex32 operands takes one tensor")
            if rec.out == "exact" and out._dtype is not res._dtype:
                raise RuntimeError((rec.out_message or _structured_message)(res, out))
            return write_out(out, res._arr, res._dtype, res._storage._device, res._stride)
        return res

    checked_numbers = builtins.any(n in _chalf.NUMBERS_CHECKED for n in names)
    checks_all_numbers = rec.qualname == "where"
    checks_alpha = rec.qualname in ("add", "sub", "rsub")
    stepwise = rec.qualname == "diff"  # (its order n: n differences, each rounded)

    same_dtypes = builtins.any(n in _chalf.SAME_DTYPE for n in names)
    pairwise = rec.qualname == "einsum"
    dtype_at = 2 if rec.qualname in ("softmax", "log_softmax", "special.softmax") else None
    accumulates = rec.qualname in ("index_add", "index_put")
    # (the operand PyTorch's ComplexHalf kernel scales by alpha / value first, rounded)
    scaled_at = {"add": 1, "sub": 1, "rsub": 0, "index_add": 3, "addcmul": 1}.get(
        rec.qualname)
    of_mean = rec.qualname == "normal"
    by_parts = rec.qualname in ("var", "std", "var_mean", "std_mean")
    empty_runs = builtins.any(n in _chalf.EMPTY_RUNS for n in names)

    @functools.wraps(fn)
    def gated(*args, **kwargs):
        if not _has_chalf(args, kwargs):
            return fn(*args, **kwargs)
        if stepwise and kwargs.get("n", args[1] if len(args) > 1 else 1) == 0:
            return fn(*args, **kwargs)  # (diff of order 0: the input, prepend/append unread)
        if same_dtypes:
            _check_same_dtypes(fn, args, kwargs, inplace)
        if dtype_at is not None and len(args) > dtype_at and \
                isinstance(args[dtype_at], _dtypes.dtype):  # (softmax(x, dim, dtype))
            kwargs = dict(kwargs, dtype=args[dtype_at])
            args = args[:dtype_at] + args[dtype_at + 1:]
        if checked_numbers and args and isinstance(args[0], Tensor) and \
                args[0]._dtype is _C32:  # (PyTorch's checked conversion of the value)
            value = kwargs.get("value", args[-1] if len(args) > 2 else None)
            if isinstance(value, Tensor) and value._shape == () and value._dtype is not _C32:
                value = value.item()  # (a 0-dim tensor's value is checked as its number)
            if isinstance(value, (builtins.int, builtins.float, builtins.complex)) and \
                    not isinstance(value, builtins.bool):
                _scalars.checked_scalar(value, _C32)
        dt = kwargs.get("dtype")
        if isinstance(dt, type):  # (``dtype=complex``: complex128, as PyTorch)
            dt = _dtypes._PY_TYPES.get(dt, dt)
        if dt is not None and dt is not _C32 and isinstance(dt, _dtypes.dtype):
            # (converted to ``dtype`` first, as PyTorch: ``sum(z, dtype=complex64)`` runs)
            return _run_renamed(run, args, kwargs, False)
        tensors = _tensors(args, kwargs)
        if dimensioned:  # (their inputs are made at least 1-D first: promoted as such)
            promoted = functools.reduce(_dtypes.promote_types, [t._dtype for t in tensors])
        else:
            promoted = _dtypes.result_type(*tensors)
        if of_mean and args and isinstance(args[0], Tensor) and args[0]._dtype is _C32:
            promoted = _C32  # (normal's result has its mean's dtype, whatever std's)
        if dt is not _C32 and promoted is not _C32 and not no_promotion:
            # (promoted past complex32, ``z * float32_tensor``: PyTorch's complex64 kernel)
            return _run_renamed(run, args, kwargs, False)
        if checks_all_numbers or (checks_alpha and "alpha" in kwargs):
            # (where's numbers and add's alpha: PyTorch's checked conversion to complex32,
            # ``where(c, z, 70000)`` refused as ``z.masked_fill(c, 70000)``)
            if checks_alpha and isinstance(kwargs["alpha"], builtins.bool):
                raise RuntimeError("Boolean alpha only supported for Boolean results.")
            for v in (*args, *kwargs.values()) if checks_all_numbers else (kwargs["alpha"],):
                if isinstance(v, (builtins.int, builtins.float, builtins.complex)) and \
                        not isinstance(v, builtins.bool):
                    _scalars.checked_scalar(v, _C32)
        if casts_operands and "value" in kwargs:  # (addcmul's value: the same check)
            v = kwargs["value"]
            if isinstance(v, (builtins.int, builtins.float, builtins.complex)) and \
                    not isinstance(v, builtins.bool):
                _scalars.checked_scalar(v, _C32)
        if (form == "inplace" or form.startswith("__i")) and not comparison:
            self = args[0] if args else None
            if isinstance(self, Tensor) and self._dtype is not _C32 and \
                    not _dtypes.can_cast(_C32, self._dtype):
                raise RuntimeError(f"result type ComplexHalf can't be cast to the desired "
                                   f"output type {self._dtype.cname}")

        why = refused
        if empty_runs and builtins.all(0 in t._shape for t in _tensors(args, kwargs)
                                       if t._dtype is _C32):
            # (no element: PyTorch calls no kernel, its checks and result are the op's)
            return _run_renamed(run, args, kwargs, True)
        if form in _chalf.OPERATOR_REFUSED:
            why = _chalf.OPERATOR_REFUSED[form]
        elif condition is not None:
            why = condition(*args, **kwargs)
            if why is None:  # (a form PyTorch runs)
                if pairwise:
                    steps = _einsum_steps(args)
                    if steps is not None:  # (PyTorch multiplies left to right, each
                        # product complex32: 300 * 300 is inf before it meets 1 / 300)
                        r = args[1]
                        for eq, o in steps:
                            r = gated(eq, r, *([] if o is None else [o]))
                        return r
                return _run_renamed(run, args, kwargs, True)
        elif computed:
            if stepwise:
                n = kwargs.get("n", args[1] if len(args) > 1 else 1)
                if isinstance(n, builtins.int) and n > 1:
                    # (PyTorch's order n is n complex32 ops, each rounded: diff(diff(x)))
                    kw = {k: v for k, v in kwargs.items() if k != "n"}
                    r = gated(args[0], 1, *args[2:], **kw)
                    dim = kwargs.get("dim", args[2] if len(args) > 2 else -1)
                    for _ in range(n - 1):
                        r = gated(r, 1, dim)
                    return r
            if by_parts and args and isinstance(args[0], Tensor) and \
                    args[0]._dtype is _C32 and "out" not in kwargs:
                return _variance_by_parts(rec.qualname, args, kwargs)
            if accumulates:
                layers = _accumulation_layers(rec.qualname, args, kwargs)
                if layers is not None:  # (PyTorch adds a repeated index's terms one after
                    # another, each sum complex32: 60000 + 10000 is inf before - 10000)
                    r = args[0]
                    for lay in layers:
                        r = gated(r, *lay, **kwargs)
                    return r
            return _run_renamed(run, args, kwargs, True)
        if why is not None:
            if not inplace or (args and isinstance(args[0], Tensor) and args[0]._dtype is _C32):
                # (PyTorch's argument errors come first: the op is run on complex64 copies
                # only to find them; nothing is written, its result never returned)
                try:
                    fn(*[_widened(a) for a in args],
                       **{k: _dtypes.complex64 if v is _C32 else _widened(v)
                          for k, v in kwargs.items() if k != "out"})
                except TypeError as e:
                    raise _renamed(e, args, kwargs) from None
                except RuntimeError as e:
                    if inplace and ("in-place" in str(e) or "output with shape" in str(e)):
                        raise _renamed(e, args, kwargs) from None
                except Exception:  # noqa: BLE001 - the kernel's refusal below says it
                    pass
            raise why[0](why[1])
        if not inplace:  # an op not probed: PyTorch's error if it has one for complex64 too
            _run_renamed(run, args, dict(kwargs), False)
        raise NotImplementedError(f"\"{rec.name}\" not implemented for 'ComplexHalf'")
    return gated


def _gated_operator(rec: OpDef, plain: Callable) -> Callable:
    """``a + b`` (``operator(ufunc)``, no recording) once the gate is on: the gate only for
    a complex32 operand, the plain operator, at one test's cost, for every other."""
    gated = _forward(_gate(rec, "operator", plain))

    def forward(self, other):
        if self._dtype is _C32 or (isinstance(other, Tensor) and other._dtype is _C32):
            return gated(self, other)
        return plain(self, other)
    return forward


def _scaled_chalf(t, factor) -> Tensor:
    """``factor * t`` as PyTorch's ComplexHalf kernels take it: ``t`` converted to
    complex32, the factor rounded to a complex32 value, their product rounded again."""
    from ._tensor import wrap_array
    w = _widen_tensor(t if t._dtype is _C32 else t.to(_C32))
    f = np.complex64(_chalf.rounded(factor if isinstance(factor, builtins.complex) else
                                    builtins.float(factor)))
    res = wrap_array(call_quiet(np.multiply, w._arr, f), _C32, w._storage._device)
    if res._stride != t._stride and 0 not in t._stride:
        # (PyTorch scales inside its kernel: the operand keeps its own layout, which the
        # result's is computed from)
        span = _layout.storage_extent(t._shape, t._stride, 0)
        laid = wrap_array(_chalf.empty((span,)), _C32, t._storage._device)._view(
            t._shape, t._stride, 0)
        laid._vb = None
        store(laid, res._arr)
        return laid
    return res


def _prescaled(name: str, at: int, args, kwargs):
    """add/sub/rsub/index_add's ``alpha`` and addcmul's ``value`` applied first, rounded to
    complex32 as PyTorch's ComplexHalf kernels do: ``x + alpha * y`` is x plus the rounded
    complex32 product of y and alpha (itself rounded to complex32); addcmul rounds
    ``value * tensor1``, then its product with tensor2, then the sum."""
    key = "value" if name == "addcmul" else "alpha"
    factor = kwargs.get(key, 1)
    if name == "addcmul" and isinstance(factor, builtins.bool):
        factor = builtins.int(factor)
    number = args[at] if len(args) > at else None
    if name in ("add", "sub") and type(number) in (builtins.int, builtins.float,
                                                    builtins.complex) and \
            type(factor) in (builtins.int, builtins.float, builtins.complex) and factor != 1:
        # (a number other: converted to complex32, times alpha rounded to complex32, the
        # product rounded again: one number the op then adds)
        with np.errstate(all="ignore"):
            prod = np.complex64(_chalf.rounded(builtins.complex(factor))) * \
                np.complex64(_chalf.rounded(builtins.complex(number)))
        kwargs = {k: v for k, v in kwargs.items() if k != key}
        return args[:at] + (_chalf.rounded(builtins.complex(prod)),) + args[at + 1:], kwargs
    if len(args) <= at or not isinstance(args[at], Tensor) or isinstance(
            factor, (builtins.bool, Tensor)) or not isinstance(
                factor, (builtins.int, builtins.float, builtins.complex)):
        return args, kwargs
    if name != "addcmul" and factor == 1:
        return args, kwargs
    if name in ("sub", "rsub") and builtins.any(
            isinstance(a, Tensor) and a._dtype is _dtypes.bool for a in args[:2]):
        return args, kwargs  # (sub's own refusal of a bool tensor)
    kwargs = {k: v for k, v in kwargs.items() if k != key}
    t = _scaled_chalf(args[at], factor)
    if name == "addcmul":  # (then its product with tensor2, rounded: added to input)
        if len(args) <= at + 1 or not isinstance(args[at + 1], Tensor):
            return args, dict(kwargs, **{key: factor})
        return args[:at] + (_product_chalf(t, args[at + 1]),) + args[at + 2:], kwargs
    return args[:at] + (t,) + args[at + 1:], kwargs


def _product_chalf(a: Tensor, b: Tensor) -> Tensor:
    """``a * b`` of complex32 tensors (b converted first), broadcast, rounded to complex32."""
    from ._tensor import wrap_array
    wa = _widen_tensor(a)
    wb = _widen_tensor(b if b._dtype is _C32 else b.to(_C32))
    return wrap_array(call_quiet(np.multiply, wa._arr, wb._arr), _C32, wa._storage._device)


def _accumulation_layers(name: str, args, kwargs) -> list | None:
    """index_add / index_put(accumulate=True) of a complex32 self whose 1-D index repeats
    an element: the op's arguments split in layers (the first occurrence of each index,
    then the second ...), applied one after another so that each partial sum is rounded
    to complex32 as PyTorch's sequential kernel; None where nothing repeats (or for a form
    the op itself should check first)."""
    self = args[0] if args else None
    if not isinstance(self, Tensor) or self._dtype is not _C32 or "out" in kwargs:
        return None
    if name == "index_add":
        if len(args) != 4 or not builtins.all(isinstance(a, Tensor) for a in args[2:]):
            return None
        dim, index, source = args[1], args[2], args[3]
        if not isinstance(dim, builtins.int) or len(index._shape) != 1 or \
                not source._shape or index._dtype.category != _dtypes._INT:
            return None
        try:
            size = self._shape[dim]
        except IndexError:
            return None
        positions = _repeat_layers(index, size)
        if positions is None or source._shape[dim] != index._shape[0]:
            return None
        return [(dim, index[p], source.index_select(dim, p)) for p in positions]
    # index_put(indices, values, accumulate)
    accumulate = kwargs.get("accumulate", args[3] if len(args) > 3 else False)
    if accumulate is not True or len(args) < 3 or not isinstance(args[1], (tuple, list)) or \
            len(args[1]) != 1 or not isinstance(args[1][0], Tensor) or \
            not isinstance(args[2], Tensor):
        return None
    index, values = args[1][0], args[2]
    if len(index._shape) != 1 or index._dtype.category != _dtypes._INT or not self._shape:
        return None
    positions = _repeat_layers(index, self._shape[0])
    if positions is None:
        return None
    sliced = len(values._shape) >= 1 and values._shape[0] == index._shape[0] > 1
    rest = () if "accumulate" in kwargs else (True, *args[4:])
    return [((index[p],), values[p] if sliced else values, *rest) for p in positions]


def _repeat_layers(index: Tensor, size: int) -> list | None:
    """Positions of ``index`` in layers of distinct elements (negative ones wrapped), or None
    where no element repeats or one is out of range (the op's own error)."""
    vals = [builtins.int(v) for v in np.asarray(index._arr).ravel().tolist()]
    if builtins.any(not -size <= v < size for v in vals):
        return None
    seen: dict = {}
    layer_of = []
    for v in vals:
        v %= size if size else 1
        layer_of.append(seen.get(v, 0))
        seen[v] = layer_of[-1] + 1
    if not layer_of or builtins.max(layer_of) == 0:
        return None
    from ._tensor import wrap_array
    return [wrap_array(np.array([j for j, k in enumerate(layer_of) if k == lay], np.int64),
                       _dtypes.int64, index._storage._device)
            for lay in range(builtins.max(layer_of) + 1)]


def _variance_by_parts(name: str, args, kwargs):
    """var / std / var_mean / std_mean of a complex32 tensor as PyTorch's: the float16
    variances of its real and imaginary parts (each rounded), added in float16, then the
    square root for std; the mean's parts are the parts' float16 means."""
    x, rest = args[0], args[1:]
    spelled = installed()  # (the public ops: recorded as the user's would be)
    f = spelled["var_mean"] if name.endswith("_mean") else spelled["var"]
    re, im = f(x.real, *rest, **kwargs), f(x.imag, *rest, **kwargs)
    v = (re[0] + im[0]) if name.endswith("_mean") else re + im
    if name.startswith("std"):
        v = v.sqrt()
    return (v, spelled["complex"](re[1], im[1])) if name.endswith("_mean") else v


def _einsum_steps(args) -> list | None:
    """PyTorch's einsum of three or more operands with nothing to contract as its steps:
    ``(equation, next operand)`` pairs multiplying left to right (each pair's product keeps
    the labels still needed), then the permutation to the output (None: one step)."""
    eq = args[0] if args and isinstance(args[0], str) else None
    ops = args[1:]
    if eq is None or len(ops) < 3 or not builtins.all(isinstance(o, Tensor) for o in ops):
        return None
    lhs, arrow, out = eq.replace(" ", "").partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ops):
        return None
    if not arrow:
        letters = lhs.replace(",", "").replace("...", "")
        out = ("..." if "..." in lhs else "") + "".join(
            sorted(c for c in set(letters) if letters.count(c) == 1))
    if "..." in eq:  # (the ellipsis dims named by unused letters, right-aligned)
        widths = [len(o._shape) - len(t.replace("...", "")) if "..." in t else 0
                  for t, o in zip(terms, ops)]
        pool = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                if c not in eq][:builtins.max(widths + [0])]
        if builtins.min(widths + [0]) < 0 or len(pool) < builtins.max(widths + [0]):
            return None  # (the op's own error)
        terms = [t.replace("...", "".join(pool[len(pool) - w:]) if w else "")
                 for t, w in zip(terms, widths)]
        out = out.replace("...", "".join(pool))
    steps, have = [], terms[0]
    for i, (t, o) in enumerate(zip(terms[1:], ops[1:]), 1):
        later = set("".join(terms[i + 1:])) | set(out)
        keep = "".join(c for c in dict.fromkeys(have + t) if c in later)
        steps.append((f"{have},{t}->{keep}", o))
        have = keep
    if have != out:
        steps.append((f"{have}->{out}", None))
    return steps


_STAND_INS = (_dtypes.complex128, _dtypes.complex64, _dtypes.float64, _dtypes.float32)


def _check_same_dtypes(fn: Callable, args, kwargs, inplace: builtins.bool) -> None:
    """PyTorch's dtype-mismatch error of an op requiring equal dtypes (``_chalf.SAME_DTYPE``)
    where a complex32 tensor meets one of another dtype: the op run with each complex32
    tensor as a copy of a dtype no other operand has (its error names it; renamed to
    complex32's), nothing written (an in-place op's other self is copied first)."""
    others = {t._dtype for t in _tensors(args, kwargs) if t._dtype is not _C32}
    if not others:
        return
    stand_in = next(d for d in _STAND_INS if d not in others)

    def swap(x):
        if isinstance(x, Tensor) and x._dtype is _C32:
            return _widen_tensor(x).to(stand_in)
        if isinstance(x, (list, tuple)) and builtins.any(
                isinstance(b, Tensor) and b._dtype is _C32 for b in x):
            return type(x)(swap(b) for b in x)
        return x
    args = [swap(a) for a in args]
    if inplace and args and isinstance(args[0], Tensor) and args[0]._dtype is not stand_in:
        args[0] = args[0].clone()
    try:
        fn(*args, **{k: swap(v) for k, v in kwargs.items() if k != "out"})
    except NotImplementedError:  # (the stand-in's kernel refusal: not a dtype mismatch)
        return
    except RuntimeError as e:
        msg = str(e)
        if not builtins.any(k in msg for k in (stand_in.cname, stand_in.cxx_name, ".dtype")):
            return  # (another error: the complex32 path below gives PyTorch's order)
        raise RuntimeError(msg.replace(stand_in.cxx_name, _C32.cxx_name).replace(
            stand_in.cname, _C32.cname)) from None


def _run_renamed(run, args, kwargs, narrow):
    try:
        return run(args, kwargs, narrow)
    except _NATIVE_OK as e:
        new = _renamed(e, args, kwargs)
        if new is e:
            raise
        raise new from None


def _activate_chalf() -> None:
    """The first complex32 array: bind every spelling again, through ``_gate``."""
    if _installed:
        install()


_chalf.HOOKS["activate"] = _activate_chalf
