"""``ml``, ``mp`` and ``em`` from a table read a piece at a time (:class:`~bnstudio.data.parts.DataParts`), here or
on a Dask cluster (:mod:`bnstudio.data.cluster`).

Every estimate depends on the data only through sums over rows, so each piece is reduced to its part of the
sums and the parts are added (docs/architecture.md §3.15):

* ``ml`` / ``mp``: the family counts N(pa, x) (:func:`~bnstudio.learn.params.suffstats.family_counts`), the
  number of rows, of incomplete rows and of observed cells per column; a second pass only when a variable is
  never observed (its children's marginal counts) and one for the NLL/CNLL when rows are incomplete or a target
  is given (Σ_n log p(e_n), Σ_n log p(q_n | e_n));
* ``em``: each E-step's expected counts Σ_n p(x, π | e_n) and Σ_n log p(e_n)
  (:class:`~bnstudio.learn.params.terms.Terms`), one pass per iteration.

Counts of unit-weight rows are integers, so ml and mp equal the in-memory fit exactly; EM's sums differ from it
only by the order of floating-point additions (about 1e-15 relative).
"""
from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import ValidationError
from bnstudio.jobs import Reporter


def is_streamed(data: Any) -> bool:
    """Whether ``data`` is a table read a piece at a time (:class:`~bnstudio.data.parts.DataParts`)."""
    return hasattr(data, "pieces") and callable(getattr(data, "map_reduce", None))


def cancel_check(reporter: Reporter | None) -> Callable[[], bool]:
    """Asked after every piece: whether the reporter's job was cancelled (docs/architecture.md §3.5)."""
    return lambda: bool(getattr(reporter, "cancelled", False))


def split_flat(net: Network, flat: np.ndarray) -> dict[str, np.ndarray]:
    """Family tables in CPT layout from their concatenation in ``net.variables`` order."""
    out, at = {}, 0
    for v in net.variables:
        shape = net.family_shape(v)
        size = int(np.prod(shape))
        out[v] = flat[at:at + size].reshape(shape)
        at += size
    return out


# ---------------------------------------------------------------------------------------------- piece tasks
def count_task(net: Network, codes: np.ndarray) -> tuple:
    """(flat family counts, rows, incomplete rows, observed cells per column) of one piece."""
    from bnstudio.learn.params.suffstats import family_counts

    counts = family_counts(net, codes)
    flat = np.concatenate([counts[v].ravel() for v in net.variables])
    return flat, float(len(codes)), float((codes < 0).any(axis=1).sum()), (codes >= 0).sum(axis=0).astype(float)


def marginal_task(net: Network, codes: np.ndarray, unseen: tuple[str, ...]) -> tuple:
    """The marginal counts of the never-observed variables' children (``net.variables`` order) of one piece."""
    from bnstudio.learn.params.counting import marginal_counts

    counts = marginal_counts(net, codes, None, set(unseen))
    return tuple(counts[v] for v in net.variables if v in counts)


def score_task(net: Network, codes: np.ndarray, theta: list[np.ndarray], target: str | None) -> tuple:
    """(−Σ log p(e_n), −Σ log p(q_n | e_n) over rows observing the target, their number) of one piece."""
    from bnstudio.learn.params.base import DataScorer

    if codes.size == 0 or codes.max() < 0:
        return 0.0, 0.0, 0.0            # rows with nothing observed: p(e) = 1, no target
    scorer = DataScorer(net, codes, None, target)
    scores = scorer.scores(theta)
    if target is None:
        return scores["nll"] * len(codes), 0.0, 0.0
    labelled = float(scorer.conditional.weights.sum())
    return scores["nll"] * len(codes), (scores["cnll"] * labelled if labelled else 0.0), labelled


_TERMS: dict[tuple, Any] = {}


def _terms(net: Network, memory_budget: int) -> Any:
    """The compiled :class:`Terms` of ``net``'s structure in this process (compiled once per process)."""
    from bnstudio.learn.params.terms import Terms

    key = (tuple(net.variables), tuple(net.parents(v) for v in net.variables),
           tuple(net.states(v) for v in net.variables), memory_budget)
    terms = _TERMS.get(key)
    if terms is None:
        _TERMS.clear()                  # one structure at a time: a fit's pieces share it
        terms = _TERMS[key] = Terms(net, memory_budget)
    return terms


def em_task(net: Network, codes: np.ndarray, theta: list[np.ndarray], memory_budget: int) -> tuple:
    """(Σ log p(e_n), flat expected counts, rows, observed cells) of one piece at the CPTs ``theta``."""
    terms = _terms(net, memory_budget)
    terms.set_cpts(theta)
    stats = terms.stats(terms.prepare(codes), np.ones(len(codes)))
    return (float(stats.logp.sum()), np.concatenate([c.ravel() for c in stats.counts]), float(len(codes)),
            float((codes >= 0).sum()))


