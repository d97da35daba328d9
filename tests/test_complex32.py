"""complex32 (PyTorch's ComplexHalf) against PyTorch: the dtype, creation, conversion, views,
printing, and every op of the inventory with complex32 operands.

PyTorch 2.13 runs only some ops on ComplexHalf tensors (CPU); the sweep over the op
inventory (tests/inventory.py, complex64 samples turned complex32 in both libraries) checks
that tensorviz runs the same ones with PyTorch's dtypes and values (complex64 math rounded
part by part to float16) and refuses the others with PyTorch's exception and message: a
new op is checked here as soon as it has an inventory entry.
"""
from __future__ import annotations

import itertools
import pickle
import warnings

import numpy as np
import pytest

import tensorviz as tv
from tv_core_conftest import host, same

torch = pytest.importorskip("torch")

try:
    from tests import inventory as inv
except ImportError:  # (tests/ is on sys.path when the repository root is not)
    import inventory as inv

HALF_TOL = 2e-3  # (float16's resolution: one rounding of each part apart at most)

# Naming the dtype switches tensorviz's complex32 gate on (see tensorviz._chalf): a program
# names it before it calls an op with it, and so does this module.
C32 = tv.complex32


def _name(d) -> str:
    return str(d).split(".")[-1]


def _chalf(lib, x):
    """``x`` with every complex64 tensor in it (lists, tuples, dicts too) as complex32."""
    if isinstance(x, (tv.Tensor, torch.Tensor)) and _name(x.dtype) == "complex64":
        return x.to(lib.complex32)
    if isinstance(x, (list, tuple)):
        return type(x)(_chalf(lib, v) for v in x)
    if isinstance(x, dict):
        return {k: _chalf(lib, v) for k, v in x.items()}
    return x


def _outcome(f, error=RuntimeError):
    """``f()``'s values as a string, or the message of the ``error`` it raised."""
    try:
        return repr(f().tolist())
    except error as e:
        return str(e)


def _has_chalf(x) -> bool:
    if isinstance(x, (tv.Tensor, torch.Tensor)):
        return _name(x.dtype) == "complex32"
    if isinstance(x, (list, tuple)):
        return any(_has_chalf(v) for v in x)
    if isinstance(x, dict):
        return any(_has_chalf(v) for v in x.values())
    return False


