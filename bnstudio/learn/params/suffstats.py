"""Sufficient statistics: family indices and counts from integer-coded data, with np.bincount, no row loops.

A family {X} ∪ Pa(X) is indexed in CPT layout (parents..., X) by the mixed-radix number
``idx = ((pa_1 · |Pa_2| + pa_2) ... ) · |X| + x``, so ``np.bincount(idx, weights, minlength=size)`` reshaped to
the family shape is the count table N(pa, x). A row contributes to a family only where the whole family is
observed (Zhou §4.2.3; with data missing completely at random this is still a consistent estimate).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import ValidationError


@dataclass(frozen=True)
class Family:
    """Column positions (parents..., X) of one family in the data and its shape."""

    var: str
    columns: tuple[int, ...]
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


def families(net: Network) -> list[Family]:
    """One :class:`Family` per variable, in ``net.variables`` order (data columns in the same order)."""
    col = {v: i for i, v in enumerate(net.variables)}
    return [Family(v, tuple(col[p] for p in net.parents(v)) + (col[v],), net.family_shape(v))
            for v in net.variables]


def check_codes(net: Network, codes: np.ndarray, weights: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """Validate an (N, |V|) code table (-1 = missing) and weights; return them as int64 / float arrays."""
    codes = np.asarray(getattr(codes, "codes", codes))
    if codes.ndim != 2 or codes.shape[1] != len(net):
        raise ValidationError(f"data must have one column per network variable ({len(net)}), got shape {codes.shape}")
    if codes.shape[0] == 0:
        raise ValidationError("the data set has no rows")
    if not np.issubdtype(codes.dtype, np.integer):
        raise ValidationError("data must be integer state codes (-1 = missing)")
    cards = np.array([net.cardinality(v) for v in net.variables])
    bad = (codes < -1) | (codes >= cards[None, :])
    if np.any(bad):
        row, col = np.argwhere(bad)[0]
        raise ValidationError(f"code {codes[row, col]} out of range for '{net.variables[col]}' in row {row}")
    if weights is None:
        weights = np.ones(codes.shape[0])
    weights = np.asarray(weights, dtype=float)
    if weights.shape != (codes.shape[0],) or np.any(weights < 0) or not np.all(np.isfinite(weights)):
        raise ValidationError("weights must be one finite non-negative number per row")
    return codes.astype(np.int64, copy=False), weights


def family_index(codes: np.ndarray, family: Family) -> np.ndarray:
    """Flat family index per row; -1 where any family member is missing."""
    idx = np.zeros(codes.shape[0], dtype=np.int64)
    missing = np.zeros(codes.shape[0], dtype=bool)
    for col, card in zip(family.columns, family.shape):
        column = codes[:, col]
        idx = idx * card + column
        missing |= column < 0
    idx[missing] = -1
    return idx


def counts_from_index(idx: np.ndarray, weights: np.ndarray, family: Family) -> np.ndarray:
    """Weighted counts of the observed family indices, in family shape."""
    seen = idx >= 0
    return np.bincount(idx[seen], weights=weights[seen], minlength=family.size).reshape(family.shape)


def family_counts(net: Network, codes: np.ndarray, weights: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """N(pa, x) for every family from the rows where the family is fully observed."""
    codes, weights = check_codes(net, codes, weights)
    return {f.var: counts_from_index(family_index(codes, f), weights, f) for f in families(net)}


def bootstrap_counts(idx: np.ndarray, bag_weights: np.ndarray, family: Family) -> np.ndarray:
    """Counts for T weightings of the rows at once: (T, *family shape), one bincount over T·size bins."""
    t = bag_weights.shape[0]
    seen = idx >= 0
    offsets = (np.arange(t)[:, None] * family.size + idx[None, seen]).ravel()
    flat = np.bincount(offsets, weights=bag_weights[:, seen].ravel(), minlength=t * family.size)
    return flat.reshape((t,) + family.shape)
