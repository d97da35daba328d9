"""Shared fixtures and hypothesis strategies for the core's tests.

- ``devices``: a parametrization over ``cpu`` and, where CuPy sees a GPU, ``cuda``.
- ``DTYPE_NAMES``: the 11 dtypes PyTorch and tensorviz share, by name.
- ``shapes()``: small random shapes (0-dim, size-0 and size-1 dims included).
- ``view_chains()``: random chains of view ops, each step drawn for the shape reached so far;
  ``apply_step(lib, t, step)`` runs one step on a tensorviz or a PyTorch tensor.
- ``twins``/``assert_same_tensor``/``same_values`` for differential tests against PyTorch.

Test modules import these helpers as ``from tv_core_conftest import ...`` (a bare
``import conftest`` may find another folder's conftest when the whole suite runs).
"""
from __future__ import annotations

import os
import sys
import warnings

import numpy as np
import pytest

import tensorviz

try:
    from hypothesis import HealthCheck, settings as _hyp_settings
    from hypothesis import strategies as st

    # No per-example deadline: a test must not fail because the machine is busy (CI runs on
    # shared machines); the examples themselves are what is checked.
    # Derandomized: every run draws the same examples, so a CI run cannot turn red on a new
    # random draw; set TV_HYPOTHESIS_EXPLORE=1 to draw fresh examples when hunting for bugs.
    _hyp_settings.register_profile("tensorviz", deadline=None,
                                   suppress_health_check=[HealthCheck.too_slow],
                                   derandomize=not os.environ.get("TV_HYPOTHESIS_EXPLORE"))
    _hyp_settings.load_profile("tensorviz")
except ImportError:  # pragma: no cover - hypothesis is a test extra
    st = None
else:
    # Hypothesis imports libcst to suggest patches when a test fails; libcst triggers a
    # DeprecationWarning in mypy_extensions, which `filterwarnings = error` would turn into an
    # internal error hiding the real failure.  Import it once here, quietly.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            import libcst.metadata  # noqa: F401
        except ImportError:
            pass

# TV_EXAMPLES_SCALE=10 multiplies every property test's example count (a thorough local run).
EXAMPLES_SCALE = float(os.environ.get("TV_EXAMPLES_SCALE", "1"))


def examples(n: int) -> int:
    """A hypothesis ``max_examples`` of ``n``, scaled by ``TV_EXAMPLES_SCALE``."""
    return max(1, int(n * EXAMPLES_SCALE))


DTYPE_NAMES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
               "float64", "complex64", "complex128"]

_CUDA = tensorviz.cuda.is_available()
DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.skipif(
    not _CUDA, reason="CUDA is not available here (no CuPy or no GPU)"))]


@pytest.fixture
def quiet_typed_storage():
    """PyTorch warns (once) that TypedStorage is deprecated; tests of storages that call
    PyTorch's ``storage()`` are not about that (``pytest.mark.usefixtures``)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "TypedStorage is deprecated", UserWarning)
        yield


@pytest.fixture(params=DEVICES)
def devices(request) -> str:
    """Each test using it runs on ``cpu``, and on ``cuda`` where a GPU can be used."""
    return request.param


@pytest.fixture
def default_float64():
    """Switch the default dtype to float64 for one test, restoring float32 after."""
    tensorviz.set_default_dtype(tensorviz.float64)
    try:
        import torch
    except ImportError:  # pragma: no cover
        torch = None
    if torch is not None:
        torch.set_default_dtype(torch.float64)
    try:
        yield
    finally:
        tensorviz.set_default_dtype(tensorviz.float32)
        if torch is not None:
            torch.set_default_dtype(torch.float32)


# ---------------------------------------------------------------- differential helpers
def torch_dtype(torch, name_or_dtype):
    name = name_or_dtype if isinstance(name_or_dtype, str) else name_or_dtype.name
    return getattr(torch, name)


def tv_dtype(name_or_dtype):
    name = name_or_dtype if isinstance(name_or_dtype, str) else str(name_or_dtype).split(".")[-1]
    return getattr(tensorviz, name)


def host(x) -> np.ndarray:
    """Values of a tensorviz or PyTorch tensor as a NumPy array (copied)."""
    if isinstance(x, tensorviz.Tensor):
        if x.dtype is tensorviz.complex32:  # (NumPy has no complex32: its exact complex64)
            x = x.to(tensorviz.complex64)
        return np.array(x.resolve_conj().resolve_neg().numpy(force=True), copy=True)
    if str(x.dtype) == "torch.complex32":
        x = x.detach().to(__import__("torch").complex64)
    return np.array(x.detach().cpu().resolve_conj().resolve_neg().numpy(), copy=True)


def same_values(a: np.ndarray, b: np.ndarray) -> bool:
    """Bitwise equality of two arrays of the same shape and dtype (NaNs compare equal).

    Bools compare by truth: a bool view of other data may hold bytes other than 0/1, which
    PyTorch's copies turn into 1 and NumPy's keep."""
    if a.dtype == np.bool_ and b.dtype == np.bool_:
        a, b = a.view(np.uint8) != 0, b.view(np.uint8) != 0
    return (a.shape == b.shape and a.dtype == b.dtype
            and np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes())


def assert_same_tensor(tv_t, pt_t, *, values: bool = True) -> None:
    """Shape, stride, storage offset, contiguity, dtype (and values) all equal PyTorch's."""
    assert tuple(tv_t.shape) == tuple(pt_t.shape), (tv_t.shape, pt_t.shape)
    assert tv_t.stride() == pt_t.stride(), (tv_t.stride(), pt_t.stride())
    assert tv_t.storage_offset() == pt_t.storage_offset(), \
        (tv_t.storage_offset(), pt_t.storage_offset())
    assert tv_t.is_contiguous() == pt_t.is_contiguous()
    assert tv_t.dtype.name == str(pt_t.dtype).split(".")[-1], (tv_t.dtype, pt_t.dtype)
    if values:
        a, b = host(tv_t), host(pt_t)
        assert same_values(a, b), (a, b)


