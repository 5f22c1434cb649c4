"""Issue 42 item 10: a saved window layout with one changed byte crashed the app at every start (Qt's
restoreState trusts its bytes). A layout that is not the one the app wrote is discarded with one message and
the window opens with the default layout; the layout the app wrote is restored as before."""
from __future__ import annotations

import shutil

from PySide6.QtCore import QByteArray, QSettings

from bnstudio.app.layout_check import DISCARDED, layout_digest, layout_problem
from bnstudio.gui import settings as cfg
from tests.gui.layout_damage import results, run_windows


def _saved(tmp_path):
    path = tmp_path / "saved.ini"
    [report] = results(run_windows("save", path))
    assert report["left"]
    return path


def _edit_state(path, edit) -> None:
    settings = cfg.Settings(QSettings(str(path), QSettings.IniFormat))
    state = bytearray(bytes(settings.value(cfg.WINDOW_STATE)))
    settings.set_value(cfg.WINDOW_STATE, QByteArray(bytes(edit(state))))
    settings.sync()


def _flip(index: int, value: int):
    def edit(state):
        assert state[index] != value   # a change
        state[index] = value
        return state
    return edit


def test_the_layout_the_app_wrote_is_restored_without_a_word(tmp_path):
    [report] = results(run_windows("open", _saved(tmp_path)))
    assert report["left"] and report["message"] == ""


def test_one_changed_byte_is_discarded_with_one_message_instead_of_a_crash(tmp_path):
    saved = _saved(tmp_path)
    damaged = []
    for index, value in ((13, 255), (9, 255), (40, 0x5A)):   # byte 13 = 255 crashed Qt 6 (exit 139)
        path = tmp_path / f"flip{index}.ini"
        shutil.copy(saved, path)
        _edit_state(path, _flip(index, value))
        damaged.append(path)
    reports = results(run_windows("open", *damaged))
    for report in reports:
        assert not report["left"], report                       # the default layout
        assert report["message"].startswith(DISCARDED) and "\n" not in report["message"]
        assert report["state"] == 0                            # the damaged bytes left the settings file
    again = results(run_windows("open", damaged[0]))           # and it is said once, not at every start
    assert again[0]["message"] == "", again


def test_layout_problem_judges_the_bytes_against_the_digest():
    geometry, state = b"\x01\xd9\xd0\xcb" + bytes(40), b"\x00\x00\x00\xff" + bytes(60)
    digest = layout_digest(geometry, state)
    assert layout_problem(geometry, state, digest) is None
    assert layout_problem(b"", b"", "") is None                       # nothing saved yet
    assert "no digest" in layout_problem(geometry, state, "")
    for k in range(len(state)):
        changed = bytearray(state)
        changed[k] ^= 0x01
        assert "differ" in layout_problem(geometry, bytes(changed), digest)
    assert layout_problem(geometry, state[:-1], digest) is not None  # cut short
    assert layout_problem(geometry + state[:1], state[1:], digest) is not None  # bytes moved across
