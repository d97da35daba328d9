"""Run one program on PyTorch and on tensorviz, comparing after every statement.

After each statement every live variable is compared: dtype, shape, strides, storage offset,
values (NaN equals NaN; tolerances by dtype), which variables share storage, and, where a
statement raises, the exception class. The first disagreement is the program's finding::

    >>> compare(["v0 = T.tensor([1., 2.])", "v1 = v0[::2].ravel()"], torch, tensorviz)
    None                                   # or a Finding(kind, line, detail)

Kinds: ``silent`` (both ran, results differ), ``leak`` (both raised, and tensorviz's error
came from inside NumPy or is not one of PyTorch's public classes: AttributeError, KeyError...),
``error-class`` (both raised, different public classes), ``refused`` (tensorviz raised where PyTorch ran),
``accepted`` (tensorviz ran where PyTorch raised); ``hang`` and ``crash`` are decided by the
batch runner, which watches the worker process.
"""
from __future__ import annotations

import builtins
import re
import warnings
from dataclasses import dataclass

import numpy as np

# The classes PyTorch raises for bad input; anything else from tensorviz is a leak.
PUBLIC_ERRORS = {"RuntimeError", "IndexError", "TypeError", "ValueError", "NotImplementedError"}

TOL = {"float16": (2e-3, 1e-3), "complex32": (2e-3, 1e-3), "bfloat16": (1.6e-2, 8e-3), "float32": (2e-5, 1e-6), "float64": (1e-9, 1e-12),
       "complex64": (2e-5, 1e-6), "complex128": (1e-9, 1e-12)}


@dataclass
class Finding:
    kind: str
    line: int          # index of the statement where the libraries first disagree
    op: str
    detail: str

    def key(self) -> tuple:
        return (self.kind, self.op)


def error_class(exc: BaseException) -> str:
    """The exception's class as compared: NumPy's own classes by name (always a leak),
    otherwise the first builtin class in its MRO (PyTorch's LinAlgError is a RuntimeError)."""
    cls = type(exc)
    if cls.__module__.startswith("numpy"):
        return "numpy." + cls.__name__
    for c in cls.__mro__:
        if c.__module__ == "builtins":
            return c.__name__
    return cls.__name__


def from_numpy(exc: BaseException) -> bool:
    """Whether the exception was raised inside NumPy (its innermost frame is NumPy's code)."""
    tb = exc.__traceback__
    last = None
    while tb is not None:
        last = tb.tb_frame.f_code.co_filename
        tb = tb.tb_next
    return bool(last) and ("/numpy/" in last or "\\numpy\\" in last)


def _dtype_name(dt) -> str:
    return str(dt).split(".")[-1]


#: Past this many elements a tensor's values are compared at ``_sample_positions`` only (the
#: same in both libraries): a 2**31-element result would otherwise be copied, converted and
#: compared whole after every statement, minutes of the program's time limit.
SAMPLED = 1 << 22


def _sample_positions(shape: tuple) -> tuple:
    """Index arrays (one per dim) of the first, the last and evenly spaced elements."""
    n = int(np.prod(shape))
    k = 1 << 14
    flat = np.unique(np.concatenate([np.arange(k), np.arange(n - k, n),
                                     np.linspace(0, n - 1, k).astype(np.int64)]))
    return np.unravel_index(flat, shape)


def _tensor_view(lib, t) -> dict:
    """What is compared of one tensor."""
    values = t
    if t.numel() > SAMPLED:
        values = t[tuple(lib.tensor(i) for i in _sample_positions(tuple(t.shape)))]
    # (numpy() refuses bfloat16 and complex32 in both libraries: float32 and complex64 hold
    # each value exactly)
    values = values.float() if t.dtype == lib.bfloat16 else \
        values.to(lib.complex64) if t.dtype == lib.complex32 else values
    tol = "float16" if t.dtype == lib.complex32 else None  # (its parts are float16)
    if lib.__name__ == "torch":
        arr = values.detach().resolve_conj().resolve_neg().cpu().numpy()
        st = t.untyped_storage()
        storage = st.data_ptr() if st.nbytes() else None
        lazy = (t.is_conj(), t.is_neg())
    else:
        r = values.resolve_conj() if hasattr(values, "resolve_conj") else values
        r = r.resolve_neg() if hasattr(r, "resolve_neg") else r
        arr = r.numpy()
        storage = id(t._storage) if t._storage.nbytes() else None
        lazy = (t.is_conj(), t.is_neg())
    return {"dtype": _dtype_name(t.dtype), "shape": tuple(t.shape), "stride": tuple(t.stride()),
            "offset": t.storage_offset(), "values": np.array(arr, copy=True),
            "storage": storage, "lazy": lazy, "tol": tol}


def describe(lib, value, depth=0):
    """A library-neutral description of any value a statement can produce."""
    if isinstance(value, lib.Tensor):
        return ("tensor", _tensor_view(lib, value))
    if isinstance(value, (lib.dtype,)):
        return ("dtype", _dtype_name(value))
    if isinstance(value, lib.Size):
        return ("size", tuple(value))
    if isinstance(value, (tuple, list)) and depth < 3:
        kind = "tuple" if isinstance(value, tuple) else "list"
        if len(value) > 64:  # (tensor_split(10**6): the length and both ends, in bounded time)
            ends = list(value[:32]) + list(value[-32:])
            return (kind, [("number", len(value))] + [describe(lib, v, depth + 1) for v in ends])
        return (kind, [describe(lib, v, depth + 1) for v in value])
    if isinstance(value, (builtins.bool, np.bool_)):
        return ("bool", builtins.bool(value))
    if isinstance(value, (int, float, complex)):
        return ("number", value)
    if isinstance(value, lib.device):
        return ("device", str(value))
    if value is None or isinstance(value, str):
        return ("other", value)
    return ("object", type(value).__name__)


def _same_values(a: np.ndarray, b: np.ndarray, dtype: str, tol: str | None = None) -> bool:
    """Equal values of ``dtype``, within the tolerance of ``tol`` (default: ``dtype``'s)."""
    if a.shape != b.shape:
        return False
    if a.size == 0:
        return True
    if dtype not in TOL:
        return bool(np.array_equal(a, b))
    rtol, atol = TOL[tol or dtype]
    a64 = a.astype(np.complex128 if dtype.startswith("complex") else np.float64)
    b64 = b.astype(a64.dtype)
    if dtype.startswith("complex"):
        # Note: C99 Annex G classifies a complex value as a whole: with an infinite part it is
        # an infinity whatever its other part (inf+nan j, inf+1j and -inf-inf j are the one
        # point at infinity), else with a NaN part it is a NaN (nan+1j is nan+nan j).
        # PyTorch's C++ complex arithmetic and NumPy's reach different representatives
        # (PyTorch's a - b is a + (-1+0j)*b: (1+1j) - (inf+0j) is -inf+nan j there, -inf+1j
        # in tensorviz; 5 - (inf+inf j) is even nan+nan j there, -inf-inf j in tensorviz), so
        # values of one class compare equal, and PyTorch's NaN equals tensorviz's infinity;
        # tensorviz's NaN never equals a PyTorch infinity or number.
        same = _complex_class_match(a64, b64)
        if same.any():
            a64, b64 = np.where(same, 0, a64), np.where(same, 0, b64)
    parts = (a64.real, a64.imag, b64.real, b64.imag) if dtype.startswith("complex") else \
        (a64, np.zeros(1), b64, np.zeros(1))
    # Note: a complex result's rounding error is bounded relative to its modulus, not part by
    # part (the imaginary part of a product or sum of large terms that cancels to zero carries
    # an error of eps * |z|: PyTorch's cov gives 3.9e76+5e18j where the exact value, and
    # tensorviz's, is 3.9e76+0j). So both parts of a complex tensor are compared at the scale
    # of the largest finite |z| of PyTorch's values; a real tensor at its largest finite |x|.
    with np.errstate(all="ignore"):
        mod = np.abs(a64)
    zscale = float(np.max(mod[np.isfinite(mod)], initial=0.0))
    for x, y in ((parts[0], parts[2]), (parts[1], parts[3])):
        with np.errstate(all="ignore"):
            nan_x, nan_y = np.isnan(x), np.isnan(y)
            if not np.array_equal(np.broadcast_to(nan_x, np.broadcast(x, y).shape),
                                  np.broadcast_to(nan_y, np.broadcast(x, y).shape)):
                return False
            inf_x, inf_y = np.isinf(x), np.isinf(y)
            if not np.array_equal(inf_x, inf_y) or not np.array_equal(x[inf_x], y[inf_y]):
                return False
            ok = ~(nan_x | inf_x)
            xs, ys = np.broadcast_to(x, ok.shape)[ok], np.broadcast_to(y, ok.shape)[ok]
            scale = max(float(np.max(np.abs(xs), initial=0.0)), zscale, 1.0)
            if not np.allclose(xs, ys, rtol=rtol, atol=atol * scale):
                return False
    return True


def _complex_class_match(t, v):
    """Where PyTorch's complex values ``t`` and tensorviz's ``v`` stand for the same thing:
    both infinite (any representative), both NaN, or PyTorch's NaN for tensorviz's infinity
    (PyTorch's C++ complex arithmetic reaches other representatives than NumPy's); never
    tensorviz's NaN for a PyTorch infinity or number."""
    with np.errstate(all="ignore"):
        inf_t = np.isinf(t.real) | np.isinf(t.imag)
        inf_v = np.isinf(v.real) | np.isinf(v.imag)
        nan_t = ~inf_t & (np.isnan(t.real) | np.isnan(t.imag))
        nan_v = ~inf_v & (np.isnan(v.real) | np.isnan(v.imag))
    return (inf_t & inf_v) | (nan_t & nan_v) | (nan_t & inf_v)


def _same(da, db, path="") -> str | None:
    """None when the two descriptions agree, else what differs."""
    if da[0] != db[0]:
        return f"{path}: {da[0]} vs {db[0]}"
    kind, a, b = da[0], da[1], db[1]
    if kind == "tensor":
        for k in ("dtype", "shape", "stride", "offset", "lazy"):
            if a[k] != b[k]:
                return f"{path}{k}: {a[k]} vs {b[k]}"
        if not _same_values(a["values"], b["values"], a["dtype"], a.get("tol")):
            return f"{path}values: {a['values']!r} vs {b['values']!r}"
        return None
    if kind in ("tuple", "list"):
        if len(a) != len(b):
            return f"{path}len: {len(a)} vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = _same(x, y, f"{path}[{i}].")
            if d:
                return d
        return None
    if kind == "number":
        if type(a) is not type(b):
            return f"{path}type: {type(a).__name__} vs {type(b).__name__}"
        if isinstance(a, (float, complex)):
            ok = _same_values(np.array([a]), np.array([b]),
                              "complex128" if isinstance(a, complex) else "float64")
            return None if ok else f"{path}value: {a!r} vs {b!r}"
    return None if a == b else f"{path}: {a!r} vs {b!r}"


# ---------------------------------------------------------------- deliberate differences
def _call_arg(line: str, fn: str, pos_fn: int, pos_method: int, kw: str):
    """The value of argument ``kw`` of the first ``fn(...)`` call in ``line`` (positional
    index ``pos_fn`` as ``T.fn(input, ...)``, ``pos_method`` as ``x.fn(...)``), as Python
    source; None when not given."""
    import ast
    try:
        tree = ast.parse(line)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == fn:
            for k in node.keywords:
                if k.arg == kw:
                    return ast.unparse(k.value)
            is_fn = isinstance(node.func.value, ast.Name) and node.func.value.id == "T"
            pos = pos_fn if is_fn else pos_method
            if len(node.args) > pos:
                return ast.unparse(node.args[pos])
            return None
    return None


def _number(text: str):
    """A real number written as the generator writes them (``1e-15``, ``-float('inf')``,
    ``float('nan')``); None for anything else."""
    import ast
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return None
    allowed = (ast.Expression, ast.UnaryOp, ast.USub, ast.UAdd, ast.Constant, ast.Call,
               ast.Name, ast.Load)
    if not all(isinstance(n, allowed) for n in ast.walk(tree)) or any(
            isinstance(n, ast.Name) and n.id != "float" for n in ast.walk(tree)):
        return None
    try:
        value = eval(compile(tree, "<number>", "eval"), {"__builtins__": {}, "float": float})
    except (ValueError, TypeError):
        return None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else None


def _call_operand(line: str, env: dict):
    """The tensor (or value) a statement's call reads first (``T.op(vN, ...)`` or
    ``vN.op(...)``; polygamma(n, vN): vN) in ``env``; None when there is none."""
    m = re.search(r"=\s*(?:T\.[\w.]*polygamma\([^,]+,\s*(v\d+)|T\.[\w.]+\(\s*(v\d+)|"
                  r"(v\d+)\.\w+\()", line)
    return env.get(m.group(1) or m.group(2) or m.group(3)) if m else None


def _call_input(line: str, env: dict):
    """The values of the tensor a statement's call reads first (``T.op(vN, ...)`` or
    ``vN.op(...)``) in ``env``, as a NumPy array; None when there is none."""
    t = _call_operand(line, env)
    if t is None or not hasattr(t, "resolve_conj"):
        return None
    try:
        r = t.resolve_conj().resolve_neg()
        if str(r.dtype).endswith("bfloat16"):  # (numpy() refuses it; float32 holds it exactly)
            import ml_dtypes
            return np.array(r.float().numpy(force=True)).astype(ml_dtypes.bfloat16)
        return np.array(r.numpy(force=True), copy=True)
    except Exception:  # noqa: BLE001 - (anything tensorviz cannot show: no tie check)
        return None


def _read_values(line: str, env: dict) -> list:
    """The values of every tensor a statement names on its right-hand side, in order of
    appearance (as ``_call_input`` gives them; None for one it cannot read)."""
    rhs = line.split("=", 1)[1] if re.match(r"\s*\w+\s*=[^=]", line) else line
    rhs = re.sub(r"\bout=\(?[v\d,\s]*\)?", "", rhs)
    return [_call_input(f"x = T.f({v})", env) for v in re.findall(r"\bv\d+\b", rhs)]


# The writes whose result PyTorch's loop order decides (see ``_ordered_write``).
_SETITEM = re.compile(r"^\s*(v\d+)\[(.*)\]\s*=(?!=)\s*(.+)$")
_AUGMENTED = re.compile(r"^\s*(v\d+)\s*(?:[-+*/%&|^@]|//|\*\*|<<|>>)=\s*(.+)$")
_INPLACE_METHOD = re.compile(r"=\s*(v\d+)\.(\w+_)\((.*)\)\s*$")
_INPLACE_FUNCTION = re.compile(r"=\s*T\.(\w+_)\(\s*(v\d+)\s*(?:,(.*))?\)\s*$")
_OUT = re.compile(r"\bout=(\(\s*v\d+\s*(?:,\s*v\d+\s*)*,?\s*\)|v\d+)")
# Index writes where a position may be written more than once (no accumulation): the last
# write wins, and which one is last follows PyTorch's loop order.
_SCATTERS = {"put_": (2, "accumulate"), "index_put_": (2, "accumulate"),
             "index_copy_": (None, None), "scatter_": (3, "reduce")}
