"""Evidence and posterior beliefs for the app, Qt-free: one compiled :class:`InferenceEngine` per network
(it recompiles itself after structural edits), posteriors cached per (structure, parameters, evidence).

Evidence follows the network's events: it is dropped when its variable (or its state) disappears and renamed
with it. Evidence that would be impossible is refused before it is applied.

Beside the observations, the **interventions** do(X = x) (docs/inference.md §8): a separate kind of finding,
answered on the mutilated network (``engine.posterior(..., interventions=...)``). A variable is either observed
or set, never both: setting one kind of finding on it clears the other.

A network with more than :data:`BACKGROUND_ABOVE` variables gets its beliefs in the background instead
(:mod:`bnstudio.gui.belief_updates` runs the jobs): :meth:`Beliefs.job` computes, on a snapshot of the network
with an engine of its own, p(e) and the posteriors of the nodes asked for (those in view first, then the
rest), and :meth:`Beliefs.accept` keeps a result only if the network and the evidence are still those it was
computed for. The window never waits for a thousand marginals.

Where exact inference does not fit the memory budget (a 40x40 grid), the beliefs are **estimated** by likelihood
weighting (:data:`ESTIMATE_SAMPLES` samples, seed 0; docs/inference.md §12) and :attr:`Beliefs.estimated` says
so, instead of no beliefs at all.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from bnstudio.core.events import Event
from bnstudio.core.network import Network
from bnstudio.errors import BNStudioError, EvidenceError, ImpossibleEvidence, MemoryBudgetExceeded
from bnstudio.inference.engine import InferenceEngine

EvidenceValue = Any  # a state name or a likelihood list
#: networks with more variables than this get their beliefs in the background, the nodes in view first
BACKGROUND_ABOVE = 300
#: likelihood-weighting samples for beliefs that exact inference cannot hold (a standard error of 0.0035 at most)
ESTIMATE_SAMPLES = 20_000


@dataclass
class BeliefBatch:
    """What a background job computed: for ``key`` (versions and evidence), some posteriors and log p(e)."""

    key: tuple
    posteriors: dict[str, np.ndarray] = field(default_factory=dict)
    estimated: str = ""   # why and how the posteriors were estimated, when they are not exact
    log_evidence: float | None = None


class Beliefs:
    """The evidence entered on ``net`` and the posterior marginals of every variable given it."""

    def __init__(self, net: Network) -> None:
        self.net = net
        self.engine = InferenceEngine(net)
        self._evidence: dict[str, EvidenceValue] = {}
        self._interventions: dict[str, str] = {}
        self._cache_key: tuple | None = None
        self._cache: dict[str, np.ndarray] | None = None
        self._log_evidence: tuple[tuple, float] | None = None      # (key, log p(e)) from a background job
        self._snapshot: tuple[tuple, InferenceEngine] | None = None  # the background jobs' engine
        self.error: str | None = None
        self.estimated = ""   # why and how the current beliefs were estimated, when they are not exact
        net.events.subscribe(self._on_event)

    def detach(self) -> None:
        self.net.events.unsubscribe(self._on_event)

    @property
    def evidence(self) -> dict[str, EvidenceValue]:
        return dict(self._evidence)

    @property
    def interventions(self) -> dict[str, str]:
        """do(X = x) findings, {variable: state}."""
        return dict(self._interventions)

    # ------------------------------------------------------------------ background updates (large networks)
    @property
    def in_background(self) -> bool:
        return len(self.net) > BACKGROUND_ABOVE

    def key(self) -> tuple:
        """What the beliefs depend on: the network (which object, which versions) and the evidence."""
        return (id(self.net), self.net.structure_version, self.net.parameter_version, self._findings_key())

    def _findings_key(self) -> tuple:
        return _freeze(self._evidence), tuple(sorted(self._interventions.items()))

    def known(self) -> dict[str, np.ndarray]:
        """The posteriors computed so far for the network and evidence as they are now."""
        return dict(self._cache or {}) if self._cache_key == self.key() else {}

    def job(self, names: Sequence[str], check: bool) -> Callable[[Any], BeliefBatch]:
        """A Qt-free job: on a snapshot of the network (compiled once per version, in the worker), log p(e)
        when ``check`` (ImpossibleEvidence if it is -inf) and the posteriors of ``names``."""
        key, evidence, names = self.key(), dict(self._evidence), list(names)
        do = dict(self._interventions)
        versions = key[:3]
        if self._snapshot is None or self._snapshot[0] != versions:
            self._snapshot = (versions, InferenceEngine(self.net.copy()))
        engine = self._snapshot[1]

        def run(reporter: Any) -> BeliefBatch:
            batch = BeliefBatch(key)
            if check and evidence:
                try:
                    batch.log_evidence = (engine.intervened(do) if do else engine).log_evidence(evidence)
                except MemoryBudgetExceeded:   # the estimate below finds evidence no sample can explain
                    batch.log_evidence = None
                if batch.log_evidence == -math.inf:
                    raise ImpossibleEvidence(f"the evidence {describe(evidence)} has probability zero")
            if names:
                batch.posteriors, batch.estimated = posteriors_or_estimate(engine, names, evidence, do)
            return batch
        return run

    def accept(self, batch: BeliefBatch) -> bool:
        """Keep ``batch`` if it was computed for the network and evidence as they are now."""
        if batch.key != self.key():
            return False
        if self._cache_key != batch.key or self._cache is None:
            self._cache_key, self._cache, self.error, self.estimated = batch.key, {}, None, ""
        self._cache.update(batch.posteriors)
        self.estimated = batch.estimated or self.estimated
        if batch.log_evidence is not None:
            self._log_evidence = (batch.key, batch.log_evidence)
        return True

    def checked(self) -> bool:
        """Whether p(e) of the current evidence is known (by a background job) to be positive."""
        return not self._evidence or (self._log_evidence is not None and self._log_evidence[0] == self.key())

    # ------------------------------------------------------------------ all at once (small networks)
    def posteriors(self) -> dict[str, np.ndarray] | None:
        """p(X | evidence) for every variable, or None when the evidence became impossible (see ``error``).
        In background mode: what is known so far (never computed here)."""
        if self.in_background:
            return self.known()
        key = (self.net.structure_version, self.net.parameter_version, self._findings_key())
        if key != self._cache_key:
            self._cache_key = key
            try:
                (self._cache, self.estimated), self.error = self._compute(self._evidence, self._interventions), None
            except BNStudioError as exc:
                self._cache, self.error, self.estimated = None, str(exc), ""
        return self._cache

    def _compute(self, evidence: dict[str, EvidenceValue], interventions: dict[str, str]
                 ) -> tuple[dict[str, np.ndarray], str]:
        names = self.net.variables
        if not names:
            return {}, ""
        if not self.engine.fits_budget:  # every marginal by its own elimination would freeze the app: estimate
            return estimate(self.engine, names, evidence, interventions, "its junction tree exceeds the memory "
                                                                          "budget")
        return self.engine.posterior(names, evidence, interventions=interventions), ""

    def probability_of_evidence(self) -> float | None:
        if not self._evidence:
            return 1.0
        if self.in_background:   # known once a background job checked it
            known = self._log_evidence
            return float(np.exp(known[1])) if known is not None and known[0] == self.key() else None
        try:
            engine = self.engine.intervened(self._interventions) if self._interventions else self.engine
            return float(np.exp(engine.log_evidence(self._evidence)))
        except BNStudioError:
            return None

    def set_evidence(self, name: str, value: EvidenceValue | None) -> None:
        """Set (or clear with None) the evidence on ``name``; raises (and changes nothing) when impossible (in
        background mode only malformed evidence raises: a background job checks p(e) > 0)."""
        new = dict(self._evidence)
        if value is None:
            new.pop(name, None)
        else:
            if isinstance(value, str):
                self.net.variable(name).index(value)  # UnknownStateError names the states
            new[name] = value
        do = self.interventions
        do.pop(name, None)     # observed now, no longer set
        self.replace_evidence(new, do)

    def set_intervention(self, name: str, state: str | None) -> None:
        """do(``name`` = ``state``) (None clears it), replacing any observation of ``name``; raises (and changes
        nothing) for an unknown state or findings impossible under the intervention."""
        do = self.interventions
        if state is None:
            do.pop(name, None)
        else:
            self.net.variable(name).index(state)
            do[name] = state
        evidence = self.evidence
        evidence.pop(name, None)   # set now, no longer observed
        self.replace_evidence(evidence, do)

    def replace_evidence(self, evidence: dict[str, EvidenceValue], interventions: dict[str, str] | None = None
                         ) -> None:
        """Replace all evidence (and the interventions, when given) at once, refusing (with
        ImpossibleEvidence/EvidenceError) what cannot hold."""
        evidence = dict(evidence)
        do = dict(self._interventions if interventions is None else interventions)
        for name in do:
            evidence.pop(name, None)   # an intervention wins over an observation of the same variable
        if (evidence or do) and self.in_background:   # a background job checks p(e) > 0
            for name, value in evidence.items():
                check_evidence_value(self.net, name, value)
            for name, state in do.items():
                self.net.variable(name).index(state)
        elif evidence or do:
            result, note = self._compute(evidence, do)  # raises ImpossibleEvidence before anything changes
            self._cache_key = (self.net.structure_version, self.net.parameter_version,
                               (_freeze(evidence), tuple(sorted(do.items()))))
            self._cache, self.error, self.estimated = result, None, note
        self._evidence, self._interventions = evidence, do

    def clear(self) -> None:
        """Drop every finding: observations and interventions."""
        self._evidence, self._interventions = {}, {}

    # ------------------------------------------------------------------ following the network
    def _on_event(self, event: Event) -> None:
        if event.phase != "after":
            return
        self._follow(event, self._evidence)
        self._follow(event, self._interventions)

    def _follow(self, event: Event, ev: dict[str, Any]) -> None:
        """Keep the findings ``ev`` in line with a network edit."""
        data = event.data
        if event.kind == "remove_variable":
            ev.pop(data["name"], None)
        elif event.kind == "rename_variable" and data["old"] in ev:
            ev[data["new"]] = ev.pop(data["old"])
        elif event.kind == "rename_state" and ev.get(data["variable"]) == data["old"]:
            ev[data["variable"]] = data["new"]
        elif event.kind in ("add_state", "remove_state", "reorder_states") and data["variable"] in ev:
            value = ev[data["variable"]]
            if not isinstance(value, str) or value not in self.net.states(data["variable"]):
                del ev[data["variable"]]  # likelihoods no longer line up with the states


def posteriors_or_estimate(engine: InferenceEngine, names: Sequence[str], evidence: dict[str, EvidenceValue],
                           interventions: dict[str, str]) -> tuple[dict[str, np.ndarray], str]:
    """Exact posteriors of ``names``, or (when they do not fit the memory budget) likelihood-weighting
    estimates and why (:func:`estimate`). Without the whole network's junction tree every name is estimated:
    one variable's own elimination can still fit yet take minutes (a 40x40 grid's middle row: 2^26 entries)."""
    if not engine.fits_budget:
        return estimate(engine, names, evidence, interventions, "the network's junction tree exceeds the memory "
                                                                "budget")
    try:
        return engine.posterior(names, evidence, interventions=interventions), ""
    except MemoryBudgetExceeded:
        return estimate(engine, names, evidence, interventions, "exact inference does not fit the memory budget")


def estimate(engine: InferenceEngine, names: Sequence[str], evidence: dict[str, EvidenceValue],
             interventions: dict[str, str], why: str) -> tuple[dict[str, np.ndarray], str]:
    """Likelihood-weighting estimates of p(X | do(x), e) for ``names`` (a hard-observed variable: its finding)
    and the note saying so."""
    from bnstudio.inference.approximate import answer_posterior

    net = engine.net
    observed = {n: v for n, v in evidence.items() if isinstance(v, str)}
    targets = [n for n in names if n not in observed]
    answer = answer_posterior(engine.intervened(interventions) if interventions else engine, targets, evidence,
                              "likelihood-weighting", ESTIMATE_SAMPLES, seed=0)
    out = dict(answer.posteriors)
    for name in names:
        if name in observed:
            out[name] = (np.asarray(net.states(name)) == observed[name]).astype(float)
    return out, f"estimated by likelihood weighting ({ESTIMATE_SAMPLES:,} samples): {why}"


def _freeze(evidence: dict[str, EvidenceValue]) -> tuple:
    return tuple(sorted((k, v if isinstance(v, str) else tuple(v)) for k, v in evidence.items()))


def check_evidence_value(net: Network, name: str, value: EvidenceValue) -> None:
    """Raise EvidenceError for a malformed value (used when evidence comes from a project file)."""
    if isinstance(value, str):
        net.variable(name).index(value)
    elif len(value) != net.cardinality(name):
        raise EvidenceError(f"likelihood evidence on '{name}' needs {net.cardinality(name)} values")


def describe(evidence: dict[str, EvidenceValue]) -> str:
    """``A=yes, B~likelihood`` for messages."""
    return ", ".join(f"{k}={v}" if isinstance(v, str) else f"{k}~likelihood" for k, v in evidence.items())
