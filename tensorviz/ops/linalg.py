"""Linear algebra: products (``dot``, ``mm``, ``matmul``/``@``, ``einsum`` ...) and the
``tensorviz.linalg`` namespace (``inv``, ``solve``, ``svd``, ``eigh``, ``norm`` ...).

Products call the backend's ``matmul``/``einsum`` directly on the strided array views (BLAS
reads transposed operands in place: no copies for contiguous or transposed inputs), after
PyTorch's checks: equal dtypes (matrix products do not promote), matching shapes, with its
messages.  Factorizations use ``xp.linalg`` (LAPACK on CPU, cuSOLVER through CuPy); their
matrix results are column-major per matrix, as PyTorch's LAPACK results are.  A singular or
non-positive-definite input raises ``tensorviz.linalg.LinAlgError`` (a ``RuntimeError``).
"""
from __future__ import annotations

import builtins
import functools
import contextlib
import math

import numpy as np

from .. import _dtypes, _layout, return_types
from .._device import CPU
from .._dtypes import _COMPLEX, _FLOAT, _INT, result_type
from .._indexing import as_resized, check_partial_overlap, check_writable, scalar_to
from .._dispatch import inplace_of, op, operator_of, store_inplace, write_out
from .._tensor import Tensor, _contig, _fresh, wrap_array
from ..backends import runs_numpy
from ..backends._numpy import call_quiet, context_busy, fma, fma_parts, quiet_run
from ._elementwise import device_of, finish, found_message, mul, operand, operand_layout
from .indexing import _c, _tensor_arg, _xp, warn_once

__all__ = ["LinAlgError", "dot", "vdot", "inner", "outer", "mv", "mm", "bmm", "matmul",
           "addmm", "addmv", "addbmm", "baddbmm", "addr", "einsum", "tensordot", "kron",
           "cross", "trace", "det", "logdet", "slogdet", "inverse", "pinverse",
           "matrix_power", "chain_matmul"]


class LinAlgError(RuntimeError):
    """A linear algebra error on valid input (singular matrix, not positive-definite ...)."""


LinAlgError.__module__ = "tensorviz.linalg"


def _named(fmt: str):
    """An out= dtype message naming PyTorch's ScalarTypes (``Float``, ``Double``)."""
    return lambda r, o: fmt.format(r=r._dtype.cname, o=o._dtype.cname)


# ---------------------------------------------------------------- helpers
def _dims(shape: tuple) -> str:
    return "x".join(map(str, shape))


def _colmajor(xp, arr):
    """``arr`` with each matrix (last two dims) laid out column-major, as LAPACK leaves it."""
    if arr.ndim < 2:
        return _c(xp, arr)
    return xp.swapaxes(_c(xp, xp.swapaxes(arr, -1, -2)), -1, -2)


def _colmajor_strides(shape: tuple) -> tuple:
    """PyTorch's strides of a column-major batch of matrices (size-1 dims as its
    contiguous strides give them: a (1, 4) matrix has strides (1, 1), a (4, 1) one (1, 4))."""
    if len(shape) < 2:
        return _layout.contiguous_strides(shape)
    c = _layout.contiguous_strides(tuple(shape[:-2]) + (shape[-1], shape[-2]))
    return c[:-2] + (c[-1], c[-2])


def _wrap_cm(xp, arr, dt, t: Tensor) -> Tensor:
    """``arr`` as a column-major tensor (as LAPACK leaves its results)."""
    return wrap_array(_colmajor(xp, arr), dt, t.device, stride=_colmajor_strides(arr.shape))


def _finish_cm(xp, arr, dt, dev, out) -> Tensor:
    """``finish`` of a column-major result (written into ``out`` as it is, when given)."""
    return finish(_colmajor(xp, arr), dt, dev, out,
                  None if out is not None else _colmajor_strides(arr.shape))


def _bool_refused(t: Tensor, kernel: str) -> None:
    if t._dtype is _dtypes.bool:
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


def _wrap(arr, dt, t: Tensor) -> Tensor:
    return wrap_array(arr, dt, t.device)


def _scalar(value, dt):
    """alpha/beta converted to the computation dtype (PyTorch truncates for integers)."""
    if dt.category < _FLOAT and isinstance(value, builtins.float):
        info = np.iinfo(dt._np) if dt is not _dtypes.bool else None
        if not math.isfinite(value) or (info is not None and not
                                        info.min <= math.trunc(value) <= info.max):
            cname = {"int32": "int"}.get(dt.name, dt.name + "_t")
            raise RuntimeError(f"value cannot be converted to type {cname} without overflow")
        value = builtins.int(value)
    if dt is _dtypes.bool:
        return builtins.bool(value)
    return scalar_to(value, dt)


def _axpby(xp, prod, alpha, input_arr, beta, dt, skip_zero_alpha: bool = False):
    """``beta * input + alpha * prod`` with PyTorch's rule that ``beta=0`` ignores input (and,
    with ``skip_zero_alpha``, as addmm/addbmm/real addmv, that ``alpha=0`` ignores the product:
    an infinity in it gives no NaN)."""
    if skip_zero_alpha and dt is not _dtypes.bool and alpha == 0 and input_arr is not None:
        if beta == 0:
            return xp.zeros(prod.shape, dtype=dt._np)
        inp = xp.broadcast_to(input_arr, prod.shape)
        res = inp.copy() if beta == 1 else call_quiet(xp.multiply, inp, _scalar(beta, dt))
        return res.astype(dt._np, copy=False)
    if dt is _dtypes.bool:
        res = prod if alpha else xp.zeros_like(prod)
        if beta and input_arr is not None:
            res = xp.logical_or(res, input_arr)
        return res
    a = _scalar(alpha, dt)
    res = prod if alpha == 1 else call_quiet(xp.multiply, prod, a)
    if beta != 0 and input_arr is not None:
        b = _scalar(beta, dt)
        inp = input_arr if beta == 1 else call_quiet(xp.multiply, input_arr, b)
        res = call_quiet(xp.add, res, inp)
    if res is prod and not res.flags.owndata:
        res = res.copy()
    return res.astype(dt._np, copy=False)


# ---------------------------------------------------------------- vector products
def _vec_checks(a: Tensor, b: Tensor, fn: str) -> None:
    if len(a._shape) != 1 or len(b._shape) != 1:
        raise RuntimeError(f"1D tensors expected, but got {len(a._shape)}D and "
                           f"{len(b._shape)}D tensors")
    if a._dtype is not b._dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{a._dtype.cname} and {b._dtype.cname}")
    if a._shape[0] != b._shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{a._shape[0]}] and src "
                           f"[{b._shape[0]}] to have the same number of elements, but got "
                           f"{a._shape[0]} and {b._shape[0]} elements respectively")
    _bool_refused(a, fn)
    device_of(a, b)


@op(out_overlap=None,
    out="exact", out_message=_named("result dtype {o} does not match input dtype {r}"))
def dot(input, tensor, *, out=None) -> Tensor:
    """``sum(input[i] * tensor[i])`` of two 1-D tensors of the same dtype (0-dim result)."""
    input = _tensor_arg(input, "dot", "input", 1)
    tensor = _tensor_arg(tensor, "dot", "tensor", 2)
    _vec_checks(input, tensor, "dot")
    xp = _xp(input)
    res = xp.asarray(_cprod(xp, xp.dot, input._arr, tensor._arr))
    if out is None and input._cj and tensor._cj and input._dtype.category == _COMPLEX:
        return _lazy_conj_result(xp, res.reshape(()), input)
    return finish(res.reshape(()), input._dtype, input.device, out)


def _lazy_conj_result(xp, res, like: Tensor) -> Tensor:
    """``res`` as PyTorch returns it when it computes on the conjugates of conjugate views
    and conjugates lazily at the end (``dot`` of two, ``vdot`` with a conjugate ``other``):
    a conjugate view of memory holding ``conj(res)``."""
    return wrap_array(xp.conj(res), like._dtype, like.device).conj()


@op(out_overlap=None,
    out="exact", out_message=_named("result dtype {o} does not match input dtype {r}"))
def vdot(input, other, *, out=None) -> Tensor:
    """``dot(conj(input), other)``."""
    input = _tensor_arg(input, "vdot", "input", 1)
    other = _tensor_arg(other, "vdot", "other", 2)
    _vec_checks(input, other, "vdot")
    xp = _xp(input)
    res = xp.asarray(call_quiet(xp.vdot, input._arr, other._arr))
    if res.dtype.kind == "c" and not builtins.bool(xp.isfinite(res).all()):
        res = xp.asarray(_cprod(xp, xp.dot, xp.conj(input._arr.ravel()), other._arr.ravel()))
    if out is None and other._cj and not input._cj and input._dtype.category == _COMPLEX:
        return _lazy_conj_result(xp, res.reshape(()), input)
    return finish(res.reshape(()), input._dtype, input.device, out)


@op()
def inner(input, other, *, out=None) -> Tensor:
    """Sums of products over the last dim: shape ``input.shape[:-1] + other.shape[:-1]``."""
    input = _tensor_arg(input, "inner", "input", 1)
    other = _tensor_arg(other, "inner", "other", 2)
    if not input._shape or not other._shape:
        return mul(input, other, out=out)
    if input._dtype is not other._dtype:
        raise RuntimeError("both inputs should have same dtype")
    if input._shape[-1] != other._shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but "
                           f"got shapes {list(input._shape)} and {list(other._shape)}")
    _bool_refused(input, "inner")
    dev = device_of(input, other)
    xp = _xp(input)
    res = xp.asarray(_cprod(xp, xp.inner, input._arr, other._arr))
    if out is None and _lazy_one_by_one(input, other, [len(input._shape) - 1],
                                        [len(other._shape) - 1]):
        return _lazy_conj_result(xp, res, input)  # (PyTorch's inner is a tensordot)
    return finish(_c(xp, res), input._dtype, dev, out)


@op(aliases=("ger",))
def outer(input, vec2, *, out=None) -> Tensor:
    """``out[i, j] = input[i] * vec2[j]`` (promoting, as ``mul``)."""
    input = _tensor_arg(input, "outer", "input", 1)
    vec2 = _tensor_arg(vec2, "outer", "vec2", 2)
    if len(input._shape) != 1:
        raise RuntimeError(f"outer: Expected 1-D argument self, but got {input.dim()}-D")
    if len(vec2._shape) != 1:
        raise RuntimeError(f"outer: Expected 1-D argument vec2, but got {vec2.dim()}-D")
    # (PyTorch's outer is ``input.reshape(n, 1) * vec2``: for an empty expanded input the
    # reshape's strides are (1, 1), an unsqueeze's (0, 1), and so the result's differ; the
    # unsqueeze, the same view otherwise, is the cheaper call)
    col = input.reshape(0, 1) if input._shape[0] == 0 else input.unsqueeze(1)
    return mul(col, vec2, out=out)



# ---------------------------------------------------------------- matrix products
def _cprod(xp, fn, a, b):
    """``fn(a, b)`` for a bilinear product (``matmul``, ``dot``, ``inner``), quietly, with
    PyTorch's non-finite complex values: NumPy's BLAS complex kernels give NaN where the
    textbook sums of ``(ac - bd) + (ad + bc)i`` overflow to an infinity (a row holding
    ``3.4e38+1j`` gives ``nan-inf j`` for PyTorch's ``inf-inf j``), so a complex result that
    is not finite is recomputed from the real and imaginary parts, as PyTorch's are."""
    res = call_quiet(fn, a, b)
    if getattr(res, "dtype", None) is None or res.dtype.kind != "c" or \
            builtins.bool(xp.isfinite(res).all()):
        return res
    a, b = xp.asarray(a), xp.asarray(b)
    ar, ai = a.real, (a.imag if a.dtype.kind == "c" else xp.zeros_like(a.real))
    br, bi = b.real, (b.imag if b.dtype.kind == "c" else xp.zeros_like(b.real))
    with np.errstate(all="ignore"):
        re_ = fn(ar, br) - fn(ai, bi)
        im_ = fn(ar, bi) + fn(ai, br)
    out = xp.empty(xp.shape(re_), dtype=res.dtype)
    out.real, out.imag = re_, im_
    return out


def _mm_dtype_check(a: Tensor, b: Tensor) -> None:
    if a._dtype is not b._dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{a._dtype.cxx_name} != {b._dtype.cxx_name}")


def _mm_shape_check(a_shape, b_shape) -> None:
    if a_shape[-1] != b_shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_dims(a_shape)} and "
                           f"{_dims(b_shape)})")


def _matrix_product(input: Tensor, other: Tensor) -> Tensor | None:
    """``input @ other`` for two CPU matrices of one (non-bool) dtype whose shapes fit (they
    pass every check of matmul and mm: the product is what their general paths compute), else
    None.  The fast path of both: ndarray.dot is the same BLAS product as np.matmul for two
    matrices with a fraction of its call overhead on small ones, and its result is a new
    row-major array."""
    dt, sa, sb = input._dtype, input._shape, other._shape
    if len(sa) == 2 and len(sb) == 2 and sa[1] == sb[0] and dt is other._dtype and \
            dt is not _dtypes.bool:
        xa, xb = input._a, other._a
        if xa is None:
            xa = input._arr
        if xb is None:
            xb = other._arr
        if type(xa) is np.ndarray and type(xb) is np.ndarray:
            try:  # call_quiet, inlined
                res = quiet_run(xa.dot, xb)
            except RuntimeError as e:
                if not context_busy(e):
                    raise
                res = call_quiet(xa.dot, xb)
            if res.dtype.kind == "c":
                res = _cprod(np, np.matmul, xa, xb) if not np.isfinite(res).all() else res
            if res.dtype is dt._np:
                shape = res.shape
                return _fresh(dt, shape, _contig(shape), res)
            return wrap_array(res, dt, CPU)
    return None


@op(out_overlap=None, out="exact")
def mm(input, mat2, *, out=None) -> Tensor:
    """Matrix product of two 2-D tensors of the same dtype.

    >>> tensorviz.mm(tensorviz.ones(2, 3), tensorviz.ones(3, 1))
    tensor([[3.],
            [3.]])
    """
    if type(input) is Tensor and type(mat2) is Tensor and out is None:
        res = _matrix_product(input, mat2)
        if res is not None:
            return res
    input = _tensor_arg(input, "mm", "input", 1)
    mat2 = _tensor_arg(mat2, "mm", "mat2", 2)
    if len(input._shape) != 2:
        raise RuntimeError("self must be a matrix")
    if len(mat2._shape) != 2:
        raise RuntimeError("mat2 must be a matrix")
    _mm_shape_check(input._shape, mat2._shape)
    _mm_dtype_check(input, mat2)
    _bool_refused(input, "addmm_impl_cpu_")
    dev = device_of(input, mat2)
    res = _cprod(_xp(input), _xp(input).matmul, input._arr, mat2._arr)  # (overflow: inf)
    return finish(res, input._dtype, dev, out)


def _mv_checks(mat: Tensor, vec: Tensor) -> None:
    if len(mat._shape) != 2 or len(vec._shape) != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {mat.dim()}, "
                           f"{vec.dim()}")
    if mat._dtype is not vec._dtype:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{vec._dtype.cname}, {mat._dtype.cname}, and {vec._dtype.cname}")
    if mat._shape[1] != vec._shape[0]:
        raise RuntimeError(f"size mismatch, got input ({mat._shape[0]}), mat "
                           f"({_dims(mat._shape)}), vec ({vec._shape[0]})")
    _bool_refused(mat, "addmv_impl_cpu")


@op(out_overlap=None, out="exact")
def mv(input, vec, *, out=None) -> Tensor:
    """Matrix-vector product: ``out[i] = sum_j input[i, j] * vec[j]``."""
    input = _tensor_arg(input, "mv", "input", 1)
    vec = _tensor_arg(vec, "mv", "vec", 2)
    _mv_checks(input, vec)
    dev = device_of(input, vec)
    res = _cprod(_xp(input), _xp(input).matmul, input._arr, vec._arr)
    return finish(res, input._dtype, dev, out)


def _bmm_checks(a: Tensor, b: Tensor) -> None:
    if len(a._shape) != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if len(b._shape) != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if a._dtype is not b._dtype:
        raise RuntimeError(f"expected scalar type {a._dtype.cname} but found {b._dtype.cname}")
    if b._shape[:2] != (a._shape[0], a._shape[2]):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{a._shape[0]}, {a._shape[2]}] but got: [{b._shape[0]}, "
                           f"{b._shape[1]}].")
    _bool_refused(a, "bmm")


@op(out_overlap=None, out="exact")
def bmm(input, mat2, *, out=None) -> Tensor:
    """Batched matrix product of two 3-D tensors with the same batch size (no broadcasting)."""
    input = _tensor_arg(input, "bmm", "input", 1)
    mat2 = _tensor_arg(mat2, "bmm", "mat2", 2)
    _bmm_checks(input, mat2)
    dev = device_of(input, mat2)
    res = _cprod(_xp(input), _xp(input).matmul, input._arr, mat2._arr)  # (overflow: inf)
    return finish(res, input._dtype, dev, out)


def _matmul_checks(a: Tensor, b: Tensor) -> None:
    """PyTorch's checks (and messages) for each case of ``matmul``."""
    da, db = len(a._shape), len(b._shape)
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{da}D and {db}D")
    if da == 1 and db == 1:
        _vec_checks(a, b, "dot")
    elif db == 1:  # (..., n, k) @ (k,): a matrix-vector product on the folded rows
        rows = _layout.numel(a._shape[:-1])
        if a._dtype is not b._dtype:
            raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                               f"{b._dtype.cname}, {a._dtype.cname}, and {b._dtype.cname}")
        if a._shape[-1] != b._shape[0]:
            raise RuntimeError(f"size mismatch, got input ({rows}), mat ({rows}x"
                               f"{a._shape[-1]}), vec ({b._shape[0]})")
        _bool_refused(a, "addmv_impl_cpu")
    elif db == 2:  # (..., k) @ (k, m): a matrix product on the folded rows
        rows = _layout.numel(a._shape[:-1]) if da > 1 else 1
        _mm_shape_check((rows, a._shape[-1]), b._shape)
        _mm_dtype_check(a, b)
        _bool_refused(a, "addmm_impl_cpu_")
    else:
        batch = _layout.broadcast_shapes(a._shape[:-2], b._shape[:-2])
        if a._dtype is not b._dtype:
            raise RuntimeError(f"expected scalar type {a._dtype.cname} but found "
                               f"{b._dtype.cname}")
        n = _layout.numel(batch)
        if a._shape[-1] != b._shape[-2]:
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to "
                               f"be: [{n}, {a._shape[-1]}] but got: [{n}, {b._shape[-2]}].")
        _bool_refused(a, "bmm")


