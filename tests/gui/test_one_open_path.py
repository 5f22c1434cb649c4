"""Every file opens through one path, an influence diagram's ``.json`` included: File ▸ Open, the recent-files
list, File ▸ Examples and the command line all read through ``file_io.read_file`` into the document (asking
about unsaved work, remembering the file, an example as an untitled copy, a bad file shown and dropped from the
recent list). There is no drag-and-drop in the window, so no drop path to test."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QFileDialog

import bnstudio.gui
from bnstudio.app import commands as cmd
from bnstudio.app import file_io
from bnstudio.app.resources import bundled_diagram, bundled_example, is_bundled_example
from bnstudio.gui import dialogs
from bnstudio.gui import settings as cfg
from bnstudio.gui.document import Document
from bnstudio.gui.file_controller import open_into
from bnstudio.io import read_model
from tests.gui.conftest import ASIA

OIL = bundled_diagram("oil_wildcatter.json")


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """The files read through file_io.read_file (the one reading path), by name."""
    seen: list[str] = []
    real = file_io.read_file

    def spy(path):
        seen.append(str(path))
        return real(path)

    monkeypatch.setattr(file_io, "read_file", spy)
    return seen


def shows_the_oil_decisions(window) -> bool:
    doc = window.document
    return (doc.decisions is not None and doc.decisions.decision_names == ("Test", "Drill")
            and window.decision_panel.meu.text() == "Maximum expected utility: 22.5"
            and window.docks["decisions"].isVisible() and window.summary_label.text() == "6 nodes · 7 arcs")


def oil_copy(tmp_path):
    copy = tmp_path / "oil.json"
    copy.write_bytes(OIL.read_bytes())
    return copy


def test_file_open_reads_a_json_diagram_through_the_one_path(window, tmp_path, monkeypatch, reads, settings):
    copy = oil_copy(tmp_path)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(copy), ""))
    assert window.files.open_dialog()
    assert reads == [str(copy)] and shows_the_oil_decisions(window)
    assert window.document.path == copy and window.windowTitle().startswith("oil")
    assert settings.value(cfg.RECENT_FILES)[0] == str(copy.resolve())
    assert settings.value(cfg.LAST_DIRECTORY) == str(tmp_path.resolve())


def test_the_recent_files_list_reopens_a_json_diagram_after_asking(window, tmp_path, monkeypatch, reads):
    copy = oil_copy(tmp_path)
    assert window.open_path(copy) and window.open_path(ASIA)
    window.document.execute(cmd.AddVariable(window.document, "New", ["a", "b"], (0, 0)))
    asked = []
    monkeypatch.setattr(dialogs, "ask_save_changes",
                        lambda parent, name, unsaved=None: asked.append(name) or dialogs.DISCARD)
    recent = next(a for a in window.menus["recent"].actions() if a.text() == "&1 oil.json")
    reads.clear()
    recent.trigger()
    assert asked and reads == [str(copy.resolve())] and shows_the_oil_decisions(window)


def test_a_broken_json_diagram_is_shown_and_leaves_the_recent_list(window, tmp_path, no_dialogs, settings):
    copy = oil_copy(tmp_path)
    assert window.open_path(copy) and window.open_path(ASIA)
    copy.write_text(copy.read_text().replace('"Oil", "states"', '"Oil", "sta'))
    assert not window.open_path(copy)
    assert no_dialogs and "oil.json" in no_dialogs[-1][2]      # the format error names the file
    assert "dysp" in window.document.network                    # nothing changed
    assert str(copy.resolve()) not in settings.value(cfg.RECENT_FILES)


def test_the_bundled_diagram_opens_from_examples_as_an_untitled_copy(window, reads, settings):
    assert is_bundled_example(OIL) and is_bundled_example(bundled_example("asia.bif"))
    action = next(a for a in window.menus["examples"].actions() if a.text() == "oil wildcatter (influence diagram)")
    action.trigger()
    assert reads == [str(OIL)] and shows_the_oil_decisions(window)
    assert window.document.path is None and window.windowTitle().startswith("oil wildcatter (example)")
    assert settings.value(cfg.RECENT_FILES) == []              # an example is not a recent file


def test_a_diagram_named_on_the_command_line_opens_the_same_way(window, reads, tmp_path):
    """``bnstudio gui FILE`` calls MainWindow.open_path (bnstudio.gui.app.open_window)."""
    copy = oil_copy(tmp_path)
    assert window.open_path(copy)
    assert reads == [str(copy)] and shows_the_oil_decisions(window)


CORPUS = Path(__file__).resolve().parents[1] / "io" / "corpus" / "influence"
DIAGRAM_FILES = [OIL, CORPUS / "oil_wildcatter.net", CORPUS / "oil_wildcatter.xdsl", CORPUS / "oil_wildcatter.xmlbif"]


def same_decisions(doc: Document, diagram) -> bool:
    """The document's decision part is the file's: decisions (order, informational parents) and utility nodes
    (parents, tables)."""
    part = doc.decisions
    return (part is not None and part.decisions == diagram.decisions
            and [(u.name, u.parents) for u in part.utilities] == [(u.name, u.parents) for u in diagram.utilities]
            and all(np.array_equal(a.table, b.table) for a, b in zip(part.utilities, diagram.utilities, strict=True))
            and set(diagram.network.variables) == set(doc.network.variables))


@pytest.mark.parametrize("path", DIAGRAM_FILES, ids=lambda p: p.suffix)
def test_an_influence_diagram_read_into_a_document_keeps_its_decisions(qtbot, path, tmp_path):
    """The one read path keeps the decision part of every diagram format, a project holding one included
    (Document.load, a third path used by panel tests, read only the network and dropped the decisions)."""
    doc = Document()
    assert open_into(doc, path) == []
    diagram = read_model(path)
    assert same_decisions(doc, diagram) and doc.path == path and not doc.modified
    project = tmp_path / "oil.bnsproj"
    doc.save(project)
    again = Document()
    open_into(again, project)
    assert same_decisions(again, diagram) and not again.modified


def test_files_are_read_into_the_app_in_one_place():
    """Only open_into reads a file into a document (and the recovery copy is read back by Recovery.restore)."""
    gui = Path(bnstudio.gui.__file__).parent
    readers = sorted(str(p.relative_to(gui)) for p in gui.rglob("*.py")
                     if "read_file(" in p.read_text(encoding="utf-8") and p.name != "file_io.py")
    assert readers == ["file_controller.py", "recovery.py"]
    assert not hasattr(Document, "load")
    source = (gui / "file_controller.py").read_text(encoding="utf-8")
    assert source.count("read_file(") == 1 and "def open_into" in source
