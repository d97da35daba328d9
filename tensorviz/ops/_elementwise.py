"""The elementwise machinery (promotion, broadcasting, devices, ``out=``, in-place) and the
arithmetic/bitwise/comparison ops behind Python's operators.

Every elementwise op goes through ``binary``/``unary``: PyTorch's result dtype is computed
first, operands are converted to it, the backend's ufunc runs on the strided array views, and
the result is wrapped in a fresh storage::

    rdt = result_type(a, b); out[i] = ufunc(a[i] as rdt, b[i] as rdt)
"""
from __future__ import annotations

import builtins
import functools
import warnings
from typing import Any, Callable

import numpy as np

from .. import _chalf, _dispatch, _dtypes, _layout
from .._device import CPU
from .._dtypes import PROMOTION_TABLE, _COMPLEX, _FLOAT, _INT, half_rounded, result_type
from .._dispatch import (check_partial_overlap, exact_out, found_message, inplace_of, op, operator_of,
                         resize_out, write_out)
from .._indexing import check_writable
from .._scalars import check_half, checked_scalar, fill_value, scalar_to  # noqa: F401
from .._tensor import Tensor, _contig, _fresh, tensor_device, wrap_array
from ..backends._numpy import call_quiet, context_busy, fma, out_of_memory, quiet_run

Number = (builtins.bool, builtins.int, builtins.float, builtins.complex, np.generic)
_PY_NUMBERS = frozenset((builtins.bool, builtins.int, builtins.float, builtins.complex))

_SCALAR_RESULT: dict = {}
_NDARRAY = np.ndarray


def promote(a, b) -> "_dtypes.dtype":
    """``result_type(a, b)`` with fast paths for the common tensor/tensor and tensor/scalar."""
    if isinstance(b, Tensor):
        if isinstance(a, Tensor):
            if builtins.bool(a._shape) == builtins.bool(b._shape):
                return PROMOTION_TABLE[(a._dtype, b._dtype)]
            return result_type(a, b)
        a, b = b, a
    if isinstance(a, Tensor):
        key = (a._dtype, builtins.bool(a._shape), type(b), _dtypes._default_dtype)
        r = _SCALAR_RESULT.get(key)
        if r is None:
            r = _SCALAR_RESULT[key] = result_type(a, b)
        return r
    return result_type(a, b)


def device_of(*operands) -> Any:
    """The device of an op's tensors; RuntimeError naming both when they differ.

    A 0-dim CPU tensor may join tensors on another device, as in PyTorch.
    """
    dev = None
    cpu_scalar = None
    for x in operands:
        if isinstance(x, Tensor):
            d = tensor_device(x)
            if dev is None:
                dev = d
            elif d != dev:
                if "meta" in (d.type, dev.type) and (x._shape or d.type == "meta"):
                    raise RuntimeError(f"Tensor on device {d} is not on the expected device "
                                       f"{dev}!")
                if d.type == "cpu" and not x._shape:
                    cpu_scalar = d
                    continue
                if dev.type == "cpu" and cpu_scalar is None and _only_scalar_on(operands, dev):
                    dev = d
                    continue
                raise RuntimeError(f"Expected all tensors to be on the same device, but found "
                                   f"at least two devices, {dev} and {d}!")
    return dev


def _only_scalar_on(operands, dev) -> builtins.bool:
    return all(not x._shape for x in operands if isinstance(x, Tensor)
               and tensor_device(x) == dev)


def operand(x, cdt: "_dtypes.dtype", dev):
    """``x`` as an array (or scalar) of dtype ``cdt`` on ``dev``, ready for a ufunc."""
    if isinstance(x, Tensor):
        arr = x._arr
        if tensor_device(x) != dev:  # a 0-dim CPU tensor joining a GPU op
            return scalar_to(x.item(), cdt)
        if x._dtype is not cdt:
            if cdt is _dtypes.complex32:  # (each part rounded; a cast fills both with .real)
                return _chalf.narrow(arr)
            if x._dtype is _dtypes.complex32:
                arr = _chalf.widen(arr)  # (exact: the float16 parts in complex64)
            if x._dtype.category == _COMPLEX and cdt.category != _COMPLEX:
                arr = (arr != 0) if cdt is _dtypes.bool else arr.real  # (bool: either part)
            if cdt is _dtypes.float16 or x._dtype.category >= _FLOAT:
                arr = call_quiet(arr.astype, cdt._np)  # (overflow to inf: silent, as PyTorch)
            else:
                arr = arr.astype(cdt._np)
        return arr
    return scalar_to(x, cdt)


def _quiet(cdt) -> builtins.bool:
    return cdt.category >= _FLOAT


def run(ufunc: Callable, cdt, *args, **kwargs):
    """Run a backend function, silencing NumPy's floating-point warnings for float dtypes."""
    if cdt.category >= _FLOAT:
        return call_quiet(ufunc, *args, **kwargs)
    return ufunc(*args, **kwargs)


# ---------------------------------------------------------------- out= handling
def finish(result, rdt, dev, out: Tensor | None, stride: tuple | None = None,
           inputs: tuple = ()) -> Tensor:
    """Wrap a computed array as a new tensor (with ``stride`` when given), or write it into
    ``out`` (RuntimeError, as PyTorch, when ``out`` partly overlaps one of ``inputs``); an
    ``out`` of another shape is resized to ``stride`` (PyTorch restrides a resized output as
    it lays out a new result)."""
    if out is not None:
        if isinstance(out, Tensor):
            if inputs:  # (TensorIterator's checks, on out before any resize)
                check_writable(out)
            for x in inputs:
                check_partial_overlap(out, x)
        return write_out(out, result, rdt, dev, stride)
    return wrap_array(result, rdt, dev, stride)


#: ``result_strides``'s default ``common``: the dtype its operands promote to.
PROMOTED = "promoted"


def result_strides(shape: tuple, *operands, common=PROMOTED) -> tuple:
    """PyTorch's strides for an elementwise result of ``shape`` computed from ``operands``
    (tensors or scalars; None entries are skipped).  Row-major inputs give a row-major result
    without sorting anything (the common case).

    ``common``: the dtype the op computes in (by default the one its operands promote to, as
    nearly every TensorIterator op: binary, comparison, ternary and float ops; None: no input
    is converted).  PyTorch's CPU TensorIterator first converts each input of another dtype
    with ``input.to(common)``, so such an input takes part with the strides of that copy
    (``_layout.cast_strides``), not its own::

        t = ones(2, 1).t()                      # (1, 2), stride (1, 1)
        t + tensor([[0, 3, 4, 5]])[..., ::2]    # stride (2, 1): the int input is copied first
    """
    for x in operands:
        if isinstance(x, Tensor) and x._stride != _contig(x._shape):
            break
    else:
        if 0 not in shape:
            return _contig(shape)
    if common is PROMOTED:
        common = result_type(*[x for x in operands if x is not None])
    return _layout.elementwise_strides(shape, [operand_layout(x, common) for x in operands
                                               if x is not None])


def operand_layout(x, common=None) -> tuple:
    """``(shape, stride)`` of an operand as PyTorch's CPU TensorIterator sees it: a tensor of
    another dtype than ``common`` as its copy ``x.to(common)`` (``_layout.cast_strides``),
    a lazy conjugate (negative) view as the copy its fallback resolves it into (the same
    layout rule), as does a complex32 operand widened to complex64 for an op computing in
    another dtype (``_dispatch._widened``), a number as a 0-dim tensor."""
    if not isinstance(x, Tensor):
        return ((), ())
    if ((common is not None and x._dtype is not common) or x._cj or
            (_dispatch.CAST_LAYOUT and _dispatch.CAST_LAYOUT.get(id(x)) is x)) and \
            x._stride != _contig(x._shape):
        return (x._shape, _layout.cast_strides(x._shape, x._stride))
    return (x._shape, x._stride)


# ---------------------------------------------------------------- the generic ops
ARITH, DIV, CMP, BITWISE = 0, 1, 2, 3


