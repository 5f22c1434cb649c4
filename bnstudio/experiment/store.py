"""The study's SQLite file: one row per task (key, status, metrics, timing, convergence history, fitted network).

Only the process running the study writes; workers return results to it. Each result is committed as it
arrives (write-ahead log), so killing the run loses nothing that finished, and the app or ``bnstudio report``
can read the file while a study runs. Running the study again registers its tasks: finished keys are kept and
skipped, new keys are added as ``pending``, failed and unfinished ones are run again; rows of keys the study no
longer has (a changed option) stay in the file but are no longer ``current`` and are left out of reports.

Every run of the study is a row of ``runs`` (pid, host, start, end and how it ended: ``finished``, ``stopped``,
``failed`` or ``interrupted``). A run row still marked ``running`` is also the study's lease: a second process
that opens a run while the first one lives is refused (:class:`~bnstudio.errors.StudyBusy`); a run whose
process has died without an end (SIGKILL, a power cut) is marked ``interrupted`` by the next run that opens.
"""
from __future__ import annotations

import errno
import functools
import json
import os
import socket
import sqlite3
import time
import zlib
from pathlib import Path
from typing import Any, Iterable

from bnstudio.errors import FormatError, StudyBusy, StudyFileError
from bnstudio.experiment.tasks import Task

