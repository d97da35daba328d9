"""PyTorch-identical ``repr`` of tensors.

``tensor_repr`` reproduces ``repr(torch_tensor)`` character for character (with ``torch.``
spelled ``tensorviz.``): the same float formatter (fixed / integer / scientific modes chosen
from the nonzero finite values), the same ``...`` summarization, line wrapping and suffixes.

Large tensors are never copied whole: only the edge items that get printed are sliced out of
the (possibly device-resident) array and converted to NumPy, so printing a 10^8-element tensor
costs about as much as printing a 6x6 one.
"""
from __future__ import annotations

import dataclasses
import math
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import numpy as np

from . import _chalf, _dtypes

__all__ = ["tensor_repr", "set_printoptions", "get_printoptions", "printoptions"]


@dataclasses.dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


_OPTS = _PrintOptions()

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(precision: int | None = None, threshold: float | None = None,
                     edgeitems: int | None = None, linewidth: int | None = None,
                     profile: str | None = None, sci_mode: bool | None = None) -> None:
    """Set printing options, exactly like ``torch.set_printoptions``.

    ``profile`` ('default', 'short', 'full') is applied first, then the explicit options.
    As in PyTorch, ``sci_mode`` is always overwritten (omitting it means automatic).
    """
    if profile is not None and profile in _PROFILES:
        for name, value in _PROFILES[profile].items():
            setattr(_OPTS, name, value)
    if precision is not None:
        _OPTS.precision = precision
    if threshold is not None:
        _OPTS.threshold = threshold
    if edgeitems is not None:
        _OPTS.edgeitems = edgeitems
    if linewidth is not None:
        _OPTS.linewidth = linewidth
    _OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """The current options, as keyword arguments for :func:`set_printoptions`."""
    return dataclasses.asdict(_OPTS)


@contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """Temporarily change the print options (``with tensorviz.printoptions(precision=2):``)."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


# ---------------------------------------------------------------- element formatting
class _Formatter:
    """Formats the elements of one real array the way PyTorch's ``_Formatter`` does.

    The mode (integer-valued floats, scientific notation) and the common width are decided
    from the nonzero finite values among the printed elements only.
    """

    def __init__(self, data: np.ndarray, floating: bool):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.precision = _OPTS.precision
        self.width = 1
        flat = data.reshape(-1)
        if not floating:
            # str() length is monotonic in the value on either side of zero (and False is
            # longer than True), so the extremes decide the width.
            if flat.size:
                ends = np.array([flat.min(), flat.max()], dtype=flat.dtype)
                self.width = max(len(s) for s in self._raw_strings(ends, True))
            return
        finite_nonzero = flat[np.isfinite(flat) & (flat != 0)]
        if not finite_nonzero.size:
            return  # PyTorch keeps int_mode, no sci_mode, width 1 (even if sci_mode is forced)
        mags = np.abs(finite_nonzero)
        lo, hi = float(mags.min()), float(mags.max())  # exact in double precision
        self.int_mode = bool(np.all(finite_nonzero == np.ceil(finite_nonzero)))
        if _OPTS.sci_mode is None:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        else:
            self.sci_mode = bool(_OPTS.sci_mode)
        # A formatted length only grows with |v| ('f' modes) or with |exponent| ('e' mode),
        # so the widest string is among the extreme magnitudes of either sign.
        pos, neg = mags[finite_nonzero > 0], mags[finite_nonzero < 0]
        extremes = [x for part, sign in ((pos, 1), (neg, -1)) if part.size
                    for x in (sign * part.min(), sign * part.max())]
        candidates = np.array(extremes, dtype=finite_nonzero.dtype)
        self.width = max(len(s) for s in self._raw_strings(candidates, True))

    def _raw_strings(self, flat: np.ndarray, finite: bool | None) -> list[str]:
        """Unpadded strings of ``flat`` (``finite``: all known finite, or None to check)."""
        values = flat.tolist()
        if not self.floating:
            return [str(v) for v in values]
        if self.sci_mode:
            spec = f".{self.precision}e"
            return [format(v, spec) for v in values]
        if self.int_mode:
            if finite:
                return [format(v, ".0f") + "." for v in values]
            return [format(v, ".0f") + ("." if math.isfinite(v) else "") for v in values]
        spec = f".{self.precision}f"
        return [format(v, spec) for v in values]

    def format(self, flat: np.ndarray) -> list[str]:
        """Padded strings of every element of ``flat``."""
        raw = self._raw_strings(flat, None)
        w = self.width
        return [s if len(s) >= w else s.rjust(w) for s in raw]


def _join_complex(real: list[str], imag: list[str]) -> list[str]:
    out = []
    for r, i in zip(real, imag):
        i = (i + "j").lstrip()
        out.append(r + i if i[0] in "+-" else r + "+" + i)
    return out


# ---------------------------------------------------------------- summarization
def _printed_part(values: Any, edge: int, to_host: Callable[[Any], Any],
                  summarize: bool) -> np.ndarray:
    """NumPy copy of the elements that get printed.

    When summarizing, every dimension longer than ``2*edge`` keeps only its first and last
    ``edge`` entries; each kept block is sliced out before ``to_host`` so nothing else moves.
    """
    if not summarize:
        return np.asarray(to_host(values))

    def gather(arr: Any, d: int) -> np.ndarray:
        while d < arr.ndim and arr.shape[d] <= 2 * edge:
            d += 1
        if d == arr.ndim:
            return np.asarray(to_host(arr))
        n = arr.shape[d]
        lead = (slice(None),) * d
        head = gather(arr[lead + (slice(0, edge),)], d + 1)
        tail = gather(arr[lead + (slice(n - edge, n),)], d + 1)
        return np.concatenate((head, tail), axis=d)

    return gather(values, 0)


def _layout(items: list[str], shape: tuple[int, ...], cut: tuple[bool, ...], indent: int,
            elem_len: int, edge: int) -> str:
    """Nest the flat, formatted ``items`` into PyTorch's bracketed, wrapped layout.

    Built bottom-up (rows first, then each enclosing dimension), which is PyTorch's
    recursion unrolled: a block at depth ``d`` is indented by ``indent + d``.
    """
    ndim = len(shape)
    depth = ndim - 1
    n = shape[-1]
    per_line = max(1, math.floor((_OPTS.linewidth - (indent + depth)) / elem_len))
    line_sep = ",\n" + " " * (indent + depth + 1)
    blocks = []
    for start in range(0, len(items), n):
        cells = items[start:start + n]
        if cut[-1]:
            cells.insert(edge, " ...")
        if len(cells) <= per_line:
            blocks.append("[" + ", ".join(cells) + "]")
        else:
            lines = [", ".join(cells[i:i + per_line]) for i in range(0, len(cells), per_line)]
            blocks.append("[" + line_sep.join(lines) + "]")
    for d in range(ndim - 2, -1, -1):
        n = shape[d]
        sep = "," + "\n" * (ndim - 1 - d) + " " * (indent + d + 1)
        grouped = []
        for start in range(0, len(blocks), n):
            group = blocks[start:start + n]
            if cut[d]:
                group.insert(edge, "...")
            grouped.append("[" + sep.join(group) + "]")
        blocks = grouped
    return blocks[0]


def _tensor_body(values: Any, dtype: _dtypes.dtype, indent: int,
                 to_host: Callable[[Any], Any], numel: int) -> str:
    """The contents part of the repr (``[[1., 2.], ...]`` or a bare scalar)."""
    shape = tuple(int(n) for n in values.shape)
    edge = _OPTS.edgeitems
    summarize = numel > _OPTS.threshold
    if summarize and shape and not edge:
        return "[...]"
    data = _printed_part(values, edge, to_host, summarize)
    if dtype is _dtypes.complex32:  # (printed as its complex64 values, as PyTorch)
        data = _chalf.widen(data) if _chalf.is_chalf(data) else data.astype(np.complex64)
    elif data.dtype != dtype._np:
        data = data.astype(dtype._np)
    flat = data.reshape(-1)
    if dtype.is_complex:
        f_re = _Formatter(data.real, True)
        f_im = _Formatter(data.imag, True)
        items = _join_complex(f_re.format(flat.real), f_im.format(flat.imag))
        elem_len = f_re.width + 2 + f_im.width + 1
    else:
        fmt = _Formatter(data, dtype.is_floating_point)
        items = fmt.format(flat)
        elem_len = fmt.width + 2
    if not shape:
        return items[0]
    cut = tuple(summarize and n > 2 * edge for n in shape)
    return _layout(items, data.shape, cut, indent, elem_len, edge)


def _add_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    """Append ``, suffix`` items, wrapping onto a new indented line past ``linewidth``.

    Suffixes are measured as PyTorch spells them (``dtype=torch.int8``), so line breaks fall
    exactly where PyTorch puts them even though ``tensorviz.`` is four characters longer.
    """
    parts = [text]
    last_len = len(text) - text.rfind("\n") + 1  # PyTorch's (slightly generous) measure
    for suffix in suffixes:
        size = len(suffix.replace("tensorviz.", "torch."))
        if last_len + size + 2 > _OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_len = indent + size
        else:
            parts.append(", " + suffix)
            last_len += size + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(values: Any, dtype: _dtypes.dtype, device: str = "cpu", *,
                to_host: Callable[[Any], Any] | None = None, requires_grad: bool = False,
                grad_fn: str | None = None) -> str:
    """``repr`` of a tensor holding ``values`` (NumPy or CuPy array) of ``dtype``.

    ``to_host`` converts a slice of ``values`` to NumPy (default ``numpy.asarray``); only
    the printed edge items are converted.  ``grad_fn`` (a node class name) replaces the
    ``requires_grad=True`` suffix, as in PyTorch.
    """
    if to_host is None:
        to_host = np.asarray
    prefix = "tensor("
    indent = len(prefix)
    shape = tuple(int(n) for n in values.shape)
    numel = math.prod(shape)
    suffixes = []
    device = str(device)
    if device != "cpu":
        suffixes.append(f"device='{device}'")
    default = _dtypes.get_default_dtype()
    if numel == 0:
        # Nothing to infer the dtype from, so everything but the default float is spelled out.
        if len(shape) != 1:
            suffixes.append(f"size={shape}")
        if dtype is not default:
            suffixes.append(f"dtype={dtype!r}")
        body = "[]"
    else:
        if not _OPTS.edgeitems:
            suffixes.append(f"size={shape}")
        implied = (default, _dtypes.default_complex_dtype(), _dtypes.int64, _dtypes.bool)
        if dtype not in implied:
            suffixes.append(f"dtype={dtype!r}")
        body = _tensor_body(values, dtype, indent, to_host, numel)
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)
