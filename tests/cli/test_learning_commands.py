"""``bnstudio fit``, ``evaluate`` and ``errorbars`` on the bundled data: JSON shapes, files, one-line errors."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bnstudio.cli import main
from bnstudio.data import align, read_csv
from bnstudio.io import read_network
from bnstudio.learn.params import make_learner
from bnstudio.uncertainty import error_bars

ROOT = Path(__file__).resolve().parents[2]
ASIA, ASIA_CSV = ROOT / "resources/networks/asia.bif", ROOT / "resources/data/asia.csv"


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_fit_json_history_and_the_written_network_matches_the_api(capsys, tmp_path):
    out_path = tmp_path / "asia_mp.bif"
    status, out, _ = run(capsys, "fit", ASIA, ASIA_CSV, "--method", "mp", "--target", "lung", "-o", out_path, "--json")
    assert status == 0
    payload = json.loads(out)
    assert payload["method"] == "mp" and payload["stop_reason"] == "closed_form"
    assert {"iteration", "nll", "cnll", "seconds"} <= set(payload["history"][0])
    net = read_network(ASIA)
    expected = make_learner("mp").fit(net, align(read_csv(ASIA_CSV), net).codes).cpts
    written = read_network(out_path)
    for v in net.variables:
        np.testing.assert_allclose(written.cpt(v), expected[v], atol=1e-12)


def test_fit_to_a_project_keeps_counts_and_history(capsys, tmp_path):
    out_path = tmp_path / "asia.bnsproj"
    status, out, _ = run(capsys, "fit", ASIA, ASIA_CSV, "--method", "clgd", "--target", "lung", "--max-iter", "4",
                         "-o", out_path)
    assert status == 0 and "clgd:" in out and out.count("nll=") >= 2   # one line per iteration
    from bnstudio.io.project import load_project
    project = load_project(out_path)
    assert project.runs[0]["method"] == "clgd" and len(project.runs[0]["history"]) >= 2
    status, out, _ = run(capsys, "fit", ASIA, ASIA_CSV, "--method", "mp", "-o", tmp_path / "mp.bnsproj")
    assert load_project(tmp_path / "mp.bnsproj").network.alpha("lung") is not None


def test_evaluate_and_cross_validate(capsys):
    status, out, _ = run(capsys, "evaluate", ASIA, ASIA_CSV, "--target", "lung", "--json")
    scores = json.loads(out)
    assert status == 0 and scores["n"] == 3000 and len(scores["confusion"]) == 2
    assert 0 <= scores["error_rate"] <= 1 and scores["cll"] < 0
    status, out, _ = run(capsys, "evaluate", ASIA, ASIA_CSV, "--target", "lung", "--folds", "3", "--method", "mp",
                         "--seed", "1", "--json")
    cv = json.loads(out)
    assert status == 0 and cv["folds"] == 3 and len(cv["per_fold"]) == 3
    assert sum(f["n"] for f in cv["per_fold"]) == 3000


def test_errorbars_from_data_matches_the_api(capsys):
    status, out, _ = run(capsys, "errorbars", ASIA, "--data", ASIA_CSV, "--prior", "laplace", "--target", "lung=yes",
                         "--evidence", "xray=yes", "--json")
    assert status == 0
    record = json.loads(out)["results"][0]
    net = read_network(ASIA)
    fitted = make_learner("mp").fit(net, align(read_csv(ASIA_CSV), net).codes).network(net)
    expected = error_bars(fitted, {"lung": "yes"}, {"xray": "yes"})
    assert record["mean"] == pytest.approx(expected.mean, abs=1e-12)
    assert record["variance"] == pytest.approx(expected.variance, rel=1e-10)
    assert record["contributions"][0]["variable"] == expected.delta.contributions[0].variable


def test_errorbars_queries_file_with_expert_ess_and_mc(capsys, tmp_path):
    path = tmp_path / "q.json"
    path.write_text(json.dumps([{"target": {"lung": "yes"}, "evidence": {"xray": "yes"}},
                                {"target": {"lung": "yes", "tub": "no"}, "evidence": {}}]))
    status, out, _ = run(capsys, "errorbars", ASIA, "--ess", "50", "--queries", path, "--mc", "300", "--seed", "2",
                         "--json")
    results = json.loads(out)["results"]
    assert status == 0 and len(results) == 2 and results[1]["target"] == {"lung": "yes", "tub": "no"}
    assert all("mc" in r and 0 <= r["mc"]["coverage_normal"] <= 1 for r in results)


@pytest.mark.parametrize("argv, fragment", [
    (["errorbars", str(ASIA), "--target", "lung=yes"], "set an effective sample size or learn from data"),
    (["errorbars", str(ASIA), "--ess", "10", "--target", "lung=maybe"], "no state 'maybe'"),
    (["errorbars", str(ASIA), "--ess", "10", "--target", "lung=yes", "--evidence", "tub=yes",
      "--evidence", "either=no"], "impossible evidence"),
    (["fit", str(ASIA), str(ASIA_CSV), "--method", "ml", "--bags", "3", "-o", "/tmp/x.bif"], "does not apply"),
    (["fit", str(ASIA), str(ASIA_CSV), "--method", "wanbia", "--target", "lung", "-o", "/tmp/x.bif"],
     "wanbia needs"),
    (["evaluate", str(ASIA), "missing.csv", "--target", "lung"], "missing.csv"),
    (["evaluate", str(ASIA), str(ASIA_CSV), "--target", "nope"], "unknown variable 'nope'"),
])
def test_learning_commands_fail_with_one_line(capsys, argv, fragment):
    status, _, err = run(capsys, *argv)
    assert status == 2 and fragment in err and len(err.strip().splitlines()) == 1


def test_errorbars_sensitivity_and_bootstrap_match_the_api(capsys):
    from bnstudio.uncertainty import bootstrap_spread, row_index, sensitivity

    status, out, _ = run(capsys, "errorbars", ASIA, "--data", ASIA_CSV, "--target", "lung=yes", "--evidence",
                         "xray=yes", "--sensitivity", "lung=yes", "--sensitivity", "xray=no", "--row", "either=yes",
                         "--points", "11", "--bags", "15", "--seed", "5", "--json")
    assert status == 0
    record = json.loads(out)["results"][0]
    net = read_network(ASIA)
    codes = align(read_csv(ASIA_CSV), net).codes
    fitted = make_learner("mp").fit(net, codes).network(net)
    bars = error_bars(fitted, {"lung": "yes"}, {"xray": "yes"})
    lung, xray = record["sensitivity"]
    top = max((c for c in bars.delta.contributions if c.variable == "lung"), key=lambda c: c.variance)
    assert lung["parents"] == top.parents                  # default row: the one adding most variance
    want = sensitivity(fitted, bars, "lung", row_index(fitted, "lung", top.parents), 0, points=11)
    assert lung["exact"] == pytest.approx(want.exact.tolist(), abs=1e-12) and lung["slope"] == pytest.approx(want.slope)
    assert xray["parents"] == {"either": "yes"} and xray["state"] == "no" and len(xray["theta"]) >= 11
    ensemble = make_learner("bagged-mp", bags=15, seed=5).fit(net, codes).ensemble
    spread = bootstrap_spread(fitted, ensemble, {"lung": "yes"}, {"xray": "yes"}, 0.9)
    assert record["bootstrap"]["bags"] == 15
    assert record["bootstrap"]["mean"] == pytest.approx(spread.mean, abs=1e-12)
    assert (record["bootstrap"]["low"], record["bootstrap"]["high"]) == pytest.approx((spread.low, spread.high))
    status, text, _ = run(capsys, "errorbars", ASIA, "--ess", "10", "--target", "lung=yes", "--sensitivity", "smoke=no")
    assert status == 0 and "sensitivity to θ(smoke=no) = 0.5: slope" in text


@pytest.mark.parametrize("extra, fragment", [
    (["--sensitivity", "lung=maybe"], "no state 'maybe'"),
    (["--sensitivity", "nope=yes"], "unknown variable 'nope'"),
    (["--sensitivity", "either=yes", "--row", "lung=yes"], "needs the state of parent(s) tub"),
    (["--sensitivity", "lung=yes", "--row", "asia=no"], "not a parent of any --sensitivity variable"),
    (["--bags", "5"], "--bags needs --data"),
])
def test_errorbars_sensitivity_and_bags_fail_with_one_line(capsys, extra, fragment):
    status, _, err = run(capsys, "errorbars", ASIA, "--ess", "10", "--target", "lung=yes", *extra)
    assert status == 2 and fragment in err and len(err.strip().splitlines()) == 1


def test_errorbars_two_states_of_one_variable_and_option_bounds(capsys):
    status, out, _ = run(capsys, "errorbars", ASIA, "--ess", "10", "--target", "lung=yes", "--sensitivity",
                         "smoke=yes", "--sensitivity", "smoke=no", "--json")
    curves = json.loads(out)["results"][0]["sensitivity"]
    assert status == 0 and [c["state"] for c in curves] == ["yes", "no"]
    assert curves[0]["slope"] == pytest.approx(-curves[1]["slope"])       # the two entries of one binary row
    for extra, fragment in ((["--points", "100000000"], "--points: must be an integer in 2..10001"),
                            (["--level", "1.5"], "--level: must be a finite number in (0, 1)"),
                            (["--sensitivity", "smoke"], "malformed --sensitivity 'smoke'")):
        status, _, err = run(capsys, "errorbars", ASIA, "--ess", "10", "--target", "lung=yes", *extra)
        assert status == 2 and fragment in err and len(err.strip().splitlines()) == 1
