"""Memory formats against PyTorch: ``channels_last``/``channels_last_3d``/``contiguous_format``
/``preserve_format`` in ``contiguous``, ``is_contiguous``, ``clone``, ``to``, ``empty`` and the
``*_like`` family.  Each case runs the same program on both libraries and compares shapes,
strides, offsets, dtypes, values (not for uninitialised or random results), aliasing and
exception types.
"""
from __future__ import annotations

import pytest

import tensorviz as tv
from tv_core_conftest import same

torch = pytest.importorskip("torch")


def _cl(x, nd):
    """``x`` (NCHW or NCDHW) copied into channels-last order by permutes alone."""
    last = (0,) + tuple(range(2, nd)) + (1,)
    back = tuple(last.index(d) for d in range(nd))
    return x.permute(*last).contiguous().permute(*back)


# Inputs: row-major, channels-last, sliced, permuted, with size-1 and size-0 dims, 3-D to 5-D.
INPUTS = {
    "nchw": lambda lib: lib.arange(120.0).reshape(2, 3, 4, 5),
    "nhwc": lambda lib: _cl(lib.arange(120.0).reshape(2, 3, 4, 5), 4),
    "sliced": lambda lib: lib.arange(240.0).reshape(2, 3, 8, 5)[:, :, ::2],
    "nhwc_sliced": lambda lib: _cl(lib.arange(240.0).reshape(2, 6, 4, 5), 4)[:, ::2],
    "permuted": lambda lib: lib.arange(120.0).reshape(2, 3, 4, 5).permute(3, 2, 0, 1),
    "c1": lambda lib: lib.arange(24.0).reshape(2, 1, 3, 4),
    "c1_nhwc": lambda lib: _cl(lib.arange(24.0).reshape(2, 1, 3, 4), 4),
    "n111": lambda lib: lib.arange(4.0).reshape(4, 1, 1, 1),
    "1c11_nhwc": lambda lib: _cl(lib.arange(3.0).reshape(1, 3, 1, 1), 4),
    "expanded": lambda lib: lib.arange(5.0).reshape(1, 1, 1, 5).expand(2, 3, 4, 5),
    "empty": lambda lib: lib.zeros(2, 0, 3, 4),
    "int_nhwc": lambda lib: _cl(lib.arange(120).reshape(2, 3, 4, 5), 4),
    "ncdhw": lambda lib: lib.arange(240.0).reshape(2, 3, 2, 4, 5),
    "ndhwc": lambda lib: _cl(lib.arange(240.0).reshape(2, 3, 2, 4, 5), 5),
    "3d": lambda lib: lib.arange(24.0).reshape(2, 3, 4),
    "3d_t": lambda lib: lib.arange(24.0).reshape(2, 3, 4).transpose(0, 2),
}

FORMATS = [None, "contiguous_format", "channels_last", "channels_last_3d", "preserve_format"]


def _fmt(lib, name):
    return {} if name is None else {"memory_format": getattr(lib, name)}


# op name -> (program(lib, x, kwargs), compare values?)
OPS = {
    "contiguous": (lambda lib, x, kw: x.contiguous(**kw), True),
    "contiguous_aliases": (lambda lib, x, kw: x.contiguous(**kw) is x, True),
    "is_contiguous": (lambda lib, x, kw: x.is_contiguous(**kw), True),
    "clone": (lambda lib, x, kw: x.clone(**kw), True),
    "clone_fn": (lambda lib, x, kw: lib.clone(x, **kw), True),
    "to": (lambda lib, x, kw: x.to(**kw), True),
    "to_aliases": (lambda lib, x, kw: x.to(**kw) is x, True),
    "to_shares": (lambda lib, x, kw: x.to(**kw).untyped_storage() is x.untyped_storage(), True),
    "to_dtype": (lambda lib, x, kw: x.to(lib.float64, **kw), True),
    "to_copy": (lambda lib, x, kw: x.to(x.dtype, copy=True, **kw), True),
    "double": (lambda lib, x, kw: x.double(), True),
    "empty_like": (lambda lib, x, kw: lib.empty_like(x, **kw), False),
    "zeros_like": (lambda lib, x, kw: lib.zeros_like(x, **kw), True),
    "ones_like": (lambda lib, x, kw: lib.ones_like(x, dtype=lib.int32, **kw), True),
    "full_like": (lambda lib, x, kw: lib.full_like(x, 7, **kw), True),
    "rand_like": (lambda lib, x, kw: lib.rand_like(x, dtype=lib.float32, **kw), False),
    "randn_like": (lambda lib, x, kw: lib.randn_like(x, dtype=lib.float64, **kw), False),
    "randint_like": (lambda lib, x, kw: lib.randint_like(x, 10, **kw), False),
    "add": (lambda lib, x, kw: x.contiguous(**kw) + 1 if kw else x + 1, True),
}


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: str(f))
@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize("inp", list(INPUTS))
def test_memory_format_ops_match_pytorch(inp, op, fmt):
    program, values = OPS[op]
    same(lambda lib: program(lib, INPUTS[inp](lib), _fmt(lib, fmt)), values=values)


