"""Issue 42 item 14: a report to a full disk names the folder it could not write (never "None: ..."), and a study
file of round 3 (before runs were recorded) on a read-only mount is reported, as docs/experiments.md promises."""
from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

import pytest

from bnstudio.cli import main
from bnstudio.experiment.executors import SerialExecutor
from bnstudio.experiment.runner import run_study
from bnstudio.experiment.spec import load_study
from bnstudio.experiment.store import ADDED_COLUMNS

ASIA_CSV = Path(__file__).resolve().parents[2] / "resources" / "data" / "asia.csv"


@pytest.fixture(scope="module")
def study_file(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("report_disk")
    data = tmp / "asia.csv"
    data.write_text("".join(ASIA_CSV.read_text().splitlines(keepends=True)[:120]))
    spec = tmp / "tiny.toml"
    spec.write_text(f'name = "tiny"\nfolds = 2\nstructures = ["nb"]\nmethods = ["mp"]\n[[datasets]]\n'
                    f'csv = "{data.as_posix()}"\ntarget = "lung"\n', encoding="utf-8")
    run_study(load_study(spec), SerialExecutor(), store_path=tmp / "tiny.sqlite")
    return tmp / "tiny.sqlite"


def _round3(source: Path, folder: Path) -> Path:
    """A copy of ``source`` as round 3 wrote it: no runs table, none of the columns added since."""
    folder.mkdir()
    target = folder / "old.sqlite"
    db, out = sqlite3.connect(source), sqlite3.connect(target)
    db.backup(out)
    db.close()
    for table, column, _ in ADDED_COLUMNS:
        if table == "tasks":
            out.execute(f"ALTER TABLE tasks DROP COLUMN {column}")
    out.execute("DROP TABLE runs")
    out.commit()
    out.execute("PRAGMA journal_mode=DELETE")  # one file, as on a read-only mount
    out.close()
    return target


def test_a_round3_file_on_a_read_only_mount_is_reported(study_file, tmp_path, monkeypatch, capsys):
    old = _round3(study_file, tmp_path / "mount")
    before = old.read_bytes()
    real = os.access
    read_only = old.parent.resolve()
    monkeypatch.setattr(os, "access", lambda p, mode, *a, **k: False if Path(p).resolve() == read_only and
                        mode & os.W_OK else real(p, mode, *a, **k))   # root ignores chmod: the mount is simulated
    status = main(["report", str(old), "-o", str(tmp_path / "out"), "--workers", "1"])
    out, err = capsys.readouterr()
    assert status == 0 and err == "", err
    assert (tmp_path / "out" / "index.html").is_file() or any((tmp_path / "out").glob("*.html"))
    assert old.read_bytes() == before


def test_a_full_disk_names_the_report_folder(study_file, monkeypatch, capsys):
    from bnstudio.experiment import report as report_module

    def full(self):
        raise OSError(errno.ENOSPC, "No space left on device")   # as os.write raises it: no file name

    monkeypatch.setattr(report_module.Report, "write_page", full)
    status = main(["report", str(study_file), "--workers", "1"])
    err = capsys.readouterr().err
    assert status == 2 and len(err.splitlines()) == 1, err
    assert "None" not in err
    assert f"{study_file.with_name('tiny-report')}: cannot write the report: No space left on device" in err
