"""k-fold cross-validation and hold-out evaluation of a fitting method, seeded.

Each fold fits a fresh learner on the training rows (the input network is never changed) and scores the
held-out rows with :func:`~bnstudio.evaluate.metrics.evaluate`; the summary is the mean and standard deviation
of every score over the folds.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from bnstudio.core.network import Network
from bnstudio.data.split import k_folds, train_test_indices
from bnstudio.errors import ValidationError
from bnstudio.evaluate.metrics import Metrics, Scored, evaluate_scored
from bnstudio.learn.params import make_learner
from bnstudio.learn.params.suffstats import check_codes

SCORES = ("ll", "cll", "error_rate", "ae", "se", "brier", "auc", "ece")


def _fit_and_score(net: Network, codes: np.ndarray, train: np.ndarray, test: np.ndarray, target: str,
                   method: str, options: dict[str, Any]) -> tuple[Metrics, Scored]:
    fitted = make_learner(method, **options).fit(net, codes[train], target=target).network(net)
    return evaluate_scored(fitted, codes[test], target)


def pooled(parts: list[Scored]) -> Scored:
    """The held-out posteriors of every fold together: each row scored by the fit that did not see it."""
    return Scored(np.concatenate([p.post for p in parts]), np.concatenate([p.y for p in parts]),
                  np.concatenate([p.w for p in parts]), parts[0].states)


def summarise(folds: list[Metrics]) -> dict[str, Any]:
    """Mean and standard deviation of each score over the folds that have it (a fold whose test rows show one
    target state has no AUC; the mean is then ``None`` only if no fold has one), and the summed confusion."""
    out: dict[str, Any] = {"folds": len(folds), "n": int(sum(m.n for m in folds))}
    for score in SCORES:
        values = np.array([v for m in folds if (v := getattr(m, score)) is not None], dtype=float)
        out[score] = float(values.mean()) if len(values) else None
        out[f"{score}_sd"] = float(values.std(ddof=1)) if len(values) > 1 else 0.0
    out["confusion"] = np.sum([m.confusion for m in folds], axis=0).tolist()
    return out


def cross_validate(net: Network, data, target: str, method: str, options: dict[str, Any] | None = None,
                   folds: int = 10, seed: int | None = None) -> dict[str, Any]:
    """k-fold cross-validation of ``method`` on ``data`` (codes aligned to ``net.variables``)."""
    return cross_validate_scored(net, data, target, method, options, folds, seed)[0]


def cross_validate_scored(net: Network, data, target: str, method: str, options: dict[str, Any] | None = None,
                          folds: int = 10, seed: int | None = None) -> tuple[dict[str, Any], Scored]:
    """:func:`cross_validate` and the folds' held-out posteriors pooled (:func:`pooled`)."""
    codes, _ = check_codes(net, data)
    if folds < 2 or folds > len(codes):
        raise ValidationError(f"folds must be between 2 and the number of rows ({len(codes)}), got {folds}")
    results = [_fit_and_score(net, codes, train, test, target, method, dict(options or {}))
               for train, test in k_folds(len(codes), folds, seed)]
    metrics = [m for m, _ in results]
    return ({"method": method, **summarise(metrics), "per_fold": [m.to_json() for m in metrics]},
            pooled([s for _, s in results]))


def holdout(net: Network, data, target: str, method: str, options: dict[str, Any] | None = None,
            test_fraction: float = 0.3, seed: int | None = None) -> dict[str, Any]:
    """Fit on a seeded random (1 − test_fraction) of the rows, score on the rest."""
    codes, _ = check_codes(net, data)
    train, test = train_test_indices(len(codes), test_fraction, seed)
    metrics, _ = _fit_and_score(net, codes, train, test, target, method, dict(options or {}))
    return {"method": method, **metrics.to_json()}
