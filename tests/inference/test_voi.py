"""Value of information against brute force on the full joint, d-separation and pyAgrum's InformationTheory."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

from bnstudio.core.dseparation import relevance
from bnstudio.errors import EvidenceError, ImpossibleEvidence, UnknownVariableError
from bnstudio.inference import InferenceEngine
from bnstudio.inference.voi import value_of_information
from bnstudio.io import read_network
from tests.brute import marginal, weighted_joint
from tests.inference.test_brute_force import networks_with_evidence

NETWORKS = Path(__file__).resolve().parents[2] / "resources" / "networks"


def brute_scores(net, target: str, candidate: str, evidence: dict, costs: np.ndarray) -> tuple[float, float]:
    """I(T; O | e) in bits and R(e) - E_o R(e, o) from the pairwise joint summed out of the full joint."""
    names = net.variables
    joint = marginal(weighted_joint(net, evidence), [names.index(target), names.index(candidate)])
    pt, po = joint.sum(axis=1), joint.sum(axis=0)
    mi = sum(joint[t, o] * np.log2(joint[t, o] / (pt[t] * po[o]))
             for t in range(joint.shape[0]) for o in range(joint.shape[1]) if joint[t, o] > 0)
    before = min(pt @ costs)
    after = sum(min(joint[:, o] @ costs) for o in range(joint.shape[1]))
    return mi, before - after


@settings(max_examples=60, deadline=None)
@given(case=networks_with_evidence())
def test_scores_match_brute_force_and_d_separated_candidates_score_zero(case):
    net, evidence = case
    free = [v for v in net.variables if v not in evidence]
    target = free[0]
    rng = np.random.default_rng(len(free))
    card = net.cardinality(target)
    costs = rng.random((card, card)) * 5
    result = value_of_information(InferenceEngine(net), target, evidence, cost=costs)
    assert {c.name for c in result.candidates} == set(free[1:])
    hard = [v for v, s in evidence.items() if isinstance(s, str)]
    soft = [v for v in evidence if v not in hard]
    separated = set(relevance(net, target, hard, soft).separated)
    for c in result.candidates:
        mi, gain = brute_scores(net, target, c.name, evidence, costs)
        assert c.mutual_information == pytest.approx(mi, abs=1e-9)
        assert c.risk_reduction == pytest.approx(gain, abs=1e-9)
        assert c.mutual_information >= 0 and c.risk_reduction >= 0
        if c.name in separated:
            assert c.mutual_information < 1e-12 and c.risk_reduction < 1e-12
    mis = [c.mutual_information for c in result.candidates]
    assert mis == sorted(mis, reverse=True)
    post = marginal(weighted_joint(net, evidence), [net.variables.index(target)])
    assert result.entropy == pytest.approx(-sum(p * np.log2(p) for p in post if p > 0), abs=1e-9)


def test_default_costs_are_zero_one_and_ranking_by_cost():
    net = read_network(NETWORKS / "asia.bif")
    engine = InferenceEngine(net)
    evidence = {"asia": "yes", "xray": "yes"}
    result = value_of_information(engine, "lung", evidence, rank_by="cost")
    for c in result.candidates:
        assert c.risk_reduction == pytest.approx(brute_scores(net, "lung", c.name, evidence, 1 - np.eye(2))[1],
                                                 abs=1e-12)
    gains = [c.risk_reduction for c in result.candidates]
    assert gains == sorted(gains, reverse=True) and gains[0] > 0
    assert result.risk == pytest.approx(1 - engine.posterior("lung", evidence)["lung"].max())


def test_alarm_matches_pyagrum_information_theory():
    gum = pytest.importorskip("pyagrum")
    from bnstudio.interop import to_pyagrum

    net = read_network(NETWORKS / "alarm.bif")
    evidence = {"HRBP": "HIGH", "BP": "LOW", "SAO2": "NORMAL"}
    result = value_of_information(InferenceEngine(net), "LVFAILURE", evidence)
    assert len(result.candidates) == len(net.variables) - 4
    bn = to_pyagrum(net)
    for c in result.candidates:
        ie = gum.LazyPropagation(bn)
        ie.setEvidence(evidence)
        theirs = gum.InformationTheory(ie, "LVFAILURE", c.name).mutualInformationXY()
        assert c.mutual_information == pytest.approx(theirs, abs=1e-9), c.name


def test_one_batched_propagation_of_target_states(monkeypatch):
    """All candidates from one posterior_batch of |T| cases (states with p(t | e) > 0), no per-candidate query."""
    net = read_network(NETWORKS / "alarm.bif")
    engine = InferenceEngine(net)
    calls = []
    batch = engine.posterior_batch
    monkeypatch.setattr(engine, "posterior_batch", lambda names, cases: calls.append(cases) or batch(names, cases))
    single = engine.posterior
    monkeypatch.setattr(engine, "posterior", lambda t, e=None: calls.append(t) or single(t, e))
    value_of_information(engine, "CATECHOL", {"HR": "HIGH"})
    assert len(calls) == 2 and calls[0] == "CATECHOL"
    assert calls[1]["CATECHOL"].tolist() == [0, 1] and calls[1]["HR"].tolist() == [2, 2]


def test_bad_input_is_one_line_errors():
    engine = InferenceEngine(read_network(NETWORKS / "asia.bif"))
    with pytest.raises(EvidenceError, match="target 'lung' is observed"):
        value_of_information(engine, "lung", {"lung": "yes"})
    with pytest.raises(UnknownVariableError, match="'nope'"):
        value_of_information(engine, "nope")
    with pytest.raises(UnknownVariableError, match="'nope'"):
        value_of_information(engine, "lung", candidates=["nope"])
    with pytest.raises(EvidenceError, match="already observed"):
        value_of_information(engine, "lung", {"xray": "yes"}, candidates=["xray"])
    with pytest.raises(EvidenceError, match="2 x 2 finite"):
        value_of_information(engine, "lung", cost=[[0, 1, 2], [1, 0, 2]])
    with pytest.raises(EvidenceError, match="2 x 2 finite"):
        value_of_information(engine, "lung", cost=[[0, np.nan], [1, 0]])
    with pytest.raises(ImpossibleEvidence):
        value_of_information(engine, "dysp", {"tub": "yes", "either": "no"})
