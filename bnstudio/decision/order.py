"""The temporal order of an influence diagram under no-forgetting (Jensen, Jensen & Dittmer 1994, §2).

With decisions D1, ..., Dn in the order taken, the chance nodes split into I0 (observed before D1), I1
(observed between D1 and D2), ..., In (never observed): a chance node belongs to I_{k-1} when it is an
informational parent of Dk but of no earlier decision. The partial order I0 ≺ D1 ≺ I1 ≺ ... ≺ Dn ≺ In is
what the decision maker knows when: under no-forgetting, Dk's past is I0 ∪ D1 ∪ ... ∪ I_{k-1}. A *strong
elimination order* eliminates the nodes in the reverse of this partial order: In, Dn, I_{n-1}, ..., D1, I0.
"""
from __future__ import annotations

from bnstudio.decision.outline import Structure


def information_sets(diagram: Structure) -> list[list[str]]:
    """[I0, I1, ..., In]: the chance nodes first observed before each decision, then the never-observed ones."""
    seen: set[str] = set()
    chance = set(diagram.chance_names)
    sets = []
    for d in diagram.decisions:
        new = [p for p in d.parents if p in chance and p not in seen]
        seen.update(new)
        sets.append(new)
    sets.append([v for v in diagram.chance_names if v not in seen])
    return sets


def strong_groups(diagram: Structure) -> list[tuple[str, list[str]]]:
    """The strong elimination order as groups: [("sum", In), ("max", [Dn]), ("sum", I_{n-1}), ..., ("sum", I0)]."""
    sets = information_sets(diagram)
    groups: list[tuple[str, list[str]]] = [("sum", sets[-1])]
    for k in range(len(diagram.decisions) - 1, -1, -1):
        groups += [("max", [diagram.decisions[k].name]), ("sum", sets[k])]
    return groups


def past(diagram: Structure, decision: str) -> list[str]:
    """Everything known when ``decision`` is taken, under no-forgetting (earlier decisions and observations)."""
    sets = information_sets(diagram)
    out: list[str] = []
    for k, d in enumerate(diagram.decisions):
        out += sets[k]
        if d.name == decision:
            return out
        out.append(d.name)
    raise KeyError(decision)
