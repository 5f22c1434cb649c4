"""The results tab: the data part scored ("Scores on"), the per-run score table on it and the buttons acting on
the selected run (apply its parameters, remove it); and :attr:`ResultsTab.confusion_page`, the confusion matrix
of the selected run on that part, which the panel shows in a tab of its own so the table keeps the whole
width (no score column is clipped in a laptop's dock) and the height for its runs."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from bnstudio.app.training.runs import RunRecord
from bnstudio.gui.training_panel.results import PARTS, ConfusionTable, ResultsModel

RUN_COLUMN = 150   # pixels at most for the run column (a longer label is elided; its tooltip has it whole)
ROW_HEIGHT = 21


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
        self.confusion_page = QWidget()
        self.part = QComboBox()
        self.apply_button = QPushButton("Apply parameters")
        self.remove_button = QPushButton("Remove run")
        self._compose()
        self.table.selectionModel().currentRowChanged.connect(self._selection_changed)
        self.part.currentIndexChanged.connect(self._on_part)
        self.apply_button.clicked.connect(self._apply_clicked)
        self.remove_button.clicked.connect(self._remove_clicked)
        self._selection_changed()

    def _compose(self) -> None:
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(ROW_HEIGHT)
        self.table.setMinimumHeight(self.table.horizontalHeader().sizeHint().height() + 4 * ROW_HEIGHT + 4)
        self.part.addItems(list(PARTS))
        self.part.setToolTip("The rows every score, the confusion matrix and the ROC and reliability curves are "
                             "computed on")
        self.confusion_title.setWordWrap(True)
        self.apply_button.setToolTip("Set the network's CPTs to this run's (one undoable edit)")
        head = QHBoxLayout()
        for widget in (QLabel("Scores on"), self.part):
            head.addWidget(widget)
        head.addStretch(1)
        head.addWidget(self.apply_button)
        head.addWidget(self.remove_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(head)
        layout.addWidget(self.table, 1)
        page = QVBoxLayout(self.confusion_page)
        page.setContentsMargins(4, 4, 4, 4)
        page.addWidget(self.confusion_title)
        page.addWidget(self.confusion, 1)

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
