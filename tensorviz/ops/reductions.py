"""Reductions and scans: sum, mean, std/var, norm, max/min (with indices), median, mode,
logsumexp, cumulative ops, unique, bincount, histc, diff, with PyTorch's dtype rules.

A reduction over ``dims`` computes, on the backend's strided array view::

    out[kept index] = reduce(x[kept index, reduced indices...])   # keepdim keeps size-1 dims

``dim`` may be an int, a tuple/list of ints or None (all dims).  Ops that return values and
indices give named tuples from ``tensorviz.return_types`` that print as PyTorch's do.
"""
from __future__ import annotations

import builtins
import math
import warnings

import numpy as np

from .. import _chalf, _dtypes, _layout, return_types
from .._device import CPU
from .._dtypes import _COMPLEX, _FLOAT, _INT
from .._indexing import check_partial_overlap, check_writable
from .._tensor import Tensor, _contig, _fresh, tensor_device
from .._tensor import wrap_array as _wrap_array
from ..backends import runs_numpy
from ..backends._numpy import call_quiet, context_busy, quiet_run
from .._dispatch import inplace_of, op, resize_out, store_inplace, write_out
from ._args import bool_arg, spacing_overload, type_name
from ._keywords import as_number, handles_keywords
from ._stdsort import std_sort
from .indexing import _ufunc_at
from .pointwise import _check_tensor, _not_implemented, _opmath, _xp

_add_reduce = np.add.reduce

# ---------------------------------------------------------------- helpers
def _refuse_meta(t: Tensor, aten: str) -> None:
    """PyTorch's NotImplementedError for an op whose result's size depends on the values,
    which a meta tensor does not have."""
    if t._storage._device.type == "meta":
        from ..backends._meta import no_kernel
        raise no_kernel(aten)



def wrap_array(arr, dt=None, dev=CPU, stride=None) -> Tensor:
    """A reduction's or scan's result as a new row-major tensor: PyTorch allocates these
    contiguous whatever the input's layout (NumPy keeps a transposed input's order)."""
    return _wrap_array(arr, dt, dev, _contig(arr.shape) if stride is None else stride)


def finish(result, rdt, dev, out, stride=None) -> Tensor:
    """A reduction's result as a new row-major tensor (see ``wrap_array``), or written into
    ``out`` with the ``out=`` casting rule (``_dispatch.write_out``)."""
    if out is not None:
        return write_out(out, result, rdt, dev)
    return _wrap_array(result, rdt, dev, _contig(result.shape) if stride is None else stride)


def _alias(name: str, value, alias_value, alias_name: str, default=None):
    if alias_value is not None:
        if value is not default and value is not None and value is not False:
            raise TypeError(f"{name}() got multiple values for argument '{alias_name}'")
        return alias_value
    return value


class _DimNotGiven:
    """Default of ``dim`` where PyTorch tells ``dim=None`` (all dims, keepdim allowed) from no
    ``dim`` at all (no overload takes keepdim alone); reads as None."""

    def __repr__(self) -> str:
        return "None"


_NO_DIM = _DimNotGiven()


def _check_keepdim_needs_dim(name: str, dim, keepdim) -> bool:
    """PyTorch's ``sum``/``mean``/``max``... have no overload taking keepdim without dim."""
    if dim is None and keepdim is not None:
        raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, "
                        f"keepdim=bool), but expected (Tensor input, int dim, bool keepdim)")
    return _keepdim(name, keepdim, True)


def _keepdim(name: str, keepdim, default_none: bool = False) -> bool:
    """``keepdim`` as PyTorch's parser takes it: True or False only (``sum(0, 1)`` and
    ``sum(0, torch.float32)`` are its TypeError); None as False where tensorviz's default is
    None (``default_none``: it cannot tell an explicit None there)."""
    if keepdim is True or keepdim is False:
        return keepdim
    if keepdim is None and default_none:
        return False
    return bool_arg(keepdim, name, "keepdim")


def _is_int(v) -> bool:
    return isinstance(v, (builtins.int, np.integer)) and not isinstance(v, builtins.bool)


def _dims(x: Tensor, dim) -> tuple[int, ...] | None:
    """Normalized reduction dims; None means every dim (also for ``dim=()``)."""
    if dim is None:
        return None
    if _is_int(dim) or (isinstance(dim, Tensor) and not dim._shape):
        dims = (builtins.int(dim),)  # (a 0-dim tensor, a bool one too: PyTorch's int list)
    else:
        if isinstance(dim, (str, bytes)) or not hasattr(dim, "__iter__"):
            raise TypeError(f"argument 'dim' must be tuple of ints, not {type_name(dim)}")
        dims = tuple(d if type(d) is builtins.int else _layout._dim_index(d) for d in dim)
        if not dims:
            return None
    return _layout.normalize_dims(dims, len(x._shape))


def _axis(x: Tensor, dims):
    """The backend's ``axis=`` for ``dims`` (None for all dims, or for a 0-dim tensor)."""
    if dims is None or not x._shape:
        return None
    return dims


def _count(x: Tensor, dims) -> int:
    if dims is None or not x._shape:
        return _layout.numel(x._shape)
    return _layout.numel([x._shape[d] for d in dims])


def _cast_arr(x: Tensor, cdt, rdt=None, arr=None):
    """``x``'s values as ``cdt`` (quietly: NaN/inf to an integer is unspecified, as in
    PyTorch); with ``rdt``, rounded to the requested result dtype on the way, as PyTorch
    converts the input to ``dtype=`` before accumulating in a wider type.  ``arr``: the
    values to use in place of ``x``'s own (same dtype)."""
    arr = x._arr if arr is None else arr
    if x._dtype is cdt and (rdt is None or rdt is cdt):
        return arr
    if x._dtype.category == _COMPLEX and cdt.category != _COMPLEX:
        # (a complex value is True when either part is nonzero, as C++'s cast to bool)
        arr = arr != 0 if _dtypes.bool in (cdt, rdt) else arr.real
    if rdt is not None and rdt is not cdt and rdt is not x._dtype:
        arr = call_quiet(arr.astype, rdt._np)
    return call_quiet(arr.astype, cdt._np)


def _keep(x: Tensor, res, dims, keepdim: bool):
    """Reshape a keepdims=True result to PyTorch's shape for ``keepdim``."""
    if keepdim or not x._shape:
        return res
    shape = tuple(s for i, s in enumerate(x._shape) if dims is not None and i not in dims)
    return res.reshape(shape)


def _check_real(name: str, x: Tensor, kernel: str | None = None) -> None:
    if x._dtype.category == _COMPLEX:
        if kernel:
            raise _not_implemented(kernel, x._dtype)
        raise RuntimeError(f"{name}(): does not support complex input")


def _nonempty(name: str, x: Tensor, dims) -> None:
    if dims is None or not x._shape:
        if x.numel() == 0:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for "
                               "input.numel() == 0. Specify the reduction dim with the 'dim' "
                               "argument.")
        return
    for d in dims:
        if x._shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def _out2(result, out):
    """Write a (values, indices) pair into ``out=(v, i)`` when given."""
    if out is None:
        return result
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        raise TypeError("out must be a tuple of two tensors")
    for src, dst in zip(result, out):
        write_out(dst, src._arr, src._dtype, tensor_device(src))
    cls = getattr(return_types, type(result).__name__ + "_out")
    return cls(*out)


# ---------------------------------------------------------------- sum / prod / mean
def _sum_like(name: str, xp_fn: str, input, dim, keepdim, dtype, out, nan: bool = False):
    # Note: NumPy's pairwise sum adds in another order than PyTorch's vectorized cascade,
    # whose lanes are as wide as the machine's (AVX2 or AVX-512): where terms cancel
    # (2**63 - 2**63 beside small integers) the two differ within the error bound of any
    # summation order, n * eps * sum(|x|), and PyTorch differs from itself by machine.
    _check_tensor(name, input)
    keepdim = _keepdim(name, keepdim)
    dims = _dims(input, dim)
    if dtype is None and isinstance(out, Tensor):
        dtype = out._dtype  # (PyTorch computes in out's dtype when no dtype= is given)
    elif isinstance(out, Tensor) and out._dtype is not dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {dtype.cxx_name}, but "
                           f"got {out._dtype.cxx_name} instead")
    if dtype is not None:
        rdt = dtype
    elif input._dtype.category <= _INT:
        rdt = _dtypes.int64
    else:
        rdt = input._dtype
    # (a 16-bit product is PyTorch's a * b in the dtype itself, rounded at each step as
    # NumPy's float16 and ml_dtypes' bfloat16 reductions round: 300 * 300 * (1 / 300) is inf
    # in float16; sums accumulate in float32)
    cdt = rdt if name == "prod" and rdt in _dtypes.HALVES else _opmath(rdt)
    xp = _xp(input)
    if name == "sum" and input._dtype.category == _COMPLEX and rdt in (_dtypes.float32,
                                                                        _dtypes.float64):
        warnings.warn("Casting complex values to real discards the imaginary part", UserWarning,
                      stacklevel=4)  # (PyTorch warns in sum only, not prod/mean/cumsum)
    src = input._arr
    if nan and input._dtype.category == _FLOAT:  # NaN counts as 0 before any dtype= cast
        src = xp.where(xp.isnan(src), src.dtype.type(0), src)
        if input._dtype is _dtypes.float16 and rdt.category == _INT:
            # (PyTorch's nansum of a float16 input to an integer dtype converts an infinity
            # as the largest half, +-65504, where .to() and sum give INT_MIN: checked
            # against PyTorch 2.13 for every integer dtype)
            src = xp.clip(src, -65504.0, 65504.0).astype(src.dtype)
    arr = _cast_arr(input, cdt, rdt, src)
    axis = _axis(input, dims)

    def f():
        if cdt is rdt and name == "prod" and rdt in _dtypes.HALVES and arr.size:
            return _stepwise_prod(xp, arr, axis)
        return getattr(xp, xp_fn)(arr, axis=axis, keepdims=True)
    res = _keep(input, call_quiet(f), dims, keepdim)
    return finish(res, rdt, tensor_device(input), out)


def _stepwise_prod(xp, arr, axis):
    """The product over ``axis`` (None or a tuple: row-major over those dims) of a 16-bit
    ``arr`` rounded to its dtype at each step, as PyTorch's CPU loop multiplies (NumPy's own
    float16 reduction accumulates in float32): ``multiply.accumulate``'s last element.

    # Note: from 4 vectors' worth of a contiguous row (64 or 128 elements, by the machine's
    # vector width) PyTorch multiplies lanes apart and then combines them; tensorviz keeps
    # the one order, so long products may differ in their last bits."""
    axes = tuple(range(arr.ndim)) if axis is None else \
        (axis if isinstance(axis, tuple) else (axis,))
    # (over the reduced dims in memory order, as TensorIterator walks them: a transposed
    # matrix's product is its storage's, row by row)
    axes = tuple(sorted((a % arr.ndim for a in axes), key=lambda a: -builtins.abs(
        arr.strides[a]))) if arr.ndim else ()
    keep = [d for d in range(arr.ndim) if d not in axes]
    moved = xp.transpose(arr, keep + list(axes)) if arr.ndim else arr.reshape(1)
    flat = moved.reshape(moved.shape[:len(keep)] + (-1,))
    last = xp.multiply.accumulate(flat, axis=-1)[..., -1]
    shape = [1 if d in axes else arr.shape[d] for d in range(arr.ndim)]
    return last.reshape(shape)


