"""Honest reports: partial cells (fewer runs than the study asks for) are marked everywhere and left out of the
comparisons; the report says whether the study finished, was interrupted or still runs; query studies pair
their data sets, not their queries."""
from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys

import numpy as np
import pytest
from scipy.stats import binomtest, wilcoxon

from bnstudio.experiment import summary
from bnstudio.experiment.html import cell_text, page
from bnstudio.experiment.report import compose_report
from bnstudio.experiment.status import study_status
from bnstudio.experiment.store import StudyStore
from tests.experiment.test_driver import _interrupted


def _row(dataset, structure, method, fold, value, status="done"):
    return {"dataset": dataset, "structure": structure, "method": method, "fold": fold, "seed": 0,
            "status": status, "metrics": {"error": value} if status == "done" else None}


def _rows(folds_done: dict[tuple[str, str], int], rng) -> list[dict]:
    """Rows of a 5-fold study: (data set, method) -> folds finished (the others pending)."""
    rows = []
    for (dataset, method), done in folds_done.items():
        for fold in range(5):
            value = float(rng.uniform(0.1, 0.3))
            rows.append(_row(dataset, "nb", method, fold, value, "done" if fold < done else "pending"))
    return rows


def test_a_cell_with_fewer_runs_than_asked_is_partial_and_left_out_of_the_comparisons():
    rng = np.random.default_rng(0)
    done = {(f"d{k}", m): 5 for k in range(6) for m in ("mp", "clgd")}
    done["d1", "clgd"] = 4          # an interrupted cell
    done["d4", "mp"] = 2            # a partial baseline cell
    rows = _rows(done, rng)
    table = summary.cells(rows, "error", expected=5)
    assert table["d1", "nb", "clgd"].partial and (table["d1", "nb", "clgd"].runs, table["d1", "nb", "clgd"].n) == (4, 4)
    assert not table["d0", "nb", "clgd"].partial
    [found] = summary.comparisons(rows, "error", ["nb"], ["mp", "clgd"], "mp", expected=5)
    assert (found.n, found.left_out) == (4, 2)
    complete = [d for d in ("d0", "d2", "d3", "d5")]
    a = [table[d, "nb", "clgd"].mean for d in complete]
    b = [table[d, "nb", "mp"].mean for d in complete]
    assert found.wilcoxon_p == pytest.approx(wilcoxon(np.subtract(b, a)).pvalue)
    wins = sum(x < y for x, y in zip(a, b, strict=True))
    assert found.wins == wins and found.sign_p == pytest.approx(binomtest(wins, 4, 0.5).pvalue)
    assert cell_text({"mean": 0.1417, "sd": 0.01, "partial": True}, "error") == "14.17 ± 1.00 †"


def test_the_status_says_finished_interrupted_or_running():
    counts = {"done": 3, "failed": 0, "pending": 0}
    assert study_status({"pid": os.getpid(), "started": 1.0}, counts) == "running"
    assert study_status({"pid": os.getpid(), "ended": 2.0, "stopped": False}, counts) == "finished"
    assert study_status({"pid": os.getpid(), "ended": 2.0, "stopped": True}, counts) == "interrupted"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    assert study_status({"pid": dead.pid, "started": 1.0}, counts) == "interrupted"   # killed: no end written
    assert study_status(None, {"done": 0, "failed": 0, "pending": 4}) == "not started"


# ------------------------------------------------------------------------------------------- query studies
def _query_rows(rng, datasets: int, queries: int) -> tuple[list[dict], np.ndarray]:
    truth = rng.uniform(0.1, 0.9, queries)
    rows = []
    for d in range(datasets):
        shift = rng.normal(0, 0.05)       # a data set's draw moves all its queries together: dependence
        for method, noise in (("mp", 0.04), ("bagged", 0.03)):
            answers = truth + shift + rng.normal(0, noise, queries)
            rows.append({"dataset": f"d{d:02d}", "structure": "true", "method": method, "fold": 0, "seed": 0,
                         "status": "done", "metrics": {"answers": answers.tolist(), "truth": truth.tolist()}})
    return rows, truth


