"""Decomposable structure scores and their cache of sufficient statistics.

Every score here is a sum of family terms, Score(G : D) = Σ_i Score(X_i | Pa_i : N(X_i, Pa_i)) (Friedman &
Goldszmidt tutorial, "Scores -- Summary", MP1-119), each computed from the family's count table
N(pa, x) in CPT layout ``(|Pa_1|, ..., |Pa_k|, |X|)`` (q parent configurations, r states, N_j = Σ_k N_jk):

* ``ll``   log-likelihood under ML parameters, Σ_jk N_jk log(N_jk / N_j) ("Likelihood Score for Structures",
  MP1-97/98). Adding arcs never lowers it, so search uses it only with a parent limit.
* ``bic``  = MDL: ll − (log N / 2) · q (r − 1) ("Minimum Description Length", MP1-102/103).
* ``bdeu`` log marginal likelihood with Dirichlet α_jk = ess / (q r) ("Marginal Likelihood: Bayesian
  Networks" and "Priors and BDe score", MP1-115/116):
  Σ_j [lnΓ(α_j) − lnΓ(α_j + N_j)] + Σ_jk [lnΓ(α_jk + N_jk) − lnΓ(α_jk)], α_j = ess / q. Score-equivalent.
* ``k2``   the same with every α_jk = 1 (Cooper & Herskovits); not score-equivalent.

Natural logarithms throughout. **Missing cells**: a family's counts come from the N_f rows where every member
of the family is observed. Scores computed on fewer rows are larger (fewer terms), which would reward parent
sets that are rarely observed, so :class:`ScoreCache` rescales every family term to the full data size N:
ll and bic use the node-average log-likelihood (N / N_f) · ll_f with the BIC penalty in log N (Balov 2013,
"Consistent model selection of discrete Bayesian networks from incomplete data": consistent under MCAR);
bdeu and k2 are rescaled the same way, (N / N_f) · score_f (a heuristic). On complete data N_f = N and every
score is the textbook one.

>>> import numpy as np
>>> counts = np.array([[3.0, 1.0], [0.0, 4.0]])          # N(pa, x): parent has 2 states, child 2
>>> round(family_score(counts, "ll"), 4)
-2.2493
>>> round(family_score(counts, "bic") - family_score(counts, "ll"), 4)   # (log 8 / 2) * q (r - 1), q = 2
-2.0794
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Iterable

import numpy as np
from scipy.special import gammaln

from bnstudio.errors import ValidationError
from bnstudio.learn.names import DECOMPOSABLE  # the names live in a light module
from bnstudio.learn.params.checks import check_ess


def _rows(counts: np.ndarray) -> np.ndarray:
    counts = np.asarray(counts, dtype=float)
    return counts.reshape(-1, counts.shape[-1]) if counts.ndim else counts.reshape(1, 1)


def log_likelihood(counts: np.ndarray) -> float:
    """Σ_jk N_jk log(N_jk / N_j) of a count table in CPT layout (0 log 0 = 0)."""
    rows = _rows(counts)
    totals = rows.sum(axis=1, keepdims=True)
    seen = rows > 0
    ratio = np.divide(rows, totals, out=np.ones_like(rows), where=seen)
    return float((rows[seen] * np.log(ratio[seen])).sum())


def bic(counts: np.ndarray, q: int | None = None) -> float:
    """MDL/BIC family score: ll − (log N / 2) · q (r − 1); ``q`` defaults to the number of table rows."""
    rows = _rows(counts)
    q = rows.shape[0] if q is None else q
    n = rows.sum()
    penalty = 0.5 * np.log(n) * q * (rows.shape[1] - 1) if n > 0 else 0.0
    return log_likelihood(rows) - float(penalty)


def bdeu(counts: np.ndarray, ess: float = 1.0, q: int | None = None) -> float:
    """BDeu family score (log marginal likelihood, α_jk = ess / (q r)); rows with N_j = 0 add 0."""
    rows = _rows(counts)
    q = rows.shape[0] if q is None else q
    a_jk = ess / (q * rows.shape[1])
    a_j = ess / q
    return float((gammaln(a_j) - gammaln(a_j + rows.sum(axis=1))).sum()
                 + (gammaln(a_jk + rows) - gammaln(a_jk)).sum())


def k2(counts: np.ndarray) -> float:
    """K2 family score: Σ_j [lnΓ(r) − lnΓ(r + N_j)] + Σ_jk lnΓ(1 + N_jk)."""
    rows = _rows(counts)
    r = rows.shape[1]
    return float((gammaln(r) - gammaln(r + rows.sum(axis=1))).sum() + gammaln(1.0 + rows).sum())


def family_score(counts: np.ndarray, score: str = "bic", ess: float = 1.0, q: int | None = None) -> float:
    """The family term of ``score`` (one of :data:`DECOMPOSABLE`) for a count table in CPT layout.

    ``q`` is the number of parent configurations when ``counts`` holds only the observed ones (rows with
    N_j = 0 contribute nothing to ll, bdeu or k2, but they count in the BIC penalty and in α_jk).
    """
    if score == "ll":
        return log_likelihood(counts)
    if score == "bic":
        return bic(counts, q)
    if score == "bdeu":
        return bdeu(counts, ess, q)
    if score == "k2":
        return k2(counts)
    raise ValidationError(f"unknown score {score!r}; use one of {', '.join(DECOMPOSABLE)}")


def check_score(score: str, ess: float = 1.0) -> None:
    """Raise a :class:`ValidationError` for an unknown score or a non-positive equivalent sample size."""
    if score not in DECOMPOSABLE:
        raise ValidationError(f"unknown score {score!r}; use one of {', '.join(DECOMPOSABLE)}")
    if score == "bdeu":
        check_ess(ess)


def rescaled_family_score(rows: np.ndarray, q: int, n: float, score: str, ess: float = 1.0) -> float:
    """The family term of ``score`` from counts over the N_f rows observing the family, rescaled to all ``n``
    rows when N_f < n: (n / N_f) · ll_f with BIC's penalty in log n, (n / N_f) · score_f otherwise (module
    docstring)."""
    n_f = float(rows.sum())
    if n_f == n:
        return family_score(rows, score, ess, q)
    scale = n / n_f if n_f > 0 else 0.0
    if score == "bic":
        return scale * log_likelihood(rows) - 0.5 * float(np.log(n)) * q * (rows.shape[1] - 1)
    return scale * family_score(rows, score, ess, q)


class DataColumns:
    """Integer-coded data prepared for fast counting: column arrays, cardinalities and missing masks.

    ``table`` is the code table transposed (variables × rows) in the narrowest integer type that holds it —
    int8 below 127 states, an eighth of int64 codes — made in one allocation; ``columns`` are its rows (views).
    """

    def __init__(self, codes: np.ndarray, cards: Iterable[int]) -> None:
        codes = np.asarray(codes)
        self.cards = np.asarray(list(cards), dtype=np.int64)
        self.n_rows, self.n_vars = codes.shape
        top = int(self.cards.max()) if self.cards.size else 0
        dtype = np.int8 if top < 127 else np.int16 if top < 32767 else np.int64
        self.table = np.empty((self.n_vars, self.n_rows), dtype=dtype)
        for part in range(0, self.n_rows, 4096):           # by row blocks: no int64 transposed temporary
            self.table[:, part:part + 4096] = codes[part:part + 4096].T
        self.columns = list(self.table)
        self.missing = [c < 0 if c.size and c.min() < 0 else None for c in self.columns]
        self.complete = not any(m is not None for m in self.missing)

    def index(self, variables: Iterable[int]) -> tuple[np.ndarray, np.ndarray | None, int]:
        """Mixed-radix index of ``variables`` (first = most significant), the observed-row mask, the size."""
        idx = np.zeros(self.n_rows, dtype=np.int64)
        seen: np.ndarray | None = None
        size = 1
        for v in variables:
            card = int(self.cards[v])
            idx *= card
            idx += self.columns[v]
            size *= card
            missing = self.missing[v]
            if missing is not None:
                seen = ~missing if seen is None else seen & ~missing
        return idx, seen, size

    def observed(self, variables: Iterable[int]) -> np.ndarray | None:
        """Mask of the rows where all ``variables`` are observed (None: every row)."""
        masks = [m for v in variables if (m := self.missing[v]) is not None]
        return None if not masks else ~np.logical_or.reduce(masks)

    def family_rows(self, child: int, parents: tuple[int, ...], rows: np.ndarray | None = None
                    ) -> tuple[np.ndarray, int]:
        """The observed count rows N(pa, ·) of a family, shape (m, r) with m <= q, and q itself.

        Counted over the rows where the family is observed, or over the rows of the mask ``rows`` (which must
        observe the family). Dense (m = q, CPT row order) when the table is small; otherwise only the parent
        configurations that occur (so a family with huge q costs O(N), not O(q))."""
        r = int(self.cards[child])
        idx, seen, size = self.index(parents + (child,))
        q = size // r
        seen = seen if rows is None else rows
        if seen is not None:
            idx = idx[seen]
        if size <= 4 * self.n_rows + 65536:
            return np.bincount(idx, minlength=size).reshape(q, r).astype(float), q
        configs, inverse = np.unique(idx // r, return_inverse=True)
        flat = inverse.reshape(-1) * r + idx % r
        return np.bincount(flat, minlength=configs.size * r).reshape(configs.size, r).astype(float), q


class ScoreCache:
    """Family scores keyed by (child, parent set), computed once from bincount sufficient statistics.

    The tutorial's caching advice ("Exploiting Decomposability in Local Search", MP1-129, and "Search and
    Statistics", MP1-137): a local move re-scores only the families it changes, and a family seen before is
    never counted again. Count tables are kept too (least recently used first out, up to ``max_cells``
    cells) so the final network's parameters reuse them.
    """

    def __init__(self, codes: "np.ndarray | DataColumns", cards: Iterable[int], score: str = "bic",
                 ess: float = 1.0, max_cells: int = 20_000_000) -> None:
        check_score(score, ess)
        self.data = codes if isinstance(codes, DataColumns) else DataColumns(codes, cards)
        self.score, self.ess, self.max_cells = score, float(ess), max_cells
        self._scores: dict[tuple[int, frozenset[int]], float] = {}
        self._moves: dict[tuple[int, frozenset[int], frozenset[int]], float] = {}
        self._counts: OrderedDict[tuple[int, frozenset[int]], tuple[np.ndarray, int]] = OrderedDict()
        self._cells = 0
        self.evaluations = 0

    def family_rows(self, child: int, parents: Iterable[int]) -> tuple[np.ndarray, int]:
        """Observed count rows (m, r) and q for a family, parents in increasing column order (cached)."""
        ps = tuple(sorted(parents))
        key = (child, frozenset(ps))
        hit = self._counts.get(key)
        if hit is not None:
            self._counts.move_to_end(key)
            return hit
        rows, q = self.data.family_rows(child, ps)
        self._counts[key] = (rows, q)
        self._cells += rows.size
        while self._cells > self.max_cells and len(self._counts) > 1:
            old, _ = self._counts.popitem(last=False)[1]
            self._cells -= old.size
        return rows, q

    def family(self, child: int, parents: Iterable[int]) -> float:
        """Score(X_child | parents) (cached)."""
        key = (child, frozenset(parents))
        value = self._scores.get(key)
        if value is None:
            rows, q = self.family_rows(child, key[1])
            value = self._value(rows, q)
            self._scores[key] = value
            self.evaluations += 1
        return value

    def move_delta(self, child: int, old: Iterable[int], new: Iterable[int]) -> float:
        """Score(X | new) − Score(X | old), both counted on the rows where X, old and new are all observed.

        On complete data this is ``family(child, new) − family(child, old)``. With missing cells, rescaled
        family terms from different row sets differ by sampling noise far larger than the penalties (tens of
        nats on 10,000 rows), which a greedy search would exploit; judging each move on common rows does not.
        """
        old, new = frozenset(old), frozenset(new)
        if self.data.complete:
            return self.family(child, new) - self.family(child, old)
        key = (child, old, new)
        value = self._moves.get(key)
        if value is None:
            rows = self.data.observed((child, *old, *new))
            before = self.data.family_rows(child, tuple(sorted(old)), rows)
            after = self.data.family_rows(child, tuple(sorted(new)), rows)
            value = self._value(*after) - self._value(*before)
            self._moves[key] = value
        return value

    def _value(self, rows: np.ndarray, q: int) -> float:
        """The family term, rescaled to the full data size when missing cells removed rows (module docstring)."""
        return rescaled_family_score(rows, q, self.data.n_rows, self.score, self.ess)

    def total(self, parents: Iterable[Iterable[int]]) -> float:
        """Score of a whole structure given as one parent set per variable."""
        return float(sum(self.family(j, ps) for j, ps in enumerate(parents)))

    def counts(self, child: int, parents: tuple[int, ...]) -> np.ndarray:
        """Dense counts N(pa, x) in CPT layout with the parents in the given order."""
        idx, seen, size = self.data.index(tuple(parents) + (child,))
        if seen is not None:
            idx = idx[seen]
        shape = tuple(int(self.data.cards[p]) for p in parents) + (int(self.data.cards[child]),)
        return np.bincount(idx, minlength=size).reshape(shape).astype(float)