@op(out_overlap=None, out="exact", also=("linalg.matmul",))
def matmul(input, other, *, out=None) -> Tensor:
    """The matrix product with NumPy's (and PyTorch's) rules: 1-D operands are vectors, batch
    dims broadcast; ``a @ b``.  Same dtypes only (no promotion), as in PyTorch."""
    if type(input) is Tensor and type(other) is Tensor and out is None:
        res = _matrix_product(input, other)
        if res is not None:
            return res
    input = _tensor_arg(input, "matmul", "input", 1)
    other = _tensor_arg(other, "matmul", "other", 2)
    _matmul_checks(input, other)
    dev = device_of(input, other)
    res = _cprod(_xp(input), _xp(input).matmul, input._arr, other._arr)
    if not hasattr(res, "shape") or not res.shape:
        res = _xp(input).asarray(res).reshape(())
        if out is None and input._cj and other._cj and input._dtype.category == _COMPLEX:
            # (PyTorch's matmul of two vectors is their dot: of two conjugate views, a
            # conjugate view, as dot's)
            return _lazy_conj_result(_xp(input), res, input)
    return finish(res, input._dtype, dev, out)


@operator_of(matmul, "__matmul__")
def _matmul(self, other):
    if not isinstance(other, Tensor):
        return NotImplemented
    return matmul(self, other)


@operator_of(matmul, "__rmatmul__")
def _rmatmul(self, other):
    if not isinstance(other, Tensor):
        return NotImplemented
    return matmul(other, self)


@operator_of(matmul, "__imatmul__")
def _imatmul(self, other):
    """``a @= b`` is ``a = a @ b``: PyTorch has no in-place matmul, so Python rebinds ``a``
    to a new tensor and ``a``'s old storage (and its views) keep their values."""
    if not isinstance(other, Tensor):
        return NotImplemented
    return matmul(self, other)


def _add_checks_dtype(inp: Tensor, m: Tensor, fn: str) -> None:
    if inp._dtype is not m._dtype:
        if fn == "baddbmm":
            raise RuntimeError(f"Input dtypes must be the same, got: input "
                               f"{inp._dtype.cxx_name}, batch1: {m._dtype.cxx_name}, "
                               f"batch2: {m._dtype.cxx_name}")
        raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                           f"{inp._dtype.cname} and {m._dtype.cname}")


def _expand_arr(t: Tensor, shape: tuple):
    if t._shape == shape:
        return t._arr
    return t.expand(shape)._arr


@op(out_overlap="first", out="exact")
def addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)`` (``input`` broadcast to the product)."""
    input = _tensor_arg(input, "addmm", "input", 1)
    mat1 = _tensor_arg(mat1, "addmm", "mat1", 2)
    mat2 = _tensor_arg(mat2, "addmm", "mat2", 3)
    if len(mat1._shape) != 2:
        raise RuntimeError(f"mat1 must be a matrix, got {mat1.dim()}-D tensor")
    if len(mat2._shape) != 2:
        raise RuntimeError(f"mat2 must be a matrix, got {mat2.dim()}-D tensor")
    _mm_dtype_check(mat1, mat2)
    _add_checks_dtype(input, mat2, "addmm")
    _mm_shape_check(mat1._shape, mat2._shape)
    if input._dtype is _dtypes.bool:
        _bool_refused(input, "addmm_impl_cpu_")
    dev = device_of(input, mat1, mat2)
    xp = _xp(mat1)
    shape = (mat1._shape[0], mat2._shape[1])
    inp = _expand_arr(input, shape)
    prod = _cprod(xp, xp.matmul, mat1._arr, mat2._arr)
    res = call_quiet(lambda: _axpby(xp, prod, alpha, inp, beta, input._dtype, True))
    # (row-major, as PyTorch allocates it: also when alpha is 0 and the result is
    # beta * input of another layout)
    return finish(res, input._dtype, dev, out, _contig(res.shape))


@op(out_overlap="first", out="exact")
def addmv(input, mat, vec, *, beta=1, alpha=1, out=None) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``."""
    input = _tensor_arg(input, "addmv", "input", 1)
    mat = _tensor_arg(mat, "addmv", "mat", 2)
    vec = _tensor_arg(vec, "addmv", "vec", 3)
    if input._dtype is not mat._dtype or mat._dtype is not vec._dtype:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{input._dtype.cname}, {mat._dtype.cname}, and {vec._dtype.cname}")
    _mv_checks(mat, vec)
    dev = device_of(input, mat, vec)
    xp = _xp(mat)
    inp = _expand_arr(input, (mat._shape[0],))
    prod = _cprod(xp, xp.matmul, mat._arr, vec._arr)
    skip = input._dtype.category != _COMPLEX  # (PyTorch's complex addmv computes it)
    res = call_quiet(lambda: _axpby(xp, prod, alpha, inp, beta, input._dtype, skip))
    return finish(res, input._dtype, dev, out, _contig(res.shape))


@op(out_overlap="first", out="exact")
def baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None) -> Tensor:
    """``beta * input + alpha * bmm(batch1, batch2)``."""
    input = _tensor_arg(input, "baddbmm", "input", 1)
    batch1 = _tensor_arg(batch1, "baddbmm", "batch1", 2)
    batch2 = _tensor_arg(batch2, "baddbmm", "batch2", 3)
    _add_checks_dtype(input, batch1, "baddbmm")
    _bmm_checks(batch1, batch2)
    dev = device_of(input, batch1, batch2)
    xp = _xp(batch1)
    shape = (batch1._shape[0], batch1._shape[1], batch2._shape[2])
    inp = _expand_arr(input, shape)
    prod = _cprod(xp, xp.matmul, batch1._arr, batch2._arr)
    res = call_quiet(lambda: _axpby(xp, prod, alpha, inp, beta, input._dtype))
    return finish(res, input._dtype, dev, out, _contig(res.shape))  # (row-major, as addmm)


@op(out_overlap=None,
    out="exact", out_message=_named("self and mat2 must have the same dtype, but got {o} "
                                          "and {r}"))
def addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None) -> Tensor:
    """``beta * input + alpha * sum_b batch1[b] @ batch2[b]``."""
    input = _tensor_arg(input, "addbmm", "input", 1)
    batch1 = _tensor_arg(batch1, "addbmm", "batch1", 2)
    batch2 = _tensor_arg(batch2, "addbmm", "batch2", 3)
    _add_checks_dtype(input, batch2, "addbmm")
    _bmm_checks(batch1, batch2)
    dev = device_of(input, batch1, batch2)
    xp = _xp(batch1)
    shape = (batch1._shape[1], batch2._shape[2])
    inp = _expand_arr(input, shape)
    b, n, k = batch1._shape
    m = batch2._shape[2]
    # sum_b A[b] @ B[b] is one matrix product: (n, b*k) @ (b*k, m).
    a2 = xp.transpose(batch1._arr, (1, 0, 2)).reshape(n, b * k)
    b2 = batch2._arr.reshape(b * k, m)
    prod = _cprod(xp, xp.matmul, a2, b2)
    res = call_quiet(lambda: _axpby(xp, prod, alpha, inp, beta, input._dtype, True))
    # (row-major, as PyTorch allocates it: also when alpha is 0 and the result is
    # beta * input of another layout)
    return finish(res, input._dtype, dev, out, _contig(res.shape))


@op()
def addr(input, vec1, vec2, *, beta=1, alpha=1, out=None) -> Tensor:
    """``beta * input + alpha * outer(vec1, vec2)`` (promoting, as the elementwise ops)."""
    input = _tensor_arg(input, "addr", "input", 1)
    vec1 = _tensor_arg(vec1, "addr", "vec1", 2)
    vec2 = _tensor_arg(vec2, "addr", "vec2", 3)
    if len(vec1._shape) != 1 or len(vec2._shape) != 1:
        raise RuntimeError(f"addr: Expected 1-D argument vec1, but got {vec1.dim()}-D"
                           if len(vec1._shape) != 1 else
                           f"addr: Expected 1-D argument vec2, but got {vec2.dim()}-D")
    shape = (vec1._shape[0], vec2._shape[0])
    # (PyTorch's TensorIterator sees input expanded to the result's shape: a 0-dim input
    # promotes as a dimensioned tensor, complex128 with float32 vectors, not complex64)
    rdt = result_type(input if input._shape else input.expand(shape), vec1, vec2)
    for name, v in (("beta", beta), ("alpha", alpha)):  # (addr checks them, addmm does not)
        if rdt.category < _FLOAT and isinstance(v, builtins.float):
            raise RuntimeError(f"For integral input tensors, argument {name} must not be a "
                               "floating point number.")
    dev = device_of(input, vec1, vec2)
    xp = _xp(vec1)
    a = call_quiet(operand, vec1, rdt, dev)  # (int64 2**62 to float16 is inf, quietly)
    b = call_quiet(operand, vec2, rdt, dev)
    cplx = rdt.is_complex
    if rdt is not _dtypes.bool and (alpha != 1 or cplx):
        # (PyTorch's kernel: beta * self + alpha * vec1 * vec2, left to right, each step
        # rounded: alpha * 60000 is inf in float16, times a 0 of vec2 is nan; a complex
        # product by 1 is not exact either, (1+0j) * (-inf+0j) is -inf+nanj)
        scale = _scalar(alpha, rdt)
        a = call_quiet(lambda: xp.multiply(a, scale).astype(rdt._np, copy=False))
        alpha = 1
    prod = xp.logical_and(a[:, None], b[None, :]) if rdt is _dtypes.bool else \
        call_quiet(xp.multiply, a[:, None], b[None, :])
    inp = call_quiet(operand, input.expand(shape) if input._shape != shape else input, rdt,
                     dev)
    if cplx and beta == 1:  # (beta * self in PyTorch's kernel: (1+0j) * (inf+0j) is inf+nanj)
        inp = call_quiet(xp.multiply, inp, _scalar(beta, rdt))
    # (quiet: a product or scaling past the dtype's range is inf, as PyTorch's, not a
    # NumPy RuntimeWarning)
    res = call_quiet(_axpby, xp, prod, alpha, inp, beta, rdt)
    # (PyTorch's addr is a TensorIterator over input expanded to the result's shape,
    # vec1.reshape(m, 1) and vec2, each converted to the result dtype first)
    m, n = shape
    stride = _layout.elementwise_strides(shape, [
        operand_layout(input.expand(shape) if input._shape != shape else input, rdt),
        operand_layout(vec1.as_strided((m, 1), (vec1._stride[0],) * 2), rdt),
        operand_layout(vec2, rdt)])
    return finish(res, rdt, dev, out, stride)


def _add_product_(self: Tensor, res: Tensor) -> Tensor:
    """The in-place form of ``addmm``/``addmv``/``baddbmm``/``addbmm``/``addr``: ``self``
    (the added term) takes the result, which must have its shape and cast to its dtype.

    # Note: the product is computed before ``self`` is written, also where ``self`` is one
    # of its factors (``x.addmm_(x, x)``); PyTorch's kernels then read entries they have
    # already overwritten (complex addmm_/addmv_, any baddbmm_) and return another matrix."""
    check_writable(self)
    return store_inplace(self, res)


@inplace_of(addmm)
def addmm_(self: Tensor, mat1, mat2, *, beta=1, alpha=1) -> Tensor:
    return _add_product_(self, addmm(self, mat1, mat2, beta=beta, alpha=alpha))


@inplace_of(addmv)
def addmv_(self: Tensor, mat, vec, *, beta=1, alpha=1) -> Tensor:
    return _add_product_(self, addmv(self, mat, vec, beta=beta, alpha=alpha))


@inplace_of(baddbmm)
def baddbmm_(self: Tensor, batch1, batch2, *, beta=1, alpha=1) -> Tensor:
    return _add_product_(self, baddbmm(self, batch1, batch2, beta=beta, alpha=alpha))


@inplace_of(addbmm)
def addbmm_(self: Tensor, batch1, batch2, *, beta=1, alpha=1) -> Tensor:
    return _add_product_(self, addbmm(self, batch1, batch2, beta=beta, alpha=alpha))


@inplace_of(addr)
def addr_(self: Tensor, vec1, vec2, *, beta=1, alpha=1) -> Tensor:
    return _add_product_(self, addr(self, vec1, vec2, beta=beta, alpha=alpha))


@op(method=False)
def chain_matmul(*matrices, out=None) -> Tensor:
    """Deprecated ``linalg.multi_dot`` with the matrices as separate arguments."""
    warn_once("torch.chain_matmul is deprecated and will be removed in a future PyTorch "
              "release. Use torch.linalg.multi_dot instead, which accepts a list of two or "
              "more tensors rather than multiple parameters.")
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = tuple(matrices[0])
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for m in matrices:  # (PyTorch's check, before multi_dot's own: 1-D ends are refused)
        if isinstance(m, Tensor) and len(m._shape) != 2:
            raise RuntimeError(f"Tensor dimension is {len(m._shape)}, expected 2 instead.")
    if len(matrices) == 1:
        if out is None:
            return matrices[0].clone()
        m = matrices[0]
        if isinstance(out, Tensor) and isinstance(m, Tensor):  # (PyTorch's copy_ into out)
            check_partial_overlap(as_resized(out, m._shape), m, lazy_read=False)
        return write_out(out, m._arr, m._dtype, m._storage._device)
    return multi_dot(list(matrices), out=out)


# ---------------------------------------------------------------- einsum / tensordot / kron
def _parse_sublists(args):
    """``einsum(a, [0, 1], b, [1, 2], [0, 2])`` -> an equation string and the operands."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

    def sub(lst):
        return "".join("..." if s is Ellipsis else letters[s] for s in lst)

    ops, subs = [], []
    rest = list(args)
    while len(rest) >= 2 and isinstance(rest[0], Tensor):
        ops.append(rest.pop(0))
        subs.append(sub(rest.pop(0)))
    eq = ",".join(subs)
    if rest:
        eq += "->" + sub(rest[0])
    return eq, ops


def _einsum_dims(inputs, operands) -> None:
    """PyTorch's check that each operand has as many dims as its subscripts."""
    for i, (sub, op) in enumerate(zip(inputs, operands)):
        nlabels = len(sub.replace("...", ""))
        if "..." not in sub and nlabels != len(op._shape):
            raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                               f"({nlabels}) does not match the number of dimensions "
                               f"({len(op._shape)}) for operand {i} and no ellipsis was "
                               "given")
        if nlabels > len(op._shape):
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({nlabels}) "
                               f"is more than the number of dimensions ({len(op._shape)}) for "
                               f"operand {i}")


def _einsum_sizes(inputs, operands) -> None:
    """PyTorch's checks, in its order, that each subscript has one size (or 1, broadcasting)
    everywhere, that a subscript repeated in an operand has equal sizes there, and that the
    dims ``...`` covers broadcast together."""
    seen: dict = {}
    ell_num = builtins.max([len(op._shape) - len(sub.replace("...", ""))
                            for sub, op in zip(inputs, operands) if "..." in sub] + [0])
    ell_sizes = [1] * ell_num
    for i, (sub, op) in enumerate(zip(inputs, operands)):
        shape = op._shape
        dim = 0
        own: dict = {}
        for ch in sub.replace("...", "."):
            if ch == ".":
                nd = len(shape) - (len(sub) - 3)
                for j in range(ell_num - nd, ell_num):
                    size = shape[dim]
                    if size != 1:
                        if ell_sizes[j] not in (1, size):
                            raise RuntimeError(
                                f"einsum(): dimension {dim} covered by ellipsis in operand "
                                f"{i}has size {size} which does not broadcast with previously "
                                f"seen ellipsis with size {ell_sizes[j]} for the respective "
                                "dimension")
                        ell_sizes[j] = size
                    dim += 1
                continue
            size = shape[dim]
            if ch in own:
                if size != own[ch]:
                    raise RuntimeError(f"einsum(): subscript {ch} is repeated for operand {i} "
                                       f"but the sizes don't match, {size} != {own[ch]}")
                dim += 1
                continue
            own[ch] = size
            prev = seen.get(ch)
            if size != 1:
                if prev is not None and prev not in (1, size):
                    raise RuntimeError(f"einsum(): subscript {ch} has size {size} for operand "
                                       f"{i} which does not broadcast with previously seen "
                                       f"size {prev}")
                seen[ch] = size
            elif prev is None:
                seen[ch] = size
            dim += 1


def _einsum_subscripts(raw: str) -> None:
    """PyTorch's checks of the equation's characters and of its output subscripts."""
    lhs, arrow, rhs = raw.partition("->")
    for i, c in enumerate(lhs):
        if c not in " .," and not (c.isascii() and c.isalpha()):
            raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the equation "
                               "string, subscripts must be in [a-zA-Z]")
    if not arrow:
        return
    seen = set()
    for i, c in enumerate(rhs):
        if c in " .":
            continue
        if not (c.isascii() and c.isalpha()):
            raise RuntimeError(f"einsum(): invalid subscript given at index {len(lhs) + 2 + i} "
                               "in the equation string, subscripts must be in [a-zA-Z]")
        if c in seen:
            raise RuntimeError(f"einsum(): output subscript {c} appears more than once in the "
                               "output")
        if c not in lhs:
            raise RuntimeError(f"einsum(): output subscript {c} does not appear in the equation "
                               "for any input operand")
        seen.add(c)


