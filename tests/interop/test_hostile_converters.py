"""Issue 42 items 5 and 14: the converters never drop an arc or a description without a word, and a hostile
input ends in one of the project's errors (bnstudio/errors.py), never a raw AttributeError or TypeError."""
from __future__ import annotations

import warnings

import pytest

from bnstudio.core import network_from_dsl
from bnstudio.errors import ValidationError
from bnstudio.interop import from_pgmpy, from_pyagrum, to_pgmpy, to_pyagrum

pytest.importorskip("pgmpy")
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)  # see tests/interop/test_peers.py
    gum = pytest.importorskip("pyagrum")
    gum.InfluenceDiagram()


def _pgmpy_arc_without_evidence():
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    model = DiscreteBayesianNetwork([("A", "B")])
    model.add_cpds(TabularCPD("A", 2, [[0.5], [0.5]]), TabularCPD("B", 2, [[0.3], [0.7]]))
    return model


def test_an_arc_the_cpd_does_not_list_is_refused_as_pgmpy_refuses_it():
    model = _pgmpy_arc_without_evidence()
    with pytest.raises(ValueError):  # the yardstick: pgmpy's own check refuses this model
        model.check_model()
    with pytest.raises(ValidationError, match=r"'B'.*\bA\b"):
        from_pgmpy(model)


def test_evidence_states_in_another_order_than_the_parent_are_refused():
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    model = DiscreteBayesianNetwork([("A", "B")])
    model.add_cpds(TabularCPD("A", 2, [[0.5], [0.5]], state_names={"A": ["x", "y"]}),
                   TabularCPD("B", 2, [[0.3, 0.9], [0.7, 0.1]], evidence=["A"], evidence_card=[2],
                              state_names={"B": ["b0", "b1"], "A": ["y", "x"]}))
    with pytest.raises(ValidationError, match="'A'"):
        from_pgmpy(model)


def test_a_missing_cpd_is_a_validation_error():
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    model = DiscreteBayesianNetwork([("A", "B")])
    model.add_cpds(TabularCPD("A", 2, [[0.5], [0.5]]))
    with pytest.raises(ValidationError, match="no CPD for 'B'"):
        from_pgmpy(model)


@pytest.mark.parametrize("convert", [from_pgmpy, from_pyagrum, to_pgmpy, to_pyagrum])
@pytest.mark.parametrize("value", [None, "asia.bif", 3, object()])
def test_a_wrong_kind_of_object_is_one_validation_error(convert, value):
    with pytest.raises(ValidationError, match=r"^\S+ takes .*, not ") as caught:
        convert(value)
    assert "\n" not in str(caught.value)


def test_pyagrum_descriptions_are_kept():
    bn = gum.BayesNet("n")
    bn.add(gum.LabelizedVariable("A", "age of the patient", ["young", "old"]))
    bn.add(gum.LabelizedVariable("B", "B", ["x", "y"]))  # pyAgrum's default: the name again
    bn.addArc("A", "B")
    bn.cpt("A").fillWith([0.4, 0.6])
    bn.cpt("B").fillWith([0.5, 0.5, 0.1, 0.9])
    net = from_pyagrum(bn)
    assert net.variable("A").description == "age of the patient"
    assert net.variable("B").description == ""


def test_descriptions_round_trip_through_pyagrum():
    net = network_from_dsl("A -> B")
    net.set_description("A", "the first one")
    back = from_pyagrum(to_pyagrum(net))
    assert [back.variable(v).description for v in back.variables] == ["the first one", ""]


def test_pyagrum_diagram_descriptions_are_kept():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        diagram = gum.InfluenceDiagram()
    diagram.addDecisionNode(gum.LabelizedVariable("D", "drill or not", ["yes", "no"]))
    diagram.addChanceNode(gum.LabelizedVariable("O", "oil in the ground", ["dry", "wet"]))
    diagram.addUtilityNode(gum.LabelizedVariable("U", "U", 1))
    diagram.addArc("D", "U")
    diagram.addArc("O", "U")
    diagram.cpt("O").fillWith([0.5, 0.5])
    ours = from_pyagrum(diagram)
    assert ours.network.variable("D").description == "drill or not"
    assert ours.network.variable("O").description == "oil in the ground"
