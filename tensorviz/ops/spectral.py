"""Spectral ops: ``tensorviz.fft`` (fft, rfft, fftn, fftfreq, fftshift ...), ``stft``/``istft``
and the window functions.

Transforms run on the backend's ``xp.fft`` (pocketfft in NumPy, cuFFT through CuPy).  As in
PyTorch: integer/bool inputs are read as the default float dtype, single precision stays single
(``float32 -> complex64``), and the result keeps the transformed dims innermost in memory::

    fft(x)[k] = sum_n x[n] * exp(-2j * pi * k * n / N)     (norm="backward")
"""
from __future__ import annotations

import builtins
import math
import warnings

import numpy as np

from .. import _autograd_meta as _ag_meta, _dtypes, _layout
from .._dispatch import op, write_out
from .._dtypes import _COMPLEX, _FLOAT
from .._device import as_device
from .._tensor import Tensor, wrap_array
from ..backends import backend_for
from ..backends._numpy import call_quiet
from .indexing import _c, _ufunc_at, _xp, warn_once
from .pointwise import _check_tensor


_NORMS = (None, "backward", "ortho", "forward")

#: ``tensorviz.fft.<name>`` (functions only, as PyTorch's ``torch.fft``)
_fft_op = op(namespace="fft", method=False)


# ---------------------------------------------------------------- helpers
def _check_norm(norm) -> None:
    if norm not in _NORMS:
        raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _fft_input(x: Tensor, fn: str, real_only: bool = False):
    """The input array in the dtype the transform runs in (float or complex, never half)."""
    _check_tensor(f"fft_{fn}", x, "input", 1)
    dt = x._dtype
    if real_only and dt.category == _COMPLEX:
        raise RuntimeError(f"{fn} expects a real input tensor, but got {dt.cname}")
    arr = x._arr
    if dt.category < _FLOAT:
        dt = _dtypes.get_default_dtype()
        arr = arr.astype(dt._np)
    if dt in _dtypes.HALVES:
        raise RuntimeError(f"Unsupported dtype {dt.cname}")
    return x, arr, dt


def _layout_last(xp, res, dims, in_stride):
    """``res`` laid out as PyTorch's FFTs leave it: the input's dim order in memory, with the
    transformed ``dims`` moved innermost."""
    nd = res.ndim
    dims = {d % nd for d in dims}
    by_memory = sorted(range(nd), key=lambda d: -in_stride[d]) if len(in_stride) == nd \
        else list(range(nd))
    order = [d for d in by_memory if d not in dims] + [d for d in by_memory if d in dims]
    if order == list(range(nd)):
        return _c(xp, res)
    moved = _c(xp, xp.transpose(res, order))
    inverse = np.argsort(order)
    return xp.transpose(moved, tuple(int(i) for i in inverse))


def _default_points(name: str, size: int) -> int:
    """The transform length PyTorch takes when ``n``/``s`` is not given for a dim of
    ``size``: ``2 * (size - 1)`` for the transforms with a real output, else ``size``."""
    return 2 * (size - 1) if name in ("irfft", "hfft", "irfft2", "irfftn") else size


def _check_n(n) -> None:
    if n is not None and n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


def _one_dim(name: str, input, n, dim, norm, *, real_in=False, out=None):
    x, arr, dt = _fft_input(input, name, real_only=real_in)
    _check_norm(norm)
    _check_n(n)
    if not x._shape:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = _layout.normalize_dim(dim, len(x._shape))
    if n is None:  # (the default length from the dim: NumPy would raise its own ValueError)
        _check_n(_default_points(name, x._shape[d]))
    xp = _xp(x)
    fn = getattr(xp.fft, name)
    res = call_quiet(fn, arr, n=n, axis=d, norm=norm)
    return _finish_fft(res, x, [d], name, out)


