"""The op inventory: sample inputs for every public op, which tests walk generically.

Each entry names one public op (``add``, ``linalg.norm``, ``fft.rfft``, ``special.erfcx``, or
a Tensor-only method such as ``view``) and a generator of sample programs for its category
(unary pointwise, binary with broadcasting and scalars, reductions with dim/keepdim/dtype,
scans, views, joining, indexing, linalg on well-conditioned matrices, fft, random ops, ...).
A sample builds the *same* program for PyTorch and for tensorviz from one seed::

    from tests.inventory import samples
    import torch, tensorviz
    for s in samples("add", dtype="int16", layout="t"):
        args, kwargs = s.build(torch)          # the same data in PyTorch ...
        args2, kwargs2 = s.build(tensorviz)    # ... and in tensorviz
        torch.add(*args, **kwargs)

``layout`` is one of ``LAYOUTS``: the five layouts of the differential tests (``contig``,
``t`` dims reversed, ``step`` every other element of the last dim, ``offset`` a view starting
inside its storage, ``expand`` a stride-0 first dim) plus ``empty`` (first dim of size 0)
and ``0d`` (every generated tensor 0-dim).  ``requires_grad=True`` makes the floating and
complex inputs leaves that require grad (with the layout's strides), for gradient checks.

``ops()`` lists the entries with their metadata (namespace, has_inplace, has_out, is_view,
differentiable), learned by asking PyTorch (on a float64 sample where it must run one).  ``SKIPS``
names the public names that have no entry, each with the reason.
"""
from __future__ import annotations

import itertools
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import ml_dtypes  # noqa: F401  (np.dtype("bfloat16"))
import numpy as np

ALL_DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
              "float64", "bfloat16", "complex64", "complex128")
STRIDED_LAYOUTS = ("contig", "t", "step", "offset", "expand")
LAYOUTS = STRIDED_LAYOUTS + ("empty", "0d")
INT_DTYPES = ("uint8", "int8", "int16", "int32", "int64")
FLOAT_DTYPES = ("float16", "float32", "float64")
COMPLEX_DTYPES = ("complex64", "complex128")

S = (3, 4)  # the usual sample shape: small, not square, so a wrong dim shows


# ---------------------------------------------------------------- data and layouts
def random_data(shape, dtype: str, rng: np.random.Generator, special: bool = False,
                low=None, high=None) -> np.ndarray:
    """Random values of ``dtype`` (as tests/ops/conftest.py); ``special`` mixes in 0, -0.0,
    +-inf and NaN for floats."""
    shape = tuple(shape)
    if dtype == "bool":
        return np.asarray(rng.random(shape) < 0.5)
    if dtype in INT_DTYPES:
        lo = (0 if dtype == "uint8" else -9) if low is None else int(np.floor(low))
        if dtype == "uint8":
            lo = max(lo, 0)
        hi = 12 if high is None else max(int(np.ceil(high)), lo + 1)
        return np.asarray(rng.integers(lo, hi, size=shape)).astype(dtype)
    lo = -4.0 if low is None else low
    hi = 4.0 if high is None else high
    data = np.asarray(rng.uniform(lo, hi, size=shape))
    if dtype in COMPLEX_DTYPES:
        data = data + 1j * rng.uniform(lo, hi, size=shape)
    data = np.asarray(data.astype(dtype))
    if special and data.size:
        specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5], dtype=dtype)
        mask = rng.random(shape) < 0.3
        data[mask] = rng.choice(specials, size=int(mask.sum()))
    return data


def base_shape(shape: tuple, layout: str) -> tuple:
    """The shape of the storage tensor that ``layout_view`` views as ``shape``."""
    if layout == "t" and shape:
        return tuple(reversed(shape))
    if layout == "step" and shape:
        return shape[:-1] + (2 * shape[-1],)
    if layout == "offset" and shape:
        return (shape[0] + 2,) + shape[1:]
    if layout == "expand" and shape:
        return (1,) + shape[1:]
    return shape


def layout_view(t, shape: tuple, layout: str):
    """``t`` (of ``base_shape(shape, layout)``) viewed in ``layout`` with shape ``shape``."""
    if layout == "t" and shape:
        return t.permute(*reversed(range(len(shape))))
    if layout == "step" and shape:
        return t[..., ::2]
    if layout == "offset" and shape:
        return t[1:shape[0] + 1]
    if layout == "expand" and shape:
        return t.expand(*shape)
    return t


def layout_shape(shape: tuple, layout: str) -> tuple:
    """The shape a sample asks for, as ``layout`` turns it (``empty``: first dim 0; ``0d``)."""
    if layout == "0d":
        return ()
    if layout == "empty" and shape:
        return (0,) + tuple(shape[1:])
    return tuple(shape)


class Maker:
    """Builds one sample's tensors for one library (``lib`` is ``torch`` or ``tensorviz``).

    Every tensor draws its data from ``(seed, n)`` where ``n`` counts the tensors made so far,
    so the same generator code gives the same data in both libraries.
    """

    def __init__(self, lib, dtype: str, layout: str, seed: int = 0,
                 requires_grad: bool = False):
        self.lib, self.dtype, self.layout, self.seed = lib, dtype, layout, seed
        self.requires_grad = requires_grad
        self._n = 0

    def _rng(self) -> np.random.Generator:
        self._n += 1
        return np.random.default_rng((self.seed, self._n))

    def dt(self, name: str | None = None):
        """The library's dtype object for ``name`` (the sample's dtype by default)."""
        return getattr(self.lib, name or self.dtype)

    def _from_numpy(self, data: np.ndarray):
        if data.dtype.name == "bfloat16":  # (PyTorch's from_numpy refuses ml_dtypes' bfloat16)
            return self.lib.from_numpy(data.astype(np.float32)).to(self.lib.bfloat16)
        return self.lib.from_numpy(data.copy())

    def _tensor(self, data: np.ndarray, shape: tuple, layout: str, grad: bool):
        t = layout_view(self._from_numpy(data), shape, layout)
        if grad and self.requires_grad and data.dtype.kind in "fc":
            t = t.detach().requires_grad_()
        return t

    def t(self, shape=S, dtype: str | None = None, *, layout: str | None = None, low=None,
          high=None, special: bool = False, grad: bool = True, keep_shape: bool = False):
        """A tensor of ``shape`` (turned by the layout unless ``keep_shape``) and ``dtype``,
        in the sample's layout (or ``layout``)."""
        layout = layout or self.layout
        shape = tuple(shape) if keep_shape else layout_shape(tuple(shape), layout)
        strided = layout if layout in STRIDED_LAYOUTS else "contig"
        dtype = dtype or self.dtype
        # (complex infinities and NaNs follow each library's own C99 rules: reals only)
        special = special and dtype not in COMPLEX_DTYPES
        data = random_data(base_shape(shape, strided), dtype, self._rng(), special, low, high)
        return self._tensor(data, shape, strided, grad)

    def data(self, array, dtype: str | None = None):
        """A contiguous tensor holding ``array`` (a nested list or NumPy array)."""
        self._n += 1
        with np.errstate(all="ignore"):
            data = np.ascontiguousarray(np.asarray(array).astype(_np_dtype(dtype or self.dtype)))
        return self._tensor(data, data.shape, "contig", grad=True)

    def idx(self, shape, high: int, low: int = 0):
        """An int64 index tensor (contiguous) with values in ``[low, high)``."""
        data = self._rng().integers(low, max(high, low + 1), size=tuple(shape)).astype(np.int64)
        return self.lib.from_numpy(data)

    def perm_idx(self, n: int, k: int | None = None):
        """``k`` distinct int64 indices below ``n`` (as index_copy/put need)."""
        data = self._rng().permutation(n)[:n if k is None else k].astype(np.int64)
        return self.lib.from_numpy(data)

    def mask(self, shape=S, keep_shape: bool = False):
        """A bool tensor of ``shape`` (turned by the layout unless ``keep_shape``)."""
        return self.t(shape, "bool", layout="contig", keep_shape=keep_shape)

    def _matrix_shape(self, core: tuple) -> tuple:
        # the layouts for matrices: ``expand`` adds a stride-0 batch dim (an expanded matrix
        # dim would be singular), ``empty`` a size-0 batch dim
        if self.layout == "0d":
            return ()
        if self.layout == "empty":
            return (0,) + core
        if self.layout == "expand":
            return (2,) + core
        return core

    def _place(self, a: np.ndarray):
        """A tensor holding ``a`` in the sample's layout (``expand``: ``a`` must repeat along
        its first dim)."""
        layout = self.layout if self.layout in STRIDED_LAYOUTS and a.ndim else "contig"
        base = np.zeros(base_shape(a.shape, layout), dtype=a.dtype)
        if layout == "t":
            base.transpose(*reversed(range(a.ndim)))[...] = a
        elif layout == "step":
            base[..., ::2] = a
        elif layout == "offset":
            base[1:a.shape[0] + 1] = a
        elif layout == "expand":
            base[...] = a[:1]
        else:
            base[...] = a
        return self._tensor(base, a.shape, layout, True)

    def _matrix(self, make, n: int, batch: tuple, dtype: str | None):
        dtype = dtype or self.dtype
        shape = self._matrix_shape(batch + (n, n))
        core = shape[1:] if self.layout == "expand" else shape
        rng = self._rng()
        a = make(rng, core, n) if len(core) >= 2 else rng.uniform(-1, 1, size=core)
        return self._place(_cast(np.broadcast_to(a, shape), dtype))

    def mat(self, n: int = 3, batch: tuple = (), dtype: str | None = None):
        """A well-conditioned square matrix (random plus ``n`` times the identity)."""
        cplx = (dtype or self.dtype) in COMPLEX_DTYPES

        def make(rng, core, n):
            a = rng.uniform(-1, 1, size=core) + n * np.eye(n)
            return a + 0.3j * rng.uniform(-1, 1, size=core) if cplx else a
        return self._matrix(make, n, batch, dtype)

    def spd(self, n: int = 3, batch: tuple = (), dtype: str | None = None):
        """A symmetric (Hermitian) positive-definite matrix."""
        cplx = (dtype or self.dtype) in COMPLEX_DTYPES

        def make(rng, core, n):
            a = rng.uniform(-1, 1, size=core)
            if cplx:
                a = a + 0.3j * rng.uniform(-1, 1, size=core)
            return a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)
        return self._matrix(make, n, batch, dtype)

    def generator(self):
        """A random-number generator of ``lib`` seeded from the sample's seed (random ops are
        compared in shape, dtype and layout only: the libraries draw differently)."""
        return self.lib.Generator().manual_seed(1000 + self.seed)

    def tri(self, n: int = 3, upper: bool = True, dtype: str | None = None):
        """A well-conditioned triangular matrix."""
        def make(rng, core, n):
            return (np.triu if upper else np.tril)(rng.uniform(-1, 1, size=core)) + n * np.eye(n)
        return self._matrix(make, n, (), dtype)


