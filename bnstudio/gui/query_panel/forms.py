"""A small form of ``variable = state`` rows: the query's target configuration and the form evidence."""
from __future__ import annotations

from typing import Callable, Iterable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QToolButton, QVBoxLayout, QWidget

from bnstudio.core.network import Network
from bnstudio.gui.responsive import fit_names


class AssignmentRow(QWidget):
    """One ``variable = state`` pick with a remove button; the variables in alphabetical order (a typed name
    jumps to it), the states in their own order."""

    changed = Signal()
    remove_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.variable_box = QComboBox()
        self.state_box = QComboBox()
        self.remove_button = QToolButton()
        self.net: Network | None = None
        self.remove_button.setText("✕")
        self.remove_button.setAutoRaise(True)
        self.remove_button.setToolTip("Remove this row")
        fit_names(self.variable_box)
        self.state_box.setMinimumContentsLength(8)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.variable_box, 3)
        layout.addWidget(self.state_box, 2)
        layout.addWidget(self.remove_button)
        self.variable_box.currentTextChanged.connect(self._on_variable)
        self.state_box.currentTextChanged.connect(lambda _text: self.changed.emit())
        self.remove_button.clicked.connect(lambda: self.remove_requested.emit(self))

    def set_network(self, net: Network, variable: str | None = None, state: str | None = None) -> None:
        """Offer ``net``'s variables, keeping (or setting) the current pick when it still exists."""
        self.net = net
        variable = variable if variable is not None else self.variable_box.currentText()
        state = state if state is not None else self.state_box.currentText()
        self.variable_box.blockSignals(True)
        self.variable_box.clear()
        self.variable_box.addItems(sorted(net.variables, key=str.casefold))   # alphabetical: typing a name
        # picks it (seen: ALARM's 37 names in file order)
        if variable in net:
            self.variable_box.setCurrentText(variable)
        self.variable_box.blockSignals(False)
        self._fill_states(state)

    def _fill_states(self, state: str | None = None) -> None:
        name = self.variable_box.currentText()
        self.state_box.blockSignals(True)
        self.state_box.clear()
        if self.net is not None and name in self.net:
            self.state_box.addItems(list(self.net.states(name)))
            if state in self.net.states(name):
                self.state_box.setCurrentText(state)
        self.state_box.blockSignals(False)

    def _on_variable(self, _name: str) -> None:
        self._fill_states()
        self.changed.emit()

    def value(self) -> tuple[str, str] | None:
        name, state = self.variable_box.currentText(), self.state_box.currentText()
        return (name, state) if name and state else None


class AssignmentEditor(QWidget):
    """Rows of ``variable = state``; :meth:`assignment` is the dict (a later row wins for a repeated name).
    A new row picks a variable neither in use here nor among ``taken()`` (the evidence form: the target's)."""

    changed = Signal()

    def __init__(self, add_text: str = "Add", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.net: Network | None = None
        self.rows: list[AssignmentRow] = []
        self.taken: Callable[[], Iterable[str]] = lambda: ()
        self.add_button = QToolButton()
        self.add_button.setText(f"+ {add_text}")
        self.add_button.setAutoRaise(True)
        self.rows_layout = QVBoxLayout()
        self.rows_layout.setContentsMargins(0, 0, 0, 0)
        self.rows_layout.setSpacing(2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.rows_layout)
        layout.addWidget(self.add_button)
        self.add_button.clicked.connect(lambda: self.add_row())

    def set_network(self, net: Network) -> None:
        """Follow ``net``: rows whose variable it lacks go (never a fallback to its first variable: seen,
        "p(Cloudy=yes | Cloudy=yes)" after opening another network with form evidence)."""
        self.net = net
        for row in list(self.rows):
            if row.variable_box.currentText() in net:
                row.set_network(net)
            else:
                self.remove_row(row, notify=False)
        self.add_button.setEnabled(bool(net.variables))

    def add_row(self, variable: str | None = None, state: str | None = None, notify: bool = True) -> AssignmentRow:
        row = AssignmentRow(self)
        if self.net is not None:
            used = set(self.assignment()) | set(self.taken())
            free = [v for v in self.net.variables if v not in used]
            row.set_network(self.net, variable or (free[0] if free else None), state)
        row.changed.connect(self.changed)
        row.remove_requested.connect(self.remove_row)
        self.rows.append(row)
        self.rows_layout.addWidget(row)
        if notify:
            self.changed.emit()
        return row

    def remove_row(self, row: AssignmentRow, notify: bool = True) -> None:
        self.rows.remove(row)
        self.rows_layout.removeWidget(row)
        row.hide()
        row.deleteLater()
        if notify:
            self.changed.emit()

    def assignment(self) -> dict[str, str]:
        return dict(v for v in (row.value() for row in self.rows) if v is not None)

    def set_assignment(self, assignment: dict[str, str]) -> None:
        """Replace the rows by ``assignment`` (one ``changed`` signal)."""
        for row in list(self.rows):
            self.remove_row(row, notify=False)
        for name, state in assignment.items():
            self.add_row(name, state, notify=False)
        self.changed.emit()
