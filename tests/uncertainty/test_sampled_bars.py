"""Error bars beyond exact inference (issue 36): Theorem 2 on likelihood-weighting estimates of its family terms
agrees with the exact delta method, and the sampling error is reported apart from the parameter error."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.errors import MemoryBudgetExceeded
from bnstudio.inference import InferenceEngine
from bnstudio.inference.sampled import family_terms
from bnstudio.io import read_network
from bnstudio.uncertainty import delta_method, dirichlet_counts, error_bars
from bnstudio.uncertainty.sampled_bars import sampled_delta
from tests.cli.test_query_paths import grid

ALARM = "resources/networks/alarm.bif"
QUERIES = [({"HYPOVOLEMIA": "TRUE"}, {"BP": "LOW", "HRBP": "HIGH"}),
           ({"LVFAILURE": "TRUE", "HYPOVOLEMIA": "FALSE"}, {"CVP": "HIGH"}),
           ({"INTUBATION": "NORMAL"}, {"SAO2": "LOW", "EXPCO2": "LOW", "PRESS": "HIGH"})]


def test_family_terms_estimate_the_exact_family_marginals():
    net = read_network(ALARM)
    query, evidence = QUERIES[0]
    engine = InferenceEngine(net)
    terms = family_terms(net, query, evidence, samples=200_000, seed=3)
    exact = engine.family_marginals(evidence)
    with_q = engine.family_marginals({**evidence, **query})
    p_q = engine.query_probability(query, evidence)
    assert abs(terms.p_q - p_q) <= 5 * terms.se_q
    for var, table in terms.family.items():
        assert np.abs(table - exact[var]).max() < 0.01, var
        assert np.abs(terms.joint[var] - p_q * with_q[var]).max() < 0.01, var
    assert set(terms.family) < set(net.variables)    # barren CPTs are not sampled: their D is 0 exactly


@pytest.mark.parametrize("query, evidence", QUERIES)
def test_sampled_theorem2_agrees_with_the_exact_delta_method(query, evidence):
    net = read_network(ALARM)
    alpha = dirichlet_counts(net, 50.0)
    exact = delta_method(net, alpha, query, evidence)
    sampled, sampling = sampled_delta(net, alpha, query, evidence, samples=200_000, seed=1)
    assert abs(sampled.mean - exact.mean) <= 5 * sampling.se
    assert np.sqrt(sampled.variance) == pytest.approx(np.sqrt(exact.variance), rel=0.05)
    assert 0 < sampling.effective_samples <= sampling.samples == 200_000


def test_error_bars_fall_back_to_sampling_and_say_so():
    net = read_network(ALARM)
    alpha = dirichlet_counts(net, 50.0)
    query, evidence = QUERIES[0]
    exact = error_bars(net, query, evidence, alpha=alpha)
    assert exact.sampling is None and "sampling" not in exact.to_json()
    small = InferenceEngine(net, memory_budget=2_000)      # ALARM's tree does not fit 2 kB
    bars = error_bars(net, query, evidence, alpha=alpha, engine=small)
    assert bars.sampling is not None and "memory budget" in bars.sampling.reason
    assert abs(bars.mean - exact.mean) <= 5 * bars.sampling.se
    assert bars.sd == pytest.approx(exact.sd, rel=0.05)
    record = bars.to_json()
    assert record["sampling"]["se"] == bars.sampling.se and record["sd"] == bars.sd
    with pytest.raises(MemoryBudgetExceeded):    # the Monte-Carlo check needs exact propagations
        error_bars(net, query, evidence, alpha=alpha, engine=small, mc=10)


@pytest.mark.slow
def test_a_grid_beyond_exact_inference_gets_both_errors():
    net = grid(40, 2)
    bars = error_bars(net, {"x39_39": "s0"}, {"x0_0": "s0", "x20_25": "s1"}, ess=20.0)
    assert bars.sampling is not None and 0 < bars.sampling.se < 0.01
    assert np.isfinite(bars.sd) and bars.sd > 0 and bars.intervals.beta is not None
