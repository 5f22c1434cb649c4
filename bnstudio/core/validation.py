"""Checks with precise messages: CPT shape, negative or non-finite entries, rows not summing to 1."""
from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from bnstudio.errors import ValidationError

if TYPE_CHECKING:
    from bnstudio.core.network import Network

ROW_TOLERANCE = 1e-6


def row_label(net: "Network", var: str, row: tuple[int, ...]) -> str:
    """``(Age=old, Sex=m)`` for a row index of ``var``'s CPT; ``()`` for a root."""
    parents = net.parents(var)
    return "(" + ", ".join(f"{p}={net.states(p)[i]}" for p, i in zip(parents, row, strict=True)) + ")"


def check_table(net: "Network", var: str, table: npt.ArrayLike, *, what: str = "CPT",
                check_sums: bool = True) -> np.ndarray:
    """Return ``table`` as a float array after checking shape, finiteness, signs and (optionally) row sums."""
    try:
        arr = np.array(table, dtype=float)
    except (TypeError, ValueError):
        raise ValidationError(f"{what} of '{var}' is not numeric") from None
    expected = net.family_shape(var)
    if arr.shape != expected:
        raise ValidationError(f"{what} of '{var}' has shape {arr.shape}, expected {expected} "
                              f"(parents {list(net.parents(var))} then '{var}')")
    if not np.all(np.isfinite(arr)):
        bad = tuple(int(i) for i in np.argwhere(~np.isfinite(arr))[0])
        raise ValidationError(f"{what} of '{var}', row {row_label(net, var, bad[:-1])} has a non-finite entry")
    if np.any(arr < 0):
        bad = tuple(int(i) for i in np.argwhere(arr < 0)[0])
        raise ValidationError(f"{what} of '{var}', row {row_label(net, var, bad[:-1])} has a negative entry "
                              f"{arr[bad]:g} for state '{net.states(var)[bad[-1]]}'")
    if check_sums:
        sums = arr.sum(axis=-1)
        off = np.abs(sums - 1.0) > ROW_TOLERANCE
        if np.any(off):
            row = tuple(int(i) for i in np.argwhere(off)[0])
            raise ValidationError(f"{what} of '{var}', row {row_label(net, var, row)} sums to {sums[row]:.6g}, not 1")
    return arr


def unnormalised_rows(net: "Network", var: str) -> list[tuple[int, ...]]:
    """Row indices of ``var``'s CPT whose entries do not sum to 1 (for highlighting in editors)."""
    sums = net.cpt(var).sum(axis=-1)
    return [tuple(int(i) for i in r) for r in np.argwhere(np.abs(sums - 1.0) > ROW_TOLERANCE)]


def validate_network(net: "Network") -> None:
    """Raise :class:`ValidationError` for the first problem found in any CPT or alpha table."""
    for var in net.variables:
        check_table(net, var, net.cpt(var))
        alpha = net.alpha(var)
        if alpha is not None:
            check_table(net, var, alpha, what="Dirichlet counts", check_sums=False)


def parent_configurations(net: "Network", var: str) -> list[tuple[int, ...]]:
    """All parent configurations of ``var`` in row-major (CPT) order."""
    return list(itertools.product(*(range(net.cardinality(p)) for p in net.parents(var))))
