"""The query panel's reasoning tabs: what to observe next (value of information) and the explanations (MPE,
MAP), computed through the document's engine with the query's findings when their tab is shown.

The findings are the panel's evidence (the canvas's or the form's) and the canvas's interventions do(X = x):
under an intervention every query goes to the mutilated network's engine (``engine.intervened``,
docs/inference.md §8). A network answered in the background (more than
:data:`bnstudio.gui.beliefs.BACKGROUND_ABOVE` variables) is not ranked or explained live: the tab says so and
names the command that answers it.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import QObject

from bnstudio.errors import BNStudioError
from bnstudio.gui.commands.findings import OBSERVE
from bnstudio.gui.query_panel.compute import describe, intervened_counts
from bnstudio.gui.query_panel.controls import FORM
from bnstudio.gui.query_panel.explanations_view import ExplanationsView
from bnstudio.gui.query_panel.voi_view import VoiView
from bnstudio.inference.intervention import check_findings
from bnstudio.inference.intervention import describe as describe_do
from bnstudio.inference.voi import value_of_information
from bnstudio.uncertainty import NoDirichletCounts, error_bars


class ReasoningTabs(QObject):
    """Owns the two views and fills the one on show (see the module docstring)."""

    def __init__(self, panel: Any) -> None:
        super().__init__(panel)
        self.panel = panel
        self.voi = VoiView()
        self.explanations = ExplanationsView()
        self._keys: dict[str, tuple | None] = {"voi": None, "explanations": None}
        self._map_default: list[str] = []
        self.voi.observe_requested.connect(self.observe)
        self.voi.relevance.toggled.connect(lambda _on: self.request_relevance())
        self.explanations.top_changed.connect(lambda _k: self.update(force=True))
        self.explanations.map_variables_changed.connect(lambda: self.update(force=True))

    # ------------------------------------------------------------------ what is asked
    @property
    def document(self) -> Any:
        return self.panel.document

    def target_variable(self) -> str | None:
        """The first target variable of the query (None without a target)."""
        return next(iter(self.panel.target()), None)

    def findings(self) -> tuple[dict[str, Any], dict[str, str]]:
        """(evidence, interventions) of the query."""
        return self.panel.current_evidence(), self.document.interventions

    def engine(self, evidence: dict[str, Any], do: dict[str, str]) -> Any:
        """The document's engine, or its mutilated network's under ``do`` (raises for a clash)."""
        engine = self.document.beliefs.engine
        if not do:
            return engine
        check_findings(do, evidence)
        return engine.intervened(do)

    def _key(self, *extra: Any) -> tuple:
        net = self.document.network
        evidence, do = self.findings()
        return (id(net), net.structure_version, net.parameter_version, repr(sorted(evidence.items())),
                tuple(sorted(do.items())), self.panel.target().__repr__(), *extra)

    def _too_large(self) -> str:
        net = self.document.network
        if not self.document.beliefs.in_background:
            return ""
        return (f"'{net.name}' has {len(net)} variables: this is not computed live here; use the command line "
                "(bnstudio voi / bnstudio query --mpe).")

    # ------------------------------------------------------------------ filling the tab on show
    def update(self, force: bool = False) -> None:
        shown = self.panel.tabs.currentWidget()
        if shown is self.voi:
            self.update_voi(force)
        elif shown is self.explanations:
            self.update_explanations(force)

    def update_voi(self, force: bool = False) -> None:
        key = self._key()
        if not force and key == self._keys["voi"]:
            return
        self._keys["voi"] = key
        target, net = self.target_variable(), self.document.network
        evidence, do = self.findings()
        message = self._too_large()
        if target is None or message:
            self.voi.show_ranking(None, message or "Pick the target of the query.")
            return
        if target in evidence or target in do:
            self.voi.show_ranking(None, f"The target {target} is already a finding: nothing is left to learn.")
            return
        candidates = [v for v in net.variables if v != target and v not in evidence and v not in do]
        try:
            result = value_of_information(self.engine(evidence, do), target, evidence, candidates)
        except BNStudioError as exc:
            self.voi.show_ranking(None, str(exc))
            return
        note = f"Under {describe_do(do)}." if do else ""
        self.voi.show_ranking(result, note, {v: net.states(v) for v in candidates})

    def observe(self, name: str, state: str) -> None:
        """Enter ``name`` = ``state`` where the query's evidence comes from: the canvas (one undo step) or the
        form."""
        controls = self.panel.controls
        if controls.evidence_source == FORM:
            controls.evidence.set_assignment({**controls.evidence.assignment(), name: state})
        else:
            self.document.set_finding(name, state, OBSERVE)
        self.update(force=True)

    # ------------------------------------------------------------------ explanations
    def request_relevance(self) -> None:
        """Ask the canvas (through the panel's signal) to show the relevance to the target, or nothing."""
        on = self.voi.relevance.isChecked()
        self.panel.relevance_requested.emit((self.target_variable() or "") if on else "")

    def sync_map_choices(self) -> None:
        """The MAP picker lists the network's variables; the target variables are chosen by default (a choice
        the user made is kept while its variables exist)."""
        net, view = self.document.network, self.explanations
        chosen, default = view.map_variables(), list(self.panel.target())
        if not chosen or chosen == self._map_default:
            chosen = default
        self._map_default = default
        view.blockSignals(True)
        view.set_map_choices(net.variables, [v for v in chosen if v in net])
        view.blockSignals(False)
        if self.voi.relevance.isChecked():
            self.request_relevance()    # the target may have changed

    def update_explanations(self, force: bool = False) -> None:
        view = self.explanations
        key = self._key(view.top.value(), tuple(view.map_variables()), self.panel.controls.level_value(),
                        self.panel.controls.ess_value())
        if not force and key == self._keys["explanations"]:
            return
        self._keys["explanations"] = key
        message = self._too_large()
        if message:
            view.show_explanations(None, message)
            view.show_error_bar("")
            view.show_map(None, "")
            return
        evidence, do = self.findings()
        try:
            engine = self.engine(evidence, do)
            found = engine.mpe(evidence, top=view.top.value())
        except BNStudioError as exc:
            view.show_explanations(None, str(exc))
            view.show_error_bar("")
            view.show_map(None, "")
            return
        shown = [replace(e, assignment={k: v for k, v in e.assignment.items() if k not in do}) for e in found]
        given = ", ".join(filter(None, [describe_do(do) if do else "", describe(evidence) if evidence else ""]))
        view.show_explanations(shown, f"given {given}" if given else "given no findings")
        view.show_error_bar(self._error_bar(engine, shown[0].assignment, evidence) if shown else "")
        self._show_map(engine, evidence, do)

    def _error_bar(self, engine: Any, assignment: dict[str, str], evidence: dict[str, Any]) -> str:
        """The delta-method error bar of p(x* | e) (Singh, Theorem 2) in words, or why there is none."""
        if not assignment:
            return ""
        controls = self.panel.controls
        level = controls.level_value()
        do = self.document.interventions
        try:
            alpha = intervened_counts(self.document.network, engine.net, controls.ess_value(), do) if do else None
            bars = error_bars(engine.net, assignment, evidence, level, alpha=alpha, ess=controls.ess_value(),
                              engine=engine)
        except NoDirichletCounts:
            return "No error bar for the best explanation: the tables carry no Dirichlet counts."
        except BNStudioError as exc:
            return f"No error bar for the best explanation: {exc}"
        beta = bars.intervals.beta
        interval = "undefined" if beta is None else f"[{beta[0]:.4g}, {beta[1]:.4g}]"
        return (f"Best explanation: p = {bars.mean:.4g} ± {bars.sd:.4g} (sd, delta method); "
                f"Beta {100 * level:g}% interval {interval}")

    def _show_map(self, engine: Any, evidence: dict[str, Any], do: dict[str, str]) -> None:
        names = [v for v in self.explanations.map_variables() if v not in evidence and v not in do]
        if not names:
            self.explanations.show_map(None, "Choose the MAP variables (unobserved ones).")
            return
        try:
            answer = engine.map(names, evidence)
        except BNStudioError as exc:
            self.explanations.show_map(None, f"MAP: {exc}")
            return
        self.explanations.show_map(answer)

