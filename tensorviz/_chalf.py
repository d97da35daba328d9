"""complex32 (PyTorch's ComplexHalf) storage: two float16 per element, computed in complex64.

NumPy has no complex type of 16-bit parts, so a complex32 tensor's array is a structured
array of two float16 fields, ``real`` and ``imag`` (4 bytes an element, PyTorch's byte
layout: ``view(float16)``, ``view_as_real``, ``untyped_storage()`` and saved files see the
same bytes as PyTorch's).  NumPy moves such elements as they are (views, copies, indexing,
concatenation) but computes nothing with them: every computation widens to complex64 (each
part exact) and rounds each part back to float16, as PyTorch computes ComplexHalf math in
``c10::complex<float>``::

    >>> a = narrow(np.array([1 + 2j, 0.1j]))     # complex32 elements
    >>> widen(a)                                 # array([1.+2.j, 0.+0.09998j], complex64)

This module holds every conversion between the two (no other module builds complex32
arrays by hand); ``HOOKS["activate"]`` (installed by ``_dispatch``) is called once, when the
first complex32 array is made, to switch on the ops' complex32 gate (``_dispatch``), so
that no op pays for complex32 before a program uses it.
"""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["NP", "is_chalf", "widen", "narrow", "empty", "zeros", "conj", "rounded"]

#: The NumPy dtype of a complex32 element: a real and an imaginary float16, in that order.
NP = np.dtype([("real", "<f2"), ("imag", "<f2")])

#: ``"activate"``: called (no arguments) when the first complex32 array is made.
HOOKS: dict = {}
_active = False


def _activate() -> None:
    global _active
    if not _active:
        _active = True
        hook = HOOKS.get("activate")
        if hook is not None:
            hook()


def active() -> bool:
    """Whether a complex32 array was ever made in this process."""
    return _active


def is_chalf(arr: Any) -> bool:
    """Whether ``arr`` (an array) holds complex32 elements."""
    return getattr(arr, "dtype", None) == NP


def widen(arr) -> np.ndarray:
    """A complex32 array's values as a new complex64 array of its shape (exact)."""
    out = _new(arr, np.empty_like, np.complex64)  # (in its dim order, as a tensor's copy)
    out.real = arr["real"]
    out.imag = arr["imag"]
    return out


def _new(shape, fill=np.empty, dtype=NP) -> np.ndarray:
    """A new array of ``shape`` (``fill`` is np.empty, np.zeros or np.empty_like); one no
    memory can hold is PyTorch's allocator error (a RuntimeError, as for every dtype), not
    NumPy's MemoryError or ValueError."""
    try:
        return fill(shape, dtype)
    except (MemoryError, ValueError) as e:
        from .backends._numpy import out_of_memory
        dims = np.shape(shape) if fill is np.empty_like else \
            shape if isinstance(shape, tuple) else (shape,)
        n = 1
        for d in dims:
            n *= int(d)
        if isinstance(e, MemoryError):
            raise out_of_memory(n * np.dtype(dtype).itemsize) from None
        if "too big" in str(e) or "Maximum allowed" in str(e):
            raise RuntimeError(f"Storage size calculation overflowed with sizes="
                               f"[{', '.join(str(int(d)) for d in dims)}]") from None
        raise


def narrow(values, shape: tuple | None = None) -> np.ndarray:
    """``values`` (an array or number of any numeric dtype, complex32 included) as a new
    complex32 array: through complex64 (PyTorch converts a double to float first), then each
    part rounded to float16 (out of range: inf, silently, as PyTorch)."""
    _activate()
    if is_chalf(values):
        if shape is None:
            return np.array(values, NP)
        out = _new(shape)
        out[...] = values
        return out
    with np.errstate(over="ignore", invalid="ignore"):
        c = np.asarray(values)
        if c.dtype.kind == "b":
            c = c.astype(np.uint8)
        c = c.astype(np.complex64)
        out = np.empty_like(c, NP) if shape is None else _new(shape)
        out["real"] = c.real
        out["imag"] = c.imag
    return out


def empty(shape: tuple) -> np.ndarray:
    """An uninitialised complex32 array (zeros: ``np.zeros(shape, NP)`` is exact too)."""
    _activate()
    return _new(shape)


def zeros(shape: tuple) -> np.ndarray:
    """A complex32 array of zeros (0+0j: all bits zero)."""
    _activate()
    return _new(shape, np.zeros)


def rounded(value):
    """A Python int, float or complex as the complex32 value PyTorch makes of it (each part
    to float32, then float16), as a Python complex; anything else as it is (a bool; an int
    past uint64, for the op's own error).  A number meeting a complex32 tensor in add, sub,
    mul, comparisons ... is that value (``z + 0.1`` adds 0.0999755859375, ``z == 70000``
    compares with inf)."""
    t = type(value)
    if t is float or t is complex or (t is int and -(1 << 63) <= value < (1 << 64)):
        with np.errstate(over="ignore", invalid="ignore"):
            c = complex(value)
            return complex(float(np.float16(np.float32(c.real))),
                           float(np.float16(np.float32(c.imag))))
    return value


def conj(arr) -> np.ndarray:
    """The conjugate of a complex32 array (a new array: the imaginary parts negated)."""
    out = np.array(arr, NP)
    np.negative(out["imag"], out=out["imag"])
    return out


# ---------------------------------------------------------------- which ops take complex32
# What PyTorch 2.13 does with complex32 tensors on the CPU, op by op (probed over the op
# inventory, tests/inventory.py; tests/test_complex32.py checks both lists against PyTorch).
# View ops (declared ``view=True``) run on the stored elements as they are; the ops below
# compute in complex64 and round each result part to float16 (a float32 result, ``abs``,
# ``var``, ``norm``, to float16); every other op raises PyTorch's error (``REFUSED``), or,
# for an op not listed at all, NotImplementedError: nothing computes unchecked.

#: Ops that compute on complex32 (by the registry's name or an alias).
COMPUTED = frozenset("""
    abs neg positive sgn isfinite isinf isnan isreal conj conj_physical resolve_conj
    resolve_neg clone mul eq ne add sub rsub float_power isclose allclose addcmul where all any
    std var std_mean var_mean count_nonzero norm bincount diff cat stack hstack vstack
    dstack column_stack row_stack atleast_1d atleast_2d atleast_3d block_diag cartesian_prod
    broadcast_tensors meshgrid combinations roll flipud tril triu diag diagflat diag_embed tile
    repeat repeat_interleave kron index_select index_add index_copy index_fill index_put
    masked_fill masked_select nonzero argwhere outer ger linalg.vector_norm linalg.norm
    linalg.matrix_norm fft.fftshift fft.ifftshift narrow_copy contiguous zeros_like ones_like
    empty_like full_like new_zeros new_ones new_empty new_full new_tensor new_empty_strided new
    rand_like randn_like uniform_ normal_ copy_ fill_ zero_ fill_diagonal_ is_nonzero
    flip fliplr pow index_reduce concat concatenate linalg.diagonal swapaxes
""".split())



