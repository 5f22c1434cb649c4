"""``bnstudio query`` on a 2TBN: ``--slices`` (the unrolled network's exact answers), ``--filter``/``--smooth``/
``--predict`` over an evidence CSV (the textbook umbrella numbers and the Python API's), ``--json``, one-line
errors with exit 2."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bnstudio.cli import main
from bnstudio.io import read_network
from bnstudio.temporal import filtering, from_network, prediction, smoothing, unrolled_posterior

TEMPORAL = Path(__file__).resolve().parents[2] / "resources" / "networks" / "temporal"
UMBRELLA, MACHINE = TEMPORAL / "umbrella.bif", TEMPORAL / "machine.bif"


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_slices_answer_on_the_unrolled_network(capsys):
    status, out, err = run(capsys, "query", MACHINE, "--slices", 6, "--target", "Wear5", "--target", "Load3",
                           "--evidence", "Vibration1=high", "--evidence", "Temperature4=hot", "--json")
    assert status == 0 and err == ""
    results = {r["target"]: r["posterior"] for r in json.loads(out)["results"]}
    expected = unrolled_posterior(from_network(read_network(MACHINE)), 6, ["Wear5", "Load3"],
                                  {"Vibration1": "high", "Temperature4": "hot"})
    for target, p in expected.items():
        np.testing.assert_allclose(list(results[target].values()), p, atol=1e-12)


def test_filter_and_smooth_give_the_textbook_umbrella_numbers(capsys):
    """Russell and Norvig's umbrella world: filtered 0.818, 0.883; smoothed 0.867, 0.820, 0.307, 0.820, 0.867."""
    status, out, _ = run(capsys, "query", UMBRELLA, "--filter", TEMPORAL / "umbrella.csv", "--target", "Rain",
                         "--json")
    rain = json.loads(out)["results"][0]["beliefs"]["Rain"]
    assert status == 0 and rain["states"] == ["yes", "no"]
    np.testing.assert_allclose(np.array(rain["probabilities"])[:2, 0], [0.818, 0.883], atol=5e-4)
    status, out, _ = run(capsys, "query", UMBRELLA, "--smooth", TEMPORAL / "umbrella.csv", "--json")
    rain = json.loads(out)["results"][0]["beliefs"]["Rain"]
    np.testing.assert_allclose(np.array(rain["probabilities"])[:, 0], [0.867, 0.820, 0.307, 0.820, 0.867],
                               atol=5e-4)


def test_the_cli_prints_the_apis_numbers(capsys):
    tbn = from_network(read_network(MACHINE))
    evidence = pd.read_csv(TEMPORAL / "machine.csv", dtype=str)
    status, out, _ = run(capsys, "query", MACHINE, "--filter", TEMPORAL / "machine.csv", "--predict", 3, "--json")
    filtered, predicted = json.loads(out)["results"]
    assert status == 0 and filtered["kind"] == "filtering" and predicted["kind"] == "prediction"
    assert predicted["slices"] == [12, 13, 14]
    for answer, ours in ((filtered, filtering(tbn, evidence)), (predicted, prediction(tbn, evidence, 3))):
        for x in tbn.radicals:
            np.testing.assert_allclose(answer["beliefs"][x]["probabilities"], ours.beliefs[x], atol=1e-12)
    status, out, _ = run(capsys, "query", MACHINE, "--smooth", TEMPORAL / "machine.csv", "--target", "Wear")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("smoothing: p(X_t | evidence), log p(evidence) = ")
    last = smoothing(tbn, evidence, "Wear").beliefs["Wear"][-1]
    assert lines[-2].split() == ["11", *(f"{p:.6f}" for p in last)]


@pytest.mark.parametrize("argv, message", [
    (["--slices", "3", "--target", "lung"], "does not follow the 2TBN naming convention"),
    (["--slices", "0", "--target", "Rain1"], "--slices: must be an integer >= 1"),
    (["--slices", "3", "--target", "Rain3"], "unknown variable 'Rain3'"),
    (["--slices", "100000000", "--target", "Rain3"], "filter or smooth the sequence instead"),
    (["--filter", "{tmp}/missing.csv"], "no such file"),
    (["--filter", "{machine_csv}"], "table column 'Vibration' is not a variable of the 2TBN 'umbrella'"),
    (["--filter", "{bad_state}"], "Umbrella"),
    (["--smooth", "{umbrella_csv}", "--predict", "2"], "--predict needs --filter"),
    (["--filter", "{umbrella_csv}", "--slices", "3"], "drop --slices"),
    (["--filter", "{umbrella_csv}", "--smooth", "{umbrella_csv}"], "not allowed with argument"),
    (["--filter", "{umbrella_csv}", "--target", "Sun"], "'Sun' is not a variable of the 2TBN"),
    (["--filter", "{impossible}"], "the evidence of slice 1 is impossible"),
    (["--slices", "2", "--target", "Rain1", "--mpe"], "--slices does not combine with --mpe"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, argv, message):
    (tmp_path / "bad.csv").write_text("Umbrella\nyes\nmaybe\n")
    (tmp_path / "impossible.csv").write_text("Wear\nbroken\nok\n")  # wear never heals
    files = {"tmp": tmp_path, "machine_csv": TEMPORAL / "machine.csv", "umbrella_csv": TEMPORAL / "umbrella.csv",
             "bad_state": tmp_path / "bad.csv", "impossible": tmp_path / "impossible.csv"}
    network = TEMPORAL.parent / "asia.bif" if "lung" in argv else MACHINE if "{impossible}" in argv else UMBRELLA
    status, out, err = run(capsys, "query", network, *(a.format(**files) for a in argv))
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("bnstudio: error: ") and message in err, err
