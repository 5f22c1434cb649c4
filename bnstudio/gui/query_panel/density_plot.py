"""The two fitted densities of p(q | e) — normal and Beta (method of moments, Singh §3.5) — over [0, 1] with
their credible intervals shaded, and the histogram of a Monte-Carlo check with the coverage of each interval.

Curves are created once and updated with ``setData`` (docs/architecture.md §3.7). The y axis shows what is
informative (:func:`informative_top`): a Beta density that is infinite at 0 or 1 (p near 0 or 1) is cut rather
than flattening everything else, while a finite one is shown whole, its peak included (even at 0 or 1). Curves
are evaluated up to half a grid step from 0 and 1 (:func:`end_margin`), what the plot's last pixel can show.
The numbers (mean, sd, coverage) sit in a label under the plot, never over the curves.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QLabel, QVBoxLayout, QWidget
from scipy import stats

from bnstudio.gui.query_panel import plots
from bnstudio.uncertainty import ErrorBars, MonteCarloCheck

GRID = 301
PDF_CAP = 1e4  # U-shaped Beta densities are infinite at 0 or 1


def density_curves(bars: ErrorBars, lo: float, hi: float) -> dict[str, np.ndarray]:
    """x over [0, 1] (dense inside [lo, hi]) and both pdfs (zeros where a fit does not exist)."""
    x = np.unique(np.r_[np.linspace(0.0, 1.0, GRID), np.linspace(lo, hi, GRID)])
    edge = end_margin(lo, hi)
    x = np.unique(np.clip(x, edge, 1 - edge))
    normal = np.zeros_like(x)
    beta = np.zeros_like(x)
    if bars.variance > 0:
        normal = stats.norm.pdf(x, bars.mean, bars.sd)
    if bars.intervals.beta_params is not None:
        a, b = bars.intervals.beta_params
        with np.errstate(divide="ignore", over="ignore"):
            beta = np.nan_to_num(stats.beta.pdf(x, a, b), posinf=PDF_CAP)
        beta = np.minimum(beta, PDF_CAP)
    return {"x": x, "normal": normal, "beta": beta}


def end_margin(lo: float, hi: float) -> float:
    """How far inside 0 and 1 the curves are evaluated: half a step of the dense grid over [lo, hi].

    A Beta density with b just above 1 (p = 0.895 on munin: b ≈ 1.05) falls to 0 only at 1 itself, as
    (1 − x)^(b − 1); evaluated 1e-9 from the end it drew a hook straight down within the last pixel, which no
    pixel of the plot can show. Half a grid step in, the end point is what the last pixel holds."""
    return max((hi - lo) / (GRID - 1), 1e-6) / 2


def beta_is_bounded(bars: ErrorBars) -> bool:
    """Whether the fitted Beta density is finite on [0, 1] (a, b ≥ 1); a < 1 or b < 1 is a pole at 0 or 1."""
    params = bars.intervals.beta_params
    return params is None or min(params) >= 1 - 1e-9


def informative_top(x: np.ndarray, curves: list[np.ndarray], lo: float, hi: float, bounded: bool = False) -> float:
    """The height to show: the largest value any curve reaches inside [lo, hi] away from a pole — each curve's
    95th percentile there, unless the curve has a proper peak inside (a maximum not at the range's ends) or is
    ``bounded`` (no pole: its maximum at an end is a peak too, e.g. Beta(1, 9) at 0), which is shown whole.

    >>> x = np.linspace(0.0, 1.0, 101)
    >>> bump = np.exp(-((x - 0.5) / 0.1) ** 2)
    >>> spike = np.where(x < 0.02, 1e4, 1.0)            # a U-shaped Beta pole at 0
    >>> informative_top(x, [bump, spike], 0.0, 1.0)
    1.0
    """
    inside = (x >= lo) & (x <= hi)
    tops = []
    for y in curves:
        y = y[inside]
        if not y.size or not np.any(y > 0):
            continue
        peak = int(np.argmax(y))
        tops.append(float(y[peak]) if bounded or 0 < peak < y.size - 1 else float(np.quantile(y, 0.95)))
    return max(tops) if tops else 1.0


def focus_range(bars: ErrorBars) -> tuple[float, float]:
    """The part of [0, 1] worth looking at: both intervals and mean ± 5 sd, padded."""
    ends = [bars.mean - 5 * bars.sd, bars.mean + 5 * bars.sd, *bars.intervals.normal_clipped]
    if bars.intervals.beta is not None:
        ends += list(bars.intervals.beta)
    lo, hi = max(0.0, min(ends)), min(1.0, max(ends))
    pad = max(0.02 * (hi - lo), 1e-4)
    return max(0.0, lo - pad), min(1.0, hi + pad)


class DensityPlot(QWidget):
    """Shows one :class:`ErrorBars` (see the module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = plots.make_plot("p(q | e)", "density")
        self.whole_range = QCheckBox("Show all of [0, 1]")
        self.bars: ErrorBars | None = None
        self.check: MonteCarloCheck | None = None
        self.curves = self._make_items()
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.label)
        layout.addWidget(self.whole_range)
        self.whole_range.toggled.connect(lambda _on: self._set_range())

    def _make_items(self) -> dict[str, pg.GraphicsObject]:
        item = self.plot.getPlotItem()
        plots.add_legend(self.plot)
        n, b, g = plots.NORMAL_COLOUR, plots.BETA_COLOUR, plots.MC_COLOUR
        curves = {
            "mc": pg.PlotDataItem(stepMode="center", fillLevel=0, brush=plots.faded(g, 70),
                                  pen=pg.mkPen(plots.faded(g, 160), width=1)),
            "normal_fill": pg.PlotDataItem(fillLevel=0, brush=plots.faded(n, 45), pen=pg.mkPen(None)),
            "beta_fill": pg.PlotDataItem(fillLevel=0, brush=plots.faded(b, 45), pen=pg.mkPen(None)),
            "normal": pg.PlotDataItem(pen=pg.mkPen(n, width=2.2), antialias=True, name="normal"),
            "beta": pg.PlotDataItem(pen=pg.mkPen(b, width=2.2, style=Qt.PenStyle.DashLine), antialias=True,
                                    name="Beta"),
        }
        for key in ("mc", "normal_fill", "beta_fill", "normal", "beta"):
            item.addItem(curves[key])
        self.legend = item.legend
        curves["mean"] = pg.InfiniteLine(angle=90, pen=pg.mkPen(plots.TEXT_COLOUR, width=1, style=Qt.PenStyle.DotLine))
        item.addItem(curves["mean"])
        return curves

    def clear(self) -> None:
        self.bars, self.check = None, None
        for key in ("mc", "normal_fill", "beta_fill", "normal", "beta"):
            self.curves[key].setData([], [])
        self.curves["mean"].hide()
        self.legend.removeItem(self.curves["mc"])
        self.label.setText("")
        plots.reset_axes(self.plot)

    def show_bars(self, bars: ErrorBars | None) -> None:
        """Draw the densities of ``bars`` (None clears); a previous Monte-Carlo overlay is dropped."""
        self.clear()
        if bars is None:
            return
        self.bars = bars
        lo, hi = focus_range(bars)
        data = density_curves(bars, lo, hi)
        x = data["x"]
        if bars.variance > 0:
            self.curves["normal"].setData(x, data["normal"])
        if bars.intervals.beta_params is not None:
            self.curves["beta"].setData(x, data["beta"])
        for key, interval in (("normal", bars.intervals.normal_clipped), ("beta", bars.intervals.beta)):
            if interval is not None and np.any(data[key]):
                inside = (x >= interval[0]) & (x <= interval[1])
                self.curves[f"{key}_fill"].setData(x[inside], data[key][inside])
        self.curves["mean"].setPos(bars.mean)
        self.curves["mean"].show()
        level = f"{100 * bars.intervals.level:g}%"
        self.label.setText(f"mean {bars.mean:.4f} · sd {bars.sd:.4f} · shaded: {level} intervals"
                           if bars.variance > 0 else f"p = {bars.mean:.4f} · no parameter uncertainty")
        self._set_range()

    def show_check(self, check: MonteCarloCheck) -> None:
        """Overlay the Monte-Carlo draws (a density histogram) and write each interval's coverage."""
        if self.bars is None:
            return
        self.check = check
        samples = check.samples
        lo, hi = float(samples.min()), float(samples.max())
        if hi - lo < 1e-12:
            lo, hi = lo - 1e-6, hi + 1e-6
        counts, edges = np.histogram(samples, bins=min(60, max(10, int(np.sqrt(len(samples))))), range=(lo, hi),
                                     density=True)
        self.curves["mc"].setData(edges, counts)
        self.legend.removeItem(self.curves["mc"])
        self.legend.addItem(self.curves["mc"], "Monte-Carlo draws")
        self.label.setText(self.coverage_text(check))

    def coverage_text(self, check: MonteCarloCheck) -> str:
        assert self.bars is not None, "a check is shown over error bars (show_check)"
        level = f"{100 * self.bars.intervals.level:g}%"
        lines = [f"Monte-Carlo check: {check.r} draws of q(Θ), mean {check.mean:.4f}, "
                 f"sd {np.sqrt(check.variance):.4f}",
                 f"normal interval covers {100 * check.coverage_normal:.1f}% (aim {level})"]
        if check.coverage_beta is not None:
            lines[-1] += f" · Beta interval covers {100 * check.coverage_beta:.1f}% (aim {level})"
        return "<br>".join(lines)

    def _set_range(self) -> None:
        item = self.plot.getPlotItem()
        if self.bars is None:
            return
        lo, hi = (0.0, 1.0) if self.whole_range.isChecked() else focus_range(self.bars)
        item.setXRange(lo, hi, padding=0.02)
        bounded = {"normal": True, "beta": beta_is_bounded(self.bars), "mc": True}
        curves = [(self.curves[k], bounded[k]) for k in bounded if self.curves[k].yData is not None]
        tops = [informative_top(np.asarray(c.xData[:len(c.yData)], float), [np.asarray(c.yData, float)], lo, hi,
                                finite) for c, finite in curves if len(c.yData)]
        item.setYRange(0.0, 1.08 * max(tops or [1.0]), padding=0)
        plots.place_legend(self.legend, left=self.bars.mean > (lo + hi) / 2)
