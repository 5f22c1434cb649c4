"""read_network / write_network: dispatch by extension, file errors, gzip, atomic writes."""
from __future__ import annotations

import gzip
import os

import pytest

from bnstudio.core.network import Network
from bnstudio.errors import FormatError
from bnstudio.io import FORMATS, format_for, read_network, write_network
from bnstudio.io.atomic import atomic_write_text
from bnstudio.io.bif.reader import format_bif


@pytest.fixture
def small() -> Network:
    net = Network("small")
    net.add_variable("Rain", ["yes", "no"], cpt=[0.2, 0.8], position=(0.0, 1.5))
    net.add_variable("Wet", ["yes", "no"], parents=["Rain"], cpt=[[0.9, 0.1], [0.1, 0.9]])
    net.properties["author"] = "me"
    return net


@pytest.mark.parametrize("name", ["net.bif", "net.bif.gz", "NET.BIF", "NET.BIF.GZ", "net.v2.bif"])
def test_write_then_read_by_extension(small, tmp_path, name, same_network):
    path = tmp_path / name
    write_network(small, path)
    same_network(read_network(path), small)
    same_network(read_network(str(path)), small)
    assert sorted(os.listdir(tmp_path)) == [name]


@pytest.mark.parametrize("name", ["net.bif.gz", "NET.BIF.GZ"])
def test_gz_is_really_gzip(small, tmp_path, name):
    path = tmp_path / name
    write_network(small, path)
    assert gzip.decompress(path.read_bytes()).decode("utf-8") == format_bif(small)


def test_registry_lists_bif():
    assert {".bif", ".bif.gz"} <= set(FORMATS)
    assert format_for("x.bif.gz") is FORMATS[".bif.gz"]


@pytest.mark.parametrize("name", ["net.ergo", "net", "net.gz", "archive.bif.zip", ".bif"])
def test_unknown_extension_names_file_and_supported_ones(small, tmp_path, name):
    path = tmp_path / name
    for action in (lambda: read_network(path), lambda: write_network(small, path)):
        with pytest.raises(FormatError) as info:
            action()
        assert str(path) in str(info.value) and ".bif" in str(info.value)
    assert not path.exists()


def test_missing_file(tmp_path):
    with pytest.raises(FormatError, match="no such file") as info:
        read_network(tmp_path / "absent.bif")
    assert info.value.path == str(tmp_path / "absent.bif")


def test_folder_instead_of_file(tmp_path):
    (tmp_path / "dir.bif").mkdir()
    with pytest.raises(FormatError, match="folder"):
        read_network(tmp_path / "dir.bif")


def test_non_utf8_names_the_line(tmp_path):
    path = tmp_path / "latin1.bif"
    path.write_bytes("network x {\n}\nvariable caf\u00e9 {\n".encode("latin-1"))
    with pytest.raises(FormatError, match="not UTF-8") as info:
        read_network(path)
    assert (info.value.line, info.value.column) == (3, 13)


def test_utf8_bom_is_accepted(small, tmp_path, same_network):
    path = tmp_path / "bom.bif"
    path.write_bytes(b"\xef\xbb\xbf" + format_bif(small).encode("utf-8"))
    same_network(read_network(path), small)


def test_corrupt_gzip(tmp_path):
    path = tmp_path / "bad.bif.gz"
    path.write_bytes(b"not gzip at all")
    with pytest.raises(FormatError, match="gzip"):
        read_network(path)
    path.write_bytes(gzip.compress(b"network x { }")[:-6])  # truncated stream
    with pytest.raises(FormatError, match="gzip"):
        read_network(path)


def test_syntax_errors_name_the_file(tmp_path):
    path = tmp_path / "broken.bif"
    path.write_text("network x {\n}\nvariable A {\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_network(path)
    assert str(info.value).startswith(f"{path}:4:1: ")


@pytest.mark.parametrize("name", ["net.bif", "net.bif.gz"])
def test_failed_write_leaves_the_old_file_and_no_temp_file(small, tmp_path, monkeypatch, name):
    path = tmp_path / name
    write_network(small, path)
    before = path.read_bytes()
    small.properties["author"] = "someone else"

    def refuse(src, dst):
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="disk on fire"):
        write_network(small, path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == [name]


def test_atomic_write_cleans_up_when_the_write_itself_fails(tmp_path, monkeypatch):
    path = tmp_path / "out.txt"
    path.write_text("old", encoding="utf-8")

    def broken_fsync(fd):
        raise OSError("fsync failed")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="fsync failed"):
        atomic_write_text(path, "new")
    assert path.read_text(encoding="utf-8") == "old"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_atomic_write_replaces_content(tmp_path):
    path = tmp_path / "out.txt"
    atomic_write_text(path, "one\n")
    atomic_write_text(path, "two \u00e9\n")
    assert path.read_bytes() == "two \u00e9\n".encode("utf-8")
    assert os.listdir(tmp_path) == ["out.txt"]
