"""Two-slice networks in the window: the temporal plate on the canvas (frames, dashed arcs from slice t-1, read
from the rendered pixels), the Time panel's beliefs against the core's forward-backward and the unrolled
engine, the slider moving the canvas's bars, and nothing of a 2TBN surviving the next network."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QImage, QPainter

from bnstudio.app import commands as cmd
from bnstudio.gui.canvas import style as st
from bnstudio.gui.canvas.temporal_plate import TEMPORAL_ARC, SliceFrame
from bnstudio.gui.time_panel import time_panel
from bnstudio.io import read_network
from bnstudio.temporal import filtering, from_network, smoothing, unrolled_posterior
from tests.gui.conftest import ASIA, NETWORKS

UMBRELLA = NETWORKS / "temporal" / "umbrella.bif"      # this repository's copy (the one the app here bundles)
MACHINE = NETWORKS / "temporal" / "machine.bif"


def computed(qtbot, panel) -> None:
    """Wait until the panel's job for its current inputs has been shown."""
    qtbot.waitUntil(lambda: not panel._timer.isActive() and not panel.jobs.running and panel.result is not None,
                    timeout=20000)


def frames(scene) -> list[SliceFrame]:
    return [i for i in scene.items() if isinstance(i, SliceFrame)]


def box(item):
    return item.rect().translated(item.pos())


def near(colour: QColor, target: QColor, tolerance: int = 40) -> bool:
    return max(abs(colour.red() - target.red()), abs(colour.green() - target.green()),
               abs(colour.blue() - target.blue())) <= tolerance


