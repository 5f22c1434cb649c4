"""Honest evaluation: scores on held-out data (LL, CLL, error, AE, SE, Brier, AUC, ECE, confusion),
cross-validation, and the ROC and reliability curves behind AUC and ECE (:mod:`bnstudio.evaluate.curves`).

The names load on first use: :mod:`~bnstudio.evaluate.curves` needs only numpy, and a study's report, which pools
stored calibration bins with it, should not load the inference engine and the learners with it."""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bnstudio.evaluate.crossval import cross_validate, holdout
    from bnstudio.evaluate.metrics import Metrics, evaluate, target_posteriors

_LAZY = {**dict.fromkeys(("cross_validate", "holdout"), "crossval"),
         **dict.fromkeys(("Metrics", "evaluate", "target_posteriors"), "metrics")}


def __getattr__(name: str) -> Any:
    """The names of :data:`_LAZY`, imported from their module the first time one is asked for."""
    if name not in _LAZY:
        raise AttributeError(f"module 'bnstudio.evaluate' has no attribute '{name}'")
    value = getattr(importlib.import_module(f"bnstudio.evaluate.{_LAZY[name]}"), name)
    globals()[name] = value
    return value


__all__ = ["Metrics", "cross_validate", "evaluate", "holdout", "target_posteriors"]
