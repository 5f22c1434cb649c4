"""One-way sensitivity of p(q | e) to one CPT entry, and the query as a function of whole parameter sets.

Varying θ = θ_{x | u} of one row with the row's other entries scaled in proportion ("co-variation", so the
row stays a distribution) makes every row entry linear in θ, and the joint is multilinear in one row, so
p(q, e) = N(θ) and p(e) = D(θ) are linear in θ and q(θ) = N(θ) / D(θ) (Singh §3.2; Chan & Darwiche's
sensitivity functions). One batched propagation at θ ∈ {0, θ*, 1} (the engine's parameter axis) therefore gives
the exact curve at any resolution, and its exact tangent at θ*:
q'(θ*) = [N(1) − N(0) − q(θ*) (D(1) − D(0))] / D(θ*). Away from zero entries this equals
r_x − Σ_{j≠x} θ*_j r_j / (1 − θ*_x) with the derivatives r_j = ∂q/∂θ_j of the delta method (Singh eq 3.5;
:func:`covaried_slope`), so the straight line next to the curve is the first-order (delta-method) view.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import UnknownStateError, ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.inference.batching import check_one_case, parameter_batches
from bnstudio.uncertainty.delta import query_cases
from bnstudio.uncertainty.errorbars import ErrorBars


@dataclass
class Sensitivity:
    """q as a function of θ = θ_{state | parents} of ``variable`` (co-varied row): the exact curve over
    ``theta`` and its tangent ``linear`` = q0 + slope · (θ − θ0)."""

    variable: str
    parents: dict[str, str]
    state: str
    theta0: float
    q0: float
    slope: float
    theta: np.ndarray = field(repr=False)
    exact: np.ndarray = field(repr=False)
    linear: np.ndarray = field(repr=False)

    def to_json(self) -> dict[str, Any]:
        """The ``bnstudio errorbars --sensitivity ... --json`` record."""
        return {"variable": self.variable, "parents": self.parents, "state": self.state, "theta0": self.theta0,
                "q0": self.q0, "slope": self.slope, "theta": self.theta.tolist(), "exact": self.exact.tolist(),
                "linear": self.linear.tolist()}


def query_response(net: Network, query: Mapping[str, str], evidence: Mapping[str, Any],
                   parameters: Mapping[str, np.ndarray], engine: InferenceEngine | None = None) -> np.ndarray:
    """q(Θ_s) = p(query | evidence, Θ_s) for S parameter sets {var: (S, *family)} (other variables keep the
    network's CPTs), in batched propagations of as many sets as fit the memory budget
    (:func:`~bnstudio.inference.batching.parameter_batches`); 0 where p(q, e | Θ_s) = 0."""
    engine = engine or InferenceEngine(net)
    cases = query_cases(net, query, evidence)
    log = np.concatenate([engine.log_evidence_batch(cases, parameters=sets)
                          for sets in parameter_batches(engine, parameters, 2, "the query over parameter sets")])
    with np.errstate(invalid="ignore"):
        return np.where(np.isneginf(log[:, 1]), 0.0, np.exp(log[:, 1] - log[:, 0]))


def row_index(net: Network, variable: str, parents: Mapping[str, str]) -> tuple[int, ...]:
    """The CPT row of ``variable`` named by its parents' states (every parent must be named)."""
    missing = [p for p in net.parents(variable) if p not in parents]
    if missing:
        raise ValidationError(f"the row of '{variable}' needs the state of parent(s) {', '.join(missing)}")
    extra = [p for p in parents if p not in net.parents(variable)]
    if extra:
        raise ValidationError(f"{', '.join(extra)} {'is not a parent' if len(extra) == 1 else 'are not parents'} "
                              f"of '{variable}'")
    return tuple(state_position(net, p, parents[p]) for p in net.parents(variable))


def state_position(net: Network, variable: str, state: str) -> int:
    """The index of ``state`` among the states of ``variable``, or an error listing them."""
    states = net.states(variable)
    if state not in states:
        raise UnknownStateError(f"variable '{variable}' has no state '{state}' (states: {', '.join(states)})")
    return states.index(state)


def covaried_slope(theta_row: np.ndarray, derivative_row: np.ndarray, state: int) -> float:
    """dq/dθ_x when the row's other entries shrink in proportion (θ_j ∝ θ*_j, j ≠ x).

    With r_j = ∂q/∂θ_j (Singh eq 3.5, ``QueryVariance.derivatives``):
    dq/dθ_x = r_x − Σ_{j≠x} θ*_j r_j / (1 − θ*_x); a deterministic row (θ*_x = 1) shares the rest equally.
    """
    rest = 1.0 - theta_row[state]
    others = np.arange(theta_row.size) != state
    if rest <= 1e-12:
        return float(derivative_row[state] - derivative_row[others].mean()) if others.any() else 0.0
    return float(derivative_row[state] - (theta_row[others] * derivative_row[others]).sum() / rest)


def covaried_rows(theta_row: np.ndarray, state: int, values: np.ndarray) -> np.ndarray:
    """Rows (len(values), k) with entry ``state`` set to each value and the others rescaled proportionally."""
    others = np.arange(theta_row.size) != state
    rest = 1.0 - theta_row[state]
    share = theta_row / rest if rest > 1e-12 else np.full(theta_row.size, 1.0 / max(others.sum(), 1))
    rows = (1.0 - values)[:, None] * np.where(others, share, 0.0)[None, :]
    rows[:, state] = values
    return rows


def sensitivity(net: Network, bars: ErrorBars, variable: str, row: tuple[int, ...], state: int,
                points: int = 201, engine: InferenceEngine | None = None) -> Sensitivity:
    """The exact one-way sensitivity curve of the query of ``bars`` over θ ∈ [0, 1] (``points`` values and θ*)
    and its first-order line q + (dq/dθ)·Δθ.

    N(θ) and D(θ) are linear (module docstring), so one batched propagation at θ ∈ {0, θ*, 1} gives them exactly
    and the curve is N/D evaluated on the grid: any resolution costs the same.
    """
    if points < 2:
        raise ValidationError(f"a sensitivity curve needs at least 2 points, got {points}")
    table = net.cpt(variable)
    theta_row = np.asarray(table[row], dtype=float)
    theta0 = float(theta_row[state])
    anchors = np.array([0.0, theta0, 1.0])
    params = np.broadcast_to(table, (3,) + table.shape).copy()
    params[(slice(None),) + tuple(row)] = covaried_rows(theta_row, state, anchors)
    engine = engine or InferenceEngine(net)
    check_one_case(engine, "the sensitivity curve")
    log = engine.log_evidence_batch(query_cases(net, bars.query, bars.evidence), parameters={variable: params})
    with np.errstate(over="ignore"):
        joint, evidence = np.exp(log[:, 1] - log[1, 0]), np.exp(log[:, 0] - log[1, 0])  # N, D at 0, θ*, 1 / D(θ*)
    grid = np.unique(np.r_[np.linspace(0.0, 1.0, points), theta0])
    numerator = joint[0] + (joint[2] - joint[0]) * grid
    denominator = evidence[0] + (evidence[2] - evidence[0]) * grid
    with np.errstate(invalid="ignore", divide="ignore"):
        exact = np.clip(np.where(denominator > 0, numerator / denominator, 0.0), 0.0, 1.0)
    slope = float(joint[2] - joint[0] - joint[1] * (evidence[2] - evidence[0]))
    parents = {p: net.states(p)[j] for p, j in zip(net.parents(variable), row, strict=True)}
    return Sensitivity(variable, parents, net.states(variable)[state], theta0, bars.mean, slope, grid, exact,
                       bars.mean + slope * (grid - theta0))
