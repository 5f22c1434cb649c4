"""``wanbia``: weighted conditional parameters (WANBIA-C; Zaidi et al. §5, eq 15–21).

θ comes from ``mp`` and stays fixed; a weight per parameter group is learned by maximising the conditional
log-likelihood of the class y:

    log p(y | x) = Σ_f w_f(y, ·) log θ_f(y, ·) − log Σ_y' exp(Σ_f w_f(y', ·) log θ_f(y', ·))      (eq 16)

over the families f containing y. Gradient (eq 17–21): (1{y = k} − p(k | x)) · log θ at the entries used, summed
within each weight group. Levels (§5.4, Fig. 1): ``attribute`` (one weight per family), ``attribute-value``,
``attribute-value-class``, ``parameter`` (one weight per θ). Penalty (λ/2)·||w − 1||² (``l2``, per training case)
pulls toward the generative model (§5.2); the default λ = c / N, c = :data:`~bnstudio.defaults.DEFAULT_L2`
and N the total training weight (a fixed N(0, 1/c) prior on w − 1), was chosen so that wanbia beats ``ml`` and
``mp`` on held-out conditional log-likelihood (``benchmarks/discriminative_bench.py``); λ = 0 is the unregularised
optimum. Starts at w = 1,
i.e. at the generative estimate (§5.1). Optimised by L-BFGS-B through
:func:`~bnstudio.learn.params.stopping.minimise` (honest stop reasons, best finite iterate kept).

For class-rooted structures where every attribute has the class and at most one other attribute as parents
(NB, TAN, KDB-1 — the structures of Zaidi et al.), the weighted model is turned back into an ordinary network
with exactly the same p(y | x): each weighted factor θ^w is normalised over its child and the normaliser pushed
into its attribute parent's factor (or the class prior), children before parents. This is done in log space
(log θ^w = w log θ, log-sum-exp normalisers), so no weight overflows it, and the result is floored at 1e-9
(:func:`~bnstudio.learn.params.floor.floor_rows`); the floor changes p(y | x) only where the weighted model puts
less than 1e-9 on an entry — never with the default L2 in the benchmarks, but with ``l2=0`` weights can grow
without bound; ``extra["floored_entries"]`` counts the entries the floor raised (the history's ``cnll`` is the
weighted model's). Complete attribute data only.
"""
from __future__ import annotations

import math
import time

import numpy as np
from scipy.special import logsumexp, softmax

from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.core.network import Network
from bnstudio.errors import ValidationError
from bnstudio.inference import DEFAULT_MEMORY_BUDGET
from bnstudio.inference.batching import fitting
from bnstudio.jobs import Progress, Reporter
from bnstudio.learn.params.base import (
    CountLogLikelihood,
    DataScorer,
    FitResult,
    IterativeLearner,
    documented_fit,
    resolve_l2,
    weighted_sum,
)
from bnstudio.learn.params.checks import MAX_L2, check_choice, check_memory_budget, check_number
from bnstudio.learn.params.counting import check_prior, prior_counts
from bnstudio.learn.params.floor import below_floor, floor_rows
from bnstudio.learn.params.stopping import StopRun, minimise
from bnstudio.learn.params.suffstats import (
    check_codes,
    families,
    family_counts,
    family_index,
    narrow_codes,
    one_hot_blocks,
)

LEVELS = ("attribute", "attribute-value", "attribute-value-class", "parameter")

def check_structure(net: Network, target: str) -> list[str]:
    """The attributes (all other variables) if the structure is class-rooted NB/TAN/KDB-1, else an error."""
    remedy = "learn a class-rooted structure first: nb, tan or kdb with k = 1"
    if net.parents(target):
        raise ValidationError(f"wanbia needs the class '{target}' as a root; it has parents "
                              f"{list(net.parents(target))} ({remedy})")
    attributes = [v for v in net.variables if v != target]
    for v in attributes:
        others = [p for p in net.parents(v) if p != target]
        if target not in net.parents(v) or len(others) > 1:
            raise ValidationError(f"wanbia needs every attribute to have the class '{target}' and at most one other "
                                  f"parent (NB, TAN, KDB-1); '{v}' has parents {list(net.parents(v))} ({remedy})")
    return attributes