# (their out-of-place forms: ``vT = T.put(vS, ...)``, ``vT = vS.put(...)``)
_SCATTER_CALL = re.compile(r"^\s*(v\d+)\s*=\s*(?:T\.(put|index_put|index_copy|scatter)\((.*)\)|"
                           r"v\d+\.(put|index_put|index_copy|scatter)\((.*)\))\s*$")
_VAR = re.compile(r"\bv\d+\b")


def _storage_ptr(t):
    try:
        st = t.untyped_storage()
        return st.data_ptr() if st.nbytes() else None
    except Exception:  # noqa: BLE001 - (not a tensor)
        return None


def _scatter_without_accumulation(op: str, args: str, shift: int = 0) -> bool:
    """Whether ``args`` (the source of an index write ``op``'s arguments; ``shift``: 1 when
    they start with the input, ``T.put(x, ...)``) leave its accumulation or reduction off."""
    pos, kw = _SCATTERS[op if op.endswith("_") else op + "_"]
    pos = None if pos is None else pos + shift
    if kw is None:
        return True
    import ast
    try:
        call = ast.parse(f"f({args})", mode="eval").body
    except SyntaxError:
        return False
    given = [k.value for k in call.keywords if k.arg == kw]
    if not given and len(call.args) > pos:
        given = [call.args[pos]]
    return not given or (isinstance(given[0], ast.Constant) and given[0].value in (False, None))


def _ordered_write(line: str, env: dict):
    """For a statement that writes into existing tensors (in-place op, ``out=``, setitem,
    ``a += b``) whose result depends on the order PyTorch's loops visit memory: the names
    written (``dests``) and the statement with every tensor it reads renamed ``_fN``
    (``apart``); None for any other statement (``env``: PyTorch's tensors, before the
    statement runs). Two cases:

    - a destination shares memory with a tensor the statement reads (``x.sub_(x[:, ::2])``,
      ``x[i] = x``, ``any(x, out=x)``, ``x.masked_scatter_(m, x)``): PyTorch's overlap check
      passes what it cannot tell (non-dense layouts) and what it does not check, and its
      kernel then reads entries it has already overwritten (out= first resizes the
      destination, so an input that is the out tensor changes shape under the kernel);
    - an index write that may hit a position twice without accumulating (setitem with index
      tensors or lists, ``put_``, ``index_put_``, ``index_copy_``, ``scatter_``, and their
      out-of-place forms, whose new tensor is the destination): PyTorch documents the result
      as undefined; its last write wins in TensorIterator's order, which follows the
      operands' memory layouts.
    """
    scatter = False
    m = _SETITEM.match(line)
    if m:  # vD[index] = value
        dests, span = [m.group(1)], (m.start(2), len(line))
        scatter = bool(_VAR.search(m.group(3))) and bool(
            re.search(r"\bv\d+\b|\[|T\.tensor\(", m.group(2)))
    elif _AUGMENTED.match(line):  # vD += value
        m = _AUGMENTED.match(line)
        dests, span = [m.group(1)], (m.start(2), len(line))
    elif _INPLACE_METHOD.search(line):  # vT = vD.op_(args)
        m = _INPLACE_METHOD.search(line)
        dests, span = [m.group(1)], (m.start(3), m.end(3))
        scatter = m.group(2) in _SCATTERS and _scatter_without_accumulation(m.group(2),
                                                                          m.group(3))
    elif _INPLACE_FUNCTION.search(line):  # vT = T.op_(vD, args)
        m = _INPLACE_FUNCTION.search(line)
        if m.group(3) is None:
            return None
        dests, span = [m.group(2)], (m.start(3), m.end(3))
    elif _SCATTER_CALL.match(line) and "out=" not in line:  # vT = T.put(vS, ...): a new vT
        m = _SCATTER_CALL.match(line)
        op, args = (m.group(2), m.group(3)) if m.group(2) else (m.group(4), m.group(5))
        if not _scatter_without_accumulation(op, args, 1 if m.group(2) else 0):
            return None
        start = line.index("=") + 1
        return [m.group(1)], line[:start] + re.sub(r"\bv(\d+)\b", r"_f\1", line[start:])
    elif _OUT.search(line):  # vT = T.op(args, out=vD) (or out=(vD, vE)): all else is read
        m = _OUT.search(line)
        dests = _VAR.findall(m.group(1))
        start = line.index("=") + 1 if re.match(r"\s*\w+\s*=[^=]", line) else 0
        rename = lambda text: re.sub(r"\bv(\d+)\b", r"_f\1", text)  # noqa: E731
        apart = (line[:start] + rename(line[start:m.start(0)]) + m.group(0) +
                 rename(line[m.end(0):]))
        reads = line[start:m.start(0)] + line[m.end(0):]
        return _sharing_write(dests, reads, apart, env, False)
    else:
        return None
    apart = line[:span[0]] + re.sub(r"\bv(\d+)\b", r"_f\1", line[span[0]:span[1]]) + \
        line[span[1]:]
    return _sharing_write(dests, line[span[0]:span[1]], apart, env, scatter)


def _sharing_write(dests: list, reads: str, apart: str, env: dict, scatter: bool):
    """``(dests, apart)`` when a destination shares memory with a tensor named in ``reads``
    (or the write is an index write, ``scatter``); else None."""
    if any(d not in env for d in dests):
        return None
    own = {_storage_ptr(env[d]) for d in dests} - {None}
    shared = own and any(_storage_ptr(env[v]) in own for v in _VAR.findall(reads) if v in env)
    return (dests, apart) if scatter or shared else None


def _cov_zeroes_input(line: str, env: dict) -> bool:
    """Whether ``line`` calls cov with exactly one of fweights/aweights on an input of one
    observation (PyTorch then zeroes the input in place)."""
    if not re.search(r"\bcov\(", line) or ("fweights=" in line) == ("aweights=" in line):
        return False
    x = _call_input(line, env)
    return x is not None and (x.ndim == 0 or x.shape[-1] == 1)


_MEDIAN = re.compile(r"=\s*(?:T\.(nan)?median\(\s*(v\d+)\s*,(.*)\)|(v\d+)\.(nan)?median\((.*)\))")


def _median_of_stride_zero(line: str, env: dict) -> str | None:
    """The variable a ``median``/``nanmedian`` statement reduces along a dim of stride 0 and
    size > 1 (``env``: PyTorch's variables, before the statement); None otherwise."""
    m = _MEDIAN.search(line)
    if not m:
        return None
    name = m.group(2) or m.group(4)
    fn = "nanmedian" if (m.group(1) or m.group(5)) else "median"
    t = env.get(name)
    dim = _call_arg(line, fn, 1, 0, "dim")
    if dim is None or not hasattr(t, "stride") or t.dim() == 0:
        return None
    try:
        d = int(eval(dim, {"T": env.get("T")}, env))  # noqa: S307 - (the program's own text)
        size, stride = t.shape[d], t.stride(d)
    except Exception:  # noqa: BLE001 - (a dim it refuses: both libraries raise)
        return None
    return name if stride == 0 and size > 1 else None


def _mask_where(a: dict, b: dict, keep) -> None:
    """Give ``b``'s values to ``a`` where ``keep(a_values, b_values)``: a difference the
    comparison accepts there."""
    x, y = a["values"], b["values"]
    if x.shape == y.shape and x.size:
        with np.errstate(all="ignore"):
            m = keep(x, y)
        if np.any(m):
            a["values"] = np.where(m, y, x)


def _nan_bits_accepted(a: dict, b: dict, source: np.dtype) -> np.ndarray:
    """``a``'s values (a bit view of ``source`` values), with ``b``'s bits wherever both,
    read back as ``source``, are a NaN (see ``deliberate``: view)."""
    x, y = a["values"], b["values"]
    if x.shape != y.shape or not x.size or x.ndim == 0 and x.dtype.itemsize != source.itemsize:
        return x
    import ml_dtypes
    store = ml_dtypes.bfloat16 if a["dtype"] == "bfloat16" else x.dtype  # (shown as float32)
    try:
        xs, ys = (np.ascontiguousarray(v.astype(store)).view(source) for v in (x, y))
    except (ValueError, TypeError):  # (a dtype NumPy cannot reinterpret: compared as is)
        return x
    with np.errstate(all="ignore"):
        both = np.isnan(xs) & np.isnan(ys)
    if not np.any(both):
        return x
    return np.where(both, ys, xs).view(store).reshape(x.shape).astype(x.dtype)


# reductions whose value depends on the order PyTorch's vectorized cascade adds in
SUMS = {"sum", "mean", "nansum", "nanmean"}

# integrals summed along a dim in the order of PyTorch's vectorized cascade
TRAPEZOIDS = {"trapz", "trapezoid"}  # (cumulative_trapezoid: a cumsum, in order on both)
_TRAPEZOID_CALL = re.compile(r"(?:T\.(?:trapz|trapezoid)\(\s*v\d+\s*|v\d+\.(?:trapz|trapezoid)\(\s*)"
                             r"(.*)\)\s*$")


def _samples(line: str, env: dict):
    """A trapezoid call's sample points ``x`` (a tensor operand after ``y``) as values when
    the statement ran, for the rule in ``deliberate``; None for other statements."""
    m = _TRAPEZOID_CALL.search(line)
    if not m:
        return None
    rest = m.group(1).lstrip(", ")
    k = re.match(r"(?:x=)?(v\d+)\b", rest)
    if not k:
        return None
    t = env.get(k.group(1))
    try:
        r = t.resolve_conj().resolve_neg()
        r = r.cdouble() if r.is_complex() else r.double()
        return np.array(r.numpy(force=True), copy=True)
    except Exception:  # noqa: BLE001 - (samples not read here: no bound, see below)
        return _UNREAD


_UNREAD = np.zeros(0)  # (sample points that could not be read: no trapezoid bound)


def _trapezoid_bound(line: str, y: np.ndarray, xs, shape: tuple):
    """sum(|trapezoid|) along the integral's dim (float64), shaped as its result, or None
    where the call's arguments are not read here."""
    m = re.search(r"\bdim=(-?\d+)", line)
    d = int(m.group(1)) if m else -1
    if xs is _UNREAD or not -y.ndim <= d < y.ndim:
        return None
    with np.errstate(all="ignore"):
        yy = np.abs(np.asarray(y).astype(np.complex128))
        pair = np.take(yy, range(1, y.shape[d]), d) + np.take(yy, range(y.shape[d] - 1), d)
        mdx = re.search(r"\bdx=([-+.\deE]+)", line)
        if xs is not None:  # (x's differences along dim, or a 1-D x's, broadcast with y's)
            if xs.ndim not in (1, y.ndim):
                return None
            dx = np.abs(np.diff(xs, axis=d if xs.ndim == y.ndim else -1))
            if xs.ndim == 1:
                dx = dx.reshape([-1 if i == d % y.ndim else 1 for i in range(y.ndim)])
        else:
            dx = abs(float(mdx.group(1))) if mdx else 1.0
        try:
            terms = dx * pair / 2
        except ValueError:
            return None
        total = np.sum(terms, axis=d) * max(terms.shape[d], 1)
    return total if total.shape == shape else None


# ops whose indices PyTorch leaves unspecified among equal values
TIE_OPS = {"topk", "kthvalue", "median", "nanmedian", "mode", "sort", "msort", "argsort",
           "max", "min", "cummax", "cummin"}


def _valid_tie_indices(x: np.ndarray, vals: np.ndarray, idx: np.ndarray) -> bool:
    """Whether ``idx`` picks ``vals`` out of ``x`` along some dim (as topk's, kthvalue's or
    median's indices do, kept or reduced dims alike)."""
    if x.ndim == 0 or idx.dtype.kind not in "iu" or vals.shape != idx.shape:
        return False
    for d in range(x.ndim):
        for keep in (True, False):
            try:
                i = idx if keep else np.expand_dims(idx, d)
                g = np.take_along_axis(x, i, axis=d)
                g = g if keep else np.squeeze(g, axis=d)
            except (ValueError, IndexError):
                continue
            if g.shape == vals.shape and np.array_equal(g, vals, equal_nan=True):
                return True
    return False


def _valid_factor_mask(op: str, line: str, x: np.ndarray, parts: list, dtype: str):
    """For each matrix of ``x`` (a batch-shaped bool array), whether ``parts`` (tensorviz's QR
    or SVD of ``x``) factorizes it: orthonormal columns that reproduce it within the dtype's
    tolerance (scaled by the matrix's largest entry). A matrix that is not finite is never
    valid (its factors are compared as they are); None when ``parts`` cannot be one."""
    if dtype not in TOL or len(parts) < 2:
        return None
    rtol, atol = TOL[dtype]
    tol = 50 * builtins.max(rtol, atol)
    with np.errstate(all="ignore"):
        a = x.astype(np.complex128)
        if op == "qr":
            q, r = (np.asarray(p, dtype=np.complex128) for p in parts[:2])
            k = builtins.min(q.shape[-1], r.shape[-2])
            q, r = q[..., :k], r[..., :k, :]
            rec = q @ r
            ortho = np.swapaxes(q.conj(), -1, -2) @ q
        else:
            u, sv, v = (np.asarray(p, dtype=np.complex128) for p in parts[:3])
            vh = v if "linalg" in line else np.swapaxes(v.conj(), -1, -2)
            k = sv.shape[-1]
            if not k or not np.any(u) or not np.any(vh):  # (compute_uv=False: zeros)
                return None
            rec = (u[..., :, :k] * sv[..., None, :]) @ vh[..., :k, :]
            ortho = np.swapaxes(u[..., :, :k].conj(), -1, -2) @ u[..., :, :k]
        if rec.shape != a.shape:
            return None
        finite = np.isfinite(a).all(axis=(-2, -1))
        scale = np.maximum(np.max(np.abs(np.where(np.isfinite(a), a, 0)), axis=(-2, -1),
                                  initial=0.0), 1.0)[..., None, None]
        close = np.abs(rec - a) <= tol * scale + tol * np.abs(a)
        eye = np.eye(ortho.shape[-1])
        return finite & close.all(axis=(-2, -1)) & (np.abs(ortho - eye) <= tol).all(axis=(-2, -1))


def _valid_factors(op: str, line: str, x: np.ndarray, parts: list, dtype: str) -> bool:
    """Whether ``parts`` (tensorviz's QR or SVD of ``x``) is a valid factorization of every
    matrix of ``x``."""
    mask = _valid_factor_mask(op, line, x, parts, dtype)
    return mask is not None and bool(np.all(mask))


def _same_elements(a, b) -> bool:
    """Whether two tensor descriptions view the same elements in the same positions (one
    storage, shape, strides and offset: a tensor and its conj() or view_as())."""
    if a is None or a[0] != "tensor" or b[0] != "tensor":
        return False
    a, b = a[1], b[1]
    return a["storage"] is not None and all(a[k] == b[k] for k in
                                            ("storage", "shape", "stride", "offset"))


