"""The tornado tab: the parameters that move p(q | e) most, each a horizontal bar from q at the low end of its
range (blue) to q at the high end (orange) around the current answer (a vertical line); computed by
:func:`bnstudio.uncertainty.tornado`, the largest swing on top."""
from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from bnstudio.display.tornado import bar_label
from bnstudio.gui.query_panel import plots
from bnstudio.uncertainty import Tornado

BAR_HEIGHT = 0.62


class TornadoPlot(QWidget):
    """See the module docstring; :meth:`show_tornado` draws a result or says why there is none."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = plots.make_plot("p(q | e) at the ends of each parameter's range", "")
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        item = self.plot.getPlotItem()
        item.showGrid(x=True, y=False, alpha=0.15)
        self.low = pg.BarGraphItem(x0=[], width=[], y=[], height=BAR_HEIGHT, brush=plots.NORMAL_COLOUR, pen=None)
        self.high = pg.BarGraphItem(x0=[], width=[], y=[], height=BAR_HEIGHT, brush=plots.BETA_COLOUR, pen=None)
        self.centre = pg.InfiniteLine(angle=90, pen=pg.mkPen(plots.TEXT_COLOUR, width=1.4))
        for it in (self.low, self.high, self.centre):
            item.addItem(it)
        item.getAxis("left").setStyle(tickTextWidth=190, autoExpandTextSpace=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.caption)
        self.result: Tornado | None = None

    def show_tornado(self, result: Tornado | None, reason: str = "") -> None:
        self.result = result
        if result is None or not result.bars:
            self.low.setOpts(x0=[], width=[], y=[])
            self.high.setOpts(x0=[], width=[], y=[])
            self.plot.getPlotItem().getAxis("left").setTicks([[]])
            plots.reset_axes(self.plot)
            self.caption.setText(reason or "No parameter moves this query.")
            return
        n = len(result.bars)
        ys = [n - 1 - k for k in range(n)]                       # the largest swing on top
        for item, ends in ((self.low, [b.q_low for b in result.bars]), (self.high, [b.q_high for b in result.bars])):
            x0 = [min(result.q0, q) for q in ends]
            width = [max(abs(q - result.q0), 1e-12) for q in ends]
            item.setOpts(x0=x0, width=width, y=ys, height=BAR_HEIGHT)
        self.centre.setValue(result.q0)
        ticks = [(y, bar_label(b.variable, b.state, b.parents)) for y, b in zip(ys, result.bars, strict=True)]
        item = self.plot.getPlotItem()
        item.getAxis("left").setTicks([ticks])
        values = [result.q0] + [q for b in result.bars for q in (b.q_low, b.q_high)]
        pad = max(max(values) - min(values), 1e-6) * 0.06
        item.setXRange(min(values) - pad, max(values) + pad, padding=0)
        item.setYRange(-0.6, n - 0.4, padding=0)
        self.caption.setText(f"Each parameter over its {result.range} range, the rest of its row scaled in "
                             f"proportion; blue: q at the low end, orange: at the high end (exact). The line is "
                             f"the current answer {result.q0:.4g}.")



