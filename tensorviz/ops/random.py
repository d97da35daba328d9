"""Random sampling ops: ``bernoulli``, ``multinomial``, ``poisson`` and the in-place fills
(``uniform_``, ``normal_``, ``random_``, ``exponential_``, ``geometric_``, ``log_normal_``,
``cauchy_``, ``bernoulli_``).

Samples come from ``tensorviz._random``'s generators (the default one, or ``generator=``), drawn
on the host and moved to the tensor's device: reproducible under ``manual_seed`` on every
device.  # Note: the streams differ from PyTorch's (its Mersenne Twister / Philox).
"""
from __future__ import annotations

import builtins

import numpy as np

from .. import _dtypes
from .._dispatch import inplace_of, op, write_out
from .._dtypes import _COMPLEX, _FLOAT, _INT
from .._indexing import check_writable
from .._random import _gen, _normal_host, _uniform_host
from .._tensor import Tensor, host_array, wrap_array
from .indexing import _xp
from .pointwise import _check_tensor


def _to_device(host: np.ndarray, like: Tensor):
    """Host samples placed on ``like``'s device (the CPU backend keeps the array itself)."""
    return like._storage._backend.from_host(host, like.device)


def _fill(self: Tensor, host: np.ndarray) -> Tensor:
    """Write host samples (shaped like ``self``) into ``self`` in place, through any layout."""
    check_writable(self)
    with np.errstate(all="ignore"):
        values = host.astype(self._dtype._np, copy=False)
    self._arr[...] = _to_device(values, self)
    self._bump()
    return self


def _host(t: Tensor) -> np.ndarray:
    """``t``'s values on the host (a meta tensor's placeholder: no values, nothing drawn)."""
    if _on_meta(t):
        return t._arr
    return np.asarray(host_array(t))


def _on_meta(t: Tensor) -> bool:
    return t._storage._device.type == "meta"


def _float_only(self: Tensor, kernel: str) -> None:
    if self._dtype.category < _FLOAT:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{self._dtype.cname}\'')


# ---------------------------------------------------------------- in-place fills
def _bound_check(value, dt, what: str) -> None:
    if dt.category >= _FLOAT:
        limit = _dtypes.np_finfo(dt.to_real()._np).max
        if not (-limit <= value <= limit):
            raise RuntimeError(f"{what} is out of bounds for {dt.to_real().cxx_name}")


@op(function=False)
def uniform_(self: Tensor, from_: float = 0.0, to: float = 1.0, *, generator=None,
             **kwargs) -> Tensor:
    """Fill with samples uniform in ``[from, to)``."""
    from_ = kwargs.pop("from", from_)
    if kwargs:
        raise TypeError(f"uniform_() got an unexpected keyword argument '{next(iter(kwargs))}'")
    _float_only(self, "check_uniform_bounds")
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={from_} > to={to}")
    _bound_check(from_, self._dtype, "from")
    _bound_check(to, self._dtype, "to")
    rng = _gen(generator, self)
    if self._storage._device.type == "meta":
        return self  # (no memory to fill: a meta model's init_ draws nothing, as PyTorch)
    dt = self._dtype
    u = _uniform_host(rng, self._shape, _dtypes.complex128 if dt.category == _COMPLEX
                      else _dtypes.float64)
    if dt.category == _COMPLEX:
        host = (from_ + (to - from_) * u.real) + 1j * (from_ + (to - from_) * u.imag)
    else:
        host = from_ + (to - from_) * u
    return _fill(self, np.asanyarray(host))


@op(function=False)
def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *, generator=None) -> Tensor:
    """Fill with normal samples ``N(mean, std^2)`` (complex: ``std^2`` split over the parts)."""
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    _float_only(self, "normal_kernel_cpu")
    rng = _gen(generator, self)
    if self._storage._device.type == "meta":
        return self  # (no memory to fill, as uniform_)
    base = _dtypes.complex128 if self._dtype.category == _COMPLEX else _dtypes.float64
    host = mean + std * _normal_host(rng, self._shape, base)
    return _fill(self, np.asanyarray(host))


def _dtype_range(dt) -> tuple:
    """(min, max) of the integers ``random_`` may draw for ``dt`` (floats: exact integers)."""
    if dt is _dtypes.bool:
        return 0, 1
    if dt.category == _INT:
        info = np.iinfo(dt._np)
        return builtins.int(info.min), builtins.int(info.max)
    digits = {_dtypes.float16: 11, _dtypes.bfloat16: 8, _dtypes.float32: 24,
              _dtypes.float64: 53}[dt]
    return -(1 << digits), 1 << digits


