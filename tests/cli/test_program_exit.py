"""The ``bnstudio`` program ends its process at once after a batch subcommand, with its output whole and the right
status; a failed final write is one error line and status 2 (Python's own shutdown said "Exception ignored" and
exited with 120)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from bnstudio.cli import main

ALARM = Path(__file__).resolve().parents[2] / "resources" / "networks" / "alarm.bif"


def program(*argv, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # stdout block-buffered, as usual
    return subprocess.run([sys.executable, "-m", "bnstudio", *map(str, argv)], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, env=env, timeout=120)


def test_output_is_whole_and_status_right(tmp_path, capsys):
    queries = [{"target": t, "evidence": {"BP": "LOW"}} for t in ("HR", "CO", "HYPOVOLEMIA")] * 300
    path = tmp_path / "q.json"
    path.write_text(json.dumps(queries))
    done = program("query", ALARM, "--queries", path, "--json")
    assert (done.returncode, done.stderr) == (0, "")
    assert main(["query", str(ALARM), "--queries", str(path), "--json"]) == 0
    assert done.stdout == capsys.readouterr().out  # 900 answers, every byte flushed before the process ended
    done = program("query", ALARM, "--target", "NOPE")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "unknown variable 'NOPE'" in done.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_failed_final_write_is_one_line_and_status_2():
    with open("/dev/full", "w") as full:
        done = program("info", ALARM, stdout=full)
    assert done.returncode == 2
    assert done.stderr == "bnstudio: error: cannot write the output: No space left on device\n"


def test_a_study_leaves_nothing_in_the_temporary_folder(tmp_path):
    """A study's local workers start a forkserver, whose socket lives in a ``pymp-*`` folder of the temporary
    folder; ending the process with ``os._exit`` skipped multiprocessing's handler that removes it."""
    data = Path(__file__).resolve().parents[2] / "resources" / "data" / "asia.csv"
    study = tmp_path / "tiny.toml"
    study.write_text(f'name = "tiny"\nfolds = 2\nstructures = ["nb"]\nmethods = ["mp"]\n[[datasets]]\n'
                     f'csv = "{data.as_posix()}"\ntarget = "lung"\n', encoding="utf-8")
    system_temp = Path(tempfile.mkdtemp(prefix="bn-"))   # short: a socket path has at most 107 bytes
    try:
        env = {**os.environ, "TMPDIR": str(system_temp)}
        done = subprocess.run([sys.executable, "-m", "bnstudio", "experiment", str(study), "--workers", "2",
                               "--no-report", "--store", str(tmp_path / "tiny.sqlite")], capture_output=True,
                              text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        assert sorted(p.name for p in system_temp.iterdir()) == []
    finally:
        shutil.rmtree(system_temp, ignore_errors=True)
