"""ROC and reliability curves of the runs' posteriors on the scored data part (the results tab's "Scores on").

Left, the one-vs-rest ROC of the chosen target state (true against false positive rate, the diagonal is
guessing); right, the reliability diagram of the predicted state's probability (mean confidence against the
share predicted right in ten bins, marker area growing with the bin's cases, the diagonal is calibrated) with
the cases per bin below it. The curves are computed by the run's job (:mod:`bnstudio.evaluate.curves`) or read
back with a reopened project's runs (:mod:`bnstudio.app.training.run_curves`); this view only draws them: the
selected run, or every run overlaid with "Compare runs". A run saved without curves (by an older BN Studio, or
whose curves were damaged) is named: it shows them once trained again.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QWidget

from bnstudio.app.training.runs import RunRecord
from bnstudio.evaluate.curves import Validation
from bnstudio.gui.training_panel.plotkit import PLOT_MIN_HEIGHT, RunLegend, plot_page, style

#: the cases-per-bin strip's height, shown where the plots are at least :data:`COUNTS_FROM` pixels high
COUNTS_HEIGHT = 90
COUNTS_FROM = 300
DIAGONAL = pg.mkPen("#999999", width=1, style=Qt.PenStyle.DashLine)


def marker_sizes(weight: np.ndarray) -> np.ndarray:
    """Marker diameters in pixels, area proportional to each bin's share of the cases (5 to 18 px)."""
    total = float(weight.sum())
    share = weight / total if total > 0 else np.zeros_like(weight)
    return 5.0 + 13.0 * np.sqrt(share)


