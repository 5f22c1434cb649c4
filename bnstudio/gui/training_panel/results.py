"""The results table (one row per run and data part: LL, CLL, error rate, Brier; under the run's label in its
first column, its iterations and time, then why it stopped, so the table fits a laptop's dock without a sideways
scroll) and the confusion matrix of one run on one part."""
from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from bnstudio.gui.training_panel.runs import RunRecord

Index = QModelIndex | QPersistentModelIndex
PART_TEXT = {"train": "train", "validation": "validation", "test": "test"}
HEADERS = ("Run", "Data", "n", "LL", "CLL", "Error", "Brier")
METRIC_KEYS = {3: "ll", 4: "cll", 5: "error_rate", 6: "brier"}
HEADER_TIPS = {0: "the run: its label, then its iterations and time, then why it stopped",
               3: "mean log p(case)", 4: "mean log p(target | rest)", 5: "share of wrong argmax predictions",
               6: "mean Σ_k (p(k|e) − 1{k = q})²"}


def run_lines(run: RunRecord) -> tuple[str, str, str]:
    """What the run column says over a run's rows: label, iterations and time, stop reason."""
    return run.label, f"{run.n_iterations} iter. · {run.seconds:.2f} s", run.stop_reason


def number_text(value: Any, digits: int = 4) -> str:
    if value is None:
        return "—"
    value = float(value)
    if math.isinf(value):
        return "−∞" if value < 0 else "∞"
    return f"{value:.{digits}f}"


class ResultsModel(QAbstractTableModel):
    """Rows (run index, part) for every run and every part it was scored on."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.runs: list[RunRecord] = []
        self.rows: list[tuple[int, str]] = []
        self.colours: list[str] = []

    def set_runs(self, runs: list[RunRecord], colours: list[str]) -> None:
        self.beginResetModel()
        self.runs, self.colours = list(runs), list(colours)
        self.rows = [(k, part) for k, run in enumerate(self.runs)
                     for part in ("train", "validation", "test") if run.metrics.get(part)]
        self.rows += [(k, "") for k, run in enumerate(self.runs) if not any(run.metrics.values())]
        self.rows.sort(key=lambda r: r[0])
        self.endResetModel()

    def run_at(self, row: int) -> int | None:
        return self.rows[row][0] if 0 <= row < len(self.rows) else None

    def first_row_of(self, run: int) -> int:
        return next((r for r, (k, _) in enumerate(self.rows) if k == run), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() else len(HEADERS)

    def data(self, index: Index, role: int = Qt.DisplayRole) -> Any:  # Qt override
        if not index.isValid():
            return None
        k, part = self.rows[index.row()]
        run, column = self.runs[k], index.column()
        if role == Qt.DisplayRole:
            return self._text(run, part, column, index.row() - self.first_row_of(k))
        if role == Qt.ForegroundRole and column == 0:
            return QBrush(QColor(self.colours[k % len(self.colours)]))
        if role == Qt.TextAlignmentRole and column >= 2:
            return int(Qt.AlignRight | Qt.AlignVCenter)
        if role == Qt.ToolTipRole and column == 0:
            return "\n".join([*run_lines(run), str(run.settings)]) + (
                "" if run.result else "\n(stored without its parameters)")
        return None

    def _text(self, run: RunRecord, part: str, column: int, line: int) -> str:
        """The text of ``column`` on the run's ``line``-th row (0: its first)."""
        metrics = run.metrics.get(part) or {}
        if column == 0:
            lines = run_lines(run)
            return lines[line] if line < len(lines) else ""
        if column == 1:
            return PART_TEXT.get(part, "")
        if column == 2:
            return f"{metrics['n']:,}" if "n" in metrics else ""
        return number_text(metrics.get(METRIC_KEYS[column])) if metrics else ""

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.DisplayRole) -> Any:  # Qt override
        if orientation == Qt.Horizontal and role == Qt.DisplayRole:
            return HEADERS[section]
        if orientation == Qt.Horizontal and role == Qt.ToolTipRole:
            return HEADER_TIPS.get(section)
        return None


class ConfusionTable(QTableWidget):
    """Rows = true target state, columns = predicted; cells shaded by their share of the row."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.Stretch)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.setToolTip("Rows: the true state; columns: the predicted one")

    def set_matrix(self, states: list[str] | None, matrix: list[list[int]] | None) -> None:
        """Show ``matrix`` (None clears the table)."""
        self.clear()
        if not states or matrix is None:
            self.setRowCount(0)
            self.setColumnCount(0)
            return
        k = len(states)
        self.setRowCount(k)
        self.setColumnCount(k)
        self.setHorizontalHeaderLabels(list(states))
        self.setVerticalHeaderLabels(list(states))
        for i, row in enumerate(matrix):
            total = max(sum(row), 1)
            for j, count in enumerate(row):
                item = QTableWidgetItem(f"{count:,}")
                item.setTextAlignment(Qt.AlignCenter)
                share = count / total
                base = (46, 125, 50) if i == j else (198, 40, 40)
                item.setBackground(QColor(*base, int(40 + 160 * share) if count else 0))
                self.setItem(i, j, item)

    def counts(self) -> list[list[int]]:
        """The shown matrix (for tests)."""
        return [[int(self.item(i, j).text().replace(",", "")) for j in range(self.columnCount())]
                for i in range(self.rowCount())]
