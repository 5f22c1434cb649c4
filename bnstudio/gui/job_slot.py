"""At most one job at a time through the generic :class:`~bnstudio.gui.workers.JobWorker`.

Every started worker is also kept by a module-wide keeper until its thread has finished, so no QThread is
ever destroyed while it runs, even if the panel that started it goes away (the job then finishes unseen); when
the application quits, running jobs are cancelled and joined.
"""
from __future__ import annotations

import atexit
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject

from bnstudio.gui.workers import Job, JobWorker

Slot = Callable[..., Any] | None
SIGNALS = ("started", "progress", "finished", "failed", "cancelled")


class _Keeper(QObject):
    """Holds running workers (main thread) until their thread's ``finished`` arrives."""

    def __init__(self) -> None:
        super().__init__()
        self.active: list[JobWorker] = []
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.stop_all)

    def keep(self, worker: JobWorker) -> None:
        self.active.append(worker)
        worker.worker_thread.finished.connect(self._reap)   # queued to this (main-thread) object

    def _reap(self) -> None:
        for worker in [w for w in self.active if w.worker_thread.isFinished()]:
            worker.wait()
            self.active.remove(worker)

    def stop_all(self) -> None:
        for worker in self.active:
            worker.cancel()
        for worker in self.active:
            worker.wait()
        self.active.clear()


_keeper: _Keeper | None = None


def keep_alive(worker: JobWorker) -> None:
    """Hold ``worker`` until its thread has finished (also stopped on quit and at interpreter exit)."""
    global _keeper
    if _keeper is None:
        _keeper = _Keeper()
        atexit.register(_keeper.stop_all)
    _keeper.keep(worker)


class JobSlot(QObject):
    """Starts jobs on :class:`JobWorker`; :attr:`worker` is the running one (None when idle).

    The worker's signals reach this object's own slots (so they are cut if it is destroyed), which release
    the slot and then call the callbacks given to :meth:`start`."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.worker: JobWorker | None = None
        self._callbacks: dict[str, Slot] = {}

    @property
    def running(self) -> bool:
        return self.worker is not None

    def start(self, job: Job, *, started: Slot = None, progress: Slot = None, finished: Slot = None,
              failed: Slot = None, cancelled: Slot = None) -> JobWorker:
        """Run ``job(reporter)``; each callback is called for the worker signal of the same name. The slot is
        free again (and the thread joined) before finished / failed / cancelled callbacks run, so they may
        start the next job."""
        if self.worker is not None:
            raise RuntimeError("a job is already running")
        worker = JobWorker(job)
        self._callbacks = dict(zip(SIGNALS, (started, progress, finished, failed, cancelled), strict=True))
        worker.started_job.connect(self._on_started)
        worker.progress.connect(self._on_progress)
        worker.finished.connect(self._on_finished)
        worker.failed.connect(self._on_failed)
        worker.cancelled.connect(self._on_cancelled)
        self.worker = worker
        keep_alive(worker)
        worker.start()
        return worker

    def cancel(self) -> None:
        """Ask the running job to stop at its next iteration."""
        if self.worker is not None:
            self.worker.cancel()

    def shutdown(self, msecs: int = 10000) -> None:
        """Cancel and wait for the thread (call before the owner goes away)."""
        worker = self.worker
        if worker is not None:
            worker.cancel()
            worker.wait(msecs)

    def _call(self, name: str, *args: Any) -> None:
        callback = self._callbacks.get(name)
        if callback is not None:
            callback(*args)

    def _on_started(self, label: str, total: int) -> None:
        self._call("started", label, total)

    def _on_progress(self, info: Any) -> None:
        self._call("progress", info)

    def _on_finished(self, result: Any) -> None:
        self._end("finished", result)

    def _on_failed(self, exc: Any) -> None:
        self._end("failed", exc)

    def _on_cancelled(self) -> None:
        self._end("cancelled")

    def _end(self, name: str, *args: Any) -> None:
        worker, self.worker = self.worker, None
        callbacks, self._callbacks = self._callbacks, {}
        if worker is not None:
            worker.wait()
        callback = callbacks.get(name)
        if callback is not None:
            callback(*args)
