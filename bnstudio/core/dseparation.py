"""d-separation and the Markov blanket: pure graph queries on a network's DAG, linear in its size.

X and Y are **d-separated** by a set Z (X ⊥ Y | Z in every distribution the DAG factorises) when every trail
between them is blocked: it holds a non-collider in Z, or a collider (→ W ←) with neither W nor any
descendant of W in Z (Pearl 1988, §3.3). :func:`reachable` is the linear-time "Reachable" search (Koller &
Friedman 2009, Algorithm 3.1; Shachter's Bayes-ball, 1998), a ball passed along (node, direction) pairs,
each visited once:

* arriving at an unobserved node from a child (going up) it passes on to the node's parents and children;
* arriving at an unobserved node from a parent (going down) it passes on to the node's children only;
* arriving at an observed node from a parent it bounces back up to the node's parents when the node is in
  An(Z) (a collider with an observed descendant is open), and stops otherwise.

The observed nodes the ball arrives at are the **requisite findings** of the query: a finding E_i is reached
from T given Z exactly when E_i and T are d-connected given Z \\ {E_i} (a collider opened only by E_i itself
leads down to E_i along an unobserved directed path), so the findings not reached are those that cannot
change p(T | e). A *soft* finding (likelihood evidence on V) is an observed virtual child of V: it opens the
colliders above V but blocks nothing.

The **Markov blanket** of X is its parents, its children and its children's other parents: given them, X is
d-separated from every other variable.

>>> from bnstudio.core import network_from_dsl
>>> net = network_from_dsl("A->C; B->C; C->D")
>>> d_separated(net, ["A"], ["B"]), d_separated(net, ["A"], ["B"], ["D"])
(True, False)
>>> markov_blanket(net, "A").members
['C', 'B']
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from bnstudio.core.network import Network
from bnstudio.errors import EvidenceError, UnknownVariableError

UP, DOWN = 0, 1   # the ball arrives at a node from one of its children / from one of its parents


def _children_of(net: Network) -> dict[str, list[str]]:
    """{variable: its children} in one pass over the arcs (``Network.children`` scans every variable)."""
    children: dict[str, list[str]] = {v: [] for v in net.variables}
    for parent, child in net.arcs():
        children[parent].append(child)
    return children


def _ancestors(net: Network, nodes: Iterable[str]) -> set[str]:
    """The nodes together with all their ancestors."""
    seen = set(nodes)
    stack = list(seen)
    while stack:
        for p in net.parents(stack.pop()):
            if p not in seen:
                seen.add(p)
                stack.append(p)
    return seen


def _names(net: Network, names: Iterable[str], what: str) -> list[str]:
    """The names as a list, each checked to be a variable of ``net`` (one line naming the first unknown)."""
    out = [names] if isinstance(names, str) else list(names)
    for name in out:
        if name not in net:
            raise UnknownVariableError(f"unknown variable '{name}' in the {what}")
    return out


def reachable(net: Network, sources: Iterable[str], observed: Iterable[str] = (), soft: Iterable[str] = (),
              children: dict[str, list[str]] | None = None) -> tuple[set[str], set[str]]:
    """(unobserved nodes d-connected to ``sources`` given ``observed``, sources included; observed nodes the
    ball reaches, i.e. the requisite findings). ``soft`` nodes carry likelihood findings: they stay
    unobserved but open the colliders above them. O(|V| + |E|)."""
    z, virtual = set(observed), set(soft)
    opened = _ancestors(net, z | virtual)
    kids = _children_of(net) if children is None else children
    visited: set[tuple[str, int]] = set()
    stack = [(s, UP) for s in sources]
    found, findings = set(), set()
    while stack:
        node, came = stack.pop()
        if (node, came) in visited:
            continue
        visited.add((node, came))
        if node in z:
            findings.add(node)
            if came == DOWN and node in opened:
                stack.extend((p, UP) for p in net.parents(node))
            continue
        found.add(node)
        stack.extend((c, DOWN) for c in kids[node])
        if came == UP or node in virtual:   # a soft finding's observed virtual child sends the ball back up
            stack.extend((p, UP) for p in net.parents(node))
    return found, findings


def d_separated(net: Network, xs: Iterable[str], ys: Iterable[str], given: Iterable[str] = ()) -> bool:
    """Whether every variable of ``xs`` is d-separated from every variable of ``ys`` given ``given`` (the
    sets must be disjoint and non-empty, as networkx's ``is_d_separator`` asks)."""
    xs, ys = _names(net, xs, "first set"), _names(net, ys, "second set")
    zs = _names(net, given, "conditioning set")
    if not xs or not ys:
        raise EvidenceError("d-separation needs a variable on each side")
    overlap = (set(xs) & set(ys)) | (set(xs) & set(zs)) | (set(ys) & set(zs))
    if overlap:
        raise EvidenceError(f"the sets of a d-separation query must be disjoint; {sorted(overlap)[0]!r} is in two")
    found, _ = reachable(net, xs, zs)
    return not found.intersection(ys)


@dataclass(frozen=True)
class Relevance:
    """Which variables and findings can bear on the targets (see the module docstring).

    ``connected``: unobserved variables d-connected to the targets given the findings (targets left out);
    ``separated``: the other unobserved variables (observing them cannot change p(targets | e));
    ``requisite``: findings d-connected to the targets given the other findings; ``irrelevant``: the rest.
    Each list is in the network's variable order."""

    targets: tuple[str, ...]
    connected: list[str]
    separated: list[str]
    requisite: list[str]
    irrelevant: list[str]


def relevance(net: Network, targets: str | Iterable[str], hard: Iterable[str] = (),
              soft: Iterable[str] = ()) -> Relevance:
    """Split the variables by d-separation from ``targets`` given hard findings ``hard`` and likelihood
    findings ``soft`` (a soft-evidence variable is a finding here, requisite when it is d-connected)."""
    tgt = _names(net, targets, "targets")
    hard_set, soft_set = set(_names(net, hard, "findings")), set(_names(net, soft, "findings"))
    clash = set(tgt) & hard_set
    if clash:
        raise EvidenceError(f"target '{sorted(clash)[0]}' is also observed")
    found, findings = reachable(net, tgt, hard_set, soft_set)
    findings |= found & soft_set
    observed = hard_set | soft_set
    free = [v for v in net.variables if v not in observed and v not in tgt]
    given = [v for v in net.variables if v in observed]
    return Relevance(tuple(tgt), [v for v in free if v in found], [v for v in free if v not in found],
                     [v for v in given if v in findings], [v for v in given if v not in findings])


@dataclass(frozen=True)
class MarkovBlanket:
    """A variable's parents, children and children's other parents (spouses), each in the network's order."""

    variable: str
    parents: list[str]
    children: list[str]
    spouses: list[str]

    @property
    def members(self) -> list[str]:
        """Parents, then children, then spouses (no repeats)."""
        return self.parents + self.children + self.spouses


def markov_blanket(net: Network, variable: str) -> MarkovBlanket:
    """MB(X) = Pa(X) ∪ Ch(X) ∪ Pa(Ch(X)) \\ {X}: given it, X ⊥ every other variable (Pearl 1988, §3.2.1)."""
    _names(net, variable, "Markov blanket query")
    parents = list(net.parents(variable))
    children = [v for v in net.variables if variable in net.parents(v)]
    taken = set(parents) | set(children) | {variable}
    spouses: list[str] = []
    for child in children:
        for p in net.parents(child):
            if p not in taken:
                taken.add(p)
                spouses.append(p)
    return MarkovBlanket(variable, parents, children, spouses)
