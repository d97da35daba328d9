"""dtype objects and PyTorch's type-promotion rules.

Promotion is category based (bool < integer < floating < complex).  Operands are ranked:
dimensioned tensors outrank 0-dim tensors, which outrank Python scalars, and a lower-ranked
operand only changes the result when it belongs to a higher category::

    int8 tensor + 1000         -> int8      (same category: the scalar does not promote)
    int64 tensor + 2.5         -> float32   (higher category: the default float dtype)
    float16 tensor + float64 0-dim tensor -> float16
"""
from __future__ import annotations

import builtins
from typing import Any

import ml_dtypes
import numpy as np

from . import _chalf

__all__ = [
    "dtype", "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
    "float64", "bfloat16", "complex32", "complex64", "complex128", "half", "float", "double",
    "short", "int", "long", "chalf", "cfloat", "cdouble", "get_default_dtype", "set_default_dtype", "promote_types",
    "result_type", "can_cast", "finfo", "iinfo",
]

_BOOL, _INT, _FLOAT, _COMPLEX = 0, 1, 2, 3


class dtype:
    """A tensor element type, e.g. ``tensorviz.float32``; compared by identity."""

    __slots__ = ("name", "itemsize", "category", "is_signed", "cname", "cxx_name", "_np", "_order",
                 "_scalar", "__weakref__")

    def __init__(self, name: str, np_dtype: Any, category: builtins.int, order: builtins.int):
        self.name = name
        self._np = npd = np.dtype(np_dtype)
        self.itemsize = npd.itemsize
        self.category = category
        self.is_signed = name not in ("bool", "uint8")
        self._order = order  # position in PyTorch's ScalarType enum, used for stable sorting
        self._scalar = _scalar_converter(npd)  # a Python number -> this NumPy scalar type

    @property
    def is_floating_point(self) -> builtins.bool:
        return self.category == _FLOAT

    @property
    def is_complex(self) -> builtins.bool:
        return self.category == _COMPLEX

    def to_complex(self) -> "dtype":
        """The complex dtype of this floating dtype's precision (``float16`` -> ``complex32``;
        bfloat16 has none: complex64, as PyTorch)."""
        if self.category < _FLOAT:
            raise RuntimeError(f"Unknown Complex ScalarType for {self.cname}")
        return {float16: complex32, bfloat16: complex64, float32: complex64,
                float64: complex128}.get(self, self)

    def to_real(self) -> "dtype":
        """The real dtype of a complex dtype's parts (``complex32`` -> ``float16``)."""
        return {complex32: float16, complex64: float32, complex128: float64}.get(self, self)

    def __repr__(self) -> str:
        return f"tensorviz.{self.name}"

    def __reduce__(self):
        return (_dtype_by_name, (self.name,))


def _scalar_converter(np_dtype: np.dtype):
    """``np_dtype.type``, except for float16, bfloat16 and complex64: a converter that gives
    inf for out-of-range numbers without NumPy's RuntimeWarning.

    Note: float32 keeps the plain NumPy type (it is on every op's fast path); a Python number
    beyond float32's range still warns there unless the caller silences NumPy."""
    conv = np_dtype.type
    if np_dtype == _chalf.NP:
        return _chalf.narrow  # (a number as a 0-dim complex32 array)
    if np_dtype == _BF16_NP or np_dtype == np.float16:
        # A Python number meets a 16-bit float tensor (``HALVES``) as a float32, PyTorch's
        # "opmath" type: ``x * 0.37`` computes x * float32(0.37) and rounds once, as PyTorch's
        # mul and div kernels; stored, the float32 rounds to the 16-bit type (PyTorch too
        # converts a double to float first: ``float16(1 + 2**-11 + 1e-12)`` is 1.0).  The
        # other binary ops round the number to the 16-bit type first (``x + 257.0`` adds 256
        # in bfloat16): see ``half_rounded`` and ops._elementwise.binary.
        conv = np.float32
    elif np_dtype != np.complex64:
        return conv
    lim = builtins.float(np.finfo(conv).max)
    big = (1 << 64) if conv is np.float32 else builtins.float("inf")  # (16-bit: PyTorch's
    # OverflowError for an int no 64-bit int holds, though float32 would take it)

    def quiet(value, conv=conv, lim=lim, big=big):
        if not isinstance(value, builtins.complex) and -lim <= value <= lim:
            if type(value) is builtins.int and not -(1 << 63) <= value < big:
                raise OverflowError("int too big to convert")
            return conv(value)
        if isinstance(value, builtins.int) and not -(1 << 63) <= value < (1 << 64):
            raise OverflowError("int too big to convert")  # (PyTorch's: no 64-bit int holds it)
        with np.errstate(over="ignore", invalid="ignore"):
            return conv(value)
    return quiet


