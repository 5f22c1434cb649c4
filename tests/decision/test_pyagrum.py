"""The solver against pyAgrum's influence-diagram inference (ShaferShenoyLIMIDInference with the
no-forgetting assumption), on the oil wildcatter and seeded random diagrams: the maximum expected utility to
1e-9 and, in every past that has positive probability, pyAgrum's optimal decision is one of ours (equal
expected utility to 1e-9; the same option wherever the best option leads by more than 1e-9)."""
from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

from bnstudio.decision import solve
from bnstudio.decision.order import past
from bnstudio.decision.policy_net import policy_network
from bnstudio.inference import InferenceEngine
from tests.decision.helpers import BruteForce, oil, random_diagram, to_pyagrum

with warnings.catch_warnings():
    # pyAgrum 3.3 loads its influence-diagram extension on first use, and SWIG's import-time DeprecationWarning
    # ("builtin type SwigPyObject has no __module__ attribute") raised as an error there crashes the process
    warnings.simplefilter("ignore", DeprecationWarning)
    gum = pytest.importorskip("pyagrum")
    gum.InfluenceDiagram()


def pyagrum_solution(diagram, evidence):
    model = to_pyagrum(diagram)
    inference = gum.ShaferShenoyLIMIDInference(model)
    inference.model = model  # pyAgrum's inference does not own its diagram: keep it alive
    inference.addNoForgettingAssumption(list(diagram.decision_names))
    if evidence:
        inference.setEvidence(dict(evidence))
    inference.makeInference()
    return inference


def check_against_pyagrum(diagram, evidence):
    ours = solve(diagram, evidence)
    theirs = pyagrum_solution(diagram, evidence)
    assert ours.expected_utility == pytest.approx(theirs.MEU()["mean"], abs=1e-9, rel=1e-9)
    net = policy_network(diagram, {d: (p.parents, p.cpt(diagram.cardinality(d))) for d, p in ours.policies.items()})
    engine = InferenceEngine(net)
    compared = 0
    for d in diagram.decision_names:
        history = past(diagram, d)
        policy = ours.policies[d]
        weights = engine.joint(history, evidence) if history else np.ones(())
        table = theirs.optimalDecision(d)
        for index in itertools.product(*(range(diagram.cardinality(v)) for v in history)):
            if weights[index] <= 1e-12:
                continue
            config = {v: diagram.states(v)[i] for v, i in zip(history, index, strict=True)}
            given = {v: s for v, s in config.items() if v in table.names and v != d}
            their_choice = int(np.argmax(np.asarray(table[given]).reshape(-1))) if given else int(
                np.argmax(table.toarray().reshape(-1)))
            row = tuple(diagram.states(p).index(config[p]) for p in policy.parents)
            values = policy.values[row]
            assert values[their_choice] == pytest.approx(values.max(), abs=1e-9, rel=1e-9), (d, config)
            runner_up = np.sort(values)[-2] if values.size > 1 else -np.inf
            if values.max() - runner_up > 1e-9:
                assert their_choice == int(policy.table[row]), (d, config)
            compared += 1
    return compared


def test_oil_wildcatter_matches_pyagrum():
    diagram = oil()
    assert check_against_pyagrum(diagram, {}) == 1 + 3  # Test; Drill after the three test results
    check_against_pyagrum(diagram, {"Oil": "wet"})
    check_against_pyagrum(diagram, {"Result": "diffuse"})  # evidence downstream of a decision: same semantics


def every_decision_matters(diagram) -> bool:
    graph = diagram.graph()
    import networkx as nx
    return all(set(nx.descendants(graph, d)) & set(diagram.utility_names) for d in diagram.decision_names)


def test_a_decision_without_utility_descendant_is_solved_exactly():
    """pyAgrum 3.3.1 returns MEU 10.4999 on this diagram, where D3 influences no utility; enumerating every
    policy of D1 and D2 (D3 fixed: it changes nothing) gives 12.0285, as we do. So the pyAgrum comparison
    below uses diagrams in which every decision has a utility descendant."""
    diagram = random_diagram(105, n_decisions=3, max_policies=10**9)
    assert not every_decision_matters(diagram)
    brute = BruteForce(diagram)
    value, _ = brute.best({"D3": np.zeros((3, 3), dtype=int)})
    assert solve(diagram).expected_utility == pytest.approx(value, abs=1e-9)
    assert value == pytest.approx(12.028513846044, abs=1e-9)


@pytest.mark.parametrize("seed", range(12))
def test_random_diagrams_match_pyagrum(seed):
    diagram = next(d for d in (random_diagram(100 + 31 * seed + k, n_decisions=2 + seed % 2, max_policies=10**9)
                               for k in range(100)) if every_decision_matters(d))
    rng = np.random.default_rng(seed)
    evidence = {}
    if seed % 4:  # evidence anywhere, downstream of decisions too: pyAgrum uses the same semantics
        node = diagram.chance_names[int(rng.integers(len(diagram.chance_names)))]
        evidence = {node: diagram.states(node)[int(rng.integers(diagram.cardinality(node)))]}
    try:
        compared = check_against_pyagrum(diagram, evidence)
    except Exception as exc:  # impossible evidence: both must refuse
        from bnstudio.errors import ImpossibleEvidence
        assert isinstance(exc, ImpossibleEvidence)
        return
    assert compared >= len(diagram.decision_names)
