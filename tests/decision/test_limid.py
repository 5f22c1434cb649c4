"""Diagrams whose decisions are not totally ordered are LIMIDs (Lauritzen & Nilsson 2001): each decision sees its
declared parents only. ``solve`` runs single policy updating on them and says so; the reference is brute force
over every pair of deterministic policies of the declared parents."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from bnstudio.decision import build_influence_diagram, solve
from bnstudio.errors import ValidationError

A = [0.3, 0.7]
B = [0.6, 0.4]


def _two_unordered(coupling: float):
    """D1 sees A, D2 sees B; no path between the decisions. U1(A, D1) and U2(B, D2) reward matching the
    observed state; U3(D1, D2) adds ``coupling`` when both decisions pick their first option."""
    chance = [("A", ["a0", "a1"], [], A), ("B", ["b0", "b1"], [], B)]
    decisions = [("D1", ["x", "y"], ["A"]), ("D2", ["x", "y"], ["B"])]
    utilities = [("U1", ["A", "D1"], [[10.0, 0.0], [0.0, 4.0]]), ("U2", ["B", "D2"], [[3.0, 0.0], [0.0, 8.0]]),
                 ("U3", ["D1", "D2"], [[coupling, 0.0], [0.0, 0.0]])]
    return build_influence_diagram(chance, decisions, utilities, name="two unordered decisions")


def _expected_utility(coupling: float, p1: tuple[int, int], p2: tuple[int, int]) -> float:
    """E[U] with D1 = p1[A] and D2 = p2[B], summed by hand over A and B."""
    u1 = np.array([[10.0, 0.0], [0.0, 4.0]])
    u2 = np.array([[3.0, 0.0], [0.0, 8.0]])
    total = 0.0
    for a, b in itertools.product(range(2), range(2)):
        d1, d2 = p1[a], p2[b]
        total += A[a] * B[b] * (u1[a, d1] + u2[b, d2] + (coupling if d1 == d2 == 0 else 0.0))
    return total


def _all_policies(coupling: float) -> dict[tuple, float]:
    choices = list(itertools.product(range(2), repeat=2))
    return {(p1, p2): _expected_utility(coupling, p1, p2) for p1 in choices for p2 in choices}


def test_a_soluble_limid_is_solved_to_the_global_optimum():
    """Without the coupling each decision's best policy does not depend on the other's: SPU is exact."""
    diagram = _two_unordered(0.0)
    assert not diagram.ordered
    solution = solve(diagram)
    assert solution.method == "limid-spu" and solution.iterations >= 1
    best = max(_all_policies(0.0).values())
    assert solution.expected_utility == pytest.approx(best, abs=1e-12)
    assert tuple(solution.policies["D1"].table) == (0, 1) and tuple(solution.policies["D2"].table) == (0, 1)


@pytest.mark.parametrize("coupling", [2.0, 6.0, 20.0])
def test_spu_ends_in_a_policy_no_single_decision_can_improve(coupling):
    """With U3 the LIMID is not soluble: SPU's answer is a local optimum (Lauritzen & Nilsson Theorem 4): its EU is
    one of the enumerated ones, no better than the global optimum, and no change of one policy improves it."""
    solution = solve(_two_unordered(coupling))
    table = _all_policies(coupling)
    p1, p2 = tuple(solution.policies["D1"].table), tuple(solution.policies["D2"].table)
    assert solution.expected_utility == pytest.approx(table[p1, p2], abs=1e-12)
    assert solution.expected_utility <= max(table.values()) + 1e-12
    choices = list(itertools.product(range(2), repeat=2))
    assert all(table[q, p2] <= table[p1, p2] + 1e-12 for q in choices)
    assert all(table[p1, q] <= table[p1, p2] + 1e-12 for q in choices)


def test_option_utilities_of_a_limid_follow_the_other_policy():
    """EU(D1 = d | e): D1 forced to d, D2 following its policy (here D2 = its observation's match)."""
    solution = solve(_two_unordered(0.0))
    p2 = tuple(solution.policies["D2"].table)
    for d, option in enumerate(("x", "y")):
        assert solution.options["D1"][option] == pytest.approx(_expected_utility(0.0, (d, d), p2), abs=1e-12)


def test_no_forgetting_on_a_limid_is_refused_in_one_line():
    with pytest.raises(ValidationError) as info:
        solve(_two_unordered(0.0), method="no-forgetting")
    message = str(info.value)
    assert "decisions 'D1' and 'D2' are not ordered" in message and "method limid" in message
    assert "\n" not in message
