"""The study view: a read-only window on a study file — progress, the Table 4-2 tables per metric, the
comparisons with the baseline, the Friedman / Nemenyi / Holm rank tests with their critical-difference diagrams,
the figures — refreshed while the study runs. Reading the file and drawing the
figures is a Qt-free job on :class:`~bnstudio.gui.job_slot.JobSlot` (docs/gui.md "Threads"); a double-click on
a table cell (or Open Fitted Network) rebuilds the chosen run's fitted network from the store and emits it."""
from __future__ import annotations

import functools
import shutil
import tempfile
from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from bnstudio.app.study.snapshot import StudySnapshot, fitted_network, load_snapshot
from bnstudio.errors import BNStudioError
from bnstudio.experiment.summary import split_description
from bnstudio.gui.job_slot import JobSlot
from bnstudio.gui.study_view.figures import FigureGrid
from bnstudio.gui.study_view.ranks_tab import RanksTab, is_cd_figure
from bnstudio.gui.study_view.table_model import StudyTableModel

REFRESH_MS = 5000     # while the study runs
COMPARISON_HEAD = ("structure", "method", "vs", "metric", "n", "wins", "draws", "losses", "Wilcoxon p", "sign p",
                   "left out (partial)")


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


class StudyView(QWidget):
    """A window on the study file ``path``; ``open_network(network, title)`` when a run is opened."""

    open_network = Signal(object, str)
    loaded = Signal()          # a snapshot was applied
    load_failed = Signal(str)

    def __init__(self, path: str | Path, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.path = Path(path)
        self.snapshot: StudySnapshot | None = None
        self.folder = tempfile.mkdtemp(prefix="bnstudio-study-")
        self.destroyed.connect(functools.partial(shutil.rmtree, self.folder, True))
        self.slot = JobSlot(self)
        self.timer = QTimer(self)
        self.timer.setInterval(REFRESH_MS)
        self.title, self.status, self.progress = QLabel(), QLabel(), QProgressBar()
        self.refresh_button = QPushButton("Refresh")
        self.metric_box, self.run_box = QComboBox(), QComboBox()
        self.open_button = QPushButton("Open Fitted Network")
        self.model = StudyTableModel(self)
        self.table = QTableView()
        self.comparisons = QTableWidget(0, len(COMPARISON_HEAD))
        self.ranks = RanksTab()
        self.figures = FigureGrid()
        self.tabs = QTabWidget()
        self._compose()
        self._connect()
        self.setWindowTitle(f"Study — {self.path.name}")
        self.resize(1180, 720)
        self.refresh()

    def _compose(self) -> None:
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        self.progress.setFormat("%v of %m tasks finished")
        head = QHBoxLayout()
        head.addWidget(self.progress, 1)
        head.addWidget(self.status)
        head.addWidget(self.refresh_button)
        self.table.setModel(self.model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        tools = QHBoxLayout()
        for label, widget in (("Metric:", self.metric_box), ("Run:", self.run_box)):
            tools.addWidget(QLabel(label))
            tools.addWidget(widget)
        self.run_box.setMinimumContentsLength(14)
        tools.addWidget(self.open_button)
        tools.addStretch(1)
        tables = QWidget()
        inner = QVBoxLayout(tables)
        inner.addLayout(tools)
        inner.addWidget(self.table, 1)
        hint = QLabel("Mean ± sd over folds and seeds (error in %); the best of each row in bold. Select a cell "
                      "and a run, or double-click a cell, to open that run's fitted network.")
        hint.setWordWrap(True)
        inner.addWidget(hint)
        self.comparisons.setHorizontalHeaderLabels(COMPARISON_HEAD)
        self.comparisons.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.comparisons.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.tabs.addTab(tables, "Tables")
        self.tabs.addTab(self.comparisons, "Comparisons")
        self.tabs.addTab(self.ranks, "Ranks")
        self.tabs.addTab(self.figures, "Figures")
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addLayout(head)
        layout.addWidget(self.tabs, 1)

    def _connect(self) -> None:
        self.refresh_button.clicked.connect(self.refresh)
        self.timer.timeout.connect(self.refresh)
        self.metric_box.currentTextChanged.connect(self._show_metric)
        self.table.selectionModel().currentChanged.connect(self._fill_runs)
        self.table.doubleClicked.connect(self._open_index)
        self.open_button.clicked.connect(lambda: self._open_index(self.table.currentIndex()))

    # ------------------------------------------------------------------ loading
    def refresh(self) -> None:
        """Read the study file again (in the background; ignored while a reading runs)."""
        if self.slot.running:
            return
        self.refresh_button.setEnabled(False)
        job = functools.partial(load_snapshot, str(self.path), self.folder)
        self.slot.start(job, finished=self._apply, failed=self._failed)

    def _failed(self, exc: BaseException) -> None:
        self.refresh_button.setEnabled(True)
        self.timer.stop()
        text = str(exc) if isinstance(exc, BNStudioError) else f"{type(exc).__name__}: {exc}"
        self.status.setText(f"Cannot read the study: {text}")
        self.load_failed.emit(text)

    def _apply(self, snapshot: StudySnapshot) -> None:
        self.refresh_button.setEnabled(True)
        self.snapshot = snapshot
        self._show_header(snapshot)
        metric = self.metric_box.currentText()
        self.metric_box.blockSignals(True)
        self.metric_box.clear()
        self.metric_box.addItems(list(snapshot.document.get("tables", {})))
        self.metric_box.blockSignals(False)
        if metric and self.metric_box.findText(metric) >= 0:
            self.metric_box.setCurrentText(metric)
        self._show_metric(self.metric_box.currentText())
        self._show_comparisons(snapshot)
        self.ranks.show_tests(snapshot.document.get("friedman", []), snapshot.figures)
        self.figures.set_figures([(title, png) for title, png in snapshot.figures if not is_cd_figure(png)])
        if snapshot.running and not self.timer.isActive():
            self.timer.start()
        elif not snapshot.running:
            self.timer.stop()
        self.loaded.emit()

    def _show_header(self, s: StudySnapshot) -> None:
        study = s.study
        split = split_description(study)
        self.title.setText(f"<b>{study['name']}</b> — {len(study['datasets'])} data sets × "
                           f"{len(study['structures'])} structures × {len(study['methods'])} methods, {split}, "
                           f"seeds {study['seeds']}; baseline <b>{study['baseline']}</b>"
                           f"{'; ran on ' + s.document['executor'] if s.document.get('executor') else ''}")
        counts = s.counts
        self.progress.setRange(0, max(s.total, 1))
        self.progress.setValue(counts["done"] + counts["failed"])
        parts = [f"done {counts['done']}", f"failed {counts['failed']}", f"pending {counts['pending']}"]
        if s.running:
            parts.append(f"running {s.state.get('running', 0)}")
            eta = s.state.get("eta", -1)
            parts.append(f"ETA {_duration(eta)}" if eta is not None and eta >= 0 else "ETA –")
        else:
            status = s.document.get("status")
            parts.append(f"not running ({status})" if status else "not running")
        self.status.setText(" · ".join(parts))

    def _show_metric(self, metric: str) -> None:
        tables = self.snapshot.document.get("tables", {}) if self.snapshot else {}
        self.model.set_table(metric, tables.get(metric), self.snapshot.runs if self.snapshot else {})
        self.run_box.clear()

    def _show_comparisons(self, s: StudySnapshot) -> None:
        rows = s.document.get("comparisons", []) + s.document.get("queries", {}).get("comparisons", [])
        self.comparisons.setRowCount(len(rows))
        for r, c in enumerate(rows):
            values = (c["structure"], c["method"], c["baseline"], c["metric"], c["n"], c["wins"], c["draws"],
                      c["losses"], f"{c['wilcoxon_p']:.3g}", f"{c['sign_p']:.3g}", c.get("left_out", 0))
            for k, value in enumerate(values):
                self.comparisons.setItem(r, k, QTableWidgetItem(str(value)))

    # ------------------------------------------------------------------ opening a run
    def _fill_runs(self, index: QModelIndex) -> None:
        self.run_box.clear()
        if not index.isValid() or self.snapshot is None:
            return
        for fold, seed, key in self.snapshot.runs.get(self.model.cell(index), []):
            self.run_box.addItem(f"fold {fold + 1}, seed {seed}", key)

    def _open_index(self, index: QModelIndex) -> None:
        if not index.isValid() or self.snapshot is None:
            return
        if self.table.currentIndex() != index:
            self.table.setCurrentIndex(index)
        key = self.run_box.currentData()
        if key is None:
            self.status.setText("No finished run in this cell yet.")
            return
        dataset, structure, method = self.model.cell(index)
        try:
            network = fitted_network(self.path, key)
        except BNStudioError as exc:
            self.status.setText(str(exc))
            return
        self.open_network.emit(network, f"{dataset} {structure}+{method} ({self.run_box.currentText()})")

    def closeEvent(self, event) -> None:  # Qt override
        self.timer.stop()
        self.slot.shutdown()
        super().closeEvent(event)
