"""``bnstudio decide``, ``info`` and ``convert`` on influence-diagram files (Hugin NET, GeNIe XDSL, XMLBIF,
projects, the JSON form), through the program's main: the same solution as the JSON example, one-line errors
with exit status 2."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_convert import run  # main with argv as strings -> (status, stdout, stderr)

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "io" / "corpus" / "influence"
OIL_JSON = ROOT / "resources" / "decision" / "oil_wildcatter.json"
ASIA = ROOT / "resources" / "networks" / "asia.bif"


def decided(capsys, path, *extra) -> dict:
    status, out, err = run(capsys, "decide", path, "--json", *extra)
    assert status == 0 and err == "", err
    return json.loads(out)


@pytest.mark.parametrize("ext", ["net", "xdsl", "xmlbif"])
def test_decide_reads_each_format_like_the_json_example(capsys, ext):
    ours = decided(capsys, CORPUS / f"oil_wildcatter.{ext}", "--evidence", "Result=open")
    reference = decided(capsys, OIL_JSON, "--evidence", "Result=open")
    assert ours["expected_utility"] == pytest.approx(reference["expected_utility"], abs=1e-12)
    for a, b in zip(ours["decisions"], reference["decisions"], strict=True):
        assert a["name"] == b["name"] and a["best"] == b["best"] and a["policy"] == b["policy"]
        assert a["options"] == pytest.approx(b["options"], abs=1e-12)


def test_decide_refuses_a_bayesian_network_in_one_line(capsys):
    status, out, err = run(capsys, "decide", ASIA)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "without decision or utility nodes: nothing to decide" in err


def test_info_describes_an_influence_diagram(capsys):
    status, out, _ = run(capsys, "info", CORPUS / "oil_wildcatter.xdsl", "--json")
    data = json.loads(out)
    assert status == 0 and data["kind"] == "influence diagram"
    assert [(d["name"], d["parents"]) for d in data["decisions"]] == [("Test", []), ("Drill", ["Test", "Result"])]
    assert {u["name"]: u["range"] for u in data["utilities"]} == {"TestCost": [-10.0, 0.0], "Payoff": [-70.0, 200.0]}
    assert [v["name"] for v in data["variables"]] == ["Oil", "Result"]
    status, out, _ = run(capsys, "info", CORPUS / "oil_wildcatter.net")
    assert status == 0 and "influence diagram, 2 chance variables, 2 decisions, 2 utility nodes" in out
    assert "decisions, in the order taken" in out and "Payoff" in out
    status, out, _ = run(capsys, "info", ASIA, "--json")
    assert json.loads(out)["kind"] == "Bayesian network"


def test_other_commands_say_the_file_is_an_influence_diagram(capsys):
    status, out, err = run(capsys, "query", CORPUS / "oil_wildcatter.xmlbif", "--target", "Oil")
    assert status == 2 and err.count("\n") == 1 and "is an influence diagram (decision node 'Test'" in err


def test_convert_between_influence_diagram_formats(capsys, tmp_path):
    reference = decided(capsys, OIL_JSON)["expected_utility"]
    source = CORPUS / "oil_wildcatter.net"
    for ext in ["xdsl", "xmlbif", "bifxml", "json", "bnsproj", "net"]:
        target = tmp_path / f"oil.{ext}"
        status, out, err = run(capsys, "convert", source, target, "--json")
        assert status == 0 and err == "", err
        data = json.loads(out)
        assert (data["decisions"], data["utilities"], data["arcs"]) == (2, 2, 7)
        assert "structure" not in data["lost"] and "exact utilities" not in data["lost"]
        assert decided(capsys, target)["expected_utility"] == pytest.approx(reference, abs=1e-12)
        source = target


def test_convert_refuses_a_diagram_into_a_network_format_and_a_network_into_json(capsys, tmp_path):
    status, out, err = run(capsys, "convert", CORPUS / "oil_wildcatter.xdsl", tmp_path / "oil.bif")
    assert status == 2 and err.count("\n") == 1 and "cannot hold; use one of" in err
    assert not (tmp_path / "oil.bif").exists()
    status, out, err = run(capsys, "convert", ASIA, tmp_path / "asia.json")
    assert status == 2 and "the JSON form holds influence diagrams only" in err
    assert not (tmp_path / "asia.json").exists()
