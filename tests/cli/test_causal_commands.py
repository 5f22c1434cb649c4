"""``query --do``, ``info --dsep / --markov-blanket`` and ``voi``: JSON with variables as keys, checked against
brute force and the graph, and one-line errors (exit 2) for bad input."""
from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from bnstudio.cli import main
from bnstudio.io import read_network
from tests.brute import marginal, weighted_joint

ASIA = Path(__file__).resolve().parents[2] / "resources" / "networks" / "asia.bif"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return status, out, err


def test_query_do_answers_on_the_cut_network_and_differs_from_observing(capsys):
    status, out, _ = run(capsys, "query", ASIA, "--target", "smoke", "--target", "dysp", "--do", "lung=yes",
                         "--evidence", "xray=yes", "--json")
    assert status == 0
    smoke, dysp = json.loads(out)["results"]
    assert smoke["do"] == {"lung": "yes"} and smoke["evidence"] == {"xray": "yes"}
    net = read_network(ASIA)
    assert smoke["posterior"] == pytest.approx(dict(zip(net.states("smoke"), net.cpt("smoke"), strict=True)), abs=1e-12)
    cut = net.copy()
    cut.set_parents("lung", [], [1.0, 0.0])                   # the mutilated network, by hand
    want = marginal(weighted_joint(cut, {"xray": "yes"}), [cut.variables.index("dysp")])
    assert list(dysp["posterior"].values()) == pytest.approx(want.tolist(), abs=1e-12)
    _, seen, _ = run(capsys, "query", ASIA, "--target", "smoke", "--evidence", "lung=yes", "--json")
    assert json.loads(seen)["results"][0]["posterior"]["yes"] > smoke["posterior"]["yes"] + 0.3
    status, text, _ = run(capsys, "query", ASIA, "--target", "smoke", "--do", "lung=yes")
    assert status == 0 and "p(smoke | do(lung=yes))" in text


def test_info_dsep_and_markov_blanket(capsys):
    graph = read_network(ASIA).graph()
    for a, b, given in (("asia", "smoke", []), ("asia", "smoke", ["dysp"]), ("xray", "dysp", ["either"]),
                        ("tub", "bronc", ["dysp", "smoke"])):
        argv = ["info", ASIA, "--dsep", a, b, "--json"] + [f"--given={g}" for g in given]
        status, out, _ = run(capsys, *argv)
        answer = json.loads(out)["dsep"]
        assert status == 0 and answer["given"] == given
        assert answer["d_separated"] == nx.is_d_separator(graph, {a}, {b}, set(given))
    status, out, _ = run(capsys, "info", ASIA, "--markov-blanket", "lung", "--markov-blanket", "asia", "--json")
    blankets = json.loads(out)["markov_blanket"]
    assert status == 0 and blankets["lung"] == {"parents": ["smoke"], "children": ["either"], "spouses": ["tub"],
                                                "members": ["smoke", "either", "tub"]}
    assert blankets["asia"]["members"] == ["tub"]
    _, text, _ = run(capsys, "info", ASIA, "--dsep", "asia", "smoke", "--given", "dysp")
    assert "d-connected" in text and "given dysp" in text


def test_voi_json_has_each_candidates_mutual_information_in_bits(capsys):
    status, out, _ = run(capsys, "voi", ASIA, "--target", "lung", "--evidence", "asia=yes", "--json")
    data = json.loads(out)
    assert status == 0 and data["target"] == "lung" and data["evidence"] == {"asia": "yes"}
    mi = data["mutual_information_bits"]
    assert set(mi) == {"tub", "smoke", "bronc", "either", "xray", "dysp"}
    assert list(mi.values()) == sorted(mi.values(), reverse=True)
    net = read_network(ASIA)
    names = net.variables
    for name, bits in mi.items():
        joint = marginal(weighted_joint(net, {"asia": "yes"}), [names.index("lung"), names.index(name)])
        outer = joint.sum(axis=1, keepdims=True) * joint.sum(axis=0, keepdims=True)
        cells = joint > 0
        assert bits == pytest.approx(float(np.sum(joint[cells] * np.log2(joint[cells] / outer[cells]))), abs=1e-12)
    assert mi["tub"] == 0.0                                     # d-separated by asia and the unobserved collider
    status, out, _ = run(capsys, "voi", ASIA, "--target", "lung", "--cost", "0,20;1,0", "--by", "cost", "--json")
    data = json.loads(out)
    assert status == 0 and data["ranked_by"] == "cost" and next(iter(data["risk_reduction"])) == "either"
    status, text, _ = run(capsys, "voi", ASIA, "--target", "lung")
    assert status == 0 and "mutual information (bits)" in text


@pytest.mark.parametrize("argv, message", [
    (["query", "--target", "dysp", "--do", "lung=yes", "--evidence", "lung=no"], "both observed and intervened"),
    (["query", "--target", "dysp", "--do", "nope=yes"], "unknown variable 'nope'"),
    (["query", "--target", "dysp", "--do", "lung=maybe"], "no state 'maybe'"),
    (["query", "--target", "dysp", "--do", "lung~0.5,0.5"], "sets one state"),
    (["query", "--target", "dysp", "--do", "tub=yes", "--evidence", "either=no"], r"= 0 under do\(tub=yes\)"),
    (["voi", "--target", "nope"], "unknown variable 'nope'"),
    (["voi", "--target", "lung", "--evidence", "lung=yes"], "target 'lung'"),
    (["voi", "--target", "lung", "--evidence", "tub=yes", "--evidence", "either=no"], "impossible evidence"),
    (["voi", "--target", "lung", "--cost", "0,1"], "2 x 2"),
    (["info", "--dsep", "asia", "nope"], "unknown variable 'nope'"),
    (["info", "--dsep", "asia", "smoke", "--given", "asia"], "disjoint"),
    (["info", "--given", "asia"], "--given goes with --dsep"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    import re

    status, out, err = run(capsys, argv[0], ASIA, *argv[1:])
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and re.search(message, err), err
