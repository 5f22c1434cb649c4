"""Wide data (issue 29): one-state attributes never get a numpy axis, and long products never underflow.

* A class with 70 one-state children and 5 binary ones (what MDL makes of irrelevant numeric columns) used to
  put all 70 in one clique and fail with "maximum supported dimension for an ndarray is currently 64" in
  every batched path; a naive Bayes with 100 binary children must work in every path too.
* A naive Bayes with 1,000 observed binary attributes has p(e) ≈ 1e-400: the posterior used to raise
  ImpossibleEvidence. Answers are checked against a log-space brute force: log p(c | x) = log p(c) +
  Σ_i log p(x_i | c), normalised with logsumexp.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.special import logsumexp

from bnstudio.core import network_from_dsl
from bnstudio.errors import EvidenceError, ImpossibleEvidence
from bnstudio.inference import InferenceEngine
from bnstudio.learn.params import make_learner
from bnstudio.sampling import forward_sample, hide_at_random
from bnstudio.uncertainty.errorbars import error_bars
from tests.brute import marginal, weighted_joint

METHODS = ["auto", "junction-tree", "elimination"]


def one_state_network(ones: int = 70, binary: int = 5):
    """C -> U0..U{ones-1} (one state each), B0..B{binary-1} (binary)."""
    us = [f"U{i}" for i in range(ones)]
    bs = [f"B{i}" for i in range(binary)]
    return network_from_dsl("C->" + ",".join(us + bs), seed=0, states={u: ["only"] for u in us})


def naive_bayes(n: int, seed: int = 0, low: float = 0.2, high: float = 0.8):
    """C -> X0..X{n-1}, all binary, CPT entries in [low, high]."""
    rng = np.random.default_rng(seed)
    xs = [f"X{i}" for i in range(n)]
    cpts = {"C": np.array([0.4, 0.6])}
    for x in xs:
        p = rng.uniform(low, high, size=2)
        cpts[x] = np.stack([p, 1 - p], axis=1)
    return network_from_dsl("C->" + ",".join(xs), cpts=cpts)


def log_posterior(net, codes: np.ndarray) -> np.ndarray:
    """Brute force in log space for a naive Bayes over C with children observed by ``codes`` (N, n) (-1:
    unobserved): log p(c | x) per case, (N, |C|)."""
    children = [v for v in net.variables if v != "C"]
    out = np.log(net.cpt("C"))[None, :].repeat(len(codes), axis=0)
    for k, v in enumerate(children):
        seen = codes[:, k] >= 0
        out[seen] += np.log(net.cpt(v)[:, codes[seen, k]]).T
    return out - logsumexp(out, axis=1, keepdims=True)


def log_evidence(net, codes: np.ndarray) -> np.ndarray:
    children = [v for v in net.variables if v != "C"]
    out = np.log(net.cpt("C"))[None, :].repeat(len(codes), axis=0)
    for k, v in enumerate(children):
        seen = codes[:, k] >= 0
        out[seen] += np.log(net.cpt(v)[:, codes[seen, k]]).T
    return logsumexp(out, axis=1)


# ---------------------------------------------------------------------------------------------- one state
def test_one_state_children_never_get_an_axis_in_batched_family_marginals():
    net = one_state_network()
    data = forward_sample(net, 50, seed=0)
    engine = InferenceEngine(net)
    out = engine.family_marginals_batch(data, reduce=False)
    small = network_from_dsl("C->" + ",".join(f"B{i}" for i in range(5)),
                             cpts={v: net.cpt(v) for v in ["C"] + [f"B{i}" for i in range(5)]})
    cols = [net.variables.index(v) for v in small.variables]
    ref = InferenceEngine(small).family_marginals_batch(data[:, cols], columns=small.variables, reduce=False)
    for v in small.variables:
        np.testing.assert_allclose(out[v], ref[v], atol=1e-12)
    assert out["U7"].shape == (50, 2, 1)
    np.testing.assert_allclose(out["U7"][..., 0], ref["C"], atol=1e-12)
    summed = engine.family_marginals_batch(hide_at_random(data, 0.3, seed=1))
    assert summed["U3"].shape == (2, 1) and summed["U3"].sum() == pytest.approx(50)


@pytest.mark.parametrize("method", METHODS)
def test_one_state_children_in_every_query_path(method):
    net = one_state_network()
    engine = InferenceEngine(net, method=method)
    data = hide_at_random(forward_sample(net, 40, seed=2), 0.2, seed=3)
    names = net.variables
    batch = engine.posterior_batch(["C", "U0", "B1"], data)
    assert batch["U0"].shape == (40, 1) and np.all(batch["U0"] == 1.0)
    for n in (0, 7, 39):
        evidence = {v: net.states(v)[data[n, k]] for k, v in enumerate(names) if data[n, k] >= 0}
        single = engine.posterior(["C", "U0", "B1"], evidence)
        for v in ("C", "U0", "B1"):
            np.testing.assert_allclose(single[v], batch[v][n], atol=1e-12)
        fams = engine.family_marginals(evidence)
        assert fams["U5"].shape == (2, 1)
        np.testing.assert_allclose(fams["U5"][:, 0], single["C"], atol=1e-12)
        np.testing.assert_allclose(engine.joint(["U1", "C"], evidence)[0], single["C"], atol=1e-12)
    log_e = engine.log_evidence_batch(data)
    assert log_e[5] == pytest.approx(engine.log_evidence(
        {v: int(data[5, k]) for k, v in enumerate(names) if data[5, k] >= 0}), abs=1e-12)


def test_one_state_only_network_and_zero_likelihood_on_a_one_state_variable():
    net = network_from_dsl("A->B", cpts={"A": np.array([1.0]), "B": np.array([[1.0]])},
                           states={"A": ["a"], "B": ["b"]})
    engine = InferenceEngine(net)
    assert engine.posterior("B", {"A": "a"})["B"].tolist() == [1.0]
    np.testing.assert_allclose(engine.family_marginals_batch(np.zeros((3, 2), dtype=np.int64))["B"], [[3.0]])
    wide = one_state_network(ones=3, binary=2)
    soft = {"U1": np.array([[2.0], [0.0], [1.0]]), "B0": np.array([0, 1, -1])}
    log_z = InferenceEngine(wide).log_evidence_batch(soft)
    assert np.isneginf(log_z[1]) and np.isfinite(log_z[[0, 2]]).all()
    assert log_z[2] == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(ImpossibleEvidence):
        InferenceEngine(wide).posterior_batch("C", soft)
    many = one_state_network()
    with pytest.raises(EvidenceError, match="cannot be returned as one table"):
        InferenceEngine(many).joint(many.variables)


def random_network_with_one_state_variables(seed: int):
    """A random DAG of 7 variables with 1-3 states (at least two of one state, which may be parents)."""
    rng = np.random.default_rng(seed)
    names = [f"V{i}" for i in range(7)]
    cards = rng.integers(1, 4, size=7)
    cards[rng.choice(7, size=2, replace=False)] = 1
    arcs = [f"{names[i]}->{names[j]}" for j in range(7) for i in range(j) if rng.random() < 0.4]
    states = {v: [f"{v}s{k}" for k in range(c)] for v, c in zip(names, cards, strict=True)}
    return network_from_dsl("; ".join(arcs + names), seed=seed, states=states, concentration=0.7)


@pytest.mark.parametrize("seed", range(10))
def test_one_state_variables_anywhere_match_enumeration(seed):
    net = random_network_with_one_state_variables(seed)
    names = net.variables
    rng = np.random.default_rng(seed + 100)
    evidence: dict = {}
    for k in rng.permutation(7)[:3]:
        probs = marginal(weighted_joint(net, evidence), [int(k)])
        evidence[names[k]] = net.states(names[k])[int(np.argmax(probs))]
    table = weighted_joint(net, evidence)
    codes = np.array([[net.states(v).index(evidence[v]) if v in evidence else -1 for v in names]])
    for method in METHODS:
        engine = InferenceEngine(net, method=method)
        posterior = engine.posterior(names, evidence)
        batch = engine.posterior_batch(names, codes)
        fams = engine.family_marginals(evidence)
        fams_batch = engine.family_marginals_batch(codes, reduce=False)
        for k, v in enumerate(names):
            np.testing.assert_allclose(posterior[v], marginal(table, [k]), atol=1e-10)
            np.testing.assert_allclose(batch[v][0], marginal(table, [k]), atol=1e-10)
            family = [names.index(p) for p in net.parents(v)] + [k]
            np.testing.assert_allclose(fams[v], marginal(table, family), atol=1e-10)
            np.testing.assert_allclose(fams_batch[v][0], marginal(table, family), atol=1e-10)
        assert engine.log_evidence(evidence) == pytest.approx(np.log(table.sum()), abs=1e-10)
        assert engine.log_evidence_batch(codes)[0] == pytest.approx(np.log(table.sum()), abs=1e-10)


def test_a_clique_potential_that_underflows_keeps_its_log_scale():
    """300 observed one-state children whose parameter sets (not normalised) give 0.01 each: the class
    clique's potential is 1e-600 times its CPT; log p(e) must still be exact for every set."""
    net = one_state_network(ones=300, binary=2)
    params = {f"U{i}": np.full((2, 2, 1), 0.01) for i in range(300)}
    params["U0"] = np.array([[[0.01], [0.02]], [[0.5], [0.5]]])
    engine = InferenceEngine(net)
    codes = {"B0": np.array([0, 1, -1]), **{f"U{i}": np.zeros(3, dtype=np.int64) for i in range(300)}}
    log_z = engine.log_evidence_batch(codes, parameters=params)
    post = engine.posterior_batch("C", codes, parameters=params)["C"]
    for s in range(2):
        log_joint = np.log(net.cpt("C")) + 299 * np.log(0.01) + np.log(params["U0"][s, :, 0])
        for n, code in enumerate([0, 1, -1]):
            row = log_joint + (np.log(net.cpt("B0")[:, code]) if code >= 0 else 0.0)
            assert log_z[s, n] == pytest.approx(logsumexp(row), abs=1e-9)
            np.testing.assert_allclose(post[s, n], np.exp(row - logsumexp(row)), atol=1e-12)


