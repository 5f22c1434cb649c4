"""Comparing structures: structural Hamming distance between DAGs and between their equivalence classes.

Markov-equivalent DAGs share their skeleton and v-structures (tutorial, "I-Equivalent Bayesian Networks",
MP1-19), and the scores bic and bdeu cannot tell them apart, so a fair comparison also looks at the completed
partially directed graphs (CPDAGs): the skeleton with the compelled arcs directed, found from the v-structures by
Meek's orientation rules R1–R3.

>>> shd([("A", "B"), ("B", "C")], [("B", "A"), ("B", "C")])          # one reversed arc
1
>>> shd([("A", "B"), ("B", "C")], [("B", "A"), ("B", "C")], cpdag=True)  # same equivalence class
0
"""
from __future__ import annotations

from typing import Hashable, Iterable

Arc = tuple[Hashable, Hashable]


def _marks(arcs: Iterable[Arc], cpdag: bool) -> dict[frozenset, object]:
    """Per adjacent pair: the arc (parent, child), or the pair itself when undirected in the CPDAG."""
    arcs = {(p, c) for p, c in arcs}  # pairs given as lists become tuples
    if not cpdag:
        return {frozenset(a): a for a in arcs}
    directed, undirected = pdag(arcs)
    out: dict[frozenset, object] = {frozenset(a): a for a in directed}
    out.update({pair: pair for pair in undirected})
    return out


def shd(learned: Iterable[Arc], truth: Iterable[Arc], cpdag: bool = False) -> int:
    """Structural Hamming distance: pairs whose edge differs (missing, extra or differently oriented).

    With ``cpdag=True`` both graphs are first replaced by their CPDAGs (see :func:`pdag`).
    """
    a, b = _marks(learned, cpdag), _marks(truth, cpdag)
    return sum(1 for pair in set(a) | set(b) if a.get(pair) != b.get(pair))


def pdag(arcs: Iterable[Arc]) -> tuple[set[Arc], set[frozenset]]:
    """The CPDAG of a DAG: (compelled arcs, undirected pairs), from its v-structures and Meek's R1–R3."""
    arcs = {(p, c) for p, c in arcs}  # pairs given as lists become tuples
    parents: dict[Hashable, set] = {}
    for p, c in arcs:
        parents.setdefault(c, set()).add(p)
    adjacent = {frozenset(a) for a in arcs}
    adj = lambda x, y: frozenset((x, y)) in adjacent  # noqa: E731
    directed = {(p, c) for c, ps in parents.items() for p in ps
                if any(q != p and not adj(p, q) for q in ps)}
    undirected = {frozenset(a) for a in arcs if a not in directed}
    changed = True
    while changed:
        changed = False
        for pair in sorted(undirected, key=lambda s: sorted(map(str, s))):
            x, y = tuple(pair)
            for b, c in ((x, y), (y, x)):
                if _compelled(b, c, directed, undirected, adj):
                    directed.add((b, c))
                    undirected.discard(pair)
                    changed = True
                    break
    return directed, undirected


def _compelled(b, c, directed: set, undirected: set, adj) -> bool:
    """Whether Meek's R1, R2 or R3 orients the undirected edge b — c as b -> c."""
    into_b = {p for p, q in directed if q == b}
    if any(not adj(a, c) and a != c for a in into_b):                        # R1: a -> b — c
        return True
    if any((b, a) in directed and (a, c) in directed for a in {q for p, q in directed if p == b}):
        return True                                                          # R2: b -> a -> c
    into_c = [a for a, q in directed if q == c and frozenset((a, b)) in undirected]
    return any(not adj(a1, a2) for i, a1 in enumerate(into_c) for a2 in into_c[i + 1:])  # R3
