"""An inline message bar (as in Orange's widgets): refused edits, impossible evidence and other known problems
are shown in words, without a modal dialog. In a panel it sits in the layout; over the canvas it floats
(:class:`FloatingPlacement`), so a message never pushes the network down under the mouse."""
from __future__ import annotations

from typing import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, QRect, Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

from bnstudio.gui.theme import PaletteFollower, banner_style

HIDE_AFTER_MS = {"info": 6000, "warning": 12000, "error": 15000}

#: what a panel shows while its answer for the open document is not there yet (never an older number)
COMPUTING = "Computing…"

class MessageBar(QFrame):
    """Shows one message at a time, with optional action buttons; hides itself after a while (unless sticky)
    or when closed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.level = ""
        self.buttons: list[QPushButton] = []
        self.label = QLabel()
        self.close_button = QToolButton()
        self.timer = QTimer(self)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.close_button.setText("✕")
        self.close_button.setAutoRaise(True)
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(10, 4, 4, 4)
        self.row.addWidget(self.label, 1)
        self.row.addWidget(self.close_button)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.hide)
        self.close_button.clicked.connect(self.hide)
        PaletteFollower(self, self._restyle)    # light or dark banners, as the window is
        self.hide()

    def _restyle(self) -> None:
        self.setStyleSheet(banner_style("MessageBar", self.level or "info"))

    @property
    def text(self) -> str:
        return "" if self.isHidden() else self.label.text()

    def show_message(self, level: str, text: str, actions: Sequence[tuple[str, Callable[[], object]]] = (),
                     sticky: bool = False) -> None:
        """Show ``text``; each action is a button (label, callback); ``sticky`` messages stay until closed or
        replaced."""
        self.level = level
        self.label.setText(text)
        for button in self.buttons:
            self.row.removeWidget(button)
            button.deleteLater()
        self.buttons = []
        for label, callback in actions:
            button = QPushButton(label)
            button.clicked.connect(callback)
            self.row.insertWidget(self.row.count() - 1, button)
            self.buttons.append(button)
        self._restyle()
        self.show()
        if sticky:
            self.timer.stop()
        else:
            self.timer.start(HIDE_AFTER_MS.get(level, 8000))


class FloatingPlacement(QObject):
    """Keeps ``bar`` (a child of ``host``) over the top edge of ``host``, ``margin`` pixels in, as wide as the
    host allows: it covers the host's content instead of taking space from it."""

    def __init__(self, bar: MessageBar, host: QWidget, margin: int = 8, bottom: bool = False) -> None:
        super().__init__(bar)
        self.bar, self.host, self.margin, self.bottom = bar, host, margin, bottom
        bar.setParent(host)
        host.installEventFilter(self)
        bar.installEventFilter(self)
        self.place()

    def place(self) -> None:
        width = max(120, self.host.width() - 2 * self.margin)
        layout = self.bar.layout()
        if layout is not None and layout.hasHeightForWidth():
            height = layout.totalHeightForWidth(width)   # the wrapped text's height at this width, margins included
        else:
            height = self.bar.sizeHint().height()
        top = self.host.height() - height - 3 * self.margin if self.bottom else self.margin
        rect = QRect(self.margin, top, width, height)
        if rect != self.bar.geometry():   # only a change: relaying out posts a LayoutRequest, which calls this again
            self.bar.setGeometry(rect)
            if layout is not None:
                layout.invalidate()   # lay the label out at the new width now (it kept its one-line height)
                layout.activate()
        self.bar.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show, QEvent.Type.LayoutRequest):
            self.place()
        return False
