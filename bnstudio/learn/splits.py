"""Seeded row splits as index arrays: pure numpy, so the learners (an inner hold-out) and :mod:`bnstudio.data`
(a :class:`~bnstudio.data.dataset.Dataset`'s split, one layer up: :mod:`bnstudio.data.split`) share one rule.
"""
from __future__ import annotations

import numpy as np

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
