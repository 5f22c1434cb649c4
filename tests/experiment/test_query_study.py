"""A query study (Singh §4.6): MP against bagged and m-bagged MP on the true structure, answers compared with the
generating network's, per-query MSE split into bias² and variance, and the report's query table."""
from __future__ import annotations

import math

import numpy as np

from bnstudio.experiment.executors import SerialExecutor
from bnstudio.experiment.runner import run_study
from bnstudio.experiment.spec import load_study
from bnstudio.experiment.store import StudyStore
from bnstudio.experiment.summary import query_summary
from bnstudio.figures.report import write_report
from bnstudio.learn.params import make_learner
from tests.experiment.helpers import ASIA, write_study

QUERIES = f"""
name = "q"
structures = ["true"]
methods = ["mp", {{label = "bagged", method = "bagged-mp", options = {{bags = 6}}}},
           {{label = "m-bagged", method = "m-bagged-mp", options = {{bags = 6}}}}]
metrics = ["mse"]

[queries]
count = 6
seed = 2
evidence_size = [1, 2]

[[datasets]]
network = "{ASIA.as_posix()}"
rows = 60
seed = 1
replicates = 4
"""


def test_a_query_study_scores_answers_against_the_true_network(tmp_path):
    summary = run_study(load_study(write_study(tmp_path, QUERIES, "q")), SerialExecutor())
    assert (summary.total, summary.done, summary.failed) == (12, 12, 0)
    with StudyStore(summary.store, create=False) as store:
        rows = store.rows()
    found = query_summary(rows, ["true"], ["mp", "bagged", "m-bagged"], "mp")
    truth = np.array(found["truth"])
    mp = np.array([r["metrics"]["answers"] for r in sorted(rows, key=lambda r: r["dataset"]) if r["method"] == "mp"])
    entry = found["methods"]["true/mp"]
    np.testing.assert_allclose(entry["mse"], ((mp - truth) ** 2).mean(axis=0))
    np.testing.assert_allclose(np.array(entry["bias2"]) + np.array(entry["variance"]), entry["mse"])   # MSE split
    assert {c["method"] for c in found["comparisons"]} >= {"bagged", "m-bagged"}
    report = write_report(summary.store, tmp_path / "report")
    assert any(p.name == "queries.csv" for p in report.tables) and "Query answers" in report.html.read_text()


def test_m_bagging_draws_floor_sqrt_n_rows_per_bag():
    learner = make_learner("bagged-mp", bags=3, m_bagging=True, seed=0)
    assert set(learner.bag_weights(np.ones(120)).sum(axis=1)) == {math.isqrt(120)}


def test_a_query_report_pairs_data_sets_and_marks_a_method_that_did_not_finish_them_all(tmp_path):
    from bnstudio.experiment.report import compose_report

    summary = run_study(load_study(write_study(tmp_path, QUERIES, "q")), SerialExecutor())
    with StudyStore(summary.store, create=False) as store:     # as if bagged was cut short on one data set
        store.db.execute("UPDATE tasks SET status = 'pending' WHERE method = 'bagged' AND rowid = "
                         "(SELECT MIN(rowid) FROM tasks WHERE method = 'bagged')")
        store.db.commit()
    report = compose_report(summary.store, tmp_path / "report")
    found = report.document["queries"]
    bagged = next(c for c in found["comparisons"] if c["method"] == "bagged")
    assert (bagged["n"], bagged["left_out"], bagged["unit"]) == (3, 1, "data sets (queries averaged per data set)")
    assert found["methods"]["true/bagged"]["partial"] and found["methods"]["true/bagged"]["datasets"] == 3
    assert any("partial: bagged 3/4 data sets" in job.title for job in report.jobs)
    assert report.document["status"] == "incomplete"
