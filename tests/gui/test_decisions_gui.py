"""Influence diagrams in the window: decision rectangles and utility diamonds on the canvas, the decision panel's
MEU, option values and policies against the core's solver, evidence, utility-table edits (undoable, refused when
not finite), unsaved-work prompts and the background path."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QGraphicsItem

from bnstudio.app import commands as cmd
from bnstudio.app.resources import bundled_diagram
from bnstudio.cli.decide import load_diagram
from bnstudio.decision import solve, utility_error_bar
from bnstudio.gui import dialogs
from bnstudio.gui.canvas.utility_item import UtilityItem

OIL = bundled_diagram()


@pytest.fixture
def diagram_window(window):
    assert window.decision_panel is not None      # the main window installs the decision panel itself
    assert window.files.open_path(OIL, ask=False)
    return window


def test_the_window_opens_and_saves_diagram_files_through_file_menu_paths(window, tmp_path):
    """File ▸ Open takes a diagram file, File ▸ Examples lists the bundled one, Save writes the diagram (and
    only to a diagram file), the status bar's P(e) is the one under the optimal policies."""
    examples = [a.text() for a in window.menus["examples"].actions()]
    assert any("influence diagram" in t for t in examples)
    copy = tmp_path / "oil.json"
    copy.write_bytes(OIL.read_bytes())
    assert window.files.open_path(copy, ask=False)
    doc = window.document
    assert doc.decisions is not None and window.docks["decisions"].isVisible()
    doc.set_evidence("Result", "closed")           # a small diagram is solved at once, on the GUI thread
    solution = solve(load_diagram(str(copy)), {"Result": "closed"})
    assert window.decision_solver.latest.solution.probability_of_evidence == pytest.approx(
        solution.probability_of_evidence, abs=1e-12)
    assert f"P(e) = {solution.probability_of_evidence:.4g}" in window.evidence_label.text()
    # 4 variables + 2 utilities; arcs: 2 chance, Test and Result into Drill, Test into TestCost, Drill and Oil into Payoff
    assert window.summary_label.text() == "6 nodes · 7 arcs"
    window.scene.clearSelection()
    window.scene.utility_items["Payoff"].setSelected(True)
    window.rename_selected()                                   # F2 on a utility node: its name in an editor
    assert window.view._editor is not None and window.view._editor.text() == "Payoff"
    assert window.files.save_to(tmp_path / "saved.json")
    saved = load_diagram(str(tmp_path / "saved.json"))
    assert solve(saved, {"Result": "closed"}).expected_utility == pytest.approx(solution.expected_utility, abs=1e-12)
    assert "decisions" not in doc.unsaved_parts()


def option_rows(panel) -> dict[tuple[str, str], str]:
    table = panel.options
    return {(table.item(i, 0).text(), table.item(i, 1).text().split(" ")[0]): table.item(i, 2).text()
            for i in range(table.rowCount())}


def assert_shows(window, solution) -> None:
    """The panel and the canvas show ``solution``'s MEU and every option's EU."""
    panel = window.decision_panel
    assert panel.result.solution.expected_utility == pytest.approx(solution.expected_utility, abs=1e-9)
    assert f"{solution.expected_utility:.4g}" in panel.meu.text()
    rows = option_rows(panel)
    for d, options in solution.options.items():
        item = window.scene.nodes[d]
        for k, (option, value) in enumerate(options.items()):
            if value is None:
                assert rows[(d, option)] == "impossible under the evidence"
                assert item.option_values[k] is None
            else:
                assert float(rows[(d, option)]) == pytest.approx(value, rel=1e-5)
                assert item.option_values[k] == pytest.approx(value, abs=1e-9)


