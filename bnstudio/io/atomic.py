"""File helpers for readers and writers: atomic writes and checked text reads.

A write goes to a temporary file in the target's folder, is flushed and fsynced, then moved into place with
:func:`os.replace`, so a crash or an error never leaves a half-written file (the old file stays intact).
"""
from __future__ import annotations

import gzip
import os
import tempfile
import zlib
from pathlib import Path

from bnstudio.errors import FormatError
from bnstudio.io.limits import GUNZIP_BYTES

PathLike = str | os.PathLike


def _permissions_for(target: Path) -> int:
    """Keep an existing file's mode; a new file gets the usual 0666 minus the umask (not mkstemp's 0600)."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def atomic_write_bytes(path: PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temp file in the same folder, fsync, ``os.replace``)."""
    target = Path(path)
    if not target.parent.is_dir():
        raise FormatError("cannot save: the folder does not exist", path=str(path))
    mode = _permissions_for(target)
    tmp = tempfile.NamedTemporaryFile(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp",
                                      delete=False)
    try:
        os.chmod(tmp.name, mode)
        with tmp:
            tmp.write(data)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.replace(tmp.name, target)
    except BaseException:
        try:
            os.unlink(tmp.name)
        except OSError:
            pass
        raise


def atomic_write_text(path: PathLike, text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` atomically; ``.gz`` paths are gzip-compressed."""
    data = text.encode("utf-8")
    if str(path).lower().endswith(".gz"):
        data = gzip.compress(data, compresslevel=6, mtime=0)
    atomic_write_bytes(path, data)


def read_bytes(path: PathLike) -> bytes:
    """The bytes of ``path`` (gunzipped for ``.gz``); every failure is a :class:`FormatError`."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise FormatError("no such file", path=name) from None
    except IsADirectoryError:
        raise FormatError("is a folder, not a file", path=name) from None
    except OSError as exc:
        raise FormatError(f"cannot read the file: {exc.strerror or exc}", path=name) from None
    return gunzip(data, name) if name.lower().endswith(".gz") else data


def gunzip(data: bytes, name: str) -> bytes:
    """The expanded bytes of gzip ``data`` (all its members), at most :data:`~bnstudio.io.limits.GUNZIP_BYTES`
    of them: a few kilobytes can expand to gigabytes, so the expansion stops at the limit."""
    limit = GUNZIP_BYTES.value()
    out = bytearray()
    rest = data
    try:
        while rest:
            member = zlib.decompressobj(wbits=31)
            pending = rest
            while not member.eof:
                out += member.decompress(pending, limit + 1 - len(out))
                if len(out) > limit:
                    raise FormatError(f"the file expands to more than {limit:,} bytes, the limit "
                                      f"({GUNZIP_BYTES.how(limit)})", path=name)
                pending = member.unconsumed_tail
                if not pending and not member.eof:
                    raise FormatError("not a valid gzip file (it ends before its compressed data)", path=name)
            rest = member.unused_data
    except zlib.error as exc:
        raise FormatError(f"not a valid gzip file ({exc})", path=name) from None
    return bytes(out)




def read_text(path: PathLike) -> str:
    """Read a UTF-8 text file (transparently gunzipping ``.gz``); every failure is a :class:`FormatError`."""
    name = str(path)
    data = read_bytes(path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise FormatError(f"not UTF-8 text (byte 0x{data[exc.start]:02x})", path=name, line=line,
                          column=column) from None
