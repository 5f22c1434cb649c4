"""Where tasks run does not change the numbers: serial, local processes and a real Dask LocalCluster of worker
processes give identical results for the same seeds; a worker killed mid-study does not stop it."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile

import pytest

from bnstudio.experiment.executors import LocalExecutor, SerialExecutor
from bnstudio.experiment.runner import run_study
from bnstudio.experiment.spec import load_study
from bnstudio.experiment.store import StudyStore
from tests.experiment.helpers import in_local_worker, numbers, worker_state, write_study


class KillOnce:
    """A reporter that kills one worker process (``kill()``) once ``after`` tasks have finished."""

    def __init__(self, kill, after: int = 3) -> None:
        self.kill, self.after, self.killed, self.seen = kill, after, None, []

    def begin(self, label, total):
        pass

    def iteration(self, info):
        self.seen.append(dict(info.objectives))
        if self.killed is None and info.objectives["done"] >= self.after:
            self.killed = self.kill()
        return False

    def end(self):
        pass


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    folder = tmp_path_factory.mktemp("serial")
    summary = run_study(load_study(write_study(folder)), SerialExecutor())
    assert summary.done == summary.total == 36
    return numbers(summary.store)


def test_local_processes_give_the_serial_numbers(tmp_path, serial):
    summary = run_study(load_study(write_study(tmp_path)), LocalExecutor(2, adapt=False))
    assert summary.done == 36 and summary.executor == "2 local processes"
    assert numbers(summary.store) == serial


def test_a_killed_local_worker_does_not_stop_the_study(tmp_path, serial):
    executor = LocalExecutor(2, adapt=False)

    def kill():
        pid = next(iter(executor.pool._processes))
        os.kill(pid, signal.SIGKILL)
        return pid

    reporter = KillOnce(kill)
    summary = run_study(load_study(write_study(tmp_path)), executor, reporter)
    assert reporter.killed is not None
    assert (summary.done, summary.failed) == (36, 0)
    assert numbers(summary.store) == serial
    with StudyStore(summary.store, create=False) as store:      # the lost attempts are counted
        attempts = [r["attempts"] for r in store.rows()]
    assert summary.lost >= 1 and sum(attempts) == 36 + summary.lost and max(attempts) >= 2


@pytest.mark.skipif(sys.platform == "win32", reason="no forkserver on Windows")
def test_local_workers_are_forked_with_the_task_modules_already_imported():
    from bnstudio.experiment.worker_start import PRELOAD

    pid, imported = in_local_worker(worker_state)
    assert pid != os.getpid() and imported == list(PRELOAD)


@pytest.mark.timeout(120)
def test_a_dask_local_cluster_gives_the_serial_numbers_even_when_a_worker_dies(tmp_path, serial, monkeypatch):
    """... and leaves nothing in the system's temporary folder (dask's own scratch folder used to stay there)."""
    pytest.importorskip("distributed")
    from bnstudio.experiment.dask_executor import DaskExecutor

    system_temp = tmp_path / "system-temp"
    system_temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(system_temp))
    monkeypatch.setattr(tempfile, "tempdir", str(system_temp))

    executor = DaskExecutor(local_workers=2)

    def kill():
        pids = executor.client.run(os.getpid)
        address, pid = sorted(pids.items())[0]
        os.kill(pid, signal.SIGKILL)
        return address

    reporter = KillOnce(kill, after=4)
    summary = run_study(load_study(write_study(tmp_path)), executor, reporter)
    assert reporter.killed is not None
    assert (summary.done, summary.failed) == (36, 0)
    assert numbers(summary.store) == serial
    from bnstudio.experiment.store import StudyStore
    with StudyStore(summary.store, create=False) as store:
        workers = {r["worker"] for r in store.rows()}
    assert all(w.startswith("tcp://") for w in workers)
    assert executor.scratch is None and sorted(p.name for p in system_temp.iterdir()) == []


def test_starting_the_forkserver_needs_no_numerical_import():
    """A command may start the forkserver before its own heavy imports (they then overlap the server's)."""
    code = ("import sys, bnstudio.experiment.worker_start\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'scipy', 'pandas', 'networkx')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
