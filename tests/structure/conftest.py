"""Seeded data generators for the structure-learning tests."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.sampling import forward_sample


def sample(dsl: str, n: int, seed: int = 0, states: dict | None = None):
    """(codes, names, states, network) for ``n`` forward samples of a random-CPT network."""
    net = network_from_dsl(dsl, seed=seed, states=states)
    codes = forward_sample(net, n, seed=seed + 1)
    return codes, net.variables, [net.states(v) for v in net.variables], net


def corral(n: int, seed: int) -> np.ndarray:
    """Kohavi & John's corral: class = (A0 and A1) or (B0 and B1); Correlated agrees with it 75% of the time;
    Irrelevant is noise. Columns A0, A1, B0, B1, Irrelevant, Correlated, Class."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 2, (n, 5))
    c = ((x[:, 0] & x[:, 1]) | (x[:, 2] & x[:, 3])).astype(np.int64)
    correlated = np.where(rng.random(n) < 0.75, c, 1 - c)
    return np.column_stack([x, correlated, c]).astype(np.int64)


CORRAL_NAMES = ["A0", "A1", "B0", "B1", "Irrelevant", "Correlated", "Class"]


@pytest.fixture(scope="session")
def alarm_10k():
    from pathlib import Path

    from bnstudio.io import read_network
    net = read_network(Path(__file__).resolve().parents[2] / "resources" / "networks" / "alarm.bif")
    codes = forward_sample(net, 10_000, seed=7)
    return net, codes
