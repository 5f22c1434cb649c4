"""Intervals and flags on hand examples; where counts come from; Monte-Carlo reproducibility; baselines."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from bnstudio.core import network_from_dsl
from bnstudio.uncertainty import (
    NoDirichletCounts,
    beta_moments,
    counting_statistics,
    credible_intervals,
    dirichlet_counts,
    error_bars,
    query_samples,
)


def test_beta_method_of_moments_recovers_a_beta():
    a, b = beta_moments(*stats.beta(3.0, 7.0).stats(moments="mv"))
    assert (a, b) == pytest.approx((3.0, 7.0))
    assert beta_moments(0.5, 0.3) is None          # variance >= m(1-m): no Beta


def test_normal_interval_spills_and_is_clipped_and_u_shaped_beta_is_flagged():
    iv = credible_intervals(0.03, 0.002, level=0.9)   # a = 0.03·(0.0291/0.002 − 1) ≈ 0.41
    assert iv.normal[0] < 0 and iv.normal_clipped[0] == 0.0
    assert "normal_outside_unit_interval" in iv.flags
    a, b = iv.beta_params
    assert a < 1 and "beta_u_shaped" in iv.flags
    assert 0 <= iv.beta[0] < iv.beta[1] <= 1
    tidy = credible_intervals(0.4, 0.001, level=0.95)
    assert tidy.flags == []
    assert tidy.normal == pytest.approx((0.4 - 1.959964 * 0.0316228, 0.4 + 1.959964 * 0.0316228), abs=1e-6)
    assert "beta_degenerate" in credible_intervals(0.5, 0.26).flags


def test_no_counts_gives_a_clear_message_and_ess_sets_them():
    net = network_from_dsl("A->B", seed=1)
    with pytest.raises(NoDirichletCounts, match="set an effective sample size or learn from data"):
        error_bars(net, {"A": "s0"})
    alpha = dirichlet_counts(net, ess=20)
    np.testing.assert_allclose(alpha["B"], 20 * net.cpt("B"))
    per_row = dirichlet_counts(net, ess={"A": 5.0, "B": np.array([10.0, 40.0])})
    np.testing.assert_allclose(per_row["B"].sum(axis=-1), [10.0, 40.0])
    small = error_bars(net, {"A": "s0"}, {"B": "s1"}, ess=10).variance
    large = error_bars(net, {"A": "s0"}, {"B": "s1"}, ess=1000).variance
    assert large < small / 50          # variance shrinks like 1/(ESS + 1)


def test_monte_carlo_is_reproducible_and_matches_a_direct_single_network_evaluation():
    net = network_from_dsl("A->B; B->C", seed=3, concentration=2.0)
    alpha = dirichlet_counts(net, ess=15)
    a = query_samples(net, alpha, {"A": "s1"}, {"C": "s0"}, 50, seed=9)
    b = query_samples(net, alpha, {"A": "s1"}, {"C": "s0"}, 50, seed=9)
    np.testing.assert_array_equal(a, b)
    from bnstudio.inference import InferenceEngine
    from bnstudio.uncertainty import sample_parameters
    params = sample_parameters(alpha, 50, seed=9)
    other = net.copy()
    other.set_parameters({v: params[v][7] for v in net.variables})
    assert a[7] == pytest.approx(InferenceEngine(other).posterior("A", {"C": "s0"})["A"][1], abs=1e-12)


def test_counting_statistics_baseline():
    net = network_from_dsl("A->B", seed=0)
    data = np.array([[0, 0], [0, 1], [0, 1], [1, 1], [0, 0]])
    out = counting_statistics(net, data, {"A": "s0"}, {"B": "s1"}, prior=1.0)
    assert out["n"] == 3 and out["ml_estimate"] == pytest.approx(2 / 3)
    assert out["ml_variance"] == pytest.approx((2 / 3) * (1 / 3) / 3)
    assert out["mp_estimate"] == pytest.approx(3 / 5)
    assert out["mp_variance"] == pytest.approx(0.6 * 0.4 / 6)


def test_counting_statistics_match_a_table_by_column_name():
    """A DataFrame of state names, its columns in another order, counts the rows the codes count (issue 35)."""
    pd = pytest.importorskip("pandas")
    net = network_from_dsl("A->B", seed=0)
    data = np.array([[0, 0], [0, 1], [0, 1], [1, 1], [0, 0]])
    frame = pd.DataFrame({"B": np.array(["s0", "s1"])[data[:, 1]], "A": np.array(["s0", "s1"])[data[:, 0]]})
    assert counting_statistics(net, frame, {"A": "s0"}, {"B": "s1"}) == counting_statistics(net, data, {"A": "s0"},
                                                                                            {"B": "s1"})


def test_error_bars_json_record_has_the_documented_keys():
    net = network_from_dsl("A->B; B->C", seed=3, concentration=2.0)
    record = error_bars(net, {"A": "s1"}, {"C": "s0"}, ess=30, mc=200, seed=1).to_json()
    assert {"target", "evidence", "mean", "variance", "normal", "beta", "beta_params", "flags",
            "contributions", "mc"} <= set(record)
    assert {"variable", "parents", "variance"} <= set(record["contributions"][0])
    assert {"coverage_normal", "coverage_beta", "ks_normal_p", "ks_beta_p", "quantiles"} <= set(record["mc"])
