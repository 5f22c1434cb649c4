"""The delta-method error bar on an expected utility under Dirichlet uncertainty of the chance CPTs.

With the policies fixed at the optimum, each utility node U (range [m_U, M_U]) is a binary node and

    EU(Θ) = Σ_U m_U + Σ_U (M_U − m_U) · q_U(Θ),    q_U(Θ) = p(U = high | e)               (policy_net eq 1)

so ∂EU/∂θ_{v,x|f} = Σ_U (M_U − m_U) ∂q_U/∂θ_{v,x|f}: a weighted sum of the query derivatives of Singh (2004)
eq 3.5, taken from :func:`bnstudio.uncertainty.delta.delta_method` (one batched propagation per utility node,
for every row of every CPT at once). Rows are independent Dirichlets (Singh assumption 3, eq 2.1–2.3), so the
multivariate delta method (eq 3.3–3.4) with the row covariance of eq 3.9–3.10 gives

    σ²(EU) = Σ_{rows v|f} gᵀ Σ^{v|f} g = Σ_{rows v|f} [Σ_x θ*_x g_x² − (Σ_x θ*_x g_x)²] / (α_{v|f} + 1),

g = ∂EU/∂θ_{v|f}: Theorem 2 (eq 3.6–3.8) with p(q | e) replaced by EU. Only chance CPTs carry uncertainty (the
policies are choices, the utilities are given). The optimal policy is piecewise constant in Θ, so at Θ* (no
ties) the derivative of the maximum expected utility equals that of the fixed policy's (an envelope argument):
σ is the error bar of the MEU as well. ``mc`` > 0 checks it by Monte Carlo (Singh §3.6): EU of the fixed
policies under r parameter sets drawn from the Dirichlet rows, in batched propagations.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any, Mapping

import numpy as np

from bnstudio.decision.model import InfluenceDiagram
from bnstudio.decision.policy_net import HIGH, expected_utilities, policy_network, utility_scales
from bnstudio.decision.solve import DecisionSolution, split_evidence, unit_utilities
from bnstudio.defaults import CREDIBLE_LEVEL
from bnstudio.errors import ValidationError
from bnstudio.inference import DEFAULT_MEMORY_BUDGET, InferenceEngine
from bnstudio.uncertainty.delta import delta_method
from bnstudio.uncertainty.dirichlet import check_draws, dirichlet_counts, parameter_streams, sample_parameters


@dataclass
class UtilityErrorBar:
    """EU of the policies given e, its delta-method variance, the gradient and the variance of every row."""

    mean: float
    variance: float
    level: float
    derivatives: dict[str, np.ndarray] = field(repr=False)
    row_variance: dict[str, np.ndarray] = field(repr=False)
    mc_samples: np.ndarray | None = field(default=None, repr=False)

    @property
    def sd(self) -> float:
        return math.sqrt(max(self.variance, 0.0))

    @property
    def interval(self) -> tuple[float, float]:
        """The normal credible interval mean ± z·sd at ``level``."""
        z = NormalDist().inv_cdf(0.5 + self.level / 2)
        return self.mean - z * self.sd, self.mean + z * self.sd

    def top_rows(self, diagram: InfluenceDiagram, k: int = 10) -> list[dict[str, Any]]:
        """The k CPT rows adding most variance, largest first (one argsort over every row of every CPT)."""
        names = list(self.row_variance)
        flat = np.concatenate([self.row_variance[v].ravel() for v in names]) if names else np.zeros(0)
        offsets = np.cumsum([0] + [self.row_variance[v].size for v in names])
        order = np.argsort(-flat, kind="stable")
        out = []
        for i in order[flat[order] > 0][:k]:
            owner = int(np.searchsorted(offsets, i, side="right")) - 1
            var = names[owner]
            index = np.unravel_index(int(i - offsets[owner]), self.row_variance[var].shape)
            out.append({"variable": var, "variance": float(flat[i]),
                        "parents": {p: diagram.states(p)[j] for p, j in zip(diagram.parents(var), index, strict=True)}})
        return out

    def to_json(self, diagram: InfluenceDiagram, top: int = 10) -> dict[str, Any]:
        out = {"mean": self.mean, "variance": self.variance, "sd": self.sd, "level": self.level,
               "normal": list(self.interval), "contributions": self.top_rows(diagram, top)}
        if self.mc_samples is not None:
            out["mc"] = {"r": int(self.mc_samples.size), "mean": float(self.mc_samples.mean()),
                         "variance": float(self.mc_samples.var())}
        return out


def chance_counts(diagram: InfluenceDiagram, net, ess: float | None) -> dict[str, np.ndarray]:
    """α of every chance CPT (stored counts, or ESS · θ), plus placeholder counts for the policy and utility
    nodes of the policy network ``net`` (they carry no uncertainty and are never used)."""
    fixed = {v: 1.0 for v in net.variables if v not in diagram.chance_names}
    given = {v: ess for v in diagram.chance_names} if ess is not None else {}
    return dirichlet_counts(net, {**given, **fixed})


def utility_error_bar(diagram: InfluenceDiagram, solution: DecisionSolution, ess: float | None = None,
                      level: float = CREDIBLE_LEVEL, mc: int = 0, seed: int | None = None,
                      memory_budget: int = DEFAULT_MEMORY_BUDGET) -> UtilityErrorBar:
    """σ(EU) of ``solution``'s policies under its evidence (see the module docstring).

    Computed in units of u = 2^k (:func:`~bnstudio.decision.solve.unit_utilities`: exact) and multiplied back;
    a variance beyond the float range (utilities near 1e308) is one :class:`ValidationError` line."""
    scaled, unit = unit_utilities(diagram)
    bar = _error_bar(scaled, solution, ess, level, mc, seed, memory_budget)
    if unit == 1.0:
        return bar
    with np.errstate(over="ignore", invalid="ignore"):
        bar = UtilityErrorBar(bar.mean * unit, bar.variance * unit * unit, level,
                              {v: g * unit for v, g in bar.derivatives.items()},
                              {v: r * unit * unit for v, r in bar.row_variance.items()},
                              None if bar.mc_samples is None else bar.mc_samples * unit)
    if not (math.isfinite(bar.mean) and math.isfinite(bar.variance)):
        raise ValidationError("the error bar of utilities this large is beyond the float range (its variance "
                              "exceeds 1.8e308): scale the utilities down")
    return bar


def _error_bar(diagram: InfluenceDiagram, solution: DecisionSolution, ess: float | None, level: float, mc: int,
               seed: int | None, memory_budget: int) -> UtilityErrorBar:
    check_draws(mc, minimum=0)
    policies = solution.policies
    net = policy_network(diagram, {d: (p.parents, p.cpt(diagram.cardinality(d))) for d, p in policies.items()})
    engine = InferenceEngine(net, memory_budget)
    alpha = chance_counts(diagram, net, ess)
    likelihoods, _ = split_evidence(diagram, solution.evidence)
    evidence = {v: lam for v, lam in likelihoods.items()}
    scales = utility_scales(diagram)
    mean = sum(s.low for s in scales)
    grad = {v: np.zeros(diagram.cpt(v).shape) for v in diagram.chance_names}
    for s in scales:
        if s.span > 0:
            query = delta_method(net, alpha, {s.name: HIGH}, evidence, engine)
            mean += s.span * query.mean
            for v in grad:
                grad[v] += s.span * query.derivatives[v]
    rows = {}
    for v, g in grad.items():
        theta = diagram.cpt(v)
        rows[v] = np.maximum((theta * g * g).sum(-1) - (theta * g).sum(-1) ** 2, 0.0) / (alpha[v].sum(-1) + 1.0)
    variance = float(sum(r.sum() for r in rows.values()))
    samples = None
    if mc:
        samples = utility_samples(diagram, engine, {v: alpha[v] for v in diagram.chance_names}, evidence, mc, seed)
    return UtilityErrorBar(float(mean), variance, level, grad, rows, samples)


def utility_samples(diagram: InfluenceDiagram, engine: InferenceEngine, alpha: Mapping[str, np.ndarray],
                    evidence: Mapping[str, np.ndarray], r: int, seed: int | None) -> np.ndarray:
    """EU(Θ_i) of the fixed policies for r parameter sets Θ_i drawn from the Dirichlet rows, in chunks that
    fit the engine's memory budget (the draws continue per-CPT streams, so chunking does not change them)."""
    scales = utility_scales(diagram)
    cases = {v: lam[None] for v, lam in evidence.items()}
    blocks = 1 + sum(s.span > 0 for s in scales)
    streams = parameter_streams(alpha, seed)
    chunk = max(1, engine.batch_capacity(3 * 8 * sum(a.size for a in alpha.values())) // blocks)
    out = []
    for start in range(0, r, chunk):
        params = sample_parameters(alpha, min(chunk, r - start), streams)
        eu, _ = expected_utilities(engine, scales, cases, 1, parameters=params)
        out.append(eu[:, 0])
    return np.concatenate(out)
