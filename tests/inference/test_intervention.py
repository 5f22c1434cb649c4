"""p(Y | do(x), e) against the truncated factorisation of the full joint, a mutilated network built by hand and
pgmpy's causal inference; do() differs from observing; bad interventions are one-line errors."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bnstudio.core import network_from_dsl
from bnstudio.core.surgery import mutilated
from bnstudio.errors import EvidenceError, ImpossibleEvidence, UnknownStateError, UnknownVariableError
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from tests.brute import joint_table, marginal
from tests.inference.test_brute_force import random_networks

ASIA = Path(__file__).resolve().parents[2] / "resources" / "networks" / "asia.bif"


def truncated_joint(net, interventions: dict[str, int]) -> np.ndarray:
    """p(v | do(x)) by brute force: the full joint divided by each p(x | pa_x), kept only at X = x."""
    names = net.variables
    table = joint_table(net)
    for var, k in interventions.items():
        i = names.index(var)
        family = [names.index(p) for p in net.parents(var)] + [i]
        cpt = net.cpt(var).transpose(np.argsort(family))
        shape = [net.cardinality(n) if j in family else 1 for j, n in enumerate(names)]
        with np.errstate(divide="ignore", invalid="ignore"):
            table = np.where(cpt.reshape(shape) > 0, table / cpt.reshape(shape), 0.0)
        keep = np.zeros(net.cardinality(var))
        keep[k] = 1.0
        table = table * keep.reshape([-1 if j == i else 1 for j in range(len(names))])
    return table


@settings(max_examples=60, deadline=None)
@given(net=random_networks(), data=st.data())
def test_do_matches_the_truncated_factorisation(net, data):
    names = net.variables
    chosen = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=2, unique=True))
    do = {v: data.draw(st.integers(0, net.cardinality(v) - 1)) for v in chosen}
    table = truncated_joint(net, do)
    free = [v for v in names if v not in do]
    evidence = {}
    if free and data.draw(st.booleans()):
        seen = free[data.draw(st.integers(0, len(free) - 1))]
        k = names.index(seen)
        state = int(np.argmax(marginal(table, [k])))
        evidence[seen] = net.states(seen)[state]
        pick = np.zeros(net.cardinality(seen))
        pick[state] = 1.0
        table = table * pick.reshape([-1 if j == k else 1 for j in range(len(names))])
    engine = InferenceEngine(net)
    answer = engine.posterior(names, evidence, interventions=do)
    for k, var in enumerate(names):
        np.testing.assert_allclose(answer[var], marginal(table, [k]), atol=1e-10)
    pair = names[:2]
    np.testing.assert_allclose(engine.joint(pair, evidence, interventions=do),
                               marginal(table, [0, 1]), atol=1e-10)


def test_do_is_the_hand_built_mutilated_network_and_not_observation():
    """asia: observing lung cancer raises p(smoke); setting it does not, and p(dysp) follows the cut model."""
    net = read_network(ASIA)
    engine = InferenceEngine(net)
    hand = network_from_dsl("asia->tub; smoke->bronc; tub->either; lung->either; either->xray; either->dysp; "
                            "bronc->dysp; smoke; lung", states={v: list(net.states(v)) for v in net.variables})
    for var in net.variables:
        hand.set_parents(var, list(net.parents(var)) if var != "lung" else [],
                         net.cpt(var) if var != "lung" else [1.0, 0.0])
    assert net.states("lung") == ("yes", "no")
    cut = InferenceEngine(hand)
    for evidence in ({}, {"xray": "yes"}, {"asia": "yes", "bronc": "no"}):
        got = engine.posterior(net.variables, evidence, interventions={"lung": "yes"})
        want = cut.posterior(net.variables, evidence)
        for var in net.variables:
            np.testing.assert_allclose(got[var], want[var], atol=1e-12)
    smoke_seen = engine.posterior("smoke", {"lung": "yes"})["smoke"]
    smoke_set = engine.posterior("smoke", interventions={"lung": "yes"})["smoke"]
    np.testing.assert_allclose(smoke_set, net.cpt("smoke"), atol=1e-12)      # nothing flows back to the cause
    assert smoke_seen[0] > smoke_set[0] + 0.3
    np.testing.assert_allclose(mutilated(net, {"lung": 0}).cpt("lung"), [1.0, 0.0])
    assert net.parents("lung") == ("smoke",)                                  # the network is not changed


def test_do_matches_pgmpy_causal_inference():
    pgmpy_causal = pytest.importorskip("pgmpy.inference")
    from bnstudio.interop import to_pgmpy

    net = read_network(ASIA)
    causal = pgmpy_causal.CausalInference(to_pgmpy(net))
    engine = InferenceEngine(net)
    for target, do, evidence in (("dysp", {"lung": "yes"}, {}), ("xray", {"either": "no"}, {"smoke": "yes"}),
                                 ("bronc", {"tub": "yes"}, {"xray": "yes"})):
        theirs = causal.query([target], do=do, evidence=evidence or None, show_progress=False)
        ours = engine.posterior(target, evidence, interventions=do)[target]
        np.testing.assert_allclose(ours, [theirs.get_value(**{target: s}) for s in net.states(target)], atol=1e-8)


def test_mutilated_engines_are_cached_and_follow_edits():
    net = read_network(ASIA)
    engine = InferenceEngine(net)
    first = engine.intervened({"lung": "yes"})
    assert engine.intervened({"lung": 0}) is first
    net.set_cpt("smoke", [0.9, 0.1])
    assert engine.intervened({"lung": "yes"}) is not first
    np.testing.assert_allclose(engine.posterior("smoke", interventions={"lung": "yes"})["smoke"], [0.9, 0.1])


def test_bad_interventions_are_one_line_errors():
    engine = InferenceEngine(read_network(ASIA))
    with pytest.raises(EvidenceError, match="'lung' is both observed and intervened on"):
        engine.posterior("dysp", {"lung": "no"}, interventions={"lung": "yes"})
    with pytest.raises(UnknownVariableError, match="'nope'"):
        engine.posterior("dysp", interventions={"nope": "yes"})
    with pytest.raises(UnknownStateError, match="no state 'maybe'"):
        engine.posterior("dysp", interventions={"lung": "maybe"})
    with pytest.raises(EvidenceError, match="one state"):
        engine.posterior("dysp", interventions={"lung": [0.5, 0.5]})
    with pytest.raises(ImpossibleEvidence, match=r"under do\(tub=yes\)"):     # either = tub OR lung
        engine.posterior("dysp", {"either": "no"}, interventions={"tub": "yes"})