#: ``t.sum()``'s fast path: the result dtype by input dtype (bool and integers sum to int64);
#: float16 and bfloat16 are not here (they accumulate in float32: ``_sum_like``).
_SUM_DTYPE = {d: (_dtypes.int64 if d.category <= _INT else d) for d in _dtypes.ALL_DTYPES
              if d not in _dtypes.HALVES}
_empty = np.empty
_new = object.__new__


@handles_keywords
@op()
def sum(input: Tensor, dim=_NO_DIM, keepdim: bool | None = None, *, dtype=None, out=None,
        axis=None, keepdims=None) -> Tensor:
    """Sum over ``dim`` (all dims by default); bools and integers sum to int64."""
    if dim is _NO_DIM and dtype is None and keepdim is None and out is None and \
            axis is None and keepdims is None and type(input) is Tensor:
        arr = input._a
        if arr is None:
            arr = input._arr
        rdt = _SUM_DTYPE.get(input._dtype)
        if type(arr) is np.ndarray and rdt is not None:
            # Fast path, t.sum() on the CPU: what _sum_like computes (np.sum is add.reduce
            # behind a wrapper that costs more than a small sum), into a 0-dim result of
            # PyTorch's dtype.
            res = _empty((), rdt._np)
            try:  # call_quiet, inlined
                quiet_run(_add_reduce, arr, None, None, res)
            except RuntimeError as e:
                if not context_busy(e):
                    raise
                call_quiet(_add_reduce, arr, None, None, res)
            t = _new(Tensor)  # (_fresh, inlined; tests compare the two)
            t._dtype = rdt
            t._offset = 0
            t._shape = ()
            t._stride = ()
            t._a = res
            t._ag = None
            t._vc = None
            t._cj = False
            t._vb = None
            return t
    if type(dim) is int and dtype is None and out is None and axis is None and \
            keepdims is None and (keepdim is None or type(keepdim) is bool) and \
            type(input) is Tensor:
        res = _float_reduce(_add_reduce, input, dim, keepdim)
        if res is not None:
            return res
    dtype = _dtypes.as_dtype(dtype)  # (dtype=float and the like: Python types)
    if type(dim) is Tensor or type(axis) is Tensor:  # (what the keyword wrapper does)
        dim, axis = as_number(dim), as_number(axis)
    given = dim is not _NO_DIM or axis is not None  # (sum(dim=None, keepdim=True) is valid)
    dim = _alias("sum", None if dim is _NO_DIM else dim, axis, "dim")
    keepdim = _alias("sum", keepdim, keepdims, "keepdim", None)
    keepdim = _keepdim("sum", keepdim, True) if given else \
        _check_keepdim_needs_dim("sum", None, keepdim)
    return _sum_like("sum", "sum", input, dim, keepdim, dtype, out)


_FLOAT_REDUCE = (_dtypes.float32, _dtypes.float64)


def _float_reduce(reduce, input: Tensor, dim: int, keepdim, divide: bool = False):
    """``reduce`` (``np.add.reduce``) of a row-major CPU float32/float64 tensor over the one
    dim ``dim`` (None: every dim) -- the general path's NumPy reduction, result and layout, without its argument
    handling (``sum(x, 1)``, ``x.mean(0)`` in every hand-written loss) -- divided by the
    dim's size for ``divide`` (a mean); None for anything else (the general path decides)."""
    arr = input._a
    shape = input._shape
    if type(arr) is not np.ndarray or input._dtype not in _FLOAT_REDUCE or not shape or \
            input._stride != _contig(shape):
        return None
    if dim is None:  # (every dim: x.mean())
        d, keep, count = None, False, arr.size
    else:
        n = len(shape)
        d = dim + n if dim < 0 else dim
        if not 0 <= d < n:
            return None
        keep, count = keepdim is True, shape[d]
    if divide:
        res = call_quiet(_reduce_mean, reduce, arr, d, keep, arr.dtype.type(count))
    else:
        res = call_quiet(reduce, arr, d, None, None, keep)
    if type(res) is not np.ndarray:
        res = np.asarray(res)
    if res.dtype is not arr.dtype or not res.flags.c_contiguous:
        return None
    rshape = res.shape
    return _fresh(input._dtype, rshape, _contig(rshape), res)


def _reduce_mean(reduce, arr, d, keep, n):
    r = reduce(arr, d, None, None, keep)
    r /= n
    return r


@op()
def nansum(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None, out=None) -> Tensor:
    """Sum treating NaN as zero."""
    dtype = _dtypes.as_dtype(dtype)  # (dtype=float and the like: Python types)
    _check_tensor("nansum", input)
    _dims(input, dim)
    if input._dtype.category == _COMPLEX:
        raise RuntimeError("nansum does not support complex inputs")
    if dtype is not None and dtype.category == _COMPLEX and input._dtype.category == _FLOAT \
            and input.numel():  # (an empty input runs no kernel: its sum is 0)
        raise _not_implemented("nansum_cpu", dtype)
    return _sum_like("nansum", "sum", input, dim, keepdim, dtype, out, nan=True)


@op()
def prod(input: Tensor, dim=_NO_DIM, keepdim: bool | None = None, *, dtype=None,
         out=None) -> Tensor:
    """Product over ``dim`` (an int) or of all elements; bools and integers give int64."""
    dtype = _dtypes.as_dtype(dtype)  # (dtype=float and the like: Python types)
    if dim is _NO_DIM:
        dim = None
    elif dim is None:  # (no overload takes dim=None: PyTorch's parser refuses it)
        raise TypeError("prod() received an invalid combination of arguments - got (NoneType), "
                        "but expected one of: (Tensor input, *, torch.dtype dtype = None), "
                        "(Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = "
                        "None, Tensor out = None)")
    elif type(dim) is Tensor:  # (a 0-dim integer tensor reads as its int, as PyTorch's)
        dim = as_number(dim)
    keepdim = _check_keepdim_needs_dim("prod", dim, keepdim)
    if dim is not None and not _is_int(dim):
        raise TypeError("prod(): argument 'dim' must be int, not " + type_name(dim))
    return _sum_like("prod", "prod", input, dim, keepdim, dtype, out)


def _mean_dtype(name: str, x: Tensor, dtype):
    if dtype is not None:
        if dtype.category < _FLOAT:
            raise RuntimeError(f"{name}(): could not infer output dtype. Optional dtype must be "
                               f"either a floating point or complex dtype. Got: {dtype.cname}")
        return dtype
    if x._dtype.category < _FLOAT:
        raise RuntimeError(f"{name}(): could not infer output dtype. Input dtype must be either "
                           f"a floating point or complex dtype. Got: {x._dtype.cname}")
    return x._dtype


@op()
def mean(input: Tensor, dim=_NO_DIM, keepdim: bool | None = None, *, dtype=None, out=None,
         axis=None, keepdims=None) -> Tensor:
    """Arithmetic mean over ``dim``; floating point or complex only (``dtype=`` to convert)."""
    # Note: the sum's order is NumPy's, not PyTorch's machine-dependent cascade (_sum_like).
    if type(dim) is int and dtype is None and out is None and axis is None and \
            keepdims is None and (keepdim is None or type(keepdim) is bool) and \
            type(input) is Tensor:
        res = _float_reduce(_add_reduce, input, dim, keepdim, divide=True)
        if res is not None:
            return res
    elif dim is _NO_DIM and keepdim is None and dtype is None and out is None and \
            axis is None and keepdims is None and type(input) is Tensor:
        res = _float_reduce(_add_reduce, input, None, None, divide=True)
        if res is not None:
            return res
    dtype = _dtypes.as_dtype(dtype)  # (dtype=float and the like: Python types)
    _check_tensor("mean", input)
    given = dim is not _NO_DIM or axis is not None  # (mean(dim=None, keepdim=True) is valid)
    dim = _alias("mean", None if dim is _NO_DIM else dim, axis, "dim")
    keepdim = _alias("mean", keepdim, keepdims, "keepdim", None)
    keepdim = _keepdim("mean", keepdim, True) if given else _check_keepdim_needs_dim("mean", None,
                                                                              keepdim)
    rdt = _mean_dtype("mean", input, dtype)
    dims = _dims(input, dim)
    cdt = _opmath(rdt)
    xp = _xp(input)
    arr = _cast_arr(input, cdt)  # (no rounding to dtype= first: PyTorch's mean does not)
    n = _count(input, dims)
    res = call_quiet(lambda: xp.sum(arr, axis=_axis(input, dims), keepdims=True) /
                     cdt._np.type(n))
    return finish(_keep(input, res, dims, keepdim), rdt, tensor_device(input), out)


@op()
def nanmean(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None, out=None) -> Tensor:
    """Mean of the non-NaN elements (NaN where there are none)."""
    dtype = _dtypes.as_dtype(dtype)  # (dtype=float and the like: Python types)
    _check_tensor("nanmean", input)
    if input._dtype.category < _FLOAT:
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype "
                           f"but got {input._dtype.cname}")
    if dtype is not None:
        _mean_dtype("nanmean", input, dtype)
    _dims(input, dim)
    if input._dtype.category == _COMPLEX:
        raise RuntimeError("nansum does not support complex inputs")
    rdt = dtype or input._dtype
    if rdt.category == _COMPLEX:
        raise _not_implemented("nansum_cpu", rdt)
    dims = _dims(input, dim)
    cdt = _opmath(rdt)
    xp = _xp(input)
    arr = _cast_arr(input, cdt, rdt)
    axis = _axis(input, dims)

    def f():
        bad = xp.isnan(arr)
        s = xp.sum(xp.where(bad, arr.dtype.type(0), arr), axis=axis, keepdims=True)
        if rdt is not cdt:  # PyTorch divides nansum's (rounded) result
            s = s.astype(rdt._np).astype(cdt._np)
        c = xp.sum(~bad, axis=axis, keepdims=True)
        return s / c.astype(arr.dtype)
    return finish(_keep(input, call_quiet(f), dims, keepdim), rdt, tensor_device(input), out)


# ---------------------------------------------------------------- var / std
def _correction(unbiased, correction):
    if correction is not None:
        if unbiased is not None:
            raise RuntimeError("Cannot specify both unbiased and correction")
        return correction
    return 0 if unbiased is False else 1


