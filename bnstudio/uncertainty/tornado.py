"""The tornado: every CPT parameter ranked by how far it moves p(q | e), its largest swings drawn as bars.

Each parameter θ = θ_{x|u} is varied with its row's other entries co-varied (scaled in proportion, so the row
stays a distribution). Under co-variation q(θ) = N(θ)/D(θ) with N, D linear (Singh §3.2; docs/uncertainty.md),
so the swing of q over an interval of θ is exact from its end points. The range of θ is

* with Dirichlet counts α: the central credible interval of θ's Beta(α_x, α_0 − α_x) marginal at ``level`` —
  how far the data leave the parameter free;
* without counts: θ·(1 ± ``spread``) clipped to [0, 1] (a relative variation, 10 % by default, the usual
  tornado of elicited networks).

A two-state row has one free parameter, so it gets one bar (its first state's). Ranking costs one propagation
for all parameters: the first-order swing |dq/dθ|·(θ_hi − θ_lo), with the
co-varied slope dq/dθ_x = r_x − Σ_{j≠x} θ_j r_j / (1 − θ_x) from the derivatives r = ∂q/∂θ of the delta method
(Singh eq 3.5). The ``top`` bars are then evaluated exactly at both ends in one batched propagation over 2·top
parameter sets (the engine's parameter axis).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from bnstudio import hooks
from bnstudio.core.network import Network
from bnstudio.defaults import CREDIBLE_LEVEL
from bnstudio.errors import ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.uncertainty.delta import delta_method
from bnstudio.uncertainty.sensitivity import covaried_rows, query_response


@dataclass(frozen=True)
class TornadoBar:
    """q at both ends of one parameter's range: θ_{state | parents} of ``variable`` from ``theta_low`` to
    ``theta_high`` (θ* = ``theta0``) moves q from ``q_low`` to ``q_high``; ``slope`` = dq/dθ at θ*."""

    variable: str
    parents: dict[str, str]
    state: str
    theta0: float
    theta_low: float
    theta_high: float
    q_low: float
    q_high: float
    slope: float

    @property
    def swing(self) -> float:
        return abs(self.q_high - self.q_low)


@dataclass
class Tornado:
    """The bars of query p(``query`` | ``evidence``) = ``q0``, largest swing first; ``range`` says how each
    parameter's range was chosen ("credible 90%" or "±10%")."""

    query: dict[str, str]
    evidence: dict[str, Any]
    q0: float
    range: str
    bars: list[TornadoBar]

    def _repr_html_(self) -> str:
        """Notebooks: the tornado chart (:data:`bnstudio.hooks.tornado_html`)."""
        return hooks.tornado_html(self)

    def to_json(self) -> dict[str, Any]:
        """The ``bnstudio errorbars --tornado K --json`` record."""
        return {"target": self.query, "evidence": self.evidence, "q0": self.q0, "range": self.range,
                "bars": [{"variable": b.variable, "parents": b.parents, "state": b.state, "theta0": b.theta0,
                          "theta_low": b.theta_low, "theta_high": b.theta_high, "q_low": b.q_low,
                          "q_high": b.q_high, "slope": b.slope} for b in self.bars]}


def tornado(net: Network, query: Mapping[str, str], evidence: Mapping | None = None, top: int = 15,
            level: float = CREDIBLE_LEVEL, spread: float = 0.1, alpha: Mapping[str, np.ndarray] | None = None,
            engine: InferenceEngine | None = None) -> Tornado:
    """The ``top`` parameters that move p(query | evidence) most over their ranges (module docstring): credible
    intervals from ``alpha`` (default: the network's own counts when every CPT has them), else θ(1 ± spread)."""
    if isinstance(top, bool) or not isinstance(top, (int, np.integer)) or top < 1:
        raise ValidationError(f"a tornado needs at least one bar, got top={top!r}")
    if not (0.0 < level < 1.0):
        raise ValidationError(f"the credible level must be in (0, 1), got {level!r}")
    if not (0.0 < spread <= 1.0):
        raise ValidationError(f"the relative spread must be in (0, 1], got {spread!r}")
    engine = engine or InferenceEngine(net)
    evidence = dict(evidence or {})
    if alpha is None and all(net.alpha(v) is not None for v in net.variables):
        alpha = {v: np.asarray(net.alpha(v)) for v in net.variables}
    counted = alpha is not None
    counts = alpha if alpha is not None else {v: np.ones(net.family_shape(v)) for v in net.variables}
    delta = delta_method(net, counts, query, evidence, engine)     # ∂q/∂θ does not depend on α
    chosen = _largest_swings(net, delta.derivatives, counts if counted else None, level, spread, top)
    ends = _exact_ends(net, query, evidence, chosen, engine) if chosen else np.zeros((0, 2))
    bars = [_bar(net, var, index, low, high, slope, q)
            for (_, var, index, low, high, slope), q in zip(chosen, ends, strict=True)]
    bars.sort(key=lambda b: -b.swing)
    label = f"credible {100 * level:g}%" if counted else f"±{100 * spread:g}%"
    return Tornado(dict(query), evidence, delta.mean, label, bars)


