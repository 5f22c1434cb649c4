"""Random influence diagrams, brute-force enumeration of every no-forgetting policy, and the same diagram in
pyAgrum — the independent references of the decision tests."""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np

from bnstudio.decision import InfluenceDiagram, build_influence_diagram
from bnstudio.decision.order import past

OIL = Path(__file__).resolve().parents[2] / "resources" / "decision" / "oil_wildcatter.json"


def oil() -> InfluenceDiagram:
    return InfluenceDiagram.from_dict(json.loads(OIL.read_text()))


def random_diagram(seed: int, n_decisions: int = 2, max_policies: int = 4096) -> InfluenceDiagram:
    """Chance nodes in slots 0..n (slot k < n: observed before decision k+1), arcs only forward in time, two
    utility nodes; retried until brute force has at most ``max_policies`` policies to enumerate."""
    rng = np.random.default_rng(seed)
    while True:
        slots = [list() for _ in range(n_decisions + 1)]
        order: list[str] = []
        cards: dict[str, int] = {}
        chance, decisions = [], []
        n_chance = int(rng.integers(2, 5))
        slot_of = sorted(int(s) for s in rng.integers(0, n_decisions + 1, n_chance))
        names = [f"X{i}" for i in range(n_chance)]
        timeline: list[tuple[str, str]] = []
        for k in range(n_decisions + 1):
            timeline += [("chance", x) for x, s in zip(names, slot_of, strict=True) if s == k]
            if k < n_decisions:
                timeline.append(("decision", f"D{k + 1}"))
        for kind, name in timeline:
            cards[name] = int(rng.integers(2, 4)) if kind == "chance" else int(rng.integers(2, 4))
        for pos, (kind, name) in enumerate(timeline):
            earlier = [n for _, n in timeline[:pos]]
            states = [f"s{j}" for j in range(cards[name])]
            if kind == "chance":
                parents = [p for p in earlier if rng.random() < 0.45][:3]
                shape = tuple(cards[p] for p in parents) + (cards[name],)
                cpt = rng.dirichlet(np.ones(cards[name]), size=shape[:-1]) if parents else rng.dirichlet(
                    np.ones(cards[name]))
                # an occasional zero makes some pasts impossible
                if rng.random() < 0.3 and cards[name] > 2:
                    cpt = cpt.copy()
                    cpt[..., -1] = 0.0
                    cpt = cpt / cpt.sum(axis=-1, keepdims=True)
                chance.append((name, states, parents, cpt))
                slots[slot_of[names.index(name)]].append(name)
            else:
                k = int(name[1:]) - 1
                observed = [x for x in slots[k]]
                extra = [p for p in earlier if p not in observed and rng.random() < 0.3]
                if k > 0 and f"D{k}" not in extra:
                    extra.append(f"D{k}")  # keeps the decisions on one directed path
                decisions.append((name, states, observed + extra))
            order.append(name)
        all_nodes = [n for _, n in timeline]
        utilities = []
        for u in range(2):
            parents = list(rng.choice(all_nodes, size=min(len(all_nodes), int(rng.integers(1, 4))), replace=False))
            utilities.append((f"U{u}", parents, rng.normal(0, 10, tuple(cards[p] for p in parents))))
        diagram = build_influence_diagram(chance, decisions, utilities, name=f"random {seed}")
        if n_policies(diagram) <= max_policies:
            return diagram


def n_policies(diagram: InfluenceDiagram) -> int:
    total = 1
    for d in diagram.decision_names:
        configs = int(np.prod([diagram.cardinality(p) for p in past(diagram, d)]))
        total *= diagram.cardinality(d) ** configs
    return total


