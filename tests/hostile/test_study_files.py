"""Issue 25 items 7, 8, 12 (study files): damaged results files, a full disk, read-only places, messages."""
from __future__ import annotations

import errno
import shutil
import sqlite3

import pytest

from bnstudio.errors import FormatError, StudyFileError
from bnstudio.experiment.report import compose_report
from bnstudio.experiment.store import StudyStore
from tests.hostile.helpers import refused

TINY = """
name = "tiny"
folds = 2
structures = ["nb"]
methods = ["mp"]
metrics = ["error"]

[[datasets]]
generator = "corral"
rows = 40
seed = 1
"""


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished tiny study: (study file, results file), the results in rollback-journal mode (one file)."""
    from bnstudio.experiment.executors import SerialExecutor
    from bnstudio.experiment.runner import run_study
    from bnstudio.experiment.spec import load_study

    folder = tmp_path_factory.mktemp("tiny")
    study = folder / "tiny.toml"
    study.write_text(TINY)
    store = folder / "tiny.sqlite"
    run_study(load_study(study), SerialExecutor(), None, store)
    db = sqlite3.connect(store)
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    return study, store


def _copy(finished, tmp_path, edit=None):
    path = tmp_path / "copy.sqlite"
    shutil.copy(finished[1], path)
    if edit is not None:
        db = sqlite3.connect(path)
        db.execute(edit)
        db.commit()
        db.close()
    return path


DAMAGED_FIELDS = ["UPDATE tasks SET metrics = '{not json'", "UPDATE tasks SET history = '[1,'",
                  "UPDATE tasks SET metrics = '[1, 2]'", "UPDATE meta SET value = '{x' WHERE name = 'study'",
                  "UPDATE meta SET value = '\"9\"' WHERE name = 'schema_version'",
                  "UPDATE tasks SET metrics = CAST(X'7B22FF22' AS TEXT)"]


@pytest.mark.parametrize("edit", DAMAGED_FIELDS)
def test_damaged_fields_are_a_study_file_error(finished, tmp_path, edit):
    path = _copy(finished, tmp_path, edit)
    with pytest.raises(StudyFileError, match="damaged study file"):
        compose_report(path, tmp_path / "report")


def _flipped(data: bytes, seed: int) -> bytes:
    import random

    out, rng = bytearray(data), random.Random(seed)
    for _ in range(20):
        out[rng.randrange(100, len(out))] ^= 0xFF
    return bytes(out)


@pytest.mark.parametrize("seed", range(16))
def test_flipped_bytes_and_truncations_never_end_in_an_internal_error(finished, tmp_path, seed):
    data = finished[1].read_bytes()
    for k, damaged in enumerate([_flipped(data, seed), data[:len(data) * (seed + 1) // 9]]):
        path = tmp_path / f"d{k}.sqlite"
        path.write_bytes(damaged)
        try:
            compose_report(path, tmp_path / f"report{k}")
        except FormatError:
            pass


def test_the_command_line_says_damaged_in_one_line(finished, tmp_path):
    path = _copy(finished, tmp_path, DAMAGED_FIELDS[0])
    assert "damaged study file" in refused("report", path, "-o", tmp_path / "r", "--workers", 1)
    path = _copy(finished, tmp_path, DAMAGED_FIELDS[4])
    assert "damaged study file" in refused("experiment", finished[0], "--store", path, "--workers", 1, "--no-report")


# ------------------------------------------------------------------ item 6: the study file itself
@pytest.mark.parametrize("encoding, fragment", [("latin-1", "not UTF-8"), ("utf-16", "UTF-16")])
def test_a_study_file_not_in_utf8_is_one_line(tmp_path, encoding, fragment):
    from bnstudio.experiment.spec import load_study

    path = tmp_path / "s.toml"
    path.write_bytes(TINY.replace("tiny", "tïny").encode(encoding))
    with pytest.raises(FormatError, match=fragment):
        load_study(path)
    assert fragment in refused("experiment", path, "--workers", 1)


def test_a_deeply_nested_study_file_is_one_line(tmp_path):
    from bnstudio.experiment.spec import load_study

    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n" + TINY)
    with pytest.raises(FormatError, match="nested too deeply"):
        load_study(path)


# ------------------------------------------------------------------ item 12: messages
@pytest.mark.parametrize("kind", ["folder", "fifo", "device"])
def test_a_csv_path_that_is_not_a_file_says_what_it_is(tmp_path, kind):
    import os

    from bnstudio.experiment.spec import load_study

    target = {"folder": tmp_path / "dir.csv", "fifo": tmp_path / "pipe.csv", "device": "/dev/zero"}[kind]
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(target)
    path = tmp_path / "s.toml"
    path.write_text(f'name = "c"\nfolds = 2\nstructures = ["nb"]\nmethods = ["mp"]\n[[datasets]]\n'
                    f'csv = "{target}"\ntarget = "x"\n')
    with pytest.raises(FormatError) as info:
        load_study(path)
    assert "no such file" not in str(info.value)
    assert {"folder": "folder", "fifo": "pipe", "device": "device"}[kind] in str(info.value)


def test_seeds_are_capped(tmp_path):
    from bnstudio.experiment.spec import MAX_SEEDS, load_study

    path = tmp_path / "s.toml"
    path.write_text(TINY.replace("folds = 2", "folds = 2\nseeds = [" + ", ".join(map(str, range(100_000))) + "]"))
    with pytest.raises(FormatError, match=f"at most {MAX_SEEDS:,} entries"):
        load_study(path)
    path.write_text(TINY.replace("folds = 2", "folds = 2\nseeds = [0, 1, 2]"))
    assert load_study(path).seeds == [0, 1, 2]


def test_a_nul_byte_in_a_csv_header_is_not_echoed_raw(tmp_path):
    from tests.hostile.helpers import ASIA, bnstudio

    data = tmp_path / "nul.csv"
    data.write_bytes(b"asia,smo\x00ke\nyes,no\n")
    done = bnstudio("fit", ASIA, data, "--method", "ml", "-o", tmp_path / "out.bif")
    # issue 42: a NUL byte makes the file "not a text file", refused before its names are read or echoed
    assert "\x00" not in done.stderr and done.returncode == 2 and "nul.csv:1: not a text file: it holds a NUL byte" \
        in done.stderr


def test_a_valid_store_in_a_read_only_place_is_reported(finished, tmp_path, monkeypatch):
    import os

    from bnstudio.experiment import store as store_module

    path = _copy(finished, tmp_path)
    real = os.access
    monkeypatch.setattr(store_module.os, "access",
                        lambda p, mode, **kw: False if mode == os.W_OK and str(p) == str(path.parent) else real(p, mode))
    report = compose_report(path, tmp_path / "elsewhere")
    assert report.json.is_file()


def test_a_store_on_a_full_disk_says_so(tmp_path, monkeypatch):
    import os

    from bnstudio.experiment import store as store_module

    class Full:
        f_bavail, f_frsize, f_flag = 0, 4096, 0

    def failing(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store_module.os, "statvfs", lambda p: Full())
    monkeypatch.setattr(store_module.sqlite3, "connect", failing)
    with pytest.raises(StudyFileError, match="the disk is full"):
        StudyStore(tmp_path / "new.sqlite")
    assert os.access(tmp_path, os.W_OK)


# ------------------------------------------------------------------ item 8: a full disk
class _FillingConnection:
    """A SQLite connection whose disk fills up after ``room`` finished tasks were recorded."""

    def __init__(self, db, room: int) -> None:
        object.__setattr__(self, "_db", db)
        object.__setattr__(self, "_room", room)

    def __getattr__(self, name):
        return getattr(self._db, name)

    def __setattr__(self, name, value):
        setattr(self._db, name, value)

    def __enter__(self):
        return self._db.__enter__()

    def __exit__(self, *exc):
        return self._db.__exit__(*exc)

    def execute(self, sql, *args):
        if sql.startswith("UPDATE tasks SET status") or sql.startswith("INSERT OR REPLACE INTO meta"):
            if self._room <= 0:
                raise sqlite3.OperationalError("database or disk is full")
            if sql.startswith("UPDATE tasks SET status"):
                object.__setattr__(self, "_room", self._room - 1)
        return self._db.execute(sql, *args)


def _numbers(path):
    with StudyStore(path, create=False) as store:
        return {r["key"]: (r["status"], {k: v for k, v in r["metrics"].items() if k != "time"})
                for r in store.rows()}


def test_a_full_disk_during_a_study_is_one_line_and_resumes_identically(finished, tmp_path, monkeypatch):
    from bnstudio.experiment import store as store_module
    from bnstudio.experiment.executors import SerialExecutor
    from bnstudio.experiment.runner import run_study
    from bnstudio.experiment.spec import load_study

    study = load_study(finished[0])
    connect = sqlite3.connect
    monkeypatch.setattr(store_module.sqlite3, "connect", lambda *a, **k: _FillingConnection(connect(*a, **k), 1))
    path = tmp_path / "full.sqlite"
    with pytest.raises(StudyFileError, match="cannot"):
        run_study(study, SerialExecutor(), None, path)
    monkeypatch.undo()
    with StudyStore(path, create=False) as store:
        assert store.counts()["done"] == 1        # what was committed before the disk filled up stays
    run_study(study, SerialExecutor(), None, path)
    assert _numbers(path) == _numbers(finished[1])


def test_a_full_disk_while_writing_the_report_leaves_no_truncated_file(finished, tmp_path, monkeypatch):
    from bnstudio.figures.report import write_report
    from bnstudio.io import atomic

    folder = tmp_path / "report"
    write_report(finished[1], folder, workers=1)
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    real = atomic.os.replace

    def full(src, dst):
        if str(dst).endswith(("index.html", "report.json")):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(atomic.os, "replace", full)
    with pytest.raises(FormatError, match="cannot write the report: No space left on device"):
        write_report(finished[1], folder, workers=1)
    monkeypatch.undo()
    after = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert after.keys() == before.keys()
    assert after[folder / "index.html"] == before[folder / "index.html"]
