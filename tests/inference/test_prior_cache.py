"""Evidence-free posteriors are kept per parameter version (a repeated p(X) costs a dictionary look-up, as
pyAgrum's cached targets do): each answer is a copy, and any edit of the network's parameters or structure
gives fresh answers, brute force being the judge."""
from __future__ import annotations

import numpy as np

from bnstudio.core import network_from_dsl
from bnstudio.inference import InferenceEngine
from tests.brute import joint_table, marginal


def truth(net, var: str) -> np.ndarray:
    return marginal(joint_table(net), [net.variables.index(var)])


def test_repeated_priors_are_copies_and_follow_every_edit():
    net = network_from_dsl("A->B; B->C; A->C", seed=3)
    engine = InferenceEngine(net)
    first = engine.posterior(["B", "C"])
    first["B"][:] = 7.0  # the caller's copy: the engine's answer must not change
    np.testing.assert_allclose(engine.posterior("B")["B"], truth(net, "B"), atol=1e-14)
    net.set_cpt("A", [0.9, 0.1])
    np.testing.assert_allclose(engine.posterior("C")["C"], truth(net, "C"), atol=1e-14)
    before = engine.posterior("C")["C"]
    net.remove_arc("A", "C")
    after = engine.posterior("C")["C"]
    np.testing.assert_allclose(after, truth(net, "C"), atol=1e-14)
    assert not np.allclose(before, after)  # the edit did change the answer, and the engine saw it
    with_evidence = engine.posterior("C", {"A": net.states("A")[0]})["C"]
    np.testing.assert_allclose(engine.posterior("C")["C"], after, atol=1e-14)
    assert not np.allclose(with_evidence, after)
