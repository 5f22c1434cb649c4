"""Learning curves in the app: held-out error and CLL against training-set size for two or more methods on the
user's data (Ng & Jordan 2001), computed in the background by
:func:`bnstudio.evaluate.learning_curve.learning_curves` (cancellable, with progress) and drawn on a log x axis
with ± one standard deviation over the repeats as a band.

The training rows are the data panel's training part, the held-out rows its test part (else its validation
part); each method starts at its defaults (the registry's, as ``bnstudio evaluate --learning-curve``).

Colours (:class:`LabelColours`): the panel colours its runs, not its methods (run k has the k-th palette colour in the
plots, the runs table and Compare, whatever its method; a method trained twice has two colours), so a curve here
cannot borrow "its method's colour". Each curve label has a stable colour instead: a method's own label (its
defaults, all this tab draws) the palette colour of its place in the registry, in every computation and
session; any other label (a method with options) the first palette colour no label has yet, kept from then on.
"""
from __future__ import annotations

import math
from functools import partial
from typing import Any, Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QLabel, QMenu, QProgressBar, QPushButton, QSpinBox, QToolButton, QWidget

from bnstudio.errors import BNStudioError
from bnstudio.evaluate.learning_curve import POINTS, LearningCurves, learning_curves, size_grid
from bnstudio.gui.job_slot import JobSlot
from bnstudio.gui.training_panel.plotkit import PALETTE, PLOT_MIN_HEIGHT, RunLegend, plot_page, style
from bnstudio.learn.registry import METHODS

#: the methods ticked at first: a generative and a discriminative fit
DEFAULT_METHODS = ("mp", "clgd")
SCORES = (("error_rate", "Held-out error", "share wrong"), ("cll", "Held-out CLL", "mean log p(target | rest)"))


def log_ticks(low: float, high: float) -> list[tuple[float, str]]:
    """Ticks at m × 10^k between ``low`` and ``high`` (rows), placed at their log10: m in 1, 2, 5 over at most a
    decade, 1, 3 over at most two, else powers of ten only (the labels never run into each other).

    >>> [t for _x, t in log_ticks(10, 483)], [t for _x, t in log_ticks(10, 1800)]
    (['10', '30', '100', '300'], ['10', '100', '1,000'])
    """
    decades = math.log10(max(high, 1) / max(low, 1))
    steps = (1, 2, 5) if decades <= 1 else (1, 3) if decades <= 2 else (1,)
    out = []
    for k in range(int(math.floor(math.log10(max(low, 1)))), int(math.ceil(math.log10(max(high, 1)))) + 1):
        for m in steps:
            value = m * 10 ** k
            if low <= value <= high:
                out.append((math.log10(value), f"{value:,}"))
    return out


class LabelColours:
    """A stable colour per curve label (module docstring): a method's name has the palette colour of its place in
    :data:`~bnstudio.learn.registry.METHODS`; another label takes the first palette colour not yet given (the
    palette's order once every colour is given) and keeps it."""

    def __init__(self) -> None:
        self.given: dict[str, str] = {method: PALETTE[k % len(PALETTE)] for k, method in enumerate(METHODS)}

    def colour(self, label: str) -> str:
        if label not in self.given:
            used = set(self.given.values())
            free = [c for c in PALETTE if c not in used]
            self.given[label] = free[0] if free else PALETTE[len(self.given) % len(PALETTE)]
        return self.given[label]


