"""A learning run as the training panel keeps it: label, method, settings, history, scores, curves and the
fitted result. Runs are stored in ``project.runs`` as ``FitResult.to_json(parameters=True)`` plus ``label``,
``metrics`` and ``curves`` (:mod:`bnstudio.app.training.run_curves`), with every non-finite number written as
null (JSON has no NaN), so a reopened project can still apply and compare its runs' parameters and draws their
ROC and reliability curves at once (runs saved before parameters, or curves, were stored come back without
them).

>>> clean({"a": float("nan"), "b": [1.0, float("-inf")], "c": 2})
{'a': None, 'b': [1.0, None], 'c': 2}
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bnstudio.app.training.run_curves import curves_from_json, curves_to_json
from bnstudio.errors import ValidationError
from bnstudio.evaluate.curves import Validation
from bnstudio.learn.params import FitResult

#: history keys plotted: (key, plot, dashed)
SERIES = (("nll", "nll", False), ("val_nll", "nll", True), ("cnll", "cnll", False), ("val_cnll", "cnll", True))


def clean(value: Any) -> Any:
    """A JSON-safe copy: numpy scalars and arrays to Python, NaN and infinities to None."""
    if hasattr(value, "tolist") and not isinstance(value, (int, float)):
        value = value.tolist()
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value


@dataclass
class RunRecord:
    """One training run; ``result`` is None for a stored run without (readable) parameters."""

    label: str
    method: str
    settings: dict[str, Any]
    history: list[dict[str, Any]]
    stop_reason: str
    seconds: float
    metrics: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    result: FitResult | None = None
    stored: dict[str, Any] | None = None       # the project entry a restored run came from (kept as is)
    key: int = 0                               # identifies the run's curves in the plot
    saved: dict[str, Any] | None = field(default=None, repr=False)   # to_json(), made once (a run never changes)
    #: per data part, the ROC curves (thinned: :func:`~bnstudio.app.training.run_curves.thinned`) and
    #: reliability bins of the run's posteriors, stored as the entry's ``curves``
    validation: dict[str, Validation] = field(default_factory=dict, repr=False)

    @classmethod
    def from_outcome(cls, outcome) -> "RunRecord":
        r = outcome.result
        return cls(outcome.label, r.method, dict(r.settings), list(r.history), r.stop_reason, r.seconds,
                   dict(outcome.metrics), r, saved=getattr(outcome, "stored", None),
                   validation=dict(getattr(outcome, "validation", {}) or {}))

    @classmethod
    def from_json(cls, doc: dict[str, Any], number: int) -> "RunRecord":
        """Read a stored run (missing fields get neutral values; ``number`` labels an unlabelled run)."""
        method = str(doc.get("method", "?"))
        try:
            result = FitResult.from_json(doc)
        except ValidationError:
            result = None                          # damaged tables: keep the history, drop the parameters
        return cls(str(doc.get("label") or f"{number}. {method}"), method, dict(doc.get("settings") or {}),
                   [dict(h) for h in doc.get("history") or []], str(doc.get("stop_reason", "")),
                   float(doc.get("seconds") or 0.0), dict(doc.get("metrics") or {}), result, stored=dict(doc),
                   validation=curves_from_json(doc.get("curves")))

    def to_json(self) -> dict[str, Any]:
        """``FitResult.to_json()`` (or the stored entry) plus ``label`` and ``metrics``, JSON-safe (made once and
        kept: a thousand families take a tenth of a second)."""
        if self.saved is not None and self.saved.get("label") == self.label:
            return self.saved
        doc = {"method": self.method, "settings": self.settings, "history": self.history,
               "stop_reason": self.stop_reason, "seconds": self.seconds, "n_iterations": len(self.history)}
        if self.stored is not None:
            doc = {**self.stored, **doc}
        elif self.result is not None:
            doc = self.result.to_json(parameters=True)
        curves = {"curves": curves_to_json(self.validation)} if self.validation else {}
        self.saved = clean({**doc, "label": self.label, "metrics": self.metrics, **curves})
        return self.saved

    @property
    def n_iterations(self) -> int:
        return len(self.history)

    def series(self, key: str) -> tuple[np.ndarray, np.ndarray]:
        """(iterations, values) of history entries holding a finite ``key``."""
        return history_series(self.history, key)


def history_series(history: list[dict[str, Any]], key: str) -> tuple[np.ndarray, np.ndarray]:
    """(iteration, value) arrays for ``key`` over ``history`` (entries without a finite value skipped)."""
    pairs = [(h.get("iteration", k + 1), h[key]) for k, h in enumerate(history)
             if h.get(key) is not None and math.isfinite(h[key])]
    if not pairs:
        return np.zeros(0), np.zeros(0)
    x, y = zip(*pairs, strict=True)
    return np.asarray(x, dtype=float), np.asarray(y, dtype=float)
