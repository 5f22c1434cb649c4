"""Shared data generators for parameter-learning tests (data are generated in the tests, seeded)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from bnstudio.core import network_from_dsl


def naive_bayes(n_attributes: int, states: int = 2, seed: int = 0):
    attrs = [f"X{i}" for i in range(n_attributes)]
    names = {a: [f"v{k}" for k in range(states)] for a in attrs}
    return network_from_dsl("C->" + ",".join(attrs), seed=seed, states=names), attrs


@pytest.fixture
def mofn():
    """mofn-3-7-10: class = 1 iff at least 3 of the first 7 of 10 binary attributes are 1.

    300 training cases drawn uniformly; the test set is all 1024 configurations (Zhou Table 4-2)."""
    net, _ = naive_bayes(10)
    rng = np.random.default_rng(1)
    x = rng.integers(0, 2, (300, 10))
    train = np.column_stack([(x[:, :7].sum(axis=1) >= 3).astype(int), x])
    xt = np.array(list(itertools.product([0, 1], repeat=10)))
    yt = (xt[:, :7].sum(axis=1) >= 3).astype(int)
    return net, train, xt, yt
