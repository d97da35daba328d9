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

from .. import _dtypes, _layout
from .._device import CPU
from .._dtypes import PROMOTION_TABLE, _COMPLEX, _FLOAT, _INT, result_type
from .._indexing import check_writable, checked_scalar, scalar_to
from .._tensor import Tensor, _contig, _fresh, wrap_array
from ..backends._numpy import call_quiet, context_busy, quiet_run

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
            d = x._storage._device
            if dev is None:
                dev = d
            elif d != dev:
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
               and x._storage._device == dev)


def operand(x, cdt: "_dtypes.dtype", dev):
    """``x`` as an array (or scalar) of dtype ``cdt`` on ``dev``, ready for a ufunc."""
    if isinstance(x, Tensor):
        arr = x._arr
        if x._storage._device != dev:  # a 0-dim CPU tensor joining a GPU op
            return scalar_to(x.item(), cdt)
        if x._dtype is not cdt:
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
def write_out(out: Tensor, result, rdt: "_dtypes.dtype", dev) -> Tensor:
    """Store ``result`` (array of dtype ``rdt``) into ``out`` as PyTorch's ``out=`` does.

    ``out`` keeps its storage when its shape already fits; otherwise it is resized (with
    PyTorch's warning when it held elements).
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
        resize_out(out, shape)
    check_writable(out)
    arr = out._arr
    if rdt.category == _COMPLEX and out._dtype.category != _COMPLEX:
        result = result.real
    call_quiet(arr.__setitem__, Ellipsis, result)
    out._storage._bump()
    return out


_CPP_NAMES = {"bool": "bool", "uint8": "unsigned char", "int8": "signed char",
              "int16": "short int", "int32": "int", "int64": "long int", "float16": "c10::Half",
              "float32": "float", "float64": "double", "complex64": "c10::complex<float>",
              "complex128": "c10::complex<double>"}


def _structured_message(res: Tensor, out: Tensor) -> str:
    return (f"Expected out tensor to have dtype {_CPP_NAMES.get(res._dtype.name, res._dtype.name)}"
            f", but got {_CPP_NAMES.get(out._dtype.name, out._dtype.name)} instead")


def found_message(res: Tensor, out: Tensor) -> str:
    return f"Found dtype {out._dtype.cname} but expected {res._dtype.cname}"


def exact_out(fn: Callable, message: Callable = _structured_message) -> Callable:
    """``fn`` for ops whose ``out=`` must have exactly the result's dtype (PyTorch's structured
    kernels and some others refuse a wider one, unlike the elementwise ops' cast):
    RuntimeError with ``message(result, out)``, else the result written into ``out``."""
    import functools

    @functools.wraps(fn)
    def op(*args, out=None, **kwargs):
        if out is None or not isinstance(out, Tensor):
            return fn(*args, **kwargs) if out is None else fn(*args, out=out, **kwargs)
        res = fn(*args, **kwargs)
        if not isinstance(res, Tensor):  # (a tuple result: the op itself handles out=)
            return fn(*args, out=out, **kwargs)
        if out._dtype is not res._dtype:
            raise RuntimeError(message(res, out))
        for x in args:  # (an out that partly overlaps an input is refused, as in PyTorch)
            check_partial_overlap(out, x)
        return write_out(out, res._arr, res._dtype, res._storage._device)
    return op


def resize_out(out: Tensor, shape: tuple) -> None:
    """Resize an ``out=`` tensor to ``shape`` (PyTorch warns when it held elements)."""
    if out.numel() != 0:
        warnings.warn(
            f"An output with one or more elements was resized since it had shape "
            f"{list(out._shape)}, which does not match the required output shape {list(shape)}. "
            "This behavior is deprecated, and in a future PyTorch release outputs will not be "
            "resized unless they have zero elements. You can explicitly reuse an out tensor t "
            "by resizing it, inplace, to zero elements with t.resize_(0).", UserWarning,
            stacklevel=4)
    n = _layout.numel(shape)
    st = out._storage
    if n * out._dtype.itemsize > st.nbytes() - out._offset * out._dtype.itemsize or \
            not out.is_contiguous():
        from .._storage import UntypedStorage
        st = UntypedStorage._wrap(st._backend.zeros(n, out._dtype._np, st._device), st._device,
                                  st._backend)
        out._set_layout(st, 0, shape, _layout.contiguous_strides(shape))
    else:
        out._set_layout(st, out._offset, shape, _layout.contiguous_strides(shape))


def finish(result, rdt, dev, out: Tensor | None, stride: tuple | None = None,
           inputs: tuple = ()) -> Tensor:
    """Wrap a computed array as a new tensor (with ``stride`` when given), or write it into
    ``out`` (RuntimeError, as PyTorch, when ``out`` partly overlaps one of ``inputs``)."""
    if out is not None:
        if isinstance(out, Tensor):
            for x in inputs:
                check_partial_overlap(out, x)
        return write_out(out, result, rdt, dev)
    return wrap_array(result, rdt, dev, stride)


def result_strides(shape: tuple, *operands) -> tuple:
    """PyTorch's strides for an elementwise result of ``shape`` computed from ``operands``
    (tensors or scalars; None entries are skipped).  Row-major inputs give a row-major result
    without sorting anything (the common case)."""
    canonical = True
    layouts = []
    for x in operands:
        if isinstance(x, Tensor):
            if x._stride != _contig(x._shape):
                canonical = False
            layouts.append((x._shape, x._stride))
        elif x is not None:
            layouts.append(((), ()))
    if canonical and 0 not in shape:
        return _contig(shape)
    return _layout.elementwise_strides(shape, layouts)


# ---------------------------------------------------------------- the generic ops
ARITH, DIV, CMP, BITWISE = 0, 1, 2, 3


def binary(ufunc: Callable, a, b, kind: int = ARITH, *, name: str = "", out=None,
           scalar_is_operand: bool = True) -> Tensor:
    """``ufunc(a, b)`` with PyTorch's promotion; ``kind`` picks the result-dtype rule.

    ARITH computes and returns the promoted dtype, DIV promotes integers to the default float
    dtype, CMP returns bool, BITWISE requires bool/integer operands.  ``scalar_is_operand``
    False: a Python scalar does not take part in choosing the result's strides (PyTorch's
    ``tensor ** scalar`` is a unary op).
    """
    fast = False
    if out is None:
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
                    shape == b._shape and (kind != DIV or dt.category >= _FLOAT):
                c = _contig(shape)
                if a._stride == c and b._stride == c and 0 not in shape:
                    if kind != ARITH:
                        _check_kind(kind, dt, name)
                    fast = True
        elif (ta is Tensor and tb in _PY_NUMBERS) or (tb is Tensor and ta in _PY_NUMBERS):
            t = a if ta is Tensor else b
            xt = t._a
            if xt is None:
                xt = t._arr
            dt, shape = t._dtype, t._shape
            if type(xt) is _NDARRAY and (kind != DIV or dt.category >= _FLOAT) and \
                    promote(a, b) is dt:
                c = _contig(shape)
                if t._stride == c and 0 not in shape:
                    if kind != ARITH:
                        _check_kind(kind, dt, name)
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
        if type(res) is _NDARRAY and res.dtype is rdt._np:  # (0-dim inputs give a scalar)
            return _fresh(rdt, shape, c, res)
        return wrap_array(res, rdt, CPU, c)
    _check_shapes(a, b)
    if out is not None and isinstance(out, Tensor):
        # an out= that shares only some of an input's memory: PyTorch's RuntimeError
        check_partial_overlap(out, a)
        check_partial_overlap(out, b)
    rdt = promote(a, b)
    dev = device_of(a, b)
    if kind == DIV and rdt.category < _FLOAT:
        rdt = _dtypes._default_dtype
    elif kind != ARITH:
        _check_kind(kind, rdt, name)
    xa = operand(a, rdt, dev)
    xb = operand(b, rdt, dev)
    res = call_quiet(ufunc, xa, xb) if rdt.category >= _FLOAT else ufunc(xa, xb)
    if out is not None:
        stride = None
    elif scalar_is_operand:
        stride = result_strides(res.shape, a, b)
    elif scalar_is_operand is None:  # (a row-major result whatever the inputs' layout)
        stride = _contig(res.shape)
    else:
        stride = result_strides(res.shape, *[x for x in (a, b) if isinstance(x, Tensor)])
    if kind == CMP:
        return finish(res, _dtypes.bool, dev, out, stride)
    return finish(res, rdt, dev, out, stride)


def _check_shapes(a, b) -> None:
    """RuntimeError in PyTorch's words when two tensors do not broadcast (before any dtype
    check, as PyTorch)."""
    if isinstance(a, Tensor) and isinstance(b, Tensor) and a._shape != b._shape:
        _layout.broadcast_shapes(a._shape, b._shape)


def _check_kind(kind: int, rdt, name: str) -> None:
    """NotImplementedError where PyTorch has no kernel for the computing dtype: bitwise ops on
    floats, shifts on bool, ordering comparisons on complex."""
    if kind == BITWISE:
        if rdt.category > _INT or (rdt is _dtypes.bool and name in ("lshift", "rshift")):
            raise NotImplementedError(f'"{name}_cpu" not implemented for \'{rdt.cname}\'')
    elif kind == CMP and rdt.category == _COMPLEX and name in ("lt", "le", "gt", "ge"):
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'{rdt.cname}\'')


_OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to tensor "
            "refer to a single memory location. Please clone() the tensor before performing the "
            "operation.")


def check_partial_overlap(dest: Tensor, src, full_ok: bool = True) -> None:
    """PyTorch's ``assert_no_partial_overlap``: RuntimeError when ``src`` shares some, but not
    exactly all, of the memory ``dest`` is written to.  Only dense layouts are compared (as
    PyTorch, anything else is too hard to tell and passes); the same memory with the same
    strides (``x.add_(x)``) is fine unless ``full_ok`` is False (``assert_no_overlap``, as
    the index ops check their source)."""
    if not isinstance(src, Tensor) or src._storage is not dest._storage:
        return
    if src is dest:
        if full_ok:
            return
        raise RuntimeError(_OVERLAP)
    n_dest, n_src = _layout.numel(dest._shape), _layout.numel(src._shape)
    if not n_dest or not n_src:
        return
    if not (_layout.is_non_overlapping_and_dense(dest._shape, dest._stride) and
            _layout.is_non_overlapping_and_dense(src._shape, src._stride)):
        return
    a0 = dest._offset * dest._dtype.itemsize
    a1 = a0 + n_dest * dest._dtype.itemsize
    b0 = src._offset * src._dtype.itemsize
    b1 = b0 + n_src * src._dtype.itemsize
    if a0 == b0 and a1 == b1:
        if dest._stride == src._stride and full_ok:
            return
        raise RuntimeError(_OVERLAP)
    if a0 < b1 and b0 < a1:
        raise RuntimeError(_OVERLAP)


def _refuse(rdt, name: str, *refused) -> None:
    """NotImplementedError naming PyTorch's kernel when it has none for ``rdt``."""
    if rdt in refused or rdt.category in refused:
        raise NotImplementedError(f'"{name}" not implemented for \'{rdt.cname}\'')


