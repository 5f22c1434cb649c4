"""``bnstudio decide``: through the program's main with the subcommand registered (as the lead will register
it), so exit statuses and one-line errors are those users see."""
from __future__ import annotations

import importlib
import json

import pytest

from tests.decision.helpers import OIL

cli = importlib.import_module("bnstudio.cli.main")


@pytest.fixture
def run(monkeypatch, capsys):
    monkeypatch.setitem(cli.SUBCOMMANDS, "decide", "bnstudio.cli.decide")

    def call(*argv: str) -> tuple[int, str, str]:
        status = cli.main(["decide", *map(str, argv)])
        out, err = capsys.readouterr()
        return status, out, err
    return call


def test_json_output_of_the_oil_wildcatter(run):
    status, out, err = run(OIL, "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["method"] == "no-forgetting"
    assert data["expected_utility"] == pytest.approx(22.5, abs=1e-12)
    test, drill = data["decisions"]
    assert test["name"] == "Test" and test["best"] == "yes"
    assert test["options"] == pytest.approx({"yes": 22.5, "no": 20.0}, abs=1e-12)
    assert {"past": {"Test": "yes", "Result": "diffuse"}, "choice": "no"} in drill["policy"]


def test_evidence_taken_decision_and_error_bars(run):
    status, out, _ = run(OIL, "--evidence", "Test=yes", "--evidence", "Result=open", "--errorbars", "--ess", "20",
                         "--mc", "200", "--seed", "1", "--json")
    data = json.loads(out)
    assert status == 0
    assert data["decisions"][0]["taken"] == "yes"
    # p(Oil | open) ∝ (0.15, 0.12, 0.08): drilling pays (0.15·-70 + 0.12·50 + 0.08·200)/0.35 - 10
    assert data["expected_utility"] == pytest.approx((0.15 * -70 + 0.12 * 50 + 0.08 * 200) / 0.35 - 10, abs=1e-9)
    bar = data["errorbar"]
    assert bar["sd"] > 0 and bar["normal"][0] < data["expected_utility"] < bar["normal"][1]
    assert bar["mc"]["r"] == 200 and bar["contributions"][0]["variable"] in {"Oil", "Result"}


def test_text_output(run):
    status, out, _ = run(OIL, "--errorbars", "--ess", "50")
    assert status == 0
    assert "expected utility 22.5 given no evidence (no-forgetting)" in out
    assert "Test=yes, Result=diffuse -> no" in out and "error bar: sd" in out


@pytest.mark.parametrize("argv, message", [
    (["--evidence", "Oil=gushing"], "variable 'Oil' has no state 'gushing'"),
    (["--evidence", "Test=no", "--evidence", "Result=open"], "impossible evidence"),
    (["--evidence", "Payoff=1"], "'Payoff' is a utility node"),
    (["--errorbars"], "no Dirichlet counts for Oil, Result"),
    (["--ess", "5"], "--ess, --mc and --seed need --errorbars"),
    (["--errorbars", "--ess", "nan"], "argument --ess"),
    (["--method", "magic"], "argument --method"),
])
def test_bad_input_is_one_line_and_exit_2(run, argv, message):
    status, out, err = run(OIL, *argv)
    assert status == 2 and out == ""
    assert err.startswith("bnstudio: error: ") and message in err and err.count("\n") == 1


def test_bad_files_name_the_file(run, tmp_path):
    missing = tmp_path / "none.json"
    status, _, err = run(missing)
    assert status == 2 and "none.json" in err
    broken = tmp_path / "broken.json"
    data = json.loads(OIL.read_text())
    data["decisions"][1]["parents"] = ["Test", "Result", "Payoff"]
    broken.write_text(json.dumps(data))
    status, _, err = run(broken)
    assert status == 2 and "broken.json: utility node 'Payoff' has a child 'Drill'" in err
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{")
    status, _, err = run(bad_json)
    assert status == 2 and "bad.json:1:2: invalid JSON" in err


def test_the_module_imports_no_numerical_library_at_parse_time():
    import subprocess
    import sys
    code = ("import sys, argparse, bnstudio.cli.decide as d; d.add_arguments(argparse.ArgumentParser()); "
            "print(sorted(m for m in ('numpy', 'scipy', 'networkx') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
