"""Expert constraints are honoured by every algorithm (property test on small random data)."""
from __future__ import annotations

import networkx as nx
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bnstudio.learn.structure import ALGORITHMS, Constraints, learn_structure


@st.composite
def problems(draw):
    v = draw(st.integers(3, 5))
    names = [f"V{i}" for i in range(v)]
    seed = draw(st.integers(0, 10_000))
    rng = np.random.default_rng(seed)
    cards = [int(c) for c in rng.integers(2, 4, v)]
    codes = np.column_stack([rng.integers(0, c, 120) for c in cards])
    codes[:, 1] = (codes[:, 0] + codes[:, 1] * rng.integers(0, 2, 120)) % cards[1]  # some dependence
    tier_of = draw(st.lists(st.sampled_from([None, 0, 1, 2]), min_size=v, max_size=v))
    order = draw(st.permutations(range(v)))
    rank = {x: k for k, x in enumerate(order)}
    pairs = [(i, j) for i in range(v) for j in range(v) if i != j]
    ok = [(i, j) for i, j in pairs if rank[i] < rank[j]
          and (tier_of[i] is None or tier_of[j] is None or tier_of[i] <= tier_of[j])]
    required = draw(st.lists(st.sampled_from(ok), max_size=3, unique=True)) if ok else []
    forbidden = draw(st.lists(st.sampled_from(pairs), max_size=6, unique=True))
    forbidden = [a for a in forbidden if a not in required]
    indegree = max([sum(1 for _, j in required if j == c) for c in range(v)] + [0])
    max_parents = draw(st.sampled_from([None, max(indegree, 1), indegree + 1]))
    tiers = [[names[i] for i in range(v) if tier_of[i] == t] for t in range(3)]
    return dict(codes=codes, names=names, states=[tuple(map(str, range(c))) for c in cards],
                required=[(names[i], names[j]) for i, j in required],
                forbidden=[(names[i], names[j]) for i, j in forbidden],
                tiers=tiers, max_parents=max_parents)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=problems(), algorithm=st.sampled_from(ALGORITHMS), tabu=st.sampled_from([0, 3]))
def test_every_algorithm_honours_required_forbidden_tiers_and_max_parents(problem, algorithm, tabu):
    search = algorithm in ("hill-climb", "bnc")
    res = learn_structure(algorithm, problem["codes"], problem["names"], problem["states"],
                          target="V0" if algorithm in ("nb", "tan", "kdb", "bnc") else None,
                          required=problem["required"], forbidden=problem["forbidden"], tiers=problem["tiers"],
                          max_parents=problem["max_parents"], tabu=tabu if search else 0,
                          restarts=1 if search else 0, seed=0)
    arcs = set(res.arcs)
    assert set(problem["required"]) <= arcs
    assert not arcs & set(problem["forbidden"])
    tier = {n: t for t, group in enumerate(problem["tiers"]) for n in group}
    assert all(tier[p] <= tier[c] for p, c in arcs if p in tier and c in tier)
    if problem["max_parents"] is not None:
        assert all(len(res.network.parents(v)) <= problem["max_parents"] for v in problem["names"])
    assert nx.is_directed_acyclic_graph(res.network.graph())


def test_constraints_index_arcs_and_tiers():
    c = Constraints.build(["A", "B", "C"], required=["A->B"], forbidden=[("C", "A")], tiers=[["B"], ["C"]])
    assert c.required == [(0, 1)] and c.is_required(0, 1)
    assert not c.allowed[2, 0] and not c.allowed[2, 1] and c.allowed[1, 2] and c.allowed[0, 2]
    assert c.required_parents() == [set(), {0}, set()]
