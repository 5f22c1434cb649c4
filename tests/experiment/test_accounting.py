"""CPU accounting of a study run (issue 26): every task's worker CPU, wall, start and queue wait are stored; the
run's wall splits exactly into start-up, task CPU, waiting for a core, gaps and tail; older study files still
open; a unit's results are committed together; local workers adapt to a busy machine."""
from __future__ import annotations

import os
import sqlite3

import pytest

from bnstudio.experiment import executors
from bnstudio.experiment.accounting import account, last_run_accounting, others_cores, process_cpu_seconds
from bnstudio.experiment.executors import LocalExecutor, SerialExecutor, workers_for
from bnstudio.experiment.runner import run_study
from bnstudio.experiment.spec import load_study
from bnstudio.experiment.store import StudyStore
from bnstudio.experiment.tasks import Task
from tests.experiment.helpers import write_study

# the schema of the first release (before the accounting columns)
OLD_SCHEMA = """
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tasks (
    key TEXT PRIMARY KEY, dataset TEXT NOT NULL, structure TEXT NOT NULL, method TEXT NOT NULL,
    fold INTEGER NOT NULL, seed INTEGER NOT NULL, spec TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending', current INTEGER NOT NULL DEFAULT 1, attempts INTEGER NOT NULL DEFAULT 0,
    metrics TEXT, history TEXT, stop_reason TEXT, error TEXT, seconds REAL, worker TEXT, finished REAL,
    network BLOB
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY, pid INTEGER NOT NULL, host TEXT NOT NULL, started REAL NOT NULL, updated REAL,
    ended REAL, outcome TEXT NOT NULL DEFAULT 'running', executor TEXT
);
INSERT INTO meta VALUES ('schema_version', '1');
INSERT INTO tasks (key, dataset, structure, method, fold, seed, spec, status, metrics, history, seconds, worker)
    VALUES ('k1', 'd', 'nb', 'mp', 0, 0, '{}', 'done', '{"error": 0.25}', '[]', 1.5, 'pid 1');
INSERT INTO runs (pid, host, started, updated, ended, outcome, executor) VALUES (1, 'h', 10.0, 11.0, 12.0,
    'finished', 'old');
"""


def _old_store(path):
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.commit()
    db.close()
    return path


def test_a_store_of_the_first_release_opens_keeps_its_rows_and_takes_timings(tmp_path):
    path = _old_store(tmp_path / "old.sqlite")
    with StudyStore(path) as store:
        [row] = store.rows()
        assert (row["key"], row["metrics"], row["seconds"], row["worker"]) == ("k1", {"error": 0.25}, 1.5, "pid 1")
        assert store.timings(1) == [] and store.accounting(1) is None and last_run_accounting(store) is None
        store.open_run("now")
        store.record("k1", {"metrics": {"error": 0.5}, "history": [], "stop_reason": "x"}, None, 2.0, "pid 2",
                     cpu=1.75, started=100.0, wait=0.5)
        [timing] = store.timings(store.run_id)
    assert (timing["cpu"], timing["started"], timing["wait"], timing["seconds"]) == (1.75, 100.0, 0.5, 2.0)


def test_a_read_only_store_of_the_first_release_reads_without_timings(tmp_path, monkeypatch):
    from bnstudio.experiment import store as store_module

    path = _old_store(tmp_path / "old.sqlite")
    monkeypatch.setattr(store_module.os, "access", lambda *args, **kwargs: False)   # a read-only folder
    with StudyStore(path, create=False) as store:
        assert store.rows()[0]["key"] == "k1"
        assert store.timings(1) == [] and store.accounting(1) is None
    monkeypatch.undo()
    with sqlite3.connect(path) as db:      # the file was not changed
        assert "cpu" not in {row[1] for row in db.execute("PRAGMA table_info(tasks)")}


def test_a_units_results_are_committed_together(tmp_path):
    tasks = [Task(f"k{i}", "d", "nb", f"m{i}", 0, 0, {}) for i in range(4)]
    with StudyStore(tmp_path / "s.sqlite") as store:
        store.register({}, tasks)
        statements: list[str] = []
        store.db.set_trace_callback(statements.append)
        store.record_many([(t.key, None, "boom", 0.1, "w", 0.05, 1.0, 0.0) for t in tasks])
        store.db.set_trace_callback(None)
        assert store.counts()["failed"] == 4
    assert sum(s.strip().upper() == "COMMIT" for s in statements) == 1


def _timing(worker, started, seconds, cpu, process_cpu=None):
    return {"key": f"{worker}{started}", "status": "done", "worker": worker, "seconds": seconds, "cpu": cpu,
            "started": started, "wait": 0.0, "finished": started + seconds, "run": 1, "process_cpu": process_cpu}


