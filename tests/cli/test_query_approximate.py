"""`bnstudio query --approximate [METHOD] --samples N --seed S`, and the automatic estimate of a query that
exact inference cannot hold (docs/inference.md §12)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bnstudio.cli import main
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network, write_network
from tests.cli.test_query_paths import grid

ALARM = Path(__file__).resolve().parents[2] / "resources" / "networks" / "alarm.bif"


def run_json(capsys, *args: str) -> dict:
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_approximate_query_gives_the_posterior_and_its_standard_error(capsys):
    out = run_json(capsys, "query", str(ALARM), "--target", "HYPOVOLEMIA", "--evidence", "BP=LOW",
                   "--approximate", "--samples", "40000", "--seed", "5")
    record = out["results"][0]
    exact = InferenceEngine(read_network(ALARM)).posterior("HYPOVOLEMIA", {"BP": "LOW"})["HYPOVOLEMIA"]
    assert record["method"] == "likelihood-weighting" and record["samples"] == 40000
    for k, state in enumerate(("TRUE", "FALSE")):
        assert abs(record["posterior"][state] - exact[k]) <= 5 * record["standard_error"][state]
    again = run_json(capsys, "query", str(ALARM), "--target", "HYPOVOLEMIA", "--evidence", "BP=LOW",
                     "--approximate", "--samples", "40000", "--seed", "5")
    assert again == out     # a seed fixes the numbers


def test_loopy_bp_says_whether_it_converged(capsys):
    record = run_json(capsys, "query", str(ALARM), "--target", "LVFAILURE", "--evidence", "HRBP=HIGH",
                      "--approximate", "loopy-bp")["results"][0]
    assert record["method"] == "loopy-bp" and record["converged"] is True and "standard_error" not in record


def test_an_exact_answer_carries_no_method_field(capsys):
    record = run_json(capsys, "query", str(ALARM), "--target", "LVFAILURE")["results"][0]
    assert set(record) == {"target", "evidence", "posterior"}


@pytest.mark.slow
def test_a_query_beyond_the_memory_budget_is_estimated_and_says_why(tmp_path, capsys):
    path = tmp_path / "grid40.bif"
    write_network(grid(40, 2), path)
    assert main(["query", str(path), "--target", "x39_39", "--evidence", "x0_0=s0", "--samples", "5000"]) == 0
    text = capsys.readouterr().out
    assert "standard error" in text and "likelihood weighting, 5000 samples" in text
    assert "why: exact inference does not fit" in text and "memory budget" in text
    record = run_json(capsys, "query", str(path), "--target", "x39_39", "--evidence", "x0_0=s0",
                      "--samples", "5000")["results"][0]
    se = np.array(list(record["standard_error"].values()))
    assert record["method"] == "likelihood-weighting" and np.all((se > 0) & (se < 0.02))


@pytest.mark.parametrize("args, message", [
    (["--samples", "0"], "--samples: must be an integer in 1..100000000"),
    (["--approximate", "gibbs"], "invalid choice: 'gibbs'"),
    (["--seed", "-1"], "--seed: must be an integer"),
])
def test_bad_options_get_one_line(capsys, args, message):
    assert main(["query", str(ALARM), "--target", "LVFAILURE", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.slow
def test_errorbars_beyond_the_memory_budget_give_both_errors(tmp_path, capsys):
    path = tmp_path / "grid40.bif"
    write_network(grid(40, 2), path)
    args = ["errorbars", str(path), "--ess", "20", "--target", "x39_39=s0", "--evidence", "x0_0=s0"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "sampling error of the estimate: se" in text and "the sd above is the parameter error" in text
    assert "why estimated: exact inference does not fit" in text
    record = run_json(capsys, *args)["results"][0]
    assert 0 < record["sampling"]["se"] < 0.01 and record["sd"] > 0
