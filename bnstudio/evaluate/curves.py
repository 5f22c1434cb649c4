"""Ranking and calibration of a classifier's posteriors: ROC curves, AUC, reliability bins and ECE.

Inputs are the posteriors ``post`` (N, K) of :func:`~bnstudio.evaluate.metrics.target_posteriors`, the true
state codes ``y`` (N,) and optional case weights ``w`` (N,); everything is vectorised over the cases.

* **ROC of state k** (one-vs-rest): the score is p(k | e), a case is positive when y = k. Thresholds run over the
  distinct scores from high to low; TPR and FPR are the weighted fractions of positives and negatives scoring at
  least the threshold (the points of scikit-learn's ``roc_curve(..., drop_intermediate=False)``).
* **AUC** = P(score of a positive > score of a negative) + ½ P(equal) — the area under the ROC's straight-line
  interpolation, with ties counted half (the Mann–Whitney statistic). :func:`auc` is the macro average over the
  states of the one-vs-rest AUCs (scikit-learn's ``roc_auc_score(multi_class="ovr", average="macro")``); with
  two states it is the AUC of the first state (both states give the same area). A state that is absent from the
  cases (or is every case) has no AUC and is left out of the average; with no state left it is ``None``.
* **Reliability** of the predicted state's probability c = max_k p(k | e): ten equal-width bins of (0, 1]
  (a bin holds lo < c ≤ hi, the first also c = 0, as scikit-learn's ``calibration_curve(strategy="uniform")``),
  with each bin's weight, mean confidence and accuracy (fraction predicted right).
* **ECE** = Σ_b (W_b / W) |accuracy_b − confidence_b| (Guo et al. 2017, eq. 3; bins weighted by size).
* **Thinned ROC** (:func:`thin_roc`, what the training panel draws and a project keeps): the points inside a
  straight run of the curve are dropped (the drawn line is unchanged), then, beyond ``cap`` points, the points
  nearest ``cap`` equal steps of the path length (|Δfpr| + |Δtpr|, 2 in all) are kept, so the thinned line lies
  within 2 / (cap − 1) of the full one in each rate; the ends (0, 0) and (1, 1) always stay.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: the number of equal-width confidence bins of the reliability diagram and the ECE
CALIBRATION_BINS = 10


@dataclass(frozen=True)
class RocCurve:
    """One state's one-vs-rest ROC: false and true positive rates from (0, 0) to (1, 1), and its area."""

    state: str
    fpr: np.ndarray
    tpr: np.ndarray
    auc: float


@dataclass(frozen=True)
class Reliability:
    """The reliability diagram of the predicted state's probability (module docstring)."""

    edges: np.ndarray       # (B + 1,) bin edges over [0, 1]
    weight: np.ndarray      # (B,) summed case weight per bin (the count, for unit weights)
    confidence: np.ndarray  # (B,) mean predicted probability per bin (NaN where the bin is empty)
    accuracy: np.ndarray    # (B,) fraction predicted right per bin (NaN where the bin is empty)
    ece: float

    def to_json(self) -> dict:
        filled = self.weight > 0
        return {"edges": self.edges.tolist(), "weight": self.weight.tolist(),
                "confidence": [float(c) if f else None for c, f in zip(self.confidence, filled, strict=True)],
                "accuracy": [float(a) if f else None for a, f in zip(self.accuracy, filled, strict=True)],
                "ece": self.ece}