def test_em_and_clgd_run_on_the_70_one_state_children_network():
    net = one_state_network()
    data = hide_at_random(forward_sample(net, 200, seed=4), 0.2, seed=5)
    em = make_learner("em", max_iter=5).fit(net, data)
    assert em.cpts["U3"].shape == (2, 1) and np.allclose(em.cpts["U3"], 1.0)
    assert np.all(np.isfinite([h["nll"] for h in em.history]))
    full = forward_sample(net, 200, seed=6)
    clgd = make_learner("clgd", max_iter=20).fit(net, full, target="C")
    assert np.allclose(clgd.cpts["U3"], 1.0) and np.allclose(clgd.cpts["B2"].sum(axis=-1), 1.0)


def test_naive_bayes_with_100_binary_children_in_every_path():
    net = naive_bayes(100, seed=3)
    data = hide_at_random(forward_sample(net, 30, seed=7), 0.1, seed=8)
    data[:, 0] = -1                                      # C hidden
    expected = log_posterior(net, data[:, 1:])
    for method in METHODS:
        engine = InferenceEngine(net, method=method)
        np.testing.assert_allclose(np.log(engine.posterior_batch("C", data)["C"]), expected, atol=1e-10)
        fams = engine.family_marginals_batch(data, reduce=False)
        np.testing.assert_allclose(np.log(fams["C"]), expected, atol=1e-10)
        np.testing.assert_allclose(engine.log_evidence_batch(data), log_evidence(net, data[:, 1:]), atol=1e-9)
        evidence = {v: int(data[4, k]) for k, v in enumerate(net.variables) if data[4, k] >= 0}
        np.testing.assert_allclose(np.log(engine.posterior("C", evidence)["C"]), expected[4], atol=1e-10)