def test_canvas_draws_decisions_as_rectangles_and_utilities_as_diamonds(diagram_window):
    scene = diagram_window.scene
    kinds = {name: item.kind for name, item in scene.nodes.items()}
    assert sorted(n for n, k in kinds.items() if k == "decision") == ["Drill", "Test"]
    assert sorted(n for n, k in kinds.items() if k == "chance") == ["Oil", "Result"]
    rectangles = [i for i in scene.nodes.values() if i.kind == "decision"]
    assert len(rectangles) == 2 and all(i.corner == 0 for i in rectangles)
    diamonds = [i for i in scene.items() if isinstance(i, UtilityItem)]
    assert sorted(i.name for i in diamonds) == ["Payoff", "TestCost"]   # the bundled file has two utility nodes
    for item in diamonds:   # a diamond: the centre is inside its shape, the bounding box's corner is not
        r = item.rect()
        assert item.shape().contains(r.center()) and not item.shape().contains(r.topLeft() + QPointF(3, 3))
    # informational and utility arcs are drawn, and end on the diamond's border
    assert {("Test", "Drill"), ("Result", "Drill"), ("Test", "TestCost"), ("Drill", "Payoff"),
            ("Oil", "Payoff")} <= set(scene.arcs)
    arc = scene.arcs[("Oil", "Payoff")]
    end = arc.line.p2() - scene.utility_items["Payoff"].pos()
    assert abs(end.x()) / (r.width() / 2) + abs(end.y()) / (r.height() / 2) == pytest.approx(1.0, abs=1e-6)
    # selectable, so Delete removes them (tests/gui/test_decisions_editing.py)
    assert scene.selected_arcs() == [] and arc.flags() & QGraphicsItem.ItemIsSelectable


def test_panel_and_canvas_show_the_core_solution(diagram_window):
    window, diagram = diagram_window, load_diagram(str(OIL))
    solution = solve(diagram)
    assert solution.expected_utility == pytest.approx(22.5)
    assert_shows(window, solution)
    assert "22.5" in window.decision_panel.meu.text()
    assert window.scene.nodes["Test"].option_values == pytest.approx([22.5, 20.0])
    # utility diamonds: E[U_i | e] add up to the MEU; TestCost is -10 because testing is optimal
    values = {n: i.value for n, i in window.scene.utility_items.items()}
    assert values["TestCost"] == pytest.approx(-10.0)
    assert sum(values.values()) == pytest.approx(22.5)


def test_policy_lists_only_pasts_that_can_happen(diagram_window):
    panel = diagram_window.decision_panel
    panel.policy_choice.setCurrentText("Drill")
    solution = solve(load_diagram(str(OIL)))
    table = panel.policy
    headers = [table.horizontalHeaderItem(j).text() for j in range(table.columnCount())]
    assert headers == ["Test", "Result", "Choice", "p(past | e)"]
    shown = {(table.item(i, 0).text(), table.item(i, 1).text()): (table.item(i, 2).text(), float(table.item(i, 3).text()))
             for i in range(table.rowCount())}
    # Test = yes is optimal, so the pasts with Test = no, and Result = none after testing, have probability 0
    assert set(shown) == {("yes", "closed"), ("yes", "open"), ("yes", "diffuse")}
    assert [p for _c, p in shown.values()] == pytest.approx([0.24, 0.35, 0.41])
    expected = {(r["past"]["Test"], r["past"]["Result"]): r["choice"] for r in solution.policy_rows("Drill")}
    assert all(expected[k] == choice for k, (choice, _p) in shown.items())
    assert "5 pasts with probability 0" in panel.policy_note.text()


def test_evidence_changes_the_values(diagram_window):
    window = diagram_window
    assert window.document.set_evidence("Result", "closed")
    solution = solve(load_diagram(str(OIL)), {"Result": "closed"})
    assert solution.expected_utility == pytest.approx(77.5)
    assert_shows(window, solution)
    assert window.scene.nodes["Test"].option_values[1] is None   # not testing makes "closed" impossible
    window.document.clear_evidence()
    assert_shows(window, solve(load_diagram(str(OIL))))


