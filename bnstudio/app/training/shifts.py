"""Which CPT rows moved most between two parameter sets (e.g. generative ``mp`` vs discriminative ``clgd``).

Per row (parent configuration π of X) two distances between the distributions θ_{·|π} and θ'_{·|π}:
``max`` = max_x |θ_{x|π} − θ'_{x|π}| and ``tv`` = ½ Σ_x |θ_{x|π} − θ'_{x|π}| (total variation). A large
generative-vs-discriminative shift points at a weak spot of the structure (Zhou §5.4).

>>> import numpy as np
>>> from bnstudio.core import network_from_dsl
>>> net = network_from_dsl("A->B")
>>> a = {"A": np.array([0.5, 0.5]), "B": np.array([[0.9, 0.1], [0.5, 0.5]])}
>>> b = {"A": np.array([0.5, 0.5]), "B": np.array([[0.6, 0.4], [0.5, 0.5]])}
>>> top = parameter_shifts(net, a, b)[0]
>>> top.variable, top.row, top.parent_states, round(top.max_abs, 3), round(top.total_variation, 3)
('B', (0,), ('A=s0',), 0.3, 0.3)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import ValidationError

MEASURES = {"max": "max |Δθ|", "tv": "total variation"}


@dataclass(frozen=True)
class RowShift:
    """One CPT row: its variable, parent-state indices (in parent order) and labels, and both distances."""

    variable: str
    row: tuple[int, ...]
    parent_states: tuple[str, ...]
    max_abs: float
    total_variation: float

    def value(self, measure: str) -> float:
        return self.max_abs if measure == "max" else self.total_variation


def parameter_shifts(net: Network, cpts_a: dict[str, np.ndarray], cpts_b: dict[str, np.ndarray],
                     measure: str = "max") -> list[RowShift]:
    """Every CPT row of ``net``, sorted by ``measure`` (largest first; ties in variable order)."""
    if measure not in MEASURES:
        raise ValidationError(f"unknown measure {measure!r}; use one of {', '.join(MEASURES)}")
    out: list[RowShift] = []
    for var in net.variables:
        a, b = np.asarray(cpts_a[var], dtype=float), np.asarray(cpts_b[var], dtype=float)
        if a.shape != b.shape:
            raise ValidationError(f"the two runs give '{var}' tables of shapes {a.shape} and {b.shape}")
        diff = np.abs(a - b).reshape(-1, a.shape[-1])
        parents = net.parents(var)
        shape = a.shape[:-1]
        for flat, (mx, tv) in enumerate(zip(diff.max(axis=1), 0.5 * diff.sum(axis=1), strict=True)):
            row = tuple(int(i) for i in np.unravel_index(flat, shape)) if shape else ()
            labels = tuple(f"{p}={net.states(p)[i]}" for p, i in zip(parents, row, strict=True))
            out.append(RowShift(var, row, labels, float(mx), float(tv)))
    out.sort(key=lambda s: -s.value(measure))   # stable: ties keep network order
    return out
