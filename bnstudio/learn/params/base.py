"""What every parameter learner shares: the fitted result, the stopping rule, data scores for histories.

Learners follow the scikit-learn shape (GUIDE §2): the constructor stores hyper-parameters,
``fit(net, data, target=None, validation=None, reporter=None)`` validates, never mutates ``net`` and returns a
:class:`FitResult`. Every history entry holds the mean negative log-likelihood per training case (natural
log) and, with a target, the mean negative conditional log-likelihood of the target; also on the validation
rows when given.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import sparse

from bnstudio.core.network import Network
from bnstudio.learn.params.suffstats import check_codes, family_index
from bnstudio.learn.params.terms import Terms


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

    def network(self, base: Network) -> Network:
        """A copy of ``base`` carrying these CPTs (and Dirichlet counts where the method has them)."""
        net = base.copy()
        net.set_parameters(self.cpts, self.alpha)
        return net

    def to_json(self) -> dict[str, Any]:
        """The run as JSON-safe data (for the project file and ``--json``)."""
        return {"method": self.method, "settings": self.settings, "history": self.history,
                "stop_reason": self.stop_reason, "seconds": self.seconds, "n_iterations": self.n_iterations}


@dataclass(frozen=True)
class StopRule:
    """Shared stopping knobs: at most ``max_iter`` iterations, relative improvement ``tol``, ``max_time`` s."""

    max_iter: int = 100
    tol: float = 1e-6
    max_time: float = math.inf

    def reason(self, iteration: int, previous: float, current: float, elapsed: float) -> str | None:
        """Why to stop now (or None): "converged", "max_iter" or "max_time"."""
        if abs(current - previous) <= self.tol * max(abs(previous), 1e-12):
            return "converged"
        if iteration >= self.max_iter:
            return "max_iter"
        if elapsed >= self.max_time:
            return "max_time"
        return None


class DataScorer:
    """Mean NLL and conditional NLL of a data set under changing CPTs (for histories and evaluation).

    The rows are prepared once (:meth:`Terms.prepare`); each call then costs gathers, and inference only for
    rows with missing cells.
    """

    def __init__(self, net: Network, data: np.ndarray, weights: np.ndarray | None = None,
                 target: str | None = None, terms: Terms | None = None,
                 conditional: "ConditionalRows | None" = None) -> None:
        self.codes, self.weights = check_codes(net, data, weights)
        self.terms = terms or Terms(net)
        self.rows = self.terms.prepare(self.codes)
        self.target = None if target is None else net.variables.index(target)
        if self.target is not None:
            self.conditional = conditional or ConditionalRows(self.terms, self.codes, self.weights, self.target)

    def nll(self, theta: list[np.ndarray] | None = None) -> float:
        """Mean negative log-likelihood per case."""
        if theta is not None:
            self.terms.set_cpts(theta)
        logp = self.terms.stats(self.rows, self.weights, want_counts=False).logp
        return -weighted_sum(self.weights, logp) / self.weights.sum()

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
    """

    def __init__(self, terms: Terms, codes: np.ndarray, weights: np.ndarray, target: int) -> None:
        self.terms = terms
        observed = codes[:, target] >= 0
        self.codes, self.weights = codes[observed], weights[observed]
        net = terms.net
        name = net.variables[target]
        blanket = {name, *net.parents(name)}
        for child in net.children(name):
            blanket |= {child, *net.parents(child)}
        columns = [net.variables.index(v) for v in blanket]
        self.fast = (self.codes[:, columns] >= 0).all(axis=1)
        fast_codes = self.codes[self.fast].copy()
        self.q = fast_codes[:, target].copy()
        fast_codes[:, target] = 0
        # one sparse incidence matrix per class value k: row n -> the entries of the T-families it uses with
        # T = k, over the concatenated T-family tables; scores and count differences are then sparse matvecs
        self.blocks, offset, per_class = [], 0, [[] for _ in range(terms.cards[target])]
        cols = np.ascontiguousarray(fast_codes.T)
        for k, fam in enumerate(terms.fams):
            if target in fam.columns:
                stride = int(np.prod(fam.shape[fam.columns.index(target) + 1:]))
                idx = family_index(fast_codes, fam, cols)
                for value in range(terms.cards[target]):
                    per_class[value].append(idx + stride * value + offset)
                self.blocks.append((k, offset))
                offset += fam.size
        n_fast = len(fast_codes)
        self.width = offset
        rows = np.repeat(np.arange(n_fast), len(self.blocks))
        self.incidence = [sparse.csr_matrix((np.ones(rows.size), (rows, np.column_stack(c).ravel())),
                                            shape=(n_fast, offset)) for c in per_class]
        self.incidence_t = [m.T.tocsr() for m in self.incidence]
        self.onehot_q = np.eye(terms.cards[target])[self.q]
        slow = self.codes[~self.fast]
        hidden = slow.copy()
        hidden[:, target] = -1
        self.qe, self.e = terms.prepare(slow), terms.prepare(hidden)
        self.missing = terms.prepare(codes[~observed])
        self.missing_weights = weights[~observed]

    def _scores(self) -> np.ndarray:
        flat = np.concatenate([self.terms.logs[k] for k, _ in self.blocks])
        return np.column_stack([m @ flat for m in self.incidence])

    def logp(self) -> np.ndarray:
        """log p(q_n | e_n) per observed-target row (-inf where p(q, e) = 0)."""
        return self.evaluate(want_counts=False)[0]

    def evaluate(self, row_factor: np.ndarray | None = None, want_counts: bool = True
                 ) -> tuple[np.ndarray, list[np.ndarray] | None]:
        """log p(q_n | e_n) per row and Σ_n w_n f_n [p(fam | q_n, e_n) − p(fam | e_n)] per family."""
        logp = np.empty(len(self.codes))
        w = self.weights if row_factor is None else self.weights * row_factor
        counts = [np.zeros(f.shape) for f in self.terms.fams] if want_counts else None
        if self.fast.any():
            with np.errstate(invalid="ignore", divide="ignore"):
                scores = self._scores()     # -inf entries give nan in the matvec only if θ has zeros
                scores[np.isnan(scores)] = -np.inf
                top = scores.max(axis=1, keepdims=True)
                finite = np.isfinite(top[:, 0])
                exp = np.exp(scores - np.where(finite, top[:, 0], 0.0)[:, None])
                total = exp.sum(axis=1)
                own = scores[np.arange(len(scores)), self.q]
                logp[self.fast] = np.where(finite, own - top[:, 0] - np.log(total), -np.inf)
            if counts is not None:
                post = np.where(finite[:, None], exp / np.where(finite, total, 1.0)[:, None], 0.0)
                residual = (self.onehot_q - post) * w[self.fast][:, None]     # (1{q = k} − p(k | e)) w
                diff = sum(m @ residual[:, value] for value, m in enumerate(self.incidence_t))
                for k, offset in self.blocks:
                    fam = self.terms.fams[k]
                    counts[k] += diff[offset:offset + fam.size].reshape(fam.shape)
        slow = ~self.fast
        if slow.any():
            qe = self.terms.stats(self.qe, w[slow], want_counts)
            e = self.terms.stats(self.e, w[slow], want_counts)
            with np.errstate(invalid="ignore"):
                logp[slow] = np.where(np.isneginf(qe.logp), -np.inf, qe.logp - e.logp)
            if counts is not None:
                counts = [c + a - b for c, a, b in zip(counts, qe.counts, e.counts)]
        return logp, counts
