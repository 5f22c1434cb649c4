"""The command line reads what the authoring tool would read, says each repair on stderr, and ``--strict``
refuses instead with one error line (exit 2); an empty network is described like any other."""
from __future__ import annotations

import json

import pytest

from bnstudio.cli.main import main
from bnstudio.core.network import Network
from bnstudio.errors import FormatError
from bnstudio.io import read_network, strict_reading, write_network

ROUNDED = ("network x {\n}\nvariable A {\n  type discrete [ 2 ] { a, b };\n}\n"
           "probability ( A ) {\n  table 0.5 0.4995 ;\n}\n")


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def rounded(tmp_path):
    path = tmp_path / "rounded.bif"
    path.write_text(ROUNDED, encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [["info"], ["convert"]])
def test_a_repair_is_one_warning_line_and_strict_refuses_in_one_error_line(capsys, tmp_path, rounded, command):
    extra = [tmp_path / "out.xmlbif"] if command == ["convert"] else []
    status, out, err = run(capsys, *command, rounded, *extra)
    assert status == 0 and out
    assert err.splitlines() == [f"bnstudio: warning: {rounded}: rescaled 1 row whose sum was off 1 by more than "
                                f"1e-05 (at most 0.001): row () of 'A' sums to 0.9995"]
    status, out, err = run(capsys, *command, rounded, *extra, "--strict")
    assert status == 2 and out == ""
    assert err.splitlines() == [f"bnstudio: error: {rounded}:7:3: row () of 'A' sums to 0.9995, not 1 (tolerance "
                                f"1e-05; strict reading repairs nothing)"]


def test_convert_strict_writes_nothing_when_it_refuses(capsys, tmp_path, rounded):
    out_path = tmp_path / "out.net"
    assert run(capsys, "convert", rounded, out_path, "--strict")[0] == 2
    assert not out_path.exists()


def test_the_help_of_info_and_convert_shows_strict(capsys):
    for command in ("info", "convert"):
        status, out, _ = run(capsys, command, "--help")
        assert status == 0 and "--strict" in out


@pytest.mark.parametrize("ext", [".bif", ".xmlbif", ".net", ".xdsl", ".uai", ".bnsproj"])
def test_info_describes_an_empty_network(capsys, tmp_path, ext):
    path = tmp_path / f"empty{ext}"
    write_network(Network("empty"), path)
    status, out, err = run(capsys, "info", path, "--json", "--strict")
    data = json.loads(out)
    assert status == 0 and err == ""
    assert data["n_variables"] == 0 and data["variables"] == [] and data["n_parameters"] == 0


def test_strict_reading_blocks_nest_and_an_explicit_argument_wins(rounded):
    with strict_reading():
        with pytest.raises(FormatError, match="strict reading repairs nothing"):
            read_network(rounded)
        with strict_reading(False), pytest.warns(UserWarning):
            read_network(rounded)
        with pytest.warns(UserWarning):
            read_network(rounded, strict=False)
        with pytest.raises(FormatError):
            read_network(rounded)


def test_convert_says_when_the_output_loses_a_noisy_max(capsys, tmp_path):
    from tests.io.test_canonical_io import NOISY

    source = tmp_path / "n.xdsl"
    source.write_text(NOISY, encoding="utf-8")
    status, out, _ = run(capsys, "convert", source, tmp_path / "n.uai", "--json")
    assert status == 0 and "canonical models" in json.loads(out)["lost"]
    status, out, _ = run(capsys, "convert", source, tmp_path / "n.bif", "--json")
    assert status == 0 and "canonical models" not in json.loads(out)["lost"]


def test_every_subcommand_reading_a_network_takes_strict(capsys, tmp_path, rounded):
    """query, sample, fit, evaluate, errorbars, learn (--start): a repair is a warning; --strict refuses it in one
    error line before any work."""
    data = tmp_path / "rows.csv"
    data.write_text("A\na\nb\na\n", encoding="utf-8")
    calls = {"query": ["query", rounded, "--target", "A"],
             "sample": ["sample", rounded, "-n", "5", "-o", tmp_path / "s.csv"],
             "fit": ["fit", rounded, data, "--method", "ml", "-o", tmp_path / "f.bif"],
             "evaluate": ["evaluate", rounded, data, "--target", "A", "--folds", "2"],
             "errorbars": ["errorbars", rounded, "--target", "A=a", "--data", data],
             "learn": ["learn", data, "--algorithm", "hill-climb", "--start", rounded, "-o", tmp_path / "l.bif"]}
    for name, argv in calls.items():
        status, _, err = run(capsys, *argv)
        assert "bnstudio: warning:" in err and "sums to 0.9995" in err, (name, status, err)
        status, out, err = run(capsys, *argv, "--strict")
        assert status == 2 and out == "", name
        assert err.splitlines() == [f"bnstudio: error: {rounded}:7:3: row () of 'A' sums to 0.9995, not 1 (tolerance "
                                    f"1e-05; strict reading repairs nothing)"], name