def _np_dtype(dtype: str):
    return np.dtype("bool" if dtype == "bool" else dtype)


def _cast(a: np.ndarray, dtype: str) -> np.ndarray:
    if dtype not in COMPLEX_DTYPES:
        a = a.real
    if dtype in INT_DTYPES or dtype == "bool":
        a = np.round(a)
    with np.errstate(all="ignore"):
        return np.ascontiguousarray(a.astype(_np_dtype(dtype)))


# ---------------------------------------------------------------- entries
@dataclass
class Entry:
    """One op of the inventory.

    ``name``: the key (``add``, ``linalg.norm``, ``view``); ``namespace``: ``torch``,
    ``linalg``, ``fft``, ``special`` or ``Tensor`` (a method without a module-level
    function); ``gen(m)`` yields ``(args, kwargs)`` built with a ``Maker``; ``compare``:
    ``values`` (everything), ``meta`` (shape, dtype, strides only: random and uninitialised
    results, sign-ambiguous decompositions); ``dtypes`` swept (PyTorch decides which it
    takes); ``layout_dtype`` the dtype the layouts are swept in; ``rtol``/``atol`` override
    the dtype's tolerance; ``method_only`` entries have no ``torch.<name>``.
    """

    name: str
    gen: Callable[[Maker], Iterator]
    category: str
    compare: str = "values"
    dtypes: tuple = ALL_DTYPES
    layout_dtype: str = "float32"
    layouts: tuple = LAYOUTS
    rtol: float | None = None
    atol: float | None = None
    note: str = ""
    meta: dict = field(default_factory=dict)

    @property
    def namespace(self) -> str:
        if "." in self.name:
            return self.name.split(".")[0]
        return "Tensor" if self.meta.get("method_only") else "torch"

    @property
    def pyname(self) -> str:
        return self.name.rpartition(".")[2]


@dataclass
class Sample:
    """One sample program of an op: ``build(lib)`` gives ``(args, kwargs)`` for ``lib``."""

    entry: Entry
    index: int
    dtype: str
    layout: str
    seed: int
    requires_grad: bool = False

    def build(self, lib) -> tuple[tuple, dict]:
        m = Maker(lib, self.dtype, self.layout, self.seed, self.requires_grad)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            args, kwargs = next(itertools.islice(self.entry.gen(m), self.index, None))
        return tuple(args), dict(kwargs)

    __call__ = build  # (``args, kwargs = sample(torch)``)

    def __repr__(self) -> str:
        return f"<sample {self.entry.name}#{self.index} {self.dtype} {self.layout}>"


ENTRIES: dict[str, Entry] = {}


def _add(names, gen, category, **kw):
    meta = kw.pop("meta", {})
    for n in names.split() if isinstance(names, str) else names:
        if n in ENTRIES:
            raise ValueError(f"inventory entry {n!r} twice")
        ENTRIES[n] = Entry(n, gen, category, meta=dict(meta), **kw)


# ---------------------------------------------------------------- generators by category
def unary(m):
    yield (m.t(),), {}
    yield (m.t((5,), special=True),), {}


def unary_positive(m):
    yield (m.t(low=0.1, high=3),), {}
    yield (m.t((5,)),), {}


def unary_unit(m):
    yield (m.t(low=-0.9, high=0.9),), {}
    yield (m.t((5,), special=True),), {}


def binary(m):
    yield (m.t(), m.t()), {}
    yield (m.t(), m.t((4,))), {}
    yield (m.t(), 2), {}
    yield (m.t((5,)), m.t((5,), low=1, high=3)), {}


def binary_float_scalar(m):
    yield from binary(m)
    yield (m.t(), 1.5), {}


def int_binary(m):
    yield (m.t(low=0, high=5), m.t(low=0, high=5)), {}
    yield (m.t(low=0, high=5), m.t((4,), low=1, high=3)), {}
    yield (m.t(low=0, high=7), 2), {}


def alpha_binary(m):
    yield from binary(m)
    yield (m.t(), m.t()), {"alpha": 2}


def div_gen(m):
    yield (m.t(), m.t(low=1, high=4)), {}
    yield (m.t(), m.t((4,), low=1, high=4)), {"rounding_mode": "floor"}
    yield (m.t(), 3), {"rounding_mode": "trunc"}
    yield (m.t(), m.t()), {}


def ternary_pointwise(m):
    yield (m.t(), m.t(), m.t(low=1, high=3)), {}
    yield (m.t(), m.t((4,)), m.t((3, 1), low=1, high=3)), {"value": 2}


def lerp_gen(m):
    yield (m.t(), m.t(), 0.3), {}
    yield (m.t(), m.t((4,)), m.t()), {}


def where_gen(m):
    yield (m.mask(), m.t(), m.t()), {}
    yield (m.mask(), m.t(), 2), {}


def clamp_gen(m):
    yield (m.t(), -1, 2), {}
    yield (m.t(),), {"min": m.t((4,)), "max": m.t((4,), low=2, high=5)}
    yield (m.t(), None, 1), {}


def clamp_one(m):
    yield (m.t(), 1), {}
    yield (m.t(), m.t((4,))), {}


def isclose_gen(m):
    a = m.t()
    yield (a, a), {}
    yield (m.t(), m.t()), {"rtol": 0.5, "atol": 1.0}


def polygamma_gen(m):
    yield (1, m.t(low=0.2, high=3)), {}
    yield (0, m.t((5,))), {}


def mvlgamma_gen(m):
    yield (m.t(low=2.5, high=5), 2), {}


def nan_to_num_gen(m):
    yield (m.t(special=True),), {}
    yield (m.t((5,), special=True),), {"nan": 1.0, "posinf": 9.0, "neginf": -9.0}


def round_gen(m):
    yield (m.t(),), {}
    yield (m.t((5,)),), {"decimals": 1}


def logit_gen(m):
    yield (m.t(low=0.05, high=0.95),), {}
    yield (m.t((5,)),), {"eps": 0.1}


def float_power_gen(m):
    yield (m.t(low=0.5, high=3), m.t(low=-2, high=2)), {}
    yield (m.t(low=0.5, high=3), 2), {}


def pow_gen(m):
    yield (m.t(low=0, high=3), m.t(low=0, high=3)), {}
    yield (m.t(), 2), {}
    yield (m.t(low=0.5, high=3), m.t((4,), low=-2, high=2)), {}
    yield (2, m.t(low=0, high=3)), {}


def ldexp_gen(m):
    yield (m.t(), m.t(dtype="int64", low=-3, high=4)), {}


def scalar_result(m):  # ops on one tensor returning Python values / bools
    yield (m.t(),), {}


# reductions
def reduce_gen(m):
    yield (m.t(),), {}
    yield (m.t(), 1), {}
    yield (m.t(),), {"dim": 0, "keepdim": True}
    yield (m.t((2, 3, 4)),), {"dim": (0, 2)}


def reduce_dtype_gen(m):
    yield from reduce_gen(m)
    yield (m.t(),), {"dim": 1, "dtype": m.dt("float64")}