#: Windows computed on arange's indices, and the length past which PyTorch's arange kernel
#: splits over threads (at::internal::GRAIN_SIZE): see ``deliberate``.
ARANGE_WINDOWS = {"hann_window", "hamming_window", "blackman_window", "bartlett_window"}
ARANGE_GRAIN = 32768


def _one_thread_result(line: str) -> np.ndarray | None:
    """The values of ``line``'s call (literal arguments only) as PyTorch computes them on
    one thread, as float64; None where it names a variable or fails."""
    import torch
    rhs = line.split("=", 1)[1] if re.match(r"\s*\w+\s*=[^=]", line) else line
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        r = eval(rhs, {"__builtins__": {}, "T": torch, "float": float})  # noqa: S307
        return r.detach().double().numpy() if isinstance(r, torch.Tensor) else None
    except Exception:  # noqa: BLE001 - (a variable, or anything else: no one-thread values)
        return None
    finally:
        torch.set_num_threads(threads)


def _double_matrix_exp(x: np.ndarray) -> np.ndarray:
    """PyTorch's matrix exponential of ``x`` (float32/complex64) computed in double
    precision, rounded to ``x``'s dtype."""
    import torch
    with np.errstate(all="ignore"):
        wide = torch.from_numpy(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64))
        return torch.linalg.matrix_exp(wide).numpy().astype(x.dtype)


def _inverse_bound(x: np.ndarray, inverse: np.ndarray) -> np.ndarray | None:
    """Higham's componentwise rounding bound of an inverse computed by partial-pivoting LU,
    ``4 n eps (|X| |P L| |U| |X|)``, for each matrix of ``x`` (``X``: the inverse as
    computed, ``eps`` of ``x``'s dtype); None where a matrix or its inverse is not finite."""
    import torch
    a = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    inv = np.abs(inverse.astype(a.dtype))
    if not (np.isfinite(a).all() and np.isfinite(inv).all()):
        return None
    n = x.shape[-1]
    eps = float(np.finfo(x.real.dtype if x.dtype.kind == "c" else x.dtype).eps)
    p, low, up = (t.numpy() for t in torch.linalg.lu(torch.from_numpy(a)))
    with np.errstate(all="ignore"):
        return 4 * n * eps * (inv @ (np.abs(p) @ np.abs(low)) @ np.abs(up) @ inv)


