"""The decision part of a project (the ``"decision"`` key): an influence diagram survives save -> load, a
project without the key (every project written before it) opens as a Bayesian network, and a broken decision
part is one error naming its JSON path."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bnstudio.errors import FormatError
from bnstudio.io.project import (
    ProjectFormatError,
    load_project,
    project_from_diagram,
    project_to_json,
    read_project_network,
    save_project,
)
from tests.decision.helpers import oil, random_diagram

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("diagram", [oil(), random_diagram(3), random_diagram(4, n_decisions=3)],
                         ids=["oil", "random3", "random4"])
def test_an_influence_diagram_survives_save_and_load(diagram, tmp_path):
    project = project_from_diagram(diagram)
    project.evidence_sets["tested"] = {diagram.decision_names[0]: diagram.states(diagram.decision_names[0])[0]}
    save_project(project, tmp_path / "d.bnsproj")
    back = load_project(tmp_path / "d.bnsproj", strict=True)
    assert back.diagram is not None and back.diagram.to_dict() == diagram.to_dict()
    assert back.network.variables == diagram.network.variables
    assert back.evidence_sets == project.evidence_sets


def test_a_bayesian_network_project_has_no_decision_key(tmp_path):
    project = load_project(next(DATA.glob("*.bnsproj")))
    assert project.diagram is None
    assert "decision" not in project_to_json(project)


def test_every_older_project_still_opens_without_a_diagram():
    files = sorted(DATA.glob("*.bnsproj"))
    assert files
    for path in files:
        try:
            project = load_project(path)
        except FormatError:
            continue  # fixtures of refused files
        assert project.diagram is None, path


def broken(tmp_path, change) -> str:
    doc = project_to_json(project_from_diagram(oil()))
    change(doc["decision"])
    path = tmp_path / "bad.bnsproj"
    path.write_text(json.dumps(doc))
    with pytest.raises(ProjectFormatError) as info:
        load_project(path)
    assert "\n" not in str(info.value)
    return str(info.value)


def test_a_broken_decision_part_names_its_json_path(tmp_path):
    assert "decision.utilities[1].table[0]: expected 3 entries (states of 'Oil'), got 2" in broken(
        tmp_path, lambda d: d["utilities"][1].__setitem__("table", [[1, 2], [3, 4]]))
    assert "decision.utilities[0].parents: unknown parent 'Nope' of 'TestCost'" in broken(
        tmp_path, lambda d: d["utilities"][0].__setitem__("parents", ["Nope"]))
    assert "decision: decision 'Nope' is not a variable of the network" in broken(
        tmp_path, lambda d: d["decisions"].append({"name": "Nope", "parents": []}))
    assert "decision.decisions[0].extra: unknown key" in broken(
        tmp_path, lambda d: d["decisions"][0].__setitem__("extra", 1))
    assert "decision 'Test' is listed after 'Drill' but there is a directed path from 'Test' to 'Drill'" in broken(
        tmp_path, lambda d: d["decisions"].reverse())
    assert "expected a finite utility" in broken(
        tmp_path, lambda d: d["utilities"][0].__setitem__("table", [1e999, 0]))


def test_the_network_reader_refuses_a_project_holding_a_diagram(tmp_path):
    save_project(project_from_diagram(oil()), tmp_path / "d.bnsproj")
    with pytest.raises(FormatError, match="is an influence diagram .decision node 'Test'"):
        read_project_network(tmp_path / "d.bnsproj")
