"""The CPT as a virtualised table model: one row per parent configuration (a column per parent showing its
state), one column per child state, then a read-only row sum. Nothing is stored per cell: ``data()`` reads
the core's array and computes the parents' states from the row number (mixed radix), so a 10,000-row table
costs the same as a 4-row one.

In *counts* mode the state columns show the Dirichlet counts (alpha) and the last column is the effective
sample size of the row (the sum of its counts), both editable.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QFont

from bnstudio.app import commands as cmd
from bnstudio.app import cpt_operations as ops
from bnstudio.core.events import Event
from bnstudio.core.validation import ROW_TOLERANCE
from bnstudio.display import themes
from bnstudio.gui import theme
from bnstudio.gui.document import Document

Index = QModelIndex | QPersistentModelIndex
_ROLES = frozenset({Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole, Qt.ItemDataRole.BackgroundRole,
                    Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.FontRole})


def _names_in(event: Event) -> set[str]:
    """Every variable an event names (its data keys differ by kind)."""
    data = event.data
    names = {data.get(k) for k in ("name", "old", "new", "variable", "parent", "child")}
    names.update(data.get("variables") or ())
    names.update(data.get("parents") or ())
    return {n for n in names if isinstance(n, str)}


def format_number(value: float) -> str:
    return f"{value:.6g}" if value != 0 else "0"


class CptTableModel(QAbstractTableModel):
    """The table of ``variable`` in ``document.network``; edits go through undo commands."""

    variable_changed = Signal(str)
    rejected = Signal(str)  # a refused edit (not a number, out of range, ...)

    def __init__(self, document: Document, parent=None) -> None:
        super().__init__(parent)
        self.document = document
        self.variable: str | None = None
        self.show_counts = False
        self._parents: tuple[str, ...] = ()
        self._parent_states: list[tuple[str, ...]] = []
        self._strides: list[int] = []
        self._states: tuple[str, ...] = ()
        self._rows = np.zeros((0, 0))
        self._alpha: np.ndarray | None = None
        self._sums = np.zeros(0)
        self._bad = np.zeros(0, dtype=bool)
        document.network_changed.connect(self._on_network_changed)
        document.network_replaced.connect(lambda: self.set_variable(None))

    # ------------------------------------------------------------------ binding
    def set_variable(self, name: str | None) -> None:
        net = self.document.network
        if name is not None and name not in net:
            name = None
        self.beginResetModel()
        self.variable = name
        self._load_structure()
        self._load_values()
        self.endResetModel()
        self.variable_changed.emit(name or "")

    def set_show_counts(self, show: bool) -> None:
        self.beginResetModel()
        self.show_counts = show
        self.endResetModel()

    def _load_structure(self) -> None:
        net, name = self.document.network, self.variable
        self._parents = net.parents(name) if name else ()
        self._parent_states = [net.states(p) for p in self._parents]
        self._states = net.states(name) if name else ()
        cards = [len(s) for s in self._parent_states]
        self._strides = [int(np.prod(cards[k + 1:])) for k in range(len(cards))]

    def _load_values(self) -> None:
        net, name = self.document.network, self.variable
        if name is None:
            self._rows, self._alpha = np.zeros((0, 0)), None
        else:
            self._rows = ops.as_rows(net.cpt(name))
            alpha = net.alpha(name)
            self._alpha = None if alpha is None else ops.as_rows(alpha)
        self._sums = self._rows.sum(axis=1) if self._rows.size else np.zeros(len(self._rows))
        self._bad = np.abs(self._sums - 1.0) > ROW_TOLERANCE

    def _on_network_changed(self, event: Event) -> None:
        if self.variable is None:
            return
        if event.kind == "rename_variable" and event.data["old"] == self.variable:
            self.variable = event.data["new"]
            self.variable_changed.emit(self.variable)
        touched = _names_in(event)
        if event.structural:
            if touched & ({self.variable} | set(self._parents)):
                self.set_variable(self.variable)  # shape or labels changed (cheap: nothing per cell)
            return
        if self.variable in touched:
            self._load_values()
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1))
            self.headerDataChanged.emit(Qt.Orientation.Vertical, 0, max(0, self.rowCount() - 1))

    # ------------------------------------------------------------------ shape
    @property
    def n_parents(self) -> int:
        return len(self._parents)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() or self.variable is None else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() or self.variable is None else self.n_parents + len(self._states) + 1

    def state_column(self, column: int) -> int | None:
        """The child-state index shown in ``column``, or None for parent and sum columns."""
        k = column - self.n_parents
        return k if 0 <= k < len(self._states) else None

    def is_sum_column(self, column: int) -> bool:
        return column == self.n_parents + len(self._states)

    def parent_state(self, row: int, k: int) -> str:
        states = self._parent_states[k]
        return states[(row // self._strides[k]) % len(states)]

    def row_label(self, row: int) -> str:
        return ", ".join(f"{p}={self.parent_state(row, k)}" for k, p in enumerate(self._parents))

    def unnormalised_rows(self) -> list[int]:
        return [int(i) for i in np.flatnonzero(self._bad)]

    @property
    def has_counts(self) -> bool:
        return self._alpha is not None

    # ------------------------------------------------------------------ data
    def _value(self, row: int, column: int) -> float | None:
        state = self.state_column(column)
        if self.show_counts:
            if self._alpha is None:
                return None
            if state is not None:
                return float(self._alpha[row, state])
            return float(self._alpha[row].sum()) if self.is_sum_column(column) else None
        if state is not None:
            return float(self._rows[row, state])
        return float(self._sums[row]) if self.is_sum_column(column) else None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        if role not in _ROLES or not index.isValid():
            return None
        row, column = index.row(), index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if column < self.n_parents:
                return self.parent_state(row, column)
            value = self._value(row, column)
            if value is None:
                return "" if role == Qt.ItemDataRole.DisplayRole else None
            return format_number(value) if role == Qt.ItemDataRole.DisplayRole else value
        if role == Qt.ItemDataRole.BackgroundRole:
            # the cells' own colours, light or dark as the window is (the text keeps the palette's colour)
            if not self.show_counts and self._bad[row]:
                return QBrush(theme.colour(themes.CELLS, "unnormalised"))
            if column < self.n_parents:
                return QBrush(theme.colour(themes.CELLS, "parent"))
            return QBrush(theme.colour(themes.CELLS, "sum")) if self.is_sum_column(column) else None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            across = Qt.AlignmentFlag.AlignLeft if column < self.n_parents else Qt.AlignmentFlag.AlignRight
            return int(Qt.AlignmentFlag.AlignVCenter | across)
        if role == Qt.ItemDataRole.ToolTipRole and not self.show_counts and self._bad[row]:
            return f"This row sums to {self._sums[row]:.6g}, not 1"
        if role == Qt.ItemDataRole.FontRole and self.is_sum_column(column):
            font = QFont()
            font.setItalic(True)
            return font
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole or self.variable is None:
            return None
        if orientation == Qt.Orientation.Vertical:
            return str(section + 1)
        if section < self.n_parents:
            return self._parents[section]
        state = self.state_column(section)
        if state is not None:
            return self._states[state]
        return "ESS" if self.show_counts else "Sum"

    def flags(self, index: Index) -> Qt.ItemFlag:  # Qt override
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        column = index.column()
        editable = self.state_column(column) is not None or (self.show_counts and self.is_sum_column(column))
        if self.show_counts and self._alpha is None:
            editable = False
        return base | Qt.ItemFlag.ItemIsEditable if editable else base

    # ------------------------------------------------------------------ edits (through undo commands)
    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # Qt override
        if role != Qt.ItemDataRole.EditRole or not (self.flags(index) & Qt.ItemFlag.ItemIsEditable):
            return False
        try:
            number = float(str(value).strip().replace(",", ".")) if isinstance(value, str) else float(value)
        except (TypeError, ValueError):
            self.rejected.emit(f"'{value}' is not a number")
            return False
        row, column = index.row(), index.column()
        upper = None if self.show_counts else 1.0
        if not np.isfinite(number) or number < 0 or (upper is not None and number > upper):
            self.rejected.emit(f"{number:g} is out of range: use a number between 0 and 1" if upper
                               else f"{number:g} is out of range: counts must be at least 0")
            return False
        return self._write_cell(row, column, number)

    def _write_cell(self, row: int, column: int, number: float) -> bool:
        doc, var, state = self.document, self.variable, self.state_column(column)
        if var is None:
            return False
        where = f"({self.row_label(row)})" if self.n_parents else ""
        if self.show_counts and self.is_sum_column(column):
            alpha = ops.scale_counts(np.array(doc.network.alpha(var)), row, number)
            return doc.execute(cmd.SetAlpha(doc, var, alpha, f"Set ESS of {var} {where} to {number:g}"))
        if state is None:           # not an editable cell (flags)
            return False
        if self.show_counts:
            alpha = np.array(doc.network.alpha(var))
            ops.as_rows(alpha)[row, state] = number
            text = f"Set α({var}={self._states[state]} {where}) to {number:g}"
            return doc.execute(cmd.SetAlpha(doc, var, alpha, text))
        table = np.array(doc.network.cpt(var))
        ops.as_rows(table)[row, state] = number
        text = f"Set P({var}={self._states[state]}{' | ' + self.row_label(row) if where else ''}) to {number:g}"
        return doc.execute(cmd.SetCpt(doc, var, table, text))
