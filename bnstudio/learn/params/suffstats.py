"""Sufficient statistics: family indices and counts from integer-coded data, with np.bincount, no row loops.

A family {X} ∪ Pa(X) is indexed in CPT layout (parents..., X) by the mixed-radix number
``idx = ((pa_1 · |Pa_2| + pa_2) ... ) · |X| + x``, so ``np.bincount(idx, weights, minlength=size)`` reshaped to
the family shape is the count table N(pa, x). A row contributes to a family only where the whole family is
observed (Zhou §4.2.3; with data missing completely at random this is still a consistent estimate).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np
from scipy import sparse

from bnstudio import hooks
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

    def without(self, column: int) -> "Family":
        """The family minus one member (its "rest" cells, e.g. every member but a class variable)."""
        axis = self.columns.index(column)
        return Family(self.var, self.columns[:axis] + self.columns[axis + 1:], self.shape[:axis] + self.shape[axis + 1:])


def families(net: Network) -> list[Family]:
    """One :class:`Family` per variable, in ``net.variables`` order (data columns in the same order)."""
    col = {v: i for i, v in enumerate(net.variables)}
    return [Family(v, tuple(col[p] for p in net.parents(v)) + (col[v],), net.family_shape(v))
            for v in net.variables]


def check_codes(net: Network, codes: np.ndarray, weights: np.ndarray | None = None, learnable: bool = True
                ) -> tuple[np.ndarray, np.ndarray]:
    """Validate an (N, |V|) code table (-1 = missing) and weights; return them as int64 / float arrays.

    Refused with a one-line :class:`ValidationError`: a wrong shape, no rows, non-integer or out-of-range codes,
    weights that are not one finite non-negative number per row; with ``learnable`` (data a learner or a score
    is given) also every cell missing and a total weight of 0 or inf.

    ``codes`` may also be a table (pandas DataFrame, Dataset, file path) or an AlignedData: it is coded and
    aligned to ``net`` first (:func:`bnstudio.data.tables.as_codes`, through :data:`bnstudio.hooks.table_codes`).
    """
    if not isinstance(codes, np.ndarray):
        codes, weights = hooks.table_codes(net, codes, weights)
    codes = np.asarray(getattr(codes, "codes", codes))
    if codes.ndim != 2 or codes.shape[1] != len(net):
        raise ValidationError(f"data must have one column per network variable ({len(net)}), got shape {codes.shape}")
    if codes.shape[0] == 0:
        raise ValidationError("the data set has no rows")
    if not np.issubdtype(codes.dtype, np.integer):
        raise ValidationError("data must be integer state codes (-1 = missing)")
    cards = np.array([net.cardinality(v) for v in net.variables])
    if np.any(codes.min(axis=0) < -1) or np.any(codes.max(axis=0) >= cards):   # cheap check first
        row, col = np.argwhere((codes < -1) | (codes >= cards[None, :]))[0]
        raise ValidationError(f"code {codes[row, col]} out of range for '{net.variables[col]}' in row {row}")
    if learnable and codes.size and codes.max() < 0:
        raise ValidationError(f"every cell of the data is missing ({codes.shape[0]} rows): nothing to learn from")
    if weights is None:
        weights = np.ones(codes.shape[0])
    weights = np.asarray(weights, dtype=float)
    if weights.shape != (codes.shape[0],) or np.any(weights < 0) or not np.all(np.isfinite(weights)):
        raise ValidationError("weights must be one finite non-negative number per row")
    total = weights.sum()
    if learnable and not 0 < total < np.inf:
        raise ValidationError(f"the rows' total weight is {total:g}: it must be positive and finite")
    return codes.astype(np.int64, copy=False), weights


def check_target(net: Network, codes: np.ndarray, weights: np.ndarray, target: str, method: str) -> int:
    """The column of ``target``; an error if it is unknown or if no row of positive weight observes it."""
    if target not in net.variables:
        raise ValidationError(f"unknown target variable '{target}'")
    column = net.variables.index(target)
    if not weights[codes[:, column] >= 0].sum() > 0:
        raise ValidationError(f"{method} needs rows with the target '{target}' observed; it is missing in every "
                              f"row (or those rows have weight 0)")
    return column


def family_index(codes: np.ndarray, family: Family, columns: np.ndarray | None = None) -> np.ndarray:
    """Flat family index per row; -1 where any family member is missing.

    ``columns`` = ``np.ascontiguousarray(codes.T)`` may be passed when many families are indexed: contiguous
    columns make each step a streaming operation instead of a strided one.
    """
    cols = codes.T if columns is None else columns
    first = cols[family.columns[0]]
    idx = first.astype(np.int64, copy=True)
    missing = first < 0
    for col, card in zip(family.columns[1:], family.shape[1:], strict=True):
        column = cols[col]
        idx *= card
        idx += column
        missing |= column < 0
    if missing.any():
        idx[missing] = -1
    return idx


def counts_from_index(idx: np.ndarray, weights: np.ndarray | None, family: Family,
                      may_miss: bool = True) -> np.ndarray:
    """Weighted counts of the observed family indices, in family shape (``weights=None``: unit weights)."""
    if may_miss and idx.size and idx.min() < 0:
        seen = idx >= 0
        idx, weights = idx[seen], (None if weights is None else weights[seen])
    counts = np.bincount(idx, weights=weights, minlength=family.size).reshape(family.shape)
    return counts if weights is not None else counts.astype(float)


def family_counts(net: Network, codes: np.ndarray, weights: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """N(pa, x) for every family from the rows where the family is fully observed."""
    codes, weights = check_codes(net, codes, weights, learnable=False)
    columns = np.ascontiguousarray(narrow_codes(codes).T)    # int8 for < 127 states: an eighth of the copy
    may_miss = bool(codes.size) and int(codes.min()) < 0
    unit = None if (weights.min() == 1.0 and weights.max() == 1.0) else weights   # integer counting when unit
    return {f.var: counts_from_index(family_index(codes, f, columns), unit, f, may_miss) for f in families(net)}


def narrow_codes(codes: np.ndarray) -> np.ndarray:
    """The code table in the narrowest signed integer type that holds its values (int8 for fewer than 127
    states): a copy an eighth the size of int64 codes, for tables kept or sorted beside the data."""
    top = int(codes.max()) if codes.size else 0
    dtype = np.int8 if top < 127 else np.int16 if top < 32767 else np.int64
    return codes if codes.dtype == dtype else codes.astype(dtype)


def unique_rows(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of an integer code table and, per row, the index of its distinct row.

    Rows are compared as raw bytes of the narrowest integer type that holds the codes (one 1-D ``np.unique``
    over fixed-size byte strings), about 15x faster than ``np.unique(axis=0)``. The distinct rows come in that
    narrow type (any integer type is valid evidence for the engine); their order is unspecified.
    """
    if codes.shape[0] == 0:
        return codes.copy(), np.zeros(0, dtype=np.int64)
    narrow = np.ascontiguousarray(narrow_codes(codes))
    keys = narrow.view(np.dtype((np.void, narrow.itemsize * narrow.shape[1]))).ravel()
    distinct, inverse = np.unique(keys, return_inverse=True)
    unique = distinct.view(narrow.dtype).reshape(-1, codes.shape[1])
    return unique, inverse.reshape(-1)


