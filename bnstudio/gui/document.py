"""The open document: the network (single source of truth), its file, the undo stack and the evidence.

Adapters (canvas, CPT editor, properties) listen to :attr:`Document.network_changed` — the core's own events
re-emitted as a Qt signal — and write back only through :meth:`Document.execute` with an undo command.
Beliefs are recomputed once per finished command (``QUndoStack.indexChanged``) and on every evidence change.

**Unsaved work is more than network edits.** The session also holds evidence, the data set and its preparation,
training runs and saved queries (all kept in :attr:`Document.project`) and what panels register with
:meth:`Document.add_session_part` (expert counts, a structure proposal); see :mod:`bnstudio.gui.session`.
:meth:`Document.unsaved_work` names every part that changed since the file was opened or saved (plus "network
edits" while the undo stack is not clean). ``modified`` is true when that list is not empty, so New, Open,
Examples, Close and Quit ask before any of it is dropped, and the recovery copy is written whenever it changes.

**An influence diagram** is the network (its chance and decision variables) plus :attr:`Document.decisions`, a
:class:`~bnstudio.gui.commands.decisions.DecisionPart` (decisions in the order taken, utility nodes and tables)
or None for a plain network. It is edited through undo commands and is a session part of its own ("decisions"):
a network or project file does not keep it, so its changes stay unsaved work until it is written as an
influence-diagram JSON file.
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
from bnstudio.core.validation import unnormalised_rows
from bnstudio.errors import BNStudioError, ValidationError
from bnstudio.gui import file_io
from bnstudio.gui.belief_updates import BeliefUpdates
from bnstudio.gui.beliefs import Beliefs
from bnstudio.gui.commands.base import NetworkCommand
from bnstudio.gui.commands.decisions import DecisionPart
from bnstudio.gui.commands.findings import DO, OBSERVE, Finding, SetFinding
from bnstudio.gui.session import SessionPart, SessionParts, decision_part, project_parts


class Document(QObject):
    """A network being edited; see the module docstring."""

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
        self.undo_stack = QUndoStack(self)
        self.path: Path | None = None
        self.untitled_name = ""  # the title while there is no file, e.g. "alarm (example)"
        self.project: Any = None
        self.decisions: DecisionPart | None = None
        self.refusal = ""     # why the last execute() refused its edit ("" after an applied one)
        self.network = Network("untitled")
        self.beliefs = Beliefs(self.network)
        #: called with a network about to be shown (the window uses it to place nodes without positions)
        self.prepare_network = prepare_network
        self._versions = (-1, -1)
        self._estimate_told = ""   # the last "beliefs estimated" note shown (each is said once)
        #: CPT rows that do not sum to 1, by variable (inference uses them normalised: the window says so)
        self.unnormalised: dict[str, list[tuple[int, ...]]] = {}
        self._edits = 0   # counts every move of the undo stack (a new network restarts nothing: it adds one)
        self.session = SessionParts()
        for name, part in project_parts(self).items():
            self.session.add(name, part)
        self.session.add("decisions", decision_part(self))
        self.undo_stack.indexChanged.connect(self._after_command)
        self.undo_stack.cleanChanged.connect(self.session_changed)
        self.updates = BeliefUpdates(self)   # large networks: beliefs in the background
        self.evidence_changed.connect(self.session_changed)
        self.replace_network(network or Network("untitled"))

    # ------------------------------------------------------------------ network lifetime
    def replace_network(self, net: Network, path: str | Path | None = None, project: Any = None,
                        evidence: dict[str, Any] | None = None, decisions: DecisionPart | None = None) -> None:
        """Start editing ``net`` (a fresh undo history, clean state); ``decisions`` makes it an influence
        diagram (its decision variables must be variables of ``net``). ``network_closing`` goes first: every
        panel clears what it showed of the old network (:mod:`bnstudio.gui.document_reset`)."""
        self.network_closing.emit()
        self.network.events.unsubscribe(self._on_event)
        self.beliefs.detach()
        self.undo_stack.clear()
        if self.prepare_network is not None:
            self.prepare_network(net)
        self.network = net
        self.project = project
        self.decisions = decisions
        self.beliefs = Beliefs(net)
        self.updates.good_evidence = {}
        if evidence:
            try:
                self.beliefs.replace_evidence(evidence)
            except BNStudioError as exc:
                self.message.emit("warning", f"The saved evidence was not applied: {exc}")
        net.events.subscribe(self._on_event)
        self.path = Path(path) if path is not None else None
        self.untitled_name = ""
        self.network_replaced.emit()
        self.decisions_changed.emit()
        self.mark_saved()
        self.path_changed.emit()
        self._refresh_beliefs(force=True)

    def _on_event(self, event: Event) -> None:
        if event.phase != "after":
            return
        if event.kind == "rename_variable" and self.decisions is not None:   # undo renames back the same way
            self.decisions = self.decisions.renamed(event.data["old"], event.data["new"])
        self.network_changed.emit(event)

    @property
    def notes(self) -> list:
        """The text notes on the drawing (:class:`bnstudio.io.project.notes.Note`), kept in the project."""
        return list(getattr(self.project, "notes", None) or [])

    def set_notes(self, notes: list) -> None:
        """Replace the notes (undo commands call this; edits go through :meth:`execute`), creating the
        project that keeps them if there is none."""
        if self.project is None:
            from bnstudio.io.project import project_from_network

            self.project = project_from_network(self.network)
        self.project.notes = list(notes)
        self.notes_changed.emit()
        self.session_changed.emit()

    def set_decision_part(self, part: DecisionPart | None) -> None:
        """Replace the decision part (undo commands call this; edits go through :meth:`execute`)."""
        self.decisions = part
        self.decisions_changed.emit()
        self.session_changed.emit()

    # ------------------------------------------------------------------ unsaved work
    @property
    def modified(self) -> bool:
        return bool(self.unsaved_work())

    def unsaved_work(self) -> list[str]:
        """What would be lost if the document were dropped now, one phrase per part (empty: nothing)."""
        return list(self.unsaved_parts().values())

    def unsaved_parts(self) -> dict[str, str]:
        """Part name -> description, for every part that differs from its saved state ("network" first)."""
        lost = {"network": "network edits"} if self._network_edited() else {}
        return lost | self.session.changed()

    def _network_edited(self) -> bool:
        """Whether the undo stack moved away from its clean state by a network edit (a finding set through
        :meth:`set_finding` is on the stack too, for undo, but it is the evidence part, not a network edit)."""
        stack = self.undo_stack
        if stack.isClean():
            return False
        clean, here = stack.cleanIndex(), stack.index()
        if clean < 0:
            return True
        return any(not isinstance(stack.command(i), SetFinding) for i in range(min(clean, here), max(clean, here)))

    def add_session_part(self, name: str, part: SessionPart) -> None:
        """Register a part of the session (its current state is the saved one); the panel that owns it calls
        :meth:`note_session_change` after changing it."""
        self.session.add(name, part)

    def mark_unsaved(self) -> None:
        """Nothing of the session is saved anywhere (a restored recovery copy): every part with content counts
        as unsaved work."""
        self.session.mark_unsaved()
        self.session_changed.emit()

    def session_key(self) -> tuple:
        """Changes whenever the network or any part of the session changes (for the autosave)."""
        return (self._edits, self.session.key())

    def note_session_change(self) -> None:
        """A panel changed a part of the session (a run, a query, the data...)."""
        self.session_changed.emit()

    def mark_saved(self, parts: list[str] | None = None) -> None:
        """The parts as they are now are saved, or were not made by the user (e.g. the data set a bundled
        example opens with). By default every part and the network (the undo stack's clean state)."""
        if parts is None:
            self.undo_stack.setClean()
        self.session.mark_saved(parts)
        self.session_changed.emit()

    @property
    def title(self) -> str:
        if self.path is not None:
            return self.path.name
        return self.untitled_name or f"{self.network.name} (unsaved)"

    # ------------------------------------------------------------------ edits
    def execute(self, command: NetworkCommand) -> bool:
        """Apply ``command`` and push it; a refused edit shows its message (kept in :attr:`refusal` for a panel
        to say inline) and pushes nothing."""
        try:
            command.apply()
        except BNStudioError as exc:
            self.refusal = str(exc)
            self.message.emit("error", self.refusal)
            return False
        self.refusal = ""
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
        """Set (None clears) evidence on ``name``; impossible evidence is shown as a message, not applied (on a
        large network a background job finds it out and takes it back)."""
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

    @property
    def interventions(self) -> dict[str, str]:
        """The do(X = x) findings, {variable: state}, kept apart from the observations."""
        return self.beliefs.interventions

    def finding(self, name: str) -> Finding | None:
        """``name``'s finding: (OBSERVE, state or likelihoods), (DO, state) or None."""
        if name in self.interventions:
            return DO, self.interventions[name]
        return (OBSERVE, self.evidence[name]) if name in self.evidence else None

    def set_finding(self, name: str, value: Any, kind: str = OBSERVE) -> bool:
        """Observe (``kind`` OBSERVE) or set by intervention (DO) ``name`` = ``value`` (None clears ``name``'s
        finding of that kind) as one undo step; refused findings push nothing (their message is shown)."""
        old = self.finding(name)
        new = None if value is None else (kind, value)
        if value is None and (old is None or old[0] != kind):
            return False
        if new == old:
            return True
        return self.execute(SetFinding(self, name, old, new))

    def apply_finding(self, name: str, finding: Finding | None) -> None:
        """Put ``name``'s finding to ``finding`` now (undo commands call this); raises BNStudioError when it
        cannot hold, changing nothing."""
        if finding is None:
            self.beliefs.set_evidence(name, None)
            self.beliefs.set_intervention(name, None)
        elif finding[0] == DO:
            self.beliefs.set_intervention(name, finding[1])
        else:
            self.beliefs.set_evidence(name, finding[1])
        self.evidence_changed.emit()
        self._refresh_beliefs(force=True)

    def clear_evidence(self) -> None:
        """Drop every finding (observations and interventions)."""
        if self.evidence or self.interventions:
            self.beliefs.clear()
            self.evidence_changed.emit()
            self._refresh_beliefs(force=True)

    def posteriors(self) -> dict[str, np.ndarray] | None:
        return self.beliefs.posteriors()

    @property
    def edit_count(self) -> int:
        """How many times the undo stack moved (an edit, undo or redo) since the document was made."""
        return self._edits

    def _after_command(self, _index: int = 0) -> None:
        self._edits += 1
        self._refresh_beliefs()

    def _refresh_beliefs(self, force: bool = False) -> None:
        versions = (self.network.structure_version, self.network.parameter_version)
        if not force and versions == self._versions:
            return
        self._versions = versions
        self.unnormalised = {v: rows for v in self.network.variables if (rows := unnormalised_rows(self.network, v))}
        self.rows_checked.emit(self.unnormalised)
        if self.beliefs.in_background:
            self.updates.request()
            self.beliefs_changed.emit()   # what is known now (possibly nothing yet)
            return
        had_error = self.beliefs.error
        self.beliefs.posteriors()
        if self.beliefs.error and self.beliefs.error != had_error:
            self.message.emit("warning", f"Beliefs cannot be computed: {self.beliefs.error}")
        elif self.beliefs.estimated and self.beliefs.estimated != self._estimate_told:
            self.message.emit("info", f"Beliefs {self.beliefs.estimated}")
        self._estimate_told = self.beliefs.estimated
        self.beliefs_changed.emit()

    # ------------------------------------------------------------------ files
    def save(self, path: str | Path | None = None, view: dict[str, Any] | None = None) -> None:
        """Write the network (atomically) to ``path`` or the current path; marks the network clean, and the
        whole session saved when ``path`` is a project (a network file keeps none of the other parts)."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("no file name to save to")
        diagram = None if self.decisions is None else self.decisions.diagram(self.network)
        if diagram is not None and not file_io.can_hold_diagram(target):
            raise ValidationError(f"a {target.suffix} file cannot keep decisions and utilities: save the influence "
                                  f"diagram as a project (.bnsproj), .net, .xdsl, .xmlbif or .json")
        if diagram is None and file_io.is_diagram(target):
            raise ValidationError(f"a {target.suffix} file holds an influence diagram and this network has no "
                                  "decisions: save it as a project or a network file")
        written = file_io.write_file(self.network, target, self.project, self.evidence, view, diagram)
        if written is not None:  # saving as BIF keeps the project's other sections for a later project save
            self.project = written
        self.path = target
        self.undo_stack.setClean()
        if file_io.is_project(target):
            self.mark_saved(self.session.in_project())
        elif diagram is not None:
            self.mark_saved(["decisions"])
        self.path_changed.emit()
