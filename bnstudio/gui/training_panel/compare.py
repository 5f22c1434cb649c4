"""Compare the parameters of two runs: every CPT row sorted by how far it moved, shaded like a heat map.
Clicking a row emits ``row_selected(variable, parent_state_indices)`` so the CPT editor can show it."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from bnstudio.app.training.runs import RunRecord
from bnstudio.app.training.shifts import MEASURES, RowShift, parameter_shifts
from bnstudio.core.network import Network
from bnstudio.errors import BNStudioError

Index = QModelIndex | QPersistentModelIndex
HEADERS = ("Variable", "Parent states", "max |Δθ|", "Total variation")


class ShiftModel(QAbstractTableModel):
    """The sorted :class:`RowShift` list; the sorting measure's column is shaded by size."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.shifts: list[RowShift] = []
        self.measure = "max"

    def set_shifts(self, shifts: list[RowShift], measure: str) -> None:
        self.beginResetModel()
        self.shifts, self.measure = shifts, measure
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() else len(self.shifts)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() else len(HEADERS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        if not index.isValid():
            return None
        s, column = self.shifts[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (s.variable, ", ".join(s.parent_states) or "(no parents)", f"{s.max_abs:.4f}",
                    f"{s.total_variation:.4f}")[column]
        if role == Qt.ItemDataRole.BackgroundRole and column == (2 if self.measure == "max" else 3):
            top = self.shifts[0].value(self.measure) if self.shifts else 0.0
            share = s.value(self.measure) / top if top > 0 else 0.0
            return QColor(230, 81, 0, int(200 * share))
        if role == Qt.ItemDataRole.TextAlignmentRole and column >= 2:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        return None


class CompareView(QWidget):
    """Two run combos, the measure, and the shift table (the runs that carry their CPTs)."""

    row_selected = Signal(str, object)   # variable, tuple of parent-state indices (parent order)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runs: list[RunRecord] = []
        self.network: Network | None = None
        self.run_a, self.run_b, self.measure = QComboBox(), QComboBox(), QComboBox()
        self.model = ShiftModel(self)
        self.table = QTableView()
        self.note = QLabel()
        self.picked = False   # the user chose the pair: keep it; otherwise follow the two latest runs
        self._compose()
        for combo in (self.run_a, self.run_b, self.measure):
            combo.currentIndexChanged.connect(self.refresh)
        for combo in (self.run_a, self.run_b):
            combo.activated.connect(self._on_picked)
        self.table.clicked.connect(self._emit_row)
        self.table.activated.connect(self._emit_row)

    def _compose(self) -> None:
        for key, text in MEASURES.items():
            self.measure.addItem(text, key)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.note.setWordWrap(True)
        top = QHBoxLayout()
        for text, widget in (("Run A", self.run_a), ("Run B", self.run_b), ("Sort by", self.measure)):
            top.addWidget(QLabel(text))
            top.addWidget(widget, 1 if widget is not self.measure else 0)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.note)

    def set_runs(self, runs: list[RunRecord], network: Network) -> None:
        """Offer the runs that carry parameters: the two most recent ones, or the pair the user picked while
        both are still offered."""
        self.runs, self.network = [r for r in runs if r.result is not None], network
        keep = (self.run_a.currentText(), self.run_b.currentText())
        labels = [r.label for r in self.runs]
        latest = (max(len(labels) - 2, 0), max(len(labels) - 1, 0))
        if not (self.picked and keep[0] in labels and keep[1] in labels):
            self.picked, keep = False, (labels[latest[0]], labels[latest[1]]) if labels else ("", "")
        for combo, wanted in ((self.run_a, keep[0]), (self.run_b, keep[1])):
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(labels)
            combo.setCurrentIndex(labels.index(wanted) if wanted in labels else 0)
            combo.blockSignals(False)
        self.refresh()

    def _on_picked(self, _index: int) -> None:
        self.picked = True

    def choose(self, a: int, b: int) -> None:
        """Compare the offered runs ``a`` and ``b`` (indices into the combos)."""
        self.run_a.setCurrentIndex(a)
        self.run_b.setCurrentIndex(b)
        self.refresh()

    def refresh(self, *_args: Any) -> None:
        a, b = self.run_a.currentIndex(), self.run_b.currentIndex()
        if len(self.runs) < 2 or a < 0 or b < 0 or self.network is None:
            self.model.set_shifts([], self.measure.currentData())
            self.note.setText("Train at least two runs (or open a project that has them) to compare their parameters.")
            return
        measure = self.measure.currentData()
        first, second = self.runs[a].result, self.runs[b].result
        assert first is not None and second is not None   # set_runs offers the runs with parameters only
        try:
            shifts = parameter_shifts(self.network, first.cpts, second.cpts, measure)
        except BNStudioError as exc:
            self.model.set_shifts([], measure)
            self.note.setText(str(exc))
            return
        self.model.set_shifts(shifts, measure)
        moved = sum(s.value(measure) > 0.05 for s in shifts)
        self.note.setText(f"{len(shifts)} CPT rows; {moved} moved by more than 0.05. A large generative vs "
                          "discriminative shift points at a weak spot in the structure (Zhou §5.4). "
                          "Click a row to show it in the CPT editor.")

    def _emit_row(self, index: QModelIndex) -> None:
        if index.isValid():
            shift = self.model.shifts[index.row()]
            self.row_selected.emit(shift.variable, shift.row)