def _run(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn()
        except Exception as e:  # noqa: BLE001 - compared with PyTorch's
            return e


def _values(t) -> np.ndarray:
    if _name(t.dtype) == "bfloat16":  # (NumPy holds no PyTorch bfloat16: exact as float32)
        t = t.float()
    return host(t)


def assert_same(mine, theirs, where, values: bool = True) -> None:
    """The same exception (type; message where PyTorch's names ComplexHalf or Half), or
    results of the same structure, dtype, shape and values (float16's tolerance)."""
    if isinstance(theirs, Exception) or isinstance(mine, Exception):
        assert type(mine) is type(theirs), (where, mine, theirs)
        if "Half" in str(theirs):
            assert str(mine) == str(theirs), (where, mine, theirs)
        return
    if isinstance(theirs, torch.Tensor):
        assert isinstance(mine, tv.Tensor), (where, mine)
        assert _name(mine.dtype) == _name(theirs.dtype), (where, mine.dtype, theirs.dtype)
        assert tuple(mine.shape) == tuple(theirs.shape), (where, mine.shape, theirs.shape)
        if values:
            a, b = _values(mine), _values(theirs)
            if a.dtype.kind in "fc":
                assert np.allclose(a, b, rtol=HALF_TOL, atol=HALF_TOL, equal_nan=True), \
                    (where, a, b)
            else:
                assert np.array_equal(a, b), (where, a, b)
        return
    if isinstance(theirs, (list, tuple)):
        assert isinstance(mine, (list, tuple)) and len(mine) == len(theirs), (where, mine)
        for x, y in zip(mine, theirs):
            assert_same(x, y, where, values)
        return
    if isinstance(theirs, (bool, int, float, complex)):
        assert type(mine) is type(theirs), (where, mine, theirs)
        if values:
            assert mine == pytest.approx(theirs, rel=HALF_TOL, abs=HALF_TOL, nan_ok=True), \
                (where, mine, theirs)


# ---------------------------------------------------------------- the dtype
def test_dtype_object_matches_pytorch():
    d, p = tv.complex32, torch.complex32
    assert tv.chalf is d and repr(d) == repr(p).replace("torch.", "tensorviz.")
    assert (d.itemsize, d.is_complex, d.is_floating_point, d.is_signed) == \
        (p.itemsize, p.is_complex, p.is_floating_point, p.is_signed)
    assert d.to_real() is tv.float16 and tv.float16.to_complex() is d and d.to_complex() is d
    assert pickle.loads(pickle.dumps(d)) is d
    f, g = tv.finfo(d), torch.finfo(p)
    for attr in ("bits", "eps", "max", "min", "tiny", "resolution", "dtype"):
        assert getattr(f, attr) == getattr(g, attr), attr
    assert repr(f) == repr(g)
    assert tv.tensor([1j], dtype=d).type() == torch.tensor([1j], dtype=p).type().replace(
        "torch.", "tensorviz.")


def test_import_pays_nothing_until_a_complex32_array_is_made():
    import subprocess
    import sys
    code = ("import tensorviz as t, tensorviz._chalf as c; a = t.ones(3) + 1; "
            "print(c.active(), t.complex32.itemsize); z = t.zeros(2, dtype=t.complex32); "
            "print(c.active(), (z + 1).dtype)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.stdout.split() == ["False", "4", "True", "tensorviz.complex32"], run.stderr


# ---------------------------------------------------------------- creation and conversion
CREATIONS = {
    "zeros": lambda L: L.zeros(2, 3, dtype=L.complex32),
    "ones": lambda L: L.ones(2, dtype=L.complex32),
    "full": lambda L: L.full((2,), 1.5 - 2j, dtype=L.complex32),
    "full_big": lambda L: L.full((2,), 70000 + 1j, dtype=L.complex32),
    "full_big_one": lambda L: L.full((1,), 1e5, dtype=L.complex32),
    "setitem_big": lambda L: L.zeros(2, dtype=L.complex32).index_fill_(0, L.tensor([0]), 1e5j),
    "windows_trivial": lambda L: (L.hann_window(1, dtype=L.complex32),
                                  L.kaiser_window(0, dtype=L.complex32)),
    "empty": lambda L: L.empty(3, dtype=L.complex32).shape,
    "tensor": lambda L: L.tensor([[0.1 + 0.2j, 3], [1e-6j, -65504]], dtype=L.complex32),
    "tensor_0d": lambda L: L.tensor(1 + 2j, dtype=L.complex32),
    "scalar_tensor": lambda L: L.scalar_tensor(2.5, dtype=L.complex32),
    "rand": lambda L: (L.rand(3, dtype=L.complex32).dtype, L.rand(3, dtype=L.complex32).shape),
    "randn": lambda L: L.randn(2, 2, dtype=L.complex32).stride(),
    "zeros_like": lambda L: L.zeros_like(L.ones(2), dtype=L.complex32),
    "complex": lambda L: L.complex(L.tensor([1.5, -0.1], dtype=L.float16),
                                   L.tensor([2, 1e-3], dtype=L.float16)),
    "polar": lambda L: L.polar(L.ones(2, dtype=L.float16), L.ones(2, dtype=L.float16)),
    "half_times_1j": lambda L: L.tensor([1.5, 0.1], dtype=L.float16) * 1j,
    "half_plus_0d": lambda L: L.tensor([1.5, 0.1], dtype=L.float16) + L.tensor(0.3j),
    "half_div_1j": lambda L: L.tensor([1.5, 0.1], dtype=L.float16) / 1j,
    "half_lt_0d": lambda L: L.tensor([1.5], dtype=L.float16) < L.tensor(0.3j),
    "to": lambda L: L.tensor([1.7, -2.2, 1e5]).to(L.complex32),
    "chalf": lambda L: L.tensor([1 + 1e-4j, 2 ** 16]).chalf(),
    "from_int": lambda L: L.tensor([3, -7, 2049]).to(L.complex32),
    "from_bool": lambda L: L.tensor([True, False]).to(L.complex32),
    "from_c128": lambda L: L.tensor([1 / 3 + 2 / 3j], dtype=L.complex128).to(L.complex32),
}
for _k, _kernel in (("arange", "arange"), ("linspace", "linspace"), ("eye", "eye"),
                    ("randint", "randint"), ("randperm", "randperm"),
                    ("hann_window", "hann_window"), ("tril_indices", "tril_indices")):
    CREATIONS[_k] = {
        "arange": lambda L: L.arange(3, dtype=L.complex32),
        "linspace": lambda L: L.linspace(0, 1, 3, dtype=L.complex32),
        "eye": lambda L: L.eye(2, dtype=L.complex32),
        "randint": lambda L: L.randint(0, 3, (2,), dtype=L.complex32),
        "randperm": lambda L: L.randperm(3, dtype=L.complex32),
        "hann_window": lambda L: L.hann_window(3, dtype=L.complex32),
        "tril_indices": lambda L: L.tril_indices(3, 3, dtype=L.complex32),
    }[_kernel]


@pytest.mark.parametrize("name", list(CREATIONS))
def test_creation_matches_pytorch(name):
    f = CREATIONS[name]
    assert_same(_run(lambda: f(tv)), _run(lambda: f(torch)), name,
                values=name not in ("rand", "randn"))


CONVERSIONS = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
               "float64", "bfloat16", "complex32", "complex64", "complex128"]


@pytest.mark.parametrize("dtype", CONVERSIONS)
def test_conversions_both_ways_match_pytorch(dtype):
    data = [1.5 + 2j, -0.1 - 3.25j, 0, 65504 + 1j, float("inf"), 7 - 0j]
    for lib_t in ("to", "type"):
        def f(L, how=lib_t):
            z = L.tensor(data, dtype=L.complex32)
            out = z.to(getattr(L, dtype)) if how == "to" else z.type(getattr(L, dtype))
            back = out.to(L.complex32)
            return out, back, L.zeros(2, dtype=getattr(L, dtype)).copy_(z[:2])
        assert_same(_run(lambda: f(tv)), _run(lambda: f(torch)), (dtype, lib_t))


def test_python_values_match_pytorch():
    for f in (lambda L: L.tensor([1 + 2j, 3.25 - 1j], dtype=L.complex32).tolist(),
              lambda L: L.tensor(0.1 + 2j, dtype=L.complex32).item(),
              lambda L: complex(L.tensor(0.1 + 2j, dtype=L.complex32)),
              lambda L: float(L.tensor(2 + 0j, dtype=L.complex32)),
              lambda L: int(L.tensor(2.7 + 0j, dtype=L.complex32)),
              lambda L: bool(L.tensor(0j, dtype=L.complex32)),
              lambda L: L.tensor([1j], dtype=L.complex32).numpy()):
        assert_same(_run(lambda: f(tv)), _run(lambda: f(torch)), f)


# ---------------------------------------------------------------- views and storage
@pytest.mark.parametrize("dtype", ["float16", "int16", "uint8", "int32", "float32",
                                   "complex64", "bool"])
def test_bit_views_match_pytorch(dtype):
    def f(L):
        z = L.tensor([[1 + 2j, -3.5 + 0.25j], [65504j, -0.0 - 1j]], dtype=L.complex32)
        v = z.view(getattr(L, dtype))
        back = v.view(L.complex32) if v.dim() else None
        return v, back, (v.shape, v.stride(), z.untyped_storage().nbytes(), z.nbytes,
                         z.element_size())
    assert_same(_run(lambda: f(tv)), _run(lambda: f(torch)), dtype)


def test_view_as_real_and_complex_share_memory_as_pytorch():
    def f(L):
        z = L.tensor([[1 + 2j, -3.5 + 0.25j, 4]], dtype=L.complex32)
        r = L.view_as_real(z)
        r[0, 1, 1] = 7.0  # (written through to z)
        c = L.view_as_complex(L.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=L.float16))
        return z, r, r.stride(), c, z.real, z.imag, z.t().shape, z.conj().is_conj(), \
            L.view_as_complex(r[0]), _run(lambda: L.view_as_real(z.conj()))
    assert_same(_run(lambda: f(tv)), _run(lambda: f(torch)), "views")


def test_setitem_and_inplace_write_through_views_as_pytorch():
    def f(L):
        z = L.zeros(2, 3, dtype=L.complex32)
        z[0, 1] = 1.5 + 2j
        z[1] = L.tensor([1, 2, 3.7])
        z[:, 2] = L.tensor(0.1j)
        z.t()[0].add_(1)
        z.conj()[1, 1] = 5j
        z[0].mul_(2 - 1j)
        return z, z._version
    assert_same(_run(lambda: f(tv)), _run(lambda: f(torch)), "setitem")


# ---------------------------------------------------------------- printing
@pytest.mark.parametrize("data", [[1 + 2j, 3.25 - 1j], [1e4 + 2j, 3.25 - 1j], 1 + 2j,
                                  [[0.1 + 0.2j, 100.25]], [], [float("nan") + 1j, float("inf")],
                                  [[1 + 1j] * 5] * 3, [1e-5 + 1j, 65504]])
def test_printing_matches_pytorch(data):
    mine = repr(tv.tensor(data, dtype=tv.complex32))
    theirs = repr(torch.tensor(data, dtype=torch.complex32)).replace("torch.", "tensorviz.")
    assert mine == theirs


