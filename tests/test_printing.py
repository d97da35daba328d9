"""Tensor printing must match PyTorch's ``repr`` character for character.

Every check is differential: the same NumPy data goes through ``tensor_repr`` and through
``repr(torch.from_numpy(...))`` (with ``torch.`` spelled ``tensorviz.``).
"""
from __future__ import annotations

import zlib

import numpy as np
import pytest

torch = pytest.importorskip("torch")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

from tensorviz import _dtypes  # noqa: E402
from tensorviz._printing import (  # noqa: E402
    get_printoptions, printoptions, set_printoptions, tensor_repr)

DTYPE_NAMES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
               "float64", "complex64", "complex128"]
FLOATS = ["float16", "float32", "float64"]
COMPLEXES = ["complex64", "complex128"]

SHAPES = [(), (1,), (5,), (9,), (3, 4), (1, 7), (2, 3, 4), (2, 1, 3, 2), (0,), (0, 3),
          (2, 0, 3), (1, 0), (1001,), (40, 30), (3, 400), (11, 12, 13), (2, 3, 4, 5, 10),
          (7, 7, 7, 7), (6, 6, 6, 6), (1, 1, 1, 1, 1)]


@pytest.fixture(autouse=True)
def _reset_state():
    """Every test starts and ends with both libraries' defaults."""
    def reset():
        torch.set_printoptions(profile="default")
        set_printoptions(profile="default")
        torch.set_default_dtype(torch.float32)
        _dtypes.set_default_dtype(_dtypes.float32)
    reset()
    yield
    reset()


def _seed(*parts) -> int:
    """A seed that, unlike ``hash``, is the same in every process."""
    return zlib.crc32(repr(parts).encode())


def torch_repr(arr: np.ndarray, requires_grad: bool = False) -> str:
    t = torch.from_numpy(np.array(arr, copy=True))
    if requires_grad:
        t.requires_grad_()
    return repr(t).replace("torch.", "tensorviz.")


def check(arr: np.ndarray, **kw) -> None:
    expected = torch_repr(arr, kw.get("requires_grad", False))
    got = tensor_repr(arr, _dtypes.from_numpy_dtype(arr.dtype), **kw)
    assert got == expected, f"\n--- tensorviz\n{got}\n--- torch\n{expected}"


# ---------------------------------------------------------------- random data
def _real_values(rng: np.random.Generator, kind: str, size: int) -> np.ndarray:
    if kind == "normal":
        return rng.standard_normal(size)
    if kind == "tiny":
        return rng.standard_normal(size) * 1e-5
    if kind == "huge":
        return rng.standard_normal(size) * 1e10
    if kind == "mixed":
        return rng.choice([-1, 1], size) * 10.0 ** rng.uniform(-8, 12, size)
    if kind == "integral":
        return rng.integers(-1000, 1000, size).astype(np.float64)
    if kind == "big_integral":
        return rng.integers(-10**9, 10**9, size).astype(np.float64)
    if kind == "ratio":  # just around the 1000x sci-mode switch
        return rng.uniform(0.5, 600, size)
    if kind == "rounding":  # values that round up to one more digit
        return rng.choice([9.99996, 99.99996, -9.99996, 0.99999, 1e8 - 0.01], size)
    if kind == "special":
        base = rng.standard_normal(size) * rng.choice([1e-3, 1.0, 1e3])
        specials = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0])
        mask = rng.random(size) < 0.3
        base[mask] = rng.choice(specials, int(mask.sum()))
        return base
    if kind == "special_integral":
        base = rng.integers(-50, 50, size).astype(np.float64)
        base[rng.random(size) < 0.3] = rng.choice([np.nan, np.inf, -np.inf, -0.0], 1)[0]
        return base
    if kind == "zeros":
        return np.where(rng.random(size) < 0.5, 0.0, -0.0)
    if kind == "nonfinite":
        return rng.choice([np.nan, np.inf, -np.inf], size)
    raise AssertionError(kind)


REAL_KINDS = ["normal", "tiny", "huge", "mixed", "integral", "big_integral", "ratio",
              "rounding", "special", "special_integral", "zeros", "nonfinite"]