class CurvesView(QWidget):
    """See the module docstring; :meth:`set_runs`, :meth:`set_part` and :meth:`set_selected` feed it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runs: list[RunRecord] = []
        self.colours: list[str] = []
        self.part = "test"
        self.selected: int | None = None
        self.state = QComboBox()
        self.compare = QCheckBox("Compare runs")
        self.note = QLabel()
        self.view = pg.GraphicsLayoutWidget()
        self.roc = self.view.addPlot(row=0, col=0, rowspan=2)
        self.reliability = self.view.addPlot(row=0, col=1)
        self.counts = self.view.addPlot(row=1, col=1)
        self.legend = RunLegend()
        self.items: list[Any] = []
        self._compose()
        self.state.currentIndexChanged.connect(self.redraw)
        self.compare.toggled.connect(self.redraw)

    def _compose(self) -> None:
        self.view.setBackground("w")
        self.view.setMinimumHeight(PLOT_MIN_HEIGHT)
        style(self.roc, "ROC (one state against the rest)", "true positive rate", "false positive rate")
        style(self.reliability, "Reliability", "share right")
        style(self.counts, "", "cases", "predicted probability")
        self.reliability.setLabel("bottom", "predicted probability", color="#333333")
        for plot in (self.roc, self.reliability):
            plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=0.02)
            plot.plot([0, 1], [0, 1], pen=DIAGONAL)
            plot.setMouseEnabled(False, False)
            plot.hideButtons()
        self.counts.setXLink(self.reliability)
        self.counts.setMaximumHeight(COUNTS_HEIGHT)
        self.counts.setMouseEnabled(False, False)
        self.counts.hideButtons()
        self.view.ci.layout.setRowStretchFactor(0, 3)
        self.view.ci.layout.setRowStretchFactor(1, 1)
        self.state.setToolTip("The target state whose one-vs-rest ROC is drawn")
        self.state.setMinimumContentsLength(8)
        self.state.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.compare.setToolTip("Overlay the curves of every run (else the run selected in the results table)")
        self.note.setWordWrap(True)
        self.note.setStyleSheet("QLabel { color: #555555; }")
        self.legend.empty = "No curves"
        self.legend.note.setText("diagonal: guessing (ROC), calibrated (reliability); marker area: cases")
        plot_page(self, [QLabel("ROC of"), self.state, self.compare, None], self.view, self.legend, [self.note])
        self.note.hide()

    def resizeEvent(self, event) -> None:  # Qt override
        super().resizeEvent(event)
        tall = self.view.height() >= COUNTS_FROM     # short: the marker areas alone say where the cases are
        self.counts.setVisible(tall)
        self.counts.setMaximumHeight(COUNTS_HEIGHT if tall else 0)
        self.reliability.showLabel("bottom", not tall)

    # ------------------------------------------------------------------ inputs
    def set_runs(self, runs: list[RunRecord], colours: list[str]) -> None:
        self.runs, self.colours = list(runs), list(colours)
        if self.selected is not None and self.selected >= len(self.runs):
            self.selected = None      # the table selects its run next
        self._offer_states()
        self.redraw()

    def set_part(self, part: str) -> None:
        self.part = part
        self._offer_states()
        self.redraw()

    def set_selected(self, run: int) -> None:
        self.selected = run if 0 <= run < len(self.runs) else None
        if not self.compare.isChecked():
            self.redraw()

    def _confidence_range(self, states: list[str]) -> None:
        """The predicted state's probability is at least 1/K: the reliability axis starts there."""
        low = 1.0 / len(states) if states else 0.0
        self.reliability.setXRange(max(low - 0.02, 0.0), 1.0, padding=0.02)

    def _offer_states(self) -> None:
        """The target's states (from the first run with curves), keeping the chosen one; the first by default."""
        states = next((list(v.states) for r in self.runs if (v := r.validation.get(self.part)) is not None), [])
        current = self.state.currentText()
        self._confidence_range(states)
        if states == [self.state.itemText(i) for i in range(self.state.count())]:
            return
        self.state.blockSignals(True)
        self.state.clear()
        self.state.addItems(states)
        self.state.setCurrentIndex(states.index(current) if current in states else 0)
        self.state.blockSignals(False)

    def shown_runs(self) -> list[int]:
        """The runs drawn: every run with curves on the part (compare), else the selected one if it has them."""
        wanted = range(len(self.runs)) if self.compare.isChecked() else (
            [self.selected] if self.selected is not None else [])
        return [k for k in wanted if self.part in self.runs[k].validation]

    # ------------------------------------------------------------------ drawing
    def redraw(self, *_args: Any) -> None:
        for plot, item in self.items:
            plot.removeItem(item)
        self.items = []
        shown = self.shown_runs()
        entries = {}
        for k in shown:
            run, c = self.runs[k], self.colours[k % len(self.colours)] if self.colours else "#1f77b4"
            self._draw(run.validation[self.part], c)
            entries[k] = (run.label, c)
        self.legend.set_entries(entries)
        self.counts.enableAutoRange(axis="y")
        self.note.setText(self._explain(shown))
        self.note.setVisible(bool(self.note.text()))

    def _add(self, plot: pg.PlotItem, *args: Any, **kwargs: Any) -> None:
        self.items.append((plot, plot.plot(*args, **kwargs)))

    def _draw(self, validation: Validation, colour: str) -> None:
        state = self.state.currentText()
        curve = next((c for c in validation.rocs if c.state == state), None)
        if curve is not None:
            self._add(self.roc, curve.fpr, curve.tpr, pen=pg.mkPen(colour, width=2))
        bins = validation.reliability
        filled = bins.weight > 0
        if filled.any():
            self._add(self.reliability, bins.confidence[filled], bins.accuracy[filled], pen=pg.mkPen(colour, width=2),
                      symbol="o", symbolSize=marker_sizes(bins.weight)[filled], symbolPen=None, symbolBrush=colour)
        self._add(self.counts, bins.edges, bins.weight, stepMode="center", pen=pg.mkPen(colour, width=2))

    def _explain(self, shown: list[int]) -> str:
        if not self.runs:
            return "Train a run with a target and held-out rows to see its ROC and reliability curves."
        wanted = range(len(self.runs)) if self.compare.isChecked() else (
            [self.selected] if self.selected is not None else [])
        missing = [self.runs[k].label for k in wanted if self._lost(self.runs[k])]
        if missing:
            return (f"No curves for {', '.join(missing)}: saved without them (by an older BN Studio, or dropped "
                    "as damaged when the project was opened); the AUC and ECE are in the table, train again to "
                    "draw them.")
        if shown:
            return ""
        if self.selected is None and not self.compare.isChecked():
            return "Select a run in the results table, or tick “Compare runs”."
        return (f"No curves on the {self.part} rows: they need a target and rows of that part (choose another "
                "part under “Scores on”).")

    def _lost(self, run: RunRecord) -> bool:
        """Whether ``run`` was scored with a target on the part (it has an ECE there) but has no curves for it."""
        return self.part not in run.validation and (run.metrics.get(self.part) or {}).get("ece") is not None