def _var_parts(name: str, input, dim, unbiased, keepdim, correction, want_mean: bool):
    _check_tensor(name, input)
    if isinstance(dim, builtins.bool):  # var(x, False): the legacy `unbiased` position
        unbiased, dim = dim, None
    elif isinstance(dim, Tensor):  # (PyTorch's int list: a 0-dim tensor is one dim)
        dim = builtins.int(dim.item()) if not dim._shape else [builtins.int(d) for d in
                                                                 dim.tolist()]
    if isinstance(correction, Tensor):  # (a 0-dim tensor is its number, as PyTorch's parser)
        if correction._shape:
            raise TypeError(f"{name}() received an invalid combination of arguments - got "
                            "(Tensor, correction=Tensor): correction is a number")
        correction = correction.item()
    keepdim = _keepdim(name, keepdim)
    if dim is not None and not _is_int(dim) and len(tuple(dim)) == 0:
        dim = None  # (dim=() reduces everything; keepdim=True keeps every dim as size 1)
    if input._dtype.category < _FLOAT:
        raise RuntimeError("std and var only support floating point and complex dtypes")
    corr = _correction(unbiased, correction)
    dims = _dims(input, dim)
    n = _count(input, dims)
    dof = n - corr
    # PyTorch's reduction factor is input numel / output numel: 0 for any empty input
    if (n if input.numel() else 0) - corr <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=4)
    dt = input._dtype
    rt = dt.to_real()
    # Accumulated in double precision, as PyTorch's CPU kernels do (Welford's updates in
    # double). A complex variance is its real part's plus its imaginary part's, each
    # rounded to the real dtype first, and its mean is built of the two parts' means.
    # PyTorch's var/std of a float32 or float64 input (or part) down to one element take
    # another path (std_var_all_cpu): the mean is mean()'s, in the input's dtype, then the
    # squared deviations are summed in double; a float32 sum past the float range makes
    # that mean, and so the variance, infinite (std of [3.4e38, 3.4e38, 1.] is inf).
    # Note: squared deviations past the double range give an infinite variance here;
    # PyTorch's Welford updates give NaN there (var([1e308, -1e308, 1.], 1) along a dim:
    # inf - inf), and a NaN mean in var_mean where tensorviz's is 1/3.
    xp = _xp(input)
    parts = (input._arr.real, input._arr.imag) if dt.category == _COMPLEX else (input._arr,)
    axis = _axis(input, dims)
    in_dtype_mean = not want_mean and rt in (_dtypes.float32, _dtypes.float64) and \
        n == input.numel()

    def part(a):
        a64 = a.astype(np.float64, copy=False)
        if in_dtype_mean:
            m = xp.sum(a, axis=axis, keepdims=True) / a.dtype.type(n)
        elif n:  # (Welford's mean: within the range where the values are, sum(x / n) too)
            m = xp.sum(a64 / n, axis=axis, keepdims=True)
            # (Welford's updates keep a constant slice's mean exactly its value and its
            # squared deviations exactly 0: no rounding of sum(x / n) left over, so a
            # variance with no degrees of freedom is 0 / 0, NaN, as PyTorch's)
            hi = xp.max(a64, axis=axis, keepdims=True)
            m = xp.where(hi == xp.min(a64, axis=axis, keepdims=True), hi, m)
        else:  # (nothing reduced: 0 / 0)
            m = xp.sum(a64, axis=axis, keepdims=True) / n
        d = a64 - m
        den = builtins.max(0, dof) if n else 0  # (nothing reduced: NaN, whatever correction)
        return xp.sum(d * d, axis=axis, keepdims=True) / den, m

    def f():
        if len(parts) == 1:
            return part(parts[0])
        (vr, mr), (vi, mi) = part(parts[0]), part(parts[1])
        m = xp.empty(mr.shape, dtype=np.complex128)
        m.real, m.imag = mr, mi
        return vr.astype(rt._np) + vi.astype(rt._np), m
    v, m = call_quiet(f)
    return _keep(input, v, dims, keepdim), _keep(input, m, dims, keepdim), dt


@op()
def var(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None,
        out=None) -> Tensor:
    """Variance over ``dim`` with Bessel's ``correction`` (1 by default; ``unbiased=False``: 0)."""
    v, _, dt = _var_parts("var", input, dim, unbiased, keepdim, correction, False)
    return finish(v, dt.to_real(), tensor_device(input), out)


@op()
def std(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None,
        out=None) -> Tensor:
    """Standard deviation: ``sqrt(var(...))``."""
    v, _, dt = _var_parts("std", input, dim, unbiased, keepdim, correction, False)
    return finish(_std_of(_xp(input), v, dt), dt.to_real(), tensor_device(input), out)


def _std_of(xp, v, dt):
    """``sqrt(var)`` as PyTorch takes it: in double for real inputs, but for complex ones
    of the variance in the real dtype (``_var_parts``: the parts' variances rounded and
    added there), so a complex64 variance past the float32 range gives an infinite std."""
    return call_quiet(xp.sqrt, v)


@op(method=False)
def var_mean(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *,
             correction=None) -> tuple[Tensor, Tensor]:
    """``(var, mean)`` over ``dim`` in one pass.

    # Note: the mean is ``mean()``'s: an infinite element gives an infinite mean, where
    # PyTorch's Welford updates give NaN once another element follows it (inf - inf).
    """
    v, m, dt = _var_parts("var_mean", input, dim, unbiased, keepdim, correction, True)
    dev = tensor_device(input)
    return wrap_array(v, dt.to_real(), dev), wrap_array(m, dt, dev)


@op(method=False)
def std_mean(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *,
             correction=None) -> tuple[Tensor, Tensor]:
    """``(std, mean)`` over ``dim`` in one pass."""
    v, m, dt = _var_parts("std_mean", input, dim, unbiased, keepdim, correction, True)
    dev = tensor_device(input)
    return wrap_array(_std_of(_xp(input), v, dt), dt.to_real(), dev), wrap_array(m, dt, dev)


# ---------------------------------------------------------------- norm
@op()
def norm(input: Tensor, p="fro", dim=None, keepdim: bool = False, out=None,
         dtype=None) -> Tensor:
    """Vector p-norm over ``dim`` (all elements by default), or a matrix norm for
    ``p='fro'``/``'nuc'``; ``p`` may be any number, ``inf`` or ``-inf``."""
    dtype = _dtypes.as_dtype(dtype)  # (dtype=float and the like: Python types)
    _check_tensor("norm", input)
    x = input
    if input._dtype.category < _FLOAT:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {input._dtype.cname}")
    if dtype is not None:
        if dtype.category < _FLOAT:
            raise RuntimeError("linalg.vector_norm: dtype should be floating point or complex. "
                               f"Got {dtype.cname} instead.")
        if (dtype.category == _COMPLEX) != (input._dtype.category == _COMPLEX):
            kind = "complex" if input._dtype.category == _COMPLEX else "real"
            raise RuntimeError(f"linalg.vector_norm: dtype should be {kind} for {kind} inputs, "
                               f"but got {dtype.cname}")
        x = input.to(dtype)
    if isinstance(p, str) and p == "nuc":  # (PyTorch's matrix_norm checks, before the dims)
        if x._dtype in _dtypes.HALVES:
            raise RuntimeError("linalg.matrix_norm: Low precision dtypes not supported. Got "
                               f"{x._dtype.cname}")
        given = None if dim is None else (dim,) if _is_int(dim) else tuple(dim)
        if given is not None and len(given) != 2:
            raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple. Got "
                               f"{' '.join(str(d) for d in given)}")
    dims = _dims(x, dim)
    rdt = x._dtype.to_real()
    xp = _xp(x)
    if p is None:
        p = "fro"
    if isinstance(p, str):
        if p == "fro":
            if dims is not None and len(dims) > 2:
                raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                                   f"{' '.join(str(d) for d in dims)}")
            p = 2
        elif p == "nuc":
            return _nuclear(x, dims, keepdim, rdt, out)
        else:
            raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
    p = builtins.float(p)
    cdt = _opmath(rdt)
    a = x._arr
    axis = _axis(x, dims)
    if p < 0 or p == math.inf:
        empty = x.numel() == 0 if dims is None or not x._shape else \
            builtins.any(x._shape[d] == 0 for d in dims)
        if empty:
            shown = builtins.int(p) if math.isfinite(p) and p == builtins.int(p) else p
            if dims is None or not x._shape:
                raise RuntimeError(f"linalg.vector_norm cannot compute the {shown} norm on an "
                                   "empty tensor because the operation does not have an "
                                   "identity")
            d = next(d for d in dims if x._shape[d] == 0)
            raise RuntimeError(f"linalg.vector_norm cannot compute the {shown} norm on the "
                               f"dimension {d}because this dimension is empty and the "
                               "operation does not have an identity")

    # (PyTorch's norm of one element is its |x|, no overflow, but a 0-dim tensor's along an
    # explicit dim takes the general path: norm(tensor(1e30), 2, 0) is inf, with p=nan NaN)
    single = _count(x, dims) == 1 and (dims is None or builtins.bool(x._shape))
    if p != p and _count(x, dims) == 0:
        p = 2.0  # (a NaN power of no element is the sum's identity, 0, as PyTorch's)

    def f():
        m = xp.abs(a).astype(cdt._np)
        if single and p != 0:  # (PyTorch's norm of one element is its |x|: no overflow)
            return m
        if p == 2:
            return xp.sqrt(xp.sum(m * m, axis=axis, keepdims=True))
        if p == 1:
            return xp.sum(m, axis=axis, keepdims=True)
        if p == math.inf:
            return xp.max(m, axis=axis, keepdims=True)
        if p == -math.inf:
            return xp.min(m, axis=axis, keepdims=True)
        if p == 0:
            return xp.sum((m != 0).astype(m.dtype), axis=axis, keepdims=True)
        return xp.sum(m ** cdt._np.type(p), axis=axis, keepdims=True) ** cdt._np.type(1.0 / p)
    res = _keep(x, call_quiet(f), dims, keepdim)
    return finish(res, rdt, tensor_device(x), out)


def _nuclear(x: Tensor, dims, keepdim: bool, rdt, out) -> Tensor:
    nd = len(x._shape)
    if x._dtype in _dtypes.HALVES:
        raise RuntimeError("linalg.matrix_norm: Low precision dtypes not supported. Got "
                           f"{x._dtype.cname}")
    if dims is None:
        if nd != 2:
            raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                               f"{' '.join(str(d) for d in range(nd))}")
        dims = (0, 1)
    if len(dims) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                           f"{' '.join(str(d) for d in dims)}")
    xp = _xp(x)
    a = x._arr
    cdt = _opmath(x._dtype)
    a = xp.moveaxis(a, dims, (-2, -1)).astype(cdt._np)
    s = call_quiet(lambda: xp.linalg.svd(a, compute_uv=False).sum(axis=-1))
    if keepdim:
        for d in sorted(dims):
            s = xp.expand_dims(s, d)
    return finish(s, rdt, tensor_device(x), out)


# ---------------------------------------------------------------- max / min / arg*
def _values_indices(name: str, input: Tensor, dim, keepdim: bool, arg_fn: str, cls, out):
    d = _layout.normalize_dim(dim, len(input._shape))
    xp = _xp(input)
    arr = input._arr
    dev = tensor_device(input)
    if not input._shape:
        vals, idx = arr.copy(), xp.zeros((), dtype=np.int64)
    else:
        idx = call_quiet(getattr(xp, arg_fn), arr, axis=d, keepdims=True)
        vals = xp.take_along_axis(arr, idx, axis=d)
        if not keepdim:
            idx, vals = xp.squeeze(idx, d), xp.squeeze(vals, d)
    res = cls(wrap_array(vals, input._dtype, dev), wrap_array(idx.astype(np.int64), _dtypes.int64,
                                                              dev))
    return _out2(res, out)


