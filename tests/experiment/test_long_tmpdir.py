"""A long TMPDIR: multiprocessing would put the forkserver's socket at TMPDIR/pymp-…/listener-…, past the 107
bytes an AF_UNIX address holds ("AF_UNIX path too long", an internal error before). The socket folder moves to a
short folder; with none usable the study stops in one line (docs/experiments.md "Where it runs")."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bnstudio.errors import ValidationError
from bnstudio.experiment import worker_start
from bnstudio.experiment.executors import SerialExecutor
from bnstudio.experiment.runner import run_study
from bnstudio.experiment.spec import load_study
from bnstudio.experiment.worker_start import SOCKET_PATH_LIMIT, SOCKET_SUFFIX, socket_folder
from tests.experiment.helpers import numbers, write_study


def _long_folder(root) -> str:
    folder = root / ("t" * 60) / ("u" * 60)
    folder.mkdir(parents=True)
    assert len(str(folder)) + SOCKET_SUFFIX > SOCKET_PATH_LIMIT
    return str(folder)


def test_a_short_temporary_folder_is_kept_and_a_long_one_replaced(tmp_path):
    assert socket_folder("/tmp") == "/tmp"
    long_folder = _long_folder(tmp_path)
    assert socket_folder(long_folder, (long_folder, str(tmp_path))) in (str(tmp_path), None)
    assert socket_folder(long_folder, ("/no/such/folder",)) is None
    short = socket_folder(long_folder)
    assert short is not None and len(short) + SOCKET_SUFFIX <= SOCKET_PATH_LIMIT


def test_with_no_short_folder_the_error_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(worker_start.tempfile, "tempdir", _long_folder(tmp_path))
    monkeypatch.setattr(worker_start, "SHORT_FOLDERS", ("/no/such/folder",))
    with pytest.raises(ValidationError) as raised:
        worker_start.ensure_short_socket_folder()
    message = str(raised.value)
    assert "\n" not in message and "TMPDIR" in message and "too long" in message


@pytest.mark.skipif(sys.platform == "win32", reason="no forkserver, no AF_UNIX socket")
def test_a_study_on_two_workers_runs_under_a_long_tmpdir(tmp_path):
    study = write_study(tmp_path)
    env = {**os.environ, "TMPDIR": _long_folder(tmp_path)}
    store = tmp_path / "long.sqlite"
    done = subprocess.run([sys.executable, "-m", "bnstudio", "experiment", str(study), "--workers", "2",
                           "--no-report", "--store", str(store)], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr and "36 done now" in done.stdout + done.stderr
    run_study(load_study(study), SerialExecutor())       # the same study in this process, one task at a time
    assert numbers(store) == numbers(study.with_suffix(".sqlite"))
