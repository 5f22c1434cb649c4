"""`bnstudio query` answers through whatever path can: one query on its own, many batched per target when the
junction tree fits the memory budget, one by one (pruned elimination) when it does not.

Seen: `bnstudio query munin1.bif --target X --evidence Y=y` failed ("ask single queries instead") although it
was a single query: every hard-evidence query went through the batched junction-tree path.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bnstudio.cli import main
from bnstudio.cli.query import answer_queries
from bnstudio.core import Network
from bnstudio.inference import InferenceEngine
from bnstudio.inference.trees import BYTES_PER_ENTRY as TREE_BYTES_PER_ENTRY
from bnstudio.io import read_network, write_network
from tests.brute import marginal, weighted_joint

ALARM = Path(__file__).resolve().parents[2] / "resources" / "networks" / "alarm.bif"
CORNER = ["x0_0", "x0_1", "x0_2", "x1_0", "x1_1", "x2_0"]  # closed under parents: its joint is the grid's marginal


def grid(n: int, states: int, seed: int = 0) -> Network:
    """An n x n grid (arcs right and down) of ``states``-state variables with random CPTs: treewidth n."""
    rng = np.random.default_rng(seed)
    net = Network(f"grid{n}")
    names = [f"s{k}" for k in range(states)]
    for i in range(n):
        for j in range(n):
            parents = ([f"x{i - 1}_{j}"] if i else []) + ([f"x{i}_{j - 1}"] if j else [])
            cpt = rng.dirichlet(np.ones(states), size=(states,) * len(parents))
            net.add_variable(f"x{i}_{j}", names, parents=parents, cpt=cpt)
    return net


def brute_posterior(net: Network, target: str, evidence: dict[str, str]) -> np.ndarray:
    """p(target | evidence) by enumerating the joint of the grid's corner (all queries below stay inside it)."""
    corner = Network("corner")
    for v in CORNER:
        corner.add_variable(v, net.states(v), parents=net.parents(v), cpt=net.cpt(v))
    return marginal(weighted_joint(corner, evidence), [CORNER.index(target)])


@pytest.fixture(scope="module")
def grid_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("grid") / "grid8.bif"
    write_network(grid(8, 10), path)
    return path


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_one_query_without_a_junction_tree_in_budget_is_answered(capsys, grid_file):
    net = read_network(grid_file)
    assert not InferenceEngine(net).fits_budget  # the condition of munin1: no batched propagation possible
    evidence = {"x0_1": "s3", "x1_0": "s7"}
    status, out, err = run(capsys, "query", grid_file, "--target", "x1_1",
                           *[f"--evidence={k}={v}" for k, v in evidence.items()], "--json")
    assert (status, err) == (0, "")
    [result] = json.loads(out)["results"]
    np.testing.assert_allclose(list(result["posterior"].values()), brute_posterior(net, "x1_1", evidence),
                               atol=1e-12)


def test_many_queries_without_a_junction_tree_in_budget_are_answered_one_by_one(capsys, grid_file, tmp_path):
    net = read_network(grid_file)
    queries = [{"target": "x1_1", "evidence": {"x0_1": "s3", "x1_0": "s7"}},
               {"target": "x1_1", "evidence": {"x0_2": "s0"}},
               {"target": "x2_0", "evidence": {"x0_0": "s9", "x1_1": "s1"}},
               {"target": "x0_2", "evidence": {}},
               {"target": "x0_0", "evidence": {"x1_1": [0.2, 1, 1, 1, 1, 1, 1, 1, 1, 0.5]}}]
    path = tmp_path / "q.json"
    path.write_text(json.dumps(queries))
    status, out, err = run(capsys, "query", grid_file, "--queries", path, "--json")
    assert (status, err) == (0, "")
    results = json.loads(out)["results"]
    assert [r["target"] for r in results] == [q["target"] for q in queries]
    for r, q in zip(results, queries, strict=True):
        np.testing.assert_allclose(list(r["posterior"].values()), brute_posterior(net, q["target"], q["evidence"]),
                                   atol=1e-12, err_msg=str(q))


def test_a_tree_too_big_for_the_budget_answers_queries_singly_and_the_same():
    """munin1's case exactly: a junction tree exists but one propagation of it exceeds the budget."""
    net = read_network(ALARM)
    full = InferenceEngine(net)
    jt = full.compiled.jt
    tight = InferenceEngine(net, memory_budget=TREE_BYTES_PER_ENTRY * (jt.total_size - 1))
    assert tight.compiled.jt is not None and not tight.fits_budget
    rng = np.random.default_rng(3)
    queries = []
    for _ in range(12):
        names = rng.permutation(net.variables)
        evidence = {v: net.states(v)[0] for v in names[1:4]}
        if full.log_evidence(evidence) > -np.inf:
            queries.append({"target": [str(names[0])], "evidence": evidence})
    assert len(queries) >= 6
    for subset in (queries[:1], queries):  # one query, and several sharing targets or not
        got = answer_queries(tight, subset)
        want = answer_queries(full, subset)
        assert [g["target"] for g in got] == [w["target"] for w in want]
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(list(g["posterior"].values()), list(w["posterior"].values()), atol=1e-12)
