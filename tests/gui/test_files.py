"""Files: open/save round trips keep positions, the modified marker follows the undo stack, closing with
changes asks, parser errors show file and line, unnormalised rows are never saved silently, recent files,
examples and export."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio import io as bnio
from bnstudio.app import commands as cmd
from bnstudio.app import file_io
from bnstudio.gui import dialogs
from bnstudio.gui import settings as cfg
from bnstudio.gui.canvas.export import export_png, export_svg
from tests.gui.conftest import ALARM, assert_same_tables, sprinkler


@pytest.mark.parametrize("suffix", [".bif", ".bnsproj", ".xdsl", ".net"])
def test_save_then_open_keeps_network_and_positions(window, tmp_path, suffix):
    w = window
    w.document.replace_network(sprinkler())
    w.document.execute(cmd.MoveNodes(w.document, {"Wet": (0, 240)}, {"Wet": (33, 250)}))
    path = tmp_path / f"sprinkler{suffix}"
    assert w.files.save_to(path)
    assert not w.document.modified and w.document.path == path
    saved = w.document.network.copy()
    w.document.replace_network(sprinkler())
    assert w.open_path(path)
    assert_same_tables(saved, w.document.network)
    got = w.document.network.positions
    assert got.keys() == saved.positions.keys()
    for name, (x, y) in saved.positions.items():
        assert got[name] == pytest.approx((x, y), abs=0.5)  # Hugin/GeNIe store whole pixels
    assert w.scene.nodes["Wet"].pos().x() == pytest.approx(33, abs=0.5)


def test_project_keeps_evidence_and_view(window, tmp_path):
    w = window
    w.document.replace_network(sprinkler())
    w.document.set_evidence("Wet", "yes")
    w.menu_actions.compact.trigger()
    path = tmp_path / "s.bnsproj"
    assert w.files.save_to(path)
    w.menu_actions.bars.trigger()
    w.document.replace_network(sprinkler())
    assert w.open_path(path)
    assert w.document.evidence == {"Wet": "yes"}
    assert w.scene.node_style == "compact"


def test_a_file_without_positions_is_laid_out(window):
    assert window.open_path(ALARM)
    net = window.document.network
    assert not bnio.read_network(ALARM).positions and len(net.positions) == len(net)
    assert not window.document.modified


def test_modified_marker_follows_the_undo_stack(window, tmp_path):
    w = window
    w.document.replace_network(sprinkler())
    assert not w.isWindowModified() and w.windowTitle().startswith("sprinkler (unsaved)[*]")
    w.document.execute(cmd.RenameVariable(w.document, "Rain", "Showers"))
    assert w.isWindowModified()
    w.document.undo_stack.undo()
    assert not w.isWindowModified()
    w.document.undo_stack.redo()
    assert w.files.save_to(tmp_path / "x.bif") and not w.isWindowModified()
    assert w.windowTitle().startswith("x.bif[*]")


def test_closing_with_unsaved_changes_asks(window, monkeypatch):
    w = window
    w.document.replace_network(sprinkler())
    w.document.execute(cmd.RenameVariable(w.document, "Rain", "Showers"))
    asked = []
    monkeypatch.setattr(dialogs, "ask_save_changes",
                        lambda parent, name, unsaved=None: asked.append(name) or dialogs.CANCEL)
    assert not w.close()
    assert asked and w.isVisible()
    monkeypatch.setattr(dialogs, "ask_save_changes", lambda parent, name, unsaved=None: dialogs.DISCARD)
    assert w.close()


def test_parser_errors_show_file_line_and_message(window, tmp_path, monkeypatch):
    bad = tmp_path / "bad.bif"
    bad.write_text("network x {\n}\nvariable A {\n  type discrete [ 2 ] { a, b };\n}\n"
                   "probability ( A ) {\n  table 0.5 0.5 0.1 ;\n}\n")
    shown = []
    monkeypatch.setattr(dialogs, "show_error", lambda parent, title, summary, details="": shown.append(
        (title, summary, details)))
    before = window.document.network
    assert not window.open_path(bad)
    title, summary, details = shown[0]
    assert "bad.bif" in summary and "Line: 7" in details and "has 3 values, expected 2" in details
    assert window.document.network is before


def test_unnormalised_rows_are_not_saved_silently(window, tmp_path, monkeypatch):
    w = window
    w.document.replace_network(sprinkler())
    w.document.execute(cmd.SetCpt(w.document, "Cloudy", np.array([0.2, 0.2])))
    monkeypatch.setattr(dialogs, "ask_normalise_before_save", lambda parent, n, names: False)
    assert not w.files.save_to(tmp_path / "a.bif") and not (tmp_path / "a.bif").exists()
    asked = []
    monkeypatch.setattr(dialogs, "ask_normalise_before_save", lambda parent, n, names: asked.append((n, names)) or True)
    assert w.files.save_to(tmp_path / "a.bif")
    assert asked == [(1, ["Cloudy"])]
    np.testing.assert_allclose(bnio.read_network(tmp_path / "a.bif").cpt("Cloudy"), [0.5, 0.5])
    assert not w.document.modified


def test_recent_files_and_examples(window, tmp_path, settings):
    w = window
    for name in ("a.bif", "b.bif"):
        w.document.replace_network(sprinkler())
        assert w.files.save_to(tmp_path / name)
    recent = settings.value(cfg.RECENT_FILES)
    assert [p.split("/")[-1] for p in recent[:2]] == ["b.bif", "a.bif"]
    assert [a.text() for a in w.menus["recent"].actions()][:2] == ["&1 b.bif", "&2 a.bif"]
    examples = [a.text() for a in w.menus["examples"].actions()]
    assert "alarm" in examples and "asia" in examples
    next(a for a in w.menus["examples"].actions() if a.text() == "asia").trigger()
    assert "dysp" in w.document.network


def test_open_filter_lists_every_registered_format():
    filters = file_io.open_filters()
    for ext in bnio.FORMATS:
        assert f"*{ext}" in filters
    assert "*.bnsproj" in filters


def test_save_filter_offers_only_formats_a_network_can_be_saved_to():
    """Netica's encrypted .neta opens (to say, in one line, to save it as .dne from Netica) but is never offered
    for saving: its writer can only refuse."""
    filters = file_io.save_filters()
    assert "*.neta" not in filters and "*.neta" in file_io.open_filters()
    assert all(f"*{ext}" in filters for ext, fmt in bnio.FORMATS.items() if fmt.savable)
    assert "*.dne" in filters


def test_export_png_and_svg(alarm_window, tmp_path):
    png, svg = tmp_path / "net.png", tmp_path / "net.svg"
    export_png(alarm_window.scene, png)
    export_svg(alarm_window.scene, svg)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    text = svg.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text and "HYPOVOLEMIA" in text


def test_new_asks_only_when_modified(window, monkeypatch):
    w = window
    assert w.files.new_file() and len(w.document.network) == 0
    w.document.execute(cmd.AddVariable(w.document, "A", ["a", "b"], (0, 0)))
    monkeypatch.setattr(dialogs, "ask_save_changes", lambda parent, name, unsaved=None: dialogs.CANCEL)
    assert not w.files.new_file() and "A" in w.document.network


def test_new_resets_the_zoom(window):
    w = window
    assert w.open_path(ALARM)
    w.view.set_zoom(0.3)
    assert w.files.new_file()
    assert w.view.zoom == 1.0 and "100%" in w.zoom_label.text()


def test_bundled_examples_open_as_untitled_copies(window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog
    w = window
    assert w.open_path(ALARM)
    assert w.document.path is None and w.windowTitle().startswith("alarm (example)")
    target = tmp_path / "my-alarm.bif"
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: asked.append(a[2]) or (str(target), "BIF (*.bif *.bif.gz)"))
    assert w.files.save()  # no file yet: Save asks where, never over the bundled example
    assert asked and asked[0].endswith("alarm.bnsproj") and target.exists()
    assert w.document.path == target


def test_the_long_training_example_opens_with_its_data_and_target(qtbot, window):
    """An example whose training takes tens of seconds, to watch the live curves and try Cancel."""
    from bnstudio.app.resources import example_networks

    example = next(p for p in example_networks() if p.name == "alarm-20k-missing.bnsproj")
    assert window.open_path(example)
    qtbot.waitUntil(lambda: window.training_panel.selection is not None, timeout=30000)
    selection = window.training_panel.selection
    assert selection.target == "BP" and selection.n_rows == 20000
    assert window.document.path is None and not window.document.modified   # an untitled copy, nothing to save
    panel = window.training_panel
    panel.options.set_method("em")
    assert panel.run() is not None
    qtbot.waitUntil(lambda: panel.live is not None and len(panel.live.history) >= 1, timeout=30000)
    with qtbot.waitSignal(panel.run_cancelled, timeout=30000):
        panel.cancel()
    assert panel.runs == [] and not window.document.modified


def test_a_file_read_after_a_repair_says_so_in_the_window(window, tmp_path):
    path = tmp_path / "rounded.bif"
    path.write_text("network x {\n}\nvariable A {\n  type discrete [ 2 ] { a, b };\n}\n"
                    "probability ( A ) {\n  table 0.5 0.4995 ;\n}\n")
    assert window.open_path(path)
    text = window.message_bar.label.text()
    assert window.message_bar.isVisible() and "Opened with repairs" in text and "'A'" in text
    np.testing.assert_allclose(window.document.network.cpt("A").sum(), 1.0)


def test_the_clgd_example_offers_clgd_on_a_tan_and_runs_long_enough_to_cancel(qtbot, window):
    """File ▸ Examples ▸ alarm-tan-clgd-20k: every other bundled run on ASIA or ALARM ends within a second;
    this one trains clgd on a TAN over 16,000 rows with missing cells (~33 s on 2 cores), so the live curves
    and Cancel can be watched."""
    from PySide6.QtWidgets import QApplication

    from bnstudio.app.resources import example_networks

    example = next(p for p in example_networks() if p.name == "alarm-tan-clgd-20k.bnsproj")
    menu = window.menus["examples"]
    action = next(a for a in menu.actions() if a.text() == "alarm-tan-clgd-20k")
    action.trigger()                                     # reachable from the menu
    panel = window.training_panel
    qtbot.waitUntil(lambda: panel.selection is not None, timeout=30000)
    net = window.document.network
    assert window.document.untitled_name.startswith("alarm-tan-clgd-20k") and example.is_file()
    assert all(("BP", v) in net.arcs() for v in net.variables if v != "BP")   # BP is the class of a TAN
    assert panel.options.current_method() == "clgd" and panel.selection.target == "BP"
    assert panel.selection.n_rows == 20000
    assert panel.run() is not None
    qtbot.waitUntil(lambda: panel.live is not None and len(panel.live.history) >= 2, timeout=60000)
    QApplication.processEvents()
    assert panel.progress.maximum() == 200 and 0 < panel.progress.value() < 20
    with qtbot.waitSignal(panel.run_cancelled, timeout=30000):
        panel.cancel()
    assert panel.runs == [] and not window.document.modified