def unary(fn: Callable, x: Tensor, rdt=None, *, out=None) -> Tensor:
    """``fn(x)`` elementwise, keeping x's dtype unless ``rdt`` says otherwise."""
    if not isinstance(x, Tensor):
        raise TypeError(f"expected a Tensor, got {type(x).__name__}")
    rdt = x._dtype if rdt is None else rdt
    arr = x._arr
    if x._dtype is not rdt and rdt.category >= x._dtype.category:
        arr = arr.astype(rdt._np)
    res = run(fn, rdt, arr)
    if out is None:
        return finish(res, rdt, x._storage._device, None, result_strides(res.shape, x))
    return finish(res, rdt, x._storage._device, out, None, (x,))  # (refuses a partial overlap)


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
    if check is not None:
        check(rdt)
    xa = operand(self, rdt, dev)
    xb = operand(other, rdt, dev)
    target = self._arr
    if rdt_out is self._dtype:
        run(ufunc, rdt, xa, xb, out=target)
    else:
        res = run(ufunc, rdt, xa, xb)
        if rdt_out.category == _COMPLEX and self._dtype.category != _COMPLEX:
            res = res.real
        call_quiet(target.__setitem__, Ellipsis, res)
    self._storage._bump()
    return self


# ---------------------------------------------------------------- arithmetic
def _check_alpha(rdt, alpha) -> None:
    if rdt.category < _FLOAT and isinstance(alpha, builtins.float):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")
    if rdt is _dtypes.bool and not isinstance(alpha, builtins.bool):
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
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


