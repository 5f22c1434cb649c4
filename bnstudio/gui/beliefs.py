"""Evidence and posterior beliefs for the app, Qt-free: one compiled :class:`InferenceEngine` per network
(it recompiles itself after structural edits), posteriors cached per (structure, parameters, evidence).

Evidence follows the network's events: it is dropped when its variable (or its state) disappears and renamed
with it. Evidence that would be impossible is refused before it is applied.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from bnstudio.core.events import Event
from bnstudio.core.network import Network
from bnstudio.errors import BNStudioError, EvidenceError, MemoryBudgetExceeded
from bnstudio.inference.engine import InferenceEngine

EvidenceValue = Any  # a state name or a likelihood list


class Beliefs:
    """The evidence entered on ``net`` and the posterior marginals of every variable given it."""

    def __init__(self, net: Network) -> None:
        self.net = net
        self.engine = InferenceEngine(net)
        self._evidence: dict[str, EvidenceValue] = {}
        self._cache_key: tuple | None = None
        self._cache: dict[str, np.ndarray] | None = None
        self.error: str | None = None
        net.events.subscribe(self._on_event)

    def detach(self) -> None:
        self.net.events.unsubscribe(self._on_event)

    @property
    def evidence(self) -> dict[str, EvidenceValue]:
        return dict(self._evidence)

    def posteriors(self) -> dict[str, np.ndarray] | None:
        """p(X | evidence) for every variable, or None when the evidence became impossible (see ``error``)."""
        key = (self.net.structure_version, self.net.parameter_version, _freeze(self._evidence))
        if key != self._cache_key:
            self._cache_key = key
            try:
                self._cache, self.error = self._compute(self._evidence), None
            except BNStudioError as exc:
                self._cache, self.error = None, str(exc)
        return self._cache

    def _compute(self, evidence: dict[str, EvidenceValue]) -> dict[str, np.ndarray]:
        names = self.net.variables
        if not names:
            return {}
        if not self.engine.fits_budget:  # every marginal by its own elimination would freeze the app
            raise MemoryBudgetExceeded(f"'{self.net.name}' is too large for live beliefs of every node: its "
                                       "junction tree exceeds the memory budget")
        return self.engine.posterior(names, evidence)

    def probability_of_evidence(self) -> float | None:
        if not self._evidence:
            return 1.0
        try:
            return float(np.exp(self.engine.log_evidence(self._evidence)))
        except BNStudioError:
            return None

    def set_evidence(self, name: str, value: EvidenceValue | None) -> None:
        """Set (or clear with None) the evidence on ``name``; raises (and changes nothing) when impossible."""
        new = dict(self._evidence)
        if value is None:
            new.pop(name, None)
        else:
            if isinstance(value, str):
                self.net.variable(name).index(value)  # UnknownStateError names the states
            new[name] = value
        self.replace_evidence(new)

    def replace_evidence(self, evidence: dict[str, EvidenceValue]) -> None:
        """Replace all evidence at once, refusing (with ImpossibleEvidence/EvidenceError) what cannot hold."""
        evidence = dict(evidence)
        if evidence:
            result = self._compute(evidence)  # raises ImpossibleEvidence before anything changes
            self._cache_key = (self.net.structure_version, self.net.parameter_version, _freeze(evidence))
            self._cache, self.error = result, None
        self._evidence = evidence

    def clear(self) -> None:
        self._evidence = {}

    # ------------------------------------------------------------------ following the network
    def _on_event(self, event: Event) -> None:
        if event.phase != "after":
            return
        data, ev = event.data, self._evidence
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


def _freeze(evidence: dict[str, EvidenceValue]) -> tuple:
    return tuple(sorted((k, v if isinstance(v, str) else tuple(v)) for k, v in evidence.items()))


def check_evidence_value(net: Network, name: str, value: EvidenceValue) -> None:
    """Raise EvidenceError for a malformed value (used when evidence comes from a project file)."""
    if isinstance(value, str):
        net.variable(name).index(value)
    elif len(value) != net.cardinality(name):
        raise EvidenceError(f"likelihood evidence on '{name}' needs {net.cardinality(name)} values")
