"""Nothing the user made in a session is dropped without asking: New, Open, Examples and Quit ask about evidence,
data, training runs, saved queries, expert counts and a structure proposal, not only network edits; a
project save keeps them; the recovery copy holds them too.

(Seen: Ctrl+N dropped an ALARM session with evidence, expert counts and four runs without asking, because the
network itself was unchanged.)
"""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog

from bnstudio.gui import dialogs
from bnstudio.gui.main_window import MainWindow
from bnstudio.gui.panels import load_example_data
from bnstudio.gui.recovery import Recovery

from .conftest import ALARM, ASIA, NETWORKS


class Questions(list):
    """Every "unsaved changes" question as (title, parts), answered with :attr:`answer`."""

    answer = dialogs.CANCEL

    def __call__(self, parent, name, unsaved=None):
        self.append((name, list(unsaved or [])))
        return self.answer


@pytest.fixture
def asked(monkeypatch):
    questions = Questions()
    monkeypatch.setattr(dialogs, "ask_save_changes", questions)
    return questions


def open_example(qtbot, window: MainWindow, path=ASIA) -> None:
    """What `make run` does: the bundled example with its bundled data set (read in the background)."""
    assert window.open_path(path)
    with qtbot.waitSignal(window.data_panel.selection_changed, timeout=20000):
        assert load_example_data(window, path)
    qtbot.waitUntil(lambda: window.training_panel.selection is not None)


def train_ml(qtbot, window: MainWindow) -> None:
    panel = window.training_panel
    panel.options.set_method("ml")
    with qtbot.waitSignal(panel.run_finished, timeout=30000):
        assert panel.run() is not None


def learn_structure(qtbot, window: MainWindow) -> None:
    panel = window.structure_panel
    panel.options.set_options(algorithm="chow-liu")
    with qtbot.waitSignal(panel.result_ready, timeout=30000):
        assert panel.run() is not None


def test_a_fresh_example_with_its_data_has_nothing_unsaved(qtbot, window, asked):
    open_example(qtbot, window)
    assert window.document.unsaved_work() == [] and not window.isWindowModified()
    assert window.files.new_file() and asked == []


def test_the_alarm_session_of_the_report_is_not_dropped_by_new(qtbot, window, asked):
    open_example(qtbot, window, ALARM)
    doc = window.document
    doc.set_evidence("HRBP", "HIGH")
    window.query_panel.set_ess(10.0)
    for _ in range(4):
        train_ml(qtbot, window)
    assert window.isWindowModified()
    assert not window.files.new_file()                      # asked, and cancelled: nothing dropped
    title, parts = asked[-1]
    assert parts == ["evidence on 1 node", "4 training runs", "expert counts for the error bars (ESS 10)"]
    assert doc.evidence == {"HRBP": "HIGH"} and len(window.training_panel.runs) == 4
    assert not window.files.open_path(ASIA) and len(asked) == 2            # Open / Examples ask too
    window.menu_actions.quit.trigger()
    assert window.isVisible() and len(asked) == 3          # so does Quit
    asked.answer = dialogs.DISCARD
    assert window.files.new_file() and doc.evidence == {} and window.training_panel.runs == []


@pytest.mark.parametrize("make, expected", [
    (lambda qtbot, w: w.document.set_evidence("smoke", "yes"), "evidence on 1 node"),
    (lambda qtbot, w: train_ml(qtbot, w), "1 training run"),
    (lambda qtbot, w: (w.query_panel.set_target({"lung": "yes"}), w.query_panel.save_current_query()),
     "1 saved query"),
    (lambda qtbot, w: w.data_panel.split.test.setValue(30.0), "the data set and its preparation"),
    (lambda qtbot, w: learn_structure(qtbot, w), "a learned structure not yet accepted (files do not keep it)"),
    (lambda qtbot, w: w.query_panel.set_ess(25.0), "expert counts for the error bars (ESS 25)"),
])
def test_each_part_of_the_session_alone_makes_new_ask(qtbot, window, asked, make, expected):
    open_example(qtbot, window)
    make(qtbot, window)
    assert window.document.unsaved_work() == [expected] and window.isWindowModified()
    assert not window.files.new_file() and asked[-1][1] == [expected]


