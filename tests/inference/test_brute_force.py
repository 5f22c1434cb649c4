"""The compiled engine (both methods) against brute-force enumeration on random DAGs and CPTs."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bnstudio.core import Network, network_from_dsl
from bnstudio.inference import InferenceEngine
from tests.brute import joint_table, marginal, weighted_joint

METHODS = ["junction-tree", "elimination"]


@st.composite
def random_networks(draw) -> Network:
    """A random DAG (arcs only from earlier to later variables) with 2-4 states and random CPTs."""
    n = draw(st.integers(2, 7))
    names = [f"V{i}" for i in range(n)]
    arcs = [f"{names[i]}->{names[j]}" for j in range(n) for i in range(j)
            if draw(st.floats(0, 1)) < 0.45]
    states = {v: [f"{v}s{k}" for k in range(draw(st.integers(2, 4)))] for v in names}
    seed = draw(st.integers(0, 2**31 - 1))
    # sparse CPTs (concentration 0.5) exercise zeros-near-zero rows
    return network_from_dsl("; ".join(arcs + names), seed=seed, states=states, concentration=0.5)


@st.composite
def networks_with_evidence(draw):
    net = draw(random_networks())
    names = net.variables
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    table = joint_table(net)
    evidence: dict = {}
    for k in rng.permutation(len(names))[: draw(st.integers(0, len(names) - 1))]:
        var = names[k]
        if draw(st.booleans()):
            evidence[var] = list(rng.random(net.cardinality(var)) + 0.05)   # soft
        else:
            # a state with positive probability under the evidence so far
            probs = marginal(weighted_joint(net, evidence), [k]) if evidence else marginal(table, [k])
            evidence[var] = net.states(var)[int(np.argmax(probs))]
    return net, evidence


@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=60, deadline=None)
@given(case=networks_with_evidence())
def test_posteriors_joint_and_evidence_match_enumeration(method, case):
    net, evidence = case
    engine = InferenceEngine(net, method=method)
    table = weighted_joint(net, evidence)
    names = net.variables
    posterior = engine.posterior(names, evidence)
    for k, var in enumerate(names):
        np.testing.assert_allclose(posterior[var], marginal(table, [k]), atol=1e-10)
    assert engine.probability_of_evidence(evidence) == pytest.approx(table.sum(), rel=1e-10, abs=1e-300)
    pair = names[-2:][::-1]
    np.testing.assert_allclose(engine.joint(pair, evidence),
                               marginal(table, [names.index(v) for v in pair]), atol=1e-10)
    query = {v: net.states(v)[0] for v in names[:2]}
    expected = marginal(table, [0, 1])[0, 0]
    assert engine.query_probability(query, evidence) == pytest.approx(expected, abs=1e-10)


@settings(max_examples=40, deadline=None)
@given(case=networks_with_evidence())
def test_family_marginals_match_enumeration(case):
    net, evidence = case
    table = weighted_joint(net, evidence)
    names = net.variables
    for method in METHODS:
        fams = InferenceEngine(net, method=method).family_marginals(evidence)
        for var in names:
            axes = [names.index(p) for p in net.parents(var)] + [names.index(var)]
            np.testing.assert_allclose(fams[var], marginal(table, axes), atol=1e-10)


def _sample_codes(net: Network, n: int, missing: float, rng) -> np.ndarray:
    from bnstudio.sampling import forward_sample
    codes = forward_sample(net, n, seed=int(rng.integers(2**31)))
    codes[rng.random(codes.shape) < missing] = -1
    return codes


@settings(max_examples=30, deadline=None)
@given(net=random_networks(), seed=st.integers(0, 2**31 - 1))
def test_batched_cases_equal_per_case_answers(net, seed):
    rng = np.random.default_rng(seed)
    names = net.variables
    codes = _sample_codes(net, 12, 0.4, rng)
    engine = InferenceEngine(net)
    post = engine.posterior_batch(names, codes)
    logs = engine.log_evidence_batch(codes)
    fams = engine.family_marginals_batch(codes, reduce=False)
    weights = rng.random(len(codes))
    counts = engine.family_marginals_batch(codes, weights=weights)
    for n, row in enumerate(codes):
        evidence = {v: net.states(v)[c] for v, c in zip(names, row, strict=True) if c >= 0}
        single = engine.posterior(names, evidence)
        assert logs[n] == pytest.approx(engine.log_evidence(evidence), abs=1e-9)
        single_fams = engine.family_marginals(evidence)
        for var in names:
            np.testing.assert_allclose(post[var][n], single[var], atol=1e-12)
            np.testing.assert_allclose(fams[var][n], single_fams[var], atol=1e-12)
    for var in names:
        np.testing.assert_allclose(counts[var], np.tensordot(weights, fams[var], axes=1), atol=1e-10)


@settings(max_examples=25, deadline=None)
@given(net=random_networks(), seed=st.integers(0, 2**31 - 1))
def test_parameter_sets_equal_one_network_per_set(net, seed):
    """S parameter sets on a leading axis give the answers of S separate networks."""
    rng = np.random.default_rng(seed)
    names = net.variables
    S = 3
    params = {v: rng.dirichlet(np.ones(net.cardinality(v)), size=(S,) + net.family_shape(v)[:-1]) for v in names[:2]}
    codes = _sample_codes(net, 5, 0.5, rng)
    engine = InferenceEngine(net)
    post = engine.posterior_batch(names, codes, parameters=params)
    counts = engine.family_marginals_batch(codes, parameters=params)
    logs = engine.log_evidence_batch(codes, parameters=params)
    for s in range(S):
        other = net.copy()
        other.set_parameters({v: params[v][s] for v in params})
        ref = InferenceEngine(other)
        ref_post = ref.posterior_batch(names, codes)
        ref_counts = ref.family_marginals_batch(codes)
        np.testing.assert_allclose(logs[s], ref.log_evidence_batch(codes), atol=1e-10)
        for var in names:
            np.testing.assert_allclose(post[var][s], ref_post[var], atol=1e-12)
            np.testing.assert_allclose(counts[var][s], ref_counts[var], atol=1e-10)


def test_soft_evidence_on_a_target_and_hard_evidence_target():
    net = network_from_dsl("A->B; B->C", seed=3)
    engine = InferenceEngine(net)
    table = weighted_joint(net, {"B": [0.3, 0.9], "C": "s1"})
    post = engine.posterior(["A", "B", "C"], {"B": [0.3, 0.9], "C": "s1"})
    np.testing.assert_allclose(post["B"], marginal(table, [1]), atol=1e-12)
    np.testing.assert_allclose(post["C"], [0.0, 1.0])


def test_parameter_edit_reuses_the_compiled_structure_and_structural_edit_recompiles():
    net = network_from_dsl("A->B; B->C", seed=4)
    engine = InferenceEngine(net)
    compiled = engine.compiled
    net.set_cpt("A", [0.9, 0.1])
    assert engine.compiled is compiled
    np.testing.assert_allclose(engine.posterior("C")["C"], marginal(joint_table(net), [2]), atol=1e-12)
    net.add_arc("A", "C")
    assert engine.compiled is not compiled
    np.testing.assert_allclose(engine.posterior("C")["C"], marginal(joint_table(net), [2]), atol=1e-12)
