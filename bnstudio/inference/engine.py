"""The exact inference engine: relevance-pruned elimination for single queries, junction trees for the rest.

``InferenceEngine(net)`` follows the network: the compiled structure is rebuilt when
``net.structure_version`` changes, CPTs and clique potentials when ``net.parameter_version`` changes.

* **Single queries** (``posterior`` of a few targets, ``joint``, ``log_evidence``, ``query_probability``) are
  answered on what the query needs: barren nodes removed, hard evidence absorbed into the CPTs, and the
  components of the moral graph that are d-separated from the targets left out
  (:mod:`bnstudio.inference.pruning`), then variable elimination on the rest
  (:mod:`bnstudio.inference.pruned`). A first query never compiles the whole network. The parts left out are
  still checked for impossible evidence (a cheap support test). Once the whole network's junction tree
  exists, each query takes the cheaper of the two (priced in table entries plus a cost per step: the tree
  recomputes only the messages from its evidence to its answer, the rest come from the evidence-free cache);
  the tree is made at the second query that needs over a quarter of the network (andes, diabetes), so a
  one-off query never pays for it. Posteriors asked without evidence are kept until the parameters change
  (a repeated p(X) is a look-up), and a single query imports no junction-tree module.
* **Many marginals** (``posterior`` of many targets, ``family_marginals``) come from one calibration of the
  whole network's junction tree.
* **Batches** (``*_batch``: N evidence cases, codes with -1 = unobserved, and/or S parameter sets on a leading
  axis of some CPTs) propagate on a junction tree — the whole network's, or for ``posterior_batch`` and
  ``log_evidence_batch`` one over An(targets ∪ observed columns) when that is smaller — in chunks that fit
  the memory budget, accumulated into the result. Any number of cases works; :class:`MemoryBudgetExceeded`
  means that a single case does not fit. This is what EM, gradient training (Zhou eq 3.12/3.15) and the
  delta-method variance (Singh Theorem 2) are built on. A table of cases with column names (a pandas DataFrame,
  a mapping) is matched by those names (:mod:`bnstudio.inference.cases`); only a bare array is read by
  position, its columns named by ``columns`` (default: the network's variables in order).

Likelihood (soft) evidence is used scaled to a maximum of 1 per vector (see
:func:`bnstudio.inference.evidence.single_evidence`), so 1e308-sized likelihoods cannot overflow a clique; the
log of the scale is added back to log p(e). Tables carry a log scale per batch element, so nothing underflows
on possible evidence, however many findings (docs/inference.md §6); one-state variables are absorbed, never
given an axis (§7).

>>> from bnstudio.core import network_from_dsl
>>> engine = InferenceEngine(network_from_dsl("A->B", cpts={"A": [0.3, 0.7], "B": [[0.9, 0.1], [0.2, 0.8]]}))
>>> engine.posterior("A", {"B": "s0"})["A"].round(4).tolist()
[0.6585, 0.3415]
>>> engine.query("A", {"B": "s0"})
Posterior(A | B=s0: s0 0.6585, s1 0.3415)
"""
from __future__ import annotations

import math
from collections import OrderedDict
from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.core.messages import shorten
from bnstudio.core.network import Network
from bnstudio.errors import EvidenceError, ImpossibleEvidence, MemoryBudgetExceeded
from bnstudio.inference import evidence as ev
from bnstudio.inference.batching import BYTES_PER_ENTRY, chunks
from bnstudio.inference.compiled import CompiledStructure
from bnstudio.inference.elimination import MAX_CLIQUE_VARS
from bnstudio.inference.pruned import PrunedQueries
from bnstudio.inference.pruning import Relevance, ancestral_set
from bnstudio.inference.variable_elimination import STEP_COST

if TYPE_CHECKING:  # the tree machinery is imported when a tree is first made: a single query never needs it
    from bnstudio.inference.answers import Posterior
    from bnstudio.inference.explanations import Explanations, MapExplanation
    from bnstudio.inference.intervention import Interventions
    from bnstudio.inference.maxproduct import MaxTree
    from bnstudio.inference.trees import TreeModel
    Parameters = Mapping[str, np.ndarray]  # an annotation only (a typing alias costs a new process's first query)

