"""Theorem 2 against the explicit delta method q'ᵀΣq' (finite differences on brute force) and Singh App. C."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bnstudio.core import network_from_dsl
from bnstudio.uncertainty import delta_method, dirichlet_counts


def brute_query(net, cpts, query, evidence) -> float:
    """p(q | e) from the full joint, with raw (possibly unnormalised) CPT entries."""
    names = net.variables
    cards = [net.cardinality(v) for v in names]
    table = np.ones(cards)
    for i, v in enumerate(names):
        family = [names.index(p) for p in net.parents(v)] + [i]
        shape = [cards[k] if k in family else 1 for k in range(len(names))]
        table = table * cpts[v].transpose(np.argsort(family)).reshape(shape)
    def mass(assignment):
        index = tuple(net.states(v).index(assignment[v]) if v in assignment else slice(None) for v in names)
        return table[index].sum()
    return mass({**evidence, **query}) / mass(evidence)


def explicit_delta_variance(net, alpha, query, evidence, eps=1e-6) -> float:
    """q'ᵀ Σ q' with Σ the block-diagonal Dirichlet covariance (Singh eq 3.9) and q' by central differences."""
    cpts = {v: np.array(net.cpt(v)) for v in net.variables}
    total = 0.0
    for v in net.variables:
        for row in np.ndindex(*net.family_shape(v)[:-1]):
            theta = cpts[v][row]
            grad = np.zeros_like(theta)
            for x in range(len(theta)):
                up = {k: t.copy() for k, t in cpts.items()}
                down = {k: t.copy() for k, t in cpts.items()}
                up[v][row + (x,)] += eps
                down[v][row + (x,)] -= eps
                grad[x] = (brute_query(net, up, query, evidence) - brute_query(net, down, query, evidence)) / (2 * eps)
            a0 = alpha[v][row].sum()
            sigma = (np.diag(theta) - np.outer(theta, theta)) / (a0 + 1)
            total += grad @ sigma @ grad
    return total


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), n_evidence=st.integers(0, 2), joint=st.booleans())
def test_theorem_2_equals_the_explicit_delta_method(seed, n_evidence, joint):
    rng = np.random.default_rng(seed)
    net = network_from_dsl("A->B; A,B->C; C->D; B->E", seed=seed, states={"C": ["x", "y", "z"]}, concentration=2.0)
    for v in net.variables:   # random Dirichlet counts whose means are the CPTs
        net.set_alpha(v, net.cpt(v) * rng.uniform(2, 30, size=net.family_shape(v)[:-1])[..., None])
    alpha = dirichlet_counts(net)
    names = list(rng.permutation(net.variables))
    query = {names[0]: net.states(names[0])[0]}
    if joint:
        query[names[1]] = net.states(names[1])[1]
    evidence = {v: net.states(v)[int(rng.integers(net.cardinality(v)))] for v in names[2:2 + n_evidence]}
    result = delta_method(net, alpha, query, evidence)
    expected = explicit_delta_variance(net, alpha, query, evidence)
    assert result.variance == pytest.approx(expected, abs=1e-9, rel=1e-6)
    assert result.mean == pytest.approx(brute_query(net, {v: np.array(net.cpt(v)) for v in net.variables},
                                                     query, evidence), abs=1e-12)
    contributions = sum(c.variance for c in result.contributions)
    assert contributions == pytest.approx(result.variance, rel=1e-10, abs=1e-15)
    assert all(a.variance >= b.variance for a, b in zip(result.contributions, result.contributions[1:], strict=False))


def test_naive_bayes_closed_form_of_appendix_c():
    """Binary class H: σ² = C/(m_H+1)·Σ_h 1/θ_h + Σ_{evidenced E_j} Σ_h C·(1/θ_{e_j|h} − 1)/(m_{E_j|h}+1),
    with C = [p(h|e) − p(h|e)²]²; unevidenced children contribute nothing (Singh App. C)."""
    net = network_from_dsl("H->E1,E2,E3,X1,X2", seed=4, states={"E2": ["a", "b", "c"]}, concentration=3.0)
    rng = np.random.default_rng(0)
    for v in net.variables:
        net.set_alpha(v, net.cpt(v) * rng.uniform(5, 50, size=net.family_shape(v)[:-1])[..., None])
    evidence = {"E1": "s1", "E2": "c", "E3": "s0"}
    result = delta_method(net, dirichlet_counts(net), {"H": "s0"}, evidence)
    from bnstudio.inference import InferenceEngine
    p = InferenceEngine(net).posterior("H", evidence)["H"][0]
    c = (p - p * p) ** 2
    theta_h, m_h = net.cpt("H"), net.alpha("H").sum()
    expected = c / (m_h + 1) * (1 / theta_h).sum()
    for e, state in evidence.items():
        k = net.states(e).index(state)
        for h in range(2):
            expected += c * (1 / net.cpt(e)[h, k] - 1) / (net.alpha(e)[h].sum() + 1)
    assert result.variance == pytest.approx(expected, rel=1e-10)
    assert np.all(result.row_variance["X1"] < 1e-18) and np.all(result.row_variance["X2"] < 1e-18)


def test_sensitivities_are_the_derivatives_of_the_query():
    net = network_from_dsl("A->B; B->C", seed=9, concentration=2.0)
    for v in net.variables:
        net.set_alpha(v, 10 * net.cpt(v))
    result = delta_method(net, dirichlet_counts(net), {"A": "s0"}, {"C": "s1"})
    cpts = {v: np.array(net.cpt(v)) for v in net.variables}
    up = {k: t.copy() for k, t in cpts.items()}
    up["B"][1, 0] += 1e-6
    down = {k: t.copy() for k, t in cpts.items()}
    down["B"][1, 0] -= 1e-6
    numeric = (brute_query(net, up, {"A": "s0"}, {"C": "s1"}) - brute_query(net, down, {"A": "s0"}, {"C": "s1"})) / 2e-6
    assert result.derivatives["B"][1, 0] == pytest.approx(numeric, rel=1e-6)
