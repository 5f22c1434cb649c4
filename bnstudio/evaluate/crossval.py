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
from bnstudio.evaluate.metrics import Metrics, evaluate
from bnstudio.learn.params import make_learner
from bnstudio.learn.params.suffstats import check_codes

SCORES = ("ll", "cll", "error_rate", "ae", "se", "brier")


def _fit_and_score(net: Network, codes: np.ndarray, train: np.ndarray, test: np.ndarray, target: str,
                   method: str, options: dict[str, Any]) -> Metrics:
    fitted = make_learner(method, **options).fit(net, codes[train], target=target).network(net)
    return evaluate(fitted, codes[test], target)


def summarise(folds: list[Metrics]) -> dict[str, Any]:
    """Mean and standard deviation of each score, and the summed confusion matrix."""
    out: dict[str, Any] = {"folds": len(folds), "n": int(sum(m.n for m in folds))}
    for score in SCORES:
        values = np.array([getattr(m, score) for m in folds])
        out[score] = float(values.mean())
        out[f"{score}_sd"] = float(values.std(ddof=1)) if len(values) > 1 else 0.0
    out["confusion"] = np.sum([m.confusion for m in folds], axis=0).tolist()
    return out


def cross_validate(net: Network, data, target: str, method: str, options: dict[str, Any] | None = None,
                   folds: int = 10, seed: int | None = None) -> dict[str, Any]:
    """k-fold cross-validation of ``method`` on ``data`` (codes aligned to ``net.variables``)."""
    codes, _ = check_codes(net, data)
    if folds < 2 or folds > len(codes):
        raise ValidationError(f"folds must be between 2 and the number of rows ({len(codes)}), got {folds}")
    results = [_fit_and_score(net, codes, train, test, target, method, dict(options or {}))
               for train, test in k_folds(len(codes), folds, seed)]
    return {"method": method, **summarise(results), "per_fold": [m.to_json() for m in results]}


def holdout(net: Network, data, target: str, method: str, options: dict[str, Any] | None = None,
            test_fraction: float = 0.3, seed: int | None = None) -> dict[str, Any]:
    """Fit on a seeded random (1 − test_fraction) of the rows, score on the rest."""
    codes, _ = check_codes(net, data)
    train, test = train_test_indices(len(codes), test_fraction, seed)
    return {"method": method, **_fit_and_score(net, codes, train, test, target, method, dict(options or {})).to_json()}
