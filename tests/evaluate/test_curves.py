"""ROC, AUC, reliability and ECE (bnstudio/evaluate/curves.py) against scikit-learn on the same posteriors:
binary and multi-class, with ties, with case weights, and through :func:`evaluate` on a fitted network."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.evaluate import curves, evaluate
from bnstudio.evaluate.metrics import target_posteriors

metrics = pytest.importorskip("sklearn.metrics")
calibration = pytest.importorskip("sklearn.calibration")


def posteriors(n: int, k: int, seed: int, ties: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Random posteriors (rounded to a few values when ``ties``) and labels that follow them loosely."""
    rng = np.random.default_rng(seed)
    post = rng.dirichlet(np.ones(k), size=n)
    if ties:
        post = np.round(post * 4) / 4 + 1e-3
        post /= post.sum(axis=1, keepdims=True)
    y = np.array([rng.choice(k, p=0.5 * p + 0.5 / k) for p in post])
    return post, y


def sklearn_ece(post: np.ndarray, y: np.ndarray, bins: int = 10) -> float:
    """ECE from scikit-learn's calibration_curve of the predicted state's probability, weighted by bin size."""
    confidence, right = post.max(axis=1), (post.argmax(axis=1) == y).astype(int)
    prob_true, prob_pred = calibration.calibration_curve(right, confidence, n_bins=bins, strategy="uniform")
    which = np.searchsorted(np.linspace(0, 1, bins + 1)[1:-1], confidence)
    counts = np.bincount(which, minlength=bins)
    counts = counts[counts > 0]
    return float((counts * np.abs(prob_true - prob_pred)).sum() / counts.sum())


@pytest.mark.parametrize("k", [2, 3, 5])
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_auc_matches_sklearn(k, ties, seed):
    post, y = posteriors(400, k, seed, ties)
    if k == 2:
        theirs = metrics.roc_auc_score(y == 0, post[:, 0])
    else:
        theirs = metrics.roc_auc_score(y, post, multi_class="ovr", average="macro")
    assert curves.auc(post, y) == pytest.approx(theirs, abs=1e-12)


def test_weighted_auc_matches_sklearn():
    post, y = posteriors(300, 3, 4, ties=True)
    w = np.random.default_rng(5).uniform(0.1, 3.0, len(y))
    for k in range(3):
        theirs = metrics.roc_auc_score(y == k, post[:, k], sample_weight=w)
        assert curves.binary_auc(post[:, k], y == k, w) == pytest.approx(theirs, abs=1e-12)
    # integer weights are repeated cases
    reps = np.random.default_rng(6).integers(1, 4, len(y))
    assert curves.auc(post, y, reps) == pytest.approx(curves.auc(np.repeat(post, reps, 0), np.repeat(y, reps)))


@pytest.mark.parametrize("ties", [False, True])
def test_roc_points_match_sklearn(ties):
    post, y = posteriors(250, 3, 7, ties)
    for curve in curves.roc_curves(post, y, ["a", "b", "c"]):
        k = "abc".index(curve.state)
        fpr, tpr, _ = metrics.roc_curve(y == k, post[:, k], drop_intermediate=False)
        np.testing.assert_allclose(curve.fpr, fpr, atol=1e-12)
        np.testing.assert_allclose(curve.tpr, tpr, atol=1e-12)
        assert curve.auc == pytest.approx(metrics.auc(fpr, tpr), abs=1e-12)


def test_a_state_absent_from_the_cases_is_left_out_of_the_average():
    post, y = posteriors(200, 4, 8)
    y[y == 3] = 0  # state 3 never occurs: its one-vs-rest AUC is undefined
    present = [metrics.roc_auc_score(y == k, post[:, k]) for k in range(3)]
    assert curves.auc(post, y) == pytest.approx(np.mean(present), abs=1e-12)
    assert [c.state for c in curves.roc_curves(post, y, list("abcd"))] == list("abc")
    assert curves.auc(post, np.zeros(200, dtype=int)) is None


@pytest.mark.parametrize("k", [2, 4])
@pytest.mark.parametrize("ties", [False, True])
def test_ece_matches_sklearn_calibration_curve(k, ties):
    post, y = posteriors(500, k, 9 + k, ties)
    rel = curves.reliability(post, y)
    assert rel.ece == pytest.approx(sklearn_ece(post, y), abs=1e-12)
    assert rel.weight.sum() == len(y)
    assert np.isnan(rel.confidence[rel.weight == 0]).all()


def test_ece_on_bin_edges_follows_sklearn():
    # confidences exactly on the edges 0.6 and 1.0 fall in the bin below them (lo < c <= hi)
    post = np.array([[0.6, 0.4], [1.0, 0.0], [0.4, 0.6], [0.7, 0.3]])
    y = np.array([0, 1, 1, 1])
    rel = curves.reliability(post, y)
    assert rel.weight[5] == 2 and rel.weight[9] == 1 and rel.weight[6] == 1
    assert rel.ece == pytest.approx(sklearn_ece(post, y), abs=1e-12)


