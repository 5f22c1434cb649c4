"""A tiny text DSL for tests and examples: ``"A->B; A->C; B,C->D"``.

Each ``;``-separated clause is either a variable name or ``P1,P2,...->C1,C2,...`` (every listed parent to every
listed child). Variables are binary (states ``s0``, ``s1``) unless ``states`` says otherwise. CPTs are random
(Dirichlet(1) rows, seeded) unless given in ``cpts``.

>>> net = network_from_dsl("A->B; A->C; B,C->D", seed=0)
>>> net.parents("D")
('B', 'C')
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from bnstudio.core.network import Network, build_network
from bnstudio.errors import ValidationError


def parse_dsl(text: str) -> tuple[list[str], dict[str, list[str]]]:
    """Variables in order of first mention and each variable's parents in order of mention."""
    order: list[str] = []
    parents: dict[str, list[str]] = {}

    def mention(name: str) -> str:
        name = name.strip()
        if not name:
            raise ValidationError(f"empty variable name in DSL {text!r}")
        if name not in parents:
            order.append(name)
            parents[name] = []
        return name

    for clause in filter(str.strip, text.split(";")):
        if "->" not in clause:
            for name in clause.split(","):
                mention(name)
            continue
        left, right = clause.split("->", 1)
        if "->" in right:
            raise ValidationError(f"use one arrow per clause in DSL clause {clause.strip()!r}")
        ps = [mention(p) for p in left.split(",")]
        for child in (mention(c) for c in right.split(",")):
            parents[child].extend(p for p in ps if p not in parents[child])
    return order, parents


def network_from_dsl(text: str, seed: int | None = None, states: Mapping[str, Sequence[str]] | None = None,
                     cpts: Mapping[str, np.ndarray] | None = None, concentration: float = 1.0,
                     name: str = "dsl") -> Network:
    """Build a network from the DSL with random (seeded) or given CPTs."""
    order, parents = parse_dsl(text)
    rng = np.random.default_rng(seed)
    states = dict(states or {})
    cpts = dict(cpts or {})
    families = []
    for var in order:
        var_states = list(states.get(var, ("s0", "s1")))
        shape = tuple(len(states.get(p, ("s0", "s1"))) for p in parents[var]) + (len(var_states),)
        cpt = cpts.get(var)
        if cpt is None:
            cpt = rng.dirichlet(np.full(shape[-1], concentration), size=shape[:-1])
        families.append((var, var_states, parents[var], cpt))
    return build_network(families, name=name)
