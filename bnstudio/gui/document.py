"""The Qt adapter of the open document (docs/architecture.md §7).

:class:`bnstudio.app.document.Document` (``model``) holds the network, its file, the evidence, the session's
parts and the undo history, free of Qt. This adapter re-emits each of its notices as the Qt signal of the same
name, shows its history as :attr:`Document.undo_stack` (:class:`bnstudio.gui.history.UndoStack`: the Undo and
Redo actions, ``canUndo``, ``cleanChanged``...), computes large networks' beliefs in the background
(:class:`bnstudio.gui.belief_updates.BeliefUpdates`) and passes every other attribute to the model.
"""
from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QObject, Signal

from bnstudio.app.document import Document as AppDocument
from bnstudio.app.notice import Notice
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

    def __getattr__(self, name: str) -> Any:
        """The model's attribute (called only for names the adapter itself lacks)."""
        if name == "model":
            raise AttributeError(name)
        return getattr(self.model, name)

    def __setattr__(self, name: str, value: Any) -> None:
        """Set the model's attributes (``path``, ``project``...) on the model, the adapter's own here."""
        model = self.__dict__.get("model")
        if model is not None and name in vars(model):
            setattr(model, name, value)
        else:
            super().__setattr__(name, value)
