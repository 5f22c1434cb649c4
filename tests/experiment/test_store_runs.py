"""A store that tells the truth: every run recorded with how it ended, one driver per study file (a second one is
refused in one line, a dead one's lease taken over), attempts counted when a worker dies, progress that never
shows more running tasks than workers and no ETA before the pace is measured."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from bnstudio.errors import Cancelled, StudyBusy
from bnstudio.experiment.executors import SerialExecutor
from bnstudio.experiment.runner import eta_after, eta_seconds, run_study
from bnstudio.experiment.spec import load_study
from bnstudio.experiment.store import StudyStore
from bnstudio.jobs import NullReporter
from tests.experiment.helpers import write_study


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_a_run_is_recorded_with_how_it_ended(tmp_path):
    path = write_study(tmp_path)
    run_study(load_study(path), SerialExecutor())

    class StopAtOnce(NullReporter):
        def iteration(self, info):
            return True

    changed = write_study(tmp_path, path.read_text(encoding="utf-8").replace("bags = 4", "bags = 5"))
    with pytest.raises(Cancelled):
        run_study(load_study(changed), SerialExecutor(), StopAtOnce())
    with StudyStore(tmp_path / "small.sqlite", create=False) as store:
        runs = store.runs()
    assert [r["outcome"] for r in runs] == ["finished", "stopped"]
    assert all(r["pid"] == os.getpid() and r["ended"] >= r["started"] for r in runs)


def test_a_second_driver_is_refused_in_one_line_while_the_first_lives(tmp_path):
    path = write_study(tmp_path)
    with StudyStore(tmp_path / "small.sqlite") as store:
        store.open_run("this test")          # this process holds the study
        second = subprocess.run([sys.executable, "-m", "bnstudio", "experiment", str(path), "--workers", "1",
                                 "--no-report"], capture_output=True, text=True, timeout=120)
        assert second.returncode == 2
        assert second.stderr.count("\n") == 1 and f"running in process {os.getpid()}" in second.stderr
        with pytest.raises(StudyBusy):       # also in-process, from another run object on the same file
            with StudyStore(tmp_path / "small.sqlite") as other:
                other.db.execute("UPDATE runs SET pid = ?", (os.getppid(),))
                other.db.commit()
                other.open_run("another")
        store.close_run("finished")


def test_the_lease_of_a_dead_driver_is_taken_over_and_its_run_marked_interrupted(tmp_path):
    with StudyStore(tmp_path / "small.sqlite") as store:
        store.db.execute("INSERT INTO runs (pid, host, started, updated) VALUES (?, ?, ?, ?)",
                         (_dead_pid(), os.uname().nodename, time.time() - 60, time.time() - 50))
        store.db.commit()
    summary = run_study(load_study(write_study(tmp_path)), SerialExecutor())
    assert summary.done == 36
    with StudyStore(tmp_path / "small.sqlite", create=False) as store:
        assert [r["outcome"] for r in store.runs()] == ["interrupted", "finished"]


def test_progress_runs_at_most_one_task_per_worker_and_gives_no_eta_before_the_pace_is_measured(tmp_path,
                                                                                              monkeypatch):
    from bnstudio.experiment import runner

    monkeypatch.setattr(runner, "ETA_PER_WORKER", 5)       # a serial unit finishes 3 tasks at once
    seen = []

    class Record(NullReporter):
        def iteration(self, info):
            seen.append(dict(info.objectives))

    run_study(load_study(write_study(tmp_path)), SerialExecutor(), Record())
    assert max(o["running"] for o in seen) <= 1
    before = [o for o in seen if o["done"] + o["failed"] < eta_after(1)]
    after = [o for o in seen if o["done"] + o["failed"] >= eta_after(1)]
    assert before and all(o["eta"] == -1 for o in before)
    assert after and all(o["eta"] >= 0 for o in after) and after[-1]["eta"] == 0
    n = eta_after(2)
    assert eta_seconds(10.0, n, 20, 2) == pytest.approx(10.0 / n * 20 / 2)
    assert eta_seconds(10.0, eta_after(2) - 1, 20, 2) == -1


def test_a_study_whose_data_cannot_be_read_leaves_no_new_store_behind(tmp_path):
    """The store is opened (the lease) before the data are read: a study failing there removes the file it
    made, SQLite's side files too; a store that existed before is kept."""
    from bnstudio.errors import BNStudioError
    from bnstudio.experiment.spec import DatasetSpec, MethodSpec, StructureSpec, Study

    missing = DatasetSpec("gone", "csv", str(tmp_path / "nowhere.csv"), "Class")
    study = Study("broken", [missing], [StructureSpec("nb", "nb")], [MethodSpec("mp", "mp")])
    store = tmp_path / "broken.sqlite"
    with pytest.raises(BNStudioError, match="nowhere.csv"):
        run_study(study, SerialExecutor(), store_path=store)
    assert list(tmp_path.iterdir()) == []
    with StudyStore(store):
        pass
    with pytest.raises(BNStudioError, match="nowhere.csv"):
        run_study(study, SerialExecutor(), store_path=store)
    assert store.is_file()


def test_max_tasks_runs_the_first_unfinished_tasks_and_the_next_run_the_rest(tmp_path):
    study = load_study(write_study(tmp_path))
    first = run_study(study, SerialExecutor(), max_tasks=2)
    assert (first.done, first.skipped) == (2, 0) and first.total > 4
    with StudyStore(first.store, create=False) as store:
        assert store.counts()["done"] == 2
    rest = run_study(study, SerialExecutor())
    assert (rest.skipped, rest.done) == (2, first.total - 2)
