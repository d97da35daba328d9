"""tensorviz.save / tensorviz.load: PyTorch's zip format, sharing, safety, bad input, interop.

The interop tests at the end run against real PyTorch and skip where it is not installed.
"""
from __future__ import annotations

import collections
import io
import math
import os
import pickle
import stat
import struct
import sys
import warnings
import zipfile

import numpy as np
import pytest

import tensorviz as tv
from tensorviz import serialization
from tensorviz._serialization._pickling import TorchPickler
from tensorviz._serialization._zipformat import FormatError

DTYPE_NAMES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
               "float64", "complex64", "complex128"]


def assert_same_tensor(a, b) -> None:
    """Shape, strides, offset, dtype and values of a tensorviz and a PyTorch tensor agree."""
    assert tuple(a.shape) == tuple(b.shape), (a.shape, b.shape)
    assert tuple(a.stride()) == tuple(b.stride()), (a.stride(), b.stride())
    assert a.storage_offset() == b.storage_offset(), (a.storage_offset(), b.storage_offset())
    assert a.dtype.name == str(b.dtype).split(".")[-1], (a.dtype, b.dtype)
    ours = np.asarray(a.numpy(force=True))
    theirs = b.detach().cpu().resolve_conj().resolve_neg().numpy()
    assert np.array_equal(ours, theirs, equal_nan=True), (ours, theirs)

try:
    from hypothesis import given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover
    given = None

CUDA = tv.cuda.is_available()
needs_cuda = pytest.mark.skipif(not CUDA, reason="CUDA is not available here")
needs_no_cuda = pytest.mark.skipif(CUDA, reason="checks the error raised without a GPU")


# ---------------------------------------------------------------- helpers
def roundtrip(obj, **load_kwargs):
    buf = io.BytesIO()
    tv.save(obj, buf)
    buf.seek(0)
    return tv.load(buf, **load_kwargs)


def sample(dtype_name: str, shape=(3, 4)) -> tv.Tensor:
    n = int(np.prod(shape)) if shape else 1
    data = (np.arange(n) - 2).astype(dtype_name).reshape(shape)
    if dtype_name.startswith("complex"):
        data = data + 1j * (np.arange(n).reshape(shape) + 0.5).astype(dtype_name)
    return tv.from_numpy(np.ascontiguousarray(data))


def same(a: tv.Tensor, b: tv.Tensor) -> bool:
    return (a.dtype is b.dtype and a.shape == b.shape and a.stride() == b.stride()
            and a.storage_offset() == b.storage_offset()
            and np.array_equal(a.numpy(), b.numpy(), equal_nan=True))


def craft(obj=None, *, payload: bytes | None = None, pid=None, patch=None, folder="archive",
          force_zip64=False) -> io.BytesIO:
    """An archive built by tensorviz's writer: of ``obj`` or of a raw ``payload`` pickle.

    ``pid`` rewrites each storage id, ``patch`` the pickled bytes of ``obj``.
    """
    storages: list = []
    if payload is None:
        class Pickler(TorchPickler):
            def persistent_id(self, o):
                r = super().persistent_id(o)
                return pid(r) if r is not None and pid is not None else r

        buf = io.BytesIO()
        p = Pickler(buf, protocol=2)
        p.dump(obj)
        payload, storages = buf.getvalue(), p.storages
        if patch is not None:
            payload = patch(payload)
    out = io.BytesIO()
    serialization._write_archive(out, folder, payload, storages, False, force_zip64)
    out.seek(0)
    return out


def rezip(data: bytes, *, compress=zipfile.ZIP_STORED, drop=(), add=()) -> io.BytesIO:
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=compress) as dst:
        for info in src.infolist():
            if not any(info.filename.endswith(d) for d in drop):
                dst.writestr(info.filename, src.read(info))
        for name, content in add:
            dst.writestr(name, content)
    out.seek(0)
    return out


def saved_bytes(obj) -> bytes:
    buf = io.BytesIO()
    tv.save(obj, buf)
    return buf.getvalue()


# ---------------------------------------------------------------- round trips
@pytest.mark.parametrize("name", DTYPE_NAMES)
@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4), (2, 0, 3), (2, 3, 4)])
def test_every_dtype_and_shape_round_trips(name, shape):
    t = sample(name, shape)
    back = roundtrip(t)
    assert same(back, t)
    assert back.untyped_storage().nbytes() == t.untyped_storage().nbytes()


def test_paths_pathlib_and_file_objects(tmp_path):
    t = tv.tensor([[5, 7, 4], [1, 3, 2], [7, 3, 8]])
    for target in (str(tmp_path / "a.pt"), tmp_path / "b.pt"):
        tv.save(t, target)
        assert same(tv.load(target), t)
    path = tmp_path / "c.pt"
    with open(path, "wb") as f:
        tv.save(t, f)
    with open(path, "rb") as f:
        assert same(tv.load(f), t)


def test_noncontiguous_and_offset_views_keep_their_layout():
    base = tv.arange(24.0).reshape(2, 3, 4)
    views = [base.transpose(0, 2), base[1], base[:, 1:, ::2], base[1, 2, 1:], base.unfold(2, 2, 1),
             base.expand(2, 2, 3, 4), base[..., 1].t(), base.diagonal(0, 1, 2)]
    for v in views:
        back = roundtrip(v)
        assert same(back, v)


def test_views_saved_together_share_one_storage():
    points = tv.tensor([[5, 7, 4], [1, 3, 2], [7, 3, 8]])
    back = roundtrip({"full": points, "row": points[1], "col": points[:, 1], "t": points.t()})
    full = back["full"]
    for k in ("row", "col", "t"):
        assert back[k].untyped_storage() is full.untyped_storage()
        assert back[k].untyped_storage().data_ptr() == full.untyped_storage().data_ptr()
    assert back["row"].storage_offset() == 3 and back["col"].stride() == (3,)
    assert back["t"].stride() == (1, 3)
    back["row"][0] = 100  # writes go through the shared storage, as before saving
    assert full[1, 0].item() == 100 and back["t"][0, 1].item() == 100


def test_a_view_saved_alone_carries_its_whole_storage():
    points = tv.tensor([[5, 7, 4], [1, 3, 2], [7, 3, 8]])
    row = roundtrip(points[1])
    assert row.tolist() == [1, 3, 2] and row.storage_offset() == 3
    assert list(row.storage()) == [5, 7, 4, 1, 3, 2, 7, 3, 8]
    assert row.untyped_storage().nbytes() == 9 * 8


def test_the_same_tensor_twice_is_one_object_after_loading():
    t = tv.arange(4)
    a, b, c = roundtrip([t, t, t.view(2, 2)])
    assert a is b and c.untyped_storage() is a.untyped_storage()


def test_separate_storages_stay_separate():
    a, b = tv.zeros(3), tv.zeros(3)
    la, lb = roundtrip([a, b])
    assert la.untyped_storage() is not lb.untyped_storage()


