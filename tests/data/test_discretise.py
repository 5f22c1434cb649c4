"""Discretisation: equal width/frequency on hand examples, MDL against a brute-force reference, apply()."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from bnstudio.data import Discretiser, discretise_frame, equal_frequency, equal_width, from_frame, mdl
from bnstudio.data.mdl import boundary_positions
from bnstudio.errors import ValidationError


def test_labels_and_apply():
    d = Discretiser.from_cuts([3.2, 1.5])
    assert d.cuts.tolist() == [1.5, 3.2]
    assert d.labels == ("(-inf, 1.5]", "(1.5, 3.2]", "(3.2, inf)")
    assert d.apply([1.0, 1.5, 1.6, 3.2, 3.3, np.nan, -np.inf, np.inf]).tolist() == [0, 0, 1, 1, 2, -1, 0, 2]
    assert d.apply(np.array([2.0])).dtype == np.int64
    assert Discretiser.from_cuts([]).labels == ("(-inf, inf)",)


def test_labels_keep_close_cuts_apart():
    d = Discretiser.from_cuts([1.000001, 1.000002, 2.0])
    assert len(set(d.labels)) == 4
    assert d.labels[1] == "(1.000001, 1.000002]"


def test_equal_width_hand_examples():
    assert equal_width([0.0, 10.0], 4).cuts.tolist() == [2.5, 5.0, 7.5]
    d = equal_width([1, 2, 3, 4, 5, np.nan], 2)
    assert d.cuts.tolist() == [3.0]
    assert d.apply([1, 3, 3.01, 5, np.nan]).tolist() == [0, 0, 1, 1, -1]
    assert equal_width([2, 2, 2], 3).cuts.size == 0
    assert equal_width([-1, 1], 1).n_bins == 1


def test_equal_frequency_hand_examples():
    assert equal_frequency(np.arange(1, 9), 4).cuts.tolist() == [2.5, 4.5, 6.5]
    assert equal_frequency([5, 1, 4, 2, 3, 6], 3).cuts.tolist() == [2.5, 4.5]
    assert equal_frequency([1, 1, 1, 1, 2, 3, 4, 5], 2).cuts.tolist() == [1.5]
    tied = equal_frequency([1, 1, 1, 1, 1, 1, 2, 3], 2)  # tied values are never split
    assert tied.cuts.tolist() == [1.5]
    assert np.bincount(tied.apply([1, 1, 1, 1, 1, 1, 2, 3])).tolist() == [6, 2]
    assert equal_frequency([7, 7, 7, 7], 3).cuts.size == 0
    assert equal_frequency([1, 2, 3, 3, 3, 3], 2).cuts.tolist() == [2.5]  # nearest gap below the tie
    assert equal_frequency([1, 1, 1, 3, 3, 3, 3, 3, 3, 4, 4, 4], 4).cuts.tolist() == [2.0, 3.5]
    assert equal_frequency([1, 2, 2, 2, 2, 2, 2, 3], 2).cuts.tolist() == [1.5]  # equally near: the lower gap


def test_equal_frequency_balances_large_samples():
    x = np.random.default_rng(3).normal(size=10_000)
    counts = np.bincount(equal_frequency(x, 5).apply(x))
    assert counts.tolist() == [2000] * 5


@pytest.mark.parametrize("bad", [0, -2, 2.5])
def test_bin_count_must_be_positive_integer(bad):
    with pytest.raises(ValidationError, match="number of bins"):
        equal_width([1, 2], bad)


def test_non_numbers_and_all_missing_are_refused():
    with pytest.raises(ValidationError, match="row 2 holds 'abc'"):
        equal_width(["1", "abc", "3"], 2)
    with pytest.raises(ValidationError, match="no non-missing values"):
        equal_frequency([np.nan, None], 2)


# ---------------------------------------------------------------------------------------------- MDL
def _entropy(labels: list[int]) -> float:
    n = len(labels)
    return -sum(c / n * math.log2(c / n) for c in (labels.count(k) for k in set(labels)))


def brute_mdl(x: list[float], y: list[int]) -> list[float]:
    """Fayyad & Irani written the plain way: every boundary point tried by counting, O(N^2) per level."""
    pairs = sorted(zip(x, y, strict=True))
    cuts: list[float] = []

    def split(part: list[tuple[float, int]]) -> None:
        n = len(part)
        best = None
        for i in range(1, n):
            a, b = part[i - 1][0], part[i][0]
            if a == b:
                continue
            classes_a = {c for v, c in part if v == a}
            classes_b = {c for v, c in part if v == b}
            if len(classes_a) == 1 and classes_a == classes_b:
                continue  # not a boundary point
            left, right = [c for _, c in part[:i]], [c for _, c in part[i:]]
            e = (len(left) * _entropy(left) + len(right) * _entropy(right)) / n
            if best is None or e < best[0] - 1e-12:
                best = (e, i, left, right)
        if best is None:
            return
        e, i, left, right = best
        whole = [c for _, c in part]
        k, k1, k2 = len(set(whole)), len(set(left)), len(set(right))
        delta = math.log2(3 ** k - 2) - (k * _entropy(whole) - k1 * _entropy(left) - k2 * _entropy(right))
        if _entropy(whole) - e > (math.log2(n - 1) + delta) / n:
            cuts.append((part[i - 1][0] + part[i][0]) / 2)
            split(part[:i])
            split(part[i:])

    split(pairs)
    return sorted(cuts)


def test_boundary_points_skip_gaps_between_pure_values_of_one_class():
    x = np.array([1, 1, 2, 3, 3, 4, 5, 6, 6], dtype=float)
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1, 0])
    cum = np.vstack([np.zeros((1, 2), int), np.cumsum(np.eye(2, dtype=int)[y], axis=0)])
    # gaps: 1|2 (0 vs 0: no), 2|3 (0 vs {0,1}: yes), 3|4 (yes), 4|5 (1 vs 1: no), 5|6 (1 vs {0,1}: yes)
    assert boundary_positions(x, cum).tolist() == [3, 5, 7]


def test_mdl_finds_the_obvious_cut():
    x = np.arange(100, dtype=float)
    d = mdl(x, (x >= 50).astype(int))
    assert d.cuts.tolist() == [49.5]
    assert d.labels == ("(-inf, 49.5]", "(49.5, inf)")


def test_mdl_finds_two_cuts_for_three_separated_classes():
    x = np.random.default_rng(5).permutation(np.arange(90.0))
    classes = np.where(x < 30, "low", np.where(x < 60, "mid", "high"))
    assert mdl(x, classes).cuts.tolist() == [29.5, 59.5]


def test_mdl_finds_no_cut_when_the_class_is_independent_of_the_value():
    rng = np.random.default_rng(12345)
    x, classes = rng.normal(size=500), rng.integers(0, 2, size=500)
    assert mdl(x, classes).cuts.size == 0


@pytest.mark.parametrize("seed", range(12))
def test_mdl_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 70))
    x = rng.integers(0, 25, size=n).astype(float)  # ties on purpose
    n_classes = int(rng.integers(2, 4))
    noisy = (x // (25 / n_classes)).astype(int)
    y = np.where(rng.random(n) < 0.15, rng.integers(0, n_classes, size=n), noisy)
    expected = brute_mdl(x.tolist(), y.tolist())
    got = mdl(x, y).cuts.tolist()
    assert got == pytest.approx(expected)


def test_brute_force_reference_cases_are_not_all_trivial():
    """The comparison above would be weak if the reference never cut: check that it does on those seeds."""
    n_cuts = []
    for seed in range(12):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(20, 70))
        x = rng.integers(0, 25, size=n).astype(float)
        n_classes = int(rng.integers(2, 4))
        noisy = (x // (25 / n_classes)).astype(int)
        y = np.where(rng.random(n) < 0.15, rng.integers(0, n_classes, size=n), noisy)
        n_cuts.append(len(brute_mdl(x.tolist(), y.tolist())))
    assert max(n_cuts) >= 2 and min(n_cuts) >= 1


def test_mdl_skips_missing_values_and_classes_and_apply_matches_fit():
    rng = np.random.default_rng(7)
    x = rng.uniform(0, 10, size=400)
    y = (x > 6).astype(np.int64)
    x_missing, y_missing = x.copy(), y.copy()
    x_missing[:20] = np.nan
    y_missing[20:40] = -1
    d = mdl(x_missing, y_missing)
    assert d.cuts.size == 1 and 5.9 < d.cuts[0] < 6.1
    assert d.cuts[0] == pytest.approx(mdl(x[40:], y[40:]).cuts[0])
    codes = d.apply(x_missing)
    assert (codes[:20] == -1).all()
    assert np.array_equal(codes[20:], (x[20:] > d.cuts[0]).astype(int))
    fresh = rng.uniform(0, 10, size=50)
    assert np.array_equal(d.apply(fresh), np.searchsorted(d.cuts, fresh, side="left"))


def test_mdl_class_labels_may_be_strings_with_none():
    x = np.arange(40, dtype=float)
    classes = np.array(["a"] * 20 + ["b"] * 20, dtype=object)
    classes[3] = None
    assert mdl(x, classes).cuts.tolist() == [19.5]


# ---------------------------------------------------------------------------------------------- frames
def test_discretise_frame_and_reuse_on_test_data():
    rng = np.random.default_rng(0)
    train = pd.DataFrame({"age": rng.uniform(20, 80, 300), "dose": rng.uniform(0, 1, 300), "kind": "x"})
    train["sick"] = np.where(train["age"] > 50, "yes", "no")
    train.loc[5, "age"] = np.nan
    spec = {"age": "mdl", "dose": ("equal_frequency", 3)}
    cut, fitted = discretise_frame(train, spec, class_column="sick")
    assert set(fitted) == {"age", "dose"} and fitted["age"].n_bins == 2
    assert list(cut["age"].cat.categories) == list(fitted["age"].labels)
    assert pd.isna(cut.loc[5, "age"]) and cut["kind"].tolist() == train["kind"].tolist()
    assert train["age"].dtype == float  # the input frame is untouched
    test = pd.DataFrame({"age": [21.0, 79.0, np.nan], "dose": [0.0, 0.5, 1.0], "kind": "x", "sick": "no"})
    cut_test, again = discretise_frame(test, fitted)
    assert again == fitted
    assert cut_test["age"].cat.codes.tolist() == [0, 1, -1]
    assert cut_test["dose"].cat.codes.tolist() == fitted["dose"].apply([0.0, 0.5, 1.0]).tolist()
    ds = from_frame(cut_test.drop(columns="kind"))
    assert ds.column_states("age") == fitted["age"].labels  # interval order, not string order


def test_discretise_frame_errors():
    frame = pd.DataFrame({"a": [1.0, 2.0], "t": ["x", "y"]})
    with pytest.raises(ValidationError, match="needs an existing class_column"):
        discretise_frame(frame, {"a": "mdl"})
    with pytest.raises(ValidationError, match="unknown discretisation 'quantiles'"):
        discretise_frame(frame, {"a": "quantiles"})
    with pytest.raises(ValidationError, match="no such column"):
        discretise_frame(frame, {"b": ("equal_width", 2)})
    with pytest.raises(ValidationError, match="values of column 't' must be numbers: row 1 holds 'x'"):
        discretise_frame(frame, {"t": ("equal_width", 2)})


@pytest.mark.parametrize("bins", [float("nan"), float("inf"), -1, 0, 2.5, "3", True, None])
def test_a_bad_number_of_bins_is_one_validation_error(bins):
    with pytest.raises(ValidationError, match="^the number of bins must be a positive integer, got "):
        equal_width([1.0, 2.0, 3.0], bins)


def test_the_number_of_bins_is_bounded_before_anything_is_allocated():
    with pytest.raises(ValidationError, match=r"^the number of bins is 1,000,000,000, above the limit of 1,000,000 "
                                              r"\(set the environment variable BNSTUDIO_MAX_STATES to raise it\)$"):
        equal_frequency([1.0, 2.0, 3.0], 10 ** 9)
