"""A finished run's project entry is made in the worker (a thousand families took a tenth of a second of the
window's thread at every run): it equals the one the window would make, and it follows a relabelled run."""
from __future__ import annotations

import json

from bnstudio.app.training.job import TrainingRequest, run_training
from bnstudio.app.training.runs import RunRecord
from tests.gui_panels.training.conftest import asia_network


def test_the_worker_made_entry_equals_the_windows_and_survives_json(asia_selection):
    net = asia_network()
    for method, options in (("mp", {}), ("clgd", {"max_iter": 5})):
        outcome = run_training(TrainingRequest(method, options, net.copy(), asia_selection, f"1. {method}"), None)
        assert outcome.stored is not None
        record = RunRecord.from_outcome(outcome)
        fresh = RunRecord.from_outcome(outcome)
        fresh.saved = None                               # what the window computed itself before
        assert record.to_json() is outcome.stored
        assert json.dumps(record.to_json(), sort_keys=True) == json.dumps(fresh.to_json(), sort_keys=True)
        record.label = "renamed"                         # a changed run is converted again, not served stale
        assert record.to_json()["label"] == "renamed"
        back = RunRecord.from_json(json.loads(json.dumps(record.to_json())), 1)
        assert back.label == "renamed" and back.result is not None
