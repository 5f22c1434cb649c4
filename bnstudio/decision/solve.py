"""Solve an influence diagram under evidence: optimal policies, the expected utility of every option.

``solve(diagram, evidence)`` runs the exact no-forgetting rollback (:mod:`bnstudio.decision.rollback`); with
``method="auto"``, when a table of that solution would exceed the memory budget, or when the decisions are not
totally ordered (a LIMID, :attr:`~bnstudio.decision.model.InfluenceDiagram.ordered`: no-forgetting has no
meaning there), it runs the LIMID single policy update instead (:mod:`bnstudio.decision.limid`) and says so in
:attr:`DecisionSolution.method`.
Then the policies are fixed and the diagram is a Bayesian network (:mod:`bnstudio.decision.policy_net`):

* the expected utility E[U | e] of the policies and p(e) under them;
* for each decision D and option d, EU(D = d | e): the expected utility given e when D is forced to d in every
  past and every other decision follows its policy (later ones may react to d) — what is shown beside a
  decision like beliefs beside a chance node. Options that e makes impossible get None.

Evidence: {chance node: state or likelihood vector} and {decision: option} for decisions already taken.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Mapping, overload

import numpy as np

from bnstudio.decision.limid import check_table, single_policy_update
from bnstudio.decision.model import InfluenceDiagram, UtilityNode
from bnstudio.decision.outline import Structure
from bnstudio.decision.plan import Plan, check_listing, plan_no_forgetting
from bnstudio.decision.policy_net import expected_utilities, policy_network, utility_scales
from bnstudio.decision.rollback import Policy, rollback
from bnstudio.errors import EvidenceError, ImpossibleEvidence, MemoryBudgetExceeded, TimeBudgetExceeded, ValidationError
from bnstudio.inference import DEFAULT_MEMORY_BUDGET, InferenceEngine
from bnstudio.inference.evidence import VariableIndex, describe, likelihood_vector

METHODS = ("auto", "no-forgetting", "limid")
DEFAULT_TIME_BUDGET = 120.0  # seconds: a solution past it is one TimeBudgetExceeded line


@dataclass
class DecisionSolution:
    """Policies and expected utilities of a diagram under evidence (see the module docstring)."""

    method: str                                  # "no-forgetting" or "limid-spu"
    evidence: dict[str, Any]
    expected_utility: float                      # E[U | e] under the policies
    probability_of_evidence: float               # p(e) under the policies
    policies: dict[str, Policy]
    options: dict[str, dict[str, float | None]]  # EU(D = d | e) per decision and option
    taken: dict[str, str]
    iterations: int = 0                          # LIMID sweeps (0 for the exact solution)
    diagram: InfluenceDiagram | None = field(repr=False, default=None)  # always set by solve()

    def best_option(self, decision: str) -> str | None:
        """The option of ``decision`` with the largest EU(D = d | e) (first one on ties)."""
        values = {d: v for d, v in self.options[decision].items() if v is not None}
        return max(values, key=values.__getitem__) if values else None

    def policy_rows(self, decision: str) -> list[dict[str, Any]]:
        """The policy as rows {"past": {node: state}, "choice": option}, in row-major order."""
        policy = self.policies[decision]
        assert self.diagram is not None  # set by solve()
        states = [self.diagram.states(p) for p in policy.parents]
        options = self.diagram.states(decision)
        return [{"past": {p: states[k][i] for k, (p, i) in enumerate(zip(policy.parents, index, strict=True))},
                 "choice": options[int(policy.table[index])]} for index in np.ndindex(policy.table.shape)]

    def to_json(self) -> dict[str, Any]:
        assert self.diagram is not None  # set by solve()
        return {"method": self.method, "evidence": self.evidence, "expected_utility": self.expected_utility,
                "probability_of_evidence": self.probability_of_evidence, "iterations": self.iterations,
                "decisions": [{"name": d, "taken": self.taken.get(d), "best": self.best_option(d),
                               "options": self.options[d], "policy": self.policy_rows(d)}
                              for d in self.diagram.decision_names]}


def split_evidence(diagram: Structure, evidence: Mapping | None) -> tuple[dict[str, np.ndarray], dict[str, int]]:
    """({chance node: (|X|,) likelihood}, {decision taken: option index}); errors name the node."""
    index = VariableIndex(list(diagram.variables), [diagram.states(v) for v in diagram.variables])
    likelihoods, taken = {}, {}
    for name, spec in (evidence or {}).items():
        kind = diagram.kind(name)
        if kind == "utility":
            raise EvidenceError(f"'{name}' is a utility node: evidence goes on chance and decision nodes")
        if kind == "decision":
            if not isinstance(spec, (str, int, np.integer)) or isinstance(spec, bool):
                raise EvidenceError(f"decision '{name}' takes an option (DECISION=OPTION), not likelihoods")
            taken[name] = index.state_index(index.index(name), spec)
        else:
            likelihoods[name] = likelihood_vector(index, index.index(name), spec)[0]
    return likelihoods, taken


def describe_evidence(evidence: Mapping) -> str:
    """``Test=no, Result=closed`` for messages."""
    return describe(VariableIndex([], []), evidence)


def solve(diagram: InfluenceDiagram, evidence: Mapping | None = None, method: str = "auto",
          memory_budget: int = DEFAULT_MEMORY_BUDGET, max_time: float = DEFAULT_TIME_BUDGET,
          listed: bool = False) -> DecisionSolution:
    """Optimal policies and option expected utilities of ``diagram`` given ``evidence``.

    Bounded: every policy and option table is checked against ``memory_budget`` (bytes) before it is
    allocated (:class:`MemoryBudgetExceeded`), and the solution stops past ``max_time`` seconds
    (:class:`TimeBudgetExceeded`), each one line. ``listed=True`` (the caller lists every policy row,
    :meth:`DecisionSolution.to_json`, as ``bnstudio decide`` does) sizes that listing against the budget too,
    before solving (:func:`bnstudio.decision.plan.check_listing`); when the exact tables fit but their listing does
    not, ``method="auto"`` refuses too (the LIMID answers another question, and a solution that large takes
    minutes), and the message suggests the LIMID."""
    if method not in METHODS:
        raise EvidenceError(f"unknown solution method {method!r}; use one of {', '.join(METHODS)}")
    if not max_time > 0:
        raise ValidationError(f"max_time must be a positive number of seconds, got {max_time!r}")
    deadline = time.monotonic() + max_time
    blocks = 1 + sum(1 for u in diagram.utilities if u.table.size and u.table.min() < u.table.max())
    for d in diagram.decision_names:   # option_utilities: one evidence case per option, over every block
        check_table(f"the option cases of decision '{d}'", [blocks, diagram.cardinality(d),
                                                            diagram.cardinality(d)], memory_budget)
    evidence = dict(evidence or {})
    original, (diagram, unit) = diagram, unit_utilities(diagram)
    likelihoods, taken = split_evidence(diagram, evidence)
    _check_method(diagram, method)
    policies, used, iterations = _policies(diagram, likelihoods, taken, method, memory_budget, deadline, listed,
                                           evidence)
    net = policy_network(diagram, {d: (p.parents, p.cpt(diagram.cardinality(d))) for d, p in policies.items()})
    engine = InferenceEngine(net, memory_budget)  # compiled once: the options only swap one CPT per call
    scales = utility_scales(diagram)
    eus, log_pe = expected_utilities(engine, scales, {v: lam[None] for v, lam in likelihoods.items()}, 1)
    eu, p_e = float(eus[0]), float(np.exp(log_pe[0]))
    if p_e <= 0:
        raise ImpossibleEvidence(f"impossible evidence: p({describe_evidence(evidence)}) = 0 under the "
                                 f"optimal policies")
    options = {}
    for d in diagram.decision_names:
        if time.monotonic() > deadline:
            raise TimeBudgetExceeded(f"computing the expected utilities of the options (decision '{d}') went past "
                                     f"the time budget of {max_time:g} s; simplify the diagram or raise --max-time")
        options[d] = option_utilities(diagram, engine, policies[d], scales, likelihoods, memory_budget)
    names = {d: diagram.states(d)[i] for d, i in taken.items()}
    eu, options = _unscaled(eu, unit), {d: {s: _unscaled(v, unit) for s, v in o.items()} for d, o in options.items()}
    return DecisionSolution(used, evidence, eu, p_e, policies, options, names, iterations, original)


def presize(diagram: Structure, evidence: Mapping | None = None, method: str = "auto",
            memory_budget: int = DEFAULT_MEMORY_BUDGET, listed: bool = False) -> None:
    """Raise what :func:`solve` refuses on the structure alone, before it allocates a table: unknown evidence
    nodes or states, no-forgetting asked of a LIMID, an exact solution past the budget with ``method``
    "no-forgetting", a listing past the budget (``listed``). ``diagram`` may be a
    :class:`~bnstudio.decision.outline.DiagramOutline` read without its tables (``bnstudio decide`` on a JSON
    file, docs/decisions.md): the plan and the listing depend on scopes only, so it is refused exactly as the
    diagram would be, before a number of its tables is parsed."""
    if method not in METHODS:
        raise EvidenceError(f"unknown solution method {method!r}; use one of {', '.join(METHODS)}")
    likelihoods, taken = split_evidence(diagram, evidence)
    _check_method(diagram, method)
    if _exact_plan(diagram, likelihoods, taken, method, memory_budget, listed) is None and listed:
        check_listing(diagram, {d.name: d.parents for d in diagram.decisions}, memory_budget)


def _check_method(diagram: Structure, method: str) -> None:
    unordered = diagram.unordered
    if unordered is not None and method == "no-forgetting":
        raise ValidationError(f"decisions '{unordered[0]}' and '{unordered[1]}' are not ordered (no directed path "
                              f"from one to the next): no-forgetting needs the decisions on one directed path; "
                              f"solve this LIMID by single policy updating (method limid)")


def _exact_plan(diagram: Structure, likelihoods: Mapping[str, np.ndarray], taken: Mapping[str, int], method: str,
                memory_budget: int, listed: bool) -> Plan | None:
    """The plan of the exact solution when it is to be tried and fits the budget (and, if ``listed``, so does
    the listing of its policies: else refused, not swapped for the LIMID); None for the LIMID."""
    plan = None
    if method != "limid" and diagram.unordered is None:
        try:
            plan = plan_no_forgetting(diagram, likelihoods, taken, memory_budget)  # sizes every table first
        except MemoryBudgetExceeded:
            if method == "no-forgetting":
                raise
    if plan is not None and listed:
        check_listing(diagram, plan.parents, memory_budget)
    return plan


def _policies(diagram: InfluenceDiagram, likelihoods: dict[str, np.ndarray], taken: dict[str, int], method: str,
              memory_budget: int, deadline: float, listed: bool,
              evidence: Mapping) -> tuple[dict[str, Policy], str, int]:
    """(policies, method used, LIMID sweeps): the exact rollback when its plan fits the budget (and, if
    ``listed``, so does the listing of its policies), else (``method`` auto or limid) single policy updating."""
    iterations = 0
    plan = _exact_plan(diagram, likelihoods, taken, method, memory_budget, listed)
    policies = None
    if plan is not None:
        try:
            policies = rollback(diagram, likelihoods, taken, memory_budget / 8, deadline).policies
            used = "no-forgetting"
        except ImpossibleEvidence:
            raise ImpossibleEvidence(f"impossible evidence: p({describe_evidence(evidence)}) = 0") from None
        except MemoryBudgetExceeded:
            if method == "no-forgetting":
                raise
    if policies is None:
        if listed:
            check_listing(diagram, {d.name: d.parents for d in diagram.decisions}, memory_budget)
        policies, iterations = single_policy_update(diagram, likelihoods, taken, memory_budget, deadline)
        used = "limid-spu"
    return policies, used, iterations


def unit_utilities(diagram: InfluenceDiagram) -> tuple[InfluenceDiagram, float]:
    """(diagram with every utility divided by u, u): u = 2^k with the largest |utility| / u in [1, 2).

    Dividing by a power of two is exact, so the solution in units of u, multiplied back by u, is bitwise the
    one computed directly whenever that does not overflow; in units of u no sum of utilities (nor the rounding
    tolerance of :func:`~bnstudio.decision.policy_net.expected_utilities`) overflows near 1.8e308."""
    largest = max((float(np.max(np.abs(u.table))) for u in diagram.utilities if u.table.size), default=0.0)
    if largest == 0.0:
        return diagram, 1.0
    unit = math.ldexp(1.0, math.frexp(largest)[1] - 1)
    if unit == 1.0:
        return diagram, unit
    utilities = [UtilityNode(u.name, u.parents, u.table / unit) for u in diagram.utilities]
    return InfluenceDiagram(diagram.network, diagram.decisions, utilities, diagram.name), unit


@overload
def _unscaled(value: float, unit: float) -> float: ...


@overload
def _unscaled(value: float | None, unit: float) -> float | None: ...


def _unscaled(value: float | None, unit: float) -> float | None:
    """``value · unit``; beyond the float range it is one :class:`ValidationError` line, never inf or NaN."""
    if value is None:
        return None
    with np.errstate(over="ignore"):
        result = float(np.float64(value) * unit)
    if not math.isfinite(result):
        power = math.log10(abs(value)) + math.log10(unit)
        raise ValidationError(f"an expected utility of about {math.copysign(10 ** (power % 1), value):.2f}e+"
                              f"{int(power)} is beyond the float range (±1.8e308): scale the utilities down")
    return result


def option_utilities(diagram: InfluenceDiagram, engine: InferenceEngine, policy: Policy, scales,
                     likelihoods: Mapping[str, np.ndarray], memory_budget: int) -> dict[str, float | None]:
    """EU(D = d | e) for every option d of D, on ``engine`` (the policy network): one parameter set per option
    with D's policy replaced by "always d". That is D's policy made uniform and D = d observed (the 1/|D|
    cancels in E[U | D = d, e]); only the clique homing D is rebuilt, the tree is compiled once for all."""
    d = policy.decision
    card = diagram.cardinality(d)
    check_table(f"the option policies of decision '{d}'", [card, policy.table.size, card], memory_budget)
    always = np.repeat(np.eye(card)[:, None, :], policy.table.size, axis=1).reshape((card,) + policy.table.shape
                                                                                     + (card,))
    eu, _ = expected_utilities(engine, scales, {v: lam[None] for v, lam in likelihoods.items()}, 1,
                               parameters={d: always})
    return {s: (None if np.isnan(v) else float(v)) for s, v in zip(diagram.states(d), eu[:, 0], strict=True)}