def binary(ufunc: Callable, a, b, kind: int = ARITH, *, name: str = "", out=None,
           scalar_is_operand: bool = True, layout_of: tuple | None = None) -> Tensor:
    """``ufunc(a, b)`` with PyTorch's promotion; ``kind`` picks the result-dtype rule.

    ARITH computes and returns the promoted dtype, DIV promotes integers to the default float
    dtype, CMP returns bool, BITWISE requires bool/integer operands.  ``scalar_is_operand``
    False: a Python scalar does not take part in choosing the result's strides (PyTorch's
    ``tensor ** scalar`` is a unary op).  ``layout_of``: the operands PyTorch lays the result
    out from, where ``b`` is computed from one (``add(x, y, alpha=2)``: x and y, not ``2 * y``).
    """
    fast = False
    if out is None and layout_of is None:
        # Fast paths on the CPU: two tensors of one dtype and shape, or a tensor and a Python
        # number that does not change its dtype; row-major and not empty.  Nothing to cast,
        # broadcast or lay out: the general path below gives the same result.
        ta, tb = type(a), type(b)
        if ta is Tensor and tb is Tensor:
            xa, xb = a._a, b._a
            if xa is None:
                xa = a._arr
            if xb is None:
                xb = b._arr
            dt, shape = a._dtype, a._shape
            if type(xa) is _NDARRAY and type(xb) is _NDARRAY and dt is b._dtype and \
                    (kind != DIV or dt.category >= _FLOAT) and dt is not _C32:
                if shape == b._shape:
                    c = _contig(shape)
                    if a._stride == c and b._stride == c and 0 not in shape:
                        if kind != ARITH:
                            _check_kind(kind, dt, name)
                        fast = True
                elif a._stride == _contig(shape) and b._stride == _contig(b._shape):
                    # (broadcasting two row-major tensors: PyTorch's error if they do not
                    # broadcast, then a row-major result, as the general path lays it out)
                    shape = _layout._broadcast_pair(shape, b._shape)
                    if 0 not in shape:
                        c = _contig(shape)
                        if kind != ARITH:
                            _check_kind(kind, dt, name)
                        fast = 2  # (broadcast: the result's layout is checked below)
        elif (ta is Tensor and tb in _PY_NUMBERS) or (tb is Tensor and ta in _PY_NUMBERS):
            t = a if ta is Tensor else b
            xt = t._a
            if xt is None:
                xt = t._arr
            dt, shape = t._dtype, t._shape
            if type(xt) is _NDARRAY and (kind != DIV or dt.category >= _FLOAT) and \
                    promote(a, b) is dt and dt is not _C32:
                c = _contig(shape)
                if t._stride == c and 0 not in shape:
                    if kind != ARITH:
                        _check_kind(kind, dt, name)
                        if kind == CMP and dt in _HALVES:
                            a, b = half_rounded(a, dt), half_rounded(b, dt)
                    xa, xb = (xt, scalar_to(b, dt)) if ta is Tensor else (scalar_to(a, dt), xt)
                    fast = True
    if fast:
        if dt.category < _FLOAT:
            res = ufunc(xa, xb)
        else:
            try:  # call_quiet, inlined
                res = quiet_run(ufunc, xa, xb)
            except RuntimeError as e:
                if not context_busy(e):
                    raise
                res = call_quiet(ufunc, xa, xb)
        rdt = _dtypes.bool if kind == CMP else dt
        if type(res) is _NDARRAY and res.dtype is rdt._np and (
                fast is True or res.flags.c_contiguous):  # (0-dim inputs give a scalar)
            return _fresh(rdt, shape, c, res)
        if dt in _HALVES:  # (a float32 number: rounded first, but for mul/div's right one)
            ya, yb = _half_operands(ufunc, xa, xb, b, dt, CPU)
            if ya is not xa or yb is not xb:
                res = call_quiet(ufunc, ya, yb)
        return wrap_array(res, rdt, CPU, c)
    _check_shapes(a, b)
    if out is not None and isinstance(out, Tensor):
        # an expanded out=, or one that shares only some of an input's memory: PyTorch's
        # RuntimeErrors (TensorIterator's, on out as given)
        check_writable(out)
        check_partial_overlap(out, a)
        check_partial_overlap(out, b)
    rdt = promote(a, b)
    dev = device_of(a, b)
    if kind == DIV and rdt.category < _FLOAT:
        rdt = _dtypes._default_dtype
    elif kind != ARITH:
        _check_kind(kind, rdt, name)
        if kind == CMP and rdt in _HALVES:
            a, b = half_rounded(a, rdt), half_rounded(b, rdt)
    if rdt is _C32:  # (float16 with a complex number: computed in complex64, then rounded)
        _check_chalf_ufunc(ufunc, name)
        a, b = _chalf.rounded(a), _chalf.rounded(b)  # (a number as a complex32 value)
        xa, xb = operand(a, _dtypes.complex64, dev), operand(b, _dtypes.complex64, dev)
    else:
        xa = operand(a, rdt, dev)
        xb = operand(b, rdt, dev)
    if rdt in _HALVES:
        xa, xb = _half_operands(ufunc, xa, xb, b, rdt, dev)
    try:
        res = call_quiet(ufunc, xa, xb) if rdt.category >= _FLOAT else ufunc(xa, xb)
    except MemoryError as e:  # (an expanded 2**40-element result: PyTorch's allocator error)
        raise out_of_memory(getattr(e, "_total_size", 0)) from None
    if layout_of is not None:
        stride = result_strides(res.shape, *layout_of, common=rdt)
    elif scalar_is_operand:
        stride = result_strides(res.shape, a, b, common=rdt)
    elif scalar_is_operand is None:  # (a row-major result whatever the inputs' layout)
        stride = _contig(res.shape)
    else:
        stride = result_strides(res.shape, *[x for x in (a, b) if isinstance(x, Tensor)],
                                common=rdt)
    if kind == CMP:
        return finish(res, _dtypes.bool, dev, out, stride)
    return finish(res, rdt, dev, out, stride)


_dispatch.HOOKS["binary"] = binary

_C32 = _dtypes.complex32
#: The binary ufuncs PyTorch has a ComplexHalf kernel for; the others' kernel names.
_CHALF_UFUNCS = frozenset((np.add, np.subtract, np.multiply, np.equal, np.not_equal))
_CHALF_KERNELS = {np.true_divide: "div_cpu", np.power: "pow", np.less: "lt_cpu",
                  np.less_equal: "le_cpu", np.greater: "gt_cpu", np.greater_equal: "ge_cpu",
                  np.remainder: "remainder_cpu", np.fmod: "fmod_cpu", np.arctan2: "atan2_cpu"}


def _check_chalf_ufunc(ufunc, name: str) -> None:
    """PyTorch's NotImplementedError where an op promoting to complex32 (a float16 tensor
    with a complex number or 0-dim tensor) has no ComplexHalf kernel."""
    if ufunc not in _CHALF_UFUNCS:
        kernel = _CHALF_KERNELS.get(ufunc) or name or getattr(ufunc, "__name__", "op")
        if "pow" in kernel:
            kernel = "pow"
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'ComplexHalf'")

_new = object.__new__
_ROW_MAJOR: dict = {}


def _row_major(shape: tuple):
    """``shape``'s row-major strides, cached, when an operator's inlined fast path can take
    it (at least one dim, no empty dim: a 0-dim ufunc gives a NumPy scalar), else None."""
    if not shape or 0 in shape:
        return None
    c = _contig(shape)
    if len(_ROW_MAJOR) < 4096:
        _ROW_MAJOR[shape] = c
    return c


def operator(ufunc: Callable) -> Callable:
    """``Tensor.__add__``/``__mul__`` (no recording installed): ``self <op> other`` with
    ``binary``'s fast path for two row-major CPU tensors of one dtype and shape inlined,
    result built as ``_fresh`` builds it.  On a 3x3 ``a * b`` the two Python calls and the
    result's constructor this saves cost about a quarter of the whole op.

    >>> Tensor.__mul__ = operator(np.multiply)      # what _dispatch.install binds
    """
    array_operand, operands = _dispatch._array_operand, _dispatch._OPERAND

    def forward(self, other):
        if type(other) is Tensor:
            xa = self._a
            xb = other._a
            dt = self._dtype
            shape = self._shape
            if type(xa) is _NDARRAY and type(xb) is _NDARRAY and dt is other._dtype and \
                    shape == other._shape and type(self) is Tensor:
                c = _ROW_MAJOR.get(shape)
                if c is None:
                    c = _row_major(shape)
                if c is not None and self._stride == c and other._stride == c:
                    try:  # call_quiet, inlined
                        res = quiet_run(ufunc, xa, xb)
                    except RuntimeError as e:
                        if not context_busy(e):
                            raise
                        res = call_quiet(ufunc, xa, xb)
                    if type(res) is _NDARRAY and res.dtype is dt._np:
                        t = _new(Tensor)  # (_fresh, inlined; tests compare the two)
                        t._dtype = dt
                        t._offset = 0
                        t._shape = shape
                        t._stride = c
                        t._a = res
                        t._ag = None
                        t._vc = None
                        t._cj = False
                        t._vb = None
                        return t
        elif not isinstance(other, operands):
            other = array_operand(other)
            if other is NotImplemented:
                return NotImplemented
        return binary(ufunc, self, other)
    return forward


