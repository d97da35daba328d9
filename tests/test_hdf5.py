"""HDF5 through h5py: tensors go in through NumPy's array protocol and come back with
``tensorviz.from_numpy``; slicing a dataset reads only the rows asked for."""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz as tv

DTYPE_NAMES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
               "float64", "complex64", "complex128"]

h5py = pytest.importorskip("h5py")


def sample(name: str, shape=(4, 3)) -> tv.Tensor:
    n = int(np.prod(shape)) if shape else 1
    data = (np.arange(n) - 3).astype(name).reshape(shape)
    if name.startswith("complex"):
        data = data + 1j * np.arange(n).reshape(shape).astype(name)
    return tv.from_numpy(np.ascontiguousarray(data))


def test_the_tutorial_snippet(tmp_path):
    points = tv.tensor([[1.0, 4.0], [2.0, 1.0], [3.0, 4.0]])
    path = tmp_path / "ourpoints.hdf5"
    with h5py.File(path, "w") as f:
        f.create_dataset("coords", data=points.numpy())
    with h5py.File(path, "r") as f:
        dset = f["coords"]
        last_points = tv.from_numpy(dset[1:])
    assert last_points.tolist() == [[2.0, 1.0], [3.0, 4.0]]
    assert last_points.dtype == tv.float32


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_tensors_go_in_directly_and_keep_their_dtype(tmp_path, name):
    t = sample(name)
    path = tmp_path / "d.h5"
    with h5py.File(path, "w") as f:
        f.create_dataset("x", data=t)  # no .numpy(): the array protocol does it
    with h5py.File(path, "r") as f:
        assert f["x"].dtype == np.dtype(name) and f["x"].shape == (4, 3)
        back = tv.from_numpy(f["x"][...])
        rows = tv.from_numpy(f["x"][1:3])
    assert back.dtype is t.dtype and back.tolist() == t.tolist()
    assert rows.dtype is t.dtype and rows.tolist() == t[1:3].tolist()


@pytest.mark.parametrize("view", [lambda t: t.t(), lambda t: t[::2, 1:], lambda t: t[1:, 2],
                                  lambda t: t[0:1].expand(3, 3), lambda t: t.view(3, 4)[:, 1::2]])
def test_noncontiguous_tensors_are_written_in_logical_order(tmp_path, view):
    v = view(tv.arange(12.0).reshape(4, 3))
    path = tmp_path / "nc.h5"
    with h5py.File(path, "w") as f:
        f.create_dataset("v", data=v)
    with h5py.File(path, "r") as f:
        back = tv.from_numpy(f["v"][...])
    assert back.shape == v.shape and back.tolist() == v.tolist() and back.is_contiguous()


def test_zero_dim_and_empty_tensors(tmp_path):
    path = tmp_path / "z.h5"
    with h5py.File(path, "w") as f:
        f.create_dataset("s", data=tv.tensor(3.5, dtype=tv.float64))
        f.create_dataset("e", data=tv.zeros(0, 3, dtype=tv.int16))
    with h5py.File(path, "r") as f:
        assert f["s"].shape == () and f["s"][()] == 3.5
        s = tv.from_numpy(f["s"][...])  # [...] keeps a 0-d array ([()] gives a NumPy scalar)
        e = tv.from_numpy(f["e"][...])
    assert s.dim() == 0 and s.item() == 3.5 and s.dtype is tv.float64
    assert e.shape == (0, 3) and e.dtype is tv.int16


def test_slicing_a_dataset_reads_only_the_rows_asked_for(tmp_path):
    path = tmp_path / "rows.h5"
    t = tv.arange(400.0).reshape(100, 4)
    with h5py.File(path, "w") as f:
        f.create_dataset("x", data=t, chunks=(10, 4), compression="gzip")
    # Damage the compressed chunk holding rows 0-9 on disk: a read that touches those rows
    # fails, so reading rows 10: succeeding shows that row 0's chunk was never read.
    with h5py.File(path, "r") as f:
        info = f["x"].id.get_chunk_info(0)
        assert info.chunk_offset == (0, 0)
    with open(path, "r+b") as raw:
        raw.seek(info.byte_offset)
        raw.write(b"\xff" * info.size)
    with h5py.File(path, "r") as f:
        dset = f["x"]
        tail = tv.from_numpy(dset[10:])
        assert tail.shape == (90, 4) and tail.tolist() == t[10:].tolist()
        assert tv.from_numpy(dset[95:, 1:3]).tolist() == t[95:, 1:3].tolist()
        with pytest.raises(OSError):
            dset[0]


def test_write_slices_and_read_into_a_tensor(tmp_path):
    path = tmp_path / "w.h5"
    with h5py.File(path, "w") as f:
        dset = f.create_dataset("x", shape=(3, 4), dtype="float32")
        dset[1] = tv.ones(4)  # a tensor on the right of a dataset assignment
        dset[2, 1:3] = tv.tensor([5.0, 6.0])
        f.attrs["scale"] = tv.tensor([0.5, 2.0])
    target = tv.zeros(3, 4)
    with h5py.File(path, "r") as f:
        f["x"].read_direct(target.numpy())  # fills the tensor's own memory
        scale = tv.from_numpy(f.attrs["scale"])
    assert target.tolist() == [[0, 0, 0, 0], [1, 1, 1, 1], [0, 5, 6, 0]]
    assert scale.tolist() == [0.5, 2.0]


def test_dataset_reads_share_memory_with_the_tensor(tmp_path):
    path = tmp_path / "s.h5"
    with h5py.File(path, "w") as f:
        f.create_dataset("x", data=tv.arange(6, dtype=tv.int32))
    with h5py.File(path, "r") as f:
        arr = f["x"][2:]
    t = tv.from_numpy(arr)
    arr[0] = 100  # from_numpy shares memory, as in PyTorch
    assert t.tolist() == [100, 3, 4, 5]


def test_from_numpy_of_a_dataset_names_its_type_as_pytorch(tmp_path):
    torch = pytest.importorskip("torch")
    with h5py.File(tmp_path / "d.h5", "w") as f:
        dset = f.create_dataset("x", data=np.arange(3.0))
        errors = []
        for lib in (tv, torch):
            with pytest.raises(TypeError) as info:
                lib.from_numpy(dset)
            errors.append(str(info.value))
    assert errors[0] == errors[1] == "expected np.ndarray (got Dataset)"
    for obj in (np.float64(1.0), [1], 3, None):  # extension types keep their module
        msgs = []
        for lib in (tv, torch):
            with pytest.raises(TypeError) as info:
                lib.from_numpy(obj)
            msgs.append(str(info.value))
        assert msgs[0] == msgs[1], msgs
