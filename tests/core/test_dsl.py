"""The tiny structure DSL: parsing, seeded random CPTs, given states and CPTs, refused clauses."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.core.dsl import parse_dsl
from bnstudio.errors import CycleError, ValidationError

DIAMOND = "A->B; A->C; B,C->D"


def test_diamond_structure():
    net = network_from_dsl(DIAMOND, seed=0)
    assert net.variables == ["A", "B", "C", "D"]
    assert {v: net.parents(v) for v in net.variables} == {"A": (), "B": ("A",), "C": ("A",), "D": ("B", "C")}
    assert sorted(net.arcs()) == [("A", "B"), ("A", "C"), ("B", "D"), ("C", "D")]
    assert all(net.states(v) == ("s0", "s1") for v in net.variables)
    assert net.family_shape("D") == (2, 2, 2)
    assert net.name == "dsl"
    net.validate()


def test_parse_order_of_mention_and_lone_variables():
    order, parents = parse_dsl(" X ; Y, Z -> W ; X->W;;")
    assert order == ["X", "Y", "Z", "W"]
    assert parents == {"X": [], "Y": [], "Z": [], "W": ["Y", "Z", "X"]}


def test_many_to_many_clause_and_repeated_arcs():
    order, parents = parse_dsl("A,B->C,D; A->C")
    assert order == ["A", "B", "C", "D"]
    assert parents["C"] == ["A", "B"] and parents["D"] == ["A", "B"]


def test_seeded_reproducibility():
    a = network_from_dsl(DIAMOND, seed=42)
    b = network_from_dsl(DIAMOND, seed=42)
    c = network_from_dsl(DIAMOND, seed=43)
    for v in a.variables:
        np.testing.assert_array_equal(a.cpt(v), b.cpt(v))
    assert any(not np.allclose(a.cpt(v), c.cpt(v)) for v in a.variables)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("concentration", [0.05, 1.0, 20.0])
def test_every_row_sums_to_one(seed, concentration):
    net = network_from_dsl("A->B; A,B->C; C->D,E; B,D,E->F", seed=seed, concentration=concentration,
                           states={"A": ["a0", "a1", "a2"], "E": ["e0", "e1", "e2", "e3"]})
    for v in net.variables:
        cpt = net.cpt(v)
        assert cpt.shape == net.family_shape(v)
        assert np.all(cpt >= 0)
        np.testing.assert_allclose(cpt.sum(axis=-1), 1.0, atol=1e-9)
    net.validate()


def test_rows_are_not_all_equal():
    # random rows: a child's rows differ from one parent configuration to the next
    net = network_from_dsl("A->B", seed=0)
    assert not np.allclose(net.cpt("B")[0], net.cpt("B")[1])


def test_concentration_controls_spread():
    sharp = network_from_dsl("A->B; A,B->C", seed=1, concentration=0.01)
    flat = network_from_dsl("A->B; A,B->C", seed=1, concentration=1000.0)
    assert np.abs(flat.cpt("C") - 0.5).max() < 0.1
    assert np.abs(sharp.cpt("C") - 0.5).max() > 0.4


def test_given_states_and_cpts_are_honoured():
    b_cpt = np.array([[0.1, 0.2, 0.7], [0.3, 0.3, 0.4], [1.0, 0.0, 0.0]])
    net = network_from_dsl("A->B; B->C", seed=3,
                           states={"A": ["lo", "mid", "hi"], "B": ["x", "y", "z"]},
                           cpts={"A": [0.2, 0.3, 0.5], "B": b_cpt}, name="given")
    assert net.name == "given"
    assert net.states("A") == ("lo", "mid", "hi") and net.states("B") == ("x", "y", "z")
    assert net.states("C") == ("s0", "s1")
    np.testing.assert_allclose(net.cpt("A"), [0.2, 0.3, 0.5])
    np.testing.assert_allclose(net.cpt("B"), b_cpt)
    assert net.cpt("C").shape == (3, 2)


def test_given_cpt_leaves_earlier_random_tables_alone():
    # tables are drawn in order of mention; a given CPT for B does not change A's draw
    free = network_from_dsl("A->B", seed=7)
    given = network_from_dsl("A->B", seed=7, cpts={"B": [[1, 0], [0, 1]]})
    np.testing.assert_array_equal(free.cpt("A"), given.cpt("A"))
    np.testing.assert_allclose(given.cpt("B"), [[1, 0], [0, 1]])


def test_given_cpt_is_validated():
    with pytest.raises(ValidationError, match=r"CPT of 'B', row \(A=s1\) sums to 0\.5"):
        network_from_dsl("A->B", cpts={"B": [[0.5, 0.5], [0.25, 0.25]]})
    with pytest.raises(ValidationError, match=r"CPT of 'B' has shape \(2,\), expected \(2, 2\)"):
        network_from_dsl("A->B", cpts={"B": [0.5, 0.5]})


@pytest.mark.parametrize("text, match", [
    ("A->B->C", "one arrow per clause"),
    ("A->", "empty variable name"),
    ("->B", "empty variable name"),
    ("A,,B->C", "empty variable name"),
    ("A, ->C", "empty variable name"),
    ("A; ,B", "empty variable name"),
])
def test_bad_clauses(text, match):
    with pytest.raises(ValidationError, match=match):
        network_from_dsl(text)


@pytest.mark.parametrize("text", ["A->A", "A->B; B->A", "A->B; B->C; C->A"])
def test_cyclic_dsl(text):
    with pytest.raises(CycleError) as info:
        network_from_dsl(text, seed=0)
    cycle = info.value.cycle
    assert cycle[0] == cycle[-1]
    assert " -> ".join(cycle) in str(info.value)


def test_invalid_name_in_dsl():
    with pytest.raises(ValidationError, match="invalid variable name"):
        network_from_dsl("A->B\nC")


def test_large_family_row_count():
    parents = [f"P{i}" for i in range(4)]
    net = network_from_dsl(",".join(parents) + "->X", seed=0, states={"X": ["a", "b", "c"]})
    assert net.family_shape("X") == (2, 2, 2, 2, 3)
    rows = [net.cpt("X")[idx] for idx in itertools.product(range(2), repeat=4)]
    assert len({tuple(np.round(r, 12)) for r in rows}) == 16  # 16 distinct random rows
    assert net.n_parameters() == 4 * 1 + 16 * 2
