"""Before/after events, the structural flag, version counters, (un)subscription, silence on refused edits."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core import Event, EventEmitter, Network
from bnstudio.errors import BNStudioError


class Recorder:
    """Records every event together with what the network looked like when it was delivered."""

    def __init__(self, net: Network) -> None:
        self.net = net
        self.log: list[tuple[Event, list[str], list[tuple[str, str]], tuple[int, int]]] = []
        net.events.subscribe(self)

    def __call__(self, event: Event) -> None:
        self.log.append((event, self.net.variables, sorted(self.net.arcs()),
                         (self.net.structure_version, self.net.parameter_version)))

    @property
    def events(self) -> list[Event]:
        return [e for e, *_ in self.log]


# (edit, kind, structural, data)
EDITS = [
    (lambda n: n.add_variable("D", ["d0", "d1"], parents=["A"]), "add_variable", True, {"name": "D"}),
    (lambda n: n.remove_variable("A"), "remove_variable", True, {"name": "A"}),
    (lambda n: n.rename_variable("A", "Z"), "rename_variable", True, {"old": "A", "new": "Z"}),
    (lambda n: n.set_description("A", "text"), "set_description", False, {"name": "A"}),
    (lambda n: n.add_state("B", "b3", index=1), "add_state", True, {"variable": "B", "state": "b3", "index": 1}),
    (lambda n: n.remove_state("B", "b1"), "remove_state", True, {"variable": "B", "state": "b1", "index": 1}),
    (lambda n: n.rename_state("B", "b1", "x"), "rename_state", True, {"variable": "B", "old": "b1", "new": "x"}),
    (lambda n: n.reorder_states("A", ["s1", "s0"]), "reorder_states", True,
     {"variable": "A", "order": ["s1", "s0"]}),
    (lambda n: n.add_arc("A", "B"), "add_arc", True, {"parent": "A", "child": "B"}),
    (lambda n: n.remove_arc("A", "C"), "remove_arc", True, {"parent": "A", "child": "C"}),
    (lambda n: n.reverse_arc("B", "C"), "reverse_arc", True, {"parent": "B", "child": "C"}),
    (lambda n: n.set_parents("C", ["B"]), "set_parents", True, {"variable": "C", "parents": ["B"]}),
    (lambda n: n.set_cpt("A", [0.5, 0.5]), "set_cpt", False, {"variable": "A"}),
    (lambda n: n.set_cpt_row("C", ("s1", "b2"), [1, 0]), "set_cpt", False, {"variable": "C"}),
    (lambda n: n.set_alpha("C", None), "set_alpha", False, {"variable": "C"}),
    (lambda n: n.set_parameters({"B": [1, 0, 0]}, {"A": [1, 1]}), "set_parameters", False,
     {"variables": ["A", "B"]}),
]


@pytest.mark.parametrize("edit, kind, structural, data", EDITS, ids=[f"{k}{i}" for i, (_, k, _, _) in enumerate(EDITS)])
def test_before_after_pair(net, edit, kind, structural, data):
    rec = Recorder(net)
    vars_before, arcs_before = net.variables, sorted(net.arcs())
    sv, pv = net.structure_version, net.parameter_version
    edit(net)
    assert [(e.kind, e.phase, e.structural, e.data) for e in rec.events] == [
        (kind, "before", structural, data), (kind, "after", structural, data)]
    (_, seen_vars, seen_arcs, seen_versions), (_, _, _, after_versions) = rec.log
    # "before" is delivered while the network is still unchanged, "after" once the edit is done
    assert (seen_vars, seen_arcs, seen_versions) == (vars_before, arcs_before, (sv, pv))
    assert after_versions == (sv + structural, pv + 1)
    assert (net.structure_version, net.parameter_version) == (sv + structural, pv + 1)


def test_before_event_sees_old_cpt(net):
    seen = {}
    net.events.subscribe(lambda e: seen.setdefault(e.phase, net.cpt("A").tolist()))
    net.set_cpt("A", [0.9, 0.1])
    assert seen == {"before": [0.3, 0.7], "after": [0.9, 0.1]}


def test_versions_over_a_sequence(net):
    history = []
    for edit in (lambda: net.set_cpt("A", [0.5, 0.5]), lambda: net.add_arc("A", "B"),
                 lambda: net.set_alpha("C", None), lambda: net.remove_arc("A", "B"),
                 lambda: net.set_cpt_row("B", (), [0.1, 0.1, 0.8])):
        edit()
        history.append((net.structure_version, net.parameter_version))
    assert history == [(3, 4), (4, 5), (4, 6), (5, 7), (5, 8)]  # the fixture made 3 structural edits


def test_fixture_versions():
    n = Network()
    assert (n.structure_version, n.parameter_version) == (0, 0)
    n.add_variable("A", ["s0", "s1"])
    n.add_variable("B", ["s0", "s1"], parents=["A"])
    assert (n.structure_version, n.parameter_version) == (2, 2)


def test_unsubscribe(net):
    a, b = [], []
    net.events.subscribe(a.append)
    net.events.subscribe(b.append)
    net.events.subscribe(a.append)  # subscribing twice does not double the calls
    net.set_cpt("A", [0.5, 0.5])
    assert len(a) == 2 and len(b) == 2
    net.events.unsubscribe(a.append)
    net.events.unsubscribe(lambda e: None)  # unknown listeners are ignored
    net.add_arc("A", "B")
    assert len(a) == 2 and [e.kind for e in b[2:]] == ["add_arc", "add_arc"]


def test_listeners_called_in_subscription_order():
    hub, calls = EventEmitter(), []
    hub.subscribe(lambda e: calls.append(("first", e.phase)))
    hub.subscribe(lambda e: calls.append(("second", e.phase)))
    hub.emit(Event("x", "before", False))
    assert calls == [("first", "before"), ("second", "before")]


def test_listener_may_unsubscribe_itself_during_emit(net):
    calls = []

    def once(event):
        calls.append(event.phase)
        net.events.unsubscribe(once)

    later = []
    net.events.subscribe(once)
    net.events.subscribe(later.append)
    net.set_cpt("A", [0.5, 0.5])
    assert calls == ["before"] and len(later) == 2


REFUSED = [
    lambda n: n.add_variable("A", ["x"]),
    lambda n: n.add_variable("D", ["d0", "d1"], cpt=[0.5, 0.6]),
    lambda n: n.add_variable("D", ["d0", "d1"], alpha=[-1, 1]),
    lambda n: n.add_variable("D", ["d0", "d0"]),
    lambda n: n.add_variable("D", ["d0"], parents=["Nope"]),
    lambda n: n.remove_variable("Nope"),
    lambda n: n.rename_variable("A", "B"),
    lambda n: n.add_state("B", "b0"),
    lambda n: n.add_state("B", "b9", index=7),
    lambda n: n.remove_state("B", "nope"),
    lambda n: n.rename_state("B", "b0", "b1"),
    lambda n: n.reorder_states("B", ["b0"]),
    lambda n: n.add_arc("C", "A"),
    lambda n: n.add_arc("A", "C"),
    lambda n: n.add_arc("A", "A"),
    lambda n: n.remove_arc("A", "B"),
    lambda n: n.reverse_arc("A", "B"),
    lambda n: n.set_parents("A", ["C"]),
    lambda n: n.set_parents("C", ["A"], cpt=[0.5, 0.5]),
    lambda n: n.set_cpt("A", [0.5, 0.4]),
    lambda n: n.set_cpt_row("A", (), [0.5, 0.4]),
    lambda n: n.set_cpt_row("A", (), [0.5, 0.4, 0.1]),
    lambda n: n.set_alpha("A", [1, 2, 3]),
    lambda n: n.set_parameters({"A": [1, 0], "B": [2, 0, 0]}),
]


@pytest.mark.parametrize("edit", REFUSED, ids=[str(i) for i in range(len(REFUSED))])
def test_refused_edit_emits_nothing(net, snapshot, edit):
    rec = Recorder(net)
    before = snapshot(net)
    with pytest.raises(BNStudioError):
        edit(net)
    assert rec.events == []
    assert snapshot(net) == before


def test_rename_to_same_name_is_a_no_op(net):
    rec = Recorder(net)
    net.rename_variable("A", "A")
    assert rec.events == [] and net.structure_version == 3


def test_mutating_event_data_does_not_touch_the_network(net):
    net.events.subscribe(lambda e: e.data["parents"].append("mutated") if e.phase == "before" else None)
    net.set_parents("C", ["B", "A"], cpt=np.full((3, 2, 2), 0.5))
    assert net.parents("C") == ("B", "A")
    net.validate()
