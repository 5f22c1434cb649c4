"""The 2TBN model: pyAgrum's naming convention both ways, validation errors, unrolling (names, parents, CPTs)."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core.network import Network
from bnstudio.errors import CycleError, ValidationError
from bnstudio.io import read_network, write_network
from bnstudio.temporal import from_network, split_name, two_slice_network, unroll
from tests.temporal.random_tbn import random_tbn


def test_names_split_by_the_convention():
    assert split_name("Rain0") == ("Rain", "0")
    assert split_name("Raint") == ("Rain", "t")
    assert split_name("X10") == ("X1", "0")
    assert split_name("Rain") is None and split_name("0") is None


def test_a_convention_network_round_trips_through_a_file(tmp_path):
    tbn = random_tbn(1, n=4)
    path = tmp_path / "dbn.bif"
    write_network(tbn.to_network(), path)
    back = from_network(read_network(path))
    assert back.radicals == tbn.radicals and back.interface == tbn.interface
    for r in tbn.radicals:
        assert back.transition_parents(r) == tbn.transition_parents(r)
        assert back.initial_parents(r) == tbn.initial_parents(r)
        np.testing.assert_allclose(back.transition_cpt(r), tbn.transition_cpt(r), atol=1e-12)
        np.testing.assert_allclose(back.initial_cpt(r), tbn.initial_cpt(r), atol=1e-12)


def _plain(*families) -> Network:
    net = Network("n")
    for name, parents in families:
        net.add_variable(name, ["a", "b"], parents=parents)
    return net


@pytest.mark.parametrize("families, message", [
    ((("A0", ()), ("At", ()), ("B", ())), "variable 'B' does not follow the 2TBN naming convention"),
    ((("A0", ()), ("At", ()), ("B0", ())), "'B0' has no transition copy 'Bt'"),
    ((("At", ()),), "'At' has no slice-0 copy 'A0'"),
    ((("At", ()), ("A0", ("At",))), "arc At -> A0 goes from the transition slice back to slice 0"),
])
def test_networks_outside_the_convention_are_refused_with_one_line(families, message):
    with pytest.raises(ValidationError, match=message):
        from_network(_plain(*families))


def test_an_empty_network_is_no_2tbn():
    with pytest.raises(ValidationError, match="has no variables"):
        from_network(Network("empty"))


def test_state_mismatch_is_named():
    net = _plain(("A0", ()))
    net.add_variable("At", ["a", "b", "c"])
    with pytest.raises(ValidationError, match="'A0' and 'At' have different states"):
        from_network(net)


def test_builder_errors_name_the_family():
    states = {"A": ["a", "b"], "B": ["a", "b"]}
    with pytest.raises(ValidationError, match="transition parent 'Z' of 'A' is not a variable"):
        two_slice_network(states, {}, {"A": ((("Z", 1),), None)})
    with pytest.raises(ValidationError, match="must be a pair"):
        two_slice_network(states, {}, {"A": ((("B", 2),), None)})
    with pytest.raises(CycleError, match="cycle"):
        two_slice_network(states, {}, {"A": ((("B", 0),), None), "B": ((("A", 0),), None)})
    with pytest.raises(CycleError, match="cycle"):
        two_slice_network(states, {"A": (("B",), None), "B": (("A",), None)}, {})
    with pytest.raises(ValidationError, match="Bt"):
        two_slice_network(states, {}, {"B": ((("A", 1),), [0.5, 0.5])})  # shape (2, 2) expected
    # a cycle through the previous slice is no cycle: A_{t-1} -> B_t -> A_t is fine
    tbn = two_slice_network(states, {}, {"A": ((("B", 0),), None), "B": ((("A", 1),), None)})
    assert tbn.interface == ("A",)


def test_unrolled_families_follow_pyagrums_names():
    tbn = random_tbn(5, n=3)
    net = unroll(tbn, 4)
    assert len(net) == 12
    for r in tbn.radicals:
        assert net.parents(f"{r}0") == tuple(f"{p}0" for p in tbn.initial_parents(r))
        np.testing.assert_array_equal(net.cpt(f"{r}0"), tbn.initial_cpt(r))
        for s in (1, 2, 3):
            assert net.parents(f"{r}{s}") == tuple(f"{p}{s - lag}" for p, lag in tbn.transition_parents(r))
            np.testing.assert_array_equal(net.cpt(f"{r}{s}"), tbn.transition_cpt(r))


def test_unroll_checks_slices_and_clashing_names():
    tbn = random_tbn(2, n=2)
    for bad in (0, -1, 2.5, True, "3"):
        with pytest.raises(ValidationError, match="number of slices"):
            unroll(tbn, bad)
    assert len(unroll(tbn, 1)) == 2
    with pytest.raises(ValidationError, match="would unroll into 2,000,000 variables"):
        unroll(tbn, 1_000_000)  # refused before anything is built
    clash = two_slice_network({"X": ["a", "b"], "X1": ["a", "b"]}, {}, {})
    with pytest.raises(ValidationError, match="unrolled name 'X10'"):
        unroll(clash, 11)
