"""Every pair's conditional mutual information, block by block, from Gram matrices of one-hot data (wide data).

TAN, KDB and Chow-Liu need w(i, j) = N · I(X_i; X_j | C) for all attribute pairs (Friedman, Geiger &
Goldszmidt 1997 §4.1; Sahami 1996). On complete data the joint counts of every pair come from matrix products
per class state c: with O_c the rows of class c one-hot encoded (n_c × S, S = Σ_i (|X_i| − 1): state 0 is
left out, so for 0/1 data O_c is the data itself and the product is X_cᵀ X_c), G_c = O_cᵀ O_c holds
N(X_i = a, X_j = b, C = c) for a, b ≠ 0 in block (i, j), and the class-conditional margins m_c[a] come from
one pass; the cells with a state 0 follow from them (N(a, 0) = m_a − Σ_{b≠0} N(a, b), N(0, 0) = n_c −
Σ_{a≠0} m_a − Σ_{b≠0} m_b + Σ_{a,b≠0} N(a, b)). Then

    N · I(X_i; X_j | C) = Σ_c Σ_{a, b} N_c(a, b) · log(N_c(a, b) · n_c / (m_c[a] · m_c[b]))      (0 log 0 = 0)

summed over each pair's cells with ``np.add.reduceat``. The attributes are cut into blocks whose Gram matrix
and its temporaries fit the memory budget, and the rows into chunks: :meth:`PairwiseCMI.blocks` yields the
weights of one block of pairs at a time, so memory never holds the V × V matrix unless a caller asks for it
(:func:`ll_weight_matrix`). The products run in float32 on row chunks shorter than 2²⁴ (exact integer
counts) and are summed in float64.

Used when the data are complete; with missing cells (each pair then has its own rows) the pairwise loop of
:mod:`~bnstudio.learn.structure.trees` runs. One-state attributes have no column in O and weight 0.
"""
from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np

from bnstudio.inference.batching import WORKING_SET, spans
from bnstudio.learn.structure.scores import DataColumns

VECTORISE_FROM = 32          # fewer attributes: the pairwise loop is as fast
EXACT_FLOAT32 = 2 ** 24      # float32 sums of 0/1 products are exact below this many rows
GRAM_TEMPORARIES = 6         # float64 arrays of a block's size alive at once (Gram, logs, margins' products)


def _xlogx(count: np.ndarray) -> np.ndarray:
    """N · log N elementwise, 0 where N <= 0 (0 log 0 = 0; a count is never negative but for rounding)."""
    logs = np.log(count, out=np.zeros(np.shape(count)), where=count > 0)
    logs *= count
    return logs


def _plogp(count: np.ndarray, rows: float, left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """N · log(N · n / (m_a · m_b)) elementwise, 0 where N = 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = count * np.log(count * rows / (left * right))
    out[count <= 0] = 0.0
    return out


def _sum_cells(x: np.ndarray, starts: np.ndarray | None, axis: int) -> np.ndarray:
    """Sums over each attribute's one-hot columns along ``axis`` (None: one column per attribute)."""
    return x if starts is None else np.add.reduceat(x, starts, axis=axis)


class _Side:
    """One block of attributes: their data rows (int8 codes), one-hot column starts and margins."""

    def __init__(self, pos: np.ndarray, ids: np.ndarray, table: np.ndarray, cards: np.ndarray) -> None:
        self.pos, self.table = pos, table
        self.margins: list[np.ndarray] = []
        contiguous = len(ids) > 0 and bool((np.diff(ids) == 1).all())
        self.ids: slice | np.ndarray = slice(int(ids[0]), int(ids[-1]) + 1) if contiguous else ids
        widths = cards - 1
        self.width = int(widths.sum())
        self.first = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)
        self.binary = bool((cards == 2).all())
        self.starts = None if self.binary else self.first[widths > 0]
        self.owner = np.flatnonzero(widths > 0)          # attribute of each reduceat group
        self.count = len(cards)

    def one_hot(self, rows: np.ndarray) -> np.ndarray:
        """Oᵀ for these rows: (width × rows) float32 indicators of the states 1..|X| − 1."""
        block = self.table[self.ids, rows] if isinstance(self.ids, slice) else self.table[np.ix_(self.ids, rows)]
        if self.binary:
            return block.astype(np.float32)
        out = np.zeros((self.width, len(rows)), dtype=np.float32)
        value = block.astype(np.int64)
        hot = value > 0
        cell = (self.first[:, None] + value - 1) * len(rows) + np.arange(len(rows))[None, :]
        out.reshape(-1)[cell[hot]] = 1.0
        return out

    def spread(self, grouped: np.ndarray, axis: int) -> np.ndarray:
        """Per-group sums placed on this side's attributes (one-state attributes: 0)."""
        if self.binary:
            return grouped
        shape = list(grouped.shape)
        shape[axis] = self.count
        out = np.zeros(shape)
        index: list[slice | np.ndarray] = [slice(None)] * grouped.ndim
        index[axis] = self.owner
        out[tuple(index)] = grouped
        return out


