"""``wanbia``: weighted conditional parameters (WANBIA-C; Zaidi et al. §5, eq 15–21).

θ comes from ``mp`` and stays fixed; a weight per parameter group is learned by maximising the conditional
log-likelihood of the class y:

    log p(y | x) = Σ_f w_f(y, ·) log θ_f(y, ·) − log Σ_y' exp(Σ_f w_f(y', ·) log θ_f(y', ·))      (eq 16)

over the families f containing y. Gradient (eq 17–21): (1{y = k} − p(k | x)) · log θ at the entries used, summed
within each weight group. Levels (§5.4, Fig. 1): ``attribute`` (one weight per family), ``attribute-value``,
``attribute-value-class``, ``parameter`` (one weight per θ). Penalty (λ/2)·||w − 1||² pulls toward the
generative model (§5.2). Starts at w = 1, i.e. at the generative estimate (§5.1).

For class-rooted structures where every attribute has the class and at most one other attribute as parents
(NB, TAN, KDB-1 — the structures of Zaidi et al.), the weighted model is turned back into an ordinary network
with exactly the same p(y | x): each weighted factor θ^w is normalised over its child and the normaliser pushed
into its attribute parent's factor (or the class prior), children before parents. Complete attribute data only.
"""
from __future__ import annotations

import math
import time

import numpy as np
from scipy.optimize import minimize
from scipy.special import logsumexp, softmax

from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.core.network import Network
from bnstudio.errors import ValidationError
from bnstudio.jobs import Progress, Reporter
from bnstudio.learn.params.base import DataScorer, FitResult, StopRule, weighted_sum
from bnstudio.learn.params.counting import MeanPosterior
from bnstudio.learn.params.suffstats import check_codes, families, family_index

LEVELS = ("attribute", "attribute-value", "attribute-value-class", "parameter")


def check_structure(net: Network, target: str) -> list[str]:
    """The attributes (all other variables) if the structure is class-rooted NB/TAN/KDB-1, else an error."""
    if net.parents(target):
        raise ValidationError(f"wanbia needs the class '{target}' as a root; it has parents {list(net.parents(target))}")
    attributes = [v for v in net.variables if v != target]
    for v in attributes:
        others = [p for p in net.parents(v) if p != target]
        if target not in net.parents(v) or len(others) > 1:
            raise ValidationError(f"wanbia needs every attribute to have the class '{target}' and at most one other "
                                  f"parent (NB, TAN, KDB-1); '{v}' has parents {list(net.parents(v))}")
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
    """Loss (mean negative CLL + penalty) and gradient in the weights, closed form on complete data."""

    def __init__(self, net: Network, theta: dict[str, np.ndarray], codes: np.ndarray, weights: np.ndarray,
                 target: str, level: str, l2: float) -> None:
        t = net.variables.index(target)
        self.n_classes = net.cardinality(target)
        self.row_weights, self.total, self.l2 = weights, weights.sum(), l2
        self.y = codes[:, t]
        self.blocks = []   # per class-containing family: (log θ at entries (N, K), weight ids (N, K), n weights)
        offset = 0
        filled = codes.copy()
        filled[:, t] = 0
        for fam in families(net):
            if t not in fam.columns:
                continue
            axis = fam.columns.index(t)
            stride = int(np.prod(fam.shape[axis + 1:]))
            idx = family_index(filled, fam)[:, None] + stride * np.arange(self.n_classes)[None, :]
            groups = group_map(fam.shape, axis, level).ravel()
            with np.errstate(divide="ignore"):
                logs = np.log(theta[fam.var]).ravel()
            n_groups = int(groups.max()) + 1
            self.blocks.append((fam.var, logs[idx], groups[idx] + offset, groups + offset, n_groups))
            offset += n_groups
        self.n_weights = offset

    def scores(self, w: np.ndarray) -> np.ndarray:
        """Class scores s_nk = Σ_f w[g_f(n, k)] log θ_f(n, k)."""
        return sum(w[ids] * logs for _, logs, ids, _, _ in self.blocks)

    def __call__(self, w: np.ndarray) -> tuple[float, np.ndarray]:
        s = self.scores(w)
        log_norm = logsumexp(s, axis=1)
        rows = np.arange(len(self.y))
        loss = -weighted_sum(self.row_weights, s[rows, self.y] - log_norm) / self.total
        resid = -softmax(s, axis=1)
        resid[rows, self.y] += 1.0
        resid *= self.row_weights[:, None]
        grad = np.zeros(self.n_weights)
        for _, logs, ids, _, _ in self.blocks:
            grad -= np.bincount(ids.ravel(), weights=(resid * logs).ravel(), minlength=self.n_weights)
        grad /= self.total
        d = w - 1.0
        return loss + 0.5 * self.l2 * float(np.einsum('i,i->', d, d)), grad + self.l2 * d

    def weight_tables(self, w: np.ndarray, net: Network) -> dict[str, np.ndarray]:
        """Per family, the weight of every CPT entry (family shape)."""
        return {var: w[all_ids].reshape(net.family_shape(var)) for var, _, _, all_ids, _ in self.blocks}


