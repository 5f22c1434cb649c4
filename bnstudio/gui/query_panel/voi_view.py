"""The "Observe next" tab (what to observe next): every unobserved variable ranked by the value of observing it for the
query's target, I(T; O | e) in bits and the expected reduction of the 0/1 Bayes risk
(:func:`bnstudio.inference.voi.value_of_information`, docs/inference.md §10). The view only shows a ranking
it is given; choosing a row and one of its states (the button, or a double click and the state's menu) emits
:attr:`VoiView.observe_requested`, and the panel sets that finding.
"""
from __future__ import annotations

import functools
import html
from typing import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from bnstudio.gui.table_cells import text_at
from bnstudio.inference.voi import ValueOfInformation

COLUMNS = ("Variable", "Information (bits)", "Risk reduction")


class VoiView(QWidget):
    """A ranked table of candidate observations with a state chooser (see the module docstring)."""

    observe_requested = Signal(str, str)   # (variable, state)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: ValueOfInformation | None = None
        self.states: dict[str, Sequence[str]] = {}
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)   # rows, not cards
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for k in (1, 2):
            header.setSectionResizeMode(k, QHeaderView.ResizeMode.ResizeToContents)
        self.state = QComboBox()
        self.state.setMinimumContentsLength(8)
        self.observe = QPushButton("Observe")
        self.observe.setToolTip("Enter the chosen state of the selected variable as evidence (undoable)")
        self.relevance = QPushButton("Show relevance")
        self.relevance.setCheckable(True)
        self.relevance.setToolTip("Grey out on the canvas what is d-separated from the target given the findings, "
                                  "and mark the findings that cannot change its probability")
        row = QHBoxLayout()
        row.addWidget(QLabel("Observe the selected variable as"))
        row.addWidget(self.state, 1)
        row.addWidget(self.observe)
        row.addSpacing(12)
        row.addWidget(self.relevance)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        self.table.itemSelectionChanged.connect(self._fill_states)
        self.table.cellDoubleClicked.connect(lambda r, _c: self._state_menu(r))
        self.observe.clicked.connect(self._observe_chosen)
        self.show_ranking(None, "")

    # ------------------------------------------------------------------ content
    def show_ranking(self, result: ValueOfInformation | None, message: str,
                     states: dict[str, Sequence[str]] | None = None) -> None:
        """Show ``result`` (candidates best first) with each candidate's ``states``, or ``message`` alone."""
        self.result, self.states = result, dict(states or {})
        self.table.setRowCount(0)
        if result is None:
            self.heading.setText(html.escape(message))
            self._fill_states()
            return
        self.heading.setText(
            f"What to observe next for <b>{html.escape(result.target)}</b>: H({html.escape(result.target)} | e) = "
            f"{result.entropy:.4f} bits, Bayes risk {result.risk:.4f}. Best first; double-click a row to "
            "observe one of its states." + (f"<br>{html.escape(message)}" if message else ""))
        self.table.setRowCount(len(result.candidates))
        for r, cand in enumerate(result.candidates):
            cells = (cand.name, f"{cand.mutual_information:.4f}", f"{cand.risk_reduction:.4f}")
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        if result.candidates:
            self.table.selectRow(0)
        self._fill_states()

    def ranked_names(self) -> list[str]:
        return [text_at(self.table, r, 0) for r in range(self.table.rowCount())]

    def selected_name(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        return text_at(self.table, rows[0].row(), 0) if rows else None

    # ------------------------------------------------------------------ choosing a finding
    def _fill_states(self) -> None:
        name = self.selected_name()
        self.state.clear()
        if name is not None:
            self.state.addItems(list(self.states.get(name, ())))
        self.observe.setEnabled(name is not None and self.state.count() > 0)

    def _observe_chosen(self) -> None:
        name = self.selected_name()
        if name is not None and self.state.currentText():
            self.observe_requested.emit(name, self.state.currentText())

    def _state_menu(self, row: int) -> None:
        name = text_at(self.table, row, 0)
        menu = QMenu(self)
        for state in self.states.get(name, ()):
            menu.addAction(f"Observe {name} = {state}", functools.partial(self.observe_requested.emit, name, state))
        menu.exec(QCursor.pos())
