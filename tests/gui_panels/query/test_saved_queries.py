"""Saved queries live in document.project.queries, follow every network change, survive saving and
reopening the project, and export as CSV."""
from __future__ import annotations

import csv

import numpy as np
import pytest

from bnstudio.app import commands as cmd
from bnstudio.gui.document import Document
from bnstudio.gui.file_controller import open_into
from bnstudio.gui.query_panel import QueryPanel
from bnstudio.io.project import load_project, save_project
from bnstudio.uncertainty import error_bars


def _fill(panel):
    panel.set_evidence_mode("form", {"xray": "yes"})
    panel.set_target({"lung": "yes"})
    assert panel.save_current_query("lung given xray")
    panel.set_target({"tub": "yes", "either": "yes"})
    panel.set_evidence_mode("form", {})
    assert panel.save_current_query()


def test_saving_creates_the_project_and_lists_the_queries(make_panel, asia_mp):
    net, _ = asia_mp
    panel = make_panel(net)
    assert panel.document.project is None
    _fill(panel)
    project = panel.document.project
    assert project is not None and project.network is panel.document.network
    assert project.queries == [
        {"target": {"lung": "yes"}, "evidence": {"xray": "yes"}, "label": "lung given xray"},
        {"target": {"tub": "yes", "either": "yes"}, "evidence": {}, "label": "tub=yes, either=yes"}]
    rows = panel.saved_rows
    assert [r.answer.mean for r in rows] == pytest.approx(
        [error_bars(net, {"lung": "yes"}, {"xray": "yes"}).mean,
         error_bars(net, {"tub": "yes", "either": "yes"}, {}).mean], abs=1e-12)
    model = panel.saved_model
    assert model.rowCount() == 2 and model.index(0, 0).data() == "lung given xray"
    assert model.index(0, 3).data() == f"{rows[0].answer.mean:.4f}"


def test_saved_queries_reevaluate_after_a_cpt_change_and_its_undo(qtbot, make_panel, asia_mp):
    net, _ = asia_mp
    panel = make_panel(net)
    _fill(panel)
    doc = panel.document
    before = [r.answer.mean for r in panel.saved_rows]
    table = np.array(doc.network.cpt("lung"))
    table[0] = [0.5, 0.5]  # lung | smoke=yes
    assert doc.execute(cmd.SetCpt(doc, "lung", table))
    after = [r.answer.mean for r in panel.saved_rows]
    expected = error_bars(doc.network, {"lung": "yes"}, {"xray": "yes"})
    assert after[0] == pytest.approx(expected.mean, abs=1e-12) and after[0] != pytest.approx(before[0])
    assert panel.saved_rows[0].answer.bars.sd == pytest.approx(expected.sd, abs=1e-12)
    doc.undo_stack.undo()
    assert [r.answer.mean for r in panel.saved_rows] == pytest.approx(before, abs=1e-12)


def test_saved_queries_follow_a_rename_and_survive_save_and_load(qtbot, make_panel, asia_mp, tmp_path):
    net, _ = asia_mp
    panel = make_panel(net)
    _fill(panel)
    doc = panel.document
    assert doc.execute(cmd.RenameVariable(doc, "lung", "cancer"))
    assert doc.project.queries[0]["target"] == {"cancer": "yes"}
    qtbot.waitUntil(lambda: panel.saved_rows[0].target == {"cancer": "yes"})
    values = [r.answer.mean for r in panel.saved_rows]
    path = tmp_path / "asia.bnsproj"
    doc.save(path)
    assert load_project(path).queries == doc.project.queries
    save_project(load_project(path), tmp_path / "again.bnsproj")  # the section round-trips as it is
    reopened = Document()
    open_into(reopened, tmp_path / "again.bnsproj")
    other = QueryPanel(reopened)
    qtbot.addWidget(other)
    assert [r.label for r in other.saved_rows] == ["lung given xray", "tub=yes, either=yes"]
    assert [r.answer.mean for r in other.saved_rows] == pytest.approx(values, abs=1e-12)


def test_a_bare_variable_target_lists_each_state(make_panel, asia_mp):
    net, _ = asia_mp
    panel = make_panel(net)
    from bnstudio.io.project import project_from_network

    panel.document.project = project_from_network(panel.document.network)
    panel.document.project.queries.append({"target": "bronc", "evidence": {"smoke": "yes"}, "label": "bronc"})
    panel.refresh()
    assert [r.target for r in panel.saved_rows] == [{"bronc": "yes"}, {"bronc": "no"}]
    assert sum(r.answer.mean for r in panel.saved_rows) == pytest.approx(1.0)
    panel.remove_saved([1])
    assert panel.document.project.queries == [] and panel.saved_rows == []


def test_csv_export(make_panel, asia_mp, tmp_path):
    net, _ = asia_mp
    panel = make_panel(net)
    _fill(panel)
    path = tmp_path / "queries.csv"
    panel.export_csv(path)
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["label"] for r in rows] == ["lung given xray", "tub=yes, either=yes"]
    assert rows[0]["target"] == "lung=yes" and rows[0]["evidence"] == "xray=yes" and rows[1]["evidence"] == "—"
    expected = error_bars(net, {"lung": "yes"}, {"xray": "yes"}, 0.9)
    assert float(rows[0]["p"]) == expected.mean and float(rows[0]["sd"]) == pytest.approx(expected.sd, abs=1e-15)
    assert float(rows[0]["level"]) == 0.9
    assert (float(rows[0]["normal_low"]), float(rows[0]["normal_high"])) == pytest.approx(
        expected.intervals.normal_clipped, abs=1e-15)
    assert (float(rows[0]["beta_low"]), float(rows[0]["beta_high"])) == pytest.approx(
        expected.intervals.beta, abs=1e-15)
    assert rows[0]["bootstrap_low"] == ""
