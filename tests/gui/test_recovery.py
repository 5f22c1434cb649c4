"""Crash recovery: an autosaved copy is offered at the next start after a crash, and removed on a clean exit."""
from __future__ import annotations

import numpy as np

from bnstudio.gui import commands as cmd
from bnstudio.gui import dialogs
from bnstudio.gui.main_window import MainWindow
from bnstudio.gui.recovery import Recovery

from tests.gui.conftest import sprinkler


def _start(qtbot, settings, folder, monkeypatch, answer: bool):
    offers = []
    monkeypatch.setattr(dialogs, "ask_restore", lambda parent, source, saved_at: offers.append(source) or answer)
    win = MainWindow(settings, Recovery(folder))
    win.show()
    win.files.start_recovery()
    return win, offers


def _crash(win: MainWindow) -> None:
    """What a crash leaves: the recovery copy on disk and a lock whose owner is gone."""
    win.files.autosave_timer.stop()
    win.files.recovery._lock.unlock()  # the lock file vanishes with the process; the copy stays
    win.files.recovery._lock = None
    win.document.undo_stack.setClean()
    win.hide()
    win.deleteLater()


def test_recovery_copy_is_offered_after_a_crash_and_restores_the_work(qtbot, settings, tmp_path, monkeypatch):
    folder = tmp_path / "recovery"
    win, offers = _start(qtbot, settings, folder, monkeypatch, answer=True)
    assert offers == []  # nothing to offer on a first start
    win.document.replace_network(sprinkler())
    doc = win.document
    doc.execute(cmd.RenameVariable(doc, "Rain", "Showers"))
    doc.execute(cmd.SetCpt(doc, "Cloudy", np.array([0.3, 0.3])))  # unnormalised rows survive too
    doc.set_evidence("Wet", "yes")
    assert win.files.autosave()
    assert not win.files.autosave()  # unchanged since: nothing written
    _crash(win)

    win2, offers = _start(qtbot, settings, folder, monkeypatch, answer=True)
    assert offers == [None]
    net = win2.document.network
    assert "Showers" in net and list(net.cpt("Cloudy")) == [0.3, 0.3]
    assert win2.document.evidence == {"Wet": "yes"}
    assert win2.document.modified and win2.isWindowModified()
    assert not (folder / "autosave.bnsproj").exists()  # offered once
    win2.document.undo_stack.setClean()
    win2.close()


def test_a_clean_exit_deletes_the_copy(qtbot, settings, tmp_path, monkeypatch):
    folder = tmp_path / "recovery"
    win, _ = _start(qtbot, settings, folder, monkeypatch, answer=True)
    win.document.replace_network(sprinkler())
    win.document.execute(cmd.RenameVariable(win.document, "Rain", "Showers"))
    assert win.files.autosave() and (folder / "autosave.bnsproj").exists()
    monkeypatch.setattr(dialogs, "ask_save_changes", lambda parent, name: dialogs.DISCARD)
    assert win.close()
    assert not (folder / "autosave.bnsproj").exists()
    win2, offers = _start(qtbot, settings, folder, monkeypatch, answer=True)
    assert offers == []
    win2.close()


def test_declining_discards_the_copy(qtbot, settings, tmp_path, monkeypatch):
    folder = tmp_path / "recovery"
    win, _ = _start(qtbot, settings, folder, monkeypatch, answer=False)
    win.document.replace_network(sprinkler())
    win.document.execute(cmd.RenameVariable(win.document, "Rain", "Showers"))
    win.files.autosave()
    _crash(win)
    win2, offers = _start(qtbot, settings, folder, monkeypatch, answer=False)
    assert offers == [None] and "Showers" not in win2.document.network
    assert not (folder / "autosave.bnsproj").exists()
    win2.close()


def test_a_second_live_session_does_not_take_the_slot(tmp_path):
    first, second = Recovery(tmp_path), Recovery(tmp_path)
    assert first.acquire()
    assert not second.acquire()
    first.release()
    assert second.acquire()
    second.release()
