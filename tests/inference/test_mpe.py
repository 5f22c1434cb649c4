"""MPE, the k most probable explanations and MAP against brute-force enumeration (and each other)."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bnstudio.core import network_from_dsl
from bnstudio.errors import EvidenceError, ImpossibleEvidence, MemoryBudgetExceeded, UnknownVariableError
from bnstudio.inference import InferenceEngine
from tests.brute import weighted_joint
from tests.inference.test_brute_force import networks_with_evidence


def _brute_assignments(net, evidence, top):
    """The ``top`` largest p(x | e) over full assignments and the table p(x, e) / p(e)."""
    table = weighted_joint(net, evidence)
    table = table / table.sum()
    values = np.sort(table.ravel())[::-1]
    return values[values > 0][:top], table


def _index_of(net, assignment, evidence):
    """The full assignment (observed variables at their finding) as indices into the joint table."""
    out = []
    for v in net.variables:
        state = assignment[v] if v in assignment else evidence[v]
        out.append(net.states(v).index(state))
    return tuple(out)


def _check_explanations(net, evidence, explanations, top):
    expected, table = _brute_assignments(net, evidence, top)
    got = [e.probability for e in explanations]
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-14)
    seen = set()
    for e in explanations:
        index = _index_of(net, e.assignment, evidence)
        assert table[index] == pytest.approx(e.probability, rel=1e-9, abs=1e-14)
        assert e.log_probability == pytest.approx(math.log(e.probability), abs=1e-9)
        seen.add(index)
    assert len(seen) == len(explanations)


@settings(max_examples=60, deadline=None)
@given(case=networks_with_evidence(), top=st.integers(1, 6))
def test_k_most_probable_explanations_match_enumeration(case, top):
    net, evidence = case
    explanations = InferenceEngine(net).mpe(evidence, top=top)
    _check_explanations(net, evidence, explanations, top)
    hard = {v for v, s in evidence.items() if isinstance(s, str)}
    assert all(set(e.assignment) == set(net.variables) - hard for e in explanations)


def test_log_joint_is_log_p_x_and_e_with_soft_evidence():
    net = network_from_dsl("A->B; B->C; A->C", seed=3)
    evidence = {"C": [0.2, 5.0], "A": "s1"}
    best = InferenceEngine(net).mpe(evidence).best
    table = weighted_joint(net, evidence)
    assert best.log_joint == pytest.approx(math.log(table[_index_of(net, best.assignment, evidence)]), abs=1e-12)
    assert best.probability == pytest.approx(table.max() / table.sum(), rel=1e-12)


def test_all_assignments_tied_give_k_distinct_explanations():
    net = network_from_dsl("A->B; B->C", states={"C": ["a", "b", "c"]},
                           cpts={"A": [0.5, 0.5], "B": [[0.5, 0.5]] * 2, "C": [[1 / 3] * 3] * 2})
    explanations = InferenceEngine(net).mpe(top=12)
    assert len(explanations) == 12
    assert {tuple(e.assignment.values()) for e in explanations}.__len__() == 12
    np.testing.assert_allclose([e.probability for e in explanations], 1 / 12)
    assert InferenceEngine(net).mpe(top=50).__len__() == 12  # only 12 assignments exist


def test_zero_probability_assignments_are_never_returned():
    net = network_from_dsl("A->B", cpts={"A": [1.0, 0.0], "B": [[0.3, 0.7], [0.5, 0.5]]})
    explanations = InferenceEngine(net).mpe(top=4)
    assert [e.assignment for e in explanations] == [{"A": "s0", "B": "s1"}, {"A": "s0", "B": "s0"}]


def test_one_state_variables_get_their_state():
    net = network_from_dsl("A->K; K->B; A->B", states={"A": ["a", "b"], "K": ["only"], "B": ["x", "y"]},
                           cpts={"A": [0.3, 0.7], "K": [[1.0], [1.0]], "B": [[[0.9, 0.1], [0.2, 0.8]]]})
    explanations = InferenceEngine(net).mpe(top=4)
    _check_explanations(net, {}, explanations, 4)
    assert explanations.best.assignment == {"A": "b", "K": "only", "B": "y"}


def test_mpe_of_a_thousand_observed_children_is_finite_and_the_class_posterior_mode():
    n = 1000
    rng = np.random.default_rng(0)
    names = [f"X{i}" for i in range(n)]
    net = network_from_dsl("; ".join(f"C->{x}" for x in names), seed=1, states={"C": ["a", "b", "c"]})
    evidence = {x: net.states(x)[int(rng.integers(2))] for x in names}
    engine = InferenceEngine(net)
    best = engine.mpe(evidence).best
    assert math.isfinite(best.log_joint) and best.log_joint < -700  # p(x*, e) underflows a double
    posterior = engine.posterior("C", evidence)["C"]
    assert best.assignment == {"C": net.states("C")[int(np.argmax(posterior))]}
    assert best.probability == pytest.approx(posterior.max(), rel=1e-9)
    second = engine.mpe(evidence, top=2)[1]
    assert second.probability == pytest.approx(np.sort(posterior)[-2], rel=1e-9)


def test_impossible_evidence_and_bad_top_are_one_line_errors():
    net = network_from_dsl("A->B", cpts={"A": [1.0, 0.0], "B": [[1.0, 0.0], [0.5, 0.5]]})
    engine = InferenceEngine(net)
    with pytest.raises(ImpossibleEvidence, match="B=s1"):
        engine.mpe({"B": "s1"})
    with pytest.raises(ImpossibleEvidence):
        engine.map(["A"], {"B": "s1"})
    for bad in (0, -1, 2.5, True):
        with pytest.raises(EvidenceError, match="top"):
            engine.mpe(top=bad)


# ---------------------------------------------------------------------------------------------------- MAP
@st.composite
def map_cases(draw):
    net, evidence = draw(networks_with_evidence())
    free = [v for v in net.variables if v not in evidence]
    if not free:
        free = [net.variables[0]]
        evidence = {k: s for k, s in evidence.items() if k != free[0]}
    chosen = draw(st.lists(st.sampled_from(free), min_size=1, max_size=len(free), unique=True))
    return net, evidence, chosen


def _brute_map(net, evidence, variables):
    table = weighted_joint(net, evidence)
    names = net.variables
    keep = [names.index(v) for v in variables]
    marginal = table.sum(axis=tuple(k for k in range(len(names)) if k not in keep))
    marginal = marginal.transpose(np.argsort(np.argsort(keep))) / table.sum()
    return marginal


@settings(max_examples=60, deadline=None)
@given(case=map_cases())
def test_map_matches_enumeration(case):
    net, evidence, variables = case
    marginal = _brute_map(net, evidence, variables)
    result = InferenceEngine(net).map(variables, evidence)
    assert result.exact and result.method == "elimination"
    assert result.probability == pytest.approx(marginal.max(), rel=1e-9)
    index = tuple(net.states(v).index(result.assignment[v]) for v in variables)
    assert marginal[index] == pytest.approx(marginal.max(), rel=1e-9)
    assert result.lower == result.upper == result.probability


@settings(max_examples=40, deadline=None)
@given(case=map_cases())
def test_map_search_is_labelled_and_bounds_the_exact_answer(case):
    net, evidence, variables = case
    marginal = _brute_map(net, evidence, variables)
    result = InferenceEngine(net).map(variables, evidence, method="search")
    assert not result.exact and result.method == "local search"
    index = tuple(net.states(v).index(result.assignment[v]) for v in variables)
    assert marginal[index] == pytest.approx(result.probability, rel=1e-9, abs=1e-15)
    assert result.lower <= marginal.max() * (1 + 1e-9) and marginal.max() <= result.upper * (1 + 1e-9)


def test_map_over_every_unobserved_variable_is_the_mpe():
    net = network_from_dsl("A->B; B->C; A->C; C->D", seed=5)
    engine = InferenceEngine(net)
    evidence = {"D": "s0"}
    mpe = engine.mpe(evidence).best
    result = engine.map(["A", "B", "C"], evidence)
    assert result.probability == pytest.approx(mpe.probability, rel=1e-12)
    assert result.log_joint == pytest.approx(mpe.log_joint, abs=1e-12)


def test_map_falls_back_to_a_labelled_search_when_the_constrained_order_does_not_fit():
    # a hidden chain H0 -> ... -> H7 with a 3-state child Mi of each Hi: the junction tree has cliques of 2
    # variables, but summing the chain out first joins every Mi (3^8 = 6,561 entries > the budget's 1,000)
    n = 8
    arcs = [f"H{i}->H{i + 1}" for i in range(n - 1)] + [f"H{i}->M{i}" for i in range(n)]
    net = network_from_dsl("; ".join(arcs), seed=4, states={f"M{i}": ["a", "b", "c"] for i in range(n)})
    variables = [f"M{i}" for i in range(n)]
    evidence = {"H0": [0.3, 1.0]}  # soft: it does not cut the chain
    small = InferenceEngine(net, memory_budget=8 * 1000)
    with pytest.raises(MemoryBudgetExceeded, match="method='search'"):
        small.map(variables, evidence, method="exact")
    approx = small.map(variables, evidence)
    best = _brute_map(net, evidence, variables).max()
    assert not approx.exact and approx.method == "local search"
    assert approx.lower <= best * (1 + 1e-12) and best <= approx.upper * (1 + 1e-12)
    assert InferenceEngine(net).map(variables, evidence).probability == pytest.approx(best, rel=1e-9)


def test_map_bad_input_is_named():
    net = network_from_dsl("A->B", seed=0)
    engine = InferenceEngine(net)
    with pytest.raises(UnknownVariableError, match="'Z'"):
        engine.map(["Z"])
    with pytest.raises(EvidenceError, match="'A' is also in the evidence"):
        engine.map(["A"], {"A": "s0"})
    with pytest.raises(EvidenceError, match="at least one"):
        engine.map([])
    with pytest.raises(EvidenceError, match="repeat"):
        engine.map(["A", "A"])
    with pytest.raises(EvidenceError, match="method"):
        engine.map(["A"], method="fast")


def test_explanations_show_in_notebooks_and_come_from_the_facade():
    import bnstudio

    net = network_from_dsl("A->B", seed=1)
    engine = bnstudio.InferenceEngine(net)
    found = engine.mpe(top=2)
    assert isinstance(found, bnstudio.Explanations) and isinstance(found.best, bnstudio.Explanation)
    html = found._repr_html_()
    assert "#2" in html and "p(x | e)" in html and found.best.assignment["B"] in html
    approx = engine.map(["A"], method="search")
    assert isinstance(approx, bnstudio.MapExplanation) and "approximate (local search)" in approx._repr_html_()