def add(input, other, *, alpha=1, out=None) -> Tensor:
    """``input + alpha * other`` with broadcasting and PyTorch's promotion."""
    if alpha != 1:
        _check_alpha(promote(input, other), alpha)
        other = _scaled(other, alpha)
    return binary(np.add, input, other, out=out)


def sub(input, other, *, alpha=1, out=None) -> Tensor:
    """``input - alpha * other``; refused for two bool operands, as in PyTorch."""
    _check_bool_sub(input, other)
    if alpha != 1:
        _check_alpha(promote(input, other), alpha)
        other = _scaled(other, alpha)
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


def rsub(input, other, *, alpha=1) -> Tensor:
    return sub(other, input, alpha=alpha) if isinstance(other, Tensor) else \
        binary(np.subtract, other, _scaled(input, alpha))


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
    return np.trunc(np.true_divide(a, b))


divide = true_divide = div


def floor_divide(input, other, *, out=None) -> Tensor:
    _check_int_zero_division(input, other)
    return binary(np.floor_divide, input, other, out=out)


def remainder(input, other, *, out=None) -> Tensor:
    """Python's ``%``: the result takes the divisor's sign."""
    _check_int_zero_division(input, other, "remainder_cpu")
    return binary(_remainder, input, other, out=out)


def _remainder(a, b, out=None):
    """PyTorch's remainder: integers as Python's ``%``; floats as ``fmod(a, b)`` plus ``b``
    where that is non-zero with the other sign than ``b``, so a zero result keeps the sign of
    ``a``.  NumPy's ``remainder`` is that formula except that it gives a zero the sign of
    ``b``: its zeros take ``a``'s sign here."""
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
        return operand(base, rdt, base._storage._device).copy(), rdt
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


