"""Live convergence curves: mean NLL and mean conditional NLL of the target per iteration, training solid and
validation dashed, one colour per run, with the run legend beside the plots (:class:`~.plotkit.RunLegend`).

The two plots stand side by side where the widget is wide enough (:data:`SIDE_BY_SIDE_FROM`), else one above
the other; either way each keeps :data:`~.plotkit.PLOT_MIN_HEIGHT`. Iterations are whole numbers on the axis.
A run whose last value lies far from the others' (:func:`~.scaling.off_scale`) is left out of the y range and
named under the legend ("Fit every run" puts it back), so one outlier does not flatten the rest.

Curves are created once per run and then only updated with ``setData`` (pyqtgraph's fast path); the panel
throttles updates to about 20 per second.
"""
from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QWidget

from bnstudio.app.training.runs import SERIES, history_series
from bnstudio.app.training.scaling import off_scale, y_range
from bnstudio.gui.training_panel.plotkit import PLOT_MIN_HEIGHT, IntegerAxis, RunLegend, colour, style

#: from this width of the plot area the two plots stand side by side
SIDE_BY_SIDE_FROM = 400
TITLES = {"nll": "Mean NLL per case", "cnll": "Mean conditional NLL of the target"}


class ConvergencePlot(QWidget):
    """Two x-linked plots; :meth:`add_run` creates a run's curves, :meth:`set_history` updates them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = pg.GraphicsLayoutWidget()
        self.plots = {key: pg.PlotItem(axisItems={"bottom": IntegerAxis("bottom")}) for key in TITLES}
        self.legend = RunLegend("solid: training\ndashed: validation")
        self.fit_all = QCheckBox("Fit every run")
        self.off_note = QLabel()
        self.labels: dict[Any, tuple[str, str]] = {}   # run key -> (label, colour), in legend order
        self.curves: dict[Any, dict[str, pg.PlotDataItem]] = {}
        self.off: dict[str, list[Any]] = {"nll": [], "cnll": []}   # runs left out of each plot's y range
        self.side_by_side: bool | None = None
        self._compose()
        self.fit_all.toggled.connect(self._rescale)

    def _compose(self) -> None:
        self.view.setBackground("w")
        self.view.setMinimumHeight(PLOT_MIN_HEIGHT)
        for key, plot in self.plots.items():
            style(plot, TITLES[key], "nats", "iteration")
        self.plots["cnll"].setXLink(self.plots["nll"])
        self.off_note.setWordWrap(True)
        self.off_note.setStyleSheet("QLabel { color: #8a4b00; background: white; }")
        self.fit_all.setToolTip("Scale the y axes to every run, also one far from the others")
        self.fit_all.setStyleSheet("QCheckBox { background: white; }")
        self.legend.add_below(self.off_note)
        self.legend.add_below(self.fit_all)
        self.off_note.hide()
        self.fit_all.hide()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.legend)
        self._arrange(False)

    def _arrange(self, side_by_side: bool) -> None:
        """Put the plots side by side or one above the other."""
        if side_by_side == self.side_by_side:
            return
        self.side_by_side = side_by_side
        for plot in self.plots.values():
            if plot.scene() is not None:
                self.view.removeItem(plot)
        self.view.addItem(self.plots["nll"], row=0, col=0)
        self.view.addItem(self.plots["cnll"], row=0 if side_by_side else 1, col=1 if side_by_side else 0)
        self.view.setMinimumHeight(PLOT_MIN_HEIGHT if side_by_side else 2 * PLOT_MIN_HEIGHT)

    def resizeEvent(self, event) -> None:  # Qt override
        super().resizeEvent(event)
        self._arrange(self.view.width() >= SIDE_BY_SIDE_FROM)

    def add_run(self, key: Any, label: str, colour: str) -> None:
        """Create the run's four curves (empty) and its legend line."""
        self.remove_run(key)
        curves = {}
        for name, plot, dashed in SERIES:
            pen = pg.mkPen(colour, width=2, style=Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine)
            curves[name] = self.plots[plot].plot([], [], pen=pen, symbol="o", symbolSize=4, symbolPen=None,
                                                 symbolBrush=colour)
        self.curves[key] = curves
        self.labels[key] = (label, colour)
        self.legend.set_entries(self.labels)

    def set_history(self, key: Any, history: list[dict[str, Any]]) -> None:
        """Show ``history`` (entries as in ``FitResult.history``) on the run's curves."""
        for name, curve in self.curves.get(key, {}).items():
            x, y = history_series(history, name)
            curve.setData(x, y)
            curve.setSymbolSize(9 if len(x) == 1 else 4)   # a closed-form run is a single visible point
        self._rescale()

    def remove_run(self, key: Any) -> None:
        """Delete the run's curves (and its legend entry)."""
        curves = self.curves.pop(key, {})
        if self.labels.pop(key, None) is not None:
            self.legend.set_entries(self.labels)
        for name, plot, _dashed in SERIES:
            if name in curves:
                self.plots[plot].removeItem(curves[name])
        self._rescale()

    def clear(self) -> None:
        """No runs, and the axes back to their empty range (not the last network's)."""
        for key in list(self.curves):
            self.remove_run(key)
        for plot in self.plots.values():
            plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=0)
            plot.enableAutoRange()

    def _rescale(self, *_args: Any) -> None:
        """Each plot's y range over the runs that are not off the scale (module docstring)."""
        notes = []
        for plot_key, plot in self.plots.items():
            points: dict[Any, list[float]] = {}
            last: dict[Any, float] = {}
            for key, curves in self.curves.items():
                ys = [curves[n].yData for n, p, _d in SERIES if p == plot_key and curves[n].yData is not None]
                points[key] = [float(v) for y in ys for v in y]
                train = curves[plot_key].yData
                if train is not None and len(train):
                    last[key] = float(train[-1])
            off = [] if self.fit_all.isChecked() else off_scale(last)
            self.off[plot_key] = off
            span = y_range(points, off) if off else None
            if span is None:
                plot.enableAutoRange(axis="y")
            else:
                plot.setYRange(*span, padding=0.08)
            notes += [f"{self.labels[k][0]} ({'NLL' if plot_key == 'nll' else 'CNLL'} {last[k]:.3g})" for k in off]
        left_out = bool(notes) or self.fit_all.isChecked()
        self.off_note.setText("Off the scale: " + "; ".join(notes) if notes else "")
        self.off_note.setVisible(bool(notes))
        self.fit_all.setVisible(left_out)

    def legend_labels(self) -> list[str]:
        """The run labels in the legend, in order."""
        return self.legend.labels()

    def point_counts(self, key: Any) -> dict[str, int]:
        """Points on each of the run's curves (for tests and status)."""
        return {name: len(curve.xData) if curve.xData is not None else 0
                for name, curve in self.curves.get(key, {}).items()}

    def colour(self, index: int) -> str:
        return colour(index)