def test_a_runs_wall_splits_exactly_into_its_parts():
    run = {"t0": 100.0, "t1": 110.0, "workers": 3, "driver_cpu": 0.5, "store": 0.1}
    timings = [_timing("a", 101.0, 2.0, 1.5, 2.5), _timing("a", 104.0, 3.0, 3.0, 6.5),   # gap 1 s, tail 3 s
               _timing("b", 100.5, 9.0, 6.0)]                                     # tail 0.5 s
    found = account(run, timings)
    assert found is not None
    # worker a: start-up 1, busy 5 (cpu 4.5), gap 1, tail 3; b: start-up 0.5, busy 9 (cpu 6), tail 0.5; c: idle 10
    assert (found.startup, found.gaps, found.tail) == pytest.approx((1.0 + 0.5 + 10.0, 1.0, 3.5))
    assert (found.task_cpu, found.stolen) == pytest.approx((10.5, 3.5))
    assert found.efficiency == pytest.approx(10.5 / 30.0)
    assert found.startup + found.task_cpu + found.stolen + found.gaps + found.tail == pytest.approx(3 * 10.0)
    assert [(w.worker, w.tasks, w.outside) for w in found.per_worker] == [("b", 1, 0.0), ("a", 2, 2.0)]
    assert found.outside == 2.0     # a's CPU at its last task's end (6.5) less its tasks' CPU (4.5)
    assert "3 workers" in found.line() and "efficiency 35%" in found.line()


def test_nothing_to_account_without_timed_tasks():
    assert account({"t0": 0.0, "t1": 1.0, "workers": 1}, []) is None
    assert account({}, [_timing("a", 0.0, 1.0, 1.0)]) is None


def test_a_serial_run_accounts_for_every_task(tmp_path):
    summary = run_study(load_study(write_study(tmp_path)), SerialExecutor())
    with StudyStore(summary.store, create=False) as store:
        run = store.runs()[-1]["id"]
        timings = store.timings(run)
        found = last_run_accounting(store)
        record = store.accounting(run)
    assert len(timings) == summary.total == 36
    assert all(0.0 < t["cpu"] <= t["seconds"] + 0.02 and t["wait"] >= 0.0 for t in timings)
    assert found is not None and found.workers == 1 and 0.0 < found.efficiency <= 1.0
    assert found.task_cpu == pytest.approx(sum(t["cpu"] for t in timings))
    assert (found.startup + found.task_wall + found.gaps + found.tail) == pytest.approx(found.wall, abs=1e-3)
    assert record is not None and record["store"] > 0.0 and record["before"]["cores"] >= 1


def test_local_workers_each_account_for_their_tasks(tmp_path):
    summary = run_study(load_study(write_study(tmp_path)), LocalExecutor(2, adapt=False))
    with StudyStore(summary.store, create=False) as store:
        found = last_run_accounting(store)
    assert found is not None and found.workers == 2
    assert sum(w.tasks for w in found.per_worker) == 36 and len(found.per_worker) <= 2
    assert all(w.worker.startswith("pid ") and w.worker != f"pid {os.getpid()}" for w in found.per_worker)
    assert all(0.0 < w.outside < 30.0 for w in found.per_worker)   # unpickling the data, shipping results
    assert len(found.worker_lines()) == len(found.per_worker)


@pytest.mark.parametrize(("asked", "cores", "others", "chosen"), [
    (2, 2, None, 2), (2, 2, 0.0, 2), (2, 2, 0.4, 2), (2, 2, 0.75, 2), (2, 2, 0.85, 1), (2, 2, 1.9, 1),
    (2, 2, 5.0, 1), (4, 2, 0.0, 2), (1, 8, 0.0, 1), (8, 8, 3.2, 5), (8, 8, 3.0, 5), (8, 8, 2.7, 6)])
def test_workers_for_a_busy_machine(asked, cores, others, chosen):
    assert workers_for(asked, cores, others) == chosen


def test_others_cores_leave_out_our_own_cpu():
    before = {"time": 10.0, "cpu": 100.0}
    assert others_cores(before, {"time": 12.0, "cpu": 103.0}, 1.0) == pytest.approx(1.0)
    assert others_cores(before, {"time": 12.0, "cpu": 103.0}, 5.0) == 0.0
    assert others_cores({"time": 10.0, "cpu": None}, {"time": 12.0, "cpu": 1.0}, 0.0) is None


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="Linux /proc")
def test_process_cpu_seconds_reads_this_process():
    import time

    before = process_cpu_seconds(os.getpid())
    end = time.process_time() + 0.1
    while time.process_time() < end:
        pass
    after = process_cpu_seconds(os.getpid())
    assert before is not None and after is not None and after - before >= 0.05
    assert process_cpu_seconds(2 ** 22 + 12345) is None


def _fake_machine(monkeypatch, others_per_second: float):
    """executors.machine() as if other processes used ``others_per_second`` cores of 2 (our own use: none)."""
    clock = {"t": 1000.0}

    def machine():
        clock["t"] += 0.5
        return {"time": clock["t"], "load": 0.0, "cores": 2, "cpu": clock["t"] * others_per_second}

    monkeypatch.setattr(executors, "machine", machine)
    monkeypatch.setattr(executors, "_cpu_of_us", lambda server: 0.0)
    monkeypatch.setattr(executors, "start_forkserver", lambda: None)
    monkeypatch.setattr(executors, "started_sample", lambda max_age: None)   # no real server start to look from
    monkeypatch.setattr(executors.time, "sleep", lambda seconds: None)