def test_plain_python_values_and_containers():
    od = collections.OrderedDict([("w", tv.ones(2)), ("b", tv.zeros(1))])
    od._metadata = collections.OrderedDict([("", {"version": 1})])  # like a state_dict
    obj = {
        "ints": [0, -1, 255, 256, 65535, -2**31, 2**31, 2**70, -2**70],
        "floats": (1.5, -0.0, math.inf, -math.inf), "nan": math.nan,
        "strings": ["", "abc", "ünï cødé ✓"], "none": None, "bools": [True, False],
        "bytes": [b"", b"ab\x00\xff"], "bytearray": bytearray(b"xy"), "complex": 1 - 2j,
        "set": {1, 2, 3}, "frozenset": frozenset({"a"}), "nested": {"a": [({"b": (1,)},)]},
        "state": od, "size": tv.Size([2, 3]), "device": tv.device("cpu"),
        "cuda_device": tv.device("cuda", 1), "dtypes": [tv.float32, tv.int64, tv.bool],
        "layout": tv.strided, 1: "int key", (1, 2): "tuple key",
    }
    back = roundtrip(obj)
    assert math.isnan(back.pop("nan"))
    obj.pop("nan")
    state = back.pop("state")
    obj.pop("state")
    assert back == obj
    assert type(back["size"]) is tv.Size and back["dtypes"][0] is tv.float32
    assert back["layout"] is tv.strided and back["cuda_device"] == tv.device("cuda", 1)
    assert type(state) is collections.OrderedDict and list(state) == ["w", "b"]
    assert state._metadata == {"": {"version": 1}}


def test_recursive_containers():
    a: list = [tv.ones(1)]
    a.append(a)
    back = roundtrip(a)
    assert back[1] is back


def test_requires_grad_is_kept():
    t = tv.ones(2).requires_grad_()
    assert roundtrip(t).requires_grad and not roundtrip(tv.ones(2)).requires_grad


def test_storages_saved_directly_load_as_typed_storages_like_pytorch():
    t = tv.arange(3)
    s = roundtrip(t.storage())
    assert isinstance(s, tv.TypedStorage) and s.dtype is tv.int64 and list(s) == [0, 1, 2]
    u = roundtrip(tv.arange(2, dtype=tv.int16).untyped_storage())
    # Note: like PyTorch, a saved UntypedStorage loads as a TypedStorage of uint8.
    assert isinstance(u, tv.TypedStorage) and u.dtype is tv.uint8 and list(u) == [0, 0, 1, 0]
    t2, s2 = roundtrip([t, t.storage()])
    assert s2 is t2.storage()


def test_two_dtypes_of_one_storage_are_refused_like_pytorch():
    t = tv.arange(4, dtype=tv.int64)
    msg = "Cannot save multiple tensors or storages that view the same data as different types"
    with pytest.raises(RuntimeError, match=msg):
        tv.save([t, t.view(tv.int32)], io.BytesIO())
    with pytest.raises(RuntimeError, match=msg):
        tv.save([t, t.untyped_storage()], io.BytesIO())
    back = roundtrip(t.view(tv.float64))  # one dtype view alone is fine
    assert back.dtype is tv.float64 and back.view(tv.int64).tolist() == [0, 1, 2, 3]
    empty = tv.zeros(0)
    roundtrip([empty, empty.view(tv.int32)])  # nothing to disagree about


def test_loaded_storages_are_writable_and_owned(tmp_path):
    path = tmp_path / "w.pt"
    tv.save(tv.arange(6.0), path)
    t = tv.load(path)
    t += 1
    assert t.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    arr = t.untyped_storage()._data
    assert arr.flags.writeable and arr.flags.owndata
    assert tv.load(path).tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_mmap_maps_copy_on_write(tmp_path):
    path = tmp_path / "m.pt"
    base = tv.arange(12.0).reshape(3, 4)
    tv.save({"a": base, "b": base[1:, 2]}, path)
    back = tv.load(path, mmap=True)
    assert same(back["a"], base) and same(back["b"], base[1:, 2])
    assert back["b"].untyped_storage() is back["a"].untyped_storage()
    back["a"][0, 0] = 99.0  # writable, and the file stays as it was
    assert back["a"][0, 0].item() == 99.0
    assert tv.load(path)["a"][0, 0].item() == 0.0
    with pytest.raises(ValueError, match="file path"):
        tv.load(io.BytesIO(path.read_bytes()), mmap=True)


def test_large_tensor_round_trip(tmp_path):
    t = tv.randn(1000, 1000)
    path = tmp_path / "big.pt"
    tv.save(t, path)
    assert tv.equal(tv.load(path), t)


def test_save_is_deterministic():
    t = {"a": tv.arange(10), "b": [1.5, "x"]}
    assert saved_bytes(t) == saved_bytes(t)


def test_non_seekable_streams():
    class WriteOnly:
        def __init__(self):
            self.parts = []

        def write(self, b):
            self.parts.append(bytes(b))
            return len(b)

    out = WriteOnly()
    tv.save(tv.arange(5), out)
    data = b"".join(out.parts)

    class ReadOnly(io.RawIOBase):
        def __init__(self, data):
            self._b = io.BytesIO(data)

        def readable(self):
            return True

        def readinto(self, b):
            return self._b.readinto(b)

    assert tv.load(ReadOnly(data)).tolist() == [0, 1, 2, 3, 4]


def test_archive_inside_a_longer_stream():
    buf = io.BytesIO()
    buf.write(b"header bytes")
    tv.save(tv.arange(3), buf)
    buf.seek(len(b"header bytes"))
    assert tv.load(buf).tolist() == [0, 1, 2]
    buf.write(b"trailing bytes" * 8)  # data after the archive is ignored, as by PyTorch
    buf.seek(len(b"header bytes"))
    assert tv.load(buf).tolist() == [0, 1, 2]


def test_several_saves_in_one_stream_are_not_silently_mixed_up():
    # Loading the first of two archives written back to back must not hand back the second
    # one (the zip directory at the end of the stream is the second's); PyTorch fails too.
    buf = io.BytesIO()
    tv.save({"first": tv.arange(50)}, buf)
    second_at = buf.tell()
    tv.save("second", buf)
    buf.seek(0)
    with pytest.raises(FormatError, match="more than one archive"):
        tv.load(buf)
    buf.seek(second_at)
    assert tv.load(buf) == "second"


