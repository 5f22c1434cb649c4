"""A second window restoring the first one's saved layout shows no stray dock tab bar (seen: the seven-tab bar
of the default arrangement stayed over the toolbar after the restore), keeps the right area's tabs on top,
and an empty canvas has no scroll bars."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QTabBar

from tests.gui.conftest import ALARM


def _tab_bars_on_screen(window) -> list[list[str]]:
    bars = [b for b in window.findChildren(QTabBar) if b.parent() is window and b.isVisible()
            and window.rect().intersects(b.geometry())]
    return [[b.tabText(i) for i in range(b.count())] for b in bars]


def _visible_titles(window) -> set[str]:
    return {d.windowTitle() for d in window.docks.values() if d.isVisible()}


def _new_window(settings, recovery):
    from bnstudio.gui.main_window import MainWindow

    window = MainWindow(settings, recovery)
    window.resize(1366, 768)
    window.show()
    for _ in range(5):
        QApplication.processEvents()
    return window


@pytest.mark.parametrize("dock", [None, "query"])
def test_a_second_window_restores_the_layout_without_a_stray_tab_bar(qtbot, settings, recovery, no_dialogs, dock):
    first = _new_window(settings, recovery)
    qtbot.addWidget(first)
    assert first.open_path(ALARM)
    first.scene.select_only(["HR"])                 # brings the Node and Probability Table docks
    if dock:
        first.show_dock(dock)
    QApplication.processEvents()
    first.save_settings()
    second = _new_window(settings, recovery)
    qtbot.addWidget(second)
    for window in (first, second):
        titles = _visible_titles(window)
        for tabs in _tab_bars_on_screen(window):
            assert set(tabs) <= titles, tabs          # a tab bar on screen only holds docks that are shown
    right_bars = [b for b in second.findChildren(QTabBar) if b.parent() is second and b.isVisible()
                  and second.rect().intersects(b.geometry())]
    for bar in right_bars:                            # tabs on top of the right area, under the toolbar
        assert bar.geometry().top() < second.height() / 2
    view = second.view                               # nothing opened: nothing to scroll
    assert not view.horizontalScrollBar().isVisible() and not view.verticalScrollBar().isVisible()
    first.document.mark_saved()
    second.document.mark_saved()
