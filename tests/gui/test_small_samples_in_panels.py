"""A small sample that shows only some of the states the network declares (ALARM, 200 rows where PULMEMBOLUS
is always FALSE) goes through every panel: data, parameter learning (every method that applies), structure
learning and error bars. Seen: the command line stopped with "pass allow_constant=True"."""
from __future__ import annotations

import pytest

from bnstudio.gui import dialogs
from bnstudio.gui.panels import learn_counts_from_data

from .conftest import ALARM

ROOT = ALARM.parents[2]


@pytest.fixture
def small_alarm(tmp_path):
    lines = (ROOT / "resources" / "data" / "alarm.csv").read_text().splitlines()
    header, rows = lines[0], lines[1:]
    column = header.split(",").index("PULMEMBOLUS")
    kept = [r for r in rows if r.split(",")[column] == "FALSE"][:200]
    path = tmp_path / "alarm200.csv"
    path.write_text("\n".join([header, *kept]) + "\n")
    return path


def test_every_panel_takes_a_sample_missing_some_states(qtbot, window, small_alarm, monkeypatch):
    monkeypatch.setattr(dialogs, "ask_save_changes", lambda *a, **k: dialogs.DISCARD)
    assert window.open_path(ALARM)
    data = window.data_panel
    with qtbot.waitSignal(data.selection_changed, timeout=20000) as blocker:
        data.load(small_alarm, interactive=False)
    assert blocker.args[0] is not None and blocker.args[0].n_rows == 200
    data.split.target.setCurrentText("BP")
    qtbot.waitUntil(lambda: window.training_panel.selection is not None
                    and window.training_panel.selection.target == "BP")
    training = window.training_panel
    for method in ("ml", "mp", "em", "lgd", "clgd", "bagged-mp"):
        training.options.set_method(method)
        with qtbot.waitSignal(training.run_finished, timeout=60000) as finished:
            assert training.run() is not None, training.message_bar.label.text()
        record = finished.args[0]
        assert record.stop_reason not in ("diverged", "stalled"), (method, record.stop_reason)
        assert all(m is None or m.get("cll") is None or m["cll"] > -1e6 for m in record.metrics.values())
    structure = window.structure_panel
    structure.options.set_options(algorithm="tan", target="BP")
    with qtbot.waitSignal(structure.learning_ended, timeout=60000) as ended:
        structure.run()
    assert ended.args[0] == "finished"
    query = window.query_panel
    query.set_target({"PULMEMBOLUS": "TRUE"})                 # a state the sample never shows
    with qtbot.waitSignal(window.document.undo_stack.indexChanged, timeout=60000):
        assert learn_counts_from_data(window)
    qtbot.waitUntil(lambda: query.answer is not None and query.answer.bars is not None, timeout=20000)
    bars = query.answer.bars
    assert 0 < bars.mean < 0.1 and bars.variance > 0