# ---------------------------------------------------------------- the file format
def test_layout_of_the_archive(tmp_path):
    path = tmp_path / "my.model.v1.pt"
    tv.save({"a": tv.arange(3.0), "b": tv.zeros(0), "c": tv.ones(2, dtype=tv.int16)}, path)
    data = path.read_bytes()
    zf = zipfile.ZipFile(path)
    names = zf.namelist()
    assert names == ["my.model.v1/data.pkl", "my.model.v1/.format_version",
                     "my.model.v1/.storage_alignment", "my.model.v1/byteorder",
                     "my.model.v1/data/0", "my.model.v1/data/1", "my.model.v1/data/2",
                     "my.model.v1/version", "my.model.v1/.data/serialization_id"]
    assert zf.read("my.model.v1/.format_version") == b"1"
    assert zf.read("my.model.v1/.storage_alignment") == b"64"
    assert zf.read("my.model.v1/byteorder") == b"little"
    assert zf.read("my.model.v1/version") == b"3\n"
    sid = zf.read("my.model.v1/.data/serialization_id")
    assert len(sid) == 40 and sid.isdigit()
    assert zf.testzip() is None
    for info in zf.infolist():
        assert info.compress_type == zipfile.ZIP_STORED
        name_len, extra_len = struct.unpack("<HH", data[info.header_offset + 26:
                                                        info.header_offset + 30])
        assert (info.header_offset + 30 + name_len + extra_len) % 64 == 0, info.filename
    assert zf.read("my.model.v1/data/0") == np.arange(3.0, dtype=np.float32).tobytes()
    pkl = zf.read("my.model.v1/data.pkl")
    assert pkl.startswith(b"\x80\x02") and b"ctorch._utils\n_rebuild_tensor_v2\n" in pkl
    assert b"ctorch\nFloatStorage\n" in pkl and b"ctorch\nShortStorage\n" in pkl
    assert b"tensorviz" not in pkl


@pytest.mark.parametrize("name,folder", [("noext", "noext"), ("a.b.c", "a.b"),
                                         (".h.pt", ".h"), ("trail.", "trail"),
                                         ("é.pt", "archive")])
def test_archive_folder_is_named_after_the_file(tmp_path, name, folder):
    tv.save(tv.ones(1), tmp_path / name)
    assert zipfile.ZipFile(tmp_path / name).namelist()[0] == f"{folder}/data.pkl"


def test_buffers_use_the_archive_folder():
    assert zipfile.ZipFile(io.BytesIO(saved_bytes(1))).namelist()[0] == "archive/data.pkl"


def test_zip64_archives_are_read():
    buf = craft({"a": tv.arange(5), "b": [1, 2]}, force_zip64=True)
    zf = zipfile.ZipFile(buf)
    assert zf.testzip() is None
    buf.seek(0)
    back = tv.load(buf)
    assert back["a"].tolist() == [0, 1, 2, 3, 4] and back["b"] == [1, 2]


def test_higher_pickle_protocols_still_load():
    buf = io.BytesIO()
    tv.save({"a": tv.arange(3), "b": b"xyz"}, buf, pickle_protocol=4)
    buf.seek(0)
    back = tv.load(buf)
    assert back["a"].tolist() == [0, 1, 2] and back["b"] == b"xyz"


def test_save_arguments_are_checked():
    with pytest.raises(TypeError, match="BytesIO"):
        tv.save(tv.ones(1), b"not a file")
    with pytest.raises(TypeError, match="path"):
        tv.save(tv.ones(1), 42)
    with pytest.raises(TypeError, match="binary"):
        tv.save(tv.ones(1), io.StringIO())
    with pytest.raises(NotImplementedError, match="legacy"):
        tv.save(tv.ones(1), io.BytesIO(), _use_new_zipfile_serialization=False)
    with pytest.raises(ValueError, match="pickle_protocol"):
        tv.save(tv.ones(1), io.BytesIO(), pickle_protocol=1)


# ---------------------------------------------------------------- safety
class _RunsCode:
    def __init__(self, fn, *args):
        self.fn, self.args = fn, args

    def __reduce__(self):
        return (self.fn, self.args)


def test_malicious_file_runs_nothing(tmp_path):
    marker = tmp_path / "pwned"
    evil = _RunsCode(os.system, f"touch {marker}")
    path = tmp_path / "evil.pt"
    tv.save({"weights": tv.ones(2), "payload": [evil]}, path)
    with pytest.raises(pickle.UnpicklingError) as info:
        tv.load(path)
    msg = str(info.value)
    assert f"{os.system.__module__}.system" in msg and "weights_only=False" in msg
    assert not marker.exists()
    with pytest.raises(pickle.UnpicklingError):
        tv.load(path, weights_only=True, map_location="cpu")
    assert not marker.exists()


@pytest.mark.parametrize("fn,args", [(eval, ("1",)), (exec, ("x = 1",)), (getattr, (1, "real")),
                                     (__import__, ("os",)), (np.array, ([1],)),
                                     (collections.namedtuple, ("P", "x"))])
def test_other_globals_are_refused_by_name(fn, args):
    buf = craft(_RunsCode(fn, *args))
    with pytest.raises(pickle.UnpicklingError, match=f"global {fn.__module__}") as info:
        tv.load(buf)
    assert fn.__name__ in str(info.value)


def test_weights_only_false_loads_trusted_objects():
    buf = craft({"arr": np.arange(3), "t": tv.arange(2), "od": collections.OrderedDict(a=1)})
    with pytest.raises(pickle.UnpicklingError, match="numpy"):
        tv.load(buf)
    buf.seek(0)
    back = tv.load(buf, weights_only=False)
    assert back["arr"].tolist() == [0, 1, 2] and back["t"].tolist() == [0, 1]


class Trusted:
    """A user class for the allowlist tests (module-level, so pickle can name it)."""

    def __init__(self, x):
        self.x = x


def test_safe_globals_allowlist():
    name = f"{Trusted.__module__}.Trusted"
    buf = craft({"obj": Trusted(tv.arange(3)), "n": 1})
    assert serialization.get_unsafe_globals_in_checkpoint(buf) == [name]
    buf.seek(0)
    with pytest.raises(pickle.UnpicklingError, match=f"add_safe_globals.*{name}"):
        tv.load(buf)
    with serialization.safe_globals([Trusted]):
        assert serialization.get_safe_globals() == [Trusted]
        buf.seek(0)
        back = tv.load(buf)
    assert type(back["obj"]) is Trusted and back["obj"].x.tolist() == [0, 1, 2]
    assert serialization.get_safe_globals() == []
    buf.seek(0)
    with pytest.raises(pickle.UnpicklingError):
        tv.load(buf)
    serialization.add_safe_globals([(Trusted, "elsewhere.Renamed")])
    try:
        renamed = craft(payload=b"\x80\x02celsewhere\nRenamed\nK\x05\x85R.")
        assert tv.load(renamed).x == 5
    finally:
        serialization.clear_safe_globals()
    assert serialization.get_safe_globals() == []


def test_weights_only_false_still_never_imports_torch():
    payload = b"\x80\x02ctorch.nn.modules.linear\nLinear\n)\x81."
    with pytest.raises(pickle.UnpicklingError, match="state_dict"):
        tv.load(craft(payload=payload), weights_only=False)


