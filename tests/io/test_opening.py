"""The one open path (bnstudio/io/opening.py): what open_file gives for each kind of file, the one existence
and emptiness check, and read_network / read_model / load_project giving the same as it."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.decision import InfluenceDiagram
from bnstudio.errors import FormatError
from bnstudio.io import FORMATS, RECORDS, open_file, read_model, read_network, write_influence_diagram
from bnstudio.io.formats import PROJECT
from bnstudio.io.project import load_project, project_from_network, save_project
from tests.decision.helpers import oil

ROOT = Path(__file__).resolve().parents[2]
INFLUENCE = Path(__file__).parent / "corpus" / "influence"


def same_network(a, b) -> bool:
    return a.variables == b.variables and all(
        a.parents(v) == b.parents(v) and np.array_equal(a.cpt(v), b.cpt(v)) for v in a.variables)


def test_a_network_file_opens_as_a_network_as_read_network_reads_it():
    path = ROOT / "resources" / "networks" / "asia.bif"
    opened = open_file(path)
    assert opened.diagram is None and opened.project is None and opened.format is FORMATS[".bif"]
    assert opened.model is opened.network
    assert same_network(opened.network, read_network(path)) and same_network(opened.network, read_model(path))


def test_an_influence_diagram_opens_with_its_network_and_read_model_gives_the_diagram():
    path = INFLUENCE / "oil_wildcatter.net"
    opened = open_file(path)
    assert isinstance(opened.diagram, InfluenceDiagram) and opened.model is opened.diagram
    assert opened.diagram.to_dict() == read_model(path).to_dict()
    assert set(opened.network.variables) == set(opened.diagram.chance_names + opened.diagram.decision_names)
    with pytest.raises(FormatError, match="decision"):
        open_file(path, diagrams=False)  # the network reader refuses a diagram in one line


def test_a_project_opens_whole(tmp_path):
    net = network_from_dsl("A->B")
    project = project_from_network(net)
    project.evidence_sets["current"] = {"A": "s1"}
    save_project(project, tmp_path / "p.bnsproj")
    opened = open_file(tmp_path / "p.bnsproj")
    assert opened.format is PROJECT and opened.diagram is None
    assert opened.project.evidence_sets == load_project(tmp_path / "p.bnsproj").evidence_sets
    assert same_network(opened.network, net) and same_network(open_file(tmp_path / "p.bnsproj",
                                                                        diagrams=False).network, net)
    write_influence_diagram(oil(), tmp_path / "d.bnsproj")
    opened = open_file(tmp_path / "d.bnsproj")
    assert opened.project.diagram is opened.diagram and opened.diagram.to_dict() == oil().to_dict()


@pytest.mark.parametrize("ext", sorted({r.extensions[0] for r in RECORDS}))
def test_missing_and_empty_files_are_refused_in_one_line_for_every_format(ext, tmp_path):
    with pytest.raises(FormatError, match=r": no such file$"):
        open_file(tmp_path / f"missing{ext}")
    (tmp_path / f"empty{ext}").write_text("  \n")
    with pytest.raises(FormatError, match=r": the file (is empty|holds only white space)"):
        open_file(tmp_path / f"empty{ext}")


def test_an_unknown_extension_lists_the_network_formats(tmp_path):
    (tmp_path / "x.txt").write_text("A->B")
    with pytest.raises(FormatError, match=r"unknown file type; supported extensions: \.bif, "):
        open_file(tmp_path / "x.txt")
    with pytest.raises(FormatError, match="unknown file type"):
        open_file(tmp_path / "x.json", diagrams=False)  # the JSON form holds diagrams only
