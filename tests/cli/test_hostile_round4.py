"""Issue 42 (hostile inputs, round 4) on the command line: each case ends in one ``bnstudio: error:`` line, and
before the work it would waste."""
from __future__ import annotations

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