def deliberate(op: str, line: str, dt, dv, x=None, samples=None, operands=None) -> bool:
    """Adjust the two descriptions of a result for the differences tensorviz keeps on purpose
    (each a ``# Note:``); True when the rest of the program is not to be compared.
    ``samples``: a trapezoid's sample points ``x`` as they were (``_samples``); ``operands``:
    the values of every tensor the statement reads (``_read_values``)."""
    op = op.rsplit(".", 1)[-1]  # (linalg.svd is svd's factorization too)
    if op == "dist" and dt[0] == dv[0] == "tensor" and operands and len(operands) >= 2 and \
            re.match(r"^\s*v\d+\s*=\s*(?:T\.dist\(\s*v\d+\s*,\s*v\d+\s*[,)]|"
                     r"v\d+\.dist\(\s*v\d+\s*[,)])", line) and \
            all(isinstance(o, np.ndarray) for o in operands[:2]) and \
            any(o.dtype.kind == "c" for o in operands[:2]):
        # Note: PyTorch's complex a - b is a + (-1+0j) * b, NaN where b has an infinite part
        # (0 * inf); tensorviz's difference keeps C99's infinity (see the complex classes in
        # _same_values), so a distance PyTorch gives as NaN is tensorviz's p-norm of moduli
        # that are inf there (inf for p > 0, the least finite one for p = -inf). Accepted
        # where the C99 difference holds an infinity and no NaN and tensorviz's value is that
        # norm; any other NaN of PyTorch's stays compared.
        raw = _call_arg(line, "dist", 2, 1, "p")
        pv = 2.0 if raw is None else _number(raw)
        with np.errstate(all="ignore"):
            try:
                cdt = np.result_type(operands[0].dtype, operands[1].dtype, np.complex64)
                d = operands[0].astype(cdt) - operands[1].astype(cdt)
            except (ValueError, TypeError):
                d = None
            if d is not None and pv is not None:
                inf_d = np.isinf(d.real) | np.isinf(d.imag)
                nan_d = ~inf_d & (np.isnan(d.real) | np.isnan(d.imag))
                m = np.where(inf_d, np.inf, np.abs(d)).ravel()
                want = (np.max(m) if pv == np.inf else np.min(m) if pv == -np.inf else
                        float(np.count_nonzero(m)) if pv == 0 else
                        np.sum(m ** pv) ** (1 / pv))
                if inf_d.any() and not nan_d.any():
                    _mask_where(dt[1], dv[1], lambda a, b: np.isnan(a) & np.isclose(
                        b.astype(np.float64), want, rtol=1e-5, atol=0))
    if op in ("log1p", "log1p_") and x is not None and dt[0] == dv[0] == "tensor" and \
            x.dtype.kind == "c" and x.shape == dt[1]["values"].shape:
        # Note: PyTorch's CPU log1p of complex z is Kahan's log(u) * (z / (u - 1)), u = 1 + z
        # (on CUDA and macOS: 0.5 log1p(x (2 + x) + y**2) + atan2 i, as tensorviz's). Where
        # 1 + x rounds to 1 (x != 0) and 0 < |y| < 1 / the dtype's largest value, c10's
        # quotient scales by 1 / y, which overflows: inf * 0 makes nan+nan j of
        # log1p(1e-30+1e-310j), whose value is z to working precision. Accepted there when
        # tensorviz's value is z within 4 eps; elsewhere PyTorch's NaN stays compared.
        ft = x.real.dtype
        eps, tiny = float(np.finfo(ft).eps), 1 / float(np.finfo(ft).max)
        with np.errstate(all="ignore"):
            xr, xi = x.real, x.imag
            kahan = (np.isfinite(x) & (xr != 0) & ((ft.type(1) + xr) - ft.type(1) == 0) &
                     (xi != 0) & (np.abs(xi) < tiny))
        if kahan.any():
            def near(p_, q_):
                q_ = q_.astype(np.complex128)
                return kahan & np.isnan(p_.real) & np.isnan(p_.imag) & \
                    (np.abs(q_.real - xr) <= 4 * eps * np.abs(xr)) & \
                    (np.abs(q_.imag - xi) <= 4 * eps * np.abs(xi))
            _mask_where(dt[1], dv[1], near)
    if op.rstrip("_") == "cholesky_solve" and operands and len(operands) >= 2 and \
            dt[0] == dv[0] == "tensor" and all(isinstance(o, np.ndarray) and o.ndim >= 2
                                               for o in operands[:2]):
        # Note: cholesky_solve of a system holding an infinity or NaN (in B or the factor):
        # MKL's blocked forward and back substitutions (trsm) leave some entries finite that
        # tensorviz's substitutions, in which every entry of x depends on every entry of y,
        # make NaN, and the reverse. Either NaN is accepted in such a batch; finite entries
        # on both sides, and every batch of finite systems, are compared.
        out = dt[1]["values"]
        try:
            with np.errstate(all="ignore"):
                bad = np.logical_or(*[np.broadcast_to(~np.isfinite(o).all(axis=(-2, -1)),
                                                      out.shape[:-2]) for o in operands[:2]])
        except ValueError:
            bad = None
        if bad is not None and out.shape == dv[1]["values"].shape:
            _mask_where(dt[1], dv[1], lambda a, b: bad[..., None, None] &
                        (np.isnan(a) | np.isnan(b)))
    if op in PRODUCT_OPS and dt[0] == dv[0] == "tensor" and \
            dt[1]["dtype"].startswith("complex"):
        # Note: a complex matrix product whose terms overflow (the moduli's bound
        # sum_k |a_ik| |b_kj| past the dtype's largest value) with no infinite term: a fused
        # multiply-add keeps -3.4e38 + 2 * 3.4e38 finite where PyTorch's batched kernel
        # rounds 6.8e38 to inf first, so a finite value against an infinity is accepted
        # there (see REAL_PRODUCTS; entries not finite on both sides: the rule below).
        loose = _overflowing_entries(op, line, x, operands,
                                     "float32" if dt[1]["dtype"] == "complex64" else "float64",
                                     dt[1]["values"].shape)
        if loose is not None:
            over, nonfinite_term = loose
            _mask_where(dt[1], dv[1], lambda a, b: over & ~nonfinite_term)
    if op in _BOUNDED_PRODUCTS and dt[0] == dv[0] == "tensor" and \
            dt[1]["dtype"] in _MANTISSA and dt[1]["values"].shape == dv[1]["values"].shape:
        # A product's entry that cancels keeps its kernel's rounding error, up to
        # 2 (k + 2) eps sum_k |a_ik| |b_kj| in any order with or without fused multiply-adds
        # (Higham's bound for a dot product: PyTorch's complex64 inner of [1e30+1j, 1e30-2j]
        # and [3, -3] is 9j, NumPy's BLAS 1.5e23+9j). A finite entry within that bound of
        # PyTorch's is accepted; one farther off (a wrong term, order or sign) is found.
        got = _product_bound(op, line, operands, dt[1]["values"].shape)
        if got is not None:
            bound, _, k = got
            eps = 2.0 ** (1 - _MANTISSA[dt[1]["dtype"]])
            lim = 2 * (k + 2) * eps * bound
            _mask_where(dt[1], dv[1], lambda a, b: np.isfinite(a) & np.isfinite(b) &
                        np.isfinite(lim) & (np.abs(a.astype(np.complex128) - b) <= lim))
    if op in REAL_PRODUCTS and dt[0] == dv[0] == "tensor" and \
            dt[1]["dtype"] in ("float16", "bfloat16", "float32", "float64") and \
            dt[1]["values"].shape == dv[1]["values"].shape:
        # Note: a real matrix product whose terms overflow the dtype (3.4e38 * -2.5 in
        # float32) is NaN, an infinity or a finite number by the BLAS kernel's order and its
        # fused multiply-adds (inf + 3.4e38 * -2.5 is inf as one fused step, inf - inf = NaN
        # as two; PyTorch's batched sgemm gives NaN where its 2-D one gives inf). An entry
        # whose bound sum_k |a_ik| |b_kj| (finite terms, in float64) exceeds the dtype's
        # largest value is accepted where either side is not finite (both, where a term is
        # itself infinite or NaN: no order makes that entry finite); entries whose terms
        # cannot overflow, and finite pairs, are compared.
        loose = _overflowing_entries(op, line, x, operands, dt[1]["dtype"],
                                     dt[1]["values"].shape)
        if loose is not None:
            over, nonfinite_term = loose
            _mask_where(dt[1], dv[1], lambda a, b: over & np.where(
                nonfinite_term, ~np.isfinite(a) & ~np.isfinite(b),
                ~(np.isfinite(a) & np.isfinite(b))))
    if op in TRAPEZOIDS and x is not None and x.ndim and dt[0] == dv[0] == "tensor" and \
            dt[1]["values"].shape == dv[1]["values"].shape and dt[1]["dtype"] in _MANTISSA:
        # Note: a trapezoid integral is a sum of its trapezoids along dim, which PyTorch's
        # CPU sum adds in its vectorized cascade's order (four partial sums below a vector's
        # width, lanes above it: the machine's), NumPy pairwise: a sum that cancels (a
        # 1.3e36 trapezoid less another beside small ones: PyTorch's 0, tensorviz's 0.5)
        # keeps a different rounding error. A finite value within the error bound of any
        # order, n * eps * sum(|trapezoids|) (eps of the float32 accumulator for 16-bit
        # dtypes) plus the result's own rounding, is accepted; farther off is a finding.
        bound = _trapezoid_bound(line, x, samples, dt[1]["values"].shape)
        if bound is not None:
            acc = max(_MANTISSA[dt[1]["dtype"]], 24)
            a = dt[1]["values"]
            with np.errstate(all="ignore"):
                a64 = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
                ulp = np.abs(a64) * 2.0 ** (1 - _MANTISSA[dt[1]["dtype"]])
                lim = bound * 2.0 ** (1 - acc) + ulp
            _mask_where(dt[1], dv[1], lambda p, q: np.isfinite(p) & np.isfinite(q) &
                        np.isfinite(lim) & (np.abs(a64 - q.astype(a64.dtype)) <= lim))
    if op in ARANGE_WINDOWS and dt[0] == dv[0] == "tensor" and \
            dt[1]["dtype"] in ("float16", "bfloat16") and dt[1]["values"].size >= ARANGE_GRAIN:
        # Note: these windows are computed on arange's indices, whose float16/bfloat16 vector
        # blocks start at a base rounded to the dtype; PyTorch splits an arange of more than
        # 32768 elements (its GRAIN_SIZE) over its threads, each from its own base, so its
        # window depends on the machine's thread count (1 to 4 ulps of 1.0 at some hundred
        # elements, where each thread's base falls). tensorviz keeps one block sequence, as
        # PyTorch on one thread: the values PyTorch computes for the same call on one thread
        # are accepted, no others.
        one = _one_thread_result(line)
        if one is not None:
            _mask_where(dt[1], dv[1], lambda p, q: (q == one) | (np.isnan(q) & np.isnan(one)))
    if op in ("var_mean", "std_mean") and dt[0] == "tuple" and len(dt[1]) == 2 and \
            dv[0] == "tuple" and len(dv[1]) == 2 and dt[1][1][0] == dv[1][1][0] == "tensor":
        # Note: PyTorch's var_mean/std_mean take the mean by Welford's updates, which turn an
        # infinite element into NaN (inf - inf) once another element follows; tensorviz's
        # mean is mean()'s (the infinity), see ops.reductions.var_mean.
        _mask_where(dt[1][1][1], dv[1][1][1], lambda x, y: np.isnan(x) & np.isinf(y))
    if op == "matrix_exp" and dt[0] == dv[0] == "tensor":
        # Note: PyTorch's scaling and squaring underflows for entries near the float range
        # (exp of a 3e38 entry gives the identity); tensorviz overflows to inf, as the exact
        # result does.
        _mask_where(dt[1], dv[1], lambda x, y: np.isfinite(x) & ~np.isfinite(y))
        # Note: PyTorch computes a single-precision exponential in the input's dtype, whose
        # rounding errors its squarings magnify in a far from normal matrix ([[-1e-33,
        # 1.15e15], [-7.5e-4, -7.5e-4]] in float32: 1e33 and inf where the exact exponential
        # is [[0.14, 1.2e9], [-8e-10, 0.14]]); tensorviz computes in double precision and
        # rounds. A matrix whose PyTorch result differs from PyTorch's own double-precision
        # exponential of it (rounded to the dtype) takes tensorviz's where that agrees with
        # the double-precision one; any other difference is a finding.
        if x is not None and x.ndim >= 2 and x.size and x.dtype in (np.float32, np.complex64) \
                and dt[1]["values"].shape == dv[1]["values"].shape == x.shape:
            ref = _double_matrix_exp(x)
            name = dt[1]["dtype"]
            a, b = dt[1]["values"], dv[1]["values"]
            take = np.zeros(x.shape, dtype=bool)
            for idx in np.ndindex(x.shape[:-2]):
                if not _same_values(a[idx], ref[idx], name) and \
                        _same_values(b[idx], ref[idx], name):
                    take[idx] = True
            _mask_where(dt[1], dv[1], lambda p, q: take)
    if op in ("cov", "corrcoef") and x is not None and x.dtype.kind in "fc" and x.size and \
            dt[0] == dv[0] == "tensor" and dt[1]["values"].shape == dv[1]["values"].shape and \
            "weights" not in line:
        # Note: a variable whose squared deviations overflow the dtype (a 3.4e38 entry in
        # float32 or complex64) has a variance and products BLAS makes inf, NaN or (real)
        # finite by its order and fused multiply-adds (PyTorch's own cov gives either, by
        # the matrix), and its correlations are then x / inf = 0 or NaN. In such a
        # variable's row and column, an entry not finite on both sides is accepted, and
        # (corrcoef) a NaN against a zero; the other variables' entries, and any finite
        # pair, are compared.
        xx = np.asarray(x).astype(np.complex128)
        xx = xx.reshape(1, -1) if xx.ndim < 2 else xx
        big = float(np.finfo(np.float32 if x.dtype in (np.complex64, np.float32)
                             else np.float64).max)
        with np.errstate(all="ignore"):
            dev = xx - xx.mean(axis=1, keepdims=True)
            over = ~np.isfinite(xx).all(axis=1) | ((np.abs(dev) ** 2).sum(axis=1) > big)
        if xx.ndim == 2 and over.any() and dt[1]["values"].shape in ((len(over),) * 2, ()):
            rc = (over[:, None] | over[None, :]).reshape(dt[1]["values"].shape)

            def loose(a, b):
                a_nf, b_nf = ~np.isfinite(a), ~np.isfinite(b)
                zero_nan = (a_nf & np.isnan(a) & (b == 0)) | (b_nf & np.isnan(b) & (a == 0))
                return rc & ((a_nf & b_nf) | (zero_nan if op == "corrcoef" else False))
            _mask_where(dt[1], dv[1], loose)
    if op == "cov" and x is not None and dt[0] == dv[0] == "tensor" and "weights" not in line \
            and dt[1].get("dtype") in _MANTISSA and not str(dt[1]["dtype"]).startswith("complex"):
        # cov's cross products are one matrix product of the deviations, which BLAS (MKL in
        # PyTorch, OpenBLAS in NumPy) sums in its own order with its own fused multiply-adds:
        # an entry that cancels carries a rounding error up to about n * eps * sum_k
        # |d_ik| |d_jk| / (n - correction), of the order of the largest products (5e30 beside
        # a 3.4e38 entry, where the exact value is 0).  A finite entry within that bound of
        # PyTorch's is accepted; one farther off (a wrong mean, correction or sign) is found.
        m = re.search(r"correction=(-?\d+)", line)
        xx = np.asarray(x, dtype=np.float64)
        xx = xx.reshape(1, -1) if xx.ndim < 2 else xx
        norm = xx.shape[1] - (int(m.group(1)) if m else 1)
        if xx.ndim == 2 and xx.size and norm > 0:
            eps = 2.0 ** (1 - _MANTISSA[dt[1]["dtype"]])
            with np.errstate(all="ignore"):
                a = np.abs(xx) + np.abs(xx.mean(axis=1, keepdims=True))
                bound = 2 * (xx.shape[1] + 2) * eps * (a @ a.T) / norm
            if bound.size == dt[1]["values"].size:
                bound = bound.reshape(dt[1]["values"].shape)
                _mask_where(dt[1], dv[1], lambda p, q: np.isfinite(p) & np.isfinite(q) &
                            np.isfinite(bound) & (np.abs(p.astype(np.float64) - q) <= bound))
    if op == "topk" and _call_arg(line, "topk", 4, 3, "sorted") in ("False", "0", "None"):
        # PyTorch leaves the order of an unsorted topk unspecified (std::nth_element): the
        # values are compared as a set, the indices not at all.
        for d in (dt, dv):
            if d[0] == "tuple" and len(d[1]) == 2 and d[1][0][0] == "tensor":
                d[1][0][1]["values"] = np.sort(d[1][0][1]["values"], axis=None)
                d[1][1][1]["values"] = np.zeros(0)
    if op in ("svd", "qr") and x is not None and x.ndim >= 2 and dt[0] == dv[0] == "tuple" \
            and all(d[0] == "tensor" for d in dv[1]) and len(dv[1]) == len(dt[1]):
        # A matrix with repeated (or nearly repeated) singular values, or without full rank,
        # has many valid factorizations: LAPACK's rounding picks one in PyTorch, another in
        # NumPy. tensorviz's factors are accepted when they are one: orthonormal columns
        # that reproduce the input (within the dtype's tolerance), the same singular values.
        # A batch is judged matrix by matrix, and SVD's singular values must be PyTorch's.
        # Note: in a matrix holding an infinity LAPACK's Householder steps make NaN of some
        # entries (0 * inf) and leave others (PyTorch's R of the row [inf, inf, 1] is
        # [inf, nan, 1], its U a permutation beside S = NaN); tensorviz gives NaN factors
        # (linalg._svd) or NumPy's LAPACK's: there, an entry that is not finite on either
        # side is not compared (finite entries are).
        mask = _valid_factor_mask(op, line, x, [d[1]["values"] for d in dv[1]],
                                  dt[1][0][1]["dtype"])
        with np.errstate(all="ignore"):
            bad = ~np.isfinite(x).all(axis=(-2, -1))
        for j, (a, b) in enumerate(zip(dt[1], dv[1])):
            if op == "svd" and j == 1:
                continue
            va, vb = a[1]["values"], b[1]["values"]
            if a[0] != "tensor" or va.shape != vb.shape or va.shape[:bad.ndim] != bad.shape:
                continue
            extra = (1,) * (va.ndim - bad.ndim)
            with np.errstate(all="ignore"):
                take = bad.reshape(bad.shape + extra) & (~np.isfinite(va) | ~np.isfinite(vb))
            if mask is not None:
                take = take | mask.reshape(mask.shape + extra)
            a[1]["values"] = np.where(take, vb, va)
    if op in ("pinverse", "pinv") and x is not None and x.ndim >= 2 and \
            dt[0] == dv[0] == "tensor" and dt[1]["values"].shape[:-2] == x.shape[:-2]:
        # Note: the pseudo-inverse of a matrix holding an infinity is built from its SVD, whose
        # factors LAPACK leaves unspecified there (see svd above): PyTorch's is zeros in some
        # entries and NaN in others, tensorviz's NaN (linalg.pinv). Entries where tensorviz
        # gives NaN in such a matrix are not compared.
        with np.errstate(all="ignore"):
            bad = ~np.isfinite(x).all(axis=(-2, -1))
        _mask_where(dt[1], dv[1], lambda a, b: bad[..., None, None] & np.isnan(b))
        # A matrix of deficient rank to working precision (its smallest singular value within
        # max(m, n) * eps of its largest) whose cut-off (pinverse's rcond=1e-15, pinv's default
        # for float64) lies below the rounding noise: LAPACK's noise in that singular value is
        # inverted into entries of 1e7 or so (PyTorch's float32 pinverse of a rank-1 matrix);
        # tensorviz's may be cut. Such a matrix's pseudo-inverse is not compared.
        if op == "pinverse" and x.dtype.kind in "fc" and x.size:
            eps = float(np.finfo(x.real.dtype if x.dtype.kind == "c" else x.dtype).eps)
            rc = _call_arg(line, "pinverse", 1, 0, "rcond")
            rcond = 1e-15 if rc is None else _number(rc)
            if rcond is None:
                rcond = 1.0
            if rcond < eps:
                with np.errstate(all="ignore"):
                    sv = np.linalg.svd(np.where(bad[..., None, None], 0, x).astype(
                        np.complex128), compute_uv=False)
                    deficient = ~bad & (sv[..., -1] <= max(x.shape[-2:]) * eps * sv[..., 0])
                _mask_where(dt[1], dv[1], lambda a, b: deficient[..., None, None])
        # A full-rank but ill-conditioned matrix: a backward-stable SVD's pseudo-inverse is
        # only accurate to about cond(A) * eps relative to its largest entry (perturbation
        # theory; PyTorch's complex64 pinverse of kron([[-1, .5], [.5, 65504]], [[-1, -1],
        # [-3, 4]]), cond 2e5, is 0.573 where the exact entry, and tensorviz's, is 0.5714).
        # Each finite matrix is compared within max(m, n) * cond * eps of its largest entry.
        if x.dtype.kind in "fc" and x.size and x.shape[-2:] == dt[1]["values"].shape[-2:][::-1]:
            eps = float(np.finfo(x.real.dtype if x.dtype.kind == "c" else x.dtype).eps)
            with np.errstate(all="ignore"):
                sv = np.linalg.svd(np.where(bad[..., None, None], 0, x).astype(
                    np.complex128), compute_uv=False)
                cond = np.where(bad, np.inf, sv[..., 0] / sv[..., -1])

                def within(a, b):
                    big = np.max(np.abs(a), axis=(-2, -1), initial=0.0, where=np.isfinite(a))
                    tol = max(x.shape[-2:]) * cond * eps * big
                    usable = np.isfinite(cond) & (max(x.shape[-2:]) * cond * eps < 1)
                    return usable[..., None, None] & \
                        (np.abs(a.astype(np.complex128) - b) <= tol[..., None, None])
                _mask_where(dt[1], dv[1], within)
    if op in ("inverse", "inv") and x is not None and x.ndim >= 2 and x.dtype.kind in "fc" \
            and x.shape[-1] == x.shape[-2] and x.size and dt[0] == dv[0] == "tensor" and \
            dt[1]["values"].shape == x.shape:
        # Note: an inverse computed by LU (PyTorch: MKL's getrf and getrs; tensorviz: MKL's
        # getrf arithmetic and its own triangular solves, whose last bits differ from MKL's
        # small-order kernels) carries rounding errors up to about 4 n eps (|X| |P L| |U|
        # |X|)_ij (Higham's componentwise bound for solving A X = I). In a badly scaled
        # matrix ([[0.5, 0, 0.25], [1.5, 4, 2], [-3, 0.25, 1e30]] in float32) an entry whose
        # exact value is 3e-32 is -3.8e-10 in PyTorch's and -0.0 in tensorviz's: noise of
        # either sign, which a later reciprocal magnifies. A finite entry within that bound
        # of PyTorch's is accepted; one farther off is a finding.
        bound = _inverse_bound(x, dt[1]["values"])
        if bound is not None:
            _mask_where(dt[1], dv[1], lambda a, b: np.isfinite(a) & np.isfinite(b) & (
                np.abs(a.astype(np.complex128) - b) <= bound))
    if op in ("det", "logdet", "slogdet") and x is not None and x.ndim >= 2 and \
            x.shape[-1] == x.shape[-2] and x.dtype.kind in "fc" and x.shape[-1]:
        # Note: a matrix singular to working precision (|det| within the LU's rounding bound,
        # n * eps * the product of its rows' norms, Hadamard's bound on |det|) has a
        # determinant of rounding noise: LAPACK's pivots make it 0 (-inf) in one library and
        # 1e-16 in the other, by layout. There both answers stand; elsewhere they compare.
        # A matrix holding an infinity or NaN: LU's pivots are unspecified (NaN or inf by
        # order), so PyTorch's NaN there accepts tensorviz's NaN or infinity.
        # A NaN entry makes LU's pivot choices (comparisons with NaN) arbitrary: a matrix
        # holding one is not compared (PyTorch's slogdet sign may be -0 there).
        with np.errstate(all="ignore"):
            a = x.astype(np.complex128)
            n = x.shape[-1]
            has_nan = np.isnan(a).any(axis=(-2, -1))
            eps = float(np.finfo(x.real.dtype if x.dtype.kind == "c" else x.dtype).eps)
            rows = np.sqrt(np.sum(np.abs(a) ** 2, axis=-1))
            bound = 16 * n * eps * np.prod(np.maximum(rows, np.finfo(np.float64).tiny), axis=-1)
            bad = ~np.isfinite(a).all(axis=(-2, -1))

            def small(d):  # |det| of a description (det, logdet or slogdet's logabsdet)
                v = d[1]["values"]
                if op == "det":
                    return np.abs(v.astype(np.complex128))
                return np.exp(v.real.astype(np.float64))
            pairs = list(zip(dt[1], dv[1])) if op == "slogdet" and dt[0] == dv[0] == "tuple" \
                and len(dt[1]) == len(dv[1]) == 2 else [(dt, dv)]
            if all(p[0][0] == p[1][0] == "tensor" and p[0][1]["values"].shape == bad.shape
                   for p in pairs):
                la_t, la_v = pairs[-1]
                noise = (small(la_t) <= bound) & (small(la_v) <= bound) & ~bad
                for a_, b_ in pairs:
                    _mask_where(a_[1], b_[1], lambda p_, q_: noise)
                    _mask_where(a_[1], b_[1], lambda p_, q_: bad & np.isnan(p_) & ~np.isfinite(q_))
                    _mask_where(a_[1], b_[1], lambda p_, q_: has_nan)
                if op == "slogdet" and len(pairs) == 2 and x.dtype.kind == "c":
                    # Note: PyTorch's complex sign is det / |det| by C++ complex division,
                    # NaN for a subnormal det (1e-310+0j / 1e-310); a sign must have modulus
                    # 1: where PyTorch's is NaN beside a finite logabsdet of a finite matrix,
                    # tensorviz's is accepted when it has modulus 1 (its phase has nothing
                    # to be compared with).
                    lt = pairs[1][0][1]["values"]
                    _mask_where(pairs[0][0][1], pairs[0][1][1], lambda p_, q_: ~bad & np.isnan(
                        p_) & np.isfinite(lt) & (np.abs(np.abs(q_.astype(np.complex128)) - 1)
                                                 < 1e-5))
    if op in ("logdet",) and x is not None and dt[0] == dv[0] == "tensor" and \
            x.dtype.kind == "c" and dt[1]["values"].shape == dv[1]["values"].shape:
        # Note: the sign of a zero imaginary part of a complex determinant is the LU's
        # rounding (PyTorch multiplies sgn(diag(U)) of A^T's LU, then the pivots' sign;
        # NumPy the pivots' sign first, then each diag / |diag| of A's LU), so log's side of
        # the branch cut at a negative real determinant is too: -1.386+pi j in one library,
        # -1.386-pi j in the other. Accepted there (the real parts still compared).
        _mask_where(dt[1], dv[1], lambda a, b: (np.abs(np.abs(a.imag) - np.pi) < 1e-6) &
                    (a.imag == -b.imag) & np.isclose(a.real, b.real, rtol=1e-5, atol=1e-6))
    if op in SOLVE_OPS and x is not None and x.ndim >= 2 and x.dtype.kind in "fc" and \
            x.size:
        # Note: a solve or inverse of a matrix holding an infinity or NaN: MKL's blocked
        # LAPACK (getri, trsm) spreads the NaN of one 0 * inf to the whole result (PyTorch's
        # triangular_solve of a matrix with an infinite diagonal entry is all NaN), tensorviz's
        # substitution only to the entries it reaches (the others are the limit's finite
        # values). Where PyTorch gives NaN in such a matrix, tensorviz's value is accepted;
        # in finite matrices and PyTorch's non-NaN entries, everything is compared.
        with np.errstate(all="ignore"):
            bad = ~np.isfinite(x).all(axis=(-2, -1))
        for a_, b_ in (list(zip(dt[1], dv[1])) if dt[0] == dv[0] == "tuple" and
                       len(dt[1]) == len(dv[1]) else [(dt, dv)]):
            if a_[0] == b_[0] == "tensor" and a_[1]["values"].ndim >= 2 and \
                    a_[1]["values"].shape[:-2] == bad.shape:
                _mask_where(a_[1], b_[1], lambda p_, q_: bad[..., None, None] & np.isnan(p_))
    if op in PRODUCT_OPS and dt[0] == dv[0] == "tensor" and \
            dt[1]["dtype"].startswith("complex"):
        # Note: a complex matrix product with infinite entries makes NaN or infinite parts by
        # the order and formula of its multiply-adds ((-2.5+0j) * (inf+0j) is -inf+nan j;
        # MKL's gemm and NumPy's loops reach different representatives, and then NaN or
        # infinity after a sum): an entry not finite on both sides is accepted (finite entries
        # compared; a finite against a non-finite one is still a finding).
        _mask_where(dt[1], dv[1], lambda a, b: ~np.isfinite(a) & ~np.isfinite(b))
    if op in ELEMENTWISE_PRODUCTS and dt[0] == dv[0] == "tensor" and \
            dt[1]["dtype"].startswith("complex") and \
            dt[1]["values"].shape == dv[1]["values"].shape:
        # Note: a complex product whose terms overflow (ac - bd with ac or bd past the
        # range) is NaN or an infinity in each part by whether the loop fuses its
        # multiply-adds: PyTorch's own answer depends on the element's position and the
        # tensor's length ((-2.5+1j) * (inf+3.4e38j) in complex64 is -inf+inf j in pairs of
        # its AVX-512 loop, -inf+nan j alone or in a vector of 8). An entry not finite on
        # both sides is accepted; finite entries are compared, and a finite entry against a
        # non-finite one is still a finding.
        _mask_where(dt[1], dv[1], lambda a, b: ~np.isfinite(a) & ~np.isfinite(b))
    if op == "logspace" and dt[0] == dv[0] == "tensor" and \
            dt[1]["dtype"] in ("float32", "float16", "bfloat16") and \
            dt[1]["values"].shape == dv[1]["values"].shape:
        # Note: PyTorch's 16- and 32-bit logspace spaces its exponents and rounds them in an
        # order tensorviz does not reproduce for every length (its vectorized and parallel
        # paths); an exponent x rounded by eps changes base**x by eps * |ln(base**x)|. Values
        # within four such roundings are accepted, and past the float range an infinity
        # against a finite value that close to the largest one; the rest is compared.
        eps = {"float32": 2.0 ** -23, "float16": 2.0 ** -10, "bfloat16": 2.0 ** -7}[
            dt[1]["dtype"]]
        top = {"float32": 3.4028234663852886e38, "float16": 65504.0,
               "bfloat16": 3.3895313892515355e38}[dt[1]["dtype"]]

        def near(a, b):
            a64, b64 = a.astype(np.float64), b.astype(np.float64)
            m = np.maximum(np.abs(a64), np.abs(b64))
            fin = np.isfinite(a64) & np.isfinite(b64)
            rtol = 4 * eps * (np.abs(np.log(np.where(fin & (m > 0), m, 1.0))) + 1)
            close = fin & (np.abs(a64 - b64) <= rtol * m)
            edge = np.isinf(a64) != np.isinf(b64)
            finite_one = np.where(np.isinf(a64), np.abs(b64), np.abs(a64))
            edge &= finite_one >= top / (1 + 4 * eps * (np.log(top) + 1))
            return close | edge
        with np.errstate(all="ignore"):
            _mask_where(dt[1], dv[1], near)
    if op.rstrip("_") == "copysign" and operands and len(operands) >= 2 and \
            dt[0] == dv[0] == "tensor" and isinstance(operands[1], np.ndarray) and \
            operands[1].dtype.kind == "f":
        # Note: IEEE 754 leaves the sign of a NaN an operation returns unspecified, and
        # copysign copies it: PyTorch's sqrt of a negative number is +NaN where NumPy's is
        # -NaN. Where the sign source is NaN the magnitude is compared, either sign taken.
        try:
            nan_o = np.broadcast_to(np.isnan(operands[1]), dt[1]["values"].shape)
        except ValueError:
            nan_o = None
        if nan_o is not None:
            with np.errstate(all="ignore"):
                _mask_where(dt[1], dv[1], lambda a, b: nan_o & (np.abs(a) == np.abs(b)))
    if op == "signbit" and x is not None and dt[0] == dv[0] == "tensor" and \
            x.shape == dt[1]["values"].shape and (x.dtype.kind in "fc" or
                                                  x.dtype.name == "bfloat16"):
        # IEEE 754 leaves the sign of a NaN an operation returns unspecified, and PyTorch's
        # kernels differ on it themselves (log of a negative float32 gives +nan, of a float16
        # -nan): signbit is compared where the input is not NaN.
        _mask_where(dt[1], dv[1], lambda a, b: np.isnan(x))
    if op == "view" and x is not None and dt[0] == dv[0] == "tensor" and \
            dt[1]["dtype"] == dv[1]["dtype"] and (x.dtype.kind in "fc" or
                                                  x.dtype.name == "bfloat16"):
        # IEEE 754 leaves the sign and payload of a NaN an operation returns unspecified, and
        # PyTorch's kernels differ on them themselves (rsqrt of a negative bfloat16 gives
        # 0x7fc0 in its scalar loop, 0xffff in its vectorized one): a bit view (view(dtype))
        # of floating values accepts tensorviz's bits where both libraries' bits, read back
        # as the input's dtype, are a NaN. Every other bit is compared.
        dt[1]["values"] = _nan_bits_accepted(dt[1], dv[1], x.dtype)
    if op == "histogram" and x is not None and x.dtype.kind == "f" and \
            dt[0] == dv[0] == "tuple" and len(dt[1]) == len(dv[1]) == 2 and \
            all(d[0] == "tensor" for d in dt[1] + dv[1]) and "weight=" not in line and \
            _call_arg(line, "histogram", 3, 2, "density") in (None, "False", "0") and \
            re.fullmatch(r"\d+", _call_arg(line, "histogram", 1, 0, "bins") or "x"):
        # Note: PyTorch finds the bin of an even histogram from (x - first) * bins / (last -
        # first) in the dtype; where that product overflows (3.4e38 in float32) its cast to
        # int64 is undefined and it then searches memory before the edges. tensorviz gives the
        # exact bin there. Accepted: tensorviz's counts where they are the exact bins of all
        # values and PyTorch's are those of the other values plus that many anywhere.
        edges = dv[1][1][1]["values"]
        ht, hv = dt[1][0][1]["values"], dv[1][0][1]["values"]
        if edges.size >= 2 and ht.shape == hv.shape and \
                np.array_equal(edges, dt[1][1][1]["values"]):
            v = x.reshape(-1)
            nb = edges.size - 1
            with np.errstate(all="ignore"):
                f = (v - edges[0]) * v.dtype.type(nb)
                inside = (v >= edges[0]) & (v <= edges[-1])
                over = inside & ~np.isfinite(f)
            exact = np.minimum(np.searchsorted(edges, v, side="right") - 1, nb - 1)
            rest = np.bincount(exact[inside & ~over], minlength=nb)[:nb]
            every = np.bincount(exact[inside], minlength=nb)[:nb]
            lost = int(over.sum())
            if lost and np.array_equal(hv, every) and np.all(ht >= rest) and \
                    ht.sum() - rest.sum() == lost:
                dt[1][0][1]["values"] = hv
    if op in ("polygamma", "polygamma_") and dt[0] == dv[0] == "tensor":
        # Note: PyTorch's polygamma kernel takes n as a C int (2**40 wraps to 0: -inf for
        # every x), and where n! overflows and zeta(n+1, x) underflows it gives inf * 0 =
        # nan; tensorviz gives the value's own overflow or underflow (see
        # tensorviz.ops.special_functions.polygamma). Compared only where PyTorch is right.
        try:
            n = int(eval(_call_arg(line, op, 0, 0, "n") or "0", {"T": None}))  # noqa: S307
        except Exception:  # noqa: BLE001 - (a tensor n: compared as is)
            n = 0
        # Accepted there is only what polygamma can be: for x > 0 the sign of (-1)^(n+1)
        # (both cases), and for an order past 2**31 an infinity, a zero or (x NaN or +inf,
        # as PyTorch's own kernel gives for a valid order) NaN: a finite nonzero value or a
        # wrong sign is still a finding.
        if n > 1 and x is not None and x.shape == dt[1]["values"].shape:
            with np.errstate(all="ignore"):
                xf = np.asarray(x, dtype=np.float64)
                sign_ok = (xf <= 0) | (np.signbit(dv[1]["values"]) == (n % 2 == 0))
            if n >= 2 ** 31:
                _mask_where(dt[1], dv[1], lambda a, b: np.where(
                    np.isnan(b), np.isnan(xf) | (xf == np.inf),
                    (np.isinf(b) | (b == 0)) & sign_ok))
            else:
                _mask_where(dt[1], dv[1], lambda a, b: np.isnan(a) & np.isfinite(xf) &
                            ~np.isnan(b) & sign_ok)
    if op in ("sgn", "sgn_") and x is not None and dt[0] == dv[0] == "tensor" and \
            x.dtype.kind == "c" and x.shape == dt[1]["values"].shape:
        # Note: PyTorch's sgn of a subnormal complex number is inf+nan j in its one-by-one
        # loop (a complex quotient overflows 1/|x|) and x/|x| in its vector loop; tensorviz
        # gives x/|x| everywhere: a finite input's sgn is compared where PyTorch's is finite.
        _mask_where(dt[1], dv[1], lambda a, b: ~np.isfinite(a) & np.isfinite(x))
    if op in WIDENING and x is not None and x.dtype.name in LOW_PRECISION:
        # Note: tensorviz's float32 transcendental functions are NumPy's, within an ulp or
        # two of PyTorch's (which differ between its own vectorized and scalar loops), and
        # were compared at float32's tolerance where computed: a conversion to float64 (or
        # to Python floats) is compared at the tolerance of the dtype it widens.
        _accept_within(dt, dv, x.dtype.name)
    if op in SUMS and x is not None and x.size and dt[0] == dv[0] == "tensor" and \
            dt[1]["values"].ndim == 0 and dt[1]["values"].shape == dv[1]["values"].shape and \
            dt[1]["dtype"] in ("float32", "float64", "complex64", "complex128", "float16",
                               "bfloat16"):
        # Note: PyTorch's CPU sum is a cascade over vector lanes whose width is the machine's
        # (2 complex128 a step with AVX2, 4 with AVX-512): which terms meet first, and so what
        # cancels (2**63 - 2**63 beside small integers), is the machine's. A sum (or mean)
        # of all elements is compared within the error bound of any summation order,
        # n * eps * sum(|x|) (over n for a mean): a value past it is still a finding. A
        # 16-bit result is summed in float32 and rounded once more (its own half ulp).
        a, b = dt[1]["values"], dv[1]["values"]
        half = {"float16": 2.0 ** -11, "bfloat16": 2.0 ** -8}.get(dt[1]["dtype"])
        eps = float(np.finfo(np.float32).eps) if half else float(np.finfo(a.real.dtype).eps)
        with np.errstate(all="ignore"):
            mag = np.abs(np.asarray(x).astype(np.complex128))
            bound = x.size * eps * float(np.sum(mag[np.isfinite(mag)]))
            if op in ("mean", "nanmean"):
                bound /= x.size
            if half:
                bound += half * float(np.maximum(np.abs(a), np.abs(b)))
            if np.isfinite(a) and np.isfinite(b) and abs(complex(a) - complex(b)) <= bound:
                dt[1]["values"] = b.copy()
    if op in TIE_OPS and x is not None and dt[0] == dv[0] == "tuple" and len(dt[1]) == 2 and \
            all(d[1][0][0] == d[1][1][0] == "tensor" for d in (dt, dv)):
        # PyTorch leaves which of several equal elements an index names unspecified (its
        # selection and sorting algorithms are not stable): tensorviz's indices are accepted
        # when they pick exactly the values it returned out of its input, and those values
        # are PyTorch's (within the dtype's tolerance: an input an ulp apart, PyTorch's
        # float32 i0(0) = 0.99999994 beside tensorviz's 1, is equal on each side alone).
        (vt, it), (vv, iv) = (dt[1][0][1], dt[1][1][1]), (dv[1][0][1], dv[1][1][1])
        if vt["values"].shape == vv["values"].shape and \
                _same_values(vt["values"], vv["values"], vt["dtype"], vt.get("tol")) and \
                _valid_tie_indices(x, vv["values"], iv["values"]):
            it["values"] = iv["values"]
    return False