@pytest.mark.parametrize("call", [
    lambda lib: lib.empty(1, 3, 4, 5, memory_format=lib.channels_last),
    lambda lib: lib.empty((2, 3, 4, 5), memory_format=lib.channels_last),
    lambda lib: lib.empty(size=(2, 3, 4, 5), memory_format=lib.channels_last),
    lambda lib: lib.empty(2, 0, 3, 4, memory_format=lib.channels_last),
    lambda lib: lib.empty(2, 3, 0, 4, memory_format=lib.channels_last),
    lambda lib: lib.empty(2, 1, 1, 4, memory_format=lib.channels_last),
    lambda lib: lib.empty(2, 3, 2, 4, 5, memory_format=lib.channels_last_3d),
    lambda lib: lib.empty(2, 0, 2, 4, 5, memory_format=lib.channels_last_3d),
    lambda lib: lib.empty(2, 3, memory_format=lib.contiguous_format),
    lambda lib: lib.empty(2, 3, dtype=lib.int16, memory_format=None),
    lambda lib: lib.empty(2, 3, 4, memory_format=lib.channels_last),
    lambda lib: lib.empty(2, 3, 4, 5, memory_format=lib.channels_last_3d),
    lambda lib: lib.empty(2, 3, memory_format=lib.preserve_format),
    lambda lib: lib.empty(2, 3, 4, 5, memory_format="channels_last"),
    lambda lib: lib.zeros(2, 3, 4, 5, memory_format=lib.channels_last),
    lambda lib: lib.ones(2, 3, 4, 5, memory_format=lib.channels_last),
    lambda lib: lib.full((2, 3, 4, 5), 1.0, memory_format=lib.channels_last),
    lambda lib: lib.rand(2, 3, 4, 5, memory_format=lib.channels_last),
    lambda lib: lib.empty(2, 3, 4, 5, memory_format=lib.channels_last).is_contiguous(),
    lambda lib: lib.empty(2, 0, 3, 4).is_contiguous(memory_format=lib.channels_last),
    lambda lib: lib.empty(2, 0, 3, 4, memory_format=lib.channels_last).is_contiguous(),
    lambda lib: lib.empty(2, 3, 4, 5).is_contiguous(memory_format=3),
    lambda lib: lib.empty(2, 3, 4, 5).contiguous(memory_format="channels_last"),
    lambda lib: lib.empty(2, 3, 4, 5).contiguous(memory_format=None),
    lambda lib: lib.empty(2, 3, 4, 5, 6).is_contiguous(memory_format=lib.channels_last),
    lambda lib: lib.empty(2, 3, 4, 5).is_contiguous(memory_format=lib.channels_last_3d),
    lambda lib: lib.arange(24.0).reshape(2, 3, 4).transpose(0, 2).is_contiguous(
        memory_format=lib.preserve_format),
    lambda lib: lib.arange(24.0).reshape(2, 3, 4).transpose(0, 2).contiguous(
        memory_format=lib.preserve_format),
    lambda lib: lib.arange(120.0).reshape(2, 3, 4, 5).contiguous(
        memory_format=lib.channels_last).contiguous(memory_format=lib.channels_last).stride(),
    lambda lib: lib.arange(120.0).reshape(2, 3, 4, 5).to(lib.float64,
                                                          memory_format=lib.channels_last),
    lambda lib: lib.arange(120).reshape(2, 3, 4, 5).to("cpu", lib.float16,
                                                       memory_format=lib.channels_last),
    lambda lib: _cl(lib.arange(120.0).reshape(2, 3, 4, 5), 4).view(2, 60),
    lambda lib: _cl(lib.arange(120.0).reshape(2, 3, 4, 5), 4).reshape(2, 60),
    lambda lib: _cl(lib.arange(120.0).reshape(2, 3, 4, 5), 4).sum(1),
    lambda lib: _cl(lib.arange(120.0).reshape(2, 3, 4, 5), 4) * _cl(
        lib.arange(120.0).reshape(2, 3, 4, 5), 4),
    lambda lib: _cl(lib.arange(120.0).reshape(2, 3, 4, 5), 4).permute(0, 2, 3, 1)
    .is_contiguous(),
    lambda lib: (lib.channels_last is lib.channels_last, isinstance(lib.channels_last_3d,
                                                                     lib.memory_format)),
    lambda lib: repr(lib.channels_last).split(".")[-1],
])
def test_memory_format_calls_match_pytorch(call):
    same(call, values=False)


def test_clone_channels_last_copies_values_into_nhwc_order():
    for lib in (tv, torch):
        x = lib.arange(24).reshape(1, 2, 3, 4)
        c = x.clone(memory_format=lib.channels_last)
        assert c.untyped_storage() is not x.untyped_storage()
        flat = lib.as_strided(c, (24,), (1,), 0).tolist()
        assert flat == x.permute(0, 2, 3, 1).reshape(-1).tolist()
        assert c.contiguous(memory_format=lib.channels_last) is c
        assert c.contiguous() is not c and c.contiguous().stride() == (24, 12, 4, 1)
