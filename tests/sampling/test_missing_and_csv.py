"""Incomplete data (MCAR cells, latent columns), state-name frames and CSV output."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.errors import UnknownVariableError, ValidationError
from bnstudio.io import read_network
from bnstudio.sampling import codes_to_frame, forward_sample, hide_at_random, hide_variables, write_samples_csv

ASIA = Path(__file__).resolve().parents[2] / "resources" / "networks" / "asia.bif"


@pytest.fixture(scope="module")
def asia():
    return read_network(ASIA)


@pytest.mark.parametrize("fraction", [0.05, 0.2, 0.5])
def test_mcar_rate_is_close_to_the_requested_fraction(asia, fraction):
    codes = forward_sample(asia, 20000, seed=1)
    hidden = hide_at_random(codes, fraction, seed=2)
    missing = hidden == -1
    assert abs(missing.mean() - fraction) < 0.005
    assert np.all(np.abs(missing.mean(axis=0) - fraction) < 0.02)  # every column, not just overall
    assert np.array_equal(hidden[~missing], codes[~missing])  # other cells untouched
    assert not np.any(codes == -1)  # the input is not modified


def test_mcar_edge_cases_and_reproducibility(asia):
    codes = forward_sample(asia, 100, seed=1)
    assert np.array_equal(hide_at_random(codes, 0.0, seed=1), codes)
    assert np.all(hide_at_random(codes, 1.0, seed=1) == -1)
    assert np.array_equal(hide_at_random(codes, 0.3, seed=9), hide_at_random(codes, 0.3, seed=9))
    assert not np.array_equal(hide_at_random(codes, 0.3, seed=9), hide_at_random(codes, 0.3, seed=10))
    for bad in (-0.1, 1.5):
        with pytest.raises(ValidationError, match="between 0 and 1"):
            hide_at_random(codes, bad)


def test_hidden_variables_are_whole_missing_columns(asia):
    codes = forward_sample(asia, 1000, seed=4)
    hidden = hide_variables(codes, asia, ["lung", "either"])
    cols = [asia.variables.index("lung"), asia.variables.index("either")]
    others = [k for k in range(len(asia)) if k not in cols]
    assert np.all(hidden[:, cols] == -1)
    assert np.array_equal(hidden[:, others], codes[:, others])
    assert not np.any(codes == -1)
    with pytest.raises(UnknownVariableError, match="ghost"):
        hide_variables(codes, asia, ["ghost"])


def test_counts_must_be_sensible(asia):
    assert forward_sample(asia, 0, seed=1).shape == (0, 8)
    for bad in (-1, 2.5, "10", True):
        with pytest.raises(ValidationError, match="number of samples"):
            forward_sample(asia, bad, seed=1)


def test_codes_to_frame_uses_state_names_and_nan_for_missing(asia):
    codes = hide_variables(forward_sample(asia, 200, seed=3), asia, ["tub"])
    codes[0, 0] = -1
    frame = codes_to_frame(asia, codes)
    assert list(frame.columns) == asia.variables and len(frame) == 200
    assert frame["tub"].isna().all() and pd.isna(frame.iloc[0, 0])
    assert list(frame["xray"].cat.categories) == ["yes", "no"]
    k = asia.variables.index("smoke")
    assert list(frame["smoke"]) == [asia.states("smoke")[c] for c in codes[:, k]]


def test_codes_to_frame_rejects_bad_codes(asia):
    with pytest.raises(ValidationError, match="shape"):
        codes_to_frame(asia, np.zeros((3, 7), dtype=int))
    codes = np.zeros((3, 8), dtype=int)
    codes[2, 4] = 2
    with pytest.raises(ValidationError, match="code 2 in row 2 is not a state of 'bronc'"):
        codes_to_frame(asia, codes)


def test_csv_has_a_header_state_names_and_empty_missing_cells(tmp_path):
    net = network_from_dsl("A->B", states={"A": ["a 1", "a,2"], "B": ["yes", "no"]})
    codes = np.array([[0, 1], [1, -1], [-1, 0]])
    write_samples_csv(net, codes, tmp_path / "s.csv")
    assert (tmp_path / "s.csv").read_text(encoding="utf-8") == 'A,B\na 1,no\n"a,2",\n,yes\n'
    back = pd.read_csv(tmp_path / "s.csv", dtype=str, keep_default_na=False)
    assert back.values.tolist() == [["a 1", "no"], ["a,2", ""], ["", "yes"]]


def test_csv_write_is_atomic(tmp_path, asia, monkeypatch):
    target = tmp_path / "s.csv"
    target.write_text("old\n")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        write_samples_csv(asia, forward_sample(asia, 10, seed=1), target)
    assert target.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["s.csv"]
