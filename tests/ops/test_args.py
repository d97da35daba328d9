"""PyTorch's argument parser strictness, against PyTorch: an ``int`` parameter refuses a bool
(``argmax(True)``), a ``bool`` parameter refuses an int, None, a dtype or a NumPy bool
(``sum(0, 1)``, ``unique(return_counts=1)``), and None is no dim where no overload takes it
(``squeeze(None)``, ``max(None)``, ``logsumexp(t, None)``, ``flatten(None)``). Seeded random
calls over these ops and values: both libraries raise TypeError or both give the same result;
where PyTorch names the argument's type (``must be bool, not int``) tensorviz names it too."""
from __future__ import annotations

import random
import re

import numpy as np
import pytest

import tensorviz
from tensorviz.ops._args import bool_arg, type_name

torch = pytest.importorskip("torch")

# (method, positional arguments before the one under test, its keyword name, its kind)
SLOTS = [
    ("argmax", (), "dim", "int"), ("argmin", (), "dim", "int"), ("median", (), "dim", "int"),
    ("nanmedian", (), "dim", "int"), ("argmax", (0,), "keepdim", "bool"),
    ("argmin", (1,), "keepdim", "bool"), ("median", (0,), "keepdim", "bool"),
    ("nanmedian", (1,), "keepdim", "bool"), ("kthvalue", (1,), "dim", "int"),
    ("kthvalue", (1, 0), "keepdim", "bool"), ("kthvalue", (), "k", "int"),
    ("topk", (1,), "dim", "int"), ("topk", (1, 0), "largest", "bool"),
    ("topk", (1, 0, True), "sorted", "bool"), ("topk", (), "k", "int"),
    ("sum", (0,), "keepdim", "bool"), ("nansum", (0,), "keepdim", "bool"),
    ("prod", (0,), "keepdim", "bool"), ("mean", (1,), "keepdim", "bool"),
    ("max", (0,), "keepdim", "bool"), ("min", (1,), "keepdim", "bool"),
    ("amax", (0,), "keepdim", "bool"), ("logsumexp", (0,), "keepdim", "bool"),
    ("unique", (), "sorted", "kw-bool"), ("unique", (), "return_inverse", "kw-bool"),
    ("unique", (), "return_counts", "kw-bool"), ("unique_consecutive", (), "return_counts",
                                                 "kw-bool"),
    ("unique_consecutive", (), "return_inverse", "kw-bool"), ("unique", (), "dim", "kw-int"),
    ("sort", (), "descending", "kw-bool"), ("sort", (), "stable", "kw-bool"),
    ("argsort", (), "descending", "kw-bool"), ("argsort", (), "stable", "kw-bool"),
    ("sort", (), "dim", "int"), ("argsort", (0,), "descending", "bool"),
    ("argsort", (), "dim", "int"),
    ("narrow", (0,), "start", "int"), ("narrow", (), "dim", "int"),
    ("narrow_copy", (0,), "start", "int"), ("flatten", (), "start_dim", "int"),
    ("flatten", (0,), "end_dim", "int"), ("squeeze", (), "dim", "int"),
    ("max", (), "dim", "int"), ("min", (), "dim", "int"), ("logsumexp", (), "dim", "int"),
    ("cumsum", (), "dim", "int"), ("softmax", (), "dim", "int"), ("unsqueeze", (), "dim", "int"),
    ("transpose", (), "dim0", "int"), ("select", (), "dim", "int"), ("prod", (), "dim", "int"),
]


# Slots whose tensorviz default is None ("not given"), so an explicit None cannot be told
# from it there (PyTorch's TypeError): the one value not compared in these.
NONE_DEFAULT = {("median", "dim"), ("nanmedian", "dim"), ("median", "keepdim"),
                ("nanmedian", "keepdim"), ("max", "keepdim"), ("min", "keepdim"),
                ("sum", "keepdim"), ("mean", "keepdim"), ("prod", "keepdim"),
                ("sort", "descending"), ("sort", "stable"), ("argsort", "descending"),
                ("argsort", "stable"), ("unique", "dim"), ("softmax", "dim")}