def _nonfinite(a: np.ndarray) -> np.ndarray:
    """Where ``a`` (any float, complex or bfloat16 array) is infinite or NaN."""
    return ~np.isfinite(a if a.dtype.kind == "c" else a.astype(np.float64))


def _finite_abs(a) -> np.ndarray | None:
    """``|a|`` in float64 with non-finite entries as 0 (None for a value that is no array)."""
    if not isinstance(a, np.ndarray) or a.dtype.kind not in "fiubc" and \
            a.dtype.name != "bfloat16":
        return None
    with np.errstate(all="ignore"):
        m = np.abs(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64))
    return np.where(np.isfinite(m), m, 0.0)


def _overflowing_entries(op: str, line: str, x, operands, dtype: str, shape: tuple):
    """Where a real product's terms may overflow ``dtype`` (see ``deliberate``), and where a
    term is itself infinite or NaN: two boolean masks of the result's shape, or None where
    it cannot be told."""
    big = {"float16": 65504.0, "bfloat16": 3.3895313892515355e38,
           "float32": float(np.finfo(np.float32).max)}.get(dtype, float(np.finfo(np.float64).max))
    rhs = line.split("=", 1)[1].strip() if "=" in line else ""
    if op not in _BOUNDED_PRODUCTS or not _BARE_OPERANDS.match(rhs):
        return None  # (an operand sliced or transposed in the statement: not told)
    with np.errstate(all="ignore"):
        if op == "matrix_power":
            a = _finite_abs(x)
            n = _number(_call_arg(line, "matrix_power", 1, 0, "n") or "")
            if a is None or a.ndim < 2 or n is None or n != int(n) or n < 2 or \
                    a.shape != shape:
                return None
            # (each product's bound; a matrix with one that overflows: all its entries)
            p, over = a, np.zeros(a.shape[:-2], dtype=bool)
            for _ in range(int(min(n, 64)) - 1):
                p = np.matmul(p, a)
                over |= (p > big).any(axis=(-2, -1))
            over = np.broadcast_to(over[..., None, None], shape)
            if n != 2:  # (a power past the square: what overflowed first is the order's)
                return over, np.zeros(shape, dtype=bool)
            nf = _nonfinite(x).astype(np.float64)
            one = np.ones_like(nf)
            return over, np.matmul(nf, one) + np.matmul(one, nf) > 0
    got = _product_bound(op, line, operands, shape)
    return None if got is None else (got[0] > big, got[1])


