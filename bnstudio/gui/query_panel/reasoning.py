"""The query panel's reasoning tabs: what to observe next (value of information) and the explanations (MPE,
MAP), computed through the document's engine with the query's findings when their tab is shown.

The findings are the panel's evidence (the canvas's or the form's) and the canvas's interventions do(X = x):
under an intervention every query goes to the mutilated network's engine (``engine.intervened``,
docs/inference.md §8). A network answered in the background (more than
:data:`bnstudio.app.beliefs.BACKGROUND_ABOVE` variables) is ranked and explained by a job on the generic
worker (:class:`~bnstudio.gui.job_slot.JobSlot`), on an engine of a copy of the network that only those jobs use
(one at a time); the tab says "Computing…" meanwhile, and a result for findings that changed since is dropped.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from PySide6.QtCore import QObject

from bnstudio.app.commands.findings import OBSERVE
from bnstudio.app.query.compute import describe, intervened_counts
from bnstudio.errors import BNStudioError
from bnstudio.gui.job_slot import JobSlot
from bnstudio.gui.query_panel.controls import FORM
from bnstudio.gui.query_panel.explanations_view import ExplanationsView
from bnstudio.gui.query_panel.voi_view import VoiView
from bnstudio.inference import InferenceEngine
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
        self.jobs = JobSlot(self)           # large networks: one background job at a time
        self._snapshot: tuple[tuple, InferenceEngine] | None = None
        self._pending = False
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

    def _in_background(self) -> bool:
        return bool(self.document.beliefs.in_background)

    def _job_engine(self, do: dict[str, str]) -> Callable[[], Any]:
        """A function (run in the job) giving the jobs' own engine of a copy of the network (made once per
        network version), or its mutilated network's under ``do``."""
        net = self.document.network
        versions = (id(net), net.structure_version, net.parameter_version)
        if self._snapshot is None or self._snapshot[0] != versions:
            self._snapshot = (versions, InferenceEngine(net.copy()))
        engine = self._snapshot[1]
        return lambda: engine.intervened(do) if do else engine

    def _in_job(self, which: str, work: Callable[[], Any], show: Callable[[Any], None],
                fail: Callable[[str], None]) -> None:
        """Run ``work`` on the worker; ``show`` its result (``fail`` its error) if the tab still asks the same."""
        if self.jobs.running:
            self._pending = True     # asked again once the running job ends
            return
        key = self._keys[which]

        def done(result: Any) -> None:
            if self._keys[which] == key:
                show(result)
            self._after_job()

        def failed(exc: BaseException) -> None:
            if self._keys[which] == key:
                fail(str(exc) if isinstance(exc, BNStudioError) else f"{type(exc).__name__}: {exc}")
            self._after_job()
        self.jobs.start(lambda _reporter: work(), finished=done, failed=failed)

    def _after_job(self) -> None:
        if self._pending:
            self._pending = False
            self._keys = {k: None for k in self._keys}
            self.update(force=True)

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
        if target is None:
            self.voi.show_ranking(None, "Pick the target of the query.")
            return
        if target in evidence or target in do:
            self.voi.show_ranking(None, f"The target {target} is already a finding: nothing is left to learn.")
            return
        candidates = [v for v in net.variables if v != target and v not in evidence and v not in do]
        note = f"Under {describe_do(do)}." if do else ""
        states = {v: net.states(v) for v in candidates}

        def show(result: Any) -> None:
            self.voi.show_ranking(result, note, states)

        def fail(message: str) -> None:
            self.voi.show_ranking(None, message)
        if self._in_background():
            try:
                check_findings(do, evidence)
            except BNStudioError as exc:
                fail(str(exc))
                return
            engine = self._job_engine(do)
            self.voi.show_ranking(None, f"Computing in the background ({len(net)} variables)…")
            self._in_job("voi", lambda: value_of_information(engine(), target, evidence, candidates), show, fail)
            return
        try:
            show(value_of_information(self.engine(evidence, do), target, evidence, candidates))
        except BNStudioError as exc:
            fail(str(exc))

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
        controls = self.panel.controls
        key = self._key(view.top.value(), tuple(view.map_variables()), controls.level_value(), controls.ess_value())
        if not force and key == self._keys["explanations"]:
            return
        self._keys["explanations"] = key
        evidence, do = self.findings()
        top, names = view.top.value(), [v for v in view.map_variables() if v not in evidence and v not in do]
        level, ess, original = controls.level_value(), controls.ess_value(), self.document.network

        def work(engine: Any) -> tuple:
            found = engine.mpe(evidence, top=top)
            shown = [replace(e, assignment={k: v for k, v in e.assignment.items() if k not in do}) for e in found]
            bar = _error_bar(original, engine, shown[0].assignment, evidence, do, level, ess) if shown else ""
            return shown, bar, _map(engine, names, evidence)

        if self._in_background():
            try:
                check_findings(do, evidence)
            except BNStudioError as exc:
                self._show_explained(None, str(exc))
                return
            engine = self._job_engine(do)
            view.show_explanations(None, f"Computing in the background ({len(original)} variables)…")
            self._in_job("explanations", lambda: work(engine()), lambda r: self._show_explained(r, ""),
                         lambda message: self._show_explained(None, message))
            return
        try:
            result = work(self.engine(evidence, do))
        except BNStudioError as exc:
            self._show_explained(None, str(exc))
            return
        self._show_explained(result, "")

    def _show_explained(self, result: tuple | None, message: str) -> None:
        view = self.explanations
        if result is None:
            view.show_explanations(None, message)
            view.show_error_bar("")
            view.show_map(None, "")
            return
        shown, bar, (answer, map_message) = result
        evidence, do = self.findings()
        given = ", ".join(filter(None, [describe_do(do) if do else "", describe(evidence) if evidence else ""]))
        view.show_explanations(shown, f"given {given}" if given else "given no findings")
        view.show_error_bar(bar)
        view.show_map(answer, map_message)


def _error_bar(original: Any, engine: Any, assignment: dict[str, str], evidence: dict[str, Any],
               do: dict[str, str], level: float, ess: float | None) -> str:
    """The delta-method error bar of p(x* | e) (Singh, Theorem 2) in words, or why there is none (Qt-free: a
    background job may call it)."""
    if not assignment:
        return ""
    try:
        alpha = intervened_counts(original, engine.net, ess, do) if do else None
        bars = error_bars(engine.net, assignment, evidence, level, alpha=alpha, ess=ess, engine=engine)
    except NoDirichletCounts:
        return "No error bar for the best explanation: the tables carry no Dirichlet counts."
    except BNStudioError as exc:
        return f"No error bar for the best explanation: {exc}"
    beta = bars.intervals.beta
    interval = "undefined" if beta is None else f"[{beta[0]:.4g}, {beta[1]:.4g}]"
    return (f"Best explanation: p = {bars.mean:.4g} ± {bars.sd:.4g} (sd, delta method); "
            f"Beta {100 * level:g}% interval {interval}")


def _map(engine: Any, names: list[str], evidence: dict[str, Any]) -> tuple[Any, str]:
    """(MAP over ``names``, "") or (None, why not)."""
    if not names:
        return None, "Choose the MAP variables (unobserved ones)."
    try:
        return engine.map(names, evidence), ""
    except BNStudioError as exc:
        return None, f"MAP: {exc}"
