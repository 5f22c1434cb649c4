"""The results tab: the data part scored ("Scores on"), the per-run score table on it, the confusion matrix of
the selected run on it, and the buttons acting on the selected run (apply its parameters, remove it).

The confusion matrix stands beside the table where the tab is wide enough for both (:data:`BESIDE_FROM`),
else below it, so no score column is clipped in a laptop's dock."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QHBoxLayout, QHeaderView, QLabel, QPushButton,
                               QSplitter, QTableView, QVBoxLayout, QWidget)

from bnstudio.gui.training_panel.results import PARTS, ConfusionTable, ResultsModel
from bnstudio.gui.training_panel.runs import RunRecord

RUN_COLUMN = 150   # pixels at most for the run column (a longer label is elided; its tooltip has it whole)
#: the confusion matrix goes beside the table from this much room next to the table's columns
CONFUSION_WIDTH = 240


class ResultsTab(QWidget):
    """``apply_requested(run)`` / ``remove_requested(run)`` with the selected run's index; ``run_selected(run)``
    (-1 for none) and ``part_changed(part)`` when the selection or the scored part changes."""

    apply_requested = Signal(int)
    remove_requested = Signal(int)
    run_selected = Signal(int)
    part_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ResultsModel(self)
        self.table = QTableView()
        self.confusion = ConfusionTable()
        self.confusion_title = QLabel()
        self.part = QComboBox()
        self.apply_button = QPushButton("Apply parameters")
        self.remove_button = QPushButton("Remove run")
        self.splitter = QSplitter(Qt.Horizontal)
        self._compose()
        self.table.selectionModel().currentRowChanged.connect(self._selection_changed)
        self.part.currentIndexChanged.connect(self._on_part)
        self.apply_button.clicked.connect(self._apply_clicked)
        self.remove_button.clicked.connect(self._remove_clicked)
        self._selection_changed()

    def _compose(self) -> None:
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(21)
        self.table.setMinimumHeight(self.table.horizontalHeader().sizeHint().height() + 4 * 21 + 4)
        self.part.addItems(list(PARTS))
        self.part.setToolTip("The rows every score, the confusion matrix and the ROC and reliability curves are "
                             "computed on")
        self.confusion_title.setWordWrap(True)
        self.apply_button.setToolTip("Set the network's CPTs to this run's (one undoable edit)")
        buttons = QHBoxLayout()
        buttons.addWidget(self.apply_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        head = QHBoxLayout()
        head.addWidget(QLabel("Scores on"))
        head.addWidget(self.part)
        head.addStretch(1)
        head.addLayout(buttons)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.table, 1)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.confusion_title)
        right_layout.addWidget(self.confusion, 1)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(head)
        layout.addWidget(self.splitter, 1)

    def _scores_width(self) -> int:
        table = self.table
        return (table.horizontalHeader().length() + table.verticalScrollBar().sizeHint().width()
                + 2 * table.frameWidth())

    def _divide(self) -> None:
        """The scores get the width of their columns (no sideways scroll) and the confusion matrix the rest
        beside them; where that leaves it less than :data:`CONFUSION_WIDTH`, it goes below the table."""
        width = self.width() - 8
        scores = self._scores_width()
        beside = width - scores >= CONFUSION_WIDTH
        self.splitter.setOrientation(Qt.Horizontal if beside else Qt.Vertical)
        if beside:
            self.splitter.setSizes([scores, max(width - scores, 0)])
        else:
            height = max(sum(self.splitter.sizes()), 1)
            self.splitter.setSizes([round(0.6 * height), height - round(0.6 * height)])

    def resizeEvent(self, event) -> None:  # Qt override
        super().resizeEvent(event)
        self._divide()

    def set_runs(self, runs: list[RunRecord], colours: list[str]) -> None:
        keep = self.selected_run()
        self.model.set_runs(runs, colours)
        self._fit_columns()
        if runs:
            self.select_run(keep if keep is not None and keep < len(runs) else len(runs) - 1)
        self._selection_changed()

    def _fit_columns(self) -> None:
        self.table.resizeColumnsToContents()
        if self.table.columnWidth(0) > RUN_COLUMN:      # a long label is elided; its tooltip has it whole
            self.table.setColumnWidth(0, RUN_COLUMN)
        self._divide()

    def set_part(self, part: str) -> None:
        """Score on ``part`` (one of :data:`PARTS`)."""
        self.part.setCurrentText(part)

    def _on_part(self, *_args) -> None:
        run = self.selected_run()
        self.model.set_part(self.part.currentText())
        self._fit_columns()
        self.part_changed.emit(self.part.currentText())
        if run is not None:
            self.select_run(run)
        self._show_confusion()

    def selected_run(self) -> int | None:
        index = self.table.currentIndex()
        return self.model.run_at(index.row()) if index.isValid() else None

    def select_run(self, run: int) -> None:
        row = self.model.first_row_of(run)
        if row >= 0:
            self.table.setCurrentIndex(self.model.index(row, 0))

    def _apply_clicked(self, *_args) -> None:
        run = self.selected_run()
        if run is not None:
            self.apply_requested.emit(run)

    def _remove_clicked(self, *_args) -> None:
        run = self.selected_run()
        if run is not None:
            self.remove_requested.emit(run)

    def _selection_changed(self, *_args) -> None:
        run = self.selected_run()
        record = self.model.runs[run] if run is not None else None
        self.apply_button.setEnabled(record is not None and record.result is not None)
        self.apply_button.setToolTip("" if record is None or record.result is not None else
                                     "This run was stored without its parameters (an older project file)")
        self.remove_button.setEnabled(record is not None)
        self._show_confusion()
        self.run_selected.emit(-1 if run is None else run)

    def _show_confusion(self, *_args) -> None:
        run = self.selected_run()
        record = self.model.runs[run] if run is not None else None
        part = self.part.currentText()
        metrics = (record.metrics.get(part) or {}) if record is not None else {}
        self.confusion.set_matrix(metrics.get("states"), metrics.get("confusion"))
        if record is None:
            self.confusion_title.setText("No run selected")
        elif "confusion" not in metrics:
            self.confusion_title.setText(f"{record.label}: not scored on {part} data with a target")
        else:
            self.confusion_title.setText(f"Confusion of <b>{record.label}</b> on {part} (rows: true, columns: "
                                         "predicted)")
