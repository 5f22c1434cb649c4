"""``add_variable(..., index=i)``: a variable inserted at a place in the variable order, which is what undoing a
deletion needs to put the network back exactly (variable order = table column order = file order)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bnstudio.core import Network
from bnstudio.errors import ValidationError
from bnstudio.io import read_network
from bnstudio.io.bif.writer import format_bif

NETWORKS = Path(__file__).resolve().parents[2] / "resources" / "networks"


def _decorated(path: Path, name: str) -> Network:
    """A stored network with everything a deletion could lose: positions, a description, a per-variable
    property, Dirichlet counts on ``name`` and on its first child."""
    net = read_network(path)
    for i, v in enumerate(net.variables):
        net.positions[v] = (10.0 * i, -5.5 * i)
    net.set_description(name, f"about {name}")
    net.properties[f"{name}.colour"] = "red"
    for v in (name, net.children(name)[0]):
        net.set_alpha(v, np.arange(np.prod(net.family_shape(v)), dtype=float).reshape(net.family_shape(v)))
    return net


def _remove_and_restore(net: Network, name: str) -> None:
    """Delete ``name``, then put it back at its index with its family and its children's families."""
    index, var = net.variables.index(name), net.variable(name)
    family = (net.parents(name), net.cpt(name), net.alpha(name))
    position = net.positions[name]
    children = {c: (net.parents(c), net.cpt(c), net.alpha(c)) for c in net.children(name)}
    net.remove_variable(name)
    assert name not in net and name not in net.positions
    net.add_variable(name, var.states, family[0], family[1], family[2], var.description, position, index=index)
    for child, (parents, cpt, alpha) in children.items():
        net.set_parents(child, parents, cpt, alpha)


def _assert_identical(a: Network, b: Network) -> None:
    assert b.variables == a.variables  # the order, not just the set
    assert b.arcs() == a.arcs() and b.topological_order() == a.topological_order()
    for v in a.variables:
        assert b.states(v) == a.states(v), v
        assert b.parents(v) == a.parents(v), v
        assert b.children(v) == a.children(v), v
        assert b.variable(v).description == a.variable(v).description, v
        np.testing.assert_array_equal(b.cpt(v), a.cpt(v))
        assert (b.alpha(v) is None) == (a.alpha(v) is None), v
        if a.alpha(v) is not None:
            np.testing.assert_array_equal(b.alpha(v), a.alpha(v))
    assert b.positions == a.positions and b.properties == a.properties
    assert format_bif(b) == format_bif(a)


@pytest.mark.parametrize("file, name", [("asia.bif", "either"), ("alarm.bif", "SAO2"), ("alarm.bif", "VENTLUNG")])
def test_remove_then_insert_at_the_old_index_restores_the_network_exactly(file, name):
    net = _decorated(NETWORKS / file, name)
    index = net.variables.index(name)
    assert 0 < index < len(net) - 1 and net.parents(name) and net.children(name)  # a middle variable
    original = net.copy()
    for _ in range(2):  # repeatable
        _remove_and_restore(net, name)
        _assert_identical(original, net)
        net.validate()


@pytest.mark.parametrize("index, expected", [(0, ["D", "A", "B", "C"]), (1, ["A", "D", "B", "C"]),
                                             (3, ["A", "B", "C", "D"]), (None, ["A", "B", "C", "D"])])
def test_index_places_the_variable(net, index, expected):
    net.add_variable("D", ["d0", "d1"], parents=["B"], position=(2, 2), index=index)
    assert net.variables == expected
    assert net.children("B") == [v for v in expected if v in ("C", "D")]
    assert net.parents("D") == ("B",) and net.cpt("D").shape == (3, 2)
    net.validate()


def test_index_orders_topological_ties(chain):
    chain.add_variable("R", ["s0", "s1"], index=0)
    assert chain.topological_order() == ["R", "A", "B", "C"]


@pytest.mark.parametrize("index", [-1, 4, 1.5, "1", True])
def test_bad_index_refused_and_nothing_changes(net, snapshot, index):
    before = snapshot(net)
    with pytest.raises(ValidationError, match="index"):
        net.add_variable("D", ["d0", "d1"], index=index)
    assert snapshot(net) == before


def test_insert_announces_an_add_variable_edit(net):
    seen = []
    net.events.subscribe(lambda e: seen.append((e.kind, e.phase, e.structural, e.data, net.variables)))
    versions = (net.structure_version, net.parameter_version)
    net.add_variable("D", ["d0", "d1"], index=1)
    assert seen == [("add_variable", "before", True, {"name": "D"}, ["A", "B", "C"]),
                    ("add_variable", "after", True, {"name": "D"}, ["A", "D", "B", "C"])]
    assert (net.structure_version, net.parameter_version) == (versions[0] + 1, versions[1] + 1)