def random_array(rng: np.random.Generator, name: str, shape: tuple, kind: str) -> np.ndarray:
    size = int(np.prod(shape))
    np_dtype = np.dtype(name)
    if name == "bool":
        return (rng.random(size) < 0.5).reshape(shape)
    if np_dtype.kind in "iu":
        info = np.iinfo(np_dtype)
        if kind in ("normal", "integral", "zeros"):
            lo, hi = max(info.min, -20), min(info.max, 20)
        else:
            lo, hi = info.min, info.max
        return rng.integers(lo, hi, size, endpoint=True, dtype=np_dtype).reshape(shape)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        if np_dtype.kind == "c":
            real_kind, imag_kind = kind, REAL_KINDS[(REAL_KINDS.index(kind) * 5 + 3)
                                                    % len(REAL_KINDS)]
            vals = (_real_values(rng, real_kind, size)
                    + 1j * _real_values(rng, imag_kind, size))
        else:
            vals = _real_values(rng, kind, size)
        return vals.astype(np_dtype).reshape(shape)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_random_tensors_match_torch(name, shape):
    rng = np.random.default_rng(_seed(name, shape))
    kinds = ["normal"] if name == "bool" else REAL_KINDS
    for kind in kinds:
        check(random_array(rng, name, shape, kind))


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_non_contiguous_inputs(name):
    rng = np.random.default_rng(7)
    for kind in (["normal"] if name == "bool" else REAL_KINDS[:6]):
        base = random_array(rng, name, (5, 6, 7), kind)
        check(base.T)
        check(base.transpose(1, 0, 2))
        check(base[::2, 1:, ::-3])
        check(base[:, 3])
        check(base[1, 2, 3])  # 0-d view
        big = random_array(rng, name, (60, 50), kind)
        check(big.T)
        check(big[::-1, ::7])


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_scalars_and_edge_values(name):
    np_dtype = np.dtype(name)
    if name == "bool":
        values = [True, False]
    elif np_dtype.kind in "iu":
        info = np.iinfo(np_dtype)
        values = [0, 1, info.min, info.max, info.max // 3]
    else:
        finfo = np.finfo(np_dtype)
        values = [0.0, -0.0, 1.0, -1.0, 0.5, 1e-5, 1e10, 123456.0, np.nan, np.inf, -np.inf,
                  float(finfo.max), float(finfo.tiny), float(finfo.smallest_subnormal),
                  1e8, 1e8 + 1, 1.0001e8, 1e-4, 9.9999e-5, 0.1, 1 / 3]
        if np_dtype.kind == "c":
            values += [1j, -1j, 1 - 1j, complex(0.0, -0.0), complex(-0.0, 0.0),
                       complex(np.nan, np.inf), complex(1e-5, 1e10), 3 + 0j]
    with np.errstate(over="ignore"):
        arrays = [np.array(v).astype(np_dtype) for v in values]
    for a in arrays:
        check(a)
        check(a.reshape(1))
    for a, b in zip(arrays, arrays[1:]):
        check(np.stack([a, b]))
        check(np.stack([a, b, a, b]).reshape(2, 2))


def test_known_outputs():
    """A few literal spellings, so a regression is readable without torch."""
    f = _dtypes
    assert tensor_repr(np.array([1.0, 2.0], np.float32), f.float32) == "tensor([1., 2.])"
    assert tensor_repr(np.array(3.5), f.float64) == \
        "tensor(3.5000, dtype=tensorviz.float64)"
    assert tensor_repr(np.array([True, False]), f.bool) == "tensor([ True, False])"
    assert tensor_repr(np.arange(3, dtype=np.int8), f.int8) == \
        "tensor([0, 1, 2], dtype=tensorviz.int8)"
    assert tensor_repr(np.array([1e-5, 1.0], np.float32), f.float32) == \
        "tensor([1.0000e-05, 1.0000e+00])"
    assert tensor_repr(np.zeros((0, 3), np.int64), f.int64) == \
        "tensor([], size=(0, 3), dtype=tensorviz.int64)"
    assert tensor_repr(np.zeros(0, np.float32), f.float32) == "tensor([])"
    assert tensor_repr(np.array([1 + 2j], np.complex64), f.complex64) == "tensor([1.+2.j])"


# ---------------------------------------------------------------- hypothesis
def _elements(name: str):
    np_dtype = np.dtype(name)
    if np_dtype.kind == "f":
        return st.floats(width=8 * np_dtype.itemsize)
    if np_dtype.kind == "c":
        part = st.floats(width=4 * np_dtype.itemsize)
        return st.builds(complex, part, part)
    return None  # the default strategy for the dtype


@pytest.mark.parametrize("name", DTYPE_NAMES)
@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_hypothesis_arrays(name, data):
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=6))
    arr = data.draw(hnp.arrays(np.dtype(name), shape, elements=_elements(name)))
    check(arr)