def _minmax(name: str, input, dim, keepdim, other, out, maxi: bool):
    _check_tensor(name, input)
    if dim is _NO_DIM:
        dim = None
    elif dim is None:  # (no overload takes dim=None: PyTorch's parser refuses it)
        raise TypeError(f"{name}() received an invalid combination of arguments - got "
                        "(NoneType), but expected one of: (Tensor input), (Tensor input, "
                        "int dim, bool keepdim), (Tensor input, Tensor other)")
    if isinstance(dim, Tensor):  # max(a, b): PyTorch's parser matches the Tensor overload first
        if keepdim is not None:  # (unless keepdim is given: then (dim, keepdim))
            if dim._shape or dim._dtype.category != _dtypes._INT or dim._dtype is _dtypes.bool:
                raise TypeError(f"{name}(): argument 'dim' (position 1) must be int, not "
                                "Tensor")
            dim = builtins.int(dim.item())
        else:
            other, dim = dim, None
    if other is not None:
        from .comparison import maximum, minimum
        return (maximum if maxi else minimum)(input, other, out=out)
    keepdim = _check_keepdim_needs_dim(name, dim, keepdim)
    if dim is None:
        _nonempty(name, input, None)
        if input._dtype.category == _COMPLEX:
            raise _not_implemented(f"{name}_all", input._dtype)
        xp = _xp(input)
        res = call_quiet(xp.max if maxi else xp.min, input._arr)
        return finish(res, input._dtype, tensor_device(input), out)
    if not _is_int(dim) and not isinstance(dim, Tensor):
        raise TypeError(f"{name}() received an invalid combination of arguments - got "
                        f"(dim={type(dim).__name__}), but expected one of: (Tensor input), "
                        "(Tensor input, int dim, bool keepdim), (Tensor input, Tensor other)")
    _nonempty(name, input, (_layout.normalize_dim(builtins.int(dim), len(input._shape)),))
    _check_real(name, input)
    return _values_indices(name, input, builtins.int(dim), keepdim,
                           "argmax" if maxi else "argmin",
                           return_types.max if maxi else return_types.min, out)


@op()
def max(input: Tensor, dim=_NO_DIM, keepdim: bool | None = None, *, other=None, out=None):
    """``max(t)``: the largest element (0-dim); ``max(t, dim)``: ``(values, indices)``;
    ``max(a, b)``: the elementwise maximum."""
    return _minmax("max", input, dim, keepdim, other, out, True)


@op()
def min(input: Tensor, dim=_NO_DIM, keepdim: bool | None = None, *, other=None, out=None):
    """``min(t)``, ``min(t, dim)`` -> ``(values, indices)``, or ``min(a, b)`` elementwise."""
    return _minmax("min", input, dim, keepdim, other, out, False)


def _amaxmin(name: str, input, dim, keepdim, out, maxi: bool) -> Tensor:
    _check_tensor(name, input)
    keepdim = _keepdim(name, keepdim)
    dims = _dims(input, dim)
    _nonempty(name, input, dims)
    if input._dtype.category == _COMPLEX and input.numel():
        raise _not_implemented("max_values_cpu" if maxi else "min_values_cpu", input._dtype)
    if out is not None and isinstance(out, Tensor) and out._dtype is not input._dtype:
        raise RuntimeError(f"Expected the dtype for input and out to match, but got "
                           f"{input._dtype.cname} for input's dtype and {out._dtype.cname} for "
                           "out's dtype.")
    xp = _xp(input)
    res = call_quiet(xp.max if maxi else xp.min, input._arr, axis=_axis(input, dims),
                     keepdims=True)
    return finish(_keep(input, res, dims, keepdim), input._dtype, tensor_device(input), out)


@op()
def amax(input: Tensor, dim=(), keepdim: bool = False, *, out=None) -> Tensor:
    """Largest value over ``dim`` (int or tuple; all dims by default); NaN propagates."""
    return _amaxmin("amax", input, dim, keepdim, out, True)


@op()
def amin(input: Tensor, dim=(), keepdim: bool = False, *, out=None) -> Tensor:
    """Smallest value over ``dim`` (int or tuple; all dims by default); NaN propagates."""
    return _amaxmin("amin", input, dim, keepdim, out, False)


@op()
def aminmax(input: Tensor, *, dim=None, keepdim: bool = False, out=None):
    """``(min, max)`` over ``dim`` (or all elements) as ``return_types.aminmax``."""
    _check_tensor("aminmax", input)
    if dim is None:
        if input.numel() == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                               "operation has no identity.")
        if input._dtype.category == _COMPLEX:
            raise _not_implemented("aminmax_cpu", input._dtype)
        res = return_types.aminmax(amin(input, (), keepdim), amax(input, (), keepdim))
    else:
        if isinstance(dim, Tensor) and not dim._shape and dim._dtype.category == _INT:
            dim = builtins.int(dim)  # (a 0-dim integer tensor reads as an int, as in PyTorch)
        if not _is_int(dim):
            raise TypeError(f"aminmax(): argument 'dim' must be int, not {type(dim).__name__}")
        d = _layout.normalize_dim(dim, len(input._shape))
        if input._shape and input._shape[d] == 0:
            raise IndexError(f"aminmax(): Expected reduction dim {d} to have non-zero size.")
        if input._dtype.category == _COMPLEX:
            raise _not_implemented("aminmax_cpu", input._dtype)
        res = return_types.aminmax(amin(input, d, keepdim), amax(input, d, keepdim))
    return _out2(res, out)


def _argmaxmin(name: str, input, dim, keepdim, out, maxi: bool) -> Tensor:
    _check_tensor(name, input)
    keepdim = _keepdim(name, keepdim)
    dt = input._dtype
    if dt is _dtypes.bool:
        raise RuntimeError(f"{name}(): does not support bool input")
    _check_real(name, input)
    xp = _xp(input)
    fn = xp.argmax if maxi else xp.argmin
    dev = tensor_device(input)
    if dim is None:
        if input.numel() == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for "
                             "input.numel() == 0.")
        res = call_quiet(fn, input._arr)
        res = xp.asarray(res, dtype=np.int64)
        if keepdim:
            res = res.reshape((1,) * len(input._shape))
        return finish(res, _dtypes.int64, dev, out)
    d = _layout.normalize_dim(dim, len(input._shape))
    _nonempty(name, input, (d,))
    if not input._shape:
        return finish(xp.zeros((), dtype=np.int64), _dtypes.int64, dev, out)
    res = call_quiet(fn, input._arr, axis=d, keepdims=keepdim)
    return finish(res.astype(np.int64), _dtypes.int64, dev, out)


@op(out_overlap=None, out="exact")  # (out= must be int64, as PyTorch's)
def argmax(input: Tensor, dim=None, keepdim: bool = False, *, out=None) -> Tensor:
    """Index of the largest value (first one on ties; a flat index when ``dim`` is None)."""
    return _argmaxmin("argmax", input, dim, keepdim, out, True)


@op(out_overlap=None, out="exact")
def argmin(input: Tensor, dim=None, keepdim: bool = False, *, out=None) -> Tensor:
    """Index of the smallest value (first one on ties; a flat index when ``dim`` is None)."""
    return _argmaxmin("argmin", input, dim, keepdim, out, False)


# ---------------------------------------------------------------- all / any / count
def _allany(name: str, input, dim, keepdim, out) -> Tensor:
    _check_tensor(name, input)
    keepdim = _keepdim(name, keepdim)
    rdt = _dtypes.uint8 if input._dtype is _dtypes.uint8 else _dtypes.bool
    if isinstance(out, Tensor):  # (out= bool or uint8, whatever the input: its dtype wins)
        if out._dtype is not _dtypes.bool and out._dtype is not _dtypes.uint8:
            raise RuntimeError(f"{name} only supports bool tensor for result, got: "
                               f"{out._dtype.cname}")
        rdt = out._dtype
    arr = input._arr
    if rdt is _dtypes.uint8 and input._dtype is not _dtypes.uint8:
        # (PyTorch converts the input to a uint8 out's dtype first: any(tensor([0.5]),
        # out=uint8) is 0, 256.0 wraps to 0, a complex input loses its imaginary part)
        arr = input.to(_dtypes.uint8)._arr
    xp = _xp(input)
    if dim is not None and not _is_int(dim) and not isinstance(dim, Tensor) and \
            len(tuple(dim)) == 0:
        # Note: PyTorch's all/any read dim=() as "reduce nothing" (sum etc. reduce everything)
        return finish(arr != 0, rdt, tensor_device(input), out)
    dims = _dims(input, dim)
    res = getattr(xp, name)(arr, axis=_axis(input, dims), keepdims=True)
    return finish(_keep(input, res, dims, keepdim), rdt, tensor_device(input), out)


@op()
def all(input: Tensor, dim=None, keepdim: bool = False, *, out=None) -> Tensor:
    """Whether every element (over ``dim``) is nonzero; bool (uint8 for uint8 input)."""
    return _allany("all", input, dim, keepdim, out)


@op()
def any(input: Tensor, dim=None, keepdim: bool = False, *, out=None) -> Tensor:
    """Whether any element (over ``dim``) is nonzero; bool (uint8 for uint8 input)."""
    return _allany("any", input, dim, keepdim, out)


@op()
def count_nonzero(input: Tensor, dim=None) -> Tensor:  # (no keepdim, as PyTorch)
    """Number of nonzero elements over ``dim`` (int or tuple), as int64."""
    _check_tensor("count_nonzero", input)
    dims = _dims(input, dim)
    xp = _xp(input)
    res = xp.sum(input._arr != 0, axis=_axis(input, dims), dtype=np.int64)
    return wrap_array(res, _dtypes.int64, tensor_device(input))


# ---------------------------------------------------------------- sorting-based reductions
def stable_argsort(xp, a, axis: int = -1):
    """Stable argsort along ``axis`` (NaN last); CuPy's sort is always stable and takes no
    ``kind``. bfloat16 (ml_dtypes) sorts as float32, which holds each value exactly: NumPy's
    sort of it compares NaN as unordered and leaves an array with a NaN unsorted."""
    if a.dtype.name == "bfloat16":
        a = a.astype(np.float32)
    if runs_numpy(xp):
        return np.argsort(a, axis=axis, kind="stable")
    return xp.argsort(a, axis=axis)


_stable_argsort = stable_argsort


