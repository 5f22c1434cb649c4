"""Filtering, smoothing and prediction by forward-backward equal exact inference on the unrolled network (the
project's engine), and brute-force enumeration of the unrolled joint for tiny models; log p(e) too."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bnstudio.errors import Cancelled, EvidenceError, ImpossibleEvidence, UnknownVariableError, ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.jobs import RecordingReporter
from bnstudio.temporal import filtering, iter_filter, prediction, smoothing, two_slice_network, unroll
from tests.brute import marginal, weighted_joint
from tests.temporal.random_tbn import random_tbn


def random_codes(tbn, slices: int, seed: int, observed: float = 0.5) -> np.ndarray:
    rng = np.random.default_rng(seed)
    cards = np.array([tbn.cardinality(r) for r in tbn.radicals])
    codes = (rng.random((slices, len(cards))) * cards).astype(np.int64)
    codes[rng.random(codes.shape) > observed] = -1
    return codes


def as_evidence(tbn, codes: np.ndarray, upto: int | None = None) -> dict[str, str]:
    """The unrolled network's evidence {X5: state} of slices 0..upto-1."""
    return {f"{r}{t}": tbn.states(r)[c] for t, row in enumerate(codes[:upto])
            for r, c in zip(tbn.radicals, row, strict=True) if c >= 0}


@pytest.mark.parametrize("seed, n, slices", [(0, 2, 6), (1, 3, 5), (2, 4, 4), (3, 3, 7), (11, 5, 4)])
def test_filtering_and_smoothing_equal_the_unrolled_engine(seed, n, slices):
    tbn = random_tbn(seed, n=n)
    codes = random_codes(tbn, slices, seed)
    engine = InferenceEngine(unroll(tbn, slices))
    smooth = smoothing(tbn, codes)
    filt = filtering(tbn, codes)
    evidence = as_evidence(tbn, codes)
    assert smooth.log_likelihood == pytest.approx(engine.log_evidence(evidence), abs=1e-10)
    assert filt.log_likelihood == pytest.approx(smooth.log_likelihood, abs=1e-10)
    for t in range(slices):
        past = InferenceEngine(unroll(tbn, t + 1))
        for r in tbn.radicals:
            np.testing.assert_allclose(smooth.beliefs[r][t], engine.posterior(f"{r}{t}", evidence)[f"{r}{t}"],
                                       atol=1e-10)
            np.testing.assert_allclose(filt.beliefs[r][t],
                                       past.posterior(f"{r}{t}", as_evidence(tbn, codes, t + 1))[f"{r}{t}"],
                                       atol=1e-10)


@pytest.mark.parametrize("seed", [4, 5])
def test_prediction_equals_the_unrolled_engine(seed):
    tbn = random_tbn(seed, n=3)
    codes = random_codes(tbn, 4, seed, observed=0.8)
    horizon = 3
    engine = InferenceEngine(unroll(tbn, 4 + horizon))
    ahead = prediction(tbn, codes, horizon)
    assert list(ahead.slices) == [4, 5, 6]
    for k, t in enumerate(ahead.slices):
        for r in tbn.radicals:
            np.testing.assert_allclose(ahead.beliefs[r][k], engine.posterior(f"{r}{t}", as_evidence(tbn, codes))
                                       [f"{r}{t}"], atol=1e-10)


def test_brute_force_on_a_tiny_model():
    tbn = random_tbn(8, n=2, max_card=2)
    codes = random_codes(tbn, 4, 8)
    net = unroll(tbn, 4)
    joint = weighted_joint(net, as_evidence(tbn, codes))
    smooth = smoothing(tbn, codes)
    assert smooth.log_likelihood == pytest.approx(np.log(joint.sum()), abs=1e-12)
    for t in range(4):
        for r in tbn.radicals:
            np.testing.assert_allclose(smooth.beliefs[r][t], marginal(joint, [net.variables.index(f"{r}{t}")]),
                                       atol=1e-12)


