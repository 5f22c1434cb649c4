"""The base undo command and the family snapshots that make undo exact.

One user edit is one :class:`NetworkCommand` calling one core mutation in :meth:`apply`. Commands hold
variable names and old/new values (immutable numpy tables), never graphics items. They are plain objects
(``text``, ``redo``, ``undo``) kept by :class:`bnstudio.app.history.History`, which runs ``redo`` first and
records nothing when it raises, so a refused edit never reaches the history (docs/architecture.md §3.3).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Protocol

import numpy as np

from bnstudio.core.network import Network
from bnstudio.core.validation import ROW_TOLERANCE

if TYPE_CHECKING:   # the decisions module imports this one
    from bnstudio.app.commands.decisions import DecisionPart


class EditedDocument(Protocol):
    """What a command needs of the document it edits (:class:`bnstudio.app.document.Document` or its Qt
    adapter, which import the commands: they do not import them)."""

    positions_changed: Any            # a Notice or Signal(list): names whose positions changed

    @property
    def network(self) -> Network: ...

    @property
    def decisions(self) -> DecisionPart | None: ...   # the decision part of an influence diagram

    @property
    def evidence(self) -> dict[str, Any]: ...

    def set_evidence(self, name: str, value: Any) -> bool: ...

    def apply_finding(self, name: str, finding: Any) -> None: ...

    def set_notes(self, notes: list) -> None: ...

    def set_decision_part(self, part: Any) -> None: ...


class NetworkCommand:
    """An undoable edit of ``document.network``: subclasses implement :meth:`apply` and :meth:`revert`."""

    def __init__(self, document: EditedDocument, text: str) -> None:
        self.text = text
        self.document = document

    @property
    def net(self) -> Network:
        return self.document.network

    def apply(self) -> None:
        raise NotImplementedError

    def revert(self) -> None:
        raise NotImplementedError

    def redo(self) -> None:
        self.apply()

    def undo(self) -> None:
        self.revert()


@dataclass(frozen=True)
class Family:
    """What a variable's family was: its parents in order, its CPT and its Dirichlet counts."""

    parents: tuple[str, ...]
    cpt: np.ndarray
    alpha: np.ndarray | None


def snapshot(net: Network, names: Iterable[str]) -> dict[str, Family]:
    """The families of ``names`` (the core's tables are read-only, so keeping references is safe)."""
    return {n: Family(net.parents(n), net.cpt(n), net.alpha(n)) for n in names}


def _same(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is b
    return a.shape == b.shape and bool(np.array_equal(a, b))


def is_normalised(table: np.ndarray) -> bool:
    return bool(np.all(np.abs(table.sum(axis=-1) - 1.0) <= ROW_TOLERANCE))


def restore(net: Network, families: dict[str, Family]) -> None:
    """Put each family back exactly (parents in order, CPT, alpha), in the given order, touching only what
    differs. Used by undo where the inverse core edit alone would not be bit-exact (averaged or split
    tables, parent order)."""
    for name, fam in families.items():
        if net.parents(name) != fam.parents:
            if is_normalised(fam.cpt):
                net.set_parents(name, fam.parents, fam.cpt, fam.alpha)
                continue
            net.set_parents(name, fam.parents, None, fam.alpha)  # an editor may hold unnormalised rows
        if not _same(net.cpt(name), fam.cpt):
            net.set_cpt(name, fam.cpt, check_sums=False)
        if not _same(net.alpha(name), fam.alpha):
            net.set_alpha(name, fam.alpha)
