"""What a network compiles to: variable index, families, elimination order, junction tree and index plans.

Everything here depends on the structure only; parameters enter through :meth:`CompiledStructure.potentials`,
so changing a CPT reuses the compiled plan. With ``max_clique`` (table entries) the search for an elimination
order gives up as soon as every heuristic needs a bigger clique: ``jt`` and ``order`` are then None and
``too_large`` says why (single queries still work by pruned variable elimination, which needs only the index
and the families).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import ValidationError
from bnstudio.inference.elimination import CliqueTooLarge, OrderStats, best_elimination_order, moral_graph
from bnstudio.inference.evidence import VariableIndex
from bnstudio.inference.jtree import JunctionTree, build_junction_tree


@dataclass
class CompiledStructure:
    """Index plans for one network structure (see module docstring)."""

    index: VariableIndex
    parents: list[tuple[int, ...]]
    families: list[tuple[int, ...]]          # CPT axis order: (parents..., variable)
    order: OrderStats | None
    jt: JunctionTree | None
    too_large: CliqueTooLarge | None = None
    _marginal_plans: dict = field(default_factory=dict, repr=False)
    _homed: dict = field(default_factory=dict, repr=False)

    @classmethod
    def compile(cls, net: Network, max_clique: float | None = None) -> "CompiledStructure":
        names = net.variables
        index = VariableIndex(names, [net.states(v) for v in names])
        parents = [tuple(index.index(p) for p in net.parents(v)) for v in names]
        families = [ps + (v,) for v, ps in enumerate(parents)]
        adj = moral_graph(len(names), families)
        try:
            stats = best_elimination_order(adj, index.cards, max_clique=max_clique)
        except CliqueTooLarge as exc:
            return cls(index, parents, families, None, None, exc)
        jt = build_junction_tree(adj, index.cards, stats.order, families)
        return cls(index, parents, families, stats, jt)

    # ------------------------------------------------------------------ potentials
    def factor_in_clique(self, var: int, cpt: np.ndarray) -> np.ndarray:
        """A (S, *family) CPT transposed and reshaped to broadcast into its home clique: (S, 1, *clique)."""
        home = self.jt.family_home[var]
        clique = self.jt.cliques[home]
        family = self.families[var]
        perm = np.argsort([clique.index(u) for u in family])
        table = cpt.transpose((0,) + tuple(1 + int(p) for p in perm))
        return table.reshape((table.shape[0], 1) + self.jt.axis_shape(home, family))

    def potentials(self, cpts: Sequence[np.ndarray], only: set[int] | None = None,
                   base: list[np.ndarray] | None = None) -> list[np.ndarray]:
        """Clique potentials ψ_c = Π of the CPTs homed at c, shape (S|1, 1, *clique); cliques not in ``only``
        are taken from ``base``."""
        jt = self.jt
        pots: list[np.ndarray | None] = [None] * len(jt.cliques)
        for var, home in enumerate(jt.family_home):
            if only is not None and home not in only:
                continue
            factor = self.factor_in_clique(var, cpts[var])
            pots[home] = factor if pots[home] is None else pots[home] * factor
        out = []
        for c, pot in enumerate(pots):
            if pot is None:
                pot = base[c] if base is not None and only is not None and c not in only else None
            full = (1, 1) + jt.shape(c)
            if pot is None:
                pot = np.ones(full)
            elif pot.shape[1:] != full[1:]:
                pot = pot * np.ones(full)
            out.append(pot)
        return out

    def parameter_sets(self, base: list[np.ndarray], parameters: Mapping[str, np.ndarray]
                       ) -> tuple[list[np.ndarray], set[int]]:
        """Replace some CPTs by S parameter sets each of shape (S, *family); returns (cpts, changed vars)."""
        cpts = list(base)
        changed = set()
        sizes = set()
        for name, table in parameters.items():
            var = self.index.index(name)
            table = np.asarray(table, dtype=float)
            expected = base[var].shape[1:]
            if table.ndim != len(expected) + 1 or table.shape[1:] != expected:
                raise ValidationError(f"parameter sets for '{name}' must have shape (S, {', '.join(map(str, expected))})"
                                      f", got {table.shape}")
            if np.any(table < 0) or not np.all(np.isfinite(table)):
                raise ValidationError(f"parameter sets for '{name}' contain negative or non-finite entries")
            cpts[var] = table
            changed.add(var)
            sizes.add(table.shape[0])
        if len(sizes) > 1:
            raise ValidationError(f"all parameter sets must have the same leading size S, got {sorted(sizes)}")
        return cpts, changed

    # ------------------------------------------------------------------ reading results
    def marginal(self, belief: np.ndarray, clique: int, variables: Sequence[int]) -> np.ndarray:
        """Sum a (S, N, *clique) belief onto ``variables`` (in that order): (S, N, *cards)."""
        key = (clique, tuple(variables))
        plan = self._marginal_plans.get(key)
        if plan is None:
            members = self.jt.cliques[clique]
            axes = tuple(2 + k for k, u in enumerate(members) if u not in variables)
            remaining = [u for u in members if u in variables]
            perm = (0, 1) + tuple(2 + remaining.index(u) for u in variables)
            plan = self._marginal_plans[key] = (axes, perm)
        axes, perm = plan
        out = belief.sum(axis=axes) if axes else belief
        return out.transpose(perm)

    def clique_containing(self, variables: Sequence[int]) -> int | None:
        """The smallest clique containing all ``variables``, or None."""
        wanted = set(variables)
        candidates = [c for c, members in enumerate(self.jt.cliques) if wanted.issubset(members)]
        return min(candidates, key=lambda c: self.jt.sizes[c]) if candidates else None

    def vars_homed_at(self, clique: int) -> list[int]:
        if not self._homed:
            for v, c in enumerate(self.jt.family_home):
                self._homed.setdefault(c, []).append(v)
        return self._homed.get(clique, [])
