"""The cyclic garbage collector is paused only while a short command runs, and always restored as it was."""
from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from bnstudio.cli import main
from bnstudio.cli.common import cycle_collector_paused

ALARM = Path(__file__).resolve().parents[2] / "resources" / "networks" / "alarm.bif"


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if was else gc.disable)()


def test_paused_inside_restored_after_even_on_error(collector_on):
    with cycle_collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ZeroDivisionError), cycle_collector_paused():
        raise ZeroDivisionError
    assert gc.isenabled()
    gc.disable()  # a caller that runs with the collector off (the GUI) keeps it off
    with cycle_collector_paused():
        pass
    assert not gc.isenabled()


def test_query_and_info_leave_the_collector_on(collector_on, capsys, tmp_path):
    path = tmp_path / "q.json"
    path.write_text(json.dumps([{"target": "HR", "evidence": {"BP": "LOW"}}, {"target": "HR", "evidence": {}}]))
    assert main(["query", str(ALARM), "--queries", str(path), "--json"]) == 0 and gc.isenabled()
    assert main(["query", str(ALARM), "--target", "NOPE"]) == 2 and gc.isenabled()
    assert main(["info", str(ALARM)]) == 0 and gc.isenabled()
    capsys.readouterr()
