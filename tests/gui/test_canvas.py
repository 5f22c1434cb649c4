"""The graph canvas driven with real mouse and keyboard events: add, rename, move, delete nodes; draw,
refuse, reverse and delete arcs; rubber-band selection; zoom limits and fit."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, QSizeF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QLineEdit, QMenu

from bnstudio.gui.canvas import ADD_ARC
from bnstudio.gui.canvas.view import MAX_ZOOM, MIN_ZOOM
from tests.gui.conftest import sprinkler


def _window_with(window, net=None):
    window.document.replace_network(net or sprinkler())
    window.view.set_zoom(1.0)
    window.view.centerOn(QPointF(0, 120))
    QApplication.processEvents()
    return window


def _at(window, x, y) -> QPoint:
    return window.view.mapFromScene(QPointF(x, y))


def test_double_click_on_empty_space_adds_a_node_and_undo_removes_it(window, qtbot):
    w = _window_with(window)
    qtbot.mouseDClick(w.view.viewport(), Qt.LeftButton, pos=_at(w, 320, 300))
    assert "Node1" in w.document.network
    assert abs(w.document.network.positions["Node1"][0] - 320) < 2
    assert "Node1" in w.scene.nodes and w.scene.selected_names() == ["Node1"]
    w.document.undo_stack.undo()
    assert "Node1" not in w.document.network and "Node1" not in w.scene.nodes


def test_a_node_added_far_out_lands_under_the_pointer_and_nothing_else_moves(window, qtbot):
    """Seen: double-clicking in empty space re-centred the view, so the new node jumped away from the pointer."""
    w = _window_with(window)
    w.view.set_zoom(0.25)                       # the network and its margin are smaller than the view
    w.view.centerOn(QPointF(0, 120))
    QApplication.processEvents()
    viewport = w.view.viewport().rect()
    pointer = QPoint(viewport.right() - 40, viewport.bottom() - 40)    # far from the network, inside the view
    where = w.view.mapToScene(pointer)
    before = {v: tuple(p) for v, p in w.document.network.positions.items()}
    shown_before = w.view.mapToScene(viewport).boundingRect()
    qtbot.mouseDClick(w.view.viewport(), Qt.LeftButton, pos=pointer)
    QApplication.processEvents()
    x, y = w.document.network.positions["Node1"]
    assert abs(x - where.x()) < 2 and abs(y - where.y()) < 2
    assert w.view.mapFromScene(QPointF(x, y)) == pointer                 # still under the pointer on screen
    assert w.view.mapToScene(viewport).boundingRect() == shown_before   # the view did not scroll or re-centre
    assert {v: tuple(p) for v, p in w.document.network.positions.items() if v != "Node1"} == before


def test_rename_in_place(window, qtbot):
    w = _window_with(window)
    w.scene.select_only(["Rain"])
    w.view.setFocus()
    qtbot.keyClick(w.view, Qt.Key_F2)
    editor = w.view.viewport().findChild(QLineEdit)
    assert editor is not None and editor.text() == "Rain"
    editor.setText("Showers")
    qtbot.keyClick(editor, Qt.Key_Return)
    net = w.document.network
    assert "Showers" in net and "Rain" not in net and net.parents("Wet") == ("Sprinkler", "Showers")
    assert w.scene.nodes["Showers"].name == "Showers" and ("Showers", "Wet") in w.scene.arcs
    assert w.properties.name_edit.text() == "Showers"


def test_rename_to_an_existing_name_is_refused_with_a_message(window, qtbot):
    w = _window_with(window)
    w.view.start_rename("Rain")
    editor = w.view.viewport().findChild(QLineEdit)
    editor.setText("Wet")
    qtbot.keyClick(editor, Qt.Key_Return)
    assert "Rain" in w.document.network
    assert "already exists" in w.message_bar.label.text()


def test_delete_key_removes_the_node_with_its_arcs_and_undo_restores(window, qtbot):
    w = _window_with(window)
    w.scene.select_only(["Rain"])
    w.view.setFocus()
    qtbot.keyClick(w.view, Qt.Key_Delete)
    net = w.document.network
    assert "Rain" not in net and ("Rain", "Wet") not in w.scene.arcs and ("Cloudy", "Rain") not in w.scene.arcs
    assert w.document.undo_stack.count() == 1
    w.document.undo_stack.undo()
    assert net.parents("Wet") == ("Sprinkler", "Rain") and ("Rain", "Wet") in w.scene.arcs


def test_shift_drag_from_node_to_node_adds_an_arc(window, qtbot):
    w = _window_with(window)
    viewport = w.view.viewport()
    qtbot.mousePress(viewport, Qt.LeftButton, Qt.ShiftModifier, _at(w, 0, 0))
    qtbot.mouseMove(viewport, _at(w, 0, 150))
    qtbot.mouseRelease(viewport, Qt.LeftButton, Qt.ShiftModifier, _at(w, 0, 240))
    assert w.document.network.parents("Wet") == ("Sprinkler", "Rain", "Cloudy")
    assert ("Cloudy", "Wet") in w.scene.arcs
    assert w.document.network.positions["Cloudy"] == (0, 0)  # the drag drew an arc, it did not move


def test_arc_tool_refuses_a_cycle_and_names_it(window, qtbot):
    w = _window_with(window)
    w.menu_actions.tool_arc.trigger()
    assert w.scene.tool == ADD_ARC
    viewport = w.view.viewport()
    qtbot.mousePress(viewport, Qt.LeftButton, pos=_at(w, 0, 240))
    qtbot.mouseMove(viewport, _at(w, 0, 100))
    qtbot.mouseRelease(viewport, Qt.LeftButton, pos=_at(w, 0, 0))
    assert w.document.network.parents("Cloudy") == ()
    text = w.message_bar.label.text()
    assert w.message_bar.isVisible() and "cycle" in text
    assert "Wet -> Cloudy" in text and ("Sprinkler" in text or "Rain" in text)
    assert text in w.statusBar().currentMessage()
    assert w.document.undo_stack.count() == 0


def test_arc_context_menu_reverses_and_deletes(window):
    w = _window_with(window)
    menu = QMenu()
    w.view._arc_menu(menu, w.scene.arcs[("Cloudy", "Rain")])
    reverse, delete = menu.actions()
    reverse.trigger()
    assert w.document.network.parents("Cloudy") == ("Rain",) and ("Rain", "Cloudy") in w.scene.arcs
    menu = QMenu()
    w.view._arc_menu(menu, w.scene.arcs[("Sprinkler", "Wet")])
    menu.actions()[1].trigger()
    assert w.document.network.parents("Wet") == ("Rain",) and ("Sprinkler", "Wet") not in w.scene.arcs


def test_dragging_a_selection_is_one_move_command(window, qtbot):
    w = _window_with(window)
    w.scene.select_only(["Sprinkler", "Rain"])
    viewport = w.view.viewport()
    start = _at(w, 150, 100)  # Rain's title
    qtbot.mousePress(viewport, Qt.LeftButton, pos=start)
    for step in range(1, 6):
        qtbot.mouseMove(viewport, start + QPoint(0, 8 * step))
    qtbot.mouseRelease(viewport, Qt.LeftButton, pos=start + QPoint(0, 40))
    pos = w.document.network.positions
    assert w.document.undo_stack.count() == 1
    assert pos["Rain"][1] > 140 and pos["Sprinkler"][1] > 140 and pos["Cloudy"] == (0, 0)
    w.document.undo_stack.undo()
    assert pos["Rain"] == (150, 120) and w.scene.nodes["Rain"].pos() == QPointF(150, 120)


def test_rubber_band_selects_the_nodes_inside(window, qtbot):
    w = _window_with(window)
    viewport = w.view.viewport()
    qtbot.mousePress(viewport, Qt.LeftButton, pos=_at(w, -270, 60))
    qtbot.mouseMove(viewport, _at(w, 0, 150))
    qtbot.mouseMove(viewport, _at(w, 270, 290))
    qtbot.mouseRelease(viewport, Qt.LeftButton, pos=_at(w, 270, 290))
    assert sorted(w.scene.selected_names()) == ["Rain", "Sprinkler", "Wet"]


def _wheel(view, delta: int) -> None:
    pos = QPointF(view.viewport().rect().center())
    event = QWheelEvent(pos, view.viewport().mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt.NoButton,
                        Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), event)


def test_wheel_zoom_has_limits_and_fit_shows_everything(window):
    w = _window_with(window)
    for _ in range(40):
        _wheel(w.view, 120)
    assert abs(w.view.zoom - MAX_ZOOM) < 1e-9
    for _ in range(80):
        _wheel(w.view, -120)
    assert abs(w.view.zoom - MIN_ZOOM) < 1e-9
    w.view.fit_to_view()
    visible = w.view.mapToScene(w.view.viewport().rect()).boundingRect()
    assert visible.contains(w.scene.itemsBoundingRect())


def test_middle_button_pans(window, qtbot):
    w = _window_with(window)
    w.view.set_zoom(3.0)
    bar = w.view.horizontalScrollBar()
    before = bar.value()
    viewport = w.view.viewport()
    centre = viewport.rect().center()
    qtbot.mousePress(viewport, Qt.MiddleButton, pos=centre)
    qtbot.mouseMove(viewport, centre + QPoint(-60, 0))
    qtbot.mouseRelease(viewport, Qt.MiddleButton, pos=centre + QPoint(-60, 0))
    assert bar.value() != before


def test_add_node_tool_and_compact_view(window, qtbot):
    w = _window_with(window)
    w.menu_actions.tool_node.trigger()
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, pos=_at(w, 320, 0))
    assert "Node1" in w.document.network
    w.menu_actions.compact.trigger()
    item = w.scene.nodes["Wet"]
    assert item.node_style == "compact" and item.rect().height() < 40
    arc = w.scene.arcs[("Rain", "Wet")]
    assert arc.line.p2().y() < 240  # arcs follow the smaller nodes


def test_canvas_keys_do_not_fire_from_the_table(window, qtbot):
    w = _window_with(window)
    w.scene.select_only(["Rain"])
    table = w.cpt_editor.table
    table.setFocus()
    table.setCurrentIndex(w.cpt_editor.model.index(0, 1))
    qtbot.keyClick(table, Qt.Key_Delete)
    qtbot.keyClick(table, Qt.Key_N)
    assert "Rain" in w.document.network and w.scene.tool == "select"
    w.view.setFocus()
    qtbot.keyClick(w.view, Qt.Key_N)
    assert w.scene.tool == "add_node"


def test_a_message_floats_over_the_canvas_without_moving_it(window, qtbot):
    """Seen: a banner pushed the canvas down, so the node under the mouse moved away."""
    w = _window_with(window)
    geometry, shown = w.view.geometry(), w.view.mapToScene(w.view.viewport().rect()).boundingRect()
    w.show_message("error", "arc Wet -> Cloudy would create the cycle Cloudy -> Rain -> Wet -> Cloudy")
    QApplication.processEvents()
    bar = w.message_bar
    assert bar.isVisible() and bar.parentWidget() is w.view
    assert w.view.geometry() == geometry
    assert w.view.mapToScene(w.view.viewport().rect()).boundingRect() == shown
    assert w.view.rect().contains(bar.geometry()) and bar.geometry().top() < 20
    assert bar.label.width() > w.view.width() // 2     # the text has the canvas's width to wrap in


def test_bars_turn_into_their_summary_where_they_would_be_unreadable_and_back(window):
    from bnstudio.gui.canvas import style as st

    w = _window_with(window)
    node = w.scene.nodes["Rain"]
    w.view.set_zoom(1.0)
    assert node.node_style == st.BARS
    w.view.set_zoom(0.5)                                    # 10 px state names would be 5 px: unreadable
    assert node.node_style == st.SUMMARY and w.scene.node_style == st.BARS
    assert node.rect().size() == QSizeF(*st.node_size("Rain", 2, st.BARS))   # same box: nothing moves
    assert "summaries" in w.zoom_label.text()
    w.view.set_zoom(0.7)                                    # between the two thresholds: no flicker
    assert node.node_style == st.SUMMARY
    w.view.set_zoom(0.8)
    assert node.node_style == st.BARS and "summaries" not in w.zoom_label.text()
    w.set_node_style(st.COMPACT)                            # the user's compact choice holds at any zoom
    w.view.set_zoom(2.0)
    assert node.node_style == st.COMPACT
    w.view.set_zoom(0.3)
    assert node.node_style == st.COMPACT


def test_opening_a_network_fits_it_whole_when_that_is_readable(window):
    """Asia fits a 900x600 window in bar charts and opens whole; ALARM would be drawn as summaries (some states
    only, names cut): it opens at the first sight's zoom, in bar charts, its top shown (issue 38)."""
    from bnstudio.gui.canvas import style as st
    from bnstudio.gui.canvas.view import FIRST_SIGHT_ZOOM, FIT_DOWN_TO
    from tests.gui.conftest import ALARM, ASIA

    window.resize(900, 600)
    assert window.open_path(ASIA)
    assert window.view.open_view()
    shown = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
    assert shown.contains(window.scene.itemsBoundingRect()) and window.view.zoom >= FIT_DOWN_TO
    assert window.open_path(ALARM)
    assert not window.view.open_view()
    shown = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
    content = window.scene.content_rect()
    assert window.view.zoom == pytest.approx(FIRST_SIGHT_ZOOM) and window.scene.drawn_style == st.BARS
    assert shown.top() <= content.top() < shown.bottom() and not shown.contains(content)


