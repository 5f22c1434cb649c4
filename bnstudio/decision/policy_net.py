"""A diagram with its policies fixed is a Bayesian network; its expected utilities are query probabilities.

Each decision becomes a chance variable whose CPT is its policy (one-hot rows over the policy's parents, or
uniform rows to let an option be forced). Each non-constant utility node U with range [m, M] becomes a binary
chance node with p(U = high | pa) = (U(pa) − m) / (M − m) (Cooper 1988), so that

    E[U | e] = m + (M − m) · p(U = high | e)                                                     (1)

is a query of the compiled engine: the expected utilities of many evidence cases (one per option of a
decision) come from one batched propagation, and their derivatives with respect to the chance CPTs are the
query derivatives of Singh (2004) eq 3.5 — which is how :mod:`bnstudio.decision.errorbar` gets its error bar.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

from bnstudio.core.network import Network
from bnstudio.decision.model import InfluenceDiagram
from bnstudio.inference import InferenceEngine

HIGH = "high"
STATES = ("low", HIGH)


@dataclass(frozen=True)
class UtilityScale:
    """Utility node ``name`` = low + span · [node is high]; span 0 (a constant table) has no node."""

    name: str
    low: float
    span: float


def utility_scales(diagram: InfluenceDiagram) -> list[UtilityScale]:
    return [UtilityScale(u.name, float(u.table.min()), float(np.ptp(u.table))) for u in diagram.utilities]


def policy_network(diagram: InfluenceDiagram, policies: Mapping[str, tuple[tuple[str, ...], np.ndarray]]
                   ) -> Network:
    """The chance network with each decision's CPT set to ``policies[D] = (parents, cpt)`` and one binary node
    per non-constant utility (eq 1)."""
    net = diagram.network
    for d, (parents, cpt) in policies.items():
        net.set_parents(d, parents, cpt)
    for u, scale in zip(diagram.utilities, utility_scales(diagram)):
        if scale.span > 0:
            high = (u.table - scale.low) / scale.span
            net.add_variable(u.name, STATES, u.parents, np.stack([1.0 - high, high], axis=-1))
    return net


def expected_utilities(engine: InferenceEngine, scales: list[UtilityScale], cases: Mapping[str, np.ndarray],
                       n: int) -> tuple[np.ndarray, np.ndarray]:
    """(E[U | e_i], log p(e_i)) for n evidence cases ``cases`` = {node: (n, |X|) likelihoods}, in one batched
    propagation of n · (1 + #utility nodes) cases; E[U | e_i] is NaN where p(e_i) = 0."""
    nodes = [s for s in scales if s.span > 0]
    base = sum(s.low for s in scales)
    blocks = 1 + len(nodes)
    batch = {name: np.tile(np.asarray(lam, dtype=float), (blocks, 1)) for name, lam in cases.items()}
    for j, s in enumerate(nodes):
        column = np.ones((blocks * n, 2))
        column[(j + 1) * n:(j + 2) * n, 0] = 0.0
        batch[s.name] = column
    if not batch:
        return np.full(n, base), np.zeros(n)
    log_z = engine.log_evidence_batch(batch).reshape(blocks, n)
    possible = np.isfinite(log_z[0])
    safe = np.where(possible, log_z[0], 0.0)
    with np.errstate(invalid="ignore"):
        high = np.exp(np.where(np.isfinite(log_z[1:]), log_z[1:] - safe, -np.inf))
    eu = base + sum((s.span * high[j] for j, s in enumerate(nodes)), np.zeros(n))
    return np.where(possible, eu, np.nan), log_z[0]
