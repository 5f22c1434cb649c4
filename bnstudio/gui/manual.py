"""Help ▸ Manual (F1): the repository's own docs (docs/*.md and their pictures), shown offline in a window with
the list of pages, the page as Markdown and a find field; and context help: F1 in the Learn Parameters, Learn
Structure, Query or Time panel (or its dock's "?" button) opens the manual at that panel's section, and Help ▸ What's
This (Shift+F1) explains a panel in a few lines.

The pages come from :func:`bnstudio.resources.manual_page` (bundled in a built package, the checkout's docs/
otherwise): nothing is downloaded and nothing is written twice.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QImage, QKeySequence, QShortcut, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from bnstudio.resources import manual_page

FIRST_PAGE = "gui.md"
#: pages shown first, in this order; the others follow by title, the developers' architecture page last
ORDER = ("gui.md", "learning.md", "uncertainty.md", "inference.md", "decisions.md", "experiments.md",
         "file-formats.md", "project-format.md", "model.md")
LAST = ("architecture.md",)
#: dock key -> (page, heading) of its section: what F1 and the dock's "?" open
CONTEXT: dict[str, tuple[str, str | None]] = {
    "training": ("gui.md", "Learn Parameters"), "structure": ("gui.md", "Learn Structure"),
    "query": ("gui.md", "Query and error bars"), "time": ("temporal.md", "In the app")}
#: Help ▸ What's This on a panel
WHATS_THIS = {
    "training": "<b>Learn Parameters</b><p>Fit the tables (CPTs) of the open network to the data set of the Data "
                "panel: pick a method and its options, Run, watch the curves, then Apply a run (one undoable "
                "edit). F1 opens the manual here.</p>",
    "structure": "<b>Learn Structure</b><p>Learn the arcs from the data set, within the arcs you require or "
                 "forbid; the proposal is drawn over the network as added, removed and reversed arcs until you "
                 "Accept or Discard it. F1 opens the manual here.</p>",
    "query": "<b>Query and error bars</b><p>p(target | evidence) with its error bar: how much the answer could "
             "move given how much data the tables rest on (their Dirichlet counts, or expert counts). The tabs "
             "show where the uncertainty comes from and what to observe next. F1 opens the manual here.</p>",
    "time": "<b>Time</b><p>A two-slice network over T slices: the evidence of each slice (a table you edit cell "
            "by cell, load from or save to a CSV, or take from the canvas), smoothing or filtering, a slider that puts a "
            "slice's beliefs on the canvas, and a state's belief across time. F1 opens the manual here.</p>",
}
#: pictures in the pages are shown at most this wide (the screenshots are 1366 px and more)
IMAGE_WIDTH = 600


def page_title(path: Path) -> str:
    """The page's first heading (its file name without one)."""
    try:
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                if line.startswith("# "):
                    return line[2:].strip().replace("`", "")
    except OSError:
        pass
    return path.stem


def manual_pages() -> list[Path]:
    """The manual's pages in reading order (:data:`ORDER`, then by title, :data:`LAST` at the end)."""
    folder = manual_page(FIRST_PAGE).parent
    pages = sorted(folder.glob("*.md")) if folder.is_dir() else []
    rank = {name: k for k, name in enumerate(ORDER)}
    return sorted(pages, key=lambda p: (p.name in LAST, rank.get(p.name, len(rank)), page_title(p)))


class ManualBrowser(QTextBrowser):
    """A text browser that shows wide pictures at :data:`IMAGE_WIDTH` at most."""

    def loadResource(self, kind: int, url: QUrl | str) -> Any:  # Qt override
        resource = super().loadResource(kind, url)
        if int(kind) != QTextDocument.ResourceType.ImageResource.value or resource is None:
            return resource
        image = resource if isinstance(resource, QImage) else QImage.fromData(resource)   # a file's bytes
        if image.isNull() or image.width() <= IMAGE_WIDTH:
            return resource
        return image.scaledToWidth(IMAGE_WIDTH, Qt.TransformationMode.SmoothTransformation)


