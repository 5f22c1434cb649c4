"""Property test: random edit sequences keep the network consistent, and refused edits change nothing."""
from __future__ import annotations

import networkx as nx
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bnstudio.core import Network
from bnstudio.errors import UnknownStateError, UnknownVariableError, ValidationError

from .conftest import _snapshot

REFUSALS = (ValidationError, UnknownVariableError, UnknownStateError)
OPS = ["add_variable", "add_arc", "remove_arc", "reverse_arc", "add_state", "remove_state",
       "remove_variable", "reorder_states"]
# edits that move arcs around without touching states: every remaining alpha keeps its total pseudo-count
ALPHA_PRESERVING = {"add_arc", "remove_arc", "reverse_arc", "remove_variable"}


def random_network(data: st.DataObject) -> Network:
    n_vars = data.draw(st.integers(1, 4), label="n_vars")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    net = Network("random")
    for i in range(n_vars):
        card = data.draw(st.integers(1, 3), label=f"card{i}")
        parents = [f"V{j}" for j in range(i) if data.draw(st.booleans(), label=f"arc{j}->{i}")]
        shape = tuple(net.cardinality(p) for p in parents) + (card,)
        cpt = rng.dirichlet(np.ones(card), size=shape[:-1])
        alpha = rng.integers(0, 5, size=shape).astype(float) if data.draw(st.booleans(), label="alpha") else None
        net.add_variable(f"V{i}", [f"t{k}" for k in range(card)], parents=parents, cpt=cpt, alpha=alpha)
    return net


def pick(data: st.DataObject, net: Network, label: str) -> str:
    """A variable of the network, or now and then a name it does not have."""
    return data.draw(st.sampled_from(net.variables + ["Ghost"]), label=label)


def apply_edit(data: st.DataObject, net: Network, op: str, counter: int) -> None:
    if op == "add_variable":
        k = data.draw(st.integers(0, min(2, len(net))), label="n_parents")
        parents = data.draw(st.permutations(net.variables), label="parents")[:k] if net.variables else []
        net.add_variable(f"N{counter}", ["a", "b"], parents=parents)
    elif op in ("add_arc", "remove_arc", "reverse_arc"):
        getattr(net, op)(pick(data, net, "parent"), pick(data, net, "child"))
    elif op == "remove_variable":
        net.remove_variable(pick(data, net, "var"))
    else:
        var = pick(data, net, "var")
        states = list(net.states(var)) if var in net else ["x"]
        if op == "add_state":
            index = data.draw(st.none() | st.integers(-1, len(states) + 1), label="index")
            net.add_state(var, data.draw(st.sampled_from(states + [f"u{counter}"]), label="state"), index)
        elif op == "remove_state":
            net.remove_state(var, data.draw(st.sampled_from(states + ["nope"]), label="state"))
        else:
            net.reorder_states(var, data.draw(st.permutations(states), label="order"))


def check_invariants(net: Network) -> None:
    net.validate()
    g = net.graph()
    assert nx.is_directed_acyclic_graph(g)
    assert sorted(g.nodes) == sorted(net.variables)
    assert sorted(g.edges()) == sorted(net.arcs())
    order = net.topological_order()
    assert sorted(order) == sorted(net.variables)
    for v in net.variables:
        assert all(order.index(p) < order.index(v) for p in net.parents(v))
        assert len(set(net.parents(v))) == len(net.parents(v))
        assert net.cpt(v).shape == net.family_shape(v)
        assert not net.cpt(v).flags.writeable
        alpha = net.alpha(v)
        if alpha is not None:
            assert alpha.shape == net.family_shape(v)
            assert np.all(alpha >= 0)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_random_edit_sequences_keep_the_network_consistent(data):
    net = random_network(data)
    check_invariants(net)
    n_steps = data.draw(st.integers(1, 12), label="n_steps")
    for step in range(n_steps):
        op = data.draw(st.sampled_from(OPS), label="op")
        before = _snapshot(net)
        had_alpha = {v: float(net.alpha(v).sum()) for v in net.variables if net.alpha(v) is not None}
        events = []
        net.events.subscribe(events.append)
        try:
            apply_edit(data, net, op, step)
        except REFUSALS:
            assert _snapshot(net) == before, f"refused {op} changed the network"
            assert events == [], f"refused {op} emitted events"
        else:
            assert [(e.kind, e.phase) for e in events] == [(op, "before"), (op, "after")]
            sv, pv = before["versions"]
            assert (net.structure_version, net.parameter_version) == (sv + 1, pv + 1)
            for v, total in had_alpha.items():
                if v in net:
                    assert net.alpha(v) is not None, f"{op} dropped the Dirichlet counts of {v}"
                    if op in ALPHA_PRESERVING:
                        assert np.isclose(net.alpha(v).sum(), total), f"{op} changed the total counts of {v}"
        finally:
            net.events.unsubscribe(events.append)
        check_invariants(net)
