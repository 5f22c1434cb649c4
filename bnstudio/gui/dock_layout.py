"""Where the docks go and how big they are.

The default arrangement (also **View ▸ Reset Layout**): the analysis panels need height for their plots and
their Run / Accept buttons, so they share the right-hand area at the window's full height, tabbed with the
node properties and the undo history (tabs on top); the probability table, which needs width, sits under the
canvas. Which docks there are, with their titles and tab order: :mod:`bnstudio.display.window_docks`. The right
area takes :data:`RIGHT_FRACTION` of the window's width and the table :data:`BOTTOM_FRACTION` of its height, and
:class:`DockProportions` keeps whatever proportions the user set when the window is resized, so a larger window
grows the panels and not only the canvas.

**First sight** (issue 23): a window without a saved layout opens with every dock hidden
(:func:`collapse`), so the canvas has the whole window for the network's beliefs; the first node selected
brings the Node and Probability Table docks (:func:`reveal`), and every menu that opens a panel shows its dock.

A window without saved geometry opens maximised on screens up to :data:`MAXIMISE_UP_TO` and at
:data:`SCREEN_FRACTION` of larger screens.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QDockWidget, QMainWindow, QTabWidget, QWidget

from bnstudio.display.window_docks import BOTTOM, RIGHT, TITLES

RIGHT_FRACTION = 0.47
#: the right area when the first selected node brings the Node pane alone (the panels need RIGHT_FRACTION)
NODE_FRACTION = 0.32
BOTTOM_FRACTION = 0.27
#: screens up to this size get a maximised window at first start
MAXIMISE_UP_TO = QSize(1680, 1050)
SCREEN_FRACTION = 0.85
#: saved window states of another arrangement are not restored
LAYOUT_VERSION = 2


def make_dock(window: QMainWindow, key: str, widget: QWidget) -> QDockWidget:
    """A dock for ``widget`` titled as :data:`TITLES` says (placed by :func:`arrange`)."""
    dock = QDockWidget(TITLES[key], window)
    dock.setObjectName(f"dock_{key}")
    dock.setWidget(widget)
    return dock


def place(window: QMainWindow, docks: dict[str, QDockWidget]) -> None:
    """Add every dock to its area, untabbed: what a saved layout is restored onto. Tabbing them first (as
    :func:`arrange` does) and then restoring left the first arrangement's tab bar over the toolbar of a second
    window (the tab bar of seven docks outlived the restore)."""
    _area_settings(window)
    for area, group in ((Qt.DockWidgetArea.RightDockWidgetArea, RIGHT),
                        (Qt.DockWidgetArea.BottomDockWidgetArea, BOTTOM)):
        for key, _title in group:
            if key in docks:
                window.addDockWidget(area, docks[key])


def _area_settings(window: QMainWindow) -> None:
    """The right area takes both right corners; its tabs are on top."""
    window.setCorner(Qt.Corner.TopRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
    window.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
    window.setTabPosition(Qt.DockWidgetArea.RightDockWidgetArea, QTabWidget.TabPosition.North)
    window.setDocumentMode(False)


def arrange(window: QMainWindow, docks: dict[str, QDockWidget]) -> None:
    """Put every dock in its default place and tab (shown, docked), then size them to the window."""
    _area_settings(window)
    for area, group in ((Qt.DockWidgetArea.RightDockWidgetArea, RIGHT),
                        (Qt.DockWidgetArea.BottomDockWidgetArea, BOTTOM)):
        first: QDockWidget | None = None
        for key, _title in group:
            dock = docks.get(key)
            if dock is None:          # a dock installed later (the decision panel) is placed then
                continue
            dock.setFloating(False)
            window.addDockWidget(area, dock)
            dock.show()
            if first is None:
                first = dock
            else:
                window.tabifyDockWidget(first, dock)
        if first is not None:
            first.raise_()
    _activate_layout(window)
    size_docks(window, docks)


def _activate_layout(window: QMainWindow) -> None:
    """Lay the docks out now (their sizes are read next)."""
    layout = window.layout()     # a QMainWindow always has its own layout
    if layout is not None:
        layout.activate()


def size_docks(window: QMainWindow, docks: dict[str, QDockWidget], right: float = RIGHT_FRACTION,
               bottom: float = BOTTOM_FRACTION) -> None:
    """The right area at ``right`` of the window's width, the bottom one at ``bottom`` of its height."""
    size = window.size()
    window.resizeDocks([docks[RIGHT[0][0]]], [round(right * size.width())], Qt.Orientation.Horizontal)
    window.resizeDocks([docks[BOTTOM[0][0]]], [round(bottom * size.height())], Qt.Orientation.Vertical)