def group_map(shape: tuple[int, ...], class_axis: int | None, level: str) -> np.ndarray:
    """For each entry of a family table, the index of the weight it shares (a table of ints, same shape)."""
    entries = np.indices(shape)
    child = entries[-1]
    if class_axis is None or class_axis == len(shape) - 1:  # the class's own family
        return np.zeros(shape, dtype=np.int64) if level == "attribute" else child
    cls = entries[class_axis]
    if level == "attribute":
        return np.zeros(shape, dtype=np.int64)
    if level == "attribute-value":
        return child
    if level == "attribute-value-class":
        return cls * shape[-1] + child
    return np.arange(int(np.prod(shape))).reshape(shape)


class WeightedCLL:
    """Loss (mean negative CLL + penalty) and gradient in the weights, closed form on complete data.

    Laid out as logistic regression (like :class:`~bnstudio.learn.params.base.ConditionalRows`): every
    class-containing table arranged (rest, |Y|) and stacked gives log θ as L and the weight ids as G (both stored
    class-major, |Y| × R); row n uses one "rest" cell per family, a one-hot sparse X (n × R). Then Zaidi et al.
    eq 16 is S = X (w[G] ∘ L)ᵀ, and eq 17–21 sum, per weight g, log θ times the residual at the cells sharing it:

        ∂(−CLL)/∂w_g = −Σ_{(k, r): G_kr = g} L_kr (Xᵀ R)_rk,   R_nk = w_n (1{y_n = k} − p(k | x_n)),

    one bincount over the |Y|·R cells. Only s_k − s_0 enter the softmax and the rows of R sum to zero, so
    |Y| − 1 sparse products each way suffice while every log θ is finite; with zeros in θ the scores are
    absolute so that −∞ stays −∞ (p = 0), and a cell whose residual sum is 0 adds 0 (the limit of 0 · log θ).
    The rows are taken in blocks whose per-row arrays fit ``memory_budget`` (bytes; one block unless the
    data are very large), the loss and Xᵀ R summed over the blocks.
    """

    def __init__(self, net: Network, theta: dict[str, np.ndarray], codes: np.ndarray, weights: np.ndarray,
                 target: str, level: str, l2: float, memory_budget: int = DEFAULT_MEMORY_BUDGET) -> None:
        t = net.variables.index(target)
        self.n_classes = k = net.cardinality(target)
        self.row_weights, self.total, self.l2 = weights, weights.sum(), l2
        self.y = codes[:, t]
        self.tables: list[tuple[str, np.ndarray]] = []   # per class-containing family: weight id of every entry
        logs, ids, rests = [], [], []
        offset = rest_offset = 0
        cols = np.ascontiguousarray(narrow_codes(codes).T)      # int8 for < 127 states
        missing = bool(self.y.min() < 0)
        for fam in families(net):
            if t not in fam.columns:
                continue
            axis = fam.columns.index(t)
            groups = group_map(fam.shape, axis, level) + offset
            with np.errstate(divide="ignore"):
                logs.append(np.moveaxis(np.log(theta[fam.var]), axis, 0).reshape(k, -1))
            ids.append(np.moveaxis(groups, axis, 0).reshape(k, -1))
            rest = fam.without(t)
            missing = missing or any(bool(cols[c].min() < 0) for c in rest.columns)
            rests.append((rest, rest_offset))
            self.tables.append((fam.var, groups))
            offset = int(groups.max()) + 1
            rest_offset += rest.size
        if missing:
            raise ValidationError("the weighted CLL needs the class and every attribute observed in every row")
        self.n_weights = offset
        self.logs, self.ids = np.concatenate(logs, axis=1), np.concatenate(ids, axis=1)   # L, G: (|Y|, R)
        self.finite = bool(np.isfinite(self.logs).all())
        self.width = rest_offset

        def cells(part: slice) -> list[np.ndarray | int]:
            return [start + (family_index(codes[part], rest, cols[:, part]) if rest.columns else 0)
                    for rest, start in rests]

        # X in blocks of rows whose scores and residuals (|Y| per row, a few arrays), and while X is built its
        # index arrays (int64 cells, int32 columns and indices per family), fit the memory budget
        per_row = max(8 * (4 * k + 4), 16 * len(rests))
        size = fitting(per_row, memory_budget)
        self.blocks = list(one_hot_blocks(cells, len(codes), len(rests), rest_offset, size))
        self._last: tuple[bytes, float, np.ndarray] | None = None   # (w, mean −CLL, its gradient) last evaluated

    def score_table(self, w: np.ndarray) -> np.ndarray:
        """w[G] ∘ L, relative to class 0 ((|Y| − 1) × R) when every log θ is finite, else (|Y| × R)."""
        table = w[self.ids] * self.logs
        return table[1:] - table[:1] if self.finite else table

    def scores(self, table: np.ndarray, block) -> np.ndarray:
        """Class scores s_nk = Σ_f w[g_f(n, k)] log θ_f(n, k) (eq 16) of a block of rows from
        :meth:`score_table`, class-major (|Y|, rows); s_n0 = 0 (which the softmax ignores) when relative."""
        first = 1 if self.finite else 0
        out = np.zeros((self.n_classes, block.shape[0]))
        for value in range(first, self.n_classes):
            out[value] = block @ table[value - first]
        return out

    def cnll(self, w: np.ndarray) -> float:
        """Mean negative conditional log-likelihood at w (no penalty); reuses the last evaluation."""
        return self._evaluate(w)[0]

    def __call__(self, w: np.ndarray) -> tuple[float, np.ndarray]:
        cnll, grad = self._evaluate(w)
        d = w - 1.0
        return cnll + 0.5 * self.l2 * float(np.einsum('i,i->', d, d)), grad + self.l2 * d

    def _evaluate(self, w: np.ndarray) -> tuple[float, np.ndarray]:
        key = w.tobytes()
        if self._last is None or self._last[0] != key:
            loss, spread = 0.0, np.zeros_like(self.logs)      # (Xᵀ R)ᵀ: residual summed per cell, over blocks
            if self.n_classes > 1:         # a class with one state: p(y | x) = 1 whatever the weights
                table = self.score_table(w)
                for part, block in self.blocks:
                    residual = np.zeros((self.n_classes, block.shape[0]))
                    own = np.zeros_like(residual)             # w_n 1{y_n = k}, class-major
                    own[self.y[part], np.arange(block.shape[0])] = self.row_weights[part]
                    s = self.scores(table, block)
                    loss += (self._relative(s, own, self.row_weights[part], residual) if self.finite
                             else self._absolute(s, own, self.y[part], self.row_weights[part], residual))
                    self._spread(block, residual, spread)
            self._last = (key, loss, self._gradient(spread))
        return self._last[1], self._last[2]

    def _relative(self, s: np.ndarray, own: np.ndarray, weights: np.ndarray, residual: np.ndarray) -> float:
        """−CLL / N of a block from s_k − s_0 (k ≥ 1); fills residual[1:] with R (residual[0] is never needed)."""
        d = s[1:]
        top = np.maximum(d.max(axis=0), 0.0)                       # max over every class, s_0 = 0 included
        exp = np.exp(d - top)
        total = np.exp(-top)
        total += exp.sum(axis=0)
        log_norm = np.log(total)
        log_norm += top
        gain = float(np.einsum("kn,kn->", own[1:], d)) - weighted_sum(weights, log_norm)
        np.divide(exp, total, out=residual[1:])
        residual[1:] *= -weights
        residual[1:] += own[1:]
        return -gain / self.total

    def _absolute(self, s: np.ndarray, own: np.ndarray, y: np.ndarray, weights: np.ndarray,
                  residual: np.ndarray) -> float:
        """−CLL / N of a block from absolute scores (some log θ is −∞); fills every row of residual with R."""
        loss = -weighted_sum(weights, s[y, np.arange(len(y))] - logsumexp(s, axis=0)) / self.total
        residual[:] = own - softmax(s, axis=0) * weights
        return loss

    def _spread(self, block, residual: np.ndarray, spread: np.ndarray) -> None:
        """Adds Xᵀ R of a block to ``spread`` (class-major); class 0 only when some log θ is infinite (else
        :meth:`_gradient` takes it from the others: the rows of R sum to zero)."""
        columns = block.T                       # CSC view of the same arrays: Xᵀ v without a transpose copy
        for value in range(1 if self.finite else 0, self.n_classes):
            spread[value] += columns @ residual[value]

    def _gradient(self, spread: np.ndarray) -> np.ndarray:
        """Eq 17–21: −Σ over the cells of each weight of log θ · (Xᵀ R), over the total row weight."""
        if self.finite:                                              # rows of R sum to zero
            spread[0] = -spread[1:].sum(axis=0)
            cells = self.logs * spread
        else:                                                        # 0 · log 0 = 0 where no residual reaches
            with np.errstate(invalid="ignore"):
                cells = np.where(spread == 0.0, 0.0, self.logs * spread)
        grad = np.bincount(self.ids.ravel(), weights=cells.ravel(), minlength=self.n_weights)
        grad *= -1.0 / self.total
        return grad

    def weight_tables(self, w: np.ndarray, net: Network) -> dict[str, np.ndarray]:
        """Per family, the weight of every CPT entry (family shape)."""
        return {var: w[ids] for var, ids in self.tables}


