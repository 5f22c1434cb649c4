"""One reset path: everything the window shows belongs to the open document.

When another network replaces the open one (Open, Open Recent, Examples, New, a restored recovery copy), the
document emits ``network_closing`` before it changes anything, and :func:`forget_document` clears, in one place,
every status line, message and cached result that described the old network: the status bar, the message
bar over the canvas, and each panel's own (``forget_document`` on the data, training, structure and query
panels: the query's answer and the bootstrap spread of a bagged-mp run, a run's status line and curves'
axes, a learning status). Then ``network_replaced`` lets each panel recompute for the new network, saying
"Computing…" where an answer is not there yet (seen: ALARM's "Bootstrap 90% (200 bags)" beside a p of the
next network, a clgd run's "0.08 s" status and axes, a previous network's p(Test=yes) for seconds on munin).

A message is about the state it was shown in: :class:`StaleMessages` clears the status bar and the message bar
once a later edit has gone through (seen: "'abc' is not a number" kept after the cell was fixed).
"""
from __future__ import annotations

from PySide6.QtCore import QObject
from shiboken6 import isValid

from bnstudio.gui.window_parts import WindowParts


def install(window: WindowParts) -> None:
    """Connect the reset path of ``window`` (called once, after its panels exist)."""
    window.document.network_closing.connect(lambda: forget_document(window))
    window.stale_messages = StaleMessages(window)


def forget_document(window: WindowParts) -> None:
    """Clear every status line, message and cached result that belonged to the network being replaced."""
    window.statusBar().clearMessage()
    window.message_bar.hide()
    for panel in (getattr(window, "built_panels", None) or {}).values():   # bnstudio.gui.panels: a panel
        panel.forget_document()                  # not built yet has nothing to forget (reading one builds it)


class StaleMessages(QObject):
    """Clears the window's status-bar message and message bar once an edit made after them has gone through
    (an edit that itself reports something keeps its own message)."""

    def __init__(self, window: WindowParts) -> None:
        super().__init__(window)
        self.window = window
        self.shown_at = -1          # the document's edit count when the last message was shown
        document = window.document
        document.message.connect(self._shown)
        document.undo_stack.indexChanged.connect(self._edited)   # after the document's own handler

    def _shown(self, _level: str, _text: str) -> None:
        self.shown_at = self.window.document.edit_count

    def _edited(self, _index: int) -> None:
        if not isValid(self.window):   # the window is being destroyed (its undo stack goes with it)
            return
        if self.shown_at < self.window.document.edit_count:
            self.window.statusBar().clearMessage()
            self.window.message_bar.hide()
