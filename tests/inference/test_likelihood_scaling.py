"""Huge likelihoods cannot overflow: likelihood evidence is scaled to max 1 before use.

Posteriors match brute force for 1e308-sized (and subnormal) vectors and log p(e) keeps the scale exactly
(log p(e; c·λ) = log c + log p(e; λ)), in the single and the batched API, for both inference methods.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.errors import EvidenceError
from bnstudio.inference import InferenceEngine
from tests.brute import marginal, weighted_joint

NET = network_from_dsl("A->B; A->C; B->D; C->D", seed=3, states={"D": ["d0", "d1", "d2"]})


@pytest.mark.parametrize("method", ["junction-tree", "elimination"])
@pytest.mark.parametrize("lam", [[1e308, 1e308, 1e308], [1e308, 1e307, 0.0], [1e-320, 3e-320, 1e-320],
                                 [1e308, 1e-308, 1.0]])
def test_huge_and_tiny_likelihoods_match_brute_force(method, lam):
    engine = InferenceEngine(NET, method=method)
    evidence = {"D": lam, "B": "s1"}
    # the reference in exact rational scaling: λ / max λ (the posterior cannot depend on the scale)
    table = weighted_joint(NET, {"D": list(np.asarray(lam) / max(lam)), "B": "s1"})
    for k, var in enumerate(NET.variables):
        got = engine.posterior(var, evidence)[var]
        assert np.all(np.isfinite(got))
        np.testing.assert_allclose(got, marginal(table, [k]), atol=1e-12)
    scale = math.log(max(lam))
    assert engine.log_evidence(evidence) == pytest.approx(scale + math.log(table.sum()), abs=1e-9)
    assert engine.query_probability({"A": "s0"}, evidence) == pytest.approx(marginal(table, [0])[0], abs=1e-12)


def test_batched_likelihoods_keep_their_scale_per_case():
    engine = InferenceEngine(NET)
    rows = np.array([[1e308, 1e308, 1e307], [0.2, 0.5, 0.1], [3e-320, 1e-320, 0.0], [0.0, 0.0, 0.0]])
    logs = engine.log_evidence_batch({"D": rows})
    for row, got in zip(rows[:3], logs[:3], strict=True):
        assert got == pytest.approx(engine.log_evidence({"D": list(row)}), abs=1e-9)
        assert np.isfinite(got)
    assert logs[3] == -np.inf  # an all-zero row is a case of probability zero (e.g. q contradicting e)
    _, calibrated = engine.calibrate_batch({"D": rows})
    np.testing.assert_allclose(calibrated[:3], logs[:3], atol=1e-9)
    with pytest.raises(EvidenceError, match="finite and non-negative"):
        engine.log_evidence_batch({"D": np.array([[np.inf, 1.0, 1.0]])})
    with pytest.raises(EvidenceError, match="not all zero"):
        engine.posterior("A", {"D": [0.0, 0.0, 0.0]})  # a single case: the user's mistake, said so


def test_probability_of_evidence_with_likelihoods_above_one_is_not_an_error():
    engine = InferenceEngine(NET)
    assert engine.probability_of_evidence({"D": [1e308] * 3, "C": [1e308, 1e308]}) == math.inf