class EquivalentNetwork:
    """CPTs of an ordinary network with the weighted model's p(y | x) (module docstring) for any weights; the
    structure is walked and log θ taken once, so a call per optimiser iteration costs only the table algebra."""

    def __init__(self, net: Network, target: str, theta: dict[str, np.ndarray]) -> None:
        attributes = check_structure(net, target)
        self.target, self.theta = target, theta
        with np.errstate(divide="ignore"):
            self.logs = {v: np.log(theta[v]) for v in [target] + attributes}
        # children before parents: (v, its attribute parent a or None, axes (y, a) of v's normaliser, shape in a)
        self.steps: list[tuple[str, str | None, list[int], tuple[int, ...]]] = []
        for v in reversed([v for v in net.topological_order() if v != target]):
            parents = list(net.parents(v))
            others = [p for p in parents if p != target]
            if not others:
                self.steps.append((v, None, [], ()))
                continue
            a = others[0]
            a_parents = list(net.parents(a))
            shape = [1] * (len(a_parents) + 1)
            shape[a_parents.index(target)], shape[-1] = net.cardinality(target), net.cardinality(a)
            self.steps.append((v, a, [parents.index(target), parents.index(a)], tuple(shape)))

    def cpts(self, weights: dict[str, np.ndarray], floor: bool = True) -> dict[str, np.ndarray]:
        """Normalise each θ^w over its child and push the normaliser into the attribute parent (or the prior),
        in log space; the CPTs are floored at 1e-9 unless ``floor`` is False."""
        factor = {v: weights[v] * logs if v in weights else logs for v, logs in self.logs.items()}
        out: dict[str, np.ndarray] = {}
        for v, a, axes, shape in self.steps:
            out[v], norm = _normalised(factor[v])
            if a is None:
                factor[self.target] = factor[self.target] + norm
            else:
                factor[a] = factor[a] + np.moveaxis(norm, axes, [0, 1]).reshape(shape)   # norm as (y, a)
        out[self.target] = _normalised(factor[self.target])[0]
        return {v: floor_rows(t) for v, t in out.items()} if floor else out


