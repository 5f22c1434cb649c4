"""Round trips through pgmpy and pyAgrum keep every CPT (state and parent order), and the peers' own inference
agrees with ours (docs/architecture.md §3.12: independent references)."""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.inference import InferenceEngine
from bnstudio.interop import PeerWarning, from_pgmpy, from_pyagrum, to_pgmpy, to_pyagrum
from bnstudio.io import read_network

pytest.importorskip("pgmpy")
with warnings.catch_warnings():
    # pyAgrum's SWIG extensions warn while loading (the influence-diagram one on first use); raised as errors
    # there they crash the process later (see bnstudio.interop.common.import_peer)
    warnings.simplefilter("ignore", DeprecationWarning)
    pytest.importorskip("pyagrum").InfluenceDiagram()

BUNDLED = Path(__file__).resolve().parents[2] / "resources" / "networks"
SHARED = Path("/work/shared/networks")  # the bnlearn repository's networks, where this machine has them
FILES = sorted(BUNDLED.glob("*.bif")) + sorted(p for p in SHARED.glob("*.bif")
                                                if not (BUNDLED / p.name).exists())


def assert_same_network(a, b) -> None:
    assert a.variables == b.variables
    for v in a.variables:
        assert a.states(v) == b.states(v), v
        assert a.parents(v) == b.parents(v), v
        np.testing.assert_allclose(a.cpt(v), b.cpt(v), rtol=0, atol=1e-12, err_msg=v)


@pytest.fixture(scope="module", params=FILES, ids=lambda p: p.stem)
def network(request):
    return read_network(request.param)


def test_round_trip_through_pgmpy_keeps_every_table(network):
    assert_same_network(network, from_pgmpy(to_pgmpy(network)))


def test_round_trip_through_pyagrum_keeps_every_table(network):
    assert_same_network(network, from_pyagrum(to_pyagrum(network)))


def _queries(net):
    """A few (target, evidence) queries: the last variable given the first one's first state, and so on."""
    order = net.topological_order()
    return [(order[-1], {order[0]: net.states(order[0])[0]}),
            (order[0], {order[-1]: net.states(order[-1])[-1]}),
            (order[len(order) // 2], {})]


def test_pyagrum_inference_agrees_with_ours(network):
    import pyagrum as gum
    bn = to_pyagrum(network)
    engine = InferenceEngine(network)
    for target, evidence in _queries(network):
        ie = gum.LazyPropagation(bn)
        ie.setEvidence(evidence)
        ie.makeInference()
        theirs = np.asarray(ie.posterior(target).toarray())
        np.testing.assert_allclose(engine.posterior(target, evidence)[target], theirs, atol=1e-9)


@pytest.mark.parametrize("name", ["asia", "sachs", "child"])
def test_pgmpy_inference_agrees_with_ours(name):
    from pgmpy.inference import VariableElimination
    net = read_network(BUNDLED / f"{name}.bif")
    infer = VariableElimination(to_pgmpy(net))
    engine = InferenceEngine(net)
    for target, evidence in _queries(net):
        theirs = infer.query([target], evidence=evidence, show_progress=False).values
        np.testing.assert_allclose(engine.posterior(target, evidence)[target], theirs, atol=1e-9)


def test_parent_order_and_states_survive_a_handmade_network():
    net = network_from_dsl("A->C; B->C", states={"A": ["lo", "mid", "hi"]}, seed=3)
    net.set_parents("C", ["B", "A"], np.random.default_rng(0).dirichlet(np.ones(2), size=(2, 3)))
    for there, back in ((to_pgmpy, from_pgmpy), (to_pyagrum, from_pyagrum)):
        assert_same_network(net, back(there(net)))


def test_what_a_peer_cannot_hold_is_named_in_a_warning():
    net = network_from_dsl("A->B", seed=0)
    net.set_alpha("B", np.full((2, 2), 3.0))
    for there in (to_pgmpy, to_pyagrum):
        with pytest.warns(PeerWarning, match=r"Dirichlet counts.*B"):
            there(net)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        to_pgmpy(network_from_dsl("A->B", seed=0))  # nothing lost: no warning


def test_a_missing_peer_names_what_to_install(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "pyagrum", None)
    with pytest.raises(ImportError, match="pip install pyAgrum"):
        to_pyagrum(network_from_dsl("A->B", seed=0))


def test_from_pyagrum_refuses_what_is_not_a_bayes_net():
    from bnstudio.errors import ValidationError  # the project's error (issue 42 item 14), not a TypeError
    with pytest.raises(ValidationError, match="pyagrum.BayesNet or InfluenceDiagram"):
        from_pyagrum(object())


def test_an_influence_diagram_round_trips_through_pyagrum_and_its_meu_agrees():
    import pyagrum as gum

    from bnstudio.decision import solve
    from bnstudio.io.diagram_files import read_diagram_json
    ours = read_diagram_json(BUNDLED.parent / "decision" / "oil_wildcatter.json")
    theirs = to_pyagrum(ours)
    assert isinstance(theirs, gum.InfluenceDiagram)
    inference = gum.ShaferShenoyLIMIDInference(theirs)
    inference.makeInference()
    assert inference.MEU()["mean"] == pytest.approx(solve(ours).expected_utility, abs=1e-9)
    back = from_pyagrum(theirs)
    assert back.decisions == ours.decisions
    for u, v in zip(back.utilities, ours.utilities, strict=True):
        assert (u.name, u.parents) == (v.name, v.parents)
        np.testing.assert_array_equal(u.table, v.table)
    for v in ours.chance_names:
        assert back.network.parents(v) == ours.network.parents(v)
        np.testing.assert_allclose(back.network.cpt(v), ours.network.cpt(v), rtol=0, atol=1e-12)
