"""The op sample table of the autograd tests: which ops PyTorch differentiates, and a call of
each that it differentiates, found by asking PyTorch itself.

``ops()`` lists every public spelling tensorviz shares with PyTorch (functions of the package
and of ``linalg``/``special``/``fft``, and ``Tensor`` methods that are not also functions).
``sample(spelling)`` returns the first call pattern (``PATTERNS``, or the hand-written
``OVERRIDES`` for ops that need particular arguments) for which PyTorch's float64 result has
a ``grad_fn``; None when PyTorch does not differentiate the op (or no pattern fits).

A pattern is ``pattern(lib, make) -> args``: ``make(values)`` turns a NumPy array into a leaf
tensor of ``lib`` (in the layout under test) and returns the tensor the op is given, so the
same pattern builds the same call in both libraries.
"""
from __future__ import annotations

import functools
import warnings
from typing import Any, Callable

import numpy as np

import tensorviz

try:
    import torch
except ImportError:  # pragma: no cover - the differential tests skip without PyTorch
    torch = None

LAYOUTS = ("contig", "t", "step", "offset", "expand")

# names that are not ops on tensor data (factories, queries, utilities, random draws)
_NOT_OPS = frozenset("""
arange as_tensor asarray bartlett_window blackman_window broadcast_shapes can_cast empty
empty_like empty_strided eye from_numpy frombuffer full full_like get_default_device
get_default_dtype get_num_interop_threads get_num_threads get_rng_state hamming_window
hann_window initial_seed is_complex is_conj is_floating_point is_grad_enabled
is_inference_mode_enabled is_neg is_nonzero is_same_size is_storage is_tensor kaiser_window
linspace load logspace manual_seed numel ones ones_like promote_types rand rand_like randint
randint_like randn randn_like randperm range result_type save scalar_tensor seed
set_default_device set_default_dtype set_num_interop_threads set_num_threads set_printoptions
set_rng_state tensor tril_indices triu_indices typename zeros zeros_like bernoulli multinomial
normal poisson fftfreq rfftfreq backward register_hook register_post_accumulate_grad_hook
retain_grad requires_grad_ data_ptr dim element_size get_device is_contiguous is_inference
is_signed item ndimension nelement new new_empty new_empty_strided new_full new_ones
new_tensor new_zeros numpy size storage_offset stride tolist untyped_storage resize_
resize_as_ set_ byte char cauchy_ exponential_ geometric_ log_normal_ normal_ random_
uniform_ bernoulli_ detach detach_ stft istft equal allclose isclose
""".split())


def ops() -> list[tuple[str, str]]:
    """Every ``(namespace, name)`` spelling of tensorviz that PyTorch has too: namespace is
    ``torch``, ``linalg``, ``special``, ``fft`` or ``Tensor`` (methods without a function)."""
    out = []
    for n in sorted(dir(tensorviz)):
        f = getattr(tensorviz, n, None)
        if n.startswith("_") or not callable(f) or isinstance(f, type) or n in _NOT_OPS:
            continue
        if torch is not None and not hasattr(torch, n):
            continue
        if n.endswith("_"):
            continue
        out.append(("torch", n))
    for ns in ("linalg", "special", "fft"):
        mod = getattr(tensorviz, ns)
        for n in sorted(dir(mod)):
            f = getattr(mod, n, None)
            if n.startswith("_") or not callable(f) or isinstance(f, type) or n in _NOT_OPS:
                continue
            if torch is not None and not hasattr(getattr(torch, ns), n):
                continue
            out.append((ns, n))
    for n in sorted(dir(tensorviz.Tensor)):
        if n.startswith("_") or n.endswith("_") or n in _NOT_OPS or hasattr(tensorviz, n):
            continue
        if not callable(getattr(tensorviz.Tensor, n, None)):
            continue
        if torch is not None and not callable(getattr(torch.Tensor, n, None)):
            continue
        out.append(("Tensor", n))
    return out


