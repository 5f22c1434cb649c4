"""Gradient training in the softmax parameterisation: ``lgd`` (log-likelihood) and ``clgd`` (discriminative).

θ_{x|π} = exp β_{x|π} / Σ_x' exp β_{x'|π} (Zhou §3.2.2) keeps every step a valid CPT. With expected counts
C_f = Σ_n w_n p(x, π | ·) the gradients are (Zhou eq 3.12–3.15)

    ∂ log p(e) / ∂β_{x|π}       = C^e(x, π) − θ_{x|π} C^e(π)                          (3.13, ``ll``)
    ∂ log p(q | e) / ∂β_{x|π}   = [C^{q,e} − θ C^{q,e}(π)] − [C^e − θ C^e(π)]           (3.15, ``cll``)

AE = Σ (1 − p(q|e)) and SE = Σ (1 − p(q|e))² (Zhou §3.1.3–3.1.4) reuse (3.15) with per-row weights −p and
−2(1 − p)p. The mixed objective log p(q|e) + α log p(e) (Zhou §5.2) slides from discriminative (α = 0) to
generative (α = 1). Rows whose target is missing carry no conditional term.

Never a broken network (docs/learning.md): the CPTs are θ = ε + (1 − Kε)·softmax(β) with ε = 1e-9
(:func:`~bnstudio.learn.params.floor.floored_softmax`), so every entry is ≥ ε at every step. The loss is the
mean per training case plus the L2 penalty (λ/2)·||β − β₀||² (``l2``) toward the start β₀ — the ``mp``
(Laplace) estimate by default: λ → ∞ gives back ``mp``, λ = 0 (the default of ``lgd``) the unregularised optimum (Zhou §5.2.1: refine a
generative model discriminatively; the same pull as wanbia's ||w − 1||², Zaidi et al. §5.2). The default λ = c / N with
c = :data:`~bnstudio.defaults.DEFAULT_L2` and N the total training weight — a fixed N(0, 1/c) prior on
β − β₀ — was chosen so that ``clgd`` beats ``ml`` and ``mp`` on held-out conditional log-likelihood
(``benchmarks/discriminative_bench.py``) and checked on the ``papers`` suite against L2 chosen by inner
cross-validation and early stopping (``--papers``; docs/experiments.md): neither does significantly better. Optimised with scipy's L-BFGS-B or nonlinear conjugate gradient
(:func:`~bnstudio.learn.params.stopping.minimise`: honest stop reasons, best finite iterate kept), or with
``optimizer="pr-brent"``: Polak–Ribière conjugate gradient with Brent's line minimisation and Numerical Recipes'
``frprmn`` stop, ``tol`` its FTOL (Zhou §3.2.2; :mod:`~bnstudio.learn.params.conjugate`); early stopping
on a validation split with ``patience``.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import ValidationError
from bnstudio.inference import DEFAULT_MEMORY_BUDGET
from bnstudio.jobs import Progress, Reporter
from bnstudio.learn.params.base import (
    ConditionalRows,
    DataScorer,
    FitResult,
    IterativeLearner,
    documented_fit,
    resolve_l2,
    weighted_sum,
)
from bnstudio.learn.params.checks import (
    MAX_ITER,
    MAX_L2,
    check_choice,
    check_integer,
    check_memory_budget,
    check_number,
)
from bnstudio.learn.params.conjugate import pr_brent_minimise
from bnstudio.learn.params.floor import floored_softmax, row_floor
from bnstudio.learn.params.stopping import StopRule, StopRun, minimise
from bnstudio.learn.params.suffstats import check_codes, check_target
from bnstudio.learn.params.terms import PreparedRows, Terms
from bnstudio.learn.splits import train_test_indices

CRITERIA = ("ll", "cll", "ae", "se")
#: scipy's L-BFGS-B and CG, and Zhou's Polak–Ribière + Brent (:mod:`bnstudio.learn.params.conjugate`)
OPTIMIZERS = ("lbfgs", "cg", "pr-brent")
#: the automatic rules (``l2="path"`` / ``"path-fine"``): their c of λ = c / N, largest (nearest the generative
#: start) first; ``path`` stops its c = 0 fit early on the hold-out, ``path-fine`` runs every fit to convergence
PATH_SCALES = {"path": (10.0, 1.0, 0.0), "path-fine": (10.0, 1.0, 0.1)}
PATH_HOLDOUT = 0.25
PATH_PATIENCE = 5

class RowLayout:
    """Where the CPT rows of every family sit in the flat β, grouped by row length (the child's cardinality),
    so a softmax or a row sum over all families is a few array operations, not one call per family."""

    def __init__(self, shapes: list[tuple[int, ...]]) -> None:
        self.shapes = shapes
        self.sizes = [math.prod(s) for s in shapes]
        self.offsets = np.concatenate([[0], np.cumsum(self.sizes)]).astype(int)
        by_length: dict[int, list[np.ndarray]] = {}
        for shape, start, size in zip(shapes, self.offsets[:-1], self.sizes, strict=True):
            by_length.setdefault(shape[-1], []).append(np.arange(start, start + size))
        self.groups = [(length, np.concatenate(parts)) for length, parts in by_length.items()]

    def split(self, flat: np.ndarray) -> list[np.ndarray]:
        """Per-family views of a flat vector, in family shape."""
        return [flat[a:a + n].reshape(s) for a, n, s in zip(self.offsets[:-1], self.sizes, self.shapes, strict=True)]

    def softmax(self, beta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(θ, s), flat: s = exp β / Σ_row exp β and the floored θ = ε + (1 − Kε) s."""
        theta, soft = np.empty_like(beta), np.empty_like(beta)
        for length, idx in self.groups:
            t, p = floored_softmax(beta[idx].reshape(-1, length))
            theta[idx], soft[idx] = t.ravel(), p.ravel()
        return theta, soft

    def beta_gradient(self, counts: np.ndarray, theta: np.ndarray, soft: np.ndarray) -> np.ndarray:
        """Eq 3.12 for every family at once on flat vectors, through the floor: with C̃ = (1 − Kε) C s / θ
        (= C when ε = 0), ∂/∂β = C̃ − s · (row sums of C̃)."""
        out = np.empty_like(counts)
        for length, idx in self.groups:
            scaled = (1.0 - length * row_floor(length)) * counts[idx] * soft[idx] / theta[idx]
            rows = scaled.reshape(-1, length)
            out[idx] = (rows - soft[idx].reshape(-1, length) * rows.sum(axis=1, keepdims=True)).ravel()
        return out


class SoftmaxObjective:
    """Loss and gradient of a criterion as a function of the flat softmax parameter vector β."""

    def __init__(self, net: Network, codes: np.ndarray, weights: np.ndarray, target: str | None,
                 criterion: str, alpha: float = 0.0, l2: float = 0.0, center: np.ndarray | None = None,
                 memory_budget: int = DEFAULT_MEMORY_BUDGET) -> None:
        check_criterion(criterion, alpha, target)
        self.terms = Terms(net, memory_budget)
        self.layout = RowLayout([net.family_shape(v) for v in net.variables])
        self.sizes = self.layout.sizes
        self.criterion, self.alpha, self.l2 = criterion, alpha, l2
        self.center = np.zeros(sum(self.sizes)) if center is None else np.asarray(center, dtype=float)
        self.weights = weights
        self.total = weights.sum()
        self.rows = self.terms.prepare(codes) if criterion == "ll" else None
        if target is not None:
            self.cond = ConditionalRows(self.terms, codes, weights, net.variables.index(target))
            self.w_obs = self.cond.weights
            self.miss, self.w_miss = self.cond.missing, self.cond.missing_weights
            if alpha:   # the mixed objective needs log p(e) of every row: prepare the full (q, e) and (e) rows
                observed = codes[:, net.variables.index(target)] >= 0
                hidden = codes[observed].copy()
                hidden[:, net.variables.index(target)] = -1
                self.obs, self.hidden = self.terms.prepare(codes[observed]), self.terms.prepare(hidden)
        self.last: tuple[bytes, dict[str, float]] | None = None   # scores at the last β evaluated
        self._theta: tuple[bytes, np.ndarray, np.ndarray] | None = None   # flat (θ, s) at the last β asked for

    def flat_theta(self, beta: np.ndarray) -> np.ndarray:
        """θ as one flat vector from a flat β: a floored softmax over each CPT row (the last one is reused)."""
        return self._floored(beta)[0]

    def _floored(self, beta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        key = beta.tobytes()
        if self._theta is None or self._theta[0] != key:
            self._theta = (key, *self.layout.softmax(beta))
        return self._theta[1], self._theta[2]

    def theta(self, beta: np.ndarray) -> list[np.ndarray]:
        """CPTs from a flat β: a softmax over each row."""
        return self.layout.split(self.flat_theta(beta))

    @staticmethod
    def beta_from(theta: list[np.ndarray]) -> np.ndarray:
        """A β whose floored softmax is ``theta`` (where θ ≥ ε; smaller entries and zeros give s = 1e-12),
        centred per row."""
        logs = []
        for t in theta:
            k = t.shape[-1]
            eps = row_floor(k)
            logs.append(np.log(np.clip((t - eps) / (1.0 - k * eps), 1e-12, None)))
        return np.concatenate([(lg - lg.mean(axis=-1, keepdims=True)).ravel() for lg in logs])

    def __call__(self, beta: np.ndarray) -> tuple[float, np.ndarray]:
        flat, soft = self._floored(beta)
        self.terms.set_cpts(self.layout.split(flat))
        self._pending: dict[str, float] | None = None
        loss, counts = getattr(self, f"_{self.criterion}")()
        self.last = (beta.tobytes(), self._pending) if self._pending else None
        shift = beta - self.center
        loss = loss / self.total + 0.5 * self.l2 * float(np.einsum('i,i->', shift, shift))
        grad = self.layout.beta_gradient(np.concatenate([c.ravel() for c in counts]), flat, soft)
        grad *= -1.0 / self.total
        if self.l2:
            grad += self.l2 * shift
        return loss, grad

    # each returns (summed loss, the expected counts whose eq-3.12 transform is the gradient of the summed gain);
    # the transform is linear in the counts, so differences and mixtures of counts are combined first
    def _stats(self, rows: PreparedRows | None, weights: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """log p(e_n) and the expected counts of prepared ``rows`` (``stats`` always gives counts when asked)."""
        assert rows is not None, "rows prepared in __init__ for this criterion"
        s = self.terms.stats(rows, weights)
        assert s.counts is not None
        return s.logp, s.counts

    def _ll(self):
        logp, counts = self._stats(self.rows, self.weights)
        self._remember(nll=-weighted_sum(self.weights, logp) / self.total)
        return -weighted_sum(self.weights, logp), counts

    def _cll(self):
        if not self.alpha:
            logp, diff = self.cond.evaluate()
            self._remember(cnll=-weighted_sum(self.w_obs, logp) / self.w_obs.sum())
            return -weighted_sum(self.w_obs, logp), diff
        qe_logp, qe_counts = self._stats(self.obs, self.w_obs)
        e_logp, e_counts = self._stats(self.hidden, self.w_obs)
        gain = weighted_sum(self.w_obs, qe_logp - (1 - self.alpha) * e_logp)
        counts = [a - (1 - self.alpha) * b for a, b in zip(qe_counts, e_counts, strict=True)]
        if self.miss.n:
            m_logp, m_counts = self._stats(self.miss, self.w_miss)
            gain += self.alpha * weighted_sum(self.w_miss, m_logp)
            counts = [c + self.alpha * d for c, d in zip(counts, m_counts, strict=True)]
        return -gain, counts

    def _remember(self, **scores: float) -> None:
        self._pending = scores

    def _ae(self):
        p = np.exp(self.cond.logp())
        return weighted_sum(self.w_obs, (1 - p)), self.cond.evaluate(p)[1]

    def _se(self):
        p = np.exp(self.cond.logp())
        return weighted_sum(self.w_obs, (1 - p) ** 2), self.cond.evaluate(2 * (1 - p) * p)[1]


def check_criterion(criterion: str, alpha: float, target: str | None, fitting: bool = True) -> float:
    """The criterion and its mixing weight α (returned); when ``fitting``, also the target it needs."""
    check_choice("criterion", criterion, CRITERIA)
    alpha = check_number("alpha", alpha, low=0.0, high=1.0)
    if alpha and criterion != "cll":
        raise ValidationError("alpha (the mixed objective) applies to criterion 'cll' only")
    if fitting and criterion != "ll" and target is None:
        raise ValidationError(f"criterion '{criterion}' needs a target variable")
    return alpha


class GradientTraining(IterativeLearner):
    """``clgd`` (criterion cll/ae/se, optional mixed α) or ``lgd`` (criterion ll); see module docstring.

    ``l2``: None for the default — c / N for ``clgd`` (module docstring), 0 for ``lgd``, whose optimum on complete
    data is then ``ml`` (floored) — else a finite number in [0, 1e12] per training case, or for ``clgd``'s cll
    criterion (α = 0) ``"path"`` / ``"path-fine"``: c of λ = c / N chosen per fit on an inner hold-out along a
    warm-started penalty path (:func:`penalty_path_fit`; not the default, docs/experiments.md);
    ``patience``: None (no early stopping) or an integer ≥ 1, used with validation rows;
    ``memory_budget``: bytes per batched propagation — rows needing inference go through the engine in chunks
    that fit it, and the closed-form rows in blocks (:mod:`bnstudio.inference.batching`).
    """

    def __init__(self, criterion: str = "cll", alpha: float = 0.0, l2: float | str | None = None,
                 optimizer: str = "lbfgs", init: str = "mp", max_iter: int = 200, tol: float = 1e-9,
                 max_time: float = math.inf, patience: int | None = None,
                 memory_budget: int = DEFAULT_MEMORY_BUDGET) -> None:
        self.alpha = check_criterion(criterion, alpha, None, fitting=False)
        if isinstance(l2, str):
            if l2 not in PATH_SCALES:
                raise ValidationError(f"l2 must be a number or one of {', '.join(PATH_SCALES)}, got {l2!r}")
            if criterion != "cll" or self.alpha:
                raise ValidationError(f"l2 {l2!r} chooses the L2 of clgd's cll criterion without alpha; got "
                                      f"criterion {criterion!r}, alpha {self.alpha:g}")
        self.l2: float | str | None = l2 if l2 is None or isinstance(l2, str) else \
            check_number("l2", l2, low=0.0, high=MAX_L2)
        self.optimizer = check_choice("optimizer", optimizer, OPTIMIZERS)
        self.init = check_choice("init", init, ("mp", "ml", "current", "uniform"))
        self._set_stopping(max_iter, tol, max_time)
        self.patience = None if patience is None else check_integer("patience", patience, low=1, high=MAX_ITER)
        self.criterion = criterion
        self.memory_budget = check_memory_budget(memory_budget)
        self.name = "lgd" if criterion == "ll" else "clgd"

    @property
    def l2_rule(self) -> str:
        """How the L2 is chosen: ``fixed`` (a number, or None for the default) or ``l2`` itself (``path``)."""
        return self.l2 if isinstance(self.l2, str) else "fixed"

    @property
    def fixed_l2(self) -> float | None:
        """The L2 option as a number (None: the default rule, or a ``path`` rule)."""
        return None if isinstance(self.l2, str) else self.l2

    def _initial(self, net: Network, codes, weights) -> list[np.ndarray]:
        from bnstudio.learn.params.counting import MaximumLikelihood, MeanPosterior
        if self.init == "current":
            return [np.array(net.cpt(v)) for v in net.variables]
        if self.init == "uniform":    # β₀ = 0: the L2 is then (λ/2)||β||², logistic regression's (docs/learning.md)
            return [np.full(net.family_shape(v), 1.0 / net.cardinality(v)) for v in net.variables]
        learner = MeanPosterior() if self.init == "mp" else MaximumLikelihood()
        fitted = learner.fit(net, codes, weights)
        return [fitted.cpts[v] for v in net.variables]

    @documented_fit("""Gradient descent on the softmax parameters β (Zhou §3.2.2) of the criterion plus the L2 penalty,
        from the generative estimate, by the chosen optimiser.""")
    def fit(self, net: Network, data, weights=None, target: str | None = None, validation=None,
            reporter: Reporter | None = None) -> FitResult:
        start = time.perf_counter()
        codes, weights = check_codes(net, data, weights)
        check_criterion(self.criterion, self.alpha, target)
        if target is not None:
            check_target(net, codes, weights, target, self.name)
        if self.l2_rule != "fixed":
            return penalty_path_fit(self, net, codes, weights, target, validation, reporter)
        l2 = (self.fixed_l2 or 0.0) if self.criterion == "ll" else resolve_l2(self.fixed_l2, weights)
        beta0 = self.start_beta(net, codes, weights)
        run = self.optimise(net, codes, weights, target, l2, beta0, beta0, validation, self.patience, self.stop_rule(),
                            reporter, start)
        return self.result(net, run, l2, time.perf_counter() - start)

    def start_beta(self, net: Network, codes: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """β₀ of the start (``init``) for these rows."""
        return SoftmaxObjective.beta_from(self._initial(net, codes, weights))

    def optimise(self, net: Network, codes: np.ndarray, weights: np.ndarray, target: str | None, l2: float,
                 center: np.ndarray, beta_start: np.ndarray, validation, patience: int | None, stop: StopRule,
                 reporter: Reporter | None = None, start: float | None = None) -> "GradientRun":
        """Minimise the criterion + (λ/2)||β − ``center``||² from ``beta_start`` (one optimiser run)."""
        start = time.perf_counter() if start is None else start
        objective = SoftmaxObjective(net, codes, weights, target, self.criterion, self.alpha, l2, center=center,
                                     memory_budget=self.memory_budget)
        scorer = DataScorer(net, codes, weights, target, terms=objective.terms,
                            conditional=getattr(objective, "cond", None))
        val_scorer = (DataScorer(net, validation, None, target, memory_budget=self.memory_budget)
                      if validation is not None else None)
        progress = Progress(reporter, self.name, total=stop.max_iter)
        history: list[dict[str, float]] = []
        best: dict[str, Any] = {"score": math.inf, "beta": None, "since": 0, "iteration": 0}
        watch = "cnll" if target is not None else "nll"

        def record(beta: np.ndarray) -> None:
            theta = objective.theta(beta)
            known = objective.last[1] if objective.last and objective.last[0] == beta.tobytes() else {}
            scores = dict(known)   # what the optimiser's last evaluation at this β already computed
            if "nll" not in scores:
                scores["nll"] = scorer.nll(theta)
            if target is not None and "cnll" not in scores:
                scores["cnll"] = scorer.scores(theta)["cnll"]
            entry = {"iteration": len(history) + 1, **scores}
            if val_scorer is not None:
                entry.update({f"val_{k}": s for k, s in val_scorer.scores(theta).items()})
            entry["seconds"] = time.perf_counter() - start
            history.append(entry)
            progress.report(int(entry["iteration"]), {k: v for k, v in entry.items() if k != "iteration"})
            if val_scorer is not None and patience:
                if entry[f"val_{watch}"] < best["score"]:
                    best.update(score=entry[f"val_{watch}"], beta=beta.copy(), since=0, iteration=len(history))
                else:
                    best["since"] += 1
                    if best["since"] >= patience:
                        raise StopRun("early_stopping")
            if progress.elapsed >= stop.max_time:
                raise StopRun("max_time")

        if self.optimizer == "pr-brent":
            outcome = pr_brent_minimise(objective, beta_start, stop, record)
        else:
            method = "L-BFGS-B" if self.optimizer == "lbfgs" else "CG"
            options = {"gtol": 1e-10, "maxcor": 20} if method == "L-BFGS-B" else {"gtol": 1e-8}
            outcome = minimise(objective, beta_start, stop, record, method, options)
        beta, reason = outcome.x, outcome.reason
        progress.done()
        used = len(history)
        if reason == "early_stopping" and best["beta"] is not None:
            beta, used = best["beta"], int(best["iteration"])
        return GradientRun(objective, beta, reason, history, used, outcome.message, outcome.evaluations)

    def result(self, net: Network, run: "GradientRun", l2: float, seconds: float,
               **settings: Any) -> FitResult:
        """The fitted CPTs of ``run`` as a :class:`FitResult` (``settings`` added to its settings)."""
        cpts = dict(zip(net.variables, run.objective.theta(run.beta), strict=True))
        out = {"criterion": self.criterion, "alpha": self.alpha, "l2": l2, "optimizer": self.optimizer,
               "init": self.init, "max_iter": self.max_iter, "tol": self.tol, "patience": self.patience,
               "l2_rule": self.l2_rule, **settings}
        return FitResult(self.name, cpts, None, run.history, run.reason, seconds, out,
                         extra={"optimizer_message": run.message, "evaluations": run.evaluations})


@dataclass
class GradientRun:
    """One optimiser run: the objective, the β returned, why it stopped, its history and the iterations that
    led to the returned β (fewer than the history when early stopping returned an earlier iterate)."""

    objective: SoftmaxObjective
    beta: np.ndarray
    reason: str
    history: list[dict[str, float]]
    iterations: int
    message: str
    evaluations: int


def penalty_path_fit(learner: GradientTraining, net: Network, codes: np.ndarray, weights: np.ndarray,
                     target: str | None, validation=None, reporter: Reporter | None = None) -> FitResult:
    """``clgd`` with λ = c / N, c chosen along a warm-started penalty path on one inner hold-out
    (docs/experiments.md, "A cheaper automatic rule"; issue 24).

    The rows are split once (seed 0: the same rows give the same split), 1 − :data:`PATH_HOLDOUT` to fit and
    the rest held out. On the fitting part, c runs through :data:`PATH_SCALES` (``path``: 10, 1, 0;
    ``path-fine``: 10, 1, 0.1), each fit
    warm-started from the previous one's β while its L2 pulls toward the ``mp`` start β₀ of those rows (the
    objective of Zhou §5.2.1's "refine a generative model", so a warm start changes where the optimiser starts,
    not what it minimises); the unpenalised c = 0 fit has no optimum on separable data and stops early on the
    held-out conditional log-likelihood (patience :data:`PATH_PATIENCE`, best iterate). The c with the highest
    held-out CLL wins (ties: the larger c). The refit on all rows starts from the winner's β with λ = c / N and
    β₀ their ``mp`` start; with c = 0 it runs at most as many iterations as the inner fit took to its best
    iterate. ``validation`` rows, if given, only join the histories. Settings: ``l2_scale`` (the chosen c) and
    ``path_cll`` (the held-out mean CLL of each c)."""
    if target is None:
        raise ValidationError(f"l2 '{learner.l2_rule}' chooses by held-out conditional log-likelihood: it needs a target")
    start = time.perf_counter()
    if len(codes) < 4:
        raise ValidationError(f"l2 '{learner.l2_rule}' holds out a quarter of the rows: it needs at least 4, got "
                              f"{len(codes)}")
    keep, held = train_test_indices(len(codes), PATH_HOLDOUT, seed=0)
    part, part_w = codes[keep], weights[keep]
    held_scorer = DataScorer(net, codes[held], weights[held], target, memory_budget=learner.memory_budget)
    center = learner.start_beta(net, part, part_w)
    beta, found = center, []
    for c in PATH_SCALES[learner.l2_rule]:
        patience = PATH_PATIENCE if c == 0 else None
        run = learner.optimise(net, part, part_w, target, c / part_w.sum(), center, beta,
                               codes[held] if c == 0 else None, patience,
                               learner.stop_rule(), None, start)
        beta = run.beta
        cll = -held_scorer.scores(run.objective.theta(beta))["cnll"]
        found.append((cll, c, beta, run.iterations))
    cll, c, chosen, used = max(found, key=lambda f: (f[0], f[1]))
    stop = learner.stop_rule() if c else StopRule(max(used, 1), learner.tol, learner.max_time)
    l2 = float(c / weights.sum())
    run = learner.optimise(net, codes, weights, target, l2, learner.start_beta(net, codes, weights), chosen,
                           validation, None, stop, reporter, start)
    return learner.result(net, run, l2, time.perf_counter() - start, l2_scale=c,
                          path_cll={f"{f[1]:g}": float(f[0]) for f in found})
