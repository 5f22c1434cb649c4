"""The ``bnstudio`` command line: info and query, JSON output, batch files, and one-line errors (exit 2)."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bnstudio.cli import main
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network

ALARM = Path(__file__).resolve().parents[2] / "resources" / "networks" / "alarm.bif"
ASIA = ALARM.with_name("asia.bif")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return status, out, err


def test_info_json_reports_structure_and_junction_tree(capsys):
    status, out, _ = run(capsys, "info", ALARM, "--json")
    data = json.loads(out)
    assert status == 0
    assert data["n_variables"] == 37 and data["n_arcs"] == 46 and data["n_parameters"] == 509
    assert data["triangulation_width"] >= 3
    assert data["junction_tree"]["largest_clique_variables"] >= data["triangulation_width"] + 1
    hr = next(v for v in data["variables"] if v["name"] == "HR")
    assert hr["states"] == ["LOW", "NORMAL", "HIGH"] and hr["parents"] == ["CATECHOL"]


def exact_treewidth(variables: list[str], parents: dict[str, list[str]]) -> int:
    """The treewidth of the moral graph by brute force: the least width over every elimination order."""
    adj = {v: set(parents[v]) for v in variables}
    for v in variables:
        for p in parents[v]:
            adj[p].add(v)
        for a, b in itertools.combinations(parents[v], 2):
            adj[a].add(b)
            adj[b].add(a)
    best = len(variables)
    for order in itertools.permutations(variables):
        graph, width = {v: set(n) for v, n in adj.items()}, 0
        for v in order:
            width = max(width, len(graph[v]))
            for a, b in itertools.combinations(graph[v], 2):
                graph[a].add(b)
                graph[b].add(a)
            for u in graph.pop(v):
                graph[u].discard(v)
            if width >= best:
                break
        best = min(best, width)
    return best


def test_info_says_what_the_junction_tree_is_not_a_treewidth(capsys):
    """asia's treewidth is 2 (brute force); info called the merged tree's 5 "treewidth". Now the order's
    triangulation width (2 on asia) and the merged tree's largest clique (6 variables) are named as such."""
    status, out, _ = run(capsys, "info", ASIA, "--json")
    data = json.loads(out)
    assert status == 0 and "treewidth" not in data
    parents = {v["name"]: v["parents"] for v in data["variables"]}
    assert data["triangulation_width"] == exact_treewidth(list(parents), parents) == 2
    assert data["junction_tree"]["largest_clique_variables"] == 6 and data["junction_tree"]["cliques"] == 2
    status, out, _ = run(capsys, "info", ASIA)
    assert status == 0 and "either" in out
    assert "largest clique 6 variables (64 entries; small cliques merged)" in out
    assert "min-fill elimination order: triangulation width 2 (an upper bound on the treewidth)" in out


def test_query_json_matches_the_engine(capsys):
    status, out, _ = run(capsys, "query", ALARM, "--target", "HYPOVOLEMIA", "--target", "LVFAILURE",
                         "--evidence", "HRBP=HIGH", "--evidence", "BP=LOW", "--json")
    assert status == 0
    results = json.loads(out)["results"]
    engine = InferenceEngine(read_network(ALARM))
    expected = engine.posterior(["HYPOVOLEMIA", "LVFAILURE"], {"HRBP": "HIGH", "BP": "LOW"})
    assert [r["target"] for r in results] == ["HYPOVOLEMIA", "LVFAILURE"]
    for r in results:
        assert r["evidence"] == {"HRBP": "HIGH", "BP": "LOW"}
        assert list(r["posterior"]) == ["TRUE", "FALSE"]
        np.testing.assert_allclose(list(r["posterior"].values()), expected[r["target"]], atol=1e-12)


def test_query_joint(capsys):
    status, out, _ = run(capsys, "query", ASIA, "--target", "lung", "--target", "tub",
                         "--evidence", "xray=yes", "--joint", "--json")
    rows = json.loads(out)["results"][0]["joint"]
    assert status == 0 and len(rows) == 4
    table = InferenceEngine(read_network(ASIA)).joint(["lung", "tub"], {"xray": "yes"})
    got = {(r["states"]["lung"], r["states"]["tub"]): r["probability"] for r in rows}
    assert got[("yes", "no")] == pytest.approx(table[0, 1], abs=1e-12)
    assert sum(got.values()) == pytest.approx(1.0)


