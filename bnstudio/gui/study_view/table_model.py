"""The Zhou Table 4-2 table of one metric as a Qt model: a row per data set, a column per structure + method,
"mean ± sd" over folds and seeds, the best mean of each row in bold (the report's table, the same numbers)."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QFont

from bnstudio.display import themes
from bnstudio.experiment.html import PERCENT, cell_text, table_rows
from bnstudio.gui import theme

Index = QModelIndex | QPersistentModelIndex

CELL_ROLE = Qt.ItemDataRole.UserRole + 1      # (data set, structure, method) of a cell


class StudyTableModel(QAbstractTableModel):
    """Read-only; :meth:`set_table` swaps in another metric's table (or none)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.metric = ""
        self.columns: list[str] = []
        self.pairs: list[tuple[str, str]] = []
        self.rows: list[tuple[str, list[dict[str, Any] | None], float | None]] = []
        self.runs: dict[tuple[str, str, str], list] = {}

    def set_table(self, metric: str, table: dict[str, Any] | None, runs: dict[tuple[str, str, str], list]) -> None:
        self.beginResetModel()
        self.metric, self.runs = metric, runs
        self.columns = list(table["columns"]) if table else []
        self.pairs = [tuple(p) for p in table["pairs"]] if table else []
        self.rows = table_rows(metric, table) if table else []
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() else len(self.columns)

    def cell(self, index: Index) -> tuple[str, str, str]:
        """(data set, structure, method) of ``index``."""
        structure, method = self.pairs[index.column()]
        return self.rows[index.row()][0], structure, method

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        if not index.isValid():
            return None
        dataset, found, best = self.rows[index.row()]
        cell = found[index.column()]
        if role == CELL_ROLE:
            return self.cell(index)
        if cell is None:
            return "" if role == Qt.ItemDataRole.DisplayRole else None
        is_best = best is not None and cell["mean"] == best and not cell.get("partial")
        if role == Qt.ItemDataRole.DisplayRole:
            return cell_text(cell, self.metric)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and is_best:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.BackgroundRole and is_best:
            return QBrush(theme.colour(themes.CELLS, "best"))   # light or dark as the window
        if role == Qt.ItemDataRole.ToolTipRole:
            runs = self.runs.get(self.cell(index), [])
            partial = (f" of {cell['expected']}: partial, left out of the comparisons" if cell.get("partial")
                       else "")
            return (f"{dataset}, {self.columns[index.column()]}: {cell.get('runs', cell['n'])} finished run(s)"
                    f"{partial}{'; double-click opens the fitted network' if runs else ''}")
        return None

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self.columns[section].replace("+", "\n+ ") if section < len(self.columns) else None
        return self.rows[section][0] if section < len(self.rows) else None

    def unit(self) -> str:
        return " (%)" if self.metric in PERCENT else ""