def _complex_pow(a, b, out=None):
    """Complex ``a ** b``; a zero base follows PyTorch's ``exp(b * log(a))`` (0 ** 0 is nan)."""
    xp = _xp_of(a, b)
    zero = a == 0
    if not xp.any(zero):
        return xp.power(a, b, out=out)
    r = xp.where(zero, xp.exp(b * xp.log(a)), xp.power(a, b))
    if out is None:
        return r
    out[...] = r
    return out


def _pow_fn(rdt):
    if rdt.category == _INT:
        return _int_pow
    if rdt.category == _COMPLEX:
        return _complex_pow
    return np.power


def pow(input, exponent, *, out=None) -> Tensor:
    """``input ** exponent`` elementwise with PyTorch's rules: an integer tensor to a negative
    integer scalar power is an error, but negative integer tensor exponents give 0/1/-1.

    ``number ** tensor`` is row-major whatever the tensor's layout (PyTorch's ``pow.Scalar``);
    ``tensor ** number`` keeps the tensor's layout."""
    short = _scalar_pow_shortcut(input, exponent)
    if short is not None:
        stride = None if out is not None else result_strides(input._shape, input)
        return finish(short[0], short[1], input._storage._device, out, stride)
    _check_shapes(input, exponent)
    rdt = promote(input, exponent)
    _refuse(rdt, "pow", _dtypes.bool)
    if isinstance(input, Tensor):
        _check_pow_exponent(input, exponent, rdt)
        return binary(_pow_fn(rdt), input, exponent, out=out, scalar_is_operand=False)
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


def neg(input: Tensor, *, out=None) -> Tensor:
    if input._dtype is _dtypes.bool:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you "
                           "are trying to invert a mask, use the `~` or `logical_not()` operator "
                           "instead.")
    return unary(np.negative, input, out=out)


negative = neg


def positive(input: Tensor) -> Tensor:
    if input._dtype is _dtypes.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def abs(input: Tensor, *, out=None) -> Tensor:
    """``|x|`` elementwise; complex inputs give their real magnitude."""
    if input._dtype.category == _COMPLEX:
        return unary(np.abs, input, input._dtype.to_real(), out=out)
    if input._dtype is _dtypes.bool:
        raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
    return unary(np.abs, input, out=out)