def test_query_comparisons_pair_data_sets_with_queries_averaged_per_data_set():
    rows, truth = _query_rows(np.random.default_rng(1), 12, 7)
    found = summary.query_summary(rows, ["true"], ["mp", "bagged"], "mp", expected=12)
    [c] = found["comparisons"]
    per = {m: {} for m in ("mp", "bagged")}
    for row in rows:        # brute force: one number per data set, the mean over queries of the squared error
        answers = row["metrics"]["answers"]
        per[row["method"]][row["dataset"]] = sum((a - t) ** 2 for a, t in zip(answers, truth, strict=True)) / len(truth)
    names = sorted(per["mp"])
    a, b = [per["bagged"][d] for d in names], [per["mp"][d] for d in names]
    assert c["n"] == 12 and c["unit"] == "data sets (queries averaged per data set)" and c["left_out"] == 0
    assert c["wilcoxon_p"] == pytest.approx(wilcoxon(np.subtract(b, a)).pvalue)
    assert c["wins"] == sum(x < y for x, y in zip(a, b, strict=True))
    assert found["methods"]["true/bagged"]["dataset_mse"] == pytest.approx(per["bagged"])


def test_a_query_method_missing_data_sets_is_partial_and_pairs_only_what_both_finished():
    rows, _ = _query_rows(np.random.default_rng(2), 8, 5)
    rows = [r for r in rows if not (r["method"] == "bagged" and r["dataset"] in ("d03", "d06"))]
    found = summary.query_summary(rows, ["true"], ["mp", "bagged"], "mp", expected=8)
    assert found["methods"]["true/bagged"]["partial"] and not found["methods"]["true/mp"]["partial"]
    [c] = found["comparisons"]
    assert (c["n"], c["left_out"]) == (6, 2)


# ------------------------------------------------------------------------------------------- a killed study
@pytest.mark.timeout(120)
def test_a_study_killed_mid_run_is_reported_as_interrupted_with_its_partial_cells_marked(tmp_path):
    _, store_path, _, _ = _interrupted(tmp_path, 6, signal.SIGKILL)
    report = compose_report(store_path, tmp_path / "report")
    document = json.loads(report.json.read_text(encoding="utf-8"))
    assert document["status"] == "interrupted"
    cells = document["tables"]["error"]["cells"]
    partial = {k for k, c in cells.items() if c["partial"]}
    assert partial, "the kill should leave a cell with fewer than 5 folds"
    assert all(c["runs"] < 5 for k, c in cells.items() if k in partial)
    assert all(c["runs"] == 5 for k, c in cells.items() if k not in partial)
    [dataset] = document["tables"]["error"]["datasets"]
    assert document["comparisons"]
    for c in document["comparisons"]:      # one data set: a comparison has it or leaves it out
        key = f"{dataset}|{c['structure']}|{c['method']}"
        base = f"{dataset}|{c['structure']}|{c['baseline']}"
        both_complete = key in cells and base in cells and not (cells[key]["partial"] or cells[base]["partial"])
        assert (c["n"], c["left_out"]) == ((1, 0) if both_complete else (0, 1))
    with open(tmp_path / "report" / "tables" / "cells_error.csv", encoding="utf-8") as handle:
        long = list(csv.DictReader(handle))
    assert {r["partial"] for r in long if f"{r['dataset']}|{r['structure']}|{r['method']}" in partial} == {"1"}
    html = page(document, [], report.folder)
    assert "interrupted" in html and "† partial, left out of the comparisons" in html
    assert "/5 folds" in html
    with StudyStore(store_path, create=False) as store:    # the next run finds the dead driver's run
        assert [r["outcome"] for r in store.runs()] == ["running"]
        store.open_run("the next run")
        store.close_run("finished")
        assert [r["outcome"] for r in store.runs()] == ["interrupted", "finished"]
