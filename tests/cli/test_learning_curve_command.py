"""``bnstudio evaluate ... --learning-curve M1,M2``: the JSON is the core's learning curve on the seeded split
(issue 37); bad combinations and options are one-line errors with exit 2."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bnstudio.cli import main
from bnstudio.data import align, read_table
from bnstudio.data.split import train_test_indices
from bnstudio.evaluate.learning_curve import learning_curves
from bnstudio.io import read_network

ROOT = Path(__file__).resolve().parents[2]
ASIA = ROOT / "resources/networks/asia.bif"
DATA = ROOT / "resources/data/asia.csv"


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_json_is_the_core_learning_curve_on_the_seeded_split(capsys):
    status, out, _ = run(capsys, "evaluate", ASIA, DATA, "--target", "bronc", "--learning-curve", "mp,clgd",
                         "--sizes", "30,300", "--repeats", "2", "--max-iter", "20", "--test-fraction", "0.25",
                         "--seed", "7", "--json")
    assert status == 0
    got = json.loads(out)
    net = read_network(ASIA)
    codes = align(read_table(DATA), net).codes
    train, test = train_test_indices(len(codes), 0.25, 7)
    want = learning_curves(net, codes[train], codes[test], "bronc", ["mp", ("clgd", {"max_iter": 20})],
                           [30, 300], 2, 7)
    assert got["sizes"] == [30, 300] and got["n_test"] == len(test) == 750
    for g, w in zip(got["curves"], want.curves, strict=True):
        assert g["label"] == w.label
        np.testing.assert_allclose(g["error_rate"], w.mean("error_rate"))
        np.testing.assert_allclose(g["cll_sd"], w.sd("cll"))
    status, out, _ = run(capsys, "evaluate", ASIA, DATA, "--target", "bronc", "--learning-curve", "ml",
                         "--sizes", "50,100", "--repeats", "1")
    assert status == 0 and "ml" in out and "± 0.0000" in out


@pytest.mark.parametrize("extra, message", [
    (["--learning-curve", "mp,nope"], "unknown method 'nope'"),
    (["--learning-curve", "ml", "--ess", "2"], "--ess applies to none of ml"),
    (["--learning-curve", "mp", "--folds", "3"], "--folds does not go with --learning-curve"),
    (["--learning-curve", "mp", "--sizes", "0"], "must be an integer >= 1"),
    (["--learning-curve", "mp", "--sizes", "10,5000"], "between 1 and the 2100 training rows"),
    (["--learning-curve", "mp", "--test-fraction", "1"], "--test-fraction"),
])
def test_bad_learning_curve_options_are_one_line_errors(capsys, extra, message):
    status, _out, err = run(capsys, "evaluate", ASIA, DATA, "--target", "bronc", *extra)
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1
