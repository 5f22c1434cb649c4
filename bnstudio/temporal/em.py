"""EM for a 2TBN with hidden or missing values (an HMM's hidden state): expected counts by forward-backward
(Murphy 2002, §6.2.2; for an HMM this is Baum-Welch, Rabiner 1989, §III.C).

E-step: for every sequence, the posterior of each family given the whole sequence, p(X_t, Pa(X_t) | e), is slice
t's factors times β_t summed onto the family's labels (:func:`~bnstudio.temporal.forward_backward.backward_pass`);
B_0's families take slice 0's, the tied transition families the sum over t ≥ 1. M-step: the CPTs those expected
counts give, by ``ml`` or ``mp`` exactly as :func:`~bnstudio.temporal.learning.fit_sequences` does with observed
counts. Each iteration cannot lower the log-likelihood (``ml``) or the log posterior (``mp``); the run stops when
the log-likelihood gains less than ``tol`` relative to its size, or after ``max_iter`` iterations.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bnstudio.jobs import Progress, Reporter
from bnstudio.learn.params.checks import check_integer, check_number
from bnstudio.temporal.forward_backward import SliceAlgebra, backward_pass, forward_pass
from bnstudio.temporal.learning import check_estimator, estimated, sequence_codes
from bnstudio.temporal.model import FIRST, TRANSITION, TwoSliceNetwork


@dataclass
class SequenceEM:
    """The fitted 2TBN, the log-likelihood before each M-step, and why the run stopped (converged, max_iter)."""

    model: TwoSliceNetwork
    history: list[float] = field(default_factory=list)
    stop_reason: str = ""
    seconds: float = 0.0


def expected_counts(tbn: TwoSliceNetwork, sequences: list[np.ndarray]) -> tuple[dict[str, np.ndarray], float]:
    """({2TBN variable: E[N(x, π) | e]}, Σ log p(e)) over code sequences ((T, n) arrays, -1 unobserved).

    Sequences of one length go through forward-backward together (a leading axis of sequences in every
    contraction); only lengths and time are Python loops."""
    algebra = SliceAlgebra(tbn, batched=True)
    net = tbn.network
    counts = {v: np.zeros(net.family_shape(v)) for v in net.variables}
    log_lik = 0.0
    lengths = np.array([len(c) for c in sequences])
    for length in np.unique(lengths):
        if length == 0:
            continue
        codes = np.stack([sequences[i] for i in np.flatnonzero(lengths == length)], axis=1)  # (T, S, n)
        alphas, ll = forward_pass(algebra, codes)
        log_lik += ll
        for t, with_beta in backward_pass(algebra, codes, alphas):
            families, suffix = (algebra.initial, FIRST) if t == 0 else (algebra.transition, TRANSITION)
            for k, (_, labels) in enumerate(families):
                table = algebra.contract(("first" if t == 0 else "next", "family", k), with_beta,
                                         algebra.batch + labels)
                totals = table.reshape(len(table), -1).sum(axis=1)
                counts[tbn.radicals[k] + suffix] += np.tensordot(1.0 / totals, table, axes=1)
    return counts, log_lik


def fit_sequences_em(tbn: TwoSliceNetwork, data: Any, method: str = "ml", prior: str = "laplace", ess: float = 1.0,
                     max_iter: int = 100, tol: float = 1e-8, sequence: str = "sequence", time_column: str = "time",
                     reporter: Reporter | None = None) -> SequenceEM:
    """EM from ``tbn``'s CPTs as the start (module docstring); data as for
    :func:`~bnstudio.temporal.learning.fit_sequences`, a variable without a column hidden throughout."""
    start = time.perf_counter()
    estimator = check_estimator(method, prior, ess)
    max_iter = check_integer("max_iter", max_iter, low=1)
    tol = check_number("tol", tol, low=0.0)
    codes, ids = sequence_codes(tbn, data, sequence, time_column)
    sequences = np.split(codes, np.flatnonzero(ids[1:] != ids[:-1]) + 1)
    progress = Progress(reporter, "em", total=max_iter)
    result = SequenceEM(tbn)
    for iteration in range(max_iter):
        counts, log_lik = expected_counts(result.model, sequences)
        result.history.append(log_lik)
        result.model = estimated(result.model, counts, estimator)
        progress.report(iteration + 1, {"log_likelihood": log_lik})
        if iteration and abs(log_lik - result.history[-2]) <= tol * max(1.0, abs(log_lik)):
            result.stop_reason = "converged"
            break
    else:
        result.stop_reason = "max_iter"
    progress.done()
    result.seconds = time.perf_counter() - start
    return result