# ---------------------------------------------------------------- arithmetic and rounding
def test_arithmetic_rounds_each_part_as_pytorch():
    rng = np.random.default_rng(7)
    data = (rng.uniform(-3, 3, 64) + 1j * rng.uniform(-3, 3, 64)).astype(np.complex64)
    other = (rng.uniform(-3, 3, 64) + 1j * rng.uniform(-3, 3, 64)).astype(np.complex64)
    h = rng.uniform(-3, 3, 64).astype(np.float16)
    for f in (lambda L, a, b, c: a + b, lambda L, a, b, c: a - b, lambda L, a, b, c: a * b,
              lambda L, a, b, c: a * 0.37, lambda L, a, b, c: a + 0.1, lambda L, a, b, c: a * c,
              lambda L, a, b, c: c * 1j, lambda L, a, b, c: a.add(b, alpha=0.3),
              lambda L, a, b, c: L.addcmul(a, b, c, value=1.7), lambda L, a, b, c: a.abs(),
              lambda L, a, b, c: a.sgn(), lambda L, a, b, c: a.norm(),
              lambda L, a, b, c: a.var(), lambda L, a, b, c: a.std(),
              lambda L, a, b, c: L.kron(a[:5], b[:5]), lambda L, a, b, c: -a,
              lambda L, a, b, c: a.mul_(b), lambda L, a, b, c: a.add_(c),
              lambda L, a, b, c: L.isclose(a, b, rtol=0.5),
              lambda L, a, b, c: L.diff(a * 1000, n=3), lambda L, a, b, c: L.diff(a, 2, 0)):
        def run(L, f=f):
            a = L.from_numpy(data.copy()).to(L.complex32)
            b = L.from_numpy(other.copy()).to(L.complex32)
            c = L.from_numpy(h.copy())
            return f(L, a, b, c)
        mine, theirs = _run(lambda: run(tv)), _run(lambda: run(torch))
        assert_same(mine, theirs, f)
    for f in (lambda a, b, c: a + b, lambda a, b, c: a - b, lambda a, b, c: -a,
              lambda a, b, c: a * c, lambda a, b, c: c * 1j, lambda a, b, c: a + 0.1,
              lambda a, b, c: a.conj().resolve_conj(), lambda a, b, c: a.real * 1,
              lambda a, b, c: a * 0.37, lambda a, b, c: a - (0.3 + 1e-3j), lambda a, b, c: a == 0.1,
              lambda a, b, c: c * 0.37j, lambda a, b, c: c + 0.1j):
        def run(L, f=f):  # (each part one rounding of exact float math: bit for bit)
            a = L.from_numpy(data.copy()).to(L.complex32)
            b = L.from_numpy(other.copy()).to(L.complex32)
            return f(a, b, L.from_numpy(h.copy()))
        assert np.array_equal(_values(run(tv)), _values(run(torch)), equal_nan=True)


# ---------------------------------------------------------------- autograd
def test_autograd_of_complex32_leaves_matches_pytorch():
    def f(L):
        z = L.tensor([1 + 2j, -0.5 + 1j], dtype=L.complex32, requires_grad=True)
        y = (z * 2 + 1j).abs()
        y.backward(L.ones(2, dtype=L.float16))
        w = L.ones(2, dtype=L.complex32, requires_grad=True)
        (w * w).backward(L.tensor([1, 1j], dtype=L.complex32))
        return z.grad, w.grad, y.dtype, y.grad_fn is not None
    assert_same(_run(lambda: f(tv)), _run(lambda: f(torch)), "autograd")


# ---------------------------------------------------------------- every op of the inventory
def _op_names() -> list[str]:
    return list(inv.ENTRIES)


def _call(lib, e, args, kwargs, spelling="function"):
    if spelling == "inplace":
        return getattr(args[0], e.pyname + "_")(*args[1:], **kwargs), args[0]
    fn = None if e.namespace == "Tensor" else inv.lib_function(lib, e.name)
    if fn is None:
        return getattr(args[0], e.pyname)(*args[1:], **kwargs)
    return fn(*args, **kwargs)


#: Ops whose complex32 outcome differs from PyTorch's in some samples, with the reason.
KNOWN = {
    "index_reduce": "tensorviz has no complex index_reduce (complex64 neither); PyTorch's "
                    "ComplexHalf runs reduce='prod'",
    "histogram": "PyTorch checks the bins' dtype before its kernel's ComplexHalf refusal",
    "scatter_reduce": "PyTorch's kernel name depends on include_self and reduce",
    "is_non_overlapping_and_dense": "a tensorviz method PyTorch lacks (all dtypes)",
    "sum_to_size": "not in tensorviz (all dtypes)",
    "normal": "tensorviz's normal_ takes a tensor mean (all dtypes; PyTorch: TypeError)",
    "isin": "tensorviz refuses complex isin (complex64 too); PyTorch's ComplexHalf takes a "
            "real number",
}


def _with_inplace():
    for n in _op_names():
        e = inv.entry(n)
        forms = ["function"]
        if e.namespace in ("torch", "Tensor") and not e.pyname.endswith("_") and \
                callable(getattr(torch.Tensor, e.pyname + "_", None)):
            forms.append("inplace")
        for form in forms:
            marks = [pytest.mark.xfail(reason=KNOWN[n], strict=False)] if n in KNOWN else []
            yield pytest.param(n, form, id=f"{n}-{form}", marks=marks)


@pytest.mark.parametrize("name,spelling", list(_with_inplace()))
def test_every_op_takes_complex32_as_pytorch(name, spelling):
    """Each op's complex64 samples with complex32 operands: PyTorch's result (dtype, shape,
    values) or its exception and message; an in-place form's result and its ``self``."""
    e = inv.entry(name)
    values = e.compare == "values" and e.category != "random"
    checked = 0
    for s in itertools.islice(inv.samples(name, dtype="complex64", layout="contig"), 4):
        try:
            pa, pk = s.build(torch)
            ta, tk = s.build(tv)
        except Exception:  # noqa: BLE001 - a sample PyTorch cannot build: nothing to compare
            continue
        pa, pk, ta, tk = _chalf(torch, pa), _chalf(torch, pk), _chalf(tv, ta), _chalf(tv, tk)
        if not (_has_chalf(pa) or _has_chalf(pk)):
            continue
        theirs = _run(lambda: _call(torch, e, pa, pk, spelling))
        mine = _run(lambda: _call(tv, e, ta, tk, spelling))
        assert_same(mine, theirs, (name, s), values=values)
        checked += 1
    if checked == 0:
        pytest.skip("no sample of this op takes a complex tensor")


def test_the_op_lists_name_only_registered_ops():
    """Every name in the complex32 tables is an op or an alias the registry knows."""
    from tensorviz import _chalf, _dispatch
    known = set()
    for rec in _dispatch.registry().values():
        known.update(_dispatch._chalf_names(rec))
    tables = set(_chalf.COMPUTED) | set(_chalf.REFUSED) | set(_chalf.CONDITIONS) | \
        set(_chalf.DTYPE_REFUSED)
    inplace_forms = {n for n in tables if n.endswith("_") and n[:-1] in known}
    assert sorted(tables - known - inplace_forms - set(_chalf.NATIVE) - {"sum_to_size"}) == []


DTYPE_ARG = {
    "sum": lambda L, x: x.sum(dtype=L.complex32),
    "sum_dim": lambda L, x: L.sum(x, 0, dtype=L.complex32),
    "mean": lambda L, x: x.mean(dtype=L.complex32),
    "prod": lambda L, x: x.prod(dtype=L.complex32),
    "cumsum": lambda L, x: x.cumsum(0, dtype=L.complex32),
    "cumprod_0d": lambda L, x: x[0].cumprod(0, dtype=L.complex32),
    "softmax": lambda L, x: x.softmax(0, dtype=L.complex32),
    "zeros_like": lambda L, x: L.zeros_like(x, dtype=L.complex32),
    "full_like": lambda L, x: L.full_like(x, 2.5 - 1j, dtype=L.complex32),
    "new_ones": lambda L, x: x.new_ones(2, dtype=L.complex32),
    "rand_like": lambda L, x: L.rand_like(x, dtype=L.complex32).shape,
    "sum_of_complex32": lambda L, x: x.to(L.complex32).sum(dtype=L.complex64),
    "mean_of_complex32": lambda L, x: x.to(L.complex32).mean(dtype=L.complex128),
}