def equivalent_network_cpts(net: Network, target: str, theta: dict[str, np.ndarray],
                            weights: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """CPTs of an ordinary network with the weighted model's p(y | x) (see module docstring)."""
    attributes = check_structure(net, target)
    with np.errstate(divide="ignore"):
        factor = {v: np.exp(weights[v] * np.log(theta[v])) if v in weights else np.array(theta[v])
                  for v in [target] + attributes}
    order = [v for v in net.topological_order() if v != target]
    out: dict[str, np.ndarray] = {}
    for v in reversed(order):                              # children before parents
        norm = factor[v].sum(axis=-1)
        out[v] = normalise_rows(factor[v])
        parents = list(net.parents(v))
        others = [p for p in parents if p != target]
        if not others:
            factor[target] = factor[target] * norm
            continue
        a = others[0]
        norm = np.moveaxis(norm, [parents.index(target), parents.index(a)], [0, 1])   # (y, a)
        a_parents = list(net.parents(a))
        shape = [1] * (len(a_parents) + 1)
        shape[a_parents.index(target)], shape[-1] = norm.shape[0], norm.shape[1]
        factor[a] = factor[a] * norm.reshape(shape)
    out[target] = normalise_rows(factor[target])
    return out


class WeightedConditional:
    """``wanbia``: learn weights on fixed ``mp`` parameters by conditional log-likelihood (module docstring)."""

    name = "wanbia"

    def __init__(self, level: str = "parameter", l2: float = 0.0, prior: str = "laplace", ess: float = 1.0,
                 max_iter: int = 200, tol: float = 1e-9, max_time: float = math.inf) -> None:
        if level not in LEVELS:
            raise ValidationError(f"unknown weighting level {level!r}; use one of {LEVELS}")
        self.level, self.l2, self.prior, self.ess = level, l2, prior, ess
        self.stop = StopRule(max_iter, tol, max_time)

    def fit(self, net: Network, data, weights=None, target: str | None = None, validation=None,
            reporter: Reporter | None = None) -> FitResult:
        start = time.perf_counter()
        if target is None:
            raise ValidationError("wanbia needs a target (class) variable")
        check_structure(net, target)
        codes, weights = check_codes(net, data, weights)
        codes, weights = codes[codes[:, net.variables.index(target)] >= 0], weights[codes[:, net.variables.index(target)] >= 0]
        if np.any(codes < 0):
            raise ValidationError("wanbia needs complete attribute values; use 'em' or 'clgd' for missing cells")
        theta = MeanPosterior(self.prior, self.ess).fit(net, codes, weights).cpts
        objective = WeightedCLL(net, theta, codes, weights, target, self.level, self.l2)
        scorer = DataScorer(net, codes, weights, target)
        val_scorer = DataScorer(net, validation, None, target) if validation is not None else None
        progress = Progress(reporter, self.name, total=self.stop.max_iter)
        history: list[dict[str, float]] = []

        def record(w: np.ndarray) -> None:
            cpts = equivalent_network_cpts(net, target, theta, objective.weight_tables(w, net))
            ordered = [cpts[v] for v in net.variables]
            entry = {"iteration": len(history) + 1, **scorer.scores(ordered)}
            if val_scorer is not None:
                entry.update({f"val_{k}": s for k, s in val_scorer.scores(ordered).items()})
            entry["seconds"] = time.perf_counter() - start
            history.append(entry)
            progress.report(entry["iteration"], {k: v for k, v in entry.items() if k != "iteration"})
            if progress.elapsed >= self.stop.max_time:
                raise StopIteration

        def callback(intermediate_result) -> None:  # scipy passes an OptimizeResult to this parameter name
            record(intermediate_result.x)

        w0 = np.ones(objective.n_weights)
        record(w0)
        result = minimize(objective, w0, jac=True, method="L-BFGS-B", callback=callback,
                          options={"maxiter": self.stop.max_iter, "ftol": self.stop.tol, "gtol": 1e-10, "maxcor": 20})
        progress.done()
        tables = objective.weight_tables(result.x, net)
        cpts = equivalent_network_cpts(net, target, theta, tables)
        reason = "converged" if result.success else ("max_iter" if result.nit >= self.stop.max_iter else "max_time")
        settings = {"level": self.level, "l2": self.l2, "prior": self.prior, "ess": self.ess,
                    "max_iter": self.stop.max_iter}
        return FitResult(self.name, cpts, None, history, reason, time.perf_counter() - start, settings,
                         extra={"weights": {v: t.tolist() for v, t in tables.items()}, "n_weights": objective.n_weights,
                                "generative_cpts": theta})
