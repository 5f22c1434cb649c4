"""Relevance pruning (barren nodes, evidence absorption, d-separated components) answers exactly what the whole
junction tree answers — brute force being the judge — on random networks whose CPTs have zeros, so that much of
the evidence drawn is impossible, some of it far from the target; impossible evidence is always reported."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from bnstudio.core import Network, network_from_dsl
from bnstudio.errors import ImpossibleEvidence
from bnstudio.inference import InferenceEngine
from bnstudio.inference.pruning import ancestral_set, relevance
from bnstudio.inference.variable_elimination import possible
from tests.brute import marginal, weighted_joint


def network_with_zeros(rng: np.random.Generator, n: int) -> Network:
    """A random DAG (arcs i -> j, i < j) with 2-3 states; about a third of the CPT entries set to 0 (every row
    keeps a positive entry) — deterministic parts like those of munin, pigs or link."""
    names = [f"V{i}" for i in range(n)]
    arcs = [f"{names[i]}->{names[j]}" for j in range(n) for i in range(j) if rng.random() < 0.35]
    states = {v: [f"{v}s{k}" for k in range(int(rng.integers(2, 4)))] for v in names}
    net = network_from_dsl("; ".join(arcs + names), seed=int(rng.integers(2**31)), states=states)
    for var in names:
        cpt = np.array(net.cpt(var))
        cpt[rng.random(cpt.shape) < 0.35] = 0.0
        empty = cpt.sum(axis=-1) == 0
        cpt[empty, rng.integers(cpt.shape[-1])] = 1.0
        net.set_cpt(var, cpt / cpt.sum(axis=-1, keepdims=True))
    return net


def random_evidence(rng: np.random.Generator, net: Network) -> dict:
    """1 to n-1 findings: hard states drawn uniformly (often impossible) or likelihoods, sometimes with zeros."""
    evidence: dict = {}
    for k in rng.permutation(len(net))[: int(rng.integers(1, len(net)))]:
        var = net.variables[k]
        if rng.random() < 0.7:
            evidence[var] = net.states(var)[int(rng.integers(net.cardinality(var)))]
        else:
            lam = rng.random(net.cardinality(var)) * (rng.random(net.cardinality(var)) < 0.8)
            lam[int(rng.integers(lam.size))] += 0.1
            evidence[var] = list(lam)
    return evidence


@pytest.mark.parametrize("seed", range(30))
def test_pruned_elimination_equals_the_whole_tree_and_brute_force(seed):
    rng = np.random.default_rng(seed)
    net = network_with_zeros(rng, int(rng.integers(5, 9)))
    names = net.variables
    engines = [InferenceEngine(net, method=m) for m in ("junction-tree", "elimination", "auto")]
    for _ in range(4):
        evidence = random_evidence(rng, net)
        table = weighted_joint(net, evidence)
        possible_e = table.sum() > 0
        for engine in engines:
            assert engine.log_evidence(evidence) == pytest.approx(math.log(table.sum()) if possible_e else -math.inf,
                                                                  abs=1e-9)
            for target in names:
                if possible_e:
                    np.testing.assert_allclose(engine.posterior(target, evidence)[target],
                                               marginal(table, [names.index(target)]), atol=1e-10)
                else:
                    with pytest.raises(ImpossibleEvidence):
                        engine.posterior(target, evidence)
            pair = [names[0], names[-1]]
            if possible_e:
                np.testing.assert_allclose(engine.joint(pair, evidence), marginal(table, [0, len(names) - 1]),
                                           atol=1e-10)
            else:
                with pytest.raises(ImpossibleEvidence):
                    engine.joint(pair, evidence)


def test_the_random_cases_include_evidence_impossible_only_far_from_the_target():
    """The test above exercises the check of the components the answer does not need: evidence that is
    impossible while the target's own component is fine."""
    far = 0
    for seed in range(30):
        rng = np.random.default_rng(seed)
        net = network_with_zeros(rng, int(rng.integers(5, 9)))
        engine = InferenceEngine(net, method="elimination")
        cs = engine.compiled
        for _ in range(4):
            evidence = random_evidence(rng, net)
            if weighted_joint(net, evidence).sum() > 0:
                continue
            lams = {cs.index.index(v): None for v in evidence}
            for target in range(len(net)):
                hard = {cs.index.index(v) for v, s in evidence.items() if isinstance(s, str)} - {target}
                plan = relevance(cs.families, cs.parents, [target], lams, hard)
                far += bool(plan.others())
    assert far > 20


