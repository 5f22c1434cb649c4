"""The study view's "Ranks" tab: every method at once (Demšar, JMLR 2006, §3.2.2; docs/experiments.md "All
methods at once") — the report's Friedman tests per structure and metric with Iman–Davenport's F, Nemenyi's
critical difference and Holm's p-values against the baseline, and below them the critical-difference diagrams
the report drew. The numbers are the report's (``report.json``'s ``friedman``), never computed here."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from bnstudio.experiment.ranks import ranks_text
from bnstudio.gui.study_view.figures import FigureGrid

RANKS_HEAD = ("structure", "metric", "data sets", "Friedman χ²", "p", "Iman–Davenport F", "p", "Nemenyi CD",
              "average rank, best first (Holm p vs baseline)", "left out (partial)")
NO_TESTS = ("No rank tests yet: they need at least 3 methods and 2 data sets whose cells are all complete "
            "(partial cells are left out).")


def _number(value: float | None) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.3g}"


def is_cd_figure(png: Path) -> bool:
    """True for the report's critical-difference diagrams (``figures/cd_METRIC_STRUCTURE.png``)."""
    return Path(png).name.startswith("cd_")


def rank_row(test: dict[str, Any]) -> tuple[str, ...]:
    """The table row of one rank test, as the HTML report writes it."""
    return (test["structure"], test["metric"], str(test["n"]), _number(test["chi2"]), _number(test["p"]),
            _number(test["iman_davenport"]), _number(test["iman_davenport_p"]),
            _number(test["critical_difference"]), ranks_text(test), str(test["left_out"]))


class RanksTab(QWidget):
    """The Friedman / Nemenyi / Holm table over the critical-difference diagrams; :meth:`show_tests` fills it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.note = QLabel(NO_TESTS)
        self.table = QTableWidget(0, len(RANKS_HEAD))
        self.diagrams = FigureGrid()
        self._compose()

    def _compose(self) -> None:
        self.note.setWordWrap(True)
        self.table.setHorizontalHeaderLabels(RANKS_HEAD)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)         # one line a test; a long ranks cell scrolls sideways
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.diagrams)
        split.setStretchFactor(0, 2)          # room for a few tests' rows above the diagrams
        split.setStretchFactor(1, 3)
        split.setSizes([280, 420])
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(split, 1)

    def show_tests(self, tests: Sequence[dict[str, Any]], figures: Sequence[tuple[str, Path]]) -> None:
        """Show the report's rank ``tests`` and, of its ``figures``, the critical-difference diagrams."""
        self.note.setText(
            "All methods at once (Demšar 2006 §3.2.2): methods ranked on each data set (1 = best), complete cells "
            "only. Two methods differ significantly (Nemenyi, α = 0.05) when their average ranks differ by at "
            "least CD; Holm's p compares each method with the baseline." if tests else NO_TESTS)
        self.table.setRowCount(len(tests))
        for r, test in enumerate(tests):
            for c, value in enumerate(rank_row(test)):
                self.table.setItem(r, c, QTableWidgetItem(value))
        self.diagrams.set_figures([(title, png) for title, png in figures if is_cd_figure(png)])