def reduce_single_dim(m):  # dim must be an int
    yield (m.t(),), {}
    yield (m.t(), 1), {}
    yield (m.t(),), {"dim": 0, "keepdim": True}


def values_indices_gen(m):  # max/min/median/...: whole, then (values, indices) along a dim
    yield (m.t(),), {}
    yield (m.t(), 1), {}
    yield (m.t(),), {"dim": 0, "keepdim": True}


def maxmin_gen(m):
    yield from values_indices_gen(m)
    yield (m.t(), m.t()), {}


def var_gen(m):
    yield (m.t(),), {}
    yield (m.t(), 1), {}
    yield (m.t(),), {"dim": 0, "keepdim": True, "correction": 0}
    yield (m.t((2, 3, 4)),), {"dim": (0, 2), "unbiased": False}


def aminmax_gen(m):
    yield (m.t(),), {}
    yield (m.t(),), {"dim": 1, "keepdim": True}


def argmax_gen(m):
    yield (m.t(),), {}
    yield (m.t(),), {"dim": 1}
    yield (m.t(),), {"dim": 0, "keepdim": True}


def count_nonzero_gen(m):
    yield (m.t(),), {}
    yield (m.t(),), {"dim": 1}


def logsumexp_gen(m):
    yield (m.t(), 1), {}
    yield (m.t(), (0, 1)), {"keepdim": True}


def norm_gen(m):
    yield (m.t(),), {}
    yield (m.t(),), {"p": 1, "dim": 1}
    yield (m.t(),), {"p": "fro", "dim": (0, 1), "keepdim": True}


def kthvalue_gen(m):
    yield (m.t(), 2), {}
    yield (m.t(), 1, 0), {"keepdim": True}


def quantile_gen(m):
    yield (m.t(), 0.3), {}
    yield (m.t(), m.data([0.25, 0.5])), {"dim": 1, "keepdim": True}
    yield (m.t(), 0.5), {"dim": 0, "interpolation": "nearest"}


def sort_gen(m):
    yield (m.t(),), {}
    yield (m.t(), 0), {}
    yield (m.t(),), {"dim": 1, "descending": True, "stable": True}


def argsort_gen(m):
    yield (m.t(),), {"stable": True}
    yield (m.t(), 0), {"descending": True, "stable": True}


def msort_gen(m):
    yield (m.t(),), {}


def topk_gen(m):
    yield (m.t(), 2), {}
    yield (m.t(), 2, 0), {"largest": False}


def softmax_gen(m):
    yield (m.t(), 1), {}
    yield (m.t(), 0), {"dtype": m.dt("float64")}


def scan_gen(m):
    yield (m.t(), 1), {}
    yield (m.t((5,)), 0), {}


def scan_dtype_gen(m):
    yield from scan_gen(m)
    yield (m.t(), 0), {"dtype": m.dt("float64")}


def std_mean_gen(m):
    yield (m.t(),), {}
    yield (m.t(), 1), {"keepdim": True}


def dist_gen(m):
    yield (m.t(), m.t()), {}
    yield (m.t(), m.t((4,))), {"p": 1}


def renorm_gen(m):
    yield (m.t(), 2, 0, 1.0), {}


def histc_gen(m):
    yield (m.t(),), {"bins": 4, "min": -2, "max": 2}
    yield (m.t((6,)),), {}


def histogram_gen(m):
    yield (m.t((6,)), 4), {}
    yield (m.t((6,)),), {"bins": m.data([-4.0, -1.0, 0.0, 2.0, 4.0]), "density": True}


def bincount_gen(m):
    yield (m.idx((8,), 5),), {}
    yield (m.idx((8,), 5),), {"weights": m.t((8,), keep_shape=True), "minlength": 7}


def diff_gen(m):
    yield (m.t(),), {}
    yield (m.t(),), {"n": 2, "dim": 0}
    yield (m.t(),), {"prepend": m.t((3, 1))}


def gradient_gen(m):
    yield (m.t(),), {}
    yield (m.t(),), {"spacing": 2.0, "dim": 1}


def trapezoid_gen(m):
    yield (m.t(),), {}
    yield (m.t(),), {"dx": 0.5, "dim": 0}
    yield (m.t(), m.t((4,))), {}


def cov_gen(m):
    yield (m.t(),), {}
    yield (m.t(),), {"correction": 0}


# views and shape
def view_gen(m):
    yield (m.t(), (4, 3)), {}
    yield (m.t(), -1), {}
    yield (m.t(), m.dt("float32")), {}


def view_as_gen(m):
    yield (m.t(), m.t((2, 6))), {}


def reshape_gen(m):
    yield (m.t(), (4, 3)), {}
    yield (m.t(), (-1,)), {}
    yield (m.t((2, 3, 4)), (6, -1)), {}


def flatten_gen(m):
    yield (m.t((2, 3, 4)),), {}
    yield (m.t((2, 3, 4)), 1), {}
    yield (m.t((2, 3, 4)),), {"start_dim": 0, "end_dim": 1}


def unflatten_gen(m):
    yield (m.t(), 1, (2, 2)), {}
    yield (m.t(), 0, (3, -1)), {}


def squeeze_gen(m):
    yield (m.t((3, 1, 4)),), {}
    yield (m.t((3, 1, 4)), 1), {}
    yield (m.t((1, 3, 1)), (0, 2)), {}


def unsqueeze_gen(m):
    yield (m.t(), 1), {}
    yield (m.t(), -1), {}


def permute_gen(m):
    yield (m.t((2, 3, 4)), (2, 0, 1)), {}
    yield (m.t(), (1, 0)), {}


def transpose_gen(m):
    yield (m.t(), 0, 1), {}
    yield (m.t((2, 3, 4)), -1, 0), {}


def t_gen(m):
    yield (m.t(),), {}
    yield (m.t((5,)),), {}


def movedim_gen(m):
    yield (m.t((2, 3, 4)), 0, 2), {}
    yield (m.t((2, 3, 4)), (0, 1), (2, 0)), {}


def narrow_gen(m):
    yield (m.t(), 1, 1, 2), {}
    yield (m.t(), 0, -2, 2), {}


def select_gen(m):
    yield (m.t(), 1, 2), {}
    yield (m.t(), 0, -1), {}


def expand_gen(m):
    yield (m.t((3, 1)), 3, 4), {}
    yield (m.t((3, 1)), (2, 3, 5)), {}
    yield (m.t((4,)), -1), {}


def expand_as_gen(m):
    yield (m.t((3, 1)), m.t((2, 3, 4))), {}


def broadcast_to_gen(m):
    yield (m.t((3, 1)), (2, 3, 4)), {}


def diagonal_gen(m):
    yield (m.t(),), {}
    yield (m.t((2, 3, 4)),), {"offset": 1, "dim1": 2, "dim2": 0}


def unfold_gen(m):
    yield (m.t(), 1, 2, 1), {}
    yield (m.t(), 0, 2, 2), {}


def as_strided_gen(m):
    yield (m.t(), (2, 2), (1, 2)), {}
    yield (m.t(), (3,), (2,), 1), {}


def split_gen(m):
    yield (m.t(), 2), {}
    yield (m.t(), [1, 3], 1), {}


def chunk_gen(m):
    yield (m.t(), 2), {}
    yield (m.t(), 3, 1), {}


def tensor_split_gen(m):
    yield (m.t(), 2), {}
    yield (m.t(), [1, 3], 1), {}


def hvd_split_gen(m):
    yield (m.t((2, 4, 4)), 2), {}
    yield (m.t((2, 4, 4)), [1, 3]), {}


def unbind_gen(m):
    yield (m.t(),), {}
    yield (m.t(), 1), {}


def split_with_sizes_gen(m):
    yield (m.t(), [1, 2]), {}
    yield (m.t(), [1, 3], 1), {}


def view_as_real_gen(m):
    yield (m.t(),), {}


def view_as_complex_gen(m):
    yield (m.t((3, 2)),), {}
    yield (m.t((2, 3, 2)),), {}


def roll_gen(m):
    yield (m.t(), 1), {}
    yield (m.t(), (1, -1), (0, 1)), {}


def flip_gen(m):
    yield (m.t(), (0,)), {}
    yield (m.t((2, 3, 4)), (0, 2)), {}


def one_tensor_2d(m):
    yield (m.t(),), {}
    yield (m.t((2, 3, 4)),), {}


def rot90_gen(m):
    yield (m.t(),), {}
    yield (m.t(), 3, (1, 0)), {}


def tril_gen(m):
    yield (m.t(),), {}
    yield (m.t(), 1), {}
    yield (m.t((2, 3, 4)), -1), {}


def diag_gen(m):
    yield (m.t(),), {}
    yield (m.t((4,)), 1), {}


def diagflat_gen(m):
    yield (m.t((4,)),), {}
    yield (m.t((2, 2)), -1), {}


def diag_embed_gen(m):
    yield (m.t(),), {}
    yield (m.t(), 1, 0, 2), {}


def tile_gen(m):
    yield (m.t(), (2, 1)), {}
    yield (m.t(), (2,)), {}


