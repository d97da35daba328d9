"""Copy and conversion ops: ``contiguous``, ``clone``, ``to`` and its shorthands
(``float()``, ``long()`` ...), ``type``, ``cpu``/``cuda`` and the ``new_*`` constructors,
each declared once with ``@op`` on its body (the registry makes the ``Tensor`` method and,
for ``clone``, ``tensorviz.clone``)::

    >>> t = tensorviz.arange(6).reshape(2, 3).t()
    >>> t.contiguous().stride(), t.clone().stride(), t.double().dtype
    ((2, 1), (1, 3), tensorviz.float64)

A copy is a new storage; ``to``/``contiguous`` return the tensor itself when nothing would
change (as PyTorch).
"""
from __future__ import annotations

import builtins
import warnings

import numpy as np

from .. import _chalf, _creation, _dtypes, _layout, backends
from .._device import CPU, DeviceLike, as_device, current_cuda_index, device
from .. import return_types
from .._dispatch import op, write_out
from .._dtypes import dtype as _dtype_cls
from .._storage import UntypedStorage
from .._tensor import (_TYPE_BY_NAME, _TYPE_NAMES, Tensor, _contig, _format_name,
                       _fresh, _kw_shape, _LegacyTensorType, _make, contiguous_format,
                       preserve_format, wrap_array)
from ..backends import backend_for
from ..backends._numpy import call_quiet
from ._elementwise import device_of, finish, result_strides


@op(function=False)
def contiguous(input, memory_format=contiguous_format) -> Tensor:
    """``input`` when already contiguous in ``memory_format`` (row-major by default),
    else a copy in that format in a new storage."""
    if memory_format is contiguous_format:
        if _layout.is_contiguous(input._shape, input._stride):
            return input
        return clone(input, memory_format=contiguous_format)
    if memory_format is None:
        raise TypeError("contiguous(): argument 'memory_format' must be "
                        "tensorviz.memory_format, not NoneType")
    fmt = _format_name(memory_format, "contiguous")
    if _layout.is_contiguous_as(input._shape, input._stride, fmt):
        return input
    if fmt == "preserve_format":
        raise RuntimeError("preserve memory format is unsupported by the contiguous "
                           "operator")
    return clone(input, memory_format=memory_format)


@op(tensor_first="input")
def clone(input, *, memory_format=None) -> Tensor:
    """A copy in a new storage; ``preserve_format`` (the default) keeps a dense tensor's
    strides and any other tensor's dim order, as PyTorch does; ``contiguous_format`` and
    ``channels_last[_3d]`` lay the copy out in that order."""
    return _copy(input, input._dtype, memory_format)


def _copy(input, dt: _dtype_cls, memory_format=None, dev: device | None = None) -> Tensor:
    """A copy as ``dt`` in a new storage on ``dev``, laid out as ``memory_format`` says."""
    shape = input._shape
    contig = _contig(shape)
    src = input._a
    if src is None:
        src = input._arr
    if memory_format is not None and memory_format is not contiguous_format \
            and memory_format is not preserve_format:
        return _copy_strided(input, dt, _layout.copy_strides(
            shape, input._stride, _format_name(memory_format, "clone")), dev)
    if input._stride == contig and type(src) is np.ndarray and (dev is None or dev is CPU) \
            and input._dtype.category != _dtypes._COMPLEX and dt is not _dtypes.complex32 \
            and 0 not in shape:
        # Fast path: a row-major CPU tensor stays row-major in every memory format, and
        # astype makes that copy (the same cast as below, warnings silenced alike).
        if dt is _dtypes.bool and input._dtype is _dtypes.bool:
            arr = np.asarray(src.view(np.uint8) != 0)  # (a bool view of other data: 0/1)
        elif dt is input._dtype or (input._dtype.category < _dtypes._FLOAT
                                    and dt is not _dtypes.float16):
            arr = src.astype(dt._np)
        else:
            arr = call_quiet(src.astype, dt._np)  # float -> int is silent, as in PyTorch
        return _fresh(dt, shape, contig, arr)
    if memory_format is contiguous_format:
        stride = _contig(shape)
    else:
        stride = _layout.preserve_strides(shape, input._stride)
    return _copy_strided(input, dt, stride, dev)


