"""The belief of one variable's state across the slices, p(X_t = s | e), with the slider's slice marked."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from bnstudio.gui.query_panel import plots

CURVE_COLOUR = plots.NORMAL_COLOUR
MARK_COLOUR = plots.BETA_COLOUR


class BeliefOverTime:
    """A plot widget (``widget``) with its items made once and updated with ``setData`` (docs/architecture.md
    §3.7): the curve with a dot per slice, the observed slices of the variable (orange rings) and a vertical
    line at the slider's slice; the title says what is plotted (no legend over the curve)."""

    def __init__(self) -> None:
        self.widget = plots.make_plot("slice t", "belief")
        item = self.widget.getPlotItem()
        self.curve = pg.PlotDataItem(pen=pg.mkPen(CURVE_COLOUR, width=2.2), symbol="o", symbolSize=5,
                                     symbolBrush=pg.mkBrush(CURVE_COLOUR), symbolPen=None, antialias=True,
                                     )
        self.observed = pg.ScatterPlotItem(size=11, brush=pg.mkBrush(None), pen=pg.mkPen(MARK_COLOUR, width=2))
        # the error band: the interval of p(X_t = s | e) from the Dirichlet counts at each slice
        # (bnstudio/temporal/errorbars.py), between two invisible edges
        self.low, self.high = (pg.PlotDataItem(pen=pg.mkPen(None)) for _ in range(2))
        band = QColor(CURVE_COLOUR)
        band.setAlpha(55)
        self.band = pg.FillBetweenItem(self.low, self.high, brush=pg.mkBrush(band))
        self.mark = pg.InfiniteLine(angle=90, movable=False,
                                    pen=pg.mkPen(MARK_COLOUR, width=1.6, style=Qt.PenStyle.DashLine))
        for it in (self.low, self.high, self.band, self.curve, self.observed, self.mark):
            item.addItem(it)
        item.setYRange(0.0, 1.0, padding=0.02)
        self.clear()

    def set_series(self, belief: np.ndarray, observed: np.ndarray, label: str) -> None:
        """``belief[t]`` of every slice; ``observed`` the slices where the variable was observed."""
        t = np.arange(len(belief), dtype=float)
        self.curve.setData(t, belief)
        self.observed.setData(observed.astype(float), belief[observed])
        title = label + ("   ○ observed" if len(observed) else "")
        self.widget.getPlotItem().setTitle(title, color=plots.TEXT_COLOUR.name(), size="10pt")
        step = max(1, int(np.ceil(len(belief) / 10)))      # whole slices on the axis
        self.widget.getPlotItem().getAxis("bottom").setTickSpacing(step, step)
        self.widget.getPlotItem().setXRange(0, max(1.0, len(belief) - 1.0), padding=0.03)
        self.widget.getPlotItem().setYRange(0.0, 1.0, padding=0.02)

    def set_band(self, interval: np.ndarray | None) -> None:
        """The (T, 2) interval of each slice's belief as a band (None: no band)."""
        if interval is None:
            self.low.setData([], [])
            self.high.setData([], [])
            return
        t = np.arange(len(interval), dtype=float)
        self.low.setData(t, interval[:, 0])
        self.high.setData(t, interval[:, 1])

    def set_slice(self, k: int) -> None:
        self.mark.setValue(k)
        self.mark.show()

    def clear(self) -> None:
        self.set_band(None)
        self.curve.setData([], [])
        self.observed.setData([], [])
        self.mark.hide()
        self.widget.getPlotItem().setTitle(None)
        self.widget.getPlotItem().getAxis("bottom").setTickSpacing()
        plots.reset_axes(self.widget)
