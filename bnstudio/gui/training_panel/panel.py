"""The training panel: choose a method and its hyper-parameters, run it in the background on a snapshot of
the network and the selected data, watch the convergence curves live, compare runs (scores, confusion
matrix, which CPT rows moved) and apply a run's parameters as one undoable edit.

Runs are kept in ``document.project.runs`` (saved with the project) and re-plotted when a project is opened.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from bnstudio.app.dataset.selection import DataSelection
from bnstudio.app.training.commands import ApplyParameters
from bnstudio.app.training.job import TrainingRequest, run_training
from bnstudio.app.training.runs import RunRecord
from bnstudio.errors import BNStudioError
from bnstudio.gui import dialogs
from bnstudio.gui.document import Document
from bnstudio.gui.job_slot import JobSlot
from bnstudio.gui.message_bar import MessageBar
from bnstudio.gui.responsive import ContentScrollArea, ResponsiveSplitter
from bnstudio.gui.training_panel.compare import CompareView
from bnstudio.gui.training_panel.curves_view import CurvesView
from bnstudio.gui.training_panel.learning_view import LearningCurveView
from bnstudio.gui.training_panel.options import MethodOptions
from bnstudio.gui.training_panel.plot import ConvergencePlot
from bnstudio.gui.training_panel.results_tab import ResultsTab
from bnstudio.jobs import IterationInfo
from bnstudio.learn.params import METHODS
from bnstudio.learn.params.stopping import stop_text
from bnstudio.learn.registry import parameter_learner

PLOT_INTERVAL_MS = 50   # at most 20 plot updates per second while a run reports
SIDE_WIDTH = 330
#: the plots' share (%) of the height beside or below the options; the results table has the rest
PLOTS_SHARE = 60
#: from this width the options and the plots stand side by side (the scores beside the confusion matrix need
#: two thirds of it); narrower, the options go on top
SIDE_BY_SIDE = 960


@dataclass
class LiveRun:
    """The run in progress: its plot key, label and the history received so far."""

    key: int
    label: str
    generation: int
    history: list[dict[str, Any]] = field(default_factory=list)
    total: int = 0
    dirty: bool = False


class TrainingPanel(QWidget):
    """See the module docstring. Connect the data panel's ``selection_changed`` to :meth:`set_selection`."""

    run_finished = Signal(object)          # the new RunRecord
    run_failed = Signal(object)            # the exception
    run_cancelled = Signal()
    row_selected = Signal(str, object)     # from the compare view: variable, parent-state index tuple

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.selection: DataSelection | None = None
        self.runs: list[RunRecord] = []
        self.live: LiveRun | None = None
        self.plot_updates = 0
        self._keys = 0
        self._generation = 0
        self.jobs = JobSlot(self)
        self.timer = QTimer(self)
        self.message_bar = MessageBar()
        self.options = MethodOptions()
        self.data_label = QLabel()
        self.run_button, self.cancel_button = QPushButton("Run"), QPushButton("Cancel")
        self.progress, self.status = QProgressBar(), QLabel()
        self.plot, self.curves, self.views = ConvergencePlot(), CurvesView(), QTabWidget()
        self.learning = LearningCurveView(self._learning_snapshot)
        self.results, self.compare, self.tabs = ResultsTab(), CompareView(), QTabWidget()
        self._compose()
        self.timer.timeout.connect(self._flush)
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.results.apply_requested.connect(self.apply_run)
        self.results.remove_requested.connect(self.remove_run)
        self.results.run_selected.connect(self.curves.set_selected)
        self.results.part_changed.connect(self.curves.set_part)
        self.tabs.currentChanged.connect(self._on_tab)
        self.compare.row_selected.connect(self.row_selected)
        document.network_replaced.connect(self.load_project_runs)
        self.set_selection(None)
        self.load_project_runs()

    def _compose(self) -> None:
        self.timer.setInterval(PLOT_INTERVAL_MS)
        self.data_label.setWordWrap(True)
        self.status.setWordWrap(True)
        self.cancel_button.setEnabled(False)
        self.progress.hide()
        self.progress.setFormat("iteration %v of %m")   # of at most max_iter: a run may converge earlier
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        options = QWidget()
        options_layout = QVBoxLayout(options)
        options_layout.setContentsMargins(0, 0, 0, 0)
        options_layout.addWidget(self.options)
        options_layout.addWidget(self.data_label)
        scroll = ContentScrollArea(options)   # the options scroll in a short dock ...
        side = QWidget()
        side.setMinimumWidth(SIDE_WIDTH)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(scroll)
        side_layout.addLayout(buttons)     # ... while Run / Cancel and the progress stay in view below them
        side_layout.addWidget(self.progress)
        side_layout.addWidget(self.status)
        side_layout.addStretch(1)
        self.tabs.addTab(self.results, "Results")
        self.tabs.addTab(self.results.confusion_page, "Confusion")
        self.tabs.addTab(self.compare, "Compare runs")
        self.views.addTab(self.plot, "Convergence")
        self.views.addTab(self.curves, "ROC && calibration")
        self.views.addTab(self.learning, "Learning curves")
        self.views.setDocumentMode(True)
        self.tabs.setDocumentMode(True)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.views)
        right.addWidget(self.tabs)
        right.setChildrenCollapsible(False)
        right.setStretchFactor(0, 3)
        right.setStretchFactor(1, 2)
        right.setSizes([PLOTS_SHARE, 100 - PLOTS_SHARE])   # scaled to the height the panel gets
        # stacked (a laptop's dock), the options on top take their own height, at most 45 %: all of a method's
        # fields show, and the curves keep the rest
        splitter = ResponsiveSplitter(side, right, side_by_side=SIDE_BY_SIDE, side_share=0.34, stacked_share=0.45,
                                      fit_first=True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message_bar)
        layout.addWidget(splitter, 1)

    # ------------------------------------------------------------------ data
    def set_selection(self, selection: DataSelection | None) -> None:
        """Train on ``selection`` from now on (None: no data)."""
        self.selection = selection
        if selection is not None:   # score on the held-out rows there are: test, else validation, else train
            parts = [name for name, _codes in selection.parts()]
            self.results.set_part(next((p for p in ("test", "validation") if p in parts), "train"))
        self.data_label.setText(f"Data: {selection.describe()}" if selection is not None else
                                "No data: open and align a table in the Data panel.")
        self._update_buttons()

    def _problem(self) -> str | None:
        if self.jobs.running:
            return "a run is in progress"
        if self.selection is None:
            return "No data to train on: open and align a table in the Data panel"
        if not self.selection.matches(self.document.network):
            return ("The network's variables or states changed since the data were aligned: align the data "
                    "again in the Data panel")
        method = self.options.current_method()
        if parameter_learner(method).needs_target and self.selection.target is None:  # the registry says which
            return (f"{method} learns p(target | the rest) and needs a target (class) variable: choose one under "
                    "“Target” in the Data panel (Target and held-out rows), then run again")
        return None

    def _on_tab(self, _index: int) -> None:
        """Comparing runs overlays their ROC and reliability curves too (the user may untick it again)."""
        if self.tabs.currentWidget() is self.compare:
            self.curves.compare.setChecked(True)

    def _learning_snapshot(self):
        """(network copy, selection) for a learning curve, or why there is none."""
        if self.selection is None:
            return "No data: open and align a table in the Data panel."
        if not self.selection.matches(self.document.network):
            return "The network changed since the data were aligned: align the data again in the Data panel."
        return self.document.network.copy(), self.selection

    # ------------------------------------------------------------------ running
    def run(self):
        """Start a run with the chosen method (returns the worker, or None with the reason shown)."""
        problem = self._problem()
        if problem is not None:
            self.message_bar.show_message("warning", problem)
            return None
        assert self.selection is not None   # _problem() says when there is none
        self._keys += 1
        label = f"{self._keys}. {self.options.describe()}"
        request = TrainingRequest(self.options.current_method(), self.options.options(),
                                  self.document.network.copy(), self.selection, label)
        self.live = LiveRun(self._keys, label, self._generation)
        self.plot.add_run(self._keys, label, self.plot.colour(self._keys - 1))
        self.status.setText(f"Running {label}…")
        self.progress.setRange(0, 0)     # indeterminate until the job says how many iterations it may take
        self.progress.show()
        worker = self.jobs.start(partial(run_training, request), started=self._on_started,
                                 progress=self._on_progress, finished=self._on_finished,
                                 failed=self._on_failed, cancelled=self._on_cancelled)
        self.timer.start()
        self._update_buttons()
        return worker

    def cancel(self) -> None:
        """Ask the run to stop at its next iteration; the network is left unchanged."""
        self.jobs.cancel()

    def _on_started(self, _label: str, total: int) -> None:
        if self.live is not None and total > 0:
            self.live.total = total
            self.progress.setRange(0, total)

    def _on_progress(self, info: IterationInfo) -> None:
        live = self.live
        if live is not None:
            live.history.append({"iteration": info.iteration, **info.objectives})
            live.dirty = True

    def _flush(self) -> None:
        """Show what arrived since the last tick (the throttled plot update)."""
        live = self.live
        if live is None or not live.dirty:
            return
        live.dirty = False
        self.plot_updates += 1
        self.plot.set_history(live.key, live.history)
        last = live.history[-1]
        if live.total:   # iterations done of at most max_iter (a run may stop earlier, when it converges)
            self.progress.setValue(min(len(live.history), live.total))
        scores = " · ".join(f"{k} {last[k]:.4f}" for k in ("nll", "cnll") if k in last)
        self.status.setText(f"{live.label}: iteration {last['iteration']} · {scores}")

    def _finish_live(self) -> LiveRun | None:
        self.timer.stop()
        live, self.live = self.live, None
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.hide()
        self._update_buttons()
        return live

    def _on_finished(self, outcome) -> None:
        live = self._finish_live()
        if live is None or live.generation != self._generation:
            return   # the document changed network meanwhile: this run belongs to no project
        record = RunRecord.from_outcome(outcome)
        record.key = live.key
        self.plot.set_history(record.key, record.history)
        self.runs.append(record)
        self._store_runs()
        self._refresh_tables()
        self.results.select_run(len(self.runs) - 1)
        self.status.setText(f"{record.label}: {record.n_iterations} iteration(s), {stop_text(record.stop_reason)}, "
                            f"{record.seconds:.2f} s")
        self.run_finished.emit(record)

    def _give_back(self, live: LiveRun) -> None:
        """A run that did not finish leaves no curve and gives its number back."""
        self.plot.remove_run(live.key)
        if live.key == self._keys:
            self._keys -= 1

    def _on_failed(self, exc: BaseException) -> None:
        live = self._finish_live()
        if live is not None:
            self._give_back(live)
        self.status.setText("")
        if isinstance(exc, BNStudioError):
            self.message_bar.show_message("error", str(exc))
        else:
            dialogs.show_error(self, "Training failed", f"{type(exc).__name__}: {exc}")
        self.run_failed.emit(exc)

    def _on_cancelled(self) -> None:
        live = self._finish_live()
        if live is not None:
            self._give_back(live)
        if live is not None and live.generation == self._generation:   # not a run of a network closed since
            self.status.setText(f"{live.label} cancelled after {len(live.history)} iteration(s); "
                                "the network is unchanged.")
        self.run_cancelled.emit()

    # ------------------------------------------------------------------ runs
    def apply_run(self, index: int) -> bool:
        """Set the network's parameters to run ``index``'s (one undoable command)."""
        run = self.runs[index]
        if run.result is None:
            self.message_bar.show_message("warning", f"{run.label} was stored without its parameters (an older "
                                                     "project file): it keeps its history only")
            return False
        gone = [v for v in run.result.cpts if v not in self.document.network]
        if gone:
            self.message_bar.show_message("error", f"{run.label} sets variable(s) the network no longer has: "
                                                   f"{', '.join(gone)}")
            return False
        return self.document.execute(ApplyParameters(self.document, run.result.cpts, run.result.alpha, run.label))

    def remove_run(self, index: int) -> None:
        run = self.runs.pop(index)
        self.plot.remove_run(run.key)
        self._store_runs()
        self._refresh_tables()

    def load_project_runs(self) -> None:
        """Show the runs of ``document.project`` (called when the document opens another network)."""
        self._generation += 1
        self.jobs.cancel()
        self.plot.clear()
        self.learning.clear()
        view = getattr(self.document.project, "view", None) or {}
        if view.get("training_method") in METHODS:   # an example made to watch one method (clgd) offers it
            self.options.set_method(view["training_method"])
        stored = getattr(self.document.project, "runs", None) or []
        self.runs = []
        for k, doc in enumerate(stored):
            self._keys += 1
            record = RunRecord.from_json(doc, k + 1)
            record.key = self._keys
            self.plot.add_run(record.key, record.label, self.plot.colour(record.key - 1))
            self.plot.set_history(record.key, record.history)
            self.runs.append(record)
        self._refresh_tables()

    def forget_document(self) -> None:
        """The open network is being replaced: no status line, message or progress of its runs stays."""
        self.jobs.cancel()
        self.learning.clear()
        self.status.setText("")
        self.message_bar.hide()
        self.progress.hide()

    def _store_runs(self) -> None:
        if self.document.project is None:
            from bnstudio.io.project import project_from_network
            self.document.project = project_from_network(self.document.network)
        self.document.project.runs = [r.to_json() for r in self.runs]
        self.document.note_session_change()

    def _refresh_tables(self) -> None:
        colours = [self.plot.colour(r.key - 1) for r in self.runs]
        self.curves.set_runs(self.runs, colours)        # first: the table's selection then picks its run
        self.results.set_runs(self.runs, colours)
        self.compare.set_runs(self.runs, self.document.network)

    def _update_buttons(self) -> None:
        running = self.jobs.running
        self.run_button.setEnabled(not running and self.selection is not None)
        self.cancel_button.setEnabled(running)
        self.options.setEnabled(not running)

    def shutdown(self) -> None:
        """Cancel a run in progress and wait for its thread (call before the panel goes away)."""
        self.timer.stop()
        self.jobs.shutdown()
        self.learning.shutdown()

    def closeEvent(self, event) -> None:  # Qt override
        self.shutdown()
        super().closeEvent(event)
