"""Seeded random convolution and pooling configurations against PyTorch: kernel, stride,
padding (numbers, 'same', 'valid'), dilation, groups, padding_mode, output_padding, ceil_mode,
count_include_pad, return_indices; batched and unbatched; outputs and gradients."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from nn_harness import run_both, twin_modules

torch = pytest.importorskip("torch")


def _conv_case(rng):
    nd = int(rng.integers(1, 3))
    groups = int(rng.choice([1, 2]))
    cin = groups * int(rng.integers(1, 3))
    cout = groups * int(rng.integers(1, 3))
    k = tuple(int(v) for v in rng.integers(1, 4, nd))
    dil = tuple(int(v) for v in rng.integers(1, 3, nd))
    kw = {"groups": groups, "dilation": dil, "bias": bool(rng.random() < 0.7)}
    r = rng.random()
    if r < 0.2:
        kw["padding"] = "same"
    elif r < 0.3:
        kw["padding"] = "valid"
    else:
        kw["padding"] = tuple(int(v) for v in rng.integers(0, 3, nd))
        kw["stride"] = tuple(int(v) for v in rng.integers(1, 4, nd))
    if rng.random() < 0.3:
        kw["padding_mode"] = str(rng.choice(["reflect", "replicate", "circular"]))
        if kw["padding"] == "valid":
            kw["padding"] = 1
    size = tuple(int(v) for v in rng.integers(5, 9, nd))
    batched = rng.random() < 0.7
    shape = ((2,) if batched else ()) + (cin,) + size
    return f"Conv{nd}d", (cin, cout, k), kw, shape


def _tconv_case(rng):
    nd = int(rng.integers(1, 3))
    groups = int(rng.choice([1, 2]))
    cin = groups * int(rng.integers(1, 3))
    cout = groups * int(rng.integers(1, 3))
    k = tuple(int(v) for v in rng.integers(1, 4, nd))
    stride = tuple(int(v) for v in rng.integers(1, 4, nd))
    dil = tuple(int(v) for v in rng.integers(1, 3, nd))
    outpad = tuple(int(rng.integers(0, builtin_max(s, d))) for s, d in zip(stride, dil))
    kw = {"stride": stride, "padding": tuple(int(v) for v in rng.integers(0, 2, nd)),
          "output_padding": outpad, "groups": groups, "dilation": dil,
          "bias": bool(rng.random() < 0.7)}
    size = tuple(int(v) for v in rng.integers(3, 6, nd))
    shape = ((2,) if rng.random() < 0.7 else ()) + (cin,) + size
    return f"ConvTranspose{nd}d", (cin, cout, k), kw, shape


def builtin_max(a, b):
    return a if a > b else b


def _pool_case(rng):
    nd = int(rng.integers(1, 3))
    kind = str(rng.choice(["Max", "Avg"]))
    k = tuple(int(v) for v in rng.integers(1, 4, nd))
    stride = tuple(int(v) for v in rng.integers(1, 4, nd))
    pad = tuple(int(rng.integers(0, kk // 2 + 1)) for kk in k)
    kw = {"stride": stride, "padding": pad, "ceil_mode": bool(rng.random() < 0.5)}
    if kind == "Max":
        kw["dilation"] = tuple(int(v) for v in rng.integers(1, 3, nd))
        kw["return_indices"] = bool(rng.random() < 0.5)
    else:
        kw["count_include_pad"] = bool(rng.random() < 0.5)
        if nd == 2 and rng.random() < 0.3:
            kw["divisor_override"] = int(rng.integers(1, 5))
    if nd == 1:
        kw = {key: (v[0] if isinstance(v, tuple) else v) for key, v in kw.items()}
        k = k[0]
    size = tuple(int(v) for v in rng.integers(6, 10, nd))
    shape = ((2,) if rng.random() < 0.7 else ()) + (3,) + size
    return f"{kind}Pool{nd}d", (k,), kw, shape


GENERATORS = {"conv": _conv_case, "conv_transpose": _tconv_case, "pool": _pool_case}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("kind", list(GENERATORS))
def test_random_configuration(kind, seed, dtype):
    rng = np.random.default_rng(1000 * seed + len(kind))
    name, args, kw, shape = GENERATORS[kind](rng)
    x = rng.standard_normal(shape).astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pt, tv = twin_modules(name, *args, dtype=dtype, **kw)
    assert repr(tv) == repr(pt)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run_both(pt, tv, [x], dtype=dtype, seed=seed)
    # each warning PyTorch gives (its C++ ones end with where they were triggered), tensorviz
    # gives too: the pairs come in PyTorch-then-tensorviz order
    # ('same' padding's odd-split warning is once per process in both: checked on its own)
    msgs = [str(w.message).split(" (Triggered internally")[0] for w in caught
            if "padding='same'" not in str(w.message)]
    assert msgs[0::2] == msgs[1::2]


def test_same_padding_odd_split_warns_once(monkeypatch):
    import tensorviz
    monkeypatch.setattr(tensorviz.nn.functional, "_SAME_PAD_WARNED", False)
    x, w = tensorviz.randn(1, 1, 6), tensorviz.randn(1, 1, 2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            tensorviz.nn.functional.conv1d(x, w, padding="same")
        tensorviz.nn.functional.conv1d(x, tensorviz.randn(1, 1, 3), padding="same")
    assert [str(c.message) for c in caught] == [
        "Using padding='same' with even kernel lengths and odd dilation may require a "
        "zero-padded copy of the input be created"]
