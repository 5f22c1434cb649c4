"""Friedman, Nemenyi and Holm over all methods (Demšar 2006 §3.2.2), checked against scipy and brute force."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import chi2, friedmanchisquare, norm

from bnstudio.experiment import ranks
from bnstudio.figures.plots import rank_groups


def _brute_ranks(values: np.ndarray, higher: bool) -> np.ndarray:
    """1 + the number of better values + half the number of other equal values, per row."""
    out = np.zeros_like(values, dtype=float)
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            better = sum((w > v) if higher else (w < v) for w in row)
            ties = sum(w == v for w in row) - 1
            out[i, j] = 1 + better + ties / 2
    return out


@pytest.mark.parametrize("seed, n, k, levels", [(0, 5, 3, 100), (1, 8, 4, 3), (2, 12, 6, 4), (3, 4, 5, 1000)])
def test_ranks_and_friedman_agree_with_brute_force_and_scipy(seed, n, k, levels):
    values = np.random.default_rng(seed).integers(0, levels, (n, k)).astype(float)   # few levels: ties
    for higher in (False, True):
        assert np.array_equal(ranks.rank_matrix(values, higher), _brute_ranks(values, higher))
    r = ranks.rank_matrix(values)
    statistic, p, f_f, f_p = ranks.friedman(r)
    expected = friedmanchisquare(*values.T)
    assert statistic == pytest.approx(expected.statistic) and p == pytest.approx(expected.pvalue)
    if len(np.unique(values)) == values.size:       # no ties: Demšar's formula from the average ranks
        average = r.mean(axis=0)
        demsar = 12 * n / (k * (k + 1)) * (sum(average ** 2) - k * (k + 1) ** 2 / 4)
        assert statistic == pytest.approx(demsar)
    assert f_f == pytest.approx((n - 1) * statistic / (n * (k - 1) - statistic))


def test_nemenyi_critical_difference_matches_demsar_table_5a():
    # Demšar §3.2.4: four classifiers on 14 data sets, q_0.05 = 2.569, CD = 1.25
    assert ranks.nemenyi_cd(4, 14) == pytest.approx(2.569 * math.sqrt(4 * 5 / (6 * 14)), abs=1e-3)
    assert ranks.nemenyi_cd(4, 14) == pytest.approx(1.25, abs=0.005)
    assert [round(ranks.nemenyi_cd(k, 6 * k * (k + 1)) * 6, 3) for k in (2, 3, 5, 10)] == [1.96, 2.344, 2.728, 3.164]


def test_holm_adjusts_the_rank_z_tests_step_down():
    average, names, n = [2.1, 1.6, 2.4, 4.2, 4.7], ["mp", "clgd", "wanbia", "bag", "ml"], 8
    found = ranks.holm(average, names, "mp", n)
    se = math.sqrt(5 * 6 / (6 * n))
    raw = {m: 2 * norm.sf(abs(r - 2.1) / se) for m, r in zip(names, average, strict=True) if m != "mp"}
    ordered = sorted(raw, key=raw.get)
    adjusted, running = {}, 0.0
    for i, m in enumerate(ordered):      # Holm: (m − i) p_(i), made monotone, capped at 1
        running = max(running, min(1.0, (len(ordered) - i) * raw[m]))
        adjusted[m] = running
    assert found == pytest.approx(adjusted)
    assert found["ml"] < 0.05 < found["clgd"]


def test_rank_tests_use_complete_data_sets_only():
    from bnstudio.experiment.summary import Cell

    table = {}
    rng = np.random.default_rng(4)
    for d in range(6):
        for m in ("a", "b", "c"):
            table[f"d{d}", "nb", m] = Cell(float(rng.uniform()), 0.0, 5, 0, 5 if (d, m) != (2, "b") else 4, 5)
    [test] = ranks.rank_tests(table, [f"d{d}" for d in range(6)], ["nb"], ["a", "b", "c"], "a", "error", False)
    assert (test.n, test.left_out) == (5, 1)
    values = np.array([[table[f"d{d}", "nb", m].mean for m in "abc"] for d in (0, 1, 3, 4, 5)])
    assert test.chi2 == pytest.approx(friedmanchisquare(*values.T).statistic)
    assert test.p == pytest.approx(chi2.sf(test.chi2, 2))


def test_the_diagram_bars_join_methods_closer_than_the_critical_difference():
    assert rank_groups([2.1, 1.6, 2.4, 4.2, 4.7], 2.16) == [(0, 2), (1, 3), (3, 4)]
    assert rank_groups([1.0, 3.0, 5.0], 1.5) == []


def test_identical_rankings_leave_iman_davenport_undefined_not_zero():
    values = np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]])
    statistic, p, f_f, f_p = ranks.friedman(ranks.rank_matrix(values))
    assert statistic == pytest.approx(4.0) and p == pytest.approx(chi2.sf(4.0, 2))
    assert math.isnan(f_f) and math.isnan(f_p)