@op(method=False)
def einsum(*args) -> Tensor:
    """Einstein summation, e.g. ``einsum('bij,bjk->bik', a, b)``; operands of one dtype."""
    if not args:
        raise TypeError("einsum(): must specify the equation string and at least one operand, "
                        "or at least one operand and its subscripts list")
    if isinstance(args[0], str):
        equation = args[0]
        operands = args[1:]
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = tuple(operands[0])
    else:
        equation, operands = _parse_sublists(args)
    raw = equation
    equation = equation.replace(" ", "")
    for i, op in enumerate(operands):
        if not isinstance(op, Tensor):
            raise TypeError(f"einsum(): operand {i} must be a Tensor, not {type(op).__name__}")
    _einsum_subscripts(raw.partition("->")[0])
    inputs = equation.split("->")[0].split(",")
    if len(inputs) > len(operands):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the "
                           "equation")
    if len(inputs) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation")
    _einsum_dims(inputs, operands)
    _einsum_subscripts(raw)
    if "->" in equation:
        out_sub = equation.split("->")[1]
    else:  # implicit output: the letters seen once, sorted
        letters = "".join(inputs).replace("...", "")
        out_sub = ("..." if "..." in equation else "") + "".join(
            sorted(c for c in set(letters) if letters.count(c) == 1))
    _einsum_sizes(inputs, operands)
    dt = operands[0]._dtype
    for op in operands[1:]:
        if op._dtype is not dt:
            raise RuntimeError(f"expected scalar type {dt.cname} but found {op._dtype.cname}")
    dev = device_of(*operands)
    summed = set("".join(inputs).replace("...", "")) - set(out_sub.replace("...", ""))
    if len(operands) == 1 and not summed and "..." not in equation and \
            len(set(out_sub)) == len(out_sub):
        return _einsum_view(operands[0], inputs[0], out_sub)
    rdt = dt
    if summed and dt.category <= _INT:
        if len(operands) == 1:
            rdt = _dtypes.int64  # a plain sum: PyTorch's sum promotes bool/int to int64
        elif "..." not in equation and len(operands) == 2:
            rdt = _einsum_int_dtype(dt, inputs, operands, summed)
        elif dt is _dtypes.bool:
            raise NotImplementedError('"bmm" not implemented for \'Bool\'')
    xp = _xp(operands[0])
    arrays = [operand(op, rdt, dev) for op in operands]
    if rdt is _dtypes.bfloat16:  # (NumPy's einsum has no bfloat16 loop: float32, as PyTorch)
        arrays = [a.astype(np.float32) for a in arrays]
    if "->" in equation and "..." in equation.split("->")[0] and "..." not in out_sub:
        # PyTorch sums the '...' dims an explicit output leaves out (NumPy refuses): name them
        lhs = equation.split("->")[0].split(",")
        n_ell = [op.dim() - (len(sub) - 3) if "..." in sub else 0
                 for sub, op in zip(lhs, operands)]
        free = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                if c not in equation][:builtins.max(n_ell)]
        lhs = [sub.replace("...", "".join(free[len(free) - k:]) if k else "")
               for sub, k in zip(lhs, n_ell)]
        equation = ",".join(lhs) + "->" + out_sub
    try:
        if rdt is _dtypes.bool:
            res = xp.einsum(equation if "->" in equation else equation + "->" + out_sub,
                            *arrays)
        else:
            kw = {"optimize": True} if runs_numpy(xp) and len(arrays) > 2 else {}
            res = call_quiet(xp.einsum, equation, *arrays, **kw)
    except ValueError as e:
        raise RuntimeError(f"einsum(): {e}") from None
    res = xp.asarray(res)
    if any(xp.may_share_memory(res, a) for a in arrays):
        res = res.copy()
    stride = None
    if len(operands) == 2 and "..." not in equation:
        stride = _einsum_pair_strides(inputs, out_sub, operands, rdt)
    return wrap_array(_c(xp, res), rdt, dev, stride)


def _einsum_pair_strides(inputs: list, out_sub: str, operands: list, rdt) -> tuple | None:
    """The strides of PyTorch's einsum of two operands (None where it is not followed: a
    repeated label, an empty dim): each operand unsqueezed and permuted to the output labels
    then the summed ones (upper case before lower case), a summed label only one operand
    holds summed first (row-major, keepdim), then ``sumproduct_pair``: a product laid out
    by TensorIterator (an operand of another dtype as its converted copy), or a bmm whose
    row-major (shared, left-only, summed, right-only) result is permuted back, the operands
    taken the other way round where every right-only dim comes before the left-only ones;
    the summed dims are viewed away.  Checked against PyTorch 2.13 on random layouts."""
    if any(len(set(sub)) != len(sub) for sub in inputs) or \
            any(0 in op._shape for op in operands):
        return None
    summed = sorted(set("".join(inputs)) - set(out_sub), key=lambda c: (c.islower(), c))
    order = list(out_sub) + summed
    n_out, n = len(out_sub), len(out_sub) + len(summed)
    views = []
    for sub, op in zip(inputs, operands):
        shape = [op._shape[sub.index(c)] if c in sub else 1 for c in order]
        # (a missing label is unsqueezed at the end first: stride 1, then permuted)
        stride = [op._stride[sub.index(c)] if c in sub else 1 for c in order]
        views.append([shape, stride, op._dtype])
    sa, sb = views[0][0], views[1][0]
    pair = []
    for j in range(n_out, n):
        if sa[j] != 1 and sb[j] != 1:
            pair.append(j)
        elif sa[j] != 1 or sb[j] != 1:  # (summed by sum(j, keepdim=True): row-major)
            v = views[0] if sa[j] != 1 else views[1]
            v[0] = v[0][:j] + [1] + v[0][j + 1:]
            v[1] = list(_layout.contiguous_strides(v[0]))
            v[2] = _dtypes.int64 if v[2].category <= _INT else v[2]
    sa, sb = views[0][0], views[1][0]
    shape = [builtins.max(x, y) for x, y in zip(sa, sb)]
    if not pair:  # (a product: TensorIterator's layout, a converted input as its copy)
        lay = []
        for sh, st, dt in views:
            st = tuple(st)
            if dt is not rdt and st != _layout.contiguous_strides(sh):
                st = _layout.cast_strides(sh, st)
            lay.append((tuple(sh), st))
        st = _layout.elementwise_strides(tuple(shape), lay)
    else:
        lro = [i for i in range(n) if i not in pair and sa[i] != 1 and sb[i] != 1]
        lo = [i for i in range(n) if i not in pair and i not in lro and sa[i] != 1]
        ro = [i for i in range(n) if i not in pair and i not in lro and i not in lo]
        if lo and ro and ro[-1] < lo[0]:  # (PyTorch swaps the operands then)
            lo, ro = ro, lo
        dims = lro + lo + pair + ro
        out_size = [shape[d] if d not in pair else 1 for d in dims]
        contig = _layout.contiguous_strides(out_size)
        st = [0] * n
        for k, d in enumerate(dims):
            st[d] = contig[k]
        shape = [1 if d in pair else shape[d] for d in range(n)]
    if n > n_out:  # (the summed dims, all of size 1 now, viewed away)
        st = _layout.view_strides(tuple(shape), tuple(st), tuple(shape[:n_out]))
    return None if st is None else tuple(st)


def _einsum_int_dtype(dt, inputs: list, operands: list, summed: set):
    """The dtype of PyTorch's einsum of bool/integer operands, which contracts them left to
    right: a summed label that only one operand holds with a size above 1 is summed by
    ``sum`` first, which promotes to int64; a pair of operands sharing summed labels meets
    in ``bmm``, which refuses two dtypes (and bool); otherwise they multiply (promoting).
    Checked against PyTorch 2.13: ``einsum('ij,jk->ik', int8 (2, 3), int8 (1, 2))`` is
    int64, with a (3, 2) second operand int8."""
    sizes = [{} for _ in operands]
    for k, (sub, op) in enumerate(zip(inputs, operands)):
        for c, n in zip(sub, op._shape):
            sizes[k][c] = n
    big = {c: [k for k in range(len(operands)) if sizes[k].get(c, 1) > 1] for c in summed}
    last = {c: ks[-1] for c, ks in big.items() if ks}
    res = _dtypes.int64 if any(k == 0 for k in last.values()) else dt
    for i in range(1, len(operands)):
        sums = [c for c, k in last.items() if k == i]
        right = _dtypes.int64 if any(big[c] == [i] for c in sums) else dt
        if all(big[c] == [i] for c in sums):  # (nothing summed over both: a product)
            res = _dtypes.PROMOTION_TABLE[(res, right)]
            continue
        if res is _dtypes.bool:
            raise NotImplementedError('"bmm" not implemented for \'Bool\'')
        if res is not right:
            raise RuntimeError(f"expected scalar type {res.cname} but found {right.cname}")
    return res


def _einsum_view(t: Tensor, sub: str, out_sub: str) -> Tensor:
    """One operand, nothing summed: a view, as PyTorch returns (``'ij->ji'`` is a permute,
    ``'ii->i'`` a diagonal), each repeated label taken as the diagonal of its two dims."""
    labels = list(sub)
    while True:
        dup = next((c for c in labels if labels.count(c) > 1), None)
        if dup is None:
            break
        p = labels.index(dup)
        q = labels.index(dup, p + 1)
        t = t.diagonal(0, p, q)  # (the diagonal becomes the last dim)
        labels = [c for i, c in enumerate(labels) if i not in (p, q)] + [dup]
    return t.permute([labels.index(c) for c in out_sub])


@op(out_overlap=None, method=False, out="exact", out_message=_named(
    "tensordot: Expected the output tensor to have dtype {r}, but got an output tensor with "
    "dtype {o}"))
def tensordot(a, b, dims=2, out=None) -> Tensor:
    """Contract ``dims`` (the last ``dims`` of ``a`` with the first of ``b``, or two lists)."""
    a = _tensor_arg(a, "tensordot", "a", 1)
    b = _tensor_arg(b, "tensordot", "b", 2)
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if a._dtype is not b._dtype:
        raise RuntimeError("both inputs should have same dtype")
    if isinstance(dims, (builtins.int, np.integer)):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > len(a._shape) or dims > len(b._shape):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got "
                               f"dims={dims}")
        da = list(range(len(a._shape) - dims, len(a._shape)))
        db = list(range(dims))
    else:
        da, db = dims
        da = [da] if isinstance(da, builtins.int) else list(da)
        db = [db] if isinstance(db, builtins.int) else list(db)
        if len(da) != len(db):
            raise RuntimeError("both dimension lists should have same length")
        da = [_layout.normalize_dim(d, len(a._shape)) for d in da]
        db = [_layout.normalize_dim(d, len(b._shape)) for d in db]
    _bool_refused(a, "tensordot")
    dev = device_of(a, b)
    xp = _xp(a)
    x1, x2 = a._arr, b._arr
    # As PyTorch: a contracted dim of size 1 on one side broadcasts (the other side's dim is
    # summed first), then both are laid out as matrices and multiplied. (NumPy's tensordot
    # goes through dot, whose BLAS path drops inf * 0 = nan against a zero vector.)
    with np.errstate(all="ignore"):
        for x, y in zip(da, db):
            s1, s2 = a._shape[x], b._shape[y]
            if s2 == 1:
                x1 = x1.sum(axis=x, keepdims=True, dtype=x1.dtype)
            elif s1 == 1:
                x2 = x2.sum(axis=y, keepdims=True, dtype=x2.dtype)
            elif s1 != s2:
                raise RuntimeError(f"contracted dimensions need to match, but first has size "
                                   f"{s1} in dim {x} and second has size {s2} in dim {y}")
    free1 = [d for d in range(x1.ndim) if d not in da]
    free2 = [d for d in range(x2.ndim) if d not in db]
    csize = _layout.numel(tuple(x1.shape[d] for d in da))
    m1 = xp.transpose(x1, free1 + da).reshape(_layout.numel(tuple(x1.shape[d] for d in free1)),
                                               csize)
    m2 = xp.transpose(x2, db + free2).reshape(csize,
                                               _layout.numel(tuple(x2.shape[d] for d in free2)))
    res = _cprod(xp, xp.matmul, m1, m2).reshape(
        tuple(x1.shape[d] for d in free1) + tuple(x2.shape[d] for d in free2))
    if out is None and _lazy_one_by_one(a, b, da, db):
        return _lazy_conj_result(xp, res, a)
    return finish(_c(xp, res), a._dtype, dev, out)


def _lazy_one_by_one(a: Tensor, b: Tensor, da: list, db: list) -> bool:
    """Whether PyTorch's ``tensordot`` (and ``inner``, which is one) returns a conjugate
    view: a product that is one number (1x1) of two conjugate views whose contracted dims,
    permuted last (first for ``b``) and flattened, are views with stride 1 (a flattening
    that copies resolves the conjugate, and so does the sum PyTorch takes first over a
    contracted dim of size 1 on either side); checked against PyTorch 2.13 on random
    layouts (a stride-2 vector gives a plain result, as ``mm`` always does)."""
    if a._dtype.category != _COMPLEX or not (a._cj and b._cj):
        return False
    if any(a._shape[x] == 1 or b._shape[y] == 1 for x, y in zip(da, db)):
        return False
    fa = [d for d in range(len(a._shape)) if d not in da]
    fb = [d for d in range(len(b._shape)) if d not in db]
    if _layout.numel([a._shape[d] for d in fa]) != 1 or \
            _layout.numel([b._shape[d] for d in fb]) != 1:
        return False
    csize = _layout.numel([a._shape[d] for d in da])
    for t, order, flat, k in ((a, fa + da, (1, csize), 1), (b, db + fb, (csize, 1), 0)):
        st = _layout.view_strides(tuple(t._shape[d] for d in order),
                                  tuple(t._stride[d] for d in order), flat)
        if st is None or st[k] != 1:
            return False
    return True


@op()
def kron(input, other, *, out=None) -> Tensor:
    """The Kronecker product (promoting): blocks ``input[i, j] * other``."""
    input = _tensor_arg(input, "kron", "input", 1)
    other = _tensor_arg(other, "kron", "other", 2)
    rdt = result_type(input, other)
    if not input._shape or not other._shape:
        rdt = _dtypes.PROMOTION_TABLE[(input._dtype, other._dtype)]
    dev = device_of(input, other)
    # As PyTorch: input viewed as (a0, 1, a1, 1, ...) times other as (1, b0, 1, b1, ...), the
    # product (laid out as that elementwise product is) viewed as (a0*b0, a1*b1, ...).
    # Note: PyTorch's views refuse an input its strides cannot view so (a transposed matrix
    # times a matrix); tensorviz copies it and answers.
    n = builtins.max(input.dim(), other.dim())
    sa = (1,) * (n - input.dim()) + tuple(input._shape)
    sb = (1,) * (n - other.dim()) + tuple(other._shape)
    ra = tuple(v for x in sa for v in (x, 1))
    rb = tuple(v for y in sb for v in (1, y))
    a = input if input._dtype is rdt else input.to(rdt)
    b = other if other._dtype is rdt else other.to(rdt)
    res = (a.reshape(ra) * b.reshape(rb)).reshape(tuple(x * y for x, y in zip(sa, sb)))
    if out is not None:
        if isinstance(out, Tensor):  # (PyTorch's mul into out, resized first)
            for x in (input, other):
                check_partial_overlap(as_resized(out, res._shape), x)
        return finish(res._arr, rdt, dev, out)
    return res


def _cross_impl(input: Tensor, other: Tensor, d: int, out) -> Tensor:
    if input._dtype is not other._dtype:
        raise RuntimeError(f"expected scalar type {input._dtype.cname} but found "
                           f"{other._dtype.cname}")
    _bool_refused(input, "cross")
    dev = device_of(input, other)
    xp = _xp(input)
    shape = _layout.broadcast_shapes(input._shape, other._shape)
    a = xp.broadcast_to(input._arr, shape)
    b = xp.broadcast_to(other._arr, shape)
    if input._dtype in (_dtypes.float32, _dtypes.float64):
        res = call_quiet(_cross_fma, xp, a, b, d)
    else:
        res = call_quiet(xp.cross, a, b, axis=d)
    return finish(_c(xp, res), input._dtype, dev, out)


def _cross_fma(xp, a, b, d: int):
    """PyTorch's float cross product: each component ``fma(a_j, b_k, -(a_k * b_j))`` (its
    kernel is compiled with fused multiply-adds; ``a x a`` is then the rounding error of
    ``a_k * b_j``, not 0). float32: exactly, the product is exact in float64; float64: the
    product's exact error by Veltkamp's splitting (TwoProduct) and the
    difference's by TwoSum."""
    take = lambda t, i: xp.take(t, i, axis=d)  # noqa: E731
    parts = []
    for j, k in ((1, 2), (2, 0), (0, 1)):
        x, y, u, v = take(a, j), take(b, k), take(a, k), take(b, j)
        p = u * v  # (rounded to the dtype)
        if a.dtype == np.float32:
            c = (x.astype(np.float64) * y - p).astype(np.float32)
        else:
            hi = x * y
            split = 134217729.0  # 2**27 + 1
            xs, ys = split * x, split * y
            xh, yh = xs - (xs - x), ys - (ys - y)
            xl, yl = x - xh, y - yh
            lo = ((xh * yh - hi) + xh * yl + xl * yh) + xl * yl
            t = hi - p  # (TwoSum: hi - p = t + e exactly)
            bb = t - hi
            e = (hi - (t - bb)) + (-p - bb)
            fused = t + (e + lo)
            c = xp.where(xp.isfinite(fused), fused, hi - p)
        parts.append(c)
    return xp.stack(parts, axis=d)


@op(out="exact")
def cross(input, other, dim=None, *, out=None) -> Tensor:
    """The 3-D cross product along ``dim`` (default: the first dim of size 3, deprecated)."""
    input = _tensor_arg(input, "cross", "input", 1)
    other = _tensor_arg(other, "cross", "other", 2)
    if len(input._shape) != len(other._shape):
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if dim is None:
        warn_once("Using torch.cross without specifying the dim arg is deprecated.")
        shape = _layout.broadcast_shapes(input._shape, other._shape)
        found = [i for i, s in enumerate(shape) if s == 3]
        if not found:
            raise RuntimeError("no dimension of size 3 in input")
        d = found[0]
    else:
        d = _layout.normalize_dim(dim, len(input._shape))
        if input._shape[d] != 3 or other._shape[d] != 3:
            raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                               f"{input._shape[d]} and {other._shape[d]}")
    return _cross_impl(input, other, d, out)


@op("cross", namespace="linalg", method=False, out="exact")
def linalg_cross(input, other, *, dim: int = -1, out=None) -> Tensor:
    input = _tensor_arg(input, "linalg_cross", "input", 1)
    other = _tensor_arg(other, "linalg_cross", "other", 2)
    if len(input._shape) != len(other._shape):
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    d = _layout.normalize_dim(dim, len(input._shape))
    if input._shape[d] != 3 or other._shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{input._shape[d]} and {other._shape[d]}")
    return _cross_impl(input, other, d, out)


@op()
def trace(input) -> Tensor:
    """The sum of the main diagonal of a matrix (integers sum to int64, as ``sum``)."""
    input = _tensor_arg(input, "trace", "input", 1)
    _bool_refused(input, "trace")
    if len(input._shape) != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim "
                           f"{len(input._shape)}")
    _bool_refused(input, "trace")
    rdt = _dtypes.int64 if input._dtype.category == _INT else input._dtype
    xp = _xp(input)
    acc = np.float32 if rdt in _dtypes.HALVES else rdt._np
    res = xp.asarray(call_quiet(xp.trace, input._arr, dtype=acc)).astype(rdt._np)
    return wrap_array(res.reshape(()), rdt, input.device)


# ---------------------------------------------------------------- factorizations
def _float_input(A: Tensor, fn: str, *, half: str = "lowprec", square: bool = True,
                 min_dims: int = 2) -> None:
    """PyTorch's input checks for a ``linalg`` function: floating/complex, >= 2-D, square."""
    if A._dtype.category < _FLOAT:
        raise RuntimeError(f"{fn}: Expected a floating point or complex tensor as input. Got "
                           f"{A._dtype.cname}")
    if len(A._shape) < min_dims:
        raise RuntimeError(f"{fn}: The input tensor A must have at least {min_dims} "
                           "dimensions.")
    if square and A._shape[-1] != A._shape[-2]:
        raise RuntimeError(f"{fn}: A must be batches of square matrices, but they are "
                           f"{A._shape[-2]} by {A._shape[-1]} matrices")
    if A._dtype in _dtypes.HALVES and half:
        if half == "lowprec":
            raise RuntimeError(f"{fn}: Low precision dtypes not supported. Got "
                               f"{A._dtype.cname}")
        raise NotImplementedError(f'"{half}" not implemented for \'{A._dtype.cname}\'')