def _copy_strided(input, dt: _dtype_cls, stride: tuple, dev: device | None) -> Tensor:
    """A copy as ``dt`` on ``dev`` in a new storage, with the (dense) strides ``stride``."""
    shape = input._shape
    src = input._arr
    st = input._storage
    if dev is not None and dev != st._device:
        src = backends.copy_between(src, st._device, dev)
        be = backend_for(dev)
    else:
        dev, be = st._device, st._backend
    meta = dev.type == "meta"  # (placeholders: nothing to convert)
    if input._dtype is _dtypes.complex32 and dt is not _dtypes.complex32 and not meta:
        src = _chalf.widen(src)  # (exact: each float16 part is a float32)
    if input._dtype.category == _dtypes._COMPLEX and dt is _dtypes.bool:
        src = src != 0  # (complex -> bool: nonzero real OR imaginary part, no warning)
    elif input._dtype.category == _dtypes._COMPLEX and dt.category != _dtypes._COMPLEX:
        warnings.warn("Casting complex values to real discards the imaginary part",
                      UserWarning, stacklevel=5)
        src = src.real
    if dt is _dtypes.bool and input._dtype is _dtypes.bool:
        src = src.view(np.uint8) != 0  # (a bool view of other data: PyTorch stores 0/1)
    buf = be.empty(_layout.numel(shape), dt._np, dev)
    out = be.strided(buf, 0, shape, stride)
    if dt is _dtypes.complex32 and input._dtype is not dt and not meta:
        out[...] = _chalf.narrow(src)  # (each part rounded to float16)
    elif dt is input._dtype or (input._dtype.category < _dtypes._FLOAT
                                and dt is not _dtypes.float16):
        out[...] = src
    else:  # (and integers past float16's range: inf, silently, as PyTorch)
        call_quiet(out.__setitem__, Ellipsis, src)  # float -> int: silent, as in PyTorch
    return _make(Tensor, UntypedStorage._wrap(buf, dev, be), dt, 0, shape, stride, out)


# ------------------------------------------------------------ new_* (same dtype/device)
def _new_opts(input, dtype, device) -> tuple:
    return (_creation._check_dtype(dtype) or input._dtype,
            input._storage._device if device is None else as_device(device))


@op(function=False)
def new(input, *args, device: DeviceLike = None) -> Tensor:
    """Legacy ``t.new(*sizes)`` / ``t.new(data)``: ``Tensor(...)`` with this dtype."""
    return Tensor.__new__(Tensor, *args, dtype=input._dtype,
                          device=input._storage._device if device is None else device)


@op(function=False)
def new_tensor(input, data, *, dtype=None, device=None, requires_grad: bool = False
               ) -> Tensor:
    """``tensorviz.tensor(data)`` with this tensor's dtype and device by default."""
    dt, dev = _new_opts(input, dtype, device)
    return _creation.tensor(data, dtype=dt, device=dev, requires_grad=requires_grad)


@op(function=False)
def new_empty(input, *sizes, size=None, dtype=None, device=None,
              requires_grad: bool = False) -> Tensor:
    """``tensorviz.empty(*sizes)`` with this tensor's dtype and device by default."""
    dt, dev = _new_opts(input, dtype, device)
    return _creation.empty(*_kw_shape(sizes, size, "size", "new_empty"), dtype=dt, device=dev,
                 requires_grad=requires_grad)


@op(function=False)
def new_zeros(input, *sizes, size=None, dtype=None, device=None,
              requires_grad: bool = False) -> Tensor:
    """``tensorviz.zeros(*sizes)`` with this tensor's dtype and device by default."""
    dt, dev = _new_opts(input, dtype, device)
    return _creation.zeros(*_kw_shape(sizes, size, "size", "new_zeros"), dtype=dt, device=dev,
                 requires_grad=requires_grad)


