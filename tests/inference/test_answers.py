"""Labelled answers (InferenceEngine.query, bnstudio.inference.answers): the numbers are posterior's, checked
against brute-force enumeration; dict-like access by state name, the array, the DataFrame (pandas imported only
then) and the notebook table."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from bnstudio.errors import EvidenceError, UnknownStateError
from bnstudio.inference import InferenceEngine
from bnstudio.inference.answers import Posterior
from bnstudio.io import read_network
from bnstudio.resources import bundled_example
from tests.brute import marginal, weighted_joint


@pytest.fixture(scope="module")
def asia():
    return read_network(bundled_example("asia.bif"))


def test_query_is_posterior_with_labels(asia):
    engine = InferenceEngine(asia)
    evidence = {"smoke": "yes", "xray": "yes"}
    answer = engine.query("lung", evidence)
    expected = marginal(weighted_joint(asia, evidence), [asia.variables.index("lung")])
    np.testing.assert_allclose(answer.values, expected, atol=1e-12)
    fresh = InferenceEngine(asia)       # the same first query on a fresh engine: the same route, the same bits
    np.testing.assert_array_equal(answer.values, fresh.posterior("lung", evidence)["lung"])
    assert answer.states == tuple(asia.states("lung")) and list(answer) == list(asia.states("lung"))
    for k, state in enumerate(asia.states("lung")):
        assert answer[state] == pytest.approx(expected[k], abs=1e-12)
    assert dict(answer) == {s: float(p) for s, p in zip(asia.states("lung"), answer.values, strict=True)}
    assert answer.mode == asia.states("lung")[int(np.argmax(expected))]
    np.testing.assert_array_equal(np.asarray(answer), answer.values)
    assert answer.get("maybe") is None and "maybe" not in answer
    with pytest.raises(UnknownStateError, match="'lung' has no state 'maybe'; its states: "):
        answer["maybe"]
    with pytest.raises(ValueError):
        answer.values[0] = 1.0                     # read-only: the answer cannot drift from its labels


def test_query_takes_interventions_and_refuses_several_targets(asia):
    engine = InferenceEngine(asia)
    done = engine.query("dysp", {"smoke": "no"}, interventions={"lung": "yes"})
    np.testing.assert_allclose(done.values, engine.posterior("dysp", {"smoke": "no"},
                                                                interventions={"lung": "yes"})["dysp"], atol=1e-15)
    assert "do(lung)=yes" in repr(done)
    with pytest.raises(EvidenceError, match="query takes one target variable"):
        engine.query(["lung", "bronc"])


def test_the_frame_the_repr_and_the_notebook_table(asia):
    answer = InferenceEngine(asia).query("lung", {"smoke": "yes"})
    frame = answer.to_frame()
    assert list(frame.index) == list(answer.states) and frame.index.name == "lung"
    np.testing.assert_array_equal(frame["probability"].to_numpy(), answer.values)
    text = repr(answer)
    assert text.startswith("Posterior(lung | smoke=yes: ") and len(text) < 80
    html = answer._repr_html_()
    assert all(f">{s}<" in html for s in answer.states) and "given smoke = yes" in html
    assert answer.to_json() == {"variable": "lung", "states": list(answer.states),
                                "probabilities": answer.values.tolist()}


def test_a_posterior_checks_its_shape():
    with pytest.raises(ValueError, match="2 states but"):
        Posterior("A", ("a", "b"), np.array([1.0]))


def test_querying_imports_no_pandas_until_a_frame_is_asked_for():
    code = ("import sys\nfrom bnstudio.core import network_from_dsl\nfrom bnstudio.inference import InferenceEngine\n"
            "net = network_from_dsl('A->B', cpts={'A': [0.3, 0.7], 'B': [[0.9, 0.1], [0.2, 0.8]]})\n"
            "a = InferenceEngine(net).query('A', {'B': 's0'}); a['s0']; repr(a)\n"
            "print('pandas' in sys.modules)\na.to_frame()\nprint('pandas' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True"]