@contextlib.contextmanager
def _lapack(xp, message: str):
    """Run a factorization; turn the backend's LinAlgError into tensorviz's, with PyTorch's
    message.  CuPy checks cuSOLVER's status only inside ``cupyx.errstate(linalg='raise')``."""
    ctx = contextlib.nullcontext()
    if not runs_numpy(xp):
        import cupyx
        ctx = cupyx.errstate(linalg="raise")
    try:
        with ctx:
            with np.errstate(all="ignore"):
                yield
    except np.linalg.LinAlgError:
        raise LinAlgError(message) from None


_SVD_NONFINITE = ("linalg.svd: The algorithm failed to converge because the input matrix "
                  "contained non-finite values.")


def _svd(xp, a, **kwargs):
    """``xp.linalg.svd`` that never hands LAPACK a non-finite matrix (its SVD may then never
    return): as PyTorch, NaN anywhere raises LinAlgError, and each matrix holding an infinity
    gets NaN factors while the others are computed.

    A complex matrix whose largest modulus overflows its dtype (``3.4e38+3.4e38j`` in
    complex64) gets PyTorch's (LAPACK gesdd's) answer: its scaling by that infinite norm
    makes a zero matrix, whose U and Vh it returns, and NaN singular values (0 * inf).
    """
    if builtins.bool(xp.isnan(a).any()):
        raise LinAlgError(_SVD_NONFINITE)
    finite = xp.isfinite(a).all(axis=(-2, -1))
    bad = ~finite
    over = None
    if a.dtype.kind == "c":
        with np.errstate(all="ignore"):
            over = finite & ~xp.isfinite(xp.abs(a)).all(axis=(-2, -1))
        if not builtins.bool(over.any()):
            over = None
    if not builtins.bool(bad.any()) and over is None:
        return xp.linalg.svd(a, **kwargs)
    zero = bad if over is None else bad | over
    res = xp.linalg.svd(xp.where(zero[..., None, None], xp.zeros((), a.dtype), a), **kwargs)
    outs = res if isinstance(res, tuple) else (res,)
    for o in outs:
        o[bad] = np.nan
    if over is not None:
        outs[1 if isinstance(res, tuple) else 0][over] = np.nan
    return res if isinstance(res, tuple) else outs[0]


def _lin(xp):
    return xp.linalg


def _host(xp, arr) -> np.ndarray:
    return arr if runs_numpy(xp) else xp.asnumpy(arr)


def _lu_info(a: np.ndarray) -> np.ndarray:
    """LAPACK ``getrf``'s ``info`` for each square matrix of ``a`` (host array): the 1-based
    index of the first zero pivot of the partial-pivoting LU, 0 where there is none (real
    matrices: PyTorch's own LU arithmetic, see ``_getrf``).  One pass per column,
    vectorized over the batch (used only once a solver has failed)."""
    if a.dtype in (np.float32, np.float64) and bool(np.isfinite(a).all()):
        return _getrf(a)[2]
    n = a.shape[-1]
    batch = a.shape[:-2]
    work = np.array(a.reshape((-1, n, n)), dtype=np.complex128 if a.dtype.kind == "c"
                    else np.float64)
    info = np.zeros(work.shape[0], dtype=np.int32)
    rows = np.arange(work.shape[0])
    with np.errstate(all="ignore"):
        for j in range(n):
            p = np.argmax(np.abs(work[:, j:, j]), axis=1) + j
            top = work[rows, j].copy()
            work[rows, j] = work[rows, p]
            work[rows, p] = top
            piv = work[:, j, j]
            zero = piv == 0
            info[(info == 0) & zero] = j + 1
            factors = work[:, j + 1:, j] / np.where(zero, 1, piv)[:, None]
            work[:, j + 1:, j + 1:] -= factors[:, :, None] * work[:, j, None, j + 1:]
    return info.reshape(batch)


# PyTorch's CPU LU (linalg.inv, linalg.solve, lu_factor) is MKL's getrf; NumPy's inv and
# solve call OpenBLAS's gesv.  Both pivot the same way, but they round differently, so an
# exactly singular matrix may meet an exact zero pivot in one (LinAlgError) and a pivot of
# rounding size in the other (an "inverse" of huge values).  For orders up to
# _EXACT_LU_MAX, MKL (2024.2, x86-64) runs an unblocked right-looking elimination whose
# every rounding ``_getrf`` reproduces (checked bit for bit against torch.linalg.lu_factor on
# random and singular matrices): the multipliers are the column times the pivot's
# reciprocal -- divided by the pivot instead, for the column before the last, in matrices of
# order 4 or less -- and each trailing update is one fused multiply-add.
_EXACT_LU_MAX = 16


def _getrf(a: np.ndarray):
    """MKL's partial-pivoting LU of each real square matrix of ``a`` (host array, finite),
    in ``a``'s dtype: ``(lu, perm, info)`` -- L below the diagonal (unit diagonal implied)
    and U on and above it, the row order (``a[..., perm, :] = L @ U``), and ``info`` (the
    first zero pivot, 1-based; 0 where none)."""
    n = a.shape[-1]
    batch = a.shape[:-2]
    w = np.array(a.reshape((-1, n, n)))
    m = w.shape[0]
    rows = np.arange(m)
    perm = np.tile(np.arange(n), (m, 1))
    info = np.zeros(m, dtype=np.int32)
    one = w.dtype.type(1)
    with np.errstate(all="ignore"):
        for j in range(n):
            p = np.argmax(np.abs(w[:, j:, j]), axis=1) + j
            top = w[rows, j].copy()
            w[rows, j] = w[rows, p]
            w[rows, p] = top
            top = perm[rows, j].copy()
            perm[rows, j] = perm[rows, p]
            perm[rows, p] = top
            piv = w[:, j, j]
            zero = piv == 0
            info[(info == 0) & zero] = j + 1
            if j + 1 == n:
                break
            col = w[:, j + 1:, j]
            safe = np.where(zero, one, piv)[:, None]
            mult = col / safe if (n <= 4 and j == n - 2) else col * (one / safe)
            w[:, j + 1:, j] = np.where(zero[:, None], col, mult)
            w[:, j + 1:, j + 1:] = fma(-w[:, j + 1:, j, None], w[:, j, None, j + 1:],
                                        w[:, j + 1:, j + 1:])
    return w.reshape(a.shape), perm.reshape(batch + (n,)), info.reshape(batch)


def _getrs(lu: np.ndarray, perm: np.ndarray, b: np.ndarray, trans: bool = False
           ) -> np.ndarray:
    """``X`` with ``A @ X = b`` (``trans``: ``A^T @ X = b``) from ``_getrf``'s factors of
    ``A`` (batches broadcast): the rows of ``b`` permuted, then the unit lower and the upper
    triangular solves (``trans``: ``U^T``, ``L^T``, then the rows put back), column by column
    with fused multiply-adds (a zero pivot gives inf and nan).

    # Note: this rounds as MKL's getrs for orders 2, 8 and 16 (as measured); MKL's kernels
    # for other small orders round differently in the last bits, which can change entries
    # that are rounding noise over a tiny pivot, and where ``*_ex`` functions put inf or nan.
    """
    n = lu.shape[-1]
    batch = np.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    lu = np.broadcast_to(lu, batch + lu.shape[-2:])
    perm = np.broadcast_to(perm, batch + (n,))
    b = np.broadcast_to(b, batch + b.shape[-2:])
    if trans:
        x = np.array(b, dtype=lu.dtype)
        lower, upper = np.swapaxes(lu, -1, -2), np.swapaxes(lu, -1, -2)
        with np.errstate(all="ignore"):  # (U^T z = b: lower, not unit; L^T w = z: unit upper)
            for k in range(n):
                x[..., k, :] /= lower[..., k, k, None]
                if k + 1 < n:
                    x[..., k + 1:, :] = fma(-lower[..., k + 1:, k, None], x[..., k, None, :],
                                             x[..., k + 1:, :])
            for k in range(n - 1, 0, -1):
                x[..., :k, :] = fma(-upper[..., :k, k, None], x[..., k, None, :],
                                     x[..., :k, :])
        out = np.empty_like(x)
        np.put_along_axis(out, np.broadcast_to(perm[..., None], x.shape), x, axis=-2)
        return out
    x = np.take_along_axis(b, perm[..., None], axis=-2)
    x = np.array(x, dtype=lu.dtype)
    with np.errstate(all="ignore"):
        for k in range(n - 1):
            x[..., k + 1:, :] = fma(-lu[..., k + 1:, k, None], x[..., k, None, :],
                                     x[..., k + 1:, :])
        for k in range(n - 1, -1, -1):
            if n == 2:
                x[..., k, :] *= 1 / lu[..., k, k, None]
            else:
                x[..., k, :] /= lu[..., k, k, None]
            if k:
                x[..., :k, :] = fma(-lu[..., :k, k, None], x[..., k, None, :], x[..., :k, :])
    return x


def _lu_candidate(xp, a) -> bool:
    """The cheap part of ``_pytorch_lu_applies`` (checked before anything is computed)."""
    return xp is np and a.dtype in (np.float32, np.float64) and a.shape[-1] <= _EXACT_LU_MAX


def _pytorch_lu_applies(xp, a) -> bool:
    """Whether ``_getrf`` reproduces PyTorch's LU of ``a`` (CPU, float32/float64, finite,
    of order up to _EXACT_LU_MAX)."""
    return (xp is np and a.dtype in (np.float32, np.float64) and a.size > 0
            and a.shape[-1] <= _EXACT_LU_MAX and bool(np.isfinite(a).all())
            and (a.dtype == np.float32 or bool((np.abs(a) < 1e290).all())))


def _near_singular(a: np.ndarray, x: np.ndarray, b=None) -> bool:
    """Whether ``a`` may be so close to singular that the two LUs disagree about an exact
    zero pivot: NumPy's inverse ``x`` is huge (or not finite); for a solve (``b`` given, whose
    solution may be moderate when ``b`` lies in the range of ``a``), ``|det a|`` is within
    rounding of zero against the product of its rows' 1-norms (Hadamard's bound)."""
    eps = np.finfo(a.dtype).eps
    if b is None:
        with np.errstate(all="ignore"):  # (an infinite entry: inf * 0 is a quiet NaN here)
            scale = np.abs(a).max(axis=(-2, -1)) * np.abs(x).max(axis=(-2, -1))
        return not bool((scale <= 1e-3 / eps).all())  # (inf and nan are not <=)
    if not bool(np.isfinite(x).all()):
        return True
    with np.errstate(all="ignore"):
        sign, logdet = np.linalg.slogdet(a)
        bound = np.log(np.maximum(np.abs(a).sum(axis=-1), np.finfo(a.dtype).tiny)).sum(axis=-1)
    return bool(((sign == 0) | (logdet < bound + math.log(1e3 * a.shape[-1] * eps))).any())


def _cholesky_info(a: np.ndarray) -> np.ndarray:
    """LAPACK ``potrf``'s ``info`` for each matrix of ``a`` (host array, lower triangle read):
    the order of the first leading minor that is not positive-definite, 0 where none is."""
    n = a.shape[-1]
    batch = a.shape[:-2]
    work = a.reshape((-1, n, n)).astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    low = np.zeros_like(work)
    info = np.zeros(work.shape[0], dtype=np.int32)
    with np.errstate(all="ignore"):
        for j in range(n):
            row = low[:, j, :j]
            d = work[:, j, j].real - np.sum((row * np.conj(row)).real, axis=-1)
            ok = d > 0
            info[(info == 0) & ~ok] = j + 1
            dj = np.sqrt(np.where(ok, d, 1.0))
            low[:, j, j] = dj
            below = work[:, j + 1:, j] - np.einsum("bik,bk->bi", low[:, j + 1:, :j],
                                                    np.conj(row))
            low[:, j + 1:, j] = below / dj[:, None]
    return info.reshape(batch)


def _cholesky_partial(a: np.ndarray) -> np.ndarray:
    """What LAPACK's ``potrf`` leaves for a (host) matrix that is not positive-definite, as
    PyTorch's ``cholesky_ex`` returns it: the factor's columns before the failing one, at the
    failing diagonal the non-positive value met, and below/after it the input's lower
    triangle (left-looking, column by column)."""
    cplx = a.dtype.kind == "c"
    n = a.shape[-1]
    low = np.tril(np.array(a, dtype=np.complex128 if cplx else np.float64))
    for j in range(n):
        row = low[j, :j]
        d = a[j, j].real - np.sum((row * np.conj(row)).real)
        if not d > 0:
            low[j, j] = d
            break
        low[j, j] = np.sqrt(d)
        low[j + 1:, j] = (a[j + 1:, j] - low[j + 1:, :j] @ np.conj(row)) / low[j, j]
    return low


def _batch_note(info: np.ndarray, ndim: int) -> tuple[str, int]:
    """PyTorch's ``(Batch element i): `` prefix for the first failing matrix, and its info."""
    flat = info.reshape(-1)
    bad = np.flatnonzero(flat)
    if not bad.size:
        return "", 0
    i = builtins.int(bad[0])
    return (f"(Batch element {i}): " if ndim > 2 else ""), builtins.int(flat[i])


def _singular_error(fn: str, xp, arr) -> LinAlgError:
    prefix, k = _batch_note(_lu_info(_host(xp, arr)), arr.ndim)
    if fn == "linalg.inv" and k:
        return LinAlgError(f"linalg.inv: {prefix}The diagonal element {k} is zero, the "
                           "inversion could not be completed because the input matrix is "
                           "singular.")
    if fn == "linalg.inv":
        return LinAlgError("linalg.inv: The diagonal element of the LU factorization is zero, "
                           "the inversion could not be completed because the input matrix is "
                           "singular.")
    return LinAlgError(f"torch.linalg.solve: {prefix}The solver failed because the input "
                       "matrix is singular.")


def _not_pd_error(xp, arr) -> LinAlgError:
    prefix, k = _batch_note(_cholesky_info(_host(xp, arr)), arr.ndim)
    tail = f" (the leading minor of order {k} is not positive-definite)" if k else ""
    return LinAlgError(f"linalg.cholesky: {prefix}The factorization could not be completed "
                       f"because the input is not positive-definite{tail}.")


def _fixed_batch(xp, arr, info_host):
    """``arr`` with each failing matrix (``info != 0``) replaced by the identity, and the
    failing mask on the backend: the ``*_ex`` functions factor the rest in one call."""
    bad = xp.asarray(info_host != 0)
    eye = xp.eye(arr.shape[-1], dtype=arr.dtype)
    return xp.where(bad[..., None, None], eye, arr), bad


def _require(xp, name: str, fn: str):
    f = getattr(xp.linalg, name, None)
    if f is None:
        raise NotImplementedError(f"{fn} is not available on CUDA in tensorviz: CuPy has no "
                                  f"linalg.{name}. Move the tensor to the CPU first "
                                  "(A.cpu()).")
    return f


def _lu_det_terms(a: np.ndarray):
    """``(sign, log|det|, det)`` of each square matrix of ``a`` (host array) as PyTorch
    computes them: from the diagonal of a partial-pivoting LU, ``prod(sgn(diag))``,
    ``sum(log|diag|)`` and ``prod(diag)``, times the pivots' parity.  NumPy instead returns
    ``(0, -inf)`` and ``0`` wherever LAPACK meets a zero pivot, but a matrix holding an
    infinity or NaN has NaN terms in PyTorch then (``log(inf) + log(0)``).  Used only for
    matrices with non-finite entries, whose LU is LAPACK's unblocked one: the first largest
    ``|re| + |im|`` pivots (a NaN first stays), multipliers times the pivot's reciprocal
    (complex: ``conj(p) / (re**2 + im**2)``, so an infinite pivot gives NaN ones), a zero
    pivot leaving its column as it is.

    >>> _lu_det_terms(np.array([[np.inf, 0.0], [0.0, 0.0]]))[1]
    array(nan)
    """
    n = a.shape[-1]
    w = np.array(a.reshape((-1, n, n)))
    m = w.shape[0]
    rows = np.arange(m)
    odd = np.zeros(m, dtype=bool)
    cplx = w.dtype.kind == "c"
    with np.errstate(all="ignore"):
        for j in range(n):
            c = w[:, j:, j]
            mag = (np.abs(c.real) + np.abs(c.imag)) if cplx else np.abs(c)
            best, p = mag[:, 0].copy(), np.zeros(m, dtype=np.intp)
            for i in range(1, mag.shape[1]):
                gt = mag[:, i] > best
                best, p = np.where(gt, mag[:, i], best), np.where(gt, i, p)
            p = p + j
            odd ^= p != j
            top = w[rows, j].copy()
            w[rows, j] = w[rows, p]
            w[rows, p] = top
            if j + 1 == n:
                break
            piv = w[:, j, j]
            nz = piv != 0
            sp = np.where(nz, piv, 1)
            if cplx:  # (scaled: no overflow of |p|**2 for 1e200j, none underflowed for 1e-170)
                sc = np.maximum(np.abs(sp.real), np.abs(sp.imag))
                sc = np.where(sc == 0, 1, sc)
                pr, pi = sp.real / sc, sp.imag / sc
                den = (pr * pr + pi * pi) * sc
                rec = np.empty_like(sp)
                rec.real, rec.imag = pr / den, -pi / den
            else:
                rec = 1 / sp
            col = w[:, j + 1:, j]
            mult = np.where(nz[:, None], col * rec[:, None], col)
            w[:, j + 1:, j] = mult
            w[:, j + 1:, j + 1:] -= mult[:, :, None] * w[:, j, None, j + 1:]
        d = np.diagonal(w, axis1=-2, axis2=-1)
        flip = np.where(odd, -1, 1).astype(w.dtype)
        ad = np.abs(d)
        if cplx:  # (PyTorch's sgn, d * (1 / |d|): NaN for a subnormal |d|)
            sg = np.where(ad == 0, 0, d * (1 / np.where(ad == 0, 1, ad)))
        else:
            sg = np.nan_to_num(np.sign(d), nan=0.0)  # (PyTorch's sign of NaN is 0)
        sign = (np.prod(sg, axis=-1) * flip).astype(w.dtype)
        logabs = np.sum(np.log(ad), axis=-1).astype(ad.dtype)
        det = (np.prod(d, axis=-1) * flip).astype(w.dtype)
    batch = a.shape[:-2]
    return sign.reshape(batch), logabs.reshape(batch), det.reshape(batch)


