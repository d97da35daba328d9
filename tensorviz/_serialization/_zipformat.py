"""The zip container of PyTorch's file format, written and read with the standard library.

Layout written (as PyTorch's own writer lays it out, byte for byte in structure)::

    for each member:  local header | extra field 'FB' padding | payload | data descriptor
    central directory | zip64 end record + locator | end of central directory

Every payload starts at an offset that is a multiple of 64 from the start of the archive, so
PyTorch can ``mmap`` a file and use its storages in place.  Members are STORED (never
compressed).  A member's CRC-32 follows its payload in a data descriptor, so a payload is
checksummed while it is written (one pass, no seeking: any writable binary stream works).
"""
from __future__ import annotations

import io
import struct
import zipfile
import zlib
from typing import BinaryIO

__all__ = ["ZipWriter", "ZipReader", "FormatError"]

_LOCAL = struct.Struct("<IHHHHHIIIHH")
_CENTRAL = struct.Struct("<IHHHHHHIIIHHHHHII")
_EOCD = struct.Struct("<IHHHHIIH")
_ZIP64_EOCD = struct.Struct("<IQHHIIQQQQ")
_ZIP64_LOCATOR = struct.Struct("<IIQI")
_DESCRIPTOR = struct.Struct("<IIII")
_DESCRIPTOR64 = struct.Struct("<IIQQ")

_SIG_LOCAL, _SIG_CENTRAL, _SIG_EOCD = 0x04034B50, 0x02014B50, 0x06054B50
_SIG_ZIP64_EOCD, _SIG_ZIP64_LOCATOR, _SIG_DESCRIPTOR = 0x06064B50, 0x07064B50, 0x08074B50
_MAX32, _MAX16 = 0xFFFFFFFF, 0xFFFF
_FLAG_DESCRIPTOR, _FLAG_UTF8 = 0x08, 0x800
_CHUNK = 1 << 26  # 64 MiB: writes and checksums of big payloads go piecewise


class FormatError(RuntimeError):
    """The file is not a readable PyTorch/tensorviz archive (message says why)."""


def _as_bytes_view(data) -> memoryview:
    if getattr(data, "dtype", None) is not None and data.dtype.kind == "V":
        data = data.view("u1")  # (bfloat16: no buffer-protocol format of its own)
    mv = memoryview(data)
    return mv if mv.format == "B" and mv.ndim == 1 else mv.cast("B")


