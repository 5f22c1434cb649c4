"""Error bars for p(q | e): the one call the CLI and the query panel use.

Combines the delta-method variance (Theorem 2), normal and Beta credible intervals (§3.5), the CPT rows the
variance comes from, one-way sensitivities and, optionally, a Monte-Carlo check (§3.6). Beyond exact inference
the terms are sampled and the sampling error is reported beside the parameter error.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

import numpy as np

from bnstudio import hooks
from bnstudio.core.network import Network
from bnstudio.defaults import CREDIBLE_LEVEL
from bnstudio.errors import MemoryBudgetExceeded
from bnstudio.inference import InferenceEngine
from bnstudio.uncertainty.delta import QueryVariance, delta_method
from bnstudio.uncertainty.dirichlet import check_draws, dirichlet_counts
from bnstudio.uncertainty.intervals import FLAG_TEXT, Intervals, credible_intervals
from bnstudio.uncertainty.montecarlo import MonteCarloCheck, monte_carlo_check, query_samples

if TYPE_CHECKING:
    from bnstudio.uncertainty.sampled_bars import SamplingError


@dataclass
class ErrorBars:
    """Everything known about how sure p(q | e) is."""

    query: dict[str, str]
    evidence: dict[str, Any]
    delta: QueryVariance
    intervals: Intervals
    mc: MonteCarloCheck | None = None
    sampling: SamplingError | None = None   # set when the terms were estimated by likelihood weighting

    @property
    def mean(self) -> float:
        return self.delta.mean

    @property
    def variance(self) -> float:
        return self.delta.variance

    @property
    def sd(self) -> float:
        return math.sqrt(max(self.delta.variance, 0.0))

    def _repr_html_(self) -> str:
        """Notebooks: the intervals and the largest contributions (:data:`bnstudio.hooks.error_bars_html`)."""
        return hooks.error_bars_html(self)

    def to_json(self, top: int | None = 20) -> dict[str, Any]:
        """The ``bnstudio errorbars --json`` record of this query."""
        out: dict[str, Any] = {
            "target": self.query, "evidence": self.evidence, "mean": self.mean, "variance": self.variance,
            "sd": self.sd, "level": self.intervals.level, "normal": list(self.intervals.normal),
            "normal_clipped": list(self.intervals.normal_clipped),
            "beta": list(self.intervals.beta) if self.intervals.beta else None,
            "beta_params": list(self.intervals.beta_params) if self.intervals.beta_params else None,
            "flags": list(self.intervals.flags), "flag_text": [FLAG_TEXT[f] for f in self.intervals.flags],
            "contributions": [{"variable": c.variable, "parents": c.parents, "variance": c.variance, "ess": c.ess}
                              for c in self.delta.top_contributions(top)],
        }
        if self.sampling is not None:
            out["sampling"] = self.sampling.to_json()
        if self.mc is not None:
            out["mc"] = {"r": self.mc.r, "mean": self.mc.mean, "variance": self.mc.variance,
                         "quantiles": self.mc.quantiles, "coverage_normal": self.mc.coverage_normal,
                         "coverage_beta": self.mc.coverage_beta, "ks_normal_p": self.mc.ks_normal_p,
                         "ks_beta_p": self.mc.ks_beta_p}
        return out


def error_bars(net: Network, query: Mapping[str, str], evidence: Mapping | None = None, level: float = CREDIBLE_LEVEL,
               alpha: Mapping[str, np.ndarray] | None = None, ess: float | Mapping | None = None,
               mc: int = 0, seed: int | None = None, engine: InferenceEngine | None = None) -> ErrorBars:
    """Error bars of p(query | evidence); Dirichlet counts from ``alpha``, else ``net.alpha`` / ``ess``;
    ``mc`` > 0 adds a Monte-Carlo check with that many parameter draws. Where exact inference does not fit the
    memory budget, the delta method's terms are estimated by likelihood weighting and the result carries the
    estimate's sampling error apart from the parameter error (:mod:`bnstudio.uncertainty.sampled_bars`)."""
    check_draws(mc, minimum=0)
    engine = engine or InferenceEngine(net)
    alpha = dict(alpha) if alpha is not None else dirichlet_counts(net, ess)
    sampling = None
    try:
        delta = delta_method(net, alpha, query, evidence, engine)
    except MemoryBudgetExceeded as exc:
        if mc:
            raise
        from bnstudio.uncertainty.sampled_bars import sampled_delta

        delta, sampling = sampled_delta(net, alpha, query, evidence, seed=0 if seed is None else seed,
                                        reason=f"exact inference does not fit: {exc}")
    intervals = credible_intervals(delta.mean, delta.variance, level)
    check = None
    if mc:
        samples = query_samples(net, alpha, query, evidence, mc, seed, engine)
        check = monte_carlo_check(samples, delta.mean, delta.variance, intervals)
    return ErrorBars(dict(query), dict(evidence or {}), delta, intervals, check, sampling)


def counting_statistics(net: Network, data: Any, query: Mapping[str, str], evidence: Mapping[str, str],
                        prior: float = 1.0) -> dict[str, float]:
    """Singh §4.3.3 baseline: estimate p(q | e) from the rows matching e, with ML and MP variances.

    ML: p̂ = n(q, e) / n(e), variance p̂(1 − p̂) / n(e). MP with ``prior`` pseudo-counts per configuration of
    the query variables: α_q = prior + n(q, e), α = prior·|Q| + n(e), mean α_q/α, variance m(1 − m)/(α + 1).
    ``data``: codes in ``net.variables`` order, or a table matched by column name (what a learner takes).
    """
    from bnstudio.learn.params.suffstats import check_codes  # the learners' package loads scipy: on use only

    data, _ = check_codes(net, data, learnable=False)
    col = {v: i for i, v in enumerate(net.variables)}
    match_e = np.ones(len(data), dtype=bool)
    for v, s in evidence.items():
        match_e &= data[:, col[v]] == net.states(v).index(s)
    match_q = match_e.copy()
    for v, s in query.items():
        match_q &= data[:, col[v]] == net.states(v).index(s)
    n_e, n_qe = int(match_e.sum()), int(match_q.sum())
    configurations = int(np.prod([net.cardinality(v) for v in query]))
    a_q, a = prior + n_qe, prior * configurations + n_e
    mp = a_q / a
    out = {"n": n_e, "mp_estimate": mp, "mp_variance": mp * (1 - mp) / (a + 1)}
    if n_e:
        ml = n_qe / n_e
        out.update(ml_estimate=ml, ml_variance=ml * (1 - ml) / n_e)
    return out
