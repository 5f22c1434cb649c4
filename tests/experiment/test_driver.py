"""The process running the study: killed (SIGKILL) mid-study, the next run resumes from the SQLite file; Ctrl+C
(SIGINT) and SIGTERM stop it cleanly with every finished task saved and the run recorded as stopped."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from bnstudio.experiment.store import StudyStore
from tests.experiment.helpers import numbers, write_study

ALARM = os.path.join(os.path.dirname(__file__), "..", "..", "resources", "networks", "alarm.bif")
SLOW = f"""
name = "slow"
folds = 5
structures = ["nb", "tan"]
methods = ["mp", "clgd", "wanbia", {{label = "bag", method = "bagged-mp", options = {{bags = 20}}}}]

[[datasets]]
network = "{os.path.abspath(ALARM)}"
target = "BP"
rows = 2000
seed = 3
"""


# Ctrl+C at a terminal: Python's own SIGINT handler, whatever this test inherited (a shell running the suite in
# the background without job control ignores SIGINT, the child inherits that, and Python then keeps it ignored)
AT_A_TERMINAL = ("import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
                 "sys.argv[0] = 'bnstudio'; runpy.run_module('bnstudio', run_name='__main__', alter_sys=True)")


def _start(path, *extra):
    return subprocess.Popen([sys.executable, "-c", AT_A_TERMINAL, "experiment", str(path), "--workers", "1",
                             "--no-report", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _done(store_path) -> int:
    try:
        with sqlite3.connect(f"file:{store_path}?mode=ro", uri=True, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM tasks WHERE status = 'done'").fetchone()[0]
    except sqlite3.OperationalError:     # not created yet
        return 0


def _wait_for(store_path, count: int, process, limit: float = 60.0) -> int:
    end = time.monotonic() + limit
    while time.monotonic() < end and process.poll() is None:
        done = _done(store_path)
        if done >= count:
            return done
        time.sleep(0.05)
    pytest.fail(f"the study did not reach {count} finished tasks (exit code {process.poll()})")


def _session_alive(pid: int) -> bool:
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _interrupted(tmp_path, after: int, sig: int):
    """Run the slow study, send ``sig`` once ``after`` tasks are done; (study file, store, return code, stderr)."""
    path = write_study(tmp_path, SLOW, "slow")
    store_path = tmp_path / "slow.sqlite"
    process = _start(path)
    try:
        _wait_for(store_path, after, process)
        process.send_signal(sig)
        process.wait(timeout=30)
        end = time.monotonic() + 10
        while time.monotonic() < end and _session_alive(process.pid):
            time.sleep(0.1)
        assert not _session_alive(process.pid), "a worker outlived the process running the study"
    finally:
        try:    # a worker orphaned by SIGKILL would hold the pipes open: end the session made for this test
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _, err = process.communicate(timeout=30)
    return path, store_path, process.returncode, err


@pytest.mark.timeout(120)
def test_killing_the_driver_loses_nothing_finished_and_the_rerun_resumes(tmp_path):
    path, store_path, _, _ = _interrupted(tmp_path, 5, signal.SIGKILL)
    before = numbers(store_path)
    finished = {k: v for k, v in before.items() if v[0] == "done"}
    assert 5 <= len(finished) < 40, "the kill should land mid-study"
    rerun = subprocess.run([sys.executable, "-m", "bnstudio", "experiment", str(path), "--workers", "1",
                            "--no-report", "--json"], capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    summary = json.loads(rerun.stdout)
    assert (summary["skipped"], summary["done"], summary["failed"]) == (len(finished), 40 - len(finished), 0)
    after = numbers(store_path)
    assert all(after[k] == v for k, v in finished.items())


@pytest.mark.timeout(120)
def test_ctrl_c_stops_cleanly_and_keeps_what_finished(tmp_path):
    _, store_path, code, err = _interrupted(tmp_path, 3, signal.SIGINT)
    assert code == 130, err
    assert "interrupted" in err and "Traceback" not in err and str(store_path) in err
    with StudyStore(store_path, create=False) as store:
        counts, state = store.counts(), store.state()
    assert counts["done"] >= 3 and counts["failed"] == 0 and counts["pending"] > 0
    assert state["stopped"] is True and state["running"] == 0


@pytest.mark.alone
@pytest.mark.timeout(180)
def test_sigterm_stops_like_ctrl_c_records_the_run_and_the_rerun_resumes(tmp_path):
    path, store_path, code, err = _interrupted(tmp_path, 3, signal.SIGTERM)
    assert code == 128 + signal.SIGTERM, err
    assert "interrupted (SIGTERM)" in err and str(store_path) in err
    assert "Traceback" not in err and "leaked" not in err, err     # the resource tracker's warning
    with StudyStore(store_path, create=False) as store:
        runs, counts, state = store.runs(), store.counts(), store.state()
    assert [r["outcome"] for r in runs] == ["stopped"] and runs[0]["ended"] >= runs[0]["started"]
    assert state["stopped"] is True and state["running"] == 0 and "ended" in state
    assert counts["done"] >= 3 and counts["failed"] == 0 and counts["pending"] > 0
    finished = {k: v for k, v in numbers(store_path).items() if v[0] == "done"}
    rerun = subprocess.run([sys.executable, "-m", "bnstudio", "experiment", str(path), "--workers", "1",
                            "--no-report", "--json"], capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    summary = json.loads(rerun.stdout)
    assert (summary["skipped"], summary["done"], summary["failed"]) == (len(finished), 40 - len(finished), 0)
    with StudyStore(store_path, create=False) as store:
        assert [r["outcome"] for r in store.runs()] == ["stopped", "finished"]
    assert all(numbers(store_path)[k] == v for k, v in finished.items())


def test_the_progress_bar_shows_done_failed_running_and_eta():
    import io

    from bnstudio.cli.experiment import ProgressBar
    from bnstudio.jobs import IterationInfo

    stream = io.StringIO()
    bar = ProgressBar(stream)
    bar.begin("study", 40)
    bar.iteration(IterationInfo(10, {"done": 9.0, "failed": 1.0, "running": 2.0, "pending": 28.0, "eta": 95.0},
                                3.0))
    line = stream.getvalue().strip()
    assert line.startswith("[#######.....") and "10/40" in line
    assert "done 9" in line and "failed 1" in line and "running 2" in line and "ETA 1m35s" in line
