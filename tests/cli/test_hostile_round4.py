"""Issue 42 (hostile inputs, round 4) on the command line: each case ends in one ``bnstudio: error:`` line, and
before the work it would waste."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.hostile.helpers import ASIA, bnstudio

ASIA_CSV = Path(__file__).resolve().parents[2] / "resources" / "data" / "asia.csv"


def test_an_unknown_output_extension_is_refused_before_the_fit(tmp_path):
    done = bnstudio("fit", ASIA, ASIA_CSV, "--method", "em", "-o", tmp_path / "out.xyz", timeout=120)
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "unknown file type" in lines[0], done.stderr
    assert done.stdout == ""  # no EM iteration was run (each prints a line)
    assert list(tmp_path.iterdir()) == []


ALARM = Path(__file__).resolve().parents[2] / "resources" / "networks" / "alarm.bif"
ALARM_CSV = Path(__file__).resolve().parents[2] / "resources" / "data" / "alarm_missing30_20k.csv"


def test_a_study_at_a_silent_scheduler_is_refused_in_one_line(tmp_path):
    from tests.cli.servers import fake_server
    study = tmp_path / "tiny.toml"
    study.write_text(f'name = "tiny"\nfolds = 2\nstructures = ["nb"]\nmethods = ["mp"]\n[[datasets]]\n'
                     f'csv = "{ASIA_CSV.as_posix()}"\ntarget = "lung"\n', encoding="utf-8")
    with fake_server("silent") as address:
        done = bnstudio("experiment", study, "--no-report", "--store", tmp_path / "s.sqlite", "--scheduler", address,
                        "--connect-timeout", "0.5", timeout=60)
    lines = [line for line in done.stderr.splitlines() if line.startswith("bnstudio:")]
    assert done.returncode == 2 and lines == done.stderr.splitlines() and len(lines) == 1, done.stderr
    assert "no answer from the Dask scheduler" in lines[0] and address in lines[0]


def _cluster_fit(tmp: Path, *extra: str, **popen):
    """``bnstudio fit`` of ALARM by EM on a local Dask cluster, its temporary folder ``tmp``."""
    import os
    import subprocess
    import sys
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONIOENCODING": "utf-8", "TMPDIR": str(tmp)}
    argv = [sys.executable, "-m", "bnstudio", "fit", str(ALARM), str(ALARM_CSV), "--method", "em", *extra,
            "-o", str(tmp / "out.bif")]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, **popen)


def test_dask_local_1000_is_capped_to_the_cores_and_says_so(tmp_path):
    pytest.importorskip("distributed")
    process = _cluster_fit(tmp_path, "--max-iter", "1", "--dask-local", "1000")
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    [note] = err.splitlines()      # the note, and no raw Dask line
    assert note.startswith("bnstudio: note: --dask-local 1000 capped to ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bif"]   # no scratch folder left


@pytest.mark.parametrize("how", ["SIGINT to the group", "SIGTERM"])
def test_stopping_a_dask_fit_says_one_line_and_leaves_nothing(tmp_path, how):
    """Ctrl+C (SIGINT to the terminal's whole process group, workers included) or SIGTERM to bnstudio, once the
    first EM iteration is done: exit 130, one line, no traceback, no Dask log line, no scratch folder."""
    import os
    import signal
    pytest.importorskip("distributed")
    process = _cluster_fit(tmp_path, "--max-iter", "500", "--dask-local", "2", start_new_session=True)
    first = process.stdout.readline()
    assert "nll=" in first, process.stderr.read() if process.poll() is not None else first
    if how == "SIGTERM":
        os.kill(process.pid, signal.SIGTERM)
    else:
        os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130 and err.splitlines() == ["bnstudio: interrupted"], err
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("bnstudio-dask-")]


def _spawned_workers(pid: int) -> list[int]:
    """The Dask worker processes (multiprocessing's spawn_main) whose parent is ``pid`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if parent == pid and b"spawn_main" in command:
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize("moment", [0.5, 1.5, 3.0, "first worker"])
def test_ctrl_c_while_a_local_cluster_starts_says_one_line(tmp_path, moment):
    """Issue 42 item 13: Ctrl+C (SIGINT to the whole process group) in the first seconds of ``experiment
    --dask-local 2``: a worker still importing Dask printed its KeyboardInterrupt traceback, and the driver,
    stopped inside Dask's constructor, left the scratch folder and a traceback of Dask's exit handler. Now: exit
    130, the one line (after the progress lines of tasks already run, if any), no scratch folder. "first worker":
    the moment the first worker process exists (it is then importing Dask), whatever the machine's speed."""
    import os
    import signal
    import subprocess
    import sys
    import time
    pytest.importorskip("distributed")
    if moment == "first worker" and not Path("/proc/self/stat").is_file():
        pytest.skip("worker processes are found in /proc (Linux)")
    study = tmp_path / "tiny.toml"
    study.write_text(f'name = "longer"\nfolds = 10\nseeds = [0, 1, 2]\nstructures = ["nb", "tan"]\nmethods = ["mp", "em"]\n'
                     f'[[datasets]]\ncsv = "{ASIA_CSV.as_posix()}"\ntarget = "lung"\n', encoding="utf-8")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONIOENCODING": "utf-8", "TMPDIR": str(tmp_path)}
    process = subprocess.Popen([sys.executable, "-m", "bnstudio", "experiment", str(study), "--no-report",
                                "--store", str(tmp_path / "s.sqlite"), "--dask-local", "2"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                               start_new_session=True)
    try:
        if moment == "first worker":
            deadline = time.monotonic() + 60
            while not _spawned_workers(process.pid) and process.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            assert process.poll() is None, process.communicate()
        else:
            time.sleep(moment)
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=90)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    lines = err.splitlines()
    progress = [line for line in lines[:-1] if re.fullmatch(r"\[[#.]+\] \d+/\d+ .*", line)]  # tasks already run
    assert process.returncode == 130 and lines[-1:] and lines[-1].startswith("bnstudio: interrupted"), err
    assert progress == lines[:-1] and "Traceback" not in err, err
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith("bnstudio-dask-")]
