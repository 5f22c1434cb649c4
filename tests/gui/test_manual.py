"""Help ▸ Manual on F1, from the repository's docs (offline), and context help for the Learn Parameters, Learn
Structure and Query panels: the dock's "?" and F1 in the panel open the manual at its section; What's This
(Shift+F1) explains the panel (issue 38, "a manual in the app")."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QKeySequence, QTextDocument
from PySide6.QtWidgets import QApplication

from bnstudio.gui import manual
from bnstudio.resources import manual_page, resource_root

from .conftest import ASIA

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture
def checkout_docs(monkeypatch):
    """The manual read from this checkout's docs/ (the editable install may be another checkout's)."""
    monkeypatch.setattr(manual, "manual_page", lambda name="gui.md": DOCS / name)


def test_a_checkout_reads_the_manual_beside_its_bundled_files():
    assert manual_page("gui.md") == resource_root().parent / "docs" / "gui.md"
    assert manual_page("gui.md").is_file()


def test_f1_opens_the_manual_at_its_first_page(qtbot, window, checkout_docs):
    w = window
    assert w.menu_actions.manual.shortcut() == QKeySequence(QKeySequence.HelpContents)
    assert w.menu_actions.manual in w.menus["help"].actions() and w.menu_actions.whats_this in w.menus["help"].actions()
    w.menu_actions.manual.trigger()
    browser = w._manual
    assert browser.isVisible() and browser.page == "gui.md"
    assert browser.browser.document().toPlainText().startswith("The BN Studio desktop app")
    titles = [browser.pages.item(k).text() for k in range(browser.pages.count())]
    assert len(titles) == len(list(DOCS.glob("*.md"))) and titles[0] == "The BN Studio desktop app"
    assert titles[-1] == "Architecture and house rules"


def test_every_page_renders_with_its_pictures(qtbot, window, checkout_docs):
    w = window
    w.show_manual()
    view = w._manual
    for row in range(view.pages.count()):
        view.pages.setCurrentRow(row)
        name = view.pages.item(row).data(0x0100)
        assert view.page == name and view.browser.document().toPlainText().strip(), name
    assert view.open_page("gui.md")
    pictures = [p for p in DOCS.glob("*.png") if f"]({p.name})" in (DOCS / "gui.md").read_text(encoding="utf-8")]
    assert pictures
    image = view.browser.document().resource(QTextDocument.ImageResource, pictures[0].name)
    assert image is not None and not image.isNull() and image.width() <= manual.IMAGE_WIDTH


@pytest.mark.parametrize("key, heading", [("training", "Learn Parameters"), ("structure", "Learn Structure"),
                                          ("query", "Query and error bars")])
def test_each_panels_question_mark_opens_its_section(qtbot, window, checkout_docs, key, heading):
    w = window
    assert w.open_path(ASIA)
    w.show_dock(key)
    bar = w.docks[key].titleBarWidget()
    assert bar.title.text() == w.docks[key].windowTitle()
    bar.help_button.click()
    view = w._manual
    assert view.isVisible() and view.page == "gui.md" and view.current_heading() == heading
    assert "F1" in w.docks[key].whatsThis() and heading.split()[0] in w.docks[key].whatsThis()


def test_f1_in_a_panel_is_context_help(qtbot, window, checkout_docs):
    w = window
    assert w.open_path(ASIA)
    w.show_dock("query")
    w.activateWindow()
    w.view.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is w.view, timeout=2000)
    w.menu_actions.manual.trigger()                                  # the canvas: the first page, from the top
    assert w._manual.page == "gui.md" and w._manual.current_heading() == "The BN Studio desktop app"
    w.activateWindow()
    level = w.query_panel.controls.level
    level.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is level, timeout=2000)
    w.menu_actions.manual.trigger()                                  # in the query panel: its section
    assert w._manual.current_heading() == "Query and error bars"


def test_find_in_the_manual(qtbot, window, checkout_docs):
    w = window
    w.show_manual()
    view = w._manual
    view.find_field.setText("Dirichlet")
    assert view.find_next() and view.browser.textCursor().selectedText() == "Dirichlet"
    view.find_field.setText("no such words anywhere 123")
    assert not view.find_next() and view.status.text() == "not found"


def test_the_dock_title_bar_floats_and_closes(qtbot, window):
    w = window
    w.show_dock("structure")
    bar = w.docks["structure"].titleBarWidget()
    bar.float_button.click()
    assert w.docks["structure"].isFloating()
    bar.float_button.click()
    assert not w.docks["structure"].isFloating()
    bar.close_button.click()
    assert not w.docks["structure"].isVisible()
