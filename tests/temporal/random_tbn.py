"""Random 2TBNs from a seed (structures and CPTs), and the same model built independently in pyAgrum."""
from __future__ import annotations

import numpy as np

from bnstudio.temporal import TwoSliceNetwork, two_slice_network
from tests.io.test_formats_interop import to_pyagrum


def random_tbn(seed: int, n: int = 3, max_card: int = 3, p_arc: float = 0.5) -> TwoSliceNetwork:
    """n variables in a random order; arcs inside a slice follow that order (acyclic), temporal arcs are free; every
    variable has at least one temporal parent (itself with probability 1/2); CPT rows drawn from Dirichlet(1)."""
    rng = np.random.default_rng(seed)
    names = [f"V{k}" for k in range(n)]
    cards = rng.integers(2, max_card + 1, size=n)
    states = {v: [f"s{j}" for j in range(c)] for v, c in zip(names, cards, strict=True)}
    order = list(rng.permutation(n))

    def table(child, parents):
        shape = [cards[names.index(p)] for p in parents]
        return rng.dirichlet(np.ones(cards[names.index(child)]), size=tuple(shape) or None)

    initial, transition = {}, {}
    for pos, k in enumerate(order):
        child = names[k]
        inside = [names[j] for j in order[:pos] if rng.random() < p_arc]
        initial[child] = (inside, table(child, inside))
        lagged = [names[j] for j in range(n) if rng.random() < p_arc / 2] or [names[int(rng.integers(n))]]
        parents = [(p, 0) for p in inside] + [(p, 1) for p in lagged]
        parents = [parents[j] for j in rng.permutation(len(parents))]
        transition[child] = (parents, table(child, [p for p, _ in parents]))
    return two_slice_network(states, initial, transition, name=f"random{seed}")


def to_gum(tbn: TwoSliceNetwork):
    """The 2TBN as a pyAgrum BayesNet with pyAgrum's names (X0, Xt), built variable by variable and row by row."""
    return to_pyagrum(tbn.network)