def _nonfinite_det_fix(xp, a, results, pick, transpose: bool = False):
    """``results`` (``det``'s or ``slogdet``'s arrays, batch-shaped) with the matrices of
    ``a`` that hold an infinity or NaN recomputed by ``_lu_det_terms`` (``pick`` chooses its
    terms); the finite ones keep NumPy's (no extra work where everything is finite).
    ``transpose``: factor ``a.mT``, as PyTorch does for a C-contiguous real ``A`` (its LU of
    [[-2.5, 4, -inf], ...] meets other pivots: sign -1 and logabsdet inf, not -0 and NaN)."""
    bad = ~xp.isfinite(a).all(axis=(-2, -1))
    if not builtins.bool(bad.any()):
        return results
    host_bad = _host(xp, bad)
    host = _host(xp, a)[host_bad]
    terms = pick(_lu_det_terms(np.swapaxes(host, -1, -2) if transpose else host))
    out = []
    for r, t in zip(results, terms):
        r = np.array(_host(xp, xp.asarray(r)), dtype=t.dtype).reshape(bad.shape)
        r[host_bad] = t
        out.append(xp.asarray(r))
    return out


@op(out_overlap=None, namespace="linalg", method=False, out="exact")
def inv(A, *, out=None) -> Tensor:
    """The inverse of each square matrix of ``A`` (LinAlgError when one is singular).

    Near-singular real matrices are factored with PyTorch's own LU arithmetic (``_getrf``),
    so an exactly singular matrix raises -- or, where that LU meets a pivot of rounding size
    instead of zero, returns huge values -- just where PyTorch does.

    Example: ``inv(tensor([[2., 1.], [1., 1.]]))`` is ``tensor([[1., -1.], [-1., 2.]])``.

    # Note: the triangular solves after that LU round as MKL's only for orders 2 and 8; for
    # other orders entries that are rounding noise (an exact 3e-32 beside a 1e30 entry in
    # float32) may come out as noise of another size or sign (-0.0 where PyTorch's is
    # -3.8e-10), within the LU's rounding bound.
    """
    A = _tensor_arg(A, "linalg_inv", "A", 1)
    _float_input(A, "linalg.inv")
    xp = _xp(A)
    if A.numel() == 0:
        return _finish_cm(xp, xp.empty(A._shape, A._dtype._np), A._dtype, A.device, out)
    return _finish_cm(xp, _inv_arr(xp, A._arr), A._dtype, A.device, out)


def _inv_arr(xp, a):
    """The inverses of ``a``'s matrices (LinAlgError, PyTorch's, for a singular one)."""
    try:
        with _lapack(xp, ""):
            res = xp.linalg.inv(a)
        failed = False
    except LinAlgError:
        res, failed = None, True
    if _lu_candidate(xp, a) and (failed or _near_singular(a, res)) and \
            _pytorch_lu_applies(xp, a):
        lu, perm, info = _getrf(a)
        if info.any():
            raise _singular_error("linalg.inv", xp, a) from None
        return _getrs(lu, perm, np.eye(a.shape[-1], dtype=a.dtype))
    if failed:
        raise _singular_error("linalg.inv", xp, a) from None
    return res


@op(out_overlap=None, out="exact")
def inverse(input, *, out=None) -> Tensor:
    return inv(input, out=out)


@op(namespace="linalg", method=False)
def inv_ex(A, *, check_errors: bool = False, out=None):
    A = _tensor_arg(A, "linalg_inv_ex", "A", 1)
    xp = _xp(A)
    try:
        res = inv(A)
        info = xp.zeros(A._shape[:-2], dtype=np.int32)
    except LinAlgError as e:
        if check_errors:
            raise LinAlgError(str(e).replace("linalg.inv:", "linalg.inv_ex:", 1)) from None
        if _pytorch_lu_applies(xp, A._arr):
            # PyTorch's values: its LU's triangular solves, zero pivot included (inf, nan)
            lu, perm, info_h = _getrf(A._arr)
            res = _wrap_cm(xp, _getrs(lu, perm, np.eye(A._shape[-1], dtype=A._dtype._np)),
                           A._dtype, A)
            return return_types.linalg_inv_ex(res, wrap_array(info_h, _dtypes.int32,
                                                              A.device))
        # Each failing matrix gets its own info (the first zero pivot) and NaNs; the others
        # their inverse.
        info_h = _lu_info(_host(xp, A._arr))
        fixed, bad = _fixed_batch(xp, A._arr, info_h)
        try:
            inv_arr = _inv_arr(xp, fixed)
        except LinAlgError:
            inv_arr, bad = xp.full(A._shape, np.nan, dtype=A._dtype._np), xp.asarray(True)
            info_h = np.maximum(info_h, 1)
        res = _wrap_cm(xp, xp.where(bad[..., None, None], xp.asarray(
            np.nan, dtype=A._dtype._np), inv_arr), A._dtype, A)
        info = xp.asarray(info_h)
    return return_types.linalg_inv_ex(res, wrap_array(info, _dtypes.int32, A.device))


def _lu_of_transpose(A: Tensor) -> bool:
    """Whether PyTorch's det/slogdet factor ``A.mT`` (a C-contiguous real ``A``: then
    F-contiguous, no copy) rather than ``A``."""
    return A._dtype.category != _COMPLEX and A.is_contiguous()


# entries below which a pivot may fall under 1 / the dtype's largest value (sqrt of tiny)
_TINY_ENTRY = {np.float32: np.float32(1.0842022e-19), np.float64: 1.4916681462400413e-154}


def _pytorch_lu_det_terms(A: Tensor):
    """``(sign, log|det|, det)`` of each matrix of a real ``A`` (host arrays) from PyTorch's
    own LU (``_getrf``, MKL's arithmetic), where it may meet a pivot below 1 / the dtype's
    largest value or holds an infinity (no NaN: its fused updates decide what is NaN, inf or
    a rounding residue); None elsewhere (NumPy's LAPACK then stands, no extra work).

    MKL multiplies by the pivot's reciprocal, which overflows for such a pivot (1e-310 in
    float64): its multipliers are infinite and the determinant NaN, where NumPy's LAPACK
    divides (a finite LU and 0). PyTorch factors ``A.mT`` when ``A`` is C-contiguous and
    ``A`` otherwise (an expanded row of [1e-310, 1, 0.5] has logabsdet NaN, its contiguous
    copy -inf), so the layout decides, as there.
    """
    a = A._arr
    if type(a) is not np.ndarray or a.size == 0 or a.shape[-1] > _EXACT_LU_MAX:
        return None  # (_lu_candidate, inlined)
    cplx = a.dtype.kind == "c"
    real = a.real.dtype.type if cplx else a.dtype.type
    if real not in _TINY_ENTRY:
        return None
    m = np.abs(a)
    hi = m.max()
    if hi != hi:  # (a NaN: the pivots' comparisons are LAPACK's, _nonfinite_det_fix)
        return None
    if cplx:
        # (complex: MKL multiplies by a pivot's reciprocal, infinite for a pivot below 1 / the
        # largest value (a subnormal 1e-310): NaN multipliers and determinant, where NumPy's
        # LAPACK divides safely; and PyTorch's sign of a subnormal diagonal entry, d * (1 /
        # |d|), is NaN. LAPACK's unblocked LU of A)
        thr = 4 / np.finfo(real).max  # (a pivot whose reciprocal may overflow)
        if hi == np.inf or not ((m < thr) & (m != 0)).any():
            return None
        return _lu_det_terms(a)
    if hi != np.inf:
        thr = _TINY_ENTRY[a.dtype.type]
        if m.min() >= thr or not ((m < thr) & (m != 0)).any():
            return None
    if a.dtype == np.float64 and builtins.bool(((m >= 1e290) & (m != np.inf)).any()):
        return None
    return _getrf_det_terms(a, _lu_of_transpose(A))


def _getrf_det_terms(a: np.ndarray, transpose: bool):
    """``(sign, log|det|, det)`` of each matrix of ``a`` (host, real) from ``_getrf``'s LU
    (of ``a.mT`` when ``transpose``), as PyTorch's det/slogdet compute them."""
    lu, perm, _ = _getrf(np.swapaxes(a, -1, -2) if transpose else a)
    n = a.shape[-1]
    d = np.diagonal(lu, axis1=-2, axis2=-1)
    inversions = (perm[..., :, None] > perm[..., None, :]) & np.triu(np.ones((n, n), bool), 1)
    parity = np.where(inversions.sum(axis=(-2, -1)) % 2, -1, 1).astype(a.dtype)
    with np.errstate(all="ignore"):
        sign = np.prod(np.nan_to_num(np.sign(d), nan=0.0), axis=-1) * parity
        logabs = np.sum(np.log(np.abs(d)), axis=-1)
        det = np.prod(d, axis=-1) * parity
    return sign.astype(a.dtype), logabs.astype(a.dtype), det.astype(a.dtype)


def _near_singular_det_fix(xp, A: Tensor, results, logabs, pick):
    """``results`` (det's or slogdet's arrays, batch-shaped) with the real matrices whose
    ``log|det|`` (NumPy's) is within rounding of singular recomputed from PyTorch's own LU:
    there the two LUs' last pivot is rounding residue, so one may be exactly 0 and the other
    not (``outer([4, 2], [-2.5, -0.75])``: NumPy's LU of ``A`` meets 0, PyTorch's of ``A.mT``
    a multiplier 0.3 that leaves 5.6e-17, a positive determinant: logdet -35.1, not -inf).
    The rest keep NumPy's, checked by Hadamard's bound (no extra work for them)."""
    a = A._arr
    if A._dtype.category == _COMPLEX or not _pytorch_lu_applies(xp, a):
        return results
    n = a.shape[-1]
    eps = np.finfo(a.dtype).eps
    with np.errstate(all="ignore"):
        rows = np.log(np.maximum(np.sqrt(np.sum(np.square(a.astype(np.float64)), axis=-1)),
                                 np.finfo(np.float64).tiny)).sum(axis=-1)
        near = np.asarray(logabs).reshape(rows.shape) <= rows + np.log(8 * n * eps)
    if not builtins.bool(near.any()):
        return results
    terms = pick(_getrf_det_terms(a[near], _lu_of_transpose(A)))
    out = []
    for r, t in zip(results, terms):
        r = np.array(np.asarray(r), dtype=t.dtype).reshape(near.shape)
        r[near] = t
        out.append(r)
    return out


@op(out="exact", also=("linalg.det",))
def det(A, *, out=None) -> Tensor:
    """The determinant of each square matrix (0 for singular ones, no error)."""
    A = _tensor_arg(A, "linalg_det", "A", 1)
    _float_input(A, "linalg.det", half="lu_cpu")
    xp = _xp(A)
    terms = _pytorch_lu_det_terms(A) if A.numel() else None
    if A.numel() == 0:
        res = xp.ones(A._shape[:-2], dtype=A._dtype._np)
    elif terms is not None:
        res = terms[2]
    else:
        with np.errstate(all="ignore"):
            res = xp.asarray(xp.linalg.det(A._arr))
        res, = _nonfinite_det_fix(xp, A._arr, [res.reshape(A._shape[:-2])],
                                  lambda t: (t[2],), _lu_of_transpose(A))
        with np.errstate(divide="ignore"):
            res, = _near_singular_det_fix(xp, A, [res], np.log(np.abs(res)) if xp is np
                                          else None, lambda t: (t[2],))
    return finish(res.reshape(A._shape[:-2]), A._dtype, A.device, out)


@op(namespace="linalg", method=False)
def slogdet(A, *, out=None):
    """``(sign, log|det|)`` of each square matrix: stable where ``det`` would overflow."""
    A = _tensor_arg(A, "linalg_slogdet", "A", 1)
    _float_input(A, "linalg.slogdet")
    xp = _xp(A)
    terms = _pytorch_lu_det_terms(A) if A.numel() else None
    if terms is not None:
        sign, logabs = terms[:2]
    else:
        with np.errstate(all="ignore"):
            sign, logabs = xp.linalg.slogdet(A._arr)
    batch = A._shape[:-2]
    if A.numel() and terms is None:
        sign, logabs = _nonfinite_det_fix(
            xp, A._arr, [xp.asarray(sign).reshape(batch), xp.asarray(logabs).reshape(batch)],
            lambda t: t[:2], _lu_of_transpose(A))
        sign, logabs = _near_singular_det_fix(xp, A, [sign, logabs], logabs, lambda t: t[:2])
    real = A._dtype.to_real()
    s = _wrap(xp.asarray(sign).astype(A._dtype._np).reshape(batch), A._dtype, A)
    la = _wrap(xp.asarray(logabs).astype(real._np).reshape(batch), real, A)
    return return_types.linalg_slogdet(s, la)


@op("slogdet")
def _slogdet_legacy(input):
    return return_types.slogdet(*slogdet(input))


@op()
def logdet(input) -> Tensor:
    """``log(det(input))``: nan for a negative determinant, -inf for a singular matrix."""
    input = _tensor_arg(input, "logdet", "input", 1)
    _float_input(input, "linalg.slogdet")
    sign, la = slogdet(input)
    xp = _xp(input)
    s = sign._arr
    if input._dtype.category == _COMPLEX:  # (a singular matrix: -inf+nan j, as PyTorch's)
        res = call_quiet(xp.log, s) + la._arr
        res = xp.where(s == 0, xp.asarray(complex(-np.inf, np.nan), dtype=res.dtype), res)
    else:
        res = xp.where(s < 0, xp.asarray(np.nan, dtype=la._arr.dtype), la._arr)
    return wrap_array(xp.asarray(res).astype(input._dtype._np), input._dtype, input.device)


def _solve_shapes(A: Tensor, B: Tensor, left: bool):
    vector = len(B._shape) == 1 or (len(B._shape) == len(A._shape) - 1
                                     and B._shape == A._shape[:-1])
    if vector and not left:
        raise RuntimeError("linalg.solve: Vector broadcasting of the left hand side is not "
                           "supported for left=False. In this case linalg.solve is equivalent "
                           "to B / A.squeeze(-1)")
    bshape = B._shape + (1,) if vector else B._shape
    n = A._shape[-1]
    rows = bshape[-2] if left else bshape[-1]
    if rows != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation {eq} "
                           f"({A._shape[-2]}x{A._shape[-1]} and {bshape[-2]}x{bshape[-1]})")
    return vector


@op(namespace="linalg", method=False, out="exact")
def solve(A, B, *, left: bool = True, out=None) -> Tensor:
    """``X`` with ``A @ X = B`` (``X @ A = B`` when ``left=False``); B may be a vector."""
    A = _tensor_arg(A, "linalg_solve", "A", 1)
    B = _tensor_arg(B, "linalg_solve", "B", 2)
    if A._dtype in _dtypes.HALVES and B._dtype is A._dtype and len(A._shape) >= 2 and \
            A._shape[-1] == A._shape[-2]:
        _solve_shapes(A, B, left)  # (PyTorch checks a half system's shapes first)
    _float_input(A, "linalg.solve", half="lu_cpu")
    if A._dtype is not B._dtype:
        raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found A "
                           f"of type {A._dtype.cname} and B of type {B._dtype.cname} instead")
    vector = _solve_shapes(A, B, left)
    dev = device_of(A, B)
    xp = _xp(A)
    a, b = A._arr, B._arr
    if vector:
        b = b[..., None]
    if not left:  # X A = B  <=>  A^T X^T = B^T
        b = xp.swapaxes(b, -1, -2)
    batch = _layout.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = xp.broadcast_to(a, batch + a.shape[-2:])
    b = xp.broadcast_to(b, batch + b.shape[-2:])
    if a.size == 0 or b.size == 0:
        res = xp.zeros(batch + (a.shape[-1], b.shape[-1]), dtype=A._dtype._np)
    else:
        res = _solve_arr(xp, a, b, left=left)
    return _solve_result(xp, res, A, dev, left, vector, out)


def _solve_arr(xp, a, b, keep_going: bool = False, left: bool = True):
    """``X`` with ``a @ X = b`` (``left=False``: ``a^T @ X = b``, from the LU of ``a``, as
    PyTorch) -- LinAlgError, PyTorch's, for a singular ``a``; with ``keep_going``, the
    ``*_ex`` functions' values instead where PyTorch's LU applies."""
    at = a if left else xp.swapaxes(a, -1, -2)
    try:
        with _lapack(xp, ""):
            res = xp.linalg.solve(at, b)
        failed = False
    except LinAlgError:
        res, failed = None, True
    # (near-singular real systems: PyTorch's LU arithmetic decides, as in inv)
    if _lu_candidate(xp, a) and (failed or _near_singular(at, res, b)) and \
            _pytorch_lu_applies(xp, a):
        lu, perm, info = _getrf(a)
        if info.any() and not keep_going:
            raise _singular_error("linalg.solve", xp, a) from None
        return _getrs(lu, perm, b, trans=not left)
    if failed:
        raise _singular_error("linalg.solve", xp, a) from None
    return res


def _solve_result(xp, res, A, dev, left: bool, vector: bool, out):
    if not left:
        res = xp.swapaxes(res, -1, -2)
        if out is None and A._dtype.category == _dtypes._COMPLEX:
            # PyTorch solves A^H X^H = B^H and returns X as a lazy conjugate view (.mH) of
            # that solution's memory: is_conj() is True, as here
            return wrap_array(_c(xp, xp.conj(res)), A._dtype, dev).conj()
        return finish(_c(xp, res), A._dtype, dev, out)
    if vector:
        return finish(_c(xp, res[..., 0]), A._dtype, dev, out)
    return _finish_cm(xp, res, A._dtype, dev, out)


@op(out_overlap=None, namespace="linalg", method=False, out="exact")
def cholesky(A, *, upper: bool = False, out=None) -> Tensor:
    """The Cholesky factor ``L`` (``A = L @ L.mH``) of a Hermitian positive-definite ``A``."""
    A = _tensor_arg(A, "linalg_cholesky", "A", 1)
    _float_input(A, "linalg.cholesky", half="cholesky_cpu")
    xp = _xp(A)
    # (LAPACK reads one triangle: the upper one for upper=True, so the factor of A's upper
    # triangle is that of the lower triangle of A's conjugate transpose)
    a = A._arr if not upper else xp.conj(xp.swapaxes(A._arr, -1, -2)) \
        if A._dtype.category == _COMPLEX else xp.swapaxes(A._arr, -1, -2)
    if A.numel() == 0:
        res = xp.empty(A._shape, dtype=A._dtype._np)
    else:
        try:
            with _lapack(xp, ""):
                res = xp.linalg.cholesky(a)
                if not runs_numpy(xp) and not builtins.bool(xp.isfinite(res).all()):
                    raise np.linalg.LinAlgError("not positive-definite")
        except LinAlgError:
            raise _not_pd_error(xp, a) from None
    if upper:
        res = xp.conj(xp.swapaxes(res, -1, -2)) if A._dtype.category == _COMPLEX else \
            xp.swapaxes(res, -1, -2)
    return _finish_cm(xp, res, A._dtype, A.device, out)


