"""``tensorviz.device`` against ``torch.device``, and device= handling across the core.

The GPU-only behaviour runs through the ``devices`` fixture (cpu always, cuda where CuPy sees
a GPU); ``tests/test_cuda.py`` covers ``tensorviz.cuda`` itself.
"""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import tensorviz as tv
from tv_core_conftest import same

torch = pytest.importorskip("torch")

DEVICE_CASES = [
    lambda L: L.device("cpu"), lambda L: L.device("cuda"), lambda L: L.device("cuda:1"),
    lambda L: L.device("cuda", 1), lambda L: L.device("cpu", 0), lambda L: L.device("cpu:0"),
    lambda L: L.device("cpu", 1), lambda L: L.device("cuda:-1"), lambda L: L.device("cuda", -1),
    lambda L: L.device("cuda:1", 1), lambda L: L.device("foo"), lambda L: L.device(-1),
    lambda L: L.device(1.5), lambda L: L.device(L.device("cuda:2")), lambda L: L.device("cuda:x"),
    lambda L: L.device(""), lambda L: L.device("CPU"), lambda L: L.device(" cpu"),
    lambda L: str(L.device("cuda", 2)), lambda L: repr(L.device("cuda", 2)),
    lambda L: repr(L.device("cpu")), lambda L: L.device("cpu") == "cpu",
    lambda L: L.device("cpu") == L.device("cpu"), lambda L: L.device("cpu") == L.device("cpu", 0),
    lambda L: L.device("cuda") == L.device("cuda:0"),
    lambda L: hash(L.device("cuda:1")) == hash(L.device("cuda", 1)),
    lambda L: L.device("cuda:3").index, lambda L: L.device("cuda:3").type, lambda L: L.device("cpu").index,
    lambda L: L.zeros(2, device="cpu").device, lambda L: L.zeros(2, device=L.device("cpu")).device,
    lambda L: L.zeros(2).device == L.device("cpu"), lambda L: L.zeros(2).get_device(),
    lambda L: L.zeros(2).cpu().is_cpu, lambda L: L.tensor([1], device="cpu").device,
]


@pytest.mark.parametrize("fn", DEVICE_CASES, ids=[f"dev{i}" for i in range(len(DEVICE_CASES))])
def test_device_objects_match_pytorch(fn):
    same(fn)


def test_devices_pickle_and_hash():
    d = tv.device("cuda", 3)
    assert pickle.loads(pickle.dumps(d)) == d
    assert {tv.device("cpu"): 1}[tv.device("cpu")] == 1


CREATORS = [
    lambda dev: tv.zeros(2, 3, device=dev), lambda dev: tv.ones(2, device=dev),
    lambda dev: tv.empty(2, device=dev), lambda dev: tv.full((2,), 3.0, device=dev),
    lambda dev: tv.tensor([1, 2], device=dev), lambda dev: tv.arange(4, device=dev),
    lambda dev: tv.linspace(0, 1, 5, device=dev), lambda dev: tv.logspace(0, 1, 3, device=dev),
    lambda dev: tv.eye(3, device=dev), lambda dev: tv.rand(2, device=dev),
    lambda dev: tv.randn(2, device=dev), lambda dev: tv.randint(5, (2,), device=dev),
    lambda dev: tv.randperm(4, device=dev), lambda dev: tv.empty_strided((2, 2), (1, 2), device=dev),
    lambda dev: tv.zeros_like(tv.zeros(2), device=dev), lambda dev: tv.as_tensor([1.0], device=dev),
    lambda dev: tv.zeros(2).to(dev), lambda dev: tv.normal(0, 1, (2,), device=dev),
]


@pytest.mark.parametrize("make", CREATORS, ids=[f"create{i}" for i in range(len(CREATORS))])
def test_every_creation_op_takes_device(make, devices):
    t = make(devices)
    assert t.device.type == devices
    assert t.untyped_storage().device == t.device
    assert t.is_cuda == (devices == "cuda")


def test_round_trip_between_devices_keeps_layout_and_values(devices):
    a = tv.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1)
    b = a.to(devices)
    assert b.stride() == a.stride() and b.tolist() == a.tolist()
    c = b.to("cpu")
    assert c.tolist() == a.tolist() and c.stride() == a.stride()
    assert (c is a) == (devices == "cpu") and b.to(devices) is b
    if devices == "cuda":
        assert b.get_device() == 0 and b.numpy(force=True).tolist() == a.tolist()
        with pytest.raises(TypeError):
            b.numpy()
        with pytest.raises(RuntimeError, match="same device"):
            b + a
        assert (b + tv.tensor(1.0)).device == b.device  # a 0-dim CPU tensor may join


def test_views_and_writes_on_every_device(devices):
    a = tv.zeros(3, 4, device=devices)
    v = a.t()[1:, ::2]
    v.fill_(2)
    a[0] = tv.arange(4.0, device=devices)
    a.add_(1)
    want = np.zeros((3, 4))
    want.T[1:, ::2] = 2
    want[0] = np.arange(4.0)
    assert a.tolist() == (want + 1).tolist()
    assert a._version == 3 and v.untyped_storage() is a.untyped_storage()


def test_default_device_is_cpu_and_cpu_index_is_normalised():
    assert tv.zeros(1).device == tv.device("cpu")
    assert tv.zeros(1, device="cpu:0").device.type == "cpu"
    assert str(tv.zeros(1, device=tv.device("cpu", 0)).device) == "cpu"


