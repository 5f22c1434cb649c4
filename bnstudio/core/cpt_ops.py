"""Pure functions that reshape CPTs (and their Dirichlet counts) when the structure changes.

Layout (docs/architecture.md §2): a CPT of X with parents Pa_1..Pa_k is an array of shape
``(|Pa_1|, ..., |Pa_k|, |X|)``; every row (last axis) is a distribution over X and, for ``alpha``, a Dirichlet
parameter vector.

What the edits do (documented policy, also in ``docs/model.md``):

* parent added  -> the CPT is *copied* across the new parent's states (the child ignores the new parent until
  edited); alpha is *split* evenly across the new parent's states, so the total pseudo-count is preserved;
* parent removed -> CPT rows are *averaged* over the removed parent's states; alpha is *summed* (pooled counts);
* child state added -> a zero-probability column (alpha column 0); child state removed -> the column is dropped
  and each row renormalised (an all-zero row becomes uniform);
* parent state added -> the rows of the parent's last state are copied (CPT and alpha);
  parent state removed -> those rows are dropped;
* states reordered -> the axis is permuted.
"""
from __future__ import annotations

import numpy as np


def uniform_cpt(parent_cards: tuple[int, ...], card: int) -> np.ndarray:
    """A CPT whose every row is uniform."""
    return np.full(tuple(parent_cards) + (card,), 1.0 / card)


def normalise_rows(table: np.ndarray) -> np.ndarray:
    """Divide each row (last axis) by its sum; rows summing to 0 become uniform."""
    sums = table.sum(axis=-1, keepdims=True)
    out = np.divide(table, sums, out=np.zeros_like(table, dtype=float), where=sums > 0)
    zero = (sums <= 0)[..., 0]
    out[zero] = 1.0 / table.shape[-1]
    return out


def add_parent_axis(table: np.ndarray, card: int, *, split: bool) -> np.ndarray:
    """Insert a new parent axis (as last parent) of size ``card``; copy, or split evenly when ``split``."""
    out = np.repeat(np.expand_dims(table, axis=-2), card, axis=-2)
    return out / card if split else out


def remove_parent_axis(table: np.ndarray, axis: int, *, pool: bool) -> np.ndarray:
    """Remove parent axis ``axis``: average the rows (CPT) or sum them (``pool``, for alpha)."""
    return table.sum(axis=axis) if pool else table.mean(axis=axis)


def add_state(table: np.ndarray, axis: int, index: int, *, is_child: bool) -> np.ndarray:
    """Insert a state at ``index`` on ``axis``: a zero column for the child, a copy of the last slice for a parent."""
    if is_child:
        shape = list(table.shape)
        shape[axis] = 1
        new = np.zeros(shape)
    else:
        new = np.take(table, [table.shape[axis] - 1], axis=axis)
    return np.concatenate([np.take(table, range(index), axis=axis), new,
                           np.take(table, range(index, table.shape[axis]), axis=axis)], axis=axis)


def remove_state(table: np.ndarray, axis: int, index: int, *, is_child: bool, renormalise: bool) -> np.ndarray:
    """Drop state ``index`` on ``axis``; renormalise rows afterwards when it was the child's (CPT only)."""
    out = np.delete(table, index, axis=axis)
    return normalise_rows(out) if (is_child and renormalise) else out


def permute_states(table: np.ndarray, axis: int, order: list[int]) -> np.ndarray:
    """Reorder the states on ``axis``: new position i holds old state ``order[i]``."""
    return np.take(table, order, axis=axis)
