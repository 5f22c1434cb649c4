"""What the exact (no-forgetting) solution will allocate, worked out on scopes alone before anything is built.

:func:`plan_no_forgetting` replays the rollback of :mod:`bnstudio.decision.rollback` on the *scopes* of its
potentials (no tables): the same strong order, the same greedy choice within a group, the same scopes. Each
decision's policy domain comes out of it (the requisite past, up to evidence downstream of the decision: the
plan then assumes the larger domain), and with it the sizes, as Python integers (no overflow), of

* every table one elimination step holds at once (the combined Φ, its marginal, the utility terms, the new Ψ)
  on top of the live potentials and the policies kept so far — the rollback's peak;
* what follows the rollback: each policy as a CPT of the policy network and that network's junction tree
  (:func:`bnstudio.inference.elimination.best_elimination_order`, bounded like the engine's compilation).

Under no-forgetting a decision's past grows with every earlier decision and observation, so on a chain of
hidden states its policy table is exponential in its position (D25 of a binary POMDP: 2^25 rows). When the
largest of these sums passes the memory budget the plan is one :class:`MemoryBudgetExceeded` line naming the
decision, before any table is allocated; ``solve(method="auto")`` then goes to LIMID single policy updating.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Collection, Iterable, Mapping, Sequence

import networkx as nx

from bnstudio.decision.order import strong_groups
from bnstudio.decision.outline import Structure
from bnstudio.errors import MemoryBudgetExceeded
from bnstudio.inference.elimination import CliqueTooLarge, best_elimination_order, moral_graph

BYTES = 8  # a float64 entry (and an intp policy entry)
HINT = ("; solve it as a LIMID (method limid: each decision sees its declared parents only) or raise the memory "
        "budget")


@dataclass(frozen=True)
class Plan:
    """The policy domains of the exact solution and the memory it needs (float64 entries)."""

    parents: dict[str, tuple[str, ...]]   # each decision's policy domain
    policy_entries: dict[str, int]        # Π |parents| · |D| per decision
    peak: int                             # entries held at once during the rollback, at most
    after: int                            # entries held by the policy network stage


def cheapest(group: Sequence[str], scopes: Iterable[tuple[str, ...]], card: Mapping[str, int]) -> str:
    """The node of ``group`` whose elimination makes the smallest table (greedy min-weight; ties: first)."""
    touching: dict[str, set[str]] = {v: set() for v in group}
    for scope in scopes:
        for v in scope:
            if v in touching:
                touching[v].update(scope)
    return min(group, key=lambda v: math.prod(card[u] for u in touching[v]))


def union(scopes: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    """The variables of ``scopes`` in order of first appearance."""
    return tuple(dict.fromkeys(v for s in scopes for v in s))


class _Scopes:
    """The rollback of :mod:`bnstudio.decision.rollback` on scopes only, counting table entries."""

    def __init__(self, diagram: Structure, evidence: Collection[str], taken: Collection[str],
                 budget: float) -> None:
        self.card = {v: diagram.cardinality(v) for v in diagram.variables}
        self.phi = [diagram.parents(v) + (v,) for v in diagram.chance_names] + [(v,) for v in evidence]
        self.psi = [u.parents for u in diagram.utilities]
        self.taken, self.evidence, self.graph = set(taken), set(evidence), diagram.graph()
        self.kept = 0    # entries of the policies made so far (values and choices)
        self.peak = 0
        self.parents: dict[str, tuple[str, ...]] = {}
        self.budget = budget
        self.next_decision: str | None = None

    def size(self, scope: Iterable[str]) -> int:
        return math.prod(self.card[v] for v in scope)

    def _take(self, name: str) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
        phi, psi = [s for s in self.phi if name in s], [s for s in self.psi if name in s]
        self.phi, self.psi = [s for s in self.phi if name not in s], [s for s in self.psi if name not in s]
        return phi, psi

    def _step(self, transient: int, largest: tuple[str, ...], what: str) -> None:
        """Count one step's tables; past the budget, one line naming ``what`` needs the ``largest`` table."""
        need = self.kept + sum(self.size(s) for s in self.phi + self.psi) + transient
        self.peak = max(self.peak, need)
        if need * BYTES > self.budget:
            raise MemoryBudgetExceeded(f"{what} a table of {scientific(self.size(largest))} entries over "
                                       f"{len(largest)} nodes; the exact solution would hold about "
                                       f"{human_bytes(need * BYTES)} then, more than the memory budget of "
                                       f"{human_bytes(self.budget)}{HINT}")

    def sum_out(self, x: str) -> None:
        phi, psi = self._take(x)
        scope = union(phi)
        rest = tuple(v for v in scope if v != x)
        transient = self.size(scope) + self.size(rest)
        if psi:
            wide = tuple(v for v in union(phi + psi) if v != x)
            transient += sum(self.size(set(scope) | set(f)) for f in psi) + 3 * self.size(wide)
            self.psi.append(wide)
        where = f"decision '{self.next_decision}'" if self.next_decision else "the exact solution"
        self._step(transient, max(self.psi[-1] if psi else rest, scope, key=self.size),
                   f"{where} needs, when '{x}' is summed out,")
        self.phi.append(rest)

    def max_out(self, d: str) -> None:
        phi, psi = self._take(d)
        scope = union(phi) if phi else (d,)
        varies = bool(phi) and d not in self.taken and bool(self.evidence & nx.descendants(self.graph, d))
        scopes = psi + ([scope] if varies else [])
        parents = tuple(v for v in union(scopes) if v != d)
        wide = self.size(parents) * self.card[d]
        self._step(self.size(scope) + 3 * wide, parents + (d,), f"decision '{d}' needs a no-forgetting policy "
                   f"over {len(parents)} nodes of its past,")
        self.parents[d] = parents
        self.kept += wide + self.size(parents)
        if psi:
            self.psi.append(parents)
        if phi:
            self.phi.append(parents if varies else tuple(v for v in scope if v != d))


