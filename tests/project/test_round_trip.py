"""Saving and loading ``.bnsproj`` files: exact round trips on the bundled networks, atomic saves."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

from bnstudio.errors import ValidationError
from bnstudio.io import read_network
from bnstudio.io.project import (
    Project,
    load_project,
    project_from_network,
    read_project_network,
    save_project,
    write_project_network,
)
from tests.project.conftest import NETWORKS, ROOT


def _decorated(path) -> Project:
    """A bundled network with everything a project stores filled in, with full-precision floats."""
    net = read_network(path)
    rng = np.random.default_rng(7)
    names = net.variables
    net.properties = {"source": path.name, "odd key: ü": "value with \"quotes\"\nand a line break"}
    for k, v in enumerate(names):
        net.positions[v] = (float(rng.normal(0, 300)), k * 0.1 + 0.2)  # 0.30000000000000004 and friends
        net.set_description(v, f"variable {k}: {v} — ünïcode")
    first, last = names[0], names[-1]
    shape = net.family_shape(last)
    net.set_cpt(last, rng.dirichlet(np.ones(shape[-1]), size=shape[:-1]))
    net.set_alpha(first, rng.gamma(2.0, 3.0, size=net.family_shape(first)))
    net.set_alpha(last, np.zeros(shape))
    soft = rng.random(net.cardinality(first)).tolist()
    return Project(
        network=net,
        evidence_sets={"hard": {last: net.states(last)[-1]}, "empty": {},
                       "soft and hard": {first: soft, names[1]: net.states(names[1])[0]}},
        queries=[{"target": last, "evidence": {first: net.states(first)[0]}, "label": "a query"},
                 {"target": {first: net.states(first)[1], last: net.states(last)[0]}, "evidence": {}, "label": ""}],
        runs=[{"method": "em", "settings": {"max_iterations": 50, "tolerance": 1e-8},
               "history": [{"iteration": i, "log_likelihood": -1000.0 / (i + 1)} for i in range(5)],
               "stop_reason": "converged", "nested": [[1, 2], [], {"a": None}]}],
        data={"path": "data/cases.csv", "settings": {"delimiter": ",", "missing": ["", "?"]}},
        view={"zoom": 1.5, "selected": [last], "panels": {"monitors": True}},
    )


@pytest.mark.parametrize("path", NETWORKS, ids=lambda p: p.stem)
def test_round_trip_is_exact(tmp_path, path, same_project):
    project = _decorated(path)
    target = tmp_path / "p.bnsproj"
    save_project(project, target)
    loaded = load_project(target)
    same_project(project, loaded)
    save_project(loaded, tmp_path / "again.bnsproj")
    assert (tmp_path / "again.bnsproj").read_bytes() == target.read_bytes()


@pytest.mark.parametrize("path", NETWORKS, ids=lambda p: p.stem)
def test_plain_network_round_trip(tmp_path, path, same_project):
    net = read_network(path)
    write_project_network(net, tmp_path / "n.bnsproj")
    same_project(project_from_network(net), project_from_network(read_project_network(tmp_path / "n.bnsproj")))
    loaded = load_project(tmp_path / "n.bnsproj")
    assert loaded.evidence_sets == {} and loaded.queries == [] and loaded.runs == [] and loaded.data is None


def test_file_is_readable_json_with_the_schema_version(tmp_path):
    save_project(_decorated(NETWORKS[0]), tmp_path / "p.bnsproj")
    text = (tmp_path / "p.bnsproj").read_text(encoding="utf-8")
    doc = json.loads(text)
    assert doc["format"] == "bnstudio-project" and doc["schema_version"] == 1
    assert list(doc) == ["format", "schema_version", "network", "evidence_sets", "queries", "runs", "data", "view"]
    assert "ü" in text  # UTF-8, not \u escapes
    assert '"states": [' in text and "NaN" not in text


def test_numpy_values_in_runs_are_stored_as_plain_json(tmp_path):
    project = project_from_network(read_network(NETWORKS[0]))
    project.runs = [{"history": np.array([1.5, 2.5]), "iterations": np.int64(3), "ok": np.bool_(True)}]
    save_project(project, tmp_path / "p.bnsproj")
    assert load_project(tmp_path / "p.bnsproj").runs == [{"history": [1.5, 2.5], "iterations": 3, "ok": True}]


@pytest.mark.parametrize("field, value, where", [
    ("runs", [{"loss": float("nan")}], "runs[0].loss"),
    ("view", {"size": float("inf")}, "view.size"),
    ("view", {1: "int key"}, "view"),
    ("view", {"obj": object()}, "view.obj"),
    ("evidence_sets", {"e": {"nope": "yes"}}, 'evidence_sets.e.nope'),
    ("queries", [{"target": "nope"}], "queries[0].target"),
])
def test_unsavable_projects_are_refused_and_nothing_is_written(tmp_path, field, value, where):
    project = project_from_network(read_network(NETWORKS[0]))
    setattr(project, field, value)
    with pytest.raises(ValidationError, match=where.replace("[", r"\[").replace("]", r"\]")):
        save_project(project, tmp_path / "p.bnsproj")
    assert list(tmp_path.iterdir()) == []


def test_save_is_atomic(tmp_path, monkeypatch):
    target = tmp_path / "p.bnsproj"
    save_project(_decorated(NETWORKS[0]), target)
    before = target.read_bytes()

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        save_project(_decorated(NETWORKS[1]), target)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.bnsproj"]  # no temporary file left


def test_relative_data_path_resolves_against_the_project_folder(tmp_path):
    project = project_from_network(read_network(NETWORKS[0]))
    assert project.data_file(tmp_path / "p.bnsproj") is None
    project.data = {"path": "cases.csv", "settings": {}}
    assert project.data_file(tmp_path / "p.bnsproj") == tmp_path / "cases.csv"
    project.data = {"path": str(tmp_path / "elsewhere" / "x.csv"), "settings": {}}
    assert project.data_file("/some/where/p.bnsproj") == tmp_path / "elsewhere" / "x.csv"


def test_the_documented_example_loads(tmp_path):
    doc = (ROOT / "docs" / "project-format.md").read_text(encoding="utf-8")
    example = doc.split("## A complete example")[1].split("```json")[1].split("```")[0]
    (tmp_path / "rain.bnsproj").write_text(example, encoding="utf-8")
    project = load_project(tmp_path / "rain.bnsproj")
    assert project.network.parents("Wet") == ("Rain",) and project.network.alpha("Rain").tolist() == [2.0, 8.0]
    assert project.data_file(tmp_path / "rain.bnsproj") == tmp_path / "rain.csv"
