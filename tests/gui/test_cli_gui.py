"""``bnstudio`` without a subcommand opens the app on ALARM, ``bnstudio gui FILE`` on FILE, and
``bnstudio screenshot`` renders the main window offscreen."""
from __future__ import annotations

import sys

import pytest
from PySide6.QtGui import QImage

import bnstudio.gui.app as gui_app
from bnstudio.cli import main

from tests.gui.conftest import ALARM, ASIA


def test_no_subcommand_opens_the_gui_on_alarm(monkeypatch):
    calls = []
    monkeypatch.setattr(gui_app, "run", lambda path=None: calls.append(path) or 0)
    assert main([]) == 0
    assert calls == [ALARM]


def test_gui_subcommand_opens_a_file(monkeypatch):
    calls = []
    monkeypatch.setattr(gui_app, "run", lambda path=None: calls.append(path) or 0)
    assert main(["gui", str(ASIA)]) == 0 and calls == [str(ASIA)]


def test_run_without_a_display_explains_instead_of_crashing(monkeypatch, capsys):
    for var in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert gui_app.run(ALARM) == 2
    assert "no display" in capsys.readouterr().err


def test_screenshot_renders_the_window(tmp_path, qapp, capsys):
    out = tmp_path / "shot.png"
    status = main(["screenshot", str(out), str(ASIA), "--size", "900x640", "-e", "dysp=yes", "--select", "either"])
    assert status == 0, capsys.readouterr().err
    image = QImage(str(out))
    assert (image.width(), image.height()) == (900, 640)


@pytest.mark.parametrize("args", [["--size", "big"], ["-e", "dysp=maybe"], ["--select", "nobody"]])
def test_screenshot_bad_input_is_a_one_line_error(tmp_path, qapp, capsys, args):
    status = main(["screenshot", str(tmp_path / "x.png"), str(ASIA), *args])
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("bnstudio: error:") and "Traceback" not in err
