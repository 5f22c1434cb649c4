"""Seeded hold-out splits: a train/test split of a :class:`Dataset` and k-fold index generators.

Indices inside each part are sorted, so both parts keep the file's row order.

>>> train, test = train_test_indices(10, 0.3, seed=1)
>>> len(train), len(test), sorted(set(train) | set(test)) == list(range(10))
(7, 3, True)
"""
from __future__ import annotations

from typing import Iterator

import numpy as np

from bnstudio.data.dataset import Dataset
from bnstudio.errors import ValidationError
from bnstudio.learn.splits import train_test_indices


def train_test_split(dataset: Dataset, test_fraction: float, seed: int | None) -> tuple[Dataset, Dataset]:
    """(train, test) datasets; the same seed gives the same split."""
    train, test = train_test_indices(dataset.n_rows, test_fraction, seed)
    return dataset.select_rows(train), dataset.select_rows(test)


def k_folds(n: int, k: int, seed: int | None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield k (train, test) sorted index arrays; the test parts partition range(n), sizes differ by <= 1."""
    if int(k) != k or not 2 <= k <= n:
        raise ValidationError(f"k-fold needs 2 <= k <= n (n = {n}), got k = {k}")
    perm = np.random.default_rng(seed).permutation(n)
    for test in np.array_split(perm, int(k)):
        mask = np.ones(n, dtype=bool)
        mask[test] = False
        yield np.flatnonzero(mask), np.sort(test)
