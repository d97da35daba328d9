"""Differential testing of ops against PyTorch: the ``tvdiff`` fixture.

``tvdiff.make(shape, dtype, layout)`` builds the same data in tensorviz and in PyTorch with the
same view ops (so the same strides and offset), as a ``Twin``; ``tvdiff.check(f, *twins)`` runs
``f(lib, *tensors)`` on both libraries and asserts the same outcome: the same exception type,
or results of the same type, shape and dtype with equal values (exact for bool/integer
results, within a dtype-sized tolerance for floats), and the same UserWarnings.

Layouts (``LAYOUTS``): ``contig``, ``t`` (dims reversed), ``step`` (every other element of the
last dim), ``offset`` (a view starting inside its storage) and ``expand`` (a stride-0 dim).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pytest

import tensorviz

LAYOUTS = ("contig", "t", "step", "offset", "expand")
ALL_DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
              "float64", "complex64", "complex128")
INT_DTYPES = ("uint8", "int8", "int16", "int32", "int64")
FLOAT_DTYPES = ("float16", "float32", "float64")
COMPLEX_DTYPES = ("complex64", "complex128")
REAL_DTYPES = ("bool",) + INT_DTYPES + FLOAT_DTYPES

# (rtol, atol) by result dtype
TOLERANCE = {"float16": (2e-3, 2e-3), "float32": (2e-5, 1e-5), "float64": (1e-10, 1e-12),
             "complex64": (2e-5, 1e-5), "complex128": (1e-10, 1e-12)}


@dataclass
class Twin:
    """The same tensor in tensorviz (``tv``) and in PyTorch (``pt``)."""

    tv: Any
    pt: Any


try:  # (the inventory's generators: one copy of the data and layout rules for all tests)
    from tests.inventory import base_shape as _base_shape, layout_view, random_data
except ImportError:  # (tests/ is on sys.path when the repository root is not)
    from inventory import base_shape as _base_shape, layout_view, random_data


def _views(lib, t, shape: tuple, layout: str):
    return layout_view(t, shape, layout)


class Differ:
    """Builds twins and compares the two libraries' outcomes (see the module docstring)."""

    layouts = LAYOUTS

    def __init__(self, torch):
        self.torch = torch

    def make(self, shape, dtype: str, layout: str = "contig", seed: int = 0,
             special: bool = False, low=None, high=None, data: np.ndarray | None = None) -> Twin:
        shape = tuple(shape)
        rng = np.random.default_rng(seed)
        if data is None:
            data = random_data(_base_shape(shape, layout), dtype, rng, special, low, high)
        else:
            data = np.asarray(data)
            if data.shape != _base_shape(shape, layout):
                raise ValueError("data must have the base shape of the layout")
        tv = _views(tensorviz, tensorviz.from_numpy(data.copy()), shape, layout)
        pt = _views(self.torch, self.torch.from_numpy(data.copy()), shape, layout)
        assert tuple(tv.shape) == tuple(pt.shape) and tv.stride() == pt.stride()
        return Twin(tv, pt)

    def run(self, f: Callable, *args):
        """``(outcome_tv, outcome_pt)``; an outcome is ``(result, exception, warnings)``."""
        out = []
        for lib, side in ((tensorviz, "tv"), (self.torch, "pt")):
            call_args = [getattr(a, side) if isinstance(a, Twin) else a for a in args]
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    res, exc = f(lib, *call_args), None
                except Exception as e:  # noqa: BLE001 - compared below
                    res, exc = None, e
            warns = sorted({w.category.__name__ for w in caught
                            if issubclass(w.category, UserWarning)})
            out.append((res, exc, warns))
        return out

    def check(self, f: Callable, *args, rtol=None, atol=None, indices: bool = True,
              fresh: bool = False, warns: bool = True):
        """Run ``f`` on both libraries and assert the same outcome; returns the tv result.

        ``indices=False`` skips the indices of a (values, indices) result (ops whose tie order
        PyTorch leaves unspecified); ``fresh`` asserts results share no storage with inputs;
        ``warns=False`` ignores warnings (PyTorch's once-per-process performance hints).
        """
        (r_tv, e_tv, w_tv), (r_pt, e_pt, w_pt) = self.run(f, *args)
        if e_pt is not None or e_tv is not None:
            assert e_pt is not None, f"PyTorch succeeded but tensorviz raised {e_tv!r}"
            assert e_tv is not None, f"tensorviz succeeded but PyTorch raised {e_pt!r}"
            assert type(e_tv) is type(e_pt), f"tensorviz raised {e_tv!r}, PyTorch {e_pt!r}"
            return None
        assert w_tv == w_pt or not warns, f"warnings differ: tensorviz {w_tv}, PyTorch {w_pt}"
        self.same(r_tv, r_pt, rtol=rtol, atol=atol, indices=indices)
        if fresh:
            inputs = [a.tv for a in args if isinstance(a, Twin)]
            for t in _tensors(r_tv):
                for x in inputs:
                    assert t.untyped_storage() is not x.untyped_storage(), "result aliases input"
        return r_tv

    def same(self, a, b, *, rtol=None, atol=None, indices: bool = True, path: str = "result"):
        torch = self.torch
        if isinstance(b, torch.Tensor):
            assert isinstance(a, tensorviz.Tensor), f"{path}: {type(a).__name__} is no Tensor"
            assert tuple(a.shape) == tuple(b.shape), f"{path}: shape {tuple(a.shape)} != " \
                f"{tuple(b.shape)}"
            name = str(b.dtype).split(".")[-1]
            assert a.dtype.name == name, f"{path}: dtype {a.dtype.name} != {name}"
            assert (a.is_conj(), a.is_neg()) == (b.is_conj(), b.is_neg()), \
                f"{path}: lazy conj/neg bits {(a.is_conj(), a.is_neg())} != " \
                f"{(b.is_conj(), b.is_neg())}"
            x = np.array(a.detach().resolve_conj().resolve_neg().numpy(force=True))
            y = b.detach().cpu().resolve_conj().resolve_neg().numpy()
            if name in TOLERANCE:
                rt, at = TOLERANCE[name]
                if x.dtype.kind == "c":  # real and imaginary parts apart (infinities too)
                    x, y = np.stack([x.real, x.imag]), np.stack([y.real, y.imag])
                np.testing.assert_allclose(x, y, rtol=rtol if rtol is not None else rt,
                                           atol=atol if atol is not None else at,
                                           equal_nan=True, err_msg=path)
            else:
                np.testing.assert_array_equal(x, y, err_msg=path)
            return
        if isinstance(b, tuple) and hasattr(b, "_fields") or type(b).__module__ == \
                "torch.return_types":
            assert type(a).__name__ == type(b).__name__, f"{path}: {type(a)} vs {type(b)}"
        if isinstance(b, (tuple, list)):
            assert isinstance(a, (tuple, list)) and len(a) == len(b), f"{path}: {a!r} vs {b!r}"
            for i, (u, v) in enumerate(zip(a, b)):
                if not indices and i == 1 and type(b).__module__ == "torch.return_types":
                    continue
                self.same(u, v, rtol=rtol, atol=atol, indices=indices, path=f"{path}[{i}]")
            return
        if isinstance(b, float):
            assert isinstance(a, float)
            np.testing.assert_allclose(a, b, rtol=1e-6, equal_nan=True, err_msg=path)
            return
        assert type(a) is type(b) and a == b, f"{path}: {a!r} != {b!r}"


def _tensors(r):
    if isinstance(r, tensorviz.Tensor):
        yield r
    elif isinstance(r, (tuple, list)):
        for x in r:
            yield from _tensors(x)


@pytest.fixture(scope="session")
def tvdiff():
    torch = pytest.importorskip("torch")
    return Differ(torch)