def resolve(lib, ns: str, name: str) -> Callable:
    """The callable of spelling ``(ns, name)`` in ``lib`` (a method as a function)."""
    if ns == "Tensor":
        return lambda t, *a, **k: getattr(t, name)(*a, **k)
    mod = lib if ns == "torch" else getattr(lib, ns)
    return getattr(mod, name)


# ---------------------------------------------------------------- data
def _vals(seed: int, shape, lo=0.2, hi=0.9) -> np.ndarray:
    return np.random.default_rng(seed).uniform(lo, hi, shape)


def _spd(seed: int, n: int = 3) -> np.ndarray:
    a = np.random.default_rng(seed).uniform(-1, 1, (n, n))
    return a @ a.T + n * np.eye(n)


# call patterns, tried in order: each takes (lib, make, idx) where make(values) builds an
# input and idx(values) an index tensor (no grad)
A, B, C = (3, 4), (3, 4), (3, 4)
PATTERNS: tuple = (
    ("x", lambda L, m, i: (m(_vals(0, A)),)),
    ("x,y", lambda L, m, i: (m(_vals(0, A)), m(_vals(1, B)))),
    ("x,1", lambda L, m, i: (m(_vals(0, A)), 1)),
    ("x,y,z", lambda L, m, i: (m(_vals(0, A)), m(_vals(1, B)), m(_vals(2, C)))),
    ("spd", lambda L, m, i: (m(_spd(0)),)),
    ("spd,spd", lambda L, m, i: (m(_spd(0)), m(_spd(1)))),
    ("[x,y]", lambda L, m, i: ([m(_vals(0, A)), m(_vals(1, B))],)),
    ("x,2", lambda L, m, i: (m(_vals(0, A)), 2)),
    ("v", lambda L, m, i: (m(_vals(0, 4)),)),
    ("v,v", lambda L, m, i: (m(_vals(0, 4)), m(_vals(1, 4)))),
    ("x,v", lambda L, m, i: (m(_vals(0, A)), m(_vals(1, 4)))),
    ("x,0.5", lambda L, m, i: (m(_vals(0, A)), 0.5)),
    ("x,x.T", lambda L, m, i: (m(_vals(0, A)), m(_vals(1, (4, 3))))),
)

_I = lambda L, v: L.tensor(np.asarray(v))  # noqa: E731 (an index tensor)

