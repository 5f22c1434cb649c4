"""Issue 25 items 1 and 13: a table row summing beyond the float range, and empty network files."""
from __future__ import annotations

import pytest

from bnstudio.errors import FormatError
from bnstudio.io import read_model, read_network
from tests.hostile.helpers import bnstudio, refused

HUGE_ROWS = {
    "huge.bif": 'network n {}\nvariable A { type discrete [ 2 ] { a, b }; }\nprobability ( A ) { table 1e308, 1e308; }\n',
    "huge.net": 'net {}\nnode A { states = ("a" "b"); }\npotential (A) { data = (1e308 1e308); }\n',
    "huge-model.net": 'net {}\nnode A { states = ("a" "b"); }\n'
                      'potential (A) { model_nodes = (); model_data = (Distribution(1e308, 1e308)); }\n',
}


@pytest.mark.parametrize("name", sorted(HUGE_ROWS))
def test_a_row_summing_beyond_the_float_range_is_one_line(tmp_path, name):
    path = tmp_path / name
    path.write_text(HUGE_ROWS[name])
    with pytest.raises(FormatError, match="float range"):
        read_network(path)
    assert "float range" in refused("info", path)


@pytest.mark.parametrize("name", ["empty.bif", "empty.net", "empty.uai", "empty.json", "empty.xdsl"])
@pytest.mark.parametrize("content", ["", " \n\t\n"])
def test_an_empty_file_is_refused(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(FormatError):
        read_model(path)
    if name.endswith((".bif", ".net")):  # these two used to open as a network of 0 variables
        with pytest.raises(FormatError, match="empty|white space"):
            read_network(path)
        for argv in (["info", path], ["query", path, "--target", "A"]):
            line = refused(*argv)
            assert "empty" in line or "white space" in line


def test_a_file_declaring_an_empty_network_still_opens(tmp_path):
    path = tmp_path / "declared.bif"
    path.write_text("network n {}\n")
    assert len(read_network(path).variables) == 0
    assert bnstudio("info", path).returncode == 0


def test_the_app_refuses_an_empty_file(tmp_path):
    from bnstudio.app.file_io import read_file  # the app's one open path (no Qt at import)

    for name in ("empty.bif", "empty.net"):
        path = tmp_path / name
        path.write_bytes(b"")
        with pytest.raises(FormatError, match="empty"):
            read_file(path)