@pytest.mark.parametrize("name", list(DTYPE_ARG))
def test_dtype_complex32_arguments_match_pytorch(name):
    f = DTYPE_ARG[name]
    data = [1.5, -0.25, 3.0]
    mine = _run(lambda: f(tv, tv.tensor(data)))
    theirs = _run(lambda: f(torch, torch.tensor(data)))
    assert_same(mine, theirs, name)


@pytest.mark.parametrize("other_dtype", ["int32", "int64", "float16", "uint8", "bool"])
def test_arithmetic_converts_real_operands_to_complex32_first(other_dtype):
    """add/sub/mul/addcmul of complex32 with a real tensor convert it to complex32 first, as
    PyTorch's TensorIterator casts its inputs: an int32 2147483646 becomes inf, so
    ``x - (-0.0) * it`` is NaN, and float16's 65504 stays finite; bool operands keep sub's
    refusal."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x = T.tensor([4 + 0j, 3 + 1j, -2.5 - 2j], dtype=T.complex32)
            big = {"int32": 2147483646, "int64": 2**40, "float16": 65504.0, "uint8": 255,
                   "bool": True}[other_dtype]
            o = T.tensor([1, big, 0]).to(getattr(T, other_dtype))
            row = []
            for f in (lambda: T.sub(x, o, alpha=-0.0), lambda: x.clone().sub_(o, alpha=-0.0),
                      lambda: T.mul(x, o), lambda: x.clone().mul_(o),
                      lambda: T.addcmul(x, o, x, value=0)):
                # (add of an infinite operand: PyTorch's a + alpha * b makes inf+nan j of
                # what C99 keeps inf+1j, a deliberate difference: see tensorviz.ops)
                row.append(_outcome(f))
        got.append(row)
    assert got[0] == got[1]


@pytest.mark.parametrize("other_dtype", ["float32", "float64", "complex64", "float16", "int32"])
def test_inplace_ops_on_complex32_compute_in_the_promoted_dtype(other_dtype):
    """``z.add_(o, alpha=-inf)`` with a float32 ``o``: complex32 and float32 promote to
    complex64, so PyTorch computes in complex64 and rounds into ``z`` (``-1e-30`` stays
    non-zero: ``inf+nan j``); only operands that promote to complex32 are converted first."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            z = T.tensor([-0.0 + 0j, 1 + 2j, 65504 - 1j], dtype=T.complex32)
            o = T.tensor([-1e-30, 3e-8, 2.0] if other_dtype != "int32" else [1, 2147483646, 3])
            o = o.to(getattr(T, other_dtype))
            row = []
            for f in (lambda: z.clone().add_(o, alpha=-float("inf")),
                      lambda: z.clone().sub_(o, alpha=1e30), lambda: z.clone().mul_(o),
                      lambda: z.clone().addcmul_(o, o, value=-1e30)):
                row.append(_outcome(f))  # (1e30 past complex32's range: refused there)
        got.append(row)
    assert got[0] == got[1]


@pytest.mark.parametrize("seed", range(3))
def test_alpha_and_value_round_at_each_step_as_pytorch(seed):
    """PyTorch's ComplexHalf add/sub/rsub with alpha and addcmul compute each operation in
    complex<float> and round it to complex32 (``a + round(alpha * b)``, ``self +
    round(round(value * t1) * t2)``): bit for bit over random values, broadcasting, in place."""
    rng = np.random.default_rng(seed)

    def draw(*shape):
        return rng.normal(size=shape) * 30 + 1j * rng.normal(size=shape) * 30
    z, w, u = draw(4, 50), draw(50), draw(4, 1)
    alpha = [0.3, -2.5, 1e-3][seed]
    got = []
    for T in (tv, torch):
        a, b, c = (T.tensor(v, dtype=T.complex32) for v in (z, w, u))
        h = T.tensor(w.real, dtype=T.float16)
        rows = [T.add(a, b, alpha=alpha), T.sub(a, b, alpha=alpha), T.rsub(a, c, alpha=alpha),
                a.clone().add_(b, alpha=alpha), a.clone().sub_(h, alpha=alpha),
                T.addcmul(a, b, c, value=alpha), T.addcmul(a, h, c),
                a.clone().addcmul_(c, b, value=alpha), T.add(a, 1.5 + 0.1j, alpha=alpha)]
        got.append([np.array(r.tolist()) for r in rows])
    for k, (mine, theirs) in enumerate(zip(*got)):
        np.testing.assert_array_equal(mine, theirs, err_msg=f"row {k}")


@pytest.mark.parametrize("zero_dim", ["complex128", "complex64"])
def test_0_dim_complex_operands_become_complex32_first(zero_dim):
    """A 0-dim complex64/complex128 tensor beside a dimensioned float16 or complex32 one
    gives complex32: PyTorch converts it to complex32 (each part rounded) before computing,
    and ``where`` takes both of its parts (a NumPy cast to the stored pair would copy the
    real part into both)."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = T.tensor(-0.9731 + 0.0419j, dtype=getattr(T, zero_dim))
            f = T.tensor([0.5, -0.0, 65504.0], dtype=T.float16)
            c = T.tensor([1 + 2j, 3 - 1j, 0.5j], dtype=T.complex32)
            t = T.tensor([True, False, True])
            rows = [T.where(t, a, f), T.where(t, f, a), T.where(t, a, c), a + f, f - a, a * f,
                    T.add(f, a, alpha=2), T.sub(c, a, alpha=-1), a * c, c + a,
                    c.clone().add_(a), c.clone().mul_(a), T.rsub(a, c), c.masked_fill(t, a),
                    T.eq(a, c), T.ne(f, a)]
        got.append([(str(r.dtype).rpartition(".")[2], r.tolist()) for r in rows])
    assert got[0] == got[1]


@pytest.mark.parametrize("fn", ["hstack", "vstack", "dstack", "column_stack", "row_stack"])
def test_stacking_promotes_0_dim_inputs_as_dimensioned(fn):
    """hstack/vstack/dstack/column_stack make every input at least 1-D first: a 0-dim
    complex64 beside a complex32 tensor gives complex64 (block_diag keeps the 0-dim rule)."""
    got = []
    for T in (tv, torch):
        a = T.tensor(-2.5 - 2j, dtype=T.complex64)
        b = T.tensor([1j], dtype=T.complex32)
        h = T.tensor(1.0, dtype=T.float16)
        got.append([(str(r.dtype).rpartition(".")[2], r.tolist()) for r in (
            getattr(T, fn)([a, b]), getattr(T, fn)([b, h]), T.block_diag(a, b))])
    assert got[0] == got[1]


def _layouts(T, dt):
    """(2, 3) operands of ``dt`` in several layouts: contiguous, transposed, expanded from
    one element, a column or a row, and stepped."""
    b = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).to(getattr(T, dt))
    return [b, T.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).to(getattr(T, dt)).t(),
            b[:1, :1].expand(2, 3), b[:, :1].expand(2, 3), b[:1].expand(2, 3),
            T.arange(12.0).reshape(2, 6).to(getattr(T, dt))[:, ::2]]


@pytest.mark.parametrize("dtypes", [("complex32", "complex64"), ("complex32", "float32"),
                                    ("complex64", "complex32"), ("complex32", "complex128"),
                                    ("complex32", "complex32"), ("float16", "complex32")])
def test_expanded_complex32_operands_lay_results_out_as_pytorch(dtypes):
    """An op computing in another dtype than complex32 first copies a complex32 operand with
    ``x.to(dtype)``: an expanded one takes part in the result's layout as that dense copy
    (``logical_xor(t, z.expand(1, 2))`` with ``t`` (1, 2) of strides (1, 1) is laid out
    (2, 1), also into a resized ``out=``); complex32 results keep the operands' own layout."""
    ops = [lambda T, a, b: T.add(a, b), lambda T, a, b: a * b, lambda T, a, b: T.sub(a, b),
           lambda T, a, b: T.logical_xor(a, b), lambda T, a, b: T.eq(a, b),
           lambda T, a, b: T.logical_and(a, b), lambda T, a, b: T.div(a, b),
           lambda T, a, b: T.where(T.ones(2, 3, dtype=T.bool), a, b)]
    got = []
    for T in (tv, torch):
        row = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for f, a, b in itertools.product(ops, _layouts(T, dtypes[0]), _layouts(T, dtypes[1])):
                try:
                    r = f(T, a, b)
                    row.append((tuple(r.shape), r.stride(), str(r.dtype).rpartition(".")[2]))
                except RuntimeError as e:
                    row.append(str(e))
            z = T.tensor([[complex(2.0, 0.0)], [complex(0.0, 0.5)]], dtype=T.complex64).conj()
            e = T.tensor([[complex(-1.0, -2.0)]], dtype=T.complex32).expand((1, 2))
            T.logical_xor(T.adjoint(z), e, out=z)
            row.append((tuple(z.shape), z.stride(), z.is_conj(), z.tolist()))
        got.append(row)
    assert got[0] == got[1]
