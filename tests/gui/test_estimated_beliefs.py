"""Beliefs that exact inference cannot hold are estimated by likelihood weighting and said to be estimates
(issue 36; docs/inference.md §12), instead of no beliefs at all: the small-network path (all marginals at once)
and the background path of large networks (a 40x40 grid, whose exact tree needs 2^40-entry tables)."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.app.beliefs import ESTIMATE_SAMPLES, Beliefs
from bnstudio.gui.document import Document
from bnstudio.inference import InferenceEngine
from tests.cli.test_query_paths import grid

# the estimate's standard error is at most 0.5 / sqrt(ESS); 5 of them, with an ESS of a quarter of the samples
TOLERANCE = 5 * 0.5 / np.sqrt(ESTIMATE_SAMPLES / 4)


def test_all_marginals_are_estimated_when_the_tree_exceeds_the_budget():
    net = grid(12, 2)
    exact = InferenceEngine(net).posterior(net.variables, {"x0_0": "s1"})
    beliefs = Beliefs(net)
    beliefs.engine = InferenceEngine(net, memory_budget=100_000)    # the 12x12 tree does not fit 100 kB
    beliefs.set_evidence("x0_0", "s1")
    shown = beliefs.posteriors()
    assert beliefs.error is None and "estimated by likelihood weighting" in beliefs.estimated
    assert shown["x0_0"].tolist() == [0.0, 1.0]
    for name in net.variables:
        assert np.abs(shown[name] - exact[name]).max() < TOLERANCE, name
    beliefs.engine = InferenceEngine(net)    # exact again once it fits: no note
    beliefs.set_evidence("x0_0", "s0")
    beliefs.posteriors()
    assert beliefs.estimated == ""


@pytest.mark.slow
def test_a_large_network_beyond_exact_inference_gets_estimated_beliefs_in_the_background(qtbot):
    net = grid(40, 2)
    doc = Document(net)
    messages = []
    doc.message.connect(lambda level, text: messages.append((level, text)))
    doc.set_evidence("x0_0", "s0")
    qtbot.waitUntil(lambda: len(doc.beliefs.known()) == len(net), timeout=60_000)
    known = doc.beliefs.known()
    assert all(abs(p.sum() - 1.0) < 1e-9 for p in known.values())
    assert known["x0_0"].tolist() == [1.0, 0.0]
    assert "estimated by likelihood weighting" in doc.beliefs.estimated
    assert any("Beliefs estimated by likelihood weighting" in text for _, text in messages)
    # a corner closed under parents has exact marginals from a small network of its own
    corner = InferenceEngine(net).posterior("x1_1", {"x0_0": "s0"})["x1_1"]
    assert np.abs(known["x1_1"] - corner).max() < TOLERANCE
    doc.updates.shutdown()
