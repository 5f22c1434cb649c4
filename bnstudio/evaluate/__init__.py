"""Honest evaluation: scores on held-out data (LL, CLL, error, AE, SE, Brier, confusion) and cross-validation."""
from bnstudio.evaluate.crossval import cross_validate, holdout
from bnstudio.evaluate.metrics import Metrics, evaluate, target_posteriors

__all__ = ["Metrics", "cross_validate", "evaluate", "holdout", "target_posteriors"]