@pytest.mark.parametrize("other_dtype", ["int32", "int64", "float16", "bool"])
def test_products_comparisons_and_dist_convert_real_operands_first(other_dtype):
    """kron, outer, ger (PyTorch's mul), eq, ne and dist (the norm of a sub) of complex32
    with a real tensor convert it to complex32 first: an int32 70000 is inf there, so
    0 * it is NaN, 1e-4 * it inf, and inf == it; dist refuses a bool operand as sub does."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x = T.tensor([float("inf") + 0j, 0j, 1e-4 + 0j, 1 + 1j], dtype=T.complex32)
            big = {"int32": 70000, "int64": 2**63 - 2, "float16": 65504.0, "bool": True}
            o = T.tensor([big[other_dtype], 3, 0, 1]).to(getattr(T, other_dtype))
            row = []
            for f in (lambda: T.kron(x, o), lambda: T.outer(x, o), lambda: T.ger(o, x),
                      lambda: T.eq(x, o), lambda: T.ne(o, x), lambda: x == o[0],
                      lambda: T.dist(x, o), lambda: T.dist(o, x, float("inf")),
                      lambda: T.dist(x, o, 0), lambda: T.eq(x, 70000), lambda: x * 70000,
                      lambda: o.clone().ne_(x), lambda: o.clone().eq_(x)):
                row.append(_outcome(f))
        got.append(row)
    assert got[0] == got[1]


@pytest.mark.parametrize("seed", range(4))
def test_results_of_strided_complex32_operands_are_laid_out_as_pytorch(seed):
    """An op computed as complex32 reads its operands in place in PyTorch (no copy): a
    strided, transposed or conjugated complex32 operand takes part in the result's layout
    with its own strides (a (1, 3) sum of x.H and y[..., ::2] has strides (1, 1)); one
    computed in complex64 reads each complex32 operand's dense copy."""
    views = [lambda t: t[:, ::2], lambda t: t[:, 1::2], lambda t: t.t()[::2].t(),
             lambda t: t[::2], lambda t: t[1:3], lambda t: t.conj()[:, :3],
             lambda t: t[:, :3], lambda t: t[:1].expand(4, 6)[:, ::2], lambda t: t[:1, ::2],
             lambda t: t[:3, :1].mT, lambda t: t[:3, 2:3].H, lambda t: t[2:3, 1::2]]
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            base = T.arange(48, dtype=T.float32).reshape(4, 12).view(T.complex64)
            base = base.to(T.complex32)
            rows = []
            r2 = np.random.default_rng(seed)
            for _ in range(16):
                f, g = (views[k] for k in r2.integers(len(views), size=2))
                a, b = f(base), g(base)
                try:
                    shape = T.broadcast_shapes(a.shape, b.shape)
                except RuntimeError:
                    continue
                for op in (lambda: a + b, lambda: a * b, lambda: T.sub(a, b, alpha=2),
                           lambda: a == b, lambda: T.where(a.real > 4, a, b),
                           lambda: a + T.zeros(1, dtype=T.float32),  # (computed in complex64:
                           lambda: T.pow(b.real.bfloat16(), a)):  # each operand's copy)
                    r = op()
                    rows.append((tuple(r.shape), r.stride(), str(r.dtype).split(".")[-1]))
            got.append(rows)
    assert got[0] == got[1]


def test_values_converted_to_complex32_are_checked_as_pytorch():
    """where's numbers, add's alpha and a 0-dim tensor value of masked_fill / index_fill
    are converted to complex32 with PyTorch's overflow check (65519 does not fit);
    inf and NaN are stored as they are."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x = T.tensor([float("inf") + 0j, 1 + 1j], dtype=T.complex32)
            c = T.tensor([True, False])
            row = []
            for f in (lambda: T.where(c, x, 70000), lambda: T.where(c, 1e5j, x),
                      lambda: x.where(c, 65519.0), lambda: T.where(c, x, float("nan")),
                      lambda: T.where(c, x, 65504.0), lambda: T.add(x, x, alpha=70000),
                      lambda: T.sub(x, x, alpha=2.0),
                      lambda: x.masked_fill(c, T.tensor(70000)),
                      lambda: x.masked_fill(c, T.tensor(1e5j)),
                      lambda: x.masked_fill(c, T.tensor(-2.5)),
                      lambda: x.index_fill(0, T.tensor([1]), T.tensor(1e5)),
                      lambda: x.index_fill(0, T.tensor([1]), 3)):
                row.append(_outcome(f))
        got.append(row)
    assert got[0] == got[1]


@pytest.mark.parametrize("make", [
    lambda T: T.full((2**40,), float("inf"), dtype=T.complex32),
    lambda T: T.zeros((2**40,), dtype=T.complex32),
    lambda T: T.full((2**40,), 1j, dtype=T.complex32),
    lambda T: T.zeros(1, dtype=T.complex32).expand(2**40).contiguous(),
    lambda T: T.zeros(1, dtype=T.complex32).expand(2**40).to(T.complex64),
    lambda T: T.full((2**61,), 1.0, dtype=T.complex32),
], ids=["full", "zeros", "full-complex", "contiguous", "to-complex64", "past-address-space"])
def test_an_allocation_no_memory_holds_is_pytorchs_error(make):
    """A complex32 tensor (or its complex64 copy) no memory can hold raises PyTorch's
    allocator RuntimeError with its byte count (or its storage-size error past the address
    space), never NumPy's MemoryError or ValueError."""
    errors = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(RuntimeError) as info:
                make(T)
        errors.append(str(info.value))
    mine, theirs = errors
    if "overflowed" in theirs:
        assert mine == theirs
    else:
        key = theirs[theirs.index("DefaultCPUAllocator"):theirs.index(" bytes") + 6]
        assert key in mine, (mine, theirs)


