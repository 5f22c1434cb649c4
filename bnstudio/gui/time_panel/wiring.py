"""Everything the main window needs for the Time panel, in one call: ``install(window)``.

It creates the Time dock (tabbed with the other panels on the right; the panel in it is built on first use, so
pyqtgraph and pandas wait), brings it forward when a two-slice network is opened and hides it when another
network is; the panel forgets the old network on the document's ``network_closing`` (docs/architecture.md
§3.22).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QWidget

from bnstudio.gui import manual
from bnstudio.gui.dock_layout import make_dock
from bnstudio.gui.dock_title import HelpTitleBar
from bnstudio.gui.panels import scrollable
from bnstudio.temporal.timeline import as_two_slice

if TYPE_CHECKING:
    from bnstudio.gui.time_panel.panel import TimePanel


def install(window: Any) -> None:
    """Add the Time dock to ``window`` (a :class:`~bnstudio.gui.main_window.MainWindow`) before its docks are
    placed; the panel is built by :func:`time_panel`."""
    doc = window.document
    window.docks["time"] = dock = make_dock(window, "time", QWidget())
    window.built_time_panel = None
    # context help as the analysis docks have it: "?" and F1 open docs/temporal.md at "In the app"
    def show_help(_checked: bool = False) -> None:
        window.show_manual("time")

    dock.setTitleBarWidget(HelpTitleBar(dock, show_help))
    dock.setWhatsThis(manual.WHATS_THIS["time"])
    dock.hide()     # until a two-slice network is opened (a saved layout from before this dock keeps it hidden)
    dock.visibilityChanged.connect(lambda shown: shown and time_panel(window))
    doc.network_closing.connect(lambda: _forget(window))
    doc.network_replaced.connect(lambda: _network_replaced(window))


def time_panel(window: Any) -> "TimePanel":
    """The window's Time panel, built into its dock on the first call."""
    from bnstudio.gui.time_panel.panel import TimePanel

    if window.built_time_panel is None:
        window.built_time_panel = panel = TimePanel(window.document, window.scene.temporal)
        dock = window.docks["time"]
        placeholder = dock.widget()
        dock.setWidget(scrollable(panel))
        placeholder.deleteLater()
    return window.built_time_panel


def time_slices(window: Any) -> int | None:
    """The Time panel's number of slices T while it shows a two-slice network (what File ▸ Save writes as a
    GeNIe dynamic network's ``numslices``), else None."""
    panel = getattr(window, "built_time_panel", None)
    return None if panel is None or panel.tbn is None else panel.slices.value()


def _forget(window: Any) -> None:
    if window.built_time_panel is not None:
        window.built_time_panel.forget_document()


def _network_replaced(window: Any) -> None:
    """A two-slice network brings the Time dock forward (computing at once); any other hides it."""
    dock = window.docks["time"]
    if as_two_slice(window.document.network) is None:
        dock.hide()
        if window.built_time_panel is not None:
            window.built_time_panel.set_network()     # says it is not a two-slice network; nothing else shown
        return
    time_panel(window).set_network()
    window.show_dock("time")


def shutdown(window: Any) -> None:
    if window.built_time_panel is not None:
        window.built_time_panel.shutdown()
