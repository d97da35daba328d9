"""The ``meta`` backend: tensors with a shape, strides and dtype but no memory.

A meta buffer is a ``MetaArray``: a NumPy array whose strides are all 0 over one element, so
``torch.empty(10**6, 10**6, device='meta')`` costs nothing and every view of it is as cheap.
The ops run unchanged on these placeholders; the array answers with what a result would look
like instead of computing it (shape inference in one place, not per op):

- ufuncs (``+``, ``sin``, comparisons, ``matmul``) broadcast the shapes and take the dtype
  from the ufunc run on one-element stand-ins; ``reduce``/``accumulate`` (``sum``, ``max``,
  ``cumsum``) drop or keep the reduced dims the same way;
- ``reshape``, ``astype``, ``copy``, ``view``, ``where``, ``concatenate``, ``stack`` and the
  ``argmax``-like methods give placeholders of the new shape and dtype; writes are dropped;
- any other NumPy function runs on the zero-stride placeholders (reads touch one element)
  and its results become placeholders; past ``FALLBACK_LIMIT`` elements it refuses with
  NotImplementedError rather than loop over (or allocate) a huge result;
- ops whose result's size depends on the values (``nonzero``, mask indexing) raise
  PyTorch's NotImplementedError.

The tensor layer wraps results on the meta device without reading them
(``_tensor.wrap_array``), so results keep PyTorch's strides where the op computes them.

Note: the ops' own checks run as on the CPU, so a meta tensor is refused what a CPU tensor is
refused (``bool @ bool``, in place into an expanded tensor), where some of PyTorch's meta
kernels skip those checks; and an empty result's strides are the CPU's.

>>> a = meta_array((1000, 1000), np.float32); (a @ a).shape, (a + 1).dtype
((1000, 1000), dtype('float32'))
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

__all__ = ["MetaArray", "MetaBackend", "meta_array", "no_data", "no_kernel", "no_nonzero"]

#: The most elements a NumPy function without a shape rule may visit on placeholders.
FALLBACK_LIMIT = 1 << 24


def no_data() -> NotImplementedError:
    """PyTorch's error for reading a meta tensor's values."""
    return NotImplementedError("Cannot copy out of meta tensor; no data!")


def no_kernel(op: str) -> NotImplementedError:
    """PyTorch's error for an op whose result's shape depends on the values (``unique``,
    ``equal``, ``bincount``): a meta tensor has no values to decide it."""
    return NotImplementedError(
        f"aten::{op}: attempted to run this operator with Meta tensors, but there was no fake "
        "impl or Meta kernel registered. You may have run into this message while using an "
        "operator with PT2 compilation APIs (torch.compile/torch.export); in order to use this "
        "operator with those APIs you'll need to add a fake impl. Please see the following for "
        "next steps:  https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html")


def no_nonzero() -> NotImplementedError:
    """PyTorch's error for ``nonzero`` (and mask indexing) of a meta tensor."""
    return NotImplementedError(
        "The register_meta function for torch.nonzero() raises unimplemented by default, as a "
        "correct data-independent implementation does not exist. This implementation returns "
        "a fake value, assuming all elements of the tensor are non-zero. To enable this "
        "registration, please set "
        "'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' to True.")


def meta_array(shape: Sequence[int], dtype: Any) -> "MetaArray":
    """A placeholder of ``shape`` and ``dtype``: every stride 0, one element of memory."""
    shape = tuple(int(s) for s in shape)
    one = np.zeros(1, dtype)
    return np.lib.stride_tricks.as_strided(one, shape, (0,) * len(shape)).view(MetaArray)


def _plain(x):
    """``x`` with placeholders as plain zero-stride ndarrays (recursing into lists/tuples)."""
    if isinstance(x, MetaArray):
        return x.view(np.ndarray)
    if isinstance(x, (list, tuple)):
        return type(x)(_plain(v) for v in x)
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    return x


