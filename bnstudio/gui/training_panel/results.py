"""The results table (one row per run, scored on the data part chosen above it: n, LL, CLL, error rate, Brier,
AUC and ECE, then how the run stopped) and the confusion matrix of one run on that part.

>>> [HEADERS[c] for c in METRIC_KEYS]
['LL', 'CLL', 'Error', 'Brier', 'AUC', 'ECE']
"""
from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QPixmap
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from bnstudio.app.training.runs import RunRecord
from bnstudio.gui.table_cells import text_at
from bnstudio.learn.params.stopping import stop_text

Index = QModelIndex | QPersistentModelIndex
PARTS = ("test", "validation", "train")
HEADERS = ("Run", "n", "LL", "CLL", "Error", "Brier", "AUC", "ECE", "Stopped")
METRIC_KEYS = {2: "ll", 3: "cll", 4: "error_rate", 5: "brier", 6: "auc", 7: "ece"}
STOP_COLUMN = 8
HEADER_TIPS = {0: "the run (its colour in the plots); hover for its settings",
               1: "rows scored (the data part chosen above the table)",
               2: "mean log p(case)", 3: "mean log p(target | rest)", 4: "share of wrong argmax predictions",
               5: "mean Σ_k (p(k|e) − 1{k = q})²",
               6: "area under the ROC: one-vs-rest, macro average over the target's states (the first state's "
                  "with two); 0.5 = guessing, 1 = every case ranked right",
               7: "expected calibration error: Σ_b (n_b / n) |accuracy_b − confidence_b| over 10 bins of the "
                  "predicted state's probability; 0 = calibrated",
               8: "why the run ended, its iterations and time"}


def run_lines(run: RunRecord) -> tuple[str, str, str]:
    """What a run's tooltip says: label, iterations and time, how it stopped (in words)."""
    return run.label, f"{run.n_iterations} iter. · {run.seconds:.2f} s", stop_text(run.stop_reason)


def number_text(value: Any, digits: int = 4) -> str:
    if value is None:
        return "—"
    value = float(value)
    if math.isinf(value):
        return "−∞" if value < 0 else "∞"
    return f"{value:.{digits}f}"


def swatch(colour: str, size: int = 10) -> QPixmap:
    """A square of the run's plot colour (the label beside it stays dark and readable)."""
    pixmap = QPixmap(size, size)
    pixmap.fill(QColor(colour))
    return pixmap


class ResultsModel(QAbstractTableModel):
    """One row per run, its scores on :attr:`part` (blank where the run was not scored there)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.runs: list[RunRecord] = []
        self.colours: list[str] = []
        self.part = "test"

    def set_runs(self, runs: list[RunRecord], colours: list[str]) -> None:
        self.beginResetModel()
        self.runs, self.colours = list(runs), list(colours)
        self.endResetModel()

    def set_part(self, part: str) -> None:
        self.beginResetModel()
        self.part = part
        self.endResetModel()

    def run_at(self, row: int) -> int | None:
        return row if 0 <= row < len(self.runs) else None

    def first_row_of(self, run: int) -> int:
        return run if 0 <= run < len(self.runs) else -1

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() else len(self.runs)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() else len(HEADERS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        if not index.isValid():
            return None
        k, column = index.row(), index.column()
        run = self.runs[k]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(run, column)
        if role == Qt.ItemDataRole.DecorationRole and column == 0 and self.colours:
            return swatch(self.colours[k % len(self.colours)])
        if role == Qt.ItemDataRole.TextAlignmentRole and 1 <= column < STOP_COLUMN:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and column in (0, STOP_COLUMN):
            return "\n".join([*run_lines(run), str(run.settings)]) + (
                "" if run.result else "\n(stored without its parameters)")
        return None

    def _text(self, run: RunRecord, column: int) -> str:
        metrics = run.metrics.get(self.part) or {}
        if column == 0:
            return run.label
        if column == STOP_COLUMN:
            return f"{stop_text(run.stop_reason)}, {run.n_iterations} it."
        if column == 1:
            return f"{metrics['n']:,}" if "n" in metrics else ""
        if not metrics:
            return ""
        key = METRIC_KEYS[column]
        return number_text(metrics.get(key), 3) if key in metrics else "—"

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return HEADER_TIPS.get(section)
        return None


class ConfusionTable(QTableWidget):
    """Rows = true target state, columns = predicted; cells shaded by their share of the row."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
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
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                share = count / total
                base = (46, 125, 50) if i == j else (198, 40, 40)
                item.setBackground(QColor(*base, int(40 + 160 * share) if count else 0))
                self.setItem(i, j, item)

    def counts(self) -> list[list[int]]:
        """The shown matrix (for tests)."""
        return [[int(text_at(self, i, j).replace(",", "")) for j in range(self.columnCount())]
                for i in range(self.rowCount())]
