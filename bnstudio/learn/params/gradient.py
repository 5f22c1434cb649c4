"""Gradient training in the softmax parameterisation: ``lgd`` (log-likelihood) and ``clgd`` (discriminative).

θ_{x|π} = exp β_{x|π} / Σ_x' exp β_{x'|π} (Zhou §3.2.2) keeps every step a valid CPT. With expected counts
C_f = Σ_n w_n p(x, π | ·) the gradients are (Zhou eq 3.12–3.15)

    ∂ log p(e) / ∂β_{x|π}       = C^e(x, π) − θ_{x|π} C^e(π)                          (3.13, ``ll``)
    ∂ log p(q | e) / ∂β_{x|π}   = [C^{q,e} − θ C^{q,e}(π)] − [C^e − θ C^e(π)]           (3.15, ``cll``)

AE = Σ (1 − p(q|e)) and SE = Σ (1 − p(q|e))² (Zhou §3.1.3–3.1.4) reuse (3.15) with per-row weights −p and
−2(1 − p)p. The mixed objective log p(q|e) + α log p(e) (Zhou §5.2) slides from discriminative (α = 0) to
generative (α = 1). Losses are means per training case plus (λ/2)·||β||² (``l2``); rows whose target is
missing carry no conditional term. Optimised with scipy's L-BFGS-B or nonlinear conjugate gradient, from the
``mp`` (Laplace) estimate by default; early stopping on a validation split with ``patience``.
"""
from __future__ import annotations

import math
import time

import numpy as np
from scipy.optimize import minimize
from scipy.special import softmax

from bnstudio.core.network import Network
from bnstudio.errors import ValidationError
from bnstudio.jobs import Progress, Reporter
from bnstudio.learn.params.base import ConditionalRows, DataScorer, FitResult, StopRule, weighted_sum
from bnstudio.learn.params.suffstats import check_codes
from bnstudio.learn.params.terms import Terms

CRITERIA = ("ll", "cll", "ae", "se")


