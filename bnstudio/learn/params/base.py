"""What every parameter learner shares: the fitted result, the stopping rule, data scores for histories.

Learners follow the scikit-learn shape (docs/architecture.md §2; :class:`ParameterLearner`, the shape of
:mod:`bnstudio.learn.shape`): the constructor checks and keeps each option as an attribute of its own name
(``get_params`` / ``set_params``), ``fit(net, data, target=None, validation=None, reporter=None)`` validates, never
mutates ``net`` and returns a :class:`FitResult`; an iterative learner (:class:`IterativeLearner`) keeps
``max_iter``, ``tol`` and ``max_time`` and builds its :class:`~bnstudio.learn.params.stopping.StopRule` when
fitting. Every history entry holds the mean negative log-likelihood per training case (natural
log) and, with a target, the mean negative conditional log-likelihood of the target; also on the validation
rows when given. ``stop_reason`` is one of :data:`~bnstudio.learn.params.stopping.STOP_REASONS`.
"""
from __future__ import annotations

import inspect
import math
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

import numpy as np

from bnstudio import hooks
from bnstudio.core.network import Network
from bnstudio.defaults import DEFAULT_L2
from bnstudio.errors import ValidationError
from bnstudio.inference import DEFAULT_MEMORY_BUDGET
from bnstudio.inference.batching import fitting
from bnstudio.learn.params.stopping import StopRule
from bnstudio.learn.params.suffstats import check_codes, family_counts, family_index, narrow_codes, one_hot_blocks
from bnstudio.learn.params.terms import PreparedRows, Terms
from bnstudio.learn.shape import Learner

F = TypeVar("F", bound=Callable[..., Any])


FIT_PARAMETERS = """
Parameters
----------
net : Network
    The structure, and the starting CPTs of a method that starts from them (``init="current"``); never changed.
data : integer codes, AlignedData, DataFrame, Dataset or path of a table file
    Codes (N, |V|) in ``net.variables`` order, -1 = missing; a table is matched by column name
    (docs/architecture.md §3.25). ml, mp and em also take DataParts (a table read a part at a time).
weights : array of shape (N,), optional
    Case weights (default: every row counts once).
target : str, optional
    The class variable: required by clgd and wanbia; with it every method's history has the cnll.
validation : optional
    Held-out rows, in the same forms as ``data``, scored in the history (lgd and clgd stop early on them with
    ``patience``).
reporter : Reporter, optional
    Progress (:mod:`bnstudio.jobs`): one report per iteration; a stop request raises Cancelled.

Returns
-------
FitResult
    The CPTs (and the Dirichlet counts where the method has them), the history and the stop reason;
    ``result.network(net)`` is a new network carrying them.
"""


class ParameterLearner(Learner):
    """A parameter learner: options by name (:class:`~bnstudio.learn.shape.Learner`) and
    ``fit(net, data, weights=None, target=None, validation=None, reporter=None) -> FitResult``."""

    kind = "method"


class IterativeLearner(ParameterLearner):
    """A parameter learner that iterates: the shared stopping options ``max_iter``, ``tol`` and ``max_time``,
    each an attribute of its own name, checked by :class:`StopRule`'s rules."""

    max_iter: int
    tol: float
    max_time: float

    def _set_stopping(self, max_iter: int, tol: float, max_time: float) -> None:
        """Check and keep the three stopping options (one-line ValidationError naming the bad one)."""
        rule = StopRule(max_iter, tol, max_time)
        self.max_iter, self.tol, self.max_time = rule.max_iter, rule.tol, rule.max_time

    def stop_rule(self) -> StopRule:
        """The stopping rule of a run, built from the options as they are now."""
        return StopRule(self.max_iter, self.tol, self.max_time)


def documented_fit(summary: str) -> Callable[[F], F]:
    """Give a learner's ``fit`` its docstring: ``summary`` and the parameters every parameter learner shares."""
    def document(fit: F) -> F:
        fit.__doc__ = inspect.cleandoc(summary) + "\n" + FIT_PARAMETERS
        return fit
    return document


def resolve_l2(l2: float | None, weights: np.ndarray) -> float:
    """The L2 penalty per training case: ``l2`` as given, or :data:`DEFAULT_L2` / (total weight) for None."""
    return DEFAULT_L2 / float(weights.sum()) if l2 is None else float(l2)


