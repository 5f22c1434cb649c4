"""The compiled exact inference engine: one junction tree per structure, reused for every parameter change.

``InferenceEngine(net)`` compiles lazily: the elimination order and junction tree are rebuilt only when
``net.structure_version`` changes; clique potentials and the cached no-evidence messages only when
``net.parameter_version`` changes. Answers:

* ``posterior`` / ``joint`` / ``query_probability`` / ``log_evidence`` / ``family_marginals`` for one case,
  with hard (state) or soft (likelihood vector) evidence;
* the ``*_batch`` variants for N evidence cases (codes, -1 = unobserved) and/or S parameter sets (a leading
  axis on the CPTs) in one vectorised propagation — what EM, gradient training (Zhou eq 3.12/3.15) and the
  delta-method variance (Singh Theorem 2) are built on.

When the full junction tree does not fit the memory budget (munin1, link), single queries fall back to
relevance pruning plus query-specific variable elimination; batched calls then raise
:class:`MemoryBudgetExceeded` with the sizes involved. Compilation itself is bounded: the search for an
elimination order stops at the first clique bigger than the budget allows (a 60×60 grid compiles in seconds to
"no junction tree", not in minutes to a tree that could never be allocated).

Likelihood (soft) evidence is used scaled to a maximum of 1 per vector (see
:func:`bnstudio.inference.evidence.single_evidence`), so 1e308-sized likelihoods cannot overflow a clique; the
log of the scale is added back to log p(e).

>>> from bnstudio.core import network_from_dsl
>>> engine = InferenceEngine(network_from_dsl("A->B", cpts={"A": [0.3, 0.7], "B": [[0.9, 0.1], [0.2, 0.8]]}))
>>> engine.posterior("A", {"B": "s0"})["A"].round(4).tolist()
[0.6585, 0.3415]
"""
from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np

from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.core.network import Network
from bnstudio.errors import EvidenceError, ImpossibleEvidence, MemoryBudgetExceeded
from bnstudio.inference import evidence as ev
from bnstudio.inference.compiled import CompiledStructure
from bnstudio.inference.propagation import Propagation
from bnstudio.inference.pruning import requisite_variables
from bnstudio.inference.variable_elimination import eliminate, restrict

DEFAULT_MEMORY_BUDGET = 2 * 2**30  # bytes
TREE_BYTES_PER_ENTRY = 8 * 3  # potentials, messages and beliefs of one propagation, float64
Parameters = Mapping[str, np.ndarray]
METHODS = ("auto", "junction-tree", "elimination")


