"""Crash recovery: an autosaved copy is offered at the next start after a crash, and removed on a clean exit."""
from __future__ import annotations

import numpy as np

from bnstudio.app import commands as cmd
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
    win.document.mark_saved()
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
    win2.document.mark_saved()
    win2.close()


def test_a_clean_exit_deletes_the_copy(qtbot, settings, tmp_path, monkeypatch):
    folder = tmp_path / "recovery"
    win, _ = _start(qtbot, settings, folder, monkeypatch, answer=True)
    win.document.replace_network(sprinkler())
    win.document.execute(cmd.RenameVariable(win.document, "Rain", "Showers"))
    assert win.files.autosave() and (folder / "autosave.bnsproj").exists()
    monkeypatch.setattr(dialogs, "ask_save_changes", lambda parent, name, unsaved=None: dialogs.DISCARD)
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


def test_each_live_session_takes_its_own_slot(tmp_path):
    first, second = Recovery(tmp_path), Recovery(tmp_path)
    assert first.acquire() and second.acquire()
    assert first.copy_path.parent == tmp_path and second.copy_path.parent == tmp_path / "slot-1"
    second.release()
    third = Recovery(tmp_path)
    assert third.acquire() and third.slot == tmp_path / "slot-1"      # a freed slot is taken again
    first.release()
    third.release()


def test_all_slots_taken_means_no_recovery_for_one_more(tmp_path):
    from bnstudio.gui.recovery import SLOTS
    live = [Recovery(tmp_path) for _ in range(SLOTS)]
    assert all(r.acquire() for r in live)
    assert not Recovery(tmp_path).acquire()
    for r in live:
        r.release()


def test_a_crashed_second_window_is_offered_at_the_next_start(qtbot, settings, tmp_path, monkeypatch):
    """Two windows autosave in different slots; the second crashes, the first exits cleanly: the next start
    takes the first slot and still finds the second window's work."""
    folder = tmp_path / "recovery"
    first, _ = _start(qtbot, settings, folder, monkeypatch, answer=True)
    second, _ = _start(qtbot, settings, folder, monkeypatch, answer=True)
    assert second.files.recovery.slot == folder / "slot-1"
    for win, name in ((first, "First"), (second, "Second")):
        win.document.replace_network(sprinkler())
        win.document.execute(cmd.RenameVariable(win.document, "Rain", name))
        assert win.files.autosave()
    _crash(second)
    monkeypatch.setattr(dialogs, "ask_save_changes", lambda parent, name, unsaved=None: dialogs.DISCARD)
    assert first.close()                                   # clean exit: its own copy goes
    third, offers = _start(qtbot, settings, folder, monkeypatch, answer=True)
    assert third.files.recovery.slot == folder and offers == [None]
    assert "Second" in third.document.network
    assert not (folder / "slot-1" / "autosave.bnsproj").exists()
    third.document.mark_saved()
    third.close()


def test_a_live_window_keeps_its_copy(tmp_path):
    first, second = Recovery(tmp_path), Recovery(tmp_path)
    assert first.acquire()
    first.save(sprinkler(), {}, None)
    assert second.acquire() and second.pending() is None       # first is alive: its copy is not an orphan
    assert first.copy_path.exists() and first.pending() is not None
    second.release()
    first.release()
