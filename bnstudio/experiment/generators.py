"""Kohavi & John's artificial concepts used by Zhou (Table 4-1, after Friedman et al. 1997) to test feature
selection: every attribute binary and uniform, the class a function of some of them.

* ``mofn-3-7-10``: ten bits A0..A9; the class is 1 when at least 3 of the 7 bits A2..A8 are 1; A0, A1 and A9
  are irrelevant. NB + CLGD classifies it perfectly (Zhou Table 4-2), NB + counting does not.
* ``corral``: the class is (A0 ∧ A1) ∨ (B0 ∧ B1); ``Irrelevant`` is noise and ``Correlated`` agrees with the
  class on 75 % of the rows, which lures greedy and naive learners (TAN + CLGD: 0 % error in Zhou Table 4-2).

>>> codes, names, states = corral(8, seed=0)
>>> names[-1], codes.shape, states[0]
('Class', (8, 7), ('0', '1'))
>>> codes, names, _ = mofn_3_7_10(5, seed=0)
>>> bool(((codes[:, 2:9].sum(axis=1) >= 3) == codes[:, -1]).all())
True
"""
from __future__ import annotations

from typing import Callable

import numpy as np

BINARY = ("0", "1")
Generated = tuple[np.ndarray, list[str], list[tuple[str, ...]]]


def mofn_3_7_10(rows: int, seed: int | None) -> Generated:
    """(codes, names, states) of ``rows`` seeded rows of mofn-3-7-10 (class column ``Class`` last)."""
    bits = np.random.default_rng(seed).integers(0, 2, (rows, 10))
    label = (bits[:, 2:9].sum(axis=1) >= 3).astype(np.int64)
    names = [f"A{k}" for k in range(10)] + ["Class"]
    return np.column_stack([bits, label]).astype(np.int64), names, [BINARY] * len(names)


def corral(rows: int, seed: int | None) -> Generated:
    """(codes, names, states) of ``rows`` seeded rows of corral (class column ``Class`` last)."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2, (rows, 5))
    label = ((bits[:, 0] & bits[:, 1]) | (bits[:, 2] & bits[:, 3])).astype(np.int64)
    correlated = np.where(rng.random(rows) < 0.75, label, 1 - label)
    names = ["A0", "A1", "B0", "B1", "Irrelevant", "Correlated", "Class"]
    return np.column_stack([bits, correlated, label]).astype(np.int64), names, [BINARY] * len(names)


#: generator name -> function(rows, seed); every generator's class column is ``Class``
GENERATORS: dict[str, Callable[[int, int | None], Generated]] = {"mofn-3-7-10": mofn_3_7_10, "corral": corral}
