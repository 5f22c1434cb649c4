"""Moral graphs and greedy elimination orders (min-fill, weighted min-fill, min-weight).

An elimination order fixes the cliques of the junction tree: eliminating v creates the clique {v} ∪ N(v) and
connects v's remaining neighbours (fill-in edges). Greedy heuristics (Kjaerulff 1990; Koller & Friedman §9.4.3):

* ``min-fill``: fewest fill-in edges, ties broken by the clique's table size;
* ``weighted-min-fill``: smallest sum over fill-in edges of |U|·|W|, ties by table size;
* ``min-weight``: smallest clique table size Π_{u ∈ {v} ∪ N(v)} |U|.

:func:`best_elimination_order` eliminates simplicial vertices first (no fill, whatever the heuristic), then runs
min-fill and min-weight and keeps the order with the smallest total table size; the second run stops as soon as
its running total exceeds the first one's (it can no longer win). With equal cardinalities min-weight is
min-degree, which min-fill beats in practice, and only min-fill runs.

The graph is held as bit sets (one Python int per vertex), so a score costs one AND and one popcount per
neighbour instead of a pairwise scan; scores are kept in a heap (stale entries skipped) and after eliminating
v only its neighbours are rescored, plus — when fill-in edges were added — the vertices adjacent to both ends
of one (their fill drops). Ties go to the smaller vertex index, exactly as the textbook loop that rescores
everything and takes the least (score, index).

Every order can be bounded by ``max_clique`` (table entries): the greedy loop stops with :class:`CliqueTooLarge`
as soon as the vertex it picks would create a bigger clique, so a network whose junction tree could never fit
(a 60×60 grid) costs the few steps up to that point, not a full run of every heuristic. A bounded order also
refuses a clique over more than :data:`MAX_CLIQUE_VARS` variables: a clique table has one numpy axis per
variable plus two batch axes, and numpy allows 64 axes (einsum 52 subscripts). The engine never gives
one-state variables an axis (docs/inference.md §7), so with two or more states per variable the entry bound
binds long before this one; it is there so that no budget, however large, reaches numpy's limit.
"""
from __future__ import annotations

import heapq
import math
from typing import Iterable, Sequence

from bnstudio.errors import MemoryBudgetExceeded

HEURISTICS = ("min-fill", "weighted-min-fill", "min-weight")
COMPILE_HEURISTICS = ("min-fill", "min-weight")  # what compilation tries (see best_elimination_order)
MAX_CLIQUE_VARS = 50  # variables in one bounded clique: numpy's 64 axes less 2 batch axes, einsum's 52 subscripts


class CliqueTooLarge(MemoryBudgetExceeded):
    """An elimination order stopped because its next clique would exceed the ``max_clique`` bound."""

    def __init__(self, heuristic: str, n_vars: int, size: int, eliminated: int, total: int, limit: float) -> None:
        bound = f"{limit:.3g} entries" + (f", {MAX_CLIQUE_VARS} variables" if n_vars > MAX_CLIQUE_VARS else "")
        super().__init__(f"{heuristic} elimination reached a clique over {n_vars} variables with {size:.3g} "
                         f"entries after eliminating {eliminated} of {total} variables (limit {bound})")
        self.heuristic, self.n_vars, self.size = heuristic, n_vars, size
        self.eliminated, self.total, self.limit = eliminated, total, limit


class _Beaten(Exception):
    """A run's running total passed the bound it was given: it cannot be the best order."""


def moral_graph(n_vars: int, families: Iterable[Sequence[int]]) -> list[set[int]]:
    """Adjacency sets of the moral graph: each family {X} ∪ Pa(X) becomes a clique."""
    adj: list[set[int]] = [set() for _ in range(n_vars)]
    for fam in families:
        for a in fam:
            adj[a].update(b for b in fam if b != a)
    return adj