OVERRIDES: dict[str, Callable] = {
    "acosh": lambda L, m, i: (m(_vals(0, A, 1.2, 3.0)),),
    "arccosh": lambda L, m, i: (m(_vals(0, A, 1.2, 3.0)),),
    "addbmm": lambda L, m, i: (m(_vals(0, (3, 5))), m(_vals(1, (2, 3, 4))), m(_vals(2, (2, 4, 5)))),
    "baddbmm": lambda L, m, i: (m(_vals(0, (2, 3, 5))), m(_vals(1, (2, 3, 4))),
                                m(_vals(2, (2, 4, 5)))),
    "bmm": lambda L, m, i: (m(_vals(1, (2, 3, 4))), m(_vals(2, (2, 4, 5)))),
    "addmm": lambda L, m, i: (m(_vals(0, (3, 5))), m(_vals(1, (3, 4))), m(_vals(2, (4, 5)))),
    "addmv": lambda L, m, i: (m(_vals(0, 3)), m(_vals(1, (3, 4))), m(_vals(2, 4))),
    "addr": lambda L, m, i: (m(_vals(0, (3, 4))), m(_vals(1, 3)), m(_vals(2, 4))),
    "cross": lambda L, m, i: (m(_vals(0, (4, 3))), m(_vals(1, (4, 3))), 1),
    "linalg.cross": lambda L, m, i: (m(_vals(0, (4, 3))), m(_vals(1, (4, 3)))),
    "gather": lambda L, m, i: (m(_vals(0, A)), 1, i([[0, 1], [2, 3], [1, 1]])),
    "take_along_dim": lambda L, m, i: (m(_vals(0, A)), i([[0, 1], [2, 3], [1, 1]]), 1),
    "index_select": lambda L, m, i: (m(_vals(0, A)), 1, i([0, 2, 2])),
    "take": lambda L, m, i: (m(_vals(0, A)), i([0, 5, 5, 11])),
    "masked_select": lambda L, m, i: (m(_vals(0, A)), L.tensor(_vals(3, A) > 0.5)),
    "masked_fill": lambda L, m, i: (m(_vals(0, A)), L.tensor(_vals(3, A) > 0.5), 2.0),
    "masked_scatter": lambda L, m, i: (m(_vals(0, A)), L.tensor(_vals(3, A) > 0.5),
                                       m(_vals(1, A))),
    "where": lambda L, m, i: (L.tensor(_vals(3, A) > 0.5), m(_vals(0, A)), m(_vals(1, A))),
    "scatter": lambda L, m, i: (m(_vals(0, A)), 1, i([[0, 1], [2, 3], [1, 0]]), m(_vals(1, (3, 2)))),
    "scatter_add": lambda L, m, i: (m(_vals(0, A)), 1, i([[0, 1], [2, 3], [1, 1]]),
                                    m(_vals(1, (3, 2)))),
    "scatter_reduce": lambda L, m, i: (m(_vals(0, A)), 1, i([[0, 1], [2, 3], [1, 1]]),
                                       m(_vals(1, (3, 2))), "sum"),
    "index_add": lambda L, m, i: (m(_vals(0, A)), 1, i([0, 2, 2]), m(_vals(1, (3, 3)))),
    "index_copy": lambda L, m, i: (m(_vals(0, A)), 1, i([0, 2, 3]), m(_vals(1, (3, 3)))),
    "index_fill": lambda L, m, i: (m(_vals(0, A)), 1, i([0, 2]), 2.0),
    "index_reduce": lambda L, m, i: (m(_vals(0, A)), 1, i([0, 2, 2]), m(_vals(1, (3, 3))),
                                     "prod"),
    "index_put": lambda L, m, i: (m(_vals(0, A)), (i([0, 2]),), m(_vals(1, (2, 4)))),
    "put": lambda L, m, i: (m(_vals(0, A)), i([0, 5, 7]), m(_vals(1, 3))),
    "select": lambda L, m, i: (m(_vals(0, A)), 1, 2),
    "narrow": lambda L, m, i: (m(_vals(0, A)), 1, 1, 2),
    "narrow_copy": lambda L, m, i: (m(_vals(0, A)), 1, 1, 2),
    "diagonal": lambda L, m, i: (m(_vals(0, A)), 1),
    "as_strided": lambda L, m, i: (m(_vals(0, A)), (2, 2), (1, 2), 1),
    "unfold": lambda L, m, i: (m(_vals(0, A)), 1, 2, 1),
    "kthvalue": lambda L, m, i: (m(_vals(0, A)), 2, 1),
    "topk": lambda L, m, i: (m(_vals(0, A)), 2, 1),
    "lerp": lambda L, m, i: (m(_vals(0, A)), m(_vals(1, A)), m(_vals(2, A))),
    "clamp": lambda L, m, i: (m(_vals(0, A)), 0.4, 0.7),
    "clip": lambda L, m, i: (m(_vals(0, A)), 0.4, 0.7),
    "clamp_min": lambda L, m, i: (m(_vals(0, A)), 0.4),
    "clamp_max": lambda L, m, i: (m(_vals(0, A)), 0.7),
    "polygamma": lambda L, m, i: (1, m(_vals(0, A))),
    "special.polygamma": lambda L, m, i: (1, m(_vals(0, A))),
    "mvlgamma": lambda L, m, i: (m(_vals(0, A, 1.5, 3.0)), 2),
    "special.multigammaln": lambda L, m, i: (m(_vals(0, A, 1.5, 3.0)), 2),
    "matrix_power": lambda L, m, i: (m(_spd(0)), 3),
    "linalg.matrix_power": lambda L, m, i: (m(_spd(0)), 3),
    "renorm": lambda L, m, i: (m(_vals(0, A)), 2, 0, 0.5),
    "repeat_interleave": lambda L, m, i: (m(_vals(0, A)), 2, 1),
    "repeat": lambda L, m, i: (m(_vals(0, A)), 2, 1),
    "tile": lambda L, m, i: (m(_vals(0, A)), (2, 1)),
    "roll": lambda L, m, i: (m(_vals(0, A)), 1, 1),
    "rot90": lambda L, m, i: (m(_vals(0, A)), 1, (0, 1)),
    "permute": lambda L, m, i: (m(_vals(0, A)), (1, 0)),
    "movedim": lambda L, m, i: (m(_vals(0, A)), 0, 1),
    "moveaxis": lambda L, m, i: (m(_vals(0, A)), 0, 1),
    "transpose": lambda L, m, i: (m(_vals(0, A)), 0, 1),
    "swapaxes": lambda L, m, i: (m(_vals(0, A)), 0, 1),
    "swapdims": lambda L, m, i: (m(_vals(0, A)), 0, 1),
    "reshape": lambda L, m, i: (m(_vals(0, A)), (2, 6)),
    "view": lambda L, m, i: (m(_vals(0, A)), 12),
    "flip": lambda L, m, i: (m(_vals(0, A)), (0,)),
    "unflatten": lambda L, m, i: (m(_vals(0, A)), 1, (2, 2)),
    "expand": lambda L, m, i: (m(_vals(0, (3, 1))), 3, 4),
    "broadcast_to": lambda L, m, i: (m(_vals(0, (3, 1))), (3, 4)),
    "split": lambda L, m, i: (m(_vals(0, A)), 2, 1),
    "split_with_sizes": lambda L, m, i: (m(_vals(0, A)), [1, 3], 1),
    "tensor_split": lambda L, m, i: (m(_vals(0, A)), 3, 1),
    "hsplit": lambda L, m, i: (m(_vals(0, A)), 2),
    "vsplit": lambda L, m, i: (m(_vals(0, (4, 3))), 2),
    "dsplit": lambda L, m, i: (m(_vals(0, (2, 2, 4))), 2),
    "chunk": lambda L, m, i: (m(_vals(0, A)), 2, 1),
    "dstack": lambda L, m, i: ([m(_vals(0, A)), m(_vals(1, B))],),
    "block_diag": lambda L, m, i: (m(_vals(0, (2, 3))), m(_vals(1, (1, 2)))),
    "cartesian_prod": lambda L, m, i: (m(_vals(0, 3)), m(_vals(1, 2))),
    "combinations": lambda L, m, i: (m(_vals(0, 4)),),
    "cdist": lambda L, m, i: (m(_vals(0, A)), m(_vals(1, (2, 4)))),
    "dist": lambda L, m, i: (m(_vals(0, A)), m(_vals(1, A)), 3),
    "cumulative_trapezoid": lambda L, m, i: (m(_vals(0, A)),),
    "trapezoid": lambda L, m, i: (m(_vals(0, A)),),
    "trapz": lambda L, m, i: (m(_vals(0, A)),),
    "diff": lambda L, m, i: (m(_vals(0, A)),),
    "einsum": lambda L, m, i: ("ij,jk->ik", m(_vals(0, A)), m(_vals(1, (4, 2)))),
    "tensordot": lambda L, m, i: (m(_vals(0, A)), m(_vals(1, (4, 2))), 1),
    "chain_matmul": lambda L, m, i: (m(_vals(0, A)), m(_vals(1, (4, 2))), m(_vals(2, (2, 3)))),
    "linalg.multi_dot": lambda L, m, i: ([m(_vals(0, A)), m(_vals(1, (4, 2))),
                                          m(_vals(2, (2, 3)))],),
    "triangular_solve": lambda L, m, i: (m(_vals(0, (3, 2))), m(np.triu(_spd(0)))),
    "cholesky_solve": lambda L, m, i: (m(_vals(0, (3, 2))), m(np.linalg.cholesky(_spd(0)))),
    "linalg.solve": lambda L, m, i: (m(_spd(0)), m(_vals(0, (3, 2)))),
    "linalg.solve_ex": lambda L, m, i: (m(_spd(0)), m(_vals(0, (3, 2)))),
    "linalg.lstsq": lambda L, m, i: (m(_vals(0, (4, 3))), m(_vals(1, (4, 2)))),
    "linalg.tensorinv": lambda L, m, i: (m(_spd(0, 4).reshape(4, 2, 2)), 1),
    "linalg.tensorsolve": lambda L, m, i: (m(_spd(0, 4).reshape(2, 2, 4)), m(_vals(0, (2, 2)))),
    "linalg.vecdot": lambda L, m, i: (m(_vals(0, A)), m(_vals(1, B))),
    "linalg.vander": lambda L, m, i: (m(_vals(0, 4)),),
    "vander": lambda L, m, i: (m(_vals(0, 4)),),
    "linalg.matrix_norm": lambda L, m, i: (m(_vals(0, A)),),
    "linalg.norm": lambda L, m, i: (m(_vals(0, A)),),
    "linalg.diagonal": lambda L, m, i: (m(_vals(0, A)),),
    "linalg.eigh": lambda L, m, i: (m(_spd(0)),),
    "linalg.eigvalsh": lambda L, m, i: (m(_spd(0)),),
    "ldexp": lambda L, m, i: (m(_vals(0, A)), L.tensor(np.array([1, 2, 0, 3]))),
    "float_power": lambda L, m, i: (m(_vals(0, A)), 2.5),
    "nextafter": lambda L, m, i: (m(_vals(0, A)), m(_vals(1, B))),
    "histc": lambda L, m, i: (m(_vals(0, A)),),
    "quantile": lambda L, m, i: (m(_vals(0, A)), 0.3, 1),
    "nanquantile": lambda L, m, i: (m(_vals(0, A)), 0.3, 1),
    "fft.fftshift": lambda L, m, i: (m(_vals(0, A)),),
    "fft.ifftshift": lambda L, m, i: (m(_vals(0, A)),),
    "special.xlog1py": lambda L, m, i: (m(_vals(0, A)), m(_vals(1, A))),
    "view_as_complex": lambda L, m, i: (m(_vals(0, (3, 2))),),
    "complex": lambda L, m, i: (m(_vals(0, A)), m(_vals(1, A))),
    "polar": lambda L, m, i: (m(_vals(0, A)), m(_vals(1, A))),
    "new": None,
    "special.zeta": lambda L, m, i: (2.5, m(_vals(1, A))),
    "linalg.solve_triangular": lambda L, m, i: (m(np.triu(_spd(0))), m(_vals(0, (3, 2))), {"upper": True}),
}


