"""One generic worker that runs any Qt-free job ``job(reporter) -> result`` on a QThread (GUIDE §3.4).

The job reports through the :class:`~bnstudio.jobs.Reporter` protocol; :class:`QtReporter` forwards each
iteration to the ``progress`` signal (queued to the GUI thread) and asks the job to stop after
:meth:`JobWorker.cancel`. Exactly one of ``finished(result)``, ``failed(exception)`` or ``cancelled()``
is emitted. Jobs must work on snapshots (copies) and return new objects: only those cross threads.
"""
from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QObject, QThread, Signal

from bnstudio.errors import Cancelled
from bnstudio.jobs import IterationInfo, NullReporter

Job = Callable[[Any], Any]


class QtReporter(NullReporter):
    """The reporter handed to a job running in a worker thread (cancellable from the GUI thread)."""

    def __init__(self, worker: "JobWorker") -> None:
        super().__init__()
        self._worker = worker

    def begin(self, label: str, total: int | None) -> None:
        self._worker.started_job.emit(label, -1 if total is None else int(total))

    def iteration(self, info: IterationInfo) -> bool:
        self._worker.progress.emit(info)
        return self.cancelled

    def end(self) -> None:
        pass


class _Runner(QObject):
    def __init__(self, worker: "JobWorker") -> None:
        super().__init__()
        self.worker = worker

    def run(self) -> None:
        worker = self.worker
        try:
            result = worker.job(worker.reporter)
        except Cancelled:
            worker.cancelled.emit()
        except Exception as exc:  # noqa: BLE001 - handed to the GUI thread, which shows it
            worker.failed.emit(exc)
        else:
            if worker.reporter.cancelled:
                worker.cancelled.emit()
            else:
                worker.finished.emit(result)
        finally:
            worker.thread.quit()


class JobWorker(QObject):
    """Runs ``job`` once on its own thread: ``start()``, then one of finished / failed / cancelled."""

    started_job = Signal(str, int)   # label, total (-1 = unknown)
    progress = Signal(object)        # IterationInfo
    finished = Signal(object)        # the job's result
    failed = Signal(object)          # the exception
    cancelled = Signal()

    def __init__(self, job: Job, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.job = job
        self.reporter = QtReporter(self)
        self.thread = QThread()
        self._runner = _Runner(self)
        self._runner.moveToThread(self.thread)
        self.thread.started.connect(self._runner.run)

    def start(self) -> None:
        self.thread.start()

    def cancel(self) -> None:
        """Ask the job to stop at its next iteration (cooperative; a cancelled job changes nothing)."""
        self.reporter.cancel()

    def is_running(self) -> bool:
        return self.thread.isRunning()

    def wait(self, msecs: int = 30000) -> bool:
        return self.thread.wait(msecs)
