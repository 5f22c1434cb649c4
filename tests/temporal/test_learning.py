"""Sampling and learning from sequences: sampled slices follow the unrolled network's marginals; ml and mp recover
the transition CPTs of the model that generated the sequences within their Dirichlet error bars (the posterior
variance of each parameter, θ(1 − θ)/(α_π + 1), bnstudio.uncertainty.dirichlet), and the counts equal a direct
count of the pairs."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bnstudio.errors import ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.temporal import fit_sequences, sample_sequences, sequences_frame, unroll
from bnstudio.temporal.learning import tied_counts
from bnstudio.uncertainty.dirichlet import dirichlet_counts
from tests.temporal.random_tbn import random_tbn


def test_sampled_slices_follow_the_unrolled_marginals():
    tbn = random_tbn(21, n=3)
    codes = sample_sequences(tbn, 20_000, 5, seed=0)
    engine = InferenceEngine(unroll(tbn, 5))
    for t in range(5):
        for k, r in enumerate(tbn.radicals):
            p = engine.posterior(f"{r}{t}")[f"{r}{t}"]
            freq = np.bincount(codes[:, t, k], minlength=len(p)) / len(codes)
            assert np.all(np.abs(freq - p) <= 4.5 * np.sqrt(p * (1 - p) / len(codes)) + 1e-12)


def z_scores(learned, truth) -> np.ndarray:
    """(θ_true − θ̂) / σ for every transition parameter, σ² = θ̂(1 − θ̂)/(α_π + 1) from the Dirichlet counts."""
    alpha = dirichlet_counts(learned.network)
    out = []
    for r in truth.radicals:
        a = alpha[r + "t"]
        mean = a / a.sum(axis=-1, keepdims=True)
        sd = np.sqrt(mean * (1 - mean) / (a.sum(axis=-1, keepdims=True) + 1))
        np.testing.assert_allclose(learned.transition_cpt(r), mean, atol=1e-12)
        out.append(((truth.transition_cpt(r) - mean) / sd).ravel())
    return np.concatenate(out)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mp_recovers_the_transition_cpts_within_their_error_bars(seed):
    truth = random_tbn(seed, n=3, max_card=3)
    start = uniform_copy(truth)  # the fit must not keep the starting numbers
    frame = sequences_frame(truth, sample_sequences(truth, 40, 500, seed=seed))
    learned = fit_sequences(start, frame.sample(frac=1.0, random_state=seed))  # rows in any order
    z = z_scores(learned, truth)
    assert np.all(np.abs(z) < 4.5), z
    assert 0.4 < np.sqrt(np.mean(z ** 2)) < 2.0  # error bars neither too narrow nor far too wide
    backwards = fit_sequences(start, frame.assign(time=-frame.time))  # the check can fail: time reversed
    assert np.sqrt(np.mean(z_scores(backwards, truth) ** 2)) > 5


def uniform_copy(truth):
    """``truth``'s structure with uniform CPTs (the learner's starting point)."""
    net = truth.to_network()
    net.set_parameters({v: np.full(net.family_shape(v), 1 / net.cardinality(v)) for v in net.variables})
    return type(truth)(net)


def test_ml_counts_every_consecutive_pair_once():
    tbn = random_tbn(4, n=2)
    codes = sample_sequences(tbn, 3, 7, seed=4)
    frame = sequences_frame(tbn, codes)
    counts = tied_counts(tbn, *_codes_and_ids(tbn, frame))
    r = tbn.radicals[0]
    parents = tbn.transition_parents(r)
    expected = np.zeros(tbn.network.family_shape(r + "t"))
    pos = {x: k for k, x in enumerate(tbn.radicals)}
    for s in range(3):
        for t in range(1, 7):
            cell = tuple(codes[s, t - lag, pos[p]] for p, lag in parents) + (codes[s, t, pos[r]],)
            expected[cell] += 1
    np.testing.assert_array_equal(counts[r + "t"], expected)
    assert counts[r + "0"].sum() == 3  # one first slice per sequence
    ml = fit_sequences(tbn, [frame[frame.sequence == s].drop(columns=["sequence", "time"]) for s in range(3)],
                       method="ml")
    rows = expected.sum(axis=-1, keepdims=True)
    seen = rows[..., 0] > 0
    np.testing.assert_allclose(ml.transition_cpt(r)[seen], (expected / np.where(rows > 0, rows, 1))[seen],
                               atol=1e-8)
    assert ml.network.alpha(r + "t") is None


def _codes_and_ids(tbn, frame):
    from bnstudio.temporal.learning import sequence_codes
    return sequence_codes(tbn, frame)


def test_bad_sequence_tables_are_one_line():
    tbn = random_tbn(4, n=2)
    frame = sequences_frame(tbn, sample_sequences(tbn, 2, 3, seed=1))
    with pytest.raises(ValidationError, match="no column 'time'"):
        fit_sequences(tbn, frame.drop(columns="time"))
    twice = pd.concat([frame, frame.iloc[[0]]])
    with pytest.raises(ValidationError, match="appears twice"):
        fit_sequences(tbn, twice)
    with pytest.raises(ValidationError, match="method"):
        fit_sequences(tbn, frame, method="em-ish")
    with pytest.raises(ValidationError, match="no sequences"):
        fit_sequences(tbn, [])
    with pytest.raises(ValidationError, match="number of sequences"):
        sample_sequences(tbn, 0, 3)