def qual(ns: str, name: str) -> str:
    return name if ns in ("torch", "Tensor") else f"{ns}.{name}"


def _index(lib):
    return lambda v: lib.tensor(np.asarray(v))


def _make_contig(lib, dtype):
    leaves = []

    def make(v):
        t = lib.tensor(np.asarray(v), dtype=dtype, requires_grad=True)
        leaves.append(t)
        return t
    return make, leaves


@functools.lru_cache(maxsize=None)
def sample(ns: str, name: str) -> tuple | None:
    """``(pattern_name, pattern)`` for which PyTorch differentiates op ``(ns, name)`` in
    float64, or None."""
    if torch is None:
        return None
    key = qual(ns, name)
    candidates = ((key, OVERRIDES[key]),) if key in OVERRIDES else PATTERNS
    fn = resolve(torch, ns, name)
    for pname, pat in candidates:
        if pat is None:
            return None
        make, _ = _make_contig(torch, torch.float64)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = call(fn, pat(torch, make, _index(torch)))
        except Exception:  # noqa: BLE001 (this pattern does not fit the op)
            continue
        if any(o.grad_fn is not None for o in float_outputs(out)):
            return pname, pat
        if float_outputs(out):  # (fits, but PyTorch does not differentiate it)
            return None
    return None


