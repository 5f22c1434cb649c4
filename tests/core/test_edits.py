"""Structure edits and how CPTs / Dirichlet counts follow them (policy in bnstudio/core/cpt_ops.py).

Every expected array below is written out by hand from the fixture in conftest.py.
"""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core import Network
from bnstudio.errors import CycleError, ValidationError

from .conftest import A_CPT, B_CPT, C_ALPHA, C_CPT

C = np.array(C_CPT)
CA = np.array(C_ALPHA)


# ------------------------------------------------------------------ arcs: parent added / removed
def test_add_arc_copies_cpt_and_splits_alpha(net):
    net.add_variable("D", ["d0", "d1", "d2"])
    net.add_arc("D", "C")
    assert net.parents("C") == ("A", "B", "D")
    assert net.cpt("C").shape == (2, 3, 3, 2) == net.family_shape("C")
    for d in range(3):
        np.testing.assert_allclose(net.cpt("C")[:, :, d, :], C)
        np.testing.assert_allclose(net.alpha("C")[:, :, d, :], CA / 3)
    assert net.alpha("C").sum() == pytest.approx(CA.sum())
    np.testing.assert_allclose(net.alpha("C").sum(axis=2), CA)
    net.validate()


def test_add_arc_into_root(net):
    net.add_arc("A", "B")
    np.testing.assert_allclose(net.cpt("B"), [B_CPT, B_CPT])
    assert net.alpha("B") is None


def test_remove_first_parent_averages_rows_and_sums_alpha(net):
    net.remove_arc("A", "C")
    assert net.parents("C") == ("B",) and net.children("A") == []
    np.testing.assert_allclose(net.cpt("C"), [[0.25, 0.75], [0.35, 0.65], [0.45, 0.55]])
    np.testing.assert_allclose(net.alpha("C"), [[5, 15], [7, 13], [9, 11]])
    assert sorted(net.graph().edges()) == [("B", "C")]


def test_remove_second_parent(net):
    net.remove_arc("B", "C")
    assert net.parents("C") == ("A",)
    np.testing.assert_allclose(net.cpt("C"), [[0.2, 0.8], [0.5, 0.5]])
    np.testing.assert_allclose(net.alpha("C"), [[6, 24], [15, 15]])


def test_remove_missing_arc_refused(net, snapshot):
    before = snapshot(net)
    with pytest.raises(ValidationError, match="there is no arc A -> B"):
        net.remove_arc("A", "B")
    assert snapshot(net) == before


def test_reverse_arc(net):
    net.reverse_arc("A", "C")
    assert net.parents("C") == ("B",) and net.parents("A") == ("C",)
    assert sorted(net.arcs()) == [("B", "C"), ("C", "A")]
    np.testing.assert_allclose(net.cpt("C"), [[0.25, 0.75], [0.35, 0.65], [0.45, 0.55]])
    np.testing.assert_allclose(net.alpha("C"), [[5, 15], [7, 13], [9, 11]])
    np.testing.assert_allclose(net.cpt("A"), [A_CPT, A_CPT])
    assert net.topological_order() == ["B", "C", "A"]
    net.validate()


def test_reverse_arc_refused_when_other_path_exists(snapshot):
    n = Network()
    for v in "ABC":
        n.add_variable(v, ["s0", "s1"])
    n.add_arc("A", "B")
    n.add_arc("B", "C")
    n.add_arc("A", "C")
    before = snapshot(n)
    with pytest.raises(CycleError) as info:
        n.reverse_arc("A", "C")
    assert info.value.cycle == ["A", "B", "C", "A"]
    assert "A -> B -> C -> A" in str(info.value)
    assert snapshot(n) == before
    with pytest.raises(ValidationError, match="no arc C -> A"):
        n.reverse_arc("C", "A")


