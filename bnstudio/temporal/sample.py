"""Forward sampling of sequences from a 2TBN, vectorised over sequences: one numpy pass per variable and slice.

Slice 0 is ancestral sampling of B_0; slice t draws each variable, in a topological order of the slice, from the
row of its transition CPT that its parents' codes select (parents in slice t already drawn, parents in slice
t-1 from the previous slice), by inverting the row's cumulative distribution with one uniform (Murphy 2002,
§2.2: the unrolled joint's ancestral order).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.errors import ValidationError
from bnstudio.temporal.model import FIRST, TRANSITION, TwoSliceNetwork

if TYPE_CHECKING:
    import pandas as pd


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValidationError(f"the number of {name} must be an integer of at least 1, got {value!r}")
    return int(value)


def _draw(table: np.ndarray, rows: np.ndarray, u: np.ndarray) -> np.ndarray:
    cum = np.cumsum(normalise_rows(table).reshape(-1, table.shape[-1]), axis=1)
    cum[:, -1] = np.inf
    return (u[:, None] >= cum[rows]).sum(axis=1)


def sample_sequences(tbn: TwoSliceNetwork, sequences: int, length: int,
                     seed: int | np.random.Generator | None = None) -> np.ndarray:
    """An (sequences, length, n) int64 array of state codes, variables in ``tbn.radicals`` order."""
    sequences, length = _count("sequences", sequences), _count("slices", length)
    rng = np.random.default_rng(seed)
    pos = {r: k for k, r in enumerate(tbn.radicals)}
    order = tbn.network.topological_order()
    first = [n[:-1] for n in order if n.endswith(FIRST)]
    step = [n[:-1] for n in order if n.endswith(TRANSITION)]
    out = np.empty((sequences, length, len(pos)), dtype=np.int64)
    for t in range(length):
        now, before = out[:, t], out[:, t - 1] if t else None
        for r in first if t == 0 else step:
            rows = np.zeros(sequences, dtype=np.int64)
            parents = [(p, 0) for p in tbn.initial_parents(r)] if t == 0 else tbn.transition_parents(r)
            for p, lag in parents:
                source = before if lag else now
                rows = rows * tbn.cardinality(p) + source[:, pos[p]]  # type: ignore[index]
            table = tbn.initial_cpt(r) if t == 0 else tbn.transition_cpt(r)
            now[:, pos[r]] = _draw(table, rows, rng.random(sequences))
    return out


def sequences_frame(tbn: TwoSliceNetwork, codes: np.ndarray, sequence: str = "sequence",
                    time: str = "time") -> pd.DataFrame:
    """The (sequences, length, n) codes of :func:`sample_sequences` as a long table: a sequence-id column, a time
    column and one column of state names per variable (-1 as missing)."""
    import pandas as pd

    s, length, n = codes.shape
    flat = codes.reshape(s * length, n)
    columns: dict[str, object] = {sequence: np.repeat(np.arange(s), length), time: np.tile(np.arange(length), s)}
    for k, r in enumerate(tbn.radicals):
        names = np.array(list(tbn.states(r)) + [None], dtype=object)
        columns[r] = names[flat[:, k]]
    return pd.DataFrame(columns)
