"""Single queries answered on what they need: relevance pruning, then variable elimination.

:class:`PrunedQueries` holds what a query needs from the network for one set of parameters — the compiled
structure, the normalised CPTs (made on first use), which CPTs have zeros — and answers p(T | e) or log p(e)
from the CPTs of the components the targets need (:mod:`bnstudio.inference.pruning`), with hard findings
sliced in. The components left out still decide whether e is possible: only findings constrain (CPTs of
unobserved variables alone always have a configuration: pick states parents first), so a component is checked
— on supports, by :func:`bnstudio.inference.variable_elimination.possible` — only when it holds a hard finding
whose state has probability 0 under some parent configuration, or a likelihood with zeros.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, Mapping, Sequence, overload

import numpy as np

from bnstudio.errors import ImpossibleEvidence, MemoryBudgetExceeded
from bnstudio.inference import evidence as ev
from bnstudio.inference.compiled import CompiledStructure
from bnstudio.inference.pruning import Relevance, relevance
from bnstudio.inference.variable_elimination import eliminate, possible, restrict

if TYPE_CHECKING:   # an annotation only (evidence.py builds its aliases for type checkers alone)
    from bnstudio.inference.evidence import Evidence


class PrunedQueries:
    """Pruned variable elimination for one structure and parameter set (see module docstring).

    ``cpt(v)`` is v's normalised CPT with a leading axis (1, *family); ``stored(v)`` the table as the
    network holds it (zero flags are read there: normalising keeps zeros and makes an all-zero row uniform,
    so flags only err towards checking); ``label`` names the network in messages.
    """

    def __init__(self, compiled: CompiledStructure, cpt: Callable[[int], np.ndarray],
                 stored: Callable[[int], np.ndarray], budget_bytes: int, label: Callable[[], str]) -> None:
        self.compiled = compiled
        self.cpt = cpt
        self.stored = stored
        self.budget_entries = budget_bytes / 8
        self.label = label
        self._zeros: dict[int, bool] = {}
        #: p(X) of the variables asked without evidence so far (the engine makes a new PrunedQueries whenever
        #: the parameters change, so these stay valid)
        self.priors: dict[int, np.ndarray] = {}
        self._positive_states: dict[int, np.ndarray] = {}

    @staticmethod
    def hard(targets: Sequence[int], lams: Mapping[int, np.ndarray]) -> dict[int, int]:
        """Findings with one non-zero entry, absorbed as hard evidence (targets keep theirs as a factor)."""
        return {v: int(np.argmax(lam[0])) for v, lam in lams.items()
                if v not in targets and np.count_nonzero(lam[0]) == 1}

    def relevance(self, targets: Sequence[int], lams: Mapping[int, np.ndarray]) -> Relevance:
        cs = self.compiled
        return relevance(cs.families, cs.parents, targets, lams, self.hard(targets, lams))

    def eliminate(self, plan: Relevance, targets: Sequence[int], lams: Mapping[int, np.ndarray],
                  conditional: bool, max_cost: float | None = None) -> tuple[np.ndarray, float] | None:
        """(unnormalised table over ``targets``, log scale) from the needed components' CPTs; the log scale
        is -inf when the evidence is impossible (with ``conditional``, checked in the components left out).
        None when the elimination order would cost more than ``max_cost``."""
        cs = self.compiled
        hard = self.hard(targets, lams)
        requisite = plan.requisite()
        factors = [restrict(self.cpt(v)[0], cs.families[v], hard) for v in requisite]
        kept = set(requisite)
        factors += [(lam[0], (v,)) for v, lam in lams.items() if v not in hard and v in kept]
        try:
            result = eliminate(factors, cs.index.cards, targets, self.budget_entries, max_cost=max_cost)
        except MemoryBudgetExceeded as exc:
            raise MemoryBudgetExceeded(f"{self.label()}: {exc}; more evidence around the targets or a larger "
                                       f"memory_budget (InferenceEngine(net, memory_budget=...)) would make it "
                                       f"fit") from None
        if result is None:
            return None
        table, log_scale = result
        # a one-nonzero likelihood is sliced in as hard evidence; its value still scales p(e)
        log_scale += sum(math.log(lams[v][0, s]) for v, s in hard.items())
        for v in plan.constant:  # families observed whole: constant factors
            value = float(restrict(self.cpt(v)[0], cs.families[v], hard)[0])
            log_scale += math.log(value) if value > 0 else -math.inf
        if conditional and log_scale > -math.inf and not self._rest_possible(plan, lams, hard):
            log_scale = -math.inf
        return table, log_scale

    @overload
    def conditional(self, targets: Sequence[int], lams: Mapping[int, np.ndarray], plan: Relevance,
                    max_cost: None, evidence: Evidence | None) -> np.ndarray: ...

    @overload
    def conditional(self, targets: Sequence[int], lams: Mapping[int, np.ndarray], plan: Relevance,
                    max_cost: float | None, evidence: Evidence | None) -> np.ndarray | None: ...

    def conditional(self, targets: Sequence[int], lams: Mapping[int, np.ndarray], plan: Relevance,
                    max_cost: float | None, evidence: Evidence | None) -> np.ndarray | None:
        """p(targets | e), raising ImpossibleEvidence; None when the order would cost more than ``max_cost``."""
        result = self.eliminate(plan, targets, lams, True, max_cost)
        if result is None:
            return None
        table, log_scale = result
        total = table.sum()
        if log_scale == -math.inf or total <= 0:
            raise ImpossibleEvidence(f"impossible evidence: p({ev.describe(self.compiled.index, evidence)}) = 0")
        return table / total

    def log_evidence(self, plan: Relevance, lams: Mapping[int, np.ndarray], max_cost: float | None = None
                     ) -> float | None:
        """log Σ_x p(x) Π_v λ_v(x_v) for these (scaled) likelihoods, or None (see :meth:`eliminate`)."""
        result = self.eliminate(plan, (), lams, False, max_cost)
        if result is None:
            return None
        table, log_scale = result
        total = float(table.sum())
        return log_scale + math.log(total) if total > 0 and log_scale > -math.inf else -math.inf

    def _rest_possible(self, plan: Relevance, lams: Mapping[int, np.ndarray], hard: dict[int, int]) -> bool:
        """Whether the components no target needs can all be non-zero (see module docstring)."""
        cs = self.compiled
        for component in plan.others():
            constraints = [v for v in component if (v in hard and not self._always_possible(v, hard[v]))
                           or (v in lams and v not in hard and not np.all(lams[v][0] > 0))]
            if not constraints:
                continue
            factors = [restrict(self.cpt(v)[0], cs.families[v], hard) for v in component
                       if v in hard or self._has_zero(v)]
            factors += [(lams[v][0], (v,)) for v in constraints if v not in hard]
            if not possible(factors, cs.index.cards, self.budget_entries):
                return False
        return True

    def _has_zero(self, var: int) -> bool:
        if var not in self._zeros:
            self._zeros[var] = not bool(np.all(self.stored(var) > 0))
        return self._zeros[var]

    def _always_possible(self, var: int, state: int) -> bool:
        """Whether ``state`` of ``var`` has positive probability under every parent configuration."""
        if var not in self._positive_states:
            table = self.stored(var)
            self._positive_states[var] = np.all(table > 0, axis=tuple(range(table.ndim - 1)))
        return bool(self._positive_states[var][state])