@op(function=False)
def random_(self: Tensor, from_=None, to=None, *, generator=None, **kwargs) -> Tensor:
    """Fill with integers uniform in ``[from, to)``: ``random_()`` spans ``[0, 2^mantissa]``
    for floats and ``[0, max]`` for integers; ``random_(to)`` is ``[0, to)``."""
    explicit_from = "from" in kwargs
    if explicit_from:
        from_ = kwargs.pop("from")
    if kwargs:
        raise TypeError(f"random_() got an unexpected keyword argument '{next(iter(kwargs))}'")
    for v in (from_, to):
        if isinstance(v, builtins.float):
            raise TypeError(f"random_() received an invalid combination of arguments - got "
                            f"({type(v).__name__}), but expected one of: (*, Generator "
                            "generator), (int from, int to, *, Generator generator), (int to, *, "
                            "Generator generator)")
    dt = self._dtype
    if dt.category == _COMPLEX:
        if from_ is None and to is None:
            raise NotImplementedError(f'"random_kernel_cpu" not implemented for '
                                      f"'{dt.cname}'")
        raise RuntimeError("check_random_bounds handles only integral, floating-point and "
                           "boolean types")
    lo_dt, hi_dt = _dtype_range(dt)
    if from_ is None and to is None:
        low, high = 0, hi_dt + 1
    elif to is None and not explicit_from:  # random_(to)
        low, high = 0, builtins.int(from_)
    else:
        low = 0 if from_ is None else builtins.int(from_)
        high = hi_dt + 1 if to is None else builtins.int(to)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                           f">= to={high}")
    name = dt.cxx_name
    if dt.category <= _INT:
        if low < lo_dt:
            raise RuntimeError(f"from is out of bounds for {name}")
        if high - 1 > hi_dt:
            raise RuntimeError(f"to - 1 is out of bounds for {name}")
    rng = _gen(generator, self)
    host = rng.integers(low, high, size=self._shape, dtype=np.int64) if high <= (1 << 63) \
        else rng.integers(low, high, size=self._shape, dtype=np.uint64)
    return _fill(self, np.asanyarray(host))


@op(function=False)
def exponential_(self: Tensor, lambd: float = 1.0, *, generator=None) -> Tensor:
    """Fill with exponential samples of rate ``lambd`` (density ``lambd * exp(-lambd x)``)."""
    if self._dtype.category != _FLOAT:
        raise RuntimeError(f"Exponential distribution is a continuous probability "
                           f"distribution. dtype must be a floating point but you specified "
                           f"{self._dtype.cname}")
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd}")
    host = _gen(generator, self).exponential(1.0 / lambd, size=self._shape)
    return _fill(self, np.asanyarray(host))