absolute = abs


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


bitwise_and = _bitwise(np.bitwise_and, "bitwise_and")
bitwise_or = _bitwise(np.bitwise_or, "bitwise_or")
bitwise_xor = _bitwise(np.bitwise_xor, "bitwise_xor")
bitwise_left_shift = _bitwise(np.left_shift, "lshift")
bitwise_right_shift = _bitwise(np.right_shift, "rshift")


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


eq = _compare(np.equal, "eq")
ne = _compare(np.not_equal, "ne")
lt = _compare(np.less, "lt")
le = _compare(np.less_equal, "le")
gt = _compare(np.greater, "gt")
ge = _compare(np.greater_equal, "ge")
not_equal, less, less_equal, greater, greater_equal = ne, lt, le, gt, ge


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
    dev = device_of(input, min, max)
    arr = operand(input, rdt, dev)
    lo = None if min is None else _bound(min, rdt, dev)
    hi = None if max is None else _bound(max, rdt, dev)
    xp = input._storage._backend.xp
    if lo is not None:
        arr = run(xp.maximum, rdt, arr, lo)
    if hi is not None:
        arr = run(xp.minimum, rdt, arr, hi)
    if arr is input._arr:
        arr = arr.copy()
    # (PyTorch's clamp with number bounds is a unary op: only tensors choose the strides)
    stride = None if out is not None else result_strides(
        arr.shape, *[x for x in (input, min, max) if isinstance(x, Tensor)])
    return finish(arr, rdt, dev, out, stride)


clip = clamp


def _bound(x, rdt, dev):
    """A clamp bound: a number must fit ``rdt`` (PyTorch's checked conversion)."""
    if isinstance(x, Tensor):
        return operand(x, rdt, dev)
    if rdt is _dtypes.float16:
        check_half(x)
    return call_quiet(checked_scalar, x, rdt)


def fill_value(value, dt, numel=None):
    """A number converted for ``fill_``/``full``: PyTorch's checked conversion (RuntimeError
    when it does not fit).  PyTorch's one-element fill stores an out-of-range number into
    float16 as inf; any other count (``numel``, when given: 0 too) is checked as for the other
    dtypes.  Without ``numel`` float16 takes out-of-range values as inf."""
    if dt is _dtypes.float16:
        if numel is not None and numel != 1:
            check_half(value)
        elif isinstance(value, (builtins.int, builtins.float, np.integer, np.floating)):
            return call_quiet(scalar_to, value, dt)
    return call_quiet(checked_scalar, value, dt)  # (its range check may cast: keep it quiet)


_HALF_MAX = 65504.0


def check_half(value) -> None:
    """PyTorch's checked conversion of a number to float16 (``c10::overflows``): a finite
    number past float16's largest magnitude is a RuntimeError (inf and NaN pass)."""
    if isinstance(value, Tensor):
        value = value.item()
    if isinstance(value, (builtins.complex, np.complexfloating)):
        value = value.real
    if isinstance(value, (builtins.bool, np.bool_)) or not isinstance(
            value, (builtins.int, builtins.float, np.integer, np.floating)):
        return
    if isinstance(value, (builtins.int, np.integer)):
        bad = builtins.abs(builtins.int(value)) > _HALF_MAX
    else:
        v = builtins.abs(builtins.float(value))
        bad = v > _HALF_MAX and v != float("inf")
    if bad:
        raise RuntimeError("value cannot be converted to type c10::Half without overflow")


# ---------------------------------------------------------------- in-place forms
def add_(self, other, *, alpha=1) -> Tensor:
    if alpha != 1:
        _check_alpha(promote(self, other), alpha)
        other = _scaled(other, alpha)
    return inplace(self, np.add, other)


def sub_(self, other, *, alpha=1) -> Tensor:
    _check_bool_sub(self, other)
    if alpha != 1:
        _check_alpha(promote(self, other), alpha)
        other = _scaled(other, alpha)
    return inplace(self, np.subtract, other)


def mul_(self, other) -> Tensor:
    return inplace(self, np.multiply, other)


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


def floor_divide_(self, other) -> Tensor:
    return inplace(self, np.floor_divide, other,
                   check=lambda rdt: _check_int_zero_division(self, other))