def _members(bits: int) -> list[int]:
    """Indices of the set bits, ascending."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


class OrderStats:  # a slotted class, not a dataclass or NamedTuple: cheaper to import (a first query waits for it)
    """An order and the cliques it creates (each sorted, in elimination order); the largest clique (the order's
    width + 1; the width is an upper bound on the treewidth, equal to it for an optimal order) and the total
    table size."""

    __slots__ = ("heuristic", "order", "cliques", "max_clique_vars", "max_clique_size", "total_size")

    def __init__(self, heuristic: str, order: tuple[int, ...], cliques: tuple[tuple[int, ...], ...],
                 max_clique_vars: int, max_clique_size: int, total_size: int) -> None:
        self.heuristic = heuristic
        self.order = order
        self.cliques = cliques
        self.max_clique_vars = max_clique_vars
        self.max_clique_size = max_clique_size
        self.total_size = total_size

    @property
    def width(self) -> int:
        """The triangulation's width: variables in the largest clique − 1 (an upper bound on the treewidth)."""
        return self.max_clique_vars - 1


class _Greedy:
    """One greedy elimination run over a bit-set graph (see module docstring).

    Kept per vertex: its clique weight |v| Π_{u ∈ N(v)} |u| (updated by division and multiplication when
    its neighbourhood changes) and, for the fill heuristics, its fill. A neighbour of the eliminated vertex
    has its fill recomputed; a vertex two steps away loses the new fill edges between its own neighbours
    (min-fill: counted by popcounts; weighted: recomputed).
    """

    def __init__(self, adj: Sequence[Iterable[int]], cards: Sequence[int], heuristic: str) -> None:
        if heuristic not in HEURISTICS:
            raise ValueError(f"unknown heuristic {heuristic!r}; use one of {HEURISTICS}")
        self.cards = list(cards)
        self.heuristic = heuristic
        self.nbrs = [set(a) for a in adj]
        self.bits = [sum(1 << u for u in a) for a in self.nbrs]
        self._card_masks: list[tuple[int, int]] | None = None

    @property
    def card_masks(self) -> list[tuple[int, int]]:
        """(cardinality, bit set of the vertices with it) for each cardinality (weighted-min-fill)."""
        if self._card_masks is None:
            masks: dict[int, int] = {}
            for v, c in enumerate(self.cards):
                masks[c] = masks.get(c, 0) | (1 << v)
            self._card_masks = sorted(masks.items())
        return self._card_masks

    def fill(self, v: int) -> int:
        """The number of fill-in edges (min-fill), or Σ_{fill edges ab} |a||b| (weighted-min-fill).

        Edges among N(v) are counted by one AND and popcount per neighbour: fill = (d(d-1) - Σ_a |N(v) ∩
        N(a)|) / 2; weighted, Σ |a||b| over non-adjacent pairs = ((Σ|a|)² - Σ|a|² - Σ_a |a| W(N(v) ∩ N(a)))
        / 2 with W(S) = Σ_{b ∈ S} |b| counted per cardinality class by popcounts.
        """
        bits, nb, nv = self.bits, self.bits[v], self.nbrs[v]
        if self.heuristic == "min-fill":
            common = 0
            for a in nv:
                common += (nb & bits[a]).bit_count()
            return (len(nv) * (len(nv) - 1) - common) // 2
        cards = self.cards
        by_card = [(k, nb & mask) for k, mask in self.card_masks if nb & mask]
        total = squares = adjacent = 0
        for a in nv:
            c = cards[a]
            total += c
            squares += c * c
            row = bits[a]
            adjacent += c * sum(k * (part & row).bit_count() for k, part in by_card)
        return (total * total - squares - adjacent) // 2

    def simplicial_prefix(self, max_clique: float | None = None) -> tuple[list[int], list[int], int]:
        """Eliminate simplicial vertices (neighbourhood already a clique: no fill) while there are any;
        returns (order, cliques as bit sets, total size). Any order creates a clique holding a simplicial
        vertex's neighbourhood, so doing them first costs no fill and no bigger clique, whatever comes next."""
        bits, nbrs, cards = self.bits, self.nbrs, self.cards
        order: list[int] = []
        cliques: list[int] = []
        total = 0
        stack = list(range(len(bits) - 1, -1, -1))
        done = [False] * len(bits)
        while stack:
            v = stack.pop()
            if done[v]:
                continue
            nb, nv = bits[v], nbrs[v]
            d = len(nv)
            if sum((nb & bits[a]).bit_count() for a in nv) != d * (d - 1):
                continue
            size = cards[v] * math.prod(cards[u] for u in nv)
            if max_clique is not None and (size > max_clique or d >= MAX_CLIQUE_VARS):
                raise CliqueTooLarge("simplicial", d + 1, size, len(order), len(bits), max_clique)
            drop = ~(1 << v)
            for a in nv:
                bits[a] &= drop
                nbrs[a].discard(v)
                if not done[a]:
                    stack.append(a)
            done[v] = True
            order.append(v)
            cliques.append(nb | (1 << v))
            total += size
            bits[v], nbrs[v] = 0, set()
        return order, cliques, total

    def copy(self, heuristic: str) -> "_Greedy":
        """The same graph (as it is now) for another heuristic."""
        other = _Greedy((), (), heuristic)
        other.cards, other.bits, other.nbrs = self.cards, list(self.bits), [set(a) for a in self.nbrs]
        return other

    def run(self, keep: Iterable[int] = (), max_clique: float | None = None,
            bound: float | None = None, before: int = 0) -> tuple[list[int], list[int], int]:
        """(order of the non-kept vertices, their cliques as bit sets, total clique size). Raises
        CliqueTooLarge past ``max_clique`` and _Beaten once the running total exceeds ``bound``; ``before``
        vertices were eliminated before this run (for the message)."""
        bits, nbrs, cards = self.bits, self.nbrs, self.cards
        n = len(bits)
        keep = set(keep)
        alive = [v not in keep for v in range(n)]
        weight = [math.prod(cards[u] for u in nbrs[v]) * cards[v] if alive[v] else 0 for v in range(n)]
        by_weight = self.heuristic == "min-weight"
        fill = [0] * n if by_weight else [self.fill(v) if alive[v] else 0 for v in range(n)]
        key: list = [(weight[v], 0) if by_weight else (fill[v], weight[v]) for v in range(n)]
        heap = [(key[v], v) for v in range(n) if alive[v]]
        heapq.heapify(heap)
        order: list[int] = []
        cliques: list[int] = []
        total, count = 0, len(heap)
        while len(order) < count:
            score, v = heapq.heappop(heap)
            if not alive[v] or key[v] != score:
                continue
            size = weight[v]
            if max_clique is not None and (size > max_clique or len(nbrs[v]) >= MAX_CLIQUE_VARS):
                raise CliqueTooLarge(self.heuristic, len(nbrs[v]) + 1, size, before + len(order), n, max_clique)
            total += size
            if bound is not None and total > bound:
                raise _Beaten
            nb, nv, cv, drop = bits[v], nbrs[v], cards[v], ~(1 << v)
            added: list[tuple[int, int]] = []
            two_hop = 0
            for a in nv:
                new = nb & ~bits[a] & ~(1 << a)
                w = weight[a] // cv
                if new:
                    two_hop |= bits[a]
                    added.append((a, new))
                    members = _members(new)
                    nbrs[a].update(members)
                    for b in members:
                        w *= cards[b]
                    bits[a] |= new
                bits[a] &= drop
                nbrs[a].discard(v)
                weight[a] = w
            alive[v] = False
            order.append(v)
            cliques.append(nb | (1 << v))
            bits[v], nbrs[v] = 0, set()
            touched = list(nv)
            if not by_weight:
                hops = _members(two_hop & ~nb & drop) if two_hop else []
                self._update_fills(fill, alive, nv, hops, added)
                touched += hops
            for u in touched:
                if alive[u]:
                    k = (weight[u], 0) if by_weight else (fill[u], weight[u])
                    if k != key[u]:
                        key[u] = k
                        heapq.heappush(heap, (k, u))
        return order, cliques, total

    def _update_fills(self, fill: list[int], alive: list[bool], nv: set[int], two_hop: list[int],
                      added: list[tuple[int, int]]) -> None:
        """Fills after an elimination: recomputed for the eliminated vertex's neighbours; for a vertex w two
        steps away (min-fill), minus the new edges between its neighbours: ½ Σ_a |new_a ∩ N(w)|."""
        for a in nv:
            if alive[a]:
                fill[a] = self.fill(a)
        if self.heuristic != "min-fill":
            for w in two_hop:
                if alive[w]:
                    fill[w] = self.fill(w)
            return
        bits = self.bits
        for w in two_hop:
            if alive[w]:
                row = bits[w]
                lost = 0
                for a, new in added:
                    if row >> a & 1:
                        lost += (new & row).bit_count()
                fill[w] -= lost // 2