def test_a_named_table_is_matched_by_column_name():
    tbn = random_tbn(3, n=3)
    codes = random_codes(tbn, 6, 1)
    frame = pd.DataFrame({r: [tbn.states(r)[c] if c >= 0 else None for c in codes[:, k]]
                          for k, r in reversed(list(enumerate(tbn.radicals)))})  # columns in another order
    np.testing.assert_allclose(filtering(tbn, frame).beliefs[tbn.radicals[0]],
                               filtering(tbn, codes).beliefs[tbn.radicals[0]], atol=0)
    partial = frame[[tbn.radicals[1]]]  # a variable never observed is simply absent
    blank = codes.copy()
    blank[:, [0, 2]] = -1
    np.testing.assert_allclose(smoothing(tbn, partial).beliefs[tbn.radicals[2]],
                               smoothing(tbn, blank).beliefs[tbn.radicals[2]], atol=0)


def test_streamed_rows_give_the_filtered_answers():
    tbn = random_tbn(6, n=3)
    codes = random_codes(tbn, 20, 2)
    streamed = list(iter_filter(tbn, iter(codes)))
    whole = filtering(tbn, codes)
    for t, beliefs, _ in streamed:
        for r in tbn.radicals:
            np.testing.assert_allclose(beliefs[r], whole.beliefs[r][t], atol=0)


def test_a_model_without_temporal_arcs_forgets_the_past():
    tbn = two_slice_network({"A": ["a", "b"]}, {"A": ((), [0.3, 0.7])}, {"A": ((), [0.6, 0.4])})
    assert tbn.interface == ()
    out = smoothing(tbn, np.array([[0], [-1], [1]]))
    np.testing.assert_allclose(out.beliefs["A"], [[1, 0], [0.6, 0.4], [0, 1]], atol=1e-15)
    assert out.log_likelihood == pytest.approx(np.log(0.3 * 0.4))


def test_bad_evidence_is_one_line():
    tbn = two_slice_network({"A": ["a", "b"], "B": ["x", "y"]},
                            {"A": ((), [1.0, 0.0])}, {"A": ((("A", 1),), [[1.0, 0.0], [0.0, 1.0]])})
    with pytest.raises(ImpossibleEvidence, match="slice 2"):
        filtering(tbn, np.array([[0, -1], [0, -1], [1, -1]]))
    with pytest.raises(ImpossibleEvidence, match="slice 0"):
        smoothing(tbn, pd.DataFrame({"A": ["b"]}))
    with pytest.raises(UnknownVariableError, match="table column 'C' is not a variable of the 2TBN"):
        filtering(tbn, pd.DataFrame({"C": ["a"]}))
    with pytest.raises(EvidenceError, match="evidence of 'B' in slice 1 is code 2"):
        filtering(tbn, np.array([[0, 0], [0, 2]]))
    with pytest.raises(EvidenceError, match="shape"):
        filtering(tbn, np.array([0, 1]))
    with pytest.raises(EvidenceError, match="whole-number codes"):
        filtering(tbn, np.array([[0.5, 1.0]]))
    with pytest.raises(EvidenceError, match="integer codes"):
        filtering(tbn, np.array([["a", "x"]]))
    with pytest.raises(Exception, match="'A'"):
        filtering(tbn, pd.DataFrame({"A": ["nope"]}))
    with pytest.raises(ValidationError, match="horizon"):
        prediction(tbn, np.array([[0, 0]]), 0)
    with pytest.raises(ValidationError, match="'Z' is not a variable"):
        filtering(tbn, np.array([[0, 0]]), targets="Z")


def test_nan_cells_of_a_float_array_are_unobserved():
    tbn = random_tbn(9, n=3)
    codes = random_codes(tbn, 6, 9)
    floats = np.where(codes >= 0, codes, np.nan).astype(float)
    for r in tbn.radicals:
        np.testing.assert_array_equal(smoothing(tbn, floats).beliefs[r], smoothing(tbn, codes).beliefs[r])


def test_a_stop_request_cancels_filtering_and_smoothing():
    tbn = random_tbn(2, n=2)
    codes = random_codes(tbn, 2_000, 2)
    for run in (filtering, smoothing):
        reporter = RecordingReporter(stop_after=1)
        with pytest.raises(Cancelled):
            run(tbn, codes, reporter=reporter)
