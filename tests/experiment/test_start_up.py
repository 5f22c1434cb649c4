"""What a study's process does before its first task and after its last: the driver never imports the learners
(the workers make the evaluation's Context), the forkserver imports with its collector paused and freezes what it
imported, the first units go out before the code is fingerprinted, the machine is watched from the server's
start (no wait for a sample), and the store's state is written at most once a tick."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bnstudio.experiment import executors, runner
from bnstudio.experiment.executors import LocalExecutor, SerialExecutor, StudyData
from bnstudio.experiment.runner import run_study
from bnstudio.experiment.spec import load_study
from bnstudio.experiment.store import StudyStore
from tests.experiment.helpers import in_local_worker, numbers, worker_collector, write_study


@pytest.mark.skipif(sys.platform == "win32", reason="no forkserver on Windows")
def test_a_study_on_local_workers_never_imports_the_evaluation_in_its_process(tmp_path):
    """(A study file's checks import the parameter learners, :func:`bnstudio.experiment.spec.load_study`; the
    evaluation, its scores and the structure learners stay out of the process running the study.)"""
    study = write_study(tmp_path)
    code = ("import sys\n"
            "from bnstudio.experiment.executors import LocalExecutor\n"
            "from bnstudio.experiment.runner import run_study\n"
            "from bnstudio.experiment.spec import load_study\n"
            "if __name__ == '__main__':\n"
            f"    summary = run_study(load_study({str(study)!r}), LocalExecutor(2, adapt=False))\n"
            "    print(summary.done, sorted(m for m in ('bnstudio.experiment.evaluation', 'bnstudio.experiment.scores',\n"
            "                                           'bnstudio.learn.structure', 'networkx') if m in sys.modules))\n")
    script = tmp_path / "driver.py"
    script.write_text(code, encoding="utf-8")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                         cwd=os.getcwd())
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["36", "[]"]
    (tmp_path / "serial").mkdir()
    serial = run_study(load_study(write_study(tmp_path / "serial")), SerialExecutor())
    assert numbers(tmp_path / "small.sqlite") == numbers(serial.store)


@pytest.mark.skipif(sys.platform == "win32", reason="no forkserver on Windows")
def test_workers_start_with_the_preloaded_objects_frozen_and_their_collector_on():
    pid, enabled, frozen = in_local_worker(worker_collector)
    assert pid != os.getpid() and enabled
    assert frozen > 10_000      # numpy, scipy, the learners: hundreds of thousands of objects


def test_the_data_become_the_evaluations_context_where_tasks_run():
    from bnstudio.experiment.evaluation import Context

    data = StudyData({"a": None}, [])       # type: ignore[dict-item]
    context = executors.as_context(data)
    assert isinstance(context, Context) and context.datasets == {"a": None} and context.queries == []
    assert executors.as_context(context) is context


class CountingExecutor(SerialExecutor):
    def __init__(self) -> None:
        super().__init__()
        self.submitted = 0

    def submit(self, tasks):
        self.submitted += 1
        return super().submit(tasks)


def test_the_first_units_go_out_before_the_code_is_fingerprinted(tmp_path, monkeypatch):
    executor = CountingExecutor()
    seen = []
    real = runner.code_fingerprint

    def fingerprint():
        seen.append(executor.submitted)
        return real()

    monkeypatch.setattr(runner, "code_fingerprint", fingerprint)
    summary = run_study(load_study(write_study(tmp_path)), executor)
    assert summary.done == 36 and seen == [2]       # two units per worker were out; fingerprinted once
    with StudyStore(summary.store, create=False) as store:
        assert store.state()["code"] == real()


def test_the_state_is_written_at_most_once_a_tick(tmp_path, monkeypatch):
    clock = {"t": 1000.0}

    def perf_counter():
        clock["t"] += 0.001         # every look at the clock (the tasks' too): 1 ms later; the study: < 1 s
        return clock["t"]

    writes = []
    real = StudyStore.set_state
    monkeypatch.setattr(runner.time, "perf_counter", perf_counter)
    monkeypatch.setattr(StudyStore, "set_state",
                        lambda self, state, accounting=None: (writes.append(state), real(self, state, accounting)))
    summary = run_study(load_study(write_study(tmp_path)), SerialExecutor())
    assert summary.done == 36
    # the start, one progress write (the first report), the end: not one per finished unit (12 units)
    assert len(writes) == 3 and writes[-1]["running"] == 0 and "eta" in writes[1]


def test_the_machine_is_watched_from_the_servers_start_when_that_was_recent(monkeypatch):
    slept = []
    clock = {"t": 1000.0}

    def machine():
        return {"time": clock["t"], "load": 0.0, "cores": 2, "cpu": clock["t"] * 0.1}

    monkeypatch.setattr(executors, "machine", machine)
    monkeypatch.setattr(executors, "_cpu_of_us", lambda server: 0.0)
    monkeypatch.setattr(executors, "start_forkserver", lambda: None)
    monkeypatch.setattr(executors.time, "sleep", slept.append)
    monkeypatch.setattr(executors.time, "time", lambda: clock["t"])
    early = ({"time": clock["t"] - 0.6, "load": 0.0, "cores": 2, "cpu": (clock["t"] - 0.6) * 0.1 - 0.3}, 0.0)
    monkeypatch.setattr(executors, "started_sample", lambda max_age: early)
    executor = LocalExecutor(2)
    executor.warm_up()
    assert executor.sample is early
    # others used 0.06 + 0.3 CPU seconds in 0.6 s: 0.6 cores, 2 workers; and no wait for a longer look
    assert executor.choose_workers() == 2 and slept == [0.0]
    assert "kept 0.6 of 2 cores busy" in executor.note


@pytest.mark.skipif(sys.platform == "win32", reason="no forkserver on Windows")
def test_a_server_started_here_notes_the_machine_first_once_and_old_notes_are_not_used():
    code = ("import time\n"
            "from bnstudio.experiment import worker_start\n"
            "if __name__ == '__main__':\n"
            "    before = time.time()\n"
            "    assert worker_start.started_sample(30.0) is None\n"
            "    worker_start.start_forkserver()\n"
            "    sample = worker_start.started_sample(30.0)\n"
            "    assert sample is not None and before <= sample[0]['time'] <= time.time()\n"
            "    assert worker_start.forkserver_pid() is not None\n"
            "    assert worker_start.started_sample(30.0) is None\n"            # once only
            "    worker_start.start_forkserver()\n"                                  # running: no new look
            "    assert worker_start.started_sample(30.0) is None\n"
            "    worker_start._STARTED = sample\n"
            "    time.sleep(0.05)\n"
            "    assert worker_start.started_sample(0.01) is None\n"                 # too old
            "    print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_the_workers_preload_imports_no_pandas_and_the_data_package_still_offers_every_name():
    """The forkserver's imports (what every worker waits for) leave pandas out: a worker gets codes, not tables.
    The data package's pandas readers load on first use, and ``mdl`` stays the function, not its module."""
    code = ("import sys, bnstudio.experiment.worker_preload\n"
            "print('pandas' in sys.modules)\n"
            "import bnstudio.data.mdl\n"
            "from bnstudio.data import mdl, read_csv, open_parts, Discretiser\n"
            "print(callable(mdl) and mdl.__module__, read_csv.__module__, open_parts.__module__)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:2] == ["False", "bnstudio.data.discretise bnstudio.data.read bnstudio.data.parts"]
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        import bnstudio.data
        bnstudio.data.nothing  # noqa: B018
