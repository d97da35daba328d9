"""Writes whose source shares memory with the destination, against PyTorch: an input that
partly overlaps the written-to tensor is refused (RuntimeError) by in-place ops, ``copy_`` and
``out=``; the index ops refuse even a source that is the destination itself. Layouts PyTorch's
check cannot tell (not dense, or a source it broadcasts first) pass it, and its kernels then read
what they already overwrote (undefined): there tensorviz gives PyTorch's result for a copy of
the source."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import tensorviz  # noqa: E402

CASES = {
    "add_-self": lambda lib, x: x.add_(x),
    "add_-shifted": lambda lib, x: x[1:].add_(x[:-1]),
    "add_-transposed": lambda lib, x: x.view(4, 4).add_(x.view(4, 4).t()),
    "add_-row": lambda lib, x: x.view(4, 4).add_(x.view(4, 4)[0]),
    "add_-0dim": lambda lib, x: x.add_(x[0]),
    "mul_-disjoint": lambda lib, x: x[:8].mul_(x[8:]),
    "sub_-strided": lambda lib, x: x[::2].sub_(x[1::2]),
    "copy_-shifted": lambda lib, x: x[1:5].copy_(x[:4]),
    "copy_-column": lambda lib, x: x.view(4, 4)[0].copy_(x.view(4, 4)[:, 0]),
    "copy_-transposed": lambda lib, x: x.view(4, 4).copy_(x.view(4, 4).t()),
    "index_add_-self": lambda lib, x: x.index_add_(0, lib.arange(16), x),
    "index_copy_-shifted": lambda lib, x: x.index_copy_(0, lib.tensor([0, 1]), x[1:3]),
    "index_put_-shifted": lambda lib, x: x.index_put_((lib.tensor([0, 1]),), x[1:3]),
    "put_-shifted": lambda lib, x: x.put_(lib.tensor([0, 1]), x[1:3]),
    "scatter_-self": lambda lib, x: x.scatter_(0, lib.arange(16), x),
    "scatter_add_-shifted": lambda lib, x: x.scatter_add_(0, lib.tensor([0, 1]), x[1:3]),
    "scatter_reduce_-shifted": lambda lib, x: x.scatter_reduce_(0, lib.tensor([0, 1]), x[1:3],
                                                                "sum"),
    "index_fill_-value": lambda lib, x: x.index_fill_(0, lib.tensor([1]), x[0]),
    "gather-out": lambda lib, x: lib.gather(x, 0, lib.tensor([0, 1]), out=x[1:3]),
    "index_select-out": lambda lib, x: lib.index_select(x, 0, lib.tensor([0, 1]), out=x[1:3]),
    "take-out": lambda lib, x: lib.take(x, lib.tensor([0, 1]), out=x[1:3]),
    "mm-out-disjoint": lambda lib, x: lib.mm(x[:4].view(2, 2), x[4:8].view(2, 2),
                                             out=x[8:12].view(2, 2)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_overlapping_writes(tvdiff, name):
    x = tvdiff.make((16,), "float32", seed=1)

    def f(lib, t):
        t = t.clone()
        CASES[name](lib, t)
        return t
    tvdiff.check(f, x, warns=False)


@pytest.mark.parametrize("dtype", ["float32", "int32", "float64", "complex64"])
@pytest.mark.parametrize("geometry", [((2, 2), (6, 4), 0), ((2, 3), (6, 4), 1), ((3, 2), (4, 6), 0),
                                      ((4,), (3,), 2), ((2, 2), (5, 2), 0)])
def test_neg_in_place_of_strided_views(tvdiff, dtype, geometry):
    """``neg_`` of a strided view negates exactly its elements (NumPy 2.4's 4-byte negative
    loop, run with its output as its input, writes wrong values for some 2-D strides)."""
    x = tvdiff.make((24,), dtype, seed=3)
    size, stride, offset = geometry

    def f(lib, t):
        t = t.clone()
        t.as_strided(size, stride, offset).neg_()
        return t
    tvdiff.check(f, x, warns=False)


_LAYOUTS = {  # (destination, source) views of one 4x4 tensor
    "same": lambda b: (b, b), "transposed": lambda b: (b, b.t()),
    "stepped": lambda b: (b, b[:, :1]), "shifted": lambda b: (b[:3], b[1:]),
    "row": lambda b: (b, b[0]), "flat": lambda b: (b.view(16)[:8].view(2, 4),
                                                   b.view(16)[4:12].view(2, 4)),
    "diagonal": lambda b: (b, b.diagonal().unsqueeze(0)),
    "column-stepped": lambda b: (b[:, ::2], b[:, :2]),
}
_WRITES = {
    "add_": lambda T, d, s: d.add_(s), "hypot_": lambda T, d, s: d.hypot_(s),
    "lerp_": lambda T, d, s: d.lerp_(s, 0.5), "addcmul_": lambda T, d, s: d.addcmul_(s, s),
    "atan2_": lambda T, d, s: d.atan2_(s), "fmod_": lambda T, d, s: d.fmod_(s),
    "xlogy_": lambda T, d, s: d.xlogy_(s), "logical_and_": lambda T, d, s: d.logical_and_(s),
    "ldexp_": lambda T, d, s: d.ldexp_(s), "clamp_": lambda T, d, s: d.clamp_(s),
    "eq_": lambda T, d, s: d.eq_(s), "copy_": lambda T, d, s: d.copy_(s),
    "setitem": lambda T, d, s: d.__setitem__(slice(None), s),
    "where-out": lambda T, d, s: T.where(s > 2, s, d, out=d),
    "cumsum-out": lambda T, d, s: T.cumsum(s, 0, out=d),
    "msort-out": lambda T, d, s: T.msort(s, out=d),
    "sort-out": lambda T, d, s: T.sort(s, out=(d, T.empty(0, dtype=T.long))),
}


@pytest.mark.parametrize("op", sorted(_WRITES))
def test_writes_into_memory_their_inputs_share(op):
    """In-place ops, ``out=`` and setitem whose destination shares memory with an input: PyTorch's
    overlap errors where it raises them (dense layouts that overlap other than element for
    element; broadcast sources and non-dense layouts pass its check), and otherwise PyTorch's
    result for a copy of the input (what PyTorch's own loop reads there is undefined)."""
    for layout, views in _LAYOUTS.items():
        got = []
        for T, copy in ((tensorviz, False), (torch, False), (torch, True)):
            b = T.arange(16, dtype=T.float64).reshape(4, 4) - 5
            d, s = views(b)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    _WRITES[op](T, d, s.clone() if copy else s)
                    got.append(b.tolist())
                except RuntimeError as e:
                    got.append(str(e))
        mine, real, copied = got
        if isinstance(real, str) or isinstance(mine, str):
            assert mine == real, (op, layout, mine, real)
        else:
            np.testing.assert_allclose(mine, copied, rtol=1e-12, err_msg=f"{op} {layout}")


_OUT_OPS = {  # an out= of each checking policy (tensorviz._dispatch.op's out_overlap)
    "mm": lambda T, x, o: T.mm(x, x, out=o), "matmul": lambda T, x, o: T.matmul(x, x, out=o),
    "bmm": lambda T, x, o: T.bmm(x[None], x[None], out=o), "tril": lambda T, x, o: T.tril(x, out=o),
    "diag": lambda T, x, o: T.diag(x, out=o), "dot": lambda T, x, o: T.dot(x[0], x[1], out=o),
    "argmax": lambda T, x, o: T.argmax(x, 0, out=o),
    "vector_norm": lambda T, x, o: T.linalg.vector_norm(x, dim=0, out=o),
    "addmm": lambda T, x, o: T.addmm(x, x, x, out=o),
    "baddbmm": lambda T, x, o: T.baddbmm(x[None], x[None], x[None], out=o),
    "gather": lambda T, x, o: T.gather(x, 0, T.zeros(4, 4, dtype=T.long), out=o),
    "take_along_dim": lambda T, x, o: T.take_along_dim(x, T.zeros(4, 4, dtype=T.long), 0, out=o),
    "index_select": lambda T, x, o: T.index_select(x, 0, T.tensor([1, 0, 2, 3]), out=o),
    "masked_select": lambda T, x, o: T.masked_select(x, x > 3, out=o),
    "take": lambda T, x, o: T.take(x, T.tensor([[1, 0, 2, 3]] * 4), out=o),
    "floor": lambda T, x, o: T.floor(x, out=o), "cat": lambda T, x, o: T.cat([x[:, :2]], out=o),
    "stack": lambda T, x, o: T.stack([x.diagonal()], out=o),
    "asinh": lambda T, x, o: T.asinh(x, out=o), "add": lambda T, x, o: T.add(x, x[0], out=o),
    "fmax": lambda T, x, o: T.fmax(x, x.t(), out=o),
    "maximum": lambda T, x, o: T.maximum(x.t(), x, out=o),
    "ldexp": lambda T, x, o: T.ldexp(x, x.t() / 8, out=o),
    "chain_matmul-one": lambda T, x, o: T.chain_matmul(x.t(), out=o),
    "kron": lambda T, x, o: T.kron(x[:2, :2], x[2:, 2:], out=o),
    "index_copy": lambda T, x, o: T.index_copy(x, 0, T.tensor([0, 1]), x[2:], out=o),
    "index_add": lambda T, x, o: T.index_add(x, 0, T.tensor([0, 1]), x[2:], out=o),
    "scatter_add": lambda T, x, o: T.scatter_add(x, 0, T.zeros(2, 4, dtype=T.long), x[2:],
                                                 out=o),
}
_OUTS = {"same": lambda b: b, "transposed": lambda b: b.t(), "row": lambda b: b[0],
         "shifted": lambda b: b.view(-1)[1:], "element": lambda b: b[1, 1],
         "stepped": lambda b: b[:, ::2], "expanded": lambda b: b[0].expand(4, 4)}


@pytest.mark.parametrize("op", sorted(_OUT_OPS))
def test_out_sharing_memory_with_an_input(op):
    """``out=`` sharing memory with an input, for ops whose kernels check it differently
    (TensorIterator's partial-overlap check on out as given, an expanded out refused first;
    the index ops' refusal of any overlap; addmm's check of its added input only, against out
    as resized; index_copy/index_add/scatter_add's copy of the input and refusal of a source
    in out; mm and the other products not at all): PyTorch's errors, and where it runs, its
    result for a copy of the input (its own kernel may read what it already wrote)."""
    for layout, view in _OUTS.items():
        if op == "tril" and layout == "expanded":
            continue  # (left: PyTorch's tril writes into an expanded out=, tensorviz refuses)
        got, grown = [], False
        for T, copy in ((tensorviz, False), (torch, False), (torch, True)):
            b = T.arange(16, dtype=T.float64).reshape(4, 4) + 20 * T.eye(4, dtype=T.float64)
            if op == "argmax":
                b = T.arange(16).reshape(4, 4)
            o = view(b)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    _OUT_OPS[op](T, b.clone() if copy else b, o)
                    got.append(b.tolist())
                except RuntimeError as e:
                    got.append(str(e))
            # (an out grown past the storage: a new one in tensorviz, see Tensor.resize_)
            grown = grown or T is tensorviz and o._storage is not b._storage
        mine, real, copied = got
        if isinstance(real, str) or isinstance(mine, str):
            assert mine == real, (op, layout, mine, real)
        elif not grown:
            np.testing.assert_allclose(mine, copied, rtol=1e-12, err_msg=f"{op} {layout}")


_LAZY_WRITES = {
    "add_": lambda T, x, s: x[:3].add_(s), "mul_": lambda T, x, s: x[:3].mul_(s),
    "copy_": lambda T, x, s: x[:3].copy_(s), "setitem": lambda T, x, s: x[:3].__setitem__(
        slice(None), s), "setitem-index": lambda T, x, s: x[:3].__setitem__(T.tensor([0, 1, 2]), s),
    "put_": lambda T, x, s: x.put_(T.tensor([0, 1, 2]), s),
    "index_copy_": lambda T, x, s: x.index_copy_(0, T.tensor([0, 1, 2]), s),
    "masked_scatter_": lambda T, x, s: x.masked_scatter_(T.tensor([True, True, True, False]), s),
    "neg-out": lambda T, x, s: T.neg(s, out=x[:3]),
}


@pytest.mark.parametrize("op", sorted(_LAZY_WRITES))
@pytest.mark.parametrize("lazy", ["conj", "neg"])
def test_lazy_source_sharing_memory_is_read_first(op, lazy):
    """A lazy conjugate (or negative) view of the destination's memory as the source: PyTorch
    reads it into a new tensor first (no overlap error, the values of a copy), except copy_
    and the setitem that is copy_, which refuse it as any partly overlapping source."""
    got = []
    for T in (tensorviz, torch):
        x = T.tensor([1 + 2j, 3 + 4j, 5 + 6j, 7 + 8j])
        if lazy == "conj":
            s = x[1:].conj()
        else:  # (the imaginary part of a conjugate view is a lazy negation of x.imag)
            x, s = x.imag, x.conj().imag[1:]
        try:
            _LAZY_WRITES[op](T, x, s)
            got.append(x.tolist())
        except RuntimeError as e:
            got.append(str(e))
    assert got[0] == got[1]


_EXPANDED = {
    "triu_-rows": lambda T: T.tensor([[1, 2]]).expand(3, 2).triu_(0),
    "tril_-rows": lambda T: T.tensor([[1, 2]]).expand(2, 2).tril_(0),
    "tril_-columns": lambda T: T.tensor([[1], [2]]).expand(2, 3).tril_(1),
    "triu_-one": lambda T: T.tensor([[127, 5]])[:, :1].expand(3, 2).triu_(-1),
    "index_fill_": lambda T: T.tensor([-6]).expand(4).index_fill_(0, T.tensor([-1, 3]), 3),
    "index_fill_-rows": lambda T: T.tensor([[1, 2]]).expand(3, 2).index_fill_(1, T.tensor([1]), 9),
    "add_": lambda T: T.tensor([[1, 2]]).expand(3, 2).add_(1),
}


@pytest.mark.parametrize("op", sorted(_EXPANDED))
def test_expanded_self(op):
    """An in-place op on an expanded tensor (several elements, one memory location): PyTorch's
    error where its kernel checks (the elementwise ops), else its values (triu_/tril_ write
    zeros only, never the elements they keep) and its deprecation warning (index_fill_)."""
    got = []
    for T in (tensorviz, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                got.append((_EXPANDED[op](T).tolist(), [str(w.message)[:60] for w in caught]))
            except RuntimeError as e:
                got.append(str(e))
    assert got[0] == got[1]


@pytest.mark.parametrize("code", [
    "v1[-1] = v2", "v1[0] = v2.view(1)", "v1[0:1] = v2", "v1[:, 0] = v2", "v1[...] = v2",
    "v0[0] = v0[0, :1]", "v0[0, 0] = v0[0, 1]", "v0[None] = v0", "v0[:] = v0[0]",
    "v0[0, :1] = v0[0, 1:]", "v3[None] = v3", "v4.expand(2, 3)[:] = v4",
    "T.atanh(v5.mT, out=v5.conj())", "T.add(v5.mT, 1, out=v5.conj())",
])
def test_setitem_value_and_lazy_out_as_pytorch_checks_them(code):
    """setitem checks its value as PyTorch's copy_to hands it to copy_ (of dest's shape: as
    it is; else its leading 1s dropped and expanded to dest's shape; a 0-dim value is a fill
    of its number), so a one-element view of another stride is refused where PyTorch refuses
    it; an out= that is a lazy conjugate view is computed apart and copied in (no error)."""
    got = []
    for T in (tensorviz, torch):
        v0 = T.tensor([[4, -2, 3]], dtype=T.int8)
        v1 = v0[..., ::2][:, :1]
        v2 = v1.permute(1, 0)
        v3, v4 = T.tensor(False), T.arange(3.0)
        v5 = T.tensor([[1 + 2j, 3 + 1j], [0.5 + 1j, 2 + 2j]])
        try:
            exec(code)  # noqa: S102 - the test's own statements
            got.append([v0.tolist(), v3.item(), v4.tolist(), v5.tolist()])
        except RuntimeError as e:
            got.append(str(e))
    if isinstance(got[0], str) or isinstance(got[1], str):
        assert got[0] == got[1]
    else:
        np.testing.assert_allclose(np.array(got[0][3]), np.array(got[1][3]), rtol=1e-6)
        assert got[0][:3] == got[1][:3]


@pytest.mark.parametrize("name", ["index_copy", "index_add", "scatter", "scatter_add"])
def test_index_op_out_that_is_its_index(name):
    """An out-of-place index op whose out= is its own index tensor: PyTorch's overlap error."""
    got = []
    for T in (tensorviz, torch):
        x, i = T.arange(4), T.tensor([0, 1, 2, 3])
        f = getattr(T, name)
        with pytest.raises(RuntimeError) as e:
            f(x, 0, i, x.flip(0), out=i)
        got.append(str(e.value))
    assert got[0] == got[1]