_dispatch.HOOKS["operator"] = operator


def _check_shapes(a, b) -> None:
    """RuntimeError in PyTorch's words when two tensors do not broadcast (before any dtype
    check, as PyTorch)."""
    if isinstance(a, Tensor) and isinstance(b, Tensor) and a._shape != b._shape:
        _layout.broadcast_shapes(a._shape, b._shape)


# How a number meets a 16-bit float tensor (float16, bfloat16: ``_dtypes.HALVES``), one rule
# for both, as PyTorch's CPU kernels: the number converts to float32 (``dt._scalar``); mul,
# div and floor division (``_OPMATH_UFUNCS``) compute with that float32 and round the result
# once, and so with a 0-dim tensor as right operand (read as float32, whatever its dtype:
# ``t * 0.1`` and ``t * tensor(0.1)`` agree); every other op rounds the number to the 16-bit
# type first (``_half_operand``; comparisons: ``half_rounded``), so ``bfloat16(256) + 1.0``
# is 256 and ``float16(1.0) == 1.0001`` is True.  PyTorch reads only its right operand as a
# CPU scalar: a 0-dim tensor on the left is rounded, as is a number left of ``//``
# (``0.3 // t``); ``0.3 * t`` and ``0.3 / t`` come here with the number on the left and
# take it as float32, as PyTorch's reflected operators do (``_OPMATH_LEFT``).
_HALVES = _dtypes.HALVES

#: The ufuncs whose 16-bit kernels take a number operand as float32 (PyTorch's mul and div;
#: floor division's right operand, added below); a number left of mul/div too.
_OPMATH_UFUNCS = _OPMATH_LEFT = frozenset((np.multiply, np.true_divide))


def _half_operand(x, dt):
    """A float32 number operand (how a 16-bit dtype's scalar converter gives numbers) rounded
    to ``dt``, for the ops outside ``_OPMATH_UFUNCS``; arrays as they are."""
    if type(x) is np.float32:
        return np.float32(call_quiet(dt._np.type, x))
    return x


def _half_operands(ufunc, xa, xb, b, dt, dev):
    """``binary``/``inplace``'s operands ``xa``, ``xb`` (``b`` the right operand as given)
    for a 16-bit result dtype ``dt``, by the rule above."""
    if ufunc not in _OPMATH_UFUNCS:
        return _half_operand(xa, dt), _half_operand(xb, dt)
    if type(b) is Tensor and not b._shape and b._dtype is not dt:
        xb = operand(b, _dtypes.float32, dev)  # (a 0-dim right operand: read as float32)
    if ufunc in _OPMATH_LEFT:  # (``0.3 * t`` is PyTorch's ``t * 0.3``)
        return xa, xb
    return _half_operand(xa, dt), xb  # (a number on the left is rounded: ``0.3 // t``)


def _check_kind(kind: int, rdt, name: str) -> None:
    """NotImplementedError where PyTorch has no kernel for the computing dtype: bitwise ops on
    floats, shifts on bool, ordering comparisons on complex."""
    if kind == BITWISE:
        if rdt.category > _INT or (rdt is _dtypes.bool and name in ("lshift", "rshift")):
            raise NotImplementedError(f'"{name}_cpu" not implemented for \'{rdt.cname}\'')
    elif kind == CMP and rdt.category == _COMPLEX and name in ("lt", "le", "gt", "ge"):
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'{rdt.cname}\'')


def _refuse(rdt, name: str, *refused) -> None:
    """NotImplementedError naming PyTorch's kernel when it has none for ``rdt``."""
    if rdt in refused or rdt.category in refused:
        raise NotImplementedError(f'"{name}" not implemented for \'{rdt.cname}\'')


def unary(fn: Callable, x: Tensor, rdt=None, *, out=None, like_input: bool = False) -> Tensor:
    """``fn(x)`` elementwise, keeping x's dtype unless ``rdt`` says otherwise; laid out as
    TensorIterator lays out a result, or with ``like_input`` as ``empty_like(x)`` (a dense
    ``x`` keeps its strides exactly), for the ops PyTorch computes into one."""
    if not isinstance(x, Tensor):
        raise TypeError(f"expected a Tensor, got {type(x).__name__}")
    rdt = x._dtype if rdt is None else rdt
    arr = x._a
    if out is None and rdt is x._dtype and type(arr) is np.ndarray and \
            x._stride == _contig(x._shape):
        # (fast path: a row-major CPU input keeping its dtype -- the general path below gives
        # such a result the same row-major layout)
        res = run(fn, rdt, arr)
        if type(res) is not np.ndarray and isinstance(res, np.generic):
            res = np.asarray(res)  # (a 0-d input's result)
        if type(res) is np.ndarray and res.base is None and res.dtype is rdt._np and \
                res.flags.c_contiguous and res.shape == x._shape:
            return _fresh(rdt, x._shape, x._stride, res)
    arr = x._arr
    if x._dtype is not rdt and rdt.category >= x._dtype.category:
        arr = arr.astype(rdt._np)
    res = run(fn, rdt, arr)
    if out is None:
        return finish(res, rdt, tensor_device(x), None,
                      _layout.preserve_strides(x._shape, x._stride) if like_input else
                      result_strides(res.shape, x, common=rdt if x._dtype is not rdt and
                                     rdt.category >= x._dtype.category else None))
    # (an out= of another shape is resized as PyTorch's TensorIterator lays out a result;
    # the ops computed into an empty_like(x) resize it row-major)
    return finish(res, rdt, tensor_device(x), out,  # (refuses a partial overlap)
                  None if like_input else
                  result_strides(res.shape, x, common=rdt if x._dtype is not rdt and
                                 rdt.category >= x._dtype.category else None), (x,))


def inplace(self: Tensor, ufunc: Callable, other, kind: int = ARITH, *, name: str = "",
            check: Callable | None = None) -> Tensor:
    """``self = ufunc(self, other)`` in place: keeps self's dtype, shape and storage.

    Checks in PyTorch's order: overlapping memory, broadcast shape, casting, then the
    kernel's own refusals (``kind``'s, and ``check(rdt)`` when given).
    """
    check_writable(self)
    if isinstance(other, Tensor) and other._shape != self._shape:
        bshape = _layout.broadcast_shapes(self._shape, other._shape)
        if bshape != self._shape:
            raise RuntimeError(f"output with shape {list(self._shape)} doesn't match the "
                               f"broadcast shape {list(bshape)}")
    check_partial_overlap(self, other)
    rdt = promote(self, other)
    dev = device_of(self, other)
    if kind == DIV and rdt.category < _FLOAT:
        rdt = _dtypes._default_dtype
    rdt_out = _dtypes.bool if kind == CMP else rdt
    if not _dtypes.can_cast(rdt_out, self._dtype):
        raise RuntimeError(f"result type {rdt_out.cname} can't be cast to the desired output "
                           f"type {self._dtype.cname}")
    if kind != ARITH and kind != DIV:
        _check_kind(kind, rdt, name)
        if kind == CMP and rdt in _HALVES:
            other = half_rounded(other, rdt)
    if check is not None:
        check(rdt)
    xa = operand(self, rdt, dev)
    xb = operand(other, rdt, dev)
    if rdt in _HALVES:
        xa, xb = _half_operands(ufunc, xa, xb, other, rdt, dev)
    target = self._arr
    if rdt_out is self._dtype:
        run(ufunc, rdt, xa, xb, out=target)
    else:
        res = run(ufunc, rdt, xa, xb)
        if rdt_out.category == _COMPLEX and self._dtype.category != _COMPLEX:
            res = res.real
        call_quiet(target.__setitem__, Ellipsis, res)
    self._bump()
    return self