@pytest.mark.parametrize(("others", "chosen"), [(1.6, 1), (0.1, 2)])
def test_local_workers_adapt_to_what_other_processes_use(monkeypatch, others, chosen):
    _fake_machine(monkeypatch, others)
    executor = LocalExecutor(2)
    executor.warm_up()
    assert executor.choose_workers() == chosen
    assert f"kept {others:.1f} of 2 cores busy: {chosen} worker" in executor.note


def test_a_run_on_fewer_workers_than_asked_says_so(tmp_path, monkeypatch):
    from bnstudio.experiment.evaluation import Context

    _fake_machine(monkeypatch, 1.6)
    executor = LocalExecutor(2)
    executor.warm_up()
    executor.start(Context({}))
    executor.close()
    assert executor.workers == 1
    assert executor.description == "1 local process (2 asked; other processes kept 1.6 of 2 cores busy: 1 worker chosen)"


def test_local_workers_do_not_adapt_when_told_not_to(monkeypatch):
    _fake_machine(monkeypatch, 2.0)
    executor = LocalExecutor(2, adapt=False)
    executor.warm_up()
    assert executor.choose_workers() == 2 and executor.note == ""


def test_the_command_prints_the_runs_accounting_and_its_status(tmp_path, capsys):
    import json

    from bnstudio.cli.main import main
    from bnstudio.experiment.accounting import accounting_line

    path = write_study(tmp_path)
    assert main(["experiment", str(path), "--workers", "1", "--no-report"]) == 0
    out = capsys.readouterr().out
    assert "36 done now" in out and "accounting: 1 worker, " in out and "efficiency " in out
    assert main(["experiment", str(path), "--status"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("small.sqlite: finished; tasks 36 done, 0 failed, 0 pending")
    assert lines[1].startswith("accounting: 1 worker, ") and lines[2].startswith("  pid ")
    assert main(["experiment", str(path), "--status", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["status"] == "finished" and document["accounting"]["workers"] == 1
    assert sum(w["tasks"] for w in document["accounting"]["per_worker"]) == 36
    with StudyStore(tmp_path / "small.sqlite", create=False) as store:
        assert accounting_line(store, store.runs()[-1]["id"]) == document["accounting"]["line"]
    assert main(["experiment", str(path), "--workers", "1", "--no-report"]) == 0    # nothing left to run
    assert "accounting:" not in capsys.readouterr().out
    assert main(["experiment", str(path), "--status"]) == 0     # the last run that ran tasks
    assert "accounting: 1 worker, " in capsys.readouterr().out


def test_status_during_a_run_accounts_for_the_tasks_done_so_far(tmp_path, capsys):
    """Issue 35: ``--status`` read while the study runs (another connection, as from another terminal) gave
    "accounting: none recorded" however many tasks were done: the run's record was written at its end only."""
    import json

    from bnstudio.cli.main import main
    from bnstudio.jobs import NullReporter

    path = write_study(tmp_path)
    seen: list[tuple[int, dict]] = []

    class AskStatus(NullReporter):
        def iteration(self, info):
            if info.iteration >= 12 and not seen:       # a few units in: the state was written meanwhile
                capsys.readouterr()
                assert main(["experiment", str(path), "--status", "--json"]) == 0
                seen.append((int(info.iteration), json.loads(capsys.readouterr().out)))
                assert main(["experiment", str(path), "--status"]) == 0
                seen.append((int(info.iteration), {"text": capsys.readouterr().out}))
            return False

    run_study(load_study(path), SerialExecutor(), AskStatus())
    (finished, document), (_, text) = seen
    assert document["status"] == "running" and document["accounting"] is not None
    assert document["accounting"]["partial"] is True
    accounted = sum(w["tasks"] for w in document["accounting"]["per_worker"])
    assert 0 < accounted <= finished == document["counts"]["done"]
    assert "accounting so far: 1 worker, " in text["text"]
    with StudyStore(tmp_path / "small.sqlite", create=False) as store:
        found = last_run_accounting(store)      # the run's end replaces the record: the whole run, not partial
    assert found is not None and not found.partial and sum(w.tasks for w in found.per_worker) == 36


def test_status_of_a_file_of_the_first_release(tmp_path, capsys):
    from bnstudio.cli.main import main

    _old_store(tmp_path / "small.sqlite")
    path = write_study(tmp_path)
    assert main(["experiment", str(path), "--status"]) == 0
    assert "accounting: none recorded" in capsys.readouterr().out


def test_the_runs_record_names_the_workers_it_ran_on(tmp_path, monkeypatch):
    _fake_machine(monkeypatch, 1.6)
    summary = run_study(load_study(write_study(tmp_path)), LocalExecutor(2))
    with StudyStore(summary.store, create=False) as store:
        run = store.runs()[-1]
        found = last_run_accounting(store)
    assert summary.executor == run["executor"] and run["executor"].startswith("1 local process (2 asked; ")
    assert found is not None and found.workers == 1 and "1 worker chosen" in found.line()
