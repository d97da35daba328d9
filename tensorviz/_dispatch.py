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
from typing import Any, Callable, Iterable

__all__ = ["OpDef", "op", "inplace_of", "registry", "install", "set_recorder", "exact_out",
           "store_inplace"]

#: The op namespaces: ``torch`` is the package itself, the others its submodules.
NAMESPACES = ("torch", "linalg", "fft", "special", "nn.functional")


class OpDef:
    """The record of one op: its body and which spellings it has.

    ``name`` is PyTorch's name in ``namespace``; ``aliases`` are further names of both the
    function and the method (``absolute`` for ``abs``); ``function``/``method`` say whether
    ``tensorviz.<name>`` / ``Tensor.<name>`` exist (``method`` may be ``"property"``);
    ``inplace`` whether ``Tensor.<name>_`` exists (``inplace_body`` is its own kernel, else
    it is computed out of place and stored back); ``out`` is ``None`` when the body handles
    ``out=`` itself (or has none) and ``"exact"`` when ``out=`` must have exactly the
    result's dtype (``out_message(result, out)`` says why not); ``view`` marks ops whose
    result shares the input's storage.
    """

    __slots__ = ("name", "body", "namespace", "aliases", "function", "method", "setter",
                 "inplace", "inplace_body", "inplace_function", "inplace_aliases", "out",
                 "out_message", "view", "dunder", "dunder_ufunc", "rdunder", "unary_dunder",
                 "method_body", "function_body", "module")

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
       setter: Callable | None = None, inplace: bool = False,
       inplace_function: bool = False, inplace_aliases: Iterable[str] | None = None,
       out: str | None = None, out_message: Callable | None = None, view: bool = False,
       dunder: str | None = None, dunder_ufunc: Callable | None = None,
       rdunder: Callable | bool | None = None, unary_dunder: str | None = None) -> Callable:
    """Declare the decorated function as an op (see the module docstring); returns it as is.

    ``function``/``method`` may be a callable: that spelling then uses it instead of the body
    (``torch.transpose(t, 0, 1)`` calls the method).  ``dunder="add"`` makes ``__add__``,
    ``__radd__`` (numbers only; ``rdunder`` a body of its own, or False for none) and
    ``__iadd__`` (when the op has an in-place form); ``dunder_ufunc`` lets ``__add__`` call
    the elementwise kernel directly.  Example::

        @op(aliases=("absolute",), inplace=True, inplace_function=True, unary_dunder="abs")
        def abs(input, *, out=None): ...
    """
    if namespace not in NAMESPACES:
        raise ValueError(f"unknown op namespace {namespace!r}")

    def declare(body: Callable) -> Callable:
        opname = name or body.__name__
        rec = OpDef(opname, body, namespace=namespace, aliases=tuple(aliases),
                    function=builtins.bool(function), method=method, setter=setter,
                    inplace=inplace, inplace_function=inplace_function,
                    inplace_aliases=tuple(aliases if inplace_aliases is None
                                          else inplace_aliases),
                    out=out, out_message=out_message, view=view, dunder=dunder,
                    dunder_ufunc=dunder_ufunc, rdunder=rdunder, unary_dunder=unary_dunder,
                    function_body=function if callable(function) else None,
                    method_body=method if callable(method) else None)
        key = rec.qualname
        if key in _REGISTRY:
            raise ValueError(f"op {key!r} is declared twice ({_REGISTRY[key].module} and "
                             f"{rec.module})")
        _REGISTRY[key] = rec
        body.op = rec
        return body
    return declare


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
def store_inplace(self, res):
    """Write an op's result ``res`` back into ``self`` as PyTorch's in-place forms check it:
    the result must have ``self``'s shape and a dtype that casts to ``self``'s."""
    from . import _dtypes
    from ._indexing import assign
    if res._shape != self._shape:
        raise RuntimeError(f"output with shape {list(self._shape)} doesn't match the broadcast "
                           f"shape {list(res._shape)}")
    if not _dtypes.can_cast(res._dtype, self._dtype):
        raise RuntimeError(f"result type {res._dtype.cname} can't be cast to the desired output "
                           f"type {self._dtype.cname}")
    assign(self, res)
    return self


def _structured_message(res, out) -> str:
    return (f"Expected out tensor to have dtype {res._dtype.cxx_name}, but got "
            f"{out._dtype.cxx_name} instead")


def exact_out(fn: Callable, message: Callable | None = None) -> Callable:
    """``fn`` for ops whose ``out=`` must have exactly the result's dtype (PyTorch's
    structured kernels and some others refuse a wider one, unlike the elementwise ops'
    cast): RuntimeError with ``message(result, out)``, else the result written into ``out``.
    """
    from ._tensor import Tensor
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
        from .ops._elementwise import check_partial_overlap, write_out
        for x in args:  # (an out that partly overlaps an input is refused, as in PyTorch)
            check_partial_overlap(out, x)
        return write_out(out, res._arr, res._dtype, res._storage._device)
    entry.__wrapped__ = fn
    return entry