# ---------------------------------------------------------------- arithmetic
def _check_alpha(rdt, alpha) -> None:
    if isinstance(alpha, (builtins.bool, np.bool_)) and rdt is not _dtypes.bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if rdt.category < _FLOAT and isinstance(alpha, (builtins.float, builtins.complex)):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")
    if rdt.category != _COMPLEX and isinstance(alpha, builtins.complex):
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a "
                           "complex number.")
    if rdt.category >= _FLOAT and isinstance(alpha, (builtins.int, builtins.float)):
        # (alpha converted to the result dtype with PyTorch's check: float16 takes no
        # 2**63 - 1, float32 and complex64 no 1e300)
        check_half(alpha) if rdt is _dtypes.float16 else checked_scalar(alpha, rdt)
    if rdt.category == _INT and isinstance(alpha, (builtins.int, np.integer)):
        # (as c10's checked conversion: unsigned types also take negatives down to -max)
        info = np.iinfo(rdt._np)
        lo = -builtins.int(info.max) if info.min == 0 else builtins.int(info.min)
        if not lo <= builtins.int(alpha) <= builtins.int(info.max):
            cname = {"int32": "int"}.get(rdt.name, rdt.name + "_t")
            raise RuntimeError(f"value cannot be converted to type {cname} without overflow")


def _scaled(b, alpha):
    if alpha == 1 and not isinstance(alpha, builtins.bool):
        return b
    if isinstance(b, Tensor):
        return mul(b, alpha)
    if isinstance(b, builtins.bool) and isinstance(alpha, builtins.bool):
        return b and alpha  # bool * bool stays bool, as PyTorch computes it
    return b * alpha


def _alpha_times(input, other, alpha):
    """``alpha * other`` as PyTorch's add/sub kernels compute it: in the dtype ``input`` and
    ``other`` promote to, ``alpha`` cast to it without taking part in the promotion
    (``rsub(int64, float16, alpha=inf)`` is float16; float16's ``alpha * other`` may overflow
    to inf), and a complex result multiplies ``alpha + 0j`` by ``other`` as C++ does
    (``-inf * (-5+0j)`` is ``inf + nan j``)."""
    rdt = promote(input, other)
    _check_alpha(rdt, alpha)
    if rdt in _HALVES and isinstance(alpha, (builtins.int, builtins.float, np.integer,
                                             np.floating)):
        # float16/bfloat16: alpha (and a number other) rounded to the 16-bit type, their
        # product rounded to it, then added, as PyTorch's scalar CPU loop: a tensor under
        # one step of its vector loop (32 elements on an AVX-512 machine) and the last
        # ``numel % 32`` elements of any other.
        # Note: PyTorch's vector loop (the other elements) rounds ``input + alpha * other``
        # once, which can differ in the last bit (or be finite where this is inf).
        _bound(alpha, rdt, None)  # (PyTorch's checked conversion of alpha)
        alpha = half_rounded(alpha.item() if isinstance(alpha, np.generic) else alpha, rdt)
        if not isinstance(other, Tensor):
            other = half_rounded(other.item() if isinstance(other, np.generic) else other, rdt)
    if rdt is _dtypes.bool and not isinstance(alpha, Tensor):
        alpha = builtins.bool(alpha)  # (PyTorch takes any integer alpha as a bool here)
    if not isinstance(other, Tensor):
        if rdt.category == _FLOAT and type(other) in (builtins.int, builtins.float) and \
                type(alpha) in (builtins.int, builtins.float):
            # (a number times alpha in the result's float precision, as PyTorch: 3 * (2**63-1)
            # is a float, not a Python int past 64 bits)
            r = np.dtype(rdt._np).type
            t = np.float32 if rdt in _dtypes.HALVES else r
            with np.errstate(all="ignore"):  # (each in the result dtype, the product wider)
                return builtins.float(t(r(other)) * t(r(alpha)))
        return _scaled(other, alpha)
    if other._dtype is not rdt:
        other = other.to(rdt)
    if rdt in _dtypes.HALVES and type(alpha) in (builtins.int, builtins.float):
        alpha = builtins.float(np.dtype(rdt._np).type(alpha))  # (alpha in the half dtype)
    if rdt.category == _COMPLEX and not isinstance(alpha, (Tensor, builtins.complex)):
        alpha = builtins.complex(alpha)
    return _scaled(other, alpha)


def _fused_alpha(input, other, alpha, negate: builtins.bool):
    """The kernel of ``input + alpha * other`` (``negate``: ``input - alpha * other``) as
    PyTorch's float32/float64 add and sub compute it, one fused multiply-add with alpha in
    the result dtype (``sub(x, x, alpha=2)`` of a float32 3.4e38 is -3.4e38, not -inf; most
    other results differ in the last bit); None for other dtypes and alphas, and for a
    float32 result with a number or 0-dim ``other``.

    # Note: where float32 ``other`` is the same along PyTorch's inner loop (a number, a
    # 0-dim tensor, a broadcast dim), PyTorch fuses some elements and rounds alpha * other
    # first for others, by their place in its vectorized loop and its remainder (as
    # measured: 12 elements, the 9th rounded, the rest fused; 20, all fused). tensorviz
    # rounds the product first for a number or 0-dim other and fuses for any other tensor:
    # such elements may differ from PyTorch's in the last bit.
    """
    if isinstance(alpha, Tensor) and not alpha._shape and alpha._dtype.category in (
            _INT, _FLOAT) and alpha._dtype is not _dtypes.bool:
        alpha = alpha.item()  # (PyTorch's Scalar of a 0-dim tensor: optimizers pass them)
    elif isinstance(alpha, (np.integer, np.floating)):
        alpha = alpha.item()
    if type(alpha) not in (builtins.int, builtins.float):
        return None
    rdt = promote(input, other)
    if rdt is not _dtypes.float64 and (rdt is not _dtypes.float32 or not (
            isinstance(other, Tensor) and other._shape)):
        # (float32 with a number or 0-dim other, PyTorch's CPU scalar: fused or not by
        # the element's place in its loops, see the Note; ``_alpha_times`` rounds the
        # product first)
        return None
    _check_alpha(rdt, alpha)
    with np.errstate(over="ignore"):  # (checked above: a finite alpha past float32 is inf)
        a = rdt._np.type(-alpha if negate else alpha)

    def fused(x, y, out=None):
        r = fma(a, y, x)
        if out is None:
            return r
        out[...] = r  # (computed whole first: y may be out itself, sub_(x, x, alpha=2))
        return out
    return fused


@op(inplace=True, dunder="add", dunder_ufunc=np.add)
def add(input, other, *, alpha=1, out=None) -> Tensor:
    """``input + alpha * other`` with broadcasting and PyTorch's promotion (float32 and
    float64 fused: ``alpha * other + input`` rounded once, as PyTorch's kernel)."""
    if alpha != 1 or type(alpha) is not builtins.int:
        fused = _fused_alpha(input, other, alpha, False)
        if fused is not None:
            return binary(fused, input, other, out=out)
        return binary(np.add, input, _alpha_times(input, other, alpha), out=out,
                      layout_of=(input, other))
    return binary(np.add, input, other, out=out)


@op(aliases=("subtract",), inplace=True, dunder="sub")
def sub(input, other, *, alpha=1, out=None) -> Tensor:
    """``input - alpha * other``; refused for two bool operands, as in PyTorch (float32 and
    float64 fused, as ``add``)."""
    _check_bool_sub(input, other)
    if alpha != 1 or type(alpha) is not builtins.int:
        fused = _fused_alpha(input, other, alpha, True)
        if fused is not None:
            return binary(fused, input, other, out=out)
        return binary(np.subtract, input, _alpha_times(input, other, alpha), out=out,
                      layout_of=(input, other))
    return binary(np.subtract, input, other, out=out)


def _is_bool(x) -> builtins.bool:
    if isinstance(x, Tensor):
        return x._dtype is _dtypes.bool
    return isinstance(x, (builtins.bool, np.bool_))


def _check_bool_sub(a, b) -> None:
    """PyTorch refuses ``-`` when either operand is bool (a Python bool counts too)."""
    if _is_bool(a) or _is_bool(b):
        if _is_bool(a) and _is_bool(b):
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                               "supported. Use the `^` or `logical_xor()` operator instead.")
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")


@op(method=False)
def rsub(input, other, *, alpha=1) -> Tensor:
    """``other - alpha * input``; ``alpha * input`` in the dtype both promote to (an int16
    tensor with the number 1.5 scales in float32: alpha=2**63-1 does not wrap).

    >>> tensorviz.rsub(tensorviz.tensor([1, 2]), 1.5, alpha=2)
    tensor([-0.5000, -2.5000])
    """
    if isinstance(other, Tensor):
        return sub(other, input, alpha=alpha)
    _check_bool_sub(input, other)
    fused = _fused_alpha(other, input, alpha, True) if alpha != 1 or \
        type(alpha) is not builtins.int else None
    if fused is not None:
        return binary(fused, other, input, layout_of=(other, input))
    return binary(np.subtract, other, _alpha_times(other, input, alpha),
                  layout_of=(other, input))


