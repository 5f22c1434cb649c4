"""A dock's title bar with a "?" button: context help (the manual at the panel's section) beside the usual
float and close buttons, for the panels a user needs explained (Learn Parameters, Learn Structure, Query, Time)."""
from __future__ import annotations

from typing import Callable

from PySide6.QtWidgets import QDockWidget, QHBoxLayout, QLabel, QStyle, QToolButton, QWidget


class HelpTitleBar(QWidget):
    """The title of ``dock``, then "?" (calls ``on_help``), float and close; dragging the title moves the dock."""

    def __init__(self, dock: QDockWidget, on_help: Callable[[], None]) -> None:
        super().__init__(dock)
        self.dock = dock
        self.title = QLabel(dock.windowTitle())
        self.help_button = self._button("?", "Help on this panel: the manual at its section (F1)")
        self.float_button = self._button("", "Float or dock this panel")
        self.close_button = self._button("", "Close this panel (View ▸ shows it again)")
        style = self.style()
        self.float_button.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_TitleBarNormalButton))
        self.close_button.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_TitleBarCloseButton))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 1, 2, 1)
        layout.setSpacing(2)
        layout.addWidget(self.title, 1)
        for button in (self.help_button, self.float_button, self.close_button):
            layout.addWidget(button)
        self.help_button.clicked.connect(on_help)
        self.float_button.clicked.connect(lambda: dock.setFloating(not dock.isFloating()))
        self.close_button.clicked.connect(dock.close)
        dock.windowTitleChanged.connect(self.title.setText)

    def _button(self, text: str, tip: str) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setAutoRaise(True)
        return button