def _as_meta(x):
    """Arrays in ``x`` as placeholders of their shape and dtype (recursing into tuples)."""
    if isinstance(x, np.ndarray):
        return x if isinstance(x, MetaArray) else meta_array(x.shape, x.dtype)
    if isinstance(x, tuple):
        return type(x)(*map(_as_meta, x)) if hasattr(x, "_fields") else \
            tuple(_as_meta(v) for v in x)
    if isinstance(x, list):
        return [_as_meta(v) for v in x]
    return x


def _stand_in(x):
    """A one-element stand-in of an operand (its dims all 1), for learning a result's dtype."""
    if isinstance(x, np.ndarray):
        return np.zeros((1,) * x.ndim, x.dtype)
    return x


def _numel(x) -> int:
    return math.prod(x.shape) if isinstance(x, np.ndarray) else 1


def _meta_inputs(args) -> list:
    out = []
    for a in args:
        if isinstance(a, MetaArray):
            out.append(a)
        elif isinstance(a, (list, tuple)):
            out.extend(_meta_inputs(a))
    return out


def _resolve_shape(size: int, shape) -> tuple:
    """``shape`` with one ``-1`` resolved for ``size`` elements (ValueError as NumPy's)."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    shape = tuple(int(s) for s in shape)
    if shape.count(-1) == 1:
        known = math.prod(s for s in shape if s != -1)
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
        shape = tuple(size // known if s == -1 else s for s in shape)
    if math.prod(shape) != size:
        raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
    return shape


#: NumPy functions that only make views or read shapes: cheap on placeholders of any size.
_VIEW_FUNCTIONS = {np.transpose, np.moveaxis, np.swapaxes, np.expand_dims, np.squeeze,
                   np.broadcast_to, np.broadcast_arrays, np.atleast_1d, np.atleast_2d,
                   np.atleast_3d, np.shape, np.ndim, np.size, np.result_type,
                   np.may_share_memory, np.shares_memory, np.iscomplexobj, np.isrealobj,
                   np.real, np.imag, np.flip, np.diagonal}

#: NumPy functions that are an ndarray method on their first argument (which runs ufuncs):
#: ``np.sum(a, axis)`` is ``a.sum(axis)``.
_METHOD_FUNCTIONS = {np.sum, np.prod, np.max, np.min, np.amax, np.amin, np.mean, np.std,
                     np.var, np.any, np.all, np.cumsum, np.cumprod, np.argmax, np.argmin,
                     np.argsort, np.clip}


class MetaArray(np.ndarray):
    """A NumPy array standing for a meta tensor's data: shape and dtype only (see the
    module's docstring).  Reading values is refused; computing gives placeholders."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        out = kwargs.pop("out", None)
        kwargs.pop("where", None)
        if method == "__call__":
            result = self._call(ufunc, inputs, kwargs)
        elif method in ("reduce", "accumulate"):
            result = self._reduce(ufunc, method, inputs[0], kwargs)
        else:
            return self._fallback(getattr(ufunc, method), inputs, kwargs)
        if out is not None:  # (the values are never computed: out keeps its placeholder)
            return out[0] if len(out) == 1 else out
        return result

    @staticmethod
    def _call(ufunc, inputs, kwargs):
        with np.errstate(all="ignore"):
            probe = ufunc(*[_stand_in(x) for x in inputs], **kwargs)
        shapes = [np.shape(x) for x in inputs]
        if ufunc.signature:  # (matmul: broadcast the batch dims, then (n, k) @ (k, m))
            a, b = shapes
            a2, b2 = (a if len(a) > 1 else (1,) + a), (b if len(b) > 1 else b + (1,))
            if a2[-1] != b2[-2]:
                raise ValueError(f"{ufunc.__name__}: Input operand 1 has a mismatch in its core "
                                 f"dimension 0 (size {b2[-2]} is different from {a2[-1]})")
            shape = np.broadcast_shapes(a2[:-2], b2[:-2]) + a2[-2:-1] + b2[-1:]
            if len(a) == 1:
                shape = shape[:-2] + shape[-1:]
            if len(b) == 1:
                shape = shape[:-1]
        else:
            shape = np.broadcast_shapes(*shapes)
        if isinstance(probe, tuple):
            return tuple(meta_array(shape, np.asarray(p).dtype) for p in probe)
        return meta_array(shape, np.asarray(probe).dtype)

    @staticmethod
    def _reduce(ufunc, method, x, kwargs):
        shape = x.shape
        # the dtype (and NumPy's refusals, such as max of an empty dim) from a stand-in that
        # keeps each dim's emptiness: size 1 where the input has elements, 0 where it has none
        small = np.zeros(tuple(min(s, 1) for s in shape), x.dtype)
        with np.errstate(all="ignore"):
            probe = getattr(ufunc, method)(small, **kwargs)
        if method == "accumulate":
            return meta_array(shape, probe.dtype)
        axis = kwargs.get("axis", 0)
        if axis is None:
            axes = set(range(len(shape)))
        else:
            axes = {a % len(shape) for a in (axis if isinstance(axis, tuple) else (axis,))}
        keep = kwargs.get("keepdims", False)
        new = tuple(1 if i in axes else s for i, s in enumerate(shape) if keep or i not in axes)
        return meta_array(new, np.asarray(probe).dtype)

    @staticmethod
    def _fallback(func, args, kwargs):
        n = max((_numel(a) for a in _meta_inputs(args)), default=0)
        if n > FALLBACK_LIMIT:
            name = getattr(func, "__name__", str(func))
            raise NotImplementedError(
                f"tensorviz cannot infer the result of {name} on meta tensors of {n} elements "
                "(it runs NumPy on placeholder values, which this op would have to visit one "
                "by one); try it on a smaller meta tensor")
        with np.errstate(all="ignore"):
            return _as_meta(func(*_plain(args), **_plain(kwargs)))

    @staticmethod
    def _join(func, arrays, axis=0, out=None, **kwargs):
        """``concatenate``/``stack``: the joined shape; the dtype from stand-ins."""
        arrays = list(arrays)
        probe = func([_stand_in(a) for a in arrays], axis=axis, **kwargs)
        if out is not None:
            return out
        first = np.shape(arrays[0])
        if func is np.stack:
            axis %= len(first) + 1
            shape = first[:axis] + (len(arrays),) + first[axis:]
        elif axis is None:
            shape = (sum(_numel(a) for a in arrays),)
        else:
            axis %= max(len(first), 1)
            shape = first[:axis] + (sum(np.shape(a)[axis] for a in arrays),) + first[axis + 1:]
        return meta_array(shape, probe.dtype)

    def __array_function__(self, func, types, args, kwargs):
        if func in (np.nonzero, np.argwhere, np.flatnonzero):
            raise no_nonzero()
        if func in _VIEW_FUNCTIONS:
            return _as_meta(func(*_plain(args), **_plain(kwargs)))
        if func in _METHOD_FUNCTIONS and isinstance(args[0], MetaArray):
            name = {"amax": "max", "amin": "min"}.get(func.__name__, func.__name__)
            return getattr(args[0], name)(*args[1:], **kwargs)
        if func is np.where and len(args) == 3:
            probe = np.where(*[_stand_in(a) for a in args])
            return meta_array(np.broadcast_shapes(*map(np.shape, args)), probe.dtype)
        if func is np.take_along_axis:
            return meta_array(np.shape(args[1]), args[0].dtype)
        if func in (np.concatenate, np.stack):
            return self._join(func, *args, **kwargs)
        if func is np.reshape and isinstance(args[0], MetaArray):
            return args[0].reshape(*args[1:], **kwargs)
        if func in (np.ascontiguousarray, np.asfortranarray, np.copy, np.array, np.asarray):
            a = args[0]
            dtype = kwargs.get("dtype", args[1] if len(args) > 1 else None)
            return meta_array(a.shape, a.dtype if dtype is None else dtype)
        if func in (np.empty_like, np.zeros_like, np.ones_like, np.full_like):
            dtype = kwargs.get("dtype")
            return meta_array(kwargs.get("shape") or args[0].shape,
                              args[0].dtype if dtype is None else dtype)
        return self._fallback(func, args, kwargs)

    # ------------------------------------------------------------ shape-only methods
    def reshape(self, *shape, order="C"):
        return meta_array(_resolve_shape(self.size, shape), self.dtype)

    def ravel(self, order="C"):
        return meta_array((self.size,), self.dtype)

    flatten = ravel

    def astype(self, dtype, *args, **kwargs):
        return meta_array(self.shape, dtype)

    def copy(self, order="C"):
        return meta_array(self.shape, self.dtype)

    def view(self, *args, **kwargs):
        dtype = args[0] if args else kwargs.get("dtype")
        if dtype is None or len(args) > 1 or "type" in kwargs or (
                isinstance(dtype, type) and issubclass(dtype, np.ndarray)):
            return super().view(*args, **kwargs)
        new = np.dtype(dtype)
        if new.itemsize == self.itemsize or not self.ndim:
            return meta_array(self.shape, new)
        last = self.shape[-1] * self.itemsize
        if last % new.itemsize:
            raise ValueError("When changing to a smaller dtype, its size must be a divisor of "
                             "the size of original dtype")
        return meta_array(self.shape[:-1] + (last // new.itemsize,), new)

    def _index_result(self, axis, keepdims=False):
        shape = self.shape
        if axis is None:
            return meta_array((1,) * len(shape) if keepdims else (), np.intp)
        axis %= max(len(shape), 1)
        new = tuple(1 if i == axis else s for i, s in enumerate(shape) if keepdims or i != axis)
        return meta_array(new, np.intp)

    def argmax(self, axis=None, out=None, *, keepdims=False):
        return self._index_result(axis, keepdims)

    argmin = argmax

    def sort(self, axis=-1, kind=None, order=None, stable=None):
        return None  # (in place: the placeholder has no order to change)

    def argsort(self, axis=-1, kind=None, order=None, stable=None):
        return meta_array(self.shape, np.intp)

    def nonzero(self):
        raise no_nonzero()

    def __getitem__(self, key):
        keys = key if isinstance(key, tuple) else (key,)
        if any(isinstance(k, np.ndarray) and k.dtype == np.bool_ for k in keys):
            raise no_nonzero()  # (a mask's result size depends on its values)
        return super().__getitem__(key)

    def __setitem__(self, key, value):
        pass  # (no memory: a write changes nothing)

    def fill(self, value):
        pass

    def __bool__(self) -> bool:
        # Note: a check on the values (``(std < 0).any()``) finds nothing to refuse on the
        # meta device, as PyTorch's meta kernels skip such checks.
        return False

    def tolist(self):
        raise no_data()

    def item(self, *args):
        raise no_data()

    def tobytes(self, order="C"):
        raise no_data()

    def __repr__(self) -> str:
        return f"MetaArray(shape={self.shape}, dtype={self.dtype})"

    __str__ = __repr__


class MetaBackend:
    """The ``meta`` device: placeholders instead of memory (see the module docstring)."""

    name = "meta"
    xp = np
    ufunc_accumulate = True

    def empty(self, n: int, np_dtype, device=None) -> MetaArray:
        return meta_array((n,), np_dtype)

    zeros = empty

    def strided(self, buf, offset: int, shape: Sequence[int], stride: Sequence[int]):
        return meta_array(shape, buf.dtype)

    def to_host(self, arr):
        raise no_data()

    def from_host(self, arr, device=None) -> MetaArray:
        """``.to('meta')``: the layout travels, the values do not."""
        a = arr if isinstance(arr, np.ndarray) else np.asarray(arr)
        return meta_array(a.shape, a.dtype)

    def asarray(self, obj, np_dtype=None, device=None) -> MetaArray:
        a = np.asarray(obj, dtype=np_dtype)
        return meta_array(a.shape, a.dtype)

    def data_ptr(self, buf) -> int:
        return 0  # (as PyTorch: a meta storage has no address)

    def is_array(self, obj) -> bool:
        return isinstance(obj, np.ndarray)

    def synchronize(self) -> None:
        pass

    def quiet(self):
        return np.errstate(all="ignore")
