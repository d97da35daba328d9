"""The meta device against PyTorch: creation without memory, printing, shapes/strides/dtypes of
views and op results, the errors for reading values, moving to and from it, nn modules, and
the widget drawing a layout of 10**12 elements."""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorviz

torch = pytest.importorskip("torch")


def outcome(lib, program: str):
    """What ``program`` (``T`` is the library, ``r`` the result) gives, library-neutral."""
    env = {"T": lib}
    try:
        exec(program, env)
    except Exception as e:  # noqa: BLE001 - compared
        return ("error", type(e).__name__, str(e).replace("torch.", "").replace("tensorviz.", ""))
    return describe(lib, env["r"])


def describe(lib, r):
    if isinstance(r, lib.Tensor):
        return ("tensor", str(r.dtype).split(".")[-1], str(r.device), tuple(r.shape),
                _strides(r), r.storage_offset(),
                repr(r).replace("torch.", "").replace("tensorviz.", ""))
    if isinstance(r, tuple):
        return tuple(describe(lib, v) for v in r)
    return ("value", repr(r).replace("torch.", "").replace("tensorviz.", ""))


def _strides(t):
    # Note: strides of dims of size 1, and of empty tensors, never address anything; they are
    # not compared (PyTorch's own meta and CPU kernels differ there).
    if t.numel() == 0:
        return None
    return tuple(s if n > 1 else None for s, n in zip(t.stride(), t.shape))


