"""Findings as undo steps: observing X = x, or setting it by intervention do(X = x) (docs/inference.md §8).

A finding is ``(OBSERVE, state or likelihoods)`` or ``(DO, state)``; a variable has at most one. The command
holds the variable's name and its old and new finding and asks the document to apply them
(:meth:`bnstudio.app.document.Document.apply_finding`), which refuses impossible findings before anything
changes. The document does not count these steps as network edits (the evidence is its own session part).
"""
from __future__ import annotations

from typing import Any, Protocol

from bnstudio.app.commands.base import NetworkCommand

OBSERVE, DO = "observe", "do"
Finding = tuple[str, Any]


class FindingDocument(Protocol):
    """What the command needs of the document."""

    def apply_finding(self, name: str, finding: Finding | None) -> None: ...


def describe(name: str, finding: Finding | None) -> str:
    """``X = x``, ``do(X = x)``, ``X ~ likelihood`` or ``no finding on X``."""
    if finding is None:
        return f"no finding on {name}"
    kind, value = finding
    if kind == DO:
        return f"do({name} = {value})"
    return f"{name} = {value}" if isinstance(value, str) else f"{name} ~ likelihood"


class SetFinding(NetworkCommand):
    """Replace ``name``'s finding ``old`` by ``new`` (either may be None: none)."""

    def __init__(self, document: Any, name: str, old: Finding | None, new: Finding | None) -> None:
        text = f"Clear {describe(name, old)}" if new is None else f"Set {describe(name, new)}"
        super().__init__(document, text)
        self.name, self.old, self.new = name, old, new

    def apply(self) -> None:
        self.document.apply_finding(self.name, self.new)

    def revert(self) -> None:
        self.document.apply_finding(self.name, self.old)