def test_taken_decision_as_evidence(diagram_window):
    window = diagram_window
    assert window.document.set_evidence("Test", "no")
    assert_shows(window, solve(load_diagram(str(OIL)), {"Test": "no"}))
    assert "20" in window.decision_panel.meu.text()


def test_utility_edit_changes_the_meu_and_undoes(diagram_window):
    window = diagram_window
    editor = window.decision_panel.utilities
    editor.set_utility("Payoff")
    labels = [editor.model.row_label(i) for i in range(editor.model.rowCount())]
    row = labels.index("Drill=yes, Oil=soaking")
    assert editor.edit_cell(row, "300")
    table = np.array([[-70.0, 50.0, 300.0], [0.0, 0.0, 0.0]])
    diagram = load_diagram(str(OIL))
    changed = type(diagram)(diagram.network, diagram.decisions,
                            [u if u.name != "Payoff" else type(u)("Payoff", u.parents, table)
                             for u in diagram.utilities])
    expected = solve(changed)
    assert expected.expected_utility != pytest.approx(22.5)
    assert_shows(window, expected)
    assert window.document.decisions.utility("Payoff").table[0, 2] == 300.0
    window.document.undo_stack.undo()
    assert_shows(window, solve(diagram))
    window.document.undo_stack.redo()
    assert_shows(window, expected)


@pytest.mark.parametrize("text, reason", [("inf", "not a finite number"), ("nan", "not a finite number"),
                                          ("abc", "is not a number"), ("1e999", "not a finite number")])
def test_non_finite_utility_is_refused_with_a_reason(diagram_window, text, reason):
    window = diagram_window
    editor = window.decision_panel.utilities
    editor.set_utility("TestCost")
    before = window.document.undo_stack.count()
    assert not editor.edit_cell(0, text)
    assert reason in editor.notice.text()
    assert window.document.undo_stack.count() == before
    assert window.document.decisions.utility("TestCost").table.tolist() == [-10.0, 0.0]


def test_unsaved_work_lists_the_decision_part(diagram_window, monkeypatch, tmp_path):
    window = diagram_window
    assert window.document.unsaved_work() == []
    assert window.document.title == "oil wildcatter (example)"
    window.decision_panel.utilities.set_utility("TestCost")
    assert window.decision_panel.utilities.edit_cell(0, "-15")
    asked = []
    monkeypatch.setattr(dialogs, "ask_save_changes",
                        lambda parent, name, unsaved=None: asked.append(list(unsaved or [])) or dialogs.CANCEL)
    assert not window.files.maybe_save()
    assert "the influence diagram's decisions and utility tables" in asked[0]
    assert window.document.modified
    # written as a diagram, nothing is unsaved, and it reads back with the edit
    target = tmp_path / "oil.json"
    assert window.files.save_to(target)
    assert window.document.unsaved_work() == []
    assert load_diagram(str(target)).utility("TestCost").table.tolist() == [-15.0, 0.0]
    # opening a plain network drops the decision part and its canvas items
    window.document.replace_network(window.document.network.copy())
    assert window.document.decisions is None and not window.scene.utility_items
    assert all(i.kind == "chance" for i in window.scene.nodes.values())


def test_rename_of_a_decision_keeps_the_diagram(diagram_window):
    window = diagram_window
    doc = window.document
    assert doc.execute(cmd.RenameVariable(doc, "Drill", "DrillNow"))
    assert doc.decisions.decision_names == ("Test", "DrillNow")
    assert window.decision_panel.result.solution.expected_utility == pytest.approx(22.5)
    doc.undo_stack.undo()
    assert doc.decisions.decision_names == ("Test", "Drill")


def test_moving_a_utility_node_is_one_undo_step(diagram_window):
    window = diagram_window
    item = window.scene.utility_items["Payoff"]
    start = item.pos()
    item.setPos(start + QPointF(40, 10))
    assert window.scene.commit_moves()
    assert window.document.decisions.positions["Payoff"] == (start.x() + 40, start.y() + 10)
    window.document.undo_stack.undo()
    assert item.pos() == start