def _product_bound(op: str, line: str, operands, shape: tuple):
    """For a product of two bare operands (``_BARE_OPERANDS``; not matrix_power): each
    entry's ``sum_k |a_ik| |b_kj|`` over its finite terms (float64), where a term is itself
    infinite or NaN, and the length k of its sums; None where it cannot be told."""
    rhs = line.split("=", 1)[1].strip() if "=" in line else ""
    if op not in _BOUNDED_PRODUCTS or op == "matrix_power" or not _BARE_OPERANDS.match(rhs):
        return None
    ops = [_finite_abs(o) for o in (operands or [])]
    if len(ops) != 2 or ops[0] is None or ops[1] is None or not ops[0].ndim:
        return None
    prod = np.inner if op == "inner" else np.matmul
    with np.errstate(all="ignore"):
        try:
            bound = prod(ops[0], ops[1])
            nf = [_nonfinite(o).astype(np.float64) for o in operands]
            term = prod(nf[0], np.ones_like(ops[1])) + prod(np.ones_like(ops[0]), nf[1])
        except ValueError:
            return None
    if bound.shape != shape or term.shape != shape:
        return None
    return bound, term > 0, ops[0].shape[-1]


# real matrix products (terms that overflow: NaN or infinity by the kernel's order)
REAL_PRODUCTS = {"matmul", "mm", "bmm", "@", "mv", "dot", "inner", "matrix_power"}
# the products whose terms' bound ``_overflowing_entries`` computes, and the statements it
# reads them from: ``vA @ vB``, ``T.op(vA, vB, ...)``, ``vA.op(vB, ...)`` (matrix_power: n)
_BOUNDED_PRODUCTS = REAL_PRODUCTS | {"vdot"}
_BARE_OPERANDS = re.compile(r"^(?:v\d+\s*@\s*v\d+|T\.[\w.]+\(\s*v\d+\s*(?:,\s*v\d+\s*)?"
                            r"(?:,[^()\[\]]*)?\)|v\d+\.\w+\(\s*(?:v\d+\s*)?(?:,?[^()\[\]]*)?\))$")
# solves and inverses (LAPACK's NaN propagation in matrices holding non-finite entries)
SOLVE_OPS = {"inverse", "inv", "inv_ex", "triangular_solve", "solve_triangular", "solve",
             "solve_ex", "matrix_power"}
# complex matrix products (non-finite parts by the formula of the multiply-adds)
PRODUCT_OPS = {"matmul", "mm", "bmm", "@", "i@", "matrix_power", "mv", "addmm", "addmv",
               "baddbmm", "addbmm", "chain_matmul", "multi_dot", "einsum", "tensordot",
               "inner", "dot", "vdot"}
# elementwise complex products (non-finite parts by the loop's position and fusing)
ELEMENTWISE_PRODUCTS = {"mul", "multiply", "mul_", "multiply_", "*", "i*", "addcmul",
                        "addcmul_", "lerp", "lerp_"}
# conversions that widen a tensor's values exactly (compared at the source dtype's tolerance)
WIDENING = {"double", "cdouble", "tolist", "item", "to", "type", "type_as", "float", "cfloat"}
LOW_PRECISION = {"float32", "complex64", "float16", "complex32", "bfloat16"}


def _accept_within(dt, dv, src: str) -> None:
    """Where ``dv`` (tensorviz's) is within ``src``'s tolerance of ``dt`` (PyTorch's), take
    PyTorch's values, through tensors, lists and numbers."""
    if dt[0] != dv[0]:
        return
    if dt[0] == "tensor":
        a, b = dt[1], dv[1]
        if a["values"].shape == b["values"].shape and a["dtype"] in TOL and \
                _same_values(a["values"], b["values"], a["dtype"], src):
            b["values"] = a["values"]
    elif dt[0] in ("tuple", "list") and len(dt[1]) == len(dv[1]):
        for i, (x, y) in enumerate(zip(dt[1], dv[1])):
            if x[0] == y[0] == "number" and isinstance(x[1], (float, complex)) and \
                    type(x[1]) is type(y[1]):
                kind = "complex128" if isinstance(x[1], complex) else "float64"
                if _same_values(np.array([x[1]]), np.array([y[1]]), kind, src):
                    dv[1][i] = x
            else:
                _accept_within(x, y, src)


PRECISION = {"bfloat16": 0, "float16": 1, "complex32": 1, "float32": 2, "complex64": 2,
             "float64": 3,
             "complex128": 3}


def _input_precision(line: str, env: dict, op: str = "") -> str | None:
    """The least precise float or complex dtype among the tensors a statement reads; for a
    float function of a libm (``ULP_OPS``), an integer or bool tensor counts as float32,
    the default dtype PyTorch computes it in (atan2 of int64 into a float64 ``out=``)."""
    rhs = line.split("=", 1)[1] if re.match(r"\s*\w+\s*=[^=]", line) else line
    libm = op.rsplit(".", 1)[-1].rstrip("_") in ULP_OPS
    best = None
    for v in set(re.findall(r"\bv\d+\b", rhs)):
        t = env.get(v)
        name = _dtype_name(t.dtype) if hasattr(t, "dtype") and hasattr(t, "is_complex") \
            else None
        if libm and name is not None and name not in PRECISION and \
                not t.is_floating_point() and not t.is_complex():
            name = "float32"
        if name in PRECISION and (best is None or PRECISION[name] < PRECISION[best]):
            best = name
    return best


def _loosen(desc, src: str | None) -> None:
    """Note: a result is only as accurate as its inputs: a float64 (or complex128) result of
    float32/complex64/half tensors (a promotion, a widening conversion) is compared at the
    tolerance of its least precise input, whose rounding it carries (NumPy's float32
    functions are an ulp or two from PyTorch's, accepted at float32's tolerance)."""
    if src is None:
        return
    if desc[0] == "tensor":
        a = desc[1]
        if a["dtype"] in PRECISION and PRECISION[src] < PRECISION[a["dtype"]] and \
                (a.get("tol") is None or PRECISION[src] < PRECISION[a["tol"]]):
            a["tol"] = src
    elif desc[0] in ("tuple", "list"):
        for d in desc[1]:
            _loosen(d, src)


# ops that map a float to an integer value (a 1-ulp difference can cross an integer)
INTEGER_STEPS = {"floor", "ceil", "trunc", "fix", "round", "floor_", "ceil_", "trunc_",
                 "fix_", "round_", "byte", "char", "short", "int", "long", "to", "type",
                 "tensor", "as_tensor", "asarray"}


def _integer_steps(op: str, dt, dv, x_t, x_v) -> None:
    """Note: floor/ceil/trunc/round and conversions to an integer dtype of float inputs that
    agree within their dtype's tolerance (trigamma's float32 rounding, an ulp of NumPy's libm
    against SLEEF's) may give integers one apart: accepted there (uint8/int8
    wrapping included), where the inputs differ but agree within that tolerance."""
    op = op.rsplit(".", 1)[-1]
    if op in ("sum", "nansum") and x_t is not None and x_v is not None and \
            dt[0] == dv[0] == "tensor" and x_t.shape == x_v.shape and x_t.dtype.kind == "f" \
            and x_t.dtype.name in TOL and dt[1]["values"].dtype.kind in "iu" and \
            dt[1]["values"].shape == dv[1]["values"].shape:
        # A sum to an integer dtype= converts each term first: k terms an ulp apart whose
        # conversions (truncations) are one apart move a sum by k at most (i0(0) is
        # 0.99999994 in PyTorch's float32, 1 in tensorviz: nansum(..., dtype=int64) of two
        # is 0 or 2).
        rtol, atol = TOL[x_t.dtype.name]
        with np.errstate(all="ignore"):
            xt, xv = x_t.astype(np.float64), x_v.astype(np.float64)
            k = int(np.count_nonzero(np.isfinite(xt) & np.isfinite(xv) & (xt != xv) & (
                np.abs(xt - xv) <= atol + rtol * np.maximum(np.abs(xt), np.abs(xv))) &
                (np.trunc(xt) != np.trunc(xv))))
        if k:
            _mask_where(dt[1], dv[1], lambda p, q: np.abs(p.astype(np.float64) -
                                                          q.astype(np.float64)) <= k)
        return
    if op not in INTEGER_STEPS or x_t is None or x_v is None or dt[0] != "tensor" or \
            dv[0] != "tensor" or x_t.shape != x_v.shape or x_t.dtype.kind not in "f" or \
            x_v.shape != dt[1]["values"].shape or dt[1]["values"].shape != dv[1]["values"].shape:
        return
    name = x_t.dtype.name
    if name not in TOL:
        return
    rtol, atol = TOL[name]
    with np.errstate(all="ignore"):
        xt, xv = x_t.astype(np.float64), x_v.astype(np.float64)
        close = np.isfinite(xt) & np.isfinite(xv) & (xt != xv) & \
            (np.abs(xt - xv) <= atol + rtol * np.maximum(np.abs(xt), np.abs(xv)))
    a, b = dt[1]["values"], dv[1]["values"]
    if a.dtype.kind not in "iuf":
        return
    with np.errstate(all="ignore"):
        diff = np.abs(a.astype(np.float64) - b.astype(np.float64))
        step = diff == 1
        if a.dtype.kind in "iu" and a.dtype.itemsize == 1:
            step |= diff == 255  # (one apart across uint8/int8's wrap)
    _mask_where(dt[1], dv[1], lambda p, q: close & step)


def _widened_number(op: str, x, dt, dv):
    """``dv``, or PyTorch's ``dt`` where ``dv`` is a Python number an exact widening
    (``item()``) of a low-precision value made within that dtype's tolerance of it."""
    op = op.rsplit(".", 1)[-1]
    if op in WIDENING and x is not None and x.dtype.name in LOW_PRECISION and \
            dt[0] == dv[0] == "number" and isinstance(dt[1], (float, complex)) and \
            type(dt[1]) is type(dv[1]):
        kind = "complex128" if isinstance(dt[1], complex) else "float64"
        if _same_values(np.array([dt[1]]), np.array([dv[1]]), kind, x.dtype.name):
            return dt
    return dv


def _storages(desc, out: list, name: str) -> None:
    if desc[0] == "tensor":
        if desc[1]["storage"] is not None:
            out.append((name, desc[1]["storage"]))
    elif desc[0] in ("tuple", "list"):
        for i, d in enumerate(desc[1]):
            _storages(d, out, f"{name}[{i}]")


def _sharing(descs: dict) -> set:
    items = []
    for name, d in descs.items():
        _storages(d, items, name)
    if len(items) > 256:  # (pairs grow as the square: compare the groups instead)
        groups: dict = {}
        for name, st in items:
            groups.setdefault(st, []).append(name)
        return {tuple(g) for g in groups.values() if len(g) > 1}
    return {(a, b) for i, (a, sa) in enumerate(items) for (b, sb) in items[i + 1:] if sa == sb}


def snapshot(lib, env: dict) -> dict:
    return {k: describe(lib, v) for k, v in env.items() if k.startswith("v")}


_WRITE = re.compile(r"\.\w+_\(|out=|^[^=]*\[.*\]\s*=[^=]|^\w+\s*[-+*/%&|^@<>]+=")


def _writes(line: str) -> bool:
    """Whether a statement may write into an existing tensor (in-place op, out=, setitem)."""
    return bool(_WRITE.search(line))


def _numpy_warning(caught: list) -> str | None:
    """A NumPy warning that reached the user ("overflow encountered in ..."), if any."""
    for w in caught:
        if "/numpy/" in (w.filename or "") or "encountered in" in str(w.message):
            return f"{w.category.__name__}: {w.message}"
    return None


def _run_stmt(line: str, env: dict, leaks: list | None = None):
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            exec(line, env)  # noqa: S102 - the fuzzer's own generated source
        if leaks is not None:
            leaks.append(_numpy_warning(caught))
        return None
    except BaseException as e:  # noqa: BLE001 - every exception is an outcome to compare
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        return e