def repeat_gen(m):
    yield (m.t(), 2, 1), {}
    yield (m.t(), (2, 1, 2)), {}


def repeat_interleave_gen(m):
    yield (m.t(), 2), {}
    yield (m.t(), m.data([1, 0, 2], "int64")), {"dim": 0}


# joining
def cat_gen(m):
    yield ([m.t(), m.t((2, 4))],), {}
    yield ([m.t(), m.t((3, 2))], 1), {}
    yield ((m.t(), m.t(dtype="float64")),), {"dim": -1}


def stack_gen(m):
    yield ([m.t(), m.t()],), {}
    yield ((m.t(), m.t()), 2), {}


def hstack_gen(m):
    yield ([m.t(), m.t()],), {}
    yield ([m.t((4,)), m.t((4,))],), {}


def atleast_gen(m):
    yield (m.t(),), {}
    yield (m.t((4,)),), {}


def block_diag_gen(m):
    yield (m.t(), m.t((2, 2))), {}


def cartesian_prod_gen(m):
    yield (m.t((3,)), m.t((2,))), {}


def broadcast_tensors_gen(m):
    yield (m.t(), m.t((4,))), {}


def meshgrid_gen(m):
    yield (m.t((3,)), m.t((2,))), {"indexing": "ij"}
    yield (m.t((3,)), m.t((2,))), {"indexing": "xy"}


def combinations_gen(m):
    yield (m.t((4,)),), {}
    yield (m.t((3,)),), {"r": 3, "with_replacement": True}


def kron_gen(m):
    yield (m.t((2, 2)), m.t((2, 3))), {}


def vander_gen(m):
    yield (m.t((4,)),), {}
    yield (m.t((3,)),), {"N": 4, "increasing": True}


# indexing
def gather_gen(m):
    yield (m.t(), 1, m.idx((3, 2), 4)), {}
    yield (m.t(), 0, m.idx((2, 4), 3)), {}


def scatter_gen(m):
    yield (m.t(), 1, m.idx((3, 2), 4), m.t((3, 2))), {}
    yield (m.t(), 0, m.idx((2, 4), 3), 1.5), {}
    yield (m.t(), 1, m.idx((3, 2), 4), m.t((3, 2))), {"reduce": "add"}


def scatter_add_gen(m):
    yield (m.t(), 1, m.idx((3, 2), 4), m.t((3, 2))), {}


def scatter_reduce_gen(m):
    yield (m.t(), 1, m.idx((3, 2), 4), m.t((3, 2)), "sum"), {}
    yield (m.t(), 0, m.idx((2, 4), 3), m.t((2, 4)), "amax"), {"include_self": False}
    yield (m.t(), 1, m.idx((3, 2), 4), m.t((3, 2)), "mean"), {}


def index_select_gen(m):
    yield (m.t(), 0, m.idx((5,), 3)), {}
    yield (m.t(), 1, m.idx((2,), 4)), {}


def index_add_gen(m):
    yield (m.t(), 0, m.idx((5,), 3), m.t((5, 4))), {}
    yield (m.t(), 1, m.idx((2,), 4), m.t((3, 2))), {"alpha": 2}


def index_copy_gen(m):
    yield (m.t(), 0, m.perm_idx(3, 2), m.t((2, 4))), {}


def index_fill_gen(m):
    yield (m.t(), 1, m.idx((2,), 4), -1), {}


def index_reduce_gen(m):
    yield (m.t(), 0, m.idx((5,), 3), m.t((5, 4)), "prod"), {}
    yield (m.t(), 1, m.idx((3,), 4), m.t((3, 3)), "amin"), {"include_self": False}


def index_put_gen(m):
    yield (m.t(), (m.perm_idx(3, 2),), m.t((2, 4))), {}
    yield (m.t(), (m.idx((5,), 3), m.idx((5,), 4)), m.t((5,))), {"accumulate": True}


def take_gen(m):
    yield (m.t(), m.idx((2, 3), 12)), {}


def take_along_dim_gen(m):
    yield (m.t(), m.idx((3, 2), 4)), {"dim": 1}
    yield (m.t(), m.idx((6,), 12)), {}


def put_gen(m):
    yield (m.t(), m.perm_idx(12, 4), m.t((4,))), {}
    yield (m.t(), m.idx((5,), 12), m.t((5,))), {"accumulate": True}


def masked_fill_gen(m):
    yield (m.t(), m.mask(), 2), {}
    yield (m.t(), m.mask((4,)), m.data(1.5, "float64")), {}


def masked_scatter_gen(m):
    yield (m.t(), m.mask(), m.t((12,), keep_shape=True)), {}


def masked_select_gen(m):
    yield (m.t(), m.mask()), {}
    yield (m.t(), m.mask((4,))), {}


def nonzero_gen(m):
    yield (m.t(),), {}
    yield (m.t((5,)),), {"as_tuple": True}


def argwhere_gen(m):
    yield (m.t(),), {}


def searchsorted_gen(m):
    yield (m.data(np.arange(6) * 1.5 - 3), m.t()), {}
    yield (m.data(np.arange(6) * 1.5 - 3), m.t()), {"right": True}
    yield (m.data(np.arange(6) - 3), 1), {}


def bucketize_gen(m):
    yield (m.t(), m.data(np.arange(6) * 1.5 - 3)), {}
    yield (m.t(), m.data(np.arange(6) * 1.5 - 3)), {"right": True, "out_int32": True}


def unique_gen(m):
    yield (m.t(low=0, high=4),), {}
    yield (m.t(low=0, high=4),), {"return_inverse": True, "return_counts": True}
    yield (m.t(low=0, high=4),), {"dim": 0}


def unique_consecutive_gen(m):
    yield (m.t((8,), low=0, high=3),), {}
    yield (m.t((8,), low=0, high=3),), {"return_inverse": True, "return_counts": True}


def isin_gen(m):
    yield (m.t(low=0, high=5), m.t((4,), low=0, high=5)), {}
    yield (m.t(low=0, high=5), 2), {"invert": True}


# linalg
def mm_gen(m):
    yield (m.t((3, 4)), m.t((4, 2))), {}


def bmm_gen(m):
    yield (m.t((2, 3, 4)), m.t((2, 4, 2))), {}


def matmul_gen(m):
    yield (m.t((3, 4)), m.t((4, 2))), {}
    yield (m.t((2, 3, 4)), m.t((4,))), {}
    yield (m.t((4,)), m.t((4,))), {}


def mv_gen(m):
    yield (m.t((3, 4)), m.t((4,))), {}


def vec2_gen(m):
    yield (m.t((4,)), m.t((4,))), {}


def outer_gen(m):
    yield (m.t((3,)), m.t((4,))), {}


def inner_gen(m):
    yield (m.t((3, 4)), m.t((2, 4))), {}
    yield (m.t((4,)), m.t((4,))), {}


def addmm_gen(m):
    yield (m.t((3, 2)), m.t((3, 4)), m.t((4, 2))), {}
    yield (m.t((2,)), m.t((3, 4)), m.t((4, 2))), {"beta": 0.5, "alpha": 2}


def addmv_gen(m):
    yield (m.t((3,)), m.t((3, 4)), m.t((4,))), {}


def addr_gen(m):
    yield (m.t((3, 4)), m.t((3,)), m.t((4,))), {}


def addbmm_gen(m):
    yield (m.t((3, 2)), m.t((2, 3, 4)), m.t((2, 4, 2))), {}


def baddbmm_gen(m):
    yield (m.t((2, 3, 2)), m.t((2, 3, 4)), m.t((2, 4, 2))), {"alpha": 0.5}


def chain_matmul_gen(m):
    yield (m.t((3, 4)), m.t((4, 2)), m.t((2, 2))), {}


def multi_dot_gen(m):
    yield ([m.t((3, 4)), m.t((4, 2)), m.t((2, 2))],), {}


def tensordot_gen(m):
    yield (m.t((2, 3, 4)), m.t((4, 3))), {"dims": ([1, 2], [1, 0])}
    yield (m.t((3, 4)), m.t((4, 2))), {"dims": 1}


def einsum_gen(m):
    yield ("ij,jk->ik", m.t((3, 4)), m.t((4, 2))), {}
    yield ("ii", m.t((3, 3))), {}


def cross_gen(m):
    yield (m.t((4, 3)), m.t((4, 3))), {"dim": 1}


def lcross_gen(m):
    yield (m.t((4, 3)), m.t((4, 3))), {}
    yield (m.t((3, 4)), m.t((3, 1))), {"dim": 0}


def square_gen(m):
    yield (m.mat(3),), {}
    yield (m.mat(2, (2,)),), {}


def spd_gen(m):
    yield (m.spd(3),), {}
    yield (m.spd(2, (2,)),), {}


def cholesky_solve_gen(m):
    yield (m.t((3, 2)), m.tri(3, upper=False)), {}


def solve_gen(m):
    yield (m.mat(3), m.t((3, 2))), {}
    yield (m.mat(3), m.t((3,))), {}


def triangular_solve_gen(m):
    yield (m.t((3, 2)), m.tri(3)), {}
    yield (m.t((3, 2)), m.tri(3, upper=False)), {"upper": False}