def test_query_soft_evidence(capsys):
    status, out, _ = run(capsys, "query", ASIA, "--target", "lung", "--evidence", "xray~0.9,0.2", "--json")
    expected = InferenceEngine(read_network(ASIA)).posterior("lung", {"xray": [0.9, 0.2]})["lung"]
    assert status == 0
    np.testing.assert_allclose(list(json.loads(out)["results"][0]["posterior"].values()), expected)


def test_batch_queries_file_equals_single_queries(capsys, tmp_path):
    queries = [{"target": "HYPOVOLEMIA", "evidence": {"HRBP": "HIGH"}},
               {"target": "HYPOVOLEMIA", "evidence": {}},
               {"target": "LVFAILURE", "evidence": {"BP": "LOW", "CVP": "HIGH"}},
               {"target": ["HR", "BP"], "evidence": {"CO": "LOW"}}]
    path = tmp_path / "q.json"
    path.write_text(json.dumps(queries))
    status, out, _ = run(capsys, "query", ALARM, "--queries", path, "--json")
    results = json.loads(out)["results"]
    assert status == 0 and len(results) == 5
    engine = InferenceEngine(read_network(ALARM))
    expected = [("HYPOVOLEMIA", {"HRBP": "HIGH"}), ("HYPOVOLEMIA", {}), ("LVFAILURE", {"BP": "LOW", "CVP": "HIGH"}),
                ("HR", {"CO": "LOW"}), ("BP", {"CO": "LOW"})]
    for r, (target, evidence) in zip(results, expected, strict=True):
        assert r["target"] == target and r["evidence"] == evidence
        np.testing.assert_allclose(list(r["posterior"].values()), engine.posterior(target, evidence)[target],
                                   atol=1e-12)


@pytest.mark.parametrize("argv, fragment", [
    (["query", "missing.bif", "--target", "A"], "no such file"),
    (["query", str(ALARM), "--target", "NOPE"], "unknown variable 'NOPE'"),
    (["query", str(ALARM), "--target", "HR", "--evidence", "BP=MEDIUM"], "has no state 'MEDIUM'"),
    (["query", str(ALARM), "--target", "HR", "--evidence", "BP"], "malformed evidence"),
    (["query", str(ALARM), "--target", "HR", "--evidence", "BP~a,b"], "malformed likelihood"),
    (["query", str(ALARM)], "--target"),
    (["query", str(ASIA), "--target", "dysp", "--evidence", "tub=yes", "--evidence", "either=no"],
     "impossible evidence"),
    (["info"], "required"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_gives_one_line_and_status_2(capsys, argv, fragment):
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert fragment in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_bad_queries_file(capsys, tmp_path):
    path = tmp_path / "q.json"
    path.write_text('[{"target": 3}]')
    status, _, err = run(capsys, "query", ALARM, "--queries", path)
    assert status == 2 and "query 0" in err and str(path) in err
    path.write_text('[{"target": "HR", "evidence": {"BP": "NOPE"}}]')
    status, _, err = run(capsys, "query", ALARM, "--queries", path)
    assert status == 2 and "query 0" in err and "NOPE" in err


def test_console_script_runs_as_a_process():
    proc = subprocess.run([sys.executable, "-m", "bnstudio", "query", str(ASIA), "--target", "lung",
                           "--evidence", "xray=nope"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("bnstudio: error:") and len(proc.stderr.strip().splitlines()) == 1


def test_every_option_of_every_subcommand_says_what_it_does():
    """Seen: `bnstudio evaluate --help` listed --folds, --l2, --alpha... with no word on what they do. Every
    argument has a help line; one with a default says it; one that takes a number gives its range."""
    import argparse

    from bnstudio.cli import options as opt
    from bnstudio.cli.main import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    missing = []
    numeric = {opt.ess, opt.l2, opt.draws, opt.bags, opt.points, opt.seed, opt.non_negative_int, opt.search_steps,
               opt.probability}
    for name, sub in commands.items():
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            flag = f"{name} {action.option_strings[-1] if action.option_strings else action.dest}"
            text = action.help or ""
            if not text.strip():
                missing.append(f"{flag}: no help")
            if action.default not in (None, False, [], argparse.SUPPRESS) and "default" not in text:
                missing.append(f"{flag}: default {action.default!r} not said")
            if action.type in numeric and not any(ch.isdigit() for ch in text):
                missing.append(f"{flag}: no range")
    assert not missing, "; ".join(missing)
