"""The probability floor every learner's CPTs respect: no entry below ε = :data:`MIN_PROBABILITY` (1e-9).

Why: a zero (or a denormal like 5e-320) in a learned CPT makes any row that uses it impossible, p(e) = 0, so
``evaluate`` fails on it and a product of a few such entries underflows even where the exact value is positive.
With every entry ≥ ε, p(e) ≥ ε^|V| > 0 for every row, training or held-out, by construction.

How, per learner (docs/learning.md, "Zeros and the floor"):

* closed forms (``ml``, ``mp``, ``bagged-mp``, ``em``'s result, the structure learners' fits): a row with an
  entry below ε is mixed with the uniform row, θ' = (1 − Kε) θ + ε (K states), so θ' ≥ ε, the row still sums
  to 1 and the order of its entries is kept; rows with every entry ≥ ε are returned unchanged (bit for bit).
  For ``ml`` this touches only cells never seen in training (or below 1e-9 of their parent's count), so ``ml``
  is exact relative frequencies everywhere else; for ``mp`` the prior already keeps θ ≥ α/(α_π + N_π).
* gradient training (``lgd``, ``clgd``): the floor is part of the parameterisation, θ = ε + (1 − Kε)·softmax(β)
  (:func:`floored_softmax`), so the optimiser sees the same θ that is returned.
* ``wanbia``: its equivalent network is computed in log space and then floored like the closed forms.

>>> import numpy as np
>>> floored = floor_rows(np.array([[0.5, 0.5], [1.0, 0.0]]))
>>> floored[0].tolist(), float(floored[1].min()), bool(np.allclose(floored.sum(axis=1), 1.0))
([0.5, 0.5], 1e-09, True)
"""
from __future__ import annotations

import numpy as np

#: the smallest probability a learner puts in a CPT
MIN_PROBABILITY = 1e-9


def row_floor(n_states: int, floor: float = MIN_PROBABILITY) -> float:
    """The floor for a row of ``n_states`` entries (at most half the uniform value, so 1 − Kε > 0)."""
    return min(floor, 0.5 / max(n_states, 1))


def floor_rows(table: np.ndarray, floor: float = MIN_PROBABILITY) -> np.ndarray:
    """Rows (last axis) with an entry below ε become (1 − Kε) θ + ε; the others are returned unchanged."""
    table = np.asarray(table, dtype=float)
    if table.size == 0:
        return table.copy()
    eps = row_floor(table.shape[-1], floor)
    low = (table < eps).any(axis=-1)
    if not low.any():
        return table.copy()
    out = table.copy()
    out[low] = (1.0 - table.shape[-1] * eps) * table[low] + eps
    return out


def below_floor(table: np.ndarray, floor: float = MIN_PROBABILITY) -> int:
    """How many entries of ``table`` :func:`floor_rows` would raise."""
    table = np.asarray(table)
    return int((table < row_floor(table.shape[-1], floor)).sum()) if table.size else 0


def floored_softmax(rows: np.ndarray, floor: float = MIN_PROBABILITY) -> tuple[np.ndarray, np.ndarray]:
    """(θ, s) for β rows (n, K): s = softmax(β) and θ = ε + (1 − Kε) s, the floored parameterisation."""
    k = rows.shape[-1]
    s = np.exp(rows - rows.max(axis=-1, keepdims=True))
    s /= s.sum(axis=-1, keepdims=True)
    eps = row_floor(k, floor)
    return eps + (1.0 - k * eps) * s, s