@pytest.mark.parametrize("payload,what", [
    (b"\x80\x02(X\x02\x00\x00\x00idios\nsystem\n.", "opcode"),  # INST
    (b"\x80\x02(cposix\nsystem\nX\x02\x00\x00\x00ido.", "posix.system"),  # OBJ
    (b"\x80\x02\x82\x01.", "opcode"),  # EXT1
    (b"\x80\x02X\x03\x00\x00\x00abcQ.", "storages"),  # a persistent id that is no storage
    (b"\x80\x02P0\n.", "opcode"),  # a text persistent id
    (b"\x80\x02ctorch\nTensor\n)R.", "not an allowed function"),  # calling a type marker
    (b"\x80\x02ctorch\nfloat32\n)R.", "not an allowed function"),
    (b"\x80\x02c_codecs\nencode\nX\x01\x00\x00\x00xX\x04\x00\x00\x00zlib\x86R.", "codec"),
    (b"\x80\x02cbuiltins\nbytes\nJ\x00\x00\x00\x40\x85R.", "not allowed"),  # bytes(2**30)
    (b"\x80\x02]K\x01K\x02s.", "sets items of a list"),
    (b"\x80\x02}K\x01a.", "appends to a dict"),
    (b"\x80\x02ccollections\nOrderedDict\n)RN}X\x01\x00\x00\x00aK\x01s\x86b.", "state"),
    (b"\x80\x02cbuiltins\nset\n)\x81}b.", "state"),
    (b"\x80\x02ccollections\nOrderedDict\n)R}X\x0d\x00\x00\x00__reduce_ex__K\x01sb.",
     "state"),
    (b"\x80\x02cbuiltins\nlist\n.", "builtins.list"),
    (b"\x80\x02cnt\nsystem\n.", "nt.system"),
    (b"\x80\x02X\x02\x00\x00\x00osX\x06\x00\x00\x00system\x93.", "os.system"),  # STACK_GLOBAL
])
def test_hostile_pickles_are_refused(payload, what):
    with pytest.raises(pickle.UnpicklingError, match=what):
        tv.load(craft(payload=payload))


def test_build_on_a_tensor_is_refused():
    state = b"N}X\x07\x00\x00\x00_offsetJ\x00\x00\x00\x01s\x86"
    with pytest.raises(pickle.UnpicklingError, match="state of a Tensor"):
        tv.load(craft(tv.arange(4), patch=lambda real: real[:-1] + state + b"b."))


def test_views_outside_their_storage_are_refused():
    t = tv.arange(4)
    fake = tv.Tensor._make(t.untyped_storage(), tv.int64, 2, (10,), (1,))
    with pytest.raises(RuntimeError, match="out of bounds"):
        tv.load(craft(fake))
    neg = tv.Tensor._make(t.untyped_storage(), tv.int64, 3, (2,), (-1,))
    with pytest.raises(RuntimeError, match="Negative strides"):
        tv.load(craft(neg))


def test_storage_sizes_must_match_their_members():
    buf = craft(tv.arange(4), pid=lambda p: p[:4] + (8,))
    with pytest.raises(FormatError, match="has 32 bytes but its storage needs 64"):
        tv.load(buf)
    buf = craft(tv.arange(4), pid=lambda p: p[:2] + ("7",) + p[3:])
    with pytest.raises(FormatError, match="data/7 is missing"):
        tv.load(buf)


@pytest.mark.parametrize("member", ["data/0", "data.pkl", "version"])
def test_a_member_claiming_more_bytes_than_the_file_is_refused_before_allocating(member):
    # The zip directory (zip64 sizes) and, for data/0, the storage id claim 10**14 bytes in
    # a tiny file: a clear error, not a MemoryError (nor that much memory reserved).
    huge = 10 ** 14
    buf = craft(tv.ones(4, dtype=tv.uint8), force_zip64=True,
                pid=(lambda p: p[:4] + (huge,)) if member == "data/0" else None)
    raw = bytearray(buf.getvalue())
    at = 0
    while True:  # the central directory entry of archive/data/0 and its zip64 sizes
        at = raw.index(b"PK\x01\x02", at)
        name_len = struct.unpack_from("<H", raw, at + 28)[0]
        if raw[at + 46:at + 46 + name_len] == f"archive/{member}".encode():
            extra = at + 46 + name_len
            assert struct.unpack_from("<H", raw, extra)[0] == 1  # the zip64 field
            struct.pack_into("<QQ", raw, extra + 4, huge, huge)
            break
        at += 4
    assert zipfile.ZipFile(io.BytesIO(bytes(raw))).getinfo(f"archive/{member}").file_size == huge
    with pytest.raises(FormatError, match="truncated"):
        tv.load(io.BytesIO(bytes(raw)))


def test_compressed_members_are_refused():
    buf = rezip(saved_bytes(tv.arange(100)), compress=zipfile.ZIP_DEFLATED)
    with pytest.raises(FormatError, match="compressed"):
        tv.load(buf)


def test_weights_only_with_a_pickle_module_is_refused_like_pytorch():
    buf = io.BytesIO(saved_bytes(1))
    with pytest.raises(RuntimeError, match="explicit pickle_module"):
        tv.load(buf, pickle_module=pickle)
    assert tv.load(buf, pickle_module=pickle, weights_only=False) == 1


# ---------------------------------------------------------------- bad input
def test_empty_file(tmp_path):
    (tmp_path / "empty.pt").write_bytes(b"")
    with pytest.raises(EOFError, match="empty"):
        tv.load(tmp_path / "empty.pt")


@pytest.mark.parametrize("keep", [4, 30, 100, 0.5, -23, -1])
def test_truncated_files(keep):
    data = saved_bytes({"a": tv.arange(100), "b": tv.ones(10)})
    cut = data[:int(len(data) * keep)] if isinstance(keep, float) else data[:keep]
    with pytest.raises(RuntimeError, match="truncated|corrupt"):
        tv.load(io.BytesIO(cut))


@pytest.mark.parametrize("member", ["data/0", "data.pkl"])
def test_corrupt_bytes_are_detected(member):
    data = bytearray(saved_bytes(tv.arange(100)))
    h = zipfile.ZipFile(io.BytesIO(bytes(data))).getinfo(f"archive/{member}").header_offset
    name_len, extra_len = struct.unpack("<HH", data[h + 26:h + 30])
    data[h + 30 + name_len + extra_len + 5] ^= 0xFF
    with pytest.raises(FormatError, match=f"corrupt.*{member}"):
        tv.load(io.BytesIO(bytes(data)))


def test_corrupt_pickles_raise_unpickling_error():
    for payload in (b"\x80\x02h\x05.", b"\x80\x02(", b"\x80\x02\x86.", b"garbage",
                    b"\x80\x02ctorch._utils\n_rebuild_tensor_v2\n)R."):
        with pytest.raises(pickle.UnpicklingError):
            tv.load(craft(payload=payload))


@pytest.mark.parametrize("content,what", [
    (b"hello world, not a checkpoint", "not a file written by torch.save"),
    (b"\x89HDF\r\n\x1a\n" + bytes(100), "HDF5"),
    (b"\x93NUMPY\x01\x00" + bytes(100), "NumPy .npy"),
    (b"\x1f\x8b\x08\x00" + bytes(20), "gzip"),
    (pickle.dumps({"a": 1}, protocol=2), "plain pickle"),
    (struct.pack("<Q", 20) + b'{"a":{"dtype":"F32"}}', "safetensors"),
    (b"\x80\x02\x8a\nl\xfc\x9cF\xf9 j\xa8P\x19.\x80\x02M\xe9\x03.", "truncated.*legacy"),
    (b"\x80\x02\x8a\nl\xfc\x9cF\xf9 j\xa8P\x19.\x80\x02M\xea\x03.", "protocol version"),
    (bytes(257) + b"ustar\x0000" + bytes(300), "tar archive"),
    (b"PK\x05\x06" + bytes(18), "empty zip"),
])
def test_files_of_other_kinds_are_named(tmp_path, content, what):
    path = tmp_path / "f.bin"
    path.write_bytes(content)
    with pytest.raises(RuntimeError, match=what):
        tv.load(path)