class BruteForce:
    """Every variable as an axis of one joint table; every deterministic no-forgetting policy enumerated."""

    def __init__(self, diagram: InfluenceDiagram, likelihoods: dict[str, np.ndarray] | None = None) -> None:
        self.d = diagram
        self.names = list(diagram.network.variables)
        self.shape = tuple(diagram.cardinality(v) for v in self.names)
        joint = np.ones(self.shape)
        for v in diagram.chance_names:
            joint = joint * self._broadcast(diagram.cpt(v), diagram.parents(v) + (v,))
        for v, lam in (likelihoods or {}).items():
            joint = joint * self._broadcast(np.asarray(lam, float), (v,))
        self.joint = joint
        self.utility = sum(self._broadcast(u.table, u.parents) for u in diagram.utilities) + np.zeros(self.shape)
        self.pasts = {d: past(diagram, d) for d in diagram.decision_names}

    def _broadcast(self, table: np.ndarray, scope: tuple[str, ...]) -> np.ndarray:
        letters = "abcdefghijklmnopqrstuvwxyz"
        sub = "".join(letters[self.names.index(v)] for v in scope)
        out = "".join(letters[self.names.index(v)] for v in self.names if v in scope)
        arr = np.einsum(f"{sub}->{out}", table)
        return arr.reshape([self.shape[i] if v in scope else 1 for i, v in enumerate(self.names)])

    def policies(self, decision: str):
        shape = tuple(self.d.cardinality(p) for p in self.pasts[decision])
        for choice in itertools.product(range(self.d.cardinality(decision)), repeat=int(np.prod(shape))):
            yield np.array(choice, dtype=int).reshape(shape)

    def indicator(self, decision: str, policy: np.ndarray) -> np.ndarray:
        table = np.eye(self.d.cardinality(decision))[policy]
        return self._broadcast(table, tuple(self.pasts[decision]) + (decision,))

    def expected_utility(self, policies: dict[str, np.ndarray]) -> tuple[float, float]:
        """(E[U | e], p(e)) under deterministic policies {decision: table over its no-forgetting past}."""
        weight = self.joint
        for d, policy in policies.items():
            weight = weight * self.indicator(d, policy)
        z = weight.sum()
        return (float((weight * self.utility).sum() / z) if z > 0 else float("nan")), float(z)

    def best(self, fixed: dict[str, np.ndarray] | None = None) -> tuple[float, dict[str, np.ndarray]]:
        """max over the policies of the decisions not in ``fixed`` of E[U · 1(e)] (ties: first found)."""
        fixed = dict(fixed or {})
        free = [d for d in self.d.decision_names if d not in fixed]
        best_value, best_policies = -np.inf, None
        for combo in itertools.product(*(list(self.policies(d)) for d in free)):
            policies = {**fixed, **dict(zip(free, combo, strict=True))}
            eu, z = self.expected_utility(policies)
            if z > 0 and eu * z > best_value + 1e-12:
                best_value, best_policies = eu * z, policies
        return best_value, best_policies


def to_pyagrum(diagram: InfluenceDiagram):
    """The same diagram as a pyAgrum InfluenceDiagram (tables filled entry by entry by state name)."""
    import pyagrum as gum

    gid = gum.InfluenceDiagram()
    for v in diagram.network.variables:
        var = gum.LabelizedVariable(v, v, list(diagram.states(v)))
        (gid.addDecisionNode if diagram.kind(v) == "decision" else gid.addChanceNode)(var)
    for u in diagram.utilities:
        gid.addUtilityNode(gum.LabelizedVariable(u.name, u.name, 1))
    for node in list(diagram.network.variables) + list(diagram.utility_names):
        for p in diagram.parents(node):
            gid.addArc(p, node)
    for v in diagram.chance_names:
        cpt, parents = diagram.cpt(v), diagram.parents(v)
        for index in np.ndindex(cpt.shape[:-1]):
            gid.cpt(v)[{p: diagram.states(p)[i] for p, i in zip(parents, index, strict=True)}] = cpt[index].tolist()
    for u in diagram.utilities:
        for index in np.ndindex(u.table.shape):
            at = {p: diagram.states(p)[i] for p, i in zip(u.parents, index, strict=True)}
            gid.utility(u.name)[at] = [float(u.table[index])]
    return gid
