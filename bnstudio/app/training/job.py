"""The Qt-free training job: fit one learner on a snapshot of the network and the selected data, then score
the fitted copy on every data part. Runs in the generic worker thread; returns new objects only.

>>> from bnstudio.core import network_from_dsl
>>> from bnstudio.app.dataset.selection import DataSelection
>>> import numpy as np
>>> net = network_from_dsl("A->B")
>>> codes = np.array([[0, 0], [0, 1], [1, 1], [1, 1]] * 5)
>>> sel = DataSelection.from_codes(net, codes, target="B", test_fraction=0.25, seed=0)
>>> outcome = run_training(TrainingRequest("ml", {}, net.copy(), sel, "1. ml"), None)
>>> outcome.result.stop_reason, sorted(outcome.metrics), outcome.metrics["train"]["n"], sorted(outcome.validation)
('closed_form', ['test', 'train'], 15, ['test', 'train'])
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bnstudio.app.dataset.selection import DataSelection
from bnstudio.app.training.run_curves import thinned
from bnstudio.app.training.runs import RunRecord
from bnstudio.core.network import Network
from bnstudio.errors import Cancelled, ValidationError
from bnstudio.evaluate.curves import Validation
from bnstudio.evaluate.metrics import evaluate_scored
from bnstudio.learn.params import FitResult, make_learner
from bnstudio.learn.params.base import DataScorer


@dataclass(frozen=True)
class TrainingRequest:
    """What one run needs: the method, its options, a network snapshot and the data."""

    method: str
    options: dict[str, Any]
    network: Network
    selection: DataSelection
    label: str


@dataclass
class TrainingOutcome:
    """The fitted result and, per data part, the scores of the fitted network (None if not computable) and
    its ROC curves and reliability bins (parts scored with a target only)."""

    label: str
    result: FitResult
    metrics: dict[str, dict[str, Any] | None]
    validation: dict[str, Validation] = field(default_factory=dict)
    #: the run as the project stores it (``RunRecord.to_json``), made in the worker: for a thousand families
    #: the conversion took a tenth of a second of the window's thread at every finished run
    stored: dict[str, Any] | None = None


def part_metrics(net: Network, codes: np.ndarray, target: str | None
                 ) -> tuple[dict[str, Any] | None, Validation | None]:
    """Mean scores per case on ``codes`` and the ROC (thinned as drawn and stored) / reliability of the
    posteriors behind them: all of :func:`bnstudio.evaluate.metrics.evaluate_scored` with a target, else the
    log-likelihood only (and no curves); (None, None) when ``codes`` is empty."""
    if len(codes) == 0:
        return None, None
    if target is not None:
        try:
            metrics, scored = evaluate_scored(net, codes, target)
            return metrics.to_json(), thinned(scored.validation())
        except ValidationError:  # e.g. the target is missing in every row of this part
            pass
    return {"n": int(len(codes)), "ll": -DataScorer(net, codes).nll()}, None


def run_training(request: TrainingRequest, reporter) -> TrainingOutcome:
    """Fit, then score on train / validation / test (raises Cancelled if asked to stop meanwhile)."""
    sel = request.selection
    learner = make_learner(request.method, **request.options)
    result = learner.fit(request.network, sel.train, target=sel.target, validation=sel.validation,
                         reporter=reporter)
    fitted = result.network(request.network)
    metrics, curves = {}, {}
    for name, codes in sel.parts():
        if getattr(reporter, "cancelled", False):
            raise Cancelled(f"{request.label} cancelled while scoring")
        metrics[name], validation = part_metrics(fitted, codes, sel.target)
        if validation is not None:
            curves[name] = validation
    outcome = TrainingOutcome(request.label, result, metrics, curves)
    outcome.stored = RunRecord.from_outcome(outcome).to_json()
    return outcome