SCHEMA_VERSION = 1
STATUSES = ("pending", "done", "failed")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tasks (
    key TEXT PRIMARY KEY, dataset TEXT NOT NULL, structure TEXT NOT NULL, method TEXT NOT NULL,
    fold INTEGER NOT NULL, seed INTEGER NOT NULL, spec TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending', current INTEGER NOT NULL DEFAULT 1, attempts INTEGER NOT NULL DEFAULT 0,
    metrics TEXT, history TEXT, stop_reason TEXT, error TEXT, seconds REAL, worker TEXT, finished REAL,
    network BLOB
);
CREATE INDEX IF NOT EXISTS tasks_current ON tasks (current, status);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, pid INTEGER NOT NULL, host TEXT NOT NULL, started REAL NOT NULL, updated REAL,
    ended REAL, outcome TEXT NOT NULL DEFAULT 'running', executor TEXT
);
"""
#: columns added after the first release, (table, column, type): added to older files when they are opened for
#: writing (SQLite's ADD COLUMN keeps every row; older code reads the new files, it names the columns it reads)
ADDED_COLUMNS = (("tasks", "cpu", "REAL"), ("tasks", "started", "REAL"), ("tasks", "wait", "REAL"),
                 ("tasks", "run", "INTEGER"), ("tasks", "process_cpu", "REAL"), ("runs", "accounting", "TEXT"))
RUN_COLUMNS = ("id", "pid", "host", "started", "updated", "ended", "outcome", "executor")
#: a task's CPU accounting (:meth:`StudyStore.timings`): worker CPU and wall seconds, start (epoch), queue wait
TIMING_COLUMNS = ("key", "status", "worker", "seconds", "cpu", "started", "wait", "finished", "run", "process_cpu")
COLUMNS = ("key", "dataset", "structure", "method", "fold", "seed", "status", "attempts", "metrics", "history",
           "stop_reason", "error", "seconds", "worker", "finished")


def _said(exc: BaseException) -> str:
    """What ``exc`` says, on one line of at most 200 characters (SQLite quotes the damaged schema)."""
    text = " ".join(str(exc).split())
    return text if len(text) <= 200 else text[:197] + "..."


def study_file_error(exc: BaseException, path: Path) -> StudyFileError:
    """One line for a failure of SQLite, zlib or the JSON inside the study file ``path``, saying what the user
    can do. The disk and the folder are looked at rather than the wording of SQLite's message: a full disk, a
    read-only folder, else a damaged file (corrupt pages or fields) or another failure of the file."""
    folder = path.absolute().parent
    try:
        space = os.statvfs(folder)
        read_only = bool(space.f_flag & os.ST_RDONLY) or not os.access(folder, os.W_OK)
        full = space.f_bavail * space.f_frsize < (1 << 20)
    except OSError:
        read_only = full = False
    failed = isinstance(exc, (sqlite3.OperationalError, OSError))
    if failed and read_only:
        return StudyFileError(f"cannot write the study file: its folder is read-only ({_said(exc)})", str(path))
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC or failed and full:
        return StudyFileError(f"cannot write the study file: the disk is full ({_said(exc)})", str(path))
    if failed:
        return StudyFileError(f"cannot use the study file ({_said(exc)})", str(path))
    return StudyFileError(f"damaged study file ({type(exc).__name__}: {_said(exc)}); run the study into a new "
                          f"file", str(path))


def _text(data: bytes) -> str:
    return data.decode("utf-8")


def _guarded(method):
    """``method`` of :class:`StudyStore` with every SQLite or JSON failure as one :class:`StudyFileError`."""
    @functools.wraps(method)
    def guarded(self: "StudyStore", *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except (sqlite3.Error, ValueError, zlib.error, OSError) as exc:
            if isinstance(exc, FormatError):
                raise
            raise study_file_error(exc, self.path) from None
    return guarded


class StudyStore:
    """Open (or create) the study file at ``path``; use as a context manager or call :meth:`close`.

    Every failure of the file (damaged bytes or JSON fields, a full disk, a read-only folder) is one
    :class:`~bnstudio.errors.StudyFileError` line. Opened with ``create=False`` in a folder this process cannot
    write in (a read-only mount), the file is read without locking (SQLite's ``immutable``): nobody can be
    writing it there."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = Path(path)
        self.run_id: int | None = None
        if not create and not self.path.is_file():
            raise FormatError("no such study file", str(self.path))
        db: sqlite3.Connection | None = None
        try:
            if not create and not os.access(self.path.resolve().parent, os.W_OK):
                db = sqlite3.connect(f"{self.path.resolve().as_uri()}?immutable=1", uri=True, timeout=30.0)
            else:
                db = sqlite3.connect(self.path, timeout=30.0)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")    # WAL + NORMAL: a commit survives a killed process
                db.executescript(_SCHEMA)
                self.db = db
                self._add_columns()
            db.text_factory = _text   # damaged UTF-8 is a ValueError: a damaged file
            self.db = db
            version = self._meta("schema_version")
        except (sqlite3.Error, ValueError) as exc:
            if db is not None:
                db.close()
            if isinstance(exc, FormatError):
                raise
            if isinstance(exc, sqlite3.DatabaseError) and type(exc) is sqlite3.DatabaseError:
                raise FormatError(f"not a study file ({_said(exc)})", str(self.path)) from None
            raise study_file_error(exc, self.path) from None
        if version is None and create:
            self._set_meta("schema_version", SCHEMA_VERSION)
        elif version is not None and (not isinstance(version, int) or isinstance(version, bool) or version < 1):
            self.db.close()
            raise StudyFileError(f"damaged study file (schema version {str(version)[:40]!r})", str(self.path))
        elif version is not None and version > SCHEMA_VERSION:
            raise FormatError(f"written by a newer BN Studio (study schema {version})", str(self.path))

    def _add_columns(self) -> None:
        """Give a file written before :data:`ADDED_COLUMNS` existed those columns (empty in its old rows)."""
        for table, column, kind in ADDED_COLUMNS:
            if column not in self._columns(table):
                with self.db:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")

    def _columns(self, table: str) -> set[str]:
        return {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}

    # ------------------------------------------------------------------ runs
    @_guarded
    def open_run(self, executor: str = "") -> int:
        """Start a run of this process: mark runs whose process died ``interrupted``, refuse (StudyBusy) if
        another live process runs the study, record this run; returns its id."""
        from bnstudio.experiment.status import run_outcome

        me, host, now = os.getpid(), socket.gethostname(), time.time()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")      # one process at a time reads and takes the lease
            for run in self.runs(outcome="running"):
                if run["pid"] != me or run["host"] != host:
                    if run_outcome(run) == "running":
                        raise StudyBusy(f"{self.path}: the study is running in process {run['pid']} on "
                                        f"{run['host']} (started {time.ctime(run['started'])}); wait for it or stop it")
                self.db.execute("UPDATE runs SET outcome = 'interrupted' WHERE id = ?", (run["id"],))
            cursor = self.db.execute("INSERT INTO runs (pid, host, started, updated, executor) VALUES (?, ?, ?, ?, ?)",
                                     (me, host, now, now, executor))
        self.run_id = cursor.lastrowid
        assert self.run_id is not None  # set by the INSERT
        return self.run_id

    @_guarded
    def close_run(self, outcome: str) -> None:
        """End this process's run: ``finished``, ``stopped`` (on request, Ctrl+C; SIGTERM in ``bnstudio
        experiment``) or ``failed`` (an error)."""
        if self.run_id is None:
            return
        with self.db:
            self.db.execute("UPDATE runs SET ended = ?, outcome = ? WHERE id = ?", (time.time(), outcome, self.run_id))
        self.run_id = None

    @_guarded
    def runs(self, outcome: str | None = None) -> list[dict[str, Any]]:
        """Every run of the study, oldest first (``outcome``: only those); none in a file written before runs
        were recorded (read-only, so the table was never added)."""
        if not self._columns("runs"):
            return []
        sql = f"SELECT {', '.join(RUN_COLUMNS)} FROM runs" + (" WHERE outcome = ?" if outcome else "") + " ORDER BY id"
        runs = [dict(zip(RUN_COLUMNS, row, strict=True)) for row in self.db.execute(sql, (outcome,) if outcome else ())]
        for run in runs:
            if not (isinstance(run["pid"], int) and isinstance(run["host"], str) and isinstance(run["outcome"], str)
                    and all(isinstance(run[k], (int, float)) for k in ("started", "updated") if run[k] is not None)
                    and run["started"] is not None):
                raise ValueError(f"run {run['id']} has fields of the wrong type")
        return runs

    @_guarded
    def set_accounting(self, accounting: dict[str, Any], executor: str | None = None) -> None:
        """What this process's run measured about itself (workers, wall, driver CPU, store seconds, the machine's
        load): JSON in its ``runs`` row, read by :mod:`bnstudio.experiment.accounting`; ``executor``: the run's
        executor as it ran (local workers choose their number when they start)."""
        if self.run_id is not None:
            with self.db:
                self.db.execute("UPDATE runs SET accounting = ?, executor = COALESCE(?, executor) WHERE id = ?",
                                (json.dumps(accounting), executor, self.run_id))

    @_guarded
    def accounting(self, run: int) -> dict[str, Any] | None:
        """The run ``run``'s accounting (:meth:`set_accounting`), None if it has none (an older file, a run that
        ran no task)."""
        if "accounting" not in self._columns("runs"):
            return None
        row = self.db.execute("SELECT accounting FROM runs WHERE id = ?", (run,)).fetchone()
        value = json.loads(row[0]) if row is not None and row[0] else None
        if not isinstance(value, (dict, type(None))):
            raise ValueError(f"the accounting of run {run} is not a JSON object")
        return value

    @_guarded
    def timings(self, run: int) -> list[dict[str, Any]]:
        """The tasks finished in run ``run``: :data:`TIMING_COLUMNS` (empty for an older file)."""
        if not {"cpu", "run"} <= self._columns("tasks"):
            return []
        sql = f"SELECT {', '.join(TIMING_COLUMNS)} FROM tasks WHERE run = ? ORDER BY started"
        rows = [dict(zip(TIMING_COLUMNS, values, strict=True)) for values in self.db.execute(sql, (run,))]
        for row in rows:
            if not all(isinstance(row[k], (int, float, type(None))) for k in ("seconds", "cpu", "started", "wait", "process_cpu")):
                raise ValueError(f"task row {str(row['key'])[:80]!r} has timings of the wrong type")
        return rows

    def __enter__(self) -> "StudyStore":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ meta
    @_guarded
    def _meta(self, name: str) -> Any:
        row = self.db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return None if row is None else json.loads(row[0])

    @_guarded
    def _set_meta(self, name: str, value: Any) -> None:
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (name, json.dumps(value)))

    @_guarded
    def study(self) -> dict[str, Any] | None:
        """The study as last registered (:meth:`bnstudio.experiment.spec.Study.to_json`)."""
        study = self._meta("study")
        if not isinstance(study, (dict, type(None))):
            raise ValueError("the study's record is not a JSON object")
        return study

    @_guarded
    def set_state(self, state: dict[str, Any], accounting: dict[str, Any] | None = None) -> None:
        """What the running study says about itself (workers, start time, running tasks) for other readers; also
        the heartbeat of the open run; ``accounting``: the run's accounting so far (:meth:`set_accounting`),
        in the same commit."""
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('state', ?)", (json.dumps(state),))
            if self.run_id is not None:
                self.db.execute("UPDATE runs SET updated = ? WHERE id = ?", (time.time(), self.run_id))
                if accounting is not None:
                    self.db.execute("UPDATE runs SET accounting = ? WHERE id = ?",
                                    (json.dumps(accounting), self.run_id))

    @_guarded
    def state(self) -> dict[str, Any] | None:
        state = self._meta("state")
        if not isinstance(state, (dict, type(None))):
            raise ValueError("the study's state is not a JSON object")
        return state

    # ------------------------------------------------------------------ tasks
    @_guarded
    def register(self, study: dict[str, Any], tasks: Iterable[Task]) -> None:
        """Make ``tasks`` the current ones: add new keys as pending, keep finished results, retire the others."""
        rows = [(t.key, t.dataset, t.structure, t.method, t.fold, t.seed, json.dumps(t.spec, sort_keys=True))
                for t in tasks]
        with self.db:
            self.db.execute("UPDATE tasks SET current = 0")
            self.db.executemany("INSERT OR IGNORE INTO tasks (key, dataset, structure, method, fold, seed, spec) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
            self.db.executemany("UPDATE tasks SET current = 1 WHERE key = ?", [(r[0],) for r in rows])
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('study', ?)", (json.dumps(study),))

    @_guarded
    def todo(self) -> list[str]:
        """Keys of current tasks not done yet (pending or failed), in registration order."""
        return [r[0] for r in self.db.execute(
            "SELECT key FROM tasks WHERE current = 1 AND status != 'done' ORDER BY rowid")]

    @_guarded
    def record(self, key: str, result: dict[str, Any] | None, error: str | None, seconds: float,
               worker: str = "", cpu: float | None = None, started: float | None = None,
               wait: float | None = None, process_cpu: float | None = None) -> None:
        """Store a finished task: ``result`` (see :func:`bnstudio.experiment.evaluation.run_task`) or ``error``;
        its wall ``seconds`` and, when measured, ``cpu`` seconds, ``started`` (epoch), queue ``wait`` and the
        worker's CPU seconds since it started (``process_cpu``, at the task's end)."""
        with self.db:
            self._record(key, result, error, seconds, worker, cpu, started, wait, process_cpu)

    @_guarded
    def record_many(self, records: Iterable[tuple[Any, ...]]) -> None:
        """:meth:`record` each tuple of ``records`` (its arguments in order) in one transaction: one commit for
        the tasks of a unit instead of one per task."""
        with self.db:
            for record in records:
                self._record(*record)

    def _record(self, key: str, result: dict[str, Any] | None, error: str | None, seconds: float,
                worker: str = "", cpu: float | None = None, started: float | None = None,
                wait: float | None = None, process_cpu: float | None = None) -> None:
        timing = (seconds, worker, time.time(), cpu, started, wait, self.run_id, process_cpu)
        if result is not None:
            self.db.execute(
                "UPDATE tasks SET status = 'done', attempts = attempts + 1, metrics = ?, history = ?, "
                "stop_reason = ?, error = NULL, seconds = ?, worker = ?, finished = ?, cpu = ?, started = ?, "
                "wait = ?, run = ?, process_cpu = ?, network = ? WHERE key = ?",
                (json.dumps(result["metrics"]), json.dumps(result["history"]), result["stop_reason"], *timing,
                 result.get("network"), key))
        else:
            self.db.execute("UPDATE tasks SET status = 'failed', attempts = attempts + 1, error = ?, seconds = ?, "
                            "worker = ?, finished = ?, cpu = ?, started = ?, wait = ?, run = ?, process_cpu = ? "
                            "WHERE key = ?",
                            (error, *timing, key))

    @_guarded
    def lost(self, keys: Iterable[str]) -> None:
        """Count an attempt of each task in ``keys`` whose worker died before it finished (it stays pending)."""
        with self.db:
            self.db.executemany("UPDATE tasks SET attempts = attempts + 1 WHERE key = ?", [(k,) for k in keys])

    @_guarded
    def counts(self) -> dict[str, int]:
        """Current tasks per status (every status present, zero or more)."""
        out = dict.fromkeys(STATUSES, 0)
        for status, n in self.db.execute("SELECT status, COUNT(*) FROM tasks WHERE current = 1 GROUP BY status"):
            out[status] = n
        return out

    @_guarded
    def rows(self, current: bool = True, status: str | None = None) -> list[dict[str, Any]]:
        """The task rows (without the network) as dicts; metrics and history decoded."""
        sql = f"SELECT {', '.join(COLUMNS)} FROM tasks WHERE 1 = 1"
        args: list[Any] = []
        if current:
            sql += " AND current = 1"
        if status is not None:
            sql += " AND status = ?"
            args.append(status)
        out = []
        for values in self.db.execute(sql + " ORDER BY rowid", args):
            row = dict(zip(COLUMNS, values, strict=True))
            row["metrics"] = json.loads(row["metrics"]) if row["metrics"] else None
            row["history"] = json.loads(row["history"]) if row["history"] else None
            if not isinstance(row["metrics"], (dict, type(None))) or not isinstance(row["history"], (list, type(None))) \
                    or not all(isinstance(row[k], str) for k in ("key", "dataset", "structure", "method", "status")):
                raise ValueError(f"task row {str(row['key'])[:80]!r} has fields of the wrong type")
            out.append(row)
        return out

    @_guarded
    def network(self, key: str):
        """The fitted network of a finished task (a :class:`~bnstudio.core.network.Network`)."""
        from bnstudio.io.project import project_from_json

        row = self.db.execute("SELECT network FROM tasks WHERE key = ?", (key,)).fetchone()
        if row is None or row[0] is None:
            raise FormatError(f"no fitted network for task {key}", str(self.path))
        if not isinstance(row[0], bytes):
            raise ValueError(f"the fitted network of task {key} is not compressed bytes")
        return project_from_json(json.loads(zlib.decompress(row[0])), str(self.path)).network
