"""The dialog shown when data hold values a network variable has no state for: it lists (column, value,
rows) and offers to extend the network (one undoable command) or to drop those rows."""
from __future__ import annotations

from typing import Sequence

from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from bnstudio.data import StateProblem

EXTEND, DROP = "extend", "drop"


class UnknownStatesDialog(QDialog):
    """``choice`` is EXTEND, DROP or None (cancelled) once the dialog closes."""

    def __init__(self, problems: Sequence[StateProblem], n_rows: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.choice: str | None = None
        self.problems = list(problems)
        self.table = QTableWidget(len(self.problems), 4)
        self.buttons = QDialogButtonBox()
        self.extend_button = QPushButton("Extend the network")
        self.drop_button = QPushButton("Drop these rows")
        self._compose(n_rows)
        self.extend_button.clicked.connect(self._extend)
        self.drop_button.clicked.connect(self._drop)
        self.buttons.rejected.connect(self.reject)

    def _compose(self, n_rows: int) -> None:
        self.setWindowTitle("Data values the network lacks")
        affected = sum(p.count for p in self.problems)
        intro = QLabel(f"{len(self.problems)} data value{'s are' if len(self.problems) != 1 else ' is'} not a "
                       f"state of the matching network variable ({affected:,} of {n_rows:,} rows, counting a row "
                       "once per value). Add them as new states (undoable), or leave those rows out?")
        intro.setWordWrap(True)
        self.table.setHorizontalHeaderLabels(["Column", "Value", "Rows", "Where"])
        for r, p in enumerate(self.problems):
            for c, text in enumerate((p.column, p.value, f"{p.count:,}", p.where)):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.buttons.addButton(self.extend_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(self.drop_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.buttons)
        self.resize(560, 300)

    def _extend(self, *_args) -> None:
        self._choose(EXTEND)

    def _drop(self, *_args) -> None:
        self._choose(DROP)

    def _choose(self, choice: str) -> None:
        self.choice = choice
        self.accept()


def ask_unknown_states(parent: QWidget | None, problems: Sequence[StateProblem], n_rows: int) -> str | None:
    """EXTEND, DROP or None (tests replace this function)."""
    dialog = UnknownStatesDialog(problems, n_rows, parent)
    dialog.exec()
    return dialog.choice