def _finish_fft(res, x: Tensor, dims, name: str, out) -> Tensor:
    xp = _xp(x)
    real_out = name in ("irfft", "hfft", "irfftn", "irfft2")
    single = x._dtype in (_dtypes.float32, _dtypes.complex64) or x._dtype.category < _FLOAT \
        and _dtypes.get_default_dtype() is _dtypes.float32
    if real_out:
        rdt = _dtypes.float32 if single else _dtypes.float64
    else:
        rdt = _dtypes.complex64 if single else _dtypes.complex128
    res = _layout_last(xp, res.astype(rdt._np, copy=False), dims, x._stride)
    if out is not None:
        if isinstance(out, Tensor) and (out._dtype.category == _COMPLEX) != (not real_out):
            fname = name[:-1] + "n" if name.endswith("2") else name  # (fft2 is fftn's)
            kind = "a floating point" if real_out else "a complex"
            raise RuntimeError(f"{fname} expects {kind} output tensor, but got "
                               f"{out._dtype.cname}")
        return write_out(out, res, rdt, x.device)
    if name in ("ifft", "ihfft") and x._dtype.category != _COMPLEX:
        # PyTorch computes the inverse of a real signal as the conjugate of the forward
        # real-to-complex transform and returns that as a lazy conjugate view
        return wrap_array(xp.conj(res), rdt, x.device, _strides_of(res)).conj()
    return wrap_array(res, rdt, x.device)


def _strides_of(arr) -> tuple:
    return tuple(s // arr.itemsize for s in arr.strides)


@_fft_op
def fft(input, n=None, dim: int = -1, norm=None, *, out=None) -> Tensor:
    """The 1-D discrete Fourier transform along ``dim`` (``n``: crop or zero-pad first)."""
    return _one_dim("fft", input, n, dim, norm, out=out)


@_fft_op
def ifft(input, n=None, dim: int = -1, norm=None, *, out=None) -> Tensor:
    """The inverse of ``fft``."""
    return _one_dim("ifft", input, n, dim, norm, out=out)


@_fft_op
def rfft(input, n=None, dim: int = -1, norm=None, *, out=None) -> Tensor:
    """``fft`` of a real input, keeping the ``n // 2 + 1`` non-redundant frequencies."""
    return _one_dim("rfft", input, n, dim, norm, real_in=True, out=out)


@_fft_op
def irfft(input, n=None, dim: int = -1, norm=None, *, out=None) -> Tensor:
    """The inverse of ``rfft``: a real signal of length ``n`` (default ``2 * (m - 1)``)."""
    return _one_dim("irfft", input, n, dim, norm, out=out)


@_fft_op
def hfft(input, n=None, dim: int = -1, norm=None, *, out=None) -> Tensor:
    """The FFT of a Hermitian-symmetric signal given by its first half: a real spectrum."""
    return _one_dim("hfft", input, n, dim, norm, out=out)


@_fft_op
def ihfft(input, n=None, dim: int = -1, norm=None, *, out=None) -> Tensor:
    """The inverse of ``hfft``."""
    return _one_dim("ihfft", input, n, dim, norm, real_in=True, out=out)


def _nd(name: str, input, s, dim, norm, default_dims, out):
    x, arr, dt = _fft_input(input, name, real_only=name.startswith("rfft"))
    _check_norm(norm)
    ndim = len(x._shape)
    if s is not None:
        s = [builtins.int(v) for v in s]
        if dim is None and default_dims is None and len(s) > ndim:
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has {ndim} "
                               "dimensions.")
    if dim is None:
        if default_dims is not None:
            dims = [d for d in default_dims]
            dims = [_layout.normalize_dim(d, ndim) for d in dims]
        elif s is not None:
            dims = list(range(ndim - len(s), ndim))
        else:
            dims = list(range(ndim))
    else:
        dims = [dim] if isinstance(dim, builtins.int) else list(dim)
        dims = [_layout.normalize_dim(d, ndim) for d in dims]
    if s is not None:
        if len(s) != len(dims):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        for v in s:
            if v < 1 and v != -1:
                raise RuntimeError(f"Invalid number of data points ({v}) specified")
        s = [x._shape[d] if v == -1 else v for v, d in zip(s, dims)]
    if len(set(dims)) != len(dims):
        raise RuntimeError("FFT dims must be unique")
    for i, d in enumerate(dims):  # (empty dims: PyTorch's error, not NumPy's ValueError)
        if s is None:
            _check_n(x._shape[d] if i < len(dims) - 1 else _default_points(name, x._shape[d]))
        elif s[i] < 1:
            _check_n(s[i])
    xp = _xp(x)
    fn = getattr(xp.fft, name)
    if not dims:  # nothing to transform: a (complex) copy
        return _finish_fft(xp.array(arr, copy=True), x, dims, name, out)
    res = call_quiet(fn, arr, s=s, axes=dims, norm=norm)
    return _finish_fft(res, x, dims, name, out)


