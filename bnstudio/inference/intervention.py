"""Interventions: p(Y | do(X = x), e) as a query on the mutilated network (:mod:`bnstudio.core.surgery`).

An intervention is a different kind of finding from an observation: observing X = x conditions the joint on it
(information flows to X's ancestors), setting X = x replaces X's mechanism by a point mass and cuts its parent
arcs; the findings e are then observed in the mutilated network p_x:

    p(y | do(x), e) = p_x(y, e) / p_x(e).

:class:`Interventions` keeps the engines of the mutilated networks of one network, one per intervention set
(compiled once, as any engine, and dropped when the network is edited), so repeated queries under the same
do() cost what queries on any network cost. A variable may not be both observed and set in one query, and
evidence impossible under the intervention is an error naming the do().
"""
from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Callable, Mapping, TypeVar

from bnstudio.core.surgery import intervention_states, mutilated
from bnstudio.errors import EvidenceError, ImpossibleEvidence

if TYPE_CHECKING:
    from bnstudio.inference.engine import InferenceEngine
    from bnstudio.inference.evidence import Evidence

CACHED_SETS = 4     # intervention sets whose mutilated engines are kept
T = TypeVar("T")


def describe(interventions: Mapping[str, str | int]) -> str:
    """``do(X=x, Z=z)`` for messages and answers."""
    return "do(" + ", ".join(f"{name}={state}" for name, state in interventions.items()) + ")"


def check_findings(interventions: Mapping[str, str | int], evidence: Evidence | None) -> None:
    """Refuse a variable both observed and set (p(x | do(x)) is a point mass; observing it says nothing)."""
    both = [name for name in interventions if name in (evidence or {})]
    if both:
        raise EvidenceError(f"'{both[0]}' is both observed and intervened on ({describe(interventions)}); "
                            f"give it as a finding or as an intervention, not both")


class Interventions:
    """The engines of ``engine.net``'s mutilated networks, one per intervention set, built on first use."""

    def __init__(self, engine: InferenceEngine) -> None:
        self.engine = engine
        self._engines: OrderedDict[tuple, InferenceEngine] = OrderedDict()
        self._versions = (-1, -1)

    def engine_for(self, interventions: Mapping[str, str | int]) -> InferenceEngine:
        """The engine of the network mutilated by ``interventions`` (states by name or index)."""
        net = self.engine.net
        versions = (net.structure_version, net.parameter_version)
        if versions != self._versions:        # an edit of the network: every mutilated copy is stale
            self._engines.clear()
            self._versions = versions
        key = tuple(sorted(intervention_states(net, interventions).items()))
        cached = self._engines.get(key)
        if cached is not None:
            self._engines.move_to_end(key)
            return cached
        from bnstudio.inference.engine import InferenceEngine
        made = self._engines[key] = InferenceEngine(mutilated(net, interventions), self.engine.memory_budget,
                                                     self.engine.method)
        if len(self._engines) > CACHED_SETS:
            self._engines.popitem(last=False)
        return made

    def ask(self, interventions: Mapping[str, str | int], evidence: Evidence | None,
            query: Callable[[InferenceEngine], T]) -> T:
        """``query(engine)`` on the mutilated network, after the finding/intervention clash check; impossible
        evidence is reported with the do() it is impossible under."""
        check_findings(interventions, evidence)
        engine = self.engine_for(interventions)
        try:
            return query(engine)
        except ImpossibleEvidence as exc:
            raise ImpossibleEvidence(f"{exc} under {describe(interventions)}") from None