# bfloat16 (8 exponent bits like float32, 8 significant bits) is NumPy's through ml_dtypes,
# whose ufuncs compute in float32 and round each result to bfloat16, as PyTorch's CPU kernels.
_BF16_NP = np.dtype(ml_dtypes.bfloat16)

bool = dtype("bool", np.bool_, _BOOL, 11)
uint8 = dtype("uint8", np.uint8, _INT, 0)
int8 = dtype("int8", np.int8, _INT, 1)
int16 = dtype("int16", np.int16, _INT, 2)
int32 = dtype("int32", np.int32, _INT, 3)
int64 = dtype("int64", np.int64, _INT, 4)
float16 = dtype("float16", np.float16, _FLOAT, 5)
float32 = dtype("float32", np.float32, _FLOAT, 6)
float64 = dtype("float64", np.float64, _FLOAT, 7)
bfloat16 = dtype("bfloat16", _BF16_NP, _FLOAT, 15)
_NP_SLOT = dtype.__dict__["_np"]


class _ComplexHalf(dtype):
    """complex32's dtype object: its NumPy dtype (``_chalf.NP``, two float16) read for the
    first time means a complex32 array is about to be made, and switches on the ops'
    complex32 gate (``_chalf.HOOKS["activate"]``): until then no op pays for it."""

    __slots__ = ()

    @property
    def _np(self):
        if not _chalf._active:
            _chalf._activate()
        return _NP_SLOT.__get__(self)

    @_np.setter
    def _np(self, value):
        _NP_SLOT.__set__(self, value)


# complex32 (ComplexHalf): two float16, stored as a structured NumPy dtype (see _chalf).
complex32 = _ComplexHalf("complex32", _chalf.NP, _COMPLEX, 8)
complex64 = dtype("complex64", np.complex64, _COMPLEX, 9)
complex128 = dtype("complex128", np.complex128, _COMPLEX, 10)

half, float, double = float16, float32, float64
short, int, long = int16, int32, int64
chalf, cfloat, cdouble = complex32, complex64, complex128

# PyTorch's names in its error messages: the ScalarType name ("result type Float can't be
# cast ...") and the C++ type name ("Expected out tensor to have dtype long int ...").
for _d, _c, _cxx in ((bool, "Bool", "bool"), (uint8, "Byte", "unsigned char"),
                     (int8, "Char", "signed char"), (int16, "Short", "short int"),
                     (int32, "Int", "int"), (int64, "Long", "long int"),
                     (float16, "Half", "c10::Half"), (float32, "Float", "float"),
                     (float64, "Double", "double"), (bfloat16, "BFloat16", "c10::BFloat16"),
                     (complex32, "ComplexHalf", "c10::complex<c10::Half>"),
                     (complex64, "ComplexFloat", "c10::complex<float>"),
                     (complex128, "ComplexDouble", "c10::complex<double>")):
    object.__setattr__(_d, "cname", _c)
    object.__setattr__(_d, "cxx_name", _cxx)

ALL_DTYPES: tuple[dtype, ...] = (bool, uint8, int8, int16, int32, int64, float16, float32,
                                 float64, bfloat16, complex32, complex64, complex128)
#: The 16-bit floating dtypes: PyTorch computes their reductions, matmuls and most math in
#: float32 and rounds the result (``dt in HALVES`` where ``dt is float16`` used to be asked).
HALVES = frozenset((float16, bfloat16))
_BY_NAME = {d.name: d for d in ALL_DTYPES}


def half_rounded(value, dt: dtype):
    """A real Python number as the value of the 16-bit float dtype ``dt`` it rounds to (a
    Python float; PyTorch converts the double to float, then to 16 bits); anything else as it
    is.  What a 16-bit tensor's add, sub, comparisons, pow, clamp ... do with a number; mul and
    div take it as a float32, unrounded (``dt._scalar``).

    >>> half_rounded(0.1, float16)      # 0.0999755859375
    """
    if isinstance(value, (np.integer, np.floating, np.bool_)):  # (PyTorch: a Python number)
        value = value.item()
    if type(value) in _PY_REALS:
        with np.errstate(over="ignore", invalid="ignore"):
            return builtins.float(dt._np.type(dt._scalar(value)))
    return value


_PY_REALS = frozenset((builtins.bool, builtins.int, builtins.float))
_BY_NP = {d._np: d for d in ALL_DTYPES if d is not complex32}  # (NumPy has no complex32)


# Python's own types stand for dtypes wherever PyTorch takes one (``dtype=float``).
_PY_TYPES = {builtins.bool: bool, builtins.int: int64, builtins.float: float64,
             builtins.complex: complex128}