DEFAULT_MEMORY_BUDGET = 2 * 2**30  # bytes
METHODS = ("auto", "junction-tree", "elimination")
FEW_TARGETS = 4        # more targets than this in one call: one calibration of the whole tree
SUBTREE_CACHE = 8      # junction trees over parts of the network kept for batched calls


class InferenceEngine:
    """Exact inference on a :class:`Network` (see module docstring)."""

    def __init__(self, net: Network, memory_budget: int = DEFAULT_MEMORY_BUDGET, method: str = "auto") -> None:
        if method not in METHODS:
            raise ValueError(f"unknown inference method {method!r}; use one of {METHODS}")
        self.net = net
        self.method = method
        self.memory_budget = int(memory_budget)
        self._structure: CompiledStructure | None = None
        self._structure_version = -1
        self._parameter_version = -1
        self._cpts: list[np.ndarray | None] = []
        self._pruned: PrunedQueries | None = None
        self._models: OrderedDict[frozenset[int] | None, TreeModel] = OrderedDict()
        self._large_queries = 0
        self._interventions: Interventions | None = None
        self._max_tree: MaxTree | None = None

    # ------------------------------------------------------------------ structure and parameters
    @property
    def compiled(self) -> CompiledStructure:
        """The compiled structure for the network as it is now (rebuilt after structural edits)."""
        if self._structure is None or self._structure_version != self.net.structure_version:
            self._structure = CompiledStructure.compile(self.net, self.memory_budget / BYTES_PER_ENTRY)
            self._structure_version = self.net.structure_version
            self._parameter_version = -1
            self._large_queries = 0
        if self._parameter_version != self.net.parameter_version:
            self._cpts = [None] * len(self._structure.families)
            self._models = OrderedDict()
            self._pruned = PrunedQueries(self._structure, self._cpt, self._stored, self.memory_budget, self._label)
            self._parameter_version = self.net.parameter_version
        return self._structure

    def _cpt(self, var: int) -> np.ndarray:
        """Variable ``var``'s CPT with rows renormalised, shape (1, *family). The core tolerates sums within
        1e-6 of 1 (and editors may hold unnormalised rows), but barren-node pruning and p(e) are exact only
        for normalised CPTs; rows already within 1e-12 of 1 are used as they are."""
        table = self._cpts[var]
        if table is None:
            raw = np.asarray(self._stored(var), dtype=float)
            if not np.all(np.abs(raw.sum(axis=-1) - 1.0) <= 1e-12):
                raw = normalise_rows(raw)
            table = self._cpts[var] = raw[None]
        return table

    def _stored(self, var: int) -> np.ndarray:
        assert self._structure is not None  # read by the queries of the compiled structure
        return self.net.cpt(self._structure.index.names[var])

    @property
    def _queries(self) -> PrunedQueries:
        """The pruned eliminations of the compiled network (made by :attr:`compiled`, read after it)."""
        assert self._pruned is not None, "read after compiled"
        return self._pruned

    def _label(self) -> str:
        """The network, for messages: its name, or its size when its file gives no name."""
        n, name = len(self.compiled.families), self.net.name
        if name and name not in ("unknown", "network"):
            return f"'{name}' ({n} variables)"
        return f"this {n}-variable network (its file gives no name)"

    # ------------------------------------------------------------------ junction trees
    @property
    def fits_budget(self) -> bool:
        """Whether many-marginal and single queries may use the whole network's junction tree: it exists and
        one case fits the memory budget (or ``method`` forces the choice). Makes the tree if needed."""
        if self.method != "auto":
            return self.method == "junction-tree"
        jt = self.compiled.jt
        return jt is not None and jt.total_size * BYTES_PER_ENTRY <= self.memory_budget

    def _tree(self, variables: frozenset[int] | None = None, pruned_batch: bool = False) -> TreeModel:
        """The junction tree (with potentials) of the whole network (None) or of an ancestrally closed part;
        raises MemoryBudgetExceeded when a single case of it does not fit. ``pruned_batch``: the tree is
        what a batch's targets and observed columns need (fewer of them would shrink it)."""
        cs = self.compiled
        if variables is not None and len(variables) == len(cs.families):
            variables = None
        model = self._models.get(variables)
        if model is not None:
            self._models.move_to_end(variables)
            return model
        tree = cs.full if variables is None else cs.tree_over(sorted(variables))
        what = "the junction tree of " + (self._label() if variables is None else
                                          f"the {len(variables)} variables this batch needs in {self._label()}")
        if pruned_batch:
            advice = ("fewer targets or observed columns per call, or a larger memory_budget "
                      "(InferenceEngine(net, memory_budget=...)), would make it fit")
        else:
            advice = ("single queries still work (pruned elimination); for this call a larger memory_budget "
                      "(InferenceEngine(net, memory_budget=...)) is needed")
        if tree.jt is None:
            raise MemoryBudgetExceeded(f"{what} does not fit the memory budget of {self._gib(self.memory_budget)} "
                                       f"even for one case ({tree.too_large}); {advice}")
        need = tree.jt.total_size * BYTES_PER_ENTRY
        if need > self.memory_budget:
            raise MemoryBudgetExceeded(f"{what} needs {tree.jt.total_size:.3g} entries ({self._gib(need)}) for one "
                                       f"case: it does not fit the memory budget of {self._gib(self.memory_budget)} "
                                       f"even for one case; {advice}")
        from bnstudio.inference.trees import TreeModel
        model = self._models[variables] = TreeModel(tree.jt, cs.families, cs.tree_families, self._cpt)
        if len(self._models) > SUBTREE_CACHE + 1:
            oldest = next(k for k in self._models if k is not None)
            del self._models[oldest]
        return model

    @staticmethod
    def _gib(nbytes: float) -> str:
        """A byte count for messages: 240 bytes, 3.5 MiB, 2 GiB."""
        for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
            if nbytes >= size:
                return f"{nbytes / size:.3g} {unit}"
        return f"{nbytes:.0f} bytes"

    def batch_capacity(self, bytes_per_element: int = 0) -> int:
        """How many batch elements (evidence cases x parameter sets) one propagation of the whole network's
        tree may take within the memory budget, counting ``bytes_per_element`` of the caller's own arrays;
        at least 1."""
        model = self._tree()
        return max(1, int(self.memory_budget // (model.bytes_per_element + bytes_per_element)))

    # ------------------------------------------------------------------ single case
    def posterior(self, targets: str | Sequence[str], evidence: ev.Evidence | None = None,
                  interventions: Mapping[str, str | int] | None = None) -> dict[str, np.ndarray]:
        """Posterior marginal p(X | e) of each target, as {name: probabilities over its states}; with
        ``interventions`` {X: x}, p(X | do(x), e) on the mutilated network (:meth:`intervened`)."""
        if interventions:
            return self._do().ask(interventions, evidence, lambda e: e.posterior(targets, evidence))
        cs = self.compiled
        names = [targets] if isinstance(targets, str) else list(targets)
        idx = [cs.index.index(t) for t in names]
        lams = ev.single_evidence(cs.index, evidence)
        if len(idx) > FEW_TARGETS and self.method != "elimination" and self.fits_budget:
            return self._tree_posterior(names, idx, lams, evidence)
        out = {}
        priors = None if lams else self._queries.priors  # evidence-free answers: made once per parameter version
        for name, var in zip(names, idx, strict=True):
            if priors is not None and var in priors:
                out[name] = priors[var].copy()
                continue
            route = self._route([var], lams)
            answer = None if route is None else self._queries.conditional([var], lams, *route, evidence)
            if answer is None:
                out.update(self._tree_posterior([name], [var], lams, evidence))
            else:
                out[name] = answer
            if priors is not None:
                priors[var] = out[name].copy()
        return out

    def query(self, target: str, evidence: ev.Evidence | None = None,
              interventions: Mapping[str, str | int] | None = None) -> Posterior:
        """p(``target`` | e) labelled by its states (:class:`~bnstudio.inference.answers.Posterior`: a mapping
        state -> probability with ``values``, ``to_frame()`` and a notebook table); the numbers of
        :meth:`posterior`, which stays the array form for speed."""
        from bnstudio.inference.answers import Posterior

        if not isinstance(target, str):
            raise EvidenceError(f"query takes one target variable, got {shorten(repr(target))}; posterior "
                                "answers several at once")
        values = self.posterior(target, evidence, interventions)[target]
        given = {**dict(evidence or {}), **{f"do({k})": v for k, v in (interventions or {}).items()}}
        return Posterior(target, tuple(self.net.states(target)), values, given)

    def _tree_posterior(self, names, idx, lams, evidence) -> dict[str, np.ndarray]:
        model = self._tree()
        prop = model.propagation(lams)
        if len(idx) > FEW_TARGETS:
            prop.calibrate()
        marginals, possible = model.posteriors(prop, idx)
        if not np.all(possible):
            self._check_possible(np.array([[-np.inf]]), evidence)
        return {name: marginals[var][0, 0] for name, var in zip(names, idx, strict=True)}

    def joint(self, targets: Sequence[str], evidence: ev.Evidence | None = None,
              interventions: Mapping[str, str | int] | None = None) -> np.ndarray:
        """Joint posterior p(T_1, ..., T_k | e) with axes in ``targets`` order (p(T | do(x), e) with
        ``interventions``)."""
        if interventions:
            return self._do().ask(interventions, evidence, lambda e: e.joint(targets, evidence))
        cs = self.compiled
        idx = [cs.index.index(t) for t in targets]
        if len(set(idx)) != len(idx):
            raise EvidenceError(f"targets repeat a variable: {list(targets)}")
        if len(idx) > MAX_CLIQUE_VARS:  # the answer itself would need more numpy axes than there are
            raise EvidenceError(f"a joint over {len(idx)} variables cannot be returned as one table (at most "
                                f"{MAX_CLIQUE_VARS}); ask for fewer targets or use query_probability")
        lams = ev.single_evidence(cs.index, evidence)
        route = self._route(idx, lams)
        if route is not None:
            answer = self._queries.conditional(idx, lams, *route, evidence)
            if answer is not None:
                return answer
        model = self._tree()
        home = model.clique_containing(idx)
        if home is None:  # targets in no one clique: eliminate whatever it costs
            return self._queries.conditional(idx, lams, self._queries.relevance(idx, lams), None, evidence)
        belief, log_z = model.propagation(lams).belief(home)
        self._check_possible(log_z, evidence)
        return model.marginal(belief, home, idx)[0, 0]

    def log_evidence(self, evidence: ev.Evidence | None = None) -> float:
        """log p(e) (natural log); -inf for impossible evidence. Exact where p(e) itself underflows (1,000
        findings: p(e) ≈ 1e-400), every table carrying a log scale (docs/inference.md §6)."""
        lams = ev.single_evidence(self.compiled.index, evidence)
        if not lams:
            return 0.0
        return self._log_evidence(lams) + float(lams.log_scale)  # a float for a single case

    def _log_evidence(self, lams: dict[int, np.ndarray]) -> float:
        """log Σ_x p(x) Π_v λ_v(x_v) for these (scaled) likelihoods."""
        route = self._route([], lams)
        answer = None if route is None else self._queries.log_evidence(route[0], lams, route[1])
        if answer is None:
            model = self._tree()
            home = model.home(lams)
            return float(model.propagation(lams).belief(home)[1][0, 0])
        return answer

    def probability_of_evidence(self, evidence: ev.Evidence | None = None) -> float:
        """p(e) = exp(:meth:`log_evidence`) (likelihood findings above 1 can make it exceed 1, even overflow to
        inf; with many findings it can underflow to 0.0 where log p(e) is still exact)."""
        with np.errstate(over="ignore"):
            return float(np.exp(self.log_evidence(evidence)))

    def query_probability(self, query: Mapping[str, str | int], evidence: ev.Evidence | None = None) -> float:
        """p(q | e) for a joint configuration q = {name: state}: p(q, e) / p(e)."""
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
        """p(X, Pa(X) | e) for every variable, in CPT layout (parents..., X), from one calibration (or, when
        the whole tree does not fit, one pruned elimination per family)."""
        cs = self.compiled
        lams = ev.single_evidence(cs.index, evidence)
        if self.method == "elimination" or not self.fits_budget:
            pruned = self._queries
            return {name: pruned.conditional(list(cs.families[v]), lams, pruned.relevance(cs.families[v], lams),
                                             None, evidence) for v, name in enumerate(cs.index.names)}
        model = self._tree()
        prop = model.propagation(lams)
        prop.calibrate()
        out = {}
        for c, members in model.homed.items():
            belief, log_z = prop.belief(c)
            self._check_possible(log_z, evidence)
            for v in members:
                out[cs.index.names[v]] = model.family_marginal(belief, c, v)[0, 0]
        return {name: out[name] for name in cs.index.names}

    # ------------------------------------------------------------------ interventions
    def intervened(self, interventions: Mapping[str, str | int]) -> InferenceEngine:
        """The engine of the mutilated network of do(X = x, ...): X's parent arcs cut and its CPT a point mass
        at x (:mod:`bnstudio.inference.intervention`); kept per intervention set until the network changes."""
        return self._do().engine_for(interventions)

    def _do(self) -> Interventions:
        if self._interventions is None:
            from bnstudio.inference.intervention import Interventions
            self._interventions = Interventions(self)
        return self._interventions

    # ------------------------------------------------------------------ explanations
    def mpe(self, evidence: ev.Evidence | None = None, top: int = 1) -> Explanations:
        """The ``top`` most probable explanations argmax_x p(x | e) of the unobserved variables, most probable
        first, exact (max-product on the junction tree; Nilsson's partitioning for top > 1): see
        :mod:`bnstudio.inference.explanations`. ``.best`` is the MPE."""
        from bnstudio.inference.explanations import most_probable
        return most_probable(self, evidence, top)

    def map(self, variables: str | Sequence[str], evidence: ev.Evidence | None = None,
            method: str = "auto") -> MapExplanation:
        """argmax_m p(m | e) over ``variables``, the others summed out: exact by constrained elimination where it
        fits the memory budget, else (method "auto") an anytime local search labelled ``exact=False`` with
        bounds (:mod:`bnstudio.inference.explanations`)."""
        from bnstudio.inference.explanations import maximum_a_posteriori
        return maximum_a_posteriori(self, variables, evidence, method)

    def max_tree(self) -> MaxTree:
        """The max-product view of the whole network's junction tree (log potentials, cached messages),
        remade with the tree; raises MemoryBudgetExceeded when the tree does not fit."""
        model = self._tree()
        if self._max_tree is None or self._max_tree.model is not model:
            from bnstudio.inference.maxproduct import MaxTree
            self._max_tree = MaxTree(model)
        return self._max_tree

    # ------------------------------------------------------------------ pruned elimination
    def _route(self, targets: Sequence[int], lams: Mapping[int, np.ndarray]
               ) -> tuple[Relevance, float | None] | None:
        """How to answer one query: None for the whole network's tree, else its relevance for pruned
        elimination and the cost above which the tree is cheaper (None: no tree to compare with).

        With the tree at hand its price comes first: a query whose evidence-to-answer paths cost no more than
        a few steps goes to the tree at once, and so does one that costs less than a step per requisite CPT
        (a floor for elimination); only otherwise is elimination's order priced (by ``eliminate``)."""
        if self.method == "junction-tree":
            return None
        cs = self.compiled
        tree_cost = None
        if self.method == "auto" and cs.has_full_tree and self.fits_budget:
            tree_cost = self._tree_cost(targets, lams)
            if tree_cost <= 4 * STEP_COST:
                return None
        plan = self._queries.relevance(targets, lams)
        if self.method == "elimination":
            return plan, None
        if tree_cost is None:
            if 4 * len(plan.requisite()) > len(cs.families):
                self._large_queries += 1
            if self._large_queries < 2 or not self.fits_budget:  # a one-off query does not pay for the tree
                return plan, None
            tree_cost = self._tree_cost(targets, lams)
        if tree_cost <= STEP_COST * len(plan.requisite()):
            return None
        return plan, tree_cost

    def _tree_cost(self, targets: Sequence[int], lams: Mapping[int, np.ndarray]) -> float:
        """What one query costs on the whole tree: the cliques whose messages towards the answer's clique
        hold evidence (the others come from the evidence-free cache), in table entries plus STEP_COST each."""
        model = self._tree()
        jt = model.jt
        dirty = 0
        for v in lams:
            if jt.var_home[v] >= 0:  # one-state variables have no clique (nor anything to propagate)
                dirty |= 1 << jt.var_home[v]
        start = model.home(list(targets) + list(lams))
        cost = jt.sizes[start] + STEP_COST
        stack = [(start, -1)]
        while stack:
            c, came = stack.pop()
            for d in jt.neighbours[c]:
                if d != came and jt.side(d, c) & dirty:
                    cost += jt.sizes[d] + STEP_COST
                    stack.append((d, c))
        return cost

    # ------------------------------------------------------------------ batched
    def posterior_batch(self, targets: str | Sequence[str], cases: Mapping[str, np.ndarray] | np.ndarray,
                        columns: Sequence[str] | None = None,
                        parameters: Parameters | None = None) -> dict[str, np.ndarray]:
        """p(X | e_n) for N cases at once: {name: (N, |X|)}, or (S, N, |X|) with S parameter sets."""
        cs = self.compiled
        names = [targets] if isinstance(targets, str) else list(targets)
        idx = [cs.index.index(t) for t in names]
        batch = ev.batch_columns(cs.index, cases, columns)
        params, s = self._parameter_sets(parameters)
        if not idx:
            return {}
        model = self._batch_tree(idx, batch)
        out = {name: np.empty((s, batch.n_cases, cs.index.cards[v])) for name, v in zip(names, idx, strict=True)}
        bad = []
        for sets, rows, prop in self._propagations(model, batch, params, s):
            if len(idx) > FEW_TARGETS:
                prop.calibrate()
            marginals, possible = model.posteriors(prop, idx)
            for name, var in zip(names, idx, strict=True):
                out[name][sets, rows] = marginals[var]
            bad.append(rows.start + np.flatnonzero((~possible).any(axis=0)))
        self._raise_impossible(bad)
        return {name: arr if parameters else arr[0] for name, arr in out.items()}

    def log_evidence_batch(self, cases: Mapping[str, np.ndarray] | np.ndarray, columns: Sequence[str] | None = None,
                           parameters: Parameters | None = None) -> np.ndarray:
        """log p(e_n) per case: (N,), or (S, N) with parameter sets; -inf marks impossible cases (and only
        those: p(e_n) far below the smallest double is still exact, docs/inference.md §6)."""
        cs = self.compiled
        batch = ev.batch_columns(cs.index, cases, columns)
        params, s = self._parameter_sets(parameters)
        out = np.zeros((s, batch.n_cases))
        if batch:
            model = self._batch_tree([], batch)
            home = model.home(batch)
            for sets, rows, prop in self._propagations(model, batch, params, s, with_scale=out):
                out[sets, rows] += prop.belief(home)[1]
        return out if parameters else out[0]

    def family_marginals_batch(self, cases: Mapping[str, np.ndarray] | np.ndarray,
                               columns: Sequence[str] | None = None, parameters: Parameters | None = None,
                               weights: np.ndarray | None = None, reduce: bool = True) -> dict[str, np.ndarray]:
        """Family marginals for N cases: Σ_n w_n p(X, Pa | e_n) when ``reduce`` (expected counts, the EM
        E-step), else per case (N, *family). With S parameter sets a leading S axis is added."""
        batch = ev.batch_columns(self.compiled.index, cases, columns)
        weights = self._check_weights(weights, batch.n_cases)
        params, s = self._parameter_sets(parameters)
        out, _ = self._family_marginals(batch, params, s, weights, reduce, check=True)
        return {k: v if parameters else v[0] for k, v in out.items()}

    def calibrate_batch(self, cases: Mapping[str, np.ndarray] | np.ndarray, columns: Sequence[str] | None = None,
                        weights: np.ndarray | None = None, reduce: bool = False
                        ) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """One propagation for N cases giving the family marginals — per case {name: (N, *family)}, or with
        ``reduce`` the weighted sums Σ_n w_n p(X, Pa | e_n) (EM's expected counts) — and log p(e_n) (N,).
        Impossible cases get all-zero marginals and log p(e) = -inf instead of an error (e.g. the (q, e)
        calibration of the delta method when q contradicts e)."""
        batch = ev.batch_columns(self.compiled.index, cases, columns)
        weights = self._check_weights(weights, batch.n_cases)
        out, log_z = self._family_marginals(batch, {}, 1, weights, reduce, check=False)
        return {k: v[0] for k, v in out.items()}, log_z[0]

    # ------------------------------------------------------------------ batch helpers
    def _parameter_sets(self, parameters: Parameters | None) -> tuple[dict[int, np.ndarray], int]:
        """{var: (S, *family)} validated against the CPT shapes, and S (1 without parameter sets)."""
        if not parameters:
            return {}, 1
        cs = self.compiled
        tables = {cs.index.index(name): np.asarray(t, dtype=float) for name, t in parameters.items()}
        shapes = {v: self._cpt(v).shape[1:] for v in tables}
        from bnstudio.inference.trees import check_parameter_sets
        return tables, check_parameter_sets(shapes, cs.index.names, tables)

    def _batch_tree(self, targets: Sequence[int], batch: ev.BatchColumns) -> TreeModel:
        """The tree a batch propagates on: the whole network's, or one over An(targets ∪ observed) when the
        whole tree is not made yet or not usable, or that part is at most half the network."""
        cs = self.compiled
        if self.method == "junction-tree":
            return self._tree()
        region = frozenset(ancestral_set(cs.parents, set(targets) | set(batch)))
        if (cs.has_full_tree and cs.jt is not None and 2 * len(region) > len(cs.families)
                and cs.jt.total_size * BYTES_PER_ENTRY <= self.memory_budget):
            return self._tree()
        return self._tree(region, pruned_batch=True)

    def _propagations(self, model: TreeModel, batch: ev.BatchColumns, params: dict[int, np.ndarray], s: int,
                      with_scale: np.ndarray | None = None):
        """(parameter-set slice, case slice, propagation) per chunk that fits the memory budget; with
        ``with_scale`` the removed log scale of soft evidence is added to it for each chunk."""
        per_case = 16 * sum(batch.cards[v] for v in batch)
        for sets, rows in chunks(batch.n_cases, s, self.memory_budget, model.bytes_per_element, per_case,
                                 self._label()):
            lams = batch.likelihoods(rows)
            part = {v: t[sets] for v, t in params.items()}
            if with_scale is not None:
                with_scale[sets, rows] += lams.log_scale
            yield sets, rows, model.propagation(lams, part)

    def _family_marginals(self, batch: ev.BatchColumns, params: dict[int, np.ndarray], s: int,
                          weights: np.ndarray | None, reduce: bool, check: bool
                          ) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """Family marginals {name: (S, N, *family)} (or (S, *family) summed with ``reduce``) and log p(e) (S, N),
        from one calibration of the whole tree per chunk."""
        cs = self.compiled
        model = self._tree()
        n = batch.n_cases
        shape = (s,) if reduce else (s, n)
        out = {cs.index.names[v]: np.zeros(shape + tuple(cs.index.cards[u] for u in cs.families[v])) for v in range(len(cs.families))}
        log_z = np.zeros((s, n))
        bad = []
        for sets, rows, prop in self._propagations(model, batch, params, s, with_scale=log_z):
            prop.calibrate()
            for c, members in model.homed.items():
                belief, z = prop.belief(c)
                if reduce:
                    belief = np.broadcast_to(belief, belief.shape[:-1] + (rows.stop - rows.start,))
                    w = weights[rows] if weights is not None else None
                    belief = (np.einsum("...sn,n->...s", belief, w) if w is not None else belief.sum(axis=-1))[..., None]
                for v in members:
                    marginal = model.family_marginal(belief, c, v)
                    if reduce:
                        out[cs.index.names[v]][sets] += marginal[:, 0]
                    else:
                        out[cs.index.names[v]][sets, rows] = marginal
            log_z[sets, rows] += z
            bad.append(rows.start + np.flatnonzero(np.isneginf(z).any(axis=0)))
        if check:
            self._raise_impossible(bad)
        return out, log_z

    @staticmethod
    def _check_weights(weights, n: int) -> np.ndarray | None:
        if weights is None:
            return None
        weights = np.asarray(weights, dtype=float)
        if weights.shape != (n,):
            raise EvidenceError(f"weights must have shape ({n},), got {weights.shape}")
        return weights

    def _check_possible(self, log_z: np.ndarray, evidence) -> None:
        if np.any(np.isneginf(log_z)):
            raise ImpossibleEvidence(f"impossible evidence: p({ev.describe(self.compiled.index, evidence)}) = 0")

    @staticmethod
    def _raise_impossible(bad: list[np.ndarray]) -> None:
        cases = np.unique(np.concatenate(bad)) if bad else np.zeros(0, dtype=int)
        if cases.size:
            raise ImpossibleEvidence(f"impossible evidence (p(e) = 0) in case(s) {cases[:10].tolist()}"
                                     + (f" and {cases.size - 10} more" if cases.size > 10 else ""))
