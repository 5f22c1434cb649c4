"""The query panel: p(q | e) with delta-method error bars (Singh), live with the canvas evidence.

Left: the target (a state or a joint configuration), the evidence (the canvas's, live, or a form), the
credible level and optional expert counts, and the answer in words. Right, in tabs: both densities with the
intervals (and a Monte-Carlo check run as a background job), the CPT rows the variance comes from (a click
emits :attr:`QueryPanel.row_selected`), a one-way sensitivity plot and the saved queries.

Computation is delegated to :mod:`bnstudio.uncertainty` through :mod:`.compute`, on the document's compiled
engine; the panel never edits the network.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QFileDialog, QTabWidget, QVBoxLayout, QWidget

from bnstudio.app.query import compute
from bnstudio.app.session import SessionPart
from bnstudio.core.events import Event
from bnstudio.errors import BNStudioError
from bnstudio.gui.document import Document
from bnstudio.gui.message_bar import COMPUTING, MessageBar
from bnstudio.gui.query_panel import plots
from bnstudio.gui.query_panel import saved_queries as saved
from bnstudio.gui.query_panel.contributions import TOP, ContributionsView
from bnstudio.gui.query_panel.controls import FORM, MonteCarloBar, QueryControls, SavedBar
from bnstudio.gui.query_panel.density_plot import DensityPlot
from bnstudio.gui.query_panel.monte_carlo import MonteCarloRunner
from bnstudio.gui.query_panel.reasoning import ReasoningTabs
from bnstudio.gui.query_panel.sensitivity_plot import SensitivityPlot
from bnstudio.gui.query_panel.summary import SummaryView
from bnstudio.gui.query_panel.tornado_plot import TornadoPlot
from bnstudio.gui.responsive import ContentScrollArea, ResponsiveSplitter, WideRow
from bnstudio.gui.workers import JobWorker
from bnstudio.uncertainty import NoDirichletCounts, dirichlet_counts, row_index, sensitivity, tornado

#: from this width the controls and the plots stand side by side; narrower, the controls go on top
SIDE_BY_SIDE = 820
#: from this width the settings and the answer stand side by side
WIDE_LEFT = 600
RENAMES = ("rename_variable", "rename_state")
#: edits that change which variables or states exist (the forms and saved queries follow them)
VARIABLE_EVENTS = RENAMES + ("add_variable", "remove_variable", "add_state", "remove_state", "reorder_states")
#: a large network is answered this long after it opened, so the window shows "Computing…" first
PAINT_FIRST_MS = 30


class QueryPanel(QWidget):
    """See the module docstring. ``row_selected(variable, {parent: state})`` asks to open a CPT row."""

    row_selected = Signal(str, dict)
    learn_counts_requested = Signal()   # the user asked to learn parameters with counts from the loaded data
    answer_changed = Signal()
    monte_carlo_done = Signal(object)   # the ErrorBars with .mc, or None when it failed or was discarded
    relevance_requested = Signal(str)   # grey what is d-separated from this target on the canvas ("" : stop)

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.answer: compute.QueryAnswer | None = None
        self.ensemble: dict | None = None
        self.saved_rows: list[saved.SavedRow] = []
        self._saved_key: tuple | None = None
        self._query_key: tuple | None = None
        self._answer_key: tuple | None = None
        self._painted = False      # the timer fired: what was on show ("Computing…") has been painted
        self.messages = MessageBar()
        self.controls = QueryControls()
        self.summary = SummaryView()
        self.density = DensityPlot()
        self.mc_bar = MonteCarloBar()
        self.contributions = ContributionsView()
        self.sensitivity = SensitivityPlot()
        self.tornado = TornadoPlot()
        self.saved_bar = SavedBar()
        self.saved_model = saved.SavedQueriesModel(self)
        self.saved_table = saved.make_table(self.saved_model)
        self.tabs = QTabWidget()
        self.reasoning = ReasoningTabs(self)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.mc = MonteCarloRunner(self._mc_query_key, self)
        self._compose()
        self._connect()
        self.on_network_replaced()

    # ------------------------------------------------------------------ composition
    def _compose(self) -> None:
        scroll = ContentScrollArea(self.controls)   # whole where there is room; scrolls in a short dock, while
        # settings above the answer in a narrow column; beside it when stacked over the plots (a laptop's dock)
        left = WideRow(scroll, self.summary, WIDE_LEFT, stretch=(3, 2))
        left.setMinimumWidth(330)
        density_tab = QWidget()
        dens = QVBoxLayout(density_tab)
        dens.addWidget(self.density, 1)
        dens.addWidget(self.mc_bar)
        saved_tab = QWidget()
        sav = QVBoxLayout(saved_tab)
        sav.addWidget(self.saved_bar)
        sav.addWidget(self.saved_table, 1)
        self.tabs.addTab(density_tab, "Densities")
        self.tabs.addTab(self.contributions, "Variance")
        self.tabs.addTab(self.sensitivity, "Sensitivity")
        self.tabs.addTab(self.tornado, "Tornado")
        self.tabs.addTab(self.reasoning.voi, "Observe next")
        self.tabs.addTab(self.reasoning.explanations, "MPE / MAP")
        self.tabs.addTab(saved_tab, "Saved")
        # seven tabs in a laptop's dock: narrow padding so every name shows; elided (never hidden) below that
        self.tabs.setStyleSheet("QTabBar::tab { padding: 4px 5px; }")
        self.tabs.setUsesScrollButtons(False)
        for widget, tip in ((self.contributions, "The CPT rows the variance of the answer comes from"),
                            (saved_tab, "Saved queries"), (self.reasoning.voi, "What to observe next: value of "
                             "information"), (self.reasoning.explanations, "Explanations: most probable (MPE) and MAP")):
            self.tabs.setTabToolTip(self.tabs.indexOf(widget), tip)
        self.tabs.setElideMode(Qt.TextElideMode.ElideRight)
        # stacked (a laptop's dock), the settings and the answer on top take their own height, up to 62 %: every
        # setting shows (seen: a ~130 px scroll area hiding the evidence and the expert counts)
        splitter = ResponsiveSplitter(left, self.tabs, side_by_side=SIDE_BY_SIDE, side_share=0.36,
                                      stacked_share=0.62, fit_first=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.messages)
        layout.addWidget(splitter, 1)

    def _connect(self) -> None:
        doc, c = self.document, self.controls
        doc.beliefs_changed.connect(self.refresh)
        doc.network_changed.connect(self.on_network_changed)
        doc.network_replaced.connect(self.on_network_replaced)
        doc.add_session_part("expert_counts", SessionPart(c.ess_value, self._describe_expert_counts))
        for signal in (c.ess.valueChanged, c.use_ess.toggled):
            signal.connect(doc.note_session_change)
        for signal in (c.target.changed, c.evidence.changed, c.level.valueChanged, c.ess.valueChanged,
                       c.use_ess.toggled, c.source.currentIndexChanged):
            signal.connect(self.schedule_refresh)
        c.source.currentIndexChanged.connect(self._show_evidence_source)
        c.target.changed.connect(self.reasoning.sync_map_choices)
        self.timer.timeout.connect(self._tick)
        self.summary.use_ess_requested.connect(lambda: c.use_ess.setChecked(True))
        self.summary.learn_requested.connect(self.learn_counts_requested)
        self.contributions.row_clicked.connect(self._on_row_clicked)
        self.sensitivity.parameter_changed.connect(self.update_sensitivity)
        self.tabs.currentChanged.connect(lambda _i: self.update_sensitivity())
        self.tabs.currentChanged.connect(lambda _i: self.update_tornado())
        self.tabs.currentChanged.connect(lambda _i: self.reasoning.update())
        self.mc_bar.run.clicked.connect(self._on_mc_button)
        self.mc.running_changed.connect(self._on_mc_running)
        self.mc.done.connect(self._on_mc_done)
        self.mc.message.connect(self.messages.show_message)
        self.mc_bar.export.clicked.connect(self._ask_export_plot)
        self.saved_bar.save.clicked.connect(lambda: self.save_current_query(self.saved_bar.label.text()))
        self.saved_bar.remove.clicked.connect(self._remove_selected)
        self.saved_bar.export.clicked.connect(self._ask_export_csv)

    # ------------------------------------------------------------------ public API
    def set_target(self, target: dict[str, str]) -> None:
        self.controls.target.set_assignment(target)
        self.refresh()

    def set_evidence_mode(self, mode: str, evidence: dict[str, str] | None = None) -> None:
        """Use the canvas evidence (``"canvas"``) or the form (``"form"``, optionally filled with ``evidence``)."""
        self.controls.source.setCurrentIndex(self.controls.source.findData(mode))
        if evidence is not None:
            self.controls.evidence.set_assignment(evidence)
        self.refresh()

    def set_level(self, level: float) -> None:
        self.controls.level.setValue(100.0 * level)
        self.refresh()

    def set_ess(self, ess: float | None) -> None:
        """Expert counts α = ESS·θ for every row (None: use the network's own counts)."""
        if ess is not None:
            self.controls.ess.setValue(ess)
        self.controls.use_ess.setChecked(ess is not None)
        self.refresh()

    def set_ensemble(self, source: Any) -> None:
        """Show the bootstrap spread of a bagged-mp ensemble beside the delta-method intervals.

        ``source`` is the ensemble ({var: (T, *family)}), a fit result with ``.ensemble``, or a training run
        with ``.result``; a source without an ensemble (another method, None) removes it."""
        if source is not None and not isinstance(source, Mapping):
            if hasattr(source, "ensemble"):
                source = source.ensemble
            elif hasattr(source, "result"):
                source = getattr(source.result, "ensemble", None)
            else:
                raise TypeError(f"expected an ensemble, a fit result or a run, got {type(source).__name__}")
        self.ensemble = dict(source) if source is not None else None
        self.refresh()

    def current_evidence(self) -> dict[str, Any]:
        if self.controls.evidence_source == FORM:
            return self.controls.evidence.assignment()
        return dict(self.document.evidence)

    def target(self) -> dict[str, str]:
        return self.controls.target.assignment()

    def _describe_expert_counts(self) -> str:
        ess = self.controls.ess_value()
        return "expert counts for the error bars switched off" if ess is None else \
            f"expert counts for the error bars (ESS {ess:g})"

    # ------------------------------------------------------------------ following the document
    def on_network_replaced(self) -> None:
        net, project = self.document.network, self.document.project
        view = getattr(project, "view", None) or {}
        if "expert_ess" in view:   # a project keeps the expert counts it was saved with
            ess = view["expert_ess"]
            if isinstance(ess, (int, float)) and ess > 0:
                self.controls.ess.setValue(float(ess))
            self.controls.use_ess.setChecked(isinstance(ess, (int, float)) and ess > 0)
        self.cancel_monte_carlo()
        # nothing of the previous network's query survives: the form's evidence goes, the target starts over
        for editor in (self.controls.target, self.controls.evidence):
            editor.blockSignals(True)
            editor.set_network(net)
            editor.set_assignment({})
            editor.blockSignals(False)
        if net.variables:
            self.controls.target.set_assignment({net.variables[0]: net.states(net.variables[0])[0]})
        self._saved_key = None
        self._show_evidence_source()
        self.reasoning.sync_map_choices()
        self.refresh(force=True)

    def forget_document(self) -> None:
        """The open network is being replaced: nothing of it stays on show — its answer, the bootstrap spread
        of its bagged-mp run, a Monte-Carlo check, a message — until the next one is answered."""
        self.cancel_monte_carlo()
        self.ensemble = None
        self.messages.hide()
        self._show_pending()

    def _show_pending(self) -> None:
        """No answer yet for what is asked now: "Computing…" instead of an older number."""
        self.answer, self._answer_key = None, None
        self.summary.show_answer(None, COMPUTING)
        self._show_details(None)

    def on_network_changed(self, event: Event) -> None:
        if event.kind in VARIABLE_EVENTS:
            self._follow(event)
        self.schedule_refresh()

    def _follow(self, event: Event) -> None:
        net = self.document.network
        entries = self._entries()
        dropped = saved.follow_event(entries, event, net) if entries else []
        if dropped:
            self.messages.show_message("warning", f"Saved queries dropped (their variable or state is gone): "
                                                  f"{', '.join(dropped)}")
        for editor in (self.controls.target, self.controls.evidence):
            entry = {"target": editor.assignment(), "evidence": {}}
            if event.kind in RENAMES:
                saved.follow_event([entry], event, net)
            editor.blockSignals(True)
            editor.set_network(net)
            editor.set_assignment({k: v for k, v in entry["target"].items() if k in net})
            editor.blockSignals(False)
        self._saved_key = None
        self.reasoning.sync_map_choices()

    def _tick(self) -> None:
        self._painted = True
        self.refresh()

    def schedule_refresh(self, *_args) -> None:
        self.timer.start(0)

    # ------------------------------------------------------------------ evaluation
    def refresh(self, force: bool = False) -> None:
        """Re-evaluate the current query when the network, the query or the settings changed since the last
        evaluation (always with ``force``), and the saved queries when the network or settings changed."""
        self.timer.stop()
        key = (self._mc_query_key(), id(self.ensemble))
        large = self.document.beliefs.in_background
        if large and self.visibleRegion().isEmpty():
            if key != self._answer_key:
                self._show_pending()    # a large network: answered when the panel is in view, not in passing
            self._answer_key = None
            return
        if large and (force or key != self._answer_key) and not self._painted:
            self._show_pending()        # a large network takes a while: say so, answer once that is painted
            self.timer.start(PAINT_FIRST_MS)
            return
        self._painted = False
        if force or key != self._answer_key:
            self._answer_key = key
            target = self.target()
            if not target:
                self.answer = None
                self.summary.show_answer(None, "Pick the target state(s) of the query.")
                self._show_details(None)
            else:
                self.answer = self.evaluate(target, self.current_evidence(), self.document.interventions)
                self.summary.show_answer(self.answer)
                self._show_details(self.answer)
            self.answer_changed.emit()
        self.refresh_saved()

    def evaluate(self, target: dict[str, str], evidence: dict[str, Any],
                 interventions: dict[str, str] | None = None) -> compute.QueryAnswer:
        """The answer of p(target | do(interventions), evidence) (saved queries: without interventions)."""
        c = self.controls
        return compute.answer_query(self.document.network, self.document.beliefs.engine, target, evidence,
                                    c.level_value(), c.ess_value(), self.ensemble, interventions)

    def query_engine(self) -> Any:
        """The engine the current answer was asked of: the mutilated network's under the canvas's do()."""
        engine, do = self.document.beliefs.engine, self.answer.interventions if self.answer else {}
        return engine.intervened(do) if do else engine

    def _show_details(self, answer: compute.QueryAnswer | None) -> None:
        bars = answer.bars if answer is not None else None
        self.density.show_bars(bars)
        self.mc_bar.run.setEnabled(bars is not None or self.mc.running)
        if answer is None or bars is None:
            reason = answer.error if answer is not None else ""
            self.contributions.clear(reason)
            self.sensitivity.set_rows([], {})
            self.sensitivity.show_curve(None, reason)
            self.update_tornado()
            self.reasoning.update()
            return
        top = bars.delta.top_contributions(TOP)
        self.contributions.show_contributions(top, bars.variance)
        net = self.query_engine().net
        key = (tuple(sorted(answer.target.items())), repr(sorted(answer.evidence.items())))
        self.sensitivity.set_rows(top, {c.variable: net.states(c.variable) for c in top}, key == self._query_key)
        self._query_key = key
        self.update_sensitivity()
        self.update_tornado()
        self.reasoning.update()

    def _sensitivity_hidden(self) -> bool:
        return self.tabs.currentWidget() is not self.sensitivity

    def update_sensitivity(self) -> None:
        if self._sensitivity_hidden():
            return  # computed when its tab is shown (a batched propagation per change otherwise)
        bars = self.answer.bars if self.answer is not None else None
        row = self.sensitivity.current_row()
        if bars is None or row is None:
            self.sensitivity.show_curve(None, "No CPT row adds variance to this query." if bars else "")
            return
        engine = self.query_engine()
        net = engine.net
        try:
            curve = sensitivity(net, bars, row[0], row_index(net, *row), self.sensitivity.current_state(),
                                engine=engine)
        except BNStudioError as exc:
            self.sensitivity.show_curve(None, str(exc))
            return
        self.sensitivity.show_curve(curve)

    def update_tornado(self) -> None:
        """The tornado of the current query (when its tab is shown): credible ranges from the counts the error
        bars use, θ(1 ± 10 %) without counts."""
        if self.tabs.currentWidget() is not self.tornado:
            return
        answer = self.answer
        if answer is None or answer.mean is None:
            self.tornado.show_tornado(None, answer.error if answer is not None else "")
            return
        engine = self.query_engine()
        net = engine.net
        try:
            alpha = dirichlet_counts(net, self.controls.ess_value())
        except NoDirichletCounts:
            alpha = None
        try:
            result = tornado(net, answer.target, answer.evidence, top=12, level=answer.level, alpha=alpha,
                             engine=engine)
        except BNStudioError as exc:
            self.tornado.show_tornado(None, str(exc))
            return
        self.tornado.show_tornado(result)

    def refresh_saved(self) -> None:
        net, c = self.document.network, self.controls
        key = (id(net), net.structure_version, net.parameter_version, c.level_value(), c.ess_value(),
               id(self.ensemble), len(self._entries()))
        if key == self._saved_key:
            return
        self._saved_key = key
        self.saved_rows = saved.evaluate_entries(self._entries(), net, self.evaluate)
        self.saved_model.set_rows(self.saved_rows)

    def _on_row_clicked(self, variable: str, parents: dict) -> None:
        self.sensitivity.select(variable, parents)
        self.row_selected.emit(variable, parents)

    def _show_evidence_source(self, *_args) -> None:
        form = self.controls.evidence_source == FORM
        self.controls.evidence.setVisible(form)
        self.controls.evidence_note.setText("" if form else "Click states on the canvas to enter evidence; "
                                                            "the answer follows it.")
        self.controls.evidence_note.setVisible(not form)

    # ------------------------------------------------------------------ saved queries
    def _entries(self) -> list[dict[str, Any]]:
        project = self.document.project
        return project.queries if project is not None else []

    def save_current_query(self, label: str = "") -> bool:
        """Add the current target and evidence to ``document.project.queries`` (creating the project)."""
        target = self.target()
        if not target:
            return False
        if self.document.project is None:
            from bnstudio.io.project import project_from_network

            self.document.project = project_from_network(self.document.network)
        evidence = self.current_evidence()
        self.document.project.queries.append({"target": dict(target), "evidence": dict(evidence),
                                              "label": label or compute.describe(target)})
        self.saved_bar.label.clear()
        self.refresh_saved()
        self.document.note_session_change()
        return True

    def remove_saved(self, rows: list[int]) -> None:
        """Remove the project entries behind table rows ``rows``."""
        entries = self._entries()
        for k in sorted({self.saved_rows[r].entry for r in rows if 0 <= r < len(self.saved_rows)}, reverse=True):
            del entries[k]
        self._saved_key = None
        self.refresh_saved()
        self.document.note_session_change()

    def _remove_selected(self) -> None:
        self.remove_saved([i.row() for i in self.saved_table.selectionModel().selectedRows()])

    def export_csv(self, path: str | Path) -> None:
        saved.write_csv(self.saved_rows, path)

    def export_plot(self, which: str, path: str | Path) -> None:
        """Write the ``"density"``, ``"sensitivity"`` or ``"tornado"`` plot as PNG or SVG (by the file's extension)."""
        widget = {"density": self.density.plot, "sensitivity": self.sensitivity.plot,
                  "tornado": self.tornado.plot}[which]
        plots.export_widget(widget, path)

    def _ask_export_plot(self) -> None:
        current = self.tabs.currentWidget()
        which = ("sensitivity" if current is self.sensitivity else "tornado" if current is self.tornado
                 else "density")
        path, _ = QFileDialog.getSaveFileName(self, "Export plot", f"{which}.png",
                                              "PNG image (*.png);;SVG drawing (*.svg)")
        if path:
            self._report(lambda: self.export_plot(which, path), f"Plot written to {path}")

    def _ask_export_csv(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export saved queries", "queries.csv", "CSV (*.csv)")
        if path:
            self._report(lambda: self.export_csv(path), f"Saved queries written to {path}")

    def _report(self, action, done: str) -> None:
        try:
            action()
        except (OSError, ValueError) as exc:
            self.messages.show_message("error", str(exc))
        else:
            self.messages.show_message("info", done)

    # ------------------------------------------------------------------ Monte-Carlo check (background job)
    def _mc_query_key(self) -> tuple:
        net, c = self.document.network, self.controls
        return (id(net), net.structure_version, net.parameter_version, tuple(sorted(self.target().items())),
                repr(sorted(self.current_evidence().items())), c.level_value(), c.ess_value(),
                tuple(sorted(self.document.interventions.items())))

    def run_monte_carlo(self, draws: int | None = None, seed: int | None = None) -> JobWorker | None:
        """Start the check for the current query; returns the worker (None when it cannot run)."""
        if self.mc.running or self.answer is None or self.answer.bars is None:
            return None
        evidence = self.current_evidence()
        if any(not isinstance(v, str) for v in evidence.values()):
            self.messages.show_message("warning", "The Monte-Carlo check takes hard evidence (a state) only.")
            return None
        if draws is not None:  # shown as run
            self.mc_bar.draws.setValue(draws)
        if seed is not None:
            self.mc_bar.seed.setValue(seed)
        draws, seed = self.mc_bar.draws.value(), self.mc_bar.seed.value()
        job = compute.monte_carlo_job(self.query_engine().net.copy(), self.target(), evidence,
                                      self.controls.level_value(), self.controls.ess_value(), draws, seed)
        return self.mc.start(job)

    def cancel_monte_carlo(self) -> None:
        self.mc.cancel()

    def shutdown(self, msecs: int = 30000) -> None:
        """Cancel a running check and wait for its thread (call before the panel is destroyed)."""
        self.mc.shutdown(msecs)

    def came_into_view(self) -> None:
        """The panel is shown (its dock's tab raised): answer what was put off while it was out of view."""
        if self._answer_key is None:
            self.schedule_refresh()

    def closeEvent(self, event) -> None:  # Qt override
        self.shutdown()
        super().closeEvent(event)

    def _on_mc_button(self) -> None:
        if self.mc.running:
            self.mc.cancel()
        else:
            self.run_monte_carlo()

    def _on_mc_running(self, running: bool) -> None:
        self.mc_bar.set_running(running)
        self.mc_bar.run.setEnabled(running or (self.answer is not None and self.answer.bars is not None))

    def _on_mc_done(self, result) -> None:
        if result is not None:
            self.density.show_check(result.mc)
        self.monte_carlo_done.emit(result)
