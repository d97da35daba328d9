"""Thread settings: ``set_num_threads`` sizes the BLAS pool (through threadpoolctl), the getters
follow, and the arguments and the set-once inter-op rule behave as in PyTorch."""
from __future__ import annotations

import subprocess
import sys
import warnings

import pytest

import tensorviz
from tensorviz.ops import parallel

torch = pytest.importorskip("torch")


@pytest.fixture
def restore_threads(monkeypatch):
    """Undo this test's thread settings (the BLAS pools and the module's records)."""
    threadpoolctl = pytest.importorskip("threadpoolctl")
    before = threadpoolctl.threadpool_info()
    monkeypatch.setattr(parallel, "_intra", None)
    monkeypatch.setattr(parallel, "_interop", None)
    yield threadpoolctl
    for pool in before:
        threadpoolctl.threadpool_limits(limits=pool["num_threads"],
                                        user_api=pool["user_api"])
    parallel._limiter = None


def test_set_num_threads_sizes_the_blas_pool(restore_threads):
    threadpoolctl = restore_threads
    assert tensorviz.get_num_threads() >= 1
    tensorviz.set_num_threads(1)
    assert tensorviz.get_num_threads() == 1
    blas = [p for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"]
    assert blas and all(p["num_threads"] == 1 for p in blas)
    a = tensorviz.ones(64, 64)
    assert (a @ a)[0, 0].item() == 64.0  # products still run
    tensorviz.set_num_threads(2)
    assert tensorviz.get_num_threads() == 2


def test_thread_arguments_as_pytorch(restore_threads):
    for bad in (0, -1):
        for lib in (tensorviz, torch):
            with pytest.raises(RuntimeError, match="positive integer"):
                lib.set_num_threads(bad)
    for lib in (tensorviz, torch):
        with pytest.raises(RuntimeError, match="expects an int"):
            lib.set_num_threads(1.5)
    with pytest.raises(RuntimeError, match="positive integer"):
        tensorviz.set_num_interop_threads(0)


def test_interop_threads_are_set_once(restore_threads):
    assert tensorviz.get_num_interop_threads() >= 1
    tensorviz.set_num_interop_threads(3)
    assert tensorviz.get_num_interop_threads() == 3
    with pytest.raises(RuntimeError, match="cannot set number of interop threads"):
        tensorviz.set_num_interop_threads(2)


def test_without_threadpoolctl_the_value_is_recorded_and_explained(monkeypatch):
    monkeypatch.setattr(parallel, "_intra", None)
    monkeypatch.setattr(parallel, "_threadpoolctl", lambda: None)
    with pytest.warns(UserWarning, match="threadpoolctl is not installed"):
        tensorviz.set_num_threads(3)
    assert tensorviz.get_num_threads() == 3
    monkeypatch.setattr(parallel, "_intra", None)
    assert tensorviz.get_num_threads() >= 1


def test_import_does_not_load_threadpoolctl():
    code = ("import sys, tensorviz; assert 'threadpoolctl' not in sys.modules; "
            "tensorviz.get_num_interop_threads(); assert 'threadpoolctl' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_getters_need_no_arguments():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert isinstance(tensorviz.get_num_threads(), int)
        assert isinstance(tensorviz.get_num_interop_threads(), int)


@pytest.mark.parametrize("value", [2 ** 40, -(2 ** 40)])
def test_thread_count_beyond_c_int(value):
    """PyTorch reads the count as a C int: ValueError beyond, before any other check."""
    for lib in (tensorviz, torch):
        with pytest.raises(ValueError):
            lib.set_num_threads(value)
