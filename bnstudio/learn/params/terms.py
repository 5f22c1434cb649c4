"""Per-row log-probabilities of evidence and their expected family counts, for any CPTs.

For a set of rows (codes, -1 = missing) and CPTs θ this gives log p(e_n) per row and the weighted expected
counts C_f = Σ_n w_n p(X_f, Pa_f | e_n) per family — everything the objectives and gradients of Zhou
(eq 3.12–3.15) and EM need. Rows are split three ways, so inference runs only where it must:

* complete rows: log p(e_n) = Σ_f log θ_f[idx_f,n] and indicator counts (a gather and a bincount);
* rows missing exactly one variable V (the target, or a latent variable, ...): with the Markov-blanket scores
  s_nk = Σ_{f ∋ V} log θ_f[idx_f,n(V=k)], log p(e_n) = base_n + logsumexp_k s_nk and p(V=k | e_n) = softmax_k s_nk
  (closed form, any structure);
* all other rows: grouped into unique patterns (summed weights) and sent through the batched engine in chunks
  that fit the memory budget (:mod:`bnstudio.inference.batching`), their counts and log p(e) accumulated.

The split and every family index depend only on the data, so they are computed once (:class:`PreparedRows`)
and reused for every θ an optimiser or EM tries.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.special import logsumexp

from bnstudio.core.network import Network
from bnstudio.inference import DEFAULT_MEMORY_BUDGET, InferenceEngine
from bnstudio.inference.batching import batch_size, spans
from bnstudio.learn.params.suffstats import Family, families, family_index, narrow_codes, unique_rows


@dataclass
class EvidenceStats:
    """log p(e_n) per row (natural log) and, when asked, weighted expected counts per family."""

    logp: np.ndarray
    counts: list[np.ndarray] | None


@dataclass
class BlanketGroup:
    """Rows missing exactly the variable ``column``, with their family indices for every value of it."""

    mask: np.ndarray                                    # bool over all rows
    fixed: list[tuple[int, np.ndarray]]                 # families without the variable: (family, indices)
    shifted: list[tuple[int, np.ndarray]]               # families with it: (family, (n, |V|) indices)


@dataclass
class PreparedRows:
    """A data matrix split into the three row kinds with every family index precomputed."""

    n: int
    complete: np.ndarray                        # bool mask
    complete_idx: list[np.ndarray]              # per family: indices of the complete rows
    blankets: list[BlanketGroup] = field(default_factory=list)
    engine: np.ndarray | None = None            # bool mask
    unique: np.ndarray | None = None
    inverse: np.ndarray | None = None


class Terms:
    """Evaluates :class:`EvidenceStats` for a fixed structure; CPTs change between calls. ``memory_budget``
    (bytes) bounds each batched propagation of the engine rows."""

    def __init__(self, net: Network, memory_budget: int = DEFAULT_MEMORY_BUDGET) -> None:
        self.net = net.copy()
        self.engine = InferenceEngine(self.net, memory_budget=memory_budget)
        self.fams: list[Family] = families(net)
        self.cards = np.array([net.cardinality(v) for v in net.variables])
        # per engine case beside the propagation: its evidence likelihoods, code row, weight and log p(e)
        self.case_bytes = 8 * int(self.cards.sum()) + self.cards.size + 16
        self.theta: list[np.ndarray] = [net.cpt(v) for v in net.variables]
        self.offsets = np.concatenate([[0], np.cumsum([f.size for f in self.fams])]).astype(np.int64)
        self._logs: list[np.ndarray] | None = None
        self._flat_logs: np.ndarray | None = None
        self._engine_params_current = True

    def set_cpts(self, theta: list[np.ndarray]) -> None:
        """Use these CPTs (one per family, CPT layout) from now on."""
        self.theta = theta
        self._logs = self._flat_logs = None
        self._engine_params_current = False

    def _sync_engine(self) -> None:
        if not self._engine_params_current:
            self.net.set_parameters({f.var: t for f, t in zip(self.fams, self.theta, strict=True)})
            self._engine_params_current = True

    @property
    def flat_logs(self) -> np.ndarray:
        """log θ of every family, concatenated in family order (family k starts at ``offsets[k]``)."""
        if self._flat_logs is None:
            with np.errstate(divide="ignore"):
                self._flat_logs = np.log(np.concatenate([t.ravel() for t in self.theta]))
        return self._flat_logs

    @property
    def logs(self) -> list[np.ndarray]:
        """log θ per family, flat (views into :attr:`flat_logs`)."""
        if self._logs is None:
            self._logs = [table.ravel() for table in self.split(self.flat_logs)]
        return self._logs

    def split(self, flat: np.ndarray) -> list[np.ndarray]:
        """Per-family views, in family shape, of a vector laid out like :attr:`flat_logs`."""
        return [flat[a:b].reshape(f.shape)
                for a, b, f in zip(self.offsets[:-1], self.offsets[1:], self.fams, strict=True)]

    # ------------------------------------------------------------------ preparing data
    def prepare(self, codes: np.ndarray) -> PreparedRows:
        """Split ``codes`` into row kinds and compute their family indices (once per data set)."""
        missing = codes < 0
        n_missing = missing.sum(axis=1)
        complete = n_missing == 0
        whole = np.ascontiguousarray(codes[complete].T)
        rows = PreparedRows(len(codes), complete, [family_index(codes, f, whole) for f in self.fams])
        rest = ~complete
        single = rest & (n_missing == 1)
        if single.any():
            for column in np.unique(np.argmax(missing[single], axis=1)):
                mask = single & missing[:, column]
                rows.blankets.append(self._blanket_group(codes[mask], mask, int(column)))
            rest &= ~single
        if rest.any():
            unique, inverse = unique_rows(narrow_codes(codes)[rest])
            rows.engine, rows.unique, rows.inverse = rest, unique, inverse
        return rows

    def _blanket_group(self, codes: np.ndarray, mask: np.ndarray, column: int) -> BlanketGroup:
        filled = codes.copy()
        filled[:, column] = 0
        cols = np.ascontiguousarray(filled.T)
        group = BlanketGroup(mask, [], [])
        values = np.arange(self.cards[column])[None, :]
        for k, fam in enumerate(self.fams):
            idx = family_index(filled, fam, cols)
            if column not in fam.columns:
                group.fixed.append((k, idx))
            else:
                stride = int(np.prod(fam.shape[fam.columns.index(column) + 1:]))
                group.shifted.append((k, idx[:, None] + stride * values))
        return group

    # ------------------------------------------------------------------ evaluating
    def stats(self, rows: PreparedRows | np.ndarray, weights: np.ndarray, want_counts: bool = True) -> EvidenceStats:
        """log p(e_n) for every row and (optionally) Σ_n weights_n p(family | e_n) for every family."""
        if not isinstance(rows, PreparedRows):
            rows = self.prepare(rows)
        logp = np.empty(rows.n)
        counts = [np.zeros(f.shape) for f in self.fams] if want_counts else None
        if rows.complete.any():
            w = weights[rows.complete]
            logp[rows.complete] = sum(self.logs[k][idx] for k, idx in enumerate(rows.complete_idx))
            if counts is not None:
                for k, (fam, idx) in enumerate(zip(self.fams, rows.complete_idx, strict=True)):
                    counts[k] += np.bincount(idx, weights=w, minlength=fam.size).reshape(fam.shape)
        for group in rows.blankets:
            self._blanket(group, weights[group.mask], logp, counts)
        if rows.engine is not None:
            self._engine_rows(rows, weights[rows.engine], logp, counts)
        return EvidenceStats(logp, counts)

    def _blanket(self, group: BlanketGroup, weights, logp, counts) -> None:
        base = sum((self.logs[k][idx] for k, idx in group.fixed), np.zeros(len(weights)))
        scores = sum(self.logs[k][shifted] for k, shifted in group.shifted)
        norm = logsumexp(scores, axis=1)
        logp[group.mask] = base + norm
        if counts is None:
            return
        for k, idx in group.fixed:
            counts[k] += np.bincount(idx, weights=weights, minlength=self.fams[k].size).reshape(self.fams[k].shape)
        with np.errstate(invalid="ignore"):
            post = np.where(np.isfinite(norm)[:, None], np.exp(scores - norm[:, None]), 0.0)
        weighted = (post * weights[:, None]).ravel()
        for k, shifted in group.shifted:
            fam = self.fams[k]
            counts[k] += np.bincount(shifted.ravel(), weights=weighted, minlength=fam.size).reshape(fam.shape)

    def _engine_rows(self, rows: PreparedRows, weights, logp, counts) -> None:
        """Unique incomplete patterns through the engine, a chunk at a time: log p(e) and the weighted family
        marginals, one calibration per chunk, the counts summed over the chunks."""
        assert rows.unique is not None and rows.inverse is not None  # prepared with the engine rows
        self._sync_engine()
        logp_unique = np.empty(len(rows.unique))
        grouped = None if counts is None else np.bincount(rows.inverse, weights=weights, minlength=len(rows.unique))
        for part in spans(len(rows.unique), batch_size(self.engine, self.case_bytes, "inference on the data rows with missing cells")):
            if grouped is None:  # no counts wanted
                logp_unique[part] = self.engine.log_evidence_batch(rows.unique[part])
                continue
            marg, logp_unique[part] = self.engine.calibrate_batch(rows.unique[part], weights=grouped[part],
                                                                  reduce=True)
            for k, fam in enumerate(self.fams):
                counts[k] += marg[fam.var]
        logp[rows.engine] = logp_unique[rows.inverse]
