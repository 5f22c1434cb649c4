"""Settings go through declared keys and persist window geometry, dock state, recent files, view options."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QByteArray, QSettings

from bnstudio.gui import settings as cfg
from bnstudio.gui.main_window import MainWindow
from bnstudio.gui.recovery import Recovery


def test_every_key_is_declared_with_a_default_of_its_type():
    for key in cfg.KEYS.values():
        assert isinstance(key.default, key.type), key.name
    with pytest.raises(KeyError):
        cfg.Settings(QSettings()).value(cfg.Key("nope", str, ""))


def test_values_round_trip_through_an_ini_file(tmp_path):
    path = str(tmp_path / "s.ini")
    s = cfg.Settings(QSettings(path, QSettings.IniFormat))
    s.add_recent_file("/a.bif")
    s.add_recent_file("/b.bif")
    s.add_recent_file("/a.bif")
    s.set_value(cfg.NODE_STYLE, "compact")
    s.set_value(cfg.AUTOSAVE_SECONDS, 30)
    s.sync()
    again = cfg.Settings(QSettings(path, QSettings.IniFormat))
    assert again.value(cfg.RECENT_FILES) == ["/a.bif", "/b.bif"]
    assert again.value(cfg.NODE_STYLE) == "compact" and again.value(cfg.AUTOSAVE_SECONDS) == 30
    again.remove_recent_file("/b.bif")
    assert again.value(cfg.RECENT_FILES) == ["/a.bif"]  # a one-element list stays a list
    assert isinstance(again.value(cfg.WINDOW_GEOMETRY), QByteArray)


def test_window_restores_geometry_docks_and_view(qtbot, tmp_path):
    path = str(tmp_path / "s.ini")
    win = MainWindow(cfg.Settings(QSettings(path, QSettings.IniFormat)), Recovery(tmp_path / "r"))
    win.resize(700, 500)  # within the offscreen screen (restoreGeometry clamps to it)
    win.show()
    qtbot.waitExposed(win)
    win.reset_layout()   # every dock shown (a first window shows none until a node is selected)
    win.docks["history"].hide()
    win.menu_actions.compact.trigger()
    size = win.size()  # may be larger than asked for: the docks have minimum sizes
    assert win.close()
    win2 = MainWindow(cfg.Settings(QSettings(path, QSettings.IniFormat)), Recovery(tmp_path / "r"))
    win2.show()
    qtbot.waitExposed(win2)
    assert win2.size() == size
    assert not win2.docks["history"].isVisible() and win2.docks["cpt"].isVisible()
    assert win2.scene.node_style == "compact" and win2.menu_actions.compact.isChecked()
    win2.close()
