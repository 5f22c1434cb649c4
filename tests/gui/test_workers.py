"""The generic QThread worker runs any ``job(reporter) -> result`` and reports progress, results, failures
and cooperative cancellation as signals."""
from __future__ import annotations

import threading

import pytest

from bnstudio.errors import ValidationError
from bnstudio.gui.workers import JobWorker
from bnstudio.jobs import Progress


def counting_job(n: int, gate: threading.Event | None = None):
    def job(reporter):
        progress = Progress(reporter, "count", n)
        total = 0
        for i in range(n):
            if gate is not None:
                gate.wait(5)
            total += i
            progress.report(i, {"total": float(total)})
        progress.done()
        return total
    return job


def test_finished_with_progress(qtbot):
    worker = JobWorker(counting_job(5))
    infos = []
    worker.progress.connect(infos.append)
    with qtbot.waitSignal(worker.finished, timeout=5000) as blocker:
        worker.start()
    assert blocker.args == [10]
    qtbot.waitUntil(lambda: len(infos) == 5)
    assert [i.iteration for i in infos] == list(range(5)) and infos[-1].objectives["total"] == 10
    worker.wait()


def test_failed_carries_the_exception(qtbot):
    def job(reporter):
        raise ValidationError("CPT of 'X' sums to 0.9")
    worker = JobWorker(job)
    with qtbot.waitSignal(worker.failed, timeout=5000) as blocker:
        worker.start()
    assert isinstance(blocker.args[0], ValidationError)
    worker.wait()


def test_cancel_is_cooperative(qtbot):
    gate = threading.Event()
    worker = JobWorker(counting_job(1000, gate))
    finished = []
    worker.finished.connect(finished.append)
    with qtbot.waitSignal(worker.cancelled, timeout=5000):
        worker.start()
        worker.cancel()
        gate.set()
    worker.wait()
    assert finished == [] and not worker.is_running()


@pytest.mark.parametrize("n", [0, 3])
def test_worker_runs_once_and_stops_its_thread(qtbot, n):
    worker = JobWorker(counting_job(n))
    with qtbot.waitSignal(worker.finished, timeout=5000):
        worker.start()
    assert worker.wait(5000) and not worker.is_running()