def compare(lines: list, torch, tv, ops: list | None = None, phase=None) -> Finding | None:
    """Run ``lines`` on both libraries; the first disagreement, or None. ``phase(name)`` is
    called before each library runs a statement (so a crash can be put on the right side)."""
    env_t, env_v = {"T": torch}, {"T": tv}
    made_by: dict = {}  # variable -> (op, statement) that assigned it
    for i, line in enumerate(lines):
        op = ops[i] if ops else line
        if re.match(r"\s*\w+\s*=\s*T\.unique_consecutive\(\s*\w+\s*,\s*[^=,)]+[,)]", line):
            # Note: PyTorch's torch.unique_consecutive takes a positional return_inverse but
            # returns an empty (or uninitialised) inverse for it; tensorviz returns the
            # inverse, as the keyword and the method forms do in both. Not compared.
            return None
        target = line.split("=", 1)[0].strip() if re.match(r"\s*\w+\s*=[^=]", line) else None
        augmented = _AUGMENTED.match(line)
        if augmented and target is None:  # (``v0 /= v1``: v0 is written, its rule is the op's)
            target = augmented.group(1)
        repairs = _pytorch_repairs(line, env_t, torch)
        # (an in-place op's input, as it was: what the comparison's rules judge it by)
        in_place = builtins.bool(re.search(r"\.\w+_\(", line)) or augmented is not None
        x_before = _call_input(line, env_v) if in_place else None
        if phase:
            phase("torch", i)
        et = _run_stmt(line, env_t)
        if phase:
            phase("tensorviz", i)
        warned: list = []
        ev = _run_stmt(line, env_v, warned)
        if warned and warned[0]:
            return Finding("leak", i, op, f"NumPy warning reached the user: {warned[0]}")
        if et is not None and ev is not None and _writes(line):
            # Note: an in-place op or out= that raises midway leaves PyTorch's tensor partly
            # written (scatter_ with a bad index, remainder_ by zero, an out= resized before
            # its dtype is refused); tensorviz checks first and writes nothing. What such a
            # statement leaves behind is unspecified, so the rest is not compared (unless the
            # error classes already differ).
            ct, cv = error_class(et), error_class(ev)
            if ct == cv and not from_numpy(ev):
                return None
        if et is not None and ev is not None:
            ct, cv = error_class(et), error_class(ev)
            if ct != cv or from_numpy(ev):
                kind = ("leak" if from_numpy(ev) or cv.startswith("numpy.")
                        or cv not in PUBLIC_ERRORS else "error-class")
                return Finding(kind, i, op, f"PyTorch {type(et).__name__}: {str(et)[:200]} | "
                               f"tensorviz {type(ev).__name__}: {str(ev)[:200]}")
            for k in [k for k in env_v if k not in env_t]:
                del env_v[k]
            continue
        if et is None and ev is not None:
            return Finding("refused", i, op, f"tensorviz {type(ev).__name__}: {str(ev)[:300]}")
        if et is not None and ev is None:
            return Finding("accepted", i, op, f"PyTorch {type(et).__name__}: {str(et)[:300]}")
        if not all(repair() for repair in repairs):
            return None
        if in_place and target:
            _adopt_nan_bits(env_t.get(target), env_v.get(target), torch)
        try:
            st, sv = snapshot(torch, env_t), snapshot(tv, env_v)
        except Exception as e:  # noqa: BLE001 - a value tensorviz cannot even describe
            return Finding("silent", i, op, f"cannot inspect: {type(e).__name__}: {e}")
        if target in st:  # (an op's rule: its name, line, input values and precision)
            m = re.search(r"\.(\w+)\(", line) or \
                re.search(r"=\s*(?:abs\(|\w+\s*(\*\*|//|[-+*/%@])\s*\w)", line)
            aug_op = re.match(r"^\s*v\d+\s*(\*\*|//|<<|>>|[-+*/%&|^@])=", line)
            rule_op = ops[i] if ops else "i" + aug_op.group(1) if aug_op else \
                (m.group(1) or "unaryabs(" if m else "")
            made_by[target] = (rule_op, line,
                               x_before if x_before is not None else _call_input(line, env_v),
                               _input_precision(line, env_v, rule_op), _call_input(line, env_t),
                               _samples(line, env_v), _read_values(line, env_v))
        def judge(name):
            """``name``'s difference after the rules (None: none), and its values before."""
            rules = [made_by.get(name)]
            if (in_place or "out=" in line) and name != target and \
                    target in made_by and (env_t.get(name) is env_t.get(target) or
                                           _same_elements(st.get(target), st[name])):
                # (an in-place op's self, an out=, or a view of the same elements (its conj):
                # its rule too)
                rules.append(made_by[target])
            judged = st[name][1].get("values") if st[name][0] == "tensor" else None
            for rule in filter(None, rules):
                _loosen(st[name], rule[3])
                _integer_steps(rule[0], st[name], sv[name], rule[4], rule[2])
                deliberate(*rule[:2], st[name], sv[name], rule[2], samples=rule[5],
                           operands=rule[6])
                sv[name] = _widened_number(rule[0], rule[2], st[name], sv[name])
            return _same(st[name], sv[name], f"{name}."), judged

        def adopt(name, judged) -> bool:
            """An in-place op's result is its self: the accepted values are written where
            its views read them too, as tensorviz's own write put them there."""
            return judged is not None and made_by.get(name, (0, None))[1] == line and \
                _adopt_accepted(env_t.get(name), judged, st[name][1]["values"], env_t, torch,
                                shared=made_by[name][0].rsplit(".", 1)[-1] == "view" or
                                in_place)

        if in_place and target in st and target in sv:
            # (an in-place op's accepted values first: its base and other views read them,
            # a complex value of one C99 class as tensorviz's representative too: the
            # imaginary part a view reads of PyTorch's inf+nan j is tensorviz's inf+2j's)
            d, judged = judge(target)
            if not d and (builtins.bool(adopt(target, judged)) | builtins.bool(
                    _adopt_classes(env_t.get(target), env_v.get(target), torch))):
                st = snapshot(torch, env_t)
        for name in st:
            if name not in sv:
                return Finding("silent", i, op, f"{name} missing")
            parts = [d[1].get("values") if d[0] == "tensor" else None for d in st[name][1]] \
                if st[name][0] == "tuple" else []  # (a tuple's tensors: histogram's hist)
            d, judged = judge(name)
            if d:
                return Finding("silent", i, op, d[:400])
            if name == target:
                adopt(name, judged)
            if name == target and parts and made_by.get(name, (0, None))[1] == line and \
                    isinstance(env_t.get(name), tuple):
                for k, part in enumerate(parts):
                    if part is not None and k < len(env_t[name]):
                        _adopt_accepted(env_t[name][k], part, st[name][1][k][1]["values"],
                                        env_t, torch)
        sh_t, sh_v = _sharing(st), _sharing(sv)
        if sh_t != sh_v:
            return Finding("silent", i, op, f"storage sharing: PyTorch {sorted(sh_t)} vs "
                           f"tensorviz {sorted(sh_v)}")
        if target in made_by and made_by[target][1] == line:
            _adopt_widened(made_by[target][0], made_by[target][2], target, env_t, env_v, torch,
                           made_by[target][3])
    return None


def _adopt_nan_bits(t, v, torch) -> None:
    """Note: IEEE 754 leaves the sign and payload of a NaN an operation returns unspecified,
    and PyTorch's kernels differ among themselves (rsqrt_ of a bfloat16 NaN writes 0x7fc0,
    sqrt_ 0xffff): after an in-place op on a floating tensor, PyTorch's elements take
    tensorviz's bits where both are NaN, so the memory's other views (an int64 base of a
    bfloat16 view) read one set of bits. Any element not NaN on both sides is compared."""
    if not isinstance(t, torch.Tensor) or not hasattr(v, "view") or t.is_conj() or \
            t.is_neg() or not (t.is_floating_point() or t.is_complex()) or not t.numel():
        return
    import tensorviz
    try:
        if t.is_complex():
            t, v = torch.view_as_real(t), tensorviz.view_as_real(v)
        name = {2: "int16", 4: "int32", 8: "int64"}[t.element_size()]
        vbits = np.asarray(v.view(getattr(tensorviz, name)).numpy())
        half = t.dtype == torch.bfloat16  # (numpy() refuses it: float32 holds it exactly)
        tvals = (t.detach().float() if half else t.detach()).numpy()
        vvals = (v.float() if half else v).numpy()
        both = np.isnan(tvals) & np.isnan(vvals)
        if both.any() and vbits.shape == tuple(t.shape):
            tb = t.view(getattr(torch, name))
            with torch.no_grad():
                tb.copy_(torch.where(torch.from_numpy(both), torch.from_numpy(vbits), tb))
    except Exception:  # noqa: BLE001 - (a layout either library cannot view: as it is)
        return


def _adopt_accepted(t, judged: np.ndarray, accepted: np.ndarray, env: dict, torch,
                    shared: bool = False) -> bool:
    """After a rule accepted tensorviz's values for a statement's new tensor ``t`` where
    PyTorch's differ (``deliberate``: the sign bit of a NaN, a pseudo-inverse's NaN entries,
    integers one apart ...): PyTorch's tensor is given those values there, so that what is
    computed from it later (a view, a comparison: ``signbit(x)[0]``, ``pinverse(a) >= 0``)
    compares its own computation, not the accepted difference again. Only a tensor whose
    memory no other variable shares (the rest of the program sees no write), or (``shared``:
    a bit view, whose accepted bits are only another NaN's) one whose storage then holds the
    bits tensorviz's holds, for every view of it."""
    if isinstance(t, torch.Tensor) and t.is_conj() and not t.is_neg():
        # (a conjugate view: its memory holds the conjugates: written through t.conj())
        t, judged, accepted = t.conj(), np.conj(judged), np.conj(accepted)
    if not isinstance(t, torch.Tensor) or t.is_conj() or t.is_neg() or \
            tuple(t.shape) != judged.shape or accepted.shape != judged.shape or \
            judged.dtype != accepted.dtype or not judged.size:
        return False
    with np.errstate(all="ignore"):
        if judged.dtype.kind == "c":  # (part by part: inf+nan j and nan+nan j differ)
            changed = np.zeros(judged.shape, dtype=bool)
            for part in (np.real, np.imag):
                a, b = part(judged), part(accepted)
                changed |= (a != b) & ~(np.isnan(a) & np.isnan(b))
        else:
            changed = np.asarray(judged != accepted, dtype=bool)
            if judged.dtype.kind == "f":
                changed &= ~(np.isnan(judged) & np.isnan(accepted))
    if not np.any(changed):
        return False
    own = t.untyped_storage().data_ptr()
    if not shared and any(isinstance(v, torch.Tensor) and v is not t and
                          v.untyped_storage().data_ptr() == own
                          for k, v in env.items() if k.startswith("v")):
        return False
    with torch.no_grad():
        vals = torch.from_numpy(np.array(accepted, copy=True)).to(t.dtype)
        t.copy_(torch.where(torch.from_numpy(changed), vals, t))
    return shared


# float functions computed by a libm (NumPy's, glibc's, SLEEF's in PyTorch's vector loops):
# results an ulp or two apart between the libraries, and between PyTorch's own loops
ULP_OPS = {"sin", "cos", "tan", "asin", "acos", "atan", "arcsin", "arccos", "arctan", "sinh",
           "cosh", "tanh", "asinh", "acosh", "atanh", "arcsinh", "arccosh", "arctanh", "exp",
           "exp2", "expm1", "log", "log2", "log10", "log1p", "sigmoid", "expit", "logit", "erf",
           "erfc", "erfinv", "i0", "i0e", "i1", "i1e", "lgamma", "gammaln", "digamma", "psi",
           "mvlgamma", "multigammaln", "atan2", "arctan2", "angle", "sinc", "pow", "float_power",
           "logaddexp", "logaddexp2", "hypot", "ndtr", "ndtri", "log_ndtr", "erfcx", "xlogy",
           "xlog1py", "entr", "softmax", "log_softmax", "logsumexp", "abs", "absolute", "sgn",
           "unaryabs(",
           # (and a covariance's products, summed by BLAS in its order and with its fused
           # multiply-adds: a correlation of 1 an ulp above or below it is the same value,
           # which asin or acosh then magnifies into a different answer)
           "cov", "corrcoef",
           # (and the windows computed from a cosine: 0.99999994 beside 1 is one value, which
           # atanh then makes 8.7 beside inf)
           "hann_window", "hamming_window", "blackman_window", "kaiser_window"}
# complex products and quotients: not correctly rounded, and by other formulas in the two
# libraries (PyTorch's vector loop scales by an approximate reciprocal, NumPy uses Smith's):
# an ulp of |z| apart (real ones are IEEE's, identical: never adopted)
COMPLEX_ULP_OPS = {"*", "/", "i*", "i/", "mul", "multiply", "div", "divide", "true_divide",
                   "reciprocal", "addcmul", "addcdiv"}
#: how far apart (in ulps of the precision computed in) two such results are taken as one
ULP_ADOPT = 2
_MANTISSA = {"float16": 11, "bfloat16": 8, "float32": 24, "complex64": 24, "float64": 53,
             "complex128": 53}


def _within_ulps(a: np.ndarray, b: np.ndarray, precision: str, ulps: int = ULP_ADOPT):
    """Where ``a`` and ``b`` are finite and at most ``ulps`` ulps of ``precision`` apart (a
    complex value part by part, in ulps of its modulus: its rounding is bounded by |z|)."""
    bits = _MANTISSA[precision]
    tiny = {11: 2.0 ** -24, 8: 2.0 ** -133, 24: 2.0 ** -149, 53: 2.0 ** -1074}[bits]
    with np.errstate(all="ignore"):
        a64 = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
        b64 = b.astype(a64.dtype)
        mag = np.maximum(np.abs(a64), np.abs(b64))
        ulp = np.maximum(np.ldexp(1.0, np.frexp(np.where(np.isfinite(mag), mag, 0.0))[1] - bits),
                         tiny)
        near = np.isfinite(a64) & np.isfinite(b64)
        for x, y in ((a64.real, b64.real), (a64.imag, b64.imag)):
            near &= np.abs(x - y) <= ulps * ulp
    return near


def _adopt_widened(op: str, x, target: str, env_t: dict, env_v: dict, torch,
                   precision: str | None = None) -> None:
    """Give PyTorch's new value tensorviz's exact values where the two are one value within
    the precision it was computed in, so that what is computed from it later compares its
    own computation, not the same ulp again:

    - after a widening conversion of a low-precision tensor accepted at the source dtype's
      tolerance (see ``deliberate``; polygamma too): a view, a float64 op of it
      (``v4 = v3.cdouble()``, ``v5 = v4[None]``);
    - Note: after a float function computed by a libm (``ULP_OPS``: NumPy's in tensorviz,
      SLEEF's in PyTorch's vector loops and glibc's in its scalar ones, which differ among
      themselves), where the two results are at most ``ULP_ADOPT`` ulps apart in the
      precision computed in (the result's dtype, or its least precise input's: an ``out=``
      of float64 of a float32 computation): NumPy's float32 ``cosh`` or ``expm1`` an ulp
      from SLEEF's, and ``tan``, ``digamma``, ``arcsin``, ``floor``, ``frac`` or ``%`` of
      it magnify the ulp into a different answer. Elements further apart stay
      PyTorch's (and were compared at the dtype's tolerance)."""
    op = op.rsplit(".", 1)[-1]
    a, b = env_t.get(target), env_v.get(target)
    _adopt_classes(a, b, torch)
    if op.rstrip("_") in ULP_OPS and op not in ("polygamma", "polygamma_") or \
            op.rstrip("_") in COMPLEX_ULP_OPS and isinstance(a, torch.Tensor) and a.is_complex():
        _adopt_ulps(a, b, torch, precision)
        return
    # polygamma: where PyTorch's value is wrong (see deliberate), what follows is computed
    # from tensorviz's accepted values on both sides
    wider = ("float16", "bfloat16", "float32", "float64") if op in ("polygamma", "polygamma_") \
        else ("float64", "complex128")
    if op not in WIDENING and op not in ("polygamma", "polygamma_") or x is None or \
            op in WIDENING and x.dtype.name not in LOW_PRECISION:
        return
    if isinstance(a, torch.Tensor):
        # (only a fresh tensor of a wider dtype: a conversion to the same dtype is the
        # source itself, left as PyTorch computed it)
        name = str(a.dtype).split(".")[-1]
        if name not in wider or a.is_conj() or a.is_neg() or \
                not hasattr(b, "numpy"):
            return
        try:
            bf = name == "bfloat16"  # (numpy() refuses it: float32 holds it exactly)
            vals = np.array((b.float() if bf else b).resolve_conj().resolve_neg().numpy(),
                            copy=True)
        except Exception:  # noqa: BLE001 - (nothing to take: compared as is)
            return
        if vals.shape == tuple(a.shape) and vals.dtype.name == ("float32" if bf else name):
            a.data.copy_(torch.from_numpy(vals).to(a.dtype))
    elif isinstance(a, (float, complex, list)) and type(a) is type(b):
        import copy
        env_t[target] = copy.deepcopy(b)


