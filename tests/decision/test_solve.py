"""The solver against brute force over every no-forgetting policy (seeded random diagrams) and against the
classic oil-wildcatter figures (Raiffa 1968; Jensen & Nielsen 2007, §9.3: MEU 22.5, test first)."""
from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from bnstudio.decision import InfluenceDiagram, solve
from bnstudio.errors import EvidenceError, ImpossibleEvidence, MemoryBudgetExceeded
from tests.decision.helpers import BruteForce, oil, random_diagram

SEEDS = range(12)


def _evidence(diagram, rng):
    """Hard evidence on one chance node that descends from no decision (so p(e) does not depend on the
    policies and brute force over E[U · 1(e)] is the reference), or none."""
    free = _evidence_free(diagram)
    if not free or rng.random() < 0.2:
        return {}
    node = free[int(rng.integers(len(free)))]
    return {node: diagram.states(node)[int(rng.integers(diagram.cardinality(node)))]}


@pytest.mark.parametrize("seed", SEEDS)
def test_meu_and_option_utilities_match_brute_force(seed):
    diagram = random_diagram(seed)
    evidence = _evidence(diagram, np.random.default_rng(seed))
    likelihoods = {v: np.eye(diagram.cardinality(v))[diagram.states(v).index(s)] for v, s in evidence.items()}
    brute = BruteForce(diagram, likelihoods)
    p_e = brute.joint.sum() / np.prod([diagram.cardinality(d) for d in diagram.decision_names])
    if p_e == 0:
        with pytest.raises(ImpossibleEvidence):
            solve(diagram, evidence)
        return
    value, optimal = brute.best()
    solution = solve(diagram, evidence)
    assert solution.method == "no-forgetting"
    assert solution.expected_utility == pytest.approx(value / p_e, abs=1e-9, rel=1e-9)
    assert solution.probability_of_evidence == pytest.approx(p_e, rel=1e-9)
    names = diagram.decision_names
    for k, d in enumerate(names):
        for option, state in enumerate(diagram.states(d)):
            forced = np.full(tuple(diagram.cardinality(p) for p in brute.pasts[d]), option)
            fixed = {**{e: optimal[e] for e in names[:k]}, d: forced}
            best_value, _ = brute.best(fixed)
            got = solution.options[d][state]
            if best_value == -np.inf:
                assert got is None
            else:
                assert got == pytest.approx(best_value / p_e, abs=1e-9, rel=1e-9), (d, state)


def test_soft_evidence_matches_brute_force():
    checked = 0
    for seed in range(6):
        diagram = random_diagram(seed)
        free = _evidence_free(diagram)
        if not free:
            continue
        rng = np.random.default_rng(seed)
        soft = {free[0]: rng.uniform(0.1, 2.0, diagram.cardinality(free[0]))}
        brute = BruteForce(diagram, soft)
        p_e = brute.joint.sum() / np.prod([diagram.cardinality(d) for d in diagram.decision_names])
        value, _ = brute.best()
        solution = solve(diagram, soft)
        assert solution.expected_utility == pytest.approx(value / p_e, abs=1e-9, rel=1e-9)
        assert solution.probability_of_evidence == pytest.approx(p_e, rel=1e-9)
        checked += 1
    assert checked >= 3


def _evidence_free(diagram):
    graph = diagram.graph()
    downstream = set().union(*(nx.descendants(graph, d) for d in diagram.decision_names))
    return [v for v in diagram.chance_names if v not in downstream]


def test_limid_update_equals_exact_solution_when_parents_include_the_past():
    """A diagram whose decisions see their whole no-forgetting past is a soluble LIMID (Lauritzen & Nilsson
    2001, §4): single policy updating reaches the exact maximum."""
    for seed in SEEDS:
        diagram = random_diagram(seed)
        exact = solve(diagram)
        limid = solve(diagram, method="limid")
        assert limid.method == "limid-spu" and limid.iterations >= 1
        # SPU is only guaranteed exact for soluble LIMIDs; it can never beat the no-forgetting optimum
        assert limid.expected_utility <= exact.expected_utility + 1e-9
    diagram = oil()
    assert solve(diagram, method="limid").expected_utility == pytest.approx(22.5, abs=1e-9)


