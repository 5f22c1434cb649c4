"""Runs the Monte-Carlo check of the error bars as a background job on the generic worker, one at a time,
and hands back its result only if it still belongs to the query shown (the key it was started with)."""
from __future__ import annotations

from typing import Any, Callable, Hashable

from PySide6.QtCore import QObject, Signal

from bnstudio.gui.job_slot import JobSlot
from bnstudio.gui.workers import JobWorker


class MonteCarloRunner(QObject):
    """``done(result or None)`` once per run; ``message(level, text)`` for what the user should know."""

    done = Signal(object)
    running_changed = Signal(bool)
    message = Signal(str, str)

    def __init__(self, current_key: Callable[[], Hashable], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.current_key = current_key
        self.jobs = JobSlot(self)
        self._key: Hashable = None

    @property
    def worker(self) -> JobWorker | None:
        return self.jobs.worker

    @property
    def running(self) -> bool:
        return self.jobs.running

    def start(self, job: Callable[[Any], Any]) -> JobWorker | None:
        """Run ``job`` (a Qt-free ``job(reporter)`` on snapshots) unless a check is already running."""
        if self.jobs.running:
            return None
        self._key = self.current_key()
        worker = self.jobs.start(job, finished=self._on_finished, failed=self._on_failed,
                                 cancelled=self._on_cancelled)
        self.running_changed.emit(True)
        return worker

    def cancel(self) -> None:
        self.jobs.cancel()

    def shutdown(self, msecs: int = 30000) -> None:
        """Cancel and wait for the thread (before the owner is destroyed)."""
        self.jobs.shutdown(msecs)

    def _end(self) -> None:
        self.running_changed.emit(False)

    def _on_finished(self, result: Any) -> None:
        self._end()
        if self._key != self.current_key():
            self.message.emit("info", "The query or the network changed during the Monte-Carlo check; its "
                                      "result was set aside. Run it again.")
            self.done.emit(None)
            return
        self.done.emit(result)

    def _on_failed(self, exc: Exception) -> None:
        self._end()
        self.message.emit("error", f"Monte-Carlo check failed: {exc}")
        self.done.emit(None)

    def _on_cancelled(self) -> None:
        self._end()
        self.message.emit("info", "Monte-Carlo check cancelled.")
        self.done.emit(None)
