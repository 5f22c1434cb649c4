"""Closed-form p(target | row) for rows observed in every other cell (wide data, no inference).

With every cell but the target T observed (so its Markov blanket is), p(T = k | e) ∝ Π_{f ∋ T} θ_f[idx_f(T = k)]: only the families that
contain T depend on k (Zhou eq 3.15's closed form; Ng & Jordan 2001 §2 for naive Bayes, where this is the
logistic form of NB's posterior). So s_nk = Σ_{f ∋ T} log θ_f[rest_f,n, k] and p(k | e_n) = softmax_k s_nk: one
gather per T-family and class, O(N · |families ∋ T| · |T|), rows in chunks that fit the memory budget. A row is
left to the engine when p(e) = 0, i.e. when every s_nk is -inf or a family without T gives it θ = 0 (one more
gather per such family), so impossible rows are still named. This is what makes scoring 1,000–10,000 attributes
cost about as much as a linear model's predict.
"""
from __future__ import annotations

import numpy as np

from bnstudio.core.network import Network
from bnstudio.inference.batching import fitting, spans
from bnstudio.learn.params.suffstats import Family, families, family_index, narrow_codes


class ClassTables:
    """The log tables of the families containing column t, stacked: ``logs`` (|T| × R) holds each family's
    log θ laid out (|T|, rest cells) side by side from ``offsets``; ``zeros``: per other family with a zero
    entry, the family and a flat mask of its zero cells."""

    def __init__(self, net: Network, t: int) -> None:
        self.rests: list[Family] = []
        blocks, self.zeros = [], []
        for fam in families(net):
            theta = np.asarray(net.cpt(fam.var), dtype=float)
            if t not in fam.columns:
                if not theta.all():
                    self.zeros.append((fam, theta.ravel() == 0))
                continue
            axis = fam.columns.index(t)
            blocks.append(np.moveaxis(theta, axis, 0).reshape(theta.shape[axis], -1))
            self.rests.append(fam.without(t))
        with np.errstate(divide="ignore"):
            self.logs = np.log(np.concatenate(blocks, axis=1))
        self.offsets = np.cumsum([0] + [b.shape[1] for b in blocks[:-1]])

    def scores(self, chunk: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """s (|T| × rows): per class, one gather of every family's cell and a sum over the families."""
        cells = np.empty((len(self.rests), len(chunk)), dtype=np.int64)
        for j, (rest, offset) in enumerate(zip(self.rests, self.offsets, strict=True)):
            cells[j] = offset + (family_index(chunk, rest, cols) if rest.columns else 0)
        return np.stack([row.take(cells).sum(axis=0) for row in self.logs])


def blanket_posteriors(net: Network, codes: np.ndarray, target: str, memory_budget: int
                       ) -> tuple[np.ndarray, np.ndarray]:
    """(done, post): ``done`` marks the rows scored here — every other cell observed and p(e) > 0 — and ``post``
    (N, |T|) holds p(T | e) on them (zeros elsewhere, left to the engine)."""
    t = net.variables.index(target)
    k = net.cardinality(target)
    post = np.zeros((len(codes), k))
    done = np.asarray((np.delete(codes, t, axis=1) >= 0).all(axis=1))
    rows = np.flatnonzero(done)
    if not rows.size:
        return done, post
    tables = ClassTables(net, t)
    per_row = 8 * (3 * k + 2) + codes.shape[1] + 16 * len(tables.rests)     # scores, codes, cells + one gather
    for part in spans(rows.size, fitting(per_row, memory_budget)):
        chunk = codes[rows[part]]
        cols = np.ascontiguousarray(narrow_codes(chunk).T)   # int8 columns: streaming index arithmetic
        scores = tables.scores(chunk, cols)
        top = scores.max(axis=0)
        ok = np.isfinite(top)
        for fam, zero in tables.zeros:
            ok &= ~zero[family_index(chunk, fam, cols)]
        with np.errstate(invalid="ignore"):
            p = np.exp(scores - top)
        p /= p.sum(axis=0)
        post[rows[part]] = np.where(ok, p, 0.0).T
        done[rows[part][~ok]] = False           # p(e) = 0: the engine names these rows
    return done, post
