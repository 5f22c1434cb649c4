"""The parts of a session besides the network, and which of them hold unsaved work.

A part is whatever the user made that would be lost with the window: evidence, the data set and its
preparation, training runs, saved queries, notes on the drawing (kept in the project), expert counts for error bars, a learned
structure not yet accepted. Each has a cheap, comparable ``summary()``; the summaries taken when the file was
opened or saved are the baseline, and a part whose summary differs from it holds unsaved work, named by its
``describe()``. Qt-free; :class:`bnstudio.app.document.Document` owns one.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class SessionPart:
    summary: Callable[[], Any]      # None or a comparable value; equal values = nothing new to save
    describe: Callable[[], str]     # the part as it is now, for "Not saved yet: ..."
    in_project: bool = True         # a project file keeps it (a network file keeps none of the parts)


class SessionParts:
    """Registered parts and their saved baseline."""

    def __init__(self) -> None:
        self.parts: dict[str, SessionPart] = {}
        self.baseline: dict[str, Any] = {}

    def add(self, name: str, part: SessionPart) -> None:
        self.parts[name] = part
        self.baseline[name] = part.summary()

    def changed(self) -> dict[str, str]:
        """Name -> description of every part that differs from its baseline."""
        return {name: part.describe() for name, part in self.parts.items()
                if part.summary() != self.baseline.get(name)}

    def mark_saved(self, names: list[str] | None = None) -> None:
        for name in self.parts if names is None else names:
            self.baseline[name] = self.parts[name].summary()

    def mark_unsaved(self) -> None:
        self.baseline = dict.fromkeys(self.parts)

    def in_project(self) -> list[str]:
        return [name for name, part in self.parts.items() if part.in_project]

    def key(self) -> tuple:
        return tuple(part.summary() for part in self.parts.values())


def canonical(value: Any) -> str | None:
    """A comparable summary of JSON-like data (None for nothing)."""
    return json.dumps(value, sort_keys=True, default=str) if value else None


def count(n: int, one: str, many: str) -> str:
    """``one`` or ``many`` with ``{}`` replaced by ``n``."""
    return (one if n == 1 else many).format(n)


def project_parts(document: Any) -> dict[str, SessionPart]:
    """The parts a project file keeps, read from ``document.project`` and ``document.evidence``."""
    def section(name: str) -> Any:
        return getattr(document.project, name, None) or None

    def runs() -> Any:
        return [(r.get("label"), r.get("method"), r.get("seconds")) for r in section("runs") or ()] or None

    return {
        "evidence": SessionPart(lambda: canonical(document.evidence),
                                lambda: count(len(document.evidence), "evidence on {} node", "evidence on {} nodes")),
        "data": SessionPart(lambda: canonical(section("data")), lambda: "the data set and its preparation"),
        "runs": SessionPart(runs, lambda: count(len(section("runs") or ()), "{} training run", "{} training runs")),
        "queries": SessionPart(lambda: canonical(section("queries")),
                               lambda: count(len(section("queries") or ()), "{} saved query", "{} saved queries")),
        "notes": SessionPart(lambda: canonical([vars(n) for n in section("notes") or ()]),
                             lambda: count(len(section("notes") or ()), "{} note", "{} notes")),
    }


def decision_part(document: Any) -> SessionPart:
    """The influence diagram's decisions and utility tables (``document.decisions``); no network or project
    file keeps them (only an influence-diagram JSON file does)."""
    return SessionPart(lambda: None if document.decisions is None else document.decisions.summary(),
                       lambda: "the influence diagram's decisions and utility tables", in_project=True)
