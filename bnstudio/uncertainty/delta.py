"""The delta-method variance of a query response q(Θ) = p(q | e) under Dirichlet rows (Singh §3.3).

Theorem 2 (Singh eq 3.6–3.8): with D_{v,f} = p(v, f, q | e) − p(q | e)·p(v, f | e),

    σ² = Σ_{rows v|f} 1/(α_{v|f} + 1) · [A − B],   A = Σ_v D_{v,f}² / θ*_{v|f},   B = (Σ_v D_{v,f})²

and the one-way sensitivities are ∂q/∂θ_{v|f} = D_{v,f} / θ*_{v|f} (eq 3.5). Since
p(v, f, q | e) = p(q | e)·p(v, f | q, e), D needs only the family marginals under e and under (q, e) — both
from one batched propagation of the compiled engine (two evidence cases), for all rows of all CPTs at once,
never one inference per parameter. p(q | e) comes from the same propagation: exp(log p(q, e) − log p(e)).
Terms with θ* = 0 have D = 0 and contribute nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Mapping

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import ImpossibleEvidence
from bnstudio.inference import InferenceEngine
from bnstudio.inference.batching import check_one_case
from bnstudio.inference.evidence import VariableIndex, describe, likelihood_vector


@dataclass(frozen=True)
class RowContribution:
    """The variance one CPT row adds to σ² (a row is named by its parent states)."""

    variable: str
    parents: dict[str, str]
    variance: float
    ess: float


@dataclass
class QueryVariance:
    """q(Θ*), its delta-method variance, ∂q/∂θ per CPT and the variance of every CPT row."""

    mean: float
    variance: float
    derivatives: dict[str, np.ndarray] = field(repr=False)
    row_variance: dict[str, np.ndarray] = field(repr=False)
    row_ess: dict[str, np.ndarray] = field(repr=False)
    net: Network = field(repr=False)

    def top_contributions(self, k: int | None = None) -> list[RowContribution]:
        """The k rows adding most variance (all positive ones when k is None), largest first."""
        names = list(self.row_variance)
        flat = np.concatenate([self.row_variance[v].ravel() for v in names]) if names else np.zeros(0)
        owner = np.repeat(np.arange(len(names)), [self.row_variance[v].size for v in names])
        offsets = np.concatenate([[0], np.cumsum([self.row_variance[v].size for v in names])])
        order = np.argsort(-flat, kind="stable")
        order = order[flat[order] > 0][:k]
        out = []
        for i in order:
            var = names[owner[i]]
            index = np.unravel_index(i - offsets[owner[i]], self.row_variance[var].shape)
            parents = {p: self.net.states(p)[j] for p, j in zip(self.net.parents(var), index, strict=True)}
            out.append(RowContribution(var, parents, float(flat[i]), float(self.row_ess[var][index])))
        return out

    @cached_property
    def contributions(self) -> list[RowContribution]:
        """Every row with positive variance, largest first."""
        return self.top_contributions()


def query_cases(net: Network, query: Mapping[str, str], evidence: Mapping) -> dict[str, np.ndarray]:
    """Two evidence cases as likelihood rows: case 0 = e, case 1 = (q, e); then p(q | e) = p(case 1) / p(case 0)."""
    vi = VariableIndex(net.variables, [net.states(v) for v in net.variables])
    out = {}
    for name in dict.fromkeys(list(evidence) + list(query)):
        var = vi.index(name)
        base = likelihood_vector(vi, var, evidence[name])[0] if name in evidence else np.ones(vi.cards[var])
        with_q = base * (likelihood_vector(vi, var, query[name])[0] if name in query else 1.0)
        out[name] = np.vstack([base, with_q])
    return out


def delta_method(net: Network, alpha: Mapping[str, np.ndarray], query: Mapping[str, str],
                 evidence: Mapping | None = None, engine: InferenceEngine | None = None) -> QueryVariance:
    """σ²(q) by Theorem 2 for q = p(query | evidence), a state or a joint configuration."""
    engine = engine or InferenceEngine(net)
    evidence = dict(evidence or {})
    check_one_case(engine, "the delta-method error bars")
    fams, log_z = engine.calibrate_batch(query_cases(net, query, evidence))
    if np.isneginf(log_z[0]):
        raise ImpossibleEvidence(f"impossible evidence: p({describe(engine.compiled.index, evidence)}) = 0")
    p_q = float(np.exp(log_z[1] - log_z[0])) if np.isfinite(log_z[1]) else 0.0
    return theorem2(net, alpha, p_q, {var: p_q * (fams[var][1] - fams[var][0]) for var in net.variables})


def theorem2(net: Network, alpha: Mapping[str, np.ndarray], p_q: float, d_terms: Mapping[str, np.ndarray]
             ) -> QueryVariance:
    """σ² from D_{v,f} = p(v, f, q | e) − p(q | e)·p(v, f | e) per CPT (Theorem 2, module docstring); a
    variable missing from ``d_terms`` has D = 0 (the query does not depend on its CPT)."""
    derivatives, row_variance, row_ess = {}, {}, {}
    for var in net.variables:
        theta = net.cpt(var)
        d = d_terms.get(var)
        if d is None:
            d = np.zeros(theta.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(theta > 0, d / theta, 0.0)
        a = (d * ratio).sum(axis=-1)
        b = d.sum(axis=-1) ** 2
        row_ess[var] = alpha[var].sum(axis=-1)
        row_variance[var] = np.maximum(a - b, 0.0) / (row_ess[var] + 1.0)
        derivatives[var] = ratio
    total = float(sum(r.sum() for r in row_variance.values()))
    return QueryVariance(p_q, total, derivatives, row_variance, row_ess, net)
