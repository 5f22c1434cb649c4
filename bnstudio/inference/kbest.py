"""The k most probable explanations, exact and in descending order (Nilsson 1998, partitioning on a junction tree).

A max-calibrated tree (:meth:`bnstudio.inference.maxproduct.MaxTree.calibrate`) gives every clique's
max-marginal M_c(x_C) = max_{x ⊇ x_C} p(x, e), and p(x, e) = M_r(x_r) · Π_{c ≠ r} M_c(x_C) / M_{S_c}(x_S) with
M_{S_c}(s) = max_{x_R} M_c(s, x_R) (r the root, S_c the separator with c's parent, R_c = C_c \\ S_c).

Order the variables by the cliques' residuals R_c in preorder. A *subproblem* (a, p, X) is the set of
assignments equal to a before position p, with the variable at p outside X, and free after p. Its best value
is local: every clique before p's clique i is fixed, each clique after i maximises to a ratio of 1 given its
separator, so

    max = Π_{c before i} M_c(a_C)/M_{S_c}(a_S) · max_{x_C: constrained} M_i(x_C) / M_{S_i}(a_S),

and its maximiser is the constrained argmax in clique i followed by a traceback on the max-marginals of the
cliques after it. Start with the MPE x* as the subproblem (x*, 0, ∅) solved; each time the best open
subproblem is taken, its solution b (found at position p with exclusions X) is split into (b, p, X ∪ {b_p})
and (b, q, {b_q}) for every q > p — a partition of what is left (Lawler 1972). Assignments of probability 0
are never returned: fewer than k come back when fewer have p(x, e) > 0.
"""
from __future__ import annotations

import heapq
from itertools import count
from typing import Sequence

import numpy as np

from bnstudio.inference.jtree import JunctionTree
from bnstudio.inference.maxproduct import _assign, _slice


class Partition:
    """The residual order and max-marginals of a calibrated tree (see module docstring)."""

    def __init__(self, jt: JunctionTree, full: Sequence[np.ndarray]) -> None:
        self.jt = jt
        self.full = list(full)
        self.cliques = jt.preorder
        self.rank = {c: i for i, c in enumerate(self.cliques)}
        self.positions: list[tuple[int, int]] = []   # (clique, variable) in residual order
        for c in self.cliques:
            p = jt.parent[c]
            shared = set(jt.cliques[p]) if p >= 0 else set()
            self.positions += [(c, v) for v in jt.cliques[c] if v not in shared]

    def _separator_max(self, c: int, x: np.ndarray) -> float:
        """log M_{S_c}(x_S): the max-marginal of clique c sliced at its separator's states (0 at the root)."""
        p = self.jt.parent[c]
        if p < 0:
            return 0.0
        shared = set(self.jt.cliques[p])
        y = np.full(x.shape, -1, dtype=np.int64)
        for v in self.jt.cliques[c]:
            if v in shared:
                y[v] = x[v]
        return float(np.max(_slice(self.full[c], self.jt.cliques[c], y)))

    def prefix_values(self, x: np.ndarray) -> np.ndarray:
        """Σ of log M_c(x_C) − log M_{S_c}(x_S) over the cliques before each clique (preorder), shape (m + 1,)."""
        terms = []
        for c in self.cliques:
            value = float(self.full[c][tuple(int(x[v]) for v in self.jt.cliques[c])])
            terms.append(value - self._separator_max(c, x) if value > -np.inf else -np.inf)
        return np.concatenate([[0.0], np.cumsum(terms)])

    def _constrained(self, x: np.ndarray, position: int, excluded: frozenset[int]) -> tuple[np.ndarray, np.ndarray]:
        """Clique i's max-marginal with positions before ``position`` fixed to x, the variable at ``position``
        outside ``excluded``; returns (table over the free members, the partial assignment)."""
        c, var = self.positions[position]
        y = x.copy()
        for _, v in self.positions[position:]:
            y[v] = -1
        table = np.array(_slice(self.full[c], self.jt.cliques[c], y))
        table[np.array(sorted(excluded))] = -np.inf  # var is the first free axis (see module docstring)
        return table, y

    def value(self, x: np.ndarray, prefix: np.ndarray, position: int, excluded: frozenset[int]) -> float:
        """log of the best p(x', e) over the subproblem (x, position, excluded)."""
        c, _ = self.positions[position]
        table, _ = self._constrained(x, position, excluded)
        best = float(np.max(table))
        return prefix[self.rank[c]] + best - self._separator_max(c, x) if best > -np.inf else -np.inf

    def solve(self, x: np.ndarray, position: int, excluded: frozenset[int]) -> np.ndarray:
        """The maximiser of the subproblem: the constrained argmax, then a traceback on the later cliques."""
        c, _ = self.positions[position]
        table, y = self._constrained(x, position, excluded)
        members = self.jt.cliques[c]  # y holds -1 at the free positions
        _assign(y, members, table)
        for d in self.cliques[self.rank[c] + 1:]:
            cl = self.jt.cliques[d]
            if any(y[v] < 0 for v in cl):
                _assign(y, cl, _slice(self.full[d], cl, y))
        return y


def k_best(partition: Partition, best: np.ndarray, k: int) -> list[tuple[float, np.ndarray]]:
    """The k assignments of largest p(x, e), as (log value from the max-marginals, assignment), descending;
    ``best`` is the MPE (see module docstring)."""
    tie = count()
    heap: list[tuple[float, int, np.ndarray, int, frozenset[int]]] = []
    out: list[tuple[float, np.ndarray]] = []
    x, value, start, excluded = best, float(partition.prefix_values(best)[-1]), 0, frozenset()
    n_positions = len(partition.positions)
    while True:
        out.append((value, x))
        if len(out) >= k:
            break
        prefix = partition.prefix_values(x)
        for q in range(start, n_positions):
            ex = (excluded if q == start else frozenset()) | {int(x[partition.positions[q][1]])}
            v = partition.value(x, prefix, q, ex)
            if v > -np.inf:
                heapq.heappush(heap, (-v, next(tie), x, q, ex))
        if not heap:
            break
        neg, _, parent, start, excluded = heapq.heappop(heap)
        x, value = partition.solve(parent, start, excluded), -neg
    return out