def weighted_sum(weights: np.ndarray, values: np.ndarray) -> float:
    """Σ_n w_n v_n without BLAS (einsum): vector dots through a threaded BLAS cost milliseconds each."""
    return float(np.einsum("i,i->", weights, values))


@dataclass
class FitResult:
    """A fitted parameter set; apply it with :meth:`network` (a new network; the input is never changed)."""

    method: str
    cpts: dict[str, np.ndarray]
    alpha: dict[str, np.ndarray] | None
    history: list[dict[str, float]]
    stop_reason: str
    seconds: float
    settings: dict[str, Any] = field(default_factory=dict)
    ensemble: dict[str, np.ndarray] | None = None   # bagged-mp: (T, *family) per variable
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def n_iterations(self) -> int:
        return len(self.history)

    def __repr__(self) -> str:
        """The run in one line: method, stop reason, iterations, time and the last scores (never the CPTs)."""
        return f"FitResult({describe_run(self.method, self.stop_reason, self.history, self.seconds)}, " \
               f"{len(self.cpts)} CPTs{', bagged' if self.ensemble is not None else ''})"

    def _repr_html_(self) -> str:
        """Notebooks: scores and the convergence curve (:data:`bnstudio.hooks.fit_html`)."""
        return hooks.fit_html(self)

    def network(self, base: Network) -> Network:
        """A copy of ``base`` carrying these CPTs (and Dirichlet counts where the method has them)."""
        net = base.copy()
        net.set_parameters(self.cpts, self.alpha)
        return net

    def to_json(self, parameters: bool = False) -> dict[str, Any]:
        """The run as JSON-safe data (for ``--json``); with ``parameters``, also the CPTs, Dirichlet counts and
        bagged ensemble as nested lists (for the project file; an ensemble over ``MAX_STORED`` numbers is left
        out and ``ensemble_omitted`` says so)."""
        doc: dict[str, Any] = {"method": self.method, "settings": self.settings, "history": self.history,
                               "stop_reason": self.stop_reason, "seconds": self.seconds,
                               "n_iterations": self.n_iterations}
        if parameters:
            doc["cpts"] = _tables_json(self.cpts)
            doc["alpha"] = _tables_json(self.alpha)
            size = sum(t.size for t in (self.ensemble or {}).values())
            doc["ensemble"] = _tables_json(self.ensemble) if size <= MAX_STORED else None
            if size > MAX_STORED:
                doc["ensemble_omitted"] = True
        return doc

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> "FitResult | None":
        """The result stored by ``to_json(parameters=True)``; None for a record without parameters.

        Tables are only checked to be finite numbers here; :meth:`network` checks them against a network.
        """
        cpts = _tables_from_json(doc.get("cpts"), "cpts")
        if cpts is None:
            return None
        return cls(str(doc.get("method", "?")), cpts, _tables_from_json(doc.get("alpha"), "alpha"),
                   [dict(h) for h in doc.get("history") or []], str(doc.get("stop_reason", "")),
                   float(doc.get("seconds") or 0.0), dict(doc.get("settings") or {}),
                   _tables_from_json(doc.get("ensemble"), "ensemble"))


def describe_run(name: str, stop_reason: str, history: list[dict[str, Any]], seconds: float) -> str:
    """``'clgd', converged after 23 iterations in 0.41 s, nll=1.234, cnll=0.3456``: a learning run's summary,
    with the last history entry's scores (4 significant digits)."""
    last = history[-1] if history else {}
    scores = "".join(f", {k}={v:.4g}" for k, v in last.items()
                     if k not in ("iteration", "seconds", "move") and isinstance(v, (int, float)))
    n = len(history)
    return f"{name!r}, {stop_reason} after {n} iteration{'s' if n != 1 else ''} in {seconds:.3g} s{scores}"


#: the largest bagged ensemble (in numbers) that a project file keeps
MAX_STORED = 1_000_000


def _tables_json(tables: dict[str, np.ndarray] | None) -> dict[str, Any] | None:
    return None if tables is None else {v: np.asarray(t, dtype=float).tolist() for v, t in tables.items()}