def as_dtype(value: Any) -> dtype | None:
    """``value`` as a dtype (None stays None; ``float``/``int``/``bool``/``complex`` are
    float64/int64/bool/complex128, as in PyTorch); TypeError for anything else."""
    if value is None or isinstance(value, dtype):
        return value
    d = _PY_TYPES.get(value) if isinstance(value, type) else None
    if d is None:
        raise TypeError(f"dtype must be a tensorviz.dtype (e.g. tensorviz.float32), not "
                        f"{type(value).__name__}")
    return d


def _dtype_by_name(name: str) -> dtype:
    return _BY_NAME[name]


def from_numpy_dtype(np_dtype: Any) -> dtype:
    """The tensorviz dtype for a NumPy dtype; TypeError for those PyTorch cannot hold.

    Note: an ``ml_dtypes.bfloat16`` array maps to ``bfloat16`` (``from_numpy`` shares its
    memory, ``tensor(a)`` copies it), where PyTorch refuses it with a TypeError: NumPy's
    bfloat16 is tensorviz's own storage type, and refusing it would only force a float32
    round trip.  The other way stays as PyTorch: ``t.numpy()`` of a bfloat16 tensor raises.
    """
    d = _BY_NP.get(np.dtype(np_dtype))
    if d is None:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).type.__name__}. The "
            "only "
            "supported types are: float64, float32, float16, complex64, complex128, int64, "
            "int32, int16, int8, uint8, and bool.")
    return d


# ---------------------------------------------------------------- the promotion table
def _promote_pair(a: dtype, b: dtype) -> dtype:
    if a is b:
        return a
    if a.category != b.category:
        hi, lo = (a, b) if a.category > b.category else (b, a)
        if hi.category == _COMPLEX and lo.category == _FLOAT:
            # the complex dtype of both parts' precision: complex64 with float64 is complex128,
            # complex32 with float32 or bfloat16 is complex64
            return _promote_pair(hi.to_real(), lo).to_complex()
        return hi
    if {a, b} == {float16, bfloat16}:  # neither holds the other: float32 holds both
        return float32
    if a.category == _INT:
        if uint8 in (a, b):  # uint8 mixes with a signed type: the next signed type that holds both
            other = b if a is uint8 else a
            return int16 if other is int8 else other
        return a if a.itemsize > b.itemsize else b
    return a if a.itemsize > b.itemsize else b  # floating / complex: the wider one


PROMOTION_TABLE: dict[tuple[dtype, dtype], dtype] = {
    (a, b): _promote_pair(a, b) for a in ALL_DTYPES for b in ALL_DTYPES}


def promote_types(type1: dtype, type2: dtype) -> dtype:
    """The smallest dtype that both ``type1`` and ``type2`` cast to (PyTorch's table)."""
    try:
        return PROMOTION_TABLE[(type1, type2)]
    except KeyError:
        bad = type1 if not isinstance(type1, dtype) else type2
        raise TypeError(f"promote_types(): expected tensorviz.dtype arguments, got "
                        f"{type(bad).__name__}") from None


_default_dtype = float32


def get_default_dtype() -> dtype:
    """The dtype of float tensors made from Python floats (``float32`` unless changed)."""
    return _default_dtype


def set_default_dtype(d: dtype) -> None:
    """Set the default floating dtype; like PyTorch, only float16/bfloat16/32/64 are allowed."""
    global _default_dtype
    if d not in (float16, bfloat16, float32, float64):
        raise TypeError("only floating-point types are supported as the default type, got "
                        f"{d!r}")
    _default_dtype = d


def default_complex_dtype() -> dtype:
    return complex128 if _default_dtype is float64 else complex64


def scalar_dtype(value: Any) -> dtype:
    """The dtype a Python scalar stands for when wrapped (bool, int64, default float/complex)."""
    if isinstance(value, builtins.bool):
        return bool
    if isinstance(value, builtins.int):
        return int64
    if isinstance(value, builtins.float):
        return _default_dtype
    if isinstance(value, builtins.complex):
        return default_complex_dtype()
    if isinstance(value, np.generic):
        d = from_numpy_dtype(value.dtype)
        if d.category == _FLOAT:
            return _default_dtype
        if d.category == _COMPLEX:
            return default_complex_dtype()
        return int64 if d.category == _INT else bool
    raise TypeError(f"unsupported scalar type {type(value).__name__}")


def combine_categories(higher: dtype | None, lower: dtype | None) -> dtype | None:
    """Merge a lower-priority result into a higher one (PyTorch's combine_categories)."""
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.category == _COMPLEX:
        return higher
    if lower.category == _COMPLEX:
        return higher.to_complex() if higher.category == _FLOAT else lower
    if higher.category == _FLOAT:
        return higher
    if higher is bool or lower.category == _FLOAT:
        return PROMOTION_TABLE[(higher, lower)]
    return higher


