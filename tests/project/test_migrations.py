"""Old project files keep loading: a hand-written fixture per schema version, migrations applied in order.

To bump the schema to N + 1: register ``MIGRATIONS[N]`` and raise ``SCHEMA_VERSION`` in
``bnstudio/io/project/schema.py``, save the asia project with the new version as ``data/v{N+1}_asia.bnsproj``
and add its line to ``FIXTURES``. The old fixtures are never edited.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from bnstudio.io import read_network
from bnstudio.io.project import Project, load_project, save_project, schema
from bnstudio.io.project.notes import Note
from tests.project.conftest import DATA, ROOT

#: schema version -> a project file written with that schema (content described by _check_asia_project)
FIXTURES = {
    1: "v1_asia.bnsproj",
    2: "v2_asia.bnsproj",   # v1 plus a canonical model (deterministic 'either'), a key schema 2 introduced
    3: "v3_asia.bnsproj",   # v2 plus two text notes on the drawing, the key schema 3 introduced
}


def _check_asia_project(project: Project, version: int = 1) -> None:
    net = project.network
    if version >= 2:
        assert net.canonical["either"].to_json() == {"kind": "deterministic", "states": [[0, 0], [0, 1]], "card": 2}
    else:
        assert net.canonical == {}
    reference = read_network(ROOT / "resources" / "networks" / "asia.bif")
    assert net.name == "asia"
    assert net.variables == reference.variables
    for v in net.variables:
        assert net.states(v) == reference.states(v) and net.parents(v) == reference.parents(v)
        assert np.array_equal(net.cpt(v), reference.cpt(v)), v
    assert net.properties == {"source": "Lauritzen and Spiegelhalter (1988)", "dysp.note": "shortness of breath"}
    assert net.variable("either").description == "tuberculosis or lung cancer"
    assert net.positions["xray"] == (60.0, 320.0) and len(net.positions) == 8
    assert np.array_equal(net.alpha("smoke"), [50.0, 50.0])
    assert np.array_equal(net.alpha("xray"), [[9.8, 0.2], [2.5, 47.5]])
    assert net.alpha("asia") is None
    assert project.evidence_sets == {"smoker with dyspnoea": {"smoke": "yes", "dysp": "yes"},
                                     "uncertain x-ray": {"xray": [0.8, 0.2]}}
    assert project.queries == [
        {"target": "lung", "evidence": {"xray": "yes"}, "label": "lung cancer given a positive x-ray"},
        {"target": {"tub": "yes", "lung": "no"}, "evidence": {}, "label": ""}]
    assert project.runs[0]["stop_reason"] == "converged" and len(project.runs[0]["history"]) == 2
    assert project.data == {"path": "asia.csv", "settings": {"missing": ["", "?"]}}
    assert project.view == {"zoom": 1.25, "show_monitors": True}
    if version >= 3:
        assert project.notes == [Note("Chest clinic (Lauritzen & Spiegelhalter 1988)", -20.0, -80.0, 240.0),
                                 Note("x-ray cannot tell\ntuberculosis from cancer", 200.0, 330.0, 180.0)]
    else:
        assert project.notes == []                  # an old file without notes opens with none


@pytest.mark.parametrize("version, name", sorted(FIXTURES.items()))
def test_every_old_fixture_still_loads(version, name, tmp_path):
    path = DATA / name
    assert json.loads(path.read_text(encoding="utf-8"))["schema_version"] == version
    project = load_project(path)
    _check_asia_project(project, version)
    # saving writes the oldest schema that holds the project: each fixture uses what its schema introduced
    save_project(project, tmp_path / "upgraded.bnsproj")
    assert json.loads((tmp_path / "upgraded.bnsproj").read_text())["schema_version"] == version
    _check_asia_project(load_project(tmp_path / "upgraded.bnsproj"), version)


def test_there_is_a_fixture_per_version_and_a_migration_per_step():
    assert set(FIXTURES) == set(range(1, schema.SCHEMA_VERSION + 1))
    assert set(schema.MIGRATIONS) == set(range(1, schema.SCHEMA_VERSION))


def test_migrations_run_in_order_up_to_the_current_version(monkeypatch):
    """A simulated future with schemas 2 and 3: a v1 file passes through both migrations, in order."""
    calls = []

    def one_to_two(doc):
        calls.append(1)
        doc["view"]["seen_by"] = [doc["schema_version"]]
        return doc

    def two_to_three(doc):
        calls.append(2)
        doc["view"]["seen_by"].append(doc["schema_version"])
        doc["queries"] = [dict(q, label=q["label"].upper()) for q in doc["queries"]]
        return doc

    monkeypatch.setattr(schema, "SCHEMA_VERSION", 3)
    monkeypatch.setattr(schema, "MIGRATIONS", {1: one_to_two, 2: two_to_three})   # (the real 3 replaced)
    project = load_project(DATA / FIXTURES[1])
    assert calls == [1, 2]
    assert project.view["seen_by"] == [1, 2]
    assert project.queries[0]["label"] == "LUNG CANCER GIVEN A POSITIVE X-RAY"


def test_a_missing_migration_is_a_bug_not_a_file_error(monkeypatch):
    monkeypatch.setattr(schema, "SCHEMA_VERSION", 2)
    monkeypatch.setattr(schema, "MIGRATIONS", {})
    with pytest.raises(RuntimeError, match="no migration from project schema 1 to 2"):
        load_project(DATA / FIXTURES[1])
