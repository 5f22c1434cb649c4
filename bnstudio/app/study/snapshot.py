"""What the study view shows, read from a study file by a Qt-free job (it runs on a worker thread): the study,
its progress, the report's tables and comparisons (:func:`bnstudio.figures.report.write_report`, the same
numbers as ``bnstudio report``), the figures as PNG files and, per table cell, the finished runs whose fitted
networks a double-click opens."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bnstudio.experiment.status import driver_alive
from bnstudio.experiment.store import StudyStore
from bnstudio.figures.report import write_report
from bnstudio.jobs import NullReporter, Reporter

Run = tuple[int, int, str]          # (fold, seed, task key)


@dataclass
class StudySnapshot:
    """One reading of a study file (plain data: it crosses from the job's thread to the GUI)."""

    path: Path
    study: dict[str, Any]
    counts: dict[str, int]
    state: dict[str, Any]
    running: bool
    document: dict[str, Any]
    figures: list[tuple[str, Path]] = field(default_factory=list)
    runs: dict[tuple[str, str, str], list[Run]] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def is_running(state: dict[str, Any], now: float | None = None) -> bool:
    """True while a run is under way: started, not ended, and its process alive
    (:func:`bnstudio.experiment.status.driver_alive`; a killed run is seen at once, not after a delay)."""
    return driver_alive(state or {}, now)


def load_snapshot(path: str | Path, folder: str | Path, reporter: Reporter | None = None) -> StudySnapshot:
    """Read the study file ``path`` and write its report (tables, figures) into ``folder``."""
    reporter = reporter or NullReporter()
    reporter.begin("study", None)
    path = Path(path)
    report = write_report(path, folder)
    document = json.loads(report.json.read_text(encoding="utf-8"))
    with StudyStore(path, create=False) as store:
        rows, state = store.rows(status="done"), store.state() or {}
    runs: dict[tuple[str, str, str], list[Run]] = {}
    for row in rows:
        runs.setdefault((row["dataset"], row["structure"], row["method"]), []).append(
            (row["fold"], row["seed"], row["key"]))
    for found in runs.values():
        found.sort()
    reporter.end()
    return StudySnapshot(path, document["study"], document["counts"], state, is_running(state), document,
                         [(title, png) for title, png, _ in report.figures], runs)


def fitted_network(path: str | Path, key: str):
    """The fitted network of the finished task ``key`` (rebuilt from the compressed project in the store)."""
    with StudyStore(path, create=False) as store:
        return store.network(key)