def _generated_inplace(rec: OpDef) -> Callable:
    """``Tensor.<name>_`` for an op without an in-place kernel: compute, then store back.

    As PyTorch, ``self`` is checked writable and its shape against the broadcast of the
    tensor arguments before anything is computed; a complex operand into a real ``self``
    is refused first (logical ops aside, whose result is bool anyway).
    """
    from . import _dtypes, _layout
    from ._indexing import check_writable
    from ._tensor import Tensor
    body = rec.body
    name = rec.name
    refuse_complex = not name.startswith("logical_")

    def inplace(self, *args, **kwargs):
        if isinstance(self, Tensor):
            check_writable(self)
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
def _operand_types():
    import numpy as np
    from ._tensor import Tensor
    number = (builtins.bool, builtins.int, builtins.float, builtins.complex, np.generic)
    return Tensor, number


def _array_operand(other):
    """A NumPy array operand as PyTorch takes it: a tensor (``from_numpy``'s checks), which
    takes part in promotion like any dimensioned tensor; anything else is not an operand."""
    import numpy as np
    if isinstance(other, np.ndarray):
        from ._creation import as_tensor
        return as_tensor(other)
    return NotImplemented


def _forward(fn: Callable) -> Callable:
    Tensor, number = _operand_types()
    operand = (Tensor,) + number

    def forward(self, other):
        if not isinstance(other, operand):
            other = _array_operand(other)
            if other is NotImplemented:
                return NotImplemented
        return fn(self, other)
    return forward


def _reflect(fn: Callable) -> Callable:
    _, number = _operand_types()

    def reflected(self, other):
        if not isinstance(other, number):  # (PyTorch's reflected operators refuse arrays too)
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
    from ._tensor import Tensor
    out: dict = {}
    names = (rec.name,) + rec.aliases
    body = rec.body
    if rec.function:
        fn = rec.function_body or body
        if rec.out == "exact":
            fn = exact_out(fn, rec.out_message)
        fn = _entry(rec, "function", fn)
        for n in names:
            out[(rec.namespace, n)] = fn
    if rec.method:
        if rec.method == "property":
            out[("Tensor", rec.name)] = property(_entry(rec, "method", body), rec.setter,
                                                 doc=body.__doc__)
        else:
            meth = _entry(rec, "method", rec.method_body or body)
            for n in names:
                out[("Tensor", n)] = meth
    inplace = None
    if rec.inplace:
        inplace = _entry(rec, "inplace", rec.inplace_body or _generated_inplace(rec))
        for n in (rec.name,) + rec.inplace_aliases:
            out[("Tensor", n + "_")] = inplace
            if rec.inplace_function:
                out[("torch", n + "_")] = inplace
    if rec.dunder:
        d = rec.dunder
        if rec.dunder_ufunc is not None:
            from .ops._elementwise import binary
            fast = functools.partial(binary, rec.dunder_ufunc)
            forward = _forward(_entry(rec, "operator", fast) if _recorder else fast)
        else:
            forward = _forward(_entry(rec, "method", body))
        out[("Tensor", f"__{d}__")] = forward
        if rec.rdunder is not False and rec.rdunder is not None or rec.rdunder is None \
                and d not in _NOT_REFLECTED:
            r = rec.rdunder if callable(rec.rdunder) else _reflect(_entry(rec, "function",
                                                                          body))
            out[("Tensor", f"__r{d}__")] = r
        if inplace is not None:
            out[("Tensor", f"__i{d}__")] = _forward(inplace)
    if rec.unary_dunder:
        out[("Tensor", f"__{rec.unary_dunder}__")] = _entry(rec, "method", body)
    return out


_NOT_REFLECTED = frozenset(("eq", "ne", "lt", "le", "gt", "ge"))


def install(recording: bool | None = None) -> dict:
    """Bind every spelling of every registered op; return ``{namespace: {name: fn}}``.

    Called once by ``tensorviz`` at import, and again by autograd when the first tensor
    that requires grad appears (``recording=True``: every spelling then passes through the
    recorder; before that, no spelling pays for autograd at all).
    """
    from ._tensor import Tensor
    if recording is not None and not recording:
        set_recorder(None)
    namespaces: dict = {ns: {} for ns in NAMESPACES}
    for rec in _REGISTRY.values():
        for (where, name), fn in spellings(rec).items():
            if where == "Tensor":
                setattr(Tensor, name, fn)
            else:
                namespaces[where][name] = fn
    _installed.clear()
    _installed.update(namespaces)
    return namespaces


def installed(namespace: str = "torch") -> dict:
    """The functions ``install`` bound in ``namespace`` (``{}`` before it ran)."""
    return _installed.get(namespace, {})
