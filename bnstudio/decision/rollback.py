"""Exact no-forgetting solution by variable elimination in a strong elimination order (rollback).

Following Jensen, Jensen & Dittmer (1994, §3–4; also Jensen & Nielsen 2007, §10.2) the diagram is a set of
probability potentials Φ (the chance CPTs and the evidence likelihoods) and utility potentials Ψ (the utility
tables). Eliminating nodes in a strong order (:func:`bnstudio.decision.order.strong_groups`) keeps the invariant
that Π Φ is p(remaining nodes, e) and Σ Ψ is the expected utility given the remaining nodes and e:

* summing out a chance node X:  φ_X = Π_{φ ∋ X} φ,  φ' = Σ_X φ_X,  ψ' = Σ_X φ_X · Σ_{ψ ∋ X} ψ / φ'
  (0/0 = 0: impossible configurations get utility 0);
* maximising out a decision D:  ψ_D = Σ_{ψ ∋ D} ψ,  δ_D = argmax_D ψ_D (the policy, a function of the scope
  of ψ_D — the *requisite* past of D, no larger than its no-forgetting past),  ψ' = max_D ψ_D,  and
  φ' = φ_D sliced at δ_D (φ_D does not depend on D unless evidence lies downstream of D; then the slice keeps
  both scopes).

ψ' is a conditional expectation, so rescaling φ' to a maximum of 1 at each step changes nothing but p(e),
whose log is carried. Evidence is known to every decision: Dk maximises E[U | its past, e] (see
``docs/decisions.md``). A decision with evidence is a decision already taken: it is sliced at that option
instead of maximised. Each step is one ``einsum`` per utility potential; every table is sized against the
memory budget before it is allocated. Ties go to the first option in state order.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from bnstudio.decision.model import InfluenceDiagram
from bnstudio.decision.order import strong_groups
from bnstudio.decision.plan import cheapest
from bnstudio.errors import ImpossibleEvidence, MemoryBudgetExceeded, TimeBudgetExceeded
from bnstudio.inference.variable_elimination import combine

Factor = tuple[np.ndarray, tuple[str, ...]]
#: relative spread along D below which φ_D counts as independent of D (it is 1 up to rounding without evidence)
CONSTANT_TOLERANCE = 1e-12


@dataclass(frozen=True)
class Policy:
    """A deterministic policy: ``table[p1, ..., pk]`` is the index of the option chosen for that past."""

    decision: str
    parents: tuple[str, ...]
    table: np.ndarray
    #: E[U | past, D = d, e] (shape (|P1|, ..., |Pk|, |D|)) from the rollback; None after a LIMID update
    values: np.ndarray | None = None

    def cpt(self, card: int) -> np.ndarray:
        """The policy as a CPT of the decision (one-hot rows), shape (|P1|, ..., |Pk|, |D|)."""
        return np.eye(card)[self.table]


@dataclass(frozen=True)
class Rollback:
    """The optimal policies, the maximum expected utility given e and log p(e) under those policies."""

    policies: dict[str, Policy]
    meu: float
    log_evidence: float


class _Elimination:
    """The potentials Φ and Ψ while nodes are eliminated (see the module docstring)."""

    def __init__(self, diagram: InfluenceDiagram, likelihoods: Mapping[str, np.ndarray], budget_entries: float):
        self.card = {v: diagram.cardinality(v) for v in diagram.network.variables}
        self.budget = budget_entries
        self.phi: list[Factor] = [(diagram.cpt(v), diagram.parents(v) + (v,)) for v in diagram.chance_names]
        self.phi += [(np.asarray(lam, dtype=float), (v,)) for v, lam in likelihoods.items()]
        self.psi: list[Factor] = [(u.table, u.parents) for u in diagram.utilities]
        self.log_scale = 0.0

    def _scope(self, factors: Sequence[tuple[object, tuple[str, ...]]]) -> tuple[str, ...]:
        """The union of the factors' scopes (only the scopes are read), checked against the budget."""
        scope = tuple(dict.fromkeys(v for _, s in factors for v in s))
        size = math.prod(self.card[v] for v in scope)
        if size > self.budget:
            raise MemoryBudgetExceeded(f"solving this influence diagram needs a table over {len(scope)} nodes "
                                       f"with {size:.3g} entries, more than the memory budget of "
                                       f"{self.budget * 8 / 2**30:.3g} GiB")
        return scope

    def _take(self, name: str) -> tuple[list[Factor], list[Factor]]:
        phi = [f for f in self.phi if name in f[1]]
        psi = [f for f in self.psi if name in f[1]]
        self.phi = [f for f in self.phi if name not in f[1]]
        self.psi = [f for f in self.psi if name not in f[1]]
        return phi, psi

    def pick(self, group: list[str]) -> str:
        """The node of ``group`` whose elimination builds the smallest table (greedy min-weight, as planned)."""
        return cheapest(group, [s for _, s in self.phi + self.psi], self.card)

    def _sum_of(self, psi: list[Factor], scope: tuple[str, ...]) -> np.ndarray:
        shape = tuple(self.card[v] for v in scope)
        return sum((np.broadcast_to(aligned(t, s, scope), shape) for t, s in psi), np.zeros(shape))

    def sum_out(self, x: str) -> None:
        phi, psi = self._take(x)
        scope = self._scope(phi)
        joint = combine(phi, scope)
        rest = tuple(v for v in scope if v != x)
        marg = joint.sum(axis=scope.index(x))
        top = float(marg.max()) if marg.size else 0.0
        if top <= 0:
            raise ImpossibleEvidence("impossible evidence: p(e) = 0")
        if psi:
            wide = tuple(v for v in self._scope(phi + psi) if v != x)
            terms = []
            for f in psi:
                own = tuple(v for v in dict.fromkeys(scope + f[1]) if v != x)
                terms.append((combine([(joint, scope), f], own), own))
            num = self._sum_of(terms, wide)
            den = aligned(marg, rest, wide)
            self.psi.append((np.divide(num, den, out=np.zeros_like(num), where=den > 0), wide))
        self.phi.append((marg / top, rest))
        self.log_scale += math.log(top)

    def max_out(self, d: str, taken: int | None) -> Policy:
        phi, psi = self._take(d)
        joint, phi_scope = (combine(phi, self._scope(phi)), self._scope(phi)) if phi else (np.ones(1), (d,))
        varies = taken is None and not _constant_along(joint, phi_scope.index(d))
        # the policy sees the utility's scope; and φ's too when e makes some options impossible in some pasts
        scopes = [s for _, s in psi] + ([phi_scope] if varies else [])
        parents = tuple(v for v in self._scope([(None, s) for s in scopes]) if v != d) if scopes else ()
        wide = parents + (d,)
        util = self._sum_of(psi, wide)
        if varies:
            util = np.where(np.broadcast_to(aligned(joint, phi_scope, wide), util.shape) > 0, util, -np.inf)
        choice = np.argmax(util, axis=-1) if taken is None else np.full(util.shape[:-1], taken, dtype=np.intp)
        if psi:
            best = np.take_along_axis(util, choice[..., None], -1)[..., 0]
            self.psi.append((np.where(np.isfinite(best), best, 0.0), parents))
        if phi:
            if varies:
                table = np.broadcast_to(aligned(joint, phi_scope, wide), util.shape)
                self.phi.append((np.take_along_axis(table, choice[..., None], -1)[..., 0], parents))
            else:
                axis = phi_scope.index(d)
                kept = phi_scope[:axis] + phi_scope[axis + 1:]
                self.phi.append((np.take(joint, 0 if taken is None else taken, axis=axis), kept))
        return Policy(d, parents, choice, util)