def test_calibrated_posteriors_have_small_ece_and_overconfident_large():
    rng = np.random.default_rng(3)
    p = rng.uniform(0, 1, 50_000)
    y = (rng.uniform(size=p.size) >= p).astype(int)  # state 0 with probability p: calibrated
    calibrated = np.column_stack([p, 1 - p])
    overconfident = np.where(p[:, None] > 0.5, [[0.99, 0.01]], [[0.01, 0.99]])
    assert curves.reliability(calibrated, y).ece < 0.01
    assert curves.reliability(overconfident, y).ece > 0.2


def test_evaluate_reports_auc_and_ece_of_its_posteriors(asia_fit):
    net, codes, target = asia_fit
    m = evaluate(net, codes, target)
    post = target_posteriors(net, codes, target)
    y = codes[:, net.variables.index(target)]
    assert m.auc == pytest.approx(metrics.roc_auc_score(y == 0, post[:, 0]), abs=1e-12)
    assert m.ece == pytest.approx(sklearn_ece(post, y), abs=1e-12)
    assert {"auc", "ece"} <= set(m.to_json())


@pytest.fixture
def asia_fit():
    from bnstudio.io import read_network
    from bnstudio.learn.params import make_learner
    from bnstudio.resources import bundled_example
    from bnstudio.sampling import forward_sample

    truth = read_network(bundled_example("asia.bif"))
    codes = forward_sample(truth, 3000, seed=1)
    fitted = make_learner("mp").fit(truth, codes[:2000], target="either").network(truth)
    return fitted, codes[2000:], "either"


@pytest.mark.parametrize("k", [2, 4])
def test_the_validation_auc_from_the_curves_is_the_macro_auc(k):
    post, y = posteriors(300, k, 11)
    shown = curves.validation(post, y, [f"s{i}" for i in range(k)])
    assert shown.auc == pytest.approx(curves.auc(post, y), abs=1e-12)


def _off_line(fpr: np.ndarray, tpr: np.ndarray, thin_fpr: np.ndarray, thin_tpr: np.ndarray) -> float:
    """The largest distance (in either rate) from a point of the full curve to the thinned line's segment
    between the thinned points around it (the thinned points are a subsequence of the full ones)."""
    at = np.array([np.flatnonzero((fpr == x) & (tpr == y))[0] for x, y in zip(thin_fpr, thin_tpr, strict=True)])
    assert np.all(np.diff(at) > 0)
    worst = 0.0
    for a, b in zip(at[:-1], at[1:], strict=True):
        p, q = np.array([fpr[a], tpr[a]]), np.array([fpr[b], tpr[b]])
        between = np.column_stack([fpr[a:b + 1], tpr[a:b + 1]])
        t = np.clip((between - p) @ (q - p) / max(float((q - p) @ (q - p)), 1e-300), 0.0, 1.0)
        worst = max(worst, float(np.abs(between - (p + t[:, None] * (q - p))).max()))
    return worst


@pytest.mark.parametrize("ties", [False, True])
def test_a_thinned_roc_drops_only_points_inside_straight_runs(ties):
    post, y = posteriors(400, 3, 5, ties)
    for curve in curves.roc_curves(post, y, ["a", "b", "c"]):
        fpr, tpr = curves.thin_roc(curve.fpr, curve.tpr, cap=10**6)
        assert len(fpr) < len(curve.fpr) or ties          # distinct scores: a staircase, with straight runs
        assert (fpr[0], tpr[0], fpr[-1], tpr[-1]) == (0.0, 0.0, 1.0, 1.0)
        assert _off_line(curve.fpr, curve.tpr, fpr, tpr) < 1e-15         # the drawn line is the same
        dx, dy = np.diff(fpr), np.diff(tpr)
        assert np.all(dx[:-1] * dy[1:] != dy[:-1] * dx[1:])              # and no point left inside a run


def test_a_large_rocs_thinned_line_has_at_most_cap_points_close_to_the_full_one():
    rng = np.random.default_rng(3)
    score = rng.random(200_000)
    positive = rng.random(200_000) < 0.3 + 0.4 * score
    fpr, tpr = curves.roc_curve(score, positive)
    for cap in (512, 64):
        thin_fpr, thin_tpr = curves.thin_roc(fpr, tpr, cap)
        assert len(thin_fpr) <= cap and (thin_fpr[0], thin_tpr[-1]) == (0.0, 1.0)
        assert np.all(np.diff(thin_fpr) >= 0) and np.all(np.diff(thin_tpr) >= 0)
        assert _off_line(fpr, tpr, thin_fpr, thin_tpr) <= 2 / (cap - 1)


def test_a_thinned_validation_keeps_its_areas_and_bins():
    post, y = posteriors(300, 3, 2)
    full = curves.validation(post, y, ["a", "b", "c"])
    thin = full.thinned(8)
    assert [c.auc for c in thin.rocs] == [c.auc for c in full.rocs] and thin.auc == full.auc
    assert thin.reliability is full.reliability and all(len(c.fpr) <= 8 for c in thin.rocs)