def bootstrap_counts(idx: np.ndarray, bag_weights: np.ndarray, family: Family) -> np.ndarray:
    """Counts for T weightings of the rows at once: (T, *family shape), one bincount over T·size bins."""
    t = bag_weights.shape[0]
    seen = idx >= 0
    offsets = (np.arange(t)[:, None] * family.size + idx[None, seen]).ravel()
    flat = np.bincount(offsets, weights=bag_weights[:, seen].ravel(), minlength=t * family.size)
    return flat.reshape((t,) + family.shape)


def one_hot_rows(index: list[np.ndarray | int], n: int, width: int, ones: np.ndarray | None = None
                 ) -> sparse.csr_matrix:
    """X (n × width) with a 1 in column index[j][i] of row i for every j, built straight from CSR arrays
    (the one-hot layout of the closed-form conditional likelihoods: one cell per family and row). ``ones``:
    an array of at least n · len(index) ones whose first part becomes X's data (shared, not copied)."""
    per_row = len(index)
    index_type = np.int32 if max(n * per_row, width) < 2 ** 31 - 1 else np.int64
    columns = np.empty((per_row, n), index_type)            # filled by contiguous rows, then one transpose
    for j, cells in enumerate(index):
        columns[j] = cells
    data = np.ones(columns.size) if ones is None else ones[:columns.size]
    return sparse.csr_matrix((data, columns.T.ravel(), np.arange(0, n * per_row + 1, per_row, dtype=index_type)),
                             shape=(n, width), copy=False)


def one_hot_blocks(cells: Callable[[slice], list[np.ndarray | int]], n: int, per_row: int, width: int,
                   size: int) -> Iterator[tuple[slice, sparse.csr_matrix]]:
    """X (n × width, ``per_row`` ones a row) as CSR blocks of at most ``size`` rows, made one at a time: block
    ``part`` from ``cells(part)`` (:func:`one_hot_rows`' index for those rows), so no index array spans every
    row. The blocks share one array of ones as their data: kept together (``list(...)``), X costs its int32
    column indices, 4 bytes per cell."""
    size = max(1, min(int(size), n))
    ones = np.ones(size * per_row)
    for start in range(0, n, size):
        part = slice(start, min(start + size, n))
        yield part, one_hot_rows(cells(part), part.stop - part.start, width, ones)
