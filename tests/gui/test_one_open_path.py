"""Every file opens through one path, an influence diagram's ``.json`` included: File ▸ Open, the recent-files
list, File ▸ Examples and the command line all read through ``file_io.read_file`` into the document (asking
about unsaved work, remembering the file, an example as an untitled copy, a bad file shown and dropped from the
recent list). There is no drag-and-drop in the window, so no drop path to test."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog

from bnstudio.gui import commands as cmd
from bnstudio.gui import dialogs, file_io
from bnstudio.gui import settings as cfg
from bnstudio.gui.resources import bundled_diagram, bundled_example, is_bundled_example

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