def test_zip_archives_of_other_kinds():
    good = saved_bytes(tv.arange(3))
    with pytest.raises(FormatError, match="TorchScript"):
        tv.load(rezip(good, add=[("archive/constants.pkl", b"")]))
    with pytest.raises(FormatError, match="no archive/data.pkl"):
        tv.load(rezip(good, drop=["data.pkl"]))
    with pytest.raises(FormatError, match="data/0 is missing"):
        tv.load(rezip(good, drop=["data/0"]))
    with pytest.raises(FormatError, match="outside its top folder"):
        tv.load(rezip(good, add=[("other/x", b"")]))
    with pytest.raises(FormatError, match="not inside a folder"):
        tv.load(rezip(good, drop=list(zipfile.ZipFile(io.BytesIO(good)).namelist()),
                      add=[("data.pkl", b"")]))
    npz = io.BytesIO()
    np.savez(npz, a=np.arange(3))
    npz.seek(0)
    with pytest.raises(FormatError, match="npz"):
        tv.load(npz)
    bad_version = rezip(good, drop=["/version"], add=[("archive/version", b"99\n")])
    with pytest.raises(FormatError, match="version"):
        tv.load(bad_version)
    bad_order = rezip(good, drop=["byteorder"], add=[("archive/byteorder", b"middle")])
    with pytest.raises(ValueError, match="Unknown endianness type: middle"):
        tv.load(bad_order)


def test_load_arguments_are_checked(tmp_path):
    with pytest.raises(FileNotFoundError):
        tv.load(tmp_path / "missing.pt")
    with pytest.raises(IsADirectoryError):
        tv.load(tmp_path)
    with pytest.raises(TypeError, match="BytesIO"):
        tv.load(saved_bytes(1))
    with pytest.raises(TypeError, match="binary"):
        tv.load(io.StringIO("x"))
    with pytest.raises(TypeError, match="path"):
        tv.load(3.5)
    with pytest.raises(TypeError, match="map_location"):
        tv.load(io.BytesIO(saved_bytes(1)), map_location=3)


# ---------------------------------------------------------------- atomic saves
def test_failed_save_keeps_the_previous_file(tmp_path, monkeypatch):
    path = tmp_path / "ckpt.pt"
    tv.save(tv.arange(3), path)
    before = path.read_bytes()
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        tv.save({"f": lambda x: x}, path)  # fails while pickling
    from tensorviz._serialization import _zipformat
    calls = []
    real_add = _zipformat.ZipWriter.add

    def failing_add(self, name, data):
        calls.append(name)
        if name == "data/0":
            raise OSError("disk full")
        return real_add(self, name, data)

    monkeypatch.setattr(_zipformat.ZipWriter, "add", failing_add)
    with pytest.raises(OSError, match="disk full"):
        tv.save(tv.arange(1000), path)  # fails half-way through writing
    assert "data.pkl" in calls
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt.pt"]


def test_save_needs_an_existing_folder(tmp_path):
    with pytest.raises(RuntimeError, match="Parent directory .* does not exist"):
        tv.save(tv.ones(1), tmp_path / "nope" / "x.pt")
    with pytest.raises(IsADirectoryError):
        tv.save(tv.ones(1), tmp_path)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_saved_files_get_normal_permissions(tmp_path):
    path = tmp_path / "p.pt"
    tv.save(tv.ones(1), path)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o666 & ~umask
    os.chmod(path, 0o640)
    tv.save(tv.ones(2), path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640


def test_read_only_files_are_not_replaced(tmp_path, monkeypatch):
    # open(path, 'wb') (PyTorch's way) fails on a read-only file; renaming a temporary file
    # over it would not, so save() checks.  (os.access is patched: the tests may run as root,
    # for whom every file is writable.)
    path = tmp_path / "ro.pt"
    tv.save(tv.ones(1), path)
    before = path.read_bytes()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, *a, **k: False if os.fspath(p) == str(
        path) and mode == os.W_OK else real_access(p, mode, *a, **k))
    with pytest.raises(PermissionError, match="read-only"):
        tv.save(tv.zeros(3), path)
    assert path.read_bytes() == before and sorted(os.listdir(tmp_path)) == ["ro.pt"]


@pytest.mark.skipif(not os.path.exists(os.devnull) or sys.platform == "win32",
                    reason="POSIX devices")
def test_saving_to_a_device_writes_into_it():
    tv.save(tv.ones(3), os.devnull)
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks")
def test_saving_through_a_symlink_replaces_the_target(tmp_path):
    target = tmp_path / "real.pt"
    link = tmp_path / "link.pt"
    tv.save(tv.ones(1), target)
    link.symlink_to(target)
    tv.save(tv.arange(3), link)
    assert link.is_symlink() and tv.load(target).tolist() == [0, 1, 2]


# ---------------------------------------------------------------- map_location
def _on_cuda(obj) -> io.BytesIO:
    """A file whose storages say they were saved from 'cuda:0' (made without a GPU)."""
    return craft(obj, pid=lambda p: p[:3] + ("cuda:0",) + p[4:])


@pytest.mark.parametrize("where", ["cpu", tv.device("cpu"), {"cpu": "cpu"},
                                   {"cuda:0": "cpu"}, lambda s, loc: s,
                                   lambda s, loc: None, lambda s, loc: s.cpu()])
def test_map_location_to_cpu(where):
    t = tv.arange(6).reshape(2, 3)
    back = roundtrip({"t": t, "v": t[1]}, map_location=where)
    assert same(back["t"], t) and back["t"].device == tv.device("cpu")
    assert back["v"].untyped_storage() is back["t"].untyped_storage()


def test_map_location_callable_sees_cpu_storage_and_location():
    seen = []

    def spy(storage, location):
        seen.append((type(storage), storage.device, location))
        return storage

    roundtrip([tv.ones(1), tv.ones(2)], map_location=spy)
    assert seen == [(tv.UntypedStorage, tv.device("cpu"), "cpu")] * 2
    with pytest.raises(TypeError, match="must return a storage"):
        roundtrip(tv.ones(1), map_location=lambda s, loc: "cpu")


def test_errors_of_a_map_location_callable_pass_unchanged():
    def broken(storage, location):
        raise KeyError("my mapping")

    with pytest.raises(KeyError, match="my mapping"):
        roundtrip(tv.ones(1), map_location=broken)


def test_cuda_saved_files_map_to_cpu():
    t = tv.arange(6).reshape(2, 3)
    for where in ("cpu", tv.device("cpu"), {"cuda:0": "cpu"}, lambda s, loc: s):
        back = tv.load(_on_cuda({"t": t, "v": t[1]}), map_location=where)
        assert same(back["t"], t) and back["t"].device.type == "cpu"
        assert back["v"].untyped_storage() is back["t"].untyped_storage()


