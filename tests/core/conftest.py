"""Shared fixtures for the core tests: a small hand-specified network and a state snapshot."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core import Network

A_CPT = [0.3, 0.7]
B_CPT = [0.2, 0.5, 0.3]
# C | A, B   shape (2, 3, 2)
C_CPT = [[[0.1, 0.9], [0.2, 0.8], [0.3, 0.7]],
         [[0.4, 0.6], [0.5, 0.5], [0.6, 0.4]]]
C_ALPHA = [[[1.0, 9.0], [2.0, 8.0], [3.0, 7.0]],
           [[4.0, 6.0], [5.0, 5.0], [6.0, 4.0]]]


@pytest.fixture
def net() -> Network:
    """A(s0,s1) -> C <- B(b0,b1,b2); C(c0,c1) has Dirichlet counts."""
    n = Network("fixture")
    n.add_variable("A", ["s0", "s1"], cpt=A_CPT, position=(0, 0))
    n.add_variable("B", ["b0", "b1", "b2"], cpt=B_CPT, position=(1, 0))
    n.add_variable("C", ["c0", "c1"], parents=["A", "B"], cpt=C_CPT, alpha=np.array(C_ALPHA),
                   position=(0.5, 1))
    return n


@pytest.fixture
def chain() -> Network:
    """A -> B -> C, all binary, uniform CPTs."""
    n = Network("chain")
    n.add_variable("A", ["s0", "s1"])
    n.add_variable("B", ["s0", "s1"], parents=["A"])
    n.add_variable("C", ["s0", "s1"], parents=["B"])
    return n


def _snapshot(n: Network) -> dict:
    return {
        "variables": n.variables,
        "states": {v: n.states(v) for v in n.variables},
        "parents": {v: n.parents(v) for v in n.variables},
        "arcs": sorted(n.arcs()),
        "edges": sorted(n.graph().edges()),
        "cpt": {v: n.cpt(v).tolist() for v in n.variables},
        "alpha": {v: None if n.alpha(v) is None else n.alpha(v).tolist() for v in n.variables},
        "positions": dict(n.positions),
        "versions": (n.structure_version, n.parameter_version),
    }


@pytest.fixture
def snapshot():
    """``snapshot(net)``: everything observable about a network, for "unchanged after a refused edit" checks."""
    return _snapshot
