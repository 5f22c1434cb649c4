"""Relevance reasoning before any propagation (Geiger, Verma & Pearl 1990; Lauritzen et al. 1990, §5).

1. **Barren nodes**: only the ancestral set An(T ∪ E) of the targets T and the evidence E matters; a node with
   no observed or queried descendant sums out to 1.
2. **Evidence absorption**: a hard finding X = x is sliced into every CPT that mentions X, so X leaves the
   graph (its CPT becomes a table over its parents, or a constant when they are observed too).
3. **d-separation**: in the moral graph of the ancestral set with the hard-evidence nodes removed, each CPT's
   free scope is a clique, so Σ_x Π CPTs factorises over the graph's connected components:
   p(e) = Π_c Z_c, and p(T | e) needs only the components holding a target (a node outside them is
   d-separated from T by E). Soft findings are observed virtual children: they pull in ancestors and activate
   colliders but do not block paths.

The components a query does not need still decide whether the evidence is possible (Z_c > 0); see
:func:`bnstudio.inference.variable_elimination.possible` for the cheap check the engine makes on them.
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


class Relevance:  # a slotted class, not a dataclass or NamedTuple: cheaper to import (a first query waits for it)
    """The CPTs that p(e) needs, grouped by moral component (see module docstring)."""

    __slots__ = ("components", "needed", "constant")

    def __init__(self, components: list[list[int]], needed: list[int], constant: list[int]) -> None:
        self.components = components    # per component: the variables whose CPTs have their free scope in it
        self.needed = needed            # indices of the components holding a target
        self.constant = constant        # variables whose whole family is observed: a constant factor each

    def requisite(self) -> list[int]:
        """Variables whose CPTs p(T | e) needs, ascending."""
        return sorted(v for k in self.needed for v in self.components[k])

    def others(self) -> list[list[int]]:
        """The components no target needs (their Z_c only decides whether e is possible)."""
        needed = set(self.needed)
        return [c for k, c in enumerate(self.components) if k not in needed]


def relevance(families: Sequence[Sequence[int]], parents: Sequence[Sequence[int]], targets: Iterable[int],
              observed: Iterable[int], blocking: Iterable[int] = ()) -> Relevance:
    """Group the CPTs of An(T ∪ E) by component of the moral graph minus the ``blocking`` (hard) nodes.

    ``families[v]`` = (Pa(v)..., v). ``observed`` are all variables with findings, ``blocking`` those with hard
    findings. Targets must not be blocking (callers pass a target's own finding as a likelihood factor). With
    no targets every component is needed (p(e)).
    """
    targets = list(targets)
    blocking = set(blocking).difference(targets)
    region = ancestral_set(parents, set(targets) | set(observed) | blocking)
    rep = {v: v for v in region if v not in blocking}

    def find(x: int) -> int:
        root = x
        while rep[root] != root:
            root = rep[root]
        while rep[x] != root:
            rep[x], x = root, rep[x]
        return root

    free_of: dict[int, list[int]] = {}
    constant = []
    for v in region:
        free = [u for u in families[v] if u not in blocking]
        if not free:
            constant.append(v)
            continue
        free_of[v] = free
        root = find(free[0])
        for u in free[1:]:
            other = find(u)
            if other != root:
                rep[other] = root
    groups: dict[int, list[int]] = {}
    for v, free in free_of.items():
        groups.setdefault(find(free[0]), []).append(v)
    keys = list(groups)
    wanted = {find(t) for t in targets}
    needed = [k for k, key in enumerate(keys) if key in wanted] if targets else list(range(len(keys)))
    return Relevance([groups[key] for key in keys], needed, constant)
