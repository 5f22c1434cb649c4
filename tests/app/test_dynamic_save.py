"""Saving a two-slice network as ``.xdsl`` writes GeNIe's dynamic form (bnstudio/app/file_io.py, docs/temporal.md
"GeNIe's dynamic XDSL"): the slice count given (or read with it), the same 2TBN on reopening; a plain network
stays plain XDSL, and a 2TBN the dynamic form cannot hold is saved plain with a warning saying why."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from bnstudio.app import file_io
from bnstudio.app.document import Document
from bnstudio.app.resources import demo_network
from bnstudio.io import read_network
from bnstudio.temporal import from_network, two_slice_network
from tests.temporal.test_xdsl import SAMPLE, assert_same

TEMPORAL = Path(__file__).resolve().parents[2] / "resources" / "networks" / "temporal"


def said(document: Document) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    document.message.connect(lambda level, text: out.append((level, text)))
    return out


def test_a_2tbn_saved_as_xdsl_is_a_genie_dynamic_network_that_reopens_the_same(tmp_path):
    net = read_network(TEMPORAL / "umbrella.bif")
    document = Document(net)
    messages = said(document)
    path = tmp_path / "umbrella.xdsl"
    document.save(path, slices=7)
    text = path.read_text(encoding="utf-8")
    assert text.count('dynamic="plate"') == 2 and '<dynamic numslices="7">' in text and "Rain0" not in text
    assert messages == [] and document.path == path and not document.modified
    back = file_io.read_file(path).network
    assert_same(from_network(back), from_network(net))
    assert back.properties["numslices"] == "7"


def test_the_slice_count_read_with_the_file_is_written_when_none_is_given(tmp_path):
    source = tmp_path / "rain.xdsl"
    source.write_text(SAMPLE, encoding="utf-8")
    document = Document(file_io.read_file(source).network)
    document.save(tmp_path / "copy.xdsl")
    assert '<dynamic numslices="5">' in (tmp_path / "copy.xdsl").read_text(encoding="utf-8")
    assert_same(from_network(read_network(tmp_path / "copy.xdsl")), from_network(read_network(source)))


def test_a_plain_network_and_other_formats_are_written_as_before(tmp_path):
    Document(demo_network()).save(tmp_path / "asia.xdsl", slices=4)
    assert "dynamic" not in (tmp_path / "asia.xdsl").read_text(encoding="utf-8")
    Document(read_network(TEMPORAL / "umbrella.bif")).save(tmp_path / "umbrella.net", slices=4)
    assert set(read_network(tmp_path / "umbrella.net").variables) == {"Rain0", "Raint", "Umbrella0", "Umbrellat"}


def test_a_2tbn_genie_cannot_hold_is_saved_plain_and_the_reason_said(tmp_path):
    b = ["yes", "no"]   # Umbrella has no parent in slice t-1 but another table in slice t: GeNIe cannot say so
    tbn = two_slice_network({"Rain": b, "Umbrella": b},
                            initial={"Rain": ((), [0.5, 0.5]), "Umbrella": (("Rain",), [[0.9, 0.1], [0.2, 0.8]])},
                            transition={"Rain": ((("Rain", 1),), [[0.7, 0.3], [0.3, 0.7]]),
                                        "Umbrella": ((("Rain", 0),), [[0.8, 0.2], [0.1, 0.9]])})
    document = Document(tbn.to_network())
    messages = said(document)
    path = tmp_path / "odd.xdsl"
    document.save(path, slices=3)
    assert len(messages) == 1 and messages[0][0] == "warning"
    assert "odd.xdsl" in messages[0][1] and "plain XDSL" in messages[0][1] and "'Umbrella'" in messages[0][1]
    assert "dynamic" not in path.read_text(encoding="utf-8") and not document.modified
    back = from_network(read_network(path))
    assert_same(back, tbn)
    assert np.array_equal(back.transition_cpt("Umbrella"), tbn.transition_cpt("Umbrella"))
