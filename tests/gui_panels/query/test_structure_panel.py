"""The structure panel learns as a background job, shows the proposal as a diff on the canvas, and applies
it as one undoable command (undo restores arcs and tables exactly) or discards it."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from bnstudio.app import commands as cmd
from bnstudio.core.network import Network
from bnstudio.gui.canvas import ADD_ARC
from bnstudio.gui.document import Document
from bnstudio.gui.structure_panel import StructurePanel, structure_diff
from bnstudio.io import read_network
from bnstudio.learn.structure import learn_structure
from bnstudio.sampling import forward_sample
from tests.demos.structure_panel import asia_data, demo_widget

from .conftest import NETWORKS


@pytest.fixture
def demo(qtbot):
    widget = demo_widget()
    qtbot.addWidget(widget)
    widget.resize(1300, 800)
    widget.show()
    return widget


def families(net: Network) -> dict:
    return {v: (net.parents(v), np.array(net.cpt(v)), None if net.alpha(v) is None else np.array(net.alpha(v)))
            for v in net.variables}


def assert_same_families(a: dict, b: dict) -> None:
    assert list(a) == list(b)
    for name in a:
        assert a[name][0] == b[name][0], name
        assert np.array_equal(a[name][1], b[name][1]), name
        assert (a[name][2] is None and b[name][2] is None) or np.array_equal(a[name][2], b[name][2]), name


def learn(qtbot, panel, **options):
    panel.options.set_options(**options)
    with qtbot.waitSignal(panel.learning_ended, timeout=30000) as blocker:
        assert panel.run() is not None
    return blocker.args[0]


def test_opens_standalone_with_demo_data(demo):
    panel = demo.panel
    assert panel.data_label.text() == "Data: 2000 rows × 8 variables"
    assert panel.options.target.count() == 8 and panel.run_button.isEnabled()
    assert panel.result_box.isHidden()


def test_a_data_panel_selection_feeds_the_learner(qtbot, demo):
    from bnstudio.app.dataset.selection import DataSelection

    panel, doc = demo.panel, demo.demo_document
    _, codes, _, _ = asia_data(600, seed=4)
    selection = DataSelection.from_codes(doc.network, codes, test_fraction=0.5, seed=1)
    panel.set_selection(selection)
    assert panel.data_label.text() == "Data: 300 rows × 8 variables"
    assert learn(qtbot, panel, algorithm="chow-liu") == "finished"
    expected = learn_structure("chow-liu", selection.train, list(selection.variables), list(selection.states),
                               prior="laplace")
    assert panel.result.arcs == expected.arcs
    panel.set_selection(None)
    assert panel.data is None and not panel.run_button.isEnabled()


def test_options_enable_what_each_algorithm_uses(demo):
    options = demo.panel.options
    options.set_algorithm("kdb")
    assert options.k.isEnabled() and options.target.isEnabled() and not options.tabu.isEnabled()
    options.set_options(algorithm="hill-climb", score="bdeu", tabu=5, restarts=2, seed=4, max_parents=3)
    assert not options.target.isEnabled()
    assert options.options() == {"algorithm": "hill-climb", "score": "bdeu", "ess": 1.0, "max_parents": 3,
                                 "prior": "laplace", "tabu": 5, "restarts": 2, "seed": 4}
    options.set_algorithm("bnc")
    assert [options.score.itemText(i) for i in range(options.score.count())] == ["cll", "cll-mdl"]


def test_the_form_offers_what_the_registry_says_each_algorithm_takes(demo):
    from bnstudio.gui.structure_panel.options import FIELDS
    from bnstudio.learn.registry import STRUCTURE_LEARNERS
    from bnstudio.learn.structure.api import default_score

    options = demo.panel.options
    assert [options.algorithm.itemData(i) for i in range(options.algorithm.count())] == [
        e.name for e in STRUCTURE_LEARNERS]
    for entry in STRUCTURE_LEARNERS:
        options.set_algorithm(entry.name)
        assert options.target.isEnabled() == entry.needs_target, entry.name
        assert all(getattr(options, f).isEnabled() == (f in entry.option_names) for f in FIELDS if f != "score")
        scores = [options.score.itemText(i) for i in range(options.score.count())]
        assert scores[0] == default_score(entry.name) and sorted(scores) == sorted(entry.option("score").choices)
        given = options.options()
        assert given.pop("algorithm") == entry.name and ("target" in given) == entry.needs_target
        given.pop("target", None)
        assert entry.make(**given).get_params()["score"] == scores[0]    # every keyword is one the learner takes


def test_the_form_is_generated_from_the_registry(demo):
    """A field for every option a structure learner offers that the form edits (arcs and tiers are the
    constraints tool's), each "none" value given as None (the learner decides), and back."""
    from bnstudio.gui.structure_panel.options import FIELDS, FORM_KINDS
    from bnstudio.learn.registry import STRUCTURE_LEARNERS, structure_learner

    offered = [o.name for e in STRUCTURE_LEARNERS for o in e.shown_options if o.kind in FORM_KINDS]
    assert sorted(FIELDS) == sorted(set(offered)) and {"root", "perturb", "max_iter"} <= set(FIELDS)
    options = demo.panel.options
    options.set_options(algorithm="hill-climb", score="k2", perturb=3, max_iter=0, max_parents=None, seed=None)
    given = options.options()
    assert given["perturb"] == 3 and given["max_iter"] == 0 and given["score"] == "k2"
    assert "max_parents" not in given and "seed" not in given          # the learner's own None
    assert structure_learner("hill-climb").make(**{k: v for k, v in given.items() if k != "algorithm"}).perturb == 3
    options.set_options(algorithm="tan", root="bronc", prior=None)
    given = options.options()
    assert given["root"] == "bronc" and "prior" not in given and "perturb" not in given
    options.set_options(root=None, prior="bdeu")
    assert "root" not in options.options() and options.options()["prior"] == "bdeu"


def test_learn_tan_as_a_job_and_show_the_diff(qtbot, demo):
    panel, doc = demo.panel, demo.demo_document
    original = doc.network.arcs()
    with qtbot.waitSignal(panel.result_ready, timeout=30000) as blocker:
        panel.options.set_options(algorithm="tan", target="dysp", score="ll")
        panel.run()
    result = blocker.args[0]
    _, codes, names, states = asia_data()
    expected = learn_structure("tan", codes, names, states, target="dysp", score="ll", prior="laplace")
    assert result.arcs == expected.arcs
    learned, current = set(result.arcs), set(original)
    added = sorted(a for a in learned if a not in current and a[::-1] not in current)
    removed = sorted(a for a in current if a not in learned and a[::-1] not in learned)
    reversed_ = sorted(a for a in learned if a[::-1] in current)
    assert added and reversed_  # this data set makes a diff with both kinds
    assert panel.overlay.shown() == {"added": added, "removed": removed, "reversed": reversed_}
    for parent, child in reversed_:  # the old direction is hidden while the proposal is shown
        assert not demo.scene.arcs[(child, parent)].isVisible()
    assert doc.network.arcs() == original and doc.undo_stack.count() == 0
    assert f"{len(added)} added, {len(removed)} removed, {len(reversed_)} reversed" in panel.result_label.text()


def test_accept_is_one_undoable_command_and_undo_restores_exactly(qtbot, demo):
    panel, doc = demo.panel, demo.demo_document
    before = families(doc.network)
    assert learn(qtbot, panel, algorithm="tan", target="dysp") == "finished"
    result = panel.result
    with qtbot.waitSignal(panel.accepted):
        assert panel.accept()
    net = doc.network
    assert set(net.arcs()) == set(result.arcs) and doc.undo_stack.count() == 1
    assert_same_families(families(net), families(result.network))
    assert panel.overlay.shown() == {"added": [], "removed": [], "reversed": []}
    assert set(demo.scene.arcs) == set(result.arcs)
    doc.undo_stack.undo()
    assert_same_families(families(doc.network), before)
    assert all(arc.isVisible() for arc in demo.scene.arcs.values())
    doc.undo_stack.redo()
    assert_same_families(families(doc.network), families(result.network))


def test_discard_leaves_the_network_unchanged(qtbot, demo):
    panel, doc = demo.panel, demo.demo_document
    before = families(doc.network)
    assert learn(qtbot, panel, algorithm="hill-climb", score="bic") == "finished"
    assert any(panel.overlay.shown().values())
    with qtbot.waitSignal(panel.discarded):
        qtbot.mouseClick(panel.discard_button, Qt.LeftButton)
    assert panel.result is None and panel.result_box.isHidden()
    assert panel.overlay.shown() == {"added": [], "removed": [], "reversed": []}
    assert_same_families(families(doc.network), before)
    assert doc.undo_stack.count() == 0
    assert all(arc.isVisible() for arc in demo.scene.arcs.values())
    assert not [i for i in demo.scene.items() if type(i).__name__ == "DiffArcItem"]


def test_the_overlay_follows_edits_made_while_it_is_shown(qtbot, demo):
    panel, doc = demo.panel, demo.demo_document
    assert learn(qtbot, panel, algorithm="tan", target="dysp") == "finished"
    assert doc.execute(cmd.RemoveArc(doc, "smoke", "bronc"))
    qtbot.waitUntil(lambda: ("smoke", "bronc") in panel.overlay.shown()["added"])
    assert panel.overlay.shown() == structure_diff(doc.network.arcs(), panel.result.arcs)


def test_constraints_from_the_table_and_tiers_reach_the_learner(qtbot, demo):
    panel = demo.panel
    assert panel.add_arc_constraint("asia", "dysp", "required")
    assert panel.add_arc_constraint("smoke", "lung", "forbidden")
    assert not panel.add_arc_constraint("asia", "asia")
    panel.constraints.tier_list.add_tier("asia, smoke")
    panel.constraints.tier_list.add_tier(["tub", "lung", "bronc", "either", "xray", "dysp"])
    assert panel.constraints.constraints() == {
        "required": [("asia", "dysp")], "forbidden": [("smoke", "lung")],
        "tiers": [["asia", "smoke"], ["tub", "lung", "bronc", "either", "xray", "dysp"]]}
    assert learn(qtbot, panel, algorithm="hill-climb", score="bic") == "finished"
    arcs = panel.result.arcs
    assert ("asia", "dysp") in arcs and ("smoke", "lung") not in arcs
    assert not [a for a in arcs if a[0] not in ("asia", "smoke") and a[1] in ("asia", "smoke")]


def test_an_impossible_constraint_is_reported_and_changes_nothing(qtbot, demo):
    panel = demo.panel
    panel.add_arc_constraint("asia", "tub", "required")
    panel.add_arc_constraint("tub", "asia", "required")
    assert learn(qtbot, panel, algorithm="hill-climb") == "failed"
    assert panel.result is None and "cycle" in panel.messages.label.text()


def test_dragging_on_the_canvas_with_the_tool_adds_a_constraint(qtbot, demo):
    panel, view, scene, doc = demo.panel, demo.view, demo.scene, demo.demo_document
    scene.tool = ADD_ARC  # even in arc mode the tool takes the drag: no arc is added to the network
    panel.pick_kind.setCurrentText("forbidden")
    qtbot.mouseClick(panel.pick_button, Qt.LeftButton)
    assert panel.tool.active
    start = view.mapFromScene(scene.nodes["asia"].pos())
    end = view.mapFromScene(scene.nodes["dysp"].pos())
    qtbot.mousePress(view.viewport(), Qt.LeftButton, pos=start)
    qtbot.mouseMove(view.viewport(), pos=end)
    qtbot.mouseRelease(view.viewport(), Qt.LeftButton, pos=end)
    assert panel.constraints.arcs.arcs() == [("asia", "dysp", "forbidden")]
    assert ("asia", "dysp") not in doc.network.arcs() and doc.undo_stack.count() == 0
    qtbot.mouseClick(panel.pick_button, Qt.LeftButton)
    assert not panel.tool.active


def test_cancel_a_long_hill_climb(qtbot):
    alarm = read_network(NETWORKS / "alarm.bif")
    doc = Document(alarm)
    panel = StructurePanel(doc)
    qtbot.addWidget(panel)
    panel.set_data(forward_sample(alarm, 3000, seed=5), alarm.variables, [alarm.states(v) for v in alarm.variables])
    panel.options.set_options(algorithm="hill-climb", score="bic", tabu=30, restarts=1000, seed=1)
    before = families(doc.network)
    assert panel.run() is not None
    # wait on the main thread for the first progress report (not on the worker-thread signal itself)
    qtbot.waitUntil(lambda: panel.status.text().startswith("iteration"), timeout=30000)
    with qtbot.waitSignal(panel.learning_ended, timeout=30000) as blocker:
        qtbot.mouseClick(panel.run_button, Qt.LeftButton)  # the button reads "Cancel" while learning
    assert blocker.args == ["cancelled"]
    assert panel.result is None and panel.worker is None and panel.run_button.text() == "Learn structure"
    assert_same_families(families(doc.network), before)


def test_accept_adds_variables_the_network_lacks_and_undo_removes_them(qtbot):
    _, codes, names, states = asia_data(500, seed=2)
    doc = Document(Network("empty"))
    panel = StructurePanel(doc)
    qtbot.addWidget(panel)
    panel.set_data(codes, names, states)
    assert learn(qtbot, panel, algorithm="chow-liu") == "finished"
    assert "Accepting adds the variables asia, tub" in panel.result_label.text()
    learned = panel.result
    assert panel.diff()["added"] == sorted(learned.arcs)
    assert panel.accept()
    assert doc.network.variables == names and set(doc.network.arcs()) == set(learned.arcs)
    assert_same_families(families(doc.network), families(learned.network))
    assert all(name in doc.network.positions for name in names)
    doc.undo_stack.undo()
    assert doc.network.variables == [] and doc.network.arcs() == []


def test_states_that_differ_from_the_network_are_refused(qtbot):
    _, codes, names, states = asia_data(300)
    doc = Document(read_network(NETWORKS / "asia.bif"))
    panel = StructurePanel(doc)
    qtbot.addWidget(panel)
    states = [tuple(reversed(s)) if n == "asia" else s for n, s in zip(names, states, strict=True)]
    panel.set_data(codes, names, states)
    assert learn(qtbot, panel, algorithm="chow-liu") == "finished"
    messages = []
    doc.message.connect(lambda level, text: messages.append(text))
    before = families(doc.network)
    assert not panel.accept()
    assert messages and "states of 'asia' differ" in messages[0]
    assert panel.result is not None  # the proposal stays
    assert_same_families(families(doc.network), before)


def test_opening_another_network_discards_the_proposal(qtbot, demo):
    panel, doc = demo.panel, demo.demo_document
    assert learn(qtbot, panel, algorithm="tan", target="dysp") == "finished"
    doc.replace_network(read_network(NETWORKS / "asia.bif"))
    assert panel.result is None and panel.overlay.shown() == {"added": [], "removed": [], "reversed": []}


def test_variables_without_data_are_left_out_of_the_search(qtbot, demo):
    """Seen: a node with no data column (Node1) became a child of the class under naive Bayes."""
    panel = demo.panel
    _, codes, names, states = asia_data(500, seed=2)
    codes = np.hstack([codes, -np.ones((codes.shape[0], 1), dtype=codes.dtype)])
    panel.set_data(codes, names + ["Node1"], states + [("yes", "no")])
    assert "Left out, no data: Node1" in panel.data_label.text()
    assert learn(qtbot, panel, algorithm="nb", target="dysp") == "finished"
    assert "Node1" not in panel.result.network.variables
    assert all("Node1" not in arc for arc in panel.result.arcs)


def test_accepting_a_tan_lays_out_arcs_that_would_run_through_nodes(qtbot, demo):
    """Seen: after accepting TAN some arcs ran through other nodes until Layout was pressed."""
    from bnstudio.display.layout import arcs_through_nodes
    from bnstudio.gui.canvas.arrange import layout_positions, sizes_for

    panel, doc = demo.panel, demo.demo_document
    net = doc.network
    for k, name in enumerate(net.variables):     # every node on one row: any arc between two others crosses one
        net.positions[name] = (250.0 * k, 0.0)
    before = dict(net.positions)
    assert learn(qtbot, panel, algorithm="tan", target="dysp") == "finished"
    with qtbot.waitSignal(panel.accepted):
        assert panel.accept()
    sizes = sizes_for(net, demo.scene.node_style)
    assert arcs_through_nodes(net.arcs(), before, sizes) > arcs_through_nodes(net.arcs(), dict(net.positions), sizes)
    laid_out = layout_positions(net, demo.scene.node_style)     # as View ▸ Automatic Layout would place them
    assert all(np.allclose(net.positions[v], laid_out[v]) for v in net.variables)
    assert doc.undo_stack.count() == 1          # structure and layout: one undo step
    doc.undo_stack.undo()
    assert dict(net.positions) == before
