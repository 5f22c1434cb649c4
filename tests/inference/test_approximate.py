"""Approximate inference (likelihood weighting, loopy BP) against brute force and the exact engine, and the
automatic choice when exact inference does not fit the memory budget (docs/inference.md §12)."""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.core.network import Network, build_network
from bnstudio.errors import Cancelled, ImpossibleEvidence, MemoryBudgetExceeded, ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.inference.approximate import answer_posterior
from bnstudio.inference.loopy import loopy_belief_propagation
from bnstudio.inference.sampled import likelihood_weighting
from bnstudio.io import read_network
from bnstudio.jobs import RecordingReporter
from tests.brute import marginal, weighted_joint
from tests.cli.test_query_paths import grid

ASIA = "resources/networks/asia.bif"
ALARM = "resources/networks/alarm.bif"


def random_dag(seed: int, n: int = 7, density: float = 0.4) -> Network:
    rng = np.random.default_rng(seed)
    names = [f"V{i}" for i in range(n)]
    arcs = [f"{names[i]}->{names[j]}" for j in range(n) for i in range(j) if rng.random() < density]
    states = {v: [f"{v}s{k}" for k in range(int(rng.integers(2, 4)))] for v in names}
    return network_from_dsl("; ".join(arcs + names), seed=seed, states=states)


@pytest.mark.parametrize("seed", range(6))
def test_likelihood_weighting_matches_enumeration_within_its_standard_error(seed):
    net = random_dag(seed)
    names = net.variables
    evidence = {names[-1]: net.states(names[-1])[0], names[2]: [0.2, 0.9] + [0.5] * (net.cardinality(names[2]) - 2)}
    targets = [v for v in names if v not in evidence]
    answer = likelihood_weighting(net, targets, evidence, samples=40_000, seed=seed)
    table = weighted_joint(net, evidence)
    for t in targets:
        exact = marginal(table, [names.index(t)])
        se = answer.standard_errors[t]
        assert np.all(se > 0) or np.allclose(exact, answer.posteriors[t])
        assert np.all(np.abs(answer.posteriors[t] - exact) <= 5 * se + 1e-12), t
        assert answer.posteriors[t].sum() == pytest.approx(1.0)
    assert answer.log_evidence == pytest.approx(np.log(table.sum()), abs=0.05)
    assert 0 < answer.effective_samples <= answer.samples


def test_standard_error_matches_the_spread_of_repeated_runs():
    """The reported se is the Monte-Carlo sd: across 300 independent runs their spread agrees within 15 %."""
    net = read_network(ASIA)
    evidence = {"dysp": "yes", "xray": "no"}
    runs = [likelihood_weighting(net, "lung", evidence, samples=2_000, seed=s) for s in range(300)]
    estimates = np.array([r.posteriors["lung"][0] for r in runs])
    reported = np.mean([r.standard_errors["lung"][0] for r in runs])
    assert np.std(estimates, ddof=1) == pytest.approx(reported, rel=0.15)
    exact = InferenceEngine(net).posterior("lung", evidence)["lung"][0]
    assert abs(estimates.mean() - exact) < 4 * np.std(estimates) / np.sqrt(len(runs))


def test_many_findings_do_not_underflow_the_weights():
    """400 findings on a chain: every weight is far below the smallest double, yet the answer is right."""
    n = 401
    families = [("C0", ("a", "b"), [], np.array([0.5, 0.5]))]
    families += [(f"C{i}", ("a", "b"), [f"C{i - 1}"], np.array([[0.9, 0.1], [0.2, 0.8]])) for i in range(1, n)]
    net = build_network(families, name="chain")
    evidence = {f"C{i}": "b" if i % 3 else "a" for i in range(1, n)}
    exact = InferenceEngine(net).posterior("C0", evidence)["C0"]
    answer = likelihood_weighting(net, "C0", evidence, samples=20_000, seed=1)
    assert np.all(np.isfinite(answer.posteriors["C0"]))
    assert np.abs(answer.posteriors["C0"] - exact).max() <= 5 * answer.standard_errors["C0"].max()
    assert answer.log_evidence == pytest.approx(InferenceEngine(net).log_evidence(evidence), rel=0.01)


def test_bad_input_gets_one_line():
    net = read_network(ASIA)
    for samples in (0, -1, 1.5, True, None):
        with pytest.raises(ValidationError, match="number of samples"):
            likelihood_weighting(net, "lung", samples=samples)
    with pytest.raises(ValidationError, match="both a target and observed"):
        likelihood_weighting(net, "lung", {"lung": "yes"}, samples=10)
    impossible = network_from_dsl("A->B", cpts={"A": [1.0, 0.0], "B": [[1.0, 0.0], [0.5, 0.5]]})
    with pytest.raises(ImpossibleEvidence, match="no sample out of 500") as info:
        likelihood_weighting(impossible, "A", {"B": "s1"}, samples=500, seed=0)
    assert "\n" not in str(info.value)
    with pytest.raises(ValidationError, match="damping"):
        loopy_belief_propagation(net, "lung", damping=1.0)
    with pytest.raises(ValidationError, match="unknown inference method"):
        answer_posterior(InferenceEngine(net), "lung", method="gibbs")


