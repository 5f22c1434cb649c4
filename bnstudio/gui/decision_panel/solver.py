"""Keeps the decisions of the open influence diagram solved under the current evidence.

On every change of the evidence, the network or the decision part, :class:`DecisionSolver` builds the diagram
(plain data) and computes :func:`~bnstudio.app.decisions.compute.compute_decisions` — on the GUI thread
when the diagram is small (:data:`~bnstudio.app.decisions.compute.INLINE_CELLS`), else as a Qt-free job on
the generic :class:`~bnstudio.gui.job_slot.JobSlot` (a request made while a job runs is run after it, once).
The result goes out through ``solved`` (None when the document has no decisions).
"""
from __future__ import annotations

import copy
import functools

from PySide6.QtCore import QObject, Signal

from bnstudio.app.decisions.compute import INLINE_CELLS, DecisionResult, compute_decisions, diagram_cells
from bnstudio.defaults import CREDIBLE_LEVEL
from bnstudio.errors import BNStudioError
from bnstudio.gui.document import Document
from bnstudio.gui.job_slot import JobSlot


class DecisionSolver(QObject):
    """See the module docstring; ``latest`` is the last result sent."""

    solved = Signal(object)      # DecisionResult, or None for a document without decisions
    busy = Signal(bool)          # a background job started (True) / ended (False)

    def __init__(self, document: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.ess: float | None = None
        self.level = CREDIBLE_LEVEL
        self.inline_cells = INLINE_CELLS
        self.latest: DecisionResult | None = None
        self.slot = JobSlot(self)
        self._pending = False
        document.decisions_changed.connect(self.request)
        document.evidence_changed.connect(self.request)
        document.network_changed.connect(lambda _event: self.request())
        self.request()

    def set_options(self, ess: float | None, level: float) -> None:
        """Expert effective sample size (None: the stored Dirichlet counts) and the interval's level."""
        self.ess, self.level = ess, level
        self.request()

    def request(self) -> None:
        doc = self.document
        if doc.decisions is None:
            self._send(None)
            return
        try:
            diagram = doc.decisions.diagram(doc.network)
        except BNStudioError as exc:
            self._send(DecisionResult(error=f"The influence diagram is not valid: {exc}"))
            return
        job = functools.partial(compute_decisions, diagram, copy.deepcopy(dict(doc.evidence)), self.ess, self.level)
        if diagram_cells(diagram) <= self.inline_cells:
            self._send(job(None))
        elif self.slot.running:
            self._pending = True
        else:
            self.busy.emit(True)
            self.slot.start(job, finished=self._finished, failed=self._failed, cancelled=self._ended)

    def _finished(self, result: DecisionResult) -> None:
        self._ended()
        if not self._pending:
            self._send(result)
        self._next()

    def _failed(self, exc: BaseException) -> None:
        """Known errors come back as results: this is unexpected, so it goes on to the error dialog."""
        self._ended()
        self._send(DecisionResult(error=f"The decisions could not be computed: {exc}"))
        self._next()
        raise exc

    def _ended(self) -> None:
        self.busy.emit(False)

    def _next(self) -> None:
        if self._pending:
            self._pending = False
            self.request()

    def _send(self, result: DecisionResult | None) -> None:
        self.latest = result
        self.solved.emit(result)

    def shutdown(self) -> None:
        self.slot.shutdown()