def _not_impl(kernel: str) -> tuple:
    return NotImplementedError, f"\"{kernel}\" not implemented for 'ComplexHalf'"


def _flip(input, dims=None, *args, **kwargs):
    # (PyTorch's flip moves whole rows without its kernel unless a flipped dim of more than
    # one element is the one of stride 1)
    dims = kwargs.get("dims", dims)
    dims = (1,) if dims is None else (dims,) if isinstance(dims, int) else dims
    shape, stride = getattr(input, "_shape", ()), getattr(input, "_stride", ())
    try:
        if 0 in shape or all(shape[d] <= 1 or stride[d] != 1 for d in dims):
            return None
    except (IndexError, TypeError):
        return None  # (the op's own error)
    return _not_impl("flip_cpu")


def _index_reduce(input, dim=None, index=None, source=None, reduce=None, **kwargs):
    reduce = kwargs.get("reduce", reduce)
    return {"mean": _not_impl("div_cpu"), "amax": _not_impl("maximum_cpu"),
            "amin": _not_impl("minimum_cpu")}.get(reduce)


_LOW = (RuntimeError, "linalg.matrix_norm: Low precision dtypes not supported. Got ComplexHalf")


def _matrix_norm(A, ord="fro", dim=(-2, -1), *args, **kwargs):
    ord = kwargs.get("ord", ord)
    return None if ord in ("fro", 1, -1, float("inf"), float("-inf")) else _LOW


def _norm(A, ord=None, dim=None, *args, **kwargs):
    ord, dim = kwargs.get("ord", ord), kwargs.get("dim", dim)
    matrix = (dim is None and len(getattr(A, "_shape", ())) == 2 and ord is not None) or \
        (isinstance(dim, (tuple, list)) and len(dim) == 2)
    if matrix and ord not in (None, "fro", 1, -1, float("inf"), float("-inf")):
        return _LOW
    return None


def _pow(input, exponent=None, *args, **kwargs):
    # (PyTorch's pow shortcuts a number exponent of 0 or 1, and a base of 1; 0.5 and -1 are
    # sqrt and reciprocal, which have no complex32 kernel either)
    exponent = kwargs.get("exponent", exponent)
    if not hasattr(input, "_shape"):
        return None if input == 1 and not isinstance(input, bool) else _not_impl("pow")
    if hasattr(exponent, "_shape") or isinstance(exponent, complex):
        return _not_impl("pow")
    return None if exponent in (0, 1) else _not_impl(
        {0.5: "sqrt_vml_cpu", -1: "reciprocal_cpu", -0.5: "rsqrt_cpu"}.get(exponent, "pow"))


def _arg(args, kwargs, pos: int, name: str, default=None):
    """Argument ``name`` (``pos`` positionally, counting the tensor as 0) of an op's call."""
    if name in kwargs:
        return kwargs[name]
    return args[pos] if len(args) > pos else default


def _is_tensor(x) -> bool:
    return hasattr(x, "_shape")


def _by_args(rule):
    """A condition from ``rule(args, kwargs)`` -> kernel name or (type, message)."""
    def condition(*args, **kwargs):
        r = rule(args, kwargs)
        return _not_impl(r) if isinstance(r, str) else r
    return condition


def _max_min(name):
    def rule(a, k):
        other = _arg(a, k, 1, "dim")
        if _is_tensor(other):
            return RuntimeError, f"{name}imum not implemented for complex tensors."
        if other is not None:
            return RuntimeError, f"{name}(): does not support complex input"
        return f"{name}_all"
    return _by_args(rule)


def _matrix_power(a, k):
    n = _arg(a, k, 1, "n", 2)
    if isinstance(n, int) and n < 0:
        return RuntimeError, "linalg.inv: Low precision dtypes not supported. Got ComplexHalf"
    return {0: "eye", 1: None}.get(n, "addmm_impl_cpu_")


def _isin(a, k):
    elements, test = _arg(a, k, 0, "elements"), _arg(a, k, 1, "test_elements")
    for x in (elements, test):
        if isinstance(x, complex):
            return RuntimeError, "Unsupported input type encountered for isin(): ComplexDouble"
    return "isin_default_cpu" if _is_tensor(elements) and _is_tensor(test) else None


def _median(a, k):
    # (of no element: NaN without a dim, its own IndexError for an empty dim, no kernel)
    x, dim = _arg(a, k, 0, "input"), _arg(a, k, 1, "dim")
    empty = _no_elements(x)
    if dim is None:
        return None if empty else "median_cpu"
    try:
        return None if empty and x._shape[dim] == 0 else "median_out"
    except (IndexError, TypeError, AttributeError):
        return None  # (the op's own error)


def _equal(a, k):
    # (shapes that differ: False without a kernel; one tensor twice (the same memory and
    # layout): PyTorch's NaN-only check, equal_notnan_cpu)
    x, y = _arg(a, k, 0, "input"), _arg(a, k, 1, "other")
    if getattr(x, "_shape", None) != getattr(y, "_shape", None):
        return None
    same = _is_tensor(x) and _is_tensor(y) and x._storage is y._storage and \
        x._offset == y._offset and x._stride == y._stride
    return "equal_notnan_cpu" if same else "equal_cpu"


def _inner(a, k):
    # (PyTorch's inner is tensordot: a 0-dim operand a product, no kernel refused)
    x, y = _arg(a, k, 0, "input"), _arg(a, k, 1, "other")
    sx, sy = getattr(x, "_shape", None), getattr(y, "_shape", None)
    if () in (sx, sy) or sx is None or sy is None or sx[-1] != sy[-1]:
        return None  # (or its shape check first: the op's own error)
    rows = cols = 1
    for n in sx[:-1]:
        rows *= n
    for n in sy[:-1]:
        cols *= n
    if 0 in (rows, cols):  # (an empty result: no kernel)
        return None
    if sx[-1] == 1:  # (a contraction of one element: a product summed)
        return "sum_cpu"
    # (tensordot's matrix product: of one row by one column, a dot; with nothing to
    # contract, zeros without a kernel)
    if rows == cols == 1:
        return "dot"
    return None if sx[-1] == 0 else "addmm_impl_cpu_"


