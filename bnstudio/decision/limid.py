"""LIMID single policy updating (Lauritzen & Nilsson 2001, §5, Algorithm "SPU").

The diagram is read as a LIMID: each decision sees only its declared informational parents (no-forgetting
is not assumed, so policy tables stay as small as the diagram says). Starting from uniform policies, each
decision in turn, last to first, gets the policy that maximises the expected utility with the other policies
fixed: with D's policy uniform (so that D = d means "do d"), the local expected utility of option d in past
pa is

    Q(pa, d) ∝ Σ_U [ m_U · p(pa, d, e) + (M_U − m_U) · p(pa, d, U = high, e) ]

(utility nodes as binary nodes, :mod:`bnstudio.decision.policy_net` eq 1), read off D's family marginal of
one batched calibration of 1 + #utilities cases. The new policy is argmax_d Q(pa, d), keeping the current
option on ties. Sweeps repeat until one changes nothing: a local maximum of E[U · λ(e)] (Lauritzen & Nilsson
Theorem 4), the global one for soluble LIMIDs (their §4, e.g. every diagram whose declared parents already
include the no-forgetting past).
"""
from __future__ import annotations

import math
import time
from typing import Mapping

import numpy as np

from bnstudio.decision.model import InfluenceDiagram
from bnstudio.decision.policy_net import UtilityScale, policy_network, utility_scales
from bnstudio.decision.rollback import Policy
from bnstudio.errors import ImpossibleEvidence, MemoryBudgetExceeded, TimeBudgetExceeded
from bnstudio.inference import InferenceEngine

MAX_SWEEPS = 100


def check_table(what: str, shape: list[int], memory_budget: float) -> None:
    """:class:`MemoryBudgetExceeded` (one line naming ``what``) when a float table of ``shape`` would need more
    than ``memory_budget`` bytes; checked before it is allocated."""
    entries = math.prod(shape)
    if entries * 8 > memory_budget:
        raise MemoryBudgetExceeded(f"{what} would have {entries:.3g} entries ({entries * 8 / 2**30:.3g} GiB), more "
                                   f"than the memory budget of {memory_budget / 2**30:.3g} GiB")
TIE_TOLERANCE = 1e-12


def single_policy_update(diagram: InfluenceDiagram, likelihoods: Mapping[str, np.ndarray],
                         taken: Mapping[str, int], memory_budget: int,
                         deadline: float = math.inf) -> tuple[dict[str, Policy], int]:
    """(policies, sweeps) of SPU; decisions in ``taken`` keep that option. Every policy table is checked against
    ``memory_budget`` (bytes) before it is allocated; past ``deadline`` (``time.monotonic()``) the next policy
    update raises :class:`TimeBudgetExceeded`."""
    cards = {d: diagram.cardinality(d) for d in diagram.decision_names}
    for node in diagram.decisions:
        check_table(f"the policy table of decision '{node.name}'", [diagram.cardinality(p) for p in node.parents]
                    + [cards[node.name]], memory_budget)
    tables = {d.name: np.full(tuple(diagram.cardinality(p) for p in d.parents) + (cards[d.name],),
                              1.0 / cards[d.name]) for d in diagram.decisions}
    for d, option in taken.items():
        tables[d] = np.broadcast_to(np.eye(cards[d])[option], tables[d].shape).copy()
    net = policy_network(diagram, {d.name: (d.parents, tables[d.name]) for d in diagram.decisions})
    engine = InferenceEngine(net, memory_budget)
    scales = utility_scales(diagram)
    free = [d for d in reversed(diagram.decision_names) if d not in taken]
    choice: dict[str, np.ndarray] = {}  # a free decision's option per parent row, once it has one
    sweeps = 0
    for sweeps in range(1, MAX_SWEEPS + 1):
        changed = False
        for d in free:
            if time.monotonic() > deadline:
                raise TimeBudgetExceeded(f"solving the influence diagram (LIMID sweep {sweeps}, decision '{d}') "
                                         f"went past its time budget; simplify the diagram or raise --max-time")
            net.set_cpt(d, np.full(tables[d].shape, 1.0 / cards[d]))
            local = _local_utility(engine, scales, likelihoods, d)
            best = np.argmax(local, axis=-1)
            if d in choice:  # keep the current option unless another is strictly better
                current = np.take_along_axis(local, choice[d][..., None], -1)[..., 0]
                top = np.take_along_axis(local, best[..., None], -1)[..., 0]
                best = np.where(top - current > TIE_TOLERANCE * np.maximum(1.0, np.abs(top)), best, choice[d])
            changed |= d not in choice or bool(np.any(best != choice[d]))
            choice[d] = best
            tables[d] = np.eye(cards[d])[best]
            net.set_cpt(d, tables[d])
        if not changed:
            break
    policies = {d.name: Policy(d.name, d.parents, choice[d.name] if d.name in choice else
                               np.full(tables[d.name].shape[:-1], taken[d.name], dtype=np.intp))
                for d in diagram.decisions}
    return policies, sweeps


def _local_utility(engine: InferenceEngine, all_scales: list[UtilityScale], likelihoods: Mapping[str, np.ndarray],
                   d: str) -> np.ndarray:
    """Q(pa, d) of the module docstring, divided by p(e) (a positive constant)."""
    scales = [s for s in all_scales if s.span > 0]
    blocks = 1 + len(scales)
    cases = {v: np.tile(lam, (blocks, 1)) for v, lam in likelihoods.items()}
    for j, s in enumerate(scales):
        column = np.ones((blocks, 2))
        column[j + 1, 0] = 0.0
        cases[s.name] = column
    if not cases:
        cases = {d: np.ones((1, engine.net.cardinality(d)))}
    fams, log_z = engine.calibrate_batch(cases)
    if not np.isfinite(log_z[0]):
        raise ImpossibleEvidence("impossible evidence: p(e) = 0")
    family = fams[d]
    local = sum(s.low for s in all_scales) * family[0]
    for j, s in enumerate(scales):
        weight = np.exp(log_z[j + 1] - log_z[0]) if np.isfinite(log_z[j + 1]) else 0.0
        local = local + s.span * weight * family[j + 1]
    return local