def arc_pixels(scene, key) -> list[QColor]:
    """The rendered colours along the middle of an arc's shaft (scene rendered 1:1)."""
    rect = scene.itemsBoundingRect()
    image = QImage(int(rect.width()) + 1, int(rect.height()) + 1, QImage.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    scene.render(painter, image.rect(), rect)
    painter.end()
    line = scene.arcs[key].line
    out = []
    for f in np.linspace(0.3, 0.7, 41):
        p = line.pointAt(float(f)) - rect.topLeft()
        out.append(image.pixelColor(int(round(p.x())), int(round(p.y()))))
    return out


def test_the_plate_frames_the_transition_slice_of_a_2tbn_only(window, qtbot):
    assert window.open_path(MACHINE)
    scene = window.scene
    tbn = from_network(read_network(MACHINE))
    plate = {f.part: f for f in frames(scene)}
    assert sorted(plate) == ["0", "t"]
    inside = [name for name, item in scene.nodes.items() if plate["t"].rect.contains(box(item))]
    assert sorted(inside) == sorted(r + "t" for r in tbn.radicals)            # exactly the transition variables
    assert not any(plate["t"].rect.intersects(box(scene.nodes[r + "0"])) for r in tbn.radicals)
    assert all(plate["0"].rect.contains(box(scene.nodes[r + "0"])) for r in tbn.radicals)
    # the arcs from slice t-1, read from the model's lags (not from the names), are the ones drawn dashed
    temporal = sorted((p + "0", r + "t") for r in tbn.radicals for p, lag in tbn.transition_parents(r) if lag)
    assert sorted(scene.temporal.temporal_arcs) == temporal == [("Load0", "Loadt"), ("Wear0", "Weart")]
    for key, arc in scene.arcs.items():
        assert (arc.look is not None) == (key in temporal)
        assert ("from slice t−1" in arc.toolTip()) == (key in temporal)
    dashed, solid = arc_pixels(scene, ("Wear0", "Weart")), arc_pixels(scene, ("Weart", "Vibrationt"))
    assert any(near(c, TEMPORAL_ARC) for c in dashed) and not any(near(c, st.ARC, 25) for c in dashed)
    assert any(near(c, QColor("white"), 10) or near(c, QColor("#EEF4FB"), 10) for c in dashed)   # the gaps
    assert any(near(c, st.ARC, 25) for c in solid) and not any(near(c, TEMPORAL_ARC) for c in solid)
    # the plate follows a moved node
    item = scene.nodes["Temperaturet"]
    item.setPos(item.pos() + QPointF(400, 300))
    assert plate["t"].rect.contains(box(item))
    assert window.open_path(ASIA)
    assert frames(scene) == [] and scene.temporal.temporal_arcs == []
    assert all(arc.look is None for arc in scene.arcs.values())


@pytest.mark.parametrize("mode", ["smoothing", "filtering"])
def test_the_time_panel_beliefs_are_the_core_forward_backward(window, qtbot, mode):
    assert window.open_path(UMBRELLA)
    panel = time_panel(window)
    assert window.docks["time"].isVisible()
    panel.mode.setCurrentIndex(["smoothing", "filtering"].index(mode))
    computed(qtbot, panel)
    assert panel.result.kind == mode and panel.table_name == "umbrella.csv" and panel.slices.value() == 5
    tbn = from_network(read_network(UMBRELLA))
    evidence = pd.read_csv(UMBRELLA.with_suffix(".csv"), dtype=str)
    core = (smoothing if mode == "smoothing" else filtering)(tbn, evidence)
    for name in tbn.radicals:
        np.testing.assert_allclose(panel.result.beliefs[name], core.beliefs[name], atol=1e-12, rtol=0)
    seen = {f"Umbrella{s}": v for s, v in enumerate(evidence["Umbrella"])}
    exact = unrolled_posterior(tbn, 5, "Rain2", seen if mode == "smoothing" else
                               {k: v for k, v in seen.items() if int(k[-1]) <= 2})["Rain2"]
    np.testing.assert_allclose(panel.result.beliefs["Rain"][2], exact, atol=1e-12)
    # the plot shows the chosen state's belief over the slices
    panel.variable.setCurrentText("Rain")
    panel.state.setCurrentText("no")
    x, y = panel.plot.curve.getData()
    np.testing.assert_allclose(y, core.beliefs["Rain"][:, 1], atol=1e-12)
    assert list(x) == [0, 1, 2, 3, 4]


def test_the_slider_puts_a_slice_on_the_canvas_and_canvas_findings_join(window, qtbot):
    assert window.open_path(UMBRELLA)
    panel = time_panel(window)
    computed(qtbot, panel)
    core = smoothing(from_network(read_network(UMBRELLA)), pd.read_csv(UMBRELLA.with_suffix(".csv"), dtype=str))
    nodes = window.scene.nodes
    for k, umbrella in ((2, "no"), (4, "yes"), (0, "yes")):
        panel.slider.setValue(k)
        np.testing.assert_array_equal(nodes["Raint"].beliefs, core.beliefs["Rain"][k])
        np.testing.assert_array_equal(nodes["Umbrellat"].beliefs, core.beliefs["Umbrella"][k])
        np.testing.assert_array_equal(nodes["Rain0"].beliefs, core.beliefs["Rain"][0])
        assert nodes["Umbrellat"].evidence == umbrella and nodes["Rain0"].evidence is None
        assert panel.plot.mark.value() == k
    panel.slider.setValue(3)
    window.document.set_evidence("Raint", "no")           # a canvas finding redraws; the slice stays shown
    np.testing.assert_array_equal(nodes["Raint"].beliefs, core.beliefs["Rain"][3])
    panel.on_canvas.setChecked(False)                     # the document's own beliefs again
    np.testing.assert_allclose(nodes["Raint"].beliefs, window.document.posteriors()["Raint"], atol=1e-12)
    panel.on_canvas.setChecked(True)
    panel.at.setValue(3)
    panel.use_canvas.setChecked(True)                     # Raint = no joins the table at slice 3
    qtbot.waitUntil(lambda: panel.codes is not None and panel.codes[3, 0] == 1 and not panel.jobs.running)
    table = pd.read_csv(UMBRELLA.with_suffix(".csv"), dtype=str).assign(Rain=[None, None, None, "no", None])
    joined = smoothing(from_network(read_network(UMBRELLA)), table)
    np.testing.assert_allclose(panel.result.beliefs["Rain"], joined.beliefs["Rain"], atol=1e-12)
    assert nodes["Raint"].evidence == "no"
    window.document.set_evidence("Raint", [0.2, 0.8])     # a likelihood cannot be used over time: said, not used
    qtbot.waitUntil(lambda: panel.messages.isVisibleTo(panel) and "likelihood" in panel.messages.text)
    assert panel.result is None and window.scene.temporal.shown is None


def test_another_network_leaves_nothing_of_the_2tbn(window, qtbot):
    assert window.open_path(UMBRELLA)
    panel = time_panel(window)
    computed(qtbot, panel)
    panel.slices.setValue(200_000)                         # a long run, still going when the network goes
    qtbot.waitUntil(lambda: panel.jobs.running, timeout=5000)
    assert window.open_path(ASIA)
    qtbot.waitUntil(lambda: not panel.jobs.running, timeout=20000)
    qtbot.wait(50)
    assert not window.docks["time"].isVisible()
    assert panel.tbn is None and panel.result is None and panel.codes is None and panel.table is None
    assert panel.variable.count() == 0 and panel.evidence_view.columnCount() == 0
    assert panel.plot.curve.getData()[0] is None or len(panel.plot.curve.getData()[0]) == 0
    assert "not a two-slice network" in panel.about.text()
    assert window.scene.temporal.shown is None and frames(window.scene) == []
    posteriors = window.document.posteriors()
    for name, item in window.scene.nodes.items():
        np.testing.assert_allclose(item.beliefs, posteriors[name], atol=1e-12)


def test_a_long_run_can_be_cancelled(window, qtbot):
    assert window.open_path(UMBRELLA)
    panel = time_panel(window)
    computed(qtbot, panel)
    before = panel.result
    panel.slices.setValue(300_000)
    qtbot.waitUntil(lambda: panel.jobs.running, timeout=5000)
    assert panel.cancel_button.isVisibleTo(panel)
    panel.cancel_button.click()
    qtbot.waitUntil(lambda: not panel.jobs.running, timeout=20000)
    assert "Cancelled" in panel.status.text() and panel.result is before     # nothing changed


def test_an_edit_that_breaks_the_convention_removes_the_plate_and_undo_brings_it_back(window, qtbot):
    assert window.open_path(UMBRELLA)
    scene, doc = window.scene, window.document
    assert doc.execute(cmd.RenameVariable(doc, "Rain0", "Rain"))      # no longer a 2TBN: Rain has no suffix
    assert frames(scene) == [] and all(arc.look is None and not arc.toolTip() for arc in scene.arcs.values())
    assert time_panel(window).tbn is None
    doc.undo_stack.undo()
    assert sorted(f.part for f in frames(scene)) == ["0", "t"]
    assert scene.temporal.temporal_arcs == [("Rain0", "Raint")] and scene.arcs[("Rain0", "Raint")].look is not None
    computed(qtbot, time_panel(window))


@pytest.mark.parametrize("mode", ["smoothing", "filtering"])
def test_a_2tbn_with_counts_draws_each_beliefs_error_band(window, qtbot, mode):
    """The plotted belief's band is the core's temporal error bars (Beta, else clipped normal) at every slice;
    another variable's band is computed when it is plotted; a 2TBN without counts draws none."""
    from bnstudio.temporal import temporal_error_bars

    learned = NETWORKS / "temporal" / "machine_learned.bnsproj"
    assert window.open_path(learned)
    panel = time_panel(window)
    panel.mode.setCurrentIndex(["smoothing", "filtering"].index(mode))
    assert panel.load_table(MACHINE.with_suffix(".csv"))
    panel.variable.setCurrentText("Wear")
    panel.state.setCurrentText("broken")
    computed(qtbot, panel)
    qtbot.waitUntil(lambda: panel.bars is not None and panel.bars.variable == "Wear" and not panel.jobs.running,
                    timeout=20000)
    tbn = from_network(window.document.network)
    evidence = pd.read_csv(MACHINE.with_suffix(".csv"), dtype=str)
    core = temporal_error_bars(tbn, evidence, "Wear", "broken", mode="smooth" if mode == "smoothing" else "filter")
    expected = np.where(np.isnan(core.beta), core.normal_clipped, core.beta)
    np.testing.assert_allclose(panel.plot.low.getData()[1], expected[:, 0], atol=1e-12)
    np.testing.assert_allclose(panel.plot.high.getData()[1], expected[:, 1], atol=1e-12)
    np.testing.assert_allclose(panel.plot.curve.getData()[1], core.mean, atol=1e-12)
    assert "band: 90 % interval" in panel.plot.widget.getPlotItem().titleLabel.text
    panel.variable.setCurrentText("Load")                   # another belief: its own band, computed again
    qtbot.waitUntil(lambda: panel.bars is not None and panel.bars.variable == "Load" and not panel.jobs.running
                    and panel.plot.low.getData()[1] is not None, timeout=20000)
    other = temporal_error_bars(tbn, evidence, "Load", panel.state.currentText(),
                                mode="smooth" if mode == "smoothing" else "filter")
    np.testing.assert_allclose(panel.plot.high.getData()[1],
                               np.where(np.isnan(other.beta), other.normal_clipped, other.beta)[:, 1], atol=1e-12)
    assert window.open_path(MACHINE)                          # the bundled model has no counts: no band
    computed(qtbot, panel)
    assert panel.bars is None and panel.plot.low.getData()[1] is None


def test_the_time_docks_question_mark_opens_its_section(window, qtbot, monkeypatch):
    from bnstudio.gui import manual

    docs = NETWORKS.parents[1] / "docs"
    monkeypatch.setattr(manual, "manual_page", lambda name="gui.md": docs / name)
    assert window.open_path(UMBRELLA)
    dock = window.docks["time"]
    bar = dock.titleBarWidget()
    assert bar.title.text() == dock.windowTitle() and "F1" in dock.whatsThis()
    bar.help_button.click()
    assert window._manual.isVisible() and window._manual.page == "temporal.md"
    assert window._manual.current_heading() == "In the app"


def test_a_cell_of_the_evidence_timeline_is_set_and_cleared_by_a_click(window, qtbot):
    assert window.open_path(UMBRELLA)
    panel = time_panel(window)
    computed(qtbot, panel)
    tbn = from_network(read_network(UMBRELLA))
    view, rain = panel.evidence_view, tbn.radicals.index("Rain")

    def choose(row, column, label):
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         pos=view.visualRect(view.model().index(row, column)).center())
        menu = panel.cell_menu
        assert menu is not None and menu.isVisible()
        action = next(a for a in menu.actions() if a.text() == label)
        before = panel.result
        action.trigger()
        menu.close()
        qtbot.waitUntil(lambda: panel.result is not before and not panel.jobs.running, timeout=20000)
        computed(qtbot, panel)

    choose(rain, 3, "no")                                  # observe Rain = no on day 3
    table = pd.read_csv(UMBRELLA.with_suffix(".csv"), dtype=str).assign(Rain=[None, None, None, "no", None])
    np.testing.assert_allclose(panel.result.beliefs["Rain"], smoothing(tbn, table).beliefs["Rain"], atol=1e-12)
    assert view.item(rain, 3).text() == "no" and panel.codes[3, rain] == 1
    assert "(edited)" in panel.table_label.text()
    choose(tbn.radicals.index("Umbrella"), 1, "unobserved")   # clear the umbrella of day 1
    table.loc[1, "Umbrella"] = None
    np.testing.assert_allclose(panel.result.beliefs["Rain"], smoothing(tbn, table).beliefs["Rain"], atol=1e-12)
    assert view.item(tbn.radicals.index("Umbrella"), 1).text() == ""
    for row, column, want in ((tbn.radicals.index("Umbrella"), 1, "unobserved"), (rain, 3, "no"), (rain, 2, "unobserved")):
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         pos=view.visualRect(view.model().index(row, column)).center())
        assert [a.text() for a in panel.cell_menu.actions() if a.isChecked()] == [want]   # the cell's own state
        panel.cell_menu.close()


def test_a_genie_dynamic_network_opens_with_its_plate_and_time_dock(window, qtbot, tmp_path):
    from tests.temporal.test_xdsl import SAMPLE, expected_sample

    path = tmp_path / "rain.xdsl"
    path.write_text(SAMPLE, encoding="utf-8")
    assert window.open_path(path)
    panel = time_panel(window)
    assert window.docks["time"].isVisible() and panel.tbn is not None
    assert panel.tbn.radicals == ("Location", "Rain", "Umbrella")
    scene = window.scene
    plate = {f.part: f for f in frames(scene)}
    inside = {name for name, item in scene.nodes.items() if plate["t"].rect.contains(box(item))}
    assert inside == {"Locationt", "Raint", "Umbrellat"}
    assert sorted(scene.temporal.temporal_arcs) == [("Location0", "Locationt"), ("Rain0", "Raint")]
    assert panel.slices.value() == 5                       # the file's numslices
    panel.set_cell(2, "Umbrella", "true")
    computed(qtbot, panel)
    want = smoothing(expected_sample(), pd.DataFrame({"Umbrella": [None, None, "true", None, None]}))
    np.testing.assert_allclose(panel.result.beliefs["Rain"], want.beliefs["Rain"], atol=1e-12)
