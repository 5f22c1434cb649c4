"""Find a node by name (Ctrl+F): a line edit floating over the top-left of the canvas that completes names
(any part, any case) and, on Enter, selects the node and brings it into view at a readable zoom. On a network
of a thousand nodes this is how one gets anywhere."""
from __future__ import annotations

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QCompleter, QLineEdit, QWidget


class FindBar(QLineEdit):
    """``found(name)`` when Enter picks a node; Escape closes the bar."""

    found = Signal(str)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.names: list[str] = []
        self.model = QStringListModel(self)
        completer = QCompleter(self.model, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.setCompleter(completer)
        self.setPlaceholderText("Find a node (name or part of it), Enter to go")
        self.setClearButtonEnabled(True)
        self.setFixedWidth(320)
        self.returnPressed.connect(self._go)
        completer.activated.connect(lambda text: self._go(text))
        self.hide()

    def open(self, names: list[str]) -> None:
        """Show the bar, offering ``names``."""
        self.names = list(names)
        self.model.setStringList(self.names)
        self.move(8, 8)
        self.show()
        self.raise_()
        self.selectAll()
        self.setFocus()

    def match(self, text: str) -> str | None:
        """The node ``text`` names: exactly, else ignoring case, else the only one containing it."""
        text = text.strip()
        if text in self.names:
            return text
        folded = [n for n in self.names if n.casefold() == text.casefold()]
        if folded:
            return folded[0]
        containing = [n for n in self.names if text.casefold() in n.casefold()]
        return containing[0] if len(containing) == 1 else None

    def _go(self, text: str | None = None) -> None:
        name = self.match(self.text() if text is None else text)
        if name is None:
            self.setStyleSheet("QLineEdit { background: #FDE7E4; }")   # no such node: say so, stay open
            return
        self.setStyleSheet("")
        self.hide()
        self.found.emit(name)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # Qt override
        if event.key() == Qt.Key.Key_Escape:
            self.hide()
            parent = self.parentWidget()
            if parent is not None:
                parent.setFocus()
            return
        self.setStyleSheet("")
        super().keyPressEvent(event)
