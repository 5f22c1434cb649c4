"""The format registry (bnstudio/io/formats.py): every record's reader and writer round-trip a small network,
and what a record says it keeps (names, layout, counts, canonical models, diagrams) is what survives."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.core.canonical import NoisyMax, canonical_of, set_canonical
from bnstudio.decision import InfluenceDiagram
from bnstudio.errors import FormatError
from bnstudio.io import DIAGRAM_FORMATS, FORMATS, RECORDS, diagram_format_for, format_for
from tests.decision.helpers import oil
from tests.io.test_influence_io import assert_same_diagram

SAVABLE = [r for r in RECORDS if r.writer is not None and r.savable]


def small_network():
    """Two causes of a noisy-OR child, with positions and Dirichlet counts on a root."""
    net = network_from_dsl("A->C; B->C; C->D")
    net.set_cpt("A", [0.3, 0.7])
    net.set_cpt("D", [[0.9, 0.1], [0.25, 0.75]])
    set_canonical(net, "C", NoisyMax.noisy_or([0.8, 0.6], 0.1))
    net.positions = {"A": (10.0, 20.0), "B": (110.0, 20.0), "C": (60.0, 120.0), "D": (60.0, 220.0)}
    net.set_alpha("A", np.array([3.0, 7.0]))
    return net


def test_the_registry_views_list_each_record_under_each_of_its_extensions():
    assert FORMATS == {ext: r for r in RECORDS if r.reader is not None for ext in r.extensions}
    assert DIAGRAM_FORMATS == {ext: r for r in RECORDS if r.keeps_diagrams for ext in r.extensions}
    extensions = [ext for r in RECORDS for ext in r.extensions]
    assert len(extensions) == len(set(extensions))
    assert all(ext == ext.lower() and ext.startswith(".") for ext in extensions)
    for record in RECORDS:
        for ext in record.extensions:
            if record.reader is not None:
                assert format_for(f"Some.File{ext.upper()}") is record
            if record.keeps_diagrams:
                assert diagram_format_for(f"x{ext}") is record
    assert format_for("x.bif.gz").name == "BIF"  # the longest suffix wins
    with pytest.raises(FormatError, match="unknown file type"):
        format_for("x.json")  # a diagram-only format is no network format


@pytest.mark.parametrize("record", SAVABLE, ids=lambda r: r.name)
def test_every_record_round_trips_a_small_network_and_keeps_what_it_says(record, tmp_path):
    net = small_network()
    path = tmp_path / f"small{record.extensions[0]}"
    record.write(net, path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a clean file: nothing to repair
        back = record.read(path, strict=True)
    assert (set(back.variables) == set(net.variables)) == record.keeps_names
    names = ({v: v for v in net.variables} if record.keeps_names
             else dict(zip(net.variables, back.variables, strict=True)))
    for var in net.variables:
        assert back.states(names[var]) == net.states(var) or not record.keeps_names
        assert [names[p] for p in net.parents(var)] == list(back.parents(names[var]))
        np.testing.assert_allclose(back.cpt(names[var]), net.cpt(var), rtol=0, atol=1e-6)
    assert (back.positions == net.positions) == record.keeps_layout
    alpha = back.alpha(names["A"])
    assert (alpha is not None and np.array_equal(alpha, [3.0, 7.0])) == record.keeps_counts
    assert (canonical_of(back, names["C"]) is not None) == record.keeps_canonical


@pytest.mark.parametrize("record", [r for r in RECORDS if not r.savable], ids=lambda r: r.name)
def test_a_format_offered_for_opening_only_refuses_writing_in_one_line(record, tmp_path):
    with pytest.raises(FormatError) as info:
        record.write(small_network(), tmp_path / f"x{record.extensions[0]}")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("record", [r for r in RECORDS if r.keeps_diagrams], ids=lambda r: r.name)
def test_every_diagram_record_round_trips_an_influence_diagram(record, tmp_path):
    net, positions = oil().network, {"Oil": (10.0, 20.0), "Drill": (30.0, 40.0)}
    net.positions.update(positions)
    diagram = InfluenceDiagram(net, oil().decisions, oil().utilities, "oil")
    path = tmp_path / f"oil{record.extensions[0]}"
    record.write_diagram(diagram, path)
    back = record.read_model(path, strict=True)
    assert_same_diagram(back, diagram)
    assert (back.network.positions == positions) == record.keeps_layout


@pytest.mark.parametrize("record", [r for r in SAVABLE if not r.keeps_diagrams], ids=lambda r: r.name)
def test_a_record_without_decision_nodes_refuses_a_diagram(record, tmp_path):
    with pytest.raises(FormatError):
        record.write_diagram(oil(), tmp_path / f"oil{record.extensions[0]}")
