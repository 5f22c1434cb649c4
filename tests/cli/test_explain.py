"""``bnstudio query NET --mpe [--top K]`` and ``--map VAR ...``: JSON keyed by variable, one-line errors."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bnstudio.cli.main import main
from bnstudio.core import network_from_dsl
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network, write_network
from bnstudio.uncertainty import error_bars
from tests.brute import weighted_joint


@pytest.fixture(scope="module")
def net_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("explain") / "net.bif"
    write_network(network_from_dsl("A->B; B->C; A->C; C->D", seed=7, states={"C": ["lo", "mid", "hi"]}), path)
    return path


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_mpe_json_has_the_variables_as_keys_and_the_top_k_in_order(capsys, net_file):
    status, out, _ = run(capsys, "query", net_file, "--mpe", "--top", "3", "--evidence", "D=s1", "--json")
    assert status == 0
    records = json.loads(out)["mpe"]
    net = read_network(net_file)
    table = weighted_joint(net, {"D": "s1"})
    expected = np.sort(table.ravel())[::-1][:3] / table.sum()
    assert [r["probability"] for r in records] == pytest.approx(expected, rel=1e-9)
    for r in records:
        assert set(r["assignment"]) == {"A", "B", "C"}
        index = tuple(net.states(v).index(r["assignment"].get(v, "s1")) for v in net.variables)
        assert table[index] / table.sum() == pytest.approx(r["probability"], rel=1e-9)


def test_map_json_matches_enumeration(capsys, net_file):
    status, out, _ = run(capsys, "query", net_file, "--map", "C", "--map", "A", "--evidence", "D~0.2,0.9", "--json")
    assert status == 0
    record = json.loads(out)["map"][0]
    net = read_network(net_file)
    table = weighted_joint(net, {"D": [0.2, 0.9]})
    marginal = table.sum(axis=(1, 3)) / table.sum()  # axes A, C
    assert record["exact"] and record["method"] == "elimination"
    assert record["probability"] == pytest.approx(marginal.max(), rel=1e-9)
    best = np.unravel_index(np.argmax(marginal), marginal.shape)
    assert record["assignment"] == {"C": net.states("C")[best[1]], "A": net.states("A")[best[0]]}


def test_text_output_names_each_explanation(capsys, net_file):
    status, out, _ = run(capsys, "query", net_file, "--mpe", "--top", "2")
    assert status == 0 and "MPE #1 given no evidence" in out and "MPE #2" in out


@pytest.mark.parametrize("argv, message", [
    (["--map", "Z"], "unknown variable 'Z'"),
    (["--mpe", "--map", "A"], "either --mpe or --map"),
    (["--top", "2"], "--top K goes with --mpe"),
    (["--mpe", "--top", "0"], "argument --top: must be an integer in 1..10000"),
    (["--mpe", "--target", "A"], "leave out --target"),
    (["--map", "A", "--evidence", "A=s0"], "also in the evidence"),
])
def test_bad_explanation_requests_are_one_line_exit_2(capsys, net_file, argv, message):
    status, out, err = run(capsys, "query", net_file, *argv)
    assert status == 2 and out == "" and message in err and err.count("\n") == 1


def test_an_impossible_finding_is_one_line_exit_2(capsys, tmp_path):
    path = tmp_path / "zero.bif"
    write_network(network_from_dsl("A->B", cpts={"A": [1.0, 0.0], "B": [[1.0, 0.0], [0.5, 0.5]]}), path)
    for flag in (["--mpe"], ["--map", "A"]):
        status, _, err = run(capsys, "query", path, *flag, "--evidence", "B=s1")
        assert status == 2 and "impossible evidence" in err and err.count("\n") == 1


def test_with_dirichlet_counts_each_explanation_has_its_delta_method_sd(capsys, tmp_path):
    net = network_from_dsl("A->B; B->C; A->C", seed=11)
    for v in net.variables:
        net.set_alpha(v, 12.0 * net.cpt(v))
    path = tmp_path / "counts.bnsproj"
    write_network(net, path)
    status, out, _ = run(capsys, "query", path, "--mpe", "--top", "2", "--json", "--evidence", "C=s1")
    assert status == 0
    for record in json.loads(out)["mpe"]:
        bars = error_bars(net, record["assignment"], {"C": "s1"}, engine=InferenceEngine(net))
        assert record["probability"] == pytest.approx(bars.mean, rel=1e-9)
        assert record["sd"] == pytest.approx(bars.sd, rel=1e-9) and record["sd"] > 0
        assert record["interval"][0] <= record["probability"] <= record["interval"][1]
    status, out, _ = run(capsys, "query", path, "--map", "A")
    assert status == 0 and "± " in out
