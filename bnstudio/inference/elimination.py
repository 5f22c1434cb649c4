"""Moral graphs and greedy elimination orders (min-fill, weighted min-fill, min-weight).

An elimination order fixes the cliques of the junction tree: eliminating v creates the clique {v} ∪ N(v) and
connects v's remaining neighbours (fill-in edges). Greedy heuristics (Kjaerulff 1990; Koller & Friedman §9.4.3):

* ``min-fill``: fewest fill-in edges, ties broken by the clique's table size;
* ``weighted-min-fill``: smallest sum over fill-in edges of |U|·|W|, ties by table size;
* ``min-weight``: smallest clique table size Π_{u ∈ {v} ∪ N(v)} |U|.

:func:`best_elimination_order` runs all three and keeps the one with the smallest total table size.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

HEURISTICS = ("min-fill", "weighted-min-fill", "min-weight")


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
                      keep: Iterable[int] = ()) -> list[int]:
    """Greedy elimination order over all vertices (vertices in ``keep`` go last, in any order).

    Scores are updated incrementally: eliminating v only changes the scores of v's neighbours and theirs.
    """
    if heuristic not in HEURISTICS:
        raise ValueError(f"unknown heuristic {heuristic!r}; use one of {HEURISTICS}")
    adj = [set(a) for a in adj]
    keep = set(keep)
    alive = set(range(len(adj))) - keep
    scores = {v: _score(v, adj, cards, heuristic) for v in alive}
    order: list[int] = []
    while alive:
        v = min(alive, key=lambda u: (scores[u], u))
        nbrs = adj[v]
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


def best_elimination_order(adj: list[set[int]], cards: Sequence[int],
                           heuristics: Sequence[str] = HEURISTICS) -> OrderStats:
    """Try each heuristic; keep the order with the smallest total clique table size."""
    results = [order_stats(adj, cards, elimination_order(adj, cards, h), h) for h in heuristics]
    return min(results, key=lambda s: (s.total_size, s.max_clique_size))
