"""Relevance pruning for a single query (Geiger, Verma & Pearl 1990; Lauritzen et al. 1990).

1. Barren nodes: only the ancestral set An(T ∪ E) of the targets T and the evidence E matters; a node with
   no observed or queried descendant sums out to 1.
2. d-separation: in the moral graph of that ancestral set, delete the evidence nodes; a non-evidence node not
   connected to T is d-separated from T given E. For p(T | e) keep the variables connected to T, plus the
   evidence nodes with a parent among them (their CPTs still constrain T). For p(e) keep the ancestral set.
"""
from __future__ import annotations

from typing import Iterable, Sequence


def ancestral_set(parents: Sequence[Sequence[int]], nodes: Iterable[int]) -> set[int]:
    """The nodes together with all their ancestors."""
    seen = set(nodes)
    stack = list(seen)
    while stack:
        for p in parents[stack.pop()]:
            if p not in seen:
                seen.add(p)
                stack.append(p)
    return seen


def requisite_variables(parents: Sequence[Sequence[int]], targets: Iterable[int], observed: Iterable[int],
                        blocking: Iterable[int] = (), conditional: bool = True) -> set[int]:
    """Variables whose CPTs are needed to answer p(T | e) (``conditional``) or p(T, e).

    ``observed`` are all variables with findings; ``blocking`` those with hard findings (instantiated). Soft
    findings act as observed virtual children: they pull in ancestors but do not block paths. With hard
    evidence fixed, each CPT's free scope is a clique of the moral graph minus the blocking nodes, so the sum
    factorises over that graph's components; only T's component C matters for p(T | e): the CPTs of C's
    variables and of the blocking nodes with a parent in C. Targets must not be blocking (callers pass a
    target's own finding as a likelihood factor).
    """
    targets = set(targets)
    blocking = set(blocking) - targets
    keep = ancestral_set(parents, targets | set(observed) | blocking)
    if not conditional or not targets:
        return keep
    adjacency: dict[int, set[int]] = {v: set() for v in keep}
    for v in keep:
        family = [v, *parents[v]]
        for a in family:
            adjacency[a].update(b for b in family if b != a)
    component = set(targets)
    stack = list(targets)
    while stack:
        for u in adjacency[stack.pop()]:
            if u not in component and u not in blocking:
                component.add(u)
                stack.append(u)
    return component | {v for v in blocking & keep if any(p in component for p in parents[v])}