class PairwiseCMI:
    """N · I(X_i; X_j | cond) over the pairs of ``nodes``, computed one block of pairs at a time.

    Positions (0..len(nodes) − 1) index ``nodes``. Each side (a group of attributes) gets its class-conditional
    margins in one pass over its columns; each block then costs one float32 product per class and row chunk.
    """

    def __init__(self, data: DataColumns, nodes: Sequence[int], cond: tuple[int, ...] = (),
                 memory_budget: int = WORKING_SET) -> None:
        self.nodes = np.asarray(list(nodes), dtype=np.int64)
        self.cards = data.cards[self.nodes]
        self.budget = max(1, min(int(memory_budget), WORKING_SET))
        self.table = data.table                                  # (variables × N) narrow codes
        label = data.columns[cond[0]] if cond else np.zeros(data.n_rows, dtype=np.int8)
        classes = int(data.cards[cond[0]]) if cond else 1
        self.class_rows = [r for r in (np.flatnonzero(label == c) for c in range(classes)) if r.size]
        self.block_width = max(1, int(np.sqrt(self.budget / (2 * 8 * GRAM_TEMPORARIES))))
        self.sides = [self._side(part) for part in self._cut(np.arange(len(self.nodes)))]

    @staticmethod
    def applies(data: DataColumns, nodes: Sequence[int], cond: tuple[int, ...] = (),
                memory_budget: int = WORKING_SET) -> bool:
        """True when this path computes the weights: complete data, at most one conditioning variable, enough
        nodes, and every attribute's one-hot columns fit a block of the budget."""
        nodes = list(nodes)
        if len(nodes) < VECTORISE_FROM or len(cond) > 1:
            return False
        if any(data.missing[v] is not None for v in [*nodes, *cond]):
            return False
        widest = int(max(int(data.cards[v]) for v in nodes)) - 1
        return GRAM_TEMPORARIES * 8 * widest * widest * 2 <= min(int(memory_budget), WORKING_SET)

    # ------------------------------------------------------------------ layout
    def _cut(self, positions: np.ndarray) -> list[np.ndarray]:
        """``positions`` in consecutive groups whose one-hot width is at most the block width (1/2 the budget
        for a block's Gram temporaries, 8 bytes each, on both sides)."""
        ends = np.cumsum(self.cards[positions] - 1)
        groups, start = [], 0
        while start < len(positions):
            base = ends[start - 1] if start else 0
            stop = max(start + 1, int(np.searchsorted(ends, base + self.block_width, side="right")))
            groups.append(positions[start:stop])
            start = stop
        return groups

    def _side(self, positions: np.ndarray) -> _Side:
        side = _Side(positions, self.nodes[positions], self.table, self.cards[positions])
        side.margins = []                                     # per class: m_c over the side's one-hot columns
        for rows in self.class_rows:
            total = np.zeros(side.width)
            for chunk in self._row_chunks(rows, side.width):
                total += side.one_hot(chunk).sum(axis=1, dtype=np.float64)
            side.margins.append(total)
        return side

    def _row_chunks(self, rows: np.ndarray, width: int) -> Iterator[np.ndarray]:
        """Row chunks whose one-hot blocks and their temporaries fit half the budget."""
        per_row = 24 * width            # int8 codes, int64 cells and float32 indicators per one-hot column
        size = min(EXACT_FLOAT32 - 1, max(1, self.budget // 2 // max(1, per_row)))
        for part in spans(rows.size, size):
            yield rows[part]

    # ------------------------------------------------------------------ weights
    def block(self, left: _Side, right: _Side) -> np.ndarray:
        """(|A| × |B|) N · I(X_i; X_j | cond) for side A's attributes against side B's (the same side: the
        diagonal holds nonsense and is set to 0)."""
        out = np.zeros((left.count, right.count))
        if not left.width or not right.width:          # one-state attributes only
            return out
        same = left is right
        for c, rows in enumerate(self.class_rows):
            gram = np.zeros((left.width, right.width))
            for chunk in self._row_chunks(rows, left.width + right.width):
                lo = left.one_hot(chunk)
                gram += lo @ (lo if same else right.one_hot(chunk)).T
            out += self._class_weights(gram, float(rows.size), left, right, left.margins[c], right.margins[c])
        if same:
            np.fill_diagonal(out, 0.0)
        return out

    @staticmethod
    def _class_weights(gram: np.ndarray, rows: float, left: _Side, right: _Side, m_left: np.ndarray,
                       m_right: np.ndarray) -> np.ndarray:
        """N_c · I(X_i; X_j | C = c) for one class from G (the a ≠ 0, b ≠ 0 counts) and the margins, in the
        entropy form Σ_ab N_ab log N_ab − Σ_a N_a log N_a − Σ_b N_b log N_b + n_c log n_c (the same sum as
        the module docstring's, regrouped); the cells with a state 0 follow from G and the margins."""
        s_left = _sum_cells(m_left, left.starts, 0)                         # Σ_{a≠0} m_i[a] per attribute
        s_right = _sum_cells(m_right, right.starts, 0)
        h_left = _sum_cells(_xlogx(m_left), left.starts, 0) + _xlogx(rows - s_left)       # Σ_a N_a log N_a
        h_right = _sum_cells(_xlogx(m_right), right.starts, 0) + _xlogx(rows - s_right)
        by_col = _sum_cells(gram, right.starts, 1)                          # Σ_{b≠0 ∈ j} N(a, b)
        by_row = _sum_cells(gram, left.starts, 0)                           # Σ_{a≠0 ∈ i} N(a, b)
        both = _sum_cells(by_col, left.starts, 0)                           # Σ_{a≠0, b≠0} N(a, b)
        total = _sum_cells(_sum_cells(_xlogx(gram), left.starts, 0), right.starts, 1)     # a ≠ 0, b ≠ 0
        del gram
        total += _sum_cells(_xlogx(m_left[:, None] - by_col), left.starts, 0)            # a ≠ 0, b = 0
        total += _sum_cells(_xlogx(m_right[None, :] - by_row), right.starts, 1)          # a = 0, b ≠ 0
        total += _xlogx(rows - s_left[:, None] - s_right[None, :] + both)                 # a = 0, b = 0
        total -= h_left[:, None]
        total -= h_right[None, :]
        total += float(_xlogx(np.array(rows)))
        return right.spread(left.spread(total, 0), 1)

    def blocks(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, bool]]:
        """(positions of A, positions of B, weights, A is B) for every pair of sides A ≤ B: each pair of
        attributes once (within a side, its upper triangle)."""
        for a, left in enumerate(self.sides):
            for right in self.sides[a:]:
                yield left.pos, right.pos, self.block(left, right), left is right

    def against(self, position: int, others: np.ndarray) -> np.ndarray:
        """N · I(X_p; X_q | cond) of the attribute at ``position`` with those at positions ``others``."""
        one = self._side(np.array([position]))
        parts = [self.block(one, self._side(group))[0] for group in self._cut(np.asarray(others, dtype=np.int64))]
        return np.concatenate(parts) if parts else np.zeros(0)

    def relevance(self) -> np.ndarray:
        """N · I(X_i; cond) per attribute, from the class-conditional margins."""
        total_rows = float(sum(r.size for r in self.class_rows))
        rows = np.array([float(r.size) for r in self.class_rows])[:, None]
        out = np.zeros(len(self.nodes))
        for side in self.sides:
            if not side.width:
                continue
            cells = np.stack(side.margins)                                      # N(a, c), a ≠ 0: (C, width)
            score = _sum_cells(_plogp(cells, total_rows, cells.sum(axis=0)[None, :], rows), side.starts, 1)
            ref = rows - _sum_cells(cells, side.starts, 1)                      # N(0, c)
            score += _plogp(ref, total_rows, ref.sum(axis=0)[None, :], rows)
            out[side.pos] = side.spread(score.sum(axis=0), 0)
        return out


def ll_weight_matrix(data: DataColumns, nodes: Sequence[int], cond: tuple[int, ...] = (),
                     memory_budget: int = WORKING_SET) -> np.ndarray | None:
    """V × V matrix of N · I(X_i; X_j | cond) over the pairs of ``nodes`` (0 elsewhere and on the diagonal), or
    None when this path does not apply (:meth:`PairwiseCMI.applies`). The matrix itself is V² floats: wide
    callers use :meth:`PairwiseCMI.blocks` instead."""
    if not PairwiseCMI.applies(data, nodes, cond, memory_budget):
        return None
    pairs = PairwiseCMI(data, nodes, cond, memory_budget)
    ids = pairs.nodes
    out = np.zeros((data.n_vars, data.n_vars))
    for a, b, weights, _ in pairs.blocks():
        out[np.ix_(ids[a], ids[b])] = weights
        out[np.ix_(ids[b], ids[a])] = weights.T
    return out