@op(function=False)
def geometric_(self: Tensor, p: float, *, generator=None) -> Tensor:
    """Fill with the number of Bernoulli(``p``) trials up to the first success (>= 1)."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p}")
    if self._dtype is _dtypes.bool or self._dtype.category == _COMPLEX:
        raise NotImplementedError(f'"geometric_cpu" not implemented for '
                                  f"'{self._dtype.cname}'")
    host = _gen(generator, self).geometric(p, size=self._shape)
    return _fill(self, np.asanyarray(host))


@op(function=False)
def log_normal_(self: Tensor, mean: float = 1.0, std: float = 2.0, *, generator=None) -> Tensor:
    """Fill with ``exp(N(mean, std^2))`` samples."""
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std}")
    if self._dtype.category != _FLOAT:
        raise NotImplementedError(f'"log_normal_cpu" not implemented for '
                                  f"'{self._dtype.cname}'")
    host = _gen(generator, self).lognormal(mean, std, size=self._shape)
    return _fill(self, np.asanyarray(host))


@op(function=False)
def cauchy_(self: Tensor, median: float = 0.0, sigma: float = 1.0, *, generator=None) -> Tensor:
    """Fill with Cauchy samples ``median + sigma * tan(pi * (u - 1/2))``."""
    if self._dtype.category != _FLOAT:
        raise RuntimeError(f"Cauchy distribution is a continuous probability distribution. "
                           f"dtype must be a floating point but you specified "
                           f"{self._dtype.cxx_name}")
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma}")
    host = median + sigma * _gen(generator, self).standard_cauchy(size=self._shape)
    return _fill(self, np.asanyarray(host))


@op()
def bernoulli(input, p=None, *, generator=None, out=None) -> Tensor:
    """0/1 samples shaped like ``input``: 1 with probability ``input[i]`` (or ``p``)."""
    _check_tensor("bernoulli", input, "input", 1)
    if input._dtype.category < _FLOAT and p is None:  # (with p, input only gives the shape)
        raise NotImplementedError(f'"bernoulli_tensor_cpu_p_" not implemented for '
                                  f"'{input._dtype.cname}'")
    if isinstance(out, Tensor) and p is None:  # (PyTorch: out.resize_(shape).bernoulli_(input))
        if out._shape != input._shape:
            out.resize_(input._shape)
        return bernoulli_(out, input, generator=generator)
    xp = _xp(input)
    res = wrap_array(xp.empty(input._shape, dtype=input._dtype._np), input._dtype,
                     input.device)
    bernoulli_(res, input if p is None else p, generator=generator)
    if out is not None:
        return write_out(out, res._arr, res._dtype, res.device)
    return res


_P_RANGE = ("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
            "message be improved?  If so, please report an enhancement request to PyTorch.)")


@inplace_of(bernoulli)
def bernoulli_(self: Tensor, p=0.5, *, generator=None) -> Tensor:
    """Fill with 1 with probability ``p`` (a number, or a tensor broadcast to self), else 0."""
    rng = _gen(generator, self)
    if self._dtype.category == _COMPLEX:
        kernel = "bernoulli_tensor_cpu_self_" if isinstance(p, Tensor) else \
            "bernoulli_scalar_cpu_"
        if not isinstance(p, Tensor) and not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
        raise NotImplementedError(f'"{kernel}" not implemented for \'{self._dtype.cname}\'')
    if isinstance(p, Tensor):
        if p._dtype.category < _FLOAT:  # (the probabilities' kernel has no integer version)
            raise NotImplementedError(f'"bernoulli_tensor_cpu_p_" not implemented for '
                                      f"'{p._dtype.cname}'")
        probs = _host(p).astype(np.float64)
        if probs.size and not _on_meta(p) and not ((probs >= 0) & (probs <= 1)).all():
            raise RuntimeError(_P_RANGE)
        probs = np.broadcast_to(probs, self._shape)
    else:
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
        probs = p
    host = rng.random(self._shape) < probs
    return _fill(self, np.asanyarray(host))


@op()
def multinomial(input, num_samples: int, replacement: bool = False, *, generator=None,
                out=None) -> Tensor:
    """Indices drawn from the categorical distribution(s) of weights ``input`` (rows of a
    2-D input); without replacement each index appears at most once."""
    _check_tensor("multinomial", input, "input", 1)
    if input.dim() not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if input._dtype.category != _FLOAT:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{input._dtype.cname}")
    if isinstance(out, Tensor) and out._dtype is not _dtypes.int64:
        raise RuntimeError(f"multinomial expects Long tensor out, got: {out._dtype.cname}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    w = _host(input).astype(np.float64)
    rows = w.reshape(-1, w.shape[-1])
    k = rows.shape[1]
    if not replacement and num_samples > k:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    if not _on_meta(input) and (not np.isfinite(rows).all() or (rows < 0).any()):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    sums = rows.sum(axis=1)
    if not _on_meta(input) and (sums <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    rng = _gen(generator, input)
    n = rows.shape[0]
    if replacement:  # inverse CDF, all rows at once: row r's CDF is shifted into [r, r + 1]
        cdf = np.cumsum(rows, axis=1) / sums[:, None]
        cdf[:, -1] = 1.0
        offsets = np.arange(n)[:, None]
        u = rng.random((n, num_samples))
        pos = np.searchsorted((cdf + offsets).ravel(), (u + offsets).ravel(), side="right")
        idx = pos.reshape(n, num_samples) - offsets * k
        idx = np.minimum(idx, k - 1)  # (zero-weight categories are never drawn)
    else:  # PyTorch's algorithm: the top-n of weights / Exp(1) noise
        e = rng.exponential(1.0, size=rows.shape)
        with np.errstate(divide="ignore"):
            keys = rows / e
        idx = np.argsort(-keys, axis=1, kind="stable")[:, :num_samples]
    idx = idx.astype(np.int64).reshape(input._shape[:-1] + (num_samples,))
    res = wrap_array(_to_device(idx, input), _dtypes.int64, input.device)
    if out is not None:
        return write_out(out, res._arr, res._dtype, res.device)
    return res


@op(method=False)
def poisson(input, generator=None) -> Tensor:
    """Poisson samples with rates ``input`` (same shape and dtype)."""
    _check_tensor("poisson", input, "input", 1)
    if input._dtype.category != _FLOAT:
        raise NotImplementedError(f'"poisson_cpu" not implemented for '
                                  f"'{input._dtype.cname}'")
    rates = _host(input).astype(np.float64)
    if rates.size and (rates < 0).any():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    host = _gen(generator, input).poisson(rates).astype(input._dtype._np)
    if not _on_meta(input):
        host = np.ascontiguousarray(host)
    return wrap_array(_to_device(host, input), input._dtype, input.device)