NET = network_from_dsl("A->B; C->D1; C->D2", cpts={
    "A": [0.3, 0.7], "B": [[0.9, 0.1], [0.2, 0.8]], "C": [0.5, 0.5],
    "D1": [[1.0, 0.0], [0.0, 1.0]],     # D1 = C
    "D2": [[0.0, 1.0], [1.0, 0.0]]})    # D2 = not C


def test_jointly_impossible_findings_d_separated_from_the_target_are_reported():
    engine = InferenceEngine(NET)
    # each finding alone is possible, together they are not; A is d-separated from both
    assert engine.posterior("A", {"D1": "s0"})["A"] == pytest.approx([0.3, 0.7])
    assert engine.posterior("A", {"D2": "s0", "B": "s1"})["A"][0] == pytest.approx(0.3 * 0.1 / (0.03 + 0.56))
    for evidence in ({"D1": "s0", "D2": "s0"}, {"D1": "s0", "D2": "s0", "B": "s1"},
                     {"D1": "s1", "D2": [0.0, 1.0]}):
        with pytest.raises(ImpossibleEvidence, match="impossible evidence"):
            engine.posterior("A", evidence)
        with pytest.raises(ImpossibleEvidence):
            engine.joint(["A", "B"], evidence)
        assert engine.log_evidence(evidence) == -math.inf


def test_support_check_matches_enumeration():
    rng = np.random.default_rng(5)
    cards = [2, 3, 2, 2, 3]
    for _ in range(200):
        factors = []
        for _ in range(int(rng.integers(1, 6))):
            scope = tuple(int(v) for v in rng.choice(5, size=int(rng.integers(0, 4)), replace=False))
            table = rng.random(tuple(cards[v] for v in scope)) * (rng.random(tuple(cards[v] for v in scope)) < 0.6)
            factors.append((table, scope))
        expected = any(all(table[tuple(x[v] for v in scope)] > 0 for table, scope in factors)
                       for x in itertools.product(*(range(c) for c in cards)))
        assert possible(factors, cards, 1e9) == expected


def test_relevance_drops_barren_and_d_separated_variables():
    # A -> B -> C, A -> D, E -> B: with B observed, C is barren for p(A | B) and E is needed (collider B)
    net = network_from_dsl("A->B; B->C; A->D; E->B", seed=1)
    cs = InferenceEngine(net).compiled
    index = cs.index.index
    plan = relevance(cs.families, cs.parents, [index("A")], [index("B")], [index("B")])
    assert {cs.index.names[v] for v in plan.requisite()} == {"A", "B", "E"}
    # D observed as well, but d-separated from E given nothing on B: only A's side
    plan = relevance(cs.families, cs.parents, [index("E")], [index("D")], [index("D")])
    assert {cs.index.names[v] for v in plan.requisite()} == {"E"}
    assert [{cs.index.names[v] for v in c} for c in plan.others()] == [{"A", "D"}]  # D's CPT, sliced, is on A


@pytest.mark.parametrize("seed", range(10))
def test_a_batch_on_the_tree_of_its_ancestral_part_equals_the_whole_tree(seed):
    rng = np.random.default_rng(100 + seed)
    net = network_from_dsl("; ".join([f"V{j}->V{i}" for i in range(9) for j in range(i) if rng.random() < 0.3]
                                     + [f"V{i}" for i in range(9)]), seed=seed)
    names = net.variables
    observed = [int(k) for k in rng.choice(9, size=2, replace=False)]
    codes = np.full((25, 9), -1)
    for k in observed:
        codes[:, k] = rng.integers(-1, net.cardinality(names[k]), size=25)
    target = names[int(rng.integers(9))]
    pruned = InferenceEngine(net)
    whole = InferenceEngine(net, method="junction-tree")
    got = pruned.posterior_batch(target, codes)[target]
    np.testing.assert_allclose(got, whole.posterior_batch(target, codes)[target], atol=1e-12)
    np.testing.assert_allclose(pruned.log_evidence_batch(codes), whole.log_evidence_batch(codes), atol=1e-12)
    cs = pruned.compiled
    region = ancestral_set(cs.parents, [names.index(target)] + observed)
    assert cs.has_full_tree == (len(region) == len(names))  # the whole network's tree only when needed