def _matmul(a, k):
    x, y = _arg(a, k, 0, "input"), _arg(a, k, 1, "other")
    nx, ny = len(getattr(x, "_shape", ())), len(getattr(y, "_shape", ()))
    return "dot" if nx == ny == 1 else "addmv_impl_cpu" if ny == 1 else "addmm_impl_cpu_"


def _einsum(a, k):
    # (PyTorch's einsum contracts left to right: a summed label of size above 1 in one
    # operand only is summed out of it first (sum_cpu), one of size above 1 in two meets in
    # a bmm; a pair with neither is only a mul (outer and elementwise products, diagonals,
    # permutations run), size-1 labels are squeezed, and an empty operand makes zeros.  One
    # operand is summed by sum whatever its sizes.)
    eq = a[0] if a and isinstance(a[0], str) else k.get("equation", "")
    ops = a[1:]
    if len(ops) == 1 and isinstance(ops[0], (list, tuple)):
        ops = tuple(ops[0])
    lhs, arrow, out = eq.replace(" ", "").partition("->")
    terms = lhs.split(",")
    if not eq or len(terms) != len(ops) or not all(_is_tensor(t) for t in ops):
        return "bmm"  # (the sublist form, or an argument error: found by the op itself)
    shapes = [t._shape for t in ops]
    if any(0 in sh for sh in shapes):
        return None
    width = max((len(sh) - len(t.replace("...", "")) for t, sh in zip(terms, shapes)
                 if "..." in t), default=0)
    ell = [chr(0x100 + j) for j in range(width)]  # (the ellipsis dims' labels, right-aligned)
    labelled = []
    for t, sh in zip(terms, shapes):
        pre, dots, post = t.partition("...")
        e = len(sh) - len(pre) - len(post) if dots else 0
        labelled.append(list(pre) + ell[width - e:] + list(post))
    if not arrow:  # (implicit output: the letters seen once, and the ellipsis)
        letters = lhs.replace("...", "").replace(",", "")
        out = "..." + "".join(c for c in letters if letters.count(c) == 1)
    keep = set(out.replace("...", "")) | (set(ell) if "..." in out else set())
    summed = set().union(*map(set, labelled)) - keep
    if len(ops) == 1:
        return "sum_cpu" if summed else None
    big = {c: [i for i, (lab, sh) in enumerate(zip(labelled, shapes))
               if any(x == c and n > 1 for x, n in zip(lab, sh))] for c in summed}
    last = {c: ks[-1] for c, ks in big.items() if ks}
    if any(i == 0 for i in last.values()):
        return "sum_cpu"
    for i in range(1, len(ops)):
        sums = [c for c, j in last.items() if j == i]
        if any(big[c] == [i] for c in sums):
            return "sum_cpu"
        if sums:
            return "bmm"
    return None


def _rot90(input, k=1, dims=(0, 1), *args, **kwargs):
    # (rot90 is flips and a transpose: a quarter turn flips one of the dims, a half turn both)
    k, dims = kwargs.get("k", k) % 4, kwargs.get("dims", dims)
    if k == 0 or len(dims) != 2:
        return None
    return _flip(input, {1: (dims[1],), 2: tuple(dims), 3: (dims[0],)}[k])


def _unless(kernel: str, trivial):
    """PyTorch's refusal naming ``kernel``, but where ``trivial(input)`` (no element to
    compute: its kernel is never called)."""
    def condition(*args, **kwargs):
        x = args[0] if args else kwargs.get("input")
        return None if x is not None and trivial(x) else _not_impl(kernel)
    return condition


def _zero_dim(x) -> bool:
    return getattr(x, "_shape", None) == ()


def _no_elements(x) -> bool:
    return 0 in getattr(x, "_shape", (1,))


#: Ops of ``COMPUTED`` that PyTorch runs on complex32 only in some forms: a function of the
#: op's arguments giving the refusal (exception type, message) for the others, or None.
CONDITIONS: dict = {"flip": _flip, "fliplr": lambda input, *a, **k: _flip(input, (1,)),
                    "index_reduce": _index_reduce, "linalg.matrix_norm": _matrix_norm,
                    "linalg.norm": _norm, "pow": _pow,
                    # (refused ops whose PyTorch kernel, named in the error, is the form's)
                    "max": _max_min("max"), "min": _max_min("min"),
                    "median": _by_args(_median), "nanmedian": _by_args(_median),
                    # (a complex32 mean is drawn in complex64 and rounded; a complex std
                    # is refused)
                    "normal": _by_args(lambda a, k: REFUSED["normal"] if _is_tensor(
                        _arg(a, k, 1, "std")) and _arg(a, k, 1, "std")._dtype.is_complex
                        else None),
                    "matmul": _by_args(_matmul), "linalg.matmul": _by_args(_matmul),
                    "inner": _by_args(_inner),
                    "div": _by_args(lambda a, k: {"floor": "div_floor_cpu", "trunc":
                                                  "div_trunc_cpu"}.get(
                                                      k.get("rounding_mode"), "div_cpu")),
                    "polygamma": _by_args(lambda a, k: {0: "digamma", 1: "trigamma"}.get(
                        _arg(a, k, 0, "n"), "polygamma")),
                    "round": _by_args(lambda a, k: "round_cpu" if k.get("decimals")
                                      else "round_vml_cpu"),
                    "special.round": _by_args(lambda a, k: "round_cpu" if k.get("decimals")
                                              else "round_vml_cpu"),
                    "linalg.cond": _by_args(lambda a, k: "linalg_svd_cpu" if _arg(
                        a, k, 1, "p") in (None, 2, -2) else (
                            RuntimeError, "linalg.inv: Low precision dtypes not supported. "
                                          "Got ComplexHalf")),
                    "lerp": _by_args(lambda a, k: "lerp_kernel_tensor" if _is_tensor(
                        _arg(a, k, 2, "weight")) else "lerp_kernel_scalar"),
                    "clamp_min": _by_args(lambda a, k: "maximum_cpu" if _is_tensor(
                        _arg(a, k, 1, "min")) else (NotImplementedError,
                                                    "clamp is not supported for complex types")),
                    "clamp_max": _by_args(lambda a, k: "minimum_cpu" if _is_tensor(
                        _arg(a, k, 1, "max")) else (NotImplementedError,
                                                    "clamp is not supported for complex types")),
                    "unique": _by_args(lambda a, k: "unique_dim" if k.get("dim") is not None
                                       else "unique"),
                    "bernoulli": _by_args(lambda a, k: "bernoulli_tensor_cpu_self_" if
                                          _arg(a, k, 1, "p") is None else
                                          "bernoulli_scalar_cpu_"),
                    # (an in-place form's own rule, by its name: ``bernoulli_(p=0.5)``)
                    "bernoulli_": _by_args(lambda a, k: "bernoulli_tensor_cpu_self_" if
                                           _is_tensor(_arg(a, k, 1, "p")) else
                                           "bernoulli_scalar_cpu_"),
                    "matrix_power": _by_args(_matrix_power),
                    "isin": _by_args(_isin),
                    "scatter": _by_args(lambda a, k: "scatter_gather_scalar_cpu" if not
                                        _is_tensor(_arg(a, k, 3, "src", k.get("value")))
                                        else "scatter_gather_tensor_cpu"),
                    "rot90": _rot90, "einsum": _by_args(_einsum),
                    "equal": _by_args(_equal),
                    "cummax": _unless("cummax_cpu", lambda x: _no_elements(x) or
                                      _zero_dim(x)),
                    "cummin": _unless("cummin_cpu", lambda x: _no_elements(x) or
                                      _zero_dim(x)),
                    "chain_matmul": _by_args(lambda a, k: None if len(a) == 1 else
                                             "addmm_impl_cpu_"),
                    # (one element of a 0-dim tensor is its own mode and k-th value)
                    "mode": _unless("mode_cpu", lambda x: _zero_dim(x) or _no_elements(x)),
                    "kthvalue": _unless("kthvalue_cpu", lambda x: _zero_dim(x) or
                                        _no_elements(x)),
                    "cumsum": _unless("cumsum_out_cpu", lambda x: _zero_dim(x) or
                                      _no_elements(x)),
                    "cumprod": _unless("cumprod_out_cpu", lambda x: _zero_dim(x) or
                                       _no_elements(x)),
                    "sum": _unless("sum_cpu", _no_elements),
                    "prod": _unless("prod_out_cpu", _no_elements),
                    "histc": _by_args(lambda a, k: "aminmax_cpu" if _arg(a, k, 2, "min", 0)
                                      == _arg(a, k, 3, "max", 0) else "linspace_cpu"),
                    }