def _median_impl(name: str, input: Tensor, dim, keepdim: bool, ignore_nan: bool, out):
    _check_tensor(name, input)
    keepdim = _check_keepdim_needs_dim(name, dim, keepdim)
    dt = input._dtype
    xp = _xp(input)
    dev = tensor_device(input)
    whole = dim is None
    if whole and input.numel() == 0:  # NaN converted to the dtype, as PyTorch (no dtype check)
        return finish(call_quiet(lambda: xp.asarray(np.nan).astype(dt._np)), dt, dev, out)
    if not whole:
        d = _layout.normalize_dim(dim, len(input._shape))
        _nonempty(name, input, (d,))
    if dt is _dtypes.bool or dt.category == _COMPLEX:
        raise _not_implemented("median_cpu", dt)
    if whole:
        arr = input._arr.reshape(-1)
        d = 0
    else:
        arr = input._arr if input._shape else input._arr.reshape(1)
    n = arr.shape[d]
    order = _stable_argsort(xp, arr, d)
    if dt.category == _FLOAT:
        nans = xp.sum(xp.isnan(arr), axis=d, keepdims=True)
    else:
        nans = xp.zeros([1 if i == d else s for i, s in enumerate(arr.shape)], dtype=np.int64)
    if ignore_nan:
        pos = xp.maximum((n - nans - 1) // 2, 0)
    else:
        pos = xp.where(nans > 0, n - nans, (n - 1) // 2)
    idx = xp.take_along_axis(order, pos.astype(np.int64), axis=d)
    vals = xp.take_along_axis(arr, idx, axis=d)
    if whole:
        return finish(vals.reshape(()), dt, dev, out)
    if not input._shape:
        vals, idx = vals.reshape(()), idx.reshape(())
    elif not keepdim:
        vals, idx = xp.squeeze(vals, d), xp.squeeze(idx, d)
    cls = return_types.nanmedian if ignore_nan else return_types.median
    return _out2(cls(wrap_array(vals, dt, dev), wrap_array(idx.astype(np.int64), _dtypes.int64,
                                                            dev)), out)


@op()
def median(input: Tensor, dim=None, keepdim: bool | None = None, *, out=None):
    """The lower median (of all elements, or ``(values, indices)`` along ``dim``); NaN wins."""
    # Note: along a dim of stride 0 (an expanded tensor) PyTorch's CPU kernel reads memory
    # past the tensor (median(tensor([1.]).expand(3), 0) gives 6.9e-310 or whatever lies
    # there); tensorviz gives the median of the values, as PyTorch does for a copy.
    return _median_impl("median", input, dim, keepdim, False, out)


@op()
def nanmedian(input: Tensor, dim=None, keepdim: bool | None = None, *, out=None):
    """The lower median ignoring NaN (NaN only where every element is NaN)."""
    # Note: PyTorch reads past an expanded (stride-0) dim here too: see median.
    return _median_impl("nanmedian", input, dim, keepdim, True, out)


def _accumulate(xp, name: str, a, axis: int):
    """``xp.<name>.accumulate(a, axis)``, with a log-step scan where the backend lacks it."""
    uf = getattr(xp, name)
    if runs_numpy(xp):
        return uf.accumulate(a, axis=axis)
    try:  # pragma: no cover - CuPy: ufunc.accumulate where this version has it
        return uf.accumulate(a, axis=axis)
    except Exception:  # noqa: BLE001 - (AttributeError/NotImplementedError/TypeError by version)
        pass
    out = a.copy()  # pragma: no cover - Hillis-Steele scan for backends without accumulate
    n, step = a.shape[axis], 1
    while step < n:
        head = [slice(None)] * a.ndim
        tail = [slice(None)] * a.ndim
        head[axis], tail[axis] = slice(step, None), slice(None, n - step)
        out[tuple(head)] = uf(out[tuple(head)], out[tuple(tail)].copy())
        step *= 2
    return out


def _std_sort_order(values: list) -> list:
    """The order C++'s ``std::sort`` (libstdc++) leaves ``values`` in with ``a < b`` as its
    comparison: with a NaN, which no ``<`` orders, the result is not sorted, and PyTorch's
    mode counts its runs as they lie."""
    return std_sort(len(values), lambda i, j: values[i] < values[j])


def _mode_nan_order(xp, arr, order, d: int):
    """``order`` with the rows along ``d`` that hold a NaN put in PyTorch's order: its mode
    kernel sorts each row with ``std::sort`` and ``<``, which a NaN leaves unsorted
    (``mode([-inf, inf, nan, inf])`` is -inf there: no two equal values end up together)."""
    nan_rows = xp.isnan(arr).any(axis=d)
    if not builtins.bool(nan_rows.any()):
        return order
    host = np.moveaxis(np.asarray(xp.asnumpy(arr) if xp is not np else arr, dtype=np.float64),
                       d, -1)
    fixed = np.moveaxis(np.array(xp.asnumpy(order) if xp is not np else order), d, -1).copy()
    rows = np.asarray(xp.asnumpy(nan_rows) if xp is not np else nan_rows)
    for pos in map(tuple, np.argwhere(rows)):  # (a 1-D input's one row: pos is ())
        fixed[pos] = _std_sort_order(host[pos].tolist())
    return xp.asarray(np.moveaxis(fixed, -1, d))


@op()
def mode(input: Tensor, dim: int = -1, keepdim: bool = False, *, out=None):
    """The most frequent value along ``dim`` (the smallest on ties) and its last index."""
    if isinstance(dim, (builtins.bool, np.bool_)):  # (an int, not a truth value, as PyTorch's)
        raise TypeError(f"mode(): argument 'dim' (position 1) must be int, not "
                        f"{type(dim).__name__}")
    _check_tensor("mode", input)
    dt = input._dtype
    d = _layout.normalize_dim(dim, len(input._shape))
    _nonempty("mode", input, (d,))
    xp = _xp(input)
    dev = tensor_device(input)
    if not input._shape or input.numel() == 0:  # no kernel runs: any dtype
        shape = input._shape[:d] + ((1,) if keepdim else ()) + input._shape[d + 1:] \
            if input._shape else ()
        vals = input._arr.copy().reshape(shape)
        return _out2(return_types.mode(wrap_array(vals, dt, dev), wrap_array(
            xp.zeros(shape, dtype=np.int64), _dtypes.int64, dev)), out)
    if dt.category == _COMPLEX:
        raise _not_implemented("mode_cpu", dt)
    arr = input._arr
    n = arr.shape[d]
    order = _stable_argsort(xp, arr, d)
    if dt.category == _FLOAT:
        order = _mode_nan_order(xp, arr, order, d)
    s = xp.take_along_axis(arr, order, axis=d)
    shape1 = [1] * arr.ndim
    shape1[d] = n
    pos = xp.arange(n, dtype=np.int64).reshape(shape1)
    lo = [slice(None)] * arr.ndim
    hi = [slice(None)] * arr.ndim
    lo[d], hi[d] = slice(None, -1), slice(1, None)
    differs = s[tuple(hi)] != s[tuple(lo)]
    edge_shape = list(arr.shape)
    edge_shape[d] = 1
    edge = xp.ones(edge_shape, dtype=bool)
    starts = xp.concatenate([edge, differs], axis=d)
    ends = xp.concatenate([differs, edge], axis=d)
    run_start = _accumulate(xp, "maximum", xp.where(starts, pos, 0), d)
    flip = [slice(None)] * arr.ndim
    flip[d] = slice(None, None, -1)
    run_end = _accumulate(xp, "minimum", xp.where(ends, pos, n)[tuple(flip)], d)[tuple(flip)]
    length = run_end - run_start
    best = xp.argmax(length, axis=d, keepdims=True)
    vals = xp.take_along_axis(s, best, axis=d)
    last = xp.take_along_axis(run_end, best, axis=d)
    idx = xp.take_along_axis(order, last, axis=d)
    if not input._shape:
        vals, idx = vals.reshape(()), idx.reshape(())
    elif not keepdim:
        vals, idx = xp.squeeze(vals, d), xp.squeeze(idx, d)
    return _out2(return_types.mode(wrap_array(vals, dt, dev),
                                   wrap_array(idx.astype(np.int64), _dtypes.int64, dev)), out)


# ---------------------------------------------------------------- logsumexp
@op(also=("special.logsumexp",))
def logsumexp(input: Tensor, dim, keepdim: bool = False, *, out=None) -> Tensor:
    """``log(sum(exp(x)))`` over ``dim``, computed stably (max-shifted)."""
    _check_tensor("logsumexp", input)
    if dim is None:  # (dim=() reduces everything; None is PyTorch's parser's TypeError)
        raise TypeError("logsumexp(): argument 'dim' must be tuple of ints, not NoneType")
    keepdim = _keepdim("logsumexp", keepdim)
    if isinstance(out, Tensor) and out._dtype.category < _FLOAT:
        raise RuntimeError("logsumexp(): Expected floating point type for result tensor, but "
                           f"got: {out._dtype.cname}")
    dt = input._dtype
    rdt = dt if dt.category >= _FLOAT else _dtypes._default_dtype
    dims = _dims(input, dim)
    if dims is None and input._shape and not keepdim:
        # Note: PyTorch's quirk for dim=(): it computes keepdim-shaped, then refuses to store
        raise RuntimeError(f"output with shape [] doesn't match the broadcast shape "
                           f"{[1] * len(input._shape)}")
    cdt = _opmath(rdt)
    xp = _xp(input)
    arr = _cast_arr(input, cdt)
    axis = _axis(input, dims)

    def f():
        if arr.size == 0:
            return xp.log(xp.sum(xp.exp(arr), axis=axis, keepdims=True))
        key = arr.real if arr.dtype.kind == "c" else arr
        m = xp.max(key, axis=axis, keepdims=True)
        m = xp.where(xp.isinf(m), m.dtype.type(0), m)
        if rdt in _dtypes.HALVES:
            # (PyTorch runs a 16-bit logsumexp op by op in its dtype: x - max, exp, sum,
            # log and + max each rounded, so bfloat16's is 1.3828 where float32's rounded
            # once is 1.3906)
            def h(v):
                return v.astype(rdt._np).astype(cdt._np)
            s_ = h(xp.sum(h(xp.exp(h(arr - m))), axis=axis, keepdims=True))
            return h(h(xp.log(s_)) + m)
        return xp.log(xp.sum(xp.exp(arr - m), axis=axis, keepdims=True)) + m
    res = _keep(input, call_quiet(f), dims, keepdim)
    return finish(res, rdt, tensor_device(input), out)


# ---------------------------------------------------------------- scans
_SCAN_ACC = {_dtypes.float32: _dtypes.float64, _dtypes.complex64: _dtypes.complex128}


def _scan(name: str, fn: str, input: Tensor, dim, dtype, out) -> Tensor:
    _check_tensor(name, input)
    d = _layout.normalize_dim(dim, len(input._shape))
    if dtype is None and isinstance(out, Tensor):
        dtype = out._dtype  # (PyTorch computes in out's dtype when no dtype= is given)
    elif isinstance(out, Tensor) and out._dtype is not dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {dtype.cxx_name}, but "
                           f"got {out._dtype.cxx_name} instead")
    if dtype is not None:
        rdt = dtype
    elif input._dtype.category <= _INT:
        rdt = _dtypes.int64
    else:
        rdt = input._dtype
    if rdt is _dtypes.bool and input._shape and input.numel():  # (no bool scan kernel)
        raise _not_implemented(f"{name}_out_cpu", rdt)
    # PyTorch's CPU scans run in at::acc_type: float32 in double, complex64 in complex128,
    # half in float32; a running product past float32's range comes back within it
    # (cumprod([1e30, 1e30, 1e-30]) is [1e30, inf, 1e30]), each step rounded once to rdt.
    cdt = _SCAN_ACC.get(rdt) or _opmath(rdt)
    xp = _xp(input)
    arr = _cast_arr(input, cdt, rdt)
    if not input._shape:
        res = arr.copy()
    else:
        res = call_quiet(getattr(xp, fn), arr, axis=d)
    if isinstance(out, Tensor) and out._storage is input._storage:
        # (TensorIterator's check, of out as resized: ``cumsum(x.t(), 0, out=x)`` is refused)
        if out._shape != tuple(res.shape) and _dtypes.can_cast(rdt, out._dtype):
            resize_out(out, tuple(res.shape))
        check_partial_overlap(out, input)
    return finish(res, rdt, tensor_device(input), out)


@op()
def cumsum(input: Tensor, dim, *, dtype=None, out=None) -> Tensor:
    """Running sum along ``dim``; bools and integers accumulate in int64."""
    dtype = _dtypes.as_dtype(dtype)  # (dtype=float and the like: Python types)
    return _scan("cumsum", "cumsum", input, dim, dtype, out)


@op()
def cumprod(input: Tensor, dim, *, dtype=None, out=None) -> Tensor:
    """Running product along ``dim``; bools and integers accumulate in int64."""
    dtype = _dtypes.as_dtype(dtype)  # (dtype=float and the like: Python types)
    return _scan("cumprod", "cumprod", input, dim, dtype, out)


def _scan_(name: str, self: Tensor, dim, dtype) -> Tensor:
    """``cumsum_``/``cumprod_``: the scan in ``self``'s dtype (or ``dtype``), stored back."""
    _check_tensor(name + "_", self)
    dt = self._dtype if dtype is None else _dtypes.as_dtype(dtype)  # (float, int: Python's)
    if dt is not self._dtype:  # (checked before the overlap, as PyTorch)
        raise RuntimeError(f"Bad in-place call: input tensor dtype {self._dtype.cxx_name} and "
                           f"output tensor dtype {dt.cxx_name} should match")
    check_writable(self)
    if dt is _dtypes.bool and self._shape and self.numel():
        raise _not_implemented(f"{name}_out_cpu", dt)
    return store_inplace(self, _scan(name, name, self, dim, dt, None))


@inplace_of(cumsum)
def cumsum_(self: Tensor, dim, *, dtype=None) -> Tensor:
    return _scan_("cumsum", self, dim, dtype)


@inplace_of(cumprod)
def cumprod_(self: Tensor, dim, *, dtype=None) -> Tensor:
    return _scan_("cumprod", self, dim, dtype)


def _cumext(name: str, input: Tensor, dim, out, maxi: bool):
    _check_tensor(name, input)
    dt = input._dtype
    d = _layout.normalize_dim(dim, len(input._shape))
    if dt.category == _COMPLEX and input._shape and input.numel():
        raise _not_implemented(f"{name}_cpu", dt)
    xp = _xp(input)
    dev = tensor_device(input)
    arr = input._arr if input._shape else input._arr.reshape(1)
    if arr.size == 0:
        vals, idx = arr.copy(), xp.zeros(arr.shape, dtype=np.int64)
    else:
        vals = call_quiet(_accumulate, xp, "maximum" if maxi else "minimum", arr, d)
        shape1 = [1] * arr.ndim
        shape1[d] = arr.shape[d]
        pos = xp.arange(arr.shape[d], dtype=np.int64).reshape(shape1)
        hit = arr == vals
        if dt.category == _FLOAT:
            hit = hit | xp.isnan(arr)
        # the latest position that reached the running extreme (ties take the later index)
        idx = _accumulate(xp, "maximum", xp.where(hit, pos, 0), d)
    if not input._shape:
        vals, idx = vals.reshape(()), idx.reshape(())
    cls = return_types.cummax if maxi else return_types.cummin
    return _out2(cls(wrap_array(vals, dt, dev), wrap_array(idx, _dtypes.int64, dev)), out)


@op()
def cummax(input: Tensor, dim: int, *, out=None):
    """Running maximum along ``dim`` and the index where it was reached."""
    return _cumext("cummax", input, dim, out, True)


@op()
def cummin(input: Tensor, dim: int, *, out=None):
    """Running minimum along ``dim`` and the index where it was reached."""
    return _cumext("cummin", input, dim, out, False)


# ---------------------------------------------------------------- unique
def _host_floats(xp, a):
    """``a``'s values as a float64 NumPy array (bfloat16 and half hold exactly)."""
    return np.asarray(a if runs_numpy(xp) else xp.asnumpy(a), dtype=np.float64)


def _nan_last_order(xp, flat):
    """PyTorch's ``sort(stable=False)`` order of a 1-D float array holding NaN (std::sort with
    NaN greater than any number): which NaN (or which zero of -0.0 and 0.0) comes first."""
    h = _host_floats(xp, flat).tolist()

    def less(i, j):
        a, b = h[i], h[j]
        return a < b or (b != b and a == a)
    return xp.asarray(std_sort(len(h), less), dtype=np.int64)


def _unique_flat(xp, flat, return_inverse, return_counts):
    n = flat.shape[0]
    order = stable_argsort(xp, flat)
    if flat.dtype.kind == "f" or flat.dtype.name == "bfloat16":
        # PyTorch sorts with an unstable sort: where it matters (NaN, each its own unique
        # value with its own inverse; -0.0 beside 0.0, the first one kept) its order is
        # followed (its sort's, step by step).
        # Note: past 2**16 elements tensorviz keeps its stable order there.
        f = flat.astype(np.float32) if flat.dtype.name == "bfloat16" else flat
        z = f[f == 0]
        sign = xp.signbit(z) if z.size > 1 else None
        if 1 < n <= 1 << 16 and (sign is not None and builtins.bool(sign.any()) and not
                                 builtins.bool(sign.all()) or return_inverse and
                                 builtins.int(xp.count_nonzero(f != f)) > 1):
            order = _nan_last_order(xp, flat)
    s = flat[order]
    new = xp.ones(n, dtype=bool)
    if n > 1:
        new[1:] = s[1:] != s[:-1]
    vals = s[new]
    inverse = counts = None
    if return_inverse:
        run = xp.cumsum(new, dtype=np.int64) - 1
        inverse = xp.empty(n, dtype=np.int64)
        inverse[order] = run
    if return_counts:
        starts = xp.nonzero(new)[0]
        counts = xp.diff(xp.concatenate([starts, xp.asarray([n], dtype=starts.dtype)])) \
            .astype(np.int64)
    return vals, inverse, counts


def _dim_first_stride(shape: tuple, d: int) -> tuple:
    """The strides ``_dim_first`` gives (size-1 dims included, as PyTorch computes them)."""
    moved = (shape[d],) + shape[:d] + shape[d + 1:]
    st = _contig(moved)
    return st[1:d + 1] + (st[0],) + st[d + 1:]


def _unique_result(input, vals, inverse, counts, return_inverse, return_counts, dt, d=None):
    dev = tensor_device(input)
    res = [wrap_array(vals, dt, dev, None if d is None else _dim_first_stride(vals.shape, d))]
    if return_inverse:
        res.append(wrap_array(inverse, _dtypes.int64, dev))
    if return_counts:
        res.append(wrap_array(counts, _dtypes.int64, dev))
    return res[0] if len(res) == 1 else tuple(res)


def _check_unique_dim_sizes(shape: tuple, d: int) -> None:
    """PyTorch's refusals of unique along ``d`` of an empty tensor: another dim of size 0
    beside a selected one of size 0, or only unselected dims of size 0."""
    if builtins.any(s == 0 for i, s in enumerate(shape) if i != d):
        if shape[d] == 0:
            raise RuntimeError("Number of zero sized dimensions is more than one, so unique "
                               "cannot be applied ")
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique "
                           "cannot be applied")


