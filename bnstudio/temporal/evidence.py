"""Evidence over time: one row per slice, one column per observed variable, as integer codes (-1 = unobserved).

A table with column names (a DataFrame, a mapping {name: values}) is matched to the 2TBN's variables by name
(docs/architecture.md §3.25): state names, or whole numbers as codes; NaN, None or -1 is unobserved. A bare 2-D
array is read by position, one column per variable in ``tbn.radicals`` order, as codes (NaN or -1 unobserved).
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from bnstudio.errors import EvidenceError, UnknownVariableError
from bnstudio.inference.cases import case_codes, is_named_table
from bnstudio.inference.evidence import VariableIndex
from bnstudio.temporal.model import TwoSliceNetwork


def slice_index(tbn: TwoSliceNetwork) -> VariableIndex:
    """Names and states of one slice, by radical name."""
    return VariableIndex(tbn.radicals, [tbn.states(r) for r in tbn.radicals])


def evidence_codes(tbn: TwoSliceNetwork, evidence: Any) -> np.ndarray:
    """A (T, n) int64 array of codes, columns in ``tbn.radicals`` order, -1 where unobserved (module docstring)."""
    index = slice_index(tbn)
    if is_named_table(evidence):
        names = list(evidence.keys()) if isinstance(evidence, Mapping) else list(evidence.columns)
        unknown = [str(c) for c in names if c not in index.position]
        if unknown:
            raise UnknownVariableError(f"table column '{unknown[0]}' is not a variable of the 2TBN "
                                       f"'{tbn.name}' (variables: {', '.join(tbn.radicals)})")
        columns = case_codes(index, evidence)
        lengths = {len(c) for c in columns.values()}
        if len(lengths) > 1:
            raise EvidenceError(f"evidence columns have different lengths: {sorted(lengths)}")
        rows = lengths.pop() if lengths else len(evidence)
        codes = np.full((rows, len(tbn.radicals)), -1, dtype=np.int64)
        for name, column in columns.items():
            if np.ndim(column) != 1:
                raise EvidenceError(f"evidence column '{name}' must hold one state per slice (no likelihoods)")
            codes[:, index.position[name]] = column
    else:
        arr = np.asarray(evidence)
        if arr.ndim != 2 or arr.shape[1] != len(tbn.radicals):
            raise EvidenceError(f"an evidence array must have shape (slices, {len(tbn.radicals)}) (one column per "
                                f"variable, in the order {', '.join(tbn.radicals)}), got {arr.shape}")
        if np.issubdtype(arr.dtype, np.floating):  # whole numbers, NaN unobserved
            seen = ~np.isnan(arr)
            if np.any(arr[seen] != np.round(arr[seen])):
                raise EvidenceError("an evidence array must hold whole-number codes (NaN or -1 = unobserved)")
            arr = np.where(seen, arr, -1.0)
        elif not np.issubdtype(arr.dtype, np.integer):
            raise EvidenceError(f"an evidence array must hold integer codes (-1 = unobserved), got {arr.dtype}")
        codes = arr.astype(np.int64)
    return check_codes(tbn, codes)


def check_codes(tbn: TwoSliceNetwork, codes: np.ndarray) -> np.ndarray:
    """``codes`` after checking each is -1 or a state of its column's variable (the first bad cell named)."""
    cards = np.array([tbn.cardinality(r) for r in tbn.radicals])
    bad = np.argwhere((codes < -1) | (codes >= cards))
    if bad.size:
        t, k = (int(x) for x in bad[0])
        raise EvidenceError(f"evidence of '{tbn.radicals[k]}' in slice {t} is code {int(codes[t, k])}, not one of "
                            f"its {cards[k]} states (or -1 for unobserved)")
    return codes
