"""Expert knowledge for structure search: required and forbidden arcs, tiers, a parent limit.

Prior knowledge restricts the set of possible structures (tutorial, "Optimization Problem", MP1-121:
"Set of possible structures, including prior knowledge about structure"). Semantics:

* a **required** arc is in every learned structure and no move deletes or reverses it;
* a **forbidden** arc is never added (nor produced by a reversal);
* **tiers** are a list of lists of variable names; a variable in a later tier cannot be a parent of one in an
  earlier tier (arcs within a tier and forwards are allowed; variables in no tier are unconstrained);
* ``max_parents`` bounds every parent set.

Impossible sets are refused up front with a message naming the culprits: unknown names, self-loops, an arc
both required and forbidden, required arcs forming a cycle (:class:`CycleError`), a required arc pointing to
an earlier tier, a variable with more required parents than ``max_parents``.

>>> c = Constraints.build(["A", "B", "C"], required=[("A", "B")], tiers=[["A"], ["B", "C"]])
>>> bool(c.allowed[1, 0]), bool(c.allowed[0, 2])   # B -> A goes backwards across tiers; A -> C is fine
(False, True)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import networkx as nx
import numpy as np

from bnstudio.errors import CycleError, ValidationError

Arc = tuple[str, str]


def parse_arc(text: str) -> Arc:
    """``"A->B"`` -> ``("A", "B")`` (spaces around names are ignored)."""
    parent, sep, child = str(text).partition("->")
    if not sep or not parent.strip() or not child.strip():
        raise ValidationError(f"malformed arc {text!r}: use PARENT->CHILD")
    return parent.strip(), child.strip()


def _arcs(items: Iterable, what: str, index: dict[str, int]) -> list[tuple[int, int]]:
    out = []
    for item in items or ():
        parent, child = parse_arc(item) if isinstance(item, str) else tuple(item)
        for name in (parent, child):
            if name not in index:
                raise ValidationError(f"unknown variable '{name}' in {what} arc {parent}->{child}")
        if parent == child:
            raise ValidationError(f"{what} arc {parent}->{child} is a self-loop")
        if (index[parent], index[child]) not in out:
            out.append((index[parent], index[child]))
    return out


@dataclass
class Constraints:
    """Constraints over variables ``0..V-1`` (names kept for messages).

    ``allowed[i, j]`` says whether the arc i -> j may ever be present (not forbidden, tiers respected);
    ``required`` lists required arcs as index pairs; ``max_parents`` is None for no limit.
    """

    names: list[str]
    allowed: np.ndarray
    required: list[tuple[int, int]]
    max_parents: int | None

    @classmethod
    def build(cls, names: Sequence[str], required: Iterable = (), forbidden: Iterable = (),
              tiers: Sequence[Sequence[str]] | None = None, max_parents: int | None = None) -> "Constraints":
        """Validate and index the constraints (see the module docstring for what is refused)."""
        names = list(names)
        index = {n: i for i, n in enumerate(names)}
        req = _arcs(required, "required", index)
        forb = _arcs(forbidden, "forbidden", index)
        if max_parents is not None and (isinstance(max_parents, bool) or int(max_parents) != max_parents
                                        or max_parents < 0):
            raise ValidationError(f"max_parents must be a non-negative integer, got {max_parents!r}")
        v = len(names)
        allowed = np.ones((v, v), dtype=bool)
        np.fill_diagonal(allowed, False)
        for i, j in forb:
            allowed[i, j] = False
        tier = _tier_of(tiers, index)
        rank = np.array([-1 if t is None else t for t in tier], dtype=np.int64)
        placed = rank >= 0
        if placed.any():            # V × V temporaries only when there are tiers
            allowed &= ~(placed[:, None] & placed[None, :] & (rank[:, None] > rank[None, :]))
        both = [f"{names[i]}->{names[j]}" for i, j in req if (i, j) in forb]
        if both:
            raise ValidationError(f"arcs both required and forbidden: {', '.join(both)}")
        backwards = [f"{names[i]}->{names[j]} (tier {rank[i] + 1} to tier {rank[j] + 1})"
                     for i, j in req if not allowed[i, j]]
        if backwards:
            raise ValidationError(f"required arcs point to an earlier tier: {', '.join(backwards)}")
        graph = nx.DiGraph(req)
        try:
            cycle = [names[a] for a, _ in nx.find_cycle(graph)]
        except nx.NetworkXNoCycle:
            cycle = []
        if cycle:
            raise CycleError(f"required arcs form the cycle {' -> '.join(cycle + cycle[:1])}", cycle + cycle[:1])
        if max_parents is not None:
            for j in range(v):
                ps = [names[i] for i, c in req if c == j]
                if len(ps) > max_parents:
                    raise ValidationError(f"'{names[j]}' has {len(ps)} required parents ({', '.join(ps)}) "
                                          f"but max_parents is {max_parents}")
        return cls(names, allowed, req, None if max_parents is None else int(max_parents))

    def required_parents(self) -> list[set[int]]:
        """The required parent set of every variable."""
        out: list[set[int]] = [set() for _ in self.names]
        for i, j in self.required:
            out[j].add(i)
        return out

    def is_required(self, i: int, j: int) -> bool:
        return (i, j) in self._required_set

    def __post_init__(self) -> None:
        self._required_set = set(self.required)

    def check_structure(self, parents: Sequence[Iterable[int]], what: str = "start network") -> None:
        """Refuse a structure that breaks the forbidden arcs, tiers or parent limit (naming the arcs)."""
        bad = [f"{self.names[i]}->{self.names[j]}" for j, ps in enumerate(parents) for i in ps
               if not self.allowed[i, j]]
        if bad:
            raise ValidationError(f"{what} has forbidden or tier-breaking arcs: {', '.join(bad)}")
        if self.max_parents is not None:
            over = [self.names[j] for j, ps in enumerate(parents) if len(set(ps)) > self.max_parents]
            if over:
                raise ValidationError(f"{what} gives more than {self.max_parents} parents to: {', '.join(over)}")

    def with_required(self, parents: Sequence[Iterable[int]], what: str = "start network") -> list[set[int]]:
        """``parents`` plus the required arcs, refused with a :class:`CycleError` if that closes a cycle."""
        out = [set(ps) for ps in parents]
        for i, j in self.required:
            out[j].add(i)
        graph = nx.DiGraph([(i, j) for j, ps in enumerate(out) for i in ps])
        try:
            cycle = [self.names[a] for a, _ in nx.find_cycle(graph)]
        except nx.NetworkXNoCycle:
            return out
        raise CycleError(f"{what} with the required arcs has the cycle {' -> '.join(cycle + cycle[:1])}",
                         cycle + cycle[:1])


def _tier_of(tiers: Sequence[Sequence[str]] | None, index: dict[str, int]) -> list[int | None]:
    tier: list[int | None] = [None] * len(index)
    if tiers is None:
        return tier
    if isinstance(tiers, (str, bytes)):
        raise ValidationError("tiers must be a list of lists of variable names")
    for t, group in enumerate(tiers):
        if isinstance(group, (str, bytes)):
            raise ValidationError(f"tier {t + 1} must be a list of variable names, got {group!r}")
        for name in group:
            if name not in index:
                raise ValidationError(f"unknown variable '{name}' in tier {t + 1}")
            earlier = tier[index[name]]
            if earlier is not None and earlier != t:
                raise ValidationError(f"variable '{name}' is in tier {earlier + 1} and tier {t + 1}")
            tier[index[name]] = t
    return tier
