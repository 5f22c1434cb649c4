"""The mouse wheel scrolls; it never changes a setting by passing over it.

Qt lets a spin box, a combo box or a slider take the wheel while the pointer is over it, even without focus,
so scrolling a panel changed its settings on the way (the query panel's credible level went from 90 % to
85 %). :func:`install` puts one application-wide event filter in place: such a control takes wheel events
only while it has keyboard focus (click it first); otherwise the event goes to the nearest scroll area around
it, which scrolls. Those controls also stop taking focus from the wheel (``Qt.StrongFocus``).
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (QAbstractScrollArea, QAbstractSlider, QAbstractSpinBox, QApplication, QComboBox,
                               QScrollBar, QWidget)

GUARDED = (QAbstractSpinBox, QComboBox, QAbstractSlider)


def is_guarded(obj: QObject) -> bool:
    """A value control the wheel must not change unfocused (scroll bars are the wheel's own target)."""
    return isinstance(obj, GUARDED) and not isinstance(obj, QScrollBar)


class WheelGuard(QObject):
    """The event filter; see the module docstring."""

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override
        kind = event.type()
        if kind == QEvent.Polish and is_guarded(obj) and obj.focusPolicy() == Qt.WheelFocus:
            obj.setFocusPolicy(Qt.StrongFocus)
        elif kind == QEvent.Wheel and is_guarded(obj) and not obj.hasFocus():
            area = scroll_area_around(obj)
            if area is not None:
                QApplication.sendEvent(area.viewport(), event)
            return True
        return False


def scroll_area_around(widget: QWidget) -> QAbstractScrollArea | None:
    """The nearest enclosing scroll area (a popup list or another control's own view does not count)."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea) and not is_guarded(parent):
            return parent
        parent = parent.parentWidget()
    return None


def install(app: QApplication | None = None) -> WheelGuard:
    """Install the guard on ``app`` (the running application by default) once; returns it."""
    app = app or QApplication.instance()
    guard = app.findChild(WheelGuard)
    if guard is None:
        guard = WheelGuard(app)
        app.installEventFilter(guard)
    return guard
