"""Python's cyclic garbage collector runs on the GUI thread only (docs/architecture.md §3.14; docs/gui.md, "Threads").

Automatic collection starts on whichever thread happens to allocate when a generation's count passes its
threshold. While a job runs, that is usually the worker thread; if the garbage then holds a widget, a menu or an
action in a reference cycle, its C++ destructor runs on the worker: Qt's thread rules are broken, and a
destructor that needs a Qt lock held by the GUI thread, while the GUI thread waits for the GIL the collector
holds, deadlocks the app (seen in ``make test``) or crashes it.

:func:`install` turns automatic collection off for the process and starts a timer on the GUI thread that runs
the collection CPython would have run: the oldest generation whose count passed its threshold (a full
collection, tens of milliseconds on a loaded app, at most every :data:`FULL_EVERY` seconds, as CPython's own
rule of thumb also spaces them). Every collection still happens, a few milliseconds later, and always on the GUI
thread. A ``gc.callbacks`` hook
counts collections that anything starts on another thread (:attr:`Collector.off_thread`), so tests can assert
there are none.
"""
from __future__ import annotations

import gc
import threading
import time

from PySide6.QtCore import QCoreApplication, QObject, QTimer

#: how often the GUI thread looks at the generation counts (an idle look costs a microsecond)
INTERVAL_MS = 50
#: the shortest time between two full (generation 2) collections, in seconds
FULL_EVERY = 5.0


class Collector(QObject):
    """The GUI-thread collector of one application; see the module docstring."""

    def __init__(self, app: QCoreApplication) -> None:
        super().__init__(app)
        self.gui_thread = threading.get_ident()
        self.off_thread = 0
        self.collections = 0
        self._last_full = time.monotonic()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.collect_due)
        gc.callbacks.append(self._watch)
        gc.disable()
        self.timer.start(INTERVAL_MS)

    def collect_due(self) -> int | None:
        """Collect the oldest generation whose count passed its threshold (None if none did); returns it."""
        if gc.isenabled():   # something switched automatic collection back on: it must stay off
            gc.disable()
        counts, thresholds = gc.get_count(), gc.get_threshold()
        due = [g for g in range(3) if thresholds[g] and counts[g] > thresholds[g]]
        if due and due[-1] == 2 and time.monotonic() - self._last_full < FULL_EVERY:
            due.pop()
        if not due:
            return None
        generation = due[-1]
        gc.collect(generation)
        if generation == 2:
            self._last_full = time.monotonic()
        return generation

    def _watch(self, phase: str, _info: dict) -> None:
        if phase == "start":
            self.collections += 1
            if threading.get_ident() != self.gui_thread:
                self.off_thread += 1


_collector: Collector | None = None


def install(app: QCoreApplication | None = None) -> Collector:
    """Make the GUI thread the only one that collects cycles (idempotent; call on the GUI thread once the
    application exists)."""
    global _collector
    app = app or QCoreApplication.instance()
    if app is None:
        raise RuntimeError("create the QApplication before installing the collector")
    if _collector is None:
        _collector = Collector(app)
        app.aboutToQuit.connect(_collector.collect_due)
    return _collector


def installed() -> Collector | None:
    """The installed collector, or None."""
    return _collector
