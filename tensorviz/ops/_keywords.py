"""PyTorch's keyword conventions, applied to every public op as it is bound.

``_dispatch.install`` wraps each registry spelling in ``KEYWORD_NAMESPACES`` (at import and
again when autograd installs its recording spellings); ``tensorviz/__init__`` applies ``apply``
once more to the few names bound outside the registry.

PyTorch's argument parser lets NumPy's names stand for its own everywhere (``axis=`` for
``dim=``, ``keepdims=`` for ``keepdim=``) and reads a 0-dim tensor wherever an int or a float
is expected (``dim=torch.tensor(0)``, ``p=torch.tensor(2.)``). ``apply(namespace, Tensor)``
wraps each op that has such a parameter so it takes them too::

    t.cumsum(axis=0)       # same as t.cumsum(dim=0)
    t.min(dim=tensor(0))   # the reduction over dim 0, not the elementwise min with 0
"""
from __future__ import annotations

import functools
import inspect

from .._tensor import Tensor as _Tensor

# NumPy-style names PyTorch accepts for its own.
ALIASES = {"axis": "dim", "keepdims": "keepdim"}
# The spellings the conventions apply to (``_dispatch.install`` wraps them on every install,
# the recording one included).
KEYWORD_NAMESPACES = ("torch", "Tensor", "linalg", "fft")
# Parameters whose value a 0-dim (non-bool) tensor may give, as a Python number.
NUMBER_PARAMS = ("dim", "dim0", "dim1", "n", "p", "k", "diagonal", "offset")


def as_number(value):
    """A 0-dim non-bool, non-complex tensor as its Python number (how PyTorch's parser reads
    it where an int or a float is expected); anything else as it is.

    >>> as_number(tensorviz.tensor(1))   # -> 1
    """
    if type(value) is _Tensor and not value._shape and value._dtype.name != "bool" and \
            not value.is_complex():
        return value.item()
    return value


def handles_keywords(fn):
    """Mark an op body that applies the conventions itself (it takes ``axis=``/``keepdims=``
    and passes its ``dim`` through ``as_number``), so no wrapper is put around it: a hot op
    (``t.sum()``) saves the wrapper's call, which costs about a fifth of a 3x3 sum.  A
    recording spelling around it is still wrapped (it does not carry the mark), so autograd
    sees numbers, not tensors, as before.

    >>> @handles_keywords
    ... def sum(input, dim=None, keepdim=False, *, axis=None, keepdims=None): ...
    """
    fn.__tv_keywords__ = True
    return fn


def _wrap(fn, params: set, Tensor):
    aliases = {a: d for a, d in ALIASES.items() if d in params and a not in params}
    numbers = [p for p in NUMBER_PARAMS if p in params]
    name = getattr(fn, "__name__", "op")

    @functools.wraps(fn)
    def op(*args, **kwargs):
        if kwargs:
            for alias, canon in aliases.items():
                if alias in kwargs:
                    if canon in kwargs:
                        raise TypeError(f"{name}() got multiple values for argument '{canon}'")
                    kwargs[canon] = kwargs.pop(alias)
            for p in numbers:
                v = kwargs.get(p)
                if type(v) is Tensor:
                    kwargs[p] = as_number(v)
        return fn(*args, **kwargs)
    op.__tv_keywords__ = True
    return op


def _params(fn) -> set:
    try:
        return set(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return set()


def wrap_if_needed(fn, Tensor):
    """``fn`` wrapped when it has a parameter the conventions apply to; else ``fn``."""
    if not callable(fn) or getattr(fn, "__tv_keywords__", False) or isinstance(fn, type):
        return fn
    params = _params(fn)
    if not any(p in params for p in NUMBER_PARAMS) and not any(
            d in params and a not in params for a, d in ALIASES.items()):
        return fn
    return _wrap(fn, params, Tensor)


def install_wrapper(where: str, fn):
    """``_dispatch.HOOKS["keywords"]``: the spelling ``fn`` bound in ``where``, wrapped when
    ``where`` is one of ``KEYWORD_NAMESPACES``."""
    if where not in KEYWORD_NAMESPACES:
        return fn
    return wrap_if_needed(fn, _Tensor)


def apply(namespace: dict, Tensor, methods: bool = True) -> None:
    """Wrap, in place, the ops in ``namespace`` (a module's globals) and, with ``methods``,
    Tensor's methods."""
    for name, fn in list(namespace.items()):
        if not name.startswith("_") and inspect.isfunction(fn):
            namespace[name] = wrap_if_needed(fn, Tensor)
    if not methods:
        return
    for name, fn in list(vars(Tensor).items()):
        if not name.startswith("_") and inspect.isfunction(fn):
            setattr(Tensor, name, wrap_if_needed(fn, Tensor))
