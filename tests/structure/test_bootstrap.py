"""Bootstrap arc confidence: frequencies, determinism, progress and cancellation."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.errors import Cancelled, ValidationError
from bnstudio.jobs import RecordingReporter
from bnstudio.learn.structure import arc_confidence

from .conftest import sample


def test_strong_arcs_are_found_in_every_resample_and_runs_repeat_with_the_seed():
    rng = np.random.default_rng(31)
    a, d = rng.integers(0, 2, 1500), rng.integers(0, 2, 1500)
    b = a ^ (rng.random(1500) < 0.1)
    c = b ^ (rng.random(1500) < 0.15)
    codes, names, states = np.column_stack([a, b, c, d]).astype(int), ["A", "B", "C", "D"], [("0", "1")] * 4
    rec = RecordingReporter()
    conf = arc_confidence("hill-climb", codes, names, states, n_boot=8, seed=2, reporter=rec, tabu=2, restarts=1)
    assert len(rec.infos) == 8 and rec.ended
    assert conf.edge("A", "B") == pytest.approx(1.0) and conf.edge("B", "C") == pytest.approx(1.0)
    assert all(0 < f <= 1 for f in conf.arcs.values())
    again = arc_confidence("hill-climb", codes, names, states, n_boot=8, seed=2, tabu=2, restarts=1)
    assert again.arcs == conf.arcs
    assert conf.to_json()["arcs"][0][2] >= conf.to_json()["arcs"][-1][2]


def test_bad_count_and_cancellation():
    codes, names, states, _ = sample("A->B", 100, seed=32)
    with pytest.raises(ValidationError, match="n_boot"):
        arc_confidence("chow-liu", codes, names, states, n_boot=0)
    with pytest.raises(Cancelled):
        arc_confidence("chow-liu", codes, names, states, n_boot=5, reporter=RecordingReporter(stop_after=2))