@needs_no_cuda
def test_cuda_saved_files_without_a_gpu_raise_like_pytorch():
    msg = ("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() "
           "is False. If you are running on a CPU-only machine, please use torch.load with "
           "map_location=torch.device('cpu') to map your storages to the CPU.")
    with pytest.raises(RuntimeError) as info:
        tv.load(_on_cuda(tv.ones(2)))
    assert str(info.value) == msg
    for where in ("cuda", "cuda:0", {"cpu": "cuda:0"}):
        with pytest.raises(RuntimeError, match="torch.cuda.is_available"):
            roundtrip(tv.ones(1), map_location=where)


def test_unknown_locations():
    with pytest.raises(RuntimeError, match="tagged with mps"):
        roundtrip(tv.ones(1), map_location="mps")


@needs_cuda
def test_cuda_round_trips():
    t = tv.arange(12.0, device="cuda").reshape(3, 4)
    buf = io.BytesIO()
    tv.save({"t": t, "v": t[1:, ::2]}, buf)
    assert b"cuda:0" in zipfile.ZipFile(buf).read("archive/data.pkl")
    buf.seek(0)
    back = tv.load(buf)
    assert back["t"].device == tv.device("cuda:0") and back["v"].stride() == (4, 2)
    assert back["v"].untyped_storage() is back["t"].untyped_storage()
    assert back["t"].cpu().tolist() == t.cpu().tolist()
    buf.seek(0)
    cpu = tv.load(buf, map_location="cpu")
    assert cpu["t"].device.type == "cpu" and cpu["v"].tolist() == t[1:, ::2].cpu().tolist()
    back = roundtrip(tv.arange(3), map_location="cuda")
    assert back.device == tv.device("cuda:0") and back.tolist() == [0, 1, 2]
    back = roundtrip(tv.arange(3), map_location=lambda s, loc: s.cuda())
    assert back.device.type == "cuda"
    with pytest.raises(RuntimeError, match="device_count"):
        roundtrip(tv.arange(3), map_location="cuda:99")


# ====================================================================== against PyTorch
def _torch():
    return pytest.importorskip("torch")


def _torch_dtype(torch, name):
    return getattr(torch, name)


def _pt_sample(torch, name, shape=(3, 4)):
    return torch.from_numpy(sample(name, shape).numpy().copy())


def _pt_shares(a, b) -> bool:
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


INTEROP_VIEWS = {
    "whole": lambda t: t, "row": lambda t: t[1], "col": lambda t: t[:, 2],
    "t": lambda t: t.t(), "step": lambda t: t[::2, 1::2], "scalar": lambda t: t[1, 2],
    "expand": lambda t: t[0:1].expand(3, 4), "empty": lambda t: t[1:1],
}


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_tensorviz_files_load_in_pytorch(tmp_path, name):
    torch = _torch()
    base = sample(name)
    path = tmp_path / "tv.pt"
    tv.save({k: f(base) for k, f in INTEROP_VIEWS.items()} | {"zero": sample(name, ())}, path)
    for kwargs in ({"weights_only": True}, {"weights_only": True, "mmap": True},
                   {"weights_only": False}):
        back = torch.load(path, **kwargs)
        pt_base = _pt_sample(torch, name)
        for k, f in INTEROP_VIEWS.items():
            assert_same_tensor(f(base), back[k])
            assert _pt_shares(back[k], back["whole"]) or back[k].numel() == 0
            assert back[k].untyped_storage().nbytes() == base.untyped_storage().nbytes()
            assert torch.equal(back[k], f(pt_base))
        assert_same_tensor(sample(name, ()), back["zero"])


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_pytorch_files_load_in_tensorviz(tmp_path, name):
    torch = _torch()
    pt_base = _pt_sample(torch, name)
    path = tmp_path / "pt.pt"
    torch.save({k: f(pt_base) for k, f in INTEROP_VIEWS.items()}
               | {"zero": _pt_sample(torch, name, ())}, path)
    for kwargs in ({}, {"mmap": True}, {"weights_only": False}):
        back = tv.load(path, **kwargs)
        for k, f in INTEROP_VIEWS.items():
            assert_same_tensor(back[k], f(pt_base))
            assert back[k].untyped_storage() is back["whole"].untyped_storage()
        assert_same_tensor(back["zero"], _pt_sample(torch, name, ()))


def _saved_alike(torch, make, offsets: bool = False):
    """``make(lib)`` saved by PyTorch and by tensorviz: the two buffers and zip files, checked
    to hold the same records with the same bytes (the serialization id apart), and with
    ``offsets`` at the same places."""
    a, b = io.BytesIO(), io.BytesIO()
    torch.save(make(torch), a)
    tv.save(make(tv), b)
    za, zb = zipfile.ZipFile(a), zipfile.ZipFile(b)
    assert za.namelist() == zb.namelist()
    for x, y in zip(za.infolist(), zb.infolist()):
        if offsets:
            assert x.header_offset == y.header_offset
        if not x.filename.endswith("serialization_id"):
            assert za.read(x) == zb.read(y), x.filename
    return a, b, za, zb


def test_files_are_byte_identical_to_pytorchs_but_for_the_id():
    torch = _torch()

    def make(lib):
        p = lib.arange(12, dtype=lib.float32).reshape(3, 4)
        return {"p": p, "r": p[1], "t": p.t(), "i": lib.arange(5), "e": lib.zeros(0),
                "l": [1, 2.5, "x", None, True, (1, 2), 2 ** 70], "b": b"ab",
                "s": lib.tensor(3.5, dtype=lib.float64), "c": lib.tensor([1 + 2j]),
                "dt": lib.int16, "sz": p.shape, "cx": 1 + 2j, "set": {3}}

    a, b, za, zb = _saved_alike(torch, make, offsets=True)
    sid = za.getinfo("archive/.data/serialization_id")
    start = sid.header_offset
    ab, bb = a.getvalue(), b.getvalue()
    assert len(ab) == len(bb) and ab[:start] == bb[:start]


def test_pytorch_objects_map_onto_tensorviz(tmp_path):
    torch = _torch()
    lin = torch.nn.Linear(3, 2)
    x, y = torch.tensor([1 + 2j, 3 - 1j]), torch.tensor([1 + 2j, 3 - 1j])
    obj = {"sd": lin.state_dict(), "param": lin.weight, "conj": x.conj(),
           "neg": y.conj().imag, "size": torch.Size([2, 3]), "dev": torch.device("cuda", 1),
           "dtype": torch.half, "bytes": b"xy", "grad": torch.ones(2, requires_grad=True),
           "set": {1, 2}, "cx": 2 - 3j}
    path = tmp_path / "objs.pt"
    torch.save(obj, path)
    back = tv.load(path)
    sd = back["sd"]
    assert type(sd) is collections.OrderedDict and list(sd) == ["weight", "bias"]
    assert sd._metadata == lin.state_dict()._metadata
    assert np.array_equal(sd["weight"].numpy(), lin.weight.detach().numpy())
    assert back["param"].requires_grad and back["grad"].requires_grad
    assert back["conj"].tolist() == [1 - 2j, 3 + 1j] and back["conj"].is_conj()
    assert back["neg"].tolist() == [-2.0, 1.0]
    assert back["size"] == tv.Size([2, 3]) and type(back["size"]) is tv.Size
    assert back["dev"] == tv.device("cuda", 1) and back["dtype"] is tv.float16
    assert back["bytes"] == b"xy" and back["set"] == {1, 2} and back["cx"] == 2 - 3j


