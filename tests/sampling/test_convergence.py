"""Samples converge to the exact distribution: chi-square checks against the engine, with negative controls
showing the same checks reject deliberately wrong samplers; likelihood weighting converges to posteriors."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chisquare

from bnstudio.core.network import Network
from bnstudio.errors import ImpossibleEvidence, UnknownStateError
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from bnstudio.sampling import estimate_posterior, forward_sample, likelihood_weighting

NETWORKS = Path(__file__).resolve().parents[2] / "resources" / "networks"
N, SEED, ALPHA = 20000, 11, 1e-4


def _net(name: str) -> Network:
    return read_network(NETWORKS / f"{name}.bif")


def chi_square_p(counts: np.ndarray, probs: np.ndarray) -> float:
    """Goodness-of-fit p-value of ``counts`` against ``probs``; cells expecting < 5 are pooled, and a count
    in a zero-probability cell is an outright rejection (p = 0)."""
    counts, probs = np.ravel(counts), np.ravel(probs)
    if np.any(counts[probs <= 0] > 0):
        return 0.0
    counts, probs = counts[probs > 0], probs[probs > 0]
    expected = probs * counts.sum()
    small = expected < 5
    observed = np.append(counts[~small], counts[small].sum()) if small.any() else counts
    expected = np.append(expected[~small], expected[small].sum()) if small.any() else expected
    if observed.size < 2:
        return 1.0
    return float(chisquare(observed, expected * observed.sum() / expected.sum()).pvalue)


def marginal_p_values(net: Network, codes: np.ndarray) -> dict[str, float]:
    """Per variable, the p-value of the sampled state frequencies against the exact marginal."""
    exact = InferenceEngine(net).posterior(net.variables)
    return {v: chi_square_p(np.bincount(codes[:, k], minlength=net.cardinality(v)), exact[v])
            for k, v in enumerate(net.variables)}


def joint_p_value(net: Network, codes: np.ndarray, parent: str, child: str) -> float:
    i, j = net.variables.index(parent), net.variables.index(child)
    counts = np.zeros((net.cardinality(parent), net.cardinality(child)))
    np.add.at(counts, (codes[:, i], codes[:, j]), 1)
    return chi_square_p(counts, InferenceEngine(net).joint([parent, child]))


# ---------------------------------------------------------------- deliberately wrong samplers
def sampler_with_reversed_parent_order(net: Network, n: int, seed: int) -> np.ndarray:
    """Reads each CPT row with the parents' mixed-radix index in reverse order (a classic indexing bug)."""
    wrong = net.copy()
    for v in net.variables:
        cpt, k = net.cpt(v), len(net.parents(v))
        if k > 1:
            misread = cpt.reshape(cpt.shape[:-1][::-1] + cpt.shape[-1:])
            wrong.set_cpt(v, misread.transpose(tuple(range(k - 1, -1, -1)) + (k,)))
    return forward_sample(wrong, n, seed)


def sampler_using_the_first_row(net: Network, n: int, seed: int) -> np.ndarray:
    """Ignores the parents: always draws from the first row of each CPT."""
    wrong = net.copy()
    for v in net.variables:
        cpt = net.cpt(v)
        wrong.set_cpt(v, np.broadcast_to(cpt[(0,) * (cpt.ndim - 1)], cpt.shape))
    return forward_sample(wrong, n, seed)


# ---------------------------------------------------------------- forward sampling
@pytest.mark.parametrize("name", ["asia", "alarm"])
def test_marginal_frequencies_fit_the_exact_marginals(name):
    net = _net(name)
    p = marginal_p_values(net, forward_sample(net, N, SEED))
    assert min(p.values()) > ALPHA, {v: x for v, x in p.items() if x <= ALPHA}


@pytest.mark.parametrize("name", ["asia", "alarm"])
@pytest.mark.parametrize("wrong_sampler", [sampler_with_reversed_parent_order, sampler_using_the_first_row])
def test_the_same_check_rejects_a_wrong_sampler(name, wrong_sampler):
    net = _net(name)
    p = marginal_p_values(net, wrong_sampler(net, N, SEED))
    assert min(p.values()) < ALPHA


@pytest.mark.parametrize("name", ["asia", "alarm"])
def test_parent_child_joint_frequencies_fit_the_exact_joint(name):
    net = _net(name)
    codes = forward_sample(net, N, SEED)
    p = {arc: joint_p_value(net, codes, *arc) for arc in net.arcs()}
    assert min(p.values()) > ALPHA, {a: x for a, x in p.items() if x <= ALPHA}


def test_the_joint_check_rejects_a_wrong_sampler():
    net = _net("asia")
    codes = sampler_with_reversed_parent_order(net, N, SEED)
    assert joint_p_value(net, codes, "bronc", "dysp") < ALPHA


def test_sampling_is_reproducible_and_accepts_a_generator():
    net = _net("alarm")
    a, b = forward_sample(net, 500, seed=5), forward_sample(net, 500, seed=5)
    assert np.array_equal(a, b) and a.dtype == np.int64 and a.shape == (500, 37)
    assert not np.array_equal(a, forward_sample(net, 500, seed=6))
    assert np.array_equal(a, forward_sample(net, 500, np.random.default_rng(5)))


# ---------------------------------------------------------------- likelihood weighting
@pytest.mark.parametrize("evidence", [
    {"xray": "yes", "dysp": "yes"},
    {"asia": "yes", "smoke": "no", "xray": "no"},
    {"either": "yes"},
])
def test_likelihood_weighting_converges_to_the_exact_posterior(evidence):
    net = _net("asia")
    exact = InferenceEngine(net).posterior(net.variables, evidence)
    for k, target in enumerate(net.variables):
        estimate = estimate_posterior(net, target, evidence, 50000, seed=100 + k)
        np.testing.assert_allclose(estimate, exact[target], atol=0.02, err_msg=target)


def test_weights_estimate_the_probability_of_the_evidence():
    net = _net("asia")
    evidence = {"xray": "yes", "dysp": "yes"}
    codes, weights = likelihood_weighting(net, evidence, 50000, seed=3)
    p_e = np.exp(InferenceEngine(net).log_evidence(evidence))
    assert weights.shape == (50000,) and abs(weights.mean() - p_e) < 0.05 * p_e
    assert np.all(codes[:, net.variables.index("xray")] == 0) and np.all(codes[:, net.variables.index("dysp")] == 0)


def test_likelihood_weighting_checks_its_evidence():
    net = _net("asia")
    with pytest.raises(ImpossibleEvidence):
        estimate_posterior(net, "lung", {"either": "no", "tub": "yes"}, 1000, seed=1)
    with pytest.raises(UnknownStateError, match="maybe"):
        likelihood_weighting(net, {"xray": "maybe"}, 10, seed=1)
    np.testing.assert_array_equal(estimate_posterior(net, "xray", {"xray": "no"}, 100, seed=1), [0.0, 1.0])