BAD_DEVICE_SPECS = [("cuda:00",), ("cuda:01",), ("cuda:\u0663",), ("cuda:+1",), ("cuda: 1",),
                    ("cuda:99999999999999999999",), ("cuda", True), ("cuda", 1.0), ("cuda", "1")]


@pytest.mark.parametrize("args", BAD_DEVICE_SPECS, ids=[repr(a) for a in BAD_DEVICE_SPECS])
def test_device_strings_and_indices_are_parsed_as_strictly_as_pytorch(args):
    with pytest.raises(Exception) as theirs:
        torch.device(*args)
    with pytest.raises(Exception) as ours:
        tv.device(*args)
    assert type(ours.value) is type(theirs.value), (ours.value, theirs.value)


def test_device_with_a_device_and_an_index_is_a_type_error():
    with pytest.raises(TypeError):
        torch.device(torch.device("cuda"), 1)
    with pytest.raises(TypeError):
        tv.device(tv.device("cuda"), 1)


def test_devices_are_immutable():
    d = tv.device("cuda", 1)
    for name in ("type", "index"):
        with pytest.raises(AttributeError):
            setattr(d, name, 0)
        with pytest.raises(AttributeError):
            setattr(torch.device("cuda", 1), name, 0)
    assert (d.type, d.index) == ("cuda", 1) and hash(d) == hash(tv.device("cuda:1"))


def test_with_device_sets_the_default_device_of_factories():
    from tensorviz import _device
    with tv.device("cpu") as d:
        assert d == tv.device("cpu") and tv.zeros(2).device == tv.device("cpu")
        assert str(_device.get_default_device()) == str(torch.get_default_device())
    assert _device.get_default_device() == tv.device("cpu")
    if tv.cuda.is_available():
        with tv.device("cuda"):
            assert tv.zeros(2).device == tv.device("cuda:0")
            assert tv.zeros(2, device="cpu").device == tv.device("cpu")
            with tv.device("cpu"):
                assert tv.arange(3).device.type == "cpu"
            assert tv.tensor([1.0]).is_cuda
        assert tv.zeros(2).device.type == "cpu"
    else:
        # Without a GPU a factory inside `with device('cuda')` fails (as in a CPU-only
        # PyTorch), and leaving the block restores the cpu default.
        with pytest.raises(RuntimeError, match="CUDA is not available"):
            with tv.device("cuda"):
                tv.zeros(2)
        assert tv.zeros(2).device == tv.device("cpu")
        try:
            _device.set_default_device("cuda:0")
            with pytest.raises(RuntimeError, match="CUDA is not available"):
                tv.ones(1)
            with tv.device("cpu"):
                assert tv.ones(1).device.type == "cpu"
        finally:
            _device.set_default_device(None)
        assert tv.ones(1).device.type == "cpu"


def test_default_device_functions_are_exported_like_pytorchs():
    assert tv.set_default_device is __import__("tensorviz._device").\
        _device.set_default_device
    assert "get_default_device" in tv.__all__ and "set_default_device" in tv.__all__
    same(lambda L: L.get_default_device())
    try:
        for lib in (tv, torch):
            lib.set_default_device("cpu")
        same(lambda L: str(L.get_default_device()) + str(L.zeros(2).device))
    finally:
        for lib in (tv, torch):
            lib.set_default_device(None)
    same(lambda L: L.get_default_device())


@pytest.mark.parametrize("call", [
    lambda L: L.zeros(2).cuda(L.device("cpu")),
    lambda L: L.zeros(2).cuda("cpu"),
    lambda L: (lambda t: t.to(None) is t)(L.zeros(2)),
    lambda L: L.zeros(2).to(None, L.float64),
    lambda L: L.zeros(2).to(None, dtype=L.int32),
])
def test_cuda_of_a_cpu_device_and_to_none_match_pytorch(call):
    same(call)


def _gpu_visible() -> bool:
    return tv.cuda.is_available()


@pytest.mark.parametrize("fn", [
    lambda L: L.backends.mps.is_available(), lambda L: L.backends.mps.is_built(),
    lambda L: L.backends.cudnn.is_available(), lambda L: L.backends.cudnn.enabled,
    lambda L: L.backends.cudnn.version(),
    lambda L: L.accelerator.is_available(), lambda L: L.accelerator.current_accelerator(),
    lambda L: L.accelerator.device_count(),
    # the device idioms that open current tutorials
    lambda L: L.accelerator.current_accelerator().type if L.accelerator.is_available()
    else "cpu",
    lambda L: "cuda" if L.cuda.is_available() else "mps" if L.backends.mps.is_available()
    else "cpu",
])
def test_accelerator_and_backends_idioms_like_pytorch(fn):
    if _gpu_visible():
        pytest.skip("compares with CPU-only PyTorch; this machine has a GPU for tensorviz")
    assert fn(tv) == fn(torch)


def test_backends_flags_can_be_set():
    tv.backends.cudnn.benchmark = True
    try:
        assert tv.backends.cudnn.benchmark is True
    finally:
        tv.backends.cudnn.benchmark = False
    if not _gpu_visible():
        with pytest.raises(RuntimeError, match="none is available"):
            tv.accelerator.current_device_index()
        with pytest.raises(RuntimeError, match="none is available"):
            torch.accelerator.current_device_index()
