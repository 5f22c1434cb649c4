"""Fixtures for the project-file tests: paths and a strict project comparison."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bnstudio.io.project import Project

ROOT = Path(__file__).resolve().parents[2]
NETWORKS = sorted((ROOT / "resources" / "networks").glob("*.bif"))
DATA = Path(__file__).resolve().parent / "data"


def assert_same_project(a: Project, b: Project) -> None:
    """Same network (order, states, parents, exact CPTs and alpha, descriptions, positions, properties)
    and equal evidence sets, queries, runs, data and view."""
    na, nb = a.network, b.network
    assert na.name == nb.name
    assert na.variables == nb.variables
    for v in na.variables:
        assert na.states(v) == nb.states(v), v
        assert na.parents(v) == nb.parents(v), v
        assert na.variable(v).description == nb.variable(v).description, v
        assert np.array_equal(na.cpt(v), nb.cpt(v)), v
        if na.alpha(v) is None:
            assert nb.alpha(v) is None, v
        else:
            assert np.array_equal(na.alpha(v), nb.alpha(v)), v
    assert na.properties == nb.properties
    assert na.positions == nb.positions
    assert a.evidence_sets == b.evidence_sets
    assert a.queries == b.queries
    assert a.runs == b.runs
    assert a.data == b.data
    assert a.view == b.view


@pytest.fixture
def same_project():
    return assert_same_project