def _normalised(logs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(exp(logs) normalised over the last axis, the log normaliser), by the max shift."""
    top = logs.max(axis=-1, keepdims=True)
    table = np.exp(logs - top)
    total = table.sum(axis=-1, keepdims=True)
    table /= total
    return table, (np.log(total) + top)[..., 0]


def equivalent_network_cpts(net: Network, target: str, theta: dict[str, np.ndarray],
                            weights: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """CPTs of an ordinary network with the weighted model's p(y | x) (see module docstring)."""
    return EquivalentNetwork(net, target, theta).cpts(weights)


def labelled_rows(net: Network, data, weights, target: str) -> tuple[np.ndarray, np.ndarray]:
    """The rows with the class observed (column-major, so family indices read whole columns) and their weights;
    an error if an attribute value is missing."""
    codes, weights = check_codes(net, data, weights)
    observed = codes[:, net.variables.index(target)] >= 0
    if not observed.all():
        codes, weights = codes[observed], weights[observed]
    codes = np.asfortranarray(codes)
    if codes.size and codes.min() < 0:
        raise ValidationError("wanbia needs complete attribute values; use 'em' or 'clgd' for missing cells")
    if not weights.sum() > 0:
        raise ValidationError(f"wanbia needs rows with the class '{target}' observed and positive weight; "
                              f"their total weight is {weights.sum():g}")
    return codes, weights


class WeightedConditional(IterativeLearner):
    """``wanbia``: learn weights on fixed ``mp`` parameters by conditional log-likelihood (module docstring).

    ``l2``: None for the default c / N (module docstring), else a finite number in [0, 1e12] per training case;
    ``memory_budget``: bytes for the per-row arrays of one block of rows (:class:`WeightedCLL`).
    """

    name = "wanbia"

    def __init__(self, level: str = "parameter", l2: float | None = None, prior: str = "laplace",
                 ess: float = 1.0, max_iter: int = 200, tol: float = 1e-9, max_time: float = math.inf,
                 memory_budget: int = DEFAULT_MEMORY_BUDGET) -> None:
        self.level = check_choice("level", level, LEVELS)
        self.l2 = None if l2 is None else check_number("l2", l2, low=0.0, high=MAX_L2)
        self.prior, self.ess = prior, check_prior(prior, ess)
        self._set_stopping(max_iter, tol, max_time)
        self.memory_budget = check_memory_budget(memory_budget)

    @documented_fit("""Weights on fixed mp parameters, fitted by conditional log-likelihood (WANBIA-C, Zaidi et al. §5).""")
    def fit(self, net: Network, data, weights=None, target: str | None = None, validation=None,
            reporter: Reporter | None = None) -> FitResult:
        start = time.perf_counter()
        if target is None:
            raise ValidationError("wanbia needs a target (class) variable")
        if target not in net.variables:
            raise ValidationError(f"unknown target variable '{target}'")
        check_structure(net, target)
        codes, weights = labelled_rows(net, data, weights, target)
        l2 = resolve_l2(self.l2, weights)
        counts = family_counts(net, codes, weights)     # counted once: for θ and for every history nll
        pseudo = prior_counts(net, self.prior, self.ess)
        theta = {v: floor_rows(normalise_rows(pseudo[v] + counts[v])) for v in net.variables}   # ``mp``
        objective = WeightedCLL(net, theta, codes, weights, target, self.level, l2, self.memory_budget)
        log_likelihood = CountLogLikelihood([counts[v] for v in net.variables])   # cnll: from the objective
        equivalent = EquivalentNetwork(net, target, theta)
        val_scorer = (DataScorer(net, validation, None, target, memory_budget=self.memory_budget)
                      if validation is not None else None)
        progress = Progress(reporter, self.name, total=self.max_iter)
        history: list[dict[str, float]] = []

        def record(w: np.ndarray) -> None:
            cpts = equivalent.cpts(objective.weight_tables(w, net))
            ordered = [cpts[v] for v in net.variables]
            entry = {"iteration": len(history) + 1, "nll": -log_likelihood(ordered) / objective.total,
                     "cnll": objective.cnll(w)}
            if val_scorer is not None:
                entry.update({f"val_{k}": s for k, s in val_scorer.scores(ordered).items()})
            entry["seconds"] = time.perf_counter() - start
            history.append(entry)
            progress.report(entry["iteration"], {k: v for k, v in entry.items() if k != "iteration"})
            if progress.elapsed >= self.max_time:
                raise StopRun("max_time")

        outcome = minimise(objective, np.ones(objective.n_weights), self.stop_rule(), record, "L-BFGS-B",
                           {"gtol": 1e-10, "maxcor": 20})
        progress.done()
        tables = objective.weight_tables(outcome.x, net)
        exact = equivalent.cpts(tables, floor=False)
        cpts = {v: floor_rows(t) for v, t in exact.items()}
        settings = {"level": self.level, "l2": l2, "prior": self.prior, "ess": self.ess,
                    "max_iter": self.max_iter}
        return FitResult(self.name, cpts, None, history, outcome.reason, time.perf_counter() - start, settings,
                         extra={"weights": {v: t.tolist() for v, t in tables.items()}, "n_weights": objective.n_weights,
                                "generative_cpts": theta, "optimizer_message": outcome.message,
                                "floored_entries": sum(below_floor(t) for t in exact.values())})
