"""Monte-Carlo check of the error bars (Singh §3.6): sample Θ from the Dirichlet rows, evaluate q(Θ) exactly.

Parameter sets are drawn in chunks as large as fit the engine's memory budget (:mod:`bnstudio.inference.batching`)
and the query is evaluated on each chunk in one batched propagation (the engine's parameter axis):
q_i = exp(log p(q, e | Θ_i) − log p(e | Θ_i)).
The draws continue the same per-CPT random streams from chunk to chunk, so a seed gives the same draws
whatever the memory budget. Reported: the empirical mean,
variance and quantiles, the fraction of draws inside each interval (coverage; Singh Fig. 3.3) and
Kolmogorov–Smirnov p-values of the draws against the fitted normal and Beta (the fits use the delta-method
moments, not the draws, so the test is exact — Singh §3.6.1).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import EvidenceError, ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.inference.batching import batch_size
from bnstudio.uncertainty.dirichlet import check_draws, parameter_streams, sample_parameters
from bnstudio.uncertainty.intervals import Intervals


@dataclass
class MonteCarloCheck:
    """Summary of r exact query evaluations under parameters drawn from the Dirichlet rows."""

    r: int
    mean: float
    variance: float
    quantiles: dict[str, float]
    coverage_normal: float
    coverage_beta: float | None
    ks_normal_p: float | None
    ks_beta_p: float | None
    samples: np.ndarray = field(repr=False)


def query_samples(net: Network, alpha: Mapping[str, np.ndarray], query: Mapping[str, str],
                  evidence: Mapping[str, str] | None, r: int, seed: int | None = None,
                  engine: InferenceEngine | None = None) -> np.ndarray:
    """q(Θ_i) for r draws Θ_i (hard evidence only), in batched propagations of as many draws as fit the
    engine's memory budget. Every q(Θ_i) is kept (8 bytes a draw): more draws than the budget holds are
    refused before anything is drawn."""
    engine = engine or InferenceEngine(net)
    evidence = dict(evidence or {})
    if any(not isinstance(s, str) for s in evidence.values()):
        raise EvidenceError("the Monte-Carlo check takes hard evidence (VAR=STATE) only")
    r = check_draws(r)
    if 8 * r > engine.memory_budget:
        raise ValidationError(f"{r:,} Monte-Carlo draws of '{net.name}' would need {8 * r / 2**30:.3g} GiB for the "
                              f"answers alone, more than the memory budget of {engine.memory_budget / 2**30:.3g} "
                              f"GiB; use at most {engine.memory_budget // 8:,} draws")
    if any(k in evidence and evidence[k] != query[k] for k in query):
        return np.zeros(r)
    streams = parameter_streams(alpha, seed)
    # per draw: the Gamma draws, their totals and the normalised parameter sets
    chunk = batch_size(engine, 3 * 8 * sum(a.size for a in alpha.values()), "the Monte-Carlo check")
    return np.concatenate([_query_chunk(net, engine, alpha, query, evidence, min(chunk, r - start), streams)
                           for start in range(0, r, chunk)])


def _query_chunk(net: Network, engine: InferenceEngine, alpha: Mapping[str, np.ndarray],
                 query: Mapping[str, str], evidence: dict[str, str], r: int,
                 streams: Mapping[str, np.random.Generator]) -> np.ndarray:
    """q(Θ_i) for the next r draws of ``streams``, in one batched propagation per term."""
    params = sample_parameters(alpha, r, streams)

    def codes(assignment: Mapping[str, str]) -> dict[str, np.ndarray]:
        return {v: np.array([net.states(v).index(s)]) for v, s in assignment.items()} or \
               {net.variables[0]: np.array([-1])}

    joint = {**evidence, **query}
    log_qe = engine.log_evidence_batch(codes(joint), parameters=params)[:, 0]
    log_e = engine.log_evidence_batch(codes(evidence), parameters=params)[:, 0]
    with np.errstate(invalid="ignore"):
        return np.where(np.isneginf(log_qe), 0.0, np.exp(log_qe - log_e))


def monte_carlo_check(samples: np.ndarray, mean: float, variance: float, intervals: Intervals
                      ) -> MonteCarloCheck:
    """Compare draws of q(Θ) with the delta-method moments and both intervals."""
    from scipy import stats  # here: importing scipy.stats at the top would slow the app's start-up

    lo, hi = intervals.normal
    coverage_normal = float(np.mean((samples >= lo) & (samples <= hi)))
    coverage_beta = ks_beta = ks_normal = None
    if intervals.beta is not None:
        blo, bhi = intervals.beta
        coverage_beta = float(np.mean((samples >= blo) & (samples <= bhi)))
        assert intervals.beta_params is not None   # set together with the Beta interval
        a, b = intervals.beta_params
        ks_beta = float(stats.kstest(samples, stats.beta(a, b).cdf).pvalue)
    if variance > 0:
        ks_normal = float(stats.kstest(samples, stats.norm(mean, variance ** 0.5).cdf).pvalue)
    qs = np.quantile(samples, [0.05, 0.25, 0.5, 0.75, 0.95])
    return MonteCarloCheck(len(samples), float(samples.mean()), float(samples.var()),
                           {f"q{int(p * 100):02d}": float(v)
                            for p, v in zip([0.05, 0.25, 0.5, 0.75, 0.95], qs, strict=True)},
                           coverage_normal, coverage_beta, ks_normal, ks_beta, samples)
