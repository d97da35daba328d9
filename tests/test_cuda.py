"""tensorviz.cuda and cuda tensors: real GPU behaviour where one is usable, and the clear
errors a learner gets on a machine without one."""
import numpy as np
import pytest

import tensorviz as tv

HAS_GPU = tv.cuda.is_available()
needs_gpu = pytest.mark.skipif(not HAS_GPU, reason="no usable GPU (CuPy + CUDA device)")
no_gpu = pytest.mark.skipif(HAS_GPU, reason="checks the behaviour without a GPU")


def test_is_available_is_a_bool_and_never_raises():
    assert tv.cuda.is_available() in (True, False)
    assert isinstance(tv.cuda.device_count(), int)


@no_gpu
def test_without_gpu_cuda_moves_raise_a_clear_runtime_error():
    t = tv.ones(2)
    for move in (lambda: t.cuda(), lambda: t.to("cuda"), lambda: t.to(device="cuda:0"),
                 lambda: tv.zeros(3, device="cuda"), lambda: tv.tensor([1.0], device="cuda:0"),
                 lambda: tv.cuda.current_device(), lambda: tv.cuda.synchronize()):
        with pytest.raises(RuntimeError, match="CUDA is not available") as err:
            move()
        assert "device='cpu'" in str(err.value) or "gpu" in str(err.value).lower()
    assert tv.cuda.device_count() == 0
    assert tv.cuda.memory_allocated() == 0 and tv.cuda.max_memory_allocated() == 0
    tv.cuda.empty_cache()  # a no-op without a GPU, as in PyTorch


def test_cpu_moves_are_no_ops():
    t = tv.ones(2, 3)
    assert t.cpu() is t and t.to("cpu") is t and t.to(device=tv.device("cpu")) is t
    assert t.get_device() == -1 and not t.is_cuda and t.is_cpu


def test_device_objects_parse_print_and_compare_like_pytorch():
    torch = pytest.importorskip("torch")
    for spec in ("cpu", "cuda", "cuda:0", "cuda:3"):
        d, r = tv.device(spec), torch.device(spec)
        assert (d.type, d.index, str(d)) == (r.type, r.index, str(r))
        assert repr(d) == repr(r)
    assert tv.device("cuda", 1) == tv.device("cuda:1")
    assert (tv.device("cpu") == "cpu") == (torch.device("cpu") == "cpu")
    for bad in ("gpu", "cuda:x", "cuda:-1"):
        with pytest.raises(RuntimeError):
            tv.device(bad)
        with pytest.raises(RuntimeError):
            torch.device(bad)


@needs_gpu
def test_gpu_round_trip_keeps_values_and_reports_devices():
    t = tv.arange(12.0).reshape(3, 4)
    g = t.cuda()
    assert g.device == tv.device("cuda:0") and g.is_cuda and g.get_device() == 0
    assert g.cuda() is g
    assert (g * 2).device.type == "cuda"
    assert g.t().cpu().tolist() == t.t().tolist()
    v = t.t().to("cuda")  # a view moved to another device becomes a contiguous copy
    assert v.is_contiguous() and v.cpu().tolist() == t.t().tolist()
    assert "device='cuda:0'" in repr(g)
    with pytest.raises(TypeError, match="cpu"):
        g.numpy()
    assert np.array_equal(g.numpy(force=True), t.numpy())
    with pytest.raises(RuntimeError, match="cuda:0 and cpu|cpu and cuda:0"):
        g + t
    assert (g + tv.tensor(1.0)).device.type == "cuda"  # a 0-dim CPU tensor may join
    tv.cuda.synchronize()
    assert tv.cuda.memory_allocated() > 0
    props = tv.cuda.get_device_properties(0)
    assert props.total_memory > 0 and props.name == tv.cuda.get_device_name(0)


def test_cuda_manual_seed_never_changes_the_cpu_stream_without_a_gpu():
    torch = pytest.importorskip("torch")
    for lib in (torch, tv):
        lib.manual_seed(0)
        want = lib.rand(3).tolist()
        lib.manual_seed(0)
        lib.cuda.manual_seed(5)
        lib.cuda.manual_seed_all(7)
        got = lib.rand(3).tolist()
        if lib is torch or not HAS_GPU:
            assert got == want, lib.__name__
    with pytest.raises((TypeError, ValueError)):
        tv.cuda.manual_seed("x")


def test_cuda_device_context_is_lazy_and_negative_or_none_is_a_no_op():
    torch = pytest.importorskip("torch")
    for lib in (torch, tv):
        lib.cuda.device(0)  # building it checks nothing yet
        with lib.cuda.device(-1):
            pass
        with pytest.raises(ValueError, match="Expected a cuda device"):
            lib.cuda.device("cpu")
        with lib.cuda.device_of(lib.ones(1)):  # a CPU tensor: no-op
            pass
    with tv.cuda.device(None):
        pass


@no_gpu
def test_cuda_device_context_without_gpu_raises_on_entering():
    with pytest.raises(RuntimeError, match="CUDA is not available"):
        with tv.cuda.device(0):
            pass
    for fn in (tv.cuda.init, tv.cuda.get_device_capability, lambda: tv.cuda.set_device(0)):
        with pytest.raises(RuntimeError, match="CUDA is not available"):
            fn()
    tv.cuda.set_device(-1)  # a negative index changes nothing, as in PyTorch
    assert tv.cuda.memory_reserved() == 0


@no_gpu
def test_a_cupy_that_fails_to_import_is_reported_not_raised_through(monkeypatch):
    # Simulates a broken install (no CuPy object is made): importing 'cupy' raises OSError,
    # as a wheel built for another CUDA version can.  is_available() must stay False, and
    # moves must say why.
    import sys
    from tensorviz import backends

    class BrokenFinder:
        def find_spec(self, name, path=None, target=None):
            if name == "cupy":
                raise OSError("libcudart.so.12: cannot open shared object file")
            return None

    monkeypatch.setitem(sys.modules, "cupy", None)
    monkeypatch.delitem(sys.modules, "cupy")
    monkeypatch.setattr(sys, "meta_path", [BrokenFinder()] + sys.meta_path)
    monkeypatch.setattr(backends, "_cuda_backend", None)
    assert tv.cuda.is_available() is False and tv.cuda.device_count() == 0
    with pytest.raises(RuntimeError, match="failed to import.*libcudart"):
        tv.ones(1).cuda()