def _largest_swings(net: Network, derivatives: Mapping[str, np.ndarray], counts: Mapping[str, np.ndarray] | None,
                    level: float, spread: float, top: int) -> list[tuple]:
    """The ``top`` parameters by first-order swing |dq/dθ|·(θ_hi − θ_lo), largest first (ties in network and
    table order), as (swing, variable, index, θ_lo, θ_hi, slope); ranked in one pass over all CPTs' arrays."""
    names, tables = list(net.variables), []
    for var in names:
        theta = np.asarray(net.cpt(var), dtype=float)
        low, high = _ranges(theta, counts[var] if counts is not None else None, level, spread)
        slope = _covaried_slopes(theta, derivatives[var])
        first_order = np.abs(slope) * (high - low)
        if theta.shape[-1] == 2:   # a two-state row has one free parameter: its second entry mirrors the first
            first_order[..., 1] = 0.0
        tables.append((first_order, low, high, slope))
    flat = np.concatenate([t[0].ravel() for t in tables]) if tables else np.zeros(0)
    offsets = np.cumsum([0] + [t[0].size for t in tables])
    order = np.argsort(-flat, kind="stable")
    order = order[flat[order] > 0][:top]
    owners = np.searchsorted(offsets, order, side="right") - 1
    chosen = []
    for i, k in zip(order.tolist(), owners.tolist(), strict=True):
        first_order, low, high, slope = tables[k]
        index = np.unravel_index(i - offsets[k], first_order.shape)
        chosen.append((float(first_order[index]), names[k], index, float(low[index]), float(high[index]),
                       float(slope[index])))
    return chosen


def _ranges(theta: np.ndarray, alpha: np.ndarray | None, level: float, spread: float
            ) -> tuple[np.ndarray, np.ndarray]:
    """Each parameter's (low, high): its Beta marginal's central interval, or θ(1 ± spread) in [0, 1]."""
    if alpha is None:
        return np.clip(theta * (1 - spread), 0, 1), np.clip(theta * (1 + spread), 0, 1)
    from scipy import stats  # on use: importing the app must not load scipy.stats (tests/test_architecture.py)

    a = np.maximum(alpha, 1e-12)
    b = np.maximum(alpha.sum(axis=-1, keepdims=True) - alpha, 1e-12)
    tail = (1.0 - level) / 2
    return stats.beta.ppf(tail, a, b), stats.beta.ppf(1 - tail, a, b)


def _covaried_slopes(theta: np.ndarray, r: np.ndarray) -> np.ndarray:
    """dq/dθ_x for every entry x of every row at once (:func:`~bnstudio.uncertainty.covaried_slope`)."""
    total = (theta * r).sum(axis=-1, keepdims=True)
    rest = 1.0 - theta
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = r - (total - theta * r) / rest
    k = theta.shape[-1]
    even = r - (r.sum(axis=-1, keepdims=True) - r) / max(k - 1, 1)     # a deterministic row shares equally
    return np.where(rest > 1e-12, slope, even)


def _exact_ends(net: Network, query: Mapping[str, str], evidence: Mapping, chosen: list, engine: InferenceEngine
                ) -> np.ndarray:
    """q at (low, high) of each chosen parameter: one batched propagation over 2·len(chosen) sets."""
    sets = 2 * len(chosen)
    params: dict[str, np.ndarray] = {}
    for k, (_, var, index, low, high, _slope) in enumerate(chosen):
        if var not in params:
            params[var] = np.broadcast_to(net.cpt(var), (sets,) + net.cpt(var).shape).copy()
        row, state = index[:-1], index[-1]
        theta_row = np.asarray(net.cpt(var)[row], dtype=float)
        params[var][(slice(2 * k, 2 * k + 2),) + tuple(row)] = covaried_rows(theta_row, state,
                                                                             np.array([low, high]))
    return query_response(net, query, evidence, params, engine).reshape(-1, 2)


def _bar(net: Network, var: str, index: tuple, low: float, high: float, slope: float, q: np.ndarray) -> TornadoBar:
    parents = {p: net.states(p)[j] for p, j in zip(net.parents(var), index[:-1], strict=True)}
    return TornadoBar(var, parents, net.states(var)[index[-1]], float(net.cpt(var)[index]), low, high,
                      float(q[0]), float(q[1]), slope)
