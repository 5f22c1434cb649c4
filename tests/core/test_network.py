"""Network basics: variables (add/remove/rename), names, unknown names, copy, order, n_parameters, build_network."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core import Network, Variable, build_network
from bnstudio.errors import CycleError, UnknownStateError, UnknownVariableError, ValidationError

from .conftest import A_CPT, B_CPT, C_ALPHA, C_CPT


# ------------------------------------------------------------------ construction and queries
def test_fixture_queries(net):
    assert net.variables == ["A", "B", "C"]
    assert len(net) == 3 and "B" in net and "Z" not in net
    assert net.parents("C") == ("A", "B")
    assert net.children("A") == ["C"] and net.children("C") == []
    assert net.family_shape("C") == (2, 3, 2)
    assert net.cardinality("B") == 3
    assert sorted(net.arcs()) == [("A", "C"), ("B", "C")]
    np.testing.assert_allclose(net.cpt("C"), C_CPT)
    np.testing.assert_allclose(net.alpha("C"), C_ALPHA)
    assert net.alpha("A") is None
    assert net.positions["C"] == (0.5, 1.0)


def test_default_cpt_is_uniform():
    n = Network()
    n.add_variable("X", ["a", "b", "c", "d"])
    n.add_variable("Y", ["y", "n"], parents=["X"])
    np.testing.assert_allclose(n.cpt("X"), [0.25] * 4)
    np.testing.assert_allclose(n.cpt("Y"), np.full((4, 2), 0.5))


def test_flat_cpt_is_reshaped_row_major():
    n = Network()
    n.add_variable("A", ["s0", "s1"])
    n.add_variable("B", ["s0", "s1"], parents=["A"], cpt=[0.9, 0.1, 0.2, 0.8])
    np.testing.assert_allclose(n.cpt("B"), [[0.9, 0.1], [0.2, 0.8]])


def test_cpt_and_alpha_are_read_only(net):
    for arr in (net.cpt("C"), net.alpha("C"), net.cpt("A")):
        with pytest.raises(ValueError):
            arr[(0,) * arr.ndim] = 0.5
    np.testing.assert_allclose(net.cpt("C"), C_CPT)


def test_input_array_is_not_aliased():
    src = np.array([0.3, 0.7])
    n = Network()
    n.add_variable("A", ["s0", "s1"], cpt=src)
    src[0] = 0.9
    np.testing.assert_allclose(n.cpt("A"), [0.3, 0.7])


# ------------------------------------------------------------------ names
@pytest.mark.parametrize("bad", ["", " A", "A ", "A\nB", None, 3])
def test_bad_variable_names_refused(bad):
    n = Network()
    with pytest.raises(ValidationError, match="invalid variable name"):
        n.add_variable(bad, ["s0", "s1"])
    assert len(n) == 0


def test_duplicate_variable_refused(net, snapshot):
    before = snapshot(net)
    with pytest.raises(ValidationError, match="'A' already exists"):
        net.add_variable("A", ["x", "y"])
    assert snapshot(net) == before


@pytest.mark.parametrize("states, match", [
    (["x", "x"], "has the state 'x' twice"),
    ([], "at least one state"),
    (["x", ""], "invalid state of 'V' name"),
])
def test_bad_states_refused(states, match):
    n = Network()
    with pytest.raises(ValidationError, match=match):
        n.add_variable("V", states)
    assert "V" not in n


def test_duplicate_parent_refused(net):
    with pytest.raises(ValidationError, match="lists a parent twice"):
        net.add_variable("D", ["d0", "d1"], parents=["A", "A"])
    assert "D" not in net and net.children("A") == ["C"]


def test_variable_index_and_unknown_state():
    v = Variable("Smoker", ("yes", "no"))
    assert v.index("no") == 1 and v.cardinality == 2
    with pytest.raises(UnknownStateError) as info:
        v.index("maybe")
    assert str(info.value) == "variable 'Smoker' has no state 'maybe' (states: yes, no)"


# ------------------------------------------------------------------ unknown names
@pytest.mark.parametrize("call", [
    lambda n: n.states("Z"), lambda n: n.cpt("Z"), lambda n: n.parents("Z"), lambda n: n.children("Z"),
    lambda n: n.alpha("Z"), lambda n: n.remove_variable("Z"), lambda n: n.rename_variable("Z", "Y"),
    lambda n: n.add_arc("Z", "C"), lambda n: n.add_arc("A", "Z"), lambda n: n.remove_arc("Z", "C"),
    lambda n: n.reverse_arc("Z", "C"), lambda n: n.add_variable("D", ["x"], parents=["Z"]),
    lambda n: n.set_parents("C", ["A", "Z"]), lambda n: n.set_cpt("Z", [1.0]),
    lambda n: n.add_state("Z", "x"), lambda n: n.variable(["unhashable"]),
], ids=["states", "cpt", "parents", "children", "alpha", "remove_variable", "rename_variable",
        "add_arc_parent", "add_arc_child", "remove_arc", "reverse_arc", "add_variable_parent",
        "set_parents", "set_cpt", "add_state", "unhashable"])
def test_unknown_variable_errors(net, snapshot, call):
    before = snapshot(net)
    with pytest.raises(UnknownVariableError) as info:
        call(net)
    assert "unknown variable" in str(info.value)
    assert not str(info.value).startswith(("'", '"'))  # not KeyError's quoted repr
    assert snapshot(net) == before


@pytest.mark.parametrize("call", [
    lambda n: n.remove_state("A", "nope"), lambda n: n.rename_state("A", "nope", "x"),
    lambda n: n.set_cpt_row("C", {"A": "s0", "B": "nope"}, [0.5, 0.5]),
], ids=["remove_state", "rename_state", "set_cpt_row"])
def test_unknown_state_errors(net, snapshot, call):
    before = snapshot(net)
    with pytest.raises(UnknownStateError, match="has no state 'nope'") as info:
        call(net)
    assert str(info.value).startswith("variable '")
    assert snapshot(net) == before


# ------------------------------------------------------------------ variable edits
def test_remove_variable_averages_children_and_pools_alpha(net):
    net.remove_variable("A")
    assert net.variables == ["B", "C"] and net.parents("C") == ("B",)
    assert "A" not in net.positions and "A" not in net.graph()
    np.testing.assert_allclose(net.cpt("C"), [[0.25, 0.75], [0.35, 0.65], [0.45, 0.55]])
    np.testing.assert_allclose(net.alpha("C"), [[5, 15], [7, 13], [9, 11]])
    net.validate()


def test_remove_child_variable_leaves_parents_alone(net):
    net.remove_variable("C")
    assert net.variables == ["A", "B"] and net.arcs() == []
    np.testing.assert_allclose(net.cpt("A"), A_CPT)
    np.testing.assert_allclose(net.cpt("B"), B_CPT)


def test_rename_variable_everywhere(net):
    net.rename_variable("A", "Alpha")
    assert net.variables == ["Alpha", "B", "C"]
    assert net.parents("C") == ("Alpha", "B")
    assert net.children("Alpha") == ["C"]
    assert net.variable("Alpha").name == "Alpha" and net.states("Alpha") == ("s0", "s1")
    assert net.positions["Alpha"] == (0.0, 0.0) and "A" not in net.positions
    assert sorted(net.graph().edges()) == [("Alpha", "C"), ("B", "C")]
    assert net.topological_order() == ["Alpha", "B", "C"]
    np.testing.assert_allclose(net.cpt("Alpha"), A_CPT)
    np.testing.assert_allclose(net.cpt("C"), C_CPT)
    with pytest.raises(UnknownVariableError):
        net.cpt("A")


def test_rename_variable_refusals(net, snapshot):
    before = snapshot(net)
    with pytest.raises(ValidationError, match="'B' already exists"):
        net.rename_variable("A", "B")
    with pytest.raises(ValidationError, match="invalid variable name"):
        net.rename_variable("A", "")
    assert snapshot(net) == before


# ------------------------------------------------------------------ copy
def test_copy_is_independent(net):
    dup = net.copy()
    dup.set_cpt("A", [0.5, 0.5])
    dup.add_state("B", "b3")
    dup.remove_arc("A", "C")
    dup.rename_variable("C", "Cee")
    dup.positions["B"] = (9.0, 9.0)
    dup.add_variable("D", ["d0", "d1"], parents=["B"])
    assert net.variables == ["A", "B", "C"] and net.parents("C") == ("A", "B")
    assert net.states("B") == ("b0", "b1", "b2") and net.positions["B"] == (1.0, 0.0)
    assert sorted(net.graph().edges()) == [("A", "C"), ("B", "C")]
    np.testing.assert_allclose(net.cpt("A"), A_CPT)
    np.testing.assert_allclose(net.cpt("C"), C_CPT)
    np.testing.assert_allclose(net.alpha("C"), C_ALPHA)
    net.validate()
    dup.validate()


def test_copy_has_no_listeners_and_original_edits_do_not_leak(net):
    seen = []
    net.events.subscribe(seen.append)
    dup = net.copy()
    dup.add_arc("A", "B")
    assert seen == []
    net.remove_variable("B")
    assert dup.variables == ["A", "B", "C"] and dup.parents("B") == ("A",)


# ------------------------------------------------------------------ order, parameters
def test_topological_order_parents_first():
    n = Network()
    for name in ["D", "C", "B", "A"]:
        n.add_variable(name, ["s0", "s1"])
    n.add_arc("A", "B")
    n.add_arc("B", "C")
    n.add_arc("C", "D")
    n.add_arc("A", "D")
    order = n.topological_order()
    assert order == ["A", "B", "C", "D"]
    for parent, child in n.arcs():
        assert order.index(parent) < order.index(child)


def test_topological_order_ties_follow_insertion():
    n = Network()
    for name in ["Z", "Y", "X"]:
        n.add_variable(name, ["s0", "s1"])
    assert n.topological_order() == ["Z", "Y", "X"]
    n.add_arc("X", "Z")
    assert n.topological_order() == ["Y", "X", "Z"]


def test_n_parameters_hand_example(net):
    # A: 1, B: 2, C: (2 - 1) * 2 * 3 = 6
    assert net.n_parameters() == 9
    net.add_variable("D", ["d0", "d1", "d2", "d3"], parents=["C", "B"])  # (4 - 1) * 2 * 3 = 18
    assert net.n_parameters() == 27
    assert Network().n_parameters() == 0


# ------------------------------------------------------------------ build_network
def test_build_network_keeps_declaration_order():
    families = [
        ("Wet", ["y", "n"], ["Rain", "Sprinkler"], np.array([[[1, 0], [0.9, 0.1]], [[0.8, 0.2], [0, 1]]])),
        ("Rain", ["y", "n"], [], [0.2, 0.8]),
        ("Sprinkler", ["on", "off"], ["Rain"], [[0.01, 0.99], [0.4, 0.6]]),
    ]
    n = build_network(families, name="grass")
    assert n.name == "grass" and n.variables == ["Wet", "Rain", "Sprinkler"]
    assert n.parents("Wet") == ("Rain", "Sprinkler")
    assert n.topological_order() == ["Rain", "Sprinkler", "Wet"]
    np.testing.assert_allclose(n.cpt("Wet")[0, 1], [0.9, 0.1])
    np.testing.assert_allclose(n.cpt("Sprinkler"), [[0.01, 0.99], [0.4, 0.6]])
    n.validate()


def test_build_network_unknown_parent():
    with pytest.raises(ValidationError, match="'B' has unknown parent\\(s\\): X, Y"):
        build_network([("A", ["a"], [], None), ("B", ["b"], ["X", "A", "Y"], None)])


def test_build_network_cycle():
    families = [("A", ["s0", "s1"], ["C"], None), ("B", ["s0", "s1"], ["A"], None),
                ("C", ["s0", "s1"], ["B"], None)]
    with pytest.raises(CycleError) as info:
        build_network(families)
    # the arcs C -> A and A -> B are in place when B -> C is refused
    assert info.value.cycle == ["C", "A", "B", "C"]
    assert str(info.value) == "arc B -> C would create the cycle C -> A -> B -> C"
