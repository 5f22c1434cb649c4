"""The study's SQLite file: one row per task (key, status, metrics, timing, convergence history, fitted network).

Only the process running the study writes; workers return results to it. Each result is committed as it
arrives (write-ahead log), so killing the run loses nothing that finished, and the app or ``bnstudio report``
can read the file while a study runs. Running the study again registers its tasks: finished keys are kept and
skipped, new keys are added as ``pending``, failed and unfinished ones are run again; rows of keys the study no
longer has (a changed option) stay in the file but are no longer ``current`` and are left out of reports.
"""
from __future__ import annotations

import json
import sqlite3
import time
import zlib
from pathlib import Path
from typing import Any, Iterable

from bnstudio.errors import FormatError
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
"""
COLUMNS = ("key", "dataset", "structure", "method", "fold", "seed", "status", "attempts", "metrics", "history",
           "stop_reason", "error", "seconds", "worker", "finished")


class StudyStore:
    """Open (or create) the study file at ``path``; use as a context manager or call :meth:`close`."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise FormatError("no such study file", str(self.path))
        try:
            self.db = sqlite3.connect(self.path, timeout=30.0)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")    # WAL + NORMAL: a commit survives a killed process
            self.db.executescript(_SCHEMA)
            version = self._meta("schema_version")
        except sqlite3.DatabaseError as exc:
            raise FormatError(f"not a study file ({exc})", str(self.path)) from None
        if version is None and create:
            self._set_meta("schema_version", SCHEMA_VERSION)
        elif version is not None and version > SCHEMA_VERSION:
            raise FormatError(f"written by a newer BN Studio (study schema {version})", str(self.path))

    def __enter__(self) -> "StudyStore":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ meta
    def _meta(self, name: str) -> Any:
        row = self.db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return None if row is None else json.loads(row[0])

    def _set_meta(self, name: str, value: Any) -> None:
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (name, json.dumps(value)))

    def study(self) -> dict[str, Any] | None:
        """The study as last registered (:meth:`bnstudio.experiment.spec.Study.to_json`)."""
        return self._meta("study")

    def set_state(self, state: dict[str, Any]) -> None:
        """What the running study says about itself (workers, start time, running tasks) for other readers."""
        self._set_meta("state", state)

    def state(self) -> dict[str, Any] | None:
        return self._meta("state")

    # ------------------------------------------------------------------ tasks
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

    def todo(self) -> list[str]:
        """Keys of current tasks not done yet (pending or failed), in registration order."""
        return [r[0] for r in self.db.execute(
            "SELECT key FROM tasks WHERE current = 1 AND status != 'done' ORDER BY rowid")]

    def record(self, key: str, result: dict[str, Any] | None, error: str | None, seconds: float,
               worker: str = "") -> None:
        """Store a finished task: ``result`` (see :func:`bnstudio.experiment.evaluation.run_task`) or ``error``."""
        with self.db:
            if result is not None:
                self.db.execute(
                    "UPDATE tasks SET status = 'done', attempts = attempts + 1, metrics = ?, history = ?, "
                    "stop_reason = ?, error = NULL, seconds = ?, worker = ?, finished = ?, network = ? WHERE key = ?",
                    (json.dumps(result["metrics"]), json.dumps(result["history"]), result["stop_reason"], seconds,
                     worker, time.time(), result.get("network"), key))
            else:
                self.db.execute("UPDATE tasks SET status = 'failed', attempts = attempts + 1, error = ?, seconds = ?, "
                                "worker = ?, finished = ? WHERE key = ?", (error, seconds, worker, time.time(), key))

    def counts(self) -> dict[str, int]:
        """Current tasks per status (every status present, zero or more)."""
        out = dict.fromkeys(STATUSES, 0)
        for status, n in self.db.execute("SELECT status, COUNT(*) FROM tasks WHERE current = 1 GROUP BY status"):
            out[status] = n
        return out

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
            row = dict(zip(COLUMNS, values))
            row["metrics"] = json.loads(row["metrics"]) if row["metrics"] else None
            row["history"] = json.loads(row["history"]) if row["history"] else None
            out.append(row)
        return out

    def network(self, key: str):
        """The fitted network of a finished task (a :class:`~bnstudio.core.network.Network`)."""
        from bnstudio.project import project_from_json

        row = self.db.execute("SELECT network FROM tasks WHERE key = ?", (key,)).fetchone()
        if row is None or row[0] is None:
            raise FormatError(f"no fitted network for task {key}", str(self.path))
        return project_from_json(json.loads(zlib.decompress(row[0])), str(self.path)).network