def test_undoing_a_part_back_to_its_saved_state_leaves_nothing_to_ask(qtbot, window, asked):
    open_example(qtbot, window)
    doc = window.document
    doc.set_evidence("smoke", "yes")
    assert doc.modified
    doc.set_evidence("smoke", None)
    assert not doc.modified and not window.isWindowModified()
    learn_structure(qtbot, window)
    window.structure_panel.discard()
    assert not doc.modified and window.files.new_file() and asked == []


def test_a_project_save_keeps_the_session_and_reopens_clean(qtbot, window, asked, tmp_path):
    open_example(qtbot, window)
    doc = window.document
    doc.set_evidence("smoke", "yes")
    train_ml(qtbot, window)
    window.query_panel.set_target({"lung": "yes"})
    window.query_panel.save_current_query()
    window.query_panel.set_ess(25.0)
    learn_structure(qtbot, window)
    path = tmp_path / "asia.bnsproj"
    assert window.files.save_to(path)
    assert doc.unsaved_work() == ["a learned structure not yet accepted (files do not keep it)"]
    window.structure_panel.discard()
    assert not doc.modified
    assert window.files.new_file() and asked == []
    with qtbot.waitSignal(window.data_panel.selection_changed, timeout=20000):
        assert window.open_path(path)
    qtbot.waitUntil(lambda: window.training_panel.selection is not None)
    assert doc.evidence == {"smoke": "yes"} and len(window.training_panel.runs) == 1
    assert len(doc.project.queries) == 1 and window.query_panel.controls.ess_value() == 25.0
    assert doc.unsaved_work() == [] and not window.isWindowModified()


def test_saving_a_network_file_with_session_work_offers_a_project(qtbot, window, asked, tmp_path, monkeypatch):
    bif = tmp_path / "asia.bif"
    bif.write_bytes(ASIA.read_bytes())
    assert window.open_path(bif)
    window.document.set_evidence("smoke", "yes")     # a BIF file cannot keep evidence
    offered = []

    def save_dialog(parent, caption, start, filters):
        offered.append(start)
        return str(tmp_path / "asia.bnsproj"), "BN Studio project (*.bnsproj)"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_dialog)
    assert window.files.save()
    assert offered == [str(tmp_path / "asia.bnsproj")]
    assert window.document.path == tmp_path / "asia.bnsproj" and not window.document.modified
    window.document.set_evidence("smoke", None)
    window.document.set_evidence("smoke", "no")
    assert window.files.save() and len(offered) == 1  # a project takes the evidence: plain Save


def test_saving_to_a_network_file_leaves_the_session_parts_unsaved(qtbot, window, asked, tmp_path):
    assert window.open_path(NETWORKS / "asia.bif")
    doc = window.document
    doc.set_evidence("smoke", "yes")
    assert window.files.save_to(tmp_path / "copy.bif")
    assert doc.unsaved_work() == ["evidence on 1 node"]   # the BIF file has the network, not the evidence


def test_the_recovery_copy_holds_the_whole_session(qtbot, window, asked, settings, tmp_path, monkeypatch):
    open_example(qtbot, window)
    doc, files = window.document, window.files
    files.recovery = Recovery(tmp_path / "rec")
    assert files.recovery.acquire()
    assert not files.autosave()                            # nothing unsaved: nothing written
    doc.set_evidence("smoke", "yes")                       # evidence alone is worth a copy
    assert files.autosave() and not files.autosave()
    train_ml(qtbot, window)
    window.query_panel.set_target({"lung": "yes"})
    window.query_panel.save_current_query()
    window.query_panel.set_ess(25.0)
    assert files.autosave()
    files.recovery._lock.unlock()                          # a crash: the copy stays, its lock goes
    files.recovery._lock = None

    monkeypatch.setattr(dialogs, "ask_restore", lambda *args: True)
    second = MainWindow(settings, Recovery(tmp_path / "rec"))
    second.show()
    second.files.start_recovery()
    qtbot.waitUntil(lambda: second.training_panel.selection is not None, timeout=20000)  # the data came back
    restored = second.document
    assert restored.evidence == {"smoke": "yes"} and len(second.training_panel.runs) == 1
    assert len(restored.project.queries) == 1 and second.query_panel.controls.ess_value() == 25.0
    assert second.data_panel.state.path == window.data_panel.state.path
    assert set(restored.unsaved_work()) >= {"network edits", "evidence on 1 node", "1 training run",
                                             "1 saved query", "expert counts for the error bars (ESS 25)"}
    restored.mark_saved()
    second.close()
