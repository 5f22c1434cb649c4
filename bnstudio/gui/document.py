"""The Qt adapter of the open document (docs/architecture.md §7).

:class:`bnstudio.app.document.Document` (``model``) holds the network, its file, the evidence, the session's
parts and the undo history, free of Qt. This adapter re-emits each of its notices as the Qt signal of the same
name, shows its history as :attr:`Document.undo_stack` (:class:`bnstudio.gui.history.UndoStack`: the Undo and
Redo actions, ``canUndo``, ``cleanChanged``...) and computes large networks' beliefs in the background
(:attr:`Document.updates`, a :class:`bnstudio.gui.belief_updates.BeliefUpdates`). The model's other members are
declared here one a line (:mod:`bnstudio.app.forwarding`), typed as the model's: they are read, set and called on
the model, and the adapter has nothing else (no ``__getattr__``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QObject, Signal

from bnstudio.app.beliefs import Beliefs
from bnstudio.app.commands.decisions import DecisionPart
from bnstudio.app.document import Document as AppDocument
from bnstudio.app.forwarding import Call, Read, ReadWrite
from bnstudio.app.history import History
from bnstudio.app.notice import Notice
from bnstudio.app.session import SessionParts
from bnstudio.core.network import Network
from bnstudio.gui.belief_updates import BeliefUpdates
from bnstudio.gui.history import UndoStack


class Document(QObject):
    """A network being edited, as the window sees it; see the module docstring."""

    network_closing = Signal()            # the open network is about to be replaced: forget what was shown of it
    network_replaced = Signal()           # a different Network object (new, open)
    network_changed = Signal(object)      # a core Event, after the change
    positions_changed = Signal(list)      # names whose net.positions changed
    evidence_changed = Signal()
    beliefs_changed = Signal()
    rows_checked = Signal(dict)           # {variable: [row index tuples]} of CPT rows that do not sum to 1
    path_changed = Signal()
    decisions_changed = Signal()          # the decision part was replaced (or became None)
    notes_changed = Signal()              # the text notes on the drawing changed (project.notes)
    session_changed = Signal()            # something that makes `modified` / `unsaved_work` change may have
    message = Signal(str, str)            # level ("info" | "warning" | "error"), text

    # the model's state
    network = Read[Network]()
    history = Read[History]()
    beliefs = Read[Beliefs]()
    session = Read[SessionParts]()
    decisions = Read[DecisionPart | None]()
    refusal = Read[str]()
    unnormalised = Read[dict[str, list[tuple[int, ...]]]]()
    path = ReadWrite[Path | None]()
    untitled_name = ReadWrite[str]()
    project = ReadWrite[Any]()
    notes = Read(AppDocument.notes)
    modified = Read(AppDocument.modified)
    title = Read(AppDocument.title)
    evidence = Read(AppDocument.evidence)
    interventions = Read(AppDocument.interventions)
    edit_count = Read(AppDocument.edit_count)
    # the network's lifetime, the session and the files
    replace_network = Call(AppDocument.replace_network)
    set_notes = Call(AppDocument.set_notes)
    set_decision_part = Call(AppDocument.set_decision_part)
    unsaved_work = Call(AppDocument.unsaved_work)
    unsaved_parts = Call(AppDocument.unsaved_parts)
    add_session_part = Call(AppDocument.add_session_part)
    mark_unsaved = Call(AppDocument.mark_unsaved)
    session_key = Call(AppDocument.session_key)
    note_session_change = Call(AppDocument.note_session_change)
    mark_saved = Call(AppDocument.mark_saved)
    save = Call(AppDocument.save)
    # edits, evidence and beliefs
    execute = Call(AppDocument.execute)
    grouped = Call(AppDocument.grouped)
    set_positions_silently = Call(AppDocument.set_positions_silently)
    set_evidence = Call(AppDocument.set_evidence)
    toggle_evidence = Call(AppDocument.toggle_evidence)
    finding = Call(AppDocument.finding)
    set_finding = Call(AppDocument.set_finding)
    apply_finding = Call(AppDocument.apply_finding)
    clear_evidence = Call(AppDocument.clear_evidence)
    posteriors = Call(AppDocument.posteriors)

    def __init__(self, network: Network | None = None, parent: QObject | None = None,
                 prepare_network: Callable[[Network], object] | None = None) -> None:
        super().__init__(parent)
        self.model = AppDocument(network, prepare_network)
        self.undo_stack = UndoStack(self.model.history, self)
        for name, notice in vars(self.model).items():
            if isinstance(notice, Notice):
                notice.connect(getattr(self, name).emit)
        self.updates = BeliefUpdates(self.model, self)   # large networks: beliefs in the background
        self.model.set_background(self.updates)
