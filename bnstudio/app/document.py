"""The open document: the network (single source of truth), its file, the undo history and the evidence.

Qt-free (docs/architecture.md §7): what happens is told through :class:`Notice`
events; :class:`bnstudio.gui.document.Document` wraps a document and re-emits them as Qt signals. Adapters
(canvas, CPT editor, properties) listen to ``network_changed`` — the core's own events re-emitted — and write
back only through :meth:`Document.execute` with an undo command (:mod:`bnstudio.app.history`). Beliefs are
recomputed once per finished command (``history.index_changed``) and on every evidence change.

**Unsaved work is more than network edits.** The session also holds evidence, the data set and its preparation,
training runs and saved queries (all kept in :attr:`Document.project`) and what panels register with
:meth:`Document.add_session_part` (expert counts, a structure proposal); see :mod:`bnstudio.app.session`.
:meth:`Document.unsaved_work` names every part that changed since the file was opened or saved (plus "network
edits" while the history is not clean). ``modified`` is true when that list is not empty, so New, Open,
Examples, Close and Quit ask before any of it is dropped, and the recovery copy is written whenever it changes.

**An influence diagram** is the network (its chance and decision variables) plus :attr:`Document.decisions`, a
:class:`~bnstudio.app.commands.decisions.DecisionPart` (decisions in the order taken, utility nodes and tables)
or None for a plain network. It is edited through undo commands and is a session part of its own ("decisions"):
a network or project file does not keep it, so its changes stay unsaved work until it is written as an
influence-diagram JSON file.
"""
from __future__ import annotations

import contextlib
import warnings
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol

import numpy as np

from bnstudio.app import file_io
from bnstudio.app.beliefs import Beliefs
from bnstudio.app.commands.base import NetworkCommand
from bnstudio.app.commands.decisions import DecisionPart
from bnstudio.app.commands.findings import DO, OBSERVE, Finding, SetFinding
from bnstudio.app.history import History
from bnstudio.app.notice import Notice
from bnstudio.app.session import SessionPart, SessionParts, decision_part, project_parts
from bnstudio.core.events import Event
from bnstudio.core.network import Network
from bnstudio.core.validation import unnormalised_rows
from bnstudio.errors import BNStudioError, ValidationError


class BackgroundBeliefs(Protocol):
    """Computes a large network's beliefs off the caller's thread (the Qt adapter's
    :class:`bnstudio.gui.belief_updates.BeliefUpdates`)."""

    good_evidence: dict[str, Any]

    def request(self) -> None: ...

    def shutdown(self) -> None: ...