@op()
def unique(input: Tensor, sorted: bool = True, return_inverse: bool = False,
           return_counts: bool = False, dim=None):
    """The distinct elements, sorted (or distinct slices along ``dim``); optionally the inverse
    indices (input shape) and the counts."""
    _check_tensor("unique", input)
    if dim is None:
        for arg, v in (("sorted", sorted), ("return_inverse", return_inverse),
                       ("return_counts", return_counts)):
            bool_arg(v, "_unique2", arg)
    else:
        _layout.normalize_dim(dim, len(input._shape))
        for arg, v in (("sorted", sorted), ("return_inverse", return_inverse),
                       ("return_counts", return_counts)):
            bool_arg(v, "unique_dim", arg)
    _refuse_meta(input, "_unique2" if dim is None else "unique_dim")
    dt = input._dtype
    if dt.category == _COMPLEX:
        raise _not_implemented("unique", dt)
    xp = _xp(input)
    if dim is None:
        flat = input._arr.reshape(-1)
        vals, inv, cnt = _unique_flat(xp, flat, return_inverse, return_counts)
        if inv is not None:
            inv = inv.reshape(input._shape)
        return _unique_result(input, vals, inv, cnt, return_inverse, return_counts, dt)
    d = _layout.normalize_dim(dim, len(input._shape))
    arr = input._arr
    _check_unique_dim_sizes(arr.shape, d)
    if arr.shape[d] == 0:
        empty = xp.zeros(0, dtype=np.int64)
        return _unique_result(input, arr.copy(), empty, empty, return_inverse, return_counts, dt)
    if dt.category == _FLOAT and arr.shape[d] <= 1 << 12 and builtins.bool(
            xp.isnan(arr.astype(np.float32) if dt is _dtypes.bfloat16 else arr).any()):
        vals, inv, cnt = _unique_dim_with_nan(xp, arr, d)
    else:
        r = xp.unique(arr, return_inverse=True, return_counts=True, axis=d)
        vals, inv, cnt = r[0], r[1].reshape(-1).astype(np.int64), r[2].astype(np.int64)
    return _unique_result(input, vals, inv, cnt, return_inverse, return_counts, dt, d)


def _unique_dim_with_nan(xp, arr, d: int):
    """``unique(dim=d)`` of a float array holding NaN, as PyTorch computes it: its slices
    sorted by std::sort comparing them element by element with ``<`` (a NaN orders neither
    way: the next element decides), then each slice kept unless it equals (``==``, so never
    with a NaN) the last one kept. Its order is not sorted then, and equal-looking slices
    with a NaN stay apart.

    # Note: past 2**12 slices tensorviz sorts as NumPy's unique does there.
    """
    host = np.moveaxis(_host_floats(xp, arr), d, 0)
    n = host.shape[0]
    rows = [tuple(r) for r in host.reshape(n, -1).tolist()]

    def less(i, j):
        for a, b in zip(rows[i], rows[j]):
            if a < b:
                return True
            if a > b:
                return False
        return False
    order = std_sort(n, less)
    kept, inverse, counts = [], np.empty(n, dtype=np.int64), []
    for i in order:
        if not kept or builtins.any(a != b for a, b in zip(rows[i], rows[kept[-1]])):
            kept.append(i)
            counts.append(0)
        counts[-1] += 1
        inverse[i] = len(kept) - 1
    vals = xp.take(arr, xp.asarray(kept, dtype=np.int64), axis=d)
    return vals, xp.asarray(inverse), xp.asarray(np.array(counts, dtype=np.int64))