def solve_triangular_gen(m):
    yield (m.tri(3), m.t((3, 2))), {"upper": True}
    yield (m.tri(3, upper=False), m.t((2, 3))), {"upper": False, "left": False}


def matrix_power_gen(m):
    yield (m.mat(3), 3), {}
    yield (m.mat(3), -2), {}


def lstsq_gen(m):
    yield (m.t((4, 3)), m.t((4, 2))), {}


def matrix_norm_gen(m):
    yield (m.t(),), {}
    yield (m.t(),), {"ord": 1}
    yield (m.mat(3),), {"ord": 2, "keepdim": True}


def vector_norm_gen(m):
    yield (m.t(),), {}
    yield (m.t(),), {"ord": 1, "dim": 1}
    yield (m.t(),), {"ord": float("inf"), "keepdim": True}


def lnorm_gen(m):
    yield (m.t(),), {}
    yield (m.t((4,)),), {"ord": 3}
    yield (m.t(),), {"ord": "nuc"}


def cond_gen(m):
    yield (m.mat(3),), {}
    yield (m.mat(3),), {"p": "fro"}


def matrix_rank_gen(m):
    yield (m.mat(3),), {}
    yield (m.t((3, 4)),), {"hermitian": False}


def pinv_gen(m):
    yield (m.t((3, 4)),), {}


def tensorinv_gen(m):
    yield (m.mat(4).reshape(4, 2, 2),), {"ind": 1}


def tensorsolve_gen(m):
    yield (m.mat(6).reshape(2, 3, 6), m.t((2, 3))), {}


def vecdot_gen(m):
    yield (m.t(), m.t()), {}
    yield (m.t(), m.t((4,))), {"dim": -1}


def lvander_gen(m):
    yield (m.t((4,)),), {}
    yield (m.t((4,)),), {"N": 3}


def cdist_gen(m):
    yield (m.t((3, 4)), m.t((2, 4))), {}
    yield (m.t((3, 4)), m.t((2, 4))), {"p": 1}


def ldiagonal_gen(m):
    yield (m.t(),), {}
    yield (m.t((2, 3, 4)),), {"offset": 1}


def qr_gen(m):
    yield (m.t((4, 3)),), {}


def svd_gen(m):
    yield (m.t((4, 3)),), {}


def eig_gen(m):
    yield (m.mat(3),), {}


# fft
def fft_gen(m):
    yield (m.t((8,)),), {}
    yield (m.t(), 6), {}
    yield (m.t(),), {"dim": 0, "norm": "ortho"}


def ifft_r_gen(m):  # irfft/hfft take half spectra
    yield (m.t((5,)),), {}
    yield (m.t(),), {"n": 6, "dim": 0, "norm": "forward"}


def fft2_gen(m):
    yield (m.t(),), {}
    yield (m.t((2, 3, 4)),), {"s": (4, 4), "norm": "ortho"}


def fftn_gen(m):
    yield (m.t(),), {}
    yield (m.t((2, 3, 4)),), {"dim": (0, 2)}


def fftshift_gen(m):
    yield (m.t(),), {}
    yield (m.t(),), {"dim": 1}


def fftfreq_gen(m):
    yield (5,), {}
    yield (6, 0.5), {"dtype": m.dt()}


def stft_gen(m):
    yield (m.t((16,)), 8), {"return_complex": True, "window": m.data(np.hanning(8) + 0.01)}


def istft_gen(m):
    z = np.fft.rfft(np.random.default_rng(m.seed).normal(size=(5, 8)), axis=1).T
    yield (m.data(z, "complex128" if m.dtype == "float64" else m.dtype), 8), {
        "window": m.data(np.hanning(8) + 0.5, "float64" if m.dtype == "complex128"
                         else "float32" if m.dtype == "complex64" else m.dtype)}


# creation and random
def creation_size_gen(m):
    yield ((2, 3),), {"dtype": m.dt()}
    yield (3,), {"dtype": m.dt()}
    yield ((0, 2),), {"dtype": m.dt()}


def full_gen(m):
    yield ((2, 3), 2), {"dtype": m.dt()}
    yield ((3,), 1.5), {}


def like_gen(m):
    yield (m.t(),), {}
    yield (m.t(),), {"dtype": m.dt("float64")}


def full_like_gen(m):
    yield (m.t(), 2), {}


def arange_gen(m):
    yield (5,), {"dtype": m.dt()}
    yield (1, 7, 2), {"dtype": m.dt()}
    yield (0.5, 3.0, 0.5), {}


def linspace_gen(m):
    yield (0, 5, 6), {"dtype": m.dt()}
    yield (-1.0, 1.0, 5), {}


def eye_gen(m):
    yield (3,), {"dtype": m.dt()}
    yield (2, 4), {"dtype": m.dt()}


def tensor_gen(m):
    yield ([[1, 2], [3, 4]],), {"dtype": m.dt()}
    yield ([1.5, -2.0],), {}
    yield (m.t(),), {}


def from_numpy_gen(m):
    yield (random_data(S, m.dtype, np.random.default_rng(m.seed)),), {}


def empty_strided_gen(m):
    yield ((2, 3), (1, 2)), {"dtype": m.dt()}


def window_gen(m):
    yield (5,), {}
    yield (6,), {"periodic": False, "dtype": m.dt()}


def tri_indices_gen(m):
    yield (3, 4), {}
    yield (4, 3, 1), {}


def scalar_tensor_gen(m):
    yield (1.5,), {"dtype": m.dt()}


def complex_gen(m):
    yield (m.t(), m.t()), {}


def polar_gen(m):
    yield (m.t(low=0, high=2), m.t()), {}


def rand_gen(m):
    yield ((2, 3),), {"dtype": m.dt()}
    yield (4,), {"generator": m.generator()}


def randint_gen(m):
    yield (5, (2, 3)), {"dtype": m.dt()}
    yield (1, 4, (3,)), {"generator": m.generator()}


def randperm_gen(m):
    yield (5,), {"dtype": m.dt()}
    yield (4,), {"generator": m.generator()}


def randint_like_gen(m):
    yield (m.t(), 5), {}


def normal_gen(m):
    yield (m.t(), m.t(low=0.5, high=2)), {}
    yield (0.0, 1.0, (2, 3)), {"generator": m.generator()}


def bernoulli_gen(m):
    yield (m.t(low=0, high=1),), {}
    yield (m.t(low=0, high=1),), {"generator": m.generator()}


def multinomial_gen(m):
    yield (m.t(low=0.1, high=1), 2), {}
    yield (m.t((5,), low=0.1, high=1), 8), {"replacement": True, "generator": m.generator()}


def poisson_gen(m):
    yield (m.t(low=0, high=3),), {}
    yield (m.t(low=0, high=3),), {"generator": m.generator()}


def random_method_gen(m):  # Tensor.uniform_ and friends
    yield (m.t(),), {}
    yield (m.t(),), {"generator": m.generator()}


def random_2_gen(m):
    yield (m.t(), 1.0, 2.0), {}


def random_int_gen(m):
    yield (m.t(), 0, 5), {}
    yield (m.t(), 3), {}


def geometric_gen(m):
    yield (m.t(), 0.5), {}


# Tensor-only methods and the rest
def to_gen(m):
    yield (m.t(), m.dt("float64")), {}
    yield (m.t(), "cpu"), {}
    yield (m.t(),), {"dtype": m.dt("int32"), "copy": True}


def type_gen(m):
    yield (m.t(),), {}
    yield (m.t(), m.dt("float64")), {}


def type_as_gen(m):
    yield (m.t(), m.t(dtype="float64")), {}


def copy_gen(m):
    yield (m.t(), m.t()), {}
    yield (m.t(), m.t((4,), dtype="float64")), {}


def fill_gen(m):
    yield (m.t(), 2), {}
    yield (m.t(), m.data(1.5, "float64")), {}


def fill_diagonal_gen(m):
    yield (m.t((3, 3)), 2), {}
    yield (m.t((5, 2)), 1), {"wrap": True}


def resize_gen(m):
    yield (m.t(), (2, 3)), {}
    yield (m.t(), 20), {}


def resize_as_gen(m):
    yield (m.t(), m.t((2, 2))), {}


def set_gen(m):
    yield (m.t(), m.t((2, 5))), {}


def new_gen(m):
    yield (m.t(), (2, 3)), {}
    yield (m.t(), 3), {"dtype": m.dt("float64")}


def new_full_gen(m):
    yield (m.t(), (2, 3), 2), {}


def new_tensor_gen(m):
    yield (m.t(), [1, 2, 3]), {}


def new_empty_strided_gen(m):
    yield (m.t(), (2, 3), (1, 2)), {}


def is_same_size_gen(m):
    yield (m.t(), m.t()), {}
    yield (m.t(), m.t((4,))), {}


def dim_arg_gen(m):  # size(dim), stride(dim)
    yield (m.t(),), {}
    yield (m.t(), 1), {}


