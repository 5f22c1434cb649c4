"""``bnstudio query 2TBN --filter|--smooth EVIDENCE.csv --target X=STATE --errorbars``: the API's numbers (the mean
the core's filtering, smoothing and prediction), the text table, and one-line refusals with exit 2."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from bnstudio.io import read_network
from bnstudio.temporal import filtering, from_network, prediction, smoothing, temporal_error_bars
from tests.temporal.test_cli import MACHINE, TEMPORAL, UMBRELLA, run

LEARNED = TEMPORAL / "machine_learned.bnsproj"
CSV = TEMPORAL / "machine.csv"


def evidence():
    return pd.read_csv(CSV, dtype=str)


def test_smooth_json_is_the_apis_bars(capsys):
    status, out, err = run(capsys, "query", LEARNED, "--smooth", CSV, "--target", "Wear=worn", "--target",
                           "Load=high", "--errorbars", "--level", "0.8", "--json")
    assert status == 0 and err == ""
    wear, load = json.loads(out)["results"]
    tbn = from_network(read_network(LEARNED))
    for record, (x, state, k) in ((wear, ("Wear", "worn", 1)), (load, ("Load", "high", 1))):
        assert record["kind"] == "smoothing" and record["target"] == {x: state} and record["level"] == 0.8
        ours = temporal_error_bars(tbn, evidence(), x, state, level=0.8)
        np.testing.assert_allclose(record["mean"], smoothing(tbn, evidence(), x).beliefs[x][:, k], atol=1e-12)
        np.testing.assert_allclose(record["sd"], ours.sd, rtol=1e-12)
        np.testing.assert_allclose(record["normal"], ours.normal, rtol=1e-12)
        np.testing.assert_allclose(record["beta"], ours.beta, rtol=1e-12)
        assert record["slices"] == list(range(12)) and all(s > 0 for s in record["sd"])
        assert record["contributions"][0][0]["variance"] <= record["sd"][0] ** 2 + 1e-15


def test_filter_with_prediction_is_filtering_then_prediction(capsys):
    status, out, _ = run(capsys, "query", LEARNED, "--filter", CSV, "--predict", 2, "--target", "Wear=broken",
                         "--errorbars", "--json")
    (record,) = json.loads(out)["results"]
    tbn = from_network(read_network(LEARNED))
    expected = np.concatenate([filtering(tbn, evidence(), "Wear").beliefs["Wear"][:, 2],
                               prediction(tbn, evidence(), 2, "Wear").beliefs["Wear"][:, 2]])
    assert status == 0 and record["kind"] == "filtering" and record["predicted_from"] == 12
    assert record["slices"] == list(range(14))
    np.testing.assert_allclose(record["mean"], expected, atol=1e-12)


def test_the_text_table_has_a_row_per_slice(capsys):
    status, out, _ = run(capsys, "query", LEARNED, "--filter", CSV, "--predict", 1, "--target", "Wear=worn",
                         "--errorbars")
    lines = out.splitlines()
    tbn = from_network(read_network(LEARNED))
    bars = temporal_error_bars(tbn, pd.concat([evidence(), pd.DataFrame({"Vibration": [None]})], ignore_index=True),
                               "Wear", "worn", mode="filter")
    assert status == 0 and lines[0].startswith("filtering: p(Wear_t = worn | evidence up to t) with 90% error bars")
    assert lines[3].split()[:3] == ["0", f"{bars.mean[0]:.6f}", f"{bars.sd[0]:.6f}"]
    assert lines[3 + 12].split()[:3] == ["12*", f"{bars.mean[12]:.6f}", f"{bars.sd[12]:.6f}"]
    assert "* prediction: no evidence from slice 12 on" in lines


def test_expert_counts_from_ess(capsys):
    """A 2TBN without counts gets α = ESS·θ from --ess: ten times the ESS, about √10 times narrower bars."""
    sds = []
    for ess in ("20", "200"):
        status, out, _ = run(capsys, "query", MACHINE, "--smooth", CSV, "--target", "Wear=worn", "--errorbars",
                             "--ess", ess, "--json")
        assert status == 0
        sds.append(np.array(json.loads(out)["results"][0]["sd"]))
    ratio = sds[0] / sds[1]
    assert np.all((ratio > 2.8) & (ratio < 3.4)), ratio


@pytest.mark.parametrize("network, argv, message", [
    (MACHINE, ["--smooth", CSV, "--target", "Wear=worn", "--errorbars"],
     "has no Dirichlet counts for Load0, Wear0, Vibration0, Temperature0, Loadt and more: learn it from sequences "
     "with mp"),
    (LEARNED, ["--smooth", CSV, "--target", "Wear", "--errorbars"], "malformed target 'Wear': use VAR=STATE"),
    (LEARNED, ["--smooth", CSV, "--errorbars"], "--errorbars needs --target X=STATE"),
    (LEARNED, ["--smooth", CSV, "--target", "Wear=new", "--errorbars"], "'new' is not a state of 'Wear'"),
    (LEARNED, ["--smooth", CSV, "--target", "Rust=new", "--errorbars"], "'Rust' is not a variable of the 2TBN"),
    (LEARNED, ["--slices", "3", "--target", "Wear2", "--errorbars"], "--errorbars needs --filter or --smooth"),
    (LEARNED, ["--smooth", CSV, "--target", "Wear", "--level", "0.8"], "--level and --ess go with --errorbars"),
    (LEARNED, ["--smooth", CSV, "--target", "Wear=worn", "--errorbars", "--level", "1.5"], "--level"),
    (UMBRELLA, ["--smooth", TEMPORAL / "umbrella.csv", "--target", "Rain=yes", "--errorbars", "--ess", "0"],
     "--ess"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, network, argv, message):
    status, out, err = run(capsys, "query", network, *argv)
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("bnstudio: error: ") and message in err, err