class Document:
    """A network being edited; see the module docstring."""

    # its state (the Qt adapter declares the same types: bnstudio.app.forwarding)
    network: Network
    history: History
    beliefs: Beliefs
    session: SessionParts
    decisions: DecisionPart | None
    refusal: str          # why the last execute() refused its edit ("" after an applied one)
    #: CPT rows that do not sum to 1, by variable (inference uses them normalised: the window says so)
    unnormalised: dict[str, list[tuple[int, ...]]]
    path: Path | None
    untitled_name: str    # the title while there is no file, e.g. "alarm (example)"
    project: Any
    #: what computes beliefs in the background (:meth:`set_background`; without it, a network above
    #: :data:`bnstudio.app.beliefs.BACKGROUND_ABOVE` variables shows only what is known)
    updates: BackgroundBeliefs | None

    def __init__(self, network: Network | None = None,
                 prepare_network: Callable[[Network], object] | None = None) -> None:
        # the document's events (the Qt adapter re-emits each as the signal of the same name)
        self.network_closing = Notice()     # (): the open network is about to be replaced: forget what was shown
        self.network_replaced = Notice()    # (): a different Network object (new, open)
        self.network_changed = Notice()     # (core Event): after the change
        self.positions_changed = Notice()   # (names): names whose net.positions changed
        self.evidence_changed = Notice()
        self.beliefs_changed = Notice()
        self.rows_checked = Notice()        # ({variable: [row index tuples]}): CPT rows that do not sum to 1
        self.path_changed = Notice()
        self.decisions_changed = Notice()   # (): the decision part was replaced (or became None)
        self.notes_changed = Notice()       # (): the text notes on the drawing changed (project.notes)
        self.session_changed = Notice()     # (): something that makes `modified` / `unsaved_work` change may have
        self.message = Notice()             # (level "info" | "warning" | "error", text)
        self.history = History()
        self.updates = None
        self.path = None
        self.untitled_name = ""
        self.project = None
        self.decisions = None
        self.refusal = ""
        self.network = Network("untitled")
        self.beliefs = Beliefs(self.network)
        #: called with a network about to be shown (the window uses it to place nodes without positions)
        self.prepare_network = prepare_network
        self._versions = (-1, -1)
        self._estimate_told = ""   # the last "beliefs estimated" note shown (each is said once)
        self.unnormalised = {}
        self._edits = 0   # counts every move of the history (a new network restarts nothing: it adds one)
        self.session = SessionParts()
        for name, part in project_parts(self).items():
            self.session.add(name, part)
        self.session.add("decisions", decision_part(self))
        self.history.index_changed.connect(self._after_command)
        self.history.clean_changed.connect(lambda _clean: self.session_changed.emit())
        self.evidence_changed.connect(self.session_changed.emit)
        self.replace_network(network or Network("untitled"))

    def set_background(self, updates: BackgroundBeliefs) -> None:
        """Have ``updates`` compute the beliefs of large networks from now on (starting with the open one)."""
        self.updates = updates
        self._refresh_beliefs(force=True)

    # ------------------------------------------------------------------ network lifetime
    def replace_network(self, net: Network, path: str | Path | None = None, project: Any = None,
                        evidence: dict[str, Any] | None = None, decisions: DecisionPart | None = None) -> None:
        """Start editing ``net`` (a fresh history, clean state); ``decisions`` makes it an influence
        diagram (its decision variables must be variables of ``net``). ``network_closing`` goes first: every
        panel clears what it showed of the old network (:mod:`bnstudio.gui.document_reset`)."""
        self.network_closing.emit()
        self.network.events.unsubscribe(self._on_event)
        self.beliefs.detach()
        self.history.clear()
        if self.prepare_network is not None:
            self.prepare_network(net)
        self.network = net
        self.project = project
        self.decisions = decisions
        self.beliefs = Beliefs(net)
        if self.updates is not None:
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
            from bnstudio.io.project.store import project_from_network

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
        """Whether the history moved away from its clean state by a network edit (a finding set through
        :meth:`set_finding` is in the history too, for undo, but it is the evidence part, not a network edit)."""
        history = self.history
        if history.is_clean():
            return False
        clean, here = history.clean_index(), history.index()
        if clean < 0:
            return True
        return any(not isinstance(history.command(i), SetFinding) for i in range(min(clean, here), max(clean, here)))

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
        example opens with). By default every part and the network (the history's clean state)."""
        if parts is None:
            self.history.set_clean()
        self.session.mark_saved(parts)
        self.session_changed.emit()

    @property
    def title(self) -> str:
        if self.path is not None:
            return self.path.name
        return self.untitled_name or f"{self.network.name} (unsaved)"

    # ------------------------------------------------------------------ edits
    def execute(self, command: NetworkCommand) -> bool:
        """Apply ``command`` and record it; a refused edit shows its message (kept in :attr:`refusal` for a panel
        to say inline) and records nothing."""
        try:
            self.history.execute(command)
        except BNStudioError as exc:
            self.refusal = str(exc)
            self.message.emit("error", self.refusal)
            return False
        self.refusal = ""
        return True

    @contextlib.contextmanager
    def grouped(self, text: str) -> Iterator[None]:
        """Commands executed inside the block form one undo step (a macro). Build each command just before
        executing it, so its snapshot sees the edits made before it in the same block (a block where nothing
        was applied leaves no step)."""
        with self.history.grouped(text):
            yield

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
        """How many times the history moved (an edit, undo or redo) since the document was made."""
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
            if self.updates is not None:
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
    def save(self, path: str | Path | None = None, view: dict[str, Any] | None = None,
             slices: int | None = None) -> None:
        """Write the network (atomically) to ``path`` or the current path; marks the network clean, and the
        whole session saved when ``path`` is a project (a network file keeps none of the other parts). A
        two-slice network saved as ``.xdsl`` is a GeNIe dynamic network of ``slices`` slices
        (:func:`bnstudio.app.file_io.write_file`); when it had to be written plain, ``message`` says why."""
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
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", file_io.PlainXdslWarning)
            written = file_io.write_file(self.network, target, self.project, self.evidence, view, diagram, slices)
        if written is not None:  # saving as BIF keeps the project's other sections for a later project save
            self.project = written
        self.path = target
        self.history.set_clean()
        if file_io.is_project(target):
            self.mark_saved(self.session.in_project())
        elif diagram is not None:
            self.mark_saved(["decisions"])
        self.path_changed.emit()
        for warning in caught:
            if issubclass(warning.category, file_io.PlainXdslWarning):
                self.message.emit("warning", f"{target.name}: {warning.message}")
            else:   # not ours to show: passed on as it came
                warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