def _beta_gradient(counts: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """C(x, π) − θ_{x|π} C(π): the derivative of Σ log p in the softmax parameters (eq 3.12)."""
    return counts - theta * counts.sum(axis=-1, keepdims=True)


class SoftmaxObjective:
    """Loss and gradient of a criterion as a function of the flat softmax parameter vector β."""

    def __init__(self, net: Network, codes: np.ndarray, weights: np.ndarray, target: str | None,
                 criterion: str, alpha: float = 0.0, l2: float = 0.0) -> None:
        if criterion not in CRITERIA:
            raise ValidationError(f"unknown criterion {criterion!r}; use one of {CRITERIA}")
        if criterion != "ll" and target is None:
            raise ValidationError(f"criterion '{criterion}' needs a target variable")
        if not 0.0 <= alpha <= 1.0:
            raise ValidationError(f"alpha must be in [0, 1], got {alpha}")
        if alpha and criterion != "cll":
            raise ValidationError("the mixed objective (alpha > 0) is defined for criterion 'cll'")
        self.terms = Terms(net)
        self.shapes = [net.family_shape(v) for v in net.variables]
        self.sizes = [int(np.prod(s)) for s in self.shapes]
        self.criterion, self.alpha, self.l2 = criterion, alpha, l2
        self.weights = weights
        self.total = weights.sum()
        self.rows = self.terms.prepare(codes)
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

    def theta(self, beta: np.ndarray) -> list[np.ndarray]:
        """CPTs from a flat β: a softmax over each row."""
        parts = np.split(beta, np.cumsum(self.sizes)[:-1])
        return [softmax(b.reshape(s), axis=-1) for b, s in zip(parts, self.shapes)]

    @staticmethod
    def beta_from(theta: list[np.ndarray]) -> np.ndarray:
        """A β giving ``theta`` (zeros clipped at 1e-12), centred per row so the L2 term is smallest."""
        logs = [np.log(np.clip(t, 1e-12, None)) for t in theta]
        return np.concatenate([(lg - lg.mean(axis=-1, keepdims=True)).ravel() for lg in logs])

    def __call__(self, beta: np.ndarray) -> tuple[float, np.ndarray]:
        theta = self.theta(beta)
        self.terms.set_cpts(theta)
        self._pending: dict[str, float] | None = None
        loss, grads = getattr(self, f"_{self.criterion}")(theta)
        self.last = (beta.tobytes(), self._pending) if self._pending else None
        loss = loss / self.total + 0.5 * self.l2 * float(np.einsum('i,i->', beta, beta))
        grad = -np.concatenate([g.ravel() for g in grads]) / self.total + self.l2 * beta
        return (loss if math.isfinite(loss) else 1e300), grad

    # each returns (summed loss, gradient of the summed *gain* per family)
    def _ll(self, theta):
        s = self.terms.stats(self.rows, self.weights)
        self._remember(nll=-weighted_sum(self.weights, s.logp) / self.total)
        return -weighted_sum(self.weights, s.logp), [_beta_gradient(c, t) for c, t in zip(s.counts, theta)]

    def _cll(self, theta):
        if not self.alpha:
            logp, diff = self.cond.evaluate()
            self._remember(cnll=-weighted_sum(self.w_obs, logp) / self.w_obs.sum())
            return -weighted_sum(self.w_obs, logp), [_beta_gradient(d, t) for d, t in zip(diff, theta)]
        qe = self.terms.stats(self.obs, self.w_obs)
        e = self.terms.stats(self.hidden, self.w_obs)
        gain = weighted_sum(self.w_obs, qe.logp - (1 - self.alpha) * e.logp)
        grads = [_beta_gradient(a, t) - (1 - self.alpha) * _beta_gradient(b, t)
                 for a, b, t in zip(qe.counts, e.counts, theta)]
        if self.miss.n:
            m = self.terms.stats(self.miss, self.w_miss)
            gain += self.alpha * weighted_sum(self.w_miss, m.logp)
            grads = [g + self.alpha * _beta_gradient(c, t) for g, c, t in zip(grads, m.counts, theta)]
        return -gain, grads

    def _remember(self, **scores: float) -> None:
        self._pending = scores

    def _weighted_cll_gradient(self, theta, row_factor):
        _, diff = self.cond.evaluate(row_factor)
        return [_beta_gradient(d, t) for d, t in zip(diff, theta)]

    def _ae(self, theta):
        p = np.exp(self.cond.logp())
        return weighted_sum(self.w_obs, (1 - p)), self._weighted_cll_gradient(theta, p)

    def _se(self, theta):
        p = np.exp(self.cond.logp())
        return weighted_sum(self.w_obs, (1 - p) ** 2), self._weighted_cll_gradient(theta, 2 * (1 - p) * p)


class _EarlyStop(Exception):
    pass


class GradientTraining:
    """``clgd`` (criterion cll/ae/se, optional mixed α) or ``lgd`` (criterion ll); see module docstring."""

    def __init__(self, criterion: str = "cll", alpha: float = 0.0, l2: float = 0.0, optimizer: str = "lbfgs",
                 init: str = "mp", max_iter: int = 200, tol: float = 1e-9, max_time: float = math.inf,
                 patience: int | None = None) -> None:
        if optimizer not in ("lbfgs", "cg"):
            raise ValidationError(f"unknown optimizer {optimizer!r}; use 'lbfgs' or 'cg'")
        if init not in ("mp", "ml", "current"):
            raise ValidationError(f"unknown initialisation {init!r}; use 'mp', 'ml' or 'current'")
        self.criterion, self.alpha, self.l2, self.optimizer, self.init = criterion, alpha, l2, optimizer, init
        self.stop = StopRule(max_iter, tol, max_time)
        self.patience = patience
        self.name = "lgd" if criterion == "ll" else "clgd"

    def _initial(self, net: Network, codes, weights) -> list[np.ndarray]:
        from bnstudio.learn.params.counting import MaximumLikelihood, MeanPosterior
        if self.init == "current":
            return [np.array(net.cpt(v)) for v in net.variables]
        learner = MeanPosterior() if self.init == "mp" else MaximumLikelihood()
        fitted = learner.fit(net, codes, weights)
        return [fitted.cpts[v] for v in net.variables]

    def fit(self, net: Network, data, weights=None, target: str | None = None, validation=None,
            reporter: Reporter | None = None) -> FitResult:
        start = time.perf_counter()
        codes, weights = check_codes(net, data, weights)
        objective = SoftmaxObjective(net, codes, weights, target, self.criterion, self.alpha, self.l2)
        scorer = DataScorer(net, codes, weights, target, terms=objective.terms,
                            conditional=getattr(objective, "cond", None))
        val_scorer = DataScorer(net, validation, None, target) if validation is not None else None
        progress = Progress(reporter, self.name, total=self.stop.max_iter)
        history: list[dict[str, float]] = []
        best = {"score": math.inf, "beta": None, "since": 0}
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
            progress.report(entry["iteration"], {k: v for k, v in entry.items() if k != "iteration"})
            if val_scorer is not None and self.patience:
                if entry[f"val_{watch}"] < best["score"]:
                    best.update(score=entry[f"val_{watch}"], beta=beta.copy(), since=0)
                else:
                    best["since"] += 1
                    if best["since"] >= self.patience:
                        raise _EarlyStop("early_stopping")
            if progress.elapsed >= self.stop.max_time:
                raise _EarlyStop("max_time")

        beta0 = objective.beta_from(self._initial(net, codes, weights))
        record(beta0)
        state = {"beta": beta0, "reason": None}

        def callback(intermediate_result) -> None:
            state["beta"] = np.array(intermediate_result.x)
            try:
                record(state["beta"])
            except _EarlyStop as stop:
                state["reason"] = str(stop)
                raise StopIteration from None

        method = "L-BFGS-B" if self.optimizer == "lbfgs" else "CG"
        options = {"maxiter": self.stop.max_iter}
        options.update({"ftol": self.stop.tol, "gtol": 1e-10, "maxcor": 20} if method == "L-BFGS-B"
                       else {"gtol": 1e-8})
        result = minimize(objective, beta0, jac=True, method=method, options=options, callback=callback)
        progress.done()
        if state["reason"] == "early_stopping" and best["beta"] is not None:
            beta, reason = best["beta"], "early_stopping"
        else:
            beta = result.x if state["reason"] is None else state["beta"]
            reason = state["reason"] or ("converged" if result.success else
                                         "max_iter" if result.nit >= self.stop.max_iter else "stalled")
        cpts = dict(zip(net.variables, objective.theta(beta)))
        settings = {"criterion": self.criterion, "alpha": self.alpha, "l2": self.l2, "optimizer": self.optimizer,
                    "init": self.init, "max_iter": self.stop.max_iter, "tol": self.stop.tol,
                    "patience": self.patience}
        return FitResult(self.name, cpts, None, history, reason, time.perf_counter() - start, settings,
                         extra={"optimizer_message": str(result.message), "evaluations": int(result.nfev)})
