"""Every op of the inventory (tests/inventory.py) against PyTorch, generically.

For each op and each of its spellings that PyTorch has (``torch.<name>``, ``t.<name>()``,
``t.<name>_()``, ``out=``), every sample runs in every dtype (contiguous) and in every layout
(``contig``, ``t``, ``step``, ``offset``, ``expand``, ``empty``, ``0d``) on both libraries,
and the outcomes must agree: the same exception class (and message, for the common classes,
modulo ``torch.`` -> ``tensorviz.``), or results with the same type, shape, dtype, strides,
storage offset and values, sharing storage with the same inputs (views share, others do
not), returning the same object (``self`` for in-place forms, ``out`` for ``out=``), and
leaving the inputs in the same state.  (Warnings are not compared: PyTorch emits many of
them once per process, so whether one shows depends on test order.)  A newly registered op
is tested here as soon as it has an inventory entry;
``test_every_public_op_is_in_the_inventory`` makes sure it gets one.

Known divergences are listed in ``KNOWN`` and marked ``xfail(strict=True)``: such an item
must still fail, and only in the cases listed (any other failure fails the test).
"""
from __future__ import annotations

import fnmatch
import warnings

import numpy as np
import pytest

import tensorviz

torch = pytest.importorskip("torch")

from .inventory_known import KNOWN  # (op, spelling) -> (reason, "dtype/layout" patterns)

try:
    from tests import inventory as inv
except ImportError:  # (tests/ is on sys.path when the repository root is not)
    import inventory as inv

TOLERANCE = {"float16": (2e-3, 2e-3), "complex32": (2e-3, 2e-3), "bfloat16": (1.6e-2, 1e-2), "float32": (2e-5, 1e-5), "float64": (1e-10, 1e-12),
             "complex64": (2e-5, 1e-5), "complex128": (1e-10, 1e-12)}
MESSAGE_CLASSES = (RuntimeError, ValueError, IndexError, TypeError)


class KnownDivergence(Exception):
    """Raised when an item fails only in the cases its ``KNOWN`` entry lists."""




def _spellings(name: str) -> list[str]:
    e = inv.entry(name)
    py = e.pyname
    out = []
    if e.namespace != "Tensor" and inv.torch_function(torch, name) is not None:
        out.append("function")
    if e.namespace in ("torch", "Tensor") and callable(getattr(torch.Tensor, py, None)):
        out.append("method")
    if e.namespace in ("torch", "Tensor") and not py.endswith("_") and \
            callable(getattr(torch.Tensor, py + "_", None)):
        out.append("inplace")
    # (whether PyTorch takes out= is learned when the test runs: probing PyTorch here, at
    # collection, would spend its once-per-process warnings before other tests look for them)
    if "function" in out and e.category not in ("random",):
        out.append("out")
    return out


def _params():
    for name in inv.ENTRIES:
        for spelling in _spellings(name):
            marks = []
            if (name, spelling) in KNOWN:
                marks.append(pytest.mark.xfail(strict=True, raises=KnownDivergence,
                                               reason=KNOWN[(name, spelling)][0]))
            yield pytest.param(name, spelling, id=f"{name}-{spelling}", marks=marks)


PARAMS = list(_params())


# ---------------------------------------------------------------- running one spelling
def _dtype_name(dt) -> str:
    return str(dt).split(".")[-1]


def _call(lib, e, spelling, args, kwargs, out_spec=None):
    py = e.pyname
    if spelling == "function":
        fn = inv.lib_function(lib, e.name)
        if fn is None:
            raise AttributeError(f"{lib.__name__} has no {e.name}")
        return fn(*args, **kwargs), None
    if spelling == "method":
        return getattr(args[0], py)(*args[1:], **kwargs), None
    if spelling == "inplace":
        return getattr(args[0], py + "_")(*args[1:], **kwargs), None
    fn = inv.lib_function(lib, e.name)
    if fn is None:
        raise AttributeError(f"{lib.__name__} has no {e.name}")
    kind, specs = out_spec
    outs = tuple(_make_out(lib, kind, shape, dtype) for shape, dtype in specs)
    out = outs[0] if len(outs) == 1 and kind != "tuple" else outs
    return fn(*args, **kwargs, out=out), outs


def _make_out(lib, kind, shape, dtype):
    dt = getattr(lib, dtype)
    if kind == "empty":
        return lib.zeros(0, dtype=dt)
    if kind == "cast":
        dt = getattr(lib, "float32" if dtype == "float64" else "float64")
    return lib.zeros(shape, dtype=dt)