def _weights(y: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    return np.ones(len(y)) if w is None else np.asarray(w, dtype=float)


def _ranked(score: np.ndarray, positive: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positive and negative weight at each distinct score, the scores in decreasing order."""
    distinct, inverse = np.unique(-score, return_inverse=True)
    pos = np.bincount(inverse, weights=w * positive, minlength=len(distinct))
    neg = np.bincount(inverse, weights=w * ~positive, minlength=len(distinct))
    return pos, neg


def _area(pos: np.ndarray, neg: np.ndarray) -> float | None:
    """The Mann–Whitney area of ranked weights (:func:`_ranked`); None without positives or negatives."""
    total_pos, total_neg = pos.sum(), neg.sum()
    if total_pos <= 0 or total_neg <= 0:
        return None
    # scores run high to low: a positive beats every negative at a lower score (those after it)
    neg_below = total_neg - np.cumsum(neg)
    return float((pos * (neg_below + 0.5 * neg)).sum() / (total_pos * total_neg))


def _rates(pos: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(fpr, tpr) of ranked weights from (0, 0); all-zero rates on a side that has no cases."""
    tp, fp = np.concatenate([[0.0], np.cumsum(pos)]), np.concatenate([[0.0], np.cumsum(neg)])
    return fp / fp[-1] if fp[-1] > 0 else fp, tp / tp[-1] if tp[-1] > 0 else tp


def _ranked_cases(score: np.ndarray, positive: np.ndarray, w: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    positive = np.asarray(positive, dtype=bool)
    return _ranked(np.asarray(score, dtype=float), positive, _weights(positive, w))


def binary_auc(score: np.ndarray, positive: np.ndarray, w: np.ndarray | None = None) -> float | None:
    """P(score⁺ > score⁻) + ½ P(score⁺ = score⁻) over weighted positive/negative pairs; ``None`` when the cases
    are all positive or all negative."""
    return _area(*_ranked_cases(score, positive, w))


def roc_curve(score: np.ndarray, positive: np.ndarray, w: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(fpr, tpr) at every distinct threshold from high to low, starting at (0, 0); all-zero rates on a side
    that has no cases."""
    return _rates(*_ranked_cases(score, positive, w))


def roc_curves(post: np.ndarray, y: np.ndarray, states: list[str], w: np.ndarray | None = None) -> list[RocCurve]:
    """The one-vs-rest ROC of every state that has both positive and negative cases (one ranking a state)."""
    out = []
    for k, state in enumerate(states):
        ranked = _ranked_cases(post[:, k], y == k, w)
        area = _area(*ranked)
        if area is not None:
            out.append(RocCurve(state, *_rates(*ranked), area))
    return out


def thin_roc(fpr: np.ndarray, tpr: np.ndarray, cap: int) -> tuple[np.ndarray, np.ndarray]:
    """At most ``cap`` (≥ 2) points of the ROC (fpr, tpr) that draw it (module docstring: Thinned ROC)."""
    fpr, tpr = np.asarray(fpr, dtype=float), np.asarray(tpr, dtype=float)
    if len(fpr) > 2:
        dx, dy = np.diff(fpr), np.diff(tpr)
        bend = dx[:-1] * dy[1:] != dy[:-1] * dx[1:]          # not on the line through its neighbours
        keep = np.concatenate([[True], bend, [True]])
        fpr, tpr = fpr[keep], tpr[keep]
    if len(fpr) <= cap:
        return fpr, tpr
    path = np.concatenate([[0.0], np.cumsum(np.abs(np.diff(fpr)) + np.abs(np.diff(tpr)))])
    chosen = np.unique(np.concatenate([[0], np.searchsorted(path, np.linspace(0.0, path[-1], cap)),
                                       [len(fpr) - 1]]))
    chosen = chosen[chosen < len(fpr)]
    return fpr[chosen], tpr[chosen]


def _macro(areas: list[float]) -> float | None:
    """The macro average of the states' one-vs-rest areas (with two states both are the same area)."""
    return float(np.mean(areas)) if areas else None


def auc(post: np.ndarray, y: np.ndarray, w: np.ndarray | None = None) -> float | None:
    """Macro one-vs-rest AUC (the first state's AUC with two states); ``None`` when no state has both positive
    and negative cases."""
    post, y = np.asarray(post, dtype=float), np.asarray(y)
    if post.shape[1] == 2:
        return binary_auc(post[:, 0], y == 0, w)
    return _macro([a for k in range(post.shape[1]) if (a := binary_auc(post[:, k], y == k, w)) is not None])


def reliability(post: np.ndarray, y: np.ndarray, w: np.ndarray | None = None,
                bins: int = CALIBRATION_BINS) -> Reliability:
    """Reliability bins of the predicted state's probability and the ECE (module docstring)."""
    post, y = np.asarray(post, dtype=float), np.asarray(y)
    w = _weights(y, w)
    predicted = post.argmax(axis=1)
    confidence = post[np.arange(len(y)), predicted]
    edges = np.linspace(0.0, 1.0, bins + 1)
    which = np.searchsorted(edges[1:-1], confidence)   # bin b holds edges[b] < c <= edges[b + 1]
    return reliability_from_sums(np.bincount(which, weights=w, minlength=bins),
                                 np.bincount(which, weights=w * confidence, minlength=bins),
                                 np.bincount(which, weights=w * (predicted == y), minlength=bins))


def reliability_from_sums(weight: np.ndarray, conf_sum: np.ndarray, right_sum: np.ndarray) -> Reliability:
    """The reliability bins and ECE from each bin's weight W_b, summed confidence and summed right answers R_b:
    sums add over folds, so bins stored per fold pool exactly (bnstudio/experiment/calibration.py)."""
    weight, conf_sum, right_sum = (np.asarray(a, dtype=float) for a in (weight, conf_sum, right_sum))
    bins = len(weight)
    filled = weight > 0
    mean_conf = np.full(bins, np.nan)
    mean_right = np.full(bins, np.nan)
    mean_conf[filled] = conf_sum[filled] / weight[filled]
    mean_right[filled] = right_sum[filled] / weight[filled]
    total = weight.sum()
    ece = float((weight[filled] * np.abs(mean_right[filled] - mean_conf[filled])).sum() / total) if total > 0 else 0.0
    return Reliability(np.linspace(0.0, 1.0, bins + 1), weight, mean_conf, mean_right, ece)


@dataclass(frozen=True)
class Validation:
    """Everything the validation pictures show for one fitted network on held-out cases: the one-vs-rest ROC
    of every state that has both kinds of case, the macro AUC, and the reliability bins with the ECE."""

    states: list[str]
    rocs: list[RocCurve]
    auc: float | None
    reliability: Reliability

    def roc_series(self, label: str, state: str | None = None) -> dict:
        """The ROC of ``state`` (default: the first state that has one) as a figure series."""
        curve = next((c for c in self.rocs if state is None or c.state == state), None)
        if curve is None:
            return {"label": label, "fpr": [0.0, 1.0], "tpr": [0.0, 1.0], "auc": float("nan"), "state": state}
        return {"label": label, "fpr": curve.fpr.tolist(), "tpr": curve.tpr.tolist(), "auc": curve.auc,
                "state": curve.state}

    def reliability_series(self, label: str) -> dict:
        """The reliability bins as a figure series."""
        return {"label": label, **self.reliability.to_json()}

    def thinned(self, cap: int) -> "Validation":
        """The same validation with every ROC thinned to at most ``cap`` points (:func:`thin_roc`); areas,
        bins and ECE unchanged."""
        rocs = [RocCurve(c.state, *thin_roc(c.fpr, c.tpr, cap), c.auc) for c in self.rocs]
        return Validation(self.states, rocs, self.auc, self.reliability)

    def to_json(self) -> dict:
        return {"states": self.states, "auc": self.auc, "ece": self.reliability.ece,
                "roc": [self.roc_series(c.state, c.state) for c in self.rocs],
                "reliability": self.reliability.to_json()}


def validation(post: np.ndarray, y: np.ndarray, states: list[str], w: np.ndarray | None = None) -> Validation:
    """ROC curves, AUC and reliability of posteriors ``post`` for true codes ``y`` (the AUC from the curves' areas:
    one ranking a state)."""
    rocs = roc_curves(post, y, states, w)
    area = rocs[0].auc if len(states) == 2 and rocs else _macro([c.auc for c in rocs])
    return Validation(list(states), rocs, area, reliability(post, y, w))