#: Operators of an op refused by another kernel's name (``2 / z`` is a reciprocal).
OPERATOR_REFUSED: dict = {"__rtruediv__": _not_impl("reciprocal_cpu"),
                          "__rdiv__": _not_impl("reciprocal_cpu")}

#: Ops whose positional Python numbers PyTorch first converts to complex32 (``rounded``).
NUMBERS_ROUNDED = frozenset("add sub rsub mul eq ne where masked_fill index_fill fill_".split())

#: Ops whose number argument PyTorch converts with its overflow check (``index_fill``).
NUMBERS_CHECKED = frozenset("index_fill masked_fill".split())

#: Ops that require their tensors' dtypes to match (no promotion): a complex32 tensor beside
#: one of another dtype gets the op's own mismatch error (``isclose``: "ComplexHalf did not
#: match ComplexFloat"), before its kernel's refusal and before any widening to complex64.
SAME_DTYPE = frozenset("""
    isclose allclose masked_scatter index_put lerp index_add index_copy put scatter
    scatter_add scatter_reduce index_reduce
""".split())

#: Refused ops PyTorch runs without their kernel where the complex32 operand has no
#: element (its own checks first: ``mode`` of an empty dim is its IndexError).
EMPTY_RUNS = frozenset("""
    amax amin mode softmax log_softmax special.softmax special.log_softmax svd linalg.svd
    linalg.svdvals cholesky
""".split())

#: Ops that take complex32 operands themselves: composites rounding some of their steps to
#: complex32 (``trapezoid(y, x)``: ``y[1:] + y[:-1]`` is complex32 even where a float32
#: ``x`` makes the result complex64; ``dist``: the norm of the complex32 difference),
#: refusing with their kernel's error where PyTorch does.
OWN = frozenset("trapezoid trapz cumulative_trapezoid dist".split())

#: Ops that work on the elements as stored or only read metadata (no value computed).
NATIVE = frozenset("""
    to type type_as bool byte char short int long half bfloat16 float double cfloat cdouble
    chalf cpu cuda resize_ resize_as_ set_ numel is_complex is_floating_point dim ndimension
    nelement element_size is_contiguous is_signed storage_offset is_conj is_neg get_device
    size stride is_same_size requires_grad_ detach detach_ tensor as_tensor asarray
    is_non_overlapping_and_dense data_ptr untyped_storage storage resolve_conj resolve_neg
    conj positive clone contiguous atleast_1d atleast_2d atleast_3d broadcast_tensors
    broadcast_to meshgrid is_tensor is_storage is_nonzero zeros ones empty full scalar_tensor
    empty_strided frombuffer rand randn new_tensor cartesian_prod
""".split())

_NI, _RT = NotImplementedError, RuntimeError

