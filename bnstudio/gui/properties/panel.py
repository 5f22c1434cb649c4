"""The node properties panel: name, states (add, rename, remove, reorder — the CPTs follow through the core)
and description. It echoes the network (signals blocked while echoing) and edits only through commands. A
rename goes through the same command as on the canvas (in an influence diagram it is checked against the
utility nodes and the diagram's rules); a refused rename is said under the name and changes nothing."""
from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from bnstudio.app import commands as cmd
from bnstudio.app.commands.diagram_edits import rename_node
from bnstudio.core.events import Event
from bnstudio.core.variable import next_state_name
from bnstudio.gui.document import Document
from bnstudio.gui.theme import PaletteFollower, text_style
from bnstudio.io.messages import listing

FAMILY_SHOWN = 40  # names listed before "and N more": a naive Bayes class has a thousand children


def family_text(names: Sequence[str]) -> str:
    """``names`` unquoted, at most :data:`FAMILY_SHOWN` of them, then ``and N more``; a dash for none."""
    return listing(names, limit=FAMILY_SHOWN, quote=False) if names else "—"


class DescriptionEdit(QPlainTextEdit):
    """A plain-text box that reports ``editing_finished`` when it loses focus (one undo step per visit)."""

    editing_finished = Signal()

    def focusOutEvent(self, event) -> None:  # Qt override
        super().focusOutEvent(event)
        self.editing_finished.emit()


class PropertiesPanel(QWidget):
    """Edits the variable set with :meth:`set_variable`."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.variable: str | None = None
        self.name_edit = QLineEdit()
        self.name_notice = QLabel()     # why the last rename was refused
        self.family = QLabel()
        self.states = QListWidget()
        self.add_button = QPushButton("Add")
        self.remove_button = QPushButton("Remove")
        self.up_button = QPushButton("Up")
        self.down_button = QPushButton("Down")
        self.description = DescriptionEdit()
        self._compose()
        self.name_edit.editingFinished.connect(self.commit_name)
        self.states.itemChanged.connect(self._on_state_edited)
        self.states.currentRowChanged.connect(self._update_buttons)
        self.add_button.clicked.connect(self.add_state)
        self.remove_button.clicked.connect(self.remove_state)
        self.up_button.clicked.connect(lambda: self.move_state(-1))
        self.down_button.clicked.connect(lambda: self.move_state(1))
        self.description.editing_finished.connect(self.commit_description)
        document.network_changed.connect(self._on_network_changed)
        document.network_replaced.connect(lambda: self.set_variable(None))
        self.set_variable(None)

    def _compose(self) -> None:
        self.family.setWordWrap(True)
        PaletteFollower(self.family, lambda: self.family.setStyleSheet(text_style("muted")))
        self.name_notice.setWordWrap(True)
        PaletteFollower(self.name_notice, lambda: self.name_notice.setStyleSheet(text_style("error")))
        self.name_notice.hide()
        self.description.setPlaceholderText("What this variable means, its source, units…")
        self.description.setMaximumHeight(110)
        self.states.setMaximumHeight(170)
        self.states.setToolTip("Double-click a state to rename it")
        buttons = QHBoxLayout()
        for button in (self.add_button, self.remove_button, self.up_button, self.down_button):
            buttons.addWidget(button)
        form = QFormLayout()
        form.addRow("Name", self.name_edit)
        form.addRow("", self.name_notice)
        form.addRow("", self.family)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(form)
        layout.addWidget(QLabel("States"))
        layout.addWidget(self.states)
        layout.addLayout(buttons)
        layout.addWidget(QLabel("Description"))
        layout.addWidget(self.description)
        layout.addStretch(1)

    # ------------------------------------------------------------------ echo the network
    def set_variable(self, name: str | None) -> None:
        net = self.document.network
        if name != self.variable:
            self._say("")      # a refusal is about the node it was shown for
        self.variable = shown = name if name and name in net else None
        enabled = shown is not None
        for widget in (self.name_edit, self.states, self.add_button, self.description):
            widget.setEnabled(enabled)
        for widget in (self.name_edit, self.states, self.description):
            widget.blockSignals(True)
        self.states.clear()
        if shown is not None:
            var = net.variable(shown)
            self.name_edit.setText(var.name)
            for state in var.states:
                item = QListWidgetItem(state)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
                self.states.addItem(item)
            self.description.setPlainText(var.description)
            parents, children = net.parents(shown), net.children(shown)
            self.family.setText(f"Parents: {family_text(parents)}\nChildren: {family_text(children)}")
        else:
            self.name_edit.setText("")
            self.description.setPlainText("")
            self.family.setText("Select a node to see and edit its properties.")
        for widget in (self.name_edit, self.states, self.description):
            widget.blockSignals(False)
        self._update_buttons()

    def _on_network_changed(self, event: Event) -> None:
        if self.variable is None:
            return
        if event.kind == "rename_variable" and event.data["old"] == self.variable:
            self.variable = event.data["new"]
        if event.structural or event.kind == "set_description":
            row = self.states.currentRow()
            self.set_variable(self.variable)
            if 0 <= row < self.states.count():
                self.states.setCurrentRow(row)

    def _update_buttons(self, *_args) -> None:
        row, n = self.states.currentRow(), self.states.count()
        self.remove_button.setEnabled(self.variable is not None and row >= 0 and n > 1)
        self.up_button.setEnabled(self.variable is not None and row > 0)
        self.down_button.setEnabled(self.variable is not None and 0 <= row < n - 1)

    # ------------------------------------------------------------------ edits
    def commit_name(self) -> bool:
        """Rename the variable to the name typed; a refusal is shown under the name, which goes back."""
        new = self.name_edit.text().strip()
        if self.variable is None or new == self.variable:
            self._say("")
            return False
        if not self.document.execute(rename_node(self.document, self.variable, new)):
            self.name_edit.setText(self.variable)
            self._say(f"Not renamed to '{new}': {self.document.refusal}")
            return False
        self._say("")
        return True

    def _say(self, text: str) -> None:
        self.name_notice.setText(text)
        self.name_notice.setVisible(bool(text))

    def _on_state_edited(self, item: QListWidgetItem) -> None:
        var, row = self.variable, self.states.row(item)
        if var is None:
            return
        old = self.document.network.states(var)[row]
        new = item.text().strip()
        if new != old and not self.document.execute(cmd.RenameState(self.document, var, old, new)):
            self.set_variable(var)

    def add_state(self) -> bool:
        var = self.variable
        if var is None:
            return False
        name = next_state_name(self.document.network.states(var))   # in the style of the others
        ok = self.document.execute(cmd.AddState(self.document, var, name))
        if ok:
            self.states.setCurrentRow(self.states.count() - 1)
        return ok

    def remove_state(self) -> bool:
        row = self.states.currentRow()
        if self.variable is None or row < 0:
            return False
        state = self.document.network.states(self.variable)[row]
        return self.document.execute(cmd.RemoveState(self.document, self.variable, state))

    def move_state(self, step: int) -> bool:
        var, row = self.variable, self.states.currentRow()
        if var is None:
            return False
        order = list(self.document.network.states(var))
        target = row + step
        if row < 0 or not 0 <= target < len(order):
            return False
        order[row], order[target] = order[target], order[row]
        ok = self.document.execute(cmd.ReorderStates(self.document, var, order))
        if ok:
            self.states.setCurrentRow(target)
        return ok

    def commit_description(self) -> bool:
        if self.variable is None:
            return False
        text = self.description.toPlainText()
        if text == self.document.network.variable(self.variable).description:
            return False
        return self.document.execute(cmd.SetDescription(self.document, self.variable, text))