@pytest.mark.parametrize("seed", range(6))
def test_trapezoid_rounds_complex32_steps_as_pytorchs_composite(seed):
    """trapezoid / trapz / cumulative_trapezoid of complex32 samples (or spacings) are
    PyTorch's composites: y[1:] + y[:-1] and diff(x) of complex32 are rounded to complex32
    (65504 + 65504 is inf) before a float32/float64/complex64 operand promotes the rest;
    where the result stays complex32 its sum/cumsum kernel refuses, after the shape checks."""
    rng = np.random.default_rng(seed)
    shape = tuple(int(n) for n in rng.integers(1, 4, size=int(rng.integers(1, 3))))
    parts = rng.choice([0.1, -2.5, 3.0, 0.3, 60000.0, -65504.0, 65504.0, 1e-3], size=shape + (2,))
    y = parts[..., 0] + 1j * parts[..., 1]
    n = shape[-1]
    xv = rng.choice([0.5, 4.0, -1.25, 3e4, 1e-4], size=n) + 1j * rng.choice([0.0, 1.0, 7e4], n)
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yc = T.tensor(y, dtype=T.complex64).to(T.complex32)
            xs = [T.tensor(xv.real, dtype=dt) for dt in (T.float32, T.float64, T.float16,
                                                         T.int64)]
            xs += [T.tensor(xv, dtype=T.complex64), T.tensor(xv, dtype=T.complex64).to(
                T.complex32), T.tensor(2.0), T.tensor(xv.real, dtype=T.float32)[None]]
            row = []
            for fn in (T.trapezoid, T.trapz, T.cumulative_trapezoid):
                calls = [lambda x=x: fn(yc, x) for x in xs] + \
                    [lambda x=x: fn(yc.real.float(), x) for x in xs[4:6]] + \
                    [lambda: fn(yc), lambda: fn(yc, dx=0.5), lambda: fn(yc, dim=0)]
                for f in calls:
                    try:
                        r = f()
                        row.append((str(r.dtype).rpartition(".")[2], repr(r.tolist())))
                    except (RuntimeError, NotImplementedError, IndexError) as e:
                        row.append((type(e).__name__, str(e)))
        got.append(row)
    assert got[0] == got[1]


@pytest.mark.parametrize("other_dtype", ["complex64", "complex64-0-dim", "float16", "int64"])
def test_ops_requiring_equal_dtypes_refuse_a_mixture_as_pytorch(other_dtype):
    """isclose, masked_scatter, index_put, lerp, index_add, index_copy, put_, scatter,
    index_reduce require equal dtypes: complex32 beside complex64 (or float16, int64) gets
    PyTorch's mismatch error, not a complex64 result nor the ComplexHalf kernel refusal."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = T.tensor([1 + 2j, 3 - 1j], dtype=T.complex32)
            dt = getattr(T, other_dtype.partition("-")[0])
            o = T.tensor([1 + 2j, 0.5j]) if dt.is_complex else T.tensor([1, 2]).to(dt)
            o = o[0] if other_dtype.endswith("0-dim") else o
            m, i, o1 = T.tensor([True, False]), T.tensor([0]), o.reshape(-1)[:1]
            row = []
            for f in (lambda: T.isclose(a, o), lambda: T.isclose(o, a),
                      lambda: T.allclose(a, o), lambda: a.clone().masked_scatter_(m, o.expand(2)),
                      lambda: a.masked_scatter(m, o.expand(2)),
                      lambda: a.clone().index_put_((i,), o1), lambda: a.index_put((i,), o1),
                      lambda: T.lerp(a, o, 0.5), lambda: T.lerp(o, a, 0.5),
                      lambda: a.index_add(0, i, o1), lambda: a.index_copy(0, i, o1),
                      lambda: o.reshape(-1).clone().index_copy_(0, i, a[:1]),
                      lambda: a.clone().put_(i, o1), lambda: a.scatter(0, i, o1),
                      lambda: a.index_reduce(0, i, o1, "prod"),
                      lambda: T.isclose(a, a), lambda: a.index_put((i,), a[:1]),
                      lambda: a.index_reduce(0, i, a[1:], "prod")):
                try:
                    r = f()
                    row.append(repr(r.tolist() if isinstance(r, (tv.Tensor, torch.Tensor))
                                    else r))
                except (RuntimeError, NotImplementedError) as e:
                    row.append((type(e).__name__, str(e)))
        got.append(row)
    assert got[0] == got[1]


@pytest.mark.parametrize("eq", [
    "i,j->ij", "i,i->i", "i,i->", "i->", "ij->ji", "ij,j->ij", "ij,j->i", "ij,jk->ik",
    "ii->i", "ij,k->ijk", "i,j", "i,i", "ba", "ij,k->k", "ij,j->j", "ii,i->i", "i,j,k->i",
    "i,j,j->i", "i,i,i->i", "...,...->...", "i...,j...->ij...", "bi,bi->b", "ij,kl->ijkl"])
def test_einsum_of_complex32_runs_where_pytorch_needs_no_sum(eq):
    """PyTorch's einsum of complex32 runs where no dim is contracted (outer, elementwise,
    diagonal, permutation: mul only) and refuses by the first kernel it would need: sum_cpu
    for an operand's own summed dims, bmm for a contracted pair (of more than one element:
    size-1 dims are squeezed, and an empty operand makes zeros)."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = T.tensor([2 + 0.5j, 1 - 1j], dtype=T.complex32)
            m = T.tensor([[2 + 0.5j, 1 - 1j], [0.5j, 3]], dtype=T.complex32)
            ops = [m if len(t.replace("...", "")) == 2 else a
                   for t in eq.partition("->")[0].split(",")]
            row = []
            for shapes in (None, "ones", "zero"):  # (size-1 labels are squeezed, not summed;
                # an empty operand makes zeros)
                args = ops if shapes is None else [
                    T.ones([1 if shapes == "ones" else 0] * o.dim(),
                           dtype=T.complex32) for o in ops]
                try:
                    r = T.einsum(eq, *args)
                    row.append((str(r.dtype).rpartition(".")[2], r.tolist()))
                except NotImplementedError as e:
                    row.append(str(e))
        got.append(row)
    assert got[0] == got[1]


@pytest.mark.parametrize("eq", ["i,i,i->i", "i,j,i->ij", "i,j,k->kji", "ii,i,i->i",
                                "ij,i,j->ji", "i,i,i,i->i", "...,...,...->...", "i,j,k"])
