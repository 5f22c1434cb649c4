"""A junction tree built from an elimination order, with everything message passing needs precomputed.

Construction (Koller & Friedman §10.4.1): the clique C_v created by eliminating v is linked to the clique of the
first-eliminated variable of C_v \\ {v}; this elimination tree has the running-intersection property. A clique
that is a subset of another is non-maximal; it can only be contained in one of its elimination-tree children's
cliques, and is merged into it. Disconnected pieces are chained with empty separators, so there is one tree.

Every clique lists its variables in ascending index order. A separator is then in the same relative order in
both neighbours, so a message summed out of one clique broadcasts into the other by a reshape, no transpose.
"""
from __future__ import annotations

import math
from functools import cached_property
from dataclasses import dataclass, field
from typing import Sequence

from bnstudio.inference.elimination import elimination_cliques


@dataclass
class JunctionTree:
    """Cliques, tree edges and per-directed-edge index plans for batched message passing.

    Arrays in the engine carry two leading batch axes (parameter sets S, evidence cases N), so clique axis k
    of clique c is array axis 2 + k.
    """

    cards: tuple[int, ...]
    cliques: list[tuple[int, ...]]
    neighbours: list[list[int]]
    family_home: list[int]              # variable -> clique holding its family {X} ∪ Pa(X)
    var_home: list[int]                 # variable -> smallest clique containing it
    sum_axes: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    into_shape: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    subtree_mask: dict[tuple[int, int], int] = field(default_factory=dict)

    @cached_property
    def sizes(self) -> list[int]:
        return [math.prod(self.cards[v] for v in c) for c in self.cliques]

    @property
    def total_size(self) -> int:
        return sum(self.sizes)

    @property
    def treewidth(self) -> int:
        return max((len(c) for c in self.cliques), default=1) - 1

    def shape(self, c: int) -> tuple[int, ...]:
        return tuple(self.cards[v] for v in self.cliques[c])

    def axis_shape(self, c: int, variables: Sequence[int]) -> tuple[int, ...]:
        """Clique c's shape with 1 for every variable not in ``variables`` (for broadcasting)."""
        keep = set(variables)
        return tuple(self.cards[v] if v in keep else 1 for v in self.cliques[c])


def build_junction_tree(adj: list[set[int]], cards: Sequence[int], order: Sequence[int],
                        families: Sequence[Sequence[int]]) -> JunctionTree:
    """Junction tree of the moral graph ``adj`` for ``order``; ``families[v]`` = {v} ∪ Pa(v) as indices."""
    n = len(order)
    elim = elimination_cliques(adj, order)
    position = {v: i for i, v in enumerate(order)}
    parent = [-1] * n
    for i, (v, clique) in enumerate(zip(order, elim)):
        rest = [u for u in clique if u != v]
        if rest:
            parent[i] = min(position[u] for u in rest)
    rep = list(range(n))

    def find(i: int) -> int:
        while rep[i] != i:
            rep[i] = rep[rep[i]]
            i = rep[i]
        return i

    children: list[list[int]] = [[] for _ in range(n)]
    for i, p in enumerate(parent):
        if p >= 0:
            children[p].append(i)
    for i in range(n):  # elimination order: children are processed before their parent
        for c in children[i]:
            rc = find(c)
            if elim[i] <= elim[rc]:
                rep[i] = rc
                break
    kept = sorted({find(i) for i in range(n)})
    index = {k: j for j, k in enumerate(kept)}
    edges = set()
    for i, p in enumerate(parent):
        if p >= 0:
            a, b = index[find(i)], index[find(p)]
            if a != b:
                edges.add((min(a, b), max(a, b)))
    cliques = [tuple(sorted(elim[k])) for k in kept]
    neighbours: list[list[int]] = [[] for _ in cliques]
    for a, b in sorted(edges):
        neighbours[a].append(b)
        neighbours[b].append(a)
    _chain_components(neighbours)
    sets = [set(c) for c in cliques]
    by_size = sorted(range(len(cliques)), key=lambda c: (math.prod(cards[v] for v in cliques[c]), c))
    family_home = [next(c for c in by_size if sets[c].issuperset(fam)) for fam in families]
    var_home = [next(c for c in by_size if v in sets[c]) for v in range(len(cards))]
    jt = JunctionTree(tuple(cards), cliques, neighbours, family_home, var_home)
    _plan_messages(jt)
    return jt


def _chain_components(neighbours: list[list[int]]) -> None:
    """Link the trees of a forest in a chain (empty separators) so that message passing sees one tree."""
    seen: set[int] = set()
    roots = []
    for start in range(len(neighbours)):
        if start in seen:
            continue
        roots.append(start)
        stack = [start]
        seen.add(start)
        while stack:
            c = stack.pop()
            for d in neighbours[c]:
                if d not in seen:
                    seen.add(d)
                    stack.append(d)
    for a, b in zip(roots, roots[1:]):
        neighbours[a].append(b)
        neighbours[b].append(a)


def _plan_messages(jt: JunctionTree) -> None:
    """For each directed edge i->j: axes of clique i to sum out, the broadcast shape in j, the subtree of i."""
    for i, nbrs in enumerate(jt.neighbours):
        for j in nbrs:
            sep = set(jt.cliques[i]) & set(jt.cliques[j])
            jt.sum_axes[(i, j)] = tuple(2 + k for k, v in enumerate(jt.cliques[i]) if v not in sep)
            jt.into_shape[(i, j)] = jt.axis_shape(j, sep)
    for i, nbrs in enumerate(jt.neighbours):
        for j in nbrs:
            if (i, j) not in jt.subtree_mask:
                _fill_masks(jt, i, j)


def _fill_masks(jt: JunctionTree, i: int, j: int) -> None:
    """Bit mask of the cliques on i's side of edge (i, j), for every directed edge on that side (iterative)."""
    stack = [(i, j, False)]
    while stack:
        a, b, done = stack.pop()
        if done:
            mask = 1 << a
            for c in jt.neighbours[a]:
                if c != b:
                    mask |= jt.subtree_mask[(c, a)]
            jt.subtree_mask[(a, b)] = mask
            continue
        stack.append((a, b, True))
        stack.extend((c, a, False) for c in jt.neighbours[a] if c != b and (c, a) not in jt.subtree_mask)