#: PyTorch's refusal of complex32 operands, op by op: (exception type, message).
REFUSED: dict = {
    'softmax': _not_impl("softmax_lastdim_kernel_impl"),
    'log_softmax': _not_impl("log_softmax_lastdim_kernel_impl"),
    'special.softmax': _not_impl("softmax_lastdim_kernel_impl"),
    'special.log_softmax': _not_impl("log_softmax_lastdim_kernel_impl"),
    'cumsum': _not_impl("cumsum_out_cpu"),
    'cumprod': _not_impl("cumprod_out_cpu"),
    'isin': _not_impl("isin_default_cpu"),
    'sign': (_NI, 'Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.'),
    'ceil': (_NI, 'ceil is not supported for complex inputs'),
    'floor': (_NI, 'floor is not supported for complex inputs'),
    'trunc': (_NI, 'trunc is not supported for complex inputs'),
    'fix': (_NI, 'trunc is not supported for complex inputs'),
    'frac': (_NI, '"frac_cpu" not implemented for \'ComplexHalf\''),
    'exp': (_NI, '"exp_vml_cpu" not implemented for \'ComplexHalf\''),
    'exp2': (_NI, '"exp2" not implemented for \'ComplexHalf\''),
    'expm1': (_NI, '"expm1_vml_cpu" not implemented for \'ComplexHalf\''),
    'sin': (_NI, '"sin_vml_cpu" not implemented for \'ComplexHalf\''),
    'cos': (_NI, '"cos_vml_cpu" not implemented for \'ComplexHalf\''),
    'tan': (_NI, '"tan_vml_cpu" not implemented for \'ComplexHalf\''),
    'sinh': (_NI, '"sinh_cpu" not implemented for \'ComplexHalf\''),
    'cosh': (_NI, '"cosh_cpu" not implemented for \'ComplexHalf\''),
    'tanh': (_NI, '"tanh_vml_cpu" not implemented for \'ComplexHalf\''),
    'asinh': (_NI, '"asinh_cpu" not implemented for \'ComplexHalf\''),
    'arcsinh': (_NI, '"asinh_cpu" not implemented for \'ComplexHalf\''),
    'atan': (_NI, '"atan_vml_cpu" not implemented for \'ComplexHalf\''),
    'arctan': (_NI, '"atan_vml_cpu" not implemented for \'ComplexHalf\''),
    'sigmoid': (_NI, '"sigmoid_cpu" not implemented for \'ComplexHalf\''),
    'erf': (_NI, '"erf_vml_cpu" not implemented for \'ComplexHalf\''),
    'erfc': (_NI, '"erfc_vml_cpu" not implemented for \'ComplexHalf\''),
    'square': (_NI, '"pow" not implemented for \'ComplexHalf\''),
    'reciprocal': (_NI, '"reciprocal_cpu" not implemented for \'ComplexHalf\''),
    'deg2rad': (_RT, 'deg2rad is not supported for complex tensors.'),
    'rad2deg': (_RT, 'rad2deg is not supported for complex tensors.'),
    'angle': (_NI, '"angle_cpu" not implemented for \'ComplexHalf\''),
    'isneginf': (_RT, 'isneginf does not support complex inputs.'),
    'isposinf': (_RT, 'isposinf does not support complex inputs.'),
    'signbit': (_NI, 'signbit is not implemented for complex tensors.'),
    'logical_not': (_NI, '"logical_not_cpu" not implemented for \'ComplexHalf\''),
    'bitwise_not': (_NI, '"bitwise_not_cpu" not implemented for \'ComplexHalf\''),
    'relu': (_NI, 'clamp is not supported for complex types'),
    'i0': (_NI, '"i0_vml_cpu" not implemented for \'ComplexHalf\''),
    'sinc': (_NI, '"sinc_cpu" not implemented for \'ComplexHalf\''),
    'lgamma': (_NI, '"lgamma_vml_cpu" not implemented for \'ComplexHalf\''),
    'digamma': (_NI, '"digamma" not implemented for \'ComplexHalf\''),
    'special.erf': (_NI, '"erf_vml_cpu" not implemented for \'ComplexHalf\''),
    'special.erfc': (_NI, '"erfc_vml_cpu" not implemented for \'ComplexHalf\''),
    'special.erfcx': (_NI, '"erfcx_cpu" not implemented for \'ComplexHalf\''),
    'special.exp2': (_NI, '"exp2" not implemented for \'ComplexHalf\''),
    'special.expm1': (_NI, '"expm1_vml_cpu" not implemented for \'ComplexHalf\''),
    'special.expit': (_NI, '"sigmoid_cpu" not implemented for \'ComplexHalf\''),
    'special.i0': (_NI, '"i0_vml_cpu" not implemented for \'ComplexHalf\''),
    'special.i0e': (_NI, '"i0e_cpu" not implemented for \'ComplexHalf\''),
    'special.i1': (_NI, '"i1_cpu" not implemented for \'ComplexHalf\''),
    'special.i1e': (_NI, '"i1e_cpu" not implemented for \'ComplexHalf\''),
    'special.ndtr': (_NI, '"erf_vml_cpu" not implemented for \'ComplexHalf\''),
    'special.log_ndtr': (_NI, '"log_ndtr_cpu" not implemented for \'ComplexHalf\''),
    'special.sinc': (_NI, '"sinc_cpu" not implemented for \'ComplexHalf\''),
    'special.gammaln': (_NI, '"lgamma_vml_cpu" not implemented for \'ComplexHalf\''),
    'special.digamma': (_NI, '"digamma" not implemented for \'ComplexHalf\''),
    'special.psi': (_NI, '"digamma" not implemented for \'ComplexHalf\''),
    'special.entr': (_NI, '"entr_cpu" not implemented for \'ComplexHalf\''),
    'log': (_NI, '"log_vml_cpu" not implemented for \'ComplexHalf\''),
    'log2': (_NI, '"log2_vml_cpu" not implemented for \'ComplexHalf\''),
    'log10': (_NI, '"log10_vml_cpu" not implemented for \'ComplexHalf\''),
    'log1p': (_NI, '"log1p_vml_cpu" not implemented for \'ComplexHalf\''),
    'sqrt': (_NI, '"sqrt_vml_cpu" not implemented for \'ComplexHalf\''),
    'rsqrt': (_NI, '"rsqrt_cpu" not implemented for \'ComplexHalf\''),
    'acosh': (_NI, '"acosh_cpu" not implemented for \'ComplexHalf\''),
    'arccosh': (_NI, '"acosh_cpu" not implemented for \'ComplexHalf\''),
    'special.log1p': (_NI, '"log1p_vml_cpu" not implemented for \'ComplexHalf\''),
    'asin': (_NI, '"asin_vml_cpu" not implemented for \'ComplexHalf\''),
    'arcsin': (_NI, '"asin_vml_cpu" not implemented for \'ComplexHalf\''),
    'acos': (_NI, '"acos_vml_cpu" not implemented for \'ComplexHalf\''),
    'arccos': (_NI, '"acos_vml_cpu" not implemented for \'ComplexHalf\''),
    'atanh': (_NI, '"atanh_cpu" not implemented for \'ComplexHalf\''),
    'arctanh': (_NI, '"atanh_cpu" not implemented for \'ComplexHalf\''),
    'erfinv': (_NI, '"erfinv_vml_cpu" not implemented for \'ComplexHalf\''),
    'special.erfinv': (_NI, '"erfinv_vml_cpu" not implemented for \'ComplexHalf\''),
    'special.ndtri': (_NI, '"ndtri_cpu" not implemented for \'ComplexHalf\''),
    'round': (_NI, '"round_vml_cpu" not implemented for \'ComplexHalf\''),
    'special.round': (_NI, '"round_vml_cpu" not implemented for \'ComplexHalf\''),
    'logit': (_NI, '"logit_cpu" not implemented for \'ComplexHalf\''),
    'special.logit': (_NI, '"logit_cpu" not implemented for \'ComplexHalf\''),
    'nan_to_num': (_NI, '"nan_to_num" not implemented for \'ComplexHalf\''),
    'polygamma': (_NI, '"trigamma" not implemented for \'ComplexHalf\''),
    'special.polygamma': (_NI, '"trigamma" not implemented for \'ComplexHalf\''),
    'mvlgamma': (_NI, '"arange_cpu" not implemented for \'ComplexHalf\''),
    'special.multigammaln': (_NI, '"arange_cpu" not implemented for \'ComplexHalf\''),
    'frexp': (_RT, 'torch.frexp() only supports floating-point dtypes'),
    'true_divide': (_NI, '"div_cpu" not implemented for \'ComplexHalf\''),
    'remainder': (_NI, '"remainder_cpu" not implemented for \'ComplexHalf\''),
    'fmod': (_NI, '"fmod_cpu" not implemented for \'ComplexHalf\''),
    'atan2': (_NI, '"atan2_cpu" not implemented for \'ComplexHalf\''),
    'arctan2': (_NI, '"atan2_cpu" not implemented for \'ComplexHalf\''),
    'hypot': (_NI, '"hypot_cpu" not implemented for \'ComplexHalf\''),
    'copysign': (_NI, '"copysign_cpu" not implemented for \'ComplexHalf\''),
    'nextafter': (_NI, '"nextafter_cpu" not implemented for \'ComplexHalf\''),
    'logaddexp': (_NI, '"logaddexp_cpu" not implemented for \'ComplexHalf\''),
    'logaddexp2': (_NI, '"logaddexp2_cpu" not implemented for \'ComplexHalf\''),
    'maximum': (_RT, 'maximum not implemented for complex tensors.'),
    'minimum': (_RT, 'minimum not implemented for complex tensors.'),
    'fmax': (_RT, 'fmax not implemented for complex tensors.'),
    'fmin': (_RT, 'fmin not implemented for complex tensors.'),
    'heaviside': (_RT, 'heaviside is not yet implemented for complex tensors.'),
    'xlogy': (_NI, '"xlogy_cpu" not implemented for \'ComplexHalf\''),
    'special.xlogy': (_NI, '"xlogy_cpu" not implemented for \'ComplexHalf\''),
    'special.xlog1py': (_NI, '"xlog1py_cpu" not implemented for \'ComplexHalf\''),
    'special.zeta': (_NI, '"zeta_cpu" not implemented for \'ComplexHalf\''),
    'lt': (_NI, '"lt_cpu" not implemented for \'ComplexHalf\''),
    'le': (_NI, '"le_cpu" not implemented for \'ComplexHalf\''),
    'gt': (_NI, '"gt_cpu" not implemented for \'ComplexHalf\''),
    'ge': (_NI, '"ge_cpu" not implemented for \'ComplexHalf\''),
    'greater': (_NI, '"gt_cpu" not implemented for \'ComplexHalf\''),
    'greater_equal': (_NI, '"ge_cpu" not implemented for \'ComplexHalf\''),
    'less': (_NI, '"lt_cpu" not implemented for \'ComplexHalf\''),
    'less_equal': (_NI, '"le_cpu" not implemented for \'ComplexHalf\''),
    'logical_and': (_NI, '"logical_and_cpu" not implemented for \'ComplexHalf\''),
    'logical_or': (_NI, '"logical_or_cpu" not implemented for \'ComplexHalf\''),
    'logical_xor': (_NI, '"logical_xor_cpu" not implemented for \'ComplexHalf\''),
    'floor_divide': (_NI, '"div_floor_cpu" not implemented for \'ComplexHalf\''),
    'div': (_NI, '"div_cpu" not implemented for \'ComplexHalf\''),
    'divide': (_NI, '"div_cpu" not implemented for \'ComplexHalf\''),
    'bitwise_and': (_NI, '"bitwise_and_cpu" not implemented for \'ComplexHalf\''),
    'bitwise_or': (_NI, '"bitwise_or_cpu" not implemented for \'ComplexHalf\''),
    'bitwise_xor': (_NI, '"bitwise_xor_cpu" not implemented for \'ComplexHalf\''),
    'bitwise_left_shift': (_NI, '"lshift_cpu" not implemented for \'ComplexHalf\''),
    'bitwise_right_shift': (_NI, '"rshift_cpu" not implemented for \'ComplexHalf\''),
    'gcd': (_NI, '"gcd_cpu" not implemented for \'ComplexHalf\''),
    'lcm': (_NI, '"lcm_cpu" not implemented for \'ComplexHalf\''),
    'ldexp': (_NI, '"pow" not implemented for \'ComplexHalf\''),
    'equal': (_NI, '"equal_cpu" not implemented for \'ComplexHalf\''),
    'addcdiv': (_NI, '"addcdiv_cpu_out" not implemented for \'ComplexHalf\''),
    'lerp': (_NI, '"lerp_kernel_scalar" not implemented for \'ComplexHalf\''),
    'clamp': (_NI, 'clamp is not supported for complex types'),
    'clip': (_NI, 'clamp is not supported for complex types'),
    'clamp_min': (_NI, 'clamp is not supported for complex types'),
    'clamp_max': (_NI, 'clamp is not supported for complex types'),
    'complex': (_RT, 'Expected both inputs to be Half, Float or Double tensors but got ComplexHalf and ComplexHalf'),
    'polar': (_RT, 'Expected both inputs to be Half, Float or Double tensors but got ComplexHalf and ComplexHalf'),
    'sum': (_NI, '"sum_cpu" not implemented for \'ComplexHalf\''),
    'nansum': (_RT, 'nansum on CPU does not support complex inputs'),
    'prod': (_NI, '"prod_out_cpu" not implemented for \'ComplexHalf\''),
    'mean': (_NI, '"sum_cpu" not implemented for \'ComplexHalf\''),
    'nanmean': (_RT, 'nansum on CPU does not support complex inputs'),
    'amax': (_NI, '"max_values_cpu" not implemented for \'ComplexHalf\''),
    'amin': (_NI, '"min_values_cpu" not implemented for \'ComplexHalf\''),
    'logsumexp': (_NI, '"exp_vml_cpu" not implemented for \'ComplexHalf\''),
    'special.logsumexp': (_NI, '"exp_vml_cpu" not implemented for \'ComplexHalf\''),
    'max': (_NI, '"max_all" not implemented for \'ComplexHalf\''),
    'min': (_NI, '"min_all" not implemented for \'ComplexHalf\''),
    'median': (_NI, '"median_cpu" not implemented for \'ComplexHalf\''),
    'nanmedian': (_NI, '"median_cpu" not implemented for \'ComplexHalf\''),
    'mode': (_NI, '"mode_cpu" not implemented for \'ComplexHalf\''),
    'aminmax': (_NI, '"aminmax_cpu" not implemented for \'ComplexHalf\''),
    'argmax': (_RT, 'argmax(): does not support complex input'),
    'argmin': (_RT, 'argmin(): does not support complex input'),
    'kthvalue': (_NI, '"kthvalue_cpu" not implemented for \'ComplexHalf\''),
    'quantile': (_RT, 'quantile() input tensor must be either float or double dtype'),
    'nanquantile': (_RT, 'quantile() input tensor must be either float or double dtype'),
    'sort': (_RT, ' Sort does not support complex dtypes on CPU'),
    'argsort': (_RT, ' Sort does not support complex dtypes on CPU'),
    'msort': (_RT, ' Sort does not support complex dtypes on CPU'),
    'topk': (_RT, ' topk does not support complex dtypes on CPU'),
    'renorm': (_RT, 'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/'
                    'AccumulateType.cpp":23, please report a bug to PyTorch. Unrecognized '
                    'ScalarType: ComplexHalf'),
    'histc': (_NI, '"linspace_cpu" not implemented for \'ComplexHalf\''),
    'histogram': (_NI, '"histogramdd" not implemented for \'ComplexHalf\''),
    'gradient': (_NI, '"div_cpu" not implemented for \'ComplexHalf\''),
    'cov': (_NI, '"sum_cpu" not implemented for \'ComplexHalf\''),
    'corrcoef': (_NI, '"sum_cpu" not implemented for \'ComplexHalf\''),
    'trace': (_NI, '"trace" not implemented for \'ComplexHalf\''),
    'cummax': (_NI, '"cummax_cpu" not implemented for \'ComplexHalf\''),
    'cummin': (_NI, '"cummin_cpu" not implemented for \'ComplexHalf\''),
    'logcumsumexp': (_NI, '"logcumsumexp_out_cpu" not implemented for \'ComplexHalf\''),
    'view_as_complex': (_RT, 'view_as_complex is only supported for half, float and double tensors, but got a tensor of scalar type: ComplexHalf'),
    'rot90': (_NI, '"flip_cpu" not implemented for \'ComplexHalf\''),
    'vander': (_NI, '"cumprod_out_cpu" not implemented for \'ComplexHalf\''),
    'linalg.vander': (_RT, 'linalg.vander supports floating point, complex, and integer tensors, but got ComplexHalf'),
    'gather': (_NI, '"scatter_gather_tensor_cpu" not implemented for \'ComplexHalf\''),
    'scatter': (_NI, '"scatter_gather_tensor_cpu" not implemented for \'ComplexHalf\''),
    'scatter_add': (_NI, '"scatter_gather_tensor_cpu" not implemented for \'ComplexHalf\''),
    'scatter_reduce': (_NI, '"scatter_gather_tensor_cpu" not implemented for \'ComplexHalf\''),
    'take': (_NI, '"take_cpu" not implemented for \'ComplexHalf\''),
    'take_along_dim': (_NI, '"scatter_gather_tensor_cpu" not implemented for \'ComplexHalf\''),
    'put': (_NI, '"take_put_cpu" not implemented for \'ComplexHalf\''),
    'masked_scatter': (_NI, '"masked_scatter" not implemented for \'ComplexHalf\''),
    'searchsorted': (_NI, '"searchsorted_out_cpu" not implemented for \'ComplexHalf\''),
    'bucketize': (_NI, '"searchsorted_out_cpu" not implemented for \'ComplexHalf\''),
    'unique': (_NI, '"unique" not implemented for \'ComplexHalf\''),
    'unique_consecutive': (_NI, '"unique" not implemented for \'ComplexHalf\''),
    'mm': (_NI, '"addmm_impl_cpu_" not implemented for \'ComplexHalf\''),
    'bmm': (_NI, '"bmm" not implemented for \'ComplexHalf\''),
    'matmul': (_NI, '"addmm_impl_cpu_" not implemented for \'ComplexHalf\''),
    'linalg.matmul': (_NI, '"addmm_impl_cpu_" not implemented for \'ComplexHalf\''),
    'mv': (_NI, '"addmv_impl_cpu" not implemented for \'ComplexHalf\''),
    'dot': (_NI, '"dot" not implemented for \'ComplexHalf\''),
    'vdot': (_NI, '"vdot" not implemented for \'ComplexHalf\''),
    'inner': (_NI, '"addmm_impl_cpu_" not implemented for \'ComplexHalf\''),
    'addmm': (_NI, '"addmm_impl_cpu_" not implemented for \'ComplexHalf\''),
    'addmv': (_NI, '"addmv_impl_cpu" not implemented for \'ComplexHalf\''),
    'addr': (_NI, '"addr_cpu" not implemented for \'ComplexHalf\''),
    'addbmm': (_NI, '"addmm_impl_cpu_" not implemented for \'ComplexHalf\''),
    'baddbmm': (_NI, '"baddbmm" not implemented for \'ComplexHalf\''),
    'chain_matmul': (_NI, '"addmm_impl_cpu_" not implemented for \'ComplexHalf\''),
    'linalg.multi_dot': (_NI, '"addmm_impl_cpu_" not implemented for \'ComplexHalf\''),
    'tensordot': (_NI, '"addmm_impl_cpu_" not implemented for \'ComplexHalf\''),
    'einsum': (_NI, '"bmm" not implemented for \'ComplexHalf\''),
    'cross': (_NI, '"cross" not implemented for \'ComplexHalf\''),
    'linalg.cross': (_NI, '"cross" not implemented for \'ComplexHalf\''),
    'linalg.vecdot': (_NI, '"sum_cpu" not implemented for \'ComplexHalf\''),
    'det': (_NI, '"lu_cpu" not implemented for \'ComplexHalf\''),
    'logdet': (_RT, 'logdet: Low precision dtypes not supported. Got ComplexHalf'),
    'slogdet': (_RT, 'linalg.slogdet: Low precision dtypes not supported. Got ComplexHalf'),
    'inverse': (_RT, 'linalg.inv: Low precision dtypes not supported. Got ComplexHalf'),
    'matrix_exp': (_NI, '"bmm" not implemented for \'ComplexHalf\''),
    'linalg.det': (_NI, '"lu_cpu" not implemented for \'ComplexHalf\''),
    'linalg.slogdet': (_RT, 'linalg.slogdet: Low precision dtypes not supported. Got ComplexHalf'),
    'linalg.inv': (_RT, 'linalg.inv: Low precision dtypes not supported. Got ComplexHalf'),
    'linalg.inv_ex': (_RT, 'linalg.inv: Low precision dtypes not supported. Got ComplexHalf'),
    'linalg.matrix_exp': (_NI, '"bmm" not implemented for \'ComplexHalf\''),
    'linalg.eigvals': (_NI, '"linalg_eig_out_cpu" not implemented for \'ComplexHalf\''),
    'cholesky': (_NI, '"cholesky_cpu" not implemented for \'ComplexHalf\''),
    'linalg.cholesky': (_NI, '"cholesky_cpu" not implemented for \'ComplexHalf\''),
    'linalg.cholesky_ex': (_NI, '"cholesky_cpu" not implemented for \'ComplexHalf\''),
    'linalg.eigvalsh': (_NI, '"linalg_eigh_cpu" not implemented for \'ComplexHalf\''),
    'linalg.eigh': (_NI, '"linalg_eigh_cpu" not implemented for \'ComplexHalf\''),
    'linalg.eig': (_NI, '"linalg_eig_out_cpu" not implemented for \'ComplexHalf\''),
    'cholesky_solve': (_NI, '"cholesky_solve_cpu" not implemented for \'ComplexHalf\''),
    'linalg.solve': (_NI, '"lu_cpu" not implemented for \'ComplexHalf\''),
    'linalg.solve_ex': (_NI, '"lu_cpu" not implemented for \'ComplexHalf\''),
    'triangular_solve': (_NI, '"triangular_solve_cpu" not implemented for \'ComplexHalf\''),
    'linalg.solve_triangular': (_NI, '"triangular_solve_cpu" not implemented for \'ComplexHalf\''),
    'matrix_power': (_NI, '"addmm_impl_cpu_" not implemented for \'ComplexHalf\''),
    'linalg.matrix_power': (_NI, '"addmm_impl_cpu_" not implemented for \'ComplexHalf\''),
    'linalg.lstsq': (_RT, "This function doesn't handle types other than float and double"),
    'linalg.cond': (_NI, '"linalg_svd_cpu" not implemented for \'ComplexHalf\''),
    'linalg.matrix_rank': (_RT, "This function doesn't handle types other than float and double"),
    'pinverse': (_RT, 'linalg.pinv(ComplexHalf{[3, 4]}): expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble types'),
    'linalg.pinv': (_RT, 'linalg.pinv(ComplexHalf{[3, 4]}): expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble types'),
    'linalg.svdvals': (_NI, '"linalg_svd_cpu" not implemented for \'ComplexHalf\''),
    'linalg.tensorinv': (_RT, 'linalg.inv: Low precision dtypes not supported. Got ComplexHalf'),
    'linalg.tensorsolve': (_NI, '"lu_cpu" not implemented for \'ComplexHalf\''),
    'cdist': (_RT, 'cdist only supports floating-point dtypes, X1 got: ComplexHalf'),
    'qr': (_NI, '"geqrf_cpu" not implemented for \'ComplexHalf\''),
    'linalg.qr': (_NI, '"geqrf_cpu" not implemented for \'ComplexHalf\''),
    'svd': (_NI, '"linalg_svd_cpu" not implemented for \'ComplexHalf\''),
    'linalg.svd': (_NI, '"linalg_svd_cpu" not implemented for \'ComplexHalf\''),
    'fft.fft': (_RT, "MKL FFT doesn't support tensors of type: Half"),
    'fft.ifft': (_RT, "MKL FFT doesn't support tensors of type: Half"),
    'fft.rfft': (_RT, 'rfft expects a real input tensor, but got ComplexHalf'),
    'fft.ihfft': (_RT, 'ihfft expects a real input tensor, but got ComplexHalf'),
    'fft.irfft': (_RT, "MKL FFT doesn't support tensors of type: Half"),
    'fft.hfft': (_RT, "MKL FFT doesn't support tensors of type: Half"),
    'fft.fft2': (_RT, "MKL FFT doesn't support tensors of type: Half"),
    'fft.ifft2': (_RT, "MKL FFT doesn't support tensors of type: Half"),
    'fft.rfft2': (_RT, 'rfftn expects a real-valued input tensor, but got ComplexHalf'),
    'fft.irfft2': (_RT, "MKL FFT doesn't support tensors of type: Half"),
    'fft.fftn': (_RT, "MKL FFT doesn't support tensors of type: Half"),
    'fft.ifftn': (_RT, "MKL FFT doesn't support tensors of type: Half"),
    'fft.rfftn': (_RT, 'rfftn expects a real-valued input tensor, but got ComplexHalf'),
    'fft.irfftn': (_RT, "MKL FFT doesn't support tensors of type: Half"),
    'stft': (_NI, '"reflection_pad1d" not implemented for \'ComplexHalf\''),
    'istft': (_RT, "MKL FFT doesn't support tensors of type: Half"),
    'randint_like': (_RT, 'check_random_bounds handles only integral, floating-point and boolean types'),
    'normal': (_RT, 'normal expects standard deviation to be non-complex'),
    'bernoulli': (_NI, '"bernoulli_tensor_cpu_self_" not implemented for \'ComplexHalf\''),
    'multinomial': (_RT, 'multinomial only supports floating-point dtypes for input, got: ComplexHalf'),
    'poisson': (_NI, '"poisson_cpu" not implemented for \'ComplexHalf\''),
    'exponential_': (_RT, 'Exponential distribution is a continuous probability distribution. dtype must be a floating point but you specified ComplexHalf'),
    'cauchy_': (_RT, 'Cauchy distribution is a continuous probability distribution. dtype must be a floating point but you specified c10::complex<c10::Half>'),
    'log_normal_': (_NI, '"log_normal_cpu" not implemented for \'ComplexHalf\''),
    'bernoulli_': (_NI, '"bernoulli_scalar_cpu_" not implemented for \'ComplexHalf\''),
    'random_': (_RT, 'check_random_bounds handles only integral, floating-point and boolean types'),
    'geometric_': (_NI, '"geometric_cpu" not implemented for \'ComplexHalf\''),
    'sum_to_size': (_NI, '"sum_cpu" not implemented for \'ComplexHalf\''),
}

