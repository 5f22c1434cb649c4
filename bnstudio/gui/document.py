"""The open document: the network (single source of truth), its file, the undo stack and the evidence.

Adapters (canvas, CPT editor, properties) listen to :attr:`Document.network_changed` — the core's own events
re-emitted as a Qt signal — and write back only through :meth:`Document.execute` with an undo command.
Beliefs are recomputed once per finished command (``QUndoStack.indexChanged``) and on every evidence change.
"""
from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from bnstudio.core.events import Event
from bnstudio.core.network import Network
from bnstudio.errors import BNStudioError
from bnstudio.gui import file_io
from bnstudio.gui.beliefs import Beliefs
from bnstudio.gui.commands.base import NetworkCommand


class Document(QObject):
    """A network being edited; see the module docstring."""

    network_replaced = Signal()           # a different Network object (new, open)
    network_changed = Signal(object)      # a core Event, after the change
    positions_changed = Signal(list)      # names whose net.positions changed
    evidence_changed = Signal()
    beliefs_changed = Signal()
    path_changed = Signal()
    message = Signal(str, str)            # level ("info" | "warning" | "error"), text

    def __init__(self, network: Network | None = None, parent: QObject | None = None,
                 prepare_network: Callable[[Network], object] | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.path: Path | None = None
        self.untitled_name = ""  # the title while there is no file, e.g. "alarm (example)"
        self.project: Any = None
        self.network = Network("untitled")
        self.beliefs = Beliefs(self.network)
        #: called with a network about to be shown (the window uses it to place nodes without positions)
        self.prepare_network = prepare_network
        self._versions = (-1, -1)
        self.undo_stack.indexChanged.connect(self._after_command)
        self.replace_network(network or Network("untitled"))

    # ------------------------------------------------------------------ network lifetime
    def replace_network(self, net: Network, path: str | Path | None = None, project: Any = None,
                        evidence: dict[str, Any] | None = None) -> None:
        """Start editing ``net`` (a fresh undo history, clean state)."""
        self.network.events.unsubscribe(self._on_event)
        self.beliefs.detach()
        self.undo_stack.clear()
        if self.prepare_network is not None:
            self.prepare_network(net)
        self.network = net
        self.project = project
        self.beliefs = Beliefs(net)
        if evidence:
            try:
                self.beliefs.replace_evidence(evidence)
            except BNStudioError as exc:
                self.message.emit("warning", f"The saved evidence was not applied: {exc}")
        net.events.subscribe(self._on_event)
        self.path = Path(path) if path is not None else None
        self.untitled_name = ""
        self.undo_stack.setClean()
        self.network_replaced.emit()
        self.path_changed.emit()
        self._refresh_beliefs(force=True)

    def _on_event(self, event: Event) -> None:
        if event.phase == "after":
            self.network_changed.emit(event)

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    @property
    def title(self) -> str:
        if self.path is not None:
            return self.path.name
        return self.untitled_name or f"{self.network.name} (unsaved)"

    # ------------------------------------------------------------------ edits
    def execute(self, command: NetworkCommand) -> bool:
        """Apply ``command`` and push it; a refused edit shows its message and pushes nothing."""
        try:
            command.apply()
        except BNStudioError as exc:
            self.message.emit("error", str(exc))
            return False
        command.mark_applied()
        self.undo_stack.push(command)
        return True

    @contextlib.contextmanager
    def grouped(self, text: str) -> Iterator[None]:
        """Commands executed inside the block form one undo step (a macro). Build each command just before
        executing it, so its snapshot sees the edits made before it in the same block."""
        self.undo_stack.beginMacro(text)
        try:
            yield
        finally:
            self.undo_stack.endMacro()
            macro = self.undo_stack.command(self.undo_stack.index() - 1)
            if macro is not None and macro.childCount() == 0:  # nothing was applied: drop the empty step
                macro.setObsolete(True)
                self.undo_stack.undo()

    def set_positions_silently(self, positions: dict[str, tuple[float, float]]) -> None:
        """Set positions without an undo step (placing nodes of a freshly opened file)."""
        self.network.positions.update({k: (float(x), float(y)) for k, (x, y) in positions.items()})
        self.positions_changed.emit(sorted(positions))

    # ------------------------------------------------------------------ evidence and beliefs
    @property
    def evidence(self) -> dict[str, Any]:
        return self.beliefs.evidence

    def set_evidence(self, name: str, value: Any) -> bool:
        """Set (None clears) evidence on ``name``; impossible evidence is shown as a message, not applied."""
        try:
            self.beliefs.set_evidence(name, value)
        except BNStudioError as exc:
            self.message.emit("warning", f"Evidence {name} = {value} not applied: {exc}")
            return False
        self.evidence_changed.emit()
        self._refresh_beliefs(force=True)
        return True

    def toggle_evidence(self, name: str, state: str) -> bool:
        return self.set_evidence(name, None if self.evidence.get(name) == state else state)

    def clear_evidence(self) -> None:
        if self.evidence:
            self.beliefs.clear()
            self.evidence_changed.emit()
            self._refresh_beliefs(force=True)

    def posteriors(self) -> dict[str, np.ndarray] | None:
        return self.beliefs.posteriors()

    def _after_command(self, _index: int = 0) -> None:
        self._refresh_beliefs()

    def _refresh_beliefs(self, force: bool = False) -> None:
        versions = (self.network.structure_version, self.network.parameter_version)
        if not force and versions == self._versions:
            return
        self._versions = versions
        had_error = self.beliefs.error
        self.beliefs.posteriors()
        if self.beliefs.error and self.beliefs.error != had_error:
            self.message.emit("warning", f"Beliefs cannot be computed: {self.beliefs.error}")
        self.beliefs_changed.emit()

    # ------------------------------------------------------------------ files
    def load(self, path: str | Path) -> None:
        """Open ``path`` (raises FormatError naming the file and line)."""
        loaded = file_io.read_file(path)
        self.replace_network(loaded.network, path, loaded.project, loaded.evidence)

    def save(self, path: str | Path | None = None, view: dict[str, Any] | None = None) -> None:
        """Write the network (atomically) to ``path`` or the current path; marks the document clean."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("no file name to save to")
        written = file_io.write_file(self.network, target, self.project, self.evidence, view)
        if written is not None:  # saving as BIF keeps the project's other sections for a later project save
            self.project = written
        self.path = target
        self.undo_stack.setClean()
        self.path_changed.emit()