@op(namespace="linalg", method=False)
def cholesky_ex(A, *, upper: bool = False, check_errors: bool = False, out=None):
    A = _tensor_arg(A, "linalg_cholesky_ex", "A", 1)
    xp = _xp(A)
    try:
        res = cholesky(A, upper=upper)
        info = xp.zeros(A._shape[:-2], dtype=np.int32)
    except LinAlgError as e:
        if check_errors:
            raise LinAlgError(str(e).replace("linalg.cholesky:", "linalg.cholesky_ex:", 1)) \
                from None
        # Each failing matrix gets its own info (the order of its first leading minor that is
        # not positive-definite) and zeros; the others their factor.
        info_h = _cholesky_info(_host(xp, A._arr))
        fixed, bad = _fixed_batch(xp, A._arr, info_h)
        try:
            good = cholesky(wrap_array(fixed, A._dtype, A.device), upper=upper)._arr
        except LinAlgError:
            good, bad = xp.zeros(A._shape, dtype=A._dtype._np), xp.asarray(True)
            info_h = np.maximum(info_h, 1)
        # (a failing matrix gets LAPACK's partial factor, as in PyTorch)
        host = _host(xp, A._arr)
        flat = host.reshape((-1,) + host.shape[-2:])
        part = np.stack([_cholesky_partial(np.conj(m.T) if upper else m) if i else
                         np.zeros(m.shape, m.dtype)
                         for m, i in zip(flat, np.asarray(info_h).reshape(-1))])
        part = part.reshape(host.shape).astype(A._dtype._np)
        if upper:
            part = np.conj(np.swapaxes(part, -1, -2))
        res = _wrap_cm(xp, xp.where(bad[..., None, None], xp.asarray(part), good), A._dtype, A)
        info = xp.asarray(info_h)
    return return_types.linalg_cholesky_ex(res, wrap_array(info, _dtypes.int32, A.device))


@op(namespace="linalg", method=False)
def qr(A, mode: str = "reduced", *, out=None):
    """``A = Q @ R`` with orthonormal ``Q`` and upper-triangular ``R`` (Householder, LAPACK's
    signs); ``mode='reduced'|'complete'|'r'``."""
    A = _tensor_arg(A, "linalg_qr", "A", 1)
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           "'reduced' (default), 'r', or 'complete'")
    _float_input(A, "linalg.qr", half="geqrf_cpu", square=False)
    xp = _xp(A)
    m, n = A._shape[-2:]
    k = min(m, n)
    batch = A._shape[:-2]
    if A.numel() == 0:
        qn = m if mode == "complete" else k
        q = xp.zeros(batch + (m, qn), dtype=A._dtype._np)
        if qn and m:
            q[...] = xp.eye(m, qn, dtype=A._dtype._np)
        r = xp.zeros(batch + ((m if mode == "complete" else k), n), dtype=A._dtype._np)
    else:
        # PyTorch's LAPACK (MKL) takes a reflector's leading -0.0 as positive, NumPy's as
        # negative (its R row then has the other sign): -0.0 + 0 is +0.0, as MKL sees it.
        a = A._arr + A._dtype._np.type(0)
        with np.errstate(all="ignore"):
            if mode == "r":
                r = xp.linalg.qr(a, mode="r")
                q = None
            else:
                q, r = xp.linalg.qr(a, mode=mode)
    if mode == "r":
        q_t = wrap_array(xp.empty((0,), dtype=A._dtype._np), A._dtype, A.device)
    else:
        q_t = _wrap_cm(xp, q, A._dtype, A)
    return return_types.linalg_qr(q_t, _wrap_cm(xp, r, A._dtype, A))


@op(namespace="linalg", method=False)
def svd(A, full_matrices: bool = True, *, driver=None, out=None):
    """``A = U @ diag(S) @ Vh``, singular values descending (``full_matrices=False``: the
    reduced factors)."""
    A = _tensor_arg(A, "linalg_svd", "A", 1)
    _float_input(A, "linalg.svd", half="linalg_svd_cpu", square=False)
    xp = _xp(A)
    real = A._dtype.to_real()
    m, n = A._shape[-2:]
    k = min(m, n)
    batch = A._shape[:-2]
    if A.numel() == 0:
        um = m if full_matrices else k
        vn = n if full_matrices else k
        u = xp.zeros(batch + (m, um), dtype=A._dtype._np)
        vh = xp.zeros(batch + (vn, n), dtype=A._dtype._np)
        if m and um:
            u[...] = xp.eye(m, um, dtype=A._dtype._np)
        if n and vn:
            vh[...] = xp.eye(vn, n, dtype=A._dtype._np)
        s = xp.zeros(batch + (k,), dtype=real._np)
    else:
        with _lapack(xp, "linalg.svd: The algorithm failed to converge because the input "
                         "matrix is ill-conditioned or has too many repeated singular values."):
            u, s, vh = _svd(xp, A._arr, full_matrices=full_matrices)
    return return_types.linalg_svd(_wrap_cm(xp, u, A._dtype, A),
                      _wrap(_c(xp, s).astype(real._np, copy=False), real, A),
                      _wrap_cm(xp, vh, A._dtype, A))


@op("svd")
def _svd_legacy(input, some: bool = True, compute_uv: bool = True, *, out=None):
    """``torch.svd``: ``(U, S, V)`` with ``V`` (not ``Vh``); ``some=True`` is reduced."""
    U, S, Vh = svd(input, full_matrices=not some)
    if not compute_uv:  # (as PyTorch: zeros of the full sizes, V the .mH of an n x n Vh)
        xp = _xp(input)
        m, n = input._shape[-2:]
        U = wrap_array(xp.zeros(input._shape[:-1] + (m,), dtype=U._dtype._np), U._dtype,
                       U.device)
        Vh = wrap_array(xp.zeros(input._shape[:-2] + (n, n), dtype=Vh._dtype._np),
                        Vh._dtype, Vh.device)
    return return_types.svd(U, S, Vh.mH)


@op(out_overlap=None, namespace="linalg", method=False, out="exact")
def svdvals(A, *, driver=None, out=None) -> Tensor:
    """The singular values of each matrix, descending (real dtype)."""
    A = _tensor_arg(A, "linalg_svdvals", "A", 1)
    _float_input(A, "linalg.svd", half="linalg_svd_cpu", square=False)
    xp = _xp(A)
    real = A._dtype.to_real()
    if A.numel() == 0:
        s = xp.zeros(A._shape[:-2] + (min(A._shape[-2:]),), dtype=real._np)
    else:
        with _lapack(xp, "linalg.svd: The algorithm failed to converge."):
            s = _svd(xp, A._arr, compute_uv=False)
    return finish(_c(xp, s).astype(real._np, copy=False), real, A.device, out)


def _check_uplo(UPLO: str) -> None:
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")


def _square_first(A: Tensor, fn: str, every_dtype: bool = False) -> None:
    """PyTorch checks a half (or, for eigh, any) matrix's shape before refusing its dtype."""
    if (every_dtype or A._dtype in _dtypes.HALVES) and len(A._shape) >= 2 and \
            A._shape[-1] != A._shape[-2]:
        raise RuntimeError(f"{fn}: A must be batches of square matrices, but they are "
                           f"{A._shape[-2]} by {A._shape[-1]} matrices")


def _eigh_input(A: Tensor, fn: str) -> None:
    _square_first(A, fn, every_dtype=True)
    if A._dtype.category < _FLOAT or A._dtype in _dtypes.HALVES:
        raise NotImplementedError(f'"linalg_eigh_cpu" not implemented for '
                                  f"'{A._dtype.cname}'")
    _float_input(A, fn)


@op(namespace="linalg", method=False)
def eigh(A, UPLO: str = "L", *, out=None):
    """Eigenvalues (ascending, real) and orthonormal eigenvectors of a Hermitian matrix,
    reading only its ``UPLO`` triangle."""
    A = _tensor_arg(A, "linalg_eigh", "A", 1)
    _check_uplo(UPLO)
    _eigh_input(A, "linalg.eigh")
    xp = _xp(A)
    real = A._dtype.to_real()
    with _lapack(xp, "linalg.eigh: The algorithm failed to converge because the input matrix "
                     "is ill-conditioned or has too many repeated eigenvalues."):
        if A.numel() == 0:
            w = xp.zeros(A._shape[:-1], dtype=real._np)
            v = xp.zeros(A._shape, dtype=A._dtype._np)
        else:
            w, v = xp.linalg.eigh(A._arr, UPLO=UPLO)
    return return_types.linalg_eigh(_wrap(_c(xp, w).astype(real._np, copy=False), real, A),
                       _wrap_cm(xp, v, A._dtype, A))


@op(out_overlap=None, namespace="linalg", method=False, out="exact")
def eigvalsh(A, UPLO: str = "L", *, out=None) -> Tensor:
    A = _tensor_arg(A, "linalg_eigvalsh", "A", 1)
    _check_uplo(UPLO)
    _eigh_input(A, "linalg.eigvalsh")
    xp = _xp(A)
    real = A._dtype.to_real()
    if A.numel() == 0:
        w = xp.zeros(A._shape[:-1], dtype=real._np)
    else:
        with _lapack(xp, "linalg.eigvalsh: The algorithm failed to converge."):
            w = xp.linalg.eigvalsh(A._arr, UPLO=UPLO)
    return finish(_c(xp, w).astype(real._np, copy=False), real, A.device, out)


def _eig_input(A: Tensor, fn: str):
    if A._dtype.category < _FLOAT:
        raise RuntimeError(f"Unknown Complex ScalarType for {A._dtype.cname}")
    _square_first(A, fn)
    if A._dtype in _dtypes.HALVES:
        raise NotImplementedError('"linalg_eig_out_cpu" not implemented for '
                                  f"'{A._dtype.cname}'")
    _float_input(A, fn)
    return _require(_xp(A), "eig", f"torch.linalg.{fn.split('.')[-1]}")


@op(namespace="linalg", method=False)
def eig(A, *, out=None):
    """Eigenvalues and eigenvectors of a general square matrix: always complex."""
    A = _tensor_arg(A, "linalg_eig", "A", 1)
    f = _eig_input(A, "linalg.eig")
    xp = _xp(A)
    cdt = A._dtype.to_complex()
    with _lapack(xp, "linalg.eig: The algorithm failed to converge."):
        w, v = f(A._arr) if A.numel() else (xp.zeros(A._shape[:-1]), xp.zeros(A._shape))
    return return_types.linalg_eig(_wrap(_c(xp, w).astype(cdt._np), cdt, A),
                      _wrap_cm(xp, v.astype(cdt._np), cdt, A))


@op(namespace="linalg", method=False)
def eigvals(A, *, out=None) -> Tensor:
    A = _tensor_arg(A, "linalg_eigvals", "A", 1)
    _eig_input(A, "linalg.eigvals")
    xp = _xp(A)
    cdt = A._dtype.to_complex()
    f = _require(xp, "eigvals", "torch.linalg.eigvals")
    with _lapack(xp, "linalg.eigvals: The algorithm failed to converge."):
        w = f(A._arr) if A.numel() else xp.zeros(A._shape[:-1])
    return finish(_c(xp, w).astype(cdt._np), cdt, A.device, out)


def _tolerances(S, atol, rtol, dt, shape, xp):
    """PyTorch's singular-value cutoff: ``max(atol, rtol * max(S))`` with its defaults."""
    if isinstance(atol, Tensor):
        atol = atol._arr
    if isinstance(rtol, Tensor):
        rtol = rtol._arr
    eps = _dtypes.np_finfo(dt.to_real()._np).eps
    if rtol is None:
        rtol = eps * max(shape[-2:]) if atol is None or _is_zero(atol) else 0.0
    atol = 0.0 if atol is None else atol
    smax = S.max(axis=-1) if S.shape[-1] else xp.zeros(S.shape[:-1], dtype=S.dtype)
    return xp.maximum(xp.asarray(atol, dtype=S.dtype), xp.asarray(rtol, dtype=S.dtype) * smax)


def _is_zero(x) -> bool:
    try:
        return builtins.bool(x == 0)
    except (ValueError, TypeError):
        return False


@op(namespace="linalg", method=False)
def matrix_rank(A, tol=None, hermitian: bool = False, *, atol=None, rtol=None,
                out=None) -> Tensor:
    """The number of singular values above ``max(atol, rtol * largest)`` (int64)."""
    A = _tensor_arg(A, "linalg_matrix_rank", "A", 1)
    if tol is not None:
        atol, rtol = tol, 0.0
    if A._dtype.category < _FLOAT or A._dtype in _dtypes.HALVES:
        if rtol is None:  # (the default rtol needs the dtype's eps first)
            raise RuntimeError("This function doesn't handle types other than float and double")
        if A._dtype in _dtypes.HALVES:
            raise NotImplementedError('"linalg_svd_cpu" not implemented for '
                                      f"'{A._dtype.cname}'")
        raise RuntimeError("linalg.svd: Expected a floating point or complex tensor as input. "
                           f"Got {A._dtype.cname}")
    _float_input(A, "linalg.matrix_rank", square=False)
    xp = _xp(A)
    if A.numel() == 0:
        res = xp.zeros(A._shape[:-2], dtype=np.int64)
        return finish(res, _dtypes.int64, A.device, out)
    with _lapack(xp, "linalg.matrix_rank: The algorithm failed to converge."):
        if hermitian:
            S = xp.abs(xp.linalg.eigvalsh(A._arr))
        else:
            S = _svd(xp, A._arr, compute_uv=False)
    cut = _tolerances(S, atol, rtol, A._dtype, A._shape, xp)
    res = (S > cut[..., None]).sum(axis=-1).astype(np.int64)
    return finish(xp.asarray(res).reshape(A._shape[:-2]), _dtypes.int64, A.device, out)


@op(namespace="linalg", method=False)
def pinv(A, *, atol=None, rtol=None, hermitian: bool = False, out=None) -> Tensor:
    """The Moore-Penrose pseudo-inverse, from the SVD (or ``eigh`` when ``hermitian``)."""
    A = _tensor_arg(A, "linalg_pinv", "A", 1)
    if A._dtype.category < _FLOAT or A._dtype in _dtypes.HALVES or len(A._shape) < 2:
        raise RuntimeError(f"linalg.pinv({A._dtype.cname}{{{list(A._shape)}}}): expected a tensor "
                           "with 2 or more dimensions of float, double, cfloat or cdouble "
                           "types")
    xp = _xp(A)
    m, n = A._shape[-2:]
    if A.numel() == 0:
        res = xp.zeros(A._shape[:-2] + (n, m), dtype=A._dtype._np)
        return finish(res, A._dtype, A.device, out)
    a = A._arr
    with _lapack(xp, "linalg.pinv: The algorithm failed to converge."):
        if hermitian:
            w, v = xp.linalg.eigh(a)
            S = xp.abs(w)
            cut = _tolerances(S, atol, rtol, A._dtype, A._shape, xp)
            inv_w = xp.where(S > cut[..., None], 1 / xp.where(w == 0, 1, w), 0)
            res = xp.matmul(v * inv_w[..., None, :].astype(v.dtype), xp.conj(
                xp.swapaxes(v, -1, -2)))
        else:
            # Note: a matrix holding an infinity gets NaN (its SVD factors are NaN, _svd);
            # PyTorch's is zeros in some entries, NaN in others, from LAPACK's leftovers.
            u, S, vh = _svd(xp, a, full_matrices=False)
            cut = _tolerances(S, atol, rtol, A._dtype, A._shape, xp)
            inv_s = xp.where(S > cut[..., None], 1 / xp.where(S == 0, 1, S), 0)
            vs = xp.conj(xp.swapaxes(vh, -1, -2)) * inv_s[..., None, :].astype(vh.dtype)
            res = xp.matmul(vs, xp.conj(xp.swapaxes(u, -1, -2)))
    return finish(_c(xp, res).astype(A._dtype._np, copy=False), A._dtype,
                  A.device, out)


@op()
def pinverse(input, rcond: float = 1e-15) -> Tensor:
    return pinv(input, rtol=rcond)


@op(out_overlap=None, out="exact", also=("linalg.matrix_power",))
def matrix_power(A, n: int, *, out=None) -> Tensor:
    """``A @ A @ ... @ A`` (``n`` times; ``n = 0`` gives identities, ``n < 0`` powers of the
    inverse), by repeated squaring."""
    A = _tensor_arg(A, "linalg_matrix_power", "A", 1)
    if isinstance(n, builtins.bool) or not isinstance(n, (builtins.int, np.integer)):
        raise TypeError(f"linalg_matrix_power(): argument 'n' (position 2) must be int, not "
                        f"{type(n).__name__}")
    if not -2**63 <= n < 2**63:
        raise ValueError("Overflow when unpacking long long")
    if len(A._shape) < 2:
        raise RuntimeError("linalg.matrix_power: The input tensor A must have at least 2 "
                           "dimensions.")
    if A._shape[-1] != A._shape[-2]:
        raise RuntimeError(f"linalg.matrix_power: A must be batches of square matrices, but "
                           f"they are {A._shape[-2]} by {A._shape[-1]} matrices")
    xp = _xp(A)
    if n == 0:
        res = xp.empty(A._shape, dtype=A._dtype._np)
        res[...] = xp.eye(A._shape[-1], dtype=A._dtype._np)
        return finish(res, A._dtype, A.device, out)
    if n < 0:
        A = inv(A)
        n = -n
        if n == 1:
            return finish(A._arr, A._dtype, A.device, out)
    base = A._arr
    if n == 1:
        return finish(xp.array(base, order="C", copy=True), A._dtype, A.device, out)
    # PyTorch's order of products (which rounding and non-finite values follow): n = 3 is
    # (A @ A) @ A, other powers square the base and multiply the result on the right; each
    # product is matmul's (complex ones with its non-finite values, see _cprod).
    result = None
    if n == 3:
        result = _cprod(xp, xp.matmul, _cprod(xp, xp.matmul, base, base), base)
        n = 0
    while n:
        if n & 1:
            result = base if result is None else _cprod(xp, xp.matmul, result, base)
        n >>= 1
        if n:
            base = _cprod(xp, xp.matmul, base, base)
    if xp.may_share_memory(result, A._arr):
        result = result.copy()
    return finish(_c(xp, result), A._dtype, A.device, out)