@op(aliases=("multiply",), inplace=True, dunder="mul", dunder_ufunc=np.multiply)
def mul(input, other, *, out=None) -> Tensor:
    return binary(np.multiply, input, other, out=out)


def _check_int_zero_division(a, b, name: str = "div_floor_cpu") -> None:
    """PyTorch has no bool/complex kernel here, and integer division by zero raises."""
    _check_shapes(a, b)
    rdt = promote(a, b)
    _refuse(rdt, name, _dtypes.bool, _COMPLEX)
    if rdt.category > _INT:
        return
    shapes = [x._shape for x in (a, b) if isinstance(x, Tensor)]
    if 0 in _layout.broadcast_shapes(*shapes):  # (nothing is divided)
        return
    if isinstance(b, Tensor):
        if builtins.bool((b._arr == 0).any()):
            raise RuntimeError("ZeroDivisionError")
    elif b == 0 or (isinstance(b, builtins.int) and b % (1 << (8 * rdt.itemsize)) == 0):
        raise RuntimeError("ZeroDivisionError")  # (also a number that wraps to 0 in rdt)


@op(aliases=("divide", "true_divide"), inplace=True, dunder="truediv")
def div(input, other, *, rounding_mode: str | None = None, out=None) -> Tensor:
    """True division (integers give floats); ``rounding_mode='trunc'|'floor'`` keeps ints."""
    if rounding_mode is None:
        return binary(np.true_divide, input, other, DIV, out=out)
    if rounding_mode == "floor":
        return floor_divide(input, other, out=out)
    if rounding_mode == "trunc":
        _check_int_zero_division(input, other, "div_trunc_cpu")
        rdt = promote(input, other)
        if rdt.category < _FLOAT:
            return binary(_trunc_div_int, input, other, out=out)
        return binary(_trunc_div_float, input, other, out=out)
    raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                       f"found '{rounding_mode}'")


def _trunc_div_int(a, b):
    with np.errstate(over="ignore"):  # (min // -1 wraps to min, as two's complement does)
        q = np.floor_divide(a, b)
        fix = (np.remainder(a, b) != 0) & ((np.sign(a) * np.sign(b)) < 0)
        return q + fix.astype(q.dtype)


def _trunc_div_float(a, b):
    """``trunc(a / b)``; float16 divides in float32 first (PyTorch's opmath), so the
    quotient is not rounded to float16 before it is truncated."""
    if getattr(a, "dtype", None) == np.float16 or getattr(b, "dtype", None) == np.float16:
        return np.trunc(np.true_divide(a, b, dtype=np.float32)).astype(np.float16)
    return np.trunc(np.true_divide(a, b))


# (PyTorch's 16-bit truncating division reads a right number operand as float32 too: a
# 0-dim ``inf / (2**63 - 1)`` is inf, not inf / inf)
_OPMATH_UFUNCS = _OPMATH_UFUNCS | {_trunc_div_float}


@op(inplace=True, dunder="floordiv")
def floor_divide(input, other, *, out=None) -> Tensor:
    _check_int_zero_division(input, other)
    return binary(_floor_div, input, other, out=out)


def _floor_div(a, b, out=None):
    """NumPy's floor_divide without its overflow warning (the int minimum // -1 wraps to the
    minimum, as two's complement does in PyTorch)."""
    with np.errstate(over="ignore"):
        return np.floor_divide(a, b, out=out)


# (PyTorch's 16-bit floor division reads a right number operand as float32 too)
_OPMATH_UFUNCS = _OPMATH_UFUNCS | {_floor_div}


@op(inplace=True, dunder="mod")
def remainder(input, other, *, out=None) -> Tensor:
    """Python's ``%``: the result takes the divisor's sign."""
    _check_int_zero_division(input, other, "remainder_cpu")
    return binary(_remainder, input, other, out=out)


def _remainder(a, b, out=None):
    """PyTorch's remainder: integers as Python's ``%``; floats as ``fmod(a, b)`` plus ``b``
    where that is non-zero with the other sign than ``b``, so a zero result keeps the sign of
    ``a``.  NumPy's ``remainder`` is that formula except that it gives a zero the sign of
    ``b``: its zeros take ``a``'s sign here.

    Note: exact where ``|a / b|`` overflows, as PyTorch's scalar loop; its vector loop
    (SLEEF's fmod) gives NaN there (see ``pointwise.fmod``)."""
    xp = _xp_of(a, b)
    if (a.dtype if hasattr(a, "dtype") else b.dtype).kind in "biu":
        return xp.remainder(a, b, out=out)
    r = xp.remainder(a, b)
    if getattr(r, "ndim", 0):
        xp.copysign(r, a, out=r, where=r == 0)
    elif r == 0:
        r = xp.copysign(r, a)
    return _store(r, out)


def _store(r, out):
    if out is None:
        return r
    out[...] = r
    return out


def _check_scalar_pow(base, exp) -> builtins.bool:
    """For ``tensor ** number``: RuntimeError for an integer (or bool) tensor to a negative
    integer power, as in PyTorch; True when the exponent is 0 or 1, which PyTorch does not
    compute (ones, or a copy of the base)."""
    if not isinstance(base, Tensor) or isinstance(exp, Tensor):
        return False
    is_int_exp = isinstance(exp, (builtins.int, np.integer, np.bool_))
    if base._dtype.category <= _INT and is_int_exp and exp < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    if isinstance(exp, builtins.complex) and exp.imag:
        return False
    return exp == 0 or exp == 1


def _scalar_pow_shortcut(base, exp):
    """``tensor ** 0`` (ones) and ``tensor ** 1`` (a copy) as (array, dtype), else None."""
    if _check_scalar_pow(base, exp):
        rdt = promote(base, exp)
        xp = base._storage._backend.xp
        if exp == 0:
            return xp.ones(base._shape, dtype=rdt._np), rdt
        return operand(base, rdt, tensor_device(base)).copy(), rdt
    return None


def _xp_of(*arrays):
    for a in arrays:
        if type(a).__module__.startswith("cupy"):
            import cupy
            return cupy
    return np


def _int_pow(a, b, out=None):
    """Integer ``a ** b`` as PyTorch computes it: for ``b < 0`` the result is 1 when
    ``a == 1``, +-1 when ``a == -1`` (by the parity of ``b``), else 0 (NumPy refuses)."""
    xp = _xp_of(a, b)
    neg = b < 0
    if not xp.any(neg):
        return xp.power(a, b, out=out)
    r = xp.power(a, xp.where(neg, 0, b))
    one = xp.ones_like(r)
    minus = xp.where(b % 2 == 0, one, -one)
    r = xp.where(neg, xp.where(a == 1, one, xp.where(a == -1, minus, 0 * one)), r)
    if out is None:
        return r
    out[...] = r
    return out


def _one_pow(a, b, out=None):
    """``1 ** b``: ones (PyTorch's pow of the number 1 fills, whatever ``b`` holds)."""
    r = _complex_pow(a, b, out)
    r[...] = 1
    return r


def _complex_pow(a, b, out=None):
    """Complex ``a ** b`` as PyTorch computes it: C's ``cpow``, that is ``exp(b * log(a))``
    with no special case (0 ** 0 is nan+nan j, and (-3+0j) ** 1 keeps log's rounding in its
    imaginary part), where NumPy's power multiplies out integer exponents."""
    xp = _xp_of(a, b)
    with np.errstate(all="ignore"):
        r = xp.exp(_c_mul(xp, b, xp.log(a)))
    return _store(r, out)


def _c_mul_plain(xp, x, y):
    """Complex ``x * y`` by the schoolbook formula, each product rounded (as PyTorch's
    kernels multiply; NumPy's complex multiply fuses ``ac - bd``, so that
    ``(3.4e38+3.4e38j) ** 2`` has a real part of -5.6e60 there, 0 here and in PyTorch).

    >>> _c_mul_plain(np, np.array([1 + 2j]), np.array([3 - 1j]))
    array([5.+5.j])
    """
    x, y = xp.asarray(x), xp.asarray(y)
    a, b, c, d = x.real, x.imag, y.real, y.imag
    r = xp.empty(xp.broadcast_shapes(x.shape, y.shape), dtype=xp.result_type(x, y))
    with np.errstate(all="ignore"):
        r.real = a * c - b * d
        r.imag = a * d + b * c
    return r