def _outcome(lib, e, sample, spelling, out_spec=None):
    """(result, exception, inputs, outs) of one spelling of ``sample`` in ``lib``."""
    args, kwargs = sample.build(lib)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            res, outs = _call(lib, e, spelling, args, kwargs, out_spec)
            exc = None
        except Exception as ex:  # noqa: BLE001 - compared
            res, outs, exc = None, None, ex
    return res, exc, (args, kwargs), outs


def _tensors(x, lib):
    return [t for t in inv._flat(x) if isinstance(t, lib.Tensor)]


# ---------------------------------------------------------------- comparing
def _host(t, lib) -> np.ndarray:
    if t.dtype == lib.bfloat16:  # (numpy() refuses bfloat16 in both: float32 holds it exactly)
        t = t.float()
    elif t.dtype == lib.complex32:  # (and complex32: complex64 holds it exactly)
        t = t.detach().to(lib.complex64)
    if lib is tensorviz:
        return np.array(t.resolve_conj().resolve_neg().numpy(force=True))
    return t.detach().cpu().resolve_conj().resolve_neg().numpy()


def _same_tensor(a, b, e, path, values=True, loose=False):
    assert isinstance(a, tensorviz.Tensor), f"{path}: {type(a).__name__} is no Tensor"
    assert tuple(a.shape) == tuple(b.shape), f"{path}: shape {tuple(a.shape)} != " \
        f"{tuple(b.shape)}"
    name = _dtype_name(b.dtype)
    assert a.dtype.name == name, f"{path}: dtype {a.dtype.name} != {name}"
    if b.numel() > 0:
        # Note: strides of dims of size 1 never address anything; they are not compared.
        sa = [s for s, n in zip(a.stride(), a.shape) if n > 1]
        sb = [s for s, n in zip(b.stride(), b.shape) if n > 1]
        assert sa == sb, f"{path}: strides {a.stride()} != {b.stride()}"
        assert a.storage_offset() == b.storage_offset(), \
            f"{path}: storage offset {a.storage_offset()} != {b.storage_offset()}"
    if not values or e.compare == "meta":
        return
    x, y = _host(a, tensorviz), _host(b, torch)
    if name in TOLERANCE:
        rt, at = TOLERANCE[name]
        rt, at = max(rt, e.rtol or 0), max(at, e.atol or 0)
        if loose:  # (an out= of a wider dtype: PyTorch computes in the narrower one)
            rt, at = max(rt, 2e-5), max(at, 1e-5)
        if x.dtype.kind == "c":
            x, y = np.stack([x.real, x.imag]), np.stack([y.real, y.imag])
        np.testing.assert_allclose(x, y, rtol=rt, atol=at, equal_nan=True, err_msg=path)
    else:
        np.testing.assert_array_equal(x, y, err_msg=path)


def _same(a, b, e, path="result", loose=False):
    if isinstance(b, torch.Tensor):
        _same_tensor(a, b, e, path, loose=loose)
        return
    if type(b).__module__ == "torch.return_types":
        assert type(a).__name__ == type(b).__name__, f"{path}: {type(a)} vs {type(b)}"
        if e.meta.get("ties") and len(b) == 2:  # (values, indices): ties pick any index
            _same(a[0], b[0], e, f"{path}[0]", loose)
            _same_tensor(a[1], b[1], e, f"{path}[1]", values=False)
            return
    if isinstance(b, torch.Size):
        assert isinstance(a, tensorviz.Size) and tuple(a) == tuple(b), f"{path}: {a} vs {b}"
        return
    if isinstance(b, torch.dtype):
        assert isinstance(a, tensorviz.dtype) and a.name == _dtype_name(b), f"{path}: {a}"
        return
    if isinstance(b, torch.device):
        assert str(a) == str(b), f"{path}: {a} vs {b}"
        return
    if isinstance(b, (tuple, list)):
        assert type(a) is type(b) or type(b).__module__ == "torch.return_types", \
            f"{path}: {type(a).__name__} vs {type(b).__name__}"
        assert len(a) == len(b), f"{path}: {len(a)} items vs {len(b)}"
        for i, (u, v) in enumerate(zip(a, b)):
            _same(u, v, e, f"{path}[{i}]", loose)
        return
    if isinstance(b, str):
        assert a == b.replace("torch.", "tensorviz."), f"{path}: {a!r} vs {b!r}"
        return
    assert type(a) is type(b), f"{path}: {type(a).__name__} {a!r} vs {type(b).__name__} {b!r}"
    if isinstance(b, float) and e.compare != "meta":
        np.testing.assert_allclose(a, b, rtol=1e-6, equal_nan=True, err_msg=path)
    elif e.compare != "meta":
        assert a == b, f"{path}: {a!r} != {b!r}"