@op()
def unique_consecutive(input: Tensor, return_inverse: bool = False,
                       return_counts: bool = False, dim=None):
    """Collapse runs of equal consecutive elements (or slices along ``dim``).

    # Note: ``tensorviz.unique_consecutive(x, True)`` returns the inverse, as the keyword
    # and method forms do; PyTorch's function returns an empty (uninitialised) inverse
    # for a positional ``return_inverse``.
    """
    _check_tensor("unique_consecutive", input)
    bool_arg(return_inverse, "unique_consecutive", "return_inverse")
    bool_arg(return_counts, "unique_consecutive", "return_counts")
    _refuse_meta(input, "unique_consecutive")
    dt = input._dtype
    if dt.category == _COMPLEX:
        raise _not_implemented("unique", dt)
    xp = _xp(input)
    if dim is None:
        a = input._arr.reshape(-1)
        d = 0
    else:
        d = _layout.normalize_dim(dim, len(input._shape))
        a = input._arr
        _check_unique_dim_sizes(a.shape, d)
        if a.ndim and a.shape[d] == 0:  # (no slices: the input's row-major copy, as unique)
            empty = xp.zeros(0, dtype=np.int64)
            return _unique_result(input, a.copy(), empty, empty, return_inverse, return_counts,
                                  dt)
    n = a.shape[d] if a.ndim else 1
    if a.ndim == 0:
        a = a.reshape(1)
    new = xp.ones(n, dtype=bool)
    if n > 1:
        lo = [slice(None)] * a.ndim
        hi = [slice(None)] * a.ndim
        lo[d], hi[d] = slice(None, -1), slice(1, None)
        diff = a[tuple(hi)] != a[tuple(lo)]
        if a.ndim > 1:
            diff = xp.any(diff, axis=tuple(i for i in range(a.ndim) if i != d))
        new[1:] = diff
    starts = xp.nonzero(new)[0]
    vals = xp.take(a, starts, axis=d)
    inv = (xp.cumsum(new, dtype=np.int64) - 1)
    if dim is None:
        inv = inv.reshape(input._shape)
    cnt = xp.diff(xp.concatenate([starts, xp.asarray([n], dtype=starts.dtype)])).astype(np.int64)
    return _unique_result(input, vals, inv, cnt, return_inverse, return_counts, dt,
                          None if dim is None else d)


# ---------------------------------------------------------------- counting
@op()
def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """Occurrences of each value 0..max of a 1-D non-negative integer tensor (or summed
    ``weights``)."""
    _check_tensor("bincount", input)
    _refuse_meta(input, "bincount")
    if weights is not None and not isinstance(weights, Tensor):
        raise TypeError(f"bincount(): argument 'weights' (position 2) must be Tensor, not "
                        f"{type(weights).__name__}")
    dt = input._dtype
    if dt.category != _INT:
        raise _not_implemented("bincount_cpu", dt)
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    xp = _xp(input)
    a = input._arr
    if a.ndim != 1 or (a.size and builtins.bool((a < 0).any())):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    dev = tensor_device(input)
    top = builtins.int(a.max()) if a.size else -1
    if top >= 2**63 - 1:
        # (PyTorch's check; NumPy's bincount computes max + 1 in int64, wraps, and writes
        # past the end of its result: heap corruption)
        raise RuntimeError(f"maximum value of input overflowed, it should be < {2**63 - 1} "
                           f"but got {top}")
    n = builtins.max(top + 1, minlength)
    if n * 8 >= 2**63:
        raise RuntimeError(f"Storage size calculation overflowed with sizes=[{n}]")
    if n > 2**40:  # (more than any memory holds: PyTorch's allocation fails too)
        from ..backends._numpy import out_of_memory
        raise out_of_memory(n * 8)
    idx = a.astype(np.int64, copy=False)
    if weights is not None and weights._shape != input._shape:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    if weights is not None and a.size == 0:
        # Note: PyTorch returns int64 zeros here, whatever the weights' dtype
        weights = None
    rdt = _dtypes.int64 if weights is None else weights._dtype \
        if weights._dtype in (_dtypes.float32, _dtypes.float64) else _dtypes.float64
    # The result is allocated zero-filled (calloc: pages the counts never touch cost nothing)
    # and written in place, never copied: bincount([2**31 - 1]) answers at once with its
    # 16 GB of zeros (PyTorch's at::zeros writes each of them: half a minute), or raises
    # PyTorch's allocator error where the machine cannot reserve that much.
    try:
        if weights is None:
            res = xp.bincount(idx, minlength=minlength).astype(np.int64, copy=False)
        elif rdt is _dtypes.float32:
            # (PyTorch adds float32 weights into a float32 result one by one, in order)
            res = xp.zeros(n, dtype=np.float32)
            w = weights._arr if weights._dtype is rdt else weights._arr.astype(np.float32)
            _ufunc_at(input, "add", res, idx, w)
        else:
            w = weights._arr.astype(np.float64) if weights._dtype.category != _COMPLEX \
                else weights._arr.real.astype(np.float64)
            res = xp.bincount(idx, weights=w, minlength=minlength)
    except MemoryError:
        from ..backends._numpy import out_of_memory
        raise out_of_memory(n * rdt.itemsize) from None
    return wrap_array(res, rdt, dev)


def _histc_message(r, o) -> str:
    return (f"torch.histogram: input tensor and hist tensor should have the same dtype, but "
            f"got input {r._dtype.cxx_name} and hist {o._dtype.cxx_name}")


def _histc_widen(dt, lo: float, hi: float) -> tuple[float, float]:
    """histc's range around a single value ``lo == hi``: one unit each side, and for float32
    and float64 at least out to the value's neighbours in the dtype (PyTorch's
    ``bins_edges_correction``: ``1e30 - 1`` is 1e30, so the range is the value's two
    neighbours and it falls in bin ``bins // 2``; a float32 ``2**24`` gets ``[2**24 - 1,
    2**24 + 2]``, as ``2**24 + 1`` is no float32). Other dtypes take ``±1`` alone.

    Example: a float32 1e30, whose neighbours lie 2**76 away, gets ``(1e30 - 2**76,
    1e30 + 2**76)``.
    """
    if dt not in (_dtypes.float32, _dtypes.float64):
        return lo - 1, hi + 1
    t = dt._np.type
    info = np.finfo(dt._np)
    down = builtins.float(np.nextafter(t(lo), t(info.min)))
    up = builtins.float(np.nextafter(t(hi), t(info.max)))
    return builtins.min(down, lo - 1), builtins.max(up, hi + 1)


@op(out_overlap=None, out="exact", out_message=_histc_message)
def histc(input: Tensor, bins: int = 100, min=0, max=0, *, out=None) -> Tensor:
    """Histogram of ``bins`` equal-width bins over ``[min, max]`` (the data's range when both
    are equal); elements outside are ignored."""
    _check_tensor("histc", input)
    dt = input._dtype
    if builtins.float(min) > builtins.float(max):
        raise RuntimeError("torch.histc: max must be larger than min")
    if dt.category == _INT:  # (min and max are converted to the dtype before any kernel)
        info = np.iinfo(dt._np)
        for v in (min, max):
            if not info.min <= v <= info.max:
                raise RuntimeError(f"value cannot be converted to type {dt.name}_t without "
                                   "overflow")
    if dt.category != _FLOAT:
        raise _not_implemented("linspace_cpu" if dt is _dtypes.bool else "histogram_cpu", dt)
    if isinstance(bins, builtins.int) and not -(1 << 63) <= bins < (1 << 63):
        raise ValueError("Overflow when unpacking long long")  # (PyTorch's parser's words)
    if bins <= 0:
        raise RuntimeError("torch.histc(): bins must be > 0, but got " + str(bins) +
                           " for dimension 0")
    xp = _xp(input)
    a = input._arr.reshape(-1)
    lo, hi = builtins.float(min), builtins.float(max)
    if lo == hi and a.size:
        lo, hi = builtins.float(xp.min(a)), builtins.float(xp.max(a))
    if lo == hi:
        lo, hi = _histc_widen(dt, lo, hi)
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    if math.isinf(lo) or math.isinf(hi) or math.isnan(lo) or math.isnan(hi):
        raise RuntimeError(f"torch.histc: range of [{lo:g}, {hi:g}] is not finite")
    if lo == hi:  # (1e30 - 1 is 1e30 in float64: a bfloat16 1e30 has no range)
        raise RuntimeError("torch.histc: max must be larger than min")
    if dt is not _dtypes.float64:
        # (PyTorch's bin edges are a linspace in the dtype: an end past its largest value,
        # 65504 + 1 in float16, is refused by the conversion)
        big, name = {_dtypes.float16: (65504.0, "c10::Half"),
                     _dtypes.bfloat16: (3.3895313892515355e38, "c10::BFloat16")}.get(
                         dt, (3.4028234663852886e38, "float"))
        if not -big <= lo <= big or not -big <= hi <= big:
            raise RuntimeError(f"value cannot be converted to type {name} without overflow")
    cdt = dt  # Note: in the input's dtype, each step rounded (as PyTorch's kernel for half)

    def f():
        x = a.astype(cdt._np)
        if not np.isfinite(cdt._np.type(hi) - cdt._np.type(lo)):
            # (the width overflows the dtype: PyTorch's bin edges, a linspace, are NaN at
            # both ends then, so no element is counted)
            return xp.zeros(bins, dtype=dt._np)
        keep = (x >= cdt._np.type(lo)) & (x <= cdt._np.type(hi))
        x = x[keep]
        pos = ((x - cdt._np.type(lo)) * cdt._np.type(bins) /
               (cdt._np.type(hi) - cdt._np.type(lo)))
        # Note: where (x - min) * bins overflows the dtype (float32 data near 3.4e38) the
        # position is inf; PyTorch's kernel converts it to int64's minimum, which lands in
        # bin 0, so such an element is counted in bin 0 here too (mathematically it belongs
        # to a later bin: compute in float64 for that).
        pos = xp.where(xp.isfinite(pos), pos, 0).astype(np.int64)
        pos = xp.minimum(pos, bins - 1)
        return xp.bincount(pos, minlength=bins).astype(dt._np)
    return finish(call_quiet(f), dt, tensor_device(input), out)