def test_oil_wildcatter_classic_figures():
    solution = solve(oil())
    assert solution.expected_utility == pytest.approx(22.5, abs=1e-12)
    assert solution.options["Test"] == pytest.approx({"yes": 22.5, "no": 20.0}, abs=1e-12)
    assert solution.best_option("Test") == "yes"
    rows = {(r["past"]["Test"], r["past"]["Result"]): r["choice"] for r in solution.policy_rows("Drill")}
    assert rows[("yes", "closed")] == rows[("yes", "open")] == "yes" and rows[("yes", "diffuse")] == "no"
    assert rows[("no", "none")] == "yes"


def test_evidence_on_a_later_observation_and_a_taken_decision():
    diagram = oil()
    seen = solve(diagram, {"Result": "closed"})
    # knowing a closed structure: drilling earns 0.5·(-70)/... computed by hand: p(Oil | closed) ∝ (.05, .09, .10)
    posterior = np.array([0.05, 0.09, 0.10]) / 0.24
    payoff = float(posterior @ np.array([-70, 50, 200]))
    assert seen.options["Drill"]["yes"] == pytest.approx(payoff - 10, abs=1e-12)
    assert seen.options["Test"]["no"] is None  # no test gives no result
    taken = solve(diagram, {"Test": "no"})
    assert taken.taken == {"Test": "no"}
    assert taken.expected_utility == pytest.approx(20.0, abs=1e-12)
    assert taken.policies["Test"].table.item() == 1


def test_impossible_evidence_and_bad_evidence_are_one_line_errors():
    diagram = oil()
    with pytest.raises(ImpossibleEvidence):
        solve(diagram, {"Test": "no", "Result": "closed"})
    with pytest.raises(EvidenceError, match="utility node"):
        solve(diagram, {"Payoff": "yes"})
    with pytest.raises(EvidenceError, match="takes an option"):
        solve(diagram, {"Drill": [0.5, 0.5]})
    with pytest.raises(KeyError, match="no state 'maybe'"):
        solve(diagram, {"Oil": "maybe"})
    with pytest.raises(EvidenceError, match="unknown solution method"):
        solve(diagram, method="magic")


def pomdp(steps: int):
    """A hidden chain S1 -> S2 -> ... observed through O_k before decision D_k, utility U_k(S_k, D_k): under
    no-forgetting D_k's requisite past is every earlier observation and decision (2^(2k-1) rows)."""
    from bnstudio.decision import build_influence_diagram

    chance, decisions, utilities = [], [], []
    for k in range(1, steps + 1):
        chance.append((f"S{k}", ["a", "b"], [f"S{k - 1}"] if k > 1 else [],
                       [[0.8, 0.2], [0.3, 0.7]] if k > 1 else [0.5, 0.5]))
        chance.append((f"O{k}", ["a", "b"], [f"S{k}"], [[0.75, 0.25], [0.2, 0.8]]))
        decisions.append((f"D{k}", ["a", "b"], [f"O{k}"] + ([f"D{k - 1}"] if k > 1 else [])))
        utilities.append((f"U{k}", [f"S{k}", f"D{k}"], [[10.0, -5.0], [-3.0, 8.0]]))
    return build_influence_diagram(chance, decisions, utilities, "pomdp")


def test_memory_budget_falls_back_to_limid_or_refuses():
    diagram = pomdp(8)
    budget = 2**17  # bytes: the no-forgetting policy of D8 alone has 2^15 rows (256 KiB of float64)
    with pytest.raises(MemoryBudgetExceeded, match="memory budget"):
        solve(diagram, method="no-forgetting", memory_budget=budget)
    fallback = solve(diagram, memory_budget=budget)
    assert fallback.method == "limid-spu"
    assert fallback.policies["D8"].parents == ("O8", "D7")
    small = pomdp(3)  # small enough for both: no-forgetting can only do better than the LIMID
    assert solve(small).expected_utility >= solve(small, method="limid").expected_utility - 1e-12


def test_an_expected_utility_of_zero_is_zero_not_rounding():
    """Drilling blind in the oil wildcatter: EU(Drill = no) is exactly 0 (it came out as 1.42e-14 and showed on the
    canvas as '421e-14'); MEU 20 = 0.5·(−70) + 0.3·50 + 0.2·200."""
    doc = oil().to_dict()
    for decision in doc["decisions"]:
        if decision["name"] == "Drill":
            decision["parents"] = []
    solution = solve(InfluenceDiagram.from_dict(doc))
    assert solution.options["Drill"]["no"] == 0.0
    assert solution.expected_utility == pytest.approx(20.0, abs=1e-12)