def test_sampling_is_cancellable_and_reports_each_chunk():
    net = read_network(ALARM)
    reporter = RecordingReporter(stop_after=2)
    with pytest.raises(Cancelled):
        likelihood_weighting(net, "HYPOVOLEMIA", {"BP": "LOW"}, samples=200_000, seed=0, reporter=reporter)
    assert len(reporter.infos) == 2 and reporter.ended


def test_memory_follows_the_chunk_not_the_sample_count():
    net = read_network(ALARM)
    tracemalloc.start()
    likelihood_weighting(net, "HYPOVOLEMIA", {"BP": "LOW"}, samples=300_000, seed=0)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 40 * 2**20   # 300,000 samples of 37 codes would be 89 MB held at once


def test_same_seed_same_answer():
    net = read_network(ALARM)
    a = likelihood_weighting(net, "LVFAILURE", {"HRBP": "HIGH"}, samples=20_000, seed=7)
    b = likelihood_weighting(net, "LVFAILURE", {"HRBP": "HIGH"}, samples=20_000, seed=7)
    np.testing.assert_array_equal(a.posteriors["LVFAILURE"], b.posteriors["LVFAILURE"])


def random_polytree(seed: int, n: int = 9) -> Network:
    """Each variable after the first joins one earlier variable, as its parent or its child: no loops."""
    rng = np.random.default_rng(seed)
    names = [f"P{i}" for i in range(n)]
    arcs = []
    for j in range(1, n):
        i = int(rng.integers(j))
        arcs.append(f"{names[i]}->{names[j]}" if rng.random() < 0.5 else f"{names[j]}->{names[i]}")
    return network_from_dsl("; ".join(arcs), seed=seed, states={v: ["s0", "s1", "s2"] for v in names})


@pytest.mark.parametrize("seed", range(5))
def test_loopy_bp_is_exact_on_polytrees(seed):
    net = random_polytree(seed)
    names = net.variables
    evidence = {names[0]: "s1", names[-1]: [0.3, 1.0, 0.6]}
    targets = [v for v in names if v != names[0]]
    answer = loopy_belief_propagation(net, targets, evidence)
    table = weighted_joint(net, evidence)
    assert answer.converged
    for t in targets:
        np.testing.assert_allclose(answer.posteriors[t], marginal(table, [names.index(t)]), atol=1e-8)


def test_loopy_bp_on_a_network_with_loops_is_close_and_says_whether_it_converged():
    net = read_network(ALARM)
    evidence = {"HRBP": "HIGH", "BP": "LOW", "SAO2": "LOW"}
    exact = InferenceEngine(net).posterior(["HYPOVOLEMIA", "LVFAILURE"], evidence)
    answer = loopy_belief_propagation(net, ["HYPOVOLEMIA", "LVFAILURE"], evidence)
    assert answer.converged and answer.iterations > 1
    for t in exact:
        assert np.abs(answer.posteriors[t] - exact[t]).max() < 0.02
    capped = loopy_belief_propagation(net, "HYPOVOLEMIA", evidence, max_iter=2)
    assert not capped.converged and capped.iterations == 2


def test_auto_answers_exactly_when_the_engine_fits():
    net = read_network(ALARM)
    engine = InferenceEngine(net)
    answer = answer_posterior(engine, "HYPOVOLEMIA", {"BP": "LOW"})
    assert answer.exact and answer.standard_errors is None and answer.reason == ""
    np.testing.assert_array_equal(answer.posteriors["HYPOVOLEMIA"],
                                  engine.posterior("HYPOVOLEMIA", {"BP": "LOW"})["HYPOVOLEMIA"])


def test_auto_falls_back_to_sampling_when_exact_exceeds_the_budget():
    """A 12x12 grid is exact within the default budget but not within 100 kB: the fallback's answer agrees
    with the exact one within its standard error."""
    net = grid(12, 2)
    evidence = {"x0_0": "s0", "x6_7": "s1"}
    exact = InferenceEngine(net).posterior("x11_11", evidence)["x11_11"]
    small = InferenceEngine(net, memory_budget=100_000)
    with pytest.raises(MemoryBudgetExceeded):
        answer_posterior(small, "x11_11", evidence, method="exact")
    answer = answer_posterior(small, "x11_11", evidence, samples=50_000, seed=3)
    assert answer.method == "likelihood-weighting" and "memory budget" in answer.reason
    assert np.abs(answer.posteriors["x11_11"] - exact).max() <= 5 * answer.standard_errors["x11_11"].max()


@pytest.mark.slow
def test_a_grid_beyond_exact_inference_gets_an_answer_with_its_standard_error():
    net = grid(40, 2)
    engine = InferenceEngine(net)
    evidence = {"x0_0": "s0", "x20_25": "s1"}
    with pytest.raises(MemoryBudgetExceeded):
        engine.posterior("x39_39", evidence)
    answer = answer_posterior(engine, "x39_39", evidence, samples=20_000, seed=0)
    assert answer.method == "likelihood-weighting"
    se = answer.standard_errors["x39_39"]
    assert np.all((se > 0) & (se < 0.01))
    # an independent run with another seed agrees within the two runs' combined error
    again = answer_posterior(engine, "x39_39", evidence, samples=20_000, seed=1)
    diff = np.abs(answer.posteriors["x39_39"] - again.posteriors["x39_39"]).max()
    assert diff <= 5 * np.hypot(se.max(), again.standard_errors["x39_39"].max())