def call(fn, args):
    """``fn(*args)``, a trailing dict in ``args`` being keyword arguments."""
    if args and isinstance(args[-1], dict):
        return fn(*args[:-1], **args[-1])
    return fn(*args)


def float_outputs(out) -> list:
    """The floating/complex tensors among an op's results."""
    if isinstance(out, (tuple, list)):
        res = []
        for o in out:
            res.extend(float_outputs(o))
        return res
    if torch is not None and isinstance(out, torch.Tensor):
        return [out] if (out.is_floating_point() or out.is_complex()) else []
    if isinstance(out, tensorviz.Tensor):
        return [out] if (out.is_floating_point() or out.is_complex()) else []
    return []


def maker(lib, dtype, layout: str):
    """``(make, leaves)``: ``make(values)`` builds a leaf that requires grad holding the data
    for ``values`` and returns the view of it in ``layout`` that the op receives."""
    leaves = []

    def make(v):
        v = np.asarray(v, dtype=np.float64)
        shape = v.shape
        if layout == "contig" or v.ndim == 0 or (layout == "t" and v.ndim < 2):
            t = lib.tensor(v, dtype=dtype, requires_grad=True)
            leaves.append(t)
            return t
        if layout == "t":
            perm = tuple(reversed(range(v.ndim)))
            t = lib.tensor(np.ascontiguousarray(v.transpose(perm)), dtype=dtype,
                           requires_grad=True)
            leaves.append(t)
            return t.permute(*perm)
        if layout == "step":
            big = np.zeros(shape[:-1] + (shape[-1] * 2,))
            big[..., ::2] = v
            t = lib.tensor(big, dtype=dtype, requires_grad=True)
            leaves.append(t)
            return t[..., ::2]
        if layout == "offset":
            flat = np.concatenate([np.full(3, 0.5), v.reshape(-1)])
            t = lib.tensor(flat, dtype=dtype, requires_grad=True)
            leaves.append(t)
            return t[3:].view(*shape)
        if layout == "expand":
            # the first row, expanded along dim 0 (values repeat: gradients are summed)
            t = lib.tensor(v[:1].copy(), dtype=dtype, requires_grad=True)
            leaves.append(t)
            return t.expand(*shape)
        raise ValueError(layout)
    return make, leaves


def run(lib, ns: str, name: str, pattern: Callable, dtype_name: str, layout: str):
    """Build the call in ``lib`` and run it: ``(out, leaves)``."""
    dtype = getattr(lib, dtype_name)
    make, leaves = maker(lib, dtype, layout)
    args = pattern(lib, make, _index(lib))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = call(resolve(lib, ns, name), args)
    return out, leaves


def seeds(lib, outs: list, seed: int = 7) -> list:
    """Random gradients for ``outs`` (the same numbers in both libraries)."""
    res = []
    rng = np.random.default_rng(seed)
    for o in outs:
        shape = tuple(o.shape)
        v = rng.uniform(-1, 1, shape)
        if o.is_complex():
            v = v + 1j * rng.uniform(-1, 1, shape)
        res.append(lib.tensor(v, dtype=o.dtype))
    return res


def to_numpy(t) -> Any:
    if t is None:
        return None
    return np.asarray(t.detach().cpu().resolve_conj().resolve_neg().numpy(force=True))
