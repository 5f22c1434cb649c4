"""What the query panel shows, computed without Qt: error bars of p(q | e), the bootstrap spread of a bagged
ensemble, one-way sensitivity curves and the Monte-Carlo check job.

Everything is delegated to :mod:`bnstudio.uncertainty` and to the compiled engine's parameter axis; this
module only packages the answers for display. A query target is a joint configuration ``{VAR: STATE}``;
evidence is ``{VAR: STATE or [likelihood per state]}`` as on the canvas.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import BNStudioError
from bnstudio.inference import InferenceEngine
from bnstudio.inference.evidence import VariableIndex, likelihood_vector
from bnstudio.jobs import Progress
from bnstudio.uncertainty import ErrorBars, NoDirichletCounts, error_bars

Target = dict[str, str]
Evidence = dict[str, Any]


@dataclass
class BootstrapSpread:
    """p(q | e) over the T bags of a bagged-mp ensemble: the average, a central interval and every value."""

    mean: float
    low: float
    high: float
    values: np.ndarray = field(repr=False)


@dataclass
class QueryAnswer:
    """One evaluated query: error bars, or the plain probability and a readable reason why there are none."""

    target: Target
    evidence: Evidence
    level: float
    bars: ErrorBars | None = None
    probability: float | None = None
    bootstrap: BootstrapSpread | None = None
    error: str = ""
    no_counts: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def mean(self) -> float | None:
        return self.bars.mean if self.bars is not None else self.probability


@dataclass
class Sensitivity:
    """q as a function of one parameter θ = θ_{state | parents} of ``variable``, the row's other entries
    scaled proportionally (co-variation) so the row stays a distribution."""

    variable: str
    parents: dict[str, str]
    state: str
    theta0: float
    q0: float
    slope: float
    theta: np.ndarray = field(repr=False)
    exact: np.ndarray = field(repr=False)
    linear: np.ndarray = field(repr=False)


def describe(assignment: Mapping[str, Any]) -> str:
    """``A=yes, B=no`` (likelihood evidence as ``A~[0.8, 0.2]``); ``—`` when empty."""
    parts = []
    for name, value in assignment.items():
        if isinstance(value, str):
            parts.append(f"{name}={value}")
        else:
            parts.append(f"{name}~[{', '.join(f'{v:g}' for v in value)}]")
    return ", ".join(parts) if parts else "—"


def two_cases(net: Network, target: Mapping[str, str], evidence: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """Evidence as two likelihood cases for the engine: case 0 = e, case 1 = (q, e)."""
    index = VariableIndex(net.variables, [net.states(v) for v in net.variables])
    out = {}
    for name in dict.fromkeys(list(evidence) + list(target)):
        var = index.index(name)
        base = likelihood_vector(index, var, evidence[name])[0] if name in evidence else np.ones(index.cards[var])
        with_q = base * (likelihood_vector(index, var, target[name])[0] if name in target else 1.0)
        out[name] = np.vstack([base, with_q])
    return out


def query_response(engine: InferenceEngine, net: Network, target: Mapping[str, str], evidence: Mapping[str, Any],
                   parameters: Mapping[str, np.ndarray]) -> np.ndarray:
    """q(Θ_s) = p(q | e, Θ_s) for S parameter sets {var: (S, *family)} in one batched propagation."""
    log = engine.log_evidence_batch(two_cases(net, target, evidence), parameters=parameters)
    with np.errstate(invalid="ignore"):
        return np.where(np.isneginf(log[:, 1]), 0.0, np.exp(log[:, 1] - log[:, 0]))


def ensemble_mismatch(net: Network, ensemble: Mapping[str, np.ndarray]) -> str:
    """Why ``ensemble`` cannot be used on ``net`` ("" when it can)."""
    for var, table in ensemble.items():
        if var not in net:
            return f"the bagged ensemble names '{var}', which is not in the network"
        if table.shape[1:] != net.family_shape(var):
            return f"the bagged ensemble no longer matches the family of '{var}' (the network was edited)"
    return ""


def bootstrap_spread(engine: InferenceEngine, net: Network, ensemble: Mapping[str, np.ndarray],
                     target: Mapping[str, str], evidence: Mapping[str, Any], level: float) -> BootstrapSpread:
    """The query averaged over the bags (how bagged-mp answers) and the central ``level`` quantile interval."""
    values = query_response(engine, net, target, evidence, ensemble)
    tail = (1.0 - level) / 2
    return BootstrapSpread(float(values.mean()), float(np.quantile(values, tail)),
                           float(np.quantile(values, 1 - tail)), values)


def answer_query(net: Network, engine: InferenceEngine, target: Target, evidence: Evidence, level: float,
                 ess: float | None = None, ensemble: Mapping[str, np.ndarray] | None = None) -> QueryAnswer:
    """Error bars of p(target | evidence) (:func:`bnstudio.uncertainty.error_bars`), never raising for the
    known problems: no Dirichlet counts (the probability is still given) or impossible evidence."""
    out = QueryAnswer(dict(target), dict(evidence), level)
    try:
        out.bars = error_bars(net, target, evidence, level, ess=ess, engine=engine)
    except NoDirichletCounts as exc:
        out.no_counts, out.error = True, str(exc)
        try:
            out.probability = engine.query_probability(target, evidence)
        except BNStudioError as inner:
            out.error = str(inner)
    except BNStudioError as exc:
        out.error = str(exc)
    if ensemble is not None and out.mean is not None:
        reason = ensemble_mismatch(net, ensemble)
        if reason:
            out.notes.append(reason)
        else:
            out.bootstrap = bootstrap_spread(engine, net, ensemble, target, evidence, level)
    return out


def covaried_slope(theta_row: np.ndarray, derivative_row: np.ndarray, state: int) -> float:
    """dq/dθ_x when the row's other entries shrink in proportion (θ_j ∝ θ*_j, j ≠ x).

    With r_j = ∂q/∂θ_j (Singh eq 3.5, ``QueryVariance.derivatives``) and D_j = θ*_j r_j:
    dq/dθ_x = r_x − Σ_{j≠x} D_j / (1 − θ*_x); a deterministic row (θ*_x = 1) shares the rest equally.
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