@op(namespace="linalg", method=False)
def lstsq(A, B, rcond=None, *, driver=None):
    """Least-squares solution of ``A @ X = B`` (minimum norm where ``A`` is rank deficient).

    As PyTorch on CPU: the default driver ``'gelsy'`` reports the rank but no residuals or
    singular values; ``'gelsd'``/``'gelss'`` report them too."""
    A = _tensor_arg(A, "linalg_lstsq", "A", 1)
    B = _tensor_arg(B, "linalg_lstsq", "B", 2)
    if A.is_meta or B.is_meta:  # (the rank and residuals' sizes depend on the values)
        from ..backends._meta import no_kernel
        raise no_kernel("linalg_lstsq.out")
    if driver is not None and driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, "
                           "gelsy, gelsd, gelss)")
    driver = driver or "gelsy"
    if A._dtype.category < _FLOAT or A._dtype in _dtypes.HALVES:
        raise RuntimeError("This function doesn't handle types other than float and double")
    if A._dtype is not B._dtype:
        raise RuntimeError(f"torch.linalg.lstsq: Expected input and other to have the same "
                           f"dtype, but got input's dtype {A._dtype.cname} and other's dtype "
                           f"{B._dtype.cname}")
    if len(A._shape) < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    vector = len(B._shape) == len(A._shape) - 1
    if not vector and len(B._shape) < 1:
        raise RuntimeError("torch.linalg.lstsq: other must have at least 1 dimension.")
    b_t = B.unsqueeze(-1) if vector else B
    if A._shape[-2] != b_t._shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    dev = device_of(A, B)
    xp = _xp(A)
    real = A._dtype.to_real()
    m, n = A._shape[-2:]
    batch = _layout.broadcast_shapes(A._shape[:-2], b_t._shape[:-2])
    a = xp.broadcast_to(A._arr, batch + (m, n))
    b = xp.broadcast_to(b_t._arr, batch + b_t._shape[-2:])
    with _lapack(xp, "torch.linalg.lstsq: The least squares solution could not be computed "
                     "because the input matrix does not have full rank."):
        u, s, vh = _svd(xp, a, full_matrices=False)
        eps = _dtypes.np_finfo(real._np).eps
        rc = eps * max(m, n) if rcond is None else rcond
        smax = s.max(axis=-1, keepdims=True) if s.shape[-1] else s
        keep = s > rc * smax
        inv_s = xp.where(keep, 1 / xp.where(s == 0, 1, s), 0).astype(a.dtype)
        uhb = xp.matmul(xp.conj(xp.swapaxes(u, -1, -2)), b)
        x = xp.matmul(xp.conj(xp.swapaxes(vh, -1, -2)), uhb * inv_s[..., :, None])
    rank = keep.sum(axis=-1).astype(np.int64)
    # (PyTorch: residuals where m > n for every driver but gelsy; gelsd/gelss only report
    # them when every matrix has full rank)
    if m > n and (driver == "gels" or (driver in ("gelsd", "gelss") and
                                       builtins.bool((rank == n).all()))):
        resid = xp.sum(xp.abs(xp.matmul(a, x) - b) ** 2, axis=-2).astype(real._np)
    else:
        resid = xp.empty((0,), dtype=real._np)
    sv = s.astype(real._np) if driver in ("gelsd", "gelss") else xp.empty((0,), real._np)
    if driver == "gels":
        rank_t = xp.empty((0,), dtype=np.int64)
    else:
        rank_t = xp.asarray(rank).reshape(batch)
    sol = x[..., 0] if vector else x
    sol = _c(xp, sol) if vector else _colmajor(xp, sol)  # (column-major, as LAPACK leaves it)
    # (PyTorch solves in place in a column-major buffer of max(m, n) rows: the solution is
    # its first n rows, with that buffer's strides)
    rows = builtins.max(A._shape[-2], A._shape[-1])
    return return_types.linalg_lstsq(wrap_array(sol.astype(A._dtype._np), A._dtype, dev,
                                                None if vector else _colmajor_strides(
                                                    sol.shape[:-2] + (rows, sol.shape[-1]))),
                        wrap_array(_c(xp, resid), real, dev),
                        wrap_array(rank_t, _dtypes.int64, dev),
                        wrap_array(_c(xp, sv), real, dev))


# ---------------------------------------------------------------- norms
_INF = float("inf")


def _norm_dims(dim, ndim: int) -> tuple:
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, (builtins.int, np.integer)):
        dim = (builtins.int(dim),)
    if not dim:
        return tuple(range(ndim))
    return _layout.normalize_dims(dim, ndim)


def _norm_dtype(x: Tensor, dtype, fn: str):
    if dtype is not None:
        if dtype.category < _FLOAT:
            raise RuntimeError(f"{fn}: dtype should be floating point or complex, but got "
                               f"{dtype.cname}")
        if x._dtype.category != _COMPLEX and dtype.category == _COMPLEX:
            raise RuntimeError(f"{fn}: dtype should be real for real inputs, but got "
                               f"{dtype.cname}")
        if x._dtype.category == _COMPLEX and dtype.category != _COMPLEX:
            raise RuntimeError(f"{fn}: dtype should be complex for complex inputs, but got "
                               f"{dtype.cname}")
        return dtype
    return x._dtype