def _c_mul(xp, x, y):
    """Complex ``x * y`` as C computes it (C99 Annex G): the schoolbook formula, and where
    that gives nan+nan j although an operand is infinite, the infinity it stands for."""
    a, b, c, d = x.real, x.imag, y.real, y.imag
    r = _c_mul_plain(xp, x, y)
    lost = xp.isnan(r.real) & xp.isnan(r.imag)
    if not xp.any(lost):
        return r
    a, b, c, d = (xp.broadcast_to(v, r.shape)[lost] for v in (a, b, c, d))
    ac, bd, ad, bc = a * c, b * d, a * d, b * c
    one, zero = a.dtype.type(1), a.dtype.type(0)

    def box(u, v):  # (an infinite operand as a unit vector; NaNs of the other become 0)
        return (xp.copysign(xp.where(xp.isinf(u), one, zero), u),
                xp.copysign(xp.where(xp.isinf(v), one, zero), v))

    def unnan(u):
        return xp.where(xp.isnan(u), xp.copysign(zero, u), u)
    x_inf = xp.isinf(a) | xp.isinf(b)
    y_inf = xp.isinf(c) | xp.isinf(d)
    a2, b2 = box(a, b)
    a, b = xp.where(x_inf, a2, a), xp.where(x_inf, b2, b)
    c, d = xp.where(x_inf, unnan(c), c), xp.where(x_inf, unnan(d), d)
    c2, d2 = box(c, d)
    c, d = xp.where(y_inf, c2, c), xp.where(y_inf, d2, d)
    a, b = xp.where(y_inf, unnan(a), a), xp.where(y_inf, unnan(b), b)
    big = ~x_inf & ~y_inf & (xp.isinf(ac) | xp.isinf(bd) | xp.isinf(ad) | xp.isinf(bc))
    a, b, c, d = (xp.where(big, unnan(v), v) for v in (a, b, c, d))
    again = x_inf | y_inf | big
    inf = a.dtype.type(np.inf)
    fixed = xp.empty(a.shape, r.dtype)  # (built by parts: 1j * nan is nan+nan j)
    fixed.real = xp.where(again, inf * (a * c - b * d), r.real[lost])
    fixed.imag = xp.where(again, inf * (a * d + b * c), r.imag[lost])
    r = r.copy() if r.base is not None or r.ndim == 0 else r
    r[lost] = fixed
    return r


def _complex_pow_number(exp):
    """PyTorch's complex ``tensor ** number``: 0 gives ones, 1 a copy; the exponents 0.5,
    -0.5, -1, 2, 3 and -2 are computed as ``sqrt``, ``1 / sqrt``, ``1 / x``, ``x * x``,
    ``x * x * x`` and ``1 / (x * x)`` (its kernel's shortcuts), any other by ``cpow`` (see
    ``_complex_pow``).

    >>> _complex_pow_number(2)(np.array([1 + 1j]), None)
    array([0.+2.j])
    """
    e = builtins.complex(exp)
    shortcut = {0: lambda xp, a: xp.ones_like(a), 1: lambda xp, a: a.copy(),
                0.5: lambda xp, a: xp.sqrt(a), -0.5: lambda xp, a: 1 / xp.sqrt(a),
                -1: lambda xp, a: 1 / a, 2: lambda xp, a: _c_mul_plain(xp, a, a),
                3: lambda xp, a: _c_mul_plain(xp, _c_mul_plain(xp, a, a), a),
                -2: lambda xp, a: 1 / _c_mul_plain(xp, a, a)}.get(e) \
        if not e.imag else None
    if shortcut is None:
        return _complex_pow

    def f(a, b, out=None):
        with np.errstate(all="ignore"):
            r = shortcut(_xp_of(a), a)
        return _store(r.astype(a.dtype, copy=False), out)
    return f


def _pow_fn(rdt, exponent=None):
    if rdt.category == _INT:
        return _int_pow
    if rdt.category == _COMPLEX:
        return _complex_pow if isinstance(exponent, Tensor) else _complex_pow_number(exponent)
    return np.power


@op(inplace=True, dunder="pow")
def pow(input, exponent, *, out=None) -> Tensor:
    """``input ** exponent`` elementwise with PyTorch's rules: an integer tensor to a negative
    integer scalar power is an error, but negative integer tensor exponents give 0/1/-1.

    ``number ** tensor`` is row-major whatever the tensor's layout (PyTorch's ``pow.Scalar``);
    ``tensor ** number`` keeps the tensor's layout."""
    short = _scalar_pow_shortcut(input, exponent)
    if short is not None:
        # (PyTorch's pow(tensor, number) converts the tensor to the result dtype first)
        stride = result_strides(input._shape, input, common=short[1])
        return finish(short[0], short[1], tensor_device(input), out, stride)
    _check_shapes(input, exponent)
    rdt = promote(input, exponent)
    _refuse(rdt, "pow", _dtypes.bool)
    if isinstance(input, Tensor):
        _check_pow_exponent(input, exponent, rdt)
        return binary(_pow_fn(rdt, exponent), input, exponent, out=out,
                      scalar_is_operand=False)
    if rdt.category == _COMPLEX:
        # (PyTorch's pow.Scalar fills ones for a base equal to 1, True aside: 1 ** (inf+0j)
        # is 1+0j there, where cpow's exp(b * log(1)) is nan+nan j)
        one = type(input) is not builtins.bool and input == 1
        return binary(_one_pow if one else _complex_pow, input, exponent, out=out,
                      scalar_is_operand=None)
    return binary(_pow_fn(rdt), input, exponent, out=out, scalar_is_operand=None)


def _check_pow_exponent(base: Tensor, exp, rdt) -> None:
    """PyTorch converts a number exponent to the result dtype with its checked conversion
    (``int8_tensor ** 1000`` and ``half_tensor ** 1e6`` raise; float32 and float64 take any
    float; a Python int past 64 bits is an OverflowError)."""
    if isinstance(exp, Tensor):
        return
    if isinstance(exp, builtins.int) and not -(1 << 63) <= exp < (1 << 64):
        raise OverflowError("int too big to convert")
    if rdt.category == _INT and isinstance(exp, (builtins.int, np.integer)):
        e = builtins.int(exp)
        if e >= (1 << 63):
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        checked_scalar(exp, rdt)
    elif rdt is _dtypes.float16:
        check_half(exp)


@op(aliases=("negative",), inplace=True, inplace_function=True, unary_dunder="neg",
    out="exact", out_message=found_message)
def neg(input: Tensor, *, out=None) -> Tensor:
    """``-input`` elementwise: each part's sign flipped.

    >>> tensorviz.tensor([1.0, -2.0]).neg()
    tensor([-1.,  2.])

    # Note: PyTorch's CPU kernel negates complex numbers as ``0 - x`` in its vector loop
    # and as ``-x`` in the loop's tail, so ``-(3+0j)`` is -3+0j or -3-0j there by the
    # element's position; tensorviz gives -3-0j (IEEE negation) everywhere.
    """
    if input._dtype is _dtypes.bool:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you "
                           "are trying to invert a mask, use the `~` or `logical_not()` operator "
                           "instead.")
    return unary(np.negative, input, out=out)




@op(unary_dunder="pos")
def positive(input: Tensor) -> Tensor:
    if input._dtype is _dtypes.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def _cabs(z):
    """|z| as PyTorch's complex abs gives it. complex64: computed in complex128 and rounded,
    which is PyTorch's correctly rounded hypot of the parts (NumPy's own complex64 absolute
    is an ulp off for about a third of values: |65504+65504j| is 92636.640625 there,
    92636.6484375 here and in PyTorch), at PyTorch's speed; complex128 is NumPy's."""
    if z.dtype == np.complex64:
        return np.abs(z.astype(np.complex128)).astype(np.float32)
    return np.abs(z)


