"""Render the main window offscreen to a PNG (for docs and bug reports), with optional evidence and a
selected node, independent of the user's saved settings."""
from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QEventLoop, QSettings, Qt
from PySide6.QtWidgets import QApplication

from bnstudio.display.window_docks import DOCKS
from bnstudio.errors import BNStudioError
from bnstudio.gui import printing, theme
from bnstudio.gui import settings as cfg
from bnstudio.gui.app import application
from bnstudio.gui.document import Document
from bnstudio.gui.main_window import MainWindow
from bnstudio.gui.recovery import Recovery


def _settle(app: QApplication, rounds: int = 5) -> None:
    for _ in range(rounds):
        app.processEvents()


def wait_for_beliefs(app: QApplication, document: Document, seconds: float = 60.0) -> None:
    """A large network's beliefs come from background jobs: wait for them (at most ``seconds``), so an image
    shows what the user sees a moment after opening."""
    end = time.monotonic() + seconds
    while document.updates.busy and time.monotonic() < end:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.005)


def _wait_for_beliefs(app: QApplication, window: MainWindow, seconds: float = 60.0) -> None:
    wait_for_beliefs(app, window.document, seconds)


def _show_only(window: MainWindow, docks: list[str]) -> None:
    """Show the ``docks`` and hide the others; the first named of a tab group is in front."""
    for name, dock in window.docks.items():
        dock.setVisible(name in docks)
    for name in reversed(docks):
        window.docks[name].raise_()


def _write(window: MainWindow, out: Path) -> None:
    """The window as a PNG, or (``out`` ending in .pdf) the network as File ▸ Export as PDF writes it."""
    if out.suffix.lower() == ".pdf":
        try:
            printing.export_pdf(window.scene, out, printing.heading_of(window), window.document.title)
        except OSError as exc:
            raise BNStudioError(f"could not write {out}: {exc}") from None
    elif not window.grab().save(str(out)):
        raise BNStudioError(f"could not write {out}")


def render_screenshot(out: str | Path, path: str | Path | None = None, size: tuple[int, int] = (1600, 1000),
                      evidence: dict[str, Any] | None = None, select: str | None = None,
                      node_style: str | None = None, zoom: float | None = None,
                      docks: list[str] | None = None,
                      prepare: Callable[[MainWindow], None] | None = None, appearance: str | None = None,
                      centre: str | None = None) -> Path:
    """Open ``path`` in a fresh main window of ``size``, apply ``evidence``, select ``select`` (its CPT and
    properties show in the docks), show only ``docks`` (if None, the docks a user sees at first sight: none until
    a node is selected; the first named of a tab group in front), call ``prepare(window)`` for anything else,
    and save the window to ``out`` — drawn ``appearance`` (light, dark; None: as the desktop is). The canvas is
    as the app opens it, at ``zoom`` if given (centred on ``select``), centred on the node ``centre`` if given
    (e.g. the evidence, where a large network opens on its top). An ``out`` ending in .pdf gets the network
    instead, as File ▸ Export as PDF writes it. Raises BNStudioError for bad input."""
    unknown = sorted(set(docks or ()) - set(DOCKS))
    if unknown:
        raise BNStudioError(f"unknown dock(s) {', '.join(unknown)}; use {', '.join(DOCKS)}")
    app = application()
    with tempfile.TemporaryDirectory() as tmp:
        settings = cfg.Settings(QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat))
        if appearance is not None:
            settings.set_value(cfg.APPEARANCE, appearance)
        window = MainWindow(settings, Recovery(Path(tmp) / "recovery"))
        window.setWindowState(Qt.WindowState.WindowNoState)   # not maximised to the (virtual) screen: exactly ``size``
        window.resize(*size)
        window.show()
        _settle(app)
        if path is not None and not window.files.open_path(path, ask=False, remember=False):
            window.close()
            raise BNStudioError(f"could not open {path}")
        if docks is not None:     # after opening: an influence diagram brings its Decisions dock forward
            _show_only(window, docks)
        if node_style:
            window.set_node_style(node_style)
        for name, value in (evidence or {}).items():
            if not window.document.set_evidence(name, value):
                raise BNStudioError(f"evidence {name}={value} was not applied: {window.message_bar.label.text()}")
        missing = [name for name in (select, centre) if name and name not in window.scene.nodes]
        if missing:
            window.document.mark_saved()
            window.close()
            raise BNStudioError(f"no node named '{missing[0]}'")
        if select:
            window.scene.select_only([select])
        if prepare is not None:
            prepare(window)
        window.message_bar.hide()
        _settle(app)
        window.view.open_view()     # as the app opens it (first sight)
        _wait_for_beliefs(app, window)
        if zoom:
            window.view.set_zoom(zoom)
            if select:
                window.view.centerOn(window.scene.nodes[select])
        if centre:
            window.view.centerOn(window.scene.nodes[centre])
        _settle(app)
        out = Path(out)
        try:
            _write(window, out)
        finally:
            if appearance is not None:
                theme.apply(theme.SYSTEM)    # the next window of this process draws as the desktop again
        window.document.mark_saved()   # a rendering, not the user's work: close without asking
        window.close()
        _settle(app)
    return out
