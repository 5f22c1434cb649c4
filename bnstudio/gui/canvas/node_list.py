"""Every node two clicks away: a "Go to node" button in the status bar that pops up the network's nodes, sorted
by name and filtered as one types; a click on a name selects that node and shows it at 100 % (as Find Node,
Ctrl+F, does). On a network of a thousand nodes, opened fitted and drawn tiny, this is the way to any of them
without typing."""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtWidgets import QFrame, QLineEdit, QListWidget, QToolButton, QVBoxLayout, QWidget


class NodeListPopup(QFrame):
    """A popup: a filter line over the sorted names; ``chosen(name)`` on a click (or Enter on a name)."""

    chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter (any part of a name)")
        self.filter.setClearButtonEnabled(True)
        self.list = QListWidget()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.filter)
        layout.addWidget(self.list)
        self.filter.textChanged.connect(self.apply_filter)
        self.filter.returnPressed.connect(self._choose_first)
        self.list.itemClicked.connect(lambda item: self._choose(item.text()))
        self.list.itemActivated.connect(lambda item: self._choose(item.text()))

    def set_names(self, names: list[str]) -> None:
        self.list.clear()
        self.list.addItems(sorted(names, key=str.casefold))
        self.filter.clear()

    def apply_filter(self, text: str) -> None:
        folded = text.strip().casefold()
        for row in range(self.list.count()):
            item = self.list.item(row)
            item.setHidden(bool(folded) and folded not in item.text().casefold())

    def shown_names(self) -> list[str]:
        return [self.list.item(r).text() for r in range(self.list.count()) if not self.list.item(r).isHidden()]

    def _choose_first(self) -> None:
        shown = self.shown_names()
        if shown:
            self._choose(shown[0])

    def _choose(self, name: str) -> None:
        self.hide()
        self.chosen.emit(name)


class NodeListButton(QToolButton):
    """The status bar's "Go to node" button; ``names()`` gives the nodes when it is clicked."""

    def __init__(self, names: Callable[[], list[str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.names = names
        self.setText("Go to node ▴")
        self.setToolTip("Every node by name: click one to show it at 100 % (Ctrl+F finds one by typing)")
        self.setAutoRaise(True)
        self.popup = NodeListPopup(self)
        self.clicked.connect(self.open_list)

    def open_list(self) -> None:
        """Pop the list up above the button (the status bar is at the window's bottom)."""
        self.popup.set_names(self.names())
        rows = min(max(self.popup.list.count(), 1), 18)
        height = rows * max(self.popup.list.sizeHintForRow(0), 16) + 60
        self.popup.resize(280, height)
        corner = self.mapToGlobal(QPoint(0, 0))
        self.popup.move(corner.x(), max(0, corner.y() - height))
        self.popup.show()
        self.popup.filter.setFocus()
