"""Table models over a :class:`~bnstudio.data.Dataset`: the rows themselves (virtualised: the view asks only
for the cells it shows, so a million rows scroll) and a per-column summary of state and missing counts."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from bnstudio.app.dataset.prep import column_values
from bnstudio.data import Dataset
from bnstudio.display import themes
from bnstudio.gui import theme

Index = QModelIndex | QPersistentModelIndex
MISSING_TEXT = "?"
MISSING_COLOUR = QColor("#A0A0A0")


def counts_text(states: tuple[str, ...], counts: np.ndarray, limit: int = 6) -> str:
    """``"no: 2,970 · yes: 30"``, the first ``limit`` states by count when there are more."""
    order = np.argsort(-counts, kind="stable") if len(states) > limit else np.arange(len(states))
    shown = [f"{states[k]}: {int(counts[k]):,}" for k in order[:limit]]
    more = f" · … ({len(states) - limit} more)" if len(states) > limit else ""
    return " · ".join(shown) + more


def numeric_text(values: np.ndarray) -> str:
    """``"range 18 – 90 · mean 47.6 · median 47"`` over the non-missing values."""
    x = values[~np.isnan(values)]
    if x.size == 0:
        return "no values"
    return (f"range {x.min():.6g} – {x.max():.6g} · mean {x.mean():.4g} · median {np.median(x):.6g} "
            "(discretise to use it)")


class DatasetModel(QAbstractTableModel):
    """One table row per data row, one column per data column; missing cells show ``?`` in grey."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.dataset: Dataset | None = None

    def set_dataset(self, dataset: Dataset | None) -> None:
        self.beginResetModel()
        self.dataset = dataset
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() or self.dataset is None else self.dataset.n_rows

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() or self.dataset is None else self.dataset.n_columns

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        if self.dataset is None or not index.isValid():
            return None
        code = int(self.dataset.codes[index.row(), index.column()])
        if role == Qt.ItemDataRole.DisplayRole:
            return MISSING_TEXT if code < 0 else self.dataset.states[index.column()][code]
        if role == Qt.ItemDataRole.ForegroundRole and code < 0:
            return MISSING_COLOUR
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        """Columns by name; rows numbered from 1, with the file line (as error messages name it) as tooltip."""
        if self.dataset is None:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self.dataset.columns[section] if role == Qt.ItemDataRole.DisplayRole else None
        if role == Qt.ItemDataRole.DisplayRole:
            return str(section + 1)
        if role == Qt.ItemDataRole.ToolTipRole and self.dataset.row_lines is not None:
            return f"line {int(self.dataset.row_lines[section])} of the file"
        return None


class SummaryModel(QAbstractTableModel):
    """One row per data column: its kind, number of states, missing cells and state counts."""

    HEADERS = ("Column", "Kind", "States", "Missing", "Counts")

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[tuple[str, int, int, str, str]] = []

    def set_dataset(self, dataset: Dataset | None, numeric: Sequence[str] = (),
                    discretised: Sequence[str] = ()) -> None:
        self.beginResetModel()
        self.rows = []
        if dataset is not None:
            missing = dataset.missing_counts()
            for name, states in zip(dataset.columns, dataset.states, strict=True):
                kind = "binned" if name in discretised else "numeric" if name in numeric else "categorical"
                text = numeric_text(column_values(dataset, name)) if kind == "numeric" else \
                    counts_text(states, dataset.state_counts(name))
                self.rows.append((name, len(states), missing[name], text, kind))
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() else len(self.HEADERS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        if not index.isValid():
            return None
        name, n_states, missing, counts, kind = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (name, kind, f"{n_states}", f"{missing:,}", counts)[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{name}: {kind}, {n_states} states, {missing:,} missing\n{counts}"
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (2, 3):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and column == 3 and missing:
            return theme.colour(themes.TEXT, "warning")
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None
