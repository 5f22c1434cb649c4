"""The value of information for a decision (EVPI, issue 36): against the closed form on a one-decision diagram,
a noisy sensor by enumeration, and the diagrams with the observation added by hand."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from bnstudio.cli import main
from bnstudio.decision import InfluenceDiagram, build_influence_diagram, solve
from bnstudio.decision.information import decision_information
from bnstudio.errors import UnknownVariableError, ValidationError
from tests.decision.helpers import OIL, oil

P_X = np.array([0.3, 0.7])
SENSOR = np.array([[0.8, 0.2], [0.25, 0.75]])   # p(Y | X)
U = np.array([[10.0, 0.0], [2.0, 6.0]])          # U[x, d]


def diagram():
    """X with a noisy reading Y; decision D (seeing nothing); a consequence Z of D; U(X, D)."""
    return build_influence_diagram(
        [("X", ("x0", "x1"), (), P_X), ("Y", ("y0", "y1"), ("X",), SENSOR),
         ("Z", ("z0", "z1"), ("D",), np.array([[0.9, 0.1], [0.1, 0.9]]))],
        [("D", ("a", "b"), ())], [("U", ("X", "D"), U)], name="sensor")


def test_perfect_and_noisy_information_match_enumeration():
    values = {r.variable: r for r in decision_information(diagram(), "D")}
    base = max(P_X @ U)                                             # 4.4: choose a without information
    assert values["X"].base == pytest.approx(base)
    assert values["X"].value == pytest.approx((P_X * U.max(axis=1)).sum() - base)     # 2.8
    joint = P_X[:, None] * SENSOR                                   # p(x, y)
    with_y = sum(max(joint[:, y] @ U[:, d] for d in range(2)) for y in range(2))
    assert values["Y"].value == pytest.approx(with_y - base)
    assert "Z" not in values                                        # a consequence of D is never seen before it
    ranked = [r.value for r in decision_information(diagram(), "D")]
    assert ranked == sorted(ranked, reverse=True) and min(ranked) >= -1e-12


def test_oil_wildcatter_the_value_of_knowing_the_oil_before_drilling():
    d = oil()
    result = {r.variable: r for r in decision_information(d, "Drill")}
    base = solve(d).expected_utility
    assert result["Oil"].base == pytest.approx(base)
    # the same diagram with Oil an informational parent of Drill, solved directly
    seeing = InfluenceDiagram(d.network, [replace(x, parents=x.parents + ("Oil",)) if x.name == "Drill" else x
                                          for x in d.decisions], d.utilities, d.name)
    assert result["Oil"].value == pytest.approx(solve(seeing).expected_utility - base)
    assert result["Oil"].value > 0


def test_bad_requests_get_one_line():
    with pytest.raises(UnknownVariableError, match="not a decision"):
        decision_information(diagram(), "X")
    with pytest.raises(ValidationError, match="only chance variables"):
        decision_information(diagram(), "D", candidates=["U"])


def test_decide_command_ranks_what_to_observe_before_a_decision(capsys):
    import json

    assert main(["decide", str(OIL), "--voi", "Drill", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)["value_of_information"]
    assert record["decision"] == "Drill" and list(record["values"]) == ["Oil"]
    assert record["values"]["Oil"] == pytest.approx(32.5)
    assert main(["decide", str(OIL), "--voi", "Oil"]) == 2
    assert "not a decision" in capsys.readouterr().err
