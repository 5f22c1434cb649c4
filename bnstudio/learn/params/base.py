"""What every parameter learner shares: the fitted result, the stopping rule, data scores for histories.

Learners follow the scikit-learn shape (GUIDE §2): the constructor stores hyper-parameters,
``fit(net, data, target=None, validation=None, reporter=None)`` validates, never mutates ``net`` and returns a
:class:`FitResult`. Every history entry holds the mean negative log-likelihood per training case (natural
log) and, with a target, the mean negative conditional log-likelihood of the target; also on the validation
rows when given.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bnstudio.core.network import Network
from bnstudio.learn.params.suffstats import check_codes
from bnstudio.learn.params.terms import Terms


@dataclass
class FitResult:
    """A fitted parameter set; apply it with :meth:`network` (a new network; the input is never changed)."""

    method: str
    cpts: dict[str, np.ndarray]
    alpha: dict[str, np.ndarray] | None
    history: list[dict[str, float]]
    stop_reason: str
    seconds: float
    settings: dict[str, Any] = field(default_factory=dict)
    ensemble: dict[str, np.ndarray] | None = None   # bagged-mp: (T, *family) per variable
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def n_iterations(self) -> int:
        return len(self.history)

    def network(self, base: Network) -> Network:
        """A copy of ``base`` carrying these CPTs (and Dirichlet counts where the method has them)."""
        net = base.copy()
        net.set_parameters(self.cpts, self.alpha)
        return net

    def to_json(self) -> dict[str, Any]:
        """The run as JSON-safe data (for the project file and ``--json``)."""
        return {"method": self.method, "settings": self.settings, "history": self.history,
                "stop_reason": self.stop_reason, "seconds": self.seconds, "n_iterations": self.n_iterations}


@dataclass(frozen=True)
class StopRule:
    """Shared stopping knobs: at most ``max_iter`` iterations, relative improvement ``tol``, ``max_time`` s."""

    max_iter: int = 100
    tol: float = 1e-6
    max_time: float = math.inf

    def reason(self, iteration: int, previous: float, current: float, elapsed: float) -> str | None:
        """Why to stop now (or None): "converged", "max_iter" or "max_time"."""
        if abs(current - previous) <= self.tol * max(abs(previous), 1e-12):
            return "converged"
        if iteration >= self.max_iter:
            return "max_iter"
        if elapsed >= self.max_time:
            return "max_time"
        return None


class DataScorer:
    """Mean NLL and conditional NLL of a data set under changing CPTs (for histories and evaluation)."""

    def __init__(self, net: Network, data: np.ndarray, weights: np.ndarray | None = None,
                 target: str | None = None, terms: Terms | None = None) -> None:
        self.codes, self.weights = check_codes(net, data, weights)
        self.terms = terms or Terms(net, target)
        self.target = None if target is None else net.variables.index(target)

    def scores(self, theta: list[np.ndarray] | None = None) -> dict[str, float]:
        """{"nll": ..., "cnll": ...} per case (cnll over the rows whose target is observed)."""
        if theta is not None:
            self.terms.set_cpts(theta)
        total = self.weights.sum()
        logp = self.terms.stats(self.codes, self.weights, want_counts=False).logp
        out = {"nll": float(-(self.weights * logp).sum() / total)}
        if self.target is not None:
            log_cond, w = conditional_logp(self.terms, self.codes, self.weights, self.target)
            out["cnll"] = float(-(w * log_cond).sum() / w.sum()) if w.sum() > 0 else math.nan
        return out


def conditional_logp(terms: Terms, codes: np.ndarray, weights: np.ndarray, target: int
                     ) -> tuple[np.ndarray, np.ndarray]:
    """log p(q_n | e_n) for the rows whose target is observed, with their weights."""
    rows = codes[:, target] >= 0
    obs, w = codes[rows], weights[rows]
    hidden = obs.copy()
    hidden[:, target] = -1
    with np.errstate(invalid="ignore"):
        log_qe = terms.stats(obs, w, want_counts=False).logp
        log_e = terms.stats(hidden, w, want_counts=False).logp
        return np.where(np.isneginf(log_qe), -np.inf, log_qe - log_e), w
