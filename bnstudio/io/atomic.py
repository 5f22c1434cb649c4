"""File helpers for readers and writers: atomic writes and checked reads.

A write goes to a temporary file ``.NAME.XXXXXXXX.tmp`` in the target's folder, is flushed and fsynced, then
moved into place with :func:`os.replace`, and the folder is fsynced so that the rename itself survives a power
cut (where the platform allows it); a crash or an error never leaves a half-written file (the old file stays
intact). A save also removes what a killed save of the same file left behind: temporary files of that exact
pattern older than :data:`STALE_SECONDS` (a younger one may belong to a save running right now).

Reads refuse anything but a regular file up front -- a FIFO would block, ``/dev/zero`` would never end.
"""
from __future__ import annotations

import gzip
import os
import re
import stat
import tempfile
import time
import zlib
from pathlib import Path

from bnstudio.errors import FormatError
from bnstudio.io.limits import GUNZIP_BYTES

PathLike = str | os.PathLike

#: A temporary file of a save older than this (seconds since its last write) was left by a killed save.
STALE_SECONDS = 60.0
_KINDS = ((stat.S_ISDIR, "is a folder, not a file"), (stat.S_ISFIFO, "is a named pipe (FIFO), not a regular file"),
          (stat.S_ISCHR, "is a character device, not a regular file"),
          (stat.S_ISBLK, "is a block device, not a regular file"), (stat.S_ISSOCK, "is a socket, not a regular file"))


def _permissions_for(target: Path) -> int:
    """Keep an existing file's mode; a new file gets the usual 0666 minus the umask (not mkstemp's 0600)."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def atomic_write_bytes(path: PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temp file in the same folder, fsync, ``os.replace``, fsync of the
    folder). On any failure the old file stays intact and no temporary file is left; a missing folder is a
    :class:`FormatError`, other system errors propagate as :class:`OSError`."""
    target = Path(path)
    if not target.parent.is_dir():
        raise FormatError("cannot save: the folder does not exist", path=str(path))
    mode = _permissions_for(target)
    tmp = tempfile.NamedTemporaryFile(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp", delete=False)
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
    _fsync_folder(target.parent)
    remove_stale_temporaries(target)


def _fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable; platforms and file systems that refuse (Windows, some network
    file systems) are skipped silently: the rename has happened, only its durability is not guaranteed."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale_temporaries(target: Path, max_age: float = STALE_SECONDS) -> list[str]:
    """Delete the ``.NAME.XXXXXXXX.tmp`` files a killed save of ``target`` left in its folder (regular files
    not written to for ``max_age`` seconds); return their names. Files that cannot be removed are left."""
    pattern = re.compile(re.escape(f".{target.name}.") + r"[a-z0-9_]{8}\.tmp")
    removed: list[str] = []
    now = time.time()
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > max_age:
                os.unlink(entry.path)
                removed.append(entry.name)
        except OSError:
            pass
    return removed


def atomic_write_text(path: PathLike, text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` atomically; ``.gz`` paths are gzip-compressed."""
    data = text.encode("utf-8")
    if str(path).lower().endswith(".gz"):
        data = gzip.compress(data, compresslevel=6, mtime=0)
    atomic_write_bytes(path, data)


def check_regular_file(path: PathLike) -> None:
    """Raise a :class:`FormatError` unless ``path`` is (a link to) an existing regular file."""
    name = str(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise FormatError("no such file", path=name) from None
    except OSError as exc:
        raise FormatError(f"cannot read the file: {exc.strerror or exc}", path=name) from None
    _check_mode(mode, name)


def check_exists(path: PathLike) -> None:
    """Raise a one-line :class:`FormatError` if nothing is at ``path``: "no such folder" when the name ends with
    a separator (``parts/``), "no such file" when it has an extension, else "no such file or folder"."""
    if os.path.lexists(path):
        return
    name = os.fspath(path)
    ends_as_folder = isinstance(name, str) and name.endswith(("/", os.sep))
    what = "folder" if ends_as_folder else "file" if Path(name).suffix else "file or folder"
    raise FormatError(f"no such {what}", path=str(name))


def _check_mode(mode: int, name: str) -> None:
    for test, message in _KINDS:
        if test(mode):
            raise FormatError(message, path=name)
    if not stat.S_ISREG(mode):
        raise FormatError("is not a regular file", path=name)


def read_bytes(path: PathLike) -> bytes:
    """The bytes of ``path`` (gunzipped for ``.gz``); every failure is a :class:`FormatError`, and anything
    but a regular file (a folder, FIFO, device, socket) is refused before a byte is read."""
    name = str(path)
    check_regular_file(path)
    try:  # non-blocking: a FIFO swapped in after the check still cannot block the open
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise FormatError("no such file", path=name) from None
    except OSError as exc:
        raise FormatError(f"cannot read the file: {exc.strerror or exc}", path=name) from None
    with open(fd, "rb") as fh:
        _check_mode(os.fstat(fd).st_mode, name)
        try:
            data = fh.read()
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


EMPTY_PROBE = 4096  # bytes: a file this small is read once more to see whether it holds only white space


def refuse_empty(path: PathLike) -> None:
    """A :class:`FormatError` when the regular file ``path`` is empty (0 bytes, or only white space): some
    formats would read it as a network of 0 variables, which is never what the file meant (a file that
    declares an empty network, such as ``network n {}``, still opens). Anything else is left to the reader."""
    try:
        info = os.stat(path)
    except OSError:
        return
    if not stat.S_ISREG(info.st_mode) or info.st_size > EMPTY_PROBE or str(path).lower().endswith(".gz"):
        return
    if info.st_size == 0:
        raise FormatError("the file is empty (0 bytes)", path=str(path))
    if not read_bytes(path).strip():
        raise FormatError("the file holds only white space", path=str(path))


def read_text(path: PathLike) -> str:
    """Read a UTF-8 text file (transparently gunzipping ``.gz``); every failure is a :class:`FormatError`."""
    name = str(path)
    data = read_bytes(path)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise FormatError("UTF-16 text: save the file as UTF-8", path=name)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise FormatError(f"not UTF-8 text (byte 0x{data[exc.start]:02x})", path=name, line=line,
                          column=column) from None
