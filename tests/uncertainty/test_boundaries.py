"""Error bars at the edges: huge effective sample sizes give finite intervals (never NaN), draw counts are
checked, and the Monte-Carlo check works in chunks of the memory budget with the same draws."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats

from bnstudio.core import network_from_dsl
from bnstudio.errors import ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.uncertainty import credible_intervals, dirichlet_counts, error_bars, query_samples, sample_parameters
from bnstudio.uncertainty.intervals import BETA_NORMAL_LIMIT

NET = network_from_dsl("A->B; B->C", seed=3, concentration=2.0)


def _finite(value) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return all(_finite(v) for v in value)
    return True


@pytest.mark.parametrize("ess", [1e12, 1e15, 1e100, 1e300])
def test_huge_effective_sample_sizes_give_finite_intervals(ess):
    bars = error_bars(NET, {"A": "s1"}, {"C": "s0"}, ess=ess)
    record = bars.to_json()
    assert _finite(record), record
    low, high = record["beta"]
    assert low <= bars.mean <= high and high - low < 1e-5


def test_the_beta_interval_becomes_its_normal_limit_continuously():
    """Just below the limit scipy's Beta quantiles are used, just above the normal ones; they agree."""
    mean = 0.05
    for total in (BETA_NORMAL_LIMIT / 2, BETA_NORMAL_LIMIT * 2):
        variance = mean * (1 - mean) / (total + 1)
        iv = credible_intervals(mean, variance, 0.9)
        a, b = iv.beta_params
        assert a + b == pytest.approx(total)
        z = stats.norm.ppf(0.95)
        expected = (mean - z * math.sqrt(variance), mean + z * math.sqrt(variance))
        # the Beta's skewness is O(1/sqrt(a + b)): the two agree to far below the interval's width (6e-7)
        assert iv.beta == pytest.approx(expected, abs=1e-10)


def test_a_beta_quantile_that_scipy_gives_up_on_is_its_normal_limit(monkeypatch):
    """scipy 1.14's Beta quantile warns "Series evaluation exceeded ... iterations, giving up now" at a + b
    near 5e11: the warning never reaches the user and the interval is the normal limit, as above the limit."""
    def gives_up(q, a, b):
        warnings.warn("Error in function boost::math::tgamma: Series evaluation exceeded 1000000 iterations",
                      RuntimeWarning, stacklevel=2)
        return 0.5
    monkeypatch.setattr(stats.beta, "ppf", gives_up)
    mean, variance = 0.05, 0.05 * 0.95 / 1e6
    iv = credible_intervals(mean, variance, 0.9)
    assert iv.beta == pytest.approx(iv.normal_clipped, abs=0) and iv.beta_params is not None


def test_a_non_finite_response_is_refused():
    with pytest.raises(ValidationError, match="finite"):
        credible_intervals(float("nan"), 0.01)
    with pytest.raises(ValidationError, match="finite"):
        credible_intervals(0.5, float("inf"))


@pytest.mark.parametrize("ess", [float("nan"), float("inf"), 0.0, -2.0])
def test_a_bad_effective_sample_size_says_what_it_must_be(ess):
    with pytest.raises(ValidationError, match="positive finite number"):
        dirichlet_counts(NET, ess)


@pytest.mark.parametrize("mc", [-5, -1, 2.5, True, "3"])
def test_bad_numbers_of_draws_are_refused(mc):
    with pytest.raises(ValidationError, match="number of parameter draws"):
        error_bars(NET, {"A": "s1"}, ess=10, mc=mc)


def test_sample_parameters_refuses_zero_draws():
    with pytest.raises(ValidationError, match="number of parameter draws"):
        sample_parameters(dirichlet_counts(NET, 10), 0)


def test_draws_that_cannot_fit_are_refused_before_anything_is_drawn():
    # the answers alone would not fit: a bound on the option (MemoryBudgetExceeded means one case does not fit)
    engine = InferenceEngine(NET, memory_budget=2**20)
    with pytest.raises(ValidationError, match=rf"'{NET.name}'.*memory budget.*use at most 131,072 draws$"):
        query_samples(NET, dirichlet_counts(NET, 10), {"A": "s1"}, {}, 10**9, seed=1, engine=engine)


def test_monte_carlo_in_small_chunks_gives_the_same_draws_as_in_one_chunk():
    alpha = dirichlet_counts(NET, ess=15)
    one = query_samples(NET, alpha, {"A": "s1"}, {"C": "s0"}, 300, seed=4)
    small = InferenceEngine(NET, memory_budget=3000)   # a few draws per propagation
    assert small.batch_capacity(3 * 8 * sum(a.size for a in alpha.values())) < 10
    chunked = query_samples(NET, alpha, {"A": "s1"}, {"C": "s0"}, 300, seed=4, engine=small)
    np.testing.assert_array_equal(one, chunked)
    # and every value is the exact answer of the network with that draw's parameters
    params = sample_parameters(alpha, 300, seed=4)
    for i in (0, 150, 299):
        other = NET.copy()
        other.set_parameters({v: params[v][i] for v in NET.variables})
        assert one[i] == pytest.approx(InferenceEngine(other).posterior("A", {"C": "s0"})["A"][1], abs=1e-12)
