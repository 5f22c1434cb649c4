"""A run's ROC and reliability curves as its project entry keeps them (the ``curves`` key of a run,
:mod:`bnstudio.io.project.curves_json`), so a reopened project draws them at once, exactly as before saving.

The job thins each ROC to at most :data:`MAX_CURVE_POINTS` points (:func:`thinned`) before the panel first
draws it; JSON keeps the floats exactly, so the curves drawn after reopening are the ones drawn before.

>>> import numpy as np
>>> from bnstudio.evaluate.curves import validation
>>> shown = thinned(validation(np.array([[0.9, 0.1], [0.3, 0.7], [0.6, 0.4]]), np.array([0, 1, 0]), ["a", "b"]))
>>> back = curves_from_json(curves_to_json({"test": shown}))["test"]
>>> back.rocs[0].fpr.tolist() == shown.rocs[0].fpr.tolist(), back.auc, back.reliability.weight.tolist()[-4:]
(True, 1.0, [1.0, 0.0, 1.0, 0.0])
"""
from __future__ import annotations

from typing import Any

import numpy as np

from bnstudio.evaluate.curves import Reliability, RocCurve, Validation
from bnstudio.io.project.curves_json import MAX_CURVE_POINTS


def thinned(validation: Validation) -> Validation:
    """``validation`` with each ROC at most :data:`MAX_CURVE_POINTS` points (what is drawn and stored)."""
    return validation.thinned(MAX_CURVE_POINTS)


def curves_to_json(curves: dict[str, Validation]) -> dict[str, Any]:
    """The ``curves`` of a run entry: per data part, its states, AUC, ROC per state and reliability bins."""
    return {part: {"states": list(v.states), "auc": v.auc,
                   "roc": [{"state": c.state, "auc": c.auc, "fpr": c.fpr.tolist(), "tpr": c.tpr.tolist()}
                           for c in v.rocs],
                   "reliability": v.reliability.to_json()}
            for part, v in curves.items()}


def curves_from_json(doc: Any) -> dict[str, Validation]:
    """The curves of a run entry read by :func:`bnstudio.io.project.load_project` (which checked them); an
    absent ``curves`` key gives none."""
    return {part: _validation(v) for part, v in (doc or {}).items()}


def _validation(doc: dict[str, Any]) -> Validation:
    bins = doc["reliability"]
    weight = np.asarray(bins["weight"], dtype=float)
    reliability = Reliability(np.asarray(bins["edges"], dtype=float), weight, _shares(bins["confidence"]),
                              _shares(bins["accuracy"]), float(bins["ece"]))
    rocs = [RocCurve(c["state"], np.asarray(c["fpr"], dtype=float), np.asarray(c["tpr"], dtype=float),
                     float(c["auc"])) for c in doc["roc"]]
    auc = doc.get("auc")
    return Validation(list(doc["states"]), rocs, None if auc is None else float(auc), reliability)


def _shares(values: list[float | None]) -> np.ndarray:
    """Per-bin means with null (an empty bin) as NaN, as :func:`bnstudio.evaluate.curves.reliability` has it."""
    return np.array([np.nan if v is None else v for v in values], dtype=float)