def item_gen(m):
    yield (m.t((1,)),), {}
    yield (m.t(),), {}


def requires_grad_gen(m):
    yield (m.t(),), {}
    yield (m.t(), False), {}


def frexp_gen(m):
    yield (m.t(special=True),), {}


def sum_to_size_gen(m):
    yield (m.t(), (1, 4)), {}


# ---------------------------------------------------------------- the table
U = "unary"
_add("""abs absolute neg negative positive sgn sign ceil floor trunc fix frac exp exp2 expm1
     sin cos tan sinh cosh tanh asinh arcsinh atan arctan sigmoid erf erfc square reciprocal
     deg2rad rad2deg angle isfinite isinf isnan isneginf isposinf isreal signbit logical_not
     bitwise_not conj conj_physical resolve_conj resolve_neg clone relu i0 sinc lgamma digamma
     special.erf special.erfc special.erfcx special.exp2 special.expm1 special.expit
     special.i0 special.i0e special.i1 special.i1e special.ndtr special.log_ndtr
     special.sinc special.gammaln special.digamma special.psi special.entr""", unary, U)
_add("log log2 log10 log1p sqrt rsqrt acosh arccosh special.log1p", unary_positive, U)
_add("asin arcsin acos arccos atanh arctanh erfinv special.erfinv special.ndtri", unary_unit, U)
_add("round special.round", round_gen, U)
_add("logit special.logit", logit_gen, U)
_add("nan_to_num", nan_to_num_gen, U)
_add("polygamma special.polygamma", polygamma_gen, U)
_add("mvlgamma special.multigammaln", mvlgamma_gen, U)
_add("frexp", frexp_gen, U, meta={"method_only": False})

B = "binary"
_add("""mul multiply true_divide remainder fmod atan2 arctan2 hypot copysign nextafter
     logaddexp logaddexp2 maximum minimum fmax fmin heaviside xlogy special.xlogy
     special.xlog1py special.zeta eq ne lt le gt ge greater greater_equal less less_equal
     not_equal logical_and logical_or logical_xor floor_divide""", binary_float_scalar, B)
_add("add sub subtract rsub", alpha_binary, B)
_add("div divide", div_gen, B)
_add("""bitwise_and bitwise_or bitwise_xor bitwise_left_shift bitwise_right_shift gcd lcm""",
     int_binary, B, layout_dtype="int64")
_add("pow", pow_gen, B)
_add("float_power", float_power_gen, B)
_add("ldexp", ldexp_gen, B)
_add("isclose", isclose_gen, B)
_add("equal allclose", isclose_gen, B)
_add("addcmul addcdiv", ternary_pointwise, B)
_add("lerp", lerp_gen, B)
_add("where", where_gen, B)
_add("clamp clip", clamp_gen, B)
_add("clamp_min clamp_max", clamp_one, B)
_add("complex", complex_gen, B, dtypes=("float16", "float32", "float64", "int64"))
_add("polar", polar_gen, B, dtypes=("float32", "float64", "int64"))

R = "reduction"
_add("sum nansum prod mean nanmean", reduce_dtype_gen, R)
_add("amax amin all any", reduce_gen, R)
_add("logsumexp special.logsumexp", logsumexp_gen, R)
_TIES = {"ties": True}  # (the index PyTorch picks among equal values is unspecified)
_add("max min", maxmin_gen, R, meta=_TIES)
_add("median nanmedian mode", values_indices_gen, R, meta=_TIES)
_add("std var", var_gen, R)
_add("std_mean var_mean", std_mean_gen, R)
_add("aminmax", aminmax_gen, R)
_add("argmax argmin", argmax_gen, R)
_add("count_nonzero", count_nonzero_gen, R)
_add("norm", norm_gen, R)
_add("kthvalue", kthvalue_gen, R, meta=_TIES)
_add("quantile nanquantile", quantile_gen, R)
_add("sort", sort_gen, R, meta=_TIES)
_add("argsort", argsort_gen, R)
_add("msort", msort_gen, R)
_add("topk", topk_gen, R, meta=_TIES)
_add("softmax log_softmax special.softmax special.log_softmax", softmax_gen, R)
_add("dist", dist_gen, R)
_add("renorm", renorm_gen, R)
_add("histc", histc_gen, R)
_add("histogram", histogram_gen, R)
_add("bincount", bincount_gen, R, dtypes=("int64",))
_add("diff", diff_gen, R)
_add("gradient", gradient_gen, R)
_add("trapezoid trapz cumulative_trapezoid", trapezoid_gen, R)
_add("cov corrcoef", cov_gen, R)
_add("trace", one_tensor_2d, R)

SC = "scan"
_add("cumsum cumprod", scan_dtype_gen, SC)
_add("cummax cummin logcumsumexp", scan_gen, SC)

V = "view"
_MO = {"method_only": True}
_add("view", view_gen, V, meta=_MO)
_add("view_as", view_as_gen, V, meta=_MO)
_add("reshape", reshape_gen, V)
_add("reshape_as", view_as_gen, V, meta=_MO)
_add("flatten ravel", flatten_gen, V)
_add("unflatten", unflatten_gen, V)
_add("squeeze", squeeze_gen, V)
_add("unsqueeze", unsqueeze_gen, V)
_add("permute", permute_gen, V)
_add("transpose swapaxes swapdims", transpose_gen, V)
_add("t adjoint", t_gen, V)
_add("movedim moveaxis", movedim_gen, V)
_add("narrow narrow_copy", narrow_gen, V)
_add("select", select_gen, V)
_add("expand", expand_gen, V, meta=_MO)
_add("expand_as", expand_as_gen, V, meta=_MO)
_add("broadcast_to", broadcast_to_gen, V)
_add("diagonal linalg.diagonal", ldiagonal_gen, V)
_add("unfold", unfold_gen, V, meta=_MO)
_add("as_strided", as_strided_gen, V)
_add("split", split_gen, V)
_add("split_with_sizes", split_with_sizes_gen, V, meta=_MO)
_add("chunk", chunk_gen, V)
_add("tensor_split", tensor_split_gen, V)
_add("hsplit vsplit dsplit", hvd_split_gen, V)
_add("unbind", unbind_gen, V)
_add("real imag", view_as_real_gen, V)
_add("view_as_real", view_as_real_gen, V, dtypes=COMPLEX_DTYPES + ("float32",),
     layout_dtype="complex64")
_add("view_as_complex", view_as_complex_gen, V, dtypes=FLOAT_DTYPES + ("int64",))
_add("contiguous", unary, V, meta=_MO)
_add("detach", unary, V)

J = "joining"
_add("cat concat concatenate", cat_gen, J)
_add("stack", stack_gen, J)
_add("hstack vstack dstack column_stack row_stack", hstack_gen, J)
_add("atleast_1d atleast_2d atleast_3d", atleast_gen, J)
_add("block_diag", block_diag_gen, J)
_add("cartesian_prod", cartesian_prod_gen, J)
_add("broadcast_tensors", broadcast_tensors_gen, J)
_add("meshgrid", meshgrid_gen, J)
_add("combinations", combinations_gen, J)
_add("roll", roll_gen, J)
_add("flip", flip_gen, J)
_add("fliplr flipud", one_tensor_2d, J)
_add("rot90", rot90_gen, J)
_add("tril triu", tril_gen, J)
_add("diag", diag_gen, J)
_add("diagflat", diagflat_gen, J)
_add("diag_embed", diag_embed_gen, J)
_add("tile", tile_gen, J)
_add("repeat", repeat_gen, J, meta=_MO)
_add("repeat_interleave", repeat_interleave_gen, J)
_add("kron", kron_gen, J)
_add("vander", vander_gen, J)
_add("linalg.vander", lvander_gen, J)

IX = "indexing"
_add("gather", gather_gen, IX)
_add("scatter", scatter_gen, IX)
_add("scatter_add", scatter_add_gen, IX)
_add("scatter_reduce", scatter_reduce_gen, IX)
_add("index_select", index_select_gen, IX)
_add("index_add", index_add_gen, IX)
_add("index_copy", index_copy_gen, IX)
_add("index_fill", index_fill_gen, IX)
_add("index_reduce", index_reduce_gen, IX)
_add("index_put", index_put_gen, IX)
_add("take", take_gen, IX)
_add("take_along_dim", take_along_dim_gen, IX)
_add("put", put_gen, IX)
_add("masked_fill", masked_fill_gen, IX)
_add("masked_scatter", masked_scatter_gen, IX)
_add("masked_select", masked_select_gen, IX)
_add("nonzero", nonzero_gen, IX)
_add("argwhere", argwhere_gen, IX)
_add("searchsorted", searchsorted_gen, IX)
_add("bucketize", bucketize_gen, IX)
_add("unique", unique_gen, IX)
_add("unique_consecutive", unique_consecutive_gen, IX)
_add("isin", isin_gen, IX)

