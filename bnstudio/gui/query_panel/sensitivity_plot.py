"""One-way sensitivity of the query to one CPT parameter θ: the exact curve (the row re-normalised at each θ,
evaluated in one batched propagation) and the first-order line q + (dq/dθ)·Δθ of the delta method."""
from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from bnstudio.gui.query_panel import plots
from bnstudio.gui.query_panel.contributions import row_label
from bnstudio.uncertainty import RowContribution, Sensitivity


class SensitivityPlot(QWidget):
    """Pick a row (among the top contributions) and a state; ``parameter_changed`` asks for its curve."""

    parameter_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.row_box = QComboBox()
        self.state_box = QComboBox()
        self.plot = plots.make_plot("θ (the chosen CPT entry)", "p(q | e)")
        self.caption = QLabel()
        self.rows: list[RowContribution] = []
        self.states: dict[str, tuple[str, ...]] = {}
        self.items = self._make_items()
        self.caption.setWordWrap(True)
        form = QFormLayout()
        form.addRow("CPT row", self.row_box)
        form.addRow("Entry θ", self.state_box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(form)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.caption)
        self.row_box.currentIndexChanged.connect(self._on_row)
        self.state_box.currentIndexChanged.connect(lambda _i: self.parameter_changed.emit())

    def _make_items(self) -> dict[str, pg.GraphicsObject]:
        item = self.plot.getPlotItem()
        plots.add_legend(self.plot)
        items = {
            "exact": pg.PlotDataItem(pen=pg.mkPen(plots.NORMAL_COLOUR, width=2.2), antialias=True,
                                     name="exact (row re-normalised)"),
            "linear": pg.PlotDataItem(pen=pg.mkPen(plots.LINE_COLOUR, width=1.6, style=Qt.PenStyle.DashLine),
                                      antialias=True, name="first order q + (dq/dθ)·Δθ"),
            "current": pg.ScatterPlotItem(size=9, brush=pg.mkBrush(plots.BETA_COLOUR), pen=pg.mkPen(None),
                                          name="current θ"),
        }
        for it in items.values():
            item.addItem(it)
        item.setXRange(0, 1, padding=0.02)
        return items

    def set_rows(self, rows: list[RowContribution], states: dict[str, tuple[str, ...]], keep: bool = True) -> None:
        """Offer ``rows`` (no signal while filling): the current choice stays when ``keep`` and it is still
        offered, else the top row is chosen."""
        current = self.current_row() if keep else None
        self.rows, self.states = list(rows), dict(states)
        self.row_box.blockSignals(True)
        self.row_box.clear()
        self.row_box.addItems([row_label(r) for r in self.rows])
        kept = next((i for i, r in enumerate(self.rows) if (r.variable, dict(r.parents)) == current), None)
        self.row_box.setCurrentIndex(kept if kept is not None else 0 if self.rows else -1)
        self.row_box.blockSignals(False)
        self._fill_states(keep_state=kept is not None)

    def _fill_states(self, keep_state: bool = False) -> None:
        state = self.state_box.currentText() if keep_state else None
        row = self.current_row()
        self.state_box.blockSignals(True)
        self.state_box.clear()
        if row is not None:
            self.state_box.addItems([f"{row[0]} = {s}" for s in self.states[row[0]]])
            names = [f"{row[0]} = {s}" for s in self.states[row[0]]]
            self.state_box.setCurrentIndex(names.index(state) if state in names else 0)
        self.state_box.blockSignals(False)

    def _on_row(self, _index: int) -> None:
        self._fill_states()
        self.parameter_changed.emit()

    def current_row(self) -> tuple[str, dict[str, str]] | None:
        i = self.row_box.currentIndex()
        return (self.rows[i].variable, dict(self.rows[i].parents)) if 0 <= i < len(self.rows) else None

    def current_state(self) -> int:
        return max(self.state_box.currentIndex(), 0)

    def select(self, variable: str, parents: dict[str, str], state: int | None = None) -> None:
        """Choose the row (and state) programmatically, e.g. after a click on a contribution."""
        for i, r in enumerate(self.rows):
            if r.variable == variable and r.parents == parents:
                self.row_box.setCurrentIndex(i)
                if state is not None:
                    self.state_box.setCurrentIndex(state)
                return

    def show_curve(self, curve: Sensitivity | None, reason: str = "") -> None:
        if curve is None:
            for key in ("exact", "linear"):
                self.items[key].setData([], [])
            self.items["current"].setData([], [])
            plots.reset_axes(self.plot)
            self.caption.setText(reason)
            return
        self.items["exact"].setData(curve.theta, curve.exact)
        self.items["linear"].setData(curve.theta, curve.linear)
        self.items["current"].setData([curve.theta0], [curve.q0])
        lo, hi = float(min(curve.exact.min(), curve.q0)), float(max(curve.exact.max(), curve.q0))
        pad = max(0.05 * (hi - lo), 0.01)
        self.plot.getPlotItem().setYRange(max(0.0, lo - pad), min(1.0, hi + pad), padding=0)
        given = ", ".join(f"{p}={s}" for p, s in curve.parents.items())
        theta = f"p({curve.variable}={curve.state}{' | ' + given if given else ''})"
        self.caption.setText(f"θ = {theta} is {curve.theta0:.4g} now; the query changes by {curve.slope:+.4g} per "
                             f"unit of θ there (the other entries of the row shrink in proportion). "
                             f"The exact curve can leave the line far from the current value.")
