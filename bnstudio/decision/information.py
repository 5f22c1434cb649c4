"""The value of information for a decision: how much the maximum expected utility rises when a chance variable
is observed before the decision is taken — the expected value of perfect information (Howard 1966).

    VOI(O → D | e) = MEU(the diagram with O an informational parent of D | e) − MEU(the diagram | e)

For the exact (no-forgetting) solution VOI ≥ 0 (a decision maker may always ignore what it sees); a LIMID
solution is a local optimum, so a small negative value can appear there and is reported as found. The
candidates are the chance variables that are not observed (in e), not already seen by D, and not descendants
of D (a consequence of D cannot be seen before D is taken: that diagram would have a cycle). Each candidate is
one bounded solve of its diagram, with the same method, memory budget and time limit.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping, Sequence

from bnstudio.decision.model import InfluenceDiagram
from bnstudio.decision.solve import solve
from bnstudio.errors import CycleError, UnknownVariableError, ValidationError
from bnstudio.inference.engine import DEFAULT_MEMORY_BUDGET


@dataclass(frozen=True)
class DecisionInformation:
    """Observing ``variable`` before the decision raises the maximum expected utility from ``base`` to
    ``expected_utility``: ``value`` = their difference, in the diagram's utility units."""

    variable: str
    value: float
    expected_utility: float
    base: float


def decision_information(diagram: InfluenceDiagram, decision: str, evidence: Mapping | None = None,
                         candidates: Sequence[str] | None = None, method: str = "auto",
                         memory_budget: int = DEFAULT_MEMORY_BUDGET, max_time: float = 120.0
                         ) -> list[DecisionInformation]:
    """VOI(O → ``decision`` | e) of each candidate O (module docstring), the most valuable first."""
    if decision not in diagram.decision_names:
        raise UnknownVariableError(f"'{decision}' is not a decision of the diagram "
                                   f"(decisions: {', '.join(diagram.decision_names)})")
    evidence = dict(evidence or {})
    node = next(d for d in diagram.decisions if d.name == decision)
    if candidates is None:
        candidates = [v for v in diagram.chance_names if v not in evidence and v not in node.parents]
    else:
        for name in candidates:
            if diagram.kind(name) != "chance":
                raise ValidationError(f"'{name}' is a {diagram.kind(name)} node; only chance variables can be "
                                      f"observed before '{decision}'")
    base = solve(diagram, evidence, method, memory_budget, max_time).expected_utility
    out = []
    for name in candidates:
        if name in evidence or name in node.parents:
            out.append(DecisionInformation(name, 0.0, base, base))   # already known when D is taken
            continue
        decisions = [replace(d, parents=d.parents + (name,)) if d.name == decision else d for d in diagram.decisions]
        try:
            seeing = InfluenceDiagram(diagram.network, decisions, diagram.utilities, diagram.name)
        except CycleError:
            continue    # a descendant of the decision: it cannot be seen before the decision is taken
        value = solve(seeing, evidence, method, memory_budget, max_time).expected_utility
        out.append(DecisionInformation(name, value - base, value, base))
    return sorted(out, key=lambda item: -item.value)
