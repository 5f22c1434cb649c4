"""One answer to p(X | e) whatever the network's size: exact when the engine can, approximate when it cannot.

``answer_posterior(engine, targets, evidence, method="auto")`` asks the exact engine first and, when the query
does not fit the memory budget (:class:`MemoryBudgetExceeded`: a 40x40 grid), answers by likelihood weighting
(:mod:`bnstudio.inference.sampled`) with its Monte-Carlo standard errors, saying why in ``reason``. On request
the method is fixed: ``"exact"`` (never approximate), ``"likelihood-weighting"`` or ``"loopy-bp"``
(:mod:`bnstudio.inference.loopy`). docs/inference.md §12.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from bnstudio.errors import MemoryBudgetExceeded, ValidationError
from bnstudio.jobs import Reporter

if TYPE_CHECKING:
    from bnstudio.inference import evidence as ev
    from bnstudio.inference.engine import InferenceEngine

METHODS = ("auto", "exact", "likelihood-weighting", "loopy-bp")
DEFAULT_SAMPLES = 100_000


@dataclass
class PosteriorAnswer:
    """Posteriors {target: (|X|,)} and how they were obtained.

    ``method``: "exact", "likelihood-weighting" or "loopy-bp"; ``standard_errors``: the Monte-Carlo (sampling)
    standard error of each probability (likelihood weighting only; exact answers have none, loopy belief
    propagation gives no error estimate); ``reason``: why the answer is approximate when that was not asked
    for; ``details``: samples, effective_samples and log_evidence (sampling) or converged, iterations and
    change (loopy BP)."""

    posteriors: dict[str, np.ndarray]
    method: str = "exact"
    standard_errors: dict[str, np.ndarray] | None = None
    reason: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def exact(self) -> bool:
        return self.method == "exact"


def answer_posterior(engine: InferenceEngine, targets: str | Sequence[str], evidence: ev.Evidence | None = None,
                     method: str = "auto", samples: int = DEFAULT_SAMPLES, seed: int | np.random.Generator | None = None,
                     reporter: Reporter | None = None) -> PosteriorAnswer:
    """p(X | e) of each target by ``method`` (module docstring); ``samples`` and ``seed`` drive likelihood
    weighting, which is cancellable through ``reporter``."""
    if method not in METHODS:
        raise ValidationError(f"unknown inference method {method!r}; use one of {', '.join(METHODS)}")
    reason = ""
    if method in ("auto", "exact"):
        try:
            return PosteriorAnswer(engine.posterior(targets, evidence))
        except MemoryBudgetExceeded as exc:
            if method == "exact":
                raise
            reason = f"exact inference does not fit: {exc}"
    if method == "loopy-bp":
        from bnstudio.inference.loopy import loopy_belief_propagation

        bp = loopy_belief_propagation(engine.net, targets, evidence, reporter=reporter)
        return PosteriorAnswer(bp.posteriors, "loopy-bp", details={"converged": bp.converged,
                                                                   "iterations": bp.iterations,
                                                                   "change": bp.change})
    from bnstudio.inference.sampled import likelihood_weighting

    lw = likelihood_weighting(engine.net, targets, evidence, samples, seed, min(engine.memory_budget, 2**31),
                              reporter)
    return PosteriorAnswer(lw.posteriors, "likelihood-weighting", lw.standard_errors, reason,
                           {"samples": lw.samples, "effective_samples": lw.effective_samples,
                            "log_evidence": lw.log_evidence})
