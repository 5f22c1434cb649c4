"""What the query panel shows, packaged for display: error bars of p(q | e) with the bootstrap spread of a
bagged ensemble beside them, never raising for the known problems, and the Monte-Carlo check job.

The computation is :mod:`bnstudio.uncertainty` (error bars, sensitivity curves, bootstrap spread), which the
``bnstudio errorbars`` command also uses. A query target is a joint configuration ``{VAR: STATE}``; evidence is
``{VAR: STATE or [likelihood per state]}`` as on the canvas.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import BNStudioError, ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.inference.intervention import check_findings
from bnstudio.jobs import Progress
from bnstudio.uncertainty import (
    BootstrapSpread,
    ErrorBars,
    NoDirichletCounts,
    bootstrap_spread,
    dirichlet_counts,
    error_bars,
    row_index,
)

Target = dict[str, str]
Evidence = dict[str, Any]


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
    interventions: dict[str, str] = field(default_factory=dict)   # do(X = x): answered on the mutilated network

    @property
    def mean(self) -> float | None:
        return self.bars.mean if self.bars is not None else self.probability


def describe(assignment: Mapping[str, Any]) -> str:
    """``A=yes, B=no`` (likelihood evidence as ``A~[0.8, 0.2]``); ``—`` when empty."""
    parts = []
    for name, value in assignment.items():
        if isinstance(value, str):
            parts.append(f"{name}={value}")
        else:
            parts.append(f"{name}~[{', '.join(f'{v:g}' for v in value)}]")
    return ", ".join(parts) if parts else "—"


def answer_query(net: Network, engine: InferenceEngine, target: Target, evidence: Evidence, level: float,
                 ess: float | None = None, ensemble: Mapping[str, np.ndarray] | None = None,
                 interventions: Mapping[str, str] | None = None) -> QueryAnswer:
    """Error bars of p(target | evidence) (:func:`bnstudio.uncertainty.error_bars`), never raising for the
    known problems: no Dirichlet counts (the probability is still given) or impossible evidence. Under
    ``interventions`` the answer is p(target | do(x), evidence), asked of the mutilated network
    (:func:`intervened_counts` gives its counts)."""
    out = QueryAnswer(dict(target), dict(evidence), level, interventions=dict(interventions or {}))
    both = [name for name in target if name in evidence or name in out.interventions]
    if both:     # p(X=x | X=…) is 0 or 1 by definition: never shown as an answer
        kind = "evidence" if both[0] in evidence else "set by do()"
        out.error = (f"{', '.join(both)} {'is' if len(both) == 1 else 'are'} both the target and {kind}: pick "
                     f"another target, or remove the finding")
        return out
    try:
        if out.interventions:
            check_findings(out.interventions, evidence)
            cut = engine.intervened(out.interventions)
            whole, net, engine, ensemble = net, cut.net, cut, None   # an ensemble was fitted to the whole network
            alpha = intervened_counts(whole, net, ess, out.interventions)
            out.bars = error_bars(net, target, evidence, level, alpha=alpha, engine=engine)
        else:
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
        try:
            out.bootstrap = bootstrap_spread(net, ensemble, target, evidence, level, engine)
        except ValidationError as exc:    # an ensemble the edited network no longer matches
            out.notes.append(str(exc))
    return out


def intervened_counts(net: Network, cut: Network, ess: float | None,
                      interventions: Mapping[str, str]) -> dict[str, np.ndarray]:
    """Dirichlet counts for the mutilated network ``cut`` of ``net``: every table's own (or ESS·θ), and for an
    intervened X its point mass e_x, whose Dirichlet has zero variance: a table fixed by the do() adds none
    (Singh's delta method then sums the other families only). Raises NoDirichletCounts like
    :func:`dirichlet_counts`."""
    alpha = dict(dirichlet_counts(net, ess))
    for name in interventions:
        alpha[name] = cut.cpt(name)
    return alpha


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
        assert result.mc is not None   # asked for (mc=r)
        progress.report(1, {"mean": result.mc.mean, "variance": result.mc.variance})
        progress.done()
        return result
    return job


def fmt(p: float | None, digits: int = 4) -> str:
    """A probability for a table cell ("" for none)."""
    return "" if p is None or (isinstance(p, float) and math.isnan(p)) else f"{p:.{digits}f}"


def fmt_interval(pair: tuple[float, float] | None, digits: int = 4) -> str:
    return "" if pair is None else f"[{pair[0]:.{digits}f}, {pair[1]:.{digits}f}]"