# ---------------------------------------------------------------- print options
OPTION_SETS = [
    dict(precision=0), dict(precision=1), dict(precision=2), dict(precision=8),
    dict(threshold=5), dict(threshold=0), dict(threshold=10**6),
    dict(edgeitems=0), dict(edgeitems=1), dict(edgeitems=2), dict(edgeitems=5),
    dict(edgeitems=0, threshold=3),
    dict(linewidth=1), dict(linewidth=20), dict(linewidth=40), dict(linewidth=200),
    dict(sci_mode=True), dict(sci_mode=False), dict(sci_mode=True, precision=2),
    dict(profile="short"), dict(profile="full"), dict(profile="default"),
    dict(profile="short", precision=6, sci_mode=False),
    dict(threshold=20, edgeitems=1, linewidth=30, precision=3),
]

OPTION_SHAPES = [(), (4,), (30,), (3, 5), (2, 3, 4), (12, 13), (9, 2, 10), (0, 2), (1001,)]


@pytest.mark.parametrize("opts", OPTION_SETS, ids=str)
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_print_options_match_torch(name, opts):
    torch.set_printoptions(**opts)
    set_printoptions(**opts)
    assert get_printoptions() == torch._tensor_str.get_printoptions()
    rng = np.random.default_rng(_seed(name, opts))
    kinds = ["normal"] if name == "bool" else ["normal", "mixed", "integral", "special",
                                               "huge", "tiny"]
    for shape in OPTION_SHAPES:
        for kind in kinds:
            check(random_array(rng, name, shape, kind))
            if name in FLOATS + COMPLEXES and shape and shape[0] < 20:
                check(random_array(rng, name, shape, kind), requires_grad=True)


def test_set_printoptions_semantics():
    """sci_mode is reset by any call; profiles set the four numeric options."""
    for opts in [dict(sci_mode=True), dict(precision=3), dict(profile="full"),
                 dict(profile="short", edgeitems=4), dict(linewidth=50, sci_mode=False),
                 dict(profile="bogus"), dict()]:
        torch.set_printoptions(**opts)
        set_printoptions(**opts)
        assert get_printoptions() == torch._tensor_str.get_printoptions()
    assert set(get_printoptions()) == {"precision", "threshold", "edgeitems", "linewidth",
                                       "sci_mode"}


def test_printoptions_context_manager():
    set_printoptions(precision=6)
    arr = np.array([1.25, 2.0, 3.0, 4.5, 5.0, 6.0, 7.0])
    with printoptions(precision=1, threshold=2), \
            torch._tensor_str.printoptions(precision=1, threshold=2):
        assert get_printoptions()["precision"] == 1
        assert tensor_repr(arr, _dtypes.float64) == \
            "tensor([1.2, 2.0, 3.0,  ..., 5.0, 6.0, 7.0], dtype=tensorviz.float64)"
        check(arr)
    assert get_printoptions()["precision"] == 6


# ---------------------------------------------------------------- default dtype
@pytest.mark.parametrize("default", ["float16", "float32", "float64"])
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_default_dtype_controls_suffix(name, default):
    torch.set_default_dtype(getattr(torch, default))
    _dtypes.set_default_dtype(getattr(_dtypes, default))
    rng = np.random.default_rng(3)
    for shape in [(), (3,), (2, 2), (0,), (0, 2), (2000,)]:
        check(random_array(rng, name, shape, "normal"))
        if name in FLOATS + COMPLEXES:
            check(random_array(rng, name, shape, "special"), requires_grad=True)


# ---------------------------------------------------------------- suffixes
def _torch_expected_on(arr: np.ndarray, device: str, requires_grad: bool = False,
                       grad_fn: str | None = None) -> str:
    """What PyTorch prints for ``arr`` living on ``device`` (not cpu).

    Built from PyTorch's own pieces: ``_str_intern`` puts ``device=`` first, then the
    dtype, then the autograd suffix, and wraps them with ``_add_suffixes``.
    """
    ts = torch._tensor_str
    t = torch.from_numpy(arr.copy())
    suffixes = [f"device='{device}'"]
    default = torch.get_default_dtype()
    default_complex = torch.cdouble if default == torch.double else torch.cfloat
    if t.numel() == 0:
        body = "[]"
        if t.dim() != 1:
            suffixes.append(f"size={tuple(t.shape)}")
        if t.dtype != default:
            suffixes.append(f"dtype={t.dtype}")
    else:
        body = ts._tensor_str(t, len("tensor("))
        if not ts.PRINT_OPTS.edgeitems:
            suffixes.append(f"size={tuple(t.shape)}")
        if t.dtype not in (default, default_complex, torch.int64, torch.bool):
            suffixes.append(f"dtype={t.dtype}")
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    out = ts._add_suffixes("tensor(" + body, suffixes, len("tensor("), force_newline=False)
    return out.replace("torch.", "tensorviz.")


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_device_suffix(name):
    rng = np.random.default_rng(11)
    for shape in [(), (3,), (17,), (2, 3), (0,), (0, 4), (25, 40)]:
        arr = random_array(rng, name, shape, "mixed")
        dt = _dtypes.from_numpy_dtype(arr.dtype)
        for device in ["cuda:0", "cuda:1"]:
            assert tensor_repr(arr, dt, device) == _torch_expected_on(arr, device)
            assert tensor_repr(arr, dt, device, requires_grad=True) == \
                _torch_expected_on(arr, device, requires_grad=True)
    assert tensor_repr(np.array([1.0, 2.0]), _dtypes.float64, "cuda:0") == \
        "tensor([1., 2.], device='cuda:0', dtype=tensorviz.float64)"
    assert tensor_repr(np.array([1.0, 2.0], np.float32), _dtypes.float32, "cpu") == \
        "tensor([1., 2.])"


