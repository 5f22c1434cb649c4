"""The utility table editor: one row per configuration of the utility node's parents (row-major, as the CPT
editor lists parent configurations), the parents' states, then the utility. Typed text that is not a finite
number is refused with the reason (``rejected``); an accepted value is one undoable edit of the document."""
from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from bnstudio.app import commands as cmd
from bnstudio.decision import UtilityNode
from bnstudio.gui.canvas import style as st
from bnstudio.gui.document import Document

Index = QModelIndex | QPersistentModelIndex


def parse_utility(text: Any) -> tuple[float | None, str]:
    """(value, "") or (None, reason): a finite real number, decimal comma allowed."""
    try:
        number = float(str(text).strip().replace(",", ".")) if isinstance(text, str) else float(text)
    except (TypeError, ValueError):
        return None, f"'{text}' is not a number"
    if not np.isfinite(number):
        return None, f"{text} is not a finite number: a utility must be a finite real number"
    return number, ""


class UtilityTableModel(QAbstractTableModel):
    """Rows of ``document.decisions.utility(name)``; the last column is editable."""

    rejected = Signal(str)

    def __init__(self, document: Document, parent=None) -> None:
        super().__init__(parent)
        self.document = document
        self.name: str | None = None
        self.parents: tuple[str, ...] = ()
        self.rows: list[tuple[int, ...]] = []
        document.decisions_changed.connect(self.refresh)
        document.network_changed.connect(lambda _event: self.refresh())

    def set_utility(self, name: str | None) -> None:
        self.name = name
        self.refresh()

    def utility(self) -> UtilityNode | None:
        """The utility node on show (None: none, or no longer in the diagram)."""
        part, name = self.document.decisions, self.name
        if part is None or name is None or name not in part.utility_names:
            return None
        return part.utility(name)

    def table(self) -> np.ndarray | None:
        utility = self.utility()
        return None if utility is None else utility.table

    def refresh(self) -> None:
        self.beginResetModel()
        utility = self.utility()
        self.parents = () if utility is None else utility.parents
        self.rows = [] if utility is None else list(np.ndindex(utility.table.shape))
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() or self.table() is None else len(self.parents) + 1

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        if role != Qt.ItemDataRole.DisplayRole or orientation != Qt.Orientation.Horizontal:
            return None
        return self.parents[section] if section < len(self.parents) else "Utility"

    def flags(self, index: Index) -> Qt.ItemFlag:  # Qt override
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        return base | Qt.ItemFlag.ItemIsEditable if index.column() == len(self.parents) else base

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        table = self.table()
        if table is None or not index.isValid():
            return None
        row = self.rows[index.row()]
        if index.column() < len(self.parents):
            if role == Qt.ItemDataRole.DisplayRole:
                parent = self.parents[index.column()]
                return self.document.network.states(parent)[row[index.column()]]
            return None
        value = float(table[row])
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{value:g}"
        if role == Qt.ItemDataRole.EditRole:
            return repr(value)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def row_label(self, row: int) -> str:
        return ", ".join(f"{p}={self.document.network.states(p)[i]}"
                         for p, i in zip(self.parents, self.rows[row], strict=True))

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # Qt override
        table, name = self.table(), self.name
        if role != Qt.ItemDataRole.EditRole or table is None or name is None or index.column() != len(self.parents):
            return False
        number, reason = parse_utility(value)
        if number is None:
            self.rejected.emit(reason)
            return False
        new = np.array(table)
        new[self.rows[index.row()]] = number
        where = f" ({self.row_label(index.row())})" if self.parents else ""
        return self.document.execute(cmd.set_utility_table(self.document, name, new, where))


class UtilityTableEditor(QWidget):
    """A utility node chooser, its table, and the reason of the last refused entry."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.chooser = QComboBox()
        self.model = UtilityTableModel(document, self)
        self.view = QTableView()
        self.notice = QLabel()
        self.view.setModel(self.model)
        self.view.verticalHeader().hide()
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.view.setMinimumHeight(110)
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet(f"color: {st.EVIDENCE_BORDER.name()}")
        top = QHBoxLayout()
        top.addWidget(QLabel("Utility node"))
        top.addWidget(self.chooser, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.notice)
        self.chooser.currentTextChanged.connect(self._on_chosen)
        self.model.rejected.connect(self.notice.setText)
        document.decisions_changed.connect(self._fill_chooser)
        self._fill_chooser()

    def _fill_chooser(self) -> None:
        part = self.document.decisions
        names = list(part.utility_names) if part is not None else []
        if names == [self.chooser.itemText(i) for i in range(self.chooser.count())]:
            return
        current = self.model.name
        self.chooser.blockSignals(True)
        self.chooser.clear()
        self.chooser.addItems(names)
        self.chooser.blockSignals(False)
        self.set_utility(current if current in names else (names[0] if names else None))

    def set_utility(self, name: str | None) -> None:
        """Show (and edit) the table of utility node ``name``."""
        if name is not None and name != self.chooser.currentText():
            self.chooser.setCurrentText(name)
        self._on_chosen(name or "")

    def _on_chosen(self, name: str) -> None:
        self.notice.clear()
        if name != self.model.name:
            self.model.set_utility(name or None)

    def edit_cell(self, row: int, text: str) -> bool:
        """Type ``text`` into the utility of row ``row`` (as the delegate would; tests use it)."""
        return self.model.setData(self.model.index(row, len(self.model.parents)), text)
