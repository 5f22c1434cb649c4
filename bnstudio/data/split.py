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


def train_test_indices(n: int, test_fraction: float, seed: int | None) -> tuple[np.ndarray, np.ndarray]:
    """(train, test) sorted row indices; the test part has ``round(test_fraction * n)`` rows, at least one and
    at most ``n - 1``."""
    if not 0 < test_fraction < 1:
        raise ValidationError(f"test_fraction must lie strictly between 0 and 1, got {test_fraction}")
    if n < 2:
        raise ValidationError(f"cannot split {n} row(s) into a training and a test part")
    n_test = min(max(int(round(test_fraction * n)), 1), n - 1)
    perm = np.random.default_rng(seed).permutation(n)
    return np.sort(perm[n_test:]), np.sort(perm[:n_test])


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