@op()
def diff(input: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None,
         append: Tensor | None = None) -> Tensor:
    """The n-th forward difference along ``dim`` (``x[i+1] - x[i]``; xor for bools)."""
    _check_tensor("diff", input)
    if not input._shape:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    d = _layout.normalize_dim(dim, len(input._shape))
    if n == 0:  # (a copy of the input, as PyTorch: prepend and append are not joined)
        return input.clone()
    x = input
    if prepend is not None or append is not None:
        from .._creation import tensor as _tensor
        parts = []
        for name, extra in (("prepend", prepend), ("input", input), ("append", append)):
            if extra is None:
                continue
            if not isinstance(extra, Tensor):
                raise TypeError(f"diff(): argument '{name}' must be Tensor, not "
                                f"{type(extra).__name__}")
            if len(extra._shape) != len(input._shape):
                raise RuntimeError("diff expects prepend or append to be the same dimension as "
                                   "input")
            for i, (a, b) in enumerate(zip(input._shape, extra._shape)):
                if i != d and a != b:
                    raise RuntimeError(
                        "diff expects the shape of tensor to prepend or append to match that "
                        "of input except along the differencing dimension; input.size("
                        f"{i}) = {a}, but got tensor.size({i}) = {b}")
            parts.append(extra)
        from .joining import cat  # (PyTorch's cat: promotion, quiet conversions, layout)
        x = cat(parts, d)
    if x._shape[d] == 0:  # (PyTorch's order n is cut to the dim's size: x itself, no copy)
        return x
    a = x._arr
    dt = x._dtype
    stride = x._stride
    for _ in range(n):
        if a.shape[d] == 0:
            break
        lo = [slice(None)] * a.ndim
        hi = [slice(None)] * a.ndim
        lo[d], hi[d] = slice(None, -1), slice(1, None)
        a = call_quiet(lambda: (a[tuple(hi)] != a[tuple(lo)]) if dt is _dtypes.bool
                       else a[tuple(hi)] - a[tuple(lo)])
        # (each step is PyTorch's narrow(r, d, 1, k) - narrow(r, d, 0, k): an elementwise
        # result of two views with r's strides)
        stride = _layout.elementwise_strides(a.shape, [(a.shape, stride)] * 2)
    return _wrap_array(a, dt, tensor_device(x), stride)


def sample_spacing(x: Tensor, shape: tuple, d: int, cdt, name: str = "trapezoid"):
    """``diff(x)`` along dim ``d`` as ``cdt``, broadcastable to samples of ``shape``: the
    spacing of ``trapezoid``/``cumulative_trapezoid`` given sample points ``x`` (1-D: one per
    sample along ``d``; else broadcast against the samples).

    As PyTorch: ``x`` with fewer dims than the samples gets leading 1s, and the difference is
    taken along dim ``d`` of ``x`` itself (the samples' dim number, counted from the left),
    before ``x`` and the samples broadcast::

        trapezoid(y of shape (2,), x of shape (4, 4))  ->  shape (4,): x's rows differenced
    """
    xa = x._arr
    half = x._dtype is _dtypes.complex32  # (its differences are complex32's: rounded)
    if half:
        xa = _chalf.widen(xa)
    if xa.ndim == 1:
        if xa.shape[0] != shape[d]:
            raise RuntimeError(f"{name}: There must be one `x` value for each sample point")
        dxs = xa[1:] - xa[:-1]
        dxs = (chalf_rounded(dxs) if half else dxs).astype(cdt._np)
        view = [1] * len(shape)
        view[d] = dxs.shape[0]
        return dxs.reshape(view)
    if xa.ndim < len(shape):
        xa = xa.reshape((1,) * (len(shape) - xa.ndim) + xa.shape)
    xd = d
    xlo = [slice(None)] * xa.ndim
    xhi = [slice(None)] * xa.ndim
    xlo[xd], xhi[xd] = slice(None, -1), slice(1, None)
    dxs = xa[tuple(xhi)] - xa[tuple(xlo)]
    return (chalf_rounded(dxs) if half else dxs).astype(cdt._np)


def chalf_rounded(v):
    """Complex64 values ``v`` rounded to complex32 (each part to float16), as complex64: a
    composite's step whose operands are complex32 (``y[1:] + y[:-1]``) rounds so."""
    return _chalf.widen(_chalf.narrow(v))


def chalf_samples(y: Tensor):
    """``y``'s values for a composite of steps: complex32 widened to complex64 (exact)."""
    return _chalf.widen(y._arr) if y._dtype is _dtypes.complex32 else y._arr


def _int_trapezoid_terms(xp, x: Tensor, ya, ydt, shape: tuple, d: int, hi: list, lo: list):
    """``diff(x) * (y[1:] + y[:-1])`` for integer ``x`` and ``y``: the differences, sums and
    products wrap in their integer dtypes, as PyTorch's."""
    pdt = _dtypes.promote_types(x._dtype, ydt)  # (diff(x) has dims, even of a 0-dim x)
    dxs = sample_spacing(x, shape, d, x._dtype)
    pair = ya[tuple(hi)] + ya[tuple(lo)]
    try:
        prod = dxs.astype(pdt._np) * pair.astype(pdt._np)
    except ValueError:
        _layout.broadcast_shapes(pair.shape, dxs.shape)  # (PyTorch's message)
        raise
    return prod


@op(method=False)
def trapezoid(y: Tensor, x: Tensor | None = None, *, dx=None, dim: int = -1) -> Tensor:
    """Integral of ``y`` along ``dim`` by the trapezoidal rule (spacing ``dx`` or samples
    ``x``)."""
    _check_tensor("trapezoid", y)
    spacing_overload("trapezoid", x, dx)
    if not y._shape:  # (PyTorch's messages: with samples x the dim is wrapped first)
        shown = _layout.normalize_dim(dim, 0) if isinstance(x, Tensor) else dim
        raise IndexError(f"Dimension specified as {shown} but tensor has no dimensions")
    d = _layout.normalize_dim(dim, len(y._shape))
    if y._shape[d] == 0:  # (zeros of y's own dtype, bool and integers too, as PyTorch's
        # zeros_like_except: checked before anything else)
        from .._creation import zeros
        return zeros(y._shape[:d] + y._shape[d + 1:], dtype=y._dtype, device=y.device)
    if isinstance(x, Tensor):
        if x._dtype is _dtypes.bool or y._dtype is _dtypes.bool:
            raise RuntimeError("trapezoid: received a bool input for `x` or `y`, but bool is "
                               "not supported")
    elif y._dtype is _dtypes.bool:
        raise RuntimeError("trapezoid: received a bool input for `y`, but bool is not "
                           "supported")
    elif dx is not None and isinstance(dx, (builtins.bool, builtins.complex, np.bool_)):
        raise RuntimeError("trapezoid: Currently, we only support dx as a real number.")
    rdt = y._dtype if y._dtype.category >= _FLOAT else _dtypes._default_dtype
    if isinstance(x, Tensor):
        # (promoted as two dimensioned tensors: PyTorch views a 0-dim x with y's dims before
        # its diff, so a 0-dim float64 x makes a complex64 y's integral complex128)
        rdt = _dtypes.promote_types(y._dtype, x._dtype)
        rdt = rdt if rdt.category >= _FLOAT else _dtypes._default_dtype
    cdt = _opmath(rdt)
    xp = _xp(y)
    half = _dtypes.complex32
    a = _cast_arr(y, cdt, arr=chalf_samples(y))
    if y._shape[d] == 0:
        return wrap_array(xp.sum(a, axis=d), rdt, tensor_device(y))
    lo = [slice(None)] * a.ndim
    hi = [slice(None)] * a.ndim
    lo[d], hi[d] = slice(None, -1), slice(1, None)
    ya = chalf_samples(y)
    ydt = y._dtype

    def rnd(v, dt):
        """A step's result rounded to its dtype, then computed on in ``cdt`` (PyTorch's
        composite rounds after each op)."""
        if dt is half:
            return chalf_rounded(v).astype(cdt._np)
        return v.astype(dt._np).astype(cdt._np)

    def f():
        # PyTorch's composite, each step in its operands' dtypes: with samples x,
        # sum(diff(x) * (y[1:] + y[:-1])) / 2; with a spacing,
        # (sum(y) - (y[0] + y[-1]) * 0.5) * dx
        if isinstance(x, Tensor) and ydt.category < _FLOAT and x._dtype.category < _FLOAT:
            # integers: (diff(x) * (y[1:] + y[:-1])).sum() / 2., each step wrapping in its
            # integer dtype (the sum in int64) as PyTorch's composite does, halved in floats
            terms = _int_trapezoid_terms(xp, x, ya, ydt, a.shape, d, hi, lo)
            return xp.sum(terms, axis=d, dtype=np.int64).astype(cdt._np) / cdt._np.type(2)
        if isinstance(x, Tensor):
            # (diff(x) and y[1:] + y[:-1], each in its own dtype, meet in the result's: an
            # int64 sum of -2**63 is -inf as float16, and -inf * 0 is NaN, as PyTorch's)
            # (a complex32 y's pairs, and x's differences, are complex32's: each rounded,
            # then promoted: 65504 + 65504 is inf before a float32 dx multiplies it)
            dxs = rnd(sample_spacing(x, a.shape, d, cdt if rdt is half else rdt), rdt)
            pair = ya[tuple(hi)] + ya[tuple(lo)]
            pair = rnd(chalf_rounded(pair) if ydt is half else pair, rdt)
            try:
                prod = rnd(dxs * pair, rdt)
            except ValueError:
                _layout.broadcast_shapes(pair.shape, dxs.shape)  # (PyTorch's message)
                raise
            if rdt is half:  # (its mul runs; its sum, and division, have no ComplexHalf
                # kernel: the sum of no element is made without one)
                raise NotImplementedError("\"sum_cpu\" not implemented for 'ComplexHalf'"
                                          if prod.size else
                                          "\"div_cpu\" not implemented for 'ComplexHalf'")
            return rnd(xp.sum(prod, axis=d), rdt) / 2
        if ydt is half and a.size:  # (sum(y) first: no ComplexHalf kernel, but for the sum
            # of no element; the rest of its composite runs on complex32)
            raise NotImplementedError("\"sum_cpu\" not implemented for 'ComplexHalf'")
        step = 1 if dx is None else dx
        first = [slice(None)] * a.ndim
        last = [slice(None)] * a.ndim
        first[d], last[d] = 0, -1
        if ydt.category < _FLOAT:  # (integer sums stay integers until the * 0.5)
            total = xp.sum(ya.astype(np.int64), axis=d).astype(cdt._np)
            ends = (ya[tuple(first)] + ya[tuple(last)]).astype(cdt._np)
            return (total - ends * cdt._np.type(0.5)) * cdt._np.type(step)
        total = rnd(xp.sum(a, axis=d), ydt)
        ends = rnd(a[tuple(first)] + a[tuple(last)], ydt)
        core = rnd(total - rnd(ends * cdt._np.type(0.5), ydt), ydt)
        return core * cdt._np.type(step)
    return wrap_array(call_quiet(f), rdt, tensor_device(y))


@op(method=False)
def trapz(y: Tensor, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """Alias of ``trapezoid`` (its ``dx`` a float: ``True`` is 1.0 here, refused there)."""
    _check_tensor("trapz", y)
    spacing_overload("trapz", x, dx, "float")
    if isinstance(dx, (builtins.bool, np.bool_)):
        dx = builtins.float(dx)
    elif isinstance(dx, builtins.complex):
        raise TypeError("trapz() received an invalid combination of arguments - got (Tensor, "
                        "dx=complex), but expected one of:\n * (Tensor y, *, float dx = 1, "
                        "int dim = -1)\n * (Tensor y, Tensor x, *, int dim = -1)\n")
    return trapezoid(y, x, dx=dx, dim=dim)

