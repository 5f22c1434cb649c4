"""What a newcomer sees in the first minute: counts in words that agree with their number, and nothing left
over from a network that is no longer open (issue 23)."""
from __future__ import annotations


def test_the_status_bar_counts_one_node_in_the_singular(window):
    doc = window.document
    assert window.summary_label.text() == "0 nodes · 0 arcs"
    doc.network.add_variable("Rain", ["yes", "no"])
    window._update_status()
    assert window.summary_label.text() == "1 node · 0 arcs"


# ------------------------------------------------------------------ switching networks
import re  # noqa: E402

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QAbstractItemView, QApplication, QComboBox, QLabel, QLineEdit  # noqa: E402

from bnstudio.app.resources import resource_root  # noqa: E402
from bnstudio.gui.message_bar import COMPUTING  # noqa: E402

from .conftest import ALARM, ASIA  # noqa: E402


def shown_texts(window) -> list[str]:
    """Every text the window and its docks can show: labels, fields, combo boxes, table cells, the status bar
    and the title (hidden docks included: a tab raised later would show them)."""
    texts = [window.windowTitle(), window.statusBar().currentMessage()]
    for widget in window.findChildren(QLabel):
        texts.append(widget.text())
    for widget in window.findChildren(QLineEdit):
        texts.append(widget.text())
    for widget in window.findChildren(QComboBox):
        texts += [widget.itemText(k) for k in range(widget.count())]
    for view in window.findChildren(QAbstractItemView):
        model = view.model()
        if model is None:
            continue
        for row in range(min(model.rowCount(), 200)):
            for column in range(model.columnCount()):
                texts.append(str(model.data(model.index(row, column), Qt.DisplayRole) or ""))
    return [t for t in texts if t]


def load_data(qtbot, window, name: str) -> None:
    with qtbot.waitSignal(window.data_panel.selection_changed, timeout=20000):
        window.data_panel.load(resource_root() / "data" / name, interactive=False, with_file=True)


def settle(qtbot) -> None:
    for _ in range(3):
        QApplication.processEvents()
    qtbot.wait(60)


def test_opening_another_network_leaves_nothing_of_the_first_on_show(qtbot, window):
    """Open ALARM, fit bagged-mp, ask a query with intervals, then open ASIA: no label, field, table, status
    line or title shows a name or number of ALARM (seen: "Bootstrap 90% (200 bags)" of the discarded run, the
    run's "2. clgd … 0.08 s" status and axes, "'abc' is not a number" after the cell was fixed)."""
    w = window
    assert w.open_path(ALARM)
    load_data(qtbot, w, "alarm.csv")
    training = w.training_panel
    training.options.set_method("bagged-mp")
    training.options.set_value("bags", 5)
    with qtbot.waitSignal(training.run_finished, timeout=60000):
        assert training.run() is not None
    w.show_dock("query")
    w.query_panel.set_target({"HYPOVOLEMIA": "TRUE"})
    w.query_panel.set_ess(10.0)
    settle(qtbot)
    before = w.query_panel.summary.text.text()
    assert "Bootstrap" in before and "HYPOVOLEMIA" in before
    old_p = f"{w.query_panel.answer.mean:.4f}"
    assert training.status.text().startswith("1. bagged-mp") and training.plot.plots["nll"].viewRange()[0][1] > 0
    w.document.message.emit("warning", "'abc' is not a number")
    assert "abc" in w.statusBar().currentMessage()

    asia = [v for v in __import__("bnstudio").read_network(ASIA).variables]
    alarm_names = [v for v in __import__("bnstudio").read_network(ALARM).variables if v not in asia]
    assert w.open_path(ASIA)
    settle(qtbot)
    texts = "\n".join(shown_texts(w))
    leftovers = [name for name in alarm_names if re.search(rf"\b{re.escape(name)}\b", texts)]
    assert leftovers == []
    for stale in ("Bootstrap", "1. bagged-mp", "5 bags", "abc", old_p):
        assert stale not in texts, stale
    # the one mention of the old data set is the notice that it was closed
    assert all("so it was closed" in t for t in shown_texts(w) if "alarm" in t.lower())
    assert w.query_panel.ensemble is None and w.query_panel.answer is not None
    assert w.query_panel.answer.bootstrap is None and w.query_panel.answer.target.keys() <= set(asia)
    assert training.status.text() == "" and training.runs == []
    assert training.plot.plots["nll"].viewRange()[0] == [0, 1]


def test_a_fixed_cell_clears_the_refusal_of_the_bad_one(qtbot, alarm_window):
    w = alarm_window
    w.document.message.emit("warning", "'abc' is not a number")
    assert "abc" in w.statusBar().currentMessage() and w.message_bar.text
    assert w.set_ess_for_all(5.0)           # any edit that goes through
    assert w.statusBar().currentMessage() == "" and not w.message_bar.text


def test_a_large_network_says_computing_until_its_answer_is_there(qtbot, window, monkeypatch):
    """Seen on munin: the previous network's p(Test=yes) for seconds, no sign anything was computing."""
    from bnstudio.app import beliefs

    w = window
    assert w.open_path(ASIA)
    w.show_dock("query")
    settle(qtbot)
    assert w.query_panel.answer is not None
    monkeypatch.setattr(beliefs.Beliefs, "in_background", property(lambda self: True))
    assert w.open_path(ALARM)
    assert w.query_panel.summary.text.text() == COMPUTING and w.query_panel.answer is None
    qtbot.waitUntil(lambda: w.query_panel.answer is not None, timeout=10000)
