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
- NumPy functions with a shape rule (``_SHAPE_RULES``): linear algebra, ``einsum``,
  ``tensordot`` run on small stand-ins whose sizes keep the real ones' order, the result's
  sizes mapped back; ``repeat``/``tile``/``pad``/``take``/``fft``... by rule; integer-array
  indexing by NumPy's shape rule, without gathering;
- ``MetaNumpy`` (the backend's ``xp``) makes ``asarray``/``empty``/``eye``... placeholders,
  and ``MetaRandom`` draws placeholders, no numbers;
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
import types
from typing import Any, Sequence

import numpy as np

__all__ = ["MetaArray", "MetaBackend", "MetaNumpy", "MetaRandom", "meta_array", "no_data", "no_kernel", "no_nonzero"]

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


# ------------------------------------------------------------ shape rules
# A rule takes the NumPy function and its (args, kwargs) and gives its result as placeholders,
# or NotImplemented to run the function on the placeholders (the fallback) after all.

def _is_arr(x) -> bool:
    return isinstance(x, np.ndarray)


def _same_shape(func, args, kwargs):
    """Functions whose result has their first operand's shape (``round``, ``tril``, ``roll``,
    ``sort``): the dtype from the function run on a one-element stand-in."""
    a = args[0]
    small = np.zeros((1,) * a.ndim, a.dtype)
    rest = _plain(args[1:])
    with np.errstate(all="ignore"):
        probe = np.asarray(func(small, *rest, **_plain(kwargs)))
    return meta_array(a.shape, probe.dtype)


def _writes_only(func, args, kwargs):
    """In-place writers (``fill_diagonal``, ``copyto``, ``put``): nothing to write into."""
    return None  # (as NumPy's: these return None)


def _shrunk_stand_in(x, sizes: dict):
    """A small real array for ``x``: each dim's size replaced by its rank among the sizes in
    play (0 and 1 kept), identity matrices in the last two dims so that factorizations of it
    succeed."""
    shape = tuple(sizes[s] for s in x.shape)
    if x.ndim >= 2:
        return np.array(np.broadcast_to(np.eye(shape[-2], shape[-1], dtype=x.dtype), shape))
    return np.ones(shape, x.dtype)


def _by_small_sizes(func, args, kwargs):
    """Functions whose result sizes are sizes of their operands (linear algebra, ``einsum``,
    ``tensordot``, ``inner``, ``trace``): run on small stand-ins whose sizes keep the order
    and equalities of the real ones, then map the result's sizes back."""
    arrays = _meta_inputs(args) + [a for a in _arrays_in(args) if not isinstance(a, MetaArray)]
    dims = sorted({s for a in arrays for s in a.shape} - {0, 1})
    sizes = {0: 0, 1: 1, **{s: i + 2 for i, s in enumerate(dims)}}
    back = {v: k for k, v in sizes.items()}

    def shrink(x):
        if _is_arr(x):
            return _shrunk_stand_in(x, sizes)
        if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
            return type(x)(shrink(v) for v in x)
        return x

    with np.errstate(all="ignore"):
        probe = func(*shrink(list(args)), **kwargs)

    def grow(r):
        if isinstance(r, tuple):
            return type(r)(*map(grow, r)) if hasattr(r, "_fields") else \
                tuple(grow(v) for v in r)
        if not _is_arr(r) and not isinstance(r, np.generic):
            return r
        r = np.asarray(r)
        if any(s not in back for s in r.shape):
            raise _Unmapped
        return meta_array(tuple(back[s] for s in r.shape), r.dtype)

    try:
        return grow(probe)
    except _Unmapped:
        return NotImplemented


class _Unmapped(Exception):
    """A result size that is no operand's size: the small run cannot tell the real one."""


def _arrays_in(args) -> list:
    out = []
    for a in args:
        if _is_arr(a):
            out.append(a)
        elif isinstance(a, (list, tuple)):
            out.extend(_arrays_in(a))
    return out


def _axis_sizes(func, args, kwargs):
    """``repeat``/``tile``/``kron``/``pad``/``diff``/``take``/``searchsorted``/``isin``/
    ``count_nonzero``/``unravel_index``/``outer``/``fft``s: sizes by rule, dtype from a
    one-element run where that is cheap."""
    name = func.__name__
    a = args[0]
    shape = list(np.shape(a))
    if name == "repeat":
        reps = args[1] if len(args) > 1 else kwargs["repeats"]
        axis = args[2] if len(args) > 2 else kwargs.get("axis")
        if isinstance(reps, MetaArray) and (reps.ndim and reps.shape[0] != 1):
            raise no_data()  # (the result's size is the counts' sum: no values to add)
        total = (lambda n: n * int(np.asarray(reps).reshape(-1)[0])) if np.size(reps) == 1 \
            else (lambda n: int(np.sum(np.asarray(reps))))
        if axis is None:
            return meta_array((total(math.prod(shape)),), a.dtype)
        axis %= max(len(shape), 1)
        shape[axis] = total(shape[axis])
        return meta_array(shape, a.dtype)
    if name == "tile":
        reps = args[1] if len(args) > 1 else kwargs["reps"]
        reps = (int(reps),) if np.ndim(reps) == 0 else tuple(int(r) for r in reps)
        n = max(len(shape), len(reps))
        shape = [1] * (n - len(shape)) + shape
        reps = (1,) * (n - len(reps)) + reps
        return meta_array([s * r for s, r in zip(shape, reps)], a.dtype)
    if name == "kron":
        b = args[1]
        sa, sb = list(np.shape(a)), list(np.shape(b))
        n = max(len(sa), len(sb))
        sa, sb = [1] * (n - len(sa)) + sa, [1] * (n - len(sb)) + sb
        dt = np.result_type(_stand_in(a), _stand_in(b))
        return meta_array([x * y for x, y in zip(sa, sb)], dt)
    if name == "outer":
        b = args[1]
        dt = np.multiply(_stand_in(a).reshape(-1), _stand_in(b).reshape(-1)).dtype
        return meta_array((_numel(a), _numel(b)), dt)
    if name == "pad":
        width = args[1] if len(args) > 1 else kwargs["pad_width"]
        width = np.broadcast_to(np.asarray(width, dtype=np.int64), (len(shape), 2))
        return meta_array([s + int(lo) + int(hi) for s, (lo, hi) in zip(shape, width)],
                          a.dtype)
    if name == "diff":
        n = args[1] if len(args) > 1 else kwargs.get("n", 1)
        axis = (args[2] if len(args) > 2 else kwargs.get("axis", -1)) % len(shape)
        shape[axis] = max(shape[axis] - n, 0)
        probe = np.diff(np.zeros([2 if i == axis else 1 for i in range(len(shape))], a.dtype))
        return meta_array(shape, probe.dtype)
    if name == "take":
        idx = args[1] if len(args) > 1 else kwargs["indices"]
        axis = args[2] if len(args) > 2 else kwargs.get("axis")
        ishape = list(np.shape(idx))
        if axis is None:
            return meta_array(ishape, a.dtype)
        axis %= len(shape)
        return meta_array(shape[:axis] + ishape + shape[axis + 1:], a.dtype)
    if name == "searchsorted":
        v = args[1] if len(args) > 1 else kwargs["v"]
        return meta_array(np.shape(v), np.intp)
    if name == "isin":
        return meta_array(shape, np.bool_)
    if name == "count_nonzero":
        axis = args[1] if len(args) > 1 else kwargs.get("axis")
        keep = kwargs.get("keepdims", False)
        if axis is None and not keep:
            return meta_array((), np.intp)
        axes = set(range(len(shape))) if axis is None else \
            {x % len(shape) for x in (axis if isinstance(axis, tuple) else (axis,))}
        return meta_array([1 if i in axes else s for i, s in enumerate(shape)
                           if keep or i not in axes], np.intp)
    if name == "unravel_index":
        dims = args[1] if len(args) > 1 else kwargs["shape"]
        return tuple(meta_array(shape, np.intp) for _ in np.atleast_1d(dims))
    return NotImplemented


def _fft_sizes(func, args, kwargs):
    """``np.fft``'s transforms: the transformed dims take ``n``/``s`` (``rfft``: half plus
    one; ``irfft``/``hfft``: ``2 (m - 1)`` by default); the dtype as NumPy 2 gives it."""
    name = func.__name__
    a = args[0]
    shape = list(a.shape)
    params = ("n", "axis") if not name[-1] in "2n" else ("s", "axes")
    given = dict(zip(params, args[1:]))
    given.update({k: v for k, v in kwargs.items() if k in params})
    if params[0] == "n":
        n, axes = given.get("n"), [given.get("axis", -1)]
        s = None if n is None else [n]
    else:
        s, axes = given.get("s"), given.get("axes")
        if axes is None:
            axes = list(range(-(len(s) if s is not None else (2 if name[-1] == "2" else
                                                              len(shape))), 0))
    axes = [x % len(shape) for x in axes]
    real_out = name.startswith("irfft") or name == "hfft"
    half_out = name.startswith("rfft") or name == "ihfft"
    for i, ax in enumerate(axes):
        last = i == len(axes) - 1
        m = shape[ax]
        if s is not None and s[i] is not None and s[i] != -1:
            n = int(s[i])
        elif real_out and last:
            n = 2 * (m - 1)
        else:
            n = m
        shape[ax] = n // 2 + 1 if half_out and last else n
    single = a.dtype in (np.float32, np.complex64, np.float16)
    if real_out:
        dt = np.float32 if single else np.float64
    else:
        dt = np.complex64 if single else np.complex128
    return meta_array(shape, dt)


_SHAPE_RULES = {}
for _f in (np.round, np.around, np.rint, np.tril, np.triu, np.roll, np.sort, np.nan_to_num,
           np.fft.fftshift, np.fft.ifftshift, np.real_if_close, np.fix):
    _SHAPE_RULES[_f] = _same_shape
for _f in (np.fill_diagonal, np.copyto, np.put, np.place, np.putmask, np.put_along_axis):
    _SHAPE_RULES[_f] = _writes_only
for _f in (np.repeat, np.tile, np.kron, np.outer, np.pad, np.diff, np.take, np.searchsorted,
           np.isin, np.count_nonzero, np.unravel_index):
    _SHAPE_RULES[_f] = _axis_sizes
# (not np.cross: its 2- and 3-vectors differ in kind, which stand-in sizes would not keep)
for _f in (np.einsum, np.tensordot, np.inner, np.dot, np.vdot, np.trace,
           np.linalg.inv, np.linalg.det, np.linalg.slogdet, np.linalg.svd, np.linalg.svdvals,
           np.linalg.qr, np.linalg.cholesky, np.linalg.eigh, np.linalg.eigvalsh,
           np.linalg.eig, np.linalg.eigvals, np.linalg.solve, np.linalg.lstsq,
           np.linalg.pinv, np.linalg.matrix_rank, np.linalg.norm, np.linalg.matrix_norm,
           np.linalg.vector_norm, np.linalg.matrix_power, np.linalg.multi_dot,
           np.linalg.tensorinv, np.linalg.tensorsolve, np.linalg.cond,
           np.linalg.outer, np.linalg.trace, np.linalg.diagonal, np.linalg.vecdot,
           np.linalg.matmul, np.linalg.tensordot):
    _SHAPE_RULES[_f] = _by_small_sizes
for _f in (np.fft.fft, np.fft.ifft, np.fft.rfft, np.fft.irfft, np.fft.hfft, np.fft.ihfft,
           np.fft.fft2, np.fft.ifft2, np.fft.rfft2, np.fft.irfft2, np.fft.fftn,
           np.fft.ifftn, np.fft.rfftn, np.fft.irfftn):
    _SHAPE_RULES[_f] = _fft_sizes
del _f

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
        elif method == "at":
            return None  # (``np.add.at``: writes, which a placeholder drops)
        elif method == "outer":
            a, b = inputs
            with np.errstate(all="ignore"):
                probe = ufunc.outer(_stand_in(a), _stand_in(b), **kwargs)
            result = meta_array(np.shape(a) + np.shape(b), np.asarray(probe).dtype)
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
            shape = kwargs.get("shape")
            return meta_array(args[0].shape if shape is None else
                              ((shape,) if isinstance(shape, int) else shape),
                              args[0].dtype if dtype is None else dtype)
        rule = _SHAPE_RULES.get(func)
        if rule is not None:
            out = kwargs.pop("out", None)
            result = rule(func, args, kwargs)
            if result is not NotImplemented:
                return result if out is None else out
            if out is not None:
                kwargs["out"] = out
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
        if any(isinstance(k, (np.ndarray, list)) for k in keys):
            return meta_array(self._advanced_shape(keys), self.dtype)
        return super().__getitem__(key)

    def _advanced_shape(self, keys) -> tuple:
        """The shape ``self[keys]`` has with integer arrays among the keys (NumPy's rule: the
        index arrays and integers broadcast together; their shape stands where they are when
        they are adjacent, in front otherwise), found without gathering anything."""
        keys = [np.asarray(k) if isinstance(k, list) else k for k in keys]
        used = sum(k is not None and k is not Ellipsis for k in keys)
        if used > self.ndim:
            raise IndexError(f"too many indices for array: array is {self.ndim}-dimensional, "
                             f"but {used} were indexed")
        if Ellipsis in [k for k in keys if not isinstance(k, np.ndarray)]:
            at = next(i for i, k in enumerate(keys) if k is Ellipsis and
                      not isinstance(k, np.ndarray))
            keys[at:at + 1] = [slice(None)] * (self.ndim - used)
        else:
            keys += [slice(None)] * (self.ndim - used)
        before, after, places, shapes, dim = [], [], [], [], 0
        for i, k in enumerate(keys):
            if k is None:
                (after if places else before).append(1)
                continue
            size = self.shape[dim]
            if isinstance(k, slice):
                (after if places else before).append(len(range(*k.indices(size))))
            else:  # an index array or an integer
                k = np.asanyarray(k)
                if k.dtype.kind not in "iu":
                    raise IndexError("arrays used as indices must be of integer (or boolean) "
                                     "type")
                if k.size and not isinstance(k, MetaArray) and k.size <= FALLBACK_LIMIT:
                    lo, hi = int(k.min()), int(k.max())
                    bad = hi if hi >= size else lo if lo < -size else None
                else:
                    bad = 0 if k.size and not size else None
                if bad is not None:
                    raise IndexError(f"index {bad} is out of bounds for axis {dim} with size "
                                     f"{size}")
                places.append(i)
                shapes.append(k.shape)
            dim += 1
        index_shape = np.broadcast_shapes(*shapes)
        adjacent = places == list(range(places[0], places[-1] + 1))
        if adjacent:
            return tuple(before) + index_shape + tuple(after)
        return index_shape + tuple(before) + tuple(after)

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


class MetaNumpy(types.ModuleType):
    """The meta device's array module: NumPy, whose array makers give placeholders.

    ``np.asarray``/``np.ascontiguousarray`` would turn a placeholder into a plain NumPy view
    (and copy all its elements), and ``np.empty``/``np.zeros``/``np.eye`` of an op's result
    shape would allocate it: here they answer with placeholders, so an op written against
    ``xp`` runs unchanged on meta tensors of any size.  Everything else is NumPy's.

    >>> xp = MetaNumpy(); xp.eye(10**6).shape, xp.asarray(meta_array((3,), np.int8)).dtype
    ((1000000, 1000000), dtype('int8'))
    """

    runs_numpy = True  # (``backends.runs_numpy``: NumPy's code paths, not CuPy's)

    def __init__(self) -> None:
        super().__init__("numpy")

    def __getattr__(self, name: str):
        return getattr(np, name)

    @staticmethod
    def _like(obj, dtype):
        if isinstance(obj, MetaArray):
            return meta_array(obj.shape, obj.dtype if dtype is None else dtype)
        return None

    def asarray(self, obj, dtype=None, *args, **kwargs):
        if isinstance(obj, MetaArray) and (dtype is None or np.dtype(dtype) == obj.dtype):
            return obj
        r = self._like(obj, dtype)
        return np.asarray(obj, dtype, *args, **kwargs) if r is None else r

    asanyarray = asarray

    def array(self, obj, dtype=None, *args, **kwargs):
        r = self._like(obj, dtype)
        return np.array(obj, dtype, *args, **kwargs) if r is None else r

    def ascontiguousarray(self, obj, dtype=None, **kwargs):
        r = self._like(obj, dtype)
        return np.ascontiguousarray(obj, dtype, **kwargs) if r is None else r

    asfortranarray = ascontiguousarray

    def empty(self, shape, dtype=float, *args, **kwargs):
        return meta_array((shape,) if isinstance(shape, (int, np.integer)) else shape, dtype)

    zeros = ones = empty

    def full(self, shape, fill_value, dtype=None, *args, **kwargs):
        if dtype is None:
            dtype = np.full((), fill_value).dtype
        return self.empty(shape, dtype)

    def eye(self, N, M=None, k=0, dtype=float, *args, **kwargs):
        return meta_array((N, N if M is None else M), dtype)

    tri = eye

    def identity(self, n, dtype=float, *args, **kwargs):
        return meta_array((n, n), dtype)

    def arange(self, *args, **kwargs):
        """Real values when small (ops may index with them), a placeholder past
        ``FALLBACK_LIMIT`` elements."""
        nums = [a for a in args if not isinstance(a, (type, np.dtype))]
        start, stop, step = (0, nums[0], 1) if len(nums) == 1 else (tuple(nums) + (1,))[:3]
        n = max(math.ceil((stop - start) / step), 0)
        if n > FALLBACK_LIMIT:
            return meta_array((n,), np.arange(start, start + step, step, **kwargs).dtype)
        return np.arange(*args, **kwargs)

    def linspace(self, start, stop, num=50, *args, **kwargs):
        if num > FALLBACK_LIMIT:
            return meta_array((num,), np.linspace(start, stop, 2, *args, **kwargs).dtype)
        return np.linspace(start, stop, num, *args, **kwargs)

class MetaRandom:
    """The random generator of the meta device: each draw is a placeholder of the size asked
    for (its dtype as NumPy's draw would have), and no number is drawn, as PyTorch's meta
    tensors leave the generator's state alone.

    >>> MetaRandom().integers(0, 5, size=(10**6, 10**6)).shape
    (1000000, 1000000)
    """

    #: where each draw takes ``size`` positionally
    _SIZE_AT = {"random": 0, "standard_normal": 0, "standard_cauchy": 0,
                "standard_exponential": 0, "integers": 2, "exponential": 1, "geometric": 1,
                "lognormal": 2, "poisson": 1, "normal": 2, "uniform": 2, "binomial": 2,
                "gamma": 2}

    def __getattr__(self, name: str):
        if name == "permutation":
            return lambda x: meta_array((int(x),) if np.ndim(x) == 0 else np.shape(x),
                                        np.int64 if np.ndim(x) == 0 else np.asarray(x).dtype)
        if name not in self._SIZE_AT:
            raise AttributeError(f"the meta device draws no {name!r} samples")
        at = self._SIZE_AT[name]

        def draw(*args, **kwargs):
            size = kwargs.pop("size", args[at] if len(args) > at else None)
            args = args[:at]
            if size is None:
                shape = np.broadcast_shapes(*[np.shape(a) for a in args])
            else:
                shape = (size,) if isinstance(size, (int, np.integer)) else tuple(size)
            small = [np.ones((1,) * np.ndim(a), np.asarray(a).dtype)
                     if isinstance(a, np.ndarray) else a for a in args]
            one = np.broadcast_shapes(*[np.shape(a) for a in small]) or 1
            probe = getattr(np.random.default_rng(0), name)(*small, size=one, **kwargs)
            return meta_array(shape, probe.dtype)
        return draw

class MetaBackend:
    """The ``meta`` device: placeholders instead of memory (see the module docstring)."""

    name = "meta"
    xp = MetaNumpy()
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
