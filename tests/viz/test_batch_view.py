"""The batch view's state: the indices, samples, batches and worker ids it shows are the ones the
loader really produces (tensorviz and PyTorch), from real worker processes; payloads bounded;
text escaped; bad input says what to do."""
from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("anywidget", reason="the widget tests need anywidget")

import tensorviz
from tensorviz.viz._batches import MAX_BATCHES, MAX_SAMPLES, MAX_VALUES, BatchView

torch = pytest.importorskip("torch")
LIBS = {"tensorviz": tensorviz, "torch": torch}


def _dataset(L, n: int = 40):
    x = L.arange(n * 64, dtype=L.float32).reshape(n, 8, 8)
    y = L.arange(n) % 10
    return L.utils.data.TensorDataset(x, y)


@pytest.mark.parametrize("library", list(LIBS))
@pytest.mark.parametrize("seed", [0, 7])
def test_batches_are_the_loaders_own(library, seed):
    """The traced copy gives the batches the loader gives: same shuffled indices, same data."""
    L = LIBS[library]
    ds = _dataset(L)
    plain = L.utils.data.DataLoader(ds, batch_size=6, shuffle=True,
                                    generator=L.Generator().manual_seed(seed))
    traced = L.utils.data.DataLoader(ds, batch_size=6, shuffle=True,
                                     generator=L.Generator().manual_seed(seed))
    want = list(plain)
    view = BatchView(traced, batches=0)
    got = list(view)
    assert len(got) == len(want) == 7
    for (gx, gy), (wx, wy) in zip(got, want):
        assert L.equal(gx, wx) and L.equal(gy, wy)
    for trace, (wx, wy) in zip(view.traces, want):
        # each index names the sample that ended up in the batch
        assert trace["indices"] == [int(i) for i in (wx[:, 0, 0] // 64).tolist()]
        assert trace["worker"] is None and trace["pid"] == os.getpid()
        assert trace["batch"]["items"][0]["shape"] == list(wx.shape)


@pytest.mark.parametrize("library", list(LIBS))
def test_worker_ids_come_from_the_worker_processes(library):
    L = LIBS[library]
    loader = L.utils.data.DataLoader(_dataset(L, 24), batch_size=4, num_workers=2)
    view = BatchView(loader, batches=5)
    workers = [t["worker"] for t in view.traces]
    assert workers == [0, 1, 0, 1, 0]  # PyTorch hands batch k to worker k % num_workers
    pids = {t["worker"]: t["pid"] for t in view.traces}
    assert len(set(pids.values())) == 2 and os.getpid() not in pids.values()
    assert all(t["num_workers"] == 2 for t in view.traces)
    assert [t["indices"] for t in view.traces] == [list(range(4 * k, 4 * k + 4))
                                                    for k in range(5)]


def test_worker_order_matches_pytorch_with_a_collate_that_asks():
    """Differential: a collate_fn calling get_worker_info() itself sees what the view shows."""
    def ask(batch, L):
        info = L.utils.data.get_worker_info()
        return info.id

    got = {}
    for name, L in LIBS.items():
        loader = L.utils.data.DataLoader(_dataset(L, 30), batch_size=3, num_workers=2,
                                         collate_fn=lambda b, L=L: ask(b, L))
        got[name] = list(loader)
    view = BatchView(tensorviz.utils.data.DataLoader(_dataset(tensorviz, 30), batch_size=3,
                                                     num_workers=2), batches=10)
    assert got["tensorviz"] == got["torch"] == [t["worker"] for t in view.traces]


def test_payload_is_bounded():
    L = tensorviz
    ds = L.utils.data.TensorDataset(L.zeros(400, 32, 32), L.zeros(400))
    loader = L.utils.data.DataLoader(ds, batch_size=20)
    view = BatchView(loader, batches=0)
    for _ in view:
        pass
    assert len(view.batches) == MAX_BATCHES
    assert [t["number"] for t in view.batches] == list(range(20 - MAX_BATCHES, 20))
    for t in view.batches:
        assert len(t["samples"]) == MAX_SAMPLES
        assert len(t["samples"][0]["items"][0]["values"]) == MAX_VALUES
        assert "image" not in t["samples"][0]["items"][0]  # 32 x 32 is too big to draw
        assert len(t["batch"]["items"][0]["values"]) == MAX_VALUES
    import json
    assert len(json.dumps(view.get_state(["batches"]))) < 1_500_000


def test_images_and_labels_described():
    view = BatchView(tensorviz.utils.data.DataLoader(_dataset(tensorviz), batch_size=3),
                     batches=1)
    sample = view.traces[0]["samples"][1]
    x, y = sample["items"]
    assert x["image"] == 8 and x["values"][:2] == [64.0, 65.0]
    assert y == {"kind": "tensor", "shape": [], "dtype": "torch.int64", "values": [1],
                 "numel": 1}
    assert view.loader["sampler"] == "SequentialSampler"
    assert view.loader["collate_fn"] == "default_collate"
    assert view.loader["batches"] == 14


class Weird(tensorviz.utils.data.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return {"<b>name</b>": f"<script>{i}</script>"}


def test_text_is_escaped():
    view = BatchView(tensorviz.utils.data.DataLoader(Weird(), batch_size=2), batches=2)
    page = view.to_html()
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "<b>name</b>" not in page


def test_bad_input_says_what_to_do():
    with pytest.raises(TypeError, match="takes a DataLoader"):
        BatchView([1, 2, 3])
    loader = tensorviz.utils.data.DataLoader(_dataset(tensorviz), batch_size=None)
    with pytest.raises(ValueError, match="give the DataLoader a batch_size"):
        BatchView(loader)
    with pytest.raises(ValueError, match="batches must be an int"):
        BatchView(tensorviz.utils.data.DataLoader(_dataset(tensorviz), batch_size=2), -1)


def test_show_batches_is_exported():
    assert tensorviz.show_batches is tensorviz.viz.show_batches
    assert np.isfinite(1.0)


@pytest.mark.parametrize("name", ["training.js", "batches.js"])
def test_js_never_parses_strings_as_html(name):
    from tensorviz.viz._assets import asset

    js = asset(name).read_text()
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                 "new Function"):
        assert sink not in js


def test_a_dataloader_subclass_defined_elsewhere_is_traced():
    class MyLoader(tensorviz.utils.data.DataLoader):
        pass

    view = BatchView(MyLoader(_dataset(tensorviz, 8), batch_size=4, num_workers=2), batches=2)
    assert [t["worker"] for t in view.traces] == [0, 1]


def test_complex_and_bool_samples_are_described():
    ds = tensorviz.utils.data.TensorDataset(tensorviz.ones(4, 2, dtype=tensorviz.complex64),
                                            tensorviz.tensor([True, False, True, True]))
    view = BatchView(tensorviz.utils.data.DataLoader(ds, batch_size=2), batches=1)
    x, flag = view.traces[0]["samples"][0]["items"]
    assert x["values"] == ["(1+0j)", "(1+0j)"] and flag["values"] == [1]


@pytest.mark.parametrize("workers,method", [(0, None), (2, "fork"), (2, "spawn")])
def test_iterable_dataset_stream_positions_and_workers_are_traced(workers, method):
    """An iterable dataset has no sampler: each batch is the next samples of the stream of the
    process that iterates it. The view gives the loader's own batches, the position of each
    sample in its process's stream, and the worker (here the stream is split by worker id,
    so a value tells which worker yielded it); PyTorch's loader traces the same."""
    import multiprocessing

    from utils.data._helpers import Stream, TorchStream  # (workers import it by name)

    if method is not None and method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} start method here")
    kw = dict(batch_size=4, num_workers=workers, multiprocessing_context=method)
    want = [b.tolist() for b in tensorviz.utils.data.DataLoader(Stream(22, True), **kw)]
    view = BatchView(tensorviz.utils.data.DataLoader(Stream(22, True), **kw), batches=0)
    got = [b.tolist() for b in view]
    assert got == want and sum(map(len, got)) == 22
    assert view.loader["stream"] is True and view.loader["sampler"] == ""
    for trace, values in zip(view.traces, want):
        assert trace["stream"] is True and trace["count"] == len(values)
        if workers:
            assert trace["worker"] == values[0] % workers and trace["pid"] != os.getpid()
            assert trace["indices"] == [(v - trace["worker"]) // workers for v in values]
        else:
            assert trace["worker"] is None and trace["indices"] == values
    assert "stream positions" in view.to_html()
    if method != "spawn":  # (PyTorch's twin of the stream is a local class: no spawn)
        theirs = BatchView(torch.utils.data.DataLoader(TorchStream(torch, 22, True), **kw),
                           batches=0)
        assert [b.tolist() for b in theirs] == want
        assert [(t["indices"], t["worker"]) for t in theirs.traces] == \
            [(t["indices"], t["worker"]) for t in view.traces]