class ZipWriter:
    """Write members into ``folder/`` of a zip archive on a binary stream ``out``.

    >>> w = ZipWriter(buf, "archive"); w.add("data.pkl", b"..."); w.close()
    """

    def __init__(self, out: BinaryIO, folder: str, alignment: int = 64,
                 force_zip64: bool = False):
        self._out = out
        self._folder = folder
        self._alignment = alignment
        self._force_zip64 = force_zip64
        self._pos = 0
        self._entries: list[tuple[bytes, int, int, int, int]] = []  # name, flags, crc, size, offset

    def _write(self, data) -> None:
        mv = _as_bytes_view(data)
        for start in range(0, len(mv), _CHUNK):
            chunk = mv[start:start + _CHUNK]
            written = self._out.write(chunk)
            # Raw (unbuffered) streams may write less than asked: finish the chunk.
            while written is not None and written < len(chunk):
                chunk = chunk[written:]
                written = self._out.write(chunk)
        self._pos += len(mv)

    def add(self, name: str, data) -> None:
        """Add one member; ``data`` is any C-contiguous buffer (bytes, a NumPy array...)."""
        mv = _as_bytes_view(data)
        size, offset = len(mv), self._pos
        full = f"{self._folder}/{name}".encode("utf-8")
        big_size = size >= _MAX32 or self._force_zip64
        big_offset = offset >= _MAX32 or self._force_zip64
        z64 = b""
        if big_size or big_offset:
            fields = (struct.pack("<QQ", size, size) if big_size else b"") + \
                (struct.pack("<Q", offset) if big_offset else b"")
            z64 = struct.pack("<HH", 0x0001, len(fields)) + fields
        # PyTorch's padding: an 'FB' extra field filled with 'Z' up to the next boundary.
        start = offset + _LOCAL.size + len(full) + len(z64) + 4
        pad = -start % self._alignment
        extra = z64 + b"FB" + struct.pack("<H", pad) + b"Z" * pad
        flags = _FLAG_UTF8 | (_FLAG_DESCRIPTOR if size else 0)
        version = 45 if z64 else 0  # PyTorch's writer (miniz) puts 0 for plain members
        self._write(_LOCAL.pack(_SIG_LOCAL, version, flags, 0, 0, 0, 0, 0, 0, len(full),
                                len(extra)))
        self._write(full)
        self._write(extra)
        crc = 0
        for begin in range(0, size, _CHUNK):
            chunk = mv[begin:begin + _CHUNK]
            crc = zlib.crc32(chunk, crc)
            self._write(chunk)
        if size:
            if z64:
                self._write(_DESCRIPTOR64.pack(_SIG_DESCRIPTOR, crc, size, size))
            else:
                self._write(_DESCRIPTOR.pack(_SIG_DESCRIPTOR, crc, size, size))
        self._entries.append((full, flags, crc, size, offset))

    def close(self) -> None:
        """Write the central directory and the end records."""
        cd_offset = self._pos
        for full, flags, crc, size, offset in self._entries:
            big_size = size >= _MAX32 or self._force_zip64
            big_offset = offset >= _MAX32 or self._force_zip64
            fields = (struct.pack("<QQ", size, size) if big_size else b"") + \
                (struct.pack("<Q", offset) if big_offset else b"")
            extra = struct.pack("<HH", 0x0001, len(fields)) + fields if fields else b""
            self._write(_CENTRAL.pack(
                _SIG_CENTRAL, 45 if extra else 0, 45 if extra else 0, flags, 0, 0, 0, crc,
                _MAX32 if big_size else size, _MAX32 if big_size else size, len(full),
                len(extra), 0, 0, 0, 0, _MAX32 if big_offset else offset))
            self._write(full)
            self._write(extra)
        cd_size = self._pos - cd_offset
        count = len(self._entries)
        # Like PyTorch, always a zip64 end record (made by 0x031e: Unix, zip 3.0).
        z64_offset = self._pos
        self._write(_ZIP64_EOCD.pack(_SIG_ZIP64_EOCD, _ZIP64_EOCD.size - 12, 0x031E, 45, 0, 0,
                                     count, count, cd_size, cd_offset))
        self._write(_ZIP64_LOCATOR.pack(_SIG_ZIP64_LOCATOR, 0, z64_offset, 1))
        self._write(_EOCD.pack(_SIG_EOCD, 0, 0, min(count, _MAX16), min(count, _MAX16),
                               min(cd_size, _MAX32), min(cd_offset, _MAX32), 0))