BIG = "x = T.empty(10**6, 10**6, device='meta'); "
SMALL = "y = T.empty(2, 3, device='meta'); "
PROGRAMS = [
    # creation and printing
    BIG + "r = x",
    BIG + "r = (x.untyped_storage().nbytes(), x.is_meta, x.get_device(), x.is_cpu, x.nbytes)",
    "r = T.zeros(10**6, 10**6, device='meta')",
    "r = T.ones(10**6, 10**6, device='meta', dtype=T.int64)",
    "r = T.full((10**6, 10**6), 3.5, device='meta')",
    "r = T.empty(0, device='meta')",
    "r = T.empty((), device='meta')",
    "r = T.empty(2, 3, device='meta', dtype=T.float64)",
    "r = T.empty(2, 3, device='meta', requires_grad=True)",
    "r = T.arange(5, device='meta')",
    "r = T.tensor([1, 2], device='meta')",
    "r = T.randn(3, device='meta')",
    "r = T.empty(2, device=T.device('meta')).device",
    "with T.device('meta'): r = T.ones(4, 5)",
    # views and ops on a 10**12-element tensor
    BIG + "r = x @ x",
    BIG + "r = x.sum(0)",
    BIG + "r = x.sum()",
    BIG + "r = x + 1",
    BIG + "r = (x * 2.5).t()",
    BIG + "r = x[::2, 5]",
    BIG + "r = x.mean(1, keepdim=True)",
    BIG + "r = x.max(0)",
    BIG + "r = x.argmax()",
    BIG + "r = x.view(-1)",
    BIG + "r = x.t().reshape(-1)",
    BIG + "r = x.t().contiguous()",
    BIG + "r = x.to(T.float16)",
    BIG + "r = x > 0",
    BIG + "r = x.relu()",
    BIG + "r = x.softmax(-1)",
    BIG + "r = x.unsqueeze(0).expand(3, -1, -1)",
    BIG + "r = T.cat([x, x])",
    BIG + "r = x.cumsum(1)",
    BIG + "r = x.clone()",
    BIG + "r = T.zeros_like(x)",
    # small ones: results, in-place ops, indexing
    SMALL + "r = str(y.sum())",
    SMALL + "r = y.sort()",
    SMALL + "r = y.any()",
    SMALL + "r = y.t().clone()",
    SMALL + "r = y.new_zeros(3)",
    SMALL + "r = y.reshape(3, 2)",
    SMALL + "r = y.mean(dtype=T.float64)",
    SMALL + "r = y.to('meta') is y",
    SMALL + "y.add_(1); r = y",
    SMALL + "y[0] = 5; r = y",
    SMALL + "r = y[[0, 1, 1]]",
    SMALL + "r = T.where(y > 0, y, 0.)",
    SMALL + "r = y + T.tensor(1.)",
    SMALL + "r = y[1:].storage_offset()",
    "y = T.empty(2, 3, 4, device='meta'); r = y.permute(2, 0, 1) * 2",
    "y = T.empty(2, 3, 4, device='meta'); r = y.permute(2, 0, 1).sum(-1)",
    "r = T.zeros(2, 3).t().to('meta')",
    # values are not there
    SMALL + "r = y.item()",
    SMALL + "r = y.numpy()",
    SMALL + "r = y.tolist()",
    SMALL + "r = y.to('cpu')",
    SMALL + "r = y.cpu()",
    "r = T.empty((), device='meta').item()",
    SMALL + "r = bool(y[0, 0])",
    SMALL + "r = float(y[0, 0])",
    SMALL + "r = y + T.ones(2, 3)",
    SMALL + "r = T.ones(2, 3) + y",
    SMALL + "r = T.nonzero(y)",
    SMALL + "r = y[y > 0]",
    SMALL + "r = T.equal(y, y)",
    SMALL + "r = y.unique()",
    SMALL + "r = y.long().bincount()",
    SMALL + "r = y.t().view(6)",
    # nn
    "l = T.nn.Linear(3, 5, device='meta'); r = l.weight",
    "l = T.nn.Linear(3, 5).to('meta'); r = l(T.empty(7, 3, device='meta'))",
    "y = T.empty(4, 3, 8, 8, device='meta'); "
    "r = T.nn.functional.conv2d(y, T.empty(6, 3, 3, 3, device='meta'), padding=1)",
    "y = T.empty(2, 3, device='meta', requires_grad=True); r = (y * 2).sum()",
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_matches_pytorch(program):
    assert outcome(tensorviz, program) == outcome(torch, program)


VIEWS = ["r = r.t() if r.dim() == 2 else r", "r = r[..., ::2]", "r = r.unsqueeze(0)",
         "r = r.flip(-1) if r.dim() else r", "r = r.transpose(0, -1) if r.dim() else r",
         "r = r.reshape(-1)", "r = r.contiguous()", "r = r * 2.5", "r = r + 1",
         "r = r > 0", "r = r.sum(-1) if r.dim() else r", "r = r.mean(0) if r.dim() else r",
         "r = r.to(T.float64)", "r = r.exp()", "r = r.cumsum(0) if r.dim() else r",
         "r = r.expand(2, *r.shape)", "r = r.amax(-1) if r.dim() and r.shape[-1] else r",
         "r = r.movedim(0, -1) if r.dim() else r", "r = r @ r.mT if r.dim() >= 2 and r.dtype != T.bool else r",
         "r = r.clone()", "r = r.sigmoid() if r.is_floating_point() else r"]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from([0, 1, 2, 3, 5, 1000]), min_size=0, max_size=3),
       st.lists(st.sampled_from(VIEWS), min_size=1, max_size=4),
       st.sampled_from(["float32", "int64", "bfloat16", "bool"]))
def test_random_view_and_op_chains_match_pytorch(shape, steps, dtype):
    program = f"r = T.empty({tuple(shape)!r}, device='meta', dtype=T.{dtype})\n" + \
        "\n".join(steps)
    mine, theirs = outcome(tensorviz, program), outcome(torch, program)
    if theirs[0] != "error" and max(shape, default=0) < 10:  # (small enough for the CPU)
        # Note: PyTorch's meta kernels skip some of its CPU kernels' dtype and overlap checks
        # (``bool @ bool``, ``abs_`` of bool, in place into an expanded tensor); tensorviz
        # keeps the CPU's refusals on the meta device.
        on_cpu = outcome(torch, program.replace("device='meta'", "device='cpu'"))
        if on_cpu[0] == "error":
            theirs = on_cpu
    if theirs[0] == "error":  # (PyTorch's meta kernels word some refusals their own way:
        mine, theirs = mine[:2], theirs[:2]  # "Got: int64" where the CPU says "Got: Long")
    assert mine == theirs