def outcome(fn, lib):
    """``fn(lib)``, or the exception it raised (warnings silenced: PyTorch warns once)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(lib)
        except Exception as e:  # noqa: BLE001 - the type is what is compared
            return e


def same(fn, values: bool = True):
    """Run ``fn(lib)`` on tensorviz and on PyTorch and assert the outcomes agree: the same
    exception type, or equal tensors (dtype, shape, strides, offset, values), sizes, dtypes,
    devices or plain values of the same type.  Returns both outcomes."""
    import torch
    mine, theirs = outcome(fn, tensorviz), outcome(fn, torch)
    if isinstance(theirs, BaseException) or isinstance(mine, BaseException):
        assert type(mine) is type(theirs), (mine, theirs)
        return mine, theirs
    if isinstance(theirs, torch.Tensor):
        assert isinstance(mine, tensorviz.Tensor), mine
        assert_same_tensor(mine, theirs, values=values)
    elif isinstance(theirs, torch.Size):
        assert isinstance(mine, tensorviz.Size) and tuple(mine) == tuple(theirs)
    elif isinstance(theirs, (tuple, list)) and theirs and isinstance(theirs[0], torch.Tensor):
        assert len(mine) == len(theirs)
        for m, t in zip(mine, theirs):
            assert_same_tensor(m, t, values=values)
    elif isinstance(theirs, torch.dtype):
        assert mine.name == str(theirs).split(".")[-1]
    elif isinstance(theirs, torch.device):
        assert str(mine) == str(theirs)
    elif isinstance(theirs, float) and theirs != theirs:
        assert mine != mine
    else:
        assert mine == theirs and type(mine) is type(theirs), (mine, theirs)
    return mine, theirs


def twins(torch, data: np.ndarray):
    """The same data as a tensorviz tensor and a PyTorch tensor (separate memory)."""
    return tensorviz.from_numpy(data.copy()), torch.from_numpy(data.copy())


# ---------------------------------------------------------------- strategies
if st is not None:

    def shapes(min_dims: int = 0, max_dims: int = 4, max_side: int = 5):
        """Random shapes; size-0 and size-1 dims turn up often."""
        return st.lists(st.integers(0, max_side), min_size=min_dims,
                        max_size=max_dims).map(tuple)

    def nonempty_shapes(min_dims: int = 0, max_dims: int = 4, max_side: int = 5):
        return st.lists(st.integers(1, max_side), min_size=min_dims,
                        max_size=max_dims).map(tuple)

    dtype_names = st.sampled_from(DTYPE_NAMES)

else:  # pragma: no cover
    shapes = nonempty_shapes = dtype_names = None


# A step is ``(name, args)``; args hold only ints, tuples, slices, None, Ellipsis and dtype
# names, so the same step runs on tensorviz and on PyTorch.
VIEW_DTYPES = ["uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64",
               "complex64", "complex128", "bool"]


def _dim(draw, n: int, extra: int = 1):
    """A dim for an ``n``-dim tensor: usually valid (negative too), sometimes out of range."""
    m = max(n, 1)
    return draw(st.integers(-m - extra, m - 1 + extra))


def _idx(draw, size: int):
    return draw(st.integers(-size - 1, size))


def draw_step(draw, shape: tuple, storage_numel: int):
    """One random view op that makes sense (or nearly: errors are tested too) for ``shape``."""
    n = len(shape)
    numel = int(np.prod(shape)) if shape else 1
    name = draw(st.sampled_from([
        "index", "index", "index", "select", "narrow", "t", "transpose", "swapaxes",
        "permute", "movedim", "view", "view", "view_dtype", "reshape", "flatten", "unflatten",
        "squeeze", "unsqueeze", "expand", "expand_as", "broadcast_to", "unfold", "diagonal",
        "chunk", "split", "unbind", "tensor_split", "as_strided", "view_as", "contiguous",
        "clone", "T", "mT"]))
    if name == "index":
        items = []
        for _ in range(draw(st.integers(0, n + 1))):
            kind = draw(st.sampled_from(["int", "slice", "slice", "none", "ellipsis"]))
            d = min(len([k for k in items if k is not None and k is not Ellipsis]), n - 1)
            size = shape[d] if n else 0
            if kind == "int":
                items.append(_idx(draw, size))
            elif kind == "slice":
                bound = st.one_of(st.none(), st.integers(-size - 2, size + 2))
                step = draw(st.one_of(st.none(), st.integers(1, 3), st.just(-1)))
                items.append(slice(draw(bound), draw(bound), step))
            elif kind == "none":
                items.append(None)
            else:
                items.append(Ellipsis)
        named = len([k for k in items if k is not None and k is not Ellipsis])
        if items.count(Ellipsis) > 1 and n > named:
            # Note: when several ellipses each skip dims, PyTorch walks past the tensor's last
            # dim and reads a size from beyond its sizes array (the answer depends on memory
            # contents), so such keys are not generated: the first ellipsis is kept.
            first = items.index(Ellipsis)
            items = [k for i, k in enumerate(items) if k is not Ellipsis or i == first]
        key = items[0] if len(items) == 1 and draw(st.booleans()) else tuple(items)
        return name, (key,)
    if name == "select":
        d = _dim(draw, n)
        size = shape[d] if n and -n <= d < n else 1
        return name, (d, _idx(draw, size))
    if name == "narrow":
        d = _dim(draw, n)
        size = shape[d] if n and -n <= d < n else 1
        start = draw(st.integers(-size - 1, size + 1))
        return name, (d, start, draw(st.integers(-1, size + 1)))
    if name in ("transpose", "swapaxes"):
        return name, (_dim(draw, n), _dim(draw, n))
    if name == "permute":
        perm = list(draw(st.permutations(range(n))))
        if perm and draw(st.integers(0, 9)) == 0:
            perm[0] = perm[-1]  # duplicate dims: an error
        perm = [p - n if draw(st.booleans()) else p for p in perm]
        return name, (tuple(perm),)
    if name == "movedim":
        k = draw(st.integers(0, n))
        src = draw(st.permutations(range(n)))[:k] if n else []
        dst = draw(st.permutations(range(n)))[:k] if n else []
        if draw(st.booleans()):
            return name, (tuple(src), tuple(dst))
        return name, ((src[0], dst[0]) if k else (0, 0))
    if name in ("view", "reshape"):
        return name, (draw_new_shape(draw, numel),)
    if name == "view_dtype":
        return name, (draw(st.sampled_from(VIEW_DTYPES)),)
    if name == "flatten":
        return name, (_dim(draw, n, 0), _dim(draw, n, 0))
    if name == "unflatten":
        d = _dim(draw, n, 0)
        size = shape[d] if n else 1
        return name, (d, draw_new_shape(draw, size, min_dims=1, max_dims=3))
    if name == "squeeze":
        choice = draw(st.integers(0, 2))
        if choice == 0:
            return name, ()
        if choice == 1:
            return name, (_dim(draw, n),)
        return name, (tuple(sorted(set(draw(st.lists(st.integers(-n, max(n - 1, 0)),
                                                         max_size=n))), key=abs)),)
    if name == "unsqueeze":
        return name, (draw(st.integers(-n - 2, n + 1)),)
    if name in ("expand", "broadcast_to", "expand_as"):
        lead = draw(st.lists(st.integers(0, 3), max_size=2))
        sizes = []
        for s in shape:
            opt = draw(st.integers(0, 5))
            if opt == 0:
                sizes.append(-1)
            elif s == 1 and opt > 2:
                sizes.append(draw(st.integers(0, 4)))
            elif opt == 5:
                sizes.append(s + 1)  # mismatch: an error
            else:
                sizes.append(s)
        sizes = tuple(lead) + tuple(sizes)
        if name == "expand_as":
            sizes = tuple(s if s >= 0 else 1 for s in sizes)
        return name, (sizes,)
    if name == "unfold":
        d = _dim(draw, n, 0)
        size = shape[d] if n else 1
        return name, (d, draw(st.integers(0, size + 1)), draw(st.integers(0, 3)))
    if name == "diagonal":
        return name, (draw(st.integers(-4, 4)), _dim(draw, n, 0), _dim(draw, n, 0))
    if name == "chunk":
        return name, (draw(st.integers(0, 4)), _dim(draw, n, 0), draw(st.integers(0, 5)))
    if name == "split":
        d = _dim(draw, n, 0)
        size = shape[d] if n else 0
        if draw(st.booleans()):
            arg = draw(st.integers(0, 4))
        else:
            parts = draw(st.lists(st.integers(0, size), max_size=3))
            arg = parts + [size - sum(parts)] if sum(parts) <= size and draw(st.booleans()) \
                else parts
        return name, (arg, d, draw(st.integers(0, 5)))
    if name == "unbind":
        return name, (_dim(draw, n, 0), draw(st.integers(0, 5)))
    if name == "tensor_split":
        d = _dim(draw, n, 0)
        if draw(st.booleans()):
            arg = draw(st.integers(0, 4))
        else:
            size = shape[d] if n else 0
            arg = draw(st.lists(st.integers(-size - 1, size + 1), max_size=3))
        return name, (arg, d, draw(st.integers(0, 5)))
    if name == "as_strided":
        k = draw(st.integers(0, 3))
        size = tuple(draw(st.lists(st.integers(0, 4), min_size=k, max_size=k)))
        stride = tuple(draw(st.lists(st.integers(0, 4), min_size=k, max_size=k)))
        if k and draw(st.integers(0, 9)) == 0:
            stride = (-1,) + stride[1:]
        off = draw(st.one_of(st.none(), st.integers(0, storage_numel + 1)))
        return name, (size, stride, off)
    if name == "view_as":
        return name, (draw_new_shape(draw, numel),)
    return name, ()


def draw_new_shape(draw, numel: int, min_dims: int = 0, max_dims: int = 4) -> tuple:
    """A shape with ``numel`` elements (sometimes one -1, sometimes a wrong one)."""
    dims = []
    rest = numel
    for _ in range(draw(st.integers(min_dims, max_dims)) - 1):
        divisors = [d for d in range(1, min(rest, 6) + 1) if rest % d == 0] if rest else [0, 1, 2]
        d = draw(st.sampled_from(divisors))
        dims.append(d)
        rest = rest // d if d else rest
    if min_dims or dims or rest != 1 or draw(st.booleans()):
        dims.append(rest)
    if dims and draw(st.integers(0, 3)) == 0:
        dims[draw(st.integers(0, len(dims) - 1))] = -1
    if draw(st.integers(0, 15)) == 0:
        dims.append(2)  # usually the wrong number of elements: an error
    return tuple(dims)


def apply_step(lib, t, step):
    """Run one view-chain step on a tensorviz or PyTorch tensor (``lib`` is the module)."""
    name, args = step
    if name == "index":
        return t[args[0]]
    if name == "view_dtype":
        return t.view(getattr(lib, args[0]))
    if name in ("chunk", "split", "unbind", "tensor_split"):
        *call_args, pick = args
        pieces = getattr(t, name)(*call_args)
        return pieces[pick % len(pieces)] if pieces else None
    if name == "expand_as":
        return t.expand_as(lib.empty(args[0]))
    if name == "view_as":
        return t.view_as(lib.empty(args[0]))
    if name == "as_strided":
        size, stride, off = args
        return t.as_strided(size, stride) if off is None else t.as_strided(size, stride, off)
    if name == "T":  # (PyTorch warns once per process for other ranks: avoided)
        return t.T if t.dim() == 2 else t.t()
    if name == "mT":  # (PyTorch warns once per process on 0-dim tensors: avoided)
        return t.mT if t.dim() else t.t()
    return getattr(t, name)(*args)


if st is not None:

    @st.composite
    def view_chains(draw, max_steps: int = 6):
        """(dtype name, base shape, a function drawing steps) for a random view chain."""
        dtype = draw(st.sampled_from(["int64", "float32", "int16", "uint8", "float64",
                                      "complex64", "int32"]))
        shape = draw(shapes(0, 4, 4))
        return dtype, shape


if __name__ in sys.modules:
    sys.modules.setdefault("tv_core_conftest", sys.modules[__name__])
