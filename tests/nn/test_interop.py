"""A state_dict saved by tensorviz loads into the same architecture in real PyTorch (torch.load
with weights_only=True) and back; whole-module pickles are refused by both safe loaders."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import tensorviz
from nn_harness import assert_close

torch = pytest.importorskip("torch")


def _arch(lib):
    nn = lib.nn
    return nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(64, 10), nn.LayerNorm(10),
        nn.ModuleDict({"emb": nn.Embedding(5, 3, padding_idx=0)}),
        nn.LSTM(3, 4, batch_first=True))


def _fill(model, lib, seed):
    rng = np.random.default_rng(seed)
    with lib.no_grad():
        for _, t in model.state_dict(keep_vars=True).items():
            if t.dtype.is_floating_point:
                t.copy_(lib.tensor(rng.standard_normal(tuple(t.shape)).astype("float32")))
            else:
                t.fill_(7)


def _same_state(a, b):
    sa, sb = a.state_dict(), b.state_dict()
    assert list(sa) == list(sb)
    for k in sa:
        x, y = sa[k].numpy(), sb[k].numpy()
        assert x.dtype == y.dtype and x.shape == y.shape, k
        np.testing.assert_array_equal(x, y, err_msg=k)


def test_tensorviz_state_dict_loads_in_torch(tmp_path):
    tv = _arch(tensorviz)
    _fill(tv, tensorviz, 0)
    tv.train()
    tv[0:4](tensorviz.randn(2, 1, 8, 8))  # moves the running stats and the batch counter
    path = tmp_path / "model.pt"
    tensorviz.save(tv.state_dict(), path)
    sd = torch.load(path, weights_only=True)
    assert list(sd) == list(tv.state_dict())
    assert dict(sd._metadata) == dict(tv.state_dict()._metadata)
    pt = _arch(torch)
    assert repr(pt.load_state_dict(sd)) == "<All keys matched successfully>"
    _same_state(pt, tv)
    # and the loaded model computes what tensorviz computes
    x = np.random.default_rng(1).standard_normal((2, 1, 8, 8)).astype("float32")
    pt.eval(), tv.eval()
    assert_close(tv[:6](tensorviz.tensor(x)), pt[:6](torch.tensor(x)), "float32")


def test_torch_state_dict_loads_in_tensorviz(tmp_path):
    pt = _arch(torch)
    _fill(pt, torch, 2)
    path = tmp_path / "model.pt"
    torch.save(pt.state_dict(), path)
    sd = tensorviz.load(path)
    tv = _arch(tensorviz)
    assert repr(tv.load_state_dict(sd)) == "<All keys matched successfully>"
    _same_state(pt, tv)
    # the round trip: tensorviz saves what it loaded, PyTorch reads it back
    path2 = tmp_path / "again.pt"
    tensorviz.save(tv.state_dict(), path2)
    pt2 = _arch(torch)
    pt2.load_state_dict(torch.load(path2, weights_only=True))
    _same_state(pt2, tv)


def test_state_dict_with_extra_entries(tmp_path):
    tv = _arch(tensorviz)
    ck = {"model": tv.state_dict(), "epoch": 3, "loss": 0.25, "names": ["a", "b"]}
    tensorviz.save(ck, tmp_path / "ck.pt")
    got = torch.load(tmp_path / "ck.pt", weights_only=True)
    assert got["epoch"] == 3 and got["names"] == ["a", "b"]
    pt = _arch(torch)
    pt.load_state_dict(got["model"])


def test_whole_module_pickle_is_refused(tmp_path):
    tv = _arch(tensorviz)
    path = tmp_path / "whole.pt"
    tensorviz.save(tv, path)
    with pytest.raises(pickle.UnpicklingError) as e:
        tensorviz.load(path)
    msg = str(e.value)
    assert "weights_only" in msg and "Sequential" in msg
    # PyTorch's own safe loader refuses a whole-module pickle as well
    pt_path = tmp_path / "pt_whole.pt"
    torch.save(_arch(torch), pt_path)
    with pytest.raises(pickle.UnpicklingError):
        torch.load(pt_path, weights_only=True)
    with pytest.raises(pickle.UnpicklingError) as e2:
        tensorviz.load(pt_path)
    assert "Sequential" in str(e2.value) and "state_dict()" in str(e2.value)
    # trusted files can still be opened on purpose
    back = tensorviz.load(path, weights_only=False)
    assert type(back).__name__ == "Sequential"
    _same_state(back, tv)
