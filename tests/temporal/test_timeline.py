"""The Qt-free helpers of the app's view of a 2TBN over time (bnstudio/temporal/timeline.py): the cheap 2TBN
check, the evidence of T slices from a table and the canvas's findings, and one slice's beliefs by node name,
against the unrolled network's exact engine."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bnstudio.core.network import Network
from bnstudio.errors import EvidenceError, ValidationError
from bnstudio.io import read_network
from bnstudio.temporal import from_network, unrolled_posterior
from bnstudio.temporal.timeline import as_two_slice, beliefs_over_time, slice_view, timeline_codes

NETWORKS = Path(__file__).resolve().parents[2] / "resources" / "networks"
UMBRELLA = NETWORKS / "temporal" / "umbrella.bif"
CSV = UMBRELLA.with_suffix(".csv")


@pytest.fixture(scope="module")
def tbn():
    return from_network(read_network(UMBRELLA))


def test_as_two_slice_answers_without_raising():
    assert as_two_slice(read_network(NETWORKS / "asia.bif")) is None
    assert as_two_slice(read_network(UMBRELLA)).radicals == ("Rain", "Umbrella")
    half = Network("half")                       # names in the convention, but Bt has no slice-0 copy B0
    half.add_variable("A0", ["x", "y"])
    half.add_variable("At", ["x", "y"], ["A0"], [[0.5, 0.5], [0.5, 0.5]])
    half.add_variable("Bt", ["x", "y"])
    assert as_two_slice(half) is None
    only_first = Network("first")                # every name ends in 0: a plain network, not a 2TBN
    only_first.add_variable("A0", ["x", "y"])
    only_first.add_variable("B0", ["x", "y"])
    assert as_two_slice(only_first) is None


def test_timeline_codes_place_the_table_and_the_findings(tbn):
    table = pd.read_csv(CSV, dtype=str)
    codes = timeline_codes(tbn, 7, table, {"Rain0": "no", "Umbrellat": "no"}, at=4)
    # Umbrella: yes yes no yes [no: the finding replaces the table's yes] then two unobserved slices
    assert codes[:, 1].tolist() == [0, 0, 1, 0, 1, -1, -1]
    assert codes[:, 0].tolist() == [1, -1, -1, -1, -1, -1, -1]
    assert timeline_codes(tbn, 3, table).shape == (3, 2)       # rows beyond T are not used
    with pytest.raises(EvidenceError, match="likelihood finding on 'Umbrellat'"):
        timeline_codes(tbn, 5, None, {"Umbrellat": [0.3, 0.7]})
    with pytest.raises(ValidationError, match="between 1 and 4"):
        timeline_codes(tbn, 5, None, {"Umbrellat": "no"}, at=5)
    with pytest.raises(EvidenceError, match="'maybe' is not a state"):
        timeline_codes(tbn, 5, None, {"Rain0": "maybe"})


@pytest.mark.parametrize("mode", ["smoothing", "filtering"])
def test_beliefs_and_slice_view_agree_with_the_unrolled_engine(tbn, mode):
    codes = timeline_codes(tbn, 6, pd.read_csv(CSV, dtype=str), {"Rain0": "yes"})
    result = beliefs_over_time(tbn, codes, mode)
    for k in range(6):
        seen = {f"{r}{s}": tbn.states(r)[codes[s, j]] for s in range(6 if mode == "smoothing" else k + 1)
                for j, r in enumerate(tbn.radicals) if codes[s, j] >= 0}
        exact = unrolled_posterior(tbn, 6, [f"Rain{k}"], seen)[f"Rain{k}"]
        np.testing.assert_allclose(result.beliefs["Rain"][k], exact, atol=1e-12)
        view = slice_view(tbn, result, codes, k)
        np.testing.assert_array_equal(view["Raint"][0], result.beliefs["Rain"][k])
        np.testing.assert_array_equal(view["Rain0"][0], result.beliefs["Rain"][0])
        assert view["Umbrellat"][1] == (None if codes[k, 1] < 0 else tbn.states("Umbrella")[codes[k, 1]])
        assert view["Rain0"][1] == "yes"