LA = "linalg"
_LIN = dict(rtol=1e-4, atol=1e-4, layout_dtype="float64")
_add("mm", mm_gen, LA, **_LIN)
_add("bmm", bmm_gen, LA, **_LIN)
_add("matmul linalg.matmul", matmul_gen, LA, **_LIN)
_add("mv", mv_gen, LA, **_LIN)
_add("dot vdot", vec2_gen, LA, **_LIN)
_add("outer ger", outer_gen, LA, **_LIN)
_add("inner", inner_gen, LA, **_LIN)
_add("addmm", addmm_gen, LA, **_LIN)
_add("addmv", addmv_gen, LA, **_LIN)
_add("addr", addr_gen, LA, **_LIN)
_add("addbmm", addbmm_gen, LA, **_LIN)
_add("baddbmm", baddbmm_gen, LA, **_LIN)
_add("chain_matmul", chain_matmul_gen, LA, **_LIN)
_add("linalg.multi_dot", multi_dot_gen, LA, **_LIN)
_add("tensordot", tensordot_gen, LA, **_LIN)
_add("einsum", einsum_gen, LA, **_LIN)
_add("cross", cross_gen, LA, **_LIN)
_add("linalg.cross", lcross_gen, LA, **_LIN)
_add("linalg.vecdot", vecdot_gen, LA, **_LIN)
_add("""det logdet slogdet inverse matrix_exp linalg.det linalg.slogdet linalg.inv
     linalg.inv_ex linalg.matrix_exp linalg.eigvals""", square_gen, LA, **_LIN)
_add("cholesky linalg.cholesky linalg.cholesky_ex linalg.eigvalsh", spd_gen, LA, **_LIN)
_add("linalg.eigh", spd_gen, LA, compare="meta", **_LIN)
_add("linalg.eig", eig_gen, LA, compare="meta", **_LIN)
_add("cholesky_solve", cholesky_solve_gen, LA, **_LIN)
_add("linalg.solve linalg.solve_ex", solve_gen, LA, **_LIN)
_add("triangular_solve", triangular_solve_gen, LA, **_LIN)
_add("linalg.solve_triangular", solve_triangular_gen, LA, **_LIN)
_add("matrix_power linalg.matrix_power", matrix_power_gen, LA, **_LIN)
_add("linalg.lstsq", lstsq_gen, LA, compare="meta", **_LIN)
_add("linalg.matrix_norm", matrix_norm_gen, LA, **_LIN)
_add("linalg.vector_norm", vector_norm_gen, LA, **_LIN)
_add("linalg.norm", lnorm_gen, LA, **_LIN)
_add("linalg.cond", cond_gen, LA, **_LIN)
_add("linalg.matrix_rank", matrix_rank_gen, LA, **_LIN)
_add("pinverse linalg.pinv", pinv_gen, LA, **_LIN)
_add("linalg.svdvals", svd_gen, LA, **_LIN)
_TENSOR_LAYOUTS = ("contig", "t", "step", "offset")  # (reshaped to a square: no batch dim)
_add("linalg.tensorinv", tensorinv_gen, LA, layouts=_TENSOR_LAYOUTS, **_LIN)
_add("linalg.tensorsolve", tensorsolve_gen, LA, layouts=_TENSOR_LAYOUTS, **_LIN)
_add("cdist", cdist_gen, LA, **_LIN)
_add("qr linalg.qr svd linalg.svd", qr_gen, LA, compare="meta", **_LIN,
     note="decompositions are unique only up to signs: compared in shape/dtype/strides")

F = "fft"
# (PyTorch's MKL backend refuses some size-0 transforms, a detail of its build: no "empty")
_FFT = dict(rtol=1e-4, atol=1e-4, layouts=("contig", "t", "step", "offset", "expand", "0d"))
_add("fft.fft fft.ifft fft.rfft fft.ihfft", fft_gen, F, **_FFT)
_add("fft.irfft fft.hfft", ifft_r_gen, F, **_FFT)
_add("fft.fft2 fft.ifft2 fft.rfft2 fft.irfft2 fft.fftn fft.ifftn fft.rfftn fft.irfftn",
     fft2_gen, F, **_FFT)
_add("fft.fftshift fft.ifftshift", fftshift_gen, F)
_add("fft.fftfreq fft.rfftfreq", fftfreq_gen, F, layouts=("contig",))
_add("stft", stft_gen, F, dtypes=("float32", "float64", "complex64"), layouts=("contig",),
     rtol=1e-4, atol=1e-4)
_add("istft", istft_gen, F, dtypes=("float32", "float64", "complex64", "complex128"),
     layouts=("contig",), rtol=1e-4, atol=1e-4)

C = "creation"
_NOLAY = dict(layouts=("contig",))
_add("zeros ones", creation_size_gen, C, **_NOLAY)
_add("empty", creation_size_gen, C, compare="meta", **_NOLAY)
_add("full", full_gen, C, **_NOLAY)
_add("zeros_like ones_like", like_gen, C)
_add("empty_like", like_gen, C, compare="meta")
_add("full_like", full_like_gen, C)
_add("arange range", arange_gen, C, **_NOLAY)
_add("linspace logspace", linspace_gen, C, **_NOLAY)
_add("eye", eye_gen, C, **_NOLAY)
_add("tensor as_tensor asarray", tensor_gen, C)
_add("from_numpy", from_numpy_gen, C, **_NOLAY)
_add("empty_strided", empty_strided_gen, C, compare="meta", **_NOLAY)
_add("hann_window hamming_window blackman_window bartlett_window kaiser_window", window_gen,
     C, **_NOLAY)
_add("tril_indices triu_indices", tri_indices_gen, C, **_NOLAY)
_add("scalar_tensor", scalar_tensor_gen, C, **_NOLAY)
_add("new_zeros new_ones", new_gen, C, meta=_MO)
_add("new_empty", new_gen, C, compare="meta", meta=_MO)
_add("new_full", new_full_gen, C, meta=_MO)
_add("new_tensor", new_tensor_gen, C, meta=_MO)
_add("new_empty_strided", new_empty_strided_gen, C, compare="meta", meta=_MO)

RND = "random"
_RAND = dict(compare="meta")
_add("rand randn", rand_gen, RND, **_RAND, **_NOLAY)
_add("randint", randint_gen, RND, **_RAND, **_NOLAY)
_add("randperm", randperm_gen, RND, **_RAND, **_NOLAY)
_add("rand_like randn_like", like_gen, RND, **_RAND)
_add("randint_like", randint_like_gen, RND, **_RAND)
_add("normal", normal_gen, RND, **_RAND)
_add("bernoulli", bernoulli_gen, RND, **_RAND)
_add("multinomial", multinomial_gen, RND, **_RAND)
_add("poisson", poisson_gen, RND, **_RAND)
_add("uniform_ normal_ exponential_ cauchy_ log_normal_ bernoulli_", random_method_gen, RND,
     meta=_MO, **_RAND)
_add("random_", random_int_gen, RND, meta=_MO, **_RAND)
_add("geometric_", geometric_gen, RND, meta=_MO, **_RAND)

M = "tensor"
_add("to", to_gen, M, meta=_MO)
_add("type", type_gen, M, meta=_MO)
_add("type_as", type_as_gen, M, meta=_MO)
_add("bool byte char short int long half bfloat16 float double chalf cfloat cdouble cpu", unary, M,
     meta=_MO)
_add("copy_", copy_gen, M, meta=_MO)
_add("fill_", fill_gen, M, meta=_MO)
_add("zero_", unary, M, meta=_MO)
_add("fill_diagonal_", fill_diagonal_gen, M, meta=_MO)
_add("resize_", resize_gen, M, meta=_MO, compare="meta")
_add("resize_as_", resize_as_gen, M, meta=_MO, compare="meta")
_add("set_", set_gen, M, meta=_MO)
_add("numel is_complex is_floating_point is_nonzero", item_gen, M)
_add("""dim ndimension nelement element_size is_contiguous is_signed tolist item
     is_non_overlapping_and_dense storage_offset is_conj is_neg get_device""", item_gen, M,
     meta=_MO)
_add("size stride", dim_arg_gen, M, meta=_MO)
_add("is_same_size", is_same_size_gen, M)
_add("requires_grad_", requires_grad_gen, M, meta=_MO, dtypes=ALL_DTYPES)
_add("new", new_gen, M, meta=_MO, compare="meta")
_add("sum_to_size", sum_to_size_gen, M, meta=_MO)

