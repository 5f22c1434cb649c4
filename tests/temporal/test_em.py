"""EM from sequences with a hidden variable: the E-step's expected counts equal the family marginals of the exact
engine on the unrolled network summed over slices; the log-likelihood never falls (ml); an HMM's parameters are
recovered from its observations alone."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.errors import ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from bnstudio.jobs import RecordingReporter
from bnstudio.temporal import from_network, sample_sequences, sequences_frame, unroll
from bnstudio.temporal.em import expected_counts, fit_sequences_em
from tests.temporal.random_tbn import random_tbn
from tests.temporal.test_forward_backward import as_evidence, random_codes
from tests.temporal.test_learning import uniform_copy

UMBRELLA = "resources/networks/temporal/umbrella.bif"


@pytest.mark.parametrize("seed", [0, 3, 11])
def test_expected_counts_are_the_unrolled_family_marginals(seed):
    tbn = random_tbn(seed, n=3)
    sequences = [random_codes(tbn, 5, seed), random_codes(tbn, 3, seed + 1)]
    counts, log_lik = expected_counts(tbn, sequences)
    expected = {v: np.zeros_like(c) for v, c in counts.items()}
    total = 0.0
    for codes in sequences:
        engine = InferenceEngine(unroll(tbn, len(codes)))
        evidence = as_evidence(tbn, codes)
        marginals = engine.family_marginals(evidence)
        total += engine.log_evidence(evidence)
        for r in tbn.radicals:
            expected[r + "0"] += marginals[f"{r}0"]
            for t in range(1, len(codes)):
                expected[r + "t"] += marginals[f"{r}{t}"]
    assert log_lik == pytest.approx(total, abs=1e-10)
    for v in counts:
        np.testing.assert_allclose(counts[v], expected[v], atol=1e-10, err_msg=v)


def hmm_data(seed: int):
    truth = from_network(read_network(UMBRELLA))
    table = sequences_frame(truth, sample_sequences(truth, 100, 100, seed=seed)).drop(columns="Rain")  # hidden
    return truth, table


def test_em_never_lowers_the_log_likelihood_and_stops_by_a_true_reason():
    truth, table = hmm_data(0)
    start = uniform_copy(truth)
    net = start.to_network()
    net.set_cpt("Raint", [[0.6, 0.4], [0.45, 0.55]])   # break the symmetry
    net.set_cpt("Umbrellat", [[0.7, 0.3], [0.4, 0.6]])
    net.set_cpt("Umbrella0", [[0.7, 0.3], [0.4, 0.6]])
    reporter = RecordingReporter()
    fit = fit_sequences_em(type(truth)(net), table, max_iter=40, reporter=reporter)
    history = np.array(fit.history)
    assert np.all(np.diff(history) >= -1e-9 * np.abs(history[1:]))
    assert history[-1] > history[0] + 1.0
    assert fit.stop_reason == ("max_iter" if len(history) == 40 else "converged")
    if fit.stop_reason == "converged":
        assert abs(history[-1] - history[-2]) <= 1e-8 * abs(history[-1])


def test_em_recovers_an_hmm_from_its_observations():
    truth, table = hmm_data(1)
    net = truth.to_network()
    net.set_cpt("Raint", [[0.55, 0.45], [0.4, 0.6]])
    net.set_cpt("Umbrellat", [[0.7, 0.3], [0.35, 0.65]])
    net.set_cpt("Umbrella0", [[0.7, 0.3], [0.35, 0.65]])
    fit = fit_sequences_em(type(truth)(net), table, method="mp", max_iter=300, tol=1e-10)
    np.testing.assert_allclose(fit.model.transition_cpt("Rain"), truth.transition_cpt("Rain"), atol=0.06)
    np.testing.assert_allclose(fit.model.transition_cpt("Umbrella"), truth.transition_cpt("Umbrella"), atol=0.06)
    assert fit.model.network.alpha("Raint") is not None


def test_em_options_are_checked():
    truth, table = hmm_data(2)
    with pytest.raises(ValidationError, match="max_iter"):
        fit_sequences_em(truth, table, max_iter=0)
    with pytest.raises(ValidationError, match="tol"):
        fit_sequences_em(truth, table, tol=-1.0)
    with pytest.raises(ValidationError, match="method"):
        fit_sequences_em(truth, table, method="em")