class ManualWindow(QWidget):
    """The manual: pages on the left, the page on the right, a find field above it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("BN Studio Manual")
        self.pages = QListWidget()
        self.browser = ManualBrowser()
        self.find_field = QLineEdit()
        self.status = QLabel()
        self.heading = ""          # the section last asked for (kept at the top when the window is resized)
        self.find_field.setPlaceholderText("Find in this page (Enter: next)")
        self.find_field.setClearButtonEnabled(True)
        self.browser.setOpenExternalLinks(True)
        self._compose()
        for path in manual_pages():
            item = QListWidgetItem(page_title(path))
            item.setData(Qt.ItemDataRole.UserRole, path.name)
            self.pages.addItem(item)
        self.pages.currentItemChanged.connect(lambda item, _old: item is not None and self.open_page(
            item.data(Qt.ItemDataRole.UserRole), select=False))
        self.find_field.returnPressed.connect(self.find_next)
        QShortcut(QKeySequence.StandardKey.Find, self, self.find_field.setFocus)
        self.resize(1100, 720)

    def _compose(self) -> None:
        self.pages.setMaximumWidth(260)
        right = QWidget()
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        top.addWidget(self.find_field, 1)
        top.addWidget(self.status)
        column.addLayout(top)
        column.addWidget(self.browser, 1)
        split = QSplitter()
        split.addWidget(self.pages)
        split.addWidget(right)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(split)

    @property
    def page(self) -> str:
        """The file name of the page on show ("" before any)."""
        return Path(self.browser.source().toLocalFile()).name

    def open_page(self, name: str = FIRST_PAGE, heading: str | None = None, select: bool = True) -> bool:
        """Show page ``name`` (at ``heading``'s section if given); False (and a line saying so) without it."""
        path = manual_page(name)
        if not path.is_file():
            self.browser.setPlainText(f"The manual's page {name} is not installed here ({path.parent}).")
            return False
        self.heading = ""
        if self.page != name:
            self.browser.setSearchPaths([str(path.parent)])
            self.browser.setSource(QUrl.fromLocalFile(str(path)), QTextDocument.ResourceType.MarkdownResource)
        if select:
            for row in range(self.pages.count()):
                if self.pages.item(row).data(Qt.ItemDataRole.UserRole) == name:
                    self.pages.blockSignals(True)
                    self.pages.setCurrentRow(row)
                    self.pages.blockSignals(False)
        return self.go_to_heading(heading) if heading else True

    def go_to_heading(self, text: str) -> bool:
        """Scroll the page so the heading ``text`` (its start) is at the top; False if there is none."""
        block = self.browser.document().begin()
        while block.isValid():
            if block.blockFormat().headingLevel() > 0 and block.text().strip().startswith(text):
                self.heading = text
                self._scroll_to(block)
                return True
            block = block.next()
        return False

    def _scroll_to(self, block) -> None:
        """The cursor at ``block``, scrolled to the top of the view: to the end first, then back up to it."""
        self.browser.moveCursor(QTextCursor.MoveOperation.End)
        self.browser.ensureCursorVisible()
        self.browser.setTextCursor(QTextCursor(block))
        self.browser.ensureCursorVisible()

    def resizeEvent(self, event) -> None:  # Qt override: the text reflows; the section asked for stays on top
        super().resizeEvent(event)
        if self.heading and self.current_heading() == self.heading:
            self._scroll_to(self.browser.textCursor().block())

    def current_heading(self) -> str:
        """The heading of the section the cursor is in ("" above the first)."""
        block = self.browser.textCursor().block()
        while block.isValid() and block.blockFormat().headingLevel() == 0:
            block = block.previous()
        return block.text().strip() if block.isValid() else ""

    def find_next(self) -> bool:
        """Select the next match of the find field (from the top again at the end)."""
        text = self.find_field.text()
        if not text:
            return False
        found = self.browser.find(text)
        if not found:
            self.browser.moveCursor(QTextCursor.MoveOperation.Start)
            found = self.browser.find(text)
        self.status.setText("" if found else "not found")
        return found
