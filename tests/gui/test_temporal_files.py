"""The files of a two-slice network in the window (docs/temporal.md, "In the app"): File ▸ Save As ``.xdsl``
writes GeNIe's dynamic network with the Time panel's T slices and reopens as the same 2TBN with that T; the
evidence table edited in the Time dock is saved as a CSV that Load reads back to the same cells; the dock's
panel fits the dock at 1366x768 (no horizontal scrolling; it did not before)."""
from __future__ import annotations

import numpy as np

from bnstudio.gui import file_controller
from bnstudio.gui.time_panel import panel as panel_module
from bnstudio.gui.time_panel import time_panel
from bnstudio.io import read_network
from bnstudio.temporal import from_network, smoothing
from bnstudio.temporal.evidence import evidence_codes
from bnstudio.temporal.evidence_file import read_evidence_csv
from tests.gui.conftest import ASIA, NETWORKS
from tests.gui.test_temporal_gui import computed
from tests.temporal.test_xdsl import SAMPLE, assert_same

UMBRELLA = NETWORKS / "temporal" / "umbrella.bif"


def answer_save_dialog(monkeypatch, module, path, chosen_filter="") -> None:
    monkeypatch.setattr(module.QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), chosen_filter))


def test_save_as_xdsl_writes_genie_dynamic_form_with_the_panels_slices(window, qtbot, monkeypatch, tmp_path):
    assert window.open_path(UMBRELLA)
    panel = time_panel(window)
    computed(qtbot, panel)
    assert panel.slices.value() == 5                      # umbrella.csv beside it: five days
    panel.slices.setValue(8)
    path = tmp_path / "umbrella.xdsl"
    answer_save_dialog(monkeypatch, file_controller, path, "GeNIe XDSL (*.xdsl)")
    assert window.files.save_as()
    text = path.read_text(encoding="utf-8")
    assert '<dynamic numslices="8">' in text and text.count('dynamic="plate"') == 2
    assert window.document.path == path and not window.document.modified
    assert window.open_path(ASIA) and panel.tbn is None
    assert window.open_path(path)
    computed(qtbot, panel)
    assert panel.slices.value() == 8 and window.docks["time"].isVisible()
    assert_same(from_network(window.document.network), from_network(read_network(UMBRELLA)))
    # a plain network saved as .xdsl stays plain
    assert window.open_path(ASIA)
    plain = tmp_path / "asia.xdsl"
    answer_save_dialog(monkeypatch, file_controller, plain, "GeNIe XDSL (*.xdsl)")
    assert window.files.save_as() and "dynamic" not in plain.read_text(encoding="utf-8")


def test_the_edited_evidence_table_saves_as_a_csv_that_loads_back(window, qtbot, monkeypatch, tmp_path):
    source = tmp_path / "rain.xdsl"
    source.write_text(SAMPLE, encoding="utf-8")
    assert window.open_path(source)
    panel = time_panel(window)
    computed(qtbot, panel)
    assert not panel.save_button.isEnabled()              # nothing to save yet
    panel.set_cell(1, "Umbrella", "true")
    panel.set_cell(3, "Rain", "false")
    panel.set_cell(4, "Location", "Sahara")
    computed(qtbot, panel)
    assert panel.save_button.isEnabled()
    edited = panel.timeline().copy()
    path = tmp_path / "rain.csv"
    answer_save_dialog(monkeypatch, panel_module, path)
    qtbot.mouseClick(panel.save_button, panel_module.Qt.MouseButton.LeftButton)
    assert path.is_file() and panel.table_name == "rain.csv" and "saved" in panel.table_label.text()
    frame = read_evidence_csv(path)
    assert list(frame.columns) == ["Location", "Rain", "Umbrella"] and len(frame) == 5
    assert frame.loc[1, "Umbrella"] == "true" and frame.loc[3, "Rain"] == "false"
    panel.clear_table()
    computed(qtbot, panel)
    assert (panel.codes == -1).all()
    panel.slices.setValue(9)
    assert panel.load_table(path)
    computed(qtbot, panel)
    assert panel.slices.value() == 5
    np.testing.assert_array_equal(panel.codes, edited)
    want = smoothing(from_network(window.document.network), frame)
    np.testing.assert_allclose(panel.result.beliefs["Rain"], want.beliefs["Rain"], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(evidence_codes(panel.tbn, frame), edited)
    # reopening the network finds rain.csv beside rain.xdsl and starts with it
    assert window.open_path(ASIA) and window.open_path(source)
    computed(qtbot, panel)
    np.testing.assert_array_equal(panel.codes, edited)


def test_the_evidence_buttons_fit_the_time_dock(window, qtbot, tmp_path):
    window.resize(1366, 768)
    assert window.open_path(UMBRELLA)
    panel = time_panel(window)
    computed(qtbot, panel)
    qtbot.wait(50)
    dock = window.docks["time"]
    for button in (panel.load_button, panel.save_button, panel.clear_button):
        assert button.isVisible()
        seen = button.visibleRegion().boundingRect()
        assert seen.width() == button.width() and seen.height() == button.height(), button.text()
        assert button.width() >= button.sizeHint().width(), button.text()     # the text is not cut
    viewport = panel.parentWidget()          # the dock's scroll area: no horizontal scrolling needed
    assert panel.minimumSizeHint().width() <= viewport.width() and panel.width() <= viewport.width()
    assert panel.table_label.toolTip() == panel.table_label.text()        # a cut text is whole in its tooltip
    dock.grab().save(str(tmp_path / "time-dock.png"))
