"""Fixtures for the file-format tests: a strict network comparison."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core.network import Network


def _assert_same_network(a: Network, b: Network) -> None:
    """Same name, variable order, states, parents, exactly equal CPTs, properties and positions."""
    assert a.name == b.name
    assert a.variables == b.variables
    for v in a.variables:
        assert a.states(v) == b.states(v), v
        assert a.parents(v) == b.parents(v), v
        assert np.array_equal(a.cpt(v), b.cpt(v)), v
    assert a.properties == b.properties
    assert a.positions == b.positions


@pytest.fixture
def same_network():
    """``same_network(a, b)`` asserts that two networks are identical (CPTs exactly equal)."""
    return _assert_same_network
