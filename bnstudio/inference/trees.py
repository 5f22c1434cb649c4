"""A junction tree with its clique potentials: the propagations of one structure for the current parameters.

Potentials are ψ_c = Π of the CPTs homed at c. Arrays carry their batch axes last: a clique table has shape
(*clique, S, N) — S parameter sets, N evidence cases, each 1 when broadcast — so that numpy's inner loops run
over the (long, contiguous) batch instead of over a clique's few states. The evidence-free propagation of the
base parameters is kept: a query recomputes only the messages whose sending side holds evidence or changed
parameters (:class:`bnstudio.inference.propagation.Propagation`).

One-state variables have no axis (docs/inference.md §7): their CPTs (and the length-1 axes of their children's
CPTs) are reshaped away, a one-state variable's CPT being a factor on its parents' axes; its posterior is [1]
and its family marginal p(X, Pa | e) = p(Pa | e) with a trailing axis of length 1. A finding on it can only
be its one state (likelihood 1, nothing to do) or, in a batch, a zero likelihood: a case of probability 0,
multiplied into the root clique as a per-case constant.
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence, cast

import numpy as np

from bnstudio.errors import ValidationError
from bnstudio.inference.batching import BYTES_PER_ENTRY  # callers import it from here
from bnstudio.inference.jtree import JunctionTree
from bnstudio.inference.propagation import Propagation, largest, scaled_product
from bnstudio.inference.variable_elimination import TINY

Potentials = tuple[list[np.ndarray], dict[int, np.ndarray]]  # clique tables, log scales of rescaled ones


class TreeModel:
    """Potentials and the cached evidence-free propagation of one junction tree (see module docstring).

    ``cpt(v)`` gives variable v's normalised CPT with a leading parameter-set axis: (1, *family);
    ``families[v]`` is v's family (CPT axis order) and ``tree_families[v]`` the same without one-state variables.
    """

    def __init__(self, jt: JunctionTree, families: Sequence[tuple[int, ...]],
                 tree_families: Sequence[tuple[int, ...]], cpt: Callable[[int], np.ndarray]) -> None:
        self.jt = jt
        self.families = families
        self.tree_families = tree_families
        self.cpt = cpt
        self.homed: dict[int, list[int]] = {}
        for v, c in enumerate(jt.family_home):
            if c >= 0:
                self.homed.setdefault(c, []).append(v)
        self._prior: Propagation | None = None
        self._marginal_plans: dict = {}
        self._evidence_shapes: dict[int, tuple[int, ...]] = {}

    @property
    def bytes_per_element(self) -> int:
        """Working memory of one propagation per batch element (about 3x the tree)."""
        return self.jt.total_size * BYTES_PER_ENTRY

    @property
    def prior(self) -> Propagation:
        """The evidence-free propagation of the base parameters (made once)."""
        if self._prior is None:
            potentials, scales = self.potentials({})
            self._prior = Propagation(self.jt, potentials, scales=scales)
        return self._prior

    # ------------------------------------------------------------------ potentials
    def factor_in_clique(self, var: int, cpt: np.ndarray) -> np.ndarray:
        """A (S, *family) CPT transposed and reshaped to broadcast into its home clique: (*clique, S, 1);
        the axes of one-state variables (length 1) are reshaped away first."""
        home = self.jt.family_home[var]
        clique = self.jt.cliques[home]
        family = self.tree_families[var]
        if len(family) != len(self.families[var]):
            cpt = cpt.reshape(cpt.shape[:1] + tuple(self.jt.cards[u] for u in family))
        perm = tuple(1 + int(p) for p in np.argsort([clique.index(u) for u in family]))
        table = cpt.transpose(perm + (0,))
        return table.reshape(self.jt.axis_shape(home, family) + (table.shape[-1], 1))

    def potentials(self, replaced: Mapping[int, np.ndarray], base: Potentials | None = None) -> Potentials:
        """Clique potentials with the CPTs of ``replaced`` ({var: (S, *family)}) swapped in, and the log scales
        of those that had to be rescaled. With ``base`` only the cliques homing a replaced CPT are rebuilt;
        the others are taken from ``base``.

        ψ_c = Π of the CPTs homed at c. A product whose largest entry falls below TINY for some parameter set
        (hundreds of small CPT entries homed together) is rebuilt with :func:`scaled_product`, its log scale
        kept per parameter set (docs/inference.md §6)."""
        jt = self.jt
        rebuild = {jt.family_home[v] for v in replaced} if base is not None else range(len(jt.cliques))
        out: list[np.ndarray | None] = list(base[0]) if base is not None else [None] * len(jt.cliques)
        scales = dict(base[1]) if base is not None else {}
        for c in rebuild:
            factors = [self.factor_in_clique(v, replaced[v] if v in replaced else self.cpt(v))
                       for v in self.homed.get(c, ())]
            scales.pop(c, None)
            pot = factors[0] if factors else None
            for factor in factors[1:]:
                pot = pot * factor
            if pot is not None and len(factors) > 1 and not largest(pot).min() >= TINY:
                pot, scale = scaled_product(factors[0], factors[1:], 0.0)
                scales[c] = np.asarray(scale)  # an array already: there is at least one operand
            full = jt.shape(c)
            if pot is None:
                pot = np.ones(full + (1, 1))
            elif pot.shape[:-2] != full:
                pot = pot * np.ones(full + (1, 1))
            out[c] = pot
        return cast("list[np.ndarray]", out), scales  # without a base every clique was rebuilt

    def parameter_sets(self, parameters: Mapping[int, np.ndarray]) -> Potentials:
        """Potentials (and their log scales) for S parameter sets of some CPTs ({var: (S, *family)});
        variables outside the tree are ignored (they cannot change its answers)."""
        inside = {v: t for v, t in parameters.items() if self.jt.family_home[v] >= 0}
        prior = self.prior
        if not inside:
            return prior.potentials, prior.scales
        return self.potentials(inside, base=(prior.potentials, prior.scales))

    def propagation(self, lams: Mapping[int, np.ndarray], parameters: Mapping[int, np.ndarray] | None = None
                    ) -> Propagation:
        """A propagation for evidence ``lams`` ({var: (n, |X|)}) and optional parameter sets."""
        jt, prior = self.jt, self.prior
        potentials, scales, dirty = prior.potentials, prior.scales, 0
        if parameters:
            potentials, scales = self.parameter_sets(parameters)
            dirty = sum(1 << c for c in {jt.family_home[v] for v in parameters} if c >= 0)
        placed: dict[int, list[np.ndarray]] = {}
        for var, lam in lams.items():
            home = jt.var_home[var]
            if home < 0:  # outside the tree, or one state: only a zero likelihood (p(e) = 0) matters
                if lam.shape[1] > 1 or np.all(lam > 0):
                    continue
                home = 0
            shape = self._evidence_shapes.get(var)
            if shape is None:
                shape = self._evidence_shapes[var] = jt.axis_shape(home, [var])
            placed.setdefault(home, []).append(lam.T.reshape(shape + (1, lam.shape[0])))
            dirty |= 1 << home
        return Propagation(jt, potentials, placed, dirty, clean=prior, scales=scales)

    # ------------------------------------------------------------------ reading results
    def marginal(self, belief: np.ndarray, clique: int, variables: Sequence[int]) -> np.ndarray:
        """Sum a (*clique, S, N) belief onto ``variables`` (in that order): (S, N, *cards)."""
        key = (clique, tuple(variables))
        plan = self._marginal_plans.get(key)
        if plan is None:
            members = self.jt.cliques[clique]
            axes = tuple(k for k, u in enumerate(members) if u not in variables)
            remaining = [u for u in members if u in variables]
            k = len(remaining)
            plan = self._marginal_plans[key] = (axes, (k, k + 1) + tuple(remaining.index(u) for u in variables))
        axes, perm = plan
        out = belief.sum(axis=axes) if axes else belief
        return out.transpose(perm)

    def family_marginal(self, belief: np.ndarray, clique: int, var: int) -> np.ndarray:
        """p(X, Pa(X) | e) from a (*clique, S, N) belief of a clique holding the family: (S, N, *family), with
        length-1 axes for one-state variables."""
        family, tree_family = self.families[var], self.tree_families[var]
        out = self.marginal(belief, clique, tree_family)
        if len(family) != len(tree_family):
            out = out.reshape(out.shape[:2] + tuple(self.jt.cards[u] for u in family))
        return out

    def home(self, variables) -> int:
        """The home clique of the first of ``variables`` that has one; else the root (for p(e))."""
        return next((self.jt.var_home[v] for v in variables if self.jt.var_home[v] >= 0), 0)

    def posteriors(self, prop: Propagation, variables: Sequence[int]) -> tuple[dict[int, np.ndarray], np.ndarray]:
        """p(X | e) for each variable, (S', N', |X|) each, read from the unnormalised belief of its home
        clique; and per batch element whether e is possible (S', N'). Variables sharing a clique are summed
        out by halving (sum the clique onto each half of them, recurse), about two passes over the clique
        instead of one per variable."""
        by_home: dict[int, list[int]] = {}
        out: dict[int, np.ndarray] = {}
        for v in dict.fromkeys(variables):
            if self.jt.var_home[v] >= 0:
                by_home.setdefault(self.jt.var_home[v], []).append(v)
            else:  # one state: p(X = x | e) = 1; e is checked in the root clique
                out[v] = np.ones((1, 1, 1))
        if not by_home:
            by_home[0] = []
        possible = None
        for home, wanted in by_home.items():
            table, _, z = prop.product(home)
            ok = z > 0
            possible = ok if possible is None else possible & ok
            z = np.where(ok, z, 1.0)
            stack = [(table, list(self.jt.cliques[home]), wanted)] if wanted else []
            while stack:
                table, members, group = stack.pop()
                if len(group) == 1:
                    rest = tuple(k for k, u in enumerate(members) if u != group[0])
                    marginal = np.add.reduce(table, axis=rest) if rest else table
                    out[group[0]] = (marginal / z).transpose(1, 2, 0)
                    continue
                half = len(group) // 2
                for part in (group[:half], group[half:]):
                    inside = set(part)
                    rest = tuple(k for k, u in enumerate(members) if u not in inside)
                    stack.append((np.add.reduce(table, axis=rest) if rest else table,
                                  [u for u in members if u in inside], part))
        assert possible is not None  # by_home has at least one clique
        return out, possible

    def clique_containing(self, variables: Sequence[int]) -> int | None:
        """The smallest clique containing all ``variables``, or None."""
        wanted = set(variables)
        candidates = [c for c, members in enumerate(self.jt.cliques) if wanted.issubset(members)]
        return min(candidates, key=lambda c: self.jt.sizes[c]) if candidates else None


def check_parameter_sets(base_shapes: Mapping[int, tuple[int, ...]], names: Sequence[str],
                         parameters: Mapping[int, np.ndarray]) -> int:
    """Validate S parameter sets {var: (S, *family)} against the CPT shapes; returns S."""
    sizes = set()
    for var, table in parameters.items():
        expected = base_shapes[var]
        if table.ndim != len(expected) + 1 or table.shape[1:] != expected:
            raise ValidationError(f"parameter sets for '{names[var]}' must have shape (S, "
                                  f"{', '.join(map(str, expected))}), got {table.shape}")
        if np.any(table < 0) or not np.all(np.isfinite(table)):
            raise ValidationError(f"parameter sets for '{names[var]}' contain negative or non-finite entries")
        sizes.add(table.shape[0])
    if len(sizes) > 1:
        raise ValidationError(f"all parameter sets must have the same leading size S, got {sorted(sizes)}")
    return sizes.pop() if sizes else 1