def test_nothing_is_allocated_for_a_trillion_elements():
    tracemalloc.start()
    try:
        x = tensorviz.empty(10**6, 10**6, device="meta")
        results = [x @ x, x.sum(0), (x + 1).t()[::2], x.softmax(-1), tensorviz.cat([x, x]),
                   x.to(tensorviz.float16), x.max(1).indices, tensorviz.zeros_like(x)]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert all(r.device.type == "meta" for r in results)
    assert peak < 10 * 2**20  # (NumPy reports its buffers to tracemalloc: a few KiB here)


def test_a_meta_model_draws_no_random_numbers():
    tracemalloc.start()
    try:
        model = tensorviz.nn.Linear(100_000, 100_000, device="meta")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert model.weight.is_meta and model.weight.numel() == 10**10
    assert peak < 10 * 2**20


def test_widget_draws_the_layout_and_no_values():
    from tensorviz.viz._source import Source
    x = tensorviz.empty(10**6, 10**6, device="meta")
    src = Source(x.t()[::2])
    lay = src.layout()
    assert lay.device == "meta" and lay.storage_size == 10**12
    assert lay.shape == (5 * 10**5, 10**6) and lay.stride == (2, 10**6)
    assert src.read(0, 32) is None and src.gather(np.arange(4)) is None
    bundle = tensorviz.show(x)._repr_mimebundle_()
    html = (bundle[0] if isinstance(bundle, tuple) else bundle)["text/html"]
    assert "1000000000000 elements" in html and "meta" in html


def test_save_load_both_ways(tmp_path):
    # PyTorch saves a meta tensor's layout only (_rebuild_meta_tensor_no_storage): no bytes
    torch.save({"x": torch.empty(2, 3, device="meta").t(),
                "sd": torch.nn.Linear(3, 4, device="meta").state_dict()}, tmp_path / "pt.pt")
    got = tensorviz.load(tmp_path / "pt.pt")
    assert got["x"].is_meta and got["x"].shape == (3, 2) and got["x"].stride() == (1, 3)
    assert got["sd"]["weight"].is_meta and got["sd"]["weight"].shape == (4, 3)
    model = tensorviz.nn.Linear(3, 4, device="meta")
    tensorviz.save({"x": tensorviz.empty(10**6, 10**6, device="meta")[::2],
                    "p": model.weight, "sd": model.state_dict()}, tmp_path / "tv.pt")
    back = torch.load(tmp_path / "tv.pt")
    assert back["x"].is_meta and back["x"].shape == (5 * 10**5, 10**6)
    assert back["x"].stride() == (2 * 10**6, 1)
    assert isinstance(back["p"], torch.nn.Parameter) and back["p"].is_meta
    assert back["sd"]["bias"].is_meta and back["sd"]["bias"].shape == (4,)
    assert (tmp_path / "tv.pt").stat().st_size < 4096  # (no bytes for 10**12 elements)


def test_a_model_trains_a_step_on_meta_as_pytorch():
    """Linear → ReLU → cross_entropy and Conv2d → max_pool2d, forward and backward on meta:
    the same shapes, devices and grad_fn names as PyTorch (a meta target has no values to
    bounds-check)."""
    def run(T):
        F = T.nn.functional
        T.manual_seed(0)
        m = T.nn.Linear(4, 3, device="meta")
        y = F.relu(m(T.empty(2, 4, device="meta")))
        loss = F.cross_entropy(y, T.zeros(2, dtype=T.long, device="meta"))
        loss.backward()
        c = T.nn.Conv2d(1, 2, 3, device="meta")
        z = F.max_pool2d(c(T.empty(1, 1, 8, 8, device="meta")), 2)
        z.sum().backward()
        return [(tuple(t.shape), str(t.device), t.grad_fn.name() if t.grad_fn else None)
                for t in (y, loss, z, m.weight.grad, m.bias.grad, c.weight.grad)]
    assert run(tensorviz) == run(torch)
