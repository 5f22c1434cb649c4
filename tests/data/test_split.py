"""Seeded hold-out splits."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.data import Dataset, k_folds, train_test_indices, train_test_split
from bnstudio.errors import ValidationError


def _dataset(n: int) -> Dataset:
    return Dataset(["A"], [tuple(str(k) for k in range(n))], np.arange(n)[:, None], weights=np.arange(n) * 1.0)


def test_train_test_split_partitions_rows_reproducibly():
    ds = _dataset(50)
    train, test = train_test_split(ds, 0.2, seed=4)
    assert test.n_rows == 10 and train.n_rows == 40
    rows = np.r_[train.column("A"), test.column("A")]
    assert sorted(rows.tolist()) == list(range(50))
    assert np.all(np.diff(train.column("A")) > 0)  # file order is kept inside each part
    assert np.array_equal(train.weights, train.column("A") * 1.0)
    again, _ = train_test_split(ds, 0.2, seed=4)
    other, _ = train_test_split(ds, 0.2, seed=5)
    assert np.array_equal(again.codes, train.codes) and not np.array_equal(other.codes, train.codes)


def test_tiny_fractions_still_leave_both_parts_non_empty():
    train, test = train_test_indices(5, 0.01, seed=0)
    assert len(test) == 1 and len(train) == 4
    train, test = train_test_indices(5, 0.99, seed=0)
    assert len(test) == 4 and len(train) == 1


@pytest.mark.parametrize("n, fraction", [(10, 0.0), (10, 1.0), (1, 0.5)])
def test_bad_splits_are_refused(n, fraction):
    with pytest.raises(ValidationError):
        train_test_indices(n, fraction, seed=0)


def test_k_folds_partition_and_complement():
    folds = list(k_folds(23, 5, seed=1))
    assert len(folds) == 5
    tests = [test for _, test in folds]
    assert sorted(np.concatenate(tests).tolist()) == list(range(23))
    assert sorted(len(t) for t in tests) == [4, 4, 5, 5, 5]
    for train, test in folds:
        assert np.intersect1d(train, test).size == 0 and len(train) + len(test) == 23
        assert np.all(np.diff(train) > 0) and np.all(np.diff(test) > 0)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(folds, k_folds(23, 5, seed=1), strict=True))


@pytest.mark.parametrize("n, k", [(10, 1), (3, 4), (10, 2.5)])
def test_bad_fold_counts_are_refused(n, k):
    with pytest.raises(ValidationError, match="k-fold"):
        list(k_folds(n, k, seed=0))