def collapse(docks: dict[str, QDockWidget]) -> None:
    """Hide every dock (they keep their places: :func:`reveal` and View ▸ show them there)."""
    for dock in docks.values():
        dock.hide()


def reveal(window: QMainWindow, docks: dict[str, QDockWidget], keys: list[str],
           right: float = RIGHT_FRACTION, front: bool = True) -> None:
    """Show the docks ``keys`` (the first in front of its tab group, unless ``front`` is false and its area
    already shows a dock: then what is in front stays there); an area that was empty gets its default share
    of the window, and the right area at least ``right`` of its width. An area that already showed a dock
    keeps its size otherwise (seen: the first selected node shrank an open Query panel from 642 to 437 px)."""
    def shown(area: Qt.DockWidgetArea) -> list[QDockWidget]:
        return [d for d in docks.values() if d.isVisible() and not d.isFloating() and window.dockWidgetArea(d) == area]

    areas = (Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.BottomDockWidgetArea)
    empty = {area for area in areas if not shown(area)}
    in_front = [d for area in areas for d in shown(area)]
    for key in keys:
        docks[key].show()
    if front or window.dockWidgetArea(docks[keys[0]]) in empty:
        docks[keys[0]].raise_()
    for dock in in_front if not front else ():
        dock.raise_()      # a panel the user opened stays in front of what comes in behind it
    _activate_layout(window)
    on_right = shown(Qt.DockWidgetArea.RightDockWidgetArea)
    narrow = bool(on_right) and max(d.width() for d in on_right) < right * window.width() - 30
    grown = {window.dockWidgetArea(docks[k]) for k in keys} & empty
    if narrow or Qt.DockWidgetArea.RightDockWidgetArea in grown:
        window.resizeDocks([docks[RIGHT[0][0]]], [round(right * window.width())], Qt.Orientation.Horizontal)
    if Qt.DockWidgetArea.BottomDockWidgetArea in grown:
        window.resizeDocks([docks[BOTTOM[0][0]]], [round(BOTTOM_FRACTION * window.height())],
                           Qt.Orientation.Vertical)


def first_geometry(window: QMainWindow) -> None:
    """Size a window that has no saved geometry to its screen: maximised on small screens."""
    handle = window.windowHandle()
    screen = window.screen() or (handle.screen() if handle is not None else None)
    available = screen.availableGeometry() if screen is not None else None
    if available is None or available.width() <= 0:
        window.resize(1400, 900)
        return
    if available.width() <= MAXIMISE_UP_TO.width() or available.height() <= MAXIMISE_UP_TO.height():
        window.resize(available.size())
        window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)
        return
    size = available.size() * SCREEN_FRACTION
    window.resize(size)
    window.move(available.center() - window.rect().center())


class DockProportions(QObject):
    """Keeps the right and bottom dock areas at the same fraction of the window when it is resized."""

    def __init__(self, window: QMainWindow, docks: dict[str, QDockWidget]) -> None:
        super().__init__(window)
        self.window, self.docks = window, docks
        self.shown = False
        self.restored = False   # the user's own layout was restored: keep its sizes at first show
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if watched is not self.window:
            return False
        if event.type() == QEvent.Type.Show and not self.shown:   # the first real size: the default proportions
            self.shown = True
            if not self.restored:
                size_docks(self.window, self.docks)
        elif isinstance(event, QResizeEvent) and self.shown:
            old = event.oldSize()
            if old.width() > 0 and old.height() > 0:
                right, bottom = self.docks[RIGHT[0][0]], self.docks[BOTTOM[0][0]]
                fractions = (right.width() / old.width() if right.isVisible() else RIGHT_FRACTION,
                             bottom.height() / old.height() if bottom.isVisible() else BOTTOM_FRACTION)
                size_docks(self.window, self.docks, *fractions)
        return False
