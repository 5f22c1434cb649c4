"""Starting the desktop app: ``run(path)`` opens the main window (on ``path`` if given) and runs the event
loop. ``bnstudio`` without a subcommand calls it on the bundled ALARM example; ``bnstudio gui FILE`` on FILE.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

from bnstudio.app.resources import bundled_example
from bnstudio.gui import collector, dialogs, system_check
from bnstudio.gui import settings as cfg
from bnstudio.gui.icons import app_icon
from bnstudio.gui.main_window import MainWindow
from bnstudio.gui.panels import load_example_data

__all__ = ["application", "bundled_example", "has_display", "open_window", "run"]


def has_display() -> bool:
    """Whether Qt can show windows here (a display server, another platform, or a forced QPA platform)."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return True
    if sys.platform.startswith("linux") or "bsd" in sys.platform:
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def application(argv: list[str] | None = None) -> QApplication:
    """The QApplication (created once, with the names QSettings and QStandardPaths use), with cyclic garbage
    collection moved to the GUI thread (:mod:`bnstudio.gui.collector`)."""
    QCoreApplication.setOrganizationName(cfg.ORGANISATION)
    QCoreApplication.setApplicationName(cfg.APPLICATION)
    app = QApplication.instance()
    if not isinstance(app, QApplication):   # none yet (Qt refuses a second one beside a bare QCoreApplication)
        app = QApplication(argv if argv is not None else [sys.argv[0]])
    app.setWindowIcon(app_icon())
    app.setDesktopFileName("bnstudio")
    collector.install(app)
    return app


#: how long the window may wait to be mapped before it is painted and the file read anyway (seconds)
EXPOSE_WAIT = 0.5


def paint_now(window: MainWindow, message: str) -> None:
    """Say ``message`` in the status bar and paint the window before a long step, so it is never a blank
    window (issue 38: large networks showed one for 1-2 s while they were read and laid out)."""
    window.statusBar().showMessage(message)
    end = time.monotonic() + EXPOSE_WAIT
    handle = window.windowHandle()
    while handle is not None and not handle.isExposed() and time.monotonic() < end:
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
    window.repaint()
    QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)


def open_window(path: str | Path | None = None, recovery: bool = True) -> MainWindow:
    """A shown main window on ``path`` (a parser error is shown in a dialog; the window stays open); the window
    is painted, saying what it opens, before the file is read."""
    window = MainWindow()
    window.show()
    if path is not None:
        paint_now(window, f"Opening {Path(path).name}…")
        if window.open_path(path):
            load_example_data(window, path)   # a bundled example opens with its bundled data set
        window.statusBar().clearMessage()
    if recovery:
        QTimer.singleShot(0, window.files.start_recovery)  # after the window is on screen
    QTimer.singleShot(0, window.view.open_view)   # once the window has its size
    return window


def run(path: str | Path | None = None) -> int:
    """Open the app (on ``path`` if given) and run until the last window closes; returns the exit status."""
    if not has_display():
        print("bnstudio: no display found (set DISPLAY, or run a subcommand; see `bnstudio --help`)",
              file=sys.stderr)
        return 2
    problem = system_check.display_problem()
    if problem is not None:   # Qt would abort with a message that names none of the missing libraries
        print(problem, file=sys.stderr)
        return 2
    app = application()
    dialogs.install_excepthook()
    window = open_window(path)
    status = app.exec()
    del window
    return int(status)
