"""``bnstudio convert`` between a 2TBN in pyAgrum's naming (any format) and GeNIe's dynamic XDSL, both ways
(bnstudio/cli/convert_dbn.py, docs/temporal.md): ``--slices`` is numslices, the answers of ``bnstudio query
--slices T`` are the same on every file of a round trip, and what cannot be written dynamic is refused in one
line with exit status 2."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bnstudio.cli import main
from bnstudio.io import read_network
from bnstudio.temporal import from_network
from tests.temporal.test_xdsl import SAMPLE, assert_same

TEMPORAL = Path(__file__).resolve().parents[2] / "resources" / "networks" / "temporal"
NETWORKS = TEMPORAL.parent
UMBRELLA, MACHINE = TEMPORAL / "umbrella.bif", TEMPORAL / "machine.bif"


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def answers(capsys, path, slices, targets, evidence) -> dict:
    argv = ["query", path, "--slices", slices, "--json"]
    for t in targets:
        argv += ["--target", t]
    for e in evidence:
        argv += ["--evidence", e]
    status, out, err = run(capsys, *argv)
    assert status == 0 and err == ""
    return {r["target"]: list(r["posterior"].values()) for r in json.loads(out)["results"]}


def test_a_2tbn_converts_to_a_genie_dynamic_network_and_back(capsys, tmp_path):
    xdsl, back = tmp_path / "umbrella.xdsl", tmp_path / "umbrella.net"
    status, out, err = run(capsys, "convert", UMBRELLA, xdsl, "--slices", 6, "--json")
    assert status == 0 and err == ""
    assert json.loads(out) == {"input": str(UMBRELLA), "output": str(xdsl), "variables": 4, "arcs": 3,
                               "slices": 6, "lost": []}
    text = xdsl.read_text(encoding="utf-8")
    assert text.count('dynamic="plate"') == 2 and '<dynamic numslices="6">' in text
    status, out, err = run(capsys, "convert", xdsl, back)
    assert status == 0 and err == "" and out.startswith(f"wrote {back} (Hugin NET")
    original = from_network(read_network(UMBRELLA))
    assert_same(from_network(read_network(xdsl)), original)
    assert_same(from_network(read_network(back)), original)
    assert read_network(back).properties["numslices"] == "6"
    # the count read with a file is written again, unless another is given; text output names it
    status, out, _ = run(capsys, "convert", back, tmp_path / "again.xdsl")
    assert status == 0 and out.startswith(f"wrote {tmp_path / 'again.xdsl'} (GeNIe dynamic XDSL): 4 variables, "
                                          f"3 arcs, 6 slices")
    assert '<dynamic numslices="6">' in (tmp_path / "again.xdsl").read_text(encoding="utf-8")


def test_query_answers_are_the_same_on_every_file_of_a_round_trip(capsys, tmp_path):
    """The machine's Wear0 has no Load0 parent while Weart has Loadt: GeNIe's one set of arcs inside a slice
    gives Wear0 a Load0 parent with a repeated table (the structure changes, said in "lost"); no answer does."""
    xdsl, bif = tmp_path / "machine.xdsl", tmp_path / "machine.bif"
    status, out, _ = run(capsys, "convert", MACHINE, xdsl, "--slices", 5, "--json")
    assert status == 0 and json.loads(out)["lost"] == ["structure"] and json.loads(out)["slices"] == 5
    assert run(capsys, "convert", xdsl, bif)[0] == 0
    targets = ["Wear4", "Load2", "Temperature3", "Wear0"]
    evidence = ["Vibration1=high", "Temperature2=hot", "Load0=high"]
    want = answers(capsys, MACHINE, 5, targets, evidence)
    for path in (xdsl, bif):
        got = answers(capsys, path, 5, targets, evidence)
        assert got.keys() == want.keys()
        for t in targets:
            np.testing.assert_allclose(got[t], want[t], rtol=0, atol=1e-12, err_msg=f"{path.name} {t}")


def test_a_genie_dynamic_file_converts_to_the_2tbn_in_any_format(capsys, tmp_path):
    source = tmp_path / "rain.xdsl"
    source.write_text(SAMPLE, encoding="utf-8")
    for ext in (".bif", ".xmlbif", ".json", ".bnsproj"):
        out_path = tmp_path / f"rain{ext}"
        status, out, err = run(capsys, "convert", source, out_path, "--json")
        if ext == ".json":      # the JSON form holds influence diagrams only: refused as before
            assert status == 2 and "JSON form" in err
            continue
        assert status == 0 and err == "" and json.loads(out)["variables"] == 6
        assert_same(from_network(read_network(out_path)), from_network(read_network(source)))


def test_plain_keeps_the_network_as_it_is(capsys, tmp_path):
    out_path = tmp_path / "umbrella.xdsl"
    status, out, _ = run(capsys, "convert", UMBRELLA, out_path, "--plain", "--json")
    assert status == 0 and "slices" not in json.loads(out)
    text = out_path.read_text(encoding="utf-8")
    assert "dynamic" not in text and 'id="Rain0"' in text


@pytest.mark.parametrize("argv, message", [
    ([NETWORKS / "asia.bif", "out.xdsl", "--slices", "4"],
     "--slices writes a two-slice network (pyAgrum's X0 / Xt names) and"),
    ([UMBRELLA, "out.bif", "--slices", "4"], "the output must end in .xdsl"),
    ([UMBRELLA, "out.xdsl", "--slices", "0"], "must be an integer >= 1"),
    ([UMBRELLA, "out.xdsl", "--slices", "3", "--plain"], "not allowed with argument"),
])
def test_what_cannot_be_a_dynamic_network_is_refused_in_one_line(capsys, tmp_path, argv, message):
    argv = [a if not str(a).startswith("out.") else tmp_path / str(a) for a in argv]
    status, out, err = run(capsys, "convert", *argv)
    assert status == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1
    assert not any(tmp_path.iterdir())


def test_a_2tbn_genie_cannot_hold_is_refused_with_the_way_out(capsys, tmp_path):
    net = read_network(UMBRELLA)
    net.rename_variable("Rain0", "Rain_x0")
    net.rename_variable("Raint", "Rain_xt")
    net.rename_variable("Umbrella0", "1Umbrella0")
    net.rename_variable("Umbrellat", "1Umbrellat")
    source = tmp_path / "odd.bif"
    from bnstudio.io import write_network
    write_network(net, source)
    status, out, err = run(capsys, "convert", source, tmp_path / "odd.xdsl")
    assert status == 2 and "'1Umbrella' is not a GeNIe identifier" in err and "--plain" in err
    assert not (tmp_path / "odd.xdsl").exists()
    assert run(capsys, "convert", source, tmp_path / "odd.xdsl", "--plain")[0] == 0