def _values(lib):
    return [True, False, 1, 0, None, np.bool_(True), lib.float32, float, 1.0, -1,
            lib.tensor(True), lib.tensor(0)]


def _fill(name, args, slot, kind, value):
    """The call's positional arguments and keywords, ``value`` in the slot under test."""
    if kind.startswith("kw-"):
        return args, {slot: value}
    args = args + (value,)
    if name == "narrow" and slot == "dim":
        args += (0, 1)
    elif name in ("narrow", "narrow_copy"):
        args += (1,)
    elif name in ("transpose", "select"):
        args += (0,)
    return args, {}


def _outcome(lib, name, args, kwargs):
    t = lib.arange(12.).reshape(3, 4)
    args = tuple(lib.float32 if a is torch.float32 else a for a in args)
    try:
        return getattr(t, name)(*args, **kwargs), None
    except Exception as e:  # noqa: BLE001 - the outcome compared
        return None, e


def _tail(message: str):
    """``must be bool, not int`` from PyTorch's wording (None where it words it otherwise)."""
    m = re.search(r"must be (int|bool|tuple of ints), not (\S+)$", message.splitlines()[0])
    return m.group(0) if m else None


def _same(pt, tv, where):
    if isinstance(pt, torch.Tensor):
        assert isinstance(tv, tensorviz.Tensor), where
        assert tuple(pt.shape) == tuple(tv.shape) and str(pt.dtype).split(".")[-1] == \
            str(tv.dtype).split(".")[-1], where
        np.testing.assert_allclose(tv.numpy(), pt.numpy(), rtol=1e-5, err_msg=where)
    elif isinstance(pt, tuple):
        assert isinstance(tv, tuple) and len(pt) == len(tv), where
        for a, b in zip(pt, tv):
            _same(a, b, where)


def _check(name, args, slot, kind, i):
    pt_val, tv_val = _values(torch)[i], _values(tensorviz)[i]
    if pt_val is None and (name, slot) in NONE_DEFAULT:
        return
    pargs, pkw = _fill(name, args, slot, kind, pt_val)
    targs, tkw = _fill(name, args, slot, kind, tv_val)
    where = f"t.{name}(*{pargs}, **{pkw})"
    pt, pe = _outcome(torch, name, pargs, pkw)
    tv, te = _outcome(tensorviz, name, targs, tkw)
    assert (pe is None) == (te is None), f"{where}: torch {pe!r}, tensorviz {te!r}"
    if pe is None:
        _same(pt, tv, where)
        return
    assert type(te) is type(pe), f"{where}: torch {pe!r}, tensorviz {te!r}"
    tail = _tail(str(pe))
    if tail is not None and type(pe) is TypeError:
        assert str(te).endswith(tail.split(", ")[1]), f"{where}: {te} (torch: {pe})"


@pytest.mark.parametrize("seed", range(6))
def test_parser_strictness_random(seed):
    rng = random.Random(seed)
    cases = [(s, i) for s in SLOTS for i in range(len(_values(torch)))]
    for (name, args, slot, kind), i in rng.sample(cases, 80):
        _check(name, args, slot, kind, i)


@pytest.mark.parametrize("name,args,slot,kind", SLOTS)
def test_parser_refuses_bool_for_int_and_int_for_bool(name, args, slot, kind):
    # True in an int slot, 1 in a bool slot: both are PyTorch's TypeError
    _check(name, args, slot, kind, 0 if kind.endswith("int") else 2)


def test_bool_arg_and_type_name():
    assert bool_arg(False, "sort", "stable") is False
    with pytest.raises(TypeError, match=r"^sort\(\): argument 'stable' must be bool, not int$"):
        bool_arg(1, "sort", "stable")
    assert type_name(tensorviz.float32) == "torch.dtype"
    assert type_name(np.bool_(True)) == "numpy.bool"
    assert type_name(tensorviz.tensor(True)) == "Tensor"
    assert type_name(None) == "NoneType"