def test_pytorch_checkpoints_and_whole_models(tmp_path):
    torch = _torch()
    model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU())
    opt = torch.optim.Adam(model.parameters())
    model(torch.randn(4, 3)).sum().backward()
    opt.step()
    path = tmp_path / "ckpt.pt"
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": 3}, path)
    back = tv.load(path)
    assert list(back["model"]) == ["0.weight", "0.bias"] and back["epoch"] == 3
    assert back["opt"]["param_groups"][0]["betas"] == (0.9, 0.999)
    assert back["opt"]["state"][0]["exp_avg"].shape == (2, 3)
    torch.save(model, path)
    for weights_only in (True, False):
        with pytest.raises(pickle.UnpicklingError,
                           match="torch.nn.modules.container.Sequential.*state_dict"):
            tv.load(path, weights_only=weights_only)


@pytest.mark.parametrize("name", ["uint16", "float8_e4m3fn"])
def test_pytorch_dtypes_tensorviz_lacks_are_named(tmp_path, name):
    torch = _torch()
    if not hasattr(torch, name):
        pytest.skip(f"this PyTorch has no {name}")
    path = tmp_path / "x.pt"
    torch.save(torch.zeros(2, dtype=getattr(torch, name)), path)
    with pytest.raises(RuntimeError, match=f"torch.{name}.*tensorviz does not have"):
        tv.load(path)


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_pytorch_legacy_files_load(tmp_path, name):
    torch = _torch()
    pt_base = _pt_sample(torch, name)
    path = tmp_path / "old.pt"
    torch.save({k: f(pt_base) for k, f in INTEROP_VIEWS.items()}
               | {"zero": _pt_sample(torch, name, ()), "other": torch.arange(3), "x": [1, "a"]},
               path, _use_new_zipfile_serialization=False)
    for kwargs in ({}, {"weights_only": False}, {"map_location": "cpu"},
                   {"map_location": lambda s, loc: s.clone()}):
        back = tv.load(path, **kwargs)
        for k, f in INTEROP_VIEWS.items():
            assert_same_tensor(back[k], f(pt_base))
            assert back[k].untyped_storage() is back["whole"].untyped_storage()
        assert_same_tensor(back["zero"], _pt_sample(torch, name, ()))
        assert back["other"].tolist() == [0, 1, 2] and back["x"] == [1, "a"]
    with pytest.raises(RuntimeError, match="mmap can only be used"):
        tv.load(path, mmap=True)