def remainder_(self, other) -> Tensor:
    return inplace(self, _remainder, other,
                   check=lambda rdt: _check_int_zero_division(self, other, "remainder_cpu"))


def pow_(self, exponent) -> Tensor:
    if isinstance(exponent, builtins.int) and not -(1 << 63) <= exponent < (1 << 64):
        raise OverflowError("int too big to convert")
    if _check_scalar_pow(self, exponent):  # x **= 0 fills ones, x **= 1 keeps x
        return inplace(self, _ones_or_base if exponent == 0 else _base, exponent)
    def check(rdt):
        _refuse(rdt, "pow", _dtypes.bool)
        _check_pow_exponent(self, exponent, rdt)
    return inplace(self, _pow_fn(promote(self, exponent)), exponent, check=check)


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


def _negate(a, b, **kwargs):
    """``-a`` as a two-operand ufunc for ``inplace`` (``b`` unused): NumPy's negative, as
    ``neg`` computes; ``a * -1`` would make ``-(4+inf j)`` nan-inf j, not -4-inf j."""
    return np.negative(a, **kwargs)


def neg_(self) -> Tensor:
    neg(self)  # for its error on bool
    return inplace(self, _negate, -1 if self._dtype.category == _INT else -1.0)


def abs_(self) -> Tensor:
    from .._indexing import assign
    if self._dtype.category == _COMPLEX:
        raise RuntimeError("In-place abs is not supported for complex tensors.")
    assign(self, abs(self))
    return self


def bitwise_not_(self) -> Tensor:
    from .._indexing import assign
    assign(self, bitwise_not(self))
    return self


def _bitwise_(ufunc, name):
    def op(self, other) -> Tensor:
        return inplace(self, ufunc, other, BITWISE, name=name)
    op.__name__ = name + "_"
    return op


bitwise_and_ = _bitwise_(np.bitwise_and, "bitwise_and")
bitwise_or_ = _bitwise_(np.bitwise_or, "bitwise_or")
bitwise_xor_ = _bitwise_(np.bitwise_xor, "bitwise_xor")
bitwise_left_shift_ = _bitwise_(np.left_shift, "lshift")
bitwise_right_shift_ = _bitwise_(np.right_shift, "rshift")


def _compare_(ufunc, name):
    def op(self, other) -> Tensor:
        return inplace(self, ufunc, other, CMP, name=name)
    op.__name__ = name + "_"
    return op


eq_, ne_, lt_, le_, gt_, ge_ = (_compare_(u, n) for u, n in (
    (np.equal, "eq"), (np.not_equal, "ne"), (np.less, "lt"), (np.less_equal, "le"),
    (np.greater, "gt"), (np.greater_equal, "ge")))


def clamp_(self, min=None, max=None) -> Tensor:
    res = clamp(self, min, max)
    if not _dtypes.can_cast(res._dtype, self._dtype):
        raise RuntimeError(f"result type {res._dtype.cname} can't be cast to the desired output "
                           f"type {self._dtype.cname}")
    from .._indexing import assign
    assign(self, res)
    return self


clip_ = clamp_


def zero_(self) -> Tensor:
    """Set every element to 0 in place (through any view)."""
    return fill_(self, 0)


def fill_(self, value) -> Tensor:
    """Set every element to ``value`` (a number or a 0-dim tensor) in place."""
    if isinstance(value, Tensor):
        if value._shape:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {len(value._shape)} dimensions.")
        value, n = value.item(), None  # (a tensor's value goes into float16 unchecked)
    else:
        n = _layout.numel(self._shape) if self._dtype is _dtypes.float16 else None
    # No overlap check: PyTorch lets fill_ write one value into an expanded tensor.
    self._arr[...] = fill_value(value, self._dtype, n)
    self._storage._bump()
    return self


def fill_diagonal_(self, fill_value, wrap: bool = False) -> Tensor:
    """Set the main diagonal (``self[i, i, ...]``) to ``fill_value`` in place; with ``wrap``
    a tall matrix's diagonal starts again every ``cols + 1`` rows, as in NumPy.

    Example: ``zeros(3, 3).fill_diagonal_(1)`` is ``eye(3)``.
    """
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