def test_einsum_of_complex32_rounds_each_pairwise_product(eq):
    """Three or more complex32 operands with nothing to contract: PyTorch multiplies left to
    right, each product complex32 (300 * 300 is inf before it meets 1/300)."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            vals = [[300 + 0j, 2 + 1j], [300 + 0j, 0.5j], [1 / 300 + 0j, 3 - 1j]]
            ops = []
            for k, t in enumerate(eq.partition("->")[0].split(",")):
                v = T.tensor(vals[k % 3], dtype=T.complex64).to(T.complex32)
                ops.append(T.diag(v) if len(t) == 2 else v)
            r = T.einsum(eq, *ops)
            got.append((str(r.dtype).rpartition(".")[2], repr(r.tolist())))
    assert got[0] == got[1]


@pytest.mark.parametrize("p", [2, 1, float("inf"), 0, 3, -1, float("-inf")])
def test_dist_is_the_norm_of_the_complex32_difference(p):
    """dist of complex32 is the norm of the complex32 difference: each part rounded to
    float16 first (1.0009765625 - 0.00048828125 is 1.0; 60000 - -60000 is inf), then the
    norm computed in float32 and rounded to float16."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = T.tensor([60000, 1.0009765625 + 0.3j, 0.1], dtype=T.complex64).to(T.complex32)
            b = T.tensor([-60000, 0.00048828125, 0.2j], dtype=T.complex64).to(T.complex32)
            got.append([repr(r.item()) for r in (
                T.dist(a, b, p), T.dist(a[1:], b[1:], p), T.dist(a, T.tensor(1e-3 + 0j), p),
                T.dist(a.real.half(), b, p), T.dist(a, b.real.half(), p))])
    assert got[0] == got[1]


@pytest.mark.parametrize("seed", range(4))
def test_variance_of_complex32_adds_its_parts_float16_variances(seed):
    """var/std (and var_mean/std_mean's first result) of complex32 are PyTorch's: the
    float16 variances of the real and imaginary parts, each rounded, added in float16,
    then the square root for std (one rounding of the complex64 variance is an ulp off in
    about a third of the cases, and finite where a part's variance overflows)."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            row = []
            r = np.random.default_rng(seed)
            for scale in (1.0, 100.0, 1e4, 3e2):
                d = r.standard_normal((3, 4)) * scale + 1j * r.standard_normal((3, 4)) * scale
                x = T.tensor(d, dtype=T.complex64).to(T.complex32)
                for kw in ({}, {"dim": 1}, {"dim": 0, "correction": 0},
                           {"dim": 1, "keepdim": True}):
                    row += [repr(T.var(x, **kw).tolist()), repr(T.std(x, **kw).tolist()),
                            repr(T.var_mean(x, **kw)[0].tolist()),
                            repr(T.std_mean(x, **kw)[0].tolist()), repr(x.var(**kw).tolist())]
        got.append(row)
    assert got[0] == got[1]


@pytest.mark.parametrize("shape", [(2, 0), (0,), (0, 3), (3, 0, 2)])
def test_refused_ops_of_no_element_run_as_pytorch(shape):
    """amax/amin/mode/softmax/log_softmax/svd/svdvals/cholesky/median of a complex32 tensor
    with no element call no kernel in PyTorch: their result, or their own shape error (an
    empty reduced dim), not the ComplexHalf refusal; normal of a complex32 mean draws one
    (a complex std is refused)."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            e = T.zeros(shape, dtype=T.complex32)
            a = T.tensor([1 + 2j, 3j], dtype=T.complex32)
            row = []
            for f in (lambda: T.amax(e, 0), lambda: T.amin(e, -1), lambda: T.mode(e, 0),
                      lambda: T.softmax(e, 0), lambda: T.log_softmax(e, -1),
                      lambda: T.linalg.svdvals(e), lambda: T.linalg.svd(e),
                      lambda: T.cholesky(e), lambda: T.median(e), lambda: T.median(e, 0),
                      lambda: T.median(e, -1), lambda: T.normal(e), lambda: T.normal(a),
                      lambda: T.normal(a, 2.0), lambda: T.normal(1.0, a),
                      lambda: T.normal(a, T.ones(2)), lambda: T.normal(a, T.ones(2).double()),
                      lambda: T.median(a), lambda: T.amax(a, 0)):
                try:
                    r = f()
                    rs = r if isinstance(r, tuple) else (r,)
                    row.append([(str(x.dtype).rpartition(".")[2], tuple(x.shape))
                                for x in rs])
                except (RuntimeError, NotImplementedError, IndexError) as ex:
                    row.append((type(ex).__name__, str(ex).split(":")[0]))
        got.append(row)
    assert got[0] == got[1]


def test_equal_of_complex32_refuses_as_pytorch():
    """equal of complex32: False without a kernel for shapes that differ (other= spelled
    too); one tensor twice is PyTorch's NaN-only check (equal_notnan_cpu), else equal_cpu.
    inner with other= spelled: dot's refusal, or a product with a 0-dim operand."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = T.zeros((4, 2), dtype=T.complex32)
            b = T.ones((4, 2), dtype=T.complex32)
            row = []
            for x, y in ((a, b), (a, a), (a, a[:]), (a, b.t()), (a[:, :1], a[:, 1:])):
                for f in (lambda: T.equal(x, y), lambda: T.equal(x, other=y),
                          lambda: x.equal(other=y), lambda: T.inner(x[0], other=y[0]),
                          lambda: T.inner(x[0, 0], other=y[0]).tolist()):
                    try:
                        row.append(f())
                    except RuntimeError as e:  # (NotImplementedError too)
                        row.append((type(e).__name__, str(e)))
        got.append(row)
    assert got[0] == got[1]


def test_inner_of_complex32_refuses_by_tensordots_kernel():
    """inner of complex32 is PyTorch's tensordot: one row by one column is a dot, a
    contraction of one element a summed product, an empty result or nothing to contract
    needs no kernel, else a matrix product (addmm)."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            row = []
            for sx, sy in (((1,), (1,)), ((2,), (2,)), ((1, 1), (1,)), ((2, 1), (3, 1)),
                           ((1, 2), (2,)), ((0,), (0,)), ((2, 0), (3, 0)), ((2, 2), (3, 2)),
                           ((2, 2), (2,)), ((2,), (3, 2)), ((1, 1, 2), (1, 2)), ((1, 0), (0,)),
                           ((0, 2), (2,)), ((0, 1), (1,)), ((2,), (0, 2)), ((2,), (3,))):
                x, y = T.ones(sx, dtype=T.complex32), T.ones(sy, dtype=T.complex32)
                try:
                    row.append(tuple(T.inner(x, other=y).shape))
                except RuntimeError as e:  # (NotImplementedError too)
                    row.append((type(e).__name__, str(e)))
        got.append(row)
    assert got[0] == got[1]