def _constant_along(table: np.ndarray, axis: int) -> bool:
    """Whether ``table`` does not depend on ``axis`` (up to rounding: φ_D is 1 without evidence downstream)."""
    spread = np.ptp(table, axis=axis)
    return bool(np.all(spread <= CONSTANT_TOLERANCE * max(float(table.max()), 1e-300)))


def aligned(table: np.ndarray, scope: tuple[str, ...], wide: tuple[str, ...]) -> np.ndarray:
    """``table`` over ``scope`` as a view broadcastable over ``wide`` (⊇ scope): axes permuted, ones inserted."""
    order = sorted(range(len(scope)), key=lambda k: wide.index(scope[k]))
    shape = [1] * len(wide)
    for k in order:
        shape[wide.index(scope[k])] = table.shape[k]
    return np.transpose(table, order).reshape(shape)


def _check_time(deadline: float) -> None:
    if time.monotonic() > deadline:
        raise TimeBudgetExceeded("solving the influence diagram (no-forgetting) went past its time budget; "
                                 "simplify the diagram or raise --max-time")


def rollback(diagram: InfluenceDiagram, likelihoods: Mapping[str, np.ndarray] | None = None,
             taken: Mapping[str, int] | None = None, budget_entries: float = float("inf"),
             deadline: float = math.inf) -> Rollback:
    """Solve ``diagram`` under no-forgetting: optimal policies of the decisions not ``taken``.

    ``likelihoods``: {chance node: likelihood vector} (evidence); ``taken``: {decision: option index} for
    decisions already taken. Raises :class:`ImpossibleEvidence` when p(e) = 0 and
    :class:`MemoryBudgetExceeded` before building a table of more than ``budget_entries`` entries, and
    :class:`TimeBudgetExceeded` at the first elimination past ``deadline`` (``time.monotonic()``).
    """
    taken = dict(taken or {})
    state = _Elimination(diagram, dict(likelihoods or {}), budget_entries)
    policies = {}
    for kind, group in strong_groups(diagram):
        _check_time(deadline)
        if kind == "max":
            d = group[0]
            policies[d] = state.max_out(d, taken.get(d))
            continue
        group = list(group)
        while group:
            x = state.pick(group)
            group.remove(x)
            state.sum_out(x)
            _check_time(deadline)
    meu = float(sum(float(t) for t, _ in state.psi))
    log_pe = state.log_scale + float(sum(math.log(float(t)) if t > 0 else -math.inf for t, _ in state.phi))
    if log_pe == -math.inf:
        raise ImpossibleEvidence("impossible evidence: p(e) = 0")
    return Rollback(policies, meu, log_pe)