def _promote_opt(a: dtype | None, b: dtype) -> dtype:
    return b if a is None else PROMOTION_TABLE[(a, b)]


#: The tensor class, registered by ``tensorviz._tensor`` when it loads: the modules below it
#: (dtypes, scalars, storages) recognise tensors by ``isinstance(x, TENSOR_TYPES)`` without
#: importing it.
TENSOR_TYPES: tuple = ()


def register_tensor_type(cls: type) -> None:
    """Make ``cls`` count as a tensor for ``result_type`` and the layers below ``Tensor``."""
    global TENSOR_TYPES
    TENSOR_TYPES = TENSOR_TYPES + (cls,)


def result_type(*operands: Any) -> dtype:
    """The dtype an arithmetic op on ``operands`` (tensors or scalars) returns.

    >>> result_type(tensor([1, 2], dtype=int8), 1000)
    tensorviz.int8
    """
    dim_r = zero_r = wrapped_r = None
    for op in operands:
        if isinstance(op, TENSOR_TYPES):
            if op._shape:
                dim_r = _promote_opt(dim_r, op._dtype)
            else:
                zero_r = _promote_opt(zero_r, op._dtype)
        elif isinstance(op, (builtins.bool, builtins.int, builtins.float, builtins.complex,
                             np.generic)):
            wrapped_r = _promote_opt(wrapped_r, scalar_dtype(op))
        else:
            raise TypeError(f"result_type(): expected Tensor or Number arguments, got "
                            f"{type(op).__name__}")
    return combine_categories(dim_r, combine_categories(zero_r, wrapped_r))


def can_cast(from_: dtype, to: dtype) -> builtins.bool:
    """Whether PyTorch allows an op computing in ``from_`` to write into ``to``.

    Casting down a category (complex -> float, float -> int, anything -> bool) is refused.
    """
    for arg, name, pos in ((from_, "from_", 1), (to, "to", 2)):
        if not isinstance(arg, dtype):
            raise TypeError(f"can_cast(): argument '{name}' (position {pos}) must be "
                            f"tensorviz.dtype, not {type(arg).__name__}")
    if from_.category == _COMPLEX and to.category != _COMPLEX:
        return False
    if from_.category == _FLOAT and to.category < _FLOAT:
        return False
    if from_ is not bool and to is bool:
        return False
    return True


# ---------------------------------------------------------------- finfo / iinfo
class finfo:
    """Machine limits of a floating dtype (``bits, eps, max, min, tiny, resolution``)."""

    def __init__(self, type: dtype | None = None):
        d = get_default_dtype() if type is None else type
        if not isinstance(d, dtype):
            raise TypeError(f"finfo(): argument 'type' (position 1) must be tensorviz.dtype, "
                            f"not {builtins.type(d).__name__}")
        if d.category < _FLOAT:
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        info = ml_dtypes.finfo(d.to_real()._np)  # (NumPy's own finfo lacks bfloat16)
        self.dtype = d.to_real().name
        self.bits = info.bits
        self.eps = builtins.float(info.eps)
        self.max = builtins.float(info.max)
        self.min = builtins.float(info.min)
        self.tiny = self.smallest_normal = builtins.float(info.tiny)
        self.resolution = 10.0 ** -info.precision  # PyTorch: exactly 10**-precision

    def __eq__(self, other: object) -> builtins.bool:
        return isinstance(other, finfo) and other.dtype == self.dtype

    __hash__ = None  # (unhashable, as PyTorch's)

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.tiny:g}, tiny={self.tiny:g}, "
                f"dtype={self.dtype})")


class iinfo:
    """Limits of an integer dtype (``bits, min, max``)."""

    def __init__(self, type: dtype):
        if not isinstance(type, dtype):
            raise TypeError(f"iinfo(): argument 'type' (position 1) must be tensorviz.dtype, "
                            f"not {builtins.type(type).__name__}")
        if type is bool:
            raise TypeError("tensorviz.bool is not supported by tensorviz.iinfo")
        if type.category > _INT:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to "
                            "handle 'torch.iinfo'")
        info = np.iinfo(type._np)
        self.dtype = type.name
        self.bits = 8 * type.itemsize
        self.min = builtins.int(info.min)
        self.max = builtins.int(info.max)

    def __eq__(self, other: object) -> builtins.bool:
        return isinstance(other, iinfo) and other.dtype == self.dtype

    __hash__ = None  # (unhashable, as PyTorch's)

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


#: ``np.finfo`` for every floating NumPy dtype, bfloat16 included (NumPy's own refuses it).
np_finfo = ml_dtypes.finfo