@op(aliases=("absolute",), inplace=True, inplace_function=("abs",), unary_dunder="abs")
def abs(input: Tensor, *, out=None) -> Tensor:
    """``|x|`` elementwise; complex inputs give their real magnitude.

    ``out=`` must have the input's dtype, except for a complex input: then a complex ``out``
    of the input's dtype (it gets ``|z| + 0j``) or a real dtype the magnitude casts to.
    """
    if out is not None and not isinstance(out, Tensor):
        raise TypeError(f"abs(): argument 'out' must be Tensor, not {type(out).__name__}")
    if out is not None and isinstance(input, Tensor):
        dt = input._dtype
        if dt.category == _COMPLEX and out._dtype.category != _COMPLEX:
            if not _dtypes.can_cast(dt.to_real(), out._dtype):
                raise RuntimeError(f"result type {dt.to_real().cname} can't be cast to the "
                                   f"desired output type {out._dtype.cname}")
        elif out._dtype is not dt:
            raise RuntimeError(f"Found dtype {out._dtype.cname} but expected {dt.cname}")
    if input._dtype.category == _COMPLEX:
        if out is not None and out._dtype.category == _COMPLEX:
            return unary(_cabs, input, input._dtype, out=out)  # (|z| + 0j)
        return unary(_cabs, input, input._dtype.to_real(), out=out, like_input=True)
    if input._dtype is _dtypes.bool:
        raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
    return unary(np.abs, input, out=out)




@op(inplace=True, out="exact", out_message=found_message)
def bitwise_not(input: Tensor, *, out=None) -> Tensor:
    if input._dtype.category > _INT:
        raise NotImplementedError(f'"bitwise_not_cpu" not implemented for '
                                  f"'{input._dtype.cname}'")
    return unary(np.logical_not if input._dtype is _dtypes.bool else np.invert, input, out=out)


def _bitwise(ufunc, name):
    def op(input, other, *, out=None) -> Tensor:
        return binary(ufunc, input, other, BITWISE, name=name, out=out)
    op.__name__ = name
    op.__doc__ = f"``{name}`` of bool/integer tensors, elementwise with broadcasting."
    return op


bitwise_and = op(inplace=True, dunder="and")(_bitwise(np.bitwise_and, "bitwise_and"))
bitwise_or = op(inplace=True, dunder="or")(_bitwise(np.bitwise_or, "bitwise_or"))
bitwise_xor = op(inplace=True, dunder="xor")(_bitwise(np.bitwise_xor, "bitwise_xor"))
bitwise_left_shift = op("bitwise_left_shift", inplace=True, dunder="lshift")(
    _bitwise(np.left_shift, "lshift"))
bitwise_right_shift = op("bitwise_right_shift", inplace=True, dunder="rshift")(
    _bitwise(np.right_shift, "rshift"))


def _compare(ufunc, name):
    def op(input, other, *, out=None) -> Tensor:
        if not isinstance(input, Tensor):  # (PyTorch has no (Number, Tensor) overload here)
            raise TypeError(f"{name}() received an invalid combination of arguments - got "
                            f"({type(input).__name__}, {type(other).__name__}), but expected "
                            "one of: (Tensor input, Tensor other), (Tensor input, Number other)")
        return binary(ufunc, input, other, CMP, name=name, out=out)
    op.__name__ = name
    op.__doc__ = f"Elementwise ``{name}`` comparison with broadcasting; returns a bool tensor."
    return op


eq = op(inplace=True, dunder="eq")(_compare(np.equal, "eq"))
ne = op(aliases=("not_equal",), inplace=True, dunder="ne")(_compare(np.not_equal, "ne"))
lt = op(aliases=("less",), inplace=True, dunder="lt")(_compare(np.less, "lt"))
le = op(aliases=("less_equal",), inplace=True, dunder="le")(_compare(np.less_equal, "le"))
gt = op(aliases=("greater",), inplace=True, dunder="gt")(_compare(np.greater, "gt"))
ge = op(aliases=("greater_equal",), inplace=True, dunder="ge")(
    _compare(np.greater_equal, "ge"))


@op(aliases=("clip",), inplace=True, inplace_function=True, out="exact",
    out_message=found_message)
