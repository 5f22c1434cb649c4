"""Explanations: the most probable explanation (MPE), the k most probable, and MAP over chosen variables.

* **MPE** x* = argmax_x p(x | e) over every unobserved variable, by max-product on the compiled junction tree
  (:mod:`bnstudio.inference.maxproduct`), exact; p(x* | e) = p(x*, e) / p(e), with log p(x*, e) summed from
  the CPTs at x* (and the likelihoods of soft findings).
* **The k best**: Nilsson's partitioning on the max-calibrated tree (:mod:`bnstudio.inference.kbest`), exact,
  in descending order of probability; ties come in a fixed order.
* **MAP** over M: argmax_m p(m | e) = argmax_m Σ_h p(m, h, e), exact by constrained elimination when its tables
  fit the memory budget (:mod:`bnstudio.inference.map_elimination`), else (``method="auto"``) an anytime local
  search, labelled ``exact=False`` with its lower and upper bounds (:mod:`bnstudio.inference.map_search`).

How sure: p(x* | e) is a joint query p(q | e) with q = x*, so its delta-method error bar (Singh Theorem 2)
comes from ``bnstudio.uncertainty.error_bars(net, explanation.assignment, evidence)`` when the network has
Dirichlet counts.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from bnstudio import hooks
from bnstudio.errors import EvidenceError, MemoryBudgetExceeded
from bnstudio.inference import evidence as ev

if TYPE_CHECKING:
    from bnstudio.inference.engine import InferenceEngine

MAP_METHODS = ("auto", "exact", "search")
MAX_TOP = 10_000  # explanations one call may ask for (each costs a partition step over every variable)


@dataclass(frozen=True)
class Explanation:
    """An assignment {variable: state} of the unobserved variables (for MAP: of the MAP variables) with
    p(x | e) (``probability``; ``log_probability`` stays exact where it underflows) and log p(x, e)."""

    assignment: dict[str, str]
    probability: float
    log_probability: float
    log_joint: float

    def to_json(self) -> dict[str, Any]:
        """{"assignment": {variable: state}, "probability", "log_probability", "log_joint"}."""
        return {"assignment": dict(self.assignment), "probability": self.probability,
                "log_probability": self.log_probability, "log_joint": self.log_joint}


@dataclass(frozen=True)
class MapExplanation(Explanation):
    """A MAP answer: ``exact`` (constrained elimination) or not (``method`` "local search"), with the bounds
    ``lower`` ≤ max_m p(m | e) ≤ ``upper`` (both equal to ``probability`` when exact)."""

    exact: bool = True
    method: str = "elimination"
    lower: float = field(default=math.nan)
    upper: float = field(default=math.nan)

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "exact": self.exact, "method": self.method, "lower": self.lower,
                "upper": self.upper}

    def _repr_html_(self) -> str:
        """Notebooks: the assignment and its probability (:data:`bnstudio.hooks.explanations_html`)."""
        return hooks.explanations_html(self)


class Explanations(tuple):
    """The k most probable explanations, most probable first (a tuple of :class:`Explanation`)."""

    @property
    def best(self) -> Explanation:
        return self[0]

    def _repr_html_(self) -> str:
        """Notebooks: one column per explanation (:data:`bnstudio.hooks.explanations_html`)."""
        return hooks.explanations_html(self)


def _probability(log_joint: float, log_e: float) -> tuple[float, float]:
    log_p = log_joint - log_e if log_joint > -math.inf else -math.inf
    return math.exp(min(log_p, 0.0)), min(log_p, 0.0)


def most_probable(engine: InferenceEngine, evidence: ev.Evidence | None = None, top: int = 1) -> Explanations:
    """The ``top`` most probable assignments of every unobserved variable given e, descending (module docstring)."""
    from bnstudio.inference.kbest import Partition, k_best

    if isinstance(top, bool) or not isinstance(top, (int, np.integer)) or not 1 <= top <= MAX_TOP:
        raise EvidenceError(f"top must be a whole number from 1 to {MAX_TOP}, got {top!r}")
    cs = engine.compiled
    lams = ev.single_evidence(cs.index, evidence)
    mt = engine.max_tree()
    up, tables = mt.collect(*mt.evidence_tables(lams))
    value = float(np.max(tables[mt.root]))  # max_x log p(x, e), less the soft findings' scale
    if not value > -np.inf:
        engine._check_possible(np.array([[-np.inf]]), evidence)
    best = mt.decode(tables, len(cs.families))
    solutions = [(value, best)]
    if top > 1:
        solutions = k_best(Partition(mt.jt, mt.calibrate(up, tables)), best, int(top))
    log_e = engine.log_evidence(evidence)
    observed = {name for name, spec in (evidence or {}).items() if isinstance(spec, (str, int, np.integer))}
    out = []
    for log_value, x in solutions:
        x = np.where(x < 0, 0, x)  # one-state variables: their one state
        log_joint = log_value + float(lams.log_scale)
        p, log_p = _probability(log_joint, log_e)
        assignment = {name: cs.index.states[v][int(x[v])] for v, name in enumerate(cs.index.names)
                      if name not in observed}
        out.append(Explanation(assignment, p, log_p, log_joint))
    return Explanations(out)


def _map_variables(engine: InferenceEngine, variables: str | Sequence[str], evidence: ev.Evidence | None
                   ) -> list[str]:
    index = engine.compiled.index
    names = [variables] if isinstance(variables, str) else list(variables)
    if not names:
        raise EvidenceError("MAP needs at least one variable")
    for name in names:
        index.index(name)  # UnknownVariableError names it
        if name in (evidence or {}):
            raise EvidenceError(f"MAP variable '{name}' is also in the evidence; leave it out of one of them")
    if len(set(names)) != len(names):
        raise EvidenceError(f"MAP variables repeat a variable: {names}")
    return names


def maximum_a_posteriori(engine: InferenceEngine, variables: str | Sequence[str],
                         evidence: ev.Evidence | None = None, method: str = "auto") -> MapExplanation:
    """argmax_m p(m | e) over ``variables`` (module docstring); ``method``: "auto" (exact when the constrained
    elimination fits the memory budget, else local search), "exact" (else MemoryBudgetExceeded), "search"."""
    if method not in MAP_METHODS:
        raise EvidenceError(f"unknown MAP method {method!r}; use one of {MAP_METHODS}")
    names = _map_variables(engine, variables, evidence)
    log_e = engine.log_evidence(evidence)
    if log_e == -math.inf:
        engine._check_possible(np.array([[log_e]]), evidence)
    index = engine.compiled.index
    if method != "search":
        try:
            return _exact_map(engine, names, evidence, log_e)
        except MemoryBudgetExceeded as exc:
            if method == "exact":
                raise MemoryBudgetExceeded(f"exact MAP over {len(names)} variables of {engine._label()}: {exc}; "
                                           f"method='search' gives an anytime answer with bounds") from None
    from bnstudio.inference.map_search import local_search
    states, log_joint, log_upper, _ = local_search(engine, names, evidence or {}, log_e)
    p, log_p = _probability(log_joint, log_e)
    assignment = {n: index.states[index.index(n)][s] for n, s in states.items()}
    return MapExplanation(assignment, p, log_p, log_joint, exact=False, method="local search", lower=p,
                          upper=min(1.0, math.exp(log_upper - log_e)))


def _exact_map(engine: InferenceEngine, names: Sequence[str], evidence: ev.Evidence | None, log_e: float
               ) -> MapExplanation:
    from bnstudio.inference.map_elimination import exact_map, map_factors

    cs = engine.compiled
    idx = [cs.index.index(n) for n in names]
    lams = ev.single_evidence(cs.index, evidence)
    factors, log_scale = map_factors(cs.families, cs.parents, cs.index.cards, engine._cpt, idx, lams)
    value, x = exact_map(factors, cs.index.cards, idx, engine.memory_budget / 8)
    log_joint = value + log_scale + float(lams.log_scale)
    p, log_p = _probability(log_joint, log_e)
    assignment = {n: cs.index.states[v][x.get(v, 0)] for n, v in zip(names, idx, strict=True)}
    return MapExplanation(assignment, p, log_p, log_joint, exact=True, method="elimination", lower=p, upper=p)