def copy_(self, src, non_blocking: bool = False) -> Tensor:
    """Copy ``src`` (broadcast, cast, possibly from another device) into ``self`` in place."""
    if not isinstance(src, Tensor):
        raise TypeError(f"copy_(): argument 'src' must be Tensor, not {type(src).__name__}")
    from .._indexing import assign
    if src.device != self.device:
        src = src.to(self.device)
    check_writable(self)
    if src._shape != self._shape:
        bshape = _layout.broadcast_shapes(self._shape, src._shape)
        if bshape != self._shape:
            raise RuntimeError(f"output with shape {list(self._shape)} doesn't match the "
                               f"broadcast shape {list(bshape)}")
    check_partial_overlap(self, src)
    arr = src._arr
    if src._dtype.category == _COMPLEX and self._dtype.category != _COMPLEX:
        arr = (arr != 0) if self._dtype is _dtypes.bool else arr.real  # (bool: either part)
    call_quiet(self._arr.__setitem__, Ellipsis, arr)
    self._storage._bump()
    return self


# ---------------------------------------------------------------- Python operators
def _array_operand(other):
    """A NumPy array operand as PyTorch takes it: a tensor (``from_numpy``'s checks), which
    takes part in promotion like any dimensioned tensor; anything else is not an operand."""
    if isinstance(other, np.ndarray):
        from .._creation import as_tensor
        return as_tensor(other)
    return NotImplemented


def _reflect(fn):
    def r(self, other):
        if not isinstance(other, Number):  # (PyTorch's reflected operators refuse arrays too)
            return NotImplemented
        return fn(other, self)
    return r


_OPERAND = (Tensor,) + Number


def _forward(fn, ufunc=None):
    """The operator ``self <op> other`` for ``fn``.  With ``ufunc`` (``fn(a, b)`` being
    ``binary(ufunc, a, b)``) it calls ``binary`` directly: one Python call less per op."""
    call = fn if ufunc is None else functools.partial(binary, ufunc)

    def f(self, other):
        if not isinstance(other, _OPERAND):
            other = _array_operand(other)
            if other is NotImplemented:
                return NotImplemented
        return call(self, other)
    return f


def _rsub(self, other):
    if not isinstance(other, Number):
        return NotImplemented
    _check_bool_sub(self, other)
    return binary(np.subtract, other, self)


def _rtruediv(self, other):
    """``number / t``: PyTorch computes ``reciprocal(t) * number`` (same roundings, and a
    complex zero divisor gives nan)."""
    if not isinstance(other, Number):
        return NotImplemented
    rdt = self._dtype if self._dtype.category >= _FLOAT else _dtypes._default_dtype
    dev = self._storage._device
    rec = call_quiet(np.reciprocal, operand(self, rdt, dev))
    return mul(wrap_array(rec, rdt, dev), other)


def _invert(self):
    """``~t``: PyTorch's operator refuses floats with a TypeError (``bitwise_not`` with a
    NotImplementedError)."""
    if self._dtype.category > _INT:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return bitwise_not(self)


_linalg = None  # ops.linalg, imported on first use (it imports this module)


def _import_linalg():
    global _linalg
    from . import linalg
    _linalg = linalg
    return linalg


def _matmul(self, other):
    if not isinstance(other, Tensor):
        return NotImplemented
    return (_linalg or _import_linalg()).matmul(self, other)


def _rmatmul(self, other):
    if not isinstance(other, Tensor):
        return NotImplemented
    from . import linalg
    return linalg.matmul(other, self)


def _imatmul(self, other):
    """``a @= b`` is ``a = a @ b``: PyTorch has no in-place matmul, so Python rebinds ``a``
    to a new tensor and ``a``'s old storage (and its views) keep their values."""
    return _matmul(self, other)