def _shares(r, x) -> bool | None:
    try:
        sr, sx = r.untyped_storage(), x.untyped_storage()
    except Exception:  # noqa: BLE001 - no storage to share
        return None
    if not sr.nbytes() or not sx.nbytes():
        return None
    return sr.data_ptr() == sx.data_ptr()


def _message(ex) -> str:
    return str(ex).replace("torch.", "tensorviz.")


def _compare(e, spelling, mine, theirs, loose=False):
    r_tv, x_tv, in_tv, outs_tv = mine
    r_pt, x_pt, in_pt, outs_pt = theirs
    if x_tv is not None or x_pt is not None:
        assert x_pt is not None, f"PyTorch succeeded but tensorviz raised {x_tv!r}"
        assert x_tv is not None, f"tensorviz succeeded but PyTorch raised {x_pt!r}"
        assert type(x_tv) is type(x_pt), f"tensorviz raised {x_tv!r}, PyTorch {x_pt!r}"
        if isinstance(x_pt, MESSAGE_CLASSES):
            assert _message(x_tv) == _message(x_pt), \
                f"messages differ: tensorviz {str(x_tv)!r}, PyTorch {str(x_pt)!r}"
        return
    _same(r_tv, r_pt, e, loose=loose)
    ins_tv, ins_pt = _tensors(in_tv, tensorviz), _tensors(in_pt, torch)
    res_tv, res_pt = _tensors(r_tv, tensorviz), _tensors(r_pt, torch)
    if spelling == "inplace":
        assert (r_tv is ins_tv[0]) == (r_pt is ins_pt[0]), "in-place form returns self"
    if spelling == "out":
        for o_tv, o_pt in zip(outs_tv, outs_pt):
            assert any(r is o_tv for r in res_tv) == any(r is o_pt for r in res_pt), \
                "out= returns out"
    for i, (rt, rp) in enumerate(zip(res_tv, res_pt)):
        for j, (at, ap) in enumerate(zip(ins_tv, ins_pt)):
            st, sp = _shares(rt, at), _shares(rp, ap)
            if st is not None and sp is not None:
                assert st == sp, f"result {i} shares input {j}'s storage: tensorviz {st}, " \
                    f"PyTorch {sp}"
    for j, (at, ap) in enumerate(zip(ins_tv, ins_pt)):
        _same_tensor(at, ap, e, f"input {j} after the call", values=e.compare != "meta")


def _out_specs(e, sample, dtype, layout):
    """The ``out=`` tensors to try: PyTorch's result's shape and dtype, plus (contiguous
    float32/int64 samples) an empty one to resize and one of another dtype."""
    args, kwargs = sample.build(torch)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = inv.torch_function(torch, e.name)(*args, **kwargs)
    except Exception:  # noqa: BLE001 - refused: the function spelling compares that
        return []
    ts = _tensors(res, torch)
    if not ts:
        return []
    spec = [(tuple(t.shape), _dtype_name(t.dtype)) for t in ts]
    kind = "single" if isinstance(res, torch.Tensor) else "tuple"
    specs = [(kind, spec)]
    if layout == "contig" and dtype in ("float32", "int64") and kind == "single":
        specs += [("empty", spec), ("cast", spec)]
    return specs


def failures(name: str, spelling: str) -> tuple[int, list[tuple[str, str]]]:
    """Run every sample of one spelling of op ``name`` on both libraries; return the number
    of runs and the ``("dtype/layout", what differs)`` of those that disagree."""
    e = inv.entry(name)
    out, runs = [], 0
    for dtype, layout in inv.cases(name):
        for sample in inv.samples(name, dtype, layout):
            specs = _out_specs(e, sample, dtype, layout) if spelling == "out" else [None]
            for spec in specs:
                runs += 1
                mine = _outcome(tensorviz, e, sample, spelling, spec)
                theirs = _outcome(torch, e, sample, spelling, spec)
                try:
                    _compare(e, spelling, mine, theirs, loose=bool(spec) and spec[0] == "cast")
                except AssertionError as ex:
                    out.append((f"{dtype}/{layout}",
                                f"{sample!r}{' out=' + spec[0] if spec else ''}: {ex}"))
    return runs, out


