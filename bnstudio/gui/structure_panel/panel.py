"""The structure panel: learn a DAG from data with expert constraints, see it as a diff on the canvas, then
accept it (one undoable command) or discard it.

Data arrive through :meth:`StructurePanel.set_data` (the data panel calls it). The learner runs as a Qt-free
job on the generic worker with a progress bar, the current score and Cancel; a cancelled run changes nothing.
The proposal is drawn over the canvas (:meth:`StructurePanel.set_scene`) until it is accepted or discarded.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np
from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from bnstudio.app.session import SessionPart
from bnstudio.app.structure.command import ApplyLearnedStructure
from bnstudio.display.layout import arcs_through_nodes
from bnstudio.gui.canvas import style as st
from bnstudio.gui.canvas.arrange import auto_layout_command, sizes_for
from bnstudio.gui.canvas.scene import NetworkScene
from bnstudio.gui.document import Document
from bnstudio.gui.job_slot import JobSlot
from bnstudio.gui.message_bar import MessageBar
from bnstudio.gui.structure_panel.canvas_tool import ArcConstraintTool
from bnstudio.gui.structure_panel.constraints import KINDS, ConstraintsEditor
from bnstudio.gui.structure_panel.options import AlgorithmOptions
from bnstudio.gui.structure_panel.overlay import ADDED, COLOURS, REMOVED, REVERSED, DiffOverlay, structure_diff
from bnstudio.gui.workers import JobWorker
from bnstudio.jobs import IterationInfo
from bnstudio.learn.structure import StructureResult, learn_structure

THROTTLE_MS = 100  # progress text at most 10 times a second


def learning_job(codes: np.ndarray, names: Sequence[str], states: Sequence[Sequence[str]],
                 options: dict[str, Any]) -> Callable[[Any], StructureResult]:
    """A job for the worker: ``learn_structure`` on a private copy of the data and options."""
    codes, names = np.array(codes, copy=True), list(names)
    states, options = [tuple(s) for s in states], dict(options)
    algorithm = options.pop("algorithm")

    def job(reporter: Any) -> StructureResult:
        return learn_structure(algorithm, codes, names, states, reporter=reporter, **options)
    return job


def legend_html() -> str:
    names = {ADDED: "added", REMOVED: "removed (dashed)", REVERSED: "reversed"}
    return " &nbsp; ".join(f"<span style='color:{COLOURS[k].name()}'>━━</span> {names[k]}" for k in names)


class StructurePanel(QWidget):
    """See the module docstring; ``result_ready(StructureResult)``, ``accepted()``, ``discarded()``."""

    result_ready = Signal(object)
    learning_ended = Signal(str)    # "finished" | "failed" | "cancelled"
    accepted = Signal()
    discarded = Signal()

    def __init__(self, document: Document, scene=None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.data: tuple[np.ndarray, list[str], list[tuple[str, ...]]] | None = None
        self.result: StructureResult | None = None
        self.jobs = JobSlot(self)
        self.overlay: DiffOverlay | None = None
        self.tool: ArcConstraintTool | None = None
        self._last_info: IterationInfo | None = None
        self.messages = MessageBar()
        self.data_label = QLabel()
        self.options = AlgorithmOptions()
        self.constraints = ConstraintsEditor()
        self.pick_button = QToolButton()
        self.pick_kind = QComboBox()
        self.run_button = QPushButton("Learn structure")
        self.progress = QProgressBar()
        self.status = QLabel()
        self.result_label = QLabel()
        self.accept_button = QPushButton("Accept")
        self.discard_button = QPushButton("Discard")
        self.result_box = QGroupBox("Proposed structure")
        self.throttle = QTimer(self)
        self.follow_timer = QTimer(self)
        self._compose()
        self._connect()
        if scene is not None:
            self.set_scene(scene)
        self._refresh_variables()
        self._show_result_state()

    # ------------------------------------------------------------------ composition
    def _compose(self) -> None:
        self.data_label.setWordWrap(True)
        self.pick_button.setText("Pick arcs on the canvas")
        self.pick_button.setCheckable(True)
        self.pick_button.setEnabled(False)
        self.pick_button.setToolTip("While on, drag from a parent to a child on the canvas to add a constraint")
        self.pick_kind.addItems(list(KINDS))
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.status.setWordWrap(True)
        self.result_label.setWordWrap(True)
        self.accept_button.setToolTip("Replace the network's arcs and tables by the learned ones (undoable)")
        self.throttle.setSingleShot(True)
        self.throttle.setInterval(THROTTLE_MS)
        self.follow_timer.setSingleShot(True)
        self.follow_timer.setInterval(0)
        algorithm = QGroupBox("Algorithm")
        QVBoxLayout(algorithm).addWidget(self.options)
        constraints = QGroupBox("Constraints")
        cons = QVBoxLayout(constraints)
        cons.addWidget(self.constraints)
        pick = QHBoxLayout()
        pick.addWidget(self.pick_button)
        pick.addWidget(QLabel("adds"))
        pick.addWidget(self.pick_kind)
        pick.addStretch(1)
        cons.addLayout(pick)
        run = QHBoxLayout()
        run.addWidget(self.run_button)
        run.addWidget(self.progress, 1)
        res = QVBoxLayout(self.result_box)
        res.addWidget(self.result_label)
        legend = QLabel(legend_html())
        res.addWidget(legend)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.discard_button)
        buttons.addWidget(self.accept_button)
        res.addLayout(buttons)
        content = QWidget()
        column = QVBoxLayout(content)
        column.setContentsMargins(0, 0, 0, 0)
        for widget in (self.data_label, algorithm, constraints):
            column.addWidget(widget)
        column.addStretch(1)
        scroll = QScrollArea()  # docked in a short window, the options scroll instead of squeezing ...
        scroll.setWidget(content)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setMinimumWidth(content.minimumSizeHint().width() + scroll.verticalScrollBar().sizeHint().width())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.messages)
        layout.addWidget(scroll, 1)
        layout.addLayout(run)                # ... while Learn, the status and Accept / Discard stay in view
        layout.addWidget(self.status)
        layout.addWidget(self.result_box)

    def _connect(self) -> None:
        self.run_button.clicked.connect(self._on_run_button)
        self.accept_button.clicked.connect(self.accept)
        self.discard_button.clicked.connect(self.discard)
        self.throttle.timeout.connect(self._show_progress)
        self.follow_timer.timeout.connect(self._follow_network)
        self.document.network_replaced.connect(self._on_network_replaced)
        self.document.network_changed.connect(self._on_network_changed)
        self.document.add_session_part("structure", SessionPart(
            self._proposal_summary, lambda: "a learned structure not yet accepted (files do not keep it)",
            in_project=False))

    def _proposal_summary(self) -> tuple | None:
        """The proposal as unsaved work (None: nothing to lose)."""
        result = self.result
        return None if result is None else (result.algorithm, tuple(result.arcs), result.seconds)

    # ------------------------------------------------------------------ inputs
    def set_data(self, codes: np.ndarray, names: Sequence[str], states: Sequence[Sequence[str]]) -> None:
        """The data to learn from: integer codes (rows, len(names)), -1 = missing, one state list per column.
        Variables without a single observed value are left out (the data say nothing about their family, which
        accepting a proposal keeps as it is)."""
        codes = np.asarray(getattr(codes, "codes", codes))
        observed = np.asarray((codes >= 0).any(axis=0)) if codes.shape[0] else np.ones(len(names), bool)
        left_out = [str(n) for n, seen in zip(names, observed, strict=True) if not seen]
        codes = codes[:, observed]
        kept = [str(n) for n, seen in zip(names, observed, strict=True) if seen]
        self.data = (codes, kept, [tuple(s) for s, seen in zip(states, observed, strict=True) if seen])
        missing = int((codes < 0).sum()) if codes.size else 0
        text = f"Data: {codes.shape[0]} rows × {len(kept)} variables" + (f", {missing} missing cells" if missing
                                                                          else "")
        if left_out:
            text += (f". Left out, no data: {', '.join(left_out[:5])}"
                     + (f" and {len(left_out) - 5} more" if len(left_out) > 5 else ""))
        self.data_label.setText(text)
        self._refresh_variables()

    def set_selection(self, selection: Any) -> None:
        """Learn from a data panel selection (its training rows, ``variables`` and ``states``); None clears."""
        if selection is None:
            self.data = None
            self._refresh_variables()
            return
        self.set_data(selection.train, selection.variables, selection.states)

    def set_scene(self, scene: NetworkScene) -> None:
        """Draw proposals on ``scene`` (a NetworkScene) and let the canvas pick arc constraints."""
        if self.overlay is not None:
            self.overlay.clear()
        if self.tool is not None:
            self.pick_button.toggled.disconnect(self.tool.set_active)
            self.tool.detach()
            self.tool.deleteLater()
        self.overlay = DiffOverlay(scene)
        self.tool = ArcConstraintTool(scene, self)
        self.tool.arc_picked.connect(self.add_arc_constraint)
        self.pick_button.toggled.connect(self.tool.set_active)
        self.pick_button.setEnabled(True)
        self._show_overlay()

    def add_arc_constraint(self, parent: str, child: str, kind: str | None = None) -> bool:
        """Add ``parent -> child`` as a required or forbidden arc (default: the kind chosen beside the canvas
        pick button). The main window may connect a canvas drag to this."""
        kind = kind or self.pick_kind.currentText()
        added = self.constraints.arcs.add_arc(parent, child, kind)
        if added:
            self.messages.show_message("info", f"{kind.capitalize()} arc {parent} -> {child}")
        return added

    def variables(self) -> list[str]:
        return list(self.data[1]) if self.data is not None else list(self.document.network.variables)

    def _refresh_variables(self) -> None:
        names = self.variables()
        self.options.set_variables(names)
        self.constraints.set_variables(names)
        if self.data is None:
            self.data_label.setText("No data yet: load a data set in the Data panel.")
        self.run_button.setEnabled(self.data is not None or self.worker is not None)

    # ------------------------------------------------------------------ learning job
    @property
    def worker(self) -> JobWorker | None:
        """The running learning job, or None."""
        return self.jobs.worker

    def run(self) -> JobWorker | None:
        """Start learning with the current options and constraints; returns the worker."""
        if self.jobs.running or self.data is None:
            return None
        self.discard(quiet=True)
        options = {**self.options.options(), **self.constraints.constraints()}
        self.run_button.setText("Cancel")
        self.progress.setRange(0, 0)
        self.progress.show()
        self.status.setText(f"Learning with {options['algorithm']}…")
        return self.jobs.start(learning_job(*self.data, options), started=self._on_started,
                               progress=self._on_progress, finished=self._on_finished, failed=self._on_failed,
                               cancelled=self._on_cancelled)

    def cancel(self) -> None:
        self.jobs.cancel()

    def shutdown(self, msecs: int = 30000) -> None:
        """Cancel a running job and wait for its thread (call before the panel is destroyed)."""
        self.jobs.shutdown(msecs)

    def closeEvent(self, event) -> None:  # Qt override
        self.shutdown()
        super().closeEvent(event)

    def _on_run_button(self) -> None:
        if self.worker is not None:
            self.cancel()
        else:
            self.run()

    def _on_started(self, _label: str, total: int) -> None:
        self.progress.setRange(0, max(total, 0))

    def _on_progress(self, info: IterationInfo) -> None:
        self._last_info = info
        if not self.throttle.isActive():
            self.throttle.start()

    def _show_progress(self) -> None:
        info = self._last_info
        if info is None:
            return
        if self.progress.maximum() > 0:
            self.progress.setValue(min(info.iteration, self.progress.maximum()))
        score = info.objectives.get("score")
        text = f"iteration {info.iteration}" + (f" · score {score:.2f}" if score is not None else "")
        self.status.setText(text + (f" · {info.message}" if info.message else "") + f" · {info.elapsed:.1f} s")

    def _end_job(self, status: str) -> None:
        self.throttle.stop()
        self._show_progress()
        self._last_info = None
        self.run_button.setText("Learn structure")
        self.run_button.setEnabled(self.data is not None)
        self.progress.hide()
        self.learning_ended.emit(status)

    def _on_finished(self, result: StructureResult) -> None:
        self._end_job("finished")
        self.result = result
        self.status.setText(f"{result.algorithm}: {len(result.arcs)} arcs, score ({result.score_name}) "
                            f"{result.score:.2f}, {result.seconds:.2f} s")
        self._show_overlay()
        self._show_result_state()
        self.document.note_session_change()
        self.result_ready.emit(result)

    def _on_failed(self, exc: Exception) -> None:
        self._end_job("failed")
        self.status.setText("")
        self.messages.show_message("error", f"Structure learning failed: {exc}")

    def _on_cancelled(self) -> None:
        self._end_job("cancelled")
        self.status.setText("Cancelled; nothing was changed.")

    # ------------------------------------------------------------------ the proposal
    def diff(self) -> dict[str, list[tuple[str, str]]]:
        """The proposal against the network as it is now (empty lists without a proposal)."""
        if self.result is None:
            return {ADDED: [], REMOVED: [], REVERSED: []}
        return structure_diff(self.document.network.arcs(), self.result.arcs)

    def _show_overlay(self) -> None:
        if self.overlay is None:
            return
        if self.result is None:
            self.overlay.clear()
        else:
            self.overlay.show(self.document.network.arcs(), self.result.arcs)

    def _show_result_state(self) -> None:
        self.result_box.setVisible(self.result is not None)
        if self.result is None:
            return
        d = self.diff()
        net = self.document.network
        new = [v for v in self.result.network.variables if v not in net]
        text = (f"{len(self.result.arcs)} arcs learned: {len(d[ADDED])} added, {len(d[REMOVED])} removed, "
                f"{len(d[REVERSED])} reversed against the network.")
        if new:
            text += f" Accepting adds the variables {', '.join(new)}."
        self.result_label.setText(text)

    def accept(self) -> bool:
        """Apply the proposal as one undoable command; the overlay goes away."""
        if self.result is None:
            return False
        result, self.result = self.result, None
        self._show_overlay()
        doc, text = self.document, f"Apply learned structure ({result.algorithm})"
        with doc.grouped(text):   # one undo step: the structure, and the layout when arcs would hide behind nodes
            applied = doc.execute(ApplyLearnedStructure(doc, result.network, text))
            if applied and self._arcs_run_through_nodes():
                doc.execute(auto_layout_command(doc, self._node_style()))
        if not applied:
            self.result = result  # refused (the document showed why): keep the proposal
            self._show_overlay()
            return False
        self._show_result_state()
        self.document.note_session_change()
        self.accepted.emit()
        return True

    def _node_style(self) -> str:
        return self.overlay.scene.node_style if self.overlay is not None else st.BARS

    def _arcs_run_through_nodes(self) -> bool:
        """Whether a straight arc of the network passes through a node other than its ends (a TAN's arcs
        between the features, drawn on the old naive-Bayes layout, did)."""
        net = self.document.network
        if any(v not in net.positions for v in net.variables):
            return True
        return arcs_through_nodes(net.arcs(), dict(net.positions), sizes_for(net, self._node_style())) > 0

    def discard(self, quiet: bool = False) -> None:
        """Drop the proposal; the network is untouched."""
        had = self.result is not None
        self.result = None
        self._show_overlay()
        self._show_result_state()
        if had:
            self.document.note_session_change()
        if had and not quiet:
            self.discarded.emit()

    def forget_document(self) -> None:
        """The open network is being replaced: no message or learning status about it stays."""
        self.messages.hide()
        self.status.setText("")

    def _on_network_replaced(self) -> None:
        self.cancel()
        if self.result is not None:
            self.messages.show_message("info", "The proposed structure was discarded: another network is open.")
        self.discard(quiet=True)
        self._refresh_variables()

    def _on_network_changed(self, event) -> None:
        if self.data is None and event.kind in ("add_variable", "remove_variable", "rename_variable"):
            self._refresh_variables()  # without data, constraints name the network's variables
        if event.structural and self.result is not None:
            self.follow_timer.start()  # once after a many-event edit

    def _follow_network(self) -> None:
        if self.result is not None:
            self._show_overlay()
            self._show_result_state()
