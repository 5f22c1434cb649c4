"""The "MPE / MAP" tab (explanations): the k most probable explanations (MPE) of the unobserved variables given the
findings, one column per explanation (its probability, then every variable's state; rows where the
explanations differ are highlighted), the delta-method error bar of the best one when the network has
counts, and MAP over chosen variables labelled exact or approximate with its bounds (docs/inference.md,
:mod:`bnstudio.inference.explanations`). The view shows what it is given; the panel computes.
"""
from __future__ import annotations

import html
import math
from typing import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from bnstudio.display import themes
from bnstudio.gui import theme
from bnstudio.gui.table_cells import item_at, row_header_text, text_at
from bnstudio.inference.explanations import Explanation, MapExplanation

DIFFERS = Qt.ItemDataRole.UserRole + 1     # item data: the variable's state is not the same in every explanation shown
PROBABILITY_ROW = "p(x | e)"


def map_label(answer: MapExplanation) -> str:
    """``exact`` or ``approximate (local search), bounds [lo, hi]``."""
    if answer.exact:
        return "exact"
    return f"approximate ({answer.method}), bounds [{answer.lower:.4g}, {answer.upper:.4g}]"


class ExplanationsView(QWidget):
    """MPE table, its error bar and the MAP line (see the module docstring)."""

    top_changed = Signal(int)
    map_variables_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.top = QSpinBox()
        self.top.setRange(1, 20)
        self.top.setValue(3)
        self.top.setToolTip("How many of the most probable explanations to show")
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.table = QTableWidget(0, 0)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.error_bar = QLabel()
        self.error_bar.setWordWrap(True)
        self.map_button = QToolButton()
        self.map_button.setText("MAP variables…")
        self.map_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.map_menu = QMenu(self.map_button)
        self.map_button.setMenu(self.map_menu)
        self.map_text = QLabel()
        self.map_text.setWordWrap(True)
        self.map_text.setTextFormat(Qt.TextFormat.RichText)
        self.map_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        top_row = QHBoxLayout()
        top_row.addWidget(QLabel("Most probable explanations, top"))
        top_row.addWidget(self.top)
        top_row.addWidget(self.heading, 1)
        map_row = QHBoxLayout()
        map_row.addWidget(self.map_button)
        map_row.addWidget(self.map_text, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top_row)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.error_bar)
        layout.addLayout(map_row)
        self.top.valueChanged.connect(self.top_changed)
        self._map_names: list[str] = []

    # ------------------------------------------------------------------ MPE
    def show_explanations(self, explanations: Sequence[Explanation] | None, message: str = "") -> None:
        """One column per explanation: the probability, then each variable's state (differences highlighted)."""
        self.table.clear()
        self.heading.setText(message)
        if not explanations:
            self.table.setRowCount(0)
            self.table.setColumnCount(0)
            return
        names = list(explanations[0].assignment)
        self.table.setColumnCount(len(explanations))
        self.table.setRowCount(1 + len(names))
        self.table.setHorizontalHeaderLabels([f"#{k + 1}" for k in range(len(explanations))])
        self.table.setVerticalHeaderLabels([PROBABILITY_ROW] + names)
        for c, exp in enumerate(explanations):
            item = QTableWidgetItem(_probability_text(exp))
            item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            font = item.font()
            font.setBold(True)
            item.setFont(font)
            self.table.setItem(0, c, item)
        for r, name in enumerate(names, start=1):
            differs = len({exp.assignment.get(name) for exp in explanations}) > 1
            for c, exp in enumerate(explanations):
                item = QTableWidgetItem(str(exp.assignment.get(name, "")))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if differs:
                    item.setBackground(QBrush(theme.colour(themes.CELLS, "marked")))   # light or dark
                    item.setData(DIFFERS, True)
                    item.setToolTip(f"{name} differs between the explanations shown")
                self.table.setItem(r, c, item)

    def explanation_column(self, column: int) -> dict[str, str]:
        """{variable: state} shown in ``column`` (for tests and export)."""
        rows = range(1, self.table.rowCount())
        return {row_header_text(self.table, r): text_at(self.table, r, column) for r in rows}

    def differing_rows(self) -> list[str]:
        return [row_header_text(self.table, r) for r in range(1, self.table.rowCount())
                if item_at(self.table, r, 0).data(DIFFERS)]

    def show_error_bar(self, text: str) -> None:
        self.error_bar.setText(text)
        self.error_bar.setVisible(bool(text))

    # ------------------------------------------------------------------ MAP
    def set_map_choices(self, names: Sequence[str], chosen: Sequence[str]) -> None:
        """The variables MAP may be asked over (checkable in the button's menu), ``chosen`` ticked."""
        self.map_menu.clear()
        for name in names:
            action = self.map_menu.addAction(name)
            action.setCheckable(True)
            action.setChecked(name in chosen)
            action.toggled.connect(lambda _on: self.map_variables_changed.emit())
        self._map_names = list(names)

    def map_variables(self) -> list[str]:
        return [a.text() for a in self.map_menu.actions() if a.isChecked()]

    def set_map_variables(self, names: Sequence[str]) -> None:
        for action in self.map_menu.actions():
            action.blockSignals(True)
            action.setChecked(action.text() in names)
            action.blockSignals(False)
        self.map_variables_changed.emit()

    def show_map(self, answer: MapExplanation | None, message: str = "") -> None:
        if answer is None:
            self.map_text.setText(html.escape(message))
            return
        states = ", ".join(f"{k}={v}" for k, v in answer.assignment.items())
        self.map_text.setText(f"MAP: <b>{html.escape(states)}</b>, p = {_probability_text(answer)} "
                              f"<i>({html.escape(map_label(answer))})</i>")


def _probability_text(exp: Explanation) -> str:
    if exp.probability > 0 or exp.log_probability == -math.inf:
        return f"{exp.probability:.4g}"
    return f"e^{exp.log_probability:.1f}"   # underflows as a float