@_fft_op
def fft2(input, s=None, dim=(-2, -1), norm=None, *, out=None) -> Tensor:
    return _nd("fft2", input, s, None, norm, dim, out)


@_fft_op
def ifft2(input, s=None, dim=(-2, -1), norm=None, *, out=None) -> Tensor:
    return _nd("ifft2", input, s, None, norm, dim, out)


@_fft_op
def rfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None) -> Tensor:
    return _nd("rfft2", input, s, None, norm, dim, out)


@_fft_op
def irfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None) -> Tensor:
    return _nd("irfft2", input, s, None, norm, dim, out)


@_fft_op
def fftn(input, s=None, dim=None, norm=None, *, out=None) -> Tensor:
    """The N-D transform over ``dim`` (all dims, or the last ``len(s)``, by default)."""
    return _nd("fftn", input, s, dim, norm, None, out)


@_fft_op
def ifftn(input, s=None, dim=None, norm=None, *, out=None) -> Tensor:
    return _nd("ifftn", input, s, dim, norm, None, out)


@_fft_op
def rfftn(input, s=None, dim=None, norm=None, *, out=None) -> Tensor:
    return _nd("rfftn", input, s, dim, norm, None, out)


@_fft_op
def irfftn(input, s=None, dim=None, norm=None, *, out=None) -> Tensor:
    return _nd("irfftn", input, s, dim, norm, None, out)


def _freq_dtype(dtype, fn: str):
    from .._creation import _check_dtype
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    if dt.category < _FLOAT:
        raise RuntimeError(f"{fn} requires a floating point or complex dtype")
    if dt.category == _COMPLEX:  # (PyTorch builds it with arange, which has no complex kernel)
        raise NotImplementedError(f'"arange_cpu" not implemented for \'{dt.cname}\'')
    return dt


def _out_dtype(dtype, out):
    """The dtype asked for: ``dtype``, else that of ``out=`` (PyTorch fills ``out`` itself)."""
    return out.dtype if dtype is None and isinstance(out, Tensor) else dtype


def _freq(host: np.ndarray, dt, device, requires_grad: bool) -> Tensor:
    dev = as_device(device)
    if dt is not _dtypes.complex32:  # (complex32: wrap_array rounds each part)
        host = host.astype(dt._np)
    arr = backend_for(dev).from_host(np.ascontiguousarray(host), dev)
    t = wrap_array(arr, dt, dev)
    if requires_grad:
        _ag_meta.set_requires_grad(t, True, _ag_meta.FACTORY)
    return t


def _freq_n(n, fn: str) -> int:
    """``n`` of fftfreq/rfftfreq as an int (a 0-dim integer tensor too); TypeError else."""
    if isinstance(n, Tensor) and not n._shape and n._dtype.category == _dtypes._INT:
        return builtins.int(n.item())
    if isinstance(n, (builtins.int, np.integer)) and not isinstance(n, (builtins.bool,
                                                                         np.bool_)):
        return builtins.int(n)
    raise TypeError(f"{fn}(): argument 'n' (position 1) must be int, not {type(n).__name__}")


@_fft_op
def fftfreq(n: int, d: float = 1.0, *, out=None, dtype=None, layout=None, device=None,
            requires_grad: bool = False) -> Tensor:
    """The sample frequencies of an ``n``-point FFT: ``[0, 1, ..., -2, -1] / (d * n)``."""
    dt = _freq_dtype(_out_dtype(dtype, out), "fftfreq")
    n = _freq_n(n, "fft_fftfreq")
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    host = np.fft.fftfreq(n, d) if n else np.zeros(0)
    res = _freq(host, dt, device, requires_grad)
    return res if out is None else _write(out, res)


