"""Recording for the Tensor spellings that are not ops of the registry: indexing
(``t[key]``, ``t[key] = v``), and -- while some op families are still declared the old way --
any method or function that has a derivative formula but no registry record.

``t[key]`` is recorded as PyTorch records it: one ``SelectBackward0`` / ``SliceBackward0`` /
``UnsqueezeBackward0`` per basic index, then one ``IndexBackward0`` for the advanced part.
``t[key] = v`` writes through a view (``CopySlices`` on ``t``) or, for advanced keys, is an
``IndexPutBackward0``.
"""
from __future__ import annotations

import builtins
import importlib
import sys

from .. import _dispatch
from .._grad_mode import _STATE
from .._tensor import Tensor
from . import _record

__all__ = ["install"]

_installed: dict = {}


def install() -> None:
    """Bind the recording ``__getitem__``/``__setitem__`` and wrap unregistered names."""
    if _installed:
        return
    raw_get = Tensor.__getitem__
    raw_set = Tensor.__setitem__
    _installed["__getitem__"] = raw_get
    _installed["__setitem__"] = raw_set
    Tensor.__getitem__ = _make_getitem(raw_get)
    Tensor.__setitem__ = _make_setitem(raw_get, raw_set)
    registered = set()  # (every name a registry spelling already records: never wrap twice)
    for r in _dispatch.registry().values():
        prefix = "" if r.namespace == "torch" else r.namespace + "."
        registered.update(prefix + n for n in (r.name,) + tuple(r.aliases))
        registered.update(r.also)
    torch_ns = sys.modules["tensorviz"]
    names = list(_record.FORMULAS) + [n for n in _record.COMPOSITES if n not in
                                      _record.FORMULAS]
    names.sort(key=lambda n: "." in n)  # (the package's own functions first: see below)
    wrapped: dict = {}  # id(plain function) -> its recording spelling
    for name in names:
        if name in registered or name.startswith("__"):
            continue
        view = name in _VIEW_OPS
        rec = _Pseudo(name, view)
        if "." in name:  # (linalg.inv, special.expit, fft.rfft: the namespace's function)
            ns, _, short = name.partition(".")
            module = importlib.import_module(f"tensorviz.{ns}")
            fn = vars(module).get(short)
            if callable(fn) and not isinstance(fn, type):
                # (special.gammaln is tensorviz.lgamma: it stays the very same function)
                same = wrapped.get(id(fn))
                setattr(module, short, same if same is not None else
                        _record.recording(rec, "function", fn))
            continue
        meth = vars(Tensor).get(name) if isinstance(vars(Tensor).get(name), property) else \
            getattr(Tensor, name, None)
        if isinstance(meth, property) and meth.fget is not None:  # (t.real, t.T, t.mH ...)
            setattr(Tensor, name, property(_record.recording(rec, "method", meth.fget),
                                           meth.fset, meth.fdel, meth.__doc__))
        elif callable(meth) and not isinstance(meth, type):
            setattr(Tensor, name, _record.recording(rec, "method", meth))
        fn = vars(torch_ns).get(name)
        if callable(fn) and not isinstance(fn, type):
            w = _record.recording(rec, "function", fn)
            wrapped[id(fn)] = w
            setattr(torch_ns, name, w)
        inplace = getattr(Tensor, name + "_", None)
        if callable(inplace) and name + "_" not in registered:
            setattr(Tensor, name + "_", _record.recording(rec, "inplace", inplace))
    if "set_" not in registered:  # (an in-place write for autograd, as PyTorch's: refused
        # on a leaf or a view of one, recorded as its NotImplemented node otherwise)
        Tensor.set_ = _record.recording(_Pseudo("set_", False), "inplace", Tensor.set_)


class _Pseudo:
    """A registry-like record for a spelling not (yet) declared with ``@op``."""

    def __init__(self, name: str, view: bool):
        self.name = self.qualname = name
        self.view = view


# the view ops PyTorch records as views (their results share the input's memory)
_VIEW_OPS = frozenset((
    "view", "view_as", "reshape", "reshape_as", "flatten", "unflatten", "t", "transpose",
    "swapaxes", "swapdims", "permute", "movedim", "moveaxis", "squeeze", "unsqueeze", "expand",
    "expand_as", "broadcast_to", "narrow", "select", "unfold", "diagonal", "as_strided",
    "split", "split_with_sizes", "chunk", "unbind", "tensor_split", "hsplit", "vsplit",
    "dsplit", "detach", "real", "imag", "view_as_real", "view_as_complex", "adjoint", "ravel",
    "T", "mT", "H", "mH", "alias", "_slice", "contiguous"))

_ADVANCED = (list, Tensor)


def _is_advanced(k) -> bool:
    if isinstance(k, Tensor):
        return not (k._shape == () and k._dtype.category in (1,))  # (0-d int tensor: select)
    if isinstance(k, (list, tuple)) or (hasattr(k, "__array__") and not isinstance(k, Tensor)):
        return True
    return isinstance(k, builtins.bool)


def _make_getitem(raw_get):
    def __getitem__(self, key):
        if not _STATE.grad or _STATE.inference or not _record.requires_grad(self):
            out = raw_get(self, key)
            if _STATE.inference:
                _record._mark_inference((self,), out)
            elif not _STATE.user_grad and isinstance(out, Tensor) and out is not self and \
                    out._vb is not None:
                if _record.requires_grad(self):
                    _record._mark_view(self, (out,), creation="no_grad")
                elif out._ag is None:  # (a view of a tensor that needs no grad: PyTorch
                    out._ag = _record._NoGradViewMeta()  # refuses writing it in place later)
            return out
        return _record_getitem(raw_get, self, key)
    __getitem__.__doc__ = raw_get.__doc__
    __getitem__.__wrapped__ = raw_get
    return __getitem__