def _tables_from_json(value: Any, what: str) -> dict[str, np.ndarray] | None:
    """{var: array} from stored nested lists; a ValidationError names the table that is not numeric."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ValidationError(f"stored run: '{what}' must be an object of tables")
    out = {}
    for var, table in value.items():
        try:
            array = np.asarray(table, dtype=float)
        except (TypeError, ValueError):
            raise ValidationError(f"stored run: {what} table of '{var}' is not a numeric array") from None
        if array.ndim == 0 or not np.all(np.isfinite(array)):
            raise ValidationError(f"stored run: {what} table of '{var}' is not a finite numeric array")
        out[str(var)] = array
    return out


class CountLogLikelihood:
    """Σ_n w_n log p(x_n) of complete rows given by their family counts: Σ_f Σ_cells N_f · log θ_f, over the cells
    seen in the data (0 · log 0 is 0 here), so each call is one dot over the parameters, not a pass over rows."""

    def __init__(self, counts: list[np.ndarray]) -> None:
        flat = np.concatenate([np.ravel(c) for c in counts]).astype(float)
        self.cells = np.flatnonzero(flat)
        self.cell_counts = flat[self.cells]

    def __call__(self, theta: list[np.ndarray]) -> float:
        with np.errstate(divide="ignore"):
            logs = np.log(np.concatenate([t.ravel() for t in theta])[self.cells])
        return weighted_sum(self.cell_counts, logs)


class DataScorer:
    """Mean NLL and conditional NLL of a data set under changing CPTs (for histories and evaluation).

    Complete rows enter the log-likelihood through their family counts (:class:`CountLogLikelihood`); the
    other rows are prepared once (:meth:`Terms.prepare`) and cost inference at each call.
    """

    def __init__(self, net: Network, data: np.ndarray, weights: np.ndarray | None = None,
                 target: str | None = None, terms: Terms | None = None,
                 conditional: "ConditionalRows | None" = None, memory_budget: int = DEFAULT_MEMORY_BUDGET,
                 counts: dict[str, np.ndarray] | None = None, keep_x: bool = True) -> None:
        """``counts``: the family counts of ``data`` when already made (used only if every row is complete);
        ``keep_x``: see :class:`ConditionalRows` (False when the scores are asked for once)."""
        self.codes, self.weights = check_codes(net, data, weights)
        self.terms = terms or Terms(net, memory_budget)
        complete = (self.codes >= 0).all(axis=1)
        self._incomplete: PreparedRows | None = None          # prepared at the first nll: often never needed
        self.incomplete_weights = self.weights[~complete]
        whole = self.codes if complete.all() else self.codes[complete]    # no copy of complete data
        if counts is None or not complete.all():
            counts = family_counts(net, whole, self.weights[complete]) if len(whole) else {}
        self.complete = CountLogLikelihood([counts.get(v, np.zeros(0)) for v in net.variables])
        self.target = None if target is None else net.variables.index(target)
        if self.target is not None:
            self.conditional = conditional or ConditionalRows(self.terms, self.codes, self.weights, self.target,
                                                              keep_x)

    def nll(self, theta: list[np.ndarray] | None = None) -> float:
        """Mean negative log-likelihood per case."""
        if theta is not None:
            self.terms.set_cpts(theta)
        total = self.complete(self.terms.theta)
        if self.incomplete_weights.size:
            if self._incomplete is None:
                self._incomplete = self.terms.prepare(self.codes[(self.codes < 0).any(axis=1)])
            logp = self.terms.stats(self._incomplete, self.incomplete_weights, want_counts=False).logp
            total += weighted_sum(self.incomplete_weights, logp)
        return -total / self.weights.sum()

    def scores(self, theta: list[np.ndarray] | None = None) -> dict[str, float]:
        """{"nll": ..., "cnll": ...} per case (cnll over the rows whose target is observed)."""
        out = {"nll": self.nll(theta)}
        if self.target is not None:
            log_cond = self.conditional.logp()
            w = self.conditional.weights
            out["cnll"] = -weighted_sum(w, log_cond) / w.sum() if w.sum() > 0 else math.nan
        return out


class ConditionalRows:
    """The rows whose target T is observed, ready for log p(q | e) and its expected-count difference.

    Rows whose Markov blanket of T is fully observed are closed form and touch only the families containing T:
    with s_nk = Σ_{f ∋ T} log θ_f[idx_f,n(T=k)], log p(q_n | e_n) = s_{n,q_n} − logsumexp_k s_nk, and
    C^{q,e} − C^e for family f ∋ T is 1{idx_f,n(T=q_n)} − Σ_k p(k | e_n) 1{idx_f,n(T=k)} (other families: 0).
    The remaining rows go through :class:`Terms` twice, as they are (q, e) and with T hidden (e).

    The closed form is the logistic-regression shape: with every T-family table laid out as (rest, |T|) and
    stacked into L (R × |T|), row n uses one "rest" cell per family, so S = X L for a one-hot sparse X (n × R)
    and the count difference is Xᵀ (Y − P) w. Only the differences s_k − s_0 matter to the softmax, and the
    residual rows sum to zero, so |T| − 1 sparse products each way suffice.
    """

    def __init__(self, terms: Terms, codes: np.ndarray, weights: np.ndarray, target: int,
                 keep_x: bool = True) -> None:
        """``keep_x``: keep X between calls (an optimiser's); else each call builds its blocks in turn, and
        memory holds one block (a score computed once, on wide data)."""
        self.terms = terms
        observed = codes[:, target] >= 0
        self.codes, self.weights = (codes, weights) if observed.all() else (codes[observed], weights[observed])
        net = terms.net
        name = net.variables[target]
        blanket = {name, *net.parents(name)}
        for child in net.children(name):
            blanket |= {child, *net.parents(child)}
        position = {v: i for i, v in enumerate(net.variables)}
        columns = [position[v] for v in blanket]
        # the blanket's columns observed; a blanket of every column (naive Bayes) reads the codes without a copy
        whole = len(columns) == self.codes.shape[1]
        self.fast = (self.codes if whole else self.codes[:, columns]).min(axis=1) >= 0
        fast_codes = self.codes if self.fast.all() else self.codes[self.fast]
        self.q = fast_codes[:, target].copy()
        self.n_classes = int(terms.cards[target])
        cols = np.ascontiguousarray(narrow_codes(fast_codes).T)
        # row n of X has one 1 per T-family, in that family's block of "rest" cells (every member but T);
        # L = flat log θ[perm] laid out (R × |T|), so perm also scatters Xᵀ-products back to CPT layout
        rests, perm, offset = [], [], 0
        for k, fam in enumerate(terms.fams):
            if target not in fam.columns:
                continue
            rests.append((fam.without(target), offset))
            order = np.moveaxis(np.arange(fam.size).reshape(fam.shape), fam.columns.index(target), -1)
            perm.append(terms.offsets[k] + order.ravel())
            offset += rests[-1][0].size
        self._perm = np.concatenate(perm)
        self.width = offset

        def cells(part: slice) -> list[np.ndarray | int]:
            return [start + (family_index(fast_codes[part], rest, cols[:, part]) if rest.columns else 0)
                    for rest, start in rests]

        # X in blocks of rows whose scores, exponentials and residuals, and while X is built its index
        # arrays (int64 cells, int32 columns and indices per family), fit the memory budget
        per_row = max(8 * (3 * self.n_classes + 4), 16 * len(rests))
        size = fitting(per_row, terms.engine.memory_budget)
        self._x = lambda: one_hot_blocks(cells, len(fast_codes), len(rests), offset, size)
        self.blocks = list(self._x()) if keep_x else None
        slow = self.codes[~self.fast]
        hidden = slow.copy()
        hidden[:, target] = -1
        self.qe, self.e = terms.prepare(slow), terms.prepare(hidden)
        self.missing = terms.prepare(codes[~observed])
        self.missing_weights = weights[~observed]

    def _stacked_logs(self) -> np.ndarray:
        """L: the log T-family tables as (rest, |T|) blocks, stacked (R × |T|)."""
        return self.terms.flat_logs[self._perm].reshape(-1, self.n_classes)

    def _scores(self, block, table: np.ndarray, relative: bool) -> np.ndarray:
        """S transposed (|T| × rows of the block), up to a per-row constant; -inf where a row's θ is zero.

        Class-major so that every reduction over classes is an elementwise pass over contiguous rows.
        ``table`` is L as (|T| or |T| − 1) × R: relative to class 0 (``relative``: every log θ finite) or
        absolute, so that -inf stays -inf.
        """
        scores = np.zeros((self.n_classes, block.shape[0]))
        first = 1 if relative else 0
        for value in range(first, self.n_classes):
            scores[value] = block @ table[value - first]
        return scores

    def logp(self) -> np.ndarray:
        """log p(q_n | e_n) per observed-target row (-inf where p(q, e) = 0)."""
        return self.evaluate(want_counts=False)[0]

    def evaluate(self, row_factor: np.ndarray | None = None, want_counts: bool = True
                 ) -> tuple[np.ndarray, list[np.ndarray] | None]:
        """log p(q_n | e_n) per row and Σ_n w_n f_n [p(fam | q_n, e_n) − p(fam | e_n)] per family."""
        logp = np.empty(len(self.codes))
        w = self.weights if row_factor is None else self.weights * row_factor
        flat = np.zeros(int(self.terms.offsets[-1])) if want_counts else None
        if self.fast.any():
            stacked = self._stacked_logs()
            relative = bool(np.isfinite(stacked).all())
            table = (stacked[:, 1:] - stacked[:, :1]).T.copy() if relative else stacked.T.copy()
            fast_logp, w_fast = np.empty(len(self.q)), w[self.fast]
            product = np.zeros((self.n_classes, self.width)) if want_counts else None
            for part, block in self.blocks or self._x():    # each block's rows, their Xᵀ-products summed
                fast_logp[part] = self._block(block, self._scores(block, table, relative), self.q[part],
                                              w_fast[part] if want_counts else None, product)
            logp[self.fast] = fast_logp
            if flat is not None and product is not None:   # both made when want_counts
                flat[self._perm] = product.T.ravel()
        counts = None if flat is None else self.terms.split(flat)
        slow = ~self.fast
        if slow.any():
            qe = self.terms.stats(self.qe, w[slow], want_counts)
            e = self.terms.stats(self.e, w[slow], want_counts)
            with np.errstate(invalid="ignore"):
                logp[slow] = np.where(np.isneginf(qe.logp), -np.inf, qe.logp - e.logp)
            if counts is not None:
                assert qe.counts is not None and e.counts is not None  # want_counts
                counts = [c + a - b for c, a, b in zip(counts, qe.counts, e.counts, strict=True)]
        return logp, counts

    def _block(self, block, scores: np.ndarray, q: np.ndarray, w: np.ndarray | None,
               product: np.ndarray | None) -> np.ndarray:
        """log p(q | e) of a block's rows from their scores; with weights ``w``, adds Xᵀ (1{q = k} − p(k | e)) w
        of the block to ``product`` (class-major, |T| × R)."""
        rows = np.arange(len(q))
        top = scores.max(axis=0)
        finite = np.isfinite(top)
        all_finite = bool(finite.all())
        if not all_finite:
            top = np.where(finite, top, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            exp = np.exp(scores - top)
            total = exp.sum(axis=0)
            own = scores[q, rows] - top - np.log(total)
        if w is not None:
            post = exp / total if all_finite else np.where(finite, exp / np.where(finite, total, 1.0), 0.0)
            post *= -w
            post[q, rows] += w                                  # (1{q = k} − p(k | e)) w, class-major
            product += self._transposed_product(block, post, all_finite)
        return own if all_finite else np.where(finite, own, -np.inf)

    def _transposed_product(self, block, residual: np.ndarray, rows_sum_to_zero: bool) -> np.ndarray:
        """Xᵀ residual for a block of X, class-major (|T| × R); class 0 from the others when every residual
        row sums to zero."""
        out = np.empty((self.n_classes, self.width))
        columns = block.T                     # CSC view of the same arrays: Xᵀ v without a transpose copy
        for value in range(1 if rows_sum_to_zero else 0, self.n_classes):
            out[value] = columns @ residual[value]
        if rows_sum_to_zero:
            out[0] = -out[1:].sum(axis=0)
        return out
