"""Answers equal pyAgrum's to 1e-9 (issue 26) on every path a query can take — a fresh engine (relevance pruning
and elimination, nothing compiled), a warm one (pruned elimination or the whole tree, whichever is cheaper),
either method forced, all marginals at once and a batch — with brute force as a third judge on small networks.

pyAgrum's BIF reader parses probabilities as 32-bit floats (0.9 becomes 0.89999998), which alone moves its
answers by ~1e-8; here both engines are given the same double-precision tables (pyAgrum's network is made from
ours), rows divided by their sums as our engine uses them."""
from __future__ import annotations

import math

import numpy as np
import pytest

from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.errors import ImpossibleEvidence
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from tests.brute import marginal, weighted_joint
from tests.inference.test_against_pgmpy import seeded_queries
from tests.inference.test_relevance import network_with_zeros, random_evidence

gum = pytest.importorskip("pyagrum")
pgmpy = pytest.importorskip("pgmpy")
from bnstudio.interop import to_pyagrum  # noqa: E402 (after the skip: it needs pyAgrum)

MODELS = pgmpy.__file__.rsplit("/", 1)[0] + "/utils/example_models"
EXACT = 1e-9


def pyagrum_posterior(bn, target: str, evidence: dict, states) -> np.ndarray:
    """LazyPropagation told only this target (so it computes what the target needs), in our state order."""
    engine = gum.LazyPropagation(bn)
    engine.addTarget(target)
    engine.setEvidence({v: (list(map(float, e)) if not isinstance(e, str) else e) for v, e in evidence.items()})
    posterior = engine.posterior(target).toarray()
    return posterior[[bn.variable(target).labels().index(s) for s in states]]


def engines(net):
    """A fresh engine per call (cold), and kept engines for each method (warm)."""
    kept = {m: InferenceEngine(net, method=m) for m in ("auto", "elimination", "junction-tree")}
    return [("cold", lambda: InferenceEngine(net))] + [(m, lambda e=e: e) for m, e in kept.items()]


@pytest.mark.parametrize("seed", range(25))
def test_random_networks_and_evidence_match_pyagrum_and_brute_force(seed):
    rng = np.random.default_rng(500 + seed)
    net = network_with_zeros(rng, int(rng.integers(4, 9)))
    bn = to_pyagrum(net)
    names = net.variables
    for _ in range(5):
        evidence = random_evidence(rng, net)
        table = weighted_joint(net, evidence)
        for label, engine in engines(net):
            for target in names:
                if table.sum() <= 0:
                    with pytest.raises(ImpossibleEvidence):
                        engine().posterior(target, evidence)
                    continue
                ours = engine().posterior(target, evidence)[target]
                truth = marginal(table, [names.index(target)])
                np.testing.assert_allclose(ours, truth, atol=1e-12, err_msg=f"{label}: p({target} | {evidence})")
                if target in evidence:  # pyAgrum answers an observed target with its finding, unweighted
                    continue
                np.testing.assert_allclose(ours, pyagrum_posterior(bn, target, evidence, net.states(target)),
                                           atol=EXACT, err_msg=f"{label}: p({target} | {evidence}) vs pyAgrum")


def test_the_random_cases_reach_pyagrum_comparisons():
    """Possible evidence is drawn often enough that the comparison above runs on most networks."""
    hits = 0
    for seed in range(25):
        rng = np.random.default_rng(500 + seed)
        net = network_with_zeros(rng, int(rng.integers(4, 9)))
        hits += any(weighted_joint(net, random_evidence(rng, net)).sum() > 0 for _ in range(5))
    assert hits >= 20


def exact_twins(name: str):
    path = f"{MODELS}/{name}.bif.gz"
    try:
        net = read_network(path)
    except Exception:  # a pgmpy without this file
        pytest.skip(f"{path} not shipped by this pgmpy")
    for var in net.variables:
        net.set_cpt(var, normalise_rows(np.asarray(net.cpt(var))))
    return net, to_pyagrum(net)


@pytest.mark.parametrize("name", ["alarm", "pathfinder", "pigs", "andes"])
def test_bnlearn_networks_match_pyagrum_to_1e_9(name):
    net, bn = exact_twins(name)
    queries = seeded_queries(net, 16, seed=11)
    warm = InferenceEngine(net)
    for target, evidence in queries:
        theirs = pyagrum_posterior(bn, target, evidence, net.states(target))
        np.testing.assert_allclose(InferenceEngine(net).posterior(target, evidence)[target], theirs, atol=EXACT)
        np.testing.assert_allclose(warm.posterior(target, evidence)[target], theirs, atol=EXACT)
    evidence = next(e for _, e in queries if e)
    everything = warm.posterior(net.variables, evidence)
    for var in net.variables[::5]:
        np.testing.assert_allclose(everything[var], pyagrum_posterior(bn, var, evidence, net.states(var)),
                                   atol=EXACT)
    target = queries[0][0]
    names = net.variables
    codes = np.full((len(queries), len(names)), -1)
    for k, (_, ev) in enumerate(queries):
        for var, state in ev.items():
            if var != target:
                codes[k, names.index(var)] = net.states(var).index(state)
    batch = warm.posterior_batch(target, codes)[target]
    for k, (_, ev) in enumerate(queries):
        ev = {v: s for v, s in ev.items() if v != target}
        np.testing.assert_allclose(batch[k], pyagrum_posterior(bn, target, ev, net.states(target)), atol=EXACT)
    p_e = gum.LazyPropagation(bn)
    p_e.setEvidence(evidence)
    assert warm.log_evidence(evidence) == pytest.approx(math.log(p_e.evidenceProbability()), abs=1e-9)
