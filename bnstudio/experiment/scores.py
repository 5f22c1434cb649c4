"""Held-out scores of a fitted model: from p(class | other cells) per row and log p(row) (Zhou §3.1).

A single network answers with its CPTs. A bagged ensemble answers as Singh §4.5.1 prescribes, by averaging the
answers of its T parameter sets, ζ^B = (1/T) Σ_i q(Θ(D_i)): the class posterior of every row is the mean over
the bags (one batched propagation, the bags on the engine's parameter axis), and log p(row) is
log((1/T) Σ_i p(row | Θ_i)). Scores (per scored row, natural log):

* ``error`` = mean 1{argmax p(·|e) ≠ y} (eq 3.6); ``cll`` = mean log p(y | e) (eq 3.4); ``ll`` = mean
  log p(row) over every row (eq 3.2); ``ae`` = mean (1 − p(y | e)), ``se`` = mean (1 − p(y | e))² (eq 3.7–3.8);
  ``brier`` = mean Σ_k (p(k | e) − 1{k = y})²;
* ``auc`` = the macro one-vs-rest area under the ROC (the first state's with two states; ``None`` when the test
  rows show a single state of the target) and ``ece`` = the expected calibration error over 10 bins, both by
  :mod:`bnstudio.evaluate.curves`; ``calibration`` = the reliability bins as sums (:func:`bin_sums`), which
  the report pools over folds and seeds (:mod:`bnstudio.experiment.calibration`).

For a single network these equal :func:`bnstudio.evaluate.evaluate` (a test checks it).
"""
from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np
from scipy.special import logsumexp

from bnstudio.core.network import Network
from bnstudio.evaluate import curves, target_posteriors
from bnstudio.experiment.calibration import BIN_KEYS
from bnstudio.inference import InferenceEngine
from bnstudio.learn.params.suffstats import unique_rows
from bnstudio.learn.params.terms import Terms

Ensemble = Mapping[str, np.ndarray]


def posteriors(net: Network, codes: np.ndarray, target: str, ensemble: Ensemble | None = None) -> np.ndarray:
    """p(target | the row's other observed cells), (N, |target|); averaged over the bags of an ensemble."""
    if ensemble is None:
        return target_posteriors(net, codes, target)
    hidden = codes.copy()
    hidden[:, net.variables.index(target)] = -1
    unique, inverse = unique_rows(hidden)
    per_bag = InferenceEngine(net).posterior_batch(target, unique, parameters=ensemble)[target]
    return per_bag.mean(axis=0)[inverse]


def row_log_likelihood(net: Network, codes: np.ndarray, ensemble: Ensemble | None = None) -> np.ndarray:
    """log p(row) per row, (N,); for an ensemble log of the mean over bags of p(row | Θ_i)."""
    if ensemble is None:
        return Terms(net).stats(codes, np.ones(len(codes)), want_counts=False).logp
    per_bag = InferenceEngine(net).log_evidence_batch(codes, parameters=ensemble)
    return logsumexp(per_bag, axis=0) - math.log(per_bag.shape[0])


def bin_sums(post: np.ndarray, y: np.ndarray) -> tuple[float, dict[str, list[float]]]:
    """(ECE, the reliability bins as sums) of posteriors ``post`` (N, K) for true codes ``y``: the bins of
    :func:`bnstudio.evaluate.curves.reliability`, each bin's weight and its mean confidence and accuracy times
    its weight (0 for an empty bin), so that bins of several tasks add up
    (:func:`bnstudio.experiment.calibration.pooled_reliability`)."""
    found = curves.reliability(post, y)
    filled = found.weight > 0
    sums = (found.weight, np.where(filled, np.nan_to_num(found.confidence) * found.weight, 0.0),
            np.where(filled, np.nan_to_num(found.accuracy) * found.weight, 0.0))
    return found.ece, {k: [float(v) for v in values] for k, values in zip(BIN_KEYS, sums, strict=True)}


def classification_scores(net: Network, codes: np.ndarray, target: str,
                          ensemble: Ensemble | None = None) -> dict[str, Any]:
    """Every score of the module docstring on ``codes``; rows with the target missing count for ``ll`` only."""
    t = net.variables.index(target)
    scored = codes[codes[:, t] >= 0]
    ll = float(row_log_likelihood(net, codes, ensemble).mean())
    if len(scored) == 0:
        return {"ll": ll, "error": None, "cll": None, "brier": None, "ae": None, "se": None, "auc": None,
                "ece": None, "calibration": None, "n": 0}
    y = scored[:, t]
    post = posteriors(net, scored, target, ensemble)
    own = post[np.arange(len(y)), y]
    with np.errstate(divide="ignore"):
        cll = float(np.log(own).mean())
    onehot = np.eye(post.shape[1])[y]
    ece, calibration = bin_sums(post, y)
    return {"ll": ll, "error": float((post.argmax(axis=1) != y).mean()), "cll": cll,
            "brier": float(((post - onehot) ** 2).sum(axis=1).mean()), "ae": float((1 - own).mean()),
            "se": float(((1 - own) ** 2).mean()), "auc": curves.auc(post, y), "ece": ece,
            "calibration": calibration, "n": int(len(y))}
