"""What the canvas and the decision panel show, computed Qt-free (run inline when small, else as a job).

``compute_decisions(diagram, evidence, ess, level)`` solves the diagram under the evidence
(:func:`bnstudio.decision.solve`), then, with the optimal policies fixed (a Bayesian network,
:mod:`bnstudio.decision.policy_net`):

* E[U_i | e] of every utility node, = m_i + (M_i − m_i) p(U_i = high | e) (policy_net eq 1);
* p(X | e) of every chance node under those policies (what the canvas shows as beliefs: the document's own
  beliefs treat the decisions as uniform placeholders);
* p(past | e) of every row of every policy (the joint of the policy's parents), so the panel lists only the
  pasts that can happen;
* the delta-method error bar of the MEU (:func:`bnstudio.decision.utility_error_bar`), when every chance CPT
  has Dirichlet counts or an ESS is given; otherwise the reason it is missing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from bnstudio.decision import DecisionSolution, InfluenceDiagram, UtilityErrorBar, solve, utility_error_bar
from bnstudio.decision.policy_net import HIGH, STATES, policy_network, utility_scales
from bnstudio.decision.solve import split_evidence
from bnstudio.defaults import CREDIBLE_LEVEL
from bnstudio.errors import BNStudioError
from bnstudio.inference import InferenceEngine

STATE_HIGH = STATES.index(HIGH)
#: diagrams whose chance and decision tables hold at most this many cells are solved on the GUI thread
INLINE_CELLS = 20_000


@dataclass
class DecisionResult:
    """Everything shown about the decisions under one evidence (``error`` says why nothing was solved)."""

    solution: DecisionSolution | None = None
    utilities: dict[str, float] = field(default_factory=dict)      # E[U_i | e] per utility node
    pasts: dict[str, np.ndarray] = field(default_factory=dict)     # p(past | e), shaped like each policy table
    beliefs: dict[str, np.ndarray] = field(default_factory=dict)   # p(X | e) of chance nodes under the policies
    errorbar: UtilityErrorBar | None = None
    errorbar_note: str = ""                                        # why there is no error bar
    error: str = ""
    diagram: InfluenceDiagram | None = field(default=None, repr=False)


def diagram_cells(diagram: InfluenceDiagram) -> int:
    """Cells of every chance CPT and utility table: the size that decides inline or background."""
    return (sum(int(diagram.cpt(v).size) for v in diagram.chance_names)
            + sum(int(u.table.size) for u in diagram.utilities))


def compute_decisions(diagram: InfluenceDiagram, evidence: Mapping[str, Any], ess: float | None = None,
                      level: float = CREDIBLE_LEVEL, reporter: Any = None) -> DecisionResult:
    """Solve and summarise (see the module docstring); known errors are returned, not raised."""
    try:
        solution = solve(diagram, evidence)
    except BNStudioError as exc:
        return DecisionResult(error=str(exc), diagram=diagram)
    likelihoods, _ = split_evidence(diagram, solution.evidence)
    policies = {d: (p.parents, p.cpt(diagram.cardinality(d))) for d, p in solution.policies.items()}
    engine = InferenceEngine(policy_network(diagram, policies))
    scales = {s.name: s for s in utility_scales(diagram)}
    lams = {v: lam for v, lam in likelihoods.items()}
    varying = [u for u, s in scales.items() if s.span > 0]
    highs = engine.posterior(varying, lams) if varying else {}
    utilities = {u: s.low + (s.span * float(highs[u][STATE_HIGH]) if u in highs else 0.0)
                 for u, s in scales.items()}
    pasts = {d: (engine.joint(p.parents, lams) if p.parents else np.ones(()))
             for d, p in solution.policies.items()}
    beliefs = engine.posterior(list(diagram.chance_names), lams) if diagram.chance_names else {}
    result = DecisionResult(solution, utilities, pasts, beliefs, diagram=diagram)
    try:
        result.errorbar = utility_error_bar(diagram, solution, ess=ess, level=level)
    except BNStudioError as exc:
        result.errorbar_note = str(exc)
    return result
