"""Fayyad & Irani (1993) supervised discretisation: recursive entropy minimisation with an MDL stopping rule.

For a set S of N examples with k classes present, the best cut T (lowest class-entropy after the split into S1,
S2) is accepted iff

    Gain(T; S) > log2(N - 1) / N + Delta(T; S) / N,
    Delta(T; S) = log2(3^k - 2) - [k Ent(S) - k1 Ent(S1) - k2 Ent(S2)],

and S1, S2 are then split in the same way. Only *boundary points* are candidates: midpoints between adjacent
distinct values, except where every example at both values has the same class (Fayyad & Irani show the optimum
is always at a boundary point). Ties in entropy (within 1e-12) go to the lowest cut.

Everything runs on the sorted values with cumulative class counts, so evaluating all candidates of a segment is
a few array operations (no per-candidate Python loop).
"""
from __future__ import annotations

import math

import numpy as np

TIE = 1e-12


def entropy(counts: np.ndarray) -> np.ndarray:
    """Class entropy in bits of each row of class counts (last axis = classes); 0 for empty rows."""
    counts = np.asarray(counts, dtype=float)
    n = counts.sum(axis=-1, keepdims=True)
    p = np.divide(counts, n, out=np.zeros_like(counts), where=n > 0)
    logs = np.log2(p, out=np.zeros_like(p), where=p > 0)
    return -(p * logs).sum(axis=-1)


def boundary_positions(x: np.ndarray, cum: np.ndarray) -> np.ndarray:
    """Indices i (into sorted ``x``) where a cut between x[i-1] and x[i] is a boundary point."""
    starts = np.flatnonzero(x[1:] != x[:-1]) + 1  # first index of each distinct value but the first
    bounds = np.r_[0, starts, x.size]
    group = cum[bounds[1:]] - cum[bounds[:-1]]  # class counts per distinct value
    single = (group > 0).sum(axis=1) == 1
    pure = np.where(single, group.argmax(axis=1), -1)
    same = (pure[:-1] >= 0) & (pure[:-1] == pure[1:])
    return starts[~same]


def accept(total: np.ndarray, left: np.ndarray, right: np.ndarray, n: int, weighted: float) -> bool:
    """The MDL criterion for splitting a segment with class counts ``total`` into ``left`` and ``right``."""
    ent_s, ent_1, ent_2 = entropy(total), entropy(left), entropy(right)
    k, k1, k2 = (int((c > 0).sum()) for c in (total, left, right))
    gain = ent_s - weighted
    delta = math.log2(3 ** k - 2) - (k * ent_s - k1 * ent_1 - k2 * ent_2)
    return bool(gain > (math.log2(n - 1) + delta) / n)


def mdl_cuts(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Sorted cut points for values ``x`` (no NaN) and class codes ``y`` (0..K-1), same length."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=np.int64)
    if x.size < 2:
        return np.zeros(0)
    order = np.argsort(x, kind="stable")
    x, y = x[order], y[order]
    n_classes = int(y.max()) + 1
    cum = np.zeros((x.size + 1, n_classes), dtype=np.int64)
    for c in range(n_classes):  # a loop over classes, not rows
        np.cumsum(y == c, out=cum[1:, c])
    candidates = boundary_positions(x, cum)
    cuts: list[float] = []
    stack = [(0, x.size)]
    while stack:
        lo, hi = stack.pop()
        pos = candidates[np.searchsorted(candidates, lo, "right"):np.searchsorted(candidates, hi, "left")]
        if pos.size == 0:
            continue
        n = hi - lo
        total = cum[hi] - cum[lo]
        left = cum[pos] - cum[lo]
        right = total - left
        weighted = ((pos - lo) * entropy(left) + (hi - pos) * entropy(right)) / n
        best = int(np.flatnonzero(weighted <= weighted.min() + TIE)[0])
        i = int(pos[best])
        if accept(total, left[best], right[best], n, float(weighted[best])):
            mid = (x[i - 1] + x[i]) / 2
            cuts.append(float(mid if x[i - 1] <= mid < x[i] else x[i - 1]))  # guard against rounding up to x[i]
            stack += [(lo, i), (i, hi)]
    return np.sort(np.array(cuts, dtype=float))
