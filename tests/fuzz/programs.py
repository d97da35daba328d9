"""Random programs over the shared API, as source text that runs on either library.

A program is a list of ``Stmt``; each renders to one line of Python in which ``T`` is the
library (``torch`` or ``tensorviz``)::

    v0 = T.tensor([[1.0, float('nan')], [-0.0, 3.0]], dtype=T.float32)
    v1 = v0.t()
    v2 = T.sum(v1, dim=0, keepdim=True)

``generate(seed, ops, torch)`` draws one program statement by statement, running each on
PyTorch as it goes so later statements can pick dims, shapes and indices that fit the values
reached so far (and invalid ones now and then). The same seed always gives the same program.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64",
          "bfloat16", "complex32", "complex64", "complex128"]
#: The pool new tensors' dtypes are drawn from: each dtype twice, complex32 (whose ops
#: PyTorch mostly refuses) once, about 4% of the draws.
DTYPE_POOL = [d for d in DTYPES if d != "complex32"] * 2 + ["complex32"]
INTS = {"uint8": (0, 255), "int8": (-128, 127), "int16": (-32768, 32767),
        "int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1)}

TENSOR_PRIMARY = {"input", "self", "x", "a", "A", "tensor", "mat", "elements", "obj", "data",
                  "the_template", "sorted_sequence", "quotient", "real", "abs", "LU_data"}
TENSOR_OTHER = {"other", "tensor1", "tensor2", "mat1", "mat2", "vec", "vec1", "vec2", "batch1",
                "batch2", "y", "input2", "x1", "x2", "B", "b", "weight", "weights", "end",
                "exponent", "src", "values", "test_elements", "boundaries", "prepend",
                "append", "imag", "angle", "tensor", "target", "fweights", "aweights",
                "window", "LU_pivots", "u", "v", "xs"}
BOOL_TENSOR = {"mask", "condition"}
INDEX_TENSOR = {"index", "indices", "sorter"}
DIM_NAMES = {"dim", "dim0", "dim1", "dim2", "axis", "axis0", "axis1", "start_dim", "end_dim",
             "dimension", "destination"}
BOOL_NAMES = {"keepdim", "keepdims", "upper", "largest", "sorted", "descending", "stable",
              "unbiased", "some", "return_inverse", "return_counts", "accumulate", "as_tuple",
              "periodic", "equal_nan", "right", "out_int32", "include_self", "compute_uv",
              "transpose", "unitriangular", "increasing", "density", "replacement", "left",
              "assume_unique", "invert", "full_matrices", "hermitian", "check_errors",
              "nonzero", "non_blocking", "copy", "implicit", "center", "normalized",
              "onesided", "return_complex", "full", "driver_check", "pivot", "with_replacement"}
SCALAR_NAMES = {"alpha", "beta", "value", "min", "max", "nan", "posinf", "neginf", "fill_value",
                "rtol", "atol", "eps", "q", "p", "lambd", "maxnorm", "margin", "threshold",
                "dx", "start", "step", "low", "high", "from_", "to", "median", "sigma", "tol",
                "rcond", "min_val", "max_val", "ord", "spacing", "base", "decimals", "scale"}
INT_NAMES = {"n", "k", "diagonal", "offset", "shifts", "repeats", "chunks", "sections",
             "split_size", "split_size_or_sections", "minlength", "bins", "length", "r",
             "steps", "num_samples", "N", "window_length", "output_size", "edge_order",
             "indices_or_sections", "split_sizes", "row", "col", "m", "s", "count",
             "correction", "diagonal_offset"}
SHAPE_NAMES = {"size", "sizes", "shape", "dims", "stride", "shapes"}
#: The most elements a tensor literal spells out (a bigger one is ``T.full`` of one value).
LITERAL_MAX = 4096
SKIP_NAMES = {"out", "device", "layout", "requires_grad", "pin_memory", "generator",
              "memory_format", "names", "_stacklevel", "non_blocking", "dtype_", "pickle_module",
              "name", "f", "map_location", "weights_only", "mmap", "np_dtype", "category",
              "orig_func", "order", "ndarray", "buffer", "dev", "sparse_grad", "force",
              "wrap_storage", "profile", "precision", "edgeitems", "linewidth", "sci_mode"}
STRING_CHOICES = {
    "rounding_mode": ["None", "'floor'", "'trunc'", "'round'"],
    "reduce": ["'sum'", "'prod'", "'mean'", "'amax'", "'amin'", "'add'", "'multiply'", "'max'",
               "'bad'"],
    "interpolation": ["'linear'", "'lower'", "'higher'", "'nearest'", "'midpoint'", "'cubic'"],
    "indexing": ["'ij'", "'xy'", "'yx'"],
    "side": ["'left'", "'right'", "'middle'"],
    "compute_mode": ["'use_mm_for_euclid_dist_if_necessary'", "'donot_use_mm_for_euclid_dist'"],
    "mode": ["'reduced'", "'complete'", "'r'", "'bad'"],
    "norm": ["None", "'forward'", "'backward'", "'ortho'", "'bad'"],
    "equation": ["'ij->ji'", "'ij,jk->ik'", "'i,i->'", "'ii->i'", "'...i->...'", "'ij->'",
                 "'bij,bjk->bik'", "'i,j->ij'"],
    "pad_mode": ["'reflect'", "'constant'"],
    "mode_str": ["'reduced'"],
}


@dataclass
class Stmt:
    """One line: ``target = expr`` (or a bare ``expr`` for setitem), with the parts the
    shrinker can drop (keyword arguments) kept apart."""
    target: str | None
    head: str                 # "T.add", "v1.add", "v1[...]", literal source, ...
    args: list = field(default_factory=list)
    kwargs: dict = field(default_factory=dict)
    kind: str = "call"        # call | expr | setitem | literal
    op: str = ""              # the op's name, for reports

    def render(self) -> str:
        if self.kind == "call":
            parts = list(self.args) + [f"{k}={v}" for k, v in self.kwargs.items()]
            expr = f"{self.head}({', '.join(parts)})"
        else:
            expr = self.head
        if self.kind == "setitem":
            return expr
        return f"{self.target} = {expr}"


def render(program: list) -> str:
    return "\n".join(s.render() for s in program)


def _lit(v, dtype: str) -> str:
    """Python source of one element value."""
    if isinstance(v, complex):
        return f"complex({_lit(v.real, 'float64')}, {_lit(v.imag, 'float64')})"
    if isinstance(v, float):
        if math.isnan(v):
            return "float('nan')"
        if math.isinf(v):
            return "float('inf')" if v > 0 else "-float('inf')"
        if v == 0 and math.copysign(1, v) < 0:
            return "-0.0"
        return repr(v)
    return repr(v)


class Generator:
    """Draws one program for ``seed``, running it on ``torch`` as it goes."""

    def __init__(self, seed: int, ops: dict, torch):
        self.rng = random.Random(seed)
        self.ops = ops
        self.torch = torch
        self.env = {"T": torch}
        self.program: list = []
        self.count = 0

    # ------------------------------------------------------------------ helpers
    def fresh(self) -> str:
        name = f"v{self.count}"
        self.count += 1
        return name

    def tensors(self) -> list:
        return [k for k, v in self.env.items() if isinstance(v, self.torch.Tensor)]

    def emit(self, stmt: Stmt) -> bool:
        """Append ``stmt`` and run it on PyTorch; False (and the statement kept) on error."""
        self.program.append(stmt)
        try:
            exec(stmt.render(), self.env)  # noqa: S102 - the fuzzer's own generated source
            return True
        except Exception:
            return False

    def value(self, dtype: str, special: float):
        r = self.rng
        if dtype == "bool":
            return r.random() < 0.5
        if dtype in INTS:
            lo, hi = INTS[dtype]
            if r.random() < special:
                return r.choice([lo, hi, 0, lo + 1, hi - 1])
            return r.randint(max(lo, -6), min(hi, 6))
        if r.random() < special:
            base = r.choice([float("nan"), float("inf"), -float("inf"), -0.0, 0.0, 1e30,
                             -1e-30, 65504.0, 3.4e38, 1e-310, 2.0**60])
        else:
            base = r.choice([0.0, 1.0, -1.0, 2.0, 0.5, -2.5, 3.0, 0.25, -0.75, 4.0, 1.5, -3.0])
        if dtype.startswith("complex"):
            return complex(base, r.choice([0.0, 1.0, -2.0, 0.5, base if r.random() < .2 else 0.0]))
        return base

    def shape(self, max_ndim: int = 3) -> tuple:
        r = self.rng
        ndim = r.choice([0, 1, 1, 2, 2, 2, 3][: max_ndim * 2 + 1])
        return tuple(r.choice([0, 1, 2, 2, 3, 3, 4]) if r.random() < 0.1 else
                     r.choice([1, 2, 3, 4]) for _ in range(ndim))

    def literal(self, shape: tuple, dtype: str, special: float = 0.15) -> str:
        """Source of a tensor literal of ``shape``/``dtype``."""
        n = math.prod(shape)
        if n == 0:
            return f"T.zeros({shape!r}, dtype=T.{dtype})"
        if n > LITERAL_MAX:  # (a shape fitting a huge result: one value, not megabytes of
            # source that take longer to compile than any op takes to run)
            return f"T.full({shape!r}, {_lit(self.value(dtype, special), dtype)}, dtype=T.{dtype})"
        vals = [_lit(self.value(dtype, special), dtype) for _ in range(n)]

        def nest(flat, dims):
            if not dims:
                return flat[0]
            step = len(flat) // dims[0]
            return "[" + ", ".join(nest(flat[i * step:(i + 1) * step], dims[1:])
                                   for i in range(dims[0])) + "]"
        return f"T.tensor({nest(vals, list(shape))}, dtype=T.{dtype})"

    def new_tensor(self, shape=None, dtype=None, layout=None) -> str:
        """Emit a base tensor (and a view of it for a non-contiguous layout); its name."""
        r = self.rng
        shape = self.shape() if shape is None else tuple(shape)
        dtype = dtype or r.choice(DTYPE_POOL)
        layout = layout or r.choice(["contig"] * 4 + ["t", "step", "offset", "expand", "neg"])
        if layout == "t" and len(shape) >= 2:
            base = shape[::-1]
            tail = ".t()" if len(shape) == 2 else f".permute({tuple(range(len(shape)))[::-1]!r})"
        elif layout == "step" and len(shape) >= 1:
            base = shape[:-1] + (shape[-1] * 2,)
            tail = "[..., ::2]"
        elif layout == "offset" and len(shape) >= 1:
            base = (shape[0] + 1,) + shape[1:]
            tail = "[1:]"
        elif layout == "expand" and len(shape) >= 1:
            d = r.randrange(len(shape))
            base = shape[:d] + (1,) + shape[d + 1:]
            tail = f".expand({shape!r})"
        elif layout == "neg" and dtype.startswith("complex"):
            base, tail = shape, ".conj()"
        else:
            base, tail = shape, ""
        name = self.fresh()
        self.emit(Stmt(name, self.literal(base, dtype), kind="literal", op="tensor"))
        if tail:
            view = self.fresh()
            self.emit(Stmt(view, name + tail, kind="expr", op="layout"))
            return view
        return name

    def pick(self) -> str:
        names = self.tensors()
        return self.rng.choice(names) if names else self.new_tensor()

    # ------------------------------------------------------------------ arguments
    def dim(self, t, allow_none=True) -> str:
        r = self.rng
        nd = max(t.dim(), 1) if t is not None else 1
        x = r.random()
        if x < 0.03:
            return f"T.tensor({r.randrange(-nd, nd)})"
        if x < 0.06:
            return repr(r.choice([nd, -nd - 1, 10**30]))
        if x < 0.10 and allow_none:
            return "None"
        if x < 0.16 and t is not None and t.dim() >= 2:
            return repr(tuple(r.sample(range(t.dim()), 2)))
        return repr(r.randrange(-nd, nd))

    def scalar(self) -> str:
        r = self.rng
        return r.choice(["0", "1", "-1", "2", "3", "0.5", "-2.5", "True", "False", "1.5",
                         "float('nan')", "float('inf')", "-float('inf')", "10**30", "-128",
                         "(1+2j)", "-0.0", "1e-3", "255", "2**63-1"] +
                        ["1", "2", "0.5"] * 3)

    def int_arg(self, t) -> str:
        r = self.rng
        x = r.random()
        if x < 0.04:
            return repr(r.choice([10**30, -(10**6), 2**40, 10**6]))
        if x < 0.08:
            return f"T.tensor({r.randint(0, 3)})"
        if x < 0.12:
            return repr(r.choice([1.5, -1, None]))
        if x < 0.2 and t is not None and t.dim() >= 1:
            return repr([r.randint(0, max(int(t.shape[0]), 1)) for _ in range(r.randint(1, 3))])
        return repr(r.randint(0, 4) if r.random() < 0.85 else r.randint(-3, -1))

    def shape_arg(self, t) -> list:
        """A shape as a list of int sources (for ``*size``) -- mostly one that fits ``t``."""
        r = self.rng
        if t is not None and r.random() < 0.7:
            n = t.numel()
            dims = []
            rest = n
            for _ in range(r.randint(0, 3)):
                divs = [d for d in range(1, rest + 1) if rest % d == 0] or [1]
                d = r.choice(divs)
                dims.append(d)
                rest //= max(d, 1)
            dims.append(rest)
            if r.random() < 0.3:
                dims[r.randrange(len(dims))] = -1
            if r.random() < 0.15 and t.dim():
                dims = list(t.shape)
                dims[r.randrange(len(dims))] = r.choice([1, -1, 4, 0])
                if r.random() < .5:
                    dims.insert(0, 2)
            return [repr(d) for d in dims]
        if r.random() < 0.05:
            return [repr(r.choice([2**40, -2, 10**30]))]
        return [repr(d) for d in self.shape()]

    def other_tensor(self, t, name: str) -> str:
        """A second operand: an existing tensor, a fresh one that broadcasts, or a scalar."""
        r = self.rng
        x = r.random()
        if x < 0.25:
            return self.pick()
        if x < 0.4 and name in ("other", "exponent", "end", "weight", "y"):
            return self.scalar()
        shape = tuple(t.shape) if t is not None else self.shape()
        y = r.random()
        if y < 0.2 and shape:
            shape = shape[::-1]
        elif y < 0.35 and shape:
            shape = shape[r.randrange(len(shape)):]
        elif y < 0.45 and shape:
            shape = tuple(1 if r.random() < 0.5 else s for s in shape)
        elif y < 0.55:
            shape = self.shape()
        dtype = (str(t.dtype).split(".")[-1] if t is not None and r.random() < 0.6
                 else r.choice(DTYPE_POOL))
        if dtype not in DTYPES:
            dtype = "float32"
        return self.new_tensor(shape, dtype)

    def index_tensor(self, t, dim=None) -> str:
        r = self.rng
        size = 1
        if t is not None and t.dim():
            size = int(t.shape[dim if dim is not None else r.randrange(t.dim())])
        shape = tuple(t.shape) if t is not None and r.random() < 0.5 else self.shape(2)
        n = math.prod(shape)
        lo, hi = (-size, size - 1) if size else (0, 0)
        if r.random() < 0.08:
            hi += 2
        vals = [r.randint(lo, hi) if size else 0 for _ in range(n)]
        dtype = "int64" if r.random() < 0.9 else r.choice(["int32", "uint8", "bool", "float32"])
        if n == 0:
            src = f"T.zeros({shape!r}, dtype=T.{dtype})"
        else:
            src = f"T.tensor({vals!r}, dtype=T.{dtype}).reshape({shape!r})"
            if dtype == "bool":
                src = f"T.tensor({[bool(v % 2) for v in vals]!r}).reshape({shape!r})"
        name = self.fresh()
        self.emit(Stmt(name, src, kind="literal", op="index"))
        return name

    def bool_tensor(self, t) -> str:
        shape = tuple(t.shape) if t is not None else self.shape()
        if self.rng.random() < 0.3 and shape:
            shape = shape[self.rng.randrange(len(shape)):]
        if self.rng.random() < 0.1:
            shape = (1,) + shape
        return self.new_tensor(shape, "bool", layout="contig")

    def arg_for(self, name: str, t, op: str) -> list | None:
        """Source(s) for parameter ``name`` of ``op`` (a list: ``*size`` takes several);
        None to leave an optional parameter out."""
        r = self.rng
        if name in SKIP_NAMES:
            return None
        if op in ("movedim", "moveaxis") and name in ("source", "destination"):
            return [self.dim(t, allow_none=False)]
        if name in STRING_CHOICES and not (name == "mode" and op not in ("qr",)):
            return [r.choice(STRING_CHOICES[name])]
        if name in BOOL_TENSOR:
            return [self.bool_tensor(t)]
        if name in INDEX_TENSOR:
            return [self.index_tensor(t)]
        if name in TENSOR_OTHER or (name == "source" and op not in ("movedim", "moveaxis")):
            return [self.other_tensor(t, name)]
        if name in TENSOR_PRIMARY:
            return [self.pick() if r.random() < 0.3 else self.other_tensor(t, name)]
        if name in ("tensors", "operands", "matrices"):
            items = [self.pick() if r.random() < 0.3 else self.other_tensor(t, "x")
                     for _ in range(r.randint(1, 3))]
            return ["[" + ", ".join(items) + "]"]
        if name in DIM_NAMES:
            return [self.dim(t)]
        if name in BOOL_NAMES:
            return [r.choice(["True", "False"])]
        if name == "dtype":
            return [r.choice([f"T.{d}" for d in DTYPES] + ["float", "int", "bool", "complex",
                                                           "None"])]
        if name in SHAPE_NAMES:
            if name == "dims" and t is not None and op in ("permute", "flip", "rot90", "tile"):
                dims = list(range(t.dim()))
                r.shuffle(dims)
                if op == "flip":
                    dims = dims[: r.randint(0, len(dims))]
                return [repr(tuple(dims))]
            return ["(" + ", ".join(self.shape_arg(t)) + ",)"]
        if name in INT_NAMES:
            return [self.int_arg(t)]
        if name in SCALAR_NAMES:
            return [self.scalar()]
        return None

    # ------------------------------------------------------------------ statements
    def call(self) -> None:
        r = self.rng
        x = r.random()
        if x < 0.1:
            return self.indexing()
        if x < 0.14:
            return self.operator()
        if x < 0.17:
            t = self.pick()
            prop = r.choice(self.ops["property"])
            self.emit(Stmt(self.fresh(), f"{t}.{prop}", kind="expr", op=prop))
            return
        use_method = r.random() < 0.5
        table = self.ops["method" if use_method else "function"]
        op = r.choice(sorted(table))
        sig = r.choice(table[op])
        self_name = self.pick() if use_method else None
        t = self.env[self_name] if self_name else None
        args, kwargs = [], {}
        for p in sig.params:
            if t is None and p.name in TENSOR_PRIMARY | {"tensor"} and not p.star:
                self_name = self.pick()
                t = self.env[self_name]
                args.append(self_name)
                continue
            if not p.required and not p.star and r.random() < 0.5:
                continue
            srcs = self.arg_for(p.name, t, op)
            if srcs is None:
                if p.required:
                    srcs = [self.int_arg(t) if r.random() < 0.5 else self.pick()]
                else:
                    continue
            if p.star:
                if p.name in ("tensors", "operands", "matrices"):
                    srcs = srcs[0][1:-1].split(", ") if srcs[0].startswith("[") else srcs
                elif srcs[0].startswith("(") and srcs[0].endswith(",)"):
                    srcs = [s for s in srcs[0][1:-2].split(", ") if s]
                args.extend(srcs)
            elif p.kwonly or (args != [] and r.random() < 0.3 and not any(
                    q.star for q in sig.params)) or kwargs:
                kwargs[p.name] = srcs[0]
            else:
                args.append(srcs[0])
        head = f"{self_name}.{op}" if use_method else f"T.{op}"
        self.emit(Stmt(self.fresh(), head, args, kwargs, kind="call", op=op))

    def indexing(self) -> None:
        r = self.rng
        name = self.pick()
        t = self.env[name]
        parts = []
        for d in range(r.randint(1, max(t.dim(), 1))):
            size = int(t.shape[d]) if d < t.dim() else 1
            x = r.random()
            if x < 0.3:
                parts.append(repr(r.randint(-size, max(size - 1, 0) + (r.random() < 0.05))))
            elif x < 0.6:
                a, b, s = r.randint(-3, 3), r.randint(-3, 4), r.choice([1, 1, 2, 3])
                parts.append(f"{a}:{b}:{s}" if r.random() < .5 else f"::{s}")
            elif x < 0.7:
                parts.append("None")
            elif x < 0.75:
                parts.append("...")
            elif x < 0.88:
                parts.append(self.index_tensor(t, d if d < t.dim() else None))
            elif x < 0.94:
                parts.append(repr([r.randint(-size, max(size - 1, 0)) for _ in range(2)]))
            else:
                parts.append(f"T.tensor({r.randint(0, 2)}, dtype=T.uint8)"
                             if r.random() < .5 else ":")
        idx = ", ".join(parts) if parts else "..."
        if r.random() < 0.35:
            val = self.scalar() if r.random() < 0.6 else self.pick()
            self.emit(Stmt(None, f"{name}[{idx}] = {val}", kind="setitem", op="setitem"))
        else:
            self.emit(Stmt(self.fresh(), f"{name}[{idx}]", kind="expr", op="getitem"))

    def operator(self) -> None:
        r = self.rng
        a = self.pick()
        if r.random() < 0.2:
            op = r.choice(["-", "~", "+", "abs("])
            src = f"abs({a})" if op == "abs(" else f"{op}{a}"
            self.emit(Stmt(self.fresh(), src, kind="expr", op="unary" + op))
            return
        op = r.choice(["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>", "==",
                       "<", ">=", "!=", "@"])
        b = self.other_tensor(self.env[a], "other")
        if r.random() < 0.3:
            self.emit(Stmt(None, f"{a} {op}= {b}", kind="setitem", op="i" + op))
        elif r.random() < 0.2:
            self.emit(Stmt(self.fresh(), f"{b} {op} {a}", kind="expr", op=op))
        else:
            self.emit(Stmt(self.fresh(), f"{a} {op} {b}", kind="expr", op=op))

    def run(self) -> list:
        self.new_tensor()
        for _ in range(self.rng.randint(1, 4)):
            self.call()
        return self.program


def generate(seed: int, ops: dict, torch) -> list:
    """The program for ``seed`` (deterministic)."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Generator(seed, ops, torch).run()