class InferenceEngine:
    """Exact inference on a :class:`Network`, compiled once per structure (see module docstring)."""

    def __init__(self, net: Network, memory_budget: int = DEFAULT_MEMORY_BUDGET, method: str = "auto") -> None:
        if method not in METHODS:
            raise ValueError(f"unknown inference method {method!r}; use one of {METHODS}")
        self.net = net
        self.method = method
        self.memory_budget = int(memory_budget)
        self._structure: CompiledStructure | None = None
        self._structure_version = -1
        self._parameter_version = -1
        self._base_cpts: list[np.ndarray] = []
        self._potentials: list[np.ndarray] | None = None
        self._prior: Propagation | None = None

    # ------------------------------------------------------------------ compilation
    @property
    def compiled(self) -> CompiledStructure:
        """The compiled structure for the network as it is now (recompiled after structural edits)."""
        if self._structure is None or self._structure_version != self.net.structure_version:
            self._structure = CompiledStructure.compile(self.net, self.memory_budget / TREE_BYTES_PER_ENTRY)
            self._structure_version = self.net.structure_version
            self._parameter_version = -1
        if self._parameter_version != self.net.parameter_version:
            # rows are renormalised: the core tolerates sums within 1e-6 of 1 (and editors may hold
            # unnormalised rows), but barren-node pruning and p(e) are exact only for normalised CPTs
            self._base_cpts = [normalise_rows(self.net.cpt(v))[None] for v in self._structure.index.names]
            self._potentials, self._prior = None, None
            self._parameter_version = self.net.parameter_version
        return self._structure

    @property
    def fits_budget(self) -> bool:
        """Whether single queries use the junction tree: it fits the memory budget (or is forced by
        ``method``); otherwise they use pruned variable elimination."""
        if self.method != "auto":
            return self.method == "junction-tree"
        return self.compiled.jt is not None and self._tree_bytes(1) <= self.memory_budget

    def _tree_bytes(self, batch_elements: int) -> int:
        """Working memory of one propagation: potentials, messages and beliefs (about 3x the tree)."""
        return self.compiled.jt.total_size * TREE_BYTES_PER_ENTRY * batch_elements

    def batch_capacity(self, bytes_per_element: int = 0) -> int:
        """How many batch elements (evidence cases x parameter sets) one propagation may take within the
        memory budget, counting ``bytes_per_element`` of the caller's own arrays; at least 1."""
        self._require_tree()
        per_element = self._tree_bytes(1) + bytes_per_element
        return max(1, int(self.memory_budget // per_element))

    def _require_tree(self, batch_elements: int = 1) -> CompiledStructure:
        cs = self.compiled
        if cs.jt is None:
            raise MemoryBudgetExceeded(
                f"the junction tree of '{self.net.name}' does not fit the memory budget of "
                f"{self.memory_budget / 2**30:.3g} GiB ({cs.too_large}); ask single queries (pruned elimination) "
                f"instead")
        need = self._tree_bytes(batch_elements)
        if need > self.memory_budget:
            raise MemoryBudgetExceeded(
                f"the junction tree of '{self.net.name}' needs {cs.jt.total_size:.3g} entries per case "
                f"({need / 2**30:.3g} GiB for this call), more than the memory budget of "
                f"{self.memory_budget / 2**30:.3g} GiB; ask single queries (pruned elimination) instead")
        return cs

    def _base_propagation(self) -> Propagation:
        cs = self._require_tree()
        if self._prior is None:
            self._potentials = cs.potentials(self._base_cpts)
            self._prior = Propagation(cs.jt, self._potentials)
        return self._prior

    def _propagation(self, lams: dict[int, np.ndarray], parameters: Parameters | None = None,
                     n_cases: int = 1) -> Propagation:
        """A propagation for evidence ``lams`` ({var: (1|N, |X|)}) and optional parameter sets."""
        base = self._base_propagation()
        cs = self.compiled
        potentials, dirty = base.potentials, 0
        if parameters:
            cpts, changed = cs.parameter_sets(self._base_cpts, parameters)
            self._require_tree(cpts_batch(cpts) * n_cases)
            homes = {cs.jt.family_home[v] for v in changed}
            potentials = cs.potentials(cpts, only=homes, base=base.potentials)
            dirty = sum(1 << c for c in homes)
        else:
            self._require_tree(n_cases)
        placed: dict[int, list[np.ndarray]] = {}
        for var, lam in lams.items():
            home = cs.jt.var_home[var]
            placed.setdefault(home, []).append(lam.reshape((1, lam.shape[0]) + cs.jt.axis_shape(home, [var])))
            dirty |= 1 << home
        return Propagation(cs.jt, potentials, placed, dirty, clean=base)

    # ------------------------------------------------------------------ single case
    def posterior(self, targets: str | Sequence[str], evidence: ev.Evidence | None = None) -> dict[str, np.ndarray]:
        """Posterior marginal p(X | e) of each target, as {name: probabilities over its states}."""
        cs = self.compiled
        names = [targets] if isinstance(targets, str) else list(targets)
        idx = [cs.index.index(t) for t in names]
        lams = ev.single_evidence(cs.index, evidence)
        if not self.fits_budget:
            return {n: self._ve_joint([v], lams, evidence) for n, v in zip(names, idx)}
        prop = self._propagation(lams)
        out = {}
        for name, var in zip(names, idx):
            belief, log_z = prop.belief(cs.jt.var_home[var])
            self._check_possible(log_z, evidence)
            out[name] = cs.marginal(belief, cs.jt.var_home[var], [var])[0, 0]
        return out

    def joint(self, targets: Sequence[str], evidence: ev.Evidence | None = None) -> np.ndarray:
        """Joint posterior p(T_1, ..., T_k | e) with axes in ``targets`` order."""
        cs = self.compiled
        idx = [cs.index.index(t) for t in targets]
        if len(set(idx)) != len(idx):
            raise EvidenceError(f"targets repeat a variable: {list(targets)}")
        lams = ev.single_evidence(cs.index, evidence)
        home = self._require_tree().clique_containing(idx) if self.fits_budget else None
        if home is None:
            return self._ve_joint(idx, lams, evidence)
        belief, log_z = self._propagation(lams).belief(home)
        self._check_possible(log_z, evidence)
        return cs.marginal(belief, home, idx)[0, 0]

    def log_evidence(self, evidence: ev.Evidence | None = None) -> float:
        """log p(e) (natural log); -inf for impossible evidence."""
        cs = self.compiled
        lams = ev.single_evidence(cs.index, evidence)
        if not lams:
            return 0.0
        return self._log_evidence(lams) + lams.log_scale

    def _log_evidence(self, lams: dict[int, np.ndarray]) -> float:
        """log Σ_x p(x) Π_v λ_v(x_v) for these (scaled) likelihoods."""
        if not self.fits_budget:
            return self._ve_log_evidence(lams)
        home = self.compiled.jt.var_home[next(iter(lams))]
        return float(self._propagation(lams).belief(home)[1][0, 0])

    def probability_of_evidence(self, evidence: ev.Evidence | None = None) -> float:
        """p(e) (likelihood findings above 1 can make it exceed 1, even overflow to inf)."""
        with np.errstate(over="ignore"):
            return float(np.exp(self.log_evidence(evidence)))

    def query_probability(self, query: Mapping[str, str | int], evidence: ev.Evidence | None = None) -> float:
        """p(q | e) for a joint configuration q = {name: state}: p(q, e) / p(e) from two propagations."""
        cs = self.compiled
        evidence = dict(evidence or {})
        log_e = self.log_evidence(evidence)
        if log_e == -math.inf:
            self._check_possible(np.array([[log_e]]), evidence)
        lams = ev.single_evidence(cs.index, evidence)
        for name, state in query.items():
            var = cs.index.index(name)
            lam = ev.likelihood_vector(cs.index, var, state)
            lams[var] = lams[var] * lam if var in lams else lam
        log_qe = self._log_evidence(lams) + lams.log_scale
        return math.exp(log_qe - log_e) if log_qe > -math.inf else 0.0

    def family_marginals(self, evidence: ev.Evidence | None = None) -> dict[str, np.ndarray]:
        """p(X, Pa(X) | e) for every variable, in CPT layout (parents..., X), from one calibration."""
        lams = ev.single_evidence(self.compiled.index, evidence)
        return {k: v[0, 0] for k, v in self._family_marginals(lams, None, 1, evidence)[0].items()}

    # ------------------------------------------------------------------ batched
    def posterior_batch(self, targets: str | Sequence[str], cases: Mapping[str, np.ndarray] | np.ndarray,
                        columns: Sequence[str] | None = None,
                        parameters: Parameters | None = None) -> dict[str, np.ndarray]:
        """p(X | e_n) for N cases at once: {name: (N, |X|)}, or (S, N, |X|) with S parameter sets."""
        cs = self.compiled
        names = [targets] if isinstance(targets, str) else list(targets)
        idx = [cs.index.index(t) for t in names]
        lams, n = ev.batch_evidence(cs.index, cases, columns)
        prop = self._propagation(lams, parameters, n)
        out = {}
        for name, var in zip(names, idx):
            belief, log_z = prop.belief(cs.jt.var_home[var])
            self._check_possible_batch(log_z)
            out[name] = self._shape_out(cs.marginal(belief, cs.jt.var_home[var], [var]), n, parameters)
        return out

    def log_evidence_batch(self, cases: Mapping[str, np.ndarray] | np.ndarray, columns: Sequence[str] | None = None,
                           parameters: Parameters | None = None) -> np.ndarray:
        """log p(e_n) per case: (N,), or (S, N) with parameter sets; -inf marks impossible cases."""
        cs = self.compiled
        lams, n = ev.batch_evidence(cs.index, cases, columns)
        prop = self._propagation(lams, parameters, n)
        home = cs.jt.var_home[next(iter(lams))] if lams else 0
        log_z = prop.belief(home)[1]
        return self._shape_out(np.broadcast_to(log_z, (log_z.shape[0], n)) + lams.log_scale, n, parameters)

    def family_marginals_batch(self, cases: Mapping[str, np.ndarray] | np.ndarray,
                               columns: Sequence[str] | None = None, parameters: Parameters | None = None,
                               weights: np.ndarray | None = None, reduce: bool = True) -> dict[str, np.ndarray]:
        """Family marginals for N cases: Σ_n w_n p(X, Pa | e_n) when ``reduce`` (expected counts, the EM
        E-step), else per case (N, *family). With S parameter sets a leading S axis is added."""
        cs = self.compiled
        lams, n = ev.batch_evidence(cs.index, cases, columns)
        weights = self._check_weights(weights, n)
        result, _ = self._family_marginals(lams, parameters, n, None, weights if reduce else None, reduce)
        if reduce:
            return {k: v[:, 0] if parameters else v[0, 0] for k, v in result.items()}
        return {k: self._shape_out(v, n, parameters) for k, v in result.items()}

    def calibrate_batch(self, cases: Mapping[str, np.ndarray] | np.ndarray, columns: Sequence[str] | None = None,
                        weights: np.ndarray | None = None, reduce: bool = False
                        ) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """One propagation for N cases giving the family marginals — per case {name: (N, *family)}, or with
        ``reduce`` the weighted sums Σ_n w_n p(X, Pa | e_n) (EM's expected counts) — and log p(e_n) (N,).
        Impossible cases get all-zero marginals and log p(e) = -inf instead of an error (e.g. the (q, e)
        calibration of the delta method when q contradicts e)."""
        cs = self.compiled
        lams, n = ev.batch_evidence(cs.index, cases, columns)
        weights = self._check_weights(weights, n)
        out, log_z = self._family_marginals(lams, None, n, None, weights, reduce, check=False)
        out = {k: v[0, 0] for k, v in out.items()} if reduce else {k: self._shape_out(v, n, None)
                                                                    for k, v in out.items()}
        return out, np.broadcast_to(log_z, (1, n))[0] + lams.log_scale

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _check_weights(weights, n: int) -> np.ndarray | None:
        if weights is None:
            return None
        weights = np.asarray(weights, dtype=float)
        if weights.shape != (n,):
            raise EvidenceError(f"weights must have shape ({n},), got {weights.shape}")
        return weights

    def _family_marginals(self, lams, parameters, n, evidence, weights=None, reduce=False, check=True
                          ) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """Family marginals (S, N|1, *family) from one calibration, and log p(e) (S', N')."""
        cs = self.compiled
        if not self.fits_budget and n == 1 and not parameters:
            out = {name: self._ve_joint(list(cs.families[v]), lams, evidence)[None, None]
                   for v, name in enumerate(cs.index.names)}
            return out, np.array([[self._ve_log_evidence(lams) if lams else 0.0]])
        prop = self._propagation(lams, parameters, n)
        out, log_z = {}, np.zeros((1, 1))
        for c in sorted(set(cs.jt.family_home)):
            belief, log_z = prop.belief(c)
            if check:
                self._check_possible_batch(log_z) if evidence is None else self._check_possible(log_z, evidence)
            if reduce:
                belief = np.broadcast_to(belief, belief.shape[:1] + (n,) + belief.shape[2:])
                belief = (np.einsum("sn...,n->s...", belief, weights) if weights is not None
                          else belief.sum(axis=1))[:, None]
            for v in cs.vars_homed_at(c):
                out[cs.index.names[v]] = cs.marginal(belief, c, list(cs.families[v]))
        return out, log_z

    def _shape_out(self, arr: np.ndarray, n: int, parameters: Parameters | None) -> np.ndarray:
        arr = np.broadcast_to(arr, (arr.shape[0], n) + arr.shape[2:])
        return np.array(arr) if parameters else np.array(arr[0])

    def _check_possible(self, log_z: np.ndarray, evidence) -> None:
        if np.any(np.isneginf(log_z)):
            raise ImpossibleEvidence(f"impossible evidence: p({ev.describe(self.compiled.index, evidence)}) = 0")

    def _check_possible_batch(self, log_z: np.ndarray) -> None:
        bad = np.isneginf(log_z)
        if np.any(bad):
            cases = np.flatnonzero(bad.any(axis=0))
            raise ImpossibleEvidence(f"impossible evidence (p(e) = 0) in case(s) {cases[:10].tolist()}"
                                     + (f" and {cases.size - 10} more" if cases.size > 10 else ""))

    def _ve_query(self, targets: Sequence[int], lams: dict[int, np.ndarray],
                  conditional: bool) -> tuple[np.ndarray, float]:
        """Pruned variable elimination: (unnormalised table over ``targets``, log scale)."""
        cs = self.compiled
        hard = {v: int(np.argmax(lam[0])) for v, lam in lams.items()
                if v not in targets and np.count_nonzero(lam[0]) == 1}
        keep = requisite_variables(cs.parents, targets, lams, hard, conditional)
        factors = [restrict(self._base_cpts[v][0], cs.families[v], hard) for v in sorted(keep)]
        factors += [(lam[0], (v,)) for v, lam in lams.items() if v not in hard and v in keep]
        table, log_scale = eliminate(factors, cs.index.cards, targets, self.memory_budget / 8)
        # a one-nonzero likelihood is sliced in as hard evidence; its value still scales p(e)
        return table, log_scale + sum(math.log(lams[v][0, s]) for v, s in hard.items())

    def _ve_joint(self, targets: Sequence[int], lams: dict[int, np.ndarray], evidence) -> np.ndarray:
        table, log_scale = self._ve_query(targets, lams, conditional=True)
        total = table.sum()
        if log_scale == -math.inf or total <= 0:
            raise ImpossibleEvidence(f"impossible evidence: p({ev.describe(self.compiled.index, evidence)}) = 0")
        return table / total

    def _ve_log_evidence(self, lams: dict[int, np.ndarray]) -> float:
        table, log_scale = self._ve_query((), lams, conditional=False)
        total = float(table.sum())
        return log_scale + math.log(total) if total > 0 and log_scale > -math.inf else -math.inf


def cpts_batch(cpts: list[np.ndarray]) -> int:
    """The number S of parameter sets in a list of (S|1, *family) arrays."""
    return max(c.shape[0] for c in cpts)
