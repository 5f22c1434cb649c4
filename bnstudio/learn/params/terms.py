"""Per-row log-probabilities of evidence and their expected family counts, for any CPTs.

For a set of rows (codes, -1 = missing) and CPTs θ this gives log p(e_n) per row and the weighted expected
counts C_f = Σ_n w_n p(X_f, Pa_f | e_n) per family — everything the objectives and gradients of Zhou
(eq 3.12–3.15) and EM need. Rows are split three ways, so inference runs only where it must:

* complete rows: log p(e_n) = Σ_f log θ_f[idx_f,n] and indicator counts (a gather and a bincount);
* rows complete except the target T: with the Markov-blanket scores s_nk = Σ_{f ∋ T} log θ_f[idx_f,n(T=k)],
  log p(e_n) = base_n + logsumexp_k s_nk and p(T=k | e_n) = softmax_k s_nk (closed form, any structure);
* all other rows: grouped into unique patterns (summed weights) and sent through the batched engine.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import logsumexp, softmax

from bnstudio.core.network import Network
from bnstudio.inference import InferenceEngine
from bnstudio.learn.params.suffstats import Family, counts_from_index, families, family_index


@dataclass
class EvidenceStats:
    """log p(e_n) per row (natural log) and, when asked, weighted expected counts per family."""

    logp: np.ndarray
    counts: list[np.ndarray] | None


class Terms:
    """Evaluates :class:`EvidenceStats` for a fixed structure; CPTs change between calls."""

    def __init__(self, net: Network, target: str | None = None) -> None:
        self.net = net.copy()
        self.engine = InferenceEngine(self.net)
        self.fams: list[Family] = families(net)
        self.target = None if target is None else net.variables.index(target)
        self.cards = np.array([net.cardinality(v) for v in net.variables])
        self.theta: list[np.ndarray] = [net.cpt(v) for v in net.variables]
        self._logs: list[np.ndarray] | None = None

    def set_cpts(self, theta: list[np.ndarray]) -> None:
        """Use these CPTs (one per family, CPT layout) from now on."""
        self.theta = theta
        self._logs = None
        self.net.set_parameters({f.var: t for f, t in zip(self.fams, theta)})

    @property
    def logs(self) -> list[np.ndarray]:
        if self._logs is None:
            with np.errstate(divide="ignore"):
                self._logs = [np.log(t).ravel() for t in self.theta]
        return self._logs

    # ------------------------------------------------------------------ the three row kinds
    def stats(self, codes: np.ndarray, weights: np.ndarray, want_counts: bool = True) -> EvidenceStats:
        """log p(e_n) for every row and (optionally) Σ_n weights_n p(family | e_n) for every family."""
        n = codes.shape[0]
        logp = np.empty(n)
        counts = [np.zeros(f.shape) for f in self.fams] if want_counts else None
        missing = codes < 0
        complete = ~missing.any(axis=1)
        rest = ~complete
        if self.target is not None:
            only_target = rest & missing[:, self.target] & (missing.sum(axis=1) == 1)
            rest &= ~only_target
            if only_target.any():
                self._blanket_rows(codes[only_target], weights[only_target], logp, only_target, counts)
        if complete.any():
            self._complete_rows(codes[complete], weights[complete], logp, complete, counts)
        if rest.any():
            self._engine_rows(codes[rest], weights[rest], logp, rest, counts)
        return EvidenceStats(logp, counts)

    def _complete_rows(self, codes, weights, logp, mask, counts) -> None:
        total = np.zeros(codes.shape[0])
        for k, fam in enumerate(self.fams):
            idx = family_index(codes, fam)
            total += self.logs[k][idx]
            if counts is not None:
                counts[k] += counts_from_index(idx, weights, fam)
        logp[mask] = total

    def _blanket_rows(self, codes, weights, logp, mask, counts) -> None:
        t = self.target
        filled = codes.copy()
        filled[:, t] = 0
        base = np.zeros(codes.shape[0])
        scores = np.zeros((codes.shape[0], self.cards[t]))
        touching = []
        for k, fam in enumerate(self.fams):
            idx = family_index(filled, fam)
            if t not in fam.columns:
                base += self.logs[k][idx]
                if counts is not None:
                    counts[k] += counts_from_index(idx, weights, fam)
                continue
            stride = int(np.prod(fam.shape[fam.columns.index(t) + 1:]))
            shifted = idx[:, None] + stride * np.arange(self.cards[t])[None, :]
            scores += self.logs[k][shifted]
            touching.append((k, fam, shifted))
        norm = logsumexp(scores, axis=1)
        logp[mask] = base + norm
        if counts is not None:
            post = softmax(scores, axis=1) if np.all(np.isfinite(norm)) else _safe_softmax(scores)
            for k, fam, shifted in touching:
                counts[k] += np.bincount(shifted.ravel(), weights=(post * weights[:, None]).ravel(),
                                         minlength=fam.size).reshape(fam.shape)

    def _engine_rows(self, codes, weights, logp, mask, counts) -> None:
        unique, inverse = np.unique(codes, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        logp_unique = self.engine.log_evidence_batch(unique)
        logp[mask] = logp_unique[inverse]
        if counts is not None:
            grouped = np.bincount(inverse, weights=weights, minlength=len(unique))
            possible = np.isfinite(logp_unique) & (grouped > 0)
            if possible.any():
                marg = self.engine.family_marginals_batch(unique[possible], weights=grouped[possible])
                for k, fam in enumerate(self.fams):
                    counts[k] += marg[fam.var]


def _safe_softmax(scores: np.ndarray) -> np.ndarray:
    """Softmax per row; rows with every score -inf (impossible rows) get zeros instead of NaN."""
    top = scores.max(axis=1, keepdims=True)
    ok = np.isfinite(top[:, 0])
    out = np.zeros_like(scores)
    e = np.exp(scores[ok] - top[ok])
    out[ok] = e / e.sum(axis=1, keepdims=True)
    return out
