"""``render_screenshot(..., centre=NODE)`` (bnstudio/gui/screenshot.py): ALARM opens on its top at 1366x768, so
its evidence node HRBP is off screen; centred on it, the node is in the canvas's middle (the light and dark
screenshots of docs/gui.md, docs/appearance_screenshots.py)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF

from bnstudio.errors import BNStudioError
from bnstudio.gui.main_window import MainWindow
from bnstudio.gui.screenshot import render_screenshot
from tests.gui.conftest import ALARM


def _where(monkeypatch) -> dict[str, QRectF]:
    """Records, as the window is grabbed, HRBP's rectangle in the canvas's viewport and the viewport's."""
    seen: dict[str, QRectF] = {}
    real_grab = MainWindow.grab

    def grab(self, *args):
        view = self.view
        seen["node"] = QRectF(view.mapFromScene(self.scene.nodes["HRBP"].sceneBoundingRect()).boundingRect())
        seen["viewport"] = QRectF(view.viewport().rect())
        return real_grab(self, *args)

    monkeypatch.setattr(MainWindow, "grab", grab)
    return seen


def test_the_evidence_node_is_off_screen_at_first_sight_and_centred_on_request(tmp_path, qapp, monkeypatch):
    seen = _where(monkeypatch)
    options = {"evidence": {"HRBP": "HIGH"}, "select": "HR", "docks": ["query", "cpt"]}
    render_screenshot(tmp_path / "top.png", ALARM, (1366, 768), **options)
    assert not seen["viewport"].contains(seen["node"])          # the network's top: HRBP below it
    render_screenshot(tmp_path / "centred.png", ALARM, (1366, 768), centre="HRBP", **options)
    assert seen["viewport"].contains(seen["node"])
    offset = seen["node"].center() - seen["viewport"].center()
    assert abs(offset.x()) <= 2 and abs(offset.y()) <= 2


def test_centre_on_an_unknown_node_is_an_error(tmp_path, qapp):
    with pytest.raises(BNStudioError, match="no node named 'nobody'"):
        render_screenshot(tmp_path / "x.png", ALARM, (800, 600), centre="nobody")