# ------------------------------------------------------------------ cycles, self-loops, duplicates
def test_cycle_refused_with_ordered_message(chain, snapshot):
    before = snapshot(chain)
    with pytest.raises(CycleError) as info:
        chain.add_arc("C", "A")
    assert info.value.cycle == ["A", "B", "C", "A"]
    assert str(info.value) == "arc C -> A would create the cycle A -> B -> C -> A"
    assert isinstance(info.value, ValidationError)
    assert snapshot(chain) == before


def test_short_cycle(chain):
    with pytest.raises(CycleError) as info:
        chain.add_arc("B", "A")
    assert info.value.cycle == ["A", "B", "A"]
    assert "A -> B -> A" in str(info.value)


def test_self_loop_refused(chain, snapshot):
    before = snapshot(chain)
    with pytest.raises(CycleError, match="B -> B") as info:
        chain.add_arc("B", "B")
    assert info.value.cycle == ["B", "B"]
    with pytest.raises(CycleError, match="B -> B"):
        chain.set_parents("B", ["B"])
    assert snapshot(chain) == before


def test_duplicate_arc_refused(chain, snapshot):
    before = snapshot(chain)
    with pytest.raises(ValidationError, match="arc A -> B already exists"):
        chain.add_arc("A", "B")
    assert snapshot(chain) == before


def test_set_parents_cycle_refused(chain, snapshot):
    before = snapshot(chain)
    with pytest.raises(CycleError) as info:
        chain.set_parents("A", ["C"])
    assert info.value.cycle == ["A", "B", "C", "A"]
    with pytest.raises(ValidationError, match="twice"):
        chain.set_parents("C", ["A", "A"])
    with pytest.raises(ValidationError, match="shape"):
        chain.set_parents("C", ["A", "B"], cpt=[[0.5, 0.5], [0.5, 0.5]])
    assert snapshot(chain) == before


def test_set_parents_replaces_family(chain):
    chain.set_parents("C", ["A", "B"], cpt=[[[1, 0], [0, 1]], [[0.5, 0.5], [0.2, 0.8]]])
    assert chain.parents("C") == ("A", "B")
    assert sorted(chain.graph().edges()) == [("A", "B"), ("A", "C"), ("B", "C")]
    np.testing.assert_allclose(chain.cpt("C")[1, 1], [0.2, 0.8])
    chain.set_parents("B", [])  # the old arc goes, the CPT becomes uniform
    assert chain.parents("B") == () and ("A", "B") not in chain.graph().edges()
    np.testing.assert_allclose(chain.cpt("B"), [0.5, 0.5])


# ------------------------------------------------------------------ child states
def test_add_child_state_gives_zero_column(net):
    net.add_state("C", "c2")
    assert net.states("C") == ("c0", "c1", "c2")
    np.testing.assert_allclose(net.cpt("C")[..., :2], C)
    np.testing.assert_allclose(net.cpt("C")[..., 2], 0)
    np.testing.assert_allclose(net.alpha("C")[..., :2], CA)
    np.testing.assert_allclose(net.alpha("C")[..., 2], 0)
    net.validate()


def test_add_child_state_at_index(net):
    net.add_state("B", "bx", index=1)
    assert net.states("B") == ("b0", "bx", "b1", "b2")
    np.testing.assert_allclose(net.cpt("B"), [0.2, 0.0, 0.5, 0.3])


@pytest.mark.parametrize("index", [-1, 4, 99])
def test_add_state_bad_index_refused(net, snapshot, index):
    before = snapshot(net)
    with pytest.raises(ValidationError, match="out of range"):
        net.add_state("B", "bx", index=index)
    assert snapshot(net) == before


def test_remove_child_state_drops_column_and_renormalises(net):
    net.remove_state("B", "b0")
    assert net.states("B") == ("b1", "b2")
    np.testing.assert_allclose(net.cpt("B"), [0.625, 0.375])
    net.validate()


def test_remove_child_state_alpha_not_renormalised(net):
    net.remove_state("C", "c0")
    np.testing.assert_allclose(net.cpt("C"), np.ones((2, 3, 1)))
    np.testing.assert_allclose(net.alpha("C"), CA[..., 1:])