_NO_BOUNDS = (RuntimeError, "check_random_bounds handles only integral, floating-point and "
                            "boolean types")

#: Factories PyTorch refuses to make complex32 tensors (``arange(3, dtype=complex32)``).
DTYPE_REFUSED: dict = {
    "arange": _not_impl("arange_cpu"), "range": _not_impl("range_cpu"),
    "linspace": _not_impl("linspace_cpu"), "logspace": _not_impl("logspace_cpu"),
    "eye": _not_impl("eye"), "tril_indices": _not_impl("tril_indices"),
    "triu_indices": _not_impl("triu_indices"), "randperm": _not_impl("randperm"),
    "randint": _NO_BOUNDS,
    "randint_like": _NO_BOUNDS, "random_": _NO_BOUNDS,
}
#: Factories refused only past a trivial size (a window of 0 or 1 elements is made without
#: PyTorch's kernel): their first argument at most this.
DTYPE_TRIVIAL = {"hann_window": 1, "hamming_window": 1, "blackman_window": 1,
                 "bartlett_window": 1, "kaiser_window": 1}
for _w in DTYPE_TRIVIAL:
    DTYPE_REFUSED[_w] = _not_impl("arange_cpu")

#: Comparisons: their result is bool whatever they compare (an in-place one may write it
#: into any dtype: ``int_tensor.eq_(z)``).
COMPARISONS = frozenset("eq ne lt le gt ge greater greater_equal less less_equal not_equal "
                        "logical_and logical_or logical_xor logical_not".split())