def test_error_bar_with_expert_counts(diagram_window):
    window = diagram_window
    panel = window.decision_panel
    assert "No error bar" in panel.interval.text()   # the example has no Dirichlet counts
    panel.ess.setValue(20.0)
    panel.use_ess.setChecked(True)
    diagram = load_diagram(str(OIL))
    bar = utility_error_bar(diagram, solve(diagram), ess=20.0, level=0.9)
    assert f"σ = {bar.sd:.4g}" in panel.interval.text()
    low, high = bar.interval
    assert f"[{low:.4g}, {high:.4g}]" in panel.interval.text()
    rows = panel.contributions.contributions
    assert rows[0].variable == "Oil" and rows[0].ess == 20.0
    assert [r.variance for r in rows] == pytest.approx([r["variance"] for r in bar.top_rows(diagram, len(rows))])


def test_background_solution_through_the_job_worker(diagram_window, qtbot):
    window = diagram_window
    solver = window.decision_solver
    solver.inline_cells = 0
    with qtbot.waitSignal(solver.solved, timeout=20000):
        window.document.set_evidence("Result", "open")
    assert_shows(window, solve(load_diagram(str(OIL)), {"Result": "open"}))


def test_chance_beliefs_follow_the_optimal_policies(diagram_window):
    """Testing is optimal, so Result = none (only without a test) has probability 0 on the canvas; the network's
    own beliefs (decisions as uniform placeholders) would say 0.5."""
    item = diagram_window.scene.nodes["Result"]
    assert item.beliefs == pytest.approx([0.24, 0.35, 0.41, 0.0])
    diagram_window.document.set_evidence("Test", "no")
    assert item.beliefs == pytest.approx([0.0, 0.0, 0.0, 1.0])


@pytest.mark.parametrize("name", ["oil_wildcatter.xdsl", "oil_wildcatter.net", "oil_wildcatter.xmlbif"])
def test_diagram_files_of_other_tools_open_and_save_as_projects_and_their_own_format(window, tmp_path, name):
    """File ▸ Open reads GeNIe/Hugin/XMLBIF influence diagrams; Save keeps the decisions in a project (with the
    evidence) or in a diagram format, and refuses a BIF (which cannot hold them) in one message, saving nothing."""
    source = Path(__file__).resolve().parents[1] / "io" / "corpus" / "influence" / name
    assert window.files.open_path(source, ask=False)
    doc = window.document
    assert doc.decisions is not None and window.decision_panel.result.solution.expected_utility == pytest.approx(22.5)
    doc.set_evidence("Result", "closed")
    project = tmp_path / "oil.bnsproj"
    assert window.files.save_to(project) and not doc.unsaved_parts()
    assert window.files.open_path(project, ask=False)
    assert doc.decisions is not None and doc.evidence == {"Result": "closed"}
    expected = solve(load_diagram(str(source)), {"Result": "closed"}).expected_utility
    assert window.decision_panel.result.solution.expected_utility == pytest.approx(expected, abs=1e-9)
    net_file = tmp_path / "again.net"
    assert window.files.save_to(net_file)
    assert solve(load_diagram(str(net_file)), {}).expected_utility == pytest.approx(22.5, abs=1e-9)
    bif = tmp_path / "plain.bif"
    assert not window.files.save_to(bif) and not bif.exists()


def test_a_network_without_decisions_is_not_saved_as_a_diagram_json(window, tmp_path, no_dialogs):
    """Every save goes through Document.save; a .json holds an influence diagram only, so a plain network is
    refused there in one line, and nothing is written."""
    assert window.files.save_to(tmp_path / "plain.bif")
    assert not window.files.save_to(tmp_path / "plain.json")
    assert "holds an influence diagram and this network has no decisions" in no_dialogs[-1][3]
    assert not (tmp_path / "plain.json").exists() and window.document.path == tmp_path / "plain.bif"
