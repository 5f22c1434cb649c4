"""Graph surgery for interventions: the mutilated network of do(X = x) (Pearl 2009, §3.2.3).

do(X = x) sets X by an outside action instead of observing it: the mechanism p(X | Pa(X)) is replaced by a
point mass at x and X's parent arcs are cut, every other CPT is kept. In the mutilated network p_x,

    p(y | do(x), e) = p_x(y | e),

so an ordinary query on it answers the causal one (the truncated factorisation p_x(v) = Π_{V ∉ X} p(v | pa_v)
at X = x). Unlike observing X = x, nothing flows back to X's ancestors: in asia, observing ``lung = yes``
raises p(smoke = yes), setting it does not.

>>> from bnstudio.core import network_from_dsl
>>> net = network_from_dsl("S->C", cpts={"S": [0.5, 0.5], "C": [[0.9, 0.1], [0.2, 0.8]]})
>>> cut = mutilated(net, {"C": "s1"})
>>> cut.parents("C"), cut.cpt("C").tolist(), cut.cpt("S").tolist()
((), [0.0, 1.0], [0.5, 0.5])
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import EvidenceError, UnknownStateError, UnknownVariableError


def intervention_states(net: Network, interventions: Mapping[str, str | int]) -> dict[str, int]:
    """{variable: state index} for do(X = x) given by state name or index; one-line errors name an unknown
    variable, an unknown state or a likelihood (an intervention sets one state)."""
    out = {}
    for name, state in interventions.items():
        if name not in net:
            raise UnknownVariableError(f"unknown variable '{name}' in the intervention do({name}={state})")
        states = net.states(name)
        if isinstance(state, (int, np.integer)) and not isinstance(state, bool):
            if not 0 <= state < len(states):
                raise EvidenceError(f"do({name}={state}): state index out of range 0..{len(states) - 1}")
            out[name] = int(state)
        elif isinstance(state, str):
            if state not in states:
                raise UnknownStateError(f"do({name}={state}): variable '{name}' has no state '{state}' "
                                        f"(states: {', '.join(states)})")
            out[name] = states.index(state)
        else:
            raise EvidenceError(f"do({name}=...) needs one state (a name or an index), got {state!r}")
    return out


def mutilated(net: Network, interventions: Mapping[str, str | int]) -> Network:
    """A copy of ``net`` in which each intervened X has no parents and the CPT e_x (1 at state x, else 0);
    Dirichlet counts of X are dropped (the mechanism is no longer learnt). ``net`` is not changed."""
    states = intervention_states(net, interventions)
    cut = net.copy()
    for name, k in states.items():
        point = np.zeros(net.cardinality(name))
        point[k] = 1.0
        cut.set_parents(name, (), cpt=point)
    return cut
