"""One generic worker that runs any Qt-free job ``job(reporter) -> result`` on a QThread (docs/architecture.md §3.4).

The job reports through the :class:`~bnstudio.jobs.Reporter` protocol; :class:`QtReporter` forwards each
iteration to the ``progress`` signal (queued to the GUI thread) and asks the job to stop after
:meth:`JobWorker.cancel`. Exactly one of ``finished(result)``, ``failed(exception)`` or ``cancelled()``
is emitted. Jobs must work on snapshots (copies) and return new objects: only those cross threads.

A job must not reference any Qt object: when the worker thread drops the last reference to one, its C++
destructor would run on the worker (docs/architecture.md §3.14). :func:`qt_references` looks for them where a
job keeps its state (bound ``self``, closure cells, ``functools.partial`` arguments, defaults) and
:class:`JobWorker` refuses such a job. (Cyclic garbage is kept off the worker by :mod:`bnstudio.gui.collector`.)
"""
from __future__ import annotations

import functools
from typing import Any, Callable

from PySide6.QtCore import QObject, QThread, Signal
from shiboken6 import Shiboken

from bnstudio.errors import Cancelled
from bnstudio.jobs import IterationInfo, NullReporter

Job = Callable[[Any], Any]


def qt_references(job: Any, depth: int = 4) -> list[str]:
    """Where ``job`` holds Qt objects (e.g. ``["closure 'panel': QWidget"]``): its bound ``self``, closure
    cells, partial arguments and defaults, followed ``depth`` levels into callables, tuples, lists and dicts."""
    found: list[str] = []

    def visit(obj: Any, where: str, level: int) -> None:
        if isinstance(obj, Shiboken.Object):
            found.append(f"{where}: {type(obj).__name__}")
            return
        if level == 0:
            return
        children: list[tuple[str, Any]] = []
        if isinstance(obj, functools.partial):
            children += [("partial function", obj.func)] + [(f"partial argument {i}", a)
                                                            for i, a in enumerate(obj.args)]
            children += [(f"partial argument '{k}'", v) for k, v in obj.keywords.items()]
        elif isinstance(obj, (tuple, list)):
            children += [(f"{where}[{i}]", v) for i, v in enumerate(obj)]
        elif isinstance(obj, dict):
            children += [(f"{where}[{k!r}]", v) for k, v in obj.items()]
        elif callable(obj):
            children += [("bound self", getattr(obj, "__self__", None))]
            code, cells = getattr(obj, "__code__", None), getattr(obj, "__closure__", None) or ()
            names = code.co_freevars if code is not None else ()
            children += [(f"closure '{name}'", _cell(cell)) for name, cell in zip(names, cells, strict=True)]
            children += [("default", d) for d in getattr(obj, "__defaults__", None) or ()]
            children += [(f"default '{k}'", d) for k, d in (getattr(obj, "__kwdefaults__", None) or {}).items()]
        for name, child in children:
            if child is not None:
                visit(child, name, level - 1)

    visit(job, "job", depth)
    return found


def _cell(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:  # an empty cell
        return None


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
        except Exception as exc:  # handed to the GUI thread, which shows it
            worker.failed.emit(exc)
        else:
            if worker.reporter.cancelled:
                worker.cancelled.emit()
            else:
                worker.finished.emit(result)
        finally:
            worker.worker_thread.quit()


class JobWorker(QObject):
    """Runs ``job`` once on its own thread: ``start()``, then one of finished / failed / cancelled."""

    started_job = Signal(str, int)   # label, total (-1 = unknown)
    progress = Signal(object)        # IterationInfo
    finished = Signal(object)        # the job's result
    failed = Signal(object)          # the exception
    cancelled = Signal()

    def __init__(self, job: Job, parent: QObject | None = None) -> None:
        held = qt_references(job)
        if held:
            raise TypeError(f"a background job must not reference Qt objects ({', '.join(held)}): pass it "
                            "plain data (docs/architecture.md §3.14)")
        super().__init__(parent)
        self.job = job
        self.reporter = QtReporter(self)
        self.worker_thread = QThread()
        self._runner = _Runner(self)
        self._runner.moveToThread(self.worker_thread)
        self.worker_thread.started.connect(self._runner.run)

    def start(self) -> None:
        self.worker_thread.start()

    def cancel(self) -> None:
        """Ask the job to stop at its next iteration (cooperative; a cancelled job changes nothing)."""
        self.reporter.cancel()

    def is_running(self) -> bool:
        return self.worker_thread.isRunning()

    def wait(self, msecs: int = 30000) -> bool:
        return self.worker_thread.wait(msecs)