@pytest.mark.parametrize("name,spelling", PARAMS)
def test_op_matches_pytorch(name, spelling):
    if spelling == "out" and not inv.op_info(name)["has_out"]:
        pytest.skip("PyTorch has no out= form of this op")
    runs, found = failures(name, spelling)
    assert runs
    pattern = KNOWN.get((name, spelling), ("", ()))[1]
    known = [line for where, line in found if any(fnmatch.fnmatch(where, p) for p in pattern)]
    other = [line for where, line in found if not any(fnmatch.fnmatch(where, p)
                                                       for p in pattern)]
    if other:
        raise AssertionError(f"{len(other)} of {runs} runs differ from PyTorch:\n"
                             + "\n".join(other[:5]))
    if known:
        raise KnownDivergence(f"{len(known)} runs:\n" + "\n".join(known[:3]))


# ---------------------------------------------------------------- coverage
def test_every_public_op_is_in_the_inventory():
    """A newly registered (or legacy-table) op needs an inventory entry or a reasoned skip."""
    missing = sorted(n for n in inv.public_names() if inv.covered(n) is None)
    assert not missing, f"public ops with no inventory entry (tests/inventory.py): {missing}"


def test_inventory_entries_name_public_ops():
    """No stale entries: each names a public tensorviz op or a PyTorch op tensorviz lacks."""
    public = inv.public_names()
    stale = [n for n in inv.ENTRIES if n not in public
             and inv.lib_function(tensorviz, n) is None
             and inv.torch_function(torch, n) is None
             and not hasattr(torch.Tensor, inv.entry(n).pyname)]
    assert not stale, stale


def test_samples_build_the_same_program_in_both_libraries():
    """``samples()`` gives equal inputs in PyTorch and tensorviz (what the gradient checks
    rely on), with leaves that require grad when asked."""
    for name in ("add", "sum", "linalg.solve", "gather", "view"):
        for layout in inv.LAYOUTS:
            for s in inv.samples(name, "float64", layout, requires_grad=True):
                a_pt, k_pt = s.build(torch)
                a_tv, k_tv = s.build(tensorviz)
                ts_pt, ts_tv = _tensors((a_pt, k_pt), torch), _tensors((a_tv, k_tv), tensorviz)
                assert len(ts_pt) == len(ts_tv)
                for p, t in zip(ts_pt, ts_tv):
                    assert p.stride() == t.stride() and p.storage_offset() == t.storage_offset()
                    assert np.array_equal(_host(t, tensorviz), _host(p, torch))
                    assert p.requires_grad == p.dtype.is_floating_point
                    assert p.is_leaf


def test_ops_metadata_is_pytorchs():
    """``ops()`` learns views, in-place and out= forms and differentiability from PyTorch."""
    info = {d["name"]: d for d in inv.ops()}
    assert len(info) == len(inv.ENTRIES)
    assert info["view"]["is_view"] and not info["add"]["is_view"]
    assert info["add"]["has_inplace"] and info["add"]["has_out"]
    assert not info["view"]["has_out"]
    assert info["sin"]["differentiable"] and not info["argmax"]["differentiable"]
    assert not info["eq"]["differentiable"]
    assert info["linalg.norm"]["namespace"] == "linalg"
    assert info["gcd"]["dtypes"] == ("uint8", "int8", "int16", "int32", "int64")
    assert info["sin"]["dtypes"] == inv.ALL_DTYPES  # (integers and bools promote to float)
    assert info["linalg.inv"]["dtypes"] == ("float32", "float64", "complex64", "complex128")


def test_inventory_layouts_are_the_differential_tests_layouts(tvdiff):
    """The inventory's strided layouts build the tensors tests/ops/conftest.py's ``tvdiff``
    builds (same shape, strides, offset)."""
    for layout in inv.STRIDED_LAYOUTS:
        for shape in ((3, 4), (2, 3, 4), (5,)):
            mine = inv.Maker(torch, "float32", layout).t(shape)
            theirs = tvdiff.make(shape, "float32", layout).pt
            assert (mine.shape, mine.stride(), mine.storage_offset()) == \
                (theirs.shape, theirs.stride(), theirs.storage_offset())