def clamp(input: Tensor, min=None, max=None, *, out=None) -> Tensor:
    """Limit values to ``[min, max]`` (scalars or tensors); PyTorch's dtype rules."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if input._dtype.category == _COMPLEX:
        raise NotImplementedError("clamp is not supported for complex types")
    for b in (min, max):
        _check_shapes(input, b)
    if isinstance(min, Tensor) and isinstance(max, Tensor):
        _layout.broadcast_shapes(input._shape, min._shape, max._shape)
    if out is not None and isinstance(out, Tensor):
        for x in (input, min, max):
            check_partial_overlap(out, x)
    rdt = result_type(input, *[b for b in (min, max) if b is not None])
    if rdt.category == _COMPLEX:  # (a real tensor with complex bounds, as PyTorch)
        if builtins.any(isinstance(b, Tensor) for b in (min, max)):
            raise NotImplementedError(f'"{"maximum" if min is not None else "minimum"}_cpu" '
                                      f"not implemented for '{rdt.cname}'")
        if input._dtype.category != _FLOAT:
            raise NotImplementedError("clamp is not supported for complex types")
        # (a float tensor's number bounds are doubles: a real complex number is its real part)
        if builtins.any(isinstance(b, builtins.complex) and b.imag != 0 for b in (min, max)):
            raise RuntimeError("value cannot be converted to type double without overflow")
        min, max = (b.real if isinstance(b, builtins.complex) else b for b in (min, max))
        rdt = result_type(input, *[b for b in (min, max) if b is not None])
    dev = device_of(input, min, max)
    arr = operand(input, rdt, dev)
    lo = None if min is None else _bound(min, rdt, dev)
    hi = None if max is None else _bound(max, rdt, dev)
    xp = input._storage._backend.xp
    # (a number bound is std::max(x, min) / std::min(x, max) in PyTorch: x itself on a tie,
    # so clamp_min(0.0, -0.0) is 0.0; NumPy's maximum gives the bound's zero)
    src = arr
    if lo is not None:
        arr = run(xp.maximum, rdt, arr, lo)
        if not isinstance(min, Tensor) and rdt.category == _FLOAT and lo == 0:
            arr = xp.where(src == 0, src, arr)
    if hi is not None:
        tied = arr
        arr = run(xp.minimum, rdt, arr, hi)
        if not isinstance(max, Tensor) and rdt.category == _FLOAT and hi == 0:
            arr = xp.where(tied == 0, tied, arr)
    if arr is input._arr:
        arr = arr.copy()
    # (PyTorch's clamp with number bounds is a unary op: only tensors choose the strides,
    # each converted to the result dtype first)
    stride = result_strides(arr.shape, *[x for x in (input, min, max) if isinstance(x, Tensor)],
                            common=rdt)
    return finish(arr, rdt, dev, out, stride)




def _bound(x, rdt, dev):
    """A clamp bound: a number must fit ``rdt`` (PyTorch's checked conversion)."""
    if isinstance(x, Tensor):
        return operand(x, rdt, dev)
    if rdt is _dtypes.float16:
        check_half(x)
    return call_quiet(checked_scalar, x, rdt)


# ---------------------------------------------------------------- in-place forms
@inplace_of(add)
def add_(self, other, *, alpha=1) -> Tensor:
    if alpha != 1 or type(alpha) is not builtins.int:
        fused = _fused_alpha(self, other, alpha, False)
        if fused is not None:
            return inplace(self, fused, other)
        other = _alpha_times(self, other, alpha)
    return inplace(self, np.add, other)


@inplace_of(sub)
def sub_(self, other, *, alpha=1) -> Tensor:
    _check_bool_sub(self, other)
    if alpha != 1 or type(alpha) is not builtins.int:
        fused = _fused_alpha(self, other, alpha, True)
        if fused is not None:
            return inplace(self, fused, other)
        other = _alpha_times(self, other, alpha)
    return inplace(self, np.subtract, other)


@inplace_of(mul)
def mul_(self, other) -> Tensor:
    return inplace(self, np.multiply, other)


@inplace_of(div)
def div_(self, other, *, rounding_mode: str | None = None) -> Tensor:
    if rounding_mode is None:
        return inplace(self, np.true_divide, other, DIV)
    from .._indexing import assign
    res = div(self, other, rounding_mode=rounding_mode)
    if not _dtypes.can_cast(res._dtype, self._dtype):
        raise RuntimeError(f"result type {res._dtype.cname} can't be cast to the desired output "
                           f"type {self._dtype.cname}")
    assign(self, res)
    return self


@inplace_of(floor_divide)
def floor_divide_(self, other) -> Tensor:
    return inplace(self, _floor_div, other,
                   check=lambda rdt: _check_int_zero_division(self, other))


@inplace_of(remainder)
def remainder_(self, other) -> Tensor:
    return inplace(self, _remainder, other,
                   check=lambda rdt: _check_int_zero_division(self, other, "remainder_cpu"))


@inplace_of(pow)
def pow_(self, exponent) -> Tensor:
    if isinstance(exponent, builtins.int) and not -(1 << 63) <= exponent < (1 << 64):
        raise OverflowError("int too big to convert")
    if _check_scalar_pow(self, exponent):  # x **= 0 fills ones, x **= 1 keeps x
        return inplace(self, _ones_or_base if exponent == 0 else _base, exponent)
    def check(rdt):
        _refuse(rdt, "pow", _dtypes.bool)
        _check_pow_exponent(self, exponent, rdt)
    return inplace(self, _pow_fn(promote(self, exponent), exponent), exponent, check=check)


def _ones_or_base(a, b, out=None):
    r = _xp_of(a).ones_like(a)
    if out is None:
        return r
    out[...] = r
    return out


def _base(a, b, out=None):
    if out is None:
        return a.copy()
    out[...] = a
    return out


def _negate(a, b, out=None):
    """``-a`` as a two-operand ufunc for ``inplace`` (``b`` unused): NumPy's negative, as
    ``neg`` computes; ``a * -1`` would make ``-(4+inf j)`` nan-inf j, not -4-inf j.  Computed
    into a new array, then stored: NumPy 2.4's 4-byte negative loop writes wrong values when
    its output is its own input laid out 2-D with some strides (``(6, 4)`` elements)."""
    res = np.negative(a)
    if out is None:
        return res
    out[...] = res
    return out


@inplace_of(neg)
def neg_(self) -> Tensor:
    neg(self)  # for its error on bool
    return inplace(self, _negate, -1 if self._dtype.category == _INT else -1.0)


@inplace_of(abs)
def abs_(self) -> Tensor:
    from .._indexing import assign
    if self._dtype.category == _COMPLEX:
        raise RuntimeError("In-place abs is not supported for complex tensors.")
    assign(self, abs(self))
    return self


@inplace_of(bitwise_not)
def bitwise_not_(self) -> Tensor:
    from .._indexing import assign
    assign(self, bitwise_not(self))
    return self


def _bitwise_(ufunc, name):
    def op(self, other) -> Tensor:
        return inplace(self, ufunc, other, BITWISE, name=name)
    op.__name__ = name + "_"
    return op


for _fn, _ufunc in ((bitwise_and, np.bitwise_and), (bitwise_or, np.bitwise_or),
                    (bitwise_xor, np.bitwise_xor), (bitwise_left_shift, np.left_shift),
                    (bitwise_right_shift, np.right_shift)):
    inplace_of(_fn)(_bitwise_(_ufunc, _fn.__name__))


def _compare_(ufunc, name):
    def op(self, other) -> Tensor:
        return inplace(self, ufunc, other, CMP, name=name)
    op.__name__ = name + "_"
    return op


for _fn, _ufunc in ((eq, np.equal), (ne, np.not_equal), (lt, np.less), (le, np.less_equal),
                    (gt, np.greater), (ge, np.greater_equal)):
    inplace_of(_fn)(_compare_(_ufunc, _fn.__name__))


@inplace_of(clamp)
def clamp_(self, min=None, max=None) -> Tensor:
    check_partial_overlap(self, min)  # (TensorIterator's check of the bounds)
    check_partial_overlap(self, max)
    res = clamp(self, min, max)
    if not _dtypes.can_cast(res._dtype, self._dtype):
        raise RuntimeError(f"result type {res._dtype.cname} can't be cast to the desired output "
                           f"type {self._dtype.cname}")
    from .._indexing import assign
    assign(self, res)
    return self




@op()
def zero_(self) -> Tensor:
    """Set every element to 0 in place (through any view)."""
    return fill_(self, 0)


@op()
def fill_(self, value) -> Tensor:
    """Set every element to ``value`` (a number or a 0-dim tensor) in place."""
    if isinstance(value, Tensor):
        if value._shape:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {len(value._shape)} dimensions.")
        value, n = value.item(), None  # (a tensor's value goes into float16 unchecked)
    else:
        n = _layout.numel(self._shape) if self._dtype in _dtypes.HALVES else None
    # No overlap check: PyTorch lets fill_ write one value into an expanded tensor.
    self._arr[...] = fill_value(value, self._dtype, n)
    self._bump()
    return self


def _check_diagonal_value(fill_value) -> None:
    """``fill_diagonal_``'s value is a Number (a 0-dim tensor that needs no grad passes as
    one, as through PyTorch's argument parser); TypeError otherwise."""
    if isinstance(fill_value, Tensor) and (fill_value._shape or fill_value.requires_grad):
        raise TypeError("fill_diagonal_(): argument 'fill_value' (position 1) must be Number, "
                        "not Tensor")


@op(function=False)
def fill_diagonal_(self, fill_value, wrap: bool = False) -> Tensor:
    """Set the main diagonal (``self[i, i, ...]``) to ``fill_value`` in place; with ``wrap``
    a tall matrix's diagonal starts again every ``cols + 1`` rows, as in NumPy.

    Example: ``zeros(3, 3).fill_diagonal_(1)`` is ``eye(3)``.
    """
    _check_diagonal_value(fill_value)
    if len(self._shape) < 2:
        raise RuntimeError("dimensions must larger than 1")
    height, width = self._shape[0], self._shape[1]
    if len(self._shape) > 2 and any(s != height for s in self._shape):
        raise RuntimeError("all dimensions of input must be of equal length")
    stride = builtins.sum(self._stride)
    size = builtins.min(height, width)
    offset = self.storage_offset()
    fill_(self.as_strided((size,), (stride,), offset), fill_value)
    if wrap and len(self._shape) == 2 and height > width + 1:
        step = width + 1
        wrap_size = (_layout.numel(self._shape) + step - 1) // step - size
        fill_(self.as_strided((wrap_size,), (stride,), offset + self._stride[0] * step),
              fill_value)
    return self


@op(function=False)
def copy_(self, src, non_blocking: bool = False) -> Tensor:
    """Copy ``src`` (broadcast, cast, possibly from another device) into ``self`` in place."""
    if not isinstance(src, Tensor):
        raise TypeError(f"copy_(): argument 'src' must be Tensor, not {type(src).__name__}")
    from .._indexing import assign
    if src.device != self.device:
        src = src.to(self.device)
    from .._indexing import same_data
    if same_data(self, src):  # (PyTorch: nothing to copy, even into an expanded tensor)
        self._bump()
        return self
    check_writable(self)
    if src._shape != self._shape:
        bshape = _layout.broadcast_shapes(self._shape, src._shape)
        if bshape != self._shape:
            raise RuntimeError(f"output with shape {list(self._shape)} doesn't match the "
                               f"broadcast shape {list(bshape)}")
    check_partial_overlap(self, src, lazy_read=False)  # (copy_ reads a lazy view as is)
    arr = src._arr
    if src._dtype.category == _COMPLEX and self._dtype.category != _COMPLEX:
        arr = (arr != 0) if self._dtype is _dtypes.bool else arr.real  # (bool: either part)
    call_quiet(self._arr.__setitem__, Ellipsis, arr)
    self._bump()
    return self


# ---------------------------------------------------------------- Python operators
@operator_of(sub, "__rsub__")
def _rsub(self, other):
    if not isinstance(other, Number):
        return NotImplemented
    _check_bool_sub(self, other)
    return binary(np.subtract, other, self)


@operator_of(div, "__rtruediv__")
def _rtruediv(self, other):
    """``number / t``: PyTorch computes ``reciprocal(t) * number`` (same roundings, and a
    complex zero divisor gives nan)."""
    if not isinstance(other, Number):
        return NotImplemented
    rdt = self._dtype if self._dtype.category >= _FLOAT else _dtypes._default_dtype
    dev = tensor_device(self)
    rec = call_quiet(np.reciprocal, operand(self, rdt, dev))
    # (the reciprocal laid out as PyTorch's unary op lays it out: an expanded int16 t gives
    # row-major, where the cast copy's NumPy order would put the stride-0 dim last)
    rec = finish(rec, rdt, dev, None, result_strides(rec.shape, self, common=rdt))
    return mul(rec, other)


@operator_of(bitwise_not, "__invert__")
def _invert(self):
    """``~t``: PyTorch's operator refuses floats with a TypeError (``bitwise_not`` with a
    NotImplementedError)."""
    if self._dtype.category > _INT:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return bitwise_not(self)
