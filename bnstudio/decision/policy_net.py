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
    for u, scale in zip(diagram.utilities, utility_scales(diagram), strict=True):
        if scale.span > 0:
            high = (u.table - scale.low) / scale.span
            net.add_variable(u.name, STATES, u.parents, np.stack([1.0 - high, high], axis=-1))
    return net


def expected_utilities(engine: InferenceEngine, scales: list[UtilityScale], cases: Mapping[str, np.ndarray],
                       n: int, parameters: Mapping[str, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(E[U | e_i], log p(e_i)) for n evidence cases ``cases`` = {node: (n, |X|) likelihoods}, in one batched
    propagation of n · (1 + #utility nodes) cases; E[U | e_i] is NaN where p(e_i) = 0. With ``parameters``
    (S parameter sets of some CPTs, {var: (S, *family)}) both have a leading axis of S."""
    nodes = [s for s in scales if s.span > 0]
    base = sum(s.low for s in scales)
    blocks = 1 + len(nodes)
    batch = {name: np.tile(np.asarray(lam, dtype=float), (blocks, 1)) for name, lam in cases.items()}
    for j, s in enumerate(nodes):
        column = np.ones((blocks * n, 2))
        column[(j + 1) * n:(j + 2) * n, 0] = 0.0
        batch[s.name] = column
    sets = () if parameters is None else (next(iter(parameters.values())).shape[0],)
    if not batch:
        return np.full(sets + (n,), base), np.zeros(sets + (n,))
    log_z = engine.log_evidence_batch(batch, parameters=parameters).reshape(sets + (blocks, n))
    first = log_z[..., 0, :]
    possible = np.isfinite(first)
    safe = np.where(possible, first, 0.0)[..., None, :]
    rest = log_z[..., 1:, :]
    with np.errstate(invalid="ignore"):
        high = np.exp(np.where(np.isfinite(rest), rest - safe, -np.inf))
    eu = base + sum((s.span * high[..., j, :] for j, s in enumerate(nodes)), np.zeros(sets + (n,)))
    # the sum carries rounding of order eps · (|base| + Σ spans): an expected utility of 0 came out as ±1e-14
    # (shown as "1.421e-14"); within that scale of 0 it is 0
    rounding = 64 * np.finfo(float).eps * (abs(base) + sum(s.span for s in nodes))
    eu = np.where(np.abs(eu) <= rounding, 0.0, eu)
    return np.where(possible, eu, np.nan), first


def policy_expected_utility(diagram: InfluenceDiagram, policies: Mapping, likelihoods: Mapping[str, np.ndarray],
                            memory_budget: int | None = None) -> tuple[float, float]:
    """(E[U | e], p(e)) of ``diagram`` when its decisions follow ``policies`` ({D: Policy})."""
    net = policy_network(diagram, {d: (p.parents, p.cpt(diagram.cardinality(d))) for d, p in policies.items()})
    engine = InferenceEngine(net) if memory_budget is None else InferenceEngine(net, memory_budget)
    eu, log_pe = expected_utilities(engine, utility_scales(diagram), {v: lam[None] for v, lam in likelihoods.items()}, 1)
    return float(eu[0]), float(np.exp(log_pe[0]))
