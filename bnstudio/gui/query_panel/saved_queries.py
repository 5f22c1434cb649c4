"""Saved queries: a table of many queries with their error bars, kept in ``document.project.queries`` (so they
are saved with the project and reopened), re-evaluated after every network change, exportable as CSV.

A project entry is ``{"target": {VAR: STATE} or VAR, "evidence": {...}, "label": str}``; a bare ``VAR``
target stands for each of its states (one table row per state).
"""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from bnstudio.app.query.compute import QueryAnswer, describe, fmt, fmt_interval
from bnstudio.core.events import Event
from bnstudio.core.network import Network
from bnstudio.uncertainty import FLAG_TEXT

Index = QModelIndex | QPersistentModelIndex

COLUMNS = ("Label", "Target", "Evidence", "p(q | e)", "sd", "Normal interval", "Beta interval",
           "Bootstrap interval", "Notes")
CSV_COLUMNS = ("label", "target", "evidence", "p", "sd", "level", "normal_low", "normal_high", "beta_low",
               "beta_high", "bootstrap_mean", "bootstrap_low", "bootstrap_high", "notes")


@dataclass
class SavedRow:
    """One table row: a target configuration of project entry ``entry`` and its answer."""

    entry: int
    label: str
    target: dict[str, str]
    evidence: dict[str, Any]
    answer: QueryAnswer | None = None


def expand(entry: dict[str, Any], net: Network) -> list[dict[str, str]]:
    """The target configurations of a project entry (a bare variable: each of its states)."""
    target = entry["target"]
    if isinstance(target, str):
        return [{target: s} for s in net.states(target)] if target in net else []
    return [dict(target)]


def notes(answer: QueryAnswer | None) -> str:
    if answer is None:
        return ""
    parts = [answer.error] if answer.error else []
    if answer.bars is not None:
        parts += [FLAG_TEXT[f] for f in answer.bars.intervals.flags]
    return "; ".join(parts + answer.notes)


def cells(row: SavedRow) -> list[str]:
    """The display text of every column."""
    a = row.answer
    bars = a.bars if a is not None else None
    boot = a.bootstrap if a is not None else None
    return [row.label, describe(row.target), describe(row.evidence), fmt(a.mean if a is not None else None),
            fmt(bars.sd) if bars is not None else "", fmt_interval(bars.intervals.normal_clipped) if bars else "",
            fmt_interval(bars.intervals.beta) if bars else "", fmt_interval((boot.low, boot.high)) if boot else "",
            notes(a)]


def csv_record(row: SavedRow) -> list[Any]:
    """The CSV values of a row (numbers unrounded, blank when undefined)."""
    a = row.answer
    bars = a.bars if a is not None else None
    boot = a.bootstrap if a is not None else None
    pair = lambda p: list(p) if p is not None else ["", ""]  # noqa: E731
    return [row.label, describe(row.target), describe(row.evidence),
            "" if a is None or a.mean is None else repr(float(a.mean)),
            repr(bars.sd) if bars else "", a.level if a is not None else "",
            *pair(bars.intervals.normal_clipped if bars else None), *pair(bars.intervals.beta if bars else None),
            *([boot.mean, boot.low, boot.high] if boot else ["", "", ""]), notes(a)]


def write_csv(rows: list[SavedRow], path: str | Path) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_COLUMNS)
        writer.writerows(csv_record(r) for r in rows)


def follow_event(entries: list[dict[str, Any]], event: Event, net: Network) -> list[str]:
    """Keep saved entries in step with a network edit: renames are followed, entries naming a removed
    variable or state are dropped (their labels are returned, for a message)."""
    kind, data = event.kind, event.data
    dropped = []
    for entry in list(entries):
        target, evidence = entry["target"], entry.setdefault("evidence", {})
        if kind == "rename_variable":
            old, new = data["old"], data["new"]
            entry["target"] = (new if target == old else target) if isinstance(target, str) else \
                {new if k == old else k: s for k, s in target.items()}
            entry["evidence"] = {new if k == old else k: v for k, v in evidence.items()}
        elif kind == "rename_state" and isinstance(target, dict):
            var, old, new = data["variable"], data["old"], data["new"]
            entry["target"] = {k: new if k == var and s == old else s for k, s in target.items()}
            entry["evidence"] = {k: new if k == var and v == old else v for k, v in evidence.items()}
        if not _valid(entry, net):
            entries.remove(entry)
            dropped.append(entry.get("label") or describe(entry["target"] if isinstance(target, dict) else {}))
    return dropped


def _valid(entry: dict[str, Any], net: Network) -> bool:
    target = entry["target"]
    pairs = list(target.items()) if isinstance(target, dict) else []
    if isinstance(target, str) and target not in net:
        return False
    for name, value in pairs + list(entry["evidence"].items()):
        if name not in net:
            return False
        if isinstance(value, str) and value not in net.states(name):
            return False
        if not isinstance(value, str) and len(value) != net.cardinality(name):
            return False
    return True


class SavedQueriesModel(QAbstractTableModel):
    """Rows of :class:`SavedRow` for a :class:`QTableView`."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[SavedRow] = []

    def set_rows(self, rows: list[SavedRow]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # Qt override
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):  # Qt override
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):  # Qt override
        if not index.isValid():
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return cells(self.rows[index.row()])[index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole and 3 <= index.column() <= 7:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


def make_table(model: SavedQueriesModel) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().hide()
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.horizontalHeader().setStretchLastSection(True)
    return view


def evaluate_entries(entries: list[dict[str, Any]], net: Network,
                     evaluate: Callable[[dict[str, str], dict[str, Any]], QueryAnswer]) -> list[SavedRow]:
    """Every configuration of every entry, evaluated."""
    rows = []
    for k, entry in enumerate(entries):
        for target in expand(entry, net):
            row = SavedRow(k, entry.get("label", ""), target, dict(entry.get("evidence", {})))
            row.answer = evaluate(row.target, row.evidence)
            rows.append(row)
    return rows