def test_legacy_files_are_checked(tmp_path):
    torch = _torch()
    path = tmp_path / "old.pt"
    torch.save({"t": torch.arange(10), "arr": np.arange(2)}, path,
               _use_new_zipfile_serialization=False)
    with pytest.raises(pickle.UnpicklingError, match="numpy"):
        tv.load(path)
    assert tv.load(path, weights_only=False)["arr"].tolist() == [0, 1]
    torch.save({"t": torch.arange(10), "u": torch.ones(3)}, path,
               _use_new_zipfile_serialization=False)
    data = path.read_bytes()
    for cut in (len(data) - 1, len(data) - 30, len(data) // 2, 30):
        with pytest.raises((RuntimeError, pickle.UnpicklingError), match="truncated|corrupt"):
            tv.load(io.BytesIO(data[:cut]))


def test_legacy_storage_sizes_are_checked_before_allocating():
    # A legacy file's storage sizes come from its pickle: a huge one must be refused by
    # name before any memory is asked for (not a MemoryError, nor terabytes reserved).
    torch = _torch()
    buf = io.BytesIO()
    torch.save(torch.arange(10), buf, _use_new_zipfile_serialization=False)
    data = buf.getvalue()
    at = data.index(b"K\n", data.index(b"X\x03\x00\x00\x00cpu"))  # numel 10, as BININT1
    for numel in (10 ** 14, 2 ** 31 - 1):
        bad = data[:at] + b"\x8a\x08" + numel.to_bytes(8, "little") + data[at + 2:]
        with pytest.raises(FormatError, match="more than the whole file"):
            tv.load(io.BytesIO(bad))
    assert tv.load(io.BytesIO(data)).tolist() == list(range(10))


def test_pytorch_mmap_with_computed_offsets(tmp_path):
    torch = _torch()
    config = pytest.importorskip("torch.utils.serialization").config
    path = tmp_path / "tv.pt"
    base = tv.arange(100.0)
    tv.save({"a": base[3:7], "b": tv.zeros(0), "c": tv.arange(5), "d": base}, path)
    old = config.load.calculate_storage_offsets
    config.load.calculate_storage_offsets = True
    try:
        back = torch.load(path, mmap=True, weights_only=True)
    finally:
        config.load.calculate_storage_offsets = old
    assert back["a"].tolist() == [3.0, 4.0, 5.0, 6.0] and back["c"].tolist() == list(range(5))
    assert back["d"].sum().item() == sum(range(100))


if given is not None:

    @st.composite
    def view_steps(draw, shape: tuple):
        """A view op valid for ``shape``, as (method name, args) that both libraries accept."""
        n = len(shape)
        kinds = ["slice", "unsqueeze"] + (["select", "transpose", "narrow"] if n else []) + \
            (["diagonal", "t"] if n == 2 else []) + (["expand"] if 1 in shape else [])
        kind = draw(st.sampled_from(kinds))
        if kind == "slice":
            key = tuple(slice(draw(st.integers(0, s)), draw(st.integers(0, s)),
                              draw(st.integers(1, 3))) for s in shape)
            return "__getitem__", (key,)
        if kind == "unsqueeze":
            return kind, (draw(st.integers(-n - 1, n)),)
        d = draw(st.integers(-n, n - 1)) if n else 0
        if kind == "select":
            return (kind, (d, draw(st.integers(-shape[d], shape[d] - 1)))) if shape[d] else \
                ("unsqueeze", (0,))
        if kind == "transpose":
            return kind, (d, draw(st.integers(-n, n - 1)))
        if kind == "narrow":
            start = draw(st.integers(0, shape[d]))
            return kind, (d, start, draw(st.integers(0, shape[d] - start)))
        if kind == "diagonal":
            return kind, (draw(st.integers(-2, 2)),)
        if kind == "t":
            return kind, ()
        return kind, (tuple(draw(st.integers(0, 3)) if s == 1 else s for s in shape),)

    @settings(max_examples=150, deadline=None)
    @given(st.sampled_from(DTYPE_NAMES), st.lists(st.integers(0, 4), max_size=3), st.data())
    def test_random_views_cross_both_ways(name, shape, data):
        torch = _torch()
        base = np.ascontiguousarray(sample(name, tuple(shape)).numpy())
        tv_base, pt_base = tv.from_numpy(base.copy()), torch.from_numpy(base.copy())
        tv_t, pt_t = tv_base, pt_base
        for _ in range(data.draw(st.integers(0, 4), label="steps")):
            method, args = data.draw(view_steps(tuple(pt_t.shape)), label="step")
            tv_t, pt_t = getattr(tv_t, method)(*args), getattr(pt_t, method)(*args)
        assert_same_tensor(tv_t, pt_t)
        # tensorviz -> PyTorch
        buf = io.BytesIO()
        tv.save([tv_base, tv_t], buf)
        buf.seek(0)
        pt_back = torch.load(buf, weights_only=True)
        for original, loaded in zip([tv_base, tv_t], pt_back):
            assert_same_tensor(original, loaded)
            assert loaded.untyped_storage().nbytes() == original.untyped_storage().nbytes()
        if base.size:
            assert _pt_shares(pt_back[0], pt_back[1])
        # PyTorch -> tensorviz
        buf = io.BytesIO()
        torch.save([pt_base, pt_t], buf)
        buf.seek(0)
        tv_back = tv.load(buf)
        for loaded, original in zip(tv_back, [pt_base, pt_t]):
            assert_same_tensor(loaded, original)
            assert loaded.untyped_storage().nbytes() == original.untyped_storage().nbytes()
        assert tv_back[0].untyped_storage() is tv_back[1].untyped_storage()


def test_lazy_conjugate_views_round_trip(tmp_path):
    """A conjugate view is saved as PyTorch saves it (its memory and the conj bit in the
    tensor's metadata) and loaded back as the same lazy view, both ways."""
    torch = pytest.importorskip("torch")
    x = tv.tensor([1 + 2j, 3 - 1j])
    tv.save({"c": x.conj(), "x": x}, tmp_path / "a.pt")
    back = torch.load(tmp_path / "a.pt")
    assert back["c"].is_conj() and back["c"].tolist() == [1 - 2j, 3 + 1j]
    assert back["c"].data_ptr() == back["x"].data_ptr()
    y = torch.tensor([1 + 2j, 3 - 1j])
    torch.save({"c": y.conj(), "x": y}, tmp_path / "b.pt")
    mine = tv.load(tmp_path / "b.pt")
    assert mine["c"].is_conj() and mine["c"].tolist() == [1 - 2j, 3 + 1j]
    assert mine["c"].untyped_storage() is mine["x"].untyped_storage()


@pytest.mark.parametrize("weights_only", [True, False])
def test_loaded_tensors_version_counters_as_pytorch(weights_only):
    """PyTorch rebuilds each loaded tensor with ``set_`` (a write): every tensor of a file
    starts at version 1 with its own counter, views of one storage included."""
    torch = _torch()
    import io

    def program(lib):
        x = lib.arange(6.)
        saved = {"x": x, "v": x[2:], "p": lib.nn.Parameter(lib.ones(2)),
                 "i": lib.tensor([1, 2]), "z": lib.zeros(0), "s": lib.tensor(3.),
                 "c": lib.tensor([1 + 2j]).conj()}
        buf = io.BytesIO()
        torch.save(saved, buf) if lib is torch else tv.save(saved, buf)
        buf.seek(0)
        back = lib.load(buf, weights_only=weights_only)
        seen = [{k: t._version for k, t in back.items()}]
        back["x"].add_(1)
        back["p"].data.mul_(2)
        seen.append({k: t._version for k, t in back.items()})
        return seen

    assert program(tv) == program(torch)


# ---------------------------------------------------------------- complex32 (ComplexHalf)
def _chalf_base(lib):
    data = [[1 + 2j, -3.5 + 0.25j, 4, 0.1j], [65504, -1j, 1e-5 + 7j, float("inf")],
            [0, -0.0 - 2j, 2.5 + 2.5j, 1]]
    return lib.tensor(data, dtype=lib.complex32)


def test_complex32_files_load_in_pytorch_and_back(tmp_path):
    torch = _torch()
    base = _chalf_base(tv)
    path = tmp_path / "c32.pt"
    tv.save({k: f(base) for k, f in INTEROP_VIEWS.items()} | {"dt": tv.chalf}, path)
    pt_base = _chalf_base(torch)
    for kwargs in ({"weights_only": True}, {"weights_only": True, "mmap": True},
                   {"weights_only": False}):
        back = torch.load(path, **kwargs)
        assert back["dt"] is torch.complex32
        for k, f in INTEROP_VIEWS.items():
            assert back[k].dtype is torch.complex32 and back[k].stride() == f(base).stride()
            assert back[k].storage_offset() == f(base).storage_offset()
            assert _pt_shares(back[k], back["whole"]) or back[k].numel() == 0
            assert torch.view_as_real(back[k]).tolist() == \
                torch.view_as_real(f(pt_base)).tolist()
    back = tv.load(path)
    for k, f in INTEROP_VIEWS.items():
        assert back[k].dtype is tv.complex32 and back[k].stride() == f(base).stride()
        assert back[k].untyped_storage() is back["whole"].untyped_storage()
        assert tv.view_as_real(back[k]).tolist() == tv.view_as_real(f(base)).tolist()


def test_pytorch_complex32_files_load_in_tensorviz(tmp_path):
    torch = _torch()
    pt_base = _chalf_base(torch)
    path = tmp_path / "pt_c32.pt"
    torch.save({k: f(pt_base) for k, f in INTEROP_VIEWS.items()}
               | {"dt": torch.chalf, "c": pt_base.conj()}, path)
    for kwargs in ({}, {"mmap": True}, {"weights_only": False}):
        back = tv.load(path, **kwargs)
        assert back["dt"] is tv.complex32
        for k, f in INTEROP_VIEWS.items():
            want = f(pt_base)
            assert back[k].dtype is tv.complex32 and back[k].stride() == want.stride()
            assert back[k].untyped_storage() is back["whole"].untyped_storage()
            assert tv.view_as_real(back[k]).tolist() == torch.view_as_real(want).tolist()
        assert back["c"].is_conj() and back["c"].tolist() == pt_base.conj().tolist()


def test_complex32_files_are_byte_identical_to_pytorchs_but_for_the_id():
    torch = _torch()

    def make(lib):
        z = _chalf_base(lib)
        return {"z": z, "t": z.t(), "r": z[1], "dt": lib.complex32}

    a, b, za, zb = _saved_alike(torch, make)


def test_complex32_pickles_and_typed_storages_like_pytorch():
    torch = _torch()
    z = _chalf_base(tv)
    back = pickle.loads(pickle.dumps(z))
    assert back.dtype is tv.complex32 and back.tolist() == z.tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (PyTorch's TypedStorage deprecation)
        assert z.storage().tolist() == _chalf_base(torch).storage().tolist()
    assert z[0, 1].item() == _chalf_base(torch)[0, 1].item()
