"""The influence-diagram model: validation with one-line errors, the JSON round trip, the temporal order."""
from __future__ import annotations

import json

import numpy as np
import pytest

from bnstudio.decision import InfluenceDiagram, build_influence_diagram
from bnstudio.decision.order import information_sets, past, strong_groups
from bnstudio.errors import CycleError, ValidationError
from tests.decision.helpers import OIL, oil, random_diagram


def _parts():
    chance = [("X", ["a", "b"], [], [0.4, 0.6]), ("Y", ["a", "b"], ["X", "D1"], [[[0.9, 0.1], [0.5, 0.5]],
                                                                               [[0.2, 0.8], [0.3, 0.7]]])]
    decisions = [("D1", ["go", "stay"], ["X"]), ("D2", ["go", "stay"], ["Y"])]
    utilities = [("U", ["Y", "D2"], [[1.0, 2.0], [3.0, 4.0]])]
    return chance, decisions, utilities


def test_a_valid_diagram_and_its_temporal_order():
    d = build_influence_diagram(*_parts())
    assert d.kind("X") == "chance" and d.kind("D1") == "decision" and d.kind("U") == "utility"
    assert information_sets(d) == [["X"], ["Y"], []]
    assert past(d, "D2") == ["X", "D1", "Y"]
    assert strong_groups(d) == [("sum", []), ("max", ["D2"]), ("sum", ["Y"]), ("max", ["D1"]), ("sum", ["X"])]


@pytest.mark.parametrize("change, message", [
    (lambda c, d, u: c.append(("Z", ["a"], ["U"], [[1.0]] * 1)), "utility node 'U' has a child 'Z'"),
    (lambda c, d, u: d.__setitem__(0, ("D1", ["go", "stay"], ["U"])), "utility node 'U' has a child 'D1'"),
    (lambda c, d, u: u.append(("V", ["U"], [1.0])), "utility node 'U' has a child 'V'"),
    (lambda c, d, u: d.reverse(), "decision 'D1' is listed after 'D2' but there is a directed path from 'D1' "
                                  "to 'D2'"),
    (lambda c, d, u: d.__setitem__(0, ("D1", ["go", "stay"], ["Y"])), "cycle"),
    (lambda c, d, u: u.__setitem__(0, ("U", ["Y", "D2"], [1.0, 2.0])), "utility table of 'U' has shape (2,)"),
    (lambda c, d, u: u.__setitem__(0, ("U", ["Y", "Q"], [[1.0]])), "unknown parent 'Q'"),
    (lambda c, d, u: u.__setitem__(0, ("U", ["Y"], [1.0, np.nan])), "non-finite"),
    (lambda c, d, u: u.append(("X", ["Y"], [1.0, 2.0])), "utility node 'X' has the name of a variable"),
    (lambda c, d, u: d.append(("D1", ["go"], [])), "a variable named 'D1' already exists"),
])
def test_invalid_diagrams_are_refused_in_one_line(change, message):
    chance, decisions, utilities = _parts()
    change(chance, decisions, utilities)
    with pytest.raises(ValidationError, match=message.replace("(", r"\(").replace(")", r"\)")) as info:
        build_influence_diagram(chance, decisions, utilities)
    assert "\n" not in str(info.value)


def test_cycle_error_names_the_cycle():
    chance, decisions, utilities = _parts()
    decisions[0] = ("D1", ["go", "stay"], ["Y"])
    with pytest.raises(CycleError) as info:
        build_influence_diagram(chance, decisions, utilities)
    assert set(info.value.cycle) == {"D1", "Y"}


def test_json_round_trip_is_exact():
    for diagram in [oil(), random_diagram(4), random_diagram(7)]:
        data = json.loads(json.dumps(diagram.to_dict()))
        again = InfluenceDiagram.from_dict(data)
        assert again.to_dict() == diagram.to_dict()
        assert again.decision_names == diagram.decision_names
        for v in diagram.chance_names:
            np.testing.assert_array_equal(again.cpt(v), diagram.cpt(v))


def test_alpha_survives_the_round_trip_and_with_parameters_copies():
    diagram = oil()
    alpha = {"Oil": np.array([5.0, 3.0, 2.0])}
    richer = diagram.with_parameters(alphas=alpha)
    assert diagram.alpha("Oil") is None
    again = InfluenceDiagram.from_dict(richer.to_dict())
    np.testing.assert_array_equal(again.alpha("Oil"), alpha["Oil"])
    with pytest.raises(ValidationError, match="'Test' is a decision node"):
        diagram.with_parameters({"Test": [0.5, 0.5]})


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.update(format="xdsl"), "not an influence diagram"),
    (lambda d: d.update(schema_version=9), "schema_version 9"),
    (lambda d: d["chance"][0].update(states="dry"), "chance[0] ('Oil'): 'states' must be a list"),
    (lambda d: d["chance"][0].update(cpt="x"), "chance[0] ('Oil'): 'cpt' must be a nested list of numbers"),
    (lambda d: d["chance"][0].update(cpt=[0.5, 0.5]), "CPT of 'Oil' has shape (2,)"),
    (lambda d: d["utilities"][0].update(table=None), "utilities[0] ('TestCost'): 'table'"),
    (lambda d: d["decisions"][1].update(parents=["Nope"]), "unknown parent 'Nope'"),
    (lambda d: d.update(decisions={}), "'decisions' must be a list of objects"),
])
def test_malformed_json_is_one_line(mutate, message):
    data = json.loads(OIL.read_text())
    mutate(data)
    with pytest.raises(ValidationError) as info:
        InfluenceDiagram.from_dict(data)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_the_diagram_keeps_its_own_network():
    diagram = oil()
    net = diagram.network
    net.set_cpt("Oil", [1.0, 0.0, 0.0])
    assert diagram.cpt("Oil").tolist() == [0.5, 0.3, 0.2]


def test_decisions_on_no_common_path_make_a_limid_not_an_error():
    """Hugin reads a diagram whose decisions are not totally ordered as a LIMID (Lauritzen & Nilsson 2001); so do
    we: it is valid, not ``ordered``, and no-forgetting is not assumed."""
    chance, decisions, utilities = _parts()
    assert build_influence_diagram(chance, decisions, utilities).ordered
    decisions[1] = ("D2", ["go", "stay"], [])         # D2 no longer sees Y, and nothing leads from D1 to D2
    diagram = build_influence_diagram(chance, decisions, utilities)
    assert not diagram.ordered and diagram.decision_names == ("D1", "D2")
