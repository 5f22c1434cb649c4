"""The Time panel of a two-slice network (2TBN, docs/temporal.md "In the app"): T slices, the evidence of each
slice, filtering or smoothing, a slider over the slices that puts a slice's beliefs on the canvas, and the
belief of a chosen state across time.

The evidence is a table loaded from a CSV (matched by column name, :mod:`bnstudio.temporal.evidence`; read and
saved by :mod:`bnstudio.temporal.evidence_file`) and edited cell by cell (a click on a cell of the timeline
offers "unobserved" and the variable's states), plus, optionally, the canvas's findings: ``X0``'s in slice 0,
``Xt``'s in a chosen slice (:func:`bnstudio.temporal.timeline.timeline_codes`). Every change of the inputs, the
network or (when used) the canvas's findings runs :func:`~bnstudio.temporal.timeline.beliefs_and_band` again
as a Qt-free job on the generic worker (:class:`~bnstudio.gui.job_slot.JobSlot`), cancellable; a request made
while a job runs cancels it and runs once it has ended. The panel computes no probability itself.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QActionGroup
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QMenu,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from bnstudio.errors import BNStudioError
from bnstudio.gui.document import Document
from bnstudio.gui.job_slot import JobSlot
from bnstudio.gui.message_bar import MessageBar
from bnstudio.gui.time_panel.plot import BeliefOverTime
from bnstudio.io.genie.xdsl_dynamic import slice_count
from bnstudio.temporal.errorbars import TemporalBars
from bnstudio.temporal.forward_backward import TemporalBeliefs
from bnstudio.temporal.model import TwoSliceNetwork
from bnstudio.temporal.timeline import MODES, as_two_slice, beliefs_and_band, has_counts, slice_view, timeline_codes

MAX_SLICES = 1_000_000
#: rows of the evidence table drawn (a long sequence is computed whole, shown in part)
TABLE_ROWS = 500
DEBOUNCE_MS = 150


class TimePanel(QWidget):
    """See the module docstring. ``result`` and ``codes`` are the beliefs and the evidence shown (None before
    the first answer or after the network went)."""

    computed = Signal()        # a result is shown

    def __init__(self, document: Document, plate: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document, self.plate = document, plate
        self.tbn: TwoSliceNetwork | None = None
        self.table: Any = None               # the loaded evidence (codes aligned to the radicals), or None
        self.table_name = ""
        self.cell_menu: QMenu | None = None      # the menu of the evidence cell last clicked
        self.result: TemporalBeliefs | None = None
        self.codes: np.ndarray | None = None
        self.bars: TemporalBars | None = None    # the plotted belief's error band (a 2TBN with Dirichlet counts)
        self.jobs = JobSlot(self)
        self._pending = False
        self._generation = 0                 # a job started for an earlier network is never shown
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.compute)
        self._compose()
        self._connect()
        self.set_network()

    # ------------------------------------------------------------------ building
    def _compose(self) -> None:
        # labels do not wrap: a wrapping label makes the scroll area size the panel to its preferred height,
        # which pushed the plot under the dock's bottom edge at 1366x768
        self.about = QLabel()
        self.messages = MessageBar()
        self.slices = QSpinBox(minimum=1, maximum=MAX_SLICES, value=10)
        self.mode = QComboBox()
        self.mode.addItems(["Smoothing: p(Xₜ | all evidence)", "Filtering: p(Xₜ | evidence up to t)"])
        self.load_button, self.clear_button = QPushButton("Load evidence CSV…"), QPushButton("Clear")
        self.save_button = QPushButton("Save evidence CSV…")
        self.save_button.setToolTip("Save the evidence table of the T slices as a CSV that Load reads back "
                                    "(one row per slice, blank: unobserved)")
        self.table_label = QLabel()
        for label in (self.about, self.table_label):      # a long text is cut (whole in its tooltip), never
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)   # widens the dock
        self._table_text("No evidence table")
        self.use_canvas = QCheckBox("Canvas findings: X0 in slice 0, Xt in slice")
        self.at = QSpinBox(minimum=1, maximum=MAX_SLICES - 1, value=1)
        self.cancel_button = QPushButton("Cancel")
        self.progress = QProgressBar()
        self.progress.setMaximumHeight(14)
        self.progress.setTextVisible(False)
        self.status = QLabel()
        self.evidence_view = QTableWidget()
        self.evidence_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.evidence_view.setFixedHeight(60)
        self.evidence_view.viewport().setCursor(Qt.CursorShape.PointingHandCursor)
        self.evidence_view.horizontalHeader().setMinimumSectionSize(36)    # an empty cell is still easy to hit
        self.evidence_caption = QLabel("Evidence by slice (click a cell to set or clear it)")
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, 0)
        self.slice_label = QLabel("slice 0")
        self.on_canvas = QCheckBox("on the canvas")
        self.on_canvas.setChecked(True)
        self.on_canvas.setToolTip("Show this slice's beliefs on the canvas: Xt in slice t, X0 in slice 0")
        self.variable, self.state = QComboBox(), QComboBox()
        self.plot = BeliefOverTime()
        self.plot.widget.setMinimumHeight(180)
        form = QFormLayout()
        form.addRow("Slices T", self.slices)
        form.addRow("Mode", self.mode)
        # the buttons on one row, the table's name under them: at 1366x768 the dock is about 370 pixels wide
        loads = QHBoxLayout()
        loads.addWidget(self.load_button)
        loads.addWidget(self.save_button)
        loads.addStretch(1)
        form.addRow("Evidence", loads)
        table = QHBoxLayout()
        table.addWidget(self.clear_button)
        table.addWidget(self.table_label, 1)
        form.addRow("", table)
        canvas = QHBoxLayout()
        canvas.addWidget(self.use_canvas)
        canvas.addWidget(self.at)
        canvas.addStretch(1)
        running = QHBoxLayout()
        running.addWidget(self.progress, 1)
        running.addWidget(self.cancel_button)
        slider = QHBoxLayout()
        slider.addWidget(QLabel("Slice"))
        slider.addWidget(self.slider, 1)
        slider.addWidget(self.slice_label)
        slider.addWidget(self.on_canvas)
        choice = QHBoxLayout()
        choice.addWidget(QLabel("Plot"))
        choice.addWidget(self.variable, 1)
        choice.addWidget(self.state, 1)
        layout = QVBoxLayout(self)
        for part in (self.about, self.messages, form, canvas, running, self.status, self.evidence_caption,
                     self.evidence_view, slider, choice, self.plot.widget):
            if isinstance(part, QLayout):
                layout.addLayout(part)
            else:
                layout.addWidget(part)
        layout.setStretchFactor(self.plot.widget, 1)
        self.progress.hide()
        self.cancel_button.hide()

    def _connect(self) -> None:
        doc = self.document
        self.slices.valueChanged.connect(lambda value: self.at.setMaximum(max(1, value - 1)))
        self.slices.valueChanged.connect(lambda _v: self.request())
        self.mode.currentIndexChanged.connect(lambda _i: self.request())
        self.use_canvas.toggled.connect(lambda _on: self.request())
        self.at.valueChanged.connect(lambda _v: self.request() if self.use_canvas.isChecked() else None)
        self.load_button.clicked.connect(self.open_file)
        self.save_button.clicked.connect(self.save_file)
        self.clear_button.clicked.connect(self.clear_table)
        self.cancel_button.clicked.connect(self.cancel)
        self.slider.valueChanged.connect(self.show_slice)
        self.evidence_view.cellClicked.connect(self.edit_cell)
        self.on_canvas.toggled.connect(lambda _on: self.show_slice(self.slider.value()))
        self.variable.currentIndexChanged.connect(self._fill_states)
        self.state.currentIndexChanged.connect(lambda _i: self._plot())
        doc.network_changed.connect(self._on_network_changed)
        doc.evidence_changed.connect(lambda: self.request() if self.use_canvas.isChecked() else None)

    # ------------------------------------------------------------------ the network
    @property
    def mode_name(self) -> str:
        return MODES[self.mode.currentIndex()]

    def set_network(self) -> None:
        """Start over for the document's network: everything of the previous one goes."""
        self.forget_document()
        self.tbn = as_two_slice(self.document.network)
        tbn = self.tbn
        enabled = tbn is not None
        for widget in (self.slices, self.mode, self.load_button, self.clear_button, self.use_canvas, self.at,
                       self.slider, self.on_canvas, self.variable, self.state):
            widget.setEnabled(enabled)
        self.save_button.setEnabled(False)      # until there is a table to save
        if tbn is None:
            self._about_text("The open network is not a two-slice network:\nname its variables X0 (slice 0) "
                             "and Xt (slice t) to see it over time.")
            return
        self._about_text(f"<b>{self.document.network.name}</b>: {len(tbn.radicals)} variables per slice "
                         f"({_listed(tbn.radicals)}); interface {_listed(tbn.interface) or 'none'}.")
        self.variable.blockSignals(True)
        self.variable.addItems(list(tbn.radicals))
        self.variable.blockSignals(False)
        self._fill_states()
        count = slice_count(self.document.network)      # numslices of a GeNIe dynamic network
        if count is not None:
            self._set_slices(count)
        self._load_sibling_table()
        self.request()

    def _about_text(self, text: str) -> None:
        self.about.setText(text)
        self.about.setToolTip(text)

    def forget_document(self) -> None:
        """Nothing of the open network stays: the job is cancelled, the table, answer, plot and slice cleared."""
        self._timer.stop()
        self._pending = False
        self._generation += 1
        self.jobs.cancel()
        self.tbn, self.table, self.table_name, self.result, self.codes = None, None, "", None, None
        self.bars = None
        self.messages.hide()
        self.status.setText("")
        self._table_text("No evidence table")
        self.save_button.setEnabled(False)
        self.evidence_view.clear()
        self.evidence_view.setRowCount(0)
        self.evidence_view.setColumnCount(0)
        for box in (self.variable, self.state):
            box.blockSignals(True)
            box.clear()
            box.blockSignals(False)
        self.slider.blockSignals(True)
        self.slider.setRange(0, 0)
        self.slider.blockSignals(False)
        self.slice_label.setText("slice 0")
        self.plot.clear()
        self.plate.show_slice(None)

    def _on_network_changed(self, event: Any) -> None:
        if event.structural and (as_two_slice(self.document.network) is None) != (self.tbn is None):
            self.set_network()
        elif self.tbn is not None:
            tbn = as_two_slice(self.document.network)
            if tbn is None or tbn.radicals != self.tbn.radicals:
                self.set_network()
                return
            self.tbn = tbn
            self.request()

    def _load_sibling_table(self) -> None:
        """A network X.bif opened with an evidence file X.csv beside it (the bundled examples have one) starts
        with that table, if its columns are variables of the network (else nothing is said or loaded)."""
        path = self.document.path
        table = None if path is None else Path(path).with_suffix(".csv")
        if table is not None and table.is_file():
            self.load_table(table, quiet=True)

    # ------------------------------------------------------------------ evidence
    def open_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Evidence over time", "", "CSV files (*.csv);;All files (*)")
        if path:
            self.load_table(path)

    def load_table(self, path: str | Path, quiet: bool = False) -> bool:
        """Read a CSV of evidence, one row per slice, columns matched to the variables by name (blank:
        unobserved); T becomes its number of rows. A bad file is named in one line (unless ``quiet``) and
        changes nothing."""
        from bnstudio.temporal.evidence import evidence_codes
        from bnstudio.temporal.evidence_file import read_evidence_csv

        if self.tbn is None:
            return False
        try:
            frame = read_evidence_csv(path)
            codes = evidence_codes(self.tbn, frame)
        except (BNStudioError, OSError, ValueError) as exc:
            if not quiet:
                self.messages.show_message("warning", f"{Path(path).name}: {exc}")
            return False
        self.messages.hide()
        self.table, self.table_name = codes, Path(path).name
        self._table_text(f"{self.table_name}: {len(codes)} slices, {_listed([str(c) for c in frame.columns])}")
        self.save_button.setEnabled(True)
        self._set_slices(len(codes))
        self.request()
        return True

    def _table_text(self, text: str) -> None:
        self.table_label.setText(text)
        self.table_label.setToolTip(text)

    def _set_slices(self, count: int) -> None:
        """T = ``count`` (at least 1, at most :data:`MAX_SLICES`) without computing yet."""
        self.slices.blockSignals(True)
        self.slices.setValue(min(max(1, count), MAX_SLICES))
        self.slices.blockSignals(False)
        self.at.setMaximum(max(1, self.slices.value() - 1))

    def save_file(self) -> None:
        """Ask where, then :meth:`save_table` (the document's folder and name first: ``X.csv`` beside ``X.xdsl``
        is loaded with it next time)."""
        path = self.document.path
        start = Path(path) if path is not None else Path(self.table_name.removesuffix(" (edited)") or "evidence")
        start = start.with_suffix(".csv")
        chosen, _ = QFileDialog.getSaveFileName(self, "Save evidence over time", str(start),
                                                "CSV files (*.csv);;All files (*)")
        if chosen:
            self.save_table(chosen if Path(chosen).suffix else chosen + ".csv")

    def save_table(self, path: str | Path) -> bool:
        """Write the evidence table of the T slices (without the canvas's findings) to ``path`` as a CSV that
        :meth:`load_table` reads back to the same cells; a failure is said in one line."""
        from bnstudio.temporal.evidence_file import write_evidence_csv

        if self.tbn is None or self.table is None:
            return False
        codes = timeline_codes(self.tbn, self.slices.value(), self.table)
        try:
            write_evidence_csv(self.tbn, codes, path)
        except (BNStudioError, OSError) as exc:
            self.messages.show_message("warning", f"{Path(path).name}: {exc}")
            return False
        self.messages.hide()
        self.table_name = Path(path).name
        self._table_text(f"{self.table_name}: saved, {int((codes >= 0).sum())} cells observed in {len(codes)} "
                         f"slices")
        return True

    def edit_cell(self, row: int, column: int) -> None:
        """A click on the timeline's cell (variable ``row``, slice ``column``): a menu of "unobserved" and the
        variable's states, the cell's own checked; choosing one calls :meth:`set_cell`."""
        if self.tbn is None or self.codes is None or column >= len(self.codes) or row >= len(self.tbn.radicals):
            return
        radical = self.tbn.radicals[row]
        current = int(self.codes[column, row])
        menu = QMenu(self)
        menu.addSection(f"{radical} in slice {column}")
        group = QActionGroup(menu)          # one choice per cell, shown as radio items
        choices: list[tuple[str, str | None, bool]] = [("unobserved", None, current < 0)]
        choices += [(state, state, k == current) for k, state in enumerate(self.tbn.states(radical))]
        for label, state, checked in choices:
            action = menu.addAction(label)
            group.addAction(action)
            action.setCheckable(True)
            action.setChecked(checked)
            action.triggered.connect(functools.partial(self.set_cell, column, radical, state))
        if self.cell_menu is not None:
            self.cell_menu.deleteLater()
        self.cell_menu = menu
        view = self.evidence_view
        menu.popup(view.viewport().mapToGlobal(view.visualRect(view.model().index(row, column)).bottomLeft()))

    def set_cell(self, t: int, radical: str, state: str | None, _checked: bool = False) -> None:
        """Observe ``radical`` = ``state`` in slice ``t`` (None: unobserved) in the evidence table, which grows
        to T rows if it is shorter (or is made, all unobserved), and compute again."""
        if self.tbn is None:
            return
        n, rows = len(self.tbn.radicals), self.slices.value()
        codes = np.full((max(rows, t + 1, 0 if self.table is None else len(self.table)), n), -1, dtype=np.int64)
        if self.table is not None:
            codes[:len(self.table)] = self.table
        column = self.tbn.radicals.index(radical)
        codes[t, column] = -1 if state is None else self.tbn.states(radical).index(state)
        self.table = codes
        self.table_name = (self.table_name.removesuffix(" (edited)") or "evidence") + " (edited)"
        observed = int((codes[:rows] >= 0).sum())
        self._table_text(f"{self.table_name}: {observed} cells observed in {rows} slices")
        self.save_button.setEnabled(True)
        item = self.evidence_view.item(column, t)
        if item is not None:
            item.setText(state or "")
        self.request()

    def clear_table(self) -> None:
        self.table, self.table_name = None, ""
        self._table_text("No evidence table")
        self.save_button.setEnabled(False)
        self.request()

    def timeline(self) -> np.ndarray:
        """The (T, n) codes the next computation uses (one-line error for a finding that cannot be used)."""
        assert self.tbn is not None
        findings = dict(self.document.evidence) if self.use_canvas.isChecked() else None
        return timeline_codes(self.tbn, self.slices.value(), self.table, findings, self.at.value())

    # ------------------------------------------------------------------ computing
    def request(self) -> None:
        """Compute again soon (several changes in a row make one job)."""
        if self.tbn is not None:
            self._timer.start()

    def compute(self) -> None:
        """Start the job for the inputs as they are now (a running job is cancelled and this runs after it)."""
        if self.tbn is None:
            return
        if self.jobs.running:
            self._pending = True
            self.jobs.cancel()
            return
        try:
            codes = self.timeline()
        except BNStudioError as exc:
            self.messages.show_message("warning", str(exc))
            self._show(None, None)
            return
        self.messages.hide()
        job = functools.partial(beliefs_and_band, self.tbn, codes, self.mode_name, self._band_key())
        self.status.setText(f"Computing {self.mode_name} over {len(codes):,} slices…")
        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.show()
        generation = self._generation
        self.jobs.start(job, finished=lambda answer: self._finished(answer, codes, generation),
                        failed=lambda exc: self._failed(exc, generation), cancelled=self._cancelled)

    def cancel(self) -> None:
        self._pending = False
        self.jobs.cancel()

    def _ended(self) -> bool:
        """The job ended: hide the progress; True when another request is waiting (then it runs)."""
        self.progress.hide()
        self.cancel_button.hide()
        if self._pending:
            self._pending = False
            self.compute()
            return True
        return False

    def _finished(self, answer: tuple[TemporalBeliefs, TemporalBars | None], codes: np.ndarray,
                  generation: int) -> None:
        if not self._ended() and generation == self._generation:
            self.bars = answer[1]
            self._show(answer[0], codes)

    def _band_key(self) -> tuple[str, str] | None:
        """The plotted (variable, state) whose error band the next job computes, when the 2TBN has counts."""
        name, state = self.variable.currentText(), self.state.currentText()
        if self.tbn is None or not has_counts(self.tbn) or name not in self.tbn.radicals or not state:
            return None
        return name, state

    def _failed(self, exc: BaseException, generation: int) -> None:
        if self._ended() or generation != self._generation:
            return
        if not isinstance(exc, BNStudioError):
            raise exc
        self.messages.show_message("warning", str(exc))
        self.status.setText("")
        self._show(None, None)

    def _cancelled(self) -> None:
        if not self._ended() and self.tbn is not None:
            self.status.setText("Cancelled: the beliefs shown are from before." if self.result is not None
                                else "Cancelled.")

    def shutdown(self) -> None:
        self._timer.stop()
        self.jobs.shutdown()

    # ------------------------------------------------------------------ showing
    def _show(self, result: TemporalBeliefs | None, codes: np.ndarray | None) -> None:
        self.result, self.codes = result, codes
        if result is None or codes is None:
            self.plot.clear()
            self.plate.show_slice(None)
            return
        self.status.setText(f"{result.kind.capitalize()} over {len(codes):,} slices; "
                            f"log p(evidence) = {result.log_likelihood:.6f}")
        self._fill_table(codes)
        k = min(self.slider.value(), len(codes) - 1)
        self.slider.blockSignals(True)
        self.slider.setRange(0, len(codes) - 1)
        self.slider.setValue(k)
        self.slider.blockSignals(False)
        self._plot()
        self.show_slice(k)
        self.computed.emit()

    def _fill_table(self, codes: np.ndarray) -> None:
        """The evidence as a timeline: one row per variable, one column per slice (blank: unobserved)."""
        tbn = self.tbn
        assert tbn is not None
        shown = codes[:TABLE_ROWS]
        view = self.evidence_view
        view.setRowCount(len(tbn.radicals))
        view.setColumnCount(len(shown))
        view.setVerticalHeaderLabels(list(tbn.radicals))
        view.setHorizontalHeaderLabels([str(t) for t in range(len(shown))])
        for j, radical in enumerate(tbn.radicals):
            states = tbn.states(radical)
            for t, code in enumerate(shown[:, j]):
                view.setItem(j, t, QTableWidgetItem(states[code] if code >= 0 else ""))
        view.resizeColumnsToContents()
        height = view.horizontalHeader().height() + sum(view.rowHeight(j) for j in range(view.rowCount()))
        wide = view.horizontalHeader().length() > view.viewport().width()    # a scroll bar under the slices
        view.setFixedHeight(min(height + (view.horizontalScrollBar().sizeHint().height() if wide else 0) + 4, 170))
        view.setToolTip((f"The first {TABLE_ROWS} of {len(codes):,} slices" if len(codes) > TABLE_ROWS else
                         "One column per slice; blank: unobserved") + ". Click a cell to set or clear its state.")

    def show_slice(self, k: int) -> None:
        """Slice ``k`` on the slider's label, the plot's mark and (when asked) the canvas."""
        self.slice_label.setText(f"slice {k}")
        if self.result is None or self.codes is None or self.tbn is None:
            return
        self.plot.set_slice(k)
        self.plate.show_slice(slice_view(self.tbn, self.result, self.codes, k) if self.on_canvas.isChecked()
                              else None)

    def _fill_states(self) -> None:
        self.state.blockSignals(True)
        self.state.clear()
        name = self.variable.currentText()
        if self.tbn is not None and name in self.tbn.radicals:
            self.state.addItems(list(self.tbn.states(name)))
        self.state.blockSignals(False)
        self._plot()

    def _plot(self) -> None:
        name, state = self.variable.currentText(), self.state.currentIndex()
        if self.result is None or self.codes is None or self.tbn is None or name not in self.result.beliefs \
                or state < 0:
            self.plot.clear()
            return
        j = self.tbn.radicals.index(name)
        observed = np.flatnonzero(self.codes[:, j] >= 0)
        given = "e₀..T−1" if self.result.kind == "smoothing" else "e₀..t"
        bars = self.bars
        band = bars if bars is not None and (bars.variable, bars.state) == (name, self.state.currentText()) else None
        self.plot.set_series(self.result.beliefs[name][:, state], observed,
                             f"p({name}ₜ = {self.state.currentText()} | {given})"
                             + (f"   band: {100 * band.level:g} % interval" if band is not None else ""))
        self.plot.set_band(_interval(band) if band is not None else None)
        self.plot.set_slice(self.slider.value())
        if band is None and self._band_key() is not None:
            self.request()          # another belief plotted: its band is computed with the beliefs again


def _interval(bars: TemporalBars) -> np.ndarray:
    """Each slice's Beta interval, or its normal one clipped to [0, 1] where no Beta fits (docs/uncertainty.md)."""
    return np.where(np.isnan(bars.beta), bars.normal_clipped, bars.beta)


def _listed(names: Any, first: int = 4) -> str:
    """The first few names, then how many more."""
    names = list(names)
    more = f" and {len(names) - first} more" if len(names) > first else ""
    return ", ".join(names[:first]) + more