def test_remove_child_state_all_mass_row_becomes_uniform():
    n = Network()
    n.add_variable("P", ["p0", "p1"])
    n.add_variable("X", ["x0", "x1", "x2"], parents=["P"], cpt=[[1, 0, 0], [0.2, 0.3, 0.5]])
    n.remove_state("X", "x0")
    np.testing.assert_allclose(n.cpt("X"), [[0.5, 0.5], [0.375, 0.625]])


def test_cannot_remove_only_state():
    n = Network()
    n.add_variable("X", ["only"])
    with pytest.raises(ValidationError, match="only state 'only' of 'X'"):
        n.remove_state("X", "only")


# ------------------------------------------------------------------ parent states
def test_add_parent_state_copies_last_rows(net):
    net.add_state("B", "b3")
    assert net.cpt("C").shape == (2, 4, 2)
    np.testing.assert_allclose(net.cpt("C")[:, :3], C)
    np.testing.assert_allclose(net.cpt("C")[:, 3], [[0.3, 0.7], [0.6, 0.4]])
    np.testing.assert_allclose(net.alpha("C")[:, 3], [[3, 7], [6, 4]])
    net.validate()


def test_add_parent_state_at_front_copies_last_rows(net):
    net.add_state("A", "s_new", index=0)
    assert net.states("A") == ("s_new", "s0", "s1")
    np.testing.assert_allclose(net.cpt("C")[0], C[1])
    np.testing.assert_allclose(net.cpt("C")[1:], C)
    np.testing.assert_allclose(net.alpha("C")[0], CA[1])
    np.testing.assert_allclose(net.cpt("A"), [0, 0.3, 0.7])


def test_remove_parent_state_drops_rows(net):
    net.remove_state("B", "b1")
    np.testing.assert_allclose(net.cpt("C"), C[:, [0, 2]])
    np.testing.assert_allclose(net.alpha("C"), CA[:, [0, 2]])
    net.validate()


# ------------------------------------------------------------------ reorder / rename states
def test_reorder_states_permutes_every_axis(net):
    net.reorder_states("B", ["b2", "b0", "b1"])
    assert net.states("B") == ("b2", "b0", "b1")
    np.testing.assert_allclose(net.cpt("B"), [0.3, 0.2, 0.5])
    np.testing.assert_allclose(net.cpt("C"), C[:, [2, 0, 1]])
    np.testing.assert_allclose(net.alpha("C"), CA[:, [2, 0, 1]])
    net.reorder_states("C", ["c1", "c0"])
    np.testing.assert_allclose(net.cpt("C")[0, 0], [0.7, 0.3])  # A=s0, B=b2
    np.testing.assert_allclose(net.alpha("C")[1, 0], [4, 6])  # A=s1, B=b2
    net.validate()


@pytest.mark.parametrize("order", [["b0", "b1"], ["b0", "b1", "b1"], ["b0", "b1", "b2", "b3"], ["x", "b1", "b2"]])
def test_reorder_not_a_permutation_refused(net, snapshot, order):
    before = snapshot(net)
    with pytest.raises(ValidationError, match="not a permutation of the states of 'B'"):
        net.reorder_states("B", order)
    assert snapshot(net) == before


def test_rename_state_keeps_numbers(net, snapshot):
    net.rename_state("B", "b1", "middle")
    assert net.states("B") == ("b0", "middle", "b2")
    np.testing.assert_allclose(net.cpt("B"), B_CPT)
    np.testing.assert_allclose(net.cpt("C"), C)
    before = snapshot(net)
    with pytest.raises(ValidationError, match="state 'b0' twice"):
        net.rename_state("B", "b2", "b0")
    with pytest.raises(ValidationError, match="invalid state"):
        net.rename_state("B", "b2", "")
    assert snapshot(net) == before


def test_add_duplicate_state_refused(net, snapshot):
    before = snapshot(net)
    with pytest.raises(ValidationError, match="state 'b1' twice"):
        net.add_state("B", "b1")
    assert snapshot(net) == before