# ---------------------------------------------------------------------------------------------- fits
def _check_rows(rows: float, observed: float) -> None:
    """The errors :func:`~bnstudio.learn.params.suffstats.check_codes` gives data in memory."""
    if rows == 0:
        raise ValidationError("the data set has no rows")
    if observed == 0:
        raise ValidationError(f"every cell of the data is missing ({int(rows)} rows): nothing to learn from")


def streamed_scores(net: Network, parts: Any, cpts: dict, target: str | None, rows: float,
                    cancelled: Callable[[], bool]) -> dict[str, float]:
    """Mean NLL per row (and CNLL with a target) of the whole table, one pass."""
    theta = [cpts[v] for v in net.variables]
    nll, cnll, labelled = parts.map_reduce(net, score_task, (theta, target), cancelled)
    out = {"nll": nll / rows}
    if target is not None:
        out["cnll"] = cnll / labelled if labelled > 0 else float("nan")
    return out


def fit_streamed(learner: Any, net: Network, parts: Any, target: str | None, validation,
                 reporter: Reporter | None):
    """``ml`` or ``mp`` (``learner``) from the summed family counts of every piece (see the module)."""
    from bnstudio.core.cpt_ops import normalise_rows
    from bnstudio.learn.params.counting import count_nll, one_shot, warn_unseen
    from bnstudio.learn.params.floor import floor_rows

    start = time.perf_counter()
    cancelled = cancel_check(reporter)
    if target is not None and target not in net.variables:
        raise ValidationError(f"unknown target variable '{target}'")
    parts.check_columns(net)
    flat, rows, incomplete, observed = parts.map_reduce(net, count_task, (), cancelled)
    _check_rows(rows, observed.sum())
    counts = split_flat(net, flat)
    if learner.name == "ml":
        unseen = {v for v, seen in zip(net.variables, observed, strict=True) if seen == 0}
        if unseen:
            warn_unseen(net, unseen)
            children = [v for v in net.variables if unseen & set(net.parents(v)) and v not in unseen]
            if children:
                marginal = parts.map_reduce(net, marginal_task, (tuple(sorted(unseen)),), cancelled)
                counts.update(zip(children, marginal, strict=True))
        cpts, alpha, settings = {v: floor_rows(normalise_rows(c)) for v, c in counts.items()}, None, {}
    else:
        (cpts, alpha), settings = learner.estimate(net, counts), learner.settings()
    if target is None and incomplete == 0:
        scores = {"nll": count_nll(net, cpts, counts, rows)}
    else:
        scores = streamed_scores(net, parts, cpts, target, rows, cancelled)
    return one_shot(learner.name, net, cpts, alpha, scores, target, validation, reporter, settings, start)


def structure_score(net: Network, parts: Any, score: str = "bic", ess: float = 1.0,
                    reporter: Reporter | None = None) -> float:
    """The decomposable score Σ_i Score(X_i | Pa_i) of ``net``'s DAG on a table read a piece at a time: the
    family counts of every piece summed (one pass), each family term as
    :class:`~bnstudio.learn.structure.scores.ScoreCache` gives it on the rows in memory (counted where the
    family is observed, rescaled to all rows)."""
    from bnstudio.learn.structure.scores import check_score, rescaled_family_score

    check_score(score, ess)
    parts.check_columns(net)
    flat, rows, _, observed = parts.map_reduce(net, count_task, (), cancel_check(reporter))
    _check_rows(rows, observed.sum())
    total = 0.0
    for v, counts in split_flat(net, flat).items():
        table = counts.reshape(-1, net.cardinality(v))
        total += rescaled_family_score(table, table.shape[0], rows, score, ess)
    return total


class StreamedEStep:
    """EM's E-step over every piece: ``(Σ log p(e_n), expected counts per family, rows)`` at θ."""

    def __init__(self, net: Network, parts: Any, target: str | None, memory_budget: int,
                 reporter: Reporter | None) -> None:
        if target is not None and target not in net.variables:
            raise ValidationError(f"unknown target variable '{target}'")
        self.net, self.parts, self.target, self.memory_budget = net, parts, target, memory_budget
        self.cancelled = cancel_check(reporter)
        self.rows = 0.0
        parts.check_columns(net)

    def __call__(self, theta: list[np.ndarray]) -> tuple[float, list[np.ndarray], float]:
        ll, flat, rows, observed = self.parts.map_reduce(self.net, em_task, (theta, self.memory_budget),
                                                         self.cancelled)
        _check_rows(rows, observed)
        self.rows = rows
        counts = split_flat(self.net, flat)
        return ll, [counts[v] for v in self.net.variables], rows

    def cnll(self, theta: list[np.ndarray]) -> float:
        """The mean CNLL of the target at θ (one more pass)."""
        cpts = dict(zip(self.net.variables, theta, strict=True))
        return streamed_scores(self.net, self.parts, cpts, self.target, self.rows, self.cancelled)["cnll"]