@op(function=False)
def new_ones(input, *sizes, size=None, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """``tensorviz.ones(*sizes)`` with this tensor's dtype and device by default."""
    dt, dev = _new_opts(input, dtype, device)
    return _creation.ones(*_kw_shape(sizes, size, "size", "new_ones"), dtype=dt, device=dev,
                requires_grad=requires_grad)


@op(function=False)
def new_full(input, size, fill_value, *, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """``tensorviz.full(size, fill_value)`` with this tensor's dtype and device by default."""
    dt, dev = _new_opts(input, dtype, device)
    return _creation.full(size, fill_value, dtype=dt, device=dev, requires_grad=requires_grad)


@op(function=False)
def new_empty_strided(input, size, stride, *, dtype=None, device=None,
                      requires_grad: bool = False) -> Tensor:
    """``tensorviz.empty_strided(size, stride)`` with this tensor's dtype and device by
    default."""
    dt, dev = _new_opts(input, dtype, device)
    return _creation.empty_strided(size, stride, dtype=dt, device=dev, requires_grad=requires_grad)


# ------------------------------------------------------------ conversion
@op(function=False)
def to(input, *args, **kwargs) -> Tensor:
    """``to(dtype)``, ``to(device)``, ``to(device, dtype)``, ``to(other)``; ``copy=``.

    Returns ``input`` when nothing changes (unless ``copy=True``).
    """
    if not kwargs and len(args) == 1 and type(args[0]) is _dtype_cls:  # t.to(dtype)
        dt = args[0]
        return input if dt is input._dtype else _copy(input, dt, None, None)
    kwargs_format = kwargs.get("memory_format")
    if args and isinstance(args[0], (builtins.bool, builtins.float, builtins.complex)):
        # (PyTorch reads such a number as to(other) with other = tensor(number): float64
        # for a float, bool for a bool; an int is a device index)
        args = (_dtypes.as_dtype(builtins.type(args[0])),) + args[1:]
    dev, dt, copy = _parse_to(input, args, kwargs)
    cur_dev = input._storage._device
    if (dev is None or dev == cur_dev) and (dt is None or dt is input._dtype):
        if not copy and (kwargs_format is None or kwargs_format is preserve_format
                         or _layout.suggest_memory_format(input._shape, input._stride)
                         == _format_name(kwargs_format, "to")):
            return input  # (PyTorch aliases when the suggested format is the one asked)
        return _copy(input, input._dtype, kwargs_format)
    return _copy(input, input._dtype if dt is None else dt, kwargs_format, dev)


@op("type", function=False)
def _type(input: Tensor, dtype=None, non_blocking: bool = False, **kwargs):
    """The legacy type name (``'tensorviz.FloatTensor'``) or a copy as ``dtype`` (a dtype,
    legacy type or type name)."""
    if dtype is None:
        name = _TYPE_NAMES[input._dtype]
        if input._storage._device.type == "cuda":  # (PyTorch: torch.cuda.FloatTensor)
            return name.replace("tensorviz.", "tensorviz.cuda.", 1)
        return name
    if isinstance(dtype, _LegacyTensorType):
        dtype = dtype.dtype
    elif isinstance(dtype, builtins.type):  # (to(float) is float64; type(float) is not)
        raise ValueError(f"invalid type: '{dtype.__name__}'")
    if isinstance(dtype, str):
        dt = _TYPE_BY_NAME.get(dtype)
        if dt is None:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = dt
    return to(input, dtype)


@op(function=False)
def type_as(input, other: Tensor) -> Tensor:
    """``t.to(other.dtype)``."""
    return to(input, other._dtype)


@op("double", function=False)
def _double(input: Tensor) -> Tensor:
    """``t.double()`` is ``t.to(tensorviz.float64)``."""
    return to(input, _dtypes.float64)


@op("float", function=False)
def _float(input: Tensor) -> Tensor:
    """``t.float()`` is ``t.to(tensorviz.float32)``."""
    return to(input, _dtypes.float32)


@op("half", function=False)
def _half(input: Tensor) -> Tensor:
    """``t.half()`` is ``t.to(tensorviz.float16)``."""
    return to(input, _dtypes.float16)


@op("bfloat16", function=False)
def _bfloat16(input: Tensor) -> Tensor:
    """``t.bfloat16()`` is ``t.to(tensorviz.bfloat16)``."""
    return to(input, _dtypes.bfloat16)


@op("int", function=False)
def _int(input: Tensor) -> Tensor:
    """``t.int()`` is ``t.to(tensorviz.int32)``."""
    return to(input, _dtypes.int32)


@op("long", function=False)
def _long(input: Tensor) -> Tensor:
    """``t.long()`` is ``t.to(tensorviz.int64)``."""
    return to(input, _dtypes.int64)


@op("short", function=False)
def _short(input: Tensor) -> Tensor:
    """``t.short()`` is ``t.to(tensorviz.int16)``."""
    return to(input, _dtypes.int16)


@op("char", function=False)
def _char(input: Tensor) -> Tensor:
    """``t.char()`` is ``t.to(tensorviz.int8)``."""
    return to(input, _dtypes.int8)


@op("byte", function=False)
def _byte(input: Tensor) -> Tensor:
    """``t.byte()`` is ``t.to(tensorviz.uint8)``."""
    return to(input, _dtypes.uint8)


@op("bool", function=False)
def _bool(input: Tensor) -> Tensor:
    """``t.bool()`` is ``t.to(tensorviz.bool)``."""
    return to(input, _dtypes.bool)


@op("cfloat", function=False)
def _cfloat(input: Tensor) -> Tensor:
    """``t.cfloat()`` is ``t.to(tensorviz.complex64)``."""
    return to(input, _dtypes.complex64)


@op("chalf", function=False)
def _chalf_method(input: Tensor, memory_format=None) -> Tensor:
    """``t.chalf()`` is ``t.to(tensorviz.complex32)`` (two float16 an element)."""
    return to(input, _dtypes.complex32)


@op("cdouble", function=False)
def _cdouble(input: Tensor) -> Tensor:
    """``t.cdouble()`` is ``t.to(tensorviz.complex128)``."""
    return to(input, _dtypes.complex128)


@op(function=False)
def cpu(input) -> Tensor:
    """This tensor on the CPU (itself when already there)."""
    return to(input, CPU)


@op(function=False)
def cuda(input, device: DeviceLike = None, non_blocking: bool = False) -> Tensor:
    """A copy on GPU ``device`` (the current one by default); itself when already there."""
    if device is None:
        idx = current_cuda_index()
    else:
        dev = as_device(device if not isinstance(device, int) else f"cuda:{device}")
        if dev.type != "cuda":
            raise RuntimeError("Invalid device, must be cuda device")
        idx = current_cuda_index() if dev.index is None else dev.index
    return to(input, as_device(f"cuda:{idx}"))


def _parse_to(t: Tensor, args, kwargs):
    dev = dt = None
    copy = kwargs.pop("copy", False)
    kwargs.pop("non_blocking", None)
    kwargs.pop("memory_format", None)
    for a in args:
        if a is None:
            continue  # (to(None) changes nothing, as in PyTorch)
        if isinstance(a, _dtype_cls) or a in _dtypes._PY_TYPES:
            if dt is not None:
                raise TypeError("to() received an invalid combination of arguments - got "
                                "(dtype, dtype)")
            dt = _dtypes.as_dtype(a)
        elif isinstance(a, Tensor):
            dev, dt = a.device, a.dtype
        elif isinstance(a, (str, device, int)) and not isinstance(a, bool):
            dev = as_device(a if not isinstance(a, int) else f"cuda:{a}")
        elif isinstance(a, bool):
            continue  # legacy positional non_blocking / copy
        else:
            raise TypeError(f"to() received an invalid combination of arguments - got "
                            f"({type(a).__name__}); expected a dtype, a device or a tensor")
    if "dtype" in kwargs:
        dt = kwargs.pop("dtype")
        if dt is not None and not isinstance(dt, _dtype_cls):
            if dt not in _dtypes._PY_TYPES:
                raise TypeError(f"to(): dtype must be a tensorviz.dtype, got "
                                f"{type(dt).__name__}")
            dt = _dtypes.as_dtype(dt)
    if "device" in kwargs:
        d = kwargs.pop("device")
        dev = None if d is None else as_device(d)
    if kwargs:
        raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
    return dev, dt, copy


# ------------------------------------------------------------ shape and float facts
def _is_same_size_method(self: Tensor, other: Tensor) -> bool:
    if not isinstance(other, Tensor):
        raise TypeError(f"is_same_size(): argument 'other' (position 1) must be Tensor, "
                        f"not {builtins.type(other).__name__}")
    return self._shape == other._shape


@op(method=_is_same_size_method)
def is_same_size(input: Tensor, other: Tensor) -> bool:
    """True when the two tensors have the same shape (dtypes and devices may differ)."""
    for pos, (x, name) in enumerate(((input, "input"), (other, "other")), 1):
        if not isinstance(x, Tensor):
            raise TypeError(f"is_same_size(): argument '{name}' (position {pos}) must be "
                            f"Tensor, not {builtins.type(x).__name__}")
    return input._shape == other._shape


@op()
def frexp(input: Tensor, *, out=None):
    """``(mantissa, exponent)`` with ``input == mantissa * 2 ** exponent``, the mantissa in
    (-1, -0.5] or [0.5, 1) (or 0, inf, nan), of the input's dtype; the exponent int32."""
    if not isinstance(input, Tensor):
        raise TypeError(f"frexp(): argument 'input' (position 1) must be Tensor, not "
                        f"{builtins.type(input).__name__}")
    if input._dtype.category != _dtypes._FLOAT:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    if out is not None:
        if not isinstance(out, (tuple, list)) or len(out) != 2 or not all(
                isinstance(o, Tensor) for o in out):
            raise TypeError("frexp(): argument 'out' must be tuple of Tensors")
        if out[0]._dtype is not input._dtype:
            raise RuntimeError(f"torch.frexp() expects mantissa to have dtype "
                               f"{input._dtype.cxx_name} but got "
                               f"{out[0]._dtype.cxx_name}")
        if out[1]._dtype is not _dtypes.int32:
            raise RuntimeError(f"torch.frexp() expects exponent to have int dtype but got "
                               f"{out[1]._dtype.cxx_name}")
    be = input._storage._backend
    mantissa, exponent = be.xp.frexp(input._arr)
    dev = input._storage._device
    if out is not None:
        # (PyTorch's TensorIterator over both outputs and the input: an output of another
        # shape is resized, laid out from the input and an output that keeps its layout)
        shape = input._shape
        stride = _layout.elementwise_strides(shape, [
            (o._shape, o._stride) for o in out if o._shape == shape] + [(shape, input._stride)])
        write_out(out[0], mantissa, input._dtype, dev, stride)
        write_out(out[1], exponent.astype(np.int32, copy=False), _dtypes.int32, dev, stride)
        return return_types.frexp_out(*out)
    # (PyTorch computes into two empty_like(input): a dense input's strides are kept)
    stride = _layout.preserve_strides(input._shape, input._stride)
    return return_types.frexp(wrap_array(mantissa, input._dtype, dev, stride),
                              wrap_array(exponent.astype(np.int32, copy=False), _dtypes.int32,
                                         dev, stride))


# ------------------------------------------------------------ complex from two real tensors
_HALF_FLOAT_DOUBLE = ("float16", "float32", "float64")


def _complex_operands(fn: str, a, b, names: tuple, out):
    for pos, (x, name) in enumerate(zip((a, b), names), 1):
        if not isinstance(x, Tensor):
            raise TypeError(f"{fn}(): argument '{name}' (position {pos}) must be Tensor, not "
                            f"{type(x).__name__}")
    if a._dtype.name not in _HALF_FLOAT_DOUBLE or b._dtype.name not in _HALF_FLOAT_DOUBLE:
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{a._dtype.cname} and {b._dtype.cname}")
    if a._dtype is not b._dtype:
        raise RuntimeError(f"Expected object of scalar type {a._dtype.cname} but got scalar "
                           f"type {b._dtype.cname} for second argument")
    dev = device_of(a, b)
    shape = _layout.broadcast_shapes(a._shape, b._shape)
    if a._dtype is _dtypes.float16 and fn == "polar":
        raise NotImplementedError("\"polar_cpu\" not implemented for 'Half'")
    rdt = a._dtype.to_complex()
    if out is not None:
        if not isinstance(out, Tensor):
            raise TypeError(f"{fn}(): argument 'out' must be Tensor, not {type(out).__name__}")
        if out._dtype is not rdt:
            raise RuntimeError(f"Expected object of scalar type {rdt.cname} but got scalar "
                               f"type {out._dtype.cname} for argument 'out'")
    return rdt, dev, shape, result_strides(shape, a, b)


def _complex_result(fn: str, a: Tensor, b: Tensor, rdt, dev, shape, stride, out, compute):
    xp = a._storage._backend.xp
    # (complex32: computed in complex64, exact for float16 parts; finish rounds nothing)
    res = xp.empty(shape, np.complex64 if rdt is _dtypes.complex32 else rdt._np)
    ra, rb = xp.broadcast_to(a._arr, shape), xp.broadcast_to(b._arr, shape)
    call_quiet(compute, xp, res, ra, rb)
    return finish(res, rdt, dev, out, stride, (a, b))


def _set_parts(xp, res, re, im) -> None:
    res.real = re
    res.imag = im


def _set_polar(xp, res, r, theta) -> None:
    res.real = r * xp.cos(theta)
    res.imag = r * xp.sin(theta)


@op("complex", method=False)
def _complex(real: Tensor, imag: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``real + imag * 1j`` as a complex tensor (float16 -> complex32, float32 -> complex64,
    float64 -> complex128);
    both inputs must have the same floating dtype and broadcast together."""
    rdt, dev, shape, stride = _complex_operands("complex", real, imag, ("real", "imag"), out)
    return _complex_result("complex", real, imag, rdt, dev, shape, stride, out, _set_parts)


# (``tensorviz.complex``; not bound as ``complex`` here, where the builtin is still needed)
_complex.__name__ = _complex.__qualname__ = "complex"


@op(method=False)
def polar(abs: Tensor, angle: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The complex tensor with absolute value ``abs`` and phase ``angle``:
    ``abs * cos(angle) + abs * sin(angle) * 1j``."""
    rdt, dev, shape, stride = _complex_operands("polar", abs, angle, ("abs", "angle"), out)
    return _complex_result("polar", abs, angle, rdt, dev, shape, stride, out, _set_polar)

