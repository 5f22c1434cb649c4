"""A fit while a message floats over the canvas leaves the network below the message (issue 38, item 10: the
message bar covered the top node's title after a fit)."""
from __future__ import annotations

from .conftest import ALARM


def top_of_network(w) -> int:
    return w.view.mapFromScene(w.scene.content_rect().topLeft()).y()


def bottom_of_bar(w) -> int:
    return w.message_bar.geometry().bottom() + 1 - w.view.viewport().y()     # both children of the view


def test_a_fit_keeps_the_top_node_below_the_message(qtbot, window):
    w = window
    assert w.open_path(ALARM)
    w.menu_actions.fit.trigger()
    assert top_of_network(w) < 60                       # fitted to the height: the top node near the top edge
    w.show_message("warning", "A message over the canvas, long enough to wrap on a narrow window at least once "
                              "so that the bar is two lines high and covers more of the canvas than a line.")
    qtbot.wait(10)
    assert top_of_network(w) < bottom_of_bar(w)        # what the user saw: the title under the bar
    w.menu_actions.fit.trigger()
    assert top_of_network(w) >= bottom_of_bar(w)
    rect = w.view.mapFromScene(w.scene.content_rect()).boundingRect()
    assert w.view.viewport().rect().contains(rect)      # still all of it in view
    w.message_bar.hide()
    w.menu_actions.fit.trigger()
    assert top_of_network(w) < 60                       # no message: the whole height again