def plan_no_forgetting(diagram: Structure, evidence: Collection[str] = (), taken: Collection[str] = (),
                       memory_budget: float = math.inf) -> Plan:
    """The :class:`Plan` of the exact solution of ``diagram`` with evidence on the nodes ``evidence`` and the
    decisions ``taken`` already taken; :class:`MemoryBudgetExceeded` (one line naming the decision with the
    largest policy table) when it needs more than ``memory_budget`` bytes."""
    state = _Scopes(diagram, evidence, taken, memory_budget)
    groups = strong_groups(diagram)
    for k, (kind, group) in enumerate(groups):
        if kind == "max":
            state.max_out(group[0])
            continue
        state.next_decision = groups[k + 1][1][0] if k + 1 < len(groups) else None
        group = list(group)
        while group:
            x = cheapest(group, state.phi + state.psi, state.card)
            group.remove(x)
            state.sum_out(x)
    entries = {d: state.size(p) * state.card[d] for d, p in state.parents.items()}
    tree = policy_tree_entries(diagram, state.parents, memory_budget / BYTES)
    after = None if tree is None else state.kept + 2 * sum(entries.values()) + 2 * tree
    if after is None or after * BYTES > memory_budget:
        need = "a junction tree over the policies larger than" if after is None else \
            f"about {human_bytes(after * BYTES)} for the policy network, more than"
        d = max(entries, key=entries.__getitem__, default=None)
        largest = (f"decision '{d}' needs a no-forgetting policy table of {scientific(entries[d])} entries over "
                   f"{len(state.parents[d])} nodes of its past; " if d is not None else "")
        raise MemoryBudgetExceeded(f"{largest}the exact solution needs {need} the memory budget of "
                                   f"{human_bytes(memory_budget)}{HINT}")
    return Plan(state.parents, entries, state.peak, after)


#: bytes one listed policy row takes on top of its cells, and one cell ("D3": "a" in the row's past), in
#: :meth:`DecisionSolution.to_json` and its JSON text (measured about 70 per cell on CPython 3.11, rounded up)
LISTED_ROW_BYTES = 250
LISTED_CELL_BYTES = 80


def check_listing(diagram: Structure, parents: Mapping[str, Sequence[str]], memory_budget: float) -> None:
    """One :class:`MemoryBudgetExceeded` line, before anything is solved, when listing every policy row
    (``{"past": {node: state, ...}, "choice": option}``, one row per configuration of the policy domain
    ``parents[d]``) would take more than ``memory_budget`` bytes; it names the decision with the most rows.

    Under no-forgetting the listing, not the policy table, is what grows fastest: a chain of 24 binary decisions
    under one utility holds 2^23 rows of 23 cells for its last decision alone."""
    rows = {d: math.prod(diagram.cardinality(p) for p in parents.get(d, ())) for d in diagram.decision_names}
    need = sum(r * LISTED_ROW_BYTES + r * len(parents.get(d, ())) * LISTED_CELL_BYTES for d, r in rows.items())
    if need > memory_budget:
        d = max(rows, key=rows.__getitem__)
        raise MemoryBudgetExceeded(f"listing the policies would take about {human_bytes(need)}, more than the "
                                   f"memory budget of {human_bytes(memory_budget)}: decision '{d}' alone has a "
                                   f"policy of {scientific(rows[d])} rows over {len(parents.get(d, ()))} nodes of "
                                   f"its past{HINT}")


def policy_tree_entries(diagram: Structure, parents: Mapping[str, tuple[str, ...]],
                        max_entries: float) -> int | None:
    """Entries per case of the junction tree of the policy network (policies over ``parents``, one binary node
    per utility), or None when no elimination order keeps every clique within ``max_entries``."""
    names = list(diagram.variables) + list(diagram.utility_names)
    index = {v: k for k, v in enumerate(names)}
    cards = [diagram.cardinality(v) for v in diagram.variables] + [2] * len(diagram.utilities)
    families = [[index[p] for p in (parents[v] if v in parents else diagram.parents(v))] + [index[v]]
                for v in names]
    try:
        return best_elimination_order(moral_graph(len(names), families), cards, max_clique=max_entries).total_size
    except CliqueTooLarge:
        return None


def scientific(n: int) -> str:
    """``3.36e+07`` for an integer of any size (a float would overflow past 1.8e308)."""
    if n < 10 ** 300:
        return f"{n:.3g}"
    digits = str(n)
    return f"{digits[0]}.{digits[1:3]}e+{len(digits) - 1}"


def human_bytes(n: float) -> str:
    """``2 GiB``, ``3.4 TiB``, ... (beyond YiB, a power of ten)."""
    units = ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB")
    if n >= 1024 ** len(units):
        return f"{scientific(int(n))} B"
    k = next(k for k in range(len(units)) if n < 1024 ** (k + 1))
    return f"{n / 1024 ** k:.3g} {units[k]}"
