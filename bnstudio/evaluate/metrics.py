"""Scores of a network on a data set (Zhou §3.1): LL, CLL, classification error, AE, SE, Brier, confusion.

For each row the target is hidden and p(q | e) computed from the other observed cells (batched propagations
over the unique evidence patterns, in chunks that fit ``memory_budget``: :mod:`bnstudio.inference.batching`). Means are per case, natural logs; rows whose target is
missing count for the log-likelihood only.

* ``ll``  = mean log p(row)                     * ``cll`` = mean log p(q | e)          (eq 3.2, 3.4)
* ``error_rate`` = mean 1{argmax p(·|e) ≠ q}      (eq 3.6)
* ``ae``  = mean (1 − p(q | e))                   (eq 3.7)   * ``se`` = mean (1 − p(q | e))²   (eq 3.8)
* ``brier`` = mean Σ_k (p(k | e) − 1{k = q})²     (multi-class Brier score)
* ``auc`` = macro one-vs-rest area under the ROC  * ``ece`` = expected calibration error, 10 bins
  (:mod:`bnstudio.evaluate.curves`; ``auc`` is ``None`` when the target shows only one state in the data)

Every learner's CPTs have entries ≥ 1e-9 (:mod:`bnstudio.learn.params.floor`), so any row — training or
held-out — has p(e) > 0 under a learned network. A hand-made network may give a row probability 0 given its
other cells; its posterior is then undefined and :class:`~bnstudio.errors.ImpossibleEvidence` names the data rows.
A class or attribute that shows only some of its states in the data (or has a single state) is fine.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import ImpossibleEvidence, ValidationError
from bnstudio.evaluate import curves
from bnstudio.evaluate.blanket import blanket_posteriors
from bnstudio.inference import DEFAULT_MEMORY_BUDGET, InferenceEngine
from bnstudio.inference.batching import batch_size, fitting, spans
from bnstudio.learn.params.suffstats import check_codes, narrow_codes, unique_rows
from bnstudio.learn.params.terms import Terms


@dataclass
class Metrics:
    """Mean scores per case on one data set (see module docstring)."""

    n: int
    ll: float
    cll: float
    error_rate: float
    ae: float
    se: float
    brier: float
    auc: float | None
    ece: float
    confusion: list[list[int]]
    states: list[str]

    def to_json(self) -> dict:
        return asdict(self)


def target_posteriors(net: Network, codes: Any, target: str, row_numbers: np.ndarray | None = None,
                      memory_budget: int = DEFAULT_MEMORY_BUDGET) -> np.ndarray:
    """p(target | other observed cells) for every row, shape (N, |target|): in closed form where the target's
    Markov blanket is observed (:mod:`bnstudio.evaluate.blanket`), else via unique evidence patterns (in chunks
    that fit ``memory_budget``, bytes).

    ``codes`` is what :func:`evaluate` takes: an (N, |V|) code table in ``net.variables`` order (-1 = missing),
    or a table matched by column name (a DataFrame of state names, a Dataset, a file path). Rows whose other
    cells have probability 0 raise :class:`ImpossibleEvidence` naming them (``row_numbers``: how to number the
    rows in the message, default 0..N-1).
    """
    codes, _ = check_codes(net, codes, learnable=False)
    if target not in net:
        raise ValidationError(f"unknown target variable '{target}'")
    done, closed = blanket_posteriors(net, codes, target, memory_budget)
    if done.all():
        return closed
    slow = np.flatnonzero(~done)
    row_numbers = slow if row_numbers is None else np.asarray(row_numbers)[slow]
    closed[slow] = _engine_posteriors(net, codes[slow], target, row_numbers, memory_budget)
    return closed


def _engine_posteriors(net: Network, codes: np.ndarray, target: str, row_numbers: np.ndarray,
                       memory_budget: int) -> np.ndarray:
    """p(target | e) by batched propagation over the rows' unique evidence patterns."""
    t = net.variables.index(target)
    hidden = narrow_codes(codes)
    hidden = hidden.copy() if hidden is codes else hidden
    hidden[:, t] = -1
    unique, inverse = unique_rows(hidden)
    del hidden
    engine = InferenceEngine(net, memory_budget=memory_budget)
    # per pattern beside the propagation: its evidence likelihoods, its posterior and its code row
    cards = sum(net.cardinality(v) for v in net.variables)
    parts = list(spans(len(unique), batch_size(engine, 8 * (cards + net.cardinality(target)) + len(net),
                                                "scoring the data rows")))
    post = np.empty((len(unique), net.cardinality(target)))
    try:
        for part in parts:
            post[part] = engine.posterior_batch(target, unique[part])[target]
    except ImpossibleEvidence:
        log = np.concatenate([engine.log_evidence_batch(unique[part]) for part in parts])
        bad = np.flatnonzero(np.isneginf(log)[inverse])
        rows = np.asarray(row_numbers)[bad]
        raise ImpossibleEvidence(f"the network gives probability 0 to the other cells of data row(s) "
                                 f"{', '.join(str(int(r)) for r in rows[:10])}"
                                 f"{f' and {rows.size - 10} more' if rows.size > 10 else ''}: "
                                 f"p({target} | e) is undefined there") from None
    return post[inverse]