def _normalize(key) -> tuple:
    return key if type(key) is tuple else (key,)


def _record_getitem(raw_get, t: Tensor, key):
    single_slice = type(key) is slice
    items = _normalize(key)
    _STATE.grad = False
    try:
        out = raw_get(t, key)
    finally:
        _STATE.grad = True
    # the basic part, as a chain of recorded views
    n_specified = builtins.sum(_dims_used(k) for k in items)
    cur = t
    dim = 0
    advanced = []
    for k in items:
        if k is Ellipsis:
            dim += len(t._shape) - n_specified
            continue
        if k is None:
            cur = _step(cur, "unsqueeze", (cur, dim), lambda c, d=dim: raw_get(c, (slice(None),) * d
                                                                              + (None,)))
            dim += 1
            continue
        if isinstance(k, Tensor) and k._shape == () and k._dtype.category == 1:
            k = builtins.int(k.item())
        if isinstance(k, (builtins.int,)) and not isinstance(k, builtins.bool) or \
                hasattr(k, "__index__") and not isinstance(k, (Tensor, builtins.bool)) and \
                not isinstance(k, (list, tuple)):
            i = k.__index__()
            cur = _step(cur, "select", (cur, dim, i),
                        lambda c, d=dim, i=i: raw_get(c, (slice(None),) * d + (i,)))
            continue
        if type(k) is slice:
            size = cur._shape[dim]
            start, stop, step = k.indices(size)
            if single_slice or not (start == 0 and stop == size and step == 1):
                cur = _step(cur, "_slice", (cur, dim, start, stop, step),
                            lambda c, d=dim, k=k: raw_get(c, (slice(None),) * d + (k,)))
            dim += 1
            continue
        advanced.append((dim, k))
        dim += _dims_used(k)
    if not advanced:
        if cur is t:  # (x[...] or x[()] : an alias)
            cur = _step(cur, "alias", (cur,), lambda c: raw_get(c, ...))
        _share_result(cur, out)
        return out
    # the advanced part: one IndexBackward0 on the basic view
    adv_key = []
    pos = 0
    for d, k in advanced:
        adv_key.extend([slice(None)] * (d - pos))
        adv_key.append(k)
        pos = d + _dims_used(k)
    base_view = cur
    adv_key = tuple(adv_key)
    return _record.record("index", (base_view, adv_key), {}, out)


def _dims_used(k) -> int:
    if k is None or k is Ellipsis:
        return 0
    if isinstance(k, Tensor) and k._dtype.category == 0:
        return max(1, len(k._shape)) if k._shape else 0
    if isinstance(k, builtins.bool):
        return 0
    return 1


def _step(cur: Tensor, name: str, args: tuple, make):
    _STATE.grad = False
    try:
        out = make(cur)
    finally:
        _STATE.grad = True
    return _record.record(name, args, {}, out, view=True)


def _share_result(chain_end: Tensor, out: Tensor) -> None:
    """``out`` (the exact result of the indexing) takes the chain's last node."""
    if chain_end is out:
        return
    ag = chain_end._ag
    from .._autograd_meta import meta
    m = meta(out)
    m.grad_fn = ag.grad_fn
    m.output_nr = ag.output_nr
    m.base = ag.base
    m.view_version = ag.view_version
    m.replay = ag.replay
    m.creation = ag.creation


def _make_setitem(raw_get, raw_set):
    def __setitem__(self, key, value):
        grad_on = _STATE.grad and not _STATE.inference
        if not grad_on or not (_record.requires_grad(self) or _record.requires_grad(value)):
            return raw_set(self, key, value)
        items = _normalize(key)
        if builtins.any(_is_advanced(k) for k in items):
            _record.check_inplace(self, True)
            return _record.record_inplace("index_put_", _index_put(raw_set, key),
                                          (self, key, value), {})
        _STATE.grad = False
        try:
            view = raw_get(self, key)
        finally:
            _STATE.grad = True
        _record._mark_view(self, (view,))
        requires = _record.requires_grad(self)
        _check_view_write(self, key, view, requires)
        if isinstance(value, Tensor):
            _record.record_inplace("copy_", Tensor.copy_.__wrapped__
                                   if hasattr(Tensor.copy_, "__wrapped__") else Tensor.copy_,
                                   (view, value), {})
        else:
            _record.record_inplace("fill_", _fill_raw(), (view, value), {})
    __setitem__.__doc__ = raw_set.__doc__
    __setitem__.__wrapped__ = raw_set
    return __setitem__


def _check_view_write(self: Tensor, key, view: Tensor, requires: bool) -> None:
    """``check_inplace`` of ``self[key] = value``'s view.  Refused: PyTorch's indexing of a
    ``self`` that requires grad recorded ``SelectBackward0``/``SliceBackward0`` ..., which its
    message names ("Output 0 of Select is a view of a view which ..."): the view is taken
    again through the recording indexing (only on this error path) for that message."""
    try:
        _record.check_inplace(view, True, requires)
    except RuntimeError:
        if requires:
            _record.check_inplace(self[key], True, True)
        raise


def _fill_raw():
    f = Tensor.fill_
    return getattr(f, "__wrapped__", f)


def _index_put(raw_set, key):
    def put(self, key_, value):
        raw_set(self, key_, value)
        return self
    return put