@_fft_op
def rfftfreq(n: int, d: float = 1.0, *, out=None, dtype=None, layout=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """The sample frequencies of ``rfft``: ``[0, 1, ..., n // 2] / (d * n)``."""
    dt = _freq_dtype(_out_dtype(dtype, out), "rfftfreq")
    n = _freq_n(n, "fft_rfftfreq")
    if n > 0:
        host = np.fft.rfftfreq(n, d)
    else:  # (PyTorch: arange(trunc(n / 2) + 1) / (n * d): [nan] for 0, [-0.] for -1 ...)
        m = int(n / 2) + 1
        if m < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {m}: [{m}]")
        with np.errstate(all="ignore"):
            host = np.arange(m, dtype=np.float64) / (np.float64(n) * d)
    res = _freq(host, dt, device, requires_grad)
    return res if out is None else _write(out, res)


def _write(out: Tensor, res: Tensor) -> Tensor:
    return write_out(out, res._arr, res._dtype, res.device)


def _shift(input, dim, sign: int) -> Tensor:
    from .joining import roll
    _check_tensor("fftshift", input, "input", 1)
    n = len(input._shape)
    if dim is None:
        dims = list(range(n))
    else:
        dims = [dim] if isinstance(dim, builtins.int) else list(dim)
    dims = [_layout.normalize_dim(d, n) for d in dims]
    if not dims:
        return input.clone()
    shifts = [sign * (input._shape[d] // 2) for d in dims]
    return roll(input, shifts, dims)


@_fft_op
def fftshift(input, dim=None) -> Tensor:
    """Move the zero frequency to the centre (a ``roll`` by ``n // 2`` along ``dim``)."""
    return _shift(input, dim, 1)


@_fft_op
def ifftshift(input, dim=None) -> Tensor:
    """The inverse of ``fftshift``."""
    return _shift(input, dim, -1)


# ---------------------------------------------------------------- windows
def _window(name: str, window_length: int, periodic: bool, dtype, device, requires_grad,
            make, typed: bool = False) -> Tensor:
    """A window of ``make(k, n)`` (float64 ``k = 0 .. n-1``), or ``make(k, n, dtype)`` when
    ``typed`` (computed in the window's own precision)."""
    from .._creation import _check_dtype
    if isinstance(window_length, builtins.bool) or not hasattr(window_length, "__index__"):
        raise TypeError(f"{name}(): argument 'window_length' (position 1) must be int, not "
                        f"{type(window_length).__name__}")
    dt = _check_dtype(dtype) or _dtypes.get_default_dtype()
    if dt.category < _FLOAT:
        raise RuntimeError(f"{name} expects floating point dtypes, got: {dt.cname}")
    window_length = builtins.int(window_length)
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got "
                           f"window_length={window_length}")
    if window_length == 0:
        host = np.zeros(0)
    elif window_length == 1:
        host = np.ones(1)
    elif dt.category == _COMPLEX:  # (complex windows are built on arange, which refuses them)
        raise NotImplementedError(f'"arange_cpu" not implemented for \'{dt.cname}\'')
    else:
        n = window_length + 1 if periodic else window_length
        try:
            host = make(np.arange(n, dtype=np.float64), n, dt) if typed else \
                make(np.arange(n, dtype=np.float64), n)
        except MemoryError:  # (PyTorch's error for a length no memory can hold)
            from ..backends._numpy import out_of_memory
            raise out_of_memory(n * dt.itemsize) from None
        if periodic:
            host = host[:-1]
    return _freq(host, dt, device, requires_grad)


@op(method=False)
def hann_window(window_length: int, periodic: bool = True, *, dtype=None, layout=None,
                device=None, requires_grad: bool = False) -> Tensor:
    """``0.5 - 0.5 cos(2 pi n / (N - 1))`` (``periodic``: the first ``N`` of ``N + 1``)."""
    return _window("hann_window", window_length, periodic, dtype, device, requires_grad,
                   _hamming(0.5, 0.5), typed=True)


@op(method=False)
def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54,
                   beta: float = 0.46, *, dtype=None, layout=None, device=None,
                   requires_grad: bool = False) -> Tensor:
    """``alpha - beta cos(2 pi n / (N - 1))``."""
    return _window("hamming_window", window_length, periodic, dtype, device, requires_grad,
                   _hamming(alpha, beta), typed=True)


def _hamming(alpha: float, beta: float):
    """The Hamming window (Hann's is alpha = beta = 0.5) as PyTorch computes it, op by op in
    the window's dtype (halves in float32, rounded after each op): ``arange(n)`` in the dtype
    (a float16 index past 65504 is inf, and its window NaN), ``* (2 pi / (n - 1))``, ``cos``,
    ``* -beta``, ``+ alpha``, the numbers rounded to the dtype.

    >>> _hamming(0.54, 0.46)(np.arange(3.0), 3, _dtypes.float32)
    array([0.08000001, 1.        , 0.08000001], dtype=float32)
    """
    # (the indices are arange's, which PyTorch's vector loop rounds block by block: see
    # _creation._vector_arange)
    def make(k, n: int, dt):
        from .._creation import _vector_arange
        t = np.dtype(dt._np).type
        c = np.float32 if dt in _dtypes.HALVES else t

        def r(v):  # (one op's result in the window's dtype, back in the compute dtype)
            return np.asarray(v, dtype=c).astype(t).astype(c)
        with np.errstate(all="ignore"):
            k = _vector_arange(0.0, 1.0, n, dt)
            w = r(r(k) * c(t(2 * math.pi / (n - 1))))
            cw = r(np.cos(w.astype(np.float64)).astype(c))
            return r(r(cw * c(t(-beta))) + c(t(alpha))).astype(t)
    return make


@op(method=False)
def blackman_window(window_length: int, periodic: bool = True, *, dtype=None, layout=None,
                    device=None, requires_grad: bool = False) -> Tensor:
    """``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``."""
    return _window("blackman_window", window_length, periodic, dtype, device, requires_grad,
                   _blackman, typed=True)


def _blackman(k, n: int, dt):
    """The Blackman window as PyTorch computes it, op by op in the window's dtype (halves in
    float32, rounded after each op): ``w = k * (pi / (n - 1))``, then
    ``cos(4 w) * 0.08 - cos(2 w) * 0.5 + 0.42``, so its ends are -2.98e-08 in float32 (not
    0), where ``rsqrt`` is nan.

    >>> _blackman(np.arange(3.0), 3, _dtypes.float32)[0]
    np.float32(-2.9802322e-08)
    """
    t = np.dtype(dt._np).type
    c = np.float32 if dt in _dtypes.HALVES else t

    def r(v):  # (one op's result in the window's dtype, back in the compute dtype)
        return np.asarray(v, dtype=c).astype(t).astype(c)
    from .._creation import _vector_arange
    with np.errstate(all="ignore"):  # (a float16 index past 65504 is inf, its window NaN)
        k = _vector_arange(0.0, 1.0, n, dt)  # (arange's indices: see _hamming)
        w = r(r(k) * c(t(math.pi / (n - 1))))
        a = r(r(np.cos(r(w * c(4)))) * c(t(0.08)))
        b = r(r(np.cos(r(w * c(2)))) * c(0.5))
        return r(r(a - b) + c(t(0.42))).astype(t)  # (the added number in the window's dtype)


@op(method=False)
def bartlett_window(window_length: int, periodic: bool = True, *, dtype=None, layout=None,
                    device=None, requires_grad: bool = False) -> Tensor:
    """The triangle ``1 - |2 n / (N - 1) - 1|``."""
    return _window("bartlett_window", window_length, periodic, dtype, device, requires_grad,
                   _bartlett, typed=True)


def _bartlett(k, n: int, dt):
    """The Bartlett window as PyTorch computes it, op by op in the window's dtype (halves in
    float32, rounded after each op): ``w = arange(n) * (2 / (n - 1))`` (the number rounded
    to the dtype), then ``2 - w`` past the middle (``w * -1 + 2``). A bfloat16 index past
    256 is rounded (arange's), so a long bfloat16 window is a staircase whose right end is
    ``2 - 1.9921875``, not 0.

    >>> _bartlett(np.arange(5.0), 5, _dtypes.float32)
    array([0. , 0.5, 1. , 0.5, 0. ], dtype=float32)
    """
    t = np.dtype(dt._np).type
    c = np.float32 if dt in _dtypes.HALVES else t

    def r(v):  # (one op's result in the window's dtype, back in the compute dtype)
        return np.asarray(v, dtype=c).astype(t).astype(c)
    from .._creation import _vector_arange
    with np.errstate(all="ignore"):  # (a float16 index past 65504 is inf)
        k = _vector_arange(0.0, 1.0, n, dt)  # (arange's indices: see _hamming)
        w = r(r(k) * c(t(2.0 / (n - 1))))
        h = ((n - 1) >> 1) + 1  # (PyTorch's first half: the rest is mirrored in place)
        w[h:] = r(r(w[h:] * c(-1)) + c(2))
        return w.astype(t)


@op(method=False)
def kaiser_window(window_length: int, periodic: bool | None = None, beta: float | None = None,
                  *, dtype=None, layout=None, device=None, requires_grad: bool = False) -> Tensor:
    """``I0(beta sqrt(1 - ((n - N/2) / (N/2))^2)) / I0(beta)`` (``I0``: Bessel, order 0);
    ``periodic`` is True and ``beta`` 12.0 unless given (``beta`` only with ``periodic``, as
    PyTorch's overloads): ``kaiser_window(8, True, 5.0)``."""
    if beta is not None and periodic is None:
        raise TypeError(f"kaiser_window() received an invalid combination of arguments - got "
                        f"(int, beta={type(beta).__name__}), but expected one of: (int "
                        "window_length, *, ...), (int window_length, bool periodic, *, ...), "
                        "(int window_length, bool periodic, float beta, *, ...): give "
                        "periodic too, e.g. kaiser_window(n, True, beta)")
    if periodic is not None and periodic is not True and periodic is not False:
        raise TypeError(f"kaiser_window() received an invalid combination of arguments - got "
                        f"(int, periodic={type(periodic).__name__}), but expected one of: (int "
                        "window_length, bool periodic, float beta, *, torch.dtype dtype, ...)")
    periodic = True if periodic is None else periodic
    beta = 12.0 if beta is None else beta
    if isinstance(beta, builtins.bool):  # (PyTorch's parser reads a bool as a float here)
        beta = builtins.float(beta)
    if isinstance(beta, (builtins.complex, str)):
        raise TypeError(f"kaiser_window() received an invalid combination of arguments - got "
                        f"(int, beta={type(beta).__name__}), but expected one of: (int "
                        "window_length, bool periodic, float beta, *, torch.dtype dtype, ...)")

    def make(k, n, dt):
        # In the window's compute precision, as PyTorch's kernel (float for float32, float16
        # and bfloat16, double for float64): I0 past float32's range is inf there, so a
        # float32 window with beta=100 is nan (inf / inf) where float64's is finite.
        from .special_functions import _i0
        ft = np.float64 if dt is _dtypes.float64 else np.float32
        a, alpha, b = k.astype(ft), ft((n - 1) / 2.0), np.full(1, beta, dtype=ft)
        with np.errstate(all="ignore"):  # (a huge beta: inf / inf is nan, as PyTorch's)
            x = b * np.sqrt(np.abs(ft(1) - ((a - alpha) / alpha) ** ft(2)))
            single = ft is np.float32
            return _i0(np, x, single) / _i0(np, b, single)
    return _window("kaiser_window", window_length, periodic, dtype, device, requires_grad,
                   make, typed=True)


# ---------------------------------------------------------------- stft / istft
_NO_WINDOW = ("A window was not provided. A rectangular window will be applied,which is known "
              "to cause spectral leakage. Other windows such as torch.hann_window or "
              "torch.hamming_window are recommended to reduce spectral leakage.To suppress this "
              "warning and use a rectangular window, explicitly set "
              "`window=torch.ones(n_fft, device=<device>)`.")


def _padded_window(xp, window, win_length: int, n_fft: int, dt):
    """The window (ones when None) zero-padded to ``n_fft``, centred."""
    if window is None:
        w = xp.ones(win_length, dtype=dt._np)
    else:
        if window.dim() != 1 or window._shape[0] != win_length:
            raise RuntimeError(f"stft: expected a 1D window tensor of size equal to "
                               f"win_length={win_length}, but got window with size "
                               f"{list(window._shape)}")
        w = window._arr.astype(dt._np)
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        full = xp.zeros(n_fft, dtype=dt._np)
        full[left:left + win_length] = w
        w = full
    return w


@op()
def stft(input, n_fft: int, hop_length=None, win_length=None, window=None, center: bool = True,
         pad_mode: str = "reflect", normalized: bool = False, onesided=None,
         return_complex=None) -> Tensor:
    """The short-time Fourier transform: the FFT of each windowed frame, shape
    ``(*, n_freq, n_frames)`` (``n_freq = n_fft // 2 + 1`` when one-sided)."""
    _check_tensor("stft", input, "input", 1)
    if window is None:
        warn_once(_NO_WINDOW)
    complex_in = input._dtype.category == _COMPLEX or (
        window is not None and window._dtype.category == _COMPLEX)
    if return_complex is None:
        if not complex_in:
            raise RuntimeError("stft requires the return_complex parameter be given for real "
                               "inputs, and will further require that return_complex=True in "
                               "a future PyTorch release.")
        return_complex = True
    if input.dim() not in (1, 2):
        raise RuntimeError(f"stft: expected a 1D or 2D tensor, but got {input.dim()}D")
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if n_fft <= 0:
        raise RuntimeError(f"stft: expected 0 < n_fft, but got n_fft={n_fft}")
    if hop <= 0:
        raise RuntimeError(f"stft: expected hop_length > 0, but got hop_length={hop}")
    if win <= 0 or win > n_fft:
        raise RuntimeError(f"stft: expected 0 < win_length <= n_fft, but got "
                           f"win_length={win}")
    if onesided is None:
        onesided = not complex_in
    elif onesided and complex_in:
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    xp = _xp(input)
    dt = input._dtype if input._dtype.category >= _FLOAT else _dtypes.get_default_dtype()
    if window is not None:
        dt = _dtypes.PROMOTION_TABLE[(dt, window._dtype)]
    x = input._arr.astype(dt._np, copy=False)
    batched = x.ndim == 2
    if not batched:
        x = x[None]
    if center:
        pad = n_fft // 2
        if pad_mode == "reflect" and pad >= x.shape[-1]:
            raise RuntimeError(f"Argument #4: Padding size should be less than the "
                               f"corresponding input dimension, but got: padding ({pad}, {pad}) "
                               f"at dimension 2 of input [{x.shape[0]}, 1, {x.shape[-1]}]")
        mode = {"reflect": "reflect", "constant": "constant", "replicate": "edge",
                "circular": "wrap"}.get(pad_mode)
        if mode is None:
            raise RuntimeError(f"stft: unsupported pad_mode {pad_mode}")
        x = xp.pad(x, ((0, 0), (pad, pad)), mode=mode)
    length = x.shape[-1]
    if n_fft > length:
        raise RuntimeError(f"stft: expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    n_frames = 1 + (length - n_fft) // hop
    w = _padded_window(xp, window, win, n_fft, dt)
    idx = xp.arange(n_frames)[:, None] * hop + xp.arange(n_fft)[None, :]
    frames = x[:, idx] * w  # (batch, n_frames, n_fft)
    norm = "ortho" if normalized else None
    spec = call_quiet(xp.fft.rfft if onesided else xp.fft.fft, frames, axis=-1, norm=norm)
    cdt = dt.to_complex()
    spec = _c(xp, spec.astype(cdt._np, copy=False))      # (batch, frames, freq) in memory
    spec = xp.swapaxes(spec, -1, -2)                      # viewed as (batch, freq, frames)
    if not batched:
        spec = spec[0]
    if not return_complex:
        warnings.warn("stft with return_complex=False is deprecated. In a future pytorch "
                      "release, stft will return complex tensors for all inputs, and "
                      "return_complex=False will raise an error.\nNote: you can still call "
                      "torch.view_as_real on the complex output to recover the old return "
                      "format.", UserWarning, stacklevel=2)
        real = xp.stack([spec.real, spec.imag], axis=-1)
        return wrap_array(_c(xp, real), dt, input.device)
    return wrap_array(spec, cdt, input.device)


@op()
def istft(input, n_fft: int, hop_length=None, win_length=None, window=None,
          center: bool = True, normalized: bool = False, onesided=None, length=None,
          return_complex: bool = False) -> Tensor:
    """The inverse of ``stft``: inverse FFT of each frame, windowed overlap-add, divided by
    the summed squared window (which must not vanish anywhere: the NOLA condition)."""
    _check_tensor("istft", input, "input", 1)
    if input._dtype.category != _COMPLEX:
        raise RuntimeError("istft requires a complex-valued input tensor.")
    if input.dim() not in (2, 3):
        raise RuntimeError(f"istft: expected a tensor with 2 or 3 dimensions of complex, got "
                           f"{input.dim()}")
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    xp = _xp(input)
    spec = input._arr
    batched = spec.ndim == 3
    if not batched:
        spec = spec[None]
    n_freq, n_frames = spec.shape[-2:]
    if onesided is None:
        onesided = n_freq != n_fft
    if onesided and return_complex:
        raise RuntimeError("cannot have onesided output if window or input is complex")
    if onesided and n_freq != n_fft // 2 + 1:
        raise RuntimeError(f"istft: expected the frequency dimension (3rd to the last) of the "
                           f"input tensor to match n_fft / 2 + 1 when onesided=True, but got "
                           f"{n_freq}")
    rdt = input._dtype.to_real()
    w = _padded_window(xp, window, win, n_fft, rdt)
    norm = "ortho" if normalized else None
    frames_spec = xp.swapaxes(spec, -1, -2)  # (batch, frames, freq)
    if onesided:
        frames = call_quiet(xp.fft.irfft, frames_spec, n=n_fft, axis=-1, norm=norm)
    elif not return_complex:
        # PyTorch keeps the first n_fft // 2 + 1 bins of a two-sided spectrum and inverts
        # them as a one-sided one (a real result), rather than taking ifft's real part
        frames = call_quiet(xp.fft.irfft, frames_spec[..., :n_fft // 2 + 1], n=n_fft, axis=-1,
                            norm=norm)
    else:
        frames = call_quiet(xp.fft.ifft, frames_spec, n=n_fft, axis=-1, norm=norm)
    frames = frames * w
    total = n_fft + hop * (n_frames - 1)
    out_dt = input._dtype if return_complex else rdt
    y = xp.zeros((frames.shape[0], total), dtype=out_dt._np)
    env = xp.zeros(total, dtype=rdt._np)
    idx = xp.arange(n_frames)[:, None] * hop + xp.arange(n_fft)[None, :]
    owner = wrap_array(y, out_dt, input.device)
    _ufunc_at(owner, "add", y, (slice(None), idx), frames.astype(out_dt._np, copy=False))
    _ufunc_at(owner, "add", env, idx, xp.broadcast_to(w * w, idx.shape).astype(rdt._np))
    start = n_fft // 2 if center else 0
    if length is not None:
        end = start + length
    elif center:
        end = total - n_fft // 2
    else:
        end = total
    end_avail = min(end, total)
    y = y[:, start:end_avail]
    env = env[start:end_avail]
    if env.size and builtins.float(xp.abs(env).min()) < 1e-11:
        raise RuntimeError("istft: window overlap add min: 1 (the window does not satisfy the "
                           "NOLA condition: the summed squared windows vanish somewhere)")
    y = call_quiet(xp.divide, y, env)
    if length is not None and end > total:
        y = xp.concatenate([y, xp.zeros((y.shape[0], end - total), dtype=y.dtype)], axis=-1)
    if not batched:
        y = y[0]
    return wrap_array(_c(xp, y.astype(out_dt._np, copy=False)), out_dt, input.device)
