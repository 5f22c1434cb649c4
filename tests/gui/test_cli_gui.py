"""``bnstudio`` without a subcommand opens the app on ALARM, ``bnstudio gui FILE`` on FILE, and
``bnstudio screenshot`` renders the main window offscreen."""
from __future__ import annotations

import argparse
import sys

import pytest
from PySide6.QtGui import QImage

import bnstudio.gui.app as gui_app
from bnstudio.app.resources import bundled_diagram
from bnstudio.cli import main
from bnstudio.cli.screenshot import DOCKS, parse_docks
from tests.gui.conftest import ALARM, ASIA

OIL = bundled_diagram("oil_wildcatter.json")


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


def test_screenshot_shows_the_decisions_dock_of_an_influence_diagram(tmp_path, qapp, capsys, monkeypatch):
    """--docks offers the Decisions dock (it once offered only properties, history and cpt) and shows it, alone
    and in view, at a small size: the dock is picked after the diagram opened (which brings Decisions forward)."""
    from bnstudio.gui.main_window import MainWindow

    seen: dict[str, bool] = {}
    real_grab = MainWindow.grab

    def grab(self, *args):
        seen.update({k: d.isVisible() and not d.visibleRegion().isEmpty() for k, d in self.docks.items()})
        return real_grab(self, *args)

    monkeypatch.setattr(MainWindow, "grab", grab)
    out = tmp_path / "oil.png"
    status = main(["screenshot", str(out), str(OIL), "--size", "700x500", "--docks", "decisions"])
    assert status == 0, capsys.readouterr().err
    assert [k for k, shown in seen.items() if shown] == ["decisions"]
    assert (QImage(str(out)).width(), QImage(str(out)).height()) == (700, 500)


def test_screenshot_offers_every_dock_the_window_has(window):
    """One list: the option's choices are the window's docks (a dock added to the window is offered)."""
    assert parse_docks(",".join(window.docks)) == list(window.docks)
    assert sorted(DOCKS) == sorted(window.docks)
    with pytest.raises(argparse.ArgumentTypeError, match="use properties, history"):
        parse_docks("decisions,toolbox")


def test_screenshot_draws_the_window_dark_and_writes_a_pdf(tmp_path, qapp, capsys):
    """``--appearance dark`` draws the window dark (and the next window is the desktop's again); an OUT.pdf is the
    network as File ▸ Export as PDF writes it."""
    from bnstudio.display.themes import relative_luminance
    from bnstudio.gui import theme
    from tests.gui.test_printing import read_pdf

    dark = tmp_path / "dark.png"
    assert main(["screenshot", str(dark), str(ASIA), "--size", "800x600", "--appearance", "dark"]) == 0
    image = QImage(str(dark))
    toolbar = image.pixelColor(image.width() - 5, 45)        # right of the toolbar's buttons
    assert relative_luminance(toolbar.name()) < 0.1, toolbar.name()
    assert not theme.is_dark()
    pdf = tmp_path / "asia.pdf"
    assert main(["screenshot", str(pdf), str(ASIA), "-e", "xray=yes"]) == 0
    assert read_pdf(pdf)["pages"] == 1
    assert main(["screenshot", str(tmp_path / "x.jpg"), str(ASIA)]) == 2
    assert "must be a .png file (the window) or a .pdf file" in capsys.readouterr().err


def test_image_draws_the_network_without_a_window(tmp_path, qapp, capsys):
    """``bnstudio image`` (File ▸ Export Image from the command line): PNG, SVG or PDF by the extension."""
    import json

    from PIL import Image

    out = tmp_path / "asia.png"
    assert main(["image", str(ASIA), str(out), "-e", "dysp=yes", "--scale", "1", "--json"]) == 0
    written = json.loads(capsys.readouterr().out)
    assert written == {"file": str(out), "format": "png", "capped": False, "width": written["width"],
                       "height": written["height"]}
    with Image.open(out) as image:
        assert image.size == (written["width"], written["height"])
    assert main(["image", str(ASIA), str(tmp_path / "asia.svg")]) == 0
    svg = (tmp_path / "asia.svg").read_text()
    assert "either" in svg and "dysp" in svg
    assert main(["image", str(ASIA), str(tmp_path / "asia.pdf"), "--style", "compact"]) == 0
    assert (tmp_path / "asia.pdf").read_bytes().startswith(b"%PDF")
    capsys.readouterr()
    assert main(["image", str(ASIA), str(tmp_path / "bad.png"), "-e", "dysp=maybe"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "maybe" in err and not (tmp_path / "bad.png").exists()
