"""Moral graphs and greedy elimination orders (min-fill, weighted min-fill, min-weight).

An elimination order fixes the cliques of the junction tree: eliminating v creates the clique {v} ∪ N(v) and
connects v's remaining neighbours (fill-in edges). Greedy heuristics (Kjaerulff 1990; Koller & Friedman §9.4.3):

* ``min-fill``: fewest fill-in edges, ties broken by the clique's table size;
* ``weighted-min-fill``: smallest sum over fill-in edges of |U|·|W|, ties by table size;
* ``min-weight``: smallest clique table size Π_{u ∈ {v} ∪ N(v)} |U|.

:func:`best_elimination_order` runs all three and keeps the one with the smallest total table size.

Every order can be bounded by ``max_clique`` (table entries): the greedy loop stops with :class:`CliqueTooLarge`
as soon as the vertex it picks would create a bigger clique, so a network whose junction tree could never fit
(a 60×60 grid) costs the few steps up to that point, not a full run of every heuristic.
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Iterable, Sequence

from bnstudio.errors import MemoryBudgetExceeded

HEURISTICS = ("min-fill", "weighted-min-fill", "min-weight")


class CliqueTooLarge(MemoryBudgetExceeded):
    """An elimination order stopped because its next clique would exceed the ``max_clique`` bound."""

    def __init__(self, heuristic: str, n_vars: int, size: int, eliminated: int, total: int, limit: float) -> None:
        super().__init__(f"{heuristic} elimination reached a clique over {n_vars} variables with {size:.3g} "
                         f"entries after eliminating {eliminated} of {total} variables (limit {limit:.3g} entries)")
        self.heuristic, self.n_vars, self.size = heuristic, n_vars, size
        self.eliminated, self.total, self.limit = eliminated, total, limit


def moral_graph(n_vars: int, families: Iterable[Sequence[int]]) -> list[set[int]]:
    """Adjacency sets of the moral graph: each family {X} ∪ Pa(X) becomes a clique."""
    adj: list[set[int]] = [set() for _ in range(n_vars)]
    for fam in families:
        for a in fam:
            adj[a].update(b for b in fam if b != a)
    return adj


def _score(v: int, adj: list[set[int]], cards: Sequence[int], heuristic: str) -> tuple[float, float]:
    nbrs = adj[v]
    weight = cards[v] * math.prod(cards[u] for u in nbrs)
    if heuristic == "min-weight":
        return float(weight), 0.0
    fill = 0.0
    nb = list(nbrs)
    for i, a in enumerate(nb):
        adj_a = adj[a]
        for b in nb[i + 1:]:
            if b not in adj_a:
                fill += cards[a] * cards[b] if heuristic == "weighted-min-fill" else 1.0
    return fill, float(weight)


def elimination_order(adj: list[set[int]], cards: Sequence[int], heuristic: str = "min-fill",
                      keep: Iterable[int] = (), max_clique: float | None = None) -> list[int]:
    """Greedy elimination order over all vertices (vertices in ``keep`` go last, in any order).

    Scores are updated incrementally: eliminating v only changes the scores of v's neighbours and theirs; a
    heap with stale entries skipped gives the vertex of least (score, index) in O(log n). Raises
    :class:`CliqueTooLarge` before eliminating a vertex whose clique has more than ``max_clique`` entries.
    """
    if heuristic not in HEURISTICS:
        raise ValueError(f"unknown heuristic {heuristic!r}; use one of {HEURISTICS}")
    adj = [set(a) for a in adj]
    keep = set(keep)
    alive = set(range(len(adj))) - keep
    scores = {v: _score(v, adj, cards, heuristic) for v in alive}
    heap = [(score, v) for v, score in scores.items()]
    heapq.heapify(heap)
    order: list[int] = []
    while alive:
        score, v = heapq.heappop(heap)
        if v not in alive or scores[v] != score:
            continue
        nbrs = adj[v]
        if max_clique is not None:
            size = cards[v] * math.prod(cards[u] for u in nbrs)
            if size > max_clique:
                raise CliqueTooLarge(heuristic, len(nbrs) + 1, size, len(order), len(adj), max_clique)
        for a in nbrs:
            adj[a].discard(v)
            adj[a].update(u for u in nbrs if u != a)
        adj[v] = set()
        alive.discard(v)
        order.append(v)
        touched = set(nbrs)
        for a in nbrs:
            touched.update(adj[a])
        for u in touched & alive:
            scores[u] = _score(u, adj, cards, heuristic)
            heapq.heappush(heap, (scores[u], u))
    return order + sorted(keep)


def elimination_cliques(adj: list[set[int]], order: Sequence[int]) -> list[frozenset[int]]:
    """The clique {v} ∪ N(v) created when each v is eliminated, in elimination order."""
    adj = [set(a) for a in adj]
    cliques = []
    for v in order:
        nbrs = adj[v]
        cliques.append(frozenset(nbrs | {v}))
        for a in nbrs:
            adj[a].discard(v)
            adj[a].update(u for u in nbrs if u != a)
        adj[v] = set()
    return cliques


@dataclass(frozen=True)
class OrderStats:
    """Size of the cliques an order creates: the largest clique (treewidth + 1) and the total table size."""

    heuristic: str
    order: tuple[int, ...]
    max_clique_vars: int
    max_clique_size: int
    total_size: int

    @property
    def treewidth(self) -> int:
        return self.max_clique_vars - 1


def order_stats(adj: list[set[int]], cards: Sequence[int], order: Sequence[int], heuristic: str) -> OrderStats:
    cliques = elimination_cliques(adj, order)
    sizes = [math.prod(cards[v] for v in c) for c in cliques]
    return OrderStats(heuristic, tuple(order), max((len(c) for c in cliques), default=0),
                      max(sizes, default=0), sum(sizes))


def best_elimination_order(adj: list[set[int]], cards: Sequence[int], heuristics: Sequence[str] = HEURISTICS,
                           max_clique: float | None = None) -> OrderStats:
    """Try each heuristic; keep the order with the smallest total clique table size.

    With ``max_clique``, heuristics that exceed it are dropped; when all do, the :class:`CliqueTooLarge` of the
    one that got furthest is raised.
    """
    results, failures = [], []
    for h in heuristics:
        try:
            results.append(order_stats(adj, cards, elimination_order(adj, cards, h, max_clique=max_clique), h))
        except CliqueTooLarge as exc:
            failures.append(exc)
    if not results:
        raise max(failures, key=lambda e: e.eliminated)
    return min(results, key=lambda s: (s.total_size, s.max_clique_size))