#: Public names without an entry, with the reason.
SKIPS: dict[str, str] = {
    "T": "a property view (tests/test_tensor_views.py)",
    "mT": "a property view (tests/test_tensor_views.py)",
    "H": "a property view (tests/test_tensor_views.py)",
    "mH": "a property view (tests/test_tensor_views.py)",
    "frombuffer": "takes a Python buffer, not tensors (tests/test_creation.py)",
    "is_tensor": "a type query, not an op (tests/test_creation.py)",
    "is_storage": "a type query, not an op (tests/test_creation.py)",
    "is_inference": "an autograd fact (tests/autograd)",
    "register_post_accumulate_grad_hook": "an autograd hook (tests/autograd)",
    "numpy": "returns a NumPy array, not an op (tests/test_tensor.py)",
    "data_ptr": "a memory address: differs between libraries by nature",
    "show": "a widget (tests/viz)",
    "storage": "a storage object (tests/test_storage.py)",
    "untyped_storage": "a storage object (tests/test_storage.py)",
    "cuda": "moves to a device (tests/test_cuda.py); no GPU in the differential run",
    "return_types": "a module of result types, not an op",
    "get_num_threads": "runtime setting (tests/ops/test_parallel.py)",
    "set_num_threads": "runtime setting (tests/ops/test_parallel.py)",
    "get_num_interop_threads": "runtime setting (tests/ops/test_parallel.py)",
    "set_num_interop_threads": "runtime setting (tests/ops/test_parallel.py)",
    "broadcast_shapes": "works on shapes, not tensors (tests/test_layout.py)",
    "register_hook": "autograd hooks (autograd tests)",
    "backward": "autograd (autograd tests)",
    "retain_grad": "autograd (autograd tests)",
    "apply_": "calls a Python function per element (tests/test_tensor.py)",
    "map_": "calls a Python function per element (tests/test_tensor.py)",
}


# ---------------------------------------------------------------- the public API
def entry(name: str) -> Entry:
    """The inventory entry of op ``name`` (``add``, ``linalg.norm``, ``view``)."""
    return ENTRIES[name]


_COUNTS: dict = {}


def samples(name: str, dtype: str = "float32", layout: str = "contig",
            requires_grad: bool = False, seed: int = 0) -> Iterator[Sample]:
    """The sample programs of op ``name`` in ``dtype`` and ``layout``.

    Each ``Sample`` builds the same ``(args, kwargs)`` for PyTorch and for tensorviz::

        for s in samples("sum", dtype="int32", layout="step"):
            torch.sum(*s.build(torch)[0], **s.build(torch)[1])
    """
    e = ENTRIES[name]
    key = (name, dtype, layout)
    if key not in _COUNTS:
        import tensorviz
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _COUNTS[key] = sum(1 for _ in e.gen(Maker(tensorviz, dtype, layout, seed)))
    for i in range(_COUNTS[key]):
        yield Sample(e, i, dtype, layout, seed, requires_grad)


def cases(name: str) -> list[tuple[str, str]]:
    """The (dtype, layout) pairs the generic tests sweep for op ``name``: every dtype in the
    contiguous layout, and every other layout in the entry's ``layout_dtype``."""
    e = ENTRIES[name]
    out = [(d, "contig") for d in e.dtypes]
    out += [(e.layout_dtype, lay) for lay in e.layouts if lay != "contig"]
    return out


def torch_function(torch, name: str):
    """PyTorch's module-level function for entry ``name`` (None where it has none)."""
    ns, _, py = name.rpartition(".")
    mod = getattr(torch, ns) if ns else torch
    return getattr(mod, py, None)


def lib_function(lib, name: str):
    """``lib``'s module-level function for entry ``name`` (None where it has none)."""
    ns, _, py = name.rpartition(".")
    if ns:
        mod = getattr(lib, ns, None)
        return getattr(mod, py, None) if mod is not None else None
    return getattr(lib, py, None)


_META: dict = {}


def ops() -> list[dict]:
    """Every entry with its metadata, as dicts: ``name``, ``namespace``, ``category``,
    ``has_function``, ``has_method``, ``has_inplace``, ``has_out``, ``is_view``,
    ``differentiable`` (what PyTorch says: the result of a float64 sample with
    ``requires_grad=True`` inputs has a ``grad_fn``) and ``dtypes`` (those in which PyTorch
    runs some sample).  Needs PyTorch.  Example::

        [d["name"] for d in ops() if d["differentiable"] and "float64" in d["dtypes"]]
    """
    return [op_info(n) for n in ENTRIES]


def op_info(name: str) -> dict:
    """The metadata ``ops()`` lists, for one entry (cached)."""
    if name in _META:
        return _META[name]
    import torch
    e = ENTRIES[name]
    py = e.pyname
    fn = None if e.namespace == "Tensor" else torch_function(torch, name)
    method = e.namespace in ("torch", "Tensor") and callable(getattr(torch.Tensor, py, None))
    inplace = e.namespace in ("torch", "Tensor") and not py.endswith("_") and \
        callable(getattr(torch.Tensor, py + "_", None))
    info = {"name": name, "namespace": e.namespace, "category": e.category,
            "has_function": fn is not None, "has_method": method, "has_inplace": inplace,
            "has_out": False, "is_view": False, "differentiable": False}
    dtype = "float64" if "float64" in e.dtypes else e.dtypes[-1]
    call = fn if fn is not None else (lambda *a, **k: getattr(a[0], py)(*a[1:], **k))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for s in samples(name, dtype):
            try:
                args, kwargs = s.build(torch)
                res = call(*args, **kwargs)
            except Exception:  # noqa: BLE001 - a sample PyTorch refuses says nothing here
                continue
            res_t = [r for r in _flat(res) if isinstance(r, torch.Tensor)]
            ins = [a for a in _flat((args, kwargs)) if isinstance(a, torch.Tensor)]
            info["is_view"] |= any(r._is_view() and _shares(r, ins) for r in res_t)
            if fn is not None and res_t and not info["has_out"]:
                info["has_out"] = _accepts_out(torch, fn, args, kwargs, res)
            try:
                gargs, gkwargs = Sample(e, s.index, dtype, "contig", s.seed, True).build(torch)
                gres = call(*gargs, **gkwargs)
                info["differentiable"] |= any(
                    r.grad_fn is not None for r in _flat(gres) if isinstance(r, torch.Tensor))
            except Exception:  # noqa: BLE001
                pass
    info["dtypes"] = tuple(d for d in e.dtypes if _torch_takes(torch, e, call, d))
    _META[name] = info
    return info


def _torch_takes(torch, e: Entry, call, dtype: str) -> bool:
    """Whether PyTorch runs some contiguous sample of ``e`` in ``dtype``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for s in samples(e.name, dtype):
            try:
                args, kwargs = s.build(torch)
                call(*args, **kwargs)
            except Exception:  # noqa: BLE001 - refused: try the next sample
                continue
            return True
    return False


def _shares(r, ins) -> bool:
    try:
        p = r.untyped_storage().data_ptr()
    except Exception:  # noqa: BLE001
        return False
    return any(p and p == a.untyped_storage().data_ptr() for a in ins)


def _accepts_out(torch, fn, args, kwargs, res) -> bool:
    outs = tuple(torch.empty_like(r) for r in _flat(res) if isinstance(r, torch.Tensor))
    try:
        fn(*args, **kwargs, out=outs[0] if isinstance(res, torch.Tensor) else outs)
    except TypeError as e:
        return "out" not in str(e) and "argument" not in str(e)
    except Exception:  # noqa: BLE001 - out= taken, this one refused
        return True
    return True


def _flat(x):
    if isinstance(x, dict):
        for v in x.values():
            yield from _flat(v)
    elif isinstance(x, (tuple, list)):
        for v in x:
            yield from _flat(v)
    else:
        yield x


def public_names() -> dict[str, str]:
    """Every public op name of tensorviz, with where it was found: the registry (qualified
    names, aliases and in-place forms), the legacy ``ops.FUNCTIONS`` table, ``Tensor``'s
    public methods, and the ``linalg``/``fft``/``special`` namespaces."""
    import inspect

    import tensorviz
    from tensorviz import _dispatch, ops as _ops
    names: dict[str, str] = {}
    for key, rec in _dispatch.registry().items():
        if rec.namespace == "nn.functional" or rec.name.startswith("_"):
            continue  # (nn's kernels are tested by tests/nn; private names are no API)
        prefix = "" if rec.namespace == "torch" else rec.namespace + "."
        for n in (rec.name,) + tuple(rec.aliases):
            names.setdefault(prefix + n, "registry")
        for q in rec.also:
            names.setdefault(q, "registry")
    for n in _ops.FUNCTIONS:
        names.setdefault(n, "ops.FUNCTIONS")
    for n in dir(tensorviz.Tensor):
        if n.startswith("_"):
            continue
        if isinstance(inspect.getattr_static(tensorviz.Tensor, n), property):
            continue
        if callable(getattr(tensorviz.Tensor, n, None)):
            names.setdefault(n, "Tensor")
    for ns in ("linalg", "fft", "special"):
        mod = getattr(tensorviz, ns)
        for n in dir(mod):
            obj = getattr(mod, n)
            if not n.startswith("_") and callable(obj) and not inspect.isclass(obj) \
                    and getattr(obj, "__module__", "").startswith("tensorviz"):
                names.setdefault(f"{ns}.{n}", ns)
    return names


def covered(name: str) -> str | None:
    """How public name ``name`` is covered: ``entry``, ``inplace of X``, ``skip: reason``, or
    None."""
    if name in ENTRIES:
        return "entry"
    if name in SKIPS:
        return "skip: " + SKIPS[name]
    if name.endswith("_") and name[:-1] in ENTRIES:
        return "inplace of " + name[:-1]
    return None
