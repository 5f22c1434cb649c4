"""What a network compiles to: variable index, families and, on demand, elimination orders and junction trees.

Everything here depends on the structure only; parameters enter through
:class:`bnstudio.inference.trees.TreeModel`, so changing a CPT reuses the compiled plan. Building a
:class:`CompiledStructure` is cheap (names, parents, families); the junction tree of the whole network is
made the first time something needs it (a batch, all marginals), so a first single query, answered by
relevance pruning and variable elimination, never pays for it. Trees over an ancestrally closed subset of the
variables (what a batched query needs after removing barren nodes) are made the same way.

Variables with one state are absorbed, never given a clique axis (docs/inference.md §7): a tree is built over
the variables with two or more states, and the CPT of every variable enters it as a factor over its
``tree_families`` entry — its family without the one-state variables (the length-1 axes go, the values stay).
A one-state variable's own CPT is a factor on its parents' axes (a constant for a root), which is why its
parents must share a clique (they stay married in the moral graph). A data set discretised with MDL, whose
irrelevant columns become one-state attributes, so compiles to the tree of its informative attributes.

With ``max_clique`` (table entries) the search for an elimination order gives up as soon as every heuristic
needs a bigger clique: ``jt`` and ``order`` are then None and ``too_large`` says why (single queries still work
by pruned variable elimination, which needs only the index and the families).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from bnstudio.core.network import Network
from bnstudio.inference.elimination import CliqueTooLarge, OrderStats, best_elimination_order, moral_graph
from bnstudio.inference.evidence import VariableIndex

if TYPE_CHECKING:  # imported by tree_over, when a tree is first made
    from bnstudio.inference.jtree import JunctionTree


class Tree:
    """An elimination order and its junction tree, or (None, None, why) when no order stays within bounds.
    A plain slotted class, not a NamedTuple: typing.NamedTuple costs some 50 µs at import (a first query in a new
    process waits for it)."""

    __slots__ = ("order", "jt", "too_large")

    def __init__(self, order: OrderStats | None, jt: JunctionTree | None, too_large: CliqueTooLarge | None) -> None:
        self.order = order
        self.jt = jt
        self.too_large = too_large


class CompiledStructure:
    """Index and families of one network structure; junction trees made on demand (see module docstring).
    A plain class, not a dataclass: cheaper to import, and a first query in a new process waits for it."""

    def __init__(self, index: VariableIndex, parents: list[tuple[int, ...]], families: list[tuple[int, ...]],
                 tree_families: list[tuple[int, ...]], max_clique: float | None = None) -> None:
        self.index = index
        self.parents = parents
        self.families = families              # CPT axis order: (parents..., variable)
        self.tree_families = tree_families    # the same without one-state variables: the axes a tree gives them
        self.max_clique = max_clique
        self._full: Tree | None = None

    @classmethod
    def compile(cls, net: Network, max_clique: float | None = None) -> "CompiledStructure":
        names = net.variables
        index = VariableIndex(names, [net.states(v) for v in names])
        position = index.position
        parents = [tuple(map(position.__getitem__, net.parents(v))) for v in names]
        families = [ps + (v,) for v, ps in enumerate(parents)]
        cards = index.cards
        # the same list when no variable has one state (few objects made: a first query on a network just read
        # should not pay for a garbage collection of everything the reader left)
        tree_families = (families if min(cards, default=2) > 1 else
                         [tuple(u for u in f if cards[u] > 1) for f in families])
        return cls(index, parents, families, tree_families, max_clique)

    # ------------------------------------------------------------------ trees
    @property
    def full(self) -> Tree:
        """The junction tree of the whole network (made once, on first use)."""
        if self._full is None:
            self._full = self.tree_over(range(len(self.families)))
        return self._full

    @property
    def order(self) -> OrderStats | None:
        return self.full.order

    @property
    def jt(self) -> JunctionTree | None:
        return self.full.jt

    @property
    def too_large(self) -> CliqueTooLarge | None:
        return self.full.too_large

    @property
    def has_full_tree(self) -> bool:
        """Whether the whole network's tree has been made already (nothing is computed)."""
        return self._full is not None

    def tree_over(self, variables: Sequence[int]) -> Tree:
        """Junction tree of the sub-network on ``variables``, which must be ancestrally closed (every
        parent of a member is a member). Cliques and homes use the network's variable indices; one-state
        members are in no clique, their CPTs homed with their parents (see module docstring)."""
        from bnstudio.inference.jtree import build_junction_tree
        cards = self.index.cards
        inside = set(variables)
        members = sorted(v for v in inside if cards[v] > 1)
        local = {v: k for k, v in enumerate(members)}
        families = [tuple(local[u] for u in self.tree_families[v]) for v in sorted(inside)]
        try:
            stats = best_elimination_order(moral_graph(len(members), families), [cards[v] for v in members],
                                           max_clique=self.max_clique)
        except CliqueTooLarge as exc:
            return Tree(None, None, exc)
        if len(members) == len(self.families):  # local indices are the network's
            return Tree(stats, build_junction_tree(cards, stats.order, stats.cliques, self.tree_families), None)
        order = [members[k] for k in stats.order]
        cliques = [tuple(members[k] for k in c) for c in stats.cliques]
        fams = [self.tree_families[v] if v in inside else None for v in range(len(self.families))]
        return Tree(stats, build_junction_tree(cards, order, cliques, fams), None)