class LearningCurveView(QWidget):
    """See the module docstring. ``snapshot()`` gives (network copy, selection) or a problem to show."""

    def __init__(self, snapshot: Callable[[], Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.snapshot = snapshot
        self.result: LearningCurves | None = None
        self.generation = 0        # bumped by clear(): a job of an earlier document shows nothing
        self.jobs = JobSlot(self)
        self.methods = QToolButton()
        self.menu = QMenu(self)
        self.repeats, self.points = QSpinBox(), QSpinBox()
        self.run_button, self.cancel_button = QPushButton("Compute"), QPushButton("Cancel")
        self.progress, self.status = QProgressBar(), QLabel()
        self.view = pg.GraphicsLayoutWidget()
        self.plots = {key: self.view.addPlot(row=0, col=k) for k, (key, _t, _l) in enumerate(SCORES)}
        self.legend = RunLegend("band: ± 1 sd over the subsamples")
        self.items: list[tuple[pg.PlotItem, Any]] = []
        self.colours = LabelColours()
        self._compose()
        self.menu.triggered.connect(self._methods_changed)
        self.run_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)

    def _compose(self) -> None:
        for method in METHODS:
            action = self.menu.addAction(method)
            action.setCheckable(True)
            action.setChecked(method in DEFAULT_METHODS)
        self.methods.setMenu(self.menu)
        self.methods.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.methods.setToolTip("The fitting methods to compare, each with its default options")
        self.repeats.setRange(1, 50)
        self.repeats.setValue(5)
        self.repeats.setToolTip("Random subsamples of the training rows per size (the band is their spread)")
        self.points.setRange(2, 20)
        self.points.setValue(POINTS)
        self.points.setToolTip("Training sizes, evenly spaced on a log scale up to every training row")
        self.cancel_button.setEnabled(False)
        self.progress.hide()
        self.progress.setFormat("fit %v of %m")
        self.status.setWordWrap(True)
        self.view.setBackground("w")
        self.view.setMinimumHeight(PLOT_MIN_HEIGHT)
        for key, title, left in SCORES:
            style(self.plots[key], title, left, "training rows (log scale)")
        self.legend.empty = "Not computed yet"
        controls: list[QWidget | None] = []
        for text, widget in (("Methods", self.methods), ("Sizes", self.points), ("Repeats", self.repeats)):
            controls += [QLabel(text), widget]
        plot_page(self, controls + [None, self.run_button, self.cancel_button], self.view, self.legend,
                  [self.status]).insertWidget(1, self.progress)
        self._methods_changed()

    def chosen_methods(self) -> list[str]:
        return [a.text() for a in self.menu.actions() if a.isChecked()]

    def set_methods(self, methods: list[str]) -> None:
        for action in self.menu.actions():
            action.setChecked(action.text() in methods)
        self._methods_changed()

    def _methods_changed(self, *_args: Any) -> None:
        self.methods.setText(", ".join(self.chosen_methods()) or "none")

    # ------------------------------------------------------------------ the job
    def start(self):
        """Compute the curves in the background (returns the worker, or None with the reason shown)."""
        if self.jobs.running:
            return None
        methods = self.chosen_methods()
        got = self.snapshot()
        problem = got if isinstance(got, str) else None
        if problem is None and len(methods) < 1:
            problem = "Tick at least one method (two to compare them)."
        if problem is None:
            net, selection = got
            held = selection.test if selection.test is not None else selection.validation
            if selection.target is None or held is None:
                problem = ("A learning curve needs a target and held-out rows: set them under “Target and held-out "
                           "rows” in the Data panel.")
        if problem is not None:
            self.status.setText(problem)
            return None
        sizes = size_grid(len(selection.train), self.points.value())
        job = partial(learning_curves, net, selection.train, held, selection.target, methods, sizes,
                      self.repeats.value(), 0)
        self.status.setText(f"Fitting {', '.join(methods)} on {len(sizes)} sizes × {self.repeats.value()} "
                            f"subsamples of {len(selection.train):,} training rows; scoring {len(held):,} held-out "
                            "rows…")
        self.progress.setRange(0, 0)
        self.progress.show()
        worker = self.jobs.start(job, started=self._on_started, progress=self._on_progress,
                                 finished=partial(self._on_finished, self.generation), failed=self._on_failed, cancelled=self._on_cancelled)
        self._buttons()
        return worker

    def cancel(self) -> None:
        self.jobs.cancel()

    def _buttons(self) -> None:
        running = self.jobs.running
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)

    def _on_started(self, _label: str, total: int) -> None:
        if total:
            self.progress.setRange(0, total)

    def _on_progress(self, info) -> None:
        self.progress.setValue(info.iteration)
        self.progress.setToolTip(info.message)

    def _done(self, text: str) -> None:
        self.progress.hide()
        self.status.setText(text)
        self._buttons()

    def _on_finished(self, generation: int, result: LearningCurves) -> None:
        if generation != self.generation:
            self._done("")
            return
        self.show_result(result)
        self._done(f"{result.n_train:,} training rows, {result.n_test:,} held out, {result.repeats} subsample(s) "
                   "per size. Generative fits often lead with few rows, discriminative ones with many "
                   "(Ng & Jordan 2001).")

    def _on_failed(self, exc: BaseException) -> None:
        text = str(exc) if isinstance(exc, BNStudioError) else f"{type(exc).__name__}: {exc}"
        self._done(f"The learning curve failed: {text}")

    def _on_cancelled(self) -> None:
        self._done("Learning curve cancelled.")

    def shutdown(self) -> None:
        self.jobs.shutdown()

    # ------------------------------------------------------------------ drawing
    def clear(self) -> None:
        """No curves (the document changed)."""
        self.jobs.cancel()
        self.generation += 1
        self.result = None
        for plot, item in self.items:
            plot.removeItem(item)
        self.items = []
        self.legend.set_entries({})
        self.status.setText("")

    def show_result(self, result: LearningCurves) -> None:
        for plot, item in self.items:
            plot.removeItem(item)
        self.items = []
        self.result = result
        x = np.log10(np.asarray(result.sizes, dtype=float))
        entries = {}
        for k, curve in enumerate(result.curves):
            c = self.colours.colour(curve.label)     # a label keeps its colour from one computation to the next
            entries[k] = (curve.label, c)
            for key, _title, _left in SCORES:
                plot, mean, sd = self.plots[key], curve.mean(key), curve.sd(key)
                upper = pg.PlotCurveItem(x, mean + sd, pen=pg.mkPen(None))
                lower = pg.PlotCurveItem(x, mean - sd, pen=pg.mkPen(None))
                band = pg.FillBetweenItem(upper, lower, brush=pg.mkBrush(pg.mkColor(c).red(), pg.mkColor(c).green(),
                                                                         pg.mkColor(c).blue(), 50))
                line = pg.PlotDataItem(x, mean, pen=pg.mkPen(c, width=2), symbol="o", symbolSize=5,
                                       symbolPen=None, symbolBrush=c)
                for item in (upper, lower, band, line):
                    plot.addItem(item)
                    self.items.append((plot, item))
        ticks = log_ticks(result.sizes[0], result.sizes[-1])
        if len(ticks) < 2:       # a narrow range: the sizes themselves
            ticks = [(math.log10(s), f"{s:,}") for s in result.sizes]
        for plot in self.plots.values():
            plot.getAxis("bottom").setTicks([ticks])
            plot.enableAutoRange()
        self.legend.set_entries(entries)
