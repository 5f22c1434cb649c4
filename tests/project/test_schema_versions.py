"""Which schema a project is written with, and who can read it: a project is written with the oldest schema that
holds it (1 unless it has an influence diagram's ``decision`` part or a ``canonical`` model: 2; text notes: 3),
so an older BN Studio opens what it can and refuses the rest with "written by a newer BN Studio" instead of an
unknown-key error; this build reads schema 1 (those keys included: the builds that introduced them wrote schema
1), 2 and 3; a future schema is refused in one line, by the library and by the command line."""
from __future__ import annotations

import json

import numpy as np
import pytest

from bnstudio.cli import main
from bnstudio.core import network_from_dsl
from bnstudio.core.canonical import NoisyMax
from bnstudio.io.project import (
    ProjectFormatError,
    load_project,
    project_from_diagram,
    project_from_network,
    project_to_json,
    save_project,
    schema,
)
from bnstudio.io.project.notes import Note
from tests.decision.helpers import oil
from tests.project.conftest import DATA


def noisy_or_network():
    """A -> C <- B with C a leaky noisy-OR (expanded CPT and the model beside it)."""
    net = network_from_dsl("A,B->C", seed=0)
    model = NoisyMax((np.array([[0.8, 0.2], [0.0, 1.0]]), np.array([[0.6, 0.4], [0.0, 1.0]])),
                     np.array([0.1, 0.9]), (1, 1))
    net.set_cpt("C", model.expand())
    net.canonical["C"] = model
    return net


def written_version(project, tmp_path) -> int:
    save_project(project, tmp_path / "p.bnsproj")
    return json.loads((tmp_path / "p.bnsproj").read_text(encoding="utf-8"))["schema_version"]


def test_only_a_project_using_the_new_keys_is_written_as_schema_2(tmp_path):
    assert written_version(project_from_network(network_from_dsl("A->B")), tmp_path) == 1
    assert written_version(project_from_network(noisy_or_network()), tmp_path) == 2
    assert written_version(project_from_diagram(oil()), tmp_path) == 2
    assert schema.SCHEMA_VERSION == 3


def test_only_a_project_with_notes_is_written_as_schema_3_and_a_schema_2_build_refuses_it(tmp_path, monkeypatch):
    project = project_from_network(network_from_dsl("A->B"))
    project.notes = [Note("a note", 10.0, -40.0)]
    assert written_version(project, tmp_path) == 3
    assert load_project(tmp_path / "p.bnsproj").notes == project.notes
    project.notes = []
    assert written_version(project, tmp_path) == 1
    project.notes = [Note("again", 0.0, 0.0)]
    save_project(project, tmp_path / "p.bnsproj")
    monkeypatch.setattr(schema, "SCHEMA_VERSION", 2)
    monkeypatch.setattr(schema, "MIGRATIONS", {1: schema.MIGRATIONS[1]})
    with pytest.raises(ProjectFormatError, match=r"written by a newer BN Studio \(schema 3\); this version reads up "
                                                 r"to 2$"):
        load_project(tmp_path / "p.bnsproj")


def test_schema_1_files_read_also_with_the_keys_the_last_schema_1_builds_wrote(tmp_path):
    plain = load_project(DATA / "v1_asia.bnsproj")
    assert plain.diagram is None and plain.network.name == "asia"
    for project in (project_from_diagram(oil()), project_from_network(noisy_or_network())):
        doc = project_to_json(project)
        doc["schema_version"] = 1
        (tmp_path / "old.bnsproj").write_text(json.dumps(doc), encoding="utf-8")
        back = load_project(tmp_path / "old.bnsproj", strict=True)
        assert project_to_json(back) == project_to_json(project)


@pytest.mark.parametrize("project", [project_from_diagram(oil()), project_from_network(noisy_or_network())],
                         ids=["decision", "canonical"])
def test_an_older_build_refuses_the_new_keys_as_a_newer_file(project, tmp_path, monkeypatch):
    """What a schema-1 build does with the file (its migrate checks the version before any key)."""
    save_project(project, tmp_path / "new.bnsproj")
    monkeypatch.setattr(schema, "SCHEMA_VERSION", 1)
    monkeypatch.setattr(schema, "MIGRATIONS", {})
    with pytest.raises(ProjectFormatError) as info:
        load_project(tmp_path / "new.bnsproj")
    assert str(info.value) == (f"{tmp_path / 'new.bnsproj'}: schema_version: written by a newer BN Studio "
                               f"(schema 2); this version reads up to 1")


def test_a_future_schema_is_refused_in_one_line(tmp_path, capsys):
    doc = json.loads((DATA / "v3_asia.bnsproj").read_text(encoding="utf-8"))
    doc["schema_version"] = 4
    doc["network"]["colour_theme"] = "what schema 4 might add"
    path = tmp_path / "future.bnsproj"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ProjectFormatError, match=r"written by a newer BN Studio \(schema 4\); this version "
                                                 r"reads up to 3$"):
        load_project(path)
    assert main(["info", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bnstudio: error: ") and "written by a newer BN Studio" in err
