"""``bnstudio convert IN OUT [--json]``: files written, ``lost`` reported, one-line errors with exit status 2."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bnstudio.cli import main
from bnstudio.core.network import Network
from bnstudio.io import read_network, write_network

NETWORKS = Path(__file__).resolve().parents[2] / "resources" / "networks"
ASIA = NETWORKS / "asia.bif"


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("ext", [".xmlbif", ".xml", ".net", ".xdsl", ".uai", ".bif", ".bif.gz"])
def test_convert_writes_the_format_of_the_extension(capsys, tmp_path, ext):
    out_path = tmp_path / f"asia{ext}"
    status, out, err = run(capsys, "convert", ASIA, out_path)
    assert status == 0 and err == ""
    assert out.startswith(f"wrote {out_path}") and "8 variables, 8 arcs" in out
    back, net = read_network(out_path), read_network(ASIA)
    names = net.variables if ext != ".uai" else [f"V{i}" for i in range(8)]
    for v, w in zip(net.variables, names, strict=True):
        assert np.array_equal(back.cpt(w), net.cpt(v))


@pytest.mark.parametrize("ext, lost", [
    (".bif", []),
    (".xmlbif", []),
    (".net", []),
    (".xdsl", ["variable order"]),  # alarm is not declared in topological order
    (".uai", ["network name", "variable names", "state names"]),
])
def test_json_reports_what_the_format_lost(capsys, tmp_path, ext, lost):
    out_path = tmp_path / f"alarm{ext}"
    status, out, _ = run(capsys, "convert", NETWORKS / "alarm.bif", out_path, "--json")
    assert status == 0
    assert json.loads(out) == {"input": str(NETWORKS / "alarm.bif"), "output": str(out_path),
                               "variables": 37, "arcs": 46, "lost": lost}


def test_lost_positions_descriptions_properties(capsys, tmp_path):
    net = Network("demo")
    net.add_variable("A", ["y", "n"], cpt=[0.3, 0.7], description="the cause", position=(10, 20))
    net.add_variable("B", ["y", "n"], parents=["A"], cpt=[[0.9, 0.1], [0.2, 0.8]], position=(10.5, 80))
    net.properties.update({"author": "me", "A.unit": "kg"})
    source = tmp_path / "demo.xmlbif"
    write_network(net, source)
    expected = {
        ".bif": ["descriptions"],
        ".net": ["positions"],  # rounded to whole numbers
        ".xdsl": ["positions", "properties"],
        ".uai": ["network name", "variable names", "state names", "descriptions", "positions", "properties"],
        ".xml": [],
    }
    for ext, lost in expected.items():
        status, out, _ = run(capsys, "convert", source, tmp_path / f"out{ext}", "--json")
        assert status == 0 and json.loads(out)["lost"] == lost, ext
    status, out, _ = run(capsys, "convert", source, tmp_path / "again.uai")
    assert out.splitlines()[-1] == ("not kept by UAI: network name, variable names, state names, descriptions, "
                                    "positions, properties")


def test_renamed_identifiers_are_reported(capsys, tmp_path):
    net = Network("odd")
    net.add_variable("my var", ["a b", "c"], cpt=[0.5, 0.5])
    source = tmp_path / "odd.bif"
    write_network(net, source)
    _, out, _ = run(capsys, "convert", source, tmp_path / "odd.xdsl", "--json")
    assert json.loads(out)["lost"] == ["variable names", "state names", "descriptions"]
    _, out, _ = run(capsys, "convert", source, tmp_path / "odd.net", "--json")
    assert json.loads(out)["lost"] == ["variable names", "descriptions"]  # the old name becomes the label


def error_line(capsys, *argv) -> str:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bnstudio: error: ")
    return lines[0][len("bnstudio: error: "):]


def test_unknown_extensions(capsys, tmp_path):
    message = error_line(capsys, "convert", ASIA, tmp_path / "asia.ergo")
    assert message.startswith(f"{tmp_path / 'asia.ergo'}: unknown file type") and ".xdsl" in message
    assert not (tmp_path / "asia.ergo").exists()
    (tmp_path / "in.txt").write_text("x")
    assert error_line(capsys, "convert", tmp_path / "in.txt", tmp_path / "out.bif").startswith(
        f"{tmp_path / 'in.txt'}: unknown file type")


def test_malformed_and_unsupported_inputs_name_file_line_and_problem(capsys, tmp_path):
    bad = {
        "m.uai": ("MARKOV\n1\n2\n1\n1 0\n2\n0.5 0.5\n", ":1:1: this is a MARKOV network"),
        "d.xdsl": ('<smile id="x">\n<nodes>\n<equation id="D"><state id="a"/></equation>\n</nodes>\n</smile>\n',
                   ":3:1: <equation id='D'>: node 'D' has type 'equation', which is not supported"),
        "t.xmlbif": ('<BIF VERSION="0.3"><NETWORK>\n<NAME>x</NAME>\n', ":3:1: malformed XML: no element found"),
        "c.net": ('node A { states = ("a"); }\ncontinuous node B { }\n',
                  ":2:1: continuous node 'B' is not supported"),
    }
    for name, (text, expected) in bad.items():
        (tmp_path / name).write_text(text)
        out_path = tmp_path / f"{name}.bif"
        assert error_line(capsys, "convert", tmp_path / name, out_path).startswith(f"{tmp_path / name}{expected}")
        assert not out_path.exists()


def test_missing_input_and_unwritable_output(capsys, tmp_path):
    assert error_line(capsys, "convert", tmp_path / "absent.net", tmp_path / "x.bif") == \
        f"{tmp_path / 'absent.net'}: no such file"
    message = error_line(capsys, "convert", ASIA, tmp_path / "no" / "such" / "dir" / "x.uai")
    assert message.startswith(str(tmp_path / "no" / "such" / "dir" / "x.uai"))


def test_help_line_lists_convert(capsys):
    assert main(["--help"]) == 0  # main returns the exit status, --help included
    assert "convert" in capsys.readouterr().out


def test_dirichlet_counts_are_reported_where_the_format_drops_them(capsys, tmp_path):
    """A project keeps a network's Dirichlet counts (the error bars' uncertainty); the exchange formats do not,
    and converting to one must say so (it said nothing)."""
    net = Network("counts")
    net.add_variable("A", ["y", "n"], cpt=[0.3, 0.7])
    net.set_alpha("A", np.array([3.0, 7.0]))
    source = tmp_path / "counts.bnsproj"
    write_network(net, source)
    status, out, _ = run(capsys, "convert", source, tmp_path / "again.bnsproj", "--json")
    assert status == 0 and "Dirichlet counts" not in json.loads(out)["lost"]
    for ext in (".bif", ".dne", ".xdsl"):
        status, out, _ = run(capsys, "convert", source, tmp_path / f"out{ext}", "--json")
        assert status == 0 and "Dirichlet counts" in json.loads(out)["lost"], ext
