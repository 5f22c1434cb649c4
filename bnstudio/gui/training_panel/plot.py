"""Live convergence curves: mean NLL (top) and mean conditional NLL of the target (bottom) per iteration,
training solid and validation dashed, one colour per run, and a legend line above the plots naming the runs
(outside the plots, so it never hides a curve).

Curves are created once per run and then only updated with ``setData`` (pyqtgraph's fast path); the panel
throttles updates to about 20 per second.
"""
from __future__ import annotations

import html
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from bnstudio.gui.training_panel.runs import SERIES, history_series

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
           "#7f7f7f", "#bcbd22")


class ConvergencePlot(QWidget):
    """Two x-linked plots; :meth:`add_run` creates a run's curves, :meth:`set_history` updates them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = pg.GraphicsLayoutWidget()
        self.plots = {"nll": self.view.addPlot(row=0, col=0), "cnll": self.view.addPlot(row=1, col=0)}
        self.legend = QLabel()                 # one line above the plots: it never hides a curve
        self.labels: dict[Any, tuple[str, str]] = {}   # run key -> (label, colour), in legend order
        self.curves: dict[Any, dict[str, pg.PlotDataItem]] = {}
        self._compose()

    def _compose(self) -> None:
        self.view.setBackground("w")
        titles = {"nll": "Mean NLL per case", "cnll": "Mean conditional NLL of the target"}
        for key, plot in self.plots.items():
            plot.setTitle(titles[key], size="9pt", color="#333333")
            plot.showGrid(x=True, y=True, alpha=0.25)
            plot.setLabel("left", "nats", color="#333333")
            for axis in ("left", "bottom"):   # iterations and nats as they are (an empty plot read "x0.001")
                plot.getAxis(axis).enableAutoSIPrefix(False)
            for axis in ("left", "bottom"):
                plot.getAxis(axis).setTextPen("#333333")
                plot.getAxis(axis).setPen("#888888")
        self.plots["cnll"].setLabel("bottom", "iteration", color="#333333")
        self.plots["cnll"].setXLink(self.plots["nll"])
        self.legend.setWordWrap(True)
        self.legend.setStyleSheet("QLabel { background: white; padding: 4px 8px; }")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.legend)
        layout.addWidget(self.view, 1)
        self._update_legend()

    def add_run(self, key: Any, label: str, colour: str) -> None:
        """Create the run's four curves (empty); only the training NLL curve enters the legend."""
        self.remove_run(key)
        curves = {}
        for name, plot, dashed in SERIES:
            pen = pg.mkPen(colour, width=2, style=Qt.DashLine if dashed else Qt.SolidLine)
            curves[name] = self.plots[plot].plot([], [], pen=pen, symbol="o", symbolSize=4, symbolPen=None,
                                                 symbolBrush=colour)
        self.curves[key] = curves
        self.labels[key] = (label, colour)
        self._update_legend()

    def set_history(self, key: Any, history: list[dict[str, Any]]) -> None:
        """Show ``history`` (entries as in ``FitResult.history``) on the run's curves."""
        for name, curve in self.curves.get(key, {}).items():
            x, y = history_series(history, name)
            curve.setData(x, y)
            curve.setSymbolSize(9 if len(x) == 1 else 4)   # a closed-form run is a single visible point

    def remove_run(self, key: Any) -> None:
        """Delete the run's curves (and its legend entry)."""
        curves = self.curves.pop(key, {})
        if self.labels.pop(key, None) is not None:
            self._update_legend()
        for name, plot, _dashed in SERIES:
            if name in curves:
                self.plots[plot].removeItem(curves[name])

    def clear(self) -> None:
        """No runs, and the axes back to their empty range (not the last network's)."""
        for key in list(self.curves):
            self.remove_run(key)
        for plot in self.plots.values():
            plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=0)
            plot.enableAutoRange()

    def legend_labels(self) -> list[str]:
        """The run labels in the legend, in order."""
        return [label for label, _colour in self.labels.values()]

    def _update_legend(self) -> None:
        runs = "&nbsp;&nbsp; ".join(f"<span style='color:{colour}'>&#9632;</span>&nbsp;{html.escape(label)}"
                                    for label, colour in self.labels.values())
        self.legend.setText(f"{runs or 'No runs yet'} &nbsp;&nbsp;<span style='color:#666666'>"
                            "(solid: training, dashed: validation)</span>")

    def point_counts(self, key: Any) -> dict[str, int]:
        """Points on each of the run's curves (for tests and status)."""
        return {name: len(curve.xData) if curve.xData is not None else 0
                for name, curve in self.curves.get(key, {}).items()}

    def colour(self, index: int) -> str:
        return PALETTE[index % len(PALETTE)]