def sensitivity(engine: InferenceEngine, net: Network, bars: ErrorBars, variable: str, row: tuple[int, ...],
                state: int, points: int = 41) -> Sensitivity:
    """The exact one-way sensitivity curve of the query over θ ∈ [0, 1] (all points in one batched
    propagation along the engine's parameter axis) and its first-order line q + (dq/dθ)·Δθ."""
    table = net.cpt(variable)
    theta_row = np.asarray(table[row], dtype=float)
    theta0 = float(theta_row[state])
    grid = np.unique(np.r_[np.linspace(0.0, 1.0, points), theta0])
    params = np.broadcast_to(table, (grid.size,) + table.shape).copy()
    params[(slice(None),) + tuple(row)] = covaried_rows(theta_row, state, grid)
    exact = query_response(engine, net, bars.query, bars.evidence, {variable: params})
    slope = covaried_slope(theta_row, bars.delta.derivatives[variable][row], state)
    parents = {p: net.states(p)[j] for p, j in zip(net.parents(variable), row)}
    return Sensitivity(variable, parents, net.states(variable)[state], theta0, bars.mean, slope, grid, exact,
                       bars.mean + slope * (grid - theta0))


def row_index(net: Network, variable: str, parents: Mapping[str, str]) -> tuple[int, ...]:
    """The CPT row of ``variable`` named by its parents' states."""
    return tuple(net.states(p).index(parents[p]) for p in net.parents(variable))


def row_number(net: Network, variable: str, parents: Mapping[str, str]) -> int:
    """The row's position in the CPT editor (parent configurations in C order, the first parent slowest)."""
    cards = [net.cardinality(p) for p in net.parents(variable)]
    return int(np.ravel_multi_index(row_index(net, variable, parents), cards)) if cards else 0


def monte_carlo_job(net: Network, target: Target, evidence: Evidence, level: float, ess: float | None, r: int,
                    seed: int | None) -> Callable[[Any], ErrorBars]:
    """A job for the worker: error bars with an r-draw Monte-Carlo check, on ``net`` (pass a copy)."""
    def job(reporter: Any) -> ErrorBars:
        progress = Progress(reporter, "Monte-Carlo check", 1)
        result = error_bars(net, target, evidence, level, ess=ess, mc=r, seed=seed)
        progress.report(1, {"mean": result.mc.mean, "variance": result.mc.variance})
        progress.done()
        return result
    return job


def fmt(p: float | None, digits: int = 4) -> str:
    """A probability for a table cell ("" for none)."""
    return "" if p is None or (isinstance(p, float) and math.isnan(p)) else f"{p:.{digits}f}"


def fmt_interval(pair: tuple[float, float] | None, digits: int = 4) -> str:
    return "" if pair is None else f"[{pair[0]:.{digits}f}, {pair[1]:.{digits}f}]"
