"""Error-bar batches in chunks: the bootstrap spread and the query over parameter sets give the same values with a
memory budget that holds a couple of sets per propagation; a budget below one case is the only memory error and
names the network and what to do (not the engine's "ask single queries" advice, which does not apply here)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bnstudio.errors import MemoryBudgetExceeded
from bnstudio.inference import InferenceEngine
from bnstudio.inference.batching import parameter_batches
from bnstudio.io import read_network
from bnstudio.learn.params import make_learner
from bnstudio.sampling import forward_sample
from bnstudio.uncertainty import (
    bootstrap_spread,
    dirichlet_counts,
    error_bars,
    query_response,
    query_samples,
    sample_parameters,
    sensitivity,
)

ASIA = Path(__file__).resolve().parents[2] / "resources" / "networks" / "asia.bif"


@pytest.fixture(scope="module")
def asia():
    return read_network(ASIA)


def small_engine(net, sets: int) -> InferenceEngine:
    """An engine whose budget holds about ``sets`` batch elements."""
    engine = InferenceEngine(net)
    return InferenceEngine(net, memory_budget=sets * (engine.memory_budget // engine.batch_capacity()) + 64)


def test_the_bootstrap_spread_in_chunks_of_bags_equals_one_batch(asia):
    fit = make_learner("bagged-mp", bags=25, seed=2).fit(asia, forward_sample(asia, 300, seed=3))
    net = fit.network(asia)
    small = small_engine(net, 4)                    # two cases per bag: two bags per propagation
    assert len(list(parameter_batches(small, fit.ensemble, n_cases=2))) >= 12
    a = bootstrap_spread(net, fit.ensemble, {"lung": "yes"}, {"xray": "yes", "smoke": "no"}, level=0.8)
    b = bootstrap_spread(net, fit.ensemble, {"lung": "yes"}, {"xray": "yes", "smoke": "no"}, level=0.8,
                         engine=small)
    np.testing.assert_allclose(b.values, a.values, rtol=0, atol=1e-12)
    assert (b.mean, b.low, b.high) == pytest.approx((a.mean, a.low, a.high), abs=1e-12)


def test_the_query_over_many_parameter_sets_in_chunks_equals_each_network(asia):
    params = sample_parameters(dirichlet_counts(asia, 30.0), 40, seed=5)
    small = small_engine(asia, 6)
    got = query_response(asia, {"tub": "yes"}, {"dysp": "yes"}, params, small)
    assert got.shape == (40,)
    for s in (0, 17, 39):
        edited = asia.copy()
        edited.set_parameters({v: params[v][s] for v in asia.variables})
        want = InferenceEngine(edited).posterior("tub", {"dysp": "yes"})["tub"][asia.states("tub").index("yes")]
        assert got[s] == pytest.approx(want, abs=1e-12)


def test_a_budget_below_one_case_names_the_network_and_what_to_do(asia):
    tiny = InferenceEngine(asia, memory_budget=200)
    alpha = dirichlet_counts(asia, 10.0)
    # the error bars themselves are estimated by sampling there (issue 36), and say why in the same words
    bars = error_bars(asia, {"lung": "yes"}, {}, ess=10.0, engine=tiny)
    reason = bars.sampling.reason
    assert f"'{asia.name}' (8 variables)" in reason and "single case" in reason and "memory_budget" in reason
    calls = [lambda: query_samples(asia, alpha, {"lung": "yes"}, {}, 20, seed=1, engine=tiny),
             lambda: query_response(asia, {"lung": "yes"}, {}, sample_parameters(alpha, 3, seed=1), tiny)]
    for call in calls:
        with pytest.raises(MemoryBudgetExceeded) as info:
            call()
        message = str(info.value)
        assert f"'{asia.name}' (8 variables)" in message and "single case" in message and "memory_budget" in message
        assert "single queries" not in message and "\n" not in message


def test_the_sensitivity_curve_refuses_a_budget_below_one_case_the_same_way(asia):
    bars = error_bars(asia, {"lung": "yes"}, {"xray": "yes"}, ess=10.0)
    with pytest.raises(MemoryBudgetExceeded, match="the sensitivity curve on .* single case"):
        sensitivity(asia, bars, "lung", (0,), 0, engine=InferenceEngine(asia, memory_budget=200))
