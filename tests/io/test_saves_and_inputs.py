"""Saves are durable and clean up after killed saves; reads refuse FIFOs, devices, sockets and folders up front."""
from __future__ import annotations

import os
import socket
import stat
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from bnstudio.core.network import Network
from bnstudio.data import read_csv, read_table
from bnstudio.errors import FormatError
from bnstudio.io import read_network, write_network
from bnstudio.io.atomic import STALE_SECONDS, atomic_write_text, remove_stale_temporaries
from bnstudio.io.project import load_project

NETWORK_EXTENSIONS = [".bif", ".bif.gz", ".xmlbif", ".net", ".xdsl", ".uai", ".bnsproj"]
posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs, devices and sockets are POSIX")


def _small() -> Network:
    net = Network("n")
    net.add_variable("A", ["a", "b"], cpt=np.array([0.25, 0.75]))
    return net


def _readers():
    """(name, extension, read) for every reader of a file a user names."""
    out = [(f"network{ext}", ext, read_network) for ext in NETWORK_EXTENSIONS]
    out += [("project", ".bnsproj", load_project), ("csv", ".csv", read_csv), ("table", ".tsv", read_table)]
    return out


READERS = _readers()
IDS = [name for name, _, _ in READERS]


# ---------------------------------------------------------------------------------------------------- saves
def test_save_fsyncs_the_file_then_renames_then_fsyncs_the_folder(tmp_path, monkeypatch):
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append("fsync folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "fsync file")
        real_fsync(fd)

    def replace(src, dst):
        events.append("rename")
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    atomic_write_text(tmp_path / "x.txt", "hello")
    assert events == ["fsync file", "rename", "fsync folder"]
    assert (tmp_path / "x.txt").read_text(encoding="utf-8") == "hello"


@pytest.mark.parametrize("refuse", ["open", "fsync"])
def test_save_goes_on_where_the_folder_cannot_be_fsynced(tmp_path, monkeypatch, refuse):
    """Windows cannot open a folder; some network file systems refuse fsync on one (EINVAL)."""
    real_open, real_fsync = os.open, os.fsync

    def open_(path, flags, *args, **kwargs):
        if Path(path).is_dir():
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    def fsync(fd):
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(22, "Invalid argument")
        real_fsync(fd)

    if refuse == "open":
        monkeypatch.setattr(os, "open", open_)
    else:
        monkeypatch.setattr(os, "fsync", fsync)
    write_network(_small(), tmp_path / "n.bif")
    monkeypatch.undo()
    assert read_network(tmp_path / "n.bif").cpt("A").tolist() == [0.25, 0.75]
    assert os.listdir(tmp_path) == ["n.bif"]


def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_a_save_removes_the_stale_temporary_files_of_that_file_only(tmp_path):
    old = STALE_SECONDS + 5
    stale = [".n.bif.abcd1234.tmp", ".n.bif.x_y_z_09.tmp"]  # left by killed saves of n.bif
    kept = {
        ".n.bif.fresh123.tmp": 0,  # young: maybe a save running right now
        ".m.bif.abcd1234.tmp": old,  # another file's
        ".n.bif.abc.tmp": old,  # not the pattern (8 characters)
        "n.bif.abcd1234.tmp": old,  # no leading dot
        ".n.bif.ABCD1234.tmp": old,  # not what tempfile makes
        ".n.bif.abcd1234.tmp.bak": old,
        "notes.txt": old,
    }
    for name in stale:
        (tmp_path / name).write_text("partial")
        _age(tmp_path / name, old)
    for name, age in kept.items():
        (tmp_path / name).write_text("keep")
        _age(tmp_path / name, age)
    (tmp_path / ".n.bif.dir12345.tmp").mkdir()  # not a regular file
    _age(tmp_path / ".n.bif.dir12345.tmp", old)
    write_network(_small(), tmp_path / "n.bif")
    assert sorted(os.listdir(tmp_path)) == sorted(list(kept) + ["n.bif", ".n.bif.dir12345.tmp"])
    assert read_network(tmp_path / "n.bif").variables == ["A"]


@posix_only
def test_stale_cleanup_never_follows_a_link(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("precious")
    link = tmp_path / ".n.bif.link1234.tmp"
    link.symlink_to(target)
    _age(target, STALE_SECONDS + 5)
    assert remove_stale_temporaries(tmp_path / "n.bif") == []
    assert link.is_symlink() and target.read_text() == "precious"


def test_stale_cleanup_in_a_folder_that_cannot_be_listed_is_skipped(tmp_path):
    assert remove_stale_temporaries(tmp_path / "absent" / "n.bif") == []


# ---------------------------------------------------------------------------------------------------- inputs
def _refused(read, path: Path, fragment: str) -> None:
    with pytest.raises(FormatError) as info:
        read(path)
    message = str(info.value)
    assert message.startswith(str(path)) and fragment in message and "\n" not in message, message


@posix_only
@pytest.mark.parametrize("name, ext, read", READERS, ids=IDS)
def test_a_fifo_is_refused_without_blocking(tmp_path, name, ext, read):
    path = tmp_path / f"pipe{ext}"
    os.mkfifo(path)
    outcome: list[BaseException | None] = []

    def attempt():
        try:
            read(path)
            outcome.append(None)
        except BaseException as exc:  # reported below
            outcome.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(10)
    if worker.is_alive():  # blocked in open(): give it a writer so the thread can end, then fail
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        worker.join(5)
        pytest.fail(f"reading a FIFO blocked ({name})")
    assert isinstance(outcome[0], FormatError), outcome
    assert "named pipe (FIFO), not a regular file" in str(outcome[0]) and str(outcome[0]).startswith(str(path))


@posix_only
@pytest.mark.parametrize("name, ext, read", READERS, ids=IDS)
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_is_refused_before_reading(tmp_path, name, ext, read, device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    path = tmp_path / f"device{ext}"
    path.symlink_to(device)
    started = time.perf_counter()
    _refused(read, path, "is a character device, not a regular file")
    assert time.perf_counter() - started < 1


@posix_only
@pytest.mark.parametrize("name, ext, read", READERS, ids=IDS)
def test_a_socket_is_refused(tmp_path, name, ext, read):
    path = tmp_path / f"s{ext}"
    if len(str(path)) > 100:
        pytest.skip("path too long for a unix socket")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        _refused(read, path, "is a socket, not a regular file")
    finally:
        server.close()


@pytest.mark.parametrize("name, ext, read", READERS, ids=IDS)
def test_a_folder_and_a_missing_file_are_refused(tmp_path, name, ext, read):
    (tmp_path / f"dir{ext}").mkdir()
    _refused(read, tmp_path / f"dir{ext}", "is a folder, not a file")
    _refused(read, tmp_path / f"absent{ext}", "no such file")


@pytest.mark.parametrize("ext", [".xlsx", ".parquet"])
def test_optional_table_formats_check_the_file_first(tmp_path, ext):
    from bnstudio.data.read import has_package

    package = "openpyxl" if ext == ".xlsx" else "pyarrow"
    if not has_package(package):
        pytest.skip(f"{package} not installed")
    (tmp_path / f"dir{ext}").mkdir()
    _refused(read_table, tmp_path / f"dir{ext}", "is a folder, not a file")