def elimination_order(adj: list[set[int]], cards: Sequence[int], heuristic: str = "min-fill",
                      keep: Iterable[int] = (), max_clique: float | None = None) -> list[int]:
    """Greedy elimination order over all vertices (vertices in ``keep`` go last, ascending).

    Raises :class:`CliqueTooLarge` before eliminating a vertex whose clique has more than ``max_clique``
    entries.
    """
    return elimination_plan(adj, cards, heuristic, keep, max_clique)[0]


def elimination_plan(adj: list[set[int]], cards: Sequence[int], heuristic: str = "min-fill",
                     keep: Iterable[int] = (), max_clique: float | None = None) -> tuple[list[int], int]:
    """:func:`elimination_order` and the total table size of the cliques it creates (the kept vertices
    are not eliminated and do not count)."""
    keep = sorted(set(keep))
    order, _, total = _Greedy(adj, cards, heuristic).run(keep, max_clique)
    return order + keep, total


def best_elimination_order(adj: list[set[int]], cards: Sequence[int], heuristics: Sequence[str] = COMPILE_HEURISTICS,
                           max_clique: float | None = None) -> OrderStats:
    """Eliminate the simplicial vertices first (see :meth:`_Greedy.simplicial_prefix`), then run each
    heuristic on what is left; keep the order with the smallest total clique table size (ties: the earlier
    heuristic). A later run stops once its running total exceeds the best so far.

    With ``max_clique``, heuristics that exceed it are dropped; when all do, the :class:`CliqueTooLarge` of the
    one that got furthest is raised.
    """
    if len(set(cards)) == 1 and "min-fill" in heuristics:
        # equal cardinalities: min-weight is min-degree, which min-fill beats in practice (Kjaerulff 1990;
        # andes, pigs, win95pts here) — one run instead of two
        heuristics = ("min-fill",)
    graph = _Greedy(adj, cards, heuristics[0])
    prefix, prefix_cliques, prefix_total = graph.simplicial_prefix(max_clique)
    best: OrderStats | None = None
    failures = []
    for h in heuristics if len(prefix) < len(adj) else heuristics[:1]:  # all simplicial: one (empty) run
        try:
            order, cliques, total = graph.copy(h).run(
                keep=prefix, max_clique=max_clique, before=len(prefix),
                bound=best.total_size - prefix_total if best is not None else None)
        except CliqueTooLarge as exc:
            failures.append(exc)
            continue
        except _Beaten:
            continue
        if best is None or prefix_total + total < best.total_size:
            members = tuple(tuple(_members(c)) for c in prefix_cliques + cliques)
            sizes = [math.prod(cards[u] for u in c) for c in members]
            best = OrderStats(h, tuple(prefix + order), members, max((len(c) for c in members), default=0),
                              max(sizes, default=0), prefix_total + total)
    if best is None:
        raise max(failures, key=lambda e: e.eliminated)
    return best