def _log_likelihoods(terms: Terms, codes: np.ndarray, weights: np.ndarray, memory_budget: int) -> np.ndarray:
    """log p(row) for every row, in row chunks whose family indices (8 bytes per row and family, and an int64
    transposed copy of the chunk) fit ``memory_budget``: wide data never index every row at once."""
    logp = np.empty(len(codes))
    for part in spans(len(codes), fitting(24 * codes.shape[1], memory_budget)):
        logp[part] = terms.stats(codes[part], weights[part], want_counts=False).logp
    return logp


@dataclass(frozen=True)
class Scored:
    """The held-out posteriors behind the scores: p(target | e) per row whose target is observed, the true
    codes, the rows' weights and the target's states."""

    post: np.ndarray
    y: np.ndarray
    w: np.ndarray
    states: list[str]

    def validation(self) -> curves.Validation:
        """ROC curves, AUC, reliability and ECE of these posteriors (:mod:`bnstudio.evaluate.curves`)."""
        return curves.validation(self.post, self.y, self.states, self.w)


def _scored(net: Network, codes: np.ndarray, weights: np.ndarray, target: str, memory_budget: int) -> Scored:
    t = net.variables.index(target)
    rows = codes[:, t] >= 0
    if not rows.any():
        raise ValidationError(f"the target '{target}' is missing in every row")
    post = target_posteriors(net, codes[rows], target, np.flatnonzero(rows), memory_budget)
    return Scored(post, codes[rows, t], weights[rows], list(net.states(target)))


def evaluate(net: Network, data, target: str, weights: np.ndarray | None = None,
             memory_budget: int = DEFAULT_MEMORY_BUDGET) -> Metrics:
    """All scores of ``net`` on ``data`` (codes aligned to ``net.variables``) for ``target``; batched inference
    in chunks that fit ``memory_budget`` (bytes)."""
    return evaluate_scored(net, data, target, weights, memory_budget)[0]


def evaluate_scored(net: Network, data, target: str, weights: np.ndarray | None = None,
                    memory_budget: int = DEFAULT_MEMORY_BUDGET) -> tuple[Metrics, Scored]:
    """:func:`evaluate` and the posteriors it scored (:class:`Scored`)."""
    codes, weights = check_codes(net, data, weights)
    if target not in net:
        raise ValidationError(f"unknown target variable '{target}'")
    logp = _log_likelihoods(Terms(net, memory_budget), codes, weights, memory_budget)
    scored = _scored(net, codes, weights, target, memory_budget)
    post, y, w = scored.post, scored.y, scored.w
    p_true = post[np.arange(len(y)), y]
    predicted = post.argmax(axis=1)
    onehot = np.eye(post.shape[1])[y]
    k = net.cardinality(target)
    confusion = np.bincount(y * k + predicted, minlength=k * k).reshape(k, k)
    mean = lambda values: float((w * values).sum() / w.sum())  # noqa: E731
    with np.errstate(divide="ignore"):
        cll = mean(np.log(p_true))
    metrics = Metrics(n=int(codes.shape[0]), ll=float((weights * logp).sum() / weights.sum()), cll=cll,
                      error_rate=mean(predicted != y), ae=mean(1 - p_true), se=mean((1 - p_true) ** 2),
                      brier=mean(((post - onehot) ** 2).sum(axis=1)), auc=curves.auc(post, y, w),
                      ece=curves.reliability(post, y, w).ece, confusion=confusion.tolist(), states=scored.states)
    return metrics, scored
