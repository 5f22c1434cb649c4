"""Beliefs of a large network computed in the background, so the window never freezes (issue: munin's evidence
click took 2.3 s). Two jobs per change, on the generic worker: first p(e) (impossible evidence is taken back
with a message) and the posteriors of the nodes in view, then every other node's. A change while a job runs
makes its result stale (:meth:`Beliefs.accept` drops it) and starts the pair again once it ends.
"""
from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QObject

from bnstudio.app.beliefs import BeliefBatch, Beliefs, describe
from bnstudio.app.document import Document as AppDocument
from bnstudio.errors import BNStudioError, ImpossibleEvidence
from bnstudio.gui.job_slot import JobSlot


class BeliefUpdates(QObject):
    """Runs the background belief jobs of one document (see the module docstring)."""

    def __init__(self, document: AppDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document   # the application model, not its Qt adapter
        self.jobs = JobSlot(self)
        #: the names to compute first (the window sets it to the nodes in view)
        self.visible: Callable[[], list[str]] = lambda: []
        self.pending = False
        self.good_evidence: dict[str, Any] = {}   # the last evidence known to be possible

    @property
    def beliefs(self) -> Beliefs:
        return self.document.beliefs

    @property
    def busy(self) -> bool:
        return self.jobs.running

    def request(self) -> None:
        """The network or the evidence changed: bring the beliefs up to date in the background."""
        if self.jobs.running:
            self.pending = True
            return
        self.pending = False
        known = self.beliefs.known()
        first = [n for n in self.visible() if n in self.beliefs.net and n not in known]
        self.jobs.start(self.beliefs.job(first, check=not self.beliefs.checked()), finished=self._first_done,
                        failed=self._failed)

    def _first_done(self, batch: BeliefBatch) -> None:
        if self._take(batch):
            self.good_evidence = dict(self.beliefs.evidence)
        if self.pending:
            self.request()
            return
        known = self.beliefs.known()
        rest = [n for n in self.beliefs.net.variables if n not in known]
        if rest:
            self.jobs.start(self.beliefs.job(rest, check=False), finished=self._rest_done, failed=self._failed)

    def _rest_done(self, batch: BeliefBatch) -> None:
        self._take(batch)
        if self.pending:
            self.request()

    def _take(self, batch: BeliefBatch) -> bool:
        told = self.beliefs.estimated
        if not self.beliefs.accept(batch):
            self.pending = True     # computed for a network or evidence that changed meanwhile
            return False
        if batch.estimated and batch.estimated != told:
            self.document.message.emit("info", f"Beliefs {batch.estimated}")
        self.document.beliefs_changed.emit()
        return True

    def _failed(self, exc: BaseException) -> None:
        if isinstance(exc, ImpossibleEvidence):   # take the evidence back to what was possible
            wrong = describe(self.beliefs.evidence)
            self.beliefs.replace_evidence(self.good_evidence)
            self.document.message.emit("warning", f"Evidence {wrong} not applied: impossible evidence "
                                                  "(probability zero given the network)")
            self.document.evidence_changed.emit()
            self.request()
            return
        text = str(exc) if isinstance(exc, BNStudioError) else f"{type(exc).__name__}: {exc}"
        self.document.message.emit("warning", f"Beliefs cannot be computed: {text}")
        if self.pending:
            self.request()

    def shutdown(self) -> None:
        self.jobs.shutdown()