# ---------------------------------------------------------------------------------------------- underflow
@pytest.fixture(scope="module")
def wide_nb():
    """1,000 attributes and 12 cases: all attributes s1 (p(e) ≈ 1e-400, the issue's case), then uniform codes."""
    net = naive_bayes(1000, seed=0)
    data = np.random.default_rng(9).integers(0, 2, size=(12, 1001))
    data[0, 1:] = 1
    data[:, 0] = -1
    return net, data


@pytest.mark.parametrize("method", METHODS)
def test_1000_findings_posterior_and_log_evidence_are_exact(wide_nb, method):
    net, data = wide_nb
    engine = InferenceEngine(net, method=method)
    expected, log_e = log_posterior(net, data[:, 1:]), log_evidence(net, data[:, 1:])
    assert log_e.max() < -709                                   # p(e) below the smallest normal double
    for n in (0, 5):
        evidence = {f"X{i}": net.states(f"X{i}")[data[n, i + 1]] for i in range(1000)}
        np.testing.assert_allclose(np.log(engine.posterior("C", evidence)["C"]), expected[n], atol=1e-9)
        assert engine.log_evidence(evidence) == pytest.approx(log_e[n], abs=1e-8)
        q = engine.query_probability({"C": "s1"}, evidence)
        assert q == pytest.approx(np.exp(expected[n, 1]), rel=1e-9)
    np.testing.assert_allclose(np.log(engine.posterior_batch("C", data)["C"]), expected, atol=1e-9)
    np.testing.assert_allclose(engine.log_evidence_batch(data), log_e, atol=1e-8)
    fams = engine.family_marginals_batch(data, reduce=False)
    np.testing.assert_allclose(np.log(fams["C"]), expected, atol=1e-9)
    post = np.exp(expected)
    np.testing.assert_allclose(fams["X7"][np.arange(12), :, data[:, 8]], post, atol=1e-12)