def _quietly(fn):
    """``fn`` with NumPy's floating-point warnings off (a norm past the dtype's range is
    inf, as in PyTorch; NumPy's warning would reach the user)."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)
    return run


@op(out_overlap=None, namespace="linalg", method=False, out="exact")
@_quietly
def vector_norm(x, ord=2, dim=None, keepdim: bool = False, *, dtype=None,
                out=None) -> Tensor:
    """``(sum |x|^ord)^(1/ord)`` over ``dim`` (all dims by default); ``inf``/``-inf`` give
    the max/min of ``|x|``, ``0`` the number of non-zeros."""
    dtype = _dtypes.as_dtype(dtype)  # (dtype=float and the like: Python types)
    x = _tensor_arg(x, "linalg_vector_norm", "x", 1)
    if isinstance(ord, str) or not isinstance(ord, (builtins.int, builtins.float, np.number)):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, not "
                        f"{type(ord).__name__}")
    if x._dtype.category < _FLOAT:
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {x._dtype.cname}")
    cdt = _norm_dtype(x, dtype, "linalg.vector_norm")
    rdt = cdt.to_real()
    xp = _xp(x)
    n = len(x._shape)
    dims = _norm_dims(dim, n) if n else ()
    arr = x._arr if n else x._arr.reshape(1)
    if not n:
        dims = (0,)
    if cdt is not x._dtype:
        arr = operand(x, cdt, x.device)
        if not n:
            arr = arr.reshape(1)
    ord = builtins.float(ord)
    if ord == _INF or ord < 0:  # (no identity: a max, or a negative power's inf)
        empty = [d for d in dims if arr.shape[d] == 0]
        if empty or (arr.size == 0 and dim is None):
            name = format(ord, "g")
            if dim is None or (isinstance(dim, (list, tuple)) and not dim):
                raise RuntimeError(f"linalg.vector_norm cannot compute the {name} norm on an "
                                   "empty tensor because the operation does not have an "
                                   "identity")
            raise RuntimeError(f"linalg.vector_norm cannot compute the {name} norm on the "
                               f"dimension {empty[0]}because this dimension is empty and the "
                               "operation does not have an identity")
    acc = np.float32 if rdt in _dtypes.HALVES else rdt._np
    if ord != ord and builtins.any(arr.shape[d] == 0 for d in dims):
        ord = 2.0  # (a NaN power of no element is the sum's identity, 0, as PyTorch's)
    with np.errstate(all="ignore"):
        a = xp.abs(arr).astype(acc, copy=False)
        if ord != 0 and builtins.all(arr.shape[d] == 1 for d in dims) and \
                (n or dim is None or (isinstance(dim, (list, tuple)) and not dim)):
            # (PyTorch's norm of one element is its |x|: |1e30| ** 2 does not overflow; but
            # a 0-dim tensor's along an explicit dim takes the general path: inf there, and
            # NaN for ord=nan)
            res = a
        elif ord == _INF:
            res = xp.max(a, axis=dims, keepdims=True)
        elif ord == -_INF:
            res = xp.min(a, axis=dims, keepdims=True)
        elif ord == 0:
            res = xp.sum(a != 0, axis=dims, keepdims=True).astype(acc)
        elif ord == 1:
            res = xp.sum(a, axis=dims, keepdims=True)
        elif ord == 2:
            res = xp.sqrt(xp.sum(a * a, axis=dims, keepdims=True))
        else:
            res = xp.sum(a ** ord, axis=dims, keepdims=True) ** (1.0 / ord)
    if not keepdim:
        res = res.reshape(tuple(s for d, s in enumerate(res.shape) if d not in dims))
    elif not n:
        res = res.reshape(())
    res = _c(xp, res).astype(rdt._np, copy=False)
    return finish(res, rdt, x.device, out)


_MATRIX_ORDS = ("fro", "nuc", _INF, -_INF, 1, -1, 2, -2)


@op(out_overlap=None, namespace="linalg", method=False, out="exact", out_message=_named(
    "linalg.matrix_norm expected out tensor dtype {r} but got: {o}"))
def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim: bool = False, *, dtype=None,
                out=None) -> Tensor:
    """Matrix norms over the two ``dim``: ``'fro'``, ``'nuc'`` (sum of singular values),
    ``2``/``-2`` (largest/smallest singular value), ``1``/``-1`` (max/min column sum of
    ``|A|``), ``inf``/``-inf`` (max/min row sum)."""
    dtype = _dtypes.as_dtype(dtype)  # (dtype=float and the like: Python types)
    A = _tensor_arg(A, "linalg_matrix_norm", "A", 1)
    if A._dtype.category < _FLOAT:
        raise RuntimeError(f"linalg.matrix_norm: Expected a floating point or complex tensor "
                           f"as input. Got {A._dtype.cname}")
    if len(A._shape) < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    dim = tuple(dim) if isinstance(dim, (list, tuple)) else (dim,)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                           f"{' '.join(map(str, dim))}")
    d0, d1 = (_layout.normalize_dim(d, len(A._shape)) for d in dim)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, "
                           f"{dim[1]})")
    if ord not in _MATRIX_ORDS:
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if ord == "fro":
        return vector_norm(A, 2, (d0, d1), keepdim, dtype=dtype, out=out)
    cdt = _norm_dtype(A, dtype, "linalg.matrix_norm")
    rdt = cdt.to_real()
    xp = _xp(A)
    if ord in ("nuc", 2, -2):
        if cdt in _dtypes.HALVES:
            raise RuntimeError("linalg.matrix_norm: Low precision dtypes not supported. Got "
                               f"{cdt.cname}")
        moved = A.movedim((d0, d1), (-2, -1))
        if cdt is not A._dtype:
            moved = moved.to(cdt)
        if moved.numel() == 0:
            s = xp.zeros(moved._shape[:-2] + (0,), dtype=rdt._np)
        else:
            with _lapack(xp, "linalg.matrix_norm: The algorithm failed to converge."):
                s = _svd(xp, moved._arr, compute_uv=False)
        if ord == "nuc":
            res = call_quiet(s.sum, axis=-1)  # (singular values past the range: inf, quietly)
        elif s.shape[-1] == 0:
            if ord == -2:
                raise IndexError("amin(): Expected reduction dim -1 to have non-zero size.")
            res = xp.zeros(s.shape[:-1], dtype=s.dtype)
        else:
            res = s.max(axis=-1) if ord == 2 else s.min(axis=-1)
        res = res.astype(rdt._np)
        if keepdim:
            res = xp.expand_dims(xp.expand_dims(res, min(d0, d1)), max(d0, d1))
        return finish(_c(xp, res), rdt, A.device, out)
    # 1 / -1: reduce over rows (d0) first, then the max/min over columns; inf: the other way.
    first, second = (d0, d1) if ord in (1, -1) else (d1, d0)
    sums = vector_norm(A, 1, first, True, dtype=dtype)
    if ord in (-1, -_INF) and sums._shape[second] == 0:
        raise IndexError(f"amin(): Expected reduction dim {second} to have non-zero size.")
    if sums.numel() == 0:
        res = xp.zeros(tuple(1 if d in (d0, d1) else s for d, s in enumerate(sums._shape)),
                       dtype=rdt._np)
    else:
        red = xp.max if ord in (1, _INF) else xp.min
        res = red(sums._arr, axis=second, keepdims=True)
    if not keepdim:
        res = res.reshape(tuple(s for d, s in enumerate(res.shape) if d not in (d0, d1)))
    return finish(_c(xp, res), rdt, A.device, out)


@op(out_overlap=None, namespace="linalg", method=False, out="exact",
    out_message=_named("linalg.norm expected out tensor dtype {r} but got: {o}"))
def norm(A, ord=None, dim=None, keepdim: bool = False, *, out=None, dtype=None) -> Tensor:
    """``vector_norm`` or ``matrix_norm`` as PyTorch picks: a matrix norm when ``ord`` is
    given and ``dim`` has two dims (or ``A`` is 2-D without ``dim``)."""
    dtype = _dtypes.as_dtype(dtype)  # (dtype=float and the like: Python types)
    A = _tensor_arg(A, "linalg_norm", "A", 1)
    if dim is not None:
        dims = (dim,) if isinstance(dim, (builtins.int, np.integer)) else tuple(dim)
        if len(dims) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got {list(dims)}")
    else:
        dims = None
        if ord is not None and A.dim() not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input "
                               f"must be 1D or 2D. Got {A.dim()}D.")
    if isinstance(ord, str):
        if dims is not None and len(dims) != 2:
            raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                               f"{' '.join(map(str, dims))}")
        return matrix_norm(A, ord, dims or (-2, -1), keepdim, dtype=dtype, out=out)
    if ord is not None and ((dims is not None and len(dims) == 2) or
                            (dims is None and A.dim() == 2)):
        return matrix_norm(A, ord, dims or (0, 1), keepdim, dtype=dtype, out=out)
    return vector_norm(A, 2 if ord is None else ord, dims, keepdim, dtype=dtype, out=out)


@op(namespace="linalg", method=False)
def cond(A, p=None, *, out=None) -> Tensor:
    """The condition number ``norm(A, p) * norm(inv(A), p)`` (for ``p`` None/2/-2: the ratio
    of extreme singular values)."""
    A = _tensor_arg(A, "linalg_cond", "A", 1)
    if p is None or p in (2, -2):
        s = svdvals(A)
        xp = _xp(A)
        with np.errstate(all="ignore"):
            hi, lo = s._arr.max(axis=-1), s._arr.min(axis=-1)
            res = hi / lo if p in (None, 2) else lo / hi
        return finish(xp.asarray(res), s._dtype, A.device, out)
    res = matrix_norm(A, p)
    other = matrix_norm(inv(A), p)
    xp = _xp(A)
    return finish(xp.asarray(res._arr * other._arr), res._dtype, A.device, out)


@op(namespace="linalg", method=False, out="exact", out_message=lambda r, o: (
    f"multi_dot(): expected out tensor to have dtype {r._dtype.cxx_name} but got "
    f"{o._dtype.cxx_name}"))
def multi_dot(tensors, *, out=None) -> Tensor:
    """``tensors[0] @ tensors[1] @ ...``; the first and last may be 1-D (vectors)."""
    tensors = list(tensors)
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(t).__name__}")
        ok = t.dim() == 2 or (t.dim() == 1 and i in (0, len(tensors) - 1))
        if not ok:
            if i in (0, len(tensors) - 1):
                raise RuntimeError(f"multi_dot(): the {'first' if i == 0 else 'last'} tensor "
                                   f"must be 1D or 2D but got {t.dim()}D")
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.dim()}D")
        if t._dtype is not tensors[0]._dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but "
                               f"tensor 0 is {tensors[0]._dtype.cxx_name} and tensor {i} "
                               f"{t._dtype.cxx_name}")
    mats = [t.unsqueeze(0) if (i == 0 and t.dim() == 1) else
            (t.unsqueeze(1) if t.dim() == 1 else t) for i, t in enumerate(tensors)]
    for i in range(len(mats) - 1):
        if mats[i]._shape[1] != mats[i + 1]._shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes "
                               f"{list(mats[i]._shape)} and {list(mats[i + 1]._shape)} cannot be "
                               "multiplied")
    dev = device_of(*tensors)
    xp = _xp(tensors[0])
    arrs = [m._arr for m in mats]
    if runs_numpy(xp) and len(arrs) > 2:
        res = call_quiet(np.linalg.multi_dot, arrs)
    else:
        res = arrs[0]
        for a in arrs[1:]:
            res = call_quiet(xp.matmul, res, a)
    shape = (() if tensors[0].dim() == 1 else (mats[0]._shape[0],)) + \
        (() if tensors[-1].dim() == 1 else (mats[-1]._shape[1],))
    return finish(_c(xp, res).reshape(shape), tensors[0]._dtype, dev, out)


@op(out_overlap=None, namespace="linalg", method=False, out="exact", out_message=_named(
    "linalg.vecdot: Expected out of dtype{r} but found {o}"))
def vecdot(x, y, *, dim: int = -1, out=None) -> Tensor:
    """``sum(conj(x) * y, dim)`` with broadcasting."""
    x = _tensor_arg(x, "linalg_vecdot", "x", 1)
    y = _tensor_arg(y, "linalg_vecdot", "y", 2)
    if x._dtype is not y._dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found "
                           f"x of type {x._dtype.cname} and y of type {y._dtype.cname} instead")
    if x._dtype.category < _FLOAT:
        raise RuntimeError("linalg.vecdot: Expected a floating point or complex tensor as "
                           f"input. Got {x._dtype.cname}")
    shape = _layout.broadcast_shapes(x._shape, y._shape)
    d = _layout.normalize_dim(dim, len(shape))
    dev = device_of(x, y)
    xp = _xp(x)
    a = xp.conj(x._arr) if x._dtype.category == _COMPLEX else x._arr
    res = call_quiet(xp.sum, a * y._arr, axis=d)
    return finish(_c(xp, xp.asarray(res)).astype(x._dtype._np), x._dtype, dev,
                  out)


@op(namespace="linalg", method=False)
def vander(x, *, N=None) -> Tensor:
    """Columns ``x**0, x**1, ..., x**(N-1)`` (increasing powers, as PyTorch)."""
    x = _tensor_arg(x, "linalg_vander", "x", 1)
    if x.dim() < 1:
        raise RuntimeError("linalg.vander: x must have at least one dimension")
    n = x._shape[-1] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    xp = _xp(x)
    dt = _dtypes.int64 if x._dtype.category <= _INT else x._dtype
    base = operand(x, dt, x.device)
    with np.errstate(all="ignore"):
        res = base[..., None] ** xp.arange(n, dtype=dt._np)
    return wrap_array(_c(xp, res).astype(dt._np, copy=False), dt, x.device)


@op("diagonal", namespace="linalg", method=False)
def linalg_diagonal(A, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    return A.diagonal(offset, dim1, dim2)


@op("solve_ex", namespace="linalg", method=False)
def _solve_ex(A, B, *, left: bool = True, check_errors: bool = False, out=None):
    xp = _xp(A)
    try:
        res = solve(A, B, left=left)
        info = xp.zeros(A._shape[:-2], dtype=np.int32)
    except LinAlgError as e:
        if check_errors:
            raise LinAlgError(str(e).replace("torch.linalg.solve:", "torch.linalg.solve_ex:",
                                             1)) from None
        info_h = _lu_info(_host(xp, A._arr))
        if _pytorch_lu_applies(xp, A._arr) and B._dtype is A._dtype:
            # PyTorch's values: its LU's triangular solves, zero pivot included (inf, nan)
            vector = _solve_shapes(A, B, left)
            a, b = A._arr, B._arr[..., None] if vector else B._arr
            if not left:
                b = xp.swapaxes(b, -1, -2)
            batch = _layout.broadcast_shapes(a.shape[:-2], b.shape[:-2])
            a = xp.broadcast_to(a, batch + a.shape[-2:])
            b = xp.broadcast_to(b, batch + b.shape[-2:])
            res = _solve_result(xp, _solve_arr(xp, a, b, keep_going=True, left=left), A,
                                A.device, left, vector, None)
            return return_types.linalg_solve_ex(res, wrap_array(xp.asarray(info_h),
                                                                _dtypes.int32, A.device))
        # Each failing matrix of A gets its own info (the first zero pivot) and NaNs.
        fixed, bad = _fixed_batch(xp, A._arr, info_h)
        try:
            res = solve(wrap_array(fixed, A._dtype, A.device), B, left=left)
            nan_rows = bad.reshape(bad.shape + (1,) * (len(res._shape) - bad.ndim))
            if not (len(B._shape) == 1 or (len(B._shape) == len(A._shape) - 1 and
                                           B._shape == A._shape[:-1])):
                nan_rows = bad[..., None, None]
            elif bad.ndim:
                nan_rows = bad[..., None]
            arr = xp.where(nan_rows, xp.asarray(np.nan, dtype=A._dtype._np), res._arr)
            res = wrap_array(arr, A._dtype, A.device, res.stride())
        except LinAlgError:
            res = wrap_array(xp.full(B._shape, np.nan, dtype=A._dtype._np), A._dtype,
                             A.device)
            info_h = np.maximum(info_h, 1)
        info = xp.asarray(info_h)
    return return_types.linalg_solve_ex(res, wrap_array(info, _dtypes.int32, A.device))


@op("cholesky")
def _cholesky_legacy(input, upper: bool = False, *, out=None) -> Tensor:
    warn_once("torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be "
              "removed in a future PyTorch release.")
    input = _tensor_arg(input, "cholesky", "input", 1)
    if input.numel() == 0:
        # (PyTorch's legacy cholesky returns empty_like(input), row-major, before any check of
        # dtype or shape: a (0, 3, 3) input gives strides (9, 3, 1), linalg.cholesky's (9, 1, 3))
        xp = _xp(input)
        return finish(xp.empty(input._shape, dtype=input._dtype._np), input._dtype,
                      input.device, out, _contig(input._shape))
    if input._dtype.category < _FLOAT or input._dtype in _dtypes.HALVES:
        raise NotImplementedError(f'"cholesky_cpu" not implemented for \'{input._dtype.cname}\'')
    try:
        return cholesky(input, upper=upper, out=out)
    except LinAlgError as e:  # (PyTorch names the legacy function in its message)
        raise LinAlgError(str(e).replace("linalg.cholesky:", "cholesky:", 1)) from None


@op("qr")
def _qr_legacy(input, some: bool = True, *, out=None):
    """``torch.qr``: ``(Q, R)`` reduced (``some=True``) or complete."""
    warn_once("torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a "
              "future PyTorch release.")
    res = qr(input, "reduced" if some else "complete")
    return _out_pair(return_types.qr(*res), out)


def _out_pair(res, out):
    if out is None:
        return res
    for src, dst in zip(res, out):
        finish(src._arr, src._dtype, src.device, dst)
    return type(res)(*out)


def _trsm_divide(xp, num, piv):
    """``num / piv`` as PyTorch's CPU trsm divides by a pivot (MKL): reals plainly; complex
    values times the pivot's reciprocal ``conj(p') / |p'|**2 / s``, ``p' = p / s`` scaled by
    ``s = max(|re p|, |im p|)`` (no overflow for 1e200+1e200j), so an infinite pivot or a
    zero one gives NaN (NumPy's Smith division gives 0 and inf+inf j there).

    # Note: MKL's trsm kernels differ by path (upper or lower triangle, order): a 1x1 upper
    # solve by a zero pivot gives Smith's inf+nan j in PyTorch, and some solves by an
    # infinite pivot give 0; this rule matches the lower solves cholesky_solve starts with
    # (on random matrices of 0, +-inf, NaN and small numbers, about 85% of the non-finite
    # solves agree with PyTorch's, up from 75% with NumPy's division).

    >>> _trsm_divide(np, np.array([0.5 - 2j]), np.array([complex(-np.inf, 1.0)]))
    array([nan+nanj])
    """
    if num.dtype.kind != "c":
        return num / piv
    with np.errstate(all="ignore"):
        sc = xp.maximum(xp.abs(piv.real), xp.abs(piv.imag))
        pr, pi = piv.real / sc, piv.imag / sc
        den = pr * pr + pi * pi
        rec = xp.empty(xp.shape(piv), dtype=num.dtype)
        rec.real, rec.imag = pr / den / sc, -pi / den / sc
        return num * rec


@op(namespace="linalg", method=False, out="exact",
    out_message=_named("expected scalar type {r} but found {o}"))
def solve_triangular(A, B, *, upper: bool, left: bool = True, unitriangular: bool = False,
                     out=None) -> Tensor:
    """``X`` with ``A @ X = B`` (``X @ A = B`` when ``left=False``), reading only the
    ``upper`` (or lower) triangle of ``A`` (its diagonal taken as ones when ``unitriangular``).
    A zero on the diagonal gives inf/nan, as back-substitution does (no error)."""
    A = _tensor_arg(A, "linalg_solve_triangular", "A", 1)
    B = _tensor_arg(B, "linalg_solve_triangular", "B", 2)
    if A._dtype.category < _FLOAT or A._dtype in _dtypes.HALVES:
        raise NotImplementedError(f'"triangular_solve_cpu" not implemented for '
                                  f"'{A._dtype.cname}'")
    for name, t in (("A", A), ("B", B)):
        if len(t._shape) < 2:
            raise RuntimeError(f"linalg.solve_triangular: The input tensor {name} must have at "
                               "least 2 dimensions.")
    if A._dtype is not B._dtype:
        raise RuntimeError(f"linalg.solve_triangular: Expected A and B to have the same dtype, "
                           f"but found A of type {A._dtype.cname} and B of type "
                           f"{B._dtype.cname} instead")
    if A._shape[-1] != A._shape[-2]:
        raise RuntimeError(f"linalg.solve_triangular: A must be batches of square matrices, but "
                           f"they are {A._shape[-2]} by {A._shape[-1]} matrices")
    dev = device_of(A, B)
    xp = _xp(A)
    a, b = A._arr, B._arr
    if not left:  # X A = B  <=>  A^T X^T = B^T (the triangle flips)
        a, b, upper = xp.swapaxes(a, -1, -2), xp.swapaxes(b, -1, -2), not upper
    n = a.shape[-1]
    if b.shape[-2] != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the "
                           f"equation {eq} ({A._shape[-2]}x{A._shape[-1]} and "
                           f"{B._shape[-2]}x{B._shape[-1]})")
    mask = xp.triu(xp.ones((n, n), dtype=bool)) if upper else xp.tril(xp.ones((n, n), dtype=bool))
    tri = xp.where(mask, a, xp.zeros((), dtype=a.dtype))
    if unitriangular:
        eye = xp.eye(n, dtype=bool)
        tri = xp.where(eye, xp.ones((), dtype=a.dtype), tri)
    batch = _layout.broadcast_shapes(tri.shape[:-2], b.shape[:-2])
    tri = xp.broadcast_to(tri, batch + (n, n))
    b = xp.broadcast_to(b, batch + b.shape[-2:])
    def substitute():
        # Row by row, as LAPACK's trsm: each row reads only the rows solved before it, so an
        # infinity (or a zero pivot) spoils those after it, not the whole solution.
        out = xp.zeros(b.shape, dtype=A._dtype._np)
        with np.errstate(all="ignore"):
            for i in (range(n - 1, -1, -1) if upper else range(n)):
                done = slice(i + 1, n) if upper else slice(0, i)
                acc = b[..., i, :] - xp.einsum("...j,...jk->...k", tri[..., i, done],
                                               out[..., done, :])
                # (a unit diagonal is not divided by, as trsm's: nan-inf j / 1 would be NaN)
                out[..., i, :] = acc if unitriangular else \
                    _trsm_divide(xp, acc, tri[..., i, i][..., None])
        return out
    try:
        if tri.size == 0 or b.size == 0:
            res = xp.zeros(b.shape, dtype=A._dtype._np)
        elif A.is_meta:  # (placeholders: the meta device's shape rule, no values to read)
            res = xp.linalg.solve(tri, b)
        elif not (builtins.bool(xp.isfinite(tri).all()) and builtins.bool(xp.isfinite(b).all())):
            res = substitute()  # (an LU solve spreads a non-finite entry to every row)
        elif builtins.bool((xp.abs(xp.diagonal(tri, axis1=-2, axis2=-1)) <
                            np.finfo(A._dtype._np).tiny).any()):
            # (a subnormal pivot: LAPACK's solve multiplies by its reciprocal, which
            # overflows, 0 * inf = nan; PyTorch's trsm divides, 0 / 1e-310 = 0)
            res = substitute()
        elif upper:  # (LU of an upper triangle pivots nowhere: back substitution)
            with _lapack(xp, "singular"):
                res = xp.linalg.solve(tri, b)
        else:  # (a lower triangle is solved as the upper one of reversed rows and columns,
            # where partial pivoting would otherwise swap rows and round differently)
            with _lapack(xp, "singular"):
                res = xp.linalg.solve(tri[..., ::-1, ::-1], b[..., ::-1, :])[..., ::-1, :]
    except LinAlgError:  # a zero pivot
        res = substitute()
    if not left:
        res = xp.swapaxes(res, -1, -2)
        return finish(_c(xp, res), A._dtype, dev, out)
    return _finish_cm(xp, res, A._dtype, dev, out)


# Taylor coefficients 1/k! of the matrix exponential, k = 0..19
_TAYLOR19 = tuple(1.0 / math.factorial(k) for k in range(20))


@op(also=("linalg.matrix_exp",))
@_quietly
def matrix_exp(A) -> Tensor:
    """``exp(A) = sum A^k / k!`` of each square matrix (scaling and squaring of a Taylor
    polynomial, as PyTorch's).

    Example: ``matrix_exp(tensor([[0., 1.], [0., 0.]]))`` is ``tensor([[1., 1.], [0., 1.]])``.

    # Note: entries near the float range overflow to inf, as the exact result does; PyTorch's
    # scaling underflows there and returns the identity.
    # Note: computed in double precision for every dtype, then rounded; PyTorch computes a
    # float32 exponential in float32, whose squarings magnify its rounding in a far from
    # normal matrix ([[-1e-33, 1.15e15], [-7.5e-4, -7.5e-4]]: 1e33 and inf there, where
    # the exact exponential, and this one, is [[0.14, 1.2e9], [-8e-10, 0.14]]).
    """
    A = _tensor_arg(A, "linalg_matrix_exp", "A", 1)
    if A._dtype.category < _FLOAT:
        raise RuntimeError(f"linalg.matrix_exp: Expected a floating point or complex tensor as "
                           f"input. Got {A._dtype.cname}")
    _float_input(A, "linalg.matrix_exp", half="matrix_exp")
    xp = _xp(A)
    work = np.complex128 if A._dtype.category == _COMPLEX else np.float64
    a = A._arr.astype(work)
    n = a.shape[-1]
    if a.size == 0:  # (PyTorch's empty_like: an empty input's strides are kept)
        from .._creation import empty_like
        return empty_like(A)
    if n == 1:  # (as PyTorch: a 1x1 matrix's exponential is its entry's exp, exp(1e30+0j) is
        # inf+0j, where scaling and squaring would give NaN)
        with np.errstate(all="ignore"):
            return wrap_array(_c(xp, xp.exp(A._arr)), A._dtype, A.device)
    # Each matrix is scaled by 2**-s to a 1-norm of at most 1 (where the Taylor polynomial of
    # degree 19 is exact to double precision), then squared s times. Products only, no solve
    # (a Pade quotient's LU loses the tiny entries of a badly scaled matrix, whose exponential
    # they decide: [[0.5, 0.25], [1e18, -0.75]] overflows everywhere). A matrix holding an
    # infinity or NaN gives NaN, as PyTorch's.
    with np.errstate(all="ignore"):
        norm1 = xp.abs(a).sum(axis=-2).max(axis=-1)
        finite = xp.isfinite(norm1)
        s = xp.where(finite & (norm1 > 1), xp.ceil(xp.log2(xp.where(finite, norm1, 1.0))), 0)
        a = a / xp.exp2(s)[..., None, None]
        a = xp.where(finite[..., None, None], a, xp.nan)
        eye = xp.broadcast_to(xp.eye(n, dtype=work), a.shape)
        powers = [eye, a, xp.matmul(a, a)]
        powers.append(xp.matmul(powers[2], a))
        a4 = xp.matmul(powers[2], powers[2])
        c = _TAYLOR19
        res = None  # Horner in A^4 over blocks of four terms (Paterson-Stockmeyer)
        for j in range(4, -1, -1):
            block = sum(c[4 * j + i] * powers[i] for i in range(4))
            res = block if res is None else block + xp.matmul(a4, res)
        steps = builtins.int(s.max()) if s.size else 0
        for k in range(steps):
            sq = xp.matmul(res, res)
            res = xp.where((s > k)[..., None, None], sq, res)
    return wrap_array(_c(xp, res.astype(A._dtype._np)), A._dtype, A.device)


@op(namespace="linalg", method=False)
def tensorinv(A, ind: int = 2, *, out=None) -> Tensor:
    """The inverse of ``A`` seen as a linear map from its first ``ind`` dims to the rest."""
    A = _tensor_arg(A, "linalg_tensorinv", "A", 1)
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    left, right = A._shape[:ind], A._shape[ind:]
    lp, rp = _layout.numel(left), _layout.numel(right)
    if lp != rp:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {rp} != {lp}")
    res = inv(A.reshape(lp, rp))
    return finish(_c(_xp(A), res._arr).reshape(right + left), A._dtype, A.device, out)


@op(namespace="linalg", method=False)
def tensorsolve(A, B, dims=None, *, out=None) -> Tensor:
    """``X`` with ``tensordot(A, X, X.ndim) = B``."""
    A = _tensor_arg(A, "linalg_tensorsolve", "A", 1)
    B = _tensor_arg(B, "linalg_tensorsolve", "B", 2)
    if dims is not None:
        dims = [_layout.normalize_dim(d, A.dim()) for d in dims]
        rest = [d for d in range(A.dim()) if d not in dims]
        A = A.permute(*(rest + dims))
    nb = B.dim()
    xshape = A._shape[nb:]
    rows, cols = B.numel(), _layout.numel(xshape)
    if _layout.numel(A._shape[:nb]) != rows or rows != cols:
        raise RuntimeError(f"Expected self to satisfy the requirement "
                           f"prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), but "
                           f"got {cols} != {rows}")
    res = solve(A.reshape(rows, cols), B.reshape(rows))
    return finish(_c(_xp(A), res._arr).reshape(xshape), A._dtype, A.device, out)




def _solve_inputs(b, A, fn: str, kernel: str, b_name: str, A_name: str, dims_msg) -> None:
    for name, t in ((b_name, b), (A_name, A)):
        if len(t._shape) < 2:
            raise RuntimeError(dims_msg(name, len(t._shape)))
    if b._dtype.category < _FLOAT or b._dtype in _dtypes.HALVES:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{b._dtype.cname}\'')
    if b._dtype is not A._dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{b._dtype.cname} and A of type {A._dtype.cname} instead.")
    if A._shape[-1] != A._shape[-2]:
        raise RuntimeError(f"A must be batches of square matrices, but they are "
                           f"{A._shape[-2]} by {A._shape[-1]} matrices")
    if A._shape[-1] != b._shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for {fn}: each A matrix is "
                           f"{A._shape[-1]} by {A._shape[-1]} but each b matrix is "
                           f"{b._shape[-2]} by {b._shape[-1]}")


@op()
def cholesky_solve(input, input2, upper: bool = False, *, out=None) -> Tensor:
    """``X`` with ``A X = B`` for ``A = L L^H`` (``U^H U`` when ``upper``), given ``B`` and
    the Cholesky factor (only its triangle is read); batches broadcast."""
    B = _tensor_arg(input, "cholesky_solve", "input", 1)
    L = _tensor_arg(input2, "cholesky_solve", "input2", 2)
    _solve_inputs(B, L, "cholesky_solve", "cholesky_solve_cpu", "b", "u",
                  lambda n, d: f"{n} should have at least 2 dimensions, but has {d} dimensions "
                               "instead")
    Lh = L.transpose(-2, -1).conj()
    if upper:  # U^H U X = B: U^H Y = B, then U X = Y
        y = solve_triangular(Lh, B, upper=False)
        res = solve_triangular(L, y, upper=True)
    else:  # L L^H X = B
        y = solve_triangular(L, B, upper=False)
        res = solve_triangular(Lh, y, upper=True)
    if out is not None:
        return finish(res._arr, res._dtype, res.device, out)
    return res


@op()
def triangular_solve(input, A, upper: bool = True, transpose: bool = False,
                     unitriangular: bool = False, *, out=None):
    """Deprecated form of ``linalg.solve_triangular`` (arguments reversed): ``(solution,
    cloned_coefficient)`` with ``A X = b`` (``A^T X = b`` when ``transpose``)."""
    b = _tensor_arg(input, "triangular_solve", "input", 1)
    A = _tensor_arg(A, "triangular_solve", "A", 2)
    warn_once("torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangular"
              "and will be removed in a future PyTorch release.\ntorch.linalg.solve_triangular "
              "has its arguments reversed and does not return a copy of one of the inputs.\nX = "
              "torch.triangular_solve(B, A).solution\nshould be replaced with\nX = "
              "torch.linalg.solve_triangular(A, B).")
    _solve_inputs(b, A, "triangular_solve", "triangular_solve_cpu", "b", "A",
                  lambda n, d: f"torch.triangular_solve: Expected {n} to have at least 2 "
                               f"dimensions, but it has {d} dimensions instead")
    coef = A.transpose(-2, -1) if transpose else A
    X = solve_triangular(coef, b, upper=upper != builtins.bool(transpose),
                         unitriangular=unitriangular)
    xp = _xp(A)
    batch = X._shape[:-2]
    M = _wrap_cm(xp, xp.broadcast_to(A._arr, batch + A._shape[-2:]).copy(), A._dtype, A)
    res = return_types.triangular_solve(X, M)
    if out is not None:
        return return_types.triangular_solve_out(*_out_pair(res, out))
    return res
