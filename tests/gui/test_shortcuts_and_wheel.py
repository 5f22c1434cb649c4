"""Every key sequence triggers one action (Ctrl+Shift+S was bound to both Save As and Learn Structure, so Qt
reported an ambiguous overload and did nothing), and the mouse wheel scrolls a dock without changing the
settings it passes over (scrolling over the query panel changed the credible level from 90 % to 85 %)."""
from __future__ import annotations

from collections import defaultdict

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QWheelEvent
from PySide6.QtWidgets import QApplication, QMenu, QScrollArea, QSpinBox, QVBoxLayout, QWidget

from bnstudio.gui import wheel_guard


def test_no_two_actions_of_the_main_window_share_a_key_sequence(window):
    for menu in window.findChildren(QMenu):   # menus filled when they open (examples, recent files)
        menu.aboutToShow.emit()
    for dock in window.docks.values():
        dock.show()
    QApplication.processEvents()
    bound = defaultdict(list)
    for action in window.findChildren(QAction):
        for sequence in action.shortcuts():
            bound[sequence.toString()].append(action.text())
    assert "Ctrl+Shift+S" in bound and "Ctrl+S" in bound and "Ctrl+Shift+L" in bound
    assert {key: texts for key, texts in bound.items() if len(texts) > 1} == {}


def test_save_as_owns_ctrl_shift_s(window):
    assert window.menu_actions.save_as.shortcut().toString() == "Ctrl+Shift+S"
    assert window.menu_actions.learn_structure.shortcut().toString() == "Ctrl+Shift+L"


def wheel(widget: QWidget, steps: int = -1) -> None:
    """One notch down (``steps`` < 0) over the middle of ``widget``."""
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(),
                        QPoint(0, 120 * steps), Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_the_wheel_over_an_unfocused_query_setting_scrolls_instead(qtbot, alarm_window):
    w = alarm_window
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    w.show_dock("query")
    level = w.query_panel.controls.level
    area = next(a for a in w.query_panel.findChildren(QScrollArea) if a.widget() is w.query_panel.controls)
    area.setFixedHeight(120)     # short enough to scroll
    QApplication.processEvents()
    assert area.verticalScrollBar().maximum() > 0
    w.view.setFocus()
    before = level.value()
    wheel(level)
    assert level.value() == before == 90.0
    assert area.verticalScrollBar().value() > 0
    level.setFocus()                 # a focused control takes the wheel as before
    QApplication.processEvents()
    if level.hasFocus():
        wheel(level)
        assert level.value() != before


def test_guarded_controls_do_not_take_focus_from_the_wheel(qtbot):
    host = QScrollArea()
    inner = QWidget()
    spin = QSpinBox()
    QVBoxLayout(inner).addWidget(spin)
    host.setWidget(inner)
    wheel_guard.protect(inner)
    qtbot.addWidget(host)
    host.show()
    qtbot.waitExposed(host)
    assert spin.focusPolicy() == Qt.StrongFocus


def test_a_control_added_to_a_protected_panel_later_is_guarded_and_others_are_not(qtbot):
    """The guard sits only on protected panels' controls (no application-wide filter on every event); a row
    added later is found when the panel's layout changes."""
    host = QScrollArea()
    inner = QWidget()
    layout = QVBoxLayout(inner)
    layout.addWidget(QSpinBox())
    inner.setMinimumHeight(2000)                 # taller than the area: it scrolls
    host.setWidget(inner)
    host.setWidgetResizable(True)
    host.resize(200, 150)
    wheel_guard.protect(inner)
    qtbot.addWidget(host)
    host.show()
    qtbot.waitExposed(host)
    late = QSpinBox()
    layout.addWidget(late)
    QApplication.processEvents()                 # the layout request reaches the panel
    late.setFocusPolicy(Qt.StrongFocus)
    before = late.value()
    wheel(late, steps=1)
    assert late.value() == before                # guarded: the area scrolled instead
    outside = QSpinBox()                         # not in a protected panel: the wheel works as Qt has it
    outside.setMaximum(10)
    qtbot.addWidget(outside)
    outside.show()
    qtbot.waitExposed(outside)
    wheel(outside, steps=1)
    assert outside.value() == 1


def test_toolbar_tooltips_name_their_shortcut(window):
    """Issue 38: the toolbar's tooltips showed the name alone; now "Fit to View (Ctrl+Shift+F)", a tooltip of
    the action's own after it, and Undo's follows the stack."""
    from PySide6.QtGui import QKeySequence

    shown = [a for a in window.toolbar.actions() if not a.isSeparator()]
    with_keys = [a for a in shown if not a.shortcut().isEmpty()]
    assert len(with_keys) == len(shown) >= 14
    for action in with_keys:
        keys = action.shortcut().toString(QKeySequence.NativeText)
        assert f"({keys})" in action.toolTip() and "&" not in action.toolTip(), action.toolTip()
    assert window.menu_actions.fit.toolTip() == "Fit to View (Ctrl+Shift+F)"
    assert window.menu_actions.tool_node.toolTip().startswith("Add Node (N) — Click on empty space")
    from bnstudio.app import commands as cmd
    from bnstudio.gui.actions import plain_text

    window.document.execute(cmd.AddVariable(window.document, "Extra", ("yes", "no"), (0.0, 0.0)))  # an edit
    undo = window.menu_actions.undo
    assert "Extra" in undo.text()
    assert undo.toolTip() == f"{plain_text(undo.text())} ({undo.shortcut().toString(QKeySequence.NativeText)})"