def test_1000_findings_with_parameter_sets_and_calibrate_batch(wide_nb):
    net, data = wide_nb
    engine = InferenceEngine(net)
    params = {"C": np.array([[0.4, 0.6], [0.5, 0.5], [0.9, 0.1]])}
    out = engine.posterior_batch("C", data, parameters=params)["C"]
    log_z = engine.log_evidence_batch(data, parameters=params)
    for s, prior in enumerate(params["C"]):
        other = naive_bayes(1000, seed=0)
        other.set_cpt("C", prior)
        np.testing.assert_allclose(np.log(out[s]), log_posterior(other, data[:, 1:]), atol=1e-9)
        np.testing.assert_allclose(log_z[s], log_evidence(other, data[:, 1:]), atol=1e-8)
    fams, log_z = engine.calibrate_batch(data, reduce=True)
    np.testing.assert_allclose(log_z, log_evidence(net, data[:, 1:]), atol=1e-8)
    np.testing.assert_allclose(fams["C"], np.exp(log_posterior(net, data[:, 1:])).sum(axis=0), atol=1e-10)


def test_1000_findings_error_bars_are_finite(wide_nb):
    net, data = wide_nb
    evidence = {f"X{i}": net.states(f"X{i}")[data[0, i + 1]] for i in range(1000)}
    bars = error_bars(net, {"C": "s0"}, evidence, ess=50.0)
    expected = np.exp(log_posterior(net, data[:1, 1:]))[0, 0]
    assert bars.delta.mean == pytest.approx(expected, rel=1e-9)
    assert np.isfinite(bars.delta.variance) and bars.delta.variance >= 0


def test_1000_findings_em_and_clgd_report_exact_likelihoods(wide_nb):
    net, data = wide_nb
    em = make_learner("em", max_iter=2).fit(net, data)
    assert em.history[0]["nll"] == pytest.approx(-log_evidence(net, data[:, 1:]).mean(), rel=1e-10)
    assert np.isfinite(em.history[-1]["nll"]) and np.allclose(em.cpts["X3"].sum(axis=-1), 1.0)
    labelled = data.copy()
    labelled[:, 0] = np.arange(12) % 2
    clgd = make_learner("clgd", max_iter=5).fit(net, labelled, target="C")
    assert all(np.isfinite(h["nll"]) for h in clgd.history)


def test_impossible_evidence_message_names_a_few_findings_and_a_count():
    net = naive_bayes(1000, seed=0)
    cpt = net.cpt("X999").copy()
    cpt[:, 1] = 0.0
    cpt[:, 0] = 1.0
    net.set_cpt("X999", cpt)
    evidence = {f"X{i}": "s1" for i in range(1000)}
    with pytest.raises(ImpossibleEvidence) as info:
        InferenceEngine(net).posterior("C", evidence)
    message = str(info.value)
    assert "X0=s1, X1=s1, X2=s1, … and 997 more findings" in message and len(message) < 120
