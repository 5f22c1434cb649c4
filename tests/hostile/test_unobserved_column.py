"""Issue 25 item 9: ``fit --method ml`` with a column missing in every row warns, and the children of that
column keep what the other rows say (the parent marginalised out) instead of coming out uniform."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bnstudio.data import align, from_frame
from bnstudio.io import read_network
from bnstudio.learn.params import MaximumLikelihood
from tests.hostile.helpers import ASIA, bnstudio

DATA = ASIA.parents[1] / "data" / "asia.csv"


def _frame() -> pd.DataFrame:
    frame = pd.read_csv(DATA, dtype=str).head(3000)
    frame["smoke"] = np.nan
    return frame


def test_children_of_a_column_missing_everywhere_are_not_uniform():
    net = read_network(ASIA)
    frame = _frame()
    data = align(from_frame(frame), net).codes
    with pytest.warns(UserWarning, match="'smoke' missing in every row.*marginalised out"):
        result = MaximumLikelihood().fit(net, data)
    for child in ("lung", "bronc"):
        cpt = result.cpts[child]
        expected = frame[child].value_counts(normalize=True).reindex(net.states(child)).to_numpy()
        np.testing.assert_allclose(cpt, np.broadcast_to(expected, cpt.shape), rtol=1e-12)
    np.testing.assert_allclose(result.cpts["smoke"], [0.5, 0.5])


def test_the_command_line_warns_once(tmp_path):
    path = tmp_path / "nosmoke.csv"
    _frame().to_csv(path, index=False)
    done = bnstudio("fit", ASIA, path, "--method", "ml", "-o", tmp_path / "fit.bif")
    warnings = [line for line in done.stderr.splitlines() if "missing in every row" in line]
    assert done.returncode == 0 and len(warnings) == 1, done.stderr
    fitted = read_network(tmp_path / "fit.bif")
    assert not np.allclose(fitted.cpt("lung"), 0.5)