def _adopt_classes(a, b, torch) -> bool:
    """Note: where a complex result compared equal by C99 Annex G's classes (see
    ``_same_values``: PyTorch's ``(0.5-2j) - (-inf)`` is ``inf+nan j``, tensorviz's
    ``inf-2j``), PyTorch's value takes tensorviz's representative, so what follows computes
    from one value on both sides (PyTorch's ``1 / (inf+nan j)`` is NaN, ``1 / (inf-2j)`` 0)."""
    if not isinstance(a, torch.Tensor) or not a.is_complex() or not hasattr(b, "numpy") or \
            a.is_conj() or a.is_neg() or tuple(a.shape) != tuple(b.shape) or not a.numel() or \
            _dtype_name(a.dtype) != _dtype_name(b.dtype):
        return False
    try:
        if a.dtype == torch.complex32:  # (read as complex64 through their float16 pairs)
            import tensorviz
            va = torch.view_as_complex(torch.view_as_real(a.detach()).float()).numpy()
            vb = tensorviz.view_as_complex(tensorviz.view_as_real(
                b.resolve_conj().resolve_neg()).float()).numpy()
        else:
            va = np.array(a.detach().numpy(), copy=True)
            vb = np.array(b.resolve_conj().resolve_neg().numpy(), copy=True)
    except Exception:  # noqa: BLE001 - (nothing to take: compared as is)
        return False
    if va.dtype != vb.dtype:
        return False
    one = _complex_class_match(va, vb)
    with np.errstate(all="ignore"):
        take = one & ~((va.real == vb.real) & (va.imag == vb.imag))
    if not take.any():
        return False
    try:
        with torch.no_grad():
            a.copy_(torch.from_numpy(np.where(take, vb, va)).to(a.dtype))
    except Exception:  # noqa: BLE001 - (an overlapping or read-only result: as is)
        return False
    return True


def _adopt_ulps(a, b, torch, precision: str | None) -> None:
    """``a`` (PyTorch's float result) given ``b``'s (tensorviz's) values where the two are
    within ``ULP_ADOPT`` ulps of the precision computed in (see ``_adopt_widened``)."""
    if not isinstance(a, torch.Tensor) or not hasattr(b, "numpy") or a.is_conj() or \
            a.is_neg() or tuple(a.shape) != tuple(b.shape) or not a.numel():
        return
    name = _dtype_name(a.dtype)
    if name not in _MANTISSA or _dtype_name(b.dtype) != name:
        return
    if precision in _MANTISSA and _MANTISSA[precision] < _MANTISSA[name]:
        name = precision
    try:
        half = a.dtype == torch.bfloat16
        va = np.array((a.detach().float() if half else a.detach()).numpy(), copy=True)
        vb = np.array((b.float() if half else b).resolve_conj().resolve_neg().numpy(), copy=True)
    except Exception:  # noqa: BLE001 - (nothing to take: compared as is)
        return
    if va.shape != vb.shape or va.dtype != vb.dtype:
        return
    near = _within_ulps(va, vb, name) & (va != vb)
    if near.any():
        try:
            with torch.no_grad():
                a.copy_(torch.from_numpy(np.where(near, vb, va)).to(a.dtype))
        except Exception:  # noqa: BLE001 - (an overlapping or read-only result: as is)
            return


_ACOS = re.compile(r"=\s*(?:T\.(?:acos|arccos)_?\(\s*(v\d+)\b|(v\d+)\.(?:acos|arccos)_?\()")
_NEGATION = re.compile(r"=\s*(?:-\s*(v\d+)\s*$|T\.neg(?:ative)?_?\(\s*(v\d+)\s*\)|"
                       r"(v\d+)\.neg(?:ative)?_?\(\s*\))")


def _negated_operand(line: str, env: dict):
    """The complex64/complex128 tensor ``line`` negates (``neg``, ``negative``, unary ``-``)
    when it has a zero real or imaginary part; None otherwise."""
    m = _NEGATION.search(line)
    t = env.get(m.group(1) or m.group(2) or m.group(3)) if m else None
    if t is None or not hasattr(t, "is_complex") or not t.is_complex() or \
            str(t.dtype).split(".")[-1] not in ("complex64", "complex128"):
        return None
    try:
        a = np.asarray(t.resolve_conj().resolve_neg().numpy(force=True))
    except Exception:  # noqa: BLE001 - (nothing to show: compared as is)
        return None
    return t if bool(np.any(a.real == 0) or np.any(a.imag == 0)) else None


def _negates_complex_zero(line: str, env: dict) -> bool:
    """Whether ``line`` negates a complex tensor with a zero real or imaginary part."""
    return _negated_operand(line, env) is not None


_FMOD_OPS = {"fmod": "fmod", "fmod_": "fmod", "remainder": "remainder",
             "remainder_": "remainder"}


def _fmod_operands(line: str, env: dict):
    """``(kind, result name, dividend, divisor)`` of a float ``fmod``/``remainder`` statement
    (function, method, in-place, ``%``, ``%=``), the operands evaluated in ``env`` (before
    the statement runs: PyTorch's tensors, numbers); None for any other statement."""
    import ast
    try:
        tree = ast.parse(line)
    except SyntaxError:
        return None
    if not tree.body:
        return None
    stmt = tree.body[0]
    node, kind, name = None, None, None
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Mod) and \
            isinstance(stmt.target, ast.Name):
        kind, name, pair = "remainder", stmt.target.id, (stmt.target, stmt.value)
    elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
            isinstance(stmt.targets[0], ast.Name):
        name, node = stmt.targets[0].id, stmt.value
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            kind, pair = "remainder", (node.left, node.right)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in _FMOD_OPS:
            kind = _FMOD_OPS[node.func.attr]
            is_fn = isinstance(node.func.value, ast.Name) and node.func.value.id == "T"
            args = list(node.args) if is_fn else [node.func.value] + list(node.args)
            kw = {k.arg: k.value for k in node.keywords}
            first = args[0] if args else kw.get("input", kw.get("self"))
            second = args[1] if len(args) > 1 else kw.get("other")
            if first is None or second is None:
                return None
            pair = (first, second)
    if kind is None:
        return None
    try:
        ops = [eval(ast.unparse(e), dict(env)) for e in pair]  # noqa: S307 - (own source)
        vals = [np.array(o.detach().resolve_conj().resolve_neg().numpy(), copy=True)
                if hasattr(o, "detach") else o for o in ops]
    except Exception:  # noqa: BLE001 - (not evaluable: no repair)
        return None
    return kind, name, vals[0], vals[1]


def _pytorch_repairs(line: str, env: dict, torch) -> list:
    """Before ``line`` runs on PyTorch (``env``: its variables): for the statements where
    PyTorch's result is unspecified or wrong in a known way, callables that, once both
    libraries ran the statement without error, set PyTorch's tensors to what its own
    well-defined computation gives, so that the statement's values and every later one are
    still compared. Each returns False where that cannot be done (not compared further)."""
    repairs = []
    target = line.split("=", 1)[0].strip() if re.match(r"\s*\w+\s*=[^=]", line) else None
    fm = _fmod_operands(line, env) if re.search(r"%|fmod|remainder", line) else None
    if fm is not None:
        # Note: PyTorch's vector loop computes fmod (and remainder, its sign fixed after)
        # with SLEEF's fmod, which gives NaN where the quotient |x / y| overflows the
        # dtype's range (65504 and 1e-310 in float64, 1e30 and 1e-30 in float32); its scalar
        # loop (a tensor's last elements, strided operands) gives C's exact fmod, as
        # tensorviz does everywhere. fmod of finite operands by a nonzero divisor is never
        # NaN: there PyTorch's value is set to C's fmod (its other values kept), so the
        # statement and what follows compare tensorviz's exact remainders.
        kind, name, xs, ys = fm

        def exact_fmod():
            res = env.get(name)
            if not isinstance(res, torch.Tensor) or not res.is_floating_point() or \
                    res.is_conj() or res.is_neg() or res.dtype not in (torch.float32,
                                                                       torch.float64):
                return True
            out = np.array(res.detach().numpy(), copy=True)
            dt = out.dtype
            with np.errstate(all="ignore"):
                try:
                    x = np.broadcast_to(np.asarray(xs).astype(dt), out.shape)
                    y = np.broadcast_to(np.asarray(ys).astype(dt), out.shape)
                except (ValueError, TypeError):
                    return True
                exact = np.fmod(x, y)
                if kind == "remainder":
                    exact = np.where((exact != 0) & ((y < 0) != (exact < 0)), exact + y, exact)
                wrong = np.isnan(out) & np.isfinite(x) & np.isfinite(y) & (y != 0)
            if wrong.any():
                with torch.no_grad():
                    res.copy_(torch.from_numpy(np.where(wrong, exact, out)))
            return True
        repairs.append(exact_fmod)
    neg = _negated_operand(line, env)
    if neg is not None and target:
        # Note: PyTorch negates a complex tensor as 0 - x in its vector loop (a zero part
        # becomes +0) and as -x in the loop's scalar tail and in strided loops (-0), so the
        # sign of a zero part depends on where the element falls in TensorIterator's loops
        # and on the machine's vector width (ATEN_CPU_CAPABILITY=default gives -x
        # throughout); tensorviz's neg is IEEE -x throughout. PyTorch's zero parts are set
        # to -x's signs (its other values, NaN signs included, kept): branch cuts later
        # (acos, log, sqrt ...) then compare tensorviz's signs against -x's.
        before = np.array(neg.detach().resolve_conj().resolve_neg().numpy(), copy=True)

        def negation_signs():
            res = env.get(target)
            if not isinstance(res, torch.Tensor) or tuple(res.shape) != before.shape or \
                    res.dtype != neg.dtype or res.is_conj() or res.is_neg():
                return False
            out = np.array(res.detach().numpy(), copy=True)
            with np.errstate(all="ignore"):
                out.real = np.where(out.real == 0, -before.real, out.real)
                out.imag = np.where(out.imag == 0, -before.imag, out.imag)
            res.data.copy_(torch.from_numpy(out))
            return True
        repairs.append(negation_signs)
    m = _ACOS.search(line)
    acos_of = env.get(m.group(1) or m.group(2)) if m and target else None
    if isinstance(acos_of, torch.Tensor) and acos_of.dtype == torch.complex128:
        # Note: PyTorch's complex128 acos of x + 0j (|x| <= 1) is acos(x) + 0j; C99 (Annex G:
        # cacos(conj(z)) = conj(cacos(z)), cacos(x + 0i) = acos(x) - 0i), NumPy, tensorviz
        # and PyTorch's own complex64 give acos(x) - 0j. PyTorch's zero imaginary parts where
        # the input's is zero are set to C99's sign (its other values kept): branch cuts
        # later (acos of 1.047 - 0j is +0.306j) then compare tensorviz's signs against C99's.
        before = np.array(acos_of.detach().resolve_conj().resolve_neg().numpy(), copy=True)

        def acos_signs():
            res = env.get(target)
            if not isinstance(res, torch.Tensor) or tuple(res.shape) != before.shape or \
                    res.dtype != torch.complex128 or res.is_conj() or res.is_neg():
                return True  # (compared as it is)
            out = np.array(res.detach().numpy(), copy=True)
            fix = (out.imag == 0) & (before.imag == 0)
            if fix.any():
                out.imag = np.where(fix, np.copysign(0.0, -before.imag), out.imag)
                res.data.copy_(torch.from_numpy(out))
            return True
    else:
        acos_signs = None
    ordered = _ordered_write(line, env)
    if ordered is not None:
        # Note: a write whose result PyTorch's loop order decides (see _ordered_write: an
        # in-place op, out= or setitem whose destination shares memory with what it reads,
        # or an index write that hits a position twice): PyTorch documents it as
        # undefined. tensorviz reads every input before it writes, and scatters in
        # row-major order (the last write wins), which is what PyTorch computes for the
        # same statement on contiguous copies of its operands: PyTorch's destinations are
        # given that value, and the statement, its results and the rest of the program are
        # compared.
        dests, apart = ordered

        def contiguous(v):
            return (v.detach().clone(memory_format=torch.contiguous_format)
                    if isinstance(v, torch.Tensor) else v)
        # (the destinations and, apart, every tensor read: "_fN", its own copy of vN)
        copies = {k: contiguous(v) for k, v in env.items()}
        copies.update({"_f" + k[1:]: contiguous(v) for k, v in env.items()
                       if re.fullmatch(r"v\d+", k)})

        def in_order():
            if _run_stmt(apart, copies) is not None:
                return False
            for d in dests:
                a, b = env.get(d), copies.get(d)
                if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor) or \
                        a.shape != b.shape or a.dtype != b.dtype:
                    return False
                try:
                    with torch.no_grad():
                        a.copy_(b)
                except RuntimeError:  # (a destination with internal overlap: not compared)
                    return False
            return True
        repairs.append(in_order)
    if acos_signs is not None:  # (after an ordered write's: its result is PyTorch's acos)
        repairs.append(acos_signs)
    operand = _median_of_stride_zero(line, env)
    if operand is not None and target:
        # Note: PyTorch's median/nanmedian along a dim whose stride is 0 (an expanded
        # tensor) read the reduced dim as if its stride were 1: neighbouring memory, past
        # the tensor's own (median(tensor([1.]).expand(3), 0) is 6.9e-310, or 2.0, by what
        # lies there). tensorviz gives the median of the values. PyTorch's result is given
        # what the same statement computes on a contiguous copy of its input, and the
        # comparison goes on.
        copies = {k: (v.detach().clone() if isinstance(v, torch.Tensor) else v)
                  for k, v in env.items()}
        copies[operand] = env[operand].detach().contiguous()
        outs = re.findall(r"\bv\d+\b", line.split("out=", 1)[1]) if "out=" in line else []

        def contiguous_median():
            if _run_stmt(line, copies) is not None:
                return False
            with torch.no_grad():
                for v in outs:
                    env[v].copy_(copies[v])
                got, want = env.get(target), copies.get(target)
                if not (isinstance(got, tuple) and isinstance(want, tuple) and
                        len(got) == len(want)):
                    return False
                for a, b in zip(got, want):
                    a.copy_(b)
            return True
        repairs.append(contiguous_median)
    if _cov_zeroes_input(line, env):
        # Note: PyTorch's cov with one observation and one weights tensor (fweights or
        # aweights alone) overwrites its input with zeros (a bug: the same call with both
        # weights, or without, leaves it); tensorviz leaves the input as it was. PyTorch's
        # input is given its values back: the result and the rest of the program are
        # compared.
        inp = _call_operand(line, env)
        saved = inp.detach().clone()

        def restore_input():
            with torch.no_grad():
                inp.data.copy_(saved)
            return True
        repairs.append(restore_input)
    return repairs