OPERATORS = {
    "__add__": _forward(add, np.add), "__radd__": _reflect(add), "__iadd__": _forward(add_),
    "__sub__": _forward(sub), "__rsub__": _rsub, "__isub__": _forward(sub_),
    "__mul__": _forward(mul, np.multiply), "__rmul__": _reflect(mul), "__imul__": _forward(mul_),
    "__truediv__": _forward(div), "__rtruediv__": _rtruediv,
    "__itruediv__": _forward(div_),
    "__floordiv__": _forward(floor_divide), "__rfloordiv__": _reflect(floor_divide),
    "__ifloordiv__": _forward(floor_divide_),
    "__mod__": _forward(remainder), "__rmod__": _reflect(remainder),
    "__imod__": _forward(remainder_),
    "__pow__": _forward(pow), "__rpow__": _reflect(pow), "__ipow__": _forward(pow_),
    "__and__": _forward(bitwise_and), "__rand__": _reflect(bitwise_and),
    "__iand__": _forward(bitwise_and_),
    "__or__": _forward(bitwise_or), "__ror__": _reflect(bitwise_or),
    "__ior__": _forward(bitwise_or_),
    "__xor__": _forward(bitwise_xor), "__rxor__": _reflect(bitwise_xor),
    "__ixor__": _forward(bitwise_xor_),
    "__lshift__": _forward(bitwise_left_shift), "__rlshift__": _reflect(bitwise_left_shift),
    "__ilshift__": _forward(bitwise_left_shift_),
    "__rshift__": _forward(bitwise_right_shift), "__rrshift__": _reflect(bitwise_right_shift),
    "__irshift__": _forward(bitwise_right_shift_),
    "__eq__": _forward(eq), "__ne__": _forward(ne), "__lt__": _forward(lt), "__le__": _forward(le),
    "__gt__": _forward(gt), "__ge__": _forward(ge),
    "__neg__": neg, "__pos__": positive, "__abs__": abs, "__invert__": _invert,
    "__matmul__": _matmul, "__rmatmul__": _rmatmul, "__imatmul__": _imatmul,
}

METHODS = {
    "add": add, "sub": sub, "subtract": sub, "mul": mul, "multiply": mul, "div": div,
    "divide": div, "true_divide": div, "floor_divide": floor_divide, "remainder": remainder,
    "pow": pow, "neg": neg, "negative": neg, "positive": positive, "abs": abs, "absolute": abs,
    "bitwise_not": bitwise_not, "bitwise_and": bitwise_and, "bitwise_or": bitwise_or,
    "bitwise_xor": bitwise_xor, "bitwise_left_shift": bitwise_left_shift,
    "bitwise_right_shift": bitwise_right_shift,
    "eq": eq, "ne": ne, "lt": lt, "le": le, "gt": gt, "ge": ge, "not_equal": ne, "less": lt,
    "less_equal": le, "greater": gt, "greater_equal": ge, "clamp": clamp, "clip": clamp,
    "add_": add_, "sub_": sub_, "subtract_": sub_, "mul_": mul_, "multiply_": mul_, "div_": div_,
    "divide_": div_, "true_divide_": div_, "floor_divide_": floor_divide_,
    "remainder_": remainder_, "pow_": pow_, "neg_": neg_, "negative_": neg_, "abs_": abs_,
    "absolute_": abs_, "bitwise_not_": bitwise_not_, "bitwise_and_": bitwise_and_,
    "bitwise_or_": bitwise_or_, "bitwise_xor_": bitwise_xor_,
    "bitwise_left_shift_": bitwise_left_shift_, "bitwise_right_shift_": bitwise_right_shift_,
    "eq_": eq_, "ne_": ne_, "lt_": lt_, "le_": le_, "gt_": gt_, "ge_": ge_,
    "clamp_": clamp_, "clip_": clip_, "zero_": zero_, "fill_": fill_, "copy_": copy_,
}
METHODS.update({"not_equal_": ne_, "less_": lt_, "less_equal_": le_, "greater_": gt_})
METHODS.update({"greater_equal_": ge_, "fill_diagonal_": fill_diagonal_})

FUNCTIONS = {name: fn for name, fn in METHODS.items() if not name.endswith("_")}
FUNCTIONS.update({"rsub": rsub})
for _name in ("abs", "absolute", "neg", "negative", "bitwise_not", "clamp", "clip"):
    FUNCTIONS[_name] = exact_out(FUNCTIONS[_name], found_message)
# the in-place forms PyTorch also has as functions (torch.abs_(t) ...)
FUNCTIONS.update({"abs_": abs_, "neg_": neg_, "negative_": neg_, "clamp_": clamp_,
                  "clip_": clip_})