@pytest.mark.parametrize("n", [0, 1, 2, "t0", "t1", "t2"])
def test_windows_of_complex32_refused_past_one_element(n):
    """A window of 0 or 1 element is made without PyTorch's arange kernel, its length given
    as an int or a 0-dim integer tensor; a longer one is refused."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            length = T.tensor(int(n[1])) if isinstance(n, str) else n
            row = []
            for w in (T.blackman_window, T.hann_window, T.kaiser_window):
                try:
                    r = w(length, dtype=T.complex32)
                    row.append((str(r.dtype).rpartition(".")[2], r.tolist()))
                except NotImplementedError as e:
                    row.append(str(e))
        got.append(row)
    assert got[0] == got[1]


@pytest.mark.parametrize("factor", [1.7, 0.3, -1.3, 1 + 1j, 2, 1])
def test_alpha_and_value_scale_first_rounded_as_pytorchs_kernel(factor):
    """add/sub/rsub/index_add (and in place) of complex32 with alpha: PyTorch's ComplexHalf
    kernel rounds alpha to a complex32 value, alpha * other to complex32, then the sum;
    addcmul rounds value * tensor1, then its product with tensor2, then the sum (about
    half of random sums are an ulp off with one rounding)."""
    rng = np.random.default_rng(1)
    d = rng.standard_normal(300) + 1j * rng.standard_normal(300)
    e = rng.standard_normal(300) + 1j * rng.standard_normal(300)
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x = T.tensor(d, dtype=T.complex64).to(T.complex32)
            y = T.tensor(e, dtype=T.complex64).to(T.complex32)
            h = T.tensor(np.round(e.real * 3), dtype=T.float16)
            i = T.arange(300)
            row = []
            for f in (lambda: T.add(x, y, alpha=factor), lambda: T.sub(x, y, alpha=factor),
                      lambda: T.rsub(x, y, alpha=factor), lambda: x.clone().add_(y, alpha=factor),
                      lambda: x.clone().sub_(y, alpha=factor),
                      lambda: x.index_add(0, i, y, alpha=factor),
                      lambda: x.clone().index_add_(0, i, y, alpha=factor),
                      lambda: T.addcmul(x, x, y, value=factor),
                      lambda: x.clone().addcmul_(y, x, value=factor),
                      lambda: T.addcmul(x, h, y, value=factor), lambda: T.add(x, h, alpha=factor),
                      lambda: T.addcmul(x, x[:1], y.reshape(300, 1)[:3], value=factor)):
                row.append(repr(T.view_as_real(f()).tolist()))
            try:
                T.add(x, y, alpha=True)
            except RuntimeError as ex:
                row.append(str(ex))
        got.append(row)
    assert got[0] == got[1]


def test_inplace_ops_on_an_expanded_complex32_follow_each_ops_overlap_rule():
    """An expanded complex32 self: triu_/tril_/fill_/zero_/index_fill_/masked_fill_ run (as
    PyTorch's, writing the one shared element), mul_/add_/neg_/copy_ refuse the overlap."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            row = []
            for sh, f in (((1, 4), lambda v: v.triu_()), ((1, 4), lambda v: v.tril_()),
                          ((4, 1), lambda v: v.tril_(-1)), ((1, 4), lambda v: v.mul_(2)),
                          ((1, 4), lambda v: v.add_(1)), ((1, 4), lambda v: v.fill_(2)),
                          ((1, 4), lambda v: v.zero_()), ((1, 4), lambda v: v.neg_()),
                          ((1, 4), lambda v: v.copy_(T.ones(1, 4, dtype=T.complex32))),
                          ((1, 4), lambda v: v.index_fill_(1, T.tensor([0]), 3)),
                          ((1, 4), lambda v: v.masked_fill_(
                              T.tensor([True, False, False, False]), 3))):
                v = T.ones((1, 1), dtype=T.complex32).expand(sh)
                try:
                    f(v)
                    row.append(v.tolist())
                except RuntimeError as e:
                    row.append(str(e))
        got.append(row)
    assert got[0] == got[1]


@pytest.mark.parametrize("index", [[0, 0, 1, 1], [0, 1, 0, 1], [1, 0, 0, 0], [0, -2, 1, -1]])
def test_repeated_index_accumulates_in_complex32_steps(index):
    """index_add / index_put(accumulate=True) of complex32 add a repeated index's terms one
    after another, each partial sum complex32 (60000 + 10000 is inf before - 10000)."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x = T.tensor([60000 + 0j, 1 + 0j], dtype=T.complex32)
            s = T.tensor([10000 + 0j, -10000 + 0j, 0.001 + 0j, 0.001 + 0j], dtype=T.complex32)
            m = T.tensor([[60000, 1], [2, 3]], dtype=T.complex32)
            i = T.tensor(index)
            row = []
            for f in (lambda: x.index_add(0, i, s), lambda: x.clone().index_add_(0, i, s, alpha=2),
                      lambda: x.clone().index_put_((i,), s, accumulate=True),
                      lambda: x.index_put((i,), s, True), lambda: x.index_put((i,), s[0], True),
                      lambda: m.index_add(1, T.tensor([0, 0]), T.tensor(
                          [[10000, -10000], [1, 1]], dtype=T.complex32)),
                      lambda: m.index_put((T.tensor([0, 0]),), T.tensor(
                          [[10000, 1], [-10000, 1]], dtype=T.complex32), accumulate=True)):
                row.append(_outcome(f, IndexError))
        got.append(row)
    assert got[0] == got[1]


def test_zero_dim_complex32_mode_kthvalue_and_softmax_dtype_run_as_pytorch():
    """mode/kthvalue of a 0-dim (or empty) complex32 need no kernel; softmax/log_softmax
    with a positional dtype convert the input to it first, as PyTorch."""
    got = []
    for T in (tv, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            z = T.tensor(complex(-0.75, 1.0), dtype=T.complex32)
            e = T.zeros((2, 0), dtype=T.complex32)
            a = T.tensor([1 + 1j, 2j], dtype=T.complex32)
            row = []
            for f in (lambda: z.mode(0), lambda: z.mode(), lambda: z.kthvalue(1),
                      lambda: e.kthvalue(1, 0), lambda: e.kthvalue(1), lambda: e.mode(0),
                      lambda: T.log_softmax(z, -1, T.bfloat16), lambda: T.softmax(z, 0, T.float32),
                      lambda: T.log_softmax(a, 0, T.float32).dtype,
                      lambda: a.softmax(0, T.float64).dtype):
                try:
                    r = f()
                    rs = r if isinstance(r, tuple) else (r,)
                    row.append([str(x).rpartition(".")[2] if not hasattr(x, "shape") else
                                (str(x.dtype).rpartition(".")[2], tuple(x.shape)) for x in rs])
                except (IndexError, NotImplementedError) as ex:
                    row.append((type(ex).__name__, str(ex)))
        got.append(row)
    assert got[0] == got[1]


def test_kron_promotes_0_dim_inputs_as_dimensioned_and_diff_of_order_0_is_its_input():
    """kron reshapes both operands to one rank before it multiplies: a 0-dim complex128
    beside complex32 gives complex128; diff of order 0 returns its input (prepend unread)."""
    got = []
    for T in (tv, torch):
        c = T.tensor(-2j, dtype=T.complex128)
        d = T.tensor([[3 + 1j, 0.25], [1 - 2j, 1.5]], dtype=T.complex32)
        x = T.ones(2, 3, dtype=T.complex32)
        rs = [T.kron(c, d.t()), T.kron(d, c), T.kron(d, T.tensor(2.0, dtype=T.float16)),
              T.diff(x, n=0, dim=1, prepend=T.ones(2, 1, dtype=T.complex64))]
        got.append([(str(r.dtype).rpartition(".")[2], r.tolist()) for r in rs])
    assert got[0] == got[1]
