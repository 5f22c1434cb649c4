"""A junction tree built from an elimination order, with the plans message passing needs made on demand.

Construction (Koller & Friedman §10.4.1): the clique C_v created by eliminating v is linked to the clique of the
first-eliminated variable of C_v \\ {v}; this elimination tree has the running-intersection property. A clique
that is a subset of another is non-maximal; it can only be contained in one of its elimination-tree children's
cliques, and is merged into it. Disconnected pieces are chained with empty separators, so there is one tree,
rooted at clique 0.

Every clique lists its variables in ascending index order. A separator is then in the same relative order in
both neighbours, so a message summed out of one clique broadcasts into the other by a reshape, no transpose.
Arrays carry their batch axes last: clique axis k of clique c is array axis k, followed by (S, N).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Sequence

MERGE_BELOW = 64  # entries: neighbouring cliques this small together become one (see _merge_small)


@dataclass
class JunctionTree:
    """Cliques, tree edges (``parent`` roots the tree at clique 0) and per-directed-edge index plans."""

    cards: tuple[int, ...]
    cliques: list[tuple[int, ...]]
    neighbours: list[list[int]]
    parent: list[int]                   # clique -> its parent towards the root (-1 for the root)
    family_home: list[int]              # variable -> smallest clique holding its family {X} ∪ Pa(X)
    var_home: list[int]                 # variable -> smallest clique containing it (-1: not in the tree)
    _plans: dict = field(default_factory=dict, repr=False)

    @cached_property
    def sizes(self) -> list[int]:
        return [math.prod(self.cards[v] for v in c) for c in self.cliques]

    @property
    def total_size(self) -> int:
        return sum(self.sizes)

    @property
    def width(self) -> int:
        """Variables in the largest clique − 1. Small cliques are merged (:data:`MERGE_BELOW`), so this can exceed
        the width of the elimination order the tree was built from; either is only an upper bound on the
        treewidth."""
        return max((len(c) for c in self.cliques), default=1) - 1

    def shape(self, c: int) -> tuple[int, ...]:
        return tuple(self.cards[v] for v in self.cliques[c])

    def axis_shape(self, c: int, variables) -> tuple[int, ...]:
        """Clique c's shape with 1 for every variable not in ``variables`` (for broadcasting)."""
        keep = set(variables)
        return tuple(self.cards[v] if v in keep else 1 for v in self.cliques[c])

    @cached_property
    def below(self) -> list[int]:
        """Bit mask of the cliques in each clique's rooted subtree (itself included)."""
        masks = [1 << c for c in range(len(self.cliques))]
        for c in reversed(self.preorder):
            p = self.parent[c]
            if p >= 0:
                masks[p] |= masks[c]
        return masks

    @cached_property
    def preorder(self) -> list[int]:
        """Cliques with every parent before its children."""
        children: list[list[int]] = [[] for _ in self.cliques]
        roots: list[int] = []
        for c, p in enumerate(self.parent):
            (children[p] if p >= 0 else roots).append(c)
        out, stack = [], roots[::-1]
        while stack:
            c = stack.pop()
            out.append(c)
            stack.extend(reversed(children[c]))
        return out

    def side(self, i: int, j: int) -> int:
        """Bit mask of the cliques on i's side of the edge i - j."""
        if self.parent[i] == j:
            return self.below[i]
        return ((1 << len(self.cliques)) - 1) ^ self.below[j]

    def plan(self, i: int, j: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """For the message i -> j: the axes of clique i to sum out, and its shape broadcast into clique j."""
        key = (i, j)
        plan = self._plans.get(key)
        if plan is None:
            sep = set(self.cliques[i]).intersection(self.cliques[j])
            plan = self._plans[key] = (tuple(k for k, v in enumerate(self.cliques[i]) if v not in sep),
                                       self.axis_shape(j, sep))
        return plan


def build_junction_tree(cards: Sequence[int], order: Sequence[int], elim_cliques: Sequence[Sequence[int]],
                        families: Sequence[Sequence[int] | None], merge_below: int = MERGE_BELOW) -> JunctionTree:
    """Junction tree from an elimination order and the clique each step created (``elim_cliques[i]`` holds
    ``order[i]``); ``families[v]`` = the variables of v's CPT that get an axis ({v} ∪ Pa(v) less one-state
    variables), None for a variable outside the tree. Neighbouring cliques whose union has at most
    ``merge_below`` entries are merged. A tree holding only one-state variables has one empty clique (it
    homes their constant CPTs)."""
    n = len(order)
    position = {v: i for i, v in enumerate(order)}
    bits = [sum(1 << u for u in c) for c in elim_cliques]
    parent = [-1] * n
    children: list[list[int]] = [[] for _ in range(n)]
    for i, (v, clique) in enumerate(zip(order, elim_cliques, strict=True)):
        rest = [position[u] for u in clique if u != v]
        if rest:
            parent[i] = min(rest)
            children[parent[i]].append(i)
    rep = list(range(n))

    def find(i: int) -> int:
        while rep[i] != i:
            rep[i] = rep[rep[i]]
            i = rep[i]
        return i

    for i in range(n):  # elimination order: children are processed before their parent
        for c in children[i]:
            rc = find(c)
            if not bits[i] & ~bits[rc]:
                rep[i] = rc
                break
    kept = sorted({find(i) for i in range(n)})
    index = {k: j for j, k in enumerate(kept)}
    edges = {(index[find(i)], index[find(p)]) for i, p in enumerate(parent) if p >= 0}
    cliques, neighbours, sizes = _merge_small(cards, [tuple(elim_cliques[k]) for k in kept],
                                              sorted((a, b) for a, b in edges if a != b), merge_below)
    if not cliques and any(f is not None for f in families):  # only one-state variables: one empty clique
        cliques, neighbours, sizes = [()], [[]], [1]
    tree_parent = _root(neighbours)
    family_home, var_home = _homes(sizes, cliques, families, len(cards))
    jt = JunctionTree(tuple(cards), cliques, neighbours, tree_parent, family_home, var_home)
    jt.__dict__["sizes"] = sizes  # the cached property, known already
    return jt


def _merge_small(cards: Sequence[int], cliques: list[tuple[int, ...]], edges: list[tuple[int, int]],
                 limit: int) -> tuple[list[tuple[int, ...]], list[list[int]], list[int]]:
    """Contract tree edges whose two cliques together have at most ``limit`` entries (contracting an edge of
    a junction tree keeps the running-intersection property). Tiny cliques cost a message each, whatever
    their size; merged, a small network answers with a few numpy calls. Returns (cliques, neighbours, sizes)."""
    rep = list(range(len(cliques)))
    members = [set(c) for c in cliques]

    def find(i: int) -> int:
        while rep[i] != i:
            rep[i] = rep[rep[i]]
            i = rep[i]
        return i

    sizes = [math.prod(cards[v] for v in c) for c in cliques]
    small = [(a, b) for a, b in edges if sizes[a] * sizes[b] <= limit * limit and max(sizes[a], sizes[b]) <= limit]
    if not small:
        neighbours: list[list[int]] = [[] for _ in cliques]
        for a, b in edges:
            neighbours[a].append(b)
            neighbours[b].append(a)
        return cliques, neighbours, sizes
    for a, b in sorted(small, key=lambda e: math.prod(cards[v] for v in members[e[0]] | members[e[1]])):
        ra, rb = find(a), find(b)
        union = members[ra] | members[rb]
        if ra != rb and math.prod(cards[v] for v in union) <= limit:
            rep[rb], members[ra] = ra, union
    roots = sorted({find(i) for i in range(len(cliques))})
    index = {r: j for j, r in enumerate(roots)}
    neighbours = [[] for _ in roots]
    for a, b in edges:
        ra, rb = index[find(a)], index[find(b)]
        if ra != rb and rb not in neighbours[ra]:
            neighbours[ra].append(rb)
            neighbours[rb].append(ra)
    merged = [tuple(sorted(members[r])) for r in roots]
    return merged, neighbours, [math.prod(cards[v] for v in c) for c in merged]


def _root(neighbours: list[list[int]]) -> list[int]:
    """Parent pointers of the forest rooted at the first clique of each piece; the pieces are chained (each
    root becomes a child of the previous piece's root, an empty separator) so that there is one tree."""
    parent = [-2] * len(neighbours)
    previous_root = -1
    for start in range(len(neighbours)):
        if parent[start] != -2:
            continue
        parent[start] = previous_root
        if previous_root >= 0:
            neighbours[start].append(previous_root)
            neighbours[previous_root].append(start)
        previous_root = start
        stack = [start]
        while stack:
            c = stack.pop()
            for d in neighbours[c]:
                if parent[d] == -2:
                    parent[d] = c
                    stack.append(d)
    return parent


def _homes(sizes: list[int], cliques: list[tuple[int, ...]], families: Sequence[Sequence[int] | None],
           n_vars: int) -> tuple[list[int], list[int]]:
    """The smallest clique holding each family, and each variable (ties: the lower clique index). A family
    without axes (a one-state root: a constant) is homed at the root, clique 0; a variable outside the tree
    (None) or in no clique (one state) has home -1."""
    by_size = sorted(range(len(cliques)), key=lambda c: (sizes[c], c))
    var_home = [-1] * n_vars
    containing: dict[int, list[int]] = {}
    for c in by_size:  # smallest first: the first clique seen holding v is its home
        for v in cliques[c]:
            if var_home[v] < 0:
                var_home[v] = c
            containing.setdefault(v, []).append(c)
    sets = [frozenset(c) for c in cliques]
    family_home = []
    for fam in families:
        if fam is None or len(fam) <= 1:  # outside the tree, a constant, or one variable: that variable's home
            family_home.append(-1 if fam is None else var_home[fam[0]] if fam else 0)
            continue
        family_home.append(next((c for c in containing.get(fam[-1], ()) if sets[c].issuperset(fam)), -1))
    return family_home, var_home
