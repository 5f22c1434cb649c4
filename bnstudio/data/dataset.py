"""A table of categorical data: one column per variable, integer state codes, -1 = missing.

>>> import numpy as np
>>> ds = Dataset(["A", "B"], [("no", "yes"), ("lo", "hi")], np.array([[0, 1], [1, -1], [1, 0]]))
>>> ds.n_rows, ds.missing_counts(), ds.state_counts("A").tolist()
(3, {'A': 0, 'B': 1}, [1, 2])
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from bnstudio.errors import UnknownVariableError, ValidationError
from bnstudio.io.common import first_duplicate
from bnstudio.io.messages import listing

if TYPE_CHECKING:
    import pandas as pd


def describe_positions(numbers: np.ndarray, total: int, kind: str, limit: int = 5) -> str:
    """``"lines 3, 7, 9, ..."``: the first ``limit`` of ``numbers`` (``total`` in all) with their kind."""
    shown = ", ".join(str(int(n)) for n in numbers[:limit])
    more = ", ..." if total > limit else ""
    return f"{kind}{'s' if total != 1 else ''} {shown}{more}"


@dataclass
class Dataset:
    """Categorical data ready for learning and inference.

    Parameters
    ----------
    columns : list of str
        Column (variable) names, distinct.
    states : list of tuple of str
        Ordered state names of each column; code ``k`` of column ``j`` means ``states[j][k]``.
    codes : ndarray, shape (n_rows, n_columns), int64
        State codes, -1 = missing. May be column-major (Fortran order); the values are what count.
    weights : ndarray, shape (n_rows,), optional
        Non-negative case weights (None = every row counts once).
    source : str, optional
        The file the data came from, for messages.
    row_lines : ndarray, shape (n_rows,), optional
        1-based line in ``source`` of each row; None when rows have no file lines (then messages give
        1-based row positions).
    row_offset : int
        Without ``row_lines``: the rows before this table in ``source`` (a part of a larger table), so that
        messages give row positions in the whole table.
    """

    columns: list[str]
    states: list[tuple[str, ...]]
    codes: np.ndarray
    weights: np.ndarray | None = None
    source: str | None = None
    row_lines: np.ndarray | None = field(default=None, repr=False)
    row_offset: int = field(default=0, repr=False)

    def __post_init__(self) -> None:
        self.columns = [str(c) for c in self.columns]
        self.states = [tuple(str(s) for s in st) for st in self.states]
        codes = np.asarray(self.codes)
        if codes.ndim != 2 or not np.issubdtype(codes.dtype, np.integer):
            raise ValidationError(f"dataset codes must be a 2-D integer array, got {codes.dtype} shape {codes.shape}")
        self.codes = codes.astype(np.int64, copy=False)
        if not (len(self.columns) == len(self.states) == codes.shape[1]):
            raise ValidationError(f"dataset has {len(self.columns)} columns, {len(self.states)} state lists and "
                                  f"{codes.shape[1]} code columns")
        if len(set(self.columns)) != len(self.columns):
            raise ValidationError(f"dataset column '{first_duplicate(self.columns)}' appears twice")
        for name, st in zip(self.columns, self.states, strict=True):
            if len(set(st)) != len(st):
                raise ValidationError(f"dataset column '{name}' lists a state twice: '{first_duplicate(st)}'")
        if codes.size:
            low, high = codes.min(axis=0), codes.max(axis=0)
            cards = np.array([len(s) for s in self.states])
            bad = np.flatnonzero((low < -1) | (high >= cards))
            if bad.size:
                j = int(bad[0])
                raise ValidationError(f"codes of column '{self.columns[j]}' must lie in -1..{cards[j] - 1}, "
                                      f"found {int(low[j])}..{int(high[j])}")
        if self.weights is not None:
            w = np.asarray(self.weights, dtype=float)
            if w.shape != (codes.shape[0],) or not np.all(np.isfinite(w)) or np.any(w < 0):
                raise ValidationError(f"weights must be {codes.shape[0]} finite non-negative numbers")
            self.weights = w
        if self.row_lines is not None:
            self.row_lines = np.asarray(self.row_lines, dtype=np.int64)
            if self.row_lines.shape != (codes.shape[0],):
                raise ValidationError(f"row_lines must have one entry per row ({codes.shape[0]})")

    # ------------------------------------------------------------------ shape and lookup
    @property
    def names(self) -> list[str]:
        """The column names: an alias of :attr:`columns` (the structure learners' word, ``fit(codes, names,
        states)``); ``columns`` is the field."""
        return self.columns

    @property
    def n_rows(self) -> int:
        """Number of rows (cases)."""
        return int(self.codes.shape[0])

    @property
    def n_columns(self) -> int:
        """Number of columns (variables)."""
        return len(self.columns)

    def index(self, name: str) -> int:
        """Position of column ``name``; an unknown name raises :class:`UnknownVariableError`."""
        try:
            return self.columns.index(name)
        except ValueError:
            raise UnknownVariableError(f"the data have no column '{name}' "
                                       f"(columns: {listing(self.columns, quote=False)})") from None

    def column(self, name: str) -> np.ndarray:
        """The (n_rows,) int64 codes of column ``name`` (a view; -1 = missing)."""
        return self.codes[:, self.index(name)]

    def column_states(self, name: str) -> tuple[str, ...]:
        """The ordered state names of column ``name``."""
        return self.states[self.index(name)]

    # ------------------------------------------------------------------ summaries
    def missing_counts(self) -> dict[str, int]:
        """Number of missing cells per column."""
        counts = (self.codes < 0).sum(axis=0)
        return {name: int(c) for name, c in zip(self.columns, counts, strict=True)}

    def unobserved_columns(self) -> list[str]:
        """Columns whose every cell is missing (all of them when the dataset has no rows)."""
        observed = np.asarray((self.codes >= 0).any(axis=0))  # per column (the stubs allow a scalar)
        return [name for name, seen in zip(self.columns, observed, strict=True) if not seen]

    def state_counts(self, column: str) -> np.ndarray:
        """Occurrences of each state of ``column`` (missing cells skipped).

        Returns int64 counts, or float weighted counts when the dataset has ``weights``.
        """
        j = self.index(column)
        shifted = self.codes[:, j] + 1  # missing -> bin 0, dropped below
        counts = np.bincount(shifted, weights=self.weights, minlength=len(self.states[j]) + 1)[1:]
        return counts if self.weights is not None else counts.astype(np.int64)

    def row_numbers(self, rows: np.ndarray) -> tuple[np.ndarray, str]:
        """(numbers, kind) locating ``rows`` (0-based positions) for a person: file lines or 1-based rows."""
        rows = np.asarray(rows, dtype=np.int64)
        if self.row_lines is not None:
            return self.row_lines[rows], "line"
        return rows + 1 + self.row_offset, "row"

    def describe_rows(self, rows: np.ndarray, limit: int = 5) -> str:
        """``"lines 3, 7, ..."`` (or ``"rows ..."``) for the 0-based positions ``rows``."""
        numbers, kind = self.row_numbers(np.asarray(rows)[:limit])
        return describe_positions(numbers, len(rows), kind, limit)

    # ------------------------------------------------------------------ derived datasets
    def select_rows(self, rows: np.ndarray | slice) -> "Dataset":
        """A new dataset with the rows picked by a boolean mask, an index array or a slice."""
        if not isinstance(rows, slice):
            rows = np.asarray(rows)
            if rows.dtype == bool and rows.shape != (self.n_rows,):
                raise ValidationError(f"row mask has shape {rows.shape}, expected ({self.n_rows},)")
        pick = (lambda a: None if a is None else a[rows])  # noqa: E731
        return Dataset(list(self.columns), list(self.states), self.codes[rows], pick(self.weights), self.source,
                       pick(self.row_lines))

    def to_frame(self) -> pd.DataFrame:
        """A DataFrame of pandas categoricals whose categories are the state names (missing = NaN)."""
        import pandas as pd  # only here: reading codes needs no pandas (study workers start without it)

        return pd.DataFrame({
            name: pd.Categorical.from_codes(self.codes[:, j], categories=pd.Index(list(st), dtype=object))
            for j, (name, st) in enumerate(zip(self.columns, self.states, strict=True))},
            index=pd.RangeIndex(self.n_rows))