def test_find_a_node_and_focus_on_its_family(window, qtbot):
    w = _window_with(window)
    w.view.set_zoom(0.3)
    w.menu_actions.find.trigger()                                     # Ctrl+F
    bar = w.view.find_bar
    assert bar.isVisible() and bar.hasFocus()
    qtbot.keyClicks(bar, "sprink")                               # part of the name, any case
    qtbot.keyClick(bar, Qt.Key_Return)
    assert not bar.isVisible() and w.scene.selected_names() == ["Sprinkler"]
    assert w.view.zoom == pytest.approx(1.0)
    shown = w.view.mapToScene(w.view.viewport().rect()).boundingRect()
    assert shown.contains(w.scene.nodes["Sprinkler"].sceneBoundingRect())
    w.menu_actions.find.trigger()
    bar.clear()
    qtbot.keyClicks(bar, "nothing like it")
    qtbot.keyClick(bar, Qt.Key_Return)
    assert bar.isVisible() and w.scene.selected_names() == ["Sprinkler"]   # no such node: stays, says so
    qtbot.keyClick(bar, Qt.Key_Escape)
    assert not bar.isVisible()
    w.view.focus_neighbourhood("Rain")
    assert sorted(w.scene.selected_names()) == ["Cloudy", "Rain", "Wet"]
    shown = w.view.mapToScene(w.view.viewport().rect()).boundingRect()
    assert all(shown.contains(w.scene.nodes[n].sceneBoundingRect()) for n in ("Cloudy", "Rain", "Wet"))


def test_any_network_fits_even_below_ten_percent(window):
    from bnstudio.core.network import Network
    from bnstudio.gui.canvas.view import MIN_ZOOM

    net = Network("wide")
    for k in range(400):
        net.add_variable(f"N{k}", ["a", "b"], position=(300.0 * k, 0.0))
    window.document.replace_network(net)
    window.view.fit_to_view()
    assert window.view.zoom < MIN_ZOOM
    slack = 3 / window.view.zoom                                 # scrolling moves whole pixels
    shown = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
    assert shown.adjusted(-slack, -slack, slack, slack).contains(window.scene.itemsBoundingRect())
