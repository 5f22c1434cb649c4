"""The mouse wheel scrolls; it never changes a setting by passing over it.

Qt lets a spin box, a combo box or a slider take the wheel while the pointer is over it, even without focus,
so scrolling a panel changed its settings on the way (the query panel's credible level went from 90 % to
85 %). Such a control takes wheel events only while it has keyboard focus (click it first); otherwise the event
goes to the nearest scroll area around it, which scrolls. Those controls also stop taking focus from the wheel
(``Qt.StrongFocus``).

The guard is installed only where it is needed (:func:`protect`): on the controls inside a scrollable panel,
found again whenever the panel's layout changes (a row added, a section shown). An application-wide filter
did the same but cost a Python call on every event of every widget, the canvas's paints included.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QScrollBar,
    QWidget,
)

GUARDED = (QAbstractSpinBox, QComboBox, QAbstractSlider)


def is_guarded(obj: QObject) -> bool:
    """A value control the wheel must not change unfocused (scroll bars are the wheel's own target)."""
    return isinstance(obj, GUARDED) and not isinstance(obj, QScrollBar)


class WheelGuard(QObject):
    """The event filter, on the guarded controls of the roots given to :func:`protect` and on the roots (which
    it watches for new controls); see the module docstring."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.roots: list[QWidget] = []

    def guard_controls(self, root: QWidget) -> None:
        """Filter every value control under ``root`` (again: installing twice changes nothing)."""
        for control in root.findChildren(QWidget):
            if is_guarded(control):
                if control.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                    control.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
                control.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override
        kind = event.type()
        if kind in (QEvent.Type.LayoutRequest, QEvent.Type.Show) and obj in self.roots:
            self.guard_controls(obj)
        elif kind == QEvent.Type.Wheel and isinstance(obj, QWidget) and is_guarded(obj) and not obj.hasFocus():
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


def protect(root: QWidget) -> WheelGuard:
    """Guard the value controls under ``root`` (a scrollable panel's content), now and whenever its layout
    changes or it is shown; returns the guard (one per application)."""
    app = QApplication.instance()
    if app is None:
        raise RuntimeError("protect() needs the QApplication")
    guard = app.findChild(WheelGuard)
    if guard is None:
        guard = WheelGuard(app)
    if root not in guard.roots:
        guard.roots.append(root)
        root.destroyed.connect(lambda _=None, r=root: _forget(guard, r))
        root.installEventFilter(guard)
    guard.guard_controls(root)
    return guard


def _forget(guard: WheelGuard, root: QWidget) -> None:
    guard.roots = [r for r in guard.roots if r is not root]