def test_device_suffix_wraps_with_linewidth():
    set_printoptions(linewidth=30)
    torch.set_printoptions(linewidth=30)
    arr = np.arange(12, dtype=np.int16).reshape(3, 4)
    assert tensor_repr(arr, _dtypes.int16, "cuda:0", requires_grad=True) == \
        _torch_expected_on(arr, "cuda:0", requires_grad=True)


@pytest.mark.parametrize("name", FLOATS + COMPLEXES)
def test_autograd_suffixes(name):
    rng = np.random.default_rng(5)
    for shape in [(), (4,), (3, 25), (0, 3), (2000,)]:
        arr = random_array(rng, name, shape, "normal")
        check(arr, requires_grad=True)
        t = torch.from_numpy(arr.copy()).requires_grad_() * 2
        dt = _dtypes.from_numpy_dtype(arr.dtype)
        values = t.detach().numpy()
        assert tensor_repr(values, dt, grad_fn="MulBackward0") == \
            repr(t).replace("torch.", "tensorviz.")


# ---------------------------------------------------------------- large tensors
class _DeviceArray:
    """Stands in for a CuPy array: sliceable, but refuses implicit conversion."""

    def __init__(self, arr: np.ndarray):
        self._arr = arr
        self.shape = arr.shape
        self.ndim = arr.ndim

    def __getitem__(self, key):
        return _DeviceArray(self._arr[key])

    def __array__(self, *args, **kwargs):
        raise TypeError("implicit device-to-host copy")


@pytest.mark.parametrize("shape", [(10**8,), (10**4, 10**4), (100, 100, 100, 100),
                                   (40, 40, 40, 40, 40), (1000, 10, 10000)], ids=str)
def test_huge_tensor_prints_by_copying_only_its_edges(shape):
    m = shape[-1] if shape[-1] <= 10**4 else 1
    scale = 10.0 ** (np.arange(m) % 6 - 3)
    row = (np.random.default_rng(2).standard_normal(m) * scale).astype(np.float32)
    values = np.broadcast_to(row, shape)  # zero strides: never materialized
    copied = []

    def to_host(x):
        copied.append(x._arr.size)
        return np.array(x._arr)

    got = tensor_repr(_DeviceArray(values), _dtypes.float32, to_host=to_host)
    assert sum(copied) <= 6 ** len(shape)  # (bounded work: only the printed edges are read)
    expected = repr(torch.from_numpy(row.copy()).expand(shape)).replace("torch.",
                                                                         "tensorviz.")
    assert got == expected


def test_summarized_random_large_tensor():
    rng = np.random.default_rng(1)
    for name in DTYPE_NAMES:
        for kind in ["normal"] if name == "bool" else ["mixed", "special", "integral"]:
            check(random_array(rng, name, (100, 101), kind))
            check(random_array(rng, name, (3, 7, 50), kind))


@pytest.mark.parametrize("make", [
    "T.tensor(2.5)", "T.tensor([1.5, 2.0])", "T.nn.Parameter(T.tensor(2.5))",
    "T.nn.Parameter(T.ones(2, 2))", "T.tensor(3, dtype=T.int64)",
    "T.empty((), device='meta')", "T.ones(2, requires_grad=True) * 2"])
@pytest.mark.parametrize("spec", ["", ".2f", ">20"])
def test_str_and_format_match_pytorch(make, spec):
    """``str``, ``f"{t}"`` and ``format(t, spec)`` as PyTorch: a plain 0-d tensor formats its
    number; a Parameter prints "Parameter containing:" in str() too and takes no spec."""
    import tensorviz

    def run(T):
        t = eval(make, {"T": T})
        try:
            formatted = format(t, spec)
        except TypeError as e:
            formatted = (TypeError, str(e))
        return str(t).replace("torch.", "tensorviz."), formatted
    assert run(tensorviz) == run(torch)