class ZipReader:
    """The members of a PyTorch archive: ``folder/<name>``, all STORED, read with checks.

    ``desc`` names the file in error messages.
    """

    def __init__(self, fileobj: BinaryIO, desc: str):
        self._f = fileobj
        self.desc = desc
        try:
            zf = zipfile.ZipFile(fileobj)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, struct.error, EOFError,
                ValueError, NotImplementedError) as e:
            raise FormatError(f"{desc} is truncated or corrupt: it starts like a zip archive "
                              f"but its zip directory can't be read ({e})") from None
        self._zip = zf
        fileobj.seek(0, io.SEEK_END)
        self._file_size = fileobj.tell()
        infos = zf.infolist()
        if not infos:
            raise FormatError(f"{desc} is an empty zip archive, not a file written by "
                              "torch.save / tensorviz.save (there is no data.pkl)")
        if all(i.filename.endswith(".npy") for i in infos):
            raise FormatError(f"{desc} is not a file written by torch.save / tensorviz.save: "
                              "it looks like a NumPy .npz archive (read it with numpy.load)")
        if min(i.header_offset for i in infos) != 0:
            # The archive read starts where we stand (a local header is there), so a zip
            # directory whose members start later belongs to another archive further on:
            # several saves one after another in one stream.  Reading it would silently
            # give the LAST object saved.
            raise FormatError(f"{desc} holds more than one archive (several saves one after "
                              "another in one stream?); the zip directory at its end belongs "
                              "to a later one. Save each object to its own file or buffer, "
                              "or save them together in one dict")
        first = infos[0].filename
        folder, sep, _ = first.partition("/")
        if not sep:
            raise FormatError(f"{desc} is not a torch.save archive: its first member "
                              f"{first!r} is not inside a folder (torch.save puts every member "
                              "under one top folder)")
        self.folder = folder
        self.records: dict[str, zipfile.ZipInfo] = {}
        for info in infos:
            name = info.filename
            if not name.startswith(folder + "/"):
                raise FormatError(f"{desc} is not a torch.save archive: member {name!r} is "
                                  f"outside its top folder {folder + '/'!r}")
            rel = name[len(folder) + 1:]
            if rel in self.records:
                raise FormatError(f"{desc} is corrupt: member {name!r} appears twice")
            self.records[rel] = info

    def close(self) -> None:
        self._zip.close()

    def has(self, name: str) -> bool:
        return name in self.records

    def size(self, name: str) -> int:
        return self.records[name].file_size

    def _payload(self, name: str) -> tuple[zipfile.ZipInfo, int]:
        """The member's info and the file offset where its payload starts (checked)."""
        info = self.records.get(name)
        if info is None:
            raise FormatError(f"{self.desc} is truncated or corrupt: member "
                              f"{self.folder}/{name} is missing")
        full = f"{self.folder}/{name}"
        if info.flag_bits & 0x1:
            raise FormatError(f"{self.desc}: member {full} is encrypted; torch.save never "
                              "encrypts")
        if info.compress_type != zipfile.ZIP_STORED:
            raise FormatError(f"{self.desc}: member {full} is compressed (method "
                              f"{info.compress_type}); PyTorch's format stores every member "
                              "uncompressed, so this file was not written by torch.save "
                              "(re-zipping a checkpoint compresses it: unzip and zip with -0)")
        f = self._f
        f.seek(info.header_offset)
        header = f.read(_LOCAL.size)
        if len(header) < _LOCAL.size or _LOCAL.unpack(header)[0] != _SIG_LOCAL:
            raise FormatError(f"{self.desc} is corrupt: bad local header for member {full}")
        name_len, extra_len = _LOCAL.unpack(header)[9:11]
        start = info.header_offset + _LOCAL.size + name_len + extra_len
        if start + info.file_size > self._file_size:
            raise FormatError(f"{self.desc} is truncated: member {full} needs "
                              f"{info.file_size} bytes from offset {start}, but the file has "
                              f"{self._file_size} bytes")
        return info, start

    def read(self, name: str) -> bytes:
        """A whole (small) member, CRC-checked."""
        info, _ = self._payload(name)  # missing or beyond the end of the file: refused first
        buf = bytearray(info.file_size)
        self.read_into(name, buf)
        return bytes(buf)

    def read_into(self, name: str, buffer) -> None:
        """Fill ``buffer`` (exactly the member's size) with the member's bytes, CRC-checked."""
        info, start = self._payload(name)
        mv = _as_bytes_view(buffer)
        if len(mv) != info.file_size:
            raise FormatError(f"{self.desc} is corrupt: member {self.folder}/{name} has "
                              f"{info.file_size} bytes, expected {len(mv)}")
        f = self._f
        f.seek(start)
        done = 0
        readinto = getattr(f, "readinto", None)
        while done < len(mv):
            chunk = mv[done:done + _CHUNK]
            if readinto is not None:
                n = readinto(chunk)
            else:
                data = f.read(len(chunk))
                n = len(data)
                chunk[:n] = data
            if not n:
                raise FormatError(f"{self.desc} is truncated: member {self.folder}/{name} "
                                  "ends early")
            done += n
        crc = 0
        for begin in range(0, len(mv), _CHUNK):
            crc = zlib.crc32(mv[begin:begin + _CHUNK], crc)
        if crc != info.CRC:
            raise FormatError(f"{self.desc} is corrupt: the checksum (CRC-32) of member "
                              f"{self.folder}/{name} does not match its data")

    def payload_offset(self, name: str) -> int:
        """Where the member's bytes start in the file (for memory mapping)."""
        return self._payload(name)[1]
